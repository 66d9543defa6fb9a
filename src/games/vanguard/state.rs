//! The fold state (digest §4.5 "State"): every zone, every unit's status, per-turn and per-game
//! flags, the battle in progress, the last check, and the result.
//!
//! Deliberately not serializable: it is not a format. The deck's order is unknown to the fold
//! (players shuffle in the client and the log names each card that comes off the top), so a deck
//! is the set of instances in it.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use super::catalog::{CardDef, DeckList, TriggerType};
use super::config::{g_instance_id, instance_id, parse_instance, Policies, VanguardConfig};
use super::events::{Circle, Phase, Place};
use crate::game::commit::CommitmentLedger;
use crate::game::{Outcome, Seat, Seats};

/// The card definitions and the registered decks (main and G deck), shared by every state of a
/// game: the registry every game shares, over Vanguard's deck lists.
pub type Cards = crate::game::cards::Cards<CardDef, DeckList>;

/// An instance names its seat's main deck (`p{seat}-{index}`) or G deck (`p{seat}-g{index}`).
impl crate::game::cards::RegisteredDeck for DeckList {
    fn card_at(&self, index: &str) -> Option<&String> {
        match index.strip_prefix('g') {
            Some(i) => self.g.get(i.parse::<usize>().ok()?),
            None => self.main.get(index.parse::<usize>().ok()?),
        }
    }
}

/// A unit on a circle and its status (VG-KW-2, VG-KW-3, VGC-OP-12).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Unit {
    pub card: String,
    pub rested: bool,
    pub locked: bool,
    pub deleted: bool,
    /// The starting vanguard before the flip (VG-SETUP-1).
    pub face_down: bool,
    /// Until-end-of-turn power (triggers, VG-TRIG-1; the client's "add power").
    pub power_turn: i32,
    /// Until-end-of-battle power (recorded modifiers).
    pub power_battle: i32,
    pub crit_turn: i32,
    /// The client's "set power" (VGC-OP-12), replacing the printed power.
    pub power_set: Option<i32>,
}

impl Unit {
    pub fn new(card: &str) -> Unit {
        Unit { card: card.to_string(), ..Unit::default() }
    }
}

/// What one player did this turn or this game, for the limits of §4.3.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TurnFlags {
    pub drew: bool,
    pub rode: bool,
    pub strides: u32,
    pub grade_assists: u32,
    pub legions: u32,
    /// Drive checks left for the vanguard the client rested in this battle phase (VGC-OP-3).
    pub client_drives_left: u8,
}

/// Rules version 5's steps an event made due and no event has recorded yet (none under earlier
/// versions, whose fold does them inside the event). A step the table moved on without is owed no
/// more ([`VanguardState::settle`]): it is cited once, where the table moved on.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Owed {
    /// VG-ZONE-5: each unit a call displaced from its circle (seat, circle, card). It waits in no
    /// zone for `OccupantRetired`; left out, it stays there (kifu does not know where the table put it).
    pub occupants: Vec<(Seat, Circle, String)>,
    /// VG-STRIDE-2: the seat whose deleted heart(s) turn face up now that it strode.
    pub hearts: Option<Seat>,
    /// VG-KW-8: the seat whose legion mate goes to the soul now that a new vanguard rode.
    pub mate: Option<Seat>,
    /// VG-ZONE-5: the displaced occupants the table moved on without retiring (seat, circle,
    /// card), owed no more but in no zone, until an event puts the card somewhere. The rules never
    /// read it; the board shows them, so a judge sees the card the table lost track of.
    pub unretired: Vec<(Seat, Circle, String)>,
}

/// The end-of-turn clean-up due ([`VanguardState::cleanup_due`]), as `TurnCleanedUp` records it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cleanup {
    pub g_unit: Option<String>,
    pub flipped: Vec<String>,
    pub expired: Vec<String>,
}

impl Cleanup {
    pub fn is_empty(&self) -> bool {
        self.g_unit.is_none() && self.flipped.is_empty() && self.expired.is_empty()
    }
}

