//! The fold state (digest §1.22 "State the fold must track"): zones, statuses, counters, the battle and the result.
//!
//! Deliberately not serializable: it is not a format. The deck's order is unknown to the fold
//! (physical tables); the deck is tracked as the set of instances that may still be in it plus
//! an exact count, because a sealed draw removes *some* card whose identity is revealed later.

use std::collections::BTreeSet;
use std::sync::Arc;

use super::catalog::{CardDef, CardType};
use super::config::{NarutoConfig, Policies, ShuffleMode, TurnMarkerPolicy};
use super::events::{BlockingTeam, Duration, LinkKind, SentTeam, Stat, Step, Zone};
use crate::game::commit::CommitmentLedger;
use crate::game::{Outcome, Seat, Seats};

pub use crate::game::cards::Held;

/// The card definitions and the registered decks, shared by every state of a game.
pub type Cards = crate::game::cards::Cards<CardDef>;

/// What one player did this turn, for the per-turn limits (NAR §1.20).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TurnCounters {
    pub drew: bool,
    pub ninja_deployed: u32,
    pub missions: u32,
    pub counter_missions: u32,
    pub clients: u32,
    pub charged: u32,
    pub organized: bool,
}

/// One player's side.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlayerState {
    /// Instances that may still be in the deck (exact unless a sealed card left it unrevealed).
    pub deck: BTreeSet<String>,
    /// The exact number of cards in the deck.
    pub deck_count: usize,
    pub hand: Vec<Held>,
    /// Chakra, in the order cards arrived. Public (NAR-OPEN-23, see the view module).
    pub chakra: Vec<String>,
    /// Ninja, the client and permanent missions (NAR-ZONE-4); ninja on the battlefield are not here.
    pub village: Vec<String>,
    pub battlefield: Vec<String>,
    pub discard: Vec<String>,
    /// Battle rewards taken from the opponent's deck, face down (NAR-ZONE-1).
    pub rewards: Vec<Held>,
    /// Removed from the game, face down (NAR-ZONE-7).
    pub removed: Vec<Held>,
    pub marker: u32,
    pub marker_set: bool,
    /// Team composition from this player's last organization (NAR-TEAM-5).
    pub teams: Vec<Vec<String>>,
    pub mulligans: u8,
    /// Whether the current setup hand has been drawn.
    pub hand_drawn: bool,
    pub kept: bool,
    /// The current setup shuffle round (NAR-SETUP-2, NAR-MULL-1): by the owner, then by the opponent.
    pub shuffled_by_owner: bool,
    pub shuffled_by_opponent: bool,
    pub turn: TurnCounters,
}

impl PlayerState {
    /// Whether `card` is known to be in `zone` (for the deck: may still be in it).
    pub fn holds(&self, zone: Zone, card: &str) -> bool {
        let known = |v: &[Held]| v.iter().any(|h| h.known() == Some(card));
        let plain = |v: &[String]| v.iter().any(|c| c == card);
        match zone {
            Zone::Deck | Zone::DeckBottom | Zone::DeckSearch => self.deck.contains(card),
            Zone::Hand => known(&self.hand),
            Zone::Chakra => plain(&self.chakra),
            Zone::Village => plain(&self.village),
            Zone::Battlefield => plain(&self.battlefield),
            Zone::Discard => plain(&self.discard),
            Zone::Rewards => known(&self.rewards),
            Zone::Removed => known(&self.removed),
        }
    }

    /// Removes `card` from `zone`; returns whether it was there. The deck count drops either way
    /// for deck zones only when the card was a candidate.
    pub(crate) fn take(&mut self, zone: Zone, card: &str) -> bool {
        fn take_held(v: &mut Vec<Held>, card: &str) -> bool {
            match v.iter().position(|h| h.known() == Some(card)) {
                Some(i) => {
                    v.remove(i);
                    true
                }
                None => false,
            }
        }
        fn take_plain(v: &mut Vec<String>, card: &str) -> bool {
            match v.iter().position(|c| c == card) {
                Some(i) => {
                    v.remove(i);
                    true
                }
                None => false,
            }
        }
        match zone {
            Zone::Deck | Zone::DeckBottom | Zone::DeckSearch => {
                let was = self.deck.remove(card);
                if was {
                    self.deck_count = self.deck_count.saturating_sub(1);
                }
                was
            }
            Zone::Hand => take_held(&mut self.hand, card),
            Zone::Chakra => take_plain(&mut self.chakra, card),
            Zone::Village => take_plain(&mut self.village, card),
            Zone::Battlefield => take_plain(&mut self.battlefield, card),
            Zone::Discard => take_plain(&mut self.discard, card),
            Zone::Rewards => take_held(&mut self.rewards, card),
            Zone::Removed => take_held(&mut self.removed, card),
        }
    }

