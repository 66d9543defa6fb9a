//! The BRK fold state: pieces on the battlefield (hidden flag, sealed identity, lives, markers,
//! the once-per-turn flag), the stack of game actions with each one's status and why it left,
//! priority, gold, the turn skeleton and the commitment ledger.

use std::sync::Arc;

use super::catalog::{AbilityDef, AbilityKind, CardDef, ResourceAmount, Trigger};
use super::config::{BrkConfig, FalseAssumption, Policies, PriorityRule};
use super::events::{BrkEvent, Cell, Phase, Zone};
use super::rules_version::Rules;
use crate::game::commit::{Commitment, CommitmentLedger};
use crate::game::{opponent, Outcome, Seat, Seats};

/// The card definitions and the registered squads, shared by every state of a game.
pub type Cards = crate::game::cards::Cards<CardDef>;

/// One player's side apart from the pieces (which the battlefield, graveyard and deck share).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlayerState {
    /// The squad is on the battlefield (setup, BRK-OPEN-1).
    pub deployed: bool,
    /// Gold left this turn (skeleton, BRK-OPEN-1).
    pub gold: u8,
}

/// Where an action stands. Everything but `OnStack` has left the stack.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    OnStack,
    /// Removed unpaid (BRK-INT-2). `rule` is the rule that made it impossible, `why` says how,
    /// `automatic` when the fold found it illegal (BRK-INT-5) rather than card text interrupting it.
    Interrupted {
        rule: &'static str,
        why: String,
        automatic: bool,
    },
    /// Removed, no effects, still paid (BRK-BLOCK-4, BRK-BLOCK-5).
    Blocked {
        blocker: String,
    },
    /// Left the stack and is being performed (BRK-STACK-2).
    Performing,
    Done,
}

impl Status {
    pub fn name(&self) -> &'static str {
        match self {
            Status::OnStack => "on the stack",
            Status::Interrupted { .. } => "interrupted",
            Status::Blocked { .. } => "blocked",
            Status::Performing => "performing",
            Status::Done => "done",
        }
    }
}

/// One declared game action, kept for the whole game so the audit and views can say what became of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Action {
    pub id: u32,
    pub seat: Seat,
    pub source: String,
    pub ability: AbilityDef,
    pub targets: Vec<String>,
    /// Targets that were hidden when declared and so were assumed to have the required trait (BRK-HID-9).
    pub assumed: Vec<String>,
    /// The declared payment (BRK-BLOCK-5).
    pub payment: Vec<ResourceAmount>,
    pub status: Status,
    /// What was actually paid, once a payment was recorded (the audit compares it).
    pub paid: Option<Vec<ResourceAmount>>,
    /// The sequence number of the declaring event: where a false assumption is cited (BRK-HID-10).
    pub declared_at: u64,
    /// Targets whose effect (or protection) was recorded.
    pub applied: Vec<String>,
}

impl Action {
    /// Whether the action's payment is due: it left the stack paid (blocked or performed) and was not paid yet.
    pub fn payment_due(&self) -> bool {
        self.paid.is_none() && matches!(self.status, Status::Blocked { .. } | Status::Performing | Status::Done)
    }
}

/// A card on the battlefield (or moved from it to the graveyard or the deck).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Piece {
    pub id: String,
    pub owner: Seat,
    pub cell: Cell,
    /// The instance, once the core knows it (deployed open, or revealed).
    pub instance: Option<String>,
    /// The sealed identity it was deployed with, if any.
    pub sealed: Option<Commitment>,
    pub hidden: bool,
    /// Started the battle hidden and not revealed yet: it must carry no markers (BRK-HID-2).
    pub unmarked_until_reveal: bool,
    pub zone: Zone,
    pub lives: i16,
    pub markers: Vec<String>,
    /// Acted this turn (BRK-FRAG-6).
    pub acted: bool,
    /// On-death / on-return abilities already used (by ability index).
    pub triggers_used: Vec<u8>,
}

