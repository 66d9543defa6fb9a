//! The stored records of a stream: its header and its event envelopes, and their postcard encoding.
//!
//! Both are stored formats. Postcard encodes enum variants by index and structs by field
//! position, so records are versioned enums (`V1`, later `V2`, ...): variants are only ever
//! appended and a stored struct never gains a field.

use std::borrow::Cow;
use std::fmt;
use std::str::FromStr;

use chrono::{DateTime, TimeZone, Utc};
use serde::{Deserialize, Serialize};

use super::hash::Hash32;
use super::limits;
use super::LogError;

/// A stream's id: 1 to 64 characters of `A-Z a-z 0-9 . _ -`, starting with a letter or digit.
/// Part of every hashed envelope, so a record cannot be moved to another stream unnoticed.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct StreamId(String);

impl StreamId {
    pub fn new(id: &str) -> Result<Self, LogError> {
        let bad = |why| Err(LogError::InvalidStreamId { id: super::quote_prefix(id), why });
        if id.is_empty() || id.len() > 64 {
            return bad("it must be 1 to 64 characters long");
        }
        if !id.chars().next().is_some_and(|c| c.is_ascii_alphanumeric()) {
            return bad("it must start with a letter or a digit");
        }
        if !id.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-')) {
            return bad("only letters, digits, '.', '_' and '-' are allowed");
        }
        Ok(StreamId(id.to_string()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for StreamId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl FromStr for StreamId {
    type Err = LogError;
    fn from_str(s: &str) -> Result<Self, LogError> {
        StreamId::new(s)
    }
}

/// Who recorded an event. Stored format: variants are only ever appended.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
pub enum Actor {
    /// A player, by the name they are registered under.
    Player(String),
    /// A judge, by name or judge id.
    Judge(String),
    /// The organizer (tournament official or scorekeeper).
    Organizer(String),
    /// kifu itself (imports, automatic steps).
    System,
}

impl fmt::Display for Actor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Actor::Player(n) => write!(f, "player:{n}"),
            Actor::Judge(n) => write!(f, "judge:{n}"),
            Actor::Organizer(n) => write!(f, "organizer:{n}"),
            Actor::System => f.write_str("system"),
        }
    }
}

impl Actor {
    /// Checks the name this actor records under against [`limits::NAME_MAX`] (`system` has none).
    pub fn check_name(&self) -> Result<(), limits::TooLong> {
        let (kind, name) = match self {
            Actor::Player(n) => ("player", n),
            Actor::Judge(n) => ("judge", n),
            Actor::Organizer(n) => ("organizer", n),
            Actor::System => return Ok(()),
        };
        limits::check_name(|| format!("the actor's {kind} name"), name)
    }

    /// The actor as a listing shows it (`player:NAME`, its name cut by [`limits::shown`]).
    pub fn shown(&self) -> String {
        match self {
            Actor::Player(n) => format!("player:{}", limits::shown(n)),
            Actor::Judge(n) => format!("judge:{}", limits::shown(n)),
            Actor::Organizer(n) => format!("organizer:{}", limits::shown(n)),
            Actor::System => "system".into(),
        }
    }
}

impl FromStr for Actor {
    type Err = LogError;
    /// Parses `player:NAME`, `judge:NAME`, `organizer:NAME` or `system`.
    fn from_str(s: &str) -> Result<Self, LogError> {
        let err = || LogError::InvalidActor { text: super::quote_prefix(s) };
        if s == "system" {
            return Ok(Actor::System);
        }
        let (kind, name) = s.split_once(':').ok_or_else(err)?;
        if name.is_empty() {
            return Err(err());
        }
        // Where an actor is typed or imported (`--actor`, JSON lines), its name is bounded.
        limits::check_name(|| format!("the actor's {kind} name"), name)?;
        let name = name.to_string();
        match kind {
            "player" => Ok(Actor::Player(name)),
            "judge" => Ok(Actor::Judge(name)),
            "organizer" => Ok(Actor::Organizer(name)),
            _ => Err(err()),
        }
    }
}

