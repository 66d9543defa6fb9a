//! The JSON form of a log, both ways, and its JSON Schema (generated from these types into
//! `schema/kifu-log.schema.json`; a test regenerates and compares).
//!
//! The JSON mirrors the stored records field by field, with payloads in hex. Importing re-encodes
//! every record with postcard and checks each hash, so a JSON log that imports is byte-for-byte
//! the log that was exported. The `*_utc` fields are for people; import checks they agree.

use std::borrow::Cow;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::chain::{self, At, ChainError, Problem, VerifiedLog};
use super::envelope::{
    Actor, Envelope, EnvelopeV1, Header, HeaderV1, IdempotencyId, MatchBinding, MatchPlace, StreamId, StreamKind,
    Timestamp,
};
use super::hash::Hash32;
use super::LogError;

/// The value of [`JsonLog::format`].
pub const JSON_FORMAT: &str = "kifu-log";
/// The JSON form version this build writes and reads.
pub const JSON_VERSION: u32 = 1;

/// A whole stream as JSON.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct JsonLog {
    /// Always `"kifu-log"`.
    pub format: String,
    /// The JSON form version, 1.
    pub version: u32,
    pub header: JsonHeader,
    /// The events in sequence order.
    pub events: Vec<JsonEvent>,
    pub head: JsonHead,
}

/// The stream header, field by field.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct JsonHeader {
    pub stream: String,
    pub kind: StreamKind,
    pub ruleset: String,
    pub ruleset_version: u32,
    pub players: Vec<String>,
    /// The ruleset's configuration bytes, hex.
    pub config_hex: String,
    /// Microseconds since the Unix epoch, UTC.
    pub created_at: i64,
    /// `created_at` in RFC 3339, for people.
    pub created_at_utc: String,
    /// The header hash event 0 chains from.
    pub hash: Hash32,
    /// The match a game was created bound to (a version 2 header); absent for an unbound stream.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bound: Option<JsonBinding>,
}

/// A game's binding to a tournament's match, field by field.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct JsonBinding {
    pub tournament: String,
    pub round: u32,
    pub place: MatchPlace,
}

/// One event envelope, field by field.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct JsonEvent {
    pub seq: u64,
    /// Microseconds since the Unix epoch, UTC.
    pub recorded_at: i64,
    /// `recorded_at` in RFC 3339, for people.
    pub recorded_at_utc: String,
    pub actor: Actor,
    /// The client's idempotency id, 32 hex digits.
    pub idempotency: Option<String>,
    /// The payload bytes, hex.
    pub payload_hex: String,
    pub prev: Hash32,
    pub hash: Hash32,
}

/// The head of the log: how many events and the hash of the last one.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct JsonHead {
    pub events: u64,
    pub hash: Hash32,
}

/// The JSON Schema of [`JsonLog`], pretty-printed, as kept in `schema/kifu-log.schema.json`.
pub fn schema() -> String {
    let schema = schemars::schema_for!(JsonLog);
    let mut s = serde_json::to_string_pretty(&schema).unwrap_or_default();
    s.push('\n');
    s
}

/// The JSON form of a verified log.
pub fn to_json(log: &VerifiedLog) -> Result<JsonLog, LogError> {
    let h = log.header.v1();
    let header = JsonHeader {
        stream: h.stream.to_string(),
        kind: h.kind,
        ruleset: h.ruleset.clone(),
        ruleset_version: h.ruleset_version,
        players: h.players.clone(),
        config_hex: hex::encode(&h.config),
        created_at: h.created_at.0,
        created_at_utc: h.created_at.to_rfc3339(),
        hash: chain::header_hash(&log.header_bytes),
        bound: log.header.bound().map(|b| JsonBinding {
            tournament: b.tournament.to_string(),
            round: b.round,
            place: b.place,
        }),
    };
    let mut events = Vec::with_capacity(log.events.len());
    for stored in &log.events {
        let (env, hash) = chain::open_event(stored).map_err(|problem| {
            LogError::Chain(ChainError { stream: h.stream.to_string(), at: At::Event(events.len() as u64), problem })
        })?;
        let e = env.v1();
        events.push(JsonEvent {
            seq: e.seq,
            recorded_at: e.recorded_at.0,
            recorded_at_utc: e.recorded_at.to_rfc3339(),
            actor: e.actor.clone(),
            idempotency: e.idempotency.map(|i| i.to_hex()),
            payload_hex: hex::encode(&e.payload),
            prev: e.prev,
            hash,
        });
    }
    Ok(JsonLog {
        format: JSON_FORMAT.to_string(),
        version: JSON_VERSION,
        header,
        events,
        head: JsonHead { events: log.head.len, hash: log.head.hash },
    })
}