/// One player's side.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlayerState {
    pub deck: BTreeSet<String>,
    pub hand: Vec<String>,
    pub drop: Vec<String>,
    /// Damage cards and whether each is face up (VG-COST-3).
    pub damage: Vec<(String, bool)>,
    pub soul: Vec<String>,
    /// The vanguard (a legion's leader; under a G unit, the heart).
    pub vanguard: Option<Unit>,
    /// The legion mate (VG-KW-8).
    pub mate: Option<Unit>,
    /// A strode G unit on the vanguard circle (VG-STRIDE-2).
    pub g_unit: Option<Unit>,
    /// The heart that gives the G unit its name and power (VG-STRIDE-3).
    pub heart: Option<String>,
    pub rear: BTreeMap<Circle, Unit>,
    pub guardians: Vec<String>,
    /// G units and whether each is face up (VGC-UPD-1).
    pub g_zone: Vec<(String, bool)>,
    pub bind: Vec<String>,
    pub hand_drawn: bool,
    pub redrawn: bool,
    pub turn: TurnFlags,
    pub grade_assists_game: u32,
    pub legions_game: u32,
    /// Turns this player has started.
    pub turns_taken: u32,
}

impl PlayerState {
    pub fn damage_count(&self) -> usize {
        self.damage.len()
    }

    /// The unit on `circle` (the vanguard circle's top unit: a G unit if strode).
    pub fn on(&self, circle: Circle) -> Option<&Unit> {
        match circle {
            Circle::Vanguard => self.g_unit.as_ref().or(self.vanguard.as_ref()),
            c => self.rear.get(&c),
        }
    }

    /// The rested units the stand phase stands (VG-STAND-1): a locked card does nothing (VG-KW-2).
    pub fn to_stand(&self) -> Vec<String> {
        self.units().into_iter().filter(|(_, u)| u.rested && !u.locked).map(|(_, u)| u.card.clone()).collect()
    }

    /// Every unit on the field with its circle (the vanguard circle may hold several).
    pub fn units(&self) -> Vec<(Circle, &Unit)> {
        let mut out = Vec::new();
        for u in [&self.g_unit, &self.vanguard, &self.mate].into_iter().flatten() {
            out.push((Circle::Vanguard, u));
        }
        out.extend(self.rear.iter().map(|(c, u)| (*c, u)));
        out
    }

    pub fn units_mut(&mut self) -> Vec<&mut Unit> {
        let mut out: Vec<&mut Unit> = Vec::new();
        for u in [&mut self.g_unit, &mut self.vanguard, &mut self.mate].into_iter().flatten() {
            out.push(u);
        }
        out.extend(self.rear.values_mut());
        out
    }

    /// The circle a card stands on, if it is a unit on the field.
    pub fn circle_of(&self, card: &str) -> Option<Circle> {
        self.units().into_iter().find(|(_, u)| u.card == card).map(|(c, _)| c)
    }

    pub fn g_zone_face_up(&self) -> usize {
        self.g_zone.iter().filter(|(_, up)| *up).count()
    }
}

/// The attack in progress (VG-BATTLE).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attack {
    pub seat: Seat,
    pub attacker: Circle,
    pub target: Circle,
    pub booster: Option<Circle>,
    /// The booster's card, so a booster that left the field no longer counts (VG-BATTLE-4).
    pub booster_card: Option<String>,
    pub drives_done: u8,
    pub drives_total: u8,
    pub hit: Option<bool>,
    pub damage_left: u32,
}

/// The last revealed check card and what its trigger still owes (VG-BATTLE-8, VG-TRIG).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckState {
    pub seat: Seat,
    pub card: String,
    pub drive: bool,
    /// The trigger that activates (a trigger unit with the clan condition met), if any.
    pub trigger: Option<TriggerType>,
    /// Damage before the card was revealed: (the checking player's, the opponent's) (VG-TRIG-5).
    pub damage_before: (usize, usize),
    pub power_done: bool,
    pub extra_done: bool,
}