/// When an event was recorded: microseconds since the Unix epoch, UTC. Stored as an integer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Timestamp(pub i64);

impl Timestamp {
    pub fn from_datetime(t: DateTime<Utc>) -> Self {
        Timestamp(t.timestamp_micros())
    }

    pub fn to_datetime(self) -> Option<DateTime<Utc>> {
        Utc.timestamp_micros(self.0).single()
    }

    /// RFC 3339 with microseconds, e.g. `2026-11-21T12:00:00.000000Z`.
    pub fn to_rfc3339(self) -> String {
        match self.to_datetime() {
            Some(t) => t.to_rfc3339_opts(chrono::SecondsFormat::Micros, true),
            None => format!("<out-of-range {}µs>", self.0),
        }
    }
}

/// What kind of thing a stream records. Stored format: variants are only ever appended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
pub enum StreamKind {
    /// One game; the ruleset names the game module and the payloads are its `GameEntry` events.
    Game,
    /// One tournament.
    Tournament,
    /// Opaque payloads that kifu does not decode (free-form notes, tests, benchmarks).
    Opaque,
}

impl fmt::Display for StreamKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            StreamKind::Game => "game",
            StreamKind::Tournament => "tournament",
            StreamKind::Opaque => "opaque",
        })
    }
}

/// A client-chosen id that makes a retried append idempotent. 16 bytes; hex in JSON.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct IdempotencyId(pub [u8; 16]);

impl IdempotencyId {
    /// Derives an id from any client string (a UUID, "table-7-round-3-result", ...).
    pub fn from_key(key: &str) -> Self {
        let h = blake3::derive_key("kifu 2026-11-21 idempotency id v1", key.as_bytes());
        let mut id = [0u8; 16];
        id.copy_from_slice(&h[..16]);
        IdempotencyId(id)
    }

    pub fn to_hex(&self) -> String {
        hex::encode(self.0)
    }

    /// The id of the `n`th event of a request keyed by this id (the first is `n = 0`, the id
    /// itself), so every event of a multi-event append carries one and a retry of the whole
    /// request is recognised.
    pub fn nth(&self, n: usize) -> Self {
        if n == 0 {
            return *self;
        }
        let h = blake3::derive_key(
            "kifu 2026-11-27 idempotency id of a batch event v1",
            &[&self.0[..], &n.to_le_bytes()].concat(),
        );
        let mut id = [0u8; 16];
        id.copy_from_slice(&h[..16]);
        IdempotencyId(id)
    }

    pub fn from_hex(s: &str) -> Result<Self, LogError> {
        let mut out = [0u8; 16];
        hex::decode_to_slice(s, &mut out)
            .map_err(|_| LogError::InvalidHex { digits: 32, text: super::quote_prefix(s) })?;
        Ok(IdempotencyId(out))
    }
}

/// A stream's header: the record every chain starts from. Stored format.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Header {
    V1(HeaderV1),
    /// A game created bound to one match of a tournament: the version 1 fields and the binding.
    V2(HeaderV2),
}

/// Version 1 of the header. Never add a field: add `HeaderV2` instead.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeaderV1 {
    pub stream: StreamId,
    pub kind: StreamKind,
    /// The rules the payloads follow, e.g. `naruto`; `opaque` for opaque streams.
    pub ruleset: String,
    pub ruleset_version: u32,
    /// Player names in seat order (empty for a tournament, whose players register by events).
    pub players: Vec<String>,
    /// The ruleset's configuration (decks, policies), postcard-encoded by the ruleset.
    #[serde(with = "serde_bytes")]
    pub config: Vec<u8>,
    pub created_at: Timestamp,
}

/// Version 2 of the header: a game bound to a tournament's match from its creation. Never add a
/// field: add `HeaderV3` instead.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeaderV2 {
    pub header: HeaderV1,
    pub bound: MatchBinding,
}

