//! The local channel to a running server's store: while `kifu serve` holds a data directory (sled
//! opens it for one process only), the CLI's commands reach the store through a unix socket in
//! that directory instead of waiting for the lock, so an organizer can pair a round or create a
//! game from the terminal without stopping the server and every spectator's feed.
//!
//! The channel carries the [`Store`] calls themselves (append, import, header, head, read,
//! listing, idempotency look-ups), not commands: the CLI runs the very same code either way, so
//! its output and its errors are the same as when it writes directly, and the server's caches
//! see the appends as their own (each request reads the stream's head).
//!
//! Only the directory's owner can use it: the socket is created 0600 inside the 0700 data
//! directory. Every frame is bounded ([`MAX_FRAME`]), and so are the connections a server serves
//! at once ([`MAX_CONNECTIONS`]). A socket left by a server that died is detected (nothing
//! answers) and replaced.
//!
//! Wire format (local and unversioned: both ends are the same build, and a client of another
//! build is answered with an error naming the mismatch): a 4-byte little-endian length, then a
//! postcard [`Request`] or [`Response`], whose first field is [`PROTOCOL`].

use std::io::{Read, Write};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::{AppendRequest, Appended, ExpectedVersion, Imported, NewEvent, Store, StoreError, StreamSummary, Watch};
use crate::log::chain::{self, Head, VerifiedLog};
use crate::log::envelope::{Actor, Header, IdempotencyId, StreamId, StreamKind};
use crate::log::hash::Hash32;

/// The socket's name inside the data directory.
pub const SOCKET: &str = "kifu.sock";

/// The largest frame either end accepts: an import of a whole log, or a read of many events.
pub const MAX_FRAME: usize = 256 << 20;

/// Connections a server serves at once; further ones are answered "busy" and closed.
pub const MAX_CONNECTIONS: usize = 16;

/// Changes whenever [`Request`] or [`Response`] changes shape.
const PROTOCOL: u32 = 2;

/// How long a client waits for one answer (an import of a large log takes the longest).
const ANSWER_TIMEOUT: Duration = Duration::from_secs(300);

/// The socket path of the data directory `dir`.
pub fn socket_path(dir: &Path) -> PathBuf {
    dir.join(SOCKET)
}

#[derive(Serialize, Deserialize)]
enum Expected {
    NoStream,
    Exact(u64),
    Any,
}

#[derive(Serialize, Deserialize)]
struct WireEvent {
    actor: Actor,
    payload: Vec<u8>,
    idempotency: Option<IdempotencyId>,
}

#[derive(Serialize, Deserialize)]
enum Call {
    Append { stream: StreamId, expected: Expected, create: Option<Header>, events: Vec<WireEvent> },
    Import { header_bytes: Vec<u8>, events: Vec<Vec<u8>> },
    Header(StreamId),
    Head(StreamId),
    Read { stream: StreamId, from: u64, to: u64 },
    StreamsPage { after: Option<StreamId>, limit: u64 },
    RecordedId { stream: StreamId, id: IdempotencyId },
}

#[derive(Serialize, Deserialize)]
struct Request {
    protocol: u32,
    call: Call,
}

#[derive(Serialize, Deserialize)]
struct WireHead {
    len: u64,
    hash: [u8; 32],
}

#[derive(Serialize, Deserialize)]
enum Answer {
    Appended { stream: StreamId, first_seq: u64, head: WireHead, retried: bool, stored: Vec<Vec<u8>> },
    Imported { created: bool },
    Header { bytes: Vec<u8>, header: Header },
    Head(WireHead),
    Read(Vec<Vec<u8>>),
    Streams(Vec<(Header, WireHead)>),
    RecordedId(Option<u64>),
    Refused(WireError),
}

#[derive(Serialize, Deserialize)]
struct Response {
    protocol: u32,
    answer: Answer,
}

/// A [`StoreError`] as it crosses the channel: the refusals a command acts on keep their variant
/// (a stale expected version, an idempotency conflict, a locked or full disk, a note into a game
/// or tournament); the rest keep their message.
#[derive(Serialize, Deserialize)]
enum WireError {
    UnknownStream(String),
    WrongExpectedVersion { stream: String, expected: Expected, current: Option<u64> },
    NoHeader(String),
    HeaderMismatch { stream: String, header: String },
    IdempotencyConflict { stream: String, id: String, seq: u64 },
    PartialRetry { stream: String },
    StreamExists { stream: String, events: u64, head: String },
    DiskFull { path: String },
    TooLarge { stream: String, bytes: u64, limit: u64 },
    Backend(String),
    KindMismatch { stream: String, kind: StreamKind, writing: StreamKind },
}

