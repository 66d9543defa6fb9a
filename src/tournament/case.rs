//! A player's case file for the event's judges and conduct reviewers: their judge calls,
//! penalties (with upgrades and appeals) and rulings in games, deck checks, the statements taken
//! (their text revealed by the caller, who holds it), and disqualification reports with whether
//! each signature verifies. Pure: the statements' text and the games' rulings are passed in.
//! Also the case exported to conduct reviewers ([`CaseBundle`]): the tournament's log with the
//! statements about the player revealed (text and salt) and the logs of the games the player's
//! rulings were given in, which [`open_bundle`] checks without any server: the chain, every
//! event against the rules, each statement against the commitment the log sealed it under, each
//! report's signature, each ruling against its game (a game this tournament links or binds), and
//! the log's head against one the reviewer holds (and against a signed final root in the log).

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use super::events::{Checkpoint, DeckCheckResult, RulingRef, TournamentEvent};
use super::game_rulings::GameRuling;
use super::record::Loaded;
use super::rules::HistoryRow;
use super::sign;
use super::state::{DqReport, Statement, Tournament};
use crate::game::{ruling_in, Ruling};
use crate::log::chain;
use crate::log::envelope::{Actor, MatchPlace, StreamKind};
use crate::log::hash::Hash32;

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
            judge: c.closed.as_ref().map(|x| x.judge.clone()).or_else(|| c.taken.as_ref().map(|x| x.judge.clone())),
            outcome: c.closed.as_ref().map(|x| format!("{:?}", x.outcome)),
            note: c.closed.as_ref().map(|x| x.note.clone()),
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
#[serde(deny_unknown_fields)]
pub struct RevealedStatement {
    pub statement: u32,
    /// 64 hex digits.
    pub salt: String,
    pub text: String,
}

/// A player's case exported for conduct reviewers (JSON): the whole tournament log as a `.kifu`
/// file (hex), the statements about the player revealed, the rulings in games against the
/// player, and the logs of the games those rulings were given in, so each ruling is checked
/// against its game. Unknown fields are refused: a reviewer must not be shown a field that no
/// check covered.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CaseBundle {
    pub format: String,
    pub tournament: String,
    pub player: String,
    pub log: String,
    pub statements: Vec<RevealedStatement>,
    pub game_rulings: Vec<GameRuling>,
    /// The game logs the rulings come from; `None` in bundles written before they were carried
    /// (their rulings cannot be checked, and opening such a bundle says so).
    #[serde(default)]
    pub games: Option<Vec<BundledGame>>,
}

/// A game's log carried in a bundle: its stream id and its `.kifu` file (hex).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BundledGame {
    pub game: String,
    pub log: String,
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

/// Builds the bundle of `player` from a tournament's `.kifu` file, the revealed statements, the
/// rulings in games against the player and the `.kifu` files of those games, by game id.
pub fn bundle(
    kifu_file: &[u8],
    tournament: &str,
    player: &str,
    statements: Vec<RevealedStatement>,
    game_rulings: Vec<GameRuling>,
    games: Vec<(String, Vec<u8>)>,
) -> CaseBundle {
    CaseBundle {
        format: BUNDLE_FORMAT.into(),
        tournament: tournament.into(),
        player: player.into(),
        log: hex::encode(kifu_file),
        statements,
        game_rulings,
        games: Some(games.into_iter().map(|(game, file)| BundledGame { game, log: hex::encode(file) }).collect()),
    }
}

/// Opens an exported case: fails when it is not a bundle or its log does not verify; otherwise
/// every other problem (an event breaking a rule, a statement that does not match its seal or
/// is missing, a signature that does not verify, a ruling not found in its game, a log whose
/// head is not `head`) is a failed check. `head` is the tournament's head as the reviewer knows
/// it from elsewhere (the public page, a signed final root): without it the log is only held to
/// itself, and the checks say so.
pub fn open_bundle(b: &CaseBundle, head: Option<&Hash32>) -> Result<OpenedBundle, super::TournamentError> {
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
    checks.extend(check_games(&loaded, b));
    checks.push(check_head(&log.head, head));
    checks.push(check_signed_final(&loaded, &log.head));
    Ok(OpenedBundle { case, events: log.head.len, head: log.head.hash.to_hex(), checks })
}

