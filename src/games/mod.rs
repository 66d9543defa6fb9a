//! The games kifu records, and the registry the CLI and server find them in by ruleset name.
//! Each game module has the same shape (see [`crate::game`]).

pub mod brk;
pub mod fate;
pub mod lc;
pub mod naruto;
pub mod vanguard;

use thiserror::Error;

use crate::game::driver::{Driver, GameDriver};
use crate::game::record::GameError;
use crate::log::chain::VerifiedLog;
use crate::log::envelope::StreamKind;
use crate::tournament::TournamentError;

/// Every game this build can record, by ruleset name.
pub fn drivers() -> Vec<&'static dyn Driver> {
    static NARUTO: GameDriver<naruto::Naruto> = GameDriver::new();
    static VANGUARD: GameDriver<vanguard::Vanguard> = GameDriver::new();
    static LC: GameDriver<lc::Lc> = GameDriver::new();
    static BRK: GameDriver<brk::Brk> = GameDriver::new();
    static FATE: GameDriver<fate::Fate> = GameDriver::new();
    vec![&NARUTO, &VANGUARD, &LC, &BRK, &FATE]
}

/// The driver for a ruleset name (as recorded in stream headers), if this build has it.
pub fn driver(ruleset: &str) -> Option<&'static dyn Driver> {
    drivers().into_iter().find(|d| d.ruleset() == ruleset)
}

/// Why a verified log is refused on import although its chain verifies.
#[derive(Debug, Error)]
pub enum DecodeError {
    #[error(transparent)]
    Game(#[from] GameError),
    #[error(transparent)]
    Tournament(#[from] Box<TournamentError>),
    #[error(
        "stream {stream}: this build cannot decode {kind} streams of ruleset {ruleset:?} version {version}; \
         it imports its own games, Swiss tournaments and opaque notes (ruleset \"opaque\" version 1)"
    )]
    Unknown { stream: String, kind: String, ruleset: String, version: u32 },
}

/// Checks that a log decodes under its ruleset and version: a game's configuration and every
/// event under this build's game, a tournament's under the Swiss rules. Opaque streams
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
        StreamKind::Tournament => Ok(crate::tournament::record::from_log(log).map(|_| ()).map_err(Box::new)?),
        StreamKind::Opaque if h.ruleset == "opaque" && h.ruleset_version == 1 => Ok(()),
        StreamKind::Opaque => Err(unknown()),
    }
}
