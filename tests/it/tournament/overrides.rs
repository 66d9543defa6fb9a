//! Overrides that stay on the record (issue 34 item 6), through the CLI and the API: a late entry
//! and a result entered against the players' reports are each allowed to an organizer or the head
//! judge with a reason, refused otherwise with nothing written, and `verify` lists every override
//! (with the pairing override and a late entry an earlier build recorded without a reason) and
//! every deck check, while the standings and the later rounds are still re-derived.

use axum::http::StatusCode;
use serde_json::{json, Value};

use kifu::log::envelope::{Actor, StreamId};
use kifu::server::app;
use kifu::server::tokens::Role;
use kifu::tournament::{record, TournamentEvent};

use super::runs::verify;
use crate::server::{call, get, rt, Floor};
use crate::support::TestEnv;

fn events(env: &TestEnv, id: &str) -> u64 {
    record::load(&env.store(), &StreamId::new(id).unwrap()).unwrap().head.len
}

fn json_of(out: &str) -> Value {
    serde_json::from_str(out).unwrap()
}

/// The `overrides` line of a verify output, or "".
fn overrides_line(out: &str) -> String {
    out.lines().find(|l| l.starts_with("overrides ")).unwrap_or_default().to_string()
}

#[test]
fn late_entries_and_entered_results_are_overrides_verify_lists_with_author_and_reason() {
    // Given four players and round 1 paired,
    let env = TestEnv::new();
    let seed = "44".repeat(32);
    env.ok(&[
        "tournament",
        "new",
        "--name",
        "Late",
        "--game",
        "stones",
        "--id",
        "lt",
        "--seed",
        &seed,
        "--rounds",
        "3",
    ]);
    env.ok(&["tournament", "register", "lt", "p1", "p2", "p3", "p4"]);
    let r1 = json_of(&env.ok(&["tournament", "pair", "lt", "--json"]));
    let n = events(&env, "lt");
    // a late entry without an author or a reason is refused and writes nothing,
    let err = env.fails(&["tournament", "register", "lt", "zed"]);
    assert!(err.contains("a late entry is an override") && err.contains("--reason"), "{err}");
    let err = env.fails(&["tournament", "register", "lt", "zed", "--by", "olga", "--reason", "  "]);
    assert!(err.contains("--by") && err.contains("--reason"), "{err}");
    // and --by/--reason before round 1 would mean nothing (refused on another event).
    env.ok(&["tournament", "new", "--name", "Early", "--game", "stones", "--id", "early", "--seed", &seed]);
    let err = env.fails(&["tournament", "register", "early", "ann", "--by", "olga", "--reason", "x"]);
    assert!(err.contains("round 1 is not paired yet"), "{err}");
    assert_eq!(events(&env, "lt"), n);
    // When the organizer admits zed late with a reason,
    let out = env.ok(&["tournament", "register", "lt", "zed", "--by", "olga", "--reason", "train was late"]);
    assert!(out.contains("zed entered late (from round 2), admitted by olga: train was late"), "{out}");
    // and table 1's result is entered against the players' reports by the head judge, table 2 reported,
    let score_err = env.fails(&["tournament", "report", "lt", "--table", "1", "2-0", "--by", "hana"]);
    assert!(score_err.contains("--by and --reason"), "{score_err}");
    let both = env.fails(&["tournament", "report", "lt", "--table", "1", "2-0", "--by", "hana", "--judge", "jin"]);
    assert!(both.contains("cannot be used with"), "{both}");
    env.ok(&["tournament", "report", "lt", "--table", "1", "2-0", "--by", "hana", "--reason", "the slips disagree"]);
    env.ok(&["tournament", "report", "lt", "--table", "2", "2-1"]);
    let t1 = &r1["tables"][0];
    let winner = t1["player"].as_str().unwrap().to_string();
    // then the entered result counts like a reported one, round 2 pairs zed in, and verify passes,
    let s = json_of(&env.ok(&["tournament", "standings", "lt", "--json"]));
    let row = s.as_array().unwrap().iter().find(|r| r["player"] == winner.as_str()).unwrap().clone();
    assert_eq!((row["wins"].as_u64(), row["losses"].as_u64()), (Some(1), Some(0)), "{s}");
    let zed = s.as_array().unwrap().iter().find(|r| r["player"] == "zed").unwrap().clone();
    assert_eq!(zed["late"], true, "{s}");
    let r2 = json_of(&env.ok(&["tournament", "pair", "lt", "--json"]));
    assert!(r2.to_string().contains("\"zed\""), "{r2}");
    let (ok, out) = verify(&env, "lt");
    assert!(ok, "{out}");
    // listing each override with who made it and why, in the order recorded.
    let line = overrides_line(&out);
    assert!(line.starts_with("overrides ok: 2 override(s)"), "{out}");
    let late = line.find("zed entered late, from round 2 by olga (train was late)").expect(&line);
    let entered = line
        .find("round 1 table 1 result 2-0-0 entered against the players' reports by hana (the slips disagree)")
        .expect(&line);
    assert!(late < entered, "{line}");
    // Pairing overrides stay in the pairings line and join the list.
    assert!(out.contains("pairings ok: "), "{out}");
}

