//! The pages and their scripts and styles, embedded in the binary (no build step): plain HTML,
//! CSS and JavaScript that render everything from the JSON API, so one viewer draws every game
//! from its generic `BoardView`. A page for an id the store does not hold is a real 404 page.
//! Assets are served gzip-compressed (compressed once, on first use) to clients that accept it,
//! with an ETag and a cache lifetime, so a slow link fetches them once and small. The replay page
//! brings the public summary and first board with it, saving a visitor a round trip.

use std::sync::OnceLock;

use axum::extract::{Path, RawQuery, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};

use super::auth::Caller;
use super::compress::{accepts_gzip, gzip};
use super::error::{AppError, Q};
use super::games::{self, ViewQuery};
use super::state::{stream_id, AppState};

const INDEX: &str = include_str!("assets/index.html");
const REPLAY: &str = include_str!("assets/replay.html");
const TOURNAMENT: &str = include_str!("assets/tournament.html");
const FLOOR: &str = include_str!("assets/floor.html");
const PLAYER: &str = include_str!("assets/player.html");

/// Every embedded file under `/assets/`, with its content type.
const FILES: &[(&str, &str, &str)] = &[
    ("style.css", "text/css; charset=utf-8", include_str!("assets/style.css")),
    ("early.js", "text/javascript; charset=utf-8", include_str!("assets/early.js")),
    ("common.js", "text/javascript; charset=utf-8", include_str!("assets/common.js")),
    ("index.js", "text/javascript; charset=utf-8", include_str!("assets/index.js")),
    ("replay.js", "text/javascript; charset=utf-8", include_str!("assets/replay.js")),
    ("record.js", "text/javascript; charset=utf-8", include_str!("assets/record.js")),
    ("seal.js", "text/javascript; charset=utf-8", include_str!("assets/seal.js")),
    ("judge.js", "text/javascript; charset=utf-8", include_str!("assets/judge.js")),
    ("tournament.js", "text/javascript; charset=utf-8", include_str!("assets/tournament.js")),
    ("floor.js", "text/javascript; charset=utf-8", include_str!("assets/floor.js")),
    ("player.js", "text/javascript; charset=utf-8", include_str!("assets/player.js")),
    ("favicon.svg", "image/svg+xml", include_str!("assets/favicon.svg")),
];

fn html(body: &'static str) -> Response {
    ([(header::CONTENT_TYPE, "text/html; charset=utf-8"), (header::CACHE_CONTROL, "no-cache")], body).into_response()
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;").replace('\'', "&#39;")
}

/// A page saying what was not found, with the status `status` (404 for an unknown id).
fn error_page(status: StatusCode, message: &str) -> Response {
    let body = format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{code} · kifu</title><link rel=\"stylesheet\" href=\"/assets/style.css\"></head>\
         <body data-page=\"error\"><header class=\"top\"><a href=\"/\">kifu</a><h1>{code}</h1></header>\
         <main><p id=\"not-found\" class=\"notice\">{msg}</p><p><a href=\"/\">All games and tournaments</a></p></main>\
         </body></html>\n",
        code = status.as_u16(),
        msg = escape(message),
    );
    (status, [(header::CONTENT_TYPE, "text/html; charset=utf-8"), (header::CACHE_CONTROL, "no-cache")], body)
        .into_response()
}

fn page_error(what: &str, id: &str, e: AppError) -> Response {
    match e {
        AppError::Internal(m) => error_page(StatusCode::INTERNAL_SERVER_ERROR, &m),
        _ => error_page(StatusCode::NOT_FOUND, &format!("There is no {what} called “{id}” here.")),
    }
}

/// The replay page, carrying the public summary and the spectator's first board (at the URL's
/// `seq`) in a JSON data block: a visitor without a token draws the board without another round
/// trip. Only what the public may read goes in; a token holder's page fetches its own.
async fn replay_page(State(state): State<AppState>, Path(id): Path<String>, RawQuery(query): RawQuery) -> Response {
    if let Err(e) = state.game(&id).await {
        return page_error("game", &id, e);
    }
    let seq = query
        .as_deref()
        .and_then(|q| q.split('&').find_map(|kv| kv.strip_prefix("seq=")))
        .and_then(|v| v.parse::<u64>().ok());
    let summary = games::summary(State(state.clone()), Path(id.clone()), Caller::Public).await;
    let q = ViewQuery { viewer: None, from: None, limit: None, seq, turn: None, phase: None };
    let board = games::board(State(state), Path(id), Q(q), Caller::Public).await;
    let (Ok(Json(summary)), Ok(Json(board))) = (summary, board) else { return html(REPLAY) };
    // `<` escaped, so no text in the data can close the element.
    let boot = serde_json::json!({"summary": summary, "board": board}).to_string().replace('<', "\\u003c");
    let page = REPLAY.replacen(BOOT_MARK, &format!("<script type=\"application/json\" id=\"boot\">{boot}</script>"), 1);
    ([(header::CONTENT_TYPE, "text/html; charset=utf-8"), (header::CACHE_CONTROL, "no-cache")], page).into_response()
}

