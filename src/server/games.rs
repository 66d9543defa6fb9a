//! The game endpoints: streams, a game's summary, its events (paged, described for a viewer),
//! the board at a sequence number or turn, audit findings, chain verification, and the writes
//! (a player's action, a judge's forced entry or ruling).

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::Json;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::auth::{game_access, Caller, GameAccess};
use super::error::{AppError, AppResult, J, Q};
use super::state::{parse_viewer, stream_id, viewer_key, AppState};
use crate::game::driver::TimelineEntry;
use crate::game::record::Recorded;
use crate::game::{Ruling, Viewer};
use crate::log::envelope::{Actor, IdempotencyId};
use crate::log::limits::shown;

#[derive(Serialize)]
pub struct StreamRow {
    pub id: String,
    pub kind: String,
    pub ruleset: String,
    pub players: Vec<String>,
    pub events: u64,
    pub head: String,
    pub created_at: String,
}

#[derive(Deserialize)]
pub struct StreamsQuery {
    /// Also list archived tournaments (hidden by default).
    #[serde(default)]
    pub archived: bool,
}

/// `GET /streams`: every stream with its kind, players and head. An archived tournament
/// (`TournamentArchived`) is left out unless `?archived=true`: it is still on the record, and
/// its pages and verification still answer by its id.
pub async fn streams(State(state): State<AppState>, Q(q): Q<StreamsQuery>) -> AppResult<Json<Vec<StreamRow>>> {
    let store = state.store().clone();
    let list = tokio::task::spawn_blocking(move || store.streams()).await??;
    let mut rows = Vec::with_capacity(list.len());
    for s in list {
        let h = s.header.v1();
        if !q.archived && h.kind == crate::log::envelope::StreamKind::Tournament {
            let archived = state.tournament(h.stream.as_str()).await.is_ok_and(|t| t.loaded.state.archived.is_some());
            if archived {
                continue;
            }
        }
        rows.push(StreamRow {
            id: h.stream.to_string(),
            kind: h.kind.to_string(),
            ruleset: h.ruleset.clone(),
            // A name an earlier build stored unbounded is listed cut, never refused.
            players: h.players.iter().map(|p| shown(p).into_owned()).collect(),
            events: s.head.len,
            head: s.head.hash.to_hex(),
            created_at: h.created_at.to_rfc3339(),
        });
    }
    Ok(Json(rows))
}

/// `GET /games/{id}`: players, length, head, outcome, the caller's allowed viewers, and the
/// turn/phase of every event boundary (for the page's turn and phase jumps).
pub async fn summary(State(state): State<AppState>, Path(id): Path<String>, caller: Caller) -> AppResult<Json<Value>> {
    let g = state.game(&id).await?;
    let access = game_access(&state, &caller, &g).await;
    let p0 = g.session.position_at(0);
    let mut turns: Vec<Value> = vec![json!({"seq": 0, "turn": p0.turn, "phase": p0.phase})];
    let mut last = (p0.turn, p0.phase);
    for n in 1..=g.len() {
        let p = g.session.position_at(n);
        if (p.turn, p.phase) != last {
            turns.push(json!({"seq": n, "turn": p.turn, "phase": p.phase}));
            last = (p.turn, p.phase);
        }
    }
    Ok(Json(json!({
        "id": g.id.as_str(),
        "ruleset": g.ruleset,
        "players": g.players.iter().map(|p| shown(p)).collect::<Vec<_>>(),
        "events": g.len(),
        "head": g.head.hash.to_hex(),
        "header_hash": g.header_hash.to_hex(),
        "created_at": g.created_at,
        "bound": g.bound,
        "chain": {"verified": true, "events": g.len(), "head": g.head.hash.to_hex()},
        "live": !g.finished(),
        "outcome": g.outcome,
        "access": access,
        "positions": turns,
    })))
}

#[derive(Deserialize)]
pub struct ViewQuery {
    #[serde(rename = "as")]
    pub viewer: Option<String>,
    pub from: Option<u64>,
    pub limit: Option<u64>,
    pub seq: Option<u64>,
    pub turn: Option<u32>,
    pub phase: Option<String>,
}

