//! The program behind `tools/bench-live`: live recording at scale. Prints one table:
//! - durable append latency (p50, p99) on open games of 1,000, 10,000 and 100,000 events;
//! - appends per second with 1, 8 and 64 live games appending at once, beside SQLite (WAL,
//!   synchronous=FULL, one connection per writer);
//! - a round in progress: live games appending 2 events/s each through the server's recording
//!   path, with two spectators per game following over server-sent events on 127.0.0.1;
//! - the RSS of a `kifu serve` process after a crawl of every game in a large store.
//!
//! The last line is `live append p99 ratio 100k/1k: R`. `--quick` runs a smaller version
//! (within two minutes). Not a timed test: a measurement to read. Traffic stays on loopback.
//! `--memory GAMES CACHE_MB` runs the crawl alone; `--accounting GAMES` compares the heap open
//! games hold with what the server's cache accounts for them.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

use rand::SeedableRng;
use serde_json::Value;

use kifu::clock::SystemClock;
use kifu::game::record::{self, LiveGame};
use kifu::game::{AgentRng, Game, GameEntry, Ruling};
use kifu::games::naruto::Naruto;
use kifu::log::envelope::{Actor, StreamId, Timestamp};
use kifu::server::{AppState, ServerConfig};
use kifu::store::sled_store::SledStore;
use kifu::store::Store;

type Entry = (Actor, GameEntry<<Naruto as Game>::Event>);

// The server's allocator, so `--accounting` reads the heap as `kifu serve` would hold it.
#[global_allocator]
static GLOBAL: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// Bytes this process holds: its RSS once jemalloc returns every freed page at once (set by
/// [`accounting`]; jemalloc is built without its statistics).
fn heap_bytes() -> usize {
    rss_kib(std::process::id()) as usize * 1024
}

/// `--accounting GAMES`: the heap an open game holds (opened, audited, a spectator's timeline:
/// what a crawl leaves in the server's cache) beside what `approx_bytes` accounts for it.
fn accounting(games: usize) {
    use tikv_jemalloc_ctl::{Access as _, AsName as _};
    let mut names = vec!["arenas.dirty_decay_ms\0".to_string(), "arenas.muzzy_decay_ms\0".to_string()];
    for i in 0..tikv_jemalloc_ctl::arenas::narenas::read().unwrap_or(0) {
        names.push(format!("arena.{i}.dirty_decay_ms\0"));
        names.push(format!("arena.{i}.muzzy_decay_ms\0"));
    }
    for n in &names {
        let _ = n.as_str().name().write(0isize);
    }
    let store = SledStore::temporary(Arc::new(SystemClock)).unwrap();
    let drv = kifu::games::driver("naruto").unwrap();
    let players = ["alice".to_string(), "bob".to_string()];
    let logs: Vec<_> = (0..games)
        .map(|g| {
            let id = StreamId::new(&format!("acc-{g}")).unwrap();
            drv.self_play(&store, &id, (g % 50) as u64, &players, t0()).unwrap();
            store.export(&id).unwrap()
        })
        .collect();
    let base = heap_bytes();
    let mut open = Vec::new();
    let mut accounted = 0;
    for log in &logs {
        let mut s = drv.open(log).unwrap();
        s.audit();
        s.timeline_range(kifu::game::Viewer::Spectator, 0, u64::MAX);
        accounted += s.approx_bytes();
        open.push(s);
    }
    let held = heap_bytes() - base;
    let events: usize = logs.iter().map(|l| l.events.len()).sum();
    println!(
        "open games, heap held vs accounted ({games} games, {events} events): {:.1} MiB held, {:.1} MiB accounted ({:.2}x)",
        held as f64 / 1048576.0,
        accounted as f64 / 1048576.0,
        held as f64 / accounted.max(1) as f64
    );
}

