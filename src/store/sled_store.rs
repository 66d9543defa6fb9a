//! The sled 0.34 backend: the only code in kifu that touches sled.
//!
//! # Layout
//!
//! One tree, `kifu`, with a one-byte tag in front of every key. `sid` is the stream id (ASCII,
//! 1 to 64 bytes, see `StreamId::new`); `len` is its length as one byte.
//!
//! | key                                       | value                                              |
//! |-------------------------------------------|----------------------------------------------------|
//! | `'E' ‖ u8 len ‖ sid ‖ u64be first_seq`    | a chunk: frames `u32le n ‖ stored event (n bytes)` |
//! | `'H' ‖ sid`                               | the header's stored bytes                          |
//! | `'I' ‖ u8 len ‖ sid ‖ 16-byte id`         | `u64be seq` of the event carrying idempotency id   |
//!
//! - A **chunk** holds consecutive events of one append request, in sequence order; the first
//!   is `first_seq`. A request gets one chunk, or several when its frames exceed
//!   [`CHUNK_BYTES`] (a single larger event gets a chunk of its own). The stored event bytes
//!   (`envelope ‖ hash`, see `log::chain`) are kept exactly; the frame length is only framing.
//!   Event `n` is in the last chunk whose key is `≤ 'E' ‖ len ‖ sid ‖ u64be(n)`, found with one
//!   reverse range step. Per-key costs in sled (tree descent, node splits, page consolidation,
//!   epoch GC) are paid once per chunk instead of once per event, which is what makes batches
//!   cheap.
//! - A stream exists when its `'H'` key does. `'H'` keys carry no length byte so that a prefix
//!   scan lists streams ordered by id.
//! - There is no stored head. The head is derived from the stream's last chunk: its length is
//!   `first_seq` + the number of frames, its hash the last 32 bytes of the last frame (the
//!   header hash while the stream has no event). So the usual append (one request, no new
//!   header, no idempotency id) writes **one sled key** with a plain `Tree::insert`, which sled
//!   logs as one atomic message; a separately stored head would make every append a two-key
//!   write, and sled makes every multi-key atomic write (transaction or batch) reserve and write
//!   a batch manifest in a log buffer of its own, a second device write per append.
//! - Idempotency ids are indexed only for the events that carry one.
//!
//! # Atomicity and isolation
//!
//! Writers take the writer mutex of every stream they write (in stream-id order, so two
//! writers never wait on each other in a cycle) for the whole check-and-write: it gives the
//! isolation a sled transaction gave (sled's exclusive file lock means no other process writes
//! the directory), while appends to different streams check, seal (encode and hash) and write
//! concurrently. Each mutex also guards its stream's cached head, so an append to a known stream
//! reads nothing from sled. The writes of a call (a batch of requests, or an import) are collected first, then
//! written with `Tree::insert` when there is one key, else with one `Tree::apply_batch`, which
//! sled 0.34 applies atomically, also across a crash (a batch manifest) and for readers (its
//! global concurrency-control write lock). A sled transaction would be just as atomic, but even a
//! one-key, one-tree transaction reserves a batch manifest like `apply_batch` does: its write
//! step measured 100-135 µs against 15-22 µs for `insert` (`tools/bench-log --breakdown`), about
//! a third of a whole durable append when the disk syncs in ~150 µs. The mutex makes a
//! transaction's conflict detection redundant, so the plain insert is used.
//!
//! Readers take no lock: chunks are never rewritten, and every read starts from a head derived
//! from one atomic sled read, so a reader sees a prefix of the stream as some write left it.
//!
//! # Durability
//!
//! Appends are acknowledged after a group-commit flush covers them: sled's `flush` (which syncs
//! its log with `sync_file_range` on Linux: no drive-cache flush, no metadata, sled #1351,
//! #1452), then `fdatasync` of every blob file sled created since the last flush and of the
//! `blobs` directory, then `fdatasync` of sled's `db` file. One flush covers every append
//! waiting for it (leader and followers): the first appender to find no flush running leads one
//! that covers every write committed before it began, without holding any writer mutex, while
//! the others sleep until a flush covering their write completes; those that commit during a
//! flush are covered together by the next one. sled never syncs its blob files (for
//! messages over a quarter segment: 128 KiB by default); [`CHUNK_BYTES`] keeps chunks, and the
//! leaf nodes holding them, well below that, so blob files only appear for very large events or
//! headers, and are then synced too.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use super::{AppendRequest, Appended, Imported, NewEvent, StoreError, StreamSummary};
use crate::clock::Clock;
use crate::log::chain::{self, Head};
use crate::log::envelope::{Envelope, EnvelopeV1, Header, IdempotencyId, StreamId, Timestamp};
use crate::log::hash::Hash32;

/// Frames are added to a chunk until it would exceed this many bytes. sled writes a leaf node
/// of up to ~17 entries whole when it consolidates the node, and moves any log message over a
/// quarter segment (128 KiB) to an unsynced blob file; 4 KiB chunks keep a full leaf near
/// 70 KiB, and 1,000-event batches of 200-byte events at ~50 keys instead of 1,000.
pub const CHUNK_BYTES: usize = 4096;

const TREE: &str = "kifu";

/// How long a flush about to start waits at most for appends already under way to commit, so
/// that it covers them too (group commit). Small next to a flush: those that miss it are
/// covered together by the next one.
const GROUP_WAIT: Duration = Duration::from_micros(100);
const TAG_EVENTS: u8 = b'E';
const TAG_HEADER: u8 = b'H';
const TAG_IDEMPOTENCY: u8 = b'I';

/// How a store is opened.
#[derive(Clone, Debug)]
pub struct OpenOptions {
    /// How long to wait for another kifu process to release the data directory.
    pub lock_wait: Duration,
    /// Whether appends wait for the disk (always true outside benchmarks of the raw engine).
    pub durable: bool,
    /// Fails the open as a full disk would (tests of the read-only fallback; no unprivileged
    /// test can fill a real file system).
    pub simulate_full_disk: bool,
    /// The bound on sled's own page cache (its default is 1 GiB). The server gives it a share
    /// of `--cache-mb`, so that bound covers the memory of both.
    pub page_cache_bytes: u64,
}

impl Default for OpenOptions {
    fn default() -> Self {
        OpenOptions {
            lock_wait: Duration::from_secs(30),
            durable: true,
            simulate_full_disk: false,
            page_cache_bytes: SLED_CACHE_BYTES,
        }
    }
}

/// A store in a sled database directory.
pub struct SledStore {
    /// The open sled database. Swapped only by [`SledStore::recover`], under the write lock,
    /// which waits for every operation on the old one: each holds the read lock throughout.
    /// `None` only if a reopen and the read-only copy both failed.
    engine: parking_lot::RwLock<Option<Engine>>,
    clock: Arc<dyn Clock>,
    /// sled's blob directory. `None` for temporary stores.
    blob_dir: Option<PathBuf>,
    /// One writer mutex per stream, held for every check-and-write of that stream; each holds
    /// the stream's head as last written (`None`: not known yet, read from sled).
    /// (parking_lot here and below: every append takes these briefly, and with 64 writers std's
    /// mutex put a third of them to sleep; parking_lot spins first.)
    writers: parking_lot::Mutex<HashMap<String, StreamLock>>,
    /// Group commit: writes committed so far, and how many of them are known durable.
    committed: AtomicU64,
    flushed: parking_lot::Mutex<Flushed>,
    /// Signalled when a flush ends: `flush_done[Flushed::current]` holds the followers the running flush
    /// covers, the other those that arrived too late for it, who sleep through it (one of them
    /// is woken to lead the next flush, which covers the rest). With 64 writers, about half of
    /// the followers are late at any time; one condition variable woke them all at every flush
    /// only to sleep again. parking_lot's `notify_all` moves the waiters onto the mutex one by
    /// one instead of waking them all to fight over it.
    flush_done: [parking_lot::Condvar; 2],
    /// Blob files already synced (sled names them by log sequence number); only a flush's
    /// leader touches it.
    blobs: Mutex<HashSet<std::ffi::OsString>>,
    /// How many durable flushes ran (each covers every write committed before it began).
    flushes: AtomicU64,
    /// Appends between their start and their commit: a flush about to start lets them join it.
    writing: AtomicUsize,
    path: PathBuf,
    /// What the open recovered from, for the CLI and server to report.
    recovered: Vec<String>,
    /// The disk was full at open or at the last reopen: reads come from a temporary copy.
    read_only: AtomicBool,
    /// sled refused a write (it refuses every write after its first IO error, a full disk
    /// included) or the engine is the read-only copy: the next write reopens the directory first.
    needs_reopen: AtomicBool,
    /// How to reopen the directory; `None` for temporary stores.
    reopen: Option<OpenOptions>,
    /// One reopen at a time.
    reopening: Mutex<()>,
    /// The streams a failed flush left unacknowledged writes in, each with its head before the
    /// first of them (`None`: the stream did not exist). sled applied those writes in memory
    /// before its log write failed, so until the reopen, which drops them, reads stop at that
    /// head: no reader sees an event that was never acknowledged.
    unacknowledged: parking_lot::Mutex<HashMap<String, Option<Head>>>,
    /// The bells of the streams being watched, rung after each durable append.
    bells: parking_lot::Mutex<HashMap<String, Arc<super::Bell>>>,
}

