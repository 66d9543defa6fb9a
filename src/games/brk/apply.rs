//! The BRK fold: total, never fails. Illegal events a judge forced still fold as recorded.
//!
//! After every event the fold rechecks each action waiting on the stack (BRK-INT-5): one that has
//! become illegal is interrupted automatically, unpaid, with the rule and the reason recorded in
//! its status (see [`super::state::illegal_reason`], the same check `validate` uses).

use super::catalog::{AbilityDef, AbilityKind, Resource, ResourceAmount};
use super::events::{BrkEvent, CardRef, Deployment, Phase, ProtectionHit, RevealProof, RevealReason, Zone};
use super::rules_version::Rules;
use super::state::{illegal_reason, priority_after, Action, BrkState, Piece, Status, GOLD_PER_TURN};
use crate::game::{opponent, Outcome, Seat};

/// Applies one event under rules version 1 (versions 1 to 3 fold alike).
pub fn apply(s: BrkState, event: &BrkEvent) -> BrkState {
    apply_as(s, event, Rules::FIRST)
}

/// Applies one event under `rules`. Up to version 3 the fold places a revealed card's
/// markers inside `CardRevealed` (BRK-HID-2), opens the active player's cards inside
/// `TurnStarted` (BRK-FRAG-6) and moves a card with no lives left to the graveyard inside the
/// event that took its last life (BRK-OPEN-1). From version 4 those events only mark the step
/// owed ([`super::state::Owed`]), and `MarkersPlacedOnReveal`, `CardsOpened` and
/// `CardsSentToGraveyard` do it, so a table that forgot one shows it on the board. From version
/// 5 a death left out is remembered ([`super::state::Owed::left_dead`]) and not owed again.
pub fn apply_as(mut s: BrkState, event: &BrkEvent, rules: Rules) -> BrkState {
    use BrkEvent::*;
    let folds = !rules.owed_steps;
    // The deaths are checked where the event took lives (effects, payments, lives changed), deep in
    // the fold: they read which fold this is from the state.
    s.owed.rules = rules;
    if !folds {
        // A step the table left out is owed no more once the game moved on past it.
        for due in s.left_out(event) {
            s.leave_out(&due);
        }
    }
    match event {
        Common(c) => crate::game::common::record(&mut s.ledger, c),
        SquadDeployed { seat, cards } => squad_deployed(&mut s, seat, cards),
        TurnStarted { seat, turn } => turn_started(&mut s, seat, turn, folds),
        MainPhaseEntered { seat } => main_phase_entered(&mut s, seat),
        CardRevealed { piece, reason, proof, .. } => card_revealed(&mut s, piece, reason, proof, folds),
        GameActionDeclared { seat, source, ability, targets, payment } => {
            game_action_declared(&mut s, seat, source, ability, targets, payment)
        }
        PriorityPassed { seat } => {
            // Version 6: a card revealed to act that could not act is released by its
            // controller moving on (BRK-HID-4; the rules accept the pass only then).
            if rules.declaring_lapses {
                s.declaring = None;
            }
            priority_passed(&mut s, seat)
        }
        GameActionBlocked { seat, action, blocker, blocker_target } => {
            game_action_blocked(&mut s, seat, action, blocker, blocker_target)
        }
        GameActionInterrupted { seat, action, by, reason } => game_action_interrupted(&mut s, seat, action, by, reason),
        GameActionPerformed { action } => game_action_performed(&mut s, action),
        PaymentMade { action, resources } => payment_made(&mut s, action, resources),
        EffectApplied { action, target, protected_by } => effect_applied(&mut s, action, target, protected_by),
        TurnEnded { .. } => {
            if rules.declaring_lapses {
                s.declaring = None;
            }
            turn_ended(&mut s)
        }
        GameEnded { winner, reason } => game_ended(&mut s, winner, reason),
        CardHidden { piece, .. } => card_hidden(&mut s, piece),
        CardOpened { piece, .. } => card_opened(&mut s, piece),
        CardMoved { piece, to, .. } => card_moved(&mut s, piece, to),
        MarkerPlaced { piece, marker, .. } => marker_placed(&mut s, piece, marker),
        LivesChanged { piece, delta, .. } => lives_changed(&mut s, piece, delta),
        MarkersPlacedOnReveal { piece, markers } => markers_placed_on_reveal(&mut s, piece, markers),
        CardsOpened { pieces, .. } => cards_opened(&mut s, pieces),
        CardsSentToGraveyard { pieces } => cards_sent_to_graveyard(&mut s, pieces),
    }
    if s.owed.rules.remembers_left_dead {
        s.forget_revived();
        // A card can show it has no lives left without losing one: a damaged hidden card turning
        // face up. Version 5's victory counts no dead card, so its death is owed at once, before
        // the game's end (version 4 finds it only at the next change of lives).
        deaths(&mut s);
    }
    recheck_stack(&mut s);
    s
}

