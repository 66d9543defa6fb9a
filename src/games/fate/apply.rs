//! Folding events into state: total, never panics, holds no rule checks.
//!
//! A judge may force an illegal event into the log, so every branch does what it can: an unknown
//! seat changes nothing, a card that is not where the event says is looked for wherever it is.
//! Up to rules version 3 the consequences the digest states as automatic are folded inside the
//! event that causes them: the Danger→Resting turn of the new Active Master's Servant
//! (FATE-PHASE-3), the wounding's prana loss (FATE-BATTLE-8), the wounded Servant resting
//! (FATE-BATTLE-9), prana at 0 under the `prana_zero` policy (FATE-OPEN-13), defeat on the last
//! Command Spell (FATE-WIN-1) and a defeated Active Master's status moving on (FATE-PHASE-4).
//! From version 4 each is an event of its own, which the fold only marks as owed
//! ([`super::state::Owed`]) so that a table that forgot one can be recorded and cited.

use super::catalog::Cost;
use super::config::{PranaZero, TurnOrder};
use super::events::{
    AttackType, CardRef, CardState, CommonEvent, FateEvent, Payment, PranaChange, PranaLoss, Process, ServantUnveiled,
    SpellUse, Step, Unveiled,
};
use super::rules_version::Rules;
use super::state::{held_ref, rolled_faces, Battle, FateState, Held, Pose, Servant, Sign, TurnFlags};
use crate::game::commit::Commitment;
use crate::game::{Outcome, Seat};

/// Applies one event under rules version 1 (versions 1 to 3 fold alike).
pub fn apply(s: FateState, event: &FateEvent) -> FateState {
    apply_as(s, event, Rules::FIRST)
}

/// Applies one event under `rules`: from version 4 the steps without a choice are events
/// of their own, and the events that make them due only mark them owed.
pub fn apply_as(mut s: FateState, event: &FateEvent, rules: Rules) -> FateState {
    use FateEvent::*;
    let folds = !rules.owed_steps;
    if !folds {
        // A step the table left out is owed no more once the game moved on past it.
        for due in s.left_out(event) {
            s.settle(&due);
        }
    }
    if let Common(c) = event {
        crate::game::common::record(&mut s.ledger, c);
        if matches!(c, CommonEvent::DieRolled { .. } | CommonEvent::RandomPicked { .. }) {
            s.pending.push(c.clone());
        }
        return s;
    }
    // Every other event uses the rolls and picks recorded for it (validate checks which).
    let used = std::mem::take(&mut s.pending);
    match event {
        ServantSet { seat, heroic_spirit, class } => servant_set(&mut s, seat, heroic_spirit, class),
        CardsDealt { seat, cards } => cards_dealt(&mut s, seat, cards),
        FirstActiveMasterChosen { seat } => first_active_master_chosen(&mut s, seat),
        ActiveMasterHandedOver { to, .. } => hand_over(&mut s, *to, folds),
        TurnStarted { seat } => turn_started(&mut s, seat),
        CardsStood { seat } => cards_stood(&mut s, seat),
        CardDrawn { seat, card } => card_drawn(&mut s, seat, card),
        SecretSignPlaced { seat, card } => secret_sign_placed(&mut s, seat, card),
        ServantRevealed { seat, cards, drawn } => servant_revealed(&mut s, seat, cards, drawn),
        RitualStepEnded { .. } => ritual_step_ended(&mut s),
        EncounterRolled { .. } => encounter_rolled(&mut s, &used),
        RandomServantSelected { seat, target } | AssaultDeclared { seat, target } => {
            s.encounter_pending = false;
            start_battle(&mut s, *seat, *target);
        }
        BattleStepSkipped { .. } => to_step(&mut s, Step::End),
        BattleServantsRevealed { servants } => battle_servants_revealed(&mut s, servants),
        BattleProcessEnded => to_process(&mut s, Process::Attack),
        AttackTypeChosen { seat, attack } => attack_type_chosen(&mut s, seat, attack),
        DamageDealt { to_attacker, to_responder } => damage_dealt(&mut s, *to_attacker, *to_responder, folds),
        CardTakenFromHand { winner, loser, index, card } => card_taken_from_hand(&mut s, winner, loser, index, card),
        BattleEnded => {
            s.battle = None;
            to_step(&mut s, Step::End);
        }
        HandDiscarded { seat, cards } => hand_discarded(&mut s, seat, cards),
        TurnEnded { .. } => turn_ended(&mut s),
        EffectActivated { seat, card, effect, paid, succeeded } => {
            effect_activated(&mut s, seat, card, effect, paid, succeeded)
        }
        CommandSpellUsed { seat, spell } => command_spell_used(&mut s, seat, spell, folds),
        CardStateChanged { card, state, .. } => card_state_changed(&mut s, card, state),
        PranaChanged { seat, delta, .. } => change_prana(&mut s, *seat, *delta, folds),
        StatModified { seat, stat, delta, .. } => s.bonuses.push((*seat, *stat, *delta)),
        SpecialMarkPlaced { seat, mark, .. } => special_mark_placed(&mut s, seat, mark),
        EffectResolved { .. } => {}
        CommandSpellLost { seat, .. } => lose_spell(&mut s, *seat, folds),
        Common(_) => {}
        CardRevealed { seat, commitment, card, .. } => card_revealed(&mut s, seat, commitment, card),
        PranaChangedTogether { changes, .. } => prana_changed_together(&mut s, changes, folds),
        RestingCardsStood { seat, servant, signs } => resting_cards_stood(&mut s, *seat, *servant, signs),
        ServantLeftDanger { .. }
        | PranaLost { .. }
        | WoundedServantsRested { .. }
        | ServantsEndangered { .. }
        | MastersDefeated { .. }
        | ActiveStatusPassed { .. } => owed_step(&mut s, event),
    }
    s
}

