//! The web server: the JSON API through the router without a socket (`api`), the hidden-card
//! leak property over every fixture game (`leak`), live events (`live`), several servers over one
//! NATS cluster and a server cut off from it (`cluster`), the binary (`cli`),
//! its memory under a crawl (`memory`), the pages in headless Chromium (`browser`), and two players
//! recording a whole game by tapping on the table page (`table_page`).

mod api;
mod binding;
mod bounds;
mod browser;
mod browser_floor;
mod browser_player;
mod browser_setup;
mod browser_tournament;
mod cli;
mod cluster;
mod concede;
mod deck_checks;
mod disk_full;
mod five_games;
mod leak;
mod live;
mod local_channel;
mod memory;
mod new_games;
mod noninterference;
mod options;
mod pages;
mod player_page;
mod pods_web;
mod roles;
mod scopes;
mod seals_page;
mod setup_web;
mod table;
mod table_bad_input;
mod table_judge;
mod table_page;
mod token_store;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use serde_json::Value;
use tower::ServiceExt;

use kifu::clock::SteppingClock;
use kifu::game::commit::Commitment;
use kifu::log::envelope::StreamId;
use kifu::log::file;
use kifu::server::tokens::{self, Role};
use kifu::server::{app, AppState, ServerConfig};
use kifu::store::sled_store::SledStore;
use kifu::store::Store;

/// Every fixture game: the stems of `replays/*.kifu`, sorted.
pub fn fixtures() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("replays");
    let mut out: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "kifu"))
        .map(|p| p.file_stem().unwrap().to_string_lossy().to_string())
        .collect();
    out.sort();
    out
}

/// A server over a fresh store holding the fixture games and a small self-played Swiss event
/// (`cup`, 8 players, top 4), with tokens issued for every role.
pub struct ServerEnv {
    pub _dir: tempfile::TempDir,
    pub state: AppState,
    pub tokens: PathBuf,
    /// The cup's games, in play order.
    pub cup_games: Vec<StreamId>,
}

pub fn fixture_log(name: &str) -> kifu::log::chain::VerifiedLog {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("replays").join(format!("{name}.kifu"));
    file::read(&std::fs::read(p).unwrap()).unwrap()
}

/// The games whose fixtures ServerEnv links into a two-player tournament of their own.
pub const LINKED: [&str; 4] = ["naruto", "vanguard", "brk", "lc"];

impl ServerEnv {
    pub fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let clock = Arc::new(SteppingClock::fixed());
        let store = SledStore::open(&dir.path().join("data"), clock.clone()).unwrap();
        for f in fixtures() {
            store.import(&fixture_log(&f)).unwrap();
        }
        let driver = kifu::games::driver("naruto").unwrap();
        let cup = StreamId::new("cup").unwrap();
        let run =
            kifu::tournament::event::run_swiss_event(&store, driver, &cup, 8, Commitment([7; 32]), &*clock).unwrap();
        assert!(run.report.ok(), "the demo event verifies");
        // The two-player fixtures belong to a tournament of their game only through a recorded
        // result that links them: player tokens of `naruto` see their seats there.
        for game in LINKED {
            let games: Vec<String> = fixtures().into_iter().filter(|f| f.starts_with(game)).collect();
            link_games(&store, game, game, &games);
        }
        let tokens = dir.path().join("tokens.json");
        let config = ServerConfig {
            tokens: Some(tokens.clone()),
            pending: Some(dir.path().join("pending.json")),
            ..ServerConfig::default()
        };
        let state = AppState::new(Arc::new(store), clock, config);
        ServerEnv { _dir: dir, state, tokens, cup_games: run.games }
    }

    pub fn app(&self) -> Router {
        app(self.state.clone())
    }

    /// Revokes `token` (as `kifu token revoke` does, by its hash's prefix).
    pub fn revoke(&self, token: &str) {
        let gone = tokens::revoke(&self.tokens, &tokens::hash(token)[..16]).unwrap();
        assert_eq!(gone, 1, "one token revoked");
    }

    /// Issues a token (a fixed secret per role/scope/name, so tests are deterministic).
    pub fn token(&self, role: Role, scope: &str, name: &str) -> String {
        let secret = *blake3::hash(format!("{role}/{scope}/{name}").as_bytes()).as_bytes();
        tokens::issue(&self.tokens, role, scope, name, secret, "2026-01-01T00:00:00Z".into()).unwrap()
    }
}

/// Links `games` (alice vs bob) to the tournament `tournament` of `game` through a recorded
/// result of round 1 (created and paired on first use; a judge's correction adds later links).
/// The fixture games are unbound (pinned bytes), so the links are written as an earlier build
/// recorded them, before results could link only games bound to their match.
pub fn link_games(store: &dyn Store, tournament: &str, game: &str, games: &[String]) {
    use kifu::log::envelope::Actor;
    use kifu::tournament::{record, TournamentEvent};
    let players = match games.first() {
        Some(g) => store.header(&StreamId::new(g).unwrap()).unwrap().1.v1().players.clone(),
        None => vec!["alice".to_string(), "bob".to_string()],
    };
    let id = open_match_of(store, tournament, game, &players);
    let loaded = record::load(store, &id).unwrap();
    let table = &loaded.state.rounds[0].tables[0];
    let mut names: Vec<String> = table.games.iter().map(|g| g.stream.clone()).collect();
    names.extend(games.iter().cloned());
    let links = names
        .iter()
        .map(|g| kifu::tournament::events::GameLink {
            stream: g.clone(),
            head: store.head(&StreamId::new(g).unwrap()).unwrap().hash,
        })
        .collect();
    let score = "1-0-0".parse().unwrap();
    let ev = match table.result {
        None => TournamentEvent::ResultReported { round: 1, table: table.table, score, games: links },
        Some(_) => TournamentEvent::ResultCorrected {
            round: 1,
            table: table.table,
            score,
            games: links,
            judge: "jin".into(),
            reason: "games linked".into(),
        },
    };
    record::record(store, &id, Actor::Judge("jin".into()), vec![ev]).unwrap();
}