#[test]
fn a_late_entry_an_earlier_build_recorded_is_listed_without_author_or_reason() {
    // Given a log with a bare LateEntered (imports and builds before 2026-11-27 wrote it),
    let env = TestEnv::new();
    let seed = "45".repeat(32);
    env.ok(&["tournament", "new", "--name", "Old", "--game", "stones", "--id", "old", "--seed", &seed]);
    env.ok(&["tournament", "register", "old", "p1", "p2", "p3", "p4"]);
    env.ok(&["tournament", "pair", "old"]);
    let store = env.store();
    let id = StreamId::new("old").unwrap();
    let late = TournamentEvent::LateEntered { player: "zed".into(), deck: None, first_round: 2 };
    record::record(&store, &id, Actor::Organizer("to".into()), vec![late]).unwrap();
    drop(store);
    // then verify still passes and names it as a late entry with no author or reason recorded.
    let (ok, out) = verify(&env, "old");
    assert!(ok, "{out}");
    let line = overrides_line(&out);
    assert!(line.contains("zed entered late, from round 2 (event"), "{line}");
    assert!(line.contains("no author or reason recorded: an import or an earlier build"), "{line}");
}

#[test]
fn only_the_organizer_or_the_head_judge_overrides_from_the_api_with_a_reason() {
    let floor = Floor::new("ovr");
    let router = app(floor.state.clone());
    let token = |role, name: &str| floor.token(role, name);
    let (org, jin, hana) = (token(Role::Organizer, "olga"), token(Role::Judge, "jin"), token(Role::Judge, "hana"));
    rt().block_on(async {
        let post = |path: String, t: &str, body: Value| {
            let (router, t) = (router.clone(), t.to_string());
            async move { call(&router, "POST", &path, Some(&t), Some(body)).await }
        };
        let p = |s: &str| format!("/api/v1/tournaments/ovr{s}");
        let body = json!({"id": "ovr", "name": "Overrides", "game": "naruto", "rounds": 3, "top_cut": 0});
        assert_eq!(post("/api/v1/tournaments".into(), &org, body).await.0, StatusCode::CREATED);
        let (s, v) = post(p("/players"), &org, json!({"players": ["ann", "bo", "cy", "dee"]})).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        assert_eq!(post(p("/head-judge"), &org, json!({"judge": "hana"})).await.0, StatusCode::CREATED);
        assert_eq!(post(p("/rounds"), &org, json!({})).await.0, StatusCode::CREATED);
        let events = || async { get(&router, "/api/v1/tournaments/ovr", None).await.1["events"].as_u64().unwrap() };
        let n = events().await;

        // A late entry: a floor judge is refused, a reason is required, the head judge admits it.
        let late = json!({"players": ["zed"], "reason": "train was late"});
        let (s, v) = post(p("/players"), &jin, late.clone()).await;
        assert_eq!(s, StatusCode::FORBIDDEN, "{v}");
        assert!(v["error"].as_str().unwrap().contains("only the organizer or the head judge admits a late entry"));
        let (s, v) = post(p("/players"), &hana, json!({"players": ["zed"]})).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
        assert!(v["error"].as_str().unwrap().contains("a late entry is an override on the record: give its reason"));
        assert_eq!(events().await, n, "refusals write nothing");
        let (s, v) = post(p("/players"), &hana, late).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");

        // A disputed report: the players disagree on table 1.
        let (_, pairings) = get(&router, &p("/pairings"), None).await;
        let t1 = &pairings["tables"][0];
        let (a, b) = (t1["a"].as_str().unwrap().to_string(), t1["b"].as_str().unwrap().to_string());
        let (ta, tb) = (token(Role::Player, &a), token(Role::Player, &b));
        let (s, v) = post(p("/results"), &ta, json!({"table": 1, "score": "2-0-0"})).await;
        assert_eq!(s, StatusCode::ACCEPTED, "{v}");
        let (s, v) = post(p("/results/confirm"), &tb, json!({"table": 1, "score": "0-2-0"})).await;
        assert_eq!(s, StatusCode::CONFLICT, "{v}");
        let n = events().await;
        // The result entered against them: not by a floor judge, not without a reason.
        let entry = json!({"table": 1, "score": "1-1-1"});
        let (s, v) = post(p("/results"), &jin, entry.clone()).await;
        assert_eq!(s, StatusCode::FORBIDDEN, "{v}");
        let (s, v) = post(p("/results"), &org, entry).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
        let msg = v["error"].as_str().unwrap();
        assert!(
            msg.contains(&format!("entering 1-1-1 where {a} reported 2-0-0")) && msg.contains("give its reason"),
            "{v}"
        );
        assert_eq!(events().await, n, "refusals write nothing");
        let entry = json!({"table": 1, "score": "1-1-1", "reason": "both players agreed to a draw in front of jin"});
        let (s, v) = post(p("/results"), &org, entry).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        let (_, pending) = get(&router, &p("/results"), None).await;
        assert_eq!(pending["pending"], json!([]), "the disputed report is settled");
        // A floor judge may still enter a slip no player reported (not an override).
        let (s, v) = post(p("/results"), &jin, json!({"table": 2, "score": "2-0-0"})).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");

        // The judges' page lists every override; verify lists them with author and reason.
        let (s, f) = get(&router, &p("/floor"), Some(&jin)).await;
        assert_eq!(s, StatusCode::OK, "{f}");
        let kinds: Vec<&str> = f["overrides"].as_array().unwrap().iter().map(|o| o["kind"].as_str().unwrap()).collect();
        assert_eq!(kinds, ["late entry", "result"], "{f}");
        assert_eq!(f["overrides"][1]["by"], "olga", "{f}");
        let (_, report) = get(&router, &p("/verify"), None).await;
        let line = report["checks"].as_array().unwrap().iter().find(|c| c["check"] == "overrides").unwrap().clone();
        assert_eq!(line["ok"], true, "{report}");
        let detail = line["detail"].as_str().unwrap();
        assert!(detail.contains("zed entered late, from round 2 by hana (train was late)"), "{detail}");
        assert!(
            detail.contains("round 1 table 1 result 1-1-1 entered against the players' reports by olga"),
            "{detail}"
        );
    });
}