impl From<ExpectedVersion> for Expected {
    fn from(e: ExpectedVersion) -> Self {
        match e {
            ExpectedVersion::NoStream => Expected::NoStream,
            ExpectedVersion::Exact(n) => Expected::Exact(n),
            ExpectedVersion::Any => Expected::Any,
        }
    }
}

impl From<Expected> for ExpectedVersion {
    fn from(e: Expected) -> Self {
        match e {
            Expected::NoStream => ExpectedVersion::NoStream,
            Expected::Exact(n) => ExpectedVersion::Exact(n),
            Expected::Any => ExpectedVersion::Any,
        }
    }
}

impl From<Head> for WireHead {
    fn from(h: Head) -> Self {
        WireHead { len: h.len, hash: h.hash.0 }
    }
}

impl From<WireHead> for Head {
    fn from(h: WireHead) -> Self {
        Head { len: h.len, hash: Hash32(h.hash) }
    }
}

impl From<StoreError> for WireError {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::UnknownStream(s) => WireError::UnknownStream(s),
            StoreError::WrongExpectedVersion { stream, expected, current } => {
                WireError::WrongExpectedVersion { stream, expected: expected.into(), current }
            }
            StoreError::NoHeader(s) => WireError::NoHeader(s),
            StoreError::HeaderMismatch { stream, header } => WireError::HeaderMismatch { stream, header },
            StoreError::IdempotencyConflict { stream, id, seq } => WireError::IdempotencyConflict { stream, id, seq },
            StoreError::PartialRetry { stream } => WireError::PartialRetry { stream },
            StoreError::StreamExists { stream, events, head } => WireError::StreamExists { stream, events, head },
            StoreError::DiskFull { path } => WireError::DiskFull { path },
            StoreError::TooLarge { stream, bytes, limit } => {
                WireError::TooLarge { stream, bytes: bytes as u64, limit: limit as u64 }
            }
            StoreError::KindMismatch { stream, kind, writing } => WireError::KindMismatch { stream, kind, writing },
            other => WireError::Backend(other.to_string()),
        }
    }
}

impl From<WireError> for StoreError {
    fn from(e: WireError) -> Self {
        match e {
            WireError::UnknownStream(s) => StoreError::UnknownStream(s),
            WireError::WrongExpectedVersion { stream, expected, current } => {
                StoreError::WrongExpectedVersion { stream, expected: expected.into(), current }
            }
            WireError::NoHeader(s) => StoreError::NoHeader(s),
            WireError::HeaderMismatch { stream, header } => StoreError::HeaderMismatch { stream, header },
            WireError::IdempotencyConflict { stream, id, seq } => StoreError::IdempotencyConflict { stream, id, seq },
            WireError::PartialRetry { stream } => StoreError::PartialRetry { stream },
            WireError::StreamExists { stream, events, head } => StoreError::StreamExists { stream, events, head },
            WireError::DiskFull { path } => StoreError::DiskFull { path },
            WireError::TooLarge { stream, bytes, limit } => {
                StoreError::TooLarge { stream, bytes: bytes as usize, limit: limit as usize }
            }
            WireError::Backend(m) => StoreError::Backend(m),
            WireError::KindMismatch { stream, kind, writing } => StoreError::KindMismatch { stream, kind, writing },
        }
    }
}

fn io_error(what: &str, path: &Path, e: std::io::Error) -> StoreError {
    StoreError::Unavailable { location: path.display().to_string(), reason: format!("{what}: {e}") }
}

/// Writes one frame: its length, then its bytes.
fn write_frame(w: &mut impl Write, bytes: &[u8]) -> std::io::Result<()> {
    let len = u32::try_from(bytes.len()).ok().filter(|n| (*n as usize) <= MAX_FRAME);
    let len =
        len.ok_or_else(|| std::io::Error::other(format!("a frame of {} bytes is over the limit", bytes.len())))?;
    w.write_all(&len.to_le_bytes())?;
    w.write_all(bytes)?;
    w.flush()
}

/// Reads one frame, refusing one over [`MAX_FRAME`] before allocating it.
fn read_frame(r: &mut impl Read) -> std::io::Result<Vec<u8>> {
    let mut len = [0u8; 4];
    r.read_exact(&mut len)?;
    let len = u32::from_le_bytes(len) as usize;
    if len > MAX_FRAME {
        return Err(std::io::Error::other(format!("a frame of {len} bytes is over the limit of {MAX_FRAME}")));
    }
    let mut bytes = vec![0u8; len];
    r.read_exact(&mut bytes)?;
    Ok(bytes)
}

/// The store of a running server, reached through its data directory's socket.
pub struct ChannelStore {
    path: PathBuf,
    conn: Mutex<UnixStream>,
}

