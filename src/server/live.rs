//! Live games over server-sent events. Each event is sent as `id: SEQ`, `event: entry`, and
//! data `{"entry": TimelineEntry, "events": N, "head": HEX}`. A reconnecting `EventSource`
//! sends `Last-Event-ID: SEQ` and resumes at SEQ + 1; `?from=N` starts at event N; otherwise the
//! stream starts with the next new event.
//!
//! The feed is the store's [`Watch`](crate::store::Watch) of the stream: it rings for every
//! append the store acknowledges, through this server or any other sharing the store (sled: this
//! process's appends, which are all of them; a cluster: every server's). Each (stream, viewer)
//! that someone follows has one feed task with one watch: it alone wakes on that stream's
//! appends, brings the open game to the new head (the events since, verified link by link),
//! describes the new events once and broadcasts the encoded frames, which every follower of that
//! view only copies out. So an append wakes the feeds of its own game, not every follower of
//! every game, and a frame is encoded once, not once per follower. The watch is only a bell: the
//! feed also re-reads the head every [`FEED_POLL`], in case a ring was lost (a writer that died
//! between its acknowledgement and its notice, a notice sent while this server was cut off). A
//! follower that starts behind the head, falls behind the channel or sees a gap catches up from
//! the log (the source of truth) itself, so it loses nothing.
//!
//! A follower with a token re-checks its grant ([`GrantCheck`]) before every frame it sends and
//! every [`GRANT_CHECK`] in between, so a revoked token's stream ends within that time, and
//! before the next frame at the latest, with an `event: revoked` frame. The check is one lookup
//! of the token's hash, where every request looks it up: the token file (re-read only when it
//! changed) or the store's shared records, so a token revoked through any server of a cluster
//! ends its streams on every server. A public follower has nothing to re-check.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::sse::{Event, KeepAlive, Sse};
use serde_json::json;
use tokio::sync::broadcast::{self, error::RecvError};
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;
use tokio_stream::{Stream, StreamExt};

use super::auth::{game_access, Caller};
use super::error::{AppError, AppResult, Q};
use super::feeds::{Frame, FEED_FRAMES, FEED_POLL};
use super::games::{requested_viewer, ViewQuery};
use super::state::{stream_id, viewer_key, AppState, OpenGame};
use crate::game::driver::TimelineEntry;
use crate::game::Viewer;
use crate::store::Watch;

/// How often an open live stream with a token re-checks that the token is still valid, when no
/// frame comes to check it sooner.
pub const GRANT_CHECK: Duration = Duration::from_secs(2);

/// A follower's token, re-checked while its stream is open.
struct GrantCheck {
    state: AppState,
    /// The token's hash; `None` for the public, whose stream needs no check.
    hash: Option<String>,
    next: tokio::time::Instant,
}

impl GrantCheck {
    fn new(state: AppState, caller: &Caller) -> Self {
        let hash = caller.grant().map(|g| g.hash.clone());
        GrantCheck { state, hash, next: tokio::time::Instant::now() + GRANT_CHECK }
    }

    /// Completes when the next periodic check is due (never for the public).
    async fn due(&self) {
        match self.hash {
            Some(_) => tokio::time::sleep_until(self.next).await,
            None => std::future::pending().await,
        }
    }

    /// Whether the token still holds: false once it is revoked. A check that cannot tell (the
    /// store cannot be reached, the token file is unreadable) keeps the stream: the next
    /// check decides, as the next request would.
    async fn holds(&mut self) -> bool {
        let Some(hash) = &self.hash else { return true };
        self.next = tokio::time::Instant::now() + GRANT_CHECK;
        let (state, hash) = (self.state.clone(), hash.clone());
        // A cluster's shared records are read with a blocking round trip: off the async threads.
        !matches!(tokio::task::spawn_blocking(move || state.grant_by_hash(hash)).await, Ok(Ok(None)))
    }
}

/// Tells a follower its token was revoked, if the channel has room (the stream ends either way).
fn revoked(out: &mpsc::Sender<Event>) {
    let _ = out.try_send(Event::default().event("revoked").data("this token was revoked: the live stream ends"));
}

/// The SSE form of one timeline entry of `g`.
fn frame(g: &OpenGame, entry: TimelineEntry) -> Option<Frame> {
    let seq = entry.seq;
    let data = json!({"entry": entry, "events": g.len(), "head": g.head.hash.to_hex()});
    let event = Event::default().id(seq.to_string()).event("entry").json_data(data).ok()?;
    Some(Frame { seq, event })
}

/// Events `from..` of `g` for `viewer` (the open game keeps each viewer's timeline and extends
/// it), described off the async threads.
async fn page(g: &Arc<OpenGame>, viewer: Viewer, from: u64) -> Option<Vec<TimelineEntry>> {
    let g = g.clone();
    tokio::task::spawn_blocking(move || g.timeline_range(viewer, from, g.len())).await.ok()
}