/// Parses JSON text into a verified log, re-encoding every record and checking every hash.
pub fn from_json_str(text: &str) -> Result<VerifiedLog, LogError> {
    let json: JsonLog = serde_json::from_str(text).map_err(|e| LogError::Json(e.to_string()))?;
    from_json(&json)
}

/// Rebuilds the stored bytes from the JSON form and verifies them.
pub fn from_json(json: &JsonLog) -> Result<VerifiedLog, LogError> {
    if json.format != JSON_FORMAT {
        return Err(LogError::Json(format!("\"format\" is {:?}, expected {JSON_FORMAT:?}", json.format)));
    }
    if json.version != JSON_VERSION {
        return Err(LogError::Json(format!(
            "unknown JSON log version {} (this build reads version {JSON_VERSION})",
            json.version
        )));
    }
    let (stream, header_bytes) = header_from_json(&json.header)?;
    let events =
        json.events.iter().enumerate().map(|(i, je)| event_from_json(&stream, i, je)).collect::<Result<_, _>>()?;
    let log = chain::verify_log(header_bytes, events)?;
    if log.head.len != json.head.events || log.head.hash != json.head.hash {
        return Err(LogError::Chain(ChainError {
            stream: stream.to_string(),
            at: At::Event(log.head.len),
            problem: if json.head.events > log.head.len {
                Problem::Missing { expected_events: json.head.events }
            } else {
                Problem::BrokenLink { expected: json.head.hash, found: log.head.hash }
            },
        }));
    }
    Ok(log)
}

/// The header's stored bytes, checked against the hash the JSON gives for them.
fn header_from_json(jh: &JsonHeader) -> Result<(StreamId, Vec<u8>), LogError> {
    let stream = StreamId::new(&jh.stream)?;
    let created_at = Timestamp(jh.created_at);
    check_utc("header.created_at_utc", created_at, &jh.created_at_utc)?;
    let bound = match &jh.bound {
        None => None,
        Some(b) => Some(MatchBinding {
            tournament: StreamId::new(&b.tournament)
                .map_err(|e| LogError::Json(format!("header.bound.tournament: {e}")))?,
            round: b.round,
            place: b.place,
        }),
    };
    let v1 = HeaderV1 {
        stream: stream.clone(),
        kind: jh.kind,
        ruleset: jh.ruleset.clone(),
        ruleset_version: jh.ruleset_version,
        players: jh.players.clone(),
        config: hex::decode(&jh.config_hex).map_err(|e| LogError::Json(format!("header.config_hex: {e}")))?,
        created_at,
    };
    let header = Header::with_binding(v1, bound);
    let header_bytes = chain::encode_header(&header)?;
    let computed = chain::header_hash(&header_bytes);
    if computed != jh.hash {
        return Err(LogError::Chain(ChainError {
            stream: stream.to_string(),
            at: At::Header,
            problem: Problem::HashMismatch { stored: jh.hash, computed },
        }));
    }
    Ok((stream, header_bytes))
}

/// Event `i`'s stored bytes, checked against the hash the JSON gives for them.
fn event_from_json(stream: &StreamId, i: usize, je: &JsonEvent) -> Result<Vec<u8>, LogError> {
    let where_ = format!("events[{i}] (seq {})", je.seq);
    let recorded_at = Timestamp(je.recorded_at);
    check_utc(&format!("{where_}.recorded_at_utc"), recorded_at, &je.recorded_at_utc)?;
    let idempotency = match &je.idempotency {
        None => None,
        Some(h) => Some(IdempotencyId::from_hex(h).map_err(|e| LogError::Json(format!("{where_}.idempotency: {e}")))?),
    };
    let payload = hex::decode(&je.payload_hex).map_err(|e| LogError::Json(format!("{where_}.payload_hex: {e}")))?;
    let envelope = Envelope::V1(EnvelopeV1 {
        stream: Cow::Borrowed(stream.as_str()),
        seq: je.seq,
        recorded_at,
        actor: je.actor.clone(),
        idempotency,
        payload: Cow::Owned(payload),
        prev: je.prev,
    });
    let (stored, computed) = chain::seal_event(&envelope)?;
    if computed != je.hash {
        return Err(LogError::Chain(ChainError {
            stream: stream.to_string(),
            at: At::Event(i as u64),
            problem: Problem::HashMismatch { stored: je.hash, computed },
        }));
    }
    Ok(stored)
}

fn check_utc(field: &str, t: Timestamp, text: &str) -> Result<(), LogError> {
    if t.to_rfc3339() != text {
        return Err(LogError::Json(format!("{field} is {text:?} but the integer time says {:?}", t.to_rfc3339())));
    }
    Ok(())
}
