//! Tournament policies: the named, documented presets (points, tiebreakers in ranking order,
//! floors, bye and late-entry rules, rounds by attendance) recorded in every tournament header.
//!
//! Stored format: [`Policy`], [`CustomPolicy`] and [`Tiebreaker`] are postcard-encoded in the
//! tournament's configuration. Variants are only appended; structs never gain fields.

use serde::{Deserialize, Serialize};

/// A tiebreaker, applied after match points in the order a policy lists them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub enum Tiebreaker {
    /// Opponents' match-win percentage (mean of each opponent's floored MW%; byes are not opponents).
    OpponentMatchWin,
    /// The player's own game-win percentage.
    GameWin,
    /// Opponents' game-win percentage (mean of each opponent's floored GW%).
    OpponentGameWin,
    /// Opponents' opponents' win percentage (mean of each opponent's OMW%).
    OpponentOpponentMatchWin,
    /// Pokémon's late penalty: a player who entered late ranks below everyone else on the same points.
    LatePenalty,
    /// Only when exactly two players are still tied and they played each other.
    HeadToHead,
}

impl Tiebreaker {
    pub fn label(self) -> &'static str {
        match self {
            Tiebreaker::OpponentMatchWin => "OMW%",
            Tiebreaker::GameWin => "GW%",
            Tiebreaker::OpponentGameWin => "OGW%",
            Tiebreaker::OpponentOpponentMatchWin => "OOMW%",
            Tiebreaker::LatePenalty => "late",
            Tiebreaker::HeadToHead => "H2H",
        }
    }
}

/// One row of a rounds-by-attendance table: up to `max_players` players play `rounds` Swiss rounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct RoundsStep {
    pub max_players: u32,
    pub rounds: u32,
}

/// A policy for organizers without a preset (Bushiroad, Bandai, stores): their own points and
/// tiebreakers. A bye is a 2-0 match win counted in the player's own percentages; byes are not
/// opponents; late entrants take a loss for each missed round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct CustomPolicy {
    pub name: String,
    pub win_points: u32,
    pub draw_points: u32,
    pub loss_points: u32,
    /// The floor on match- and game-win percentages, in thousandths (333 = 0.333, 0 = none).
    pub floor_permille: u32,
    pub tiebreakers: Vec<Tiebreaker>,
    /// Ascending by `max_players`; larger fields use the last row.
    pub rounds: Vec<RoundsStep>,
}

/// How a tournament scores and ranks. Stored format: variants are only appended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub enum Policy {
    /// Magic Tournament Rules 3.1 / Appendix C: 3/1/0; OMW%, GW%, OGW%; MW% and GW% floored at
    /// 0.33; a bye is a 2-0 win counted in the player's own MW% and GW%; byes are not opponents;
    /// rounds and top cut by MTR Appendix E. Players tied on every tiebreaker share a rank; their
    /// order is a seeded random draw (see `Tournament::tie_key`).
    Mtr,
    /// As `Mtr` with the floor exactly 1/3 and the player's own GW% shown unfloored: what Melee
    /// publishes (reproduced to 1e-8 on the validation exports).
    Melee,
    /// Play! Pokémon: 3/1/0; the late penalty; Op Win% (own win% with a 25% floor, 75% cap for
    /// dropped players, byes excluded from the player's own win%); Op Op Win%; head-to-head
    /// (two players still tied who played each other); then a seeded random draw.
    Pokemon,
    /// Any other organizer's rules.
    Custom(CustomPolicy),
}

/// A policy resolved into the numbers the standings use.
#[derive(Clone, Debug, PartialEq)]
pub struct Rules {
    pub name: String,
    pub win: u32,
    pub draw: u32,
    pub loss: u32,
    /// Floor on a player's MW% (and GW% when used for opponents).
    pub floor: f64,
    /// Whether the player's own GW% is floored too (MTR) or shown as is (Melee).
    pub floor_own_gw: bool,
    /// Pokémon: byes count neither as a win nor as a round in the player's own win%.
    pub byes_in_own_pct: bool,
    /// Pokémon: a dropped player's own win% is capped at this.
    pub dropped_cap: Option<f64>,
    /// Pokémon: ties count half a win in the own win%.
    pub pokemon_pct: bool,
    pub tiebreakers: Vec<Tiebreaker>,
    pub rounds: Vec<RoundsStep>,
    pub cuts: Vec<CutStep>,
    /// What an opponents' average is for a player who met no opponent (only byes): the floor
    /// (this build), or 0 (kifu 0.1.0, kept for its logs).
    pub floor_without_opponents: bool,
}

