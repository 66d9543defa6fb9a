//! The CLI against the NATS test cluster: `--store nats://…` (and `KIFU_STORE`) for streams,
//! append, verify --all, game act and tournament pair; `kifu migrate` from sled to the cluster
//! and back with identical heads; and clear errors that write nothing.

use crate::support::{kifu_cmd, nats_namespace, TestEnv};

fn streams_json(env: &TestEnv, store: &str) -> serde_json::Value {
    serde_json::from_str(&env.ok(&["--store", store, "streams", "--json"])).unwrap()
}

#[test]
fn the_cli_records_and_verifies_in_the_cluster_and_migrates_both_ways() {
    let env = TestEnv::new();
    let ns = nats_namespace();
    let nats = ns.location();
    let data = env.data().to_str().unwrap().to_string();

    // A sled store with games and a note, copied into the cluster.
    env.ok(&["game", "self-play", "--game", "brk", "--seed", "1", "--count", "3", "--prefix", "b"]);
    env.ok(&["append", "notes", "--text", "hello", "--idempotency-key", "k1"]);
    let in_sled = streams_json(&env, &data);
    let out = env.ok(&["migrate", "--from", &data, "--to", &nats]);
    assert!(out.contains("migrated 4 stream(s)") && out.contains("every head is identical"), "{out}");
    assert_eq!(streams_json(&env, &nats), in_sled, "the same streams and heads in the cluster");
    // Again: everything is already there.
    assert!(env.ok(&["migrate", "--from", &data, "--to", &nats]).contains("0 copied, 4 already there"));
    let verified = env.ok(&["--store", &nats, "verify", "--all"]);
    assert!(verified.contains("4 of 4 verified"), "{verified}");

    // Recording in the cluster: a retried note records nothing twice, KIFU_STORE works too.
    env.ok(&["--store", &nats, "append", "notes", "--text", "hello", "--idempotency-key", "k1"]);
    let out = kifu_cmd(&env.data())
        .env("KIFU_STORE", &nats)
        .args(["append", "notes", "--text", "again", "--expect", "1"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let log = env.ok(&["--store", &nats, "log", "notes", "--json"]);
    assert_eq!(log.matches("68656c6c6f").count(), 1, "one \"hello\" (hex) after the retry: {log}");

    // A game recorded with `game act`, and a tournament paired, in the cluster.
    let squad = env.path("squad.txt");
    std::fs::write(&squad, "# squad\n3 BRK-01\n2 BRK-04\n").unwrap();
    let squad = squad.to_str().unwrap();
    env.ok(&[
        "--store",
        &nats,
        "game",
        "new",
        "--game",
        "brk",
        "--players",
        "ann,ben",
        "--deck",
        squad,
        "--deck",
        squad,
        "--policy",
        "stack_order=fifo",
        "--id",
        "g1",
    ]);
    let err =
        env.fails(&["--store", &nats, "game", "act", "g1", "--json", r#"{"TurnStarted": {"seat": 1, "turn": 1}}"#]);
    assert!(err.contains("refused, nothing recorded"), "{err}");
    let before = env.ok(&["--store", &nats, "log", "g1", "--json"]);
    let forced = [
        "--store",
        &nats,
        "game",
        "act",
        "g1",
        "--json",
        r#"{"TurnStarted": {"seat": 1, "turn": 1}}"#,
        "--judge",
        "jin",
        "--force",
        "--expect",
        "0",
        "--idempotency-key",
        "g1-force-1",
    ];
    let first = env.ok(&forced);
    assert!(first.contains("recorded event 0 (FORCED"), "{first}");
    let after = env.ok(&["--store", &nats, "log", "g1", "--json"]);
    assert_ne!(after, before, "the forced action was recorded");
    // Run again (its answer lost, say): --expect 0 is stale now, yet the cluster's record of the
    // key answers it, and nothing is recorded twice.
    let again = env.ok(&forced);
    assert!(again.contains("already recorded as event 0 under this idempotency key"), "{again}");
    assert_eq!(env.ok(&["--store", &nats, "log", "g1", "--json"]), after);
    let seed = "55".repeat(32);
    env.ok(&[
        "--store",
        &nats,
        "tournament",
        "new",
        "--name",
        "Cluster",
        "--game",
        "stones",
        "--id",
        "tc",
        "--seed",
        &seed,
        "--rounds",
        "1",
        "--top-cut",
        "0",
    ]);
    env.ok(&["--store", &nats, "tournament", "register", "tc", "a", "b", "c", "d"]);
    env.ok(&["--store", &nats, "tournament", "pair", "tc"]);
    let verified = env.ok(&["--store", &nats, "verify", "--all"]);
    assert!(verified.contains("every chain checks"), "{verified}");

    // And back into a new sled directory: the same streams and heads.
    let back = env.path("back");
    let back = back.to_str().unwrap();
    let out = env.ok(&["migrate", "--from", &nats, "--to", back]);
    assert!(out.contains("every head is identical"), "{out}");
    assert_eq!(streams_json(&env, back), streams_json(&env, &nats));
}

#[test]
fn a_cluster_that_cannot_be_reached_is_a_clear_error() {
    let env = TestEnv::new();
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let url = format!("nats://127.0.0.1:{port}");
    let err = env.fails(&["--store", &url, "append", "n", "--text", "x"]);
    assert!(err.contains("cannot be reached") && err.contains(&port.to_string()), "{err}");
    let err = env.fails(&["--store", "nats://127.0.0.1:1?replicas=2", "streams"]);
    assert!(err.contains("replicas"), "{err}");
    let err = env.fails(&["migrate", "--from", env.path("nothing").to_str().unwrap(), "--to", &url]);
    assert!(err.contains("holds no kifu store"), "{err}");
}