impl CheckState {
    /// Whether the trigger still owes its power (VG-BATTLE-8: resolve before the next check).
    pub fn open(&self) -> bool {
        self.trigger.is_some() && !self.power_done
    }

    /// Whether a heal this check allows is still to come (VG-BATTLE-13: the loss waits for it).
    pub fn heal_pending(&self) -> bool {
        !self.drive
            && self.trigger == Some(TriggerType::Heal)
            && self.damage_before.0 >= self.damage_before.1
            && !self.extra_done
    }
}

/// The whole game state.
#[derive(Clone, Debug)]
pub struct VanguardState {
    pub cards: Arc<Cards>,
    pub names: Vec<String>,
    pub policies: Policies,
    pub players: Seats<PlayerState>,
    /// The shared removed-from-game zone (VGC-UI-8), each card with the seat that put it there.
    pub removed: Vec<(String, Seat)>,
    pub phase: Phase,
    /// 0 during setup; the first turn is 1.
    pub turn: u32,
    pub active: Option<Seat>,
    pub first: Option<Seat>,
    pub revealed: bool,
    pub attack: Option<Attack>,
    pub check: Option<CheckState>,
    /// The unit just ridden upon this ride phase, for forerunner (VG-KW-1): (seat, card).
    pub ridden_upon: Option<(Seat, String)>,
    pub spectators: BTreeSet<String>,
    pub result: Option<Outcome>,
    pub ledger: CommitmentLedger,
    /// Rules version 5's steps owed (always empty under earlier versions).
    pub owed: Owed,
}

impl VanguardState {
    /// The initial state of a configuration (no checks; `Game::setup` checks first).
    pub fn new(config: &VanguardConfig) -> VanguardState {
        let c = config.v1();
        let defs = crate::game::catalog::by_id(&c.cards);
        let players = Seats::per_seat(&c.decks, |seat, deck| PlayerState {
            deck: (0..deck.main.len()).map(|i| instance_id(seat, i)).collect(),
            g_zone: (0..deck.g.len()).map(|i| (g_instance_id(seat, i), false)).collect(),
            ..PlayerState::default()
        });
        VanguardState {
            cards: Arc::new(Cards { defs, decks: c.decks.clone() }),
            names: c.players.clone(),
            policies: c.policies.clone(),
            players,
            removed: Vec::new(),
            phase: Phase::Setup,
            turn: 0,
            active: None,
            first: None,
            revealed: false,
            attack: None,
            check: None,
            ridden_upon: None,
            spectators: BTreeSet::new(),
            result: None,
            ledger: CommitmentLedger::default(),
            owed: Owed::default(),
        }
    }

    pub fn def(&self, instance: &str) -> Option<&CardDef> {
        self.cards.def(instance)
    }

    /// The defender's rear-guard an attack hit that is still on its circle (VG-BATTLE-10; rules
    /// version 4 records its retirement as `HitUnitRetired`): the seat and the card.
    pub fn hit_unit_due(&self) -> Option<(Seat, String)> {
        let a = self.attack.as_ref().filter(|a| a.hit == Some(true) && a.target != Circle::Vanguard)?;
        let defender = crate::game::opponent(a.seat);
        let unit = self.players.get(defender)?.rear.get(&a.target)?;
        Some((defender, unit.card.clone()))
    }

    /// The first seat with guardians or interceptors on its guardian circle, and those cards
    /// (VG-BATTLE-14; rules version 4 records their retirement as `GuardiansRetired`).
    pub fn guardians_due(&self) -> Option<(Seat, Vec<String>)> {
        self.players.enumerate().find(|(_, p)| !p.guardians.is_empty()).map(|(seat, p)| (seat, p.guardians.clone()))
    }

