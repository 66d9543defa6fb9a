//! The judges' floor, through the CLI and the API: a judge call gives its table the time back
//! (shown beside the table), a call closed twice is refused; penalties by infraction with the
//! policy's repeat upgrade and a downgrade with its reason; a player's penalty history; appeals
//! decided by the head judge only, once, and counted by verify and the result checks.

use axum::http::StatusCode;
use serde_json::{json, Value};

use kifu::log::envelope::StreamId;
use kifu::server::app;
use kifu::server::tokens::Role;
use kifu::tournament::record;

use super::runs::verify;
use crate::server::{call, get, rt, Floor};
use crate::support::TestEnv;

fn events(env: &TestEnv, id: &str) -> u64 {
    record::load(&env.store(), &StreamId::new(id).unwrap()).unwrap().head.len
}

/// An event of four players (`p1`..`p4`) under `policy`, round 1 paired; its pairings.
fn paired_event(env: &TestEnv, id: &str, policy: &str) -> Value {
    let seed = "33".repeat(32);
    env.ok(&[
        "tournament",
        "new",
        "--name",
        "Floor",
        "--game",
        "stones",
        "--id",
        id,
        "--seed",
        &seed,
        "--policy",
        policy,
    ]);
    env.ok(&["tournament", "register", id, "p1", "p2", "p3", "p4"]);
    serde_json::from_str(&env.ok(&["tournament", "pair", id, "--json"])).unwrap()
}

fn json_of(out: &str) -> Value {
    serde_json::from_str(out).unwrap()
}

#[test]
fn a_judge_call_gives_its_table_the_time_back_and_closes_once() {
    // Given a paired round,
    let env = TestEnv::new();
    paired_event(&env, "jc", "mtr");
    // when a call at table 1 opens at 14:00:00, is taken at 14:00:40 and closed at 14:03:10,
    let open = ["tournament", "call", "open", "jc", "--table", "1", "--caller", "p1", "--json"];
    let v = json_of(&env.ok(&[&open[..], &["--at", "2026-01-01T14:00:00Z"][..]].concat()));
    assert_eq!(v["call"], 1, "{v}");
    env.ok(&["tournament", "call", "take", "jc", "1", "--judge", "jin", "--at", "2026-01-01T14:00:40Z"]);
    let close = ["tournament", "call", "close", "jc", "1", "--judge", "jin", "--outcome", "ruling"];
    env.ok(&[&close[..], &["--note", "GRV: fixed", "--at", "2026-01-01T14:03:10Z"][..]].concat());
    // then the match gets the call's duration back, rounded up to a minute, beside its table,
    let p = json_of(&env.ok(&["tournament", "pairings", "jc", "--json"]));
    let t1 = p["tables"].as_array().unwrap().iter().find(|t| t["table"] == 1).unwrap();
    assert_eq!(t1["extension_minutes"], 4, "{p}");
    let t2 = p["tables"].as_array().unwrap().iter().find(|t| t["table"] == 2).unwrap();
    assert_eq!(t2["extension_minutes"], 0, "{p}");
    assert!(env.ok(&["tournament", "pairings", "jc"]).contains("+4 min"));
    // and a call closed twice, taken before it opened, or at a table that does not exist is
    // refused with the rule, nothing written (as JSON with --json).
    let n = events(&env, "jc");
    let err = env.fails(&[&close[..], &["--at", "2026-01-01T14:05:00Z"][..]].concat());
    assert!(err.contains("TOUR-CALL-2") && err.contains("call 1 was already closed by jin"), "{err}");
    let out = env.kifu(&[&close[..], &["--json"][..]].concat());
    assert!(!out.status.success());
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["violations"][0]["rule"], "TOUR-CALL-2", "{v}");
    let err = env.fails(&["tournament", "call", "open", "jc", "--table", "9", "--caller", "p1"]);
    assert!(err.contains("round 1 has no table 9"), "{err}");
    let err = env.fails(&["tournament", "call", "open", "jc", "--table", "2", "--caller", "p3", "--at", "yesterday"]);
    assert!(err.contains("RFC 3339"), "{err}");
    assert_eq!(events(&env, "jc"), n, "refused calls write nothing");
    // A judge sets the extension with a reason; the pairings and verify show it, with who and why.
    let err =
        env.fails(&["tournament", "call", "extend", "jc", "1", "--minutes", "6", "--judge", "jin", "--reason", " "]);
    assert!(err.contains("TOUR-CALL-3"), "{err}");
    env.ok(&["tournament", "call", "extend", "jc", "1", "--minutes", "6", "--judge", "jin", "--reason", "deck check"]);
    let p = json_of(&env.ok(&["tournament", "pairings", "jc", "--json"]));
    assert_eq!(p["tables"][0]["extension_minutes"], 6, "{p}");
    let calls = json_of(&env.ok(&["tournament", "call", "list", "jc", "--json"]));
    assert_eq!(calls[0]["status"], "closed", "{calls}");
    assert_eq!(calls[0]["closed"]["note"], "GRV: fixed", "{calls}");
    let (ok, out) = verify(&env, "jc");
    assert!(ok, "{out}");
    assert!(
        out.contains(
            "judge calls ok: 1 calls, 1 closed; extensions: call 1 round 1 table 1 +6 min, set by jin: deck check"
        ),
        "{out}"
    );
}

