//! Following a stream live ([`Watch`]): a cursor into the stream and a [`Bell`] the store rings
//! when the stream may have grown. The bell only wakes; events are always read from the store
//! (the source of truth), so a missed or spurious ring loses nothing and a watcher can start,
//! or resume, at any position.

use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use super::{Store, StoreError};
use crate::log::envelope::StreamId;

/// Rung by a store when a stream may have new events; waits blocking or async.
pub struct Bell {
    rung: Mutex<u64>,
    cv: Condvar,
    tx: tokio::sync::watch::Sender<u64>,
}

impl Default for Bell {
    fn default() -> Self {
        Bell { rung: Mutex::new(0), cv: Condvar::new(), tx: tokio::sync::watch::channel(0).0 }
    }
}

impl Bell {
    pub fn ring(&self) {
        let mut rung = self.rung.lock().unwrap_or_else(|p| p.into_inner());
        *rung += 1;
        self.cv.notify_all();
        self.tx.send_replace(*rung);
    }

    fn count(&self) -> u64 {
        *self.rung.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Waits until the bell has been rung more than `seen` times, or `timeout` passes.
    fn wait_past(&self, seen: u64, timeout: Duration) {
        let deadline = Instant::now() + timeout;
        let mut rung = self.rung.lock().unwrap_or_else(|p| p.into_inner());
        while *rung == seen {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return;
            }
            rung = self.cv.wait_timeout(rung, left).unwrap_or_else(|p| p.into_inner()).0;
        }
    }
}

/// A live cursor into one stream. Made by [`Store::watch`]; `guard` keeps whatever feeds the
/// bell (a subscription) alive as long as the watch.
pub struct Watch {
    stream: StreamId,
    next: u64,
    bell: Arc<Bell>,
    rx: tokio::sync::watch::Receiver<u64>,
    _guard: Option<Box<dyn Send + Sync>>,
}

impl Watch {
    pub fn new(stream: StreamId, from: u64, bell: Arc<Bell>, guard: Option<Box<dyn Send + Sync>>) -> Self {
        let rx = bell.tx.subscribe();
        Watch { stream, next: from, bell, rx, _guard: guard }
    }

    /// The sequence number of the next event this watch returns.
    pub fn position(&self) -> u64 {
        self.next
    }

    /// The events from the cursor to the head that are stored now (maybe none); moves the cursor.
    pub fn ready(&mut self, store: &dyn Store) -> Result<Vec<Vec<u8>>, StoreError> {
        let events = store.read(&self.stream, self.next, u64::MAX)?;
        self.next += events.len() as u64;
        Ok(events)
    }

    /// The next events, waiting up to `timeout` for at least one (none when it passes). The
    /// store is re-read at least every `poll`, in case a ring was lost (a writer that died
    /// between its acknowledgement and its notice).
    pub fn next(&mut self, store: &dyn Store, timeout: Duration) -> Result<Vec<Vec<u8>>, StoreError> {
        const POLL: Duration = Duration::from_millis(500);
        let deadline = Instant::now() + timeout;
        loop {
            let seen = self.bell.count();
            let events = self.ready(store)?;
            let left = deadline.saturating_duration_since(Instant::now());
            if !events.is_empty() || left.is_zero() {
                return Ok(events);
            }
            self.bell.wait_past(seen, left.min(POLL));
        }
    }

    /// Waits until the store rings (async: the server's live feeds), then [`Self::ready`] says what is new.
    pub async fn changed(&mut self) {
        // A closed channel means the store is gone; treat it as a ring so callers re-read and see it.
        let _ = self.rx.changed().await;
    }
}
