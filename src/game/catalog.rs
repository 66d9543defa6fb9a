//! The card catalog container and the deck-list line syntax every game shares; each game keeps its
//! own card fields and documents its file format in its `catalog` module.

use std::collections::BTreeMap;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::game::policy::PolicyError;
use crate::game::{NewGame, Violation};

/// A catalog file kifu cannot use.
#[derive(Debug, Error)]
pub enum CatalogError {
    #[error("catalog is not valid JSON of the documented shape: {0}")]
    Json(serde_json::Error),
    #[error("card {id:?} needs a non-empty id and name")]
    Unnamed { id: String },
    /// The game's own checks rejected a card ([`CatalogCard::check`]).
    #[error(transparent)]
    Card(#[from] InvalidCard),
    #[error("card id {id} appears twice in the catalog")]
    Duplicate { id: String },
}

/// A card a game's own checks reject, as that game's error type (each game's `catalog::CardError`).
#[derive(Debug, Error)]
#[error(transparent)]
pub struct InvalidCard(pub Box<dyn std::error::Error + Send + Sync>);

impl InvalidCard {
    pub fn new(e: impl std::error::Error + Send + Sync + 'static) -> Self {
        InvalidCard(Box::new(e))
    }
}

/// A deck-list entry that could not be read ([`parse_deck_entry`]).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum DeckEntryError {
    /// Not two words; `expected` names what the game's format allows on a line.
    #[error("expected {expected}, got {line:?}")]
    Shape { expected: String, line: String },
    #[error("{count:?} is not a card count")]
    Count { count: String },
    #[error("count {n} is out of range 1..=60")]
    CountRange { n: usize },
    #[error("card {id} is not in the catalog")]
    UnknownCard { id: String },
}

/// One reason a `kifu game new` request does not make a configuration ([`super::Game::new_config`]).
/// Each renders as one line of the error kifu prints.
#[derive(Debug, Error)]
pub enum ConfigProblem {
    /// The catalog file given with the request.
    #[error("catalog: {0}")]
    Catalog(CatalogError),
    /// `KIFU-SEAT-2`: a player count the game does not seat, or not one deck per player.
    #[error(
        "KIFU-SEAT-2: {players} players and {decks} deck lists; the game seats {seats} players, one --deck each, in seat order"
    )]
    Seats { players: usize, decks: usize, seats: super::SeatRange },
    /// A line of deck `deck` (1-based, in seat order) that could not be read.
    #[error("deck {deck}: {error}")]
    DeckLine { deck: usize, error: DeckListError },
    /// A deck-construction rule `who`'s deck breaks (an unknown card is a `KIFU-CARD-2`).
    #[error("{who}'s deck: {violation}")]
    Deck { who: String, violation: Violation },
    /// A rule the configuration as built breaks (a card a header cannot embed is a `KIFU-CARD-2`).
    #[error("{0}")]
    Setup(Violation),
    /// A `--policy KEY=VALUE` the game does not accept.
    #[error(transparent)]
    Policy(#[from] PolicyError),
}

impl ConfigProblem {
    /// The rule a problem breaks, when it is a rule.
    pub fn rule(&self) -> Option<super::RuleId> {
        match self {
            ConfigProblem::Seats { .. } => Some("KIFU-SEAT-2"),
            ConfigProblem::Deck { violation, .. } | ConfigProblem::Setup(violation) => Some(violation.rule),
            _ => None,
        }
    }
}

/// A game's card definition, as the catalog container needs to see it.
pub trait CatalogCard: DeserializeOwned {
    /// The sample catalog file shipped with kifu (`include_str!("sample-catalog.json")`), which
    /// [`Catalog::sample`] reads.
    const SAMPLE: &'static str;
    /// The printed card number, the catalog key.
    fn id(&self) -> &str;
    fn name(&self) -> &str;
    /// The printed numbers a card tile shows ("cost" = "3"), in the game's own terms.
    fn stats(&self) -> Vec<(String, String)> {
        Vec::new()
    }
    /// The game's own checks on one card (e.g. a trigger on a grade-0 unit only).
    fn check(&self) -> Result<(), InvalidCard> {
        Ok(())
    }
}

/// The catalog file: a JSON object with a `cards` array (each game documents its card fields).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct CatalogFile<C> {
    #[serde(default)]
    pub note: String,
    pub cards: Vec<C>,
}

/// Card definitions by id.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Catalog<C> {
    pub cards: BTreeMap<String, C>,
}

// Written out because the derive would demand `C: Default`, which no card type needs.
impl<C> Default for Catalog<C> {
    fn default() -> Self {
        Catalog { cards: BTreeMap::new() }
    }
}

impl<C> Catalog<C> {
    pub fn get(&self, id: &str) -> Option<&C> {
        self.cards.get(id)
    }
}

