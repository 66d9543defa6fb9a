//! The sled 0.34 backend: the only code in kifu that touches sled.
//!
//! Trees:
//! - `headers`: stream id → the header's stored bytes;
//! - `heads`: stream id → `u64be(len) ‖ head hash` (an index, rebuildable from the events);
//! - `events`: `u8(len(id)) ‖ id ‖ u64be(seq)` → the event's stored bytes (`body ‖ hash`);
//! - `idempotency`: `u8(len(id)) ‖ id ‖ idempotency id` → `u64be(seq)`.
//!
//! Appends run in one multi-tree sled transaction, then flush. sled 0.34's `flush` syncs its log
//! with `sync_file_range` on Linux, which skips the drive cache and metadata (sled #1351, #1452),
//! so after it the backend also `fdatasync`s the data file before acknowledging.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use sled::transaction::{abort, ConflictableTransactionError, TransactionError, TransactionalTree};
use sled::Transactional;

use super::{AppendRequest, Appended, ExpectedVersion, Imported, StoreError, StreamSummary};
use crate::clock::Clock;
use crate::log::chain::{self, Head};
use crate::log::envelope::{Envelope, EnvelopeV1, Header, StreamId};
use crate::log::hash::Hash32;

/// How a store is opened.
#[derive(Clone, Debug)]
pub struct OpenOptions {
    /// How long to wait for another kifu process to release the data directory.
    pub lock_wait: Duration,
    /// Whether appends wait for the disk (always true outside benchmarks of the raw engine).
    pub durable: bool,
}

impl Default for OpenOptions {
    fn default() -> Self {
        OpenOptions { lock_wait: Duration::from_secs(30), durable: true }
    }
}

/// A store in a sled database directory.
pub struct SledStore {
    db: sled::Db,
    headers: sled::Tree,
    heads: sled::Tree,
    events: sled::Tree,
    idempotency: sled::Tree,
    clock: Arc<dyn Clock>,
    durable: bool,
    /// The data file, fdatasync'ed after sled's flush. `None` for temporary stores.
    data_file: Option<File>,
    /// Group commit: appends committed so far, and how many of them are known durable.
    committed: AtomicU64,
    durable_upto: Mutex<u64>,
    path: PathBuf,
}

fn backend(e: sled::Error) -> StoreError {
    StoreError::Backend(e.to_string())
}

impl SledStore {
    /// Opens (or creates) the store in `dir`, waiting for another process to release it.
    pub fn open(dir: &Path, clock: Arc<dyn Clock>) -> Result<Self, StoreError> {
        Self::open_with(dir, clock, OpenOptions::default())
    }

    pub fn open_with(dir: &Path, clock: Arc<dyn Clock>, options: OpenOptions) -> Result<Self, StoreError> {
        std::fs::create_dir_all(dir)
            .map_err(|e| StoreError::Backend(format!("cannot create data directory {}: {e}", dir.display())))?;
        let started = Instant::now();
        let db = loop {
            match sled::Config::new().path(dir).open() {
                Ok(db) => break db,
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
                Err(e) => return Err(StoreError::Backend(format!("cannot open store in {}: {e}", dir.display()))),
            }
        };
        let data_file = File::options().read(true).open(dir.join("db")).ok();
        Self::from_db(db, clock, options.durable, data_file, dir.to_path_buf())
    }

    /// A store that lives in a temporary directory and is deleted when dropped (tests, benches).
    pub fn temporary(clock: Arc<dyn Clock>) -> Result<Self, StoreError> {
        let db = sled::Config::new().temporary(true).open().map_err(backend)?;
        Self::from_db(db, clock, false, None, PathBuf::new())
    }

    fn from_db(
        db: sled::Db,
        clock: Arc<dyn Clock>,
        durable: bool,
        data_file: Option<File>,
        path: PathBuf,
    ) -> Result<Self, StoreError> {
        Ok(SledStore {
            headers: db.open_tree("headers").map_err(backend)?,
            heads: db.open_tree("heads").map_err(backend)?,
            events: db.open_tree("events").map_err(backend)?,
            idempotency: db.open_tree("idempotency").map_err(backend)?,
            db,
            clock,
            durable,
            data_file,
            committed: AtomicU64::new(0),
            durable_upto: Mutex::new(0),
            path,
        })
    }