/// The viewer asked for, checked against the caller's access (403 when not allowed).
pub fn requested_viewer(access: &GameAccess, q: Option<&str>) -> AppResult<Viewer> {
    let v = match q {
        Some("own") => access.own(),
        q => parse_viewer(q.unwrap_or("spectator"))?,
    };
    access.check(v)?;
    Ok(v)
}

/// The largest page of events one request returns.
pub const MAX_PAGE: u64 = 1000;

/// `GET /games/{id}/events?from=&limit=&as=`: events described for a viewer, a page at a time.
pub async fn events(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Q(q): Q<ViewQuery>,
    caller: Caller,
) -> AppResult<Json<Value>> {
    let g = state.game(&id).await?;
    let access = game_access(&state, &caller, &g).await;
    let viewer = requested_viewer(&access, q.viewer.as_deref())?;
    let from = q.from.unwrap_or(0).min(g.len());
    let limit = q.limit.unwrap_or(200).clamp(1, MAX_PAGE);
    let to = from.saturating_add(limit).min(g.len());
    let page: Vec<TimelineEntry> = if to - from > 64 {
        // A long page: the viewer's timeline, kept by the open game and extended as it grows,
        // beats seeking per event.
        let page = {
            let g = g.clone();
            tokio::task::spawn_blocking(move || g.timeline_range(viewer, from, to)).await?
        };
        state.reaccount(&g);
        page
    } else {
        (from..to).filter_map(|s| g.session.describe(s, viewer)).collect()
    };
    Ok(Json(json!({
        "events": g.len(),
        "head": g.head.hash.to_hex(),
        "viewer": viewer_key(viewer),
        "from": from,
        "next": if to < g.len() { Some(to) } else { None },
        "entries": page,
    })))
}

/// `GET /games/{id}/board?seq=N|turn=T[&phase=P]&as=`: the board after the first N events (or
/// when turn T, phase P is first reached) as the viewer may see it.
pub async fn board(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Q(q): Q<ViewQuery>,
    caller: Caller,
) -> AppResult<Json<Value>> {
    let g = state.game(&id).await?;
    let access = game_access(&state, &caller, &g).await;
    let viewer = requested_viewer(&access, q.viewer.as_deref())?;
    let seq = match (q.seq, q.turn) {
        (Some(s), None) => {
            if s > g.len() {
                return Err(AppError::BadRequest(format!("seq {s} is past the end ({} events)", g.len())));
            }
            s
        }
        (None, Some(t)) => g.session.seek_turn(t, q.phase.as_deref()).ok_or_else(|| {
            AppError::NotFound(format!(
                "the game never reaches turn {t}{}",
                q.phase.map(|p| format!(" {p}")).unwrap_or_default()
            ))
        })?,
        (None, None) => g.len(),
        (Some(_), Some(_)) => return Err(AppError::BadRequest("give seq or turn, not both".into())),
    };
    let board = g.session.board(seq, viewer);
    let last = seq.checked_sub(1).and_then(|s| g.session.describe(s, viewer));
    Ok(Json(json!({
        "seq": seq,
        "events": g.len(),
        "head": g.head.hash.to_hex(),
        "viewer": viewer_key(viewer),
        "last": last,
        "board": board,
    })))
}

/// `GET /games/{id}/audit`: every finding with its sequence number, rule and resolution. The
/// messages can name cards, so only judges get them; everyone gets where and which rule.
pub async fn audit(State(state): State<AppState>, Path(id): Path<String>, caller: Caller) -> AppResult<Json<Value>> {
    let g = state.game(&id).await?;
    let access = game_access(&state, &caller, &g).await;
    let report = {
        let g = g.clone();
        tokio::task::spawn_blocking(move || g.audit()).await?
    };
    state.reaccount(&g);
    // Each rule's one-line summary (the game's coverage table, the recorder's own KIFU-* rules):
    // public, unlike a finding's message, which can name hidden cards.
    let coverage = crate::games::driver(&g.ruleset).map(|d| d.coverage()).unwrap_or_default();
    let summary = |rule: &str| crate::game::rules::summary_of(&coverage, rule);
    let findings: Vec<Value> = report
        .findings
        .iter()
        .map(|f| {
            json!({
                "seq": f.seq,
                "actor": f.actor,
                "rule": f.rule,
                "summary": summary(&f.rule),
                "message": if access.judge { Some(f.message.clone()) } else { None },
                "resolution": f.resolution,
                "found_at": f.found_at,
            })
        })
        .collect();
    Ok(Json(json!({
        "ruleset": report.ruleset,
        "events": report.events,
        "findings": findings,
        "unresolved": report.unresolved(),
        "outcome": report.outcome,
    })))
}

