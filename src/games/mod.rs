//! The games kifu records, and the registry the CLI and server find them in by ruleset name.
//! Each game module has the same shape (see [`crate::game`]).

pub mod brk;
pub mod fate;
pub mod lc;
pub mod naruto;
pub mod vanguard;

use crate::game::driver::{Driver, GameDriver};

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