    /// The data directory.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Makes everything committed up to `ticket` durable. Concurrent appenders share one flush:
    /// whoever flushes covers every append committed before the flush began.
    fn make_durable(&self, ticket: u64) -> Result<(), StoreError> {
        if !self.durable {
            return Ok(());
        }
        let mut durable_upto = self.durable_upto.lock().unwrap_or_else(|p| p.into_inner());
        if *durable_upto >= ticket {
            return Ok(());
        }
        let target = self.committed.load(Ordering::SeqCst);
        self.db.flush().map_err(backend)?;
        if let Some(f) = &self.data_file {
            f.sync_data().map_err(|e| StoreError::Backend(format!("fdatasync failed: {e}")))?;
        }
        *durable_upto = target;
        Ok(())
    }

    fn commit_and_flush(&self) -> Result<(), StoreError> {
        let ticket = self.committed.fetch_add(1, Ordering::SeqCst) + 1;
        self.make_durable(ticket)
    }
}

fn stream_prefix(stream: &str) -> Vec<u8> {
    let mut k = Vec::with_capacity(stream.len() + 9);
    // Stream ids are at most 64 bytes (StreamId::new), so the length fits a byte.
    k.push(stream.len() as u8);
    k.extend_from_slice(stream.as_bytes());
    k
}

fn event_key(stream: &str, seq: u64) -> Vec<u8> {
    let mut k = stream_prefix(stream);
    k.extend_from_slice(&seq.to_be_bytes());
    k
}

fn idempotency_key(stream: &str, id: &[u8; 16]) -> Vec<u8> {
    let mut k = stream_prefix(stream);
    k.extend_from_slice(id);
    k
}

fn encode_head(head: &Head) -> [u8; 40] {
    let mut b = [0u8; 40];
    b[..8].copy_from_slice(&head.len.to_be_bytes());
    b[8..].copy_from_slice(&head.hash.0);
    b
}

fn decode_head(stream: &str, bytes: &[u8]) -> Result<Head, StoreError> {
    if bytes.len() != 40 {
        return Err(StoreError::CorruptIndex(format!("stream {stream}: head record is {} bytes, not 40", bytes.len())));
    }
    let mut len = [0u8; 8];
    len.copy_from_slice(&bytes[..8]);
    let mut hash = [0u8; 32];
    hash.copy_from_slice(&bytes[8..]);
    Ok(Head { len: u64::from_be_bytes(len), hash: Hash32(hash) })
}

fn decode_seq(bytes: &[u8]) -> u64 {
    let mut b = [0u8; 8];
    let n = bytes.len().min(8);
    b[..n].copy_from_slice(&bytes[..n]);
    u64::from_be_bytes(b)
}

type TxResult<T> = Result<T, ConflictableTransactionError<StoreError>>;

