//! The fold: applies an LC event to the state. Total and free of rule logic, so illegal events a
//! judge forced into the log still fold; every deck operation is reported to the commitment
//! ledger so the audit can replay seeded shuffles.

use super::events::{
    CardRef, CommonEvent, Duration, EndReason, LcEvent, Line, LinePointLost, PointsLost, ProtectFrom, Stat, Zone,
};
use super::state::{pile_name, FieldCard, Held, LcState, Modifier, PendingAttack, Turn};
use crate::game::{Outcome, Seat};

/// Applies one event.
pub fn apply(mut s: LcState, event: &LcEvent) -> LcState {
    use LcEvent::*;
    match event {
        Common(c) => common(&mut s, c),
        DeckShuffled { seat, seed, .. } => deck_shuffled(&mut s, seat, seed),
        FirstPlayerChosen { first, .. } => s.first = Some(*first),
        OpeningHandDrawn { seat, cards } => opening_hand_drawn(&mut s, seat, cards),
        RoundStarted { round, first } => round_started(&mut s, round, first),
        FullDiscarded { seat, discarded, drawn, cost } => full_discarded(&mut s, seat, discarded, drawn, cost),
        CardPutDown { seat, card, line, face_down, replaced } => {
            card_put_down(&mut s, seat, card, line, face_down, replaced)
        }
        CardAttached { seat, card, to } => card_attached(&mut s, seat, card, to),
        CardShifted { seat, card, to } => card_shifted(&mut s, seat, card, to),
        CardsFlipped { seat, cards } => cards_flipped(&mut s, seat, cards),
        StrategyActivated { seat, card, .. } => strategy_activated(&mut s, seat, card),
        AttackDeclared { seat, attacker, target } => attack_declared(&mut s, seat, attacker, target),
        DirectAttackDeclared { seat, attacker } => direct_attack_declared(&mut s, seat, attacker),
        ProtectionPlayed { seat, card, from } => protection_played(&mut s, seat, card, from),
        AttackResolved { destroyed, points_lost, line_points_lost, .. } => {
            attack_resolved(&mut s, destroyed, points_lost, line_points_lost)
        }
        RefillDrawn { seat, cards } => refill_drawn(&mut s, seat, cards),
        TurnPassed { seat } => turn_passed(&mut s, seat),
        GameEnded { reason, winners } => game_ended(&mut s, reason, winners),
        ModifierApplied { target, stat, delta, duration } => modifier_applied(&mut s, target, stat, delta, duration),
        StrategyPointsChanged { seat, card, changes } => {
            strategy_activated(&mut s, seat, card);
            for c in changes {
                if let Some(p) = s.players.get_mut(c.seat) {
                    p.points = p.points.saturating_add(c.delta);
                }
            }
        }
    }
    s
}

fn deck_shuffled(s: &mut LcState, seat: &Seat, seed: &Option<String>) {
    if let Some(p) = s.players.get_mut(*seat) {
        p.shuffled = true;
        // The transcript can only be checked when the fold knows the pile's exact contents.
        let exact = p.pile.len() == p.pile_count;
        let contents: Vec<String> = p.pile.iter().cloned().collect();
        let key = seed.as_deref().filter(|_| exact);
        s.ledger.deck_shuffled(&pile_name(*seat), contents, key);
    }
}

fn opening_hand_drawn(s: &mut LcState, seat: &Seat, cards: &[CardRef]) {
    for c in cards {
        draw(s, *seat, c);
    }
    if let Some(p) = s.players.get_mut(*seat) {
        p.hand_drawn = true;
    }
}

fn round_started(s: &mut LcState, round: &u32, first: &Seat) {
    s.round = *round;
    s.round_first = *first;
    s.turns_done = 0;
    s.turn_no += 1;
    s.turn = Some(Turn { seat: *first, ..Turn::default() });
    s.attack = None;
    s.modifiers.retain(|m| m.duration == Duration::Permanent);
    for p in &mut s.players {
        p.direct_used = false;
        for f in p.attack.iter_mut().chain(p.defense.iter_mut()).chain(p.strategy.iter_mut()) {
            f.attacked = false;
            f.from_defense = false;
        }
    }
}

