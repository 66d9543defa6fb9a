//! The NATS JetStream backend: kifu streams in a replicated JetStream cluster, through
//! `async-nats`. The only code in kifu that talks to NATS.
//!
//! # Layout (namespace `ns`, default `kifu`; `tok` is the stream id with `.` written `=`)
//!
//! | where                                   | what                                                    |
//! |-----------------------------------------|---------------------------------------------------------|
//! | JetStream stream `KIFU_<ns>`, R3, file  | subjects `<ns>.ev.*`                                    |
//! | subject `<ns>.ev.<tok>`                 | one message (a *chunk*) per append request              |
//! | stream `KV_KIFU_<ns>_IDEM`, R3, file    | subject `$KV.KIFU_<ns>_IDEM.<tok>.<hex id>`: the last   |
//! |   (the index; laid out as a KV bucket)  | message holds `u64be seq` of the event (see [`IdIndex`])|
//! | core subject `<ns>.notice.<tok>`        | a notice after every acknowledged append (watchers)     |
//!
//! - A **chunk** is framed as sled's: `u32le n ‖ bytes` per frame. Its message header
//!   `Kifu-First` is the sequence number of its first event and `Kifu-Prev` the JetStream
//!   sequence of the stream's previous chunk (0 for none). The first chunk of a stream carries
//!   `Kifu-Header: 1` and the header's stored bytes as its first frame, so creating a stream
//!   with its first events is one message: atomic, and refused whole if the stream exists.
//! - **Optimistic concurrency.** Every publish carries `Nats-Expected-Last-Subject-Sequence`:
//!   the JetStream sequence of the chunk the writer built on (0: the subject is empty). Two
//!   writers on any servers that built on the same chunk cannot both land (nats-server
//!   [`MIN_SERVER`] or later enforces it, also across leader changes; an older server is refused
//!   at connect); the loser reloads the head and judges its expected version again. The
//!   acknowledgement is the proof: nothing is read back.
//! - **Ambiguous outcomes.** Every message carries a `Nats-Msg-Id`, the hash its last event ends
//!   in: a publish left without an acknowledgement (a timeout, a dropped request) is sent again,
//!   and one that had landed is answered as a duplicate with its first sequence. Past the
//!   stream's duplicate window, the idempotency ids below settle it.
//! - **Imports** are published as atomic batches (`allow_atomic` on the stream) of at most
//!   [`BATCH_MESSAGES`] chunks, each verified before the next builds on it: a reader never sees
//!   part of a batch (see `publish_batch`).
//! - **Acknowledgement.** An append returns `Ok` only after JetStream's publish acknowledgement
//!   from the R3 stream (a quorum has it on disk), then its idempotency ids are indexed and
//!   the notice published.
//! - **Memory** is bounded: tips, headers and chunk starts of at most [`KEPT_STREAMS`] streams
//!   ([`KEPT_STARTS`] starts each), the ids of [`KEPT_CHUNK_IDS`] chunks, [`KEPT_IN_DOUBT`] ids
//!   in doubt. What is dropped is read again.
//! - **Heads** are derived from the subject's last message (one request to the stream leader),
//!   so every server sees every other's appends; reads walk the subject's messages in order,
//!   remembering where immutable chunks start.
//!
//! # Idempotency guarantee
//!
//! A retry is recognised (and writes nothing) when each of its ids is either in the index
//! or in one of the stream's last [`RECENT_CHUNKS`] chunks. Every acknowledged append had its
//! ids indexed before `Ok` was returned, so an acknowledged append is recognised forever
//! (unlike JetStream's own dedupe window). An append that landed but was not acknowledged
//! (the writer died or lost the cluster between the publish and the index write) is
//! recognised as long as its chunk is among the stream's last [`RECENT_CHUNKS`], which covers
//! the client's immediate retry; that retry's acknowledgement indexes its ids, so from then on
//! it too is recognised forever.
//!
//! # Round trips of an append
//!
//! Without idempotency ids, on a stream this process appended to before: the publish, acknowledged
//! by the R3 stream, and nothing else. With ids, also one index read per id and, after the
//! acknowledgement, the index writes (all at once). The ids of
//! the stream's recent chunks come from memory ([`ChunkIds`], kept for the chunks this process
//! wrote or read): only chunks other writers added are read. The cached tip is not reloaded
//! before each append: a stale one makes the publish fail or lose, and the request is judged
//! again, ids and expected version, on a fresh tip.

use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use async_nats::jetstream::{self, kv, stream};
use futures_util::TryStreamExt;

use super::{
    AppendRequest, Appended, Bell, Change, Imported, NewEvent, Records, Store, StoreError, StreamSummary, Table, Watch,
};
use crate::clock::Clock;
use crate::log::chain::{self, Head, VerifiedLog};
use crate::log::envelope::{Envelope, EnvelopeV1, Header, IdempotencyId, StreamId};
use crate::log::hash::Hash32;

/// How many of a stream's last chunks a retry's ids are looked up in besides the index.
pub const RECENT_CHUNKS: usize = 16;

const H_FIRST: &str = "Kifu-First";
const H_PREV: &str = "Kifu-Prev";
const H_HEADER: &str = "Kifu-Header";

/// Bytes left for message headers and protocol when a request is checked against `max_payload`.
const SLACK: usize = 1024;

/// How often an append that lost a race to another writer reloads and tries again.
const CONTENDED_TRIES: usize = 20;

/// A cluster location: `nats://HOST:PORT[,HOST:PORT…][?ns=NAME][&replicas=N]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NatsUrl {
    pub servers: Vec<String>,
    /// Prefix of every subject, stream and bucket: several independent stores share a cluster.
    pub namespace: String,
    pub replicas: usize,
}

impl NatsUrl {
    pub fn parse(s: &str) -> Result<Self, StoreError> {
        let bad = |why: &str| StoreError::Unavailable { location: s.to_string(), reason: why.to_string() };
        let rest = s.strip_prefix("nats://").ok_or_else(|| bad("a cluster URL starts with nats://"))?;
        let (hosts, query) = rest.split_once('?').unwrap_or((rest, ""));
        let servers: Vec<String> =
            hosts.split(',').filter(|h| !h.is_empty()).map(|h| format!("nats://{}", h.trim_end_matches('/'))).collect();
        if servers.is_empty() {
            return Err(bad("no HOST:PORT given"));
        }
        let mut url = NatsUrl { servers, namespace: "kifu".to_string(), replicas: 3 };
        for pair in query.split('&').filter(|p| !p.is_empty()) {
            match pair.split_once('=') {
                Some(("ns", v))
                    if !v.is_empty()
                        && v.len() <= 32
                        && v.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') =>
                {
                    url.namespace = v.to_string()
                }
                Some(("replicas", v)) if matches!(v, "1" | "3" | "5") => url.replicas = v.parse().unwrap_or(3),
                _ => return Err(bad(&format!("unknown or malformed option {pair:?} (ns=NAME, replicas=1|3|5)"))),
            }
        }
        Ok(url)
    }
}

impl std::fmt::Display for NatsUrl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let hosts: Vec<&str> = self.servers.iter().map(|s| s.trim_start_matches("nats://")).collect();
        write!(f, "nats://{}?ns={}", hosts.join(","), self.namespace)?;
        if self.replicas != 3 {
            write!(f, "&replicas={}", self.replicas)?;
        }
        Ok(())
    }
}

/// The last chunk of a stream as this process last saw it.
#[derive(Clone, Copy, Debug)]
struct Tip {
    head: Head,
    /// The JetStream sequence of the stream's last accepted chunk.
    js_seq: u64,
    /// The JetStream sequence of the subject's last message: the accepted chunk, or a race
    /// loser after it (the server's expected-sequence check compares with this one).
    subject_last: u64,
}

/// One chunk message, parsed.
#[derive(Clone)]
struct Chunk {
    js_seq: u64,
    first: u64,
    prev: u64,
    header: Option<Vec<u8>>,
    events: Vec<Vec<u8>>,
}

/// The idempotency ids of a stream's last chunks: id → (sequence number, stored event).
type Recent = HashMap<[u8; 16], (u64, Vec<u8>)>;

/// The idempotency ids one chunk holds, with its link to the chunk before it. Chunks never
/// change, so this stays true for every process; kept so that the recent-chunks lookup of an
/// append reads from the cluster only the chunks this process has not seen.
struct ChunkIds {
    prev: u64,
    /// (id, sequence number, stored event)
    ids: Vec<([u8; 16], u64, Vec<u8>)>,
}

/// How many chunks' ids are kept in memory (the set is cleared when it is full: a bound, and
/// losing it costs only reads).
const KEPT_CHUNK_IDS: usize = 16_384;

/// How many streams' tips, chunk starts and headers are kept (a bound: the starts and headers
/// are cleared when full, and only unused tips go; losing them costs only reads).
const KEPT_STREAMS: usize = 16_384;

/// How many chunk starts are kept per stream (spread evenly over it, see [`keep_start`]).
const KEPT_STARTS: usize = 256;

/// How many in-doubt ids are kept (cleared when full; see `NatsStore::in_doubt`).
const KEPT_IN_DOUBT: usize = 65_536;

/// A stream's writer mutex with its cached tip (`None`: not known, load it).
type TipLock = Arc<Mutex<Option<Tip>>>;

