//! Folding events into state: total, never panics, holds no rule checks.
//!
//! A judge may force an illegal event into the log, and the client's manual operations are
//! recorded as the client recorded them, so every branch does what it can: a card that is not
//! where the event says is taken from wherever it is; an unknown seat or card changes nothing.

use super::catalog::TriggerType;
use super::events::{Circle, ClientOp, LossReason, Phase, Place, PowerEdit, Stat, Until, VanguardEvent};
use super::rules_version::Rules;
use super::state::{Attack, CheckState, TurnFlags, Unit, VanguardState};
use crate::game::{Outcome, Seat};

/// The power every trigger gives (VG-TRIG-1).
pub const TRIGGER_POWER: i32 = 5000;

/// Applies one event under `rules`. Up to version 3 the fold stands the turn
/// player's units when the turn starts (VG-STAND-1), cleans up when the end phase is entered
/// (VG-STRIDE-4, VG-END-2, VG-END-4), retires a hit rear-guard when the attack is resolved
/// (VG-BATTLE-10) and the guardians when the battle ends (VG-BATTLE-14); from version 4
/// `UnitsStood`, `TurnCleanedUp`, `HitUnitRetired` and `GuardiansRetired` record those steps, so
/// a table that forgot one shows it on the board. Up to version 4 a call onto an occupied circle
/// retires the occupant (VG-ZONE-5), a stride turns a deleted heart face up (VG-STRIDE-2) and a
/// ride puts the legion mate into the soul (VG-KW-8) inside the event; from version 5 the event
/// only marks the step owed ([`VanguardState::owed_steps`]) and `OccupantRetired`,
/// `HeartTurnedFaceUp` and `LegionMateMovedToSoul` record it.
pub fn apply_as(mut s: VanguardState, event: &VanguardEvent, rules: Rules) -> VanguardState {
    use VanguardEvent::*;
    let folds_transitions = !rules.transition_steps;
    let owes_steps = rules.owed_steps;
    if owes_steps {
        // A step the table left out is owed no more once the game moved on past it.
        for due in s.left_out(event) {
            s.leave_out(&due);
        }
    }
    match event {
        StartingVanguardSet { seat, card } => starting_vanguard_set(&mut s, seat, card),
        FirstPlayerDetermined { first } => s.first = Some(*first),
        DeckShuffled { .. } => {}
        OpeningHandDrawn { seat, cards } => opening_hand_drawn(&mut s, seat, cards),
        Redrawn { seat, returned, drawn } => redrawn(&mut s, seat, returned, drawn),
        VanguardsRevealed {} => {
            for p in &mut s.players {
                if let Some(v) = &mut p.vanguard {
                    v.face_down = false;
                }
            }
            s.revealed = true;
        }
        TurnStarted { turn, seat } => start_turn(&mut s, *turn, *seat, folds_transitions),
        PhaseEntered { seat, phase } => enter_phase(&mut s, *seat, *phase, folds_transitions),
        CardDrawn { seat, card } => card_drawn(&mut s, seat, card),
        GradeAssisted { seat, taken, removed } => grade_assisted(&mut s, seat, taken, removed),
        Rode { seat, card } => rode(&mut s, seat, card, owes_steps),
        SuperiorRode { seat, card, .. } => ride_as(&mut s, *seat, card, owes_steps),
        ForerunnerCalled { seat, card, circle } | Called { seat, card, circle } => {
            call(&mut s, *seat, card, *circle, owes_steps)
        }
        SuperiorCalled { seat, card, circle, .. } => call(&mut s, *seat, card, *circle, owes_steps),
        Strode { seat, g_unit, heart, discarded } => strode(&mut s, seat, g_unit, heart, discarded, owes_steps),
        RearGuardMoved { seat, from, to } => rear_guard_moved(&mut s, seat, from, to),
        LegionPerformed { seat, returned, mate } => legion_performed(&mut s, seat, returned, mate),
        EffectActivated { .. } | EffectResolved { .. } => {}
        CounterBlasted { seat, cards } => counter_blasted(&mut s, seat, cards),
        SoulBlasted { seat, cards } => soul_blasted(&mut s, seat, cards),
        SoulCharged { seat, cards } => soul_charged(&mut s, seat, cards),
        AttackDeclared { seat, attacker, target } => attack_declared(&mut s, seat, attacker, target),
        Boosted { seat, booster } => boosted(&mut s, seat, booster),
        GuardianCalled { seat, card } => put(&mut s, *seat, card, Place::Guardian),
        Intercepted { seat, circle } => intercepted(&mut s, seat, circle),
        DriveChecked { seat, card } => drive_check(&mut s, *seat, card),
        DamageChecked { seat, card } => damage_check(&mut s, *seat, card),
        TriggerResolved { seat, power_to, critical_to, drew, healed, stood } => {
            trigger_resolved(&mut s, seat, power_to, critical_to, drew, healed, stood)
        }
        AttackResolved { hit } => attack_resolved(&mut s, hit, folds_transitions),
        BattleEnded {} => battle_ended(&mut s, folds_transitions),
        GameEnded { loser, reason } => game_ended(&mut s, loser, reason),
        CardMoved { card, to, .. } => card_moved(&mut s, card, to, owes_steps),
        ModifierApplied { card, stat, delta, until } => modifier_applied(&mut s, card, stat, delta, until),
        Client { seat, op } => client(&mut s, *seat, op),
        ChatMessage { .. } => {}
        SpectatorJoined { user } => spectator_joined(&mut s, user),
        SpectatorLeft { user } => spectator_left(&mut s, user),
        // The ledger's part only: Vanguard's own events move its cards.
        Common(c) => crate::game::common::record(&mut s.ledger, c),
        UnitsStood { seat, cards } => units_stood(&mut s, *seat, cards),
        TurnCleanedUp { seat, g_unit, flipped, expired } => turn_cleaned_up(&mut s, *seat, g_unit, flipped, expired),
        HitUnitRetired { seat, card } => put(&mut s, *seat, card, Place::Drop),
        GuardiansRetired { seat, cards } => {
            for card in cards {
                put(&mut s, *seat, card, Place::Drop);
            }
        }
        OccupantRetired { .. } | HeartTurnedFaceUp { .. } | LegionMateMovedToSoul { .. } => {
            version_5_step(&mut s, event)
        }
    }
    s
}

