//! One crash trial, shared by `tests/it/crash.rs` and `tools/src/crash_trials.rs` (both include
//! this file with `mod`; the library never sees it): run `kifu debug append-loop` on a data
//! directory, SIGKILL it at a pseudo-random moment, reopen the store, verify the whole chain and
//! check that every acknowledged event is there with its payload; repeat on the same directory.

// Each includer uses a different part of this file.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::{Duration, Instant};

use kifu::clock::SystemClock;
use kifu::log::envelope::{Actor, StreamId};
use kifu::store::sled_store::{OpenOptions, SledStore};
use kifu::store::{Store, StoreError};

/// The stream every round appends to.
pub const STREAM: &str = "crash";

/// A small deterministic generator (xorshift64*), so kill schedules are reproducible.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        // Never zero; spread small seeds.
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform-ish in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
}

/// When to kill the child: after it has acknowledged `after_acks` events (or exited), plus `delay`.
#[derive(Clone, Copy, Debug)]
pub struct KillPlan {
    pub after_acks: u64,
    pub delay: Duration,
}

impl KillPlan {
    /// A quarter of the kills land before the first ack (while the child opens or recovers the
    /// store, or creates the stream); the rest after 1 to 12 acks, at a random point of the next
    /// append (appends take about one fdatasync, i.e. well under the 4 ms window).
    pub fn random(rng: &mut Rng) -> Self {
        if rng.below(4) == 0 {
            KillPlan { after_acks: 0, delay: Duration::from_micros(rng.below(25_000)) }
        } else {
            KillPlan { after_acks: 1 + rng.below(12), delay: Duration::from_micros(rng.below(4_000)) }
        }
    }

    /// For a child that opens and closes the store around every append: one open, append and
    /// close takes a few milliseconds (sled replays its log and writes a snapshot while it
    /// opens), so the delay after the last ack spans several whole cycles and a kill lands in
    /// an open, a snapshot, an append or a close alike.
    pub fn random_reopen(rng: &mut Rng) -> Self {
        KillPlan { after_acks: rng.below(8), delay: Duration::from_micros(rng.below(40_000)) }
    }
}

/// What one round did: the acknowledgements its child printed before it died.
#[derive(Clone, Debug)]
pub struct Round {
    pub writer: String,
    /// `acks[i]` is the sequence number acknowledged for payload `{writer}-{i}`.
    pub acks: Vec<u64>,
    /// False when the child had already exited before the kill (then `exit_ok` says how).
    pub killed: bool,
    pub exit_ok: bool,
    pub stderr: String,
    /// How many of this round's events the recovery after it found (set by [`check`]).
    pub recovered: Option<u64>,
}

/// What the recovery after one round found.
#[derive(Debug, Default)]
pub struct Recovery {
    /// `SledStore::open` failed: the directory could not be recovered at all.
    pub open_error: Option<String>,
    /// `export` failed: the chain did not verify (or the index is inconsistent).
    pub chain_error: Option<String>,
    /// Events in the verified stream.
    pub events: u64,
    /// Acknowledged events (all rounds so far) missing or with another payload.
    pub lost: Vec<String>,
    /// Events that are not the expected contiguous prefix of each round's appends.
    pub unexpected: Vec<String>,
    /// Committed but unacknowledged events (the append in flight at the kill), all rounds so far.
    pub unacked: u64,
    /// Time to open the store and export (verify) the stream.
    pub took: Duration,
    /// What the open repaired (a half-written snapshot removed, ...), one line each.
    pub repaired: Vec<String>,
}

impl Recovery {
    pub fn ok(&self) -> bool {
        self.open_error.is_none() && self.chain_error.is_none() && self.lost.is_empty() && self.unexpected.is_empty()
    }
}

/// Runs one `kifu --data DIR debug append-loop` child as `writer` and SIGKILLs it per `plan`;
/// with `reopen` the child opens and closes the store around every append.
pub fn run_round(kifu: &Path, dir: &Path, writer: &str, plan: KillPlan, reopen: bool) -> std::io::Result<Round> {
    let mut child = Command::new(kifu)
        .arg("--data")
        .arg(dir)
        .args(["debug", "append-loop", STREAM, "--count", "100000000"])
        .args(["--writer", writer])
        .args(reopen.then_some("--reopen"))
        .env_remove("KIFU_DATA")
        .env_remove("KIFU_TEST_CLOCK")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()?;
    let (tx, rx) = mpsc::channel();
    let stdout = child.stdout.take().ok_or_else(|| std::io::Error::other("no stdout"))?;
    let prefix = format!("ack {writer} ");
    let reader = std::thread::spawn(move || -> Result<Vec<u64>, String> {
        let mut acks = Vec::new();
        for line in BufReader::new(stdout).lines() {
            let line = line.map_err(|e| e.to_string())?;
            // A line cut by the kill cannot be an ack: acks are written and flushed whole.
            let seq = line
                .strip_prefix(&prefix)
                .and_then(|s| s.parse::<u64>().ok())
                .ok_or_else(|| format!("unexpected output line {line:?}"))?;
            acks.push(seq);
            let _ = tx.send(());
        }
        Ok(acks)
    });
    let mut stderr = child.stderr.take().ok_or_else(|| std::io::Error::other("no stderr"))?;
    let err_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stderr.read_to_string(&mut s);
        s
    });

    let mut exited_early = false;
    for _ in 0..plan.after_acks {
        // Disconnected: the child exited (it should not) or its output was malformed.
        if rx.recv_timeout(Duration::from_secs(20)).is_err() {
            exited_early = true;
            break;
        }
    }
    if !exited_early && !plan.delay.is_zero() {
        std::thread::sleep(plan.delay);
    }
    let already = child.try_wait()?;
    let killed = already.is_none() && child.kill().is_ok();
    let status = child.wait()?;
    let acks =
        reader.join().map_err(|_| std::io::Error::other("ack reader panicked"))?.map_err(std::io::Error::other)?;
    let stderr = err_reader.join().unwrap_or_default();
    Ok(Round { writer: writer.to_string(), acks, killed, exit_ok: status.success(), stderr, recovered: None })
}