/// Aborts a watch's notice subscription when the watch is dropped.
struct AbortOnDrop(tokio::task::JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// A store in a NATS JetStream cluster.
pub struct NatsStore {
    rt: Option<tokio::runtime::Runtime>,
    client: async_nats::Client,
    /// The JetStream context, made once on the runtime (it runs a task that waits for
    /// acknowledgements): every publish and API request goes through it.
    js: jetstream::Context,
    /// Counts the client's disconnections: a request in flight when the connection drops is
    /// answered at once as unavailable (retry with the same ids), not after the request timeout.
    drops: tokio::sync::watch::Receiver<u64>,
    /// Shared, not cloned per call: a `Stream` carries the whole stream configuration.
    events: Arc<stream::Stream>,
    idem: IdIndex,
    ns: String,
    replicas: usize,
    location: String,
    max_payload: usize,
    /// The shared record tables opened so far (see [`Store::records`]).
    tables: Mutex<HashMap<Table, kv::Store>>,
    clock: Arc<dyn Clock>,
    tips: Mutex<HashMap<String, TipLock>>,
    /// Where known chunks start: stream → (first event, JetStream sequence), ascending. Chunks
    /// never change, so this is valid for every process.
    starts: Mutex<HashMap<String, Vec<(u64, u64)>>>,
    /// Header bytes already read (they never change).
    headers: Mutex<HashMap<String, Vec<u8>>>,
    /// The ids of chunks already read or written: (stream, JetStream sequence) → ids.
    chunk_ids: Mutex<HashMap<(String, u64), Arc<ChunkIds>>>,
    /// Ids of this process's appends that may have landed without being acknowledged (no
    /// publish acknowledgement, or landed but not indexed): (stream, id) → the JetStream
    /// sequence of the chunk the append was built on. A retry looks at that chunk's accepted
    /// successor, so it is recognised however many chunks other writers appended since.
    in_doubt: Mutex<HashMap<(String, [u8; 16]), u64>>,
    /// At most this many bytes per imported message (`None`: as many as the server takes); see
    /// [`NatsStore::limit_import_messages`].
    import_bytes: Option<usize>,
}

impl Drop for NatsStore {
    fn drop(&mut self) {
        // A runtime dropped inside another's async context would panic; this never blocks.
        if let Some(rt) = self.rt.take() {
            rt.shutdown_background();
        }
    }
}

fn other(what: &str, e: impl std::fmt::Display) -> StoreError {
    StoreError::Backend(format!("{what}: {e}"))
}

impl NatsStore {
    /// A failed cluster request: [`StoreError::Unavailable`] when the cluster did not answer (the
    /// connection dropped, a timeout, no JetStream quorum), so callers can tell "try later" from
    /// a real fault.
    fn lost(&self, what: &str, e: impl std::fmt::Display) -> StoreError {
        let text = e.to_string();
        let cut_off = self.client.connection_state() != async_nats::connection::State::Connected || says_cut_off(&text);
        if cut_off {
            StoreError::Unavailable { location: self.location.clone(), reason: format!("{what}: {text}") }
        } else {
            StoreError::Backend(format!("{what}: {text}"))
        }
    }
}

/// Whether a client error's text says the cluster did not answer, rather than that it refused.
/// "no stream found for given subject" is how the client reports a publish nobody answered (the
/// server's 503 "no responders"): while a killed node's streams elect new leaders, nothing serves
/// the subject for a moment, and a retry then succeeds.
fn says_cut_off(text: &str) -> bool {
    let text = text.to_ascii_lowercase();
    ["timed out", "timeout", "no responders", "no stream found", "disconnected", "broken pipe"]
        .iter()
        .any(|w| text.contains(w))
}

/// Creates (or finds) the KV bucket `bucket`. A KV bucket is a stream named KV_<bucket> on
/// subjects $KV.<bucket>.>; it is created as one directly because the client's own bucket
/// creation reads account fields that nats-server 2.9 (Debian's) does not send. No direct gets:
/// reads go to the leader, so a key written through one server is seen at once by every other.
/// Opens (creating it on first use) a bucket of shared records, retrying for a while what may
/// pass by itself: a cluster that has just formed answers "no suitable peers for placement"
/// until every peer has joined (found by `cluster_faults`, whose first command opens the token
/// records of a fresh cluster). Creating the bucket is idempotent.
async fn open_bucket(js: &jetstream::Context, bucket: &str, replicas: usize) -> Result<kv::Store, async_nats::Error> {
    let deadline = tokio::time::Instant::now() + SETUP_PATIENCE;
    loop {
        match try_open_bucket(js, bucket, replicas).await {
            Err(e) if transient(&e) && tokio::time::Instant::now() < deadline => {
                tokio::time::sleep(Duration::from_millis(500)).await;
            }
            other => return other,
        }
    }
}

async fn try_open_bucket(
    js: &jetstream::Context,
    bucket: &str,
    replicas: usize,
) -> Result<kv::Store, async_nats::Error> {
    js.get_or_create_stream(stream::Config {
        name: format!("KV_{bucket}"),
        subjects: vec![format!("$KV.{bucket}.>")],
        max_messages_per_subject: 1,
        discard: stream::DiscardPolicy::New,
        allow_rollup: true,
        deny_delete: true,
        num_replicas: replicas,
        storage: stream::StorageType::File,
        ..Default::default()
    })
    .await?;
    Ok(js.get_key_value(bucket).await?)
}

/// The idempotency index: the last message on subject `$KV.<bucket>.<key>` of stream
/// `KV_<bucket>` holds the key's value. That is a KV bucket's layout (earlier builds opened it
/// as one, and their entries read the same), but with no per-subject limit, which a KV bucket
/// must have: nats-server 2.9 enforced that limit on miscounted subjects when a replica recovered
/// from a crash, dropping an entry the others kept (#3900, #3579), and an id is written once (or
/// again with the same value by a retry), so the subject's last message is the answer anyway.
#[derive(Clone)]
struct IdIndex {
    js: jetstream::Context,
    stream: Arc<stream::Stream>,
    /// `$KV.<bucket>.`
    prefix: String,
}

impl IdIndex {
    /// Creates (or finds) the index `KV_<bucket>`; one an earlier build created as a KV bucket
    /// (one message per subject) loses its limit, a configuration change only (should the
    /// server refuse, it keeps working as before).
    async fn open(js: &jetstream::Context, bucket: &str, replicas: usize) -> Result<Self, async_nats::Error> {
        let stream = js
            .get_or_create_stream(stream::Config {
                name: format!("KV_{bucket}"),
                subjects: vec![format!("$KV.{bucket}.>")],
                max_messages_per_subject: -1,
                deny_delete: true,
                num_replicas: replicas,
                storage: stream::StorageType::File,
                ..Default::default()
            })
            .await?;
        let stream =
            reconfigured(js, stream, |c| c.max_messages_per_subject > 0, |c| c.max_messages_per_subject = -1).await?;
        Ok(IdIndex { js: js.clone(), stream: Arc::new(stream), prefix: format!("$KV.{bucket}.") })
    }

    /// The value of `key` (read from the stream leader, so a write through any server is seen).
    async fn get(&self, key: &str) -> Result<Option<Vec<u8>>, async_nats::Error> {
        match self.stream.get_last_raw_message_by_subject(&format!("{}{key}", self.prefix)).await {
            Ok(msg) => Ok(Some(msg.payload.to_vec())),
            Err(e) if e.kind() == stream::LastRawMessageErrorKind::NoMessageFound => Ok(None),
            Err(e) => Err(e.into()),
        }
    }

    /// Writes `key`, acknowledged by the R3 stream.
    async fn put(&self, key: &str, value: Vec<u8>) -> Result<(), async_nats::Error> {
        self.js.publish(format!("{}{key}", self.prefix), value.into()).await?.await?;
        Ok(())
    }
}

/// How long a request to the cluster (a read, an index write's acknowledgement) waits for its
/// answer. Short, because a request sent to a leader that has just died is never answered: it
/// fails as unavailable (retry) instead of holding the caller for the 10 s it waited before, so
/// appends resume soon after the new leader is elected. Answers under load take milliseconds.
const REQUEST_WAIT: Duration = Duration::from_secs(2);

/// How long an import's batch waits for its commit to be acknowledged: up to 1,000 messages of
/// up to `max_payload` each are stored and replicated first.
const BATCH_WAIT: Duration = Duration::from_secs(60);

/// How long [`NatsStore::connect`] keeps retrying a stream setup that timed out.
const SETUP_PATIENCE: Duration = Duration::from_secs(30);

/// Creates (or finds) namespace `ns`'s events stream and idempotency bucket.
async fn set_up(
    js: &jetstream::Context,
    ns: &str,
    replicas: usize,
) -> Result<(stream::Stream, IdIndex), async_nats::Error> {
    let events = js
        .get_or_create_stream(stream::Config {
            name: format!("KIFU_{ns}"),
            subjects: vec![format!("{ns}.ev.*")],
            num_replicas: replicas,
            storage: stream::StorageType::File,
            allow_direct: true,
            allow_atomic_publish: true,
            ..Default::default()
        })
        .await?;
    // A stream an earlier build created may have no direct gets (servers of older builds read
    // through them while an upgrade rolls) and has no atomic batches (an import needs them: see
    // `publish_batch`): allow both, a configuration change only. Should the server refuse, the
    // stream works as before and an import says why it cannot land.
    let events = reconfigured(
        js,
        events,
        |c| !c.allow_direct || !c.allow_atomic_publish,
        |c| {
            c.allow_direct = true;
            c.allow_atomic_publish = true;
        },
    )
    .await?;
    Ok((events, IdIndex::open(js, &format!("KIFU_{ns}_IDEM"), replicas).await?))
}

/// `stream` as an earlier build configured it, changed by `change` where `stale` says it needs
/// to be: a configuration change only (no message moves). A change the server refuses leaves
/// the stream as it was, which still works (the callers say how).
async fn reconfigured(
    js: &jetstream::Context,
    stream: stream::Stream,
    stale: impl Fn(&stream::Config) -> bool,
    change: impl Fn(&mut stream::Config),
) -> Result<stream::Stream, async_nats::Error> {
    let mut config = stream.cached_info().config.clone();
    if !stale(&config) {
        return Ok(stream);
    }
    change(&mut config);
    let name = config.name.clone();
    if js.update_stream(config).await.is_err() {
        return Ok(stream);
    }
    Ok(js.get_stream(name).await?)
}

/// Whether a setup failure may pass by itself: a timeout, or JetStream electing its leader.
fn transient(e: &async_nats::Error) -> bool {
    let text = e.to_string().to_ascii_lowercase();
    ["timed out", "timeout", "temporarily unavailable", "no suitable peers"].iter().any(|w| text.contains(w))
}

/// What a setup that failed for good says: that the cluster has no JetStream, or why it failed.
fn no_js(e: &async_nats::Error) -> String {
    let text = e.to_string();
    if text.contains("no responders") || text.contains("not enabled") || text.contains("jetstream unavailable") {
        "the cluster has no JetStream (start nats-server with -js, or a jetstream block in its configuration)"
            .to_string()
    } else {
        format!("cannot set up the JetStream stream: {text}")
    }
}

fn token(sid: &str) -> String {
    sid.replace('.', "=")
}

fn untoken(tok: &str) -> String {
    tok.replace('=', ".")
}

/// The oldest nats-server kifu runs on: from 2.11 a leader serves only after applying its log and
/// an expected-sequence check holds across leader changes; 2.14.0 reports a leader only after
/// its first entry is applied (nats-server#7460) and 2.14.1 clears staged message ids safely on
/// a leader change (#8106). An append's acknowledgement is then its proof: nothing is read back.
pub const MIN_SERVER: (u64, u64, u64) = (2, 14, 1);

/// Refuses a server older than [`MIN_SERVER`] (a version it cannot read counts as older).
fn supported(location: &str, version: &str) -> Result<(), StoreError> {
    let mut parts = version.trim_start_matches('v').split(['.', '-', '+']).map(|p| p.parse::<u64>().ok());
    let found = (parts.next().flatten(), parts.next().flatten(), parts.next().flatten());
    let (a, b, c) = MIN_SERVER;
    match found {
        (Some(x), Some(y), Some(z)) if (x, y, z) >= MIN_SERVER => Ok(()),
        _ => Err(StoreError::ServerTooOld {
            location: location.to_string(),
            version: crate::log::quote_prefix(version),
            minimum: format!("{a}.{b}.{c}"),
        }),
    }
}

impl NatsStore {
    /// Connects to the cluster at `url` and creates (or finds) the namespace's stream and bucket.
    pub fn connect(url: &NatsUrl, clock: Arc<dyn Clock>) -> Result<Self, StoreError> {
        let location = url.to_string();
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("kifu-nats")
            .enable_all()
            .build()
            .map_err(|e| other("cannot start the cluster client's runtime", e))?;
        let unavailable = |reason: String| StoreError::Unavailable { location: location.clone(), reason };
        let (servers, ns, replicas) = (url.servers.clone(), url.namespace.clone(), url.replicas);
        let here = location.clone();
        let (dropped, drops) = tokio::sync::watch::channel(0u64);
        let dropped = Arc::new(dropped);
        let connected = run_on(&rt, async move {
            let client = async_nats::ConnectOptions::new()
                .event_callback(move |event| {
                    let dropped = dropped.clone();
                    async move {
                        if matches!(event, async_nats::Event::Disconnected) {
                            dropped.send_modify(|n| *n += 1);
                        }
                    }
                })
                .connection_timeout(Duration::from_secs(3))
                .request_timeout(Some(REQUEST_WAIT))
                .connect(servers.as_slice())
                .await
                .map_err(|e| StoreError::Unavailable {
                    location: here.clone(),
                    reason: format!("cannot connect: {e}"),
                })?;
            supported(&here, &client.server_info().version)?;
            let js = jetstream::ContextBuilder::new().timeout(REQUEST_WAIT).build(client.clone());
            // A cluster that has just formed (or is electing its JetStream leader, or is under
            // load) can time out a stream creation it then completes: setting up is idempotent,
            // so retry transient failures for a while rather than refuse to start.
            let deadline = tokio::time::Instant::now() + SETUP_PATIENCE;
            let (events, idem) = loop {
                match set_up(&js, &ns, replicas).await {
                    Ok(found) => break found,
                    Err(e) if transient(&e) && tokio::time::Instant::now() < deadline => {
                        tokio::time::sleep(Duration::from_millis(500)).await;
                    }
                    Err(e) => return Err(StoreError::Unavailable { location: here, reason: no_js(&e) }),
                }
            };
            Ok::<_, StoreError>((client, js, events, idem))
        })
        .map_err(|e| unavailable(e.to_string()))?;
        let (client, js, events, idem) = connected?;
        let max_payload = client.server_info().max_payload;
        Ok(NatsStore {
            rt: Some(rt),
            client,
            js,
            drops,
            events: Arc::new(events),
            idem,
            ns: url.namespace.clone(),
            replicas: url.replicas,
            tables: Mutex::new(HashMap::new()),
            location,
            max_payload,
            clock,
            tips: Mutex::new(HashMap::new()),
            starts: Mutex::new(HashMap::new()),
            headers: Mutex::new(HashMap::new()),
            chunk_ids: Mutex::new(HashMap::new()),
            in_doubt: Mutex::new(HashMap::new()),
            import_bytes: None,
        })
    }

    /// Where this store lives (`nats://…?ns=…`).
    pub fn location(&self) -> &str {
        &self.location
    }

    /// Deletes the namespace's stream and bucket: every kifu stream in it (tests only clean up with this).
    pub fn destroy(&self) -> Result<(), StoreError> {
        let js = self.js.clone();
        let (name, bucket) = (format!("KIFU_{}", self.ns), format!("KIFU_{}_IDEM", self.ns));
        let tables: Vec<String> = [Table::Tokens, Table::PendingResults, Table::PendingPodResults]
            .iter()
            .map(|t| format!("KV_KIFU_{}_{}", self.ns, t.name()))
            .collect();
        self.block(async move {
            js.delete_stream(&name).await.map_err(|e| other("cannot delete the stream", e))?;
            js.delete_key_value(&bucket).await.map_err(|e| other("cannot delete the bucket", e))?;
            for t in tables {
                // Only the tables someone used exist.
                let _ = js.delete_stream(&t).await;
            }
            Ok(())
        })?
    }

    /// Runs `fut` on the store's runtime and waits for it (the store is used from sync code).
    /// While the client is cut off from the cluster it fails at once ([`StoreError::Unavailable`])
    /// instead of waiting for a timeout: a server then answers from its caches, marked stale.
    /// The client reconnects by itself (backing off up to 4 s), and calls work again.
    fn block<T: Send + 'static>(&self, fut: impl Future<Output = T> + Send + 'static) -> Result<T, StoreError> {
        if self.client.connection_state() != async_nats::connection::State::Connected {
            return Err(StoreError::Unavailable {
                location: self.location.clone(),
                reason: "the connection to the cluster is lost; reconnecting".to_string(),
            });
        }
        let rt = self.rt.as_ref().ok_or_else(|| other("the cluster client", "shut down"))?;
        let mut drops = self.drops.clone();
        drops.mark_unchanged();
        // Boxed once here: the unpolled round (publish, acknowledgement, notice) is a
        // state machine of a few KiB, which the select and the spawn below would otherwise copy
        // whole (a tenth of the client's CPU at 64 writers).
        let fut = Box::pin(fut);
        let guarded = async move {
            tokio::select! {
                out = fut => Some(out),
                _ = drops.changed() => None,
            }
        };
        run_on(rt, guarded).map_err(|e| other("the cluster client", e))?.ok_or_else(|| StoreError::Unavailable {
            location: self.location.clone(),
            reason:
                "the connection to the cluster dropped while waiting for an answer; retry (an append with the same \
                     idempotency ids records nothing twice)"
                    .to_string(),
        })
    }

    fn subject(&self, sid: &str) -> String {
        format!("{}.ev.{}", self.ns, token(sid))
    }

    fn notice_subject(&self, sid: &str) -> String {
        format!("{}.notice.{}", self.ns, token(sid))
    }

    fn idem_key(sid: &str, id: &[u8; 16]) -> String {
        format!("{}.{}", token(sid), hex::encode(id))
    }

    fn tip_lock(&self, sid: &str) -> TipLock {
        let mut map = self.tips.lock().unwrap_or_else(|p| p.into_inner());
        if map.len() >= KEPT_STREAMS && !map.contains_key(sid) {
            // Only a lock nobody holds goes: its stream's next append makes a new one and
            // loads the tip again.
            map.retain(|_, lock| Arc::strong_count(lock) > 1);
        }
        map.entry(sid.to_string()).or_default().clone()
    }

    /// The stream's last accepted chunk, from the cluster (`None`: no such stream).
    fn load_tip(&self, sid: &str) -> Result<Option<Tip>, StoreError> {
        let (events, subject) = (self.events.clone(), self.subject(sid));
        let msg = self.block(async move { events.get_last_raw_message_by_subject(&subject).await })?;
        let msg = match msg {
            Ok(m) => m,
            Err(e) if e.kind() == stream::LastRawMessageErrorKind::NoMessageFound => return Ok(None),
            Err(e) => return Err(self.lost("cannot read the stream's last chunk", e)),
        };
        let subject_last = msg.sequence;
        let mut last = parse_chunk(sid, &msg)?;
        // The last message may be a loser of a race (see `publish`) not yet deleted: then the
        // accepted chain is walked to its end instead.
        if self.successor(sid, last.prev)?.is_none_or(|c| c.js_seq != last.js_seq) {
            let start = self.walk_start(sid, u64::MAX);
            let mut end = None;
            self.walk(sid, start, |c| {
                end = Some(c.clone());
                true
            })?;
            last = end.ok_or_else(|| StoreError::CorruptIndex(format!("stream {sid}: no accepted chunk")))?;
        }
        self.remember_start(sid, last.first, last.js_seq);
        let len = last.first + last.events.len() as u64;
        let hash = match (last.events.last(), &last.header) {
            (Some(ev), _) => stored_hash(sid, len - 1, ev)?,
            (None, Some(h)) => chain::header_hash(h),
            (None, None) => {
                return Err(StoreError::CorruptIndex(format!("stream {sid}: chunk at event {} is empty", last.first)))
            }
        };
        Ok(Some(Tip { head: Head { len, hash }, js_seq: last.js_seq, subject_last }))
    }

    /// The accepted successor of the chunk at JetStream sequence `prev` (0: the stream's first
    /// chunk): the first later message on the subject built on it. JetStream orders a subject's
    /// messages totally, so this never changes once it exists.
    fn successor(&self, sid: &str, prev: u64) -> Result<Option<Chunk>, StoreError> {
        let mut js = prev + 1;
        while let Some(chunk) = self.chunk_from(sid, js)? {
            if chunk.prev == prev {
                return Ok(Some(chunk));
            }
            js = chunk.js_seq + 1;
        }
        Ok(None)
    }

    /// Walks the accepted chunks from the accepted chunk at `start` (`None`: the beginning) in
    /// order, skipping race losers, while `f` returns true.
    fn walk(&self, sid: &str, start: Option<u64>, mut f: impl FnMut(&Chunk) -> bool) -> Result<(), StoreError> {
        let mut chunk = match start {
            Some(js) => Some(self.chunk_at(sid, js)?),
            None => self.successor(sid, 0)?,
        };
        while let Some(c) = chunk {
            if !f(&c) {
                return Ok(());
            }
            chunk = self.successor(sid, c.js_seq)?;
        }
        Ok(())
    }

    fn remember_start(&self, sid: &str, first: u64, js_seq: u64) {
        let mut starts = self.starts.lock().unwrap_or_else(|p| p.into_inner());
        if starts.len() >= KEPT_STREAMS && !starts.contains_key(sid) {
            starts.clear();
        }
        keep_start(starts.entry(sid.to_string()).or_default(), (first, js_seq));
    }

    /// The last known accepted chunk starting at or before event `seq` (`None`: walk from the beginning).
    fn walk_start(&self, sid: &str, seq: u64) -> Option<u64> {
        let starts = self.starts.lock().unwrap_or_else(|p| p.into_inner());
        let list = starts.get(sid)?;
        let after = list.partition_point(|(first, _)| *first <= seq);
        after.checked_sub(1).map(|at| list[at].1)
    }

    /// The chunk of `sid` at or after JetStream sequence `from` (`None`: none).
    fn chunk_from(&self, sid: &str, from: u64) -> Result<Option<Chunk>, StoreError> {
        let (events, subject) = (self.events.clone(), self.subject(sid));
        let msg = self.block(async move { events.get_first_raw_message_by_subject(&subject, from).await })?;
        match msg {
            Ok(m) => Ok(Some(parse_chunk(sid, &m)?)),
            Err(e) if e.kind() == stream::RawMessageErrorKind::NoMessageFound => Ok(None),
            Err(e) => Err(self.lost("cannot read a chunk", e)),
        }
    }

    /// The chunk at JetStream sequence `js_seq`.
    fn chunk_at(&self, sid: &str, js_seq: u64) -> Result<Chunk, StoreError> {
        let events = self.events.clone();
        let msg = self.block(async move { events.get_raw_message(js_seq).await })?;
        let msg = msg.map_err(|e| self.lost(&format!("cannot read stream {sid}'s chunk {js_seq}"), e))?;
        parse_chunk(sid, &msg)
    }

    /// Events `from..to` of `sid`, which the caller knows exist.
    fn read_range(&self, sid: &str, from: u64, to: u64) -> Result<Vec<Vec<u8>>, StoreError> {
        let missing =
            |seq: u64| StoreError::CorruptIndex(format!("stream {sid}: event {seq} is missing from the store"));
        let mut out = Vec::new();
        let mut next = None::<u64>;
        let mut gap = None;
        self.walk(sid, self.walk_start(sid, from), |chunk| {
            if next.is_some_and(|n| n != chunk.first) || (next.is_none() && chunk.first > from) {
                gap = Some(next.unwrap_or(from).max(from));
                return false;
            }
            self.remember_start(sid, chunk.first, chunk.js_seq);
            for (i, ev) in chunk.events.iter().enumerate() {
                let seq = chunk.first + i as u64;
                if (from..to).contains(&seq) {
                    out.push(ev.clone());
                }
            }
            let end = chunk.first + chunk.events.len() as u64;
            next = Some(end);
            end < to
        })?;
        if let Some(seq) = gap {
            return Err(missing(seq));
        }
        if (out.len() as u64) < to - from {
            return Err(missing(from + out.len() as u64));
        }
        Ok(out)
    }

    /// Where `id` was recorded in `sid` and whether with `ev`'s actor and payload: the index,
    /// then the last [`RECENT_CHUNKS`] chunks (collected once per append into `recent`). An id
    /// found only in a recent chunk (its append landed unacknowledged) is added to `unindexed`.
    fn recorded(
        &self,
        sid: &str,
        tip: &Tip,
        recent: &mut Option<Recent>,
        unindexed: &mut Vec<(u64, [u8; 16])>,
        id: &[u8; 16],
        ev: Option<&NewEvent>,
    ) -> Result<Option<(u64, bool)>, StoreError> {
        // Without an event to compare (a look-up by id alone) a hit counts as not the same, so
        // it is never indexed from here.
        let same = |stored: &[u8]| ev.is_some_and(|ev| super::same_event(stored, ev));
        let (idem, key) = (self.idem.clone(), Self::idem_key(sid, id));
        let indexed =
            self.block(async move { idem.get(&key).await })?.map_err(|e| self.lost("cannot read the index", e))?;
        if let Some(bytes) = indexed {
            let seq = <[u8; 8]>::try_from(&bytes[..])
                .map(u64::from_be_bytes)
                .map_err(|_| StoreError::CorruptIndex(format!("stream {sid}: malformed idempotency record")))?;
            let stored = self.read_range(sid, seq, seq + 1)?;
            return Ok(stored.first().map(|s| (seq, same(s))));
        }
        let doubted = self.in_doubt.lock().unwrap_or_else(|p| p.into_inner()).get(&(sid.to_string(), *id)).copied();
        if let Some(prev) = doubted {
            if let Some(chunk) = self.successor(sid, prev)? {
                for (i, stored) in chunk.events.iter().enumerate() {
                    let mine =
                        chain::open_event(stored).is_ok_and(|(env, _)| env.v1().idempotency.map(|i| i.0) == Some(*id));
                    if mine {
                        let (seq, same) = (chunk.first + i as u64, same(stored));
                        if same {
                            unindexed.push((seq, *id));
                        }
                        return Ok(Some((seq, same)));
                    }
                }
            }
        }
        if recent.is_none() {
            let mut found = HashMap::new();
            let mut js = tip.js_seq;
            for _ in 0..RECENT_CHUNKS {
                if js == 0 {
                    break;
                }
                let chunk = self.chunk_ids(sid, js)?;
                for (id, seq, stored) in &chunk.ids {
                    found.insert(*id, (*seq, stored.clone()));
                }
                js = chunk.prev;
            }
            *recent = Some(found);
        }
        let hit = recent.as_ref().and_then(|r| r.get(id)).map(|(seq, stored)| (*seq, same(stored)));
        if let Some((seq, true)) = hit {
            unindexed.push((seq, *id));
        }
        Ok(hit)
    }

    /// The ids of the chunk at JetStream sequence `js`: kept, or read from the cluster and kept.
    fn chunk_ids(&self, sid: &str, js: u64) -> Result<Arc<ChunkIds>, StoreError> {
        let key = (sid.to_string(), js);
        if let Some(known) = self.chunk_ids.lock().unwrap_or_else(|p| p.into_inner()).get(&key) {
            return Ok(known.clone());
        }
        let chunk = self.chunk_at(sid, js)?;
        let mut ids = Vec::new();
        for (i, stored) in chunk.events.into_iter().enumerate() {
            if let Ok((env, _)) = chain::open_event(&stored) {
                if let Some(id) = env.v1().idempotency {
                    ids.push((id.0, chunk.first + i as u64, stored));
                }
            }
        }
        Ok(self.keep_chunk_ids(sid, js, ChunkIds { prev: chunk.prev, ids }))
    }

    /// Notes `ids` of `sid`, appended on chunk `prev`, as in doubt (see `in_doubt`).
    fn doubt(&self, sid: &str, ids: &[(u64, [u8; 16])], prev: u64) {
        let mut doubts = self.in_doubt.lock().unwrap_or_else(|p| p.into_inner());
        if doubts.len() + ids.len() > KEPT_IN_DOUBT {
            doubts.clear();
        }
        for (_, id) in ids {
            doubts.insert((sid.to_string(), *id), prev);
        }
    }

    /// `ids` of `sid` are indexed now: no longer in doubt.
    fn settled(&self, sid: &str, ids: &[(u64, [u8; 16])]) {
        let mut doubts = self.in_doubt.lock().unwrap_or_else(|p| p.into_inner());
        if doubts.is_empty() {
            return;
        }
        for (_, id) in ids {
            doubts.remove(&(sid.to_string(), *id));
        }
    }

    fn keep_chunk_ids(&self, sid: &str, js: u64, ids: ChunkIds) -> Arc<ChunkIds> {
        let ids = Arc::new(ids);
        let mut kept = self.chunk_ids.lock().unwrap_or_else(|p| p.into_inner());
        if kept.len() >= KEPT_CHUNK_IDS {
            kept.clear();
        }
        kept.insert((sid.to_string(), js), ids.clone());
        ids
    }

    /// Publishes one chunk on `sid`'s subject, expecting `prev` as the subject's last message,
    /// and tells watchers the stream now holds `len` events; `Ok(None)` when another writer got
    /// there first.
    fn publish(
        &self,
        sid: &str,
        first: u64,
        (prev, subject_last): (u64, u64),
        header: bool,
        (len, last_hash): (u64, Hash32),
        body: Vec<u8>,
    ) -> Result<Option<u64>, StoreError> {
        if body.len() + SLACK > self.max_payload {
            return Err(StoreError::TooLarge {
                stream: sid.to_string(),
                bytes: body.len(),
                limit: self.max_payload.saturating_sub(SLACK),
            });
        }
        let js = self.js.clone();
        let subject = self.subject(sid);
        // The message id is the hash its last event (or, for a bare header, the header) ends
        // in: the same chunk published again is the same id, so the server answers a resend
        // after a lost acknowledgement as a duplicate, with the sequence of the first.
        let mut publish = jetstream::message::PublishMessage::build()
            .payload(body.into())
            .message_id(last_hash.to_hex())
            .header(H_FIRST, first.to_string())
            .header(H_PREV, prev.to_string())
            .expected_last_subject_sequence(subject_last);
        if header {
            publish = publish.header(H_HEADER, "1");
        }
        let (client, notice) = (self.client.clone(), self.notice_subject(sid));
        // Publish, acknowledgement and notice in one round on the runtime. The acknowledgement
        // is the proof: the server enforces the expected subject sequence (nats-server 2.11 and
        // later, also across leader changes), so nothing is read back.
        let outcome = self.block(async move {
            // Resends after no acknowledgement, and after no stream answered.
            let (mut resent, mut unheard) = (0, 0);
            loop {
                match publish_once(&js, &subject, &publish).await {
                    Ok(ack) => {
                        // Best effort: watchers also poll, so a lost notice only delays them.
                        let _ = client.publish(notice, len.to_string().into()).await;
                        return Ok(ack.sequence);
                    }
                    // No acknowledgement: it may have landed. The same message again settles it
                    // (a duplicate names the first's sequence; a refusal, another writer's append).
                    Err(e) if ambiguous(&e) && resent + 1 < PUBLISH_TRIES => resent += 1,
                    // Nobody answered for the stream: it did not land. A stream just created on
                    // a fresh cluster has no leader for a moment (seen on 2.15): wait for one.
                    Err(e)
                        if e.kind() == jetstream::context::PublishErrorKind::StreamNotFound
                            && unheard < UNHEARD_TRIES =>
                    {
                        unheard += 1;
                        tokio::time::sleep(Duration::from_millis(100)).await;
                    }
                    Err(e) => return Err(e),
                }
            }
        })?;
        let e = match outcome {
            Ok(js_seq) => return Ok(Some(js_seq)),
            Err(e) => e,
        };
        match e.kind() {
            _ if another_was_first(&e) => Ok(None),
            _ if ambiguous(&e) => Err(StoreError::Unavailable {
                location: self.location.clone(),
                reason: format!(
                    "no acknowledgement for an append to {sid} ({e}); retry it with the same idempotency ids"
                ),
            }),
            _ => Err(self.lost(&format!("append to {sid} refused"), e)),
        }
    }

    /// Writes `(seq, id)` pairs of `sid` into the index, all at once (each put is acknowledged
    /// by the R3 bucket).
    fn index(&self, sid: &str, ids: Vec<(u64, [u8; 16])>) -> Result<(), StoreError> {
        if ids.is_empty() {
            return Ok(());
        }
        let idem = self.idem.clone();
        let puts: Vec<_> = ids
            .iter()
            .map(|(seq, id)| {
                let (idem, key, value) = (idem.clone(), Self::idem_key(sid, id), seq.to_be_bytes().to_vec());
                async move { idem.put(&key, value).await }
            })
            .collect();
        // A timed-out put is "unavailable, retry" (503), not a fault: the retry indexes it again.
        self.block(async move { futures_util::future::try_join_all(puts).await })?
            .map_err(|e| self.lost("cannot index an idempotency id", e))?;
        Ok(())
    }
}

