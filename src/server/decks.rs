//! Deck lists registered for an event through the server: `POST /tournaments/{id}/decks` (a
//! player registers their own list, an official anyone's) checks the list by the game's deck
//! rules, keeps it privately (the server's data directory, owner-only) and records its
//! commitment; `GET /tournaments/{id}/decks/{player}` gives the list to that player and to the
//! event's officials only.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};

use super::auth::Caller;
use super::error::{AppError, AppResult, J};
use super::state::AppState;
use super::tokens::Role;
use crate::game::commit::Commitment;
use crate::log::envelope::Actor;

/// The largest deck list the server takes (a 60-card list is a few kilobytes).
const DECK_LIST_MAX: usize = 64 * 1024;

#[derive(Deserialize)]
pub struct DeckBody {
    pub player: String,
    /// The list, in the game's deck-list format.
    pub list: String,
}

/// The data directory the lists are kept in, or 409 for a server started without one.
pub(super) fn data_dir(state: &AppState) -> AppResult<std::path::PathBuf> {
    state
        .seeds()
        .cloned()
        .ok_or_else(|| AppError::Conflict("this server keeps no private files (start it with a data directory)".into()))
}

/// Who may read or register `player`'s list of tournament `id`: the player, or an official.
fn may_handle(caller: &Caller, id: &str, player: &str) -> AppResult<Actor> {
    let g = caller.require_token()?;
    if let Some(o) = caller.official_for(id) {
        return Ok(match o.role {
            Role::Organizer => Actor::Organizer(o.name.clone()),
            _ => Actor::Judge(o.name.clone()),
        });
    }
    if g.role == Role::Player && g.scope == id && g.name == player {
        return Ok(Actor::Player(g.name.clone()));
    }
    Err(AppError::Forbidden(format!("{player}'s deck list is theirs and the event's judges' only")))
}

/// `POST /tournaments/{id}/decks`: registers a deck list.
pub async fn register(
    State(state): State<AppState>,
    Path(id): Path<String>,
    caller: Caller,
    J(body): J<DeckBody>,
) -> AppResult<(StatusCode, Json<Value>)> {
    let t = state.tournament(&id).await?;
    let player = crate::tournament::rules::resolve(&t.loaded.state, &body.player)?;
    let actor = may_handle(&caller, &id, &player)?;
    if body.list.len() > DECK_LIST_MAX {
        return Err(AppError::BadRequest(format!("a deck list has at most {DECK_LIST_MAX} bytes")));
    }
    // A deadline the event set (TOUR-DECK-5) holds a player's own list, by the clock of the
    // server that receives it; an official still registers a late one.
    if let (Some(Some(deadline)), Actor::Player(_)) = (t.loaded.state.decks_required, &actor) {
        if state.clock().now() > deadline {
            return Err(AppError::BadRequest(format!(
                "TOUR-DECK-5: deck lists were due by {}; ask a judge to register a late list",
                deadline.to_rfc3339()
            )));
        }
    }
    let game = t.loaded.config.game.clone();
    let driver = crate::games::driver(&game)
        .ok_or_else(|| AppError::Refused(format!("this server does not record {game}: it cannot check the list")))?;
    let dir = data_dir(&state)?;
    let store = state.store().clone();
    let sid = t.id.clone();
    let name = player.clone();
    let (head, commitment) = tokio::task::spawn_blocking(move || {
        driver
            .check_deck(&body.list, None)
            .map_err(|e| AppError::Refused(format!("{name}'s deck list is not legal for {game}: {e}")))?;
        let salt = Commitment(rand::random::<[u8; 32]>());
        crate::tournament::ops::register_deck(&*store, &dir, &sid, &name, &body.list, &salt, actor)
            .map_err(AppError::from)
    })
    .await??;
    let answer = json!({
        "player": player,
        "commitment": commitment,
        "events": head.len,
        "head": head.hash.to_hex().to_string(),
    });
    Ok((StatusCode::CREATED, Json(answer)))
}

/// `GET /tournaments/{id}/decks/{player}`: the list a player registered, to them and officials.
pub async fn show(
    State(state): State<AppState>,
    Path((id, player)): Path<(String, String)>,
    caller: Caller,
) -> AppResult<Json<Value>> {
    let t = state.tournament(&id).await?;
    let player = crate::tournament::rules::resolve(&t.loaded.state, &player)?;
    may_handle(&caller, &id, &player)?;
    let dir = data_dir(&state)?;
    let list = crate::tournament::ops::load_deck_list(&dir, &t.id, &t.loaded.state, &player)?;
    let commitment =
        t.loaded.state.player(&player).and_then(|i| t.loaded.state.players.get(i)).and_then(|p| p.deck_list);
    Ok(Json(json!({ "player": player, "commitment": commitment, "list": list })))
}

