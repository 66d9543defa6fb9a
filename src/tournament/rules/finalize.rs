//! Finalizing: normally once every planned round and the bracket are played, early by a judge
//! with a reason; either way after the pairing seed is revealed.

use super::{judge_and_reason, Violation};
use crate::tournament::state::Tournament;

/// TOUR-FINAL-2 and TOUR-SEED-4 for `Finalized`.
pub(super) fn check_finalized(state: &Tournament, v: &mut Vec<Violation>) {
    // 0.1.0 finalized whenever asked; its logs are checked by the rules they were played by.
    if !state.released_0_1 {
        for u in state.unfinished() {
            v.push(Violation::new("TOUR-FINAL-2", format!("{u}; a judge can finalize early with a reason")));
        }
    }
    check_revealed(state, v);
}

/// TOUR-FINAL-3 and TOUR-SEED-4 for `FinalizedEarly`.
pub(super) fn check_early(state: &Tournament, judge: &str, reason: &str, v: &mut Vec<Violation>) {
    judge_and_reason("TOUR-FINAL-3", "finalizing early", judge, reason, v);
    if state.unfinished().is_empty() {
        v.push(Violation::new("TOUR-FINAL-3", "the tournament is over: finalize it normally"));
    }
    check_revealed(state, v);
}

/// TOUR-SEED-4: a committed seed is revealed before finalizing.
fn check_revealed(state: &Tournament, v: &mut Vec<Violation>) {
    if state.commitment().is_some() && state.revealed_seed.is_none() {
        v.push(Violation::new("TOUR-SEED-4", "reveal the pairing seed before finalizing"));
    }
}

pub(super) fn early(state: &mut Tournament, judge: &str, reason: &str) {
    state.finalized = true;
    state.finalized_early = Some((judge.to_string(), reason.to_string()));
}