/// Adds `start` (first event, JetStream sequence) to a stream's ascending chunk starts, keeping
/// at most [`KEPT_STARTS`]: past that, the start whose loss leaves the smallest gap (in events)
/// goes, never the first or the newest. So the kept starts stay spread evenly over the stream
/// (a read walks about `events / KEPT_STARTS` events' chunks at most before it reaches its
/// range), and the live tail starts where it did.
fn keep_start(list: &mut Vec<(u64, u64)>, start: (u64, u64)) {
    let Err(at) = list.binary_search(&start) else { return };
    list.insert(at, start);
    if list.len() > KEPT_STARTS {
        let last = list.len() - 1;
        let gap = |i: usize| list[i + 1].0 - list[i - 1].0;
        if let Some(drop) = (1..last).min_by_key(|&i| gap(i)) {
            list.remove(drop);
        }
    }
}

/// Runs `fut` on `rt`'s workers and waits for it, from sync code inside or outside another
/// runtime. Spawned even where `block_on` would do: the whole round (publish, acknowledgement,
/// notice) then runs on the workers and the caller is woken once, not at each step (64
/// writers: about 10% more appends per second).
fn run_on<T: Send + 'static>(
    rt: &tokio::runtime::Runtime,
    fut: impl Future<Output = T> + Send + 'static,
) -> Result<T, Dropped> {
    let (tx, rx) = std::sync::mpsc::sync_channel(1);
    rt.spawn(async move {
        let _ = tx.send(fut.await);
    });
    rx.recv().map_err(|_| Dropped)
}

