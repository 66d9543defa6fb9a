//! The pages and their scripts and styles, embedded in the binary (no build step): plain HTML,
//! CSS and JavaScript that render everything from the JSON API, so one viewer draws every game
//! from its generic `BoardView`.

use axum::extract::Path;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;

use super::state::AppState;

const INDEX: &str = include_str!("assets/index.html");
const REPLAY: &str = include_str!("assets/replay.html");
const TOURNAMENT: &str = include_str!("assets/tournament.html");

/// Every embedded file under `/assets/`, with its content type.
const FILES: &[(&str, &str, &str)] = &[
    ("style.css", "text/css; charset=utf-8", include_str!("assets/style.css")),
    ("common.js", "text/javascript; charset=utf-8", include_str!("assets/common.js")),
    ("index.js", "text/javascript; charset=utf-8", include_str!("assets/index.js")),
    ("replay.js", "text/javascript; charset=utf-8", include_str!("assets/replay.js")),
    ("tournament.js", "text/javascript; charset=utf-8", include_str!("assets/tournament.js")),
    ("favicon.svg", "image/svg+xml", include_str!("assets/favicon.svg")),
];

fn html(body: &'static str) -> Response {
    ([(header::CONTENT_TYPE, "text/html; charset=utf-8"), (header::CACHE_CONTROL, "no-cache")], body).into_response()
}

async fn asset(Path(name): Path<String>) -> Response {
    match FILES.iter().find(|(n, _, _)| *n == name) {
        Some((_, ty, body)) => {
            ([(header::CONTENT_TYPE, *ty), (header::CACHE_CONTROL, "no-cache")], *body).into_response()
        }
        None => (StatusCode::NOT_FOUND, "no such asset").into_response(),
    }
}

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/", get(|| async { html(INDEX) }))
        .route("/replay/{id}", get(|| async { html(REPLAY) }))
        .route("/tournament/{id}", get(|| async { html(TOURNAMENT) }))
        .route("/assets/{name}", get(asset))
        .route("/favicon.ico", get(|| async { asset(Path("favicon.svg".to_string())).await }))
}
