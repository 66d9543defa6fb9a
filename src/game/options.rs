//! Options: what a seat may record now. Each option carries a stable id for the state it was
//! offered in, the event it records, a label in the players' words, and the cards and zones it
//! concerns; a choice that takes a value is one option with a typed parameter and its allowed
//! values, not one option per value.
//!
//! A game lists its options with [`Game::options`](super::Game::options). Every option it lists
//! validates clean (the game keeps only what [`Game::validate`](super::Game::validate) accepts, so
//! there is one legality path), and a pick is validated again when it is recorded. The id is
//! derived from the number of events the state stands after and what the seat sees of the option
//! ([`option_id`]), so an id offered before someone else acted is recognised as stale.

use std::collections::BTreeMap;

use serde::Serialize;

use super::{Game, Seat, Violation};

/// What an option concerns, so a page can attach it to what a player taps.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Concern {
    /// A card, by its instance id (as the board view shows it to the seat).
    Card(String),
    /// A zone, by the name the board view gives it (e.g. "hand", "attack line").
    Zone(String),
}

/// The kind of value a parameter takes, so a page can draw the right control.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ParamKind {
    /// A number (a stepper): the values are numbers in order.
    Number,
    /// A card the seat picks (a card picker): the values are card instance ids.
    Card,
    /// A target on the board: the values are card instance ids to highlight.
    Target,
    /// One of a few named choices.
    Choice,
    /// Values only the seat's own device holds and kifu cannot list: a hash-chain link or the
    /// tip a seat commits to (FATE's dice chains), a card it sealed and the salt it sealed it
    /// with (BRK's hidden deployments and reveals). Any values are taken, as many as `count`, in
    /// the form [`Param::secret`] describes (a seat's page makes them from it); the rules check them when the pick is validated (a link must
    /// hash to the last one, a reveal must open its seal). `values` may list hints (the seat's
    /// own cards) or be empty.
    Secret,
    /// Cards kifu deals as the dealer of a digital game ([`crate::game::dealer`]): the seat picks
    /// the option and sends no values; kifu fills them from the seed it holds when the pick is
    /// recorded, so no seat sees the order before it draws. `values` is empty.
    Dealt,
}

/// One value a parameter may take.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ParamValue {
    /// What the pick sends back.
    pub value: String,
    /// What the seat reads ("Iruka", "3").
    pub label: String,
    /// Values of one group exclude each other: a pick takes at most one value of a group (one
    /// team per ninja, one throw per round), so a parameter whose values constrain each other
    /// is offered in a shape that cannot be filled against the constraint. `None`: free.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    /// A second group the value belongs to, where each value answers two questions that each
    /// take one answer (a blocking team and the attacking team it blocks, under a policy that
    /// lets one team block each attacker): a pick takes at most one value of it too.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub also: Option<String>,
}

impl ParamValue {
    /// A value of no group.
    pub fn new(value: String, label: String) -> Self {
        ParamValue { value, label, group: None, also: None }
    }

    /// The groups the value belongs to (none, one or two): a pick takes one value of each.
    pub fn groups(&self) -> impl Iterator<Item = &str> {
        self.group.as_deref().into_iter().chain(self.also.as_deref())
    }
}

/// A parameter of an option: `count` values picked among `values` (a value may be picked more
/// than once when `repeats` says so, as copies of one card in a pile).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Param {
    pub name: &'static str,
    pub label: String,
    pub kind: ParamKind,
    /// How many values one pick takes (the cards drawn, for instance); 1 for a single value.
    pub count: usize,
    pub values: Vec<ParamValue>,
    /// For a [`ParamKind::Secret`] parameter, what the secret is, so the seat's page can make,
    /// keep and reveal it by itself (the player never sees a hash). Every secret parameter a game
    /// offers carries one; other kinds carry none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub secret: Option<SecretForm>,
}

impl Param {
    /// "Which cards": `count` cards named `cards` among `values` (drawn, discarded, rested).
    pub fn cards(label: String, count: usize, values: Vec<ParamValue>) -> Self {
        Param { name: "cards", label, kind: ParamKind::Card, count, values, secret: None }
    }
}

