//! How a recorded game's events are reached through options: each played event is an automatic
//! step (the rules' or, in a game kifu deals, the dealer's), a seat's pick (with or without a
//! parameter), illegal as recorded, or not reachable. What the tests assert and
//! `tools/bench-options` counts, in one place.

use std::collections::BTreeMap;

use super::commit::AgentSecrets;
use super::options::{offering, GameOption, ParamKind, Pick};
use super::replay::{Replay, Table};
use super::{Game, GameEntry};

/// How one played event is reached.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reached {
    /// The rules refuse it (a game imported as recorded): no option offers it, rightly.
    Illegal,
    /// The automatic step due: kifu records it.
    Automatic,
    /// A seat's option records it.
    Picked { with_param: bool },
    /// An escape hatch or table talk ([`Game::RECORDED_AS_EVENTS`]): recorded as an event by a
    /// judge or the table, not offered as an option.
    AsEvent,
    /// No option offers it and it is not the automatic step due.
    Unreachable,
}

/// The common escape hatches (`CommonEvent`'s free-words events), recorded as events in every game.
pub const COMMON_AS_EVENTS: &[&str] = &["Common(CardMoved", "Common(CounterSet", "Common(NoteRecorded"];

/// How a game's (or many games') events are reached.
#[derive(Clone, Debug, Default)]
pub struct Reach {
    pub events: usize,
    pub automatic: usize,
    pub picks: usize,
    pub with_param: usize,
    pub illegal: usize,
    /// Escape hatches and table talk recorded as events ([`Reached::AsEvent`]), by kind.
    pub as_events: BTreeMap<String, usize>,
    /// The events no option offered and no automatic step is, by kind ([`event_kind`]).
    pub unreachable: BTreeMap<String, usize>,
}

impl Reach {
    /// Counts one event.
    pub fn count(&mut self, reached: &Reached, kind: impl FnOnce() -> String) {
        self.events += 1;
        match reached {
            Reached::Illegal => self.illegal += 1,
            Reached::Automatic => self.automatic += 1,
            Reached::Picked { with_param } => {
                self.picks += 1;
                self.with_param += usize::from(*with_param);
            }
            Reached::AsEvent => *self.as_events.entry(kind()).or_default() += 1,
            Reached::Unreachable => *self.unreachable.entry(kind()).or_default() += 1,
        }
    }

    /// Adds another count to this one.
    pub fn add(&mut self, other: Reach) {
        self.events += other.events;
        self.automatic += other.automatic;
        self.picks += other.picks;
        self.with_param += other.with_param;
        self.illegal += other.illegal;
        for (k, n) in other.as_events {
            *self.as_events.entry(k).or_default() += n;
        }
        for (k, n) in other.unreachable {
            *self.unreachable.entry(k).or_default() += n;
        }
    }
}

/// An event's kind as reports name it: its variant, and the inner variant of a wrapped one
/// (`Common(SeedCommitted`).
pub fn event_kind(event: &impl std::fmt::Debug) -> String {
    let text = format!("{event:?}");
    let name = |t: &str| t.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect::<String>();
    let head = name(&text);
    match text.strip_prefix(&format!("{head}(")) {
        Some(rest) => format!("{head}({}", name(rest)),
        None => head,
    }
}

/// The dealer of a recorded digital game: the seed its log reveals under the game's dealer key
/// (what kifu held while it dealt the game).
pub fn dealer_of<G: Game>(replay: &Replay<G>) -> Option<AgentSecrets> {
    let key = G::dealer_key(&replay.config)?;
    let seed = G::ledger(&replay.tip().game).seed_value(key)?;
    Some(super::dealer::holding(key, seed))
}

/// How `event`, played at `table`, is reached; a dealt parameter counts only when its cards are
/// exactly what `dealer` deals.
pub fn reached<G: Game>(table: &Table<G>, event: &G::Event, dealer: Option<&AgentSecrets>) -> Reached {
    let state = &table.game;
    if !G::validate(state, event).is_empty() {
        return Reached::Illegal;
    }
    let ruled = if table.outcome().is_none() { G::automatic(state) } else { None };
    if ruled.or_else(|| dealer.and_then(|d| G::dealt(state, d))).as_ref() == Some(event) {
        return Reached::Automatic;
    }
    let dealt_right = |o: &GameOption<G::Event>| match &o.pick {
        Pick::Param { param, read, .. } if param.kind == ParamKind::Dealt => {
            let dealt = dealer.and_then(|d| G::deal_cards(state, o.seat, param.count, d));
            dealt.is_some() && dealt == read(event)
        }
        _ => true,
    };
    match offering::<G>(state, event).into_iter().find(dealt_right) {
        Some(o) => Reached::Picked { with_param: o.param().is_some() },
        None if recorded_as_event::<G>(event) => Reached::AsEvent,
        None => Reached::Unreachable,
    }
}

/// Whether `event` is of a kind a table records as an event ([`Game::RECORDED_AS_EVENTS`]).
pub fn recorded_as_event<G: Game>(event: &G::Event) -> bool {
    let kind = event_kind(event);
    G::RECORDED_AS_EVENTS.iter().chain(COMMON_AS_EVENTS).any(|k| *k == kind)
}

/// Walks a recorded game: how each action played (not forced, not a ruling) is reached.
pub fn reach<G: Game>(replay: &Replay<G>) -> Reach {
    let dealer = dealer_of(replay);
    let mut r = Reach::default();
    for (i, step) in replay.steps().iter().enumerate() {
        let GameEntry::Played(event) = &step.entry else { continue };
        let table = replay.state_at(i as u64);
        r.count(&reached(&table, event, dealer.as_ref()), || event_kind(event));
    }
    r
}