/// The tournament `tournament` of `game` with alice and bob registered and round 1 (alice vs
/// bob) paired; created on first use.
pub fn open_match(store: &dyn Store, tournament: &str, game: &str) -> StreamId {
    open_match_of(store, tournament, game, &["alice".to_string(), "bob".to_string()])
}

/// As [`open_match`], with `players` (two) registered and paired.
pub fn open_match_of(store: &dyn Store, tournament: &str, game: &str, players: &[String]) -> StreamId {
    use kifu::game::commit::{commit_seed, Commitment};
    use kifu::log::envelope::{Actor, Timestamp};
    use kifu::tournament::{record, round_seed, ConfigV1, Policy, RoundsPlan, TournamentEvent};
    let id = StreamId::new(tournament).unwrap();
    if store.head(&id).is_err() {
        let seed = Commitment([5; 32]);
        let config = ConfigV1 {
            name: format!("{game} league"),
            game: game.into(),
            policy: Policy::Mtr,
            rounds: RoundsPlan::Fixed(1),
            top_cut: 0,
            seed_commitment: Some(commit_seed(&seed)),
        };
        let regs = players.iter().map(|p| TournamentEvent::PlayerRegistered { player: p.to_string(), deck: None });
        let org = Actor::Organizer("ora".into());
        record::create(store, &id, &config, org.clone(), Timestamp(1_767_225_600_000_000), regs.collect()).unwrap();
        let state = record::load(store, &id).unwrap().state;
        let rs = round_seed(&seed, 1);
        let (tables, byes) = state.derive_round(1, &rs);
        let paired = TournamentEvent::RoundPaired { round: 1, tables, byes, round_seed: Some(rs) };
        record::record(store, &id, org, vec![paired]).unwrap();
    }
    id
}

/// One request through the router; returns the status and the JSON body (Null if not JSON).
pub async fn call(
    app: &Router,
    method: &str,
    uri: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let (status, _, body) = call_with_headers(app, method, uri, token, body).await;
    (status, body)
}

/// [`call`], with the response's headers.
pub async fn call_with_headers(
    app: &Router,
    method: &str,
    uri: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> (StatusCode, axum::http::HeaderMap, Value) {
    send(app, method, uri, token, &[], body).await
}

/// [`call`] with an `Idempotency-Key` header.
pub async fn call_keyed(
    app: &Router,
    method: &str,
    uri: &str,
    token: Option<&str>,
    key: &str,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let (status, _, body) = send(app, method, uri, token, &[("idempotency-key", key)], body).await;
    (status, body)
}

/// One request with extra request headers; the status, the response's headers and its JSON body.
async fn send(
    app: &Router,
    method: &str,
    uri: &str,
    token: Option<&str>,
    headers: &[(&str, &str)],
    body: Option<Value>,
) -> (StatusCode, axum::http::HeaderMap, Value) {
    let mut req = Request::builder().method(method).uri(uri);
    for (name, value) in headers {
        req = req.header(*name, *value);
    }
    if let Some(t) = token {
        req = req.header("authorization", format!("Bearer {t}"));
    }
    let req = match body {
        Some(b) => req.header("content-type", "application/json").body(Body::from(b.to_string())).unwrap(),
        None => req.body(Body::empty()).unwrap(),
    };
    let resp = app.clone().oneshot(req).await.unwrap();
    let (status, headers) = (resp.status(), resp.headers().clone());
    let bytes = resp.into_body().collect().await.unwrap().to_bytes();
    (status, headers, serde_json::from_slice(&bytes).unwrap_or(Value::Null))
}

pub async fn get(app: &Router, uri: &str, token: Option<&str>) -> (StatusCode, Value) {
    call(app, "GET", uri, token, None).await
}

/// A server for one tournament, `scope`, with a data directory (seeds, deck lists, statements)
/// and a token file; [`Floor::token`] issues a token for the tournament.
pub struct Floor {
    pub _dir: tempfile::TempDir,
    pub data: PathBuf,
    pub state: AppState,
    tokens: PathBuf,
    scope: String,
}

impl Floor {
    pub fn new(scope: &str) -> Self {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("data");
        let clock = Arc::new(SteppingClock::fixed());
        let store = SledStore::open(&data, clock.clone()).unwrap();
        let tokens = dir.path().join("tokens.json");
        let config = ServerConfig { tokens: Some(tokens.clone()), seeds: Some(data.clone()), ..Default::default() };
        let state = AppState::new(Arc::new(store), clock, config);
        Floor { _dir: dir, data, state, tokens, scope: scope.to_string() }
    }

    pub fn token(&self, role: kifu::server::tokens::Role, name: &str) -> String {
        self.token_in(&self.scope.clone(), role, name)
    }

    /// A token for another tournament, `scope` (one the server may not hold at all).
    pub fn token_in(&self, scope: &str, role: kifu::server::tokens::Role, name: &str) -> String {
        let secret = *blake3::hash(format!("{role}/{scope}/{name}").as_bytes()).as_bytes();
        kifu::server::tokens::issue(&self.tokens, role, scope, name, secret, "2026-01-01T00:00:00Z".into()).unwrap()
    }
}

pub fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap()
}