/// The end of a battle: the battle's power gone and, up to version 3 (`folds_transitions`), the
/// guardians retired here (from version 4 `GuardiansRetired` records it, VG-BATTLE-14).
fn battle_ended(s: &mut VanguardState, folds_transitions: bool) {
    for p in &mut s.players {
        if folds_transitions {
            let g = std::mem::take(&mut p.guardians);
            p.drop.extend(g);
        }
        for u in p.units_mut() {
            u.power_battle = 0;
        }
    }
    s.attack = None;
    s.check = None;
}

/// Version 5's automatic steps: each settles what it owed, then does it.
fn version_5_step(s: &mut VanguardState, event: &VanguardEvent) {
    s.settle(event);
    match event {
        VanguardEvent::OccupantRetired { seat, card, .. } => put(s, *seat, card, Place::Drop),
        VanguardEvent::HeartTurnedFaceUp { seat, cards } => heart_turned_face_up(s, *seat, cards),
        VanguardEvent::LegionMateMovedToSoul { seat, card } => put(s, *seat, card, Place::Soul),
        _ => {}
    }
}

/// A unit called onto `seat`'s rear-guard `circle` (VG-MAIN-1, VG-MAIN-2, VG-KW-1, or an effect
/// moving it there). From version 5 (`displaces`) the occupant leaves the circle for no zone and
/// its retirement is owed (VG-ZONE-5, `OccupantRetired`); earlier versions retire it here ([`put`]).
fn call(s: &mut VanguardState, seat: Seat, card: &str, circle: Circle, displaces: bool) {
    let on_field = s.players.get(seat).is_some_and(|p| p.rear.values().any(|u| u.card == card));
    if displaces && !on_field && circle != Circle::Vanguard {
        let old = s.players.get_mut(seat).and_then(|p| p.rear.remove(&circle));
        if let Some(old) = old.filter(|u| u.card != card) {
            s.owed.occupants.push((seat, circle, old.card));
        }
    }
    put(s, seat, card, Place::Circle(circle));
}

