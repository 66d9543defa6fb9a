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

/// One game's coverage table as markdown: the generated `src/games/{game}/COVERAGE.md`.
///
/// `groups` are rule-ID prefixes counted on lines of their own (`["VG-", "VGC-"]`, for a game whose
/// digest section holds two rule families); empty counts all rows on one line.
pub fn coverage_markdown(title: &str, game: &str, groups: &[&str], rows: &[RuleCoverage]) -> String {
    let mut out = format!("# {title}\n\n");
    out.push_str(&format!(
        "Generated from `src/games/{game}/coverage.rs` by `coverage_markdown()`; do not edit by hand.\n"
    ));
    out.push_str(&format!("Regenerate with `UPDATE_EXPECT=1 cargo test --release {game}`.\n\n"));
    if groups.is_empty() {
        out.push_str(&count_line(rows.iter()));
    }
    for prefix in groups {
        let line = count_line(rows.iter().filter(|r| r.rule.starts_with(prefix)));
        out.push_str(&format!("{prefix}*: {line}"));
    }
    out.push_str("| Rule | Summary | Enforcement |\n|---|---|---|\n");
    for r in rows {
        out.push_str(&format!(
            "| {} | {} | {} |\n",
            r.rule,
            r.summary.replace('|', "\\|"),
            enforcement_cell(&r.enforcement).replace('|', "\\|")
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

/// The header checks of a two-player game: exactly two players with a deck each (`rule` is the
/// game's ID for that), then each deck by `check_deck`, its violations prefixed with the seat.
pub fn check_seats<D>(
    rule: RuleId,
    players: &[String],
    decks: &[D],
    check_deck: impl Fn(&D) -> Vec<Violation>,
) -> Vec<Violation> {
    let mut out = Vec::new();
    if players.len() != 2 || decks.len() != 2 {
        out.push(Violation::new(
            rule,
            format!(
                "a game has exactly 2 players with a deck each; got {} players and {} decks",
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
