//! Investigations over the API: statements (recorded and read by the event's judges and
//! organizer only; a player's token is refused with 403, and the log holds only each text's
//! sealed commitment) and a player's case file. Disqualification reports are signed with the
//! head judge's key file, which never reaches the server: they are recorded from the command
//! line (`kifu tournament dq-report`) and shown here in the case file.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};

use super::auth::Caller;
use super::error::{AppError, AppResult, J, Q};
use super::state::AppState;
use super::tokens::Grant;
use crate::game::commit::Commitment;
use crate::tournament::events::StatementBy;

/// The event's officials, or 403 saying investigations are theirs only.
fn judges_only<'a>(caller: &'a Caller, id: &str, what: &str) -> AppResult<&'a Grant> {
    caller.require_token()?;
    caller.official_for(id).ok_or_else(|| {
        AppError::Forbidden(format!("{what} are for the event's judges only: this needs a judge or organizer token"))
    })
}

#[derive(Deserialize)]
pub struct StatementBody {
    /// The player the investigation is about.
    pub player: String,
    /// player, opponent, witness or judge.
    pub by: String,
    /// Who gave it.
    pub author: String,
    pub text: String,
}

/// `POST /tournaments/{id}/statements`: a judge records a statement (the token's holder took it,
/// at the server's clock).
pub async fn record(
    State(state): State<AppState>,
    Path(id): Path<String>,
    caller: Caller,
    J(body): J<StatementBody>,
) -> AppResult<(StatusCode, Json<Value>)> {
    let g = judges_only(&caller, &id, "statements")?.clone();
    let t = state.tournament(&id).await?;
    let by: StatementBy = body.by.parse().map_err(|e| AppError::BadRequest(format!("{e}")))?;
    let dir = super::decks::data_dir(&state)?;
    let store = state.store().clone();
    let sid = t.id.clone();
    let at = state.clock().now();
    let (head, n) = tokio::task::spawn_blocking(move || {
        let salt = Commitment(rand::random::<[u8; 32]>());
        let s = crate::tournament::ops::NewStatement {
            player: &body.player,
            by,
            author: &body.author,
            judge: &g.name,
            at,
            text: &body.text,
        };
        crate::tournament::ops::record_statement(&*store, &dir, &sid, &s, &salt, super::tournament_writes::actor_of(&g))
            .map_err(AppError::from)
    })
    .await??;
    let answer = json!({"statement": n, "events": head.len, "head": head.hash.to_hex().to_string()});
    Ok((StatusCode::CREATED, Json(answer)))
}

#[derive(Deserialize)]
pub struct PlayerQuery {
    pub player: String,
}

/// The case file of `player`, statements' text included (for the event's officials).
async fn case_of(state: &AppState, caller: &Caller, id: &str, player: &str, what: &str) -> AppResult<Value> {
    judges_only(caller, id, what)?;
    let t = state.tournament(id).await?;
    let dir = super::decks::data_dir(state)?;
    let (store, sid, player) = (state.store().clone(), t.id.clone(), player.to_string());
    let case = tokio::task::spawn_blocking(move || {
        crate::tournament::ops::case_file(&*store, &dir, &sid, &player, true).map_err(AppError::from)
    })
    .await??;
    serde_json::to_value(case).map_err(|e| AppError::Internal(e.to_string()))
}

/// `GET /tournaments/{id}/statements?player=NAME`: the statements about a player, with their
/// text (the event's officials only).
pub async fn list(
    State(state): State<AppState>,
    Path(id): Path<String>,
    caller: Caller,
    Q(q): Q<PlayerQuery>,
) -> AppResult<Json<Value>> {
    let case = case_of(&state, &caller, &id, &q.player, "statements").await?;
    Ok(Json(json!({"player": case["player"], "statements": case["statements"]})))
}

/// `GET /tournaments/{id}/case/{player}`: the player's case file (the event's officials only).
pub async fn case(
    State(state): State<AppState>,
    Path((id, player)): Path<(String, String)>,
    caller: Caller,
) -> AppResult<Json<Value>> {
    Ok(Json(case_of(&state, &caller, &id, &player, "case files").await?))
}

/// `GET /tournaments/{id}/case/{player}/export`: the player's case for conduct reviewers, as a
/// file to hand over (the event's officials only): the tournament's log, the statements about
/// the player revealed, and the player's rulings in games with those games' logs;
/// `kifu tournament case-check FILE [--head HEX]` checks it anywhere.
pub async fn export(
    State(state): State<AppState>,
    Path((id, player)): Path<(String, String)>,
    caller: Caller,
) -> AppResult<impl axum::response::IntoResponse> {
    judges_only(&caller, &id, "case exports")?;
    let t = state.tournament(&id).await?;
    let dir = super::decks::data_dir(&state)?;
    let (store, sid) = (state.store().clone(), t.id.clone());
    let bundle = tokio::task::spawn_blocking(move || {
        crate::tournament::ops::export_case(&*store, &dir, &sid, &player).map_err(AppError::from)
    })
    .await??;
    // The file name is built from the validated stream id and the registered name's safe characters.
    let safe: String = bundle.player.chars().filter(|c| c.is_ascii_alphanumeric() || *c == '-').take(40).collect();
    let disposition = format!("attachment; filename=\"{}-case-{safe}.json\"", t.id);
    Ok(([(axum::http::header::CONTENT_DISPOSITION, disposition)], Json(bundle)))
}
