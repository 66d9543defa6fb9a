//! `tools/crash-trials`: runs the crash trial of `tests/it/crash.rs` many times (each trial: a
//! fresh data directory, `--rounds` SIGKILLs of `kifu debug append-loop`, a recovery check after
//! each) and prints one table of counts: lost acknowledged events and chain failures must be 0.
//! `--reopen` makes the child open, append and close in a loop, so kills land in opens too.

mod crash_trial;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context, Result};
use clap::Parser;
use comfy_table::{presets::UTF8_FULL, Cell, CellAlignment, Table};

use crash_trial::{check, run_round, KillPlan, Rng};

/// Repeated SIGKILL-and-recover trials against the kifu binary.
#[derive(Parser, Debug)]
struct Args {
    /// Trials (each on a fresh data directory).
    #[arg(long, default_value_t = 100)]
    trials: u64,
    /// Kills per trial, on the same data directory.
    #[arg(long, default_value_t = 5)]
    rounds: u64,
    /// Seed of the kill schedule (trial t uses seed + t).
    #[arg(long, default_value_t = 0x6b69_6675)]
    seed: u64,
    /// The kifu binary (default: the one next to this example, built by tools/crash-trials).
    #[arg(long)]
    kifu: Option<PathBuf>,
    /// Directory to create the data directories in (default: the system temporary directory).
    #[arg(long)]
    dir: Option<PathBuf>,
    /// The killed child opens, appends to and closes the store in a loop (kills land in opens,
    /// snapshots and closes too), instead of holding it open.
    #[arg(long)]
    reopen: bool,
    /// Print each problem as it is found.
    #[arg(long)]
    verbose: bool,
}

#[derive(Default)]
struct Totals {
    trials: u64,
    kills: u64,
    exited_before_kill: u64,
    kills_before_first_ack: u64,
    acked: u64,
    found: u64,
    unacked_found: u64,
    lost: u64,
    unexpected: u64,
    chain_failures: u64,
    open_failures: u64,
    repaired: u64,
    recovery: Vec<Duration>,
}

fn main() -> Result<()> {
    let args = Args::parse();
    let kifu = crash_trial::kifu_binary(args.kifu.as_deref()).map_err(|e| anyhow!(e))?;
    let base = args.dir.clone().unwrap_or_else(std::env::temp_dir);
    let started = Instant::now();
    let mut t = Totals::default();
    for trial in 0..args.trials {
        let tmp = tempfile::Builder::new().prefix("kifu-crash-").tempdir_in(&base)?;
        let data = tmp.path().join("data");
        let mut rng = Rng::new(args.seed.wrapping_add(trial));
        let mut rounds = Vec::new();
        t.trials += 1;
        for r in 0..args.rounds {
            let plan = if args.reopen { KillPlan::random_reopen(&mut rng) } else { KillPlan::random(&mut rng) };
            let round = run_round(&kifu, &data, &format!("r{r}"), plan, args.reopen)
                .with_context(|| format!("trial {trial} round {r}: cannot run kifu"))?;
            if round.killed {
                t.kills += 1;
            } else {
                t.exited_before_kill += 1;
                if args.verbose {
                    eprintln!("trial {trial} round {r}: exited before the kill: {}", round.stderr);
                }
            }
            if round.acks.is_empty() {
                t.kills_before_first_ack += 1;
            }
            rounds.push(round);
            let rec = check(&data, &mut rounds);
            t.recovery.push(rec.took);
            t.repaired += u64::from(!rec.repaired.is_empty());
            if args.verbose {
                for note in &rec.repaired {
                    eprintln!("trial {trial} round {r}: repaired: {note}");
                }
            }
            if let Some(e) = &rec.open_error {
                t.open_failures += 1;
                eprintln!("trial {trial} round {r}: recovery open failed: {e}");
                break;
            }
            if let Some(e) = &rec.chain_error {
                t.chain_failures += 1;
                eprintln!("trial {trial} round {r}: chain failure: {e}");
                break;
            }
            for p in rec.lost.iter().chain(&rec.unexpected) {
                eprintln!("trial {trial} round {r}: {p}");
            }
            t.lost += rec.lost.len() as u64;
            t.unexpected += rec.unexpected.len() as u64;
            if !rec.lost.is_empty() || !rec.unexpected.is_empty() {
                break;
            }
            if r + 1 == args.rounds {
                t.acked += rounds.iter().map(|r| r.acks.len() as u64).sum::<u64>();
                t.found += rec.events;
                t.unacked_found += rec.unacked;
            }
        }
        // Keep the failing directory for inspection.
        if t.lost + t.unexpected + t.chain_failures + t.open_failures > 0 && args.verbose {
            let kept = tmp.keep();
            eprintln!("kept {}", kept.display());
        }
    }
    print_table(&args, &t, started.elapsed());
    if t.lost + t.unexpected + t.chain_failures + t.open_failures > 0 {
        bail!("crash trials found problems");
    }
    Ok(())
}

fn print_table(args: &Args, t: &Totals, took: Duration) {
    let mut rec = t.recovery.clone();
    rec.sort();
    let ms = |d: Option<&Duration>| d.map_or("-".to_string(), |d| format!("{:.1} ms", d.as_secs_f64() * 1e3));
    let mut table = Table::new();
    table.load_preset(UTF8_FULL).set_header(vec!["crash trials", "count", "must be"]);
    let rows: Vec<(String, String, &str)> = vec![
        (
            format!(
                "mode: the child {}",
                if args.reopen { "reopens the store per append" } else { "holds the store open" }
            ),
            String::new(),
            "",
        ),
        ("trials (fresh data directory each)".into(), t.trials.to_string(), ""),
        (format!("kills (SIGKILL; {} per trial)", args.rounds), t.kills.to_string(), ""),
        ("  of which before the first ack".into(), t.kills_before_first_ack.to_string(), ""),
        ("children that exited before the kill".into(), t.exited_before_kill.to_string(), "0"),
        ("acknowledged events".into(), t.acked.to_string(), ""),
        ("events found after recovery".into(), t.found.to_string(), "≥ acknowledged"),
        ("  of which in flight at a kill (not acknowledged)".into(), t.unacked_found.to_string(), ""),
        ("lost acknowledged events".into(), t.lost.to_string(), "0"),
        ("unexpected or reordered events".into(), t.unexpected.to_string(), "0"),
        ("chain failures (export did not verify)".into(), t.chain_failures.to_string(), "0"),
        ("recovery open failures".into(), t.open_failures.to_string(), "0"),
        ("  opens that removed an interrupted write's leftovers".into(), t.repaired.to_string(), ""),
        ("recoveries (open + export) timed".into(), rec.len().to_string(), ""),
        ("recovery time min".into(), ms(rec.first()), ""),
        ("recovery time median".into(), ms(rec.get(rec.len() / 2)), ""),
        ("recovery time max".into(), ms(rec.last()), ""),
        ("wall time".into(), format!("{:.1} s", took.as_secs_f64()), ""),
    ];
    for (a, b, c) in rows {
        table.add_row(vec![Cell::new(a), Cell::new(b).set_alignment(CellAlignment::Right), Cell::new(c)]);
    }
    println!("{table}");
}
