//! The hash spec and chain verification. This file and docs/format.md ("What is hashed") are the
//! specification; the golden files under `schema/golden/` pin it.
//!
//! - Header hash: `blake3 derive_key(HEADER_CONTEXT, header_bytes)`, where `header_bytes` are the
//!   exact stored postcard bytes of [`Header`].
//! - Event hash: `blake3 derive_key(EVENT_CONTEXT, body)`, where `body` are the exact stored
//!   postcard bytes of [`Envelope`]. The envelope contains the previous hash (the header hash for
//!   event 0), so each hash commits to the whole log before it.
//! - An event is stored as `body ‖ hash` (the hash is the last 32 bytes). The stored bytes are the
//!   same in the sled store, in `.kifu` files and (hex-encoded) in the JSON form.
//! - The head hash of a stream is the hash of its last event, or its header hash when it has none.

use std::fmt;
use std::sync::LazyLock;

use blake3::hazmat::{hash_derive_key_context, ContextKey, HasherExt};

use super::envelope::{Envelope, Header, StreamId};
use super::hash::Hash32;

/// blake3 derive_key context for header hashes. Fixed forever.
pub const HEADER_CONTEXT: &str = "kifu 2026-11-21 stream header v1";
/// blake3 derive_key context for event hashes. Fixed forever.
pub const EVENT_CONTEXT: &str = "kifu 2026-11-21 event v1";

/// Where in a log a problem is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum At {
    Header,
    Event(u64),
}

impl fmt::Display for At {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            At::Header => f.write_str("header"),
            At::Event(seq) => write!(f, "event {seq}"),
        }
    }
}

/// What is wrong with one record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// The stored bytes are too short to hold a record and its hash.
    TooShort { len: usize },
    /// The stored hash does not match the record's bytes: the record was edited or corrupted.
    HashMismatch { stored: Hash32, computed: Hash32 },
    /// The bytes do not decode as a record of any known version.
    Undecodable(String),
    /// The record decodes but leaves bytes over.
    TrailingBytes(usize),
    /// The record names another stream.
    WrongStream { found: String },
    /// The record has another sequence number than its position: an event was removed, duplicated or moved.
    WrongSeq { found: u64 },
    /// The record's previous hash is not the hash of the record before it: the log was spliced or reordered.
    BrokenLink { expected: Hash32, found: Hash32 },
    /// The log ends before its recorded length: events are missing at the end.
    Missing { expected_events: u64 },
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::TooShort { len } => write!(f, "record is only {len} bytes, too short to hold a record and its 32-byte hash"),
            Problem::HashMismatch { stored, computed } => write!(
                f,
                "hash does not match the record's bytes (stored {}, computed {}): the record was edited or corrupted",
                stored.short(),
                computed.short()
            ),
            Problem::Undecodable(e) => write!(f, "bytes do not decode as a record: {e}"),
            Problem::TrailingBytes(n) => write!(f, "record has {n} unexpected bytes after it"),
            Problem::WrongStream { found } => write!(f, "record belongs to stream {found:?}"),
            Problem::WrongSeq { found } => {
                write!(f, "record has sequence number {found}: an event is missing, duplicated or out of order")
            }
            Problem::BrokenLink { expected, found } => write!(
                f,
                "previous-hash link is broken (expected {}, found {}): the log was reordered, spliced or an earlier record changed",
                expected.short(),
                found.short()
            ),
            Problem::Missing { expected_events } => {
                write!(f, "log ends here but should hold {expected_events} events: events are missing (truncated)")
            }
        }
    }
}

/// A verification failure: which stream, where, and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("stream {stream}, {at}: {problem}")]
pub struct ChainError {
    pub stream: String,
    pub at: At,
    pub problem: Problem,
}

// The context strings hashed once: `Hasher::new_derive_key` re-hashes the context on every
// call (one extra compression per record, ~25% of hashing a 200-byte event). Same hashes.
static HEADER_KEY: LazyLock<ContextKey> = LazyLock::new(|| hash_derive_key_context(HEADER_CONTEXT));
static EVENT_KEY: LazyLock<ContextKey> = LazyLock::new(|| hash_derive_key_context(EVENT_CONTEXT));

/// The stored bytes of a header.
pub fn encode_header(header: &Header) -> Result<Vec<u8>, postcard::Error> {
    postcard::to_stdvec(header)
}

/// The hash event 0 chains from.
pub fn header_hash(header_bytes: &[u8]) -> Hash32 {
    blake3::Hasher::new_from_context_key(&HEADER_KEY).update(header_bytes).finalize().into()
}

/// The hash of an event's stored body.
pub fn event_hash(body: &[u8]) -> Hash32 {
    blake3::Hasher::new_from_context_key(&EVENT_KEY).update(body).finalize().into()
}

/// Decodes stored header bytes, requiring that they decode exactly.
pub fn decode_header(bytes: &[u8]) -> Result<Header, Problem> {
    let (header, rest) = postcard::take_from_bytes::<Header>(bytes).map_err(|e| Problem::Undecodable(e.to_string()))?;
    if !rest.is_empty() {
        return Err(Problem::TrailingBytes(rest.len()));
    }
    Ok(header)
}

/// Encodes an envelope and appends its hash: the exact bytes to store. Returns them and the hash.
pub fn seal_event(envelope: &Envelope<'_>) -> Result<(Vec<u8>, Hash32), postcard::Error> {
    let mut stored = postcard::to_stdvec(envelope)?;
    let hash = event_hash(&stored);
    stored.extend_from_slice(&hash.0);
    Ok((stored, hash))
}