/// `GET /games/{id}/verify`: re-reads the stream and verifies every hash and link.
pub async fn verify(State(state): State<AppState>, Path(id): Path<String>) -> AppResult<Json<Value>> {
    let sid = stream_id(&id)?;
    let store = state.store().clone();
    let result = tokio::task::spawn_blocking(move || store.export(&sid)).await?;
    Ok(Json(match result {
        Ok(log) => json!({"ok": true, "events": log.head.len, "head": log.head.hash.to_hex(), "error": null}),
        Err(crate::store::StoreError::UnknownStream(s)) => {
            return Err(AppError::NotFound(format!("unknown stream {s:?}")))
        }
        Err(e) => json!({"ok": false, "events": null, "head": null, "error": e.to_string()}),
    }))
}

#[derive(Deserialize)]
pub struct ActBody {
    /// The game's event, as `kifu game act` takes it.
    pub event: Value,
    /// A judge records it although it breaks rules.
    #[serde(default)]
    pub forced: bool,
    /// The number of events the caller saw; a different count is 409 and nothing is written.
    pub expected: Option<u64>,
}

/// The longest `Idempotency-Key` accepted.
const MAX_IDEMPOTENCY_KEY: usize = 255;

/// The request's `Idempotency-Key` header (1–255 visible ASCII characters, a UUID say) as the
/// store's id (`IdempotencyId::from_key`, as `kifu append --idempotency-key` derives it). A
/// client that timed out or got a 503 sends the same request with the same key again, through
/// any server: if the first attempt landed it is answered 200 with `"retried": true` and the
/// first attempt's `seq`, and nothing is written twice (ids are per game; see `Store::recorded_id`
/// for how long each backend remembers them).
pub(super) fn idempotency_key(headers: &HeaderMap) -> AppResult<Option<IdempotencyId>> {
    let Some(value) = headers.get("idempotency-key") else {
        return Ok(None);
    };
    let key = value
        .to_str()
        .ok()
        .filter(|k| (1..=MAX_IDEMPOTENCY_KEY).contains(&k.len()) && k.bytes().all(|b| b.is_ascii_graphic()))
        .ok_or_else(|| {
            AppError::BadRequest(format!(
                "the Idempotency-Key header must be 1 to {MAX_IDEMPOTENCY_KEY} visible ASCII characters"
            ))
        })?;
    Ok(Some(IdempotencyId::from_key(key)))
}

/// The answer to a recorded write: 201 for a new event, 200 for a recognised retry.
fn recorded_answer(recorded: &Recorded) -> (StatusCode, Json<Value>) {
    let flagged: Vec<String> = recorded.flagged.iter().map(|v| v.rule.to_string()).collect();
    let status = if recorded.retried { StatusCode::OK } else { StatusCode::CREATED };
    let body = json!({
        "seq": recorded.seq,
        "head": recorded.head.hash.to_hex(),
        "flagged": flagged,
        "retried": recorded.retried,
    });
    (status, Json(body))
}

