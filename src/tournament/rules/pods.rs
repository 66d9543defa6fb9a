//! Pod rounds of a multiplayer game: the pod format, pods seated from the committed seed, and
//! each pod's places.

use super::{check_in_order, check_seated, judge_and_reason, results::check_once, Violation};
use crate::game::commit::Secret;
use crate::tournament::events::{GameLink, TournamentEvent};
use crate::tournament::pods::{check_places, PodSize, PointsTable};
use crate::tournament::state::{PodState, RoundState, Tournament};

/// TOUR-POD-2 for `PodFormatSet`.
pub(super) fn check_format(state: &Tournament, event: &TournamentEvent, v: &mut Vec<Violation>) {
    let TournamentEvent::PodFormatSet { size, sole_win, shared_win, loss } = event else { return };
    let mut bad = |m: String| v.push(Violation::new("TOUR-POD-2", m));
    if !state.rounds.is_empty() {
        bad("the pod format is set before round 1 is paired".into());
    }
    if state.pod_format.is_some() {
        bad("the pod format is already set".into());
    }
    if !(3..=8).contains(size) {
        bad(format!("pods of {size}: a pod has 3 to 8 seats"));
    }
    if !(sole_win >= shared_win && shared_win >= loss) {
        bad(format!("points {sole_win}/{shared_win}/{loss} reward a worse place: a sole win ≥ a shared win ≥ a loss"));
    }
    if state.config.as_ref().is_some_and(|c| c.top_cut != 0) {
        bad("a pod tournament has no top cut: create it with a top cut of 0".into());
    }
    if state.best_of.is_some() {
        bad("a pod plays one game: the tournament already set a match format".into());
    }
}

/// TOUR-POD-1, TOUR-PAIR-*, TOUR-SEED-1 and TOUR-REG-4 for `PodRoundPaired`.
pub(super) fn check_round(state: &Tournament, event: &TournamentEvent, rederive: bool, v: &mut Vec<Violation>) {
    let TournamentEvent::PodRoundPaired { round, pods, round_seed } = event else { return };
    let round = *round;
    if state.pod_format.is_none() {
        v.push(Violation::new(
            "TOUR-POD-1",
            "this tournament does not play in pods (record the pod format before round 1)",
        ));
        return;
    }
    check_in_order(state, round, "pods", v);
    if let Some(planned) = state.swiss_rounds.filter(|&p| round > p) {
        v.push(Violation::new("TOUR-PAIR-3", format!("the tournament plays {planned} rounds")));
    }
    if state.commitment().is_none() {
        v.push(Violation::new(
            "TOUR-SEED-1",
            "pods are paired from a committed seed; the tournament committed to none",
        ));
    }
    check_seated(state, round, pods.iter().flatten(), "sits in two pods", v);
    if rederive {
        match state.derive_pods(round, round_seed) {
            Err(e) => v.push(Violation::new("TOUR-PAIR-7", format!("round {round} cannot be paired in pods: {e}"))),
            Ok(want) if &want != pods => v.push(Violation::new("TOUR-PAIR-7", describe_pod_diff(round, &want, pods))),
            Ok(_) => {}
        }
    }
}