impl ChannelStore {
    /// Connects to the server holding `dir`, or `None` when no server answers there (no socket,
    /// or one left by a server that is gone).
    pub fn connect(dir: &Path) -> Option<ChannelStore> {
        let path = socket_path(dir);
        let conn = UnixStream::connect(&path).ok()?;
        conn.set_read_timeout(Some(ANSWER_TIMEOUT)).ok()?;
        conn.set_write_timeout(Some(ANSWER_TIMEOUT)).ok()?;
        Some(ChannelStore { path, conn: Mutex::new(conn) })
    }

    fn call(&self, call: Call) -> Result<Answer, StoreError> {
        let bytes = postcard::to_allocvec(&Request { protocol: PROTOCOL, call })?;
        let mut conn = self.conn.lock().unwrap_or_else(|p| p.into_inner());
        write_frame(&mut *conn, &bytes).map_err(|e| io_error("cannot send to the running server", &self.path, e))?;
        let answer =
            read_frame(&mut *conn).map_err(|e| io_error("no answer from the running server", &self.path, e))?;
        let response: Response = postcard::from_bytes(&answer)
            .map_err(|e| io_error("an answer this build cannot read", &self.path, std::io::Error::other(e)))?;
        match response.answer {
            _ if response.protocol != PROTOCOL => Err(StoreError::Unavailable {
                location: self.path.display().to_string(),
                reason: format!(
                    "the running server speaks channel protocol {}, this kifu {PROTOCOL}: run the same build",
                    response.protocol
                ),
            }),
            Answer::Refused(e) => Err(e.into()),
            answer => Ok(answer),
        }
    }

    fn unexpected(&self) -> StoreError {
        StoreError::Unavailable {
            location: self.path.display().to_string(),
            reason: "the running server answered another question".into(),
        }
    }
}

impl Store for ChannelStore {
    fn append(&self, request: AppendRequest) -> Result<Appended, StoreError> {
        let events = request
            .events
            .into_iter()
            .map(|e| WireEvent { actor: e.actor, payload: e.payload, idempotency: e.idempotency })
            .collect();
        let call =
            Call::Append { stream: request.stream, expected: request.expected.into(), create: request.create, events };
        match self.call(call)? {
            Answer::Appended { stream, first_seq, head, retried, stored } => {
                Ok(Appended { stream, first_seq, head: head.into(), retried, stored })
            }
            _ => Err(self.unexpected()),
        }
    }

    fn import(&self, log: &VerifiedLog) -> Result<Imported, StoreError> {
        let call = Call::Import { header_bytes: log.header_bytes.clone(), events: log.events.clone() };
        match self.call(call)? {
            Answer::Imported { created: true } => Ok(Imported::Created),
            Answer::Imported { created: false } => Ok(Imported::AlreadyPresent),
            _ => Err(self.unexpected()),
        }
    }

    fn header(&self, stream: &StreamId) -> Result<(Vec<u8>, Header), StoreError> {
        match self.call(Call::Header(stream.clone()))? {
            Answer::Header { bytes, header } => Ok((bytes, header)),
            _ => Err(self.unexpected()),
        }
    }

    fn head(&self, stream: &StreamId) -> Result<Head, StoreError> {
        match self.call(Call::Head(stream.clone()))? {
            Answer::Head(h) => Ok(h.into()),
            _ => Err(self.unexpected()),
        }
    }

    fn read(&self, stream: &StreamId, from: u64, to: u64) -> Result<Vec<Vec<u8>>, StoreError> {
        match self.call(Call::Read { stream: stream.clone(), from, to })? {
            Answer::Read(events) => Ok(events),
            _ => Err(self.unexpected()),
        }
    }

    fn streams_page(&self, after: Option<&StreamId>, limit: usize) -> Result<Vec<StreamSummary>, StoreError> {
        match self.call(Call::StreamsPage { after: after.cloned(), limit: limit as u64 })? {
            Answer::Streams(list) => {
                Ok(list.into_iter().map(|(header, head)| StreamSummary { header, head: head.into() }).collect())
            }
            _ => Err(self.unexpected()),
        }
    }

    /// Following a stream is the server's own feeds' work (`/api/v1/.../feed`); no command of
    /// the CLI follows one.
    fn watch(&self, _stream: &StreamId, _from: u64) -> Result<Watch, StoreError> {
        Err(StoreError::Unavailable {
            location: self.path.display().to_string(),
            reason: "a stream is followed through the running server's feeds, not its local channel".into(),
        })
    }

    fn recorded_id(&self, stream: &StreamId, id: &IdempotencyId) -> Result<Option<u64>, StoreError> {
        match self.call(Call::RecordedId { stream: stream.clone(), id: *id })? {
            Answer::RecordedId(seq) => Ok(seq),
            _ => Err(self.unexpected()),
        }
    }
}

