//! Recording: validate, then append. Illegal actions are refused with their rule IDs and nothing
//! is written, unless a judge forces them into the log, where they are stored and flagged.
//! Also loads game streams back (verifying the chain) and converts whole games to and from JSON lines.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};
use thiserror::Error;

pub use super::actor_for;
use super::audit::{step_violations, AuditReport, Auditor};
use super::options::{self, GameOption, ParamKind, PickError};
use super::replay::{Replay, Step};
use super::timeline::{full_timeline, timeline_entry, TimelineEntry, Undone};
use super::{Game, GameEntry, Ruling, Seat, Viewer, Violation};
use crate::log::chain::{self, Head, VerifiedLog, Verifier};
use crate::log::envelope::{
    Actor, Envelope, EnvelopeV1, Header, HeaderV1, IdempotencyId, MatchBinding, StreamId, StreamKind, Timestamp,
};
use crate::log::limits::{self, TooLong};
use crate::log::LogError;
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
    #[error("could not encode: {0}")]
    Encode(#[from] postcard::Error),
    /// A name or note over its limit: bad input, refused before anything is written.
    #[error(transparent)]
    TooLong(#[from] TooLong),
    /// An event given as JSON that does not decode as this game's event.
    #[error("the event is not a valid {ruleset} event: {error}")]
    BadEvent { ruleset: &'static str, error: serde_json::Error },
    /// A `kifu game new` request that makes no configuration: every problem, one per line.
    #[error("{}", lines(.0))]
    Config(Vec<super::ConfigProblem>),
    /// A game in JSON lines that does not read: every problem, one per line.
    #[error("{}", lines(.0))]
    Jsonl(Vec<JsonlProblem>),
    /// A plain recorder was handed an action recorded elsewhere.
    #[error("an action recorded elsewhere is stored only by `kifu game import --as-recorded`")]
    RecordedElsewhere,
    /// `kifu game set-aside` refused: the entry is not one to set aside.
    #[error("stream {stream}, event {seq}: nothing set aside: {why}")]
    NotSetAside { stream: String, seq: u64, why: String },
    /// A recorder was handed a set-aside entry, which readers make and nobody records.
    #[error(
        "a set-aside entry is never recorded: it is how kifu reads stored bytes a judge set aside (`kifu game \
         set-aside`)"
    )]
    SetAsideRecorded,
    /// Event `seq` of a game being imported carries a name or note over its limit.
    #[error("event {seq}: {error}")]
    EventTooLong { seq: u64, error: TooLong },
    /// Event `seq` of a stored stream being imported or verified carries a name or note over its limit.
    #[error("stream {stream}, event {seq}: {error}")]
    StoredTooLong { stream: String, seq: u64, error: TooLong },
    #[error("ruleset {ruleset} has no released version")]
    NoRelease { ruleset: &'static str },
    /// kifu could not write its own JSON form of a game (never the user's input).
    #[error("{0}")]
    Json(serde_json::Error),
    /// A pick of an option that was refused (stale, unknown, a parameter out of range, or the
    /// rules refuse the result): nothing recorded.
    #[error(transparent)]
    Pick(#[from] PickError),
}

impl GameError {
    /// Whether the error is the user's input (a request, a file, an event), not kifu's own failure.
    pub fn is_input(&self) -> bool {
        matches!(
            self,
            GameError::TooLong(_)
                | GameError::BadEvent { .. }
                | GameError::Config(_)
                | GameError::Jsonl(_)
                | GameError::RecordedElsewhere
                | GameError::SetAsideRecorded
                | GameError::NotSetAside { .. }
                | GameError::EventTooLong { .. }
                | GameError::StoredTooLong { .. }
                | GameError::NoRelease { .. }
        )
    }
}

/// A line of a game in JSON lines that does not read ([`parse_jsonl`]); each names its file line.
#[derive(Debug, Error)]
pub enum JsonlProblem {
    #[error("line 1: the file is empty; expected a header line {{\"game\": ..., \"config\": ...}}")]
    Empty,
    #[error("line 1: not a {ruleset} game header: {error}")]
    Header { ruleset: &'static str, error: serde_json::Error },
    #[error("line 1: the file is a {found:?} game, not {ruleset}")]
    OtherGame { found: String, ruleset: &'static str },
    /// A player name over its limit.
    #[error("line 1: {0}")]
    Players(TooLong),
    /// The stream id line 1 names is not a valid stream id.
    #[error("line 1: {0}")]
    Stream(LogError),
    #[error("line 1 names no \"stream\"; give one with --id")]
    NoStream,
    /// Line 1 names a rules version this build does not have.
    #[error("line 1: the game was recorded under {ruleset} rules version {found}; this build has version(s) {}", join_versions(.have))]
    RulesVersion { ruleset: &'static str, found: u64, have: Vec<u32> },
    /// Line 1 names no rules version, which means version 1, and this build has no version 1.
    #[error(
        "line 1: names no rules_version, which means {ruleset} rules version 1 (the version whose exports left it \
         out); this build has version(s) {}: add \"rules_version\" with the version the game was recorded under",
        join_versions(.have)
    )]
    UnnamedRulesVersion { ruleset: &'static str, have: Vec<u32> },
    #[error("line {line}: {error}")]
    Undecodable { line: usize, error: serde_json::Error },
    #[error("line {line}: says seq {said:?} but it is event {seq}")]
    Seq { line: usize, said: Option<u64>, seq: u64 },
    #[error("line {line}: {error}")]
    Actor { line: usize, error: LogError },
    #[error("line {line}: {error}")]
    Text { line: usize, error: TooLong },
    #[error("line {line}: an action recorded elsewhere is imported only with --as-recorded")]
    RecordedElsewhere { line: usize },
}

impl From<JsonlProblem> for GameError {
    fn from(p: JsonlProblem) -> Self {
        GameError::Jsonl(vec![p])
    }
}

fn join_versions(have: &[u32]) -> String {
    have.iter().map(u32::to_string).collect::<Vec<_>>().join(", ")
}

/// The rules version of a game in JSON lines whose first line names none: version 1, the only
/// version whose exports left it out (every export names its version since).
pub const UNNAMED_RULES_VERSION: u64 = 1;

/// The rules version line 1 of a game in JSON lines names, if it names one (`None` for a file
/// whose first line is not a JSON object: the version's own parser reports that, by line).
pub fn jsonl_rules_version(text: &str) -> Option<u64> {
    #[derive(Deserialize)]
    struct Version {
        #[serde(default)]
        rules_version: Option<u64>,
    }
    let first = text.lines().find(|l| !l.trim().is_empty())?;
    serde_json::from_str::<Version>(first).ok()?.rules_version
}

fn lines<T: std::fmt::Display>(v: &[T]) -> String {
    v.iter().map(T::to_string).collect::<Vec<_>>().join("\n")
}

/// Checks what a new entry brings in: its actor's name and the names and notes it carries.
pub fn check_entry_text<E: serde::Serialize>(actor: &Actor, entry: &GameEntry<E>) -> Result<(), TooLong> {
    actor.check_name()?;
    entry.check_text()
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

/// Decodes stored events (already chain-verified) into steps. An entry whose payload does not
/// decode as this game's is an error unless a later [`Ruling::EntrySetAside`] names it: then it
/// reads as [`GameEntry::SetAside`] (the repair of a stream an older build damaged).
pub fn decode_steps<G: Game>(stream: &StreamId, stored: &[Vec<u8>]) -> Result<Vec<Step<G::Event>>, GameError> {
    let mut steps = Vec::with_capacity(stored.len());
    let mut damaged: Vec<(usize, GameError)> = Vec::new();
    for (seq, bytes) in stored.iter().enumerate() {
        let undecodable = |msg: String| GameError::Undecodable {
            stream: stream.to_string(),
            seq: seq as u64,
            ruleset: G::RULESET,
            msg,
        };
        let (env, _) = chain::open_event(bytes).map_err(|p| undecodable(p.to_string()))?;
        let e = env.v1();
        let entry = match postcard::from_bytes::<GameEntry<G::Event>>(&e.payload) {
            Ok(entry) => entry,
            Err(err) => {
                damaged.push((steps.len(), undecodable(err.to_string())));
                // Held until the ruling that sets it aside is found (or the error returned).
                GameEntry::SetAside { judge: String::new(), by: u64::MAX }
            }
        };
        steps.push(Step { seq: e.seq, recorded_at: e.recorded_at, actor: e.actor.clone(), entry });
    }
    let names = |s: &Step<G::Event>| match &s.entry {
        GameEntry::Ruled(Ruling::EntrySetAside { judge, seq, .. }) => {
            Some((*seq, GameEntry::SetAside { judge: judge.clone(), by: s.seq }))
        }
        _ => None,
    };
    crate::log::read_set_aside(&mut steps, damaged, |s| s.seq, names, |s, r| s.entry = r)?;
    Ok(steps)
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
    bound_game_header::<G>(stream, config, created_at, None)
}

/// The header of a new game stream, bound to a tournament's match when `bound` names one
/// (a version 2 header; an unbound game keeps version 1, byte for byte).
pub fn bound_game_header<G: Game>(
    stream: &StreamId,
    config: &G::Config,
    created_at: Timestamp,
    bound: Option<MatchBinding>,
) -> Result<Header, GameError> {
    let header = HeaderV1 {
        stream: stream.clone(),
        kind: StreamKind::Game,
        ruleset: G::RULESET.to_string(),
        ruleset_version: G::RULESET_VERSION,
        players: G::players(config),
        config: postcard::to_stdvec(config)?,
        created_at,
    };
    Ok(Header::with_binding(header, bound))
}

/// Creates a game stream after checking its setup (deck construction and the like).
pub fn create<G: Game>(
    store: &dyn Store,
    stream: &StreamId,
    config: &G::Config,
    created_at: Timestamp,
) -> Result<Head, GameError> {
    create_bound::<G>(store, stream, config, created_at, None)
}

/// As [`create`], bound to a tournament's match when `bound` names one.
pub fn create_bound<G: Game>(
    store: &dyn Store,
    stream: &StreamId,
    config: &G::Config,
    created_at: Timestamp,
    bound: Option<MatchBinding>,
) -> Result<Head, GameError> {
    limits::check_players(&G::players(config))?;
    G::setup(config).map_err(GameError::Setup)?;
    let header = bound_game_header::<G>(stream, config, created_at, bound)?;
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
    /// True when the request carried an idempotency id already recorded with the same actor and
    /// entry: nothing was written, and `seq` is where the first attempt landed.
    pub retried: bool,
}

/// Who writes to a live game, against which store, after how many events, under which key: what
/// every write on a [`LiveGame`] (a pick, a concession) is asked with.
#[derive(Clone)]
pub struct Write<'a> {
    pub store: &'a dyn Store,
    pub actor: Actor,
    /// The number of events the writer saw; `None` writes at whatever the head is.
    pub expected: Option<u64>,
    pub idempotency: Option<IdempotencyId>,
}

/// Validates an entry against the game so far and appends it. `Played` entries that break a rule
/// are refused; `Forced` entries (judges only) are stored with the rules they break. Loads the
/// game first (a one-shot command); a server keeps a [`LiveGame`] open and records on it.
pub fn record<G: Game>(
    store: &dyn Store,
    stream: &StreamId,
    actor: Actor,
    entry: GameEntry<G::Event>,
    expected: Option<u64>,
    idempotency: Option<IdempotencyId>,
) -> Result<Recorded, GameError> {
    LiveGame::<G>::load(store, stream)?.record(store, actor, entry, expected, idempotency)
}

/// Sets aside the stored entry at `seq` of a game of `G`, which does not decode as its event (a
/// note an older build let `kifu append` write into the game, after which the game no longer
/// opened): appends judge `judge`'s [`Ruling::EntrySetAside`], so the game opens, replays,
/// audits and exports again. The undecodable bytes stay in the log, so history is not rewritten.
/// Works on a game that does not load; refuses an entry that decodes or is set aside already.
pub fn set_aside<G: Game>(
    store: &dyn Store,
    stream: &StreamId,
    judge: &str,
    seq: u64,
    note: String,
) -> Result<Recorded, GameError> {
    let log = store.export(stream)?;
    decode_config::<G>(&log.header)?;
    limits::check_name(|| "the judge's name".into(), judge)?;
    limits::check_note(|| "the note".into(), &note)?;
    let refuse = |why: String| GameError::NotSetAside { stream: stream.to_string(), seq, why };
    let n = log.events.len();
    let bytes = log.events.get(seq as usize).ok_or_else(|| refuse(format!("the game has {n} events")))?;
    let (env, _) = chain::open_event(bytes).map_err(|p| refuse(p.to_string()))?;
    if postcard::from_bytes::<GameEntry<G::Event>>(&env.v1().payload).is_ok() {
        return Err(refuse(format!(
            "it is a {} entry; only stored bytes that decode as none are set aside (a judge rules on an event with \
             `kifu game rule`)",
            G::RULESET
        )));
    }
    let set_aside_by = |b: &Vec<u8>| {
        let ruling = chain::open_event(b).ok().and_then(|(e, _)| super::ruling_in(&e.v1().payload));
        matches!(ruling, Some(Ruling::EntrySetAside { seq: s, .. }) if s == seq)
    };
    if log.events[seq as usize + 1..].iter().any(set_aside_by) {
        return Err(refuse("it is set aside already".into()));
    }
    let payload = super::ruled_payload(&Ruling::EntrySetAside { judge: judge.to_string(), seq, note })
        .map_err(StoreError::Encode)?;
    let appended = store.append(AppendRequest {
        stream: stream.clone(),
        expected: ExpectedVersion::Exact(n as u64),
        create: None,
        events: vec![NewEvent { actor: Actor::Judge(judge.to_string()), payload, idempotency: None }],
    })?;
    Ok(Recorded { seq: appended.first_seq, head: appended.head, flagged: vec![], retried: appended.retried })
}

/// Checks an entry's violations: a `Played` entry must have none; a `Forced` one only needs a
/// judge, and is stored with the rules it breaks.
fn checked_entry<G: Game>(
    entry: GameEntry<G::Event>,
    violations: Vec<Violation>,
) -> Result<(GameEntry<G::Event>, Vec<Violation>), GameError> {
    match entry {
        GameEntry::Forced { judge, event, .. } => {
            // Only the recorder's own checks (a judge must force) can refuse a forced entry.
            let (rules, recorder): (Vec<_>, Vec<_>) =
                violations.into_iter().partition(|v| !v.rule.starts_with("KIFU-RULING"));
            if !recorder.is_empty() {
                return Err(GameError::Refused(recorder));
            }
            // Each rule once, in the order the rules report them: a judge names a rule once
            // however many times the action broke it.
            let mut broke: Vec<String> = Vec::new();
            for v in &rules {
                if !broke.iter().any(|b| b == v.rule) {
                    broke.push(v.rule.to_string());
                }
            }
            Ok((GameEntry::Forced { judge, broke, event }, rules))
        }
        GameEntry::RecordedElsewhere(_) => Err(GameError::RecordedElsewhere),
        GameEntry::SetAside { .. } => Err(GameError::SetAsideRecorded),
        other => {
            // Another seat's action is refused for that alone: the rules it would also break
            // describe the other seat's cards (where one lies, its costs), which a player may not
            // learn by posting actions in the opponent's name. A table would only say "that is
            // not yours to do".
            if violations.iter().any(|v| v.rule == "KIFU-ACTOR-1") {
                return Err(GameError::Refused(violations.into_iter().filter(|v| v.rule == "KIFU-ACTOR-1").collect()));
            }
            if !violations.is_empty() {
                return Err(GameError::Refused(violations));
            }
            Ok((other, vec![]))
        }
    }
}

/// `KIFU-DEAL-1` when a player posts an event only the dealer records in a game dealt from a
/// dealer's seed (a stacked opening hand, a shuffle of its own): the seat picks the draw's option
/// and the dealer fills the cards ([`super::dealer`]). Checked where an entry is posted whole
/// (the events API, `kifu game act`), before the rules, so the refusal says nothing of the cards.
/// A judge may still force such an event, on the record.
fn dealers_own<G: Game>(config: &G::Config, actor: &Actor, entry: &GameEntry<G::Event>) -> Option<Violation> {
    let GameEntry::Played(event) = entry else { return None };
    let dealt = G::dealer_key(config).is_some() && G::dealer_deals(event);
    (dealt && matches!(actor, Actor::Player(_))).then(|| {
        Violation::new(
            "KIFU-DEAL-1",
            "this game is dealt from the dealer's seed: its shuffles and draws come from the dealer \
             (pick the draw's option and kifu deals the cards)",
        )
    })
}

/// Whether a failed recording may be a retry of a request that landed: its expected count is
/// stale, its action no longer valid at the head, or the store holds its id with other bytes
/// (a forced entry judged again on a later head).
fn may_be_a_retry(e: &GameError) -> bool {
    matches!(
        e,
        GameError::Refused(_)
            | GameError::Store(StoreError::WrongExpectedVersion { .. } | StoreError::IdempotencyConflict { .. })
    )
}

/// An entry's encoding without the recorder's judgement (a forced entry's `broke` list): what
/// a retry must repeat exactly.
fn without_judgement<E: Serialize + Clone>(entry: &GameEntry<E>) -> Result<Vec<u8>, postcard::Error> {
    let bare = match entry {
        GameEntry::Forced { judge, event, .. } => {
            GameEntry::Forced { judge: judge.clone(), broke: Vec::new(), event: event.clone() }
        }
        other => other.clone(),
    };
    postcard::to_stdvec(&bare)
}

/// A game kept open at its verified head: the fold, and (once asked for) the audit and each
/// viewer's timeline, all extended event by event as the game grows. Recording on it costs
/// O(1) per event whatever the game's length: validate against the head state, append with the
/// exact expected version, read back and verify only the new event.
pub struct LiveGame<G: Game> {
    verifier: Verifier,
    pub replay: Replay<G>,
    players: Vec<String>,
    auditor: Option<Auditor<G>>,
    timelines: Vec<(Viewer, Vec<TimelineEntry>)>,
    /// The stored bytes of the events folded so far, and the text held in timelines.
    stored_bytes: usize,
    timeline_bytes: usize,
    /// A guess at one fold state's size (it holds about the registered decks), for accounting.
    state_bytes: usize,
    /// The seeds kifu holds as this game's dealer ([`crate::game::dealer`]), if it deals it.
    dealer: Option<super::commit::AgentSecrets>,
    /// Each seat's options at the head of the given length, computed once per head: a pick
    /// checks them, its answer lists the next head's, and every seat's page asks after each
    /// event (a game such as Naruto validates each of many candidates to list them).
    options_memo: std::sync::Mutex<OptionsMemo<G::Event>>,
}

/// The head's length and each seat's options there (see `LiveGame::options_memo`).
type OptionsMemo<E> = (u64, Vec<(Seat, Vec<GameOption<E>>)>);

impl<G: Game> LiveGame<G> {
    /// Opens a verified log.
    pub fn open(log: &VerifiedLog) -> Result<Self, GameError> {
        let g = from_log::<G>(log)?;
        let players = G::players(&g.config);
        let state_bytes = postcard::to_stdvec(&g.config).map_or(0, |b| b.len()) * 2 + size_of::<G::State>();
        let replay = Replay::<G>::new(g.config, g.steps).map_err(GameError::Setup)?;
        Ok(LiveGame {
            verifier: Verifier::from_head(log.header.stream().clone(), log.head),
            replay,
            players,
            auditor: None,
            timelines: Vec::new(),
            stored_bytes: log.events.iter().map(Vec::len).sum(),
            timeline_bytes: 0,
            state_bytes,
            dealer: None,
            options_memo: std::sync::Mutex::new((u64::MAX, Vec::new())),
        })
    }

    /// Makes kifu this game's dealer, holding `dealer`'s seeds: what they determine is recorded
    /// as automatic steps, and a dealt parameter is filled from them ([`crate::game::dealer`]).
    pub fn with_dealer(mut self, dealer: Option<super::commit::AgentSecrets>) -> Self {
        self.dealer = dealer;
        self
    }

    /// As [`Self::with_dealer`], on a game already open.
    pub fn set_dealer(&mut self, dealer: Option<super::commit::AgentSecrets>) {
        self.dealer = dealer;
    }

    /// Loads a game stream from a store (verifying its whole chain) and opens it.
    pub fn load(store: &dyn Store, stream: &StreamId) -> Result<Self, GameError> {
        Self::open(&store.export(stream)?)
    }

    pub fn stream(&self) -> &StreamId {
        self.verifier.stream()
    }

    pub fn head(&self) -> Head {
        self.verifier.head()
    }

    pub fn len(&self) -> u64 {
        self.replay.len()
    }

    pub fn is_empty(&self) -> bool {
        self.replay.is_empty()
    }

    pub fn players(&self) -> &[String] {
        &self.players
    }

    /// Verifies the stored events that follow the head (each must link to the one before) and
    /// folds them: extend-by-tail. On an error nothing after the last good event is folded.
    pub fn extend(&mut self, stored: &[Vec<u8>]) -> Result<(), GameError> {
        for bytes in stored {
            let mut verifier = self.verifier.clone();
            let env = verifier.push(bytes).map_err(StoreError::Corrupt)?;
            let e = env.v1();
            let entry: GameEntry<G::Event> =
                postcard::from_bytes(&e.payload).map_err(|err| GameError::Undecodable {
                    stream: self.stream().to_string(),
                    seq: e.seq,
                    ruleset: G::RULESET,
                    msg: err.to_string(),
                })?;
            let step = Step { seq: e.seq, recorded_at: e.recorded_at, actor: e.actor.clone(), entry };
            self.verifier = verifier;
            self.stored_bytes += bytes.len();
            self.fold(step);
        }
        Ok(())
    }

    /// Folds one verified step, extending the audit and the timelines kept so far.
    fn fold(&mut self, step: Step<G::Event>) {
        let players = &self.players;
        let auditor = &mut self.auditor;
        let timelines = &mut self.timelines;
        let mut added = 0;
        self.replay.push_with(step, |before, step| {
            if let Some(a) = auditor {
                a.observe(before, step);
            }
            for (viewer, t) in timelines.iter_mut() {
                let entry = timeline_entry::<G>(before, before.position(), step, players, *viewer);
                added += entry_bytes(&entry);
                t.push(entry);
            }
        });
        self.timeline_bytes += added;
        if !self.timelines.is_empty() {
            let after = self.replay.tip().position();
            for (_, t) in &mut self.timelines {
                if let Some(e) = t.last_mut() {
                    e.turn = after.turn;
                    e.phase = after.phase.to_string();
                    e.step = after.step.to_string();
                }
            }
        }
    }

    /// Extends up to the store's head (what other writers appended since).
    pub fn catch_up(&mut self, store: &dyn Store) -> Result<(), GameError> {
        let head = store.head(self.stream())?;
        self.catch_up_to(store, head)
    }

    fn catch_up_to(&mut self, store: &dyn Store, head: Head) -> Result<(), GameError> {
        let ours = self.head();
        if head.len > ours.len {
            let stored = store.read(self.stream(), ours.len, head.len)?;
            self.extend(&stored)?;
        }
        if self.head() != head {
            // The store no longer holds the log this game was opened on.
            return Err(GameError::Store(StoreError::Corrupt(chain::ChainError {
                stream: self.stream().to_string(),
                at: chain::At::Event(self.head().len.min(head.len)),
                problem: chain::Problem::BrokenLink { expected: self.head().hash, found: head.hash },
            })));
        }
        Ok(())
    }

    /// Validates an entry against the head state and appends it with the exact expected version.
    /// Without `expected`, a concurrent append (a wrong version) reloads the tail and validates
    /// and appends once more; with `expected`, a stale count is refused with the current one.
    ///
    /// With an idempotency id, a retry of a request that already landed is answered as the first
    /// attempt was (`retried`, its sequence number, nothing written), even though its expected
    /// count is now stale or its action no longer valid at the head: the refusal is checked
    /// against the store's record of the id ([`Store::recorded_id`]) before it is returned. The
    /// same id with another actor or entry is an idempotency conflict.
    pub fn record(
        &mut self,
        store: &dyn Store,
        actor: Actor,
        entry: GameEntry<G::Event>,
        expected: Option<u64>,
        idempotency: Option<IdempotencyId>,
    ) -> Result<Recorded, GameError> {
        let Some(id) = idempotency else {
            return self.record_new(store, actor, entry, expected, None);
        };
        // Judged only when the request fails, so a first attempt costs no extra look-up.
        match self.record_new(store, actor.clone(), entry.clone(), expected, Some(id)) {
            Err(e) if may_be_a_retry(&e) => self.recorded_as(store, id, &actor, &entry)?.ok_or(e),
            other => other,
        }
    }

    fn record_new(
        &mut self,
        store: &dyn Store,
        actor: Actor,
        entry: GameEntry<G::Event>,
        expected: Option<u64>,
        idempotency: Option<IdempotencyId>,
    ) -> Result<Recorded, GameError> {
        let stale = |e: &GameError| matches!(e, GameError::Store(StoreError::WrongExpectedVersion { .. }));
        if let Some(want) = expected {
            if want != self.len() {
                self.catch_up(store)?;
            }
            if want != self.len() {
                return Err(GameError::Store(StoreError::WrongExpectedVersion {
                    stream: self.stream().to_string(),
                    expected: ExpectedVersion::Exact(want),
                    current: Some(self.len()),
                }));
            }
            let out = self.try_record(store, actor, entry, idempotency);
            if out.as_ref().is_err_and(stale) {
                self.catch_up(store)?;
            }
            return out;
        }
        match self.try_record(store, actor.clone(), entry.clone(), idempotency) {
            Err(e) if stale(&e) => {
                self.catch_up(store)?;
                self.try_record(store, actor, entry, idempotency)
            }
            other => other,
        }
    }

    /// What the first attempt of a request under `id` recorded, if the store holds one: an
    /// idempotency conflict when it was another actor or entry. A forced entry's `broke` list
    /// is not compared: it is the recorder's judgement at the head it was recorded on.
    fn recorded_as(
        &mut self,
        store: &dyn Store,
        id: IdempotencyId,
        actor: &Actor,
        entry: &GameEntry<G::Event>,
    ) -> Result<Option<Recorded>, GameError> {
        let Some(seq) = store.recorded_id(self.stream(), &id)? else {
            return Ok(None);
        };
        if seq >= self.len() {
            self.catch_up(store)?;
        }
        let Some(step) = usize::try_from(seq).ok().and_then(|i| self.replay.steps().get(i)) else {
            return Ok(None);
        };
        if step.actor != *actor || without_judgement(&step.entry)? != without_judgement(entry)? {
            return Err(GameError::Store(StoreError::IdempotencyConflict {
                stream: self.stream().to_string(),
                id: id.to_hex(),
                seq,
            }));
        }
        let flagged = match &step.entry {
            GameEntry::Forced { .. } => {
                let before = self.replay.state_at(seq);
                step_violations::<G>(&self.players, &before, step)
                    .into_iter()
                    .filter(|v| !v.rule.starts_with("KIFU-RULING"))
                    .collect()
            }
            _ => Vec::new(),
        };
        Ok(Some(Recorded { seq, head: self.head(), flagged, retried: true }))
    }

    /// The rules `entry` would break if `actor` recorded it at the head, recording nothing: what
    /// a judge's page shows before forcing an action (a `Played` entry with none would simply be
    /// recorded).
    pub fn check(&self, actor: &Actor, entry: &GameEntry<G::Event>) -> Vec<Violation> {
        let step = Step { seq: self.len(), recorded_at: Timestamp(0), actor: actor.clone(), entry: entry.clone() };
        step_violations::<G>(&self.players, self.replay.tip(), &step)
    }

    fn try_record(
        &mut self,
        store: &dyn Store,
        actor: Actor,
        entry: GameEntry<G::Event>,
        idempotency: Option<IdempotencyId>,
    ) -> Result<Recorded, GameError> {
        check_entry_text(&actor, &entry)?;
        if let Some(refusal) = dealers_own::<G>(&self.replay.config, &actor, &entry) {
            return Err(GameError::Refused(vec![refusal]));
        }
        let len = self.len();
        let step = Step { seq: len, recorded_at: Timestamp(0), actor: actor.clone(), entry };
        let violations = step_violations::<G>(&self.players, self.replay.tip(), &step);
        let (entry, flagged) = checked_entry::<G>(step.entry, violations)?;
        let payload = postcard::to_stdvec(&entry)?;
        let appended = store.append(AppendRequest {
            stream: self.stream().clone(),
            expected: ExpectedVersion::Exact(len),
            create: None,
            events: vec![NewEvent { actor, payload, idempotency }],
        })?;
        // Fold the new event as the store sealed it (it stamped the time and hash), checking its
        // link to our head; a retry, or anything else appended first, is read back instead.
        if !appended.retried && appended.first_seq == len {
            self.extend(&appended.stored)?;
        }
        self.catch_up_to(store, appended.head)?;
        Ok(Recorded { seq: appended.first_seq, head: appended.head, flagged, retried: appended.retried })
    }

    /// Events `from..to` described for `viewer`. The first request for a viewer folds its whole
    /// timeline once; later events extend it as they are folded.
    pub fn timeline_range(&mut self, viewer: Viewer, from: u64, to: u64) -> Vec<TimelineEntry> {
        let i = match self.timelines.iter().position(|(v, _)| *v == viewer) {
            Some(i) => i,
            None => {
                let t = full_timeline(&self.replay, viewer);
                self.timeline_bytes += t.iter().map(entry_bytes).sum::<usize>();
                self.timelines.push((viewer, t));
                self.timelines.len() - 1
            }
        };
        let t = &self.timelines[i].1;
        let to = (to as usize).min(t.len());
        // The cached lines were described when folded; whether a later backup undid one is
        // answered now, from the backups recorded so far.
        let undone = Undone::of(&self.replay.tip().rulings.backups);
        t.get((from as usize).min(to)..to).unwrap_or_default().iter().map(|e| undone.mark(e.clone())).collect()
    }

    /// The audit at the head. The first call audits the whole game once; later events extend it.
    pub fn audit(&mut self) -> AuditReport {
        let auditor = self.auditor.get_or_insert_with(|| {
            let mut a = Auditor::<G>::new(&self.replay.config);
            let mut state = self.replay.initial().clone();
            for (i, step) in self.replay.steps().iter().enumerate() {
                a.observe(&state, step);
                state = self.replay.fold_step(state, i);
            }
            a
        });
        auditor.report(self.replay.tip())
    }

    /// Roughly the heap bytes this open game holds (the server's cache bound counts these): the
    /// sum below plus an eighth for what it does not see (the allocator's size classes, heap
    /// inside states and events). Measured against the heap held: the sum alone was 1.11x low
    /// on 100 open, audited Naruto games (`tools/bench-live --accounting`).
    pub fn approx_bytes(&self) -> usize {
        let steps = self.replay.steps().len();
        let seen = self.stored_bytes * 2
            + steps * (size_of::<Step<G::Event>>() + size_of::<super::Position>())
            + (self.replay.snapshot_count() + 2) * self.state_bytes
            + self.timeline_bytes
            + self.auditor.as_ref().map_or(0, Auditor::approx_bytes);
        seen + seen / 8
    }
}

fn entry_bytes(e: &TimelineEntry) -> usize {
    size_of::<TimelineEntry>() + e.recorded_at.len() + e.actor.len() + e.text.len() + e.phase.len() + e.step.len()
}

/// The first line of a game in JSON lines: the game and its configuration.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JsonlHeader<C> {
    /// The ruleset, e.g. "naruto".
    pub game: String,
    /// The rules version the game was recorded under. Every export names it, version 1's
    /// included, so a game exported from one store imports into another under its own rules,
    /// not the newest. Absent means version 1 ([`UNNAMED_RULES_VERSION`]): version 1's exports
    /// left it out (the pinned fixtures under `replays/` among them, which stay as written), and
    /// reading one of those under later rules would report violations its game never had. A
    /// hand-written game for later rules names their version.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules_version: Option<u32>,
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
    let head = JsonlHeader {
        game: G::RULESET.to_string(),
        rules_version: Some(G::RULESET_VERSION),
        stream: Some(stream.to_string()),
        config: config.clone(),
    };
    let mut out = serde_json::to_string(&head).map_err(GameError::Json)?;
    out.push('\n');
    for s in steps {
        let line = JsonlLine { seq: Some(s.seq), actor: s.actor.to_string(), entry: s.entry.clone() };
        out += &serde_json::to_string(&line).map_err(GameError::Json)?;
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
/// with its line number. Nothing is stored unless every line passes (all or nothing).
///
/// With `as_recorded` (a game recorded elsewhere), plain actions become
/// [`GameEntry::RecordedElsewhere`] and are kept even when they break rules, and so is a deck
/// that breaks the deck rules; the audit reports them. Either way every line must decode, forced
/// entries and rulings must come from judges and be sound, and a forced entry's `broke` list
/// must be exactly what the rules report for it.
pub fn parse_jsonl<G: Game>(text: &str, as_recorded: bool) -> Result<ParsedGame<G>, GameError> {
    let mut lines = text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty());
    let Some((_, first)) = lines.next() else {
        return Err(JsonlProblem::Empty.into());
    };
    let head = jsonl_header::<G>(first, as_recorded)?;
    let players = G::players(&head.config);
    let lines = jsonl_lines::<G>(lines, as_recorded)?;
    let refusals = jsonl_refusals::<G>(&head.config, &players, &lines)?;
    if !refusals.is_empty() {
        return Err(GameError::Refused(refusals));
    }
    let entries = lines.steps.into_iter().map(|s| (s.actor, s.entry)).collect();
    Ok(ParsedGame { config: head.config, stream: head.stream, entries })
}

/// The header line: this game's, its setup sound (unless recorded elsewhere), its names bounded.
fn jsonl_header<G: Game>(first: &str, as_recorded: bool) -> Result<JsonlHeader<G::Config>, GameError> {
    let head: JsonlHeader<G::Config> =
        serde_json::from_str(first).map_err(|error| JsonlProblem::Header { ruleset: G::RULESET, error })?;
    if head.game != G::RULESET {
        return Err(JsonlProblem::OtherGame { found: head.game, ruleset: G::RULESET }.into());
    }
    // A version's own driver reads only its own version, and a file naming none is version 1's.
    let have = vec![G::RULESET_VERSION];
    match head.rules_version {
        Some(found) if found != G::RULESET_VERSION => {
            return Err(JsonlProblem::RulesVersion { ruleset: G::RULESET, found: found.into(), have }.into());
        }
        None if u64::from(G::RULESET_VERSION) != UNNAMED_RULES_VERSION => {
            return Err(JsonlProblem::UnnamedRulesVersion { ruleset: G::RULESET, have }.into());
        }
        _ => {}
    }
    if !as_recorded {
        G::setup(&head.config).map_err(GameError::Setup)?;
    }
    limits::check_players(&G::players(&head.config)).map_err(JsonlProblem::Players)?;
    Ok(head)
}

/// The event lines decoded as steps, with the file line of each.
struct JsonlSteps<E> {
    steps: Vec<Step<E>>,
    /// The file line of each event, so refusals name lines without rescanning the text.
    line_of: Vec<usize>,
}

/// Decodes every event line; every line that does not decode or names a bad actor, seq or text
/// is reported, and any such problem refuses the file.
fn jsonl_lines<'a, G: Game>(
    lines: impl Iterator<Item = (usize, &'a str)>,
    as_recorded: bool,
) -> Result<JsonlSteps<G::Event>, GameError> {
    let mut problems = Vec::new();
    let mut out = JsonlSteps { steps: Vec::new(), line_of: Vec::new() };
    for (i, line) in lines {
        let lineno = i + 1;
        let parsed: JsonlLine<G::Event> = match serde_json::from_str(line) {
            Ok(p) => p,
            Err(error) => {
                problems.push(JsonlProblem::Undecodable { line: lineno, error });
                continue;
            }
        };
        let seq = out.steps.len() as u64;
        if parsed.seq.is_some_and(|s| s != seq) {
            problems.push(JsonlProblem::Seq { line: lineno, said: parsed.seq, seq });
        }
        // A bad actor or an over-long name refuses the file, but the line still counts as an
        // event, so the lines after it are numbered and checked as they stand.
        let actor: Actor = parsed.actor.parse().unwrap_or_else(|error| {
            problems.push(JsonlProblem::Actor { line: lineno, error });
            Actor::System
        });
        if let Err(error) = parsed.entry.check_text() {
            problems.push(JsonlProblem::Text { line: lineno, error });
        }
        let entry = match parsed.entry {
            GameEntry::Played(e) if as_recorded => GameEntry::RecordedElsewhere(e),
            GameEntry::RecordedElsewhere(_) if !as_recorded => {
                problems.push(JsonlProblem::RecordedElsewhere { line: lineno });
                continue;
            }
            other => other,
        };
        out.steps.push(Step { seq, recorded_at: Timestamp(0), actor, entry });
        out.line_of.push(lineno);
    }
    if !problems.is_empty() {
        return Err(GameError::Jsonl(problems));
    }
    Ok(out)
}

/// One fold checks every line; forced lines must come from judges, rulings must be sound, and a
/// forced line's `broke` list must be what the rules report.
fn jsonl_refusals<G: Game>(
    config: &G::Config,
    players: &[String],
    lines: &JsonlSteps<G::Event>,
) -> Result<Vec<Violation>, GameError> {
    let mut refusals = Vec::new();
    let steps = lines.steps.clone();
    Replay::<G>::with_inspector(config.clone(), steps, super::replay::SNAPSHOT_EVERY, |i, before, step| {
        let at = |message: String| format!("line {} (event {}): {message}", lines.line_of[i], step.seq);
        let violations = step_violations::<G>(players, before, step);
        match &step.entry {
            GameEntry::RecordedElsewhere(_) => {}
            GameEntry::SetAside { judge, by } => {
                if let Some(message) = unmatched_set_aside(&lines.steps, step.seq, judge, *by) {
                    refusals.push(Violation::new("KIFU-RULING-2", at(message)));
                }
            }
            GameEntry::Ruled(Ruling::EntrySetAside { seq, .. })
                if !lines.steps.get(*seq as usize).is_some_and(|s| matches!(s.entry, GameEntry::SetAside { .. })) =>
            {
                let message =
                    format!("event {seq} is not a set-aside entry; only undecodable stored bytes are set aside");
                refusals.push(Violation::new("KIFU-RULING-2", at(message)));
            }
            GameEntry::Forced { broke, .. } => {
                if let Some(message) = broke_mismatch(broke, &violations) {
                    refusals.push(Violation::new("KIFU-RULING-3", at(message)));
                }
                for v in violations.into_iter().filter(|v| v.rule.starts_with("KIFU-RULING")) {
                    refusals.push(Violation::new(v.rule, at(v.message)));
                }
            }
            _ => refusals.extend(violations.into_iter().map(|v| Violation::new(v.rule, at(v.message)))),
        }
    })
    .map_err(GameError::Setup)?;
    Ok(refusals)
}

/// Why a set-aside line of a JSON-lines game does not stand, if it does not: the line at `by`
/// must be the same judge's ruling setting event `seq` aside (the lines are in sequence order).
fn unmatched_set_aside<E>(steps: &[Step<E>], seq: u64, judge: &str, by: u64) -> Option<String> {
    let ruling = steps.binary_search_by_key(&by, |s| s.seq).ok().map(|i| &steps[i].entry);
    match ruling {
        Some(GameEntry::Ruled(Ruling::EntrySetAside { judge: j, seq: s, .. }))
            if *s == seq && j == judge && by > seq =>
        {
            None
        }
        _ => Some(format!("a set-aside entry needs judge {judge:?}'s ruling setting event {seq} aside at event {by}")),
    }
}

/// What is wrong with a forced entry's `broke` list, compared as a set with the rules the
/// rules report (each named once, in any order, however many times it was broken): the rules
/// it leaves out and those it names that were not broken.
fn broke_mismatch(broke: &[String], violations: &[Violation]) -> Option<String> {
    use std::collections::BTreeSet;
    let reported: BTreeSet<&str> =
        violations.iter().map(|v| v.rule).filter(|r| !r.starts_with("KIFU-RULING")).collect();
    let claimed: BTreeSet<&str> = broke.iter().map(String::as_str).collect();
    if reported == claimed {
        return None;
    }
    let list = |s: Vec<&&str>| {
        if s.is_empty() {
            "none".to_string()
        } else {
            s.iter().map(|r| **r).collect::<Vec<_>>().join(", ")
        }
    };
    let missing = list(reported.difference(&claimed).collect());
    let extra = list(claimed.difference(&reported).collect());
    Some(format!("the forced entry's broke list is not what the rules report: missing {missing}; not broken {extra}"))
}

/// A game in JSON lines as an in-memory, hash-chained log (times zero), parsed as recorded: how
/// `kifu game audit FILE` reads the JSON-lines form without a store.
pub fn jsonl_log<G: Game>(text: &str) -> Result<VerifiedLog, GameError> {
    let parsed = parse_jsonl::<G>(text, true)?;
    let stream = StreamId::new(parsed.stream.as_deref().unwrap_or("imported")).map_err(JsonlProblem::Stream)?;
    let header = game_header::<G>(&stream, &parsed.config, Timestamp(0))?;
    let header_bytes = chain::encode_header(&header)?;
    let mut prev = chain::header_hash(&header_bytes);
    let mut events = Vec::with_capacity(parsed.entries.len());
    for (seq, (actor, entry)) in parsed.entries.into_iter().enumerate() {
        let payload = postcard::to_stdvec(&entry)?;
        let envelope = Envelope::V1(EnvelopeV1 {
            stream: Cow::Borrowed(stream.as_str()),
            seq: seq as u64,
            recorded_at: Timestamp(0),
            actor,
            idempotency: None,
            payload: Cow::Owned(payload),
            prev,
        });
        let (stored, hash) = chain::seal_event(&envelope)?;
        events.push(stored);
        prev = hash;
    }
    chain::verify_log(header_bytes, events).map_err(|e| GameError::Store(StoreError::Corrupt(e)))
}

/// Imports a whole game (checked by [`parse_jsonl`]) as one atomic append.
pub fn import_entries<G: Game>(
    store: &dyn Store,
    stream: &StreamId,
    config: &G::Config,
    entries: Vec<(Actor, GameEntry<G::Event>)>,
    created_at: Timestamp,
) -> Result<Head, GameError> {
    import_entries_bound::<G>(store, stream, config, entries, created_at, None)
}

/// As [`import_entries`], the new stream bound to a tournament's match when `bound` names one.
pub fn import_entries_bound<G: Game>(
    store: &dyn Store,
    stream: &StreamId,
    config: &G::Config,
    entries: Vec<(Actor, GameEntry<G::Event>)>,
    created_at: Timestamp,
    bound: Option<MatchBinding>,
) -> Result<Head, GameError> {
    limits::check_players(&G::players(config))?;
    let header = bound_game_header::<G>(stream, config, created_at, bound)?;
    let mut events = Vec::with_capacity(entries.len());
    for (seq, (actor, entry)) in entries.into_iter().enumerate() {
        check_entry_text(&actor, &entry).map_err(|error| GameError::EventTooLong { seq: seq as u64, error })?;
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

/// The event a pick of option `id` among `offered` (listed after `len` events at `state`) records,
/// filled with `params` and, for a [`ParamKind::Dealt`] parameter, the cards `dealer` deals:
/// what [`LiveGame::pick`] records and [`super::explore`] plays, one path for both.
pub fn resolve_pick<G: Game>(
    state: &G::State,
    dealer: Option<&super::commit::AgentSecrets>,
    offered: &[GameOption<G::Event>],
    len: u64,
    id: &str,
    params: &std::collections::BTreeMap<String, Vec<String>>,
) -> Result<(Seat, G::Event), PickError> {
    let picked = offered.iter().find(|o| options::option_id(len, o) == id);
    let params = match picked {
        Some(option) => dealt_values::<G>(state, dealer, option, params)?,
        None => params.clone(),
    };
    options::resolve::<G>(state, len, offered, id, &params)
}

/// `params` with the values kifu deals for the picked `option`'s [`ParamKind::Dealt`] parameter,
/// from the seed it holds as the dealer. A pick that sends such values itself is refused: no
/// seat chooses the cards it is dealt.
fn dealt_values<G: Game>(
    state: &G::State,
    dealer: Option<&super::commit::AgentSecrets>,
    option: &GameOption<G::Event>,
    params: &std::collections::BTreeMap<String, Vec<String>>,
) -> Result<std::collections::BTreeMap<String, Vec<String>>, PickError> {
    let Some(param) = option.param().filter(|p| p.kind == ParamKind::Dealt) else { return Ok(params.clone()) };
    if params.get(param.name).is_some_and(|v| !v.is_empty()) {
        return Err(PickError::Param(format!("kifu deals the cards of {}: send no values for it", param.name)));
    }
    let dealer = dealer.ok_or(PickError::NoDealer)?;
    let cards = G::deal_cards(state, option.seat, param.count, dealer)
        .ok_or_else(|| PickError::Param(format!("the dealer cannot deal {} card(s) now", param.count)))?;
    let mut filled = params.clone();
    filled.insert(param.name.to_string(), cards);
    Ok(filled)
}

/// The automatic step due at `table`: a step the rules fully determine while the game runs,
/// else one `dealer`'s seeds determine (its reveal comes after the end).
pub fn automatic_step<G: Game>(
    table: &super::replay::Table<G>,
    dealer: Option<&super::commit::AgentSecrets>,
) -> Option<G::Event> {
    let ruled = if table.outcome().is_none() { G::automatic(&table.game) } else { None };
    ruled.or_else(|| dealer.and_then(|d| G::dealt(&table.game, d)))
}

/// At most this many automatic steps follow one pick: a game whose automatic steps never stop
/// would otherwise record forever (every game's steps end well within it).
pub const MAX_AUTOMATIC: usize = 64;

impl<G: Game> LiveGame<G> {
    /// The options open to `seats` at the head, in seat order (a judge passes every seat); none
    /// once the game is over or for a seat a judge's game loss eliminated. `None` when the game
    /// has no options table yet.
    pub fn options(&self, seats: &[Seat]) -> Option<Vec<GameOption<G::Event>>> {
        let tip = self.replay.tip();
        if tip.outcome().is_some() {
            return Some(Vec::new());
        }
        let out = tip.eliminated();
        let len = self.len();
        let mut all = Vec::new();
        for seat in seats.iter().filter(|s| !out.contains(s)) {
            let kept = {
                let memo = self.options_memo.lock().unwrap_or_else(|p| p.into_inner());
                (memo.0 == len).then(|| memo.1.iter().find(|(s, _)| s == seat).map(|(_, o)| o.clone())).flatten()
            };
            let listed = match kept {
                Some(o) => o,
                None => {
                    let o = G::options(&tip.game, *seat)?;
                    let mut memo = self.options_memo.lock().unwrap_or_else(|p| p.into_inner());
                    if memo.0 != len {
                        *memo = (len, Vec::new());
                    }
                    memo.1.push((*seat, o.clone()));
                    o
                }
            };
            all.extend(listed);
        }
        Some(all)
    }

    /// Records the option `id` of one of `seats` (filled with `params`), entered by `by.actor`,
    /// together with every automatic step it made due ([`Game::automatic`]), entered by kifu
    /// itself, in ONE append: no reader ever sees the action without its steps, and a retry under
    /// the same idempotency key records neither twice. `by.expected`, when given, must be the
    /// number of events the pick was made after. Returns what was recorded, the pick first (each
    /// with the head after the whole append).
    pub fn pick(
        &mut self,
        by: Write<'_>,
        seats: &[Seat],
        id: &str,
        params: &std::collections::BTreeMap<String, Vec<String>>,
    ) -> Result<Vec<Recorded>, GameError> {
        self.catch_up(by.store)?;
        let len = self.len();
        let resolved = match by.expected.filter(|w| *w != len) {
            Some(want) => Err(PickError::Stale { id: id.to_string(), offered: want, now: len }),
            None => match self.options(seats) {
                None => Err(PickError::NotWritten { ruleset: G::RULESET }),
                Some(offered) => {
                    resolve_pick::<G>(&self.replay.tip().game, self.dealer.as_ref(), &offered, len, id, params)
                }
            },
        };
        match resolved {
            Ok((_, event)) => self.record_with_automatic(by.store, by.actor, GameEntry::Played(event), by.idempotency),
            // Judged only when the pick fails, so a first attempt costs no extra look-up: a retry
            // of a pick that landed finds its first event under the key.
            Err(e) => self.retried(by, e.into()),
        }
    }

    /// Records `by.actor`'s concession of `seat` ([`GameEntry::Conceded`]) with the automatic
    /// steps it makes due (the turn passing on in a pod, the dealer's reveal once the game is
    /// over), in one append, as a pick is. `by.expected`, when given, must be the game's length;
    /// a retry under the same idempotency key answers with the first attempt's event.
    pub fn concede(&mut self, by: Write<'_>, seat: Seat) -> Result<Vec<Recorded>, GameError> {
        self.catch_up(by.store)?;
        let len = self.len();
        let out = match by.expected.filter(|w| *w != len) {
            Some(want) => Err(GameError::Store(StoreError::WrongExpectedVersion {
                stream: self.stream().to_string(),
                expected: ExpectedVersion::Exact(want),
                current: Some(len),
            })),
            None => {
                self.record_with_automatic(by.store, by.actor.clone(), GameEntry::Conceded { seat }, by.idempotency)
            }
        };
        match out {
            Err(e) if may_be_a_retry(&e) => self.retried(by, e),
            out => out,
        }
    }

    /// After a write failed with `e`: the first attempt's event when `by` carries an idempotency
    /// key already recorded (a retry of a write that landed, answered as it was), else `e`.
    fn retried(&self, by: Write<'_>, e: GameError) -> Result<Vec<Recorded>, GameError> {
        let Some(key) = by.idempotency else { return Err(e) };
        match by.store.recorded_id(self.stream(), &key)? {
            Some(seq) => Ok(vec![Recorded { seq, head: self.head(), flagged: vec![], retried: true }]),
            None => Err(e),
        }
    }

    /// Records the automatic steps due now, with no pick before them (a new dealt game's
    /// commitment and shuffles), in one append. Records nothing when none is due.
    pub fn settle(&mut self, store: &dyn Store) -> Result<Vec<Recorded>, GameError> {
        self.catch_up(store)?;
        match automatic_step(self.replay.tip(), self.dealer.as_ref()) {
            Some(event) => self.record_with_automatic(store, Actor::System, GameEntry::Played(event), None),
            None => Ok(Vec::new()),
        }
    }

    /// Appends `entry` (entered by `actor`: a picked action or a concession) and the automatic
    /// steps that follow it, in one append expecting the current length.
    fn record_with_automatic(
        &mut self,
        store: &dyn Store,
        actor: Actor,
        entry: GameEntry<G::Event>,
        idempotency: Option<IdempotencyId>,
    ) -> Result<Vec<Recorded>, GameError> {
        let len = self.len();
        let mut table = self.replay.tip().clone();
        let mut events = Vec::new();
        let mut next = Some((actor, entry));
        while let Some((actor, entry)) = next.take() {
            let seq = len + events.len() as u64;
            let step = Step { seq, recorded_at: Timestamp(0), actor, entry };
            check_entry_text(&step.actor, &step.entry)?;
            let violations = step_violations::<G>(&self.players, &table, &step);
            let (entry, _) = checked_entry::<G>(step.entry, violations)?;
            match &entry {
                GameEntry::Played(e) => {
                    G::ledger_mut(&mut table.game).at(seq);
                    table.game = G::apply(table.game, e);
                    table.folded = seq + 1;
                }
                GameEntry::Conceded { seat } => {
                    table = table.conceded(seq, *seat);
                    table.folded = seq + 1;
                }
                _ => {}
            }
            let n = events.len();
            events.push(NewEvent {
                actor: step.actor,
                payload: postcard::to_stdvec(&entry)?,
                idempotency: idempotency.map(|k| k.nth(n)),
            });
            if events.len() <= MAX_AUTOMATIC {
                next = automatic_step(&table, self.dealer.as_ref()).map(|e| (Actor::System, GameEntry::Played(e)));
            }
        }
        let count = events.len() as u64;
        let appended = store.append(AppendRequest {
            stream: self.stream().clone(),
            expected: ExpectedVersion::Exact(len),
            create: None,
            events,
        })?;
        if !appended.retried && appended.first_seq == len {
            self.extend(&appended.stored)?;
        }
        self.catch_up_to(store, appended.head)?;
        let at = |i: u64| Recorded {
            seq: appended.first_seq + i,
            head: appended.head,
            flagged: vec![],
            retried: appended.retried,
        };
        Ok((0..count).map(at).collect())
    }
}
