//! The FATE game header: Masters in seat order, registered decks, the card definitions they use,
//! the dice mode and the policy chosen for each OPEN point that changes what `validate` accepts.
//!
//! Stored postcard-encoded (positional), so [`ConfigV1`] and [`Policies`] never gain fields: a new
//! shape becomes a new [`FateConfig`] variant.
//!
//! Policies (`--policy KEY=VALUE`; the first value is the default):
//!
//! | key | values | OPEN point |
//! |---|---|---|
//! | `masters` | `3-6`, or any `MIN-MAX` within 2..=8 (`2-6` allows the 2-Master variant) | FATE-OPEN-1 |
//! | `first_master` | `lot`, `first-seat` | FATE-OPEN-7 |
//! | `seating` | `clockwise` (seat order), `counterclockwise` | FATE-OPEN-7 |
//! | `turn_order` | `r2` (plain round-robin), `r1` (each phase starts with its Active Master) | FATE-OPEN-8 |
//! | `rest_cost` | `own` (R(n) rests the payer's cards), `any` | FATE-OPEN-4 |
//! | `failed_roll` | `counts` (a failed D still uses the activation), `free` | FATE-OPEN-5 |
//! | `failed_roll_refund` | `kept` (costs left of a failed D stay paid), `refunded` | FATE-OPEN-5 |
//! | `x_cost` | `forbid` (X-cost effects cannot be activated), `record` | FATE-OPEN-6 |
//! | `ritual` | `both` (Secret Sign and Servant reveal in one turn), `one` | FATE-OPEN-9 |
//! | `hand_pick` | `blind` (random card), `loser-chooses` | FATE-OPEN-11 |
//! | `prana` | `5`, any starting number 1..=20 | FATE-OPEN-13 |
//! | `prana_zero` | `danger` (the Servant enters Danger), `defeat` (its Master is defeated), `nothing` | FATE-OPEN-3, FATE-OPEN-13 |
//! | `sign_bonus` | `own` (own Secret Signs count), `all` | FATE-OPEN-16 |
//! | `game_end` | `last-standing`, `first-defeat` | FATE-OPEN-18 |
//! | `opening_hand` | `4`, any number 0..=10 | FATE-OPEN-1 |
//! | `min_deck` | `20`, any number 2..=200 | FATE-OPEN-1 |
//! | `dice` | `physical` (outcomes recorded), `digital` (combined seeds) | digest §5.14 randomness |

use serde::{Deserialize, Serialize};

use super::catalog::{check_deck_with, CardDef, Catalog};
use crate::game::catalog::embed_cards;
use crate::game::policy::{flag, set_choice, set_flag, Choice, Policy, PolicyTable};
use crate::game::Violation;

/// The stored, versioned header configuration.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum FateConfig {
    V1(ConfigV1),
}

/// Version 1 of the header. Never add fields.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
// A key this build does not know is refused, naming the known ones, never silently dropped
// (postcard is positional, so the stored form is unaffected).
#[serde(deny_unknown_fields)]
pub struct ConfigV1 {
    /// Master names in seat order.
    pub players: Vec<String>,
    /// Each seat's deck as card ids in deck-list order; instance `p{seat}-{i}` is `decks[seat][i]`.
    pub decks: Vec<Vec<String>>,
    /// Every card definition the decks use, so a replay never needs an external catalog.
    pub cards: Vec<CardDef>,
    pub policies: Policies,
}

/// FATE-OPEN-7: how the first Active Master is chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum FirstMaster {
    /// A lot at the deal (any seat; a physical lot or a digital random pick).
    Lot,
    /// The first seat of the header.
    FirstSeat,
}

/// FATE-OPEN-7: which way "the next player" is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Seating {
    /// Seat order: 0, 1, 2, ...
    Clockwise,
    /// Reverse seat order.
    Counterclockwise,
}

/// FATE-OPEN-8: the two readings of FATE-PHASE-5.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TurnOrder {
    /// Plain round-robin; the Active Master marker moves when play comes back to it.
    R2,
    /// Each phase is one turn per Master starting with that phase's Active Master.
    R1,
}

/// FATE-OPEN-4: whose cards an R(n) cost may rest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RestCost {
    Own,
    Any,
}

/// FATE-OPEN-11: how the winner's card is taken from the loser's hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum HandPick {
    /// A random card: in digital games drawn from the combined seed.
    Blind,
    /// The loser hands over a card of their choice.
    LoserChooses,
}

/// FATE-OPEN-13 (and FATE-OPEN-3): what a Servant at 0 prana means.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PranaZero {
    Danger,
    Defeat,
    Nothing,
}

/// FATE-OPEN-18: whether the game ends at the first defeat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum GameEnd {
    LastStanding,
    FirstDefeat,
}

/// How dice, random Servants and blind picks come about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum DiceMode {
    /// A real table: every outcome is recorded as it fell.
    Physical,
    /// Every outcome comes from a seed combined from every Master's commitment.
    Digital,
}

