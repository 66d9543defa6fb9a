//! Scopes come from membership, never from ids: a game belongs to a tournament's match because
//! it was created bound to it (or, from an earlier build, through a result that links it), a
//! result may link only games bound to its match, and a player's view needs both the seat and
//! the registration. Every escape is
//! refused and writes nothing.

use axum::http::StatusCode;
use serde_json::json;

use kifu::log::envelope::{Actor, Header, MatchBinding, MatchPlace, StreamId};
use kifu::server::tokens::Role;
use kifu::store::{AppendRequest, ExpectedVersion, NewEvent};
use kifu::tournament::{record, TournamentEvent};

use super::live::feed;
use super::{call, fixture_log, get, link_games, open_match, rt, ServerEnv};

/// A naruto game between alice and bob under `id` (the fixture's first events).
async fn naruto_game(env: &ServerEnv, id: &str) {
    feed(&env.state, &fixture_log("naruto-physical"), id, 0, 5).await;
}

/// A stream like a naruto game of `id` but between `players` (written around the server, so
/// unchecked), bound to round 1 table 1 of `bound` when given.
fn game_between(env: &ServerEnv, id: &str, players: &[&str]) {
    game_bound(env, id, players, None)
}

fn game_bound(env: &ServerEnv, id: &str, players: &[&str], bound: Option<&str>) {
    let log = fixture_log("naruto-physical");
    let mut h = log.header.v1().clone();
    h.stream = StreamId::new(id).unwrap();
    h.players = players.iter().map(|p| p.to_string()).collect();
    let bound =
        bound.map(|t| MatchBinding { tournament: StreamId::new(t).unwrap(), round: 1, place: MatchPlace::Table(1) });
    let store = env.state.store();
    let (e, _) = kifu::log::chain::open_event(&log.events[0]).unwrap();
    store
        .append(AppendRequest {
            stream: h.stream.clone(),
            expected: ExpectedVersion::NoStream,
            create: Some(Header::with_binding(h, bound)),
            events: vec![NewEvent { actor: e.v1().actor.clone(), payload: e.v1().payload.to_vec(), idempotency: None }],
        })
        .unwrap();
}

#[test]
fn a_tournament_id_prefix_grants_nothing() {
    let env = ServerEnv::new();
    let app = env.app();
    let store = env.state.store().clone();
    rt().block_on(async {
        for g in ["fri-g1", "fri-late-g1", "fri-x-g1"] {
            naruto_game(&env, g).await;
        }
        link_games(&*store, "fri", "naruto", &["fri-g1".into()]);
        link_games(&*store, "fri-late", "naruto", &["fri-late-g1".into()]);
        let judge = env.token(Role::Judge, "fri", "jin");
        let alice = env.token(Role::Player, "fri", "alice");

        // The judge of `fri` judges fri's linked game ...
        let (s, sum) = get(&app, "/api/v1/games/fri-g1", Some(&judge)).await;
        assert_eq!(s, StatusCode::OK);
        assert_eq!(sum["access"]["judge"], true);
        // ... but not fri-late's, nor an unlinked game named like fri's.
        for g in ["fri-late-g1", "fri-x-g1"] {
            let (_, sum) = get(&app, &format!("/api/v1/games/{g}"), Some(&judge)).await;
            assert_eq!(sum["access"]["judge"], false, "{g}");
            let (s, _) = get(&app, &format!("/api/v1/games/{g}/board?seq=3&as=judge"), Some(&judge)).await;
            assert_eq!(s, StatusCode::FORBIDDEN, "{g}");
            let id = StreamId::new(g).unwrap();
            let before = store.head(&id).unwrap();
            let ruling = json!({"ruling": {"NoteRecorded": {"judge": "jin", "about": null, "note": "x"}}});
            let (s, _) = call(&app, "POST", &format!("/api/v1/games/{g}/rulings"), Some(&judge), Some(ruling)).await;
            assert_eq!(s, StatusCode::FORBIDDEN, "{g}: a ruling outside the scope");
            assert_eq!(store.head(&id).unwrap(), before, "{g}: nothing written");
            // A player of fri named alice gets no seat in games fri does not link.
            let (_, sum) = get(&app, &format!("/api/v1/games/{g}"), Some(&alice)).await;
            assert_eq!(sum["access"]["viewers"], json!(["spectator"]), "{g}");
        }
        let (_, sum) = get(&app, "/api/v1/games/fri-g1", Some(&alice)).await;
        assert_eq!(sum["access"]["viewers"], json!(["spectator", "seat:0"]));
    });
}