/// VG-STRIDE-2 (version 5): the named units of `seat`'s vanguard circle turn face up.
fn heart_turned_face_up(s: &mut VanguardState, seat: Seat, cards: &[String]) {
    let Some(p) = s.players.get_mut(seat) else { return };
    for u in [&mut p.vanguard, &mut p.mate].into_iter().flatten() {
        if cards.contains(&u.card) {
            u.deleted = false;
        }
    }
}

fn starting_vanguard_set(s: &mut VanguardState, seat: &Seat, card: &str) {
    take(s, card);
    if let Some(p) = s.players.get_mut(*seat) {
        p.vanguard = Some(Unit { face_down: true, ..Unit::new(card) });
    }
}

fn opening_hand_drawn(s: &mut VanguardState, seat: &Seat, cards: &[String]) {
    for c in cards {
        put(s, *seat, c, Place::Hand);
    }
    if let Some(p) = s.players.get_mut(*seat) {
        p.hand_drawn = true;
    }
}

fn redrawn(s: &mut VanguardState, seat: &Seat, returned: &[String], drawn: &[String]) {
    for c in returned {
        put(s, *seat, c, Place::DeckSearch);
    }
    for c in drawn {
        put(s, *seat, c, Place::Hand);
    }
    if let Some(p) = s.players.get_mut(*seat) {
        p.redrawn = true;
    }
}

fn card_drawn(s: &mut VanguardState, seat: &Seat, card: &str) {
    put(s, *seat, card, Place::Hand);
    if let Some(p) = s.players.get_mut(*seat) {
        p.turn.drew = true;
    }
}

fn grade_assisted(s: &mut VanguardState, seat: &Seat, taken: &Option<String>, removed: &[String]) {
    if let Some(c) = taken {
        put(s, *seat, c, Place::Hand);
    }
    for c in removed {
        put(s, *seat, c, Place::Removed);
    }
    if let Some(p) = s.players.get_mut(*seat) {
        p.turn.grade_assists += 1;
        p.grade_assists_game += 1;
    }
}

fn rode(s: &mut VanguardState, seat: &Seat, card: &str, keeps_mate: bool) {
    ride_as(s, *seat, card, keeps_mate);
    if let Some(p) = s.players.get_mut(*seat) {
        p.turn.rode = true;
    }
}

fn strode(s: &mut VanguardState, seat: &Seat, g_unit: &str, heart: &str, discarded: &[String], owes_steps: bool) {
    for c in discarded {
        put(s, *seat, c, Place::Drop);
    }
    if !owes_steps {
        stride(s, *seat, g_unit, heart);
        return;
    }
    // Version 5: a deleted heart stays face down until `HeartTurnedFaceUp` (VG-STRIDE-2).
    stride_as(s, *seat, g_unit, heart, false);
    if !s.deleted_hearts(*seat).is_empty() {
        s.owed.hearts = Some(*seat);
    }
}

fn rear_guard_moved(s: &mut VanguardState, seat: &Seat, from: &Circle, to: &Circle) {
    let card = s.players.get(*seat).and_then(|p| p.rear.get(from)).map(|u| u.card.clone());
    if let Some(card) = card {
        put(s, *seat, &card, Place::Circle(*to));
    }
}

fn legion_performed(s: &mut VanguardState, seat: &Seat, returned: &[String], mate: &str) {
    for c in returned {
        put(s, *seat, c, Place::DeckSearch);
    }
    legion(s, *seat, mate);
}

fn counter_blasted(s: &mut VanguardState, seat: &Seat, cards: &[String]) {
    if let Some(p) = s.players.get_mut(*seat) {
        for (c, up) in &mut p.damage {
            if cards.contains(c) {
                *up = false;
            }
        }
    }
}

fn soul_blasted(s: &mut VanguardState, seat: &Seat, cards: &[String]) {
    for c in cards {
        put(s, *seat, c, Place::Drop);
    }
}

fn soul_charged(s: &mut VanguardState, seat: &Seat, cards: &[String]) {
    for c in cards {
        put(s, *seat, c, Place::Soul);
    }
}

