//! Recording: validate, then append. Illegal actions are refused with their rule IDs and nothing
//! is written, unless a judge forces them into the log, where they are stored and flagged.
//! Also loads game streams back (verifying the chain) and converts whole games to and from JSON lines.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::audit::step_violations;
use super::replay::{Replay, Step};
use super::{Game, GameEntry, Violation};
use crate::log::chain::{self, Head, VerifiedLog};
use crate::log::envelope::{Actor, Header, HeaderV1, StreamId, StreamKind, Timestamp};
use crate::store::{AppendRequest, ExpectedVersion, NewEvent, Store, StoreError};

/// Everything that can go wrong recording or loading a game.
#[derive(Debug, Error)]
pub enum GameError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("stream {stream} is a {kind} stream with ruleset {ruleset:?}, not a {expected} game")]
    NotThisGame { stream: String, kind: String, ruleset: String, expected: &'static str },
    #[error("stream {stream} was recorded with {ruleset} rules v{found}; this build has v{have} and will not re-simulate it")]
    RulesetVersion { stream: String, ruleset: &'static str, found: u32, have: u32 },
    #[error("stream {stream}: the configuration in the header does not decode: {msg}")]
    BadConfig { stream: String, msg: String },
    #[error("stream {stream}, event {seq}: the payload does not decode as a {ruleset} event: {msg}")]
    Undecodable { stream: String, seq: u64, ruleset: &'static str, msg: String },
    #[error("the game setup breaks rules:\n{}", list(.0))]
    Setup(Vec<Violation>),
    #[error("refused, nothing recorded:\n{}", list(.0))]
    Refused(Vec<Violation>),
    #[error("{0}")]
    Input(String),
    #[error("could not encode: {0}")]
    Encode(#[from] postcard::Error),
}

fn list(v: &[Violation]) -> String {
    v.iter().map(|v| format!("  {}: {}", v.rule, v.message)).collect::<Vec<_>>().join("\n")
}

/// A game stream read back from a store: its header, configuration and decoded steps.
pub struct LoadedGame<G: Game> {
    pub header: Header,
    pub config: G::Config,
    pub steps: Vec<Step<G::Event>>,
    pub head: Head,
}

/// Decodes a game stream's configuration from its header.
pub fn decode_config<G: Game>(header: &Header) -> Result<G::Config, GameError> {
    let h = header.v1();
    if h.kind != StreamKind::Game || h.ruleset != G::RULESET {
        return Err(GameError::NotThisGame {
            stream: h.stream.to_string(),
            kind: h.kind.to_string(),
            ruleset: h.ruleset.clone(),
            expected: G::RULESET,
        });
    }
    if h.ruleset_version != G::RULESET_VERSION {
        return Err(GameError::RulesetVersion {
            stream: h.stream.to_string(),
            ruleset: G::RULESET,
            found: h.ruleset_version,
            have: G::RULESET_VERSION,
        });
    }
    postcard::from_bytes(&h.config)
        .map_err(|e| GameError::BadConfig { stream: h.stream.to_string(), msg: e.to_string() })
}

/// Decodes stored events (already chain-verified) into steps.
pub fn decode_steps<G: Game>(stream: &StreamId, stored: &[Vec<u8>]) -> Result<Vec<Step<G::Event>>, GameError> {
    stored
        .iter()
        .enumerate()
        .map(|(seq, bytes)| {
            let undecodable = |msg: String| GameError::Undecodable {
                stream: stream.to_string(),
                seq: seq as u64,
                ruleset: G::RULESET,
                msg,
            };
            let (env, _) = chain::open_event(bytes).map_err(|p| undecodable(p.to_string()))?;
            let e = env.v1();
            let entry: GameEntry<G::Event> =
                postcard::from_bytes(&e.payload).map_err(|err| undecodable(err.to_string()))?;
            Ok(Step { seq: e.seq, recorded_at: e.recorded_at, actor: e.actor.clone(), entry })
        })
        .collect()
}

/// Decodes a verified log as a game of `G`.
pub fn from_log<G: Game>(log: &VerifiedLog) -> Result<LoadedGame<G>, GameError> {
    let config = decode_config::<G>(&log.header)?;
    let steps = decode_steps::<G>(log.header.stream(), &log.events)?;
    Ok(LoadedGame { header: log.header.clone(), config, steps, head: log.head })
}

/// Loads a game stream, verifying its whole chain first.
pub fn load<G: Game>(store: &dyn Store, stream: &StreamId) -> Result<LoadedGame<G>, GameError> {
    from_log::<G>(&store.export(stream)?)
}

/// The header of a new game stream.
pub fn game_header<G: Game>(stream: &StreamId, config: &G::Config, created_at: Timestamp) -> Result<Header, GameError> {
    Ok(Header::V1(HeaderV1 {
        stream: stream.clone(),
        kind: StreamKind::Game,
        ruleset: G::RULESET.to_string(),
        ruleset_version: G::RULESET_VERSION,
        players: G::players(config),
        config: postcard::to_stdvec(config)?,
        created_at,
    }))
}

/// Creates a game stream after checking its setup (deck construction and the like).
pub fn create<G: Game>(
    store: &dyn Store,
    stream: &StreamId,
    config: &G::Config,
    created_at: Timestamp,
) -> Result<Head, GameError> {
    G::setup(config).map_err(GameError::Setup)?;
    let header = game_header::<G>(stream, config, created_at)?;
    let appended = store.append(AppendRequest {
        stream: stream.clone(),
        expected: ExpectedVersion::NoStream,
        create: Some(header),
        events: vec![],
    })?;
    Ok(appended.head)
}

/// What recording an entry did.
#[derive(Clone, Debug)]
pub struct Recorded {
    pub seq: u64,
    pub head: Head,
    /// The rules a forced entry broke (empty for a legal action or a ruling).
    pub flagged: Vec<Violation>,
}

/// Validates an entry against the game so far and appends it. `Played` entries that break a rule
/// are refused; `Forced` entries (judges only) are stored with the rules they break.
pub fn record<G: Game>(
    store: &dyn Store,
    stream: &StreamId,
    actor: Actor,
    entry: GameEntry<G::Event>,
    expected: Option<u64>,
) -> Result<Recorded, GameError> {
    let game = load::<G>(store, stream)?;
    let len = game.steps.len() as u64;
    let players = G::players(&game.config);
    let replay = Replay::<G>::new(game.config, game.steps).map_err(GameError::Setup)?;
    let state = replay.last();
    let step = Step { seq: len, recorded_at: Timestamp(0), actor: actor.clone(), entry };
    let violations = step_violations::<G>(&players, &state, &step);
    let (entry, flagged) = match step.entry {
        GameEntry::Forced { judge, event, .. } => {
            // Only the recorder's own checks (a judge must force) can refuse a forced entry.
            let (rules, recorder): (Vec<_>, Vec<_>) =
                violations.into_iter().partition(|v| !v.rule.starts_with("KIFU-RULING"));
            if !recorder.is_empty() {
                return Err(GameError::Refused(recorder));
            }
            let broke = rules.iter().map(|v| v.rule.to_string()).collect();
            (GameEntry::Forced { judge, broke, event }, rules)
        }
        other => {
            if !violations.is_empty() {
                return Err(GameError::Refused(violations));
            }
            (other, vec![])
        }
    };
    let payload = postcard::to_stdvec(&entry)?;
    let appended = store.append(AppendRequest {
        stream: stream.clone(),
        expected: ExpectedVersion::Exact(expected.unwrap_or(len)),
        create: None,
        events: vec![NewEvent { actor, payload, idempotency: None }],
    })?;
    Ok(Recorded { seq: appended.first_seq, head: appended.head, flagged })
}

/// The first line of a game in JSON lines: the game and its configuration.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JsonlHeader<C> {
    /// The ruleset, e.g. "naruto".
    pub game: String,
    /// The stream id to create; generated when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stream: Option<String>,
    pub config: C,
}

/// Every later line: who recorded what. `seq`, when present, must match the line's position.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JsonlLine<E> {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seq: Option<u64>,
    /// `player:NAME`, `judge:NAME`, `organizer:NAME` or `system`.
    pub actor: String,
    pub entry: GameEntry<E>,
}

/// A whole game as JSON lines: the header line, then one line per event.
pub fn to_jsonl<G: Game>(stream: &StreamId, config: &G::Config, steps: &[Step<G::Event>]) -> Result<String, GameError> {
    let head = JsonlHeader { game: G::RULESET.to_string(), stream: Some(stream.to_string()), config: config.clone() };
    let mut out = serde_json::to_string(&head).map_err(|e| GameError::Input(e.to_string()))?;
    out.push('\n');
    for s in steps {
        let line = JsonlLine { seq: Some(s.seq), actor: s.actor.to_string(), entry: s.entry.clone() };
        out += &serde_json::to_string(&line).map_err(|e| GameError::Input(e.to_string()))?;
        out.push('\n');
    }
    Ok(out)
}

/// A game parsed from JSON lines and checked against the rules.
pub struct ParsedGame<G: Game> {
    pub config: G::Config,
    /// The stream id the file names, if any.
    pub stream: Option<String>,
    pub entries: Vec<(Actor, GameEntry<G::Event>)>,
}

/// Parses a game in JSON lines and checks every line against the rules, reporting every problem
/// with its line number.
pub fn parse_jsonl<G: Game>(text: &str) -> Result<ParsedGame<G>, GameError> {
    let mut lines = text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty());
    let Some((_, first)) = lines.next() else {
        return Err(GameError::Input(
            "line 1: the file is empty; expected a header line {\"game\": ..., \"config\": ...}".into(),
        ));
    };
    let head: JsonlHeader<G::Config> = serde_json::from_str(first)
        .map_err(|e| GameError::Input(format!("line 1: not a {} game header: {e}", G::RULESET)))?;
    if head.game != G::RULESET {
        return Err(GameError::Input(format!("line 1: the file is a {:?} game, not {}", head.game, G::RULESET)));
    }
    let players = G::players(&head.config);
    let mut problems = Vec::new();
    let mut entries = Vec::new();
    let mut steps = Vec::new();
    for (i, line) in lines {
        let lineno = i + 1;
        let parsed: JsonlLine<G::Event> = match serde_json::from_str(line) {
            Ok(p) => p,
            Err(e) => {
                problems.push(format!("line {lineno}: {e}"));
                continue;
            }
        };
        let seq = entries.len() as u64;
        if parsed.seq.is_some_and(|s| s != seq) {
            problems.push(format!("line {lineno}: says seq {:?} but it is event {seq}", parsed.seq));
        }
        let actor: Actor = match parsed.actor.parse() {
            Ok(a) => a,
            Err(e) => {
                problems.push(format!("line {lineno}: {e}"));
                continue;
            }
        };
        steps.push(Step { seq, recorded_at: Timestamp(0), actor: actor.clone(), entry: parsed.entry.clone() });
        entries.push((actor, parsed.entry));
    }
    if !problems.is_empty() {
        return Err(GameError::Input(problems.join("\n")));
    }
    // One fold checks every line; forced lines must come from judges, rulings must be sound.
    let mut refusals = Vec::new();
    let line_of = |seq: u64| {
        text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()).nth(seq as usize + 1).map_or(0, |(i, _)| i + 1)
    };
    Replay::<G>::with_inspector(head.config.clone(), steps, super::replay::SNAPSHOT_EVERY, |_, before, step| {
        let forced = matches!(step.entry, GameEntry::Forced { .. });
        for v in step_violations::<G>(&players, before, step) {
            if forced && !v.rule.starts_with("KIFU-RULING") {
                continue;
            }
            refusals.push(Violation::new(
                v.rule,
                format!("line {} (event {}): {}", line_of(step.seq), step.seq, v.message),
            ));
        }
    })
    .map_err(GameError::Setup)?;
    if !refusals.is_empty() {
        return Err(GameError::Refused(refusals));
    }
    Ok(ParsedGame { config: head.config, stream: head.stream, entries })
}

/// Imports a whole game (checked by [`parse_jsonl`]) as one atomic append.
pub fn import_entries<G: Game>(
    store: &dyn Store,
    stream: &StreamId,
    config: &G::Config,
    entries: Vec<(Actor, GameEntry<G::Event>)>,
    created_at: Timestamp,
) -> Result<Head, GameError> {
    let header = game_header::<G>(stream, config, created_at)?;
    let mut events = Vec::with_capacity(entries.len());
    for (actor, entry) in entries {
        events.push(NewEvent { actor, payload: postcard::to_stdvec(&entry)?, idempotency: None });
    }
    let appended = store.append(AppendRequest {
        stream: stream.clone(),
        expected: ExpectedVersion::NoStream,
        create: Some(header),
        events,
    })?;
    Ok(appended.head)
}

/// The actor that records a game action: the acting seat's player, or the system.
pub fn actor_for<G: Game>(players: &[String], event: &G::Event) -> Actor {
    match G::acting_seat(event).and_then(|s| players.get(usize::from(s))) {
        Some(name) => Actor::Player(name.clone()),
        None => Actor::System,
    }
}