/// Version 4's automatic steps: the step is owed no more ([`FateState::settle`]) and does what it
/// names.
fn owed_step(s: &mut FateState, step: &FateEvent) {
    use FateEvent::*;
    s.settle(step);
    match step {
        ServantLeftDanger { seat } => set_servant_pose(s, *seat, Pose::Resting),
        PranaLost { losses } => prana_lost(s, losses),
        WoundedServantsRested { seats } => seats.iter().for_each(|x| set_servant_pose(s, *x, Pose::Resting)),
        ServantsEndangered { seats } => seats.iter().for_each(|x| set_servant_pose(s, *x, Pose::Danger)),
        MastersDefeated { seats, reason } => {
            let (rule, why) = reason.rule();
            defeat(s, seats, &format!("{rule}: {why}"), false);
        }
        ActiveStatusPassed { to, .. } => {
            // As a defeat passed it up to version 3: the new Active Master's count starts afresh.
            s.am_turns = 0;
            s.phase_turns = 0;
            pass_status(s, *to, false);
        }
        _ => {}
    }
}

fn resting_cards_stood(s: &mut FateState, seat: Seat, servant: bool, signs: &[String]) {
    if let Some(m) = s.master_mut(seat) {
        if let Some(sv) = m.servant.as_mut().filter(|x| servant && x.pose == Pose::Resting) {
            sv.pose = Pose::Standing;
        }
        for sign in m.signs.iter_mut().filter(|x| x.pose == Pose::Resting && signs.contains(&x.card)) {
            sign.pose = Pose::Standing;
        }
    }
    to_step(s, Step::Draw);
}

fn set_servant_pose(s: &mut FateState, seat: Seat, pose: Pose) {
    if let Some(sv) = s.master_mut(seat).and_then(|m| m.servant.as_mut()) {
        sv.pose = pose;
    }
}

