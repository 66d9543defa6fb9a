//! `kifu tournament standings|verify`.

use std::process::ExitCode;

use anyhow::Result;

use kifu::log::envelope::StreamId;
use kifu::tournament::policy::Tiebreaker;
use kifu::tournament::{record, verify};

use super::Context;
use crate::cli::output;

#[derive(clap::Args, Debug)]
pub struct StandingsArgs {
    pub id: StreamId,
}

fn pct(x: f64) -> String {
    format!("{:.4}", x)
}

pub fn run_standings(ctx: &Context, a: StandingsArgs, json: bool) -> Result<ExitCode> {
    let store = ctx.open_store()?;
    let loaded = record::load(&store, &a.id)?;
    let rows = loaded.state.standings();
    if json {
        output::print_json(&rows)?;
        return Ok(ExitCode::SUCCESS);
    }
    let rules = loaded.config.policy.rules();
    let mut header = vec!["rank".to_string(), "player".into(), "points".into(), "W-L-D".into()];
    for tb in &rules.tiebreakers {
        if *tb != Tiebreaker::HeadToHead {
            header.push(if rules.pokemon_pct && *tb == Tiebreaker::OpponentMatchWin {
                "Op Win%".into()
            } else if rules.pokemon_pct && *tb == Tiebreaker::OpponentOpponentMatchWin {
                "Op Op Win%".into()
            } else {
                tb.label().to_string()
            });
        }
    }
    let mut t = output::table(header);
    for r in &rows {
        let mut cells = vec![
            r.rank.to_string(),
            format!("{}{}", r.player, if r.dropped { " (dropped)" } else { "" }),
            r.points.to_string(),
            format!("{}-{}-{}", r.wins, r.losses, r.draws),
        ];
        for tb in &rules.tiebreakers {
            match tb {
                Tiebreaker::OpponentMatchWin => cells.push(pct(r.omw)),
                Tiebreaker::GameWin => cells.push(pct(r.gw)),
                Tiebreaker::OpponentGameWin => cells.push(pct(r.ogw)),
                Tiebreaker::OpponentOpponentMatchWin => cells.push(pct(r.oomw)),
                Tiebreaker::LatePenalty => cells.push(if r.late { "late".into() } else { String::new() }),
                Tiebreaker::HeadToHead => {}
            }
        }
        t.add_row(cells);
    }
    println!(
        "{} — standings after {} Swiss round(s), {} policy",
        loaded.config.name,
        loaded.state.swiss_played(),
        rules.name
    );
    println!("{t}");
    Ok(ExitCode::SUCCESS)
}

#[derive(clap::Args, Debug)]
pub struct VerifyArgs {
    pub id: StreamId,
}

pub fn run_verify(ctx: &Context, a: VerifyArgs, json: bool) -> Result<ExitCode> {
    let store = ctx.open_store()?;
    let report = verify::verify(&store, &a.id, &kifu::games::driver)?;
    if json {
        output::print_json(&report)?;
    } else {
        let mut t = output::table(["check", "result", "detail"]);
        for c in &report.checks {
            t.add_row([c.check.clone(), if c.ok { "ok".into() } else { "FAILED".into() }, c.detail.clone()]);
        }
        println!("{t}");
        println!("tournament {}: {} events, head {}", report.tournament, report.events, report.head);
        println!("root hash (tournament head and {} linked game heads): {}", report.games, report.root);
    }
    if report.ok() {
        Ok(ExitCode::SUCCESS)
    } else {
        eprintln!("verification FAILED: {} check(s) failed", report.checks.iter().filter(|c| !c.ok).count());
        Ok(ExitCode::FAILURE)
    }
}