/// Follows the feed of (`id`, `viewer`), starting one if nobody follows it yet.
fn join(state: &AppState, id: &str, viewer: Viewer) -> AppResult<broadcast::Receiver<Arc<Frame>>> {
    let key = (id.to_string(), viewer_key(viewer));
    if let Some(tx) = state.feeds().lock().get(&key) {
        return Ok(tx.subscribe());
    }
    // Watch the stream before reading its head, so no append between the two is missed; the
    // feed starts at that head (a follower reads the game after joining, so whatever it misses
    // from the feed it finds in the log). Both ask the store, so neither holds the feeds' lock.
    let sid = stream_id(id)?;
    let watch = state.store().watch(&sid, 0)?;
    let start = state.store().head(&sid)?.len;
    let mut map = state.feeds().lock();
    if let Some(tx) = map.get(&key) {
        // Another follower started the feed meanwhile: this watch is not needed.
        return Ok(tx.subscribe());
    }
    let (tx, rx) = broadcast::channel(FEED_FRAMES);
    map.insert(key.clone(), tx.clone());
    drop(map);
    tokio::spawn(feed(state.clone(), key, viewer, tx, watch, start));
    Ok(rx)
}

/// The feed task of one (stream, viewer): wakes on the stream's appends (through any server),
/// describes and encodes the new events once, and broadcasts them; ends when nobody follows.
async fn feed(
    state: AppState,
    key: (String, String),
    viewer: Viewer,
    tx: broadcast::Sender<Arc<Frame>>,
    mut watch: Watch,
    mut next: u64,
) {
    loop {
        match state.game(&key.0).await {
            Ok(g) if next < g.len() => {
                let Some(entries) = page(&g, viewer, next).await else {
                    state.feeds().retire(&key, &tx, true);
                    return;
                };
                for entry in entries {
                    next = entry.seq + 1;
                    if let Some(f) = frame(&g, entry) {
                        // No follower right now is not an error: the check below ends the feed.
                        let _ = tx.send(Arc::new(f));
                    }
                }
            }
            Ok(_) => {}
            // The store cannot be reached: keep the followers and try again at the next ring or poll.
            Err(AppError::Unavailable(_)) => {}
            Err(_) => {
                state.feeds().retire(&key, &tx, true);
                return;
            }
        }
        // Wait for this stream to grow; now and then re-read it and see whether anyone still follows.
        if state.feeds().retire(&key, &tx, false) {
            return;
        }
        tokio::select! {
            _ = watch.changed() => {}
            _ = tokio::time::sleep(FEED_POLL) => {}
        }
    }
}

/// Sends `g`'s events from `*next` to its head to a follower; false once the client is gone.
async fn catch_up(g: &Arc<OpenGame>, viewer: Viewer, next: &mut u64, out: &mpsc::Sender<Event>) -> bool {
    if *next >= g.len() {
        return true;
    }
    let Some(entries) = page(g, viewer, *next).await else { return false };
    for entry in entries {
        let seq = entry.seq;
        let Some(f) = frame(g, entry) else { return false };
        if out.send(f.event).await.is_err() {
            return false;
        }
        *next = seq + 1;
    }
    true
}

/// `GET /games/{id}/live?as=&from=`: new events as they are recorded, for a viewer.
pub async fn live(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Q(q): Q<ViewQuery>,
    headers: HeaderMap,
    caller: Caller,
) -> AppResult<Sse<impl Stream<Item = Result<Event, Infallible>>>> {
    let g = state.game(&id).await?;
    let access = game_access(&state, &caller, &g).await;
    let viewer = requested_viewer(&access, q.viewer.as_deref())?;
    // Join the feed before reading the head, so no append between the two is missed.
    let mut frames = join(&state, &id, viewer)?;
    let g = state.game(&id).await?;
    let resume = headers
        .get("last-event-id")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok())
        .map(|s| s.saturating_add(1));
    // An id past the end (u64::MAX included: it must not wrap to 0) resumes at the end.
    let mut next = resume.or(q.from).unwrap_or(g.len()).min(g.len());
    let (tx, rx) = mpsc::channel::<Event>(256);
    let mut grant = GrantCheck::new(state.clone(), &caller);
    tokio::spawn(async move {
        if next < g.len() && !grant.holds().await {
            return revoked(&tx);
        }
        if !catch_up(&g, viewer, &mut next, &tx).await {
            return;
        }
        loop {
            let behind = tokio::select! {
                _ = tx.closed() => return, // the client went away
                _ = grant.due() => {
                    if !grant.holds().await {
                        return revoked(&tx);
                    }
                    continue;
                }
                f = frames.recv() => match f {
                    Ok(f) if f.seq < next => continue,
                    Ok(f) if f.seq == next => {
                        if !grant.holds().await {
                            return revoked(&tx);
                        }
                        if tx.send(f.event.clone()).await.is_err() {
                            return;
                        }
                        next += 1;
                        continue;
                    }
                    // A gap, or frames dropped while this follower was slow: read the log.
                    Ok(_) | Err(RecvError::Lagged(_)) => true,
                    Err(RecvError::Closed) => return,
                }
            };
            if behind {
                if !grant.holds().await {
                    return revoked(&tx);
                }
                let Ok(g) = state.game(&id).await else { return };
                if !catch_up(&g, viewer, &mut next, &tx).await {
                    return;
                }
            }
        }
    });
    let stream = ReceiverStream::new(rx).map(Ok);
    Ok(Sse::new(stream).keep_alive(KeepAlive::new().interval(Duration::from_secs(15))))
}
