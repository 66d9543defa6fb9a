//! The vgc-log format (placeholder, filled in below).
