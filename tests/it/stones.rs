//! The toy game the machinery and tournament tests share: N players take 1 to 3 stones in turn,
//! and whoever takes the last stone wins. Small enough to reason about, shaped like every game.

use rand::RngExt;
use serde::{Deserialize, Serialize};

use kifu::game::commit::{AgentSecrets, CommitmentLedger};
use kifu::game::driver::GameDriver;
use kifu::game::view::{BoardView, SeatView};
use kifu::game::{AgentRng, Enforcement, Game, NewGame, Outcome, Position, RuleCoverage, Seat, Viewer, Violation};

/// The toy game's driver, for tests that go through the `Driver` interface.
pub static STONES: GameDriver<Stones> = GameDriver::new();

pub struct Stones;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Config {
    pub players: Vec<String>,
    pub stones: u32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub enum Event {
    StonesTaken { seat: Seat, count: u32 },
}

#[derive(Clone, Debug, PartialEq)]
pub struct State {
    pub seats: u8,
    pub stones: u32,
    pub active: Seat,
    pub turn: u32,
    pub winner: Option<Seat>,
    pub ledger: CommitmentLedger,
}

impl Game for Stones {
    const RULESET: &'static str = "stones";
    const RULESET_VERSION: u32 = 1;
    type Config = Config;
    type Event = Event;
    type State = State;

    fn players(config: &Config) -> Vec<String> {
        config.players.clone()
    }
    fn new_config(r: &NewGame<'_>) -> Result<Config, Vec<String>> {
        Ok(Config { players: r.players.to_vec(), stones: 10 })
    }
    fn setup(config: &Config) -> Result<State, Vec<Violation>> {
        if config.players.len() < 2 {
            return Err(vec![Violation::new("STONES-1", "at least two players")]);
        }
        Ok(State {
            seats: config.players.len() as u8,
            stones: config.stones,
            active: 0,
            turn: 1,
            winner: None,
            ledger: CommitmentLedger::default(),
        })
    }
    fn validate(state: &State, event: &Event) -> Vec<Violation> {
        let Event::StonesTaken { seat, count } = event;
        let mut v = vec![];
        if state.winner.is_some() {
            v.push(Violation::new("STONES-4", "the game is over"));
        }
        if *seat != state.active {
            v.push(Violation::new("STONES-2", format!("seat {seat} acted on seat {}'s turn", state.active)));
        }
        if !(1..=3).contains(count) || *count > state.stones {
            v.push(Violation::new("STONES-3", format!("took {count} of {} stones", state.stones)));
        }
        v
    }
    fn apply(mut state: State, event: &Event) -> State {
        let Event::StonesTaken { seat, count } = event;
        state.stones = state.stones.saturating_sub(*count);
        if state.stones == 0 && state.winner.is_none() {
            state.winner = Some(*seat);
        }
        state.active = (*seat + 1) % state.seats;
        state.turn += 1;
        state
    }
    fn acting_seat(event: &Event) -> Option<Seat> {
        let Event::StonesTaken { seat, .. } = event;
        Some(*seat)
    }
    fn outcome(state: &State) -> Option<Outcome> {
        state.winner.map(|w| Outcome { winners: vec![w], reason: "took the last stone".into() })
    }
    fn position(state: &State) -> Position {
        Position { turn: state.turn, phase: "take", step: "take", active: Some(state.active) }
    }
    fn view(state: &State, viewer: Viewer) -> BoardView {
        BoardView {
            viewer,
            turn: state.turn,
            phase: "take".into(),
            active: Some(state.active),
            seats: (0..state.seats)
                .map(|s| SeatView { seat: s, name: format!("seat {s}"), counters: vec![], zones: vec![] })
                .collect(),
            shared: vec![],
            facts: vec![("stones".into(), state.stones.to_string())],
            outcome: None,
            layout: Default::default(),
        }
    }
    fn describe(_: &State, event: &Event, _: Viewer) -> String {
        let Event::StonesTaken { seat, count } = event;
        format!("seat {seat} took {count}")
    }
    fn coverage() -> Vec<RuleCoverage> {
        vec![RuleCoverage { rule: "STONES-2", summary: "turn order", enforcement: Enforcement::Enforced }]
    }
    fn ledger(state: &State) -> &CommitmentLedger {
        &state.ledger
    }
    fn ledger_mut(state: &mut State) -> &mut CommitmentLedger {
        &mut state.ledger
    }
    fn self_play_config(players: &[String], rng: &mut AgentRng) -> (Config, AgentSecrets) {
        (Config { players: players.to_vec(), stones: rng.random_range(5..40) }, AgentSecrets::default())
    }
    fn agent_step(state: &State, _: &mut AgentSecrets, rng: &mut AgentRng) -> Option<Event> {
        if state.winner.is_some() {
            return None;
        }
        Some(Event::StonesTaken { seat: state.active, count: rng.random_range(1..=3u32.min(state.stones)) })
    }
}
