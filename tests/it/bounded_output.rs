//! Bounded output: a stream an earlier build stored with a 1 MB player name and a 1 MB note,
//! through every command that prints a table of it, prints a bounded amount (cells are cut with
//! a marker); an error quotes a bad value's prefix only.

use kifu::log::envelope::{Actor, Header, HeaderV1, StreamId, StreamKind, Timestamp};
use kifu::store::sled_store::SledStore;
use kifu::store::{AppendRequest, ExpectedVersion, Store};

use crate::support::{note, TestEnv};

const HUGE: usize = 1 << 20;

fn huge_stream_file(env: &TestEnv) -> std::path::PathBuf {
    let store = SledStore::temporary(std::sync::Arc::new(kifu::clock::SteppingClock::fixed())).unwrap();
    let stream = StreamId::new("huge").unwrap();
    let header = Header::V1(HeaderV1 {
        stream: stream.clone(),
        kind: StreamKind::Opaque,
        ruleset: "opaque".into(),
        ruleset_version: 1,
        players: vec!["n".repeat(HUGE), "bob".into()],
        config: vec![],
        created_at: Timestamp(1_767_225_600_000_000),
    });
    let events = vec![note(Actor::Player("m".repeat(HUGE)), &"x".repeat(HUGE)), note(Actor::System, "short")];
    store
        .append(AppendRequest {
            stream: stream.clone(),
            expected: ExpectedVersion::NoStream,
            create: Some(header),
            events,
        })
        .unwrap();
    let path = env.path("huge.kifu");
    std::fs::write(&path, kifu::log::file::write(&store.export(&stream).unwrap())).unwrap();
    path
}

#[test]
fn a_megabyte_name_prints_a_bounded_table() {
    let env = TestEnv::new();
    let file = huge_stream_file(&env);
    let f = file.to_str().unwrap();
    // `kifu import` refuses names over the bound now; an earlier build stored this one as is.
    let err = env.fails(&["import", f]);
    assert!(err.len() < 4 * 1024 && err.contains("the limit is 100"), "{err}");
    env.store().import(&kifu::log::file::read(&std::fs::read(&file).unwrap()).unwrap()).unwrap();
    for (args, succeeds) in [
        (&["streams"][..], true),
        (&["streams", "--json"], true),
        (&["verify", "--all"], true),
        (&["log", "huge"], true),
        (&["verify", "--chain-only", f], true),
        (&["verify", f], false),
    ] {
        let out = env.kifu(args);
        assert_eq!(out.status.success(), succeeds, "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        let printed = out.stdout.len() + out.stderr.len();
        assert!(printed < 64 * 1024, "{args:?} printed {printed} bytes");
    }
    let log = env.ok(&["log", "huge"]);
    assert!(log.contains("…[cut]"), "a cut cell is marked: {log}");
}

#[test]
fn an_error_quotes_only_a_prefix_of_a_bad_value() {
    let env = TestEnv::new();
    // One argument may be at most 128 KiB (Linux's MAX_ARG_STRLEN).
    let id = "-".repeat(100_000);
    let err = env.fails(&["append", &id, "--text", "x"]);
    assert!(err.len() < 4 * 1024, "the error is {} bytes", err.len());
    let err = env.fails(&["append", "ok", "--text", "x", "--actor", &"a".repeat(100_000)]);
    assert!(err.len() < 4 * 1024, "the error is {} bytes", err.len());
}

#[test]
fn a_megabyte_bad_score_is_quoted_by_its_prefix() {
    use kifu::tournament::MatchScore;
    for bad in ["x".repeat(HUGE), format!("2-{}", "1".repeat(HUGE)), format!("2-1-{}", "x".repeat(HUGE))] {
        let err = bad.parse::<MatchScore>().unwrap_err().to_string();
        assert!(err.len() < 256, "the error is {} bytes", err.len());
        assert!(err.contains("is not a score like 2-1-0"), "{err}");
        assert!(err.contains(&format!("({} bytes)", bad.len())), "the error names the value's length: {err}");
    }
}
