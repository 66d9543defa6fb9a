//! The type-erased game driver: lets the CLI and the server work with any game by its ruleset
//! name, through one implementation written against [`Game`].

use std::collections::BTreeMap;
use std::marker::PhantomData;

use super::audit::{self, AuditReport};
use super::options::{self, OptionView};
use super::record::{self, GameError, LiveGame, Recorded, Write};
use super::selfplay;
pub use super::timeline::TimelineEntry;
use super::timeline::{full_timeline, timeline_entry, Undone};
use super::{BoardView, Game, GameEntry, NewGame, Position, RuleCoverage, Ruling, Seat, Viewer, Violation};
use crate::log::chain::{Head, VerifiedLog};
use crate::log::envelope::{Actor, IdempotencyId, MatchBinding, StreamId, Timestamp};
use crate::store::Store;

/// A game opened for replay and recording, whatever the game. It stays open as the game grows:
/// [`Session::extend`] folds the events appended after its head, so neither recording, nor a
/// follower's timeline, nor the audit refolds the game. `Send + Sync`: the server keeps
/// sessions open and reads them from many request handlers at once.
pub trait Session: Send + Sync {
    fn players(&self) -> Vec<String>;
    /// The number of events.
    fn len(&self) -> u64;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The verified head the session stands at.
    fn head(&self) -> Head;
    /// The board after the first `n` events, as `viewer` may see it.
    fn board(&self, n: u64, viewer: Viewer) -> BoardView;
    /// The position after the first `n` events.
    fn position_at(&self, n: u64) -> Position;
    /// The number of events after which turn `turn` (and `phase`) is first reached.
    fn seek_turn(&self, turn: u32, phase: Option<&str>) -> Option<u64>;
    /// Every event described for `viewer`, in one fold.
    fn timeline(&self, viewer: Viewer) -> Vec<TimelineEntry>;
    /// Event `seq` described for `viewer`.
    fn describe(&self, seq: u64, viewer: Viewer) -> Option<TimelineEntry>;
    /// Extend-by-tail: verifies the stored events that follow the head (each linking to the one
    /// before) and folds them, extending the audit and timelines already built.
    fn extend(&mut self, stored: &[Vec<u8>]) -> Result<(), GameError>;
    /// Extends up to the store's head.
    fn catch_up(&mut self, store: &dyn Store) -> Result<(), GameError>;
    /// Validates a game action given as JSON against the head and appends it (see
    /// [`Driver::act_json`]); the session then stands at the new head.
    fn act_json(
        &mut self,
        store: &dyn Store,
        actor: Option<Actor>,
        event_json: &str,
        forced_by: Option<String>,
        expected: Option<u64>,
        idempotency: Option<IdempotencyId>,
    ) -> Result<Recorded, GameError>;
    /// The rules a game action given as JSON would break at the head, recording nothing (see
    /// [`LiveGame::check`]); with `forced_by`, as that judge's forced entry.
    fn check_json(
        &self,
        actor: Option<Actor>,
        event_json: &str,
        forced_by: Option<String>,
    ) -> Result<Vec<Violation>, GameError>;
    /// Appends a judge's ruling.
    fn rule(
        &mut self,
        store: &dyn Store,
        actor: Actor,
        ruling: Ruling,
        expected: Option<u64>,
        idempotency: Option<IdempotencyId>,
    ) -> Result<Recorded, GameError>;
    /// The options open to `seats` at the head ([`super::options`]), ids computed; `None` when
    /// the game has no options table yet.
    fn options(&self, seats: &[Seat]) -> Option<Vec<OptionView>>;
    /// Records the option `id` of one of `seats` and the automatic steps it made due (see
    /// [`LiveGame::pick`]); the session then stands at the new head.
    fn pick(
        &mut self,
        by: Write<'_>,
        seats: &[Seat],
        id: &str,
        params: &BTreeMap<String, Vec<String>>,
    ) -> Result<Vec<Recorded>, GameError>;
    /// Records the concession of `seat` by `actor` ([`GameEntry::Conceded`]): refused unless
    /// `actor` is the seat's own player and the seat may concede now (the game not over, the
    /// seat not out), then the automatic steps it made due (see [`LiveGame::concede`]), the
    /// concession first. The session then stands at the new head.
    fn concede(&mut self, by: Write<'_>, seat: Seat) -> Result<Vec<Recorded>, GameError>;
    /// Which of `seats` may concede at the head: the game is not over and the seat is not out.
    fn may_concede(&self, seats: &[Seat]) -> Vec<Seat>;
    /// The seats put out at the head (game losses, concessions), in the order they went out.
    fn out(&self) -> Vec<Seat>;
    /// The seed key kifu would hold as this game's dealer ([`super::dealer`]), if its
    /// configuration deals from a dealer's seed.
    fn dealer_key(&self) -> Option<&'static str>;
    /// Makes kifu this game's dealer (see [`LiveGame::with_dealer`]).
    fn set_dealer(&mut self, dealer: Option<super::commit::AgentSecrets>);
    /// Records the automatic steps due now, with no pick before them (see [`LiveGame::settle`]).
    fn settle(&mut self, store: &dyn Store) -> Result<Vec<Recorded>, GameError>;
    /// Events `from..to` described for `viewer`, from a timeline kept and extended per viewer.
    fn timeline_range(&mut self, viewer: Viewer, from: u64, to: u64) -> Vec<TimelineEntry>;
    /// The audit at the head, kept and extended.
    fn audit(&mut self) -> AuditReport;
    /// Roughly the heap bytes the session holds (for bounded caches).
    fn approx_bytes(&self) -> usize;
}

/// A game as the CLI and server use it: everything keyed by ruleset name.
pub trait Driver: Send + Sync {
    fn ruleset(&self) -> &'static str;
    fn ruleset_version(&self) -> u32;
    fn coverage(&self) -> Vec<RuleCoverage>;
    /// How many judge's scenarios each rule ID has.
    fn scenarios(&self) -> Vec<super::ScenarioCount>;
    /// The actions the rules give a player that a table still cannot record.
    fn unrecordable(&self) -> &'static [super::Unrecordable];
    /// The JSON Schema of the entries `kifu game act` and `kifu game import` accept.
    fn entry_schema(&self) -> String;
    /// Creates a game stream from what a user brings.
    fn create(
        &self,
        store: &dyn Store,
        stream: &StreamId,
        request: &NewGame<'_>,
        now: Timestamp,
    ) -> Result<Head, GameError> {
        self.create_bound(store, stream, request, now, None)
    }
    /// As [`Driver::create`], the game bound to a tournament's match (in its hashed header) when
    /// `bound` names one. The caller checks that the match exists and seats these players
    /// (`tournament::claim::check_binding`).
    fn create_bound(
        &self,
        store: &dyn Store,
        stream: &StreamId,
        request: &NewGame<'_>,
        now: Timestamp,
        bound: Option<MatchBinding>,
    ) -> Result<Head, GameError>;
    /// Checks one deck list (in the game's deck-list format, against `catalog` or the game's
    /// sample catalog) by the game's deck rules, as a game whose every seat plays it would check
    /// it at creation: what a registration for an event checks. The list stands if a game of
    /// any seat count the game (and its default policies) allows takes it, so a rule about how
    /// many seats a table has (FATE-PHASE-1: its Masters) never refuses a list.
    fn check_deck(&self, deck: &str, catalog: Option<&str>) -> Result<(), GameError>;
    /// How many seats a game of this ruleset has (two-player games: exactly two).
    fn seats(&self) -> super::SeatRange;
    /// Validates and appends a game action given as JSON. With `forced_by`, a judge forces it.
    /// Without an actor, the player whose action it is records it.
    #[allow(clippy::too_many_arguments)]
    fn act_json(
        &self,
        store: &dyn Store,
        stream: &StreamId,
        actor: Option<Actor>,
        event_json: &str,
        forced_by: Option<String>,
        expected: Option<u64>,
        idempotency: Option<IdempotencyId>,
    ) -> Result<Recorded, GameError>;
    /// Appends a judge's ruling.
    fn rule(
        &self,
        store: &dyn Store,
        stream: &StreamId,
        actor: Actor,
        ruling: Ruling,
        expected: Option<u64>,
        idempotency: Option<IdempotencyId>,
    ) -> Result<Recorded, GameError>;
    /// Sets aside the stored entry at `seq`, which decodes as no event of this game, by judge
    /// `judge`'s ruling ([`record::set_aside`]): the repair of a game an older build damaged.
    fn set_aside(
        &self,
        store: &dyn Store,
        stream: &StreamId,
        judge: &str,
        seq: u64,
        note: String,
    ) -> Result<Recorded, GameError>;
    /// Opens a verified log (from the store or a file) for replay.
    fn open(&self, log: &VerifiedLog) -> Result<Box<dyn Session>, GameError>;
    /// Checks that the log's configuration and every event decode under this game and its
    /// ruleset version (the first that does not is named by sequence number), and that the
    /// names and notes of its rulings and forced entries are within `kifu::log::limits`.
    fn check_decodes(&self, log: &VerifiedLog) -> Result<(), GameError>;
    /// Audits a verified log.
    fn audit(&self, log: &VerifiedLog) -> Result<AuditReport, GameError>;
    /// Imports a whole game given as JSON lines; `stream` overrides the id the file names.
    /// `as_recorded` stores a game recorded elsewhere as it was (see [`record::parse_jsonl`]).
    fn import_jsonl(
        &self,
        store: &dyn Store,
        text: &str,
        stream: Option<StreamId>,
        now: Timestamp,
        as_recorded: bool,
    ) -> Result<(StreamId, Head), GameError> {
        self.import_jsonl_bound(store, text, stream, now, as_recorded, None)
    }
    /// As [`Driver::import_jsonl`], the new stream bound to a tournament's match when `bound`
    /// names one (a game recorded elsewhere enters a tournament only this way: as a new stream).
    fn import_jsonl_bound(
        &self,
        store: &dyn Store,
        text: &str,
        stream: Option<StreamId>,
        now: Timestamp,
        as_recorded: bool,
        bound: Option<MatchBinding>,
    ) -> Result<(StreamId, Head), GameError>;
    /// A game in JSON lines as an in-memory log, parsed as recorded (for auditing a file).
    fn jsonl_log(&self, text: &str) -> Result<VerifiedLog, GameError>;
    /// A verified log as JSON lines.
    fn export_jsonl(&self, log: &VerifiedLog) -> Result<String, GameError>;
    /// Self-plays a game from `seed` and records it as a new stream.
    fn self_play(
        &self,
        store: &dyn Store,
        stream: &StreamId,
        seed: u64,
        players: &[String],
        now: Timestamp,
    ) -> Result<Head, GameError> {
        self.self_play_bound(store, stream, seed, players, now, None)
    }
    /// As [`Driver::self_play`], the game bound to a tournament's match when `bound` names one.
    fn self_play_bound(
        &self,
        store: &dyn Store,
        stream: &StreamId,
        seed: u64,
        players: &[String],
        now: Timestamp,
        bound: Option<MatchBinding>,
    ) -> Result<Head, GameError>;
}

/// The one implementation of [`Driver`], for any [`Game`].
pub struct GameDriver<G>(PhantomData<fn() -> G>);

impl<G> GameDriver<G> {
    pub const fn new() -> Self {
        GameDriver(PhantomData)
    }
}

impl<G> Default for GameDriver<G> {
    fn default() -> Self {
        Self::new()
    }
}

/// Parses a game action given as JSON into the entry to record and who records it.
fn entry_from_json<G: Game>(
    players: &[String],
    actor: Option<Actor>,
    event_json: &str,
    forced_by: Option<String>,
) -> Result<(Actor, GameEntry<G::Event>), GameError> {
    let event: G::Event =
        serde_json::from_str(event_json).map_err(|error| GameError::BadEvent { ruleset: G::RULESET, error })?;
    let actor = match (actor, &forced_by) {
        (Some(a), _) => a,
        (None, Some(judge)) => Actor::Judge(judge.clone()),
        (None, None) => record::actor_for::<G>(players, &event),
    };
    let entry = match forced_by {
        Some(judge) => GameEntry::Forced { judge, broke: vec![], event },
        None => GameEntry::Played(event),
    };
    Ok((actor, entry))
}

impl<G: Game> Session for LiveGame<G> {
    fn players(&self) -> Vec<String> {
        LiveGame::players(self).to_vec()
    }

