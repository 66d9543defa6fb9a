//! Roles and records on the floor (issue 50, item 8), through the API: voiding a round and
//! finalizing are the organizer's or the head judge's, not a floor judge's (403, nothing
//! written); a new report never erases a dispute, at a table or in a pod, so a floor judge's
//! plain report cannot settle it (the head judge's override with a reason does); a pairing
//! override that would take a player away from a table whose game has started is refused.

use axum::http::StatusCode;
use serde_json::{json, Value};

use kifu::log::envelope::StreamId;
use kifu::server::app;
use kifu::server::tokens::Role;
use kifu::tournament::{record, TournamentEvent};

use super::five_games::open_pods;
use super::new_games::deck;
use super::{call, get, rt, Floor};

fn refused(s: StatusCode, v: &Value, want: StatusCode, says: &str) {
    assert_eq!(s, want, "{v}");
    let msg = v["error"].as_str().unwrap_or_default();
    assert!(msg.contains(says), "{says:?} in {msg:?}");
}

#[test]
fn only_the_organizer_or_the_head_judge_voids_a_round_or_finalizes() {
    // Given an event of four with hana named head judge, jin a floor judge, round 1 paired,
    let floor = Floor::new("vf");
    let router = app(floor.state.clone());
    let (org, jin, hana) =
        (floor.token(Role::Organizer, "olga"), floor.token(Role::Judge, "jin"), floor.token(Role::Judge, "hana"));
    let store = floor.state.store().clone();
    let id = StreamId::new("vf").unwrap();
    let events = || store.head(&id).unwrap().len;
    rt().block_on(async {
        let post = |path: &str, t: &str, body: Value| {
            let (router, t, path) = (router.clone(), t.to_string(), format!("/api/v1/tournaments{path}"));
            async move { call(&router, "POST", &path, Some(&t), Some(body)).await }
        };
        let body = json!({"id": "vf", "name": "Void", "game": "naruto", "rounds": 2, "top_cut": 0, "best_of": 3});
        assert_eq!(post("", &org, body).await.0, StatusCode::CREATED);
        let (s, v) = post("/vf/players", &org, json!({"players": ["ann", "bo", "cy", "dee"]})).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        assert_eq!(post("/vf/head-judge", &org, json!({"judge": "hana"})).await.0, StatusCode::CREATED);
        assert_eq!(post("/vf/rounds", &org, json!({})).await.0, StatusCode::CREATED);
        let n = events();

        // when the floor judge voids the round, finalizes early or finalizes,
        let (s, v) = post("/vf/void", &jin, json!({"reason": "the pairings were posted late"})).await;
        refused(s, &v, StatusCode::FORBIDDEN, "only the organizer or the head judge voids a round");
        let (s, v) = post("/vf/finalize", &jin, json!({"reason": "the venue closed"})).await;
        refused(s, &v, StatusCode::FORBIDDEN, "only the organizer or the head judge finalizes the event");
        let (s, v) = post("/vf/finalize", &jin, json!({})).await;
        refused(s, &v, StatusCode::FORBIDDEN, "only the organizer or the head judge finalizes the event");
        // then each is refused and nothing is written;
        assert_eq!(events(), n, "refusals write nothing");
        let (_, sm) = get(&router, "/api/v1/tournaments/vf", None).await;
        assert_eq!((sm["finalized"].clone(), sm["voided"].clone()), (json!(false), json!([])), "{sm}");

        // the head judge voids it (round 1 is paired again), and finalizes the event early.
        let (s, v) = post("/vf/void", &hana, json!({"reason": "the pairings were posted late"})).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        assert_eq!(post("/vf/rounds", &org, json!({})).await.0, StatusCode::CREATED);
        let (s, v) = post("/vf/finalize", &hana, json!({"reason": "the venue closed"})).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        assert_eq!(v["early"], true, "{v}");
        let (_, sm) = get(&router, "/api/v1/tournaments/vf", None).await;
        assert_eq!(sm["finalized_early"]["judge"], "hana", "{sm}");
    });
}

