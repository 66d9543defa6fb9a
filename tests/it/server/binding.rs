//! Games bound to their table: a game created bound to a match (in its hashed header) is in that
//! match's scope from its first event, and no other event can take it over by linking it — not
//! two of its players registered elsewhere, not another event's judge, not an organizer who
//! creates a tournament through the API for the purpose. Every attempt writes nothing.

use std::sync::Arc;

use axum::http::StatusCode;
use axum::Router;
use serde_json::{json, Value};

use kifu::clock::SteppingClock;
use kifu::log::chain;
use kifu::log::envelope::{Header, MatchBinding, MatchPlace, StreamId};
use kifu::server::tokens::{self, Role};
use kifu::server::{app, AppState, ServerConfig};
use kifu::store::sled_store::SledStore;
use kifu::store::{AppendRequest, ExpectedVersion, NewEvent, Store};

use super::{call, fixture_log, get, open_match, rt};

/// A server over a fresh store (with a seeds directory, so organizers may create events), and a
/// token issuer.
pub(super) struct Env {
    _dir: tempfile::TempDir,
    state: AppState,
    tokens: std::path::PathBuf,
}

impl Env {
    pub(super) fn new() -> Env {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("data");
        let clock = Arc::new(SteppingClock::fixed());
        let store = SledStore::open(&data, clock.clone()).unwrap();
        let tokens = dir.path().join("tokens.json");
        let config = ServerConfig {
            tokens: Some(tokens.clone()),
            pending: Some(dir.path().join("pending.json")),
            seeds: Some(data),
            ..ServerConfig::default()
        };
        Env { state: AppState::new(Arc::new(store), clock, config), _dir: dir, tokens }
    }

    pub(super) fn app(&self) -> Router {
        app(self.state.clone())
    }

    pub(super) fn state(&self) -> AppState {
        self.state.clone()
    }

    pub(super) fn store(&self) -> Arc<dyn Store> {
        self.state.store().clone()
    }

    pub(super) fn token(&self, role: Role, scope: &str, name: &str) -> String {
        let secret = *blake3::hash(format!("{role}/{scope}/{name}").as_bytes()).as_bytes();
        tokens::issue(&self.tokens, role, scope, name, secret, "2026-01-01T00:00:00Z".into()).unwrap()
    }
}

fn table(tournament: &str, round: u32, table: u32) -> MatchBinding {
    MatchBinding { tournament: StreamId::new(tournament).unwrap(), round, place: MatchPlace::Table(table) }
}

/// A naruto game between alice and bob (the fixture's first `events` events) under `id`, created
/// bound to `bound` as `kifu game new --tournament ...` creates it.
fn bound_game(store: &dyn Store, id: &str, bound: MatchBinding, events: usize) -> StreamId {
    let log = fixture_log("naruto-physical");
    let mut h = log.header.v1().clone();
    h.stream = StreamId::new(id).unwrap();
    let header = Header::with_binding(h, Some(bound));
    let events = log.events[..events]
        .iter()
        .map(|e| {
            let (env, _) = chain::open_event(e).unwrap();
            NewEvent { actor: env.v1().actor.clone(), payload: env.v1().payload.to_vec(), idempotency: None }
        })
        .collect();
    let id = StreamId::new(id).unwrap();
    let req = AppendRequest { stream: id.clone(), expected: ExpectedVersion::NoStream, create: Some(header), events };
    store.append(req).unwrap();
    id
}

/// The takeover attempt: a result of `tournament`'s table 1 that links `game`, posted with
/// `token`; it must be refused with the binding named, and write nothing anywhere.
async fn refused_link(env: &Env, app: &Router, tournament: &str, token: &str, game: &str) -> Value {
    let store = env.store();
    let tid = StreamId::new(tournament).unwrap();
    let before = store.head(&tid).unwrap();
    let url = format!("/api/v1/tournaments/{tournament}/results");
    let body = json!({"table": 1, "score": "1-0-0", "games": [game]});
    let (s, r) = call(app, "POST", &url, Some(token), Some(body)).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{tournament} links {game}: {r}");
    assert!(r["error"].as_str().unwrap().contains("it was created bound to fri round 1 table 1"), "{r}");
    assert_eq!(store.head(&tid).unwrap(), before, "nothing written to {tournament}");
    assert_eq!(get(app, &url, None).await.1["pending"], json!([]), "nothing pending in {tournament}");
    r
}

