//! The FATE card file format, the plain-text deck-list format and deck registration checks.
//!
//! # Card catalog (JSON)
//!
//! The seed prints no card texts (FATE-CTX-1: players post their own), so players bring a
//! catalog: a JSON object with a `cards` array. Every field except `id`, `name` and `type` may
//! be left out.
//!
//! ```json
//! {
//!   "note": "where these facts come from",
//!   "cards": [
//!     { "id": "HS01", "name": "Knight of the Lake (invented)", "type": "heroic-spirit",
//!       "physical_attack": 3, "physical_defense": 2, "magical_attack": 1, "magical_defense": 1,
//!       "keywords": ["preemptive-strike"],
//!       "effects": [ { "name": "Substitute Battle", "kind": "activated", "cost": ["D1,2", "R2"] } ],
//!       "invented": true }
//!   ]
//! }
//! ```
//!
//! | field | meaning |
//! |---|---|
//! | `id`, `name` | the card number and name; invented cards say `(invented)` in the name |
//! | `type` | `heroic-spirit`, `class` (together they make a Servant, FATE-OPEN-2) or `secret-sign` |
//! | `physical_attack` .. `magical_defense` | the stats a Servant's two cards add up to (FATE-OPEN-12) |
//! | `keywords` | `preemptive-strike` (FATE-BATTLE-7) |
//! | `effects` | each `{name, kind: constant\|activated, cost: [..]}`; costs in the seed's symbols, paid left to right (FATE-COST-5): `T`, `R<n>`, `D<faces>` (e.g. `D1,2`), `E<n>`, `X` |
//! | `text` | the card text, for display; effect results are recorded, not enforced |
//! | `invented` | `true` for made-up cards |
//!
//! # Deck lists (plain text)
//!
//! One entry per line, `COUNT CARD-ID` (`2x SS01` too); `#` starts a comment. A deck needs at least
//! one Heroic Spirit and one Class card (the Servant set face down at the deal, FATE-OPEN-1/2) and
//! at least `min_deck` cards (a policy). Errors carry 1-based line numbers. Card instance
//! `p{seat}-{index}` is the deck's `index`-th card (0-based).

use serde::{Deserialize, Serialize};

pub use crate::game::catalog::DeckListError;
use crate::game::catalog::{CardLookup, CatalogCard, InvalidCard};
use crate::game::Violation;

/// A card definition FATE's own checks reject.
#[derive(Debug, thiserror::Error)]
pub enum CardError {
    #[error("card {card}: an invented card's name must say \"(invented)\"")]
    Invented { card: String },
    #[error("card {card}, effect {effect:?}: {cost}")]
    Cost { card: String, effect: String, cost: CostError },
}

/// A cost in the seed's notation ([`Cost::parse`]) that does not read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CostError {
    #[error("cost {cost:?}: {part:?} is not a number")]
    NotANumber { cost: String, part: String },
    #[error("cost {cost:?}: die faces must be 1..6")]
    DieFaces { cost: String },
    #[error("cost {cost:?} is not one of T, R<n>, D<faces>, E<n>, X")]
    Unknown { cost: String },
}

/// The sample catalog shipped with kifu.
pub const SAMPLE_CATALOG: &str = include_str!("sample-catalog.json");

/// A card type. Heroic Spirit and Class cards make up a Servant (FATE-OPEN-2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum CardType {
    HeroicSpirit,
    Class,
    SecretSign,
}

/// When an effect works (FATE-EFF-1/2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum EffectKind {
    Constant,
    Activated,
}

/// One cost symbol (FATE-COST-1..6).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub enum Cost {
    /// T: rest the card being used.
    Tap,
    /// R(n): rest n cards that are not resting.
    Rest(u8),
    /// D(n): roll one die; any listed face succeeds.
    Die(Vec<u8>),
    /// E(n): discard n cards from hand.
    Discard(u8),
    /// X: meaning unknown (FATE-OPEN-6).
    X,
}

impl Cost {
    /// Parses the seed's notation: `T`, `R2`, `D1,2`, `E1`, `X`.
    pub fn parse(text: &str) -> Result<Cost, CostError> {
        let t = text.trim();
        let num =
            |s: &str| s.parse::<u8>().map_err(|_| CostError::NotANumber { cost: t.to_string(), part: s.to_string() });
        match t.chars().next() {
            Some('T') if t == "T" => Ok(Cost::Tap),
            Some('X') if t == "X" => Ok(Cost::X),
            Some('R') => num(&t[1..]).map(Cost::Rest),
            Some('E') => num(&t[1..]).map(Cost::Discard),
            Some('D') => {
                let faces = t[1..].split(',').map(num).collect::<Result<Vec<u8>, CostError>>()?;
                if faces.is_empty() || faces.iter().any(|f| !(1..=6).contains(f)) {
                    return Err(CostError::DieFaces { cost: t.to_string() });
                }
                Ok(Cost::Die(faces))
            }
            _ => Err(CostError::Unknown { cost: t.to_string() }),
        }
    }

