//! `kifu game self-play`: records games played by the random legal-play agent.

use std::process::ExitCode;

use anyhow::Result;

use kifu::log::envelope::StreamId;

use super::{driver_named, BindArgs};
use crate::cli::Context;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game, e.g. naruto.
    #[arg(long)]
    game: String,
    /// The first seed; game i uses seed + i.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// How many games.
    #[arg(long, default_value_t = 1)]
    count: u64,
    /// The players, comma-separated, or a number of players (`--players 4` names them
    /// player1..player4; multiplayer games such as fate need 3 or more).
    #[arg(long, value_delimiter = ',', default_value = "alice,bob")]
    players: Vec<String>,
    /// Stream id prefix; game i is PREFIX-SEED.
    #[arg(long, default_value = "selfplay")]
    prefix: String,
    /// Bind every game to one match of a tournament (see `kifu game new`).
    #[command(flatten)]
    bind: BindArgs,
}

pub fn run(ctx: &Context, args: Args) -> Result<ExitCode> {
    let driver = driver_named(&args.game)?;
    let store = ctx.open_store()?;
    let players = match args.players.as_slice() {
        [n] if n.parse::<u8>().is_ok() => {
            let n: u8 = n.parse()?;
            anyhow::ensure!((1..=8).contains(&n), "--players {n}: give 1 to 8 players, or their names");
            (1..=n).map(|i| format!("player{i}")).collect()
        }
        names => names.to_vec(),
    };
    let bound = args.bind.checked(&store, driver.ruleset(), &players)?;
    for i in 0..args.count {
        let seed = args.seed + i;
        let id = StreamId::new(&format!("{}-{}-{seed}", args.prefix, args.game))?;
        let head = driver.self_play_bound(&store, &id, seed, &players, ctx.clock().now(), bound.clone())?;
        println!("{id}\t{} events\thead {}", head.len, head.hash);
    }
    Ok(ExitCode::SUCCESS)
}
