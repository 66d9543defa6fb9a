//! Pod results on the web: a pod player reports the pod's places, every other player of the pod
//! confirms them (then they are recorded as `PodResultReported`, the last confirming player the
//! actor), a player who disagrees marks the report disputed, and a judge or the organizer enters
//! or corrects the places at once.
//!
//! Its own routes (`/tournaments/{id}/pods/results`) rather than the table ones: a table's body
//! is a score from one side and one opponent confirms, a pod's is a place per seat that several
//! players confirm, so each body stays strictly typed and the table clients are untouched.

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};

use super::auth::Caller;
use super::error::{AppError, AppResult, J};
use super::state::{AppState, OpenTournament, PendingPodReport};
use super::tokens::{Grant, Role};
use super::tournament_writes::{
    actor_of, may_override, name, official_entry, override_reason, record_event, round_of, Entry,
};
use crate::log::envelope::Actor;
use crate::tournament::events::GameLink;
use crate::tournament::state::{PodState, Tournament};
use crate::tournament::{claim, record, rules, TournamentError, TournamentEvent};

/// The most seats a pod has (`TOUR-POD-2`): a longer place list is refused before any work.
const MAX_SEATS: usize = 8;
/// A pod plays one game (`TOUR-POD-4`); a few more names are read only to be refused clearly.
const MAX_GAMES: usize = 8;

/// The places of a pod: in seat order (`[1, 2, 2, 4]`), or by player (`{"Ann": 1, ...}`).
#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
pub enum Places {
    Seats(Vec<u32>),
    Players(BTreeMap<String, u32>),
}

#[derive(Deserialize)]
pub struct PodReportBody {
    /// Default: the latest round.
    pub round: Option<u32>,
    /// Default for a player: their own pod.
    pub pod: Option<u32>,
    pub places: Places,
    /// The pod's game stream; its current head is linked.
    #[serde(default)]
    pub games: Vec<String>,
    /// A judge's correction of a recorded result gives its reason.
    pub reason: Option<String>,
}

#[derive(Deserialize)]
pub struct PodConfirmBody {
    pub round: Option<u32>,
    pub pod: u32,
    /// The places as the confirming player reads them; different places dispute the report.
    pub places: Places,
    /// Disputes the report even with the same places (the player disagrees with something else).
    #[serde(default)]
    pub dispute: bool,
}

fn pod_at(s: &Tournament, round: u32, pod: u32) -> AppResult<&PodState> {
    let r =
        s.rounds.iter().find(|r| r.round == round).ok_or_else(|| AppError::NotFound(format!("no round {round}")))?;
    if s.pod_format.is_none() {
        return Err(AppError::BadRequest("this tournament plays tables, not pods: report a table's score".into()));
    }
    r.pods.iter().find(|p| p.pod == pod).ok_or_else(|| AppError::NotFound(format!("round {round} has no pod {pod}")))
}

fn seat_names(s: &Tournament, p: &PodState) -> Vec<String> {
    p.seats.iter().map(|&i| name(s, i)).collect()
}

/// The pod `player` sits in during `round`.
fn pod_of(s: &Tournament, round: u32, player: &str) -> AppResult<u32> {
    let r =
        s.rounds.iter().find(|r| r.round == round).ok_or_else(|| AppError::NotFound(format!("no round {round}")))?;
    let who = s.player(player);
    r.pods
        .iter()
        .find(|p| who.is_some_and(|w| p.seats.contains(&w)))
        .map(|p| p.pod)
        .ok_or_else(|| AppError::Forbidden(format!("{player} sits in no pod in round {round}")))
}

/// The places in seat order: a list as given, or a player → place map with every pod player
/// named once.
fn in_seat_order(places: &Places, seats: &[String], at: &str) -> AppResult<Vec<u32>> {
    match places {
        Places::Seats(v) if v.len() > MAX_SEATS => {
            Err(AppError::BadRequest(format!("{} places for {at}: a pod has at most {MAX_SEATS} seats", v.len())))
        }
        Places::Seats(v) => Ok(v.clone()),
        Places::Players(m) => {
            if let Some(stranger) = m.keys().find(|k| !seats.contains(k)) {
                return Err(AppError::BadRequest(format!(
                    "{stranger:?} does not sit in {at} (its seats: {})",
                    seats.join(", ")
                )));
            }
            seats
                .iter()
                .map(|s| m.get(s).copied().ok_or_else(|| AppError::BadRequest(format!("no place for {s} in {at}"))))
                .collect()
        }
    }
}

/// "Ann 1, Bo 2, Cy 2, Di 4": places with their players, for messages.
fn said(seats: &[String], places: &[u32]) -> String {
    seats.iter().zip(places).map(|(s, p)| format!("{s} {p}")).collect::<Vec<_>>().join(", ")
}

/// Refuses an event the rules would refuse (wrong length, impossible places, a pod with a
/// result), before anything is kept: the same check `record` makes, every violation named.
fn check(s: &Tournament, ev: &TournamentEvent) -> AppResult<()> {
    let problems = rules::validate(s, ev, false);
    if problems.is_empty() {
        return Ok(());
    }
    Err(TournamentError::Refused { event: record::kind(ev).to_string(), problems }.into())
}

