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
use crate::game::Violation;

/// The stored, versioned header configuration.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum FateConfig {
    V1(ConfigV1),
}

/// Version 1 of the header. Never add fields.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
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

/// Every policy key with its allowed values (default first) and the OPEN point it settles.
pub const POLICY_KEYS: &[(&str, &str, &str)] = &[
    ("masters", "3-6|MIN-MAX within 2..=8", "FATE-OPEN-1"),
    ("first_master", "lot|first-seat", "FATE-OPEN-7"),
    ("seating", "clockwise|counterclockwise", "FATE-OPEN-7"),
    ("turn_order", "r2|r1", "FATE-OPEN-8"),
    ("rest_cost", "own|any", "FATE-OPEN-4"),
    ("failed_roll", "counts|free", "FATE-OPEN-5"),
    ("failed_roll_refund", "kept|refunded", "FATE-OPEN-5"),
    ("x_cost", "forbid|record", "FATE-OPEN-6"),
    ("ritual", "both|one", "FATE-OPEN-9"),
    ("hand_pick", "blind|loser-chooses", "FATE-OPEN-11"),
    ("prana", "5|1..=20", "FATE-OPEN-13"),
    ("prana_zero", "danger|defeat|nothing", "FATE-OPEN-13"),
    ("sign_bonus", "own|all", "FATE-OPEN-16"),
    ("game_end", "last-standing|first-defeat", "FATE-OPEN-18"),
    ("opening_hand", "4|0..=10", "FATE-OPEN-1"),
    ("min_deck", "20|2..=200", "FATE-OPEN-1"),
    ("dice", "physical|digital", "digest §5.14"),
];

fn pick<T: Copy>(value: &str, options: &[(&str, T)]) -> Option<T> {
    options.iter().find(|(k, _)| *k == value).map(|(_, v)| *v)
}

