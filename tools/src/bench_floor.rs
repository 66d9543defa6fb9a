//! The program behind `tools/bench-floor`: a simulated 256-player, 8-round Swiss event with the
//! judges' floor on the record (200 judge calls, 120 penalties by the policy's table with repeats
//! upgraded, 12 of them appealed and decided, 30 deck checks, 5 pairing overrides), recorded event
//! by event through `record` (validated as kifu validates every append); then the time `verify`
//! takes, and what the judges' pages ask the server for, through its router in this process: one
//! player's penalty history (`GET penalties?player=P`) and one player's explanation (`GET
//! explain/P`), each for every player twice, p50 and p99. Prints one table. Not a timed test: a
//! measurement to read.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::{Request, StatusCode};
use rand::{RngExt, SeedableRng};
use tower::ServiceExt;

use kifu::clock::SteppingClock;
use kifu::game::commit::{commit_seed, Commitment};
use kifu::log::envelope::{Actor, StreamId, Timestamp};
use kifu::server::tokens::{self, Role};
use kifu::server::{app, AppState, ServerConfig};
use kifu::store::sled_store::SledStore;
use kifu::tournament::events::{AppealDecision, CallOutcome, DeckCheckResult, PairedTable, RulingRef};
use kifu::tournament::state::Tournament;
use kifu::tournament::{record, round_seed, verify, ConfigV1, MatchScore, Policy, RoundsPlan, TournamentEvent as E};

const PLAYERS: usize = 256;
const ROUNDS: u32 = 8;
const CALLS: usize = 200;
const PENALTIES: usize = 120;
const APPEALS: usize = 12;
const DECK_CHECKS: usize = 30;
const OVERRIDES: u32 = 5;
const SEED: Commitment = Commitment([3; 32]);
/// Infractions of the MTR table the simulated judges give (the first two upgrade on repeats).
const INFRACTIONS: &[&str] = &["gpe-grv", "gpe-lec", "gpe-ftmgs", "te-slow-play", "te-dp", "usc-minor"];

struct Recorder<'a> {
    store: &'a SledStore,
    id: StreamId,
    state: Tournament,
    events: u64,
    recording: Duration,
}

impl Recorder<'_> {
    /// Records `e` if the rules take it (as kifu's CLI and server do); false if refused.
    fn offer(&mut self, e: E) -> bool {
        if !self.state.validate(&e).is_empty() {
            return false;
        }
        let t0 = Instant::now();
        record::record(self.store, &self.id, Actor::Judge("hana".into()), vec![e.clone()]).unwrap();
        self.recording += t0.elapsed();
        self.events += 1;
        self.state = std::mem::take(&mut self.state).apply(&e);
        true
    }
}

fn at(minute: i64) -> Timestamp {
    Timestamp(1_767_225_600_000_000 + minute * 60_000_000)
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1e3)
}