    fn len(&self) -> u64 {
        LiveGame::len(self)
    }

    fn head(&self) -> Head {
        LiveGame::head(self)
    }

    fn board(&self, n: u64, viewer: Viewer) -> BoardView {
        let table = self.replay.state_at(n);
        let mut board = G::view(&table.game, viewer);
        board.outcome = table.outcome();
        // Who may act is public: the CLI and the viewer show it among the game-wide facts.
        let awaited = table.position().awaited;
        if !awaited.is_empty() {
            let names = LiveGame::players(self);
            let who: Vec<String> = awaited.iter().map(|s| super::seat_name(names, *s)).collect();
            board.facts.push(("waiting for".to_string(), who.join(", ")));
        }
        board
    }

    fn position_at(&self, n: u64) -> Position {
        self.replay.position_at(n)
    }

    fn seek_turn(&self, turn: u32, phase: Option<&str>) -> Option<u64> {
        self.replay.seek_turn(turn, phase)
    }

    fn timeline(&self, viewer: Viewer) -> Vec<TimelineEntry> {
        full_timeline(&self.replay, viewer)
    }

    fn describe(&self, seq: u64, viewer: Viewer) -> Option<TimelineEntry> {
        let step = self.replay.steps().get(usize::try_from(seq).ok()?)?;
        let before = self.replay.state_at(seq);
        let entry =
            timeline_entry::<G>(&before, self.replay.position_at(seq + 1), step, LiveGame::players(self), viewer);
        Some(Undone::of(&self.replay.tip().rulings.backups).mark(entry))
    }

