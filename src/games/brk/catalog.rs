//! The BRK card file format, the plain-text squad-list format, and the skeleton's squad checks.
//!
//! # Card catalog (JSON)
//!
//! The seed (rules 526–529) prints no cards and names none: it only names kinds of game action
//! (attack, spell, effect, the "finishing blow"), protections and the "on death" / "on return to
//! deck" features. Every card of the sample catalog is therefore invented and says so in its name.
//! A catalog is a JSON object with a `cards` array:
//!
//! ```json
//! {
//!   "note": "where these facts come from",
//!   "cards": [
//!     { "id": "BRK-05", "name": "Runeward Knight (invented)", "lives": 5, "traits": ["knight"],
//!       "protections": [{ "name": "magic", "components": ["spell", "poison"] }],
//!       "markers": ["armor"],
//!       "abilities": [{ "name": "Strike", "kind": "attack", "amount": 2,
//!                       "cost": [{ "resource": "gold", "amount": 1 }], "tags": ["attack"] }] }
//!   ]
//! }
//! ```
//!
//! | field | meaning |
//! |---|---|
//! | `id`, `name` | the catalog key and the card name; invented cards say `(invented)` |
//! | `lives` | starting (and maximum) lives, 1–20 (skeleton, BRK-OPEN-1; "lives and wounds", BRK-FRAG-4) |
//! | `traits` | properties an ability may require of its target ("a card with [X]", BRK-HID-9) |
//! | `protections` | each `{name, components}`; one component is simple protection, several a complex one (BRK-PROT-1..3) |
//! | `markers` | markers the card enters play with; a card that starts hidden gets them on reveal (BRK-HID-2) |
//! | `abilities` | the card's game actions, see below |
//!
//! An ability: `name`; `kind` (`attack`, `spell`, `finishing-blow`, `heal`, `marker`, `block`,
//! `interrupt`); `amount` (wounds, lives healed, markers placed); `cost` (a list of
//! `{resource: gold|lives, amount}`; payment has no source or target, BRK-FRAG-1); `trigger`
//! (`activated`, the default, `on-death` or `on-return-to-deck`, BRK-BLOCK-3); `tags` (what the
//! action is, for protection: `spell`, `poison`, ...); `requires` (a trait the target must have,
//! BRK-HID-9); `marker` (the marker kind a `marker` ability places); `pierces` (features used
//! against a protection: `{protection}` for the whole complex, `{protection, component}` for one
//! component, BRK-PROT-3).
//!
//! # Squad lists (plain text)
//!
//! One entry per line, `COUNT CARD-ID` (`2 BRK-01`; `2x BRK-01` too). `#` starts a comment.
//! Errors carry 1-based line numbers. The seed has no deck rules (BRK-OPEN-1); the skeleton's
//! squad is 5 to 15 cards, one per cell of a 3×5 side. Instance `p{seat}-{i}` is the squad's `i`-th card.

use serde::{Deserialize, Serialize};

pub use crate::game::catalog::DeckListError;
use crate::game::catalog::{parse_count_list, push_deck_entries, CardLookup, CatalogCard, InvalidCard};
use crate::game::Violation;

/// A card definition BRK's own checks reject.
#[derive(Debug, thiserror::Error)]
pub enum CardError {
    #[error("card {card}: lives {lives} is out of range 1..=20")]
    Lives { card: String, lives: u8 },
    #[error("card {card}: too many abilities, protections, traits or markers (at most 8, 8, 16, 8)")]
    TooMany { card: String },
    #[error("card {card}: protection {protection:?} needs a name and 1 to 8 components")]
    Protection { card: String, protection: String },
    #[error("card {card}: an ability needs a name")]
    UnnamedAbility { card: String },
    #[error("card {card}: marker ability {ability:?} needs a `marker` kind")]
    MarkerKind { card: String, ability: String },
    #[error("card {card}: ability {ability:?} has an amount over 20 or too many costs, tags or pierces")]
    AbilityBounds { card: String, ability: String },
    #[error("card {card}: ability {ability:?}: blocks and interrupts are activated")]
    NotActivated { card: String, ability: String },
}

/// The sample catalog shipped with kifu: invented cards only (the seed names none).
pub const SAMPLE_CATALOG: &str = include_str!("sample-catalog.json");

/// Skeleton squad size (BRK-OPEN-1): at least this many cards...
pub const MIN_SQUAD: usize = 5;
/// ...and at most one per cell of a side.
pub const MAX_SQUAD: usize = 15;

/// What a game action does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum AbilityKind {
    /// Deals `amount` wounds.
    Attack,
    /// Deals `amount` wounds (a spell).
    Spell,
    /// Deals `amount` wounds; legal only while the target has at most `amount` lives (BRK-INT-5).
    FinishingBlow,
    /// Restores up to `amount` lives.
    Heal,
    /// Places `amount` markers of kind `marker`.
    Marker,
    /// Blocks a game action on the stack (BRK-BLOCK); not declared on its own.
    Block,
    /// Interrupts a game action on the stack by card text (BRK-INT-1); not declared on its own.
    Interrupt,
}

impl AbilityKind {
    pub fn name(self) -> &'static str {
        match self {
            AbilityKind::Attack => "attack",
            AbilityKind::Spell => "spell",
            AbilityKind::FinishingBlow => "finishing blow",
            AbilityKind::Heal => "heal",
            AbilityKind::Marker => "marker",
            AbilityKind::Block => "block",
            AbilityKind::Interrupt => "interrupt",
        }
    }

    /// Whether the ability goes on the stack as a declared game action (blocks and interrupts act on one).
    pub fn is_declared(self) -> bool {
        !matches!(self, AbilityKind::Block | AbilityKind::Interrupt)
    }
}