fn main() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let clock = Arc::new(SteppingClock::fixed());
    let store = SledStore::open(&data, clock.clone()).unwrap();
    let id = StreamId::new("floor").unwrap();
    let config = ConfigV1 {
        name: "Floor bench".into(),
        game: "naruto".into(),
        policy: Policy::Mtr,
        rounds: RoundsPlan::Fixed(ROUNDS),
        top_cut: 0,
        seed_commitment: Some(commit_seed(&SEED)),
    };
    let names: Vec<String> = (1..=PLAYERS).map(|i| format!("player-{i:03}")).collect();
    let mut first: Vec<E> = names.iter().map(|n| E::PlayerRegistered { player: n.clone(), deck: None }).collect();
    first.push(E::HeadJudgeNamed { judge: "hana".into() });
    // Registered lists (committed) for the players whose decks are checked.
    first.extend(names.iter().take(DECK_CHECKS * 2).enumerate().map(|(i, n)| E::DeckListRegistered {
        player: n.clone(),
        commitment: Commitment(*blake3::hash(format!("list {i}").as_bytes()).as_bytes()),
    }));
    let t0 = Instant::now();
    record::create(&store, &id, &config, Actor::Organizer("olga".into()), at(0), first.clone()).unwrap();
    let mut state = Tournament::default().apply(&E::Created { config: config.clone() });
    for e in &first {
        state = state.apply(e);
    }
    let mut rec =
        Recorder { store: &store, id: id.clone(), state, events: first.len() as u64 + 1, recording: t0.elapsed() };
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(34);
    let (mut calls, mut penalties, mut appeals, mut checks, mut overrides, mut upgraded) = (0, 0, 0, 0, 0, 0);
    for round in 1..=ROUNDS {
        let minute = i64::from(round) * 60;
        let rs = round_seed(&SEED, round);
        let (tables, byes) = rec.state.derive_round(round, &rs);
        let paired = E::RoundPaired { round, tables: tables.clone(), byes: byes.clone(), round_seed: Some(rs) };
        let refused = rec.state.validate(&paired);
        assert!(refused.is_empty(), "round {round}: {refused:?}");
        rec.offer(paired);
        if round >= 2 && overrides < OVERRIDES {
            // Swap the first-listed players of the last two tables (a seat near the door).
            let n = tables.len();
            let mut changed: Vec<PairedTable> = tables.clone();
            let (a, b) = (changed[n - 2].a.clone(), changed[n - 1].a.clone());
            changed[n - 2].a = b;
            changed[n - 1].a = a;
            let e = E::PairingOverridden {
                round,
                tables: changed,
                byes,
                by: "hana".into(),
                reason: "accessibility: seated near the door".into(),
            };
            overrides += u32::from(rec.offer(e));
        }
        // The round's calls: each opened at a table, taken, some escalated, closed with an outcome.
        let per_round = CALLS / ROUNDS as usize;
        let paired = rec.state.rounds.last().unwrap().tables.clone();
        for k in 0..per_round {
            let t = &paired[rng.random_range(0..paired.len())];
            let caller = rec.state.players[t.a].name.clone();
            let opened = minute + (k as i64 % 40);
            if !rec.offer(E::JudgeCallOpened { round, table: t.table, caller, at: at(opened) }) {
                continue;
            }
            calls += 1;
            let call = rec.state.calls.len() as u32;
            rec.offer(E::JudgeCallTaken { call, judge: format!("judge-{}", k % 6), at: at(opened + 1) });
            if k % 10 == 0 {
                rec.offer(E::JudgeCallEscalated { call, judge: "hana".into(), at: at(opened + 2) });
            }
            let outcome = if k % 3 == 0 { CallOutcome::Penalty } else { CallOutcome::Ruling };
            rec.offer(E::JudgeCallClosed {
                call,
                judge: "hana".into(),
                at: at(opened + 3),
                outcome,
                note: "ruled at the table".into(),
            });
        }
        // Penalties: a few players offend again and again, so repeats are upgraded by the table.
        let target = PENALTIES * round as usize / ROUNDS as usize;
        let mut tries = 0;
        while penalties < target && tries < 200 {
            tries += 1;
            let player = names[rng.random_range(0..24)].clone();
            let code = INFRACTIONS[rng.random_range(0..INFRACTIONS.len())];
            let Ok((penalty, up)) = rec.state.expected_penalty(&player, code) else { continue };
            let e = E::InfractionPenalized {
                player,
                round,
                infraction: code.into(),
                penalty,
                judge: format!("judge-{}", tries % 6),
                reason: "seen at the table".into(),
                downgrade: None,
                call: None,
            };
            if rec.offer(e) {
                penalties += 1;
                upgraded += usize::from(up);
            }
        }
        // Appeals of this round's newest penalties, decided by the head judge.
        while appeals < APPEALS * round as usize / ROUNDS as usize {
            let n = rec.state.penalty_log.len() as u32 - (appeals as u32 % 3);
            let player = rec.state.players[rec.state.penalty_log[n as usize - 1].player].name.clone();
            if !rec.offer(E::AppealLodged { ruling: RulingRef::Penalty(n), player, at: at(minute + 45) }) {
                break;
            }
            let appeal = rec.state.appeals.len() as u32;
            let decision = if appeals % 2 == 0 { AppealDecision::Upheld } else { AppealDecision::Overturned };
            rec.offer(E::AppealDecided { appeal, decision, judge: "hana".into(), reason: "heard both players".into() });
            appeals += 1;
        }
        // Deck checks at tables where a player registered a list.
        while checks < DECK_CHECKS * round as usize / ROUNDS as usize {
            let player = names[rng.random_range(0..DECK_CHECKS * 2)].clone();
            let result = if checks % 5 == 0 {
                DeckCheckResult::Differs { cards: 2, differences: Commitment([checks as u8; 32]) }
            } else {
                DeckCheckResult::Matches
            };
            let e = E::DeckChecked { round, table: None, at: at(minute + 5), judge: "judge-1".into(), player, result };
            checks += usize::from(rec.offer(e));
        }
        let paired = rec.state.rounds.last().unwrap().tables.clone();
        for t in paired {
            let score = match rng.random_range(0..10) {
                0 => MatchScore { a_wins: 1, b_wins: 1, draws: 1 },
                1..=5 => MatchScore { a_wins: 2, b_wins: rng.random_range(0..2), draws: 0 },
                _ => MatchScore { a_wins: rng.random_range(0..2), b_wins: 2, draws: 0 },
            };
            // A game loss given in the round must show in the score: other scores until one fits.
            let fallbacks = [
                MatchScore { a_wins: 0, b_wins: 2, draws: 0 },
                MatchScore { a_wins: 2, b_wins: 0, draws: 0 },
                MatchScore { a_wins: 1, b_wins: 1, draws: 0 },
                MatchScore { a_wins: 0, b_wins: 0, draws: 0 },
            ];
            let recorded = std::iter::once(score)
                .chain(fallbacks)
                .any(|score| rec.offer(E::ResultReported { round, table: t.table, score, games: vec![] }));
            assert!(recorded, "round {round} table {}: no score fits", t.table);
        }
    }
    let events = rec.events;
    let recording = rec.recording;

    // verify: the chain, every event against the rules, every round re-derived, the standings.
    let mut verify_times = Vec::new();
    for _ in 0..3 {
        let t0 = Instant::now();
        let report = verify::verify(&store, &id, &|r| kifu::games::driver(r)).unwrap();
        verify_times.push(t0.elapsed());
        assert!(report.ok(), "{:#?}", report.checks.iter().filter(|c| !c.ok).collect::<Vec<_>>());
    }
    verify_times.sort();

    // The server, as the judges' page asks it.
    let tokens_file = dir.path().join("tokens.json");
    let judge =
        tokens::issue(&tokens_file, Role::Judge, "floor", "jin", [7; 32], "2026-01-01T00:00:00Z".into()).unwrap();
    // The data directory: where the judges' sealed texts (statements) are kept.
    let server = ServerConfig { tokens: Some(tokens_file), seeds: Some(data.clone()), ..ServerConfig::default() };
    let router = app(AppState::new(Arc::new(store), clock, server));
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let time = |path: &dyn Fn(&str) -> String| -> (Duration, Duration) {
        let mut times = Vec::with_capacity(PLAYERS * 2);
        rt.block_on(async {
            for pass in 0..2 {
                for n in &names {
                    let req = Request::get(path(n))
                        .header("authorization", format!("Bearer {judge}"))
                        .body(Body::empty())
                        .unwrap();
                    let t0 = Instant::now();
                    let res = router.clone().oneshot(req).await.unwrap();
                    let status = res.status();
                    let _ = axum::body::to_bytes(res.into_body(), 16 << 20).await.unwrap();
                    // The first request of all also opens the tournament: counted, as a page would see it.
                    let took = t0.elapsed();
                    assert_eq!(status, StatusCode::OK, "{}", path(n));
                    if pass == 1 || !times.is_empty() {
                        times.push(took);
                    }
                }
            }
        });
        times.sort();
        (percentile(&times, 0.5), percentile(&times, 0.99))
    };
    let history = time(&|n| format!("/api/v1/tournaments/floor/penalties?player={n}"));
    let explain = time(&|n| format!("/api/v1/tournaments/floor/explain/{n}"));
    // The judges' page: its data in one answer and every history at load, a case file on demand.
    let floor = time(&|_| "/api/v1/tournaments/floor/floor".into());
    let all = time(&|_| "/api/v1/tournaments/floor/penalties".into());
    let case = time(&|n| format!("/api/v1/tournaments/floor/case/{n}"));

    let mut t = comfy_table::Table::new();
    t.set_header(["what", "measured", "target"]);
    t.add_row([
        "event".to_string(),
        format!(
            "{PLAYERS} players, {ROUNDS} rounds, {events} events: {calls} calls, {penalties} penalties ({upgraded} upgraded), {appeals} appeals, {checks} deck checks, {overrides} overrides"
        ),
        "256 players, 8 rounds, 200 calls, 120 penalties, 30 deck checks, 5 overrides".into(),
    ]);
    t.add_row(["recording (validate + append, one event at a time)".into(), ms(recording), "—".into()]);
    t.add_row(["verify (median of 3)".into(), ms(verify_times[1]), "—".into()]);
    t.add_row([
        "a player's penalty history, GET penalties?player= (p50 / p99)".into(),
        format!("{} / {}", ms(history.0), ms(history.1)),
        "—".into(),
    ]);
    t.add_row([
        "a player's explanation, GET explain/PLAYER (p50 / p99)".into(),
        format!("{} / {}", ms(explain.0), ms(explain.1)),
        "—".into(),
    ]);
    let pair = |x: (Duration, Duration)| format!("{} / {}", ms(x.0), ms(x.1));
    t.add_row(["the judges' page's data, GET floor (p50 / p99)".into(), pair(floor), "—".into()]);
    t.add_row(["every history at the page's load, GET penalties (p50 / p99)".into(), pair(all), "—".into()]);
    t.add_row([
        "the page's time to show a player's history: floor + penalties (p99 + p99)".into(),
        ms(floor.1 + all.1),
        "—".into(),
    ]);
    t.add_row(["a player's case file, GET case/PLAYER (p50 / p99)".into(), pair(case), "—".into()]);
    println!("{t}");
}
