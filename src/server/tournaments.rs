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
use super::tournament_writes::{
    actor_of, may_override, name, official, official_entry, override_reason, record_event, recorded, round_of, Entry,
};
use crate::log::envelope::Actor;
use crate::tournament::events::GameLink;
use crate::tournament::record;
use crate::tournament::state::{RoundState, TableState, Tournament};
use crate::tournament::{claim, rules, TournamentError};
use crate::tournament::{MatchScore, TournamentEvent};

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
        "name": crate::log::limits::shown(&c.name),
        "game": c.game,
        "policy": c.policy.rules().name,
        "format": if s.pod_format.is_some() { "pods" } else { "swiss" },
        "top_cut": s.top_cut,
        // Before round 1 fixes it: the cut the policy's table gives the players registered so far.
        "top_cut_by_attendance": s.rules().map(|r| r.top_cut(s.players.len() as u32)),
        "top_cut_started": s.rounds.iter().any(|r| r.top_cut),
        "pod_size": s.pod_format.as_ref().map(|(size, _)| size.size),
        "head_judge": s.head_judge,
        "judges": s.judges,
        "time_zone": s.time_zone,
        "decks_required": s.decks_required.is_some(),
        "deck_deadline": s.decks_required.flatten().map(|d| d.to_rfc3339()),
        "archived": s.archived.as_ref().map(|(by, reason)| json!({"by": by, "reason": reason})),
        "best_of": s.best_of,
        "finalized_early": s.finalized_early.as_ref().map(|(judge, reason)| json!({"judge": judge, "reason": reason})),
        "voided": s.voided.iter().map(|(r, why)| json!({"round": r, "reason": why})).collect::<Vec<_>>(),
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

/// A table as posted, with the time extension its judge calls gave (`extension_minutes`) and
/// how many calls are still open at it.
fn table_json(s: &Tournament, round: u32, tb: &TableState, points: &HashMap<String, u32>) -> Value {
    let (a, b) = (name(s, tb.a), name(s, tb.b));
    json!({
        "extension_minutes": s.extension(round, tb.table),
        "open_calls": s.open_calls(round, tb.table),
        "table": tb.table,
        "a": a, "a_points": points.get(&a).copied().unwrap_or(0),
        "b": b, "b_points": points.get(&b).copied().unwrap_or(0),
        "result": tb.result.map(|r| r.to_string()),
        "winner": winner(s, tb),
        "corrections": tb.corrections,
        "games": links(&tb.games),
    })
}