/// One open sled database and what is synced with it.
struct Engine {
    db: sled::Db,
    tree: sled::Tree,
    /// Whether appends wait for the disk (false for the read-only copy and temporary stores).
    durable: bool,
    /// The data file, fdatasync'ed after sled's flush. `None` for temporary stores.
    data_file: Option<File>,
}

impl Engine {
    fn new(db: sled::Db, durable: bool, data_file: Option<File>, path: &Path) -> Result<Self, StoreError> {
        // The first layout (trees `headers`, `heads`, `events`, `idempotency`) is not read.
        if db.tree_names().iter().any(|n| &**n == b"heads") {
            return Err(StoreError::Backend(format!(
                "the store in {} uses an older layout; export its streams with the kifu that wrote them \
                 and import them into a new data directory",
                path.display()
            )));
        }
        Ok(Engine { tree: db.open_tree(TREE).map_err(backend)?, db, durable, data_file })
    }
}

/// The free space a disk must have before a store that failed a write on it reopens: sled
/// writes a new 512 KiB log segment, and may write a snapshot while it opens.
const ROOM_TO_REOPEN: u64 = 1 << 20;

#[derive(Default)]
struct Flushed {
    /// Writes covered by the last completed flush.
    upto: u64,
    /// Whether a leader is flushing now.
    flushing: bool,
    /// The last write the running flush covers, once its leader has read it (`None` whenever
    /// no flush runs: the flush's end clears it).
    target: Option<u64>,
    /// Flushes ended: picks which of `flush_done` the running flush signals.
    generation: u64,
}

impl Flushed {
    /// The condition variable the running flush's followers wait on.
    fn current(&self) -> usize {
        usize::from(self.generation % 2 == 1)
    }

    /// The condition variable a follower with `ticket` waits on while a flush runs.
    fn slot(&self, ticket: u64) -> usize {
        // Before the leader reads its target, every committed write is in it.
        let late = self.target.is_some_and(|t| ticket > t);
        self.current() ^ usize::from(late)
    }
}

/// A stream's writer mutex and cached head.
type StreamLock = Arc<Mutex<Option<Head>>>;

/// The heads the streams a write wrote had before it (`None`: the write created the stream).
type HeadsBefore = Vec<(String, Option<Head>)>;

/// The streams a call holds the writer mutexes of, with their cached heads.
struct Heads<'a> {
    locked: Vec<(&'a str, MutexGuard<'a, Option<Head>>)>,
}

impl Heads<'_> {
    fn slot(&mut self, sid: &str) -> Option<&mut Option<Head>> {
        self.locked.iter_mut().find(|(s, _)| *s == sid).map(|(_, g)| &mut **g)
    }
}

/// Ends a flush's leadership even if the flush panics, so followers never wait forever.
struct Leading<'a> {
    store: &'a SledStore,
    covered: Option<u64>,
}

impl Drop for Leading<'_> {
    fn drop(&mut self) {
        let mut f = self.store.flushed.lock();
        f.flushing = false;
        f.target = None;
        if let Some(t) = self.covered {
            f.upto = f.upto.max(t);
        }
        let ended = f.current();
        f.generation += 1;
        self.store.flush_done[ended].notify_all();
        // One of those who slept through this flush leads the next; it covers the others.
        self.store.flush_done[1 - ended].notify_one();
    }
}

fn backend(e: sled::Error) -> StoreError {
    StoreError::Backend(e.to_string())
}

fn io_error(what: &str, e: std::io::Error) -> StoreError {
    if e.kind() == std::io::ErrorKind::StorageFull || e.raw_os_error() == Some(28) {
        // The store fills in its path (`SledStore::write_failed`).
        return StoreError::DiskFull { path: String::new() };
    }
    StoreError::Backend(format!("{what}: {e}"))
}

/// A failed sled write or flush; a full disk is said so (the store fills in its path).
fn write_error(e: sled::Error) -> StoreError {
    if is_disk_full(&e) {
        return StoreError::DiskFull { path: String::new() };
    }
    backend(e)
}

/// The default bound on sled's own page cache (its default is 1 GiB).
pub const SLED_CACHE_BYTES: u64 = 64 << 20;

impl SledStore {
    /// Opens (or creates) the store in `dir`, waiting for another process to release it.
    pub fn open(dir: &Path, clock: Arc<dyn Clock>) -> Result<Self, StoreError> {
        Self::open_with(dir, clock, OpenOptions::default())
    }

    pub fn open_with(dir: &Path, clock: Arc<dyn Clock>, options: OpenOptions) -> Result<Self, StoreError> {
        let mut recovered = Vec::new();
        let tightened = crate::store::private_dir(dir)
            .map_err(|e| StoreError::Backend(format!("cannot create data directory {}: {e}", dir.display())))?;
        recovered.extend(tightened);
        let (engine, read_only) = match open_engine(dir, &options, &mut recovered) {
            Ok(engine) => (engine, false),
            Err(StoreError::DiskFull { .. }) => (open_read_only_copy(dir)?, true),
            Err(e) => return Err(e),
        };
        let mut store = Self::with_engine(engine, clock, dir.to_path_buf(), Some(options));
        store.blob_dir = Some(dir.join("blobs"));
        store.recovered = recovered;
        store.read_only = AtomicBool::new(read_only);
        store.needs_reopen = AtomicBool::new(read_only);
        Ok(store)
    }

    /// What the open repaired (leftovers of interrupted writes it removed, permissions it tightened), one line each.
    pub fn open_notes(&self) -> &[String] {
        &self.recovered
    }

    /// True while the disk is full: the store reads from a copy, and a write first tries to
    /// reopen the directory (refused with [`StoreError::DiskFull`] while the disk has no room).
    pub fn is_read_only(&self) -> bool {
        self.read_only.load(Ordering::SeqCst)
    }

    /// A store that lives in a temporary directory and is deleted when dropped (tests, benches).
    pub fn temporary(clock: Arc<dyn Clock>) -> Result<Self, StoreError> {
        let db = sled::Config::new().temporary(true).open().map_err(backend)?;
        let engine = Engine::new(db, false, None, Path::new(""))?;
        Ok(Self::with_engine(engine, clock, PathBuf::new(), None))
    }

    fn with_engine(engine: Engine, clock: Arc<dyn Clock>, path: PathBuf, reopen: Option<OpenOptions>) -> Self {
        SledStore {
            engine: parking_lot::RwLock::new(Some(engine)),
            clock,
            blob_dir: None,
            writers: parking_lot::Mutex::new(HashMap::new()),
            committed: AtomicU64::new(0),
            flushed: parking_lot::Mutex::new(Flushed::default()),
            flush_done: [parking_lot::Condvar::new(), parking_lot::Condvar::new()],
            blobs: Mutex::new(HashSet::new()),
            flushes: AtomicU64::new(0),
            writing: AtomicUsize::new(0),
            path,
            recovered: Vec::new(),
            read_only: AtomicBool::new(false),
            needs_reopen: AtomicBool::new(false),
            reopen,
            reopening: Mutex::new(()),
            unacknowledged: parking_lot::Mutex::new(HashMap::new()),
            bells: parking_lot::Mutex::new(HashMap::new()),
        }
    }

