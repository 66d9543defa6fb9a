//! The fold state (digest §3.14 "State"): per player the hand, Draw Pile, Dead Zone, the three
//! lines with their per-card flags, Combat Points and line points; globally the round, the turn,
//! the pending attack and the result.
//!
//! Deliberately not serializable: it is not a format. The Draw Pile's order is unknown to the fold
//! (physical tables); it is tracked as the set of instances that may still be in it plus an exact
//! count, because a sealed draw removes *some* card whose identity is revealed later.

use std::collections::BTreeSet;
use std::sync::Arc;

use super::catalog::{CardDef, CardKind};
use super::config::{parse_instance, LcConfig, OpeningRounds, Policies, RoundKind, ShuffleMode};
use super::events::{Duration, EndReason, Line, Stat, Zone};
use crate::game::commit::CommitmentLedger;
use crate::game::{Outcome, Seat, Seats};

pub use crate::game::cards::Held;

/// The card definitions and the registered decks, shared by every state of a game.
pub type Cards = crate::game::cards::Cards<CardDef>;

/// A card in a slot of a line, with what is attached to it and its per-round flags (LC-MOVE-3).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FieldCard {
    pub card: String,
    pub face_down: bool,
    /// Equipment and Effect cards attached to it (LC-CARD-2).
    pub attachments: Vec<String>,
    /// It attacked this round: it cannot move back to Defense (LC-MOVE-1).
    pub attacked: bool,
    /// It moved in from the Defense Line this round: it cannot attack (LC-MOVE-2).
    pub from_defense: bool,
}

/// One player's area and counters.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlayerState {
    /// The instances that may still be in the Draw Pile.
    pub pile: BTreeSet<String>,
    /// The exact number of cards in the Draw Pile.
    pub pile_count: usize,
    pub hand: Vec<Held>,
    pub attack: Vec<FieldCard>,
    pub defense: Vec<FieldCard>,
    pub strategy: Vec<FieldCard>,
    pub dead: Vec<String>,
    pub points: i32,
    pub attack_points: u32,
    pub defense_points: u32,
    pub shuffled: bool,
    pub hand_drawn: bool,
    /// A Direct Attack was made this round (LC-DIRECT-3).
    pub direct_used: bool,
}

impl PlayerState {
    pub fn line(&self, line: Line) -> &Vec<FieldCard> {
        match line {
            Line::Attack => &self.attack,
            Line::Defense => &self.defense,
            Line::Strategy => &self.strategy,
        }
    }

    pub fn line_mut(&mut self, line: Line) -> &mut Vec<FieldCard> {
        match line {
            Line::Attack => &mut self.attack,
            Line::Defense => &mut self.defense,
            Line::Strategy => &mut self.strategy,
        }
    }

    /// The line and slot of a field card.
    pub fn find(&self, card: &str) -> Option<(Line, usize)> {
        Line::ALL.into_iter().find_map(|l| self.line(l).iter().position(|f| f.card == card).map(|i| (l, i)))
    }

    pub fn field_card(&self, card: &str) -> Option<&FieldCard> {
        self.find(card).and_then(|(l, i)| self.line(l).get(i))
    }

    pub fn field_card_mut(&mut self, card: &str) -> Option<&mut FieldCard> {
        let (l, i) = self.find(card)?;
        self.line_mut(l).get_mut(i)
    }

    /// The host a card is attached to, if it is an attachment.
    pub fn host_of(&self, card: &str) -> Option<&str> {
        Line::ALL
            .into_iter()
            .flat_map(|l| self.line(l).iter())
            .find(|f| f.attachments.iter().any(|a| a == card))
            .map(|f| f.card.as_str())
    }

    pub fn known_in_hand(&self, card: &str) -> bool {
        self.hand.iter().any(|h| h.known() == Some(card))
    }

    /// Whether `card` may be in the hand: named there, or possibly one of its sealed cards.
    pub fn may_hold(&self, card: &str) -> bool {
        self.known_in_hand(card) || (self.hand.iter().any(|h| h.known().is_none()) && self.pile.contains(card))
    }

    /// Whether `card` is in `zone` (for the Draw Pile and a hand holding sealed cards: may be).
    pub fn holds(&self, zone: Zone, card: &str) -> bool {
        match zone {
            Zone::DrawPile | Zone::DrawPileBottom => self.pile.contains(card),
            Zone::Hand => self.may_hold(card),
            Zone::DeadZone => self.dead.iter().any(|c| c == card),
            Zone::Attack | Zone::Defense | Zone::Strategy => {
                self.find(card).is_some_and(|(l, _)| Some(l) == zone.line())
            }
        }
    }

