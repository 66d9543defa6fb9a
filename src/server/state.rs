//! The server's shared state: the store handle, caches of opened games and tournaments keyed by
//! their head (a cached entry is used only while the stream's head is unchanged, so a cache can
//! never serve a stale or forked log), the per-stream live-event channels and feeds, and pending
//! result reports.
//!
//! A game stays open as it grows: its session is extended by the events appended after its head
//! (verified link by link), never refolded. Both caches are bounded together by an LRU over the
//! bytes each open entry holds (`--cache-mb`).

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, RwLock, RwLockReadGuard};
use std::time::SystemTime;

use serde::{Deserialize, Serialize};
use tokio::sync::broadcast;

use super::error::{AppError, AppResult};
use super::tokens::{self, Grant};
use crate::clock::Clock;
use crate::game::audit::AuditReport;
use crate::game::driver::{Driver, Session, TimelineEntry};
use crate::game::{BoardView, Outcome, Position, Viewer};
use crate::log::chain::Head;
use crate::log::envelope::{StreamId, StreamKind};
use crate::log::hash::Hash32;
use crate::store::{AppendRequest, Appended, Store};
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

type Slot<T> = Arc<tokio::sync::Mutex<Option<Arc<T>>>>;

struct Inner {
    store: Arc<dyn Store>,
    clock: Arc<dyn Clock>,
    config: ServerConfig,
    cache: Mutex<Lru>,
    /// One notice channel per stream someone follows live: the stream's new length.
    live: Mutex<HashMap<String, broadcast::Sender<u64>>>,
    feeds: super::live::Feeds,
    tokens: Mutex<(Option<SystemTime>, HashMap<String, Grant>)>,
    pending: Mutex<Vec<PendingReport>>,
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
        AppState(Arc::new(Inner {
            store,
            clock,
            cache: Mutex::new(Lru::new(config.cache_bytes.unwrap_or(usize::from(DEFAULT_CACHE_MB) << 20))),
            live: Mutex::new(HashMap::new()),
            feeds: super::live::Feeds::default(),
            tokens: Mutex::new((None, HashMap::new())),
            pending: Mutex::new(pending),
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

    fn channels(&self) -> std::sync::MutexGuard<'_, HashMap<String, broadcast::Sender<u64>>> {
        // The map only holds senders: after a panic elsewhere it is still consistent.
        self.0.live.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Follows appends to one stream (its new lengths): only that stream's appends wake it.
    pub fn subscribe(&self, stream: &str) -> broadcast::Receiver<u64> {
        self.channels().entry(stream.to_string()).or_insert_with(|| broadcast::channel(64).0).subscribe()
    }

    /// The live feeds (one per followed stream and viewer, see [`super::live`]).
    pub(super) fn feeds(&self) -> &super::live::Feeds {
        &self.0.feeds
    }

    /// Tells live followers that `stream` grew. Every write the server performs calls this.
    pub fn notify(&self, stream: &str, len: u64) {
        let mut channels = self.channels();
        if let Some(tx) = channels.get(stream) {
            // Nobody follows it any more: drop its channel (a new follower makes a new one).
            if tx.send(len).is_err() {
                channels.remove(stream);
            }
        }
    }

    /// Appends through the server's own store handle and announces it: the way to feed a live
    /// game from inside the server's process (tests, benchmarks, importers).
    pub async fn append(&self, request: AppendRequest) -> AppResult<Appended> {
        let store = self.0.store.clone();
        let appended = tokio::task::spawn_blocking(move || store.append(request)).await??;
        self.notify(appended.stream.as_str(), appended.head.len);
        Ok(appended)
    }

    /// The grant of a presented token, re-reading the token file when it changed.
    pub fn grant(&self, token: &str) -> AppResult<Option<Grant>> {
        let Some(path) = &self.0.config.tokens else { return Ok(None) };
        let mtime = std::fs::metadata(path).and_then(|m| m.modified()).ok();
        let mut cache = self.0.tokens.lock().map_err(|_| AppError::Internal("token cache poisoned".into()))?;
        if cache.0.is_none() || cache.0 != mtime {
            let file = tokens::load(path).map_err(|e| {
                // The operator reads where and why; a client learns nothing about the server's files.
                eprintln!("kifu serve: {e}");
                AppError::Unavailable(
                    "tokens cannot be checked right now: the server's token file is unreadable".into(),
                )
            })?;
            cache.1 = file.tokens.into_iter().map(|g| (g.hash.clone(), g)).collect();
            cache.0 = mtime;
        }
        Ok(cache.1.get(&tokens::hash(token)).cloned())
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
        let head = self.0.store.head(&sid)?;
        let slot = self.cache()?.games(id);
        let mut guard = slot.lock().await;
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
        let head = self.0.store.head(&sid)?;
        let slot = self.cache()?.tournaments(id);
        let mut guard = slot.lock().await;
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

    pub fn pending(&self) -> AppResult<std::sync::MutexGuard<'_, Vec<PendingReport>>> {
        self.0.pending.lock().map_err(|_| AppError::Internal("pending reports poisoned".into()))
    }

    /// Writes the pending reports to their file, if the server has one.
    pub fn save_pending(&self, list: &[PendingReport]) -> AppResult<()> {
        let Some(p) = &self.0.config.pending else { return Ok(()) };
        let text = serde_json::to_string_pretty(list).map_err(|e| AppError::Internal(e.to_string()))?;
        if let Some(d) = p.parent() {
            crate::store::private_dir(d).map_err(|e| AppError::Internal(e.to_string()))?;
        }
        crate::store::write_private_atomic(p, text.as_bytes()).map_err(|e| {
            eprintln!("kifu serve: cannot write {}: {e}", p.display());
            AppError::Internal("cannot save the pending reports".into())
        })
    }
}

/// The pending reports saved in `path`. A file that does not parse is never silently dropped:
/// it is moved aside to `NAME.unreadable` (kept for the operator) and the server says so.
fn load_pending(path: &std::path::Path) -> Vec<PendingReport> {
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
    let standings = super::tournaments::standings_body(&loaded);
    let standings_json = serde_json::to_vec(&standings).map_err(|e| AppError::Internal(e.to_string()))?.into();
    Ok(OpenTournament { id, loaded, linked, standings_json, verify: tokio::sync::OnceCell::new() })
}