    /// The open database, held for one whole operation (see the `engine` field).
    fn engine(&self) -> Result<parking_lot::MappedRwLockReadGuard<'_, Engine>, StoreError> {
        parking_lot::RwLockReadGuard::try_map(self.engine.read(), Option::as_ref).map_err(|_| {
            StoreError::Backend(format!(
                "the store in {} could not be reopened after a failed write; restart kifu",
                self.path.display()
            ))
        })
    }

    /// Hides the writes a failed flush did not acknowledge (`before`: each written stream's
    /// head before the write) until the reopen; the earliest head of a stream wins.
    fn unacknowledged(&self, before: HeadsBefore) {
        let mut hidden = self.unacknowledged.lock();
        for (sid, head) in before {
            let earlier = |kept: &Option<Head>| match (head, kept) {
                (None, _) => true,
                (Some(h), Some(k)) => h.len < k.len,
                (Some(_), None) => false,
            };
            match hidden.get(&sid) {
                Some(kept) if !earlier(kept) => {}
                _ => {
                    hidden.insert(sid, head);
                }
            }
        }
    }

    /// The acknowledged head of a stream a failed flush left unacknowledged writes in:
    /// `Some(None)` when it did not exist before them; `None` when it has none.
    fn acknowledged_head(&self, sid: &str) -> Option<Option<Head>> {
        if !self.needs_reopen.load(Ordering::SeqCst) {
            return None;
        }
        self.unacknowledged.lock().get(sid).copied()
    }

    fn disk_full(&self) -> StoreError {
        StoreError::DiskFull { path: self.path.display().to_string() }
    }

    /// A write failed: sled refuses every later write after an IO error, so the next write
    /// reopens the store from the directory (which holds every acknowledged append). A full
    /// disk is said in those words.
    fn write_failed(&self, e: StoreError) -> StoreError {
        self.needs_reopen.store(true, Ordering::SeqCst);
        match e {
            StoreError::DiskFull { .. } => self.disk_full(),
            e => e,
        }
    }

    /// Reopens the directory after a failed write (or from the read-only copy a full disk
    /// left at open), once its disk has room again: every writer and reader of the old
    /// database has finished first (the engine's write lock). The reopened store holds every
    /// acknowledged append (sled replays its log, and each acknowledgement followed a flush);
    /// a write whose flush failed was not acknowledged and, as after a crash, may or may not be
    /// there. While the disk is still full the write is refused with [`StoreError::DiskFull`]
    /// and reads go on from the old database (or the copy).
    fn reopen_if_needed(&self) -> Result<(), StoreError> {
        if !self.needs_reopen.load(Ordering::SeqCst) {
            return Ok(());
        }
        let Some(options) = &self.reopen else {
            return Err(StoreError::Backend("a write to this temporary store failed; it cannot be reopened".into()));
        };
        let _one = self.reopening.lock().unwrap_or_else(|p| p.into_inner());
        if !self.needs_reopen.load(Ordering::SeqCst) {
            return Ok(());
        }
        let room = fs2::available_space(&self.path).unwrap_or(0);
        if options.simulate_full_disk || room < ROOM_TO_REOPEN {
            return Err(self.disk_full());
        }
        let mut slot = self.engine.write();
        // sled releases its lock on the directory once this database and its threads let go
        // of it; the open below waits for that (up to `lock_wait`).
        drop(slot.take());
        let options = OpenOptions { lock_wait: Duration::from_secs(10), ..options.clone() };
        let mut notes = Vec::new();
        match open_engine(&self.path, &options, &mut notes) {
            Ok(engine) => {
                *slot = Some(engine);
                // Heads are read again from the reopened store; blobs are synced again once.
                self.writers.lock().clear();
                self.unacknowledged.lock().clear();
                self.blobs.lock().unwrap_or_else(|p| p.into_inner()).clear();
                self.read_only.store(false, Ordering::SeqCst);
                self.needs_reopen.store(false, Ordering::SeqCst);
                Ok(())
            }
            Err(e) => {
                // Still no room (the disk filled again) or worse: read from a copy meanwhile.
                *slot = open_read_only_copy(&self.path).ok();
                self.read_only.store(slot.is_some(), Ordering::SeqCst);
                Err(e)
            }
        }
    }

    /// The data directory.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The writer mutex of `sid`, created on first use.
    fn stream_lock(&self, sid: &str) -> StreamLock {
        let mut map = self.writers.lock();
        map.entry(sid.to_string()).or_default().clone()
    }

    /// Makes everything committed up to `ticket` durable (group commit, leader and followers):
    /// whoever finds no flush running leads one covering every write committed before it began;
    /// the others sleep until a flush that covers their write ends. No writer mutex is held.
    fn make_durable(&self, e: &Engine, ticket: u64) -> Result<(), StoreError> {
        if !e.durable {
            return Ok(());
        }
        let mut f = self.flushed.lock();
        loop {
            if f.upto >= ticket {
                return Ok(());
            }
            if !f.flushing {
                break;
            }
            let slot = f.slot(ticket);
            self.flush_done[slot].wait(&mut f);
        }
        f.flushing = true;
        drop(f);
        let mut leading = Leading { store: self, covered: None };
        // Appends already under way join this flush rather than wait for the next one. A lone
        // writer never waits here.
        let start = Instant::now();
        while self.writing.load(Ordering::SeqCst) > 0 && start.elapsed() < GROUP_WAIT {
            std::thread::yield_now();
        }
        let target = self.committed.load(Ordering::SeqCst);
        self.flushed.lock().target = Some(target);
        e.db.flush().map_err(write_error)?;
        if let Some(dir) = &self.blob_dir {
            let mut blobs = self.blobs.lock().unwrap_or_else(|p| p.into_inner());
            sync_new_blobs(dir, &mut blobs)?;
        }
        if let Some(file) = &e.data_file {
            file.sync_data().map_err(|e| io_error("fdatasync failed", e))?;
        }
        self.flushes.fetch_add(1, Ordering::SeqCst);
        // On an error above, `leading` ends the flush covering nothing: a follower leads the next.
        leading.covered = Some(target);
        Ok(())
    }

    /// Group-commit counters: (writes committed, durable flushes run). With many concurrent
    /// appenders the second grows much more slowly than the first.
    pub fn commit_stats(&self) -> (u64, u64) {
        (self.committed.load(Ordering::SeqCst), self.flushes.load(Ordering::SeqCst))
    }

    /// Writes the collected key-value pairs atomically.
    fn write(e: &Engine, mut writes: Vec<(Vec<u8>, Vec<u8>)>) -> Result<(), StoreError> {
        if writes.len() == 1 {
            if let Some((k, v)) = writes.pop() {
                e.tree.insert(k, v).map_err(write_error)?;
            }
            return Ok(());
        }
        let mut batch = sled::Batch::default();
        for (k, v) in writes {
            batch.insert(k, v);
        }
        e.tree.apply_batch(batch).map_err(write_error)
    }

    /// Runs `plan` holding the writer mutexes of `streams`, writes what it collected and waits
    /// for the disk, all on one engine (a reopen waits for it). A store that failed a write is
    /// reopened first (see [`SledStore::reopen_if_needed`]).
    fn write_and_flush<T>(
        &self,
        streams: Vec<&str>,
        plan: impl FnOnce(&Engine, &mut Heads<'_>, &mut Writes) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        self.reopen_if_needed()?;
        let e = self.engine()?;
        self.writing.fetch_add(1, Ordering::SeqCst);
        let written = self.write_locked(&e, streams, plan);
        self.writing.fetch_sub(1, Ordering::SeqCst);
        let (out, ticket, before) = written?;
        if let Err(err) = self.make_durable(&e, ticket) {
            self.unacknowledged(before);
            return Err(self.write_failed(err));
        }
        Ok(out)
    }

    /// Plans and writes holding the writer mutexes of `streams`; returns the group-commit
    /// ticket to wait for, and the heads the written streams had before.
    fn write_locked<T>(
        &self,
        e: &Engine,
        mut streams: Vec<&str>,
        plan: impl FnOnce(&Engine, &mut Heads<'_>, &mut Writes) -> Result<T, StoreError>,
    ) -> Result<(T, u64, HeadsBefore), StoreError> {
        // Always in stream-id order: two calls never each hold a mutex the other waits for.
        streams.sort_unstable();
        streams.dedup();
        let locks: Vec<(&str, StreamLock)> = streams.into_iter().map(|s| (s, self.stream_lock(s))).collect();
        // A panic while holding a mutex leaves its head as before that write (it is only updated
        // after a successful write), so the data is still good.
        let mut heads =
            Heads { locked: locks.iter().map(|(s, m)| (*s, m.lock().unwrap_or_else(|p| p.into_inner()))).collect() };
        let mut writes = Writes::default();
        let out = plan(e, &mut heads, &mut writes)?;
        let mut before = Vec::new();
        let ticket = if writes.kv.is_empty() {
            // Nothing new, but what the caller is told may come from a write still in flight.
            self.committed.load(Ordering::SeqCst)
        } else {
            if let Err(err) = Self::write(e, writes.kv) {
                // sled may or may not have applied it: forget what we believe about heads.
                for (_, h) in &mut heads.locked {
                    **h = None;
                }
                return Err(self.write_failed(err));
            }
            for (sid, head) in writes.heads {
                if let Some(slot) = heads.slot(&sid) {
                    // The plan read every stream it writes, so the slot holds its head before
                    // this write (`None`: the write creates the stream).
                    before.push((sid, *slot));
                    *slot = Some(head);
                }
            }
            self.committed.fetch_add(1, Ordering::SeqCst) + 1
        };
        Ok((out, ticket, before))
    }

    /// The head of a stream, from the cache or else from sled.
    fn cached_head(&self, e: &Engine, heads: &mut Heads<'_>, sid: &str) -> Result<Option<Head>, StoreError> {
        let Some(slot) = heads.slot(sid) else {
            // Not a stream this call locked: nothing to cache it in.
            return load_head(e, sid);
        };
        if slot.is_none() {
            *slot = load_head(e, sid)?;
        }
        Ok(*slot)
    }

    /// The stored bytes of event `seq`, which the caller knows exists.
    fn event_at(e: &Engine, sid: &str, seq: u64) -> Result<Vec<u8>, StoreError> {
        let missing = || StoreError::CorruptIndex(format!("stream {sid}: event {seq} is missing from the store"));
        let (k, chunk) =
            e.tree.range(chunk_key(sid, 0)..=chunk_key(sid, seq)).next_back().ok_or_else(missing)?.map_err(backend)?;
        let first = chunk_seq(sid, &k)?;
        for frame in Frames::new(sid, first, &chunk) {
            let (s, bytes) = frame?;
            if s == seq {
                return Ok(bytes.to_vec());
            }
        }
        Err(missing())
    }
}

/// The head derived from the stream's last chunk (or its header when it has no event).
fn load_head(e: &Engine, sid: &str) -> Result<Option<Head>, StoreError> {
    let Some(header) = e.tree.get(header_key(sid)).map_err(backend)? else {
        return Ok(None);
    };
    let last = e.tree.range(chunk_key(sid, 0)..=chunk_key(sid, u64::MAX)).next_back();
    let Some(kv) = last else {
        return Ok(Some(Head { len: 0, hash: chain::header_hash(&header) }));
    };
    let (k, chunk) = kv.map_err(backend)?;
    let first = chunk_seq(sid, &k)?;
    let (count, last) =
        Frames::new(sid, first, &chunk).try_fold((0u64, None), |(n, _), f| f.map(|(_, bytes)| (n + 1, Some(bytes))))?;
    let Some(last) = last else {
        return Err(StoreError::CorruptIndex(format!("stream {sid}: chunk at event {first} is empty")));
    };
    Ok(Some(Head { len: first + count, hash: stored_hash(sid, first + count - 1, last)? }))
}

impl SledStore {
    /// Whether `id` was recorded in `sid`: at which sequence number, and with the same actor and
    /// payload as `ev` or not.
    fn recorded(e: &Engine, sid: &str, id: &[u8; 16], ev: &NewEvent) -> Result<Option<(u64, bool)>, StoreError> {
        let Some(seq) = Self::indexed_seq(e, sid, id)? else {
            return Ok(None);
        };
        let stored = Self::event_at(e, sid, seq)?;
        Ok(Some((seq, super::same_event(&stored, ev))))
    }

    /// The sequence number the index holds for idempotency id `id` of `sid`.
    fn indexed_seq(e: &Engine, sid: &str, id: &[u8; 16]) -> Result<Option<u64>, StoreError> {
        match e.tree.get(idempotency_key(sid, id)).map_err(backend)? {
            Some(seq) => Ok(Some(decode_seq(sid, &seq)?)),
            None => Ok(None),
        }
    }

    /// The header of `stream`, which exists: stored, or created earlier in this same batch.
    fn planned_header(e: &Engine, writes: &Writes, stream: &StreamId) -> Result<Header, StoreError> {
        let key = header_key(stream.as_str());
        match writes.kv.iter().rev().find(|(k, _)| *k == key) {
            Some((_, bytes)) => chain::decode_header(bytes).map_err(|problem| {
                StoreError::Corrupt(chain::ChainError { stream: stream.to_string(), at: chain::At::Header, problem })
            }),
            None => Ok(Self::header_in(e, stream)?.1),
        }
    }

    /// Checks one request against the current state and collects its writes.
    fn plan_request<'r>(
        &self,
        e: &Engine,
        heads: &mut Heads<'_>,
        writes: &mut Writes,
        pending: &mut HashMap<(&'r str, [u8; 16]), (u64, &'r NewEvent)>,
        req: &'r AppendRequest,
        now: Timestamp,
    ) -> Result<Appended, StoreError> {
        let sid = req.stream.as_str();
        let current = match writes.heads.get(sid) {
            Some(h) => Some(*h),
            None => self.cached_head(e, heads, sid)?,
        };
        // A retry is recognised before the version check: the client's first attempt succeeded.
        if let Some(head) = current {
            let retry = super::judge_retry(sid, &req.events, |id, ev| match pending.get(&(sid, id.0)) {
                // Recorded earlier in this same batch.
                Some((seq, e)) => Ok(Some((*seq, e.actor == ev.actor && e.payload == ev.payload))),
                None => Self::recorded(e, sid, &id.0, ev),
            })?;
            if let Some(first_seq) = retry {
                return Ok(Appended { stream: req.stream.clone(), first_seq, head, retried: true, stored: Vec::new() });
            }
        }
        if current.is_some() && req.create.is_some() {
            super::check_kind(req, &Self::planned_header(e, writes, &req.stream)?)?;
        }
        if !super::expectation_holds(req.expected, current) {
            return Err(StoreError::WrongExpectedVersion {
                stream: sid.to_string(),
                expected: req.expected,
                current: current.map(|h| h.len),
            });
        }
        let mut head = match current {
            Some(h) => h,
            None => {
                let header_bytes = super::creation_header(req)?;
                let hash = chain::header_hash(&header_bytes);
                writes.kv.push((header_key(sid), header_bytes));
                Head { len: 0, hash }
            }
        };
        let first_seq = head.len;
        let mut chunks = Chunker::new(sid, first_seq);
        let mut sealed = Vec::with_capacity(req.events.len());
        for ev in &req.events {
            let envelope = Envelope::V1(EnvelopeV1 {
                stream: Cow::Borrowed(sid),
                seq: head.len,
                recorded_at: now,
                actor: ev.actor.clone(),
                idempotency: ev.idempotency,
                payload: Cow::Borrowed(&ev.payload),
                prev: head.hash,
            });
            let (stored, hash) = chain::seal_event(&envelope)?;
            chunks.push(head.len, &stored, &mut writes.kv)?;
            if let Some(id) = ev.idempotency {
                writes.kv.push((idempotency_key(sid, &id.0), head.len.to_be_bytes().to_vec()));
                pending.insert((sid, id.0), (head.len, ev));
            }
            head = Head { len: head.len + 1, hash };
            sealed.push(stored);
        }
        chunks.finish(&mut writes.kv);
        writes.heads.insert(sid.to_string(), head);
        Ok(Appended { stream: req.stream.clone(), first_seq, head, retried: false, stored: sealed })
    }
}

