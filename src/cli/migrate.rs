//! `kifu migrate --from LOCATION --to LOCATION`: copies every stream, verified, between stores
//! (a sled directory and a NATS cluster, either way), and checks the heads agree.

use std::process::ExitCode;

use anyhow::{bail, Context as _, Result};

use kifu::store::sled_store::OpenOptions;
use kifu::store::{Imported, Location, Store};

use super::{output, Context};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The store to copy from: a sled directory or nats://HOST:PORT[,…][?ns=NAME].
    #[arg(long, value_name = "LOCATION")]
    from: String,
    /// The store to copy into (streams it already holds identically are left as they are).
    #[arg(long, value_name = "LOCATION")]
    to: String,
}

pub fn run(ctx: &Context, args: Args) -> Result<ExitCode> {
    let (from_loc, to_loc) = (Location::parse(&args.from)?, Location::parse(&args.to)?);
    if from_loc == to_loc {
        bail!("--from and --to name the same store ({from_loc})");
    }
    if let Location::Dir(dir) = &from_loc {
        // Opening a missing directory would create an empty store and copy nothing.
        if !dir.join("db").is_file() {
            bail!("{} holds no kifu store", dir.display());
        }
    }
    let from = ctx.open_location(&from_loc, OpenOptions::default()).with_context(|| format!("opening {from_loc}"))?;
    let to = ctx.open_location(&to_loc, OpenOptions::default()).with_context(|| format!("opening {to_loc}"))?;
    let streams = from.streams()?;
    let total: u64 = streams.iter().map(|s| s.head.len).sum();
    let bar = output::progress(total, "migrating");
    let (mut created, mut present, mut events) = (0usize, 0usize, 0u64);
    for s in &streams {
        let id = s.header.stream();
        let log = from.export(id).with_context(|| format!("stream {id} does not verify in {from_loc}"))?;
        match to.import(&log).with_context(|| format!("cannot copy stream {id} into {to_loc}"))? {
            Imported::Created => created += 1,
            Imported::AlreadyPresent => present += 1,
        }
        // Read back through the target's own verified path: the heads must be identical.
        let copied =
            to.export(id).with_context(|| format!("stream {id} does not verify in {to_loc} after the copy"))?;
        if copied.head != log.head {
            bail!("stream {id}: head {} in {from_loc} but {} in {to_loc}", log.head.hash, copied.head.hash);
        }
        events += log.head.len;
        bar.inc(log.head.len);
    }
    bar.finish_and_clear();
    println!(
        "migrated {} stream(s), {events} event(s), from {from_loc} to {to_loc}: {created} copied, {present} already \
         there; every head is identical on both sides",
        streams.len()
    );
    Ok(ExitCode::SUCCESS)
}
