//! The BRK fold: total, never fails. Illegal events a judge forced still fold as recorded.
//!
//! After every event the fold rechecks each action waiting on the stack (BRK-INT-5): one that has
//! become illegal is interrupted automatically, unpaid, with the rule and the reason recorded in
//! its status (see [`super::state::illegal_reason`], the same check `validate` uses).

use super::catalog::{AbilityDef, AbilityKind, Resource, ResourceAmount};
use super::events::{BrkEvent, CardRef, Deployment, Phase, ProtectionHit, RevealProof, RevealReason, Zone};
use super::state::{illegal_reason, priority_after, Action, BrkState, Piece, Status, GOLD_PER_TURN};
use crate::game::{opponent, Outcome, Seat};

pub fn apply(mut s: BrkState, event: &BrkEvent) -> BrkState {
    use BrkEvent::*;
    match event {
        Common(c) => crate::game::common::record(&mut s.ledger, c),
        SquadDeployed { seat, cards } => squad_deployed(&mut s, seat, cards),
        TurnStarted { seat, turn } => turn_started(&mut s, seat, turn),
        MainPhaseEntered { seat } => main_phase_entered(&mut s, seat),
        CardRevealed { piece, reason, proof, .. } => card_revealed(&mut s, piece, reason, proof),
        GameActionDeclared { seat, source, ability, targets, payment } => {
            game_action_declared(&mut s, seat, source, ability, targets, payment)
        }
        PriorityPassed { seat } => priority_passed(&mut s, seat),
        GameActionBlocked { seat, action, blocker, blocker_target } => {
            game_action_blocked(&mut s, seat, action, blocker, blocker_target)
        }
        GameActionInterrupted { seat, action, by, reason } => game_action_interrupted(&mut s, seat, action, by, reason),
        GameActionPerformed { action } => game_action_performed(&mut s, action),
        PaymentMade { action, resources } => payment_made(&mut s, action, resources),
        EffectApplied { action, target, protected_by } => effect_applied(&mut s, action, target, protected_by),
        TurnEnded { .. } => turn_ended(&mut s),
        GameEnded { winner, reason } => game_ended(&mut s, winner, reason),
        CardHidden { piece, .. } => card_hidden(&mut s, piece),
        CardOpened { piece, .. } => card_opened(&mut s, piece),
        CardMoved { piece, to, .. } => card_moved(&mut s, piece, to),
        MarkerPlaced { piece, marker, .. } => marker_placed(&mut s, piece, marker),
        LivesChanged { piece, delta, .. } => lives_changed(&mut s, piece, delta),
    }
    recheck_stack(&mut s);
    s
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

fn turn_started(s: &mut BrkState, seat: &Seat, turn: &u32) {
    s.turn = *turn;
    s.active = Some(*seat);
    s.phase = Phase::Reveal;
    for p in &mut s.players {
        p.gold = GOLD_PER_TURN;
    }
    for p in s.pieces.iter_mut().filter(|p| p.owner == *seat) {
        p.acted = false;
    }
    s.priority = Some(*seat);
    s.passes = 0;
}

fn main_phase_entered(s: &mut BrkState, seat: &Seat) {
    s.phase = Phase::Main;
    s.priority = Some(*seat);
    s.passes = 0;
}

fn card_revealed(s: &mut BrkState, piece: &str, reason: &RevealReason, proof: &Option<RevealProof>) {
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
    if let Some(p) = s.piece_mut(piece) {
        p.hidden = false;
        if let Some(def) = def {
            if !known {
                p.lives = i16::from(def.lives);
            }
            // BRK-HID-2: its markers now, without the stack.
            if p.unmarked_until_reveal {
                p.markers.extend(def.markers.iter().cloned());
            }
        }
        p.unmarked_until_reveal = false;
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
/// identity is still sealed have unknown lives and never die here.
fn deaths(s: &mut BrkState) {
    for p in s.pieces.iter_mut() {
        if p.zone == Zone::Play && p.instance.is_some() && !p.hidden && p.lives <= 0 {
            p.zone = Zone::Graveyard;
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