/// The append logic inside one transaction attempt (sled may run it more than once).
fn append_in_tx(
    (headers, heads, events, idem): (&TransactionalTree, &TransactionalTree, &TransactionalTree, &TransactionalTree),
    requests: &[AppendRequest],
    now: crate::log::envelope::Timestamp,
) -> TxResult<Vec<Appended>> {
    // Heads changed earlier in this same batch.
    let mut pending: HashMap<&str, Head> = HashMap::new();
    let mut out = Vec::with_capacity(requests.len());
    for req in requests {
        let sid = req.stream.as_str();
        let current = match pending.get(sid) {
            Some(h) => Some(*h),
            None => match heads.get(sid.as_bytes())? {
                Some(b) => Some(decode_head(sid, &b).or_else(abort)?),
                None => None,
            },
        };
        // A retry is recognised before the version check: the client's first attempt succeeded.
        let ids: Vec<_> = req.events.iter().map(|e| e.idempotency).collect();
        if current.is_some() && ids.iter().any(Option::is_some) {
            let mut found = Vec::new();
            for (ev, id) in req.events.iter().zip(&ids) {
                let Some(id) = id else { continue };
                if let Some(seq) = idem.get(idempotency_key(sid, &id.0))? {
                    found.push((ev, decode_seq(&seq), *id));
                }
            }
            if !found.is_empty() {
                if found.len() != req.events.len() {
                    return abort(StoreError::PartialRetry { stream: sid.to_string() });
                }
                for (ev, seq, id) in &found {
                    let stored = events.get(event_key(sid, *seq))?.ok_or_else(|| {
                        ConflictableTransactionError::Abort(StoreError::CorruptIndex(format!(
                            "stream {sid}: idempotency index points at missing event {seq}"
                        )))
                    })?;
                    let same = chain::open_event(&stored).is_ok_and(|(env, _)| {
                        let e = env.v1();
                        e.actor == ev.actor && *e.payload == *ev.payload
                    });
                    if !same {
                        return abort(StoreError::IdempotencyConflict {
                            stream: sid.to_string(),
                            id: id.to_hex(),
                            seq: *seq,
                        });
                    }
                }
                let head = current.unwrap_or(Head { len: 0, hash: Hash32::default() });
                out.push(Appended { stream: req.stream.clone(), first_seq: found[0].1, head, retried: true });
                continue;
            }
        }
        let ok = match (req.expected, current) {
            (ExpectedVersion::Any, _) => true,
            (ExpectedVersion::NoStream, None) => true,
            (ExpectedVersion::Exact(n), Some(h)) => h.len == n,
            _ => false,
        };
        if !ok {
            return abort(StoreError::WrongExpectedVersion {
                stream: sid.to_string(),
                expected: req.expected,
                current: current.map(|h| h.len),
            });
        }
        let mut head = match current {
            Some(h) => h,
            None => {
                let Some(header) = &req.create else {
                    return abort(StoreError::NoHeader(sid.to_string()));
                };
                if header.stream() != &req.stream {
                    return abort(StoreError::HeaderMismatch {
                        stream: sid.to_string(),
                        header: header.stream().to_string(),
                    });
                }
                let header_bytes =
                    chain::encode_header(header).map_err(|e| ConflictableTransactionError::Abort(e.into()))?;
                headers.insert(sid.as_bytes(), header_bytes.as_slice())?;
                Head { len: 0, hash: chain::header_hash(&header_bytes) }
            }
        };
        let first_seq = head.len;
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
            let (stored, hash) =
                chain::seal_event(&envelope).map_err(|e| ConflictableTransactionError::Abort(e.into()))?;
            events.insert(event_key(sid, head.len), stored)?;
            if let Some(id) = ev.idempotency {
                idem.insert(idempotency_key(sid, &id.0), &head.len.to_be_bytes()[..])?;
            }
            head = Head { len: head.len + 1, hash };
        }
        heads.insert(sid.as_bytes(), &encode_head(&head)[..])?;
        pending.insert(sid, head);
        out.push(Appended { stream: req.stream.clone(), first_seq, head, retried: false });
    }
    Ok(out)
}

fn tx_error(e: TransactionError<StoreError>) -> StoreError {
    match e {
        TransactionError::Abort(e) => e,
        TransactionError::Storage(e) => backend(e),
    }
}

impl super::Store for SledStore {
    fn append_batch(&self, requests: Vec<AppendRequest>) -> Result<Vec<Appended>, StoreError> {
        let now = self.clock.now();
        let out = (&self.headers, &self.heads, &self.events, &self.idempotency)
            .transaction(|(h, hd, e, i)| append_in_tx((h, hd, e, i), &requests, now))
            .map_err(tx_error)?;
        if out.iter().any(|a| !a.retried) {
            self.commit_and_flush()?;
        }
        Ok(out)
    }