impl<C: CatalogCard> Catalog<C> {
    /// Parses a catalog file; rejects duplicate ids, empty names and cards the game's own checks reject.
    pub fn from_json(text: &str) -> Result<Self, CatalogError> {
        let file: CatalogFile<C> = serde_json::from_str(text).map_err(CatalogError::Json)?;
        Self::from_cards(file.cards)
    }

    pub fn from_cards(cards: Vec<C>) -> Result<Self, CatalogError> {
        let mut out = BTreeMap::new();
        for card in cards {
            if card.id().trim().is_empty() || card.name().trim().is_empty() {
                return Err(CatalogError::Unnamed { id: card.id().to_string() });
            }
            card.check()?;
            if let Some(old) = out.insert(card.id().to_string(), card) {
                return Err(CatalogError::Duplicate { id: old.id().to_string() });
            }
        }
        Ok(Catalog { cards: out })
    }

    /// The game's sample catalog ([`CatalogCard::SAMPLE`]), used when a user brings none.
    pub fn sample() -> Self {
        Self::embedded(C::SAMPLE)
    }

    /// A catalog embedded in the binary (a game's sample catalog).
    pub fn embedded(text: &str) -> Self {
        // The embedded file is checked by a test, so an error here means a broken build artifact;
        // an empty catalog keeps this path panic-free all the same.
        Self::from_json(text).unwrap_or_default()
    }
}

/// A deck-list line that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeckListError {
    /// 1-based line number.
    pub line: usize,
    pub message: String,
}

impl std::fmt::Display for DeckListError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

/// The lines of a deck list that say something, with 1-based line numbers: `#` starts a comment,
/// blank lines are skipped.
pub fn deck_list_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines().enumerate().filter_map(|(i, raw)| {
        let line = raw.split('#').next().unwrap_or("").trim();
        (!line.is_empty()).then_some((i + 1, line))
    })
}

/// One `COUNT CARD-ID` entry (`3 N008`; `3x N008` too) whose card is in `catalog`: the count and
/// the id. `expected` names what the game's format allows on a line, for the error message.
pub fn parse_deck_entry<'a, C>(
    line: &'a str,
    catalog: &Catalog<C>,
    expected: &str,
) -> Result<(usize, &'a str), DeckEntryError> {
    let mut parts = line.split_whitespace();
    let (Some(count), Some(id), None) = (parts.next(), parts.next(), parts.next()) else {
        return Err(DeckEntryError::Shape { expected: expected.to_string(), line: line.to_string() });
    };
    let digits = count.strip_suffix(['x', 'X']).unwrap_or(count);
    let Ok(n) = digits.parse::<usize>() else {
        return Err(DeckEntryError::Count { count: count.to_string() });
    };
    if n == 0 || n > 60 {
        return Err(DeckEntryError::CountRange { n });
    }
    if catalog.get(id).is_none() {
        return Err(DeckEntryError::UnknownCard { id: id.to_string() });
    }
    Ok((n, id))
}

/// Writes cards as deck-list entries, grouping consecutive copies.
pub fn push_deck_entries(out: &mut String, cards: &[String]) {
    for group in cards.chunk_by(|a, b| a == b) {
        out.push_str(&format!("{} {}\n", group.len(), group[0]));
    }
}

/// A deck list of `COUNT CARD-ID` lines ([`parse_deck_entry`]) as card ids in list order, every
/// id checked against `catalog`; every unreadable line is reported.
pub fn parse_count_list<C>(text: &str, catalog: &Catalog<C>) -> Result<Vec<String>, Vec<DeckListError>> {
    let mut deck = Vec::new();
    let mut errors = Vec::new();
    for (line, text) in deck_list_lines(text) {
        match parse_deck_entry(text, catalog, "`COUNT CARD-ID`") {
            Ok((n, id)) => deck.extend(std::iter::repeat_n(id.to_string(), n)),
            Err(e) => errors.push(DeckListError { line, message: e.to_string() }),
        }
    }
    if errors.is_empty() {
        Ok(deck)
    } else {
        Err(errors)
    }
}

/// A deck as `COUNT CARD-ID` lines, grouping consecutive copies: what [`parse_count_list`] reads.
pub fn format_count_list(deck: &[String]) -> String {
    let mut out = String::new();
    push_deck_entries(&mut out, deck);
    out
}

/// `ID Name (instance)`: how views name a card instance, or the bare instance if no deck has it.
pub fn instance_label<C: CatalogCard>(def: Option<&C>, instance: &str) -> String {
    match def {
        Some(d) => format!("{} {} ({instance})", d.id(), d.name()),
        None => instance.to_string(),
    }
}

/// How a game reads one deck-list text and checks the deck it names.
pub struct DeckFormat<C, D> {
    /// How many players the game seats (`KIFU-SEAT-2`), each bringing one deck.
    pub seats: super::SeatRange,
    pub parse: fn(&str, &Catalog<C>) -> Result<D, Vec<DeckListError>>,
    pub check: fn(&D, &Catalog<C>) -> Vec<Violation>,
}

