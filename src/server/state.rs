//! The server's shared state: the store handle, caches of opened games and tournaments keyed by
//! their head (a cached entry is used only while the stream's head is unchanged, so a cache can
//! never serve a stale or forked log), the live feeds, the tokens and pending result reports
//! (in the store's shared records when several servers share it, else in files).
//!
//! Every request reads the stream's head from the store, so a game appended through another
//! server is served at its new head. When the store cannot be reached (a server cut off from its
//! cluster), what is cached is served as it was, the answer marked `Kifu-Stale: true` (see
//! [`stale_marker`]); what is not cached, and every write, is 503. The next request that reaches
//! the store is served fresh again: nothing needs restarting.
//!
//! A game stays open as it grows: its session is extended by the events appended after its head
//! (verified link by link), never refolded. Both caches are bounded together by an LRU over the
//! bytes each open entry holds (`--cache-mb`).

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, RwLock, RwLockReadGuard};
use std::time::SystemTime;

use serde::{Deserialize, Serialize};

use super::error::{AppError, AppResult};
use super::tokens::{self, Book, Grant, TokenError};
use crate::clock::Clock;
use crate::game::audit::AuditReport;
use crate::game::driver::{Driver, Session, TimelineEntry};
use crate::game::{BoardView, Outcome, Position, Viewer};
use crate::log::chain::Head;
use crate::log::envelope::{MatchBinding, StreamId, StreamKind};
use crate::log::hash::Hash32;
use crate::store::{AppendRequest, Appended, Change, Records, Store, StoreError, Table};
use crate::tournament::record::{self, Loaded};
use crate::tournament::verify::{self, Report};

/// How the server is set up beyond its store.
#[derive(Clone, Debug, Default)]
pub struct ServerConfig {
    /// The token file (`tokens::path(data_dir)`); `None` means no token is valid.
    pub tokens: Option<PathBuf>,
    /// Where pending (unconfirmed) result reports are kept across restarts; `None`: memory only.
    pub pending: Option<PathBuf>,
    /// The bound on the bytes of opened games and tournaments kept in memory; `None` means
    /// [`DEFAULT_CACHE_MB`].
    pub cache_bytes: Option<usize>,
    /// The data directory whose `tournament-seeds/` holds organizers' secret pairing seeds;
    /// `None`: the server cannot pair or finalize (the CLI does).
    pub seeds: Option<PathBuf>,
}

/// The default cache bound: room for a few hundred live games on a small VPS.
pub const DEFAULT_CACHE_MB: u16 = 128;

/// A game's session, kept open across heads and extended as the game grows. Everything read
/// through an [`OpenGame`] is clipped to that game's head, so a handler sees one consistent
/// prefix even while a write extends the session.
pub type LiveSession = Arc<RwLock<Box<dyn Session>>>;

/// A game opened for replay at one head.
pub struct OpenGame {
    pub id: StreamId,
    pub head: Head,
    pub header_hash: Hash32,
    pub ruleset: String,
    pub players: Vec<String>,
    pub created_at: String,
    /// The match the game was created bound to (its hashed header): who may see and record it.
    pub bound: Option<MatchBinding>,
    /// The outcome at the head; `None` while the game is live.
    pub outcome: Option<Outcome>,
    pub session: SessionAt,
    pub driver: &'static dyn Driver,
}

/// The shared session read at one head.
pub struct SessionAt {
    live: LiveSession,
    len: u64,
}

