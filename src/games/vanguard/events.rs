//! The Vanguard event vocabulary (digest §4.5): rules-level events, and the fan-made client's
//! manual operations (§4.2) as [`ClientOp`]s inside [`VanguardEvent::Client`], in the past tense.
//!
//! Stored format: variants of [`VanguardEvent`] and [`ClientOp`] are only ever appended, never
//! reordered or removed, and no variant ever gains a field (postcard encodes variants by index and
//! fields by position).
//!
//! Cards are named by instance id: `p{seat}-{i}` for main-deck cards, `p{seat}-g{i}` for G units.
//! Hidden cards are named openly in the log; views hide them (the client itself knows every card).

use serde::{Deserialize, Serialize};

pub use crate::game::common::CommonEvent;
use crate::game::Seat;

/// A circle of one player's field (VG-ZONE-4, VG-ZONE-5, VG-ZONE-9). The front row is
/// `fl`, `vc`, `fr`; the back row `bl`, `bc`, `br`, each behind the front circle of its column.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, schemars::JsonSchema)]
pub enum Circle {
    #[serde(rename = "vc")]
    Vanguard,
    #[serde(rename = "fl")]
    FrontLeft,
    #[serde(rename = "bl")]
    BackLeft,
    #[serde(rename = "bc")]
    BackCenter,
    #[serde(rename = "fr")]
    FrontRight,
    #[serde(rename = "br")]
    BackRight,
}

impl Circle {
    /// The five rear-guard circles.
    pub const REAR: [Circle; 5] =
        [Circle::FrontLeft, Circle::BackLeft, Circle::BackCenter, Circle::FrontRight, Circle::BackRight];
    pub const ALL: [Circle; 6] = [
        Circle::Vanguard,
        Circle::FrontLeft,
        Circle::BackLeft,
        Circle::BackCenter,
        Circle::FrontRight,
        Circle::BackRight,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Circle::Vanguard => "vc",
            Circle::FrontLeft => "fl",
            Circle::BackLeft => "bl",
            Circle::BackCenter => "bc",
            Circle::FrontRight => "fr",
            Circle::BackRight => "br",
        }
    }

    pub fn parse(s: &str) -> Option<Circle> {
        Circle::ALL.into_iter().find(|c| c.name() == s)
    }

    pub fn is_front(self) -> bool {
        matches!(self, Circle::Vanguard | Circle::FrontLeft | Circle::FrontRight)
    }

    /// The column: 0 left, 1 centre, 2 right.
    pub fn column(self) -> u8 {
        match self {
            Circle::FrontLeft | Circle::BackLeft => 0,
            Circle::Vanguard | Circle::BackCenter => 1,
            Circle::FrontRight | Circle::BackRight => 2,
        }
    }

    /// The circle directly behind a front-row circle (VG-BATTLE-3).
    pub fn behind(self) -> Option<Circle> {
        match self {
            Circle::FrontLeft => Some(Circle::BackLeft),
            Circle::Vanguard => Some(Circle::BackCenter),
            Circle::FrontRight => Some(Circle::BackRight),
            _ => None,
        }
    }
}

/// The phases of a turn (VG-TURN-1), in order, after the setup.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    Setup,
    Stand,
    Draw,
    GradeAssist,
    Ride,
    Stride,
    Main,
    Battle,
    End,
}

impl Phase {
    pub fn name(self) -> &'static str {
        match self {
            Phase::Setup => "setup",
            Phase::Stand => "stand",
            Phase::Draw => "draw",
            Phase::GradeAssist => "grade-assist",
            Phase::Ride => "ride",
            Phase::Stride => "stride",
            Phase::Main => "main",
            Phase::Battle => "battle",
            Phase::End => "end",
        }
    }

    pub fn parse(s: &str) -> Option<Phase> {
        [
            Phase::Setup,
            Phase::Stand,
            Phase::Draw,
            Phase::GradeAssist,
            Phase::Ride,
            Phase::Stride,
            Phase::Main,
            Phase::Battle,
            Phase::End,
        ]
        .into_iter()
        .find(|p| p.name() == s)
    }
}

