//! A player's case file for the event's judges and conduct reviewers: their judge calls,
//! penalties (with upgrades and appeals) and rulings in games, deck checks, the statements taken
//! (their text revealed by the caller, who holds it), and disqualification reports with whether
//! each signature verifies. Pure: the statements' text and the games' rulings are passed in.

use serde::Serialize;

use super::events::{DeckCheckResult, RulingRef};
use super::game_rulings::GameRuling;
use super::rules::HistoryRow;
use super::sign;
use super::state::{DqReport, Statement, Tournament};

#[derive(Clone, Debug, Serialize)]
pub struct CaseCall {
    pub call: u32,
    pub round: u32,
    pub table: u32,
    pub caller: String,
    pub opened: String,
    pub status: &'static str,
    pub judge: Option<String>,
    pub outcome: Option<String>,
    pub note: Option<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct CaseDeckCheck {
    pub check: u32,
    pub round: u32,
    pub table: Option<u32>,
    pub at: String,
    pub judge: String,
    pub matches: bool,
    /// How many cards differ (the differences themselves are kept with the judges).
    pub cards: u32,
}

#[derive(Clone, Debug, Serialize)]
pub struct CaseStatement {
    pub statement: u32,
    pub by: &'static str,
    pub author: String,
    pub judge: String,
    pub at: String,
    /// The text, for a reader allowed it and when this machine holds it.
    pub text: Option<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct CaseReport {
    pub penalty: u32,
    pub head_judge: String,
    pub facts: String,
    pub reasons: String,
    pub at: String,
    /// Whether the head judge's signature verifies against their recorded key.
    pub signature_verifies: bool,
    /// Why it does not, when it does not.
    pub signature_problem: Option<String>,
}

/// Everything the event recorded about one player's conduct.
#[derive(Clone, Debug, Serialize)]
pub struct CaseFile {
    pub tournament: String,
    pub player: String,
    pub calls: Vec<CaseCall>,
    pub penalties: Vec<HistoryRow>,
    pub game_rulings: Vec<GameRuling>,
    pub deck_checks: Vec<CaseDeckCheck>,
    /// `None` for a reader who may not see statements.
    pub statements: Option<Vec<CaseStatement>>,
    pub reports: Vec<CaseReport>,
}

/// Whether a recorded report's signature is its head judge's, over this tournament's report.
pub fn check_report(state: &Tournament, stream: &str, r: &DqReport) -> Result<(), String> {
    let key = state
        .signers
        .iter()
        .find(|(n, _)| *n == r.head_judge)
        .map(|(_, k)| k)
        .ok_or_else(|| format!("{} has no recorded key", r.head_judge))?;
    let report = sign::Report {
        player: &r.player,
        penalty: r.penalty,
        head_judge: &r.head_judge,
        facts: &r.facts,
        reasons: &r.reasons,
        at: r.at,
    };
    sign::check_report(key, stream, &report, &r.signature).map_err(|e| e.to_string())
}

/// Reveals a statement's text to a reader allowed it (`None`: this machine lacks it).
pub type Reveal<'a> = &'a dyn Fn(&Statement) -> Option<String>;

/// The case file of player `p` (an index into `state.players`) of tournament `stream`.
/// `statement_text` gives a statement's text, or `None` when the reader may not read statements
/// at all (the file then carries no statements); its inner `None` is a text this machine lacks.
pub fn case_file(
    state: &Tournament,
    stream: &str,
    p: usize,
    game_rulings: Vec<GameRuling>,
    statement_text: Option<Reveal<'_>>,
) -> CaseFile {
    let name = state.players.get(p).map(|x| x.name.clone()).unwrap_or_default();
    let calls = state
        .calls
        .iter()
        .filter(|c| super::rules::ruling_players(state, RulingRef::Call(c.number)).is_some_and(|ps| ps.contains(&p)))
        .map(|c| CaseCall {
            call: c.number,
            round: c.round,
            table: c.table,
            caller: c.caller.clone(),
            opened: c.opened.to_rfc3339(),
            status: c.status(),
            judge: c.closed.as_ref().map(|x| x.0.clone()).or_else(|| c.taken.as_ref().map(|x| x.0.clone())),
            outcome: c.closed.as_ref().map(|x| format!("{:?}", x.2)),
            note: c.closed.as_ref().map(|x| x.3.clone()),
        })
        .collect();
    let deck_checks = state
        .deck_checks
        .iter()
        .enumerate()
        .filter(|(_, d)| d.player == name)
        .map(|(i, d)| CaseDeckCheck {
            check: i as u32 + 1,
            round: d.round,
            table: d.table,
            at: d.at.to_rfc3339(),
            judge: d.judge.clone(),
            matches: d.result == DeckCheckResult::Matches,
            cards: match &d.result {
                DeckCheckResult::Matches => 0,
                DeckCheckResult::Differs { cards, .. } => *cards,
            },
        })
        .collect();
    let statements = statement_text.map(|text| {
        state
            .statements
            .iter()
            .filter(|s| s.player == name)
            .map(|s| CaseStatement {
                statement: s.number,
                by: s.by.name(),
                author: s.author.clone(),
                judge: s.judge.clone(),
                at: s.at.to_rfc3339(),
                text: text(s),
            })
            .collect()
    });
    let reports = state
        .dq_reports
        .iter()
        .filter(|r| r.player == name)
        .map(|r| {
            let checked = check_report(state, stream, r);
            CaseReport {
                penalty: r.penalty,
                head_judge: r.head_judge.clone(),
                facts: r.facts.clone(),
                reasons: r.reasons.clone(),
                at: r.at.to_rfc3339(),
                signature_verifies: checked.is_ok(),
                signature_problem: checked.err(),
            }
        })
        .collect();
    CaseFile {
        tournament: stream.to_string(),
        player: name.clone(),
        calls,
        penalties: state.penalty_history(p),
        game_rulings: game_rulings.into_iter().filter(|g| g.player == name).collect(),
        deck_checks,
        statements,
        reports,
    }
}
