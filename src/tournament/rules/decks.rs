//! Deck lists registered for the event: who may register one and until when (TOUR-DECK-*), and
//! the commitment each player's latest registration leaves in the state.

use super::Violation;
use crate::game::commit::Commitment;
use crate::tournament::state::Tournament;

/// TOUR-DECK-1 and TOUR-DECK-2 for `DeckListRegistered`: a registered player who has not dropped,
/// before their first round is paired.
pub(super) fn check_registration(state: &Tournament, player: &str, v: &mut Vec<Violation>) {
    let Some(p) = state.player(player).and_then(|i| state.players.get(i)) else {
        v.push(Violation::new("TOUR-DECK-1", state.unknown(player)));
        return;
    };
    if p.dropped_after.is_some() {
        v.push(Violation::new("TOUR-DECK-1", format!("{player} has dropped: their list is no longer needed")));
    }
    // A player's list locks when their own first round is paired: round 1 for everyone who
    // registered before it, a later round for a late entrant (who could register no list at all
    // while the lock was round 1 for everyone). Only lists the old rule refused are admitted, so
    // every recorded log folds and verifies as before.
    if state.rounds.iter().any(|r| r.round >= p.first_round) {
        let first = if p.first_round > 1 {
            format!("{player}'s first round, {}, is paired", p.first_round)
        } else {
            "round 1 is paired".to_string()
        };
        v.push(Violation::new(
            "TOUR-DECK-2",
            format!("{first}: deck lists are locked once play starts (a judge changes one, with a reason)"),
        ));
    }
}

/// The player's latest list stands.
pub(super) fn registered(state: &mut Tournament, player: &str, commitment: Commitment) {
    if let Some(p) = state.player(player).and_then(|i| state.players.get_mut(i)) {
        p.deck_list = Some(commitment);
    }
}

/// TOUR-DECK-3 for `DeckListChanged`: a judge or organizer changes a registered list, with a
/// reason (before the lock, the player simply registers again).
pub(super) fn check_change(state: &Tournament, player: &str, judge: &str, reason: &str, v: &mut Vec<Violation>) {
    match state.player(player).and_then(|i| state.players.get(i)) {
        None => v.push(Violation::new("TOUR-DECK-1", state.unknown(player))),
        Some(p) if p.deck_list.is_none() => v.push(Violation::new(
            "TOUR-DECK-3",
            format!("{player} has registered no deck list: there is nothing to change (register one)"),
        )),
        Some(_) => {}
    }
    super::judge_and_reason("TOUR-DECK-3", "a deck list change", judge, reason, v);
}

/// TOUR-DECK-4 for `DeckChecked`: a paired round (and one of its tables, if named, the
/// player's), a judge, and a player with a registered list to compare with.
pub(super) fn check_deck_check(
    state: &Tournament,
    round: u32,
    table: Option<u32>,
    judge: &str,
    player: &str,
    v: &mut Vec<Violation>,
) {
    let who = state.player(player);
    match who.and_then(|i| state.players.get(i)) {
        None => v.push(Violation::new("TOUR-DECK-1", state.unknown(player))),
        Some(p) if p.deck_list.is_none() => v.push(Violation::new(
            "TOUR-DECK-4",
            format!("{player} has registered no deck list: there is nothing to check the deck against"),
        )),
        Some(_) => {}
    }
    if judge.trim().is_empty() {
        v.push(Violation::new("TOUR-DECK-4", "a deck check names the judge"));
    }
    let Some(r) = state.rounds.iter().find(|r| r.round == round) else {
        v.push(Violation::new(
            "TOUR-DECK-4",
            format!("round {round} is not paired: a deck check is in a paired round"),
        ));
        return;
    };
    if let (Some(t), Some(i)) = (table, who) {
        let seated = r.tables.iter().find(|x| x.table == t).map(|x| x.a == i || x.b == i);
        let seated = seated.or_else(|| r.pods.iter().find(|x| x.pod == t).map(|x| x.seats.contains(&i)));
        match seated {
            None => v.push(Violation::new("TOUR-DECK-4", format!("round {round} has no table {t}"))),
            Some(false) => {
                v.push(Violation::new("TOUR-DECK-4", format!("{player} does not sit at table {t} in round {round}")))
            }
            Some(true) => {}
        }
    }
}

/// The check is on the record: (round, table, judge, player, result).
pub(super) fn checked(state: &mut Tournament, event: &crate::tournament::events::TournamentEvent) {
    if let crate::tournament::events::TournamentEvent::DeckChecked { round, table, at, judge, player, result } = event {
        state.deck_checks.push(crate::tournament::state::DeckCheck {
            round: *round,
            table: *table,
            at: *at,
            judge: judge.clone(),
            player: player.clone(),
            result: result.clone(),
        });
    }
}