/// A pod round as posted: each pod with its seats in order (and places once reported), and by name
/// each player's pod and pod-mates.
fn pod_pairings(s: &Tournament, r: &RoundState) -> Value {
    let pods: Vec<Value> = r
        .pods
        .iter()
        .map(|pod| {
            let seats: Vec<Value> = pod
                .seats
                .iter()
                .enumerate()
                .map(|(i, &p)| json!({"player": name(s, p), "place": pod.places.as_ref().and_then(|pl| pl.get(i))}))
                .collect();
            json!({
                "pod": pod.pod, "seats": seats, "games": links(&pod.games), "corrections": pod.corrections,
                "extension_minutes": s.extension(r.round, pod.pod), "open_calls": s.open_calls(r.round, pod.pod),
            })
        })
        .collect();
    let mut by_name: Vec<Value> = Vec::new();
    for pod in &r.pods {
        for &p in &pod.seats {
            let mates: Vec<String> = pod.seats.iter().filter(|&&q| q != p).map(|&q| name(s, q)).collect();
            by_name.push(json!({"player": name(s, p), "table": pod.pod, "opponent": mates.join(", ")}));
        }
    }
    by_name.sort_by_key(|v| v["player"].as_str().unwrap_or_default().to_lowercase());
    json!({"round": r.round, "top_cut": false, "tables": [], "pods": pods, "byes": [], "by_name": by_name})
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
    if !r.pods.is_empty() {
        return Ok(Json(pod_pairings(s, r)));
    }
    // As posted at the event: each player's points before this round was played.
    let before = s.points_before(r.round);
    let points: HashMap<String, u32> = s.players.iter().enumerate().map(|(i, p)| (p.name.clone(), before[i])).collect();
    let tables: Vec<Value> = r.tables.iter().map(|tb| table_json(s, r.round, tb, &points)).collect();
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

/// `GET /tournaments/{id}/standings` (serialized once per head).
pub async fn standings(State(state): State<AppState>, Path(id): Path<String>) -> AppResult<impl IntoResponse> {
    let t = state.tournament(&id).await?;
    Ok(([(header::CONTENT_TYPE, "application/json")], t.standings_json.clone()))
}

/// `GET /tournaments/{id}/explain/{player}?round=R`: why the player was paired as they were and
/// ranks where they do ([`crate::tournament::explain`]). Public, as the pairings and standings it
/// is read from are; a player opens their own from the tournament page with their token.
pub async fn explain(
    State(state): State<AppState>,
    Path((id, player)): Path<(String, String)>,
    Q(q): Q<RoundQuery>,
) -> AppResult<Json<Value>> {
    let t = state.tournament(&id).await?;
    // One fold of the events: off the async workers for a large event.
    let e =
        tokio::task::spawn_blocking(move || crate::tournament::explain::explain(&t.loaded, &player, q.round)).await??;
    Ok(Json(serde_json::to_value(e).map_err(|e| AppError::Internal(e.to_string()))?))
}

/// `GET /tournaments/{id}/bracket`: the top cut, round by round.
pub async fn bracket(State(state): State<AppState>, Path(id): Path<String>) -> AppResult<Json<Value>> {
    let t = state.tournament(&id).await?;
    let s = &t.loaded.state;
    let points: HashMap<String, u32> = HashMap::new();
    let seed_of: HashMap<String, usize> =
        s.standings().into_iter().enumerate().map(|(i, r)| (r.player, i + 1)).collect();
    let seeded = |mut v: Value| {
        for side in ["a", "b"] {
            let seed = v[side].as_str().and_then(|n| seed_of.get(n)).copied();
            v[format!("{side}_seed")] = json!(seed);
        }
        v
    };
    let champion = s
        .rounds
        .iter()
        .rfind(|r| r.top_cut)
        .filter(|r| r.tables.len() == 1)
        .and_then(|r| r.tables.first())
        .and_then(|tb| winner(s, tb));
    let rounds: Vec<Value> = s
        .rounds
        .iter()
        .filter(|r| r.top_cut)
        .map(|r| {
            let stage = r.stage();
            let tables: Vec<Value> = r.tables.iter().map(|tb| seeded(table_json(s, r.round, tb, &points))).collect();
            json!({"round": r.round, "stage": stage, "tables": tables})
        })
        .collect();
    Ok(Json(json!({"top_cut": s.top_cut, "rounds": rounds, "champion": champion})))
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
    let t = state.tournament(&id).await?;
    let list: Vec<PendingReport> = state.pending_of(&id)?;
    Ok(Json(json!({"pending": list.iter().map(|r| pending_json(&t, r)).collect::<Vec<_>>()})))
}

/// A pending report as the page shows it: the report's fields, and added to them the table's
/// players (`a`, `b`), who won by the reported score (`winner`, null for a draw) and who is to
/// confirm it (`confirms`: the reporter's opponent), so no reader has to work out whose side a
/// bare "2-1-0" is from.
fn pending_json(t: &OpenTournament, r: &PendingReport) -> Value {
    let mut v = serde_json::to_value(r).unwrap_or(Value::Null);
    if let Ok((a, b, _)) = table_of(t, r.round, r.table) {
        let winner = r.score.parse::<MatchScore>().ok().and_then(|s| match s.a_wins.cmp(&s.b_wins) {
            std::cmp::Ordering::Greater => Some(a.clone()),
            std::cmp::Ordering::Less => Some(b.clone()),
            std::cmp::Ordering::Equal => None,
        });
        let confirms = if r.reported_by == a { b.clone() } else { a.clone() };
        v["a"] = json!(a);
        v["b"] = json!(b);
        v["winner"] = json!(winner);
        v["confirms"] = json!(confirms);
    }
    v
}

#[derive(Deserialize)]
pub struct ReportBody {
    /// Default: the latest round.
    pub round: Option<u32>,
    /// The table; or give `player` instead.
    pub table: Option<u32>,
    /// The score is read from this player's side (their table is looked up). Without it, a
    /// player's report is read from their own side ("2-1-0": I won 2-1) and an official's from
    /// the table's first-listed player's side.
    pub player: Option<String>,
    /// W-L-D in games.
    pub score: String,
    /// Game streams played in this match; their current heads are linked.
    #[serde(default)]
    pub games: Vec<String>,
    /// A correction of an existing result (judges and the organizer) gives its reason.
    pub reason: Option<String>,
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

/// The table `player` sits at in `round`, and whether they are its second-listed player (their
/// score is then read from the other side).
fn table_of_player(s: &Tournament, round: u32, player: &str) -> AppResult<(u32, bool)> {
    let who = s.find(player).ok_or_else(|| AppError::NotFound(s.unknown(player.trim())))?;
    let r =
        s.rounds.iter().find(|r| r.round == round).ok_or_else(|| AppError::NotFound(format!("no round {round}")))?;
    let tb = r
        .tables
        .iter()
        .find(|x| x.a == who || x.b == who)
        .ok_or_else(|| AppError::NotFound(format!("{} has no table in round {round}", name(s, who))))?;
    Ok((tb.table, tb.b == who))
}

/// `POST /tournaments/{id}/results`: a player's report (pending until the opponent confirms it
/// or reports the same result, then recorded at once; a different result is a dispute for a
/// judge), or a judge's or the organizer's report or correction (recorded at once).
pub async fn report(
    State(state): State<AppState>,
    Path(id): Path<String>,
    caller: Caller,
    J(body): J<ReportBody>,
) -> AppResult<(StatusCode, Json<Value>)> {
    let grant = caller.require_token()?.clone();
    let t = state.tournament(&id).await?;
    let mut score: MatchScore = body.score.parse().map_err(|e| AppError::BadRequest(format!("{e}")))?;
    let round = round_of(&t, body.round)?;
    let official = caller.official_for(&id).cloned();
    if official.is_none() && (grant.role != Role::Player || grant.scope != id) {
        return Err(AppError::Forbidden("your token is not for this tournament".into()));
    }
    // Whose side the score is from: the named player's, else a player's own (the table they
    // give must then be theirs), else the table's first-listed player's.
    let side = body.player.clone().or_else(|| official.is_none().then(|| grant.name.clone()));
    let table = match (body.table, side) {
        (given, Some(p)) => {
            let (own, second) = table_of_player(&t.loaded.state, round, &p)?;
            if let Some(other) = given.filter(|&g| g != own) {
                return Err(AppError::Forbidden(format!(
                    "{p} plays at round {round} table {own}, not table {other}: a player reports their own table"
                )));
            }
            if second {
                score = score.swapped();
            }
            own
        }
        (Some(table), None) => table,
        (None, None) => return Err(AppError::BadRequest("give the table or the player".into())),
    };
    let (a, b, has_result) = table_of(&t, round, table)?;
    if let Some(official) = official {
        let at = Match { round, table, score, has_result };
        return official_report(&state, &id, &t, official, &body, at).await;
    }
    if grant.name != a && grant.name != b {
        return Err(AppError::Forbidden(format!("{} does not play at round {round} table {}", grant.name, table)));
    }
    if has_result {
        return Err(AppError::Conflict("this match already has a result; ask a judge to correct it".into()));
    }
    let at = Match { round, table, score, has_result };
    if let Some(earlier) = state.pending_report::<PendingReport>(&id, round, table)? {
        return second_report(&state, &id, &t, &grant.name, earlier, &body.games, at).await;
    }
    claimed_links(&state, &t, round, table, &body.games).await?;
    let report = PendingReport {
        tournament: id.clone(),
        round,
        table,
        score: score.to_string(),
        games: body.games.clone(),
        reported_by: grant.name.clone(),
        disputed: None,
    };
    state.set_pending(&report)?;
    Ok((StatusCode::ACCEPTED, Json(json!({"recorded": false, "pending": report}))))
}

/// A player's report where one is already pending. A report never erases a dispute: once
/// disputed, the table's result is an official's to settle on the record (an override with its
/// reason, TOUR-OVER-1). The reporter's own earlier report is replaced. The opponent's report
/// meets this one: the same result is recorded at once (two players agreeing need no further
/// confirmation), a different one marks the table disputed for a judge (409, nothing recorded).
async fn second_report(
    state: &AppState,
    id: &str,
    t: &Arc<OpenTournament>,
    me: &str,
    mut earlier: PendingReport,
    games: &[String],
    at: Match,
) -> AppResult<(StatusCode, Json<Value>)> {
    let Match { round, table, score, .. } = at;
    if let Some(d) = &earlier.disputed {
        return Err(AppError::Conflict(format!(
            "round {round} table {table} is disputed ({d}): a judge settles it on the record; \
             a new report does not replace it"
        )));
    }
    if earlier.reported_by == me {
        claimed_links(state, t, round, table, games).await?;
        let report = PendingReport { score: score.to_string(), games: games.to_vec(), ..earlier };
        state.set_pending(&report)?;
        return Ok((StatusCode::ACCEPTED, Json(json!({"recorded": false, "pending": report}))));
    }
    if earlier.score != score.to_string() {
        earlier.disputed = Some(format!("{me} says {score}"));
        let msg = format!(
            "{} reported {}, you report {score} (first-listed player's side): disputed, a judge will decide",
            earlier.reported_by, earlier.score
        );
        state.set_pending(&earlier)?;
        return Err(AppError::Conflict(msg));
    }
    let mut both = earlier.games.clone();
    both.extend(games.iter().filter(|g| !earlier.games.contains(g)).cloned());
    let links = claimed_links(state, t, round, table, &both).await?;
    let ev = TournamentEvent::ResultReported { round, table, score, games: links };
    let out = record_event(state, id, Actor::Player(me.to_string()), ev).await?;
    state.drop_pending::<PendingReport>(id, round, table)?;
    Ok((StatusCode::CREATED, Json(out)))
}

/// The match a report is about, and the score from its first-listed player's side.
struct Match {
    round: u32,
    table: u32,
    score: MatchScore,
    has_result: bool,
}

/// A judge's or the organizer's report (recorded at once) or correction (with its reason).
async fn official_report(
    state: &AppState,
    id: &str,
    t: &Arc<OpenTournament>,
    official: super::tokens::Grant,
    body: &ReportBody,
    at: Match,
) -> AppResult<(StatusCode, Json<Value>)> {
    let Match { round, table, score, has_result } = at;
    let games = claimed_links(state, t, round, table, &body.games).await?;
    // A result the players' reports do not support (disputed, or another score than the one
    // waiting for confirmation) is an override; so is any entry an official gives a reason for.
    let pending = state.pending_report::<PendingReport>(id, round, table)?;
    let against = pending.as_ref().filter(|p| p.disputed.is_some() || p.score != score.to_string());
    if !has_result && (against.is_some() || body.reason.is_some()) {
        may_override(&official, &t.loaded.state, "enters a result against the players' reports")?;
        let what = match against {
            Some(p) => format!("entering {score} where {} reported {}", p.reported_by, p.score),
            None => "a result entered by an official".to_string(),
        };
        let reason = override_reason(&body.reason, &what)?;
        let ev = TournamentEvent::ResultEntered { round, table, score, games, by: official.name.clone(), reason };
        let out = record_event(state, id, actor_of(&official), ev).await?;
        state.drop_pending::<PendingReport>(id, round, table)?;
        return Ok((StatusCode::CREATED, Json(out)));
    }
    let at = format!("round {round} table {table}");
    let (ev, actor) = match official_entry(&official, body.reason.as_deref(), has_result, &at)? {
        Entry::Correction { judge, reason, actor } => {
            (TournamentEvent::ResultCorrected { round, table, score, games, judge, reason }, actor)
        }
        Entry::Report(actor) => (TournamentEvent::ResultReported { round, table, score, games }, actor),
    };
    let out = record_event(state, id, actor, ev).await?;
    state.drop_pending::<PendingReport>(id, round, table)?;
    Ok((StatusCode::CREATED, Json(out)))
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
    let score: MatchScore = body.score.parse().map_err(|e| AppError::BadRequest(format!("{e}")))?;
    let Some(mut report) = state.pending_report::<PendingReport>(&id, round, body.table)? else {
        return Err(AppError::NotFound(format!("no pending report for round {round} table {}", body.table)));
    };
    let opponent = if report.reported_by == a { &b } else { &a };
    if &grant.name != opponent {
        return Err(AppError::Forbidden(format!("only {opponent} confirms this report")));
    }
    // A disputed report is settled by an official on the record, not by a later confirmation.
    if let Some(d) = &report.disputed {
        return Err(AppError::Conflict(format!(
            "round {round} table {} is disputed ({d}): a judge settles it on the record",
            body.table
        )));
    }
    if report.score != score.to_string() {
        report.disputed = Some(format!("{} says {score}", grant.name));
        let msg =
            format!("{} reported {}, you say {score}: disputed, a judge will decide", report.reported_by, report.score);
        state.set_pending(&report)?;
        return Err(AppError::Conflict(msg));
    }
    let games = claimed_links(&state, &t, round, body.table, &report.games).await?;
    let ev = TournamentEvent::ResultReported { round, table: body.table, score, games };
    let out = record_event(&state, &id, Actor::Player(grant.name.clone()), ev).await?;
    state.drop_pending::<PendingReport>(&id, round, body.table)?;
    Ok((StatusCode::CREATED, Json(out)))
}

// ---------------------------------------------------------------- running an event (officials)

/// Where the server keeps organizers' secret seeds, or 409 when it was started without.
fn seeds_dir(state: &AppState) -> AppResult<std::path::PathBuf> {
    state
        .seeds()
        .cloned()
        .ok_or_else(|| AppError::Conflict("this server keeps no pairing seeds (start it with a data directory)".into()))
}

#[derive(Deserialize)]
pub struct PlayersBody {
    pub players: Vec<String>,
    /// Once round 1 is paired a registration is a late entry: an override, with its reason.
    pub reason: Option<String>,
}

/// `POST /tournaments/{id}/players`: register players (the organizer); once round 1 is paired,
/// late entries, admitted by the organizer or the head judge with a reason (an override).
pub async fn register(
    State(state): State<AppState>,
    Path(id): Path<String>,
    caller: Caller,
    J(body): J<PlayersBody>,
) -> AppResult<(StatusCode, Json<Value>)> {
    let g = official(&caller, &id, false)?.clone();
    if body.players.is_empty() || body.players.len() > 10_000 {
        return Err(AppError::BadRequest("give 1 to 10,000 players".into()));
    }
    // Numbered as the body lists them, before the recorder's own check (which cannot number them).
    for (i, p) in body.players.iter().enumerate() {
        crate::log::limits::check_name(|| format!("player name {}", i + 1), p.trim())
            .map_err(|e| AppError::BadRequest(e.to_string()))?;
    }
    let t = state.tournament(&id).await?;
    let s = &t.loaded.state;
    let next = s.rounds.len() as u32 + 1;
    let late = match s.rounds.is_empty() {
        true if g.role != Role::Organizer => {
            return Err(AppError::Forbidden("only the organizer registers players".into()))
        }
        true => None,
        false => {
            may_override(&g, s, "admits a late entry")?;
            Some(override_reason(&body.reason, "a late entry")?)
        }
    };
    let events = body
        .players
        .iter()
        .map(|p| {
            let player = p.trim().to_string();
            match &late {
                None => TournamentEvent::PlayerRegistered { player, deck: None },
                Some(reason) => TournamentEvent::LateEntryAdmitted {
                    player,
                    deck: None,
                    first_round: next,
                    by: g.name.clone(),
                    reason: reason.clone(),
                },
            }
        })
        .collect();
    recorded(&state, &id, actor_of(&g), events).await
}

#[derive(Deserialize)]
pub struct PlayerBody {
    pub player: String,
    pub reason: Option<String>,
    /// For penalties: warning, game-loss, match-loss or dq (Pokémon also caution,
    /// double-prize, quad-prize); with `infraction`, default: the policy's for it.
    pub penalty: Option<String>,
    pub round: Option<u32>,
    /// For penalties: the infraction's code in the policy's table.
    pub infraction: Option<String>,
    /// For penalties: why a lighter penalty than the policy's is given.
    pub downgrade: Option<String>,
    /// For penalties: the judge call it came from.
    pub call: Option<u32>,
}

/// `POST /tournaments/{id}/drops`: a player leaves after the current round.
pub async fn drop_player(
    State(state): State<AppState>,
    Path(id): Path<String>,
    caller: Caller,
    J(body): J<PlayerBody>,
) -> AppResult<(StatusCode, Json<Value>)> {
    let g = official(&caller, &id, false)?.clone();
    let t = state.tournament(&id).await?;
    let player = rules::resolve(&t.loaded.state, &body.player)?;
    let after_round = t.loaded.state.rounds.len() as u32;
    let reason = body.reason.unwrap_or_else(|| "dropped".into());
    let ev = TournamentEvent::PlayerDropped { player, after_round, reason };
    recorded(&state, &id, actor_of(&g), vec![ev]).await
}

/// `POST /tournaments/{id}/penalties`: a judge's penalty (reason required; a DQ drops). With an
/// infraction, the penalty defaults to the policy's for it (upgraded for a repeat).
pub async fn penalty(
    State(state): State<AppState>,
    Path(id): Path<String>,
    caller: Caller,
    J(body): J<PlayerBody>,
) -> AppResult<(StatusCode, Json<Value>)> {
    let g = official(&caller, &id, false)?.clone();
    // The reason (and every other rule of a penalty) is TOUR-PEN-*'s to check, once.
    let reason = body.reason.clone().unwrap_or_default().trim().to_string();
    let t = state.tournament(&id).await?;
    let s = &t.loaded.state;
    let player = rules::resolve(s, &body.player)?;
    let round = body.round.unwrap_or(s.rounds.len() as u32);
    let parse = |p: &str| -> AppResult<crate::tournament::events::Penalty> {
        p.parse().map_err(|e| AppError::BadRequest(format!("{e}")))
    };
    let ev = match &body.infraction {
        None => TournamentEvent::PenaltyIssued {
            player,
            round,
            penalty: parse(body.penalty.as_deref().unwrap_or(""))?,
            judge: g.name.clone(),
            reason,
        },
        Some(code) => {
            let (expected, _) = s
                .expected_penalty(&player, code)
                .map_err(|v| TournamentError::Refused { event: "infraction penalized".into(), problems: vec![v] })?;
            let penalty = match &body.penalty {
                Some(p) => parse(p)?,
                None => expected,
            };
            TournamentEvent::InfractionPenalized {
                player,
                round,
                infraction: code.trim().to_lowercase(),
                penalty,
                judge: g.name.clone(),
                reason,
                downgrade: body.downgrade.as_ref().map(|d| d.trim().to_string()),
                call: body.call,
            }
        }
    };
    recorded(&state, &id, Actor::Judge(g.name.clone()), vec![ev]).await
}

#[derive(Deserialize, Default)]
pub struct RoundBody {
    pub rounds: Option<u32>,
    pub reason: Option<String>,
}

/// `POST /tournaments/{id}/rounds`: pair the next Swiss round from the kept seed.
pub async fn pair(
    State(state): State<AppState>,
    Path(id): Path<String>,
    caller: Caller,
    J(body): J<RoundBody>,
) -> AppResult<(StatusCode, Json<Value>)> {
    let g = official(&caller, &id, true)?.clone();
    let dir = seeds_dir(&state)?;
    let store = state.store().clone();
    let sid = stream_id(&id)?;
    let answer = tokio::task::spawn_blocking(move || -> Result<Value, TournamentError> {
        let loaded = record::load(&*store, &sid)?;
        // A pod event seats its next pod round from the same kept seed.
        if loaded.state.pod_format.is_some() {
            let p = crate::tournament::ops::pair_next_pods(&*store, &dir, &sid, loaded, actor_of(&g))?;
            return Ok(json!({"round": p.round, "pods": p.pods, "events": p.head.len}));
        }
        let fresh = crate::game::commit::Commitment(rand::random::<[u8; 32]>());
        let p = crate::tournament::ops::pair_next(&*store, &dir, &sid, loaded, actor_of(&g), body.rounds, fresh)?;
        Ok(json!({"round": p.round, "tables": p.tables, "byes": p.byes, "events": p.head.len}))
    })
    .await??;
    Ok((StatusCode::CREATED, Json(answer)))
}

/// `POST /tournaments/{id}/top-cut`: pair the next single-elimination round.
pub async fn top_cut(
    State(state): State<AppState>,
    Path(id): Path<String>,
    caller: Caller,
) -> AppResult<(StatusCode, Json<Value>)> {
    let g = official(&caller, &id, true)?.clone();
    let t = state.tournament(&id).await?;
    let (round, tables) = t.loaded.state.derive_top_cut().map_err(TournamentError::Rule)?;
    let ev = TournamentEvent::TopCutPaired { round, tables };
    recorded(&state, &id, actor_of(&g), vec![ev]).await
}

/// `POST /tournaments/{id}/void`: void the latest round before any result (reason required).
/// Voiding throws away a round every table was seated for: the organizer's or the head judge's
/// call (as overrides are, TOUR-OVER-1), not a floor judge's (403, nothing written).
pub async fn void(
    State(state): State<AppState>,
    Path(id): Path<String>,
    caller: Caller,
    J(body): J<RoundBody>,
) -> AppResult<(StatusCode, Json<Value>)> {
    let g = official(&caller, &id, false)?.clone();
    let t = state.tournament(&id).await?;
    may_override(&g, &t.loaded.state, "voids a round")?;
    let round =
        t.loaded.state.rounds.last().map(|r| r.round).ok_or_else(|| AppError::Conflict("no round is paired".into()))?;
    let ev = TournamentEvent::RoundVoided { round, reason: body.reason.unwrap_or_default().trim().to_string() };
    recorded(&state, &id, actor_of(&g), vec![ev]).await
}

/// `POST /tournaments/{id}/finalize`: reveal the seed and finalize; with a reason, the organizer
/// or the head judge finalizes an unfinished event early. Finalizing cannot be undone (nothing
/// but signatures is recorded after it, TOUR-FINAL-1), so it is the organizer's or the head
/// judge's (as overrides are, TOUR-OVER-1), never a floor judge's: 403, nothing written.
pub async fn finalize(
    State(state): State<AppState>,
    Path(id): Path<String>,
    caller: Caller,
    J(body): J<RoundBody>,
) -> AppResult<(StatusCode, Json<Value>)> {
    let g = official(&caller, &id, false)?.clone();
    let t = state.tournament(&id).await?;
    may_override(&g, &t.loaded.state, "finalizes the event")?;
    let dir = seeds_dir(&state)?;
    let store = state.store().clone();
    let sid = stream_id(&id)?;
    let early = body.reason.map(|r| (g.name.clone(), r));
    let (head, unfinished) =
        tokio::task::spawn_blocking(move || crate::tournament::ops::finalize(&*store, &dir, &sid, actor_of(&g), early))
            .await??;
    Ok((
        StatusCode::CREATED,
        Json(json!({"finalized": true, "early": !unfinished.is_empty(), "unfinished": unfinished, "events": head.len})),
    ))
}

/// `GET /tournaments/{id}/placings`: the champion, each bracket round, then the Swiss order.
pub async fn placings(State(state): State<AppState>, Path(id): Path<String>) -> AppResult<Json<Value>> {
    let t = state.tournament(&id).await?;
    Ok(Json(json!({"finalized": t.loaded.state.finalized, "placings": t.loaded.state.placings()})))
}
