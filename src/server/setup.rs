//! An event's setup from the organizer's page: the games this server records (`GET /rulesets`),
//! creating an event (`POST /tournaments`: the game chosen from those, Swiss or pods with their
//! size, policy, rounds, top cut, whether deck lists are required and by when, the time zone, the
//! head judge and judges), changing the top cut until it is cut, naming judges, and archiving a
//! mistaken event (kept on the record, hidden from the lists).

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};

use super::auth::Caller;
use super::error::{AppError, AppResult, J};
use super::state::{stream_id, AppState};
use super::tournament_writes::{actor_of, may_override, official, recorded};
use crate::tournament::policy::TOP_CUT_BY_ATTENDANCE;
use crate::tournament::{ConfigV1, Policy, RoundsPlan, TournamentEvent};

/// `GET /rulesets`: the games this server records, with their seat counts (a game of more than
/// two seats is played in pods), for the new-event form's game list.
pub async fn rulesets() -> Json<Value> {
    let games: Vec<Value> = crate::games::drivers()
        .iter()
        .map(|d| {
            let s = d.seats();
            json!({"ruleset": d.ruleset(), "version": d.ruleset_version(), "min_seats": s.min, "max_seats": s.max})
        })
        .collect();
    Json(json!({"rulesets": games}))
}

#[derive(Deserialize)]
pub struct NewBody {
    pub id: String,
    pub name: String,
    /// One of the server's rulesets (`GET /rulesets`).
    pub game: String,
    #[serde(default)]
    pub policy: Option<String>,
    pub rounds: Option<u32>,
    /// 0, a power of two, or absent for the policy's table.
    pub top_cut: Option<u32>,
    pub best_of: Option<u32>,
    /// `swiss` (default) or `pods`.
    pub format: Option<String>,
    /// Pods of this many seats, filled with pods of one fewer (default 4).
    pub pod_size: Option<u32>,
    /// Every player registers a deck list before round 1.
    #[serde(default)]
    pub decks_required: bool,
    /// When lists are due (RFC 3339), with `decks_required`.
    pub deck_deadline: Option<String>,
    /// The event's IANA time zone, e.g. `Europe/Paris`.
    pub time_zone: Option<String>,
    pub head_judge: Option<String>,
    #[serde(default)]
    pub judges: Vec<String>,
}

/// The format events a new event records first: the pod format, or the match format.
fn format_events(body: &NewBody, driver: &dyn crate::game::driver::Driver) -> AppResult<(Vec<TournamentEvent>, bool)> {
    let seats = driver.seats();
    let game = driver.ruleset();
    match body.format.as_deref().unwrap_or("swiss") {
        "swiss" if seats.min > 2 => Err(AppError::BadRequest(format!(
            "{game} needs at least {} players at a table: choose pods, not Swiss",
            seats.min
        ))),
        "swiss" => Ok((vec![TournamentEvent::MatchFormatSet { best_of: body.best_of.unwrap_or(3) }], false)),
        "pods" => {
            let size = body.pod_size.unwrap_or(4);
            // Pods of `size` are filled with pods of `size - 1`: the game must seat both.
            if size > u32::from(seats.max) || size.saturating_sub(1) < u32::from(seats.min) {
                return Err(AppError::BadRequest(format!(
                    "{game} seats {} to {} players: pods of {size} (and {}) do not fit",
                    seats.min,
                    seats.max,
                    size.saturating_sub(1)
                )));
            }
            Ok((vec![TournamentEvent::PodFormatSet { size, sole_win: 5, shared_win: 1, loss: 0 }], true))
        }
        other => Err(AppError::BadRequest(format!("unknown format {other:?}: swiss or pods"))),
    }
}

/// The setup events a new event records with `Created`: lists required, time zone, judges.
fn setup_events(body: &NewBody) -> AppResult<Vec<TournamentEvent>> {
    let mut out = Vec::new();
    if body.decks_required {
        let deadline = match body.deck_deadline.as_deref().map(str::trim).filter(|d| !d.is_empty()) {
            None => None,
            Some(d) => Some(crate::log::envelope::Timestamp::from_datetime(
                chrono::DateTime::parse_from_rfc3339(d)
                    .map_err(|e| AppError::BadRequest(format!("the deck-list deadline {d:?} is not a time: {e}")))?
                    .with_timezone(&chrono::Utc),
            )),
        };
        out.push(TournamentEvent::DeckListsRequired { deadline });
    }
    if let Some(zone) = body.time_zone.as_deref().map(str::trim).filter(|z| !z.is_empty()) {
        out.push(TournamentEvent::TimeZoneSet { zone: zone.to_string() });
    }
    if let Some(hj) = body.head_judge.as_deref().map(str::trim).filter(|j| !j.is_empty()) {
        out.push(TournamentEvent::HeadJudgeNamed { judge: hj.to_string() });
    }
    for j in body.judges.iter().map(|j| j.trim()).filter(|j| !j.is_empty()) {
        out.push(TournamentEvent::JudgeNamed { judge: j.to_string() });
    }
    Ok(out)
}

