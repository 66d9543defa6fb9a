//! Bad input through the real binary: each gets a clear message naming what and where, a
//! non-zero exit, and no change to the store.

use kifu::log::file;

use crate::support::{sample_log, TestEnv};

fn write_sample(env: &TestEnv) -> (std::path::PathBuf, Vec<u8>) {
    let bytes = file::write(&sample_log());
    let path = env.path("sample.kifu");
    std::fs::write(&path, &bytes).unwrap();
    (path, bytes)
}

fn assert_store_empty(env: &TestEnv) {
    assert!(env.ok(&["streams", "--json"]).trim() == "[]", "the store was changed");
}

#[test]
fn import_refuses_a_corrupted_file_and_names_the_event() {
    let env = TestEnv::new();
    let (path, mut bytes) = write_sample(&env);
    let n = bytes.len();
    bytes[n - 60] ^= 0x20; // inside the last event
    std::fs::write(&path, &bytes).unwrap();
    let err = env.fails(&["import", path.to_str().unwrap()]);
    assert!(err.contains("event 6") && err.contains("does not verify"), "{err}");
    assert_store_empty(&env);
}

#[test]
fn import_refuses_a_truncated_file() {
    let env = TestEnv::new();
    let (path, bytes) = write_sample(&env);
    std::fs::write(&path, &bytes[..bytes.len() / 2]).unwrap();
    let err = env.fails(&["import", path.to_str().unwrap()]);
    assert!(err.contains("truncated"), "{err}");
    assert_store_empty(&env);
}

#[test]
fn import_refuses_an_unknown_format_version() {
    let env = TestEnv::new();
    let (path, mut bytes) = write_sample(&env);
    bytes[8..12].copy_from_slice(&7u32.to_le_bytes());
    std::fs::write(&path, &bytes).unwrap();
    let err = env.fails(&["import", path.to_str().unwrap()]);
    assert!(err.contains("unknown .kifu format version 7"), "{err}");
    assert_store_empty(&env);
}

#[test]
fn import_refuses_malformed_json() {
    let env = TestEnv::new();
    let path = env.path("bad.json");
    std::fs::write(&path, "{\"format\": \"kifu-log\", \"version\": 1, \"header\": ").unwrap();
    let err = env.fails(&["import", path.to_str().unwrap()]);
    assert!(err.contains("malformed JSON log") && err.contains("line 1"), "{err}");
    assert_store_empty(&env);
}

#[test]
fn unknown_stream_is_named() {
    let env = TestEnv::new();
    for args in
        [vec!["log", "no-such-game"], vec!["export", "no-such-game", "-o", "x.kifu"], vec!["verify", "no-such-game"]]
    {
        let err = env.fails(&args);
        assert!(err.contains("unknown stream \"no-such-game\""), "{args:?}: {err}");
    }
}

#[test]
fn wrong_expected_version_names_the_current_version_and_writes_nothing() {
    let env = TestEnv::new();
    env.ok(&["append", "notes", "--text", "one", "--expect", "none"]);
    env.ok(&["append", "notes", "--text", "two", "--expect", "1"]);
    let err = env.fails(&["append", "notes", "--text", "three", "--expect", "1"]);
    assert!(err.contains("the stream holds 2 event(s)"), "{err}");
    let err = env.fails(&["append", "notes", "--text", "again", "--expect", "none"]);
    assert!(err.contains("wrong expected version"), "{err}");
    let log = env.ok(&["log", "notes", "--json"]);
    let events: serde_json::Value = serde_json::from_str(&log).unwrap();
    assert_eq!(events.as_array().unwrap().len(), 2);
}

#[test]
fn export_import_verify_round_trip_through_the_cli() {
    let env = TestEnv::new();
    env.ok(&["append", "notes", "--text", "judge call at table 3", "--actor", "judge:jin"]);
    env.ok(&["append", "notes", "--text", "resolved", "--actor", "judge:jin"]);
    let kifu_path = env.path("notes.kifu");
    let json_path = env.path("notes.json");
    env.ok(&["export", "notes", "-o", kifu_path.to_str().unwrap()]);
    env.ok(&["export", "notes", "-o", json_path.to_str().unwrap(), "--json"]);
    let out = env.ok(&["verify", kifu_path.to_str().unwrap()]);
    assert!(out.contains("ok: chain checks"), "{out}");
    env.ok(&["verify", json_path.to_str().unwrap()]);
    env.ok(&["verify", "--all"]);
    // A second store imports both forms to the same log.
    let other = TestEnv::new();
    let out = other.ok(&["import", json_path.to_str().unwrap()]);
    assert!(out.contains("imported notes: 2 events"), "{out}");
    let out = other.ok(&["import", kifu_path.to_str().unwrap()]);
    assert!(out.contains("already in the store"), "{out}");
}

#[test]
fn verify_fails_on_a_tampered_file_and_says_where() {
    let env = TestEnv::new();
    let (path, mut bytes) = write_sample(&env);
    let pos = bytes.windows(15).position(|w| w == b"bob drew a card").unwrap();
    bytes[pos] = b'r';
    std::fs::write(&path, &bytes).unwrap();
    let out = env.kifu(&["verify", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("event 2") && stdout.contains("FAILED"), "{stdout}");
}

/// A ruling about an event not recorded yet names the event as a plain number (never `Some(3)`)
/// and how many events the game has; nothing is written.
#[test]
fn a_ruling_about_a_future_event_names_it_plainly() {
    let env = TestEnv::new();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let deck = |name: &str| root.join("replays/decks").join(name).to_string_lossy().to_string();
    let (a, b) = (deck("alice.deck"), deck("bob.deck"));
    let new =
        ["game", "new", "--game", "naruto", "--players", "alice,bob", "--policy", "turn_marker=shared", "--id", "g"];
    env.ok(&[&new[..], &["--deck", &a, "--deck", &b]].concat());
    env.ok(&["game", "act", "g", "--json", r#"{"TurnMarkerSet":{"seat":null,"value":0}}"#]);
    for kind in ["warning", "note"] {
        let mut args = vec!["game", "rule", "g", "--judge", "jin", kind, "--about", "3", "--note", "x"];
        if kind == "warning" {
            args.extend(["--player", "alice"]);
        }
        let err = env.fails(&args);
        assert!(err.contains("event 3, which is not recorded yet (the game has 1 events)"), "{err}");
        assert!(!err.contains("Some("), "{err}");
    }
    assert!(env.ok(&["log", "g", "--json"]).matches("\"seq\"").count() == 1, "a refused ruling wrote nothing");
}
