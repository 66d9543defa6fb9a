//! The fold state (digest §5.14 "State"): each Master's deck, hand, Servant, Secret Signs, prana,
//! Command Spells and marks; the Active Master, the turn order, the current step and battle; the
//! order of defeats.
//!
//! Deliberately not serializable: it is not a format. Deck order is unknown to the fold (physical
//! dealing): the deck is the set of instances that may still be in it plus an exact count.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use super::catalog::{CardDef, CardType};
use super::config::{parse_instance, FateConfig, GameEnd, Policies, Seating, TurnOrder};
use super::events::{AttackType, CardRef, DefeatReason, FateEvent, PranaLoss, Process, Stat, Step};
use crate::game::commit::{Commitment, CommitmentLedger};
use crate::game::{Outcome, Seat, Seats};

pub use crate::game::cards::Held;

/// A card as an event names it: known, or sealed until revealed.
pub fn held_ref(r: &CardRef) -> Held {
    match r {
        CardRef::Open(c) => Held::Known(c.clone()),
        CardRef::Sealed(c) => Held::Sealed(*c),
    }
}

/// The faces of the die rolls among `pending`, in order: the values an `EncounterRolled` or a
/// `Payment::Rolled` stands for (stored once, in the common `DieRolled`).
pub fn rolled_faces(pending: &[super::events::CommonEvent]) -> Vec<u32> {
    pending
        .iter()
        .filter_map(|c| match c {
            super::events::CommonEvent::DieRolled { value, .. } => Some(*value),
            _ => None,
        })
        .collect()
}

/// Upright, on its side, or upside down (FATE-STATE-1..3); face down is [`Servant::face_down`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pose {
    Standing,
    Resting,
    Danger,
}

impl Pose {
    pub fn name(self) -> &'static str {
        match self {
            Pose::Standing => "standing",
            Pose::Resting => "resting",
            Pose::Danger => "danger",
        }
    }
}

/// A Master's Servant: a Heroic Spirit and a Class card acting as one (FATE-OPEN-2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Servant {
    pub heroic_spirit: Held,
    pub class: Held,
    pub face_down: bool,
    pub pose: Pose,
}

impl Servant {
    pub fn cards(&self) -> [&Held; 2] {
        [&self.heroic_spirit, &self.class]
    }

    pub fn holds(&self, card: &str) -> bool {
        self.cards().iter().any(|h| h.known() == Some(card))
    }
}

/// A Secret Sign on the field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sign {
    pub card: String,
    pub pose: Pose,
}

/// What the turn's Master did in the ritual step.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TurnFlags {
    pub sign_placed: bool,
    pub servant_revealed: bool,
}

impl TurnFlags {
    pub fn ritual_used(&self) -> bool {
        self.sign_placed || self.servant_revealed
    }
}

/// One Master's side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MasterState {
    pub deck: BTreeSet<String>,
    pub deck_count: usize,
    pub hand: Vec<Held>,
    pub discard: Vec<String>,
    pub servant: Option<Servant>,
    pub signs: Vec<Sign>,
    pub prana: i32,
    pub command_spells: u8,
    pub marks: Vec<String>,
    pub dealt: bool,
    pub defeated: bool,
}

impl MasterState {
    pub(crate) fn take_from_deck(&mut self, card: &Held) {
        if let Held::Known(c) = card {
            self.deck.remove(c);
        }
        self.deck_count = self.deck_count.saturating_sub(1);
    }

    pub fn hand_has(&self, card: &str) -> bool {
        self.hand.iter().any(|h| h.known() == Some(card))
    }

    /// The state of one of this Master's cards on the field.
    pub fn field_pose(&self, card: &str) -> Option<(Pose, bool)> {
        if let Some(s) = self.servant.as_ref().filter(|s| s.holds(card)) {
            return Some((s.pose, s.face_down));
        }
        self.signs.iter().find(|s| s.card == card).map(|s| (s.pose, false))
    }
}

/// The current battle (FATE-BATTLE).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Battle {
    pub attacker: Seat,
    pub responder: Seat,
    pub process: Process,
    pub attack: Option<AttackType>,
    pub response: Option<AttackType>,
    /// (to attacker, to responder) once the wounding process ran.
    pub damage: Option<(u32, u32)>,
    pub card_taken: bool,
    /// Version 4: the retreat process rested the wounded Servants (`WoundedServantsRested`).
    pub wounded_rested: bool,
}

