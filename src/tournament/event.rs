//! Runs a whole small Swiss event whose matches are self-played games, for the demo and tests:
//! register, pair each round from the committed seed, self-play one game per match (best of one:
//! the agent's outcome decides the score), cut to a top 4, reveal the seed, finalize, verify.
//! Written against `&dyn Driver`, so it works with whatever game it is given.

use super::events::{round_seed, ConfigV1, GameLink, MatchScore, PairedTable, RoundsPlan, TournamentEvent};
use super::policy::Policy;
use super::record;
use super::verify::{self, Report};
use super::TournamentError;
use crate::clock::Clock;
use crate::game::commit::{commit_seed, Secret};
use crate::game::driver::Driver;
use crate::log::envelope::{Actor, StreamId};
use crate::store::Store;

/// What running an event produced.
pub struct EventRun {
    pub tournament: StreamId,
    pub games: Vec<StreamId>,
    pub report: Report,
}

#[allow(clippy::too_many_arguments)]
/// Decides a match by self-playing games until one is decisive (at most 5); every game is linked.
fn play_match(
    store: &dyn Store,
    driver: &dyn Driver,
    clock: &dyn Clock,
    tid: &StreamId,
    seed: &Secret,
    round: u32,
    t: &PairedTable,
    need_winner: bool,
    games: &mut Vec<StreamId>,
) -> Result<(MatchScore, Vec<GameLink>), TournamentError> {
    let mut score = MatchScore { a_wins: 0, b_wins: 0, draws: 0 };
    let mut links = Vec::new();
    for attempt in 0..5u32 {
        let id = StreamId::new(&format!("{tid}-r{round}-t{}-g{}", t.table, attempt + 1))
            .map_err(|e| TournamentError::Input(e.to_string()))?;
        let mut key = [0u8; 8];
        let material = [&seed.0[..], &round.to_le_bytes(), &t.table.to_le_bytes(), &attempt.to_le_bytes()].concat();
        key.copy_from_slice(&blake3::derive_key("kifu 2026-11-21 demo game seed v1", &material)[..8]);
        let players = vec![t.a.clone(), t.b.clone()];
        let head = driver.self_play(store, &id, u64::from_le_bytes(key), &players, clock.now())?;
        let log = store.export(&id)?;
        let outcome = driver.audit(&log)?.outcome;
        let names = log.header.v1().players.clone();
        let winner = outcome.and_then(|o| match o.winners().as_slice() {
            [w] => names.get(usize::from(*w)).cloned(),
            _ => None,
        });
        match winner {
            Some(w) if w == t.a => score.a_wins += 1,
            Some(w) if w == t.b => score.b_wins += 1,
            _ => score.draws += 1,
        }
        links.push(GameLink { stream: id.to_string(), head: head.hash });
        games.push(id);
        if !need_winner || score.a_wins != score.b_wins {
            break;
        }
    }
    if need_winner && score.a_wins == score.b_wins {
        return Err(TournamentError::Input(format!("round {round} table {}: five drawn games in a row", t.table)));
    }
    Ok((score, links))
}

/// Runs a Swiss event of `players` players (8 to 16 is the demo's size) under MTR rules, then a
/// top 4, then reveals the seed, finalizes and verifies.
pub fn run_swiss_event(
    store: &dyn Store,
    driver: &'static dyn Driver,
    id: &StreamId,
    players: usize,
    seed: Secret,
    clock: &dyn Clock,
) -> Result<EventRun, TournamentError> {
    let organizer = Actor::Organizer("demo".into());
    let config = ConfigV1 {
        name: format!("{} Swiss demo", driver.ruleset()),
        game: driver.ruleset().to_string(),
        policy: Policy::Mtr,
        rounds: RoundsPlan::ByAttendance,
        top_cut: if players >= 4 { 4 } else { 0 },
        seed_commitment: Some(commit_seed(&seed)),
    };
    let registrations = (1..=players)
        .map(|i| TournamentEvent::PlayerRegistered { player: format!("player-{i:02}"), deck: None })
        .collect();
    record::create(store, id, &config, organizer.clone(), clock.now(), registrations)?;
    let mut games = Vec::new();
    let mut round = 1u32;
    loop {
        let state = record::load(store, id)?.state;
        let planned = state.swiss_rounds.unwrap_or(u32::MAX);
        if round > planned {
            break;
        }
        let rs = round_seed(&seed, round);
        let (tables, byes) = state.derive_round(round, &rs);
        record::record(
            store,
            id,
            organizer.clone(),
            vec![TournamentEvent::RoundPaired { round, tables: tables.clone(), byes, round_seed: Some(rs) }],
        )?;
        for t in &tables {
            let (score, links) = play_match(store, driver, clock, id, &seed, round, t, false, &mut games)?;
            record::record(
                store,
                id,
                Actor::Organizer("scorekeeper".into()),
                vec![TournamentEvent::ResultReported { round, table: t.table, score, games: links }],
            )?;
        }
        round += 1;
    }
    if config.top_cut >= 2 {
        loop {
            let state = record::load(store, id)?.state;
            let (r, tables) = match state.derive_top_cut() {
                Ok(x) => x,
                Err(_) => break,
            };
            record::record(
                store,
                id,
                organizer.clone(),
                vec![TournamentEvent::TopCutPaired { round: r, tables: tables.clone() }],
            )?;
            for t in &tables {
                let (score, links) = play_match(store, driver, clock, id, &seed, r, t, true, &mut games)?;
                record::record(
                    store,
                    id,
                    Actor::Organizer("scorekeeper".into()),
                    vec![TournamentEvent::ResultReported { round: r, table: t.table, score, games: links }],
                )?;
            }
            if tables.len() == 1 {
                break;
            }
        }
    }
    record::record(store, id, organizer, vec![TournamentEvent::SeedRevealed { seed }, TournamentEvent::Finalized])?;
    let resolve = |r: &str| if r == driver.ruleset() { Some(driver) } else { crate::games::driver(r) };
    let report = verify::verify(store, id, &resolve)?;
    Ok(EventRun { tournament: id.clone(), games, report })
}