    fn extend(&mut self, stored: &[Vec<u8>]) -> Result<(), GameError> {
        LiveGame::extend(self, stored)
    }

    fn catch_up(&mut self, store: &dyn Store) -> Result<(), GameError> {
        LiveGame::catch_up(self, store)
    }

    fn act_json(
        &mut self,
        store: &dyn Store,
        actor: Option<Actor>,
        event_json: &str,
        forced_by: Option<String>,
        expected: Option<u64>,
        idempotency: Option<IdempotencyId>,
    ) -> Result<Recorded, GameError> {
        let (actor, entry) = entry_from_json::<G>(LiveGame::players(self), actor, event_json, forced_by)?;
        self.record(store, actor, entry, expected, idempotency)
    }

    fn check_json(
        &self,
        actor: Option<Actor>,
        event_json: &str,
        forced_by: Option<String>,
    ) -> Result<Vec<Violation>, GameError> {
        let (actor, entry) = entry_from_json::<G>(LiveGame::players(self), actor, event_json, forced_by)?;
        Ok(LiveGame::check(self, &actor, &entry))
    }

    fn rule(
        &mut self,
        store: &dyn Store,
        actor: Actor,
        ruling: Ruling,
        expected: Option<u64>,
        idempotency: Option<IdempotencyId>,
    ) -> Result<Recorded, GameError> {
        self.record(store, actor, GameEntry::Ruled(ruling), expected, idempotency)
    }

