//! Swiss pairing: rounds paired in order from the committed seed, the planned number of rounds,
//! voiding the latest round, and committing and revealing the pairing seed.

use super::{check_in_order, check_seated, Violation};
use crate::game::commit::{commit_seed, Secret};
use crate::tournament::events::{round_seed, PairedTable, RoundsPlan, TournamentEvent};
use crate::tournament::policy::TOP_CUT_BY_ATTENDANCE;
use crate::tournament::standings::MatchRecord;
use crate::tournament::state::{RoundState, Tournament};

/// TOUR-PAIR-1..7 and TOUR-SEED-1 for `RoundPaired`.
pub(super) fn check_round(state: &Tournament, event: &TournamentEvent, rederive: bool, v: &mut Vec<Violation>) {
    let TournamentEvent::RoundPaired { round, tables, byes, round_seed: seed } = event else { return };
    let round = *round;
    check_in_order(state, round, "tables", v);
    if state.rounds.iter().any(|r| r.top_cut) {
        v.push(Violation::new("TOUR-PAIR-3", "the top cut has started; no more Swiss rounds"));
    }
    if let Some(planned) = state.swiss_rounds {
        if round > planned && seed.is_some() {
            v.push(Violation::new("TOUR-PAIR-3", format!("the tournament plays {planned} Swiss rounds")));
        }
    }
    if seed.is_some() {
        v.extend(enough_players(state, round).err());
    }
    check_seated(state, round, tables.iter().flat_map(|t| [&t.a, &t.b]).chain(byes.iter()), "is paired twice", v);
    if let Some((i, t)) = tables.iter().enumerate().find(|(i, t)| t.table != *i as u32 + 1) {
        v.push(Violation::new(
            "TOUR-PAIR-6",
            format!("tables must be numbered 1, 2, 3...: found {} at position {}", t.table, i + 1),
        ));
    }
    match seed {
        Some(seed) => {
            if state.commitment().is_none() {
                v.push(Violation::new("TOUR-SEED-1", "the tournament committed to no seed, so no round can claim one"));
            }
            if rederive {
                let (want_tables, want_byes) = state.derive_round(round, seed);
                if &want_tables != tables || &want_byes != byes {
                    let diff = describe_pairing_diff(round, &want_tables, &want_byes, tables, byes);
                    v.push(Violation::new("TOUR-PAIR-7", diff));
                }
            }
        }
        None if state.commitment().is_some() => v.push(Violation::new(
            "TOUR-SEED-1",
            "this tournament pairs from its committed seed: the round must carry its seed",
        )),
        None => {}
    }
}

/// TOUR-PAIR-4: round `round` has at least two active players (kifu pairs a round only then).
pub fn enough_players(state: &Tournament, round: u32) -> Result<(), Violation> {
    let active = state.active_count(round);
    if active >= 2 {
        return Ok(());
    }
    let verb = if active == 1 { "is" } else { "are" };
    Err(Violation::new("TOUR-PAIR-4", format!("round {round} needs at least two active players; {active} {verb} in")))
}

/// TOUR-PAIR-8 for `SwissRoundsSet`.
pub(super) fn check_plan(state: &Tournament, rounds: u32, v: &mut Vec<Violation>) {
    let mut bad = |m: String| v.push(Violation::new("TOUR-PAIR-8", m));
    if rounds < state.swiss_played().max(1) {
        bad(format!("{} Swiss round(s) were already played; plan at least that many", state.swiss_played()));
    }
    if rounds > 64 {
        bad("at most 64 Swiss rounds".into());
    }
    if state.rounds.iter().any(|r| r.top_cut) {
        bad("the top cut has started".into());
    }
}

/// TOUR-PAIR-9 and TOUR-PAIR-10 for `RoundVoided`.
pub(super) fn check_void(state: &Tournament, round: u32, reason: &str, v: &mut Vec<Violation>) {
    if reason.trim().is_empty() {
        v.push(Violation::new("TOUR-PAIR-9", "voiding a round gives its reason"));
    }
    let Some(l) = state.rounds.last() else {
        v.push(Violation::new("TOUR-PAIR-10", "no round is paired"));
        return;
    };
    let mut bad = |m: String| v.push(Violation::new("TOUR-PAIR-10", m));
    if l.round != round {
        bad(format!("only the latest round, {}, can be voided, not {round}", l.round));
    }
    let resulted = l.tables.iter().find(|t| t.result.is_some()).map(|t| format!("table {}", t.table));
    let resulted = resulted.or_else(|| l.pods.iter().find(|p| p.places.is_some()).map(|p| format!("pod {}", p.pod)));
    if let Some(at) = resulted {
        bad(format!("round {} already has a result ({at}); a round is voided only before any result", l.round));
    }
    if state.players.iter().any(|p| p.penalties.iter().any(|x| x.0 == l.round)) {
        bad(format!("a penalty was issued in round {}; it cannot be voided", l.round));
    }
}

