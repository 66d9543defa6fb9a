//! `kifu append STREAM --text TEXT`: records a free-form note in an opaque stream, creating the
//! stream on first use. Game streams are recorded through their game commands instead.

use std::process::ExitCode;

use anyhow::Result;

use kifu::log::envelope::{Actor, Header, IdempotencyId, StreamId};
use kifu::store::{AppendRequest, ExpectedVersion, NewEvent, Store};

use super::Context;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The stream id.
    stream: StreamId,
    /// The note to record.
    #[arg(long)]
    text: String,
    /// Who records it: player:NAME, judge:NAME, organizer:NAME or system.
    #[arg(long, default_value = "system")]
    actor: Actor,
    /// The expected version: 'none' (the stream must not exist), 'any', or the number of events it must hold.
    #[arg(long, default_value = "any")]
    expect: ExpectedVersion,
    /// A retry key: appending again with the same key records nothing twice.
    #[arg(long)]
    idempotency_key: Option<String>,
}

pub fn run(ctx: &Context, args: Args) -> Result<ExitCode> {
    // A note is bounded like every note kifu records (the actor's name is, by its parser).
    kifu::log::limits::check_note(|| "the note (--text)".into(), &args.text)?;
    let store = ctx.open_store()?;
    let create = Header::opaque(args.stream.clone(), ctx.clock().now());
    let appended = store.append(AppendRequest {
        stream: args.stream.clone(),
        expected: args.expect,
        create: Some(create),
        events: vec![NewEvent {
            actor: args.actor,
            payload: args.text.into_bytes(),
            idempotency: args.idempotency_key.as_deref().map(IdempotencyId::from_key),
        }],
    })?;
    if appended.retried {
        println!(
            "{}: already recorded as event {} (retry); head {}",
            args.stream, appended.first_seq, appended.head.hash
        );
    } else {
        println!("{}: recorded event {}; head {}", args.stream, appended.first_seq, appended.head.hash);
    }
    Ok(ExitCode::SUCCESS)
}