/// BRK-HID-2 (rules version 4): the markers as recorded go onto the piece (a wrong list is
/// placed all the same, as the fold does for every event; the rules cite it).
fn markers_placed_on_reveal(s: &mut BrkState, piece: &str, markers: &[String]) {
    if let Some(p) = s.piece_mut(piece) {
        p.markers.extend(markers.iter().cloned());
    }
    s.settle(&BrkEvent::MarkersPlacedOnReveal { piece: piece.to_string(), markers: markers.to_vec() });
}

/// BRK-FRAG-6 (rules version 4): the pieces named open; the turn start's opening is done.
fn cards_opened(s: &mut BrkState, pieces: &[String]) {
    for id in pieces {
        if let Some(p) = s.piece_mut(id) {
            p.acted = false;
        }
    }
    s.owed.opening = None;
}

/// BRK-OPEN-1 (rules version 4): the pieces named go to the graveyard (face up, as every card
/// leaving play does), whether their death is owed or, from version 5, was left out earlier.
fn cards_sent_to_graveyard(s: &mut BrkState, pieces: &[String]) {
    for id in pieces {
        card_moved(s, id, &Zone::Graveyard);
    }
    s.owed.dying.retain(|x| !pieces.contains(x));
    s.owed.left_dead.retain(|x| !pieces.contains(x));
}

fn squad_deployed(s: &mut BrkState, seat: &Seat, cards: &[Deployment]) {
    s.players.update(*seat, |p| p.deployed = true);
    for (n, d) in cards.iter().enumerate() {
        let (instance, sealed) = match &d.card {
            CardRef::Open(i) => (Some(i.clone()), None),
            CardRef::Sealed(c) => {
                s.ledger.card_sealed(*c);
                (None, Some(*c))
            }
        };
        let mut piece = Piece {
            id: BrkState::piece_id(*seat, n),
            owner: *seat,
            cell: d.cell,
            instance,
            sealed,
            hidden: d.hidden,
            unmarked_until_reveal: d.hidden,
            zone: Zone::Play,
            lives: 0,
            markers: Vec::new(),
            acted: false,
            triggers_used: Vec::new(),
        };
        if let Some(def) = s.def_of(&piece).cloned() {
            piece.lives = i16::from(def.lives);
            if !d.hidden {
                piece.markers = def.markers.clone();
            }
        }
        s.pieces.push(piece);
    }
}

/// A turn starts. Up to rules version 3 (`folds`) the active player's cards open here; from
/// version 4 their opening is owed, a step of its own (BRK-FRAG-6).
fn turn_started(s: &mut BrkState, seat: &Seat, turn: &u32, folds: bool) {
    s.turn = *turn;
    s.active = Some(*seat);
    s.phase = Phase::Reveal;
    for p in &mut s.players {
        p.gold = GOLD_PER_TURN;
    }
    if folds {
        for p in s.pieces.iter_mut().filter(|p| p.owner == *seat) {
            p.acted = false;
        }
    } else {
        // Owed only when it opens something: a turn start with no card that acted has no step.
        let acted = s.in_play(*seat).any(|p| p.acted);
        s.owed.opening = acted.then_some(*seat);
    }
    s.priority = Some(*seat);
    s.passes = 0;
}

