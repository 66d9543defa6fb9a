//! The program behind `tools/bench-pairing`: times kifu's Swiss pairing of one round against the
//! npm package `tournament-pairings` (blossom) and the PyPI package `swisspair` on the same
//! generated inputs, reports quality (rematches, pair-down steps, score difference), and times
//! standings for 10,000 players over 15 rounds, and `kifu tournament pair` end to end (a cold
//! process on a 10,000-player event after 9 rounds). Not a timed test: a measurement to read.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::HashMap;
use std::io::Read;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use rand::{RngExt, SeedableRng};

use kifu::tournament::pairing::{self, Entrant, Pairing, Quality};
use kifu::tournament::policy::Policy;
use kifu::tournament::standings::{self, MatchRecord, Tallies};

const HISTORY_ROUNDS: u32 = 6;

struct Field {
    e: Vec<Entrant>,
    o: Vec<Vec<usize>>,
}

fn field(n: usize, rounds: u32, seed: u64) -> Field {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut score = vec![0u32; n];
    let mut opp: Vec<Vec<usize>> = vec![vec![]; n];
    let mut bye = vec![false; n];
    let build = |score: &[u32], opp: &[Vec<usize>], bye: &[bool], rng: &mut rand_chacha::ChaCha8Rng| {
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&i| (std::cmp::Reverse(score[i]), i));
        let mut slot = vec![0; n];
        for (k, &i) in order.iter().enumerate() {
            slot[i] = k;
        }
        let e: Vec<Entrant> =
            order.iter().map(|&i| Entrant { score: score[i], had_bye: bye[i], key: rng.random::<u64>() }).collect();
        let o: Vec<Vec<usize>> = order.iter().map(|&i| opp[i].iter().map(|&j| slot[j]).collect()).collect();
        (order, e, o)
    };
    for _ in 0..rounds {
        let (order, e, o) = build(&score, &opp, &bye, &mut rng);
        let p = pairing::pair_round(&e, &o);
        for (a, b) in p.pairs {
            let (a, b) = (order[a], order[b]);
            opp[a].push(b);
            opp[b].push(a);
            match rng.random_range(0..20) {
                0 => {
                    score[a] += 1;
                    score[b] += 1;
                }
                1..=10 => score[a] += 3,
                _ => score[b] += 3,
            }
        }
        if let Some(b) = p.bye {
            score[order[b]] += 3;
            bye[order[b]] = true;
        }
    }
    let (_, e, o) = build(&score, &opp, &bye, &mut rng);
    Field { e, o }
}

fn input_json(f: &Field) -> String {
    let players: Vec<serde_json::Value> =
        f.e.iter()
            .enumerate()
            .map(|(i, x)| {
                serde_json::json!({"id": i.to_string(), "score": x.score, "rank": i + 1, "had_bye": x.had_bye,
                "avoid": f.o[i].iter().map(|j| j.to_string()).collect::<Vec<_>>()})
            })
            .collect();
    serde_json::to_string(&players).unwrap()
}

/// Runs an external pairer with a time limit; it prints {"seconds": s, "pairs": [[a, b|null], ...]}.
/// Its output is drained on threads while it runs: a large answer (90 KB at 10,000 players)
/// would otherwise fill the pipe and block the child forever.
fn external(cmd: &mut Command, limit: Duration) -> Result<(f64, Pairing), String> {
    let mut child = cmd.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().map_err(|e| e.to_string())?;
    let drain = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut s = String::new();
            if let Some(mut p) = pipe {
                p.read_to_string(&mut s).ok();
            }
            s
        })
    };
    let out = drain(child.stdout.take().map(|p| Box::new(p) as Box<dyn Read + Send>));
    let err = drain(child.stderr.take().map(|p| Box::new(p) as Box<dyn Read + Send>));
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            break status;
        }
        if start.elapsed() > limit {
            child.kill().ok();
            child.wait().ok();
            return Err(format!("timed out after {}s", limit.as_secs()));
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let out = out.join().unwrap_or_default();
    if !status.success() {
        let err = err.join().unwrap_or_default();
        return Err(format!("exited with {status}: {}", err.lines().last().unwrap_or("")));
    }
    let v: serde_json::Value = serde_json::from_str(&out).map_err(|e| format!("bad output: {e}"))?;
    let mut p = Pairing::default();
    for pr in v["pairs"].as_array().ok_or("no pairs")? {
        let a: usize = pr[0].as_str().and_then(|s| s.parse().ok()).ok_or("bad id")?;
        match pr[1].as_str().and_then(|s| s.parse().ok()) {
            Some(b) => p.pairs.push((a, b)),
            None => p.bye = Some(a),
        }
    }
    Ok((v["seconds"].as_f64().unwrap_or(f64::NAN), p))
}

