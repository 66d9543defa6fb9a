//! Games bound to their match through the CLI: `kifu game new` (and `game import`, `game
//! self-play`) with `--tournament T --round R --table N` checks the match and its players before
//! anything is written, the binding is hashed with the header (an edited binding breaks the
//! chain), and a result links only games bound to its own match.

use kifu::log::envelope::{MatchPlace, StreamId};
use kifu::store::Store;

use crate::support::TestEnv;

const DECKS: [&str; 4] = ["--deck", "replays/decks/alice.deck", "--deck", "replays/decks/bob.deck"];

/// A naruto game for `players` (comma-separated) under `id`, with `bind` flags; the raw output.
fn new_game(env: &TestEnv, id: &str, players: &str, bind: &[&str]) -> std::process::Output {
    let root = env!("CARGO_MANIFEST_DIR");
    let decks: Vec<String> =
        DECKS.iter().map(|d| if d.starts_with("--") { d.to_string() } else { format!("{root}/{d}") }).collect();
    let mut args = vec!["game", "new", "--game", "naruto", "--players", players, "--id", id];
    args.extend(decks.iter().map(String::as_str));
    args.extend_from_slice(bind);
    env.kifu(&args)
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).to_string()
}

fn exists(env: &TestEnv, id: &str) -> bool {
    env.store().head(&StreamId::new(id).unwrap()).is_ok()
}

#[test]
fn games_are_bound_to_their_match_and_only_its_result_links_them() {
    let env = TestEnv::new();
    let seed = "44".repeat(32);
    env.ok(&["tournament", "new", "--name", "Fri", "--game", "naruto", "--id", "fri", "--seed", &seed]);
    env.ok(&["tournament", "register", "fri", "alice", "bob", "carol", "dave"]);
    let paired: serde_json::Value = serde_json::from_str(&env.ok(&["tournament", "pair", "fri", "--json"])).unwrap();
    let tables = paired["tables"].as_array().unwrap();
    let seat = |t: usize, side: &str| tables[t][side].as_str().unwrap().to_string();
    let (a, b) = ("player", "opponent");
    let t1 = format!("{},{}", seat(0, a), seat(0, b));
    let t2 = format!("{},{}", seat(1, a), seat(1, b));
    let crossed = format!("{},{}", seat(0, a), seat(1, a));
    let at = |table: &'static str| ["--tournament", "fri", "--round", "1", "--table", table];

    // Refused before anything is written: players not at the table, a table or round or
    // tournament that does not exist, a table and a pod at once.
    let refusals: [(&str, Vec<&str>, &str); 5] = [
        (crossed.as_str(), at("1").to_vec(), "seats"),
        (t1.as_str(), at("9").to_vec(), "round 1 of fri has no table 9"),
        (t1.as_str(), vec!["--tournament", "fri", "--round", "4", "--table", "1"], "fri has no round 4"),
        (t1.as_str(), vec!["--tournament", "nope", "--round", "1", "--table", "1"], "no tournament nope"),
        (t1.as_str(), vec!["--tournament", "fri", "--round", "1", "--table", "1", "--pod", "1"], "cannot be used with"),
    ];
    for (players, bind, why) in refusals {
        let out = new_game(&env, "refused", players, &bind);
        assert!(!out.status.success(), "{bind:?}");
        assert!(stderr(&out).contains(why), "{bind:?}: {}", stderr(&out));
        assert!(!exists(&env, "refused"), "{bind:?}: nothing written");
    }
    let out = new_game(&env, "fri-t1", &t1, &at("1"));
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains("bound to fri round 1 table 1"), "{}", stderr(&out));
    let (_, header) = env.store().header(&StreamId::new("fri-t1").unwrap()).unwrap();
    let bound = header.bound().expect("the header holds the binding");
    assert_eq!((bound.tournament.as_str(), bound.round, bound.place), ("fri", 1, MatchPlace::Table(1)));
    assert!(new_game(&env, "fri-t2", &t2, &at("2")).status.success());
    assert!(new_game(&env, "loose", &t1, &[]).status.success());

    // A result links only games bound to its own match.
    let report = |game: &str| env.kifu(&["tournament", "report", "fri", "--table", "1", "2-0", "--game", game]);
    let out = report("loose");
    assert!(stderr(&out).contains("it was not created bound to a match"), "{}", stderr(&out));
    let out = report("fri-t2");
    assert!(
        stderr(&out).contains("it was created bound to fri round 1 table 2, not to fri round 1 table 1"),
        "{}",
        stderr(&out)
    );
    let events = |env: &TestEnv| env.store().head(&StreamId::new("fri").unwrap()).unwrap().len;
    let before = events(&env);
    assert_eq!(events(&env), before, "nothing written");

    // The binding is hashed with the header: an edited binding no longer verifies or imports.
    let json = env.path("fri-t1.json");
    env.ok(&["export", "fri-t1", "-o", json.to_str().unwrap(), "--json"]);
    let mut v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(v["header"]["bound"], serde_json::json!({"tournament": "fri", "round": 1, "place": {"Table": 1}}));
    v["header"]["bound"]["place"]["Table"] = 2.into();
    std::fs::write(&json, v.to_string()).unwrap();
    let out = env.kifu(&["verify", json.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("header: hash does not match"), "{out:?}");
    assert!(!env.kifu(&["import", json.to_str().unwrap()]).status.success(), "nor imports");

    // A game recorded elsewhere enters only as a new stream imported bound to its match; an
    // existing stream is never re-bound.
    let jsonl = env.path("fri-t1.jsonl");
    env.ok(&["game", "export", "fri-t1", "-o", jsonl.to_str().unwrap()]);
    let import = |id: &str| {
        let mut args = vec!["game", "import", jsonl.to_str().unwrap(), "--id", id];
        args.extend_from_slice(&at("1"));
        env.kifu(&args)
    };
    let out = import("loose");
    assert!(!out.status.success(), "an existing stream is not re-bound");
    assert!(env.store().header(&StreamId::new("loose").unwrap()).unwrap().1.bound().is_none());
    let out = import("fri-t1-paper");
    assert!(out.status.success(), "{}", stderr(&out));
    let out = report("fri-t1-paper");
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(events(&env), before + 1);
}

