//! `kifu game show` and `kifu game replay`: the board at any point, as a viewer may see it.

use std::io::{BufRead, Write};
use std::process::ExitCode;

use anyhow::{anyhow, bail, Result};
use serde::Serialize;

use kifu::game::driver::{Session, TimelineEntry};
use kifu::game::view::BoardView;
use kifu::game::Viewer;

use super::open_game;
use crate::cli::{board, output, Context};

#[derive(clap::Args, Debug)]
pub struct ShowArgs {
    /// The game's stream id, or a .kifu/JSON file.
    game: String,
    /// Show the state after this many events (the state just after event AT-1).
    #[arg(long, conflicts_with = "turn")]
    at: Option<u64>,
    /// Show the state when this turn is first reached.
    #[arg(long)]
    turn: Option<u32>,
    /// With --turn: the phase within the turn.
    #[arg(long, requires = "turn")]
    phase: Option<String>,
    /// Whose eyes: p1, p2, ... (or a player's name), spectator, or judge.
    #[arg(long = "as", default_value = "spectator")]
    viewer: String,
    /// Print JSON (the board view and the event that led to it).
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct Shown<'a> {
    game: String,
    at: u64,
    events: u64,
    last_event: Option<TimelineEntry>,
    board: &'a BoardView,
}

/// Resolves --at / --turn / --phase to a number of events.
fn seek(session: &dyn Session, at: Option<u64>, turn: Option<u32>, phase: Option<&str>) -> Result<u64> {
    match (at, turn) {
        (Some(n), _) if n > session.len() => bail!("--at {n}: the game has only {} events", session.len()),
        (Some(n), _) => Ok(n),
        (None, Some(t)) => session.seek_turn(t, phase).ok_or_else(|| match phase {
            Some(p) => anyhow!("turn {t}, phase {p:?} is never reached in this game"),
            None => anyhow!("turn {t} is never reached in this game"),
        }),
        (None, None) => Ok(session.len()),
    }
}

pub fn run_show(ctx: &Context, args: ShowArgs) -> Result<ExitCode> {
    let g = open_game(ctx, &args.game)?;
    let players = g.session.players();
    let viewer = board::parse_viewer(&args.viewer, &players).map_err(|e| anyhow!(e))?;
    let n = seek(g.session.as_ref(), args.at, args.turn, args.phase.as_deref())?;
    let b = g.session.board(n, viewer);
    let last = n.checked_sub(1).and_then(|s| g.session.describe(s, viewer));
    if args.json {
        output::print_json(&Shown {
            game: g.log.header.stream().to_string(),
            at: n,
            events: g.session.len(),
            last_event: last,
            board: &b,
        })?;
        return Ok(ExitCode::SUCCESS);
    }
    print_step(g.log.header.stream().as_str(), g.session.as_ref(), n, viewer, &players);
    Ok(ExitCode::SUCCESS)
}

fn print_step(game: &str, session: &dyn Session, n: u64, viewer: Viewer, players: &[String]) {
    let b = session.board(n, viewer);
    let heading = format!("{game} — after {n} of {} events", session.len());
    board::print(&b, players, &heading);
    match n.checked_sub(1).and_then(|s| session.describe(s, viewer)) {
        Some(t) => println!("What happened: event {} by {}: {}", t.seq, t.actor, t.text),
        None => println!("What happened: nothing yet (the game as set up)"),
    }
}

#[derive(clap::Args, Debug)]
pub struct ReplayArgs {
    /// The game's stream id, or a .kifu/JSON file.
    game: String,
    /// Whose eyes: p1, p2, ... (or a player's name), spectator, or judge.
    #[arg(long = "as", default_value = "spectator")]
    viewer: String,
    /// Where to start (number of events); default: the beginning.
    #[arg(long, default_value_t = 0)]
    at: u64,
}

const HELP: &str = "keys: [Enter]/n next · p previous · +N / -N step · g N go to after N events · \
t T [PHASE] jump to turn · s start · e end · v VIEWER (p1, spectator, judge...) · l list events · q quit";

/// An interactive, line-based replay: every command redraws the board.
pub fn run_replay(ctx: &Context, args: ReplayArgs) -> Result<ExitCode> {
    let g = open_game(ctx, &args.game)?;
    let players = g.session.players();
    let mut viewer = board::parse_viewer(&args.viewer, &players).map_err(|e| anyhow!(e))?;
    let len = g.session.len();
    let mut n = args.at.min(len);
    let game = g.log.header.stream().to_string();
    println!("{HELP}");
    print_step(&game, g.session.as_ref(), n, viewer, &players);
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    loop {
        print!("[{n}/{len}] > ");
        std::io::stdout().flush()?;
        let Some(line) = lines.next() else { break };
        let line = line?;
        let mut words = line.split_whitespace();
        let cmd = words.next().unwrap_or("n");
        let arg = words.next();
        let next = match (cmd, arg) {
            ("q", _) | ("quit", _) => break,
            ("n", _) => Some(n.saturating_add(1).min(len)),
            ("p", _) => Some(n.saturating_sub(1)),
            ("s", _) => Some(0),
            ("e", _) => Some(len),
            ("g", Some(a)) => a.parse::<u64>().ok().map(|a| a.min(len)),
            ("t", Some(a)) => match a.parse::<u32>() {
                Ok(t) => match g.session.seek_turn(t, words.next()) {
                    Some(at) => Some(at),
                    None => {
                        println!("turn {t} is never reached");
                        None
                    }
                },
                Err(_) => None,
            },
            ("v", Some(a)) => match board::parse_viewer(a, &players) {
                Ok(v) => {
                    viewer = v;
                    Some(n)
                }
                Err(e) => {
                    println!("{e}");
                    None
                }
            },
            ("l", _) => {
                let from = n.saturating_sub(5);
                for t in (from..(n + 5).min(len)).filter_map(|s| g.session.describe(s, viewer)) {
                    let mark = if t.seq + 1 == n { ">" } else { " " };
                    println!(
                        "{mark} {:>5} turn {:>3} {:<12} {:<18} {}",
                        t.seq,
                        t.turn,
                        t.step,
                        t.actor,
                        t.shown_text()
                    );
                }
                None
            }
            (c, _) if c.starts_with('+') || c.starts_with('-') => c[1..].parse::<u64>().ok().map(|k| {
                if c.starts_with('+') {
                    n.saturating_add(k).min(len)
                } else {
                    n.saturating_sub(k)
                }
            }),
            _ => {
                println!("{HELP}");
                None
            }
        };
        if let Some(m) = next {
            n = m;
            print_step(&game, g.session.as_ref(), n, viewer, &players);
        }
    }
    Ok(ExitCode::SUCCESS)
}