fn full_discarded(s: &mut LcState, seat: &Seat, discarded: &[String], drawn: &[CardRef], cost: &u32) {
    for c in discarded {
        take_from_hand(s, *seat, c);
        if let Some(p) = s.players.get_mut(*seat) {
            p.dead.push(c.clone());
        }
    }
    for c in drawn {
        draw(s, *seat, c);
    }
    lose_points(s, *seat, *cost);
    if let Some(t) = s.turn.as_mut() {
        t.discarded = true;
    }
}

fn card_put_down(s: &mut LcState, seat: &Seat, card: &str, line: &Line, face_down: &bool, replaced: &Option<String>) {
    if let Some(old) = replaced {
        to_dead_zone(s, old);
    }
    take_from_hand(s, *seat, card);
    if let Some(p) = s.players.get_mut(*seat) {
        p.line_mut(*line).push(FieldCard { card: card.to_string(), face_down: *face_down, ..FieldCard::default() });
    }
    acted(s, true);
}

fn card_attached(s: &mut LcState, seat: &Seat, card: &str, to: &str) {
    take_from_hand(s, *seat, card);
    let host = LcState::owner(to).unwrap_or(*seat);
    match s.players.get_mut(host).and_then(|p| p.field_card_mut(to)) {
        Some(f) => f.attachments.push(card.to_string()),
        // No such host: the card is lost to the Dead Zone rather than the fold.
        None => {
            if let Some(p) = s.players.get_mut(*seat) {
                p.dead.push(card.to_string());
            }
        }
    }
    acted(s, true);
}

fn card_shifted(s: &mut LcState, seat: &Seat, card: &str, to: &Line) {
    if let Some(p) = s.players.get_mut(*seat) {
        if let Some((from, i)) = p.find(card) {
            let mut f = p.line_mut(from).remove(i);
            if from == Line::Defense && *to == Line::Attack {
                f.from_defense = true;
            }
            p.line_mut(*to).push(f);
        }
    }
    acted(s, false);
}

fn cards_flipped(s: &mut LcState, seat: &Seat, cards: &[String]) {
    for c in cards {
        if let Some(f) = s.players.get_mut(*seat).and_then(|p| p.field_card_mut(c)) {
            f.face_down = false;
        }
    }
    acted(s, false);
}

fn strategy_activated(s: &mut LcState, seat: &Seat, card: &str) {
    if let Some(f) = s.players.get_mut(*seat).and_then(|p| p.field_card_mut(card)) {
        f.face_down = false;
    }
    acted(s, false);
}

fn attack_declared(s: &mut LcState, seat: &Seat, attacker: &str, target: &str) {
    s.attack = Some(PendingAttack {
        seat: *seat,
        attacker: attacker.to_string(),
        target: Some(target.to_string()),
        protection: None,
    });
    declared(s);
}

fn direct_attack_declared(s: &mut LcState, seat: &Seat, attacker: &str) {
    s.attack = Some(PendingAttack { seat: *seat, attacker: attacker.to_string(), target: None, protection: None });
    if let Some(p) = s.players.get_mut(*seat) {
        p.direct_used = true;
    }
    declared(s);
}

fn protection_played(s: &mut LcState, seat: &Seat, card: &str, from: &ProtectFrom) {
    match from {
        super::events::ProtectFrom::Hand => take_from_hand(s, *seat, card),
        super::events::ProtectFrom::Field => {
            if let Some(p) = s.players.get_mut(*seat) {
                if let Some((l, i)) = p.find(card) {
                    p.line_mut(l).remove(i);
                }
            }
        }
    }
    // A used Protection card goes to the Dead Zone (its effect is spent).
    if let Some(p) = s.players.get_mut(*seat) {
        p.dead.push(card.to_string());
    }
    if let Some(a) = s.attack.as_mut() {
        a.protection = Some(card.to_string());
    }
}

fn attack_resolved(
    s: &mut LcState,
    destroyed: &[String],
    points_lost: &[PointsLost],
    line_points_lost: &[LinePointLost],
) {
    if let Some(a) = s.attack.take() {
        if let Some(f) = s.players.get_mut(a.seat).and_then(|p| p.field_card_mut(&a.attacker)) {
            f.attacked = true;
        }
    }
    for c in destroyed {
        to_dead_zone(s, c);
    }
    for l in points_lost {
        lose_points(s, l.seat, l.points);
    }
    for l in line_points_lost {
        if let Some(p) = s.players.get_mut(l.seat) {
            match l.line {
                Line::Attack => p.attack_points = p.attack_points.saturating_sub(1),
                Line::Defense => p.defense_points = p.defense_points.saturating_sub(1),
                Line::Strategy => {}
            }
        }
    }
}

