//! The game header: players, registered squads, the card definitions they use, and the policy
//! chosen for each OPEN point of digest §2.8 that changes what is legal.
//!
//! Stored postcard-encoded, and postcard encodes structs positionally, so [`ConfigV1`] never gains
//! fields: a new shape becomes a new [`BrkConfig`] variant.
//!
//! Policies (`--policy KEY=VALUE`, see [`Policies::set`]):
//!
//! | key | values (default first) | OPEN point |
//! |---|---|---|
//! | `stack_order` | `lifo`, `fifo` | BRK-OPEN-2 / BRK-STACK-3: which waiting action is performed next |
//! | `priority` | `alternate`, `active-first` | BRK-OPEN-2 / BRK-STACK-3: who may act after a declaration |
//! | `false_assumption` | `interrupt`, `stands` | BRK-OPEN-3: a revealed target lacks the assumed [X] |
//! | `skeleton` | `minimal` | BRK-OPEN-1: turns, cells, lives and victory (not from the seed) |
//!
//! The `minimal` skeleton (NOT from the seed, which has none; documented in `rules.rs`): two
//! players; each side of the battlefield is 3 rows × 5 cells; the First player is seat 0; every
//! card of a squad is deployed before turn 1, face up or hidden; a turn is a Reveal subphase then
//! a main phase; each player has 3 gold at the start of every turn; a card with no lives left goes
//! to the graveyard; a player with no card in play loses, and after turn 30 more total lives wins.

use serde::{Deserialize, Serialize};

use super::catalog::{check_deck, CardDef, Catalog, DeckList};
use crate::game::catalog::embed_cards;
use crate::game::policy::{set_choice, Choice, Policy, PolicyTable};
use crate::game::rules::check_seats;
use crate::game::Violation;

/// The stored, versioned header configuration.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum BrkConfig {
    V1(ConfigV1),
}

/// Version 1 of the header. Never add fields (postcard is positional).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
// A key this build does not know is refused, naming the known ones, never silently dropped
// (postcard is positional, so the stored form is unaffected).
#[serde(deny_unknown_fields)]
pub struct ConfigV1 {
    /// Player names in seat order; exactly two. Seat 0 is the First player.
    pub players: Vec<String>,
    /// Each seat's registered squad. Instance `p{seat}-{i}` is `decks[seat].cards[i]`.
    pub decks: Vec<DeckList>,
    /// The definitions of every card the squads use, so a replay never needs an external catalog.
    pub cards: Vec<CardDef>,
    pub policies: Policies,
}

/// BRK-OPEN-2: which waiting game action is performed next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum StackOrder {
    /// The last declared first.
    Lifo,
    /// The first declared first.
    Fifo,
}

/// BRK-OPEN-2: who holds priority after a declaration, block or interruption.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PriorityRule {
    /// The other player.
    Alternate,
    /// The active player, every time.
    ActiveFirst,
}

/// BRK-OPEN-3: what happens when a reveal shows that a targeted hidden card lacks the assumed [X].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum FalseAssumption {
    /// The action has become impossible (BRK-INT-1) and is interrupted automatically, unpaid.
    Interrupt,
    /// The action stands and is performed as declared.
    Stands,
}

/// The policy for every OPEN point that changes validation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
// A key this build does not know is refused, naming the known ones, never silently dropped
// (postcard is positional, so the stored form is unaffected).
#[serde(deny_unknown_fields)]
pub struct Policies {
    pub stack_order: StackOrder,
    pub priority: PriorityRule,
    pub false_assumption: FalseAssumption,
}

impl Default for Policies {
    fn default() -> Self {
        Policies {
            stack_order: StackOrder::Lifo,
            priority: PriorityRule::Alternate,
            false_assumption: FalseAssumption::Interrupt,
        }
    }
}

crate::choice!(StackOrder { Lifo = "lifo", Fifo = "fifo" });
crate::choice!(PriorityRule { Alternate = "alternate", ActiveFirst = "active-first" });
crate::choice!(FalseAssumption { Interrupt = "interrupt", Stands = "stands" });

/// The policy table (see [`crate::game::policy`]): every key, its values (default first) and the
/// OPEN point it settles.
pub const POLICIES: &[Policy<Policies>] = &[
    Policy {
        key: "stack_order",
        values: StackOrder::NAMES,
        open: "BRK-OPEN-2",
        get: |p| p.stack_order.name().to_string(),
        set: |p, v| set_choice(&mut p.stack_order, v),
    },
    Policy {
        key: "priority",
        values: PriorityRule::NAMES,
        open: "BRK-OPEN-2",
        get: |p| p.priority.name().to_string(),
        set: |p, v| set_choice(&mut p.priority, v),
    },
    Policy {
        key: "false_assumption",
        values: FalseAssumption::NAMES,
        open: "BRK-OPEN-3",
        get: |p| p.false_assumption.name().to_string(),
        set: |p, v| set_choice(&mut p.false_assumption, v),
    },
    // One skeleton so far; a second would be a new header version.
    Policy {
        key: "skeleton",
        values: &["minimal"],
        open: "BRK-OPEN-1",
        get: |_| "minimal".to_string(),
        set: |_, v| (v == "minimal").then_some(()),
    },
];

impl PolicyTable for Policies {
    const TABLE: &'static [Policy<Policies>] = POLICIES;
}

crate::config_v1!(BrkConfig, ConfigV1, Policies);

impl BrkConfig {
    /// A config for two players and their squads, embedding the definitions the squads use.
    pub fn new(players: Vec<String>, decks: Vec<DeckList>, catalog: &Catalog) -> Result<BrkConfig, Vec<Violation>> {
        let cards = embed_cards(decks.iter().flat_map(|d| d.cards.iter()), catalog)?;
        Ok(BrkConfig::V1(ConfigV1 { players, decks, cards, policies: Policies::default() }))
    }

    /// Everything wrong with the header: two players with a squad each, each squad (BRK-OPEN-1).
    pub fn check(&self) -> Vec<Violation> {
        let c = self.v1();
        check_seats(<super::Brk as crate::game::Game>::SEATS, &c.players, &c.decks, |deck| {
            check_deck(deck, &c.cards[..])
        })
    }
}

pub use crate::game::cards::{instance_id, parse_instance};