/// A server's end of the channel: listening while it lives, its socket removed when dropped.
pub struct Channel {
    path: PathBuf,
}

impl Drop for Channel {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// Listens on `dir`'s socket and serves `store`'s calls to the directory's owner, each
/// connection on its own thread (at most [`MAX_CONNECTIONS`] at once).
pub fn serve(dir: &Path, store: Arc<dyn Store>) -> Result<Channel, StoreError> {
    let path = socket_path(dir);
    if UnixStream::connect(&path).is_ok() {
        return Err(StoreError::Locked { path: dir.display().to_string(), waited_ms: 0 });
    }
    // Nothing answers: a socket left by a server that is gone.
    let _ = std::fs::remove_file(&path);
    let listener = UnixListener::bind(&path).map_err(|e| io_error("cannot listen", &path, e))?;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600))
        .map_err(|e| io_error("cannot make the socket private", &path, e))?;
    let open = Arc::new(AtomicUsize::new(0));
    std::thread::Builder::new()
        .name("kifu-channel".into())
        .spawn(move || {
            for conn in listener.incoming().flatten() {
                if open.fetch_add(1, Ordering::SeqCst) >= MAX_CONNECTIONS {
                    open.fetch_sub(1, Ordering::SeqCst);
                    busy(conn);
                    continue;
                }
                let (store, done) = (store.clone(), open.clone());
                let spawned = std::thread::Builder::new().name("kifu-channel-conn".into()).spawn(move || {
                    serve_connection(conn, &*store);
                    done.fetch_sub(1, Ordering::SeqCst);
                });
                if spawned.is_err() {
                    open.fetch_sub(1, Ordering::SeqCst);
                }
            }
        })
        .map_err(|e| io_error("cannot start the channel's thread", &path, e))?;
    Ok(Channel { path })
}

fn busy(mut conn: UnixStream) {
    let answer = Answer::Refused(WireError::Backend(format!(
        "the running server already serves {MAX_CONNECTIONS} local commands; retry in a moment"
    )));
    if let Ok(bytes) = postcard::to_allocvec(&Response { protocol: PROTOCOL, answer }) {
        let _ = write_frame(&mut conn, &bytes);
    }
}

/// Answers one client's calls until it hangs up.
fn serve_connection(mut conn: UnixStream, store: &dyn Store) {
    while let Ok(frame) = read_frame(&mut conn) {
        let answer = match postcard::from_bytes::<Request>(&frame) {
            Ok(req) if req.protocol == PROTOCOL => {
                answer(store, req.call).unwrap_or_else(|e| Answer::Refused(e.into()))
            }
            // Another build: the answer's protocol number says so, and the client names it.
            Ok(_) | Err(_) => Answer::Refused(WireError::Backend("a request this server cannot read".into())),
        };
        let Ok(bytes) = postcard::to_allocvec(&Response { protocol: PROTOCOL, answer }) else { return };
        if write_frame(&mut conn, &bytes).is_err() {
            return;
        }
    }
}

fn answer(store: &dyn Store, call: Call) -> Result<Answer, StoreError> {
    Ok(match call {
        Call::Append { stream, expected, create, events } => {
            let events = events
                .into_iter()
                .map(|e| NewEvent { actor: e.actor, payload: e.payload, idempotency: e.idempotency })
                .collect();
            let a = store.append(AppendRequest { stream, expected: expected.into(), create, events })?;
            Answer::Appended {
                stream: a.stream,
                first_seq: a.first_seq,
                head: a.head.into(),
                retried: a.retried,
                stored: a.stored,
            }
        }
        Call::Import { header_bytes, events } => {
            // The log is verified here as by any import: the channel carries bytes, not trust.
            let log = chain::verify_log(header_bytes, events).map_err(StoreError::Corrupt)?;
            Answer::Imported { created: store.import(&log)? == Imported::Created }
        }
        Call::Header(stream) => {
            let (bytes, header) = store.header(&stream)?;
            Answer::Header { bytes, header }
        }
        Call::Head(stream) => Answer::Head(store.head(&stream)?.into()),
        Call::Read { stream, from, to } => Answer::Read(store.read(&stream, from, to)?),
        Call::StreamsPage { after, limit } => {
            let limit = usize::try_from(limit).unwrap_or(usize::MAX).min(10_000);
            let page = store.streams_page(after.as_ref(), limit)?;
            Answer::Streams(page.into_iter().map(|s| (s.header, s.head.into())).collect())
        }
        Call::RecordedId { stream, id } => Answer::RecordedId(store.recorded_id(&stream, &id)?),
    })
}