fn main_phase_entered(s: &mut BrkState, seat: &Seat) {
    s.phase = Phase::Main;
    s.priority = Some(*seat);
    s.passes = 0;
}

/// A hidden card turns face up. Up to rules version 3 (`folds`) a card that started the battle
/// hidden gets its markers here; from version 4 they are owed, a step of its own (BRK-HID-2).
fn card_revealed(s: &mut BrkState, piece: &str, reason: &RevealReason, proof: &Option<RevealProof>, folds: bool) {
    let (commitment, known) = match s.piece(piece) {
        Some(p) => (p.sealed, p.instance.is_some()),
        None => (None, true),
    };
    if let (Some(c), false, Some(pr)) = (commitment, known, proof) {
        s.ledger.card_revealed(&c, &pr.instance);
        if let Some(p) = s.piece_mut(piece) {
            p.instance = Some(pr.instance.clone());
        }
    }
    let def = s.piece(piece).and_then(|p| s.def_of(p)).cloned();
    let mut owed_markers = None;
    if let Some(p) = s.piece_mut(piece) {
        p.hidden = false;
        if let Some(def) = def {
            if !known {
                p.lives = i16::from(def.lives);
            }
            // BRK-HID-2: its markers now, without the stack (version 4: a step of its own).
            if p.unmarked_until_reveal && folds {
                p.markers.extend(def.markers.iter().cloned());
            } else if p.unmarked_until_reveal && !def.markers.is_empty() {
                owed_markers = Some(def.markers.clone());
            }
        }
        p.unmarked_until_reveal = false;
    }
    if let Some(markers) = owed_markers {
        s.owed.markers.push((piece.to_string(), markers));
    }
    s.pending_reveals.retain(|x| x != piece);
    if *reason == RevealReason::DeclaredAction {
        s.declaring = Some(piece.to_string());
    }
}

fn game_action_declared(
    s: &mut BrkState,
    seat: &Seat,
    source: &str,
    ability: &u8,
    targets: &[String],
    payment: &[ResourceAmount],
) {
    let def = s.piece(source).and_then(|p| s.def_of(p));
    let ab = def.and_then(|d| d.ability(*ability)).cloned().unwrap_or_else(|| AbilityDef {
        name: format!("unknown ability #{ability}"),
        kind: AbilityKind::Attack,
        amount: 0,
        cost: Vec::new(),
        trigger: Default::default(),
        tags: Vec::new(),
        requires: None,
        marker: None,
        pierces: Vec::new(),
    });
    let id = u32::try_from(s.actions.len() + 1).unwrap_or(u32::MAX);
    let assumed: Vec<String> = targets.iter().filter(|t| s.piece(t).is_some_and(|p| p.hidden)).cloned().collect();
    for t in &assumed {
        if !s.pending_reveals.contains(t) {
            s.pending_reveals.push(t.clone());
        }
    }
    let trigger = ab.trigger;
    if let Some(p) = s.piece_mut(source) {
        match trigger {
            super::catalog::Trigger::Activated => p.acted = true,
            _ => p.triggers_used.push(*ability),
        }
    }
    s.actions.push(Action {
        id,
        seat: *seat,
        source: source.to_string(),
        ability: ab,
        targets: targets.to_vec(),
        assumed,
        payment: payment.to_vec(),
        status: Status::OnStack,
        paid: None,
        applied: Vec::new(),
        declared_at: s.ledger.seq(),
    });
    s.stack.push(id);
    s.declaring = None;
    s.priority = priority_after(s, *seat);
    s.passes = 0;
}

