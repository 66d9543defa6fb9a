//! `validate`: every rule a FATE event breaks, with its digest rule ID (§5). Pure; no IO.
//!
//! The recorder's own checks use `KIFU-*` IDs: an unknown seat (`KIFU-SEAT-1`), a seal that does
//! not open (`KIFU-SEAL-1`), an escape hatch naming nothing in play (`KIFU-CARD-1`), and the
//! digital dice chains and every roll and pick (the shared checks of [`crate::game::common`]), and
//! a roll or pick left unused (`KIFU-DIE-4`).

use std::collections::BTreeSet;

use super::catalog::{CardType, Cost, EffectKind};
use super::config::{DiceMode, FirstMaster, HandPick, RestCost};
use super::events::{
    AttackType, CardRef, CommonEvent, FateEvent, Payment, Process, SpellUse, Step, Unveiled, DICE_CHAIN,
};
use super::state::{FateState, Held, Pose};
use crate::game::{Seat, Violation};

fn v(rule: &'static str, message: impl Into<String>) -> Violation {
    Violation::new(rule, message)
}

/// Every rule `event` breaks in `s`.
pub fn validate(s: &FateState, event: &FateEvent) -> Vec<Violation> {
    use FateEvent::*;
    let mut out = Vec::new();
    for seat in seats_named(event) {
        if s.master(seat).is_none() {
            out.push(v(
                "KIFU-SEAT-1",
                format!("seat {seat} does not exist (the game has {} Masters)", s.masters.len()),
            ));
        }
    }
    if !out.is_empty() {
        return out;
    }
    if s.result.is_some() {
        out.push(v("FATE-WIN-1", "the game is over"));
        return out;
    }
    if let CommandSpellUsed { seat, .. } = event {
        if s.masters[usize::from(*seat)].command_spells == 0 {
            out.push(v("FATE-CS-1", "a fourth Command Spell: every Master has three, and all three are spent"));
            return out;
        }
    }
    if let Some(seat) = event.seat() {
        if !s.is_living(seat) {
            out.push(v("FATE-WIN-1", format!("{} was defeated and takes no further part", s.name(seat))));
            return out;
        }
    }
    uses_pending(s, event, &mut out);
    match event {
        ServantSet { seat, heroic_spirit, class } => servant_set(s, *seat, heroic_spirit, class, &mut out),
        CardsDealt { seat, cards } => {
            setup_only(s, &mut out);
            let m = &s.masters[usize::from(*seat)];
            if m.dealt {
                out.push(v("FATE-OPEN-1", format!("{} was already dealt an opening hand", s.name(*seat))));
            }
            let want = usize::from(s.policies.opening_hand).min(m.deck_count);
            if cards.len() != want {
                out.push(v(
                    "FATE-OPEN-1",
                    format!("the opening hand is {want} cards (opening_hand policy), not {}", cards.len()),
                ));
            }
            from_deck(s, *seat, cards, &mut out);
        }
        FirstActiveMasterChosen { seat } => {
            setup_only(s, &mut out);
            if s.active_master.is_some() {
                out.push(v("FATE-PHASE-1", "the first Active Master was already chosen"));
            }
            if let Some(m) =
                s.seats().find(|x| s.masters[usize::from(*x)].servant.is_none() || !s.masters[usize::from(*x)].dealt)
            {
                out.push(v(
                    "FATE-PHASE-1",
                    format!("the deal is not complete: {} has no Servant or hand yet", s.name(m)),
                ));
            }
            if s.policies.first_master == FirstMaster::FirstSeat && *seat != 0 {
                out.push(v("FATE-OPEN-7", "the first_master policy is first-seat: the first Active Master is seat 0"));
            }
            if s.policies.dice == DiceMode::Digital {
                if let Some(x) = s.seats().find(|x| !s.ledger.chain_is_committed(DICE_CHAIN, *x)) {
                    out.push(v("KIFU-SEED-4", format!("{} has not committed a dice chain", s.name(x))));
                }
            }
        }
        ActiveMasterHandedOver { from, to } => {
            between_turns(s, &mut out);
            if !s.handover_due() {
                out.push(v("FATE-PHASE-3", "no handover is due: play has not come back to the Active Master"));
            }
            if s.active_master != Some(*from) {
                out.push(v("FATE-PHASE-3", format!("{} is not the Active Master", s.name(*from))));
            }
            if s.active_master.map(|am| s.next_living(am)) != Some(*to) {
                out.push(v("FATE-PHASE-4", format!("the status passes to the next Master, not {}", s.name(*to))));
            }
        }
        TurnStarted { seat } => {
            between_turns(s, &mut out);
            if s.active_master.is_none() {
                out.push(v("FATE-PHASE-1", "no Active Master has been chosen yet"));
            } else if s.handover_due() {
                out.push(v(
                    "FATE-PHASE-3",
                    "play came back to the Active Master: the status must be handed over first",
                ));
            } else if s.expected_next() != Some(*seat) {
                let want = s.expected_next().map_or("nobody".into(), |x| s.name(x));
                out.push(v(
                    "FATE-PHASE-5",
                    format!("out of order: under reading {:?} the next turn is {want}'s", s.policies.turn_order),
                ));
            }
        }
        CardsStood { seat } => in_step(s, *seat, Step::Stand, "FATE-TURN-1", &mut out),
        CardDrawn { seat, card } => {
            in_step(s, *seat, Step::Draw, "FATE-TURN-2", &mut out);
            let count = s.masters[usize::from(*seat)].deck_count;
            match card {
                None if count > 0 => out.push(v("FATE-TURN-2", format!("the deck has {count} cards: draw one"))),
                None => {}
                Some(c) => from_deck(s, *seat, std::slice::from_ref(c), &mut out),
            }
        }
        SecretSignPlaced { seat, card } => {
            in_step(s, *seat, Step::Ritual, "FATE-TURN-3", &mut out);
            if s.flags.sign_placed {
                out.push(v("FATE-TURN-3", "a Secret Sign was already placed this turn (one per turn)"));
            } else if s.flags.servant_revealed && !s.policies.ritual_both {
                out.push(v("FATE-OPEN-9", "the ritual policy is one: the Servant was already revealed this turn"));
            }
            if !s.masters[usize::from(*seat)].hand_has(card) {
                out.push(v("FATE-TURN-3", format!("{card} is not in {}'s hand", s.name(*seat))));
            }
            if s.kind(card) != Some(CardType::SecretSign) {
                out.push(v("FATE-TURN-3", format!("{card} is not a Secret Sign card")));
            }
        }
        ServantRevealed { seat, cards, drawn } => {
            in_step(s, *seat, Step::Ritual, "FATE-TURN-3", &mut out);
            if s.flags.sign_placed && !s.policies.ritual_both {
                out.push(v("FATE-OPEN-9", "the ritual policy is one: a Secret Sign was already placed this turn"));
            }
            let m = &s.masters[usize::from(*seat)];
            match &m.servant {
                Some(sv) if sv.face_down => unveil(s, *seat, cards, &mut out),
                _ => out.push(v("FATE-TURN-3", "the Servant is not face down, so there is nothing to reveal")),
            }
            let want = 2.min(m.deck_count);
            if drawn.len() != want {
                out.push(v(
                    "FATE-TURN-3",
                    format!("a Servant reveal draws 2 cards ({want} available), not {}", drawn.len()),
                ));
            }
            from_deck(s, *seat, drawn, &mut out);
        }
        RitualStepEnded { seat } => in_step(s, *seat, Step::Ritual, "FATE-TURN-4", &mut out),
        EncounterRolled { seat, roll } => {
            in_step(s, *seat, Step::Encounter, "FATE-TURN-5", &mut out);
            if s.encounter_pending {
                out.push(v("FATE-TURN-5", "the encounter die was already rolled"));
            }
            die(*roll, "FATE-TURN-5", &mut out);
        }
        RandomServantSelected { seat, target } => {
            in_step(s, *seat, Step::Encounter, "FATE-TURN-5", &mut out);
            if !s.encounter_pending {
                out.push(v("FATE-TURN-5", "no encounter roll of 1 is waiting for a random Servant"));
            }
            target_ok(s, *seat, *target, "FATE-OPEN-10", &mut out);
        }
        AssaultDeclared { seat, target } => {
            if s.turn_master == Some(*seat) && s.flags.ritual_used() && matches!(s.step, Step::Ritual | Step::Encounter)
            {
                out.push(v(
                    "FATE-TURN-5",
                    "the ritual step was used this turn: no voluntary assault, only the encounter roll",
                ));
            } else {
                in_step(s, *seat, Step::Declare, "FATE-TURN-4", &mut out);
            }
            match s.masters[usize::from(*seat)].servant.as_ref() {
                None => out.push(v("FATE-TURN-6", "the Master has no Servant")),
                Some(sv) if sv.face_down => out.push(v("FATE-STATE-4", "a face-down Servant cannot attack")),
                Some(sv) if sv.pose == Pose::Resting => {
                    out.push(v("FATE-STATE-2", "a Resting Servant cannot attack on its own, only respond"))
                }
                Some(sv) if sv.pose == Pose::Danger => {
                    out.push(v("FATE-STATE-3", "a Servant in Danger cannot attack on its own, only respond"))
                }
                Some(_) => {}
            }
            target_ok(s, *seat, *target, "FATE-TURN-6", &mut out);
        }
        BattleStepSkipped { seat } => in_step(s, *seat, Step::Declare, "FATE-TURN-4", &mut out),
        BattleServantsRevealed { servants } => {
            let Some(b) = in_process(s, Process::Reveal, "FATE-BATTLE-1", &mut out) else { return out };
            let mut named = BTreeSet::new();
            for sv in servants {
                if sv.seat != b.attacker && sv.seat != b.responder {
                    out.push(v("FATE-BATTLE-1", format!("{} is not in this battle", s.name(sv.seat))));
                    continue;
                }
                named.insert(sv.seat);
                match s.master(sv.seat).and_then(|m| m.servant.as_ref()) {
                    Some(x) if x.face_down => unveil(s, sv.seat, &sv.cards, &mut out),
                    _ => out.push(v("FATE-BATTLE-1", format!("{}'s Servant is not face down", s.name(sv.seat)))),
                }
            }
            for seat in [b.attacker, b.responder] {
                let down = s.master(seat).and_then(|m| m.servant.as_ref()).is_some_and(|x| x.face_down);
                if down && !named.contains(&seat) {
                    out.push(v(
                        "FATE-BATTLE-1",
                        format!("{}'s face-down Servant must be turned face up", s.name(seat)),
                    ));
                }
            }
        }
        BattleProcessEnded => {
            in_process(s, Process::Battle, "FATE-BATTLE-2", &mut out);
        }
        AttackTypeChosen { seat, .. } => {
            let Some(b) = s.battle.as_ref().filter(|_| s.step == Step::Battle) else {
                out.push(v("FATE-BATTLE-3", "no battle is under way"));
                return out;
            };
            match b.process {
                Process::Attack if *seat == b.attacker => {}
                Process::Attack => out.push(v("FATE-BATTLE-3", "the attacking side chooses its attack type first")),
                Process::Response if *seat == b.responder => {}
                Process::Response => out.push(v("FATE-BATTLE-5", "only the responding side chooses now")),
                Process::Wounding if *seat == b.responder && s.response_denied(b) => out.push(v(
                    "FATE-BATTLE-7",
                    "the attacker has [Preemptive Strike] and the responder does not: there is no response",
                )),
                p => out.push(v(
                    "FATE-BATTLE-3",
                    format!("attack types are chosen in the attack and response processes, not {}", p.name()),
                )),
            }
        }
        DamageDealt { to_attacker, to_responder } => {
            let Some(b) = in_process(s, Process::Wounding, "FATE-BATTLE-8", &mut out) else { return out };
            let (want_a, want_r) = s.expected_damage(b);
            if *to_responder != want_r {
                out.push(v(
                    "FATE-BATTLE-4",
                    format!("the attacker deals {want_r} (attack − defense, a tie deals 1), not {to_responder}"),
                ));
            }
            if *to_attacker != want_a {
                let rule = if s.response_denied(b) { "FATE-BATTLE-7" } else { "FATE-BATTLE-6" };
                out.push(v(
                    rule,
                    format!("the responder deals {want_a} (attack − defense, a tie deals 0), not {to_attacker}"),
                ));
            }
        }
        CardTakenFromHand { winner, loser, index, card } => {
            let Some(b) = in_process(s, Process::Retreat, "FATE-BATTLE-9", &mut out) else { return out };
            match s.hand_take(b) {
                _ if b.card_taken => out.push(v("FATE-BATTLE-9", "the winner already took a card")),
                Some((w, l)) if (w, l) == (*winner, *loser) => {
                    let hand = &s.masters[usize::from(*loser)].hand;
                    match hand.get(usize::from(*index)) {
                        None => out.push(v(
                            "FATE-BATTLE-9",
                            format!("the loser's hand has {} cards; no card {index}", hand.len()),
                        )),
                        Some(Held::Known(c)) if matches!(card, CardRef::Open(x) if x != c) => out.push(v(
                            "FATE-BATTLE-9",
                            format!("card {index} of the loser's hand is not the card named"),
                        )),
                        Some(_) => {}
                    }
                }
                Some((w, _)) => {
                    out.push(v("FATE-BATTLE-9", format!("the winner is {}, who takes from the loser", s.name(w))))
                }
                None => out
                    .push(v("FATE-BATTLE-9", "only when exactly one Servant was wounded does the winner take a card")),
            }
        }
        BattleEnded => {
            let Some(b) = in_process(s, Process::Retreat, "FATE-BATTLE-9", &mut out) else { return out };
            if let Some((_, l)) = s.hand_take(b) {
                if !b.card_taken && !s.masters[usize::from(l)].hand.is_empty() {
                    out.push(v("FATE-BATTLE-9", "the winner has not yet taken a card from the loser's hand"));
                }
            }
        }
        HandDiscarded { seat, cards } => {
            in_step(s, *seat, Step::End, "FATE-HAND-1", &mut out);
            let m = &s.masters[usize::from(*seat)];
            if m.hand.len() < 5 {
                out.push(v(
                    "FATE-HAND-1",
                    format!("a hand of {} is under the limit; nothing is discarded", m.hand.len()),
                ));
            } else if m.hand.len() - cards.len().min(m.hand.len()) != 4 {
                out.push(v(
                    "FATE-HAND-1",
                    format!("a hand of {} is discarded down to 4, not by {}", m.hand.len(), cards.len()),
                ));
            }
            in_hand(s, *seat, cards, "FATE-HAND-1", &mut out);
        }
        TurnEnded { seat } => {
            in_step(s, *seat, Step::End, "FATE-TURN-7", &mut out);
            let n = s.masters[usize::from(*seat)].hand.len();
            if n >= 5 {
                out.push(v("FATE-HAND-1", format!("the hand has {n} cards: discard down to 4 first")));
            }
        }
        EffectActivated { seat, card, effect, paid, succeeded } => {
            activation(s, *seat, card, *effect, &mut out);
            if s.activated.contains(seat) {
                out.push(v(
                    "FATE-EFF-3",
                    format!("{} already activated a card in this process or step", s.name(*seat)),
                ));
            }
            let costs =
                s.def(card).and_then(|d| d.effects.get(usize::from(*effect))).map(|e| e.costs()).unwrap_or_default();
            check_payments(s, *seat, card, &costs, paid, *succeeded, &mut out);
        }
        CommandSpellUsed { seat, spell } => {
            let m = &s.masters[usize::from(*seat)];
            let servant = m.servant.as_ref();
            match spell {
                SpellUse::PranaRestored | SpellUse::StatRaised(_) => {
                    if servant.is_none() {
                        out.push(v("FATE-CS-3", "the Master has no Servant"));
                    }
                }
                SpellUse::MarkRemoved(mark) => {
                    if !m.marks.contains(mark) {
                        out.push(v("FATE-CS-3", format!("the Master has no special mark {mark:?}")));
                    }
                }
                SpellUse::EffectUsedFree { card, effect } => {
                    if !servant.is_some_and(|x| x.holds(card) && !x.face_down) {
                        out.push(v("FATE-CS-3", format!("{card} is not a face-up card of the Master's Servant")));
                    }
                    match s.def(card).and_then(|d| d.effects.get(usize::from(*effect))) {
                        None => out.push(v("FATE-CS-3", format!("{card} has no effect {effect}"))),
                        Some(e) if e.costs().contains(&Cost::X) => {
                            out.push(v("FATE-CS-3", "option 4 is not allowed on a cost marked X"))
                        }
                        Some(e) if e.kind == EffectKind::Constant => {
                            out.push(v("FATE-EFF-1", "a [Constant] effect always applies; it is not used"))
                        }
                        Some(_) => {}
                    }
                }
                SpellUse::ServantStood => {
                    if !servant.is_some_and(|x| !x.face_down && matches!(x.pose, Pose::Resting | Pose::Danger)) {
                        out.push(v("FATE-CS-3", "option 5 stands a Servant that is Resting or in Danger"));
                    }
                }
            }
        }
        CardStateChanged { card, .. } => {
            if !s.masters.iter().any(|m| m.field_pose(card).is_some()) {
                out.push(v("KIFU-CARD-1", format!("{card} is not on any field")));
            }
        }
        PranaChanged { .. } | StatModified { .. } | SpecialMarkPlaced { .. } | CommandSpellLost { .. } => {}
        EffectResolved { .. } => {}
        Common(c) => common(s, c, &mut out),
        CardRevealed { seat, commitment, card, salt } => {
            out.extend(s.ledger.check_reveal(commitment, card, salt));
            if !s.masters[usize::from(*seat)].hand.contains(&Held::Sealed(*commitment)) {
                out.push(v("KIFU-SEAL-1", format!("{}'s hand holds no card sealed as {commitment}", s.name(*seat))));
            }
        }
    }
    out
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
        _ => {}
    }
    out
}

