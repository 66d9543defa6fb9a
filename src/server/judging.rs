//! The judges' floor over the API: judge calls (a player at the table or an official opens
//! one; officials take, escalate, close and extend), the head judge, the infraction table, a
//! player's penalty history (judges and the organizer only), appeals and the head judge's
//! decisions, and pairings changed by hand (the organizer or the head judge, with a reason). Every rule is the log's (`TOUR-CALL-*`, `TOUR-PEN-*`, `TOUR-APPEAL-*`): a refusal
//! is 422 and nothing is written.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};

use super::auth::Caller;
use super::error::{AppError, AppResult, J, Q};
use super::state::AppState;
use super::tokens::Role;
use super::tournament_writes::{actor_of, may_override, official, recorded};
use crate::log::envelope::Actor;
use crate::tournament::events::{AppealDecision, CallOutcome, PairedTable, Penalty, RulingRef};
use crate::tournament::state::Tournament;
use crate::tournament::{judging, rules, TournamentEvent};

#[derive(Deserialize)]
pub struct OpenBody {
    pub round: Option<u32>,
    pub table: u32,
    /// Who called (default: the token's name).
    pub caller: Option<String>,
}

/// `POST /tournaments/{id}/calls`: a judge call at a table. A player token calls for its own
/// table; an official records anyone's call.
pub async fn open(
    State(state): State<AppState>,
    Path(id): Path<String>,
    caller: Caller,
    J(body): J<OpenBody>,
) -> AppResult<(StatusCode, Json<Value>)> {
    let grant = caller.require_token()?.clone();
    let t = state.tournament(&id).await?;
    let s = &t.loaded.state;
    let round = body
        .round
        .or(s.rounds.last().map(|r| r.round))
        .ok_or_else(|| AppError::BadRequest("no round is paired yet".into()))?;
    let (who, actor) = match caller.official_for(&id) {
        Some(g) => (body.caller.clone().unwrap_or_else(|| g.name.clone()), actor_of(g)),
        None => {
            if grant.role != Role::Player || grant.scope != id {
                return Err(AppError::Forbidden("your token is not for this tournament".into()));
            }
            let me = s.player(&grant.name);
            let seated = s.rounds.iter().find(|r| r.round == round).is_some_and(|r| {
                r.tables.iter().any(|tb| tb.table == body.table && (Some(tb.a) == me || Some(tb.b) == me))
                    || r.pods.iter().any(|p| p.pod == body.table && me.is_some_and(|m| p.seats.contains(&m)))
            });
            if !seated {
                return Err(AppError::Forbidden(format!(
                    "{} does not play at round {round} table {}: a player calls a judge to their own table",
                    grant.name, body.table
                )));
            }
            (grant.name.clone(), Actor::Player(grant.name.clone()))
        }
    };
    let ev = TournamentEvent::JudgeCallOpened {
        round,
        table: body.table,
        caller: who.trim().to_string(),
        at: state.clock().now(),
    };
    let (status, Json(mut v)) = recorded(&state, &id, actor, vec![ev]).await?;
    v["call"] = json!(s.calls.len() + 1);
    Ok((status, Json(v)))
}

#[derive(Deserialize, Default)]
pub struct StepBody {
    /// Closing: ruling, no-action or penalty.
    pub outcome: Option<String>,
    pub note: Option<String>,
    /// Escalating: the head judge (default: the one the event named).
    pub judge: Option<String>,
    /// Extending: the minutes the call gives, and why.
    pub minutes: Option<u32>,
    pub reason: Option<String>,
}

