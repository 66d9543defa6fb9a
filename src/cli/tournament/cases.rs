//! `kifu tournament statement|dq-report|case`: investigations from the command line. A statement
//! is kept privately (sealed in the log), a disqualification report is signed with the head
//! judge's key file, and the case file gathers a player's calls, penalties, deck checks,
//! statements and reports.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context as _, Result};
use serde_json::json;

use kifu::log::envelope::{Actor, StreamId};
use kifu::tournament::case::CaseFile;
use kifu::tournament::events::StatementBy;
use kifu::tournament::ops;

use super::Context;
use crate::cli::output;

#[derive(clap::Args, Debug)]
pub struct StatementArgs {
    pub id: StreamId,
    /// The player the investigation is about.
    pub player: String,
    /// Who gave it: player, opponent, witness or judge.
    #[arg(long)]
    pub by: StatementBy,
    /// Their name.
    #[arg(long)]
    pub author: String,
    /// The judge who took it.
    #[arg(long)]
    pub judge: String,
    /// The statement's text (or --file).
    #[arg(long, conflicts_with = "file", required_unless_present = "file")]
    pub text: Option<String>,
    /// A file holding the statement's text.
    #[arg(long)]
    pub file: Option<PathBuf>,
    /// When it was taken (RFC 3339); default now.
    #[arg(long)]
    pub at: Option<String>,
    #[arg(long, default_value = "organizer:organizer")]
    pub actor: Actor,
}

/// `kifu tournament statement`: the text is kept in the data directory (owner-only), the log
/// records who gave it, who took it and the text's sealed commitment.
pub fn run_statement(ctx: &Context, a: StatementArgs, json: bool) -> Result<ExitCode> {
    super::judging::official_actor(&a.actor, "a statement")?;
    let text = match (&a.text, &a.file) {
        (Some(t), _) => t.clone(),
        (None, Some(f)) => {
            let meta = std::fs::metadata(f).with_context(|| format!("cannot read {}", f.display()))?;
            if meta.len() > (kifu::tournament::events::STATEMENT_MAX * 4) as u64 {
                bail!(
                    "{} is too long for a statement (at most {} characters)",
                    f.display(),
                    kifu::tournament::events::STATEMENT_MAX
                );
            }
            std::fs::read_to_string(f).with_context(|| format!("cannot read {}", f.display()))?
        }
        (None, None) => bail!("give the statement's text: --text or --file"),
    };
    let at = super::judging::at(ctx, &a.at)?;
    let store = ctx.open_store()?;
    let salt = kifu::game::commit::Commitment(rand::random::<[u8; 32]>());
    let s = ops::NewStatement { player: &a.player, by: a.by, author: &a.author, judge: &a.judge, at, text: &text };
    let (head, n) = ops::record_statement(&store, &ctx.data_dir, &a.id, &s, &salt, a.actor)?;
    if json {
        output::print_json(&json!({"statement": n, "player": a.player.trim(), "head": head.hash.to_hex()}))?;
    } else {
        println!(
            "statement {n} ({} {}) about {} recorded; its text is kept for the judges only",
            a.by.name(),
            a.author.trim(),
            a.player.trim()
        );
    }
    Ok(ExitCode::SUCCESS)
}

#[derive(clap::Args, Debug)]
pub struct ReportArgs {
    pub id: StreamId,
    /// The disqualified player.
    pub player: String,
    /// The head judge who signs.
    #[arg(long)]
    pub name: String,
    /// The head judge's key file (its public half recorded with `kifu tournament signer`).
    #[arg(long)]
    pub key: PathBuf,
    /// The facts found.
    #[arg(long)]
    pub facts: String,
    /// The reasons for the disqualification.
    #[arg(long)]
    pub reasons: String,
    /// The disqualification it supports (its penalty number); default: the player's latest.
    #[arg(long)]
    pub penalty: Option<u32>,
    #[arg(long)]
    pub at: Option<String>,
}

