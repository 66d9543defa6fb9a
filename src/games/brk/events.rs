//! The versioned, past-tense BRK event enum (digest §2.9), and the small types its variants carry.
//!
//! Cards on the battlefield are named by a public piece id (`A1`.. for seat 0, `B1`.. for seat 1,
//! in deployment order), never by their identity: a card deployed hidden carries a sealed
//! identity ([`crate::game::commit::seal`] of its instance id), so the log itself does not give
//! it away; [`BrkEvent::CardRevealed`] opens the seal with its salt.
//!
//! Stored format: variants are only ever appended; no field is ever added to a variant.

use serde::{Deserialize, Serialize};

use super::catalog::ResourceAmount;
use crate::game::commit::{Commitment, Secret};
use crate::game::common::CommonEvent;
use crate::game::Seat;

/// A cell of one side of the battlefield (skeleton, BRK-OPEN-1): row 1..=3, column 1..=5.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Cell {
    pub row: u8,
    pub col: u8,
}

impl Cell {
    pub const ROWS: u8 = 3;
    pub const COLS: u8 = 5;

    pub fn is_valid(self) -> bool {
        (1..=Self::ROWS).contains(&self.row) && (1..=Self::COLS).contains(&self.col)
    }

    pub fn name(self) -> String {
        format!("r{}c{}", self.row, self.col)
    }
}

/// A card's identity as a deployment records it: named openly, or sealed (`seal(instance, salt)`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum CardRef {
    Open(String),
    Sealed(Commitment),
}

/// One card put onto a cell before the battle.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Deployment {
    pub cell: Cell,
    pub card: CardRef,
    /// Face down (BRK-HID-1); a hidden card's identity should be sealed.
    pub hidden: bool,
}

/// Why a hidden card was revealed (BRK-HID-4 (a)–(d)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum RevealReason {
    RevealSubphase,
    DeclaredAction,
    Targeted,
    ControllerChoice,
}

impl RevealReason {
    pub fn name(self) -> &'static str {
        match self {
            RevealReason::RevealSubphase => "in the Reveal subphase",
            RevealReason::DeclaredAction => "to declare a game action",
            RevealReason::Targeted => "as a target",
            RevealReason::ControllerChoice => "by its controller's choice",
        }
    }
}

/// The instance and salt that open a sealed identity.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct RevealProof {
    pub instance: String,
    pub salt: Secret,
}

/// The protection component that stopped an effect on one target (BRK-PROT-1..3).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ProtectionHit {
    pub protection: String,
    pub component: String,
}

/// The skeleton's phases (BRK-OPEN-1; only the Reveal subphase is named by the seed).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    Setup,
    Reveal,
    Main,
    End,
}

impl Phase {
    pub const ALL: [Phase; 4] = [Phase::Setup, Phase::Reveal, Phase::Main, Phase::End];

    pub fn name(self) -> &'static str {
        match self {
            Phase::Setup => "setup",
            Phase::Reveal => "reveal",
            Phase::Main => "main",
            Phase::End => "end",
        }
    }
}

/// Where a card can be moved by an effect (escape hatch).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Zone {
    Play,
    Graveyard,
    Deck,
}

impl Zone {
    pub fn name(self) -> &'static str {
        match self {
            Zone::Play => "play",
            Zone::Graveyard => "graveyard",
            Zone::Deck => "deck",
        }
    }
}

