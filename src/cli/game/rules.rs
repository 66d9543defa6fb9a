//! `kifu game rules`: a game's rule IDs and how each is enforced; `--schema` prints the JSON
//! Schema of the entries `game act` and `game import` accept.

use std::process::ExitCode;

use anyhow::Result;
use serde::Serialize;

use kifu::game::Enforcement;

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
}

pub fn run(args: Args) -> Result<ExitCode> {
    let driver = driver_named(&args.game)?;
    if args.schema {
        print!("{}", driver.entry_schema());
        return Ok(ExitCode::SUCCESS);
    }
    let rows: Vec<Row> = driver
        .coverage()
        .into_iter()
        .map(|c| {
            let (enforcement, reason) = match c.enforcement {
                Enforcement::Enforced => ("enforced", ""),
                Enforcement::RecordedNotEnforced { reason } => ("recorded, not enforced", reason),
                Enforcement::Informational { reason } => ("informational", reason),
            };
            Row { rule: c.rule, summary: c.summary, enforcement, reason }
        })
        .collect();
    if args.json {
        output::print_json(&rows)?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut t = output::table(["rule", "summary", "enforcement", "why not enforced"]);
    for r in &rows {
        t.add_row([r.rule, r.summary, r.enforcement, r.reason]);
    }
    println!("{t}");
    let enforced = rows.iter().filter(|r| r.enforcement == "enforced").count();
    println!("{} rule IDs: {enforced} enforced, {} recorded or informational", rows.len(), rows.len() - enforced);
    Ok(ExitCode::SUCCESS)
}