fn refill_drawn(s: &mut LcState, seat: &Seat, cards: &[CardRef]) {
    for c in cards {
        draw(s, *seat, c);
    }
    if let Some(t) = s.turn.as_mut() {
        t.refilled = true;
        t.acted = true;
    }
}

fn turn_passed(s: &mut LcState, seat: &Seat) {
    s.turns_done += 1;
    s.attack = None;
    s.turn = (s.turns_done < s.turns_per_round()).then(|| {
        s.turn_no += 1;
        Turn { seat: crate::game::opponent(*seat), ..Turn::default() }
    });
}

fn game_ended(s: &mut LcState, reason: &EndReason, winners: &[Seat]) {
    s.ended = Some(*reason);
    s.turn = None;
    s.attack = None;
    let why = reason.describe();
    s.result = Some(match winners {
        // Zero Combat Points is a loss: the loser is out (LC-END-3).
        [w] if *reason == EndReason::ZeroPoints => {
            Outcome::won(*w, 2, why).with_eliminated(&[crate::game::opponent(*w)])
        }
        [w] => Outcome::won(*w, 2, why),
        _ => Outcome::draw(2, why),
    });
}

fn modifier_applied(s: &mut LcState, target: &str, stat: &Stat, delta: &i32, duration: &Duration) {
    s.modifiers.push(Modifier { target: target.to_string(), stat: *stat, delta: *delta, duration: *duration })
}

fn common(s: &mut LcState, c: &CommonEvent) {
    crate::game::common::record(&mut s.ledger, c);
    match c {
        CommonEvent::TopCardTakenSealed { seat, commitment, .. } => {
            if let Some(p) = s.players.get_mut(*seat) {
                p.pile_count = p.pile_count.saturating_sub(1);
                p.hand.push(Held::Sealed(*commitment));
            }
        }
        CommonEvent::CardRevealed { commitment, card, .. } => {
            for p in &mut s.players {
                for h in &mut p.hand {
                    if *h == Held::Sealed(*commitment) {
                        *h = Held::Known(card.clone());
                        // Already counted out of the pile when it was drawn sealed.
                        p.pile.remove(card);
                    }
                }
            }
        }
        CommonEvent::CardMoved { card, from, to, .. } => {
            let owner = LcState::owner(card).unwrap_or(0);
            let (Some(from), Some(to)) = (Zone::parse(from), Zone::parse(to)) else { return };
            let took = match from {
                Zone::DrawPile | Zone::DrawPileBottom => {
                    let was = s.players.get_mut(owner).is_some_and(|p| p.pile.remove(card));
                    if was {
                        if let Some(p) = s.players.get_mut(owner) {
                            p.pile_count = p.pile_count.saturating_sub(1);
                        }
                        s.ledger.deck_order_lost(&pile_name(owner));
                    }
                    was
                }
                _ => remove_anywhere(s, card),
            };
            if !took {
                remove_anywhere(s, card);
            }
            put(s, owner, to, card);
        }
        CommonEvent::CounterSet { seat: Some(seat), counter, value, .. } => {
            if let Some(p) = s.players.get_mut(*seat) {
                let v = i32::try_from(*value).unwrap_or(if *value < 0 { i32::MIN } else { i32::MAX });
                match counter.as_str() {
                    "combat-points" => p.points = v,
                    "attack-line-points" => p.attack_points = u32::try_from(v).unwrap_or(0),
                    "defense-line-points" => p.defense_points = u32::try_from(v).unwrap_or(0),
                    _ => {}
                }
            }
        }
        _ => {}
    }
}