#[test]
fn a_new_report_never_erases_a_tables_dispute_and_a_floor_judge_cannot_settle_it() {
    // Given a table whose players disagree (one reported 2-0-0, the other said 0-2-0),
    let floor = Floor::new("dsp");
    let router = app(floor.state.clone());
    let token = |role, name: &str| floor.token(role, name);
    let (org, jin, hana) = (token(Role::Organizer, "olga"), token(Role::Judge, "jin"), token(Role::Judge, "hana"));
    let store = floor.state.store().clone();
    let id = StreamId::new("dsp").unwrap();
    let events = || store.head(&id).unwrap().len;
    rt().block_on(async {
        let post = |path: &str, t: &str, body: Value| {
            let (router, t, path) = (router.clone(), t.to_string(), format!("/api/v1/tournaments{path}"));
            async move { call(&router, "POST", &path, Some(&t), Some(body)).await }
        };
        let body = json!({"id": "dsp", "name": "Dispute", "game": "naruto", "rounds": 2, "top_cut": 0});
        assert_eq!(post("", &org, body).await.0, StatusCode::CREATED);
        let (s, v) = post("/dsp/players", &org, json!({"players": ["ann", "bo", "cy", "dee"]})).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        assert_eq!(post("/dsp/head-judge", &org, json!({"judge": "hana"})).await.0, StatusCode::CREATED);
        assert_eq!(post("/dsp/rounds", &org, json!({})).await.0, StatusCode::CREATED);
        let (_, pairings) = get(&router, "/api/v1/tournaments/dsp/pairings", None).await;
        let seat = |t: usize, side: &str| pairings["tables"][t][side].as_str().unwrap().to_string();
        let (ta, tb) = (token(Role::Player, &seat(0, "a")), token(Role::Player, &seat(0, "b")));
        let (s, v) = post("/dsp/results", &ta, json!({"table": 1, "score": "2-0-0"})).await;
        assert_eq!(s, StatusCode::ACCEPTED, "{v}");
        let (s, v) = post("/dsp/results/confirm", &tb, json!({"table": 1, "score": "0-2-0"})).await;
        assert_eq!(s, StatusCode::CONFLICT, "{v}");
        let n = events();
        let pending = || async {
            let (_, p) = get(&router, "/api/v1/tournaments/dsp/results", None).await;
            p["pending"].as_array().unwrap().iter().find(|r| r["table"] == 1).cloned().unwrap_or(Value::Null)
        };
        let disputed = pending().await["disputed"].clone();
        assert!(disputed.as_str().is_some_and(|d| d.contains("says 0-2-0")), "{disputed}");

        // when the reporter reports again, the opponent confirms it after all, or reports their own,
        let (s, v) = post("/dsp/results", &ta, json!({"table": 1, "score": "2-0-0"})).await;
        refused(s, &v, StatusCode::CONFLICT, "is disputed");
        let (s, v) = post("/dsp/results/confirm", &tb, json!({"table": 1, "score": "2-0-0"})).await;
        refused(s, &v, StatusCode::CONFLICT, "is disputed");
        let (s, v) = post("/dsp/results", &tb, json!({"table": 1, "score": "0-2-0"})).await;
        refused(s, &v, StatusCode::CONFLICT, "is disputed");
        // then the dispute stays as it was, and a floor judge's plain report cannot settle it;
        assert_eq!(pending().await["disputed"], disputed, "the dispute is kept");
        let (s, v) = post("/dsp/results", &jin, json!({"table": 1, "score": "2-0-0"})).await;
        refused(s, &v, StatusCode::FORBIDDEN, "only the organizer or the head judge");
        assert_eq!(events(), n, "refusals write nothing");
        assert_eq!(pending().await["disputed"], disputed, "the dispute is kept");

        // an opponent's pending report (not disputed) is never replaced: a report of another
        // result (each from their own side: both say they won 2-1) marks it disputed;
        let (tc, td) = (token(Role::Player, &seat(1, "a")), token(Role::Player, &seat(1, "b")));
        let (s, v) = post("/dsp/results", &tc, json!({"table": 2, "score": "2-1-0"})).await;
        assert_eq!(s, StatusCode::ACCEPTED, "{v}");
        let (s, v) = post("/dsp/results", &td, json!({"table": 2, "score": "2-1-0"})).await;
        refused(s, &v, StatusCode::CONFLICT, "disputed, a judge will decide");

        // and the head judge settles table 1 on the record, with a reason.
        let entry = json!({"table": 1, "score": "2-0-0", "reason": "the scorepad shows two games to ann's side"});
        let (s, v) = post("/dsp/results", &hana, entry).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        assert_eq!(pending().await, Value::Null, "settled");
        let loaded = record::load(&*store, &id).unwrap();
        assert!(
            loaded
                .entries
                .iter()
                .any(|e| matches!(&e.event, TournamentEvent::ResultEntered { table: 1, by, .. } if by == "hana")),
            "an override on the record"
        );
    });
}

