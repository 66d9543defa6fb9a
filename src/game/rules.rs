//! Rule violations and the rule-coverage table: the vocabulary `validate` and the audit speak.

use serde::Serialize;

/// A stable rule ID from `shared/rules/RULES-DIGEST.md`, e.g. `NAR-NINJA-2`; `KIFU-*` for the
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