#[test]
fn repeats_are_upgraded_downgrades_give_a_reason_and_the_head_judge_decides_appeals_once() {
    let env = TestEnv::new();
    paired_event(&env, "pen", "mtr");
    let grv = |reason: &str| {
        json_of(&env.ok(&[
            "tournament",
            "penalty",
            "pen",
            "p1",
            "--infraction",
            "gpe-grv",
            "--judge",
            "jin",
            "--reason",
            reason,
            "--json",
        ]))
    };
    // Given two Game Rule Violation warnings for p1,
    assert_eq!(grv("missed a draw")["penalty"], "Warning");
    assert_eq!(grv("played a land twice")["penalty"], "Warning");
    // when a third is penalized, then the IPG's upgrade makes it a game loss.
    let third = grv("attacked with a tapped creature");
    assert_eq!((third["penalty"].as_str(), third["upgraded"].as_bool()), (Some("GameLoss"), Some(true)), "{third}");
    // A lighter penalty than the policy's needs the downgrade's reason; a heavier one is refused.
    let n = events(&env, "pen");
    let late =
        ["tournament", "penalty", "pen", "p2", "--infraction", "te-tardiness", "--judge", "jin", "--reason", "late"];
    let err = env.fails(&[&late[..], &["--type", "warning"][..]].concat());
    assert!(err.contains("TOUR-PEN-5") && err.contains("downgrade"), "{err}");
    let err = env.fails(&[&late[..], &["--type", "match-loss"][..]].concat());
    assert!(err.contains("heavier"), "{err}");
    let err = env.fails(&[
        "tournament",
        "penalty",
        "pen",
        "p2",
        "--infraction",
        "gpe-nope",
        "--judge",
        "jin",
        "--reason",
        "x",
    ]);
    assert!(err.contains("not an infraction of the mtr policy"), "{err}");
    assert_eq!(events(&env, "pen"), n, "refused penalties write nothing");
    env.ok(&[&late[..], &["--type", "warning", "--downgrade", "the venue's clock was wrong"][..]].concat());
    // The history shows each penalty as issued and as it stands.
    let h = json_of(&env.ok(&["tournament", "penalties", "pen", "p1", "--json"]));
    let rows = h["penalties"].as_array().unwrap();
    assert_eq!(rows.len(), 3, "{h}");
    assert_eq!((rows[2]["issued"].as_str(), rows[2]["upgraded"].as_bool()), (Some("game-loss"), Some(true)), "{h}");
    let h2 = json_of(&env.ok(&["tournament", "penalties", "pen", "p2", "--json"]));
    assert_eq!(h2["penalties"][0]["downgrade"], "the venue's clock was wrong", "{h2}");
    // The game loss stands: p1 cannot be reported winning 2-0.
    let err = env.fails(&["tournament", "report", "pen", "--winner", "p1", "2-0"]);
    assert!(err.contains("game loss penalty"), "{err}");
    // p1 appeals penalty 3; only the head judge decides, once.
    env.ok(&["tournament", "appeal", "pen", "p1", "--penalty", "3"]);
    let err = env.fails(&["tournament", "decide", "pen", "1", "overturned", "--judge", "jin", "--reason", "x"]);
    assert!(err.contains("name the event's head judge first"), "{err}");
    env.ok(&["tournament", "head-judge", "pen", "hana"]);
    let err = env.fails(&["tournament", "decide", "pen", "1", "overturned", "--judge", "jin", "--reason", "x"]);
    assert!(err.contains("only the head judge, hana, decides appeals"), "{err}");
    env.ok(&[
        "tournament",
        "decide",
        "pen",
        "1",
        "overturned",
        "--judge",
        "hana",
        "--reason",
        "the opponent tapped it",
    ]);
    let n = events(&env, "pen");
    let err = env.fails(&["tournament", "decide", "pen", "1", "upheld", "--judge", "hana", "--reason", "again"]);
    assert!(err.contains("already decided"), "{err}");
    let out = env.kifu(&["tournament", "appeal", "pen", "p1", "--penalty", "3", "--json"]);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["violations"][0]["rule"], "TOUR-APPEAL-2", "{v}");
    assert!(v["error"].as_str().unwrap().contains("the decision is final"), "{v}");
    let err = env.fails(&["tournament", "appeal", "pen", "p3", "--penalty", "1"]);
    assert!(err.contains("p3 is not a player penalty 1 is about"), "{err}");
    assert_eq!(events(&env, "pen"), n, "refused appeals write nothing");
    // Then the decision counts: the history keeps both, the result no longer needs the game loss,
    // and verify lists the appeal.
    let h = json_of(&env.ok(&["tournament", "penalties", "pen", "p1", "--json"]));
    let third = &h["penalties"][2];
    assert_eq!((third["issued"].as_str(), third["standing"].as_str()), (Some("game-loss"), None), "{h}");
    assert_eq!(third["appeals"][0]["decision"], "overturned", "{h}");
    env.ok(&["tournament", "report", "pen", "--winner", "p1", "2-0"]);
    let (ok, out) = verify(&env, "pen");
    assert!(ok, "{out}");
    assert!(out.contains("p1 GameLoss (round 1) overturned for gpe-grv, upgraded for a repeat"), "{out}");
    assert!(
        out.contains("appeal 1 of penalty 3 by p1: overturned by head judge hana (the opponent tapped it)"),
        "{out}"
    );
    assert!(out.contains("p2 Warning (round 1) for te-tardiness, downgraded (the venue's clock was wrong)"), "{out}");
}