/// `kifu tournament dq-report`: the head judge's signed disqualification report.
pub fn run_report(ctx: &Context, a: ReportArgs, json: bool) -> Result<ExitCode> {
    let key = super::sign::read_key(&a.key)?;
    let at = super::judging::at(ctx, &a.at)?;
    let store = ctx.open_store()?;
    let r = ops::NewReport {
        player: &a.player,
        penalty: a.penalty,
        head_judge: &a.name,
        facts: &a.facts,
        reasons: &a.reasons,
        at,
    };
    let head = ops::report_disqualification(&store, &a.id, &r, &key, Actor::Judge(a.name.trim().to_string()))?;
    if json {
        output::print_json(
            &json!({"player": a.player.trim(), "signed_by": a.name.trim(), "head": head.hash.to_hex()}),
        )?;
    } else {
        println!("{} signed the disqualification report on {}", a.name.trim(), a.player.trim());
    }
    Ok(ExitCode::SUCCESS)
}

#[derive(clap::Args, Debug)]
pub struct CaseArgs {
    pub id: StreamId,
    pub player: String,
    /// Write the case for conduct reviewers to this file (owner-only): the tournament's log, the
    /// statements about the player revealed, and the player's rulings in games with those games'
    /// logs; `kifu tournament case-check FILE` checks it.
    #[arg(long)]
    pub export: Option<PathBuf>,
}

/// `kifu tournament case`: the player's case file, statements included (whoever holds the data
/// directory is the event's official), or with `--export` the bundle for conduct reviewers.
pub fn run_case(ctx: &Context, a: CaseArgs, json: bool) -> Result<ExitCode> {
    let store = ctx.open_store()?;
    if let Some(to) = &a.export {
        let bundle = ops::export_case(&store, &ctx.data_dir, &a.id, &a.player)?;
        let bytes = serde_json::to_vec_pretty(&bundle)?;
        kifu::store::write_private_atomic(to, &bytes).with_context(|| format!("cannot write {}", to.display()))?;
        let n = bundle.statements.len();
        if json {
            output::print_json(
                &json!({"exported": to, "player": bundle.player, "statements": n, "bytes": bytes.len()}),
            )?;
        } else {
            println!(
                "{}'s case in {} exported to {} ({n} statement(s) revealed, {} bytes); give it only to the \
                 conduct reviewers: it holds the statements' text",
                bundle.player,
                a.id,
                to.display(),
                bytes.len()
            );
        }
        return Ok(ExitCode::SUCCESS);
    }
    let case = ops::case_file(&store, &ctx.data_dir, &a.id, &a.player, true)?;
    if json {
        output::print_json(&case)?;
    } else {
        print!("{}", case_text(&case));
    }
    Ok(ExitCode::SUCCESS)
}

