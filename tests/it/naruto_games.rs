//! Naruto end to end through the store: 1,000 seeded self-play games each audit clean, fold
//! deterministically, and round-trip through export and import unchanged; the CLI records,
//! refuses, forces, rules, shows and audits a game.

use std::sync::Arc;

use kifu::clock::SteppingClock;
use kifu::game::Viewer;
use kifu::log::envelope::{StreamId, Timestamp};
use kifu::log::file;
use kifu::store::sled_store::SledStore;
use kifu::store::Store;

use crate::support::TestEnv;

#[test]
fn a_thousand_self_play_games_audit_clean_and_round_trip() {
    let driver = kifu::games::driver("naruto").unwrap();
    let players = vec!["alice".to_string(), "bob".to_string()];
    let a = SledStore::temporary(Arc::new(SteppingClock::fixed())).unwrap();
    let b = SledStore::temporary(Arc::new(SteppingClock::fixed())).unwrap();
    let mut events = 0;
    for seed in 0..1000u64 {
        let id = StreamId::new(&format!("g{seed}")).unwrap();
        driver.self_play(&a, &id, seed, &players, Timestamp(0)).unwrap();
        let log = a.export(&id).unwrap();
        events += log.head.len;
        let report = driver.audit(&log).unwrap();
        assert!(report.is_clean(), "seed {seed}: {:?}", report.findings);
        assert!(report.outcome.is_some(), "seed {seed} finished");
        // Export, read back, import elsewhere: the same bytes and head.
        let bytes = file::write(&log);
        let back = file::read(&bytes).unwrap();
        b.import(&back).unwrap();
        assert_eq!(file::write(&b.export(&id).unwrap()), bytes, "seed {seed}");
        // Folding twice gives the same board.
        let s1 = driver.open(&log).unwrap();
        let s2 = driver.open(&back).unwrap();
        assert_eq!(s1.board(s1.len(), Viewer::Judge), s2.board(s2.len(), Viewer::Judge));
    }
    // The same seed always plays the same game (times differ between stores, the events do not).
    let c = SledStore::temporary(Arc::new(SteppingClock::fixed())).unwrap();
    let id = StreamId::new("g7").unwrap();
    driver.self_play(&c, &id, 7, &players, Timestamp(0)).unwrap();
    assert_eq!(
        driver.export_jsonl(&c.export(&id).unwrap()).unwrap(),
        driver.export_jsonl(&a.export(&id).unwrap()).unwrap()
    );
    assert!(events > 1000 * 20, "games are real games ({events} events)");
}

#[test]
fn the_cli_records_refuses_forces_rules_shows_and_audits() {
    let env = TestEnv::new();
    let id = env.ok(&["game", "self-play", "--game", "naruto", "--seed", "3", "--prefix", "t"]);
    let id = id.split('\t').next().unwrap().trim().to_string();
    let out = env.ok(&["game", "audit", &id]);
    assert!(out.contains("audit: clean"), "{out}");
    // Export the game as JSON lines, take its first action and try it again at the end: refused.
    let path = env.path("g.jsonl");
    env.ok(&["game", "export", &id, "-o", path.to_str().unwrap()]);
    let text = std::fs::read_to_string(&path).unwrap();
    let line: serde_json::Value = serde_json::from_str(text.lines().nth(1).unwrap()).unwrap();
    let event = line.pointer("/entry/Played").unwrap().to_string();
    let before = env.ok(&["log", &id, "--json"]);
    let err = env.fails(&["game", "act", &id, "--json", &event]);
    assert!(err.contains("refused, nothing recorded") && err.contains("NAR-"), "{err}");
    assert_eq!(env.ok(&["log", &id, "--json"]), before, "nothing was written");
    // A judge forces it: stored and flagged; the audit shows it as ruled on.
    let out = env.ok(&["game", "act", &id, "--json", &event, "--judge", "jin", "--force"]);
    assert!(out.contains("FORCED, flagged") && out.contains("breaks NAR-"), "{out}");
    let out = env.ok(&["game", "audit", &id]);
    assert!(out.contains("forced entry by judge jin (event ") && out.contains("0 unresolved"), "{out}");
    // Rulings: a warning and a backup.
    env.ok(&["game", "rule", &id, "--judge", "jin", "warning", "--player", "p1", "--note", "slow play"]);
    let n: u64 =
        serde_json::from_str::<serde_json::Value>(&env.ok(&["log", &id, "--json"])).unwrap().as_array().unwrap().len()
            as u64;
    env.ok(&["game", "rule", &id, "--judge", "jin", "backup", "--to", &(n - 2).to_string(), "--note", "undo"]);
    // Showing the board: a spectator never sees a hand; the player sees their own.
    let spectator = env.ok(&["game", "show", &id, "--turn", "3", "--as", "spectator", "--json"]);
    let p1 = env.ok(&["game", "show", &id, "--turn", "3", "--as", "p1", "--json"]);
    assert_ne!(spectator, p1);
    let table = env.ok(&["game", "show", &id, "--turn", "3", "--as", "p1"]);
    assert!(table.contains("alice (seat 0)") && table.contains("What happened"), "{table}");
    // A player cannot record another player's action.
    let err = env.fails(&["game", "act", &id, "--json", &event, "--actor", "player:nobody"]);
    assert!(err.contains("KIFU-ACTOR-1") || err.contains("NAR-"), "{err}");
}
