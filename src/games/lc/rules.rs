//! `validate`: every LC rule an event would break, with its digest ID (§3). Pure; the fold is in
//! [`super::apply`].
//!
//! The recorder's own IDs:
//! - `KIFU-CARD-1`: a card the event names is not where the event says it comes from;
//! - `KIFU-CARD-2`: a card instance that no registered deck has;
//! - `KIFU-SEED-1`, `KIFU-SEAL-1`: a seed or sealed-card reveal that does not match its commitment;
//! - `KIFU-SEED-4`: a digital game's shuffle that does not name a committed, unrevealed seed.
//!
//! Rounds 1–3 follow the documented skeleton of the `opening_rounds` policy (LC-OPEN-1), which is
//! not from the seed: in them a player may put cards down (face up or down), attach, flip, full
//! discard, refill and pass; attacks, moves, strategies and protections wait for the Combat Phase
//! (LC-ROUND-1).

use super::catalog::{CardKind, HAND_SIZE};
use super::config::{DrawOrder, ProtectionFrom};
use super::events::{
    CardRef, CommonEvent, EndReason, LcEvent, Line, LinePointLost, PointsLost, ProtectFrom, Stat, Zone,
};
use super::state::{LcState, PlayerState};
use crate::game::{opponent, RuleId, Seat, Violation};

/// Every rule `event` would break if applied to `s`.
pub fn validate(s: &LcState, event: &LcEvent) -> Vec<Violation> {
    let mut c = Check::new(s);
    c.event(event);
    c.finish()
}

type Check<'a> = crate::game::check::Check<'a, LcState>;

/// The result the rules give the pending attack (LC-ATK-3/4, LC-DIRECT-2, LC-PROT, LC-OPEN-9).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expected {
    pub rule: RuleId,
    pub sword: i32,
    pub against: i32,
    pub destroyed: Vec<String>,
    pub points_lost: Vec<PointsLost>,
    pub line_points_lost: Vec<LinePointLost>,
    pub prevented: bool,
}

impl Expected {
    /// The `AttackResolved` event that records this result.
    pub fn event(self) -> LcEvent {
        LcEvent::AttackResolved {
            sword: self.sword,
            against: self.against,
            destroyed: self.destroyed,
            points_lost: self.points_lost,
            line_points_lost: self.line_points_lost,
            prevented: self.prevented,
        }
    }
}

/// Computes the pending attack's result from the cards' values, or `None` with no attack pending.
pub fn expected_result(s: &LcState) -> Option<Expected> {
    let a = s.attack.as_ref()?;
    let sword = s.value(&a.attacker, Stat::Sword);
    let defender = opponent(a.seat);
    let mut e = Expected {
        rule: "LC-DIRECT-2",
        sword,
        against: 0,
        destroyed: Vec::new(),
        points_lost: Vec::new(),
        line_points_lost: Vec::new(),
        prevented: a.protection.is_some(),
    };
    let Some(target) = &a.target else {
        if !e.prevented {
            e.points_lost.push(PointsLost { seat: defender, points: sword.max(0).unsigned_abs() });
        }
        return Some(e);
    };
    let line = s.on_field(target).map_or(Line::Attack, |(_, l, _)| l);
    let p = &s.policies;
    if line == Line::Defense {
        e.rule = "LC-ATK-4";
        e.against = s.value(target, Stat::Shield);
        if e.prevented {
            return Some(e);
        }
        let destroy = e.sword > e.against || (e.sword == e.against && p.shield_tie_destroys_defense);
        if destroy {
            e.destroyed.push(target.clone());
            e.line_points_lost.push(LinePointLost { seat: defender, line: Line::Defense });
        } else if e.sword < e.against {
            e.points_lost.push(PointsLost { seat: a.seat, points: (e.against - e.sword).unsigned_abs() });
        }
    } else {
        e.rule = "LC-ATK-3";
        e.against = s.value(target, Stat::Sword);
        if e.prevented {
            return Some(e);
        }
        let diff = (e.sword - e.against).unsigned_abs();
        if e.sword > e.against {
            e.destroyed.push(target.clone());
            e.points_lost.push(PointsLost { seat: defender, points: diff });
            e.line_points_lost.push(LinePointLost { seat: defender, line: Line::Attack });
        } else if e.sword < e.against {
            e.destroyed.push(a.attacker.clone());
            e.points_lost.push(PointsLost { seat: a.seat, points: diff });
            e.line_points_lost.push(LinePointLost { seat: a.seat, line: Line::Attack });
        } else if p.sword_tie_destroys_both {
            e.destroyed.extend([a.attacker.clone(), target.clone()]);
            e.line_points_lost.push(LinePointLost { seat: a.seat, line: Line::Attack });
            e.line_points_lost.push(LinePointLost { seat: defender, line: Line::Attack });
        }
    }
    Some(e)
}

