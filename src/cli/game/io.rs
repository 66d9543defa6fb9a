//! `kifu game import` and `kifu game export`: whole games as JSON lines.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{anyhow, Context as _, Result};

use kifu::log::envelope::StreamId;

use super::{driver_for, driver_named, open_game, BindArgs};
use crate::cli::Context;

#[derive(clap::Args, Debug)]
pub struct ImportArgs {
    /// The file.
    file: PathBuf,
    /// The file's format: `jsonl` (any game), or `vgc-log` (a Vanguard client action log; see
    /// `src/games/vanguard/vgclog.rs`), whose lines are recorded as the client recorded them.
    #[arg(long, default_value = "jsonl", value_parser = ["jsonl", "vgc-log"])]
    from: String,
    /// The stream id to create (default: the one the file names).
    #[arg(long)]
    id: Option<StreamId>,
    /// Store the game exactly as it was recorded elsewhere (paper, another program): plain
    /// actions are kept even when they break rules, as "recorded elsewhere, not validated", and
    /// so is a registered deck that breaks the deck rules; `kifu game audit` reports them as
    /// unresolved until a judge rules. Lines that do not decode still refuse the whole file.
    #[arg(long)]
    as_recorded: bool,
    /// Import the game as a new stream bound to a tournament's match (the only way a game
    /// recorded elsewhere enters a tournament; an existing stream is never re-bound).
    #[command(flatten)]
    bind: BindArgs,
}

pub fn run_import(ctx: &Context, args: ImportArgs) -> Result<ExitCode> {
    let text = std::fs::read_to_string(&args.file).with_context(|| format!("cannot read {}", args.file.display()))?;
    if args.from == "vgc-log" {
        return import_vgc_log(ctx, &args, &text);
    }
    let first = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    let head: serde_json::Value = serde_json::from_str(first)
        .map_err(|e| anyhow!("{}: line 1 is not a game header: {e}", args.file.display()))?;
    let game = head
        .get("game")
        .and_then(|g| g.as_str())
        .ok_or_else(|| anyhow!("{}: line 1 has no \"game\"", args.file.display()))?;
    let driver = driver_named(game)?;
    let store = ctx.open_store()?;
    let bound = match args.bind.tournament {
        None => None,
        Some(_) => {
            // The players, from the file as it would be recorded, before anything is written.
            let log = driver.jsonl_log(&text).with_context(|| format!("{} was not imported", args.file.display()))?;
            args.bind.checked(&store, driver.ruleset(), &log.header.v1().players)?
        }
    };
    let at = bound.as_ref().map(|b| format!(", bound to {b}")).unwrap_or_default();
    let (id, h) = driver
        .import_jsonl_bound(&store, &text, args.id, ctx.clock().now(), args.as_recorded, bound)
        .with_context(|| format!("{} was not imported", args.file.display()))?;
    println!("{id}");
    eprintln!("imported {game} game {id}{at}: {} events, head {}", h.len, h.hash);
    Ok(ExitCode::SUCCESS)
}

/// Imports a Vanguard client action log: every readable line becomes an event exactly as the
/// client recorded it (rule-breaking lines included: `kifu game audit` reports them); lines that
/// cannot be read are listed by line number and nothing is imported.
fn import_vgc_log(ctx: &Context, args: &ImportArgs, text: &str) -> Result<ExitCode> {
    use kifu::game::Game as _;
    use kifu::games::vanguard::{catalog::Catalog, vgclog, Vanguard};
    let log = vgclog::parse(text, &Catalog::sample()).map_err(|errs| {
        let lines: Vec<String> = errs.iter().map(|e| e.to_string()).collect();
        anyhow!("{} was not imported:\n  {}", args.file.display(), lines.join("\n  "))
    })?;
    Vanguard::setup(&log.config).map_err(|v| {
        let lines: Vec<String> = v.iter().map(|v| v.to_string()).collect();
        anyhow!("{}: the decks break the rules:\n  {}", args.file.display(), lines.join("\n  "))
    })?;
    let id = match (&args.id, &log.stream) {
        (Some(id), _) => id.clone(),
        (None, Some(s)) => StreamId::new(s).map_err(|e| anyhow!("{}: stream line: {e}", args.file.display()))?,
        (None, None) => return Err(anyhow!("{} names no stream; give one with --id", args.file.display())),
    };
    let store = ctx.open_store()?;
    let bound = args.bind.checked(&store, Vanguard::RULESET, &Vanguard::players(&log.config))?;
    let now = ctx.clock().now();
    let h = kifu::game::record::import_entries_bound::<Vanguard>(&store, &id, &log.config, log.entries, now, bound)
        .with_context(|| format!("{} was not imported", args.file.display()))?;
    println!("{id}");
    eprintln!("imported vanguard client log {id}: {} events, head {}; run `kifu game audit {id}`", h.len, h.hash);
    Ok(ExitCode::SUCCESS)
}

#[derive(clap::Args, Debug)]
pub struct ExportArgs {
    /// The game's stream id, or a .kifu/JSON file.
    game: String,
    /// The file to write ('-' for standard output).
    #[arg(short, long)]
    output: PathBuf,
}

pub fn run_export(ctx: &Context, args: ExportArgs) -> Result<ExitCode> {
    let g = open_game(ctx, &args.game)?;
    let text = driver_for(&g.log)?.export_jsonl(&g.log)?;
    if args.output.as_os_str() == "-" {
        // JSON lines: its escapes keep it the same JSON and inert on a terminal.
        print!("{}", kifu::log::limits::inert_json(&text));
    } else {
        std::fs::write(&args.output, &text).with_context(|| format!("cannot write {}", args.output.display()))?;
        eprintln!(
            "exported {} as JSON lines ({} events) -> {}",
            g.log.header.stream(),
            g.log.head.len,
            args.output.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}