/// A request whose task ended without an answer (the runtime shut down under it).
#[derive(Debug, thiserror::Error)]
#[error("the request was dropped")]
struct Dropped;

/// How many times one append's message is published when no acknowledgement comes back (a
/// timeout, a dropped request): the same message again is answered as a duplicate if the first
/// landed, so only the last try's silence reaches the caller.
const PUBLISH_TRIES: u32 = 10;

/// How long one try of a publish waits for its acknowledgement (an R3 append is acknowledged in
/// milliseconds; under 64 writers on 2 cores its p99 stays well below this). Ten tries keep the
/// whole wait near the 10 s it was, in shorter steps.
const ACK_WAIT: Duration = Duration::from_millis(1_000);

/// How many times (100 ms apart) a publish no stream answered is sent again: a stream created
/// on a cluster that has just formed elects its leader within a few seconds.
const UNHEARD_TRIES: u32 = 50;

/// One try of a publish: sent, and its acknowledgement awaited for [`ACK_WAIT`], not the
/// client's 5 s, so that an acknowledgement lost with a killed leader is asked for again soon
/// after the new one is elected.
async fn publish_once(
    js: &jetstream::Context,
    subject: &str,
    publish: &jetstream::message::PublishMessage,
) -> Result<jetstream::publish::PublishAck, jetstream::context::PublishError> {
    let attempt = async {
        match js.send_publish(subject.to_string(), publish.clone()).await {
            Ok(pending) => pending.await,
            Err(e) => Err(e),
        }
    };
    tokio::time::timeout(ACK_WAIT, attempt)
        .await
        .unwrap_or_else(|_| Err(jetstream::context::PublishError::new(jetstream::context::PublishErrorKind::TimedOut)))
}