/// Where a card is or goes. `Deck` is the top of the owner's deck, `DeckBottom` its bottom,
/// `DeckSearch` anywhere in it. `Removed` is the shared removed-from-game zone (VGC-UI-8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Place {
    Deck,
    DeckBottom,
    DeckSearch,
    Hand,
    Drop,
    Damage,
    Soul,
    GZone,
    Bind,
    Removed,
    Guardian,
    Circle(Circle),
}

impl Place {
    pub fn name(self) -> String {
        match self {
            Place::Deck => "deck top".into(),
            Place::DeckBottom => "deck bottom".into(),
            Place::DeckSearch => "deck".into(),
            Place::Hand => "hand".into(),
            Place::Drop => "drop zone".into(),
            Place::Damage => "damage zone".into(),
            Place::Soul => "soul".into(),
            Place::GZone => "G zone".into(),
            Place::Bind => "bind zone".into(),
            Place::Removed => "removed-from-game zone".into(),
            Place::Guardian => "guardian circle".into(),
            Place::Circle(c) => format!("circle {}", c.name()),
        }
    }
}

/// Why a deck was shuffled (digest §4.5 randomness).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ShuffleReason {
    Setup,
    Redraw,
    GradeAssist,
    Search,
    Effect,
}

/// An effect type (VG-EFF).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum EffectKind {
    Auto,
    Act,
    Cont,
}

/// How long a recorded modifier lasts (VG-OPEN-11: the event says).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Until {
    EndOfBattle,
    EndOfTurn,
}

/// Which value a modifier changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Stat {
    Power,
    Critical,
}

/// Why the game ended (VG-WIN).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum LossReason {
    /// VG-WIN-2: six or more damage.
    SixDamage,
    /// VG-WIN-3: no cards in the deck.
    DeckOut,
}

/// The client's power edit (VGC-OP-12).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum PowerEdit {
    Add,
    Set,
}

/// One manual operation of the fan-made client (digest §4.2), as the client recorded it.
/// Card-moving operations name the card; the seat is on the enclosing [`VanguardEvent::Client`].
///
/// Stored format: variants are only ever appended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ClientOp {
    /// VGC-OP-2: left-click the deck: draw its top card.
    Drew { card: String },
    /// VGC-OP-3: right-click the deck: a drive check in one's own battle phase (the card is shown
    /// and goes to the hand), a damage check in the opponent's (the card goes to the damage zone).
    Checked { card: String },
    /// VGC-UI-4: "To T. Deck".
    ToTopOfDeck { card: String },
    /// VGC-UI-4: "To B. Deck".
    ToBottomOfDeck { card: String },
    /// VGC-UI-4: "To Hand".
    ToHand { card: String },
    /// VGC-UI-5: "Shuffle Deck".
    Shuffled {},
    /// VGC-UI-5: "Mill": the top card to the drop zone.
    Milled { card: String },
    /// VGC-UI-5: "Soul Charge 1": the top card to the soul.
    SoulCharged { card: String },
    /// VGC-UI-5: "Bind Top Card".
    BoundTop { card: String },
    /// VGC-OP-4: looked through the deck (the opponent sees the deck highlighted).
    DeckViewed {},
    /// VGC-OP-7: changed a unit's battle position.
    PositionChanged { card: String, rested: bool },
    /// VGC-OP-8: flipped a damage-zone card.
    DamageFlipped { card: String, face_up: bool },
    /// VGC-OP-9: flipped a G-zone card.
    GZoneFlipped { card: String, face_up: bool },
    /// VGC-OP-10: locked or unlocked a rear-guard.
    LockChanged { card: String, locked: bool },
    /// VGC-OP-11: deleted or undeleted the vanguard.
    DeleteChanged { card: String, deleted: bool },
    /// VGC-OP-12: added to or set a unit's power.
    PowerEdited { card: String, mode: PowerEdit, value: i32 },
    /// VGC-UI-2: rode a unit from the hand onto the vanguard.
    Rode { card: String },
    /// VGC-UPD-2: strode a G unit onto the vanguard; `heart` gives it name and power.
    Strode { g_unit: String, heart: String },
    /// VGC-UI-4: the "L" button: called `mate` from the soul or the deck as the legion mate.
    Legion { mate: String },
    /// VGC-UI-2: pressed a phase button (`ride`, `main`, `battle`, `end`).
    PhaseButton { phase: Phase },
    /// VGC-OP-1: moved a selected card by hand to another place (calls, guards, retires, heals...).
    Moved { card: String, to: Place },
    /// VGC-OP-13: a checked trigger's power (and critical) went to the chosen units.
    TriggerApplied { power_to: String, critical_to: Option<String> },
}

