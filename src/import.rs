//! What a log must pass to enter this build's store, whatever its kind: a game decodes under its
//! ruleset and rules version, a tournament under the Swiss and pod rules, an opaque note as bytes;
//! and the names and notes it brings in are within [`crate::log::limits`].
//!
//! It sits above both [`crate::games`] (the registry of games) and [`crate::tournament`], so that
//! neither of those imports the other.

use thiserror::Error;

use crate::game::record::GameError;
use crate::games::driver;
use crate::log::chain::VerifiedLog;
use crate::log::envelope::StreamKind;
use crate::tournament::TournamentError;

/// Why a verified log is refused on import although its chain verifies.
#[derive(Debug, Error)]
pub enum DecodeError {
    #[error(transparent)]
    Game(#[from] GameError),
    #[error(transparent)]
    Tournament(#[from] Box<TournamentError>),
    #[error("stream {stream}, {at}: {error}")]
    TooLong { stream: String, at: String, error: crate::log::limits::TooLong },
    #[error("stream {stream}, event {seq}: {problem}")]
    Envelope { stream: String, seq: u64, problem: crate::log::chain::Problem },
    #[error(
        "stream {stream}: this build cannot decode {kind} streams of ruleset {ruleset:?} version {version}; \
         it imports its own games, Swiss tournaments and opaque notes (ruleset \"opaque\" version 1)"
    )]
    Unknown { stream: String, kind: String, ruleset: String, version: u32 },
    #[error("stream {stream}: a {kind} stream's header is bound to a match ({bound}); only a game's may be")]
    BoundNotAGame { stream: String, kind: String, bound: String },
}

/// What `kifu import` checks of a log whose chain verified, and `kifu verify FILE` with it (one
/// function, so the two never disagree): that it decodes ([`check_decodes`]: a game's setup and
/// every event under its ruleset and rules version, a tournament's fold) and that the names and
/// notes it brings in are within [`crate::log::limits`] (the header's players, every event's
/// actor, a game's rulings and forced entries, a tournament's events). Stored streams are never
/// held to the bounds: this is for logs entering a store.
pub fn check_import(log: &VerifiedLog) -> Result<(), DecodeError> {
    use crate::log::limits;
    let h = log.header.v1();
    let too_long = |at: String, error| DecodeError::TooLong { stream: h.stream.to_string(), at, error };
    limits::check_players(&h.players).map_err(|e| too_long("the header".into(), e))?;
    if let (Some(b), false) = (log.header.bound(), h.kind == StreamKind::Game) {
        return Err(DecodeError::BoundNotAGame {
            stream: h.stream.to_string(),
            kind: h.kind.to_string(),
            bound: b.to_string(),
        });
    }
    for (seq, bytes) in log.events.iter().enumerate() {
        let seq = seq as u64;
        let (env, _) = crate::log::chain::open_verified(bytes).map_err(|problem| DecodeError::Envelope {
            stream: h.stream.to_string(),
            seq,
            problem,
        })?;
        env.v1().actor.check_name().map_err(|e| too_long(format!("event {seq}"), e))?;
    }
    check_decodes(log)
}

/// Checks that a log decodes under its ruleset and version: a game's configuration and every
/// event under this build's game (and their rulings' names and notes within bounds), a
/// tournament's under the Swiss rules (and its events' names and notes). Opaque streams
/// (ruleset `opaque`, version 1) hold bytes kifu never decodes, so any payload is accepted.
pub fn check_decodes(log: &VerifiedLog) -> Result<(), DecodeError> {
    let h = log.header.v1();
    let unknown = || DecodeError::Unknown {
        stream: h.stream.to_string(),
        kind: format!("{:?}", h.kind).to_lowercase(),
        ruleset: crate::log::quote_prefix(&h.ruleset),
        version: h.ruleset_version,
    };
    match h.kind {
        StreamKind::Game => Ok(driver(&h.ruleset).ok_or_else(unknown)?.check_decodes(log)?),
        StreamKind::Tournament => {
            let loaded = crate::tournament::record::from_log(log).map_err(Box::new)?;
            for e in &loaded.entries {
                e.event.check_text().map_err(|error| DecodeError::TooLong {
                    stream: h.stream.to_string(),
                    at: format!("event {} ({})", e.seq, crate::tournament::record::kind(&e.event)),
                    error,
                })?;
            }
            Ok(())
        }
        StreamKind::Opaque if h.ruleset == "opaque" && h.ruleset_version == 1 => Ok(()),
        StreamKind::Opaque => Err(unknown()),
    }
}
