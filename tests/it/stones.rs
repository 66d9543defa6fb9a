//! The toy game the machinery and tournament tests share: N players (2 to 6) take stones in turn.
//! Version 1: whoever takes the last stone wins. Version 2 (misère): whoever takes it loses. The
//! others place by the stones they took. With dice, every turn the active seat rolls a d3 and takes
//! what it shows; at a digital table the dice derive from a seed every seat contributes a share to.
//! Small enough to reason about, shaped like every game: N seats, who may act, placements,
//! eliminations, common events and two rules versions.

use rand::RngExt;
use serde::{Deserialize, Serialize};

use kifu::game::commit::{self, AgentSecrets, CommitmentLedger, RandomMode};
use kifu::game::common::{self, CommonEvent};
use kifu::game::driver::GameDriver;
use kifu::game::versions::Versions;
use kifu::game::view::{BoardView, SeatView};
use kifu::game::{
    next_seat, AgentRng, Enforcement, Game, NewGame, Outcome, Position, RuleCoverage, Seat, SeatRange, Seats, Viewer,
    Violation,
};
use kifu::log::hash::Hash32 as Secret;

/// The toy game's driver (version 1), for tests that go through the `Driver` interface.
pub static STONES: GameDriver<Stones> = GameDriver::new();
/// Version 2's driver.
pub static STONES_V2: GameDriver<StonesV2> = GameDriver::new();
/// Every released version, oldest first: what a build that ships version 2 registers.
pub static STONES_VERSIONS: Versions = Versions { ruleset: "stones", released: &[&STONES, &STONES_V2] };

/// The toy game under rules version `V`: each released version stays behind its number.
pub struct StonesOf<const V: u32>;
pub type Stones = StonesOf<1>;
pub type StonesV2 = StonesOf<2>;

