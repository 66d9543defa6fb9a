//! bench-options: what options cost and what they save, in one table from one run — the time to
//! list a seat's options at every position of every fixture and of N self-played games, how a
//! game's events are reached (automatic, picked, picked with a parameter, not reachable through
//! a seat's options, by kind), and the latency of a pick with its automatic steps (one append)
//! on sled at 1,000 and 100,000 events, and on a NATS cluster when `--nats URL` is given.
//! Games without an options table yet are listed as such.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use comfy_table::Table;

use kifu::clock::SystemClock;
use kifu::game::options::{option_id, GameOption, Pick};
use kifu::game::reach::{dealer_of, event_kind, reached, Reach};
use kifu::game::record::{self, LiveGame, Write};
use kifu::game::replay::{Replay, Step};
use kifu::game::{selfplay, Game, GameEntry, Ruling};
use kifu::games::lc::Lc;
use kifu::log::envelope::{Actor, StreamId, Timestamp};
use kifu::store::sled_store::SledStore;
use kifu::store::{AppendRequest, ExpectedVersion, NewEvent, Store};

struct Args {
    games: u64,
    /// Games per game and mode played by uniform picks (the dead-end table); 0 skips the rest.
    explore: usize,
    only_explore: bool,
    nats: Option<String>,
}

/// Events after which a uniformly picked game counts as capped (not a failure: a long game).
const EXPLORE_CAP: usize = 3_000;

fn parse_args() -> Args {
    let mut a = Args { games: 100, explore: 1_000, only_explore: false, nats: None };
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < argv.len() {
        match argv[i].as_str() {
            "--games" => a.games = argv.get(i + 1).and_then(|v| v.parse().ok()).expect("--games needs a number"),
            "--explore" => a.explore = argv.get(i + 1).and_then(|v| v.parse().ok()).expect("--explore needs a number"),
            "--only-explore" => {
                a.only_explore = true;
                i += 1;
                continue;
            }
            "--nats" => a.nats = Some(argv.get(i + 1).cloned().expect("--nats needs a URL")),
            "--quick" => {
                a.games = 20;
                a.explore = 50;
                i += 1;
                continue;
            }
            other => {
                panic!("unknown argument {other}; use --games N, --explore N, --only-explore, --nats URL or --quick")
            }
        }
        i += 2;
    }
    a
}

fn pct(sorted: &[Duration], p: usize) -> Duration {
    sorted.get((sorted.len() * p / 100).min(sorted.len().saturating_sub(1))).copied().unwrap_or_default()
}

fn micros(d: Duration) -> String {
    format!("{:.1} µs", d.as_secs_f64() * 1e6)
}

/// The first option that records `event` (see [`kifu::game::options::offering`]).
fn offering<G: Game>(state: &G::State, event: &G::Event) -> Option<GameOption<G::Event>> {
    kifu::game::options::offering::<G>(state, event).into_iter().next()
}

#[derive(Default)]
struct Effort {
    reach: Reach,
    list_times: Vec<Duration>,
}

/// Walks one recorded game: times the options of every awaited seat at every position, and
/// says how each played event is reached ([`kifu::game::reach`]).
fn walk<G: Game>(replay: &Replay<G>, e: &mut Effort) {
    let dealer = dealer_of(replay);
    for (i, step) in replay.steps().iter().enumerate() {
        let table = replay.state_at(i as u64);
        for seat in G::awaited(&table.game) {
            let t = Instant::now();
            let n = G::options(&table.game, seat).map_or(0, |o| o.len());
            e.list_times.push(t.elapsed());
            std::hint::black_box(n);
        }
        let GameEntry::Played(event) = &step.entry else { continue };
        e.reach.count(&reached(&table, event, dealer.as_ref()), || event_kind(event));
    }
}

fn fixtures(prefix: &str) -> Vec<kifu::log::chain::VerifiedLog> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("replays");
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().to_string()))
        .filter(|n| n.starts_with(prefix) && n.ends_with(".kifu"))
        .collect();
    names.sort();
    names.iter().map(|n| kifu::log::file::read(&std::fs::read(dir.join(n)).unwrap()).unwrap()).collect()
}