/// Version 4's wounding (FATE-BATTLE-8): every named side loses its prana at once, and the
/// battle goes to the retreat process. What 0 prana does is owed to a step of its own.
fn prana_lost(s: &mut FateState, losses: &[PranaLoss]) {
    let changes: Vec<PranaChange> = losses
        .iter()
        .map(|l| PranaChange { seat: l.seat, delta: -i32::try_from(l.amount).unwrap_or(i32::MAX) })
        .collect();
    prana_changed_together(s, &changes, false);
    to_process(s, Process::Retreat);
}

fn servant_set(s: &mut FateState, seat: &Seat, heroic_spirit: &CardRef, class: &CardRef) {
    sealed_from_deck(s, *seat, &[heroic_spirit.clone(), class.clone()]);
    if let Some(m) = s.master_mut(*seat) {
        let (hs, cl) = (held_ref(heroic_spirit), held_ref(class));
        m.take_from_deck(&hs);
        m.take_from_deck(&cl);
        m.servant = Some(Servant { heroic_spirit: hs, class: cl, face_down: true, pose: Pose::Standing });
    }
}

fn cards_dealt(s: &mut FateState, seat: &Seat, cards: &[CardRef]) {
    draw(s, *seat, cards);
    if let Some(m) = s.master_mut(*seat) {
        m.dealt = true;
    }
}

fn first_active_master_chosen(s: &mut FateState, seat: &Seat) {
    s.active_master = Some(*seat);
    s.phase = 1;
    s.step = Step::TurnOver;
}

fn turn_started(s: &mut FateState, seat: &Seat) {
    s.turn += 1;
    if s.active_master == Some(*seat) {
        s.am_turns += 1;
    }
    s.phase_turns += 1;
    s.turn_master = Some(*seat);
    s.flags = TurnFlags::default();
    s.encounter_pending = false;
    s.battle = None;
    to_step(s, Step::Stand);
}

fn cards_stood(s: &mut FateState, seat: &Seat) {
    if let Some(m) = s.master_mut(*seat) {
        if let Some(sv) = m.servant.as_mut().filter(|x| x.pose == Pose::Resting) {
            sv.pose = Pose::Standing;
        }
        for sign in m.signs.iter_mut().filter(|x| x.pose == Pose::Resting) {
            sign.pose = Pose::Standing;
        }
    }
    to_step(s, Step::Draw);
}

fn card_drawn(s: &mut FateState, seat: &Seat, card: &Option<CardRef>) {
    draw(s, *seat, card.as_slice());
    to_step(s, Step::Ritual);
}

fn secret_sign_placed(s: &mut FateState, seat: &Seat, card: &str) {
    if let Some(m) = s.master_mut(*seat) {
        take_hand(m, card);
        // A card lies in one place: a sign forced a second time does not copy it.
        if !m.signs.iter().any(|x| x.card == card) {
            m.signs.push(Sign { card: card.to_string(), pose: Pose::Standing });
        }
    }
    s.flags.sign_placed = true;
}

fn servant_revealed(s: &mut FateState, seat: &Seat, cards: &[Unveiled], drawn: &[CardRef]) {
    turn_up(s, *seat, cards);
    draw(s, *seat, drawn);
    s.flags.servant_revealed = true;
}

fn ritual_step_ended(s: &mut FateState) {
    let next = if s.flags.ritual_used() { Step::Encounter } else { Step::Declare };
    to_step(s, next);
}

fn encounter_rolled(s: &mut FateState, used: &[CommonEvent]) {
    // The face is the roll recorded for it; a forced roll with none recorded battles no one.
    if rolled_faces(used).first() == Some(&1) {
        s.encounter_pending = true;
    } else {
        to_step(s, Step::End);
    }
}

fn battle_servants_revealed(s: &mut FateState, servants: &[ServantUnveiled]) {
    for sv in servants {
        turn_up(s, sv.seat, &sv.cards);
    }
    to_process(s, Process::Battle);
}

