//! Cardfight!! Vanguard: rules (given/when/then), self-play, views, coverage, catalog, the
//! rules-vs-client fold property, the vgc-log import and the fixtures under replays/.

mod catalog;
mod coverage;
mod fixtures;
mod props;
mod rules;
mod selfplay;
mod vgclog;
mod views;

use kifu::game::{AgentRng, Game};
use kifu::games::vanguard::catalog::DeckList;
use kifu::games::vanguard::{Vanguard, VanguardConfig, VanguardEvent, VanguardState};
use rand::SeedableRng;

/// The legal 50-card Alpha deck of the sample catalog, with `g` as its G deck. By index:
///  0 TA-00 starter (forerunner) | 1-4 draw | 5-8 critical | 9-12 heal | 13-16 stand triggers
/// 17-20 TA-10 g1 | 21-24 TA-11 g1 LB4 | 25-27 TA-12 g1 | 28-30 TA-13 g1 sentinel
/// 31-34 TA-20 g2 | 35-38 TA-21 g2 | 39-41 TA-22 g2 restraint
/// 42-44 TA-30 g3 lord | 45-47 TA-31 g3 LB4 | 48-49 TA-32 g3 legion (mate: TA-30's name)
pub(crate) fn alpha_deck(g: &[&str]) -> DeckList {
    let mut main = vec!["TA-00".to_string()];
    for (id, n) in [
        ("TA-01", 4),
        ("TA-02", 4),
        ("TA-03", 4),
        ("TA-04", 4),
        ("TA-10", 4),
        ("TA-11", 4),
        ("TA-12", 3),
        ("TA-13", 3),
        ("TA-20", 4),
        ("TA-21", 4),
        ("TA-22", 3),
        ("TA-30", 3),
        ("TA-31", 3),
        ("TA-32", 2),
    ] {
        main.extend(std::iter::repeat_n(id.to_string(), n));
    }
    DeckList { main, g: g.iter().map(|s| s.to_string()).collect() }
}

/// One self-play game: its config, events and every state along the way (state `i` is before event `i`).
pub(crate) struct Played {
    pub config: VanguardConfig,
    pub events: Vec<VanguardEvent>,
    pub states: Vec<VanguardState>,
    pub last: VanguardState,
}

/// Plays a seeded game to the end, asserting that every event validates clean.
pub(crate) fn play(seed: u64, keep_states: bool) -> Played {
    let mut rng = AgentRng::seed_from_u64(seed);
    let players = vec!["Alice".to_string(), "Bob".to_string()];
    let (config, mut secrets) = Vanguard::self_play_config(&players, &mut rng);
    let mut state = match Vanguard::setup(&config) {
        Ok(s) => s,
        Err(v) => panic!("seed {seed}: self-play config rejected: {v:?}"),
    };
    let mut events = Vec::new();
    let mut states = Vec::new();
    for seq in 0..20_000u64 {
        let Some(event) = Vanguard::agent_step(&state, &mut secrets, &mut rng) else {
            return Played { config, events, states, last: state };
        };
        let violations = Vanguard::validate(&state, &event);
        assert!(violations.is_empty(), "seed {seed}, event {seq} {event:?}: {violations:?}");
        if keep_states {
            states.push(state.clone());
        }
        Vanguard::ledger_mut(&mut state).at(seq);
        state = Vanguard::apply(state, &event);
        events.push(event);
    }
    panic!("seed {seed}: the game did not end within 20,000 events");
}
