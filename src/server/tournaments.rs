//! The tournament endpoints: summary, pairings (by table and by name), standings with the
//! policy's tiebreakers, the top-cut bracket, the verification report with the root hash, and
//! result reporting: a player reports, the opponent confirms (then it is recorded); judges and
//! the organizer report or correct directly.

use std::collections::HashMap;
use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::{header, StatusCode};
use axum::response::IntoResponse;
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};

use super::auth::Caller;
use super::error::{AppError, AppResult, J, Q};
use super::state::{stream_id, AppState, OpenTournament, PendingReport};
use super::tokens::Role;
use crate::log::envelope::Actor;
use crate::tournament::claim;
use crate::tournament::events::GameLink;
use crate::tournament::policy::Tiebreaker;
use crate::tournament::record::{self, Loaded};
use crate::tournament::state::{RoundState, TableState, Tournament};
use crate::tournament::{MatchScore, TournamentEvent};

fn name(t: &Tournament, i: usize) -> String {
    t.players.get(i).map_or_else(|| "?".to_string(), |p| p.name.clone())
}

fn links(games: &[GameLink]) -> Vec<Value> {
    games.iter().map(|g| json!({"stream": g.stream, "head": g.head.to_hex()})).collect()
}

fn winner(t: &Tournament, tb: &TableState) -> Option<String> {
    tb.winner().map(|w| name(t, w))
}

/// `GET /tournaments/{id}`.
pub async fn summary(State(state): State<AppState>, Path(id): Path<String>) -> AppResult<Json<Value>> {
    let t = state.tournament(&id).await?;
    let s = &t.loaded.state;
    let c = &t.loaded.config;
    let rounds: Vec<Value> = s
        .rounds
        .iter()
        .map(|r| json!({"round": r.round, "top_cut": r.top_cut, "tables": r.tables.len(), "complete": r.complete()}))
        .collect();
    Ok(Json(json!({
        "id": t.id.as_str(),
        "name": c.name,
        "game": c.game,
        "policy": c.policy.rules().name,
        "top_cut": c.top_cut,
        "swiss_rounds": s.swiss_rounds,
        "swiss_played": s.swiss_played(),
        "players": s.players.len(),
        "rounds": rounds,
        "finalized": s.finalized,
        "events": t.loaded.head.len,
        "head": t.loaded.head.hash.to_hex(),
        "games": t.linked.len(),
    })))
}

#[derive(Deserialize)]
pub struct RoundQuery {
    pub round: Option<u32>,
}

fn table_json(s: &Tournament, tb: &TableState, points: &HashMap<String, u32>) -> Value {
    let (a, b) = (name(s, tb.a), name(s, tb.b));
    json!({
        "table": tb.table,
        "a": a, "a_points": points.get(&a).copied().unwrap_or(0),
        "b": b, "b_points": points.get(&b).copied().unwrap_or(0),
        "result": tb.result.map(|r| r.to_string()),
        "winner": winner(s, tb),
        "corrections": tb.corrections,
        "games": links(&tb.games),
    })
}

/// `GET /tournaments/{id}/pairings?round=N`: a round's tables (default: the latest round), and
/// the same pairings alphabetically by player, as posted at events.
pub async fn pairings(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Q(q): Q<RoundQuery>,
) -> AppResult<Json<Value>> {
    let t = state.tournament(&id).await?;
    let s = &t.loaded.state;
    let r: &RoundState = match q.round {
        Some(n) => s.rounds.iter().find(|r| r.round == n).ok_or_else(|| AppError::NotFound(format!("no round {n}")))?,
        None => s.rounds.last().ok_or_else(|| AppError::NotFound("no round is paired yet".into()))?,
    };
    let points: HashMap<String, u32> = s.standings().into_iter().map(|r| (r.player, r.points)).collect();
    let tables: Vec<Value> = r.tables.iter().map(|tb| table_json(s, tb, &points)).collect();
    let byes: Vec<String> = r.byes.iter().map(|&b| name(s, b)).collect();
    let mut by_name: Vec<Value> = Vec::new();
    for tb in &r.tables {
        let (a, b) = (name(s, tb.a), name(s, tb.b));
        by_name.push(json!({"player": a, "table": tb.table, "opponent": b}));
        by_name.push(json!({"player": b, "table": tb.table, "opponent": a}));
    }
    for b in &byes {
        by_name.push(json!({"player": b, "table": null, "opponent": null}));
    }
    by_name.sort_by_key(|v| v["player"].as_str().unwrap_or_default().to_lowercase());
    Ok(Json(json!({"round": r.round, "top_cut": r.top_cut, "tables": tables, "byes": byes, "by_name": by_name})))
}