/// Everything that can be recorded in a Vanguard game.
///
/// Stored format: variants are only ever appended at the end, never reordered or removed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub enum VanguardEvent {
    /// VG-SETUP-1: a grade-0 unit from the deck placed face down as the starting vanguard.
    StartingVanguardSet { seat: Seat, card: String },
    /// VG-SETUP-2: the first player, determined at random (the outcome is recorded).
    FirstPlayerDetermined { first: Seat },
    /// A deck was shuffled (VG-SETUP-3, VG-SETUP-4, VG-GA-3, searches).
    DeckShuffled { seat: Seat, reason: ShuffleReason },
    /// VG-SETUP-3: the opening hand of 5.
    OpeningHandDrawn { seat: Seat, cards: Vec<String> },
    /// VG-SETUP-4: cards returned, the deck shuffled, as many drawn.
    Redrawn { seat: Seat, returned: Vec<String>, drawn: Vec<String> },
    /// VG-SETUP-5: both vanguards flipped face up.
    VanguardsRevealed {},
    /// A turn began (VG-END-1); up to rules version 3 the fold also stands the player's rested
    /// units here (VG-STAND-1), from version 4 `UnitsStood` records it.
    TurnStarted { turn: u32, seat: Seat },
    /// The turn moved to `phase` (VG-TURN-1).
    PhaseEntered { seat: Seat, phase: Phase },
    /// VG-DRAW-1.
    CardDrawn { seat: Seat, card: String },
    /// VG-GA: the hand was revealed, `taken` found in the top 5 (or nothing), the deck shuffled,
    /// `removed` (hand and G-zone cards) removed from the game.
    GradeAssisted { seat: Seat, taken: Option<String>, removed: Vec<String> },
    /// VG-RIDE-1..4: a normal ride from the hand.
    Rode { seat: Seat, card: String },
    /// VG-RIDE-5..7: a superior ride by `source`'s effect.
    SuperiorRode { seat: Seat, card: String, from: Place, source: String },
    /// VG-KW-1: the forerunner called from the soul after being ridden upon.
    ForerunnerCalled { seat: Seat, card: String, circle: Circle },
    /// VG-STRIDE: a G unit strode over the vanguard, paying `discarded` from the hand.
    Strode { seat: Seat, g_unit: String, heart: String, discarded: Vec<String> },
    /// VG-MAIN-1: a unit called from the hand to a rear-guard circle.
    Called { seat: Seat, card: String, circle: Circle },
    /// VG-MAIN-2: a superior call by `source`'s effect.
    SuperiorCalled { seat: Seat, card: String, from: Place, circle: Circle, source: String },
    /// VG-MAIN-3: a rear-guard moved (or swapped) within its column.
    RearGuardMoved { seat: Seat, from: Circle, to: Circle },
    /// VG-KW-8: four units returned from the drop zone to the deck, the mate searched and placed.
    LegionPerformed { seat: Seat, returned: Vec<String>, mate: String },
    /// VG-EFF: an ability was activated (its costs follow as cost events).
    EffectActivated { seat: Seat, source: String, kind: EffectKind, description: String },
    /// VG-COST-3.
    CounterBlasted { seat: Seat, cards: Vec<String> },
    /// VG-COST-1.
    SoulBlasted { seat: Seat, cards: Vec<String> },
    /// VG-COST-2: the top cards of the deck to the soul.
    SoulCharged { seat: Seat, cards: Vec<String> },
    /// VG-BATTLE-2: `attacker` rested and attacks the opponent's `target`.
    AttackDeclared { seat: Seat, attacker: Circle, target: Circle },
    /// VG-BATTLE-3.
    Boosted { seat: Seat, booster: Circle },
    /// VG-BATTLE-5: a guardian called from the hand by the defender `seat`.
    GuardianCalled { seat: Seat, card: String },
    /// VG-BATTLE-6: the defender's rear-guard on `circle` intercepted.
    Intercepted { seat: Seat, circle: Circle },
    /// VG-BATTLE-7: the top card revealed and put into the hand.
    DriveChecked { seat: Seat, card: String },
    /// VG-BATTLE-11: the top card revealed and put into the damage zone.
    DamageChecked { seat: Seat, card: String },
    /// VG-TRIG: the last checked trigger resolved.
    TriggerResolved {
        seat: Seat,
        power_to: String,
        critical_to: Option<String>,
        drew: Option<String>,
        healed: Option<String>,
        stood: Option<String>,
    },
    /// VG-BATTLE-10: whether the attack hit (a hit rear-guard is retired by the fold).
    AttackResolved { hit: bool },
    /// VG-BATTLE-14: the battle ended; guardians and interceptors went to the drop zone.
    BattleEnded {},
    /// VG-WIN: `loser` lost (`null`: both lost at once and the game is a draw, VG-OPEN-4).
    GameEnded { loser: Option<Seat>, reason: LossReason },
    /// Escape hatch (digest §0.3): an effect moved a card to its owner's `to`.
    CardMoved { card: String, to: Place, cause: String },
    /// Escape hatch: an effect resolved with results the core rules cannot check.
    EffectResolved { source: String, description: String },
    /// Escape hatch: an effect changed a unit's power or critical.
    ModifierApplied { card: String, stat: Stat, delta: i32, until: Until },
    /// The client's manual operation (§4.2), as the client recorded it.
    Client { seat: Seat, op: ClientOp },
    /// VGC-UI-1: a chat message.
    ChatMessage { seat: Seat, text: String },
    /// VGC-SRV-2: a spectator started watching.
    SpectatorJoined { user: String },
    /// A spectator stopped watching.
    SpectatorLeft { user: String },
    /// Seeds, reveals, dice, random picks and the escape hatches, as every game records them
    /// (a die roll or a coin an effect asks for, a sealed choice). Vanguard's own events move its
    /// cards; the common escape hatches are recorded, not folded onto the board.
    Common(CommonEvent),
    /// VG-STAND-1 (rules version 4): the stand phase stood the turn player's rested `cards`
    /// (a locked card does nothing, VG-KW-2). Earlier versions stood them inside `TurnStarted`.
    UnitsStood { seat: Seat, cards: Vec<String> },
    /// The end phase's clean-up (rules version 4): `g_unit` returned face up to the G zone and
    /// the heart is the vanguard again (VG-STRIDE-4), the `seat`'s locked and deleted `flipped`
    /// cards turned face up (VG-END-4), and the until-end-of-turn modifiers of the `expired`
    /// units gone (VG-END-2). Earlier versions did all of it inside `PhaseEntered` of the end phase.
    TurnCleanedUp { seat: Seat, g_unit: Option<String>, flipped: Vec<String>, expired: Vec<String> },
    /// VG-BATTLE-10 (rules version 4): the defender `seat`'s rear-guard `card`, hit by the
    /// attack, retired to the drop zone. Earlier versions retired it inside `AttackResolved`.
    HitUnitRetired { seat: Seat, card: String },
    /// VG-BATTLE-14 (rules version 4): at the end of the battle `seat`'s guardians and
    /// interceptors (`cards`) went to the drop zone. Earlier versions moved them inside `BattleEnded`.
    GuardiansRetired { seat: Seat, cards: Vec<String> },
    /// VG-ZONE-5 (rules version 5): the unit `card` that stood on `seat`'s `circle` when a unit
    /// was called onto it went to the drop zone, after the call that displaced it. Earlier versions
    /// retired it inside the call (`Called`, `ForerunnerCalled`, `SuperiorCalled`, `CardMoved`).
    OccupantRetired { seat: Seat, card: String, circle: Circle },
    /// VG-STRIDE-2 (rules version 5): `seat`'s deleted vanguard (and a deleted legion mate), the
    /// heart(s) of the G unit just strode, turned face up (`cards`). Earlier versions turned them
    /// face up inside `Strode`.
    HeartTurnedFaceUp { seat: Seat, cards: Vec<String> },
    /// VG-KW-8 (rules version 5): the legion mate `card` that stood beside the vanguard a new
    /// vanguard rode upon went to the soul with its leader. Earlier versions moved it inside the ride.
    LegionMateMovedToSoul { seat: Seat, card: String },
}

