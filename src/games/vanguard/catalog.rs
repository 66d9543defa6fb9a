//! The Vanguard card file format, the plain-text deck-list format, and deck construction checks (VG-DECK).
//!
//! # Card catalog (JSON)
//!
//! The seed prints no card statistics (digest §0.3): it names a few real cards and archetypes
//! (Liberator, Eradicator, Deletor, Dragon Knight Aleph, Hi-Dog Breeder Akane, ...) only to
//! illustrate rules. Players bring their own catalog: a JSON object with a `cards` array.
//!
//! ```json
//! {
//!   "note": "where these facts come from",
//!   "cards": [
//!     { "id": "T-001", "name": "Test Squire (invented)", "kind": "normal", "grade": 0,
//!       "power": 6000, "shield": 10000, "critical": 1, "clan": "Test Clan Alpha", "race": "Human",
//!       "keywords": ["forerunner"], "skill": "Forerunner.", "invented": true },
//!     { "id": "T-010", "name": "Test Medic (invented)", "kind": "trigger", "trigger": "heal",
//!       "grade": 0, "power": 5000, "shield": 10000, "clan": "Test Clan Alpha" },
//!     { "id": "TG-01", "name": "Test Ascendant (invented)", "kind": "g-unit", "grade": 4,
//!       "power": 15000, "clan": "Test Clan Alpha", "skill": "Generation Break 1: ..." }
//!   ]
//! }
//! ```
//!
//! | field | meaning |
//! |---|---|
//! | `id` | the printed card number |
//! | `name` | the card name; the 4-copy limit goes by name (VG-DECK-2, VG-CARD-1) |
//! | `kind` | `normal`, `trigger` or `g-unit` (VG-CARD-9) |
//! | `trigger` | `draw`, `critical`, `heal` or `stand`, for trigger units only (VG-TRIG; grade 0 only, VG-CARD-7) |
//! | `grade` | 0–4 (VG-CARD-6); G units are grade 4 (VG-STRIDE-6) |
//! | `power`, `shield` | VG-CARD-4, VG-CARD-5 (grade 3–4 units have no shield, VG-BATTLE-5) |
//! | `critical` | VG-CARD-10; 1 when left out |
//! | `clan`, `race` | VG-CARD-3, VG-CARD-2; the clan matters for trigger activation (VG-BATTLE-9) and Lord |
//! | `sentinel` | VG-KW-6: at most four per deck |
//! | `keywords` | `forerunner`, `lord`, `restraint`, `limit-break-4`, `limit-break-5`, `generation-break-1`, `generation-break-2`, `legion` |
//! | `legion_mate` | for a legion leader: the name of its mate (VG-KW-8) |
//! | `skill` | the ability text, for display; effects are recorded, not enforced (VG-CARD-12) |
//! | `invented` | `true` for made-up test cards (every card of the sample catalog) |
//!
//! # Deck lists (plain text)
//!
//! One entry per line, `COUNT CARD-ID` (`4 T-001`; `4x T-001` works too). `#` starts a comment.
//! A line `[main]` or `[g]` starts the main deck or the G deck section; the main deck is the
//! default. Cards are registered in the section they are listed in, so a G unit listed under
//! `[main]` is reported (VG-DECK-6) rather than silently moved. Errors carry 1-based line numbers.
//!
//! ```text
//! # Alpha test deck
//! [main]
//! 4 T-001
//! [g]
//! 2 TG-01
//! ```
//!
//! Instances: main-deck card `i` of seat `s` is `p{s}-{i}`, G-deck card `i` is `p{s}-g{i}`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

pub use crate::game::catalog::DeckListError;
use crate::game::catalog::{
    deck_list_lines, parse_deck_entry, push_deck_entries, CardLookup, CatalogCard, InvalidCard,
};

/// A card definition Vanguard's own checks reject.
#[derive(Debug, thiserror::Error)]
pub enum CardError {
    #[error("card {card}: a trigger unit has a trigger type, and only a trigger unit")]
    TriggerType { card: String },
    #[error("card {card}: VG-CARD-7: only grade-0 units have triggers")]
    TriggerGrade { card: String },
    #[error("card {card}: VG-CARD-6: grades are 0..=4")]
    Grade { card: String },
}
use crate::game::Violation;