/// The shared checks of a common event, and FATE's: chains are committed at the deal, and a
/// digital game draws every roll and pick from its dice chain.
fn common(s: &FateState, c: &CommonEvent, out: &mut Vec<Violation>) {
    let living = s.living();
    let cx = crate::game::common::Context {
        ledger: &s.ledger,
        seats: s.masters.len(),
        mode: s.policies.dice.random_mode(),
        contributors: &living,
    };
    out.extend(crate::game::common::validate(&cx, c));
    match c {
        CommonEvent::ChainCommitted { key, .. } | CommonEvent::ChainLinkRevealed { key, .. } if key != DICE_CHAIN => {
            out.push(v("KIFU-SEED-4", format!("FATE's dice chain is {DICE_CHAIN:?}, not {key:?}")))
        }
        CommonEvent::ChainCommitted { .. } => setup_only(s, out),
        CommonEvent::DieRolled { seed: Some(key), .. } | CommonEvent::RandomPicked { seed: Some(key), .. }
            if !key.starts_with(&format!("{DICE_CHAIN}/")) =>
        {
            out.push(v("KIFU-CHAIN-1", format!("a digital FATE game draws from its dice chain, not seed {key:?}")))
        }
        _ => {}
    }
}

/// What an event does with the rolls and picks recorded before it: the draws it needs, checked
/// against [`FateState::pending`] in order (`None`: it needs none, so none may be waiting).
enum Needs {
    /// A d6 showing this face.
    Die(u32),
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
        EncounterRolled { roll, .. } => (vec![Needs::Die(u32::from(*roll))], "FATE-TURN-5"),
        RandomServantSelected { seat, target } => {
            let candidates = servant_candidates(s, *seat);
            let picked = candidates.iter().position(|x| x == target).unwrap_or(candidates.len());
            (vec![Needs::Pick(seat_labels(&candidates), u32::try_from(picked).unwrap_or(u32::MAX))], "FATE-OPEN-10")
        }
        CardTakenFromHand { loser, index, .. } if s.policies.hand_pick == HandPick::Blind => {
            let n = s.master(*loser).map_or(0, |m| m.hand.len());
            (vec![Needs::Pick(position_labels(n), u32::from(*index))], "FATE-BATTLE-9")
        }
        EffectActivated { paid, .. } => (
            paid.iter()
                .filter_map(|p| if let Payment::Rolled(r) = p { Some(Needs::Die(u32::from(*r))) } else { None })
                .collect(),
            "FATE-COST-3",
        ),
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

/// The event uses exactly the rolls and picks waiting for it, in order: a missing one, a different
/// one, or one left over (`KIFU-DIE-4`) is a finding.
fn uses_pending(s: &FateState, event: &FateEvent, out: &mut Vec<Violation>) {
    let Some((want, rule)) = needs(s, event) else { return };
    if s.pending.len() > want.len() {
        out.push(v(
            "KIFU-DIE-4",
            format!("{} roll(s) or pick(s) were recorded but this event uses {}", s.pending.len(), want.len()),
        ));
    }
    for (i, need) in want.iter().enumerate() {
        match (need, s.pending.get(i)) {
            (_, None) => out.push(v(rule, "record the roll or pick first (a die roll or random pick event)")),
            (Needs::Die(face), Some(CommonEvent::DieRolled { sides: 6, value, .. })) => {
                if value != face {
                    out.push(v(rule, format!("the die showed {value}, not {face}")));
                }
            }
            (Needs::Pick(among, picked), Some(CommonEvent::RandomPicked { among: got, picked: p, .. })) => {
                if got != among {
                    out.push(v(rule, format!("the pick was among {got:?}, not {among:?}")));
                } else if p != picked {
                    let name = among.get(*p as usize).map_or("?", String::as_str);
                    out.push(v(rule, format!("the pick chose {name}")));
                }
            }
            (Needs::Die(_), Some(_)) => out.push(v(rule, "this needs a roll of a six-sided die")),
            (Needs::Pick(..), Some(_)) => out.push(v(rule, "this needs a random pick")),
        }
    }
}

/// The Masters whose Servant an encounter may pick (FATE-OPEN-10), in seat order.
pub fn servant_candidates(s: &FateState, roller: Seat) -> Vec<Seat> {
    s.living().into_iter().filter(|x| *x != roller && s.masters[usize::from(*x)].servant.is_some()).collect()
}

fn setup_only(s: &FateState, out: &mut Vec<Violation>) {
    if s.step != Step::Setup {
        out.push(v("FATE-OPEN-1", "the deal is over; this happens only at setup"));
    }
}

fn between_turns(s: &FateState, out: &mut Vec<Violation>) {
    if !matches!(s.step, Step::TurnOver | Step::Setup) {
        out.push(v(
            "FATE-TURN-7",
            format!(
                "{}'s turn has not ended (step {})",
                s.turn_master.map_or("?".into(), |t| s.name(t)),
                s.step.name()
            ),
        ));
    }
}

/// The event belongs to `step` of `seat`'s turn.
fn in_step(s: &FateState, seat: Seat, step: Step, rule: &'static str, out: &mut Vec<Violation>) {
    if s.turn_master != Some(seat) {
        out.push(v("FATE-PHASE-2", format!("it is not {}'s turn", s.name(seat))));
    } else if s.step != step {
        out.push(v(
            rule,
            format!("this belongs to the {} step; the turn is in the {} step", step.name(), s.step.name()),
        ));
    }
}

fn in_process<'a>(
    s: &'a FateState,
    process: Process,
    rule: &'static str,
    out: &mut Vec<Violation>,
) -> Option<&'a super::state::Battle> {
    match s.battle.as_ref().filter(|_| s.step == Step::Battle) {
        None => {
            out.push(v(rule, "no battle is under way"));
            None
        }
        Some(b) if b.process != process => {
            out.push(v(
                rule,
                format!("this is the {} process; the battle is in the {} process", process.name(), b.process.name()),
            ));
            None
        }
        Some(b) => Some(b),
    }
}