#[test]
fn another_events_officials_and_players_cannot_take_over_a_bound_live_game() {
    let env = Env::new();
    let app = env.app();
    let store = env.store();
    rt().block_on(async {
        // Event `fri`: alice vs bob at round 1 table 1, their game live and bound to that table.
        open_match(&*store, "fri", "naruto");
        let game = bound_game(&*store, "fri-r1-t1", table("fri", 1, 1), 5);
        // Event `sat` registers the same two names and pairs them at its own table 1.
        open_match(&*store, "sat", "naruto");

        // 1. Two players of sat: alice reports (bob would confirm); refused at the report.
        let sat_alice = env.token(Role::Player, "sat", "alice");
        refused_link(&env, &app, "sat", &sat_alice, game.as_str()).await;
        // 2. A judge of sat alone.
        let sat_judge = env.token(Role::Judge, "sat", "jin");
        refused_link(&env, &app, "sat", &sat_judge, game.as_str()).await;
        // 3. An organizer who creates a tournament through the API for the purpose.
        let org = env.token(Role::Organizer, "evil", "mallory");
        let body = json!({"id": "evil", "name": "Evil", "game": "naruto", "rounds": 1, "top_cut": 0, "best_of": 1});
        let (s, v) = call(&app, "POST", "/api/v1/tournaments", Some(&org), Some(body)).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        let (s, v) = call(
            &app,
            "POST",
            "/api/v1/tournaments/evil/players",
            Some(&org),
            Some(json!({"players": ["alice", "bob"]})),
        )
        .await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        let (s, v) = call(&app, "POST", "/api/v1/tournaments/evil/rounds", Some(&org), Some(json!({}))).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        refused_link(&env, &app, "evil", &org, game.as_str()).await;

        // None of them sees more than a spectator does.
        for t in [&sat_alice, &sat_judge, &org] {
            let (_, sum) = get(&app, "/api/v1/games/fri-r1-t1", Some(t)).await;
            assert_eq!(sum["access"]["viewers"], json!(["spectator"]), "{sum}");
            let (s, _) = get(&app, "/api/v1/games/fri-r1-t1/board?seq=3&as=judge", Some(t)).await;
            assert_eq!(s, StatusCode::FORBIDDEN);
        }

        // The game's own event links it.
        let fri_judge = env.token(Role::Judge, "fri", "kim");
        let body = json!({"table": 1, "score": "1-0-0", "games": ["fri-r1-t1"]});
        let (s, r) = call(&app, "POST", "/api/v1/tournaments/fri/results", Some(&fri_judge), Some(body)).await;
        assert_eq!(s, StatusCode::CREATED, "{r}");
    });
}

#[test]
fn a_bound_game_is_in_its_matchs_scope_from_its_first_event() {
    let env = Env::new();
    let app = env.app();
    let store = env.store();
    rt().block_on(async {
        open_match(&*store, "fri", "naruto");
        // Only the first event is recorded; no result links the game.
        bound_game(&*store, "fri-live", table("fri", 1, 1), 1);
        let summary = |t: String| {
            let app = app.clone();
            async move { get(&app, "/api/v1/games/fri-live", Some(&t)).await.1 }
        };
        let sum = summary(env.token(Role::Player, "fri", "alice")).await;
        assert_eq!(sum["access"]["viewers"], json!(["spectator", "seat:0"]), "{sum}");
        assert_eq!(sum["bound"], json!({"tournament": "fri", "round": 1, "place": {"Table": 1}}), "{sum}");
        let sum = summary(env.token(Role::Player, "fri", "bob")).await;
        assert_eq!(sum["access"]["viewers"], json!(["spectator", "seat:1"]), "{sum}");
        let sum = summary(env.token(Role::Judge, "fri", "kim")).await;
        assert_eq!(sum["access"]["judge"], true, "{sum}");
        let sum = summary(env.token(Role::Organizer, "fri", "ora")).await;
        assert_eq!(sum["access"]["judge"], true, "{sum}");
        // Another event's officials, and a player registered elsewhere, see what the public sees.
        open_match(&*store, "sat", "naruto");
        for t in [env.token(Role::Judge, "sat", "jin"), env.token(Role::Player, "sat", "alice")] {
            let sum = summary(t).await;
            assert_eq!(sum["access"]["viewers"], json!(["spectator"]), "{sum}");
        }
        // A player of the event who is not at this table gets no seat, even named like one.
        let (s, _) = call(
            &app,
            "POST",
            "/api/v1/tournaments/fri/players",
            Some(&env.token(Role::Organizer, "fri", "ora")),
            Some(json!({"players": ["carol"], "reason": "arrived after round 1 was paired"})),
        )
        .await;
        assert_eq!(s, StatusCode::CREATED);
        let sum = summary(env.token(Role::Player, "fri", "carol")).await;
        assert_eq!(sum["access"]["viewers"], json!(["spectator"]), "{sum}");

        // A seated player records their own next action with their token, live.
        let log = fixture_log("naruto-physical");
        let (next, _) = chain::open_event(&log.events[1]).unwrap();
        let entry: kifu::game::GameEntry<<kifu::games::naruto::Naruto as kifu::game::Game>::Event> =
            postcard::from_bytes(&next.v1().payload).unwrap();
        let kifu::game::GameEntry::Played(event) = entry else { panic!("event 1 is a played action") };
        let who = match next.v1().actor.clone() {
            kifu::log::envelope::Actor::Player(p) => p,
            other => panic!("event 1 is recorded by a player, not {other:?}"),
        };
        let token = env.token(Role::Player, "fri", &who);
        let body = json!({"event": event, "expected": 1});
        let (s, r) = call(&app, "POST", "/api/v1/games/fri-live/events", Some(&token), Some(body)).await;
        assert_eq!(s, StatusCode::CREATED, "{who} records their own action: {r}");
        assert_eq!(store.head(&StreamId::new("fri-live").unwrap()).unwrap().len, 2);
    });
}
