//! kifu as the dealer of a digital game: the seeds it holds for a game it created, the cards it
//! deals from them, and where it keeps them.
//!
//! A digital game's shuffles follow a committed seed (`game::commit`); whoever holds the seed
//! knows every card a draw takes. When kifu creates such a game (`kifu game new`, `POST
//! /api/v1/games`) it is that dealer: it draws the seed, keeps it in an owner-only file beside the
//! store, and records what the seed fully determines as automatic steps (the commitment first,
//! the seeded shuffles, a draw no one chooses, the reveal once the game is over;
//! [`Game::dealt`](super::Game::dealt)). A draw whose timing a seat chooses (a refill) is the
//! seat's option with a [`ParamKind::Dealt`](super::options::ParamKind::Dealt) parameter, which
//! kifu fills from the seed when the pick is recorded; no seat ever sees the order before it
//! draws. The seed is kept by the CLI or server that created the game (`store::kept`): this
//! module does no IO. Self-play's agents hold their seeds the same way ([`AgentSecrets`]) and play through
//! the same functions, so a dealt game and a self-played one have the same shape.

use super::commit::{AgentSecrets, CommitmentLedger, Secret};
use super::driver::Driver;
use super::record::GameError;
use crate::log::chain::Head;
use crate::log::envelope::StreamId;
use crate::store::{Store, StoreError};

/// The next `n` cards off the top of `pile`, in the order the seed gives them: what the dealer
/// deals. `None` when the pile holds fewer than `n` cards or its order does not follow the seed.
pub fn deal(ledger: &CommitmentLedger, pile: &str, seed: &Secret, n: usize) -> Option<Vec<String>> {
    let mut ledger = ledger.clone();
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let top = ledger.predicted_top(pile, seed)?;
        ledger.deck_took_top(pile, &top);
        out.push(top);
    }
    Some(out)
}

/// The seeds kept for a game (`store::kept`) as the dealer holds them.
pub fn from_kept(seeds: Vec<(String, Secret)>) -> AgentSecrets {
    let mut secrets = AgentSecrets::default();
    secrets.seeds.extend(seeds);
    secrets
}

/// A dealer holding `seed` under `key` (the CLI and the server draw it from the operating
/// system's randomness when they create a digital game).
pub fn holding(key: &str, seed: Secret) -> AgentSecrets {
    let mut secrets = AgentSecrets::default();
    secrets.seeds.insert(key.to_string(), seed);
    secrets
}

/// Makes kifu the dealer of game `id`, created just now by `driver`: when its configuration
/// deals from a dealer's seed, hands `seed` under that key to `keep` (the caller keeps it,
/// owner-only, beside the store: `store::kept`) and records what the seed determines at once
/// (its commitment, the seeded shuffles), in one append. Returns the head after, or `None` when
/// the game deals nothing from a dealer's seed.
pub fn deal_new_game(
    driver: &dyn Driver,
    store: &dyn Store,
    id: &StreamId,
    seed: Secret,
    keep: impl FnOnce(&[(String, Secret)]) -> Result<(), StoreError>,
) -> Result<Option<Head>, GameError> {
    let mut session = driver.open(&store.export(id)?)?;
    let Some(key) = session.dealer_key() else { return Ok(None) };
    keep(&[(key.to_string(), seed)])?;
    session.set_dealer(Some(holding(key, seed)));
    session.settle(store)?;
    Ok(Some(session.head()))
}