/// MTR Appendix E (paper events): 5–8 players play 3 rounds, 9–16 play 5 (constructed; a
/// Limited event with a booster-draft playoff plays 4 with a top 8: give `--rounds 4 --top-cut 8`),
/// 17–32 play 5, 33–64 6, 65–128 7, 129–226 8, 227–409 9, 410 and more 10.
const MTR_ROUNDS: &[RoundsStep] = &[
    RoundsStep { max_players: 8, rounds: 3 },
    RoundsStep { max_players: 16, rounds: 5 },
    RoundsStep { max_players: 32, rounds: 5 },
    RoundsStep { max_players: 64, rounds: 6 },
    RoundsStep { max_players: 128, rounds: 7 },
    RoundsStep { max_players: 226, rounds: 8 },
    RoundsStep { max_players: 409, rounds: 9 },
    RoundsStep { max_players: u32::MAX, rounds: 10 },
];

/// MTR Appendix E's playoffs: 9–16 players a top 4, 17 and more a top 8. Appendix E runs 5–8
/// players as three single-elimination rounds with no Swiss; kifu's brackets are powers of two
/// without byes, so such a field plays its 3 rounds as Swiss with no cut.
const MTR_CUTS: &[CutStep] = &[
    CutStep { max_players: 8, top_cut: 0 },
    CutStep { max_players: 16, top_cut: 4 },
    CutStep { max_players: u32::MAX, top_cut: 8 },
];

/// Play! Pokémon Tournament Rules Handbook, Swiss rounds by attendance (TCG, best-of-3 events):
/// 4–8 players 3 rounds, 9–12 4, 13–20 5, 21–32 5, 33–64 6, 65–128 7, 129–226 8, 227–409 9,
/// 410 and more 10. Sources (the handbook's own table was not retrievable here): two independent
/// open-source tournament tools encode exactly these rows, and Limitless-hosted Play! Pokémon
/// events post them (notes copied into docs/rules/pokemon-structure.md).
const POKEMON_ROUNDS: &[RoundsStep] = &[
    RoundsStep { max_players: 8, rounds: 3 },
    RoundsStep { max_players: 12, rounds: 4 },
    RoundsStep { max_players: 20, rounds: 5 },
    RoundsStep { max_players: 32, rounds: 5 },
    RoundsStep { max_players: 64, rounds: 6 },
    RoundsStep { max_players: 128, rounds: 7 },
    RoundsStep { max_players: 226, rounds: 8 },
    RoundsStep { max_players: 409, rounds: 9 },
    RoundsStep { max_players: u32::MAX, rounds: 10 },
];

/// The single-elimination top cut of a single-day Play! Pokémon event (swiss v3): none up to 8
/// players, top 4 for 9–20, top 8 from 21. Sources: a 2023 store page quoting the handbook
/// (9–20 → Top 4, 21+ → Top 8) and a Play! Pokémon results viewer that lays out every event of
/// 21 players or more, including two-day ones, as a three-round (top 8) cut; see
/// docs/rules/pokemon-structure.md.
const POKEMON_CUTS: &[CutStep] = &[
    CutStep { max_players: 8, top_cut: 0 },
    CutStep { max_players: 20, top_cut: 4 },
    CutStep { max_players: u32::MAX, top_cut: 8 },
];

/// The Pokémon top cut swiss v1 and v2 planned (no source: top 2 for 9–12, top 16 for 129–409,
/// top 32 from 410), kept so the tournaments they recorded keep their planned cut.
const POKEMON_CUTS_V2: &[CutStep] = &[
    CutStep { max_players: 8, top_cut: 0 },
    CutStep { max_players: 12, top_cut: 2 },
    CutStep { max_players: 20, top_cut: 4 },
    CutStep { max_players: 128, top_cut: 8 },
    CutStep { max_players: 409, top_cut: 16 },
    CutStep { max_players: u32::MAX, top_cut: 32 },
];

/// One row of a top-cut-by-attendance table (not stored: derived from the policy).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CutStep {
    pub max_players: u32,
    pub top_cut: u32,
}

/// `ConfigV1::top_cut` meaning "by the policy's attendance table, fixed when round 1 is paired".
pub const TOP_CUT_BY_ATTENDANCE: u32 = u32::MAX;

impl Policy {
    /// The preset named `name` (`mtr`, `melee`, `pokemon`).
    pub fn preset(name: &str) -> Option<Policy> {
        match name {
            "mtr" => Some(Policy::Mtr),
            "melee" => Some(Policy::Melee),
            "pokemon" => Some(Policy::Pokemon),
            _ => None,
        }
    }