/// What a [`ParamKind::Secret`] parameter's values are, in machine-readable form (API output
/// only, never stored): the page acts on it, not on the game. Hex is 64 lowercase digits; the
/// hashes are the ones [`crate::game::commit`] specifies. The page keeps what it made in the
/// browser's storage under the game and seat until it is revealed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "form")]
pub enum SecretForm {
    /// Commit to a fresh seed named `key`: the page makes 32 random bytes, keeps them, and sends
    /// `[hex(commit_seed(seed))]`.
    SeedCommitment { key: String },
    /// Reveal the seed named `key` the page committed to: it sends `[hex(seed)]`.
    SeedReveal { key: String },
    /// Commit to a hash chain named `key` of `length` links: the page makes a 32-byte secret
    /// `c[0]`, keeps it, and sends the tip `[hex(c[length])]`.
    ChainTip { key: String, length: u32 },
    /// Reveal the next link of the chain named `key`, `revealed` links having been revealed so
    /// far: the page sends `[hex(c[length - 1 - revealed])]`.
    ChainLink { key: String, revealed: u32 },
    /// Place each card the parameter's values list on one of `places`, each place at most once,
    /// face up or sealed: the page sends one value per card, in the order of `places`,
    /// `{place}:open:{card}` for a face-up card and `{place}:sealed:{hex(seal(card, salt))}` for
    /// a face-down one, keeping the card and its fresh salt under the seal.
    SealedPlacement { places: Vec<String> },
    /// Open the seal `commitment` the page made: it sends `[card, hex(salt)]` it kept for it.
    CardProof { commitment: super::commit::Commitment },
}

/// How an option becomes an event.
#[derive(Clone, Debug)]
pub enum Pick<E> {
    /// The option records exactly this event.
    Event(E),
    /// The option records `fill(template, values)` for the values picked for `param`; `read`
    /// is its inverse (the values an event of this option carries), so an event recorded some
    /// other way can be matched to the option it is.
    Param { param: Param, template: E, fill: fn(&E, &[String]) -> Option<E>, read: fn(&E) -> Option<Vec<String>> },
}

/// An action a seat may record now.
#[derive(Clone, Debug)]
pub struct GameOption<E> {
    /// The seat whose action it is.
    pub seat: Seat,
    /// In the players' words: "Put down Sword Master face down in the attack line".
    pub label: String,
    pub concerns: Vec<Concern>,
    pub pick: Pick<E>,
}

impl<E> GameOption<E> {
    /// An option that records exactly `event`.
    pub fn event(seat: Seat, label: impl Into<String>, concerns: Vec<Concern>, event: E) -> Self {
        GameOption { seat, label: label.into(), concerns, pick: Pick::Event(event) }
    }

    /// The parameter, if the option takes one.
    pub fn param(&self) -> Option<&Param> {
        match &self.pick {
            Pick::Event(_) => None,
            Pick::Param { param, .. } => Some(param),
        }
    }
}

impl<E: PartialEq> GameOption<E> {
    /// Whether recording `event` is taking this option (with some allowed parameter values).
    pub fn offers(&self, event: &E) -> bool {
        match &self.pick {
            Pick::Event(e) => e == event,
            Pick::Param { param, template, fill, read } => read(event).is_some_and(|values| {
                values_allowed(param, &values).is_ok() && fill(template, &values).as_ref() == Some(event)
            }),
        }
    }
}

/// The id of an option offered after `len` events: `len`, a dash, and 16 hex digits of the
/// blake3 hash of what the seat sees of the option (its seat, label, concerns and parameter
/// name). Not of the event's bytes: an event may name what the seat may not see (a face-down
/// target's instance id), and a hash of it could be matched against the registered deck list.
/// Equal-looking options in one state are one option; the same action offered later has
/// another id, so a stale id is recognised by its number.
pub fn option_id<E>(len: u64, option: &GameOption<E>) -> String {
    let mut h = blake3::Hasher::new();
    h.update(b"kifu option v1\0");
    h.update(&[option.seat]);
    h.update(option.label.as_bytes());
    for c in &option.concerns {
        let (tag, text) = match c {
            Concern::Card(t) => (b"\0card\0", t),
            Concern::Zone(t) => (b"\0zone\0", t),
        };
        h.update(tag);
        h.update(text.as_bytes());
    }
    if let Some(p) = option.param() {
        h.update(b"\0param\0");
        h.update(p.name.as_bytes());
    }
    let hex = h.finalize().to_hex();
    format!("{len}-{}", &hex.as_str()[..16])
}

/// An option as the API and CLI show it.
#[derive(Clone, Debug, Serialize)]
pub struct OptionView {
    pub id: String,
    pub seat: Seat,
    pub label: String,
    pub concerns: Vec<Concern>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub param: Option<Param>,
    /// Recording it ends the game (a concession, a last point lost): a page asks before it
    /// records, since nothing can be played after it. Set by [`mark_ending`].
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub ends_game: bool,
    /// An action the seat may take although the game does not await it now (FATE's Command
    /// Spells, an effect activated in the opponent's turn): a page offers it apart and never
    /// says "your move" for it. Decided from the seat being awaited or not
    /// ([`crate::game::Position::awaited`]), public at a paper table. Set by [`mark_any_time`].
    pub any_time: bool,
}