/// `POST /tournaments/{id}/calls/{call}/{step}`: `take`, `escalate`, `close` or `extension`,
/// by the judge whose token it is.
pub async fn step(
    State(state): State<AppState>,
    Path((id, call, step)): Path<(String, u32, String)>,
    caller: Caller,
    J(body): J<StepBody>,
) -> AppResult<(StatusCode, Json<Value>)> {
    let g = official(&caller, &id, false)?.clone();
    let t = state.tournament(&id).await?;
    let at = state.clock().now();
    let judge = g.name.clone();
    let ev = match step.as_str() {
        "take" => TournamentEvent::JudgeCallTaken { call, judge, at },
        "escalate" => {
            let to = body.judge.clone().or(t.loaded.state.head_judge.clone()).ok_or_else(|| {
                AppError::Conflict("the event has no head judge: the organizer names one first".into())
            })?;
            TournamentEvent::JudgeCallEscalated { call, judge: to, at }
        }
        "close" => {
            let outcome: CallOutcome =
                body.outcome.as_deref().unwrap_or("").parse().map_err(|e| AppError::BadRequest(format!("{e}")))?;
            let note = body.note.clone().unwrap_or_default().trim().to_string();
            TournamentEvent::JudgeCallClosed { call, judge, at, outcome, note }
        }
        "extension" => {
            let minutes = body.minutes.ok_or_else(|| AppError::BadRequest("give the minutes".into()))?;
            let reason = body.reason.clone().unwrap_or_default().trim().to_string();
            TournamentEvent::TimeExtensionAdjusted { call, minutes, judge, reason }
        }
        other => return Err(AppError::NotFound(format!("no call step {other:?}: take, escalate, close or extension"))),
    };
    recorded(&state, &id, Actor::Judge(g.name.clone()), vec![ev]).await
}

#[derive(Deserialize)]
pub struct CallsQuery {
    pub round: Option<u32>,
}

/// `GET /tournaments/{id}/floor`: what the judge's page shows in one answer (the event's
/// officials only): the head judge, the players (and who registered a list), the latest round's
/// tables or pods, every call, appeal, deck check (its public part), pairing override and
/// statement (who gave it and who took it; the text is read with `/statements`).
pub async fn floor(State(state): State<AppState>, Path(id): Path<String>, caller: Caller) -> AppResult<Json<Value>> {
    let g = official(&caller, &id, false)?.clone();
    let t = state.tournament(&id).await?;
    let s = &t.loaded.state;
    let name = |i: usize| s.players.get(i).map(|p| p.name.clone()).unwrap_or_default();
    let players: Vec<Value> = s
        .players
        .iter()
        .map(|p| json!({"name": p.name, "dropped": p.dropped_after.is_some(), "deck_list": p.deck_list.is_some()}))
        .collect();
    let last = s.rounds.last();
    let tables: Vec<Value> = last
        .map(|r| {
            let tables = r.tables.iter().map(|tb| json!({"table": tb.table, "players": [name(tb.a), name(tb.b)]}));
            let pods = r
                .pods
                .iter()
                .map(|p| json!({"table": p.pod, "players": p.seats.iter().map(|&i| name(i)).collect::<Vec<_>>()}));
            tables.chain(pods).collect()
        })
        .unwrap_or_default();
    let appeals: Vec<Value> = s
        .appeals
        .iter()
        .map(|a| {
            json!({
                "appeal": a.number, "ruling": a.ruling.to_string(), "player": a.player,
                "penalty": match a.ruling { RulingRef::Penalty(n) => Some(n), RulingRef::Call(_) => None },
                "decided": a.decided.as_ref().map(|(d, j, r)| json!({"decision": d.to_string(), "judge": j, "reason": r})),
            })
        })
        .collect();
    let deck_checks: Vec<Value> = s
        .deck_checks
        .iter()
        .enumerate()
        .map(|(i, d)| {
            let cards = d.result.cards();
            json!({"check": i + 1, "round": d.round, "table": d.table, "player": d.player, "judge": d.judge,
                   "at": d.at.to_rfc3339(), "matches": cards == 0, "cards": cards})
        })
        .collect();
    let overrides: Vec<Value> = s
        .overrides
        .iter()
        .map(|o| {
            json!({"round": o.round, "kind": o.kind_name(), "by": o.by, "reason": o.reason, "event": o.event,
                   "what": o.describe()})
        })
        .collect();
    let statements: Vec<Value> = s
        .statements
        .iter()
        .map(|x| {
            json!({"statement": x.number, "player": x.player, "by": x.by.name(), "author": x.author,
                   "judge": x.judge, "at": x.at.to_rfc3339()})
        })
        .collect();
    Ok(Json(json!({
        "name": crate::log::limits::shown(&t.loaded.config.name),
        "me": g.name,
        "head_judge": s.head_judge,
        "judges": s.judges,
        "time_zone": s.time_zone,
        // A finalized or archived event takes no floor action (TOUR-FINAL-1, TOUR-ARCH-1).
        "closed": s.finalized || s.archived.is_some(),
        "players": players,
        "round": last.map(|r| r.round),
        "pods": s.pod_format.is_some(),
        "tables": tables,
        "calls": s.calls.iter().map(judging::Call::json).collect::<Vec<_>>(),
        "appeals": appeals,
        "deck_checks": deck_checks,
        "overrides": overrides,
        "statements": statements,
    })))
}

