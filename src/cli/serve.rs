//! `kifu serve` (the web viewer and JSON API) and `kifu token` (issue, list and revoke the
//! access tokens the server checks; they work while the server runs: tokens live in a small JSON
//! file beside a sled store, not in sled, or in the shared records of a cluster every server
//! reads).

use std::net::SocketAddr;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{bail, Context as _, Result};
use serde_json::json;

use kifu::server::{tokens, AppState, ServerConfig};
use kifu::store::sled_store::OpenOptions;

use super::{output, Context};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The address to listen on. Loopback by default; any other address needs --allow-remote.
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,
    /// Allow listening on a non-loopback address (put TLS in front of it).
    #[arg(long)]
    pub allow_remote: bool,
    /// The memory bound, in MiB, on what the server caches: the games and tournaments it keeps
    /// open (least recently used first out). An eighth of it is sled's page cache (kept to
    /// within about 128 pages by the patch in vendor/README.md).
    #[arg(long, default_value_t = kifu::server::state::DEFAULT_CACHE_MB, value_parser = clap::value_parser!(u16).range(1..))]
    pub cache_mb: u16,
}

pub fn run(ctx: &Context, a: Args) -> Result<ExitCode> {
    if !a.addr.ip().is_loopback() && !a.allow_remote {
        bail!("{} is not a loopback address; pass --allow-remote to serve beyond this machine", a.addr);
    }
    // One bound for both caches: sled's page cache would otherwise add its own 64 MiB on top.
    let total = usize::from(a.cache_mb) << 20;
    let page_cache = total / 8;
    let store =
        ctx.open_here(&ctx.location, OpenOptions { page_cache_bytes: page_cache as u64, ..OpenOptions::default() })?;
    let store: Arc<dyn kifu::store::Store> = Arc::new(store);
    // While the server holds a data directory, the CLI's commands reach its store through this
    // channel (the directory's owner only) instead of waiting for the lock.
    let _channel = match &ctx.location {
        kifu::store::Location::Dir(dir) => Some(kifu::store::channel::serve(dir, store.clone())?),
        kifu::store::Location::Nats(_) => None,
    };
    crate::purge_in_background();
    let config = ServerConfig {
        tokens: Some(tokens::path(&ctx.data_dir)),
        pending: Some(ctx.data_dir.join("server").join("pending-results.json")),
        cache_bytes: Some(total - page_cache),
        seeds: Some(ctx.data_dir.clone()),
    };
    let state = AppState::new(store, ctx.clock().clone(), config);
    // Folds, reads and durable appends run on the blocking pool. Its default of 512 threads lets
    // a burst of requests leave hundreds of threads (stacks and allocator caches) resident; 64
    // still let 64 appends share one group commit, and further requests queue.
    let rt = tokio::runtime::Builder::new_multi_thread()
        .max_blocking_threads(64)
        .enable_all()
        .build()
        .context("cannot start tokio")?;
    rt.block_on(async move {
        let listener =
            tokio::net::TcpListener::bind(a.addr).await.with_context(|| format!("cannot listen on {}", a.addr))?;
        let local = listener.local_addr()?;
        // The line tests and scripts wait for: the actual address (port 0 picks a free one).
        let store = match &ctx.location {
            kifu::store::Location::Dir(_) => format!("data {}", ctx.data_dir.display()),
            location => format!("store {location}"),
        };
        println!("kifu serve: listening on http://{local}/ ({store})");
        use std::io::Write as _;
        std::io::stdout().flush()?;
        kifu::server::serve(listener, state).await.context("the server failed")
    })?;
    Ok(ExitCode::SUCCESS)
}

#[derive(clap::Subcommand, Debug)]
pub enum TokenCommand {
    /// Issue a token; prints it once (only its hash is kept).
    Issue(IssueArgs),
    /// List issued tokens (hash prefix, role, scope, name).
    List {
        #[arg(long)]
        json: bool,
    },
    /// Revoke tokens by a prefix of their hash (at least 8 hex digits).
    Revoke { hash_prefix: String },
}

#[derive(clap::Args, Debug)]
pub struct IssueArgs {
    /// player, judge or organizer.
    #[arg(long)]
    pub role: tokens::Role,
    /// The tournament the token is for; judges and organizers may use --all instead.
    #[arg(long, required_unless_present = "all")]
    pub tournament: Option<String>,
    /// Every tournament and game on this server (judges and organizers).
    #[arg(long, conflicts_with = "tournament")]
    pub all: bool,
    /// The player's registered name, or the judge's or organizer's name.
    #[arg(long)]
    pub name: String,
    #[arg(long)]
    pub json: bool,
}

pub fn run_token(ctx: &Context, c: TokenCommand) -> Result<ExitCode> {
    let path = tokens::path(&ctx.data_dir);
    // A sled directory is not opened (the server holds its lock): its tokens are a file beside
    // it. A cluster's servers share their tokens in the store's records.
    let store = match &ctx.location {
        kifu::store::Location::Dir(_) => None,
        location => Some(ctx.open_location(location, OpenOptions::default())?),
    };
    let (book, kept_in) = match store.as_ref().map(|s| s.records(kifu::store::Table::Tokens)).transpose()?.flatten() {
        Some(records) => (tokens::Book::Shared(records), ctx.location.to_string()),
        None => (tokens::Book::File(path.clone()), path.display().to_string()),
    };
    match c {
        TokenCommand::Issue(a) => {
            let scope = if a.all { tokens::ALL.to_string() } else { a.tournament.clone().unwrap_or_default() };
            let now = ctx.clock().now().to_rfc3339();
            // The name becomes the actor of everything the token records: bounded like one.
            kifu::log::limits::check_name(|| "the token's name (--name)".into(), &a.name)?;
            let token = book.issue(a.role, &scope, &a.name, rand::random::<[u8; 32]>(), now)?;
            if a.json {
                output::print_json(&json!({"token": token, "role": a.role, "scope": scope, "name": a.name}))?;
            } else {
                println!("{token}");
                eprintln!("{} token for {} ({scope}); shown once: only its hash is kept in {kept_in}", a.role, a.name);
            }
        }
        TokenCommand::List { json } => {
            let grants = book.list()?;
            if json {
                output::print_json(&grants)?;
            } else {
                let mut t = output::table(["hash", "role", "scope", "name", "issued"]);
                for g in &grants {
                    t.add_row([
                        g.hash[..12].to_string(),
                        g.role.to_string(),
                        g.scope.clone(),
                        g.name.clone(),
                        g.issued_at.clone(),
                    ]);
                }
                println!("{t}");
            }
        }
        TokenCommand::Revoke { hash_prefix } => {
            let n = book.revoke(&hash_prefix)?;
            if n == 0 {
                bail!("no token's hash starts with {hash_prefix}");
            }
            println!("revoked {n} token(s)");
        }
    }
    Ok(ExitCode::SUCCESS)
}
