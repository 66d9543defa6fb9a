//! The judges' floor as pure data: each policy's infraction table (categories, default
//! penalties, the repeat-offence upgrade), the time-extension rule for judge calls, and the
//! folded records of calls, penalties and appeals that the state keeps. The rules that decide
//! and fold these events are in [`super::rules`]; the tables and their sources are in
//! `docs/judging.md`.

use serde::{Deserialize, Serialize};
use serde_json::json;

use super::events::{AppealDecision, CallOutcome, Penalty, RulingRef};
use super::policy::Policy;
use crate::log::envelope::Timestamp;

/// How a repeated infraction is upgraded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Upgrade {
    /// Never upgraded by repetition (e.g. IPG Failure to Maintain Game State).
    Never,
    /// The `n`th and every later offence of the same infraction in the event is a game loss
    /// (IPG: the third Game Play Error warning, the second Tournament Error warning).
    GameLossFrom(u32),
    /// Play! Pokémon: a repeat is given the next penalty up from the last one given for it.
    NextStep,
}

/// One row of a policy's infraction table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Infraction {
    /// What the CLI and the API take (`gpe-grv`).
    pub code: &'static str,
    pub name: &'static str,
    pub category: &'static str,
    pub default: Penalty,
    pub upgrade: Upgrade,
}

const fn row(
    code: &'static str,
    name: &'static str,
    category: &'static str,
    default: Penalty,
    up: Upgrade,
) -> Infraction {
    Infraction { code, name, category, default, upgrade: up }
}

use Penalty as P;
use Upgrade as U;

/// The Magic Infraction Procedure Guide (Competitive REL), Appendix A with the upgrade paths of
/// IPG 2 and IPG 3 (see `docs/judging.md`).
pub const IPG: &[Infraction] = &[
    row("gpe-mt", "Missed Trigger", "Game Play Error", P::Warning, U::Never),
    row("gpe-lec", "Looking at Extra Cards", "Game Play Error", P::Warning, U::GameLossFrom(3)),
    row("gpe-hce", "Hidden Card Error", "Game Play Error", P::Warning, U::GameLossFrom(3)),
    row("gpe-mpe", "Mulligan Procedure Error", "Game Play Error", P::Warning, U::GameLossFrom(3)),
    row("gpe-grv", "Game Rule Violation", "Game Play Error", P::Warning, U::GameLossFrom(3)),
    row("gpe-ftmgs", "Failure to Maintain Game State", "Game Play Error", P::Warning, U::Never),
    row("te-tardiness", "Tardiness", "Tournament Error", P::GameLoss, U::Never),
    row("te-oa", "Outside Assistance", "Tournament Error", P::MatchLoss, U::Never),
    row("te-slow-play", "Slow Play", "Tournament Error", P::Warning, U::GameLossFrom(2)),
    row("te-dlp", "Decklist Problem", "Tournament Error", P::GameLoss, U::Never),
    row("te-dp", "Deck Problem", "Tournament Error", P::Warning, U::GameLossFrom(2)),
    row("te-lpv", "Limited Procedure Violation", "Tournament Error", P::Warning, U::GameLossFrom(2)),
    row("te-cpv", "Communication Policy Violation", "Tournament Error", P::Warning, U::GameLossFrom(2)),
    row("te-mc", "Marked Cards", "Tournament Error", P::Warning, U::GameLossFrom(2)),
    row("te-is", "Insufficient Shuffling", "Tournament Error", P::Warning, U::GameLossFrom(2)),
    row("usc-minor", "Unsporting Conduct — Minor", "Unsporting Conduct", P::Warning, U::Never),
    row("usc-major", "Unsporting Conduct — Major", "Unsporting Conduct", P::MatchLoss, U::Never),
    row("usc-idw", "Improperly Determining a Winner", "Unsporting Conduct", P::MatchLoss, U::Never),
    row("usc-bw", "Bribery and Wagering", "Unsporting Conduct", P::MatchLoss, U::Never),
    row("usc-ab", "Aggressive Behavior", "Unsporting Conduct", P::Disqualification, U::Never),
    row("usc-ttm", "Theft of Tournament Material", "Unsporting Conduct", P::Disqualification, U::Never),
    row("usc-stalling", "Stalling", "Unsporting Conduct", P::Disqualification, U::Never),
    row("usc-cheating", "Cheating", "Unsporting Conduct", P::Disqualification, U::Never),
];