/// `G`'s effort over `games` self-played games and its fixtures, read under the rules version
/// `F` they were recorded with (Naruto's pinned fixtures are version 1).
fn effort<G: Game, F: Game>(games: u64) -> Effort {
    let mut e = Effort::default();
    // The fewest seats the game seats (FATE seats three to six).
    let players: Vec<String> = (0..G::SEATS.min.max(2)).map(|i| format!("player{i}")).collect();
    for log in fixtures(&format!("{}-", G::RULESET)) {
        let g = record::from_log::<F>(&log).unwrap();
        walk(&Replay::<F>::new(g.config, g.steps).unwrap(), &mut e);
    }
    for seed in 0..games {
        let played = selfplay::self_play::<G>(seed, &players, 50_000).unwrap();
        let steps = played
            .entries
            .into_iter()
            .enumerate()
            .map(|(i, (actor, entry))| Step { seq: i as u64, recorded_at: Timestamp(0), actor, entry })
            .collect();
        walk(&Replay::<G>::new(played.config, steps).unwrap(), &mut e);
    }
    e
}

/// Latency of every pick of a self-played physical LC game recorded after `filler` judge's notes
/// (so the stream holds that many events before play starts), one append per pick.
fn pick_latency(store: &dyn Store, stream: &str, filler: u64) -> Vec<Duration> {
    let (config, events) = (0..500)
        .map(|seed| selfplay::self_play::<Lc>(seed, &["ana".into(), "rui".into()], 20_000).unwrap())
        .find_map(|g| {
            let kifu::games::lc::LcConfig::V1(c) = &g.config;
            let events: Vec<_> = g
                .entries
                .into_iter()
                .filter_map(|(_, e)| if let GameEntry::Played(e) = e { Some(e) } else { None })
                .collect();
            (c.shuffles == kifu::games::lc::config::ShuffleMode::Physical).then_some((g.config, events))
        })
        .expect("a physical LC game");
    let id = StreamId::new(stream).unwrap();
    record::create::<Lc>(store, &id, &config, Timestamp(1_767_225_600_000_000)).unwrap();
    let note = GameEntry::<<Lc as Game>::Event>::Ruled(Ruling::NoteRecorded {
        judge: "jin".into(),
        about: None,
        note: "filler".into(),
    });
    let payload = postcard::to_stdvec(&note).unwrap();
    let mut len = 0;
    while len < filler {
        let n = (filler - len).min(1_000);
        let batch = (0..n)
            .map(|_| NewEvent { actor: Actor::Judge("jin".into()), payload: payload.clone(), idempotency: None })
            .collect();
        store
            .append(AppendRequest {
                stream: id.clone(),
                expected: ExpectedVersion::Exact(len),
                create: None,
                events: batch,
            })
            .unwrap();
        len += n;
    }
    let mut live = LiveGame::<Lc>::load(store, &id).unwrap();
    let names = Lc::players(&config);
    let mut times = Vec::new();
    let mut played = 0;
    while played < events.len() {
        let state = live.replay.tip().game.clone();
        let option = offering::<Lc>(&state, &events[played]).expect("every event is an option");
        let params: BTreeMap<String, Vec<String>> = match &option.pick {
            Pick::Event(_) => BTreeMap::new(),
            Pick::Param { param, read, .. } => [(param.name.to_string(), read(&events[played]).unwrap())].into(),
        };
        let id = option_id(live.len(), &option);
        let actor = Actor::Player(names[usize::from(option.seat)].clone());
        let t = Instant::now();
        let recorded =
            live.pick(Write { store, actor, expected: None, idempotency: None }, &[option.seat], &id, &params).unwrap();
        times.push(t.elapsed());
        played += recorded.len();
    }
    times.sort();
    times
}

/// Every game and mode played by uniform picks among the offered options and values
/// ([`kifu::games::explore_all`]): dead ends and refused picks, both targets 0.
fn explore_table(games: usize) -> Table {
    let mut t = Table::new();
    t.set_header(["game", "mode", "games", "ended", "capped", "dead ends", "refused picks", "events", "first found"]);
    let start = Instant::now();
    for row in kifu::games::explore_all(games, EXPLORE_CAP) {
        let x = &row.tally;
        if std::env::var_os("EXPLORE_DEBUG").is_some() {
            eprintln!(
                "{} {}: endings {:?}\nfirst dead end {:?}\nits state {}\n",
                row.ruleset,
                row.mode,
                x.reasons,
                x.first_dead_end,
                x.dead_end_state.as_deref().unwrap_or("")
            );
        }
        let first = [
            x.first_dead_end.as_ref().map(|(s, w)| format!("dead end, seed {s}: {w}")),
            x.first_refusal.as_ref().map(|(s, w)| format!("refusal, seed {s}: {w}")),
        ];
        let first: Vec<String> = first.into_iter().flatten().map(|w| w.chars().take(1500).collect()).collect();
        t.add_row([
            row.ruleset.to_string(),
            row.mode.to_string(),
            x.games.to_string(),
            x.over.to_string(),
            x.capped.to_string(),
            x.dead_ends.to_string(),
            refused_cell(x),
            x.events.to_string(),
            first.join("\n"),
        ]);
    }
    eprintln!("uniform picks: {:.1} s (cap {EXPLORE_CAP} events a game)", start.elapsed().as_secs_f64());
    t
}

