//! The card file format users bring, the plain-text deck-list format, and deck registration checks (NAR-DECK-2..4).
//!
//! # Card catalog (JSON)
//!
//! The seeds print no card texts (digest §0.3), so players bring their own catalog: a JSON object
//! with a `cards` array. Every field except `id`, `name` and `type` may be left out.
//!
//! ```json
//! {
//!   "note": "free text about where these facts come from",
//!   "cards": [
//!     { "id": "N008", "name": "Iruka", "type": "ninja", "elements": [],
//!       "entry_cost": 2, "hand_cost": 0,
//!       "attack": 0, "support": 0, "injured_attack": 0, "injured_support": 0,
//!       "statuses": [], "mental_power": null, "effect": "" },
//!     { "id": "M003", "name": "Leaf Headband", "type": "mission", "elements": ["Lightning"],
//!       "entry_cost": 2, "permanent": false }
//!   ]
//! }
//! ```
//!
//! | field | meaning |
//! |---|---|
//! | `id` | the printed card number, e.g. `N008` (NAR-CARD-5) |
//! | `name` | the card name; deck limits and ninja uniqueness go by name (NAR-DECK-4, NAR-NINJA-4, NAR-OPEN-3) |
//! | `type` | `ninja`, `mission`, `jutsu` or `client` (NAR-CARD-1, NAR-OPEN-1) |
//! | `elements` | element names, free text (NAR-OPEN-2); more than one for multi-element cards (NAR-CARD-6) |
//! | `entry_cost` | threshold compared with the turn marker (NAR-COST-1) |
//! | `hand_cost` | cards of the same element moved from hand to chakra (NAR-COST-2) |
//! | `jutsu_cost` | the jutsu's printed cost; how it is paid is NAR-OPEN-9, so it is only displayed |
//! | `attack`, `support` | healthy values (fields И, К) |
//! | `injured_attack`, `injured_support` | injured values (fields Л, М; NAR-DMG-4) |
//! | `statuses` | printed statuses, e.g. `"ambush"` (NAR-NINJA-3) |
//! | `mental_power` | optional, for mental battles (NAR-POWER-3, NAR-OPEN-10); missing counts as 0 |
//! | `permanent` | missions only: stays in the village after it is played (NAR-MISSION-6) |
//! | `combined` | ninja only: a combined ninja, exempt from the 30-ninja limit (NAR-DECK-3) |
//! | `effect` | the effect text, for display; effects are recorded, not enforced |
//! | `invented` | `true` for made-up test cards (the sample catalog marks every card the seeds do not name) |
//!
//! # Deck lists (plain text)
//!
//! One entry per line, `COUNT CARD-ID`, e.g. `3 N008`; `3x N008` is accepted too. `#` starts a
//! comment; blank lines are ignored. Errors carry 1-based line numbers.
//!
//! ```text
//! # Leaf aggro
//! 3 N008
//! 2 M003   # Leaf Headband
//! ```
//!
//! A deck expands to card ids in list order; card instance `p{seat}-{index}` is the deck's
//! `index`-th card (0-based), so `p0-17` is seat 0's 18th card.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::game::catalog::CardLookup;
use crate::game::catalog::CatalogCard;
pub use crate::game::catalog::DeckListError;
use crate::game::Violation;

/// The sample catalog shipped with kifu: the two real cards the seeds name plus invented test cards.
pub const SAMPLE_CATALOG: &str = include_str!("sample-catalog.json");

/// A card type (NAR-CARD-1; Client is the fourth type the rules use, NAR-OPEN-1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum CardType {
    Ninja,
    Mission,
    Jutsu,
    Client,
}

impl CardType {
    pub fn name(self) -> &'static str {
        match self {
            CardType::Ninja => "ninja",
            CardType::Mission => "mission",
            CardType::Jutsu => "jutsu",
            CardType::Client => "client",
        }
    }
}