/// The configuration a new event's header records, or 400 for a bad field.
fn config_of(body: &NewBody, pods: bool, seed: &crate::game::commit::Secret) -> AppResult<ConfigV1> {
    let policy_name = body.policy.clone().unwrap_or_else(|| "mtr".into());
    let policy = Policy::preset(&policy_name)
        .ok_or_else(|| AppError::BadRequest(format!("unknown policy {policy_name:?}: mtr, melee or pokemon")))?;
    let top_cut = match (body.top_cut, pods) {
        (None | Some(0), true) => 0,
        (Some(k), true) => return Err(AppError::BadRequest(format!("a pod event has no top cut, not {k}"))),
        (None, false) => TOP_CUT_BY_ATTENDANCE,
        (Some(k), false) if k == 0 || (k > 1 && k.is_power_of_two() && k <= 1024) => k,
        (Some(k), false) => return Err(AppError::BadRequest(format!("top_cut is 0 or a power of two, not {k}"))),
    };
    let name = body.name.trim();
    if name.is_empty() {
        return Err(AppError::BadRequest("a tournament's name cannot be empty".into()));
    }
    crate::log::limits::check_name(|| "the tournament's name".into(), name)
        .map_err(|e| AppError::BadRequest(e.to_string()))?;
    Ok(ConfigV1 {
        name: name.to_string(),
        game: body.game.clone(),
        policy,
        rounds: body.rounds.map(RoundsPlan::Fixed).unwrap_or(RoundsPlan::ByAttendance),
        top_cut,
        seed_commitment: Some(crate::game::commit::commit_seed(seed)),
    })
}

/// `POST /tournaments`: the organizer creates an event; the server draws and keeps its seed. The
/// game is one this server records (400 otherwise, nothing written).
pub async fn create(
    State(state): State<AppState>,
    caller: Caller,
    J(body): J<NewBody>,
) -> AppResult<(StatusCode, Json<Value>)> {
    let g = official(&caller, &body.id, true)?.clone();
    let sid = stream_id(&body.id)?;
    let driver = crate::games::driver(body.game.trim()).ok_or_else(|| {
        let known: Vec<_> = crate::games::drivers().iter().map(|d| d.ruleset()).collect();
        AppError::BadRequest(format!("unknown game {:?}: this server records {}", body.game, known.join(", ")))
    })?;
    let (mut first, pods) = format_events(&body, driver)?;
    first.extend(setup_events(&body)?);
    let seed = crate::game::commit::Commitment(rand::random::<[u8; 32]>());
    let config = config_of(&body, pods, &seed)?;
    let dir = super::decks::data_dir(&state)?;
    let store = state.store().clone();
    let now = state.clock().now();
    let head = tokio::task::spawn_blocking(move || {
        crate::tournament::ops::create_with(&*store, &dir, &sid, &config, &seed, first, actor_of(&g), now)
    })
    .await??;
    Ok((StatusCode::CREATED, Json(json!({"id": body.id, "events": head.len, "head": head.hash.to_hex()}))))
}

#[derive(Deserialize)]
pub struct TopCutBody {
    pub top_cut: u32,
}

/// `POST /tournaments/{id}/top-cut/size`: the organizer or the head judge changes the top cut's
/// size until the cut is made (TOUR-CUT-5).
pub async fn top_cut_size(
    State(state): State<AppState>,
    Path(id): Path<String>,
    caller: Caller,
    J(body): J<TopCutBody>,
) -> AppResult<(StatusCode, Json<Value>)> {
    let g = official(&caller, &id, false)?.clone();
    let t = state.tournament(&id).await?;
    may_override(&g, &t.loaded.state, "sets the top cut")?;
    let ev = TournamentEvent::TopCutSet { top_cut: body.top_cut, by: g.name.clone() };
    recorded(&state, &id, actor_of(&g), vec![ev]).await
}

#[derive(Deserialize)]
pub struct JudgeBody {
    pub judge: String,
}

/// `POST /tournaments/{id}/judges`: the organizer names a floor judge (TOUR-STAFF-1).
pub async fn name_judge(
    State(state): State<AppState>,
    Path(id): Path<String>,
    caller: Caller,
    J(body): J<JudgeBody>,
) -> AppResult<(StatusCode, Json<Value>)> {
    let g = official(&caller, &id, true)?.clone();
    state.tournament(&id).await?;
    let ev = TournamentEvent::JudgeNamed { judge: body.judge.trim().to_string() };
    recorded(&state, &id, actor_of(&g), vec![ev]).await
}

#[derive(Deserialize)]
pub struct ArchiveBody {
    pub reason: Option<String>,
}

/// `POST /tournaments/{id}/archive`: the organizer archives a mistaken event (TOUR-ARCH-1): it
/// stays on the record and verifiable, and the lists no longer show it. Anyone else: 403.
pub async fn archive(
    State(state): State<AppState>,
    Path(id): Path<String>,
    caller: Caller,
    J(body): J<ArchiveBody>,
) -> AppResult<(StatusCode, Json<Value>)> {
    let g = official(&caller, &id, true)?.clone();
    state.tournament(&id).await?;
    let reason = body.reason.unwrap_or_default().trim().to_string();
    let ev = TournamentEvent::TournamentArchived { by: g.name.clone(), reason };
    recorded(&state, &id, actor_of(&g), vec![ev]).await
}