const NODE_SCRIPT: &str = r#"
const fs = require('fs');
const { Swiss } = require('tournament-pairings');
const input = JSON.parse(fs.readFileSync(process.argv[1], 'utf8'));
const players = input.map(p => ({ id: p.id, score: p.score, receivedBye: p.had_bye, avoid: p.avoid }));
const t = process.hrtime.bigint();
const matches = Swiss(players, 7);
const s = Number(process.hrtime.bigint() - t) / 1e9;
const pairs = matches.map(m => [String(m.player1 ?? m.player2), m.player1 == null || m.player2 == null ? null : String(m.player2)]);
console.log(JSON.stringify({ seconds: s, pairs }));
"#;

const PY_SCRIPT: &str = r#"
import json, sys, time
import swisspair
inp = json.load(open(sys.argv[1]))
players = [swisspair.Player(id=p["id"], points=p["score"], rank=p["rank"], can_get_bye=not p["had_bye"],
                            cannot_be_paired_against_ids=set(p["avoid"])) for p in inp]
t = time.perf_counter()
ms = swisspair.create_matches(players)
s = time.perf_counter() - t
print(json.dumps({"seconds": s, "pairs": [[m.p1.id, None if m.is_bye else m.p2.id] for m in ms]}))
"#;

fn valid(n: usize, p: &Pairing) -> bool {
    let mut seen = vec![false; n];
    for i in p.pairs.iter().flat_map(|&(a, b)| [a, b]).chain(p.bye) {
        if i >= n || std::mem::replace(&mut seen[i], true) {
            return false;
        }
    }
    seen.iter().all(|&s| s)
}

fn fmt_q(q: &Quality) -> String {
    format!("{:>3} {:>5} {:>6}", q.rematches, q.pair_downs, q.score_difference)
}