fn attack_type_chosen(s: &mut FateState, seat: &Seat, attack: &AttackType) {
    let Some(b) = s.battle.clone() else { return };
    if *seat == b.attacker && b.attack.is_none() {
        let denied = s.response_denied(&b);
        if let Some(b) = s.battle.as_mut() {
            b.attack = Some(*attack);
        }
        to_process(s, if denied { Process::Wounding } else { Process::Response });
    } else {
        if let Some(b) = s.battle.as_mut() {
            b.response = Some(*attack);
        }
        to_process(s, Process::Wounding);
    }
}

/// The damage of the wounding process. Up to version 3 (`folds`) both sides' Servants rest and
/// lose prana here; from version 4 the loss and the rest are steps of their own, so the battle
/// stays in the wounding process while prana is owed.
fn damage_dealt(s: &mut FateState, to_attacker: u32, to_responder: u32, folds: bool) {
    let Some(b) = s.battle.clone() else { return };
    if let Some(x) = s.battle.as_mut() {
        x.damage = Some((to_attacker, to_responder));
    }
    if !folds {
        if to_attacker == 0 && to_responder == 0 {
            to_process(s, Process::Retreat);
        }
        return;
    }
    // Damage is simultaneous (FATE-BATTLE-10): both sides lose prana before either defeat counts.
    let mut fallen = Vec::new();
    for (seat, dmg) in [(b.attacker, to_attacker), (b.responder, to_responder)] {
        if dmg > 0 {
            set_servant_pose(s, seat, Pose::Resting);
            if lose_prana(s, seat, -i32::try_from(dmg).unwrap_or(i32::MAX), true) {
                fallen.push(seat);
            }
        }
    }
    defeat(s, &fallen, "FATE-OPEN-13: the Servant's prana reached 0", true);
    to_process(s, Process::Retreat);
}

fn card_taken_from_hand(s: &mut FateState, winner: &Seat, loser: &Seat, index: &u8, card: &CardRef) {
    let mut held = None;
    if let Some(m) = s.master_mut(*loser) {
        if usize::from(*index) < m.hand.len() {
            held = Some(m.hand.remove(usize::from(*index)));
        }
    }
    if let CardRef::Sealed(c) = card {
        s.ledger.card_sealed(*c);
        if let Some(Held::Known(known)) = held {
            s.taken_known.insert(*c, known);
        }
    }
    if let Some(m) = s.master_mut(*winner) {
        m.hand.push(held_ref(card));
    }
    if let Some(b) = s.battle.as_mut() {
        b.card_taken = true;
    }
}

fn hand_discarded(s: &mut FateState, seat: &Seat, cards: &[String]) {
    if let Some(m) = s.master_mut(*seat) {
        for c in cards {
            discard_from_hand(m, c);
        }
    }
}

fn turn_ended(s: &mut FateState) {
    s.bonuses.clear();
    to_step(s, Step::TurnOver);
}

fn effect_activated(s: &mut FateState, seat: &Seat, card: &str, effect: &u8, paid: &[Payment], succeeded: &bool) {
    let counts = *succeeded || s.policies.failed_roll_counts;
    if counts {
        s.activated.insert(*seat);
    }
    if *succeeded || !s.policies.failed_roll_refund {
        pay(s, *seat, card, paid);
    }
    let _ = effect;
}

fn command_spell_used(s: &mut FateState, seat: &Seat, spell: &SpellUse, folds: bool) {
    let seat = *seat;
    match spell {
        SpellUse::PranaRestored => change_prana(s, seat, 1, folds),
        SpellUse::StatRaised(stat) => {
            let n = s.sign_count(seat);
            s.bonuses.push((seat, *stat, n));
        }
        SpellUse::MarkRemoved(mark) => {
            if let Some(m) = s.master_mut(seat) {
                if let Some(i) = m.marks.iter().position(|x| x == mark) {
                    m.marks.remove(i);
                }
            }
        }
        SpellUse::EffectUsedFree { .. } => {}
        SpellUse::ServantStood => set_servant_pose(s, seat, Pose::Standing),
    }
    lose_spell(s, seat, folds);
}

