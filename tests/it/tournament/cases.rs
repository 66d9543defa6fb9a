//! Investigations through the CLI and the API: statements are sealed in the public log and their
//! text kept privately (owner-only) for the judges; the head judge's disqualification report is
//! signed with their recorded key and the case file says whether it verifies; a player's token
//! cannot read statements or case files; every bad input is refused with nothing written.

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

fn json_of(out: &str) -> Value {
    serde_json::from_str(out).unwrap()
}

const SAW: &str = "I saw p1 look at p2's hand\nwhile p2 drew.";

#[test]
fn a_statement_is_sealed_in_the_log_and_the_signed_report_verifies_in_the_case_file() {
    // Given a paired round with a head judge whose key is recorded, and p1 disqualified,
    let env = TestEnv::new();
    let seed = "35".repeat(32);
    env.ok(&["tournament", "new", "--name", "Case", "--game", "stones", "--id", "cs", "--seed", &seed]);
    env.ok(&["tournament", "register", "cs", "p1", "p2", "p3", "p4"]);
    env.ok(&["tournament", "pair", "cs"]);
    env.ok(&["tournament", "head-judge", "cs", "hana"]);
    let (hana_key, jin_key) = (env.path("hana.key"), env.path("jin.key"));
    env.ok(&["key", "new", "-o", hana_key.to_str().unwrap()]);
    env.ok(&["key", "new", "-o", jin_key.to_str().unwrap()]);
    env.ok(&["tournament", "signer", "cs", "--name", "hana", "--key", hana_key.to_str().unwrap()]);
    env.ok(&["tournament", "signer", "cs", "--name", "jin", "--key", jin_key.to_str().unwrap()]);
    env.ok(&["tournament", "penalty", "cs", "p2", "--type", "warning", "--judge", "jin", "--reason", "slow"]);
    env.ok(&["tournament", "penalty", "cs", "p1", "--type", "dq", "--judge", "hana", "--reason", "cheating"]);

    // when a witness's statement is recorded,
    let st = ["tournament", "statement", "cs", "p1", "--by", "witness", "--author", "wes", "--judge", "jin"];
    let v = json_of(&env.ok(&[&st[..], &["--text", SAW, "--json"][..]].concat()));
    assert_eq!(v["statement"], 1, "{v}");
    // then the public log holds its commitment, not its text, and the text is kept owner-only;
    let exported = env.ok(&["tournament", "export", "cs", "--to", "json"]);
    assert!(exported.contains("StatementRecorded"), "{exported}");
    assert!(!exported.contains("look at p2"), "the public log holds no statement text: {exported}");
    let kept = env.data().join("tournament-cases/cs/statement-1.txt");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(std::fs::metadata(&kept).unwrap().permissions().mode() & 0o777, 0o600);
        assert_eq!(std::fs::metadata(kept.parent().unwrap()).unwrap().permissions().mode() & 0o777, 0o700);
    }

    // and once the head judge signs the report, the case file shows everything and verifies it.
    let report = ["tournament", "dq-report", "cs", "p1", "--name", "hana", "--key", hana_key.to_str().unwrap()];
    let facts = ["--facts", "p1 looked at p2's hand during the draw (statement 1)", "--reasons", "cheating: IPG 4.3"];
    env.ok(&[&report[..], &facts[..]].concat());
    let case = json_of(&env.ok(&["tournament", "case", "cs", "p1", "--json"]));
    assert_eq!(case["player"], "p1", "{case}");
    assert_eq!(case["penalties"][0]["issued"], "dq", "{case}");
    assert_eq!(case["penalties"].as_array().unwrap().len(), 1, "only p1's penalties: {case}");
    assert_eq!(case["statements"][0]["text"], SAW, "{case}");
    assert_eq!(case["statements"][0]["by"], "witness", "{case}");
    assert_eq!(case["reports"][0]["penalty"], 2, "{case}");
    assert_eq!(case["reports"][0]["signature_verifies"], true, "{case}");
    let text = env.ok(&["tournament", "case", "cs", "p1"]);
    for want in
        ["Case file: p1", "statement 1: witness wes, taken by jin", "    while p2 drew.", "the signature verifies"]
    {
        assert!(text.contains(want), "{want:?} in {text}");
    }
    let (ok, details) = verify(&env, "cs");
    assert!(ok, "{details}");
    assert!(details.contains("p1's disqualification report (penalty 2) by hana: the signature verifies"), "{details}");

    // Bad input, each refused with a clear message and nothing written (nor kept).
    let before = events(&env, "cs");
    let err = env.fails(&[&st[..3], &["nobody"][..], &st[4..], &["--text", "x"][..]].concat());
    assert!(err.contains("TOUR-CASE-1") && err.contains("\"nobody\" is not registered"), "{err}");
    let err = env.fails(&[&st[..], &["--text", "  "][..]].concat());
    assert!(err.contains("a statement has text"), "{err}");
    let long = "x".repeat(kifu::tournament::events::STATEMENT_MAX + 1);
    let err = env.fails(&[&st[..], &["--text", &long][..]].concat());
    assert!(err.contains("at most 8000 characters"), "{err}");
    let err = env.fails(&[&st[..], &["--text", "x", "--actor", "player:p2"][..]].concat());
    assert!(err.contains("judge's or organizer's"), "{err}");
    assert!(!env.data().join("tournament-cases/cs/statement-2.txt").exists(), "no text kept for a refusal");
    // A report by a judge who is not the named head judge,
    let by_jin = ["tournament", "dq-report", "cs", "p1", "--name", "jin", "--key", jin_key.to_str().unwrap()];
    let err = env.fails(&[&by_jin[..], &facts[..]].concat());
    assert!(err.contains("TOUR-CASE-2") && err.contains("head judge, hana, not jin"), "{err}");
    // for a player without a disqualification, or naming a penalty that is not one.
    let err = env.fails(&[&report[..3], &["p2"][..], &report[4..], &facts[..]].concat());
    assert!(err.contains("p2 has no disqualification"), "{err}");
    let err = env.fails(&[&report[..3], &["p2"][..], &report[4..], &facts[..], &["--penalty", "1"][..]].concat());
    assert!(err.contains("TOUR-CASE-2") && err.contains("stands as warning"), "{err}");
    // A second report for the same disqualification, and a key that is not the signer's.
    let err = env.fails(&[&report[..], &facts[..]].concat());
    assert!(err.contains("already has its disqualification report"), "{err}");
    let wrong = ["tournament", "dq-report", "cs", "p1", "--name", "hana", "--key", jin_key.to_str().unwrap()];
    let err = env.fails(&[&wrong[..], &facts[..]].concat());
    assert!(err.contains("not hana's recorded key"), "{err}");
    assert_eq!(events(&env, "cs"), before, "nothing written");
}

