//! `validate` for BRK: every violation an event would cause, each with its digest rule ID, plus
//! the pure legality checks the fold and the agent share ([`illegal_reason`], [`expected_protection`],
//! [`victory`]).
//!
//! What the seed gives (526–529) is enforced under its own IDs: the stack (BRK-STACK), interruption
//! (BRK-INT), blocking (BRK-BLOCK), protection (BRK-PROT), hidden cards (BRK-HID) and once per turn
//! (BRK-FRAG-6). Everything else is the `minimal` skeleton of BRK-OPEN-1, NOT from the seed, and
//! its checks cite `BRK-OPEN-1`:
//! - two players; seat 0 is the First player; turn `n` belongs to seat `(n - 1) % 2`;
//! - before turn 1 each player deploys the whole squad onto distinct cells of a 3×5 side, any card
//!   face up or hidden (a hidden card's identity sealed);
//! - a turn is the Reveal subphase, then the main phase, where game actions are declared by the
//!   priority holder; the turn ends with an empty stack;
//! - each player has 3 gold at the start of every turn; a declaration must be payable even if
//!   every action of that player on the stack is blocked (BRK-BLOCK-5);
//! - each declared action has exactly one target, a card in play; activated abilities come from
//!   cards in play, on-death abilities from the graveyard, on-return abilities from the deck,
//!   each of those once;
//! - a card with no lives left goes to the graveyard; a player with no card in play loses (both: a
//!   draw); after turn 30 the player with more cards in play wins.
//!
//! Stack sequencing (derived): an action leaves the stack when it is blocked, interrupted or
//! performed; a blocked or performed action is paid at once, before anything else (the payment
//! has no source or target, BRK-FRAG-1); a performed action then applies its effect to each
//! target before anything else. Recorder checks: `KIFU-SEAT-1` (a seat the game lacks),
//! `KIFU-CARD-1` (a piece or ability that does not exist), `KIFU-CARD-2` (an instance the
//! squad lacks), `KIFU-SEAL-1` (a sealed identity revealed wrongly).

use super::catalog::{AbilityKind, Resource, ResourceAmount, Trigger};
use super::events::{BrkEvent, CardRef, Phase, ProtectionHit, RevealReason, Zone};
use super::rules_version::Rules;
pub use super::state::{illegal_reason, priority_after};
use super::state::{Action, BrkState, Piece, Status, TURN_LIMIT};
use crate::game::{LateViolation, Seat, Violation};

/// The rule-check scaffold on a BRK state (see [`crate::game::check`]).
type Check<'a> = crate::game::check::Check<'a, BrkState>;

/// Every rule `event` would break if applied to `state`, under rules version 1.
pub fn validate(s: &BrkState, event: &BrkEvent) -> Vec<Violation> {
    validate_as(s, event, Rules::FIRST)
}

/// Every rule `event` would break under `rules`: version 2 adds [`escape_hatch_checks`]
/// and [`decided_checks`] to version 1's, which stay as released so old games audit unchanged;
/// version 3 leaves a false assumption about one's own hidden card (BRK-HID-10) out of the
/// reveal's violations: it is cited at the declaration ([`revealed_violations`]). Version 4
/// records a revealed card's markers, the turn start's opening and the deaths as steps of their
/// own (checked in every version by [`Check::owed_step`]: no earlier game owes one) and holds a
/// game that moved on without them to the rules they break ([`steps_left_out`]). Version 5 owes
/// and cites a death left out only once, accepts a late `CardsSentToGraveyard` for it, and no
/// longer counts a card with no lives left as in play for the victory ([`victory_as`]).
pub fn validate_as(s: &BrkState, event: &BrkEvent, rules: Rules) -> Vec<Violation> {
    let mut c = Check::new(s);
    c.check(event, rules);
    let mut out = c.finish();
    if rules.decided_game_ends && s.result.is_none() {
        out.extend(decided_checks(s, event, rules));
    }
    if rules.escape_hatches_held && s.result.is_none() {
        out.extend(escape_hatch_checks(s, event));
    }
    if rules.owed_steps && s.result.is_none() {
        out.extend(steps_left_out(s, event));
    }
    out
}

/// The rule that owes the step `step` (rules version 4), and what it does in words.
fn step_rule(s: &BrkState, step: &BrkEvent) -> (&'static str, String) {
    match step {
        BrkEvent::MarkersPlacedOnReveal { piece, markers } => {
            ("BRK-HID-2", format!("revealed {piece} gets its markers {}", markers.join(", ")))
        }
        BrkEvent::CardsOpened { seat, pieces } => (
            "BRK-FRAG-6",
            format!("{}'s cards that acted open at the turn start: {}", s.name(*seat), pieces.join(", ")),
        ),
        BrkEvent::CardsSentToGraveyard { pieces } => {
            ("BRK-OPEN-1", format!("cards with no lives left go to the graveyard: {}", pieces.join(", ")))
        }
        _ => ("BRK-OPEN-1", String::new()),
    }
}

/// Version 4: an event that moves the game on while a step is owed leaves that step out
/// ([`BrkState::left_out`]); it is cited here, once, under the owed step's rule, where the table
/// moved on without it (the fold then owes it no more).
fn steps_left_out(s: &BrkState, event: &BrkEvent) -> Vec<Violation> {
    s.left_out(event)
        .iter()
        .map(|due| {
            let (rule, what) = step_rule(s, due);
            Violation::new(rule, format!("{what}: due first and not recorded"))
        })
        .collect()
}