/// The standings response: rows with every tiebreaker, and the policy's tiebreaker columns.
pub fn standings_body(loaded: &Loaded) -> Value {
    let rules = loaded.config.policy.rules();
    let columns: Vec<Value> = rules
        .tiebreakers
        .iter()
        .filter(|tb| **tb != Tiebreaker::HeadToHead)
        .map(|tb| {
            let (key, label) = match tb {
                Tiebreaker::OpponentMatchWin => ("omw", if rules.pokemon_pct { "Op Win%" } else { tb.label() }),
                Tiebreaker::GameWin => ("gw", tb.label()),
                Tiebreaker::OpponentGameWin => ("ogw", tb.label()),
                Tiebreaker::OpponentOpponentMatchWin => {
                    ("oomw", if rules.pokemon_pct { "Op Op Win%" } else { tb.label() })
                }
                Tiebreaker::LatePenalty => ("late", tb.label()),
                Tiebreaker::HeadToHead => ("h2h", tb.label()),
            };
            json!({"key": key, "label": label})
        })
        .collect();
    json!({
        "name": loaded.config.name,
        "policy": rules.name,
        "swiss_played": loaded.state.swiss_played(),
        "columns": columns,
        "rows": loaded.state.standings(),
    })
}

/// `GET /tournaments/{id}/standings` (serialized once per head).
pub async fn standings(State(state): State<AppState>, Path(id): Path<String>) -> AppResult<impl IntoResponse> {
    let t = state.tournament(&id).await?;
    Ok(([(header::CONTENT_TYPE, "application/json")], t.standings_json.clone()))
}

/// `GET /tournaments/{id}/bracket`: the top cut, round by round.
pub async fn bracket(State(state): State<AppState>, Path(id): Path<String>) -> AppResult<Json<Value>> {
    let t = state.tournament(&id).await?;
    let s = &t.loaded.state;
    let points: HashMap<String, u32> = HashMap::new();
    let rounds: Vec<Value> = s
        .rounds
        .iter()
        .filter(|r| r.top_cut)
        .map(|r| {
            let stage = r.stage();
            let tables: Vec<Value> = r.tables.iter().map(|tb| table_json(s, tb, &points)).collect();
            json!({"round": r.round, "stage": stage, "tables": tables})
        })
        .collect();
    Ok(Json(json!({"top_cut": t.loaded.config.top_cut, "rounds": rounds})))
}

/// `GET /tournaments/{id}/verify`: chain, pairings, standings and linked games re-checked; the root hash.
pub async fn verify(State(state): State<AppState>, Path(id): Path<String>) -> AppResult<Json<Value>> {
    let t = state.tournament(&id).await?;
    let report = state.tournament_report(&t).await?;
    Ok(Json(json!({
        "ok": report.ok(),
        "tournament": report.tournament,
        "events": report.events,
        "head": report.head,
        "games": report.games,
        "root": report.root,
        "checks": report.checks,
    })))
}

