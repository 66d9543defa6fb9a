//! Persistence of streams behind a small interface ([`Store`]), and the choice of backend from a
//! `--store` location ([`open`]). The sled backend ([`sled_store::SledStore`], embedded, one
//! process) and the NATS JetStream backend ([`nats_store::NatsStore`], a replicated cluster) are
//! the only code in kifu that touches a storage engine; everything else sees the trait.

pub mod channel;
pub mod kept;
pub mod nats_store;
pub mod records;
pub mod sled_store;
mod watch;

pub use records::{Change, Records, Table};
pub use watch::{Bell, Watch};

use std::fmt;
use std::path::Path;

use thiserror::Error;

use crate::log::chain::{self, ChainError, Head, VerifiedLog};
use crate::log::envelope::{Actor, Header, IdempotencyId, StreamId, StreamKind};

/// Creates `dir` (and its parents) readable by its owner only, and tightens an existing `dir`
/// that others may read. Returns a note when it tightened one.
pub fn private_dir(dir: &Path) -> std::io::Result<Option<String>> {
    use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
    if !dir.exists() {
        std::fs::DirBuilder::new().recursive(true).mode(0o700).create(dir)?;
    }
    let mode = std::fs::metadata(dir)?.permissions().mode() & 0o777;
    if mode & 0o077 == 0 {
        return Ok(None);
    }
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(mode & 0o700))?;
    Ok(Some(format!("tightened the permissions of {} from {mode:o} to {:o} (owner only)", dir.display(), mode & 0o700)))
}

/// Makes `path` readable and writable by its owner only (files kifu writes: store, seeds,
/// tokens, pending results).
pub fn private_file(path: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))
}

/// Writes `bytes` to `path` atomically and privately: a unique temporary file beside it (0600),
/// synced, then renamed over `path`, then the directory synced. Readers see the old or the new
/// file, never a part.
pub fn write_private_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let tmp = dir.join(format!(".{name}.{}.{nanos}.{n}.tmp", std::process::id()));
    let result = (|| {
        let mut f = std::fs::OpenOptions::new().write(true).create_new(true).mode(0o600).open(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)?;
        std::fs::File::open(dir)?.sync_all()
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// What the writer believes the stream looks like; the append fails if it is wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExpectedVersion {
    /// The stream must not exist yet (the request creates it).
    NoStream,
    /// The stream must hold exactly this many events, i.e. its next sequence number is this.
    Exact(u64),
    /// No expectation.
    Any,
}

impl fmt::Display for ExpectedVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExpectedVersion::NoStream => f.write_str("no stream yet"),
            ExpectedVersion::Exact(n) => write!(f, "exactly {n} event(s) (next sequence {n})"),
            ExpectedVersion::Any => f.write_str("any"),
        }
    }
}

/// An expected version that is not `none`, `any` or a number of events.
#[derive(Debug, Error)]
#[error("expected version must be 'none', 'any' or a number of events, not {0:?}")]
pub struct InvalidExpectedVersion(pub String);

impl std::str::FromStr for ExpectedVersion {
    type Err = InvalidExpectedVersion;
    /// `none`, `any` or a number of events.
    fn from_str(s: &str) -> Result<Self, InvalidExpectedVersion> {
        match s {
            "none" => Ok(ExpectedVersion::NoStream),
            "any" => Ok(ExpectedVersion::Any),
            n => n.parse().map(ExpectedVersion::Exact).map_err(|_| InvalidExpectedVersion(crate::log::quote_prefix(n))),
        }
    }
}

/// An event to append; the store adds the stream, sequence number, time and hashes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewEvent {
    pub actor: Actor,
    pub payload: Vec<u8>,
    /// Set by clients that may retry: a retried append with the same ids records nothing twice.
    pub idempotency: Option<IdempotencyId>,
}

/// Append events to one stream, creating it from `create` if it does not exist.
#[derive(Clone, Debug)]
pub struct AppendRequest {
    pub stream: StreamId,
    pub expected: ExpectedVersion,
    /// The header, when the request may create the stream.
    pub create: Option<Header>,
    pub events: Vec<NewEvent>,
}

