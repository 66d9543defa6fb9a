//! `kifu tournament export|import`: .kifu, JSON, TOM XML and CSV out; Melee JSON and TOM XML in.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context as _, Result};
use serde_json::json;

use kifu::log::envelope::{Actor, StreamId};
use kifu::store::Store;
use kifu::tournament::{melee, record, tom, Policy};

use super::Context;
use crate::cli::output;

#[derive(clap::Args, Debug)]
pub struct ExportArgs {
    pub id: StreamId,
    /// kifu (a self-verifying .kifu file that `kifu verify` and `kifu import` accept), json (the
    /// events, readable), or tom (Pokémon TOM XML; two-player events only: TOM cannot hold pods).
    #[arg(long, default_value = "kifu")]
    pub to: String,
    /// Write CSV instead: standings or pairings (of --round, default the latest); in a pod
    /// tournament, pairings are one row per seat (round, pod, seat, player, place).
    #[arg(long, value_name = "WHAT")]
    pub csv: Option<String>,
    #[arg(long)]
    pub round: Option<u32>,
    /// The file to write ('-' or nothing: standard output).
    #[arg(short, long)]
    pub output: Option<PathBuf>,
}

/// One CSV field, quoted when it needs to be.
fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

fn csv_line(fields: &[String]) -> String {
    fields.iter().map(|f| csv_field(f)).collect::<Vec<_>>().join(",") + "\n"
}

/// The round a pairings CSV is of: `round`, or the latest.
fn csv_round(
    state: &kifu::tournament::state::Tournament,
    round: Option<u32>,
) -> Result<&kifu::tournament::state::RoundState> {
    let r = match round {
        Some(n) => state.rounds.iter().find(|r| r.round == n),
        None => state.rounds.last(),
    };
    r.ok_or_else(|| anyhow::anyhow!("no such round is paired"))
}

/// A pod tournament's CSV: standings (points, games, opponents' average points) or a round's
/// pods, one row per seat with the place once reported.
fn pod_csv(state: &kifu::tournament::state::Tournament, what: &str, round: Option<u32>) -> Result<String> {
    let mut out = String::new();
    match what {
        "standings" => {
            out += &csv_line(&["rank", "player", "points", "games", "opponents_average", "dropped"].map(String::from));
            for r in state.pod_standings() {
                out += &csv_line(&[
                    r.rank.to_string(),
                    r.player.clone(),
                    r.points.to_string(),
                    r.games.to_string(),
                    format!("{:.6}", r.opponents_average),
                    r.dropped.to_string(),
                ]);
            }
        }
        "pairings" => {
            let r = csv_round(state, round)?;
            out += &csv_line(&["round", "pod", "seat", "player", "place", "corrected"].map(String::from));
            for p in &r.pods {
                for (i, &s) in p.seats.iter().enumerate() {
                    let place = p.places.as_ref().and_then(|pl| pl.get(i)).map(|x| x.to_string()).unwrap_or_default();
                    out += &csv_line(&[
                        r.round.to_string(),
                        p.pod.to_string(),
                        (i + 1).to_string(),
                        state.players[s].name.clone(),
                        place,
                        (p.corrections > 0).to_string(),
                    ]);
                }
            }
        }
        other => bail!("--csv takes standings or pairings, not {other:?}"),
    }
    Ok(out)
}

fn csv(state: &kifu::tournament::state::Tournament, what: &str, round: Option<u32>) -> Result<String> {
    if state.pod_format.is_some() {
        return pod_csv(state, what, round);
    }
    let mut out = String::new();
    match what {
        "standings" => {
            out += &csv_line(
                &["rank", "player", "points", "wins", "losses", "draws", "omw", "gw", "ogw", "oomw", "dropped"]
                    .map(String::from),
            );
            for r in state.standings() {
                out += &csv_line(&[
                    r.rank_label(),
                    r.player.clone(),
                    r.points.to_string(),
                    r.wins.to_string(),
                    r.losses.to_string(),
                    r.draws.to_string(),
                    format!("{:.6}", r.omw),
                    format!("{:.6}", r.gw),
                    format!("{:.6}", r.ogw),
                    format!("{:.6}", r.oomw),
                    r.dropped.to_string(),
                ]);
            }
        }
        "pairings" => {
            let r = csv_round(state, round)?;
            let before = state.points_before(r.round);
            let name = |p: usize| state.players[p].name.clone();
            out += &csv_line(
                &["round", "table", "player", "points", "opponent", "opponent_points", "result"].map(String::from),
            );
            for t in &r.tables {
                out += &csv_line(&[
                    r.round.to_string(),
                    t.table.to_string(),
                    name(t.a),
                    before[t.a].to_string(),
                    name(t.b),
                    before[t.b].to_string(),
                    t.result.map(|s| s.to_string()).unwrap_or_default(),
                ]);
            }
            for &b in &r.byes {
                out += &csv_line(&[
                    r.round.to_string(),
                    "bye".into(),
                    name(b),
                    before[b].to_string(),
                    String::new(),
                    String::new(),
                    "bye".into(),
                ]);
            }
        }
        other => bail!("--csv takes standings or pairings, not {other:?}"),
    }
    Ok(out)
}

