//! An event set up and run on the web (issue 53, items 2, 6 and 7) through the API: the game is
//! one of the server's rulesets, a pod event is created and seated and takes FATE lists checked
//! by the deck rules, the top cut is set until it is cut, judges are named, a whole match moves
//! to another table, and a mistaken event is archived (hidden from the lists, still verifiable).
//! Every refusal says its rule or cause and writes nothing.

use axum::http::StatusCode;
use serde_json::{json, Value};

use kifu::log::envelope::StreamId;
use kifu::server::tokens::Role;

use super::{call, get, rt, Floor};

fn refused(s: StatusCode, v: &Value, want: StatusCode, says: &str) {
    assert_eq!(s, want, "{v}");
    let msg = v["error"].as_str().unwrap_or_default();
    assert!(msg.contains(says), "{says:?} in {msg:?}");
}

fn fate_list() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/replays/decks/fate.deck")).unwrap()
}

const EIGHT: [&str; 8] = ["ann", "bo", "cy", "di", "eve", "fay", "gus", "hal"];

#[test]
fn events_are_set_up_seated_and_archived_on_the_web_and_refusals_write_nothing() {
    let floor = Floor::new("lc-night");
    let store = floor.state.store().clone();
    let app = kifu::server::app(floor.state.clone());
    let org = floor.token_in("*", Role::Organizer, "olga");
    let judge = floor.token_in("*", Role::Judge, "jo");
    let len = |id: &str| store.head(&StreamId::new(id).unwrap()).ok().map(|h| h.len);
    rt().block_on(async {
        // The games offered are the server's own.
        let (s, v) = get(&app, "/api/v1/rulesets", None).await;
        assert_eq!(s, StatusCode::OK);
        let names: Vec<&str> =
            v["rulesets"].as_array().unwrap().iter().map(|g| g["ruleset"].as_str().unwrap()).collect();
        assert_eq!(names, ["naruto", "vanguard", "lc", "brk", "fate"]);
        let fate = v["rulesets"].as_array().unwrap().iter().find(|g| g["ruleset"] == "fate").unwrap().clone();
        assert_eq!((fate["min_seats"].as_u64(), fate["max_seats"].as_u64()), (Some(2), Some(8)));

        // Bad setups: an unknown game, pods of a two-player game, pods too large; nothing written.
        let new = |body: Value| call(&app, "POST", "/api/v1/tournaments", Some(&org), Some(body));
        let (s, v) = new(json!({"id": "typo", "name": "Typo", "game": "lcc"})).await;
        refused(
            s,
            &v,
            StatusCode::BAD_REQUEST,
            "unknown game \"lcc\": this server records naruto, vanguard, lc, brk, fate",
        );
        let (s, v) = new(json!({"id": "typo", "name": "Typo", "game": "lc", "format": "pods"})).await;
        refused(s, &v, StatusCode::BAD_REQUEST, "lc seats 2 to 2 players");
        let (s, v) = new(json!({"id": "typo", "name": "Typo", "game": "fate", "format": "pods", "pod_size": 9})).await;
        refused(s, &v, StatusCode::BAD_REQUEST, "pods of 9");
        let (s, v) = new(json!({"id": "typo", "name": "Typo", "game": "lc", "time_zone": "+02:00"})).await;
        refused(s, &v, StatusCode::UNPROCESSABLE_ENTITY, "TOUR-STAFF-2");
        assert_eq!(len("typo").unwrap_or(0), 0, "nothing written");

        // A Swiss LC event with its judges and time zone; the top cut by attendance is shown.
        let body = json!({"id": "lc-night", "name": "LC night", "game": "lc", "rounds": 1, "best_of": 3,
                          "time_zone": "Europe/Paris", "head_judge": "hana", "judges": ["jo"]});
        let (s, v) = new(body).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        let players = json!({"players": EIGHT});
        let (s, v) = call(&app, "POST", "/api/v1/tournaments/lc-night/players", Some(&org), Some(players)).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        let (_, sum) = get(&app, "/api/v1/tournaments/lc-night", None).await;
        assert_eq!(sum["top_cut_by_attendance"], 0, "MTR gives 8 players no cut");
        assert_eq!((sum["head_judge"].clone(), sum["judges"].clone()), (json!("hana"), json!(["jo"])));
        assert_eq!(sum["time_zone"], "Europe/Paris");
        let named = |who: &str| json!({"judge": who});
        let (s, v) = call(&app, "POST", "/api/v1/tournaments/lc-night/judges", Some(&judge), Some(named("kai"))).await;
        refused(s, &v, StatusCode::FORBIDDEN, "only the organizer");
        let (s, v) = call(&app, "POST", "/api/v1/tournaments/lc-night/judges", Some(&org), Some(named("JO"))).await;
        refused(s, &v, StatusCode::UNPROCESSABLE_ENTITY, "TOUR-STAFF-1");

        // The top cut: 6 is refused, 4 is set; round 1 is paired and a match moves tables.
        let size = "/api/v1/tournaments/lc-night/top-cut/size";
        let before = len("lc-night");
        let (s, v) = call(&app, "POST", size, Some(&org), Some(json!({"top_cut": 6}))).await;
        refused(s, &v, StatusCode::UNPROCESSABLE_ENTITY, "TOUR-CUT-5");
        assert_eq!(len("lc-night"), before, "nothing written");
        let (s, v) = call(&app, "POST", size, Some(&org), Some(json!({"top_cut": 4}))).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        let (s, v) = call(&app, "POST", "/api/v1/tournaments/lc-night/rounds", Some(&org), Some(json!({}))).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        let (_, p) = get(&app, "/api/v1/tournaments/lc-night/pairings", None).await;
        let pair = |p: &Value, t: usize| (p["tables"][t - 1]["a"].clone(), p["tables"][t - 1]["b"].clone());
        let (one, three) = (pair(&p, 1), pair(&p, 3));
        let moved = json!({"move_table": 1, "to": 3, "reason": "wheelchair access at table 3"});
        let (s, v) = call(&app, "POST", "/api/v1/tournaments/lc-night/overrides", Some(&org), Some(moved)).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        let (_, p) = get(&app, "/api/v1/tournaments/lc-night/pairings", None).await;
        assert_eq!((pair(&p, 3), pair(&p, 1)), (one, three), "the matches swap tables, opponents unchanged");
        let bad = json!({"move_table": 1, "to": 9, "reason": "x"});
        let (s, v) = call(&app, "POST", "/api/v1/tournaments/lc-night/overrides", Some(&org), Some(bad)).await;
        refused(s, &v, StatusCode::NOT_FOUND, "no table 9");

        // Results, the cut; then the size no longer changes.
        for t in 1..=4 {
            let r = json!({"table": t, "score": "2-0-0"});
            let (s, v) = call(&app, "POST", "/api/v1/tournaments/lc-night/results", Some(&org), Some(r)).await;
            assert_eq!(s, StatusCode::CREATED, "{v}");
        }
        let (s, v) = call(&app, "POST", "/api/v1/tournaments/lc-night/top-cut", Some(&org), None).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        let before = len("lc-night");
        let (s, v) = call(&app, "POST", size, Some(&org), Some(json!({"top_cut": 8}))).await;
        refused(s, &v, StatusCode::UNPROCESSABLE_ENTITY, "TOUR-CUT-5");
        assert!(v["error"].as_str().unwrap().contains("the top cut started in round 2"), "{v}");
        assert_eq!(len("lc-night"), before, "nothing written");

        // Archiving: not by a judge, not without a reason; then hidden, still verifiable, closed.
        let (_, verified) = get(&app, "/api/v1/tournaments/lc-night/verify", None).await;
        let archive = "/api/v1/tournaments/lc-night/archive";
        let (s, v) = call(&app, "POST", archive, Some(&judge), Some(json!({"reason": "mistake"}))).await;
        refused(s, &v, StatusCode::FORBIDDEN, "only the organizer");
        let (s, v) = call(&app, "POST", archive, Some(&org), Some(json!({"reason": " "}))).await;
        refused(s, &v, StatusCode::UNPROCESSABLE_ENTITY, "TOUR-ARCH-1");
        assert_eq!(len("lc-night"), before, "nothing written");
        let (s, v) = call(&app, "POST", archive, Some(&org), Some(json!({"reason": "a rehearsal"}))).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        let listed = |v: &Value| v.as_array().unwrap().iter().any(|r| r["id"] == "lc-night");
        assert!(!listed(&get(&app, "/api/v1/streams", None).await.1), "hidden from the list");
        assert!(listed(&get(&app, "/api/v1/streams?archived=true", None).await.1), "listed on request");
        let (s, v) = get(&app, "/api/v1/tournaments/lc-night/verify", None).await;
        assert_eq!((s, v["ok"].clone()), (StatusCode::OK, verified["ok"].clone()), "{v}");
        let (_, sum) = get(&app, "/api/v1/tournaments/lc-night", None).await;
        assert_eq!(sum["archived"], json!({"by": "olga", "reason": "a rehearsal"}));
        let r = json!({"table": 1, "score": "2-0-0"});
        let (s, v) = call(&app, "POST", "/api/v1/tournaments/lc-night/results", Some(&org), Some(r)).await;
        refused(s, &v, StatusCode::UNPROCESSABLE_ENTITY, "TOUR-ARCH-1");
        assert_eq!(len("lc-night"), before.map(|n| n + 1), "only the archive was written");
    });
}