impl Piece {
    /// Whether this piece's ability `index` (triggered by `trigger`) can be used now: an
    /// activated one in play by a piece that has not acted this turn (BRK-FRAG-6), an on-death or
    /// on-return one from the graveyard or the deck, once.
    pub fn can_use(&self, index: u8, trigger: Trigger) -> bool {
        match trigger {
            Trigger::Activated => self.zone == Zone::Play && !self.acted,
            Trigger::OnDeath => self.zone == Zone::Graveyard && !self.triggers_used.contains(&index),
            Trigger::OnReturnToDeck => self.zone == Zone::Deck && !self.triggers_used.contains(&index),
        }
    }
}

/// Rules version 4's steps without a choice that an event made due and the fold leaves to an
/// event of their own (up to version 3 the fold made them inside that event): what
/// [`BrkState::owed_steps`] turns into the events kifu records next.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Owed {
    /// Pieces revealed after starting the battle hidden, with the markers their card gives them
    /// that are not placed yet (BRK-HID-2).
    pub markers: Vec<(String, Vec<String>)>,
    /// The seat whose turn started and whose cards are not opened yet (BRK-FRAG-6).
    pub opening: Option<Seat>,
    /// Pieces that lost their last life and are not in the graveyard yet (BRK-OPEN-1).
    pub dying: Vec<String>,
    /// Rules version 5: pieces whose death the table left out (cited once, where it moved on),
    /// still in play with no lives. Their death is not owed again (version 4 owes and cites it
    /// anew after every later change of lives) until they regain lives or leave play.
    pub left_dead: Vec<String>,
    /// The rules of the fold (none of the later behaviours before its first event): whether it
    /// leaves these steps to events of their own ([`Rules::owed_steps`]) and remembers the deaths
    /// left out ([`Rules::remembers_left_dead`]). The deaths are found deep in the fold (effects,
    /// payments, lives changed), which reads them here.
    pub rules: Rules,
}

/// The whole game state.
#[derive(Clone, Debug)]
pub struct BrkState {
    pub cards: Arc<Cards>,
    pub names: Vec<String>,
    pub policies: Policies,
    pub players: Seats<PlayerState>,
    pub pieces: Vec<Piece>,
    pub turn: u32,
    pub active: Option<Seat>,
    pub phase: Phase,
    /// The First player's first turn has ended (BRK-HID-4 (a) exception over).
    pub first_turn_over: bool,
    /// Who may act now: the priority holder (BRK-STACK-3 by policy).
    pub priority: Option<Seat>,
    /// Consecutive passes since the stack last changed.
    pub passes: u8,
    /// Every action ever declared, by id - 1.
    pub actions: Vec<Action>,
    /// Ids of the actions on the stack, in declaration order.
    pub stack: Vec<u32>,
    /// The action that last left the stack blocked or performed: its payment and effects come next.
    pub resolving: Option<u32>,
    /// Targeted hidden pieces that must be revealed before anything else (BRK-HID-4 (c)).
    pub pending_reveals: Vec<String>,
    /// A piece revealed to declare (or block / interrupt); its action must come next (BRK-HID-4 (b)).
    pub declaring: Option<String>,
    pub result: Option<Outcome>,
    pub ledger: CommitmentLedger,
    /// Rules version 4: the steps an event made due, not recorded yet ([`Owed`]).
    pub owed: Owed,
}

/// The skeleton's gold per player at the start of every turn (BRK-OPEN-1).
pub const GOLD_PER_TURN: u8 = 3;
/// The skeleton's last turn (BRK-OPEN-1): after it, more total lives wins.
pub const TURN_LIMIT: u32 = 30;

impl BrkState {
    pub fn new(config: &BrkConfig) -> BrkState {
        let c = config.v1();
        let defs = crate::game::catalog::by_id(&c.cards);
        let decks = c.decks.iter().map(|d| d.cards.clone()).collect();
        BrkState {
            cards: Arc::new(Cards { defs, decks }),
            names: c.players.clone(),
            policies: c.policies.clone(),
            players: Seats::per_seat(&c.decks, |_, _| PlayerState::default()),
            pieces: Vec::new(),
            turn: 0,
            active: None,
            phase: Phase::Setup,
            first_turn_over: false,
            priority: None,
            passes: 0,
            actions: Vec::new(),
            stack: Vec::new(),
            resolving: None,
            pending_reveals: Vec::new(),
            declaring: None,
            result: None,
            ledger: CommitmentLedger::default(),
            owed: Owed::default(),
        }
    }