/// One card definition. Embedded in the game config, so it is a stored format: never add fields.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct CardDef {
    pub id: String,
    pub name: String,
    #[serde(rename = "type")]
    pub kind: CardType,
    #[serde(default)]
    pub elements: Vec<String>,
    #[serde(default)]
    pub entry_cost: u32,
    #[serde(default)]
    pub hand_cost: u32,
    #[serde(default)]
    pub jutsu_cost: Option<u32>,
    #[serde(default)]
    pub attack: i32,
    #[serde(default)]
    pub support: i32,
    #[serde(default)]
    pub injured_attack: i32,
    #[serde(default)]
    pub injured_support: i32,
    #[serde(default)]
    pub statuses: Vec<String>,
    #[serde(default)]
    pub mental_power: Option<i32>,
    #[serde(default)]
    pub permanent: bool,
    #[serde(default)]
    pub combined: bool,
    #[serde(default)]
    pub effect: String,
    #[serde(default)]
    pub invented: bool,
}

impl CardDef {
    /// Whether the card has the printed Ambush status (NAR-NINJA-3).
    pub fn has_ambush(&self) -> bool {
        self.statuses.iter().any(|s| s.eq_ignore_ascii_case("ambush"))
    }

    pub fn has_element(&self, element: &str) -> bool {
        self.elements.iter().any(|e| e.eq_ignore_ascii_case(element))
    }
}

impl CatalogCard for CardDef {
    const SAMPLE: &'static str = SAMPLE_CATALOG;

    fn id(&self) -> &str {
        &self.id
    }

    fn name(&self) -> &str {
        &self.name
    }

    /// A ninja's costs, attack and support (injured values after a slash); other cards' cost.
    fn stats(&self) -> Vec<(String, String)> {
        let mut out = Vec::new();
        let mut put = |k: &str, v: String| out.push((k.to_string(), v));
        match self.kind {
            CardType::Ninja => {
                put("cost", self.entry_cost.to_string());
                if self.hand_cost != 0 {
                    put("hand cost", self.hand_cost.to_string());
                }
                put("attack", format!("{}/{}", self.attack, self.injured_attack));
                put("support", format!("{}/{}", self.support, self.injured_support));
            }
            CardType::Jutsu => put("cost", self.jutsu_cost.unwrap_or(self.hand_cost).to_string()),
            _ => put("cost", self.hand_cost.to_string()),
        }
        out
    }
}

/// Card definitions by id.
pub type Catalog = crate::game::catalog::Catalog<CardDef>;

/// Deck lists are `COUNT CARD-ID` lines, read and written by the shared parser.
pub use crate::game::catalog::{format_count_list as format_deck_list, parse_count_list as parse_deck_list};

/// Deck construction (NAR-DECK-2..4) against a catalog. Empty means the deck may be registered.
pub fn check_deck(deck: &[String], cards: &(impl CardLookup<CardDef> + ?Sized)) -> Vec<Violation> {
    let mut out = Vec::new();
    if deck.len() < 50 {
        out.push(Violation::new("NAR-DECK-2", format!("the deck has {} cards; at least 50 are required", deck.len())));
    }
    let mut ninja = 0usize;
    let mut by_name: BTreeMap<&str, usize> = BTreeMap::new();
    for id in deck {
        let Some(def) = cards.card(id) else {
            out.push(crate::game::catalog::unknown_card(id));
            continue;
        };
        if def.kind == CardType::Ninja && !def.combined {
            ninja += 1;
        }
        *by_name.entry(def.name.as_str()).or_default() += 1;
    }
    if ninja > 30 {
        out.push(Violation::new(
            "NAR-DECK-3",
            format!("the deck has {ninja} ninja (not counting combined ninja); at most 30 are allowed"),
        ));
    }
    for (name, n) in by_name {
        if n > 3 {
            out.push(Violation::new(
                "NAR-DECK-4",
                format!("the deck has {n} cards named {name:?}; at most 3 are allowed"),
            ));
        }
    }
    out
}