/// Where the replay page takes its boot data.
const BOOT_MARK: &str = "<!-- boot -->";

/// Where the tournament page takes the notice of an id no event holds yet.
const MISSING_MARK: &str = "<!-- missing -->";

/// The tournament page. For a valid id the store holds nothing under, a 404 that is still the
/// tournament page, with the not-found notice: an organizer's token then shows its "New event"
/// form (a plain 404 page would never let the form appear). Anything else (a game's id, a bad
/// id) is the plain 404 page.
async fn tournament_page(State(state): State<AppState>, Path(id): Path<String>) -> Response {
    let e = match state.tournament(&id).await {
        Ok(_) => return html(TOURNAMENT),
        Err(e) => e,
    };
    let unheld = stream_id(&id)
        .ok()
        .is_some_and(|sid| matches!(state.store().head(&sid), Err(crate::store::StoreError::UnknownStream(_))));
    if !unheld {
        return page_error("tournament", &id, e);
    }
    let notice = format!(
        "<p id=\"not-found\" class=\"notice\">There is no tournament called “{}” here. An organizer's token can \
         create it.</p>",
        escape(&id)
    );
    let page = TOURNAMENT.replacen(MISSING_MARK, &notice, 1);
    (
        StatusCode::NOT_FOUND,
        [(header::CONTENT_TYPE, "text/html; charset=utf-8"), (header::CACHE_CONTROL, "no-cache")],
        page,
    )
        .into_response()
}

/// The judges' floor of a tournament: the page itself is public (it holds no data); its script
/// asks the API with the reader's token and shows a non-official a message instead.
async fn floor_page(State(state): State<AppState>, Path(id): Path<String>) -> Response {
    match state.tournament(&id).await {
        Ok(_) => html(FLOOR),
        Err(e) => page_error("tournament", &id, e),
    }
}

/// A player's own page: public as a page (it holds no data); its script asks the API with the
/// reader's token, which answers only a player registered in this event.
async fn player_page(State(state): State<AppState>, Path(id): Path<String>) -> Response {
    match state.tournament(&id).await {
        Ok(_) => html(PLAYER),
        Err(e) => page_error("tournament", &id, e),
    }
}

/// Each asset compressed, in the order of [`FILES`].
fn gzipped(i: usize) -> &'static [u8] {
    static GZ: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    GZ.get_or_init(|| FILES.iter().map(|(_, _, body)| gzip(body.as_bytes(), flate2::Compression::best())).collect())
        .get(i)
        .map_or(&[], Vec::as_slice)
}

/// Assets are cached for ten minutes and revalidated by their content hash after that.
async fn asset(Path(name): Path<String>, headers: HeaderMap) -> Response {
    let Some(i) = FILES.iter().position(|(n, _, _)| *n == name) else {
        return error_page(StatusCode::NOT_FOUND, "There is no such file.");
    };
    let (_, ty, body) = FILES[i];
    let gz = gzipped(i);
    let compressed = accepts_gzip(&headers) && !gz.is_empty();
    let hash = &blake3::hash(body.as_bytes()).to_hex()[..16];
    let etag = if compressed { format!("\"{hash}-gz\"") } else { format!("\"{hash}\"") };
    let cache = [
        (header::CACHE_CONTROL, "public, max-age=600".to_string()),
        (header::ETAG, etag.clone()),
        (header::VARY, "Accept-Encoding".to_string()),
    ];
    if headers.get(header::IF_NONE_MATCH).and_then(|v| v.to_str().ok()) == Some(etag.as_str()) {
        return (StatusCode::NOT_MODIFIED, cache).into_response();
    }
    if compressed {
        let enc = [(header::CONTENT_TYPE, ty.to_string()), (header::CONTENT_ENCODING, "gzip".to_string())];
        return (enc, cache, gz).into_response();
    }
    ([(header::CONTENT_TYPE, ty.to_string())], cache, body).into_response()
}

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/", get(|| async { html(INDEX) }))
        .route("/replay/{id}", get(replay_page))
        .route("/tournament/{id}", get(tournament_page))
        .route("/tournament/{id}/judge", get(floor_page))
        .route("/tournament/{id}/me", get(player_page))
        .route("/assets/{name}", get(asset))
        .route("/favicon.ico", get(|| async { asset(Path("favicon.svg".to_string()), HeaderMap::new()).await }))
        .fallback(|| async { error_page(StatusCode::NOT_FOUND, "There is no page at this address.") })
}
