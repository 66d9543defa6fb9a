//! The game header: players, registered decks, the card definitions they use, the shuffle mode
//! and the policy chosen for each OPEN point of digest §3.13 that changes what is legal.
//!
//! Stored postcard-encoded, and postcard encodes structs positionally, so [`ConfigV1`] never gains
//! fields: a new shape becomes a new [`LcConfig`] variant.
//!
//! Policies (`--policy KEY=VALUE`, see [`Policies::set`]; the table is [`POLICY_KEYS`]):
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

use super::catalog::{check_deck_with, CardDef, Catalog};
use crate::game::rules::check_seats;
use crate::game::{Seat, Violation};

/// The stored, versioned header configuration.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LcConfig {
    V1(ConfigV1),
}

/// Version 1 of the header. Never add fields (postcard is positional).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
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

/// How the Draw Piles are shuffled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ShuffleMode {
    /// A real table: shuffles are recorded as facts; every draw names (or seals) the card that came up.
    Physical,
    /// A digital table: shuffles use a committed seed, so the audit can check every draw once the seed is revealed.
    Digital,
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

/// Every policy key: allowed values (default first; `N..=M` for a number), the OPEN point it
/// settles, and what it means.
pub const POLICY_KEYS: &[(&str, &str, &str, &str)] = &[
    (
        "opening_rounds",
        "placement|none",
        "LC-OPEN-1",
        "rounds 1-3 are placement rounds (not from the seed), or the record starts at round 4",
    ),
    ("draw_order", "after-attacks|before-attacks", "LC-OPEN-2", "when the refill draw comes in a Combat-Phase turn"),
    ("round", "both-turns|one-turn", "LC-OPEN-3", "a round is both players' turns, or one turn"),
    ("slots", "5|1..=10", "LC-OPEN-5", "slots per line"),
    ("combat_points", "30|1..=999", "LC-OPEN-7", "starting Combat Points"),
    ("line_points", "5|1..=99", "LC-OPEN-7", "starting Attack-Line and Defense-Line points"),
    (
        "protection_from",
        "either|hand|field",
        "LC-OPEN-8",
        "where Protection cards are played from (they negate the attack)",
    ),
    ("sword_tie", "nothing|both-destroyed", "LC-OPEN-9", "equal Swords"),
    ("shield_tie", "nothing|defense-destroyed", "LC-OPEN-9", "a Sword equal to the Shield"),
    ("attacks_per_card", "once-per-round|unlimited", "LC-OPEN-10", "how often one Attack-Line card attacks"),
    ("refill", "to-five|put-down-count", "LC-OPEN-11", "how many cards the refill draws"),
    ("full_discard_hand", "five|any", "LC-OPEN-12", "hand a full discard needs"),
    ("full_discard_points", "any|above-ten", "LC-OPEN-12", "Combat Points a full discard needs"),
    (
        "empty_pile_winner",
        "more-points|other-player|draw",
        "LC-OPEN-13",
        "who wins when an empty Draw Pile ends the game",
    ),
    ("negative_points", "clamp|keep", "LC-OPEN-14", "whether Combat Points stop at zero"),
];

fn number(value: &str, range: &str) -> Option<u32> {
    let (lo, hi) = range.split_once("..=")?;
    let (lo, hi): (u32, u32) = (lo.parse().ok()?, hi.parse().ok()?);
    value.parse::<u32>().ok().filter(|n| (lo..=hi).contains(n))
}

