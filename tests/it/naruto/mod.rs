//! Naruto CCG: rules (given/when/then), self-play, views, coverage, catalog and property tests.

mod catalog;
mod coverage;
mod options;
mod props;
mod rules;
mod selfplay;
mod views;

use kifu::games::naruto::Naruto;

/// One self-play game of Naruto (see [`crate::game_support::play`]).
pub(crate) type Played = crate::game_support::Played<Naruto>;

/// Plays a seeded game to the end, asserting that every event validates clean.
pub(crate) fn play(seed: u64, keep_states: bool) -> Played {
    crate::game_support::play::<Naruto>(seed, keep_states)
}