/// Version 4's steps without a choice that an event made due and the fold leaves to an event of
/// their own (up to version 3 the fold made them inside that event): what
/// [`FateState::owed_steps`] turns into the events kifu records next.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Owed {
    /// A Master who received the Active Master status with its Servant in Danger (FATE-PHASE-3).
    pub leaves_danger: Option<Seat>,
    /// Masters whose prana reached 0, awaiting what `prana_zero` does (FATE-OPEN-13).
    pub prana_out: Vec<Seat>,
    /// Masters whose third Command Spell is gone, awaiting their defeat (FATE-WIN-1).
    pub spells_out: Vec<Seat>,
    /// A defeated Active Master whose status has not passed on yet (FATE-PHASE-4).
    pub status_left: Option<Seat>,
}

/// The card definitions and the registered decks, shared by every state of a game.
pub type Cards = crate::game::cards::Cards<CardDef>;

/// The whole game state.
#[derive(Clone, Debug)]
pub struct FateState {
    pub cards: Arc<Cards>,
    pub names: Vec<String>,
    pub policies: Policies,
    pub masters: Seats<MasterState>,
    pub step: Step,
    /// Turns started so far; the first turn is 1.
    pub turn: u32,
    pub active_master: Option<Seat>,
    /// Turns the Active Master has taken since receiving the status (reading R2).
    pub am_turns: u32,
    /// Turns in the current phase (reading R1).
    pub phase_turns: u32,
    pub phase: u32,
    pub turn_master: Option<Seat>,
    pub flags: TurnFlags,
    /// An encounter roll of 1 waiting for its random Servant.
    pub encounter_pending: bool,
    pub battle: Option<Battle>,
    /// Masters who activated an effect in the current step or process (FATE-EFF-3).
    pub activated: BTreeSet<Seat>,
    /// Stat changes until the end of the turn (FATE-EFF-5): (seat, stat, delta).
    pub bonuses: Vec<(Seat, Stat, i32)>,
    /// Defeated Masters in the order of defeat.
    pub defeated: Vec<Seat>,
    pub result: Option<Outcome>,
    pub ledger: CommitmentLedger,
    /// Die rolls and random picks recorded ([`super::events::CommonEvent`]) and not yet used: the
    /// next FATE event must use exactly these (an encounter roll, a lot, a random Servant, a blind
    /// pick, the dice of a cost), so no roll can be made again until one is liked.
    pub pending: Vec<super::events::CommonEvent>,
    /// The deck each sealed card was dealt or drawn from (a Servant's cards, a deal, a draw): a
    /// reveal checks the card against that deck (rules version 3, see
    /// [`super::rules::revealed_violations`]). A card taken from a hand is not in it.
    pub sealed_from: BTreeMap<Commitment, Seat>,
    /// A card the loser held openly and the winner took sealed, by its new seal: its reveal must
    /// show that card (rules version 5, FATE-BATTLE-9, [`super::rules::revealed_violations`]).
    pub taken_known: BTreeMap<Commitment, String>,
    /// Version 4's steps made due and not yet recorded (see [`Owed`]).
    pub owed: Owed,
}

impl FateState {
    /// The initial state of a configuration (no checks; `Game::setup` checks first).
    pub fn new(config: &FateConfig) -> FateState {
        let c = config.v1();
        let defs = c.cards.iter().map(|d| (d.id.clone(), d.clone())).collect();
        let masters = Seats::per_seat(&c.decks, |seat, deck| {
            let cards: BTreeSet<String> = (0..deck.len()).map(|i| super::config::instance_id(seat, i)).collect();
            MasterState {
                deck_count: cards.len(),
                deck: cards,
                hand: Vec::new(),
                discard: Vec::new(),
                servant: None,
                signs: Vec::new(),
                prana: i32::from(c.policies.starting_prana),
                command_spells: 3,
                marks: Vec::new(),
                dealt: false,
                defeated: false,
            }
        });
        FateState {
            cards: Arc::new(Cards { defs, decks: c.decks.clone() }),
            names: c.players.clone(),
            policies: c.policies.clone(),
            masters,
            step: Step::Setup,
            turn: 0,
            active_master: None,
            am_turns: 0,
            phase_turns: 0,
            phase: 0,
            turn_master: None,
            flags: TurnFlags::default(),
            encounter_pending: false,
            battle: None,
            activated: BTreeSet::new(),
            bonuses: Vec::new(),
            defeated: Vec::new(),
            result: None,
            ledger: CommitmentLedger::default(),
            pending: Vec::new(),
            sealed_from: BTreeMap::new(),
            taken_known: BTreeMap::new(),
            owed: Owed::default(),
        }
    }