fn attack_declared(s: &mut VanguardState, seat: &Seat, attacker: &Circle, target: &Circle) {
    if let Some(u) = unit_on_mut(s, *seat, *attacker) {
        u.rested = true;
    }
    let drives_total = if *attacker == Circle::Vanguard { s.drive_count(*seat) } else { 0 };
    s.attack = Some(Attack {
        seat: *seat,
        attacker: *attacker,
        target: *target,
        booster: None,
        booster_card: None,
        drives_done: 0,
        drives_total,
        hit: None,
        damage_left: 0,
    });
    s.check = None;
}

fn boosted(s: &mut VanguardState, seat: &Seat, booster: &Circle) {
    let card = unit_on_mut(s, *seat, *booster).map(|u| {
        u.rested = true;
        u.card.clone()
    });
    if let Some(a) = &mut s.attack {
        a.booster = Some(*booster);
        a.booster_card = card;
    }
}

fn intercepted(s: &mut VanguardState, seat: &Seat, circle: &Circle) {
    let card = s.players.get(*seat).and_then(|p| p.rear.get(circle)).map(|u| u.card.clone());
    if let Some(card) = card {
        put(s, *seat, &card, Place::Guardian);
    }
}

fn trigger_resolved(
    s: &mut VanguardState,
    seat: &Seat,
    power_to: &str,
    critical_to: &Option<String>,
    drew: &Option<String>,
    healed: &Option<String>,
    stood: &Option<String>,
) {
    trigger_power(s, power_to, critical_to.as_deref());
    if let Some(c) = drew {
        put(s, *seat, c, Place::Hand);
    }
    if let Some(c) = healed {
        put(s, *seat, c, Place::Drop);
    }
    if let Some(c) = stood {
        if let Some(u) = unit_mut(s, c) {
            u.rested = false;
        }
    }
    if let Some(ch) = &mut s.check {
        ch.power_done = true;
        ch.extra_done = true;
    }
}

/// The attack's outcome; up to rules version 3 (`retires`) a hit rear-guard retires here too.
fn attack_resolved(s: &mut VanguardState, hit: &bool, retires: bool) {
    let Some(a) = s.attack.clone() else { return };
    if let Some(at) = &mut s.attack {
        at.hit = Some(*hit);
    }
    if *hit {
        let defender = crate::game::opponent(a.seat);
        if a.target == Circle::Vanguard {
            let crit = s.circle_critical(a.seat, a.attacker).max(0);
            if let Some(at) = &mut s.attack {
                at.damage_left = u32::try_from(crit).unwrap_or(0);
            }
        } else if let Some(card) =
            s.players.get(defender).and_then(|p| p.rear.get(&a.target)).map(|u| u.card.clone()).filter(|_| retires)
        {
            put(s, defender, &card, Place::Drop);
        }
    }
}

fn game_ended(s: &mut VanguardState, loser: &Option<Seat>, reason: &LossReason) {
    let why = match reason {
        LossReason::SixDamage => "VG-WIN-2: six damage",
        LossReason::DeckOut => "VG-WIN-3: no cards left in the deck",
    };
    let seats = s.players.len();
    s.result = Some(match loser {
        Some(l) => Outcome::won(crate::game::opponent(*l), seats, format!("{why} ({} lost)", s.name(*l))),
        None => Outcome::draw(seats, format!("{why}: both players lost at once, a draw (VG-OPEN-4)")),
    });
}

fn card_moved(s: &mut VanguardState, card: &str, to: &Place, owes_steps: bool) {
    let owner = VanguardState::owner(card).unwrap_or(0);
    match to {
        Place::Circle(Circle::Vanguard) if owes_steps => ride_as(s, owner, card, true),
        Place::Circle(c) if owes_steps => call(s, owner, card, *c, true),
        _ => put(s, owner, card, *to),
    }
}

fn modifier_applied(s: &mut VanguardState, card: &str, stat: &Stat, delta: &i32, until: &Until) {
    if let Some(u) = unit_mut(s, card) {
        match (stat, until) {
            (Stat::Power, Until::EndOfBattle) => u.power_battle += delta,
            (Stat::Power, Until::EndOfTurn) => u.power_turn += delta,
            (Stat::Critical, _) => u.crit_turn += delta,
        }
    }
}

fn spectator_joined(s: &mut VanguardState, user: &str) {
    s.spectators.insert(user.to_string());
}

fn spectator_left(s: &mut VanguardState, user: &str) {
    s.spectators.remove(user);
}

