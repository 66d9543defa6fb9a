//! The store (placeholder).