/// The sample catalog shipped with kifu: invented test cards only (the seed gives no card statistics).
pub const SAMPLE_CATALOG: &str = include_str!("sample-catalog.json");

/// What a unit is (VG-CARD-9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum CardKind {
    Normal,
    Trigger,
    GUnit,
}

/// A trigger icon (VG-TRIG-3..6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum TriggerType {
    Draw,
    Critical,
    Heal,
    Stand,
}

impl TriggerType {
    pub fn name(self) -> &'static str {
        match self {
            TriggerType::Draw => "draw",
            TriggerType::Critical => "critical",
            TriggerType::Heal => "heal",
            TriggerType::Stand => "stand",
        }
    }
}

fn one() -> u32 {
    1
}

/// One card definition. Embedded in the game config, so it is a stored format: never add fields.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct CardDef {
    pub id: String,
    pub name: String,
    pub kind: CardKind,
    #[serde(default)]
    pub trigger: Option<TriggerType>,
    #[serde(default)]
    pub grade: u8,
    #[serde(default)]
    pub power: i32,
    #[serde(default)]
    pub shield: i32,
    #[serde(default = "one")]
    pub critical: u32,
    #[serde(default)]
    pub clan: String,
    #[serde(default)]
    pub race: String,
    #[serde(default)]
    pub sentinel: bool,
    #[serde(default)]
    pub keywords: Vec<String>,
    #[serde(default)]
    pub legion_mate: Option<String>,
    #[serde(default)]
    pub skill: String,
    #[serde(default)]
    pub invented: bool,
}

impl CardDef {
    pub fn has(&self, keyword: &str) -> bool {
        self.keywords.iter().any(|k| k.eq_ignore_ascii_case(keyword))
    }

    pub fn is_g_unit(&self) -> bool {
        self.kind == CardKind::GUnit
    }

    /// Limit Break N (VG-KW-7): the damage the effect needs, if the card has one.
    pub fn limit_break(&self) -> Option<usize> {
        self.keywords.iter().find_map(|k| k.strip_prefix("limit-break-").and_then(|n| n.parse().ok()))
    }

    /// Generation Break N (VG-KW-10): the face-up G units the effect needs, if the card has one.
    pub fn generation_break(&self) -> Option<usize> {
        self.keywords.iter().find_map(|k| k.strip_prefix("generation-break-").and_then(|n| n.parse().ok()))
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

    /// Grade, power, shield, a critical other than 1, and the trigger icon.
    fn stats(&self) -> Vec<(String, String)> {
        let mut out = vec![
            ("grade".to_string(), self.grade.to_string()),
            ("power".to_string(), self.power.to_string()),
            ("shield".to_string(), self.shield.to_string()),
        ];
        if self.critical != 1 {
            out.push(("critical".to_string(), self.critical.to_string()));
        }
        if let Some(t) = self.trigger {
            out.push(("trigger".to_string(), t.name().to_string()));
        }
        out
    }

    /// Impossible cards: a trigger icon on a unit that is not a grade-0 trigger unit (VG-CARD-7),
    /// grades above 4 (VG-CARD-6).
    fn check(&self) -> Result<(), InvalidCard> {
        let card = self.id.clone();
        let trigger_unit = self.kind == CardKind::Trigger;
        if trigger_unit != self.trigger.is_some() {
            return Err(InvalidCard::new(CardError::TriggerType { card }));
        }
        if trigger_unit && self.grade != 0 {
            return Err(InvalidCard::new(CardError::TriggerGrade { card }));
        }
        if self.grade > 4 {
            return Err(InvalidCard::new(CardError::Grade { card }));
        }
        Ok(())
    }
}

/// Card definitions by id; loading rejects impossible cards (see [`CardDef::check`]).
pub type Catalog = crate::game::catalog::Catalog<CardDef>;

/// A registered deck: the main deck and the G deck, as card ids in list order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeckList {
    pub main: Vec<String>,
    pub g: Vec<String>,
}