/// A manual operation of the client: dispatches to the evolve function of its kind.
fn client(s: &mut VanguardState, seat: Seat, op: &ClientOp) {
    match op {
        ClientOp::Drew { card } => client_drew(s, seat, card),
        ClientOp::Checked { card } => client_checked(s, seat, card),
        ClientOp::ToTopOfDeck { card } => put(s, seat, card, Place::Deck),
        ClientOp::ToBottomOfDeck { card } => put(s, seat, card, Place::DeckBottom),
        ClientOp::ToHand { card } => put(s, seat, card, Place::Hand),
        ClientOp::Shuffled {} | ClientOp::DeckViewed {} => {}
        ClientOp::Milled { card } => put(s, seat, card, Place::Drop),
        ClientOp::SoulCharged { card } => put(s, seat, card, Place::Soul),
        ClientOp::BoundTop { card } => put(s, seat, card, Place::Bind),
        ClientOp::PositionChanged { card, rested } => position_changed(s, seat, card, *rested),
        ClientOp::DamageFlipped { card, face_up } => {
            if let Some(p) = s.players.get_mut(seat) {
                flip(&mut p.damage, card, *face_up);
            }
        }
        ClientOp::GZoneFlipped { card, face_up } => {
            if let Some(p) = s.players.get_mut(seat) {
                flip(&mut p.g_zone, card, *face_up);
            }
        }
        ClientOp::LockChanged { card, locked } => {
            if let Some(u) = unit_mut(s, card) {
                u.locked = *locked;
            }
        }
        ClientOp::DeleteChanged { card, deleted } => {
            if let Some(u) = unit_mut(s, card) {
                u.deleted = *deleted;
            }
        }
        ClientOp::PowerEdited { card, mode, value } => power_edited(s, card, *mode, *value),
        ClientOp::Rode { card } => {
            ride(s, seat, card);
            if let Some(p) = s.players.get_mut(seat) {
                p.turn.rode = true;
            }
        }
        ClientOp::Strode { g_unit, heart } => stride(s, seat, g_unit, heart),
        ClientOp::Legion { mate } => legion(s, seat, mate),
        ClientOp::PhaseButton { phase } => phase_button(s, seat, *phase),
        ClientOp::Moved { card, to } => client_moved(s, seat, card, *to),
        ClientOp::TriggerApplied { power_to, critical_to } => {
            trigger_power(s, power_to, critical_to.as_deref());
            if let Some(ch) = &mut s.check {
                ch.power_done = true;
                if ch.trigger == Some(TriggerType::Critical) {
                    ch.extra_done = true;
                }
            }
        }
    }
}

/// The open trigger check of `seat` whose trigger is `trigger`, if any: its extra effect is done.
fn trigger_extra_done(s: &mut VanguardState, seat: Seat, trigger: TriggerType) {
    if let Some(ch) = s.check.as_mut().filter(|c| c.trigger == Some(trigger) && c.seat == seat) {
        ch.extra_done = true;
    }
}

fn client_drew(s: &mut VanguardState, seat: Seat, card: &str) {
    let turn_draw = s.active == Some(seat) && s.phase <= Phase::Ride;
    let drew = s.players.get(seat).is_some_and(|p| p.turn.drew);
    put(s, seat, card, Place::Hand);
    if turn_draw && !drew {
        if let Some(p) = s.players.get_mut(seat) {
            p.turn.drew = true;
        }
    } else {
        trigger_extra_done(s, seat, TriggerType::Draw);
    }
}

fn client_checked(s: &mut VanguardState, seat: Seat, card: &str) {
    if s.active == Some(seat) && s.phase == Phase::Battle {
        drive_check(s, seat, card);
        if let Some(p) = s.players.get_mut(seat) {
            p.turn.client_drives_left = p.turn.client_drives_left.saturating_sub(1);
        }
    } else {
        damage_check(s, seat, card);
    }
}

fn position_changed(s: &mut VanguardState, seat: Seat, card: &str, rested: bool) {
    let is_vanguard = s.players.get(seat).is_some_and(|p| p.on(Circle::Vanguard).is_some_and(|u| u.card == card));
    if let Some(u) = unit_mut(s, card) {
        u.rested = rested;
    }
    if rested && is_vanguard && s.active == Some(seat) && s.phase == Phase::Battle {
        let n = s.drive_count(seat);
        if let Some(p) = s.players.get_mut(seat) {
            p.turn.client_drives_left = n;
        }
    }
    if !rested {
        trigger_extra_done(s, seat, TriggerType::Stand);
    }
}