/// `POST /games/{id}/events`: a player records their own action, or a judge forces one. With an
/// `Idempotency-Key` header a retry records nothing twice (see [`idempotency_key`]).
pub async fn act(
    State(state): State<AppState>,
    Path(id): Path<String>,
    caller: Caller,
    headers: HeaderMap,
    J(body): J<ActBody>,
) -> AppResult<(StatusCode, Json<Value>)> {
    let idempotency = idempotency_key(&headers)?;
    let grant = caller.require_token()?.clone();
    let g = state.game(&id).await?;
    let access = game_access(&state, &caller, &g).await;
    let name =
        access.name.clone().ok_or_else(|| AppError::Forbidden("this game is outside your token's scope".into()))?;
    // The envelope's actor is who entered the event; the event itself says whose action it is,
    // so the log tells "bob played this" from "the scorekeeper entered bob's play".
    let (actor, forced_by) = if body.forced {
        if !access.judge {
            return Err(AppError::Forbidden("only a judge forces an event into the log".into()));
        }
        (Actor::Judge(name.clone()), Some(name))
    } else if access.judge {
        let official = match grant.role {
            super::tokens::Role::Organizer => Actor::Organizer(name),
            _ => Actor::Judge(name),
        };
        (official, None)
    } else if !access.seats.is_empty() {
        (Actor::Player(name), None)
    } else {
        return Err(AppError::Forbidden(format!("{} {} holds no seat in this game", grant.role, grant.name)));
    };
    let actor = Some(actor);
    let event = serde_json::to_string(&body.event).map_err(|e| AppError::BadRequest(e.to_string()))?;
    let store = state.store().clone();
    let live = g.session.live().clone();
    let expected = body.expected;
    // Recorded on the open session: validated against its head, appended with the exact
    // expected version, and the session extended by the one new event.
    let recorded = tokio::task::spawn_blocking(move || {
        let mut live = live.write().unwrap_or_else(|p| p.into_inner());
        live.act_json(&*store, actor, &event, forced_by, expected, idempotency)
    })
    .await??;
    Ok(recorded_answer(&recorded))
}

#[derive(Deserialize)]
pub struct RuleBody {
    pub ruling: Ruling,
    pub expected: Option<u64>,
}

fn ruling_judge(r: &Ruling) -> &str {
    match r {
        Ruling::WarningIssued { judge, .. }
        | Ruling::GameLossIssued { judge, .. }
        | Ruling::BackedUp { judge, .. }
        | Ruling::NoteRecorded { judge, .. }
        | Ruling::EntrySetAside { judge, .. } => judge,
    }
}

/// `POST /games/{id}/rulings`: a judge's ruling (warning, game loss, backup, note). Takes an
/// `Idempotency-Key` header as the events endpoint does.
pub async fn rule(
    State(state): State<AppState>,
    Path(id): Path<String>,
    caller: Caller,
    headers: HeaderMap,
    J(body): J<RuleBody>,
) -> AppResult<(StatusCode, Json<Value>)> {
    caller.require_token()?;
    let idempotency = idempotency_key(&headers)?;
    let g = state.game(&id).await?;
    let access = game_access(&state, &caller, &g).await;
    let name = match (&access.name, access.judge) {
        (Some(n), true) => n.clone(),
        _ => return Err(AppError::Forbidden("only a judge or the organizer records rulings".into())),
    };
    if ruling_judge(&body.ruling) != name {
        return Err(AppError::BadRequest(format!(
            "the ruling names judge {:?}, but your token is {name:?}",
            ruling_judge(&body.ruling)
        )));
    }
    let store = state.store().clone();
    let live = g.session.live().clone();
    let (ruling, expected) = (body.ruling, body.expected);
    let recorded = tokio::task::spawn_blocking(move || {
        let mut live = live.write().unwrap_or_else(|p| p.into_inner());
        live.rule(&*store, Actor::Judge(name), ruling, expected, idempotency)
    })
    .await??;
    Ok(recorded_answer(&recorded))
}

#[derive(Deserialize)]
pub struct ExportQuery {
    /// `kifu` (the self-verifying binary file, the default) or `json`.
    pub format: Option<String>,
}

