//! Replay: the fold over a game stream, honouring judges' rulings and backups, with snapshots
//! every K events so seeking never refolds from the start.
//!
//! Snapshots live in memory, outside the hash chain: they are rebuilt from the events whenever a
//! replay is opened, so they can never disagree with the log.

use super::{Game, GameEntry, Outcome, Position, Ruling, Seat};
use crate::log::envelope::{Actor, Timestamp};

/// One decoded event of a game stream.
#[derive(Clone, Debug)]
pub struct Step<E> {
    pub seq: u64,
    pub recorded_at: Timestamp,
    pub actor: Actor,
    pub entry: GameEntry<E>,
}

/// A backup a judge ordered: at event `at`, the game went back to the state before event `to`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Backup {
    pub at: u64,
    pub to: u64,
    pub judge: String,
}

/// What rulings did to the game so far.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rulings {
    /// (event, seat) of each warning.
    pub warnings: Vec<(u64, Seat)>,
    /// (event, seat) of each game loss.
    pub game_losses: Vec<(u64, Seat)>,
    /// (event, seat) of each concession ([`GameEntry::Conceded`]): a player's act, not a
    /// ruling, kept here because it puts the seat out the same way.
    pub concessions: Vec<(u64, Seat)>,
    pub backups: Vec<Backup>,
}

/// The fold state of a game stream: the game's own state plus what rulings decided.
pub struct Table<G: Game> {
    pub game: G::State,
    pub rulings: Rulings,
    /// How many events have been folded (the next sequence number).
    pub folded: u64,
    /// The player names, in seat order.
    players: Vec<String>,
}

// Written by hand: a derive would demand `G: Clone`, but only the state needs to be.
impl<G: Game> Clone for Table<G> {
    fn clone(&self) -> Self {
        Table {
            game: self.game.clone(),
            rulings: self.rulings.clone(),
            folded: self.folded,
            players: self.players.clone(),
        }
    }
}

impl<G: Game> std::fmt::Debug for Table<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Table")
            .field("game", &self.game)
            .field("rulings", &self.rulings)
            .field("folded", &self.folded)
            .finish()
    }
}

impl<G: Game> Table<G> {
    /// The seats judges' game losses and their own concessions put out, in the order they went
    /// out.
    pub fn eliminated(&self) -> Vec<Seat> {
        let mut exits: Vec<(u64, Seat)> =
            self.rulings.game_losses.iter().chain(&self.rulings.concessions).copied().collect();
        exits.sort_by_key(|(seq, _)| *seq);
        let mut out: Vec<Seat> = Vec::new();
        for (_, s) in exits {
            if !out.contains(&s) {
                out.push(s);
            }
        }
        out
    }

    /// This state after `seat` conceded at event `seq`. Total: a seat out of range or already
    /// out (an import the audit flags) still folds.
    pub(crate) fn conceded(mut self, seq: u64, seat: Seat) -> Self {
        self.rulings.concessions.push((seq, seat));
        if usize::from(seat) < self.players.len() {
            self.game = G::seat_eliminated(self.game, seat);
        }
        self
    }

    /// Why `seat` may not concede now (`KIFU-SEAT-1`, `KIFU-CONCEDE-2`): the one check the
    /// recorder, the audit and the pages' Concede control share.
    pub fn concession_refused(&self, seat: Seat) -> Option<super::Violation> {
        if let Some(v) = super::rules::check_seat(seat, self.players.len()) {
            return Some(v);
        }
        let name = super::seat_name(&self.players, seat);
        if self.outcome().is_some() {
            return Some(super::Violation::new("KIFU-CONCEDE-2", "the game is over: there is nothing to concede"));
        }
        self.eliminated()
            .contains(&seat)
            .then(|| super::Violation::new("KIFU-CONCEDE-2", format!("{name} is out of the game already")))
    }

    /// Why the game ended for the seats put out, in a few words: "bob conceded", "game loss
    /// issued by a judge to bob", both in the order they went out.
    fn exit_reason(&self) -> String {
        let names = |v: &[(u64, Seat)]| {
            let mut out: Vec<String> = Vec::new();
            for (_, s) in v {
                let n = super::seat_name(&self.players, *s);
                if !out.contains(&n) {
                    out.push(n);
                }
            }
            out.join(", ")
        };
        let conceded = names(&self.rulings.concessions);
        let lost = names(&self.rulings.game_losses);
        let mut parts = Vec::new();
        if !conceded.is_empty() {
            parts.push(format!("{conceded} conceded"));
        }
        if !lost.is_empty() {
            parts.push(format!("game loss issued by a judge to {lost}"));
        }
        parts.join("; ")
    }