/// Checks a stored event's hash against its bytes and decodes it (borrowing from `stored`).
pub fn open_event(stored: &[u8]) -> Result<(Envelope<'_>, Hash32), Problem> {
    if stored.len() < 33 {
        return Err(Problem::TooShort { len: stored.len() });
    }
    let (body, tail) = stored.split_at(stored.len() - 32);
    let mut stored_hash = [0u8; 32];
    stored_hash.copy_from_slice(tail);
    let stored_hash = Hash32(stored_hash);
    let computed = event_hash(body);
    if computed != stored_hash {
        return Err(Problem::HashMismatch { stored: stored_hash, computed });
    }
    let (envelope, rest) =
        postcard::take_from_bytes::<Envelope<'_>>(body).map_err(|e| Problem::Undecodable(e.to_string()))?;
    if !rest.is_empty() {
        return Err(Problem::TrailingBytes(rest.len()));
    }
    Ok((envelope, computed))
}

/// Splits and decodes an event of a log already verified (see [`VerifiedLog`]) without hashing
/// it again: its stored hash was checked against its bytes when the log was verified.
pub fn open_verified(stored: &[u8]) -> Result<(Envelope<'_>, Hash32), Problem> {
    if stored.len() < 33 {
        return Err(Problem::TooShort { len: stored.len() });
    }
    let (body, tail) = stored.split_at(stored.len() - 32);
    let mut hash = [0u8; 32];
    hash.copy_from_slice(tail);
    let (envelope, rest) =
        postcard::take_from_bytes::<Envelope<'_>>(body).map_err(|e| Problem::Undecodable(e.to_string()))?;
    if !rest.is_empty() {
        return Err(Problem::TrailingBytes(rest.len()));
    }
    Ok((envelope, Hash32(hash)))
}

/// Where a verified log stands: how many events it holds and its head hash.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Head {
    /// The number of events, which is also the next sequence number.
    pub len: u64,
    /// The hash of the last event, or the header hash for an empty stream.
    pub hash: Hash32,
}

/// Verifies a log record by record: each event's hash, stream, sequence number and link.
#[derive(Clone, Debug)]
pub struct Verifier {
    stream: StreamId,
    head: Head,
}

impl Verifier {
    /// Starts from stored header bytes.
    pub fn from_header_bytes(header_bytes: &[u8]) -> Result<(Verifier, Header), ChainError> {
        let header = decode_header(header_bytes).map_err(|problem| ChainError {
            stream: "?".to_string(),
            at: At::Header,
            problem,
        })?;
        let head = Head { len: 0, hash: header_hash(header_bytes) };
        Ok((Verifier { stream: header.stream().clone(), head }, header))
    }

    /// Continues from a head already verified (an open game's), so the events appended after it
    /// are verified without reading the log again: each must link to `head`.
    pub fn from_head(stream: StreamId, head: Head) -> Verifier {
        Verifier { stream, head }
    }

    /// Verifies the next stored event and returns it decoded.
    pub fn push<'a>(&mut self, stored: &'a [u8]) -> Result<Envelope<'a>, ChainError> {
        let at = At::Event(self.head.len);
        let fail = |problem| ChainError { stream: self.stream.to_string(), at, problem };
        let (envelope, hash) = open_event(stored).map_err(fail)?;
        let e = envelope.v1();
        if self.head.len == 0 && e.seq == 0 && e.prev != self.head.hash {
            // Event 0 verified on its own, so a broken first link means the header was altered
            // (even where the alteration also makes the stream id differ).
            return Err(ChainError {
                stream: self.stream.to_string(),
                at: At::Header,
                problem: Problem::BrokenLink { expected: self.head.hash, found: e.prev },
            });
        }
        if e.stream != self.stream.as_str() {
            return Err(fail(Problem::WrongStream { found: e.stream.to_string() }));
        }
        if e.seq != self.head.len {
            return Err(fail(Problem::WrongSeq { found: e.seq }));
        }
        if e.prev != self.head.hash {
            return Err(fail(Problem::BrokenLink { expected: self.head.hash, found: e.prev }));
        }
        self.head = Head { len: self.head.len + 1, hash };
        Ok(envelope)
    }

    pub fn head(&self) -> Head {
        self.head
    }

    pub fn stream(&self) -> &StreamId {
        &self.stream
    }
}

/// A log whose every record has been verified: the header, the stored events, the head.
#[derive(Clone, Debug)]
pub struct VerifiedLog {
    pub header_bytes: Vec<u8>,
    pub header: Header,
    /// The exact stored bytes of each event, in sequence order.
    pub events: Vec<Vec<u8>>,
    pub head: Head,
}

/// Verifies a whole log held in memory.
pub fn verify_log(header_bytes: Vec<u8>, events: Vec<Vec<u8>>) -> Result<VerifiedLog, ChainError> {
    let (mut verifier, header) = Verifier::from_header_bytes(&header_bytes)?;
    for stored in &events {
        verifier.push(stored)?;
    }
    Ok(VerifiedLog { header_bytes, header, events, head: verifier.head() })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cached context keys give exactly blake3's derive_key (the hash spec).
    #[test]
    fn hashes_are_blake3_derive_key() {
        for len in [0usize, 1, 63, 64, 65, 200, 1023, 1024, 1025, 5000] {
            let bytes: Vec<u8> = (0..len).map(|i| (i * 7 + 3) as u8).collect();
            assert_eq!(event_hash(&bytes).0, blake3::derive_key(EVENT_CONTEXT, &bytes));
            assert_eq!(header_hash(&bytes).0, blake3::derive_key(HEADER_CONTEXT, &bytes));
        }
    }
}