/// `GET /tournaments/{id}/calls?round=N`: the event's judge calls (judges and the organizer).
pub async fn list(
    State(state): State<AppState>,
    Path(id): Path<String>,
    caller: Caller,
    Q(q): Q<CallsQuery>,
) -> AppResult<Json<Value>> {
    official(&caller, &id, false)?;
    let t = state.tournament(&id).await?;
    let s = &t.loaded.state;
    let calls: Vec<Value> =
        s.calls.iter().filter(|c| q.round.is_none_or(|r| c.round == r)).map(judging::Call::json).collect();
    Ok(Json(json!({"head_judge": s.head_judge, "calls": calls})))
}

#[derive(Deserialize)]
pub struct HeadJudgeBody {
    pub judge: String,
}

/// `POST /tournaments/{id}/head-judge`: the organizer names the event's head judge.
pub async fn head_judge(
    State(state): State<AppState>,
    Path(id): Path<String>,
    caller: Caller,
    J(body): J<HeadJudgeBody>,
) -> AppResult<(StatusCode, Json<Value>)> {
    let g = official(&caller, &id, true)?.clone();
    state.tournament(&id).await?;
    let ev = TournamentEvent::HeadJudgeNamed { judge: body.judge.trim().to_string() };
    recorded(&state, &id, actor_of(&g), vec![ev]).await
}

/// `GET /tournaments/{id}/infractions`: the policy's infraction table (public: it is the policy).
pub async fn infractions(State(state): State<AppState>, Path(id): Path<String>) -> AppResult<Json<Value>> {
    let t = state.tournament(&id).await?;
    let rows: Vec<Value> = judging::table(&t.loaded.config.policy)
        .iter()
        .map(|i| json!({"code": i.code, "name": i.name, "category": i.category, "default": i.default.name()}))
        .collect();
    Ok(Json(json!({"policy": t.loaded.config.policy.name(), "infractions": rows})))
}

#[derive(Deserialize)]
pub struct HistoryQuery {
    pub player: Option<String>,
}

/// `GET /tournaments/{id}/penalties?player=NAME`: a player's penalty history in the event (or
/// everyone's), as issued and as it stands after appeals: for judges and the organizer.
pub async fn history(
    State(state): State<AppState>,
    Path(id): Path<String>,
    caller: Caller,
    Q(q): Q<HistoryQuery>,
) -> AppResult<Json<Value>> {
    official(&caller, &id, false)?;
    let t = state.tournament(&id).await?;
    // Warnings and game losses given inside the event's games count in the same history.
    let in_games = {
        let (store, t) = (state.store().clone(), t.clone());
        let sid = super::state::stream_id(&id)?;
        tokio::task::spawn_blocking(move || {
            crate::tournament::game_rulings::game_rulings(&*store, &sid, &t.loaded.state)
        })
        .await??
    };
    let s = &t.loaded.state;
    let players: Vec<usize> = match &q.player {
        Some(p) => {
            let name = rules::resolve(s, p)?;
            s.player(&name).into_iter().collect()
        }
        None => {
            let mut v: Vec<usize> = s.penalty_log.iter().map(|r| r.player).collect();
            v.extend(in_games.iter().filter_map(|g| s.player(&g.player)));
            v.sort_unstable();
            v.dedup();
            v
        }
    };
    let rows: Vec<Value> = players
        .iter()
        .map(|&p| {
            let name = &s.players[p].name;
            let games: Vec<_> = in_games.iter().filter(|g| &g.player == name).collect();
            json!({"player": name, "penalties": s.penalty_history(p), "game_rulings": games})
        })
        .collect();
    let pending: Vec<Value> = s
        .appeals
        .iter()
        .filter(|a| a.decided.is_none())
        .map(|a| json!({"appeal": a.number, "ruling": a.ruling.to_string(), "player": a.player}))
        .collect();
    Ok(Json(json!({"players": rows, "pending_appeals": pending})))
}