/// The catalog and the decks of a `kifu game new` request: the given catalog file or `sample`, and
/// one parsed deck per player, in seat order. Every unreadable line and every deck-construction
/// violation is reported (one line each, naming the deck), not just the first.
pub fn read_new_game<C: CatalogCard, D>(
    request: &NewGame<'_>,
    sample: fn() -> Catalog<C>,
    format: DeckFormat<C, D>,
) -> Result<(Catalog<C>, Vec<D>), Vec<ConfigProblem>> {
    let catalog = match request.catalog {
        Some(text) => Catalog::from_json(text).map_err(|e| vec![ConfigProblem::Catalog(e)])?,
        None => sample(),
    };
    if request.decks.len() != request.players.len() || !format.seats.contains(request.players.len()) {
        return Err(vec![ConfigProblem::Seats {
            players: request.players.len(),
            decks: request.decks.len(),
            seats: format.seats,
        }]);
    }
    let mut problems = Vec::new();
    let mut decks = Vec::new();
    for (seat, text) in request.decks.iter().enumerate() {
        match (format.parse)(text, &catalog) {
            Ok(deck) => {
                let who = request.players.get(seat).map_or("?", String::as_str);
                problems.extend(
                    (format.check)(&deck, &catalog)
                        .into_iter()
                        .map(|violation| ConfigProblem::Deck { who: who.to_string(), violation }),
                );
                decks.push(deck);
            }
            Err(errors) => {
                problems.extend(errors.into_iter().map(|error| ConfigProblem::DeckLine { deck: seat + 1, error }))
            }
        }
    }
    if problems.is_empty() {
        Ok((catalog, decks))
    } else {
        Err(problems)
    }
}

/// A game configuration built from a `kifu game new` request, the one way for every game: the
/// catalog and decks ([`read_new_game`]), then `build(players, decks, catalog)`, then each
/// `KEY=VALUE` policy through `set_policy`, in order.
pub fn config_from_request<C: CatalogCard, D, Cfg>(
    request: &NewGame<'_>,
    sample: fn() -> Catalog<C>,
    format: DeckFormat<C, D>,
    build: impl FnOnce(Vec<String>, Vec<D>, &Catalog<C>) -> Result<Cfg, Vec<Violation>>,
    set_policy: impl Fn(&mut Cfg, &str, &str) -> Result<(), PolicyError>,
) -> Result<Cfg, Vec<ConfigProblem>> {
    let (catalog, decks) = read_new_game(request, sample, format)?;
    let mut config = build(request.players.to_vec(), decks, &catalog)
        .map_err(|v| v.into_iter().map(ConfigProblem::Setup).collect::<Vec<_>>())?;
    for (key, value) in request.policies {
        set_policy(&mut config, key, value).map_err(|e| vec![ConfigProblem::Policy(e)])?;
    }
    Ok(config)
}

/// The definitions of every card `ids` names, once each in first-use order, to embed in a header
/// so a replay never needs the catalog; every id the catalog lacks is a `KIFU-CARD-2`.
pub fn embed_cards<'a, C: CatalogCard + Clone>(
    ids: impl IntoIterator<Item = &'a String>,
    catalog: &Catalog<C>,
) -> Result<Vec<C>, Vec<Violation>> {
    let mut cards: Vec<C> = Vec::new();
    let mut missing = Vec::new();
    for id in ids {
        if cards.iter().any(|c| c.id() == id) {
            continue;
        }
        match catalog.get(id) {
            Some(def) => cards.push(def.clone()),
            None => missing.push(unknown_card(id)),
        }
    }
    if missing.is_empty() {
        Ok(cards)
    } else {
        Err(missing)
    }
}

/// Where a deck check looks its cards up: the catalog a user brings to `kifu game new`, or the
/// definitions a header embeds (a slice). One deck check per game serves both.
pub trait CardLookup<C> {
    fn card(&self, id: &str) -> Option<&C>;
}

impl<C> CardLookup<C> for Catalog<C> {
    fn card(&self, id: &str) -> Option<&C> {
        self.get(id)
    }
}

impl<C: CatalogCard> CardLookup<C> for [C] {
    fn card(&self, id: &str) -> Option<&C> {
        embedded(self, id)
    }
}

/// `KIFU-CARD-2`: a deck names card `id`, which its catalog does not define. One wording for
/// every game's deck checks.
pub fn unknown_card(id: &str) -> Violation {
    Violation::new("KIFU-CARD-2", format!("card {id} is not in the catalog"))
}

/// The embedded definition of card `id`.
pub fn embedded<'a, C: CatalogCard>(cards: &'a [C], id: &str) -> Option<&'a C> {
    cards.iter().find(|c| c.id() == id)
}

/// The embedded definitions keyed by card id, for a state's lookups.
pub fn by_id<C: CatalogCard + Clone>(cards: &[C]) -> std::collections::BTreeMap<String, C> {
    cards.iter().map(|c| (c.id().to_string(), c.clone())).collect()
}
