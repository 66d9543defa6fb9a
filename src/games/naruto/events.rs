//! The Naruto event vocabulary (digest §1.22): everything that can happen at the table, in the past tense.
//!
//! Stored format: [`NarutoEvent`] variants are only ever appended, never reordered or removed,
//! and no variant ever gains a field (postcard encodes variants by index and fields by position).
//!
//! Cards are named by instance id, `p{seat}-{index}` (see [`super::config::instance_id`]). A card
//! entering a hidden zone (hand, battle rewards) may be named openly or sealed with
//! [`crate::game::commit::seal`]; a later card reveal opens the seal ([`NarutoEvent::CardRevealed`]
//! under rules version 1, the common `CardRevealed` of [`NarutoEvent::Common`] under version 2).
//! Teams are named by their leader's instance id.

use serde::{Deserialize, Serialize};

use crate::game::commit::{Commitment, Secret};
pub use crate::game::common::CommonEvent;
use crate::game::Seat;

/// A card moving into a hidden zone: named openly, or sealed (`seal(instance, salt)`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub enum CardRef {
    Open(String),
    Sealed(Commitment),
}

/// The steps of the game (NAR-TURN-1), in order. `TurnEnded` waits for the next `TurnStarted`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Step {
    /// Before the first turn (NAR-SETUP, NAR-MULL).
    Setup,
    /// Step A.
    Draw,
    /// Steps B, V, G, D in any order (NAR-TURN-4).
    Mission,
    /// Step E.
    Organization,
    /// Step Zh.
    Attack,
    /// Step Z.
    Block,
    /// Step I.
    Jutsu,
    /// Step K.
    Calculation,
    /// Step L.
    Return,
    /// Step M.
    Winner,
    /// Step N.
    HandCheck,
    /// Step O.
    Marker,
    /// The marker moved; the next turn has not started.
    TurnEnded,
}

impl Step {
    /// The stable lowercase name used by `position` and views.
    pub fn name(self) -> &'static str {
        match self {
            Step::Setup => "setup",
            Step::Draw => "draw",
            Step::Mission => "mission",
            Step::Organization => "organization",
            Step::Attack => "attack",
            Step::Block => "block",
            Step::Jutsu => "jutsu",
            Step::Calculation => "calculation",
            Step::Return => "return",
            Step::Winner => "winner",
            Step::HandCheck => "hand-check",
            Step::Marker => "turn-marker",
            Step::TurnEnded => "turn-end",
        }
    }

    /// The phase the step belongs to (NAR-TURN-3): start (A), mission (B–D), organization (E),
    /// battle (Zh–L), end (M–O).
    pub fn phase(self) -> &'static str {
        match self {
            Step::Setup => "setup",
            Step::Draw => "start",
            Step::Mission => "mission",
            Step::Organization => "organization",
            Step::Attack | Step::Block | Step::Jutsu | Step::Calculation | Step::Return => "battle",
            Step::Winner | Step::HandCheck | Step::Marker | Step::TurnEnded => "end",
        }
    }
}

/// Rock, paper or scissors.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Throw {
    Rock,
    Paper,
    Scissors,
}

impl Throw {
    pub fn beats(self, other: Throw) -> bool {
        matches!(
            (self, other),
            (Throw::Rock, Throw::Scissors) | (Throw::Paper, Throw::Rock) | (Throw::Scissors, Throw::Paper)
        )
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum CoinSide {
    Heads,
    Tails,
}

/// How the first-player lot was drawn, with its recorded outcome (NAR-SETUP-3).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub enum Lot {
    /// Every round's throws, `[seat 0, seat 1]`; all but the last are ties.
    RockPaperScissors { rounds: Vec<[Throw; 2]> },
    /// `caller` called `call`; the coin showed `result`.
    CoinToss { caller: Seat, call: CoinSide, result: CoinSide },
}

/// Where a deployed ninja came from (NAR-NINJA-3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum DeployFrom {
    Hand,
    Chakra,
}

