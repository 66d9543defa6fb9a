//! Judge calls (opened, taken, escalated, closed; the time extension they give), the head
//! judge, and appeals of penalties and call rulings with the head judge's final decision.

use super::penalties::{check_against_result, restand};
use super::Violation;
use crate::log::envelope::Timestamp;
use crate::tournament::events::{AppealDecision, Penalty, RulingRef, TournamentEvent};
use crate::tournament::judging::{Appeal, Call, CallClosed, CallStep, ExtensionAdjusted};
use crate::tournament::state::Tournament;

/// The longest time extension a judge may set for one call, in minutes.
pub const MAX_EXTENSION: u32 = 60;

fn call<'a>(state: &'a Tournament, n: u32, v: &mut Vec<Violation>) -> Option<&'a Call> {
    let c = state.calls.get((n as usize).wrapping_sub(1));
    if c.is_none() {
        v.push(Violation::new("TOUR-CALL-2", format!("there is no call {n} (calls so far: {})", state.calls.len())));
    }
    c
}

/// TOUR-CALL-1: a call at a table or pod of a paired round, by a named caller.
fn check_opened(state: &Tournament, round: u32, table: u32, caller: &str, v: &mut Vec<Violation>) {
    if caller.trim().is_empty() {
        v.push(Violation::new("TOUR-CALL-1", "a judge call names who called"));
    }
    match state.rounds.iter().find(|r| r.round == round) {
        None => v.push(Violation::new("TOUR-CALL-1", format!("round {round} is not paired"))),
        Some(r) if r.table_at(table).is_none() && !r.pods.iter().any(|p| p.pod == table) => {
            v.push(Violation::new("TOUR-CALL-1", format!("round {round} has no table {table}")))
        }
        Some(_) => {}
    }
}

/// TOUR-CALL-2 for taking, escalating and closing call `n`: in order, once each, by a judge,
/// not before what came earlier in the call.
fn check_step(state: &Tournament, event: &TournamentEvent, v: &mut Vec<Violation>) {
    let (n, judge, at, what) = match event {
        TournamentEvent::JudgeCallTaken { call, judge, at } => (*call, judge, *at, "taken"),
        TournamentEvent::JudgeCallEscalated { call, judge, at } => (*call, judge, *at, "escalated"),
        TournamentEvent::JudgeCallClosed { call, judge, at, .. } => (*call, judge, *at, "closed"),
        _ => return,
    };
    if judge.trim().is_empty() {
        v.push(Violation::new("TOUR-CALL-2", format!("a call is {what} by a named judge")));
    }
    let Some(c) = call(state, n, v) else { return };
    if let Some(closed) = &c.closed {
        let (by, when) = (&closed.judge, closed.at);
        let msg =
            format!("call {n} was already closed by {by} at {}; nothing more is recorded on it", when.to_rfc3339());
        v.push(Violation::new("TOUR-CALL-2", msg));
        return;
    }
    let last: Timestamp = [Some(c.opened), c.taken.as_ref().map(|t| t.at), c.escalated.as_ref().map(|e| e.at)]
        .into_iter()
        .flatten()
        .max()
        .unwrap_or(c.opened);
    if at < last {
        v.push(Violation::new(
            "TOUR-CALL-2",
            format!("call {n} cannot be {what} at {}, before its last step at {}", at.to_rfc3339(), last.to_rfc3339()),
        ));
    }
    match what {
        "taken" if c.taken.is_some() => v.push(Violation::new(
            "TOUR-CALL-2",
            format!("call {n} was already taken by {}", c.taken.as_ref().map_or("", |t| &t.judge)),
        )),
        "escalated" if c.escalated.is_some() => {
            v.push(Violation::new("TOUR-CALL-2", format!("call {n} was already escalated")))
        }
        "escalated" => {
            if let Some(hj) = &state.head_judge {
                if hj != judge {
                    v.push(Violation::new(
                        "TOUR-CALL-2",
                        format!("a call is escalated to the head judge, {hj}, not {judge}"),
                    ));
                }
            }
        }
        _ => {}
    }
}

