//! `kifu game act`, `kifu game rule` and `kifu game concede`: record an action, a judge's
//! ruling, or a player's concession.

use std::process::ExitCode;

use anyhow::{bail, Result};

use kifu::game::record::{Recorded, Write};
use kifu::game::{Ruling, Seat, Viewer};
use kifu::log::envelope::{Actor, IdempotencyId, StreamId};
use kifu::store::Store;

use super::driver_for;
use crate::cli::Context;

#[derive(clap::Args, Debug)]
pub struct ActArgs {
    /// The game's stream id.
    game: StreamId,
    /// The action as JSON, e.g. '{"CardDrawn": {...}}' (see `kifu game rules --schema`).
    #[arg(long, value_name = "EVENT")]
    json: String,
    /// Who records it (default: the player whose action it is).
    #[arg(long)]
    actor: Option<Actor>,
    /// A judge recording the action (required with --force).
    #[arg(long, value_name = "ID")]
    judge: Option<String>,
    /// Record the action even though it breaks rules; it is stored and flagged.
    #[arg(long, requires = "judge")]
    force: bool,
    /// Refuse unless the game holds exactly this many events (guards against a concurrent recorder).
    #[arg(long)]
    expect: Option<u64>,
    /// A retry key: running the command again with the same key (after a timeout, say) records
    /// nothing twice and reports the event the first run recorded.
    #[arg(long, value_name = "KEY")]
    idempotency_key: Option<String>,
}

/// The line that says a retry recorded nothing.
fn say_retried(rec: &Recorded) {
    println!("already recorded as event {} under this idempotency key: nothing written", rec.seq);
}

pub fn run_act(ctx: &Context, args: ActArgs) -> Result<ExitCode> {
    let store = ctx.open_store()?;
    let log = store.export(&args.game)?;
    let driver = driver_for(&log)?;
    // Without --actor or --judge, the player whose action it is records it.
    let actor = args.judge.clone().map(Actor::Judge).or(args.actor.clone());
    let forced_by = if args.force { args.judge.clone() } else { None };
    let idempotency = args.idempotency_key.as_deref().map(IdempotencyId::from_key);
    let rec = driver.act_json(&store, &args.game, actor, &args.json, forced_by, args.expect, idempotency)?;
    let session = driver.open(&store.export(&args.game)?)?;
    let line = session.describe(rec.seq, Viewer::Judge).map(|t| t.text).unwrap_or_default();
    if rec.retried {
        say_retried(&rec);
        println!("  {line}");
    } else if rec.flagged.is_empty() {
        println!("recorded event {}: {line}", rec.seq);
    } else {
        println!("recorded event {} (FORCED, flagged): {line}", rec.seq);
        for v in &rec.flagged {
            println!("  breaks {}: {}", v.rule, v.message);
        }
    }
    println!("head {}", rec.head.hash);
    Ok(ExitCode::SUCCESS)
}

#[derive(clap::Args, Debug)]
pub struct RuleArgs {
    /// The game's stream id.
    game: StreamId,
    /// The judge making the ruling.
    #[arg(long, value_name = "ID")]
    judge: String,
    /// warning, game-loss, backup, note, or set-aside (with --about SEQ: an entry that decodes as
    /// no event of the game, which an older build let `kifu append` write; the repair of that game).
    kind: String,
    /// The player the ruling is for (warning, game-loss): p1, p2, ... or a name.
    #[arg(long)]
    player: Option<String>,
    /// The rule ID the ruling is about.
    #[arg(long)]
    rule: Option<String>,
    /// The event the ruling is about.
    #[arg(long)]
    about: Option<u64>,
    /// For a backup: continue from the state before this event.
    #[arg(long)]
    to: Option<u64>,
    /// What the judge says.
    #[arg(long, default_value = "")]
    note: String,
    /// A retry key, as for `game act`.
    #[arg(long, value_name = "KEY")]
    idempotency_key: Option<String>,
}