#[derive(Deserialize)]
pub struct AppealBody {
    /// The penalty appealed (its number), or `call`.
    pub penalty: Option<u32>,
    pub call: Option<u32>,
    /// Who appeals (a player token appeals for itself).
    pub player: Option<String>,
}

/// `POST /tournaments/{id}/appeals`: a player appeals a penalty or a call's ruling to the head
/// judge (their own token, or an official recording it).
pub async fn appeal(
    State(state): State<AppState>,
    Path(id): Path<String>,
    caller: Caller,
    J(body): J<AppealBody>,
) -> AppResult<(StatusCode, Json<Value>)> {
    let grant = caller.require_token()?.clone();
    let ruling = match (body.penalty, body.call) {
        (Some(p), None) => RulingRef::Penalty(p),
        (None, Some(c)) => RulingRef::Call(c),
        _ => return Err(AppError::BadRequest("give penalty or call (one of them)".into())),
    };
    let t = state.tournament(&id).await?;
    let s = &t.loaded.state;
    let (player, actor) = match caller.official_for(&id) {
        Some(g) => {
            let p = body.player.clone().ok_or_else(|| AppError::BadRequest("give the player who appeals".into()))?;
            (rules::resolve(s, &p)?, actor_of(g))
        }
        None if grant.role == Role::Player && grant.scope == id => {
            (grant.name.clone(), Actor::Player(grant.name.clone()))
        }
        None => return Err(AppError::Forbidden("your token is not for this tournament".into())),
    };
    let ev = TournamentEvent::AppealLodged { ruling, player, at: state.clock().now() };
    let (status, Json(mut v)) = recorded(&state, &id, actor, vec![ev]).await?;
    v["appeal"] = json!(s.appeals.len() + 1);
    Ok((status, Json(v)))
}

#[derive(Deserialize)]
pub struct DecisionBody {
    /// upheld, overturned or changed.
    pub decision: String,
    /// With `changed`: the penalty it becomes.
    pub penalty: Option<String>,
    pub reason: Option<String>,
}

/// `POST /tournaments/{id}/appeals/{appeal}/decision`: the head judge's decision (the token's
/// name must be the head judge the event named: TOUR-APPEAL-3).
pub async fn decide(
    State(state): State<AppState>,
    Path((id, appeal)): Path<(String, u32)>,
    caller: Caller,
    J(body): J<DecisionBody>,
) -> AppResult<(StatusCode, Json<Value>)> {
    let g = official(&caller, &id, false)?.clone();
    state.tournament(&id).await?;
    let decision = match body.decision.trim().to_lowercase().as_str() {
        "upheld" => AppealDecision::Upheld,
        "overturned" => AppealDecision::Overturned,
        "changed" => {
            let p: Penalty = body
                .penalty
                .as_deref()
                .unwrap_or("")
                .parse()
                .map_err(|e| AppError::BadRequest(format!("a changed decision names the penalty: {e}")))?;
            AppealDecision::Changed(p)
        }
        other => {
            return Err(AppError::BadRequest(format!("unknown decision {other:?}: upheld, overturned or changed")))
        }
    };
    let reason = body.reason.clone().unwrap_or_default().trim().to_string();
    let ev = TournamentEvent::AppealDecided { appeal, decision, judge: g.name.clone(), reason };
    recorded(&state, &id, Actor::Judge(g.name.clone()), vec![ev]).await
}