/// The options a game offers `seats` after `len` events, as shown (ids computed, templates kept
/// inside). Options of the same action offered twice (two identical cards) are listed once.
pub fn views<E>(len: u64, options: &[GameOption<E>]) -> Vec<OptionView> {
    let mut seen = std::collections::BTreeSet::new();
    options
        .iter()
        .filter_map(|o| {
            let id = option_id(len, o);
            seen.insert(id.clone()).then(|| OptionView {
                id,
                seat: o.seat,
                label: o.label.clone(),
                concerns: o.concerns.clone(),
                param: o.param().cloned(),
                ends_game: false,
                any_time: false,
            })
        })
        .collect()
}

/// Marks the views of seats the game does not await (`awaited`) as any-time actions.
pub fn mark_any_time(awaited: &[Seat], views: &mut [OptionView]) {
    for v in views {
        v.any_time = !awaited.contains(&v.seat);
    }
}

/// The automatic steps looked through after an option's event to see whether the game ends.
const ENDING_LOOKAHEAD: usize = 8;

/// Whether `event`, with the automatic steps it makes due, ends the game.
fn ends_game<G: Game>(state: &G::State, event: &G::Event) -> bool {
    let mut s = G::apply(state.clone(), event);
    for _ in 0..ENDING_LOOKAHEAD {
        if G::outcome(&s).is_some() {
            return true;
        }
        match G::automatic(&s) {
            Some(step) => s = G::apply(s, &step),
            None => return false,
        }
    }
    G::outcome(&s).is_some()
}

/// Marks the views of the options among `options` (offered at `state`, after `len` events)
/// whose event ends the game once applied with its automatic steps. A parameter option is never
/// marked: which value is picked decides.
pub fn mark_ending<G: Game>(state: &G::State, len: u64, options: &[GameOption<G::Event>], views: &mut [OptionView]) {
    let ending: std::collections::BTreeSet<String> = options
        .iter()
        .filter(|o| matches!(&o.pick, Pick::Event(e) if ends_game::<G>(state, e)))
        .map(|o| option_id(len, o))
        .collect();
    for v in views.iter_mut() {
        v.ends_game = ending.contains(&v.id);
    }
}

/// Why a pick was refused. Nothing is recorded for any of them.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum PickError {
    /// The id was offered in an earlier state: someone acted first, or the game moved on.
    #[error("option {id} was offered after {offered} events; the game now stands after {now}: pick again")]
    Stale { id: String, offered: u64, now: u64 },
    /// No option of this state has the id.
    #[error("KIFU-OPT-1: no option {id} is open to you now")]
    Unknown { id: String },
    /// A parameter value that is not among its allowed values, or the wrong number of them.
    #[error("KIFU-OPT-2: {0}")]
    Param(String),
    /// The game has no options table yet (its actions are recorded as JSON events).
    #[error("{ruleset} has no options yet: record its actions as events")]
    NotWritten { ruleset: &'static str },
    /// The option's cards are dealt from a seed kifu does not hold (a digital game created
    /// elsewhere): its dealer records the draw.
    #[error("kifu is not this game's dealer: the cards of this draw are dealt by whoever holds its seed")]
    NoDealer,
    /// The rules refuse the picked event (a value combination the allowed values let through).
    #[error("{}", .0.iter().map(|v| format!("{}: {}", v.rule, v.message)).collect::<Vec<_>>().join("; "))]
    Refused(Vec<Violation>),
}

impl PickError {
    /// The rule ID that refuses the pick, if there is one.
    pub fn rule(&self) -> Option<&str> {
        match self {
            PickError::Unknown { .. } => Some("KIFU-OPT-1"),
            PickError::Param(_) => Some("KIFU-OPT-2"),
            PickError::Refused(v) => v.first().map(|v| v.rule),
            PickError::Stale { .. } | PickError::NotWritten { .. } | PickError::NoDealer => None,
        }
    }
}

/// Checks `values` against a parameter: the right number, each allowed, and no value picked
/// more often than it is offered (a value listed twice may be picked twice).
fn values_allowed(param: &Param, values: &[String]) -> Result<(), PickError> {
    if values.len() != param.count {
        return Err(PickError::Param(format!("{} takes {} value(s), {} given", param.name, param.count, values.len())));
    }
    if matches!(param.kind, ParamKind::Secret | ParamKind::Dealt) {
        // The seat's device supplies these: `fill` parses them and `validate` judges them.
        return Ok(());
    }
    let mut left: BTreeMap<&str, usize> = BTreeMap::new();
    for v in &param.values {
        *left.entry(v.value.as_str()).or_default() += 1;
    }
    for v in values {
        match left.get_mut(v.as_str()) {
            Some(n) if *n > 0 => *n -= 1,
            _ => return Err(PickError::Param(format!("{v:?} is not an allowed value of {}", param.name))),
        }
    }
    let mut groups = std::collections::BTreeSet::new();
    for v in values {
        let Some(value) = param.values.iter().find(|p| p.value == *v) else { continue };
        if let Some(g) = value.groups().find(|g| !groups.insert(*g)) {
            return Err(PickError::Param(format!("{} takes one value of {g}", param.name)));
        }
    }
    Ok(())
}

