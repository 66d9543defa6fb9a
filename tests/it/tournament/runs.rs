//! Running an event as organizers and judges do, through the CLI: no dead ends (finalize checks,
//! early finalize, void and re-pair, pair needs two players), results by player and by table
//! against the match format, names, penalties, imports that continue, and JSON errors.

use kifu::log::envelope::StreamId;
use kifu::tournament::record;

use crate::support::TestEnv;

/// `kifu tournament verify --json`: whether it passed, and every check's detail, one per line.
pub fn verify(env: &TestEnv, id: &str) -> (bool, String) {
    let out = env.kifu(&["tournament", "verify", id, "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let details: Vec<String> = v["checks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            format!(
                "{} {}: {}",
                c["check"].as_str().unwrap(),
                if c["ok"] == true { "ok" } else { "FAILED" },
                c["detail"].as_str().unwrap()
            )
        })
        .collect();
    (out.status.success(), details.join("\n"))
}

/// Events in a tournament stream (the store is closed again before the next `kifu` call).
fn events(env: &TestEnv, id: &str) -> u64 {
    record::load(&env.store(), &StreamId::new(id).unwrap()).unwrap().head.len
}

fn new_event(env: &TestEnv, id: &str, extra: &[&str]) {
    let seed = "22".repeat(32);
    let mut args = vec!["tournament", "new", "--name", "Friday", "--game", "stones", "--id", id, "--seed", &seed];
    args.extend_from_slice(extra);
    env.ok(&args);
}

fn register(env: &TestEnv, id: &str, names: &[&str]) {
    let mut args = vec!["tournament", "register", id];
    args.extend_from_slice(names);
    env.ok(&args);
}

fn pair(env: &TestEnv, id: &str) -> serde_json::Value {
    serde_json::from_str(&env.ok(&["tournament", "pair", id, "--json"])).unwrap()
}

/// Reports every table of the latest round as a 2-0 for the first-listed player.
fn report_all(env: &TestEnv, id: &str, round: &serde_json::Value) {
    for t in round["tables"].as_array().unwrap() {
        let table = t["table"].as_u64().unwrap().to_string();
        env.ok(&["tournament", "report", id, "--table", &table, "2-0"]);
    }
}

#[test]
fn pair_needs_two_players_and_finalize_needs_the_whole_event() {
    let env = TestEnv::new();
    new_event(&env, "fri", &["--rounds", "2", "--top-cut", "2"]);
    let before = events(&env, "fri");
    let err = env.fails(&["tournament", "pair", "fri"]);
    assert!(err.contains("at least two active players"), "{err}");
    register(&env, "fri", &["alice"]);
    let err = env.fails(&["tournament", "pair", "fri"]);
    assert!(err.contains("at least two active players; 1"), "{err}");
    assert_eq!(events(&env, "fri"), before + 1, "only the registration was written");
    register(&env, "fri", &["bob", "carol", "dave"]);
    let r1 = pair(&env, "fri");
    report_all(&env, "fri", &r1);
    let n = events(&env, "fri");
    let err = env.fails(&["tournament", "finalize", "fri"]);
    assert!(err.contains("only 1 of 2 Swiss rounds were played"), "{err}");
    assert_eq!(events(&env, "fri"), n, "a refused finalize writes nothing");
    let r2 = pair(&env, "fri");
    report_all(&env, "fri", &r2);
    let err = env.fails(&["tournament", "finalize", "fri"]);
    assert!(err.contains("the top 2 was not played"), "{err}");
    env.ok(&["tournament", "top-cut", "fri"]);
    let err = env.fails(&["tournament", "finalize", "fri"]);
    assert!(err.contains("tables without a result"), "{err}");
    env.ok(&["tournament", "report", "fri", "--table", "1", "2-1"]);
    env.ok(&["tournament", "finalize", "fri"]);
    let v: serde_json::Value = serde_json::from_str(&env.ok(&["tournament", "verify", "fri", "--json"])).unwrap();
    let fin = v["checks"].as_array().unwrap().iter().find(|c| c["check"] == "finalized").unwrap();
    assert!(fin["detail"].as_str().unwrap().contains("after every planned round"), "{fin}");
}

#[test]
fn a_judge_finalizes_early_with_a_reason_and_verify_says_so() {
    let env = TestEnv::new();
    new_event(&env, "early", &["--rounds", "3", "--top-cut", "0"]);
    register(&env, "early", &["a1", "a2", "a3", "a4"]);
    let r1 = pair(&env, "early");
    report_all(&env, "early", &r1);
    let err = env.fails(&["tournament", "finalize", "early", "--judge", "jin"]);
    assert!(err.contains("--reason"), "{err}");
    env.ok(&["tournament", "finalize", "early", "--judge", "jin", "--reason", "the venue closed"]);
    let (ok, out) = verify(&env, "early");
    assert!(ok, "{out}");
    assert!(out.contains("finalized early by judge jin: the venue closed"), "{out}");
    assert!(out.contains("only 1 of 3 Swiss rounds"), "{out}");
}