/// BRK-HID-10: the actions on the stack whose declaring player treated their own hidden `p` as
/// having a trait that `instance`, its identity now revealed, lacks. The mistake was made at the
/// declaration (where only the owner could know the sealed card), so each names that event.
fn false_assumptions(s: &BrkState, p: &Piece, instance: Option<&str>) -> Vec<LateViolation> {
    let Some(def) = instance.and_then(|i| s.def(i)) else { return vec![] };
    let mut out = Vec::new();
    for a in s.stack.iter().filter_map(|id| s.action(*id)) {
        if a.seat == p.owner && a.assumed.contains(&p.id) {
            if let Some(x) = a.ability.requires.as_ref().filter(|x| !def.has_trait(x)) {
                let message = format!(
                    "action #{} treated {}'s own hidden {} as having [{x}]; it has not",
                    a.id,
                    s.name(p.owner),
                    p.id
                );
                out.push(LateViolation { at: a.declared_at, violation: Violation::new("BRK-HID-10", message) });
            }
        }
    }
    out
}

/// Version 3: what a reveal brings to light about the declarations before it
/// ([`crate::game::Game::revealed_violations`]): a false assumption about one's own hidden card.
pub fn revealed_violations(s: &BrkState, event: &BrkEvent) -> Vec<LateViolation> {
    let BrkEvent::CardRevealed { piece, proof, .. } = event else { return vec![] };
    let Some(p) = s.piece(piece) else { return vec![] };
    let instance = p.instance.clone().or_else(|| proof.as_ref().map(|pr| pr.instance.clone()));
    false_assumptions(s, p, instance.as_deref())
}

/// Version 2: once the skeleton's victory holds (BRK-OPEN-1), the game's end is recorded next.
/// Without it a later event could change who lost first (a later loss by the other player turns
/// a win into a draw). From version 5 a late `CardsSentToGraveyard` for a card left dead may
/// still come: it puts the board right and changes no victory, which counts no dead card.
fn decided_checks(s: &BrkState, event: &BrkEvent, rules: Rules) -> Vec<Violation> {
    // What a performed or blocked action still owes (a reveal, its payment, its effects) is part
    // of the same resolution and comes first, as the automatic steps record it.
    let owing = !s.pending_reveals.is_empty()
        || s.payment_due().is_some()
        || s.performing().is_some()
        || !s.owed_steps().is_empty();
    let decided = if owing || s.declaring.is_some() { None } else { victory_as(s, rules) };
    let late_death = rules.remembers_left_dead && matches!(event, BrkEvent::CardsSentToGraveyard { .. });
    match (decided, event) {
        (Some((_, why)), e) if !matches!(e, BrkEvent::GameEnded { .. } | BrkEvent::Common(_)) && !late_death => {
            vec![Violation::new("BRK-OPEN-1", format!("the game is decided ({why}); its end comes next"))]
        }
        _ => vec![],
    }
}

/// Version 2: the escape hatches held to the rules that govern what they change. An effect
/// places markers, changes lives or opens a card only in play (BRK-OPEN-1: the skeleton has
/// no effects on cards elsewhere); a face-up card gets no marker of a kind it is protected from
/// (BRK-PROT-1), while a hidden card's protections are absent (BRK-HID-6), so it may.
fn escape_hatch_checks(s: &BrkState, event: &BrkEvent) -> Vec<Violation> {
    let (piece, what) = match event {
        BrkEvent::MarkerPlaced { piece, .. } => (piece, "gets a marker"),
        BrkEvent::LivesChanged { piece, .. } => (piece, "changes lives"),
        BrkEvent::CardOpened { piece, .. } => (piece, "opens"),
        _ => return vec![],
    };
    // A piece that does not exist is version 1's KIFU-CARD-1 already.
    let Some(p) = s.piece(piece) else { return vec![] };
    let mut out = Vec::new();
    if p.zone != Zone::Play {
        out.push(Violation::new(
            "BRK-OPEN-1",
            format!("{piece} is in the {}: only a card in play {what}", p.zone.name()),
        ));
    }
    if let BrkEvent::MarkerPlaced { marker, .. } = event {
        let def = s.def_of(p).filter(|_| !p.hidden);
        let prot = def.and_then(|d| d.protections.iter().find(|x| x.components.iter().any(|c| c == marker)));
        if let Some(prot) = prot {
            out.push(Violation::new(
                "BRK-PROT-1",
                format!("{piece} has protection {} from {marker}: it gets no {marker} markers", prot.name),
            ));
        }
    }
    out
}

/// The gold of `seat` already promised to its actions on the stack (BRK-BLOCK-5: a blocked action still pays).
fn committed_gold(s: &BrkState, seat: Seat) -> u32 {
    s.stack.iter().filter_map(|id| s.action(*id)).filter(|a| a.seat == seat).map(|a| gold_of(&a.payment)).sum()
}

/// A list of names as a set: a step may name a piece in any order, and more than once.
fn as_set(names: &[String]) -> std::collections::BTreeSet<&str> {
    names.iter().map(String::as_str).collect()
}

/// A list of markers in order: their kinds and counts, whatever order they were named in.
fn sorted(markers: &[String]) -> Vec<&str> {
    let mut v: Vec<&str> = markers.iter().map(String::as_str).collect();
    v.sort_unstable();
    v
}

