//! `kifu serve`: the web replay viewer, live spectating and tournament pages over a JSON API
//! (`/api/v1`), with the page assets embedded in the binary.
//!
//! Layout: [`state`] (the shared state: store handle, caches of opened games and tournaments,
//! the live feeds, tokens and pending result reports), [`auth`] (who is calling and what they may
//! see), [`tokens`] (the token file or the store's shared tokens), [`games`], [`tournaments`] and `judging` (the API handlers; `judging`: judge calls,
//! penalty histories, appeals), `tournament_writes` (what the tournament handlers share: the
//! official calling, overrides, recording events), `pod_results` (a pod's places reported, confirmed by its players,
//! entered or corrected by a judge), `player` (a player's own page: their table, list, reports,
//! calls, penalties and appeals), [`live`]
//! (server-sent events), [`assets`] (the pages), `compress` (gzip for assets, pages and JSON responses)
//! and [`error`].
//!
//! ## Roles
//! - **Public** (no token): spectator views only. A game's hidden information never leaves the
//!   server for them: every board and every event text is produced by `Game::view` /
//!   `Game::describe` for `Viewer::Spectator`.
//! - **Player** (token scoped to one tournament, naming a registered player): in the games of
//!   their own matches (created bound to the match, in the game's hashed header, so from its first
//!   event; or linked by a result an earlier build recorded: ids and names carry no meaning) in
//!   which they hold a seat, they may also see their own seat's view, record their own actions,
//!   report their own match result and confirm their opponent's report. A result may link only
//!   games bound to its match (`tournament::claim`).
//! - **Judge** / **Organizer** (token scoped to one tournament, or `*`): the omniscient view of
//!   the games in scope, rulings, forced entries, reporting and correcting results.
//!
//! An unknown token is 401; a known token asking for more than its role allows is 403; nothing
//! is written in either case.
//!
//! ## Bounds
//! [`serve`] holds at most [`Limits::max_connections`] connections and at most
//! [`Limits::connections_per_client`] from one client address (more are answered 429 and closed,
//! so one address cannot take the whole server). Of those, *unproven* connections (waiting for a
//! request head, or receiving a body, without a valid token on their last head: all a
//! slow-request attack holds) are bounded per address ([`Limits::unproven_per_client`]) and in
//! total ([`Limits::max_unproven`]); past either bound, or past the global cap, the oldest
//! unproven connection is closed (the address's own, or the oldest of the address holding the
//! most) rather than the newcomer refused, so a few addresses cannot hold the server and a client
//! with a valid token is served. A connection past the global cap is answered 503 only when none
//! is unproven (`conns`). It closes a connection
//! that has not sent a whole request head within [`Limits::header_timeout`] (slowloris), whose
//! request body has not arrived within [`Limits::body_timeout`] or falls below
//! [`Limits::min_body_rate`] (slow body), or that sat silent between requests for
//! [`Limits::idle_timeout`] (idle keep-alive; a slow response in flight is never cut), refuses
//! request bodies over [`Limits::max_body`] (413) and more than [`Limits::sse_per_client`]
//! live-event streams from one client address (429). A client address is an IPv4 address or an
//! IPv6 /64.
//!
//! ## One server or several
//! With sled, the server holds the data directory's exclusive lock, so it is the only writer:
//! CLI commands on the same directory wait (up to 30 s) and then fail. With a cluster
//! (`--store nats://…`) any number of servers share the store, and every server:
//! - follows live games through the store's watch ([`live`]), so a follower on one server
//!   receives the events appended through any other, in order;
//! - reads a stream's head from the store on every request ([`state`]), so its caches, keyed by
//!   head, never serve a game or tournament behind what another server appended;
//! - keeps tokens and pending result reports in the store's shared records
//!   ([`crate::store::Records`]), so a token revoked through one is refused by all, and a report
//!   made on one is confirmed on another;
//! - when cut off from the cluster, answers from what it has cached, marked `Kifu-Stale: true`,
//!   and refuses writes with 503 and a JSON error until the cluster is back (on its own);
//! - recognises a retried write by its `Idempotency-Key` header, whichever server took the first
//!   attempt ([`games::act`], [`games::rule`]).