/// What one call writes: key-value pairs, and the heads they leave.
#[derive(Default)]
struct Writes {
    kv: Vec<(Vec<u8>, Vec<u8>)>,
    heads: HashMap<String, Head>,
}

/// Frames consecutive stored events into chunks of at most [`CHUNK_BYTES`] (or one event).
struct Chunker {
    sid_key: Vec<u8>,
    first: u64,
    buf: Vec<u8>,
}

impl Chunker {
    fn new(sid: &str, first: u64) -> Self {
        Chunker { sid_key: chunk_key(sid, 0), first, buf: Vec::new() }
    }

    fn push(&mut self, seq: u64, stored: &[u8], out: &mut Vec<(Vec<u8>, Vec<u8>)>) -> Result<(), StoreError> {
        let len = u32::try_from(stored.len())
            .map_err(|_| StoreError::Backend(format!("event {seq} is {} bytes, over 4 GiB", stored.len())))?;
        if !self.buf.is_empty() && self.buf.len() + 4 + stored.len() > CHUNK_BYTES {
            self.finish(out);
            self.first = seq;
        }
        if self.buf.is_empty() {
            self.buf.reserve(CHUNK_BYTES.max(4 + stored.len()));
        }
        self.buf.extend_from_slice(&len.to_le_bytes());
        self.buf.extend_from_slice(stored);
        Ok(())
    }

