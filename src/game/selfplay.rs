//! Self-play: the game's random legal-play agent plays a complete game from a seed, and the
//! pieces every game's agent shares (a random mix of policies from a table).

use rand::seq::IndexedRandom;
use rand::{RngExt, SeedableRng};

use super::actor_for;
use super::{AgentRng, Game, GameEntry, Violation};
use crate::log::envelope::Actor;

/// A self-played game: its configuration and every entry with the actor that records it.
pub struct SelfPlayed<G: Game> {
    pub config: G::Config,
    pub entries: Vec<(Actor, GameEntry<G::Event>)>,
    pub final_state: G::State,
}

/// Plays one game from `seed` (at most `max_events` events). Deterministic for a given seed.
/// Every agent event's acting seat must be one the state awaits ([`Game::awaited`]): an agent
/// that acts for a seat the game does not wait for is an error (`KIFU-TURN-1`, naming the event).
pub fn self_play<G: Game>(seed: u64, players: &[String], max_events: usize) -> Result<SelfPlayed<G>, Vec<Violation>> {
    let mut rng = AgentRng::seed_from_u64(seed);
    let (config, mut secrets) = G::self_play_config(players, &mut rng);
    let names = G::players(&config);
    let mut state = G::setup(&config)?;
    let mut entries = Vec::new();
    while entries.len() < max_events {
        let Some(event) = G::agent_step(&state, &mut secrets, &mut rng) else {
            break;
        };
        if let Some(v) = unawaited::<G>(&state, &event) {
            return Err(vec![Violation::new(v.rule, format!("self-play event {}: {}", entries.len(), v.message))]);
        }
        G::ledger_mut(&mut state).at(entries.len() as u64);
        let actor = actor_for::<G>(&names, &event);
        state = G::apply(state, &event);
        entries.push((actor, GameEntry::Played(event)));
    }
    Ok(SelfPlayed { config, entries, final_state: state })
}

/// The `KIFU-TURN-1` violation of `event` if its acting seat is not one `state` awaits: what
/// self-play enforces on every agent's every event, whatever the game's [`Game::CHECKS_AWAITED`].
/// An interjection ([`Game::interjects`]) is not held to it.
pub fn unawaited<G: Game>(state: &G::State, event: &G::Event) -> Option<Violation> {
    let seat = G::acting_seat(event)?;
    if G::interjects(state, event) {
        return None;
    }
    super::rules::check_awaited(seat, &G::awaited(state))
}

/// One row of a self-play policy mix whose odds are the game's own (see [`mix_policies`]).
#[derive(Clone, Copy, Debug)]
pub enum Mix<'a> {
    /// With probability `p` the policy `key` takes `yes`; otherwise `no`, or it keeps its value.
    Coin { key: &'a str, p: f64, yes: &'a str, no: Option<&'a str> },
    /// The policy `key` takes one of `values`, each equally likely (a value listed twice weighs double).
    Pick { key: &'a str, values: &'a [&'a str] },
    /// With probability `p` the policy `key` takes one of `values`; otherwise it keeps its value.
    Maybe { key: &'a str, p: f64, values: &'a [&'a str] },
}

/// Mixes a self-play configuration's policies row by row, in order, through the game's own `set`
/// (`--policy KEY=VALUE`). Each row draws exactly what its kind says: a [`Mix::Coin`] one coin,
/// a [`Mix::Pick`] one pick, a [`Mix::Maybe`] a coin and, when it lands, a pick. So a game that
/// states its odds as a table draws the same random numbers as the hand-written code it replaces,
/// and its pinned self-played games do not move.
pub fn mix_policies<C, E>(
    config: &mut C,
    rows: &[Mix<'_>],
    rng: &mut AgentRng,
    set: impl Fn(&mut C, &str, &str) -> Result<(), E>,
) {
    for row in rows {
        let chosen = match *row {
            Mix::Coin { key, p, yes, no } => Some(key).zip(if rng.random_bool(p) { Some(yes) } else { no }),
            Mix::Pick { key, values } => Some(key).zip(values.choose(rng).copied()),
            Mix::Maybe { key, p, values } => {
                if rng.random_bool(p) {
                    Some(key).zip(values.choose(rng).copied())
                } else {
                    None
                }
            }
        };
        if let Some((key, value)) = chosen {
            // Every value comes from the game's policy table, so this cannot fail; a value it
            // refused would leave the default, which is still a legal game.
            let _ = set(config, key, value);
        }
    }
}
