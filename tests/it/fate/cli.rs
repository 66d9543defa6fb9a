//! The `kifu game` commands for FATE through the real binary: `rules` lists every FATE ID of the
//! digest, self-play audits clean, and a malformed deck list, catalog or event and an illegal
//! event are refused with a clear message and nothing written.

use crate::game_support::digest_ids;
use crate::support::TestEnv;

#[test]
fn rules_list_every_fate_id_of_the_digest() {
    let env = TestEnv::new();
    let out = env.ok(&["game", "rules", "--game", "fate"]);
    let ids = digest_ids("## 5. Fate", "\n## Appendix A", &["FATE-"]);
    assert!(ids.len() > 60, "only {} FATE IDs parsed from the digest", ids.len());
    let missing: Vec<&String> = ids.iter().filter(|id| !out.contains(id.as_str())).collect();
    assert!(missing.is_empty(), "kifu game rules --game fate lacks {missing:?}");
    let schema = env.ok(&["game", "rules", "--game", "fate", "--schema"]);
    for v in ["EncounterRolled", "CommandSpellUsed", "CardTakenFromHand", "DieRolled"] {
        assert!(schema.contains(v), "the schema lacks {v}");
    }
}

#[test]
fn self_played_fate_games_audit_clean_through_the_cli() {
    let env = TestEnv::new();
    let out = env.ok(&["game", "self-play", "--game", "fate", "--players", "4", "--seed", "1", "--count", "5"]);
    let ids: Vec<String> = out.lines().filter_map(|l| l.split('\t').next()).map(|s| s.trim().to_string()).collect();
    assert_eq!(ids.len(), 5, "{out}");
    for id in &ids {
        let audit = env.ok(&["game", "audit", id]);
        assert!(audit.contains("audit: clean"), "{id}: {audit}");
    }
}

fn new_game(env: &TestEnv, id: &str, decks: [&str; 3], catalog: Option<&str>) -> Result<String, String> {
    let mut args = vec!["game", "new", "--game", "fate", "--id", id, "--players", "ayaka,bazett,caren"];
    for d in decks {
        args.extend(["--deck", d]);
    }
    if let Some(c) = catalog {
        args.extend(["--catalog", c]);
    }
    let out = env.kifu(&args);
    let text = |b: &[u8]| String::from_utf8_lossy(b).to_string();
    if out.status.success() {
        Ok(text(&out.stdout))
    } else {
        Err(text(&out.stderr))
    }
}

#[test]
fn malformed_decks_catalogs_and_events_are_refused_and_nothing_is_written() {
    let env = TestEnv::new();
    let good = concat!(env!("CARGO_MANIFEST_DIR"), "/replays/decks/fate.deck");
    let bad_deck = env.path("bad.deck");
    std::fs::write(&bad_deck, "1 HS01\n1 CL01\nsix SS01\n").unwrap();
    let bad_deck = bad_deck.to_str().unwrap();
    let err = new_game(&env, "bad-deck", [good, good, bad_deck], None).unwrap_err();
    assert!(err.contains("line 3"), "a bad deck line is named by number: {err}");

    let bad_catalog = env.path("bad-catalog.json");
    std::fs::write(&bad_catalog, r#"{"cards":[{"id":"A","name":"A","type":"wizard"}]}"#).unwrap();
    let err = new_game(&env, "bad-catalog", [good, good, good], bad_catalog.to_str()).unwrap_err();
    assert!(err.contains("catalog") && err.contains("unknown variant `wizard`"), "{err}");
    let streams = env.ok(&["streams"]);
    assert!(!streams.contains("bad-deck") && !streams.contains("bad-catalog"), "no game was written: {streams}");

    new_game(&env, "g1", [good, good, good], None).unwrap();
    let before = env.ok(&["log", "g1", "--json"]);
    // Malformed: a field missing, and an event FATE does not have.
    let err = env.fails(&["game", "act", "g1", "--json", r#"{"ServantSet": {"seat": 0}}"#]);
    assert!(err.contains("not a valid fate event") && err.contains("heroic_spirit"), "{err}");
    let err = env.fails(&["game", "act", "g1", "--json", r#"{"CardsShuffled": {"seat": 0}}"#]);
    assert!(err.contains("not a valid fate event") && err.contains("CardsShuffled"), "{err}");
    // Illegal: a turn before the deal, and a seat the game lacks.
    let err = env.fails(&["game", "act", "g1", "--json", r#"{"TurnStarted": {"seat": 0}}"#]);
    assert!(err.contains("refused, nothing recorded") && err.contains("FATE-PHASE-1"), "{err}");
    let err = env.fails(&["game", "act", "g1", "--json", r#"{"TurnStarted": {"seat": 7}}"#]);
    assert!(err.contains("KIFU-SEAT-1"), "{err}");
    assert_eq!(env.ok(&["log", "g1", "--json"]), before, "nothing was written");
}
