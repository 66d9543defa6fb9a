//! `validate`: every rule a FATE event breaks, with its digest rule ID (§5). Pure; no IO.
//!
//! The recorder's own checks use `KIFU-*` IDs: an unknown seat (`KIFU-SEAT-1`), a seal that does
//! not open (`KIFU-SEAL-1`), an escape hatch naming nothing in play (`KIFU-CARD-1`), and the
//! digital dice chains and every roll and pick (the shared checks of [`crate::game::common`]), and
//! a roll or pick left unused (`KIFU-DIE-4`).
//!
//! The checks are methods of the shared [`crate::game::check::Check`] scaffold ([`FateState`] is
//! its `CardTable`): where a card must come from is the scaffold's `holds_for`, under the FATE rule
//! that says so (a draw from the deck, `FATE-TURN-2`; a discard from the hand, `FATE-HAND-1`).
//! A die's face is never in a FATE event: the encounter and every D cost use the common
//! `DieRolled` recorded for them (see `uses_pending`).

use std::collections::BTreeSet;

use super::catalog::{CardType, Cost, EffectKind};
use super::config::{DiceMode, FirstMaster, HandPick, RestCost};
use super::events::{
    AttackType, CardRef, CardState, CommonEvent, FateEvent, Payment, Process, ServantUnveiled, SpellUse, Step,
    Unveiled, DICE_CHAIN,
};
use super::rules_version::Rules;
use super::state::{held_ref, rolled_faces, Battle, FateState, Held, Pose, Zone};
use crate::game::check::CardTable;
use crate::game::commit::Commitment;
use crate::game::{LateViolation, RuleId, Seat, Violation};

/// The rule-check scaffold on a FATE state (see [`crate::game::check`]).
type Check<'a> = crate::game::check::Check<'a, FateState>;

/// Every rule `event` breaks in `s`, under rules version 1.
pub fn validate(s: &FateState, event: &FateEvent) -> Vec<Violation> {
    validate_as(s, event, Rules::FIRST)
}

/// Every rule `event` breaks in `s` under `rules`. Version 1's checks stay as released,
/// so its games audit unchanged; version 2 adds that a Command Spell's option 4 waives only the
/// cost, not the state (a Servant in Danger uses no [Activated] effect, FATE-EFF-2), and
/// [`Check::escape_hatch`]: the escape hatches held to the rules that govern what they change.
/// Version 3 adds that an escape hatch does not turn a Servant with a sealed card face up (its
/// seal opens only at its reveal, KIFU-SEAL-1), and what a reveal brings to light about the
/// event that sealed the card ([`revealed_violations`]).
///
/// Version 4 records as events of their own the steps the fold made silently up to version 3
/// ([`FateState::owed_steps`]): each is checked against what is owed, and an event that moves on
/// while one is owed is cited under the owed step's rule ([`Check::steps_left_out`]).
pub fn validate_as(s: &FateState, event: &FateEvent, rules: Rules) -> Vec<Violation> {
    let mut c = Check::new(s);
    c.event(event, rules);
    c.finish()
}

/// Version 3: what a reveal brings to light about the event that sealed a card
/// ([`crate::game::Game::revealed_violations`]). A sealed card could not be checked when it was
/// set, dealt or drawn; once its seal opens, it must have been a card of the deck it was taken
/// from, not seen leaving it openly nor shown elsewhere since (FATE-TURN-2), and a Servant's card
/// must be of its slot's type (FATE-OPEN-2). Each finding names the event that sealed the card,
/// where the mistake was made; the audit says which reveal found it.
///
/// From version 5, also a card taken sealed from a loser's hand where it was known: its seal
/// must hold that card (FATE-BATTLE-9), cited at the taking.
pub fn revealed_violations(s: &FateState, event: &FateEvent, rules: Rules) -> Vec<LateViolation> {
    let mut out = opened_seals(s, event);
    if rules.taken_card_is_held {
        if let FateEvent::CardRevealed { commitment, card, salt, .. } = event {
            let taken =
                s.taken_known.get(commitment).filter(|_| s.ledger.check_reveal(commitment, card, salt).is_empty());
            if let (Some(known), Some(at)) = (taken.filter(|k| *k != card), s.ledger.sealed_at(commitment)) {
                let message =
                    format!("the card taken sealed from the loser's hand was {known}, but its seal holds {card}");
                out.push(LateViolation { at, violation: Violation::new("FATE-BATTLE-9", message) });
            }
        }
    }
    out
}

/// Version 3's late findings: the sealed cards a reveal opens, against the deck they came from.
fn opened_seals(s: &FateState, event: &FateEvent) -> Vec<LateViolation> {
    let opened: Vec<(Commitment, &str, Option<CardType>)> = match event {
        FateEvent::CardRevealed { commitment, card, salt, .. }
            if s.ledger.check_reveal(commitment, card, salt).is_empty() =>
        {
            vec![(*commitment, card.as_str(), None)]
        }
        FateEvent::ServantRevealed { seat, cards, .. } => servant_seals(s, *seat, cards),
        FateEvent::BattleServantsRevealed { servants } => {
            servants.iter().flat_map(|sv| servant_seals(s, sv.seat, &sv.cards)).collect()
        }
        _ => return vec![],
    };
    let mut out = Vec::new();
    let mut shown = BTreeSet::new();
    for (commitment, card, want) in opened {
        let Some(at) = s.ledger.sealed_at(&commitment) else { continue };
        let late = |rule: RuleId, message: String| LateViolation { at, violation: Violation::new(rule, message) };
        if let Some(want) = want.filter(|w| s.kind(card) != Some(*w)) {
            let is = s.kind(card).map_or_else(|| "not a card of any deck".to_string(), |k| format!("a {k:?} card"));
            out.push(late("FATE-OPEN-2", format!("{card}, set face down as the Servant's {want:?} card, is {is}")));
        }
        let Some(&deck) = s.sealed_from.get(&commitment) else { continue };
        let fresh = shown.insert(card);
        if !fresh || s.card_at(card) != Some((deck, Zone::Deck)) {
            let where_ = match s.card_at(card) {
                _ if !fresh => "this reveal shows it twice".to_string(),
                Some((owner, zone)) => format!("it is in {}'s {}", s.name(owner), zone.name()),
                None => "no deck holds it".to_string(),
            };
            let message = format!("{card}, taken sealed from {}'s deck, was not in it: {where_}", s.name(deck));
            out.push(late("FATE-TURN-2", message));
        }
    }
    out
}

/// The sealed cards of `seat`'s face-down Servant that `cards` open (with the type each slot
/// holds); a seal that does not open is `validate`'s KIFU-SEAL-1, not a late finding.
fn servant_seals<'a>(s: &FateState, seat: Seat, cards: &'a [Unveiled]) -> Vec<(Commitment, &'a str, Option<CardType>)> {
    let Some(sv) = s.master(seat).and_then(|m| m.servant.as_ref()).filter(|sv| sv.face_down) else { return vec![] };
    let slots = sv.cards().into_iter().zip([CardType::HeroicSpirit, CardType::Class]);
    slots
        .zip(cards)
        .filter_map(|((held, want), u)| match (held, &u.salt) {
            (Held::Sealed(c), Some(salt)) if s.ledger.check_reveal(c, &u.card, salt).is_empty() => {
                Some((*c, u.card.as_str(), Some(want)))
            }
            _ => None,
        })
        .collect()
}

