//! The options API: what a seat may record now (`GET /games/{id}/options`), and recording one
//! of them by its id (`POST /games/{id}/options`), with the automatic steps it makes due.
//!
//! Each answer says which seats the game awaits (with their names), which are out, and which
//! of the caller's seats may concede; each option says whether it is an any-time action (its
//! seat is not awaited). `POST /games/{id}/concede` records a player's concession of their own
//! seat, authorised as a pick is but for players only: a judge gives a game loss instead.
//!
//! A player's token lists and picks only its own seats' options; a judge's or organizer's lists
//! any seat's and enters a pick as itself, so the log tells "bob played this" from "the judge
//! entered bob's play". A stale id answers 409 with the current head and fresh options.

use std::collections::BTreeMap;

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};

use super::auth::{game_access, Caller, GameAccess};
use super::error::{AppError, AppResult, J, Q};
use super::games::idempotency_key;
use super::state::{AppState, OpenGame};
use super::tokens::Role;
use crate::game::options::{OptionView, PickError};
use crate::game::record::{GameError, Recorded, Write};
use crate::game::Seat;
use crate::log::envelope::Actor;

/// At most this many values in one pick's parameters (a whole opening hand is far less).
const MAX_PARAM_VALUES: usize = 64;

#[derive(Deserialize)]
pub struct OptionsQuery {
    pub seat: Option<Seat>,
}

/// The seats whose options the caller may list or pick: a player's own seats (or the one it
/// names among them), any seat for a judge or organizer (all of them unless one is named).
fn seats_for(access: &GameAccess, seat: Option<Seat>, players: &[String]) -> AppResult<Vec<Seat>> {
    if access.judge {
        let all: Vec<Seat> = (0..players.len()).filter_map(|s| Seat::try_from(s).ok()).collect();
        return match seat {
            Some(s) if !all.contains(&s) => Err(AppError::NotFound(format!("this game has no seat {s}"))),
            Some(s) => Ok(vec![s]),
            None => Ok(all),
        };
    }
    if access.seats.is_empty() {
        return Err(AppError::Forbidden("options are for the game's players and judges".into()));
    }
    match seat {
        Some(s) if !access.seats.contains(&s) => {
            let name = crate::game::seat_name(players, s);
            Err(AppError::Forbidden(format!(
                "seat {s} is {name}'s, not yours: a player sees and picks only their own options"
            )))
        }
        Some(s) => Ok(vec![s]),
        None => Ok(access.seats.clone()),
    }
}

/// What the head says about who acts: the awaited seats (with names, for display), the seats
/// out of the game, and which of `player_seats` may concede.
struct Turn {
    awaited: Vec<Seat>,
    out: Vec<Seat>,
    concede: Vec<Seat>,
}

/// The head and the options of `seats` there; `player_seats` are the seats the caller holds as
/// a player (the only ones it may concede for).
async fn current(g: &OpenGame, seats: Vec<Seat>, player_seats: Vec<Seat>) -> AppResult<Value> {
    let live = g.session.live().clone();
    let ruleset = g.ruleset.clone();
    let (len, head, options, turn) = tokio::task::spawn_blocking(move || {
        let live = live.read().unwrap_or_else(|p| p.into_inner());
        let turn = Turn {
            awaited: live.position_at(live.len()).awaited,
            out: live.out(),
            concede: live.may_concede(&player_seats),
        };
        (live.len(), live.head().hash.to_hex().to_string(), live.options(&seats), turn)
    })
    .await?;
    let options: Vec<OptionView> = options.ok_or_else(|| {
        AppError::Refused(format!("{ruleset} has no options yet: record its actions as events (POST .../events)"))
    })?;
    let awaited: Vec<Value> = turn
        .awaited
        .iter()
        .map(|&s| json!({ "seat": s, "name": crate::log::limits::shown(&crate::game::seat_name(&g.players, s)) }))
        .collect();
    Ok(json!({
        "events": len,
        "head": head,
        "options": options,
        "awaited": awaited,
        "out": turn.out,
        "concede": turn.concede,
    }))
}