/// The combined seed's key.
pub const DICE: &str = "dice";

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Config {
    pub players: Vec<String>,
    pub stones: u32,
    /// `None`: take 1 to 3 stones as you like; otherwise roll a d3 first, physically or digitally.
    pub dice: Option<RandomMode>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub enum Event {
    StonesTaken { seat: Seat, count: u32 },
    Common(CommonEvent),
}

#[derive(Clone, Debug, PartialEq)]
pub struct State {
    pub seats: u8,
    pub stones: u32,
    pub active: Seat,
    pub turn: u32,
    /// Who took the last stone.
    pub last: Option<Seat>,
    pub taken: Seats<u32>,
    pub eliminated: Vec<Seat>,
    pub dice: Option<RandomMode>,
    /// The die the active seat rolled and has not taken yet.
    pub rolled: Option<u32>,
    pub committed: Vec<Seat>,
    pub revealed: Vec<Seat>,
    pub ledger: CommitmentLedger,
}

impl State {
    fn in_game(&self) -> Vec<Seat> {
        (0..self.seats).filter(|s| !self.eliminated.contains(s)).collect()
    }

    /// Whether the combined seed still waits for shares (a digital table before the first turn).
    fn seeding(&self) -> bool {
        self.dice == Some(RandomMode::Digital) && self.in_game().iter().any(|s| !self.revealed.contains(s))
    }

    fn over(&self) -> bool {
        self.last.is_some()
    }
}

fn v(rule: &'static str, msg: impl Into<String>) -> Violation {
    Violation::new(rule, msg)
}

impl<const V: u32> Game for StonesOf<V> {
    const RULESET: &'static str = "stones";
    const RULESET_VERSION: u32 = V;
    const SEATS: SeatRange = SeatRange::new(2, 6);
    const CHECKS_AWAITED: bool = true;
    type Config = Config;
    type Event = Event;
    type State = State;

    fn players(config: &Config) -> Vec<String> {
        config.players.clone()
    }
    fn new_config(r: &NewGame<'_>) -> Result<Config, Vec<kifu::game::ConfigProblem>> {
        Ok(Config { players: r.players.to_vec(), stones: 10, dice: None })
    }
    fn setup(config: &Config) -> Result<State, Vec<Violation>> {
        let problems = kifu::game::rules::check_seats(Self::SEATS, &config.players, &config.players, |_| vec![]);
        if !problems.is_empty() {
            return Err(problems);
        }
        Ok(State {
            seats: config.players.len() as u8,
            stones: config.stones,
            active: 0,
            turn: 1,
            last: None,
            taken: Seats::new(vec![0; config.players.len()]),
            eliminated: vec![],
            dice: config.dice,
            rolled: None,
            committed: vec![],
            revealed: vec![],
            ledger: CommitmentLedger::default(),
        })
    }
    fn validate(state: &State, event: &Event) -> Vec<Violation> {
        let mut out = vec![];
        if state.over() {
            out.push(v("STONES-4", "the game is over"));
        }
        match event {
            Event::StonesTaken { count, .. } => {
                if state.seeding() {
                    out.push(v("STONES-5", "every seat's dice share must be committed and revealed first"));
                }
                match (state.dice, state.rolled) {
                    (None, _) if !(1..=3).contains(count) || *count > state.stones => {
                        out.push(v("STONES-3", format!("took {count} of {} stones", state.stones)))
                    }
                    (Some(_), None) => out.push(v("STONES-6", "roll the die before taking stones")),
                    (Some(_), Some(r)) if *count != r.min(state.stones) => out.push(v(
                        "STONES-6",
                        format!("the die shows {r}, so take {}, not {count}", r.min(state.stones)),
                    )),
                    _ => {}
                }
            }
            Event::Common(c) => {
                let contributors = state.in_game();
                let cx = common::Context {
                    ledger: &state.ledger,
                    seats: usize::from(state.seats),
                    mode: state.dice.unwrap_or(RandomMode::Physical),
                    contributors: &contributors,
                };
                out.extend(common::validate(&cx, c));
                match c {
                    CommonEvent::DieRolled { sides, .. } => {
                        if state.dice.is_none() || state.seeding() || state.rolled.is_some() {
                            out.push(v("STONES-6", "no die roll is due"));
                        }
                        if *sides != 3 {
                            out.push(v("STONES-6", format!("the game rolls a d3, not a d{sides}")));
                        }
                    }
                    CommonEvent::SeedCommitted { key, .. } | CommonEvent::SeedRevealed { key, .. }
                        if key != DICE || !state.seeding() =>
                    {
                        out.push(v("STONES-5", format!("no seed {key:?} is due")))
                    }
                    _ => {}
                }
            }
        }
        out
    }
    fn apply(mut state: State, event: &Event) -> State {
        match event {
            Event::StonesTaken { seat, count } => {
                let took = (*count).min(state.stones);
                state.stones -= took;
                state.taken.update(*seat, |t| *t += took);
                if state.stones == 0 && state.last.is_none() {
                    state.last = Some(*seat);
                }
                state.rolled = None;
                state.active = next_seat(*seat, usize::from(state.seats), &state.eliminated).unwrap_or(*seat);
                state.turn += 1;
            }
            Event::Common(c) => {
                common::record(&mut state.ledger, c);
                match c {
                    CommonEvent::SeedCommitted { seat: Some(s), .. } if !state.committed.contains(s) => {
                        state.committed.push(*s)
                    }
                    CommonEvent::SeedRevealed { seat: Some(s), .. } if !state.revealed.contains(s) => {
                        state.revealed.push(*s)
                    }
                    CommonEvent::DieRolled { value, .. } => state.rolled = Some(*value),
                    _ => {}
                }
            }
        }
        state
    }
    fn acting_seat(event: &Event) -> Option<Seat> {
        match event {
            Event::StonesTaken { seat, .. } => Some(*seat),
            Event::Common(c) => c.seat(),
        }
    }
    fn outcome(state: &State) -> Option<Outcome> {
        let last = state.last?;
        // The others place by the stones they took; ties share a place.
        let mut others: Vec<Seat> = state.in_game().into_iter().filter(|s| *s != last).collect();
        others.sort_by_key(|s| std::cmp::Reverse(state.taken.get(*s).copied().unwrap_or(0)));
        let mut placements: Vec<Vec<Seat>> = Vec::new();
        let mut prev = None;
        for s in others {
            let t = state.taken.get(s).copied();
            match placements.last_mut() {
                Some(p) if prev == Some(t) => p.push(s),
                _ => placements.push(vec![s]),
            }
            prev = Some(t);
        }
        let (outcome, reason) = if V == 1 {
            placements.insert(0, vec![last]);
            (Outcome { placements, eliminated: vec![], reason: String::new() }, "STONES-1: took the last stone")
        } else {
            placements.push(vec![last]);
            (
                Outcome { placements, eliminated: vec![last], reason: String::new() },
                "STONES-1: took the last stone (misère)",
            )
        };
        Some(Outcome { reason: reason.into(), ..outcome })
    }
    fn position(state: &State) -> Position {
        let phase = if state.over() {
            "over"
        } else if state.seeding() {
            "seed"
        } else if state.dice.is_some() && state.rolled.is_none() {
            "roll"
        } else {
            "take"
        };
        Position { turn: state.turn, phase, step: phase, active: Some(state.active), awaited: Self::awaited(state) }
    }
    fn awaited(state: &State) -> Vec<Seat> {
        if state.over() {
            return vec![];
        }
        if state.seeding() {
            let seats = state.in_game();
            let uncommitted: Vec<Seat> = seats.iter().copied().filter(|s| !state.committed.contains(s)).collect();
            if !uncommitted.is_empty() {
                return uncommitted;
            }
            return seats.into_iter().filter(|s| !state.revealed.contains(s)).collect();
        }
        vec![state.active]
    }
    fn seat_eliminated(mut state: State, seat: Seat) -> State {
        if !state.eliminated.contains(&seat) {
            state.eliminated.push(seat);
        }
        if state.active == seat {
            state.active = next_seat(seat, usize::from(state.seats), &state.eliminated).unwrap_or(seat);
            state.rolled = None;
        }
        state
    }
    fn view(state: &State, viewer: Viewer) -> BoardView {
        BoardView {
            viewer,
            turn: state.turn,
            phase: Self::position(state).phase.into(),
            active: Some(state.active),
            seats: state
                .taken
                .enumerate()
                .map(|(s, t)| SeatView {
                    seat: s,
                    name: format!("seat {s}"),
                    counters: vec![("taken".into(), t.to_string())],
                    zones: vec![],
                })
                .collect(),
            shared: vec![],
            facts: vec![("stones".into(), state.stones.to_string())],
            outcome: None,
            layout: Default::default(),
        }
    }
    fn describe(_: &State, event: &Event, viewer: Viewer) -> String {
        match event {
            Event::StonesTaken { seat, count } => format!("seat {seat} took {count}"),
            Event::Common(c) => common::describe(c, viewer, |s| format!("seat {s}")),
        }
    }
    fn coverage() -> Vec<RuleCoverage> {
        vec![RuleCoverage { rule: "STONES-3", summary: "take 1 to 3 stones", enforcement: Enforcement::Enforced }]
    }
    fn ledger(state: &State) -> &CommitmentLedger {
        &state.ledger
    }
    fn ledger_mut(state: &mut State) -> &mut CommitmentLedger {
        &mut state.ledger
    }
    /// Version 1 plays without dice (the tournament tests' game); version 2 at a digital table,
    /// every seat's share drawn here and kept in the secrets until its reveal.
    fn self_play_config(players: &[String], rng: &mut AgentRng) -> (Config, AgentSecrets) {
        let stones = rng.random_range(5..40);
        let mut secrets = AgentSecrets::default();
        if V == 1 {
            return (Config { players: players.to_vec(), stones, dice: None }, secrets);
        }
        for seat in 0..players.len() {
            secrets.shares.insert((DICE.to_string(), seat as Seat), Secret(rng.random()));
        }
        (Config { players: players.to_vec(), stones, dice: Some(RandomMode::Digital) }, secrets)
    }
    fn agent_step(state: &State, secrets: &mut AgentSecrets, rng: &mut AgentRng) -> Option<Event> {
        let seat = *Self::awaited(state).first()?;
        let share = || secrets.shares.get(&(DICE.to_string(), seat)).copied().unwrap_or_default();
        if state.seeding() {
            let c = if state.committed.contains(&seat) {
                CommonEvent::SeedRevealed { key: DICE.into(), seat: Some(seat), seed: share() }
            } else {
                CommonEvent::SeedCommitted {
                    key: DICE.into(),
                    seat: Some(seat),
                    commitment: commit::commit_seed(&share()),
                }
            };
            return Some(Event::Common(c));
        }
        match (state.dice, state.rolled) {
            (None, _) => Some(Event::StonesTaken { seat, count: rng.random_range(1..=3u32.min(state.stones)) }),
            (Some(mode), None) => {
                let (value, seed) = match (mode, state.ledger.seed_value(DICE)) {
                    (RandomMode::Digital, Some(s)) => {
                        (commit::die_roll(&s, DICE, state.ledger.next_draw(DICE), 3), Some(DICE.to_string()))
                    }
                    _ => (rng.random_range(1..=3), None),
                };
                Some(Event::Common(CommonEvent::DieRolled { seat: Some(seat), sides: 3, value, seed }))
            }
            (Some(_), Some(r)) => Some(Event::StonesTaken { seat, count: r.min(state.stones) }),
        }
    }
}
