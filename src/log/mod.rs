//! The event log (placeholder).
