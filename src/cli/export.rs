//! `kifu export STREAM -o FILE`: writes a stream as a self-verifying `.kifu` file or as JSON.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context as _, Result};

use kifu::log::envelope::StreamId;
use kifu::log::{file, json};
use kifu::store::Store;

use super::Context;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The stream id.
    stream: StreamId,
    /// The file to write ('-' for standard output).
    #[arg(short, long, value_name = "FILE")]
    output: PathBuf,
    /// Write the JSON form instead of the binary .kifu form.
    #[arg(long)]
    json: bool,
}

pub fn run(ctx: &Context, args: Args) -> Result<ExitCode> {
    let store = ctx.open_store()?;
    let log = store.export(&args.stream)?;
    let bytes = if args.json {
        let mut s = serde_json::to_string_pretty(&json::to_json(&log)?)?;
        s.push('\n');
        s.into_bytes()
    } else {
        file::write(&log)
    };
    if args.output.as_os_str() == "-" {
        std::io::stdout().write_all(&bytes)?;
    } else {
        // Write beside the target and rename, so a crash never leaves a half-written file under the real name.
        let tmp = args.output.with_extension("kifu-partial");
        std::fs::write(&tmp, &bytes).with_context(|| format!("cannot write {}", tmp.display()))?;
        std::fs::rename(&tmp, &args.output).with_context(|| format!("cannot write {}", args.output.display()))?;
        eprintln!(
            "exported {}: {} events, head {} -> {}",
            args.stream,
            log.head.len,
            log.head.hash,
            args.output.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}
