//! bench-game: the game machinery's speed, in one table from one run — fold throughput, self-play
//! and audit of many games, and showing the state at random points of a 100,000-event stream with
//! snapshots versus refolding from the start. `--game NAME` measures another game instead
//! of Naruto (the default).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::hint::black_box;
use std::time::{Duration, Instant};

use comfy_table::Table;
use rand::{RngExt, SeedableRng};

use kifu::game::audit;
use kifu::game::replay::{Replay, Step};
use kifu::game::selfplay;
use kifu::game::{AgentRng, Game, GameEntry, Ruling, Viewer};
use kifu::games::lc::Lc;
use kifu::games::naruto::Naruto;
use kifu::log::envelope::{Actor, Timestamp};

struct Args {
    /// The ruleset to measure (`--game naruto|vanguard|lc|brk|fate`; naruto by default).
    game: String,
    games: u64,
    stream_events: usize,
    seeks: usize,
    refolds: usize,
}

fn parse_args() -> Args {
    let mut a = Args { game: "naruto".into(), games: 10_000, stream_events: 100_000, seeks: 2_000, refolds: 30 };
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < argv.len() {
        let val = || {
            argv.get(i + 1).and_then(|v| v.parse::<u64>().ok()).unwrap_or_else(|| panic!("{} needs a number", argv[i]))
        };
        match argv[i].as_str() {
            "--game" => a.game = argv.get(i + 1).cloned().unwrap_or_else(|| panic!("--game needs a ruleset name")),
            "--games" => a.games = val(),
            "--stream-events" => a.stream_events = val() as usize,
            "--seeks" => a.seeks = val() as usize,
            "--refolds" => a.refolds = val() as usize,
            "--quick" => {
                a.games = 500;
                a.stream_events = 20_000;
                a.seeks = 500;
                a.refolds = 10;
                i += 1;
                continue;
            }
            other => {
                panic!("unknown argument {other}; use --game NAME --games N --stream-events N --seeks N --refolds N or --quick")
            }
        }
        i += 2;
    }
    a
}

fn steps_of<G: Game>(entries: Vec<(Actor, GameEntry<G::Event>)>) -> Vec<Step<G::Event>> {
    entries
        .into_iter()
        .enumerate()
        .map(|(i, (actor, entry))| Step { seq: i as u64, recorded_at: Timestamp(i as i64), actor, entry })
        .collect()
}

fn micros(d: Duration) -> String {
    format!("{:.1} µs", d.as_secs_f64() * 1e6)
}