#[test]
fn the_latest_round_is_voided_before_any_result_and_re_paired() {
    let env = TestEnv::new();
    new_event(&env, "v", &["--top-cut", "0"]);
    // Paired with nobody there yet would have been an empty round 1: now refused. Paired too
    // early with three players, it is voided, a fourth registers normally, and it is re-paired.
    register(&env, "v", &["p1", "p2", "p3"]);
    let r1 = pair(&env, "v");
    assert_eq!(r1["byes"].as_array().unwrap().len(), 1);
    let err = env.fails(&["tournament", "void", "v", "--reason", ""]);
    assert!(err.contains("reason"), "{err}");
    env.ok(&["tournament", "void", "v", "--reason", "paired before the last player arrived"]);
    register(&env, "v", &["p4"]);
    let out = env.ok(&["tournament", "standings", "v", "--json"]);
    let rows: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(rows.as_array().unwrap().iter().all(|r| r["late"] == false && r["byes"] == 0), "{rows}");
    let again = pair(&env, "v");
    assert_eq!(again["round"], 1);
    assert!(again["byes"].as_array().unwrap().is_empty(), "{again}");
    env.ok(&["tournament", "report", "v", "--table", "1", "2-0"]);
    let n = events(&env, "v");
    let err = env.fails(&["tournament", "void", "v", "--reason", "oops"]);
    assert!(err.contains("already has a result"), "{err}");
    assert_eq!(events(&env, "v"), n);
    let (ok, out) = verify(&env, "v");
    assert!(ok, "{out}");
    assert!(out.contains("round 1 voided before any result"), "{out}");
    assert!(!out.contains("FAILED"), "{out}");
}

#[test]
fn results_by_player_against_the_match_format() {
    let env = TestEnv::new();
    new_event(&env, "r", &["--rounds", "1", "--top-cut", "0", "--best-of", "3"]);
    register(&env, "r", &["Alice", "bob", " carol ", "dave"]);
    let err = env.fails(&["tournament", "register", "r", "alice "]);
    assert!(err.contains("already registered as \"Alice\""), "{err}");
    let err = env.fails(&["tournament", "register", "r", "erin", "Erin"]);
    assert!(err.contains("given twice"), "{err}");
    let r1 = pair(&env, "r");
    let tables = r1["tables"].as_array().unwrap();
    let alice_table = tables.iter().find(|t| t["player"] == "Alice" || t["opponent"] == "Alice").unwrap();
    let alice_first = alice_table["player"] == "Alice";
    let n = events(&env, "r");
    for bad in ["3-3-0", "5-0-0", "2-2", "1-0-4"] {
        let err = env.fails(&["tournament", "report", "r", "--table", "1", bad]);
        assert!(err.contains("cannot happen in a best-of-3"), "{bad}: {err}");
    }
    let err = env.fails(&["tournament", "report", "r", "--table", "9", "2-0"]);
    assert!(err.contains("round 1 has no table 9"), "{err}");
    let err = env.fails(&["tournament", "report", "r", "--winner", "alcie", "2-1"]);
    assert!(err.contains("did you mean \"Alice\""), "{err}");
    let err = env.fails(&["tournament", "report", "r", "--winner", "alice", "1-2"]);
    assert!(err.contains("more wins than losses"), "{err}");
    assert_eq!(events(&env, "r"), n, "refused reports write nothing");
    // The slip read from Alice's side, whichever side of the table she sits on.
    env.ok(&["tournament", "report", "r", "--winner", "ALICE", "2-1"]);
    let err = env.fails(&["tournament", "report", "r", "--winner", "alice", "2-1"]);
    assert!(err.contains("already has a result"), "{err}");
    let other = tables.iter().find(|t| t["table"] != alice_table["table"]).unwrap();
    let someone = other["opponent"].as_str().unwrap().to_string();
    env.ok(&["tournament", "report", "r", "--draw", &someone, "1-1-1"]);
    let rows: serde_json::Value = serde_json::from_str(&env.ok(&["tournament", "standings", "r", "--json"])).unwrap();
    let alice = rows.as_array().unwrap().iter().find(|r| r["player"] == "Alice").unwrap();
    assert_eq!((alice["wins"].as_u64(), alice["losses"].as_u64()), (Some(1), Some(0)), "first: {alice_first}");
    assert!(rows.as_array().unwrap().iter().any(|r| r["player"] == "carol"), "names are trimmed");
    let drawn = rows.as_array().unwrap().iter().find(|r| r["player"] == someone.as_str()).unwrap();
    assert_eq!(drawn["draws"], 1);
}

