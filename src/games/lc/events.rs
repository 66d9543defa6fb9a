//! The LC event vocabulary (digest §3.14): everything that can happen at the table, in the past tense.
//!
//! Stored format: [`LcEvent`] variants are only ever appended, never reordered or removed, and no
//! variant ever gains a field (postcard encodes variants by index and fields by position).
//!
//! Cards are named by instance id, `p{seat}-{index}` (see [`super::config::instance_id`]). A card
//! drawn into the hand may be named openly or sealed with [`crate::game::commit::seal`]; a later
//! [`CommonEvent::CardRevealed`] opens the seal. The recorder's common events (seeds, reveals,
//! sealed draws, dice, the escape hatches of digest §0.3) are embedded as variant 0.
//!
//! The escape hatch [`CommonEvent::CardMoved`] names LC zones by [`Zone::key`] (`hand`,
//! `draw-pile`, `draw-pile-bottom`, `attack`, `defense`, `strategy`, `dead-zone`), both of the
//! card's owner; [`CommonEvent::CounterSet`] sets `combat-points`, `attack-line-points` or
//! `defense-line-points` of its seat. A Sword or Shield change is the game's own
//! [`LcEvent::ModifierApplied`]; a Strategy card's effect on Combat Points (one player's or both
//! at once) is [`LcEvent::StrategyPointsChanged`].

use serde::{Deserialize, Serialize};

use crate::game::commit::Commitment;
pub use crate::game::common::CommonEvent;
use crate::game::Seat;

/// A card moving into the hand: named openly, or sealed (`seal(instance, salt)`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub enum CardRef {
    Open(String),
    Sealed(Commitment),
}

impl CardRef {
    /// The instance, when named openly.
    pub fn open(&self) -> Option<&String> {
        match self {
            CardRef::Open(c) => Some(c),
            CardRef::Sealed(_) => None,
        }
    }
}

/// A line of a player's field (LC-FIELD-1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Line {
    Attack,
    Defense,
    Strategy,
}

impl Line {
    pub const ALL: [Line; 3] = [Line::Attack, Line::Defense, Line::Strategy];

    pub fn name(self) -> &'static str {
        match self {
            Line::Attack => "attack",
            Line::Defense => "defense",
            Line::Strategy => "strategy",
        }
    }
}

/// A zone of one player's area, for the escape-hatch [`CommonEvent::CardMoved`]. `DrawPile` is
/// its top, `DrawPileBottom` its bottom.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Zone {
    DrawPile,
    DrawPileBottom,
    Hand,
    Attack,
    Defense,
    Strategy,
    DeadZone,
}

impl Zone {
    pub fn name(self) -> &'static str {
        match self {
            Zone::DrawPile => "draw pile",
            Zone::DrawPileBottom => "draw pile bottom",
            Zone::Hand => "hand",
            Zone::Attack => "attack line",
            Zone::Defense => "defense line",
            Zone::Strategy => "strategy line",
            Zone::DeadZone => "dead zone",
        }
    }

    pub const ALL: [Zone; 7] =
        [Zone::DrawPile, Zone::DrawPileBottom, Zone::Hand, Zone::Attack, Zone::Defense, Zone::Strategy, Zone::DeadZone];

    /// The zone's name in a `CardMoved` event.
    pub fn key(self) -> &'static str {
        match self {
            Zone::DrawPile => "draw-pile",
            Zone::DrawPileBottom => "draw-pile-bottom",
            Zone::Hand => "hand",
            Zone::Attack => "attack",
            Zone::Defense => "defense",
            Zone::Strategy => "strategy",
            Zone::DeadZone => "dead-zone",
        }
    }

    pub fn parse(key: &str) -> Option<Zone> {
        Zone::ALL.into_iter().find(|z| z.key() == key)
    }

    pub fn line(self) -> Option<Line> {
        match self {
            Zone::Attack => Some(Line::Attack),
            Zone::Defense => Some(Line::Defense),
            Zone::Strategy => Some(Line::Strategy),
            _ => None,
        }
    }
}

/// A value a modifier changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Stat {
    Sword,
    Shield,
}

/// How long a modifier lasts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Duration {
    /// Until the next round starts.
    EndOfRound,
    /// Until the card leaves the field.
    Permanent,
}

/// Where a Protection card was played from (LC-OPEN-8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ProtectFrom {
    Hand,
    /// The Strategy Line, where it was put down earlier.
    Field,
}

/// Combat Points a seat lost in an attack's result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct PointsLost {
    pub seat: Seat,
    pub points: u32,
}

/// A change of one seat's Combat Points by an effect (a Strategy card's, LC-OPEN-15).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct PointsChanged {
    pub seat: Seat,
    pub delta: i32,
}

/// A line point a seat lost in an attack's result (LC-FIELD-3).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct LinePointLost {
    pub seat: Seat,
    pub line: Line,
}

/// Why the game ended (LC-END-1, LC-END-2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum EndReason {
    /// LC-END-1 (a): one player's Combat Points reached zero.
    ZeroPoints,
    /// LC-END-2: both players' points reached zero together.
    BothZero,
    /// LC-END-1 (b): a Draw Pile was empty at the start of a round.
    EmptyDrawPile,
}