/// The refused picks and, when there are any, how many each rule ID refused (most first).
fn refused_cell(x: &kifu::game::explore::Tally) -> String {
    let mut by: Vec<(&String, &usize)> = x.refused_by_rule.iter().collect();
    by.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    let by: Vec<String> = by.iter().map(|(rule, n)| format!("{rule} {n}")).collect();
    if by.is_empty() {
        x.refused.to_string()
    } else {
        format!("{} ({})", x.refused, by.join(", "))
    }
}

fn main() {
    let args = parse_args();
    if args.explore > 0 {
        println!("{}", explore_table(args.explore));
    }
    if args.only_explore {
        return;
    }
    let mut t = Table::new();
    t.set_header(["measure", "result", "detail"]);
    for driver in kifu::games::drivers() {
        let name = driver.ruleset();
        let mut e = match name {
            "lc" => effort::<Lc, Lc>(args.games),
            "brk" => effort::<kifu::games::brk::Brk, kifu::games::brk::Brk>(args.games),
            "fate" => effort::<kifu::games::fate::Fate, kifu::games::fate::Fate>(args.games),
            "naruto" => effort::<kifu::games::naruto::NarutoV2, kifu::games::naruto::Naruto>(args.games),
            // Version 2 self-played; the fixtures under version 1 (the fan client's games), which
            // also lists the client's manual operations, the most a Vanguard seat is offered.
            "vanguard" => effort::<kifu::games::vanguard::VanguardV2, kifu::games::vanguard::Vanguard>(args.games),
            _ => {
                t.add_row([format!("{name}: options"), "not written yet".into(), "recorded as JSON actions".into()]);
                continue;
            }
        };
        e.list_times.sort();
        t.add_row([
            format!("{name}: list a seat's options"),
            format!("p50 {} · p99 {}", micros(pct(&e.list_times, 50)), micros(pct(&e.list_times, 99))),
            format!(
                "{} listings, every awaited seat at every position of the fixtures and {} self-played games (target p99 < 2 ms)",
                e.list_times.len(),
                args.games
            ),
        ]);
        let unreachable: usize = e.reach.unreachable.values().sum();
        t.add_row([
            format!("{name}: recording effort"),
            format!(
                "{} events: {} automatic, {} picked ({} with a parameter)",
                e.reach.events, e.reach.automatic, e.reach.picks, e.reach.with_param
            ),
            format!(
                "{} illegal as recorded; {} escape hatches and table talk recorded as events ({}); {unreachable} not reachable through a seat's option: {}",
                e.reach.illegal,
                e.reach.as_events.values().sum::<usize>(),
                e.reach.as_events.iter().map(|(k, n)| format!("{k} {n}")).collect::<Vec<_>>().join(", "),
                e.reach.unreachable.iter().map(|(k, n)| format!("{k} {n}")).collect::<Vec<_>>().join(", ")
            ),
        ]);
    }
    let dir = tempfile::tempdir().unwrap();
    let sled = SledStore::open(dir.path(), Arc::new(SystemClock)).unwrap();
    for filler in [1_000u64, 100_000] {
        let times = pick_latency(&sled, &format!("pick-{filler}"), filler);
        t.add_row([
            format!("pick + automatic steps, sled, after {filler} events"),
            format!("p50 {} · p99 {}", micros(pct(&times, 50)), micros(pct(&times, 99))),
            format!("{} picks of a whole LC game, one append each", times.len()),
        ]);
    }
    if let Some(url) = &args.nats {
        let url = kifu::store::nats_store::NatsUrl::parse(url).unwrap();
        let nats = kifu::store::nats_store::NatsStore::connect(&url, Arc::new(SystemClock)).unwrap();
        let ms = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis();
        for filler in [1_000u64, 100_000] {
            let times = pick_latency(&nats, &format!("pick-{ms}-{filler}"), filler);
            t.add_row([
                format!("pick + automatic steps, cluster, after {filler} events"),
                format!("p50 {} · p99 {}", micros(pct(&times, 50)), micros(pct(&times, 99))),
                format!("{} picks of a whole LC game, one append each", times.len()),
            ]);
        }
    }
    println!("{t}");
}