/// Everything that can be recorded in a BRK game. Action ids are assigned by the fold: the n-th
/// declaration (from 1) is action `n`.
///
/// Stored format: variants are only ever appended at the end, never reordered or removed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub enum BrkEvent {
    /// What every game records the same way (seeds, dice, sealed choices, notes; see
    /// [`crate::game::common`]): validated and folded by the shared code.
    Common(CommonEvent),
    /// Before the battle: `seat` put its whole squad onto its cells, some hidden (skeleton; BRK-HID-2).
    SquadDeployed { seat: Seat, cards: Vec<Deployment> },
    /// A turn began: the active player's cards opened (BRK-FRAG-6), both players got 3 gold, the Reveal subphase began.
    TurnStarted { seat: Seat, turn: u32 },
    /// The active player left the Reveal subphase for the main phase (BRK-HID-4 (a) checked here).
    MainPhaseEntered { seat: Seat },
    /// A hidden card was turned face up, without the stack (BRK-HID-4, BRK-HID-5); markers it
    /// should have are placed by the fold (BRK-HID-2). `proof` opens a sealed identity.
    CardRevealed { seat: Seat, piece: String, reason: RevealReason, proof: Option<RevealProof> },
    /// A game action was declared and is on the stack at once (BRK-STACK-1): `source`'s ability
    /// number `ability` on `targets`, with the payment it is due (BRK-BLOCK-5).
    GameActionDeclared { seat: Seat, source: String, ability: u8, targets: Vec<String>, payment: Vec<ResourceAmount> },
    /// The priority holder passed (BRK-STACK-3 by policy).
    PriorityPassed { seat: Seat },
    /// `blocker` blocked action `action`, targeting its source `blocker_target` (BRK-BLOCK-1..3):
    /// the action leaves the stack, deals nothing, and its source still pays (BRK-BLOCK-4, BRK-BLOCK-5).
    GameActionBlocked { seat: Seat, action: u32, blocker: String, blocker_target: String },
    /// Card text (`by`'s interrupt ability) made action `action` impossible (BRK-INT-1): it
    /// leaves the stack unpaid (BRK-INT-2). Actions that become illegal are interrupted by the
    /// fold itself (BRK-INT-5) and need no event.
    GameActionInterrupted { seat: Seat, action: u32, by: String, reason: String },
    /// The next action in the policy's order left the stack and is being performed (BRK-STACK-2).
    GameActionPerformed { action: u32 },
    /// The resources action `action` was due were paid. A payment has no source and no target
    /// (BRK-FRAG-1); its source's controller pays. Interrupted actions pay nothing (BRK-INT-2).
    PaymentMade { action: u32, resources: Vec<ResourceAmount> },
    /// A performed action's effect on one target, or the protection that stopped it (BRK-PROT-1..3).
    EffectApplied { action: u32, target: String, protected_by: Option<ProtectionHit> },
    /// The active player ended the turn (the stack must be empty).
    TurnEnded { seat: Seat },
    /// The skeleton's victory (BRK-OPEN-1): `winner` (`null`: a draw) and why.
    GameEnded { winner: Option<Seat>, reason: String },
    /// Escape hatch (BRK-OPEN-7): an effect made an in-play card hidden; its markers stay (BRK-HID-3).
    CardHidden { piece: String, cause: String },
    /// Escape hatch (BRK-FRAG-6, BRK-OPEN-8): an effect opened a card, so it may act again this turn.
    CardOpened { piece: String, cause: String },
    /// Escape hatch (digest §0.3): an effect moved a card to its owner's `to`.
    CardMoved { piece: String, to: Zone, cause: String },
    /// Escape hatch: an effect placed a marker (never on a card that started hidden and is still hidden, BRK-HID-2).
    MarkerPlaced { piece: String, marker: String, cause: String },
    /// Escape hatch: an effect changed a card's lives by `delta` (wounds negative).
    LivesChanged { piece: String, delta: i8, cause: String },
    /// Rules version 4, automatic: the revealed `piece`, which started the battle hidden, got the
    /// markers its card's definition gives it, without the stack (BRK-HID-2). Up to version 3 the
    /// fold placed them inside `CardRevealed`.
    MarkersPlacedOnReveal { piece: String, markers: Vec<String> },
    /// Rules version 4, automatic: at the start of `seat`'s turn its cards in play that acted
    /// opened and may act again (BRK-FRAG-6, read as un-tapping, BRK-OPEN-8). Up to version 3 the
    /// fold opened them inside `TurnStarted`.
    CardsOpened { seat: Seat, pieces: Vec<String> },
    /// Rules version 4, automatic: cards in play with no lives left went to their owners'
    /// graveyards (the skeleton, BRK-OPEN-1). Up to version 3 the fold moved them inside the
    /// event that took their last life.
    CardsSentToGraveyard { pieces: Vec<String> },
}

impl BrkEvent {
    /// The seat performing the event, for events that are one player's action. Performing,
    /// payments and effects carry none: they follow from the stack, not from a choice.
    pub fn seat(&self) -> Option<Seat> {
        use BrkEvent::*;
        match self {
            Common(c) => c.seat(),
            SquadDeployed { seat, .. }
            | TurnStarted { seat, .. }
            | MainPhaseEntered { seat }
            | CardRevealed { seat, .. }
            | GameActionDeclared { seat, .. }
            | PriorityPassed { seat }
            | GameActionBlocked { seat, .. }
            | GameActionInterrupted { seat, .. }
            | TurnEnded { seat } => Some(*seat),
            GameActionPerformed { .. }
            | PaymentMade { .. }
            | EffectApplied { .. }
            | GameEnded { .. }
            | CardHidden { .. }
            | CardOpened { .. }
            | CardMoved { .. }
            | MarkerPlaced { .. }
            | LivesChanged { .. }
            | MarkersPlacedOnReveal { .. }
            | CardsOpened { .. }
            | CardsSentToGraveyard { .. } => None,
        }
    }

    /// Rules version 4's automatic steps: what an event made due and the fold leaves to an event
    /// of its own ([`super::state::BrkState::owed_steps`]).
    pub fn is_owed_step(&self) -> bool {
        matches!(
            self,
            BrkEvent::MarkersPlacedOnReveal { .. }
                | BrkEvent::CardsOpened { .. }
                | BrkEvent::CardsSentToGraveyard { .. }
        )
    }

    /// Whether two of rules version 4's steps are the same step (a revealed card's markers: for
    /// the same piece), whatever else they name.
    pub fn same_step(&self, other: &BrkEvent) -> bool {
        match (self, other) {
            (BrkEvent::MarkersPlacedOnReveal { piece: x, .. }, BrkEvent::MarkersPlacedOnReveal { piece: y, .. }) => {
                x == y
            }
            _ => std::mem::discriminant(self) == std::mem::discriminant(other),
        }
    }

    /// Whether the event moves the game on (rules version 4: the steps owed before it and not
    /// recorded are left out, cited at it): all but the escape hatches and the common events,
    /// which may come at any moment, and the owed steps themselves, recorded in any order.
    pub fn moves_on(&self) -> bool {
        !self.is_escape_hatch() && !self.is_owed_step()
    }

    /// Escape hatches record effects the core rules cannot check; they may come at any moment.
    pub fn is_escape_hatch(&self) -> bool {
        use BrkEvent::*;
        matches!(
            self,
            Common(_)
                | CardHidden { .. }
                | CardOpened { .. }
                | CardMoved { .. }
                | MarkerPlaced { .. }
                | LivesChanged { .. }
        )
    }
}