impl DiceMode {
    /// The shared mode the recorder's randomness checks use.
    pub fn random_mode(self) -> crate::game::commit::RandomMode {
        match self {
            DiceMode::Physical => crate::game::commit::RandomMode::Physical,
            DiceMode::Digital => crate::game::commit::RandomMode::Digital,
        }
    }
}

/// The policy for every OPEN point that changes validation. Stored: never add fields.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
// A key this build does not know is refused, naming the known ones, never silently dropped
// (postcard is positional, so the stored form is unaffected).
#[serde(deny_unknown_fields)]
pub struct Policies {
    pub min_masters: u8,
    pub max_masters: u8,
    pub first_master: FirstMaster,
    pub seating: Seating,
    pub turn_order: TurnOrder,
    pub rest_cost: RestCost,
    /// FATE-OPEN-5: a failed D roll uses up the activation of the process.
    pub failed_roll_counts: bool,
    /// FATE-OPEN-5: costs paid left of a failed D are refunded.
    pub failed_roll_refund: bool,
    /// FATE-OPEN-6: X-cost effects may be activated (X recorded as stated).
    pub x_cost_allowed: bool,
    /// FATE-OPEN-9: a Secret Sign and a Servant reveal may both happen in one ritual step.
    pub ritual_both: bool,
    pub hand_pick: HandPick,
    pub starting_prana: u8,
    pub prana_zero: PranaZero,
    /// FATE-OPEN-16: Command Spell option 2 counts every field's Secret Signs (else the user's own).
    pub sign_bonus_all: bool,
    pub game_end: GameEnd,
    pub opening_hand: u8,
    pub min_deck: u32,
    pub dice: DiceMode,
}

impl Default for Policies {
    fn default() -> Self {
        Policies {
            min_masters: 3,
            max_masters: 6,
            first_master: FirstMaster::Lot,
            seating: Seating::Clockwise,
            turn_order: TurnOrder::R2,
            rest_cost: RestCost::Own,
            failed_roll_counts: true,
            failed_roll_refund: false,
            x_cost_allowed: false,
            ritual_both: true,
            hand_pick: HandPick::Blind,
            starting_prana: 5,
            prana_zero: PranaZero::Danger,
            sign_bonus_all: false,
            game_end: GameEnd::LastStanding,
            opening_hand: 4,
            min_deck: super::catalog::DEFAULT_MIN_DECK,
            dice: DiceMode::Physical,
        }
    }
}

crate::choice!(FirstMaster { Lot = "lot", FirstSeat = "first-seat" });
crate::choice!(Seating { Clockwise = "clockwise", Counterclockwise = "counterclockwise" });
crate::choice!(TurnOrder { R2 = "r2", R1 = "r1" });
crate::choice!(RestCost { Own = "own", Any = "any" });
crate::choice!(HandPick { Blind = "blind", LoserChooses = "loser-chooses" });
crate::choice!(PranaZero { Danger = "danger", Defeat = "defeat", Nothing = "nothing" });
crate::choice!(GameEnd { LastStanding = "last-standing", FirstDefeat = "first-defeat" });
crate::choice!(DiceMode { Physical = "physical", Digital = "digital" });

/// A number policy's value within `lo..=hi`.
fn number(value: &str, lo: u32, hi: u32) -> Option<u32> {
    value.parse::<u32>().ok().filter(|n| (lo..=hi).contains(n))
}