#[test]
fn an_override_stays_on_the_record_and_later_rounds_are_still_re_derived() {
    // Given round 1 paired,
    let env = TestEnv::new();
    let r1 = paired_event(&env, "ov", "mtr");
    let t1 = &r1["tables"][0];
    let (a, b) = (t1["player"].as_str().unwrap().to_string(), t1["opponent"].as_str().unwrap().to_string());
    let c = r1["tables"][1]["player"].as_str().unwrap().to_string();
    // an override without a reason, or that changes nothing, is refused and writes nothing;
    let n = events(&env, "ov");
    let err = env.fails(&["tournament", "override", "ov", "--swap", &a, &c, "--by", "olga", "--reason", " "]);
    assert!(err.contains("TOUR-OVER-1"), "{err}");
    let err =
        env.fails(&["tournament", "override", "ov", "--seat", &a, "--table", "1", "--by", "olga", "--reason", "x"]);
    assert!(err.contains("changes nothing"), "{err}");
    assert_eq!(events(&env, "ov"), n);
    // when the organizer seats a player at table 2 for accessibility,
    env.ok(&[
        "tournament",
        "override",
        "ov",
        "--seat",
        &b,
        "--table",
        "2",
        "--by",
        "olga",
        "--reason",
        "wheelchair access",
    ]);
    let p = json_of(&env.ok(&["tournament", "pairings", "ov", "--json"]));
    assert_eq!(p["tables"][1]["a"], b.as_str(), "{p}");
    // then results, round 2 and verify go on, and verify lists the override with who and why.
    for t in ["1", "2"] {
        env.ok(&["tournament", "report", "ov", "--table", t, "2-0"]);
    }
    env.ok(&["tournament", "pair", "ov"]);
    let (ok, out) = verify(&env, "ov");
    assert!(ok, "{out}");
    assert!(out.contains("round 1 overridden by olga (wheelchair access)"), "{out}");
    assert!(out.contains("round(s) 1, 2 paired by kifu, re-derived from their seeds and the standings"), "{out}");
}

