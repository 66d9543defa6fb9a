//! The game header: players, registered decks, the card definitions they use, the shuffle mode
//! and the policy chosen for each OPEN point of digest §3.13 that changes what is legal.
//!
//! Stored postcard-encoded, and postcard encodes structs positionally, so [`ConfigV1`] never gains
//! fields: a new shape becomes a new [`LcConfig`] variant.
//!
//! Policies (`--policy KEY=VALUE`; the declarative table is [`POLICIES`]):
//!
//! | key | values (default first) | OPEN point |
//! |---|---|---|
//! | `opening_rounds` | `placement`, `none` | LC-OPEN-1: the skeleton for rounds 1–3 (not from the seed) |
//! | `draw_order` | `after-attacks`, `before-attacks` | LC-OPEN-2 |
//! | `round` | `both-turns`, `one-turn` | LC-OPEN-3 |
//! | `slots` | `5`, or 1–10 slots per line | LC-OPEN-5 |
//! | `combat_points` | `30`, or 1–999 | LC-OPEN-7 |
//! | `line_points` | `5`, or 1–99 per line | LC-OPEN-7 |
//! | `protection_from` | `either`, `hand`, `field` | LC-OPEN-8 |
//! | `sword_tie` | `nothing`, `both-destroyed` | LC-OPEN-9 |
//! | `shield_tie` | `nothing`, `defense-destroyed` | LC-OPEN-9 |
//! | `attacks_per_card` | `once-per-round`, `unlimited` | LC-OPEN-10 |
//! | `refill` | `to-five`, `put-down-count` | LC-OPEN-11 |
//! | `full_discard_hand` | `five`, `any` | LC-OPEN-12 |
//! | `full_discard_points` | `any`, `above-ten` | LC-OPEN-12 |
//! | `empty_pile_winner` | `more-points`, `other-player`, `draw` | LC-OPEN-13 |
//! | `negative_points` | `clamp`, `keep` | LC-OPEN-14 |
//! | `shuffles` | `physical`, `digital` | digest §0.3 note 1 |

use serde::{Deserialize, Serialize};

use super::catalog::{check_deck, CardDef, Catalog};
use crate::game::catalog::embed_cards;
pub use crate::game::commit::RandomMode as ShuffleMode;
use crate::game::policy::{flag, set_choice, set_flag, Choice, Policy, PolicyTable};
use crate::game::rules::check_seats;
use crate::game::Violation;

/// The key of the dealer's shuffle seed in digital games (kifu's as the dealer, and self-play's).
pub const SEED_KEY: &str = "dealer";

/// The stored, versioned header configuration.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LcConfig {
    V1(ConfigV1),
}

/// Version 1 of the header. Never add fields (postcard is positional).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
// A key this build does not know is refused, naming the known ones, never silently dropped
// (postcard is positional, so the stored form is unaffected).
#[serde(deny_unknown_fields)]
pub struct ConfigV1 {
    /// Player names in seat order; exactly two.
    pub players: Vec<String>,
    /// Each seat's registered deck as card ids in deck-list order. Instance `p{seat}-{i}` is `decks[seat][i]`.
    pub decks: Vec<Vec<String>>,
    /// The definitions of every card the decks use, so a replay never needs an external catalog.
    pub cards: Vec<CardDef>,
    pub policies: Policies,
    pub shuffles: ShuffleMode,
}

/// LC-OPEN-1: what rounds 1–3 are. Not from the seed, which only says round 4 is the Combat Phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum OpeningRounds {
    /// Rounds 1–3 are placement rounds: put cards down, attach, refill; no combat.
    Placement,
    /// The record starts at the Combat Phase: the first round recorded is round 4.
    None,
}

/// LC-OPEN-2: when the refill draw happens in a Combat-Phase turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum DrawOrder {
    /// After attacks and strategies, just before passing (L46).
    AfterAttacks,
    /// After putting cards down and before attacking (L4).
    BeforeAttacks,
}

/// LC-OPEN-3: what a round is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RoundKind {
    /// A round is one turn of each player, the first player first.
    BothTurns,
    /// A round is one player's turn.
    OneTurn,
}

/// LC-OPEN-8: where a Protection card is played from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ProtectionFrom {
    Either,
    Hand,
    /// From the Strategy Line, where it was put down earlier.
    Field,
}

/// LC-OPEN-13: who wins when an empty Draw Pile ends the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum EmptyPileWinner {
    /// The player with more Combat Points; equal points draw.
    MorePoints,
    /// The player whose pile is empty loses; both empty draws.
    OtherPlayer,
    Draw,
}