    fn finish(&mut self, out: &mut Vec<(Vec<u8>, Vec<u8>)>) {
        if self.buf.is_empty() {
            return;
        }
        let mut key = self.sid_key.clone();
        let at = key.len() - 8;
        key[at..].copy_from_slice(&self.first.to_be_bytes());
        out.push((key, std::mem::take(&mut self.buf)));
    }
}

/// The frames of one chunk with their sequence numbers; malformed framing is reported as
/// corruption of the stream.
struct Frames<'a> {
    sid: &'a str,
    seq: u64,
    rest: &'a [u8],
}

impl<'a> Frames<'a> {
    fn new(sid: &'a str, first: u64, chunk: &'a [u8]) -> Self {
        Frames { sid, seq: first, rest: chunk }
    }
}

impl<'a> Iterator for Frames<'a> {
    type Item = Result<(u64, &'a [u8]), StoreError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.rest.is_empty() {
            return None;
        }
        let framed = self.rest.split_first_chunk::<4>().and_then(|(len, rest)| {
            let len = usize::try_from(u32::from_le_bytes(*len)).ok()?;
            (len <= rest.len()).then(|| rest.split_at(len))
        });
        let Some((frame, rest)) = framed else {
            let seq = self.seq;
            self.rest = &[];
            return Some(Err(StoreError::CorruptIndex(format!(
                "stream {}: the chunk holding event {seq} is cut short",
                self.sid
            ))));
        };
        self.rest = rest;
        let seq = self.seq;
        self.seq += 1;
        Some(Ok((seq, frame)))
    }
}

fn stored_hash(sid: &str, seq: u64, stored: &[u8]) -> Result<Hash32, StoreError> {
    let Some((_, tail)) = stored.split_last_chunk::<32>() else {
        return Err(StoreError::CorruptIndex(format!(
            "stream {sid}: event {seq} is {} bytes, too short to end in a hash",
            stored.len()
        )));
    };
    Ok(Hash32(*tail))
}

fn header_key(stream: &str) -> Vec<u8> {
    let mut k = Vec::with_capacity(1 + stream.len());
    k.push(TAG_HEADER);
    k.extend_from_slice(stream.as_bytes());
    k
}

/// `tag ‖ u8 len(id) ‖ id`.
fn stream_prefix(tag: u8, stream: &str, extra: usize) -> Vec<u8> {
    let mut k = Vec::with_capacity(2 + stream.len() + extra);
    k.push(tag);
    // Stream ids are at most 64 bytes (StreamId::new), so the length fits a byte.
    k.push(stream.len() as u8);
    k.extend_from_slice(stream.as_bytes());
    k
}

fn chunk_key(stream: &str, first_seq: u64) -> Vec<u8> {
    let mut k = stream_prefix(TAG_EVENTS, stream, 8);
    k.extend_from_slice(&first_seq.to_be_bytes());
    k
}

fn idempotency_key(stream: &str, id: &[u8; 16]) -> Vec<u8> {
    let mut k = stream_prefix(TAG_IDEMPOTENCY, stream, 16);
    k.extend_from_slice(id);
    k
}

/// The first sequence number in a chunk key.
fn chunk_seq(sid: &str, key: &[u8]) -> Result<u64, StoreError> {
    key.split_last_chunk::<8>()
        .filter(|(prefix, _)| prefix.len() == 2 + sid.len())
        .map(|(_, seq)| u64::from_be_bytes(*seq))
        .ok_or_else(|| StoreError::CorruptIndex(format!("stream {sid}: malformed chunk key")))
}

fn decode_seq(sid: &str, bytes: &[u8]) -> Result<u64, StoreError> {
    <[u8; 8]>::try_from(bytes)
        .map(u64::from_be_bytes)
        .map_err(|_| StoreError::CorruptIndex(format!("stream {sid}: malformed idempotency record")))
}

/// `fdatasync`s the blob files sled created since the last call, then the blob directory.
/// sled writes a blob before the log message that points to it, so after `Db::flush` every
/// blob the flushed log refers to exists.
fn sync_new_blobs(dir: &Path, synced: &mut HashSet<std::ffi::OsString>) -> Result<(), StoreError> {
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(io_error("cannot list sled's blob directory", e)),
    };
    let mut present = HashSet::new();
    let mut new = false;
    for entry in entries {
        let name = entry.map_err(|e| io_error("cannot list sled's blob directory", e))?.file_name();
        if !synced.contains(&name) {
            // sled removes blobs it no longer needs; one gone meanwhile needs no sync.
            match File::open(dir.join(&name)) {
                Ok(f) => f.sync_data().map_err(|e| io_error("fdatasync of a blob failed", e))?,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                Err(e) => return Err(io_error("cannot open a blob", e)),
            }
            new = true;
        }
        present.insert(name);
    }
    if new {
        File::open(dir).and_then(|d| d.sync_all()).map_err(|e| io_error("fsync of sled's blob directory failed", e))?;
    }
    *synced = present;
    Ok(())
}

/// Opens sled in `dir`, waiting up to `options.lock_wait` for another process (or a database
/// of this one being dropped) to release it; notes what it repaired in `notes`. A full disk is
/// [`StoreError::DiskFull`].
fn open_engine(dir: &Path, options: &OpenOptions, notes: &mut Vec<String>) -> Result<Engine, StoreError> {
    let started = Instant::now();
    let opened = loop {
        let attempt = if options.simulate_full_disk {
            Err(sled::Error::Io(std::io::Error::from(std::io::ErrorKind::StorageFull)))
        } else {
            match recover_leftovers(dir) {
                Ok(Some(repaired)) => {
                    notes.extend(repaired);
                    // sled's page cache defaults to 1 GiB, outside every bound kifu sets; the
                    // server's own caches hold the folded games, so a small one suffices.
                    // sled's background flusher (every 500 ms by default) is off when every
                    // append flushes before it returns (`make_durable`): it only repeated
                    // that work, and contended with it. Measured with `tools/bench-live
                    // --throughput 1000`: 64 live games 21-28k appends/s with it, 39-41k
                    // without; one game 2.1-3.0k with it, 3.0-3.9k without.
                    let background = if options.durable { None } else { Some(500) };
                    sled::Config::new()
                        .path(dir)
                        .cache_capacity(options.page_cache_bytes)
                        .flush_every_ms(background)
                        .open()
                }
                // Another process holds the directory.
                Ok(None) => Err(sled::Error::Io(std::io::Error::other("could not acquire lock"))),
                Err(e) => Err(sled::Error::Io(e)),
            }
        };
        match attempt {
            Ok(db) => break Ok(db),
            // sled 0.34 reports a held lock only through this message (config.rs).
            Err(sled::Error::Io(e)) if e.to_string().contains("could not acquire lock") => {
                if started.elapsed() >= options.lock_wait {
                    return Err(StoreError::Locked {
                        path: dir.display().to_string(),
                        waited_ms: started.elapsed().as_millis(),
                    });
                }
                std::thread::sleep(Duration::from_millis(5));
            }
            Err(e) => break Err(e),
        }
    };
    let db = match opened {
        Ok(db) => db,
        Err(e) if is_disk_full(&e) => return Err(StoreError::DiskFull { path: dir.display().to_string() }),
        Err(e) => return Err(unopenable(dir, &e.to_string())),
    };
    let data_file = File::options().read(true).open(dir.join("db")).ok();
    private_store_files(dir);
    // sled makes its blob directory with the process umask; kifu's data files are owner only.
    let _ = crate::store::private_dir(&dir.join("blobs"));
    Engine::new(db, options.durable, data_file, dir)
}

