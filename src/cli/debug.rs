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
    /// retrying a failed append with the same id until it is acknowledged. With `--via`, it
    /// appends through kifu servers instead of the store: each event is a judge's note ruling in
    /// game `PREFIX-NN`, posted with the key as its `Idempotency-Key`, each attempt to the next
    /// server in turn (a retry usually reaches another server than the first attempt). Prints
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
        /// Servers to append through (`http://HOST:PORT`, comma-separated) instead of the store.
        #[arg(long, value_delimiter = ',')]
        via: Vec<String>,
        /// A judge's token for the servers (needed with `--via`); the judge's name is `--judge`.
        #[arg(long, requires = "via")]
        token: Option<String>,
        #[arg(long, default_value = "jin")]
        judge: String,
    },
}

pub fn run(ctx: &Context, cmd: Command) -> Result<ExitCode> {
    match cmd {
        Command::AppendLoop { stream, count, writer, reopen } => append_loop(ctx, &stream, count, &writer, reopen),
        Command::ClusterWriter { writer, streams, prefix, threads, retry_ms, via, token, judge } => {
            let target = match (via.is_empty(), token) {
                (true, _) => Target::Store(ctx.open_store()?),
                (false, Some(token)) => Target::Servers { urls: via, token, judge },
                (false, None) => anyhow::bail!("--via needs --token (a judge's token for the servers)"),
            };
            cluster_writer(ctx, &target, &writer, streams, &prefix, threads.max(1), Duration::from_millis(retry_ms))
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

/// Where a cluster writer appends.
enum Target {
    Store(Box<dyn Store>),
    /// kifu servers over the cluster, as a judge.
    Servers {
        urls: Vec<String>,
        token: String,
        judge: String,
    },
}

/// How one attempt at an append ended.
enum Attempt {
    Acked {
        seq: u64,
        retried: bool,
    },
    /// Worth retrying with the same key: the cluster or a server was unreachable, or the append
    /// lost a race to another writer.
    Retry(String),
    /// No retry fixes it (an idempotency conflict, corruption, a refused request).
    Refused(String),
}

impl Target {
    fn attempt(&self, ctx: &Context, writer: &str, stream: &StreamId, key: &str, n: usize) -> Attempt {
        match self {
            Target::Store(store) => {
                let request = AppendRequest {
                    stream: stream.clone(),
                    expected: ExpectedVersion::Any,
                    create: Some(Header::opaque(stream.clone(), ctx.clock().now())),
                    events: vec![NewEvent {
                        actor: Actor::Player(writer.to_string()),
                        payload: key.as_bytes().to_vec(),
                        idempotency: Some(IdempotencyId::from_key(key)),
                    }],
                };
                match store.append(request) {
                    Ok(a) => Attempt::Acked { seq: a.first_seq, retried: a.retried },
                    Err(
                        e @ (StoreError::IdempotencyConflict { .. }
                        | StoreError::PartialRetry { .. }
                        | StoreError::Corrupt(_)
                        | StoreError::CorruptIndex(_)),
                    ) => Attempt::Refused(e.to_string()),
                    Err(e) => Attempt::Retry(e.to_string()),
                }
            }
            Target::Servers { urls, token, judge } => {
                let url = &urls[n % urls.len()];
                let body = serde_json::json!({
                    "ruling": {"NoteRecorded": {"judge": judge, "about": null, "note": key}}
                });
                let path = format!("/api/v1/games/{stream}/rulings");
                match http_post(url, &path, token, key, &body.to_string()) {
                    Err(e) => Attempt::Retry(format!("{url}: {e}")),
                    Ok((status, answer)) => {
                        let said = |field: &str| answer.get(field).cloned().unwrap_or_default();
                        match status {
                            200 | 201 => match said("seq").as_u64() {
                                Some(seq) => Attempt::Acked { seq, retried: said("retried") == true },
                                None => Attempt::Refused(format!("{url}: {status} without a seq: {answer}")),
                            },
                            // A conflict on the version is a race lost twice to the other
                            // server; on the key it is a real refusal.
                            409 if !said("error").as_str().unwrap_or_default().contains("idempotency") => {
                                Attempt::Retry(format!("{url}: {status} {}", said("error")))
                            }
                            500.. => Attempt::Retry(format!("{url}: {status} {}", said("error"))),
                            _ => Attempt::Refused(format!("{url}: {status} {answer}")),
                        }
                    }
                }
            }
        }
    }
}

/// How long a trial client waits for a server's answer before it retries elsewhere.
const HTTP_TIMEOUT: Duration = Duration::from_secs(15);

/// A POST of JSON `body` to `url` + `path` with a bearer token and an `Idempotency-Key`: the
/// status and the JSON answer. HTTP/1.0 with a fresh connection per request, so the answer is
/// plain (never chunked or kept alive) and a server that died mid-request is a plain error.
fn http_post(url: &str, path: &str, token: &str, key: &str, body: &str) -> Result<(u16, serde_json::Value), String> {
    let host = url.strip_prefix("http://").ok_or_else(|| format!("{url} is not http://HOST:PORT"))?;
    let addr = host.parse::<std::net::SocketAddr>().map_err(|e| format!("{host}: {e}"))?;
    let mut conn = std::net::TcpStream::connect_timeout(&addr, HTTP_TIMEOUT).map_err(|e| e.to_string())?;
    conn.set_read_timeout(Some(HTTP_TIMEOUT)).map_err(|e| e.to_string())?;
    conn.set_write_timeout(Some(HTTP_TIMEOUT)).map_err(|e| e.to_string())?;
    let request = format!(
        "POST {path} HTTP/1.0\r\nHost: {host}\r\nAuthorization: Bearer {token}\r\nIdempotency-Key: {key}\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    conn.write_all(request.as_bytes()).map_err(|e| e.to_string())?;
    let mut response = Vec::new();
    conn.take(1 << 20).read_to_end(&mut response).map_err(|e| e.to_string())?;
    let text = String::from_utf8_lossy(&response);
    let (head, answer) = text.split_once("\r\n\r\n").ok_or("the connection closed before a whole answer")?;
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| format!("no status in {:?}", head.lines().next()))?;
    Ok((status, serde_json::from_str(answer).unwrap_or_default()))
}

fn cluster_writer(
    ctx: &Context,
    target: &Target,
    writer: &str,
    streams: usize,
    prefix: &str,
    threads: usize,
    retry_after: Duration,
) -> Result<ExitCode> {
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
            let (ids, stop, say) = (&ids, &stop, &say);
            scope.spawn(move || {
                let mine: Vec<&StreamId> = ids.iter().skip(t).step_by(threads).collect();
                let (mut n, mut attempts) = (0u64, t);
                while !stop.load(Ordering::SeqCst) && !mine.is_empty() {
                    for stream in &mine {
                        let key = format!("{writer}.{stream}.{n}");
                        // The same request until it is acknowledged: the id makes a retry of an
                        // append that landed unacknowledged record nothing twice.
                        loop {
                            attempts += 1;
                            let one_line = |e: String| e.replace(['\n', '\r'], " ");
                            match target.attempt(ctx, writer, stream, &key, attempts) {
                                Attempt::Acked { seq, retried } => {
                                    say(format!("ack {stream} {seq} {key} {}", u8::from(retried)));
                                    break;
                                }
                                Attempt::Refused(e) => {
                                    say(format!("refused {stream} {key} {}", one_line(e)));
                                    break;
                                }
                                Attempt::Retry(e) => {
                                    say(format!("retry {stream} {key} {}", one_line(e)));
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