/// When an ability may be used.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Trigger {
    /// By a card in play, once per turn (BRK-FRAG-6).
    #[default]
    Activated,
    /// «при гибели»: by the card once it is in the graveyard (BRK-BLOCK-3).
    OnDeath,
    /// «при возвращении в колоду»: by the card once it is back in the deck (BRK-BLOCK-3).
    OnReturnToDeck,
}

/// A resource a payment is made in (BRK-FRAG-1: a payment has no source and no target).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Resource {
    /// From the controller's gold (skeleton, BRK-OPEN-1).
    Gold,
    /// Lives of the paying card, lost without an effect, so protection never stops them.
    Lives,
}

/// An amount of one resource.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ResourceAmount {
    pub resource: Resource,
    pub amount: u8,
}

/// A protection: simple with one component, complex with several (BRK-PROT-1, BRK-PROT-2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ProtectionDef {
    pub name: String,
    pub components: Vec<String>,
}

/// A feature used against a protection (BRK-PROT-3): against the whole complex (`component`
/// absent: each component separately), or against one component.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Pierce {
    pub protection: String,
    #[serde(default)]
    pub component: Option<String>,
}

/// One game action a card can take.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct AbilityDef {
    pub name: String,
    pub kind: AbilityKind,
    #[serde(default)]
    pub amount: u8,
    #[serde(default)]
    pub cost: Vec<ResourceAmount>,
    #[serde(default)]
    pub trigger: Trigger,
    #[serde(default)]
    pub tags: Vec<String>,
    #[serde(default)]
    pub requires: Option<String>,
    #[serde(default)]
    pub marker: Option<String>,
    #[serde(default)]
    pub pierces: Vec<Pierce>,
}

/// One card definition.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct CardDef {
    pub id: String,
    pub name: String,
    pub lives: u8,
    #[serde(default)]
    pub traits: Vec<String>,
    #[serde(default)]
    pub protections: Vec<ProtectionDef>,
    #[serde(default)]
    pub markers: Vec<String>,
    #[serde(default)]
    pub abilities: Vec<AbilityDef>,
}

impl CardDef {
    pub fn has_trait(&self, t: &str) -> bool {
        self.traits.iter().any(|x| x == t)
    }

    pub fn ability(&self, i: u8) -> Option<&AbilityDef> {
        self.abilities.get(usize::from(i))
    }

    /// The index of this card's first ability of `kind`, if any.
    pub fn ability_of(&self, kind: AbilityKind) -> Option<u8> {
        self.abilities.iter().position(|a| a.kind == kind).and_then(|i| u8::try_from(i).ok())
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
        let card = || self.id.clone();
        let invalid = |e: CardError| Err(InvalidCard::new(e));
        if self.lives == 0 || self.lives > 20 {
            return invalid(CardError::Lives { card: card(), lives: self.lives });
        }
        if self.abilities.len() > 8 || self.protections.len() > 8 || self.traits.len() > 16 || self.markers.len() > 8 {
            return invalid(CardError::TooMany { card: card() });
        }
        for p in &self.protections {
            if p.name.trim().is_empty() || p.components.is_empty() || p.components.len() > 8 {
                return invalid(CardError::Protection { card: card(), protection: p.name.clone() });
            }
        }
        for a in &self.abilities {
            let ability = || a.name.clone();
            if a.name.trim().is_empty() {
                return invalid(CardError::UnnamedAbility { card: card() });
            }
            if a.kind == AbilityKind::Marker && a.marker.is_none() {
                return invalid(CardError::MarkerKind { card: card(), ability: ability() });
            }
            if a.amount > 20 || a.cost.len() > 4 || a.tags.len() > 8 || a.pierces.len() > 8 {
                return invalid(CardError::AbilityBounds { card: card(), ability: ability() });
            }
            if a.trigger != Trigger::Activated && !a.kind.is_declared() {
                return invalid(CardError::NotActivated { card: card(), ability: ability() });
            }
        }
        Ok(())
    }
}

/// Card definitions by id; loading rejects impossible cards (see [`CardDef::check`]).
pub type Catalog = crate::game::catalog::Catalog<CardDef>;

/// A registered squad: card ids in list order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeckList {
    pub cards: Vec<String>,
}

/// Parses a squad list against `catalog`; every bad line is reported with its number.
pub fn parse_deck_list(text: &str, catalog: &Catalog) -> Result<DeckList, Vec<DeckListError>> {
    parse_count_list(text, catalog).map(|cards| DeckList { cards })
}

/// Writes a squad in the list format.
pub fn write_deck_list(deck: &DeckList) -> String {
    let mut out = String::new();
    push_deck_entries(&mut out, &deck.cards);
    out
}

/// The skeleton's squad rule (BRK-OPEN-1): 5 to 15 known cards.
pub fn check_deck(deck: &DeckList, cards: &(impl CardLookup<CardDef> + ?Sized)) -> Vec<Violation> {
    let mut out = Vec::new();
    let n = deck.cards.len();
    if !(MIN_SQUAD..=MAX_SQUAD).contains(&n) {
        out.push(Violation::new(
            "BRK-OPEN-1",
            format!("the skeleton's squad has {MIN_SQUAD} to {MAX_SQUAD} cards (one per cell); this one has {n}"),
        ));
    }
    for id in &deck.cards {
        if cards.card(id).is_none() {
            out.push(crate::game::catalog::unknown_card(id));
        }
    }
    out
}
