//! Penalties: a judge's warning, game loss, match loss or disqualification, and what a game or
//! match loss requires of its round's result (checked both ways: a penalty after the result, a
//! result after the penalty).

use super::Violation;
use crate::tournament::events::{MatchScore, Penalty, TournamentEvent};
use crate::tournament::state::{TableState, Tournament};

/// TOUR-PEN-1..6 and TOUR-REG-4 for `PenaltyIssued` and `InfractionPenalized`.
pub(super) fn check_penalty(state: &Tournament, event: &TournamentEvent, v: &mut Vec<Violation>) {
    let (player, judge, reason, round, penalty) = match event {
        TournamentEvent::PenaltyIssued { player, judge, reason, round, penalty } => {
            (player, judge, reason, round, penalty)
        }
        TournamentEvent::InfractionPenalized { player, judge, reason, round, penalty, .. } => {
            (player, judge, reason, round, penalty)
        }
        _ => return,
    };
    let pokemon = state.config.as_ref().is_some_and(|c| c.policy == crate::tournament::Policy::Pokemon);
    if !pokemon && matches!(penalty, Penalty::Caution | Penalty::DoublePrizeCard | Penalty::QuadPrizeCard) {
        v.push(Violation::new(
            "TOUR-PEN-6",
            format!("{} is a Play! Pokémon penalty; this event's policy does not give it", penalty.name()),
        ));
    }
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
    if let TournamentEvent::InfractionPenalized { infraction, downgrade, call, .. } = event {
        check_infraction(state, p, infraction, *penalty, downgrade.as_deref(), v);
        if let Some(c) = call {
            if state.calls.get((*c as usize).wrapping_sub(1)).is_none() {
                v.push(Violation::new("TOUR-CALL-2", format!("there is no call {c}")));
            }
        }
    }
}

/// The penalties standing for player `p`'s earlier offences of `code`, in order.
pub(crate) fn prior_offences(state: &Tournament, p: usize, code: &str) -> Vec<Penalty> {
    state
        .penalty_log
        .iter()
        .filter(|r| r.player == p && r.infraction.as_deref() == Some(code))
        .filter_map(|r| r.standing)
        .collect()
}

/// TOUR-PEN-5: the infraction is in the policy's table, and the penalty is the one the policy
/// gives for it (its default, upgraded for a repeat), or lighter with the downgrade's reason.
fn check_infraction(
    state: &Tournament,
    p: usize,
    code: &str,
    penalty: Penalty,
    downgrade: Option<&str>,
    v: &mut Vec<Violation>,
) {
    let Some(config) = &state.config else { return };
    let Some(row) = crate::tournament::judging::infraction(&config.policy, code) else {
        let codes: Vec<&str> = crate::tournament::judging::table(&config.policy).iter().map(|i| i.code).collect();
        let msg = if codes.is_empty() {
            format!("the {} policy has no infraction table; issue a plain penalty", config.policy.name())
        } else {
            format!("{code:?} is not an infraction of the {} policy ({})", config.policy.name(), codes.join(", "))
        };
        v.push(Violation::new("TOUR-PEN-5", msg));
        return;
    };
    let prior = prior_offences(state, p, row.code);
    let (expected, upgraded) = crate::tournament::judging::expected(row, &prior);
    let nth = prior.len() + 1;
    let gives = format!(
        "the policy gives {} for {} (offence {nth} of it in this event{})",
        expected.name(),
        row.name,
        if upgraded { ", upgraded" } else { "" }
    );
    let downgrade = downgrade.map(str::trim).filter(|d| !d.is_empty());
    if penalty.severity() > expected.severity() {
        v.push(Violation::new("TOUR-PEN-5", format!("{gives}: {} is heavier than that", penalty.name())));
    } else if penalty.severity() < expected.severity() && downgrade.is_none() {
        v.push(Violation::new(
            "TOUR-PEN-5",
            format!("{gives}: a lighter {} is a downgrade and gives its reason", penalty.name()),
        ));
    } else if penalty == expected && downgrade.is_some() {
        v.push(Violation::new("TOUR-PEN-5", format!("{gives}: a downgrade gives a lighter penalty than that")));
    }
}

/// TOUR-PEN-4: a game or match loss issued after its round's result must be in that result.
pub(super) fn check_against_result(state: &Tournament, p: usize, round: u32, penalty: Penalty, v: &mut Vec<Violation>) {
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

/// A penalty recorded: in the log of penalties (numbered) and the player's standing ones. A
/// disqualification drops the player after the current round.
pub(super) fn issued(state: &mut Tournament, event: &TournamentEvent) {
    let (player, round, penalty, judge, reason, infraction, downgrade, call) = match event {
        TournamentEvent::PenaltyIssued { player, round, penalty, judge, reason } => {
            (player, *round, *penalty, judge, reason, None, None, None)
        }
        TournamentEvent::InfractionPenalized { player, round, infraction, penalty, judge, reason, downgrade, call } => {
            (player, *round, *penalty, judge, reason, Some(infraction), downgrade.clone(), *call)
        }
        _ => return,
    };
    let Some(p) = state.player(player) else { return };
    let upgraded = match (infraction, &state.config) {
        (Some(code), Some(c)) => crate::tournament::judging::infraction(&c.policy, code).is_some_and(|row| {
            let (expected, up) = crate::tournament::judging::expected(row, &prior_offences(state, p, row.code));
            up && expected == penalty
        }),
        _ => false,
    };
    state.players[p].penalties.push((round, penalty, reason.to_string()));
    let mut dropped = None;
    if penalty == Penalty::Disqualification && state.players[p].dropped_after.is_none() {
        let cur = state.rounds.len() as u32;
        state.players[p].dropped_after = Some(cur);
        dropped = Some(cur);
    }
    let number = state.penalty_log.len() as u32 + 1;
    state.penalty_log.push(crate::tournament::judging::PenaltyRecord {
        number,
        player: p,
        round,
        infraction: infraction.map(|c| c.trim().to_lowercase()),
        issued: penalty,
        upgraded,
        downgrade,
        judge: judge.clone(),
        reason: reason.clone(),
        call,
        standing: Some(penalty),
        dropped,
    });
}

/// Player `p`'s standing penalties rebuilt from the log (after an appeal changed one).
pub(super) fn restand(state: &mut Tournament, p: usize) {
    let standing: Vec<(u32, Penalty, String)> = state
        .penalty_log
        .iter()
        .filter(|r| r.player == p)
        .filter_map(|r| Some((r.round, r.standing?, r.reason.clone())))
        .collect();
    if let Some(pl) = state.players.get_mut(p) {
        pl.penalties = standing;
    }
}