/// `n` legal entries: self-played physical Naruto games one after another, each ended by a
/// judge's backup to the start, so any prefix is a legal game of that length.
fn entries(n: usize) -> (<Naruto as Game>::Config, Vec<Entry>) {
    let players = vec!["alice".to_string(), "bob".to_string()];
    let mut seed = 11u64;
    let (config, secrets0, mut rng) = loop {
        let mut rng = AgentRng::seed_from_u64(seed);
        let (c, s) = Naruto::self_play_config(&players, &mut rng);
        if !format!("{c:?}").contains("Digital") {
            break (c, s, rng);
        }
        seed += 1;
    };
    let names = Naruto::players(&config);
    let mut out: Vec<Entry> = Vec::with_capacity(n);
    while out.len() < n {
        let mut state = Naruto::setup(&config).unwrap();
        let mut secrets = secrets0.clone();
        while let Some(event) = Naruto::agent_step(&state, &mut secrets, &mut rng) {
            if out.len() == n {
                return (config, out);
            }
            Naruto::ledger_mut(&mut state).at(out.len() as u64);
            state = Naruto::apply(state, &event);
            out.push((record::actor_for::<Naruto>(&names, &event), GameEntry::Played(event)));
        }
        if out.len() < n {
            let ruling = Ruling::BackedUp { judge: "bench".into(), to_seq: 0, note: "again".into() };
            out.push((Actor::Judge("bench".into()), GameEntry::Ruled(ruling)));
        }
    }
    (config, out)
}

fn pct(sorted: &[f64], p: f64) -> f64 {
    sorted.get(((sorted.len() as f64 - 1.0) * p).round() as usize).copied().unwrap_or(f64::NAN)
}

fn t0() -> Timestamp {
    Timestamp(1_767_225_600_000_000)
}

/// p50 and p99 (ms) of a durable `record` on an open game already holding `n` events.
fn append_latency(n: usize, samples: usize) -> (f64, f64) {
    let (config, all) = entries(n + samples);
    let dir = tempfile::tempdir().unwrap();
    let store = SledStore::open(&dir.path().join("data"), Arc::new(SystemClock)).unwrap();
    let id = StreamId::new("long").unwrap();
    let (first, rest) = all.split_at(n);
    record::import_entries::<Naruto>(&store, &id, &config, first.to_vec(), t0()).unwrap();
    let mut live = LiveGame::<Naruto>::load(&store, &id).unwrap();
    let mut lat = Vec::with_capacity(samples);
    for (actor, entry) in rest.iter().cloned() {
        let t = Instant::now();
        live.record(&store, actor, entry, None, None).unwrap();
        lat.push(t.elapsed().as_secs_f64() * 1000.0);
    }
    assert_eq!(store.head(&id).unwrap().len, (n + samples) as u64);
    lat.sort_by(f64::total_cmp);
    if std::env::var_os("BENCH_SLOW").is_some() {
        eprintln!("p99.9 {:.2} ms, max {:.2} ms", pct(&lat, 0.999), pct(&lat, 1.0));
    }
    (pct(&lat, 0.5), pct(&lat, 0.99))
}

/// Waits until the kernel has written back what earlier rows left dirty (their deleted stores
/// included), so that a row's fsyncs do not queue behind another row's writeback: without it
/// the 64-writer row measured 22-31k appends/s after SQLite's rows and 39-41k alone.
fn quiet_disk() {
    let _ = std::process::Command::new("sync").status();
}

/// Appends per second with `writers` live games, each recording `per` events durably.
fn kifu_throughput(writers: usize, per: usize, game: &(<Naruto as Game>::Config, Vec<Entry>)) -> f64 {
    let dir = tempfile::tempdir().unwrap();
    let store = Arc::new(SledStore::open(&dir.path().join("data"), Arc::new(SystemClock)).unwrap());
    let lives: Vec<LiveGame<Naruto>> = (0..writers)
        .map(|w| {
            let id = StreamId::new(&format!("w{w}")).unwrap();
            record::create::<Naruto>(&*store, &id, &game.0, t0()).unwrap();
            LiveGame::<Naruto>::load(&*store, &id).unwrap()
        })
        .collect();
    let barrier = Arc::new(Barrier::new(writers + 1));
    let handles: Vec<_> = lives
        .into_iter()
        .map(|mut live| {
            let (store, barrier, todo) = (store.clone(), barrier.clone(), game.1[..per].to_vec());
            std::thread::spawn(move || {
                barrier.wait();
                for (actor, entry) in todo {
                    live.record(&*store, actor, entry, None, None).unwrap();
                }
            })
        })
        .collect();
    barrier.wait();
    let t = Instant::now();
    let (w0, f0) = store.commit_stats();
    for h in handles {
        h.join().unwrap();
    }
    let rate = (writers * per) as f64 / t.elapsed().as_secs_f64();
    let (w1, f1) = store.commit_stats();
    if std::env::var_os("BENCH_COMMITS").is_some() {
        eprintln!("{writers} writers: {} writes in {} durable flushes", w1 - w0, f1 - f0);
    }
    rate
}

