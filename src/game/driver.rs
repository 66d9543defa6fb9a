//! The type-erased game driver: lets the CLI and the server work with any game by its ruleset
//! name, through one implementation written against [`Game`].

use std::marker::PhantomData;

use serde::Serialize;

use super::audit::{self, AuditReport};
use super::record::{self, GameError, Recorded};
use super::replay::{Replay, Step};
use super::selfplay;
use super::{BoardView, Game, GameEntry, NewGame, Position, RuleCoverage, Ruling, Viewer};
use crate::log::chain::{Head, VerifiedLog};
use crate::log::envelope::{Actor, StreamId, Timestamp};
use crate::store::Store;

/// One line of a game's timeline, as a viewer may see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TimelineEntry {
    pub seq: u64,
    pub recorded_at: String,
    pub actor: String,
    /// "play", "forced" or "ruling".
    pub kind: &'static str,
    pub text: String,
    /// Turn, phase and step after this event.
    pub turn: u32,
    pub phase: String,
    pub step: String,
}

/// A game opened for replay, whatever the game. `Send + Sync`: the server caches opened
/// sessions and reads them from many request handlers at once.
pub trait Session: Send + Sync {
    fn players(&self) -> Vec<String>;
    /// The number of events.
    fn len(&self) -> u64;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
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
}

/// A game as the CLI and server use it: everything keyed by ruleset name.
pub trait Driver: Send + Sync {
    fn ruleset(&self) -> &'static str;
    fn ruleset_version(&self) -> u32;
    fn coverage(&self) -> Vec<RuleCoverage>;
    /// The JSON Schema of the entries `kifu game act` and `kifu game import` accept.
    fn entry_schema(&self) -> String;
    /// Creates a game stream from what a user brings.
    fn create(
        &self,
        store: &dyn Store,
        stream: &StreamId,
        request: &NewGame<'_>,
        now: Timestamp,
    ) -> Result<Head, GameError>;
    /// Validates and appends a game action given as JSON. With `forced_by`, a judge forces it.
    /// Without an actor, the player whose action it is records it.
    fn act_json(
        &self,
        store: &dyn Store,
        stream: &StreamId,
        actor: Option<Actor>,
        event_json: &str,
        forced_by: Option<String>,
        expected: Option<u64>,
    ) -> Result<Recorded, GameError>;
    /// Appends a judge's ruling.
    fn rule(
        &self,
        store: &dyn Store,
        stream: &StreamId,
        actor: Actor,
        ruling: Ruling,
        expected: Option<u64>,
    ) -> Result<Recorded, GameError>;
    /// Opens a verified log (from the store or a file) for replay.
    fn open(&self, log: &VerifiedLog) -> Result<Box<dyn Session>, GameError>;
    /// Audits a verified log.
    fn audit(&self, log: &VerifiedLog) -> Result<AuditReport, GameError>;
    /// Imports a whole game given as JSON lines; `stream` overrides the id the file names.
    fn import_jsonl(
        &self,
        store: &dyn Store,
        text: &str,
        stream: Option<StreamId>,
        now: Timestamp,
    ) -> Result<(StreamId, Head), GameError>;
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

/// How a ruling reads in a timeline.
fn describe_ruling(r: &Ruling, players: &[String]) -> String {
    let who = |s: &u8| players.get(usize::from(*s)).cloned().unwrap_or_else(|| format!("seat {s}"));
    let about = |a: &Option<u64>| a.map(|a| format!(" about event {a}")).unwrap_or_default();
    let rule = |r: &Option<String>| r.as_ref().map(|r| format!(" ({r})")).unwrap_or_default();
    match r {
        Ruling::WarningIssued { judge, seat, rule: rid, about: a, note } => {
            format!("judge {judge}: warning to {}{}{}: {note}", who(seat), rule(rid), about(a))
        }
        Ruling::GameLossIssued { judge, seat, rule: rid, about: a, note } => {
            format!("judge {judge}: GAME LOSS to {}{}{}: {note}", who(seat), rule(rid), about(a))
        }
        Ruling::BackedUp { judge, to_seq, note } => {
            format!("judge {judge}: backed the game up to before event {to_seq}: {note}")
        }
        Ruling::NoteRecorded { judge, about: a, note } => format!("judge {judge}: note{}: {note}", about(a)),
    }
}

fn timeline_entry<G: Game>(
    before: &super::replay::Table<G>,
    after: Position,
    step: &Step<G::Event>,
    players: &[String],
    viewer: Viewer,
) -> TimelineEntry {
    let (kind, text) = match &step.entry {
        GameEntry::Played(e) => ("play", G::describe(&before.game, e, viewer)),
        GameEntry::Forced { judge, broke, event } => (
            "forced",
            format!(
                "FORCED by judge {judge} (breaks {}): {}",
                broke.join(", "),
                G::describe(&before.game, event, viewer)
            ),
        ),
        GameEntry::Ruled(r) => ("ruling", describe_ruling(r, players)),
    };
    TimelineEntry {
        seq: step.seq,
        recorded_at: step.recorded_at.to_rfc3339(),
        actor: step.actor.to_string(),
        kind,
        text,
        turn: after.turn,
        phase: after.phase.to_string(),
        step: after.step.to_string(),
    }
}

impl<G: Game> Session for Replay<G> {
    fn players(&self) -> Vec<String> {
        G::players(&self.config)
    }