impl SessionAt {
    fn read(&self) -> RwLockReadGuard<'_, Box<dyn Session>> {
        // A panic inside a fold leaves the session at its last whole step: still a valid prefix.
        self.live.read().unwrap_or_else(|p| p.into_inner())
    }

    /// The shared session, for writes (which extend it) and per-viewer timelines.
    pub fn live(&self) -> &LiveSession {
        &self.live
    }

    pub fn position_at(&self, n: u64) -> Position {
        self.read().position_at(n.min(self.len))
    }

    pub fn board(&self, n: u64, viewer: Viewer) -> BoardView {
        self.read().board(n.min(self.len), viewer)
    }

    pub fn describe(&self, seq: u64, viewer: Viewer) -> Option<TimelineEntry> {
        if seq >= self.len {
            return None;
        }
        self.read().describe(seq, viewer)
    }

    pub fn seek_turn(&self, turn: u32, phase: Option<&str>) -> Option<u64> {
        self.read().seek_turn(turn, phase).filter(|n| *n <= self.len)
    }
}

impl OpenGame {
    pub fn len(&self) -> u64 {
        self.head.len
    }

    pub fn is_empty(&self) -> bool {
        self.head.len == 0
    }

    pub fn finished(&self) -> bool {
        self.outcome.is_some()
    }

    /// Events `from..to` (clipped to this head) described for `viewer`: the session keeps one
    /// timeline per viewer and extends it, so a follower never refolds the game.
    pub fn timeline_range(&self, viewer: Viewer, from: u64, to: u64) -> Vec<TimelineEntry> {
        let mut live = self.session.live.write().unwrap_or_else(|p| p.into_inner());
        live.timeline_range(viewer, from, to.min(self.head.len))
    }

    /// The audit at the session's head (at least this head): kept by the session and extended.
    pub fn audit(&self) -> AuditReport {
        self.session.live.write().unwrap_or_else(|p| p.into_inner()).audit()
    }
}

/// A tournament loaded at one head, with what its pages need precomputed.
pub struct OpenTournament {
    pub id: StreamId,
    pub loaded: Loaded,
    /// Every game the tournament links, with the head its (last) report recorded.
    pub linked: BTreeMap<String, Hash32>,
    /// The standings response, serialized once per head.
    pub standings_json: axum::body::Bytes,
    verify: tokio::sync::OnceCell<Arc<Report>>,
}

impl OpenTournament {
    pub fn head(&self) -> Head {
        self.loaded.head
    }

    /// Roughly the heap bytes it holds: its events as folded, and the standings it serves.
    fn approx_bytes(&self) -> usize {
        usize::try_from(self.loaded.head.len).unwrap_or(usize::MAX).saturating_mul(512)
            + self.linked.len() * 128
            + self.standings_json.len()
    }
}

/// A pending result report: a player reported it, their opponent has not confirmed it yet.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PendingReport {
    pub tournament: String,
    pub round: u32,
    pub table: u32,
    /// W-L-D from the first-listed player's side.
    pub score: String,
    pub games: Vec<String>,
    pub reported_by: String,
    /// Set when the opponent answered with a different score: a judge decides.
    pub disputed: Option<String>,
}

/// A pending pod report: a pod player reported its places; the other players of the pod confirm
/// it one by one. Kept apart from [`PendingReport`] (its own file and shared table), so neither
/// stored shape ever changes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PendingPodReport {
    pub tournament: String,
    pub round: u32,
    pub pod: u32,
    /// Each seat's place in seat order (1 best, a shared place repeated).
    pub places: Vec<u32>,
    pub games: Vec<String>,
    pub reported_by: String,
    /// The pod players who confirmed it so far, in the order they did.
    pub confirmed_by: Vec<String>,
    /// Set when a pod player disagreed (who said what): a judge decides.
    pub disputed: Option<String>,
}

/// A kind of pending report: where a shared store keeps it, where a lone server keeps it, and
/// the result it waits for (tournament, round, table or pod). The one store code serves both.
pub trait Pending: Clone + Serialize + serde::de::DeserializeOwned {
    /// The shared records it is kept in.
    const TABLE: Table;
    /// Its file beside the server's pending-results file.
    fn file(pending: &std::path::Path) -> PathBuf;
    /// The memory list of a server without shared records.
    fn memory(state: &AppState) -> &Mutex<Vec<Self>>;
    /// The tournament, round and table (or pod) it is a report for.
    fn at(&self) -> (&str, u32, u32);
}

