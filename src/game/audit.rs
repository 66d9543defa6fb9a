//! The audit: folds a whole game and collects every violation (it never stops at the first),
//! with who acted, the rule ID, and whether a judge already ruled on it; then checks commitments
//! and seeds.

use std::collections::HashMap;

use serde::Serialize;

use super::replay::{Replay, Step};
use super::{Game, GameEntry, Outcome, Ruling, Violation};
use crate::log::envelope::Actor;

/// One finding of an audit.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// The event it is about, if any (seed checks at the end of a game may name none).
    pub seq: Option<u64>,
    /// Who recorded that event.
    pub actor: Option<String>,
    pub rule: String,
    pub message: String,
    /// How a judge resolved it, if one did: forced entry, ruling, or backup.
    pub resolution: Option<String>,
    /// For a violation found late, the later event that brought it to light (a reveal): the
    /// finding is cited at `seq`, where the rule was broken, and mentioned at this event.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub found_at: Option<u64>,
}

/// The result of auditing one game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AuditReport {
    pub ruleset: String,
    pub events: u64,
    pub findings: Vec<Finding>,
    pub outcome: Option<Outcome>,
    /// Sealed cards never revealed (information, not a violation: some cards stay hidden).
    pub unrevealed_sealed_cards: usize,
}

impl AuditReport {
    /// Findings no judge has ruled on.
    pub fn unresolved(&self) -> usize {
        self.findings.iter().filter(|f| f.resolution.is_none()).count()
    }

    pub fn is_clean(&self) -> bool {
        self.findings.is_empty()
    }
}

/// The recorder's own checks on who recorded an event, before the game's rules.
pub fn actor_violations<G: Game>(players: &[String], actor: &Actor, entry: &GameEntry<G::Event>) -> Vec<Violation> {
    let mut out = Vec::new();
    match entry {
        GameEntry::Played(e) | GameEntry::RecordedElsewhere(e) => {
            if let (Actor::Player(name), Some(seat)) = (actor, G::acting_seat(e)) {
                let owner = players.get(usize::from(seat));
                if owner != Some(name) {
                    out.push(Violation::new(
                        "KIFU-ACTOR-1",
                        format!(
                            "recorded by player {name:?} but it is an action of seat {seat} ({})",
                            owner.map_or("?", String::as_str)
                        ),
                    ));
                }
            }
        }
        // Whoever stored the undecodable bytes; the ruling that set them aside is checked.
        GameEntry::SetAside { .. } => {}
        // A concession is the seat's own act: its player records it, no one else (a judge
        // gives a game loss, a scorekeeper cannot give up a game for a player).
        GameEntry::Conceded { seat } => {
            let owner = players.get(usize::from(*seat));
            if !matches!(actor, Actor::Player(name) if Some(name) == owner) {
                out.push(Violation::new(
                    "KIFU-CONCEDE-1",
                    format!(
                        "only {} may concede for seat {seat}, not {actor}",
                        owner.map_or("the seat's player", String::as_str)
                    ),
                ));
            }
        }
        GameEntry::Forced { .. } | GameEntry::Ruled(_) => {
            if !matches!(actor, Actor::Judge(_)) {
                out.push(Violation::new(
                    "KIFU-RULING-1",
                    format!("forced entries and rulings are recorded by judges, not by {actor}"),
                ));
            }
        }
    }
    out
}

/// Checks a ruling against the game so far.
pub fn ruling_violations(seats: usize, next_seq: u64, ruling: &Ruling) -> Vec<Violation> {
    let mut out = Vec::new();
    match ruling {
        Ruling::WarningIssued { seat, about, .. } | Ruling::GameLossIssued { seat, about, .. } => {
            if usize::from(*seat) >= seats {
                out.push(Violation::new(
                    "KIFU-RULING-2",
                    format!("seat {seat} does not exist (the game has {seats} seats)"),
                ));
            }
            if let Some(a) = about.filter(|a| *a >= next_seq) {
                out.push(Violation::new(
                    "KIFU-RULING-2",
                    format!(
                        "the ruling is about event {a}, which is not recorded yet (the game has {next_seq} events)"
                    ),
                ));
            }
        }
        Ruling::BackedUp { to_seq, .. } => {
            if *to_seq >= next_seq {
                out.push(Violation::new(
                    "KIFU-RULING-2",
                    format!("cannot back up to event {to_seq}: the game has {next_seq} events"),
                ));
            }
        }
        Ruling::NoteRecorded { about, .. } => {
            if let Some(a) = about.filter(|a| *a >= next_seq) {
                out.push(Violation::new(
                    "KIFU-RULING-2",
                    format!("the note is about event {a}, which is not recorded yet (the game has {next_seq} events)"),
                ));
            }
        }
        Ruling::EntrySetAside { seq, .. } => {
            if *seq >= next_seq {
                out.push(Violation::new(
                    "KIFU-RULING-2",
                    format!("cannot set aside event {seq}: the game has {next_seq} events"),
                ));
            }
        }
    }
    out
}

