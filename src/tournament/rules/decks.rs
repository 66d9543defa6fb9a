//! Deck lists registered for the event: who may register one and until when (TOUR-DECK-*), and
//! the commitment each player's latest registration leaves in the state.

use super::Violation;
use crate::game::commit::Commitment;
use crate::tournament::state::Tournament;

/// TOUR-DECK-1 and TOUR-DECK-2 for `DeckListRegistered`.
pub(super) fn check_registration(state: &Tournament, player: &str, v: &mut Vec<Violation>) {
    match state.player(player).and_then(|i| state.players.get(i)) {
        None => v.push(Violation::new("TOUR-DECK-1", state.unknown(player))),
        Some(p) if p.dropped_after.is_some() => {
            v.push(Violation::new("TOUR-DECK-1", format!("{player} has dropped: their list is no longer needed")))
        }
        Some(_) => {}
    }
    if !state.rounds.is_empty() {
        v.push(Violation::new(
            "TOUR-DECK-2",
            "round 1 is paired: deck lists are locked once play starts (a judge corrects one with a ruling)",
        ));
    }
}

/// The player's latest list stands.
pub(super) fn registered(state: &mut Tournament, player: &str, commitment: Commitment) {
    if let Some(p) = state.player(player).and_then(|i| state.players.get_mut(i)) {
        p.deck_list = Some(commitment);
    }
}