/// The case file as text, in sections.
fn case_text(c: &CaseFile) -> String {
    use std::fmt::Write as _;
    let mut o = String::new();
    let _ = writeln!(o, "Case file: {} in {}", c.player, c.tournament);
    let _ = writeln!(o, "\nJudge calls ({}):", c.calls.len());
    for x in &c.calls {
        let _ = write!(
            o,
            "  call {}: round {} table {}, called by {} at {}: {}",
            x.call, x.round, x.table, x.caller, x.opened, x.status
        );
        if let Some(j) = &x.judge {
            let _ = write!(o, " ({j})");
        }
        if let Some(out) = &x.outcome {
            let _ = write!(o, ", {out}");
        }
        match &x.note {
            Some(n) if !n.is_empty() => {
                let _ = writeln!(o, ": {n}");
            }
            _ => o.push('\n'),
        }
    }
    let games: Vec<_> = c.game_rulings.iter().collect();
    let _ = writeln!(o, "\nPenalties ({}) and rulings in games ({}):", c.penalties.len(), games.len());
    if !c.penalties.is_empty() || !games.is_empty() {
        let _ = writeln!(o, "{}", super::judging::penalty_table(&c.penalties, &games));
    }
    let _ = writeln!(o, "\nDeck checks ({}):", c.deck_checks.len());
    for d in &c.deck_checks {
        let found = if d.matches { "matches the list".to_string() } else { format!("{} card(s) differ", d.cards) };
        let table = d.table.map(|t| format!(" table {t}")).unwrap_or_default();
        let _ = writeln!(o, "  check {}: round {}{table} by {} at {}: {found}", d.check, d.round, d.judge, d.at);
    }
    if let Some(ss) = &c.statements {
        let _ = writeln!(o, "\nStatements ({}):", ss.len());
        for s in ss {
            let _ = writeln!(o, "  statement {}: {} {}, taken by {} at {}", s.statement, s.by, s.author, s.judge, s.at);
            match &s.text {
                Some(t) => t.lines().for_each(|l| {
                    let _ = writeln!(o, "    {l}");
                }),
                None => {
                    let _ = writeln!(o, "    (the text is not on this machine)");
                }
            }
        }
    }
    let _ = writeln!(o, "\nDisqualification reports ({}):", c.reports.len());
    for r in &c.reports {
        let sig = match &r.signature_problem {
            None => "the signature verifies".to_string(),
            Some(why) => format!("THE SIGNATURE DOES NOT VERIFY: {why}"),
        };
        let _ = writeln!(o, "  penalty {}: signed by {} at {}: {sig}", r.penalty, r.head_judge, r.at);
        let _ = writeln!(o, "    Facts found: {}", r.facts);
        let _ = writeln!(o, "    Reasons: {}", r.reasons);
    }
    o
}

#[derive(clap::Args, Debug)]
pub struct CaseCheckArgs {
    /// A file written by `kifu tournament case --export`.
    pub file: PathBuf,
    /// The tournament's head as known from elsewhere (its public page, its signed final root),
    /// 64 hex digits: the check fails when the bundle's log has another head.
    #[arg(long, value_name = "HEX")]
    pub head: Option<String>,
}

/// The largest bundle `case-check` reads (a tournament log of a large event is a few MB).
const BUNDLE_MAX: u64 = 256 * 1024 * 1024;

/// `kifu tournament case-check FILE [--head HEX]`: opens an exported case with no store: prints
/// the case file re-derived from the bundle's log and each check, then what failed; exit 1 when
/// a check fails.
pub fn run_case_check(a: CaseCheckArgs, json: bool) -> Result<ExitCode> {
    let head = match &a.head {
        None => None,
        Some(h) => match kifu::log::hash::Hash32::from_hex(h.trim()) {
            Ok(x) => Some(x),
            Err(_) => bail!("--head {h:?} is not a head: give the tournament's head hash, 64 hex digits"),
        },
    };
    let size = std::fs::metadata(&a.file).with_context(|| format!("cannot read {}", a.file.display()))?.len();
    if size > BUNDLE_MAX {
        bail!("{} has {size} bytes: a case bundle has at most {BUNDLE_MAX}", a.file.display());
    }
    let bytes = std::fs::read(&a.file).with_context(|| format!("cannot read {}", a.file.display()))?;
    let bundle: kifu::tournament::case::CaseBundle = serde_json::from_slice(&bytes).with_context(|| {
        format!("{} is not a case bundle (kifu tournament case --export writes one)", a.file.display())
    })?;
    let opened = kifu::tournament::case::open_bundle(&bundle, head.as_ref())?;
    if json {
        output::print_json(&opened)?;
    } else {
        print!("{}", case_text(&opened.case));
        println!("\nChecked ({} events, head {}):", opened.events, opened.head);
        for c in &opened.checks {
            println!("  {} {}: {}", if c.ok { "ok    " } else { "FAILED" }, c.check, c.detail);
        }
        let failed: Vec<&str> = opened.checks.iter().filter(|c| !c.ok).map(|c| c.check).collect();
        if failed.is_empty() {
            println!("\nEvery check passed.");
        } else {
            println!("\nFAILED: {} (the bundle is not as the record holds it)", failed.join(", "));
        }
    }
    Ok(if opened.ok() { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}