#[derive(Deserialize)]
pub struct ChangeBody {
    /// The new list, in the game's deck-list format.
    pub list: String,
    /// Why the list changes after the lock (required, on the record).
    pub reason: String,
}

/// `POST /tournaments/{id}/decks/{player}/change`: a judge or organizer changes a registered
/// list after the lock, with a reason (`DeckListChanged`, the token's holder as the judge).
pub async fn change(
    State(state): State<AppState>,
    Path((id, player)): Path<(String, String)>,
    caller: Caller,
    J(body): J<ChangeBody>,
) -> AppResult<(StatusCode, Json<Value>)> {
    let g = super::tournament_writes::official(&caller, &id, false)?.clone();
    let t = state.tournament(&id).await?;
    let player = crate::tournament::rules::resolve(&t.loaded.state, &player)?;
    if body.list.len() > DECK_LIST_MAX {
        return Err(AppError::BadRequest(format!("a deck list has at most {DECK_LIST_MAX} bytes")));
    }
    let game = t.loaded.config.game.clone();
    let driver = crate::games::driver(&game)
        .ok_or_else(|| AppError::Refused(format!("this server does not record {game}: it cannot check the list")))?;
    let dir = data_dir(&state)?;
    let store = state.store().clone();
    let sid = t.id.clone();
    let name = player.clone();
    let (head, commitment) = tokio::task::spawn_blocking(move || {
        driver
            .check_deck(&body.list, None)
            .map_err(|e| AppError::Refused(format!("{name}'s deck list is not legal for {game}: {e}")))?;
        let salt = Commitment(rand::random::<[u8; 32]>());
        let actor = super::tournament_writes::actor_of(&g);
        crate::tournament::ops::change_deck(&*store, &dir, &sid, &name, &body.list, &salt, &g.name, &body.reason, actor)
            .map_err(AppError::from)
    })
    .await??;
    let answer = json!({
        "player": player,
        "commitment": commitment,
        "events": head.len,
        "head": head.hash.to_hex().to_string(),
    });
    Ok((StatusCode::CREATED, Json(answer)))
}

#[derive(Deserialize)]
pub struct CheckBody {
    pub player: String,
    /// The deck as presented, written out as a list.
    pub list: String,
    /// Default: the latest round.
    pub round: Option<u32>,
    pub table: Option<u32>,
}

/// `POST /tournaments/{id}/deck-checks`: a judge's deck check (the token's holder as the judge,
/// the server's clock as the time). The answer (to the judge) lists the differing cards; the
/// log keeps only whether the deck matched and how many cards differ.
pub async fn check(
    State(state): State<AppState>,
    Path(id): Path<String>,
    caller: Caller,
    J(body): J<CheckBody>,
) -> AppResult<(StatusCode, Json<Value>)> {
    let g = super::tournament_writes::official(&caller, &id, false)?.clone();
    let t = state.tournament(&id).await?;
    let player = crate::tournament::rules::resolve(&t.loaded.state, &body.player)?;
    if body.list.len() > DECK_LIST_MAX {
        return Err(AppError::BadRequest(format!("a deck list has at most {DECK_LIST_MAX} bytes")));
    }
    let round = body
        .round
        .or(t.loaded.state.rounds.last().map(|r| r.round))
        .ok_or_else(|| AppError::BadRequest("no round is paired yet: a deck check is in a round".into()))?;
    let dir = data_dir(&state)?;
    let store = state.store().clone();
    let sid = t.id.clone();
    let name = player.clone();
    let at = state.clock().now();
    let table = body.table;
    let done = tokio::task::spawn_blocking(move || {
        let salt = Commitment(rand::random::<[u8; 32]>());
        let actor = super::tournament_writes::actor_of(&g);
        crate::tournament::ops::deck_check(
            &*store, &dir, &sid, &name, round, table, at, &g.name, &body.list, &salt, actor,
        )
        .map_err(AppError::from)
    })
    .await??;
    let answer = json!({
        "check": done.check,
        "player": player,
        "round": round,
        "table": table,
        "matches": done.differences.is_empty(),
        "differences": done.differences,
        "events": done.head.len,
        "head": done.head.hash.to_hex().to_string(),
    });
    Ok((StatusCode::CREATED, Json(answer)))
}
