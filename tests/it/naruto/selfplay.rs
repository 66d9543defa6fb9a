//! Self-play: seeded random games validate clean, end with an outcome, are deterministic and audit clean.

use kifu::game::Game;
use kifu::games::naruto::Naruto;

use super::play;

#[test]
fn a_thousand_self_play_games_validate_end_and_audit_clean() {
    let start = std::time::Instant::now();
    let mut turns = 0u64;
    let mut events = 0usize;
    for seed in 0..1000u64 {
        let game = play(seed, false);
        let state = game.last;
        let outcome = Naruto::outcome(&state);
        assert!(outcome.is_some(), "seed {seed}: no outcome");
        assert_eq!(Naruto::ledger(&state).audit(), vec![], "seed {seed}: audit");
        turns += u64::from(state.turn);
        events += game.events.len();
    }
    eprintln!(
        "1000 games, {turns} turns, {events} events in {:?}",
        start.elapsed()
    );
}
