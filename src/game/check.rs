//! The rule-check scaffold every game's `validate` uses: a state under check and the violations
//! found so far, with the recorder's card checks ("knows the card": `KIFU-CARD-2`; "holds the
//! card": `KIFU-CARD-1`; "named twice") and the one seat check written once. A game adds its own
//! checks as an inherent `impl Check<'_, MyState>` in its `rules.rs`.

use std::collections::BTreeSet;

use super::{RuleId, Seat, Violation};

/// What the card checks need to know about a game state.
pub trait CardTable {
    /// The game's card definition.
    type Def;
    /// A place a card can be (a zone, a circle).
    type Zone: Copy;
    /// How a card with no whereabouts is described (sealed, or gone).
    const NOWHERE: &'static str;

    /// The definition of a card instance, if a registered deck has it.
    fn card_def(&self, card: &str) -> Option<&Self::Def>;
    /// Whether `seat`'s `zone` holds `card`.
    fn card_in(&self, seat: Seat, zone: Self::Zone, card: &str) -> bool;
    /// Where `card` is, if anyone may know.
    fn card_at(&self, card: &str) -> Option<(Seat, Self::Zone)>;
    fn zone_name(zone: Self::Zone) -> String;
    fn seat_name(&self, seat: Seat) -> String;
    /// How a card is named in a message.
    fn card_label(&self, card: &str) -> String {
        card.to_string()
    }
}

/// A state under check and the violations found so far.
pub struct Check<'a, S> {
    pub state: &'a S,
    pub out: Vec<Violation>,
}

impl<'a, S> Check<'a, S> {
    pub fn new(state: &'a S) -> Self {
        Check { state, out: Vec::new() }
    }

    /// Every violation found.
    pub fn finish(self) -> Vec<Violation> {
        self.out
    }

    /// Records a violation.
    pub fn violation(&mut self, rule: RuleId, msg: impl Into<String>) {
        self.out.push(Violation::new(rule, msg));
    }

    /// `seat` exists in a game of `seats` seats (`KIFU-SEAT-1`).
    pub fn seat_ok(&mut self, seat: Seat, seats: usize) -> bool {
        match super::rules::check_seat(seat, seats) {
            None => true,
            Some(v) => {
                self.out.push(v);
                false
            }
        }
    }

    /// No card is named twice (`rule`).
    pub fn distinct(&mut self, cards: &[String], rule: RuleId) {
        let mut seen = BTreeSet::new();
        for c in cards {
            if !seen.insert(c) {
                self.violation(rule, format!("{c} is named twice"));
            }
        }
    }
}

impl<'a, S: CardTable> Check<'a, S> {
    /// The card's definition, or `KIFU-CARD-2`: no registered deck has it.
    pub fn known(&mut self, card: &str) -> Option<&'a S::Def> {
        let s = self.state;
        let def = s.card_def(card);
        if def.is_none() {
            self.violation("KIFU-CARD-2", format!("{card} is not a card of either registered deck"));
        }
        def
    }

    /// `KIFU-CARD-1`: the card is in `seat`'s `zone` (and `KIFU-CARD-2` if no deck has it).
    pub fn holds(&mut self, seat: Seat, zone: S::Zone, card: &str) -> bool {
        if self.known(card).is_none() {
            return false;
        }
        self.holds_for("KIFU-CARD-1", seat, zone, card)
    }

    /// `rule`: the card is in `seat`'s `zone`, for a game whose rules say where a card comes from
    /// (a FATE draw from the deck, `FATE-TURN-2`); the message says where it is instead.
    pub fn holds_for(&mut self, rule: RuleId, seat: Seat, zone: S::Zone, card: &str) -> bool {
        let s = self.state;
        let ok = s.card_in(seat, zone, card);
        if !ok {
            let where_ = match s.card_at(card) {
                Some((owner, z)) => format!("it is in {}'s {}", s.seat_name(owner), S::zone_name(z)),
                None => S::NOWHERE.to_string(),
            };
            self.violation(
                rule,
                format!("{} is not in {}'s {}: {where_}", s.card_label(card), s.seat_name(seat), S::zone_name(zone)),
            );
        }
        ok
    }
}
