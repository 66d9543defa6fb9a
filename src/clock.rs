//! The injected clock: the system clock in the CLI, a deterministic one in tests and the demo.

use std::sync::atomic::{AtomicI64, Ordering};

use crate::log::envelope::Timestamp;

/// Where recorded times come from. Only the store's caller decides which clock is used.
pub trait Clock: Send + Sync {
    fn now(&self) -> Timestamp;
}

/// The machine's UTC clock.
#[derive(Clone, Copy, Debug, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> Timestamp {
        Timestamp::from_datetime(chrono::Utc::now())
    }
}

/// A deterministic clock: starts at `start` and advances `step_micros` on every reading.
#[derive(Debug)]
pub struct SteppingClock {
    next: AtomicI64,
    step_micros: i64,
}

impl SteppingClock {
    pub fn new(start: Timestamp, step_micros: i64) -> Self {
        SteppingClock { next: AtomicI64::new(start.0), step_micros }
    }

    /// 2026-01-01T00:00:00Z, advancing one second per reading: the clock of tests and fixtures.
    pub fn fixed() -> Self {
        SteppingClock::new(Timestamp(1_767_225_600_000_000), 1_000_000)
    }
}

impl Clock for SteppingClock {
    fn now(&self) -> Timestamp {
        Timestamp(self.next.fetch_add(self.step_micros, Ordering::Relaxed))
    }
}
