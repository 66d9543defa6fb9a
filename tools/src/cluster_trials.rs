//! `tools/cluster-trials`: the NATS cluster fault trials of issue 17 (the trial itself is
//! `cluster_trial.rs`, which `tests/it/cluster_faults.rs` runs smaller). A 3-node cluster of its
//! own under target/cluster-trials, two writer processes appending to 50 streams with idempotency
//! ids and retries through two `kifu serve` processes over the cluster (`--servers 0`: to the
//! store directly), `--kills N` SIGKILLs of a node (nodes in turn, each restarted), `--step-downs N`
//! stream-leader step-downs, then a SIGKILL of the events' stream leader; prints one table and
//! exits non-zero if a bad count is not 0.

mod cluster_trial;
mod crash_trial;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Result};
use clap::Parser;
use comfy_table::{presets::UTF8_FULL, Cell, CellAlignment, Table};

use cluster_trial::{Cluster, Counts, Plan};

/// SIGKILL NATS nodes while two writers append; count what was lost, forked or recorded twice.
#[derive(Parser, Debug)]
struct Args {
    /// Kills of a node (nodes in turn), each restarted; one more kills the stream leader.
    #[arg(long, default_value_t = 6)]
    kills: usize,
    #[arg(long, default_value_t = 50)]
    streams: usize,
    /// Writer processes, each appending to every stream.
    #[arg(long, default_value_t = 2)]
    writers: usize,
    /// Appending threads per writer.
    #[arg(long, default_value_t = 10)]
    threads: usize,
    /// `kifu serve` processes the writers append through (each attempt to the next); 0: the
    /// writers append to the store themselves.
    #[arg(long, default_value_t = 2)]
    servers: usize,
    /// Milliseconds of appending with every node up, before each kill and at the end.
    #[arg(long, default_value_t = 2000)]
    up_ms: u64,
    /// Milliseconds a killed node stays down.
    #[arg(long, default_value_t = 2000)]
    down_ms: u64,
    /// Stream-leader step-downs after the kills (the events' stream and the index in turn).
    #[arg(long, default_value_t = 5)]
    step_downs: usize,
    /// No leader trial.
    #[arg(long)]
    no_leader: bool,
    /// The cluster's first port (clients PORT..PORT+2, routes +1000, monitoring +2000). A
    /// cluster already running in the trials' directory on these ports is used.
    #[arg(long, default_value_t = 18522)]
    port_base: u16,
    /// Leave the cluster running afterwards (`KIFU_NATS_DIR=target/cluster-trials
    /// KIFU_NATS_PORT_BASE=PORT tools/nats-cluster stop` ends it).
    #[arg(long)]
    keep: bool,
    /// The kifu binary (default: the one next to this example, built by tools/cluster-trials).
    #[arg(long)]
    kifu: Option<PathBuf>,
}

fn main() -> Result<()> {
    let args = Args::parse();
    let kifu = crash_trial::kifu_binary(args.kifu.as_deref()).map_err(|e| anyhow!(e))?;
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/cluster-trials");
    let started = Instant::now();
    let cluster = Cluster::start_fresh(&dir, args.port_base).map_err(|e| anyhow!(e))?;
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH)?.as_millis() % 1_000_000_000;
    let plan = Plan {
        kills: args.kills,
        leader_kill: !args.no_leader,
        step_downs: args.step_downs,
        streams: args.streams,
        writers: args.writers,
        threads: args.threads,
        servers: args.servers,
        up: Duration::from_millis(args.up_ms),
        down: Duration::from_millis(args.down_ms),
        namespace: format!("trials_{nanos}"),
    };
    let scratch = tempfile::tempdir()?;
    let counts = cluster_trial::run(&kifu, &cluster, scratch.path(), &plan).map_err(|e| anyhow!(e))?;
    print_table(&args, &plan, &cluster.url, &counts, started.elapsed());
    for r in &counts.retry_reasons {
        eprintln!("a retry's reason: {r}");
    }
    for p in counts.problems.iter().take(20) {
        eprintln!("problem: {p}");
    }
    if args.keep {
        eprintln!("the cluster keeps running: {}", cluster.url);
        std::mem::forget(cluster);
    }
    if !counts.ok() {
        bail!("the cluster trials found problems");
    }
    Ok(())
}

fn print_table(args: &Args, plan: &Plan, url: &str, c: &Counts, took: Duration) {
    let mut table = Table::new();
    table.load_preset(UTF8_FULL).set_header(vec!["cluster trials", "count", "must be"]);
    let mut rows: Vec<(String, String, &str)> = vec![
        (format!("cluster {url} (3 nodes, R3)"), String::new(), ""),
        (
            "writers × threads, streams (each writer appends to every stream)".to_string(),
            format!("{} × {}, {}", plan.writers, plan.threads, plan.streams),
            "",
        ),
        ("kifu servers the writers append through (0: to the store)".to_string(), plan.servers.to_string(), ""),
        (format!("node kills (SIGKILL, down {} ms, then restarted)", args.down_ms), c.kills.to_string(), ""),
        ("stream-leader kills".into(), c.leader_kills.to_string(), ""),
        ("stream-leader step-downs (events' stream and index in turn)".into(), c.step_downs.to_string(), ""),
        ("acknowledged appends".into(), c.acked.to_string(), ""),
        ("  of which retries recognised (the first attempt had landed)".into(), c.acked_as_retry.to_string(), ""),
        ("retries made (same idempotency id)".into(), c.retries.to_string(), ""),
        ("recorded but never acknowledged".into(), c.unacked_recorded.to_string(), ""),
        ("longest time with no append acknowledged".into(), format!("{:.2} s", c.longest_stall.as_secs_f64()), ""),
    ];
    for (name, n) in c.bad() {
        rows.push((name.to_string(), n.to_string(), "0"));
    }
    rows.push(("wall time".into(), format!("{:.1} s", took.as_secs_f64()), ""));
    for (a, b, must) in rows {
        table.add_row(vec![Cell::new(a), Cell::new(b).set_alignment(CellAlignment::Right), Cell::new(must)]);
    }
    println!("{table}");
}