#[test]
fn a_result_links_only_games_the_tournament_may_claim() {
    let env = ServerEnv::new();
    let app = env.app();
    let store = env.state.store().clone();
    rt().block_on(async {
        let id = open_match(&*store, "sat", "naruto");
        game_bound(&env, "sat-g1", &["alice", "bob"], Some("sat"));
        game_between(&env, "sat-loose", &["alice", "bob"]);
        open_match(&*store, "sun", "naruto");
        game_bound(&env, "sun-g1", &["alice", "bob"], Some("sun"));
        feed(&env.state, &fixture_log("vanguard-clean"), "sat-vg", 0, 3).await;
        game_bound(&env, "sat-other", &["carol", "dave"], Some("sat"));
        game_bound(&env, "sat-half", &["alice", "carol"], Some("sat"));
        let judge = env.token(Role::Judge, "sat", "jin");
        let alice = env.token(Role::Player, "sat", "alice");
        let url = "/api/v1/tournaments/sat/results";
        let before = store.head(&id).unwrap();
        let escapes = [
            ("naruto-physical", "it was not created bound to a match"),
            ("sat-loose", "it was not created bound to a match"),
            ("sun-g1", "it was created bound to sun round 1 table 1, not to sat round 1 table 1"),
            ("sat-vg", "not a naruto game"),
            ("sat-other", "not this match's two players"),
            ("sat-half", "not this match's two players"),
            ("no-such-game", "no such stream"),
        ];
        for (game, why) in escapes {
            for token in [&judge, &alice] {
                let body = json!({"table": 1, "score": "1-0-0", "games": [game]});
                let (s, r) = call(&app, "POST", url, Some(token), Some(body)).await;
                assert_eq!(s, StatusCode::BAD_REQUEST, "{game}: {r}");
                assert!(r["error"].as_str().unwrap().contains(why), "{game}: {r}");
            }
        }
        let twice = json!({"table": 1, "score": "1-0-0", "games": ["sat-g1", "sat-g1"]});
        assert_eq!(call(&app, "POST", url, Some(&judge), Some(twice)).await.0, StatusCode::BAD_REQUEST);
        assert_eq!(store.head(&id).unwrap(), before, "nothing written");
        assert_eq!(get(&app, url, None).await.1["pending"], json!([]), "nothing pending");

        // A game bound to the match is linked, and no other tournament may link it.
        let body = json!({"table": 1, "score": "1-0-0", "games": ["sat-g1"]});
        assert_eq!(call(&app, "POST", url, Some(&judge), Some(body)).await.0, StatusCode::CREATED);
        let other = StreamId::new("sun").unwrap();
        let sun_before = store.head(&other).unwrap();
        let sun_judge = env.token(Role::Judge, "sun", "kim");
        let body = json!({"table": 1, "score": "1-0-0", "games": ["sat-g1"]});
        let (s, r) = call(&app, "POST", "/api/v1/tournaments/sun/results", Some(&sun_judge), Some(body)).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{r}");
        assert_eq!(store.head(&other).unwrap(), sun_before);
    });
}

#[test]
fn a_players_view_needs_the_seat_and_the_registration() {
    let env = ServerEnv::new();
    let app = env.app();
    let store = env.state.store().clone();
    rt().block_on(async {
        // A log written before links were checked (or around kifu): it links a game of an
        // unregistered player.
        let id = open_match(&*store, "old", "naruto");
        game_between(&env, "old-g1", &["mallory", "bob"]);
        let head = store.head(&StreamId::new("old-g1").unwrap()).unwrap();
        let link = kifu::tournament::events::GameLink { stream: "old-g1".into(), head: head.hash };
        let ev =
            TournamentEvent::ResultReported { round: 1, table: 1, score: "1-0-0".parse().unwrap(), games: vec![link] };
        record::record(&*store, &id, Actor::Judge("jin".into()), vec![ev]).unwrap();
        let mallory = env.token(Role::Player, "old", "mallory");
        let bob = env.token(Role::Player, "old", "bob");
        let (_, sum) = get(&app, "/api/v1/games/old-g1", Some(&mallory)).await;
        assert_eq!(sum["access"]["viewers"], json!(["spectator"]), "not registered: no seat");
        let (_, sum) = get(&app, "/api/v1/games/old-g1", Some(&bob)).await;
        assert_eq!(sum["access"]["viewers"], json!(["spectator", "seat:1"]), "registered and seated");
    });
}