#[test]
fn a_warning_given_inside_a_game_of_the_event_counts_in_the_history() {
    // Given a naruto event and the game of round 1 table 1, bound to its match,
    let env = TestEnv::new();
    let seed = "55".repeat(32);
    env.ok(&["tournament", "new", "--name", "Fri", "--game", "naruto", "--id", "gr", "--seed", &seed]);
    env.ok(&["tournament", "register", "gr", "alice", "bob", "carol", "dave"]);
    let paired = json_of(&env.ok(&["tournament", "pair", "gr", "--json"]));
    let (a, b) = (paired["tables"][0]["player"].as_str().unwrap(), paired["tables"][0]["opponent"].as_str().unwrap());
    let root = env!("CARGO_MANIFEST_DIR");
    let (da, db) = (format!("{root}/replays/decks/alice.deck"), format!("{root}/replays/decks/bob.deck"));
    let players = format!("{a},{b}");
    let new: Vec<&str> = vec![
        "game",
        "new",
        "--game",
        "naruto",
        "--players",
        &players,
        "--id",
        "gr-t1",
        "--deck",
        &da,
        "--deck",
        &db,
        "--tournament",
        "gr",
        "--round",
        "1",
        "--table",
        "1",
    ];
    env.ok(&new);
    // when a judge warns the first player inside the game,
    env.ok(&["game", "rule", "gr-t1", "--judge", "jin", "warning", "--player", a, "--note", "slow play"]);
    // then the player's penalty history for the event shows it, with its game, round and table.
    let h = json_of(&env.ok(&["tournament", "penalties", "gr", a, "--json"]));
    let g = &h["game_rulings"][0];
    assert_eq!(
        (g["game"].as_str(), g["kind"].as_str(), g["round"].as_u64()),
        (Some("gr-t1"), Some("warning"), Some(1)),
        "{h}"
    );
    assert_eq!(
        (g["table"].as_u64(), g["judge"].as_str(), g["note"].as_str()),
        (Some(1), Some("jin"), Some("slow play")),
        "{h}"
    );
    let all = json_of(&env.ok(&["tournament", "penalties", "gr", "--json"]));
    assert_eq!(all.as_array().unwrap().len(), 1, "{all}");
}

#[test]
fn pokemon_repeats_climb_the_penalty_ladder() {
    let env = TestEnv::new();
    paired_event(&env, "pk", "pokemon");
    let table = json_of(&env.ok(&["tournament", "infractions", "pk", "--json"]));
    assert!(
        table.as_array().unwrap().iter().any(|r| r["code"] == "ge-major" && r["default"] == "double-prize"),
        "{table}"
    );
    let minor = || {
        json_of(&env.ok(&[
            "tournament",
            "penalty",
            "pk",
            "p1",
            "--infraction",
            "ge-minor",
            "--judge",
            "jin",
            "--reason",
            "r",
            "--json",
        ]))
    };
    assert_eq!(minor()["penalty"], "Warning");
    let second = minor();
    assert_eq!(
        (second["penalty"].as_str(), second["upgraded"].as_bool()),
        (Some("DoublePrizeCard"), Some(true)),
        "{second}"
    );
    // A caution is Pokémon's only.
    let env2 = TestEnv::new();
    paired_event(&env2, "m", "mtr");
    let err = env2.fails(&["tournament", "penalty", "m", "p1", "--type", "caution", "--judge", "jin", "--reason", "r"]);
    assert!(err.contains("TOUR-PEN-6"), "{err}");
}

