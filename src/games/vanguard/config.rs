//! The game header: players, registered decks (main and G deck), the card definitions they use,
//! and the policy chosen for each OPEN point of digest §4.4.
//!
//! Stored postcard-encoded, and postcard encodes structs positionally, so [`ConfigV1`] never gains
//! fields: a new shape becomes a new [`VanguardConfig`] variant.
//!
//! Policies (`--policy KEY=VALUE`, see [`Policies::set`]):
//!
//! | key | values (default first) | OPEN point |
//! |---|---|---|
//! | `first_turn_attack` | `first-player-only`, `both-first-turns` | VG-OPEN-3: whose first turn has no attacks |
//! | `simultaneous_loss` | `draw`, `active-player-loses` | VG-OPEN-4 |
//! | `grade_assist_limit` | `once-per-turn`, `once-per-game`, `unlimited` | VG-OPEN-5 |
//! | `grade_assist_removal` | `two-and-two`, `two-total` | VG-OPEN-5 |
//! | `stride_limit` | `once-per-turn`, `unlimited` | VG-OPEN-6 |
//! | `stride_face_up` | `forbid`, `allow` | VG-OPEN-6 |
//! | `damage_check_clan` | `required`, `not-required` | VG-OPEN-7 |
//! | `legion_limit` | `once-per-game`, `once-per-turn` | VG-OPEN-8 |
//! | `soul_visibility` | `owner`, `public` | VG-OPEN-9 |
//! | `face_down_damage` | `public`, `hidden` | VG-OPEN-10 |
//! | `power_multiple` | `rule`, `client-only` | VG-OPEN-12 |

use serde::{Deserialize, Serialize};

use super::catalog::{check_deck, CardDef, Catalog, DeckList};
use crate::game::catalog::embed_cards;
use crate::game::policy::{flag, set_choice, set_flag, Choice, Policy, PolicyTable};
use crate::game::rules::check_seats;
use crate::game::{Seat, Violation};

/// The stored, versioned header configuration.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum VanguardConfig {
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
    /// Each seat's registered deck. Instance `p{seat}-{i}` is `decks[seat].main[i]`, `p{seat}-g{i}` is `decks[seat].g[i]`.
    pub decks: Vec<DeckList>,
    /// The definitions of every card the decks use, so a replay never needs an external catalog.
    pub cards: Vec<CardDef>,
    pub policies: Policies,
}

/// VG-OPEN-3: whose first turn forbids attacks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum FirstTurnAttack {
    /// Only the first player's first turn (the digest's reading).
    FirstPlayerOnly,
    /// Each player's first turn.
    BothFirstTurns,
}

/// VG-OPEN-4: both players meet a loss condition at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SimultaneousLoss {
    /// The game is a draw (no winners).
    Draw,
    /// The player whose turn it is loses.
    ActivePlayerLoses,
}

/// A per-turn / per-game limit (VG-OPEN-5, VG-OPEN-6, VG-OPEN-8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Limit {
    OncePerTurn,
    OncePerGame,
    Unlimited,
}

/// VG-OPEN-5: how many cards grade assist removes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum GradeAssistRemoval {
    /// Two from the hand and two from the G zone.
    TwoAndTwo,
    /// Two cards in total, from the hand and the G zone.
    TwoTotal,
}

/// The policy for every OPEN point that changes validation or views.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
// A key this build does not know is refused, naming the known ones, never silently dropped
// (postcard is positional, so the stored form is unaffected).
#[serde(deny_unknown_fields)]
pub struct Policies {
    pub first_turn_attack: FirstTurnAttack,
    pub simultaneous_loss: SimultaneousLoss,
    pub grade_assist_limit: Limit,
    pub grade_assist_removal: GradeAssistRemoval,
    pub stride_limit: Limit,
    /// VG-OPEN-6: whether a face-up G unit may be strode.
    pub stride_face_up: bool,
    /// VG-OPEN-7: whether damage-check triggers need a same-clan unit on the field.
    pub damage_check_clan: bool,
    pub legion_limit: Limit,
    /// VG-OPEN-9: whether the soul is public (else only its owner and judges see it).
    pub soul_public: bool,
    /// VG-OPEN-10: whether face-down damage cards stay identifiable to everyone.
    pub face_down_damage_public: bool,
    /// VG-OPEN-12: whether power edits that are not multiples of 100 are findings (else a UI constraint only).
    pub power_multiple_is_rule: bool,
}

impl Default for Policies {
    fn default() -> Self {
        Policies {
            first_turn_attack: FirstTurnAttack::FirstPlayerOnly,
            simultaneous_loss: SimultaneousLoss::Draw,
            grade_assist_limit: Limit::OncePerTurn,
            grade_assist_removal: GradeAssistRemoval::TwoAndTwo,
            stride_limit: Limit::OncePerTurn,
            stride_face_up: false,
            damage_check_clan: true,
            legion_limit: Limit::OncePerGame,
            soul_public: false,
            face_down_damage_public: true,
            power_multiple_is_rule: true,
        }
    }
}

crate::choice!(FirstTurnAttack { FirstPlayerOnly = "first-player-only", BothFirstTurns = "both-first-turns" });
crate::choice!(SimultaneousLoss { Draw = "draw", ActivePlayerLoses = "active-player-loses" });
crate::choice!(Limit { OncePerTurn = "once-per-turn", OncePerGame = "once-per-game", Unlimited = "unlimited" });
crate::choice!(GradeAssistRemoval { TwoAndTwo = "two-and-two", TwoTotal = "two-total" });