pub fn run_export(ctx: &Context, a: ExportArgs, _json: bool) -> Result<ExitCode> {
    let store = ctx.open_store()?;
    let loaded = record::load(&store, &a.id)?;
    let bytes: Vec<u8> = match (&a.csv, a.to.as_str()) {
        (Some(what), _) => csv(&loaded.state, what, a.round)?.into_bytes(),
        (None, "kifu") => kifu::log::file::write(&store.export(&a.id)?),
        (None, "tom") => tom::export(&loaded.state, &loaded.config.name)?.into_bytes(),
        (None, "json") => {
            let events: Vec<_> = loaded
                .entries
                .iter()
                .map(|e| json!({"seq": e.seq, "recorded_at": e.recorded_at.to_rfc3339(), "actor": e.actor.to_string(), "event": e.event}))
                .collect();
            let doc = json!({
                "tournament": a.id.to_string(),
                "config": loaded.config,
                "head": loaded.head.hash.to_hex(),
                "events": events,
            });
            (serde_json::to_string_pretty(&doc)? + "\n").into_bytes()
        }
        (None, other) => bail!("--to takes kifu, json or tom, not {other:?}"),
    };
    match a.output {
        Some(p) if p.as_os_str() != "-" => {
            let tmp = p.with_extension("partial");
            std::fs::write(&tmp, &bytes).with_context(|| format!("cannot write {}", tmp.display()))?;
            std::fs::rename(&tmp, &p).with_context(|| format!("cannot write {}", p.display()))?;
            eprintln!("exported {} ({} events) -> {}", a.id, loaded.head.len, p.display());
        }
        _ => std::io::stdout().write_all(&bytes)?,
    }
    Ok(ExitCode::SUCCESS)
}

#[derive(clap::Args, Debug)]
pub struct ImportArgs {
    /// The source format: melee (MTGODecklistCache JSON) or tom (Pokémon TOM XML).
    #[arg(long)]
    pub from: String,
    pub file: PathBuf,
    /// mtr, melee or pokemon (default: melee for Melee files, pokemon for TOM files).
    #[arg(long)]
    pub policy: Option<String>,
    /// The stream id (default: melee- and 12 hex digits of the file's hash).
    #[arg(long)]
    pub id: Option<StreamId>,
}

pub fn run_import(ctx: &Context, a: ImportArgs, json: bool) -> Result<ExitCode> {
    let default_policy = match a.from.as_str() {
        "melee" => "melee",
        "tom" => "pokemon",
        other => bail!("unknown source {other:?}: this build imports --from melee or --from tom"),
    };
    let policy_name = a.policy.as_deref().unwrap_or(default_policy);
    let Some(policy) = Policy::preset(policy_name) else {
        bail!("unknown policy {policy_name:?}: use mtr, melee or pokemon")
    };
    let meta = std::fs::metadata(&a.file).with_context(|| format!("cannot read {}", a.file.display()))?;
    if meta.len() > 256 << 20 {
        bail!("{} is larger than 256 MiB", a.file.display());
    }
    let bytes = std::fs::read(&a.file).with_context(|| format!("cannot read {}", a.file.display()))?;
    let text = String::from_utf8(bytes).with_context(|| format!("{} is not UTF-8", a.file.display()))?;
    let (config, events, duplicates) = if a.from == "tom" {
        let imported = tom::parse(&text, policy)?;
        (imported.config, imported.events, 0)
    } else {
        let imported = melee::parse(&text, policy)?;
        (imported.config, imported.events, imported.duplicates)
    };
    let id = match a.id {
        Some(id) => id,
        None => StreamId::new(&format!("{}-{}", a.from, &blake3::hash(text.as_bytes()).to_hex()[..12]))?,
    };
    let store = ctx.open_store()?;
    let head = record::create(&store, &id, &config, Actor::System, ctx.clock().now(), events)?;
    if json {
        output::print_json(
            &json!({"id": id.to_string(), "head": head.hash.to_hex(), "events": head.len, "duplicates_dropped": duplicates}),
        )?;
    } else {
        println!("{id}");
        eprintln!("imported {} ({} events, {duplicates} duplicate listing(s) dropped)", config.name, head.len);
    }
    Ok(ExitCode::SUCCESS)
}