fn name_of<T: PartialEq>(value: T, options: &[(&'static str, T)]) -> &'static str {
    options.iter().find(|(_, v)| *v == value).map_or("?", |(k, _)| k)
}

const FIRST: &[(&str, FirstMaster)] = &[("lot", FirstMaster::Lot), ("first-seat", FirstMaster::FirstSeat)];
const SEATING: &[(&str, Seating)] =
    &[("clockwise", Seating::Clockwise), ("counterclockwise", Seating::Counterclockwise)];
const ORDER: &[(&str, TurnOrder)] = &[("r2", TurnOrder::R2), ("r1", TurnOrder::R1)];
const REST: &[(&str, RestCost)] = &[("own", RestCost::Own), ("any", RestCost::Any)];
const PICK: &[(&str, HandPick)] = &[("blind", HandPick::Blind), ("loser-chooses", HandPick::LoserChooses)];
const ZERO: &[(&str, PranaZero)] =
    &[("danger", PranaZero::Danger), ("defeat", PranaZero::Defeat), ("nothing", PranaZero::Nothing)];
const END: &[(&str, GameEnd)] = &[("last-standing", GameEnd::LastStanding), ("first-defeat", GameEnd::FirstDefeat)];
const DICE: &[(&str, DiceMode)] = &[("physical", DiceMode::Physical), ("digital", DiceMode::Digital)];

impl Policies {
    /// Sets one policy from its string key and value.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), String> {
        let bad = || {
            let allowed = POLICY_KEYS.iter().find(|(k, _, _)| *k == key).map(|(_, v, _)| *v).unwrap_or("");
            format!("policy {key} does not accept {value:?} (allowed: {allowed})")
        };
        let flag = |yes: &str, no: &str| match value {
            v if v == yes => Ok(true),
            v if v == no => Ok(false),
            _ => Err(bad()),
        };
        let number = |lo: u32, hi: u32| value.parse::<u32>().ok().filter(|n| (lo..=hi).contains(n)).ok_or_else(bad);
        match key {
            "masters" => {
                let (lo, hi) = value.split_once('-').ok_or_else(bad)?;
                let (lo, hi) = (lo.parse::<u8>().map_err(|_| bad())?, hi.parse::<u8>().map_err(|_| bad())?);
                if lo < 2 || hi > 8 || lo > hi {
                    return Err(bad());
                }
                (self.min_masters, self.max_masters) = (lo, hi);
            }
            "first_master" => self.first_master = pick(value, FIRST).ok_or_else(bad)?,
            "seating" => self.seating = pick(value, SEATING).ok_or_else(bad)?,
            "turn_order" => self.turn_order = pick(value, ORDER).ok_or_else(bad)?,
            "rest_cost" => self.rest_cost = pick(value, REST).ok_or_else(bad)?,
            "failed_roll" => self.failed_roll_counts = flag("counts", "free")?,
            "failed_roll_refund" => self.failed_roll_refund = flag("refunded", "kept")?,
            "x_cost" => self.x_cost_allowed = flag("record", "forbid")?,
            "ritual" => self.ritual_both = flag("both", "one")?,
            "hand_pick" => self.hand_pick = pick(value, PICK).ok_or_else(bad)?,
            "prana" => self.starting_prana = number(1, 20)? as u8,
            "prana_zero" => self.prana_zero = pick(value, ZERO).ok_or_else(bad)?,
            "sign_bonus" => self.sign_bonus_all = flag("all", "own")?,
            "game_end" => self.game_end = pick(value, END).ok_or_else(bad)?,
            "opening_hand" => self.opening_hand = number(0, 10)? as u8,
            "min_deck" => self.min_deck = number(2, 200)?,
            "dice" => self.dice = pick(value, DICE).ok_or_else(bad)?,
            _ => {
                let keys: Vec<&str> = POLICY_KEYS.iter().map(|(k, _, _)| *k).collect();
                return Err(format!("unknown policy {key:?} (known: {})", keys.join(", ")));
            }
        }
        Ok(())
    }

    /// The policies as `(key, value)` pairs, for `game show` and `--policy` round trips.
    pub fn to_pairs(&self) -> Vec<(&'static str, String)> {
        let b = |v: bool, yes: &str, no: &str| if v { yes } else { no }.to_string();
        vec![
            ("masters", format!("{}-{}", self.min_masters, self.max_masters)),
            ("first_master", name_of(self.first_master, FIRST).into()),
            ("seating", name_of(self.seating, SEATING).into()),
            ("turn_order", name_of(self.turn_order, ORDER).into()),
            ("rest_cost", name_of(self.rest_cost, REST).into()),
            ("failed_roll", b(self.failed_roll_counts, "counts", "free")),
            ("failed_roll_refund", b(self.failed_roll_refund, "refunded", "kept")),
            ("x_cost", b(self.x_cost_allowed, "record", "forbid")),
            ("ritual", b(self.ritual_both, "both", "one")),
            ("hand_pick", name_of(self.hand_pick, PICK).into()),
            ("prana", self.starting_prana.to_string()),
            ("prana_zero", name_of(self.prana_zero, ZERO).into()),
            ("sign_bonus", b(self.sign_bonus_all, "all", "own")),
            ("game_end", name_of(self.game_end, END).into()),
            ("opening_hand", self.opening_hand.to_string()),
            ("min_deck", self.min_deck.to_string()),
            ("dice", name_of(self.dice, DICE).into()),
        ]
    }
}

impl FateConfig {
    /// A config for the Masters and their decks (card ids), embedding the definitions the decks use.
    pub fn new(players: Vec<String>, decks: Vec<Vec<String>>, catalog: &Catalog) -> Result<FateConfig, Vec<Violation>> {
        let mut cards: Vec<CardDef> = Vec::new();
        let mut missing = Vec::new();
        for id in decks.iter().flatten() {
            if cards.iter().any(|c| &c.id == id) {
                continue;
            }
            match catalog.get(id) {
                Some(def) => cards.push(def.clone()),
                None => missing.push(Violation::new("KIFU-CARD-2", format!("card {id} is not in the catalog"))),
            }
        }
        if !missing.is_empty() {
            return Err(missing);
        }
        Ok(FateConfig::V1(ConfigV1 { players, decks, cards, policies: Policies::default() }))
    }

    pub fn v1(&self) -> &ConfigV1 {
        match self {
            FateConfig::V1(c) => c,
        }
    }

    pub fn policies(&self) -> &Policies {
        &self.v1().policies
    }

    pub fn set_policy(&mut self, key: &str, value: &str) -> Result<(), String> {
        let FateConfig::V1(c) = self;
        c.policies.set(key, value)
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
            for v in check_deck_with(deck, p.min_deck, |id| c.cards.iter().find(|d| d.id == id)) {
                out.push(Violation::new(v.rule, format!("seat {seat}: {}", v.message)));
            }
        }
        out
    }
}

pub use crate::game::cards::{instance_id, parse_instance};