/// The same with SQLite: WAL, synchronous=FULL, one connection per writer, one row per commit.
fn sqlite_throughput(writers: usize, per: usize, game: &(<Naruto as Game>::Config, Vec<Entry>)) -> f64 {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bench.db");
    {
        let c = rusqlite::Connection::open(&path).unwrap();
        let mode: String = c.query_row("PRAGMA journal_mode=WAL", [], |r| r.get(0)).unwrap();
        assert_eq!(mode.to_lowercase(), "wal");
        c.execute_batch("CREATE TABLE events (stream TEXT, seq INTEGER, payload BLOB, PRIMARY KEY (stream, seq))")
            .unwrap();
    }
    let payloads: Vec<Vec<u8>> = game.1[..per].iter().map(|(_, e)| postcard::to_stdvec(e).unwrap()).collect();
    let barrier = Arc::new(Barrier::new(writers + 1));
    let handles: Vec<_> = (0..writers)
        .map(|w| {
            let (path, barrier, payloads) = (path.clone(), barrier.clone(), payloads.clone());
            std::thread::spawn(move || {
                let c = rusqlite::Connection::open(&path).unwrap();
                c.execute_batch("PRAGMA synchronous=FULL;").unwrap();
                let sync: i64 = c.query_row("PRAGMA synchronous", [], |r| r.get(0)).unwrap();
                assert_eq!(sync, 2, "SQLite synchronous=FULL");
                c.busy_timeout(Duration::from_secs(60)).unwrap();
                barrier.wait();
                for (seq, p) in payloads.iter().enumerate() {
                    c.execute(
                        "INSERT INTO events VALUES (?1, ?2, ?3)",
                        rusqlite::params![format!("w{w}"), seq as i64, p],
                    )
                    .unwrap();
                }
            })
        })
        .collect();
    barrier.wait();
    let t = Instant::now();
    for h in handles {
        h.join().unwrap();
    }
    (writers * per) as f64 / t.elapsed().as_secs_f64()
}

/// Child mode: hold SSE connections (one per path), print "ready", read until each has `expect`
/// events or `secs` pass, and print the append-to-spectator latencies as one JSON line.
fn sse_clients(addr: &str, paths: &[String], expect: u64, secs: u64) {
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    rt.block_on(async {
        use tokio::io::{AsyncBufReadExt, AsyncWriteExt};
        let mut conns = Vec::new();
        for path in paths {
            let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
            let req = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n\r\n");
            s.write_all(req.as_bytes()).await.unwrap();
            let mut r = tokio::io::BufReader::new(s);
            let mut line = String::new();
            loop {
                line.clear();
                r.read_line(&mut line).await.unwrap();
                if line == "\r\n" {
                    break;
                }
            }
            conns.push(r);
        }
        println!("ready");
        std::io::stdout().flush().unwrap();
        let deadline = tokio::time::Instant::now() + Duration::from_secs(secs);
        let mut tasks = Vec::new();
        for mut r in conns {
            tasks.push(tokio::spawn(async move {
                let (mut got, mut lat) = (0u64, Vec::new());
                let mut line = String::new();
                while got < expect {
                    line.clear();
                    match tokio::time::timeout_at(deadline, r.read_line(&mut line)).await {
                        Ok(Ok(n)) if n > 0 => {}
                        _ => break,
                    }
                    if let Some(d) = line.trim_end().strip_prefix("data: ").or_else(|| line.strip_prefix("data:")) {
                        let v: Value = serde_json::from_str(d.trim()).unwrap();
                        let at =
                            chrono::DateTime::parse_from_rfc3339(v["entry"]["recorded_at"].as_str().unwrap()).unwrap();
                        let us = chrono::Utc::now().signed_duration_since(at).num_microseconds().unwrap_or(0);
                        lat.push(us as f64 / 1000.0);
                        got += 1;
                    }
                }
                (got, lat)
            }));
        }
        let (mut all, mut complete) = (Vec::new(), 0);
        for t in tasks {
            let (got, lat) = t.await.unwrap();
            complete += usize::from(got == expect);
            all.extend(lat);
        }
        all.sort_by(f64::total_cmp);
        let out = serde_json::json!({"complete": complete, "delivered": all.len(), "p50_ms": pct(&all, 0.5), "p99_ms": pct(&all, 0.99)});
        println!("{out}");
    });
}