/// The seats the caller holds as a player: the only ones it may concede for.
fn player_seats(caller: &Caller, access: &GameAccess) -> Vec<Seat> {
    match caller.grant().map(|g| g.role) {
        Some(Role::Player) => access.seats.clone(),
        _ => Vec::new(),
    }
}

/// `GET /games/{id}/options?seat=N`: the actions the caller's seat (or, for a judge, seat N or
/// every seat) may record now.
pub async fn list(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Q(q): Q<OptionsQuery>,
    caller: Caller,
) -> AppResult<Json<Value>> {
    caller.require_token()?;
    let g = state.game(&id).await?;
    let access = game_access(&state, &caller, &g).await;
    let seats = seats_for(&access, q.seat, &g.players)?;
    let mine: Vec<Seat> = player_seats(&caller, &access).into_iter().filter(|s| seats.contains(s)).collect();
    Ok(Json(current(&g, seats, mine).await?))
}

/// A parameter's values: one value or a list.
#[derive(Deserialize)]
#[serde(untagged)]
pub enum Values {
    One(String),
    Many(Vec<String>),
}

#[derive(Deserialize)]
pub struct PickBody {
    pub option: String,
    #[serde(default)]
    pub params: BTreeMap<String, Values>,
    pub expected: Option<u64>,
    /// The seat the pick is for, when a judge's token could pick for several.
    pub seat: Option<Seat>,
}

/// `POST /games/{id}/options`: records the option `option` (with `params`), then the automatic
/// steps it made due. 201 with what was recorded and the options that follow; 409 with the
/// current head and fresh options when the id is stale; 422 with the rule ID for an id that is
/// not open to the caller's seats or a value outside the allowed ones. Another seat's open option
/// and an id never offered get the same answer (KIFU-OPT-1, same text): a player who computes
/// candidate ids from the card catalog learns nothing about the opponent's hand from which ones
/// exist. Takes an
/// `Idempotency-Key` header as the events endpoint does.
pub async fn pick(
    State(state): State<AppState>,
    Path(id): Path<String>,
    caller: Caller,
    headers: HeaderMap,
    J(body): J<PickBody>,
) -> AppResult<(StatusCode, Json<Value>)> {
    let idempotency = idempotency_key(&headers)?;
    let grant = caller.require_token()?.clone();
    let g = state.game(&id).await?;
    let access = game_access(&state, &caller, &g).await;
    let seats = seats_for(&access, body.seat, &g.players)?;
    let name =
        access.name.clone().ok_or_else(|| AppError::Forbidden("this game is outside your token's scope".into()))?;
    let actor = match grant.role {
        Role::Player => Actor::Player(name),
        Role::Judge => Actor::Judge(name),
        Role::Organizer => Actor::Organizer(name),
    };
    let mine: Vec<Seat> = player_seats(&caller, &access).into_iter().filter(|s| seats.contains(s)).collect();
    let params = flat_params(body.params)?;
    let live = g.session.live().clone();
    let store = state.store().clone();
    let (option, expected, picked_seats) = (body.option, body.expected, seats.clone());
    let (dir, gid) = (state.seeds().cloned(), g.id.clone());
    let recorded = tokio::task::spawn_blocking(move || {
        // kifu deals a digital game it created: its seed (a small private file) fills a dealt
        // parameter and records the steps it determines.
        let kept = dir.map(|d| crate::store::kept::load_dealer_seeds(&d, &gid)).transpose()?.flatten();
        let dealer = kept.map(crate::game::dealer::from_kept);
        let mut live = live.write().unwrap_or_else(|p| p.into_inner());
        live.set_dealer(dealer);
        live.pick(Write { store: &*store, actor, expected, idempotency }, &picked_seats, &option, &params)
    })
    .await?;
    // The session moved on: answer from the game as it stands now.
    let g = state.game(&id).await?;
    match recorded {
        Ok(recorded) => {
            let mut answer = current(&g, seats, mine).await?;
            answer["recorded"] = recorded_json(&recorded);
            Ok((StatusCode::CREATED, Json(answer)))
        }
        Err(GameError::Pick(e @ PickError::Stale { .. })) => {
            let mut answer = current(&g, seats, mine).await?;
            answer["error"] = json!(e.to_string());
            answer["status"] = json!(409);
            Ok((StatusCode::CONFLICT, Json(answer)))
        }
        Err(GameError::Pick(e @ PickError::NotWritten { .. })) => Err(AppError::Refused(e.to_string())),
        Err(GameError::Pick(e)) => Err(AppError::Refused(e.to_string())),
        Err(e) => Err(e.into()),
    }
}