    fn import(&self, log: &chain::VerifiedLog) -> Result<Imported, StoreError> {
        let sid = log.header.stream().as_str();
        let result = (&self.headers, &self.heads, &self.events, &self.idempotency)
            .transaction(|(headers, heads, events, idem)| {
                if let Some(b) = heads.get(sid.as_bytes())? {
                    let head = decode_head(sid, &b).or_else(abort)?;
                    let same_header = headers.get(sid.as_bytes())?.is_some_and(|h| *h == *log.header_bytes);
                    if head == log.head && same_header {
                        return Ok(Imported::AlreadyPresent);
                    }
                    return abort(StoreError::StreamExists {
                        stream: sid.to_string(),
                        events: head.len,
                        head: head.hash.to_hex(),
                    });
                }
                headers.insert(sid.as_bytes(), log.header_bytes.as_slice())?;
                for (seq, stored) in log.events.iter().enumerate() {
                    let seq = seq as u64;
                    events.insert(event_key(sid, seq), stored.as_slice())?;
                    if let Ok((env, _)) = chain::open_event(stored) {
                        if let Some(id) = env.v1().idempotency {
                            idem.insert(idempotency_key(sid, &id.0), &seq.to_be_bytes()[..])?;
                        }
                    }
                }
                heads.insert(sid.as_bytes(), &encode_head(&log.head)[..])?;
                Ok(Imported::Created)
            })
            .map_err(tx_error)?;
        if result == Imported::Created {
            self.commit_and_flush()?;
        }
        Ok(result)
    }

    fn header(&self, stream: &StreamId) -> Result<(Vec<u8>, Header), StoreError> {
        let bytes = self
            .headers
            .get(stream.as_str().as_bytes())
            .map_err(backend)?
            .ok_or_else(|| StoreError::UnknownStream(stream.to_string()))?
            .to_vec();
        let header = chain::decode_header(&bytes).map_err(|problem| {
            StoreError::Corrupt(chain::ChainError { stream: stream.to_string(), at: chain::At::Header, problem })
        })?;
        Ok((bytes, header))
    }

    fn head(&self, stream: &StreamId) -> Result<Head, StoreError> {
        let b = self
            .heads
            .get(stream.as_str().as_bytes())
            .map_err(backend)?
            .ok_or_else(|| StoreError::UnknownStream(stream.to_string()))?;
        decode_head(stream.as_str(), &b)
    }

    fn read(&self, stream: &StreamId, from: u64, to: u64) -> Result<Vec<Vec<u8>>, StoreError> {
        let head = self.head(stream)?;
        let to = to.min(head.len);
        if from >= to {
            return Ok(Vec::new());
        }
        let sid = stream.as_str();
        let mut out = Vec::with_capacity(usize::try_from(to - from).unwrap_or(0));
        for (i, kv) in self.events.range(event_key(sid, from)..event_key(sid, to)).enumerate() {
            let (k, v) = kv.map_err(backend)?;
            let expected = from + i as u64;
            let seq = decode_seq(&k[k.len().saturating_sub(8)..]);
            if seq != expected {
                return Err(StoreError::CorruptIndex(format!(
                    "stream {sid}: event {expected} is missing from the store"
                )));
            }
            out.push(v.to_vec());
        }
        if (out.len() as u64) < to - from {
            return Err(StoreError::CorruptIndex(format!(
                "stream {sid}: event {} is missing from the store",
                from + out.len() as u64
            )));
        }
        Ok(out)
    }

    fn streams(&self) -> Result<Vec<StreamSummary>, StoreError> {
        let mut out = Vec::new();
        for kv in self.heads.iter() {
            let (k, v) = kv.map_err(backend)?;
            let id = String::from_utf8_lossy(&k).to_string();
            let stream = StreamId::new(&id).map_err(|e| StoreError::CorruptIndex(e.to_string()))?;
            let head = decode_head(&id, &v)?;
            let (_, header) = self.header(&stream)?;
            out.push(StreamSummary { header, head });
        }
        Ok(out)
    }
}