/// Reopens the store in `dir`, exports (verifies) the stream and checks it against every round
/// so far: the stream must be, in order, each round's events `{writer}-0 ..` with each round
/// holding its acknowledged events and at most one more (the append in flight when it died),
/// and earlier rounds exactly what the previous recovery found. Fills `recovered` of the last round.
pub fn check(dir: &Path, rounds: &mut [Round]) -> Recovery {
    let mut out = Recovery::default();
    let started = Instant::now();
    let options = OpenOptions { lock_wait: Duration::from_secs(10), ..OpenOptions::default() };
    let store = match SledStore::open_with(dir, Arc::new(SystemClock), options) {
        Ok(s) => s,
        Err(e) => {
            out.open_error = Some(e.to_string());
            out.took = started.elapsed();
            return out;
        }
    };
    out.repaired = store.open_notes().to_vec();
    let stream = StreamId::new(STREAM).unwrap_or_else(|_| unreachable!("valid stream id"));
    let events = match store.export(&stream) {
        Ok(log) => log.events,
        // Killed before the stream's first append was durable: an empty stream.
        Err(StoreError::UnknownStream(_)) => Vec::new(),
        Err(e) => {
            out.chain_error = Some(e.to_string());
            out.took = started.elapsed();
            return out;
        }
    };
    out.took = started.elapsed();
    drop(store);
    out.events = events.len() as u64;

    // Decode every event into (writer, index) from its actor and payload.
    let mut decoded = Vec::with_capacity(events.len());
    for (seq, stored) in events.iter().enumerate() {
        // export verified every record, so they open.
        let Ok((env, _)) = kifu::log::chain::open_event(stored) else {
            out.chain_error = Some(format!("event {seq} does not open after export"));
            return out;
        };
        let e = env.v1();
        let payload = String::from_utf8_lossy(&e.payload).into_owned();
        let parsed = payload.rsplit_once('-').and_then(|(w, i)| {
            let i = i.parse::<u64>().ok()?;
            (e.actor == Actor::Player(w.to_string())).then(|| (w.to_string(), i))
        });
        decoded.push((payload, parsed));
    }

    let last = rounds.len().saturating_sub(1);
    let mut seq = 0usize;
    for (r, round) in rounds.iter_mut().enumerate() {
        // This round's block: the events at `seq..` written by this round's writer.
        let mut n = 0u64;
        while let Some((_, Some((w, i)))) = decoded.get(seq + n as usize) {
            if *w != round.writer {
                break;
            }
            if *i != n {
                out.unexpected.push(format!("event {} is {}-{i}, expected {}-{n}", seq + n as usize, w, round.writer));
            }
            n += 1;
        }
        for (i, &acked) in round.acks.iter().enumerate() {
            let want = format!("{}-{i}", round.writer);
            let found = usize::try_from(acked).ok().and_then(|s| decoded.get(s)).map(|(p, _)| p.as_str());
            if found != Some(want.as_str()) {
                out.lost.push(format!(
                    "acknowledged event {acked} ({want}) is {}",
                    found.map_or("missing".to_string(), |p| format!("{p:?}"))
                ));
            }
        }
        let acked = round.acks.len() as u64;
        if n < acked || n > acked + 1 {
            out.unexpected.push(format!("round {r} ({}) acknowledged {acked} events but {n} are stored", round.writer));
        }
        match round.recovered {
            Some(before) if before != n => out
                .unexpected
                .push(format!("round {r} ({}): {before} events were recovered before, now {n}", round.writer)),
            _ => {}
        }
        if r == last {
            round.recovered = Some(n);
        }
        out.unacked += n.saturating_sub(acked);
        seq += n as usize;
    }
    if seq != decoded.len() {
        out.unexpected.push(format!(
            "{} events after the last round's: first is {:?}",
            decoded.len() - seq,
            decoded[seq].0
        ));
    }
    out
}

/// The kifu binary a trial tool drives: `given` (its `--kifu`), else the one next to it.
pub fn kifu_binary(given: Option<&Path>) -> Result<PathBuf, String> {
    match given {
        Some(k) => Ok(k.to_path_buf()),
        None => kifu_next_to_current_exe().ok_or_else(|| {
            "no kifu binary next to this example; build it (cargo build --release --bin kifu) or pass --kifu".into()
        }),
    }
}

/// The `kifu` binary next to the running example (`target/<profile>/examples/x` →
/// `target/<profile>/kifu`).
pub fn kifu_next_to_current_exe() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let profile_dir = exe.parent()?.parent()?;
    let kifu = profile_dir.join(format!("kifu{}", std::env::consts::EXE_SUFFIX));
    kifu.is_file().then_some(kifu)
}
