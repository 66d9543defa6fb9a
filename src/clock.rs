//! The clock (placeholder).