/// What put a link on the chain (NAR-CHAIN).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum LinkKind {
    Mission,
    Jutsu,
    CardEffect,
}

/// A zone of one player's play area (NAR-ZONE). `Deck` means the top of the deck;
/// `DeckBottom` the bottom; `DeckSearch` anywhere in it (the deck's order is then unknown).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Zone {
    Deck,
    DeckBottom,
    DeckSearch,
    Hand,
    Chakra,
    Village,
    Battlefield,
    Discard,
    Rewards,
    Removed,
}

impl Zone {
    /// The zones a card can actually be in (the deck's bottom and "search" are ways into the deck).
    pub const HELD: [Zone; 8] = [
        Zone::Hand,
        Zone::Chakra,
        Zone::Village,
        Zone::Battlefield,
        Zone::Discard,
        Zone::Rewards,
        Zone::Removed,
        Zone::Deck,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Zone::Deck => "deck",
            Zone::DeckBottom => "deck-bottom",
            Zone::DeckSearch => "deck-search",
            Zone::Hand => "hand",
            Zone::Chakra => "chakra",
            Zone::Village => "village",
            Zone::Battlefield => "battlefield",
            Zone::Discard => "discard",
            Zone::Rewards => "rewards",
            Zone::Removed => "removed",
        }
    }
}

/// A zone of a given seat's area (a battle reward sits in the taker's area, not the owner's).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ZoneRef {
    pub seat: Seat,
    pub zone: Zone,
}

/// A ninja value a modifier changes (NAR-POWER-2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Stat {
    Attack,
    Support,
    MentalPower,
}

/// How long a modifier lasts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Duration {
    /// Until the next turn starts.
    EndOfTurn,
    /// Until the ninja leaves play.
    Permanent,
}

/// A team sent to the battlefield (NAR-ATK-3, NAR-BLK-2): its leader and supports.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct SentTeam {
    pub leader: String,
    pub supports: Vec<String>,
}

/// A blocking team and the attacking team (named by its leader) it blocks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct BlockingTeam {
    pub leader: String,
    pub supports: Vec<String>,
    pub blocks: String,
}

/// The outcome of one fight (NAR-RESULT-1), from the attacker's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum FightResult {
    AttackerVictory,
    AttackerCrushingVictory,
    BlockerVictory,
    BlockerCrushingVictory,
    Draw,
}

/// Damage one ninja took.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Damage {
    pub ninja: String,
    pub amount: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum WinReason {
    /// NAR-WIN-2: 10 or more battle rewards.
    Rewards,
    /// NAR-WIN-3: the loser's deck is empty.
    DeckOut,
}