    pub fn def(&self, instance: &str) -> Option<&CardDef> {
        let (seat, index) = parse_instance(instance)?;
        let id = self.cards.decks.get(usize::from(seat))?.get(index)?;
        self.cards.defs.get(id)
    }

    pub fn kind(&self, instance: &str) -> Option<CardType> {
        self.def(instance).map(|d| d.kind)
    }

    pub fn master(&self, seat: Seat) -> Option<&MasterState> {
        self.masters.get(seat)
    }

    pub(crate) fn master_mut(&mut self, seat: Seat) -> Option<&mut MasterState> {
        self.masters.get_mut(seat)
    }

    pub fn name(&self, seat: Seat) -> String {
        crate::game::seat_name(&self.names, seat)
    }

    pub fn seats(&self) -> impl Iterator<Item = Seat> + '_ {
        self.masters.seats()
    }

    pub fn is_living(&self, seat: Seat) -> bool {
        self.master(seat).is_some_and(|m| !m.defeated)
    }

    pub fn living(&self) -> Vec<Seat> {
        self.seats().filter(|s| self.is_living(*s)).collect()
    }

    /// The next undefeated Master after `seat` in the seating direction (FATE-PHASE-2, FATE-OPEN-7).
    pub fn next_living(&self, seat: Seat) -> Seat {
        let n = self.masters.len();
        if n == 0 {
            return seat;
        }
        let mut s = usize::from(seat) % n;
        for _ in 0..n {
            s = match self.policies.seating {
                Seating::Clockwise => (s + 1) % n,
                Seating::Counterclockwise => (s + n - 1) % n,
            };
            let seat = Seat::try_from(s).unwrap_or(Seat::MAX);
            if self.is_living(seat) {
                return seat;
            }
        }
        seat
    }

    /// Whether the Active Master must hand the status over before the next turn (FATE-PHASE-3/5).
    pub fn handover_due(&self) -> bool {
        let Some(am) = self.active_master else { return false };
        match self.policies.turn_order {
            TurnOrder::R2 => self.turn_master.is_some_and(|t| self.next_living(t) == am) && self.am_turns >= 1,
            TurnOrder::R1 => self.phase_turns as usize >= self.living().len(),
        }
    }

    /// The Master whose turn comes next under the chosen reading (FATE-PHASE-5), once any due
    /// handover has been recorded.
    pub fn expected_next(&self) -> Option<Seat> {
        let am = self.active_master?;
        match (self.policies.turn_order, self.turn_master) {
            (_, None) => Some(am),
            (TurnOrder::R1, Some(_)) if self.phase_turns == 0 => Some(am),
            (_, Some(t)) => Some(self.next_living(t)),
        }
    }

    /// The Masters who may act now ("who may act", [`crate::game::Game::awaited`]): at the deal,
    /// those who still owe their Servant, hand or dice chain; then the Master who owes the step
    /// (see [`FateState::step_owner`]); every Master who still owes a link to an open dice-chain
    /// round (a simultaneous step); and the Master whose rolled dice wait for its activation.
    /// Command Spells (FATE-CS-1) and activations (FATE-EFF-4) may come from any Master at any
    /// moment: they interject ([`crate::game::Game::interjects`]) rather than widen this list.
    pub fn may_act(&self) -> Vec<Seat> {
        if self.result.is_some() {
            return Vec::new();
        }
        let living = self.living();
        let mut out = self.ledger.chain_round_owed(super::events::DICE_CHAIN, &living);
        if self.step == Step::Setup {
            let digital = self.policies.dice == super::config::DiceMode::Digital;
            out.extend(living.iter().copied().filter(|x| {
                self.master(*x).is_some_and(|m| m.servant.is_none() || !m.dealt)
                    || (digital && !self.ledger.chain_is_committed(super::events::DICE_CHAIN, *x))
            }));
        } else {
            out.extend(self.step_owner());
            out.extend(self.pending.iter().filter_map(|c| match c {
                super::events::CommonEvent::DieRolled { seat, .. } => *seat,
                _ => None,
            }));
        }
        out.retain(|s| self.is_living(*s));
        out.sort();
        out.dedup();
        out
    }

    /// The Master the current step waits for, if any: between turns the Active Master when a
    /// handover is due (FATE-PHASE-3), else the Master whose turn starts next (the turn start is
    /// recorded for the incoming Master); in a battle the attacker or the responder choosing an
    /// attack type, and the winner taking a card; otherwise the turn's Master. The battle's
    /// reveal, damage and end are automatic and await nobody.
    pub fn step_owner(&self) -> Option<Seat> {
        match self.step {
            Step::Setup | Step::Over => None,
            Step::TurnOver if self.handover_due() => self.active_master,
            Step::TurnOver => self.expected_next(),
            Step::Battle => {
                let b = self.battle.as_ref()?;
                match b.process {
                    Process::Attack => Some(b.attacker),
                    Process::Response => Some(b.responder),
                    Process::Retreat if !b.card_taken => self
                        .hand_take(b)
                        .filter(|(_, loser)| self.master(*loser).is_some_and(|m| !m.hand.is_empty()))
                        .map(|(winner, _)| winner),
                    Process::Retreat | Process::Reveal | Process::Battle | Process::Wounding => None,
                }
            }
            Step::Stand | Step::Draw | Step::Ritual | Step::Encounter | Step::Declare | Step::End => self.turn_master,
        }
    }

    /// A Servant's stat with this turn's bonuses (FATE-OPEN-12: the two cards add up).
    pub fn stat(&self, seat: Seat, stat: Stat) -> i32 {
        let Some(servant) = self.master(seat).and_then(|m| m.servant.as_ref()) else { return 0 };
        let base: i32 = servant
            .cards()
            .iter()
            .filter_map(|h| h.known().and_then(|c| self.def(c)))
            .map(|d| match stat {
                Stat::PhysicalAttack => d.physical_attack,
                Stat::PhysicalDefense => d.physical_defense,
                Stat::MagicalAttack => d.magical_attack,
                Stat::MagicalDefense => d.magical_defense,
            })
            .sum();
        base + self.bonuses.iter().filter(|(s, st, _)| *s == seat && *st == stat).map(|(_, _, d)| d).sum::<i32>()
    }

    /// Whether a Servant has [Preemptive Strike] (FATE-BATTLE-7).
    pub fn preemptive(&self, seat: Seat) -> bool {
        self.master(seat).and_then(|m| m.servant.as_ref()).is_some_and(|s| {
            s.cards().iter().any(|h| h.known().and_then(|c| self.def(c)).is_some_and(|d| d.preemptive()))
        })
    }

    /// Secret Signs counted by Command Spell option 2 (FATE-OPEN-16).
    pub fn sign_count(&self, seat: Seat) -> i32 {
        let count = |m: &MasterState| m.signs.len() as i32;
        if self.policies.sign_bonus_all {
            self.masters.iter().map(count).sum()
        } else {
            self.master(seat).map_or(0, count)
        }
    }

    /// Damage one side deals (FATE-DMG-1/2): attack − defense with the defense of the same type
    /// (FATE-OPEN-12), a tie dealing `tie`, never below 0 (FATE-DMG-4).
    pub fn damage(&self, from: Seat, to: Seat, kind: AttackType, tie: u32) -> u32 {
        let (a, d) = match kind {
            AttackType::Physical => (Stat::PhysicalAttack, Stat::PhysicalDefense),
            AttackType::Magical => (Stat::MagicalAttack, Stat::MagicalDefense),
        };
        let diff = self.stat(from, a) - self.stat(to, d);
        if diff == 0 {
            tie
        } else {
            u32::try_from(diff.max(0)).unwrap_or(0)
        }
    }

    /// The damage the wounding process must record: (to attacker, to responder).
    pub fn expected_damage(&self, b: &Battle) -> (u32, u32) {
        let to_responder = b.attack.map_or(0, |k| self.damage(b.attacker, b.responder, k, 1));
        let to_attacker = b.response.map_or(0, |k| self.damage(b.responder, b.attacker, k, 0));
        (to_attacker, to_responder)
    }

    /// Whether the responder's steps are skipped by [Preemptive Strike] (FATE-BATTLE-7).
    pub fn response_denied(&self, b: &Battle) -> bool {
        self.preemptive(b.attacker) && !self.preemptive(b.responder)
    }

    /// After the wounding process: (winner, loser) when exactly one Servant was wounded and
    /// survived (FATE-BATTLE-9).
    pub fn hand_take(&self, b: &Battle) -> Option<(Seat, Seat)> {
        let (to_a, to_r) = b.damage?;
        let (winner, loser) = match (to_a > 0, to_r > 0) {
            (true, false) => (b.responder, b.attacker),
            (false, true) => (b.attacker, b.responder),
            _ => return None,
        };
        (self.is_living(loser) && self.is_living(winner)).then_some((winner, loser))
    }

    /// Version 4's steps due now, first to record first: a defeat (FATE-WIN-1, then FATE-OPEN-13),
    /// a Servant entering Danger at 0 prana (FATE-OPEN-13), a defeated Active Master's status
    /// passing on (FATE-PHASE-4), the new Active Master's Servant leaving Danger (FATE-PHASE-3),
    /// the wounding's prana loss (FATE-BATTLE-8) and the retreat's rest (FATE-BATTLE-9). Each is
    /// due only when it changes something; none has a choice in it.
    pub fn owed_steps(&self) -> Vec<FateEvent> {
        use super::config::PranaZero;
        let mut out = Vec::new();
        if self.result.is_some() {
            return out;
        }
        let living = |seats: &[Seat]| -> Vec<Seat> { seats.iter().copied().filter(|x| self.is_living(*x)).collect() };
        let spells_out = living(&self.owed.spells_out);
        if !spells_out.is_empty() {
            out.push(FateEvent::MastersDefeated { seats: spells_out, reason: DefeatReason::CommandSpellsLost });
        }
        let prana_out = living(&self.owed.prana_out);
        if !prana_out.is_empty() {
            match self.policies.prana_zero {
                PranaZero::Defeat => {
                    out.push(FateEvent::MastersDefeated { seats: prana_out, reason: DefeatReason::PranaRanOut })
                }
                PranaZero::Danger => out.push(FateEvent::ServantsEndangered { seats: prana_out }),
                PranaZero::Nothing => {}
            }
        }
        if let Some(from) = self.owed.status_left.filter(|x| !self.is_living(*x)) {
            out.push(FateEvent::ActiveStatusPassed { from, to: self.next_living(from) });
        }
        if let Some(seat) = self.owed.leaves_danger.filter(|x| self.pose_of_servant(*x) == Some(Pose::Danger)) {
            out.push(FateEvent::ServantLeftDanger { seat });
        }
        if let Some(b) = self.battle.as_ref().filter(|_| self.step == Step::Battle) {
            match (b.process, b.damage) {
                (Process::Wounding, Some(_)) => out.push(FateEvent::PranaLost { losses: self.wounds(b) }),
                (Process::Retreat, Some(_)) if !b.wounded_rested => {
                    let seats: Vec<Seat> = self
                        .wounds(b)
                        .iter()
                        .map(|w| w.seat)
                        .filter(|x| self.is_living(*x) && self.pose_of_servant(*x) == Some(Pose::Standing))
                        .collect();
                    if !seats.is_empty() {
                        out.push(FateEvent::WoundedServantsRested { seats });
                    }
                }
                _ => {}
            }
        }
        out
    }

    /// The owed steps `event` leaves out (rules version 4): those owed before it, when it moves
    /// the game on. A step is recorded in its turn, so the steps owed after it are not left out;
    /// a Command Spell, an activation, an escape hatch or a reveal may come at any moment and
    /// moves nothing on.
    pub fn left_out(&self, event: &FateEvent) -> Vec<FateEvent> {
        crate::game::rules::steps_owed_before(self.owed_steps(), event.moves_on(), |due| due.same_step(event))
    }

    /// Rules version 4: `step` is owed no more, because it was recorded or because the table
    /// moved on without it (cited once, where it did, `rules::steps_left_out`; the board then
    /// shows what the table left).
    pub(crate) fn settle(&mut self, step: &FateEvent) {
        match step {
            FateEvent::MastersDefeated { seats, reason: DefeatReason::CommandSpellsLost } => {
                self.owed.spells_out.retain(|x| !seats.contains(x))
            }
            FateEvent::MastersDefeated { seats, .. } | FateEvent::ServantsEndangered { seats } => {
                self.owed.prana_out.retain(|x| !seats.contains(x))
            }
            FateEvent::ActiveStatusPassed { .. } => self.owed.status_left = None,
            FateEvent::ServantLeftDanger { .. } => self.owed.leaves_danger = None,
            FateEvent::PranaLost { .. } => {
                // The wounding is over as far as the table is concerned: on to the retreat.
                if let Some(b) = self.battle.as_mut() {
                    b.process = Process::Retreat;
                }
            }
            FateEvent::WoundedServantsRested { .. } => {
                if let Some(b) = self.battle.as_mut() {
                    b.wounded_rested = true;
                }
            }
            _ => {}
        }
    }

    /// Each side's prana loss in a battle whose damage is recorded: the sides that took damage.
    pub fn wounds(&self, b: &Battle) -> Vec<PranaLoss> {
        let (to_a, to_r) = b.damage.unwrap_or_default();
        [(b.attacker, to_a), (b.responder, to_r)]
            .into_iter()
            .filter(|(_, amount)| *amount > 0)
            .map(|(seat, amount)| PranaLoss { seat, amount })
            .collect()
    }

    /// The pose of `seat`'s Servant, if it has one.
    pub fn pose_of_servant(&self, seat: Seat) -> Option<Pose> {
        self.master(seat).and_then(|m| m.servant.as_ref()).map(|sv| sv.pose)
    }

    /// Version 4's stand step for `seat` as due now, naming what [`Self::to_stand`] says.
    pub fn stand_step(&self, seat: Seat) -> FateEvent {
        let (servant, signs) = self.to_stand(seat);
        FateEvent::RestingCardsStood { seat, servant, signs }
    }

    /// Version 4's stand step (FATE-TURN-1): whether `seat`'s Servant is Resting, and its Resting
    /// Secret Signs; Danger and face-down cards are not affected.
    pub fn to_stand(&self, seat: Seat) -> (bool, Vec<String>) {
        let Some(m) = self.master(seat) else { return (false, Vec::new()) };
        let servant = m.servant.as_ref().is_some_and(|sv| sv.pose == Pose::Resting && !sv.face_down);
        let signs = m.signs.iter().filter(|x| x.pose == Pose::Resting).map(|x| x.card.clone()).collect();
        (servant, signs)
    }

    /// Whether the game ends now under FATE-OPEN-18.
    pub fn game_should_end(&self) -> bool {
        match self.policies.game_end {
            GameEnd::FirstDefeat => !self.defeated.is_empty(),
            GameEnd::LastStanding => self.living().len() <= 1,
        }
    }
}