/// Opens a copy of the store in `dir` from memory-backed temporary space, for reads only: sled
/// writes while it opens (its recovery snapshot), which a full disk refuses, but reading,
/// verifying and exporting need no new byte on that disk.
fn open_read_only_copy(dir: &Path) -> Result<Engine, StoreError> {
    let shm = Path::new("/dev/shm");
    let base = if shm.is_dir() { shm.to_path_buf() } else { std::env::temp_dir() };
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    let copy = base.join(format!("kifu-read-only-{}-{nanos}", std::process::id()));
    let copied = copy_store_files(dir, &copy);
    let db = copied.and_then(|()| {
        sled::Config::new().path(&copy).temporary(true).open().map_err(|e| std::io::Error::other(e.to_string()))
    });
    match db {
        Ok(db) => Engine::new(db, false, None, dir),
        Err(e) => {
            let _ = std::fs::remove_dir_all(&copy);
            Err(unopenable(dir, &format!("the disk is full and a read-only copy failed too: {e}")))
        }
    }
}

fn unopenable(dir: &Path, reason: &str) -> StoreError {
    StoreError::Unopenable { path: dir.display().to_string(), reason: reason.to_string() }
}

fn is_disk_full(e: &sled::Error) -> bool {
    match e {
        sled::Error::Io(io) => io.kind() == std::io::ErrorKind::StorageFull || io.raw_os_error() == Some(28),
        _ => false,
    }
}

/// Removes what an interrupted sled write leaves behind and sled 0.34.7 then fails on, while
/// holding sled's own lock (an exclusive `flock` of `db`), so no live writer is touched.
/// `Ok(None)`: another process holds the lock.
///
/// - `snap.*.generating`: a snapshot killed before its rename. sled reads the lexically last
///   `snap.*` file, which is this one, and reports "Read corrupted data". The previous complete
///   snapshot (or none, and the whole log) is still there: sled renames before it deletes.
/// - `conf` with a bad checksum or too short: killed during the very first open, before
///   anything else was written. kifu always opens with sled's defaults, so sled rewrites it.
fn recover_leftovers(dir: &Path) -> std::io::Result<Option<Vec<String>>> {
    use fs2::FileExt;
    let db = File::options().read(true).write(true).create(true).truncate(false).open(dir.join("db"))?;
    if db.try_lock_exclusive().is_err() {
        return Ok(None);
    }
    let mut notes = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with("snap.") && name.ends_with(".generating") {
            std::fs::remove_file(entry.path())?;
            notes.push(format!("removed {name}, a snapshot interrupted before it was complete"));
        }
    }
    let conf = dir.join("conf");
    if let Ok(bytes) = std::fs::read(&conf) {
        let intact = bytes.len() > 8 && {
            let (body, crc) = bytes.split_at(bytes.len() - 4);
            crc32fast::hash(body) == u32::from_le_bytes([crc[0], crc[1], crc[2], crc[3]])
        };
        if !intact && db.metadata()?.len() == 0 {
            std::fs::remove_file(&conf)?;
            notes.push("removed conf, a configuration file interrupted before it was complete".to_string());
        }
    }
    if !notes.is_empty() {
        File::open(dir)?.sync_all()?;
    }
    FileExt::unlock(&db)?;
    Ok(Some(notes))
}

/// Makes sled's files owner-only (sled creates them with the process umask; the directory is
/// 0700 already, this keeps a copied or moved file private too). Best effort: a file sled
/// replaces later is still inside the private directory.
fn private_store_files(dir: &Path) {
    let names =
        std::fs::read_dir(dir).into_iter().flatten().chain(std::fs::read_dir(dir.join("blobs")).into_iter().flatten());
    for entry in names.flatten() {
        if entry.file_type().is_ok_and(|t| t.is_file()) {
            let _ = crate::store::private_file(&entry.path());
        }
    }
}

/// Copies sled's files (not a half-written snapshot) from `from` into a new directory `to`.
fn copy_store_files(from: &Path, to: &Path) -> std::io::Result<()> {
    crate::store::private_dir(&to.join("blobs"))?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if name == "conf" || name == "db" || (name.starts_with("snap.") && !name.ends_with(".generating")) {
            std::fs::copy(entry.path(), to.join(&name))?;
        }
    }
    if let Ok(blobs) = std::fs::read_dir(from.join("blobs")) {
        for entry in blobs {
            let entry = entry?;
            std::fs::copy(entry.path(), to.join("blobs").join(entry.file_name()))?;
        }
    }
    Ok(())
}

impl SledStore {
    /// Where a derived cache of `stream` lives: `derived/NAME-HASH` in the data directory (the
    /// stream id hashed, so any id makes a plain file name). `None` for temporary stores.
    fn derived_path(&self, stream: &StreamId, name: &str) -> Option<PathBuf> {
        if self.blob_dir.is_none() || self.path.as_os_str().is_empty() {
            return None;
        }
        let key = blake3::hash(stream.as_str().as_bytes()).to_hex();
        Some(self.path.join("derived").join(format!("{name}-{}", &key[..32])))
    }

    /// Appends several requests (to one or several streams) atomically and durably, with one
    /// flush for the whole batch. If any request is refused, nothing is written. Not part of
    /// the [`super::Store`] contract (whose appends are per stream): sled can do it cheaply, and
    /// bulk loaders and tests of this backend use it.
    pub fn append_batch(&self, requests: Vec<AppendRequest>) -> Result<Vec<Appended>, StoreError> {
        let now = self.clock.now();
        let streams = requests.iter().map(|r| r.stream.as_str()).collect();
        let out = self.write_and_flush(streams, |e, heads, writes| {
            // Idempotency ids recorded earlier in this batch.
            let mut pending = HashMap::new();
            requests.iter().map(|req| self.plan_request(e, heads, writes, &mut pending, req, now)).collect()
        })?;
        for req in &requests {
            self.ring(req.stream.as_str());
        }
        Ok(out)
    }

    /// Wakes the watchers of `sid` (after its write is durable).
    fn ring(&self, sid: &str) {
        let bells = self.bells.lock();
        if let Some(bell) = bells.get(sid) {
            bell.ring();
        }
    }
}

impl super::Store for SledStore {
    fn derived(&self, stream: &StreamId, name: &str) -> Option<Vec<u8>> {
        std::fs::read(self.derived_path(stream, name)?).ok()
    }

    fn keep_derived(&self, stream: &StreamId, name: &str, bytes: &[u8]) {
        let Some(path) = self.derived_path(stream, name) else { return };
        if self.is_read_only() {
            return;
        }
        // A cache, not a record: written aside and renamed (a reader sees a whole file or none),
        // never synced. Its reader checks a checksum and the stream's head, so a torn file is
        // just missing.
        let keep = || -> std::io::Result<()> {
            let dir = path.parent().ok_or_else(|| std::io::Error::other("no directory"))?;
            crate::store::private_dir(dir)?;
            static WRITES: AtomicU64 = AtomicU64::new(0);
            let n = WRITES.fetch_add(1, Ordering::Relaxed);
            let tmp = path.with_extension(format!("tmp-{}-{n}", std::process::id()));
            {
                use std::io::Write as _;
                use std::os::unix::fs::OpenOptionsExt as _;
                File::options().write(true).create(true).truncate(true).mode(0o600).open(&tmp)?.write_all(bytes)?;
            }
            std::fs::rename(&tmp, &path)
        };
        let _ = keep();
    }