/// The event a pick records: the option with `id` among `options` (offered after `len` events,
/// to a seat in `seats`), filled with `params` (parameter name → values), validated against
/// `state`. `Stale` when the id names another state, `Unknown` when no option of these seats has
/// it, `Param` for a value outside the allowed ones, `Refused` when the rules refuse the result.
pub fn resolve<G: Game>(
    state: &G::State,
    len: u64,
    options: &[GameOption<G::Event>],
    id: &str,
    params: &BTreeMap<String, Vec<String>>,
) -> Result<(Seat, G::Event), PickError> {
    let offered = id.split_once('-').and_then(|(n, _)| n.parse::<u64>().ok());
    match offered {
        Some(offered) if offered != len => {
            return Err(PickError::Stale { id: id.to_string(), offered, now: len });
        }
        Some(_) => {}
        None => return Err(PickError::Unknown { id: id.to_string() }),
    }
    let option =
        options.iter().find(|o| option_id(len, o) == id).ok_or_else(|| PickError::Unknown { id: id.to_string() })?;
    let event = match &option.pick {
        Pick::Event(e) => {
            if let Some(name) = params.keys().next() {
                return Err(PickError::Param(format!("this option takes no parameter, {name} given")));
            }
            e.clone()
        }
        Pick::Param { param, template, fill, .. } => {
            if let Some(other) = params.keys().find(|k| k.as_str() != param.name) {
                return Err(PickError::Param(format!("this option takes {}, not {other}", param.name)));
            }
            let values = params.get(param.name).map(Vec::as_slice).unwrap_or_default();
            values_allowed(param, values)?;
            fill(template, values)
                .ok_or_else(|| PickError::Param(format!("{} cannot take these values", param.name)))?
        }
    };
    let violations = G::validate(state, &event);
    if !violations.is_empty() {
        return Err(PickError::Refused(violations));
    }
    Ok((option.seat, event))
}

/// Keeps the options `validate` accepts: what a game's options function ends with, so an option
/// is never offered that the rules would refuse. A parameter option is kept when its template
/// (filled with its first allowed values) validates, or when it has enough values to make a pick
/// (or takes a secret or dealt cards, which have none to list); the pick itself is validated again.
pub fn legal<G: Game>(state: &G::State, options: Vec<GameOption<G::Event>>) -> Vec<GameOption<G::Event>> {
    options
        .into_iter()
        .filter(|o| match &o.pick {
            Pick::Event(e) => G::validate(state, e).is_empty(),
            Pick::Param { param, .. } => {
                matches!(param.kind, ParamKind::Secret | ParamKind::Dealt)
                    || (!param.values.is_empty() && fillable(param))
            }
        })
        .collect()
}

/// Whether `param`'s values can make a pick at all: `count` values, at most one of each group
/// (of either kind). An option whose parameter cannot is not offered (every pick of it would be
/// refused). For values in two groups it asks each kind alone: enough whenever, as for blocks,
/// every value of one group pairs with every group of the other kind.
fn fillable(param: &Param) -> bool {
    let enough = |kind: fn(&ParamValue) -> Option<&str>| {
        let free = param.values.iter().filter(|v| kind(v).is_none()).count();
        let groups: std::collections::BTreeSet<&str> = param.values.iter().filter_map(kind).collect();
        free + groups.len() >= param.count
    };
    enough(|v| v.group.as_deref()) && enough(|v| v.also.as_deref())
}

/// The options of `state` that record `event`: its acting seat's; for an event of no seat (an
/// attack's result), the awaited seats' first, then every other seat's (a FATE battle's reveal,
/// which either Master of the battle records, awaits nobody). Empty when no option offers it:
/// what the reachability tests and `tools/bench-options` count.
pub fn offering<G: Game>(state: &G::State, event: &G::Event) -> Vec<GameOption<G::Event>> {
    let seats = match G::acting_seat(event) {
        Some(s) => vec![s],
        None => {
            let mut seats = G::awaited(state);
            let rest: Vec<Seat> = (0..G::SEATS.max).filter(|s| !seats.contains(s)).collect();
            seats.extend(rest);
            seats
        }
    };
    seats.into_iter().flat_map(|s| G::options(state, s).unwrap_or_default()).filter(|o| o.offers(event)).collect()
}