#[derive(Deserialize)]
pub struct ConcedeBody {
    /// The seat conceding, when the caller's token holds several.
    pub seat: Option<Seat>,
    pub expected: Option<u64>,
}

/// `POST /games/{id}/concede`: the caller concedes the game for their own seat (`GameEntry::Conceded`,
/// recorded as that player). Only a player's token may: a judge or organizer is refused (403;
/// a judge gives a game loss). 201 with what was recorded and the head's options, awaited seats
/// and outcome-relevant fields as `GET .../options` gives them; 422 (`KIFU-CONCEDE-2`) once the
/// game is over or the seat is out; 409 on a stale `expected`. Takes an `Idempotency-Key`.
pub async fn concede(
    State(state): State<AppState>,
    Path(id): Path<String>,
    caller: Caller,
    headers: HeaderMap,
    J(body): J<ConcedeBody>,
) -> AppResult<(StatusCode, Json<Value>)> {
    let idempotency = idempotency_key(&headers)?;
    let grant = caller.require_token()?.clone();
    let g = state.game(&id).await?;
    let access = game_access(&state, &caller, &g).await;
    if grant.role != Role::Player {
        return Err(AppError::Forbidden(
            "only a player concedes, for their own seat: a judge gives a game loss (POST .../rulings)".into(),
        ));
    }
    let seats = seats_for(&access, body.seat, &g.players)?;
    let (Some(&seat), Some(name)) = (seats.first(), access.name.clone()) else {
        return Err(AppError::Forbidden("this game is outside your token's scope".into()));
    };
    let live = g.session.live().clone();
    let store = state.store().clone();
    let expected = body.expected;
    let recorded = tokio::task::spawn_blocking(move || {
        let mut live = live.write().unwrap_or_else(|p| p.into_inner());
        live.concede(Write { store: &*store, actor: Actor::Player(name), expected, idempotency }, seat)
    })
    .await??;
    let g = state.game(&id).await?;
    let mut answer = current(&g, seats.clone(), seats).await?;
    answer["recorded"] = recorded_json(&recorded);
    Ok((StatusCode::CREATED, Json(answer)))
}

/// What a write recorded, as a pick's and a concession's answers list it: each event's sequence
/// number, the head after the whole append, and whether it was a retry that wrote nothing.
fn recorded_json(recorded: &[Recorded]) -> Value {
    recorded
        .iter()
        .map(|r| json!({ "seq": r.seq, "head": r.head.hash.to_hex().to_string(), "retried": r.retried }))
        .collect()
}

/// The parameters as name → values (a single value is a list of one), at most
/// [`MAX_PARAM_VALUES`] values in all.
fn flat_params(given: BTreeMap<String, Values>) -> AppResult<BTreeMap<String, Vec<String>>> {
    let mut params = BTreeMap::new();
    let mut count = 0;
    for (k, v) in given {
        let v = match v {
            Values::One(s) => vec![s],
            Values::Many(v) => v,
        };
        count += v.len();
        params.insert(k, v);
    }
    if count > MAX_PARAM_VALUES {
        return Err(AppError::BadRequest(format!("at most {MAX_PARAM_VALUES} parameter values in one pick")));
    }
    Ok(params)
}