fn sorted<T: Ord + Clone>(v: &[T]) -> Vec<T> {
    let mut v = v.to_vec();
    v.sort();
    v
}

impl Check<'_> {
    fn event(&mut self, event: &LcEvent) {
        use LcEvent::*;
        let s = self.state;
        let reveal = matches!(event, Common(CommonEvent::SeedRevealed { .. } | CommonEvent::CardRevealed { .. }));
        if s.result.is_some() && !reveal {
            self.violation("LC-END-1", "the game is over; only seed and card reveals may follow");
            return;
        }
        if !reveal && !matches!(event, GameEnded { .. }) {
            if let Some(r) = s.points_end() {
                self.violation("LC-END-1", format!("{}: the game ended; record GameEnded", r.describe()));
            }
        }
        match event {
            Common(c) => self.common(c),
            DeckShuffled { seat, by, seed } => self.shuffled(*seat, *by, seed.as_deref()),
            FirstPlayerChosen { first, .. } => {
                self.seat_exists(*first);
                if s.first.is_some() {
                    self.violation("LC-OPEN-1", "the first player was already chosen");
                }
            }
            OpeningHandDrawn { seat, cards } => self.opening_hand(*seat, cards),
            RoundStarted { round, first } => self.round_started(*round, *first),
            FullDiscarded { seat, discarded, drawn, cost } => self.full_discard(*seat, discarded, drawn, *cost),
            CardPutDown { seat, card, line, replaced, .. } => self.put_down(*seat, card, *line, replaced.as_deref()),
            CardAttached { seat, card, to } => self.attach(*seat, card, to),
            CardShifted { seat, card, to } => self.shift(*seat, card, *to),
            CardsFlipped { seat, cards } => self.flip(*seat, cards),
            StrategyActivated { seat, card, .. } => self.strategy(*seat, card),
            AttackDeclared { seat, attacker, target } => self.declare(*seat, attacker, Some(target)),
            DirectAttackDeclared { seat, attacker } => self.declare(*seat, attacker, None),
            ProtectionPlayed { seat, card, from } => self.protection(*seat, card, *from),
            AttackResolved { sword, against, destroyed, points_lost, line_points_lost, prevented } => {
                self.resolved(*sword, *against, destroyed, points_lost, line_points_lost, *prevented)
            }
            RefillDrawn { seat, cards } => self.refill(*seat, cards),
            TurnPassed { seat } => self.pass(*seat),
            GameEnded { reason, winners } => self.ended(*reason, winners),
            ModifierApplied { target, .. } => self.modifier(target),
            // What the card does is card-defined (LC-OPEN-15); whether it may be used now is not.
            StrategyPointsChanged { seat, card, .. } => self.strategy(*seat, card),
        }
    }

    /// `KIFU-SEAT-1`: the seat is one of the game's.
    fn seat_exists(&mut self, seat: Seat) -> bool {
        self.seat_ok(seat, self.state.players.len())
    }

    fn common(&mut self, c: &CommonEvent) {
        let s = self.state;
        let cx = crate::game::common::Context {
            ledger: &s.ledger,
            seats: s.players.len(),
            mode: s.shuffles,
            contributors: &[0, 1],
        };
        self.out.extend(crate::game::common::validate(&cx, c));
        match c {
            CommonEvent::CardRevealed { card, .. } => {
                self.known(card);
            }
            CommonEvent::TopCardTakenSealed { seat, deck, zone, .. } => {
                if *deck != super::state::pile_name(*seat) || zone != Zone::Hand.key() {
                    self.violation(
                        "KIFU-CARD-1",
                        format!("a sealed draw takes {}'s Draw Pile into the hand", s.name(*seat)),
                    );
                } else if s.players.get(*seat).is_some_and(|p| p.pile_count == 0) {
                    self.violation("KIFU-CARD-1", format!("{}'s Draw Pile is empty", s.name(*seat)));
                }
            }
            CommonEvent::CardMoved { card, from, to, .. } => {
                let (Some(from), Some(_)) = (Zone::parse(from), Zone::parse(to)) else {
                    let keys: Vec<&str> = Zone::ALL.iter().map(|z| z.key()).collect();
                    self.violation(
                        "KIFU-CARD-1",
                        format!("a move names LC zones ({}): {from:?} to {to:?}", keys.join(", ")),
                    );
                    return;
                };
                let owner = LcState::owner(card).unwrap_or(0);
                let attached = from.line().is_some() && s.players.get(owner).is_some_and(|p| p.host_of(card).is_some());
                // An attachment leaves whichever line its host is in.
                if !attached {
                    self.holds(owner, from, card);
                } else {
                    self.known(card);
                }
            }
            _ => {}
        }
    }

    fn modifier(&mut self, target: &str) {
        if self.state.field_card(target).is_none() {
            self.violation("KIFU-CARD-1", format!("{target} is not on the field"));
        }
    }

    fn shuffled(&mut self, seat: Seat, by: Seat, seed: Option<&str>) {
        let s = self.state;
        if !self.seat_exists(seat) || !self.seat_exists(by) {
            return;
        }
        if s.round > 0 || s.players.get(seat).is_some_and(|p| p.hand_drawn) {
            self.violation("LC-OPEN-1", "the skeleton shuffles a Draw Pile only before its opening hand is drawn");
        }
        self.out.extend(s.ledger.check_shuffle_seed(s.shuffles, seed));
    }

    /// Cards drawn from the top of `seat`'s pile: open ones exist, are in the pile and distinct;
    /// there are at most as many as the pile holds.
    fn drawn(&mut self, seat: Seat, cards: &[CardRef]) {
        let Some(p) = self.state.players.get(seat) else { return };
        let open: Vec<String> = cards.iter().filter_map(CardRef::open).cloned().collect();
        self.distinct(&open, "KIFU-CARD-1");
        for (i, c) in open.iter().enumerate() {
            // A card named twice is reported once, above.
            if !open[..i].contains(c) {
                self.holds(seat, Zone::DrawPile, c);
            }
        }
        if cards.len() > p.pile_count {
            self.violation("KIFU-CARD-1", format!("{} cards drawn from a Draw Pile of {}", cards.len(), p.pile_count));
        }
    }

    fn opening_hand(&mut self, seat: Seat, cards: &[CardRef]) {
        let s = self.state;
        if !self.seat_exists(seat) {
            return;
        }
        let p = s.players.get(seat).cloned().unwrap_or_default();
        if p.hand_drawn || s.round > 0 {
            self.violation("LC-OPEN-1", "the opening hand is drawn once, before the first round");
        }
        if !p.shuffled {
            self.violation("LC-OPEN-1", "the skeleton shuffles the Draw Pile before the opening hand");
        }
        if cards.len() != HAND_SIZE.min(p.pile_count) {
            self.violation(
                "LC-REFILL-1",
                format!("the opening hand has {} cards; the hand holds {HAND_SIZE}", cards.len()),
            );
        }
        self.drawn(seat, cards);
    }

    fn round_started(&mut self, round: u32, first: Seat) {
        let s = self.state;
        if !self.seat_exists(first) {
            return;
        }
        if s.first.is_none() || s.players.iter().any(|p| !p.hand_drawn) {
            self.violation(
                "LC-OPEN-1",
                "rounds start once the first player is chosen and both opening hands are drawn",
            );
        }
        if s.in_round() {
            self.violation("LC-ROUND-3", "the round is not over: every turn of it ends with a pass first");
        }
        let want = if s.round == 0 { s.first_round() } else { s.round + 1 };
        if round != want {
            self.violation("LC-ROUND-1", format!("round {round} recorded; the next round is {want}"));
        }
        let want_first = match (s.first, s.policies.round) {
            (Some(f), super::config::RoundKind::BothTurns) => Some(f),
            // One turn per round: the players alternate, starting with the first player.
            (Some(f), super::config::RoundKind::OneTurn) => {
                Some(if (round.saturating_sub(s.first_round())) % 2 == 0 { f } else { opponent(f) })
            }
            (None, _) => None,
        };
        if let Some(w) = want_first.filter(|w| *w != first) {
            self.violation("LC-OPEN-3", format!("{} takes the first turn of round {round} (policy round)", s.name(w)));
        }
        if s.pile_end() {
            self.violation(
                "LC-END-1",
                "a Draw Pile is empty at the start of the round: the game ends (record GameEnded)",
            );
        }
    }

    /// The event is `seat`'s own action in their turn, with no attack pending.
    fn own_turn(&mut self, seat: Seat, rule: RuleId) -> bool {
        let s = self.state;
        if !self.seat_exists(seat) {
            return false;
        }
        match &s.turn {
            None => {
                self.violation(rule, "no turn is under way");
                false
            }
            Some(t) if t.seat != seat => {
                self.violation(rule, format!("it is {}'s turn", s.name(t.seat)));
                false
            }
            Some(_) => {
                if s.attack.is_some() {
                    self.violation("LC-ATK-1", "an attack is pending; it is resolved first");
                }
                true
            }
        }
    }

    fn full_discard(&mut self, seat: Seat, discarded: &[String], drawn: &[CardRef], cost: u32) {
        let s = self.state;
        if !self.own_turn(seat, "LC-DISCARD-1") {
            return;
        }
        let Some(p) = s.players.get(seat) else { return };
        if s.turn.as_ref().is_some_and(|t| t.acted || t.discarded) {
            self.violation("LC-DISCARD-1", "a full discard is made at the start of the turn, before anything else");
        }
        if discarded.len() != p.hand.len() {
            self.violation(
                "LC-DISCARD-1",
                format!("a full discard sends the whole hand ({} cards), not {}", p.hand.len(), discarded.len()),
            );
        }
        if s.policies.full_discard_needs_five && !full_discard_hand(s, p) {
            self.violation(
                "LC-DISCARD-1",
                format!("a full discard needs all {HAND_SIZE} cards in hand (policy full_discard_hand)"),
            );
        }
        self.distinct(discarded, "KIFU-CARD-1");
        for c in discarded {
            self.holds(seat, Zone::Hand, c);
        }
        let want = HAND_SIZE.min(p.pile_count);
        if drawn.len() != want {
            self.violation("LC-DISCARD-1", format!("a full discard draws {want} new cards, not {}", drawn.len()));
        }
        self.drawn(seat, drawn);
        if cost != 10 {
            self.violation("LC-DISCARD-2", format!("a full discard costs 10 Combat Points, not {cost}"));
        }
        if s.policies.full_discard_above_ten && !full_discard_points(s, p) {
            self.violation(
                "LC-DISCARD-2",
                format!("{} points: a full discard needs more than 10 (policy full_discard_points)", p.points),
            );
        }
    }

    /// A card leaving `seat`'s hand for the field this turn: in the hand, before any attack
    /// (LC-ROUND-2) and before the refill under `after-attacks` (LC-ROUND-3).
    fn leaves_hand(&mut self, seat: Seat, card: &str) {
        let s = self.state;
        if let Some(t) = &s.turn {
            if t.attacked {
                self.violation("LC-ROUND-2", "cards are put onto the field before attacking");
            }
            if t.refilled && s.policies.draw_order == DrawOrder::AfterAttacks {
                self.violation("LC-ROUND-3", "the refill ends the turn's play; only the pass follows");
            }
        }
        self.holds(seat, Zone::Hand, card);
    }

    fn put_down(&mut self, seat: Seat, card: &str, line: Line, replaced: Option<&str>) {
        let s = self.state;
        if !self.own_turn(seat, "LC-ROUND-2") {
            return;
        }
        self.leaves_hand(seat, card);
        let Some(p) = s.players.get(seat) else { return };
        match (s.kind(card), line) {
            (Some(CardKind::Combat), Line::Attack | Line::Defense)
            | (Some(CardKind::Strategy | CardKind::Protection), Line::Strategy)
            | (None, _) => {}
            (Some(k), _) if k.attaches() => self.violation(
                "LC-CARD-1",
                format!("{card} is an {} card: it is attached to a card, not put in a line", k.name()),
            ),
            (Some(k), l) => {
                self.violation("LC-CARD-1", format!("a {} card does not go in the {} line", k.name(), l.name()))
            }
        }
        if let Some(points) = p.line_points(line).filter(|n| *n == 0) {
            self.violation(
                "LC-FIELD-3",
                format!(
                    "{}'s {} line points are {points}: no more cards from hand go there",
                    s.name(seat),
                    line.name()
                ),
            );
        }
        let full = p.line(line).len() >= s.policies.slots as usize;
        match replaced {
            None if full => self.violation(
                "LC-FIELD-2",
                format!("the {} line is full: a card of it goes to the Dead Zone to make room", line.name()),
            ),
            Some(old) if !full => {
                self.violation("LC-FIELD-2", format!("the {} line has a free slot; {old} is not replaced", line.name()))
            }
            Some(old) if !p.line(line).iter().any(|f| f.card == old) => self.violation(
                "LC-FIELD-2",
                format!("the replaced card {old} is not in {}'s {} line", s.name(seat), line.name()),
            ),
            _ => {}
        }
    }

    fn attach(&mut self, seat: Seat, card: &str, to: &str) {
        let s = self.state;
        if !self.own_turn(seat, "LC-ROUND-2") {
            return;
        }
        self.leaves_hand(seat, card);
        if let Some(k) = s.kind(card).filter(|k| !k.attaches()) {
            self.violation(
                "LC-CARD-1",
                format!("only Equipment and Effect cards are attached; {card} is a {} card", k.name()),
            );
        }
        let host = s.players.get(seat).and_then(|p| p.find(to));
        match host {
            Some((Line::Attack | Line::Defense, _)) => {}
            _ => {
                self.violation("LC-CARD-2", format!("{to} is not a card in {}'s Attack or Defense line", s.name(seat)))
            }
        }
    }

    /// Combat-Phase actions of the active player (LC-ROUND-1, LC-ROUND-2).
    fn combat_turn(&mut self, seat: Seat) -> bool {
        let s = self.state;
        if !self.own_turn(seat, "LC-MOVE-1") {
            return false;
        }
        if !s.combat_phase() {
            self.violation("LC-ROUND-1", format!("round {} is not the Combat Phase (round 4 on)", s.round));
        }
        true
    }

    fn shift(&mut self, seat: Seat, card: &str, to: Line) {
        let s = self.state;
        if !self.combat_turn(seat) {
            return;
        }
        let Some(p) = s.players.get(seat) else { return };
        let Some((from, i)) = p.find(card) else {
            self.violation("KIFU-CARD-1", format!("{card} is not on {}'s field", s.name(seat)));
            return;
        };
        if !matches!((from, to), (Line::Attack, Line::Defense) | (Line::Defense, Line::Attack)) {
            self.violation(
                "LC-MOVE-1",
                format!("cards move between the Attack and Defense lines, not {} to {}", from.name(), to.name()),
            );
            return;
        }
        if to == Line::Defense && p.line(from).get(i).is_some_and(|f| f.attacked) {
            self.violation(
                "LC-MOVE-1",
                format!("{card} attacked this round: it cannot go back to Defense until the round ends"),
            );
        }
        if p.line(to).len() >= s.policies.slots as usize {
            self.violation("LC-FIELD-1", format!("the {} line has no free slot", to.name()));
        }
    }

    fn flip(&mut self, seat: Seat, cards: &[String]) {
        let s = self.state;
        if !self.seat_exists(seat) {
            return;
        }
        if cards.is_empty() {
            self.violation("LC-FIELD-4", "a flip names the cards it turns face up");
        }
        for c in cards {
            match s.players.get(seat).and_then(|p| p.field_card(c)) {
                None => self.violation("KIFU-CARD-1", format!("{c} is not on {}'s field", s.name(seat))),
                Some(f) if !f.face_down => self.violation("LC-FIELD-4", format!("{c} is already face up")),
                Some(_) => {}
            }
        }
        // Outside an attack, only the active player turns their own cards (the placement rules, LC-OPEN-1).
        if s.attack.is_none() && s.active() != Some(seat) {
            self.violation("LC-ATK-2", "face-down cards are flipped to confront them, or by their owner in their turn");
        }
    }

    fn strategy(&mut self, seat: Seat, card: &str) {
        let s = self.state;
        if !self.seat_exists(seat) {
            return;
        }
        if s.active() != Some(seat) {
            self.violation("LC-ROUND-2", "Strategy cards are used by the active player against the opponent");
        }
        if !s.combat_phase() {
            self.violation("LC-ROUND-1", format!("round {} is not the Combat Phase (round 4 on)", s.round));
        }
        if let Some(k) = s.kind(card).filter(|k| *k != CardKind::Strategy) {
            self.violation("LC-CARD-1", format!("{card} is a {} card, not a Strategy card", k.name()));
        }
        let on_line = s.players.get(seat).and_then(|p| p.find(card)).is_some_and(|(l, _)| l == Line::Strategy);
        if !on_line {
            let where_ =
                if s.players.get(seat).is_some_and(|p| p.may_hold(card)) { "in the hand" } else { "not on the field" };
            self.violation(
                "LC-STRAT-1",
                format!("{card} is {where_}: strategies are activated only from the Strategy line"),
            );
        }
    }

    fn declare(&mut self, seat: Seat, attacker: &str, target: Option<&String>) {
        let s = self.state;
        if !self.combat_turn(seat) {
            return;
        }
        if let Some(t) = &s.turn {
            match s.policies.draw_order {
                DrawOrder::AfterAttacks if t.refilled => {
                    self.violation("LC-ROUND-3", "the refill comes after the attacks (policy draw_order)")
                }
                DrawOrder::BeforeAttacks if !t.refilled && s.refill_due(seat) > 0 => {
                    self.violation("LC-ROUND-4", "attacks come after putting down and drawing (policy draw_order)")
                }
                _ => {}
            }
        }
        let Some(p) = s.players.get(seat) else { return };
        match p.find(attacker) {
            Some((Line::Attack, i)) => {
                let f = &p.attack[i];
                if f.from_defense {
                    self.violation(
                        "LC-MOVE-2",
                        format!("{attacker} moved in from the Defense line this round: it cannot attack yet"),
                    );
                }
                if f.attacked && s.policies.attack_once_per_round {
                    self.violation(
                        "LC-ATK-5",
                        format!("{attacker} already attacked this round (policy attacks_per_card)"),
                    );
                }
            }
            _ => self.violation("LC-ATK-1", format!("{attacker} is not in {}'s Attack line", s.name(seat))),
        }
        let foe = opponent(seat);
        let Some(q) = s.players.get(foe) else { return };
        match target {
            Some(t) => match q.find(t) {
                Some((Line::Attack | Line::Defense, _)) => {}
                _ => self.violation("LC-ATK-1", format!("{t} is not in {}'s Attack or Defense line", s.name(foe))),
            },
            None => {
                if !q.attack.is_empty() || !q.defense.is_empty() {
                    self.violation(
                        "LC-DIRECT-1",
                        format!("{} still has cards in the Attack or Defense line", s.name(foe)),
                    );
                }
                if p.direct_used {
                    self.violation("LC-DIRECT-3", "only one Direct Attack per round");
                }
            }
        }
    }

    fn protection(&mut self, seat: Seat, card: &str, from: ProtectFrom) {
        let s = self.state;
        if !self.seat_exists(seat) {
            return;
        }
        match &s.attack {
            Some(a) if a.seat != seat => {
                if a.protection.is_some() {
                    self.violation("LC-PROT-1", "this attack was already protected against");
                }
            }
            _ => self
                .violation("LC-PROT-1", "Protection cards are used only in the opponent's turn, against their attack"),
        }
        if let Some(k) = s.kind(card).filter(|k| *k != CardKind::Protection) {
            self.violation("LC-CARD-1", format!("{card} is a {} card, not a Protection card", k.name()));
        }
        let allowed = matches!(
            (s.policies.protection_from, from),
            (ProtectionFrom::Either, _)
                | (ProtectionFrom::Hand, ProtectFrom::Hand)
                | (ProtectionFrom::Field, ProtectFrom::Field)
        );
        if !allowed {
            self.violation("LC-PROT-1", "the policy protection_from does not allow playing it from there (LC-OPEN-8)");
        }
        let zone = if from == ProtectFrom::Hand { Zone::Hand } else { Zone::Strategy };
        self.holds(seat, zone, card);
    }

    fn resolved(
        &mut self,
        sword: i32,
        against: i32,
        destroyed: &[String],
        points_lost: &[PointsLost],
        line_points_lost: &[LinePointLost],
        prevented: bool,
    ) {
        let s = self.state;
        let (Some(a), Some(e)) = (&s.attack, expected_result(s)) else {
            self.violation("LC-ATK-1", "no attack is pending");
            return;
        };
        // LC-ATK-2: face-down cards are flipped to compare, except the attacker's under Protection.
        if !e.prevented {
            let cards = std::iter::once(&a.attacker).chain(a.target.iter());
            for c in cards {
                if s.field_card(c).is_some_and(|f| f.face_down) {
                    self.violation("LC-ATK-2", format!("{c} is still face down: it is flipped up to compare values"));
                }
            }
        }
        if prevented != e.prevented {
            let rule = if a.target.is_none() { "LC-DIRECT-4" } else { "LC-PROT-1" };
            let what = if e.prevented { "a Protection card prevented it" } else { "no Protection card was used" };
            self.violation(rule, format!("the result says prevented={prevented}, but {what}"));
        }
        if a.target.is_some() && (sword, against) != (e.sword, e.against) {
            self.violation(
                "LC-CARD-2",
                format!(
                    "recorded {sword} against {against}; the cards' values with attachments are {} against {}",
                    e.sword, e.against
                ),
            );
        } else if a.target.is_none() && sword != e.sword {
            self.violation("LC-DIRECT-2", format!("recorded Sword {sword}; {} has Sword {}", a.attacker, e.sword));
        }
        if sorted(destroyed) != sorted(&e.destroyed) {
            self.violation(
                e.rule,
                format!("destroyed {destroyed:?}; {} against {} destroys {:?}", e.sword, e.against, e.destroyed),
            );
        }
        let key = |v: &[PointsLost]| sorted(&v.iter().map(|p| (p.seat, p.points)).collect::<Vec<_>>());
        if key(points_lost) != key(&e.points_lost) {
            self.violation(
                e.rule,
                format!(
                    "points lost {:?}; {} against {} costs {:?}",
                    key(points_lost),
                    e.sword,
                    e.against,
                    key(&e.points_lost)
                ),
            );
        }
        let lkey = |v: &[LinePointLost]| sorted(&v.iter().map(|p| (p.seat, p.line)).collect::<Vec<_>>());
        if lkey(line_points_lost) != lkey(&e.line_points_lost) {
            self.violation(
                e.rule,
                format!(
                    "line points lost {:?}; the rules take {:?}",
                    lkey(line_points_lost),
                    lkey(&e.line_points_lost)
                ),
            );
        }
    }

    fn refill(&mut self, seat: Seat, cards: &[CardRef]) {
        let s = self.state;
        if !self.own_turn(seat, "LC-REFILL-1") {
            return;
        }
        if s.turn.as_ref().is_some_and(|t| t.refilled) {
            self.violation("LC-REFILL-1", "the refill is drawn once per turn");
        }
        let due = s.refill_due(seat);
        if cards.len() != due {
            let how = if s.policies.refill_put_down_count { "as many as were put down" } else { "up to 5 in hand" };
            self.violation("LC-REFILL-1", format!("the refill draws {due} cards ({how}), not {}", cards.len()));
        }
        self.drawn(seat, cards);
    }

    fn pass(&mut self, seat: Seat) {
        let s = self.state;
        if !self.own_turn(seat, "LC-ROUND-3") {
            return;
        }
        if s.turn.as_ref().is_some_and(|t| !t.refilled) && s.refill_due(seat) > 0 {
            self.violation(
                "LC-REFILL-1",
                format!("{} draws {} cards before passing", s.name(seat), s.refill_due(seat)),
            );
        }
    }

    fn ended(&mut self, reason: EndReason, winners: &[Seat]) {
        let s = self.state;
        let holds = match reason {
            EndReason::ZeroPoints | EndReason::BothZero => s.points_end() == Some(reason),
            EndReason::EmptyDrawPile => s.pile_end(),
        };
        if !holds {
            self.violation("LC-END-1", format!("{}: the board does not show it", reason.describe()));
            return;
        }
        let want = s.winners_for(reason);
        if sorted(winners) != want {
            let rule = match reason {
                EndReason::BothZero => "LC-END-2",
                _ => "LC-END-3",
            };
            self.violation(rule, format!("winners {winners:?}; the rules give {want:?}"));
        }
    }
}

/// LC-DISCARD-1 under `full_discard_hand`: a full discard needs the whole hand of five.
fn full_discard_hand(s: &LcState, p: &PlayerState) -> bool {
    !s.policies.full_discard_needs_five || p.hand.len() == HAND_SIZE
}

/// LC-DISCARD-2 under `full_discard_points`: a full discard needs more than 10 Combat Points.
fn full_discard_points(s: &LcState, p: &PlayerState) -> bool {
    !s.policies.full_discard_above_ten || p.points > 10
}

/// Whether `p`'s hand and points let it make a full discard under the game's policies: the
/// option is offered only then, so a pick of it is never refused for what the seat cannot change.
pub fn full_discard_open(s: &LcState, p: &PlayerState) -> bool {
    full_discard_hand(s, p) && full_discard_points(s, p)
}