    pub fn name(&self) -> &str {
        match self {
            Policy::Mtr => "mtr",
            Policy::Melee => "melee",
            Policy::Pokemon => "pokemon",
            Policy::Custom(c) => &c.name,
        }
    }

    pub fn rules(&self) -> Rules {
        let mtr_like = |name: &str, floor: f64, floor_own_gw: bool| Rules {
            name: name.to_string(),
            win: 3,
            draw: 1,
            loss: 0,
            floor,
            floor_own_gw,
            byes_in_own_pct: true,
            dropped_cap: None,
            pokemon_pct: false,
            tiebreakers: vec![Tiebreaker::OpponentMatchWin, Tiebreaker::GameWin, Tiebreaker::OpponentGameWin],
            rounds: MTR_ROUNDS.to_vec(),
            cuts: MTR_CUTS.to_vec(),
            floor_without_opponents: true,
        };
        match self {
            Policy::Mtr => mtr_like("mtr", 0.33, true),
            Policy::Melee => mtr_like("melee", 1.0 / 3.0, false),
            Policy::Pokemon => Rules {
                name: "pokemon".into(),
                win: 3,
                draw: 1,
                loss: 0,
                floor: 0.25,
                floor_own_gw: false,
                byes_in_own_pct: false,
                dropped_cap: Some(0.75),
                pokemon_pct: true,
                tiebreakers: vec![
                    Tiebreaker::LatePenalty,
                    Tiebreaker::OpponentMatchWin,
                    Tiebreaker::OpponentOpponentMatchWin,
                    Tiebreaker::HeadToHead,
                ],
                rounds: POKEMON_ROUNDS.to_vec(),
                cuts: POKEMON_CUTS.to_vec(),
                floor_without_opponents: true,
            },
            Policy::Custom(c) => Rules {
                name: c.name.clone(),
                win: c.win_points,
                draw: c.draw_points,
                loss: c.loss_points,
                floor: f64::from(c.floor_permille) / 1000.0,
                floor_own_gw: true,
                byes_in_own_pct: true,
                dropped_cap: None,
                pokemon_pct: false,
                tiebreakers: c.tiebreakers.clone(),
                rounds: if c.rounds.is_empty() { MTR_ROUNDS.to_vec() } else { c.rounds.clone() },
                cuts: MTR_CUTS.to_vec(),
                floor_without_opponents: true,
            },
        }
    }
}

/// The MTR rounds table of kifu 0.1.0 (8 rounds up to 256 players, 9 up to 512), kept for the
/// tournaments it recorded: their planned rounds must stay what they were.
const MTR_ROUNDS_0_1: &[RoundsStep] = &[
    RoundsStep { max_players: 8, rounds: 3 },
    RoundsStep { max_players: 16, rounds: 5 },
    RoundsStep { max_players: 32, rounds: 5 },
    RoundsStep { max_players: 64, rounds: 6 },
    RoundsStep { max_players: 128, rounds: 7 },
    RoundsStep { max_players: 256, rounds: 8 },
    RoundsStep { max_players: 512, rounds: 9 },
    RoundsStep { max_players: u32::MAX, rounds: 10 },
];

impl Policy {
    /// The rules as swiss v2 applied them: this build's, with the Pokémon top cut of
    /// [`POKEMON_CUTS_V2`].
    pub fn rules_v2(&self) -> Rules {
        let mut r = self.rules();
        if matches!(self, Policy::Pokemon) {
            r.cuts = POKEMON_CUTS_V2.to_vec();
        }
        r
    }

    /// The rules as kifu 0.1.0 applied them (tournaments recorded under swiss v1).
    pub fn rules_0_1(&self) -> Rules {
        let mut r = self.rules_v2();
        if r.rounds == MTR_ROUNDS {
            r.rounds = MTR_ROUNDS_0_1.to_vec();
        }
        r.floor_without_opponents = false;
        r
    }
}

impl Rules {
    /// Swiss rounds for `players` entrants, by the policy's attendance table.
    pub fn swiss_rounds(&self, players: u32) -> u32 {
        self.rounds.iter().find(|s| players <= s.max_players).or(self.rounds.last()).map(|s| s.rounds).unwrap_or(3)
    }

    /// Top-cut size for `players` entrants, by the policy's attendance table.
    pub fn top_cut(&self, players: u32) -> u32 {
        self.cuts.iter().find(|s| players <= s.max_players).or(self.cuts.last()).map(|s| s.top_cut).unwrap_or(0)
    }
}