impl VanguardEvent {
    /// The seat performing the event, for events that are one player's action.
    pub fn seat(&self) -> Option<Seat> {
        use VanguardEvent::*;
        match self {
            StartingVanguardSet { seat, .. }
            | DeckShuffled { seat, .. }
            | OpeningHandDrawn { seat, .. }
            | Redrawn { seat, .. }
            | TurnStarted { seat, .. }
            | PhaseEntered { seat, .. }
            | CardDrawn { seat, .. }
            | GradeAssisted { seat, .. }
            | Rode { seat, .. }
            | SuperiorRode { seat, .. }
            | ForerunnerCalled { seat, .. }
            | Strode { seat, .. }
            | Called { seat, .. }
            | SuperiorCalled { seat, .. }
            | RearGuardMoved { seat, .. }
            | LegionPerformed { seat, .. }
            | EffectActivated { seat, .. }
            | CounterBlasted { seat, .. }
            | SoulBlasted { seat, .. }
            | SoulCharged { seat, .. }
            | AttackDeclared { seat, .. }
            | Boosted { seat, .. }
            | GuardianCalled { seat, .. }
            | Intercepted { seat, .. }
            | DriveChecked { seat, .. }
            | DamageChecked { seat, .. }
            | TriggerResolved { seat, .. }
            | Client { seat, .. }
            | ChatMessage { seat, .. } => Some(*seat),
            FirstPlayerDetermined { .. }
            | VanguardsRevealed {}
            | AttackResolved { .. }
            | BattleEnded {}
            | GameEnded { .. }
            | CardMoved { .. }
            | EffectResolved { .. }
            | ModifierApplied { .. }
            | SpectatorJoined { .. }
            | SpectatorLeft { .. } => None,
            // Steps the rules leave no choice in: kifu records them, for no seat.
            UnitsStood { .. } | TurnCleanedUp { .. } | HitUnitRetired { .. } | GuardiansRetired { .. } => None,
            OccupantRetired { .. } | HeartTurnedFaceUp { .. } | LegionMateMovedToSoul { .. } => None,
            Common(c) => c.seat(),
        }
    }

