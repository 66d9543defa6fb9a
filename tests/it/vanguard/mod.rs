//! Cardfight!! Vanguard: rules (given/when/then), self-play, views, coverage, catalog, the
//! rules-vs-client fold property, the vgc-log import and the fixtures under replays/.

mod catalog;
mod coverage;
mod fixtures;
mod options;
mod props;
mod rules;
mod selfplay;
mod vgclog;
mod views;

use kifu::games::vanguard::catalog::DeckList;
use kifu::games::vanguard::Vanguard;

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

/// One self-play game of Vanguard (see [`crate::game_support::play`]).
pub(crate) type Played = crate::game_support::Played<Vanguard>;

/// Plays a seeded game to the end, asserting that every event validates clean.
pub(crate) fn play(seed: u64, keep_states: bool) -> Played {
    crate::game_support::play::<Vanguard>(seed, keep_states)
}