/// What an append did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Appended {
    pub stream: StreamId,
    /// The sequence number of the first event of the request.
    pub first_seq: u64,
    /// The stream's head after the append.
    pub head: Head,
    /// True when every event was already recorded under its idempotency id (a retry): nothing was written.
    pub retried: bool,
    /// The stored bytes of the events this request wrote, in order, exactly as a read returns
    /// them (empty for a retry). A live game folds them without reading them back: the store
    /// stamped their time and hash, and the reader still checks each link.
    pub stored: Vec<Vec<u8>>,
}

/// A stream as listed: its header and head.
#[derive(Clone, Debug)]
pub struct StreamSummary {
    pub header: Header,
    pub head: Head,
}

/// What importing a verified log did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Imported {
    Created,
    /// The store already held exactly this log.
    AlreadyPresent,
}

/// Everything a store can refuse or fail at. Refusals write nothing.
#[derive(Debug, Error)]
pub enum StoreError {
    #[error("unknown stream {0:?} (see `kifu streams` for the streams in this store)")]
    UnknownStream(String),
    #[error("stream {stream}: wrong expected version: expected {expected}, but {}", match current { None => "the stream does not exist".to_string(), Some(n) => format!("the stream holds {n} event(s) (next sequence {n})") })]
    WrongExpectedVersion { stream: String, expected: ExpectedVersion, current: Option<u64> },
    #[error("stream {0:?} does not exist and the append carries no header to create it")]
    NoHeader(String),
    #[error("the header names stream {header:?} but the append is for stream {stream:?}")]
    HeaderMismatch { stream: String, header: String },
    #[error("stream {stream}: idempotency id {id} was already used for event {seq} with a different actor or payload")]
    IdempotencyConflict { stream: String, id: String, seq: u64 },
    #[error("stream {stream}: some events of the request were already recorded (a partial retry); retry the exact same request")]
    PartialRetry { stream: String },
    #[error(
        "stream {stream} already exists with {events} events and head {head}; it differs from the log being imported"
    )]
    StreamExists { stream: String, events: u64, head: String },
    #[error("store is corrupted: {0}")]
    Corrupt(ChainError),
    #[error("store is corrupted: {0}")]
    CorruptIndex(String),
    #[error("data directory {path} is in use by another kifu process (waited {waited_ms} ms for it)")]
    Locked { path: String, waited_ms: u128 },
    #[error(
        "cannot open the store in {path}: {reason}. Check it with `kifu --data {path} verify --all`; \
         if it still fails, restore the directory from a backup or import exported .kifu files into a new one"
    )]
    Unopenable { path: String, reason: String },
    /// The disk holding the store has no room for a write, which was not acknowledged. Reads
    /// keep working, and writes work again by themselves once space is freed (the sled store
    /// reopens itself at the next write).
    #[error(
        "the disk is full: the store in {path} has no room left for this write; free some space and retry \
         (reads keep working)"
    )]
    DiskFull { path: String },
    #[error("storage error: {0}")]
    Backend(String),
    #[error("the store at {location} cannot be reached: {reason}")]
    Unavailable { location: String, reason: String },
    #[error("stream {stream}: the append request is {bytes} bytes, over the store's limit of {limit} bytes per request; split it")]
    TooLarge { stream: String, bytes: usize, limit: usize },
    #[error("could not encode a record: {0}")]
    Encode(#[from] postcard::Error),
    #[error(
        "the cluster at {location} runs nats-server {version}; kifu needs {minimum} or later (its appends rely on \
         expected-sequence checks and message-id deduplication that hold across leader changes)"
    )]
    ServerTooOld { location: String, version: String, minimum: String },
    /// One atomic batch of an import (at most [`nats_store::BATCH_MESSAGES`] messages) was refused
    /// whole: none of events `from..to` is stored. An import larger than one batch keeps the
    /// batches before it, a verified prefix that the same import again completes.
    #[error(
        "stream {stream}: the cluster refused events {from}..{to}, sent as one atomic batch, so none of them is \
         stored{}: {reason}",
        if *from > 0 { " (the events before them are; importing the same log again goes on from there)" } else { "" }
    )]
    BatchRefused { stream: String, from: u64, to: u64, reason: String },
    /// An append that would create a stream of one kind reached an existing stream of another
    /// (a free-form note into a game or a tournament): its events would not decode as the
    /// stream's own, so the game or tournament would no longer open. Nothing was written.
    #[error(
        "stream {stream} is a {kind} stream: an append of {writing} events to it is refused (they would not decode as \
         its {kind} events) and nothing was written; {}",
        kind_hint(*kind)
    )]
    KindMismatch { stream: String, kind: StreamKind, writing: StreamKind },
}

