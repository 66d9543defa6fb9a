//! The game header: players, registered decks, the card definitions they use, the shuffle mode
//! and the policy chosen for each OPEN point that changes what `validate` accepts.
//!
//! Stored postcard-encoded, and postcard encodes structs positionally, so [`ConfigV1`] never gains
//! fields: a new shape becomes a new [`NarutoConfig`] variant.
//!
//! Policies (`--policy KEY=VALUE`, see [`Policies::set`]):
//!
//! | key | values (default first) | OPEN point |
//! |---|---|---|
//! | `turn_marker` | `per-player`, `shared` | NAR-OPEN-5 |
//! | `multi_element_cost` | `any-of`, `choose-one`, `all-of` | NAR-OPEN-13 |
//! | `chakra_charge_limit` | `unlimited`, or a number of cards per turn | NAR-OPEN-14 |
//! | `counter_missions` | `own-limit`, `shared-limit`, `unlimited` | NAR-OPEN-15 |
//! | `multi_block` | `forbid`, `allow` | NAR-OPEN-18 |
//! | `short_deck_reward` | `take-remaining`, `none` | NAR-OPEN-21 |
//! | `empty_deck_draw` | `skip`, `lose` | NAR-OPEN-8 |
//! | `shuffles` | `physical`, `digital` | digest §0.3 note 1 |

use serde::{Deserialize, Serialize};

use super::catalog::{check_deck, CardDef, Catalog};
use crate::game::catalog::embed_cards;
use crate::game::policy::{set_choice, Choice, Policy, PolicyTable};
use crate::game::rules::check_seats;
use crate::game::Violation;

/// The key of the dealer's shuffle seed in digital games (kifu's as the dealer, and self-play's).
pub const SEED_KEY: &str = "dealer";

/// The stored, versioned header configuration.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum NarutoConfig {
    V1(ConfigV1),
}

/// Version 1 of the header. Never add fields (postcard is positional).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
// A key this build does not know is refused, naming the known ones, never silently dropped
// (postcard is positional, so the stored form is unaffected).
#[serde(deny_unknown_fields)]
pub struct ConfigV1 {
    /// Player names in seat order; exactly two (NAR-DECK-1).
    pub players: Vec<String>,
    /// Each seat's registered deck as card ids in deck-list order. Instance `p{seat}-{i}` is `decks[seat][i]`.
    pub decks: Vec<Vec<String>>,
    /// The definitions of every card the decks use, so a replay never needs an external catalog.
    pub cards: Vec<CardDef>,
    pub policies: Policies,
    pub shuffles: ShuffleMode,
}

/// How deck order comes about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ShuffleMode {
    /// A real table: shuffles are recorded as facts; every draw names the card that came up.
    Physical,
    /// A digital table: shuffles use a committed seed, so the audit can check every draw once the seed is revealed.
    Digital,
}

impl From<ShuffleMode> for crate::game::commit::RandomMode {
    fn from(mode: ShuffleMode) -> Self {
        match mode {
            ShuffleMode::Physical => crate::game::commit::RandomMode::Physical,
            ShuffleMode::Digital => crate::game::commit::RandomMode::Digital,
        }
    }
}

/// NAR-OPEN-5: one turn marker per player, or one shared marker.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TurnMarkerPolicy {
    PerPlayer,
    Shared,
}

/// NAR-OPEN-13: how a hand cost is paid for a card with several elements.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum MultiElementPolicy {
    /// Reading (b): each paid card matches any of the card's elements.
    AnyOf,
    /// Reading (a): one element is chosen and every paid card has it.
    ChooseOne,
    /// Reading (c): the paid cards together cover all of the card's elements.
    AllOf,
}

/// NAR-OPEN-15: how counter missions relate to the one-mission-per-turn limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CounterMissionPolicy {
    /// The blocker may play one counter mission per turn, apart from the attacker's mission.
    OwnLimit,
    /// The attacker's mission and counter missions share the one mission of the turn.
    SharedLimit,
    /// Counter missions are not limited.
    Unlimited,
}

/// NAR-OPEN-18: whether several blocking teams may block one attacking team.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum MultiBlockPolicy {
    /// One blocking team per attacking team: the seed only defines a fight between two teams.
    Forbid,
    /// Allowed; the attacking team fights each blocking team in a separate fight.
    Allow,
}

/// NAR-OPEN-21: a battle reward when the opponent's deck holds fewer cards than the reward.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ShortDeckRewardPolicy {
    /// Take what is left.
    TakeRemaining,
    /// Take nothing.
    None,
}

/// NAR-OPEN-8: the draw of step A from an empty deck.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum EmptyDeckDrawPolicy {
    /// Nothing is drawn; the deck-out loss waits for step M (NAR-WIN-1).
    Skip,
    /// The player loses at once: a `WinnerDetermined` is accepted in step A.
    Lose,
}

/// The policy for every OPEN point that changes validation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
// A key this build does not know is refused, naming the known ones, never silently dropped
// (postcard is positional, so the stored form is unaffected).
#[serde(deny_unknown_fields)]
pub struct Policies {
    pub turn_marker: TurnMarkerPolicy,
    pub multi_element_cost: MultiElementPolicy,
    /// Cards that may be charged into chakra per turn; `None` = unlimited (recorded only).
    pub chakra_charge_limit: Option<u32>,
    pub counter_missions: CounterMissionPolicy,
    pub multi_block: MultiBlockPolicy,
    pub short_deck_reward: ShortDeckRewardPolicy,
    pub empty_deck_draw: EmptyDeckDrawPolicy,
}

