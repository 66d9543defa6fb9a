//! `kifu serve`: the web replay viewer, live spectating and tournament pages over a JSON API
//! (`/api/v1`), with the page assets embedded in the binary.
//!
//! Layout: [`state`] (the shared state: store handle, caches of opened games and tournaments,
//! the live-event channel, pending result reports), [`auth`] (who is calling and what they may
//! see), [`tokens`] (the token file), [`games`] and [`tournaments`] (the API handlers), [`live`]
//! (server-sent events), [`assets`] (the pages) and [`error`].
//!
//! ## Roles
//! - **Public** (no token): spectator views only. A game's hidden information never leaves the
//!   server for them: every board and every event text is produced by `Game::view` /
//!   `Game::describe` for `Viewer::Spectator`.
//! - **Player** (token scoped to one tournament, naming a registered player): in that
//!   tournament's games (linked by a reported result, or whose stream id starts with
//!   `TOURNAMENT-`, the convention of `kifu demo`) in which they hold a seat, they may also see
//!   their own seat's view, record their own actions, report their own match result and confirm
//!   their opponent's report.
//! - **Judge** / **Organizer** (token scoped to one tournament, or `*`): the omniscient view of
//!   the games in scope, rulings, forced entries, reporting and correcting results.
//!
//! An unknown token is 401; a known token asking for more than its role allows is 403; nothing
//! is written in either case.
//!
//! ## The single writer
//! sled holds an exclusive lock on the data directory, so while `kifu serve` runs it is the only
//! writer: CLI commands on the same directory wait (up to 30 s) and then fail. Live updates are
//! therefore fed by the server's own appends ([`state::AppState::append`] and the write
//! endpoints), each of which notifies a broadcast channel that the server-sent-event streams
//! follow. A log appended by another process while the server is stopped is simply read at the
//! next request (caches are keyed by the stream's head).

pub mod assets;
pub mod auth;
pub mod error;
pub mod games;
pub mod live;
pub mod state;
pub mod tokens;
pub mod tournaments;

use axum::http::{header, HeaderValue};
use axum::routing::{get, post};
use axum::Router;

pub use error::{AppError, AppResult};
pub use state::{AppState, ServerConfig};

/// The whole application: API, live events and pages. Tests drive it without a socket
/// (`tower::ServiceExt::oneshot`); `kifu serve` binds it to an address.
pub fn app(state: AppState) -> Router {
    let api = Router::new()
        .route("/whoami", get(auth::whoami))
        .route("/streams", get(games::streams))
        .route("/games/{id}", get(games::summary))
        .route("/games/{id}/events", get(games::events).post(games::act))
        .route("/games/{id}/board", get(games::board))
        .route("/games/{id}/audit", get(games::audit))
        .route("/games/{id}/verify", get(games::verify))
        .route("/games/{id}/export", get(games::export))
        .route("/games/{id}/rulings", post(games::rule))
        .route("/games/{id}/live", get(live::live))
        .route("/tournaments/{id}", get(tournaments::summary))
        .route("/tournaments/{id}/pairings", get(tournaments::pairings))
        .route("/tournaments/{id}/standings", get(tournaments::standings))
        .route("/tournaments/{id}/bracket", get(tournaments::bracket))
        .route("/tournaments/{id}/verify", get(tournaments::verify))
        .route("/tournaments/{id}/results", get(tournaments::pending).post(tournaments::report))
        .route("/tournaments/{id}/results/confirm", post(tournaments::confirm))
        .fallback(|| async { AppError::NotFound("no such API endpoint (see /api/v1)".into()) });
    Router::new()
        .nest("/api/v1", api)
        .merge(assets::routes())
        .layer(axum::middleware::map_response(security_headers))
        .with_state(state)
}

/// Conservative headers on every response: the pages load only their own scripts and styles.
async fn security_headers(mut resp: axum::response::Response) -> axum::response::Response {
    let h = resp.headers_mut();
    h.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    h.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static("default-src 'self'; img-src 'self' data:; frame-ancestors 'none'"),
    );
    resp
}

/// Serves the application on a bound listener until ctrl-c.
pub async fn serve(listener: tokio::net::TcpListener, state: AppState) -> std::io::Result<()> {
    axum::serve(listener, app(state))
        .with_graceful_shutdown(async {
            // If the signal handler cannot be installed, serve until killed.
            if tokio::signal::ctrl_c().await.is_err() {
                std::future::pending::<()>().await;
            }
        })
        .await
}