impl Pending for PendingReport {
    const TABLE: Table = Table::PendingResults;
    fn file(pending: &std::path::Path) -> PathBuf {
        pending.to_path_buf()
    }
    fn memory(state: &AppState) -> &Mutex<Vec<Self>> {
        &state.0.pending
    }
    fn at(&self) -> (&str, u32, u32) {
        (&self.tournament, self.round, self.table)
    }
}

impl Pending for PendingPodReport {
    const TABLE: Table = Table::PendingPodResults;
    fn file(pending: &std::path::Path) -> PathBuf {
        pending.with_file_name("pending-pod-results.json")
    }
    fn memory(state: &AppState) -> &Mutex<Vec<Self>> {
        &state.0.pod_pending
    }
    fn at(&self) -> (&str, u32, u32) {
        (&self.tournament, self.round, self.pod)
    }
}

type Slot<T> = Arc<tokio::sync::Mutex<Option<Arc<T>>>>;

struct Inner {
    store: Arc<dyn Store>,
    clock: Arc<dyn Clock>,
    config: ServerConfig,
    cache: Mutex<Lru>,
    feeds: super::feeds::Feeds,
    tokens: Mutex<(Option<FileStamp>, HashMap<String, Grant>)>,
    /// Grants this server found valid in the store's shared records lately (bounded): used only
    /// while the store cannot be reached, so cached pages stay readable with a token.
    seen_grants: Mutex<HashMap<String, Grant>>,
    /// The pending reports of a store without shared records (kept in `config.pending`).
    pending: Mutex<Vec<PendingReport>>,
    /// The pending pod reports of a store without shared records.
    pod_pending: Mutex<Vec<PendingPodReport>>,
}

/// What tells one version of the token file from another: its inode too, since every save
/// renames a new file over it and two saves may fall within one tick of the file system's
/// clock (an issue, then a revoke, with one modification time: the revoke went unseen).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct FileStamp {
    modified: Option<SystemTime>,
    inode: u64,
    len: u64,
}

impl FileStamp {
    fn of(m: &std::fs::Metadata) -> Self {
        use std::os::unix::fs::MetadataExt;
        FileStamp { modified: m.modified().ok(), inode: m.ino(), len: m.len() }
    }
}

/// How many recently checked grants a server remembers for when its store cannot be reached.
const SEEN_GRANTS: usize = 4096;

tokio::task_local! {
    /// Set when a request's answer used a cached entry the store could not confirm.
    static STALE: std::cell::Cell<bool>;
}

/// Marks the answer of every request that was served from the cache while the store could not
/// be reached with `Kifu-Stale: true` (the pages show it; scripts can check it).
pub async fn stale_marker(req: axum::extract::Request, next: axum::middleware::Next) -> axum::response::Response {
    STALE
        .scope(std::cell::Cell::new(false), async move {
            let mut resp = next.run(req).await;
            if STALE.with(|s| s.get()) {
                resp.headers_mut().insert("kifu-stale", axum::http::HeaderValue::from_static("true"));
            }
            resp
        })
        .await
}

fn mark_stale() {
    // Outside a request (a live feed) there is no answer to mark.
    let _ = STALE.try_with(|s| s.set(true));
}

/// The key of a pending report in the shared records: `<tournament>.<round>.<table>`, with the
/// tournament id's dots written `=` (a key's dots separate its parts).
fn pending_key(tournament: &str, round: u32, table: u32) -> String {
    format!("{}.{round}.{table}", tournament.replace('.', "="))
}

/// The state every handler shares (cheap to clone).
#[derive(Clone)]
pub struct AppState(Arc<Inner>);

/// The cache key and query-string form of a viewer: `spectator`, `judge` or `seat:N`.
pub fn viewer_key(v: Viewer) -> String {
    match v {
        Viewer::Spectator => "spectator".into(),
        Viewer::Judge => "judge".into(),
        Viewer::Player(s) => format!("seat:{s}"),
    }
}