    pub fn name(&self, seat: Seat) -> String {
        crate::game::seat_name(&self.names, seat)
    }

    /// The definition of a card instance, if a registered squad has it.
    pub fn def(&self, instance: &str) -> Option<&CardDef> {
        self.cards.def(instance)
    }

    /// Whether `instance` names a card of a registered squad.
    pub fn is_instance(&self, instance: &str) -> bool {
        // `p0-01` parses as `p0-1` but is not its id.
        crate::game::cards::parse_instance(instance).is_some_and(|(seat, i)| {
            self.cards.decks.get(usize::from(seat)).is_some_and(|d| i < d.len())
                && super::config::instance_id(seat, i) == instance
        })
    }

    /// The instances of `seat`'s squad, in id order (`p0-0`, `p0-1`, `p0-10`, ...), as the agent
    /// and the squad checks list them.
    pub fn squad(&self, seat: Seat) -> Vec<String> {
        let n = self.cards.decks.get(usize::from(seat)).map_or(0, Vec::len);
        let mut ids: Vec<String> = (0..n).map(|i| super::config::instance_id(seat, i)).collect();
        ids.sort();
        ids
    }

    /// `seat`'s gold left this turn (0 for a seat the game lacks).
    pub fn gold(&self, seat: Seat) -> u8 {
        self.players.get(seat).map_or(0, |p| p.gold)
    }

    /// Whether `seat` has deployed its squad.
    pub fn deployed(&self, seat: Seat) -> bool {
        self.players.get(seat).is_some_and(|p| p.deployed)
    }

    pub fn piece(&self, id: &str) -> Option<&Piece> {
        self.pieces.iter().find(|p| p.id == id)
    }

    pub fn piece_mut(&mut self, id: &str) -> Option<&mut Piece> {
        self.pieces.iter_mut().find(|p| p.id == id)
    }

    /// The card definition of a piece whose identity the core knows.
    pub fn def_of(&self, piece: &Piece) -> Option<&CardDef> {
        self.def(piece.instance.as_ref()?)
    }

    pub fn action(&self, id: u32) -> Option<&Action> {
        self.actions.get(usize::try_from(id).ok()?.checked_sub(1)?)
    }

    pub fn action_mut(&mut self, id: u32) -> Option<&mut Action> {
        self.actions.get_mut(usize::try_from(id).ok()?.checked_sub(1)?)
    }

    /// The action the stack policy performs next (BRK-STACK-3).
    pub fn next_to_perform(&self) -> Option<u32> {
        match self.policies.stack_order {
            super::config::StackOrder::Lifo => self.stack.last().copied(),
            super::config::StackOrder::Fifo => self.stack.first().copied(),
        }
    }

    /// The action being performed that still has targets to resolve, if any.
    pub fn performing(&self) -> Option<&Action> {
        self.resolving.and_then(|id| self.action(id)).filter(|a| a.status == Status::Performing)
    }

    /// The action whose payment is due, if any.
    pub fn payment_due(&self) -> Option<&Action> {
        self.resolving.and_then(|id| self.action(id)).filter(|a| a.payment_due())
    }

    /// The piece id for seat `seat`'s `n`-th deployed card (from 0).
    pub fn piece_id(seat: Seat, n: usize) -> String {
        format!("{}{}", if seat == 0 { 'A' } else { 'B' }, n + 1)
    }

    /// Pieces of `seat` in play.
    pub fn in_play(&self, seat: Seat) -> impl Iterator<Item = &Piece> {
        self.pieces.iter().filter(move |p| p.owner == seat && p.zone == Zone::Play)
    }