impl Default for Policies {
    fn default() -> Self {
        Policies {
            turn_marker: TurnMarkerPolicy::PerPlayer,
            multi_element_cost: MultiElementPolicy::AnyOf,
            chakra_charge_limit: None,
            counter_missions: CounterMissionPolicy::OwnLimit,
            multi_block: MultiBlockPolicy::Forbid,
            short_deck_reward: ShortDeckRewardPolicy::TakeRemaining,
            empty_deck_draw: EmptyDeckDrawPolicy::Skip,
        }
    }
}

crate::choice!(TurnMarkerPolicy { PerPlayer = "per-player", Shared = "shared" });
crate::choice!(MultiElementPolicy { AnyOf = "any-of", ChooseOne = "choose-one", AllOf = "all-of" });
crate::choice!(CounterMissionPolicy { OwnLimit = "own-limit", SharedLimit = "shared-limit", Unlimited = "unlimited" });
crate::choice!(MultiBlockPolicy { Forbid = "forbid", Allow = "allow" });
crate::choice!(ShortDeckRewardPolicy { TakeRemaining = "take-remaining", None = "none" });
crate::choice!(EmptyDeckDrawPolicy { Skip = "skip", Lose = "lose" });

/// Every policy with its values (default first) and the OPEN point it settles. `shuffles`
/// (digest §0.3) lives in the header beside the policies: see [`NarutoConfig::set_policy`].
pub const POLICIES: &[Policy<Policies>] = &[
    Policy {
        key: "turn_marker",
        values: TurnMarkerPolicy::NAMES,
        open: "NAR-OPEN-5",
        get: |p| p.turn_marker.name().into(),
        set: |p, v| set_choice(&mut p.turn_marker, v),
    },
    Policy {
        key: "multi_element_cost",
        values: MultiElementPolicy::NAMES,
        open: "NAR-OPEN-13",
        get: |p| p.multi_element_cost.name().into(),
        set: |p, v| set_choice(&mut p.multi_element_cost, v),
    },
    Policy {
        key: "chakra_charge_limit",
        values: &["unlimited", "<cards per turn>"],
        open: "NAR-OPEN-14",
        get: |p| p.chakra_charge_limit.map_or("unlimited".to_string(), |n| n.to_string()),
        set: |p, v| {
            p.chakra_charge_limit = if v == "unlimited" { None } else { Some(v.parse().ok()?) };
            Some(())
        },
    },
    Policy {
        key: "counter_missions",
        values: CounterMissionPolicy::NAMES,
        open: "NAR-OPEN-15",
        get: |p| p.counter_missions.name().into(),
        set: |p, v| set_choice(&mut p.counter_missions, v),
    },
    Policy {
        key: "multi_block",
        values: MultiBlockPolicy::NAMES,
        open: "NAR-OPEN-18",
        get: |p| p.multi_block.name().into(),
        set: |p, v| set_choice(&mut p.multi_block, v),
    },
    Policy {
        key: "short_deck_reward",
        values: ShortDeckRewardPolicy::NAMES,
        open: "NAR-OPEN-21",
        get: |p| p.short_deck_reward.name().into(),
        set: |p, v| set_choice(&mut p.short_deck_reward, v),
    },
    Policy {
        key: "empty_deck_draw",
        values: EmptyDeckDrawPolicy::NAMES,
        open: "NAR-OPEN-8",
        get: |p| p.empty_deck_draw.name().into(),
        set: |p, v| set_choice(&mut p.empty_deck_draw, v),
    },
];

impl PolicyTable for Policies {
    const TABLE: &'static [Policy<Policies>] = POLICIES;
}

crate::choice!(ShuffleMode { Physical = "physical", Digital = "digital" });

crate::config_v1!(NarutoConfig, ConfigV1, Policies, mode: shuffles);

impl NarutoConfig {
    /// A config for two players and their decks (card ids), embedding the definitions the decks use.
    /// Unknown card ids are reported; deck-construction rules are checked later by `Game::setup`
    /// (and up front by [`super::catalog::check_deck`]).
    pub fn new(
        players: Vec<String>,
        decks: Vec<Vec<String>>,
        catalog: &Catalog,
        shuffles: ShuffleMode,
    ) -> Result<NarutoConfig, Vec<Violation>> {
        let cards = embed_cards(decks.iter().flatten(), catalog)?;
        Ok(NarutoConfig::V1(ConfigV1 { players, decks, cards, policies: Policies::default(), shuffles }))
    }

    /// Everything wrong with the header: seat count (NAR-DECK-1) and each deck (NAR-DECK-2..4).
    pub fn check(&self) -> Vec<Violation> {
        let c = self.v1();
        check_seats(<super::Naruto as crate::game::Game>::SEATS, &c.players, &c.decks, |deck| {
            check_deck(deck, &c.cards[..])
        })
    }
}

pub use crate::game::cards::{instance_id, parse_instance};
