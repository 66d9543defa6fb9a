//! Overrides that stay on the record: an organizer or the head judge changes the latest Swiss
//! round's pairings by hand (swap two players, seat a player at a table for accessibility),
//! with a reason, before any result in it; late entries and results entered against the
//! players' reports name their author and reason by the same rule (TOUR-OVER-1). The round's `RoundPaired` stays in the log and is
//! still checked against its seed; `verify` lists the override with its author and reason, and
//! every later round is re-derived from the standings as they are.

use super::{check_seated, Violation};
use crate::tournament::events::{PairedTable, TournamentEvent};
use crate::tournament::standings::MatchRecord;
use crate::tournament::state::{OverrideKind, Tournament};

/// TOUR-OVER-1 and TOUR-OVER-2 (with TOUR-PAIR-5 and TOUR-PAIR-6) for `PairingOverridden`.
pub(super) fn check(state: &Tournament, event: &TournamentEvent, v: &mut Vec<Violation>) {
    let TournamentEvent::PairingOverridden { round, tables, byes, by, reason } = event else { return };
    check_author(by, reason, v);
    let Some(l) = state.rounds.last() else {
        v.push(Violation::new("TOUR-OVER-2", "no round is paired"));
        return;
    };
    if l.round != *round || l.top_cut || !l.pods.is_empty() {
        v.push(Violation::new(
            "TOUR-OVER-2",
            format!("only the latest Swiss round ({}) can be overridden, not round {round}", l.round),
        ));
        return;
    }
    if let Some(t) = l.tables.iter().find(|t| t.result.is_some()) {
        v.push(Violation::new(
            "TOUR-OVER-2",
            format!("round {round} table {} already has a result: pairings change only before any result", t.table),
        ));
    }
    check_seated(state, *round, tables.iter().flat_map(|t| [&t.a, &t.b]).chain(byes.iter()), "is seated twice", v);
    let seated = tables.len() * 2 + byes.len();
    let active = state.active_count(*round);
    if seated != active {
        v.push(Violation::new(
            "TOUR-OVER-2",
            format!("every player in round {round} sits once: {seated} seated, {active} in the round"),
        ));
    }
    if let Some((i, t)) = tables.iter().enumerate().find(|(i, t)| t.table != *i as u32 + 1) {
        v.push(Violation::new(
            "TOUR-PAIR-6",
            format!("tables must be numbered 1, 2, 3...: found {} at position {}", t.table, i + 1),
        ));
    }
    let name = |p: usize| state.players.get(p).map_or("", |x| x.name.as_str());
    let same_tables = l.tables.len() == tables.len()
        && l.tables.iter().zip(tables).all(|(a, b)| a.table == b.table && name(a.a) == b.a && name(a.b) == b.b);
    let same_byes = l.byes.len() == byes.len() && l.byes.iter().zip(byes).all(|(a, b)| name(*a) == b);
    if same_tables && same_byes {
        v.push(Violation::new("TOUR-OVER-2", "the override changes nothing"));
    }
}

/// The latest round's tables and byes replaced (its byes' points move with them), and the
/// override kept for `verify`.
pub(super) fn apply(state: &mut Tournament, event: &TournamentEvent) {
    let TournamentEvent::PairingOverridden { round, tables, byes, by, reason } = event else { return };
    if state.rounds.last().is_none_or(|l| l.round != *round || l.top_cut) {
        return;
    }
    let new_tables = state.table_states(tables);
    let new_byes: Vec<usize> = byes.iter().filter_map(|b| state.player(b)).collect();
    let Some(l) = state.rounds.last_mut() else { return };
    let old_byes = std::mem::replace(&mut l.byes, new_byes.clone());
    l.tables = new_tables;
    for b in old_byes {
        state.tallies.remove(&MatchRecord::bye(b));
    }
    for b in new_byes {
        state.tallies.add(&MatchRecord::bye(b));
    }
    state.record_override(*round, OverrideKind::Pairing, by, reason);
}

/// TOUR-OVER-1: an override names its author and its reason (pairings, late entries, results
/// entered against the players' reports).
pub(super) fn check_author(by: &str, reason: &str, v: &mut Vec<Violation>) {
    if by.trim().is_empty() || reason.trim().is_empty() {
        v.push(Violation::new("TOUR-OVER-1", "an override names who made it and gives its reason"));
    }
}

/// The latest round's pairings with two players' seats swapped (either may have the bye).
pub fn swapped(state: &Tournament, a: &str, b: &str) -> Option<(u32, Vec<PairedTable>, Vec<String>)> {
    let l = state.rounds.last()?;
    let name = |p: usize| state.players.get(p).map_or_else(String::new, |x| x.name.clone());
    let swap = |n: String| {
        if n == a {
            b.to_string()
        } else if n == b {
            a.to_string()
        } else {
            n
        }
    };
    let tables =
        l.tables.iter().map(|t| PairedTable { table: t.table, a: swap(name(t.a)), b: swap(name(t.b)) }).collect();
    let byes = l.byes.iter().map(|&x| swap(name(x))).collect();
    Some((l.round, tables, byes))
}

/// The latest round's pairings with the match at table `from` moved to table `to` (an
/// accessibility move): the match that sat at `to` takes `from`; every pairing stays as it was.
/// `None` when no round is paired or either table is not in it.
pub fn moved(state: &Tournament, from: u32, to: u32) -> Option<(u32, Vec<PairedTable>, Vec<String>)> {
    let l = state.rounds.last()?;
    let name = |p: usize| state.players.get(p).map_or_else(String::new, |x| x.name.clone());
    let (f, t) = (&l.tables[l.table_at(from)?], &l.tables[l.table_at(to)?]);
    let tables = l
        .tables
        .iter()
        .map(|tb| {
            let sits = if tb.table == from {
                t
            } else if tb.table == to {
                f
            } else {
                tb
            };
            PairedTable { table: tb.table, a: name(sits.a), b: name(sits.b) }
        })
        .collect();
    let byes = l.byes.iter().map(|&x| name(x)).collect();
    Some((l.round, tables, byes))
}
