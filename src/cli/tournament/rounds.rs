//! `kifu tournament pair|top-cut|report|finalize`.

use std::process::ExitCode;

use anyhow::{bail, Result};
use serde::Serialize;
use serde_json::json;

use kifu::log::envelope::{Actor, StreamId};
use kifu::tournament::events::PairedTable;
use kifu::tournament::state::Tournament;
use kifu::tournament::{record, round_seed, MatchScore, TournamentEvent};

use super::{load_seed, Context};
use crate::cli::output;

#[derive(clap::Args, Debug)]
pub struct PairArgs {
    pub id: StreamId,
    #[arg(long, default_value = "organizer:organizer")]
    pub actor: Actor,
}

#[derive(Serialize)]
struct PostedTable {
    table: u32,
    player: String,
    points: u32,
    opponent: String,
    opponent_points: u32,
}

/// Prints pairings as posted at events: by table, then alphabetically by player.
fn post(state: &Tournament, round: u32, tables: &[PairedTable], byes: &[String], json: bool) -> Result<()> {
    let pts: std::collections::HashMap<String, u32> =
        state.standings().into_iter().map(|r| (r.player, r.points)).collect();
    let p = |n: &str| pts.get(n).copied().unwrap_or(0);
    let rows: Vec<PostedTable> = tables
        .iter()
        .map(|t| PostedTable {
            table: t.table,
            player: t.a.clone(),
            points: p(&t.a),
            opponent: t.b.clone(),
            opponent_points: p(&t.b),
        })
        .collect();
    if json {
        return output::print_json(&json!({"round": round, "tables": rows, "byes": byes}));
    }
    println!("Round {round} — by table");
    let mut t = output::table(["table", "player", "pts", "opponent", "pts"]);
    for r in &rows {
        t.add_row([
            r.table.to_string(),
            r.player.clone(),
            r.points.to_string(),
            r.opponent.clone(),
            r.opponent_points.to_string(),
        ]);
    }
    for b in byes {
        t.add_row(["bye".to_string(), b.clone(), p(b).to_string(), "—".into(), String::new()]);
    }
    println!("{t}");
    println!("Round {round} — by player");
    let mut by_name: Vec<(String, String, String)> = Vec::new();
    for r in &rows {
        by_name.push((r.player.clone(), r.table.to_string(), r.opponent.clone()));
        by_name.push((r.opponent.clone(), r.table.to_string(), r.player.clone()));
    }
    for b in byes {
        by_name.push((b.clone(), "bye".into(), "—".into()));
    }
    by_name.sort_by_key(|x| x.0.to_lowercase());
    let mut t = output::table(["player", "table", "opponent"]);
    for (a, b, c) in by_name {
        t.add_row([a, b, c]);
    }
    println!("{t}");
    Ok(())
}

pub fn run_pair(ctx: &Context, a: PairArgs, json: bool) -> Result<ExitCode> {
    let store = ctx.open_store()?;
    let loaded = record::load(&store, &a.id)?;
    let seed = load_seed(ctx, &a.id)?;
    let round = loaded.state.rounds.len() as u32 + 1;
    let rs = round_seed(&seed, round);
    let (tables, byes) = loaded.state.derive_round(round, &rs);
    let ev = TournamentEvent::RoundPaired { round, tables: tables.clone(), byes: byes.clone(), round_seed: Some(rs) };
    let (_, state) = record::record(&store, &a.id, a.actor, vec![ev])?;
    post(&state, round, &tables, &byes, json)?;
    Ok(ExitCode::SUCCESS)
}

pub fn run_top_cut(ctx: &Context, a: PairArgs, json: bool) -> Result<ExitCode> {
    let store = ctx.open_store()?;
    let loaded = record::load(&store, &a.id)?;
    let (round, tables) = loaded.state.derive_top_cut().map_err(anyhow::Error::msg)?;
    let ev = TournamentEvent::TopCutPaired { round, tables: tables.clone() };
    let (_, state) = record::record(&store, &a.id, a.actor, vec![ev])?;
    post(&state, round, &tables, &[], json)?;
    Ok(ExitCode::SUCCESS)
}

pub fn run_finalize(ctx: &Context, a: PairArgs, json: bool) -> Result<ExitCode> {
    let store = ctx.open_store()?;
    let loaded = record::load(&store, &a.id)?;
    let mut events = Vec::new();
    if loaded.config.seed_commitment.is_some() && loaded.state.revealed_seed.is_none() {
        events.push(TournamentEvent::SeedRevealed { seed: load_seed(ctx, &a.id)? });
    }
    events.push(TournamentEvent::Finalized);
    let (head, _) = record::record(&store, &a.id, a.actor, events)?;
    if json {
        output::print_json(&json!({"finalized": a.id.to_string(), "head": head.hash.to_hex()}))?;
    } else {
        println!("{} finalized; the pairing seed is revealed in the log (head {})", a.id, head.hash);
    }
    Ok(ExitCode::SUCCESS)
}

#[derive(clap::Args, Debug)]
pub struct ReportArgs {
    pub id: StreamId,
    /// The round (default: the latest).
    #[arg(long)]
    pub round: Option<u32>,
    #[arg(long)]
    pub table: u32,
    /// The score in games from the first-listed player's side: W-L-D (e.g. 2-1-0).
    pub score: String,
    /// A game stream played in this match (repeat for each game); its current head is linked.
    #[arg(long = "game")]
    pub games: Vec<StreamId>,
    /// Correct an existing result as this judge.
    #[arg(long)]
    pub judge: Option<String>,
    /// Why the result is corrected.
    #[arg(long)]
    pub reason: Option<String>,
    #[arg(long, default_value = "organizer:scorekeeper")]
    pub actor: Actor,
}

pub fn run_report(ctx: &Context, a: ReportArgs, json: bool) -> Result<ExitCode> {
    let store = ctx.open_store()?;
    let loaded = record::load(&store, &a.id)?;
    let round = match a.round.or(loaded.state.rounds.last().map(|r| r.round)) {
        Some(r) => r,
        None => bail!("no round is paired yet"),
    };
    let score: MatchScore = a.score.parse().map_err(anyhow::Error::msg)?;
    let names: Vec<String> = a.games.iter().map(|g| g.to_string()).collect();
    let games = kifu::tournament::claim::claim_games(&store, &loaded, round, a.table, &names)?;
    let (ev, actor) = match (&a.judge, &a.reason) {
        (Some(judge), Some(reason)) => (
            TournamentEvent::ResultCorrected {
                round,
                table: a.table,
                score,
                games,
                judge: judge.clone(),
                reason: reason.clone(),
            },
            Actor::Judge(judge.clone()),
        ),
        (None, None) => (TournamentEvent::ResultReported { round, table: a.table, score, games }, a.actor),
        _ => bail!("a correction needs both --judge and --reason"),
    };
    let (head, _) = record::record(&store, &a.id, actor, vec![ev])?;
    if json {
        output::print_json(
            &json!({"round": round, "table": a.table, "score": score.to_string(), "head": head.hash.to_hex()}),
        )?;
    } else {
        println!("round {round} table {}: {score} recorded", a.table);
    }
    Ok(ExitCode::SUCCESS)
}