fn gold_of(r: &[ResourceAmount]) -> u32 {
    r.iter().filter(|x| x.resource == Resource::Gold).map(|x| u32::from(x.amount)).sum()
}

fn pierced(a: &Action, protection: &str, component: &str) -> bool {
    a.ability
        .pierces
        .iter()
        .any(|p| p.protection == protection && p.component.as_deref().is_none_or(|c| c == component))
}

/// The protection component that stops `a`'s effect on `target` (BRK-PROT-1..3), if any. A hidden
/// card's constant features are absent (BRK-HID-6), so it has no protection while hidden.
pub fn expected_protection(s: &BrkState, a: &Action, target: &str) -> Option<ProtectionHit> {
    let p = s.piece(target)?;
    if p.hidden {
        return None;
    }
    let def = s.def_of(p)?;
    for prot in &def.protections {
        for c in &prot.components {
            if a.ability.tags.contains(c) && !pierced(a, &prot.name, c) {
                return Some(ProtectionHit { protection: prot.name.clone(), component: c.clone() });
            }
        }
    }
    None
}

/// The skeleton's result (BRK-OPEN-1) under rules version 1 to 4, once there is one: the winner
/// (`None`: a draw) and why.
pub fn victory(s: &BrkState) -> Option<(Option<Seat>, String)> {
    victory_as(s, Rules::FIRST)
}

/// The skeleton's result (BRK-OPEN-1) under `rules`. From version 5 a card with no lives
/// left ([`BrkState::out_of_lives`]) is not counted in play, whether its move to the graveyard
/// is owed or was left out: a player whose only cards are dead has lost (versions 1 to 4 count
/// such a card, so a table that left it in play kept its owner in the game).
pub fn victory_as(s: &BrkState, rules: Rules) -> Option<(Option<Seat>, String)> {
    if s.phase == Phase::Setup {
        return None;
    }
    let counted = |p: &&Piece| !rules.remembers_left_dead || !BrkState::out_of_lives(p);
    let n = [s.in_play(0).filter(counted).count(), s.in_play(1).filter(counted).count()];
    match n {
        [0, 0] => return Some((None, "BRK-OPEN-1: neither player has a card in play".into())),
        [0, _] => return Some((Some(1), format!("BRK-OPEN-1: {} has no card in play", s.name(0)))),
        [_, 0] => return Some((Some(0), format!("BRK-OPEN-1: {} has no card in play", s.name(1)))),
        _ => {}
    }
    if s.turn >= TURN_LIMIT && s.phase == Phase::End {
        let reason = format!("BRK-OPEN-1: after turn {TURN_LIMIT}, cards in play {} to {}", n[0], n[1]);
        let winner = match n[0].cmp(&n[1]) {
            std::cmp::Ordering::Greater => Some(0),
            std::cmp::Ordering::Less => Some(1),
            std::cmp::Ordering::Equal => None,
        };
        return Some((winner, reason));
    }
    None
}

