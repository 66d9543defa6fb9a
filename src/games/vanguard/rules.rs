//! `validate`: every rule an event would break, each with its digest rule ID.
//!
//! Rules-level events are checked against the rules of §4.3. The client's manual operations
//! ([`ClientOp`]) are checked for what the client itself enforces (`VGC-*`) and for the rules the
//! operation breaks *by what it does* (a heal with less damage than the opponent, a G unit put into
//! the main deck, an attack by hand on the first turn, a damage card after the sixth...). So a
//! manual operation that breaks a rule is refused by `kifu game act` like any other action, while
//! a client log imported as it was recorded (`kifu game import --from vgc-log`) keeps every line
//! and `kifu game audit` lists each broken rule at the operation that broke it.
//!
//! Recorder IDs used besides `VG-*`/`VGC-*` (not in the digest, so not in the coverage table):
//! `KIFU-CARD-1` a card is not where the event says; `KIFU-CARD-2` no registered deck has that
//! card; `KIFU-SEAT-1` the seat does not exist.

use std::collections::BTreeSet;

use super::catalog::{CardDef, TriggerType};
use super::config::{GradeAssistRemoval, Limit, SimultaneousLoss};
use super::events::{Circle, ClientOp, CommonEvent, EffectKind, Phase, Place, PowerEdit, VanguardEvent};
use super::rules_version::Rules;
use super::state::VanguardState;
use crate::game::{RuleId, Seat, Violation};

/// Every rule `event` would break if applied to `s`. Empty means legal.
pub fn validate(s: &VanguardState, event: &VanguardEvent) -> Vec<Violation> {
    let mut c = Check::new(s);
    c.event(event);
    c.finish()
}

/// Every rule `event` would break under `rules`: version 3 cites the most
/// specific digest ID where versions 1 and 2 cite a general one ([`most_specific`]); version 4
/// records the stand and the end-of-turn clean-up as steps of their own and holds a turn that
/// moved on without them to the rules they break ([`steps_left_out`]); version 5 does the same
/// for the retirement of a displaced occupant, a deleted heart turned face up and a legion mate
/// moved to the soul ([`VanguardState::owed_steps`], [`Check::owed_steps_left_out`]).
pub fn validate_as(s: &VanguardState, event: &VanguardEvent, rules: Rules) -> Vec<Violation> {
    let mut out = validate(s, event);
    if rules.most_specific_ids {
        most_specific(s, event, &mut out);
    }
    if rules.transition_steps && s.result.is_none() {
        let mut c = Check::new(s);
        c.steps_left_out(event);
        if rules.owed_steps {
            c.owed_steps_left_out(event);
        }
        out.extend(c.finish());
    }
    out
}

/// The rule that owes a version 5 step, and what the step owes in words.
fn owed_rule(s: &VanguardState, step: &VanguardEvent) -> (RuleId, String) {
    let label = |c: &str| super::view::label(s, c);
    let labels = |cs: &[String]| cs.iter().map(|c| label(c)).collect::<Vec<_>>().join(", ");
    match step {
        VanguardEvent::OccupantRetired { seat, card, circle } => (
            "VG-ZONE-5",
            format!(
                "{}'s {} (displaced from {} by a call) goes to the drop zone",
                s.name(*seat),
                label(card),
                circle.name()
            ),
        ),
        VanguardEvent::HeartTurnedFaceUp { seat, cards } => {
            ("VG-STRIDE-2", format!("{}'s deleted heart {} turns face up", s.name(*seat), labels(cards)))
        }
        VanguardEvent::LegionMateMovedToSoul { seat, card } => {
            ("VG-KW-8", format!("{}'s legion mate {} goes to the soul with its leader", s.name(*seat), label(card)))
        }
        _ => ("VG-TURN-1", String::new()),
    }
}

/// Version 3's rule IDs: a trigger that did not activate for want of a same-clan unit is
/// VG-BATTLE-9 (not "no trigger is waiting", VG-TRIG-1), and a loss recorded while a damage
/// check's heal is still to come is VG-BATTLE-13 (not "nobody lost", VG-WIN-1). Versions 1 and 2
/// keep their findings, so their logs keep their verdicts.
fn most_specific(s: &VanguardState, event: &VanguardEvent, out: &mut [Violation]) {
    let (rule, from, message) = match event {
        VanguardEvent::TriggerResolved { seat, .. }
        | VanguardEvent::Client { seat, op: ClientOp::TriggerApplied { .. } } => {
            let Some(c) = s.check.as_ref().filter(|c| c.seat == *seat && c.trigger.is_none()) else { return };
            if s.def(&c.card).and_then(|d| d.trigger).is_none() {
                return;
            }
            let card = super::view::label(s, &c.card);
            let why =
                format!("{} has no unit of {card}'s clan on the field: its trigger does not activate", s.name(*seat));
            ("VG-BATTLE-9", "VG-TRIG-1", why)
        }
        VanguardEvent::GameEnded { loser: Some(l), .. } => {
            if !s.check.as_ref().is_some_and(|c| c.seat == *l && c.heal_pending()) {
                return;
            }
            let why = "the damage check's heal trigger resolves before the loss is checked".to_string();
            ("VG-BATTLE-13", "VG-WIN-1", why)
        }
        _ => return,
    };
    crate::game::rules::cite_specifically(out, &[from], rule, &message);
}

type Check<'a> = crate::game::check::Check<'a, VanguardState>;

/// Whether a version 5 step names exactly what `want` owes (the heart's cards as a set).
fn same_step_named(want: &VanguardEvent, got: &VanguardEvent) -> bool {
    match (want, got) {
        (
            VanguardEvent::HeartTurnedFaceUp { seat: a, cards: x },
            VanguardEvent::HeartTurnedFaceUp { seat: b, cards: y },
        ) => a == b && x.iter().collect::<BTreeSet<_>>() == y.iter().collect::<BTreeSet<_>>(),
        _ => want == got,
    }
}

fn grade(def: Option<&CardDef>) -> u8 {
    def.map_or(0, |d| d.grade)
}

impl<'a> Check<'a> {
    fn label(&self, card: &str) -> String {
        super::view::label(self.state, card)
    }

    fn in_turn(&mut self, seat: Seat, rule: RuleId, what: &str) -> bool {
        if self.state.phase == Phase::Setup || self.state.active.is_none() {
            self.violation("VG-SETUP-5", format!("{what}: the game has not begun"));
            return false;
        }
        if self.state.active != Some(seat) {
            self.violation(rule, format!("{what}: it is not {}'s turn", self.state.name(seat)));
            return false;
        }
        true
    }

    fn phase(&mut self, want: Phase, rule: RuleId, what: &str) {
        if self.state.phase != want {
            self.violation(
                rule,
                format!("{what} belongs to the {} phase, not the {} phase", want.name(), self.state.phase.name()),
            );
        }
    }

    fn vg_grade(&self, seat: Seat) -> u8 {
        self.state.vanguard_grade(seat).unwrap_or(0)
    }