#[test]
fn statements_and_case_files_are_for_the_events_judges_only_over_the_api() {
    let floor = Floor::new("iv");
    let router = app(floor.state.clone());
    let token = |role, name: &str| floor.token(role, name);
    let (org, jin, ann) = (token(Role::Organizer, "olga"), token(Role::Judge, "jin"), token(Role::Player, "ann"));
    rt().block_on(async {
        let post = |path: String, t: &str, body: Value| {
            let (router, t) = (router.clone(), t.to_string());
            async move { call(&router, "POST", &path, Some(&t), Some(body)).await }
        };
        let p = |s: &str| format!("/api/v1/tournaments/iv{s}");
        let body = json!({"id": "iv", "name": "Inv", "game": "naruto", "rounds": 2, "top_cut": 0});
        assert_eq!(post("/api/v1/tournaments".into(), &org, body).await.0, StatusCode::CREATED);
        assert_eq!(
            post(p("/players"), &org, json!({"players": ["ann", "bo", "cy", "dee"]})).await.0,
            StatusCode::CREATED
        );
        assert_eq!(post(p("/rounds"), &org, json!({})).await.0, StatusCode::CREATED);
        let events = || async { get(&router, "/api/v1/tournaments/iv", None).await.1["events"].as_u64().unwrap() };
        // A judge records a statement; the answer numbers it.
        let said = json!({"player": "cy", "by": "opponent", "author": "ann", "text": "cy drew an extra card"});
        let (s, v) = post(p("/statements"), &jin, said.clone()).await;
        assert_eq!((s, v["statement"].as_u64()), (StatusCode::CREATED, Some(1)), "{v}");
        let n = events().await;
        // A player's token reads no statement and no case file, and records none.
        let (s, v) = get(&router, &p("/statements?player=cy"), Some(&ann)).await;
        assert_eq!(s, StatusCode::FORBIDDEN, "{v}");
        assert!(v["error"].as_str().unwrap().contains("statements are for the event's judges only"), "{v}");
        let (s, v) = get(&router, &p("/case/cy"), Some(&ann)).await;
        assert_eq!(s, StatusCode::FORBIDDEN, "{v}");
        assert!(v["error"].as_str().unwrap().contains("case files are for the event's judges only"), "{v}");
        assert_eq!(get(&router, &p("/statements?player=cy"), None).await.0, StatusCode::UNAUTHORIZED);
        assert_eq!(post(p("/statements"), &ann, said).await.0, StatusCode::FORBIDDEN);
        // A statement about a player not in the event, of an unknown role, or with no text.
        let (s, v) =
            post(p("/statements"), &jin, json!({"player": "zed", "by": "witness", "author": "w", "text": "t"})).await;
        assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
        assert!(v["error"].as_str().unwrap().contains("\"zed\" is not registered"), "{v}");
        let (s, v) =
            post(p("/statements"), &jin, json!({"player": "cy", "by": "bystander", "author": "w", "text": "t"})).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
        let (s, v) =
            post(p("/statements"), &jin, json!({"player": "cy", "by": "witness", "author": "w", "text": ""})).await;
        assert!(s.is_client_error(), "{v}");
        assert_eq!(events().await, n, "refusals write nothing");
        // The judge reads the statements and the case file, texts included.
        let (s, v) = get(&router, &p("/statements?player=cy"), Some(&jin)).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        assert_eq!(v["statements"][0]["text"], "cy drew an extra card", "{v}");
        let (s, v) = get(&router, &p("/case/cy"), Some(&org)).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        assert_eq!((v["player"].as_str(), v["statements"][0]["author"].as_str()), (Some("cy"), Some("ann")), "{v}");
        assert_eq!(v["reports"], json!([]), "{v}");
        // The case exported for conduct reviewers: officials only, a file with the statement revealed.
        let (s, v) = get(&router, &p("/case/cy/export"), Some(&ann)).await;
        assert_eq!(s, StatusCode::FORBIDDEN, "{v}");
        let (s, v) = get(&router, &p("/case/cy/export"), Some(&jin)).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        assert_eq!((v["format"].as_str(), v["player"].as_str()), (Some("kifu case bundle v1"), Some("cy")), "{v}");
        assert_eq!(v["statements"][0]["text"], "cy drew an extra card", "{v}");
        let bundle: kifu::tournament::case::CaseBundle = serde_json::from_value(v).unwrap();
        let opened = kifu::tournament::case::open_bundle(&bundle, None).unwrap();
        assert!(opened.ok(), "{:?}", opened.checks);
    });
}