pub fn run_rule(ctx: &Context, args: RuleArgs) -> Result<ExitCode> {
    let store = ctx.open_store()?;
    let log = store.export(&args.game)?;
    let driver = driver_for(&log)?;
    if args.kind == "set-aside" {
        // The repair of a game an older build damaged: the game does not load, so this ruling
        // is recorded without folding it.
        let Some(seq) = args.about else { bail!("set-aside needs --about SEQ (the event that does not decode)") };
        let rec = driver.set_aside(&store, &args.game, &args.judge, seq, args.note)?;
        println!("set aside event {seq} by a ruling recorded as event {}; head {}", rec.seq, rec.head.hash);
        return Ok(ExitCode::SUCCESS);
    }
    let players = log.header.v1().players.clone();
    let seat = || -> Result<Seat> {
        let Some(p) = &args.player else { bail!("{} needs --player", args.kind) };
        match crate::cli::board::parse_viewer(p, &players) {
            Ok(Viewer::Player(s)) => Ok(s),
            _ => bail!("--player {p:?} is not a player of this game ({})", players.join(", ")),
        }
    };
    let judge = args.judge.clone();
    let ruling = match args.kind.as_str() {
        "warning" => {
            Ruling::WarningIssued { judge, seat: seat()?, rule: args.rule, about: args.about, note: args.note }
        }
        "game-loss" => {
            Ruling::GameLossIssued { judge, seat: seat()?, rule: args.rule, about: args.about, note: args.note }
        }
        "backup" => {
            let Some(to_seq) = args.to else { bail!("backup needs --to SEQ") };
            Ruling::BackedUp { judge, to_seq, note: args.note }
        }
        "note" => Ruling::NoteRecorded { judge, about: args.about, note: args.note },
        other => bail!("unknown ruling {other:?}: use warning, game-loss, backup, note or set-aside"),
    };
    let idempotency = args.idempotency_key.as_deref().map(IdempotencyId::from_key);
    let rec = driver.rule(&store, &args.game, Actor::Judge(args.judge), ruling, None, idempotency)?;
    if rec.retried {
        say_retried(&rec);
        println!("head {}", rec.head.hash);
    } else {
        println!("recorded ruling as event {}; head {}", rec.seq, rec.head.hash);
    }
    Ok(ExitCode::SUCCESS)
}

#[derive(clap::Args, Debug)]
pub struct ConcedeArgs {
    /// The game's stream id.
    game: StreamId,
    /// The player conceding: p1, p2, ... or a name. The concession is recorded as that player's
    /// own act (only they may concede; a judge gives a game loss with `game rule`).
    #[arg(long)]
    player: String,
    /// Refuse unless the game holds exactly this many events.
    #[arg(long)]
    expect: Option<u64>,
    /// A retry key, as for `game act`.
    #[arg(long, value_name = "KEY")]
    idempotency_key: Option<String>,
}

pub fn run_concede(ctx: &Context, args: ConcedeArgs) -> Result<ExitCode> {
    let store = ctx.open_store()?;
    let log = store.export(&args.game)?;
    let driver = driver_for(&log)?;
    let players = log.header.v1().players.clone();
    let seat = match crate::cli::board::parse_viewer(&args.player, &players) {
        Ok(Viewer::Player(s)) => s,
        _ => bail!("--player {:?} is not a player of this game ({})", args.player, players.join(", ")),
    };
    let name = players.get(usize::from(seat)).cloned().unwrap_or_default();
    let idempotency = args.idempotency_key.as_deref().map(IdempotencyId::from_key);
    let mut session = driver.open(&log)?;
    let recorded = session
        .concede(Write { store: &store, actor: Actor::Player(name), expected: args.expect, idempotency }, seat)?;
    for rec in &recorded {
        if rec.retried {
            say_retried(rec);
        } else {
            let line = session.describe(rec.seq, Viewer::Judge).map(|t| t.text).unwrap_or_default();
            println!("recorded event {}: {line}", rec.seq);
        }
    }
    let Some(rec) = recorded.last() else { bail!("nothing was recorded") };
    let o = session.audit().outcome;
    if let Some(o) = o {
        println!("the game is over: {} ({})", o.headline(&players), o.reason);
    }
    println!("head {}", rec.head.hash);
    Ok(ExitCode::SUCCESS)
}