    fn len(&self) -> u64 {
        Replay::len(self)
    }

    fn board(&self, n: u64, viewer: Viewer) -> BoardView {
        let table = self.state_at(n);
        let mut board = G::view(&table.game, viewer);
        board.outcome = table.outcome();
        // Who may act is public: the CLI and the viewer show it among the game-wide facts.
        let awaited = table.position().awaited;
        if !awaited.is_empty() {
            let names = G::players(&self.config);
            let who: Vec<String> = awaited.iter().map(|s| super::seat_name(&names, *s)).collect();
            board.facts.push(("waiting for".to_string(), who.join(", ")));
        }
        board
    }

    fn position_at(&self, n: u64) -> Position {
        Replay::position_at(self, n)
    }

    fn seek_turn(&self, turn: u32, phase: Option<&str>) -> Option<u64> {
        Replay::seek_turn(self, turn, phase)
    }

    fn timeline(&self, viewer: Viewer) -> Vec<TimelineEntry> {
        let players = G::players(&self.config);
        let mut state = self.initial().clone();
        let mut out = Vec::with_capacity(self.steps().len());
        for (i, step) in self.steps().iter().enumerate() {
            let after = self.fold_step(state.clone(), i);
            out.push(timeline_entry::<G>(&state, after.position(), step, &players, viewer));
            state = after;
        }
        out
    }

    fn describe(&self, seq: u64, viewer: Viewer) -> Option<TimelineEntry> {
        let step = self.steps().get(usize::try_from(seq).ok()?)?;
        let before = self.state_at(seq);
        Some(timeline_entry::<G>(&before, Replay::position_at(self, seq + 1), step, &G::players(&self.config), viewer))
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

    fn entry_schema(&self) -> String {
        let schema = schemars::schema_for!(GameEntry<G::Event>);
        let mut s = serde_json::to_string_pretty(&schema).unwrap_or_default();
        s.push('\n');
        s
    }

    fn create(
        &self,
        store: &dyn Store,
        stream: &StreamId,
        request: &NewGame<'_>,
        now: Timestamp,
    ) -> Result<Head, GameError> {
        let config = G::new_config(request).map_err(|errs| GameError::Input(errs.join("\n")))?;
        record::create::<G>(store, stream, &config, now)
    }

    fn act_json(
        &self,
        store: &dyn Store,
        stream: &StreamId,
        actor: Option<Actor>,
        event_json: &str,
        forced_by: Option<String>,
        expected: Option<u64>,
    ) -> Result<Recorded, GameError> {
        let event: G::Event = serde_json::from_str(event_json)
            .map_err(|e| GameError::Input(format!("the event is not a valid {} event: {e}", G::RULESET)))?;
        let actor = match (actor, &forced_by) {
            (Some(a), _) => a,
            (None, Some(judge)) => Actor::Judge(judge.clone()),
            (None, None) => {
                let (_, header) = store.header(stream)?;
                record::actor_for::<G>(&header.v1().players, &event)
            }
        };
        let entry = match forced_by {
            Some(judge) => GameEntry::Forced { judge, broke: vec![], event },
            None => GameEntry::Played(event),
        };
        record::record::<G>(store, stream, actor, entry, expected)
    }

    fn rule(
        &self,
        store: &dyn Store,
        stream: &StreamId,
        actor: Actor,
        ruling: Ruling,
        expected: Option<u64>,
    ) -> Result<Recorded, GameError> {
        record::record::<G>(store, stream, actor, GameEntry::Ruled(ruling), expected)
    }

    fn open(&self, log: &VerifiedLog) -> Result<Box<dyn Session>, GameError> {
        let g = record::from_log::<G>(log)?;
        Ok(Box::new(Replay::<G>::new(g.config, g.steps).map_err(GameError::Setup)?))
    }

    fn audit(&self, log: &VerifiedLog) -> Result<AuditReport, GameError> {
        let g = record::from_log::<G>(log)?;
        audit::audit::<G>(g.config, g.steps).map(|(r, _)| r).map_err(GameError::Setup)
    }

    fn import_jsonl(
        &self,
        store: &dyn Store,
        text: &str,
        stream: Option<StreamId>,
        now: Timestamp,
    ) -> Result<(StreamId, Head), GameError> {
        let parsed = record::parse_jsonl::<G>(text)?;
        let stream = match (stream, parsed.stream) {
            (Some(s), _) => s,
            (None, Some(n)) => StreamId::new(&n).map_err(|e| GameError::Input(format!("line 1: {e}")))?,
            (None, None) => return Err(GameError::Input("line 1 names no \"stream\"; give one with --id".into())),
        };
        let head = record::import_entries::<G>(store, &stream, &parsed.config, parsed.entries, now)?;
        Ok((stream, head))
    }

    fn export_jsonl(&self, log: &VerifiedLog) -> Result<String, GameError> {
        let g = record::from_log::<G>(log)?;
        record::to_jsonl::<G>(log.header.stream(), &g.config, &g.steps)
    }

    fn self_play(
        &self,
        store: &dyn Store,
        stream: &StreamId,
        seed: u64,
        players: &[String],
        now: Timestamp,
    ) -> Result<Head, GameError> {
        let game = selfplay::self_play::<G>(seed, players, 100_000).map_err(GameError::Setup)?;
        record::import_entries::<G>(store, stream, &game.config, game.entries, now)
    }
}