/// TOUR-CALL-3: an extension for a closed call, by a judge, with a reason, within the bound.
fn check_adjusted(state: &Tournament, n: u32, minutes: u32, judge: &str, reason: &str, v: &mut Vec<Violation>) {
    if judge.trim().is_empty() || reason.trim().is_empty() {
        v.push(Violation::new("TOUR-CALL-3", "an adjusted time extension names the judge and the reason"));
    }
    if minutes > MAX_EXTENSION {
        v.push(Violation::new(
            "TOUR-CALL-3",
            format!("a call extends a match by at most {MAX_EXTENSION} minutes, not {minutes}"),
        ));
    }
    if let Some(c) = call(state, n, v) {
        if c.closed.is_none() {
            v.push(Violation::new("TOUR-CALL-3", format!("call {n} is still {}: close it first", c.status())));
        }
    }
}

/// The players a ruling is about: a penalty's player, or those seated where a call was made.
pub fn ruling_players(state: &Tournament, ruling: RulingRef) -> Option<Vec<usize>> {
    match ruling {
        RulingRef::Penalty(n) => state.penalty_log.get((n as usize).wrapping_sub(1)).map(|r| vec![r.player]),
        RulingRef::Call(n) => {
            let c = state.calls.get((n as usize).wrapping_sub(1))?;
            let r = state.rounds.iter().find(|r| r.round == c.round)?;
            let mut seated: Vec<usize> = Vec::new();
            if let Some(t) = r.table_at(c.table).map(|i| &r.tables[i]) {
                seated.extend([t.a, t.b]);
            }
            if let Some(p) = r.pods.iter().find(|p| p.pod == c.table) {
                seated.extend(p.seats.iter().copied());
            }
            Some(seated)
        }
    }
}

/// TOUR-APPEAL-1 and TOUR-APPEAL-2 for `AppealLodged`.
fn check_lodged(state: &Tournament, ruling: RulingRef, player: &str, v: &mut Vec<Violation>) {
    let Some(players) = ruling_players(state, ruling) else {
        v.push(Violation::new("TOUR-APPEAL-1", format!("there is no {ruling} to appeal")));
        return;
    };
    if let RulingRef::Call(n) = ruling {
        if state.calls.get((n as usize).wrapping_sub(1)).is_some_and(|c| c.closed.is_none()) {
            v.push(Violation::new("TOUR-APPEAL-1", format!("call {n} has no ruling yet: it is not closed")));
        }
    }
    match state.player(player) {
        None => v.push(Violation::new("TOUR-REG-4", state.unknown(player))),
        Some(p) if !players.contains(&p) => {
            v.push(Violation::new("TOUR-APPEAL-1", format!("{player} is not a player {ruling} is about")))
        }
        Some(_) => {}
    }
    for a in state.appeals.iter().filter(|a| a.ruling == ruling) {
        let msg = match &a.decided {
            Some((d, hj, _)) => format!(
                "{ruling} was appealed (appeal {}) and the head judge {hj} decided it ({d}): the decision is final",
                a.number
            ),
            None => format!("{ruling} is already appealed (appeal {}, waiting for the head judge)", a.number),
        };
        v.push(Violation::new("TOUR-APPEAL-2", msg));
    }
}