fn die(roll: u8, rule: &'static str, out: &mut Vec<Violation>) {
    if !(1..=6).contains(&roll) {
        out.push(v(rule, format!("a six-sided die cannot show {roll}")));
    }
}

fn target_ok(s: &FateState, seat: Seat, target: Seat, rule: &'static str, out: &mut Vec<Violation>) {
    if target == seat {
        out.push(v(rule, "a Master's Servant does not battle its own Master"));
    } else if !s.is_living(target) {
        out.push(v(rule, format!("{} is defeated", s.name(target))));
    } else if s.master(target).and_then(|m| m.servant.as_ref()).is_none() {
        out.push(v(rule, format!("{} has no Servant", s.name(target))));
    }
}

fn servant_set(s: &FateState, seat: Seat, hs: &CardRef, class: &CardRef, out: &mut Vec<Violation>) {
    setup_only(s, out);
    if s.masters[usize::from(seat)].servant.is_some() {
        out.push(v("FATE-OPEN-2", format!("{} already set a Servant", s.name(seat))));
    }
    for (r, want) in [(hs, CardType::HeroicSpirit), (class, CardType::Class)] {
        if let CardRef::Open(c) = r {
            if s.kind(c) != Some(want) {
                out.push(v("FATE-OPEN-2", format!("{c} is not a {want:?} card")));
            }
        }
    }
    from_deck(s, seat, &[hs.clone(), class.clone()], out);
}