#[test]
fn judges_work_the_floor_from_the_api_and_players_cannot_penalize() {
    let floor = Floor::new("fl");
    let router = app(floor.state.clone());
    let token = |role, name: &str| floor.token(role, name);
    let (org, jin, hana) = (token(Role::Organizer, "olga"), token(Role::Judge, "jin"), token(Role::Judge, "hana"));
    let (ann, cy) = (token(Role::Player, "ann"), token(Role::Player, "cy"));
    rt().block_on(async {
        let post = |path: String, t: &str, body: Value| {
            let (router, t) = (router.clone(), t.to_string());
            async move { call(&router, "POST", &path, Some(&t), Some(body)).await }
        };
        let p = |s: &str| format!("/api/v1/tournaments/fl{s}");
        let body = json!({"id": "fl", "name": "Floor", "game": "naruto", "rounds": 2, "top_cut": 0});
        assert_eq!(post("/api/v1/tournaments".into(), &org, body).await.0, StatusCode::CREATED);
        let (s, v) = post(p("/players"), &org, json!({"players": ["ann", "bo", "cy", "dee"]})).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        assert_eq!(post(p("/rounds"), &org, json!({})).await.0, StatusCode::CREATED);
        let events = || async { get(&router, "/api/v1/tournaments/fl", None).await.1["events"].as_u64().unwrap() };
        let n = events().await;
        // A player token cannot penalize, read the history or list the calls.
        let (s, v) = post(p("/penalties"), &ann, json!({"player": "cy", "penalty": "warning", "reason": "slow"})).await;
        assert_eq!(s, StatusCode::FORBIDDEN, "{v}");
        assert_eq!(get(&router, &p("/penalties?player=cy"), Some(&ann)).await.0, StatusCode::FORBIDDEN);
        assert_eq!(get(&router, &p("/calls"), Some(&ann)).await.0, StatusCode::FORBIDDEN);
        // A player calls a judge to their own table only.
        let (_, pairings) = get(&router, &p("/pairings"), None).await;
        let mine =
            pairings["by_name"].as_array().unwrap().iter().find(|r| r["player"] == "ann").unwrap()["table"].clone();
        let other = if mine == 1 { 2 } else { 1 };
        let (s, v) = post(p("/calls"), &ann, json!({"table": other})).await;
        assert_eq!(s, StatusCode::FORBIDDEN, "{v}");
        assert_eq!(events().await, n, "refusals write nothing");
        let (s, v) = post(p("/calls"), &ann, json!({"table": mine})).await;
        assert_eq!((s, v["call"].as_u64()), (StatusCode::CREATED, Some(1)), "{v}");
        assert_eq!(post(p("/calls/1/take"), &jin, json!({})).await.0, StatusCode::CREATED);
        let (s, v) = post(p("/calls/1/close"), &jin, json!({"outcome": "no-action"})).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        let (s, v) = post(p("/calls/1/close"), &jin, json!({"outcome": "ruling"})).await;
        assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
        assert!(v["error"].as_str().unwrap().contains("call 1 was already closed"), "{v}");
        let (_, pairings) = get(&router, &p("/pairings"), None).await;
        let t = pairings["tables"].as_array().unwrap().iter().find(|t| t["table"] == mine).unwrap();
        assert_eq!((t["extension_minutes"].as_u64(), t["open_calls"].as_u64()), (Some(1), Some(0)), "{pairings}");
        // Slow play twice: the second is upgraded to a game loss (IPG 3).
        let slow = json!({"player": "cy", "infraction": "te-slow-play", "reason": "slow"});
        assert_eq!(post(p("/penalties"), &jin, slow.clone()).await.0, StatusCode::CREATED);
        assert_eq!(post(p("/penalties"), &jin, slow).await.0, StatusCode::CREATED);
        let (s, h) = get(&router, &p("/penalties?player=cy"), Some(&jin)).await;
        assert_eq!(s, StatusCode::OK, "{h}");
        let rows = h["players"][0]["penalties"].as_array().unwrap();
        assert_eq!((rows[1]["issued"].as_str(), rows[1]["upgraded"].as_bool()), (Some("game-loss"), Some(true)), "{h}");
        // cy appeals the game loss with her own token; a judge who is not the head judge cannot decide.
        let (s, v) = post(p("/appeals"), &cy, json!({"penalty": 2})).await;
        assert_eq!((s, v["appeal"].as_u64()), (StatusCode::CREATED, Some(1)), "{v}");
        let (_, h) = get(&router, &p("/penalties"), Some(&jin)).await;
        assert_eq!(h["pending_appeals"][0]["ruling"], "penalty 2", "{h}");
        let change = json!({"decision": "changed", "penalty": "warning", "reason": "the first was not slow play"});
        let (s, v) = post(p("/appeals/1/decision"), &hana, change.clone()).await;
        assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "no head judge named yet: {v}");
        let (s, v) = post(p("/head-judge"), &jin, json!({"judge": "hana"})).await;
        assert_eq!(s, StatusCode::FORBIDDEN, "the organizer names the head judge: {v}");
        assert_eq!(post(p("/head-judge"), &org, json!({"judge": "hana"})).await.0, StatusCode::CREATED);
        let (s, v) = post(p("/appeals/1/decision"), &jin, change.clone()).await;
        assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
        let (s, v) = post(p("/appeals/1/decision"), &hana, change).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        let (s, v) = post(p("/appeals"), &cy, json!({"penalty": 2})).await;
        assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
        assert!(v["error"].as_str().unwrap().contains("the decision is final"), "{v}");
        let (_, h) = get(&router, &p("/penalties?player=cy"), Some(&hana)).await;
        let second = &h["players"][0]["penalties"][1];
        assert_eq!(
            (second["issued"].as_str(), second["standing"].as_str()),
            (Some("game-loss"), Some("warning")),
            "{h}"
        );
        // Only the organizer or the head judge overrides a pairing, with a reason.
        let swap = json!({"swap": ["ann", "bo"], "reason": "seat by the door"});
        assert_eq!(post(p("/overrides"), &ann, swap.clone()).await.0, StatusCode::FORBIDDEN);
        assert_eq!(post(p("/overrides"), &jin, swap.clone()).await.0, StatusCode::FORBIDDEN);
        let (s, v) = post(p("/overrides"), &hana, json!({"swap": ["ann", "bo"]})).await;
        assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "an override gives its reason: {v}");
        let (s, v) = post(p("/overrides"), &hana, swap).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        let (_, vr) = get(&router, &p("/verify"), None).await;
        assert_eq!(vr["ok"], true, "{vr}");
        assert!(vr.to_string().contains("overridden by hana (seat by the door)"), "{vr}");
    });
}
