//! A player's own page over the API: `GET /tournaments/{id}/me` answers a player's token with
//! what their phone shows (their table or pod in the latest round, their opponents, when the
//! round was paired and the minutes their table's judge calls added, their deck list's state and
//! lock, the report waiting at their table, the calls at their table, their penalties and
//! appeals), and `GET /tournaments/{id}/catalog` lists the cards of the event's game a list is
//! picked from. What a token receives follows its recorded membership only: the token's player
//! must be registered in this very tournament (exact name, as recorded), and every row is about
//! their own registration, table and rulings.

use axum::extract::{Path, State};
use axum::Json;
use serde_json::{json, Value};

use super::auth::Caller;
use super::error::{AppError, AppResult};
use super::state::{AppState, PendingReport};
use super::tokens::Role;
use crate::tournament::events::RulingRef;
use crate::tournament::state::{RoundState, Tournament};
use crate::tournament::TournamentEvent;

/// The registered player a token names in tournament `id` (their index), or 403 with the cause:
/// another role, another event, or a name this event never registered.
fn own_registration(caller: &Caller, id: &str, s: &Tournament) -> AppResult<usize> {
    let g = caller.require_token()?;
    if g.role != Role::Player {
        return Err(AppError::Forbidden(format!(
            "this page is a player's own; your token is a {}'s (the judges' floor is /tournament/{id}/judge)",
            g.role
        )));
    }
    if g.scope != id {
        return Err(AppError::Forbidden("your token is for another tournament".into()));
    }
    s.player(&g.name).ok_or_else(|| AppError::Forbidden(format!("{} is not registered in this tournament", g.name)))
}

/// The player's seat in `r`: (table or pod, the others there, whether it is a pod, the player
/// listed first at a table), or `None` (a bye, or not in the round).
fn seat_in(s: &Tournament, r: &RoundState, me: usize) -> Option<(u32, Vec<String>, bool, bool)> {
    let name = |i: usize| s.players.get(i).map(|p| p.name.clone()).unwrap_or_default();
    if let Some(tb) = r.tables.iter().find(|tb| tb.a == me || tb.b == me) {
        let other = if tb.a == me { tb.b } else { tb.a };
        return Some((tb.table, vec![name(other)], false, tb.a == me));
    }
    r.pods.iter().find(|p| p.seats.contains(&me)).map(|p| {
        let others = p.seats.iter().filter(|&&i| i != me).map(|&i| name(i)).collect();
        (p.pod, others, true, false)
    })
}

/// When round `round` was paired (the latest pairing event for it), as recorded.
fn paired_at(t: &super::state::OpenTournament, round: u32) -> Option<String> {
    t.loaded
        .entries
        .iter()
        .rev()
        .find(|e| match &e.event {
            TournamentEvent::RoundPaired { round: r, .. }
            | TournamentEvent::TopCutPaired { round: r, .. }
            | TournamentEvent::PodRoundPaired { round: r, .. } => *r == round,
            _ => false,
        })
        .map(|e| e.recorded_at.to_rfc3339())
}

/// The round block of the page: the latest round, the player's table in it and its clock.
fn round_json(t: &super::state::OpenTournament, me: usize) -> Value {
    let s = &t.loaded.state;
    let Some(r) = s.rounds.last() else { return Value::Null };
    let calls = |table: u32| s.calls.iter().filter(move |c| c.round == r.round && c.table == table);
    let seat = seat_in(s, r, me).map(|(table, others, pod, first)| {
        let result = r.tables.iter().find(|tb| tb.table == table && !pod).and_then(|tb| tb.result).map(|sc| {
            // The recorded score read from this player's side: what they would say.
            if first {
                sc.to_string()
            } else {
                sc.swapped().to_string()
            }
        });
        json!({
            "table": table, "pod": pod, "opponents": others, "first": first, "result": result,
            "extension_minutes": calls(table).map(|c| c.extension()).sum::<u32>(),
            "calls": calls(table).map(|c| c.json()).collect::<Vec<_>>(),
        })
    });
    json!({
        "round": r.round,
        "top_cut": r.top_cut,
        "paired_at": paired_at(t, r.round),
        "bye": r.byes.contains(&me),
        "seat": seat,
    })
}

