//! Rule violations and the rule-coverage table: the vocabulary `validate` and the audit speak.

use serde::Serialize;

/// A stable rule ID from `docs/rules/RULES-DIGEST.md`, e.g. `NAR-NINJA-2`; `KIFU-*` for the
/// recorder's own checks (actor, commitments, seeds).
pub type RuleId = &'static str;

/// One broken rule: its ID and a one-line explanation of what was wrong in this case.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Violation {
    pub rule: RuleId,
    pub message: String,
}

impl Violation {
    pub fn new(rule: RuleId, message: impl Into<String>) -> Self {
        Violation { rule, message: message.into() }
    }
}

/// A later rules version's more specific citation: every violation in `out` under one of the
/// `general` rule IDs is cited under `specific` instead, with `message`. The event is refused
/// exactly as before; only the rule a judge reads changes (earlier versions keep their findings).
/// The owed steps an event leaves out, for a game whose automatic steps are recorded in their
/// turn (Vanguard, FATE): when the event moves the game on, the steps owed before it, which is
/// all of them unless the event is itself one of them (`is_it`); an event that moves nothing on
/// leaves none out. The steps owed after it are not due yet, so they are not left out.
pub fn steps_owed_before<E>(mut owed: Vec<E>, moves_on: bool, is_it: impl Fn(&E) -> bool) -> Vec<E> {
    if !moves_on {
        return Vec::new();
    }
    let before = owed.iter().position(is_it).unwrap_or(owed.len());
    owed.truncate(before);
    owed
}

pub fn cite_specifically(out: &mut [Violation], general: &[RuleId], specific: RuleId, message: &str) {
    for v in out.iter_mut().filter(|v| general.contains(&v.rule)) {
        v.rule = specific;
        v.message = message.to_string();
    }
}

/// A violation an event brings to light about an earlier one: the earlier event (`at`, its
/// sequence number) broke the rule, but only this event (a reveal of a sealed card, say) shows it.
/// The audit cites it at `at`, where the mistake was made, and says which event found it; the
/// revealing event itself is legal and recorded as played.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LateViolation {
    pub at: u64,
    pub violation: Violation,
}

impl std::fmt::Display for Violation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.rule, self.message)
    }
}

/// How the recorder treats one rule ID of the digest.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Enforcement {
    /// `validate` rejects events that break it; a given/when/then test names the ID.
    Enforced,
    /// Recorded as it happened, not checked; the reason says why (an OPEN point, a card-specific effect, ...).
    RecordedNotEnforced { reason: &'static str },
    /// Not a rule the recorder can act on (an OPEN question, glossary, context).
    Informational { reason: &'static str },
}

/// One row of a game's coverage table, generated from the code into the docs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RuleCoverage {
    pub rule: RuleId,
    pub summary: &'static str,
    pub enforcement: Enforcement,
}

/// One row of a coverage table: what every game's `coverage()` lists.
pub fn row(rule: RuleId, summary: &'static str, enforcement: Enforcement) -> RuleCoverage {
    RuleCoverage { rule, summary, enforcement }
}

/// How many of a game's judge's scenarios (the given/when/then table in `tests/it/{game}/rules.rs`)
/// concern one rule ID, and where its illegal ones are cited: one line of the generated
/// `src/games/{game}/scenarios.tsv`, which a test keeps in step with the table.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ScenarioCount {
    pub rule: String,
    /// Cases where the action breaks it; each is recorded judge-forced and imported as recorded
    /// elsewhere, and both must cite it at that action.
    pub illegal: u32,
    /// Legal-but-tricky cases about it that must give no finding at all.
    pub tricky: u32,
    /// The events its illegal cases are cited at (`setup` for registering the decks).
    pub cited_at: Vec<String>,
}

impl ScenarioCount {
    /// Both an illegal and a tricky case: what the issue of judge's scenarios asks of every
    /// enforced rule.
    pub fn has_both(&self) -> bool {
        self.illegal > 0 && self.tricky > 0
    }
}