/// `GET /tournaments/{id}/results`: reports waiting for the opponent's confirmation.
pub async fn pending(State(state): State<AppState>, Path(id): Path<String>) -> AppResult<Json<Value>> {
    // Only a tournament has results (404 for no stream, 400 for a game).
    state.tournament(&id).await?;
    let list: Vec<PendingReport> = state.pending()?.iter().filter(|p| p.tournament == id).cloned().collect();
    Ok(Json(json!({"pending": list})))
}

#[derive(Deserialize)]
pub struct ReportBody {
    /// Default: the latest round.
    pub round: Option<u32>,
    pub table: u32,
    /// W-L-D in games from the first-listed player's side.
    pub score: String,
    /// Game streams played in this match; their current heads are linked.
    #[serde(default)]
    pub games: Vec<String>,
    /// A correction of an existing result (judges and the organizer) gives its reason.
    pub reason: Option<String>,
}

fn round_of(t: &OpenTournament, round: Option<u32>) -> AppResult<u32> {
    round
        .or(t.loaded.state.rounds.last().map(|r| r.round))
        .ok_or_else(|| AppError::BadRequest("no round is paired yet".into()))
}

fn table_of(t: &OpenTournament, round: u32, table: u32) -> AppResult<(String, String, bool)> {
    let s = &t.loaded.state;
    let r =
        s.rounds.iter().find(|r| r.round == round).ok_or_else(|| AppError::NotFound(format!("no round {round}")))?;
    let tb = r
        .tables
        .iter()
        .find(|x| x.table == table)
        .ok_or_else(|| AppError::NotFound(format!("round {round} has no table {table}")))?;
    Ok((name(s, tb.a), name(s, tb.b), tb.result.is_some()))
}

async fn record_event(state: &AppState, id: &str, actor: Actor, ev: TournamentEvent) -> AppResult<Value> {
    let store = state.store().clone();
    let sid = stream_id(id)?;
    let (head, _) = tokio::task::spawn_blocking(move || record::record(&*store, &sid, actor, vec![ev])).await??;
    state.notify(id, head.len);
    Ok(json!({"recorded": true, "events": head.len, "head": head.hash.to_hex()}))
}

/// The links of a result, each game checked by [`claim::claim_games`] (the tournament may claim it).
async fn claimed_links(
    state: &AppState,
    t: &Arc<OpenTournament>,
    round: u32,
    table: u32,
    games: &[String],
) -> AppResult<Vec<GameLink>> {
    let (store, t, games) = (state.store().clone(), t.clone(), games.to_vec());
    Ok(tokio::task::spawn_blocking(move || claim::claim_games(&*store, &t.loaded, round, table, &games)).await??)
}