fn card_state_changed(s: &mut FateState, card: &str, state: &CardState) {
    for m in &mut s.masters {
        if let Some(sv) = m.servant.as_mut().filter(|x| x.holds(card)) {
            match state {
                CardState::FaceDown => sv.face_down = true,
                other => {
                    sv.face_down = false;
                    sv.pose = pose_of(*other);
                }
            }
        }
        if let Some(sign) = m.signs.iter_mut().find(|x| x.card == card) {
            sign.pose = pose_of(*state);
        }
    }
}

fn special_mark_placed(s: &mut FateState, seat: &Seat, mark: &str) {
    if let Some(m) = s.master_mut(*seat) {
        m.marks.push(mark.to_string());
    }
}

fn card_revealed(s: &mut FateState, seat: &Seat, commitment: &Commitment, card: &str) {
    s.ledger.card_revealed(commitment, card);
    if let Some(m) = s.master_mut(*seat) {
        if let Some(h) = m.hand.iter_mut().find(|h| **h == Held::Sealed(*commitment)) {
            *h = Held::Known(card.to_string());
        }
    }
}

fn pose_of(state: CardState) -> Pose {
    match state {
        CardState::Resting => Pose::Resting,
        CardState::Danger => Pose::Danger,
        CardState::Standing | CardState::FaceDown => Pose::Standing,
    }
}

/// A new step or process: the one-activation allowance starts afresh (FATE-EFF-3).
fn to_step(s: &mut FateState, step: Step) {
    s.step = step;
    s.activated.clear();
}

fn to_process(s: &mut FateState, process: Process) {
    if let Some(b) = s.battle.as_mut() {
        b.process = process;
    }
    s.activated.clear();
}

fn start_battle(s: &mut FateState, attacker: Seat, responder: Seat) {
    s.battle = Some(Battle {
        attacker,
        responder,
        process: Process::Reveal,
        attack: None,
        response: None,
        damage: None,
        card_taken: false,
        wounded_rested: false,
    });
    to_step(s, Step::Battle);
    let face_down = |seat: Seat| s.master(seat).and_then(|m| m.servant.as_ref()).is_some_and(|x| x.face_down);
    if !face_down(attacker) && !face_down(responder) {
        // Nothing to reveal: the reveal process passes at once.
        to_process(s, Process::Battle);
    }
}

/// The ledger learns each sealed card of `cards`, and the state which deck it came from.
fn sealed_from_deck(s: &mut FateState, seat: Seat, cards: &[CardRef]) {
    for c in cards {
        if let CardRef::Sealed(x) = c {
            s.ledger.card_sealed(*x);
            s.sealed_from.insert(*x, seat);
        }
    }
}

fn draw(s: &mut FateState, seat: Seat, cards: &[CardRef]) {
    sealed_from_deck(s, seat, cards);
    if let Some(m) = s.master_mut(seat) {
        for c in cards {
            let h = held_ref(c);
            m.take_from_deck(&h);
            m.hand.push(h);
        }
    }
}

/// Moves `card` from the hand to the discard. One card, one place: a card already in the discard
/// (an unruled repeat of a payment, say) is not put there twice, so the fold stays total and sane.
fn discard_from_hand(m: &mut super::state::MasterState, card: &str) {
    take_hand(m, card);
    if !m.discard.iter().any(|d| d == card) {
        m.discard.push(card.to_string());
    }
}

fn take_hand(m: &mut super::state::MasterState, card: &str) {
    if let Some(i) = m.hand.iter().position(|h| h.known() == Some(card)) {
        m.hand.remove(i);
    }
}

fn turn_up(s: &mut FateState, seat: Seat, cards: &[super::events::Unveiled]) {
    let mut opened = Vec::new();
    if let Some(sv) = s.master_mut(seat).and_then(|m| m.servant.as_mut()) {
        sv.face_down = false;
        for (slot, u) in [&mut sv.heroic_spirit, &mut sv.class].into_iter().zip(cards) {
            if let Held::Sealed(c) = slot {
                opened.push((*c, u.card.clone()));
            }
            *slot = Held::Known(u.card.clone());
        }
    }
    for (c, card) in opened {
        s.ledger.card_revealed(&c, &card);
    }
}

