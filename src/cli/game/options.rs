//! `kifu game options` and `kifu game pick`: what a seat may record now, and recording one of
//! those options by its id, with no JSON typed. The same code as the API's options routes.

use std::collections::BTreeMap;
use std::process::ExitCode;

use anyhow::{anyhow, bail, Context as _, Result};

use kifu::game::options::{OptionView, PickError};
use kifu::game::record::{GameError, Write};
use kifu::game::{Seat, Viewer};
use kifu::log::envelope::{Actor, IdempotencyId, StreamId};
use kifu::store::Store;

use super::driver_for;
use crate::cli::output::{print_json, table};
use crate::cli::Context;

#[derive(clap::Args, Debug)]
pub struct OptionsArgs {
    /// The game's stream id.
    game: StreamId,
    /// Only this seat's options: p1, p2, ... or a player's name (default: every seat).
    #[arg(long = "as", value_name = "SEAT")]
    seat: Option<String>,
    /// Print the options as JSON (errors too).
    #[arg(long)]
    json: bool,
}

#[derive(clap::Args, Debug)]
pub struct PickArgs {
    /// The game's stream id.
    game: StreamId,
    /// The option's id, as `kifu game options` lists it.
    option: String,
    /// The option's parameter: NAME=VALUE, several values comma-separated (cards=p1-3,p1-9).
    #[arg(value_name = "PARAM=VALUE")]
    params: Vec<String>,
    /// A judge entering the pick (default: the player whose option it is).
    #[arg(long, value_name = "ID")]
    judge: Option<String>,
    /// Refuse unless the game holds exactly this many events.
    #[arg(long)]
    expect: Option<u64>,
    /// A retry key: running the command again with the same key records nothing twice.
    #[arg(long, value_name = "KEY")]
    idempotency_key: Option<String>,
    /// Print what was recorded as JSON (errors too).
    #[arg(long)]
    json: bool,
}

/// Errors as JSON for `--json` (with the rule ID that refused a pick), as text otherwise.
fn finish(json: bool, out: Result<ExitCode>) -> Result<ExitCode> {
    match out {
        Err(e) if json => {
            let rule = e.downcast_ref::<GameError>().and_then(|g| match g {
                GameError::Pick(p) => p.rule().map(str::to_string),
                _ => None,
            });
            print_json(&serde_json::json!({ "error": format!("{e:#}"), "rule": rule }))?;
            Ok(ExitCode::from(1))
        }
        other => other,
    }
}

fn seats_named(seat: Option<&str>, players: &[String]) -> Result<Vec<Seat>> {
    match seat {
        None => Ok((0..players.len()).filter_map(|s| Seat::try_from(s).ok()).collect()),
        Some(text) => match crate::cli::board::parse_viewer(text, players) {
            Ok(Viewer::Player(s)) => Ok(vec![s]),
            _ => bail!("--as {text:?} is not a player of this game ({})", players.join(", ")),
        },
    }
}

fn print_options(options: &[OptionView], players: &[String]) {
    if options.is_empty() {
        println!("no options: nobody may act now, or the game is over");
        return;
    }
    let mut t = table(["option", "player", "action", "takes"]);
    for o in options {
        let takes = o.param.as_ref().map_or(String::new(), |p| {
            let some: Vec<String> = p.values.iter().take(8).map(|v| format!("{}={}", v.value, v.label)).collect();
            let more = if p.values.len() > 8 { format!(", … {} in all", p.values.len()) } else { String::new() };
            format!("{}: {} of {}{more}", p.name, p.count, some.join(", "))
        });
        t.add_row([o.id.clone(), kifu::game::seat_name(players, o.seat), o.label.clone(), takes]);
    }
    println!("{t}");
}

pub fn run_options(ctx: &Context, args: OptionsArgs) -> Result<ExitCode> {
    let json = args.json;
    finish(json, options(ctx, args))
}

fn options(ctx: &Context, args: OptionsArgs) -> Result<ExitCode> {
    let store = ctx.open_store()?;
    let log = store.export(&args.game)?;
    let driver = driver_for(&log)?;
    let session = driver.open(&log)?;
    let players = session.players();
    let seats = seats_named(args.seat.as_deref(), &players)?;
    let options = session
        .options(&seats)
        .ok_or_else(|| anyhow!("{} has no options yet: record its actions with `kifu game act`", driver.ruleset()))?;
    if args.json {
        print_json(&serde_json::json!({ "events": session.len(), "options": options }))?;
    } else {
        println!("{} after {} events", args.game, session.len());
        print_options(&options, &players);
    }
    Ok(ExitCode::SUCCESS)
}

pub fn run_pick(ctx: &Context, args: PickArgs) -> Result<ExitCode> {
    let json = args.json;
    finish(json, pick(ctx, args))
}

fn parse_params(params: &[String]) -> Result<BTreeMap<String, Vec<String>>> {
    let mut out = BTreeMap::new();
    for p in params {
        let (k, v) = p.split_once('=').ok_or_else(|| anyhow!("parameter {p:?} is not NAME=VALUE"))?;
        let values = if v.is_empty() { vec![] } else { v.split(',').map(|s| s.trim().to_string()).collect() };
        if out.insert(k.to_string(), values).is_some() {
            bail!("parameter {k} is given twice");
        }
    }
    Ok(out)
}

fn pick(ctx: &Context, args: PickArgs) -> Result<ExitCode> {
    let params = parse_params(&args.params)?;
    let store = ctx.open_store()?;
    let log = store.export(&args.game)?;
    let driver = driver_for(&log)?;
    let mut session = driver.open(&log)?;
    // kifu deals a digital game it created: its seed fills a dealt parameter and the steps it determines.
    let kept = kifu::store::kept::load_dealer_seeds(&ctx.data_dir, &args.game)?;
    session.set_dealer(kept.map(kifu::game::dealer::from_kept));
    let players = session.players();
    let all = seats_named(None, &players)?;
    // The option's seat, from the options open now (a made-up or stale id is refused by the pick).
    let seat = session.options(&all).and_then(|o| o.iter().find(|o| o.id == args.option).map(|o| o.seat));
    let seats = seat.map_or(all, |s| vec![s]);
    let actor = match (&args.judge, seat) {
        (Some(j), _) => Actor::Judge(j.clone()),
        (None, Some(s)) => Actor::Player(kifu::game::seat_name(&players, s)),
        (None, None) => Actor::System,
    };
    let idempotency = args.idempotency_key.as_deref().map(IdempotencyId::from_key);
    let recorded = session
        .pick(Write { store: &store, actor, expected: args.expect, idempotency }, &seats, &args.option, &params)
        .map_err(|e| match e {
            GameError::Pick(PickError::Stale { .. }) => anyhow::Error::new(e).context("someone recorded first"),
            e => anyhow::Error::new(e),
        })
        .with_context(|| format!("nothing recorded in {}", args.game))?;
    let lines: Vec<(u64, String)> = recorded
        .iter()
        .map(|r| (r.seq, session.describe(r.seq, Viewer::Judge).map(|t| t.text).unwrap_or_default()))
        .collect();
    if args.json {
        let list: Vec<_> = lines.iter().map(|(seq, text)| serde_json::json!({ "seq": seq, "text": text })).collect();
        print_json(&serde_json::json!({ "recorded": list, "head": session.head().hash.to_hex().to_string() }))?;
    } else {
        for (i, (seq, text)) in lines.iter().enumerate() {
            let by = if i == 0 { "recorded" } else { "kifu recorded" };
            println!("{by} event {seq}: {text}");
        }
        println!("head {}", session.head().hash);
    }
    Ok(ExitCode::SUCCESS)
}
