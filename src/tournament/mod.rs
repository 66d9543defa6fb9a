//! Swiss tournaments as streams (`StreamKind::Tournament`, ruleset `swiss`): the event enum,
//! policies, pure Swiss pairing and standings, recording, imports, verification and the root hash.
//!
//! Layout: [`events`] (stored records), [`policy`] (presets), [`pairing`] and [`standings`]
//! (pure functions over plain types), [`rules`] (decide/evolve: every `TOUR-*` rule, by concern),
//! [`state`] (the folded state and what it derives),
//! [`record`] (the only part that touches a store, with [`claim`]: which games a result may
//! link), [`ops`] (organizer operations and the secret seed files, shared by the CLI and the
//! server), [`verify`], [`melee`] (imports), [`pods`] (pod tournaments of a multiplayer game) and
//! [`event`] (running a whole event of self-played games), [`judging`] (judge calls, infraction
//! tables, penalties and appeals as folded), [`game_rulings`] (warnings and game losses given
//! inside the event's games, for the penalty history), [`explain`] (why a player was paired and
//! ranks as they do).
//!
//! ## Pairing seed
//! `Created` records `commit_seed(seed)`. Round `r` is paired from
//! `round_seed = blake3 derive_key("kifu 2026-11-21 swiss round seed v1", seed ‖ u32le(r))`,
//! recorded in `RoundPaired`, so anyone can re-derive each round as soon as it is posted; the
//! organizer reveals `seed` at finalization (`SeedRevealed`) and the verifier checks it against
//! the commitment and every round seed. Within a score bracket players are ordered by
//! `blake3 keyed_hash(key = round_seed, name)`.
//!
//! ## Root hash
//! One hash committing to the tournament log and every game it links:
//! `root = blake3 derive_key("kifu 2026-11-21 tournament root v1",
//!          tournament head hash (32 bytes) ‖ u64le(tournament event count) ‖ u32le(number of games) ‖
//!          for each linked game, sorted by stream id (bytewise), without duplicates:
//!              u32le(len(id)) ‖ id as UTF-8 ‖ game head hash (32 bytes))`
//! where a game's head is the head recorded in the (last) result that links it — a table's result
//! or, in a pod tournament ([`pods`]), a pod's result.

pub mod case;
pub mod claim;
pub mod event;
pub mod events;
pub mod explain;
pub mod game_rulings;
pub mod judging;
pub mod melee;
pub mod ops;
pub mod pairing;
pub mod pods;
pub mod policy;
pub mod record;
pub mod rules;
pub mod sign;
pub mod standings;
pub mod state;
pub mod tom;
pub mod verify;

use thiserror::Error;

use crate::game::record::GameError;
use crate::game::Violation;
use crate::store::StoreError;

/// Everything that can go wrong recording, loading or importing a tournament.
#[derive(Debug, Error)]
pub enum TournamentError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Game(#[from] GameError),
    #[error("stream {stream} is a {kind} stream with ruleset {ruleset:?}, not a Swiss tournament")]
    NotATournament { stream: String, kind: String, ruleset: String },
    #[error("stream {stream} was recorded with swiss rules v{found}; this build has v{have}")]
    Version { stream: String, found: u32, have: u32 },
    #[error("stream {stream}: the configuration in the header does not decode: {msg}")]
    BadConfig { stream: String, msg: String },
    #[error("stream {stream}, event {seq}: the payload does not decode as a tournament event: {msg}")]
    Undecodable { stream: String, seq: u64, msg: String },
    #[error("refused ({event}), nothing recorded:\n{}", .problems.iter().map(|p| format!("  {p}")).collect::<Vec<_>>().join("\n"))]
    Refused { event: String, problems: Vec<Violation> },
    /// A name typed at the CLI or sent to the server that matches no registered player.
    #[error("{}", .0.message)]
    UnknownPlayer(Violation),
    /// A rule that keeps an operation from being derived (a top cut, a round's pods).
    #[error("{0}")]
    Rule(Violation),
    #[error("{0}")]
    Input(String),
    /// A broken invariant of kifu itself.
    #[error("internal: {0}")]
    Internal(String),
    /// kifu could not read or write its own files (the organizer's seed files): the recorder's
    /// fault or its machine's, not the caller's input.
    #[error("cannot {what} {}: {source}", .path.display())]
    Io { what: &'static str, path: std::path::PathBuf, source: std::io::Error },
    #[error("could not encode: {0}")]
    Encode(#[from] postcard::Error),
}

impl From<crate::log::limits::TooLong> for TournamentError {
    /// A name or note over its limit is bad input, refused before anything is written.
    fn from(e: crate::log::limits::TooLong) -> Self {
        TournamentError::Input(e.to_string())
    }
}

pub use events::{round_seed, ConfigV1, MatchScore, RoundsPlan, TournamentEvent};
pub use policy::Policy;
