//! Output is inert (issue 50, item 9): free text a player records (Naruto's `EffectResolved`
//! description, recordable as a game's first event) and an official's reason reach `kifu log`
//! and `kifu tournament penalties` with their control and bidi characters shown as visible
//! escapes, never as the raw bytes a terminal would act on (ESC clearing the screen or
//! retitling the window, BEL, CR forging a line, a bidi override reordering it); JSON output
//! stays JSON; a game event's free text is bounded when recorded like any note.

use crate::support::TestEnv;

/// ESC sequences that clear the screen and retitle the window, BEL, CR, a C1 CSI and a bidi
/// override: what a recorded text must never deliver to a terminal.
const HOSTILE: &str = "\u{1b}[2J\u{1b}]0;pwned\u{7} then\rforged \u{9b}31m \u{202e}desrever";

/// Whether `bytes` carries anything a terminal acts on: ESC, BEL, CR, the C1 CSI (as UTF-8) or
/// the bidi override (as UTF-8).
fn raw_controls(bytes: &[u8]) -> Vec<&'static str> {
    let text = String::from_utf8_lossy(bytes);
    [("ESC", '\u{1b}'), ("BEL", '\u{7}'), ("CR", '\r'), ("C1 CSI", '\u{9b}'), ("RLO", '\u{202e}')]
        .into_iter()
        .filter(|(_, c)| text.contains(*c))
        .map(|(name, _)| name)
        .collect()
}

/// `out` with whitespace and table borders taken out: a table wraps a long cell over several
/// lines, and the escapes are looked for across those breaks.
fn flat(out: &[u8]) -> String {
    String::from_utf8_lossy(out).chars().filter(|c| !c.is_whitespace() && !"│┆|─┼├┤".contains(*c)).collect()
}

fn naruto_game(env: &TestEnv, id: &str) {
    let root = env!("CARGO_MANIFEST_DIR");
    let (a, b) = (format!("{root}/replays/decks/alice.deck"), format!("{root}/replays/decks/bob.deck"));
    env.ok(&["game", "new", "--game", "naruto", "--players", "alice,bob", "--id", id, "--deck", &a, "--deck", &b]);
}

#[test]
fn a_players_free_text_reaches_kifu_log_inert() {
    // Given a naruto game whose first event is an effect resolved with a hostile description,
    let env = TestEnv::new();
    naruto_game(&env, "g1");
    let event = serde_json::json!({"EffectResolved": {"source": "alice", "description": HOSTILE}}).to_string();
    env.ok(&["game", "act", "g1", "--actor", "judge:jin", "--json", &event]);
    // when it is listed, as a table and as JSON,
    let out = env.kifu(&["log", "g1"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // then no control byte reaches the terminal, and what was recorded is still visible;
    assert_eq!(raw_controls(&out.stdout), Vec::<&str>::new(), "{}", String::from_utf8_lossy(&out.stdout));
    let shown = flat(&out.stdout);
    assert!(shown.contains("\\u{1b}") && shown.contains("\\u{7}") && shown.contains("\\u{202e}"), "{shown}");
    let json = env.kifu(&["log", "g1", "--json"]);
    assert!(json.status.success());
    assert_eq!(raw_controls(&json.stdout), Vec::<&str>::new());
    // the JSON keeps the recorded bytes as they were (its payload is hex: ESC [ 2 J is 1b5b324a).
    let events: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let payload = events[0]["payload_hex"].as_str().unwrap();
    assert!(payload.contains("1b5b324a") && payload.contains(&hex::encode("desrever")), "{events}");
}

#[test]
fn a_game_events_free_text_is_bounded_when_recorded() {
    let env = TestEnv::new();
    naruto_game(&env, "g2");
    let before = env.ok(&["log", "g2", "--json"]);
    let long = "x".repeat(2001);
    let event = serde_json::json!({"EffectResolved": {"source": "alice", "description": long}}).to_string();
    let err = env.fails(&["game", "act", "g2", "--actor", "judge:jin", "--json", &event]);
    assert!(err.contains("(description) is 2001 characters; the limit is 2000"), "{err}");
    assert_eq!(env.ok(&["log", "g2", "--json"]), before, "nothing was written");
}

#[test]
fn an_officials_reason_reaches_kifu_tournament_penalties_inert() {
    // Given a penalty whose reason carries control sequences,
    let env = TestEnv::new();
    let seed = "44".repeat(32);
    env.ok(&["tournament", "new", "--name", "Inert", "--game", "stones", "--id", "ie", "--seed", &seed]);
    env.ok(&["tournament", "register", "ie", "p1", "p2", "p3", "p4"]);
    env.ok(&["tournament", "pair", "ie"]);
    let out =
        env.kifu(&["tournament", "penalty", "ie", "p2", "--type", "warning", "--judge", "jin", "--reason", HOSTILE]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // then what the command echoes is inert,
    assert_eq!(raw_controls(&out.stdout), Vec::<&str>::new(), "{}", String::from_utf8_lossy(&out.stdout));
    // and so are the penalty history, the tournament's log and an error naming the text.
    for args in [&["tournament", "penalties", "ie"][..], &["tournament", "penalties", "ie", "p2"], &["log", "ie"]] {
        let out = env.kifu(args);
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        let shown = String::from_utf8_lossy(&out.stdout).to_string();
        assert_eq!(raw_controls(&out.stdout), Vec::<&str>::new(), "{args:?}: {shown}");
        // (`kifu log` of a tournament shows each event's size, not its text.)
        if args[0] == "tournament" {
            assert!(flat(&out.stdout).contains("\\u{1b}"), "{args:?}: {shown}");
        }
    }
    let out = env.kifu(&["tournament", "penalties", "ie", "\u{1b}[2Jnobody\u{7}"]);
    assert!(!out.status.success());
    assert_eq!(raw_controls(&out.stderr), Vec::<&str>::new(), "{}", String::from_utf8_lossy(&out.stderr));
}
