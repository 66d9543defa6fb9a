//! The feeds of live streams being followed: one broadcast channel per (stream, viewer key),
//! holding encoded frames. The server state owns the map; [`super::live`] starts, feeds and ends
//! the feeds (kept apart from it so that the state does not import the endpoints).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use axum::response::sse::Event;
use tokio::sync::broadcast;

/// Frames a feed holds for followers that are a little behind; one further behind catches up
/// from the log.
pub(super) const FEED_FRAMES: usize = 256;

/// How often a feed with no ring re-reads the stream's head (and checks whether anyone still
/// follows it).
pub(super) const FEED_POLL: Duration = Duration::from_secs(5);

/// One event, described for one viewer and encoded once for all its followers.
pub struct Frame {
    pub(super) seq: u64,
    pub(super) event: Event,
}

/// A followed (stream, viewer key) and its feed's frame channel.
type FeedMap = HashMap<(String, String), broadcast::Sender<Arc<Frame>>>;

/// The feeds being followed, by (stream, viewer key).
#[derive(Default)]
pub struct Feeds(Mutex<FeedMap>);

impl Feeds {
    pub(super) fn lock(&self) -> MutexGuard<'_, FeedMap> {
        // The map only holds senders: after a panic elsewhere it is still consistent.
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Ends a feed nobody follows any more (checked under the lock followers join under, so
    /// none can join a feed that is ending). `force`: the feed ends anyway (its game is gone).
    pub(super) fn retire(&self, key: &(String, String), tx: &broadcast::Sender<Arc<Frame>>, force: bool) -> bool {
        let mut map = self.lock();
        if force || tx.receiver_count() == 0 {
            if map.get(key).is_some_and(|t| t.same_channel(tx)) {
                map.remove(key);
            }
            return true;
        }
        false
    }
}