impl Check<'_> {
    /// The checks before any rule of the event's own: its seats exist, the game goes on, a
    /// Command Spell is left, and the acting Master is undefeated. `false`: stop here.
    fn preliminaries(&mut self, event: &FateEvent) -> bool {
        let s = self.state;
        let mut seats_ok = true;
        for seat in seats_named(event) {
            seats_ok &= self.seat_ok(seat, s.masters.len());
        }
        if !seats_ok {
            return false;
        }
        if s.result.is_some() {
            self.violation("FATE-WIN-1", "the game is over");
            return false;
        }
        if let FateEvent::CommandSpellUsed { seat, .. } = event {
            if s.master(*seat).is_some_and(|m| m.command_spells == 0) {
                self.violation("FATE-CS-1", "a fourth Command Spell: every Master has three, and all three are spent");
                return false;
            }
        }
        if let Some(seat) = event.seat() {
            if self.defeated(seat) || self.defeat_owed(seat) {
                return false;
            }
        }
        true
    }

    /// Version 4: whether `seat`'s defeat is owed and not yet recorded, cited if so: the Master
    /// is out from the moment its third Command Spell or its last prana went (FATE-WIN-1,
    /// FATE-OPEN-13), so nothing it does after is recorded.
    fn defeat_owed(&mut self, seat: Seat) -> bool {
        let s = self.state;
        let owed = s.owed_steps().into_iter().find_map(|e| match e {
            FateEvent::MastersDefeated { seats, reason } if seats.contains(&seat) => Some(reason),
            _ => None,
        });
        if let Some(reason) = owed {
            let (rule, why) = reason.rule();
            self.violation(rule, format!("{} is defeated ({why}) and takes no further part", s.name(seat)));
        }
        owed.is_some()
    }

    /// Whether `seat` was defeated, cited as FATE-WIN-1 if so: a defeated Master takes no further
    /// part, so nothing it does or has is recorded.
    fn defeated(&mut self, seat: Seat) -> bool {
        let s = self.state;
        let out = !s.is_living(seat);
        if out {
            self.violation("FATE-WIN-1", format!("{} was defeated and takes no further part", s.name(seat)));
        }
        out
    }

    fn event(&mut self, event: &FateEvent, rules: Rules) {
        use FateEvent::*;
        if !self.preliminaries(event) {
            return;
        }
        self.added_by_version(event, rules);
        self.uses_pending(event);
        match event {
            ServantSet { seat, heroic_spirit, class } => self.servant_set(*seat, heroic_spirit, class),
            CardsDealt { seat, cards } => self.dealt(*seat, cards),
            FirstActiveMasterChosen { seat } => self.first_active_master(*seat),
            ActiveMasterHandedOver { from, to } => self.handed_over(*from, *to),
            TurnStarted { seat } => self.turn_started(*seat),
            CardsStood { seat } => self.in_step(*seat, Step::Stand, "FATE-TURN-1"),
            RestingCardsStood { seat, servant, signs } => self.resting_cards_stood(*seat, *servant, signs),
            ServantLeftDanger { .. }
            | PranaLost { .. }
            | WoundedServantsRested { .. }
            | ServantsEndangered { .. }
            | MastersDefeated { .. }
            | ActiveStatusPassed { .. } => self.owed_step(event, rules),
            CardDrawn { seat, card } => self.drawn(*seat, card.as_ref()),
            SecretSignPlaced { seat, card } => self.sign_placed(*seat, card),
            ServantRevealed { seat, cards, drawn } => self.servant_revealed(*seat, cards, drawn),
            RitualStepEnded { seat } => self.in_step(*seat, Step::Ritual, "FATE-TURN-4"),
            EncounterRolled { seat } => {
                // Its face is the d6 recorded for it (`uses_pending`): 1 battles, 2–6 skip.
                self.in_step(*seat, Step::Encounter, "FATE-TURN-5");
                if self.state.encounter_pending {
                    self.violation("FATE-TURN-5", "the encounter die was already rolled");
                }
            }
            RandomServantSelected { seat, target } => {
                self.in_step(*seat, Step::Encounter, "FATE-TURN-5");
                if !self.state.encounter_pending {
                    self.violation("FATE-TURN-5", "no encounter roll of 1 is waiting for a random Servant");
                }
                self.target_ok(*seat, *target, "FATE-OPEN-10");
            }
            AssaultDeclared { seat, target } => self.assault(*seat, *target),
            BattleStepSkipped { seat } => self.in_step(*seat, Step::Declare, "FATE-TURN-4"),
            BattleServantsRevealed { servants } => self.battle_reveal(servants),
            BattleProcessEnded => {
                self.in_process(Process::Battle, "FATE-BATTLE-2");
            }
            AttackTypeChosen { seat, .. } => self.attack_type(*seat),
            DamageDealt { to_attacker, to_responder } => self.damage(*to_attacker, *to_responder),
            CardTakenFromHand { winner, loser, index, card } => self.card_taken(*winner, *loser, *index, card),
            BattleEnded => self.battle_ended(),
            HandDiscarded { seat, cards } => self.hand_discarded(*seat, cards),
            TurnEnded { seat } => self.turn_ended(*seat),
            EffectActivated { seat, card, effect, paid, succeeded } => {
                self.activated(*seat, card, *effect, paid, *succeeded)
            }
            CommandSpellUsed { seat, spell } => self.command_spell(*seat, spell, rules),
            CardStateChanged { card, .. } => {
                if !self.state.masters.iter().any(|m| m.field_pose(card).is_some()) {
                    self.violation("KIFU-CARD-1", format!("{card} is not on any field"));
                }
            }
            PranaChanged { .. }
            | StatModified { .. }
            | SpecialMarkPlaced { .. }
            | CommandSpellLost { .. }
            | PranaChangedTogether { .. } => {}
            EffectResolved { .. } => {}
            Common(c) => self.common(c),
            CardRevealed { seat, commitment, card, salt } => self.card_revealed(*seat, commitment, card, salt),
        }
    }

    /// The end step ends the turn, once the hand is within its limit (FATE-TURN-7, FATE-HAND-1).
    fn turn_ended(&mut self, seat: Seat) {
        self.in_step(seat, Step::End, "FATE-TURN-7");
        let n = self.state.master(seat).map_or(0, |m| m.hand.len());
        if n >= 5 {
            self.violation("FATE-HAND-1", format!("the hand has {n} cards: discard down to 4 first"));
        }
    }

    /// A sealed hand card shown: its seal opens, and the hand holds it (KIFU-SEAL-1).
    fn card_revealed(&mut self, seat: Seat, commitment: &Commitment, card: &str, salt: &crate::game::commit::Secret) {
        let s = self.state;
        self.out.extend(s.ledger.check_reveal(commitment, card, salt));
        if !s.master(seat).is_some_and(|m| m.hand.contains(&Held::Sealed(*commitment))) {
            self.violation("KIFU-SEAL-1", format!("{}'s hand holds no card sealed as {commitment}", s.name(seat)));
        }
    }

    fn dealt(&mut self, seat: Seat, cards: &[CardRef]) {
        let s = self.state;
        self.setup_only();
        let Some(m) = s.master(seat) else { return };
        if m.dealt {
            self.violation("FATE-OPEN-1", format!("{} was already dealt an opening hand", s.name(seat)));
        }
        let want = usize::from(s.policies.opening_hand).min(m.deck_count);
        if cards.len() != want {
            let got = cards.len();
            self.violation("FATE-OPEN-1", format!("the opening hand is {want} cards (opening_hand policy), not {got}"));
        }
        self.out_of_deck(seat, cards);
    }

    fn first_active_master(&mut self, seat: Seat) {
        let s = self.state;
        self.setup_only();
        if s.active_master.is_some() {
            self.violation("FATE-PHASE-1", "the first Active Master was already chosen");
        }
        if let Some((x, _)) = s.masters.enumerate().find(|(_, m)| m.servant.is_none() || !m.dealt) {
            self.violation(
                "FATE-PHASE-1",
                format!("the deal is not complete: {} has no Servant or hand yet", s.name(x)),
            );
        }
        if s.policies.first_master == FirstMaster::FirstSeat && seat != 0 {
            self.violation("FATE-OPEN-7", "the first_master policy is first-seat: the first Active Master is seat 0");
        }
        if s.policies.dice == DiceMode::Digital {
            if let Some(x) = s.seats().find(|x| !s.ledger.chain_is_committed(DICE_CHAIN, *x)) {
                self.violation("KIFU-SEED-4", format!("{} has not committed a dice chain", s.name(x)));
            }
        }
    }

    fn handed_over(&mut self, from: Seat, to: Seat) {
        let s = self.state;
        self.between_turns();
        if !s.handover_due() {
            self.violation("FATE-PHASE-3", "no handover is due: play has not come back to the Active Master");
        }
        if s.active_master != Some(from) {
            self.violation("FATE-PHASE-3", format!("{} is not the Active Master", s.name(from)));
        }
        if s.active_master.map(|am| s.next_living(am)) != Some(to) {
            self.violation("FATE-PHASE-4", format!("the status passes to the next Master, not {}", s.name(to)));
        }
    }

    /// The turn order under the chosen reading (FATE-PHASE-5, FATE-OPEN-8).
    fn turn_started(&mut self, seat: Seat) {
        let s = self.state;
        self.between_turns();
        if s.active_master.is_none() {
            self.violation("FATE-PHASE-1", "no Active Master has been chosen yet");
        } else if s.handover_due() {
            self.violation("FATE-PHASE-3", "play came back to the Active Master: the status must be handed over first");
        } else if s.expected_next() != Some(seat) {
            let want = s.expected_next().map_or("nobody".into(), |x| s.name(x));
            let reading = s.policies.turn_order;
            self.violation(
                "FATE-PHASE-5",
                format!("out of order: under reading {reading:?} the next turn is {want}'s"),
            );
        }
    }

    fn drawn(&mut self, seat: Seat, card: Option<&CardRef>) {
        self.in_step(seat, Step::Draw, "FATE-TURN-2");
        let count = self.state.master(seat).map_or(0, |m| m.deck_count);
        match card {
            None if count > 0 => self.violation("FATE-TURN-2", format!("the deck has {count} cards: draw one")),
            None => {}
            Some(c) => self.out_of_deck(seat, std::slice::from_ref(c)),
        }
    }

    /// One Secret Sign a turn, from the hand (FATE-TURN-3, FATE-OPEN-9).
    fn sign_placed(&mut self, seat: Seat, card: &str) {
        let s = self.state;
        self.in_step(seat, Step::Ritual, "FATE-TURN-3");
        if s.flags.sign_placed {
            self.violation("FATE-TURN-3", "a Secret Sign was already placed this turn (one per turn)");
        } else if s.flags.servant_revealed && !s.policies.ritual_both {
            self.violation("FATE-OPEN-9", "the ritual policy is one: the Servant was already revealed this turn");
        }
        self.holds_for("FATE-TURN-3", seat, Zone::Hand, card);
        if s.kind(card) != Some(CardType::SecretSign) {
            self.violation("FATE-TURN-3", format!("{card} is not a Secret Sign card"));
        }
    }

    fn servant_revealed(&mut self, seat: Seat, cards: &[Unveiled], drawn: &[CardRef]) {
        let s = self.state;
        self.in_step(seat, Step::Ritual, "FATE-TURN-3");
        if s.flags.sign_placed && !s.policies.ritual_both {
            self.violation("FATE-OPEN-9", "the ritual policy is one: a Secret Sign was already placed this turn");
        }
        let Some(m) = s.master(seat) else { return };
        match &m.servant {
            Some(sv) if sv.face_down => self.unveil(seat, cards),
            _ => self.violation("FATE-TURN-3", "the Servant is not face down, so there is nothing to reveal"),
        }
        let want = 2.min(m.deck_count);
        if drawn.len() != want {
            let got = drawn.len();
            self.violation("FATE-TURN-3", format!("a Servant reveal draws 2 cards ({want} available), not {got}"));
        }
        self.out_of_deck(seat, drawn);
    }

    /// A voluntary assault: only after an unused ritual step, by a Standing, face-up Servant
    /// (FATE-TURN-4..6, FATE-STATE-2..4).
    fn assault(&mut self, seat: Seat, target: Seat) {
        let s = self.state;
        if s.turn_master == Some(seat) && s.flags.ritual_used() && matches!(s.step, Step::Ritual | Step::Encounter) {
            self.violation(
                "FATE-TURN-5",
                "the ritual step was used this turn: no voluntary assault, only the encounter roll",
            );
        } else {
            self.in_step(seat, Step::Declare, "FATE-TURN-4");
        }
        match s.master(seat).and_then(|m| m.servant.as_ref()) {
            None => self.violation("FATE-TURN-6", "the Master has no Servant"),
            Some(sv) if sv.face_down => self.violation("FATE-STATE-4", "a face-down Servant cannot attack"),
            Some(sv) if sv.pose == Pose::Resting => {
                self.violation("FATE-STATE-2", "a Resting Servant cannot attack on its own, only respond")
            }
            Some(sv) if sv.pose == Pose::Danger => {
                self.violation("FATE-STATE-3", "a Servant in Danger cannot attack on its own, only respond")
            }
            Some(_) => {}
        }
        self.target_ok(seat, target, "FATE-TURN-6");
    }

    /// The reveal process turns every face-down Servant of the battle up (FATE-BATTLE-1).
    fn battle_reveal(&mut self, servants: &[ServantUnveiled]) {
        let s = self.state;
        let Some(b) = self.in_process(Process::Reveal, "FATE-BATTLE-1") else { return };
        let mut named = BTreeSet::new();
        for sv in servants {
            if sv.seat != b.attacker && sv.seat != b.responder {
                self.violation("FATE-BATTLE-1", format!("{} is not in this battle", s.name(sv.seat)));
                continue;
            }
            named.insert(sv.seat);
            match s.master(sv.seat).and_then(|m| m.servant.as_ref()) {
                Some(x) if x.face_down => self.unveil(sv.seat, &sv.cards),
                _ => self.violation("FATE-BATTLE-1", format!("{}'s Servant is not face down", s.name(sv.seat))),
            }
        }
        for seat in [b.attacker, b.responder] {
            let down = s.master(seat).and_then(|m| m.servant.as_ref()).is_some_and(|x| x.face_down);
            if down && !named.contains(&seat) {
                self.violation("FATE-BATTLE-1", format!("{}'s face-down Servant must be turned face up", s.name(seat)));
            }
        }
    }

    /// The attacker chooses first, then the responder, unless Preemptive Strike denies the
    /// response (FATE-BATTLE-3/5/7).
    fn attack_type(&mut self, seat: Seat) {
        let s = self.state;
        let Some(b) = s.battle.as_ref().filter(|_| s.step == Step::Battle) else {
            self.violation("FATE-BATTLE-3", "no battle is under way");
            return;
        };
        match b.process {
            Process::Attack if seat == b.attacker => {}
            Process::Attack => self.violation("FATE-BATTLE-3", "the attacking side chooses its attack type first"),
            Process::Response if seat == b.responder => {}
            Process::Response => self.violation("FATE-BATTLE-5", "only the responding side chooses now"),
            Process::Wounding if seat == b.responder && s.response_denied(b) => self.violation(
                "FATE-BATTLE-7",
                "the attacker has [Preemptive Strike] and the responder does not: there is no response",
            ),
            p => self.violation(
                "FATE-BATTLE-3",
                format!("attack types are chosen in the attack and response processes, not {}", p.name()),
            ),
        }
    }

    /// The damage of the wounding process, with the tie rule (FATE-BATTLE-4/6/7/8).
    fn damage(&mut self, to_attacker: u32, to_responder: u32) {
        let s = self.state;
        let Some(b) = self.in_process(Process::Wounding, "FATE-BATTLE-8") else { return };
        let (want_a, want_r) = s.expected_damage(b);
        if to_responder != want_r {
            self.violation(
                "FATE-BATTLE-4",
                format!("the attacker deals {want_r} (attack − defense, a tie deals 1), not {to_responder}"),
            );
        }
        if to_attacker != want_a {
            let rule = if s.response_denied(b) { "FATE-BATTLE-7" } else { "FATE-BATTLE-6" };
            self.violation(
                rule,
                format!("the responder deals {want_a} (attack − defense, a tie deals 0), not {to_attacker}"),
            );
        }
    }

    /// The winner takes one card from the loser's hand (FATE-BATTLE-9).
    fn card_taken(&mut self, winner: Seat, loser: Seat, index: u8, card: &CardRef) {
        let s = self.state;
        let Some(b) = self.in_process(Process::Retreat, "FATE-BATTLE-9") else { return };
        match s.hand_take(b) {
            _ if b.card_taken => self.violation("FATE-BATTLE-9", "the winner already took a card"),
            Some((w, l)) if (w, l) == (winner, loser) => {
                let hand = s.master(loser).map_or(&[][..], |m| &m.hand[..]);
                match hand.get(usize::from(index)) {
                    None => self.violation(
                        "FATE-BATTLE-9",
                        format!("the loser's hand has {} cards; no card {index}", hand.len()),
                    ),
                    Some(Held::Known(c)) if matches!(card, CardRef::Open(x) if x != c) => self
                        .violation("FATE-BATTLE-9", format!("card {index} of the loser's hand is not the card named")),
                    Some(_) => {}
                }
            }
            Some((w, _)) => {
                self.violation("FATE-BATTLE-9", format!("the winner is {}, who takes from the loser", s.name(w)))
            }
            None => {
                self.violation("FATE-BATTLE-9", "only when exactly one Servant was wounded does the winner take a card")
            }
        }
    }

    fn battle_ended(&mut self) {
        let s = self.state;
        let Some(b) = self.in_process(Process::Retreat, "FATE-BATTLE-9") else { return };
        if let Some((_, l)) = s.hand_take(b) {
            if !b.card_taken && s.master(l).is_some_and(|m| !m.hand.is_empty()) {
                self.violation("FATE-BATTLE-9", "the winner has not yet taken a card from the loser's hand");
            }
        }
    }

    /// The end step's hand limit: 5 or more are discarded down to 4 (FATE-HAND-1).
    fn hand_discarded(&mut self, seat: Seat, cards: &[String]) {
        let s = self.state;
        self.in_step(seat, Step::End, "FATE-HAND-1");
        let n = s.master(seat).map_or(0, |m| m.hand.len());
        if n < 5 {
            self.violation("FATE-HAND-1", format!("a hand of {n} is under the limit; nothing is discarded"));
        } else if n - cards.len().min(n) != 4 {
            self.violation("FATE-HAND-1", format!("a hand of {n} is discarded down to 4, not by {}", cards.len()));
        }
        self.each_in(seat, Zone::Hand, cards, "FATE-HAND-1");
    }

    /// An [Activated] effect: usable now, once per process or step, its costs paid (FATE-EFF, FATE-COST).
    fn activated(&mut self, seat: Seat, card: &str, effect: u8, paid: &[Payment], succeeded: bool) {
        let s = self.state;
        self.activation(seat, card, effect);
        if s.activated.contains(&seat) {
            self.violation("FATE-EFF-3", format!("{} already activated a card in this process or step", s.name(seat)));
        }
        let costs = s.def(card).and_then(|d| d.effects.get(usize::from(effect))).map(|e| e.costs()).unwrap_or_default();
        self.payments(seat, card, &costs, paid, succeeded);
    }

    /// The five options of a Command Spell (FATE-CS-3); a fourth spell is `preliminaries`'.
    fn command_spell(&mut self, seat: Seat, spell: &SpellUse, rules: Rules) {
        let s = self.state;
        let Some(m) = s.master(seat) else { return };
        let servant = m.servant.as_ref();
        match spell {
            SpellUse::PranaRestored | SpellUse::StatRaised(_) => {
                if servant.is_none() {
                    self.violation("FATE-CS-3", "the Master has no Servant");
                }
            }
            SpellUse::MarkRemoved(mark) => {
                if !m.marks.contains(mark) {
                    self.violation("FATE-CS-3", format!("the Master has no special mark {mark:?}"));
                }
            }
            SpellUse::EffectUsedFree { card, effect } => {
                let face_up = servant.filter(|x| x.holds(card) && !x.face_down);
                if face_up.is_none() {
                    self.violation("FATE-CS-3", format!("{card} is not a face-up card of the Master's Servant"));
                }
                let used = s.def(card).and_then(|d| d.effects.get(usize::from(*effect)));
                match used {
                    None => self.violation("FATE-CS-3", format!("{card} has no effect {effect}")),
                    Some(e) if e.costs().contains(&Cost::X) => {
                        self.violation("FATE-CS-3", "option 4 is not allowed on a cost marked X")
                    }
                    Some(e) if e.kind == EffectKind::Constant => {
                        self.violation("FATE-EFF-1", "a [Constant] effect always applies; it is not used")
                    }
                    Some(_) => {}
                }
                // Version 2: the spell waives the cost, not the state the effect is used in. Option
                // 4 names a Servant's card (FATE-CS-3 above), never a Secret Sign.
                if let (true, Some(sv), Some(e)) = (rules.spell_keeps_the_state, face_up, used) {
                    if e.kind == EffectKind::Activated {
                        self.activated_usable(false, sv.pose);
                    }
                }
            }
            SpellUse::ServantStood => {
                if !servant.is_some_and(|x| !x.face_down && matches!(x.pose, Pose::Resting | Pose::Danger)) {
                    self.violation("FATE-CS-3", "option 5 stands a Servant that is Resting or in Danger");
                }
            }
        }
    }
}