/// TOUR-APPEAL-3 and TOUR-APPEAL-4 (and TOUR-PEN-4 for a heavier penalty) for `AppealDecided`.
fn check_decided(
    state: &Tournament,
    n: u32,
    decision: AppealDecision,
    judge: &str,
    reason: &str,
    v: &mut Vec<Violation>,
) {
    let Some(a) = state.appeals.get((n as usize).wrapping_sub(1)) else {
        v.push(Violation::new(
            "TOUR-APPEAL-3",
            format!("there is no appeal {n} (appeals so far: {})", state.appeals.len()),
        ));
        return;
    };
    if let Some((d, hj, _)) = &a.decided {
        v.push(Violation::new(
            "TOUR-APPEAL-3",
            format!("appeal {n} was already decided by {hj} ({d}): the decision is final"),
        ));
    }
    match &state.head_judge {
        None => v.push(Violation::new(
            "TOUR-APPEAL-3",
            "name the event's head judge first: only the head judge decides appeals",
        )),
        Some(hj) if hj != judge => {
            v.push(Violation::new("TOUR-APPEAL-3", format!("only the head judge, {hj}, decides appeals, not {judge}")))
        }
        Some(_) => {}
    }
    if reason.trim().is_empty() {
        v.push(Violation::new("TOUR-APPEAL-3", "an appeal's decision gives its reason"));
    }
    match (a.ruling, decision) {
        (RulingRef::Call(c), AppealDecision::Changed(_)) => v.push(Violation::new(
            "TOUR-APPEAL-3",
            format!("the ruling of call {c} is upheld or overturned (a penalty that follows is its own event)"),
        )),
        (RulingRef::Penalty(p), d) => {
            let Some(r) = state.penalty_log.get((p as usize).wrapping_sub(1)) else { return };
            if let AppealDecision::Changed(to) = d {
                if Some(to) == r.standing {
                    v.push(Violation::new(
                        "TOUR-APPEAL-3",
                        format!("penalty {p} already is a {}: uphold it", to.name()),
                    ));
                }
                if matches!(to, Penalty::GameLoss | Penalty::MatchLoss) {
                    check_against_result(state, r.player, r.round, to, v);
                }
            }
            let was_dq = r.standing == Some(Penalty::Disqualification);
            let is_dq = match d {
                AppealDecision::Upheld => was_dq,
                AppealDecision::Overturned => false,
                AppealDecision::Changed(to) => to == Penalty::Disqualification,
            };
            let since = r.dropped.or(state.players.get(r.player).and_then(|p| p.dropped_after));
            if was_dq != is_dq && since.is_some_and(|d| (state.rounds.len() as u32) > d) {
                v.push(Violation::new(
                    "TOUR-APPEAL-4",
                    format!("penalty {p} is a disqualification and a round was paired since: its appeal came too late"),
                ));
            }
            if !was_dq && is_dq && state.players.get(r.player).is_some_and(|p| p.dropped_after.is_some()) {
                v.push(Violation::new("TOUR-PEN-3", "the player already left the tournament"));
            }
        }
        _ => {}
    }
}

/// Every judging rule `event` breaks (the calls, extensions, head judge and appeals).
pub(super) fn check(state: &Tournament, event: &TournamentEvent, v: &mut Vec<Violation>) {
    match event {
        TournamentEvent::JudgeCallOpened { round, table, caller, .. } => check_opened(state, *round, *table, caller, v),
        TournamentEvent::JudgeCallTaken { .. }
        | TournamentEvent::JudgeCallEscalated { .. }
        | TournamentEvent::JudgeCallClosed { .. } => check_step(state, event, v),
        TournamentEvent::TimeExtensionAdjusted { call, minutes, judge, reason } => {
            check_adjusted(state, *call, *minutes, judge, reason, v)
        }
        TournamentEvent::HeadJudgeNamed { judge } if judge.trim().is_empty() || judge.trim() != judge => {
            v.push(Violation::new("TOUR-APPEAL-3", "the head judge has a name (trimmed)"))
        }
        TournamentEvent::AppealLodged { ruling, player, .. } => check_lodged(state, *ruling, player, v),
        TournamentEvent::AppealDecided { appeal, decision, judge, reason } => {
            check_decided(state, *appeal, *decision, judge, reason, v)
        }
        _ => {}
    }
}

