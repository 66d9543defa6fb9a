//! Games created in the server, so nobody stops it to run `kifu game new`:
//! `POST /games` (a judge or organizer of every event creates any game, with the same checks
//! and errors as `kifu game new`), and `POST /tournaments/{id}/rounds/{r}/tables/{t}/games`
//! (or `.../pods/{p}/games`), the next game of a match, bound to it in its hashed header, with
//! the pairing's players in seat order. A bound game is in its match's scope from its first
//! event: its players see and record their own seats, the event's officials everything.

use std::collections::BTreeMap;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};

use super::auth::Caller;
use super::error::{AppError, AppResult, J};
use super::state::{stream_id, AppState};
use super::tokens::{Role, ALL};
use crate::game::NewGame;
use crate::log::envelope::{MatchBinding, MatchPlace, StreamId};
use crate::store::StoreError;

/// At most this many games of one match (a best-of-N needs N; replays after a judge's ruling
/// add a few).
const MAX_GAMES_PER_MATCH: u32 = 32;

/// What a new game brings: the deck lists (one text per seat, in the game's deck-list format),
/// an optional catalog text, and `KEY: VALUE` policies.
#[derive(Deserialize)]
pub struct Setup {
    #[serde(default)]
    pub decks: Vec<String>,
    pub catalog: Option<String>,
    #[serde(default)]
    pub policies: BTreeMap<String, String>,
}

#[derive(Deserialize)]
pub struct NewGameBody {
    pub game: String,
    pub players: Vec<String>,
    /// The stream id (default: `<game>-<players>-<n>`, the first free one).
    pub id: Option<String>,
    #[serde(flatten)]
    pub setup: Setup,
}

/// Creates the game: the same checks and errors as `kifu game new`.
async fn create(
    state: &AppState,
    id: StreamId,
    game: &str,
    players: Vec<String>,
    setup: Setup,
    bound: Option<MatchBinding>,
) -> AppResult<(StatusCode, Json<Value>)> {
    let driver = crate::games::driver(game).ok_or_else(|| {
        let known: Vec<_> = crate::games::drivers().iter().map(|d| d.ruleset()).collect();
        AppError::BadRequest(format!("unknown game {game:?}; this server records: {}", known.join(", ")))
    })?;
    let store = state.store().clone();
    let now = state.clock().now();
    let policies: Vec<(String, String)> = setup.policies.into_iter().collect();
    let (sid, names, at) = (id.clone(), players.clone(), bound.clone());
    let dir = state.seeds().cloned();
    let created = tokio::task::spawn_blocking(move || {
        let request =
            NewGame { players: &names, decks: &setup.decks, catalog: setup.catalog.as_deref(), policies: &policies };
        let head = driver.create_bound(&*store, &sid, &request, now, at)?;
        // A digital game's cards are dealt by kifu, from a seed kept beside the store (a server
        // without a data directory deals nothing: whoever holds the seed records the draws).
        let Some(dir) = dir else { return Ok((head, false)) };
        let seed = crate::log::hash::Hash32(rand::random::<[u8; 32]>());
        let keep =
            |seeds: &[(String, crate::game::commit::Secret)]| crate::store::kept::save_dealer_seeds(&dir, &sid, seeds);
        let dealt = crate::game::dealer::deal_new_game(driver, &*store, &sid, seed, keep)?;
        Ok((dealt.unwrap_or(head), dealt.is_some()))
    })
    .await?
    .map_err(|e| match e {
        crate::game::record::GameError::Store(StoreError::StreamExists { .. }) => {
            AppError::Conflict(format!("a stream {id} exists already"))
        }
        e => e.into(),
    })?;
    let (head, dealt) = created;
    let body = json!({
        "id": id.to_string(),
        "game": game,
        "players": players,
        "bound": bound.map(|b| b.to_string()),
        "events": head.len,
        "head": head.hash.to_hex().to_string(),
        "dealt_by_kifu": dealt,
    });
    Ok((StatusCode::CREATED, Json(body)))
}

/// `POST /games`: a judge or organizer whose token covers every event creates a game.
pub async fn new_game(
    State(state): State<AppState>,
    caller: Caller,
    J(body): J<NewGameBody>,
) -> AppResult<(StatusCode, Json<Value>)> {
    let g = caller.require_token()?;
    if g.role == Role::Player || g.scope != ALL {
        return Err(AppError::Forbidden(
            "creating a game outside a tournament needs a judge or organizer token for every event; \
             a tournament's officials create its games from its tables"
                .into(),
        ));
    }
    if body.players.is_empty() || body.players.len() > 16 {
        return Err(AppError::BadRequest("give the players in seat order (1 to 16)".into()));
    }
    let id = match &body.id {
        Some(id) => stream_id(id)?,
        None => free_id(&state, |n| format!("{}-{}-{n}", body.game, body.players.join("-")))?.0,
    };
    create(&state, id, &body.game, body.players, body.setup, None).await
}

