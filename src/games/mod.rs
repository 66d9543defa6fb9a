//! The games kifu records. Each module has the same shape (see [`crate::game`]).

pub mod naruto;