/// Everything that can be recorded in a Naruto game.
///
/// Stored format: variants are only ever appended at the end, never reordered or removed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub enum NarutoEvent {
    /// NAR-SETUP-1: a turn marker was set; `seat` is `null` for the shared marker (NAR-OPEN-5).
    TurnMarkerSet {
        seat: Option<Seat>,
        value: u32,
    },
    /// A shuffle seed's commitment was published before the seed was used (digital games).
    SeedCommitted {
        key: String,
        commitment: Commitment,
    },
    /// `deck`'s owner's deck was shuffled by `by` (NAR-SETUP-2, NAR-MULL-1); `seed` names the committed seed of a digital shuffle.
    DeckShuffled {
        deck: Seat,
        by: Seat,
        seed: Option<String>,
    },
    /// NAR-SETUP-3: the lot for the first player, with its outcome.
    FirstPlayerLotDrawn {
        lot: Lot,
        winner: Seat,
    },
    /// NAR-SETUP-3: the lot winner chose who goes first.
    FirstPlayerChosen {
        chooser: Seat,
        first: Seat,
    },
    /// NAR-SETUP-4 / NAR-MULL: a hand of 6 (or 5, 4 after mulligans) drawn from the top of the deck.
    OpeningHandDrawn {
        seat: Seat,
        cards: Vec<CardRef>,
    },
    /// NAR-MULL-1/2: the hand went back into the deck; shuffles and a smaller hand follow.
    MulliganTaken {
        seat: Seat,
        attempt: u8,
    },
    HandKept {
        seat: Seat,
    },
    /// A turn began; `attacker` is the player whose turn it is (NAR-ROLE-2).
    TurnStarted {
        turn: u32,
        attacker: Seat,
    },
    /// Step A (NAR-DRAW-1).
    CardDrawn {
        seat: Seat,
        card: CardRef,
    },
    /// The game moved to step `to` (NAR-TURN-1).
    StepAdvanced {
        to: Step,
    },
    /// Step B (NAR-NINJA).
    NinjaDeployed {
        seat: Seat,
        card: String,
        from: DeployFrom,
        hand_cost_paid: Vec<String>,
    },
    /// Step V (NAR-MISSION); `counter` for the blocker's counter mission; `element` is the element chosen for a multi-element hand cost.
    MissionPlayed {
        seat: Seat,
        card: String,
        counter: bool,
        element: Option<String>,
        targets: Vec<String>,
        hand_cost_paid: Vec<String>,
    },
    /// A link joined the chain (NAR-CHAIN) other than by a mission or jutsu, which add their own.
    ChainLinkAdded {
        seat: Seat,
        source: String,
        kind: LinkKind,
        description: String,
    },
    /// The chain resolved; its effects are recorded as `EffectResolved` etc.
    ChainResolved {},
    /// Step G (NAR-CHAKRA-1).
    ChakraCharged {
        seat: Seat,
        cards: Vec<String>,
    },
    /// Step D (NAR-CLIENT).
    ClientDeployed {
        seat: Seat,
        card: String,
        element: Option<String>,
        hand_cost_paid: Vec<String>,
    },
    /// Step E (NAR-TEAM): the whole village's ninja, as teams.
    TeamsOrganized {
        seat: Seat,
        teams: Vec<Vec<String>>,
    },
    /// Step Zh (NAR-ATK); an empty list sends no team.
    AttackingTeamsSent {
        seat: Seat,
        teams: Vec<SentTeam>,
    },
    /// Step Z (NAR-BLK); an empty list blocks nothing.
    BlockingTeamsSent {
        seat: Seat,
        teams: Vec<BlockingTeam>,
    },
    /// Step I (NAR-JUTSU): `ninja` on the battlefield used jutsu `card`. `cost_paid` is recorded only (NAR-OPEN-9).
    JutsuUsed {
        seat: Seat,
        card: String,
        ninja: String,
        targets: Vec<String>,
        cost_paid: Vec<String>,
    },
    /// Step I ended; calculation follows.
    JutsuExchangeEnded {},
    /// Step K (NAR-REWARD): the non-fighting team led by `team` took `cards` from the top of the opponent's deck.
    BattleRewardTaken {
        seat: Seat,
        team: String,
        cards: Vec<CardRef>,
    },
    /// Step K (NAR-POWER, NAR-RESULT, NAR-DMG): the fight between the attacking team led by `attacker`
    /// and the blocking team led by `blocker`, with both powers, the result, the damage, and who was injured or defeated.
    FightResolved {
        attacker: String,
        blocker: String,
        mental: bool,
        attack_power: i32,
        block_power: i32,
        result: FightResult,
        damage: Vec<Damage>,
        injured: Vec<String>,
        defeated: Vec<String>,
    },
    /// Step L (NAR-RETURN): every team on the battlefield went back to its village.
    TeamsReturned {},
    /// Step M (NAR-WIN): the game is over.
    WinnerDetermined {
        winner: Seat,
        reason: WinReason,
    },
    /// Step N (NAR-HAND-1): the attacker discarded down to 6.
    HandCheckDiscard {
        seat: Seat,
        cards: Vec<String>,
    },
    /// Step O (NAR-MARKER-1): a turn marker moved to `value`; `seat` is `null` for the shared marker.
    TurnMarkerAdvanced {
        seat: Option<Seat>,
        value: u32,
    },
    /// A coin flip a card effect asked for (NAR-EQUIP-2).
    CoinFlipped {
        seat: Seat,
        result: CoinSide,
        purpose: String,
    },
    /// Escape hatch (digest §0.3): an effect moved a card.
    CardMoved {
        card: String,
        from: ZoneRef,
        to: ZoneRef,
        cause: String,
    },
    /// Escape hatch: an effect resolved with results the core rules cannot check.
    EffectResolved {
        source: String,
        description: String,
    },
    /// Escape hatch: an effect changed a ninja's value.
    ModifierApplied {
        target: String,
        stat: Stat,
        delta: i32,
        duration: Duration,
    },
    /// An effect injured a healthy ninja (NAR-DMG-2).
    NinjaInjured {
        ninja: String,
        cause: String,
    },
    /// An effect defeated a ninja; it goes to the discard (NAR-DMG-3).
    NinjaDefeated {
        ninja: String,
        cause: String,
    },
    /// A "heal" effect turned an injured ninja healthy (NAR-DMG-5).
    NinjaHealed {
        ninja: String,
        cause: String,
    },
    /// A committed seed was revealed (after the game, so the audit can check every seeded shuffle).
    SeedRevealed {
        key: String,
        seed: Secret,
    },
    /// A sealed card's identity was revealed, with the salt that proves it.
    CardRevealed {
        commitment: Commitment,
        instance: String,
        salt: Secret,
    },
    /// Seeds, reveals, dice and the escape hatches, as every game records them. Rules version 2
    /// records its seeds here (`SeedCommitted`, `SeedRevealed` with `seat: null` for the
    /// dealer's); version 1's `SeedCommitted`, `SeedRevealed` and `CardRevealed` above stay
    /// readable, and mean what their common counterparts mean.
    Common(CommonEvent),
    /// NAR-MISSION-5, NAR-COST-5 (rules version 5): the mission `card` that `seat` played went to
    /// `seat`'s chakra once its chain resolved, whether or not its effect was applied; not a
    /// chakra charge (NAR-CHAKRA-3). Earlier versions moved it inside `MissionPlayed`. A
    /// permanent mission has no such step: it stays in the village (NAR-MISSION-6).
    MissionMovedToChakra {
        seat: Seat,
        card: String,
    },
    /// NAR-JUTSU-3, NAR-ZONE-3, NAR-COST-5 (rules version 5): the jutsu `card` that `seat` used
    /// went to `seat`'s chakra once its chain resolved (NAR-CHAIN-3, NAR-JUTSU-2). Earlier
    /// versions moved it inside `JutsuUsed`.
    JutsuMovedToChakra {
        seat: Seat,
        card: String,
    },
}

