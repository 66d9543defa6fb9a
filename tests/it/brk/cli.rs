//! The `kifu game` commands for BRK: rules and schema, self-play that audits clean, refusals that
//! write nothing (bad squads, malformed or illegal events), show and audit of a fixture.

use kifu::game::Game;
use kifu::games::brk::Brk;

use crate::support::TestEnv;

#[test]
fn rules_list_every_brk_id_and_the_schema_has_the_stack_events() {
    let env = TestEnv::new();
    let out = env.ok(&["game", "rules", "--game", "brk"]);
    for r in Brk::coverage() {
        assert!(out.contains(r.rule), "kifu game rules --game brk lacks {}", r.rule);
    }
    let schema = env.ok(&["game", "rules", "--game", "brk", "--schema"]);
    for v in ["GameActionDeclared", "GameActionBlocked", "GameActionInterrupted", "PaymentMade", "CardRevealed"] {
        assert!(schema.contains(v), "the schema lacks {v}");
    }
}

#[test]
fn the_cli_plays_refuses_and_audits_brk_games() {
    let env = TestEnv::new();
    let out = env.ok(&["game", "self-play", "--game", "brk", "--seed", "1", "--count", "20", "--prefix", "b"]);
    let id = out.lines().next().unwrap().split('\t').next().unwrap().trim().to_string();
    assert!(env.ok(&["game", "audit", &id]).contains("audit: clean"));
    let shown = env.ok(&["game", "show", &id, "--turn", "2", "--as", "spectator"]);
    assert!(shown.contains("policy stack_order") && shown.contains("priority"), "{shown}");

    // A squad list with a bad line: refused with its line number, no game created.
    let bad = env.path("bad.txt");
    std::fs::write(&bad, "5 BRK-01\nfive BRK-02\n").unwrap();
    let good = env.path("good.txt");
    std::fs::write(&good, "# squad\n3 BRK-01\n2 BRK-04\n").unwrap();
    let (bad, good) = (bad.to_str().unwrap(), good.to_str().unwrap());
    let err = env.fails(&[
        "game",
        "new",
        "--game",
        "brk",
        "--players",
        "ann,ben",
        "--deck",
        good,
        "--deck",
        bad,
        "--id",
        "bad-game",
    ]);
    assert!(err.contains("line 2"), "{err}");
    assert!(!env.ok(&["streams"]).contains("bad-game"), "no game was written");
    let err = env.fails(&[
        "game",
        "new",
        "--game",
        "brk",
        "--players",
        "ann,ben",
        "--deck",
        good,
        "--deck",
        good,
        "--policy",
        "stack_order=random",
    ]);
    assert!(err.contains("lifo|fifo"), "{err}");

    // A game: a malformed event and an illegal one are refused, and nothing is written.
    env.ok(&[
        "game",
        "new",
        "--game",
        "brk",
        "--players",
        "ann,ben",
        "--deck",
        good,
        "--deck",
        good,
        "--policy",
        "stack_order=fifo",
        "--id",
        "g1",
    ]);
    let before = env.ok(&["log", "g1", "--json"]);
    let err = env.fails(&["game", "act", "g1", "--json", r#"{"CardRevealed": {"seat": 0}}"#]);
    assert!(!err.is_empty());
    let err = env.fails(&["game", "act", "g1", "--json", r#"{"TurnStarted": {"seat": 1, "turn": 1}}"#]);
    assert!(err.contains("refused, nothing recorded") && err.contains("BRK-OPEN-1"), "{err}");
    assert_eq!(env.ok(&["log", "g1", "--json"]), before, "nothing was written");

    // The judged fixture: the blocked action's unpaid source is found at the forced event.
    let fixture = concat!(env!("CARGO_MANIFEST_DIR"), "/replays/brk-judged.kifu");
    let audit = env.ok(&["game", "audit", fixture]);
    assert!(audit.contains("BRK-BLOCK-5"), "{audit}");
}
