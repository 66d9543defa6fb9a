//! The audit: folds a whole game and collects every violation (it never stops at the first),
//! with who acted, the rule ID, and whether a judge already ruled on it; then checks commitments
//! and seeds.

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
        GameEntry::Played(e) => {
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
            if about.is_some_and(|a| a >= next_seq) {
                out.push(Violation::new(
                    "KIFU-RULING-2",
                    format!("the ruling is about event {about:?}, which is not recorded yet"),
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
            if about.is_some_and(|a| a >= next_seq) {
                out.push(Violation::new(
                    "KIFU-RULING-2",
                    format!("the note is about event {about:?}, which is not recorded yet"),
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
        GameEntry::Played(e) | GameEntry::Forced { event: e, .. } => {
            let rules = G::validate(&state_before.game, e);
            out.extend(seat_violations::<G>(players.len(), state_before, e, &rules));
            out.extend(rules);
        }
        GameEntry::Ruled(r) => out.extend(ruling_violations(players.len(), step.seq, r)),
    }
    out
}

/// The recorder's seat checks on a game action, written once for every game: the acting seat
/// exists (`KIFU-SEAT-1`, unless the game's own `validate` already said so), was not eliminated
/// by a judge (`KIFU-SEAT-3`), and, for games that ask for it, is awaited (`KIFU-TURN-1`).
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
        return vec![Violation::new("KIFU-SEAT-3", format!("seat {seat} is out of the game (a judge's game loss)"))];
    }
    if G::CHECKS_AWAITED {
        return super::rules::check_awaited(seat, &state_before.position().awaited).into_iter().collect();
    }
    vec![]
}

/// Audits a game: one fold, collecting every finding, then resolutions and end-of-game checks.
pub fn audit<G: Game>(
    config: G::Config,
    steps: Vec<Step<G::Event>>,
) -> Result<(AuditReport, Replay<G>), Vec<Violation>> {
    let players = G::players(&config);
    let mut findings = Vec::new();
    let replay = Replay::<G>::with_inspector(config, steps, super::replay::SNAPSHOT_EVERY, |_, before, step| {
        for v in step_violations::<G>(&players, before, step) {
            findings.push(Finding {
                seq: Some(step.seq),
                actor: Some(step.actor.to_string()),
                rule: v.rule.to_string(),
                message: v.message,
                resolution: None,
            });
        }
    })?;
    for f in &mut findings {
        f.resolution = f.seq.and_then(|seq| resolution(&replay, seq));
    }
    let last = replay.last();
    for (seq, v) in G::ledger(&last.game).audit() {
        findings.push(Finding {
            seq,
            actor: None,
            rule: v.rule.to_string(),
            message: v.message,
            resolution: seq.and_then(|s| resolution(&replay, s)),
        });
    }
    let report = AuditReport {
        ruleset: G::RULESET.to_string(),
        events: replay.len(),
        findings,
        outcome: last.outcome(),
        unrevealed_sealed_cards: G::ledger(&last.game).unrevealed().len(),
    };
    Ok((report, replay))
}

/// How a judge resolved a finding at event `seq`, if one did.
fn resolution<G: Game>(replay: &Replay<G>, seq: u64) -> Option<String> {
    let steps = replay.steps();
    if let Some(GameEntry::Forced { judge, .. }) = steps.get(seq as usize).map(|s| &s.entry) {
        return Some(format!("recorded by judge {judge} with --force"));
    }
    for s in steps.iter().skip(seq as usize + 1) {
        let GameEntry::Ruled(r) = &s.entry else {
            continue;
        };
        let found = match r {
            Ruling::WarningIssued { judge, about: Some(a), .. } if *a == seq => {
                format!("warning by judge {judge} (event {})", s.seq)
            }
            Ruling::GameLossIssued { judge, about: Some(a), .. } if *a == seq => {
                format!("game loss by judge {judge} (event {})", s.seq)
            }
            Ruling::NoteRecorded { judge, about: Some(a), .. } if *a == seq => {
                format!("note by judge {judge} (event {})", s.seq)
            }
            Ruling::BackedUp { judge, to_seq, .. } if *to_seq <= seq && seq < s.seq => {
                format!("backed up to event {to_seq} by judge {judge} (event {})", s.seq)
            }
            _ => continue,
        };
        return Some(found);
    }
    None
}
