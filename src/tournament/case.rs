//! A player's case file for the event's judges and conduct reviewers: their judge calls,
//! penalties (with upgrades and appeals) and rulings in games, deck checks, the statements taken
//! (their text revealed by the caller, who holds it), and disqualification reports with whether
//! each signature verifies. Pure: the statements' text and the games' rulings are passed in.
//! Also the case exported to conduct reviewers ([`CaseBundle`]): the tournament's log with the
//! statements about the player revealed (text and salt), which [`open_bundle`] checks without
//! any server: the chain, every event against the rules, each statement against the commitment
//! the log sealed it under, and each report's signature.

use serde::{Deserialize, Serialize};

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
            cards: d.result.cards(),
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

/// What an exported case says it is; a later layout gets a new name (the file is handed to
/// other organizations and must open in every later build).
pub const BUNDLE_FORMAT: &str = "kifu case bundle v1";

/// A statement revealed to the reviewers a case is exported to: its text and the salt it was
/// sealed with, so anyone can recompute the commitment the log recorded.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RevealedStatement {
    pub statement: u32,
    /// 64 hex digits.
    pub salt: String,
    pub text: String,
}

/// A player's case exported for conduct reviewers (JSON): the whole tournament log as a `.kifu`
/// file (hex), the statements about the player revealed, and the rulings in games as the
/// exporting recorder found them (the games themselves are not in the bundle).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CaseBundle {
    pub format: String,
    pub tournament: String,
    pub player: String,
    pub log: String,
    pub statements: Vec<RevealedStatement>,
    pub game_rulings: Vec<GameRuling>,
}

/// One check of an opened bundle.
#[derive(Clone, Debug, Serialize)]
pub struct BundleCheck {
    pub check: &'static str,
    pub ok: bool,
    pub detail: String,
}

/// An opened bundle: the case file re-derived from its log, and what was checked.
#[derive(Clone, Debug, Serialize)]
pub struct OpenedBundle {
    pub case: CaseFile,
    pub events: u64,
    pub head: String,
    pub checks: Vec<BundleCheck>,
}

impl OpenedBundle {
    pub fn ok(&self) -> bool {
        self.checks.iter().all(|c| c.ok)
    }
}

/// Builds the bundle of `player` from a tournament's `.kifu` file, the revealed statements and
/// the games' rulings.
pub fn bundle(
    kifu_file: &[u8],
    tournament: &str,
    player: &str,
    statements: Vec<RevealedStatement>,
    game_rulings: Vec<GameRuling>,
) -> CaseBundle {
    CaseBundle {
        format: BUNDLE_FORMAT.into(),
        tournament: tournament.into(),
        player: player.into(),
        log: hex::encode(kifu_file),
        statements,
        game_rulings,
    }
}

/// Opens an exported case: fails when it is not a bundle or its log does not verify; otherwise
/// every other problem (an event breaking a rule, a statement that does not match its seal or
/// is missing, a signature that does not verify) is a failed check.
pub fn open_bundle(b: &CaseBundle) -> Result<OpenedBundle, super::TournamentError> {
    let bad = |m: String| super::TournamentError::Input(m);
    if b.format != BUNDLE_FORMAT {
        return Err(bad(format!("not a case bundle kifu reads: format {:?}, expected {BUNDLE_FORMAT:?}", b.format)));
    }
    let bytes = hex::decode(&b.log).map_err(|e| bad(format!("the bundle's log is not hex: {e}")))?;
    let log = crate::log::file::read(&bytes).map_err(|e| bad(format!("the bundle's log does not verify: {e}")))?;
    let loaded = super::record::from_log_checked(&log)?;
    let stream = loaded.header.v1().stream.to_string();
    if stream != b.tournament {
        return Err(bad(format!("the bundle names tournament {}, its log is {stream}", b.tournament)));
    }
    let st = &loaded.state;
    let p = st.player(&b.player).ok_or_else(|| bad(format!("{} is not a player of {stream}", b.player)))?;
    let mut checks = vec![BundleCheck {
        check: "log",
        ok: loaded.problems.is_empty(),
        detail: match loaded.problems.len() {
            0 => format!("{} events, every hash and link verified, every event follows the rules", log.head.len),
            n => format!(
                "{} events, the chain verifies, but {n} event(s) break a rule (see kifu tournament verify)",
                log.head.len
            ),
        },
    }];
    let (texts, revealed) = revealed_statements(st, b)?;
    checks.push(revealed);
    let reveal = |s: &Statement| texts.get(&s.number).cloned();
    let case = case_file(st, &stream, p, b.game_rulings.clone(), Some(&reveal));
    let unsigned: Vec<String> = case
        .reports
        .iter()
        .filter(|r| !r.signature_verifies)
        .map(|r| format!("penalty {}: {}", r.penalty, r.signature_problem.clone().unwrap_or_default()))
        .collect();
    checks.push(BundleCheck {
        check: "reports",
        ok: unsigned.is_empty(),
        detail: if unsigned.is_empty() {
            format!("{} disqualification report(s), each signed by its head judge's recorded key", case.reports.len())
        } else {
            format!("signatures that do not verify: {}", unsigned.join("; "))
        },
    });
    checks.push(BundleCheck {
        check: "game rulings",
        ok: true,
        detail: format!(
            "{} ruling(s) in games, as the exporting recorder found them (the games are not in the bundle)",
            case.game_rulings.len()
        ),
    });
    Ok(OpenedBundle { case, events: log.head.len, head: log.head.hash.to_hex(), checks })
}

/// The statements a bundle reveals, each checked against the commitment its log sealed (the
/// texts that match, by statement number), and the check: every statement about the player is
/// revealed and matches.
fn revealed_statements(
    st: &Tournament,
    b: &CaseBundle,
) -> Result<(std::collections::HashMap<u32, String>, BundleCheck), super::TournamentError> {
    let bad = |m: String| super::TournamentError::Input(m);
    let mut texts = std::collections::HashMap::new();
    let mut problems = Vec::new();
    for r in &b.statements {
        match st.statements.iter().find(|s| s.number == r.statement) {
            None => problems.push(format!("statement {} is not in the log", r.statement)),
            Some(s) if s.player != b.player => {
                problems.push(format!("statement {} is about {}, not {}", r.statement, s.player, b.player))
            }
            Some(s) => {
                let mut salt = [0u8; 32];
                hex::decode_to_slice(r.salt.trim(), &mut salt)
                    .map_err(|_| bad(format!("statement {}: the salt is not 64 hex digits", r.statement)))?;
                let salt = crate::game::commit::Commitment(salt);
                let key = super::events::statement_key(s.number);
                if crate::game::commit::seal_choice(&key, &r.text, &salt) == s.commitment {
                    texts.insert(s.number, r.text.clone());
                } else {
                    problems.push(format!("statement {}'s text is not the one the log sealed", r.statement));
                }
            }
        }
    }
    let about: Vec<u32> = st.statements.iter().filter(|s| s.player == b.player).map(|s| s.number).collect();
    let missing: Vec<String> = about.iter().filter(|n| !texts.contains_key(n)).map(|n| n.to_string()).collect();
    if !missing.is_empty() && problems.is_empty() {
        problems.push(format!("statement(s) {} about {} are not revealed in the bundle", missing.join(", "), b.player));
    }
    let check = BundleCheck {
        check: "statements",
        ok: problems.is_empty(),
        detail: if problems.is_empty() {
            format!("{} statement(s) about {}, each matching the commitment the log sealed", about.len(), b.player)
        } else {
            problems.join("; ")
        },
    };
    Ok((texts, check))
}