fn priority_passed(s: &mut BrkState, seat: &Seat) {
    s.passes = s.passes.saturating_add(1);
    s.priority = Some(opponent(*seat));
}

fn game_action_blocked(s: &mut BrkState, seat: &Seat, action: &u32, blocker: &str, blocker_target: &str) {
    leave_stack(s, *action, Status::Blocked { blocker: blocker.to_string() });
    s.resolving = Some(*action);
    act(s, blocker, AbilityKind::Block);
    if s.piece(blocker_target).is_some_and(|p| p.hidden && p.zone == Zone::Play) {
        s.pending_reveals.push(blocker_target.to_string());
    }
    s.declaring = None;
    s.priority = priority_after(s, *seat);
    s.passes = 0;
}

fn game_action_interrupted(s: &mut BrkState, seat: &Seat, action: &u32, by: &str, reason: &str) {
    let why = format!("{by}: {reason}");
    leave_stack(s, *action, Status::Interrupted { rule: "BRK-INT-1", why, automatic: false });
    act(s, by, AbilityKind::Interrupt);
    s.declaring = None;
    s.priority = priority_after(s, *seat);
    s.passes = 0;
}

fn game_action_performed(s: &mut BrkState, action: &u32) {
    leave_stack(s, *action, Status::Performing);
    s.resolving = Some(*action);
    s.priority = None;
    s.passes = 0;
}

fn payment_made(s: &mut BrkState, action: &u32, resources: &[ResourceAmount]) {
    let (seat, source) = match s.action_mut(*action) {
        Some(a) => {
            a.paid = Some(resources.to_vec());
            (a.seat, a.source.clone())
        }
        None => (0, String::new()),
    };
    charge(s, seat, &source, resources);
    finish_if_applied(s, *action);
}

fn effect_applied(s: &mut BrkState, action: &u32, target: &str, protected_by: &Option<ProtectionHit>) {
    let ab = s.action(*action).map(|a| a.ability.clone());
    if let Some(a) = s.action_mut(*action) {
        a.applied.push(target.to_string());
    }
    if let (Some(ab), None) = (ab, protected_by) {
        let max = s.piece(target).and_then(|p| s.def_of(p)).map_or(i16::MAX, |d| i16::from(d.lives));
        if let Some(p) = s.piece_mut(target).filter(|p| p.zone == Zone::Play) {
            let n = i16::from(ab.amount);
            match ab.kind {
                AbilityKind::Attack | AbilityKind::Spell | AbilityKind::FinishingBlow => p.lives -= n,
                AbilityKind::Heal => p.lives = (p.lives + n).min(max),
                AbilityKind::Marker => {
                    let m = ab.marker.clone().unwrap_or_default();
                    p.markers.extend(std::iter::repeat_n(m, usize::from(ab.amount)));
                }
                AbilityKind::Block | AbilityKind::Interrupt => {}
            }
        }
        deaths(s);
    }
    finish_if_applied(s, *action);
}

fn turn_ended(s: &mut BrkState) {
    s.phase = Phase::End;
    if s.turn >= 1 {
        s.first_turn_over = true;
    }
    s.priority = None;
    s.passes = 0;
}

fn game_ended(s: &mut BrkState, winner: &Option<Seat>, reason: &str) {
    let seats = s.names.len();
    s.result = Some(match winner {
        Some(w) => Outcome::won(*w, seats, reason.to_string()),
        None => Outcome::draw(seats, reason.to_string()),
    });
    s.priority = None;
}

fn card_hidden(s: &mut BrkState, piece: &str) {
    // BRK-HID-3: its markers stay.
    if let Some(p) = s.piece_mut(piece) {
        p.hidden = true;
    }
}

fn card_opened(s: &mut BrkState, piece: &str) {
    if let Some(p) = s.piece_mut(piece) {
        p.acted = false;
    }
}