/// The Play! Pokémon TCG Penalty Guidelines' infraction types with kifu's default (the lightest
/// of each type's range at a competitive event) and section 3's repeated-infraction rule: the
/// next penalty up (see `docs/judging.md`).
pub const POKEMON: &[Infraction] = &[
    row("ge-minor", "Gameplay Error — Minor", "Gameplay Error", P::Warning, U::NextStep),
    row("ge-major", "Gameplay Error — Major", "Gameplay Error", P::DoublePrizeCard, U::NextStep),
    row("pe-minor", "Procedural Error — Minor", "Procedural Error", P::Warning, U::NextStep),
    row("pe-major", "Procedural Error — Major", "Procedural Error", P::DoublePrizeCard, U::NextStep),
    row("marked-cards", "Marked Cards — no pattern", "Marked Cards", P::Warning, U::NextStep),
    row("marked-pattern", "Marked Cards — pattern", "Marked Cards", P::GameLoss, U::NextStep),
    row("deck-problem", "Deck/Deck List Problem", "Deck Problem", P::GameLoss, U::NextStep),
    row("slow-play", "Slow Play", "Stalling/Rushing", P::Warning, U::NextStep),
    row("tardiness", "Tardiness", "Procedural Error", P::GameLoss, U::Never),
    row("usc-minor", "Unsporting Conduct — Minor", "Unsporting Conduct", P::Warning, U::NextStep),
    row("usc-major", "Unsporting Conduct — Major", "Unsporting Conduct", P::GameLoss, U::NextStep),
    row("cheating", "Cheating", "Cheating", P::Disqualification, U::Never),
];

/// The infraction table of a policy: the IPG's for `mtr` and `melee`, the Pokémon guidelines'
/// for `pokemon`; a custom policy has none (its judges issue plain penalties).
pub fn table(policy: &Policy) -> &'static [Infraction] {
    match policy {
        Policy::Mtr | Policy::Melee => IPG,
        Policy::Pokemon => POKEMON,
        Policy::Custom(_) => &[],
    }
}

/// The row of `code` in the policy's table (codes ignore case).
pub fn infraction(policy: &Policy, code: &str) -> Option<&'static Infraction> {
    let code = code.trim().to_lowercase();
    table(policy).iter().find(|i| i.code == code)
}

/// The penalty ladder a `NextStep` upgrade climbs: Pokémon's, caution to disqualification.
const LADDER: [Penalty; 6] =
    [P::Caution, P::Warning, P::DoublePrizeCard, P::QuadPrizeCard, P::GameLoss, P::Disqualification];

/// The penalty the policy gives for `row` when the player already has `prior` penalties for the
/// same infraction in the event (the ones standing after appeals, in order), and whether that
/// is an upgrade of the table's default.
pub fn expected(row: &Infraction, prior: &[Penalty]) -> (Penalty, bool) {
    match row.upgrade {
        U::Never => (row.default, false),
        U::GameLossFrom(n) if prior.len() as u32 + 1 >= n && row.default.severity() < P::GameLoss.severity() => {
            (P::GameLoss, true)
        }
        U::GameLossFrom(_) => (row.default, false),
        U::NextStep => match prior.last() {
            None => (row.default, false),
            Some(last) => {
                let next =
                    LADDER.iter().copied().find(|p| p.severity() > last.severity()).unwrap_or(P::Disqualification);
                if next.severity() > row.default.severity() {
                    (next, true)
                } else {
                    (row.default, false)
                }
            }
        },
    }
}