/// A version-4 step with what it names sorted and each named once: steps are compared as sets.
fn normalized(step: &FateEvent) -> FateEvent {
    let set = |seats: &[Seat]| seats.iter().copied().collect::<BTreeSet<Seat>>().into_iter().collect::<Vec<_>>();
    match step {
        FateEvent::PranaLost { losses } => {
            FateEvent::PranaLost { losses: losses.iter().cloned().collect::<BTreeSet<_>>().into_iter().collect() }
        }
        FateEvent::WoundedServantsRested { seats } => FateEvent::WoundedServantsRested { seats: set(seats) },
        FateEvent::ServantsEndangered { seats } => FateEvent::ServantsEndangered { seats: set(seats) },
        FateEvent::MastersDefeated { seats, reason } => {
            FateEvent::MastersDefeated { seats: set(seats), reason: *reason }
        }
        other => other.clone(),
    }
}

/// The rule of a version-4 step and what it does, in words, for findings.
fn owed_rule(s: &FateState, step: &FateEvent) -> (RuleId, String) {
    let names = |seats: &[Seat]| seats.iter().map(|x| s.name(*x)).collect::<Vec<_>>().join(" and ");
    match step {
        FateEvent::MastersDefeated { seats, reason } => {
            let (rule, why) = reason.rule();
            (rule, format!("the defeat of {} ({why})", names(seats)))
        }
        FateEvent::ServantsEndangered { seats } => {
            ("FATE-OPEN-13", format!("{}'s Servant entering Danger at 0 prana (prana_zero=danger)", names(seats)))
        }
        FateEvent::ActiveStatusPassed { from, to } => (
            "FATE-PHASE-4",
            format!("the Active Master status passing from the defeated {} to {}", s.name(*from), s.name(*to)),
        ),
        FateEvent::ServantLeftDanger { seat } => (
            "FATE-PHASE-3",
            format!(
                "{}'s Servant turning from Danger to Resting, as its Master received the Active Master status",
                s.name(*seat)
            ),
        ),
        FateEvent::PranaLost { losses } => {
            let each: Vec<String> = losses.iter().map(|l| format!("{} loses {}", s.name(l.seat), l.amount)).collect();
            ("FATE-BATTLE-8", format!("the wounding's prana loss ({})", each.join(", ")))
        }
        FateEvent::WoundedServantsRested { seats } => {
            ("FATE-BATTLE-9", format!("the retreat's rest of {}'s wounded Servant", names(seats)))
        }
        _ => ("FATE-TURN-1", String::new()),
    }
}