fn main() {
    // BENCH_E2E_ONLY=1: only the end-to-end `kifu tournament pair` row.
    if std::env::var_os("BENCH_E2E_ONLY").is_some() {
        if let Some(row) = end_to_end_pair() {
            println!("{row}");
        }
        return;
    }
    let work = PathBuf::from(std::env::var("BENCH_WORK").unwrap_or_else(|_| "target/bench-pairing".into()));
    std::fs::create_dir_all(&work).unwrap();
    let node_dir = std::env::var("BENCH_NODE_DIR").ok();
    let py_path = std::env::var("BENCH_PYTHONPATH").ok();
    let tp_max: usize = std::env::var("BENCH_TP_MAX").ok().and_then(|s| s.parse().ok()).unwrap_or(1024);
    let sizes = [64usize, 256, 1024, 2048, 4096, 10_000, 16_384];
    println!("Pairing round {} after {HISTORY_ROUNDS} rounds of random results (seconds per round; quality = rematches, pair-down steps, total score difference of pairs; kifu's lower bound on pair-down steps in brackets). The last two rows: standings (OMW%/GW%/OGW% ranking) and `kifu tournament pair` end to end from a cold process.", HISTORY_ROUNDS + 1);
    println!(
        "{:>7} | {:>10} {:<16} | {:>10} {:<16} {:>8} | {:>10} {:<16} {:>8}",
        "players",
        "kifu s",
        "rm  pd  sdiff",
        "t-p s",
        "rm  pd  sdiff",
        "t-p/kifu",
        "swisspair",
        "rm  pd  sdiff",
        "sp/kifu"
    );
    let mut notes = Vec::new();
    for &n in &sizes {
        let f = field(n, HISTORY_ROUNDS, n as u64);
        let mut best = f64::MAX;
        let mut p = Pairing::default();
        for _ in 0..3 {
            let t = Instant::now();
            p = pairing::pair_round(&f.e, &f.o);
            best = best.min(t.elapsed().as_secs_f64());
        }
        let qk = pairing::quality(&f.e, &f.o, &p);
        let path = work.join(format!("field-{n}.json"));
        std::fs::write(&path, input_json(&f)).unwrap();
        let tp = if n > tp_max {
            notes.push(format!("tournament-pairings skipped at {n} players (blossom on a complete graph: minutes per round above {tp_max}; set BENCH_TP_MAX to try)"));
            None
        } else if let Some(dir) = &node_dir {
            let mut c = Command::new("node");
            c.arg("-e").arg(NODE_SCRIPT).arg(&path).env("NODE_PATH", format!("{dir}/node_modules"));
            match external(&mut c, Duration::from_secs(120)) {
                Ok(r) => Some(r),
                Err(e) => {
                    notes.push(format!("tournament-pairings at {n}: {e}"));
                    None
                }
            }
        } else {
            None
        };
        let sp = match &py_path {
            Some(pp) => {
                let mut c = Command::new("python3");
                c.arg("-c").arg(PY_SCRIPT).arg(&path).env("PYTHONPATH", pp);
                match external(&mut c, Duration::from_secs(90)) {
                    Ok(r) => Some(r),
                    Err(e) => {
                        notes.push(format!("swisspair at {n}: {e}"));
                        None
                    }
                }
            }
            None => None,
        };
        let show = |r: &Option<(f64, Pairing)>, who: &str, notes: &mut Vec<String>| -> (String, String, String) {
            match r {
                Some((s, pp)) => {
                    if !valid(n, pp) {
                        notes.push(format!("{who} at {n}: the pairing does not cover every player exactly once"));
                    }
                    let q = pairing::quality(&f.e, &f.o, pp);
                    (format!("{s:>10.4}"), fmt_q(&q), format!("{:>7.1}x", s / best))
                }
                None => (format!("{:>10}", "-"), format!("{:<16}", "-"), format!("{:>8}", "-")),
            }
        };
        let (tps, tpq, tpr) = show(&tp, "tournament-pairings", &mut notes);
        let (sps, spq, spr) = show(&sp, "swisspair", &mut notes);
        println!(
            "{n:>7} | {best:>10.4} {:<16} | {tps} {tpq:<16} {tpr} | {sps} {spq:<16} {spr}   (bound {})",
            fmt_q(&qk),
            pairing::lower_bound(&f.e)
        );
    }

    // Standings: 10,000 players, 15 rounds.
    let n = 10_000;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let mut matches = Vec::new();
    let mut tallies = Tallies::new(n);
    let t = Instant::now();
    for _ in 0..15 {
        let mut order: Vec<usize> = (0..n).collect();
        let pts: Vec<u32> = tallies.0.iter().map(|x| x.wins * 3 + x.draws).collect();
        order.sort_by_key(|&i| (std::cmp::Reverse(pts[i]), i));
        let e: Vec<Entrant> =
            order.iter().map(|&i| Entrant { score: pts[i], had_bye: false, key: rng.random() }).collect();
        let slot: HashMap<usize, usize> = order.iter().enumerate().map(|(k, &i)| (i, k)).collect();
        let o: Vec<Vec<usize>> =
            order.iter().map(|&i| tallies.0[i].opponents.iter().map(|j| slot[j]).collect()).collect();
        let p = pairing::pair_round(&e, &o);
        for (a, b) in p.pairs {
            let (aw, bw) = if rng.random::<bool>() { (2, rng.random_range(0..2)) } else { (rng.random_range(0..2), 2) };
            let m = MatchRecord { a: order[a], b: Some(order[b]), a_wins: aw, b_wins: bw, draws: 0 };
            tallies.add(&m);
            matches.push(m);
        }
    }
    let build = t.elapsed();
    let entrants: Vec<standings::Entrant> =
        (0..n).map(|i| standings::Entrant { name: format!("p{i:05}"), ..Default::default() }).collect();
    let rules = Policy::Mtr.rules();
    let t = Instant::now();
    let rows = standings::rank(&rules, &entrants, &tallies, &matches);
    let rank_time = t.elapsed();
    let t = Instant::now();
    let scratch = standings::tally_all(n, &[], &matches);
    let scratch_time = t.elapsed();
    assert_eq!(scratch, tallies);
    println!(
        "{n:>7} | {:>10.4} standings after 15 rounds ({} matches): tallies from scratch {:.4} s; 15 rounds paired and tallied in {:.2} s; leader {} with {} points",
        rank_time.as_secs_f64(),
        matches.len(),
        scratch_time.as_secs_f64(),
        build.as_secs_f64(),
        rows[0].player,
        rows[0].points
    );
    match end_to_end_pair() {
        Some(row) => println!("{row}"),
        None => notes.push("BENCH_KIFU_BIN is not set; kifu tournament pair end to end not measured".into()),
    }
    for n in notes {
        println!("note: {n}");
    }
    if node_dir.is_none() {
        println!("note: tournament-pairings not measured (npm install failed or was skipped)");
    }
    if py_path.is_none() {
        println!("note: swisspair not measured (pip install failed or was skipped)");
    }
}

