//! `kifu streams`: the streams in the store, one row each.

use std::process::ExitCode;

use anyhow::Result;
use serde::Serialize;

use kifu::store::Store;

use super::{output, Context};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct Row {
    stream: String,
    kind: String,
    ruleset: String,
    ruleset_version: u32,
    players: Vec<String>,
    events: u64,
    head: String,
    created_at: String,
}

pub fn run(ctx: &Context, args: Args) -> Result<ExitCode> {
    let store = ctx.open_store()?;
    let rows: Vec<Row> = store
        .streams()?
        .into_iter()
        .map(|s| {
            let h = s.header.v1();
            Row {
                stream: h.stream.to_string(),
                kind: h.kind.to_string(),
                ruleset: h.ruleset.clone(),
                ruleset_version: h.ruleset_version,
                // A name an earlier build stored unbounded is listed cut, never refused.
                players: h.players.iter().map(|p| kifu::log::limits::shown(p).into_owned()).collect(),
                events: s.head.len,
                head: s.head.hash.to_hex(),
                created_at: h.created_at.to_rfc3339(),
            }
        })
        .collect();
    if args.json {
        output::print_json(&rows)?;
        return Ok(ExitCode::SUCCESS);
    }
    if rows.is_empty() {
        println!("No streams in {} yet.", ctx.location);
        return Ok(ExitCode::SUCCESS);
    }
    let mut t = output::table(["stream", "kind", "ruleset", "players", "events", "head", "created (UTC)"]);
    for r in &rows {
        t.add_row([
            r.stream.clone(),
            r.kind.clone(),
            format!("{} v{}", r.ruleset, r.ruleset_version),
            r.players.join(", "),
            r.events.to_string(),
            r.head[..12].to_string(),
            r.created_at[..19].replace('T', " "),
        ]);
    }
    println!("{t}");
    Ok(ExitCode::SUCCESS)
}