/// Cards named as leaving `seat`'s deck must be in it, and no more than it holds.
fn from_deck(s: &FateState, seat: Seat, cards: &[CardRef], out: &mut Vec<Violation>) {
    let m = &s.masters[usize::from(seat)];
    if cards.len() > m.deck_count {
        out.push(v("FATE-TURN-2", format!("the deck holds {} cards, not {}", m.deck_count, cards.len())));
    }
    let mut seen = BTreeSet::new();
    for c in cards {
        if let CardRef::Open(c) = c {
            if !m.deck.contains(c) || !seen.insert(c.clone()) {
                out.push(v("FATE-TURN-2", format!("{c} is not in {}'s deck", s.name(seat))));
            }
        }
    }
}

fn in_hand(s: &FateState, seat: Seat, cards: &[String], rule: &'static str, out: &mut Vec<Violation>) {
    let m = &s.masters[usize::from(seat)];
    let mut seen = BTreeSet::new();
    for c in cards {
        if !m.hand_has(c) || !seen.insert(c) {
            out.push(v(rule, format!("{c} is not in {}'s hand", s.name(seat))));
        }
    }
}

/// Face-down Servant cards turned up must match what was set (and open their seals).
fn unveil(s: &FateState, seat: Seat, cards: &[Unveiled], out: &mut Vec<Violation>) {
    let Some(sv) = s.master(seat).and_then(|m| m.servant.as_ref()) else { return };
    let held = sv.cards();
    if cards.len() != held.len() {
        out.push(v("FATE-BATTLE-1", format!("a Servant has {} cards to turn up, not {}", held.len(), cards.len())));
        return;
    }
    for (h, u) in held.iter().zip(cards) {
        match (h, &u.salt) {
            (Held::Known(c), _) if *c != u.card => {
                out.push(v("KIFU-SEAL-1", format!("the face-down card is {c}, not {}", u.card)))
            }
            (Held::Known(_), _) => {}
            (Held::Sealed(commit), Some(salt)) => out.extend(s.ledger.check_reveal(commit, &u.card, salt)),
            (Held::Sealed(_), None) => out.push(v("KIFU-SEAL-1", format!("{} was set sealed: give its salt", u.card))),
        }
    }
}

