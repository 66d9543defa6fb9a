//! Results: reporting and correcting a table's match score, and the match format it is checked
//! against.

use super::{judge_and_reason, penalties, Violation};
use crate::tournament::events::{GameLink, MatchScore, TournamentEvent, FORMATS};
use crate::tournament::standings::MatchRecord;
use crate::tournament::state::Tournament;

/// TOUR-RESULT-1..4 and TOUR-PEN-4 for `ResultReported`, `ResultCorrected` and `ResultEntered`
/// (with TOUR-OVER-1).
pub(super) fn check_result(state: &Tournament, event: &TournamentEvent, v: &mut Vec<Violation>) {
    let (round, table, score, correction) = match event {
        TournamentEvent::ResultReported { round, table, score, .. } => (*round, *table, *score, None),
        TournamentEvent::ResultEntered { round, table, score, by, reason, .. } => {
            super::overrides::check_author(by, reason, v);
            (*round, *table, *score, None)
        }
        TournamentEvent::ResultCorrected { round, table, score, judge, reason, .. } => {
            (*round, *table, *score, Some((judge, reason)))
        }
        _ => return,
    };
    if let Some((judge, reason)) = correction {
        judge_and_reason("TOUR-RESULT-4", "a correction", judge, reason, v);
    }
    let Some(r) = state.rounds.iter().find(|r| r.round == round) else {
        v.push(Violation::new("TOUR-RESULT-1", format!("round {round} is not paired")));
        return;
    };
    let Some(t) = r.table_at(table).map(|i| &r.tables[i]) else {
        v.push(Violation::new("TOUR-RESULT-1", format!("round {round} has no table {table}")));
        return;
    };
    check_once(correction.is_some(), t.result.is_some(), &format!("round {round} table {table}"), v);
    match state.best_of {
        Some(n) => {
            if let Err(e) = score.check(n, r.top_cut) {
                v.push(Violation::new(e.rule, format!("round {round} table {table}: {}", e.message)));
            }
        }
        None if r.top_cut && score.a_wins == score.b_wins => {
            v.push(Violation::new("TOUR-RESULT-3", "a top-cut match needs a winner"))
        }
        None => {}
    }
    penalties::check_conflicts(state, round, t, score, v);
}

/// TOUR-RESULT-2: a report for a match without a result, a correction for one with a result.
pub(super) fn check_once(corrected: bool, has_result: bool, at: &str, v: &mut Vec<Violation>) {
    if corrected && !has_result {
        v.push(Violation::new("TOUR-RESULT-2", format!("{at} has no result to correct; report it")));
    }
    if !corrected && has_result {
        v.push(Violation::new(
            "TOUR-RESULT-2",
            format!("{at} already has a result; a judge corrects it with a reason"),
        ));
    }
}

/// TOUR-RESULT-5 for `MatchFormatSet`.
pub(super) fn check_format(state: &Tournament, best_of: u32, v: &mut Vec<Violation>) {
    let mut bad = |m: String| v.push(Violation::new("TOUR-RESULT-5", m));
    if !FORMATS.contains(&best_of) {
        bad(format!("best of {best_of}: kifu plays best of 1, 3 or 5"));
    }
    if !state.rounds.is_empty() {
        bad("the match format is set before round 1 is paired".into());
    }
    if state.best_of.is_some() {
        bad("the match format is already set".into());
    }
}

/// A report or a correction: the Swiss tallies trade the old score for the new one.
pub(super) fn reported(
    state: &mut Tournament,
    round: u32,
    table: u32,
    score: MatchScore,
    games: &[GameLink],
    corrected: bool,
) {
    let Some(r) = state.rounds.iter_mut().find(|r| r.round == round) else { return };
    let top_cut = r.top_cut;
    let Some(i) = r.table_at(table) else { return };
    let t = &mut r.tables[i];
    let old = t.result.replace(score);
    t.games = games.to_vec();
    if corrected {
        t.corrections += 1;
    }
    if top_cut {
        return;
    }
    let (a, b) = (t.a, t.b);
    let rec = |s: MatchScore| MatchRecord { a, b: Some(b), a_wins: s.a_wins, b_wins: s.b_wins, draws: s.draws };
    if let Some(o) = old {
        state.tallies.remove(&rec(o));
    }
    state.tallies.add(&rec(score));
}