/// Every violation `step` commits against `state_before` (rules, actor and ruling checks).
pub fn step_violations<G: Game>(
    players: &[String],
    state_before: &super::replay::Table<G>,
    step: &Step<G::Event>,
) -> Vec<Violation> {
    let mut out = actor_violations::<G>(players, &step.actor, &step.entry);
    match &step.entry {
        GameEntry::Played(e) | GameEntry::Forced { event: e, .. } | GameEntry::RecordedElsewhere(e) => {
            let rules = G::validate(&state_before.game, e);
            out.extend(seat_violations::<G>(players.len(), state_before, e, &rules));
            out.extend(rules);
        }
        GameEntry::Ruled(r) => out.extend(ruling_violations(players.len(), step.seq, r)),
        GameEntry::SetAside { .. } => {}
        GameEntry::Conceded { seat } => out.extend(state_before.concession_refused(*seat)),
    }
    out
}

/// The violations of earlier events that `step` brings to light (only a game action can), each
/// naming an event before `step`: a game that names a later one is ignored, not trusted.
pub fn step_revealed_violations<G: Game>(
    state_before: &super::replay::Table<G>,
    step: &Step<G::Event>,
) -> Vec<super::LateViolation> {
    match &step.entry {
        GameEntry::Played(e) | GameEntry::Forced { event: e, .. } | GameEntry::RecordedElsewhere(e) => {
            G::revealed_violations(&state_before.game, e).into_iter().filter(|l| l.at < step.seq).collect()
        }
        GameEntry::Ruled(_) | GameEntry::SetAside { .. } | GameEntry::Conceded { .. } => Vec::new(),
    }
}

/// The recorder's seat checks on a game action, written once for every game: the acting seat
/// exists (`KIFU-SEAT-1`, unless the game's own `validate` already said so), was not eliminated
/// by a judge (`KIFU-SEAT-3`), and, for games that ask for it, is awaited (`KIFU-TURN-1`) unless
/// the event interjects.
pub fn seat_violations<G: Game>(
    seats: usize,
    state_before: &super::replay::Table<G>,
    event: &G::Event,
    rules: &[Violation],
) -> Vec<Violation> {
    let Some(seat) = G::acting_seat(event) else { return vec![] };
    if let Some(v) = super::rules::check_seat(seat, seats) {
        return if rules.iter().any(|r| r.rule == v.rule) { vec![] } else { vec![v] };
    }
    if state_before.eliminated().contains(&seat) {
        return vec![Violation::new(
            "KIFU-SEAT-3",
            format!("seat {seat} is out of the game (a judge's game loss or its concession)"),
        )];
    }
    if G::CHECKS_AWAITED && !G::interjects(&state_before.game, event) {
        return super::rules::check_awaited(seat, &state_before.position().awaited).into_iter().collect();
    }
    vec![]
}

/// An audit that follows a game one step at a time: after any number of steps its report is
/// the report of [`audit`] over the same steps, without refolding. Resolutions are looked up in
/// an index from sequence number to the rulings about it, so the audit costs O(n) overall.
pub struct Auditor<G: Game> {
    players: Vec<String>,
    findings: Vec<Finding>,
    /// The judge of each forced entry, by sequence number.
    forced: HashMap<u64, String>,
    /// The first ruling about each event: (the ruling's sequence number, how it reads).
    about: HashMap<u64, (u64, String)>,
    /// Every backup: (its sequence number, the event it went back to, the judge).
    backups: Vec<(u64, u64, String)>,
    events: u64,
    _game: std::marker::PhantomData<fn() -> G>,
}

impl<G: Game> Auditor<G> {
    pub fn new(config: &G::Config) -> Self {
        // A registered deck that breaks the deck rules (stored only by an as-recorded import):
        // its findings stand at the setup, before event 0.
        let setup = G::setup_as_recorded(config).map_or_else(|v| v, |(_, v)| v);
        Auditor {
            players: G::players(config),
            findings: setup
                .into_iter()
                .map(|v| Finding {
                    seq: None,
                    actor: None,
                    rule: v.rule.to_string(),
                    message: format!("at setup: {}", v.message),
                    resolution: None,
                    found_at: None,
                })
                .collect(),
            forced: HashMap::new(),
            about: HashMap::new(),
            backups: Vec::new(),
            events: 0,
            _game: std::marker::PhantomData,
        }
    }

