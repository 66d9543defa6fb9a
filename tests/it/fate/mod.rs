//! FATE: rules (given/when/then), self-play, views, coverage and catalog tests.

mod catalog;
mod cli;
mod coverage;
mod fixtures;
mod options;
mod pods;
mod rules;
mod selfplay;
mod views;

use kifu::game::{AgentRng, Game};
use kifu::games::fate::{Fate, FateEvent, FateState};
use rand::SeedableRng;

/// One self-play game: its events and every state along the way (state `i` is before event `i`).
pub(crate) struct Played {
    pub events: Vec<FateEvent>,
    pub states: Vec<FateState>,
    pub last: FateState,
}

pub(crate) fn names(n: usize) -> Vec<String> {
    ["Ayaka", "Bazett", "Caren", "Dan", "Emiya", "Fran"].iter().take(n).map(|s| s.to_string()).collect()
}

/// Plays a seeded game with `players` Masters to the end, asserting that every event validates clean.
pub(crate) fn play(seed: u64, players: usize, keep_states: bool) -> Played {
    let mut rng = AgentRng::seed_from_u64(seed);
    let (config, mut secrets) = Fate::self_play_config(&names(players), &mut rng);
    let mut state = match Fate::setup(&config) {
        Ok(s) => s,
        Err(v) => panic!("seed {seed}: self-play config rejected: {v:?}"),
    };
    let mut events = Vec::new();
    let mut states = Vec::new();
    for seq in 0..50_000u64 {
        let Some(event) = Fate::agent_step(&state, &mut secrets, &mut rng) else {
            return Played { events, states, last: state };
        };
        let violations = Fate::validate(&state, &event);
        assert!(violations.is_empty(), "seed {seed}, event {seq} {event:?}: {violations:?}");
        if keep_states {
            states.push(state.clone());
        }
        Fate::ledger_mut(&mut state).at(seq);
        state = Fate::apply(state, &event);
        events.push(event);
    }
    panic!("seed {seed}: the game did not end within 50,000 events");
}
