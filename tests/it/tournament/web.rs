//! Running an event from the API alone, as the tournament page does with an organizer's token:
//! create, register, pair, report by player, penalties, refusals, void, finalize early, placings.

use std::sync::Arc;

use axum::http::StatusCode;
use serde_json::json;

use kifu::clock::SteppingClock;
use kifu::server::tokens::{self, Role};
use kifu::server::{app, AppState, ServerConfig};
use kifu::store::sled_store::SledStore;

use crate::server::{call, get, rt};

#[test]
fn an_organizer_runs_an_event_from_the_api() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let clock = Arc::new(SteppingClock::fixed());
    let store = SledStore::open(&data, clock.clone()).unwrap();
    let tokens_file = dir.path().join("tokens.json");
    let config = ServerConfig {
        tokens: Some(tokens_file.clone()),
        pending: None,
        seeds: Some(data.clone()),
        ..Default::default()
    };
    let router = app(AppState::new(Arc::new(store), clock, config));
    let token = |role, scope: &str, name: &str| {
        let secret = *blake3::hash(format!("{role}/{scope}/{name}").as_bytes()).as_bytes();
        tokens::issue(&tokens_file, role, scope, name, secret, "2026-01-01T00:00:00Z".into()).unwrap()
    };
    let org = token(Role::Organizer, "*", "olga");
    let judge = token(Role::Judge, "web", "jin");
    let player = token(Role::Player, "web", "ann");
    rt().block_on(async {
        let post = |path: &'static str, t: &str, body: serde_json::Value| {
            let (router, t) = (router.clone(), t.to_string());
            async move { call(&router, "POST", path, Some(&t), Some(body)).await }
        };
        let (s, v) = post("/api/v1/tournaments", &player, json!({"id": "web", "name": "Web", "game": "naruto"})).await;
        assert_eq!(s, StatusCode::FORBIDDEN, "{v}");
        let body = json!({"id": "web", "name": "Web", "game": "naruto", "rounds": 2, "top_cut": 0, "best_of": 3});
        let (s, v) = post("/api/v1/tournaments", &org, body).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        let (s, v) = post("/api/v1/tournaments/web/rounds", &org, json!({})).await;
        assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
        assert!(v["error"].as_str().unwrap().contains("TOUR-PAIR-4: round 1 needs at least two active players"), "{v}");
        let (s, v) =
            post("/api/v1/tournaments/web/players", &org, json!({"players": ["ann", "Bo", "cy", "dee"]})).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        let (s, v) = post("/api/v1/tournaments/web/players", &org, json!({"players": ["ANN"]})).await;
        assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
        // jin is the head judge: voiding a round and finalizing are the organizer's or theirs.
        let (s, v) = post("/api/v1/tournaments/web/head-judge", &org, json!({"judge": "jin"})).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        let (s, v) = post("/api/v1/tournaments/web/rounds", &org, json!({})).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        assert_eq!(v["round"], 1);
        let (s, _) = post("/api/v1/tournaments/web/void", &judge, json!({"reason": ""})).await;
        assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "a void needs a reason");
        let (s, v) = post("/api/v1/tournaments/web/results", &org, json!({"player": "bo", "score": "3-0"})).await;
        assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "impossible in a best-of-3: {v}");
        let (s, v) = post("/api/v1/tournaments/web/results", &org, json!({"player": "bo", "score": "2-1"})).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        let (s, v) = post("/api/v1/tournaments/web/void", &judge, json!({"reason": "late"})).await;
        assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "no void after a result: {v}");
        let (s, v) =
            post("/api/v1/tournaments/web/penalties", &judge, json!({"player": "cy", "penalty": "warning"})).await;
        // Refused by the one penalty rule, as the CLI's and the log's (not a check of the server's own).
        assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "a penalty needs a reason: {v}");
        assert!(v.to_string().contains("TOUR-PEN-1: a penalty gives its reason"), "{v}");
        let body = json!({"player": "cy", "penalty": "warning", "reason": "slow play"});
        let (s, v) = post("/api/v1/tournaments/web/penalties", &judge, body).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        let (s, v) = post("/api/v1/tournaments/web/finalize", &org, json!({})).await;
        assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "finalize before the end: {v}");
        let (_, p) = get(&router, "/api/v1/tournaments/web/pairings", None).await;
        let other = p["tables"].as_array().unwrap().iter().find(|t| t["result"].is_null()).unwrap().clone();
        let winner = other["a"].as_str().unwrap().to_string();
        let (s, v) = post("/api/v1/tournaments/web/results", &org, json!({"player": winner, "score": "2-0"})).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        let (s, v) = post("/api/v1/tournaments/web/finalize", &judge, json!({"reason": "the store closed"})).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        assert_eq!(v["early"], true);
        let (_, pl) = get(&router, "/api/v1/tournaments/web/placings", None).await;
        assert_eq!(pl["finalized"], true);
        assert_eq!(pl["placings"].as_array().unwrap().len(), 4);
        let (_, sm) = get(&router, "/api/v1/tournaments/web", None).await;
        assert_eq!(sm["finalized_early"]["reason"], "the store closed", "{sm}");
        let (_, vr) = get(&router, "/api/v1/tournaments/web/verify", None).await;
        assert_eq!(vr["ok"], true, "{vr}");
    });
}

#[test]
fn a_seed_file_the_server_cannot_write_is_its_own_failure_not_the_callers() {
    // Given a server whose seed directory cannot be created (a file stands in its place),
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let clock = Arc::new(SteppingClock::fixed());
    let store = SledStore::open(&data, clock.clone()).unwrap();
    std::fs::write(data.join("tournament-seeds"), b"not a directory").unwrap();
    let tokens_file = dir.path().join("tokens.json");
    let config = ServerConfig { tokens: Some(tokens_file.clone()), seeds: Some(data.clone()), ..Default::default() };
    let router = app(AppState::new(Arc::new(store), clock, config));
    let org =
        tokens::issue(&tokens_file, Role::Organizer, "*", "olga", [7; 32], "2026-01-01T00:00:00Z".into()).unwrap();
    rt().block_on(async {
        // when an organizer creates an event (its seed must be kept),
        let body = json!({"id": "w", "name": "W", "game": "naruto", "rounds": 2, "top_cut": 0});
        let (s, v) = call(&router, "POST", "/api/v1/tournaments", Some(&org), Some(body)).await;
        // then the server answers 500, naming the file it could not write: the request was fine.
        assert_eq!(s, StatusCode::INTERNAL_SERVER_ERROR, "{v}");
        assert!(v["error"].as_str().unwrap().contains("tournament-seeds"), "{v}");
    });
}
