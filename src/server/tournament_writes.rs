//! What the tournament handlers share (`tournaments`, `judging`, `pod_results`, `decks`, `cases`):
//! the official calling and what only the organizer or head judge may override, the actor a write
//! is recorded as, an official's result as a report or a correction, recording events with the
//! answer every write gives, and the round and player names a request refers to.

use axum::http::StatusCode;
use axum::Json;
use serde_json::{json, Value};

use super::auth::Caller;
use super::error::{AppError, AppResult};
use super::state::{stream_id, AppState, OpenTournament};
use super::tokens::{Grant, Role};
use crate::log::envelope::Actor;
use crate::tournament::record;
use crate::tournament::state::Tournament;
use crate::tournament::TournamentEvent;

/// A player's name by index, `?` for none.
pub(super) fn name(t: &Tournament, i: usize) -> String {
    t.players.get(i).map_or_else(|| "?".to_string(), |p| p.name.clone())
}

/// The round a request names, else the latest paired round; 400 before the first.
pub(super) fn round_of(t: &OpenTournament, round: Option<u32>) -> AppResult<u32> {
    round
        .or(t.loaded.state.rounds.last().map(|r| r.round))
        .ok_or_else(|| AppError::BadRequest("no round is paired yet".into()))
}

/// The official (judge or organizer) of this tournament calling, or 403. `organizer_only`
/// refuses judges.
pub(super) fn official<'a>(caller: &'a Caller, id: &str, organizer_only: bool) -> AppResult<&'a Grant> {
    caller.require_token()?;
    match caller.official_for(id) {
        Some(g) if !organizer_only || g.role == Role::Organizer => Ok(g),
        Some(_) => Err(AppError::Forbidden("only the organizer does this".into())),
        None => Err(AppError::Forbidden("this needs a judge or organizer token for this tournament".into())),
    }
}

/// An override (pairings changed by hand, a late entry, a result entered against the players'
/// reports) is the organizer's or the head judge's the event named (TOUR-OVER-1): 403 otherwise.
pub(super) fn may_override(g: &Grant, s: &Tournament, what: &str) -> AppResult<()> {
    if g.role == Role::Organizer || s.head_judge.as_deref() == Some(g.name.as_str()) {
        return Ok(());
    }
    Err(AppError::Forbidden(format!("only the organizer or the head judge {what}")))
}

/// An override's reason from a body, trimmed; 400 when missing or blank (nothing is written).
pub(super) fn override_reason(reason: &Option<String>, what: &str) -> AppResult<String> {
    match reason.as_deref().map(str::trim) {
        Some(r) if !r.is_empty() => Ok(r.to_string()),
        _ => Err(AppError::BadRequest(format!("{what} is an override on the record: give its reason"))),
    }
}

/// The actor an official's write is recorded as: the organizer as such, a judge as a judge.
pub(super) fn actor_of(g: &Grant) -> Actor {
    match g.role {
        Role::Organizer => Actor::Organizer(g.name.clone()),
        _ => Actor::Judge(g.name.clone()),
    }
}

/// What an official's result is: a first report, or a correction of a recorded one.
pub(super) enum Entry {
    Report(Actor),
    Correction { judge: String, reason: String, actor: Actor },
}

/// A judge's or the organizer's result for a table or pod (`at`): recorded at once as a report
/// (the organizer acting as such), or, when there is a result already, a correction that gives
/// its reason (in the judge's name), else 409.
pub(super) fn official_entry(official: &Grant, reason: Option<&str>, has_result: bool, at: &str) -> AppResult<Entry> {
    match (reason, has_result) {
        (Some(reason), true) => Ok(Entry::Correction {
            judge: official.name.clone(),
            reason: reason.to_string(),
            actor: Actor::Judge(official.name.clone()),
        }),
        (None, true) => Err(AppError::Conflict(format!("{at} already has a result; a correction gives a reason"))),
        (_, false) => Ok(Entry::Report(actor_of(official))),
    }
}

/// Records `events` and answers 201 with the new head (what every organizer's write answers).
pub(super) async fn recorded(
    state: &AppState,
    id: &str,
    actor: Actor,
    events: Vec<TournamentEvent>,
) -> AppResult<(StatusCode, Json<Value>)> {
    Ok((StatusCode::CREATED, Json(record_events(state, id, actor, events).await?)))
}

/// Records `events`; the answer says the new head.
async fn record_events(state: &AppState, id: &str, actor: Actor, events: Vec<TournamentEvent>) -> AppResult<Value> {
    let store = state.store().clone();
    let sid = stream_id(id)?;
    let (head, _) = tokio::task::spawn_blocking(move || record::record(&*store, &sid, actor, events)).await??;
    Ok(json!({"recorded": true, "events": head.len, "head": head.hash.to_hex()}))
}

/// Records one event; the answer every write gives.
pub(super) async fn record_event(state: &AppState, id: &str, actor: Actor, ev: TournamentEvent) -> AppResult<Value> {
    record_events(state, id, actor, vec![ev]).await
}
