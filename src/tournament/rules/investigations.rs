//! Investigations: statements taken by judges (sealed in the log, the text kept privately) and
//! the head judge's signed disqualification report (TOUR-CASE-*).

use super::Violation;
use crate::tournament::events::{Penalty, TournamentEvent};
use crate::tournament::state::{DqReport, Statement, Tournament};

/// TOUR-CASE-1 for `StatementRecorded`: about a registered player, given by someone named, taken
/// by a named judge.
pub(super) fn check_statement(state: &Tournament, player: &str, author: &str, judge: &str, v: &mut Vec<Violation>) {
    if state.player(player).is_none() {
        v.push(Violation::new(
            "TOUR-CASE-1",
            format!("a statement is about a player of the event: {}", state.unknown(player)),
        ));
    }
    if author.trim().is_empty() {
        v.push(Violation::new("TOUR-CASE-1", "a statement names who gave it"));
    }
    if judge.trim().is_empty() {
        v.push(Violation::new("TOUR-CASE-1", "a statement names the judge who took it"));
    }
}

/// TOUR-CASE-2 for `DisqualificationReported`: by the head judge the event named, who has a
/// recorded key, for a disqualification of `player` that stands, once, with facts and reasons.
/// (The signature itself is checked where the tournament's id is known: when it is recorded, and
/// by `verify`.)
pub(super) fn check_report(state: &Tournament, event: &TournamentEvent, v: &mut Vec<Violation>) {
    let TournamentEvent::DisqualificationReported { player, penalty, head_judge, facts, reasons, signature, .. } =
        event
    else {
        return;
    };
    let mut bad = |m: String| v.push(Violation::new("TOUR-CASE-2", m));
    match &state.head_judge {
        None => bad("name the event's head judge first: a disqualification report is the head judge's".into()),
        Some(hj) if hj != head_judge => {
            bad(format!("a disqualification report is signed by the event's head judge, {hj}, not {head_judge}"))
        }
        Some(_) => {}
    }
    if !state.signers.iter().any(|(n, _)| n == head_judge) {
        bad(format!("{head_judge} has no recorded key: record it with `kifu tournament signer` first"));
    }
    if signature.len() != 64 {
        bad(format!("a signature has 64 bytes, not {}", signature.len()));
    }
    if facts.trim().is_empty() || reasons.trim().is_empty() {
        bad("a disqualification report gives the facts found and the reasons".into());
    }
    let Some(p) = state.player(player) else {
        bad(state.unknown(player));
        return;
    };
    match state.penalty_log.get((*penalty as usize).wrapping_sub(1)) {
        None => bad(format!("there is no penalty {penalty} (penalties so far: {})", state.penalty_log.len())),
        Some(r) if r.player != p => bad(format!("penalty {penalty} is not {player}'s")),
        Some(r) if r.standing != Some(Penalty::Disqualification) => bad(format!(
            "{player} has no disqualification to report: penalty {penalty} stands as {}",
            r.standing.map_or("overturned", |s| s.name())
        )),
        Some(_) => {}
    }
    if state.dq_reports.iter().any(|r| r.penalty == *penalty) {
        bad(format!("penalty {penalty} already has its disqualification report"));
    }
}

pub(super) fn apply(state: &mut Tournament, event: &TournamentEvent) {
    match event {
        TournamentEvent::StatementRecorded { player, by, author, judge, at, statement } => {
            state.statements.push(Statement {
                number: state.statements.len() as u32 + 1,
                player: player.clone(),
                by: *by,
                author: author.clone(),
                judge: judge.clone(),
                at: *at,
                commitment: *statement,
            })
        }
        TournamentEvent::DisqualificationReported { player, penalty, head_judge, facts, reasons, at, signature } => {
            state.dq_reports.push(DqReport {
                player: player.clone(),
                penalty: *penalty,
                head_judge: head_judge.clone(),
                facts: facts.clone(),
                reasons: reasons.clone(),
                at: *at,
                signature: signature.clone(),
            })
        }
        _ => {}
    }
}