    /// Who may act now ("who may act", [`crate::game::Game::awaited`]): the owners of targeted
    /// hidden cards first, then the priority holder; outside the main phase whoever owes the step
    /// (the next turn's player for a turn start, which is recorded for it).
    /// Empty while an action resolves (its payment and effects are automatic) and once the game is over.
    pub fn awaited(&self) -> Vec<Seat> {
        if self.result.is_some() {
            return vec![];
        }
        if let Some(p) = self.pending_reveals.first().and_then(|id| self.piece(id)) {
            return vec![p.owner];
        }
        match self.phase {
            Phase::Setup => {
                let owed: Vec<Seat> = self.players.enumerate().filter(|(_, p)| !p.deployed).map(|(s, _)| s).collect();
                // Both squads deployed: the first turn starts, recorded for its player, seat 0 (BRK-OPEN-1).
                if owed.is_empty() {
                    vec![0]
                } else {
                    owed
                }
            }
            Phase::Reveal => {
                let mut out: Vec<Seat> = self.reveal_due().iter().map(|p| p.owner).collect();
                out.extend(self.active);
                out.sort();
                out.dedup();
                out
            }
            Phase::Main => self.priority.into_iter().collect(),
            Phase::End => self.active.map(crate::game::opponent).into_iter().collect(),
        }
    }

    /// Whether `p` has no lives left and goes to the graveyard (the skeleton, BRK-OPEN-1): a card
    /// in play whose identity and lives are known (a sealed or face-down card's are not).
    pub fn out_of_lives(p: &Piece) -> bool {
        p.zone == Zone::Play && p.instance.is_some() && !p.hidden && p.lives <= 0
    }

    /// Rules version 4's steps due now, first to record first: the deaths (BRK-OPEN-1), a revealed
    /// card's markers (BRK-HID-2), the turn start's opening (BRK-FRAG-6). Each is due only while it
    /// changes something; none has a choice in it.
    pub fn owed_steps(&self) -> Vec<BrkEvent> {
        let mut out = Vec::new();
        if self.result.is_some() {
            return out;
        }
        let dying: Vec<String> = self
            .pieces
            .iter()
            .filter(|p| self.owed.dying.contains(&p.id) && Self::out_of_lives(p))
            .map(|p| p.id.clone())
            .collect();
        if !dying.is_empty() {
            out.push(BrkEvent::CardsSentToGraveyard { pieces: dying });
        }
        for (piece, markers) in &self.owed.markers {
            if self.piece(piece).is_some_and(|p| p.zone == Zone::Play) {
                out.push(BrkEvent::MarkersPlacedOnReveal { piece: piece.clone(), markers: markers.clone() });
            }
        }
        if let Some(seat) = self.owed.opening {
            let pieces: Vec<String> = self.in_play(seat).filter(|p| p.acted).map(|p| p.id.clone()).collect();
            if !pieces.is_empty() {
                out.push(BrkEvent::CardsOpened { seat, pieces });
            }
        }
        out
    }

    /// The owed steps `event` leaves out (rules version 4): every step owed, when it moves the
    /// game on ([`BrkEvent::moves_on`]); the steps themselves may come in any order. From version
    /// 5 the game's end leaves nothing out: once the game is over no step is owed (a card's death
    /// owed when the victory holds without it changes nothing).
    pub fn left_out(&self, event: &BrkEvent) -> Vec<BrkEvent> {
        let ends = self.owed.rules.remembers_left_dead && matches!(event, BrkEvent::GameEnded { .. });
        if event.moves_on() && !ends {
            self.owed_steps()
        } else {
            Vec::new()
        }
    }

    /// Rules version 4: `step` was left out by an event that moved on; it is owed no more
    /// ([`Self::settle`]). From version 5 the fold remembers the deaths left out, so the same
    /// death is not owed (and cited) again at the next change of lives.
    pub(crate) fn leave_out(&mut self, step: &BrkEvent) {
        if let (BrkEvent::CardsSentToGraveyard { pieces }, true) = (step, self.owed.rules.remembers_left_dead) {
            for id in pieces {
                if !self.owed.left_dead.contains(id) {
                    self.owed.left_dead.push(id.clone());
                }
            }
        }
        self.settle(step);
    }

    /// Rules version 5: the pieces left dead that are still in play with no lives; one that
    /// regained lives or left play is forgotten, so a later death of it is owed again.
    pub(crate) fn forget_revived(&mut self) {
        let pieces = &self.pieces;
        let still_dead = |id: &String| pieces.iter().any(|p| &p.id == id && p.zone == Zone::Play && p.lives <= 0);
        self.owed.left_dead.retain(still_dead);
    }