/// Every seat an event names, for the seat-exists check.
fn seats_named(event: &FateEvent) -> Vec<Seat> {
    use FateEvent::*;
    let mut out: Vec<Seat> = event.seat().into_iter().collect();
    match event {
        FirstActiveMasterChosen { seat }
        | PranaChanged { seat, .. }
        | StatModified { seat, .. }
        | SpecialMarkPlaced { seat, .. }
        | EffectResolved { seat, .. }
        | CommandSpellLost { seat, .. } => out.push(*seat),
        ActiveMasterHandedOver { to, .. } => out.push(*to),
        RandomServantSelected { target, .. } | AssaultDeclared { target, .. } => out.push(*target),
        CardTakenFromHand { loser, .. } => out.push(*loser),
        BattleServantsRevealed { servants } => out.extend(servants.iter().map(|x| x.seat)),
        PranaChangedTogether { changes, .. } => out.extend(changes.iter().map(|c| c.seat)),
        ServantLeftDanger { seat } => out.push(*seat),
        PranaLost { losses } => out.extend(losses.iter().map(|l| l.seat)),
        WoundedServantsRested { seats } | ServantsEndangered { seats } | MastersDefeated { seats, .. } => {
            out.extend(seats)
        }
        ActiveStatusPassed { from, to } => out.extend([*from, *to]),
        _ => {}
    }
    out
}

