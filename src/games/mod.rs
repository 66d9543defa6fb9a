//! The games kifu records, and the registry the CLI and server find them in by ruleset name.
//! Each game module has the same shape (see [`crate::game`]).

pub mod brk;
pub mod fate;
pub mod lc;
pub mod naruto;
pub mod vanguard;

use crate::game::driver::{Driver, GameDriver};
use crate::game::versions::Versions;

static NARUTO_V1: GameDriver<naruto::Naruto> = GameDriver::new();
static NARUTO_V2: GameDriver<naruto::NarutoV2> = GameDriver::new();
static NARUTO_V3: GameDriver<naruto::NarutoV3> = GameDriver::new();
static NARUTO_V4: GameDriver<naruto::NarutoV4> = GameDriver::new();
static NARUTO_V5: GameDriver<naruto::NarutoV5> = GameDriver::new();
static NARUTO_V6: GameDriver<naruto::NarutoV6> = GameDriver::new();
static NARUTO_V7: GameDriver<naruto::NarutoV7> = GameDriver::new();
/// Naruto's released rules versions: new games record the newest (what each changed:
/// `naruto::rules_version`, docs/rules-versions.md); every older version's games (and the pinned
/// fixtures, version 1) open, replay and audit under their own version's rules.
static NARUTO: Versions = Versions {
    ruleset: "naruto",
    released: &[&NARUTO_V1, &NARUTO_V2, &NARUTO_V3, &NARUTO_V4, &NARUTO_V5, &NARUTO_V6, &NARUTO_V7],
};
static VANGUARD_V1: GameDriver<vanguard::Vanguard> = GameDriver::new();
static VANGUARD_V2: GameDriver<vanguard::VanguardV2> = GameDriver::new();
static VANGUARD_V3: GameDriver<vanguard::VanguardV3> = GameDriver::new();
static VANGUARD_V4: GameDriver<vanguard::VanguardV4> = GameDriver::new();
static VANGUARD_V5: GameDriver<vanguard::VanguardV5> = GameDriver::new();
/// Vanguard's released rules versions, as Naruto's: version 3 cites the most specific rule IDs,
/// version 4 records the stand, clean-up and battle retirements as steps of their own, and
/// version 5 (what new games record) the retirement of a displaced occupant, a deleted heart
/// turned face up and a legion mate moved to the soul.
static VANGUARD: Versions =
    Versions { ruleset: "vanguard", released: &[&VANGUARD_V1, &VANGUARD_V2, &VANGUARD_V3, &VANGUARD_V4, &VANGUARD_V5] };
static LC: GameDriver<lc::Lc> = GameDriver::new();
static BRK_V1: GameDriver<brk::Brk> = GameDriver::new();
static BRK_V2: GameDriver<brk::BrkV2> = GameDriver::new();
static BRK_V3: GameDriver<brk::BrkV3> = GameDriver::new();
static BRK_V4: GameDriver<brk::BrkV4> = GameDriver::new();
static BRK_V5: GameDriver<brk::BrkV5> = GameDriver::new();
static BRK_V6: GameDriver<brk::BrkV6> = GameDriver::new();
/// BRK's released rules versions, as Naruto's: version 2 adds checks on the escape hatches;
/// version 3 cites a false assumption about one's own hidden card at the declaration; version 4
/// records a revealed card's markers, the turn start's opening and the deaths as steps of their
/// own; version 5 cites a death left out once and counts no dead card for the victory; version 6
/// (what new games record) lets a card revealed to act that cannot act release its controller.
static BRK: Versions = Versions { ruleset: "brk", released: &[&BRK_V1, &BRK_V2, &BRK_V3, &BRK_V4, &BRK_V5, &BRK_V6] };
static FATE_V1: GameDriver<fate::Fate> = GameDriver::new();
static FATE_V2: GameDriver<fate::FateV2> = GameDriver::new();
static FATE_V3: GameDriver<fate::FateV3> = GameDriver::new();
static FATE_V4: GameDriver<fate::FateV4> = GameDriver::new();
static FATE_V5: GameDriver<fate::FateV5> = GameDriver::new();
/// FATE's released rules versions, as Naruto's: version 2 refuses Command Spell option 4 on a
/// Servant in Danger (FATE-EFF-2) and holds the escape hatches to the rules; version 3 checks a
/// sealed card when its seal opens, citing the event that sealed it; version 4 records every step
/// the rules give a Master as an event of its own.
static FATE: Versions = Versions { ruleset: "fate", released: &[&FATE_V1, &FATE_V2, &FATE_V3, &FATE_V4, &FATE_V5] };