/// Parses a viewer key (see [`viewer_key`]).
pub fn parse_viewer(s: &str) -> AppResult<Viewer> {
    match s {
        "spectator" | "" => Ok(Viewer::Spectator),
        "judge" => Ok(Viewer::Judge),
        _ => s.strip_prefix("seat:").and_then(|n| n.parse::<u8>().ok()).map(Viewer::Player).ok_or_else(|| {
            let quoted = crate::log::quote_prefix(s);
            AppError::BadRequest(format!("as= is spectator, judge or seat:N, not {quoted:?}"))
        }),
    }
}

impl AppState {
    pub fn new(store: Arc<dyn Store>, clock: Arc<dyn Clock>, config: ServerConfig) -> Self {
        let pending = config.pending.as_deref().map(load_pending).unwrap_or_default();
        let pod_pending = config.pending.as_deref().map(load_pending).unwrap_or_default();
        AppState(Arc::new(Inner {
            store,
            clock,
            cache: Mutex::new(Lru::new(config.cache_bytes.unwrap_or(usize::from(DEFAULT_CACHE_MB) << 20))),
            feeds: super::feeds::Feeds::default(),
            tokens: Mutex::new((None, HashMap::new())),
            seen_grants: Mutex::new(HashMap::new()),
            pending: Mutex::new(pending),
            pod_pending: Mutex::new(pod_pending),
            config,
        }))
    }

    pub fn store(&self) -> &Arc<dyn Store> {
        &self.0.store
    }

    /// The data directory holding tournament seeds, if the server has one.
    pub fn seeds(&self) -> Option<&PathBuf> {
        self.0.config.seeds.as_ref()
    }

    pub fn clock(&self) -> &Arc<dyn Clock> {
        &self.0.clock
    }

    /// The live feeds (one per followed stream and viewer, see [`super::feeds`]).
    pub(super) fn feeds(&self) -> &super::feeds::Feeds {
        &self.0.feeds
    }

    /// Appends through the server's own store handle (tests, benchmarks, importers). Live
    /// followers learn of it from the store's watch, as of any other server's appends.
    pub async fn append(&self, request: AppendRequest) -> AppResult<Appended> {
        let store = self.0.store.clone();
        Ok(tokio::task::spawn_blocking(move || store.append(request)).await??)
    }

    /// The grant of a presented token: from the store's shared records when it has them (one
    /// lookup per request, so a revoke through any server holds at once), else from the token
    /// file, re-read when it changed.
    pub fn grant(&self, token: &str) -> AppResult<Option<Grant>> {
        self.grant_by_hash(tokens::hash(token))
    }

    /// The grant of the token whose hash is `hash`, if it is still valid: as [`AppState::grant`]
    /// (open live streams re-check their caller's grant with it, see [`super::feeds`]).
    pub fn grant_by_hash(&self, hash: String) -> AppResult<Option<Grant>> {
        let shared = match self.0.store.records(Table::Tokens) {
            Ok(Some(records)) => Book::Shared(records).lookup(&hash),
            Ok(None) => return self.file_grant(&hash),
            Err(e) => Err(TokenError::Store(e)),
        };
        let mut seen = self.0.seen_grants.lock().unwrap_or_else(|p| p.into_inner());
        match shared {
            Ok(Some(g)) => {
                if seen.len() >= SEEN_GRANTS {
                    seen.clear();
                }
                seen.insert(hash, g.clone());
                Ok(Some(g))
            }
            Ok(None) => {
                seen.remove(&hash);
                Ok(None)
            }
            Err(TokenError::Store(StoreError::Unavailable { .. })) => match seen.get(&hash) {
                Some(g) => {
                    mark_stale();
                    Ok(Some(g.clone()))
                }
                None => Err(AppError::Unavailable(
                    "tokens cannot be checked right now: the store cannot be reached; retry shortly".into(),
                )),
            },
            Err(e) => {
                eprintln!("kifu serve: {e}");
                Err(AppError::Unavailable(
                    "tokens cannot be checked right now: the shared tokens are unreadable".into(),
                ))
            }
        }
    }