    fn append(&self, request: AppendRequest) -> Result<Appended, StoreError> {
        let stream = request.stream.to_string();
        self.append_batch(vec![request])?.pop().ok_or(StoreError::UnknownStream(stream))
    }

    fn streams_page(&self, after: Option<&StreamId>, limit: usize) -> Result<Vec<StreamSummary>, StoreError> {
        use std::ops::Bound;
        let start = match after {
            Some(s) => Bound::Excluded(header_key(s.as_str())),
            None => Bound::Included(vec![TAG_HEADER]),
        };
        let e = self.engine()?;
        let mut out = Vec::new();
        for kv in e.tree.range((start, Bound::Excluded(vec![TAG_HEADER + 1]))) {
            if out.len() >= limit {
                break;
            }
            let (k, _) = kv.map_err(backend)?;
            let id = String::from_utf8_lossy(&k[1..]).to_string();
            let stream = StreamId::new(&id).map_err(|e| StoreError::CorruptIndex(e.to_string()))?;
            if self.acknowledged_head(&id) == Some(None) {
                continue;
            }
            let (_, header) = Self::header_in(&e, &stream)?;
            let head = self.head_in(&e, &stream)?;
            out.push(StreamSummary { header, head });
        }
        Ok(out)
    }

    fn recorded_id(&self, stream: &StreamId, id: &IdempotencyId) -> Result<Option<u64>, StoreError> {
        let seq = Self::indexed_seq(&*self.engine()?, stream.as_str(), &id.0)?;
        // An id of an unacknowledged write (see `unacknowledged`) is not recorded.
        Ok(match self.acknowledged_head(stream.as_str()) {
            Some(head) => seq.filter(|s| head.is_some_and(|h| *s < h.len)),
            None => seq,
        })
    }

    fn watch(&self, stream: &StreamId, from: u64) -> Result<super::Watch, StoreError> {
        // Only this process writes the directory (sled's lock), so its own appends are all of them.
        let mut bells = self.bells.lock();
        // Bells nobody holds any more are dropped here, so the map tracks the streams followed now.
        bells.retain(|_, b| Arc::strong_count(b) > 1);
        let bell = bells.entry(stream.to_string()).or_default().clone();
        Ok(super::Watch::new(stream.clone(), from, bell, None))
    }

    fn import(&self, log: &chain::VerifiedLog) -> Result<Imported, StoreError> {
        let sid = log.header.stream().as_str();
        let out = self.write_and_flush(vec![sid], |e, heads, writes| {
            if let Some(head) = self.cached_head(e, heads, sid)? {
                let same_header =
                    e.tree.get(header_key(sid)).map_err(backend)?.is_some_and(|h| *h == *log.header_bytes);
                if head == log.head && same_header {
                    return Ok(Imported::AlreadyPresent);
                }
                return Err(StoreError::StreamExists {
                    stream: sid.to_string(),
                    events: head.len,
                    head: head.hash.to_hex(),
                });
            }
            writes.kv.push((header_key(sid), log.header_bytes.clone()));
            let mut chunks = Chunker::new(sid, 0);
            for (seq, stored) in log.events.iter().enumerate() {
                let seq = seq as u64;
                chunks.push(seq, stored, &mut writes.kv)?;
                if let Ok((env, _)) = chain::open_event(stored) {
                    if let Some(id) = env.v1().idempotency {
                        writes.kv.push((idempotency_key(sid, &id.0), seq.to_be_bytes().to_vec()));
                    }
                }
            }
            chunks.finish(&mut writes.kv);
            writes.heads.insert(sid.to_string(), log.head);
            Ok(Imported::Created)
        })?;
        self.ring(sid);
        Ok(out)
    }

    fn header(&self, stream: &StreamId) -> Result<(Vec<u8>, Header), StoreError> {
        if self.acknowledged_head(stream.as_str()) == Some(None) {
            return Err(StoreError::UnknownStream(stream.to_string()));
        }
        Self::header_in(&*self.engine()?, stream)
    }

    fn head(&self, stream: &StreamId) -> Result<Head, StoreError> {
        self.head_in(&*self.engine()?, stream)
    }

    fn read(&self, stream: &StreamId, from: u64, to: u64) -> Result<Vec<Vec<u8>>, StoreError> {
        let e = self.engine()?;
        let head = self.head_in(&e, stream)?;
        let to = to.min(head.len);
        if from >= to {
            return Ok(Vec::new());
        }
        let sid = stream.as_str();
        let missing =
            |seq: u64| StoreError::CorruptIndex(format!("stream {sid}: event {seq} is missing from the store"));
        // The chunk holding `from` starts at or before it; a live reader's tail usually starts
        // a chunk (one append, one chunk), found without sled's slower reverse range.
        let start = if e.tree.contains_key(chunk_key(sid, from)).map_err(backend)? {
            from
        } else {
            match e.tree.range(chunk_key(sid, 0)..=chunk_key(sid, from)).next_back() {
                Some(kv) => chunk_seq(sid, &kv.map_err(backend)?.0)?,
                None => return Err(missing(from)),
            }
        };
        let mut out = Vec::with_capacity(usize::try_from(to - from).unwrap_or(0));
        let mut next = start;
        for kv in e.tree.range(chunk_key(sid, start)..chunk_key(sid, to)) {
            let (k, chunk) = kv.map_err(backend)?;
            let first = chunk_seq(sid, &k)?;
            if first != next {
                return Err(missing(next.max(from)));
            }
            for frame in Frames::new(sid, first, &chunk) {
                let (seq, bytes) = frame?;
                if (from..to).contains(&seq) {
                    out.push(bytes.to_vec());
                }
                next = seq + 1;
            }
        }
        if next < to {
            return Err(missing(next.max(from)));
        }
        Ok(out)
    }
}

impl SledStore {
    fn header_in(e: &Engine, stream: &StreamId) -> Result<(Vec<u8>, Header), StoreError> {
        let bytes = e
            .tree
            .get(header_key(stream.as_str()))
            .map_err(backend)?
            .ok_or_else(|| StoreError::UnknownStream(stream.to_string()))?
            .to_vec();
        let header = chain::decode_header(&bytes).map_err(|problem| {
            StoreError::Corrupt(chain::ChainError { stream: stream.to_string(), at: chain::At::Header, problem })
        })?;
        Ok((bytes, header))
    }