/// A publish refused because the subject's last message is not the one it was built on:
/// another writer appended first (10071, 10164), or the leader cannot check yet (10163, as
/// after a leader change); either way the append is judged again on a fresh tip.
fn another_was_first(e: &jetstream::context::PublishError) -> bool {
    use jetstream::ErrorCode as C;
    let code = std::error::Error::source(e).and_then(|s| s.downcast_ref::<jetstream::Error>()).map(|j| j.error_code());
    e.kind() == jetstream::context::PublishErrorKind::WrongLastSequence
        || matches!(
            code,
            Some(C::STREAM_WRONG_LAST_SEQUENCE_CONSTANT | C::STREAM_EXPECTED_LAST_SEQ_PER_SUBJECT_NOT_READY)
        )
}

/// A publish whose outcome is unknown: it may or may not have landed.
fn ambiguous(e: &jetstream::context::PublishError) -> bool {
    use jetstream::context::PublishErrorKind as K;
    matches!(e.kind(), K::TimedOut | K::BrokenPipe)
}

fn corrupt_chunk(sid: &str, msg: &async_nats::jetstream::message::StreamMessage, what: &str) -> StoreError {
    StoreError::CorruptIndex(format!("stream {sid}: chunk {}: {what}", msg.sequence))
}

/// A chunk's numeric header `name` (`H_FIRST`, `H_PREV`).
fn header_number(
    sid: &str,
    msg: &async_nats::jetstream::message::StreamMessage,
    name: &str,
) -> Result<u64, StoreError> {
    msg.headers
        .get(name)
        .and_then(|v| v.as_str().parse().ok())
        .ok_or_else(|| corrupt_chunk(sid, msg, &format!("no {name} header")))
}

fn parse_chunk(sid: &str, msg: &async_nats::jetstream::message::StreamMessage) -> Result<Chunk, StoreError> {
    let corrupt = |what: &str| corrupt_chunk(sid, msg, what);
    let first = header_number(sid, msg, H_FIRST)?;
    let prev = header_number(sid, msg, H_PREV)?;
    let has_header = msg.headers.get(H_HEADER).is_some_and(|v| v.as_str() == "1");
    let mut frames = Vec::new();
    let mut rest: &[u8] = &msg.payload;
    while !rest.is_empty() {
        let Some((len, tail)) = rest.split_first_chunk::<4>() else { return Err(corrupt("cut short")) };
        let len = usize::try_from(u32::from_le_bytes(*len)).map_err(|_| corrupt("frame too large"))?;
        if len > tail.len() {
            return Err(corrupt("cut short"));
        }
        let (frame, tail) = tail.split_at(len);
        frames.push(frame.to_vec());
        rest = tail;
    }
    let header = if has_header {
        if frames.is_empty() {
            return Err(corrupt("the header frame is missing"));
        }
        Some(frames.remove(0))
    } else {
        None
    };
    Ok(Chunk { js_seq: msg.sequence, first, prev, header, events: frames })
}

fn push_frame(buf: &mut Vec<u8>, bytes: &[u8]) -> Result<(), StoreError> {
    let len = u32::try_from(bytes.len()).map_err(|_| other("a record is over 4 GiB", bytes.len()))?;
    buf.extend_from_slice(&len.to_le_bytes());
    buf.extend_from_slice(bytes);
    Ok(())
}