/// The time extension a judge call gives: the whole duration from opened to closed, rounded up
/// to a whole minute (a call of 3 minutes 10 seconds gives 4), under every policy. A judge may
/// set another with a reason (`TimeExtensionAdjusted`).
pub fn extension_minutes(opened: Timestamp, closed: Timestamp) -> u32 {
    let micros = closed.0.saturating_sub(opened.0).max(0);
    let minute = 60_000_000i64;
    u32::try_from((micros + minute - 1) / minute).unwrap_or(u32::MAX)
}

/// A judge call as folded.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Call {
    pub number: u32,
    pub round: u32,
    pub table: u32,
    pub caller: String,
    pub opened: Timestamp,
    pub taken: Option<CallStep>,
    pub escalated: Option<CallStep>,
    pub closed: Option<CallClosed>,
    /// A judge's adjustment of the call's time extension; the latest stands.
    pub adjusted: Option<ExtensionAdjusted>,
}

/// A judge's step on a call (taking it, escalating it): who, and when. Each struct below keeps
/// the order of the tuple it replaced, so the folded state's postcard snapshot is the same bytes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CallStep {
    pub judge: String,
    pub at: Timestamp,
}

/// How a call was closed: by whom, when, with what outcome and note.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CallClosed {
    pub judge: String,
    pub at: Timestamp,
    pub outcome: CallOutcome,
    pub note: String,
}

/// A judge's adjustment of a call's time extension: the minutes it gives, who set them, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExtensionAdjusted {
    pub minutes: u32,
    pub judge: String,
    pub reason: String,
}

impl Call {
    /// The minutes this call adds to its match: the adjustment, else the derived extension of a
    /// closed call (an open call gives none yet).
    pub fn extension(&self) -> u32 {
        match (&self.adjusted, &self.closed) {
            (Some(a), _) => a.minutes,
            (None, Some(c)) => extension_minutes(self.opened, c.at),
            (None, None) => 0,
        }
    }

    /// The call as the API (`GET /tournaments/{id}/calls`) and `kifu tournament call list --json` show it.
    pub fn json(&self) -> serde_json::Value {
        json!({
            "call": self.number, "round": self.round, "table": self.table, "caller": self.caller,
            "opened": self.opened.to_rfc3339(),
            "taken": self.taken.as_ref().map(|t| json!({"judge": t.judge, "at": t.at.to_rfc3339()})),
            "escalated": self.escalated.as_ref().map(|e| json!({"judge": e.judge, "at": e.at.to_rfc3339()})),
            "closed": self.closed.as_ref().map(|x| json!({"judge": x.judge, "at": x.at.to_rfc3339(), "outcome": format!("{:?}", x.outcome), "note": x.note})),
            "adjusted": self.adjusted.as_ref().map(|a| json!({"minutes": a.minutes, "judge": a.judge, "reason": a.reason})),
            "status": self.status(),
            "extension_minutes": self.extension(),
        })
    }

    pub fn status(&self) -> &'static str {
        match (&self.closed, &self.escalated, &self.taken) {
            (Some(_), _, _) => "closed",
            (None, Some(_), _) => "escalated",
            (None, None, Some(_)) => "taken",
            _ => "open",
        }
    }
}

/// A penalty as folded (both `PenaltyIssued` and `InfractionPenalized`), numbered from 1.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PenaltyRecord {
    pub number: u32,
    pub player: usize,
    pub round: u32,
    pub infraction: Option<String>,
    /// As issued.
    pub issued: Penalty,
    /// Whether the issued penalty is the policy's upgrade for a repeat.
    pub upgraded: bool,
    pub downgrade: Option<String>,
    pub judge: String,
    pub reason: String,
    pub call: Option<u32>,
    /// What stands after appeals: `None` once overturned.
    pub standing: Option<Penalty>,
    /// The round after which a disqualification dropped the player (undone if overturned).
    pub dropped: Option<u32>,
}

/// An appeal as folded, numbered from 1.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Appeal {
    pub number: u32,
    pub ruling: RulingRef,
    pub player: String,
    pub at: Timestamp,
    /// (decision, head judge, reason) once decided.
    pub decided: Option<(AppealDecision, String, String)>,
}
