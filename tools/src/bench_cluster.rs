//! `tools/bench-cluster`: the NATS backend on a 3-node R3 cluster of its own (under
//! target/bench-cluster), beside sled, in one run and one table:
//! - durable appends per second (one event per append, each writer on its own stream) with 1 and
//!   64 concurrent writers, on the cluster (without and with idempotency ids) and on sled;
//! - append-to-follower latency p50/p99: appended through one client (one server), seen through
//!   `Store::watch` on a second client (another server);
//! - the time appends take to succeed again after a SIGKILL of a follower node and of the stream
//!   leader, p50 and max over `--leader-kills` (10) kills (from the kill to the first append
//!   started after it that is acknowledged).

mod cluster_trial;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{anyhow, Result};
use clap::Parser;
use comfy_table::{presets::UTF8_FULL, Cell, CellAlignment, Table};

use cluster_trial::{events_stream, Cluster, NODES};
use kifu::clock::{Clock, SystemClock};
use kifu::log::envelope::{Actor, Header, IdempotencyId, StreamId};
use kifu::store::nats_store::{NatsStore, NatsUrl};
use kifu::store::sled_store::SledStore;
use kifu::store::{AppendRequest, ExpectedVersion, NewEvent, Store};

#[derive(Parser, Debug)]
struct Args {
    /// Seconds each throughput row appends for.
    #[arg(long, default_value_t = 5.0)]
    seconds: f64,
    /// Appends timed for the follower latency.
    #[arg(long, default_value_t = 1000)]
    follows: usize,
    /// SIGKILLs of the stream leader timed for recovery (each restarted before the next).
    #[arg(long, default_value_t = 10)]
    leader_kills: usize,
    /// The cluster's first port (clients PORT..PORT+2, routes +1000, monitoring +2000).
    #[arg(long, default_value_t = 18622)]
    port_base: u16,
}

fn request(stream: &StreamId, n: u64, with_id: bool, clock: &dyn Clock) -> AppendRequest {
    let payload = format!("{stream}.{n}");
    AppendRequest {
        stream: stream.clone(),
        expected: ExpectedVersion::Any,
        create: Some(Header::opaque(stream.clone(), clock.now())),
        events: vec![NewEvent {
            actor: Actor::System,
            idempotency: with_id.then(|| IdempotencyId::from_key(&payload)),
            payload: payload.into_bytes(),
        }],
    }
}