    /// The outcome: judges' game losses and concessions override the board. When at most one seat is left it
    /// wins; otherwise the game goes on without the eliminated seats, which take the last places
    /// of whatever outcome the rules reach.
    pub fn outcome(&self) -> Option<Outcome> {
        let lost = self.eliminated();
        if lost.is_empty() {
            return G::outcome(&self.game);
        }
        let left: Vec<Seat> =
            (0..self.players.len()).filter_map(|s| Seat::try_from(s).ok()).filter(|s| !lost.contains(s)).collect();
        if left.len() <= 1 {
            let placements = if left.is_empty() { vec![] } else { vec![left] };
            let base = Outcome { placements, eliminated: vec![], reason: String::new() };
            let mut o = base.with_eliminated(&lost);
            o.reason = self.exit_reason();
            return Some(o);
        }
        G::outcome(&self.game).map(|o| {
            // A game the exits themselves ended (FATE's pod that ends at the first defeat) says
            // why in the exits' words: "rui conceded", not the game's word for a game loss.
            let by_exits = !o.eliminated.is_empty() && o.eliminated.iter().all(|s| lost.contains(s));
            let mut o = o.with_eliminated(&lost);
            if by_exits {
                o.reason = self.exit_reason();
            }
            o
        })
    }

    /// The position; the seats put out (a game loss, a concession) are never awaited.
    pub fn position(&self) -> Position {
        let mut p = G::position(&self.game);
        let lost = self.eliminated();
        p.awaited.retain(|s| !lost.contains(s));
        p
    }
}

/// A game stream opened for replay: every step decoded, snapshots every `k` steps, and the
/// position after every step (for seeking by turn and phase).
pub struct Replay<G: Game> {
    pub config: G::Config,
    initial: Table<G>,
    steps: Vec<Step<G::Event>>,
    snapshots: Vec<Table<G>>,
    positions: Vec<Position>,
    k: usize,
    /// The state after every step, so a push folds one step and the head is never refolded.
    /// `None` only for the moment a push holds it.
    tip: Option<Table<G>>,
}

/// The default snapshot interval.
pub const SNAPSHOT_EVERY: usize = 64;

impl<G: Game> Replay<G> {
    /// Opens a replay. Fails only if the configuration does not set up even as recorded.
    pub fn new(config: G::Config, steps: Vec<Step<G::Event>>) -> Result<Self, Vec<super::Violation>> {
        Self::with_inspector(config, steps, SNAPSHOT_EVERY, |_, _, _| {})
    }

    /// Opens a replay with snapshot interval `k`, calling `inspect(i, state_before, step)` for
    /// every step in order: one fold serves replay, audit and timelines alike.
    pub fn with_inspector(
        config: G::Config,
        steps: Vec<Step<G::Event>>,
        k: usize,
        mut inspect: impl FnMut(usize, &Table<G>, &Step<G::Event>),
    ) -> Result<Self, Vec<super::Violation>> {
        // A setup that breaks rules is only ever stored by an as-recorded import; it still folds.
        let (game, _) = G::setup_as_recorded(&config)?;
        let players = G::players(&config);
        let initial = Table { game, rulings: Rulings::default(), folded: 0, players };
        let mut replay = Replay {
            config,
            initial: initial.clone(),
            steps: Vec::with_capacity(steps.len()),
            snapshots: Vec::with_capacity(steps.len() / k.max(1) + 1),
            positions: Vec::with_capacity(steps.len()),
            k: k.max(1),
            tip: Some(initial),
        };
        for (i, step) in steps.into_iter().enumerate() {
            replay.push_with(step, |before, step| inspect(i, before, step));
        }
        Ok(replay)
    }

    /// Folds one more step onto the head: O(1) per event (plus a snapshot every `k`).
    pub fn push(&mut self, step: Step<G::Event>) {
        self.push_with(step, |_, _| {});
    }

    /// Folds one more step, first calling `inspect(state_before, step)`: how the audit and the
    /// timelines follow a live game without refolding it.
    pub fn push_with(&mut self, step: Step<G::Event>, inspect: impl FnOnce(&Table<G>, &Step<G::Event>)) {
        let i = self.steps.len();
        let Some(state) = self.tip.take() else { return };
        if i % self.k == 0 {
            self.snapshots.push(state.clone());
        }
        inspect(&state, &step);
        self.steps.push(step);
        let state = self.fold_step(state, i);
        self.positions.push(state.position());
        self.tip = Some(state);
    }