fn stored_hash(sid: &str, seq: u64, stored: &[u8]) -> Result<Hash32, StoreError> {
    stored.split_last_chunk::<32>().map(|(_, h)| Hash32(*h)).ok_or_else(|| {
        StoreError::CorruptIndex(format!(
            "stream {sid}: event {seq} is {} bytes, too short to end in a hash",
            stored.len()
        ))
    })
}

/// One publish's worth of a request: the header's frame for a new stream, then each event sealed
/// on the one before it, and the idempotency ids to index once it lands.
struct Outgoing {
    body: Vec<u8>,
    first_seq: u64,
    /// The stream's head after the chunk.
    head: Head,
    /// (sequence number, id) of each event with an idempotency id.
    ids: Vec<(u64, [u8; 16])>,
    /// (id, sequence number, stored event), kept for a retry judged before the index has them.
    kept: Vec<([u8; 16], u64, Vec<u8>)>,
    /// Each event's stored bytes, in order.
    sealed: Vec<Vec<u8>>,
}

impl Outgoing {
    /// Seals `req`'s events on `head` (`None`: a new stream, which starts with its header).
    fn seal(
        req: &AppendRequest,
        head: Option<Head>,
        now: crate::log::envelope::Timestamp,
    ) -> Result<Outgoing, StoreError> {
        let sid = req.stream.as_str();
        let mut body = Vec::new();
        let mut head = match head {
            Some(h) => h,
            None => {
                let header_bytes = super::creation_header(req)?;
                push_frame(&mut body, &header_bytes)?;
                Head { len: 0, hash: chain::header_hash(&header_bytes) }
            }
        };
        let first_seq = head.len;
        let (mut ids, mut kept, mut sealed) = (Vec::new(), Vec::new(), Vec::with_capacity(req.events.len()));
        for ev in &req.events {
            let envelope = Envelope::V1(EnvelopeV1 {
                stream: std::borrow::Cow::Borrowed(sid),
                seq: head.len,
                recorded_at: now,
                actor: ev.actor.clone(),
                idempotency: ev.idempotency,
                payload: std::borrow::Cow::Borrowed(&ev.payload),
                prev: head.hash,
            });
            let (stored, hash) = chain::seal_event(&envelope)?;
            push_frame(&mut body, &stored)?;
            if let Some(id) = ev.idempotency {
                ids.push((head.len, id.0));
                kept.push((id.0, head.len, stored.clone()));
            }
            sealed.push(stored);
            head = Head { len: head.len + 1, hash };
        }
        Ok(Outgoing { body, first_seq, head, ids, kept, sealed })
    }
}

impl NatsStore {
    /// Judges `req` as a retry against the stream's `tip`: `Some` when every event it carries
    /// already landed under its idempotency id (then indexed, so that it too is recognised
    /// forever once acknowledged), with the current head; `None` when it is a new append.
    fn retried(
        &self,
        req: &AppendRequest,
        tip: Tip,
        fresh: bool,
        cached: &mut Option<Tip>,
    ) -> Result<Option<Appended>, StoreError> {
        let sid = req.stream.as_str();
        let (mut recent, mut unindexed) = (None, Vec::new());
        let retry = super::judge_retry(sid, &req.events, |id, ev| {
            self.recorded(sid, &tip, &mut recent, &mut unindexed, &id.0, Some(ev))
        })?;
        let Some(first_seq) = retry else { return Ok(None) };
        self.index(sid, unindexed.clone())?;
        self.settled(sid, &unindexed);
        // Judged on an accepted chunk, so it stands; the head reported is the current one.
        let head = match fresh {
            true => tip.head,
            false => {
                *cached = self.load_tip(sid)?;
                cached.map_or(tip.head, |t| t.head)
            }
        };
        Ok(Some(Appended { stream: req.stream.clone(), first_seq, head, retried: true, stored: Vec::new() }))
    }
}

/// At most this many messages in one atomic batch: the server's limit (`max_msgs` in its
/// `jetstream.limits.batch`, 1,000 unless configured).
pub const BATCH_MESSAGES: usize = 1_000;

const H_BATCH_ID: &str = "Nats-Batch-Id";
const H_BATCH_SEQ: &str = "Nats-Batch-Sequence";
const H_BATCH_COMMIT: &str = "Nats-Batch-Commit";

/// How often an import's batch is sent again because other streams of the namespace were
/// appended to meanwhile (its first message expects the stream's last sequence; see `publish_batch`).
const IMPORT_TRIES: usize = 20;

/// One message of an import: the frames of events `first..upto` (and, first of all in a new
/// stream, the header's), its message id and the idempotency ids to index once it lands.
struct Packed {
    first: u64,
    upto: u64,
    header: bool,
    body: Vec<u8>,
    id: String,
    ids: Vec<(u64, [u8; 16])>,
}

/// The hash `log` ends in after its first `upto` events.
fn log_hash(log: &VerifiedLog, upto: u64) -> Result<Hash32, StoreError> {
    let sid = log.header.stream().as_str();
    match upto.checked_sub(1) {
        None => Ok(chain::header_hash(&log.header_bytes)),
        Some(last) => stored_hash(sid, last, log.events.get(last as usize).map_or(&[][..], |e| &e[..])),
    }
}

/// Packs `log`'s events from `from` on into messages of at most `limit` bytes (a larger event
/// alone), as many events per message as fit; the first carries the header when `header`.
fn pack(log: &VerifiedLog, from: u64, header: bool, limit: usize) -> Result<Vec<Packed>, StoreError> {
    let mut out = Vec::new();
    let mut next = Packed { first: from, upto: from, header, body: Vec::new(), id: String::new(), ids: Vec::new() };
    if header {
        push_frame(&mut next.body, &log.header_bytes)?;
    }
    for (seq, stored) in log.events.iter().enumerate().skip(from as usize) {
        let seq = seq as u64;
        if !next.body.is_empty() && next.body.len() + 4 + stored.len() > limit {
            let fresh =
                Packed { first: seq, upto: seq, header: false, body: Vec::new(), id: String::new(), ids: Vec::new() };
            out.push(std::mem::replace(&mut next, fresh));
        }
        push_frame(&mut next.body, stored)?;
        next.upto = seq + 1;
        if let Ok((env, _)) = chain::open_event(stored) {
            if let Some(id) = env.v1().idempotency {
                next.ids.push((seq, id.0));
            }
        }
    }
    if !next.body.is_empty() {
        out.push(next);
    }
    for m in &mut out {
        // The same id an append of these events would carry: the hash its last event ends in.
        m.id = log_hash(log, m.upto)?.to_hex();
    }
    Ok(out)
}

/// Why an atomic batch did not land.
enum BatchFailure {
    /// The stream's last sequence was not the one the batch expected: another append came first.
    Overtaken,
    /// No acknowledgement of the commit: it may have landed.
    Silent(String),
    /// The cluster refused it (nothing of it is stored), for this reason.
    Refused(String),
}

/// Sends `messages` to `subject` as one atomic batch: the first as a request (the server answers
/// it empty once the batch is started, or with why not), the rest without waiting, the last with
/// the commit header, whose acknowledgement names the stream sequence of the batch's last message.
async fn send_batch(
    client: async_nats::Client,
    subject: String,
    mut messages: Vec<(async_nats::HeaderMap, bytes::Bytes)>,
) -> Result<jetstream::publish::PublishAck, BatchFailure> {
    let refused = |e: &dyn std::fmt::Display| BatchFailure::Refused(e.to_string());
    let Some((last_headers, last_body)) = messages.pop() else { return Err(refused(&"an empty batch")) };
    for (i, (headers, body)) in messages.into_iter().enumerate() {
        if i > 0 {
            client.publish_with_headers(subject.clone(), headers, body).await.map_err(|e| refused(&e))?;
            continue;
        }
        // Nobody answered the start (a leader election): the batch is not started; send it again.
        let reply = client.request_with_headers(subject.clone(), headers, body).await.map_err(|e| {
            use async_nats::RequestErrorKind as K;
            match e.kind() {
                K::TimedOut | K::NoResponders => BatchFailure::Silent(e.to_string()),
                _ => refused(&e),
            }
        })?;
        if !reply.payload.is_empty() {
            return Err(
                match serde_json::from_slice::<jetstream::response::Response<serde_json::Value>>(&reply.payload) {
                    Ok(jetstream::response::Response::Err { error }) => refused(&error),
                    _ => refused(&String::from_utf8_lossy(&reply.payload)),
                },
            );
        }
    }
    let js = jetstream::ContextBuilder::new().timeout(BATCH_WAIT).build(client);
    let publish = jetstream::message::PublishMessage::build().headers(last_headers).payload(last_body);
    let ack = match js.send_publish(subject, publish).await {
        Ok(pending) => pending.await,
        Err(e) => Err(e),
    };
    ack.map_err(|e| match () {
        _ if another_was_first(&e) => BatchFailure::Overtaken,
        _ if ambiguous(&e) || e.kind() == jetstream::context::PublishErrorKind::StreamNotFound => {
            BatchFailure::Silent(e.to_string())
        }
        _ => refused(&e),
    })
}

impl NatsStore {
    /// The largest message an import packs: the server's limit less room for headers.
    fn import_limit(&self) -> usize {
        self.import_bytes.unwrap_or(self.max_payload.saturating_sub(SLACK)).min(self.max_payload.saturating_sub(SLACK))
    }

    /// Makes imports pack at most `bytes` per message, so that a test spans many messages and
    /// batches with a small log (never more than the server takes).
    #[doc(hidden)]
    pub fn limit_import_messages(&mut self, bytes: usize) {
        self.import_bytes = Some(bytes);
    }

    /// The JetStream sequence of the namespace stream's last message (from its leader).
    fn stream_last(&self) -> Result<u64, StoreError> {
        let events = self.events.clone();
        let info = self.block(async move { events.get_info().await })?;
        Ok(info.map_err(|e| self.lost("cannot read the stream's state", e))?.state.last_sequence)
    }

