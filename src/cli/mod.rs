//! The command line: argument definitions, the shared context (data directory, store, output
//! mode) and one module per subcommand (`XxxArgs` + `run`).

mod append;
mod board;
mod debug;
mod demo;
mod export;
mod game;
mod import;
mod key;
mod log_cmd;
mod migrate;
mod output;
mod payload;
mod serve;
mod streams;
mod tournament;
mod verify;

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{Context as _, Result};
use clap::{Parser, Subcommand};

use kifu::clock::{Clock, SteppingClock, SystemClock};
use kifu::store::channel::ChannelStore;
use kifu::store::nats_store::NatsStore;
use kifu::store::sled_store::{OpenOptions, SledStore};
use kifu::store::{Location, Store};

/// kifu records card-game matches and tournaments as append-only, hash-chained event logs.
#[derive(Parser, Debug)]
#[command(name = "kifu", version, about, long_about = None)]
pub struct Cli {
    /// The data directory (default: $KIFU_DATA, then the per-user data directory).
    #[arg(long, global = true, value_name = "DIR")]
    data: Option<PathBuf>,

    /// Where the streams live: a sled directory (default: the data directory) or a NATS
    /// JetStream cluster, nats://HOST:PORT[,HOST:PORT…][?ns=NAME]. Seeds, tokens and pending
    /// results stay in the data directory.
    #[arg(long, global = true, value_name = "URL", env = "KIFU_STORE")]
    store: Option<String>,

    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Build a fresh demo store: self-played games, boards, a judge's ruling, audit, export, verify.
    Demo(demo::Args),
    /// List the streams in the store.
    Streams(streams::Args),
    /// Show a stream's events.
    Log(log_cmd::Args),
    /// Verify the hash chain of a .kifu/JSON file, a stream, or every stream.
    Verify(verify::Args),
    /// Write a stream to a self-verifying .kifu file (or JSON with --json).
    Export(export::Args),
    /// Read a .kifu or JSON file into the store, refusing it if it does not verify.
    Import(import::Args),
    /// Record, show, replay and audit games.
    #[command(subcommand)]
    Game(game::Command),
    /// Run and check Swiss tournaments: pair, report, standings, top cut, verify, import.
    Tournament(tournament::Args),
    /// Serve the web replay viewer, live games and tournament pages (JSON API under /api/v1).
    Serve(serve::Args),
    /// Issue, list and revoke the access tokens `kifu serve` checks (players, judges, organizers).
    #[command(subcommand)]
    Token(serve::TokenCommand),
    /// Make an organizer's or judge's ed25519 signing key (for signed tournament results).
    #[command(subcommand)]
    Key(key::Command),
    /// Append a free-form note event to an opaque stream (created on first use).
    Append(append::Args),
    /// Copy every stream, verified, from one store to another (a sled directory or nats://…).
    Migrate(migrate::Args),
    /// Test and benchmark helpers (not for everyday use).
    #[command(hide = true, subcommand)]
    Debug(debug::Command),
}

/// What every command can reach: where the data lives and which clock stamps events.
pub struct Context {
    pub data_dir: PathBuf,
    /// Where the streams live (`--store`); the data directory unless a cluster is named.
    pub location: Location,
    clock: Arc<dyn Clock>,
}

impl Context {
    fn new(data: Option<PathBuf>, store: Option<String>) -> Result<Self> {
        let location = match store.as_deref().filter(|s| !s.is_empty()) {
            Some(s) => Some(Location::parse(s)?),
            None => None,
        };
        let data = match (&location, data) {
            (Some(Location::Dir(dir)), _) => Some(dir.clone()),
            (_, data) => data,
        };
        let data_dir = match data {
            Some(d) => d,
            None => match std::env::var_os("KIFU_DATA") {
                Some(d) if !d.is_empty() => PathBuf::from(d),
                _ => dirs::data_dir()
                    .context("no --data given, KIFU_DATA is unset and this system has no per-user data directory")?
                    .join("kifu"),
            },
        };
        // Tests pin the clock so output and hashes are reproducible.
        let clock: Arc<dyn Clock> = match std::env::var("KIFU_TEST_CLOCK") {
            Ok(v) if v == "fixed" => Arc::new(SteppingClock::fixed()),
            _ => Arc::new(SystemClock),
        };
        let location = location.unwrap_or_else(|| Location::Dir(data_dir.clone()));
        Ok(Context { data_dir, location, clock })
    }