/// The first line of `scenarios.tsv`.
const SCENARIO_COLUMNS: &str = "rule\tillegal\ttricky\tcited at";

/// The lines of a `scenarios.tsv` (generated, so a line that does not parse is skipped, not an error).
pub fn parse_scenarios(text: &str) -> Vec<ScenarioCount> {
    text.lines()
        .filter(|l| *l != SCENARIO_COLUMNS)
        .filter_map(|l| {
            let mut f = l.split('\t');
            let rule = f.next()?.to_string();
            let illegal = f.next()?.parse().ok()?;
            let tricky = f.next()?.parse().ok()?;
            let cited_at = f.next().unwrap_or("").split(',').filter(|e| !e.is_empty()).map(str::to_string).collect();
            Some(ScenarioCount { rule, illegal, tricky, cited_at })
        })
        .collect()
}

/// `scenarios.tsv` for `counts`: what [`parse_scenarios`] reads back.
pub fn scenarios_text(counts: &[ScenarioCount]) -> String {
    let mut out = format!("{SCENARIO_COLUMNS}\n");
    for c in counts {
        out.push_str(&format!("{}\t{}\t{}\t{}\n", c.rule, c.illegal, c.tricky, c.cited_at.join(",")));
    }
    out
}

/// An action the rules give a player that a table cannot record in kifu (kifu performs it by
/// itself inside another event, or has no event for it), so a table that got it wrong cannot
/// be recorded and its mistake cannot be caught. Each game lists what remains (`coverage::UNRECORDABLE`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Unrecordable {
    pub rule: RuleId,
    /// What the table does that kifu cannot record.
    pub action: &'static str,
    /// Why it stays so.
    pub why: &'static str,
}

/// One game's measure of how far a judge can trust its rules: rule IDs in the digest section,
/// enforced ones, enforced ones with both an illegal and a tricky scenario, and actions a table
/// cannot record. `kifu game rules --summary` prints it; COVERAGE.md opens with it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RulesSummary {
    pub rule_ids: usize,
    pub enforced: usize,
    pub enforced_with_both_cases: usize,
    pub cannot_record: usize,
}

/// The summary of a game's coverage rows, scenario counts and unrecordable actions.
pub fn rules_summary(
    rows: &[RuleCoverage],
    scenarios: &[ScenarioCount],
    unrecordable: &[Unrecordable],
) -> RulesSummary {
    let enforced: Vec<&RuleCoverage> = rows.iter().filter(|r| r.enforcement == Enforcement::Enforced).collect();
    let both = enforced.iter().filter(|r| scenarios.iter().any(|c| c.rule == r.rule && c.has_both())).count();
    RulesSummary {
        rule_ids: rows.len(),
        enforced: enforced.len(),
        enforced_with_both_cases: both,
        cannot_record: unrecordable.len(),
    }
}

/// What a game's COVERAGE.md is made of.
pub struct CoverageDoc<'a> {
    pub title: &'a str,
    pub game: &'a str,
    /// Rule-ID prefixes counted on lines of their own (`["VG-", "VGC-"]`, for a game whose digest
    /// section holds two rule families); empty counts all rows on one line.
    pub groups: &'a [&'a str],
    pub rows: &'a [RuleCoverage],
    pub scenarios: &'a [ScenarioCount],
    pub unrecordable: &'a [Unrecordable],
}