/// The first free stream id `name(n)` for n = 1, 2, ..., and the one before it (the match's last
/// game), if any.
fn free_id(state: &AppState, name: impl Fn(u32) -> String) -> AppResult<(StreamId, Option<StreamId>)> {
    let mut last = None;
    for n in 1..=MAX_GAMES_PER_MATCH {
        let id = stream_id(&name(n))
            .map_err(|_| AppError::BadRequest(format!("{:?} is no valid stream id: give an id", name(n))))?;
        match state.store().head(&id) {
            Err(StoreError::UnknownStream(_)) => return Ok((id, last)),
            Err(e) => return Err(e.into()),
            Ok(_) => last = Some(id),
        }
    }
    Err(AppError::Conflict(format!("{MAX_GAMES_PER_MATCH} games named like {} exist already: give an id", name(1))))
}

/// `POST /tournaments/{id}/rounds/{r}/tables/{t}/games`: the next game of a table's match.
pub async fn table_game(
    State(state): State<AppState>,
    Path((id, round, table)): Path<(String, u32, u32)>,
    caller: Caller,
    J(setup): J<Setup>,
) -> AppResult<(StatusCode, Json<Value>)> {
    match_game(state, id, round, MatchPlace::Table(table), caller, setup).await
}

/// `POST /tournaments/{id}/rounds/{r}/pods/{p}/games`: the next game of a pod.
pub async fn pod_game(
    State(state): State<AppState>,
    Path((id, round, pod)): Path<(String, u32, u32)>,
    caller: Caller,
    J(setup): J<Setup>,
) -> AppResult<(StatusCode, Json<Value>)> {
    match_game(state, id, round, MatchPlace::Pod(pod), caller, setup).await
}

async fn match_game(
    state: AppState,
    id: String,
    round: u32,
    place: MatchPlace,
    caller: Caller,
    setup: Setup,
) -> AppResult<(StatusCode, Json<Value>)> {
    let grant = caller.require_token()?.clone();
    let official = caller.official_for(&id).is_some();
    let t = state.tournament(&id).await?;
    let bound = MatchBinding { tournament: t.id.clone(), round, place };
    let players = crate::tournament::claim::seated_at(&t.loaded.state, &bound)
        .map_err(|e| AppError::NotFound(format!("no such match: {e}")))?;
    // The match's own players start its games too (one tap at the table), with what the event
    // fixed: their registered lists and the event's rules. Only an official brings other lists,
    // a catalog or policies.
    let seated = grant.role == Role::Player && grant.scope == id && players.contains(&grant.name);
    if !official && !seated {
        return Err(AppError::Forbidden(
            "this needs a judge or organizer token for this tournament, or the token of a player of this match".into(),
        ));
    }
    if !official && (!setup.decks.is_empty() || setup.catalog.is_some() || !setup.policies.is_empty()) {
        return Err(AppError::Forbidden(
            "a player starts the match's game with the registered lists and the event's rules: decks, catalog \
             and policies are for judges"
                .into(),
        ));
    }
    let decided = t.loaded.state.rounds.iter().find(|r| r.round == round).is_some_and(|r| match place {
        MatchPlace::Table(n) => r.table_at(n).and_then(|i| r.tables.get(i)).is_some_and(|t| t.result.is_some()),
        MatchPlace::Pod(n) => r.pods.iter().any(|p| p.pod == n && p.places.is_some()),
    });
    if decided {
        return Err(AppError::Conflict(format!("{bound} has its result: it takes no new game")));
    }
    let game = t.loaded.config.game.clone();
    let (what, n) = match place {
        MatchPlace::Table(n) => ("t", n),
        MatchPlace::Pod(n) => ("p", n),
    };
    let (sid, last) = free_id(&state, |g| format!("{id}-r{round}-{what}{n}-g{g}"))?;
    // The match's last game still in play blocks the next one; a stream of that name that is not
    // a game of this match (bound elsewhere, or not at all) blocks it too.
    if let Some(last) = last {
        let g = state.game(last.as_str()).await?;
        if g.bound.as_ref() != Some(&bound) {
            return Err(AppError::Conflict(format!("{last} exists and is not a game of {bound}")));
        }
        if g.outcome.is_none() {
            // Where the table's game is: a page that tapped "start" opens it instead.
            let error = format!("{last} is still being played: finish it first");
            return Ok((StatusCode::CONFLICT, Json(json!({ "error": error, "status": 409, "game": last.as_str() }))));
        }
    }
    let mut setup = setup;
    if setup.decks.is_empty() {
        // The lists the players registered for the event, checked against their commitments.
        let dir = state.seeds().cloned().ok_or_else(|| {
            AppError::Conflict("give the decks: this server keeps no registered deck lists (no data directory)".into())
        })?;
        setup.decks = players
            .iter()
            .map(|p| crate::tournament::ops::load_deck_list(&dir, &t.id, &t.loaded.state, p))
            .collect::<Result<_, _>>()?;
    }
    create(&state, sid, &game, players, setup, Some(bound)).await
}