/// The bundle's log head against the one the reviewer was given, or that it was given none.
fn check_head(own: &crate::log::chain::Head, given: Option<&Hash32>) -> BundleCheck {
    let (ok, detail) = match given {
        None => (
            true,
            "not held to an outside head: the log was only checked against itself (give the tournament's \
             head with --head, from its public page or its signed final root)"
                .to_string(),
        ),
        Some(h) if *h == own.hash => (true, format!("the log's head is the head given ({})", h.to_hex())),
        Some(h) => (
            false,
            format!(
                "the bundle's log head {} ({} events) differs from the head given ({})",
                own.hash.to_hex(),
                own.len,
                h.to_hex()
            ),
        ),
    };
    BundleCheck { check: "head", ok, detail }
}

/// The final root signed in the log (if the tournament was finalized and signed): the signature
/// against its signer's recorded key, the head it names against the bundle's log at that event.
fn check_signed_final(loaded: &Loaded, own: &crate::log::chain::Head) -> BundleCheck {
    let stream = loaded.header.v1().stream.to_string();
    let mut good = Vec::new();
    let mut problems = Vec::new();
    for e in &loaded.entries {
        let TournamentEvent::CheckpointSigned { signer, checkpoint, signature } = &e.event else { continue };
        if !matches!(checkpoint, Checkpoint::Final { .. }) {
            continue;
        }
        let (signed_head, events) = checkpoint.prefix();
        let actual = events.checked_sub(1).and_then(|i| loaded.entries.get(i as usize)).map(|x| x.hash);
        if actual != Some(signed_head) || events > e.seq {
            problems.push(format!(
                "{signer} signed the final root at event {events}, but the bundle's log has another head there"
            ));
            continue;
        }
        let Some((_, key)) = loaded.state.signers.iter().find(|(n, _)| n == signer) else {
            problems.push(format!("the final root is signed by {signer}, who has no recorded key"));
            continue;
        };
        match super::sign::check(key, &stream, checkpoint, signature) {
            Ok(()) => good.push((signer.clone(), signed_head, events)),
            Err(why) => problems.push(format!("{signer}'s signature on the final root is invalid: {why}")),
        }
    }
    let detail = if !problems.is_empty() {
        problems.join("; ")
    } else if good.is_empty() {
        "the log holds no signed final root to hold its head against".to_string()
    } else {
        let said: Vec<String> = good
            .iter()
            .map(|(signer, h, events)| {
                let after = match own.len - events {
                    0 => "the bundle's log ends there".to_string(),
                    n => format!("the bundle's log holds {n} event(s) after it"),
                };
                format!("{signer} signed the final root at event {events} (head {}): {after}", h.to_hex())
            })
            .collect();
        said.join("; ")
    };
    BundleCheck { check: "signed final root", ok: problems.is_empty(), detail }
}

/// A bundled game's log, opened: where in the tournament it was played.
struct OpenGame {
    log: crate::log::chain::VerifiedLog,
    round: u32,
    place: u32,
}

/// Every name the tournament records as a judge's: its head judge, its signers, the judges of
/// its penalties and whoever recorded an event in it as a judge.
fn recorded_judges(loaded: &Loaded) -> BTreeSet<String> {
    let st = &loaded.state;
    let mut judges: BTreeSet<String> = st.head_judge.iter().cloned().collect();
    judges.extend(st.signers.iter().map(|(n, _)| n.clone()));
    judges.extend(st.penalty_log.iter().map(|p| p.judge.clone()));
    judges.extend(loaded.entries.iter().filter_map(|e| match &e.actor {
        Actor::Judge(n) => Some(n.clone()),
        _ => None,
    }));
    judges
}

/// Whether round `round` of the tournament has table or pod `place`.
fn has_place(st: &Tournament, round: u32, place: u32) -> bool {
    st.rounds
        .iter()
        .find(|r| r.round == round)
        .is_some_and(|r| r.tables.iter().any(|t| t.table == place) || r.pods.iter().any(|p| p.pod == place))
}

/// Where a game of the tournament was played: the round and table (or pod) whose result links
/// it, with the head linked, or `None`.
fn linked_at(st: &Tournament, game: &str) -> Option<(u32, u32, Hash32)> {
    st.rounds.iter().find_map(|r| {
        let tables = r.tables.iter().map(|t| (t.table, &t.games));
        let pods = r.pods.iter().map(|p| (p.pod, &p.games));
        tables
            .chain(pods)
            .find_map(|(place, games)| games.iter().find(|g| g.stream == game).map(|g| (r.round, place, g.head)))
    })
}