/// What an event does with the rolls and picks recorded before it: the draws it needs, checked
/// against [`FateState::pending`] in order (`None`: it needs none, so none may be waiting).
enum Needs {
    /// A roll of a d6 (its face is the event's to judge: an encounter, a D cost).
    Die,
    /// A pick of `picked` among these choices.
    Pick(Vec<String>, u32),
}

fn needs(s: &FateState, event: &FateEvent) -> Option<(Vec<Needs>, &'static str)> {
    use FateEvent::*;
    Some(match event {
        FirstActiveMasterChosen { seat } if s.policies.first_master == FirstMaster::Lot => {
            let living = s.living();
            let picked = living.iter().position(|x| x == seat).unwrap_or(living.len());
            (vec![Needs::Pick(seat_labels(&living), u32::try_from(picked).unwrap_or(u32::MAX))], "FATE-OPEN-7")
        }
        EncounterRolled { .. } => (vec![Needs::Die], "FATE-TURN-5"),
        RandomServantSelected { seat, target } => {
            let candidates = servant_candidates(s, *seat);
            let picked = candidates.iter().position(|x| x == target).unwrap_or(candidates.len());
            (vec![Needs::Pick(seat_labels(&candidates), u32::try_from(picked).unwrap_or(u32::MAX))], "FATE-OPEN-10")
        }
        CardTakenFromHand { loser, index, .. } if s.policies.hand_pick == HandPick::Blind => {
            let n = s.master(*loser).map_or(0, |m| m.hand.len());
            (vec![Needs::Pick(position_labels(n), u32::from(*index))], "FATE-BATTLE-9")
        }
        EffectActivated { paid, .. } => {
            (paid.iter().filter(|p| **p == Payment::Rolled).map(|_| Needs::Die).collect(), "FATE-COST-3")
        }
        Common(_) => return None,
        _ => (vec![], "KIFU-DIE-4"),
    })
}

/// The choices of a pick among seats, as [`CommonEvent::RandomPicked`] names them.
pub fn seat_labels(seats: &[Seat]) -> Vec<String> {
    seats.iter().map(|x| format!("seat {x}")).collect()
}

/// The choices of a blind pick from a hand of `n` cards: its positions.
pub fn position_labels(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("card {i}")).collect()
}

/// The Masters whose Servant an encounter may pick (FATE-OPEN-10), in seat order.
pub fn servant_candidates(s: &FateState, roller: Seat) -> Vec<Seat> {
    s.living().into_iter().filter(|x| *x != roller && s.master(*x).is_some_and(|m| m.servant.is_some())).collect()
}

/// Whether the winner's pick is a blind one (FATE-OPEN-11), for agents and describe.
pub fn blind_pick(s: &FateState) -> bool {
    s.policies.hand_pick == HandPick::Blind
}

/// The attack type a physical-only or magical-only Servant would choose; used by the agent.
pub fn best_attack(s: &FateState, from: Seat, to: Seat, tie: u32) -> AttackType {
    if s.damage(from, to, AttackType::Magical, tie) > s.damage(from, to, AttackType::Physical, tie) {
        AttackType::Magical
    } else {
        AttackType::Physical
    }
}

impl<'a> Check<'a> {
    /// The shared checks of a common event, and FATE's: chains are committed at the deal, and a
    /// digital game draws every roll and pick from its dice chain.
    fn common(&mut self, c: &CommonEvent) {
        let s = self.state;
        let living = s.living();
        let cx = crate::game::common::Context {
            ledger: &s.ledger,
            seats: s.masters.len(),
            mode: s.policies.dice.random_mode(),
            contributors: &living,
        };
        self.out.extend(crate::game::common::validate(&cx, c));
        match c {
            CommonEvent::ChainCommitted { key, .. } | CommonEvent::ChainLinkRevealed { key, .. }
                if key != DICE_CHAIN =>
            {
                self.violation("KIFU-SEED-4", format!("FATE's dice chain is {DICE_CHAIN:?}, not {key:?}"))
            }
            CommonEvent::ChainCommitted { .. } => self.setup_only(),
            CommonEvent::DieRolled { seed: Some(key), .. } | CommonEvent::RandomPicked { seed: Some(key), .. }
                if !key.starts_with(&format!("{DICE_CHAIN}/")) =>
            {
                self.violation(
                    "KIFU-CHAIN-1",
                    format!("a digital FATE game draws from its dice chain, not seed {key:?}"),
                )
            }
            _ => {}
        }
    }