impl EndReason {
    pub fn describe(self) -> &'static str {
        match self {
            EndReason::ZeroPoints => "LC-END-1: Combat Points reduced to zero",
            EndReason::BothZero => "LC-END-2: both players at zero together",
            EndReason::EmptyDrawPile => "LC-END-1: a Draw Pile was empty at the start of a round",
        }
    }
}

/// Everything that can be recorded in an LC game.
///
/// Stored format: variants are only ever appended at the end, never reordered or removed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub enum LcEvent {
    /// Seeds, reveals, sealed draws, dice and the escape hatches, as every game records them.
    Common(CommonEvent),
    /// `seat`'s Draw Pile was shuffled by `by` (LC-OPEN-1); `seed` names the committed seed of a digital shuffle.
    DeckShuffled { seat: Seat, by: Seat, seed: Option<String> },
    /// LC-OPEN-1: the first player, however the table chose them (`how` says how).
    FirstPlayerChosen { first: Seat, how: String },
    /// LC-OPEN-1: the opening hand of 5.
    OpeningHandDrawn { seat: Seat, cards: Vec<CardRef> },
    /// A round began, `first` taking the first turn (LC-ROUND-1, LC-OPEN-3).
    RoundStarted { round: u32, first: Seat },
    /// LC-DISCARD-1/2: at the start of the turn, the whole hand went to the Dead Zone, 5 new cards
    /// were drawn, and `cost` Combat Points were paid.
    FullDiscarded { seat: Seat, discarded: Vec<String>, drawn: Vec<CardRef>, cost: u32 },
    /// A card went from the hand onto the field (LC-FIELD); `replaced` went to the Dead Zone to make room (LC-FIELD-2).
    CardPutDown { seat: Seat, card: String, line: Line, face_down: bool, replaced: Option<String> },
    /// An Equipment or Effect card from the hand was attached to a field card (LC-CARD-2).
    CardAttached { seat: Seat, card: String, to: String },
    /// A field card moved between the Attack and Defense lines (LC-MOVE).
    CardShifted { seat: Seat, card: String, to: Line },
    /// `seat`'s face-down field cards were turned face up (LC-ATK-2, LC-FIELD-4).
    CardsFlipped { seat: Seat, cards: Vec<String> },
    /// A Strategy card on the field was activated (LC-STRAT-1); its effect follows as escape-hatch events.
    StrategyActivated { seat: Seat, card: String, note: String },
    /// An Attack-Line card confronted an opposing Attack- or Defense-Line card (LC-ATK-1).
    AttackDeclared { seat: Seat, attacker: String, target: String },
    /// An Attack-Line card attacked an empty field (LC-DIRECT-1).
    DirectAttackDeclared { seat: Seat, attacker: String },
    /// The attacked player used a Protection card against the pending attack (LC-PROT).
    ProtectionPlayed { seat: Seat, card: String, from: ProtectFrom },
    /// The pending attack's result as the table computed it: the compared values (attachments
    /// included), the destroyed cards, the Combat Points and line points lost, and whether a
    /// Protection card prevented it. The audit recomputes every field (LC-ATK-3/4, LC-DIRECT-2).
    AttackResolved {
        sword: i32,
        against: i32,
        destroyed: Vec<String>,
        points_lost: Vec<PointsLost>,
        line_points_lost: Vec<LinePointLost>,
        prevented: bool,
    },
    /// The end-of-turn refill (LC-REFILL-1).
    RefillDrawn { seat: Seat, cards: Vec<CardRef> },
    /// The turn passed to the opponent (LC-ROUND-3).
    TurnPassed { seat: Seat },
    /// The game is over (LC-END); `winners` empty is a draw.
    GameEnded { reason: EndReason, winners: Vec<Seat> },
    /// Escape hatch: an effect (a Strategy card's, LC-OPEN-15) changed a field card's Sword or Shield.
    ModifierApplied { target: String, stat: Stat, delta: i32, duration: Duration },
    /// The effect of `seat`'s Strategy card `card` (on its Strategy line, in `seat`'s Combat-Phase
    /// turn) changed Combat Points: of one player or of both at once. One event, because an
    /// effect that takes both players' last points takes them together (LC-END-2: a draw); two
    /// events would have one player at zero first, and the second flagged as after the end.
    StrategyPointsChanged { seat: Seat, card: String, changes: Vec<PointsChanged> },
}

impl LcEvent {
    /// The seat performing the event, for events that are one player's action.
    pub fn seat(&self) -> Option<Seat> {
        use LcEvent::*;
        match self {
            DeckShuffled { by, .. } => Some(*by),
            OpeningHandDrawn { seat, .. }
            | FullDiscarded { seat, .. }
            | CardPutDown { seat, .. }
            | CardAttached { seat, .. }
            | CardShifted { seat, .. }
            | CardsFlipped { seat, .. }
            | StrategyActivated { seat, .. }
            | AttackDeclared { seat, .. }
            | DirectAttackDeclared { seat, .. }
            | ProtectionPlayed { seat, .. }
            | RefillDrawn { seat, .. }
            | StrategyPointsChanged { seat, .. }
            | TurnPassed { seat } => Some(*seat),
            Common(c) => c.seat(),
            FirstPlayerChosen { .. }
            | RoundStarted { .. }
            | AttackResolved { .. }
            | GameEnded { .. }
            | ModifierApplied { .. } => None,
        }
    }
}