/// Folds a judging event (total: a step on a call that does not exist is skipped).
pub(super) fn apply(state: &mut Tournament, event: &TournamentEvent) {
    fn get(state: &mut Tournament, n: u32) -> Option<&mut Call> {
        state.calls.get_mut((n as usize).wrapping_sub(1))
    }
    match event {
        TournamentEvent::JudgeCallOpened { round, table, caller, at } => {
            let number = state.calls.len() as u32 + 1;
            state.calls.push(Call {
                number,
                round: *round,
                table: *table,
                caller: caller.clone(),
                opened: *at,
                taken: None,
                escalated: None,
                closed: None,
                adjusted: None,
            });
        }
        TournamentEvent::JudgeCallTaken { call, judge, at } => {
            if let Some(c) = get(state, *call) {
                c.taken.get_or_insert(CallStep { judge: judge.clone(), at: *at });
            }
        }
        TournamentEvent::JudgeCallEscalated { call, judge, at } => {
            if let Some(c) = get(state, *call) {
                c.escalated.get_or_insert(CallStep { judge: judge.clone(), at: *at });
            }
        }
        TournamentEvent::JudgeCallClosed { call, judge, at, outcome, note } => {
            if let Some(c) = get(state, *call) {
                c.closed.get_or_insert(CallClosed {
                    judge: judge.clone(),
                    at: *at,
                    outcome: *outcome,
                    note: note.clone(),
                });
            }
        }
        TournamentEvent::TimeExtensionAdjusted { call, minutes, judge, reason } => {
            if let Some(c) = get(state, *call) {
                c.adjusted =
                    Some(ExtensionAdjusted { minutes: *minutes, judge: judge.clone(), reason: reason.clone() });
            }
        }
        TournamentEvent::HeadJudgeNamed { judge } => state.head_judge = Some(judge.clone()),
        TournamentEvent::AppealLodged { ruling, player, at } => {
            let number = state.appeals.len() as u32 + 1;
            state.appeals.push(Appeal { number, ruling: *ruling, player: player.clone(), at: *at, decided: None });
        }
        TournamentEvent::AppealDecided { appeal, decision, judge, reason } => {
            decided(state, *appeal, *decision, judge, reason)
        }
        _ => {}
    }
}

/// The head judge's decision: the appeal is closed; a penalty's standing one changes (an
/// overturned or changed disqualification readmits the player it dropped; a disqualification
/// it becomes drops them).
fn decided(state: &mut Tournament, n: u32, decision: AppealDecision, judge: &str, reason: &str) {
    let Some(a) = state.appeals.get_mut((n as usize).wrapping_sub(1)) else { return };
    if a.decided.is_some() {
        return;
    }
    a.decided = Some((decision, judge.to_string(), reason.to_string()));
    let RulingRef::Penalty(p) = a.ruling else { return };
    let cur = state.rounds.len() as u32;
    let Some(r) = state.penalty_log.get_mut((p as usize).wrapping_sub(1)) else { return };
    let before = r.standing;
    r.standing = match decision {
        AppealDecision::Upheld => before,
        AppealDecision::Overturned => None,
        AppealDecision::Changed(to) => Some(to),
    };
    let (player, was_dq, is_dq) =
        (r.player, before == Some(Penalty::Disqualification), r.standing == Some(Penalty::Disqualification));
    let dropped = r.dropped;
    if was_dq && !is_dq {
        r.dropped = None;
        if let (Some(d), Some(pl)) = (dropped, state.players.get_mut(player)) {
            if pl.dropped_after == Some(d) {
                pl.dropped_after = None;
            }
        }
    } else if !was_dq && is_dq {
        if let Some(pl) = state.players.get_mut(player) {
            if pl.dropped_after.is_none() {
                pl.dropped_after = Some(cur);
                if let Some(r) = state.penalty_log.get_mut((p as usize).wrapping_sub(1)) {
                    r.dropped = Some(cur);
                }
            }
        }
    }
    restand(state, player);
}