/// Every policy with its values (default first) and the OPEN point it settles.
pub const POLICIES: &[Policy<Policies>] = &[
    Policy {
        key: "first_turn_attack",
        values: FirstTurnAttack::NAMES,
        open: "VG-OPEN-3",
        get: |p| p.first_turn_attack.name().into(),
        set: |p, v| set_choice(&mut p.first_turn_attack, v),
    },
    Policy {
        key: "simultaneous_loss",
        values: SimultaneousLoss::NAMES,
        open: "VG-OPEN-4",
        get: |p| p.simultaneous_loss.name().into(),
        set: |p, v| set_choice(&mut p.simultaneous_loss, v),
    },
    Policy {
        key: "grade_assist_limit",
        values: Limit::NAMES,
        open: "VG-OPEN-5",
        get: |p| p.grade_assist_limit.name().into(),
        set: |p, v| set_choice(&mut p.grade_assist_limit, v),
    },
    Policy {
        key: "grade_assist_removal",
        values: GradeAssistRemoval::NAMES,
        open: "VG-OPEN-5",
        get: |p| p.grade_assist_removal.name().into(),
        set: |p, v| set_choice(&mut p.grade_assist_removal, v),
    },
    Policy {
        key: "stride_limit",
        values: &["once-per-turn", "unlimited"],
        open: "VG-OPEN-6",
        get: |p| p.stride_limit.name().into(),
        set: |p, v| set_choice(&mut p.stride_limit, v),
    },
    Policy {
        key: "stride_face_up",
        values: &["forbid", "allow"],
        open: "VG-OPEN-6",
        get: |p| flag(p.stride_face_up, "allow", "forbid"),
        set: |p, v| set_flag(&mut p.stride_face_up, v, "allow", "forbid"),
    },
    Policy {
        key: "damage_check_clan",
        values: &["required", "not-required"],
        open: "VG-OPEN-7",
        get: |p| flag(p.damage_check_clan, "required", "not-required"),
        set: |p, v| set_flag(&mut p.damage_check_clan, v, "required", "not-required"),
    },
    Policy {
        key: "legion_limit",
        values: &["once-per-game", "once-per-turn"],
        open: "VG-OPEN-8",
        get: |p| p.legion_limit.name().into(),
        set: |p, v| set_choice(&mut p.legion_limit, v),
    },
    Policy {
        key: "soul_visibility",
        values: &["owner", "public"],
        open: "VG-OPEN-9",
        get: |p| flag(p.soul_public, "public", "owner"),
        set: |p, v| set_flag(&mut p.soul_public, v, "public", "owner"),
    },
    Policy {
        key: "face_down_damage",
        values: &["public", "hidden"],
        open: "VG-OPEN-10",
        get: |p| flag(p.face_down_damage_public, "public", "hidden"),
        set: |p, v| set_flag(&mut p.face_down_damage_public, v, "public", "hidden"),
    },
    Policy {
        key: "power_multiple",
        values: &["rule", "client-only"],
        open: "VG-OPEN-12",
        get: |p| flag(p.power_multiple_is_rule, "rule", "client-only"),
        set: |p, v| set_flag(&mut p.power_multiple_is_rule, v, "rule", "client-only"),
    },
];

impl PolicyTable for Policies {
    const TABLE: &'static [Policy<Policies>] = POLICIES;
}

crate::config_v1!(VanguardConfig, ConfigV1, Policies);

impl VanguardConfig {
    /// A config for two players and their decks, embedding the definitions the decks use.
    /// Unknown card ids are reported; deck construction is checked by `Game::setup`.
    pub fn new(
        players: Vec<String>,
        decks: Vec<DeckList>,
        catalog: &Catalog,
    ) -> Result<VanguardConfig, Vec<Violation>> {
        // Legion mates are searched for by name (VG-KW-8); their definitions come along when decks hold them.
        let cards = embed_cards(decks.iter().flat_map(|d| d.main.iter().chain(&d.g)), catalog)?;
        Ok(VanguardConfig::V1(ConfigV1 { players, decks, cards, policies: Policies::default() }))
    }

    /// Everything wrong with the header: two players with a deck each, and each deck (VG-DECK).
    pub fn check(&self) -> Vec<Violation> {
        let c = self.v1();
        check_seats(<super::Vanguard as crate::game::Game>::SEATS, &c.players, &c.decks, |deck| {
            check_deck(deck, &c.cards[..])
        })
    }
}

/// The instance id of seat `seat`'s `index`-th main-deck card.
pub fn instance_id(seat: Seat, index: usize) -> String {
    format!("p{seat}-{index}")
}

/// The instance id of seat `seat`'s `index`-th G-deck card.
pub fn g_instance_id(seat: Seat, index: usize) -> String {
    format!("p{seat}-g{index}")
}

/// The owner seat, whether it is a G-deck card, and the index, of an instance id.
pub fn parse_instance(id: &str) -> Option<(Seat, bool, usize)> {
    let rest = id.strip_prefix('p')?;
    let (seat, index) = rest.split_once('-')?;
    let seat = seat.parse().ok()?;
    match index.strip_prefix('g') {
        Some(i) => Some((seat, true, i.parse().ok()?)),
        None => Some((seat, false, index.parse().ok()?)),
    }
}