#[test]
fn a_case_exported_to_conduct_reviewers_checks_anywhere_and_shows_any_tampering() {
    // Given p1's case with two statements (one about p2, which stays out) and a signed report,
    let env = TestEnv::new();
    let seed = "36".repeat(32);
    env.ok(&["tournament", "new", "--name", "Export", "--game", "stones", "--id", "cx", "--seed", &seed]);
    env.ok(&["tournament", "register", "cx", "p1", "p2", "p3", "p4"]);
    env.ok(&["tournament", "pair", "cx"]);
    env.ok(&["tournament", "head-judge", "cx", "hana"]);
    let key = env.path("hana.key");
    env.ok(&["key", "new", "-o", key.to_str().unwrap()]);
    env.ok(&["tournament", "signer", "cx", "--name", "hana", "--key", key.to_str().unwrap()]);
    env.ok(&["tournament", "penalty", "cx", "p1", "--type", "dq", "--judge", "hana", "--reason", "cheating"]);
    let st = |player: &str, text: &str| {
        env.ok(&[
            "tournament",
            "statement",
            "cx",
            player,
            "--by",
            "witness",
            "--author",
            "wes",
            "--judge",
            "jin",
            "--text",
            text,
        ]);
    };
    st("p1", SAW);
    st("p2", "p2 was elsewhere");
    st("p1", "p1 says the cards stuck together");
    let report = ["tournament", "dq-report", "cx", "p1", "--name", "hana", "--key", key.to_str().unwrap()];
    env.ok(&[&report[..], &["--facts", "looked at p2's hand", "--reasons", "cheating"][..]].concat());
    // when it is exported (owner-only),
    let file = env.path("p1-case.json");
    let v = json_of(&env.ok(&["tournament", "case", "cx", "p1", "--export", file.to_str().unwrap(), "--json"]));
    assert_eq!(v["statements"], 2, "{v}");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(std::fs::metadata(&file).unwrap().permissions().mode() & 0o777, 0o600);
    }
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(!text.contains("p2 was elsewhere"), "only the statements about p1 are revealed");
    // then a reviewer with no data directory checks it: the log, both statements, the signature.
    let reviewer = TestEnv::new();
    let out = reviewer.ok(&["tournament", "case-check", file.to_str().unwrap()]);
    for want in [
        "Case file: p1 in cx",
        "    while p2 drew.",
        "ok     statements: 2 statement(s) about p1, each matching the commitment the log sealed",
        "ok     reports: 1 disqualification report(s), each signed by its head judge's recorded key",
        "ok     log: ",
    ] {
        assert!(out.contains(want), "{want:?} in {out}");
    }
    // A statement's text changed after the export fails its check (exit 1), naming it;
    let mut b: Value = serde_json::from_str(&text).unwrap();
    b["statements"][1]["text"] = json!("p1 says nothing happened");
    std::fs::write(&file, serde_json::to_vec(&b).unwrap()).unwrap();
    let out = reviewer.kifu(&["tournament", "case-check", file.to_str().unwrap(), "--json"]);
    assert_eq!(out.status.code(), Some(1));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let checks = v["checks"].as_array().unwrap();
    let statements = checks.iter().find(|c| c["check"] == "statements").unwrap();
    assert_eq!(statements["ok"], false, "{v}");
    assert!(statements["detail"].as_str().unwrap().contains("statement 3's text is not the one the log sealed"), "{v}");
    // a statement left out is named;
    b["statements"] = json!([b["statements"][0].clone()]);
    std::fs::write(&file, serde_json::to_vec(&b).unwrap()).unwrap();
    let out = reviewer.kifu(&["tournament", "case-check", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("statement(s) 3 about p1 are not revealed"));
    // and a log edited by one byte does not open at all.
    let mut log = hex::decode(b["log"].as_str().unwrap()).unwrap();
    let last = log.len() - 40;
    log[last] ^= 1;
    b["log"] = json!(hex::encode(log));
    std::fs::write(&file, serde_json::to_vec(&b).unwrap()).unwrap();
    let err = reviewer.fails(&["tournament", "case-check", file.to_str().unwrap()]);
    assert!(err.contains("the bundle's log does not verify"), "{err}");
    // A case for a player not in the event is refused, and nothing is written.
    let err = env.fails(&["tournament", "case", "cx", "zed", "--export", env.path("zed.json").to_str().unwrap()]);
    assert!(err.contains("\"zed\" is not registered"), "{err}");
    assert!(!env.path("zed.json").exists());
}