/// Every game this build can record, by ruleset name: each creates games under its newest rules
/// version and opens a stored game under the version its header names.
pub fn drivers() -> Vec<&'static dyn Driver> {
    vec![&NARUTO, &VANGUARD, &LC, &BRK, &FATE]
}

/// The driver for a ruleset name (as recorded in stream headers), if this build has it.
pub fn driver(ruleset: &str) -> Option<&'static dyn Driver> {
    drivers().into_iter().find(|d| d.ruleset() == ruleset)
}

/// The sample card catalog a ruleset ships with (its JSON text), which a player's page picks a
/// deck list from.
pub fn sample_catalog(ruleset: &str) -> Option<&'static str> {
    match ruleset {
        "naruto" => Some(naruto::catalog::SAMPLE_CATALOG),
        "vanguard" => Some(vanguard::catalog::SAMPLE_CATALOG),
        "lc" => Some(lc::catalog::SAMPLE_CATALOG),
        "brk" => Some(brk::catalog::SAMPLE_CATALOG),
        "fate" => Some(fate::catalog::SAMPLE_CATALOG),
        _ => None,
    }
}

/// The driver of one released version of a ruleset, creating and self-playing under that
/// version: what a recipe that must keep its bytes (a pinned fixture) plays under.
pub fn released(ruleset: &str, version: u32) -> Option<&'static dyn Driver> {
    match ruleset {
        "naruto" => NARUTO.get(version),
        "vanguard" => VANGUARD.get(version),
        "brk" => BRK.get(version),
        "fate" => FATE.get(version),
        _ => driver(ruleset).filter(|d| d.ruleset_version() == version),
    }
}

/// One row of [`explore_all`]: a game in one of its randomness modes, explored by uniform picks.
pub struct Explored {
    pub ruleset: &'static str,
    /// "physical" (players record their own shuffles, draws and dice), "dealt" (kifu deals from
    /// its dealer's seed) or "digital" (the seats' devices commit the seeds or dice chains).
    pub mode: &'static str,
    pub tally: crate::game::explore::Tally,
}

/// Every game under its newest rules, in each randomness mode it has, explored by `games`
/// uniform-pick games of at most `max_events` events ([`crate::game::explore`]): what the test
/// suite asserts and `tools/bench-options` reports, from one table.
pub fn explore_all(games: usize, max_events: usize) -> Vec<Explored> {
    use crate::game::commit::RandomMode;
    use crate::game::explore::tally;
    let row = |ruleset, mode, tally| Explored { ruleset, mode, tally };
    let naruto = |c: &naruto::NarutoConfig| c.v1().shuffles == naruto::config::ShuffleMode::Digital;
    let fate = |c: &fate::FateConfig| c.policies().dice.random_mode() == RandomMode::Digital;
    let lc = |c: &lc::LcConfig| c.v1().shuffles == RandomMode::Digital;
    vec![
        row("naruto", "physical", tally::<naruto::NarutoV7>(games, |c| !naruto(c), max_events)),
        row("naruto", "digital", tally::<naruto::NarutoV7>(games, naruto, max_events)),
        row("vanguard", "physical", tally::<vanguard::VanguardV5>(games, |_| true, max_events)),
        row("brk", "physical", tally::<brk::BrkV6>(games, |_| true, max_events)),
        row("lc", "physical", tally::<lc::Lc>(games, |c| !lc(c), max_events)),
        row("lc", "dealt", tally::<lc::Lc>(games, lc, max_events)),
        row("fate", "physical", tally::<fate::FateV5>(games, |c| !fate(c), max_events)),
        row("fate", "digital", tally::<fate::FateV5>(games, fate, max_events)),
    ]
}
