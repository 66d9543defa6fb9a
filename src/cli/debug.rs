//! `kifu debug ...` (hidden): helpers for the crash and concurrency tests and the tools/ scripts.

use std::io::{Read, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::Duration;

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
    /// A client of the cluster fault trials (tools/cluster-trials): appends one event at a time
    /// to `--streams` streams from `--threads` threads, each event under its own idempotency id,
    /// retrying a failed append with the same id until it is acknowledged. Prints
    /// `ack STREAM SEQ KEY RETRIED` after each acknowledged append, `retry STREAM KEY ERROR` before each
    /// retry and `refused STREAM KEY ERROR` for a refusal no retry can fix. Stops when stdin closes,
    /// after finishing the appends in flight.
    ClusterWriter {
        /// The writer's name: in every key (`WRITER.STREAM.N`), payload and actor.
        #[arg(long)]
        writer: String,
        /// Streams `PREFIX-00`, `PREFIX-01`, …
        #[arg(long, default_value_t = 50)]
        streams: usize,
        #[arg(long, default_value = "ft")]
        prefix: String,
        /// Appenders; each owns every `threads`-th stream.
        #[arg(long, default_value_t = 10)]
        threads: usize,
        /// Milliseconds between retries of one append.
        #[arg(long, default_value_t = 50)]
        retry_ms: u64,
    },
}

pub fn run(ctx: &Context, cmd: Command) -> Result<ExitCode> {
    match cmd {
        Command::AppendLoop { stream, count, writer, reopen } => append_loop(ctx, &stream, count, &writer, reopen),
        Command::ClusterWriter { writer, streams, prefix, threads, retry_ms } => {
            cluster_writer(ctx, &writer, streams, &prefix, threads.max(1), Duration::from_millis(retry_ms))
        }
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

/// The stream name of trial stream `i`.
fn trial_stream(prefix: &str, i: usize) -> Result<StreamId> {
    Ok(StreamId::new(&format!("{prefix}-{i:02}"))?)
}

fn cluster_writer(
    ctx: &Context,
    writer: &str,
    streams: usize,
    prefix: &str,
    threads: usize,
    retry_after: Duration,
) -> Result<ExitCode> {
    let store = ctx.open_store()?;
    let ids = (0..streams).map(|i| trial_stream(prefix, i)).collect::<Result<Vec<_>>>()?;
    let stop = AtomicBool::new(false);
    let out = Mutex::new(std::io::stdout());
    let say = |line: String| {
        let mut out = out.lock().unwrap_or_else(|p| p.into_inner());
        // A closed stdout (the trial harness went away) ends nothing here: stdin's end stops us.
        let _ = writeln!(out, "{line}").and_then(|()| out.flush());
    };
    std::thread::scope(|scope| {
        scope.spawn(|| {
            // The harness closes stdin to stop the writers.
            let _ = std::io::stdin().read_to_end(&mut Vec::new());
            stop.store(true, Ordering::SeqCst);
        });
        for t in 0..threads {
            let (store, ids, stop, say) = (&store, &ids, &stop, &say);
            scope.spawn(move || {
                let mine: Vec<&StreamId> = ids.iter().skip(t).step_by(threads).collect();
                let mut n = 0u64;
                while !stop.load(Ordering::SeqCst) && !mine.is_empty() {
                    for stream in &mine {
                        let key = format!("{writer}.{stream}.{n}");
                        let request = AppendRequest {
                            stream: (*stream).clone(),
                            expected: ExpectedVersion::Any,
                            create: Some(Header::opaque((*stream).clone(), ctx.clock().now())),
                            events: vec![NewEvent {
                                actor: Actor::Player(writer.to_string()),
                                payload: key.clone().into_bytes(),
                                idempotency: Some(IdempotencyId::from_key(&key)),
                            }],
                        };
                        // The same request until it is acknowledged: the id makes a retry of an
                        // append that landed unacknowledged record nothing twice.
                        loop {
                            match store.append(request.clone()) {
                                Ok(a) => {
                                    say(format!("ack {stream} {} {key} {}", a.first_seq, u8::from(a.retried)));
                                    break;
                                }
                                Err(
                                    e @ (StoreError::IdempotencyConflict { .. }
                                    | StoreError::PartialRetry { .. }
                                    | StoreError::Corrupt(_)
                                    | StoreError::CorruptIndex(_)),
                                ) => {
                                    say(format!("refused {stream} {key} {}", e.to_string().replace('\n', " ")));
                                    break;
                                }
                                Err(e) => {
                                    say(format!("retry {stream} {key} {}", e.to_string().replace('\n', " ")));
                                    std::thread::sleep(retry_after);
                                }
                            }
                        }
                    }
                    n += 1;
                }
            });
        }
    });
    Ok(ExitCode::SUCCESS)
}