/// Parses a plain-text deck list, checking every id against `catalog`.
pub fn parse_deck_list(text: &str, catalog: &Catalog) -> Result<DeckList, Vec<DeckListError>> {
    let mut deck = DeckList::default();
    let mut in_g = false;
    let mut errors = Vec::new();
    for (line, text) in deck_list_lines(text) {
        match text.to_ascii_lowercase().as_str() {
            "[main]" => {
                in_g = false;
                continue;
            }
            "[g]" => {
                in_g = true;
                continue;
            }
            _ => {}
        }
        match parse_deck_entry(text, catalog, "`COUNT CARD-ID`, `[main]` or `[g]`") {
            Ok((n, id)) => {
                let target = if in_g { &mut deck.g } else { &mut deck.main };
                target.extend(std::iter::repeat_n(id.to_string(), n));
            }
            Err(e) => errors.push(DeckListError { line, message: e.to_string() }),
        }
    }
    if errors.is_empty() {
        Ok(deck)
    } else {
        Err(errors)
    }
}

/// Writes a deck as a deck list, grouping consecutive copies.
pub fn format_deck_list(deck: &DeckList) -> String {
    let mut out = String::from("[main]\n");
    push_deck_entries(&mut out, &deck.main);
    out.push_str("[g]\n");
    push_deck_entries(&mut out, &deck.g);
    out
}

/// Deck construction (VG-DECK-1..6, VG-ZONE-7) against a catalog. Empty means the deck may be registered.
pub fn check_deck(deck: &DeckList, cards: &(impl CardLookup<CardDef> + ?Sized)) -> Vec<Violation> {
    let mut out = Vec::new();
    if deck.main.len() != 50 {
        out.push(Violation::new(
            "VG-DECK-1",
            format!("the main deck has {} cards; exactly 50 are required", deck.main.len()),
        ));
    }
    let (mut triggers, mut heals, mut sentinels, mut grade0) = (0usize, 0usize, 0usize, 0usize);
    let mut by_name: BTreeMap<&str, usize> = BTreeMap::new();
    for id in &deck.main {
        let Some(def) = cards.card(id) else {
            out.push(crate::game::catalog::unknown_card(id));
            continue;
        };
        if def.is_g_unit() {
            out.push(Violation::new(
                "VG-DECK-6",
                format!("{id} ({}) is a G unit: G units cannot be in the main deck", def.name),
            ));
        }
        if def.kind == CardKind::Trigger {
            triggers += 1;
        }
        if def.trigger == Some(TriggerType::Heal) {
            heals += 1;
        }
        if def.sentinel {
            sentinels += 1;
        }
        if def.grade == 0 && !def.is_g_unit() {
            grade0 += 1;
        }
        *by_name.entry(def.name.as_str()).or_default() += 1;
    }
    for (name, n) in by_name {
        if n > 4 {
            out.push(Violation::new(
                "VG-DECK-2",
                format!("the deck has {n} units named {name:?}; at most 4 are allowed"),
            ));
        }
    }
    if triggers != 16 {
        out.push(Violation::new(
            "VG-DECK-3",
            format!("the deck has {triggers} trigger units; exactly 16 are required"),
        ));
    }
    if heals > 4 {
        out.push(Violation::new("VG-DECK-4", format!("the deck has {heals} heal triggers; at most 4 are allowed")));
    }
    if sentinels > 4 {
        out.push(Violation::new("VG-DECK-5", format!("the deck has {sentinels} sentinels; at most 4 are allowed")));
    }
    if grade0 == 0 {
        out.push(Violation::new("VG-SETUP-1", "the deck has no grade-0 unit to be the starting vanguard"));
    }
    if deck.g.len() > 8 {
        out.push(Violation::new(
            "VG-DECK-6",
            format!("the G deck has {} cards; the G zone holds at most 8", deck.g.len()),
        ));
    }
    for id in &deck.g {
        match cards.card(id) {
            None => out.push(crate::game::catalog::unknown_card(id)),
            Some(def) if !def.is_g_unit() => out.push(Violation::new(
                "VG-ZONE-7",
                format!("{id} ({}) is not a G unit: the G zone holds only G units", def.name),
            )),
            Some(_) => {}
        }
    }
    out
}