    fn file_grant(&self, hash: &str) -> AppResult<Option<Grant>> {
        let Some(path) = &self.0.config.tokens else { return Ok(None) };
        let stamp = std::fs::metadata(path).ok().map(|m| FileStamp::of(&m));
        let mut cache = self.0.tokens.lock().map_err(|_| AppError::Internal("token cache poisoned".into()))?;
        if cache.0.is_none() || cache.0 != stamp {
            let file = tokens::load(path).map_err(|e| {
                // The operator reads where and why; a client learns nothing about the server's files.
                eprintln!("kifu serve: {e}");
                AppError::Unavailable(
                    "tokens cannot be checked right now: the server's token file is unreadable".into(),
                )
            })?;
            cache.1 = file.tokens.into_iter().map(|g| (g.hash.clone(), g)).collect();
            cache.0 = stamp;
        }
        Ok(cache.1.get(hash).cloned())
    }

    /// The head of `sid` from the store; `Ok(None)` when the store cannot be reached now.
    fn head_or_unreachable(&self, sid: &StreamId) -> AppResult<Option<Head>> {
        match self.0.store.head(sid) {
            Ok(h) => Ok(Some(h)),
            // Cannot be reached now: the caller answers from its cache, or 503.
            Err(StoreError::Unavailable { .. }) => Ok(None),
            Err(e) => Err(e.into()),
        }
    }

