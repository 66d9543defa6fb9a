//! Crash recovery: SIGKILL a `kifu debug append-loop` child at pseudo-random moments, 40 times on
//! the same data directory, and check after each kill that the store reopens, the whole chain
//! verifies and every acknowledged event is stored with its payload.

#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../../tools/src/crash_trial.rs"]
mod crash_trial;

use std::path::Path;
use std::time::Instant;

use crash_trial::{check, run_round, KillPlan, Rng};

const ROUNDS: usize = 40;
const SEED: u64 = 0x6b69_6675; // "kifu"

#[test]
fn acknowledged_appends_survive_sigkill() {
    trial(false);
}

/// The child opens, appends and closes in a loop, so kills land while sled opens and writes its
/// snapshot; a kill there left `snap.*.generating`, which made every later open fail.
#[test]
fn the_store_reopens_after_kills_during_opens_and_snapshots() {
    trial(true);
}

fn trial(reopen: bool) {
    let kifu = Path::new(env!("CARGO_BIN_EXE_kifu"));
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let mut rng = Rng::new(SEED);
    let mut rounds = Vec::new();
    let started = Instant::now();
    let (mut kills, mut acked, mut unacked, mut early) = (0, 0, 0, 0);
    for r in 0..ROUNDS {
        let plan = if reopen { KillPlan::random_reopen(&mut rng) } else { KillPlan::random(&mut rng) };
        early += usize::from(plan.after_acks == 0);
        let round = run_round(kifu, &data, &format!("r{r}"), plan, reopen).unwrap();
        assert!(
            round.killed,
            "round {r}: the child exited before the kill ({}): {}",
            if round.exit_ok { "success" } else { "failure" },
            round.stderr
        );
        if plan.after_acks > 0 {
            assert!(
                round.acks.len() as u64 >= plan.after_acks,
                "round {r}: child stopped acknowledging after {} acks: {}",
                round.acks.len(),
                round.stderr
            );
        }
        kills += 1;
        acked += round.acks.len();
        rounds.push(round);

        let rec = check(&data, &mut rounds);
        assert_eq!(rec.open_error, None, "round {r}: store does not reopen");
        assert_eq!(rec.chain_error, None, "round {r}: chain does not verify");
        assert!(rec.lost.is_empty(), "round {r}: lost acknowledged events: {:?}", rec.lost);
        assert!(rec.unexpected.is_empty(), "round {r}: unexpected events: {:?}", rec.unexpected);
        assert!(rec.events >= acked as u64);
        unacked = rec.unacked;
        assert_eq!(rec.events, acked as u64 + unacked, "round {r}");
    }
    // The schedule must exercise kills both before the first ack and mid-stream.
    assert_eq!(kills, ROUNDS);
    assert!(early > 0 && early < ROUNDS, "{early} of {ROUNDS} kills before the first ack");
    assert!(acked >= if reopen { ROUNDS } else { 3 * ROUNDS }, "only {acked} acknowledged events");
    eprintln!(
        "crash: {kills} kills, {acked} acknowledged, {unacked} in-flight events also recovered, {:.1} s",
        started.elapsed().as_secs_f64()
    );
}