/// Whether `seat` may activate effect `effect` of `card` (FATE-STATE-5, FATE-EFF-1/2, FATE-COST-6).
fn activation(s: &FateState, seat: Seat, card: &str, effect: u8, out: &mut Vec<Violation>) {
    let m = &s.masters[usize::from(seat)];
    let Some((pose, face_down)) = m.field_pose(card) else {
        out.push(v("FATE-EFF-1", format!("{card} is not on {}'s field", s.name(seat))));
        return;
    };
    let Some(e) = s.def(card).and_then(|d| d.effects.get(usize::from(effect))) else {
        out.push(v("FATE-EFF-1", format!("{card} has no effect {effect}")));
        return;
    };
    if e.kind == EffectKind::Constant {
        out.push(v("FATE-EFF-1", "a [Constant] effect always applies; it is not activated"));
    }
    let sign = s.kind(card) == Some(CardType::SecretSign);
    if face_down {
        out.push(v("FATE-STATE-4", "a face-down card cannot use any of its properties"));
    } else if !sign && pose == Pose::Danger {
        out.push(v("FATE-EFF-2", "a Servant in Danger cannot use its [Activated] effects"));
    } else if sign && pose != Pose::Standing {
        out.push(v("FATE-EFF-2", "a Resting Secret Sign cannot use a non-[Constant] effect"));
    }
    if e.costs().contains(&Cost::X) && !s.policies.x_cost_allowed {
        out.push(v("FATE-COST-6", "the x_cost policy is forbid: an X cost cannot be paid"));
    }
}