/// Puts a card into a zone of `seat`.
fn put(s: &mut LcState, seat: Seat, zone: Zone, card: &str) {
    let Some(p) = s.players.get_mut(seat) else { return };
    match zone {
        Zone::DrawPile | Zone::DrawPileBottom => {
            p.pile.insert(card.to_string());
            p.pile_count += 1;
            let name = pile_name(seat);
            if zone == Zone::DrawPile {
                s.ledger.deck_put_top(&name, card);
            } else {
                s.ledger.deck_put_bottom(&name, card);
            }
        }
        Zone::Hand => p.hand.push(Held::Known(card.to_string())),
        Zone::DeadZone => p.dead.push(card.to_string()),
        Zone::Attack | Zone::Defense | Zone::Strategy => {
            let line = zone.line().unwrap_or(Line::Strategy);
            p.line_mut(line).push(FieldCard { card: card.to_string(), ..FieldCard::default() });
        }
    }
}

/// Removes a card from wherever the fold has it (hand, field, attachment, Dead Zone); false if nowhere.
fn remove_anywhere(s: &mut LcState, card: &str) -> bool {
    for p in &mut s.players {
        if let Some(i) = p.hand.iter().position(|h| h.known() == Some(card)) {
            p.hand.remove(i);
            return true;
        }
        if let Some((l, i)) = p.find(card) {
            let f = p.line_mut(l).remove(i);
            p.dead.extend(f.attachments);
            return true;
        }
        for l in Line::ALL {
            for f in p.line_mut(l) {
                if let Some(i) = f.attachments.iter().position(|a| a == card) {
                    f.attachments.remove(i);
                    return true;
                }
            }
        }
        if let Some(i) = p.dead.iter().position(|c| c == card) {
            p.dead.remove(i);
            return true;
        }
    }
    false
}

/// Sends a field card (with its attachments) or an attachment to its owner's Dead Zone.
fn to_dead_zone(s: &mut LcState, card: &str) {
    let owner = LcState::owner(card).unwrap_or(0);
    for p in &mut s.players {
        if let Some((l, i)) = p.find(card) {
            let f = p.line_mut(l).remove(i);
            p.dead.push(f.card);
            p.dead.extend(f.attachments);
            s.modifiers.retain(|m| m.target != card);
            return;
        }
    }
    if remove_anywhere(s, card) {
        if let Some(p) = s.players.get_mut(owner) {
            p.dead.push(card.to_string());
        }
    }
}

/// Takes a card from `seat`'s hand: the named card, else (it was drawn sealed) one sealed card.
fn take_from_hand(s: &mut LcState, seat: Seat, card: &str) {
    let Some(p) = s.players.get_mut(seat) else { return };
    if let Some(i) = p.hand.iter().position(|h| h.known() == Some(card)) {
        p.hand.remove(i);
    } else if let Some(i) = p.hand.iter().position(|h| h.known().is_none()) {
        p.hand.remove(i);
        p.pile.remove(card);
    } else {
        remove_anywhere(s, card);
    }
}

/// Takes a card from the top of `seat`'s Draw Pile into their hand.
fn draw(s: &mut LcState, seat: Seat, card: &CardRef) {
    let name = pile_name(seat);
    match card {
        CardRef::Open(c) => {
            let was = s.players.get_mut(seat).is_some_and(|p| p.pile.remove(c));
            if was {
                if let Some(p) = s.players.get_mut(seat) {
                    p.pile_count = p.pile_count.saturating_sub(1);
                }
                s.ledger.deck_took_top(&name, c);
            } else {
                remove_anywhere(s, c);
            }
            if let Some(p) = s.players.get_mut(seat) {
                p.hand.push(Held::Known(c.clone()));
            }
        }
        CardRef::Sealed(commitment) => {
            s.ledger.deck_took_top_sealed(&name, *commitment);
            if let Some(p) = s.players.get_mut(seat) {
                p.pile_count = p.pile_count.saturating_sub(1);
                p.hand.push(Held::Sealed(*commitment));
            }
        }
    }
}

fn lose_points(s: &mut LcState, seat: Seat, points: u32) {
    let clamp = s.policies.clamp_points;
    if let Some(p) = s.players.get_mut(seat) {
        let after = i64::from(p.points) - i64::from(points);
        let after = if clamp { after.max(0) } else { after };
        p.points = i32::try_from(after).unwrap_or(i32::MIN);
    }
}

fn acted(s: &mut LcState, put_down: bool) {
    if let Some(t) = s.turn.as_mut() {
        t.acted = true;
        if put_down {
            t.put_down += 1;
        }
    }
}

fn declared(s: &mut LcState) {
    if let Some(t) = s.turn.as_mut() {
        t.acted = true;
        t.attacked = true;
    }
}