/// Where to record into a stream of `kind` instead.
fn kind_hint(kind: StreamKind) -> &'static str {
    match kind {
        StreamKind::Game => {
            "record into a game with `kifu game act` or `kifu game rule` (a judge's note: `kifu game rule GAME --judge \
             NAME note --note TEXT`)"
        }
        StreamKind::Tournament => "record into a tournament with the `kifu tournament` commands",
        StreamKind::Opaque => "record a note with `kifu append` into an opaque stream",
    }
}

/// Refuses `req` when it carries a header to create its stream with and the stream `existing`
/// heads is of another kind. The header is the request's statement of what it writes: a
/// generic note carries an opaque one, while game and tournament appends to an existing stream
/// carry none and are checked by their own code. Every backend calls this with the stream's
/// stored header, which never changes once written, so the check cannot race an append.
pub fn check_kind(req: &AppendRequest, existing: &Header) -> Result<(), StoreError> {
    let Some(create) = &req.create else {
        return Ok(());
    };
    let (kind, writing) = (existing.v1().kind, create.v1().kind);
    if kind == writing {
        return Ok(());
    }
    Err(StoreError::KindMismatch { stream: req.stream.to_string(), kind, writing })
}

/// Persistence of append-only, hash-chained streams.
///
/// The contract every backend keeps (tests/it/store_contract.rs runs it against each):
/// - **Appends are per stream.** One request appends any number of events to one stream
///   atomically: all of them and the new head are durable before `Ok`, or nothing is written.
///   There is no atomicity across streams.
/// - **Optimistic concurrency.** A request whose [`ExpectedVersion`] does not match is refused
///   with [`StoreError::WrongExpectedVersion`] and writes nothing.
/// - **Streams keep their kind.** A request carrying a header (to create its stream with) of
///   another kind than the existing stream's is refused with [`StoreError::KindMismatch`] and
///   writes nothing ([`check_kind`]): a generic note never lands in a game or tournament.
/// - **Idempotency.** A retried request whose events all carry idempotency ids already recorded
///   with the same actor and payload writes nothing and returns `retried: true` with the first
///   attempt's sequence numbers; a reused id with another actor or payload is an
///   [`StoreError::IdempotencyConflict`]. How long ids are remembered is the backend's
///   documented guarantee (sled: forever; NATS: see `nats_store`).
/// - **What was written.** [`Appended::stored`] holds the request's events exactly as a read
///   returns them (none for a retry), so a live game folds its own append without reading it
///   back.
/// - **Reads** return stored bytes in order; [`Store::export`] verifies the whole chain.
/// - **Listing** is paged, ordered by stream id.
/// - **Watching.** [`Store::watch`] follows a stream from any position; the store itself rings
///   it after every append it acknowledges (sled: this process's appends, which are all of
///   them; NATS: a notice every writer publishes after the publish acknowledgement).
/// - Errors name no backend; refusals write nothing.
pub trait Store: Send + Sync {
    /// Appends one request to one stream, atomically and durably.
    fn append(&self, request: AppendRequest) -> Result<Appended, StoreError>;

    /// Writes a verified log as a new stream (or accepts it if the store holds exactly it).
    fn import(&self, log: &VerifiedLog) -> Result<Imported, StoreError>;

    /// The stored header bytes and the decoded header.
    fn header(&self, stream: &StreamId) -> Result<(Vec<u8>, Header), StoreError>;

    /// The head as recorded by the last append.
    fn head(&self, stream: &StreamId) -> Result<Head, StoreError>;

    /// The stored bytes of events `from..to` (clamped to the stream's length), in order.
    fn read(&self, stream: &StreamId, from: u64, to: u64) -> Result<Vec<Vec<u8>>, StoreError>;

