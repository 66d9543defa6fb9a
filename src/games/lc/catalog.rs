//! The LC card file format, the plain-text deck-list format and the deck checks.
//!
//! # Card catalog (JSON)
//!
//! The seed (digest §3) is the combat chapter of a longer rules text: it names card *kinds*
//! (Combat, Strategy, Protection, Equipment, Effect; LC-CARD-1) and the two values a line card
//! carries (Sword, Shield), but not a single card by name. So every card of the sample catalog is
//! made up and labelled `(invented)`. Players bring their own catalog: a JSON object with a
//! `cards` array.
//!
//! ```json
//! {
//!   "note": "where these facts come from",
//!   "cards": [
//!     { "id": "LC-C01", "name": "Iron Squire (invented)", "kind": "combat", "sword": 4, "shield": 3,
//!       "invented": true },
//!     { "id": "LC-E01", "name": "Long Spear (invented)", "kind": "equipment", "sword": 2, "invented": true },
//!     { "id": "LC-S01", "name": "War Drums (invented)", "kind": "strategy",
//!       "text": "The attacking card gets +1 Sword.", "invented": true }
//!   ]
//! }
//! ```
//!
//! | field | meaning |
//! |---|---|
//! | `id` | the card number, the catalog key |
//! | `name` | the card name |
//! | `kind` | `combat`, `strategy`, `protection`, `equipment` or `effect` (LC-CARD-1) |
//! | `sword`, `shield` | a Combat card's Sword (attack) and Shield (defense) values; for an Equipment or Effect card, what it adds to the card it is attached to (LC-CARD-2); 0 when left out |
//! | `text` | the card's text, for display; Strategy and Protection effects are card-defined (LC-OPEN-15) and recorded through the escape-hatch events |
//! | `invented` | `true` for made-up cards (every card of the sample catalog) |
//!
//! Values are bounded (−99..=99) so the attack arithmetic never overflows.
//!
//! # Deck lists (plain text)
//!
//! One entry per line, `COUNT CARD-ID` (`3 LC-C01`; `3x LC-C01` works too). `#` starts a comment;
//! blank lines are skipped. Errors carry 1-based line numbers.
//!
//! ```text
//! # Knights
//! 4 LC-C01
//! 2 LC-E01   # Long Spear
//! ```
//!
//! Instances: card `i` (0-based, in list order) of seat `s` is `p{s}-{i}`.
//!
//! # Deck rules
//!
//! The seed states none. The recorder asks only what the game needs to start: a Draw Pile that can
//! deal the opening hand of 5 (LC-REFILL-1), and at most [`MAX_DECK`] cards (a bound on input).

use serde::{Deserialize, Serialize};

use crate::game::catalog::CardLookup;
use crate::game::catalog::CatalogCard;
pub use crate::game::catalog::DeckListError;
use crate::game::catalog::InvalidCard;
use crate::game::Violation;

/// A card definition LC's own checks reject.
#[derive(Debug, thiserror::Error)]
pub enum CardError {
    #[error("card {card}: {what} {value} is out of range -99..=99")]
    ValueRange { card: String, what: &'static str, value: i32 },
    #[error("card {card}: a {kind} card has no Sword or Shield value (LC-CARD-1)")]
    NoValues { card: String, kind: &'static str },
    #[error("card {card}: an invented card's name says \"(invented)\"")]
    Invented { card: String },
}

/// The sample catalog shipped with kifu: invented cards only (the seed names none).
pub const SAMPLE_CATALOG: &str = include_str!("sample-catalog.json");

/// The most cards a registered deck may have (an input bound, not a rule of the seed).
pub const MAX_DECK: usize = 200;

/// The hand size the game keeps (LC-REFILL-1, LC-DISCARD-1).
pub const HAND_SIZE: usize = 5;

/// A card kind (LC-CARD-1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum CardKind {
    Combat,
    Strategy,
    Protection,
    Equipment,
    Effect,
}

impl CardKind {
    pub fn name(self) -> &'static str {
        match self {
            CardKind::Combat => "combat",
            CardKind::Strategy => "strategy",
            CardKind::Protection => "protection",
            CardKind::Equipment => "equipment",
            CardKind::Effect => "effect",
        }
    }

    /// Equipment and Effect cards are attached to a card (LC-CARD-1, LC-CARD-2).
    pub fn attaches(self) -> bool {
        matches!(self, CardKind::Equipment | CardKind::Effect)
    }
}

/// One card definition. Embedded in the game config, so it is a stored format: never add fields.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct CardDef {
    pub id: String,
    pub name: String,
    pub kind: CardKind,
    #[serde(default)]
    pub sword: i32,
    #[serde(default)]
    pub shield: i32,
    #[serde(default)]
    pub text: String,
    #[serde(default)]
    pub invented: bool,
}

impl CatalogCard for CardDef {
    const SAMPLE: &'static str = SAMPLE_CATALOG;

    fn id(&self) -> &str {
        &self.id
    }

    fn name(&self) -> &str {
        &self.name
    }

    /// Values stay small so sums of a card and its attachments cannot overflow; only cards that
    /// fight or attach carry values.
    fn check(&self) -> Result<(), InvalidCard> {
        let card = || self.id.clone();
        for (what, value) in [("sword", self.sword), ("shield", self.shield)] {
            if !(-99..=99).contains(&value) {
                return Err(InvalidCard::new(CardError::ValueRange { card: card(), what, value }));
            }
        }
        let carries = self.kind == CardKind::Combat || self.kind.attaches();
        if !carries && (self.sword != 0 || self.shield != 0) {
            return Err(InvalidCard::new(CardError::NoValues { card: card(), kind: self.kind.name() }));
        }
        if self.invented && !self.name.contains("(invented)") {
            return Err(InvalidCard::new(CardError::Invented { card: card() }));
        }
        Ok(())
    }
}

/// Card definitions by id.
pub type Catalog = crate::game::catalog::Catalog<CardDef>;

/// The deck-list format above: `parse_deck_list` reads it (card ids in list order, every id
/// checked against the catalog), `format_deck_list` writes it.
pub use crate::game::catalog::{format_count_list as format_deck_list, parse_count_list as parse_deck_list};

/// The deck checks against a catalog. Empty means the deck may be registered.
pub fn check_deck(deck: &[String], cards: &(impl CardLookup<CardDef> + ?Sized)) -> Vec<Violation> {
    let mut out = Vec::new();
    if deck.len() < HAND_SIZE {
        out.push(Violation::new(
            "LC-REFILL-1",
            format!("the deck has {} cards; the opening hand alone needs {HAND_SIZE}", deck.len()),
        ));
    }
    if deck.len() > MAX_DECK {
        out.push(Violation::new(
            "LC-OPEN-1",
            format!(
                "the deck has {} cards; the seed sets no deck size and kifu registers at most {MAX_DECK}",
                deck.len()
            ),
        ));
    }
    for id in deck {
        if cards.card(id).is_none() {
            out.push(crate::game::catalog::unknown_card(id));
        }
    }
    out
}