pub mod assets;
pub mod auth;
mod bounds;
mod cases;
mod compress;
mod conns;
mod decks;
pub mod error;
mod feeds;
pub mod games;
mod judging;
pub mod live;
mod new_games;
pub mod options;
mod player;
mod pod_results;
mod setup;
mod standings;
pub mod state;
pub mod tokens;
mod tournament_writes;
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
        .route("/games", post(new_games::new_game))
        .route("/games/{id}", get(games::summary))
        .route("/games/{id}/events", get(games::events).post(games::act))
        .route("/games/{id}/board", get(games::board))
        .route("/games/{id}/audit", get(games::audit))
        .route("/games/{id}/verify", get(games::verify))
        .route("/games/{id}/export", get(games::export))
        .route("/games/{id}/rulings", post(games::rule))
        .route("/games/{id}/rules", get(games::rules))
        .route("/games/{id}/events/check", post(games::check))
        .route("/games/{id}/live", get(live::live))
        .route("/games/{id}/options", get(options::list).post(options::pick))
        .route("/games/{id}/concede", post(options::concede))
        .route("/tournaments/{id}", get(tournaments::summary))
        .route("/tournaments/{id}/pairings", get(tournaments::pairings))
        .route("/tournaments/{id}/standings", get(tournaments::standings))
        .route("/tournaments/{id}/explain/{player}", get(tournaments::explain))
        .route("/tournaments/{id}/bracket", get(tournaments::bracket))
        .route("/tournaments/{id}/verify", get(tournaments::verify))
        .route("/tournaments/{id}/results", get(tournaments::pending).post(tournaments::report))
        .route("/tournaments/{id}/results/confirm", post(tournaments::confirm))
        .route("/tournaments/{id}/pods/results", get(pod_results::pending).post(pod_results::report))
        .route("/tournaments/{id}/pods/results/confirm", post(pod_results::confirm))
        .route("/tournaments", post(setup::create))
        .route("/rulesets", get(setup::rulesets))
        .route("/tournaments/{id}/top-cut/size", post(setup::top_cut_size))
        .route("/tournaments/{id}/judges", post(setup::name_judge))
        .route("/tournaments/{id}/archive", post(setup::archive))
        .route("/tournaments/{id}/players", post(tournaments::register))
        .route("/tournaments/{id}/drops", post(tournaments::drop_player))
        .route("/tournaments/{id}/me", get(player::me))
        .route("/tournaments/{id}/catalog", get(player::catalog))
        .route("/tournaments/{id}/decks", post(decks::register))
        .route("/tournaments/{id}/decks/{player}", get(decks::show))
        .route("/tournaments/{id}/decks/{player}/change", post(decks::change))
        .route("/tournaments/{id}/deck-checks", post(decks::check))
        .route("/tournaments/{id}/penalties", get(judging::history).post(tournaments::penalty))
        .route("/tournaments/{id}/infractions", get(judging::infractions))
        .route("/tournaments/{id}/calls", get(judging::list).post(judging::open))
        .route("/tournaments/{id}/floor", get(judging::floor))
        .route("/tournaments/{id}/calls/{call}/{step}", post(judging::step))
        .route("/tournaments/{id}/head-judge", post(judging::head_judge))
        .route("/tournaments/{id}/overrides", post(judging::override_pairing))
        .route("/tournaments/{id}/appeals", post(judging::appeal))
        .route("/tournaments/{id}/statements", get(cases::list).post(cases::record))
        .route("/tournaments/{id}/case/{player}", get(cases::case))
        .route("/tournaments/{id}/case/{player}/export", get(cases::export))
        .route("/tournaments/{id}/appeals/{appeal}/decision", post(judging::decide))
        .route("/tournaments/{id}/rounds", post(tournaments::pair))
        .route("/tournaments/{id}/rounds/{round}/tables/{table}/games", post(new_games::table_game))
        .route("/tournaments/{id}/rounds/{round}/pods/{pod}/games", post(new_games::pod_game))
        .route("/tournaments/{id}/top-cut", post(tournaments::top_cut))
        .route("/tournaments/{id}/void", post(tournaments::void))
        .route("/tournaments/{id}/finalize", post(tournaments::finalize))
        .route("/tournaments/{id}/placings", get(tournaments::placings))
        .fallback(|| async { AppError::NotFound("no such API endpoint (see /api/v1)".into()) });
    Router::new()
        .nest("/api/v1", api)
        .merge(assets::routes())
        .layer(axum::middleware::from_fn(state::stale_marker))
        .layer(axum::middleware::from_fn(compress::responses))
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