    fn cache(&self) -> AppResult<std::sync::MutexGuard<'_, Lru>> {
        self.0.cache.lock().map_err(|_| AppError::Internal("cache poisoned".into()))
    }

    /// The bytes the cached games and tournaments hold, as accounted, and how many are cached.
    pub fn cache_usage(&self) -> (usize, usize) {
        self.0.cache.lock().map(|c| (c.used, c.map.len())).unwrap_or_default()
    }

    /// The game at its current head. A game already open is extended by the events appended
    /// since (off the async threads); concurrent requests for a new head wait for one extension
    /// instead of each doing it. A game whose log no longer extends its open head is reopened.
    pub async fn game(&self, id: &str) -> AppResult<Arc<OpenGame>> {
        let sid = stream_id(id)?;
        let head = self.head_or_unreachable(&sid)?;
        let slot = self.cache()?.games(id);
        let mut guard = slot.lock().await;
        let Some(head) = head else {
            mark_stale();
            return guard.clone().ok_or_else(|| not_cached("game", id));
        };
        if let Some(g) = guard.as_ref() {
            if g.head == head {
                return Ok(g.clone());
            }
        }
        let store = self.0.store.clone();
        let previous = guard.clone();
        let opened = tokio::task::spawn_blocking(move || -> AppResult<(OpenGame, usize)> {
            if let Some(g) = previous.filter(|g| g.head.len < head.len) {
                if let Ok(extended) = extend_game(&g, &*store) {
                    return Ok(extended);
                }
            }
            open_game(&*store, sid)
        })
        .await??;
        let (opened, bytes) = opened;
        let opened = Arc::new(opened);
        *guard = Some(opened.clone());
        drop(guard);
        self.cache()?.account(&format!("g:{id}"), bytes);
        Ok(opened)
    }

    /// Accounts what an open game holds now (its timelines and audit grow after it is opened).
    pub fn reaccount(&self, g: &OpenGame) {
        let bytes = g.session.read().approx_bytes();
        if let Ok(mut c) = self.0.cache.lock() {
            c.account(&format!("g:{}", g.id), bytes);
        }
    }

    /// The tournament at its current head, loaded once per head.
    pub async fn tournament(&self, id: &str) -> AppResult<Arc<OpenTournament>> {
        let sid = stream_id(id)?;
        let head = self.head_or_unreachable(&sid)?;
        let slot = self.cache()?.tournaments(id);
        let mut guard = slot.lock().await;
        let Some(head) = head else {
            mark_stale();
            return guard.clone().ok_or_else(|| not_cached("tournament", id));
        };
        if let Some(t) = guard.as_ref() {
            if t.head() == head {
                return Ok(t.clone());
            }
        }
        let store = self.0.store.clone();
        let opened = tokio::task::spawn_blocking(move || open_tournament(&*store, sid)).await??;
        let bytes = opened.approx_bytes();
        let opened = Arc::new(opened);
        *guard = Some(opened.clone());
        drop(guard);
        self.cache()?.account(&format!("t:{id}"), bytes);
        Ok(opened)
    }

    /// The verification report of a tournament at its current head (computed once per head:
    /// it audits every linked game).
    pub async fn tournament_report(&self, t: &Arc<OpenTournament>) -> AppResult<Arc<Report>> {
        let store = self.0.store.clone();
        let id = t.id.clone();
        t.verify
            .get_or_try_init(|| async move {
                let r =
                    tokio::task::spawn_blocking(move || verify::verify(&*store, &id, &crate::games::driver)).await??;
                Ok::<_, AppError>(Arc::new(r))
            })
            .await
            .cloned()
    }

    /// The store's shared pending reports of kind `T`, if it has them.
    fn shared_pending<T: Pending>(&self) -> AppResult<Option<Box<dyn Records + '_>>> {
        Ok(self.0.store.records(T::TABLE)?)
    }

    fn file_pending<T: Pending>(&self) -> AppResult<std::sync::MutexGuard<'_, Vec<T>>> {
        T::memory(self).lock().map_err(|_| AppError::Internal("pending reports poisoned".into()))
    }

    /// The reports of `tournament` waiting for confirmation, by round and table (or pod).
    pub fn pending_of<T: Pending>(&self, tournament: &str) -> AppResult<Vec<T>> {
        let Some(records) = self.shared_pending::<T>()? else {
            return Ok(self.file_pending::<T>()?.iter().filter(|p| p.at().0 == tournament).cloned().collect());
        };
        let prefix = format!("{}.", tournament.replace('.', "="));
        let mut out: Vec<T> = Vec::new();
        for key in records.keys()?.into_iter().filter(|k| k.starts_with(&prefix)) {
            if let Some(p) = records.get(&key)?.as_deref().map(parse_report::<T>).transpose()? {
                if p.at().0 == tournament {
                    out.push(p);
                }
            }
        }
        out.sort_by_key(|p| (p.at().1, p.at().2));
        Ok(out)
    }

    /// The pending report of one table (or pod), if any.
    pub fn pending_report<T: Pending>(&self, tournament: &str, round: u32, table: u32) -> AppResult<Option<T>> {
        let Some(records) = self.shared_pending::<T>()? else {
            let list = self.file_pending::<T>()?;
            return Ok(list.iter().find(|p| p.at() == (tournament, round, table)).cloned());
        };
        records.get(&pending_key(tournament, round, table))?.as_deref().map(parse_report::<T>).transpose()
    }

    /// Keeps `report` as its table's (or pod's) pending report (replacing an earlier one).
    pub fn set_pending<T: Pending>(&self, report: &T) -> AppResult<()> {
        let (tournament, round, table) = report.at();
        let Some(records) = self.shared_pending::<T>()? else {
            let mut list = self.file_pending::<T>()?;
            list.retain(|p| p.at() != (tournament, round, table));
            list.push(report.clone());
            return self.save_pending(&list);
        };
        let bytes = serde_json::to_vec(report).map_err(|e| AppError::Internal(e.to_string()))?;
        let key = pending_key(tournament, round, table);
        Ok(records.update(&key, &mut |_| Change::Put(bytes.clone()))?)
    }

    /// Forgets the pending report of one table (or pod): its result was recorded.
    pub fn drop_pending<T: Pending>(&self, tournament: &str, round: u32, table: u32) -> AppResult<()> {
        let Some(records) = self.shared_pending::<T>()? else {
            let mut list = self.file_pending::<T>()?;
            list.retain(|p| p.at() != (tournament, round, table));
            return self.save_pending(&list);
        };
        Ok(records.update(&pending_key(tournament, round, table), &mut |_| Change::Delete)?)
    }

    /// Writes the pending reports of kind `T` to their file, if the server has one.
    fn save_pending<T: Pending>(&self, list: &[T]) -> AppResult<()> {
        let Some(p) = self.0.config.pending.as_deref().map(T::file) else { return Ok(()) };
        let text = serde_json::to_string_pretty(list).map_err(|e| AppError::Internal(e.to_string()))?;
        if let Some(d) = p.parent() {
            crate::store::private_dir(d).map_err(|e| AppError::Internal(e.to_string()))?;
        }
        crate::store::write_private_atomic(&p, text.as_bytes()).map_err(|e| {
            eprintln!("kifu serve: cannot write {}: {e}", p.display());
            if e.kind() == std::io::ErrorKind::StorageFull {
                return AppError::disk_full();
            }
            AppError::Internal("cannot save the pending reports".into())
        })
    }
}

