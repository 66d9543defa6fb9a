//! The server's shared state: the store handle, caches of opened games and tournaments keyed by
//! their head (a cached entry is used only while the stream's head is unchanged, so a cache can
//! never serve a stale or forked log), the live-event channel, and pending result reports.

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::SystemTime;

use serde::{Deserialize, Serialize};
use tokio::sync::broadcast;

use super::error::{AppError, AppResult};
use super::tokens::{self, Grant};
use crate::clock::Clock;
use crate::game::audit::AuditReport;
use crate::game::driver::{Driver, Session, TimelineEntry};
use crate::game::{Outcome, Viewer};
use crate::log::chain::{Head, VerifiedLog};
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
    /// The data directory whose `tournament-seeds/` holds organizers' secret pairing seeds;
    /// `None`: the server cannot pair or finalize (the CLI does).
    pub seeds: Option<PathBuf>,
}

/// A new event in a stream, as announced to live followers.
#[derive(Clone, Debug)]
pub struct Notice {
    pub stream: String,
    pub len: u64,
}

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
    pub session: Box<dyn Session>,
    pub log: VerifiedLog,
    pub driver: &'static dyn Driver,
    timelines: Mutex<HashMap<String, Arc<Vec<TimelineEntry>>>>,
    audit: OnceLock<Arc<AuditReport>>,
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

    /// Every event described for `viewer`: one fold, then cached for this head.
    pub fn timeline(&self, viewer: Viewer) -> Arc<Vec<TimelineEntry>> {
        let key = viewer_key(viewer);
        if let Ok(map) = self.timelines.lock() {
            if let Some(t) = map.get(&key) {
                return t.clone();
            }
        }
        let t = Arc::new(self.session.timeline(viewer));
        if let Ok(mut map) = self.timelines.lock() {
            map.insert(key, t.clone());
        }
        t
    }

    /// The audit of the game at this head (folds once, then cached).
    pub fn audit(&self) -> AppResult<Arc<AuditReport>> {
        if let Some(a) = self.audit.get() {
            return Ok(a.clone());
        }
        let report = Arc::new(self.driver.audit(&self.log)?);
        Ok(self.audit.get_or_init(|| report).clone())
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
    games: Mutex<HashMap<String, Slot<OpenGame>>>,
    tournaments: Mutex<HashMap<String, Slot<OpenTournament>>>,
    live: broadcast::Sender<Notice>,
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
        _ => s
            .strip_prefix("seat:")
            .and_then(|n| n.parse::<u8>().ok())
            .map(Viewer::Player)
            .ok_or_else(|| AppError::BadRequest(format!("as= is spectator, judge or seat:N, not {s:?}"))),
    }
}

impl AppState {
    pub fn new(store: Arc<dyn Store>, clock: Arc<dyn Clock>, config: ServerConfig) -> Self {
        let pending = config
            .pending
            .as_ref()
            .and_then(|p| std::fs::read_to_string(p).ok())
            .and_then(|t| serde_json::from_str(&t).ok())
            .unwrap_or_default();
        let (live, _) = broadcast::channel(1024);
        AppState(Arc::new(Inner {
            store,
            clock,
            config,
            games: Mutex::default(),
            tournaments: Mutex::default(),
            live,
            tokens: Mutex::new((None, HashMap::new())),
            pending: Mutex::new(pending),
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

    /// Follows appends to every stream (the live-event streams subscribe here).
    pub fn subscribe(&self) -> broadcast::Receiver<Notice> {
        self.0.live.subscribe()
    }

    /// Tells live followers that `stream` grew. Every write the server performs calls this.
    pub fn notify(&self, stream: &str, len: u64) {
        // No receiver is not an error: nobody is watching.
        let _ = self.0.live.send(Notice { stream: stream.to_string(), len });
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
            let file = tokens::load(path).map_err(|e| AppError::Internal(e.to_string()))?;
            cache.1 = file.tokens.into_iter().map(|g| (g.hash.clone(), g)).collect();
            cache.0 = mtime;
        }
        Ok(cache.1.get(&tokens::hash(token)).cloned())
    }

    fn slot<T>(map: &Mutex<HashMap<String, Slot<T>>>, id: &str) -> AppResult<Slot<T>> {
        let mut m = map.lock().map_err(|_| AppError::Internal("cache poisoned".into()))?;
        Ok(m.entry(id.to_string()).or_default().clone())
    }

    /// The game at its current head, opened once per head (the fold runs off the async threads;
    /// concurrent requests for the same new head wait for one fold instead of each folding).
    pub async fn game(&self, id: &str) -> AppResult<Arc<OpenGame>> {
        let sid = stream_id(id)?;
        let head = self.0.store.head(&sid)?;
        let slot = Self::slot(&self.0.games, id)?;
        let mut guard = slot.lock().await;
        if let Some(g) = guard.as_ref() {
            if g.head == head {
                return Ok(g.clone());
            }
        }
        let store = self.0.store.clone();
        let opened = tokio::task::spawn_blocking(move || open_game(&*store, sid)).await??;
        let opened = Arc::new(opened);
        *guard = Some(opened.clone());
        Ok(opened)
    }

    /// The tournament at its current head, loaded once per head.
    pub async fn tournament(&self, id: &str) -> AppResult<Arc<OpenTournament>> {
        let sid = stream_id(id)?;
        let head = self.0.store.head(&sid)?;
        let slot = Self::slot(&self.0.tournaments, id)?;
        let mut guard = slot.lock().await;
        if let Some(t) = guard.as_ref() {
            if t.head() == head {
                return Ok(t.clone());
            }
        }
        let store = self.0.store.clone();
        let opened = tokio::task::spawn_blocking(move || open_tournament(&*store, sid)).await??;
        let opened = Arc::new(opened);
        *guard = Some(opened.clone());
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
            std::fs::create_dir_all(d).map_err(|e| AppError::Internal(e.to_string()))?;
        }
        std::fs::write(p, text).map_err(|e| AppError::Internal(format!("cannot write {}: {e}", p.display())))
    }
}

pub fn stream_id(id: &str) -> AppResult<StreamId> {
    StreamId::new(id).map_err(|e| AppError::BadRequest(e.to_string()))
}

fn open_game(store: &dyn Store, id: StreamId) -> AppResult<OpenGame> {
    let log = store.export(&id)?;
    let h = log.header.v1();
    if h.kind != StreamKind::Game {
        return Err(AppError::NotFound(format!("stream {id} is a {} stream, not a game", h.kind)));
    }
    let driver = crate::games::driver(&h.ruleset)
        .ok_or_else(|| AppError::BadRequest(format!("this build cannot replay {:?} games", h.ruleset)))?;
    let session = driver.open(&log)?;
    let outcome = session.board(session.len(), Viewer::Judge).outcome;
    Ok(OpenGame {
        id,
        head: log.head,
        header_hash: crate::log::chain::header_hash(&log.header_bytes),
        ruleset: h.ruleset.clone(),
        players: session.players(),
        created_at: h.created_at.to_rfc3339(),
        outcome,
        session,
        driver,
        log,
        timelines: Mutex::default(),
        audit: OnceLock::new(),
    })
}

fn open_tournament(store: &dyn Store, id: StreamId) -> AppResult<OpenTournament> {
    let loaded = record::load(store, &id)?;
    let linked = verify::linked_games(&loaded);
    let standings = super::tournaments::standings_body(&loaded);
    let standings_json = serde_json::to_vec(&standings).map_err(|e| AppError::Internal(e.to_string()))?.into();
    Ok(OpenTournament { id, loaded, linked, standings_json, verify: tokio::sync::OnceCell::new() })
}