/// What one server lets its clients hold.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Open connections at once; one more is answered 503 and closed.
    pub max_connections: usize,
    /// Open connections at once from one client address (below `max_connections`, so no one
    /// address can fill the server); one more is answered 429 and closed.
    pub connections_per_client: usize,
    /// Unproven connections (waiting for a request head or receiving a body, without a valid
    /// token on their last head) at once from one client address; one more closes the
    /// address's oldest unproven connection. Well below `connections_per_client`: a few
    /// addresses' slow requests hold a small share of the server.
    pub unproven_per_client: usize,
    /// Unproven connections at once in all; one more closes the oldest unproven connection of
    /// the address holding the most. Below `max_connections`, so the rest is kept for requests
    /// being answered and for token holders.
    pub max_unproven: usize,
    /// Time to send a whole request head.
    pub header_timeout: std::time::Duration,
    /// The most a connection may sit silent with no response in flight (between keep-alive
    /// requests); no byte read or written and no response being produced or sent.
    pub idle_timeout: std::time::Duration,
    /// Request body bytes.
    pub max_body: usize,
    /// The longest a request body may take to arrive whole, from its head; the connection is
    /// closed past it (a response in flight does not shield a body that never arrives).
    pub body_timeout: std::time::Duration,
    /// The slowest a request body may arrive, in bytes per second on average from its head,
    /// after a second's grace (`bounds::BODY_GRACE`); the connection is closed below it. 0: no
    /// minimum besides `body_timeout`.
    pub min_body_rate: u64,
    /// Live-event (SSE) streams open at once from one client IP address.
    pub sse_per_client: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_connections: 1024,
            connections_per_client: 256,
            unproven_per_client: 32,
            max_unproven: 512,
            header_timeout: std::time::Duration::from_secs(10),
            idle_timeout: std::time::Duration::from_secs(5),
            max_body: 256 * 1024,
            body_timeout: std::time::Duration::from_secs(10),
            min_body_rate: 1024,
            sse_per_client: 16,
        }
    }
}

/// Serves the application on a bound listener until ctrl-c.
pub async fn serve(listener: tokio::net::TcpListener, state: AppState) -> std::io::Result<()> {
    let shutdown = async {
        // If the signal handler cannot be installed, serve until killed.
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    serve_bounded(listener, state, Limits::default(), shutdown).await
}

/// Serves on `listener` within `limits` until `shutdown` completes.
pub async fn serve_bounded(
    listener: tokio::net::TcpListener,
    state: AppState,
    limits: Limits,
    shutdown: impl std::future::Future<Output = ()>,
) -> std::io::Result<()> {
    use std::sync::Arc;
    let pool = conns::Pool::new(&limits);
    let live = Arc::new(bounds::PerAddress::default());
    let body = bounds::BodyLimits { timeout: limits.body_timeout, min_rate: limits.min_body_rate };
    let app = app(state.clone()).layer(axum::extract::DefaultBodyLimit::max(limits.max_body));
    tokio::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            _ = &mut shutdown => return Ok(()),
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                // Out of file descriptors and the like: wait a moment instead of spinning.
                Err(_) => {
                    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                    continue;
                }
            },
        };
        let ticket = match pool.admit(peer.ip()) {
            Ok(ticket) => ticket,
            Err(conns::Refused::Address) => {
                tokio::spawn(bounds::refuse_address(stream, limits.connections_per_client));
                continue;
            }
            Err(conns::Refused::Full) => {
                tokio::spawn(bounds::refuse(stream));
                continue;
            }
        };
        let activity = bounds::Activity::new(ticket);
        let svc = bounds::per_client(
            app.clone(),
            state.clone(),
            peer.ip(),
            live.clone(),
            limits.sse_per_client,
            activity.clone(),
        );
        let (timeout, idle) = (limits.header_timeout, limits.idle_timeout);
        tokio::spawn(async move {
            let io = hyper_util::rt::TokioIo::new(bounds::Watched::new(stream, activity.clone()));
            let svc = hyper_util::service::TowerToHyperService::new(svc);
            let conn = hyper::server::conn::http1::Builder::new()
                .timer(hyper_util::rt::TokioTimer::new())
                .header_read_timeout(timeout)
                .serve_connection(io, svc);
            bounds::until_idle(conn, &activity, idle, body).await;
        });
    }
}
