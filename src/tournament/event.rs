//! Runs a whole small Swiss event whose matches are self-played games, for the demo and tests:
//! register, pair each round from the committed seed, self-play one game per match (best of one:
//! the agent's outcome decides the score), cut to a top 4, reveal the seed, finalize, verify.
//! Written against `&dyn Driver`, so it works with whatever game it is given. Also a pod event
//! of a multiplayer game: pods paired from the seed, one self-played game per pod, its places
//! reported with the game linked.

use super::events::{round_seed, ConfigV1, GameLink, MatchScore, PairedTable, RoundsPlan, TournamentEvent};
use super::policy::Policy;
use super::record;
use super::verify::{self, Report};
use super::TournamentError;
use crate::clock::Clock;
use crate::game::commit::{commit_seed, Secret};
use crate::game::driver::Driver;
use crate::log::envelope::{Actor, MatchBinding, MatchPlace, StreamId};
use crate::store::Store;

/// What running an event produced.
pub struct EventRun {
    pub tournament: StreamId,
    pub games: Vec<StreamId>,
    pub report: Report,
}

/// The self-play seed of game `attempt` of `table` (or pod) in `round`.
fn game_seed(seed: &Secret, round: u32, table: u32, attempt: u32) -> u64 {
    let mut key = [0u8; 8];
    let material = [&seed.0[..], &round.to_le_bytes(), &table.to_le_bytes(), &attempt.to_le_bytes()].concat();
    key.copy_from_slice(&blake3::derive_key("kifu 2026-11-21 demo game seed v1", &material)[..8]);
    u64::from_le_bytes(key)
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
        let players = vec![t.a.clone(), t.b.clone()];
        let bound = MatchBinding { tournament: tid.clone(), round, place: MatchPlace::Table(t.table) };
        let game_seed = game_seed(seed, round, t.table, attempt);
        let head = driver.self_play_bound(store, &id, game_seed, &players, clock.now(), Some(bound))?;
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

/// What playing a Swiss event's matches needs: where, with what game, the event and its seed.
struct Swiss<'a> {
    store: &'a dyn Store,
    driver: &'a dyn Driver,
    clock: &'a dyn Clock,
    id: &'a StreamId,
    seed: Secret,
}

impl Swiss<'_> {
    /// Plays every table of `round` and records each result with its games linked.
    fn play_round(
        &self,
        round: u32,
        tables: &[PairedTable],
        need_winner: bool,
        games: &mut Vec<StreamId>,
    ) -> Result<(), TournamentError> {
        let (store, driver, clock, id) = (self.store, self.driver, self.clock, self.id);
        for t in tables {
            let (score, links) = play_match(store, driver, clock, id, &self.seed, round, t, need_winner, games)?;
            let ev = TournamentEvent::ResultReported { round, table: t.table, score, games: links };
            record::record(store, id, Actor::Organizer("scorekeeper".into()), vec![ev])?;
        }
        Ok(())
    }

    /// Pairs and plays every planned Swiss round from the seed.
    fn swiss_rounds(&self, organizer: &Actor, games: &mut Vec<StreamId>) -> Result<(), TournamentError> {
        for round in 1u32.. {
            let state = record::load(self.store, self.id)?.state;
            if round > state.swiss_rounds.unwrap_or(u32::MAX) {
                break;
            }
            let rs = round_seed(&self.seed, round);
            let (tables, byes) = state.derive_round(round, &rs);
            let ev = TournamentEvent::RoundPaired { round, tables: tables.clone(), byes, round_seed: Some(rs) };
            record::record(self.store, self.id, organizer.clone(), vec![ev])?;
            self.play_round(round, &tables, false, games)?;
        }
        Ok(())
    }

    /// Pairs and plays the bracket, round by round, to its final.
    fn top_cut(&self, organizer: &Actor, games: &mut Vec<StreamId>) -> Result<(), TournamentError> {
        loop {
            let state = record::load(self.store, self.id)?.state;
            let Ok((r, tables)) = state.derive_top_cut() else { return Ok(()) };
            let ev = TournamentEvent::TopCutPaired { round: r, tables: tables.clone() };
            record::record(self.store, self.id, organizer.clone(), vec![ev])?;
            self.play_round(r, &tables, true, games)?;
            if tables.len() == 1 {
                return Ok(());
            }
        }
    }
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
    let event = Swiss { store, driver, clock, id, seed };
    event.swiss_rounds(&organizer, &mut games)?;
    if config.top_cut >= 2 {
        event.top_cut(&organizer, &mut games)?;
    }
    record::record(store, id, organizer, vec![TournamentEvent::SeedRevealed { seed }, TournamentEvent::Finalized])?;
    // Every game the event links was self-played by `driver`: it is the only resolver needed
    // (the registry of games is the caller's; `tournament` does not depend on `games`).
    let resolve = |r: &str| (r == driver.ruleset()).then_some(driver);
    let report = verify::verify(store, id, &resolve)?;
    Ok(EventRun { tournament: id.clone(), games, report })
}