    /// Rules version 5: the pieces whose death the table left out and that are still dead in
    /// play ([`Self::out_of_lives`]): a late `CardsSentToGraveyard` may put them right.
    pub fn left_dead(&self) -> Vec<&str> {
        let dead = |id: &&String| self.piece(id).is_some_and(Self::out_of_lives);
        self.owed.left_dead.iter().filter(dead).map(String::as_str).collect()
    }

    /// Rules version 4: `step` is owed no more, because it was recorded or because the table
    /// moved on without it (cited once, where it did, `rules::steps_left_out`; the board then
    /// shows what the table left: markers missing, a card closed, a dead card in play).
    pub(crate) fn settle(&mut self, step: &BrkEvent) {
        match step {
            BrkEvent::CardsSentToGraveyard { pieces } => self.owed.dying.retain(|x| !pieces.contains(x)),
            BrkEvent::MarkersPlacedOnReveal { piece, .. } => self.owed.markers.retain(|(x, _)| x != piece),
            BrkEvent::CardsOpened { .. } => self.owed.opening = None,
            _ => {}
        }
    }

    /// Hidden cards the Reveal subphase must reveal now (BRK-HID-4 (a) with its exception).
    pub fn reveal_due(&self) -> Vec<&Piece> {
        self.pieces
            .iter()
            .filter(|p| p.zone == Zone::Play && p.hidden)
            .filter(|p| self.first_turn_over || !(p.owner == 1 && p.cell.row == 3))
            .collect()
    }
}

/// The recorder's card checks ([`crate::game::check::Check`]) over card instances: a squad card
/// is where a piece holding its identity lies.
impl crate::game::check::CardTable for BrkState {
    type Def = CardDef;
    type Zone = Zone;
    const NOWHERE: &'static str = "it is not deployed, or its identity is sealed";

    fn card_def(&self, card: &str) -> Option<&CardDef> {
        self.def(card).filter(|_| self.is_instance(card))
    }

    fn card_in(&self, seat: Seat, zone: Zone, card: &str) -> bool {
        self.pieces.iter().any(|p| p.owner == seat && p.zone == zone && p.instance.as_deref() == Some(card))
    }

    fn card_at(&self, card: &str) -> Option<(Seat, Zone)> {
        self.pieces.iter().find(|p| p.instance.as_deref() == Some(card)).map(|p| (p.owner, p.zone))
    }

    fn zone_name(zone: Zone) -> String {
        zone.name().to_string()
    }

    fn seat_name(&self, seat: Seat) -> String {
        self.name(seat)
    }
}

// ---- Pure state queries the fold and the rules share (the fold never imports the rules) ----

/// Who holds priority after `seat` declared, blocked or interrupted (BRK-STACK-3 by policy).
pub fn priority_after(s: &BrkState, seat: Seat) -> Option<Seat> {
    match s.policies.priority {
        PriorityRule::Alternate => Some(opponent(seat)),
        PriorityRule::ActiveFirst => s.active,
    }
}

/// Why an action waiting on the stack has become illegal (BRK-INT-5), if it has: the rule and how.
pub fn illegal_reason(s: &BrkState, a: &Action) -> Option<(&'static str, String)> {
    for t in &a.targets {
        let Some(p) = s.piece(t) else { continue };
        if p.zone != Zone::Play {
            return Some(("BRK-INT-5", format!("its target {t} left play")));
        }
        if p.hidden {
            continue;
        }
        let Some(def) = s.def_of(p) else { continue };
        if let Some(x) = &a.ability.requires {
            if !def.has_trait(x) && a.assumed.contains(t) && s.policies.false_assumption == FalseAssumption::Interrupt {
                return Some((
                    "BRK-HID-11",
                    format!("revealed {t} lacks [{x}], which the declaration assumed (BRK-OPEN-3 policy: interrupt)"),
                ));
            }
        }
        if a.ability.kind == AbilityKind::FinishingBlow && p.lives > i16::from(a.ability.amount) {
            return Some((
                "BRK-INT-5",
                format!("a finishing blow of {} on {t}, which now has {} lives", a.ability.amount, p.lives),
            ));
        }
    }
    None
}
