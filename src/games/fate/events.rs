//! The FATE event vocabulary (digest §5.14): everything that can happen at the table, in the past tense.
//!
//! Stored format: [`FateEvent`] variants are only ever appended, never reordered or removed, and no
//! variant ever gains a field (postcard encodes variants by index and fields by position).
//!
//! Cards are named by instance id `p{seat}-{index}`. A card entering a hidden place (a hand, a
//! face-down Servant) is named openly or sealed with [`crate::game::commit::seal`]; views never show
//! a hidden card to anyone but those the digest allows (see [`super::view`]).

use serde::{Deserialize, Serialize};

use crate::game::commit::{Commitment, Secret};
pub use crate::game::common::CommonEvent;
use crate::game::Seat;

/// A card moving into a hidden place: named openly, or sealed (`seal(instance, salt)`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub enum CardRef {
    Open(String),
    Sealed(Commitment),
}

/// A face-down card turned face up: its instance, and the salt when it was set sealed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Unveiled {
    pub card: String,
    // `default` only: postcard is positional, so the field is always written.
    #[serde(default)]
    pub salt: Option<Secret>,
}

/// A Servant's face-down cards turned up in a battle's reveal process (FATE-BATTLE-1).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ServantUnveiled {
    pub seat: Seat,
    pub cards: Vec<Unveiled>,
}

/// The steps of a turn (FATE-TURN-1..7), plus the setup before the first turn and the pause between turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Step {
    Setup,
    /// Between turns: an Active Master handover or the next `TurnStarted`.
    TurnOver,
    Stand,
    Draw,
    Ritual,
    Encounter,
    /// The ritual step was not used: the Master may declare an assault (FATE-TURN-4).
    Declare,
    Battle,
    End,
    Over,
}

impl Step {
    pub fn name(self) -> &'static str {
        match self {
            Step::Setup => "setup",
            Step::TurnOver => "turn-over",
            Step::Stand => "stand",
            Step::Draw => "draw",
            Step::Ritual => "ritual",
            Step::Encounter => "encounter",
            Step::Declare => "declare",
            Step::Battle => "battle",
            Step::End => "end",
            Step::Over => "over",
        }
    }
}

/// The processes of a battle (FATE-BATTLE-1..9), in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Process {
    Reveal,
    Battle,
    Attack,
    Response,
    Wounding,
    Retreat,
}

impl Process {
    pub fn name(self) -> &'static str {
        match self {
            Process::Reveal => "reveal",
            Process::Battle => "battle",
            Process::Attack => "attack",
            Process::Response => "response",
            Process::Wounding => "wounding",
            Process::Retreat => "retreat",
        }
    }
}

/// Physical or magical (FATE-BATTLE-3, FATE-BATTLE-5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum AttackType {
    Physical,
    Magical,
}

/// A Servant's stat (FATE-OPEN-12).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Stat {
    PhysicalAttack,
    PhysicalDefense,
    MagicalAttack,
    MagicalDefense,
}

/// A card's state (FATE-STATE-1..4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum CardState {
    Standing,
    Resting,
    Danger,
    FaceDown,
}

impl CardState {
    pub fn name(self) -> &'static str {
        match self {
            CardState::Standing => "standing",
            CardState::Resting => "resting",
            CardState::Danger => "danger",
            CardState::FaceDown => "face-down",
        }
    }
}

/// One cost symbol as paid, in the order the card lists its costs (FATE-COST-5).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub enum Payment {
    /// T: the card being used went Resting.
    Tapped,
    /// R(n): these cards went Resting.
    Rested(Vec<String>),
    /// D(n): a die was rolled; its face is the [`CommonEvent::DieRolled`] recorded for it (the
    /// event's rolls, in order), so the value is stored once.
    Rolled,
    /// E(n): these cards were discarded from hand.
    Discarded(Vec<String>),
    /// X: what was paid, as stated (FATE-OPEN-6).
    XPaid(String),
}