    pub fn line_points(&self, line: Line) -> Option<u32> {
        match line {
            Line::Attack => Some(self.attack_points),
            Line::Defense => Some(self.defense_points),
            Line::Strategy => None,
        }
    }
}

/// The turn in progress and what happened in it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Turn {
    pub seat: Seat,
    /// Anything but a full discard was done (LC-DISCARD-1: a full discard opens the turn).
    pub acted: bool,
    pub discarded: bool,
    /// Cards put onto the field from the hand this turn (LC-REFILL-1).
    pub put_down: u32,
    /// An attack was declared this turn (putting down comes first, LC-ROUND-2).
    pub attacked: bool,
    pub refilled: bool,
}

/// An attack declared and not yet resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PendingAttack {
    pub seat: Seat,
    pub attacker: String,
    /// The confronted card; `None` for a Direct Attack.
    pub target: Option<String>,
    /// The Protection card the defender used (LC-PROT).
    pub protection: Option<String>,
}

/// A Sword or Shield change recorded by an effect.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Modifier {
    pub target: String,
    pub stat: Stat,
    pub delta: i32,
    pub duration: Duration,
}

/// The whole fold state.
#[derive(Clone, Debug)]
pub struct LcState {
    pub cards: Arc<Cards>,
    pub names: Vec<String>,
    pub policies: Policies,
    pub shuffles: ShuffleMode,
    pub players: Seats<PlayerState>,
    pub first: Option<Seat>,
    /// The current (or last) round; 0 before the first.
    pub round: u32,
    /// Who takes the first turn of the current round.
    pub round_first: Seat,
    /// Turns started so far in the whole game.
    pub turn_no: u32,
    /// Turns finished in the current round.
    pub turns_done: u32,
    pub turn: Option<Turn>,
    pub attack: Option<PendingAttack>,
    pub modifiers: Vec<Modifier>,
    /// Why the game ended, as recorded.
    pub ended: Option<EndReason>,
    pub result: Option<Outcome>,
    pub ledger: CommitmentLedger,
}

/// The ledger's name for a seat's Draw Pile.
pub fn pile_name(seat: Seat) -> String {
    format!("p{seat}-pile")
}

impl LcState {
    /// The initial state of a configuration (no checks; `Game::setup` checks first).
    pub fn new(config: &LcConfig) -> LcState {
        let c = config.v1();
        let defs = crate::game::catalog::by_id(&c.cards);
        let p = &c.policies;
        let points = i32::try_from(p.combat_points).unwrap_or(i32::MAX);
        let players = Seats::per_seat(&c.decks, |seat, deck| {
            let pile: BTreeSet<String> = (0..deck.len()).map(|i| super::config::instance_id(seat, i)).collect();
            PlayerState {
                pile_count: pile.len(),
                pile,
                points,
                attack_points: p.line_points,
                defense_points: p.line_points,
                ..PlayerState::default()
            }
        });
        LcState {
            cards: Arc::new(Cards { defs, decks: c.decks.clone() }),
            names: c.players.clone(),
            policies: c.policies.clone(),
            shuffles: c.shuffles,
            players,
            first: None,
            round: 0,
            round_first: 0,
            turn_no: 0,
            turns_done: 0,
            turn: None,
            attack: None,
            modifiers: Vec::new(),
            ended: None,
            result: None,
            ledger: CommitmentLedger::default(),
        }
    }

    pub fn def(&self, instance: &str) -> Option<&CardDef> {
        self.cards.def(instance)
    }

    pub fn kind(&self, instance: &str) -> Option<CardKind> {
        self.def(instance).map(|d| d.kind)
    }

    pub fn name(&self, seat: Seat) -> String {
        crate::game::seat_name(&self.names, seat)
    }

    /// The owner of a card instance, from its id.
    pub fn owner(card: &str) -> Option<Seat> {
        parse_instance(card).map(|(s, _)| s)
    }

    /// Where a field card lies: its seat, line and slot.
    pub fn on_field(&self, card: &str) -> Option<(Seat, Line, usize)> {
        self.players.enumerate().find_map(|(seat, p)| p.find(card).map(|(l, at)| (seat, l, at)))
    }

    pub fn field_card(&self, card: &str) -> Option<&FieldCard> {
        let (seat, line, i) = self.on_field(card)?;
        self.players.get(seat)?.line(line).get(i)
    }

    /// The first round the record has: 1, or 4 when the record starts at the Combat Phase (LC-OPEN-1).
    pub fn first_round(&self) -> u32 {
        if self.policies.opening_rounds == OpeningRounds::Placement {
            1
        } else {
            4
        }
    }

