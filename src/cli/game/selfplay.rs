//! `kifu game self-play`: records games played by the random legal-play agent.

use std::process::ExitCode;

use anyhow::Result;

use kifu::log::envelope::StreamId;

use super::driver_named;
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
    /// The players, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "alice,bob")]
    players: Vec<String>,
    /// Stream id prefix; game i is PREFIX-SEED.
    #[arg(long, default_value = "selfplay")]
    prefix: String,
}

pub fn run(ctx: &Context, args: Args) -> Result<ExitCode> {
    let driver = driver_named(&args.game)?;
    let store = ctx.open_store()?;
    for i in 0..args.count {
        let seed = args.seed + i;
        let id = StreamId::new(&format!("{}-{}-{seed}", args.prefix, args.game))?;
        let head = driver.self_play(&store, &id, seed, &args.players, ctx.clock().now())?;
        println!("{id}\t{} events\thead {}", head.len, head.hash);
    }
    Ok(ExitCode::SUCCESS)
}