/// The five uses of a Command Spell (FATE-CS-3).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub enum SpellUse {
    /// 1: restore one prana token.
    PranaRestored,
    /// 2: one stat of the Servant gets +(Secret Signs on the field) for the turn.
    StatRaised(Stat),
    /// 3: one special mark removed from the Master.
    MarkRemoved(String),
    /// 4: one of the Servant's text effects used without paying its cost (not an X cost).
    EffectUsedFree { card: String, effect: u8 },
    /// 5: the Servant stood up from Resting or Danger.
    ServantStood,
}

impl SpellUse {
    /// The option number of FATE-CS-3.
    pub fn option(&self) -> u8 {
        match self {
            SpellUse::PranaRestored => 1,
            SpellUse::StatRaised(_) => 2,
            SpellUse::MarkRemoved(_) => 3,
            SpellUse::EffectUsedFree { .. } => 4,
            SpellUse::ServantStood => 5,
        }
    }
}

/// Every FATE event, in the past tense.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub enum FateEvent {
    /// Setup: a Master's Servant (a Heroic Spirit and a Class card from the deck) was set face down.
    ServantSet { seat: Seat, heroic_spirit: CardRef, class: CardRef },
    /// Setup: a Master was dealt the opening hand (the `opening_hand` policy, FATE-OPEN-1).
    CardsDealt { seat: Seat, cards: Vec<CardRef> },
    /// The first Active Master was chosen at the deal (FATE-PHASE-1, FATE-OPEN-7).
    FirstActiveMasterChosen { seat: Seat },
    /// The Active Master handed the status to the next Master (FATE-PHASE-3/4); that Master's
    /// Servant in Danger became Resting.
    ActiveMasterHandedOver { from: Seat, to: Seat },
    /// A Master's turn began (FATE-PHASE-2, FATE-PHASE-5).
    TurnStarted { seat: Seat },
    /// Stand step: every Resting card of the Master stood up (FATE-TURN-1).
    CardsStood { seat: Seat },
    /// Draw step: one card drawn (FATE-TURN-2); `None` when the deck was empty.
    CardDrawn { seat: Seat, card: Option<CardRef> },
    /// Ritual step: a Secret Sign placed from hand, Standing (FATE-TURN-3).
    SecretSignPlaced { seat: Seat, card: String },
    /// Ritual step: the face-down Servant was revealed and two cards drawn (FATE-TURN-3).
    ServantRevealed { seat: Seat, cards: Vec<Unveiled>, drawn: Vec<CardRef> },
    /// The ritual step ended (FATE-TURN-4).
    RitualStepEnded { seat: Seat },
    /// Encounter step: the encounter die was rolled (FATE-TURN-5); its face is the
    /// [`CommonEvent::DieRolled`] recorded just before, so the value is stored once.
    EncounterRolled { seat: Seat },
    /// Encounter roll of 1: the Servant of `target` was the random Servant (FATE-TURN-5, FATE-OPEN-10).
    RandomServantSelected { seat: Seat, target: Seat },
    /// Battle step: an assault on Master `target` was declared (FATE-TURN-6).
    AssaultDeclared { seat: Seat, target: Seat },
    /// The Master declared no assault; the turn goes to the end step (FATE-TURN-4).
    BattleStepSkipped { seat: Seat },
    /// Reveal process: every face-down Servant card of the battle turned face up (FATE-BATTLE-1).
    BattleServantsRevealed { servants: Vec<ServantUnveiled> },
    /// The battle process (Substitute Battle and the like) was over (FATE-BATTLE-2).
    BattleProcessEnded,
    /// A side chose its attack type (FATE-BATTLE-3, FATE-BATTLE-5).
    AttackTypeChosen { seat: Seat, attack: AttackType },
    /// Damage dealt (FATE-BATTLE-4/6) and lost as prana (FATE-BATTLE-8); wounded Servants rested (FATE-BATTLE-9).
    DamageDealt { to_attacker: u32, to_responder: u32 },
    /// The winner took one card from the loser's hand (FATE-BATTLE-9); `index` is the position picked.
    CardTakenFromHand { winner: Seat, loser: Seat, index: u8, card: CardRef },
    /// The retreat process was over; the turn goes to the end step.
    BattleEnded,
    /// End step: discarded down to the hand limit (FATE-HAND-1).
    HandDiscarded { seat: Seat, cards: Vec<String> },
    /// The end step ended this Master's turn (FATE-TURN-7).
    TurnEnded { seat: Seat },
    /// An [Activated] effect was used, paying its costs left to right (FATE-COST, FATE-EFF).
    EffectActivated { seat: Seat, card: String, effect: u8, paid: Vec<Payment>, succeeded: bool },
    /// A Command Spell was used (FATE-CS-1..3).
    CommandSpellUsed { seat: Seat, spell: SpellUse },
    /// Escape hatch: a card effect changed a card's state (e.g. a Servant entering Danger, FATE-OPEN-3).
    CardStateChanged { card: String, state: CardState, note: String },
    /// Escape hatch: a card effect changed a Master's prana.
    PranaChanged { seat: Seat, delta: i32, note: String },
    /// Escape hatch: a card effect changed a Servant's stat until the end of the turn (FATE-EFF-5).
    StatModified { seat: Seat, stat: Stat, delta: i32, note: String },
    /// Escape hatch: a special mark was put on a Master (FATE-OPEN-17).
    SpecialMarkPlaced { seat: Seat, mark: String, note: String },
    /// Escape hatch: what an effect did, in words.
    EffectResolved { seat: Seat, card: String, note: String },
    /// Escape hatch: a Command Spell was lost other than by use (FATE-OPEN-15).
    CommandSpellLost { seat: Seat, note: String },
    /// A sealed hand card was shown (its seal opened), e.g. before a discard names it.
    CardRevealed { seat: Seat, commitment: Commitment, card: String, salt: Secret },
    /// What every game records the same way: the dice chains of a digital game (every Master
    /// commits to a hash chain at the deal and reveals a link before each random outcome), and
    /// every die roll, random Servant, blind pick and lot as a [`CommonEvent::DieRolled`] or
    /// [`CommonEvent::RandomPicked`], which the FATE event that acts on it must then match.
    Common(CommonEvent),
    /// Escape hatch: one card effect changed several Masters' prana at once (a drain on every
    /// Master, say). The changes are simultaneous: Masters it defeats fall together, so the last
    /// ones falling at once share the result instead of whoever was recorded first losing.
    PranaChangedTogether { changes: Vec<PranaChange>, note: String },
    /// Version 4, stand step: the Master's Resting cards stood up (FATE-TURN-1), each named: its
    /// Servant when `servant`, and these Secret Signs. Up to version 3 `CardsStood` named none.
    RestingCardsStood { seat: Seat, servant: bool, signs: Vec<String> },
    /// Version 4: the Servant of the Master who received the Active Master status turned from
    /// Danger to Resting (FATE-PHASE-3/4, FATE-STATE-6). Up to version 3 the handover did it.
    ServantLeftDanger { seat: Seat },
    /// Version 4, wounding process: each wounded side lost as many prana tokens as the damage it
    /// received, at once (FATE-BATTLE-8, FATE-BATTLE-10). Up to version 3 `DamageDealt` did it.
    PranaLost { losses: Vec<PranaLoss> },
    /// Version 4, retreat process: the wounded Servants went Resting (FATE-BATTLE-9). Up to
    /// version 3 `DamageDealt` did it.
    WoundedServantsRested { seats: Vec<Seat> },
    /// Version 4: the Servants whose Master's prana reached 0 entered Danger (`prana_zero=danger`,
    /// FATE-OPEN-13). Up to version 3 the event that took the last prana did it.
    ServantsEndangered { seats: Vec<Seat> },
    /// Version 4: these Masters were defeated, together: their third Command Spell was gone
    /// (FATE-WIN-1), or their prana reached 0 under `prana_zero=defeat` (FATE-OPEN-13). Up to
    /// version 3 the event that took the last spell or prana did it.
    MastersDefeated { seats: Vec<Seat>, reason: DefeatReason },
    /// Version 4: a defeated Active Master's status passed to the next living Master
    /// (FATE-PHASE-4). Up to version 3 the defeat did it.
    ActiveStatusPassed { from: Seat, to: Seat },
}