/// Every policy with its values (default first) and the OPEN point it settles.
pub const POLICIES: &[Policy<Policies>] = &[
    Policy {
        key: "masters",
        values: &["3-6", "<MIN-MAX within 2..=8>"],
        open: "FATE-OPEN-1",
        get: |p| format!("{}-{}", p.min_masters, p.max_masters),
        set: |p, v| {
            let (lo, hi) = v.split_once('-')?;
            let (lo, hi) = (lo.parse::<u8>().ok()?, hi.parse::<u8>().ok()?);
            if lo < 2 || hi > 8 || lo > hi {
                return None;
            }
            (p.min_masters, p.max_masters) = (lo, hi);
            Some(())
        },
    },
    Policy {
        key: "first_master",
        values: FirstMaster::NAMES,
        open: "FATE-OPEN-7",
        get: |p| p.first_master.name().into(),
        set: |p, v| set_choice(&mut p.first_master, v),
    },
    Policy {
        key: "seating",
        values: Seating::NAMES,
        open: "FATE-OPEN-7",
        get: |p| p.seating.name().into(),
        set: |p, v| set_choice(&mut p.seating, v),
    },
    Policy {
        key: "turn_order",
        values: TurnOrder::NAMES,
        open: "FATE-OPEN-8",
        get: |p| p.turn_order.name().into(),
        set: |p, v| set_choice(&mut p.turn_order, v),
    },
    Policy {
        key: "rest_cost",
        values: RestCost::NAMES,
        open: "FATE-OPEN-4",
        get: |p| p.rest_cost.name().into(),
        set: |p, v| set_choice(&mut p.rest_cost, v),
    },
    Policy {
        key: "failed_roll",
        values: &["counts", "free"],
        open: "FATE-OPEN-5",
        get: |p| flag(p.failed_roll_counts, "counts", "free"),
        set: |p, v| set_flag(&mut p.failed_roll_counts, v, "counts", "free"),
    },
    Policy {
        key: "failed_roll_refund",
        values: &["kept", "refunded"],
        open: "FATE-OPEN-5",
        get: |p| flag(p.failed_roll_refund, "refunded", "kept"),
        set: |p, v| set_flag(&mut p.failed_roll_refund, v, "refunded", "kept"),
    },
    Policy {
        key: "x_cost",
        values: &["forbid", "record"],
        open: "FATE-OPEN-6",
        get: |p| flag(p.x_cost_allowed, "record", "forbid"),
        set: |p, v| set_flag(&mut p.x_cost_allowed, v, "record", "forbid"),
    },
    Policy {
        key: "ritual",
        values: &["both", "one"],
        open: "FATE-OPEN-9",
        get: |p| flag(p.ritual_both, "both", "one"),
        set: |p, v| set_flag(&mut p.ritual_both, v, "both", "one"),
    },
    Policy {
        key: "hand_pick",
        values: HandPick::NAMES,
        open: "FATE-OPEN-11",
        get: |p| p.hand_pick.name().into(),
        set: |p, v| set_choice(&mut p.hand_pick, v),
    },
    Policy {
        key: "prana",
        values: &["5", "<1..=20>"],
        open: "FATE-OPEN-13",
        get: |p| p.starting_prana.to_string(),
        set: |p, v| {
            p.starting_prana = u8::try_from(number(v, 1, 20)?).ok()?;
            Some(())
        },
    },
    Policy {
        key: "prana_zero",
        values: PranaZero::NAMES,
        open: "FATE-OPEN-13",
        get: |p| p.prana_zero.name().into(),
        set: |p, v| set_choice(&mut p.prana_zero, v),
    },
    Policy {
        key: "sign_bonus",
        values: &["own", "all"],
        open: "FATE-OPEN-16",
        get: |p| flag(p.sign_bonus_all, "all", "own"),
        set: |p, v| set_flag(&mut p.sign_bonus_all, v, "all", "own"),
    },
    Policy {
        key: "game_end",
        values: GameEnd::NAMES,
        open: "FATE-OPEN-18",
        get: |p| p.game_end.name().into(),
        set: |p, v| set_choice(&mut p.game_end, v),
    },
    Policy {
        key: "opening_hand",
        values: &["4", "<0..=10>"],
        open: "FATE-OPEN-1",
        get: |p| p.opening_hand.to_string(),
        set: |p, v| {
            p.opening_hand = u8::try_from(number(v, 0, 10)?).ok()?;
            Some(())
        },
    },
    Policy {
        key: "min_deck",
        values: &["20", "<2..=200>"],
        open: "FATE-OPEN-1",
        get: |p| p.min_deck.to_string(),
        set: |p, v| {
            p.min_deck = number(v, 2, 200)?;
            Some(())
        },
    },
    Policy {
        key: "dice",
        values: DiceMode::NAMES,
        open: "digest §5.14",
        get: |p| p.dice.name().into(),
        set: |p, v| set_choice(&mut p.dice, v),
    },
];

impl PolicyTable for Policies {
    const TABLE: &'static [Policy<Policies>] = POLICIES;
}

crate::config_v1!(FateConfig, ConfigV1, Policies);

impl FateConfig {
    /// A config for the Masters and their decks (card ids), embedding the definitions the decks use.
    pub fn new(players: Vec<String>, decks: Vec<Vec<String>>, catalog: &Catalog) -> Result<FateConfig, Vec<Violation>> {
        let cards = embed_cards(decks.iter().flatten(), catalog)?;
        Ok(FateConfig::V1(ConfigV1 { players, decks, cards, policies: Policies::default() }))
    }

    /// Everything wrong with the header: the number of Masters (FATE-PHASE-1 under the `masters`
    /// policy), one deck per Master, and each deck (FATE-OPEN-1/2).
    pub fn check(&self) -> Vec<Violation> {
        let c = self.v1();
        let p = &c.policies;
        let mut out = Vec::new();
        let n = c.players.len();
        if n < usize::from(p.min_masters) || n > usize::from(p.max_masters) {
            out.push(Violation::new(
                "FATE-PHASE-1",
                format!("{n} Masters; the masters policy allows {} to {}", p.min_masters, p.max_masters),
            ));
        }
        if c.decks.len() != n {
            out.push(Violation::new("FATE-PHASE-1", format!("{n} Masters but {} decks", c.decks.len())));
        }
        for (seat, deck) in c.decks.iter().enumerate() {
            for v in check_deck_with(deck, p.min_deck, &c.cards[..]) {
                out.push(Violation::new(v.rule, format!("seat {seat}: {}", v.message)));
            }
        }
        out
    }
}

pub use crate::game::cards::{instance_id, parse_instance};