    /// Whether the event moves the game on (rules version 5's steps left out are cited at it):
    /// all but table talk, the common events, the escape hatches and costs (an effect's records
    /// may come at any moment), and the end of the game.
    pub fn moves_on(&self) -> bool {
        use VanguardEvent::*;
        !(self.is_table_talk()
            || matches!(
                self,
                Common(_)
                    | EffectActivated { .. }
                    | EffectResolved { .. }
                    | ModifierApplied { .. }
                    | CardMoved { .. }
                    | CounterBlasted { .. }
                    | SoulBlasted { .. }
                    | SoulCharged { .. }
                    | GameEnded { .. }
            ))
    }

    /// Whether two of rules version 5's steps are the same step (the same kind), whatever they name.
    pub fn same_step(&self, other: &VanguardEvent) -> bool {
        use VanguardEvent::*;
        matches!(
            (self, other),
            (OccupantRetired { .. }, OccupantRetired { .. })
                | (HeartTurnedFaceUp { .. }, HeartTurnedFaceUp { .. })
                | (LegionMateMovedToSoul { .. }, LegionMateMovedToSoul { .. })
        )
    }

    /// Whether the event is talk around the table rather than play (it is allowed at any time).
    pub fn is_table_talk(&self) -> bool {
        matches!(
            self,
            VanguardEvent::ChatMessage { .. }
                | VanguardEvent::SpectatorJoined { .. }
                | VanguardEvent::SpectatorLeft { .. }
        )
    }
}