    fn options(&self, seats: &[Seat]) -> Option<Vec<OptionView>> {
        let len = LiveGame::len(self);
        let offered = LiveGame::options(self, seats)?;
        let mut views = options::views(len, &offered);
        options::mark_ending::<G>(&self.replay.tip().game, len, &offered, &mut views);
        options::mark_any_time(&self.replay.tip().position().awaited, &mut views);
        Some(views)
    }

    fn pick(
        &mut self,
        by: Write<'_>,
        seats: &[Seat],
        id: &str,
        params: &BTreeMap<String, Vec<String>>,
    ) -> Result<Vec<Recorded>, GameError> {
        LiveGame::pick(self, by, seats, id, params)
    }

    fn concede(&mut self, by: Write<'_>, seat: Seat) -> Result<Vec<Recorded>, GameError> {
        LiveGame::concede(self, by, seat)
    }

    fn may_concede(&self, seats: &[Seat]) -> Vec<Seat> {
        let tip = self.replay.tip();
        seats.iter().copied().filter(|s| tip.concession_refused(*s).is_none()).collect()
    }

    fn out(&self) -> Vec<Seat> {
        self.replay.tip().eliminated()
    }

    fn dealer_key(&self) -> Option<&'static str> {
        G::dealer_key(&self.replay.config)
    }