/// The match a game belongs to: a tournament stream, a round, and a table (two players) or a pod
/// (several). Stored format.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct MatchBinding {
    pub tournament: StreamId,
    pub round: u32,
    pub place: MatchPlace,
}

/// Where in a round a match is played. Stored format: variants are only ever appended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
pub enum MatchPlace {
    /// A two-player table, numbered from 1.
    Table(u32),
    /// A pod of a multiplayer game, numbered from 1.
    Pod(u32),
}

impl fmt::Display for MatchBinding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (what, n) = match self.place {
            MatchPlace::Table(n) => ("table", n),
            MatchPlace::Pod(n) => ("pod", n),
        };
        write!(f, "{} round {} {what} {n}", self.tournament, self.round)
    }
}

impl Header {
    /// The header of an opaque stream (free-form notes, tests, benchmarks): no players, no configuration.
    pub fn opaque(stream: StreamId, created_at: Timestamp) -> Header {
        Header::V1(HeaderV1 {
            stream,
            kind: StreamKind::Opaque,
            ruleset: "opaque".into(),
            ruleset_version: 1,
            players: vec![],
            config: vec![],
            created_at,
        })
    }

    /// The version 1 fields, which every header version holds.
    pub fn v1(&self) -> &HeaderV1 {
        match self {
            Header::V1(h) => h,
            Header::V2(h) => &h.header,
        }
    }

    /// The version 1 fields, to edit (tests and tools that craft headers).
    pub fn v1_mut(&mut self) -> &mut HeaderV1 {
        match self {
            Header::V1(h) => h,
            Header::V2(h) => &mut h.header,
        }
    }

    /// The match a game was created bound to, if any. Hashed with the header, so it can never
    /// change: the one fact that decides which tournament may link the game.
    pub fn bound(&self) -> Option<&MatchBinding> {
        match self {
            Header::V1(_) => None,
            Header::V2(h) => Some(&h.bound),
        }
    }

    /// `header` bound to `bound` (version 2), or as it is (version 1) when there is no binding.
    pub fn with_binding(header: HeaderV1, bound: Option<MatchBinding>) -> Header {
        match bound {
            None => Header::V1(header),
            Some(bound) => Header::V2(HeaderV2 { header, bound }),
        }
    }

    pub fn stream(&self) -> &StreamId {
        &self.v1().stream
    }
}

/// One event as stored: everything the hash covers. Stored format.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Envelope<'a> {
    #[serde(borrow)]
    V1(EnvelopeV1<'a>),
}

/// Version 1 of the envelope. Never add a field: add `EnvelopeV2` instead.
/// Borrows its stream id and payload when decoded from stored bytes, so verification does not allocate for them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EnvelopeV1<'a> {
    #[serde(borrow)]
    pub stream: Cow<'a, str>,
    /// Contiguous from 0 within the stream.
    pub seq: u64,
    pub recorded_at: Timestamp,
    pub actor: Actor,
    pub idempotency: Option<IdempotencyId>,
    /// The postcard bytes of the ruleset's versioned event type; the log never decodes them.
    #[serde(borrow, with = "serde_bytes")]
    pub payload: Cow<'a, [u8]>,
    /// The hash of the previous event, or of the header for event 0.
    pub prev: Hash32,
}

impl Envelope<'_> {
    pub fn v1(&self) -> &EnvelopeV1<'_> {
        match self {
            Envelope::V1(e) => e,
        }
    }

    pub fn into_owned(self) -> Envelope<'static> {
        match self {
            Envelope::V1(e) => Envelope::V1(EnvelopeV1 {
                stream: Cow::Owned(e.stream.into_owned()),
                seq: e.seq,
                recorded_at: e.recorded_at,
                actor: e.actor,
                idempotency: e.idempotency,
                payload: Cow::Owned(e.payload.into_owned()),
                prev: e.prev,
            }),
        }
    }
}