/// Turns `card` of a zone of face-up flags face up or down.
fn flip(zone: &mut [(String, bool)], card: &str, face_up: bool) {
    for (c, up) in zone {
        if c == card {
            *up = face_up;
        }
    }
}

fn power_edited(s: &mut VanguardState, card: &str, mode: PowerEdit, value: i32) {
    if let Some(u) = unit_mut(s, card) {
        match mode {
            PowerEdit::Add => u.power_turn += value,
            PowerEdit::Set => {
                u.power_set = Some(value);
                u.power_turn = 0;
                u.power_battle = 0;
            }
        }
    }
}

fn phase_button(s: &mut VanguardState, seat: Seat, phase: Phase) {
    if phase == Phase::Ride && s.active != Some(seat) {
        // The client has no turn button: the ride phase button starts the player's turn and
        // stands their units (VGC-UI-2).
        start_turn(s, s.turn + 1, seat, true);
    }
    if phase == Phase::Ride {
        if let Some(p) = s.players.get_mut(seat) {
            for u in p.units_mut() {
                u.power_turn = 0;
                u.crit_turn = 0;
            }
        }
    }
    // The client's buttons stand and clean up themselves, whatever the rules version.
    enter_phase(s, seat, phase, true);
}

fn client_moved(s: &mut VanguardState, seat: Seat, card: &str, to: Place) {
    let from_damage = s.find(card).is_some_and(|(_, p)| p == Place::Damage);
    put(s, seat, card, to);
    if from_damage && to == Place::Drop {
        trigger_extra_done(s, seat, TriggerType::Heal);
    }
}

fn start_turn(s: &mut VanguardState, turn: u32, seat: Seat, stands: bool) {
    s.turn = turn;
    s.active = Some(seat);
    s.phase = Phase::Stand;
    s.attack = None;
    s.check = None;
    s.ridden_upon = None;
    for p in &mut s.players {
        p.turn = TurnFlags::default();
    }
    if let Some(p) = s.players.get_mut(seat) {
        p.turns_taken += 1;
        if !stands {
            return;
        }
        // VG-STAND-1: the stand phase stands every rested unit; a locked card "can do nothing".
        for u in p.units_mut() {
            if !u.locked {
                u.rested = false;
            }
        }
    }
}

/// VG-STAND-1 (version 4): the named units stand, wherever they are on the seat's field.
fn units_stood(s: &mut VanguardState, seat: Seat, cards: &[String]) {
    let Some(p) = s.players.get_mut(seat) else { return };
    for u in p.units_mut() {
        if cards.contains(&u.card) {
            u.rested = false;
        }
    }
}

/// The end phase's clean-up (version 4), as recorded: only what the event names happens.
fn turn_cleaned_up(s: &mut VanguardState, seat: Seat, g_unit: &Option<String>, flipped: &[String], expired: &[String]) {
    for p in &mut s.players {
        for u in p.units_mut() {
            if expired.contains(&u.card) {
                u.power_turn = 0;
                u.crit_turn = 0;
            }
        }
    }
    let Some(p) = s.players.get_mut(seat) else { return };
    for u in p.units_mut() {
        if flipped.contains(&u.card) {
            u.locked = false;
            u.deleted = false;
        }
    }
    if g_unit.is_some() && p.g_unit.as_ref().map(|u| &u.card) == g_unit.as_ref() {
        return_g_unit(p);
    }
}

/// VG-STRIDE-4: the G unit returns to the G zone face up; the heart is the vanguard again.
fn return_g_unit(p: &mut super::state::PlayerState) {
    if let Some(g) = p.g_unit.take() {
        p.g_zone.push((g.card, true));
    }
    p.heart = None;
}