    fn set_dealer(&mut self, dealer: Option<super::commit::AgentSecrets>) {
        LiveGame::set_dealer(self, dealer);
    }

    fn settle(&mut self, store: &dyn Store) -> Result<Vec<Recorded>, GameError> {
        LiveGame::settle(self, store)
    }

    fn timeline_range(&mut self, viewer: Viewer, from: u64, to: u64) -> Vec<TimelineEntry> {
        LiveGame::timeline_range(self, viewer, from, to)
    }

    fn audit(&mut self) -> AuditReport {
        LiveGame::audit(self)
    }

    fn approx_bytes(&self) -> usize {
        LiveGame::approx_bytes(self)
    }
}

impl<G: Game> Driver for GameDriver<G> {
    fn ruleset(&self) -> &'static str {
        G::RULESET
    }

    fn ruleset_version(&self) -> u32 {
        G::RULESET_VERSION
    }

    fn coverage(&self) -> Vec<RuleCoverage> {
        G::coverage()
    }

    fn scenarios(&self) -> Vec<super::ScenarioCount> {
        G::scenarios()
    }

    fn unrecordable(&self) -> &'static [super::Unrecordable] {
        G::unrecordable()
    }

    fn entry_schema(&self) -> String {
        let schema = schemars::schema_for!(GameEntry<G::Event>);
        let mut s = serde_json::to_string_pretty(&schema).unwrap_or_default();
        s.push('\n');
        s
    }

    fn create_bound(
        &self,
        store: &dyn Store,
        stream: &StreamId,
        request: &NewGame<'_>,
        now: Timestamp,
        bound: Option<MatchBinding>,
    ) -> Result<Head, GameError> {
        let config = G::new_config(request).map_err(GameError::Config)?;
        record::create_bound::<G>(store, stream, &config, now, bound)
    }

    fn seats(&self) -> super::SeatRange {
        G::SEATS
    }

    fn check_deck(&self, deck: &str, catalog: Option<&str>) -> Result<(), GameError> {
        // The problems of the seat count with the fewest: a list's own problems are the same at
        // every count, a seat-count rule's only at the counts it refuses.
        let count = |e: &GameError| match e {
            GameError::Config(v) => v.len(),
            GameError::Setup(v) => v.len(),
            _ => usize::MAX,
        };
        let mut best: Option<GameError> = None;
        for seats in G::SEATS.min.max(1)..=G::SEATS.max.max(G::SEATS.min.max(1)) {
            match check_deck_seats::<G>(deck, catalog, usize::from(seats)) {
                Ok(()) => return Ok(()),
                Err(e) if best.as_ref().is_none_or(|b| count(&e) < count(b)) => best = Some(e),
                Err(_) => {}
            }
        }
        best.map_or(Ok(()), Err)
    }

    #[allow(clippy::too_many_arguments)]
    fn act_json(
        &self,
        store: &dyn Store,
        stream: &StreamId,
        actor: Option<Actor>,
        event_json: &str,
        forced_by: Option<String>,
        expected: Option<u64>,
        idempotency: Option<IdempotencyId>,
    ) -> Result<Recorded, GameError> {
        let mut live = LiveGame::<G>::load(store, stream)?;
        Session::act_json(&mut live, store, actor, event_json, forced_by, expected, idempotency)
    }

    fn rule(
        &self,
        store: &dyn Store,
        stream: &StreamId,
        actor: Actor,
        ruling: Ruling,
        expected: Option<u64>,
        idempotency: Option<IdempotencyId>,
    ) -> Result<Recorded, GameError> {
        record::record::<G>(store, stream, actor, GameEntry::Ruled(ruling), expected, idempotency)
    }

    fn set_aside(
        &self,
        store: &dyn Store,
        stream: &StreamId,
        judge: &str,
        seq: u64,
        note: String,
    ) -> Result<Recorded, GameError> {
        record::set_aside::<G>(store, stream, judge, seq, note)
    }

    fn open(&self, log: &VerifiedLog) -> Result<Box<dyn Session>, GameError> {
        Ok(Box::new(LiveGame::<G>::open(log)?))
    }

    fn check_decodes(&self, log: &VerifiedLog) -> Result<(), GameError> {
        let g = record::from_log::<G>(log)?;
        // What an import brings in is bounded like what is recorded here (`kifu::log::limits`).
        for step in &g.steps {
            step.entry.check_text().map_err(|error| GameError::StoredTooLong {
                stream: log.header.stream().to_string(),
                seq: step.seq,
                error,
            })?;
        }
        Ok(())
    }

    fn audit(&self, log: &VerifiedLog) -> Result<AuditReport, GameError> {
        let g = record::from_log::<G>(log)?;
        audit::audit::<G>(g.config, g.steps).map(|(r, _)| r).map_err(GameError::Setup)
    }

    fn import_jsonl_bound(
        &self,
        store: &dyn Store,
        text: &str,
        stream: Option<StreamId>,
        now: Timestamp,
        as_recorded: bool,
        bound: Option<MatchBinding>,
    ) -> Result<(StreamId, Head), GameError> {
        let parsed = record::parse_jsonl::<G>(text, as_recorded)?;
        let stream = match (stream, parsed.stream) {
            (Some(s), _) => s,
            (None, Some(n)) => StreamId::new(&n).map_err(record::JsonlProblem::Stream)?,
            (None, None) => return Err(record::JsonlProblem::NoStream.into()),
        };
        let head = record::import_entries_bound::<G>(store, &stream, &parsed.config, parsed.entries, now, bound)?;
        Ok((stream, head))
    }

    fn jsonl_log(&self, text: &str) -> Result<VerifiedLog, GameError> {
        record::jsonl_log::<G>(text)
    }

    fn export_jsonl(&self, log: &VerifiedLog) -> Result<String, GameError> {
        let g = record::from_log::<G>(log)?;
        record::to_jsonl::<G>(log.header.stream(), &g.config, &g.steps)
    }

    fn self_play_bound(
        &self,
        store: &dyn Store,
        stream: &StreamId,
        seed: u64,
        players: &[String],
        now: Timestamp,
        bound: Option<MatchBinding>,
    ) -> Result<Head, GameError> {
        let game = selfplay::self_play::<G>(seed, players, 100_000).map_err(GameError::Setup)?;
        record::import_entries_bound::<G>(store, stream, &game.config, game.entries, now, bound)
    }
}