    /// LC-ROUND-1: the 4th round on is the Combat Phase.
    pub fn combat_phase(&self) -> bool {
        self.round >= 4
    }

    /// Turns in one round (LC-OPEN-3).
    pub fn turns_per_round(&self) -> u32 {
        if self.policies.round == RoundKind::BothTurns {
            2
        } else {
            1
        }
    }

    /// A round is under way (started and not all its turns passed).
    pub fn in_round(&self) -> bool {
        self.round > 0 && self.turns_done < self.turns_per_round()
    }

    /// The seat whose turn it is.
    pub fn active(&self) -> Option<Seat> {
        self.turn.as_ref().map(|t| t.seat)
    }

    /// A card's Sword or Shield: its printed value, what is attached to it (LC-CARD-2) and the
    /// recorded modifiers.
    pub fn value(&self, card: &str, stat: Stat) -> i32 {
        let pick = |d: &CardDef| if stat == Stat::Sword { d.sword } else { d.shield };
        let mut v = self.def(card).map_or(0, pick);
        if let Some(f) = self.field_card(card) {
            v += f.attachments.iter().filter_map(|a| self.def(a)).map(pick).sum::<i32>();
        }
        v + self.modifiers.iter().filter(|m| m.target == card && m.stat == stat).map(|m| m.delta).sum::<i32>()
    }

    /// The end the board calls for, if any: a player at zero (LC-END-1 a, LC-END-4: ≤ 0 is zero)
    /// or both (LC-END-2).
    pub fn points_end(&self) -> Option<EndReason> {
        let zero = self.players.iter().filter(|p| p.points <= 0).count();
        match zero {
            0 => None,
            1 => Some(EndReason::ZeroPoints),
            _ => Some(EndReason::BothZero),
        }
    }

    /// LC-END-1 (b): between rounds (or before the first), some Draw Pile is empty.
    pub fn pile_end(&self) -> bool {
        let setup_done = self.players.iter().all(|p| p.hand_drawn) && self.first.is_some();
        setup_done && !self.in_round() && self.players.iter().any(|p| p.pile_count == 0)
    }

    /// The winners the rules give for an end (LC-END-3, LC-OPEN-13).
    pub fn winners_for(&self, reason: EndReason) -> Vec<Seat> {
        let seats = || self.players.seats();
        match reason {
            EndReason::BothZero => Vec::new(),
            EndReason::ZeroPoints => seats().filter(|&s| self.players.get(s).is_some_and(|p| p.points > 0)).collect(),
            EndReason::EmptyDrawPile => match self.policies.empty_pile_winner {
                super::config::EmptyPileWinner::Draw => Vec::new(),
                super::config::EmptyPileWinner::OtherPlayer => {
                    let alive: Vec<Seat> =
                        seats().filter(|&s| self.players.get(s).is_some_and(|p| p.pile_count > 0)).collect();
                    if alive.len() == 1 {
                        alive
                    } else {
                        Vec::new()
                    }
                }
                super::config::EmptyPileWinner::MorePoints => {
                    let best = self.players.iter().map(|p| p.points).max().unwrap_or(0);
                    let top: Vec<Seat> =
                        seats().filter(|&s| self.players.get(s).is_some_and(|p| p.points == best)).collect();
                    if top.len() == 1 {
                        top
                    } else {
                        Vec::new()
                    }
                }
            },
        }
    }

    /// How many cards the refill should draw now (LC-REFILL-1, LC-OPEN-11), bounded by the pile.
    pub fn refill_due(&self, seat: Seat) -> usize {
        let Some(p) = self.players.get(seat) else { return 0 };
        let want = if self.policies.refill_put_down_count {
            self.turn.as_ref().filter(|t| t.seat == seat).map_or(0, |t| t.put_down as usize)
        } else {
            super::catalog::HAND_SIZE.saturating_sub(p.hand.len())
        };
        want.min(p.pile_count)
    }
}

impl crate::game::check::CardTable for LcState {
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
        // Field and dead cards first: a hand with sealed cards "may hold" any card of the pile.
        const ORDER: [Zone; 6] =
            [Zone::Attack, Zone::Defense, Zone::Strategy, Zone::DeadZone, Zone::Hand, Zone::DrawPile];
        ORDER
            .into_iter()
            .find_map(|z| self.players.enumerate().find(|(_, p)| p.holds(z, card)).map(|(seat, _)| (seat, z)))
    }

    fn zone_name(zone: Zone) -> String {
        zone.name().to_string()
    }

    fn seat_name(&self, seat: Seat) -> String {
        self.name(seat)
    }
}