#[test]
fn a_fate_pod_event_is_created_takes_lists_and_is_seated_on_the_web() {
    let floor = Floor::new("fate-night");
    let store = floor.state.store().clone();
    let app = kifu::server::app(floor.state.clone());
    let org = floor.token(Role::Organizer, "olga");
    let id = StreamId::new("fate-night").unwrap();
    let len = || store.head(&id).ok().map(|h| h.len);
    rt().block_on(async {
        let body = json!({"id": "fate-night", "name": "FATE night", "game": "fate", "format": "pods", "pod_size": 4,
                          "rounds": 1, "decks_required": true, "deck_deadline": "2099-01-01T18:00:00+01:00"});
        let (s, v) = call(&app, "POST", "/api/v1/tournaments", Some(&org), Some(body)).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        let (_, sum) = get(&app, "/api/v1/tournaments/fate-night", None).await;
        assert_eq!((sum["format"].clone(), sum["pod_size"].clone()), (json!("pods"), json!(4)));
        assert_eq!(sum["decks_required"], true);
        assert_eq!(sum["deck_deadline"], "2099-01-01T17:00:00.000000Z");
        let players = json!({"players": EIGHT});
        let (s, v) = call(&app, "POST", "/api/v1/tournaments/fate-night/players", Some(&org), Some(players)).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");

        // Lists are required: round 1 waits for them (TOUR-DECK-5), and nothing is written.
        let pair = "/api/v1/tournaments/fate-night/rounds";
        let before = len();
        let (s, v) = call(&app, "POST", pair, Some(&org), Some(json!({}))).await;
        refused(s, &v, StatusCode::UNPROCESSABLE_ENTITY, "TOUR-DECK-5");
        assert!(v["error"].as_str().unwrap().contains("8 player(s) have none"), "{v}");
        assert_eq!(len(), before);
        // A FATE list is checked by the deck rules, not by a two-seat game's Masters.
        let decks = "/api/v1/tournaments/fate-night/decks";
        let (s, v) = call(&app, "POST", decks, Some(&org), Some(json!({"player": "ann", "list": "1 HS01\n"}))).await;
        assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
        assert!(!v["error"].as_str().unwrap().contains("Masters"), "a list is not refused for a seat count: {v}");
        assert_eq!(len(), before);
        for p in EIGHT {
            let (s, v) = call(&app, "POST", decks, Some(&org), Some(json!({"player": p, "list": fate_list()}))).await;
            assert_eq!(s, StatusCode::CREATED, "{p}: {v}");
        }
        // Seated: two pods of four; a pod event has no top cut to set.
        let (s, v) = call(&app, "POST", pair, Some(&org), Some(json!({}))).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        assert_eq!(v["pods"].as_array().map(Vec::len), Some(2), "{v}");
        let (_, p) = get(&app, "/api/v1/tournaments/fate-night/pairings", None).await;
        assert_eq!(p["pods"][0]["seats"].as_array().map(Vec::len), Some(4), "{p}");
        let before = len();
        let size = "/api/v1/tournaments/fate-night/top-cut/size";
        let (s, v) = call(&app, "POST", size, Some(&org), Some(json!({"top_cut": 4}))).await;
        refused(s, &v, StatusCode::UNPROCESSABLE_ENTITY, "TOUR-CUT-5");
        assert_eq!(len(), before);
    });
}