    pub(crate) fn put(&mut self, zone: Zone, card: &str) {
        let card = card.to_string();
        match zone {
            Zone::Deck | Zone::DeckBottom | Zone::DeckSearch => {
                if self.deck.insert(card) {
                    self.deck_count += 1;
                }
            }
            Zone::Hand => self.hand.push(Held::Known(card)),
            Zone::Chakra => self.chakra.push(card),
            Zone::Village => self.village.push(card),
            Zone::Battlefield => self.battlefield.push(card),
            Zone::Discard => self.discard.push(card),
            Zone::Rewards => self.rewards.push(Held::Known(card)),
            Zone::Removed => self.removed.push(Held::Known(card)),
        }
    }

    pub fn in_play(&self, card: &str) -> bool {
        self.holds(Zone::Village, card) || self.holds(Zone::Battlefield, card)
    }
}

/// A pending link of the chain (NAR-CHAIN; the mechanics are NAR-OPEN-16).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChainLink {
    pub seat: Seat,
    pub source: String,
    pub kind: LinkKind,
    pub description: String,
}

/// A played mission or a used jutsu between its play and its move to chakra (rules version 5,
/// NAR-MISSION-5, NAR-JUTSU-3): in no zone of the table, on the chain until the chain resolves
/// (NAR-CHAIN-2, NAR-CHAIN-3), then due to go to its player's chakra. Earlier versions put it
/// into chakra when it was played, so they never hold one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    pub seat: Seat,
    pub card: String,
    /// `Mission` or `Jutsu`: which step moves it (`MissionMovedToChakra`, `JutsuMovedToChakra`).
    pub kind: LinkKind,
    /// Its chain resolved: the move to chakra is due.
    pub resolved: bool,
    /// The game moved on without the move: cited once, at the event that moved on; the card
    /// stays where the table left it (off every zone) until a late move or an effect places it.
    pub left_out: bool,
}

/// A recorded modifier on a ninja's value (escape hatch; applies to power, NAR-POWER-2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Modifier {
    pub target: String,
    pub stat: Stat,
    pub delta: i32,
    pub duration: Duration,
}

/// This turn's battle: assignments are fixed once sent (NAR-ATK-4, NAR-BLK-2).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Battle {
    pub attacks: Vec<SentTeam>,
    pub blocks: Vec<BlockingTeam>,
    pub attack_sent: bool,
    pub block_sent: bool,
    /// Leaders of non-fighting teams that have taken their reward.
    pub rewarded: Vec<String>,
    /// (attacking leader, blocking leader) pairs whose fight was resolved.
    pub fought: Vec<(String, String)>,
}

impl Battle {
    /// Whether the attacking team led by `leader` is blocked (a fighting team, NAR-BSTAT-1).
    pub fn is_blocked(&self, leader: &str) -> bool {
        self.blocks.iter().any(|b| b.blocks == leader)
    }
}

/// The whole game state.
#[derive(Clone, Debug)]
pub struct NarutoState {
    pub cards: Arc<Cards>,
    pub names: Vec<String>,
    pub policies: Policies,
    pub shuffles: ShuffleMode,
    pub players: Seats<PlayerState>,
    pub shared_marker: u32,
    pub shared_marker_set: bool,
    pub step: Step,
    /// 0 during setup; the first turn is 1.
    pub turn: u32,
    pub attacker: Option<Seat>,
    pub lot_winner: Option<Seat>,
    /// The starting player (NAR-SETUP-3).
    pub first: Option<Seat>,
    pub chain: Vec<ChainLink>,
    /// Rules version 5: played missions and used jutsu not yet in chakra ([`Played`]).
    pub played: Vec<Played>,
    pub battle: Battle,
    /// Injured ninja (horizontal, NAR-DMG-2); everything else in play is healthy.
    pub injured: BTreeSet<String>,
    pub modifiers: Vec<Modifier>,
    pub result: Option<Outcome>,
    pub ledger: CommitmentLedger,
}

/// The ledger's name for a seat's deck.
pub fn deck_name(seat: Seat) -> String {
    format!("p{seat}-deck")
}

impl NarutoState {
    /// The initial state of a configuration (no checks; `Game::setup` checks first).
    pub fn new(config: &NarutoConfig) -> NarutoState {
        let c = config.v1();
        let defs = crate::game::catalog::by_id(&c.cards);
        let players = Seats::per_seat(&c.decks, |seat, deck| {
            let cards: BTreeSet<String> = (0..deck.len()).map(|i| super::config::instance_id(seat, i)).collect();
            PlayerState { deck_count: cards.len(), deck: cards, ..PlayerState::default() }
        });
        NarutoState {
            cards: Arc::new(Cards { defs, decks: c.decks.clone() }),
            names: c.players.clone(),
            policies: c.policies.clone(),
            shuffles: c.shuffles,
            players,
            shared_marker: 0,
            shared_marker_set: false,
            step: Step::Setup,
            turn: 0,
            attacker: None,
            lot_winner: None,
            first: None,
            chain: Vec::new(),
            played: Vec::new(),
            battle: Battle::default(),
            injured: BTreeSet::new(),
            modifiers: Vec::new(),
            result: None,
            ledger: CommitmentLedger::default(),
        }
    }

