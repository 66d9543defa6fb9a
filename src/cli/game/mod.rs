//! `kifu game ...`: create, record, show, replay, audit, import and export games, for every game
//! through the same driver interface.

mod act;
mod audit;
mod io;
mod new;
mod options;
mod rules;
mod selfplay;
mod show;

use std::path::Path;
use std::process::ExitCode;

use anyhow::{anyhow, bail, Context as _, Result};

use kifu::game::driver::{Driver, Session};
use kifu::log::chain::VerifiedLog;
use kifu::log::envelope::{MatchBinding, MatchPlace, StreamId, StreamKind};
use kifu::store::Store;

use super::Context;

#[derive(clap::Subcommand, Debug)]
pub enum Command {
    /// Create a game: players, registered decks, policies for the rules' open points.
    New(new::Args),
    /// Validate an action (JSON) and record it; illegal actions are refused with their rule IDs.
    Act(act::ActArgs),
    /// Record a judge's ruling: a warning, a game loss, a backup, a note, or an entry set aside.
    Rule(act::RuleArgs),
    /// Record a player's concession of the game (as that player: a judge gives a game loss).
    Concede(act::ConcedeArgs),
    /// List what each seat (or one seat) may record now, each with an option id for `game pick`.
    Options(options::OptionsArgs),
    /// Record an option by its id (with its parameter, if it takes one), then the steps kifu
    /// records by itself after it.
    Pick(options::PickArgs),
    /// Show the board at a point of the game, as a player, a spectator or a judge sees it.
    Show(show::ShowArgs),
    /// Step through a game interactively: forward, back, jump to a turn.
    Replay(show::ReplayArgs),
    /// Fold the whole game and list every rule violation; exits non-zero if any is unresolved.
    Audit(audit::Args),
    /// Import a whole game from JSON lines (validated line by line; all or nothing).
    Import(io::ImportArgs),
    /// Export a game as JSON lines (the format `game import` reads).
    Export(io::ExportArgs),
    /// Record games played by the random legal-play agent.
    SelfPlay(selfplay::Args),
    /// List a game's rule IDs and how each is enforced (the coverage table).
    Rules(rules::Args),
}

pub fn run(ctx: &Context, cmd: Command) -> Result<ExitCode> {
    match cmd {
        Command::New(a) => new::run(ctx, a),
        Command::Act(a) => act::run_act(ctx, a),
        Command::Rule(a) => act::run_rule(ctx, a),
        Command::Concede(a) => act::run_concede(ctx, a),
        Command::Options(a) => options::run_options(ctx, a),
        Command::Pick(a) => options::run_pick(ctx, a),
        Command::Show(a) => show::run_show(ctx, a),
        Command::Replay(a) => show::run_replay(ctx, a),
        Command::Audit(a) => audit::run(ctx, a),
        Command::Import(a) => io::run_import(ctx, a),
        Command::Export(a) => io::run_export(ctx, a),
        Command::SelfPlay(a) => selfplay::run(ctx, a),
        Command::Rules(a) => rules::run(a),
    }
}

/// The driver for a game name, or an error listing the games this build knows.
pub fn driver_named(name: &str) -> Result<&'static dyn Driver> {
    kifu::games::driver(name).ok_or_else(|| {
        let known: Vec<_> = kifu::games::drivers().iter().map(|d| d.ruleset()).collect();
        anyhow!("unknown game {name:?}; this build records: {}", known.join(", "))
    })
}

/// The driver for a verified log's ruleset, checking it is a game stream.
pub fn driver_for(log: &VerifiedLog) -> Result<&'static dyn Driver> {
    let h = log.header.v1();
    if h.kind != StreamKind::Game {
        bail!("{} is a {} stream, not a game", h.stream, h.kind);
    }
    driver_named(&h.ruleset)
}

/// A game from a stream id in the store or from a .kifu/JSON file: verified, then opened.
pub struct OpenedGame {
    pub log: VerifiedLog,
    pub driver: &'static dyn Driver,
    pub session: Box<dyn Session>,
}

pub fn open_game(ctx: &Context, target: &str) -> Result<OpenedGame> {
    let log = if Path::new(target).is_file() {
        match jsonl_game(Path::new(target))? {
            // The JSON-lines form (`game export`) has no chain: it is sealed in memory, as recorded.
            Some((game, text)) => driver_named(&game)?
                .jsonl_log(&text)
                .with_context(|| format!("{target} is not a readable {game} game"))?,
            None => super::import::read_log_file(Path::new(target), false)?,
        }
    } else {
        let id = StreamId::new(target).map_err(|e| anyhow!("{target:?} is neither a file nor a game id: {e}"))?;
        ctx.open_store()?.export(&id)?
    };
    let driver = driver_for(&log)?;
    let session = driver.open(&log).with_context(|| format!("cannot replay {}", log.header.stream()))?;
    Ok(OpenedGame { log, driver, session })
}