impl Check<'_> {
    fn piece(&mut self, id: &str) -> Option<&Piece> {
        let p = self.state.piece(id);
        if p.is_none() {
            self.violation("KIFU-CARD-1", format!("there is no piece {id}"));
        }
        p
    }

    fn action(&mut self, id: u32) -> Option<&Action> {
        let a = self.state.action(id);
        if a.is_none() {
            self.violation("KIFU-CARD-1", format!("no game action #{id} was declared"));
        }
        a
    }

    fn needs_priority(&mut self, seat: Seat, what: &str) {
        if self.state.phase != Phase::Main {
            self.violation(
                "BRK-OPEN-1",
                format!("{what} only in the main phase (skeleton); it is the {} phase", self.state.phase.name()),
            );
        } else if self.state.priority != Some(seat) {
            let holder = self.state.priority.map_or("nobody".to_string(), |p| self.state.name(p));
            self.violation("BRK-STACK-3", format!("{} does not hold priority ({holder} does)", self.state.name(seat)));
        }
    }

    /// The checks on a card that acts (declares, blocks or interrupts) from play.
    fn acting_card(&mut self, seat: Seat, id: &str) -> Option<&Piece> {
        let p = self.piece(id)?;
        let p = p.clone();
        if p.owner != seat {
            self.violation("BRK-OPEN-1", format!("{id} is not {}'s card", self.state.name(seat)));
        }
        if p.hidden {
            self.violation("BRK-HID-4", format!("hidden {id} must be revealed when it acts"));
        }
        self.state.piece(id)
    }

    fn affordable(&mut self, seat: Seat, cost: &[ResourceAmount], rule: &'static str) {
        let need = gold_of(cost) + committed_gold(self.state, seat);
        let have = u32::from(self.state.gold(seat));
        if need > have {
            self.violation(
                rule,
                format!("{} would owe {need} gold with {have} (a blocked action still pays)", self.state.name(seat)),
            );
        }
    }

    /// The moment's obligations: pending reveals, a due payment, an action being performed.
    fn sequencing(&mut self, event: &BrkEvent, rules: Rules) {
        let s = self.state;
        if !s.pending_reveals.is_empty() {
            let ok = matches!(event, BrkEvent::CardRevealed { piece, .. } if s.pending_reveals.contains(piece));
            if !ok {
                self.violation(
                    "BRK-HID-4",
                    format!("targeted hidden {} must be revealed first", s.pending_reveals.join(", ")),
                );
            }
        }
        if let Some(p) = &s.declaring {
            let ok = match event {
                BrkEvent::GameActionDeclared { source, .. } => source == p,
                BrkEvent::GameActionBlocked { blocker, .. } => blocker == p,
                BrkEvent::GameActionInterrupted { by, .. } => by == p,
                _ => false,
            };
            if !ok {
                // From version 6 a card that can no longer act (no payable action, or it left
                // play) does not hold the game up. Asked only of an event that is not the card's
                // action: `can_act` validates the card's own actions, which are.
                let lapsed = rules.declaring_lapses && !can_act(s, p, rules);
                if !lapsed {
                    self.violation("BRK-HID-4", format!("{p} was revealed to act; its game action must come next"));
                }
            }
        }
        // A reveal of a card the block just targeted comes before the payment (it uses no stack).
        let pending_reveal = matches!(event, BrkEvent::CardRevealed { piece, .. } if s.pending_reveals.contains(piece));
        if let Some(a) = s.payment_due() {
            if !matches!(event, BrkEvent::PaymentMade { .. }) && !pending_reveal {
                let (rule, what) = match a.status {
                    Status::Blocked { .. } => ("BRK-BLOCK-5", "blocked"),
                    _ => ("BRK-BLOCK-6", "performed"),
                };
                self.violation(rule, format!("{what} action #{} left the stack but its source has not paid", a.id));
            }
        } else if let Some(a) = s.performing() {
            if !matches!(event, BrkEvent::EffectApplied { .. }) && !pending_reveal {
                self.violation("BRK-STACK-2", format!("action #{} is being performed; its effects come first", a.id));
            }
        }
    }

    fn check(&mut self, event: &BrkEvent, rules: Rules) {
        use BrkEvent::*;
        let s = self.state;
        if let Some(r) = &s.result {
            self.violation("BRK-OPEN-1", format!("the game is over ({})", r.reason));
            return;
        }
        if event.seat().is_some_and(|seat| !self.seat_ok(seat, 2)) {
            return;
        }
        // The owed steps (rules version 4) come first, before what the moment otherwise owes.
        if !event.is_escape_hatch() && !event.is_owed_step() {
            self.sequencing(event, rules);
        }
        match event {
            SquadDeployed { seat, cards } => self.deployed(*seat, cards),
            TurnStarted { seat, turn } => self.turn_started(*seat, *turn),
            MainPhaseEntered { seat } => self.main_phase_entered(*seat),
            CardRevealed { seat, piece, reason, proof } => self.revealed(*seat, piece, *reason, proof.as_ref(), rules),
            GameActionDeclared { seat, source, ability, targets, payment } => {
                self.declared(*seat, source, *ability, targets, payment)
            }
            PriorityPassed { seat } => self.needs_priority(*seat, "priority is passed"),
            GameActionBlocked { seat, action, blocker, blocker_target } => {
                self.blocked(*seat, *action, blocker, blocker_target)
            }
            GameActionInterrupted { seat, action, by, reason } => self.interrupted(*seat, *action, by, reason),
            GameActionPerformed { action } => self.performed(*action),
            PaymentMade { action, resources } => self.paid(*action, resources),
            EffectApplied { action, target, protected_by } => self.effect(*action, target, protected_by.as_ref()),
            TurnEnded { seat } => self.turn_ended(*seat),
            GameEnded { winner, .. } => self.game_ended(*winner, rules),
            CardHidden { piece, .. } => self.hidden(piece),
            MarkerPlaced { piece, .. } => self.marker_placed(piece),
            CardOpened { piece, .. } | CardMoved { piece, .. } | LivesChanged { piece, .. } => {
                self.piece(piece);
            }
            CardsSentToGraveyard { pieces } if rules.remembers_left_dead => self.deaths_named(pieces),
            MarkersPlacedOnReveal { .. } | CardsOpened { .. } | CardsSentToGraveyard { .. } => self.owed_step(event),
            Common(c) => {
                let cx = crate::game::common::Context {
                    ledger: &s.ledger,
                    seats: 2,
                    mode: crate::game::commit::RandomMode::Physical,
                    contributors: &[0, 1],
                };
                self.out.extend(crate::game::common::validate(&cx, c));
            }
        }
    }

    /// Version 4's automatic steps ([`BrkState::owed_steps`]): each names exactly what is owed,
    /// under the rule that owes it: the pieces as a set, a revealed card's markers as its card
    /// gives them (their kinds and counts, in any order).
    fn owed_step(&mut self, event: &BrkEvent) {
        let s = self.state;
        let (rule, _) = step_rule(s, event);
        let Some(want) = s.owed_steps().into_iter().find(|e| e.same_step(event)) else {
            let nothing = match event {
                BrkEvent::MarkersPlacedOnReveal { piece, .. } => {
                    format!("{piece} is no card just revealed after starting the battle hidden, owed markers")
                }
                BrkEvent::CardsOpened { .. } => "no turn start owes its player's cards opening".to_string(),
                _ => "no card in play has lost its last life".to_string(),
            };
            self.violation(rule, nothing);
            return;
        };
        let (_, what) = step_rule(s, &want);
        let same = match (&want, event) {
            (
                BrkEvent::MarkersPlacedOnReveal { markers: w, .. },
                BrkEvent::MarkersPlacedOnReveal { markers: g, .. },
            ) => sorted(w) == sorted(g),
            (BrkEvent::CardsOpened { seat: ws, pieces: w }, BrkEvent::CardsOpened { seat: gs, pieces: g }) => {
                ws == gs && as_set(w) == as_set(g)
            }
            (BrkEvent::CardsSentToGraveyard { pieces: w }, BrkEvent::CardsSentToGraveyard { pieces: g }) => {
                as_set(w) == as_set(g)
            }
            _ => false,
        };
        if !same {
            self.violation(rule, format!("this step names what is owed: {what}"));
        }
    }

    /// Version 5's `CardsSentToGraveyard`: it names dead cards, owed or left dead earlier (a late
    /// step putting the board right after the citation). The owed ones it names all, or none
    /// (they may then come in a step of their own); a card it names that is neither is cited.
    fn deaths_named(&mut self, pieces: &[String]) {
        let s = self.state;
        let owed_step = s.owed_steps().into_iter().find(|e| matches!(e, BrkEvent::CardsSentToGraveyard { .. }));
        let owed = match &owed_step {
            Some(BrkEvent::CardsSentToGraveyard { pieces }) => as_set(pieces),
            _ => Default::default(),
        };
        let left_dead: std::collections::BTreeSet<&str> = s.left_dead().into_iter().collect();
        if owed.is_empty() && left_dead.is_empty() {
            self.violation("BRK-OPEN-1", "no card in play has lost its last life");
            return;
        }
        let named = as_set(pieces);
        let alive: Vec<&str> =
            named.iter().filter(|p| !owed.contains(*p) && !left_dead.contains(*p)).copied().collect();
        if !alive.is_empty() {
            self.violation(
                "BRK-OPEN-1",
                format!("only cards in play with no lives left go to the graveyard, not {}", alive.join(", ")),
            );
        }
        if named.is_empty() {
            self.violation("BRK-OPEN-1", "this step names no card");
        }
        let partly_owed = !named.is_disjoint(&owed) && !owed.is_subset(&named);
        if let Some(step) = owed_step.as_ref().filter(|_| partly_owed) {
            let (_, what) = step_rule(s, step);
            self.violation("BRK-OPEN-1", format!("this step names what is owed: {what}"));
        }
    }

    fn turn_started(&mut self, seat: Seat, turn: u32) {
        let s = self.state;
        let ready = (s.phase == Phase::Setup && (0..2).all(|seat| s.deployed(seat))) || s.phase == Phase::End;
        if !ready {
            self.violation("BRK-OPEN-1", "a turn starts after both squads are deployed or after the last turn ended");
        }
        if turn != s.turn + 1 || seat != ((turn.saturating_sub(1)) % 2) as Seat {
            self.violation("BRK-OPEN-1", format!("turn {} belongs to seat {}", s.turn + 1, s.turn % 2));
        }
        if turn > TURN_LIMIT {
            self.violation("BRK-OPEN-1", format!("the skeleton ends after turn {TURN_LIMIT}"));
        }
    }

    fn main_phase_entered(&mut self, seat: Seat) {
        let s = self.state;
        if s.phase != Phase::Reveal || s.active != Some(seat) {
            self.violation("BRK-OPEN-1", "the active player enters the main phase from the Reveal subphase");
        }
        let due: Vec<&str> = s.reveal_due().iter().map(|p| p.id.as_str()).collect();
        if !due.is_empty() {
            self.violation("BRK-HID-4", format!("the Reveal subphase must reveal {}", due.join(", ")));
        }
    }

    fn turn_ended(&mut self, seat: Seat) {
        let s = self.state;
        if s.phase != Phase::Main || s.active != Some(seat) {
            self.violation("BRK-OPEN-1", "the active player ends the turn from the main phase");
        }
        if !s.stack.is_empty() {
            self.violation("BRK-STACK-3", format!("{} game actions still wait on the stack", s.stack.len()));
        }
    }

    /// The recorded winner must be the one the skeleton's victory conditions give.
    fn game_ended(&mut self, winner: Option<Seat>, rules: Rules) {
        match victory_as(self.state, rules) {
            None => self.violation("BRK-OPEN-1", "no victory condition of the skeleton holds"),
            Some((w, why)) if w != winner => {
                self.violation("BRK-OPEN-1", format!("the skeleton's result is {w:?} ({why}), not {winner:?}"))
            }
            Some(_) => {}
        }
    }

    fn hidden(&mut self, piece: &str) {
        if let Some(p) = self.piece(piece) {
            if p.zone != Zone::Play || p.hidden {
                self.violation("BRK-HID-1", format!("only a face-up card in play can become hidden; {piece} is not"));
            }
        }
    }

    fn marker_placed(&mut self, piece: &str) {
        if let Some(p) = self.piece(piece) {
            if p.unmarked_until_reveal {
                self.violation(
                    "BRK-HID-2",
                    format!("{piece} started the battle hidden: no markers until it is revealed"),
                );
            }
        }
    }

    fn deployed(&mut self, seat: Seat, cards: &[super::events::Deployment]) {
        let s = self.state;
        if s.phase != Phase::Setup || s.deployed(seat) {
            self.violation("BRK-OPEN-1", format!("{} deploys once, before the first turn", s.name(seat)));
        }
        let squad = s.squad(seat).len();
        if cards.len() != squad {
            self.violation("BRK-OPEN-1", format!("the whole squad of {squad} is deployed; got {}", cards.len()));
        }
        let mut cells = std::collections::BTreeSet::new();
        let mut named = std::collections::BTreeSet::new();
        for d in cards {
            if !d.cell.is_valid() || !cells.insert(d.cell) {
                self.violation("BRK-OPEN-1", format!("cell {} is off the 3×5 side or taken twice", d.cell.name()));
            }
            match &d.card {
                // `known`: KIFU-CARD-2 for an instance no squad has.
                CardRef::Open(i) if self.known(i).is_some() => {
                    let mine = super::config::parse_instance(i).is_some_and(|(o, _)| o == seat);
                    if !mine || !named.insert(i.clone()) {
                        self.violation(
                            "KIFU-CARD-2",
                            format!("{i} is not a card of {}'s squad, or is named twice", s.name(seat)),
                        );
                    }
                }
                CardRef::Open(_) => {}
                CardRef::Sealed(_) if !d.hidden => self.violation(
                    "KIFU-SEAL-1",
                    format!("the face-up card on {} must be named, not sealed", d.cell.name()),
                ),
                CardRef::Sealed(_) => {}
            }
        }
    }

    fn revealed(
        &mut self,
        seat: Seat,
        piece: &str,
        reason: RevealReason,
        proof: Option<&super::events::RevealProof>,
        rules: Rules,
    ) {
        let s = self.state;
        let Some(p) = self.piece(piece).cloned() else { return };
        if p.owner != seat {
            self.violation(
                "BRK-HID-10",
                format!("only {piece}'s controller knows and reveals its identity, not {}", s.name(seat)),
            );
        }
        if !p.hidden || p.zone != Zone::Play {
            self.violation("BRK-HID-4", format!("{piece} is not a hidden card in play"));
        }
        match reason {
            RevealReason::RevealSubphase if s.phase != Phase::Reveal => {
                self.violation("BRK-HID-4", format!("it is the {} phase, not the Reveal subphase", s.phase.name()))
            }
            RevealReason::Targeted if !s.pending_reveals.iter().any(|x| x == piece) => {
                self.violation("BRK-HID-4", format!("{piece} is not the target of a game action"))
            }
            RevealReason::DeclaredAction => self.needs_priority(seat, "a card reveals itself to act"),
            _ => {}
        }
        let mut instance = p.instance.clone();
        match (&p.instance, p.sealed, proof) {
            (None, Some(c), Some(pr)) => {
                self.out.extend(s.ledger.check_reveal(&c, &pr.instance, &pr.salt));
                let mine = super::config::parse_instance(&pr.instance).is_some_and(|(o, _)| o == p.owner);
                let taken = s.pieces.iter().any(|q| q.instance.as_deref() == Some(&pr.instance));
                // `known`: KIFU-CARD-2 for an instance no squad has.
                if self.known(&pr.instance).is_some() && (!mine || taken) {
                    self.violation(
                        "KIFU-CARD-2",
                        format!("{} is not an undeployed card of the owner's squad", pr.instance),
                    );
                }
                instance = Some(pr.instance.clone());
            }
            (None, _, None) => {
                self.violation("KIFU-SEAL-1", format!("{piece}'s sealed identity needs its instance and salt"))
            }
            (Some(known), _, Some(pr)) if *known != pr.instance => {
                self.violation("KIFU-SEAL-1", format!("{piece} is {known}, not {}", pr.instance))
            }
            _ => {}
        }
        // BRK-HID-10 under versions 1 and 2: cited at the reveal (version 3 cites the declaration,
        // through `revealed_violations`).
        if !rules.false_assumption_at_declaration {
            self.out.extend(false_assumptions(s, &p, instance.as_deref()).into_iter().map(|l| l.violation));
        }
    }

    fn declared(&mut self, seat: Seat, source: &str, ability: u8, targets: &[String], payment: &[ResourceAmount]) {
        let s = self.state;
        self.needs_priority(seat, "game actions are declared");
        let Some(src) = self.acting_card(seat, source).cloned() else { return };
        let Some(def) = s.def_of(&src) else {
            self.violation("BRK-HID-4", format!("{source}'s identity is sealed: it must be revealed to declare"));
            return;
        };
        let Some(ab) = def.ability(ability).filter(|a| a.kind.is_declared()) else {
            self.violation("KIFU-CARD-1", format!("{} has no declarable ability #{ability}", def.name));
            return;
        };
        match ab.trigger {
            Trigger::Activated => {
                if src.zone != Zone::Play {
                    self.violation("BRK-OPEN-1", format!("{source} is not in play"));
                }
                if src.acted {
                    self.violation("BRK-FRAG-6", format!("{source} has already acted this turn"));
                }
            }
            Trigger::OnDeath | Trigger::OnReturnToDeck => {
                let zone = if ab.trigger == Trigger::OnDeath { Zone::Graveyard } else { Zone::Deck };
                if src.zone != zone || src.triggers_used.contains(&ability) {
                    self.violation("BRK-OPEN-1", format!("{} works once, from the {}", ab.name, zone.name()));
                }
            }
        }
        if targets.len() != 1 {
            self.violation("BRK-OPEN-1", format!("a game action has exactly one target; got {}", targets.len()));
        }
        for t in targets {
            let Some(tp) = self.piece(t).cloned() else { continue };
            if tp.zone != Zone::Play {
                self.violation("BRK-OPEN-1", format!("target {t} is not in play"));
                continue;
            }
            let tdef = s.def_of(&tp);
            if let Some(x) = &ab.requires {
                match (tp.hidden, tdef) {
                    // BRK-HID-9: the opponent's hidden card may be treated as having [X].
                    (true, _) if tp.owner != seat => {}
                    (true, Some(d)) if !d.has_trait(x) => self.violation(
                        "BRK-HID-10",
                        format!("{} may not treat their own hidden {t} as having [{x}]", s.name(seat)),
                    ),
                    (false, Some(d)) if !d.has_trait(x) => self
                        .violation("BRK-HID-9", format!("{} works only on a card with [{x}]; {t} has none", ab.name)),
                    _ => {}
                }
            }
            if ab.kind == AbilityKind::FinishingBlow && !tp.hidden && tp.lives > i16::from(ab.amount) {
                self.violation(
                    "BRK-INT-5",
                    format!("a finishing blow of {} is illegal on {t} with {} lives", ab.amount, tp.lives),
                );
            }
        }
        if payment != ab.cost.as_slice() {
            self.violation("BRK-BLOCK-5", format!("{} is due {:?}, declared {:?}", ab.name, ab.cost, payment));
        }
        self.affordable(seat, &ab.cost, "BRK-BLOCK-5");
    }

    /// The checks on a waiting action that a block or interruption acts on.
    fn on_stack(&mut self, id: u32, left_rule: &'static str) -> Option<Action> {
        let a = self.action(id)?.clone();
        match a.status {
            Status::OnStack => {}
            Status::Performing | Status::Done => {
                self.violation(left_rule, format!("action #{id} has left the stack"));
                self.violation("BRK-STACK-2", format!("action #{id} is already being performed"));
            }
            _ => self.violation(left_rule, format!("action #{id} has left the stack ({})", a.status.name())),
        }
        Some(a)
    }

    fn acting_ability(&mut self, seat: Seat, id: &str, kind: AbilityKind, rule: &'static str) {
        let s = self.state;
        let Some(p) = self.acting_card(seat, id).cloned() else { return };
        if p.zone != Zone::Play {
            self.violation("BRK-OPEN-1", format!("{id} is not in play"));
        }
        if p.acted {
            self.violation("BRK-FRAG-6", format!("{id} has already acted this turn"));
        }
        match s.def_of(&p).and_then(|d| d.ability_of(kind).and_then(|i| d.ability(i))) {
            Some(ab) => self.affordable(seat, &ab.cost, "BRK-OPEN-1"),
            None if s.def_of(&p).is_some() => self.violation(rule, format!("{id} has no {} ability", kind.name())),
            None => {}
        }
    }

    fn blocked(&mut self, seat: Seat, id: u32, blocker: &str, blocker_target: &str) {
        let s = self.state;
        self.needs_priority(seat, "blocks are made");
        let Some(a) = self.on_stack(id, "BRK-BLOCK-1") else { return };
        self.acting_ability(seat, blocker, AbilityKind::Block, "BRK-BLOCK-2");
        if blocker_target != a.source {
            self.violation("BRK-BLOCK-2", format!("the blocker targets the source {}, not {blocker_target}", a.source));
            return;
        }
        let zone = s.piece(&a.source).map_or(Zone::Play, |p| p.zone);
        let allowed = match zone {
            Zone::Play => true,
            Zone::Graveyard => a.ability.trigger == Trigger::OnDeath,
            Zone::Deck => a.ability.trigger == Trigger::OnReturnToDeck,
        };
        if !allowed {
            self.violation(
                "BRK-BLOCK-3",
                format!(
                    "source {} is in the {}; only on-death and on-return features may be blocked there",
                    a.source,
                    zone.name()
                ),
            );
        }
    }

    fn interrupted(&mut self, seat: Seat, id: u32, by: &str, reason: &str) {
        self.needs_priority(seat, "interruptions are made");
        if self.on_stack(id, "BRK-INT-3").is_none() {
            return;
        }
        if reason.trim().is_empty() {
            self.violation("BRK-INT-1", "an interruption says what made the action impossible");
        }
        self.acting_ability(seat, by, AbilityKind::Interrupt, "BRK-INT-1");
    }

    fn performed(&mut self, id: u32) {
        let s = self.state;
        let Some(a) = self.action(id).cloned() else { return };
        match &a.status {
            Status::Interrupted { rule, why, automatic } => {
                let rule = if *automatic { *rule } else { "BRK-INT-2" };
                self.violation(rule, format!("action #{id} was interrupted ({why}) and removed from the stack"));
            }
            Status::Blocked { .. } => {
                self.violation("BRK-BLOCK-4", format!("action #{id} was blocked: it is never performed"))
            }
            Status::Performing | Status::Done => {
                self.violation("BRK-STACK-2", format!("action #{id} has already left the stack"))
            }
            Status::OnStack => {
                if s.passes < 2 {
                    self.violation("BRK-STACK-3", "both players pass before the stack resolves");
                }
                if s.next_to_perform() != Some(id) {
                    self.violation(
                        "BRK-STACK-3",
                        format!(
                            "the stack order policy performs #{} next, not #{id}",
                            s.next_to_perform().unwrap_or(0)
                        ),
                    );
                }
            }
        }
    }

    fn paid(&mut self, id: u32, resources: &[ResourceAmount]) {
        let s = self.state;
        let Some(a) = self.action(id).cloned() else { return };
        match &a.status {
            Status::Interrupted { .. } => {
                self.violation("BRK-INT-2", format!("action #{id} was interrupted: it is removed without payment"));
                return;
            }
            Status::OnStack => {
                self.violation(
                    "BRK-BLOCK-6",
                    format!("action #{id} is still on the stack; it pays once blocked or performed"),
                );
                return;
            }
            _ => {}
        }
        if a.paid.is_some() {
            self.violation("BRK-BLOCK-5", format!("action #{id} was already paid"));
            return;
        }
        if resources != a.payment.as_slice() {
            self.violation(
                "BRK-BLOCK-5",
                format!("action #{id}'s source pays all it was due, {:?}; got {:?}", a.payment, resources),
            );
        }
        let have = u32::from(s.gold(a.seat));
        if gold_of(resources) > have {
            self.violation("BRK-BLOCK-5", format!("{} has {have} gold", s.name(a.seat)));
        }
    }

    fn effect(&mut self, id: u32, target: &str, claim: Option<&ProtectionHit>) {
        let s = self.state;
        let Some(a) = self.action(id).cloned() else { return };
        match &a.status {
            Status::Blocked { .. } => {
                self.violation("BRK-BLOCK-4", format!("blocked action #{id} deals no effects"));
                return;
            }
            Status::Interrupted { .. } => {
                self.violation("BRK-INT-2", format!("interrupted action #{id} was cancelled"));
                return;
            }
            Status::OnStack | Status::Done => {
                self.violation("BRK-STACK-2", format!("action #{id} is not being performed"));
                return;
            }
            Status::Performing => {}
        }
        if !a.targets.iter().any(|t| t == target) || a.applied.iter().any(|t| t == target) {
            self.violation("BRK-OPEN-1", format!("{target} is not a target of #{id} still waiting for its effect"));
            return;
        }
        let Some(p) = self.piece(target).cloned() else { return };
        if p.hidden {
            if claim.is_some() {
                self.violation(
                    "BRK-HID-6",
                    format!("hidden {target}'s constant features (its protections) are absent"),
                );
            }
            return;
        }
        let expected = expected_protection(s, &a, target);
        let def = s.def_of(&p);
        match (claim, expected) {
            (None, None) => {}
            (None, Some(h)) => self.violation(
                "BRK-PROT-1",
                format!("{target} has protection from {} ({}): no effect", h.component, h.protection),
            ),
            (Some(c), _) => {
                let prot = def.and_then(|d| d.protections.iter().find(|x| x.name == c.protection));
                match prot {
                    Some(pr) if pr.components.contains(&c.component) => {
                        if !a.ability.tags.contains(&c.component) {
                            self.violation(
                                "BRK-PROT-1",
                                format!("protection from {} does not concern {}", c.component, a.ability.name),
                            );
                        } else if pierced(&a, &c.protection, &c.component) {
                            self.violation(
                                "BRK-PROT-3",
                                format!(
                                    "{} works against {}'s {} component",
                                    a.ability.name, c.protection, c.component
                                ),
                            );
                        }
                    }
                    _ => self.violation(
                        "BRK-PROT-2",
                        format!("{target} has no protection {} with a component {}", c.protection, c.component),
                    ),
                }
            }
        }
    }
}