fn enter_phase(s: &mut VanguardState, seat: Seat, phase: Phase, cleans_up: bool) {
    s.phase = phase;
    s.ridden_upon = s.ridden_upon.take().filter(|_| phase == Phase::Ride);
    if phase == Phase::Battle {
        if let Some(p) = s.players.get_mut(seat) {
            p.turn.client_drives_left = 0;
        }
    }
    if phase != Phase::End {
        return;
    }
    s.attack = None;
    s.check = None;
    for p in &mut s.players {
        if cleans_up {
            p.drop.append(&mut p.guardians);
        }
        for u in p.units_mut() {
            u.power_battle = 0;
            if cleans_up {
                // VG-END-2: until-end-of-turn modifiers expire.
                u.power_turn = 0;
                u.crit_turn = 0;
            }
        }
    }
    if !cleans_up {
        return;
    }
    if let Some(p) = s.players.get_mut(seat) {
        // VG-END-3 / VG-STRIDE-4: the G unit returns to the G zone face up.
        return_g_unit(p);
        // VG-END-4: the owner's locked and deleted cards turn face up.
        for u in p.units_mut() {
            u.locked = false;
            u.deleted = false;
        }
    }
}

fn ride(s: &mut VanguardState, seat: Seat, card: &str) {
    ride_as(s, seat, card, false);
}

/// A ride on `seat`'s vanguard: the old vanguard becomes the soul (VG-RIDE-1). Up to version 4 a
/// legion mate goes with it; from version 5 (`keeps_mate`) the mate stays beside the new vanguard
/// until `LegionMateMovedToSoul` records its move (VG-KW-8), which is then owed.
fn ride_as(s: &mut VanguardState, seat: Seat, card: &str, keeps_mate: bool) {
    take(s, card);
    let Some(p) = s.players.get_mut(seat) else { return };
    let old = p.vanguard.take();
    let mate = if keeps_mate { None } else { p.mate.take() };
    // VG-RIDE-1: the old vanguard (and a legion, VG-KW-8) becomes the soul.
    for u in [&old, &mate].into_iter().flatten() {
        p.soul.push(u.card.clone());
    }
    p.vanguard = Some(Unit::new(card));
    let owes_mate = keeps_mate && p.mate.is_some();
    s.ridden_upon = old.map(|u| (seat, u.card));
    if owes_mate {
        s.owed.mate = Some(seat);
    }
}

fn stride(s: &mut VanguardState, seat: Seat, g_unit: &str, heart: &str) {
    stride_as(s, seat, g_unit, heart, true);
}

/// A G unit strode over `seat`'s vanguard: up to version 4 (`flips`) a deleted heart turns face
/// up here (VG-STRIDE-2); from version 5 `HeartTurnedFaceUp` records it.
fn stride_as(s: &mut VanguardState, seat: Seat, g_unit: &str, heart: &str, flips: bool) {
    take(s, g_unit);
    if let Some(p) = s.players.get_mut(seat) {
        for u in [&mut p.vanguard, &mut p.mate].into_iter().flatten().filter(|_| flips) {
            // VG-STRIDE-2: a deleted vanguard is turned face up before it becomes the heart.
            u.deleted = false;
        }
        p.g_unit = Some(Unit::new(g_unit));
        p.heart = Some(heart.to_string());
        p.turn.strides += 1;
    }
}

fn legion(s: &mut VanguardState, seat: Seat, mate: &str) {
    take(s, mate);
    if let Some(p) = s.players.get_mut(seat) {
        if let Some(old) = p.mate.take() {
            p.soul.push(old.card);
        }
        p.mate = Some(Unit::new(mate));
        p.turn.legions += 1;
        p.legions_game += 1;
    }
}

fn new_check(s: &VanguardState, seat: Seat, card: &str, drive: bool) -> CheckState {
    let own = s.players.get(seat).map_or(0, |p| p.damage_count());
    let opp = s.players.get(crate::game::opponent(seat)).map_or(0, |p| p.damage_count());
    CheckState {
        seat,
        card: card.to_string(),
        drive,
        trigger: s.activating_trigger(seat, card, drive),
        damage_before: (own, opp),
        power_done: false,
        extra_done: false,
    }
}

fn drive_check(s: &mut VanguardState, seat: Seat, card: &str) {
    let check = new_check(s, seat, card, true);
    put(s, seat, card, Place::Hand);
    s.check = Some(check);
    if let Some(a) = &mut s.attack {
        a.drives_done += 1;
    }
}

