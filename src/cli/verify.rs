//! `kifu verify FILE|STREAM|--all`: checks hash chains, that a stored game or tournament's events
//! decode as its kind (`kifu::import::check_decodes`), and of a file everything `kifu import`
//! checks (`kifu::import::check_import`); exits 0 only when everything checks.

use std::path::Path;
use std::process::ExitCode;

use anyhow::{bail, Result};
use serde::Serialize;

use kifu::game::record::GameError;
use kifu::import::DecodeError;
use kifu::log::envelope::StreamId;
use kifu::store::Store;

use super::{import::read_log_file, output, Context};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// A .kifu or JSON file, or a stream id in the store.
    target: Option<String>,
    /// Verify every stream in the store.
    #[arg(long, conflicts_with = "target")]
    all: bool,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
    /// Of a file, check only its hash chain, not what `kifu import` also checks (that it
    /// decodes under its ruleset and rules version, and its names are within bounds).
    #[arg(long)]
    chain_only: bool,
}

#[derive(Serialize)]
struct Report {
    target: String,
    ok: bool,
    events: Option<u64>,
    head: Option<String>,
    problem: Option<String>,
}

pub fn run(ctx: &Context, args: Args) -> Result<ExitCode> {
    let reports = match (&args.target, args.all) {
        (_, true) => {
            let store = ctx.open_store()?;
            let streams = store.streams()?;
            let total: u64 = streams.iter().map(|s| s.head.len).sum();
            let bar = output::progress(total, "verifying");
            let mut reports = Vec::with_capacity(streams.len());
            for s in streams {
                let id = s.header.stream().clone();
                reports.push(verify_stream(&store, &id));
                bar.inc(s.head.len);
            }
            bar.finish_and_clear();
            reports
        }
        (Some(t), false) if Path::new(t).is_file() => {
            // A file is what someone hands over to be imported: unless --chain-only, it is held
            // to exactly what `kifu import` checks, through the same library function.
            vec![match read_log_file(Path::new(t), false) {
                Ok(log) => match if args.chain_only { Ok(()) } else { kifu::import::check_import(&log) } {
                    Ok(()) => ok(t, log.head.len, log.head.hash.to_hex()),
                    Err(e) => failed(t, format!("the chain checks, but kifu import refuses it: {e}")),
                },
                Err(e) => failed(t, format!("{e:#}")),
            }]
        }
        (Some(t), false) => {
            let id = StreamId::new(t).map_err(|e| anyhow::anyhow!("{t:?} is neither a file nor a stream id: {e}"))?;
            let store = ctx.open_store()?;
            store.head(&id)?; // an unknown stream is an error, not a failed verification
            vec![verify_stream(&store, &id)]
        }
        (None, false) => bail!("name a file or a stream to verify, or pass --all"),
    };
    let all_ok = reports.iter().all(|r| r.ok);
    if args.json {
        output::print_json(&reports)?;
    } else {
        let mut t = output::table(["verified", "events", "head", "result"]);
        for r in &reports {
            t.add_row([
                r.target.clone(),
                r.events.map_or("-".into(), |n| n.to_string()),
                r.head.clone().unwrap_or_else(|| "-".into()),
                if r.ok {
                    "ok: chain checks".into()
                } else {
                    format!("FAILED: {}", r.problem.clone().unwrap_or_default())
                },
            ]);
        }
        println!("{t}");
        let bad = reports.iter().filter(|r| !r.ok).count();
        if bad == 0 {
            println!("{} of {} verified: every chain checks", reports.len(), reports.len());
        } else {
            eprintln!("{bad} of {} FAILED verification", reports.len());
        }
    }
    Ok(if all_ok { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// A stored stream: its chain, then its events decoded as its kind's. A chain that checks can
/// still hold an event its game or tournament cannot read (a note written into it by a build
/// that did not refuse that), and then its pages and export fail: verify says which event.
fn verify_stream(store: &impl Store, id: &StreamId) -> Report {
    match store.export(id) {
        Ok(log) => match kifu::import::check_decodes(&log) {
            // Every event decoded; only a name or note is over today's bounds, which hold what
            // enters a store, not what an older build stored.
            Ok(()) | Err(DecodeError::TooLong { .. } | DecodeError::Game(GameError::StoredTooLong { .. })) => {
                ok(id.as_str(), log.head.len, log.head.hash.to_hex())
            }
            Err(e) => Report {
                problem: Some(format!(
                    "the chain checks, but the {} stream does not decode: {e}{}",
                    log.header.v1().kind,
                    repair_hint(id, &e)
                )),
                ok: false,
                ..ok(id.as_str(), log.head.len, log.head.hash.to_hex())
            },
        },
        Err(e) => failed(id.as_str(), e.to_string()),
    }
}

/// How an official repairs a stream with an event its kind cannot read, on the record.
fn repair_hint(id: &StreamId, e: &DecodeError) -> String {
    match e {
        DecodeError::Game(GameError::Undecodable { seq, .. }) => format!(
            "; a judge sets it aside (its bytes stay in the log) with `kifu game rule {id} --judge NAME set-aside \
             --about {seq} --note WHY`"
        ),
        DecodeError::Tournament(t) => match **t {
            kifu::tournament::TournamentError::Undecodable { seq, .. } => format!(
                "; the organizer or the head judge sets it aside (its bytes stay in the log) with `kifu tournament \
                 set-aside {id} --seq {seq} --reason WHY`"
            ),
            _ => String::new(),
        },
        _ => String::new(),
    }
}

fn ok(target: &str, events: u64, head: String) -> Report {
    Report { target: target.to_string(), ok: true, events: Some(events), head: Some(head), problem: None }
}

fn failed(target: &str, problem: String) -> Report {
    Report { target: target.to_string(), ok: false, events: None, head: None, problem: Some(problem) }
}