    /// What the end of `seat`'s turn does (rules version 4 records it as `TurnCleanedUp`): its G
    /// unit returns (VG-STRIDE-4), its locked and deleted cards turn face up (VG-END-4), and every
    /// unit's until-end-of-turn modifiers expire (VG-END-2).
    pub fn cleanup_due(&self, seat: Seat) -> Cleanup {
        let own = self.players.get(seat);
        let g_unit = own.and_then(|p| p.g_unit.as_ref()).map(|u| u.card.clone());
        let flipped = own.map_or_else(Vec::new, |p| {
            p.units().into_iter().filter(|(_, u)| u.locked || u.deleted).map(|(_, u)| u.card.clone()).collect()
        });
        let expired = self
            .players
            .iter()
            .flat_map(|p| p.units())
            .filter(|(_, u)| u.power_turn != 0 || u.crit_turn != 0)
            .map(|(_, u)| u.card.clone())
            .collect();
        Cleanup { g_unit, flipped, expired }
    }

    pub fn name(&self, seat: Seat) -> String {
        crate::game::seat_name(&self.names, seat)
    }

    /// The seat that owns an instance.
    pub fn owner(card: &str) -> Option<Seat> {
        parse_instance(card).map(|(s, _, _)| s)
    }

    /// Where a card is: the seat whose zone holds it and the place.
    pub fn find(&self, card: &str) -> Option<(Seat, Place)> {
        for (seat, p) in self.players.enumerate() {
            if let Some(c) = p.circle_of(card) {
                return Some((seat, Place::Circle(c)));
            }
            let place = if p.deck.contains(card) {
                Place::DeckSearch
            } else if p.hand.iter().any(|c| c == card) {
                Place::Hand
            } else if p.drop.iter().any(|c| c == card) {
                Place::Drop
            } else if p.damage.iter().any(|(c, _)| c == card) {
                Place::Damage
            } else if p.soul.iter().any(|c| c == card) {
                Place::Soul
            } else if p.g_zone.iter().any(|(c, _)| c == card) {
                Place::GZone
            } else if p.bind.iter().any(|c| c == card) {
                Place::Bind
            } else if p.guardians.iter().any(|c| c == card) {
                Place::Guardian
            } else {
                continue;
            };
            return Some((seat, place));
        }
        self.removed.iter().find(|(c, _)| c == card).map(|(_, s)| (*s, Place::Removed))
    }

    /// Whether `card` is in `seat`'s `place` (any deck place means "in the deck").
    pub fn holds(&self, seat: Seat, place: Place, card: &str) -> bool {
        match (self.find(card), place) {
            (Some((s, Place::DeckSearch)), Place::Deck | Place::DeckBottom | Place::DeckSearch) => s == seat,
            (Some((s, Place::Removed)), Place::Removed) => s == seat || Self::owner(card) == Some(seat),
            (Some((s, p)), want) => s == seat && p == want,
            (None, _) => false,
        }
    }

    /// The vanguard's grade (a G unit is grade 4, VG-STRIDE-6); `None` without a vanguard.
    pub fn vanguard_grade(&self, seat: Seat) -> Option<u8> {
        let p = self.players.get(seat)?;
        let top = p.g_unit.as_ref().or(p.vanguard.as_ref())?;
        self.def(&top.card).map(|d| d.grade)
    }

    /// A unit's own power: printed (0 if deleted, VG-KW-3; the client's set value) plus modifiers.
    pub fn unit_power(&self, u: &Unit) -> i32 {
        let base = if u.deleted { 0 } else { u.power_set.unwrap_or_else(|| self.def(&u.card).map_or(0, |d| d.power)) };
        base + u.power_turn + u.power_battle
    }

    /// The power of whatever stands on `circle`: a G unit adds its heart's power (VG-STRIDE-3),
    /// a legion adds its mate's (VG-KW-8).
    pub fn circle_power(&self, seat: Seat, circle: Circle) -> i32 {
        let Some(p) = self.players.get(seat) else { return 0 };
        if circle != Circle::Vanguard {
            return p.rear.get(&circle).map_or(0, |u| self.unit_power(u));
        }
        match &p.g_unit {
            Some(g) => {
                let heart = [&p.vanguard, &p.mate]
                    .into_iter()
                    .flatten()
                    .find(|u| Some(&u.card) == p.heart.as_ref())
                    .or(p.vanguard.as_ref());
                self.unit_power(g) + heart.map_or(0, |h| self.unit_power(h))
            }
            None => [&p.vanguard, &p.mate].into_iter().flatten().map(|u| self.unit_power(u)).sum(),
        }
    }

