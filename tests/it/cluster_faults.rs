//! Fault trials against a NATS cluster of the test's own (its own ports and directory: the shared
//! test cluster of `KIFU_TEST_NATS` is never killed): two writer processes append to 12 games
//! through two `kifu serve` processes over the cluster, with `Idempotency-Key`s and retries
//! (each attempt to the other server), while a node is SIGKILLed and restarted twice, the
//! events' stream and the index step their leaders down, then the events' stream leader is killed; no acknowledged event is lost, nothing forks, every chain verifies and no
//! retry records an event twice. `tools/cluster-trials` runs the same trial larger (50 games).

#[path = "../../tools/src/cluster_trial.rs"]
mod cluster_trial;

use std::path::Path;
use std::time::Duration;

use cluster_trial::{Cluster, Plan};

#[test]
fn killed_nats_nodes_lose_fork_and_duplicate_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let base = cluster_trial::free_port_base().unwrap();
    // Fails (does not skip) without nats-server: the script says to install it.
    let cluster = Cluster::start(&dir.path().join("cluster"), base).unwrap();
    let plan = Plan {
        kills: 2,
        leader_kill: true,
        step_downs: 2,
        streams: 12,
        writers: 2,
        threads: 4,
        servers: 2,
        up: Duration::from_millis(700),
        down: Duration::from_millis(700),
        namespace: "faults".into(),
    };
    let scratch = dir.path().join("writers");
    let counts = cluster_trial::run(Path::new(env!("CARGO_BIN_EXE_kifu")), &cluster, &scratch, &plan).unwrap();
    assert_eq!((counts.kills, counts.step_downs, counts.leader_kills), (2, 2, 1));
    assert!(counts.acked >= 100, "too few appends to mean anything: {counts:?}");
    for (name, n) in counts.bad() {
        assert_eq!(n, 0, "{name}: {n}; problems: {:?}", counts.problems);
    }
    eprintln!(
        "cluster faults: {} acknowledged, {} retries ({} recognised as landed), longest stall {:.2} s; retried on: {:?}",
        counts.acked,
        counts.retries,
        counts.acked_as_retry,
        counts.longest_stall.as_secs_f64(),
        counts.retry_reasons
    );
}