#[derive(Deserialize)]
pub struct OverrideBody {
    /// Two players whose seats in the latest round are swapped.
    pub swap: Option<Vec<String>>,
    /// Or: a player seated at `table` (they swap with its first-listed player).
    pub seat: Option<String>,
    pub table: Option<u32>,
    /// Or: the match at table `move_table` moves to table `to` with both its players (an
    /// accessibility move); the match that sat there takes its table.
    pub move_table: Option<u32>,
    pub to: Option<u32>,
    pub reason: Option<String>,
}

/// `POST /tournaments/{id}/overrides`: the organizer, or the head judge the event named, changes
/// the latest round's pairings by hand with a reason (TOUR-OVER-*); anyone else is refused.
pub async fn override_pairing(
    State(state): State<AppState>,
    Path(id): Path<String>,
    caller: Caller,
    J(body): J<OverrideBody>,
) -> AppResult<(StatusCode, Json<Value>)> {
    let g = official(&caller, &id, false)?.clone();
    let t = state.tournament(&id).await?;
    let s = &t.loaded.state;
    may_override(&g, s, "changes pairings by hand")?;
    let (round, tables, byes) = match (body.move_table, body.to) {
        (Some(from), Some(to)) => moved_match(s, from, to)?,
        (None, None) => swapped_seats(s, &body)?,
        _ => return Err(AppError::BadRequest("a move gives move_table and to".into())),
    };
    // A table whose game has started keeps its players (TOUR-OVER-2): the store knows the games.
    {
        let (store, t, tables) = (state.store().clone(), t.clone(), tables.clone());
        tokio::task::spawn_blocking(move || {
            crate::tournament::ops::check_override_games(&*store, &t.id, &t.loaded.state, &tables)
        })
        .await??;
    }
    let reason = body.reason.clone().unwrap_or_default().trim().to_string();
    let ev = TournamentEvent::PairingOverridden { round, tables, byes, by: g.name.clone(), reason };
    recorded(&state, &id, actor_of(&g), vec![ev]).await
}

/// The latest round with the match at `from` moved to table `to` (404 for a table not in it).
fn moved_match(s: &Tournament, from: u32, to: u32) -> AppResult<(u32, Vec<PairedTable>, Vec<String>)> {
    let l = s.rounds.last().ok_or_else(|| AppError::Conflict("no round is paired".into()))?;
    if from == to {
        return Err(AppError::BadRequest(format!("the match is already at table {to}")));
    }
    rules::moved(s, from, to)
        .ok_or_else(|| AppError::NotFound(format!("round {} has no table {from} or no table {to}", l.round)))
}

/// The latest round with two players' seats swapped (by name, or a player and a table).
fn swapped_seats(s: &Tournament, body: &OverrideBody) -> AppResult<(u32, Vec<PairedTable>, Vec<String>)> {
    let (x, y) = match (&body.swap, &body.seat, body.table) {
        (Some(pair), None, _) if pair.len() == 2 => (rules::resolve(s, &pair[0])?, rules::resolve(s, &pair[1])?),
        (None, Some(p), Some(table)) => {
            let who = rules::resolve(s, p)?;
            let l = s.rounds.last().ok_or_else(|| AppError::Conflict("no round is paired".into()))?;
            let tb = l
                .tables
                .get((table as usize).wrapping_sub(1))
                .ok_or_else(|| AppError::NotFound(format!("round {} has no table {table}", l.round)))?;
            (who, s.players[tb.a].name.clone())
        }
        _ => {
            return Err(AppError::BadRequest(
                "give swap: [PLAYER, PLAYER], seat and table, or move_table and to".into(),
            ))
        }
    };
    rules::swapped(s, &x, &y).ok_or_else(|| AppError::Conflict("no round is paired".into()))
}