/// `POST /tournaments/{id}/results`: a player's report (pending until the opponent confirms), or
/// a judge's or the organizer's report or correction (recorded at once).
pub async fn report(
    State(state): State<AppState>,
    Path(id): Path<String>,
    caller: Caller,
    J(body): J<ReportBody>,
) -> AppResult<(StatusCode, Json<Value>)> {
    let grant = caller.require_token()?.clone();
    let t = state.tournament(&id).await?;
    let score: MatchScore = body.score.parse().map_err(AppError::BadRequest)?;
    let round = round_of(&t, body.round)?;
    let (a, b, has_result) = table_of(&t, round, body.table)?;
    if let Some(official) = caller.official_for(&id) {
        let games = claimed_links(&state, &t, round, body.table, &body.games).await?;
        let (ev, actor) = match (&body.reason, has_result) {
            (Some(reason), true) => (
                TournamentEvent::ResultCorrected {
                    round,
                    table: body.table,
                    score,
                    games,
                    judge: official.name.clone(),
                    reason: reason.clone(),
                },
                Actor::Judge(official.name.clone()),
            ),
            (None, true) => {
                return Err(AppError::Conflict(format!(
                    "round {round} table {} already has a result; a correction gives a reason",
                    body.table
                )))
            }
            (_, false) => {
                let actor = match official.role {
                    Role::Organizer => Actor::Organizer(official.name.clone()),
                    _ => Actor::Judge(official.name.clone()),
                };
                (TournamentEvent::ResultReported { round, table: body.table, score, games }, actor)
            }
        };
        let out = record_event(&state, &id, actor, ev).await?;
        let mut pending = state.pending()?;
        pending.retain(|p| !(p.tournament == id && p.round == round && p.table == body.table));
        state.save_pending(&pending)?;
        return Ok((StatusCode::CREATED, Json(out)));
    }
    if grant.role != Role::Player || grant.scope != id {
        return Err(AppError::Forbidden("your token is not for this tournament".into()));
    }
    if grant.name != a && grant.name != b {
        return Err(AppError::Forbidden(format!("{} does not play at round {round} table {}", grant.name, body.table)));
    }
    if has_result {
        return Err(AppError::Conflict("this match already has a result; ask a judge to correct it".into()));
    }
    claimed_links(&state, &t, round, body.table, &body.games).await?;
    let report = PendingReport {
        tournament: id.clone(),
        round,
        table: body.table,
        score: score.to_string(),
        games: body.games.clone(),
        reported_by: grant.name.clone(),
        disputed: None,
    };
    let mut pending = state.pending()?;
    pending.retain(|p| !(p.tournament == id && p.round == round && p.table == body.table));
    pending.push(report.clone());
    state.save_pending(&pending)?;
    Ok((StatusCode::ACCEPTED, Json(json!({"recorded": false, "pending": report}))))
}

#[derive(Deserialize)]
pub struct ConfirmBody {
    pub round: Option<u32>,
    pub table: u32,
    /// The score as the confirming player read it (first-listed player's side); must match.
    pub score: String,
}

/// `POST /tournaments/{id}/results/confirm`: the opponent confirms a pending report; then it is
/// recorded as `ResultReported` with the confirming player as the actor. A different score marks
/// the report disputed (409) and a judge decides.
pub async fn confirm(
    State(state): State<AppState>,
    Path(id): Path<String>,
    caller: Caller,
    J(body): J<ConfirmBody>,
) -> AppResult<(StatusCode, Json<Value>)> {
    let grant = caller.require_token()?.clone();
    if grant.role != Role::Player || grant.scope != id {
        return Err(AppError::Forbidden("only the opponent (a player token of this tournament) confirms".into()));
    }
    let t = state.tournament(&id).await?;
    let round = round_of(&t, body.round)?;
    let (a, b, _) = table_of(&t, round, body.table)?;
    let score: MatchScore = body.score.parse().map_err(AppError::BadRequest)?;
    let report = {
        let mut pending = state.pending()?;
        let Some(p) = pending.iter_mut().find(|p| p.tournament == id && p.round == round && p.table == body.table)
        else {
            return Err(AppError::NotFound(format!("no pending report for round {round} table {}", body.table)));
        };
        let opponent = if p.reported_by == a { &b } else { &a };
        if &grant.name != opponent {
            return Err(AppError::Forbidden(format!("only {opponent} confirms this report")));
        }
        if p.score != score.to_string() {
            p.disputed = Some(format!("{} says {score}", grant.name));
            let msg = format!("{} reported {}, you say {score}: disputed, a judge will decide", p.reported_by, p.score);
            state.save_pending(&pending)?;
            return Err(AppError::Conflict(msg));
        }
        p.clone()
    };
    let games = claimed_links(&state, &t, round, body.table, &report.games).await?;
    let ev = TournamentEvent::ResultReported { round, table: body.table, score, games };
    let out = record_event(&state, &id, Actor::Player(grant.name.clone()), ev).await?;
    let mut pending = state.pending()?;
    pending.retain(|p| !(p.tournament == id && p.round == round && p.table == body.table));
    state.save_pending(&pending)?;
    Ok((StatusCode::CREATED, Json(out)))
}