    fn head_in(&self, e: &Engine, stream: &StreamId) -> Result<Head, StoreError> {
        // This process is the store's only writer (sled locks the directory), so the heads its
        // appends left are current; a stream not seen yet is looked up once. sled 0.34's reverse
        // range (`load_head`) costs more the longer the stream, so live paths avoid it.
        // Only that stream's mutex is taken: appends to other streams do not delay it.
        let sid = stream.as_str();
        if let Some(acknowledged) = self.acknowledged_head(sid) {
            return acknowledged.ok_or_else(|| StoreError::UnknownStream(sid.to_string()));
        }
        let known = self.writers.lock().get(sid).cloned();
        let lock = match known {
            Some(lock) => lock,
            // An unknown id gets no mutex (probes for missing games must not grow the map).
            None if load_head(e, sid)?.is_none() => return Err(StoreError::UnknownStream(sid.to_string())),
            None => self.stream_lock(sid),
        };
        let mut head = lock.lock().unwrap_or_else(|p| p.into_inner());
        if head.is_none() {
            *head = load_head(e, sid)?;
        }
        head.ok_or_else(|| StoreError::UnknownStream(sid.to_string()))
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::clock::SteppingClock;
    use crate::log::envelope::{Actor, HeaderV1, StreamKind};
    use crate::store::{ExpectedVersion, Store};

    fn header(stream: &str, config: Vec<u8>) -> Header {
        Header::V1(HeaderV1 {
            stream: StreamId::new(stream).unwrap(),
            kind: StreamKind::Opaque,
            ruleset: "opaque".into(),
            ruleset_version: 1,
            players: vec![],
            config,
            created_at: Timestamp(0),
        })
    }

    fn request(stream: &str, expected: ExpectedVersion, payloads: &[Vec<u8>]) -> AppendRequest {
        AppendRequest {
            stream: StreamId::new(stream).unwrap(),
            expected,
            create: Some(header(stream, vec![])),
            events: payloads
                .iter()
                .map(|p| NewEvent { actor: Actor::System, payload: p.clone(), idempotency: None })
                .collect(),
        }
    }

    fn payload(n: usize, size: usize) -> Vec<u8> {
        let mut p = format!("event-{n}-").into_bytes();
        p.resize(size.max(p.len()), b'a' + (n % 26) as u8);
        p
    }

    fn payloads_of(stored: &[Vec<u8>]) -> Vec<Vec<u8>> {
        stored.iter().map(|e| chain::open_event(e).unwrap().0.v1().payload.to_vec()).collect()
    }

    fn chunk_count(store: &SledStore, sid: &str) -> usize {
        store.engine().unwrap().tree.range(chunk_key(sid, 0)..=chunk_key(sid, u64::MAX)).count()
    }

    /// Requests of mixed sizes, so chunk boundaries fall inside requests, at request ends, and
    /// around events bigger than a chunk; every range reads exactly the right events.
    #[test]
    fn ranges_starting_and_ending_mid_chunk() {
        let store = SledStore::temporary(Arc::new(SteppingClock::fixed())).unwrap();
        let sid = StreamId::new("ranges").unwrap();
        let mut expected = Vec::new();
        let sizes: [&[usize]; 5] = [&[10, 20, 30], &[1500; 7], &[5000], &[100, 9000, 100, 100], &[3000; 5]];
        for sizes in sizes {
            let ps: Vec<Vec<u8>> = sizes.iter().enumerate().map(|(i, &s)| payload(expected.len() + i, s)).collect();
            let ev = if expected.is_empty() {
                ExpectedVersion::NoStream
            } else {
                ExpectedVersion::Exact(expected.len() as u64)
            };
            store.append(request("ranges", ev, &ps)).unwrap();
            expected.extend(ps);
        }
        let n = expected.len() as u64;
        assert!(chunk_count(&store, "ranges") > 8, "requests are split into several chunks");
        let log = store.export(&sid).unwrap();
        assert_eq!(payloads_of(&log.events), expected);
        for from in 0..=n + 1 {
            for to in from..=n + 2 {
                let got = store.read(&sid, from, to).unwrap();
                let (f, t) = (from.min(n) as usize, to.min(n) as usize);
                assert_eq!(got, log.events[f..t], "read({from}, {to})");
            }
        }
    }

    /// A batch of several requests, one of them over many chunks, lands whole; the head is the
    /// same from the cache, from sled, and after reopening.
    #[test]
    fn a_batch_spanning_several_chunks() {
        let dir = tempfile::tempdir().unwrap();
        let clock = Arc::new(SteppingClock::fixed());
        let big: Vec<Vec<u8>> = (0..500).map(|i| payload(i, 150)).collect();
        let heads = {
            let store = SledStore::open(dir.path(), clock.clone()).unwrap();
            let out = store
                .append_batch(vec![
                    request("a", ExpectedVersion::NoStream, &big),
                    request("b", ExpectedVersion::NoStream, &[payload(0, 10)]),
                    request("a", ExpectedVersion::Exact(500), &[payload(500, 10)]),
                ])
                .unwrap();
            assert_eq!(out[2].first_seq, 500);
            assert!(chunk_count(&store, "a") > 10);
            let a = StreamId::new("a").unwrap();
            assert_eq!(store.head(&a).unwrap(), out[2].head);
            assert_eq!(store.export(&a).unwrap().head, out[2].head);
            (out[2].head, out[1].head)
        };
        let store = SledStore::open(dir.path(), clock).unwrap();
        let streams = store.streams().unwrap();
        assert_eq!(streams.iter().map(|s| s.head).collect::<Vec<_>>(), vec![heads.0, heads.1]);
        let log = store.export(&StreamId::new("a").unwrap()).unwrap();
        let mut all = big.clone();
        all.push(payload(500, 10));
        assert_eq!(payloads_of(&log.events), all);
        // A failing request later in a batch leaves nothing of the earlier ones.
        let chunks = chunk_count(&store, "a");
        let err = store
            .append_batch(vec![
                request("a", ExpectedVersion::Exact(501), &big),
                request("b", ExpectedVersion::Exact(7), &[payload(1, 10)]),
            ])
            .unwrap_err();
        assert!(matches!(err, StoreError::WrongExpectedVersion { current: Some(1), .. }), "{err}");
        assert_eq!(store.head(&StreamId::new("a").unwrap()).unwrap(), heads.0);
        assert_eq!(chunk_count(&store, "a"), chunks);
    }

    /// An idempotency id used twice in one batch: the second request is a retry of the first.
    #[test]
    fn a_retry_within_the_same_batch() {
        let store = SledStore::temporary(Arc::new(SteppingClock::fixed())).unwrap();
        let mut req = request("r", ExpectedVersion::Any, &[b"x".to_vec()]);
        req.events[0].idempotency = Some(IdempotencyId::from_key("k"));
        let out = store.append_batch(vec![req.clone(), req.clone()]).unwrap();
        assert!(!out[0].retried && out[1].retried);
        assert_eq!(out[1].first_seq, 0);
        let mut other = req.clone();
        other.events[0].payload = b"y".to_vec();
        let err = store.append_batch(vec![req.clone(), other]).unwrap_err();
        assert!(matches!(err, StoreError::IdempotencyConflict { seq: 0, .. }), "{err}");
        assert_eq!(store.head(&StreamId::new("r").unwrap()).unwrap().len, 1);
    }

    /// Events and headers over sled's blob threshold (128 KiB) go to blob files, which are
    /// synced and read back after reopening.
    #[test]
    fn events_and_headers_larger_than_a_blob() {
        let dir = tempfile::tempdir().unwrap();
        let clock = Arc::new(SteppingClock::fixed());
        let huge = payload(1, 300 << 10);
        {
            let store = SledStore::open(dir.path(), clock.clone()).unwrap();
            let mut req = request("big", ExpectedVersion::NoStream, &[payload(0, 10), huge.clone()]);
            req.create = Some(header("big", vec![7; 200 << 10]));
            store.append(req).unwrap();
            store.append(request("big", ExpectedVersion::Exact(2), &[payload(2, 10)])).unwrap();
        }
        assert!(std::fs::read_dir(dir.path().join("blobs")).unwrap().count() > 0);
        let store = SledStore::open(dir.path(), clock).unwrap();
        let log = store.export(&StreamId::new("big").unwrap()).unwrap();
        assert_eq!(payloads_of(&log.events), vec![payload(0, 10), huge, payload(2, 10)]);
    }

    /// An import is read back the same, also when it spans several chunks, and is idempotent.
    #[test]
    fn import_round_trip() {
        let from = SledStore::temporary(Arc::new(SteppingClock::fixed())).unwrap();
        let ps: Vec<Vec<u8>> = (0..300).map(|i| payload(i, 100)).collect();
        let mut req = request("imp", ExpectedVersion::NoStream, &ps);
        req.events[7].idempotency = Some(IdempotencyId::from_key("seven"));
        from.append(req.clone()).unwrap();
        let log = from.export(&StreamId::new("imp").unwrap()).unwrap();
        let to = SledStore::temporary(Arc::new(SteppingClock::fixed())).unwrap();
        assert_eq!(to.import(&log).unwrap(), Imported::Created);
        assert_eq!(to.import(&log).unwrap(), Imported::AlreadyPresent);
        let again = to.export(&StreamId::new("imp").unwrap()).unwrap();
        assert_eq!(again.events, log.events);
        assert_eq!(again.head, log.head);
        // The imported idempotency id is indexed.
        let mut retry = request("imp", ExpectedVersion::NoStream, &[ps[7].clone()]);
        retry.events[0].idempotency = Some(IdempotencyId::from_key("seven"));
        let a = to.append(retry).unwrap();
        assert!(a.retried);
        assert_eq!(a.first_seq, 7);
    }
}
