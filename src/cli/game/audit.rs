//! `kifu game audit`: verifies the chain, folds the whole game and lists every violation.

use std::process::ExitCode;

use anyhow::Result;
use serde::Serialize;

use kifu::game::audit::AuditReport;

use super::open_game;
use crate::cli::{output, Context};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game's stream id, or a .kifu/JSON file.
    game: String,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct Json<'a> {
    game: String,
    chain: &'static str,
    head: String,
    unresolved: usize,
    report: &'a AuditReport,
}

pub fn run(ctx: &Context, args: Args) -> Result<ExitCode> {
    // Opening verifies the whole chain first: an audit of an edited log stops there.
    let g = open_game(ctx, &args.game)?;
    let report = g.driver.audit(&g.log)?;
    let players = g.session.players();
    let stream = g.log.header.stream().to_string();
    let code = if report.unresolved() == 0 { ExitCode::SUCCESS } else { ExitCode::from(1) };
    if args.json {
        output::print_json(&Json {
            game: stream,
            chain: "verified",
            head: g.log.head.hash.to_hex(),
            unresolved: report.unresolved(),
            report: &report,
        })?;
        return Ok(code);
    }
    println!("{stream}: {} game, {} events, chain verified, head {}", report.ruleset, report.events, g.log.head.hash);
    match &report.outcome {
        Some(o) => {
            println!("result: {} ({})", o.headline(&players), o.reason);
        }
        None => println!("result: not finished"),
    }
    if report.findings.is_empty() {
        println!("audit: clean — every event follows the rules");
    } else {
        let mut t = output::table(["seq", "actor", "rule", "explanation", "ruled on"]);
        for f in &report.findings {
            t.add_row([
                match (f.seq, f.found_at) {
                    (None, _) => "end".into(),
                    (Some(s), None) => s.to_string(),
                    (Some(s), Some(found)) => format!("{s} (found at {found})"),
                },
                f.actor.clone().unwrap_or_default(),
                f.rule.clone(),
                f.message.clone(),
                f.resolution.clone().unwrap_or_else(|| "NO — unresolved".into()),
            ]);
        }
        println!("{t}");
        println!("{} finding(s), {} unresolved", report.findings.len(), report.unresolved());
    }
    if report.unrevealed_sealed_cards > 0 {
        println!(
            "{} sealed card(s) were never revealed (allowed: some cards stay hidden)",
            report.unrevealed_sealed_cards
        );
    }
    Ok(code)
}