/// One deck list checked as a game of `seats` seats, every seat playing it, would check it at
/// creation (see [`Driver::check_deck`]).
fn check_deck_seats<G: Game>(deck: &str, catalog: Option<&str>, seats: usize) -> Result<(), GameError> {
    let players: Vec<String> = (1..=seats).map(|i| format!("seat {i}")).collect();
    let decks = vec![deck.to_string(); seats];
    let request = NewGame { players: &players, decks: &decks, catalog, policies: &[] };
    // Every seat plays the same list: say each problem once (the first seat's), not once per seat.
    let once = |problems: Vec<super::ConfigProblem>| {
        let mut kept: Vec<super::ConfigProblem> = Vec::new();
        for p in problems {
            let other_seat = match &p {
                super::ConfigProblem::DeckLine { deck, .. } => *deck != 1,
                super::ConfigProblem::Deck { who, .. } => Some(who) != players.first(),
                _ => false,
            };
            if !other_seat && !kept.iter().any(|k| k.to_string() == p.to_string()) {
                kept.push(p);
            }
        }
        GameError::Config(kept)
    };
    let config = G::new_config(&request).map_err(once)?;
    G::setup(&config).map(|_| ()).map_err(|v| {
        let mut unique: Vec<Violation> = Vec::new();
        for x in v {
            if !unique.iter().any(|u| u.rule == x.rule && u.message == x.message) {
                unique.push(x);
            }
        }
        GameError::Setup(unique)
    })
}