    /// The unit on `seat`'s `circle`, or a KIFU-CARD-1 finding.
    fn unit_at(&mut self, seat: Seat, circle: Circle) -> Option<&'a super::state::Unit> {
        let s = self.state;
        let u = s.players.get(seat).and_then(|p| p.on(circle));
        if u.is_none() {
            self.violation("KIFU-CARD-1", format!("{} has no unit on circle {}", s.name(seat), circle.name()));
        }
        u
    }

    fn own_unit(&mut self, seat: Seat, card: &str) -> Option<Circle> {
        self.known(card)?;
        let c = self.state.players.get(seat).and_then(|p| p.circle_of(card));
        if c.is_none() {
            self.violation(
                "KIFU-CARD-1",
                format!("{} is not a unit on {}'s field", self.label(card), self.state.name(seat)),
            );
        }
        c
    }

    /// The checks every event gets, then the one check of its kind.
    fn event(&mut self, event: &VanguardEvent) {
        let s = self.state;
        if event.is_table_talk() {
            return;
        }
        if let Some(seat) = event.seat() {
            if let Some(v) = crate::game::rules::check_seat(seat, s.players.len().min(2)) {
                self.out.push(v);
                return;
            }
        }
        if s.result.is_some() {
            self.violation("VG-WIN-4", "the game is over; nothing may be played after the result");
            return;
        }
        if !matches!(event, VanguardEvent::GameEnded { .. }) {
            self.unrecorded_losses();
        }
        self.event_of_kind(event);
    }

    /// A loss the state shows that no `GameEnded` recorded (VG-WIN-2, VG-WIN-3).
    fn unrecorded_losses(&mut self) {
        let s = self.state;
        for (seat, reason) in s.losses() {
            let (rule, why) = match reason {
                super::events::LossReason::SixDamage => (
                    "VG-WIN-2",
                    format!("{} has {} damage", s.name(seat), s.players.get(seat).map_or(0, |p| p.damage_count())),
                ),
                super::events::LossReason::DeckOut => {
                    ("VG-WIN-3", format!("{} has no cards in the deck", s.name(seat)))
                }
            };
            self.violation(rule, format!("{why}, so the game was already lost; no loss was recorded and play went on"));
        }
    }

    /// Dispatches to the check of the event's kind.
    fn event_of_kind(&mut self, event: &VanguardEvent) {
        use VanguardEvent::*;
        match event {
            StartingVanguardSet { seat, card } => self.starting_vanguard(*seat, card),
            FirstPlayerDetermined { first } => self.first_player(*first),
            DeckShuffled { .. } => {}
            OpeningHandDrawn { seat, cards } => self.opening_hand(*seat, cards),
            Redrawn { seat, returned, drawn } => self.redrawn(*seat, returned, drawn),
            VanguardsRevealed {} => self.vanguards_revealed(),
            TurnStarted { turn, seat } => self.turn_started(*turn, *seat),
            PhaseEntered { seat, phase } => self.phase_entered(*seat, *phase),
            CardDrawn { seat, card } => self.card_drawn(*seat, card),
            GradeAssisted { seat, taken, removed } => self.grade_assist(*seat, taken.as_deref(), removed),
            Rode { seat, card } => self.rode(*seat, card),
            SuperiorRode { seat, card, from, source } => self.superior_rode(*seat, card, *from, source),
            ForerunnerCalled { seat, card, circle } => self.forerunner(*seat, card, *circle),
            Strode { seat, g_unit, heart, discarded } => {
                self.strode(*seat, g_unit, heart, Some(discarded), "VG-STRIDE-1")
            }
            Called { seat, card, circle } => self.called(*seat, card, *circle),
            SuperiorCalled { seat, card, from, circle, source } => {
                self.superior_called(*seat, card, *from, *circle, source)
            }
            RearGuardMoved { seat, from, to } => {
                if self.in_turn(*seat, "VG-MAIN-3", "moving a rear-guard") {
                    self.main_phase("VG-MAIN-3", "moving a rear-guard");
                }
                self.column_move(*seat, *from, *to);
            }
            LegionPerformed { seat, returned, mate } => self.legion(*seat, Some(returned), mate, "VG-KW-8"),
            EffectActivated { seat, source, kind, .. } => self.effect(*seat, source, *kind),
            CounterBlasted { seat, cards } => self.counter_blasted(*seat, cards),
            SoulBlasted { seat, cards } => self.moved_from(*seat, cards, Place::Soul, "VG-COST-1", "soul"),
            SoulCharged { seat, cards } => self.moved_from(*seat, cards, Place::DeckSearch, "VG-COST-2", "deck"),
            AttackDeclared { seat, attacker, target } => self.attack(*seat, *attacker, *target),
            Boosted { seat, booster } => self.boost(*seat, *booster),
            GuardianCalled { seat, card } => self.guardian_called(*seat, card),
            Intercepted { seat, circle } => self.intercepted(*seat, *circle),
            DriveChecked { seat, card } => self.drive_checked(*seat, card),
            DamageChecked { seat, card } => self.damage_checked(*seat, card),
            TriggerResolved { seat, power_to, critical_to, drew, healed, stood } => self.trigger_resolved(
                *seat,
                power_to,
                critical_to.as_deref(),
                drew.as_deref(),
                healed.as_deref(),
                stood.as_deref(),
            ),
            AttackResolved { hit } => self.attack_resolved(*hit),
            BattleEnded {} => self.battle_ended(),
            GameEnded { loser, .. } => self.game_ended(*loser),
            CardMoved { card, to, .. } => {
                self.known(card);
                self.place_rules(card, *to);
            }
            EffectResolved { source, .. } => {
                self.known(source);
            }
            ModifierApplied { card, .. } => self.modifier_applied(card),
            Client { seat, op } => self.client(*seat, op),
            ChatMessage { .. } | SpectatorJoined { .. } | SpectatorLeft { .. } => {}
            Common(c) => self.common(c),
            UnitsStood { seat, cards } => self.units_stood(*seat, cards),
            HitUnitRetired { seat, card } => self.hit_unit_retired(*seat, card),
            GuardiansRetired { seat, cards } => self.guardians_retired(*seat, cards),
            TurnCleanedUp { seat, g_unit, flipped, expired } => {
                self.turn_cleaned_up(*seat, g_unit.as_deref(), flipped, expired)
            }
            OccupantRetired { .. } | HeartTurnedFaceUp { .. } | LegionMateMovedToSoul { .. } => self.owed_step(event),
        }
    }

    /// A guardian called from the hand by the defending player (VG-BATTLE-5), of a grade it may guard with.
    fn guardian_called(&mut self, seat: Seat, card: &str) {
        self.defending(seat, "VG-BATTLE-5", "guarding");
        if self.holds(seat, Place::Hand, card) {
            self.guard_grade(seat, card);
        }
    }

    /// A rear-guard on `circle` intercepting for the defending player (VG-BATTLE-6).
    fn intercepted(&mut self, seat: Seat, circle: Circle) {
        self.defending(seat, "VG-BATTLE-6", "intercepting");
        if let Some(u) = self.unit_at(seat, circle) {
            self.intercept(circle, &u.card.clone());
        }
    }

    /// Version 5's automatic steps ([`VanguardState::owed_steps`]): each names exactly what is
    /// owed, under the rule that owes it. Earlier versions owe none, so they refuse every one.
    fn owed_step(&mut self, event: &VanguardEvent) {
        let s = self.state;
        let (rule, _) = owed_rule(s, event);
        let owed: Vec<VanguardEvent> = s.owed_steps().into_iter().filter(|e| e.same_step(event)).collect();
        if owed.is_empty() {
            let nothing = match event {
                VanguardEvent::OccupantRetired { .. } => "no call displaced a unit from its circle",
                VanguardEvent::HeartTurnedFaceUp { .. } => {
                    "no deleted vanguard became the heart of a G unit just strode"
                }
                _ => "no new vanguard rode on a legion whose mate is still beside it",
            };
            self.violation(rule, nothing);
            return;
        }
        if owed.iter().any(|want| same_step_named(want, event)) {
            return;
        }
        let what = owed.iter().map(|want| owed_rule(s, want).1).collect::<Vec<_>>().join("; ");
        self.violation(rule, format!("this step names what is owed: {what}"));
    }

    /// Version 5: an event that moves the game on while a step is owed leaves that step out
    /// ([`VanguardState::left_out`]); it is cited here, once, under the owed step's rule, where the
    /// table moved on without it (the fold then owes it no more).
    fn owed_steps_left_out(&mut self, event: &VanguardEvent) {
        let s = self.state;
        for due in s.left_out(event) {
            let (rule, what) = owed_rule(s, &due);
            self.violation(rule, format!("{what}: it was due first and is not recorded"));
        }
    }

    /// `UnitsStood`: in the turn player's stand phase, exactly its rested units that may stand
    /// (VG-STAND-1); a locked card does nothing (VG-KW-2).
    fn units_stood(&mut self, seat: Seat, cards: &[String]) {
        let s = self.state;
        if self.in_turn(seat, "VG-STAND-1", "standing units") {
            self.phase(Phase::Stand, "VG-STAND-1", "standing units");
        }
        let Some(p) = s.players.get(seat) else { return };
        for card in cards {
            if self.own_unit(seat, card).is_none() {
                continue;
            }
            let unit = p.units().into_iter().find(|(_, u)| &u.card == card).map(|(_, u)| u);
            if unit.is_some_and(|u| u.locked) {
                self.violation(
                    "VG-KW-2",
                    format!("{} is locked and can do nothing: it does not stand", self.label(card)),
                );
            } else if unit.is_some_and(|u| !u.rested) {
                self.violation("VG-STAND-1", format!("{} is standing already", self.label(card)));
            }
        }
        self.left_rested(seat, cards);
    }

    /// VG-STAND-1 for each of `seat`'s units the stand phase stands that `stood` leaves out.
    fn left_rested(&mut self, seat: Seat, stood: &[String]) {
        for card in self.state.players.get(seat).map(|p| p.to_stand()).unwrap_or_default() {
            if !stood.contains(&card) {
                self.violation(
                    "VG-STAND-1",
                    format!("{} was left rested: the stand phase stands it", self.label(&card)),
                );
            }
        }
    }

    /// `HitUnitRetired`: the rear-guard the resolved attack hit, still on its circle (VG-BATTLE-10).
    fn hit_unit_retired(&mut self, seat: Seat, card: &str) {
        if self.state.hit_unit_due().is_none_or(|(due_seat, due)| due_seat != seat || due != card) {
            self.violation("VG-BATTLE-10", format!("{} is no rear-guard the attack hit", self.label(card)));
        }
    }

    /// `GuardiansRetired`: once the attack is resolved and its damage checked, exactly `seat`'s
    /// guardians and interceptors (VG-BATTLE-14).
    fn guardians_retired(&mut self, seat: Seat, cards: &[String]) {
        let s = self.state;
        if !s.attack.as_ref().is_some_and(|a| a.hit.is_some() && a.damage_left == 0) {
            self.violation("VG-BATTLE-14", "guardians retire at the end of the battle, once the attack is resolved");
        }
        for card in cards {
            self.holds(seat, Place::Guardian, card);
        }
        self.guardians_kept(seat, cards);
    }

    /// VG-BATTLE-14 for each of `seat`'s guardians and interceptors that `retired` leaves out.
    fn guardians_kept(&mut self, seat: Seat, retired: &[String]) {
        let kept = self.state.players.get(seat).map(|p| p.guardians.clone()).unwrap_or_default();
        for card in kept.iter().filter(|c| !retired.contains(c)) {
            self.violation(
                "VG-BATTLE-14",
                format!("{} stays on the guardian circle after the battle", self.label(card)),
            );
        }
    }

    /// `TurnCleanedUp`: in the turn player's end phase, exactly what its end does
    /// ([`Check::cleanup_matches`]).
    fn turn_cleaned_up(&mut self, seat: Seat, g_unit: Option<&str>, flipped: &[String], expired: &[String]) {
        if self.in_turn(seat, "VG-TURN-1", "the end-of-turn clean-up") {
            self.phase(Phase::End, "VG-TURN-1", "the end-of-turn clean-up");
        }
        self.cleanup_matches(seat, g_unit, flipped, expired);
    }

    /// The end of `seat`'s turn as recorded against what it does ([`VanguardState::cleanup_due`]):
    /// its G unit back (VG-STRIDE-4), its locked and deleted cards face up (VG-END-4), every
    /// until-end-of-turn modifier gone (VG-END-2).
    fn cleanup_matches(&mut self, seat: Seat, g_unit: Option<&str>, flipped: &[String], expired: &[String]) {
        let s = self.state;
        let due = s.cleanup_due(seat);
        match (g_unit, due.g_unit.as_deref()) {
            (Some(named), due_g) if due_g != Some(named) => self.violation(
                "VG-STRIDE-4",
                format!("{} is not a G unit on {}'s vanguard circle", self.label(named), s.name(seat)),
            ),
            (None, Some(due_g)) => self.violation(
                "VG-STRIDE-4",
                format!(
                    "{} stayed on the vanguard circle: it returns to the G zone at the end of the turn",
                    self.label(due_g)
                ),
            ),
            _ => {}
        }
        let face_down = "stays face down: locked and deleted cards turn face up at the end of their owner's turn";
        self.same_cards(
            "VG-END-4",
            flipped,
            &due.flipped,
            ("is neither locked nor deleted on the turn player's field", face_down),
        );
        let kept = "keeps an until-end-of-turn modifier past the end of the turn";
        self.same_cards("VG-END-2", expired, &due.expired, ("has no until-end-of-turn modifier", kept));
    }

    /// `rule` for each card of `named` not in `due` (`extra` says why) and each of `due` missing
    /// from it (`missing`).
    fn same_cards(&mut self, rule: RuleId, named: &[String], due: &[String], (extra, missing): (&str, &str)) {
        for card in named.iter().filter(|c| !due.contains(c)) {
            self.violation(rule, format!("{} {extra}", self.label(card)));
        }
        for card in due.iter().filter(|c| !named.contains(c)) {
            self.violation(rule, format!("{} {missing}", self.label(card)));
        }
    }

    /// Version 4: a turn that moved on past a step it left out. Leaving the stand phase with
    /// units still rested breaks VG-STAND-1; starting the next turn without the end phase's
    /// clean-up breaks the rule of each part left undone; ending a battle with the hit
    /// rear-guard still on the field breaks VG-BATTLE-10, with guardians still on the guardian
    /// circle VG-BATTLE-14.
    fn steps_left_out(&mut self, event: &VanguardEvent) {
        let s = self.state;
        let Some(seat) = s.active else { return };
        match event {
            VanguardEvent::PhaseEntered { .. } if s.phase == Phase::Stand => self.left_rested(seat, &[]),
            VanguardEvent::TurnStarted { .. } if s.phase == Phase::End => self.cleanup_matches(seat, None, &[], &[]),
            VanguardEvent::BattleEnded {} => {
                if let Some((_, card)) = s.hit_unit_due() {
                    self.violation(
                        "VG-BATTLE-10",
                        format!("{} was hit and stays on the field: a hit rear-guard retires", self.label(&card)),
                    );
                }
                for each in s.players.seats() {
                    self.guardians_kept(each, &[]);
                }
            }
            _ => {}
        }
    }

    /// A common event: the shared checks ([`crate::game::common::validate`]) at a physical table
    /// of two (the client's deck order is unknown, so no seed orders it); a revealed card must be
    /// one of the game's.
    fn common(&mut self, c: &CommonEvent) {
        if let CommonEvent::CardRevealed { card, .. } = c {
            self.known(card);
        }
        let cx = crate::game::common::Context {
            ledger: &self.state.ledger,
            seats: self.state.players.len().min(2),
            mode: crate::game::commit::RandomMode::Physical,
            contributors: &[0, 1],
        };
        self.out.extend(crate::game::common::validate(&cx, c));
    }

    fn starting_vanguard(&mut self, seat: Seat, card: &str) {
        let s = self.state;
        if s.phase != Phase::Setup || s.players.get(seat).is_some_and(|p| p.vanguard.is_some()) {
            self.violation("VG-SETUP-1", format!("{} already has a starting vanguard", s.name(seat)));
        }
        if self.holds(seat, Place::DeckSearch, card)
            && (grade(s.def(card)) != 0 || s.def(card).is_some_and(|d| d.is_g_unit()))
        {
            self.violation("VG-SETUP-1", format!("{} is not a grade-0 unit", self.label(card)));
        }
    }

    fn first_player(&mut self, first: Seat) {
        let s = self.state;
        if s.phase != Phase::Setup || s.first.is_some() {
            self.violation("VG-SETUP-2", "the first player was already determined");
        }
        self.out.extend(crate::game::rules::check_seat(first, 2));
    }

    fn opening_hand(&mut self, seat: Seat, cards: &[String]) {
        let s = self.state;
        let p = s.players.get(seat);
        if s.phase != Phase::Setup || p.is_some_and(|p| p.hand_drawn) {
            self.violation("VG-SETUP-3", format!("{} already drew an opening hand", s.name(seat)));
        } else if p.is_some_and(|p| p.vanguard.is_none()) {
            self.violation("VG-SETUP-3", "the starting vanguard is placed before the opening hand is drawn");
        }
        if cards.len() != 5 {
            self.violation("VG-SETUP-3", format!("the opening hand has {} cards; it is exactly 5", cards.len()));
        }
        self.distinct(cards, "KIFU-CARD-1");
        for c in cards {
            self.holds(seat, Place::DeckSearch, c);
        }
    }

    fn redrawn(&mut self, seat: Seat, returned: &[String], drawn: &[String]) {
        let s = self.state;
        let p = s.players.get(seat);
        if s.phase != Phase::Setup || s.revealed || !p.is_some_and(|p| p.hand_drawn) {
            self.violation("VG-SETUP-4", "a redraw follows the opening hand, before the vanguards are flipped");
        }
        if p.is_some_and(|p| p.redrawn) {
            self.violation("VG-SETUP-4", format!("{} already redrew: at most once per game", s.name(seat)));
        }
        if drawn.len() != returned.len() {
            self.violation(
                "VG-SETUP-4",
                format!("{} cards returned but {} drawn; exactly as many are drawn", returned.len(), drawn.len()),
            );
        }
        self.distinct(returned, "KIFU-CARD-1");
        self.distinct(drawn, "KIFU-CARD-1");
        for c in returned {
            self.holds(seat, Place::Hand, c);
        }
        for c in drawn.iter().filter(|c| !returned.contains(c)) {
            self.holds(seat, Place::DeckSearch, c);
        }
    }

    fn vanguards_revealed(&mut self) {
        let s = self.state;
        let ready = s.players.iter().all(|p| p.vanguard.is_some() && p.hand_drawn);
        if s.phase != Phase::Setup || s.revealed {
            self.violation("VG-SETUP-5", "the vanguards were already flipped");
        } else if !ready || s.first.is_none() {
            self.violation(
                "VG-SETUP-5",
                "the vanguards are flipped once both starting vanguards, the first player and both hands are set",
            );
        }
    }

    fn card_drawn(&mut self, seat: Seat, card: &str) {
        let s = self.state;
        if self.in_turn(seat, "VG-DRAW-1", "drawing") {
            self.phase(Phase::Draw, "VG-DRAW-1", "the turn's draw");
            if s.players.get(seat).is_some_and(|p| p.turn.drew) {
                self.violation("VG-DRAW-1", "the draw phase draws one card, and it was drawn");
            }
        }
        self.holds(seat, Place::DeckSearch, card);
    }

    fn rode(&mut self, seat: Seat, card: &str) {
        let s = self.state;
        if self.in_turn(seat, "VG-RIDE-1", "riding") {
            self.phase(Phase::Ride, "VG-RIDE-1", "a normal ride");
            if s.players.get(seat).is_some_and(|p| p.turn.rode) {
                self.violation("VG-RIDE-3", "one normal ride per turn, and this turn's was made");
            }
        }
        self.ride_checks(seat, card, "VG-RIDE-8");
    }

    fn superior_rode(&mut self, seat: Seat, card: &str, from: Place, source: &str) {
        self.known(source);
        self.holds(seat, from, card);
        if self.state.players.get(seat).is_some_and(|p| p.g_unit.is_some()) {
            self.violation("VG-RIDE-8", "no ride while a G unit is on the vanguard circle");
        }
    }

    fn forerunner(&mut self, seat: Seat, card: &str, circle: Circle) {
        let s = self.state;
        if s.ridden_upon.as_ref().is_none_or(|(who, c)| *who != seat || c != card) {
            self.violation("VG-KW-1", format!("{} was not the unit just ridden upon", self.label(card)));
        }
        let def = self.known(card);
        if def.is_some_and(|d| !d.has("forerunner")) {
            self.violation("VG-KW-1", format!("{} has no Forerunner", self.label(card)));
        }
        let clan = s.players.get(seat).and_then(|p| p.vanguard.as_ref()).and_then(|u| s.def(&u.card)).map(|d| &d.clan);
        if def.is_some_and(|d| Some(&d.clan) != clan) {
            self.violation("VG-KW-1", "forerunner needs a unit of the same clan to ride on it");
        }
        self.rear_circle(circle);
    }

    fn called(&mut self, seat: Seat, card: &str, circle: Circle) {
        if self.in_turn(seat, "VG-MAIN-1", "calling") {
            self.main_phase("VG-MAIN-1", "a call");
        }
        if self.holds(seat, Place::Hand, card) {
            self.call_grade(seat, card);
        }
        self.rear_circle(circle);
    }

    fn superior_called(&mut self, seat: Seat, card: &str, from: Place, circle: Circle, source: &str) {
        self.known(source);
        if !matches!(from, Place::Drop | Place::Deck | Place::DeckSearch | Place::Hand) {
            self.violation(
                "VG-MAIN-2",
                format!("superior calls come from the drop zone, deck or hand, not the {}", from.name()),
            );
        }
        self.holds(seat, from, card);
        self.rear_circle(circle);
    }

    fn counter_blasted(&mut self, seat: Seat, cards: &[String]) {
        let s = self.state;
        self.distinct(cards, "KIFU-CARD-1");
        for c in cards {
            if self.holds(seat, Place::Damage, c)
                && s.players.get(seat).is_some_and(|p| p.damage.iter().any(|(d, up)| d == c && !up))
            {
                self.violation("VG-COST-3", format!("{} is already face down", self.label(c)));
            }
        }
    }

    /// A soul blast (from the soul) or a soul charge (from the deck): distinct cards, each where
    /// the cost takes it from.
    fn moved_from(&mut self, seat: Seat, cards: &[String], from: Place, rule: RuleId, what: &str) {
        let s = self.state;
        self.distinct(cards, "KIFU-CARD-1");
        for c in cards {
            if !s.holds(seat, from, c) && s.def(c).is_some() {
                self.violation(rule, format!("{} is not in {}'s {what}", self.label(c), s.name(seat)));
            }
        }
    }

    fn drive_checked(&mut self, seat: Seat, card: &str) {
        match &self.state.attack {
            Some(a) if a.seat == seat && a.hit.is_none() => {
                if a.attacker != Circle::Vanguard {
                    self.violation("VG-BATTLE-7", "only a vanguard's attack drive checks");
                } else if a.drives_done >= a.drives_total {
                    self.violation(
                        "VG-BATTLE-7",
                        format!("this vanguard drive checks {} time(s), all done", a.drives_total),
                    );
                }
            }
            _ => self.violation("VG-BATTLE-7", "a drive check belongs to the attacker's attack, before it resolves"),
        }
        self.trigger_settled();
        self.holds(seat, Place::DeckSearch, card);
    }

    fn damage_checked(&mut self, seat: Seat, card: &str) {
        match &self.state.attack {
            Some(a) if crate::game::opponent(a.seat) == seat && a.hit == Some(true) && a.damage_left > 0 => {}
            _ => {
                self.violation("VG-BATTLE-11", "a damage check follows a hit on the vanguard, one per point of damage")
            }
        }
        self.trigger_settled();
        self.holds(seat, Place::DeckSearch, card);
    }

    fn battle_ended(&mut self) {
        match &self.state.attack {
            None => self.violation("VG-BATTLE-14", "no battle is in progress"),
            Some(a) if a.hit.is_none() => {
                self.violation("VG-BATTLE-10", "the battle ends after the attack is resolved")
            }
            Some(a) if a.damage_left > 0 => {
                self.violation("VG-BATTLE-11", format!("{} damage check(s) still owed", a.damage_left))
            }
            Some(_) => self.trigger_settled(),
        }
    }

    fn modifier_applied(&mut self, card: &str) {
        let s = self.state;
        if self.known(card).is_some() && s.find(card).is_none_or(|(_, p)| !matches!(p, Place::Circle(_))) {
            self.violation("KIFU-CARD-1", format!("{} is not a unit on the field", self.label(card)));
        }
    }

    fn rear_circle(&mut self, circle: Circle) {
        if circle == Circle::Vanguard {
            self.violation("VG-ZONE-5", "units are called to the five rear-guard circles, not the vanguard circle");
        }
    }

    fn main_phase(&mut self, rule: RuleId, what: &str) {
        if self.state.phase == Phase::Battle || self.state.phase == Phase::End {
            self.violation("VG-TURN-2", format!("{what} is a main-phase action, and the battle phase has begun"));
        } else {
            self.phase(Phase::Main, rule, what);
        }
    }

    fn call_grade(&mut self, seat: Seat, card: &str) {
        let s = self.state;
        let g = grade(s.def(card));
        if s.def(card).is_some_and(|d| d.is_g_unit()) || g > self.vg_grade(seat) {
            self.violation(
                "VG-MAIN-1",
                format!("{} is grade {g}, above the vanguard's grade {}", self.label(card), self.vg_grade(seat)),
            );
        }
    }

    fn guard_grade(&mut self, seat: Seat, card: &str) {
        let g = grade(self.state.def(card));
        if g > self.vg_grade(seat) {
            self.violation(
                "VG-BATTLE-5",
                format!(
                    "guardian {} is grade {g}, above the vanguard's grade {}",
                    self.label(card),
                    self.vg_grade(seat)
                ),
            );
        }
    }

    fn intercept(&mut self, circle: Circle, card: &str) {
        if circle == Circle::Vanguard {
            self.violation("VG-BATTLE-6", "the vanguard never intercepts");
        } else if !circle.is_front() {
            self.violation("VG-BATTLE-6", "only a front-row rear-guard intercepts");
        }
        if grade(self.state.def(card)) != 2 {
            self.violation("VG-BATTLE-6", format!("{} is not grade 2: only grade 2 intercepts", self.label(card)));
        }
        if self.state.players.iter().flat_map(|p| p.units()).any(|(_, u)| u.card == card && u.locked) {
            self.violation("VG-KW-2", format!("{} is locked and can do nothing", self.label(card)));
        }
    }

    fn column_move(&mut self, seat: Seat, from: Circle, to: Circle) {
        if from == Circle::Vanguard || to == Circle::Vanguard {
            self.violation("VG-MAIN-3", "nothing moves into or out of the vanguard circle");
        } else if from.column() != to.column() || from == to {
            self.violation("VG-MAIN-3", format!("{} to {} is not a move within one column", from.name(), to.name()));
        } else if to == Circle::BackCenter || from == Circle::BackCenter {
            self.violation("VG-MAIN-3", "the unit behind the vanguard cannot move");
        }
        if let Some(u) = self.unit_at(seat, from) {
            if u.locked {
                self.violation("VG-KW-2", format!("{} is locked and can do nothing", self.label(&u.card.clone())));
            }
        }
    }

    fn ride_checks(&mut self, seat: Seat, card: &str, g_rule: RuleId) {
        let s = self.state;
        if s.players.get(seat).is_some_and(|p| p.g_unit.is_some()) {
            self.violation(g_rule, "no ride while a G unit is on the vanguard circle");
        }
        if !self.holds(seat, Place::Hand, card) {
            return;
        }
        let (g, vg) = (grade(s.def(card)), self.vg_grade(seat));
        if s.def(card).is_some_and(|d| d.is_g_unit()) || (g != vg && g != vg + 1) {
            self.violation(
                "VG-RIDE-2",
                format!("{} is grade {g}; a ride onto grade {vg} needs grade {vg} or {}", self.label(card), vg + 1),
            );
        }
    }

    fn turn_started(&mut self, turn: u32, seat: Seat) {
        let s = self.state;
        if !s.revealed {
            self.violation("VG-SETUP-5", "the first turn begins once the vanguards are flipped");
            return;
        }
        if turn != s.turn + 1 {
            self.violation("VG-END-1", format!("turn {turn} cannot follow turn {}", s.turn));
        }
        match s.active {
            None if Some(seat) != s.first => {
                self.violation("VG-SETUP-2", format!("{} is not the first player", s.name(seat)))
            }
            Some(a) => {
                if a == seat {
                    self.violation("VG-END-1", "after a turn ends, the opponent's turn begins");
                }
                if s.phase != Phase::End {
                    self.violation(
                        "VG-END-1",
                        format!("the turn ends with the end phase; it is in the {} phase", s.phase.name()),
                    );
                }
            }
            None => {}
        }
    }

    fn phase_entered(&mut self, seat: Seat, to: Phase) {
        let s = self.state;
        if !self.in_turn(seat, "VG-TURN-1", "changing phase") {
            return;
        }
        let from = s.phase;
        if to == Phase::Main && from >= Phase::Battle {
            self.violation("VG-TURN-2", "after moving to the battle phase there is no return to the main phase");
        } else if to <= from || to == Phase::Setup {
            self.violation("VG-TURN-1", format!("the {} phase cannot follow the {} phase", to.name(), from.name()));
        } else if from < Phase::Draw && to > Phase::Draw {
            self.violation("VG-TURN-1", "the draw phase comes before every later phase");
        }
        if from == Phase::Draw && to > Phase::Draw && !s.players.get(seat).is_some_and(|p| p.turn.drew) {
            self.violation("VG-DRAW-1", "the draw phase ended without the draw");
        }
        if to > Phase::Battle && s.attack.is_some() {
            self.violation("VG-BATTLE-14", "a battle is still in progress");
        }
    }

    fn grade_assist(&mut self, seat: Seat, taken: Option<&str>, removed: &[String]) {
        let s = self.state;
        if self.in_turn(seat, "VG-GA-2", "grade assist") {
            self.phase(Phase::GradeAssist, "VG-GA-2", "grade assist");
        }
        let Some(p) = s.players.get(seat) else { return };
        let vg = self.vg_grade(seat);
        if vg >= 3 {
            self.violation("VG-GA-1", format!("the vanguard is grade {vg}: grade assist needs grade 0–2"));
        }
        if p.hand.iter().any(|c| grade(s.def(c)) == vg + 1 && s.def(c).is_some_and(|d| !d.is_g_unit())) {
            self.violation("VG-GA-1", format!("the hand holds a grade-{} unit to ride", vg + 1));
        }
        if p.g_zone.len() < 2 {
            self.violation("VG-GA-1", "grade assist needs at least two units in the G zone");
        }
        let used = match s.policies.grade_assist_limit {
            Limit::OncePerTurn => p.turn.grade_assists,
            Limit::OncePerGame => p.grade_assists_game,
            Limit::Unlimited => 0,
        };
        if used > 0 {
            self.violation("VG-OPEN-5", "grade assist was already used (policy grade_assist_limit)");
        }
        if let Some(t) = taken {
            if self.holds(seat, Place::DeckSearch, t) && grade(s.def(t)) != vg + 1 {
                self.violation("VG-GA-3", format!("{} is not grade {}", self.label(t), vg + 1));
            }
        }
        self.distinct(removed, "KIFU-CARD-1");
        let (mut from_hand, mut from_g) = (0, 0);
        for c in removed {
            if s.holds(seat, Place::GZone, c) {
                from_g += 1;
            } else if s.holds(seat, Place::Hand, c) || Some(c.as_str()) == taken {
                from_hand += 1;
            } else {
                self.holds(seat, Place::Hand, c);
            }
        }
        let ok = match s.policies.grade_assist_removal {
            GradeAssistRemoval::TwoAndTwo => from_hand == 2 && from_g == 2,
            GradeAssistRemoval::TwoTotal => from_hand + from_g == 2,
        };
        if !ok {
            self.violation(
                "VG-GA-3",
                format!("removed {from_hand} from the hand and {from_g} from the G zone (policy grade_assist_removal)"),
            );
        }
    }

    fn strode(&mut self, seat: Seat, g_unit: &str, heart: &str, discarded: Option<&[String]>, rule: RuleId) {
        let s = self.state;
        if discarded.is_some() && self.in_turn(seat, "VG-TURN-1", "striding") {
            self.phase(Phase::Stride, "VG-TURN-1", "a stride");
        }
        let opp = crate::game::opponent(seat);
        let Some(p) = s.players.get(seat) else { return };
        if p.g_unit.is_some() {
            self.violation(rule, "a G unit is already on the vanguard circle");
        } else if self.vg_grade(seat) < 3 || self.vg_grade(opp) < 3 {
            self.violation(
                rule,
                format!(
                    "both vanguards must be grade 3 or higher (grades {} and {})",
                    self.vg_grade(seat),
                    self.vg_grade(opp)
                ),
            );
        }
        if let Some(discarded) = discarded {
            self.distinct(discarded, "KIFU-CARD-1");
            let mut total = 0u32;
            for c in discarded {
                if self.holds(seat, Place::Hand, c) {
                    total += u32::from(grade(s.def(c)));
                }
            }
            if total < 3 {
                self.violation(
                    "VG-STRIDE-1",
                    format!("the discarded units' grades total {total}; the stride cost is at least 3"),
                );
            }
        }
        let used = match s.policies.stride_limit {
            Limit::OncePerTurn | Limit::OncePerGame => p.turn.strides,
            Limit::Unlimited => 0,
        };
        if used > 0 {
            self.violation("VG-OPEN-6", "a stride was already made this turn (policy stride_limit)");
        }
        if self.holds(seat, Place::GZone, g_unit) {
            if s.def(g_unit).is_some_and(|d| !d.is_g_unit()) {
                self.violation("VG-STRIDE-2", format!("{} is not a G unit", self.label(g_unit)));
            }
            let face_up = p.g_zone.iter().any(|(c, up)| c == g_unit && *up);
            if face_up && !s.policies.stride_face_up {
                self.violation(
                    "VG-STRIDE-2",
                    format!("{} is face up; a face-down G unit is chosen (policy stride_face_up)", self.label(g_unit)),
                );
            }
        }
        let hearts = [&p.vanguard, &p.mate];
        if !hearts.iter().any(|u| u.as_ref().is_some_and(|u| u.card == heart)) {
            self.violation(
                "VG-STRIDE-3",
                format!("{} is not the vanguard (or its legion mate), so it cannot be the heart", self.label(heart)),
            );
        }
    }

    fn legion(&mut self, seat: Seat, returned: Option<&[String]>, mate: &str, g_rule: RuleId) {
        let s = self.state;
        if self.in_turn(seat, "VG-MAIN-5", "legion") {
            self.main_phase("VG-MAIN-5", "a legion");
        }
        let Some(p) = s.players.get(seat) else { return };
        if p.g_unit.is_some() {
            self.violation(g_rule, "no legion while a G unit is on the vanguard circle");
        }
        if self.vg_grade(crate::game::opponent(seat)) < 3 {
            self.violation("VG-KW-8", "legion needs the opponent's vanguard to be grade 3 or higher");
        }
        let used = match s.policies.legion_limit {
            Limit::OncePerTurn => p.turn.legions,
            _ => p.legions_game,
        };
        if used > 0 || p.mate.is_some() {
            self.violation("VG-OPEN-8", "legion was already performed (policy legion_limit)");
        }
        if let Some(returned) = returned {
            self.distinct(returned, "KIFU-CARD-1");
            if returned.len() != 4 {
                self.violation(
                    "VG-KW-8",
                    format!("legion returns exactly four units from the drop zone; {} named", returned.len()),
                );
            }
            for c in returned {
                self.holds(seat, Place::Drop, c);
            }
            self.holds(seat, Place::DeckSearch, mate);
        } else if !(s.holds(seat, Place::Soul, mate) || s.holds(seat, Place::DeckSearch, mate)) && s.def(mate).is_some()
        {
            self.violation(
                "VGC-UI-4",
                format!("the L button calls the mate from the soul or the deck; {} is in neither", self.label(mate)),
            );
        }
        let leader = p.vanguard.as_ref().and_then(|u| s.def(&u.card));
        let wanted = leader.and_then(|d| d.legion_mate.clone());
        let name = s.def(mate).map(|d| d.name.clone());
        if wanted.is_none() || wanted != name {
            self.violation(
                "VG-KW-8",
                format!(
                    "the vanguard names {} as its legion mate, not {}",
                    wanted.as_deref().unwrap_or("no mate"),
                    self.label(mate)
                ),
            );
        }
    }

    fn effect(&mut self, seat: Seat, source: &str, kind: EffectKind) {
        let s = self.state;
        let Some(def) = self.known(source) else { return };
        if kind == EffectKind::Act && (s.active != Some(seat) || s.phase != Phase::Main) {
            self.violation("VG-EFF-2", "ACT abilities are activated in one's own main phase");
        }
        let Some(p) = s.players.get(seat) else { return };
        if let Some(n) = def.limit_break() {
            if p.damage_count() < n {
                self.violation(
                    "VG-KW-7",
                    format!("Limit Break {n} needs {n} damage; {} has {}", s.name(seat), p.damage_count()),
                );
            }
        }
        if let Some(n) = def.generation_break() {
            let up = p.g_zone_face_up() + usize::from(p.g_unit.is_some());
            if up < n {
                self.violation(
                    "VG-KW-10",
                    format!("Generation Break {n} needs {n} face-up G units; {} has {up}", s.name(seat)),
                );
            }
        }
    }

    fn attack(&mut self, seat: Seat, attacker: Circle, target: Circle) {
        let s = self.state;
        if !self.in_turn(seat, "VG-BATTLE-2", "attacking") {
            return;
        }
        self.phase(Phase::Battle, "VG-BATTLE-2", "an attack");
        if s.attack.is_some() {
            self.violation("VG-BATTLE-14", "the previous battle has not ended");
        }
        if s.no_attack_turn(seat) {
            self.violation("VG-SETUP-2", "no attacks may be made during the first turn");
        }
        if !attacker.is_front() {
            self.violation(
                "VG-BATTLE-2",
                format!("{} is in the back row; attackers stand in the front row", attacker.name()),
            );
        }
        if let Some(u) = self.unit_at(seat, attacker) {
            let card = u.card.clone();
            if u.rested {
                self.violation(
                    "VG-BATTLE-2",
                    format!("{} is rested; an attacker is a standing unit", self.label(&card)),
                );
            }
            if u.locked {
                self.violation("VG-KW-2", format!("{} is locked and can do nothing", self.label(&card)));
            }
            if let Some(def) = s.def(&card) {
                if def.has("restraint") {
                    self.violation("VG-KW-5", format!("{} has Restraint and cannot attack", self.label(&card)));
                }
                let other_clan = s
                    .players
                    .get(seat)
                    .is_some_and(|p| p.units().iter().any(|(_, o)| s.def(&o.card).is_some_and(|d| d.clan != def.clan)));
                if def.has("lord") && other_clan {
                    self.violation(
                        "VG-KW-4",
                        format!("{} has Lord and a unit of another clan is on the field", self.label(&card)),
                    );
                }
            }
        }
        let opp = crate::game::opponent(seat);
        if !target.is_front() {
            self.violation("VG-BATTLE-2", format!("{} is in the back row; targets are front-row units", target.name()));
        }
        if s.players.get(opp).and_then(|p| p.on(target)).is_none() {
            self.violation("VG-BATTLE-2", format!("{} has no unit on circle {}", s.name(opp), target.name()));
        }
    }

    fn boost(&mut self, seat: Seat, booster: Circle) {
        let s = self.state;
        let Some(a) = s.attack.as_ref().filter(|a| a.seat == seat && a.hit.is_none() && a.booster.is_none()) else {
            self.violation("VG-BATTLE-3", "a boost joins the attacker's attack, once, before it resolves");
            return;
        };
        if a.attacker.behind() != Some(booster) {
            self.violation("VG-BATTLE-3", format!("{} is not directly behind the attacker", booster.name()));
        }
        if let Some(u) = self.unit_at(seat, booster) {
            let card = u.card.clone();
            if u.rested {
                self.violation("VG-BATTLE-3", format!("{} is rested; a booster is standing", self.label(&card)));
            }
            if u.locked {
                self.violation("VG-KW-2", format!("{} is locked and can do nothing", self.label(&card)));
            }
            if grade(s.def(&card)) > 1 {
                self.violation(
                    "VG-BATTLE-3",
                    format!("{} is grade {}; only grade 0–1 boost", self.label(&card), grade(s.def(&card))),
                );
            }
        }
    }

    fn defending(&mut self, seat: Seat, rule: RuleId, what: &str) {
        match &self.state.attack {
            Some(a) if crate::game::opponent(a.seat) == seat && a.hit.is_none() => {}
            _ => self
                .violation(rule, format!("{what} answers an attack on {}, before it resolves", self.state.name(seat))),
        }
    }

    /// VG-BATTLE-8: the previous check's trigger resolved before the next check.
    fn trigger_settled(&mut self) {
        if self.state.check.as_ref().is_some_and(|c| c.open()) {
            self.violation("VG-BATTLE-8", "the last checked trigger has not been resolved");
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn trigger_resolved(
        &mut self,
        seat: Seat,
        power_to: &str,
        critical_to: Option<&str>,
        drew: Option<&str>,
        healed: Option<&str>,
        stood: Option<&str>,
    ) {
        let s = self.state;
        let Some(ch) = s.check.as_ref().filter(|c| c.open() && c.seat == seat) else {
            self.violation("VG-TRIG-1", "no trigger revealed by a drive or damage check is waiting to resolve");
            return;
        };
        let t = ch.trigger.unwrap_or(TriggerType::Draw);
        self.own_unit(seat, power_to);
        let name = t.name();
        match (t, critical_to) {
            (TriggerType::Critical, Some(c)) => {
                self.own_unit(seat, c);
            }
            (TriggerType::Critical, None) => {
                self.violation("VG-TRIG-4", "a critical trigger gives +1 critical to a unit")
            }
            (_, Some(_)) => self.violation("VG-TRIG-4", format!("a {name} trigger gives no critical")),
            _ => {}
        }
        match (t, drew) {
            (TriggerType::Draw, Some(c)) => {
                self.holds(seat, Place::DeckSearch, c);
            }
            (TriggerType::Draw, None) => self.violation("VG-TRIG-3", "a draw trigger draws a card"),
            (_, Some(_)) => self.violation("VG-TRIG-3", format!("a {name} trigger draws nothing")),
            _ => {}
        }
        match (t, healed) {
            (TriggerType::Heal, Some(c)) => {
                self.holds(seat, Place::Damage, c);
                self.heal_allowed(ch.damage_before, seat);
            }
            (_, Some(_)) => self.violation("VG-TRIG-5", format!("a {name} trigger heals nothing")),
            _ => {}
        }
        match (t, stood) {
            (TriggerType::Stand, Some(c)) => {
                let circle = self.own_unit(seat, c);
                if circle == Some(Circle::Vanguard) {
                    self.violation("VG-TRIG-6", "a stand trigger stands a rear-guard");
                }
                if s.players.get(seat).is_some_and(|p| p.rear.values().any(|u| u.card == c && !u.rested)) {
                    self.violation("VG-TRIG-6", format!("{} is not rested", self.label(c)));
                }
            }
            (_, Some(_)) => self.violation("VG-TRIG-6", format!("a {name} trigger stands nothing")),
            _ => {}
        }
    }

    fn heal_allowed(&mut self, before: (usize, usize), seat: Seat) {
        if before.0 < before.1 {
            self.violation(
                "VG-TRIG-5",
                format!(
                    "{} had {} damage against the opponent's {} when the heal trigger was revealed; healing needs at least as much",
                    self.state.name(seat),
                    before.0,
                    before.1
                ),
            );
        }
    }

    fn attack_resolved(&mut self, hit: bool) {
        let s = self.state;
        let Some(a) = s.attack.as_ref() else {
            self.violation("VG-BATTLE-10", "no attack is waiting to be resolved");
            return;
        };
        if a.hit.is_some() {
            self.violation("VG-BATTLE-10", "the attack was already resolved");
            return;
        }
        if a.drives_done < a.drives_total {
            self.violation("VG-BATTLE-7", format!("{} of {} drive checks were made", a.drives_done, a.drives_total));
        }
        self.trigger_settled();
        if let Some((atk, def)) = s.battle_powers() {
            if hit != (atk >= def) {
                self.violation(
                    "VG-BATTLE-10",
                    format!(
                        "attacker {atk} against defender {def}: the attack {}",
                        if atk >= def { "hits" } else { "fails" }
                    ),
                );
            }
        }
    }

    fn game_ended(&mut self, loser: Option<Seat>) {
        let s = self.state;
        let losses = s.losses();
        let losing: BTreeSet<Seat> = losses.iter().map(|(seat, _)| *seat).collect();
        match loser {
            _ if losing.is_empty() => {
                self.violation("VG-WIN-1", "no player has 6 damage or an empty deck");
            }
            Some(l) if !losing.contains(&l) => {
                let rule = if s.players.get(l).is_some_and(|p| p.deck.is_empty()) { "VG-WIN-3" } else { "VG-WIN-2" };
                self.violation(rule, format!("{} meets no loss condition", s.name(l)));
            }
            Some(l) if losing.len() > 1 => match s.policies.simultaneous_loss {
                SimultaneousLoss::Draw => {
                    self.violation("VG-OPEN-4", "both players lost at once: a draw (policy simultaneous_loss)")
                }
                SimultaneousLoss::ActivePlayerLoses if s.active != Some(l) => self.violation(
                    "VG-OPEN-4",
                    "both players lost at once: the active player loses (policy simultaneous_loss)",
                ),
                SimultaneousLoss::ActivePlayerLoses => {}
            },
            None if losing.len() < 2 || s.policies.simultaneous_loss != SimultaneousLoss::Draw => self.violation(
                "VG-OPEN-4",
                "a draw needs both players to lose at once under policy simultaneous_loss=draw",
            ),
            _ => {}
        }
    }

    /// The rules a card breaks by arriving at `to` (VG-DECK-6, VG-ZONE-7).
    fn place_rules(&mut self, card: &str, to: Place) {
        let Some(def) = self.state.def(card) else { return };
        if def.is_g_unit() && matches!(to, Place::Deck | Place::DeckBottom | Place::DeckSearch) {
            self.violation(
                "VG-DECK-6",
                format!("{} is a G unit: G units cannot be put in the main deck", self.label(card)),
            );
        }
        if !def.is_g_unit() && to == Place::GZone {
            self.violation("VG-ZONE-7", format!("{} is not a G unit: the G zone holds only G units", self.label(card)));
        }
        if to == Place::GZone && self.state.find(card).is_none_or(|(_, p)| p != Place::GZone) {
            let owner = VanguardState::owner(card).unwrap_or(0);
            if self.state.players.get(owner).is_some_and(|p| p.g_zone.len() >= 8) {
                self.violation("VG-ZONE-7", "the G zone holds at most 8 cards");
            }
        }
    }

    /// A manual operation of the client: dispatches to the check of its kind.
    fn client(&mut self, seat: Seat, op: &ClientOp) {
        match op {
            ClientOp::Drew { card } => self.client_drew(seat, card),
            ClientOp::Checked { card } => self.client_checked(seat, card),
            ClientOp::ToTopOfDeck { card } | ClientOp::ToBottomOfDeck { card } => self.client_to_deck(card),
            ClientOp::ToHand { card } => {
                self.known(card);
            }
            ClientOp::Shuffled {} | ClientOp::DeckViewed {} => {}
            ClientOp::Milled { card } | ClientOp::SoulCharged { card } | ClientOp::BoundTop { card } => {
                self.holds(seat, Place::DeckSearch, card);
            }
            ClientOp::PositionChanged { card, rested } => self.position(seat, card, *rested),
            ClientOp::DamageFlipped { card, .. } => {
                self.holds(seat, Place::Damage, card);
            }
            ClientOp::GZoneFlipped { card, .. } => {
                self.holds(seat, Place::GZone, card);
            }
            ClientOp::LockChanged { card, .. } => {
                if self.own_unit_any(card) == Some(Circle::Vanguard) {
                    self.violation("VGC-OP-10", "the client locks rear-guards only");
                }
            }
            ClientOp::DeleteChanged { card, .. } => {
                if self.own_unit_any(card).is_some_and(|c| c != Circle::Vanguard) {
                    self.violation("VGC-OP-11", "the client deletes the vanguard only");
                }
            }
            ClientOp::PowerEdited { card, mode, value } => self.client_power(card, *mode, *value),
            ClientOp::Rode { card } => self.client_rode(seat, card),
            ClientOp::Strode { g_unit, heart } => self.strode(seat, g_unit, heart, None, "VG-STRIDE-1"),
            ClientOp::Legion { mate } => self.legion(seat, None, mate, "VGC-UPD-2"),
            ClientOp::PhaseButton { phase } => self.phase_button(seat, *phase),
            ClientOp::Moved { card, to } => self.moved(seat, card, *to),
            ClientOp::TriggerApplied { power_to, critical_to } => {
                self.client_trigger(seat, power_to, critical_to.as_deref())
            }
        }
    }

    fn client_drew(&mut self, seat: Seat, card: &str) {
        let s = self.state;
        self.holds(seat, Place::DeckSearch, card);
        let own_turn = s.active == Some(seat);
        let turn_draw = own_turn && s.phase <= Phase::Ride && !s.players.get(seat).is_some_and(|p| p.turn.drew);
        let trigger_draw =
            s.check.as_ref().is_some_and(|c| c.seat == seat && c.trigger == Some(TriggerType::Draw) && !c.extra_done);
        if !turn_draw && !trigger_draw {
            self.violation("VG-DRAW-1", "a card was drawn outside the turn's draw with no draw trigger to explain it");
        }
    }

    fn client_checked(&mut self, seat: Seat, card: &str) {
        let s = self.state;
        self.holds(seat, Place::DeckSearch, card);
        self.trigger_settled();
        if s.phase != Phase::Battle {
            self.violation("VGC-OP-3", "the deck's right-click checks only during a battle phase");
        } else if s.active == Some(seat) && s.players.get(seat).is_some_and(|p| p.turn.client_drives_left == 0) {
            self.violation("VG-BATTLE-7", "a drive check with no drive check left for an attacking vanguard");
        }
    }

    fn client_to_deck(&mut self, card: &str) {
        self.known(card);
        if self.state.def(card).is_some_and(|d| d.is_g_unit()) {
            self.violation("VGC-UPD-2", "the client returns a G unit to the top of the G deck, never to the main deck");
        }
        self.place_rules(card, Place::Deck);
    }

    fn client_power(&mut self, card: &str, mode: PowerEdit, value: i32) {
        self.own_unit_any(card);
        if value % 100 != 0 && self.state.policies.power_multiple_is_rule {
            let what = if mode == PowerEdit::Add { "added" } else { "set" };
            self.violation("VGC-OP-12", format!("power {what} {value}: power edits must be multiples of 100"));
        }
    }

    fn client_rode(&mut self, seat: Seat, card: &str) {
        let s = self.state;
        let own_turn = s.active == Some(seat);
        if own_turn && s.players.get(seat).is_some_and(|p| p.turn.rode) {
            self.violation("VG-RIDE-3", "one normal ride per turn, and this turn's was made");
        }
        if !own_turn || !matches!(s.phase, Phase::Stand | Phase::Draw | Phase::Ride) {
            self.violation("VG-RIDE-1", "a normal ride belongs to one's own ride phase");
        }
        self.ride_checks(seat, card, "VGC-UPD-2");
    }

    fn client_trigger(&mut self, seat: Seat, power_to: &str, critical_to: Option<&str>) {
        let s = self.state;
        let Some(ch) = s.check.as_ref().filter(|c| c.seat == seat && c.trigger.is_some() && !c.power_done) else {
            self.violation("VG-TRIG-1", "no trigger revealed by a drive or damage check is waiting for its power");
            return;
        };
        self.own_unit(seat, power_to);
        match (ch.trigger, critical_to) {
            (Some(TriggerType::Critical), Some(c)) => {
                self.own_unit(seat, c);
            }
            (Some(TriggerType::Critical), None) => self.violation("VG-TRIG-4", "a critical trigger gives +1 critical"),
            (_, Some(_)) => self.violation("VG-TRIG-4", "only a critical trigger gives critical"),
            _ => {}
        }
    }

    fn own_unit_any(&mut self, card: &str) -> Option<Circle> {
        let owner = self.state.players.iter().position(|p| p.circle_of(card).is_some());
        match owner {
            Some(i) => self.state.players.0.get(i).and_then(|p| p.circle_of(card)),
            None => {
                if self.known(card).is_some() {
                    self.violation("KIFU-CARD-1", format!("{} is not a unit on the field", self.label(card)));
                }
                None
            }
        }
    }

    fn position(&mut self, seat: Seat, card: &str, rested: bool) {
        let s = self.state;
        let Some(circle) = self.own_unit(seat, card) else { return };
        let locked = s.players.get(seat).is_some_and(|p| p.units().iter().any(|(_, u)| u.card == card && u.locked));
        if locked {
            self.violation("VG-KW-2", format!("{} is locked and can do nothing", self.label(card)));
        }
        if rested && s.active == Some(seat) && s.phase == Phase::Battle {
            // In the client, resting a front-row unit in one's battle phase is the attack, and
            // resting the unit behind it is the boost (VGC-UI-2).
            if circle.is_front() {
                if s.no_attack_turn(seat) {
                    self.violation(
                        "VG-SETUP-2",
                        format!("{} rested to attack on the first turn; no attacks may be made", self.label(card)),
                    );
                }
            } else if grade(s.def(card)) > 1 {
                self.violation("VG-BATTLE-3", format!("{} boosted; only grade 0–1 units boost", self.label(card)));
            }
        }
        if !rested {
            let stand_trigger = s
                .check
                .as_ref()
                .is_some_and(|c| c.seat == seat && c.trigger == Some(TriggerType::Stand) && !c.extra_done);
            if !stand_trigger {
                self.violation(
                    "VG-TRIG-6",
                    format!("{} stood outside the stand phase with no stand trigger to explain it", self.label(card)),
                );
            }
        }
    }

    fn phase_button(&mut self, seat: Seat, phase: Phase) {
        let s = self.state;
        if !matches!(phase, Phase::Ride | Phase::Main | Phase::Battle | Phase::End) {
            self.violation("VGC-UI-2", format!("the client has no {} phase button", phase.name()));
            return;
        }
        if phase == Phase::Ride && s.active != Some(seat) {
            if !s.revealed {
                self.violation("VG-SETUP-5", "the first turn begins once the vanguards are flipped");
            } else if s.active.is_none() && s.first != Some(seat) {
                self.violation("VG-SETUP-2", format!("{} is not the first player", s.name(seat)));
            } else if s.active.is_some() && s.phase != Phase::End {
                self.violation("VG-END-1", "the opponent's turn has not ended");
            }
            return;
        }
        if !self.in_turn(seat, "VG-TURN-1", "pressing a phase button") {
            return;
        }
        if phase == Phase::Main && s.phase >= Phase::Battle {
            self.violation("VG-TURN-2", "after moving to the battle phase there is no return to the main phase");
        } else if phase <= s.phase {
            self.violation(
                "VG-TURN-1",
                format!("the {} phase cannot follow the {} phase", phase.name(), s.phase.name()),
            );
        }
        if phase > Phase::Ride && !s.players.get(seat).is_some_and(|p| p.turn.drew) && s.turn > 0 {
            self.violation("VG-DRAW-1", "the turn went on without its draw");
        }
    }

    fn moved(&mut self, seat: Seat, card: &str, to: Place) {
        let s = self.state;
        let Some(def) = self.known(card) else { return };
        let from = s.find(card);
        self.place_rules(card, to);
        match (from.map(|(_, p)| p), to) {
            (Some(Place::Damage), Place::Drop) => match s
                .check
                .as_ref()
                .filter(|c| c.seat == seat && c.trigger == Some(TriggerType::Heal) && !c.extra_done)
            {
                Some(ch) => self.heal_allowed(ch.damage_before, seat),
                None => self.violation(
                    "VG-TRIG-5",
                    format!(
                        "{} went from the damage zone to the drop zone with no heal trigger to explain it",
                        self.label(card)
                    ),
                ),
            },
            (Some(Place::Hand), Place::Circle(c)) if c != Circle::Vanguard => {
                let forerunner = s.ridden_upon.as_ref().is_some_and(|(_, r)| r == card);
                if !forerunner {
                    if s.active != Some(seat) || s.phase != Phase::Main {
                        self.violation(
                            "VG-MAIN-1",
                            format!("{} was called outside its owner's main phase", self.label(card)),
                        );
                    }
                    self.call_grade(seat, card);
                }
            }
            (Some(Place::Soul), Place::Circle(c)) if c != Circle::Vanguard => {
                let forerunner = s.ridden_upon.as_ref().is_some_and(|(_, r)| r == card);
                if forerunner && !def.has("forerunner") {
                    self.violation("VG-KW-1", format!("{} has no Forerunner", self.label(card)));
                }
            }
            (Some(Place::Circle(a)), Place::Circle(b)) if a != Circle::Vanguard && b != Circle::Vanguard => {
                if s.active != Some(seat) || s.phase != Phase::Main {
                    self.violation("VG-MAIN-3", "rear-guards move in their owner's main phase");
                }
                self.column_move(seat, a, b);
            }
            (Some(Place::Hand), Place::Guardian) => self.guard_grade(seat, card),
            (Some(Place::Circle(c)), Place::Guardian) => self.intercept(c, card),
            _ => {}
        }
    }
}