/// The default pod format: pods of 4 filled with pods of 3, points 5/1/0.
pub fn pod_format() -> TournamentEvent {
    TournamentEvent::PodFormatSet { size: 4, sole_win: 5, shared_win: 1, loss: 0 }
}

/// Creates a pod tournament of `players` players (`player-01`, ...) playing `rounds` rounds,
/// committed to `seed`, in the default pod format.
pub fn create_pod_event(
    store: &dyn Store,
    driver: &dyn Driver,
    id: &StreamId,
    players: usize,
    rounds: u32,
    seed: &Secret,
    clock: &dyn Clock,
) -> Result<(), TournamentError> {
    let config = ConfigV1 {
        name: format!("{} pod demo", driver.ruleset()),
        game: driver.ruleset().to_string(),
        policy: Policy::Mtr,
        rounds: RoundsPlan::Fixed(rounds),
        top_cut: 0,
        seed_commitment: Some(commit_seed(seed)),
    };
    let mut first: Vec<TournamentEvent> = (1..=players)
        .map(|i| TournamentEvent::PlayerRegistered { player: format!("player-{i:02}"), deck: None })
        .collect();
    first.push(pod_format());
    record::create(store, id, &config, Actor::Organizer("demo".into()), clock.now(), first)?;
    Ok(())
}

/// Pairs round `round` of a pod tournament from `seed`, records it, and returns its pods.
pub fn pair_pod_round(
    store: &dyn Store,
    id: &StreamId,
    seed: &Secret,
    round: u32,
) -> Result<Vec<Vec<String>>, TournamentError> {
    let state = record::load(store, id)?.state;
    let rs = round_seed(seed, round);
    let pods = state.derive_pods(round, &rs).map_err(TournamentError::Rule)?;
    let ev = TournamentEvent::PodRoundPaired { round, pods: pods.clone(), round_seed: rs };
    record::record(store, id, Actor::Organizer("demo".into()), vec![ev])?;
    Ok(pods)
}

/// Self-plays pod `pod` of `round` (its players seated in pod order) and returns the game and
/// the places its outcome gives, in seat order.
#[allow(clippy::too_many_arguments)]
pub fn play_pod(
    store: &dyn Store,
    driver: &dyn Driver,
    clock: &dyn Clock,
    id: &StreamId,
    seed: &Secret,
    round: u32,
    pod: u32,
    players: &[String],
) -> Result<(StreamId, Vec<u32>), TournamentError> {
    let game = StreamId::new(&format!("{id}-r{round}-p{pod}")).map_err(|e| TournamentError::Input(e.to_string()))?;
    let bound = MatchBinding { tournament: id.clone(), round, place: MatchPlace::Pod(pod) };
    driver.self_play_bound(store, &game, game_seed(seed, round, pod, 0), players, clock.now(), Some(bound))?;
    let outcome = driver
        .audit(&store.export(&game)?)?
        .outcome
        .ok_or_else(|| TournamentError::Input(format!("{game} did not finish")))?;
    Ok((game, super::pods::places_from_outcome(&outcome, players.len())))
}

/// Reports pod `pod` of `round`: its places and its game, linked through the claim check.
pub fn report_pod(
    store: &dyn Store,
    id: &StreamId,
    round: u32,
    pod: u32,
    places: Vec<u32>,
    game: &StreamId,
) -> Result<(), TournamentError> {
    let loaded = record::load(store, id)?;
    let games = super::claim::claim_pod_games(store, &loaded, round, pod, &[game.to_string()])?;
    let ev = TournamentEvent::PodResultReported { round, pod, places, games };
    record::record(store, id, Actor::Organizer("scorekeeper".into()), vec![ev])?;
    Ok(())
}

/// Runs a pod event of `players` players over `rounds` rounds: pods paired from the committed
/// seed, one self-played game per pod with its places reported, then the seed revealed,
/// finalized and verified.
pub fn run_pod_event(
    store: &dyn Store,
    driver: &'static dyn Driver,
    id: &StreamId,
    players: usize,
    rounds: u32,
    seed: Secret,
    clock: &dyn Clock,
) -> Result<EventRun, TournamentError> {
    create_pod_event(store, driver, id, players, rounds, &seed, clock)?;
    let mut games = Vec::new();
    for round in 1..=rounds {
        let pods = pair_pod_round(store, id, &seed, round)?;
        for (i, pod) in pods.iter().enumerate() {
            let n = i as u32 + 1;
            let (game, places) = play_pod(store, driver, clock, id, &seed, round, n, pod)?;
            report_pod(store, id, round, n, places, &game)?;
            games.push(game);
        }
    }
    let organizer = Actor::Organizer("demo".into());
    record::record(store, id, organizer, vec![TournamentEvent::SeedRevealed { seed }, TournamentEvent::Finalized])?;
    // Every game the event links was self-played by `driver`: it is the only resolver needed
    // (the registry of games is the caller's; `tournament` does not depend on `games`).
    let resolve = |r: &str| (r == driver.ruleset()).then_some(driver);
    let report = verify::verify(store, id, &resolve)?;
    Ok(EventRun { tournament: id.clone(), games, report })
}