/// A naruto event with round 1 paired, its head judge hana, and the game of round 1 table 1 bound
/// to its match, in which hana gave the first player a game loss; returns that player.
fn event_with_a_game_loss(env: &TestEnv) -> String {
    let seed = "37".repeat(32);
    env.ok(&["tournament", "new", "--name", "Held", "--game", "naruto", "--id", "ch", "--seed", &seed]);
    env.ok(&["tournament", "register", "ch", "alice", "bob", "carol", "dave"]);
    let paired = json_of(&env.ok(&["tournament", "pair", "ch", "--json"]));
    let (a, b) = (paired["tables"][0]["player"].as_str().unwrap(), paired["tables"][0]["opponent"].as_str().unwrap());
    env.ok(&["tournament", "head-judge", "ch", "hana"]);
    let root = env!("CARGO_MANIFEST_DIR");
    let (da, db) = (format!("{root}/replays/decks/alice.deck"), format!("{root}/replays/decks/bob.deck"));
    let players = format!("{a},{b}");
    let game = ["game", "new", "--game", "naruto", "--players", &players, "--id", "ch-t1", "--deck", &da];
    let bound = ["--deck", &db, "--tournament", "ch", "--round", "1", "--table", "1"];
    env.ok(&[&game[..], &bound[..]].concat());
    env.ok(&["game", "rule", "ch-t1", "--judge", "hana", "game-loss", "--player", a, "--note", "marked cards"]);
    a.to_string()
}