    /// Publishes `batch` (at most [`BATCH_MESSAGES`] of `sid`'s messages, in order) as one atomic
    /// batch built on the chunk at JetStream sequence `prev` (`subject_last`: the subject's last
    /// message); returns the JetStream sequence of its first message. A chunk's `Kifu-Prev` is an
    /// absolute sequence, so the batch's first message expects the stream's last sequence: the
    /// batch then lands right after it, contiguous, and each message's predecessor is known
    /// before it is sent. Another stream's append in between refuses it whole, and it is sent
    /// again on the new last sequence.
    fn publish_batch(&self, sid: &str, batch: &[Packed], (prev, subject_last): (u64, u64)) -> Result<u64, StoreError> {
        let (from, to) = (batch.first().map_or(0, |m| m.first), batch.last().map_or(0, |m| m.upto));
        let n = batch.len() as u64;
        let refused = |reason: String| StoreError::BatchRefused { stream: sid.to_string(), from, to, reason };
        let mut why = String::new();
        for _ in 0..IMPORT_TRIES {
            let last = self.stream_last()?;
            let batch_id = self.client.new_inbox().rsplit('.').next().unwrap_or_default().to_string();
            let mut messages = Vec::with_capacity(batch.len());
            for (i, m) in batch.iter().enumerate() {
                let mut headers = async_nats::HeaderMap::new();
                headers.insert(H_FIRST, m.first.to_string().as_str());
                headers.insert(H_PREV, if i == 0 { prev } else { last + i as u64 }.to_string().as_str());
                if m.header {
                    headers.insert(H_HEADER, "1");
                }
                headers.insert(async_nats::header::NATS_MESSAGE_ID, m.id.as_str());
                headers.insert(H_BATCH_ID, batch_id.as_str());
                headers.insert(H_BATCH_SEQ, (i + 1).to_string().as_str());
                if i == 0 {
                    headers.insert(async_nats::header::NATS_EXPECTED_LAST_SEQUENCE, last.to_string().as_str());
                    headers.insert(
                        async_nats::header::NATS_EXPECTED_LAST_SUBJECT_SEQUENCE,
                        subject_last.to_string().as_str(),
                    );
                }
                if i + 1 == batch.len() {
                    headers.insert(H_BATCH_COMMIT, "1");
                }
                messages.push((headers, m.body.clone().into()));
            }
            let (client, subject) = (self.client.clone(), self.subject(sid));
            match self.block(send_batch(client, subject, messages))? {
                Ok(ack) if ack.sequence == last + n && ack.batch_size == Some(n) => return Ok(last + 1),
                Ok(ack) => {
                    return Err(StoreError::CorruptIndex(format!(
                        "stream {sid}: a batch of {n} messages expected after {last} was acknowledged at {} ({:?} messages)",
                        ack.sequence, ack.batch_size
                    )))
                }
                Err(BatchFailure::Refused(reason)) => return Err(refused(reason)),
                Err(failure) => {
                    let silent = matches!(failure, BatchFailure::Silent(_));
                    why = match failure {
                        BatchFailure::Silent(e) => format!("no answer ({e})"),
                        _ => "other streams kept being appended to".to_string(),
                    };
                    // It may have landed after all (an acknowledgement lost): the stream says.
                    let want = batch.last().map(|m| m.id.as_str());
                    match self.load_tip(sid)? {
                        Some(tip) if tip.js_seq != prev && Some(tip.head.hash.to_hex().as_str()) == want => {
                            return Ok(tip.js_seq + 1 - n)
                        }
                        Some(tip) if tip.js_seq != prev => {
                            return Err(StoreError::StreamExists {
                                stream: sid.to_string(),
                                events: tip.head.len,
                                head: tip.head.hash.to_hex(),
                            })
                        }
                        // Not landed. Unanswered: give an election a moment to end.
                        _ if silent => std::thread::sleep(Duration::from_millis(100)),
                        _ => {}
                    }
                }
            }
        }
        Err(StoreError::Unavailable {
            location: self.location.clone(),
            reason: format!(
                "importing {sid}: {why} ({IMPORT_TRIES} tries; nothing of events {from}..{to} is stored); retry"
            ),
        })
    }
}

impl Store for NatsStore {
    fn append(&self, req: AppendRequest) -> Result<Appended, StoreError> {
        let sid = req.stream.as_str();
        let lock = self.tip_lock(sid);
        let mut cached = lock.lock().unwrap_or_else(|p| p.into_inner());
        let now = self.clock.now();
        let mut fresh = false;
        for _ in 0..CONTENDED_TRIES {
            // The cached tip may be stale (another server appended since): then the publish,
            // built on it, is refused or loses (see `publish`), and the request is judged again
            // on a fresh tip, ids included. So only a refusal or a recognised retry, which
            // return at once, need a fresh tip first.
            if cached.is_none() {
                *cached = self.load_tip(sid)?;
                fresh = true;
            }
            let current = *cached;
            if let Some(tip) = current {
                if let Some(retried) = self.retried(&req, tip, fresh, &mut cached)? {
                    return Ok(retried);
                }
            }
            let head = current.map(|t| t.head);
            if head.is_some() && req.create.is_some() {
                super::check_kind(&req, &self.header(&req.stream)?.1)?;
            }
            if !super::expectation_holds(req.expected, head) {
                if !fresh {
                    *cached = None;
                    continue;
                }
                return Err(StoreError::WrongExpectedVersion {
                    stream: sid.to_string(),
                    expected: req.expected,
                    current: head.map(|h| h.len),
                });
            }
            if let (Some(head), true) = (head, req.events.is_empty()) {
                let stream = req.stream.clone();
                return Ok(Appended { stream, first_seq: head.len, head, retried: false, stored: Vec::new() });
            }
            let outgoing = Outgoing::seal(&req, head, now)?;
            let prev = current.map_or((0, 0), |t| (t.js_seq, t.subject_last));
            let Outgoing { body, first_seq, head, ids, kept, sealed } = outgoing;
            match self.publish(sid, first_seq, prev, current.is_none(), (head.len, head.hash), body) {
                Ok(Some(js_seq)) => {
                    *cached = Some(Tip { head, js_seq, subject_last: js_seq });
                    self.remember_start(sid, first_seq, js_seq);
                    self.keep_chunk_ids(sid, js_seq, ChunkIds { prev: prev.0, ids: kept });
                    if let Err(e) = self.index(sid, ids.clone()) {
                        // Landed, but not indexed: the client's retry must still find it.
                        self.doubt(sid, &ids, prev.0);
                        return Err(e);
                    }
                    self.settled(sid, &ids);
                    let stream = req.stream.clone();
                    return Ok(Appended { stream, first_seq, head, retried: false, stored: sealed });
                }
                // Another writer appended first: judge again on the new tip.
                Ok(None) => {
                    *cached = None;
                    fresh = false;
                }
                Err(e) => {
                    *cached = None;
                    // No acknowledgement: it may have landed.
                    self.doubt(sid, &ids, prev.0);
                    return Err(e);
                }
            }
        }
        Err(StoreError::Unavailable {
            location: self.location.clone(),
            reason: format!("stream {sid}: other writers kept appending first ({CONTENDED_TRIES} tries); retry"),
        })
    }

    fn import(&self, log: &VerifiedLog) -> Result<Imported, StoreError> {
        let sid = log.header.stream().as_str();
        let lock = self.tip_lock(sid);
        let mut cached = lock.lock().unwrap_or_else(|p| p.into_inner());
        *cached = self.load_tip(sid)?;
        let from = match *cached {
            None => 0,
            Some(tip) => {
                let same_header = self.header(log.header.stream()).is_ok_and(|(h, _)| h == log.header_bytes);
                if tip.head == log.head && same_header {
                    return Ok(Imported::AlreadyPresent);
                }
                // An import cut off between two of its batches left a verified prefix of this
                // very log: the same import again goes on from there.
                let prefix =
                    same_header && tip.head.len < log.head.len && log_hash(log, tip.head.len)? == tip.head.hash;
                if !prefix {
                    return Err(StoreError::StreamExists {
                        stream: sid.to_string(),
                        events: tip.head.len,
                        head: tip.head.hash.to_hex(),
                    });
                }
                tip.head.len
            }
        };
        let messages = pack(log, from, cached.is_none(), self.import_limit())?;
        for batch in messages.chunks(BATCH_MESSAGES) {
            let built_on = cached.map_or((0, 0), |t| (t.js_seq, t.subject_last));
            let first_js = self.publish_batch(sid, batch, built_on)?;
            // Verified before the next batch builds on it: the stream ends exactly where the log
            // does after this batch, in the batch's last message (read from the leader).
            let upto = batch.last().map_or(from, |m| m.upto);
            let want = Head { len: upto, hash: log_hash(log, upto)? };
            let last_js = first_js + batch.len() as u64 - 1;
            let tip = self.load_tip(sid)?;
            if tip.map(|t| (t.head, t.js_seq)) != Some((want, last_js)) {
                return Err(StoreError::CorruptIndex(format!(
                    "stream {sid}: after importing events up to {upto} the stream does not end in them"
                )));
            }
            for (i, m) in batch.iter().enumerate() {
                self.remember_start(sid, m.first, first_js + i as u64);
            }
            self.index(sid, batch.iter().flat_map(|m| m.ids.iter().copied()).collect())?;
            *cached = tip;
        }
        Ok(Imported::Created)
    }

    fn header(&self, stream: &StreamId) -> Result<(Vec<u8>, Header), StoreError> {
        let sid = stream.as_str();
        let known = self.headers.lock().unwrap_or_else(|p| p.into_inner()).get(sid).cloned();
        let bytes = match known {
            Some(b) => b,
            None => {
                let chunk = self.chunk_from(sid, 1)?.ok_or_else(|| StoreError::UnknownStream(sid.to_string()))?;
                let bytes = chunk.header.ok_or_else(|| {
                    StoreError::CorruptIndex(format!("stream {sid}: its first chunk carries no header"))
                })?;
                let mut headers = self.headers.lock().unwrap_or_else(|p| p.into_inner());
                if headers.len() >= KEPT_STREAMS {
                    headers.clear();
                }
                headers.insert(sid.to_string(), bytes.clone());
                bytes
            }
        };
        let header = chain::decode_header(&bytes).map_err(|problem| {
            StoreError::Corrupt(chain::ChainError { stream: sid.to_string(), at: chain::At::Header, problem })
        })?;
        Ok((bytes, header))
    }