/// TOUR-SEED-3 for `SeedCommitted`.
pub(super) fn check_commit(state: &Tournament, v: &mut Vec<Violation>) {
    if state.commitment().is_some() {
        v.push(Violation::new("TOUR-SEED-3", "the tournament already committed to a pairing seed"));
    }
}

/// TOUR-SEED-2 for `SeedRevealed`.
pub(super) fn check_reveal(state: &Tournament, seed: &Secret, v: &mut Vec<Violation>) {
    let Some(c) = state.commitment() else {
        v.push(Violation::new("TOUR-SEED-2", "the tournament committed to no seed"));
        return;
    };
    if commit_seed(seed) != c {
        v.push(Violation::new("TOUR-SEED-2", format!("the revealed seed does not match the commitment {c}")));
    }
    for r in &state.rounds {
        if r.seed.is_some_and(|s| round_seed(seed, r.round) != s) {
            v.push(Violation::new(
                "TOUR-SEED-2",
                format!("round {}'s seed was not derived from the revealed seed", r.round),
            ));
        }
    }
}

/// Round 1 fixes a plan by attendance; byes score at once.
pub(super) fn paired(
    state: &mut Tournament,
    round: u32,
    tables: &[PairedTable],
    byes: &[String],
    seed: Option<Secret>,
) {
    let n = state.players.iter().filter(|p| p.dropped_after.is_none()).count() as u32;
    if state.swiss_rounds.is_none() {
        state.swiss_rounds = state.rules().map(|r| r.swiss_rounds(n));
    }
    if state.top_cut.is_none() {
        state.top_cut = state.rules().map(|r| r.top_cut(n));
    }
    let byes: Vec<usize> = byes.iter().filter_map(|b| state.player(b)).collect();
    for &b in &byes {
        state.tallies.add(&MatchRecord::bye(b));
    }
    let tables = state.table_states(tables);
    state.rounds.push(RoundState { round, tables, byes, seed, top_cut: false, pods: vec![] });
}

/// Withdraws the latest round: its byes leave the tallies, players who entered or dropped
/// after it are moved back one round, and a plan fixed by its pairing is unfixed.
pub(super) fn voided(state: &mut Tournament, round: u32, reason: &str) {
    if state.rounds.last().map(|r| r.round) != Some(round) {
        return;
    }
    let Some(r) = state.rounds.pop() else { return };
    state.voided.push((round, reason.to_string()));
    if !r.top_cut {
        for (t, s) in r.tables.iter().filter_map(|t| Some((t, t.result?))) {
            state.tallies.remove(&MatchRecord {
                a: t.a,
                b: Some(t.b),
                a_wins: s.a_wins,
                b_wins: s.b_wins,
                draws: s.draws,
            });
        }
    }
    for &b in &r.byes {
        state.tallies.remove(&MatchRecord::bye(b));
    }
    for p in 0..state.players.len() {
        let pl = &mut state.players[p];
        if pl.first_round == round + 1 && round >= 1 {
            pl.first_round = round.max(1);
            if let Some(t) = state.tallies.0.get_mut(p) {
                t.missed = t.missed.saturating_sub(1);
                t.rounds = t.rounds.saturating_sub(1);
                t.losses = t.losses.saturating_sub(1);
            }
        }
        if pl.dropped_after == Some(round) {
            pl.dropped_after = Some(round - 1);
        }
    }
    if state.rounds.is_empty() {
        if let Some(cfg) = &state.config {
            state.swiss_rounds = match cfg.rounds {
                RoundsPlan::Fixed(n) => Some(n),
                RoundsPlan::ByAttendance => None,
            };
            state.top_cut = state.top_cut_set.or((cfg.top_cut != TOP_CUT_BY_ATTENDANCE).then_some(cfg.top_cut));
        }
    }
}

/// What differs between the derived and the recorded pairing, table by table.
pub(super) fn describe_pairing_diff(
    round: u32,
    want: &[PairedTable],
    want_byes: &[String],
    got: &[PairedTable],
    got_byes: &[String],
) -> String {
    let mut lines = vec![format!("round {round}'s pairings are not the ones its seed and the standings give:")];
    for i in 0..want.len().max(got.len()) {
        let w = want.get(i).map(|t| format!("{} vs {}", t.a, t.b)).unwrap_or_else(|| "-".into());
        let g = got.get(i).map(|t| format!("{} vs {}", t.a, t.b)).unwrap_or_else(|| "-".into());
        if w != g {
            lines.push(format!("    table {}: expected {w}, recorded {g}", i + 1));
        }
        if lines.len() > 6 {
            lines.push("    ...".into());
            break;
        }
    }
    if want_byes != got_byes {
        lines.push(format!("    bye: expected {want_byes:?}, recorded {got_byes:?}"));
    }
    lines.join("\n")
}