/// One wounded side's share of a [`FateEvent::PranaLost`].
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema)]
pub struct PranaLoss {
    pub seat: Seat,
    pub amount: u32,
}

/// Why a [`FateEvent::MastersDefeated`] defeated its Masters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum DefeatReason {
    /// The third Command Spell was spent or lost (FATE-WIN-1).
    CommandSpellsLost,
    /// The prana reached 0 under `prana_zero=defeat` (FATE-OPEN-13).
    PranaRanOut,
}

impl DefeatReason {
    /// The rule that defeats, and why, for the outcome and for findings.
    pub fn rule(self) -> (&'static str, &'static str) {
        match self {
            DefeatReason::CommandSpellsLost => ("FATE-WIN-1", "all three Command Spells lost"),
            DefeatReason::PranaRanOut => ("FATE-OPEN-13", "the Servant's prana reached 0"),
        }
    }
}

/// One Master's share of a [`FateEvent::PranaChangedTogether`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct PranaChange {
    pub seat: Seat,
    pub delta: i32,
}

/// The hash chain every Master of a digital game commits to (the key of its `ChainCommitted`).
pub const DICE_CHAIN: &str = "dice";

impl FateEvent {
    /// Whether the event moves the game on (rules version 4's steps left out are cited at it):
    /// all but a Command Spell, an activation, an escape hatch and a reveal, which may come at
    /// any moment (FATE-CS-1, FATE-EFF-4), and the common events.
    pub fn moves_on(&self) -> bool {
        use FateEvent::*;
        !matches!(
            self,
            CommandSpellUsed { .. }
                | EffectActivated { .. }
                | CardStateChanged { .. }
                | PranaChanged { .. }
                | StatModified { .. }
                | SpecialMarkPlaced { .. }
                | EffectResolved { .. }
                | CommandSpellLost { .. }
                | PranaChangedTogether { .. }
                | CardRevealed { .. }
                | Common(_)
        )
    }