/// The handover at the end of a phase (FATE-PHASE-3/4). Up to version 3 (`folds`) the new
/// Active Master's Servant leaves Danger here; from version 4 that is owed to a step of its own.
fn hand_over(s: &mut FateState, to: Seat, folds: bool) {
    s.am_turns = 0;
    s.phase += 1;
    if s.policies.turn_order == TurnOrder::R1 {
        s.phase_turns = 0;
    }
    pass_status(s, to, folds);
}

/// `to` receives the Active Master status: a Servant in Danger turns Resting (FATE-PHASE-3),
/// folded here up to version 3, owed from version 4.
fn pass_status(s: &mut FateState, to: Seat, folds: bool) {
    s.active_master = Some(to);
    if s.pose_of_servant(to) != Some(Pose::Danger) {
        return;
    }
    if folds {
        set_servant_pose(s, to, Pose::Resting);
    } else {
        s.owed.leaves_danger = Some(to);
    }
}

fn pay(s: &mut FateState, seat: Seat, card: &str, paid: &[Payment]) {
    for p in paid {
        match p {
            Payment::Tapped => rest(s, card),
            Payment::Rested(cards) => cards.iter().for_each(|c| rest(s, c)),
            Payment::Discarded(cards) => {
                if let Some(m) = s.master_mut(seat) {
                    for c in cards {
                        discard_from_hand(m, c);
                    }
                }
            }
            Payment::Rolled | Payment::XPaid(_) => {}
        }
    }
}

fn rest(s: &mut FateState, card: &str) {
    for m in &mut s.masters {
        if let Some(sv) = m.servant.as_mut().filter(|x| x.holds(card)) {
            sv.pose = Pose::Resting;
        }
        if let Some(sign) = m.signs.iter_mut().find(|x| x.card == card) {
            sign.pose = Pose::Resting;
        }
    }
}

/// Every change at once: the Masters whose prana reaching 0 defeats them fall together.
fn prana_changed_together(s: &mut FateState, changes: &[PranaChange], folds: bool) {
    let mut fallen = Vec::new();
    for c in changes {
        if lose_prana(s, c.seat, c.delta, folds) && !fallen.contains(&c.seat) {
            fallen.push(c.seat);
        }
    }
    defeat(s, &fallen, "FATE-OPEN-13: the Servants' prana reached 0 at once", folds);
}

fn change_prana(s: &mut FateState, seat: Seat, delta: i32, folds: bool) {
    if lose_prana(s, seat, delta, folds) {
        defeat(s, &[seat], "FATE-OPEN-13: the Servant's prana reached 0", folds);
    }
}

/// Changes a Master's prana and says whether reaching 0 defeats it. At 0, up to version 3
/// (`folds`) the `prana_zero` policy acts here; from version 4 what it does is owed to a step of
/// its own (only when it would change something).
fn lose_prana(s: &mut FateState, seat: Seat, delta: i32, folds: bool) -> bool {
    let zero = s.policies.prana_zero;
    let Some(m) = s.master_mut(seat) else { return false };
    m.prana = (m.prana.saturating_add(delta)).max(0);
    if m.prana > 0 || m.defeated {
        return false;
    }
    let in_danger = m.servant.as_ref().is_none_or(|sv| sv.pose == Pose::Danger);
    match zero {
        PranaZero::Danger if folds => {
            if let Some(sv) = m.servant.as_mut() {
                sv.pose = Pose::Danger;
            }
            false
        }
        PranaZero::Defeat if folds => true,
        PranaZero::Nothing => false,
        PranaZero::Danger if in_danger => false,
        PranaZero::Danger | PranaZero::Defeat => {
            if !s.owed.prana_out.contains(&seat) {
                s.owed.prana_out.push(seat);
            }
            false
        }
    }
}

