//! `kifu tournament pair|top-cut|report|finalize`.

use std::process::ExitCode;

use anyhow::{bail, Result};
use serde::Serialize;
use serde_json::json;

use kifu::log::envelope::{Actor, StreamId};
use kifu::tournament::events::PairedTable;
use kifu::tournament::standings::StandingRow;
use kifu::tournament::state::Tournament;
use kifu::tournament::{ops, record, MatchScore, TournamentEvent};

use super::Context;
use crate::cli::output;

#[derive(clap::Args, Debug)]
pub struct PairArgs {
    pub id: StreamId,
    #[arg(long, default_value = "organizer:organizer")]
    pub actor: Actor,
}

/// Fields in name order: `--json` prints them as the `json!` map it replaced did, byte for byte.
#[derive(Serialize)]
struct PostedTable {
    opponent: String,
    opponent_points: u32,
    player: String,
    points: u32,
    table: u32,
}

/// A posted round for `--json`, serialized straight from the rows (no `Value` tree: a round of
/// 5,000 tables built one costs as much as pairing it).
#[derive(Serialize)]
struct PostedRound<'a> {
    byes: &'a [String],
    round: u32,
    tables: &'a [PostedTable],
}

/// Prints pairings as posted at events: by table, then alphabetically by player.
fn post(before: &[StandingRow], round: u32, tables: &[PairedTable], byes: &[String], json: bool) -> Result<()> {
    let pts: std::collections::HashMap<&str, u32> = before.iter().map(|r| (r.player.as_str(), r.points)).collect();
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
        return output::print_json(&PostedRound { byes, round, tables: &rows });
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

/// Prints a pod round as posted: by pod, each seat with its points before the round.
fn post_pods(p: &ops::PodsPaired, json: bool) -> Result<ExitCode> {
    let pts: std::collections::HashMap<&str, u32> = p.before.iter().map(|r| (r.player.as_str(), r.points)).collect();
    if json {
        output::print_json(&json!({"round": p.round, "pods": p.pods, "head": p.head.hash.to_hex()}))?;
        return Ok(ExitCode::SUCCESS);
    }
    println!("Round {} — by pod (seat 1 first)", p.round);
    let mut t = output::table(["pod", "seat", "player", "pts"]);
    for (i, pod) in p.pods.iter().enumerate() {
        for (s, name) in pod.iter().enumerate() {
            let points = pts.get(name.as_str()).copied().unwrap_or(0);
            t.add_row([(i + 1).to_string(), (s + 1).to_string(), name.clone(), points.to_string()]);
        }
    }
    println!("{t}");
    Ok(ExitCode::SUCCESS)
}

#[derive(clap::Args, Debug)]
pub struct PairNextArgs {
    pub id: StreamId,
    /// Change the planned number of Swiss rounds first (e.g. to continue an imported event).
    #[arg(long)]
    pub rounds: Option<u32>,
    #[arg(long, default_value = "organizer:organizer")]
    pub actor: Actor,
}

pub fn run_pair(ctx: &Context, a: PairNextArgs, json: bool) -> Result<ExitCode> {
    let store = ctx.open_store()?;
    // The state alone (from the store's snapshot when it is current): pairing needs no entries.
    let (state, head) = record::load_state(&store, &a.id)?;
    if state.pod_format.is_some() {
        let loaded = record::load(&store, &a.id)?;
        let p = ops::pair_next_pods(&store, &ctx.data_dir, &a.id, loaded, a.actor)?;
        return post_pods(&p, json);
    }
    let fresh = kifu::game::commit::Commitment(rand::random::<[u8; 32]>());
    let p = ops::pair_next_at(&store, &ctx.data_dir, &a.id, state, head, a.actor, a.rounds, fresh)?;
    post(&p.before, p.round, &p.tables, &p.byes, json)?;
    Ok(ExitCode::SUCCESS)
}

pub fn run_top_cut(ctx: &Context, a: PairArgs, json: bool) -> Result<ExitCode> {
    let store = ctx.open_store()?;
    let loaded = record::load(&store, &a.id)?;
    let (round, tables) = loaded.state.derive_top_cut().map_err(kifu::tournament::TournamentError::Rule)?;
    let before = loaded.state.standings();
    let ev = TournamentEvent::TopCutPaired { round, tables: tables.clone() };
    record::record(&store, &a.id, a.actor, vec![ev])?;
    post(&before, round, &tables, &[], json)?;
    Ok(ExitCode::SUCCESS)
}

#[derive(clap::Args, Debug)]
pub struct FinalizeArgs {
    pub id: StreamId,
    /// Finalize before the planned rounds or the top cut are finished, as this judge.
    #[arg(long, requires = "reason")]
    pub judge: Option<String>,
    /// Why the event ends early (with --judge).
    #[arg(long, requires = "judge")]
    pub reason: Option<String>,
    #[arg(long, default_value = "organizer:organizer")]
    pub actor: Actor,
}

pub fn run_finalize(ctx: &Context, a: FinalizeArgs, json: bool) -> Result<ExitCode> {
    let store = ctx.open_store()?;
    let early = a.judge.clone().zip(a.reason.clone());
    let (head, unfinished) = ops::finalize(&store, &ctx.data_dir, &a.id, a.actor, early)?;
    if json {
        output::print_json(&json!({
            "finalized": a.id.to_string(),
            "early": !unfinished.is_empty(),
            "unfinished": unfinished,
            "head": head.hash.to_hex(),
        }))?;
    } else {
        if !unfinished.is_empty() {
            println!("finalized EARLY (left unplayed: {})", unfinished.join("; "));
        }
        println!("{} finalized; the pairing seed is revealed in the log (head {})", a.id, head.hash);
    }
    Ok(ExitCode::SUCCESS)
}

#[derive(clap::Args, Debug)]
pub struct VoidArgs {
    pub id: StreamId,
    /// Why the round is voided (required).
    #[arg(long)]
    pub reason: String,
    #[arg(long, default_value = "organizer:organizer")]
    pub actor: Actor,
}

pub fn run_void(ctx: &Context, a: VoidArgs, json: bool) -> Result<ExitCode> {
    let store = ctx.open_store()?;
    let loaded = record::load(&store, &a.id)?;
    let Some(round) = loaded.state.rounds.last().map(|r| r.round) else { bail!("no round is paired: nothing to void") };
    let ev = TournamentEvent::RoundVoided { round, reason: a.reason.trim().to_string() };
    let (head, _) = record::record(&store, &a.id, a.actor, vec![ev])?;
    if json {
        output::print_json(&json!({"voided": round, "head": head.hash.to_hex()}))?;
    } else {
        println!("round {round} voided; `kifu tournament pair {}` pairs it again from the same seed", a.id);
    }
    Ok(ExitCode::SUCCESS)
}

#[derive(clap::Args, Debug)]
pub struct SetAsideArgs {
    pub id: StreamId,
    /// The stored event that decodes as no tournament event (`kifu verify` names it).
    #[arg(long)]
    pub seq: u64,
    /// Why it is set aside (required).
    #[arg(long)]
    pub reason: String,
    /// The organizer or the head judge setting it aside.
    #[arg(long, default_value = "organizer:organizer")]
    pub actor: Actor,
}

/// Repairs a tournament an older build damaged: the stored event `seq`, which decodes as no
/// tournament event, is set aside by a recorded event; its bytes stay in the log.
pub fn run_set_aside(ctx: &Context, a: SetAsideArgs, json: bool) -> Result<ExitCode> {
    let store = ctx.open_store()?;
    let head = record::set_aside(&store, &a.id, a.seq, a.actor, a.reason.trim())?;
    if json {
        output::print_json(
            &json!({"set_aside": a.seq, "event": head.len.saturating_sub(1), "head": head.hash.to_hex()}),
        )?;
    } else {
        println!("event {} set aside by event {}; head {}", a.seq, head.len.saturating_sub(1), head.hash);
    }
    Ok(ExitCode::SUCCESS)
}

#[derive(clap::Args, Debug)]
pub struct ReportArgs {
    pub id: StreamId,
    /// The round (default: the latest).
    #[arg(long)]
    pub round: Option<u32>,
    /// The table (then give the score from the first-listed player's side).
    #[arg(long, conflicts_with_all = ["winner", "draw"])]
    pub table: Option<u32>,
    /// The score in games from the first-listed player's side: W-L-D (e.g. 2-1-0), with --table.
    pub score: Option<String>,
    /// The winner and the score from the winner's side: --winner alice 2-1.
    #[arg(long, num_args = 2, value_names = ["PLAYER", "SCORE"], conflicts_with = "draw")]
    pub winner: Option<Vec<String>>,
    /// A drawn match, a player and the score from that player's side: --draw alice 1-1-1.
    #[arg(long, num_args = 2, value_names = ["PLAYER", "SCORE"])]
    pub draw: Option<Vec<String>>,
    /// Pods: the pod whose result this is (with --places).
    #[arg(long, requires = "places", conflicts_with_all = ["table", "winner", "draw", "score"])]
    pub pod: Option<u32>,
    /// Pods: each seat's place in seat order, 1 best, a shared place repeated (e.g. 1,2,2,4).
    #[arg(long, value_delimiter = ',', requires = "pod")]
    pub places: Option<Vec<u32>>,
    /// A game stream played in this match (repeat for each game); its current head is linked.
    #[arg(long = "game")]
    pub games: Vec<StreamId>,
    /// Correct an existing result as this judge.
    #[arg(long, conflicts_with = "by")]
    pub judge: Option<String>,
    /// Enter the result against the players' reports (a dispute, a report never confirmed) as
    /// this organizer or head judge: an override, listed by verify.
    #[arg(long)]
    pub by: Option<String>,
    /// Why the result is corrected, or entered against the players' reports.
    #[arg(long)]
    pub reason: Option<String>,
    #[arg(long, default_value = "organizer:scorekeeper")]
    pub actor: Actor,
}

/// The table `player` sits at in `round` and the score from table's first-listed side, from a
/// score read off the slip from `player`'s side.
fn by_player(state: &Tournament, round: u32, player: &str, score: &str, won: bool) -> Result<(u32, MatchScore)> {
    let name = kifu::tournament::rules::resolve(state, player)?;
    let p = state.player(&name).ok_or_else(|| anyhow::anyhow!("{}", state.unknown(player)))?;
    let mine: MatchScore = score.parse()?;
    if won && mine.a_wins <= mine.b_wins {
        bail!("{name} won, so the score from {name}'s side has more wins than losses, not {mine}");
    }
    if !won && mine.a_wins != mine.b_wins {
        bail!("a drawn match has as many wins as losses, not {mine}; use --winner for a decided match");
    }
    let r =
        state.rounds.iter().find(|r| r.round == round).ok_or_else(|| anyhow::anyhow!("round {round} is not paired"))?;
    if r.byes.contains(&p) {
        bail!("{name} has the bye in round {round}; there is no result to report");
    }
    let t = r
        .tables
        .iter()
        .find(|t| t.a == p || t.b == p)
        .ok_or_else(|| anyhow::anyhow!("{name} does not play in round {round}"))?;
    Ok((t.table, if t.a == p { mine } else { mine.swapped() }))
}

/// Who stands behind a report that is not the players' own: a judge correcting it, or an
/// organizer or head judge entering it against the players' reports.
enum Who {
    Judge(String),
    By(String),
}

const NEEDS_REASON: &str =
    "a correction needs both --judge and --reason; a result entered against the players' reports needs --by and \
     --reason";

fn who(a: &ReportArgs) -> Result<Option<Who>> {
    let name = |flag: &str, n: &String| -> Result<String> {
        let n = n.trim().to_string();
        kifu::log::limits::check_name(|| flag.to_string(), &n)?;
        Ok(n)
    };
    Ok(match (&a.judge, &a.by) {
        (Some(j), _) => Some(Who::Judge(name("--judge", j)?)),
        (None, Some(b)) => Some(Who::By(name("--by", b)?)),
        (None, None) => None,
    })
}

pub fn run_report(ctx: &Context, a: ReportArgs, json: bool) -> Result<ExitCode> {
    let store = ctx.open_store()?;
    let loaded = record::load(&store, &a.id)?;
    let round = match a.round.or(loaded.state.rounds.last().map(|r| r.round)) {
        Some(r) => r,
        None => bail!("no round is paired yet"),
    };
    if let (Some(pod), Some(places)) = (a.pod, &a.places) {
        return report_pod(&store, &loaded, &a, round, pod, places.clone(), json);
    }
    let (table, score) = match (&a.table, &a.score, &a.winner, &a.draw) {
        (Some(t), Some(s), None, None) => (*t, s.parse::<MatchScore>().map_err(anyhow::Error::msg)?),
        (None, None, Some(w), None) => by_player(&loaded.state, round, &w[0], &w[1], true)?,
        (None, None, None, Some(d)) => by_player(&loaded.state, round, &d[0], &d[1], false)?,
        _ => bail!("give --table N SCORE, --winner PLAYER SCORE or --draw PLAYER SCORE"),
    };
    let names: Vec<String> = a.games.iter().map(|g| g.to_string()).collect();
    let games = kifu::tournament::claim::claim_games(&store, &loaded, round, table, &names)?;
    let (ev, actor) = match (who(&a)?, &a.reason) {
        (Some(Who::Judge(judge)), Some(reason)) => (
            TournamentEvent::ResultCorrected {
                round,
                table,
                score,
                games,
                judge: judge.clone(),
                reason: reason.clone(),
            },
            Actor::Judge(judge),
        ),
        (Some(Who::By(by)), Some(reason)) => {
            (TournamentEvent::ResultEntered { round, table, score, games, by, reason: reason.clone() }, a.actor)
        }
        (None, None) => (TournamentEvent::ResultReported { round, table, score, games }, a.actor),
        _ => bail!(NEEDS_REASON),
    };
    let (head, _) = record::record(&store, &a.id, actor, vec![ev])?;
    if json {
        output::print_json(
            &json!({"round": round, "table": table, "score": score.to_string(), "head": head.hash.to_hex()}),
        )?;
    } else {
        println!("round {round} table {}: {score} recorded", table);
    }
    Ok(ExitCode::SUCCESS)
}

/// `report --pod N --places 1,2,2,4 [--game G]`: a pod's places, its game linked by the claim check.
fn report_pod(
    store: &dyn kifu::store::Store,
    loaded: &record::Loaded,
    a: &ReportArgs,
    round: u32,
    pod: u32,
    places: Vec<u32>,
    json: bool,
) -> Result<ExitCode> {
    let names: Vec<String> = a.games.iter().map(|g| g.to_string()).collect();
    let games = kifu::tournament::claim::claim_pod_games(store, loaded, round, pod, &names)?;
    let places2 = places.clone();
    let (ev, actor) = match (who(a)?, &a.reason) {
        (Some(Who::Judge(judge)), Some(reason)) => (
            TournamentEvent::PodResultCorrected {
                round,
                pod,
                places: places2,
                games,
                judge: judge.clone(),
                reason: reason.clone(),
            },
            Actor::Judge(judge),
        ),
        (Some(Who::By(by)), Some(reason)) => (
            TournamentEvent::PodResultEntered { round, pod, places: places2, games, by, reason: reason.clone() },
            a.actor.clone(),
        ),
        (None, None) => (TournamentEvent::PodResultReported { round, pod, places: places2, games }, a.actor.clone()),
        _ => bail!(NEEDS_REASON),
    };
    let corrected = matches!(ev, TournamentEvent::PodResultCorrected { .. });
    let (head, _) = record::record(store, &a.id, actor, vec![ev])?;
    if json {
        output::print_json(
            &json!({"round": round, "pod": pod, "places": places, "corrected": corrected, "head": head.hash.to_hex()}),
        )?;
    } else {
        println!("round {round} pod {pod}: places {places:?} {}", if corrected { "corrected" } else { "recorded" });
    }
    Ok(ExitCode::SUCCESS)
}