fn card_moved(s: &mut BrkState, piece: &str, to: &Zone) {
    if let Some(p) = s.piece_mut(piece) {
        p.zone = *to;
        if *to != Zone::Play {
            p.hidden = false;
        }
    }
}

fn marker_placed(s: &mut BrkState, piece: &str, marker: &str) {
    if let Some(p) = s.piece_mut(piece) {
        p.markers.push(marker.to_string());
    }
}

fn lives_changed(s: &mut BrkState, piece: &str, delta: &i8) {
    if let Some(p) = s.piece_mut(piece) {
        p.lives += i16::from(*delta);
    }
    deaths(s);
}

fn leave_stack(s: &mut BrkState, id: u32, status: Status) {
    s.stack.retain(|x| *x != id);
    if let Some(a) = s.action_mut(id) {
        a.status = status;
    }
}

/// A card blocked or interrupted: it has acted (BRK-FRAG-6) and its ability's cost is paid at once.
fn act(s: &mut BrkState, piece: &str, kind: AbilityKind) {
    let Some(p) = s.piece(piece) else { return };
    let seat = p.owner;
    let cost = s.def_of(p).and_then(|d| d.ability_of(kind).and_then(|i| d.ability(i))).map(|a| a.cost.clone());
    if let Some(p) = s.piece_mut(piece) {
        p.acted = true;
    }
    charge(s, seat, piece, &cost.unwrap_or_default());
}

/// Takes a payment from `seat`'s gold and `source`'s lives. Lives paid are not wounds from an
/// effect, so no protection applies (BRK-FRAG-1: a payment has no source or target).
fn charge(s: &mut BrkState, seat: Seat, source: &str, resources: &[ResourceAmount]) {
    for r in resources {
        match r.resource {
            Resource::Gold => {
                s.players.update(seat, |p| p.gold = p.gold.saturating_sub(r.amount));
            }
            Resource::Lives => {
                if let Some(p) = s.piece_mut(source) {
                    p.lives -= i16::from(r.amount);
                }
            }
        }
    }
    deaths(s);
}

/// Cards in play with no lives left go to the graveyard (skeleton, BRK-OPEN-1). Cards whose
/// identity is still sealed have unknown lives and never die here. Up to rules version 3 the fold
/// moves them inside the event that took their last life; from version 4
/// ([`super::state::Owed::recorded`]) their move is owed, a step of its own (`CardsSentToGraveyard`).
/// Version 4 owes again every death a table left out; from version 5 a death left out
/// ([`super::state::Owed::left_dead`]) is owed no more.
fn deaths(s: &mut BrkState) {
    let folds = !s.owed.rules.owed_steps;
    for p in s.pieces.iter_mut().filter(|p| BrkState::out_of_lives(p)) {
        if folds {
            p.zone = Zone::Graveyard;
        } else if !s.owed.dying.contains(&p.id) && !s.owed.left_dead.contains(&p.id) {
            s.owed.dying.push(p.id.clone());
        }
    }
}

/// A performed action whose payment and effects are all recorded is done; priority returns to the active player.
fn finish_if_applied(s: &mut BrkState, id: u32) {
    let Some(a) = s.action_mut(id) else { return };
    let done = a.status == Status::Performing && a.paid.is_some() && a.targets.iter().all(|t| a.applied.contains(t));
    if done {
        a.status = Status::Done;
        s.priority = if s.phase == Phase::Main { s.active } else { None };
        s.passes = 0;
    }
}

/// BRK-INT-5: every waiting action is rechecked; one that became illegal is interrupted unpaid.
fn recheck_stack(s: &mut BrkState) {
    let ids = s.stack.clone();
    for id in ids {
        let Some(a) = s.action(id) else { continue };
        if let Some((rule, why)) = illegal_reason(s, a) {
            leave_stack(s, id, Status::Interrupted { rule, why, automatic: true });
        }
    }
}