/// `GET /tournaments/{id}/me`: a player's own page, for their token only.
pub async fn me(State(state): State<AppState>, Path(id): Path<String>, caller: Caller) -> AppResult<Json<Value>> {
    let t = state.tournament(&id).await?;
    let s = &t.loaded.state;
    let me = own_registration(&caller, &id, s)?;
    let p = &s.players[me];
    // The list locks when the player's own first round is paired (TOUR-DECK-2).
    let locked = s.rounds.iter().any(|r| r.round >= p.first_round);
    let round = round_json(&t, me);
    let pending = match round["seat"]["table"].as_u64().and_then(|x| u32::try_from(x).ok()) {
        Some(table) if round["seat"]["pod"] == json!(false) => {
            let r = round["round"].as_u64().and_then(|x| u32::try_from(x).ok()).unwrap_or(0);
            state.pending_report::<PendingReport>(&id, r, table)?.map(|x| {
                let first = round["seat"]["first"] == json!(true);
                let mine = x.score.parse::<crate::tournament::MatchScore>().ok().map(|sc| {
                    if first {
                        sc.to_string()
                    } else {
                        sc.swapped().to_string()
                    }
                });
                json!({"reported_by": x.reported_by, "score": x.score, "mine": mine, "disputed": x.disputed})
            })
        }
        _ => None,
    };
    let appeals: Vec<Value> = s
        .appeals
        .iter()
        .filter(|a| a.player == p.name)
        .map(|a| {
            json!({
                "appeal": a.number, "ruling": a.ruling.to_string(),
                "penalty": match a.ruling { RulingRef::Penalty(n) => Some(n), RulingRef::Call(_) => None },
                "decided": a.decided.as_ref().map(|(d, j, r)| json!({"decision": d.to_string(), "judge": j, "reason": r})),
            })
        })
        .collect();
    let my_calls: Vec<Value> = s.calls.iter().filter(|c| c.caller == p.name).map(|c| c.json()).collect();
    Ok(Json(json!({
        "name": crate::log::limits::shown(&t.loaded.config.name),
        "game": t.loaded.config.game,
        "finalized": s.finalized,
        "me": p.name,
        "dropped": p.dropped_after,
        "first_round": p.first_round,
        "head_judge": s.head_judge,
        // The match format the result buttons follow (best of 3 when the event set none).
        "best_of": s.best_of.unwrap_or(3),
        "round": round,
        "deck": {"registered": p.deck_list.is_some(), "locked": locked, "lists_kept": state.seeds().is_some()},
        "pending": pending,
        "penalties": s.penalty_history(me),
        "appeals": appeals,
        "calls": my_calls,
    })))
}

/// `GET /tournaments/{id}/catalog`: the cards of the event's game (id and name), which a deck
/// list is picked from; public, as the game's sample catalog is.
pub async fn catalog(State(state): State<AppState>, Path(id): Path<String>) -> AppResult<Json<Value>> {
    let t = state.tournament(&id).await?;
    let game = t.loaded.config.game.clone();
    let text = crate::games::sample_catalog(&game)
        .ok_or_else(|| AppError::NotFound(format!("this server has no card catalog for {game}")))?;
    let file: Value = serde_json::from_str(text)
        .map_err(|e| AppError::Internal(format!("the embedded {game} catalog does not parse: {e}")))?;
    let cards: Vec<Value> = file["cards"]
        .as_array()
        .map(|cards| cards.iter().map(|c| json!({"id": c["id"], "name": c["name"]})).collect())
        .unwrap_or_default();
    Ok(Json(json!({"game": game, "cards": cards})))
}