/// The game and text of a file in the JSON-lines form (its first line a `{"game": ...}` header),
/// or `None` for a `.kifu` or JSON log.
fn jsonl_game(path: &Path) -> Result<Option<(String, String)>> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    let Ok(text) = String::from_utf8(bytes) else { return Ok(None) };
    let first = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    let game = serde_json::from_str::<serde_json::Value>(first)
        .ok()
        .and_then(|v| v.get("game").and_then(|g| g.as_str()).map(str::to_string));
    Ok(game.map(|g| (g, text)))
}

/// A new stream id: `<game>-<UTC date and time>-<4 hex digits of a hash of what makes it unique>`.
pub fn new_game_id(ctx: &Context, game: &str, salt: &str) -> Result<StreamId> {
    let now = ctx.clock().now();
    let t = now.to_datetime().ok_or_else(|| anyhow!("the clock is out of range"))?;
    let h = blake3::hash(format!("{game}|{salt}|{}", now.0).as_bytes());
    Ok(StreamId::new(&format!("{game}-{}-{}", t.format("%Y%m%d-%H%M%S"), &h.to_hex()[..4]))?)
}

/// `--tournament T --round R --table N` (or `--pod N`): the match a new game is bound to, in its
/// hashed header. A bound game is in its match's scope from its first event (its players see and
/// record their seats, the event's officials see everything), and only that match's result may
/// link it.
#[derive(clap::Args, Debug)]
pub struct BindArgs {
    /// Bind the game to a match of this tournament (with --round and --table or --pod).
    #[arg(long, requires = "round")]
    tournament: Option<StreamId>,
    /// The round of the match the game is bound to.
    #[arg(long, requires = "tournament")]
    round: Option<u32>,
    /// The table of the match the game is bound to.
    #[arg(long, requires = "tournament", conflicts_with = "pod")]
    table: Option<u32>,
    /// The pod the game is bound to (a pod tournament).
    #[arg(long, requires = "tournament")]
    pod: Option<u32>,
}

impl BindArgs {
    /// The binding these flags name, unchecked.
    fn binding(&self) -> Result<Option<MatchBinding>> {
        let Some(tournament) = &self.tournament else { return Ok(None) };
        let round = self.round.ok_or_else(|| anyhow!("--tournament needs --round"))?;
        let place = match (self.table, self.pod) {
            (Some(t), None) => MatchPlace::Table(t),
            (None, Some(p)) => MatchPlace::Pod(p),
            _ => bail!("--tournament needs --table N (or --pod N for a pod tournament)"),
        };
        Ok(Some(MatchBinding { tournament: tournament.clone(), round, place }))
    }

    /// The players the pairing seats at the match these flags name, in seat order.
    pub fn seated(&self, store: &dyn Store) -> Result<Vec<String>> {
        let bound =
            self.binding()?.ok_or_else(|| anyhow!("give --players, or --tournament with --round and --table"))?;
        let t = kifu::tournament::record::load(store, &bound.tournament)
            .with_context(|| format!("cannot read tournament {}", bound.tournament))?;
        Ok(kifu::tournament::claim::seated_at(&t.state, &bound)?)
    }

    /// The deck lists `players` registered for the tournament these flags name (see
    /// `kifu tournament deck`), read from the organizer's data directory and checked against the
    /// commitments in the log.
    pub fn registered_decks(&self, store: &dyn Store, data_dir: &Path, players: &[String]) -> Result<Vec<String>> {
        let bound = self.binding()?.ok_or_else(|| anyhow!("give --deck for each player"))?;
        let t = kifu::tournament::record::load(store, &bound.tournament)
            .with_context(|| format!("cannot read tournament {}", bound.tournament))?;
        players
            .iter()
            .map(|p| {
                kifu::tournament::ops::load_deck_list(data_dir, &bound.tournament, &t.state, p)
                    .with_context(|| format!("no --deck given for {p}, and no registered list to take"))
            })
            .collect()
    }

    /// The binding these flags name, if any, checked against the tournament's log: the match
    /// exists, plays `ruleset`, and seats exactly `players`.
    pub fn checked(&self, store: &dyn Store, ruleset: &str, players: &[String]) -> Result<Option<MatchBinding>> {
        let Some(bound) = self.binding()? else { return Ok(None) };
        kifu::tournament::claim::check_binding(store, &bound, ruleset, players)
            .with_context(|| format!("the game cannot be bound to {bound}"))?;
        Ok(Some(bound))
    }
}