/// The links of the pod's game, checked by [`claim::claim_pod_games`].
async fn claimed(
    state: &AppState,
    t: &Arc<OpenTournament>,
    round: u32,
    pod: u32,
    games: &[String],
) -> AppResult<Vec<GameLink>> {
    if games.len() > MAX_GAMES {
        return Err(AppError::BadRequest(format!("a pod plays one game; {} were named", games.len())));
    }
    let (store, t, games) = (state.store().clone(), t.clone(), games.to_vec());
    Ok(tokio::task::spawn_blocking(move || claim::claim_pod_games(&*store, &t.loaded, round, pod, &games)).await??)
}

fn player_of(grant: &Grant, id: &str) -> AppResult<()> {
    if grant.role != Role::Player || grant.scope != id {
        return Err(AppError::Forbidden("your token is not for this tournament".into()));
    }
    Ok(())
}

/// `POST /tournaments/{id}/pods/results`: a pod player's report (pending until every other
/// player of the pod confirms), or a judge's or the organizer's entry or correction (recorded
/// at once).
pub async fn report(
    State(state): State<AppState>,
    Path(id): Path<String>,
    caller: Caller,
    J(body): J<PodReportBody>,
) -> AppResult<(StatusCode, Json<Value>)> {
    let grant = caller.require_token()?.clone();
    let official = caller.official_for(&id).cloned();
    if official.is_none() {
        player_of(&grant, &id)?;
    }
    let t = state.tournament(&id).await?;
    let s = &t.loaded.state;
    let round = round_of(&t, body.round)?;
    let pod = match (body.pod, &official) {
        (Some(p), _) => p,
        (None, None) => pod_of(s, round, &grant.name)?,
        (None, Some(_)) => return Err(AppError::BadRequest("give the pod".into())),
    };
    let p = pod_at(s, round, pod)?;
    let seats = seat_names(s, p);
    let at = format!("round {round} pod {pod}");
    if official.is_none() && !seats.contains(&grant.name) {
        return Err(AppError::Forbidden(format!("{} does not sit in {at} ({})", grant.name, seats.join(", "))));
    }
    let places = in_seat_order(&body.places, &seats, &at)?;
    if let Some(official) = official {
        let games = claimed(&state, &t, round, pod, &body.games).await?;
        // Places the players' reports do not support (a disputed report, or other places than
        // the ones waiting for confirmation), or any entry given a reason, are an override.
        let pending = state.pending_report::<PendingPodReport>(&id, round, pod)?;
        let against = pending.as_ref().filter(|r| r.disputed.is_some() || r.places != places);
        if p.places.is_none() {
            // The places themselves first: impossible ones are refused under their rule before
            // anyone is asked for a reason.
            check(s, &TournamentEvent::PodResultReported { round, pod, places: places.clone(), games: games.clone() })?;
        }
        if p.places.is_none() && (against.is_some() || body.reason.is_some()) {
            may_override(&official, s, "enters a pod's places against the players' reports")?;
            let what = match against {
                Some(r) => format!(
                    "entering {} where {} reported {}",
                    said(&seats, &places),
                    r.reported_by,
                    said(&seats, &r.places)
                ),
                None => "places entered by an official".to_string(),
            };
            let reason = override_reason(&body.reason, &what)?;
            let by = official.name.clone();
            let ev = TournamentEvent::PodResultEntered { round, pod, places, games, by, reason };
            check(s, &ev)?;
            let out = record_event(&state, &id, actor_of(&official), ev).await?;
            state.drop_pending::<PendingPodReport>(&id, round, pod)?;
            return Ok((StatusCode::CREATED, Json(out)));
        }
        let (ev, actor) = match official_entry(&official, body.reason.as_deref(), p.places.is_some(), &at)? {
            Entry::Correction { judge, reason, actor } => {
                (TournamentEvent::PodResultCorrected { round, pod, places, games, judge, reason }, actor)
            }
            Entry::Report(actor) => (TournamentEvent::PodResultReported { round, pod, places, games }, actor),
        };
        check(s, &ev)?;
        let out = record_event(&state, &id, actor, ev).await?;
        state.drop_pending::<PendingPodReport>(&id, round, pod)?;
        return Ok((StatusCode::CREATED, Json(out)));
    }
    if p.places.is_some() {
        return Err(AppError::Conflict(format!("{at} already has a result; ask a judge to correct it")));
    }
    if let Some(earlier) = state.pending_report::<PendingPodReport>(&id, round, pod)? {
        // A report never erases a dispute (not even the reporter's own new one): the pod's
        // places are then an official's to settle on the record, with a reason (TOUR-OVER-1).
        if let Some(d) = &earlier.disputed {
            return Err(AppError::Conflict(format!(
                "{at} is disputed ({d}): a judge settles it on the record; a new report does not replace it"
            )));
        }
        if earlier.reported_by != grant.name {
            return Err(AppError::Conflict(format!(
                "{} already reported {at} ({}); confirm or dispute that report",
                earlier.reported_by,
                said(&seats, &earlier.places)
            )));
        }
    }
    let games = claimed(&state, &t, round, pod, &body.games).await?;
    check(s, &TournamentEvent::PodResultReported { round, pod, places: places.clone(), games })?;
    let report = PendingPodReport {
        tournament: id.clone(),
        round,
        pod,
        places,
        games: body.games.clone(),
        reported_by: grant.name.clone(),
        confirmed_by: vec![],
        disputed: None,
    };
    state.set_pending(&report)?;
    Ok((StatusCode::ACCEPTED, Json(json!({"recorded": false, "pending": pending_json(s, &report)}))))
}