fn parse_report<T: Pending>(bytes: &[u8]) -> AppResult<T> {
    serde_json::from_slice(bytes)
        .map_err(|e| AppError::Internal(format!("a shared pending report does not parse: {e}")))
}

/// The answer for a game or tournament that is not cached while the store cannot be reached.
fn not_cached(what: &str, id: &str) -> AppError {
    AppError::Unavailable(format!(
        "the store cannot be reached and this server has no copy of {what} {id:?}; retry shortly"
    ))
}

/// The pending reports saved in `path`. A file that does not parse is never silently dropped:
/// it is moved aside to `NAME.unreadable` (kept for the operator) and the server says so.
fn load_pending<T: Pending>(pending: &std::path::Path) -> Vec<T> {
    let path = &T::file(pending);
    let Ok(text) = std::fs::read_to_string(path) else { return Vec::new() };
    match serde_json::from_str(&text) {
        Ok(list) => list,
        Err(e) => {
            let aside = path.with_extension("json.unreadable");
            let moved = std::fs::rename(path, &aside);
            eprintln!(
                "kifu serve: {} does not parse ({e}); {}; starting with no pending reports",
                path.display(),
                match moved {
                    Ok(()) => format!("kept it as {}", aside.display()),
                    Err(m) => format!("could not move it aside ({m})"),
                }
            );
            Vec::new()
        }
    }
}

pub fn stream_id(id: &str) -> AppResult<StreamId> {
    StreamId::new(id).map_err(|e| AppError::BadRequest(e.to_string()))
}

fn open_game(store: &dyn Store, id: StreamId) -> AppResult<(OpenGame, usize)> {
    let log = store.export(&id)?;
    let h = log.header.v1();
    if h.kind != StreamKind::Game {
        return Err(AppError::NotFound(format!("stream {id} is a {} stream, not a game", h.kind)));
    }
    let driver = crate::games::driver(&h.ruleset)
        .ok_or_else(|| AppError::BadRequest(format!("this build cannot replay {:?} games", h.ruleset)))?;
    let session = driver.open(&log)?;
    let bytes = session.approx_bytes();
    let outcome = session.board(session.len(), Viewer::Judge).outcome;
    Ok((
        OpenGame {
            id,
            head: log.head,
            header_hash: crate::log::chain::header_hash(&log.header_bytes),
            ruleset: h.ruleset.clone(),
            players: session.players(),
            created_at: h.created_at.to_rfc3339(),
            bound: log.header.bound().cloned(),
            outcome,
            session: SessionAt { len: log.head.len, live: Arc::new(RwLock::new(session)) },
            driver,
        },
        bytes,
    ))
}

