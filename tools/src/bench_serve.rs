//! The program behind `tools/bench-serve`: builds a store with a 10,000-event game and a
//! 1,000-player tournament, serves it on 127.0.0.1 (in this process), and loads it from other
//! processes: `oha` for the board at a random sequence number and for the standings (at a fixed
//! 1,000 requests/s and at full speed), and a child process of this program holding 200 live
//! spectator connections (server-sent events) while this process appends a game's events through
//! the server, checking that every connection receives every event in order. Not a timed test:
//! a measurement to read. All traffic stays on the loopback interface.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rand::{RngExt, SeedableRng};
use serde_json::Value;

use kifu::clock::SystemClock;
use kifu::game::commit::{commit_seed, Commitment};
use kifu::game::record;
use kifu::game::{AgentRng, Game, GameEntry, Ruling};
use kifu::games::naruto::Naruto;
use kifu::log::chain;
use kifu::log::envelope::{Actor, Header, StreamId};
use kifu::server::{AppState, ServerConfig};
use kifu::store::sled_store::SledStore;
use kifu::store::{AppendRequest, ExpectedVersion, NewEvent, Store};
use kifu::tournament::{round_seed, ConfigV1, MatchScore, Policy, RoundsPlan, TournamentEvent};

const GAME_EVENTS: usize = 10_000;
const PLAYERS: usize = 1_000;
const SSE_CLIENTS: usize = 200;

/// A 10,000-event game: self-played games one after another, each ended by a judge's backup to
/// the start (a realistic fold: backups are found through the snapshots), cut at 10,000 events.
fn long_game(store: &dyn Store, id: &StreamId) {
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
    let mut entries: Vec<(Actor, GameEntry<<Naruto as Game>::Event>)> = Vec::with_capacity(GAME_EVENTS);
    'games: loop {
        let mut state = Naruto::setup(&config).unwrap();
        let mut secrets = secrets0.clone();
        while let Some(event) = Naruto::agent_step(&state, &mut secrets, &mut rng) {
            if entries.len() == GAME_EVENTS {
                break 'games;
            }
            Naruto::ledger_mut(&mut state).at(entries.len() as u64);
            state = Naruto::apply(state, &event);
            entries.push((record::actor_for::<Naruto>(&names, &event), GameEntry::Played(event)));
        }
        if entries.len() == GAME_EVENTS {
            break;
        }
        let ruling = Ruling::BackedUp { judge: "bench".into(), to_seq: 0, note: "replayed for the benchmark".into() };
        entries.push((Actor::Judge("bench".into()), GameEntry::Ruled(ruling)));
    }
    record::import_entries::<Naruto>(
        store,
        id,
        &config,
        entries,
        kifu::log::envelope::Timestamp(1_767_225_600_000_000),
    )
    .unwrap();
}

/// A 1,000-player Swiss tournament with every round paired from its seed and reported.
fn big_tournament(store: &dyn Store, id: &StreamId) -> u32 {
    use kifu::tournament::record as trec;
    let seed = Commitment([9; 32]);
    let config = ConfigV1 {
        name: "Bench Open (1,000 players)".into(),
        game: "naruto".into(),
        policy: Policy::Mtr,
        rounds: RoundsPlan::ByAttendance,
        top_cut: 8,
        seed_commitment: Some(commit_seed(&seed)),
    };
    let org = Actor::Organizer("bench".into());
    let regs = (1..=PLAYERS)
        .map(|i| TournamentEvent::PlayerRegistered { player: format!("player-{i:04}"), deck: None })
        .collect();
    trec::create(store, id, &config, org.clone(), kifu::log::envelope::Timestamp(1_767_225_600_000_000), regs).unwrap();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
    let mut round = 1;
    loop {
        let state = trec::load(store, id).unwrap().state;
        if round > state.swiss_rounds.unwrap_or(u32::MAX) {
            return round - 1;
        }
        let rs = round_seed(&seed, round);
        let (tables, byes) = state.derive_round(round, &rs);
        let mut events =
            vec![TournamentEvent::RoundPaired { round, tables: tables.clone(), byes, round_seed: Some(rs) }];
        for t in &tables {
            let score = match rng.random_range(0..10u32) {
                0..=3 => MatchScore { a_wins: 2, b_wins: rng.random_range(0..2), draws: 0 },
                4..=7 => MatchScore { a_wins: rng.random_range(0..2), b_wins: 2, draws: 0 },
                _ => MatchScore { a_wins: 1, b_wins: 1, draws: 1 },
            };
            events.push(TournamentEvent::ResultReported { round, table: t.table, score, games: vec![] });
        }
        trec::record(store, id, org.clone(), events).unwrap();
        round += 1;
    }
}