    /// The critical of whatever stands on `circle` (VG-CARD-10, VG-TRIG-4).
    pub fn circle_critical(&self, seat: Seat, circle: Circle) -> i32 {
        let Some(u) = self.players.get(seat).and_then(|p| p.on(circle)) else { return 0 };
        self.def(&u.card).map_or(1, |d| i32::try_from(d.critical).unwrap_or(1)) + u.crit_turn
    }

    /// The attack's current powers: (attacker with boost, defender with shields) (VG-BATTLE-10).
    pub fn battle_powers(&self) -> Option<(i32, i32)> {
        let a = self.attack.as_ref()?;
        let defender = crate::game::opponent(a.seat);
        let mut atk = self.circle_power(a.seat, a.attacker);
        if let (Some(b), Some(card)) = (a.booster, &a.booster_card) {
            // The boost counts only while the booster is still on its circle (VG-BATTLE-4).
            if let Some(u) = self.players.get(a.seat).and_then(|p| p.rear.get(&b)).filter(|u| &u.card == card) {
                atk += self.unit_power(u);
            }
        }
        let mut def = self.circle_power(defender, a.target);
        if let Some(p) = self.players.get(defender) {
            def += p.guardians.iter().map(|g| self.def(g).map_or(0, |d| d.shield)).sum::<i32>();
        }
        Some((atk, def))
    }

    /// The drive checks a vanguard gets: 1, 2 for grade 3 (Twin Drive), 3 for a G unit (VG-BATTLE-7).
    pub fn drive_count(&self, seat: Seat) -> u8 {
        let Some(p) = self.players.get(seat) else { return 0 };
        if p.g_unit.is_some() {
            return 3;
        }
        match self.vanguard_grade(seat) {
            Some(3) | Some(4) => 2,
            _ => 1,
        }
    }

    /// Whether `seat` has a unit of `clan` on the field (VG-BATTLE-9).
    pub fn has_clan_on_field(&self, seat: Seat, clan: &str) -> bool {
        self.players.get(seat).is_some_and(|p| {
            p.units().iter().any(|(_, u)| self.def(&u.card).is_some_and(|d| d.clan == clan && !clan.is_empty()))
        })
    }

    /// The trigger a checked card activates for `seat`, if it is a trigger unit and the clan
    /// condition holds (VG-BATTLE-9; for damage checks per policy, VG-OPEN-7).
    pub fn activating_trigger(&self, seat: Seat, card: &str, drive: bool) -> Option<TriggerType> {
        let def = self.def(card)?;
        let t = def.trigger?;
        let needs_clan = drive || self.policies.damage_check_clan;
        if needs_clan && !self.has_clan_on_field(seat, &def.clan) {
            return None;
        }
        Some(t)
    }

    /// The loss conditions that hold now (VG-WIN-2, VG-WIN-3), honouring the heal window of a
    /// damage check whose trigger has not resolved yet (VG-BATTLE-13).
    pub fn losses(&self) -> Vec<(Seat, super::events::LossReason)> {
        let mut out = Vec::new();
        if self.phase == Phase::Setup {
            return out;
        }
        for (seat, p) in self.players.enumerate() {
            let heal_window = self.check.as_ref().is_some_and(|c| c.seat == seat && c.heal_pending());
            if p.damage_count() >= 6 && !heal_window {
                out.push((seat, super::events::LossReason::SixDamage));
            } else if p.deck.is_empty() {
                out.push((seat, super::events::LossReason::DeckOut));
            }
        }
        out
    }