fn run<G: Game>(args: &Args) {
    let players = vec!["alice".to_string(), "bob".to_string()];
    let mut t = Table::new();
    t.set_header(["measure", "result", "detail"]);

    // Self-play, fold and audit, game by game, so memory stays flat.
    let (mut play_time, mut fold_time, mut audit_time) = (Duration::ZERO, Duration::ZERO, Duration::ZERO);
    let (mut events, mut findings, mut unfinished) = (0u64, 0usize, 0u64);
    for seed in 0..args.games {
        let start = Instant::now();
        let game = selfplay::self_play::<G>(seed, &players, 1_000_000).unwrap();
        play_time += start.elapsed();
        let steps = steps_of::<G>(game.entries);
        events += steps.len() as u64;
        let start = Instant::now();
        let replay = Replay::<G>::new(game.config.clone(), steps.clone()).unwrap();
        black_box(replay.last());
        fold_time += start.elapsed();
        let start = Instant::now();
        let (report, _) = audit::audit::<G>(game.config, steps).unwrap();
        audit_time += start.elapsed();
        findings += report.findings.len();
        unfinished += u64::from(report.outcome.is_none());
    }
    let per_s = |n: f64, d: Duration| n / d.as_secs_f64();
    t.add_row([
        "fold (replay open: fold + snapshots + positions)".to_string(),
        format!("{:.0} events/s", per_s(events as f64, fold_time)),
        format!("{events} events in {} games, {:.2} s", args.games, fold_time.as_secs_f64()),
    ]);
    t.add_row([
        "self-play (agent + apply)".to_string(),
        format!("{:.0} games/s", per_s(args.games as f64, play_time)),
        format!("{:.0} events/game on average", events as f64 / args.games as f64),
    ]);
    t.add_row([
        format!("audit of {} self-play games", args.games),
        format!("{:.2} s", audit_time.as_secs_f64()),
        format!(
            "{:.0} games/s, {:.0} events/s; {findings} findings, {unfinished} unfinished (both must be 0)",
            per_s(args.games as f64, audit_time),
            per_s(events as f64, audit_time)
        ),
    ]);

    // A long stream: one self-played game, backed up to its start by a judge and replayed, over and over.
    let game = selfplay::self_play::<G>(1, &players, 1_000_000).unwrap();
    let one: Vec<_> = game.entries;
    let mut entries = Vec::new();
    while entries.len() < args.stream_events {
        entries.extend(one.iter().cloned());
        let backup = Ruling::BackedUp { judge: "bench".into(), to_seq: 0, note: "replayed for the benchmark".into() };
        entries.push((Actor::Judge("bench".into()), GameEntry::Ruled(backup)));
    }
    entries.truncate(args.stream_events);
    let steps = steps_of::<G>(entries);
    let n = steps.len() as u64;
    let start = Instant::now();
    let replay = Replay::<G>::new(game.config, steps).unwrap();
    let open = start.elapsed();
    let mut rng = AgentRng::seed_from_u64(42);
    let mut seek_times: Vec<Duration> = (0..args.seeks)
        .map(|_| {
            let at = rng.random_range(0..=n);
            let start = Instant::now();
            let table = replay.state_at(at);
            black_box(G::view(&table.game, Viewer::Spectator));
            start.elapsed()
        })
        .collect();
    seek_times.sort();
    let mean = seek_times.iter().sum::<Duration>() / seek_times.len().max(1) as u32;
    let p99 = seek_times[(seek_times.len() * 99 / 100).min(seek_times.len() - 1)];
    let refold: Duration = (0..args.refolds)
        .map(|_| {
            let at = rng.random_range(0..=n);
            let start = Instant::now();
            let table = replay.refold_to(at);
            black_box(G::view(&table.game, Viewer::Spectator));
            start.elapsed()
        })
        .sum::<Duration>()
        / args.refolds.max(1) as u32;
    t.add_row([
        format!("open a {n}-event stream"),
        format!("{:.0} ms", open.as_secs_f64() * 1e3),
        format!(
            "{} snapshots (every {} events)",
            n as usize / kifu::game::replay::SNAPSHOT_EVERY + 1,
            kifu::game::replay::SNAPSHOT_EVERY
        ),
    ]);
    t.add_row([
        "show state at a random point, with snapshots".to_string(),
        format!("mean {}", micros(mean)),
        format!(
            "p99 {}, max {} over {} seeks (target < 1 ms)",
            micros(p99),
            micros(*seek_times.last().unwrap()),
            args.seeks
        ),
    ]);
    t.add_row([
        "show state at a random point, refolding from the start".to_string(),
        format!("mean {:.2} ms", refold.as_secs_f64() * 1e3),
        format!("{} refolds", args.refolds),
    ]);
    let speedup = refold.as_secs_f64() / mean.as_secs_f64();
    let pass = speedup >= 100.0 && mean < Duration::from_millis(1);
    t.add_row([
        "snapshots vs refolding".to_string(),
        format!("{speedup:.0}× faster"),
        format!("target ≥ 100× and < 1 ms: {}", if pass { "PASS" } else { "MISS" }),
    ]);
    println!(
        "{} v{} on this machine ({} cores)",
        G::RULESET,
        G::RULESET_VERSION,
        std::thread::available_parallelism().map_or(1, |n| n.get())
    );
    println!("{t}");
}

fn main() {
    let args = parse_args();
    match args.game.as_str() {
        "naruto" => run::<Naruto>(&args),
        "vanguard" => run::<kifu::games::vanguard::Vanguard>(&args),
        "lc" => run::<Lc>(&args),
        "brk" => run::<kifu::games::brk::Brk>(&args),
        "fate" => run::<kifu::games::fate::Fate>(&args),
        other => panic!("unknown game {other}; use naruto, vanguard, lc, brk or fate"),
    }
}