/// Runs `case-check` on `bundle` written to a file; returns its exit code and its output.
fn case_check(env: &TestEnv, bundle: &Value, more: &[&str]) -> (Option<i32>, String, String) {
    let file = env.path("checked.json");
    std::fs::write(&file, serde_json::to_vec(bundle).unwrap()).unwrap();
    let out = env.kifu(&[&["tournament", "case-check", file.to_str().unwrap()][..], more].concat());
    (out.status.code(), String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into())
}

#[test]
fn a_case_bundle_carries_its_games_and_is_held_to_the_tournaments_head() {
    // Given a player's game loss inside a game of the event, exported in their case,
    let env = TestEnv::new();
    let a = event_with_a_game_loss(&env);
    let file = env.path("case.json");
    env.ok(&["tournament", "case", "ch", &a, "--export", file.to_str().unwrap()]);
    let genuine: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    assert_eq!(genuine["games"][0]["game"], "ch-t1", "the bundle carries the ruling's game");
    assert_eq!(genuine["game_rulings"].as_array().unwrap().len(), 1, "{genuine}");
    // then a reviewer finds the ruling in its game, and is told the log was held to no outside head;
    let reviewer = TestEnv::new();
    let (code, out, err) = case_check(&reviewer, &genuine, &[]);
    assert_eq!(code, Some(0), "{out}{err}");
    for want in [
        "ok     games: 1 game log(s), each verifying and of ch: ch-t1 (bound to round 1 table 1",
        "ok     game rulings: 1 ruling(s) in games, each found in its game's log as listed (each by a judge of the event)",
        "ok     head: not held to an outside head",
        "ok     signed final root: the log holds no signed final root",
        "Every check passed.",
    ] {
        assert!(out.contains(want), "{want:?} in {out}");
    }
    // given the tournament's own head it holds; given another head it fails, naming both.
    let head = serde_json::from_str::<Value>(&case_check(&reviewer, &genuine, &["--json"]).1).unwrap()["head"]
        .as_str()
        .unwrap()
        .to_string();
    let (code, out, _) = case_check(&reviewer, &genuine, &["--head", &head]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains(&format!("ok     head: the log's head is the head given ({head})")), "{out}");
    let other = "ab".repeat(32);
    let (code, out, _) = case_check(&reviewer, &genuine, &["--head", &other]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains(&format!("FAILED head: the bundle's log head {head}")), "{out}");
    assert!(out.contains(&format!("differs from the head given ({other})")), "{out}");
    assert!(out.contains("FAILED: head"), "{out}");
    let (code, _, err) = case_check(&reviewer, &genuine, &["--head", "abc"]);
    assert_eq!(code, Some(1));
    assert!(err.contains("is not a head: give the tournament's head hash, 64 hex digits"), "{err}");

    // A game loss added for a round, table and game that do not exist, by a judge not of the
    // event, fails naming it (as JSON too);
    let mut forged = genuine.clone();
    let mut added = forged["game_rulings"][0].clone();
    for (k, v) in [("game", json!("ch-t9")), ("seq", json!(3)), ("round", json!(9)), ("table", json!(7))] {
        added[k] = v;
    }
    added["judge"] = json!("mallory");
    forged["game_rulings"].as_array_mut().unwrap().push(added);
    let (code, out, _) = case_check(&reviewer, &forged, &[]);
    assert_eq!(code, Some(1), "{out}");
    let named = format!("game-loss to {a} by mallory in game ch-t9 (event 3, round 9 table 7)");
    for want in [
        format!("{named}: ch has no round 9"),
        format!("{named}: mallory is not a judge of ch"),
        format!("{named}: not found: game ch-t9 is not in the bundle"),
        "FAILED: game rulings".to_string(),
    ] {
        assert!(out.contains(&want), "{want:?} in {out}");
    }
    let (code, out, _) = case_check(&reviewer, &forged, &["--json"]);
    assert_eq!(code, Some(1), "{out}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let rulings = v["checks"].as_array().unwrap().iter().find(|c| c["check"] == "game rulings").unwrap().clone();
    assert_eq!(rulings["ok"], false, "{v}");
    assert!(rulings["detail"].as_str().unwrap().contains(&named), "{v}");
    // a ruling's note rewritten is not found in its game, and a ruling left out is named.
    let mut edited = genuine.clone();
    edited["game_rulings"][0]["note"] = json!("a misunderstanding");
    let (code, out, _) = case_check(&reviewer, &edited, &[]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("not found: the game's event"), "{out}");
    let mut dropped = genuine.clone();
    dropped["game_rulings"] = json!([]);
    let (code, out, _) = case_check(&reviewer, &dropped, &[]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains(&format!("game-loss to {a} by hana in game ch-t1 (event")), "{out}");
    assert!(out.contains("is in the game but not listed"), "{out}");

    // A bundle without its games (as earlier builds wrote them) says its rulings are unverified.
    let mut earlier = genuine.clone();
    earlier.as_object_mut().unwrap().remove("games");
    let (code, out, _) = case_check(&reviewer, &earlier, &[]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("FAILED game rulings: game logs not included: rulings unverified"), "{out}");

    // Unknown fields are refused, at the top and nested, naming the field (as JSON with --json).
    let mut extra = genuine.clone();
    extra["verdict"] = json!("cleared");
    let (code, _, err) = case_check(&reviewer, &extra, &[]);
    assert_eq!(code, Some(1));
    assert!(err.contains("is not a case bundle") && err.contains("unknown field `verdict`"), "{err}");
    let (code, out, _) = case_check(&reviewer, &extra, &["--json"]);
    assert_eq!(code, Some(1));
    let v: Value = serde_json::from_str(&out).unwrap();
    assert!(v["error"].as_str().unwrap().contains("unknown field `verdict`"), "{v}");
    let mut nested = genuine.clone();
    nested["game_rulings"][0]["overturned"] = json!(true);
    let (code, _, err) = case_check(&reviewer, &nested, &[]);
    assert_eq!(code, Some(1));
    assert!(err.contains("unknown field `overturned`"), "{err}");
    let mut in_game = genuine.clone();
    in_game["games"][0]["head"] = json!(head);
    let (code, _, err) = case_check(&reviewer, &in_game, &[]);
    assert_eq!(code, Some(1));
    assert!(err.contains("unknown field `head`"), "{err}");
}
