//! Registration: creating the tournament, registering and late-entering players, dropping them,
//! and the one lookup of a player by the name as typed.

use super::{next_round, Violation};
use crate::tournament::events::{ConfigV1, RoundsPlan, TournamentEvent};
use crate::tournament::policy::TOP_CUT_BY_ATTENDANCE;
use crate::tournament::state::{fold_name, tie_key, OverrideKind, Player, Tournament};
use crate::tournament::TournamentError;

/// TOUR-REG-1..3 for `PlayerRegistered`, `LateEntered` and `LateEntryAdmitted` (with TOUR-OVER-1).
pub(super) fn check_entry(state: &Tournament, event: &TournamentEvent, v: &mut Vec<Violation>) {
    let (TournamentEvent::PlayerRegistered { player, .. }
    | TournamentEvent::LateEntered { player, .. }
    | TournamentEvent::LateEntryAdmitted { player, .. }) = event
    else {
        return;
    };
    check_name(player, v);
    if state.index.contains_key(player) {
        v.push(Violation::new("TOUR-REG-2", format!("{player:?} is already registered")));
    } else if let Some(&p) = state.folded.get(&fold_name(player)) {
        v.push(Violation::new(
            "TOUR-REG-2",
            format!("{player:?} is already registered as {:?} (names ignore case)", state.players[p].name),
        ));
    }
    match event {
        TournamentEvent::PlayerRegistered { .. } if !state.rounds.is_empty() => {
            v.push(Violation::new("TOUR-REG-3", "round 1 is already paired: register latecomers as late entries"))
        }
        TournamentEvent::LateEntered { first_round, .. } => check_late(state, *first_round, v),
        TournamentEvent::LateEntryAdmitted { first_round, by, reason, .. } => {
            super::overrides::check_author(by, reason, v);
            check_late(state, *first_round, v)
        }
        _ => {}
    }
}

/// TOUR-REG-1: the form of a name.
fn check_name(player: &str, v: &mut Vec<Violation>) {
    let mut bad = |m: String| v.push(Violation::new("TOUR-REG-1", m));
    if player.trim().is_empty() {
        bad("a player's name cannot be empty".into());
    } else if player.trim() != player {
        bad(format!("{player:?} has spaces around it: register it trimmed"));
    }
    // The one name bound (since 0.1.0 here, where it also holds for stored events).
    let max = crate::log::limits::NAME_MAX;
    if player.chars().count() > max {
        bad(format!("a player's name has at most {max} characters"));
    }
    if player == "-" {
        bad("\"-\" is reserved (it marks a bye in imports)".into());
    }
}

/// TOUR-REG-3 for a late entry.
fn check_late(state: &Tournament, first_round: u32, v: &mut Vec<Violation>) {
    let mut bad = |m: String| v.push(Violation::new("TOUR-REG-3", m));
    if state.rounds.is_empty() {
        bad("no round is paired yet: register the player normally".into());
    }
    if state.rounds.iter().any(|r| r.top_cut) {
        bad("the Swiss rounds are over".into());
    }
    let next = next_round(state);
    if first_round != next {
        bad(format!("a late entrant starts in the next round, {next}, not {first_round}"));
    }
}

/// TOUR-REG-4 and TOUR-REG-5 for `PlayerDropped`.
pub(super) fn check_drop(state: &Tournament, player: &str, after_round: u32, v: &mut Vec<Violation>) {
    let Some(p) = state.player(player) else {
        v.push(Violation::new("TOUR-REG-4", state.unknown(player)));
        return;
    };
    if state.players[p].dropped_after.is_some() {
        v.push(Violation::new("TOUR-REG-5", format!("{player} already dropped")));
    }
    let cur = state.rounds.len() as u32;
    if after_round != cur {
        v.push(Violation::new(
            "TOUR-REG-5",
            format!("a drop takes effect after the current round {cur}, not {after_round}"),
        ));
    }
}

/// A registered player's name as recorded, from a name typed in any case with spaces around it:
/// the one lookup the CLI and the server use (TOUR-REG-4 when there is none).
pub fn resolve(state: &Tournament, typed: &str) -> Result<String, TournamentError> {
    match state.find(typed) {
        Some(p) => Ok(state.players[p].name.clone()),
        None => Err(TournamentError::UnknownPlayer(Violation::new("TOUR-REG-4", state.unknown(typed.trim())))),
    }
}

pub(super) fn created(state: &mut Tournament, config: &ConfigV1) {
    if state.config.is_some() {
        return;
    }
    state.config = Some(config.clone());
    if let RoundsPlan::Fixed(n) = config.rounds {
        state.swiss_rounds = Some(n);
    }
    if config.top_cut != TOP_CUT_BY_ATTENDANCE {
        state.top_cut = Some(config.top_cut);
    }
    state.tie_key = tie_key(config);
}

/// Folds a registration or a late entry (an unattributed `LateEntered` or an admitted one, both
/// kept as overrides for `verify`).
pub(super) fn entered(state: &mut Tournament, event: &TournamentEvent) {
    match event {
        TournamentEvent::PlayerRegistered { player, deck } => registered(state, player, deck, 1),
        TournamentEvent::LateEntered { player, deck, first_round } => {
            registered(state, player, deck, *first_round);
            state.record_override(*first_round, OverrideKind::LateEntry { player: player.clone() }, "", "");
        }
        TournamentEvent::LateEntryAdmitted { player, deck, first_round, by, reason } => {
            registered(state, player, deck, *first_round);
            state.record_override(*first_round, OverrideKind::LateEntry { player: player.clone() }, by, reason);
        }
        _ => {}
    }
}

/// A registration (`first_round` 1) or a late entry: earlier rounds count as losses.
pub(super) fn registered(state: &mut Tournament, name: &str, deck: &Option<String>, first_round: u32) {
    if !state.index.contains_key(name) {
        let at = state.players.len();
        state.folded.entry(fold_name(name)).or_insert(at);
        state.index.insert(name.to_string(), at);
        state.players.push(Player {
            name: name.to_string(),
            deck: deck.clone(),
            first_round: first_round.max(1),
            dropped_after: None,
            penalties: vec![],
            deck_list: None,
        });
        state.tallies.grow(state.players.len());
    }
    if let Some(p) = state.player(name) {
        if first_round > 1 {
            state.tallies.missed(p, first_round - 1);
        }
    }
}

pub(super) fn dropped(state: &mut Tournament, player: &str, after_round: u32) {
    if let Some(p) = state.player(player) {
        state.players[p].dropped_after.get_or_insert(after_round);
    }
}