/// A game a player conceded (`kifu game concede`, recorded as that player) is their loss in the
/// match's result: the result that says so links the games and verifies, the other way round it
/// does not.
#[test]
fn a_conceded_game_counts_as_a_loss_in_the_match_result() {
    let env = TestEnv::new();
    let seed = "45".repeat(32);
    for id in ["sat", "sun"] {
        env.ok(&["tournament", "new", "--name", id, "--game", "naruto", "--id", id, "--seed", &seed]);
        env.ok(&["tournament", "register", id, "alice", "bob"]);
        let paired: serde_json::Value = serde_json::from_str(&env.ok(&["tournament", "pair", id, "--json"])).unwrap();
        let table = &paired["tables"][0];
        let (a, b) = (table["player"].as_str().unwrap(), table["opponent"].as_str().unwrap());
        let at = ["--tournament", id, "--round", "1", "--table", "1"];
        let mut games = Vec::new();
        for n in 1..=2 {
            let game = format!("{id}-g{n}");
            let out = new_game(&env, &game, &format!("{a},{b}"), &at);
            assert!(out.status.success(), "{}", stderr(&out));
            // The second seat's player concedes; a name that plays no seat is refused.
            assert!(!env.kifu(&["game", "concede", &game, "--player", "mallory"]).status.success());
            let said = env.ok(&["game", "concede", &game, "--player", b]);
            assert!(said.contains(&format!("{b} conceded")) && said.contains(&format!("{a} won")), "{said}");
            let again = env.kifu(&["game", "concede", &game, "--player", b]);
            assert!(stderr(&again).contains("KIFU-CONCEDE-2"), "{}", stderr(&again));
            games.extend(["--game".to_string(), game]);
        }
        // "sat" reports the concessions as b's losses, "sun" the other way round.
        let score = if id == "sat" { "2-0" } else { "0-2" };
        let mut args = vec!["tournament", "report", id, "--table", "1", score];
        args.extend(games.iter().map(String::as_str));
        env.ok(&args);
        let (_, details) = super::runs::verify(&env, id);
        if id == "sat" {
            assert!(details.contains("linked games ok: 2 game(s)"), "{details}");
        } else {
            assert!(details.contains("but the linked games say 2-0-0"), "{details}");
        }
    }
}