/// One game's coverage table as markdown: the generated `src/games/{game}/COVERAGE.md`.
pub fn coverage_markdown(doc: &CoverageDoc<'_>) -> String {
    let (game, rows) = (doc.game, doc.rows);
    let mut out = format!("# {}\n\n", doc.title);
    out.push_str(&format!(
        "Generated from `src/games/{game}/coverage.rs` and `src/games/{game}/scenarios.tsv` (itself generated from \
         the judge's scenarios in `tests/it/{game}/rules.rs`) by `coverage_markdown()`; do not edit by hand.\n"
    ));
    out.push_str(&format!("Regenerate with `UPDATE_EXPECT=1 cargo test --release {game}` (twice: the first run updates `scenarios.tsv`).\n\n"));
    if doc.groups.is_empty() {
        out.push_str(&count_line(rows.iter()));
    }
    for prefix in doc.groups {
        let line = count_line(rows.iter().filter(|r| r.rule.starts_with(prefix)));
        out.push_str(&format!("{prefix}*: {line}"));
    }
    let sum = rules_summary(rows, doc.scenarios, doc.unrecordable);
    out.push_str(&format!(
        "Judge's scenarios: {} of {} enforced IDs have an illegal case (recorded judge-forced and imported as \
         recorded elsewhere) and a legal-but-tricky case. Actions a table cannot record: {}.\n\n",
        sum.enforced_with_both_cases, sum.enforced, sum.cannot_record
    ));
    for u in doc.unrecordable {
        out.push_str(&format!("- cannot record ({}): {}; {}\n", u.rule, u.action, u.why));
    }
    if !doc.unrecordable.is_empty() {
        out.push('\n');
    }
    out.push_str("| Rule | Summary | Enforcement | Cited at | Illegal / tricky cases |\n|---|---|---|---|---|\n");
    for r in rows {
        let count = doc.scenarios.iter().find(|c| c.rule == r.rule);
        let cited = count.map(|c| c.cited_at.join(", ")).unwrap_or_default();
        let cases = count.map_or("0 / 0".to_string(), |c| format!("{} / {}", c.illegal, c.tricky));
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} |\n",
            r.rule,
            r.summary.replace('|', "\\|"),
            enforcement_cell(&r.enforcement).replace('|', "\\|"),
            cited,
            cases
        ));
    }
    out
}

/// `N rule IDs: E enforced, R recorded but not enforced, I informational.` and a blank line.
fn count_line<'a>(rows: impl Iterator<Item = &'a RuleCoverage>) -> String {
    let (mut total, mut enforced, mut recorded) = (0, 0, 0);
    for r in rows {
        total += 1;
        match r.enforcement {
            Enforcement::Enforced => enforced += 1,
            Enforcement::RecordedNotEnforced { .. } => recorded += 1,
            Enforcement::Informational { .. } => {}
        }
    }
    let info = total - enforced - recorded;
    format!("{total} rule IDs: {enforced} enforced, {recorded} recorded but not enforced, {info} informational.\n\n")
}

fn enforcement_cell(e: &Enforcement) -> String {
    match e {
        Enforcement::Enforced => "Enforced".to_string(),
        Enforcement::RecordedNotEnforced { reason } => format!("Recorded, not enforced: {reason}"),
        Enforcement::Informational { reason } => format!("Informational: {reason}"),
    }
}

/// A rule's one-line summary: the game's coverage row, else the recorder's own `KIFU-*` rule.
pub fn summary_of(coverage: &[RuleCoverage], rule: &str) -> Option<&'static str> {
    coverage
        .iter()
        .find(|r| r.rule == rule)
        .map(|r| r.summary)
        .or_else(|| KIFU_RULES.iter().find(|(r, _)| *r == rule).map(|(_, s)| *s))
}

