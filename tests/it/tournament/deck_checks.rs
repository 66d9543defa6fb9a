//! Deck checks and list changes through the CLI: a check compares the deck presented with the
//! registered list; the log records only whether it matched and how many cards differ; a check
//! for a player without a list, or by a player, is refused with nothing written; a list changes
//! after the lock only with a judge and a reason.

use kifu::log::envelope::StreamId;
use kifu::tournament::record;

use crate::support::TestEnv;

fn deck(name: &str) -> String {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("replays/decks").join(name).to_str().unwrap().to_string()
}

fn events(env: &TestEnv, id: &str) -> u64 {
    record::load(&env.store(), &StreamId::new(id).unwrap()).unwrap().head.len
}

#[test]
fn a_deck_check_records_a_match_or_how_many_cards_differ_and_keeps_which_private() {
    // Given ana and rui with registered lists, zed without one, round 1 paired,
    let env = TestEnv::new();
    let seed = "44".repeat(32);
    env.ok(&["tournament", "new", "--name", "DC", "--game", "lc", "--id", "dc", "--seed", &seed]);
    env.ok(&["tournament", "register", "dc", "ana", "rui", "zed"]);
    env.ok(&["tournament", "deck", "dc", "ana", &deck("lc-ana.deck")]);
    env.ok(&["tournament", "deck", "dc", "rui", &deck("lc-rui.deck")]);
    env.ok(&["tournament", "pair", "dc"]);

    // when a judge checks ana's deck as registered, it matches;
    let v: serde_json::Value = serde_json::from_str(&env.ok(&[
        "tournament",
        "deck-check",
        "dc",
        "ana",
        &deck("lc-ana.deck"),
        "--judge",
        "jin",
        "--json",
    ]))
    .unwrap();
    assert_eq!(
        (v["check"].clone(), v["matches"].clone(), v["cards"].clone()),
        (1.into(), true.into(), 0.into()),
        "{v}"
    );

    // with one card swapped, the judge sees which, and the log only how many.
    let registered = std::fs::read_to_string(deck("lc-ana.deck")).unwrap();
    let presented = registered.replacen("4 LC-C01", "3 LC-C01\n1 LC-C99", 1);
    let file = env.path("presented.deck");
    std::fs::write(&file, &presented).unwrap();
    let v: serde_json::Value = serde_json::from_str(&env.ok(&[
        "tournament",
        "deck-check",
        "dc",
        "ana",
        file.to_str().unwrap(),
        "--judge",
        "jin",
        "--round",
        "1",
        "--json",
    ]))
    .unwrap();
    assert_eq!(v["check"], 2, "{v}");
    assert_eq!(v["matches"], false, "{v}");
    assert_eq!(v["cards"], 2, "{v}");
    assert_eq!(
        v["differences"],
        serde_json::json!([
            {"card": "LC-C01", "registered": 4, "presented": 3},
            {"card": "LC-C99", "registered": 0, "presented": 1},
        ]),
        "{v}"
    );
    let exported = env.ok(&["tournament", "export", "dc", "--to", "json"]);
    assert!(exported.contains("DeckChecked"), "{exported}");
    assert!(!exported.contains("LC-C99") && !exported.contains("LC-C01"), "the public log names no card: {exported}");
    let loaded = record::load(&env.store(), &StreamId::new("dc").unwrap()).unwrap();
    assert_eq!(loaded.state.deck_checks.len(), 2);

    // Bad input: a player without a list, a player as the actor, an unknown player, a table
    // the player does not sit at; nothing is written.
    let before = events(&env, "dc");
    let err = env.fails(&["tournament", "deck-check", "dc", "zed", &deck("lc-ana.deck"), "--judge", "jin"]);
    assert!(err.contains("zed has registered no deck list"), "{err}");
    let err = env.fails(&[
        "tournament",
        "deck-check",
        "dc",
        "ana",
        &deck("lc-ana.deck"),
        "--judge",
        "jin",
        "--actor",
        "player:rui",
    ]);
    assert!(err.contains("judge's or organizer's"), "{err}");
    env.fails(&["tournament", "deck-check", "dc", "nobody", &deck("lc-ana.deck"), "--judge", "jin"]);
    let out = env.kifu(&[
        "tournament",
        "deck-check",
        "dc",
        "ana",
        &deck("lc-ana.deck"),
        "--judge",
        "jin",
        "--table",
        "9",
        "--json",
    ]);
    assert!(!out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v["error"].as_str().unwrap().contains("TOUR-DECK-4"), "{v}");
    assert_eq!(events(&env, "dc"), before, "nothing written");

    // A list changes after the lock only with a judge and a reason; then checks compare with it.
    let err = env.fails(&["tournament", "deck", "dc", "ana", &deck("lc-rui.deck")]);
    assert!(err.contains("TOUR-DECK-2"), "{err}");
    let err =
        env.fails(&["tournament", "deck-change", "dc", "ana", &deck("lc-rui.deck"), "--judge", "jin", "--reason", " "]);
    assert!(err.contains("TOUR-DECK-3"), "{err}");
    let err = env.fails(&[
        "tournament",
        "deck-change",
        "dc",
        "zed",
        &deck("lc-rui.deck"),
        "--judge",
        "jin",
        "--reason",
        "typo",
    ]);
    assert!(err.contains("TOUR-DECK-3"), "{err}");
    assert_eq!(events(&env, "dc"), before, "nothing written");
    env.ok(&[
        "tournament",
        "deck-change",
        "dc",
        "ana",
        &deck("lc-rui.deck"),
        "--judge",
        "jin",
        "--reason",
        "wrong list entered",
    ]);
    let v: serde_json::Value = serde_json::from_str(&env.ok(&[
        "tournament",
        "deck-check",
        "dc",
        "ana",
        &deck("lc-rui.deck"),
        "--judge",
        "jin",
        "--json",
    ]))
    .unwrap();
    assert_eq!(v["matches"], true, "{v}");
    env.ok(&["tournament", "verify", "dc"]);
}