/// The policy for every OPEN point that changes validation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
// A key this build does not know is refused, naming the known ones, never silently dropped
// (postcard is positional, so the stored form is unaffected).
#[serde(deny_unknown_fields)]
pub struct Policies {
    pub opening_rounds: OpeningRounds,
    pub draw_order: DrawOrder,
    pub round: RoundKind,
    /// LC-OPEN-5: slots per line.
    pub slots: u32,
    /// LC-OPEN-7: starting Combat Points.
    pub combat_points: u32,
    /// LC-OPEN-7: starting Attack-Line and Defense-Line points.
    pub line_points: u32,
    pub protection_from: ProtectionFrom,
    /// LC-OPEN-9: equal Swords destroy both cards (each owner loses an Attack-Line point); else nothing happens.
    pub sword_tie_destroys_both: bool,
    /// LC-OPEN-9: a Sword equal to the Shield destroys the defense card; else nothing happens.
    pub shield_tie_destroys_defense: bool,
    /// LC-OPEN-10: each Attack-Line card attacks at most once per round.
    pub attack_once_per_round: bool,
    /// LC-OPEN-11: the refill draws as many cards as were put down (else: up to 5 in hand).
    pub refill_put_down_count: bool,
    /// LC-OPEN-12: a full discard needs exactly 5 cards in hand.
    pub full_discard_needs_five: bool,
    /// LC-OPEN-12: a full discard needs more than 10 Combat Points (so it can never end the game).
    pub full_discard_above_ten: bool,
    pub empty_pile_winner: EmptyPileWinner,
    /// LC-OPEN-14: Combat Points never go below zero.
    pub clamp_points: bool,
}

impl Default for Policies {
    fn default() -> Self {
        Policies {
            opening_rounds: OpeningRounds::Placement,
            draw_order: DrawOrder::AfterAttacks,
            round: RoundKind::BothTurns,
            slots: 5,
            combat_points: 30,
            line_points: 5,
            protection_from: ProtectionFrom::Either,
            sword_tie_destroys_both: false,
            shield_tie_destroys_defense: false,
            attack_once_per_round: true,
            refill_put_down_count: false,
            full_discard_needs_five: true,
            full_discard_above_ten: false,
            empty_pile_winner: EmptyPileWinner::MorePoints,
            clamp_points: true,
        }
    }
}

crate::choice!(OpeningRounds { Placement = "placement", None = "none" });
crate::choice!(DrawOrder { AfterAttacks = "after-attacks", BeforeAttacks = "before-attacks" });
crate::choice!(RoundKind { BothTurns = "both-turns", OneTurn = "one-turn" });
crate::choice!(ProtectionFrom { Either = "either", Hand = "hand", Field = "field" });
crate::choice!(EmptyPileWinner { MorePoints = "more-points", OtherPlayer = "other-player", Draw = "draw" });

/// Sets a number policy from its decimal value if it lies in `lo..=hi`.
fn set_number(field: &mut u32, value: &str, lo: u32, hi: u32) -> Option<()> {
    let n: u32 = value.parse().ok().filter(|n| (lo..=hi).contains(n))?;
    *field = n;
    Some(())
}