/// The reason an interruption by card text records (the sample catalog's interrupt is Dispel):
/// the agent and the option record the same words.
pub const INTERRUPT_REASON: &str = "card text: Dispel makes it impossible";

/// The game actions the face-up card `p` of `seat` may be offered now by its abilities (each
/// ability usable where it lies): a declaration on each target, a block or an interruption of
/// each of the opponent's actions on the stack. Unvalidated: the options keep what `validate`
/// accepts, and [`can_act`] asks whether any is accepted.
pub fn actions_of(s: &BrkState, seat: Seat, p: &super::state::Piece) -> Vec<BrkEvent> {
    let mut out = Vec::new();
    let Some(def) = s.def_of(p) else { return out };
    for (i, ab) in def.abilities.iter().enumerate() {
        let Ok(i) = u8::try_from(i) else { continue };
        if !p.can_use(i, ab.trigger) {
            continue;
        }
        let foes = s.stack.iter().filter_map(|id| s.action(*id)).filter(|a| a.seat != seat);
        match ab.kind {
            AbilityKind::Block => out.extend(foes.map(|a| BrkEvent::GameActionBlocked {
                seat,
                action: a.id,
                blocker: p.id.clone(),
                blocker_target: a.source.clone(),
            })),
            AbilityKind::Interrupt => out.extend(foes.map(|a| BrkEvent::GameActionInterrupted {
                seat,
                action: a.id,
                by: p.id.clone(),
                reason: INTERRUPT_REASON.into(),
            })),
            kind => {
                let friendly = kind == AbilityKind::Heal;
                let targets = s.pieces.iter().filter(|t| t.zone == Zone::Play && (t.owner == seat) == friendly);
                out.extend(targets.filter(|t| friendly || t.id != p.id).map(|t| BrkEvent::GameActionDeclared {
                    seat,
                    source: p.id.clone(),
                    ability: i,
                    targets: vec![t.id.clone()],
                    payment: ab.cost.clone(),
                }));
            }
        }
    }
    out
}

/// Whether the card `piece`, revealed to act, has a game action the rules accept now: from
/// rules version 6 its controller is held to act with it only then (BRK-HID-4).
pub fn can_act(s: &BrkState, piece: &str, rules: Rules) -> bool {
    let Some(p) = s.piece(piece) else { return false };
    actions_of(s, p.owner, p).iter().any(|e| validate_as(s, e, rules).is_empty())
}