impl Tournament {
    /// The minutes of time extension the calls at round `round`, table (or pod) `table` give.
    pub fn extension(&self, round: u32, table: u32) -> u32 {
        self.calls.iter().filter(|c| c.round == round && c.table == table).map(Call::extension).sum()
    }

    /// The calls at round `round`, table `table` that are not closed yet.
    pub fn open_calls(&self, round: u32, table: u32) -> usize {
        self.calls.iter().filter(|c| c.round == round && c.table == table && c.closed.is_none()).count()
    }

    /// The penalty the policy gives player `player` (as registered) for infraction `code` now:
    /// (penalty, upgraded), or the rule that keeps it from being derived.
    pub fn expected_penalty(&self, player: &str, code: &str) -> Result<(Penalty, bool), Violation> {
        let config = self.config.as_ref().ok_or_else(|| Violation::new("TOUR-LOG-1", "no tournament"))?;
        let p = self.player(player).ok_or_else(|| Violation::new("TOUR-REG-4", self.unknown(player)))?;
        let row = crate::tournament::judging::infraction(&config.policy, code).ok_or_else(|| {
            let codes: Vec<&str> = crate::tournament::judging::table(&config.policy).iter().map(|i| i.code).collect();
            Violation::new(
                "TOUR-PEN-5",
                format!("{code:?} is not an infraction of the {} policy ({})", config.policy.name(), codes.join(", ")),
            )
        })?;
        Ok(crate::tournament::judging::expected(row, &super::penalties::prior_offences(self, p, row.code)))
    }
}

/// An appeal of a penalty, as a player's penalty history shows it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct AppealRow {
    pub appeal: u32,
    pub by: String,
    /// `upheld`, `overturned`, `changed to game-loss`, or `waiting`.
    pub decision: String,
    pub head_judge: Option<String>,
    pub reason: Option<String>,
}

/// One penalty of a player's history for the event: as issued, and what stands after appeals.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct HistoryRow {
    pub penalty: u32,
    pub round: u32,
    pub infraction: Option<String>,
    pub infraction_name: Option<String>,
    pub issued: String,
    /// What counts now (`None`: overturned).
    pub standing: Option<String>,
    pub upgraded: bool,
    pub downgrade: Option<String>,
    pub judge: String,
    pub reason: String,
    pub call: Option<u32>,
    pub appeals: Vec<AppealRow>,
}

impl Tournament {
    /// Player `p`'s penalties in the event, in order, each with its appeals.
    pub fn penalty_history(&self, p: usize) -> Vec<HistoryRow> {
        let policy = self.config.as_ref().map(|c| &c.policy);
        self.penalty_log
            .iter()
            .filter(|r| r.player == p)
            .map(|r| HistoryRow {
                penalty: r.number,
                round: r.round,
                infraction: r.infraction.clone(),
                infraction_name: r
                    .infraction
                    .as_deref()
                    .and_then(|c| policy.and_then(|pol| crate::tournament::judging::infraction(pol, c)))
                    .map(|i| i.name.to_string()),
                issued: r.issued.name().to_string(),
                standing: r.standing.map(|s| s.name().to_string()),
                upgraded: r.upgraded,
                downgrade: r.downgrade.clone(),
                judge: r.judge.clone(),
                reason: r.reason.clone(),
                call: r.call,
                appeals: self
                    .appeals
                    .iter()
                    .filter(|a| a.ruling == RulingRef::Penalty(r.number))
                    .map(|a| AppealRow {
                        appeal: a.number,
                        by: a.player.clone(),
                        decision: a.decided.as_ref().map_or_else(|| "waiting".to_string(), |d| d.0.to_string()),
                        head_judge: a.decided.as_ref().map(|d| d.1.clone()),
                        reason: a.decided.as_ref().map(|d| d.2.clone()),
                    })
                    .collect(),
            })
            .collect()
    }
}
