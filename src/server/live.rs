//! Live games over server-sent events. Each event is sent as `id: SEQ`, `event: entry`, and
//! data `{"entry": TimelineEntry, "events": N, "head": HEX}`. A reconnecting `EventSource`
//! sends `Last-Event-ID: SEQ` and resumes at SEQ + 1; `?from=N` starts at event N; otherwise the
//! stream starts with the next new event.
//!
//! The feed is the server's own appends (see the single-writer note in [`super`]): a follower
//! waits on the broadcast channel, then describes every event from where it stands up to the new
//! head, so a slow follower that lags behind the channel loses nothing — it catches up from the
//! log, which is the source of truth.

use std::convert::Infallible;
use std::time::Duration;

use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::sse::{Event, KeepAlive, Sse};
use serde_json::json;
use tokio::sync::broadcast::error::RecvError;
use tokio_stream::wrappers::ReceiverStream;
use tokio_stream::{Stream, StreamExt};

use super::auth::{game_access, Caller};
use super::error::{AppResult, Q};
use super::games::{requested_viewer, ViewQuery};
use super::state::AppState;

/// `GET /games/{id}/live?as=&from=`: new events as they are recorded, for a viewer.
pub async fn live(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Q(q): Q<ViewQuery>,
    headers: HeaderMap,
    caller: Caller,
) -> AppResult<Sse<impl Stream<Item = Result<Event, Infallible>>>> {
    // Subscribe before reading the head, so no append between the two is missed.
    let mut notices = state.subscribe();
    let g = state.game(&id).await?;
    let access = game_access(&state, &caller, &g).await;
    let viewer = requested_viewer(&access, q.viewer.as_deref())?;
    let resume = headers
        .get("last-event-id")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok())
        .map(|s| s.saturating_add(1));
    // An id past the end (u64::MAX included: it must not wrap to 0) resumes at the end.
    let mut next = resume.or(q.from).unwrap_or(g.len()).min(g.len());
    let (tx, rx) = tokio::sync::mpsc::channel::<Event>(256);
    tokio::spawn(async move {
        loop {
            let g = match state.game(&id).await {
                Ok(g) => g,
                Err(_) => return,
            };
            if next < g.len() {
                // The viewer's timeline is kept by the open game and extended as it grows.
                let page = {
                    let (g, from) = (g.clone(), next);
                    match tokio::task::spawn_blocking(move || g.timeline_range(viewer, from, g.len())).await {
                        Ok(page) => page,
                        Err(_) => return,
                    }
                };
                for entry in page {
                    let seq = entry.seq;
                    let data = json!({"entry": entry, "events": g.len(), "head": g.head.hash.to_hex()});
                    let ev = Event::default().id(seq.to_string()).event("entry").json_data(data);
                    let Ok(ev) = ev else { return };
                    if tx.send(ev).await.is_err() {
                        return; // the client went away
                    }
                    next = seq + 1;
                }
            }
            // Wait for this stream to grow, or for the client to leave.
            loop {
                tokio::select! {
                    _ = tx.closed() => return,
                    n = notices.recv() => match n {
                        Ok(n) if n.stream == id && n.len > next => break,
                        Ok(_) => continue,
                        Err(RecvError::Lagged(_)) => break,
                        Err(RecvError::Closed) => return,
                    }
                }
            }
        }
    });
    let stream = ReceiverStream::new(rx).map(Ok);
    Ok(Sse::new(stream).keep_alive(KeepAlive::new().interval(Duration::from_secs(15))))
}