/// `kifu tournament pair` from a cold process at 10,000 players after 9 recorded rounds: the
/// median of five runs (each new round is voided afterwards so the next run pairs it again), as
/// a row of the table. `BENCH_E2E_DATA=DIR` builds the event in DIR and keeps it (to profile).
fn end_to_end_pair() -> Option<String> {
    use kifu::clock::SteppingClock;
    use kifu::log::envelope::{Actor, StreamId, Timestamp};
    use kifu::store::sled_store::SledStore;
    use kifu::tournament::events::{ConfigV1, MatchScore, RoundsPlan, TournamentEvent};
    use kifu::tournament::{ops, record};
    let bin = std::env::var("BENCH_KIFU_BIN").ok()?;
    let dir = tempfile::tempdir().unwrap();
    let data = std::env::var_os("BENCH_E2E_DATA").map(PathBuf::from).unwrap_or_else(|| dir.path().join("data"));
    let id = StreamId::new("big").unwrap();
    let seed = kifu::game::commit::Commitment([5; 32]);
    let n = 10_000;
    let t = Instant::now();
    // A kept event from an earlier run is paired again as it is.
    if !ops::seed_path(&data, &id).exists() {
        let store = SledStore::open(&data, std::sync::Arc::new(SteppingClock::fixed())).unwrap();
        let config = ConfigV1 {
            name: "bench".into(),
            game: "stones".into(),
            policy: Policy::Mtr,
            rounds: RoundsPlan::Fixed(15),
            top_cut: 0,
            seed_commitment: Some(kifu::game::commit::commit_seed(&seed)),
        };
        let players = (0..n)
            .map(|i| TournamentEvent::PlayerRegistered { player: format!("player {i:05}"), deck: None })
            .collect();
        record::create(&store, &id, &config, Actor::System, Timestamp(0), players).unwrap();
        ops::save_seed(&data, &id, &seed).unwrap();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        for _ in 0..9 {
            let loaded = record::load(&store, &id).unwrap();
            let p = ops::pair_next(&store, &data, &id, loaded, Actor::System, None, seed).unwrap();
            let results = p
                .tables
                .iter()
                .map(|t| TournamentEvent::ResultReported {
                    round: p.round,
                    table: t.table,
                    score: if rng.random::<bool>() {
                        MatchScore { a_wins: 2, b_wins: rng.random_range(0..2), draws: 0 }
                    } else {
                        MatchScore { a_wins: rng.random_range(0..2), b_wins: 2, draws: 0 }
                    },
                    games: vec![],
                })
                .collect();
            record::record(&store, &id, Actor::System, results).unwrap();
        }
    }
    let build = t.elapsed();
    let mut times = Vec::new();
    // Five runs as commands follow one another (the store's snapshot of the folded state is
    // current), then one with no snapshot (the whole log loaded and verified).
    let mut without = 0.0;
    for run in 0..6 {
        if run == 5 {
            let _ = std::fs::remove_dir_all(data.join("derived"));
        }
        let t = Instant::now();
        let out = Command::new(&bin)
            .args(["--data", data.to_str().unwrap(), "tournament", "pair", "big", "--json"])
            .stdout(Stdio::null())
            .status()
            .unwrap();
        let ms = t.elapsed().as_secs_f64() * 1e3;
        if run == 5 {
            without = ms;
        } else {
            times.push(ms);
        }
        assert!(out.success(), "kifu tournament pair failed");
        let store = SledStore::open(&data, std::sync::Arc::new(SteppingClock::fixed())).unwrap();
        let round = record::load(&store, &id).unwrap().state.rounds.len() as u32;
        record::record(
            &store,
            &id,
            Actor::System,
            vec![TournamentEvent::RoundVoided { round, reason: "bench".into() }],
        )
        .unwrap();
    }
    let runs = times.iter().map(|t| format!("{t:.0}")).collect::<Vec<_>>().join(", ");
    times.sort_by(|a, b| a.total_cmp(b));
    Some(format!(
        "{n:>7} | {:>10.4} `kifu tournament pair` end to end, round 10, cold process: median of runs {runs} ms; {without:.0} ms with no kept snapshot (event built in {:.1} s)",
        times[times.len() / 2] / 1e3,
        build.as_secs_f64()
    ))
}