fn oha(oha: &Path, args: &[&str]) -> Value {
    let out = Command::new(oha).args(["--no-tui", "--output-format", "json"]).args(args).output().expect("oha runs");
    assert!(out.status.success(), "oha failed: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("oha prints JSON")
}

fn report(name: &str, v: &Value) -> String {
    let s = &v["summary"];
    let p = &v["latencyPercentiles"];
    let ms = |x: &Value| x.as_f64().unwrap_or(f64::NAN) * 1000.0;
    let codes = v["statusCodeDistribution"].to_string();
    format!(
        "{name:<44} {:>9.0} req/s  p50 {:>6.2} ms  p99 {:>6.2} ms  p99.9 {:>6.2} ms  max {:>7.2} ms  success {:.4}  status {codes}",
        s["requestsPerSec"].as_f64().unwrap_or(f64::NAN),
        ms(&p["p50"]),
        ms(&p["p99"]),
        ms(&p["p99.9"]),
        ms(&s["slowest"]),
        s["successRate"].as_f64().unwrap_or(f64::NAN),
    )
}

/// Child mode: hold `n` SSE connections to `url`, print "ready", then read until each has
/// received `expect` events in order; print one JSON line with the delivery latencies.
fn sse_clients(addr: &str, path: &str, n: usize, expect: u64) {
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    rt.block_on(async {
        use tokio::io::{AsyncBufReadExt, AsyncWriteExt};
        let mut conns = Vec::new();
        for _ in 0..n {
            let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
            let req = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n\r\n");
            s.write_all(req.as_bytes()).await.unwrap();
            let mut r = tokio::io::BufReader::new(s);
            let mut line = String::new();
            // Wait for the response head, so the subscription exists before "ready".
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
        let t0 = Instant::now();
        let mut tasks = Vec::new();
        for mut r in conns {
            tasks.push(tokio::spawn(async move {
                let mut next = 0u64;
                let mut lat = Vec::with_capacity(expect as usize);
                let mut line = String::new();
                while next < expect {
                    line.clear();
                    if r.read_line(&mut line).await.unwrap() == 0 {
                        break;
                    }
                    let l = line.trim_end();
                    if let Some(id) = l.strip_prefix("id: ").or_else(|| l.strip_prefix("id:")) {
                        let id: u64 = id.trim().parse().unwrap();
                        assert_eq!(id, next, "events arrive in order, none missing");
                        next += 1;
                    } else if let Some(d) = l.strip_prefix("data: ").or_else(|| l.strip_prefix("data:")) {
                        if next == 1 {
                            continue; // event 0 was recorded before the spectators connected
                        }
                        let v: Value = serde_json::from_str(d).unwrap();
                        let at =
                            chrono::DateTime::parse_from_rfc3339(v["entry"]["recorded_at"].as_str().unwrap()).unwrap();
                        let us = chrono::Utc::now().signed_duration_since(at).num_microseconds().unwrap_or(0);
                        lat.push(us);
                    }
                }
                (next, lat)
            }));
        }
        let mut all = Vec::new();
        let mut complete = 0;
        for t in tasks {
            let (got, lat) = t.await.unwrap();
            if got == expect {
                complete += 1;
            }
            all.extend(lat);
        }
        all.sort_unstable();
        let pct = |p: f64| all.get(((all.len() as f64 - 1.0) * p) as usize).copied().unwrap_or(0) as f64 / 1000.0;
        let out = serde_json::json!({
            "connections": n, "complete": complete, "events": expect, "delivered": all.len(),
            "seconds": t0.elapsed().as_secs_f64(),
            "p50_ms": pct(0.5), "p99_ms": pct(0.99), "max_ms": pct(1.0),
        });
        println!("{out}");
    });
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("sse-clients") {
        sse_clients(&args[2], &args[3], args[4].parse().unwrap(), args[5].parse().unwrap());
        return;
    }
    let oha_bin =
        PathBuf::from(std::env::var("BENCH_OHA").expect("BENCH_OHA: the oha binary (tools/bench-serve installs it)"));
    let dir = tempfile::tempdir().unwrap();
    let store = SledStore::open(&dir.path().join("data"), Arc::new(SystemClock)).unwrap();
    let game = StreamId::new("bench-game").unwrap();
    let tid = StreamId::new("bench-open").unwrap();
    let t0 = Instant::now();
    long_game(&store, &game);
    println!("built a {GAME_EVENTS}-event game in {:.1} s", t0.elapsed().as_secs_f64());
    let t0 = Instant::now();
    let rounds = big_tournament(&store, &tid);
    println!("built a {PLAYERS}-player tournament ({rounds} rounds) in {:.1} s", t0.elapsed().as_secs_f64());
    let fixture = std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("replays/naruto-physical.kifu")).unwrap();
    let live_log = kifu::log::file::read(&fixture).unwrap();

    let state = AppState::new(Arc::new(store), Arc::new(SystemClock), ServerConfig::default());
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    let listener = rt.block_on(tokio::net::TcpListener::bind("127.0.0.1:0")).unwrap();
    let addr = listener.local_addr().unwrap();
    {
        let app = kifu::server::app(state.clone());
        rt.spawn(async move { axum::serve(listener, app).await });
    }
    let base = format!("http://{addr}");
    // Warm the caches once (the first request folds the game and loads the tournament).
    let t0 = Instant::now();
    let opened = rt.block_on(state.game("bench-game")).unwrap();
    assert_eq!(opened.len(), GAME_EVENTS as u64);
    println!(
        "opened the {}-event game (fold + snapshots) in {:.0} ms",
        opened.len(),
        t0.elapsed().as_secs_f64() * 1000.0
    );
    let t0 = Instant::now();
    rt.block_on(state.tournament("bench-open")).unwrap();
    println!("loaded the tournament and its standings in {:.0} ms", t0.elapsed().as_secs_f64() * 1000.0);

    let board = format!(r"{base}/api/v1/games/bench-game/board\?seq=[1-9][0-9]{{0,3}}");
    let board_full = format!(r"{base}/api/v1/games/bench-game/board\?seq=[1-9][0-9]{{0,3}}&as=spectator");
    let standings = format!("{base}/api/v1/tournaments/bench-open/standings");
    let mut lines = Vec::new();
    let v = oha(&oha_bin, &["-z", "15s", "-q", "1000", "-c", "50", "--rand-regex-url", &board]);
    lines.push(report("board at a random seq, 1,000 req/s, 50 conns", &v));
    let v = oha(&oha_bin, &["-z", "10s", "-c", "50", "--rand-regex-url", &board_full]);
    lines.push(report("board at a random seq, full speed, 50 conns", &v));
    let v = oha(&oha_bin, &["-z", "15s", "-q", "1000", "-c", "50", &standings]);
    lines.push(report("standings (1,000 players), 1,000 req/s", &v));
    let v = oha(&oha_bin, &["-z", "10s", "-c", "50", &standings]);
    lines.push(report("standings (1,000 players), full speed", &v));
    for l in &lines {
        println!("{l}");
    }

    // 200 live spectators in another process; this process appends a game through the server.
    let exe = std::env::current_exe().unwrap();
    let events = live_log.head.len;
    let mut child = Command::new(exe)
        .args([
            "sse-clients",
            &addr.to_string(),
            "/api/v1/games/bench-live/live?from=0",
            &SSE_CLIENTS.to_string(),
            &events.to_string(),
        ])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    // The stream must exist before spectators connect: append its first event first.
    let mut h = live_log.header.v1().clone();
    h.stream = StreamId::new("bench-live").unwrap();
    let append = |seq: u64| {
        let (env, _) = chain::open_event(&live_log.events[seq as usize]).unwrap();
        let e = env.v1();
        AppendRequest {
            stream: h.stream.clone(),
            expected: if seq == 0 { ExpectedVersion::NoStream } else { ExpectedVersion::Exact(seq) },
            create: Some(Header::V1(h.clone())),
            events: vec![NewEvent { actor: e.actor.clone(), payload: e.payload.to_vec(), idempotency: None }],
        }
    };
    rt.block_on(state.append(append(0))).unwrap();
    let mut line = String::new();
    out.read_line(&mut line).unwrap();
    assert_eq!(line.trim(), "ready");
    let t0 = Instant::now();
    rt.block_on(async {
        for seq in 1..events {
            state.append(append(seq)).await.unwrap();
            // A brisk game: 100 events a second.
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    });
    let appended = t0.elapsed();
    line.clear();
    out.read_line(&mut line).unwrap();
    let _ = child.wait();
    let v: Value = serde_json::from_str(line.trim()).expect("the SSE clients' report");
    let sse = format!(
        "{SSE_CLIENTS} live spectators x {events} events: {}/{} connections received every event in order; \
         {} deliveries; append-to-receipt latency p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms; appends took {:.1} s",
        v["complete"],
        v["connections"],
        v["delivered"],
        v["p50_ms"].as_f64().unwrap_or(f64::NAN),
        v["p99_ms"].as_f64().unwrap_or(f64::NAN),
        v["max_ms"].as_f64().unwrap_or(f64::NAN),
        appended.as_secs_f64()
    );
    println!("{sse}");
    lines.push(sse);
    let target = std::env::var("BENCH_WORK").unwrap_or_else(|_| ".".into());
    std::fs::write(Path::new(&target).join("results.txt"), lines.join("\n") + "\n").unwrap();
}