/// Every `KIFU-*` rule ID the recorder reports, with what it means: the recorder's own checks,
/// shared by every game. docs/rule-ids.md lists the same table; a test keeps the two and the
/// source in step.
pub const KIFU_RULES: &[(RuleId, &str)] = &[
    ("KIFU-ACTOR-1", "a player recorded another seat's action"),
    ("KIFU-CARD-1", "an event names a card that is not where it says (not in that zone, named twice)"),
    ("KIFU-CARD-2", "a deck names a card its catalog does not define"),
    ("KIFU-RULING-1", "a forced entry or ruling not recorded by a judge"),
    ("KIFU-RULING-2", "a ruling about an event or seat that does not exist"),
    ("KIFU-RULING-3", "(import only) a forced entry whose `broke` list is not what the rules report"),
    ("KIFU-SEAT-1", "an event names a seat the game does not have"),
    ("KIFU-SEAT-2", "the number of players is outside the game's seat range"),
    ("KIFU-SEAT-3", "an event names a seat that is out of the game (a judge's game loss or its own concession)"),
    ("KIFU-TURN-1", "a seat acted that the game was not waiting for"),
    (
        "KIFU-CONCEDE-1",
        "a concession recorded by anyone but the conceding seat's own player (a judge gives a game loss instead)",
    ),
    ("KIFU-CONCEDE-2", "a concession after the game ended, or by a seat already out of it"),
    (
        "KIFU-DEAL-1",
        "a player recorded a shuffle, draw or deal in a game dealt from a dealer's seed (the dealer records those)",
    ),
    ("KIFU-OPT-1", "a pick names an option that is not open to the seat now"),
    ("KIFU-OPT-2", "a pick's parameter values are not among the option's allowed values, or not as many as it takes"),
    ("KIFU-SEAL-1", "a card reveal that does not match its sealed commitment"),
    ("KIFU-SEAL-2", "a sealed choice reveal that does not match its seal, or a choice sealed twice"),
    ("KIFU-SEED-1", "a seed reveal that does not match its commitment"),
    ("KIFU-SEED-2", "a seeded shuffle whose recorded draws disagree with the seed"),
    ("KIFU-SEED-3", "a seed committed but never revealed"),
    ("KIFU-SEED-4", "randomness that names a seed never committed, or a digital game without one"),
    ("KIFU-SEED-5", "a combined seed share revealed before every seat committed, or committed twice"),
    ("KIFU-DIE-1", "a die value outside the die, or a pick outside the choices"),
    ("KIFU-DIE-2", "a digital die roll or random pick that disagrees with its seed"),
    ("KIFU-DIE-3", "randomness recorded in the wrong mode (a seed at a physical table, none at a digital one)"),
    ("KIFU-DIE-4", "a die roll or random pick the game did not use (rolled again, or followed by another action)"),
    (
        "KIFU-CHAIN-1",
        "a draw from a hash-chain round that is not the current one, or before every seat revealed its link",
    ),
];

/// Whether `rule` is a registered `KIFU-*` ID.
pub fn is_kifu_rule(rule: &str) -> bool {
    KIFU_RULES.iter().any(|(r, _)| *r == rule)
}

/// The one seat check: `seat` exists in a game of `seats` seats (`KIFU-SEAT-1`).
pub fn check_seat(seat: super::Seat, seats: usize) -> Option<Violation> {
    (usize::from(seat) >= seats)
        .then(|| Violation::new("KIFU-SEAT-1", format!("seat {seat} does not exist: the game has {seats} seats")))
}

/// `seat` may act only if the game awaits it (`KIFU-TURN-1`).
pub fn check_awaited(seat: super::Seat, awaited: &[super::Seat]) -> Option<Violation> {
    (!awaited.contains(&seat)).then(|| {
        let who = if awaited.is_empty() {
            "no seat".to_string()
        } else {
            awaited.iter().map(|s| format!("seat {s}")).collect::<Vec<_>>().join(", ")
        };
        Violation::new("KIFU-TURN-1", format!("seat {seat} acted, but the game is waiting for {who}"))
    })
}

/// The header checks every game shares: the player count is in the game's seat range
/// (`KIFU-SEAT-2`) with one deck per player, then each deck by `check_deck`, its violations
/// prefixed with the seat.
pub fn check_seats<D>(
    range: super::SeatRange,
    players: &[String],
    decks: &[D],
    check_deck: impl Fn(&D) -> Vec<Violation>,
) -> Vec<Violation> {
    let mut out = Vec::new();
    if !range.contains(players.len()) || decks.len() != players.len() {
        out.push(Violation::new(
            "KIFU-SEAT-2",
            format!(
                "a game has {range} players with a deck each; got {} players and {} decks",
                players.len(),
                decks.len()
            ),
        ));
    }
    for (seat, deck) in decks.iter().enumerate() {
        for v in check_deck(deck) {
            out.push(Violation::new(v.rule, format!("seat {seat}: {}", v.message)));
        }
    }
    out
}