/// Whether `head` is the head of some prefix of `log` (the log as it was when a result linked it).
fn holds_head(log: &crate::log::chain::VerifiedLog, head: &Hash32) -> bool {
    crate::log::chain::header_hash(&log.header_bytes) == *head
        || log.events.iter().any(|e| e.len() >= 32 && e[e.len() - 32..] == head.0)
}

/// Opens one bundled game: its log verifies, it is a game, and a result of the tournament links
/// it (holding the head linked) or its header binds it to a match the tournament has.
fn open_game(st: &Tournament, stream: &str, g: &BundledGame) -> Result<(OpenGame, String), String> {
    let bytes = hex::decode(&g.log).map_err(|e| format!("game {}: the log is not hex: {e}", g.game))?;
    let log = crate::log::file::read(&bytes).map_err(|e| format!("game {}: the log does not verify: {e}", g.game))?;
    let h = log.header.v1();
    if h.stream.as_str() != g.game {
        return Err(format!("game {}: its log is of stream {}", g.game, h.stream));
    }
    if h.kind != StreamKind::Game {
        return Err(format!("game {}: its log is not a game's", g.game));
    }
    if let Some((round, place, head)) = linked_at(st, &g.game) {
        if !holds_head(&log, &head) {
            return Err(format!(
                "game {}: the log does not hold the head {} that round {round} table {place}'s result links",
                g.game,
                head.short()
            ));
        }
        let said = format!("{} (linked from round {round} table {place}'s result)", g.game);
        return Ok((OpenGame { log, round, place }, said));
    }
    let Some(b) = log.header.bound().filter(|b| b.tournament.as_str() == stream) else {
        return Err(format!(
            "game {} is neither linked from a result of {stream} nor bound to one of its matches",
            g.game
        ));
    };
    let (round, place) = match b.place {
        MatchPlace::Table(n) | MatchPlace::Pod(n) => (b.round, n),
    };
    if !has_place(st, round, place) {
        return Err(format!("game {}: bound to round {round} table {place}, which {stream} does not have", g.game));
    }
    let said = format!("{} (bound to round {round} table {place}, no result links it yet)", g.game);
    Ok((OpenGame { log, round, place }, said))
}

