//! `kifu game rules`: a game's rule IDs and how each is enforced; `--schema` prints the JSON
//! Schema of the entries `game act` and `game import` accept.

use std::process::ExitCode;

use anyhow::Result;
use serde::Serialize;

use kifu::game::rules::{rules_summary, RulesSummary};
use kifu::game::{Enforcement, Unrecordable};

use super::driver_named;
use crate::cli::output;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game, e.g. naruto.
    #[arg(long)]
    game: String,
    /// Print the JSON Schema of the game's events instead.
    #[arg(long)]
    schema: bool,
    /// Print only the counts: rule IDs, enforced, enforced with an illegal and a tricky judge's
    /// scenario, and actions a table cannot record.
    #[arg(long)]
    summary: bool,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct Row {
    rule: &'static str,
    summary: &'static str,
    enforcement: &'static str,
    reason: &'static str,
    /// The events its illegal scenarios are cited at.
    cited_at: Vec<String>,
    illegal_cases: u32,
    tricky_cases: u32,
}

#[derive(Serialize)]
struct Summary<'a> {
    game: &'a str,
    #[serde(flatten)]
    counts: RulesSummary,
    cannot_record: &'static [Unrecordable],
}

pub fn run(args: Args) -> Result<ExitCode> {
    let driver = driver_named(&args.game)?;
    if args.schema {
        print!("{}", driver.entry_schema());
        return Ok(ExitCode::SUCCESS);
    }
    let coverage = driver.coverage();
    let scenarios = driver.scenarios();
    if args.summary {
        return print_summary(&args, &coverage, &scenarios, driver.unrecordable());
    }
    let rows: Vec<Row> = coverage
        .into_iter()
        .map(|c| {
            let (enforcement, reason) = match c.enforcement {
                Enforcement::Enforced => ("enforced", ""),
                Enforcement::RecordedNotEnforced { reason } => ("recorded, not enforced", reason),
                Enforcement::Informational { reason } => ("informational", reason),
            };
            let count = scenarios.iter().find(|s| s.rule == c.rule).cloned().unwrap_or_default();
            Row {
                rule: c.rule,
                summary: c.summary,
                enforcement,
                reason,
                cited_at: count.cited_at,
                illegal_cases: count.illegal,
                tricky_cases: count.tricky,
            }
        })
        .collect();
    if args.json {
        output::print_json(&rows)?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut t = output::table(["rule", "summary", "enforcement", "why not enforced", "cited at", "illegal / tricky"]);
    for r in &rows {
        let cases = format!("{} / {}", r.illegal_cases, r.tricky_cases);
        t.add_row([r.rule, r.summary, r.enforcement, r.reason, &r.cited_at.join(", "), &cases]);
    }
    println!("{t}");
    let enforced = rows.iter().filter(|r| r.enforcement == "enforced").count();
    let both = rows.iter().filter(|r| r.enforcement == "enforced" && r.illegal_cases > 0 && r.tricky_cases > 0).count();
    println!(
        "{} rule IDs: {enforced} enforced ({both} with an illegal and a tricky judge's scenario), {} recorded or \
         informational",
        rows.len(),
        rows.len() - enforced
    );
    Ok(ExitCode::SUCCESS)
}

/// `--summary`: the counts the README's coverage table shows, and each action a table cannot record.
fn print_summary(
    args: &Args,
    coverage: &[kifu::game::RuleCoverage],
    scenarios: &[kifu::game::ScenarioCount],
    unrecordable: &'static [Unrecordable],
) -> Result<ExitCode> {
    let counts = rules_summary(coverage, scenarios, unrecordable);
    if args.json {
        output::print_json(&Summary { game: &args.game, counts, cannot_record: unrecordable })?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut t = output::table(["game", "rule IDs", "enforced", "enforced with both cases", "cannot record"]);
    t.add_row([
        args.game.clone(),
        counts.rule_ids.to_string(),
        counts.enforced.to_string(),
        counts.enforced_with_both_cases.to_string(),
        counts.cannot_record.to_string(),
    ]);
    println!("{t}");
    for u in unrecordable {
        println!("cannot record ({}): {}; {}", u.rule, u.action, u.why);
    }
    Ok(ExitCode::SUCCESS)
}