#[test]
fn a_new_report_never_erases_a_pods_dispute_and_a_floor_judge_cannot_settle_it() {
    // Given a pod whose report one of its players disputed,
    const T: &str = "pod-dsp";
    let floor = Floor::new(T);
    let store = floor.state.store().clone();
    let names: Vec<String> =
        ["ann", "bo", "cy", "di", "eve", "fay", "gus", "hal"].iter().map(|s| s.to_string()).collect();
    let pods = open_pods(&*store, T, "fate", &names, 4);
    let id = StreamId::new(T).unwrap();
    let org = kifu::log::envelope::Actor::Organizer("ora".into());
    record::record(&*store, &id, org, vec![TournamentEvent::HeadJudgeNamed { judge: "hana".into() }]).unwrap();
    let p1 = &pods[0];
    let tok = |n: &str| floor.token(Role::Player, n);
    let (kai, hana) = (floor.token(Role::Judge, "kai"), floor.token(Role::Judge, "hana"));
    let app = app(floor.state.clone());
    let url = format!("/api/v1/tournaments/{T}/pods/results");
    let len = || store.head(&id).unwrap().len;
    rt().block_on(async {
        let body = json!({"pod": 1, "places": [1, 2, 3, 4]});
        let (s, v) = call(&app, "POST", &url, Some(&tok(&p1[0])), Some(body.clone())).await;
        assert_eq!(s, StatusCode::ACCEPTED, "{v}");
        let dispute = json!({"pod": 1, "places": [1, 2, 3, 4], "dispute": true});
        let (s, v) = call(&app, "POST", &format!("{url}/confirm"), Some(&tok(&p1[1])), Some(dispute)).await;
        assert_eq!(s, StatusCode::CONFLICT, "{v}");
        let before = len();
        let pending = || async {
            let (_, p) = get(&app, &url, None).await;
            p["pending"].as_array().unwrap().iter().find(|r| r["pod"] == 1).cloned().unwrap_or(Value::Null)
        };
        let disputed = pending().await["disputed"].clone();
        assert!(disputed.as_str().is_some_and(|d| d.contains("disputes it")), "{disputed}");

        // when the reporter reports the same places again,
        let (s, v) = call(&app, "POST", &url, Some(&tok(&p1[0])), Some(body.clone())).await;
        // then it is refused and the dispute stays;
        refused(s, &v, StatusCode::CONFLICT, "is disputed");
        assert_eq!(pending().await["disputed"], disputed);
        // a floor judge's plain entry of those places is an override they may not make;
        let (s, v) = call(&app, "POST", &url, Some(&kai), Some(body.clone())).await;
        refused(s, &v, StatusCode::FORBIDDEN, "only the organizer or the head judge");
        assert_eq!(len(), before, "refusals write nothing");
        assert_eq!(pending().await["disputed"], disputed);
        // the head judge settles it with a reason.
        let entry = json!({"pod": 1, "places": [1, 2, 3, 4], "reason": "the life totals were written down"});
        let (s, v) = call(&app, "POST", &url, Some(&hana), Some(entry)).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        assert_eq!(pending().await, Value::Null);
    });
}

#[test]
fn a_pairing_override_never_moves_a_player_away_from_a_started_game() {
    // Given six players of a naruto event in round 1 and the game of table 1 started (created
    // bound to its table, with its two players),
    let floor = Floor::new("ovg");
    let router = app(floor.state.clone());
    let (org, jin) = (floor.token(Role::Organizer, "olga"), floor.token(Role::Judge, "jin"));
    let store = floor.state.store().clone();
    let id = StreamId::new("ovg").unwrap();
    let events = || store.head(&id).unwrap().len;
    rt().block_on(async {
        let post = |path: &str, t: &str, body: Value| {
            let (router, t, path) = (router.clone(), t.to_string(), format!("/api/v1/tournaments{path}"));
            async move { call(&router, "POST", &path, Some(&t), Some(body)).await }
        };
        let body = json!({"id": "ovg", "name": "Started", "game": "naruto", "rounds": 2, "top_cut": 0});
        assert_eq!(post("", &org, body).await.0, StatusCode::CREATED);
        let players = json!({"players": ["ann", "bo", "cy", "dee", "eve", "fay"]});
        assert_eq!(post("/ovg/players", &org, players).await.0, StatusCode::CREATED);
        assert_eq!(post("/ovg/rounds", &org, json!({})).await.0, StatusCode::CREATED);
        let decks = json!({"decks": [deck("alice.deck"), deck("bob.deck")]});
        let (s, game) = post("/ovg/rounds/1/tables/1/games", &jin, decks).await;
        assert_eq!(s, StatusCode::CREATED, "{game}");
        let (_, pairings) = get(&router, "/api/v1/tournaments/ovg/pairings", None).await;
        let seat = |t: usize, side: &str| pairings["tables"][t][side].as_str().unwrap().to_string();
        let n = events();

        // when the organizer swaps a player of table 1 with one of table 2,
        let swap = json!({"swap": [seat(0, "a"), seat(1, "b")], "reason": "accessibility"});
        let (s, v) = post("/ovg/overrides", &org, swap).await;
        // then it is refused, naming the started game, and nothing is written (the game keeps
        // its match: its players still sit together at table 1);
        refused(s, &v, StatusCode::CONFLICT, "TOUR-OVER-2");
        assert!(v["error"].as_str().unwrap().contains(&format!("table 1 ({})", game["id"].as_str().unwrap())), "{v}");
        assert_eq!(events(), n, "nothing written");
        let (_, after) = get(&router, "/api/v1/tournaments/ovg/pairings", None).await;
        assert_eq!(after["tables"][0], pairings["tables"][0]);
        // tables with no game started are still changed by hand.
        let swap = json!({"swap": [seat(1, "a"), seat(2, "b")], "reason": "accessibility"});
        let (s, v) = post("/ovg/overrides", &org, swap).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
    });
}