/// `GET /games/{id}/export?format=kifu|json`: the whole log as a file, as `kifu export` writes
/// it. The log holds every card the events name, hidden ones included, so it is the omniscient
/// view: the same rule as `events?as=judge` (403 for anyone else).
pub async fn export(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Q(q): Q<ExportQuery>,
    caller: Caller,
) -> AppResult<axum::response::Response> {
    use axum::http::header;
    use axum::response::IntoResponse;
    let g = state.game(&id).await?;
    let access = game_access(&state, &caller, &g).await;
    requested_viewer(&access, Some("judge"))?;
    // Open games keep their fold, not their bytes: the file is read (and verified) from the store.
    let store = state.store().clone();
    let sid = g.id.clone();
    let log = tokio::task::spawn_blocking(move || store.export(&sid)).await??;
    let (body, ty, ext) = match q.format.as_deref().unwrap_or("kifu") {
        "kifu" => (crate::log::file::write(&log), "application/octet-stream", "kifu"),
        "json" => {
            let log = crate::log::json::to_json(&log).map_err(|e| AppError::Internal(e.to_string()))?;
            let mut text = serde_json::to_string_pretty(&log).map_err(|e| AppError::Internal(e.to_string()))?;
            text.push('\n');
            (text.into_bytes(), "application/json", "json")
        }
        other => return Err(AppError::BadRequest(format!("format {other:?}: give kifu or json"))),
    };
    // The stream id is a validated identifier, so it is safe inside the quoted file name.
    let disposition = format!("attachment; filename=\"{}.{ext}\"", g.id);
    Ok((
        [
            (header::CONTENT_TYPE, ty.to_string()),
            (header::CONTENT_DISPOSITION, disposition),
            (header::CACHE_CONTROL, "no-store".into()),
        ],
        body,
    )
        .into_response())
}

/// `GET /games/{id}/rules`: the game's rule IDs with their one-line summaries (its coverage
/// table, then the recorder's own `KIFU-*` rules) and the JSON Schema of its entries: what a
/// page needs to say which rule refused a pick and to draw a judge's "force an action" form.
/// Public, as `kifu game rules` is.
pub async fn rules(State(state): State<AppState>, Path(id): Path<String>) -> AppResult<Json<Value>> {
    let g = state.game(&id).await?;
    let coverage = g.driver.coverage();
    let mut rules: Vec<Value> = coverage
        .iter()
        .map(|r| json!({ "rule": r.rule, "summary": r.summary, "enforced": matches!(r.enforcement, crate::game::Enforcement::Enforced) }))
        .collect();
    rules.extend(
        crate::game::rules::KIFU_RULES.iter().map(|(r, s)| json!({ "rule": r, "summary": s, "enforced": true })),
    );
    let schema: Value =
        serde_json::from_str(&g.driver.entry_schema()).map_err(|e| AppError::Internal(e.to_string()))?;
    Ok(Json(json!({ "ruleset": g.ruleset, "rules": rules, "schema": schema })))
}

/// `POST /games/{id}/events/check`: the rules a game action would break if it were recorded now,
/// recording nothing. For the game's judges only: what an action would break can tell what a
/// hidden zone holds. The judge's page shows the list before forcing the action with a note.
pub async fn check(
    State(state): State<AppState>,
    Path(id): Path<String>,
    caller: Caller,
    J(body): J<ActBody>,
) -> AppResult<Json<Value>> {
    caller.require_token()?;
    let g = state.game(&id).await?;
    let access = game_access(&state, &caller, &g).await;
    let name = match (&access.name, access.judge) {
        (Some(n), true) => n.clone(),
        _ => return Err(AppError::Forbidden("only the game's judges check an action before forcing it".into())),
    };
    let event = serde_json::to_string(&body.event).map_err(|e| AppError::BadRequest(e.to_string()))?;
    let forced_by = body.forced.then_some(name);
    let live = g.session.live().clone();
    let (len, violations) = tokio::task::spawn_blocking(move || {
        let live = live.read().unwrap_or_else(|p| p.into_inner());
        (live.len(), live.check_json(None, &event, forced_by))
    })
    .await?;
    let violations = violations?;
    let coverage = g.driver.coverage();
    let summary = |rule: &str| crate::game::rules::summary_of(&coverage, rule);
    let list: Vec<Value> = violations
        .iter()
        .map(|v| json!({ "rule": v.rule, "summary": summary(v.rule), "message": v.message }))
        .collect();
    Ok(Json(json!({ "events": len, "violations": list })))
}