/// Spends or loses a Command Spell. The third one gone defeats its Master (FATE-WIN-1): here up
/// to version 3 (`folds`), owed to a step of its own from version 4.
fn lose_spell(s: &mut FateState, seat: Seat, folds: bool) {
    let Some(m) = s.master_mut(seat) else { return };
    m.command_spells = m.command_spells.saturating_sub(1);
    if m.command_spells == 0 && !m.defeated {
        if folds {
            defeat(s, &[seat], "FATE-WIN-1: all three Command Spells lost", true);
        } else if !s.owed.spells_out.contains(&seat) {
            s.owed.spells_out.push(seat);
        }
    }
}

/// Masters are defeated at once: the order of defeat is kept for placements; the turn, battle and
/// Active Master status move on; the game ends under FATE-OPEN-18. When the last Masters fall
/// together, they share the win.
fn defeat(s: &mut FateState, seats: &[Seat], reason: &str, folds: bool) {
    if s.result.is_some() {
        return;
    }
    for seat in seats {
        defeat_one(s, *seat, folds);
    }
    if !seats.is_empty() && s.game_should_end() {
        let living = s.living();
        let winners = if living.is_empty() { seats.to_vec() } else { living };
        // Placements: the winners, then the defeated, the last out placing highest; Masters
        // defeated together share their place.
        let mut placements = vec![winners.clone()];
        let mut out: Vec<Seat> = s.defeated.iter().copied().filter(|x| !winners.contains(x)).collect();
        let together: Vec<Seat> = seats.iter().copied().filter(|x| out.contains(x)).collect();
        out.retain(|x| !together.contains(x));
        if !together.is_empty() {
            placements.push(together);
        }
        placements.extend(out.iter().rev().map(|x| vec![*x]));
        let eliminated = s.defeated.iter().copied().filter(|x| !winners.contains(x)).collect();
        s.result = Some(Outcome { placements, eliminated, reason: reason.to_string() });
        s.step = Step::Over;
        s.battle = None;
    }
}

/// A judge's game loss put `seat` out (idempotent): the game goes on without it, or ends under
/// FATE-OPEN-18. From rules version 4 a defeated Active Master's status passing on is a step of
/// its own, as for any defeat.
pub fn eliminate(mut s: FateState, seat: Seat, rules: Rules) -> FateState {
    if s.is_living(seat) {
        defeat(&mut s, &[seat], "a judge's game loss", !rules.owed_steps);
    }
    s
}

/// Puts one Master out: its battle and turn end. A defeated Active Master's status passes to the
/// next living Master: here up to version 3 (`folds`, without the Danger→Resting turn of a
/// handover), owed to `ActiveStatusPassed` from version 4 (which turns it, FATE-PHASE-3).
fn defeat_one(s: &mut FateState, seat: Seat, folds: bool) {
    let Some(m) = s.master_mut(seat).filter(|m| !m.defeated) else { return };
    m.defeated = true;
    s.defeated.push(seat);
    if s.battle.as_ref().is_some_and(|b| b.attacker == seat || b.responder == seat) {
        s.battle = None;
        if s.turn_master != Some(seat) {
            to_step(s, Step::End);
        }
    }
    if s.turn_master == Some(seat) && !matches!(s.step, Step::Setup | Step::TurnOver) {
        s.bonuses.clear();
        to_step(s, Step::TurnOver);
    }
    if s.active_master == Some(seat) {
        if folds {
            let next = s.next_living(seat);
            s.active_master = Some(next);
            s.am_turns = 0;
            s.phase_turns = 0;
        } else {
            s.owed.status_left = Some(seat);
        }
    }
}

/// The cost symbols of an effect, for describe and agents.
pub fn cost_labels(costs: &[Cost]) -> String {
    costs.iter().map(Cost::label).collect::<Vec<_>>().join(" + ")
}