/// TOUR-POD-1, TOUR-POD-3, TOUR-POD-4 and TOUR-RESULT-* for a pod's report or correction.
pub(super) fn check_result(state: &Tournament, event: &TournamentEvent, v: &mut Vec<Violation>) {
    let (round, pod, places, games, correction) = match event {
        TournamentEvent::PodResultReported { round, pod, places, games } => (*round, *pod, places, games, None),
        TournamentEvent::PodResultEntered { round, pod, places, games, by, reason } => {
            super::overrides::check_author(by, reason, v);
            (*round, *pod, places, games, None)
        }
        TournamentEvent::PodResultCorrected { round, pod, places, games, judge, reason } => {
            (*round, *pod, places, games, Some((judge, reason)))
        }
        _ => return,
    };
    if state.pod_format.is_none() {
        v.push(Violation::new("TOUR-POD-1", "this tournament does not play in pods: report a table's score"));
        return;
    }
    let found = state.rounds.iter().find(|r| r.round == round).and_then(|r| r.pods.iter().find(|p| p.pod == pod));
    let Some(p) = found else {
        v.push(Violation::new("TOUR-RESULT-1", format!("round {round} has no pod {pod}")));
        return;
    };
    if places.len() != p.seats.len() {
        let msg = format!("pod {pod} has {} seats; {} places were reported", p.seats.len(), places.len());
        v.push(Violation::new("TOUR-POD-3", msg));
    } else if let Err(e) = check_places(places) {
        v.push(e);
    }
    check_once(correction.is_some(), p.places.is_some(), &format!("round {round} pod {pod}"), v);
    if let Some((judge, reason)) = correction {
        judge_and_reason("TOUR-RESULT-4", "a correction", judge, reason, v);
    }
    if games.len() > 1 {
        v.push(Violation::new("TOUR-POD-4", format!("a pod plays one game; {} are linked", games.len())));
    }
    check_linked_once(state, round, pod, games, v);
}

/// TOUR-RESULT-6: a pod's game is linked to no other result (a correction may keep its own).
fn check_linked_once(state: &Tournament, round: u32, pod: u32, games: &[GameLink], v: &mut Vec<Violation>) {
    for g in games {
        let linked = |links: &[GameLink]| links.iter().any(|l| l.stream == g.stream);
        let elsewhere = state.rounds.iter().any(|r| {
            r.tables.iter().any(|t| linked(&t.games))
                || r.pods.iter().any(|q| !(r.round == round && q.pod == pod) && linked(&q.games))
        });
        if elsewhere {
            v.push(Violation::new("TOUR-RESULT-6", format!("game {} is already linked to another result", g.stream)));
        }
    }
}

fn describe_pod_diff(round: u32, want: &[Vec<String>], got: &[Vec<String>]) -> String {
    let mut lines = vec![format!("round {round}'s pods are not the ones its seed and the pod standings give:")];
    for i in 0..want.len().max(got.len()) {
        let show = |p: Option<&Vec<String>>| p.map(|p| p.join(", ")).unwrap_or_else(|| "-".into());
        let (w, g) = (show(want.get(i)), show(got.get(i)));
        if w != g {
            lines.push(format!("    pod {}: expected {w}; recorded {g}", i + 1));
        }
    }
    lines.join("\n")
}

/// The pod format; a pod tournament has no top cut.
pub(super) fn format_set(state: &mut Tournament, size: u32, [sole_win, shared_win, loss]: [u32; 3]) {
    if state.pod_format.is_none() {
        let table = PointsTable { sole_win, shared_win, loss };
        state.pod_format = Some((PodSize { size: size as usize }, table));
        state.top_cut = Some(0);
    }
}

pub(super) fn paired(state: &mut Tournament, round: u32, pods: &[Vec<String>], seed: Secret) {
    let n = state.players.iter().filter(|p| p.dropped_after.is_none()).count() as u32;
    if state.swiss_rounds.is_none() {
        state.swiss_rounds = state.rules().map(|r| r.swiss_rounds(n));
    }
    let pods = pods
        .iter()
        .enumerate()
        .map(|(i, seats)| PodState {
            pod: i as u32 + 1,
            seats: seats.iter().filter_map(|s| state.player(s)).collect(),
            places: None,
            games: vec![],
            corrections: 0,
        })
        .collect();
    let seed = Some(seed);
    state.rounds.push(RoundState { round, tables: vec![], byes: vec![], seed, top_cut: false, pods });
}

pub(super) fn reported(
    state: &mut Tournament,
    round: u32,
    pod: u32,
    places: &[u32],
    games: &[GameLink],
    corrected: bool,
) {
    let Some(r) = state.rounds.iter_mut().find(|r| r.round == round) else { return };
    let Some(p) = r.pods.iter_mut().find(|p| p.pod == pod) else { return };
    p.places = Some(places.to_vec());
    p.games = games.to_vec();
    if corrected {
        p.corrections += 1;
    }
}