/// The same game at the store's newer head: its session extended by the new events only.
fn extend_game(g: &OpenGame, store: &dyn Store) -> AppResult<(OpenGame, usize)> {
    let mut live = g.session.live.write().unwrap_or_else(|p| p.into_inner());
    live.catch_up(store)?;
    let head = live.head();
    let outcome = live.board(head.len, Viewer::Judge).outcome;
    let bytes = live.approx_bytes();
    drop(live);
    Ok((
        OpenGame {
            id: g.id.clone(),
            head,
            header_hash: g.header_hash,
            ruleset: g.ruleset.clone(),
            players: g.players.clone(),
            created_at: g.created_at.clone(),
            bound: g.bound.clone(),
            outcome,
            session: SessionAt { live: g.session.live.clone(), len: head.len },
            driver: g.driver,
        },
        bytes,
    ))
}

/// The open games and tournaments, least recently used first out once their bytes pass the
/// bound. An evicted entry stays alive for the requests holding it and is then freed.
struct Lru {
    cap: usize,
    used: usize,
    tick: u64,
    /// key ("g:ID" or "t:ID") → (last use, bytes, the slot).
    map: HashMap<String, (u64, usize, Entry)>,
    order: BTreeMap<u64, String>,
}

#[derive(Clone)]
enum Entry {
    Game(Slot<OpenGame>),
    Tournament(Slot<OpenTournament>),
}

impl Lru {
    fn new(cap: usize) -> Self {
        Lru { cap, used: 0, tick: 0, map: HashMap::new(), order: BTreeMap::new() }
    }

    /// The entry under `key`, created by `make` if absent, marked as just used.
    fn touch(&mut self, key: String, make: impl FnOnce() -> Entry) -> Entry {
        self.tick += 1;
        let tick = self.tick;
        let e = self.map.entry(key.clone()).or_insert_with(|| (0, 0, make()));
        self.order.remove(&e.0);
        e.0 = tick;
        let entry = e.2.clone();
        self.order.insert(tick, key);
        entry
    }

    fn games(&mut self, id: &str) -> Slot<OpenGame> {
        match self.touch(format!("g:{id}"), || Entry::Game(Slot::default())) {
            Entry::Game(s) => s,
            // Keys are prefixed by kind, so this arm is unreachable; a fresh slot is still right.
            Entry::Tournament(_) => Slot::default(),
        }
    }

    fn tournaments(&mut self, id: &str) -> Slot<OpenTournament> {
        match self.touch(format!("t:{id}"), || Entry::Tournament(Slot::default())) {
            Entry::Tournament(s) => s,
            Entry::Game(_) => Slot::default(),
        }
    }

    /// Records what `key` holds now, then evicts the least recently used entries (possibly
    /// `key` itself, when it alone passes the bound) until the total fits.
    fn account(&mut self, key: &str, bytes: usize) {
        if let Some(e) = self.map.get_mut(key) {
            self.used = self.used - e.1 + bytes;
            e.1 = bytes;
        }
        while self.used > self.cap {
            let Some((_, oldest)) = self.order.pop_first() else { break };
            if let Some((_, b, _)) = self.map.remove(&oldest) {
                self.used -= b;
            }
        }
    }
}

fn open_tournament(store: &dyn Store, id: StreamId) -> AppResult<OpenTournament> {
    let loaded = record::load(store, &id)?;
    let linked = verify::linked_games(&loaded);
    let standings = super::standings::standings_body(&loaded);
    let standings_json = serde_json::to_vec(&standings).map_err(|e| AppError::Internal(e.to_string()))?.into();
    Ok(OpenTournament { id, loaded, linked, standings_json, verify: tokio::sync::OnceCell::new() })
}