impl NarutoEvent {
    /// The seat performing the event, for events that are one player's action.
    pub fn seat(&self) -> Option<Seat> {
        use NarutoEvent::*;
        match self {
            OpeningHandDrawn { seat, .. }
            | MulliganTaken { seat, .. }
            | HandKept { seat }
            | CardDrawn { seat, .. }
            | NinjaDeployed { seat, .. }
            | MissionPlayed { seat, .. }
            | ChainLinkAdded { seat, .. }
            | ChakraCharged { seat, .. }
            | ClientDeployed { seat, .. }
            | TeamsOrganized { seat, .. }
            | AttackingTeamsSent { seat, .. }
            | BlockingTeamsSent { seat, .. }
            | JutsuUsed { seat, .. }
            | BattleRewardTaken { seat, .. }
            | HandCheckDiscard { seat, .. }
            | CoinFlipped { seat, .. } => Some(*seat),
            DeckShuffled { by, .. } => Some(*by),
            FirstPlayerChosen { chooser, .. } => Some(*chooser),
            TurnStarted { attacker, .. } => Some(*attacker),
            TurnMarkerAdvanced { seat, .. } | TurnMarkerSet { seat, .. } => *seat,
            SeedCommitted { .. }
            | FirstPlayerLotDrawn { .. }
            | StepAdvanced { .. }
            | ChainResolved {}
            | JutsuExchangeEnded {}
            | FightResolved { .. }
            | TeamsReturned {}
            | WinnerDetermined { .. }
            | CardMoved { .. }
            | EffectResolved { .. }
            | ModifierApplied { .. }
            | NinjaInjured { .. }
            | NinjaDefeated { .. }
            | NinjaHealed { .. }
            | SeedRevealed { .. }
            | CardRevealed { .. } => None,
            // Steps the rules leave no choice in: kifu records them, for no seat.
            MissionMovedToChakra { .. } | JutsuMovedToChakra { .. } => None,
            Common(c) => c.seat(),
        }
    }