#[test]
fn verify_lists_every_deck_check_and_list_change() {
    // Given ana and rui with registered lists, round 1 paired,
    let env = TestEnv::new();
    let deck = |name: &str| {
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("replays/decks").join(name).to_str().unwrap().to_string()
    };
    let seed = "46".repeat(32);
    env.ok(&["tournament", "new", "--name", "DV", "--game", "lc", "--id", "dv", "--seed", &seed]);
    env.ok(&["tournament", "register", "dv", "ana", "rui", "zed"]);
    env.ok(&["tournament", "deck", "dv", "ana", &deck("lc-ana.deck")]);
    env.ok(&["tournament", "deck", "dv", "rui", &deck("lc-rui.deck")]);
    env.ok(&["tournament", "pair", "dv"]);
    // when ana's deck is checked as registered, then with one card swapped, and rui's list is
    // changed after the lock,
    env.ok(&["tournament", "deck-check", "dv", "ana", &deck("lc-ana.deck"), "--judge", "jin"]);
    let presented = std::fs::read_to_string(deck("lc-ana.deck")).unwrap().replacen("4 LC-C01", "3 LC-C01\n1 LC-C99", 1);
    let file = env.path("presented.deck");
    std::fs::write(&file, presented).unwrap();
    env.ok(&["tournament", "deck-check", "dv", "ana", file.to_str().unwrap(), "--judge", "kai"]);
    let change = ["tournament", "deck-change", "dv", "rui", &deck("lc-ana.deck"), "--judge", "jin"];
    env.ok(&[&change[..], &["--reason", "wrong list entered"][..]].concat());
    // then verify names each check with its round, judge and result, and the change with who and why.
    let (ok, out) = verify(&env, "dv");
    assert!(ok, "{out}");
    let line = out.lines().find(|l| l.starts_with("decks ")).expect(&out).to_string();
    assert!(line.starts_with("decks ok: 2 list(s) registered"), "{line}");
    assert!(line.contains("rui's list changed after the lock by jin (wrong list entered)"), "{line}");
    assert!(line.contains("deck check 1 of ana in round 1 by jin at "), "{line}");
    assert!(line.contains(" by jin at ") && line.contains(": matched"), "{line}");
    assert!(line.contains("deck check 2 of ana in round 1") && line.contains("by kai at "), "{line}");
    assert!(line.contains(": 2 card(s) differ"), "{line}");
    assert!(!line.contains("LC-C99"), "which cards differ stays with the judges: {line}");
}