#[test]
fn penalties_need_a_reason_and_a_disqualification_drops() {
    let env = TestEnv::new();
    new_event(&env, "pen", &["--rounds", "2", "--top-cut", "0"]);
    register(&env, "pen", &["p1", "p2", "p3", "p4"]);
    let r1 = pair(&env, "pen");
    let t1 = &r1["tables"][0];
    let (a, b) = (t1["player"].as_str().unwrap().to_string(), t1["opponent"].as_str().unwrap().to_string());
    let n = events(&env, "pen");
    let err = env.fails(&["tournament", "penalty", "pen", &a, "--type", "warning", "--judge", "jin", "--reason", " "]);
    assert!(err.contains("reason"), "{err}");
    let err =
        env.fails(&["tournament", "penalty", "pen", "nobody", "--type", "warning", "--judge", "j", "--reason", "x"]);
    assert!(err.contains("not registered"), "{err}");
    assert_eq!(events(&env, "pen"), n);
    env.ok(&["tournament", "penalty", "pen", &a, "--type", "match-loss", "--judge", "jin", "--reason", "marked cards"]);
    let err = env.fails(&["tournament", "report", "pen", "--winner", &a, "2-0"]);
    assert!(err.contains("match loss penalty"), "{err}");
    env.ok(&["tournament", "report", "pen", "--winner", &b, "2-0"]);
    let t2 = r1["tables"][1]["table"].as_u64().unwrap().to_string();
    env.ok(&["tournament", "report", "pen", "--table", &t2, "2-0"]);
    env.ok(&["tournament", "penalty", "pen", &b, "--type", "dq", "--judge", "jin", "--reason", "cheating"]);
    let r2 = pair(&env, "pen");
    let everyone: Vec<String> = r2["tables"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|t| [t["player"].as_str().unwrap().to_string(), t["opponent"].as_str().unwrap().to_string()])
        .chain(r2["byes"].as_array().unwrap().iter().map(|b| b.as_str().unwrap().to_string()))
        .collect();
    assert!(!everyone.contains(&b), "a disqualified player is not paired: {r2}");
    let (ok, out) = verify(&env, "pen");
    assert!(ok, "{out}");
    assert!(out.contains("MatchLoss (round 1)") && out.contains("Disqualification (round 1)"), "{out}");
}

#[test]
fn json_commands_print_their_errors_as_json() {
    let env = TestEnv::new();
    new_event(&env, "j", &[]);
    let out = env.kifu(&["tournament", "pair", "j", "--json"]);
    assert!(!out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v["error"].as_str().unwrap().contains("at least two active players"), "{v}");
    register(&env, "j", &["x1", "x2"]);
    let out = env.kifu(&["tournament", "register", "j", "X1", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v["problems"][0].as_str().unwrap().contains("already registered"), "{v}");
    assert_eq!(v["violations"][0]["rule"], "TOUR-REG-2", "{v}");
}

#[test]
fn a_melee_import_continues_for_two_more_rounds_and_verifies() {
    let env = TestEnv::new();
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/melee");
    let path = dir.join("lega-pauper-genova-winter-season-lunedi-3-febbraio-ore-2030-235978-2025-02-03.json");
    let id = env.ok(&["tournament", "import", "--from", "melee", path.to_str().unwrap(), "--id", "genova"]);
    assert_eq!(id.trim(), "genova");
    let played = record::load(&env.store(), &StreamId::new("genova").unwrap()).unwrap().state.swiss_played();
    let err = env.fails(&["tournament", "pair", "genova"]);
    assert!(err.contains(&format!("plays {played} Swiss rounds")), "{err}");
    let target = (played + 2).to_string();
    let r: serde_json::Value =
        serde_json::from_str(&env.ok(&["tournament", "pair", "genova", "--rounds", &target, "--json"])).unwrap();
    report_all(&env, "genova", &r);
    let r = pair(&env, "genova");
    report_all(&env, "genova", &r);
    env.ok(&["tournament", "finalize", "genova"]);
    let (ok, out) = verify(&env, "genova");
    assert!(ok, "{out}");
    assert!(
        out.contains(&format!(
            "round(s) {} imported",
            (1..=played).map(|r| r.to_string()).collect::<Vec<_>>().join(", ")
        )),
        "{out}"
    );
    assert!(out.contains(&format!("round(s) {}, {} paired by kifu", played + 1, played + 2)), "{out}");
    assert!(!out.contains("FAILED"), "{out}");
}