    pub fn label(&self) -> String {
        match self {
            Cost::Tap => "T".into(),
            Cost::Rest(n) => format!("R{n}"),
            Cost::Die(f) => format!("D{}", f.iter().map(u8::to_string).collect::<Vec<_>>().join(",")),
            Cost::Discard(n) => format!("E{n}"),
            Cost::X => "X".into(),
        }
    }
}

/// An effect printed on a card, as the catalog file states it (costs in the seed's notation).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct EffectDef {
    pub name: String,
    pub kind: EffectKind,
    #[serde(default)]
    pub cost: Vec<String>,
}

impl EffectDef {
    /// The parsed costs; the catalog check guarantees they parse, so a bad one is skipped.
    pub fn costs(&self) -> Vec<Cost> {
        self.cost.iter().filter_map(|c| Cost::parse(c).ok()).collect()
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
    pub physical_attack: i32,
    #[serde(default)]
    pub physical_defense: i32,
    #[serde(default)]
    pub magical_attack: i32,
    #[serde(default)]
    pub magical_defense: i32,
    #[serde(default)]
    pub keywords: Vec<String>,
    #[serde(default)]
    pub effects: Vec<EffectDef>,
    #[serde(default)]
    pub text: String,
    #[serde(default)]
    pub invented: bool,
}

impl CardDef {
    pub fn preemptive(&self) -> bool {
        self.keywords.iter().any(|k| k.eq_ignore_ascii_case("preemptive-strike"))
    }

    pub fn is_servant_part(&self) -> bool {
        matches!(self.kind, CardType::HeroicSpirit | CardType::Class)
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

    fn check(&self) -> Result<(), InvalidCard> {
        if self.invented && !self.name.contains("(invented)") {
            return Err(InvalidCard::new(CardError::Invented { card: self.id.clone() }));
        }
        for e in &self.effects {
            for c in &e.cost {
                Cost::parse(c).map_err(|cost| {
                    InvalidCard::new(CardError::Cost { card: self.id.clone(), effect: e.name.clone(), cost })
                })?;
            }
        }
        Ok(())
    }
}

/// Card definitions by id.
pub type Catalog = crate::game::catalog::Catalog<CardDef>;

/// Parses a plain-text deck list (`COUNT CARD-ID` lines) into card ids in list order.
pub use crate::game::catalog::parse_count_list as parse_deck_list;

/// Writes a deck as a deck list, grouping consecutive copies.
pub use crate::game::catalog::format_count_list as format_deck_list;

/// The smallest deck the sample format accepts when the `min_deck` policy is left alone.
pub const DEFAULT_MIN_DECK: u32 = 20;

/// Deck construction: a Servant's two kinds of card, and the minimum size (FATE-OPEN-1/2).
pub fn check_deck_with(deck: &[String], min_deck: u32, cards: &(impl CardLookup<CardDef> + ?Sized)) -> Vec<Violation> {
    let mut out = Vec::new();
    if deck.len() < min_deck as usize {
        out.push(Violation::new(
            "FATE-OPEN-1",
            format!("the deck has {} cards; the min_deck policy asks for at least {min_deck}", deck.len()),
        ));
    }
    let (mut spirits, mut classes) = (0, 0);
    for id in deck {
        match cards.card(id).map(|d| d.kind) {
            None => out.push(crate::game::catalog::unknown_card(id)),
            Some(CardType::HeroicSpirit) => spirits += 1,
            Some(CardType::Class) => classes += 1,
            Some(CardType::SecretSign) => {}
        }
    }
    if spirits == 0 || classes == 0 {
        out.push(Violation::new(
            "FATE-OPEN-2",
            format!("a deck needs a Heroic Spirit and a Class card to set its Servant; it has {spirits} and {classes}"),
        ));
    }
    out
}

/// Deck construction against a catalog with the default minimum size.
pub fn check_deck(deck: &[String], catalog: &Catalog) -> Vec<Violation> {
    check_deck_with(deck, DEFAULT_MIN_DECK, catalog)
}
