//! `kifu import FILE`: reads a `.kifu` or JSON log, verifies it, and writes it to the store.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context as _, Result};

use kifu::log::chain::VerifiedLog;
use kifu::log::{file, json};
use kifu::store::{Imported, Store};

use super::{output, Context};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The .kifu or JSON file.
    file: PathBuf,
    /// Read the file as JSON (detected automatically when it starts with '{').
    #[arg(long)]
    json: bool,
}

/// Reads and verifies a log file, in the binary or the JSON form.
pub fn read_log_file(path: &Path, force_json: bool) -> Result<VerifiedLog> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    let is_json = force_json || bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{');
    if is_json {
        let text = std::str::from_utf8(&bytes).with_context(|| format!("{} is not UTF-8 text", path.display()))?;
        Ok(json::from_json_str(text).with_context(|| format!("{} does not verify", path.display()))?)
    } else {
        Ok(file::read(&bytes).with_context(|| format!("{} does not verify", path.display()))?)
    }
}

pub fn run(ctx: &Context, args: Args) -> Result<ExitCode> {
    let log = read_log_file(&args.file, args.json)?;
    // The chain verifying is not enough: a stream the server and replay cannot decode is
    // refused, and so are names over the bound. `kifu verify FILE` runs the same check.
    kifu::import::check_import(&log)
        .with_context(|| format!("{} is refused, nothing imported", args.file.display()))?;
    let store = ctx.open_store()?;
    let bar = output::progress(log.head.len, "importing");
    let outcome = store.import(&log)?;
    bar.set_position(log.head.len);
    bar.finish_and_clear();
    let stream = log.header.stream();
    match outcome {
        Imported::Created => println!("imported {stream}: {} events, head {}", log.head.len, log.head.hash),
        Imported::AlreadyPresent => {
            println!("{stream} is already in the store with the same {} events (head {})", log.head.len, log.head.hash)
        }
    }
    Ok(ExitCode::SUCCESS)
}