/// A game's warnings and game losses: (event number, kind, judge, player, rule, note).
type FoundRuling = (u64, &'static str, String, String, Option<String>, String);

/// The warnings and game losses in a game's log, each recorded by the judge it names.
fn rulings_in(log: &crate::log::chain::VerifiedLog) -> Vec<FoundRuling> {
    let players = &log.header.v1().players;
    let mut out = Vec::new();
    for (seq, bytes) in log.events.iter().enumerate() {
        let Ok((env, _)) = chain::open_verified(bytes) else { continue };
        let e = env.v1();
        let (kind, judge, seat, rule, note) = match ruling_in(&e.payload) {
            Some(Ruling::WarningIssued { judge, seat, rule, note, .. }) => ("warning", judge, seat, rule, note),
            Some(Ruling::GameLossIssued { judge, seat, rule, note, .. }) => ("game-loss", judge, seat, rule, note),
            _ => continue,
        };
        // A ruling is a judge's only when the judge it names recorded it.
        if e.actor != Actor::Judge(judge.clone()) {
            continue;
        }
        let player = players.get(usize::from(seat)).cloned().unwrap_or_else(|| format!("seat {seat}"));
        out.push((seq as u64, kind, judge, player, rule, note));
    }
    out
}

/// The bundled games and the rulings listed: each game verifies and is this tournament's; each
/// ruling is in its game's log, at its event, as listed, by a judge (of the event, when the
/// tournament records judges), at a round and table the tournament has; and every ruling against
/// the player in a bundled game is listed.
fn check_games(loaded: &Loaded, b: &CaseBundle) -> Vec<BundleCheck> {
    let st = &loaded.state;
    let stream = loaded.header.v1().stream.to_string();
    let Some(bundled) = &b.games else {
        let n = b.game_rulings.len();
        return vec![BundleCheck {
            check: "game rulings",
            ok: n == 0,
            detail: if n == 0 {
                "no rulings in games listed; the bundle carries no game logs (written by an earlier kifu)".into()
            } else {
                format!("game logs not included: rulings unverified ({n} ruling(s) listed, none can be checked)")
            },
        }];
    };
    let mut games = std::collections::BTreeMap::new();
    let (mut fine, mut problems) = (Vec::new(), Vec::new());
    for g in bundled {
        if games.contains_key(&g.game) {
            problems.push(format!("game {} is in the bundle twice", g.game));
            continue;
        }
        match open_game(st, &stream, g) {
            Ok((open, said)) => {
                fine.push(said);
                games.insert(g.game.clone(), Some(open));
            }
            Err(why) => {
                problems.push(why);
                games.insert(g.game.clone(), None);
            }
        }
    }
    let mut checks = vec![BundleCheck {
        check: "games",
        ok: problems.is_empty(),
        detail: if problems.is_empty() {
            format!("{} game log(s), each verifying and of {stream}: {}", fine.len(), fine.join(", "))
        } else {
            problems.join("; ")
        },
    }];
    let judges = recorded_judges(loaded);
    let found: std::collections::BTreeMap<&str, Vec<FoundRuling>> =
        games.iter().filter_map(|(id, g)| g.as_ref().map(|g| (id.as_str(), rulings_in(&g.log)))).collect();
    let mut problems = Vec::new();
    for r in &b.game_rulings {
        let at = match (r.round, r.table) {
            (Some(round), Some(table)) => format!("round {round} table {table}"),
            _ => "no round or table".to_string(),
        };
        let name = format!("{} to {} by {} in game {} (event {}, {at})", r.kind, r.player, r.judge, r.game, r.seq);
        match (r.round, r.table) {
            (Some(round), _) if !st.rounds.iter().any(|x| x.round == round) => {
                problems.push(format!("{name}: {stream} has no round {round}"));
            }
            (Some(round), Some(table)) if !has_place(st, round, table) => {
                problems.push(format!("{name}: round {round} of {stream} has no table {table}"));
            }
            (Some(_), Some(_)) => {}
            _ => problems.push(format!("{name}: names no round and table")),
        }
        if !judges.is_empty() && !judges.contains(&r.judge) {
            problems.push(format!("{name}: {} is not a judge of {stream}", r.judge));
        }
        let Some(game) = games.get(&r.game) else {
            problems.push(format!("{name}: not found: game {} is not in the bundle", r.game));
            continue;
        };
        let Some(game) = game else {
            problems.push(format!("{name}: not found: game {}'s log does not open (see games)", r.game));
            continue;
        };
        if (r.round, r.table) != (Some(game.round), Some(game.place)) {
            problems.push(format!("{name}: the game was played at round {} table {}", game.round, game.place));
        }
        let listed = (r.seq, r.kind.as_str(), &r.judge, &r.player, &r.rule, &r.note);
        let there = found.get(r.game.as_str()).and_then(|f| f.iter().find(|x| x.0 == r.seq));
        if there.map(|x| (x.0, x.1, &x.2, &x.3, &x.4, &x.5)) != Some(listed) {
            problems.push(format!("{name}: not found: the game's event {} is not this ruling by a judge", r.seq));
        }
    }
    // A ruling against the player left out of the list would hide it from the reviewers.
    for (game, rulings) in &found {
        for x in rulings.iter().filter(|x| x.3 == b.player) {
            if !b.game_rulings.iter().any(|r| r.game == *game && r.seq == x.0) {
                problems.push(format!(
                    "{} to {} by {} in game {game} (event {}) is in the game but not listed",
                    x.1, x.3, x.2, x.0
                ));
            }
        }
    }
    let judged = if judges.is_empty() {
        "the tournament records no judges to hold the rulings' judges to"
    } else {
        "each by a judge of the event"
    };
    checks.push(BundleCheck {
        check: "game rulings",
        ok: problems.is_empty(),
        detail: if problems.is_empty() {
            format!(
                "{} ruling(s) in games, each found in its game's log as listed ({judged}); every ruling against {} \
                 in those games is listed",
                b.game_rulings.len(),
                b.player
            )
        } else {
            problems.join("; ")
        },
    });
    checks
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