    /// Rules version 5's steps due now, first to record first: each displaced occupant's
    /// retirement (VG-ZONE-5), the heart(s) turned face up (VG-STRIDE-2), the legion mate moved
    /// to the soul (VG-KW-8). Each is due only while it changes something; none has a choice in it.
    pub fn owed_steps(&self) -> Vec<super::events::VanguardEvent> {
        use super::events::VanguardEvent as E;
        let mut out: Vec<E> = self
            .owed
            .occupants
            .iter()
            .map(|(seat, circle, card)| E::OccupantRetired { seat: *seat, card: card.clone(), circle: *circle })
            .collect();
        if let Some(seat) = self.owed.hearts {
            let cards = self.deleted_hearts(seat);
            if !cards.is_empty() {
                out.push(E::HeartTurnedFaceUp { seat, cards });
            }
        }
        if let Some((seat, mate)) = self.owed.mate.and_then(|x| Some((x, self.players.get(x)?.mate.as_ref()?))) {
            out.push(E::LegionMateMovedToSoul { seat, card: mate.card.clone() });
        }
        out
    }

    /// `seat`'s deleted units under its G unit: the heart(s) VG-STRIDE-2 turns face up.
    pub fn deleted_hearts(&self, seat: Seat) -> Vec<String> {
        let Some(p) = self.players.get(seat).filter(|p| p.g_unit.is_some()) else { return Vec::new() };
        [&p.vanguard, &p.mate].into_iter().flatten().filter(|u| u.deleted).map(|u| u.card.clone()).collect()
    }

    /// The owed steps `event` leaves out (rules version 5): those owed before it, when it moves
    /// the game on. A step is recorded in its turn, so the steps owed after it are not left out.
    pub fn left_out(&self, event: &super::events::VanguardEvent) -> Vec<super::events::VanguardEvent> {
        crate::game::rules::steps_owed_before(self.owed_steps(), event.moves_on(), |due| due.same_step(event))
    }

    /// Rules version 5: `step` is owed no more, because it was recorded or because the table
    /// moved on without it (cited once, where it did, `rules::steps_left_out`; the board then
    /// shows what the table left: a heart face down, a mate beside the new vanguard, a displaced
    /// occupant in no zone).
    pub(crate) fn settle(&mut self, step: &super::events::VanguardEvent) {
        use super::events::VanguardEvent as E;
        match step {
            E::OccupantRetired { card, .. } => self.owed.occupants.retain(|(_, _, c)| c != card),
            E::HeartTurnedFaceUp { .. } => self.owed.hearts = None,
            E::LegionMateMovedToSoul { .. } => self.owed.mate = None,
            _ => {}
        }
    }

    /// Rules version 5: the table moved on without `step`. It is settled (cited once, where the
    /// table moved on); a displaced occupant left unretired is remembered for the board.
    pub(crate) fn leave_out(&mut self, step: &super::events::VanguardEvent) {
        if let super::events::VanguardEvent::OccupantRetired { seat, card, circle } = step {
            self.owed.unretired.push((*seat, *circle, card.clone()));
        }
        self.settle(step);
    }

    /// Whether `seat`'s current turn is one in which attacks are forbidden (VG-SETUP-2, VG-OPEN-3).
    pub fn no_attack_turn(&self, seat: Seat) -> bool {
        let taken = self.players.get(seat).map_or(0, |p| p.turns_taken);
        match self.policies.first_turn_attack {
            super::config::FirstTurnAttack::FirstPlayerOnly => self.turn == 1,
            super::config::FirstTurnAttack::BothFirstTurns => taken <= 1,
        }
    }
}

impl crate::game::check::CardTable for VanguardState {
    type Def = CardDef;
    type Zone = Place;
    const NOWHERE: &'static str = "it is nowhere";

    fn card_def(&self, card: &str) -> Option<&CardDef> {
        self.def(card)
    }

    fn card_in(&self, seat: Seat, place: Place, card: &str) -> bool {
        self.holds(seat, place, card)
    }

    fn card_at(&self, card: &str) -> Option<(Seat, Place)> {
        self.find(card)
    }

    fn zone_name(place: Place) -> String {
        place.name()
    }

    fn seat_name(&self, seat: Seat) -> String {
        self.name(seat)
    }

    fn card_label(&self, card: &str) -> String {
        crate::game::catalog::instance_label(self.def(card), card)
    }
}