    /// At most `limit` streams with ids after `after` (from the first when `None`), ordered by id.
    fn streams_page(&self, after: Option<&StreamId>, limit: usize) -> Result<Vec<StreamSummary>, StoreError>;

    /// The bytes last kept by [`Store::keep_derived`] under `name` for `stream`, if any: a cache
    /// derived from the log (a folded state), never part of it. Whoever reads it checks it
    /// against the stream's head and rebuilds it from the log when it is missing or stale.
    fn derived(&self, _stream: &StreamId, _name: &str) -> Option<Vec<u8>> {
        None
    }

    /// Keeps a cache derived from `stream`'s log (best effort and not durable: losing it costs
    /// one rebuild). A store without a directory keeps nothing.
    fn keep_derived(&self, _stream: &StreamId, _name: &str, _bytes: &[u8]) {}

    /// Follows `stream` from event `from` on: see [`Watch`].
    fn watch(&self, stream: &StreamId, from: u64) -> Result<Watch, StoreError>;

    /// The sequence number of the event `stream` holds under idempotency id `id`, for as long as
    /// the backend recognises retries (the guarantee [`Store::append`] keeps); `None` when it
    /// holds none. A caller that judges a request before appending it (a live game validates
    /// against its head) asks this when the judgement fails: a retry of a request that landed
    /// is stale, or no longer valid, yet must be answered as the first attempt was.
    fn recorded_id(&self, stream: &StreamId, id: &IdempotencyId) -> Result<Option<u64>, StoreError>;

    /// The shared records of `table` when this store is shared by several servers (see
    /// [`records`]); `None` for a store one process owns, whose server keeps files instead.
    fn records(&self, _table: Table) -> Result<Option<Box<dyn Records + '_>>, StoreError> {
        Ok(None)
    }

    /// Every stream, ordered by id (all pages).
    fn streams(&self) -> Result<Vec<StreamSummary>, StoreError> {
        let mut out: Vec<StreamSummary> = Vec::new();
        loop {
            let after = out.last().map(|s| s.header.stream().clone());
            let page = self.streams_page(after.as_ref(), STREAMS_PAGE)?;
            let done = page.len() < STREAMS_PAGE;
            out.extend(page);
            if done {
                return Ok(out);
            }
        }
    }

    /// Reads a whole stream and verifies every record and the recorded head.
    fn export(&self, stream: &StreamId) -> Result<VerifiedLog, StoreError> {
        let (header_bytes, _) = self.header(stream)?;
        let head = self.head(stream)?;
        let events = self.read(stream, 0, head.len)?;
        let log = chain::verify_log(header_bytes, events).map_err(StoreError::Corrupt)?;
        if log.head != head {
            // The recorded head promises more events, or another last event, than the chain holds.
            let problem = if log.head.len < head.len {
                chain::Problem::Missing { expected_events: head.len }
            } else {
                chain::Problem::BrokenLink { expected: head.hash, found: log.head.hash }
            };
            return Err(StoreError::Corrupt(ChainError {
                stream: stream.to_string(),
                at: chain::At::Event(log.head.len),
                problem,
            }));
        }
        Ok(log)
    }
}

/// The page size [`Store::streams`] lists with.
pub const STREAMS_PAGE: usize = 500;

/// Whether `events` retry an append already recorded: `lookup` says where an id was recorded
/// and whether with the same actor and payload. `Some(first_seq)` for a complete retry; an
/// error for a partial retry or an id reused with other content; `None` when no id is known.
/// Both backends judge retries with this one rule.
pub fn judge_retry(
    stream: &str,
    events: &[NewEvent],
    mut lookup: impl FnMut(&IdempotencyId, &NewEvent) -> Result<Option<(u64, bool)>, StoreError>,
) -> Result<Option<u64>, StoreError> {
    let mut found = Vec::new();
    for ev in events {
        let Some(id) = ev.idempotency else { continue };
        if let Some((seq, same)) = lookup(&id, ev)? {
            found.push((seq, same, id));
        }
    }
    let Some(&(first_seq, _, _)) = found.first() else {
        return Ok(None);
    };
    if found.len() != events.len() {
        return Err(StoreError::PartialRetry { stream: stream.to_string() });
    }
    if let Some((seq, _, id)) = found.iter().find(|(_, same, _)| !same) {
        return Err(StoreError::IdempotencyConflict { stream: stream.to_string(), id: id.to_hex(), seq: *seq });
    }
    Ok(Some(first_seq))
}