    /// Whether two of rules version 4's steps are the same step (a defeat by the same reason),
    /// whatever they name.
    pub fn same_step(&self, other: &FateEvent) -> bool {
        match (self, other) {
            (FateEvent::MastersDefeated { reason: x, .. }, FateEvent::MastersDefeated { reason: y, .. }) => x == y,
            _ => std::mem::discriminant(self) == std::mem::discriminant(other),
        }
    }

    /// The seat performing the event, if a player performs it.
    pub fn seat(&self) -> Option<Seat> {
        use FateEvent::*;
        match self {
            ServantSet { seat, .. }
            | CardsDealt { seat, .. }
            | TurnStarted { seat }
            | CardsStood { seat }
            | CardDrawn { seat, .. }
            | SecretSignPlaced { seat, .. }
            | ServantRevealed { seat, .. }
            | RitualStepEnded { seat }
            | EncounterRolled { seat, .. }
            | RandomServantSelected { seat, .. }
            | AssaultDeclared { seat, .. }
            | BattleStepSkipped { seat }
            | AttackTypeChosen { seat, .. }
            | HandDiscarded { seat, .. }
            | TurnEnded { seat }
            | EffectActivated { seat, .. }
            | CommandSpellUsed { seat, .. }
            | CardRevealed { seat, .. }
            | RestingCardsStood { seat, .. } => Some(*seat),
            Common(c) => c.seat(),
            ActiveMasterHandedOver { from, .. } => Some(*from),
            CardTakenFromHand { winner, .. } => Some(*winner),
            FirstActiveMasterChosen { .. }
            | BattleServantsRevealed { .. }
            | BattleProcessEnded
            | DamageDealt { .. }
            | BattleEnded
            | CardStateChanged { .. }
            | PranaChanged { .. }
            | StatModified { .. }
            | SpecialMarkPlaced { .. }
            | EffectResolved { .. }
            | CommandSpellLost { .. }
            | PranaChangedTogether { .. }
            | ServantLeftDanger { .. }
            | PranaLost { .. }
            | WoundedServantsRested { .. }
            | ServantsEndangered { .. }
            | MastersDefeated { .. }
            | ActiveStatusPassed { .. } => None,
        }
    }
}