    /// Opens the store, waiting for another kifu process that holds a sled directory, and says
    /// on stderr what the open repaired and whether the store is read-only (a full disk).
    pub fn open_store(&self) -> Result<Box<dyn Store>> {
        self.open_store_with(OpenOptions::default())
    }

    /// [`Self::open_store`] with options (the server bounds sled's page cache).
    pub fn open_store_with(&self, options: OpenOptions) -> Result<Box<dyn Store>> {
        self.open_location(&self.location, options)
    }

    /// Opens the store at `location` (`migrate` opens two). A data directory that a running
    /// `kifu serve` holds is reached through the server's local channel ([`ChannelStore`]), so
    /// a command works while the server runs, with the same output and errors.
    pub fn open_location(&self, location: &Location, options: OpenOptions) -> Result<Box<dyn Store>> {
        if let Location::Dir(dir) = location {
            if let Some(channel) = ChannelStore::connect(dir) {
                return Ok(Box::new(channel));
            }
        }
        self.open_here(location, options)
    }

    /// Opens the store at `location` in this process (the server, which holds it).
    pub fn open_here(&self, location: &Location, options: OpenOptions) -> Result<Box<dyn Store>> {
        let dir = match location {
            Location::Nats(url) => return Ok(Box::new(NatsStore::connect(url, self.clock.clone())?)),
            Location::Dir(dir) => dir,
        };
        // Tests of the full-disk fallback (no unprivileged test can fill a file system).
        let options =
            OpenOptions { simulate_full_disk: std::env::var("KIFU_TEST_DISK_FULL").is_ok_and(|v| v == "1"), ..options };
        let store = SledStore::open_with(dir, self.clock.clone(), options)?;
        for note in store.open_notes() {
            eprintln!("note: {note}");
        }
        if store.is_read_only() {
            eprintln!(
                "note: the disk holding {} is full: the store is open read-only (reads, verify and export work; \
                 writes are refused)",
                dir.display()
            );
        }
        Ok(Box::new(store))
    }

    pub fn clock(&self) -> &Arc<dyn Clock> {
        &self.clock
    }
}

pub fn run() -> Result<ExitCode> {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => e.exit(),
        Err(e) => {
            // clap quotes a refused argument whole; quote at most a prefix of each.
            let text = e.render().to_string();
            let clipped: Vec<String> = text
                .split('\'')
                .enumerate()
                .map(|(i, part)| if i % 2 == 1 { kifu::log::quote_prefix(part) } else { part.to_string() })
                .collect();
            eprint!("{}", clipped.join("'"));
            return Ok(ExitCode::from(2));
        }
    };
    let ctx = Context::new(cli.data, cli.store)?;
    // `kifu log ... | head` should end quietly, as other Unix tools do, not panic on a closed
    // pipe: the default SIGPIPE ends the process. Not in a process holding sockets: writing to
    // a peer that went away (a SIGKILLed NATS node, whose socket the client writes with writev,
    // which cannot ask for no signal) would end it too, a server included, where the write's
    // error is handled and the client reconnects. Those keep Rust's ignored SIGPIPE.
    let holds_sockets = matches!(cli.command, Command::Serve(_) | Command::Debug(_) | Command::Migrate(_))
        || matches!(ctx.location, Location::Nats(_));
    if !holds_sockets {
        sigpipe::reset();
    }
    match cli.command {
        Command::Demo(a) => demo::run(&ctx, a),
        Command::Streams(a) => streams::run(&ctx, a),
        Command::Log(a) => log_cmd::run(&ctx, a),
        Command::Verify(a) => verify::run(&ctx, a),
        Command::Export(a) => export::run(&ctx, a),
        Command::Import(a) => import::run(&ctx, a),
        Command::Append(a) => append::run(&ctx, a),
        Command::Migrate(a) => migrate::run(&ctx, a),
        Command::Tournament(a) => tournament::run(&ctx, a),
        Command::Game(c) => game::run(&ctx, c),
        Command::Debug(c) => debug::run(&ctx, c),
        Command::Serve(a) => serve::run(&ctx, a),
        Command::Token(c) => serve::run_token(&ctx, c),
        Command::Key(c) => key::run(c),
    }
}
