//! Penalties: a judge's warning, game loss, match loss or disqualification, and what a game or
//! match loss requires of its round's result (checked both ways: a penalty after the result, a
//! result after the penalty).

use super::Violation;
use crate::tournament::events::{MatchScore, Penalty, TournamentEvent};
use crate::tournament::state::{TableState, Tournament};

/// TOUR-PEN-1..4 and TOUR-REG-4 for `PenaltyIssued`.
pub(super) fn check_penalty(state: &Tournament, event: &TournamentEvent, v: &mut Vec<Violation>) {
    let TournamentEvent::PenaltyIssued { player, judge, reason, round, penalty } = event else { return };
    if judge.trim().is_empty() {
        v.push(Violation::new("TOUR-PEN-1", "a penalty names the judge"));
    }
    if reason.trim().is_empty() {
        v.push(Violation::new("TOUR-PEN-1", "a penalty gives its reason"));
    }
    let cur = state.rounds.len() as u32;
    if *round > cur.max(1) {
        v.push(Violation::new("TOUR-PEN-2", format!("round {round} is not paired yet (the current round is {cur})")));
    }
    let Some(p) = state.player(player) else {
        v.push(Violation::new("TOUR-REG-4", state.unknown(player)));
        return;
    };
    if *penalty == Penalty::Disqualification && state.players[p].dropped_after.is_some() {
        v.push(Violation::new("TOUR-PEN-3", format!("{player} already left the tournament")));
    }
    if matches!(penalty, Penalty::GameLoss | Penalty::MatchLoss) {
        check_against_result(state, p, *round, *penalty, v);
    }
}

/// TOUR-PEN-4: a game or match loss issued after its round's result must be in that result.
fn check_against_result(state: &Tournament, p: usize, round: u32, penalty: Penalty, v: &mut Vec<Violation>) {
    let table =
        state.rounds.iter().find(|r| r.round == round).and_then(|r| r.tables.iter().find(|t| t.a == p || t.b == p));
    let Some((t, s)) = table.and_then(|t| Some((t, t.result?))) else { return };
    let mine = if t.a == p { s } else { s.swapped() };
    if !included(penalty, mine) {
        let what = if penalty == Penalty::MatchLoss { "match loss" } else { "game loss" };
        v.push(Violation::new(
            "TOUR-PEN-4",
            format!(
                "round {round} table {} already has the result {s}, which does not include this {what}; correct \
                 the result with it",
                t.table
            ),
        ));
    }
}

/// Whether a result `mine` (from the penalized player's side) includes a game or match loss.
fn included(penalty: Penalty, mine: MatchScore) -> bool {
    match penalty {
        Penalty::MatchLoss => mine.b_wins > mine.a_wins,
        Penalty::GameLoss => mine.b_wins >= 1,
        _ => true,
    }
}

/// TOUR-PEN-4 the other way: the game or match losses of `round` a result at `t` must include.
pub(super) fn check_conflicts(
    state: &Tournament,
    round: u32,
    t: &TableState,
    score: MatchScore,
    v: &mut Vec<Violation>,
) {
    for (p, mine) in [(t.a, score), (t.b, score.swapped())] {
        let Some(pl) = state.players.get(p) else { continue };
        for (_, pen, _) in pl.penalties.iter().filter(|(r, _, _)| *r == round) {
            if included(*pen, mine) {
                continue;
            }
            let name = &pl.name;
            let msg = match pen {
                Penalty::MatchLoss => {
                    format!("{name} has a match loss penalty in round {round}: the result must be a loss")
                }
                _ => format!("{name} has a game loss penalty in round {round}: the opponent won at least one game"),
            };
            v.push(Violation::new("TOUR-PEN-4", msg));
        }
    }
}

/// A disqualification drops the player after the current round.
pub(super) fn issued(state: &mut Tournament, player: &str, round: u32, penalty: Penalty, reason: &str) {
    let Some(p) = state.player(player) else { return };
    state.players[p].penalties.push((round, penalty, reason.to_string()));
    if penalty == Penalty::Disqualification {
        let cur = state.rounds.len() as u32;
        state.players[p].dropped_after.get_or_insert(cur);
    }
}
