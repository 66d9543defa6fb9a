//! `kifu tournament standings|verify|explain`.

use std::process::ExitCode;

use anyhow::Result;

use kifu::log::envelope::StreamId;
use kifu::tournament::policy::Tiebreaker;
use kifu::tournament::{record, verify, TournamentEvent};

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
    if json {
        let state = record::load(&store, &a.id)?.state;
        if state.pod_format.is_some() {
            output::print_json(&state.pod_standings())?;
        } else {
            output::print_json(&state.standings())?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    print_standings(&store, &a.id)?;
    Ok(ExitCode::SUCCESS)
}

/// Prints a tournament's standings with the policy's tiebreakers, as posted at events.
pub fn print_standings(store: &dyn kifu::store::Store, id: &StreamId) -> Result<()> {
    let loaded = record::load(store, id)?;
    if loaded.state.pod_format.is_some() {
        print_pod_standings(&loaded);
        return Ok(());
    }
    let rows = loaded.state.standings();
    let rules = loaded.config.policy.rules();
    let mut t = output::table(standings_header(&rules));
    for r in &rows {
        t.add_row(standings_cells(&rules, r));
    }
    println!(
        "{} — standings after {} Swiss round(s), {} policy",
        loaded.config.name,
        loaded.state.swiss_played(),
        rules.name
    );
    println!("{t}");
    if rows.iter().any(|r| r.tied) {
        println!("T: tied on every tiebreaker; listed in the order of the seeded random draw recorded with the event");
    }
    let penalties: Vec<String> = loaded
        .state
        .players
        .iter()
        .flat_map(|p| p.penalties.iter().map(move |(r, k, why)| format!("{} — {k:?}, round {r}: {why}", p.name)))
        .collect();
    if !penalties.is_empty() {
        println!("Penalties:\n  {}", penalties.join("\n  "));
    }
    print_bracket(&loaded.state);
    Ok(())
}

/// The columns: rank, player, points, W-L-D, then the policy's tiebreakers by their names.
fn standings_header(rules: &kifu::tournament::policy::Rules) -> Vec<String> {
    let mut header = vec!["rank".to_string(), "player".into(), "points".into(), "W-L-D".into()];
    for tb in rules.tiebreakers.iter().filter(|tb| **tb != Tiebreaker::HeadToHead) {
        header.push(if rules.pokemon_pct && *tb == Tiebreaker::OpponentMatchWin {
            "Op Win%".into()
        } else if rules.pokemon_pct && *tb == Tiebreaker::OpponentOpponentMatchWin {
            "Op Op Win%".into()
        } else {
            tb.label().to_string()
        });
    }
    header
}

fn standings_cells(
    rules: &kifu::tournament::policy::Rules,
    r: &kifu::tournament::standings::StandingRow,
) -> Vec<String> {
    let mut cells = vec![
        r.rank_label(),
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
    cells
}

fn print_pod_standings(loaded: &record::Loaded) {
    let Some((size, table)) = loaded.state.pod_format else { return };
    let mut t = output::table(["rank", "player", "points", "games", "opp. avg points"]);
    for r in loaded.state.pod_standings() {
        let name = format!("{}{}", r.player, if r.dropped { " (dropped)" } else { "" });
        t.add_row([r.rank.to_string(), name, r.points.to_string(), r.games.to_string(), pct(r.opponents_average)]);
    }
    println!(
        "{} — standings after {} pod round(s), pods of {} (points {}/{}/{} for a sole win, a shared win, a loss)",
        loaded.config.name,
        loaded.state.swiss_played(),
        size.size,
        table.sole_win,
        table.shared_win,
        table.loss
    );
    println!("{t}");
    println!("Ties: points, then pod-mates' average points, then the seeded draw recorded with the event");
    for e in &loaded.entries {
        if let TournamentEvent::PodResultCorrected { round, pod, places, judge, reason, .. } = &e.event {
            println!("Corrected: round {round} pod {pod} to places {places:?} by judge {judge} ({reason})");
        }
    }
}

#[derive(clap::Args, Debug)]
pub struct PlacingsArgs {
    pub id: StreamId,
}

/// `kifu tournament placings`: the champion, each bracket round, then the Swiss order.
pub fn run_placings(ctx: &Context, a: PlacingsArgs, json: bool) -> Result<ExitCode> {
    let store = ctx.open_store()?;
    let loaded = record::load(&store, &a.id)?;
    let placings = loaded.state.placings();
    if json {
        output::print_json(&serde_json::json!({
            "tournament": a.id.to_string(),
            "finalized": loaded.state.finalized,
            "placings": placings,
        }))?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut t = output::table(["place", "player", "stage", "swiss rank"]);
    for p in &placings {
        let name = format!("{}{}", p.player, if p.dropped { " (dropped)" } else { "" });
        t.add_row([p.place_label(), name, p.stage.clone(), p.swiss_rank.clone()]);
    }
    let status = if loaded.state.finalized { "final placings" } else { "placings so far (not finalized)" };
    println!("{} — {status}", loaded.config.name);
    println!("{t}");
    Ok(ExitCode::SUCCESS)
}

/// Prints the top-cut bracket, round by round, if the event has one.
fn print_bracket(state: &kifu::tournament::state::Tournament) {
    let cut: Vec<_> = state.rounds.iter().filter(|r| r.top_cut).collect();
    if cut.is_empty() {
        return;
    }
    let name = |i: usize| state.players.get(i).map_or("?".to_string(), |p| p.name.clone());
    let mut t = output::table(["round", "table", "match", "result"]);
    for r in &cut {
        let stage = r.stage();
        for tb in &r.tables {
            let result = match (&tb.result, tb.winner()) {
                (Some(s), Some(w)) => format!("{} wins {}-{}", name(w), s.a_wins.max(s.b_wins), s.a_wins.min(s.b_wins)),
                (Some(s), None) => format!("drawn {}-{}-{}", s.a_wins, s.b_wins, s.draws),
                (None, _) => "in progress".to_string(),
            };
            t.add_row([
                format!("{} ({stage})", r.round),
                tb.table.to_string(),
                format!("{} vs {}", name(tb.a), name(tb.b)),
                result,
            ]);
        }
    }
    println!("Top cut: single elimination seeded from the standings (top 4: 1v4, 2v3; top 8: 1v8, 4v5, 2v7, 3v6)");
    println!("{t}");
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
        print_report(&report);
    }
    if report.ok() {
        Ok(ExitCode::SUCCESS)
    } else {
        eprintln!("verification FAILED: {} check(s) failed", report.checks.iter().filter(|c| !c.ok).count());
        Ok(ExitCode::FAILURE)
    }
}

/// Prints a verification report: each check, then the tournament head and root hash.
pub fn print_report(report: &verify::Report) {
    let mut t = output::table(["check", "result", "detail"]);
    for c in &report.checks {
        t.add_row([c.check.clone(), if c.ok { "ok".into() } else { "FAILED".into() }, c.detail.clone()]);
    }
    println!("{t}");
    println!("tournament {}: {} events, head {}", report.tournament, report.events, report.head);
    println!("root hash (tournament head and {} linked game heads): {}", report.games, report.root);
}

#[derive(clap::Args, Debug)]
pub struct ExplainArgs {
    pub id: StreamId,
    /// The player, as registered (case and spaces do not matter).
    pub player: String,
    /// Only this round's pairing, and the standing as it was after it.
    #[arg(long)]
    pub round: Option<u32>,
}

/// `kifu tournament explain`: why a player was paired as they were and ranks where they do.
pub fn run_explain(ctx: &Context, a: ExplainArgs, json: bool) -> Result<ExitCode> {
    let store = ctx.open_store()?;
    let loaded = record::load(&store, &a.id)?;
    let e = kifu::tournament::explain::explain(&loaded, &a.player, a.round)?;
    if json {
        output::print_json(&e)?;
        return Ok(ExitCode::SUCCESS);
    }
    println!("{} — {}\n{}", e.tournament, e.player, e.pairing_method);
    for r in &e.rounds {
        let place = match (r.kind.as_str(), r.table) {
            ("bye", _) => "a bye".to_string(),
            ("pod", Some(t)) => format!("pod {t} with {}", r.opponents.join(", ")),
            (_, Some(t)) => format!("table {t} against {}", r.opponents.join(", ")),
            (kind, None) => kind.to_string(),
        };
        println!("\nRound {}: {place}", r.round);
        for line in &r.why {
            println!("  {line}");
        }
    }
    if let Some(s) = &e.standing {
        println!("\nStanding ({}): {} of {}, {} points ({})", e.standing_as_of, s.rank, s.of, s.points, s.record);
        println!("  Points: {}", s.how_points);
        for tb in &s.tiebreakers {
            let value = match tb.value {
                Some(v) if tb.name.contains('%') => format!(" {:.2}%", v * 100.0),
                Some(v) => format!(" {v:.2}"),
                None => String::new(),
            };
            println!("  {}{value}: {}", tb.name, tb.how);
            if !tb.parts.is_empty() {
                let mut t = output::table(["opponent", "record", "value", ""]);
                for p in &tb.parts {
                    let v = if tb.name.contains('%') {
                        format!("{:.2}%", p.value * 100.0)
                    } else {
                        format!("{:.2}", p.value)
                    };
                    t.add_row([p.opponent.clone(), p.record.clone(), v, p.note.clone().unwrap_or_default()]);
                }
                println!("{t}");
            }
        }
        for c in &s.beside {
            let side = if c.above { "above you" } else { "below you" };
            println!("  {} ({}, {side} on the same points): {}", c.player, c.rank, c.decided_by);
        }
    }
    Ok(ExitCode::SUCCESS)
}
