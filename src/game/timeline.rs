//! A game's timeline: each event as one line a viewer may see (who, when, what, and the turn,
//! phase and step after it), described by the game under that viewer's view. The driver and the
//! live game both build their timelines here.

use serde::Serialize;

use super::replay::{Backup, Replay, Step};
use super::{Game, GameEntry, Position, Ruling, Viewer};

/// One line of a game's timeline, as a viewer may see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TimelineEntry {
    pub seq: u64,
    pub recorded_at: String,
    pub actor: String,
    /// Whose action the event is (the acting seat's player) when someone else entered it: a
    /// scorekeeper or judge recording a player's play, or kifu recording an automatic step of a
    /// seat. `None` when the actor is that player, or the event belongs to no seat.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub action_of: Option<String>,
    /// "play", "forced", "ruling", "recorded" (recorded elsewhere, imported as recorded),
    /// "set-aside" (stored bytes no game event decodes from, set aside by a judge) or
    /// "concession" (a player conceded).
    pub kind: &'static str,
    pub text: String,
    /// Turn, phase and step after this event.
    pub turn: u32,
    pub phase: String,
    pub step: String,
    /// A judge's later backup undid this event: it stays in the log and no longer counts. Set
    /// when the entry is served, from the backups recorded so far ([`Undone`]).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub undone: bool,
    /// For a backup ruling that undid events: the first event it undid (the rest up to the
    /// ruling follow), so a page marks them without asking again.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub backs_up_to: Option<u64>,
}

impl TimelineEntry {
    /// The text as a list shows it: an undone event says so, wherever it is listed.
    pub fn shown_text(&self) -> String {
        if self.undone {
            format!("{} [undone by a judge's backup]", self.text)
        } else {
            self.text.clone()
        }
    }
}

/// Which events the backups recorded so far undid, answered in O(log backups) an event: an event
/// `seq` is undone when some backup recorded after it went back to it or before it. Rulings are
/// never undone (a warning stands through a backup); plays, forced and imported events are.
#[derive(Clone, Debug, Default)]
pub struct Undone {
    /// Each effective backup's event, ascending, with the earliest event any backup from there on
    /// went back to.
    at_and_min_to: Vec<(u64, u64)>,
}

impl Undone {
    pub fn of(backups: &[Backup]) -> Undone {
        let mut at_and_min_to: Vec<(u64, u64)> = backups.iter().map(|b| (b.at, b.to)).collect();
        let mut min = u64::MAX;
        for (_, to) in at_and_min_to.iter_mut().rev() {
            min = min.min(*to);
            *to = min;
        }
        Undone { at_and_min_to }
    }

    /// Whether event `seq` was undone by a later backup.
    pub fn undid(&self, seq: u64) -> bool {
        let later = self.at_and_min_to.partition_point(|(at, _)| *at <= seq);
        self.at_and_min_to.get(later).is_some_and(|(_, min_to)| *min_to <= seq)
    }

    /// Marks `entry` undone when a backup undid it (only plays, forced and imported events).
    pub fn mark(&self, mut entry: TimelineEntry) -> TimelineEntry {
        entry.undone = matches!(entry.kind, "play" | "forced" | "recorded") && self.undid(entry.seq);
        entry
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
        Ruling::EntrySetAside { judge, seq, note } => {
            format!("judge {judge}: set aside event {seq}, which does not decode as this game's event: {note}")
        }
    }
}

pub(crate) fn timeline_entry<G: Game>(
    before: &super::replay::Table<G>,
    after: Position,
    step: &Step<G::Event>,
    players: &[String],
    viewer: Viewer,
) -> TimelineEntry {
    let action_of = entered_for::<G>(step, players);
    let (kind, text) = match &step.entry {
        GameEntry::Played(e) => ("play", G::describe(&before.game, e, viewer)),
        GameEntry::Forced { judge, broke, event } => (
            "forced",
            format!(
                "FORCED by judge {} (breaks {}): {}",
                crate::log::limits::shown(judge),
                broke.join(", "),
                G::describe(&before.game, event, viewer)
            ),
        ),
        GameEntry::Ruled(r) => ("ruling", describe_ruling(r, players)),
        GameEntry::SetAside { judge, by } => (
            "set-aside",
            format!(
                "not a {} event (stored by an older build); set aside by judge {} at event {by}",
                G::RULESET,
                crate::log::limits::shown(judge)
            ),
        ),
        GameEntry::Conceded { seat } => ("concession", format!("{} conceded", super::seat_name(players, *seat))),
        GameEntry::RecordedElsewhere(e) => {
            ("recorded", format!("recorded elsewhere, not validated: {}", G::describe(&before.game, e, viewer)))
        }
    };
    // Display only: a player name an earlier build stored unbounded is shown cut in the text.
    let mut text = text;
    for p in players.iter().filter(|p| crate::log::limits::shown(p).len() != p.len()) {
        text = text.replace(p.as_str(), &crate::log::limits::shown(p));
    }
    TimelineEntry {
        seq: step.seq,
        recorded_at: step.recorded_at.to_rfc3339(),
        // Display only: a name an earlier build stored unbounded is shown cut, never refused.
        actor: step.actor.shown(),
        action_of,
        kind,
        text,
        turn: after.turn,
        phase: after.phase.to_string(),
        step: after.step.to_string(),
        undone: false,
        backs_up_to: match &step.entry {
            GameEntry::Ruled(Ruling::BackedUp { to_seq, .. }) if *to_seq < step.seq => Some(*to_seq),
            _ => None,
        },
    }
}

/// The player whose action `step` records, when the actor who entered it is someone else.
fn entered_for<G: Game>(step: &Step<G::Event>, players: &[String]) -> Option<String> {
    let event = match &step.entry {
        GameEntry::Played(e) | GameEntry::RecordedElsewhere(e) | GameEntry::Forced { event: e, .. } => e,
        GameEntry::Ruled(_) | GameEntry::SetAside { .. } | GameEntry::Conceded { .. } => return None,
    };
    let name = players.get(usize::from(G::acting_seat(event)?))?;
    match &step.actor {
        crate::log::envelope::Actor::Player(p) if p == name => None,
        _ => Some(crate::log::limits::shown(name).to_string()),
    }
}

/// Every event of a replay described for `viewer`, in one fold.
pub(crate) fn full_timeline<G: Game>(replay: &Replay<G>, viewer: Viewer) -> Vec<TimelineEntry> {
    let players = G::players(&replay.config);
    let mut state = replay.initial().clone();
    let mut out = Vec::with_capacity(replay.steps().len());
    for (i, step) in replay.steps().iter().enumerate() {
        let after = replay.fold_step(state.clone(), i);
        out.push(timeline_entry::<G>(&state, after.position(), step, &players, viewer));
        state = after;
    }
    let undone = Undone::of(&state.rulings.backups);
    out.into_iter().map(|e| undone.mark(e)).collect()
}