    pub fn def(&self, instance: &str) -> Option<&CardDef> {
        self.cards.def(instance)
    }

    pub fn kind(&self, instance: &str) -> Option<CardType> {
        self.def(instance).map(|d| d.kind)
    }

    pub fn name(&self, seat: Seat) -> String {
        crate::game::seat_name(&self.names, seat)
    }

    pub fn blocker(&self) -> Option<Seat> {
        self.attacker.map(crate::game::opponent)
    }

    /// The turn marker that applies to `seat`'s entry costs (NAR-COST-1 with NAR-OPEN-5).
    pub fn marker_for(&self, seat: Seat) -> u32 {
        match self.policies.turn_marker {
            TurnMarkerPolicy::PerPlayer => self.players.get(seat).map_or(0, |p| p.marker),
            TurnMarkerPolicy::Shared => self.shared_marker,
        }
    }

    /// The seat whose zones hold `card` in `zone`, if any.
    pub fn find(&self, card: &str) -> Option<(Seat, Zone)> {
        for (seat, p) in self.players.enumerate() {
            for z in Zone::HELD {
                if p.holds(z, card) {
                    return Some((seat, z));
                }
            }
        }
        None
    }

    /// The moves to chakra due now (rules version 5): each resolved mission and jutsu the game
    /// has not moved on without, in the order they joined the chain.
    pub fn chakra_due(&self) -> impl Iterator<Item = &Played> {
        self.played.iter().filter(|p| p.resolved && !p.left_out)
    }

    /// The played mission or used jutsu `card`, while it is in no zone (rules version 5).
    pub fn played(&self, card: &str) -> Option<&Played> {
        self.played.iter().find(|p| p.card == card)
    }

    /// The owner's village ninja grouped by the owner's last organization, dropping members no
    /// longer in the village (NAR-TEAM-5, NAR-OPEN-17).
    pub fn current_teams(&self, seat: Seat) -> Vec<Vec<String>> {
        let Some(p) = self.players.get(seat) else {
            return Vec::new();
        };
        p.teams
            .iter()
            .map(|t| t.iter().filter(|c| p.holds(Zone::Village, c)).cloned().collect::<Vec<_>>())
            .filter(|t: &Vec<String>| !t.is_empty())
            .collect()
    }

    /// Village ninja of `seat`.
    pub fn village_ninja(&self, seat: Seat) -> Vec<String> {
        self.players
            .get(seat)
            .map(|p| p.village.iter().filter(|c| self.kind(c) == Some(CardType::Ninja)).cloned().collect())
            .unwrap_or_default()
    }

    /// The sum of recorded modifiers on a ninja's value.
    pub fn modifier(&self, ninja: &str, stat: Stat) -> i32 {
        self.modifiers.iter().filter(|m| m.target == ninja && m.stat == stat).map(|m| m.delta).sum()
    }

    /// Whether the starting player's first turn is being played (NAR-TURN-5, NAR-DRAW-3).
    pub fn is_first_turn(&self) -> bool {
        self.turn == 1
    }

    /// Whether the blocker may still play a counter mission this turn under the
    /// `counter_missions` policy (so it may act in the attacker's mission step).
    pub fn counter_mission_open(&self) -> bool {
        use super::config::CounterMissionPolicy;
        let Some(attacker) = self.attacker else { return false };
        let blocker = self.players.get(crate::game::opponent(attacker));
        match self.policies.counter_missions {
            CounterMissionPolicy::OwnLimit => blocker.is_some_and(|b| b.turn.counter_missions == 0),
            CounterMissionPolicy::SharedLimit => {
                blocker.is_some_and(|b| b.turn.counter_missions == 0)
                    && self.players.get(attacker).is_some_and(|p| p.turn.missions == 0)
            }
            CounterMissionPolicy::Unlimited => blocker.is_some_and(|b| b.turn.counter_missions < 2),
        }
    }
}

impl crate::game::check::CardTable for NarutoState {
    type Def = CardDef;
    type Zone = Zone;
    const NOWHERE: &'static str = "its whereabouts are sealed";

    fn card_def(&self, card: &str) -> Option<&CardDef> {
        self.def(card)
    }

    fn card_in(&self, seat: Seat, zone: Zone, card: &str) -> bool {
        self.players.get(seat).is_some_and(|p| p.holds(zone, card))
    }

    fn card_at(&self, card: &str) -> Option<(Seat, Zone)> {
        self.find(card)
    }

    fn zone_name(zone: Zone) -> String {
        zone.name().to_string()
    }

    fn seat_name(&self, seat: Seat) -> String {
        self.name(seat)
    }
}
