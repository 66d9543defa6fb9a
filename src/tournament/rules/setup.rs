//! An event's setup after its creation, as the organizer's page makes it: the top cut's size
//! (changeable until the cut starts), the floor judges, whether deck lists are required, the
//! event's time zone, and archiving a mistaken event (kept on the record, hidden from the lists).

use super::Violation;
use crate::tournament::events::TournamentEvent;
use crate::tournament::state::Tournament;

/// Whether `zone` reads as an IANA time zone name (`Area/City`, `Area/City_Name`,
/// `America/Argentina/Salta`) or `UTC`: the pages hand it to the browser's time formatting.
pub fn is_zone_name(zone: &str) -> bool {
    if zone == "UTC" {
        return true;
    }
    let parts: Vec<&str> = zone.split('/').collect();
    let part_ok = |p: &&str| {
        p.chars().next().is_some_and(|c| c.is_ascii_uppercase())
            && p.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '+'))
    };
    zone.len() <= 64 && parts.len() >= 2 && parts.iter().all(part_ok)
}

/// TOUR-CUT-5, TOUR-ARCH-1, TOUR-STAFF-1, TOUR-STAFF-2 and TOUR-DECK-5 (setting the requirement).
pub(super) fn check(state: &Tournament, event: &TournamentEvent, v: &mut Vec<Violation>) {
    match event {
        TournamentEvent::TopCutSet { top_cut, by } => check_cut(state, *top_cut, by, v),
        TournamentEvent::TournamentArchived { by, reason } if by.trim().is_empty() || reason.trim().is_empty() => {
            v.push(Violation::new("TOUR-ARCH-1", "archiving an event names the organizer and gives the reason"))
        }
        TournamentEvent::JudgeNamed { judge } => {
            if judge.trim().is_empty() || judge.trim() != judge {
                v.push(Violation::new("TOUR-STAFF-1", "a judge has a name (trimmed, not empty)"));
            } else if state.judges.iter().any(|j| j.to_lowercase() == judge.to_lowercase()) {
                v.push(Violation::new("TOUR-STAFF-1", format!("{judge} is already one of the event's judges")));
            }
        }
        TournamentEvent::TimeZoneSet { zone } if !is_zone_name(zone) => v.push(Violation::new(
            "TOUR-STAFF-2",
            format!("{zone:?} is not a time zone name: use an IANA name such as Europe/Paris, or UTC"),
        )),
        TournamentEvent::DeckListsRequired { .. } if !state.rounds.is_empty() => v.push(Violation::new(
            "TOUR-DECK-5",
            "deck lists are required before round 1 is paired, not once play has started",
        )),
        _ => {}
    }
}

/// TOUR-CUT-5: 0 or a power of two, by a named official, in a two-player event, before the top
/// cut's first round.
fn check_cut(state: &Tournament, k: u32, by: &str, v: &mut Vec<Violation>) {
    if by.trim().is_empty() {
        v.push(Violation::new("TOUR-CUT-5", "setting the top cut names the official who set it"));
    }
    if !(k == 0 || (k >= 2 && k.is_power_of_two() && k <= 1024)) {
        v.push(Violation::new("TOUR-CUT-5", format!("the top cut is 0 or a power of two (2, 4, 8, ...), not {k}")));
    }
    if state.pod_format.is_some() {
        v.push(Violation::new("TOUR-CUT-5", "a pod event has no top cut: its placings are the pod standings"));
    }
    if let Some(r) = state.rounds.iter().find(|r| r.top_cut) {
        v.push(Violation::new(
            "TOUR-CUT-5",
            format!("the top cut started in round {}: its size can no longer change", r.round),
        ));
    }
}

/// TOUR-DECK-5: when deck lists are required, round 1 is paired only once every player in it
/// has registered one (the players without are named).
pub(super) fn check_lists_in(state: &Tournament, round: u32, v: &mut Vec<Violation>) {
    if round != 1 || state.decks_required.is_none() {
        return;
    }
    let missing: Vec<&str> = (0..state.players.len())
        .filter(|&p| state.active_in(p, 1) && state.players[p].deck_list.is_none())
        .map(|p| state.players[p].name.as_str())
        .collect();
    if !missing.is_empty() {
        let more = if missing.len() > 10 { format!(" and {} more", missing.len() - 10) } else { String::new() };
        v.push(Violation::new(
            "TOUR-DECK-5",
            format!(
                "deck lists are required and {} player(s) have none: {}{more}",
                missing.len(),
                missing.iter().take(10).copied().collect::<Vec<_>>().join(", ")
            ),
        ));
    }
}

/// Folds a setup event.
pub(super) fn apply(state: &mut Tournament, event: &TournamentEvent) {
    match event {
        TournamentEvent::TopCutSet { top_cut, .. } => {
            state.top_cut_set = Some(*top_cut);
            state.top_cut = Some(*top_cut);
        }
        TournamentEvent::TournamentArchived { by, reason } => {
            state.archived.get_or_insert((by.clone(), reason.clone()));
        }
        TournamentEvent::JudgeNamed { judge } if !state.judges.contains(judge) => state.judges.push(judge.clone()),
        TournamentEvent::DeckListsRequired { deadline } => state.decks_required = Some(*deadline),
        TournamentEvent::TimeZoneSet { zone } => state.time_zone = Some(zone.clone()),
        _ => {}
    }
}