fn damage_check(s: &mut VanguardState, seat: Seat, card: &str) {
    let check = new_check(s, seat, card, false);
    put(s, seat, card, Place::Damage);
    s.check = Some(check);
    if let Some(a) = &mut s.attack {
        a.damage_left = a.damage_left.saturating_sub(1);
    }
}

fn trigger_power(s: &mut VanguardState, power_to: &str, critical_to: Option<&str>) {
    if let Some(u) = unit_mut(s, power_to) {
        u.power_turn += TRIGGER_POWER;
    }
    if let Some(c) = critical_to {
        if let Some(u) = unit_mut(s, c) {
            u.crit_turn += 1;
        }
    }
}

/// The unit on `seat`'s `circle` (the top of the vanguard circle).
fn unit_on_mut(s: &mut VanguardState, seat: Seat, circle: Circle) -> Option<&mut Unit> {
    let p = s.players.get_mut(seat)?;
    match circle {
        Circle::Vanguard => p.g_unit.as_mut().or(p.vanguard.as_mut()),
        c => p.rear.get_mut(&c),
    }
}

/// The unit `card` wherever it stands.
pub(crate) fn unit_mut<'a>(s: &'a mut VanguardState, card: &str) -> Option<&'a mut Unit> {
    s.players.iter_mut().flat_map(|p| p.units_mut()).find(|u| u.card == card)
}

/// Removes a card from wherever it is; returns its unit status if it stood on the field.
fn take(s: &mut VanguardState, card: &str) -> Option<Unit> {
    s.removed.retain(|(c, _)| c != card);
    let mut found = None;
    for p in &mut s.players {
        p.deck.remove(card);
        p.hand.retain(|c| c != card);
        p.drop.retain(|c| c != card);
        p.damage.retain(|(c, _)| c != card);
        p.soul.retain(|c| c != card);
        p.g_zone.retain(|(c, _)| c != card);
        p.bind.retain(|c| c != card);
        p.guardians.retain(|c| c != card);
        for slot in [&mut p.g_unit, &mut p.vanguard, &mut p.mate] {
            if slot.as_ref().is_some_and(|u| u.card == card) {
                found = slot.take();
            }
        }
        if let Some(c) = p.rear.iter().find(|(_, u)| u.card == card).map(|(c, _)| *c) {
            found = p.rear.remove(&c);
        }
        if p.heart.as_deref() == Some(card) {
            p.heart = None;
        }
    }
    found
}

/// Moves `card` to `seat`'s `place`. A unit moved onto an occupied rear-guard circle from another
/// circle swaps with the occupant (VG-MAIN-3); from anywhere else it retires the occupant to the
/// drop zone (VG-ZONE-5). A card put onto the vanguard circle is a ride (the old vanguard becomes soul).
fn put(s: &mut VanguardState, seat: Seat, card: &str, place: Place) {
    // An occupant left unretired (version 5) that an event puts somewhere is lost no more.
    s.owed.unretired.retain(|(_, _, c)| c != card);
    if let Place::Circle(Circle::Vanguard) = place {
        ride(s, seat, card);
        return;
    }
    let from_circle = s.players.get(seat).and_then(|p| p.rear.iter().find(|(_, u)| u.card == card).map(|(c, _)| *c));
    let unit = take(s, card);
    let Some(p) = s.players.get_mut(seat) else { return };
    match place {
        Place::Deck | Place::DeckBottom | Place::DeckSearch => {
            p.deck.insert(card.to_string());
        }
        Place::Hand => p.hand.push(card.to_string()),
        Place::Drop => p.drop.push(card.to_string()),
        Place::Damage => p.damage.push((card.to_string(), true)),
        Place::Soul => p.soul.push(card.to_string()),
        Place::GZone => p.g_zone.push((card.to_string(), false)),
        Place::Bind => p.bind.push(card.to_string()),
        Place::Guardian => p.guardians.push(card.to_string()),
        Place::Removed => s.removed.push((card.to_string(), seat)),
        Place::Circle(c) => {
            let moved = unit.filter(|_| from_circle.is_some()).unwrap_or_else(|| Unit::new(card));
            if let Some(old) = p.rear.insert(c, moved) {
                match from_circle {
                    Some(from) => {
                        p.rear.insert(from, old);
                    }
                    None => p.drop.push(old.card),
                }
            }
        }
    }
}