/// The costs paid left to right (FATE-COST-1..5): each payment matches its symbol, and a failed
/// D ends the payment and the effect.
#[allow(clippy::too_many_arguments)]
fn check_payments(
    s: &FateState,
    seat: Seat,
    card: &str,
    costs: &[Cost],
    paid: &[Payment],
    succeeded: bool,
    out: &mut Vec<Violation>,
) {
    let m = &s.masters[usize::from(seat)];
    let mut rested: BTreeSet<String> = BTreeSet::new();
    let mut discarded: BTreeSet<String> = BTreeSet::new();
    let mut failed_at = None;
    for (i, p) in paid.iter().enumerate() {
        if failed_at.is_some() {
            // Paying on after a failed die is reported once, below, as FATE-COST-3.
            break;
        }
        let Some(cost) = costs.get(i) else {
            out.push(v("FATE-COST-5", format!("the effect has {} costs; payment {} is extra", costs.len(), i + 1)));
            break;
        };
        match (cost, p) {
            (Cost::Tap, Payment::Tapped) => {
                if m.field_pose(card).is_some_and(|(pose, _)| pose == Pose::Resting) || !rested.insert(card.to_string())
                {
                    out.push(v("FATE-COST-1", format!("{card} is already resting and cannot pay T")));
                }
            }
            (Cost::Rest(n), Payment::Rested(cards)) => {
                if cards.len() != usize::from(*n) {
                    out.push(v("FATE-COST-2", format!("R{n} rests {n} cards, not {}", cards.len())));
                }
                for c in cards {
                    let owner = s.seats().find(|x| s.masters[usize::from(*x)].field_pose(c).is_some());
                    let pose = owner.and_then(|o| s.masters[usize::from(o)].field_pose(c));
                    if owner.is_none() || (s.policies.rest_cost == RestCost::Own && owner != Some(seat)) {
                        out.push(v("FATE-COST-2", format!("{c} is not a card R{n} may rest (rest_cost policy)")));
                    } else if pose.is_some_and(|(p, down)| p != Pose::Standing || down) || !rested.insert(c.clone()) {
                        out.push(v("FATE-COST-2", format!("{c} is already resting")));
                    }
                }
            }
            (Cost::Die(faces), Payment::Rolled(roll)) => {
                die(*roll, "FATE-COST-3", out);
                if !faces.contains(roll) {
                    failed_at = Some(i);
                }
            }
            (Cost::Discard(n), Payment::Discarded(cards)) => {
                if cards.len() != usize::from(*n) {
                    out.push(v("FATE-COST-4", format!("E{n} discards {n} cards, not {}", cards.len())));
                }
                for c in cards {
                    if !m.hand_has(c) || !discarded.insert(c.clone()) {
                        out.push(v("FATE-COST-4", format!("{c} is not in {}'s hand", s.name(seat))));
                    }
                }
            }
            (Cost::X, Payment::XPaid(_)) => {}
            (cost, _) => {
                out.push(v("FATE-COST-5", format!("cost {} is {}: paid out of order", i + 1, cost.label())));
            }
        }
    }
    match failed_at {
        Some(i) if succeeded || paid.len() > i + 1 => {
            let Some(Payment::Rolled(r)) = paid.get(i) else { return };
            let face = costs.get(i).map_or(String::new(), Cost::label);
            out.push(v("FATE-COST-3", format!("the die showed {r}, not a face of {face}: the cost was not paid")));
        }
        Some(_) => {}
        None if paid.len() < costs.len() => {
            out.push(v(
                "FATE-COST-5",
                format!("{} of {} costs paid: every cost is paid, left to right", paid.len(), costs.len()),
            ));
        }
        None if !succeeded => out.push(v("FATE-COST-5", "every cost was paid, so the effect works")),
        None => {}
    }
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