/// Where a card is, for the recorder's card checks ([`crate::game::check::CardTable`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Zone {
    Deck,
    Hand,
    /// The Servant or a Secret Sign.
    Field,
    Discard,
}

impl Zone {
    pub fn name(self) -> &'static str {
        match self {
            Zone::Deck => "deck",
            Zone::Hand => "hand",
            Zone::Field => "field",
            Zone::Discard => "discard pile",
        }
    }
}

impl MasterState {
    /// Whether `zone` holds `card` (a deck "holds" every instance that may still be in it).
    pub fn holds(&self, zone: Zone, card: &str) -> bool {
        match zone {
            Zone::Deck => self.deck.contains(card),
            Zone::Hand => self.hand_has(card),
            Zone::Field => self.field_pose(card).is_some(),
            Zone::Discard => self.discard.iter().any(|c| c == card),
        }
    }
}

impl crate::game::check::CardTable for FateState {
    type Def = CardDef;
    type Zone = Zone;
    // A deck holds every instance not yet seen to leave it: a card in no place is sealed in a hand.
    const NOWHERE: &'static str = "it is sealed in a hand or out of the game";

    fn card_def(&self, card: &str) -> Option<&CardDef> {
        self.def(card)
    }

    fn card_in(&self, seat: Seat, zone: Zone, card: &str) -> bool {
        self.master(seat).is_some_and(|m| m.holds(zone, card))
    }

    fn card_at(&self, card: &str) -> Option<(Seat, Zone)> {
        // Open places first: a deck "holds" every instance not yet seen to leave it.
        [Zone::Field, Zone::Discard, Zone::Hand, Zone::Deck]
            .into_iter()
            .find_map(|z| self.masters.enumerate().find(|(_, m)| m.holds(z, card)).map(|(seat, _)| (seat, z)))
    }

    fn zone_name(zone: Zone) -> String {
        zone.name().to_string()
    }

    fn seat_name(&self, seat: Seat) -> String {
        self.name(seat)
    }
}