/// `POST /tournaments/{id}/pods/results/confirm`: another player of the pod confirms a pending
/// report; once every other player has, it is recorded (`PodResultReported`, the last confirming
/// player the actor). Different places, or `dispute`, mark it disputed (409) for a judge.
pub async fn confirm(
    State(state): State<AppState>,
    Path(id): Path<String>,
    caller: Caller,
    J(body): J<PodConfirmBody>,
) -> AppResult<(StatusCode, Json<Value>)> {
    let grant = caller.require_token()?.clone();
    if grant.role != Role::Player || grant.scope != id {
        return Err(AppError::Forbidden("only the pod's players (player tokens of this tournament) confirm".into()));
    }
    let t = state.tournament(&id).await?;
    let s = &t.loaded.state;
    let round = round_of(&t, body.round)?;
    let p = pod_at(s, round, body.pod)?;
    let seats = seat_names(s, p);
    let at = format!("round {round} pod {}", body.pod);
    if !seats.contains(&grant.name) {
        return Err(AppError::Forbidden(format!("{} does not sit in {at} ({})", grant.name, seats.join(", "))));
    }
    let places = in_seat_order(&body.places, &seats, &at)?;
    let Some(mut report) = state.pending_report::<PendingPodReport>(&id, round, body.pod)? else {
        return Err(AppError::NotFound(format!("no pending report for {at}")));
    };
    if report.reported_by == grant.name {
        return Err(AppError::Conflict(format!("you reported {at}; the other players of the pod confirm it")));
    }
    if report.confirmed_by.contains(&grant.name) {
        return Err(AppError::Conflict(format!("you already confirmed {at}")));
    }
    if body.dispute || places != report.places {
        let yours =
            if places == report.places { "disputes it".to_string() } else { format!("says {}", said(&seats, &places)) };
        report.disputed = Some(format!("{} {yours}", grant.name));
        let msg = format!(
            "{} reported {}; {} {yours}: disputed, a judge will decide",
            report.reported_by,
            said(&seats, &report.places),
            grant.name
        );
        state.set_pending(&report)?;
        return Err(AppError::Conflict(msg));
    }
    if let Some(d) = &report.disputed {
        return Err(AppError::Conflict(format!("{at} is disputed ({d}): a judge decides")));
    }
    report.confirmed_by.push(grant.name.clone());
    let waiting = waiting_for(&seats, &report);
    if !waiting.is_empty() {
        state.set_pending(&report)?;
        return Ok((StatusCode::ACCEPTED, Json(json!({"recorded": false, "pending": pending_json(s, &report)}))));
    }
    let games = claimed(&state, &t, round, body.pod, &report.games).await?;
    let ev = TournamentEvent::PodResultReported { round, pod: body.pod, places, games };
    check(s, &ev)?;
    let out = record_event(&state, &id, Actor::Player(grant.name.clone()), ev).await?;
    state.drop_pending::<PendingPodReport>(&id, round, body.pod)?;
    Ok((StatusCode::CREATED, Json(out)))
}

/// The pod players still to confirm `r`.
fn waiting_for(seats: &[String], r: &PendingPodReport) -> Vec<String> {
    seats.iter().filter(|s| **s != r.reported_by && !r.confirmed_by.contains(s)).cloned().collect()
}

/// `GET /tournaments/{id}/pods/results`: the pod reports waiting for confirmations.
pub async fn pending(State(state): State<AppState>, Path(id): Path<String>) -> AppResult<Json<Value>> {
    let t = state.tournament(&id).await?;
    let list: Vec<PendingPodReport> = state.pending_of(&id)?;
    Ok(Json(json!({"pending": list.iter().map(|r| pending_json(&t.loaded.state, r)).collect::<Vec<_>>()})))
}

/// A pending pod report as the page shows it: its fields, each seat with its player and reported
/// place, and who still must confirm (`to_confirm`).
fn pending_json(s: &Tournament, r: &PendingPodReport) -> Value {
    let mut v = serde_json::to_value(r).unwrap_or(Value::Null);
    if let Ok(p) = pod_at(s, r.round, r.pod) {
        let seats = seat_names(s, p);
        v["seats"] =
            json!(seats.iter().zip(&r.places).map(|(n, pl)| json!({"player": n, "place": pl})).collect::<Vec<_>>());
        v["to_confirm"] = json!(waiting_for(&seats, r));
    }
    v
}