    /// The state after every step so far.
    pub fn tip(&self) -> &Table<G> {
        // `tip` is `None` only inside `push_with`, which holds `&mut self`.
        self.tip.as_ref().unwrap_or(&self.initial)
    }

    /// Applies step `i` to `state`. Backups restore an earlier state, found through the snapshots.
    pub(crate) fn fold_step(&self, mut state: Table<G>, i: usize) -> Table<G> {
        let step = &self.steps[i];
        match &step.entry {
            GameEntry::Played(e) | GameEntry::Forced { event: e, .. } | GameEntry::RecordedElsewhere(e) => {
                G::ledger_mut(&mut state.game).at(step.seq);
                state.game = G::apply(state.game, e);
            }
            GameEntry::Ruled(r) => match r {
                Ruling::WarningIssued { seat, .. } => state.rulings.warnings.push((step.seq, *seat)),
                Ruling::GameLossIssued { seat, .. } => {
                    state.rulings.game_losses.push((step.seq, *seat));
                    if usize::from(*seat) < state.players.len() {
                        state.game = G::seat_eliminated(state.game, *seat);
                    }
                }
                Ruling::BackedUp { judge, to_seq, .. } => {
                    // A backup to the future or to itself is recorded but changes nothing (the audit flags it).
                    if (*to_seq as usize) < i {
                        state.game = self.state_at(*to_seq).game;
                        // Game losses and concessions stand through a backup: the restored state
                        // hears of them again.
                        for s in state.eliminated() {
                            if usize::from(s) < state.players.len() {
                                state.game = G::seat_eliminated(state.game, s);
                            }
                        }
                        state.rulings.backups.push(Backup { at: step.seq, to: *to_seq, judge: judge.clone() });
                    }
                }
                Ruling::NoteRecorded { .. } | Ruling::EntrySetAside { .. } => {}
            },
            GameEntry::SetAside { .. } => {}
            GameEntry::Conceded { seat } => state = state.conceded(step.seq, *seat),
        }
        state.folded = step.seq + 1;
        state
    }

    /// The number of events.
    pub fn len(&self) -> u64 {
        self.steps.len() as u64
    }

    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    pub fn steps(&self) -> &[Step<G::Event>] {
        &self.steps
    }

    /// The state after the first `n` events (clamped to the stream): the nearest snapshot at or
    /// before `n`, folded forward at most `k - 1` events.
    pub fn state_at(&self, n: u64) -> Table<G> {
        let n = (n as usize).min(self.steps.len());
        if let Some(tip) = self.tip.as_ref().filter(|_| n == self.steps.len()) {
            return tip.clone();
        }
        let snap = n / self.k;
        let (mut state, from) = match self.snapshots.get(snap) {
            Some(s) => (s.clone(), snap * self.k),
            None => (self.initial.clone(), 0),
        };
        for i in from..n {
            state = self.fold_step(state, i);
        }
        state
    }

    /// The state after the first `n` events, folded from the very start without snapshots
    /// (what other replay systems do; kept for the benchmark comparison).
    pub fn refold_to(&self, n: u64) -> Table<G> {
        let n = (n as usize).min(self.steps.len());
        let mut state = self.initial.clone();
        for i in 0..n {
            state = self.fold_step(state, i);
        }
        state
    }

    /// How many snapshots are held (for memory accounting).
    pub fn snapshot_count(&self) -> usize {
        self.snapshots.len()
    }

    /// The state before any event.
    pub fn initial(&self) -> &Table<G> {
        &self.initial
    }

    /// The final state.
    pub fn last(&self) -> Table<G> {
        self.tip().clone()
    }

    /// The position after the first `n` events.
    pub fn position_at(&self, n: u64) -> Position {
        match n.checked_sub(1).and_then(|i| self.positions.get(i as usize)) {
            Some(p) => p.clone(),
            None => self.initial.position(),
        }
    }

    /// The number of events after which turn `turn` (and phase `phase`, if given) is first reached.
    pub fn seek_turn(&self, turn: u32, phase: Option<&str>) -> Option<u64> {
        if self.initial.position().turn == turn && phase.is_none_or(|p| self.initial.position().phase == p) {
            return Some(0);
        }
        self.positions.iter().position(|p| p.turn == turn && phase.is_none_or(|ph| p.phase == ph)).map(|i| i as u64 + 1)
    }
}