/// Every policy: its values (default first), the OPEN point it settles, and how it reads and
/// writes [`Policies`]. The shuffle mode (`shuffles=physical|digital`) is a header field, not a row.
pub const POLICIES: &[Policy<Policies>] = &[
    Policy {
        key: "opening_rounds",
        values: OpeningRounds::NAMES,
        open: "LC-OPEN-1",
        get: |p| p.opening_rounds.name().to_string(),
        set: |p, v| set_choice(&mut p.opening_rounds, v),
    },
    Policy {
        key: "draw_order",
        values: DrawOrder::NAMES,
        open: "LC-OPEN-2",
        get: |p| p.draw_order.name().to_string(),
        set: |p, v| set_choice(&mut p.draw_order, v),
    },
    Policy {
        key: "round",
        values: RoundKind::NAMES,
        open: "LC-OPEN-3",
        get: |p| p.round.name().to_string(),
        set: |p, v| set_choice(&mut p.round, v),
    },
    Policy {
        key: "slots",
        values: &["5", "<1..=10 slots per line>"],
        open: "LC-OPEN-5",
        get: |p| p.slots.to_string(),
        set: |p, v| set_number(&mut p.slots, v, 1, 10),
    },
    Policy {
        key: "combat_points",
        values: &["30", "<1..=999 starting Combat Points>"],
        open: "LC-OPEN-7",
        get: |p| p.combat_points.to_string(),
        set: |p, v| set_number(&mut p.combat_points, v, 1, 999),
    },
    Policy {
        key: "line_points",
        values: &["5", "<1..=99 starting points per line>"],
        open: "LC-OPEN-7",
        get: |p| p.line_points.to_string(),
        set: |p, v| set_number(&mut p.line_points, v, 1, 99),
    },
    Policy {
        key: "protection_from",
        values: ProtectionFrom::NAMES,
        open: "LC-OPEN-8",
        get: |p| p.protection_from.name().to_string(),
        set: |p, v| set_choice(&mut p.protection_from, v),
    },
    Policy {
        key: "sword_tie",
        values: &["nothing", "both-destroyed"],
        open: "LC-OPEN-9",
        get: |p| flag(p.sword_tie_destroys_both, "both-destroyed", "nothing"),
        set: |p, v| set_flag(&mut p.sword_tie_destroys_both, v, "both-destroyed", "nothing"),
    },
    Policy {
        key: "shield_tie",
        values: &["nothing", "defense-destroyed"],
        open: "LC-OPEN-9",
        get: |p| flag(p.shield_tie_destroys_defense, "defense-destroyed", "nothing"),
        set: |p, v| set_flag(&mut p.shield_tie_destroys_defense, v, "defense-destroyed", "nothing"),
    },
    Policy {
        key: "attacks_per_card",
        values: &["once-per-round", "unlimited"],
        open: "LC-OPEN-10",
        get: |p| flag(p.attack_once_per_round, "once-per-round", "unlimited"),
        set: |p, v| set_flag(&mut p.attack_once_per_round, v, "once-per-round", "unlimited"),
    },
    Policy {
        key: "refill",
        values: &["to-five", "put-down-count"],
        open: "LC-OPEN-11",
        get: |p| flag(p.refill_put_down_count, "put-down-count", "to-five"),
        set: |p, v| set_flag(&mut p.refill_put_down_count, v, "put-down-count", "to-five"),
    },
    Policy {
        key: "full_discard_hand",
        values: &["five", "any"],
        open: "LC-OPEN-12",
        get: |p| flag(p.full_discard_needs_five, "five", "any"),
        set: |p, v| set_flag(&mut p.full_discard_needs_five, v, "five", "any"),
    },
    Policy {
        key: "full_discard_points",
        values: &["any", "above-ten"],
        open: "LC-OPEN-12",
        get: |p| flag(p.full_discard_above_ten, "above-ten", "any"),
        set: |p, v| set_flag(&mut p.full_discard_above_ten, v, "above-ten", "any"),
    },
    Policy {
        key: "empty_pile_winner",
        values: EmptyPileWinner::NAMES,
        open: "LC-OPEN-13",
        get: |p| p.empty_pile_winner.name().to_string(),
        set: |p, v| set_choice(&mut p.empty_pile_winner, v),
    },
    Policy {
        key: "negative_points",
        values: &["clamp", "keep"],
        open: "LC-OPEN-14",
        get: |p| flag(p.clamp_points, "clamp", "keep"),
        set: |p, v| set_flag(&mut p.clamp_points, v, "clamp", "keep"),
    },
];

impl PolicyTable for Policies {
    const TABLE: &'static [Policy<Policies>] = POLICIES;
}

crate::config_v1!(LcConfig, ConfigV1, Policies, mode: shuffles);

impl LcConfig {
    /// A config for two players and their decks, embedding the definitions the decks use.
    pub fn new(
        players: Vec<String>,
        decks: Vec<Vec<String>>,
        catalog: &Catalog,
        shuffles: ShuffleMode,
    ) -> Result<LcConfig, Vec<Violation>> {
        let cards = embed_cards(decks.iter().flatten(), catalog)?;
        Ok(LcConfig::V1(ConfigV1 { players, decks, cards, policies: Policies::default(), shuffles }))
    }

    /// Everything wrong with the header: two players with a deck each, each deck, and policy
    /// values in range (a header built by hand can hold any number).
    pub fn check(&self) -> Vec<Violation> {
        let c = self.v1();
        let mut out = check_seats(<super::Lc as crate::game::Game>::SEATS, &c.players, &c.decks, |deck| {
            check_deck(deck, &c.cards[..])
        });
        let p = &c.policies;
        for (key, v, lo, hi, rule) in [
            ("slots", p.slots, 1, 10, "LC-OPEN-5"),
            ("combat_points", p.combat_points, 1, 999, "LC-OPEN-7"),
            ("line_points", p.line_points, 1, 99, "LC-OPEN-7"),
        ] {
            if !(lo..=hi).contains(&v) {
                out.push(Violation::new(rule, format!("policy {key} = {v} is out of range {lo}..={hi}")));
            }
        }
        out
    }
}

pub use crate::game::cards::{instance_id, parse_instance};