/// A round in progress: `games` live games on the server, each recording `per_game` events at
/// 2 a second through the server's recording path, two SSE spectators per game in a child
/// process. Returns (ack p50, ack p99, spectator p50, spectator p99, complete spectators).
fn round_in_progress(games: usize, per_game: usize) -> (f64, f64, f64, f64, String) {
    let dir = tempfile::tempdir().unwrap();
    let store = SledStore::open(&dir.path().join("data"), Arc::new(SystemClock)).unwrap();
    let game = entries(per_game);
    let ids: Vec<String> = (0..games).map(|g| format!("table-{g}")).collect();
    for id in &ids {
        record::create::<Naruto>(&store, &StreamId::new(id).unwrap(), &game.0, t0()).unwrap();
    }
    let mut config = ServerConfig::default();
    if let Some(mb) = std::env::var("BENCH_CACHE_MB").ok().and_then(|v| v.parse::<usize>().ok()) {
        config.cache_bytes = Some(mb << 20);
    }
    let state = AppState::new(Arc::new(store), Arc::new(SystemClock), config);
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    let listener = rt.block_on(tokio::net::TcpListener::bind("127.0.0.1:0")).unwrap();
    let addr = listener.local_addr().unwrap();
    {
        let app = kifu::server::app(state.clone());
        rt.spawn(async move { axum::serve(listener, app).await });
    }
    let paths: Vec<String> =
        ids.iter().flat_map(|id| [format!("/api/v1/games/{id}/live"), format!("/api/v1/games/{id}/live")]).collect();
    let secs = (per_game as u64) / 2 + 20;
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args(["sse-clients", &addr.to_string(), &per_game.to_string(), &secs.to_string()])
        .args(&paths)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    out.read_line(&mut line).unwrap();
    assert_eq!(line.trim(), "ready");
    let events: Vec<String> = game
        .1
        .iter()
        .map(|(_, e)| match e {
            GameEntry::Played(ev) => serde_json::to_string(ev).unwrap(),
            _ => unreachable!("the first game has no ruling"),
        })
        .collect();
    let events = Arc::new(events);
    let acks = rt.block_on(async {
        let mut tasks = Vec::new();
        for (g, id) in ids.iter().enumerate() {
            let (state, id, events) = (state.clone(), id.clone(), events.clone());
            tasks.push(tokio::spawn(async move {
                // Spread the tables over the half-second between events.
                tokio::time::sleep(Duration::from_micros((g as u64 * 500_000) / games as u64)).await;
                let mut tick = tokio::time::interval(Duration::from_millis(500));
                let mut lat = Vec::new();
                for ev in events.iter() {
                    tick.tick().await;
                    let t = Instant::now();
                    // What `POST /games/{id}/events` does once the caller is authorised.
                    let g = state.game(&id).await.unwrap();
                    let (live, store, ev) = (g.session.live().clone(), state.store().clone(), ev.clone());
                    // The store's watch tells the live followers.
                    tokio::task::spawn_blocking(move || {
                        live.write().unwrap().act_json(&*store, None, &ev, None, None, None)
                    })
                    .await
                    .unwrap()
                    .unwrap();
                    lat.push(t.elapsed().as_secs_f64() * 1000.0);
                    if std::env::var_os("BENCH_SLOW").is_some() && t.elapsed() > Duration::from_millis(20) {
                        eprintln!(
                            "slow ack: {id} event {} {:.1} ms",
                            lat.len() - 1,
                            t.elapsed().as_secs_f64() * 1000.0
                        );
                    }
                }
                lat
            }));
        }
        let mut all = Vec::new();
        for t in tasks {
            all.extend(t.await.unwrap());
        }
        all
    });
    line.clear();
    out.read_line(&mut line).unwrap();
    let _ = child.wait();
    let v: Value = serde_json::from_str(line.trim()).expect("the SSE clients' report");
    let mut acks = acks;
    acks.sort_by(f64::total_cmp);
    let f = |k: &str| v[k].as_f64().unwrap_or(f64::NAN);
    (
        pct(&acks, 0.5),
        pct(&acks, 0.99),
        f("p50_ms"),
        f("p99_ms"),
        format!("{}/{} spectators got all {per_game} events", v["complete"], paths.len()),
    )
}