    /// The event uses exactly the rolls and picks waiting for it, in order: a missing one, a
    /// different one, or one left over (`KIFU-DIE-4`) is a finding.
    fn uses_pending(&mut self, event: &FateEvent) {
        let s = self.state;
        let Some((want, rule)) = needs(s, event) else { return };
        if s.pending.len() > want.len() {
            self.violation(
                "KIFU-DIE-4",
                format!("{} roll(s) or pick(s) were recorded but this event uses {}", s.pending.len(), want.len()),
            );
        }
        for (i, need) in want.iter().enumerate() {
            match (need, s.pending.get(i)) {
                (_, None) => self.violation(rule, "record the roll or pick first (a die roll or random pick event)"),
                (Needs::Die, Some(CommonEvent::DieRolled { sides: 6, .. })) => {}
                (Needs::Pick(among, picked), Some(CommonEvent::RandomPicked { among: got, picked: p, .. })) => {
                    if got != among {
                        self.violation(rule, format!("the pick was among {got:?}, not {among:?}"));
                    } else if p != picked {
                        let name = among.get(*p as usize).map_or("?", String::as_str);
                        self.violation(rule, format!("the pick chose {name}"));
                    }
                }
                (Needs::Die, Some(_)) => self.violation(rule, "this needs a roll of a six-sided die"),
                (Needs::Pick(..), Some(_)) => self.violation(rule, "this needs a random pick"),
            }
        }
    }

    fn setup_only(&mut self) {
        if self.state.step != Step::Setup {
            self.violation("FATE-OPEN-1", "the deal is over; this happens only at setup");
        }
    }

    fn between_turns(&mut self) {
        let s = self.state;
        if !matches!(s.step, Step::TurnOver | Step::Setup) {
            let whose = s.turn_master.map_or("?".into(), |t| s.name(t));
            self.violation("FATE-TURN-7", format!("{whose}'s turn has not ended (step {})", s.step.name()));
        }
    }

    /// The event belongs to `step` of `seat`'s turn.
    fn in_step(&mut self, seat: Seat, step: Step, rule: RuleId) {
        let s = self.state;
        if s.turn_master != Some(seat) {
            self.violation("FATE-PHASE-2", format!("it is not {}'s turn", s.name(seat)));
        } else if s.step != step {
            self.violation(
                rule,
                format!("this belongs to the {} step; the turn is in the {} step", step.name(), s.step.name()),
            );
        }
    }

