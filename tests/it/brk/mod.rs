//! The Berserk-style game (BRK): rules (given/when/then), self-play, views, coverage, catalog and
//! the fixtures under replays/.

mod catalog;
mod cli;
mod coverage;
mod fixtures;
mod options;
pub(crate) mod rules;
mod selfplay;
mod views;

use kifu::game::{AgentRng, Game};
use kifu::games::brk::{Brk, BrkConfig, BrkEvent, BrkState};
use rand::SeedableRng;

/// One self-play game: its config, events and every state along the way (state `i` is before event `i`).
pub(crate) struct Played {
    pub config: BrkConfig,
    pub events: Vec<BrkEvent>,
    pub states: Vec<BrkState>,
    pub last: BrkState,
}

/// Plays a seeded game to the end, asserting that every event validates clean.
pub(crate) fn play(seed: u64, keep_states: bool) -> Played {
    let mut rng = AgentRng::seed_from_u64(seed);
    let players = vec!["alice".to_string(), "bob".to_string()];
    let (config, mut secrets) = Brk::self_play_config(&players, &mut rng);
    let mut state = match Brk::setup(&config) {
        Ok(s) => s,
        Err(v) => panic!("seed {seed}: self-play config rejected: {v:?}"),
    };
    let mut events = Vec::new();
    let mut states = Vec::new();
    for seq in 0..20_000u64 {
        let Some(event) = Brk::agent_step(&state, &mut secrets, &mut rng) else {
            assert!(state.result.is_some(), "seed {seed}: the agent stopped at event {seq} without an outcome");
            return Played { config, events, states, last: state };
        };
        let violations = Brk::validate(&state, &event);
        assert!(violations.is_empty(), "seed {seed}, event {seq} {event:?}: {violations:?}");
        if keep_states {
            states.push(state.clone());
        }
        Brk::ledger_mut(&mut state).at(seq);
        state = Brk::apply(state, &event);
        events.push(event);
    }
    panic!("seed {seed}: the game did not end within 20,000 events");
}