    /// The common event this one is or means: version 1's own `SeedCommitted` and `SeedRevealed`
    /// are the dealer's seed (`seat: None`), its `CardRevealed` is revealed by the card's owner.
    /// `None` for Naruto's own events. The fold and the descriptions go through it, so both
    /// shapes share one code path.
    pub fn as_common(&self) -> Option<CommonEvent> {
        match self {
            NarutoEvent::SeedCommitted { key, commitment } => {
                Some(CommonEvent::SeedCommitted { key: key.clone(), seat: None, commitment: *commitment })
            }
            NarutoEvent::SeedRevealed { key, seed } => {
                Some(CommonEvent::SeedRevealed { key: key.clone(), seat: None, seed: *seed })
            }
            NarutoEvent::CardRevealed { commitment, instance, salt } => Some(CommonEvent::CardRevealed {
                seat: crate::game::cards::parse_instance(instance).map_or(0, |(seat, _)| seat),
                commitment: *commitment,
                card: instance.clone(),
                salt: *salt,
            }),
            NarutoEvent::Common(c) => Some(c.clone()),
            _ => None,
        }
    }

    /// The event as rules version 2 records it: version 1's own seed events become the common
    /// ones they mean; every other event is unchanged. The agent plays one game for both
    /// versions, and version 2 records it through this.
    pub fn in_common_shape(self) -> NarutoEvent {
        match self {
            NarutoEvent::SeedCommitted { .. } | NarutoEvent::SeedRevealed { .. } => {
                self.as_common().map_or(self, NarutoEvent::Common)
            }
            other => other,
        }
    }

    /// Whether the event moves the game on past the moves to chakra due (rules version 5): anything
    /// but those moves and the records of what the chain's effects did ([`Self::records_an_effect`]).
    pub fn moves_on(&self) -> bool {
        !self.records_an_effect()
            && !matches!(self, NarutoEvent::MissionMovedToChakra { .. } | NarutoEvent::JutsuMovedToChakra { .. })
    }

    /// Whether the event records what a resolved chain's effects did, or a reveal, rather than
    /// moving the game on: it may come between a chain's resolution and the moves to chakra that
    /// follow it (rules version 5) without leaving those out. The effects of a chain are recorded
    /// after its `ChainResolved` (the escape hatches, the damage an effect dealt, a coin it asked
    /// for), and a seed, reveal or die can be recorded at any moment.
    pub fn records_an_effect(&self) -> bool {
        use NarutoEvent::*;
        matches!(
            self,
            CoinFlipped { .. }
                | CardMoved { .. }
                | EffectResolved { .. }
                | ModifierApplied { .. }
                | NinjaInjured { .. }
                | NinjaDefeated { .. }
                | NinjaHealed { .. }
                | SeedCommitted { .. }
                | SeedRevealed { .. }
                | CardRevealed { .. }
                | Common(_)
        )
    }

    /// Whether the event may follow the end of the game (NAR-ROLE-6): a seed or a card reveal,
    /// in either shape.
    pub fn is_reveal(&self) -> bool {
        matches!(
            self,
            NarutoEvent::SeedRevealed { .. }
                | NarutoEvent::CardRevealed { .. }
                | NarutoEvent::Common(CommonEvent::SeedRevealed { .. } | CommonEvent::CardRevealed { .. })
        )
    }
}