/// Events per second from `writers` threads, each appending one event at a time to its own stream.
fn throughput(store: &dyn Store, prefix: &str, writers: usize, with_id: bool, secs: f64) -> Result<f64> {
    let clock = SystemClock;
    let ids: Vec<StreamId> = (0..writers).map(|w| StreamId::new(&format!("{prefix}-{w}"))).collect::<Result<_, _>>()?;
    // Streams exist before the clock starts.
    for id in &ids {
        store.append(request(id, 0, with_id, &clock))?;
    }
    // Without a sync, this row's writes would queue behind the writeback of the rows before it
    // (sled's fsyncs, the cluster's files), and the rows would measure each other.
    std::process::Command::new("sync").status()?;
    let until = Instant::now() + Duration::from_secs_f64(secs);
    let started = Instant::now();
    let total: u64 = std::thread::scope(|s| {
        let handles: Vec<_> = ids
            .iter()
            .map(|id| {
                s.spawn(move || {
                    let mut n = 1;
                    while Instant::now() < until {
                        store.append(request(id, n, with_id, &SystemClock))?;
                        n += 1;
                    }
                    Ok::<u64, anyhow::Error>(n - 1)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().map_err(|_| anyhow!("a writer panicked"))?).sum::<Result<u64>>()
    })?;
    Ok(total as f64 / started.elapsed().as_secs_f64())
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

/// Append through `writer`, follow through `follower`'s watch: (append-to-follower, append ack) latencies.
fn follow_latency(writer: &dyn Store, follower: &dyn Store, n: usize) -> Result<(Vec<Duration>, Vec<Duration>)> {
    let stream = StreamId::new("follow")?;
    writer.append(request(&stream, 0, false, &SystemClock))?;
    let mut watch = follower.watch(&stream, 1)?;
    let sent: Arc<Mutex<Vec<Instant>>> = Arc::new(Mutex::new(Vec::new()));
    let mut acks = Vec::new();
    let seen = std::thread::scope(|s| {
        let sent_w = sent.clone();
        let writing = s.spawn(move || {
            for i in 1..=n as u64 {
                let t = Instant::now();
                sent_w.lock().unwrap_or_else(|p| p.into_inner()).push(t);
                writer.append(request(&stream, i, false, &SystemClock))?;
                acks.push(t.elapsed());
                // Paced, so the follower sees appends one by one rather than in bursts.
                std::thread::sleep(Duration::from_millis(2));
            }
            Ok::<_, anyhow::Error>(acks)
        });
        let mut seen = Vec::new();
        let deadline = Instant::now() + Duration::from_secs(120);
        while seen.len() < n && Instant::now() < deadline {
            for _ in watch.next(follower, Duration::from_millis(500))? {
                seen.push(Instant::now());
            }
        }
        let acks = writing.join().map_err(|_| anyhow!("the writer panicked"))??;
        Ok::<_, anyhow::Error>((seen, acks))
    });
    let (seen, acks) = seen?;
    let sent = sent.lock().unwrap_or_else(|p| p.into_inner());
    let mut lat: Vec<Duration> = seen.iter().zip(sent.iter()).map(|(r, s)| r.saturating_duration_since(*s)).collect();
    lat.sort();
    let mut acks = acks;
    acks.sort();
    Ok((lat, acks))
}

/// Kills node `node` while a client appends (with ids, retrying) and returns the time from the
/// kill to the first acknowledged append that started after it; restarts the node.
fn recovery(cluster: &Cluster, store: &NatsStore, stream: &str, node: usize) -> Result<Duration> {
    let stream = StreamId::new(stream)?;
    let stop = AtomicBool::new(false);
    let attempts: Mutex<Vec<(Instant, Instant, bool)>> = Mutex::new(Vec::new());
    let killed_at = std::thread::scope(|s| {
        s.spawn(|| {
            let mut n = 0;
            while !stop.load(Ordering::SeqCst) {
                let req = request(&stream, n, true, &SystemClock);
                loop {
                    let t = Instant::now();
                    let ok = store.append(req.clone()).is_ok();
                    attempts.lock().unwrap_or_else(|p| p.into_inner()).push((t, Instant::now(), ok));
                    if ok || stop.load(Ordering::SeqCst) {
                        break;
                    }
                    std::thread::sleep(Duration::from_millis(10));
                }
                n += 1;
            }
        });
        std::thread::sleep(Duration::from_millis(500));
        let killed_at = Instant::now();
        let result = cluster.kill(node);
        // The node stays down until an append started after the kill is acknowledged (at most 60 s).
        let deadline = killed_at + Duration::from_secs(60);
        let recovered = || {
            let attempts = attempts.lock().unwrap_or_else(|p| p.into_inner());
            attempts.iter().any(|(start, _, ok)| *ok && *start >= killed_at)
        };
        while !recovered() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
        let restarted = cluster.restart();
        stop.store(true, Ordering::SeqCst);
        result.and(restarted).map(|()| killed_at)
    });
    let killed_at = killed_at.map_err(|e| anyhow!(e))?;
    let attempts = attempts.lock().unwrap_or_else(|p| p.into_inner());
    attempts
        .iter()
        .filter(|(start, _, ok)| *ok && *start >= killed_at)
        .map(|(_, end, _)| *end - killed_at)
        .min()
        .ok_or_else(|| anyhow!("no append succeeded within 60 s of killing node {node}"))
}

fn main() -> Result<()> {
    let args = Args::parse();
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/bench-cluster");
    let cluster = Cluster::start_fresh(&dir, args.port_base).map_err(|e| anyhow!(e))?;
    let ms = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH)?.as_millis() % 1_000_000_000;
    let ns = format!("bench_{ms}");
    let url = NatsUrl::parse(&format!("{}?ns={ns}", cluster.url)).map_err(|e| anyhow!("{e}"))?;
    let nats = NatsStore::connect(&url, Arc::new(SystemClock))?;
    let sled_dir = tempfile::tempdir_in(&dir)?;
    let sled = SledStore::open(sled_dir.path(), Arc::new(SystemClock))?;
    let secs = args.seconds;

    let mut rows: Vec<(String, String)> = Vec::new();
    let rate = |r: f64| format!("{r:.0} events/s");
    for writers in [1, 64] {
        let n = throughput(&nats, &format!("t{writers}"), writers, false, secs)?;
        let i = throughput(&nats, &format!("i{writers}"), writers, true, secs)?;
        let s = throughput(&sled, &format!("s{writers}"), writers, false, secs)?;
        rows.push((format!("durable appends, {writers} writer(s): cluster (R3)"), rate(n)));
        rows.push((format!("durable appends, {writers} writer(s): cluster, idempotency ids"), rate(i)));
        rows.push((format!("durable appends, {writers} writer(s): sled"), rate(s)));
        eprintln!("{writers} writer(s): cluster {n:.0}/s, with ids {i:.0}/s, sled {s:.0}/s");
    }
    let follower = NatsStore::connect(&url, Arc::new(SystemClock))?;
    let (lat, acks) = follow_latency(&nats, &follower, args.follows)?;
    let fmt = |d: Duration| format!("{:.2} ms", d.as_secs_f64() * 1e3);
    rows.push((
        format!("append acknowledged, p50 / p99 ({} appends)", acks.len()),
        format!("{} / {}", fmt(percentile(&acks, 0.5)), fmt(percentile(&acks, 0.99))),
    ));
    rows.push((
        format!("append → follower on a second client (watch), p50 / p99 ({} events)", lat.len()),
        format!("{} / {}", fmt(percentile(&lat, 0.5)), fmt(percentile(&lat, 0.99))),
    ));
    let leader = cluster.leader(&events_stream(&ns)).map_err(|e| anyhow!(e))?;
    let other = NODES.iter().copied().find(|&n| n != leader).unwrap_or(1);
    let r = recovery(&cluster, &nats, "recover-f", other)?;
    rows.push((format!("appends succeed again after SIGKILL of a follower node (n{other})"), fmt(r)));
    let mut recoveries = Vec::new();
    for k in 0..args.leader_kills {
        let leader = cluster.leader(&events_stream(&ns)).map_err(|e| anyhow!(e))?;
        let r = recovery(&cluster, &nats, &format!("recover-l{k}"), leader)?;
        eprintln!("leader kill {}: n{leader}, appends again after {}", k + 1, fmt(r));
        recoveries.push(r);
    }
    recoveries.sort();
    rows.push((
        format!("appends succeed again after SIGKILL of the stream leader, p50 / max ({} kills)", recoveries.len()),
        format!("{} / {}", fmt(percentile(&recoveries, 0.5)), fmt(recoveries.last().copied().unwrap_or_default())),
    ));
    let _ = nats.destroy();

    let mut table = Table::new();
    table
        .load_preset(UTF8_FULL)
        .set_header(vec![format!("bench-cluster ({} s per throughput row; {})", secs, cluster.url), "result".into()]);
    for (a, b) in rows {
        table.add_row(vec![Cell::new(a), Cell::new(b).set_alignment(CellAlignment::Right)]);
    }
    println!("{table}");
    Ok(())
}