fn rss_kib(pid: u32) -> u64 {
    let s = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    s.lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

fn http_get(addr: &str, path: &str) -> usize {
    let mut s = TcpStream::connect(addr).unwrap();
    write!(s, "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n").unwrap();
    let mut body = Vec::new();
    s.read_to_end(&mut body).unwrap();
    assert!(body.starts_with(b"HTTP/1.1 200"), "{path}: {}", String::from_utf8_lossy(&body[..body.len().min(200)]));
    body.len()
}

/// RSS (MiB) of `kifu serve --cache-mb CACHE` before and after crawling `games` stored games
/// (summary, every event for a spectator, the audit).
fn crawl_rss(kifu: &Path, games: usize, cache_mb: u32) -> (f64, f64) {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    {
        let store = SledStore::open(&data, Arc::new(SystemClock)).unwrap();
        let drv = kifu::games::driver("naruto").unwrap();
        let players = ["alice".to_string(), "bob".to_string()];
        for g in 0..games {
            let id = StreamId::new(&format!("stored-{g}")).unwrap();
            drv.self_play(&store, &id, (g % 50) as u64, &players, t0()).unwrap();
        }
    }
    let mut server = Command::new(kifu)
        .args(["--data", data.to_str().unwrap(), "serve", "--addr", "127.0.0.1:0", "--cache-mb"])
        .arg(cache_mb.to_string())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(server.stdout.take().unwrap());
    let mut line = String::new();
    out.read_line(&mut line).unwrap();
    let addr = line.split("http://").nth(1).and_then(|r| r.split('/').next()).unwrap().to_string();
    let before = rss_kib(server.id()) as f64 / 1024.0;
    for g in 0..games {
        for p in ["", "/events?from=0&limit=1000", "/audit"] {
            http_get(&addr, &format!("/api/v1/games/stored-{g}{p}"));
        }
    }
    let after = rss_kib(server.id()) as f64 / 1024.0;
    // Freed pages go back to the system within a couple of seconds (jemalloc's decay).
    std::thread::sleep(Duration::from_secs(3));
    let settled = rss_kib(server.id()) as f64 / 1024.0;
    let _ = server.kill();
    let _ = server.wait();
    eprintln!("server RSS {settled:.0} MiB 3 s after the crawl");
    (before, after)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("sse-clients") {
        sse_clients(&args[2], &args[5..], args[3].parse().unwrap(), args[4].parse().unwrap());
        return;
    }
    let quick = args.iter().any(|a| a == "--quick");
    let kifu = std::env::var("BENCH_KIFU").expect("BENCH_KIFU: the kifu binary (tools/bench-live builds it)");
    if let Some(i) = args.iter().position(|a| a == "--accounting") {
        accounting(args.get(i + 1).and_then(|v| v.parse().ok()).unwrap_or(100));
        return;
    }
    // `--memory GAMES CACHE_MB`: only the crawl, to look at the server's memory alone.
    if let Some(i) = args.iter().position(|a| a == "--memory") {
        let games = args.get(i + 1).and_then(|v| v.parse().ok()).unwrap_or(2_000);
        let cache_mb = args.get(i + 2).and_then(|v| v.parse().ok()).unwrap_or(64);
        let (before, after) = crawl_rss(Path::new(&kifu), games, cache_mb);
        println!("server RSS, crawl of {games} stored games (--cache-mb {cache_mb}): {before:.0} MiB before, {after:.0} MiB after (bound + 50 MiB = {} MiB)", cache_mb + 50);
        return;
    }
    if let Some(i) = args.iter().position(|a| a == "--sled-read") {
        {
            use tikv_jemalloc_ctl::{Access as _, AsName as _};
            for n in ["arenas.dirty_decay_ms\0", "arenas.muzzy_decay_ms\0"] {
                let _ = n.name().write(0isize);
            }
            let _ = tikv_jemalloc_ctl::background_thread::write(true);
        }
        let dir = std::path::PathBuf::from(&args[i + 1]);
        let mb: u64 = args[i + 2].parse().unwrap();
        let opts = kifu::store::sled_store::OpenOptions { page_cache_bytes: mb << 20, ..Default::default() };
        let store = SledStore::open_with(&dir, Arc::new(SystemClock), opts).unwrap();
        eprintln!("opened: {} MiB", rss_kib(std::process::id()) / 1024);
        let all = store.streams().unwrap();
        eprintln!("listed: {} MiB", rss_kib(std::process::id()) / 1024);
        for (n, s) in all.iter().chain(all.iter()).enumerate() {
            store.export(s.header.stream()).unwrap();
            if (n + 1) % 500 == 0 {
                eprintln!("{} streams: {} MiB", n + 1, rss_kib(std::process::id()) / 1024);
            }
        }
        return;
    }
    if let Some(i) = args.iter().position(|a| a == "--latency") {
        let samples = args.get(i + 1).and_then(|v| v.parse().ok()).unwrap_or(10_000);
        let (p50, p99) = append_latency(1_000, samples);
        println!("append latency ({samples} durable records): p50 {p50:.2} ms, p99 {p99:.2} ms");
        return;
    }
    // `--round GAMES EVENTS`: only the round in progress.
    if let Some(i) = args.iter().position(|a| a == "--round") {
        let games = args.get(i + 1).and_then(|v| v.parse().ok()).unwrap_or(500);
        let per_game = args.get(i + 2).and_then(|v| v.parse().ok()).unwrap_or(40);
        let (a50, a99, s50, s99, complete) = round_in_progress(games, per_game);
        println!("round in progress: {games} live games x 2 events/s, {} spectators: ack p50 {a50:.2} ms, p99 {a99:.2} ms; spectator p50 {s50:.2} ms, p99 {s99:.2} ms; {complete}", games * 2);
        return;
    }
    // `--throughput PER`: only the 1/8/64-writer rows (PER appends per writer), to profile them.
    if let Some(i) = args.iter().position(|a| a == "--throughput") {
        let per = args.get(i + 1).and_then(|v| v.parse().ok()).unwrap_or(100);
        let game = entries(per);
        quiet_disk();
        let one = kifu_throughput(1, per, &game);
        for writers in [1usize, 8, 64] {
            quiet_disk();
            let k = if writers == 1 { one } else { kifu_throughput(writers, per, &game) };
            println!("{writers} live games appending durably: {k:.0} appends/s ({:.1}x one writer)", k / one);
        }
        return;
    }
    let mut rows: Vec<(String, String)> = Vec::new();
    let mut row = |k: String, v: String| {
        eprintln!("{k}: {v}");
        rows.push((k, v));
    };

    let lengths: &[usize] = if quick { &[1_000, 100_000] } else { &[1_000, 10_000, 100_000] };
    // p99 of 200 samples is the second-worst one: a single fsync hiccup moved the quick ratio by 0.5.
    let samples = 1_000;
    let mut p99 = Vec::new();
    for &n in lengths {
        let (p50, p) = append_latency(n, samples);
        p99.push(p);
        row(
            format!("append latency, game of {n} events ({samples} durable records)"),
            format!("p50 {p50:.2} ms, p99 {p:.2} ms"),
        );
    }

    // Enough appends per writer that the 64-writer row runs for most of a second: shorter runs
    // were dominated by thread start-up and by the disk's fsync jitter on the one-writer row.
    let per = if quick { 300 } else { 1_000 };
    // SQLite under 64 writers manages a few hundred commits a second: fewer appends keep its rows
    // short (a rate is a rate).
    let sqlite_per = if quick { 30 } else { 100 };
    let game = entries(per);
    let mut single = (0.0, 0.0);
    for writers in [1usize, 8, 64] {
        quiet_disk();
        let k = kifu_throughput(writers, per, &game);
        quiet_disk();
        let s = sqlite_throughput(writers, sqlite_per, &game);
        if writers == 1 {
            single = (k, s);
        }
        row(
            format!("throughput, {writers} live games appending durably"),
            format!("kifu {k:.0} appends/s ({:.1}x one writer), SQLite {s:.0}/s ({:.1}x)", k / single.0, s / single.1),
        );
    }

    let (games, per_game) = if quick { (100, 10) } else { (500, 40) };
    let (a50, a99, s50, s99, complete) = round_in_progress(games, per_game);
    row(
        format!("round in progress: {games} live games x 2 events/s, {} spectators", games * 2),
        format!("ack p50 {a50:.2} ms, p99 {a99:.2} ms; spectator p50 {s50:.2} ms, p99 {s99:.2} ms; {complete}"),
    );

    let (crawl, cache_mb) = if quick { (300, 64) } else { (2_000, 64) };
    let (before, after) = crawl_rss(Path::new(&kifu), crawl, cache_mb);
    row(
        format!("server RSS, crawl of {crawl} stored games (--cache-mb {cache_mb})"),
        format!("{before:.0} MiB before, {after:.0} MiB after (bound + 50 MiB = {} MiB)", cache_mb + 50),
    );

    let width = rows.iter().map(|(k, _)| k.len()).max().unwrap_or(0);
    println!("{}", if quick { "bench-live --quick" } else { "bench-live" });
    for (k, v) in &rows {
        println!("{k:<width$}  {v}");
    }
    println!("live append p99 ratio 100k/1k: {:.2}", p99[p99.len() - 1] / p99[0]);
}