impl Policies {
    /// Sets one policy from its string key and value.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), String> {
        let Some((_, allowed, _, _)) = POLICY_KEYS.iter().find(|(k, ..)| *k == key) else {
            let keys: Vec<&str> = POLICY_KEYS.iter().map(|(k, ..)| *k).collect();
            return Err(format!("unknown policy {key:?} (known: {}, shuffles)", keys.join(", ")));
        };
        let choices: Vec<&str> = allowed.split('|').collect();
        let n = choices.iter().find(|c| c.contains("..=")).and_then(|r| number(value, r));
        if !choices.contains(&value) && n.is_none() {
            return Err(format!("policy {key} does not accept {value:?} (allowed: {allowed})"));
        }
        let n = n.or_else(|| value.parse().ok()).unwrap_or(0);
        match key {
            "opening_rounds" => {
                self.opening_rounds = if value == "none" { OpeningRounds::None } else { OpeningRounds::Placement }
            }
            "draw_order" => {
                self.draw_order =
                    if value == "before-attacks" { DrawOrder::BeforeAttacks } else { DrawOrder::AfterAttacks }
            }
            "round" => self.round = if value == "one-turn" { RoundKind::OneTurn } else { RoundKind::BothTurns },
            "slots" => self.slots = n,
            "combat_points" => self.combat_points = n,
            "line_points" => self.line_points = n,
            "protection_from" => {
                self.protection_from = match value {
                    "hand" => ProtectionFrom::Hand,
                    "field" => ProtectionFrom::Field,
                    _ => ProtectionFrom::Either,
                }
            }
            "sword_tie" => self.sword_tie_destroys_both = value == "both-destroyed",
            "shield_tie" => self.shield_tie_destroys_defense = value == "defense-destroyed",
            "attacks_per_card" => self.attack_once_per_round = value == "once-per-round",
            "refill" => self.refill_put_down_count = value == "put-down-count",
            "full_discard_hand" => self.full_discard_needs_five = value == "five",
            "full_discard_points" => self.full_discard_above_ten = value == "above-ten",
            "empty_pile_winner" => {
                self.empty_pile_winner = match value {
                    "other-player" => EmptyPileWinner::OtherPlayer,
                    "draw" => EmptyPileWinner::Draw,
                    _ => EmptyPileWinner::MorePoints,
                }
            }
            _ => self.clamp_points = value == "clamp",
        }
        Ok(())
    }

    /// The policies as `(key, value)` pairs, for headers, views and `--policy` round trips.
    pub fn to_pairs(&self) -> Vec<(&'static str, String)> {
        let pick = |b: bool, yes: &str, no: &str| if b { yes } else { no }.to_string();
        vec![
            ("opening_rounds", pick(self.opening_rounds == OpeningRounds::Placement, "placement", "none")),
            ("draw_order", pick(self.draw_order == DrawOrder::AfterAttacks, "after-attacks", "before-attacks")),
            ("round", pick(self.round == RoundKind::BothTurns, "both-turns", "one-turn")),
            ("slots", self.slots.to_string()),
            ("combat_points", self.combat_points.to_string()),
            ("line_points", self.line_points.to_string()),
            (
                "protection_from",
                match self.protection_from {
                    ProtectionFrom::Either => "either",
                    ProtectionFrom::Hand => "hand",
                    ProtectionFrom::Field => "field",
                }
                .to_string(),
            ),
            ("sword_tie", pick(self.sword_tie_destroys_both, "both-destroyed", "nothing")),
            ("shield_tie", pick(self.shield_tie_destroys_defense, "defense-destroyed", "nothing")),
            ("attacks_per_card", pick(self.attack_once_per_round, "once-per-round", "unlimited")),
            ("refill", pick(self.refill_put_down_count, "put-down-count", "to-five")),
            ("full_discard_hand", pick(self.full_discard_needs_five, "five", "any")),
            ("full_discard_points", pick(self.full_discard_above_ten, "above-ten", "any")),
            (
                "empty_pile_winner",
                match self.empty_pile_winner {
                    EmptyPileWinner::MorePoints => "more-points",
                    EmptyPileWinner::OtherPlayer => "other-player",
                    EmptyPileWinner::Draw => "draw",
                }
                .to_string(),
            ),
            ("negative_points", pick(self.clamp_points, "clamp", "keep")),
        ]
    }
}

impl LcConfig {
    /// A config for two players and their decks, embedding the definitions the decks use.
    pub fn new(
        players: Vec<String>,
        decks: Vec<Vec<String>>,
        catalog: &Catalog,
        shuffles: ShuffleMode,
    ) -> Result<LcConfig, Vec<Violation>> {
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
        Ok(LcConfig::V1(ConfigV1 { players, decks, cards, policies: Policies::default(), shuffles }))
    }

    pub fn v1(&self) -> &ConfigV1 {
        match self {
            LcConfig::V1(c) => c,
        }
    }

    pub fn policies(&self) -> &Policies {
        &self.v1().policies
    }

    /// Sets a policy by key (`--policy KEY=VALUE`); `shuffles=physical|digital` is accepted too.
    pub fn set_policy(&mut self, key: &str, value: &str) -> Result<(), String> {
        let LcConfig::V1(c) = self;
        if key == "shuffles" {
            c.shuffles = match value {
                "physical" => ShuffleMode::Physical,
                "digital" => ShuffleMode::Digital,
                _ => return Err(format!("policy shuffles does not accept {value:?} (allowed: physical|digital)")),
            };
            return Ok(());
        }
        c.policies.set(key, value)
    }

    /// Everything wrong with the header: two players with a deck each, each deck, and policy
    /// values in range (a header built by hand can hold any number).
    pub fn check(&self) -> Vec<Violation> {
        let c = self.v1();
        let mut out = check_seats("LC-OPEN-1", &c.players, &c.decks, |deck| {
            check_deck_with(deck, |id| c.cards.iter().find(|d| d.id == id))
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

/// The instance id of seat `seat`'s `index`-th card.
pub fn instance_id(seat: Seat, index: usize) -> String {
    format!("p{seat}-{index}")
}

/// The owner seat and deck index of an instance id.
pub fn parse_instance(id: &str) -> Option<(Seat, usize)> {
    let rest = id.strip_prefix('p')?;
    let (seat, index) = rest.split_once('-')?;
    Some((seat.parse().ok()?, index.parse().ok()?))
}