/// Whether a stored event carries the actor and payload of `ev`.
pub fn same_event(stored: &[u8], ev: &NewEvent) -> bool {
    chain::open_event(stored).is_ok_and(|(env, _)| {
        let e = env.v1();
        e.actor == ev.actor && *e.payload == *ev.payload
    })
}

/// The stored bytes of the header a request creates its stream with: refused when it carries
/// none, or one naming another stream (every backend's check, written once).
pub fn creation_header(req: &AppendRequest) -> Result<Vec<u8>, StoreError> {
    let sid = req.stream.as_str();
    let Some(header) = &req.create else {
        return Err(StoreError::NoHeader(sid.to_string()));
    };
    if header.stream() != &req.stream {
        return Err(StoreError::HeaderMismatch { stream: sid.to_string(), header: header.stream().to_string() });
    }
    Ok(crate::log::chain::encode_header(header)?)
}

/// Whether an append expecting `expected` may go ahead on a stream whose head is `current`.
pub fn expectation_holds(expected: ExpectedVersion, current: Option<Head>) -> bool {
    match (expected, current) {
        (ExpectedVersion::Any, _) => true,
        (ExpectedVersion::NoStream, None) => true,
        (ExpectedVersion::Exact(n), Some(h)) => h.len == n,
        _ => false,
    }
}

/// Where the store lives, from `--store` / `KIFU_STORE`: a sled directory or a NATS cluster.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Location {
    Dir(std::path::PathBuf),
    Nats(nats_store::NatsUrl),
}

impl Location {
    /// `nats://HOST:PORT[,HOST:PORT…][?ns=NAME]`, or else a directory.
    pub fn parse(s: &str) -> Result<Self, StoreError> {
        if s.starts_with("nats://") {
            Ok(Location::Nats(nats_store::NatsUrl::parse(s)?))
        } else {
            Ok(Location::Dir(std::path::PathBuf::from(s)))
        }
    }
}

/// A boxed store is a store (the CLI opens whichever backend `--store` names).
impl<S: Store + ?Sized> Store for Box<S> {
    fn append(&self, request: AppendRequest) -> Result<Appended, StoreError> {
        (**self).append(request)
    }
    fn import(&self, log: &VerifiedLog) -> Result<Imported, StoreError> {
        (**self).import(log)
    }
    fn header(&self, stream: &StreamId) -> Result<(Vec<u8>, Header), StoreError> {
        (**self).header(stream)
    }
    fn head(&self, stream: &StreamId) -> Result<Head, StoreError> {
        (**self).head(stream)
    }
    fn read(&self, stream: &StreamId, from: u64, to: u64) -> Result<Vec<Vec<u8>>, StoreError> {
        (**self).read(stream, from, to)
    }
    fn streams_page(&self, after: Option<&StreamId>, limit: usize) -> Result<Vec<StreamSummary>, StoreError> {
        (**self).streams_page(after, limit)
    }
    fn watch(&self, stream: &StreamId, from: u64) -> Result<Watch, StoreError> {
        (**self).watch(stream, from)
    }
    fn recorded_id(&self, stream: &StreamId, id: &IdempotencyId) -> Result<Option<u64>, StoreError> {
        (**self).recorded_id(stream, id)
    }
    // The defaulted methods too: a box that fell back to the defaults would silently drop the
    // backend's derived-state cache (every CLI command would refold from the log).
    fn derived(&self, stream: &StreamId, name: &str) -> Option<Vec<u8>> {
        (**self).derived(stream, name)
    }
    fn keep_derived(&self, stream: &StreamId, name: &str, bytes: &[u8]) {
        (**self).keep_derived(stream, name, bytes)
    }
    fn records(&self, table: Table) -> Result<Option<Box<dyn Records + '_>>, StoreError> {
        (**self).records(table)
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::Dir(dir) => write!(f, "{}", dir.display()),
            Location::Nats(url) => write!(f, "{url}"),
        }
    }
}
