//! `kifu debug ...` (hidden): helpers for the crash and concurrency tests and the tools/ scripts.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;

use kifu::log::envelope::{Actor, Header, IdempotencyId, StreamId};
use kifu::store::{AppendRequest, ExpectedVersion, NewEvent, Store, StoreError};

use super::Context;

#[derive(clap::Subcommand, Debug)]
pub enum Command {
    /// Append events one at a time with an exact expected version, printing `ack WRITER SEQ`
    /// after each append is durable. Retries on a version conflict.
    AppendLoop {
        stream: StreamId,
        /// How many events to append.
        #[arg(long)]
        count: u64,
        /// Name written into payloads and acks.
        #[arg(long, default_value = "w")]
        writer: String,
        /// Open and close the store around every append, so several processes can take turns.
        #[arg(long)]
        reopen: bool,
    },
}

pub fn run(ctx: &Context, cmd: Command) -> Result<ExitCode> {
    match cmd {
        Command::AppendLoop { stream, count, writer, reopen } => append_loop(ctx, &stream, count, &writer, reopen),
    }
}

fn append_loop(ctx: &Context, stream: &StreamId, count: u64, writer: &str, reopen: bool) -> Result<ExitCode> {
    let mut held = if reopen { None } else { Some(ctx.open_store()?) };
    let stdout = std::io::stdout();
    for i in 0..count {
        let opened;
        let store = match &held {
            Some(s) => s,
            None => {
                opened = ctx.open_store()?;
                &opened
            }
        };
        let key = format!("{writer}-{i}");
        loop {
            let expected = match store.head(stream) {
                Ok(h) => ExpectedVersion::Exact(h.len),
                Err(StoreError::UnknownStream(_)) => ExpectedVersion::NoStream,
                Err(e) => return Err(e.into()),
            };
            let req = AppendRequest {
                stream: stream.clone(),
                expected,
                create: Some(Header::opaque(stream.clone(), ctx.clock().now())),
                events: vec![NewEvent {
                    actor: Actor::Player(writer.to_string()),
                    payload: key.clone().into_bytes(),
                    idempotency: Some(IdempotencyId::from_key(&key)),
                }],
            };
            match store.append(req) {
                Ok(a) => {
                    let mut out = stdout.lock();
                    writeln!(out, "ack {writer} {}", a.first_seq)?;
                    out.flush()?;
                    break;
                }
                Err(StoreError::WrongExpectedVersion { .. }) => continue,
                Err(e) => return Err(e.into()),
            }
        }
        if reopen {
            held = None;
        }
    }
    drop(held);
    Ok(ExitCode::SUCCESS)
}
