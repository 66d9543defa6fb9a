//! `kifu tournament export|import`.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context as _, Result};
use serde_json::json;

use kifu::log::envelope::{Actor, StreamId};
use kifu::tournament::{melee, record, Policy};

use super::Context;
use crate::cli::output;

#[derive(clap::Args, Debug)]
pub struct ExportArgs {
    pub id: StreamId,
    /// Write to this file instead of standard output.
    #[arg(short, long)]
    pub output: Option<PathBuf>,
}

pub fn run_export(ctx: &Context, a: ExportArgs, _json: bool) -> Result<ExitCode> {
    let store = ctx.open_store()?;
    let loaded = record::load(&store, &a.id)?;
    let events: Vec<_> = loaded
        .entries
        .iter()
        .map(|e| {
            json!({"seq": e.seq, "recorded_at": e.recorded_at.to_rfc3339(), "actor": e.actor.to_string(), "event": e.event})
        })
        .collect();
    let doc = json!({
        "tournament": a.id.to_string(),
        "config": loaded.config,
        "head": loaded.head.hash.to_hex(),
        "events": events,
    });
    let text = serde_json::to_string_pretty(&doc)? + "\n";
    match a.output {
        Some(p) => std::fs::write(&p, text).with_context(|| format!("cannot write {}", p.display()))?,
        None => print!("{text}"),
    }
    Ok(ExitCode::SUCCESS)
}

#[derive(clap::Args, Debug)]
pub struct ImportArgs {
    /// The source format: melee (MTGODecklistCache JSON).
    #[arg(long)]
    pub from: String,
    pub file: PathBuf,
    /// mtr, melee or pokemon.
    #[arg(long, default_value = "melee")]
    pub policy: String,
    /// The stream id (default: melee- and 12 hex digits of the file's hash).
    #[arg(long)]
    pub id: Option<StreamId>,
}

pub fn run_import(ctx: &Context, a: ImportArgs, json: bool) -> Result<ExitCode> {
    if a.from != "melee" {
        bail!("unknown source {:?}: this build imports --from melee", a.from);
    }
    let Some(policy) = Policy::preset(&a.policy) else {
        bail!("unknown policy {:?}: use mtr, melee or pokemon", a.policy)
    };
    let bytes = std::fs::read(&a.file).with_context(|| format!("cannot read {}", a.file.display()))?;
    let text = String::from_utf8(bytes).with_context(|| format!("{} is not UTF-8", a.file.display()))?;
    let imported = melee::parse(&text, policy)?;
    let id = match a.id {
        Some(id) => id,
        None => StreamId::new(&format!("melee-{}", &blake3::hash(text.as_bytes()).to_hex()[..12]))?,
    };
    let store = ctx.open_store()?;
    let head = record::create(&store, &id, &imported.config, Actor::System, ctx.clock().now(), imported.events)?;
    if json {
        output::print_json(
            &json!({"id": id.to_string(), "head": head.hash.to_hex(), "events": head.len, "duplicates_dropped": imported.duplicates}),
        )?;
    } else {
        println!("{id}");
        eprintln!(
            "imported {} ({} events, {} duplicate listing(s) dropped)",
            imported.config.name, head.len, imported.duplicates
        );
    }
    Ok(ExitCode::SUCCESS)
}