    fn head(&self, stream: &StreamId) -> Result<Head, StoreError> {
        // Always from the cluster: other servers append too.
        let sid = stream.as_str();
        self.load_tip(sid)?.map(|t| t.head).ok_or_else(|| StoreError::UnknownStream(sid.to_string()))
    }

    fn read(&self, stream: &StreamId, from: u64, to: u64) -> Result<Vec<Vec<u8>>, StoreError> {
        let head = self.head(stream)?;
        let to = to.min(head.len);
        if from >= to {
            return Ok(Vec::new());
        }
        self.read_range(stream.as_str(), from, to)
    }

    fn streams_page(&self, after: Option<&StreamId>, limit: usize) -> Result<Vec<StreamSummary>, StoreError> {
        let (events, filter) = (self.events.clone(), format!("{}.ev.>", self.ns));
        let subjects: Vec<(String, usize)> = self
            .block(async move { events.info_with_subjects(filter).await?.try_collect().await })?
            .map_err(|e: stream::InfoError| self.lost("cannot list the streams", e))?;
        let prefix = format!("{}.ev.", self.ns);
        let mut ids: Vec<String> =
            subjects.into_iter().filter_map(|(s, _)| s.strip_prefix(&prefix).map(untoken)).collect();
        ids.sort_unstable();
        let mut out = Vec::new();
        for id in ids.into_iter().filter(|id| after.is_none_or(|a| id.as_str() > a.as_str())).take(limit) {
            let stream = StreamId::new(&id).map_err(|e| StoreError::CorruptIndex(e.to_string()))?;
            let (_, header) = self.header(&stream)?;
            let head = self.head(&stream)?;
            out.push(StreamSummary { header, head });
        }
        Ok(out)
    }

    fn records(&self, table: Table) -> Result<Option<Box<dyn Records + '_>>, StoreError> {
        let known = self.tables.lock().unwrap_or_else(|p| p.into_inner()).get(&table).cloned();
        let kv = match known {
            Some(kv) => kv,
            None => {
                let (js, bucket) = (self.js.clone(), format!("KIFU_{}_{}", self.ns, table.name()));
                let replicas = self.replicas;
                let kv = self
                    .block(async move { open_bucket(&js, &bucket, replicas).await })?
                    .map_err(|e| self.lost("cannot open the shared records", e))?;
                self.tables.lock().unwrap_or_else(|p| p.into_inner()).insert(table, kv.clone());
                kv
            }
        };
        Ok(Some(Box::new(NatsRecords { store: self, kv })))
    }

    fn recorded_id(&self, stream: &StreamId, id: &IdempotencyId) -> Result<Option<u64>, StoreError> {
        let sid = stream.as_str();
        // A fresh tip: the recent chunks to search are the stream's now, whoever appended them.
        let Some(tip) = self.load_tip(sid)? else {
            return Ok(None);
        };
        let (mut recent, mut unindexed) = (None, Vec::new());
        Ok(self.recorded(sid, &tip, &mut recent, &mut unindexed, &id.0, None)?.map(|(seq, _)| seq))
    }

    fn watch(&self, stream: &StreamId, from: u64) -> Result<Watch, StoreError> {
        let bell = Arc::new(Bell::default());
        let (client, subject, ring) = (self.client.clone(), self.notice_subject(stream.as_str()), bell.clone());
        let rt = self.rt.as_ref().ok_or_else(|| other("the cluster client", "shut down"))?;
        let handle = rt.handle().clone();
        // Subscribed (and the subscription flushed to the server) before the watch is returned,
        // so no notice after this call is missed; events before it are read from the store.
        let subscriber = self.block(async move {
            let sub = client.subscribe(subject).await?;
            client.flush().await?;
            Ok::<_, async_nats::Error>(sub)
        })?;
        let mut subscriber = subscriber.map_err(|e| self.lost("cannot follow the stream", e))?;
        let task = handle.spawn(async move {
            use futures_util::StreamExt;
            while subscriber.next().await.is_some() {
                ring.ring();
            }
        });
        Ok(Watch::new(stream.clone(), from, bell, Some(Box::new(AbortOnDrop(task)))))
    }
}

/// A shared record table: one KV bucket (R3 like the streams). Updates are compare-and-set on
/// the key's revision.
struct NatsRecords<'a> {
    store: &'a NatsStore,
    kv: kv::Store,
}

/// How often an update whose record another writer changed in between is tried again.
const UPDATE_TRIES: usize = 20;

impl Records for NatsRecords<'_> {
    fn get(&self, key: &str) -> Result<Option<Vec<u8>>, StoreError> {
        let (kv, k) = (self.kv.clone(), key.to_string());
        let got = self.store.block(async move { kv.get(k).await })?;
        Ok(got.map_err(|e| self.store.lost("cannot read a shared record", e))?.map(|b| b.to_vec()))
    }

    fn create(&self, key: &str, value: Vec<u8>) -> Result<bool, StoreError> {
        let (kv, k) = (self.kv.clone(), key.to_string());
        match self.store.block(async move { kv.create(k, value.into()).await })? {
            Ok(_) => Ok(true),
            Err(e) if e.kind() == kv::CreateErrorKind::AlreadyExists => Ok(false),
            Err(e) => Err(self.store.lost("cannot write a shared record", e)),
        }
    }

    fn update(&self, key: &str, change: &mut dyn FnMut(Option<&[u8]>) -> Change) -> Result<(), StoreError> {
        for _ in 0..UPDATE_TRIES {
            let (kv, k) = (self.kv.clone(), key.to_string());
            let entry = self
                .store
                .block(async move { kv.entry(k).await })?
                .map_err(|e| self.store.lost("cannot read a shared record", e))?;
            let revision = entry.as_ref().map_or(0, |e| e.revision);
            let current = entry.as_ref().filter(|e| e.operation == kv::Operation::Put).map(|e| &e.value[..]);
            let (kv, k) = (self.kv.clone(), key.to_string());
            let written = match change(current) {
                Change::Keep => return Ok(()),
                Change::Delete if current.is_none() => return Ok(()),
                Change::Put(value) => self
                    .store
                    .block(async move { kv.update(k, value.into(), revision).await.map(|_| ()) })?
                    .map_err(|e| (e.kind() == kv::UpdateErrorKind::WrongLastRevision, e.to_string())),
                Change::Delete => self
                    .store
                    .block(async move { kv.delete_expect_revision(k, Some(revision)).await })?
                    .map_err(|e| (e.to_string().contains("wrong last sequence"), e.to_string())),
            };
            match written {
                Ok(()) => return Ok(()),
                // Another writer changed it in between: judge again on its record.
                Err((true, _)) => continue,
                Err((false, e)) => return Err(self.store.lost("cannot write a shared record", e)),
            }
        }
        Err(StoreError::Unavailable {
            location: self.store.location.clone(),
            reason: format!("the shared record {key} kept changing under this update ({UPDATE_TRIES} tries); retry"),
        })
    }

    fn keys(&self) -> Result<Vec<String>, StoreError> {
        let kv = self.kv.clone();
        let keys = self.store.block(async move {
            let keys = kv.keys().await.map_err(|e| e.to_string())?;
            keys.try_collect::<Vec<String>>().await.map_err(|e| e.to_string())
        })?;
        let mut keys = keys.map_err(|e| self.store.lost("cannot list the shared records", e))?;
        keys.sort_unstable();
        Ok(keys)
    }
}

#[cfg(test)]
mod tests {
    use super::{keep_start, says_cut_off, KEPT_STARTS};

    #[test]
    fn a_publish_nobody_answered_is_unavailable_and_a_refusal_is_not() {
        // async-nats 0.42's words for a publish answered "503 no responders", a timeout, a drop.
        for text in ["ack error: no stream found for given subject", "ack error: timed out", "broken pipe"] {
            assert!(says_cut_off(text), "{text}");
        }
        for text in ["ack error: wrong last sequence: 7", "insufficient resources", "maximum payload exceeded"] {
            assert!(!says_cut_off(text), "{text}");
        }
    }

    #[test]
    fn chunk_starts_stay_bounded_spread_evenly_and_keep_the_tail() {
        let mut list = Vec::new();
        for chunk in 0..10_000u64 {
            keep_start(&mut list, (chunk * 3, chunk + 1));
            assert!(list.len() <= KEPT_STARTS, "{} starts kept", list.len());
            assert_eq!(list.last(), Some(&(chunk * 3, chunk + 1)), "the newest start is kept");
        }
        assert_eq!(list.len(), KEPT_STARTS);
        assert_eq!(list[0], (0, 1), "the first start is kept");
        assert!(list.windows(2).all(|w| w[0] < w[1]), "ascending, no duplicates");
        // 30,000 events over 256 starts: an even spread leaves gaps of about 118 events.
        let widest = list.windows(2).map(|w| w[1].0 - w[0].0).max().unwrap_or(0);
        assert!(widest <= 2 * 30_000 / KEPT_STARTS as u64, "the widest gap is {widest} events");
        // Reading an old part again offers its starts again: the spread stays, nothing twice.
        for chunk in 4_000..4_100u64 {
            keep_start(&mut list, (chunk * 3, chunk + 1));
            keep_start(&mut list, (chunk * 3, chunk + 1));
        }
        assert_eq!(list.len(), KEPT_STARTS);
        assert!(list.windows(2).all(|w| w[0] < w[1]), "ascending, no duplicates");
        assert_eq!(list.last(), Some(&(29_997, 10_000)), "the newest start is kept");
    }
}