    /// Audits `step`, given the state before it (call it from [`Replay::push_with`]).
    pub fn observe(&mut self, before: &super::replay::Table<G>, step: &Step<G::Event>) {
        for v in step_violations::<G>(&self.players, before, step) {
            self.findings.push(Finding {
                seq: Some(step.seq),
                actor: Some(step.actor.to_string()),
                rule: v.rule.to_string(),
                message: v.message,
                resolution: None,
                found_at: None,
            });
        }
        for late in step_revealed_violations::<G>(before, step) {
            self.findings.push(Finding {
                seq: Some(late.at),
                actor: None,
                rule: late.violation.rule.to_string(),
                message: format!("{} (found when event {} revealed it)", late.violation.message, step.seq),
                resolution: None,
                found_at: Some(step.seq),
            });
        }
        self.events = step.seq + 1;
        let s = step.seq;
        let about = match &step.entry {
            GameEntry::Forced { judge, .. } => {
                self.forced.insert(s, judge.clone());
                return;
            }
            GameEntry::Ruled(r) => match r {
                Ruling::WarningIssued { judge, about: Some(a), .. } => {
                    (*a, format!("warning by judge {judge} (event {s})"))
                }
                Ruling::GameLossIssued { judge, about: Some(a), .. } => {
                    (*a, format!("game loss by judge {judge} (event {s})"))
                }
                Ruling::NoteRecorded { judge, about: Some(a), .. } => {
                    (*a, format!("note by judge {judge} (event {s})"))
                }
                Ruling::BackedUp { judge, to_seq, .. } => {
                    self.backups.push((s, *to_seq, judge.clone()));
                    return;
                }
                _ => return,
            },
            _ => return,
        };
        // A ruling resolves only events recorded before it; the first ruling about an event counts.
        if about.0 < s {
            self.about.entry(about.0).or_insert((s, about.1));
        }
    }

    /// How a judge resolved a finding at event `seq`, if one did: its forced entry, else the
    /// first later ruling about it or backup over it. A finding brought to light later (`late`)
    /// is not resolved by its event's forced entry: the judge who forced it could not know it.
    fn resolution(&self, seq: u64, late: bool) -> Option<String> {
        if let Some(judge) = self.forced.get(&seq).filter(|_| !late) {
            return Some(format!("forced entry by judge {judge} (event {seq})"));
        }
        let ruled = self.about.get(&seq);
        let backup = self.backups.iter().find(|(at, to, _)| *to <= seq && seq < *at);
        match (ruled, backup) {
            (Some((r, text)), Some((at, _, _))) if r < at => Some(text.clone()),
            (_, Some((at, to, judge))) => Some(format!("backed up to event {to} by judge {judge} (event {at})")),
            (Some((_, text)), None) => Some(text.clone()),
            (None, None) => None,
        }
    }

    /// The report after the steps observed so far; `tip` is the state after them.
    pub fn report(&self, tip: &super::replay::Table<G>) -> AuditReport {
        let mut findings: Vec<Finding> = self
            .findings
            .iter()
            .map(|f| Finding { resolution: f.seq.and_then(|s| self.resolution(s, f.found_at.is_some())), ..f.clone() })
            .collect();
        for (seq, v) in G::ledger(&tip.game).audit() {
            findings.push(Finding {
                seq,
                actor: None,
                rule: v.rule.to_string(),
                message: v.message,
                resolution: seq.and_then(|s| self.resolution(s, false)),
                found_at: None,
            });
        }
        AuditReport {
            ruleset: G::RULESET.to_string(),
            events: self.events,
            findings,
            outcome: tip.outcome(),
            unrevealed_sealed_cards: G::ledger(&tip.game).unrevealed().len(),
        }
    }

    /// Roughly the heap bytes the auditor holds (for the server's cache accounting).
    pub fn approx_bytes(&self) -> usize {
        let finding = std::mem::size_of::<Finding>() + 64;
        self.findings.iter().map(|f| finding + f.message.len()).sum::<usize>()
            + (self.forced.len() + self.about.len() + self.backups.len()) * 96
    }
}

/// Audits a game: one fold, collecting every finding, then resolutions and end-of-game checks.
pub fn audit<G: Game>(
    config: G::Config,
    steps: Vec<Step<G::Event>>,
) -> Result<(AuditReport, Replay<G>), Vec<Violation>> {
    let mut auditor = Auditor::<G>::new(&config);
    let replay = Replay::<G>::with_inspector(config, steps, super::replay::SNAPSHOT_EVERY, |_, before, step| {
        auditor.observe(before, step)
    })?;
    Ok((auditor.report(replay.tip()), replay))
}
