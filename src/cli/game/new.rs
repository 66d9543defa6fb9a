//! `kifu game new`: creates a game stream from players, deck lists and policies.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context as _, Result};

use kifu::game::NewGame;
use kifu::log::envelope::StreamId;

use super::{driver_named, new_game_id, BindArgs};
use crate::cli::Context;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game, e.g. naruto.
    #[arg(long)]
    game: String,
    /// The players in seat order, comma-separated (default with --tournament: the pairing's
    /// players, in seat order).
    #[arg(long, value_delimiter = ',', required_unless_present = "tournament")]
    players: Vec<String>,
    /// A deck-list file per player, in seat order (repeat the flag); with --tournament, the lists
    /// the players registered for the event when none is given.
    #[arg(long = "deck", value_name = "FILE")]
    decks: Vec<PathBuf>,
    /// A card catalog file (default: the game's sample catalog).
    #[arg(long, value_name = "FILE")]
    catalog: Option<PathBuf>,
    /// A policy for an open point of the rules, KEY=VALUE (repeat the flag); see `kifu game rules`.
    #[arg(long = "policy", value_name = "KEY=VALUE")]
    policies: Vec<String>,
    /// The game's stream id (default: generated from the game and the time).
    #[arg(long)]
    id: Option<StreamId>,
    #[command(flatten)]
    bind: BindArgs,
}

use kifu::store::kept;

pub fn run(ctx: &Context, mut args: Args) -> Result<ExitCode> {
    let driver = driver_named(&args.game)?;
    if args.players.is_empty() {
        let store = ctx.open_store()?;
        args.players = args.bind.seated(&store)?;
    }
    let mut decks = Vec::new();
    for d in &args.decks {
        decks.push(std::fs::read_to_string(d).with_context(|| format!("cannot read deck file {}", d.display()))?);
    }
    if decks.is_empty() && args.bind.tournament.is_some() {
        let store = ctx.open_store()?;
        decks = args.bind.registered_decks(&store, &ctx.data_dir, &args.players)?;
    }
    let catalog = match &args.catalog {
        Some(c) => Some(std::fs::read_to_string(c).with_context(|| format!("cannot read catalog {}", c.display()))?),
        None => None,
    };
    let mut policies = Vec::new();
    for p in &args.policies {
        let Some((k, v)) = p.split_once('=') else { bail!("--policy {p:?} is not KEY=VALUE") };
        policies.push((k.trim().to_string(), v.trim().to_string()));
    }
    let id = match args.id {
        Some(id) => id,
        None => new_game_id(ctx, &args.game, &args.players.join(","))?,
    };
    let request = NewGame { players: &args.players, decks: &decks, catalog: catalog.as_deref(), policies: &policies };
    let store = ctx.open_store()?;
    let bound = args.bind.checked(&store, driver.ruleset(), &args.players)?;
    let head = driver.create_bound(&store, &id, &request, ctx.clock().now(), bound.clone())?;
    // A digital game's cards are dealt by kifu, from a seed it keeps beside the store.
    let seed = kifu::log::hash::Hash32(rand::random::<[u8; 32]>());
    let keep = |seeds: &[(String, kifu::game::commit::Secret)]| kept::save_dealer_seeds(&ctx.data_dir, &id, seeds);
    let dealt = kifu::game::dealer::deal_new_game(driver, &store, &id, seed, keep)?;
    println!("{id}");
    let at = bound.map(|b| format!(", bound to {b}")).unwrap_or_default();
    eprintln!("created {} game {id} for {}{at}; header hash {}", args.game, args.players.join(" vs "), head.hash);
    if let Some(dealt) = dealt {
        eprintln!(
            "kifu deals this digital game: its seed is kept in {} until the game is over; {} event(s) recorded",
            kept::dealer_seeds_path(&ctx.data_dir, &id).display(),
            dealt.len
        );
    }
    Ok(ExitCode::SUCCESS)
}
