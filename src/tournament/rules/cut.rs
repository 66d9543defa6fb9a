//! The top cut: a single-elimination bracket seeded from the Swiss standings (1v8, 4v5, 2v7,
//! 3v6 for eight), each later round from the previous round's winners.

use super::{check_previous_complete, next_round, pairing::describe_pairing_diff, Violation};
use crate::tournament::events::PairedTable;
use crate::tournament::standings::StandingRow;
use crate::tournament::state::{bracket_order, RoundState, TableState, Tournament};

/// The next top-cut round as the standings (first round) or the previous winners determine it,
/// or the rule that keeps it from being paired (TOUR-CUT-1, -2, -4, TOUR-PAIR-2).
pub fn derive_top_cut(state: &Tournament) -> Result<(u32, Vec<PairedTable>), Violation> {
    if state.config.is_none() {
        return Err(Violation::new("TOUR-LOG-1", "the tournament was not created"));
    }
    let previous: Vec<&RoundState> = state.rounds.iter().filter(|r| r.top_cut).collect();
    let seeds = match previous.last() {
        None => first_seeds(state)?,
        Some(last) => winners(state, last)?,
    };
    let tables = seeds
        .chunks(2)
        .enumerate()
        .filter_map(|(i, c)| match c {
            [a, b] => Some(PairedTable { table: i as u32 + 1, a: a.clone(), b: b.clone() }),
            _ => None,
        })
        .collect();
    Ok((next_round(state), tables))
}

/// The first bracket round's players in bracket order, from the Swiss standings.
fn first_seeds(state: &Tournament) -> Result<Vec<String>, Violation> {
    let k = state.planned_cut() as usize;
    if k < 2 || !k.is_power_of_two() {
        return Err(Violation::new(
            "TOUR-CUT-1",
            format!("the top cut size is {k}; it must be a power of two, at least 2"),
        ));
    }
    let planned = state.swiss_rounds.unwrap_or(0);
    if state.swiss_played() < planned {
        return Err(Violation::new(
            "TOUR-CUT-2",
            format!("only {} of {planned} Swiss rounds were played", state.swiss_played()),
        ));
    }
    let st: Vec<StandingRow> = state.standings().into_iter().filter(|r| !r.dropped).collect();
    if st.len() < k {
        return Err(Violation::new("TOUR-CUT-1", format!("a top {k} needs {k} players still in; {} are", st.len())));
    }
    Ok(bracket_order(k).iter().map(|&s| st[s - 1].player.clone()).collect())
}

/// The winners of the previous bracket round, in table order.
fn winners(state: &Tournament, last: &RoundState) -> Result<Vec<String>, Violation> {
    if last.tables.len() < 2 {
        return Err(Violation::new("TOUR-CUT-4", "the top cut is over: its final was paired"));
    }
    let winner = |t: &TableState| {
        t.winner().and_then(|w| state.players.get(w)).map(|p| p.name.clone()).ok_or_else(|| {
            Violation::new("TOUR-PAIR-2", format!("round {} table {} has no winner yet", last.round, t.table))
        })
    };
    last.tables.iter().map(winner).collect()
}

/// TOUR-PAIR-2 and TOUR-CUT-* for `TopCutPaired`.
pub(super) fn check_cut(
    state: &Tournament,
    round: u32,
    tables: &[PairedTable],
    rederive: bool,
    v: &mut Vec<Violation>,
) {
    check_previous_complete(state, "tables", v);
    if !rederive {
        return;
    }
    match derive_top_cut(state) {
        Err(e) => v.push(e),
        Ok((want_round, want)) => {
            if want_round != round {
                v.push(Violation::new("TOUR-PAIR-1", format!("the next round is {want_round}, not {round}")));
            }
            if want != tables {
                v.push(Violation::new("TOUR-CUT-3", describe_pairing_diff(round, &want, &[], tables, &[])));
            }
        }
    }
}

pub(super) fn paired(state: &mut Tournament, round: u32, tables: &[PairedTable]) {
    let tables = state.table_states(tables);
    state.rounds.push(RoundState { round, tables, byes: vec![], seed: None, top_cut: true, pods: vec![] });
}