    /// The battle under way, in `process`.
    fn in_process(&mut self, process: Process, rule: RuleId) -> Option<&'a Battle> {
        let s = self.state;
        match s.battle.as_ref().filter(|_| s.step == Step::Battle) {
            None => {
                self.violation(rule, "no battle is under way");
                None
            }
            Some(b) if b.process != process => {
                let now = b.process.name();
                self.violation(
                    rule,
                    format!("this is the {} process; the battle is in the {now} process", process.name()),
                );
                None
            }
            Some(b) => Some(b),
        }
    }

    fn target_ok(&mut self, seat: Seat, target: Seat, rule: RuleId) {
        let s = self.state;
        if target == seat {
            self.violation(rule, "a Master's Servant does not battle its own Master");
        } else if !s.is_living(target) {
            self.violation(rule, format!("{} is defeated", s.name(target)));
        } else if s.master(target).and_then(|m| m.servant.as_ref()).is_none() {
            self.violation(rule, format!("{} has no Servant", s.name(target)));
        }
    }

    fn servant_set(&mut self, seat: Seat, hs: &CardRef, class: &CardRef) {
        let s = self.state;
        self.setup_only();
        if s.master(seat).is_some_and(|m| m.servant.is_some()) {
            self.violation("FATE-OPEN-2", format!("{} already set a Servant", s.name(seat)));
        }
        for (r, want) in [(hs, CardType::HeroicSpirit), (class, CardType::Class)] {
            if let CardRef::Open(c) = r {
                if s.kind(c) != Some(want) {
                    self.violation("FATE-OPEN-2", format!("{c} is not a {want:?} card"));
                }
            }
        }
        self.out_of_deck(seat, &[hs.clone(), class.clone()]);
    }

    /// Cards named as leaving `seat`'s deck must be in it (`FATE-TURN-2`), each once, and no more
    /// than it holds.
    fn out_of_deck(&mut self, seat: Seat, cards: &[CardRef]) {
        let count = self.state.master(seat).map_or(0, |m| m.deck_count);
        if cards.len() > count {
            self.violation("FATE-TURN-2", format!("the deck holds {count} cards, not {}", cards.len()));
        }
        let open: Vec<String> = cards.iter().map(held_ref).filter_map(|h| h.known().map(str::to_string)).collect();
        self.each_in(seat, Zone::Deck, &open, "FATE-TURN-2");
    }

    /// Every card of `cards` is in `seat`'s `zone` (`rule`), and none is named twice.
    fn each_in(&mut self, seat: Seat, zone: Zone, cards: &[String], rule: RuleId) {
        self.distinct(cards, rule);
        for c in cards {
            self.holds_for(rule, seat, zone, c);
        }
    }

    /// Face-down Servant cards turned up must match what was set (and open their seals).
    fn unveil(&mut self, seat: Seat, cards: &[Unveiled]) {
        let s = self.state;
        let Some(sv) = s.master(seat).and_then(|m| m.servant.as_ref()) else { return };
        let held = sv.cards();
        if cards.len() != held.len() {
            self.violation(
                "FATE-BATTLE-1",
                format!("a Servant has {} cards to turn up, not {}", held.len(), cards.len()),
            );
            return;
        }
        for (h, u) in held.iter().zip(cards) {
            match (h, &u.salt) {
                (Held::Known(c), _) if *c != u.card => {
                    self.violation("KIFU-SEAL-1", format!("the face-down card is {c}, not {}", u.card))
                }
                (Held::Known(_), _) => {}
                (Held::Sealed(commit), Some(salt)) => self.out.extend(s.ledger.check_reveal(commit, &u.card, salt)),
                (Held::Sealed(_), None) => {
                    self.violation("KIFU-SEAL-1", format!("{} was set sealed: give its salt", u.card))
                }
            }
        }
    }

    /// Whether `seat` may activate effect `effect` of `card` (FATE-STATE-5, FATE-EFF-1/2, FATE-COST-6).
    fn activation(&mut self, seat: Seat, card: &str, effect: u8) {
        let s = self.state;
        let Some((pose, face_down)) = s.master(seat).and_then(|m| m.field_pose(card)) else {
            self.violation("FATE-EFF-1", format!("{card} is not on {}'s field", s.name(seat)));
            return;
        };
        let Some(e) = s.def(card).and_then(|d| d.effects.get(usize::from(effect))) else {
            self.violation("FATE-EFF-1", format!("{card} has no effect {effect}"));
            return;
        };
        if e.kind == EffectKind::Constant {
            self.violation("FATE-EFF-1", "a [Constant] effect always applies; it is not activated");
        }
        let sign = s.kind(card) == Some(CardType::SecretSign);
        if face_down {
            self.violation("FATE-STATE-4", "a face-down card cannot use any of its properties");
        } else {
            self.activated_usable(sign, pose);
        }
        if e.costs().contains(&Cost::X) && !s.policies.x_cost_allowed {
            self.violation("FATE-COST-6", "the x_cost policy is forbid: an X cost cannot be paid");
        }
    }

    /// FATE-EFF-2: a face-up card in `pose` may use its [Activated] effects, unless it is a Servant
    /// in Danger, or a Secret Sign (`sign`) that is not Standing.
    fn activated_usable(&mut self, sign: bool, pose: Pose) {
        if !sign && pose == Pose::Danger {
            self.violation("FATE-EFF-2", "a Servant in Danger cannot use its [Activated] effects");
        } else if sign && pose != Pose::Standing {
            self.violation("FATE-EFF-2", "a Resting Secret Sign cannot use a non-[Constant] effect");
        }
    }

    /// The checks later versions add, each from the version that added it (earlier versions'
    /// games keep their verdicts).
    fn added_by_version(&mut self, event: &FateEvent, rules: Rules) {
        if rules.escape_hatches_held {
            self.escape_hatch(event);
        }
        if rules.hatch_keeps_seals {
            self.unsealed_by_hatch(event);
        }
        if rules.seals_checked_on_reveal {
            self.shown_cards_left_the_deck(event);
        }
        if rules.owed_steps {
            if let FateEvent::CardsStood { .. } = event {
                self.violation(
                    "FATE-TURN-1",
                    "version 4 names the cards the stand step stands: record RestingCardsStood",
                );
            }
            self.steps_left_out(event);
        }
        if rules.hatch_waits_for_an_owed_defeat {
            self.hatch_before_an_owed_defeat(event);
        }
        if rules.taken_card_is_held {
            self.taken_card_is_the_held_one(event);
        }
    }

    /// Version 5: a Master whose defeat is owed (its third Command Spell gone, or its prana at 0
    /// under `prana_zero=defeat`) is defeated at once (FATE-WIN-1, FATE-OPEN-13); an escape hatch
    /// that changes its prana, stats, marks, Command Spells or field cards before the defeat is
    /// recorded would undo or dodge it, as the same hatch after the defeat is refused.
    fn hatch_before_an_owed_defeat(&mut self, event: &FateEvent) {
        let s = self.state;
        let owed: Vec<Seat> = s
            .owed_steps()
            .into_iter()
            .filter_map(|e| if let FateEvent::MastersDefeated { seats, .. } = e { Some(seats) } else { None })
            .flatten()
            .collect();
        if owed.is_empty() {
            return;
        }
        let seats: Vec<Seat> = match event {
            FateEvent::PranaChanged { seat, .. }
            | FateEvent::StatModified { seat, .. }
            | FateEvent::SpecialMarkPlaced { seat, .. }
            | FateEvent::CommandSpellLost { seat, .. } => vec![*seat],
            FateEvent::PranaChangedTogether { changes, .. } => changes.iter().map(|c| c.seat).collect(),
            FateEvent::CardStateChanged { card, .. } => {
                s.masters.enumerate().filter(|(_, m)| m.field_pose(card).is_some()).map(|(x, _)| x).collect()
            }
            _ => return,
        };
        for seat in seats.into_iter().filter(|x| owed.contains(x)) {
            let name = s.name(seat);
            self.violation(
                "FATE-WIN-1",
                format!("{name}'s defeat is owed and comes first: a defeated Master takes no further part"),
            );
        }
    }

    /// Version 5: the winner of a battle takes the card the loser holds at `index`, as held
    /// (FATE-BATTLE-9): a sealed card moves under its own seal, an open one openly or sealed (a
    /// sealed one is checked when its seal opens, [`revealed_violations`]).
    fn taken_card_is_the_held_one(&mut self, event: &FateEvent) {
        let FateEvent::CardTakenFromHand { loser, index, card, .. } = event else { return };
        let held = self.state.master(*loser).and_then(|m| m.hand.get(usize::from(*index)));
        match (held, card) {
            (Some(Held::Sealed(c)), CardRef::Sealed(x)) if c != x => self
                .violation("FATE-BATTLE-9", format!("card {index} of the loser's hand is sealed under another seal")),
            (Some(Held::Sealed(_)), CardRef::Open(x)) => self.violation(
                "KIFU-SEAL-1",
                format!("card {index} of the loser's hand is sealed: naming it {x} shows it without opening its seal"),
            ),
            _ => {}
        }
    }

    /// Version 4's stand step: exactly the Master's Resting cards, its Servant and each Resting
    /// Secret Sign, named once or more (compared as a set); Danger and face-down cards are not
    /// affected (FATE-TURN-1).
    fn resting_cards_stood(&mut self, seat: Seat, servant: bool, signs: &[String]) {
        let s = self.state;
        self.in_step(seat, Step::Stand, "FATE-TURN-1");
        let (want_servant, want_signs) = s.to_stand(seat);
        let name = s.name(seat);
        match (servant, want_servant) {
            (true, false) => {
                self.violation("FATE-TURN-1", format!("{name}'s Servant is not Resting face up: it does not stand"))
            }
            (false, true) => self.violation("FATE-TURN-1", format!("{name}'s Servant is Resting and stands")),
            _ => {}
        }
        let named: BTreeSet<&String> = signs.iter().collect();
        for c in named.iter().filter(|c| !want_signs.contains(c)) {
            self.violation("FATE-TURN-1", format!("{c} is not a Resting Secret Sign of {name}'s: it does not stand"));
        }
        for c in want_signs.iter().filter(|c| !named.contains(c)) {
            self.violation("FATE-TURN-1", format!("{c} is a Resting Secret Sign of {name}'s and stands"));
        }
    }

    /// Version 4's automatic steps ([`FateState::owed_steps`]): each names exactly what is owed,
    /// under the rule that owes it.
    ///
    /// From version 5 a step is looked for among those owed once the steps it leaves out are
    /// settled: a table that left out the prana loss and rested its wounded Servant is cited for
    /// the prana loss (at this event, by `steps_left_out`), not also for a rest that was not due.
    fn owed_step(&mut self, event: &FateEvent, rules: Rules) {
        let s = self.state;
        let (rule, _) = owed_rule(s, event);
        let left_out = if rules.owed_step_after_those_left_out { s.left_out(event) } else { Vec::new() };
        let owed = if left_out.is_empty() {
            s.owed_steps()
        } else {
            let mut after = s.clone();
            left_out.iter().for_each(|due| after.settle(due));
            after.owed_steps()
        };
        let Some(want) = owed.into_iter().find(|e| e.same_step(event)) else {
            let nothing = match event {
                FateEvent::ServantLeftDanger { .. } => {
                    "no Master received the Active Master status with its Servant in Danger"
                }
                FateEvent::PranaLost { .. } => "no damage is waiting to be lost as prana",
                FateEvent::WoundedServantsRested { .. } => "no wounded Servant is standing in a retreat process",
                FateEvent::ServantsEndangered { .. } => "no Servant's prana reached 0 under prana_zero=danger",
                FateEvent::ActiveStatusPassed { .. } => "no defeated Active Master's status is waiting to pass on",
                _ => "no Master's defeat is owed for this reason",
            };
            self.violation(rule, nothing);
            return;
        };
        let (want, got) = (normalized(&want), normalized(event));
        if want == got {
            return;
        }
        let (_, what) = owed_rule(s, &want);
        // A loss split over several steps, each right: damage is simultaneous (FATE-BATTLE-10).
        if let (FateEvent::PranaLost { losses: all }, FateEvent::PranaLost { losses: some }) = (&want, &got) {
            if !some.is_empty() && some.iter().all(|l| all.contains(l)) {
                self.violation(
                    "FATE-BATTLE-10",
                    format!("damage is simultaneous: one step loses every side's prana, {what}"),
                );
                return;
            }
        }
        self.violation(rule, format!("this step names what is owed: {what}"));
    }

    /// Version 4: an event that moves the game on while a step is owed leaves that step out
    /// ([`FateState::left_out`]); it is cited here, once, under the owed step's rule, where the
    /// table moved on without it (the fold then owes it no more).
    fn steps_left_out(&mut self, event: &FateEvent) {
        let s = self.state;
        for due in s.left_out(event) {
            let (rule, what) = owed_rule(s, &due);
            self.violation(rule, format!("{what} was due first and is not recorded"));
        }
    }

    /// Version 2: the escape hatches held to the rules that govern what they change. A defeated
    /// Master takes no further part (FATE-WIN-1), so neither its prana, stats, marks, Command
    /// Spells nor field cards change; and Danger is for Servants only (FATE-STATE-3: FATE-EFF-2's
    /// mention of a Secret Sign in Danger is the source inconsistency FATE-OPEN-3, and no policy
    /// reads it otherwise), so a Secret Sign is never put in Danger.
    fn escape_hatch(&mut self, event: &FateEvent) {
        let s = self.state;
        match event {
            FateEvent::PranaChanged { seat, .. }
            | FateEvent::StatModified { seat, .. }
            | FateEvent::SpecialMarkPlaced { seat, .. }
            | FateEvent::CommandSpellLost { seat, .. } => {
                self.defeated(*seat);
            }
            FateEvent::PranaChangedTogether { changes, .. } => {
                for c in changes {
                    self.defeated(c.seat);
                }
            }
            FateEvent::CardStateChanged { card, state, .. } => {
                // A card on no field is version 1's KIFU-CARD-1 already.
                if let Some((owner, _)) = s.masters.enumerate().find(|(_, m)| m.field_pose(card).is_some()) {
                    self.defeated(owner);
                }
                if *state == CardState::Danger && s.kind(card) == Some(CardType::SecretSign) {
                    self.violation("FATE-STATE-3", format!("{card} is a Secret Sign: only a Servant enters Danger"));
                }
            }
            _ => {}
        }
    }

    /// Version 3: `CardStateChanged` turning a face-down Servant face up while one of its cards is
    /// sealed would show a card whose seal never opened; a Servant turns up at its reveal
    /// (FATE-TURN-3, FATE-BATTLE-1), which opens each seal with its salt.
    fn unsealed_by_hatch(&mut self, event: &FateEvent) {
        let FateEvent::CardStateChanged { card, state, .. } = event else { return };
        if *state == CardState::FaceDown {
            return;
        }
        let servant = self.state.masters.iter().filter_map(|m| m.servant.as_ref()).find(|sv| sv.holds(card));
        if servant.is_some_and(|sv| sv.face_down && sv.cards().iter().any(|h| matches!(h, Held::Sealed(_)))) {
            self.violation(
                "KIFU-SEAL-1",
                format!("{card}'s Servant has a sealed card: it turns face up at its reveal, which opens the seal"),
            );
        }
    }

    /// Version 3: a card a reveal showed out of its seal has left its deck, though the deck's set
    /// of instances still names it (a sealed draw cannot say which card it took). Named again as
    /// taken from that deck, openly, it was not in it (FATE-TURN-2).
    fn shown_cards_left_the_deck(&mut self, event: &FateEvent) {
        let s = self.state;
        let (seat, cards): (Seat, Vec<&CardRef>) = match event {
            FateEvent::ServantSet { seat, heroic_spirit, class } => (*seat, vec![heroic_spirit, class]),
            FateEvent::CardsDealt { seat, cards } => (*seat, cards.iter().collect()),
            FateEvent::CardDrawn { seat, card } => (*seat, card.iter().collect()),
            FateEvent::ServantRevealed { seat, drawn, .. } => (*seat, drawn.iter().collect()),
            _ => return,
        };
        let Some(m) = s.master(seat) else { return };
        for c in cards.into_iter().filter_map(|r| if let CardRef::Open(c) = r { Some(c) } else { None }) {
            if let Some((owner, zone)) = s.card_at(c).filter(|at| m.deck.contains(c) && *at != (seat, Zone::Deck)) {
                let (name, zone) = (s.name(owner), zone.name());
                self.violation(
                    "FATE-TURN-2",
                    format!("{c} was shown out of its seal and is in {name}'s {zone}, not the deck"),
                );
            }
        }
    }

    /// The costs paid left to right (FATE-COST-1..5): each payment matches its symbol, and a failed
    /// D ends the payment and the effect. A D's face is the die recorded for it: the activation's
    /// rolls, in order (a missing roll is `uses_pending`'s finding).
    fn payments(&mut self, seat: Seat, card: &str, costs: &[Cost], paid: &[Payment], succeeded: bool) {
        let s = self.state;
        let mut faces = rolled_faces(&s.pending).into_iter();
        let mut rested: BTreeSet<String> = BTreeSet::new();
        let mut discarded: Vec<String> = Vec::new();
        let mut failed = None;
        for (i, p) in paid.iter().enumerate() {
            if failed.is_some() {
                // Paying on after a failed die is reported once, below, as FATE-COST-3.
                break;
            }
            let Some(cost) = costs.get(i) else {
                self.violation(
                    "FATE-COST-5",
                    format!("the effect has {} costs; payment {} is extra", costs.len(), i + 1),
                );
                break;
            };
            match (cost, p) {
                (Cost::Tap, Payment::Tapped) => {
                    let resting =
                        s.master(seat).and_then(|m| m.field_pose(card)).is_some_and(|(x, _)| x == Pose::Resting);
                    if resting || !rested.insert(card.to_string()) {
                        self.violation("FATE-COST-1", format!("{card} is already resting and cannot pay T"));
                    }
                }
                (Cost::Rest(n), Payment::Rested(cards)) => self.rest_cost(seat, *n, cards, &mut rested),
                (Cost::Die(want), Payment::Rolled) => {
                    if let Some(face) = faces.next() {
                        if !u8::try_from(face).is_ok_and(|f| want.contains(&f)) {
                            failed = Some((i, face));
                        }
                    }
                }
                (Cost::Discard(n), Payment::Discarded(cards)) => {
                    if cards.len() != usize::from(*n) {
                        self.violation("FATE-COST-4", format!("E{n} discards {n} cards, not {}", cards.len()));
                    }
                    discarded.extend(cards.iter().cloned());
                }
                (Cost::X, Payment::XPaid(_)) => {}
                (cost, _) => {
                    self.violation("FATE-COST-5", format!("cost {} is {}: paid out of order", i + 1, cost.label()));
                }
            }
        }
        self.each_in(seat, Zone::Hand, &discarded, "FATE-COST-4");
        match failed {
            Some((i, face)) if succeeded || paid.len() > i + 1 => {
                let want = costs.get(i).map_or(String::new(), Cost::label);
                self.violation(
                    "FATE-COST-3",
                    format!("the die showed {face}, not a face of {want}: the cost was not paid"),
                );
            }
            Some(_) => {}
            None if paid.len() < costs.len() => {
                let (n, of) = (paid.len(), costs.len());
                self.violation("FATE-COST-5", format!("{n} of {of} costs paid: every cost is paid, left to right"));
            }
            None if !succeeded => self.violation("FATE-COST-5", "every cost was paid, so the effect works"),
            None => {}
        }
    }

    /// R(n): `n` standing, face-up cards the `rest_cost` policy lets `seat` rest (FATE-COST-2, FATE-OPEN-4).
    fn rest_cost(&mut self, seat: Seat, n: u8, cards: &[String], rested: &mut BTreeSet<String>) {
        let s = self.state;
        if cards.len() != usize::from(n) {
            self.violation("FATE-COST-2", format!("R{n} rests {n} cards, not {}", cards.len()));
        }
        for c in cards {
            let owner = s.masters.enumerate().find(|(_, m)| m.field_pose(c).is_some());
            let pose = owner.and_then(|(_, m)| m.field_pose(c));
            let owner = owner.map(|(x, _)| x);
            if owner.is_none() || (s.policies.rest_cost == RestCost::Own && owner != Some(seat)) {
                self.violation("FATE-COST-2", format!("{c} is not a card R{n} may rest (rest_cost policy)"));
            } else if pose.is_some_and(|(p, down)| p != Pose::Standing || down) || !rested.insert(c.clone()) {
                self.violation("FATE-COST-2", format!("{c} is already resting"));
            }
        }
    }
}
