//! `tools/bench-log`: one run, one table: kifu's sled store against SQLite (WAL, synchronous=FULL)
//! on the same disk, plus the disk's raw fdatasync rate and blake3 alone, with targets marked.
//!
//! `--breakdown` instead times the pieces of a durable append (the sled transaction, sled's
//! `flush`, the extra `fdatasync`) with sled used directly, to show where the time goes.

use std::borrow::Cow;
use std::fs::File;
use std::hint::black_box;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use clap::Parser;
use comfy_table::{presets::UTF8_FULL, Cell, CellAlignment, ContentArrangement, Table};
use rusqlite::{params, Connection, OptionalExtension};

use kifu::clock::{Clock, SystemClock};
use kifu::log::chain::{self, Head};
use kifu::log::envelope::{Actor, Envelope, EnvelopeV1, Header, HeaderV1, StreamId, StreamKind, Timestamp};
use kifu::log::hash::Hash32;
use kifu::store::sled_store::SledStore;
use kifu::store::{AppendRequest, ExpectedVersion, NewEvent, Store};

/// Benchmarks kifu's event log against SQLite on the same disk.
#[derive(Parser, Debug)]
struct Args {
    /// Durable single-event appends to time (each backend, and fdatasync calls for the raw rate).
    #[arg(long, default_value_t = 1000)]
    single: u64,
    /// Batches of 1,000 events to time (each backend). The kifu batches also make the stream
    /// that read + verify measures.
    #[arg(long, default_value_t = 50)]
    batches: u64,
    /// Events per batch.
    #[arg(long, default_value_t = 1000)]
    batch_size: u64,
    /// Payload bytes per event.
    #[arg(long, default_value_t = 100)]
    payload: usize,
    /// Repetitions of the CPU-bound measurements (the best is kept).
    #[arg(long, default_value_t = 7)]
    reps: u32,
    /// Small counts for a smoke run (~10 s): 200 single appends, 10 batches.
    #[arg(long)]
    quick: bool,
    /// Directory (on the disk to measure) to create the scratch directory in.
    /// Default: $CARGO_TARGET_DIR, else ./target, else the current directory.
    #[arg(long)]
    dir: Option<PathBuf>,
    /// Print a breakdown of one durable append's time instead of the comparison table.
    #[arg(long)]
    breakdown: bool,
}

const STREAM: &str = "bench-single";
const BATCH_STREAM: &str = "bench-batch";

fn main() -> Result<()> {
    let mut args = Args::parse();
    if args.quick {
        args.single = 200;
        args.batches = 10;
        args.reps = 3;
    }
    if args.single == 0 || args.batches == 0 || args.batch_size == 0 {
        bail!("--single, --batches and --batch-size must be at least 1");
    }
    let base = match &args.dir {
        Some(d) => d.clone(),
        None => match std::env::var_os("CARGO_TARGET_DIR") {
            Some(d) if !d.is_empty() => PathBuf::from(d),
            _ if Path::new("target").is_dir() => PathBuf::from("target"),
            _ => PathBuf::from("."),
        },
    };
    let scratch = tempfile::Builder::new()
        .prefix("kifu-bench-log-")
        .tempdir_in(&base)
        .with_context(|| format!("cannot create a scratch directory in {}", base.display()))?;
    let dir = scratch.path();
    if args.breakdown {
        return breakdown(dir, &args);
    }
    println!(
        "scratch directory {} ({} single appends, {} x {} batched, {}-byte payloads)",
        dir.display(),
        args.single,
        args.batches,
        args.batch_size,
        args.payload
    );
    let payload = payload_bytes(args.payload);

    // The disk's latency drifts a lot (shared virtual disks especially: from ~0.1 to ~4 ms per
    // fdatasync within a minute here), so the disk-bound measurements are interleaved one
    // operation at a time, in a rotating order, and each contender's times are summed: every
    // contender sees the same disk. A stall of the disk (milliseconds per sync) makes every
    // contender equally slow and pulls the rate ratios towards 1, so the targets are checked
    // on the rates and on the median latencies both.
    let mut raw = RawProbe::new(&dir.join("fsync-probe"), false)?;
    let mut raw_grow = RawProbe::new(&dir.join("fsync-probe-grow"), true)?;
    let mut kifu = KifuBench::open(&dir.join("kifu"), &payload)?;
    let mut sql = SqliteBench::open(&dir.join("sqlite.db"), &payload)?;
    // Warm-up, untimed.
    raw.run(10)?;
    raw_grow.run(10)?;
    kifu.single(10)?;
    sql.single(10)?;

    let mut lat: [Vec<Duration>; 4] = Default::default();
    for i in 0..args.single {
        for k in 0..4 {
            let which = (k + i as usize) % 4;
            lat[which].push(match which {
                0 => raw.run(1)?,
                1 => raw_grow.run(1)?,
                2 => kifu.single(1)?,
                _ => sql.single(1)?,
            });
        }
    }
    let total = |v: &Vec<Duration>| per_sec(v.len() as u64, v.iter().sum());
    let median = |v: &mut Vec<Duration>| {
        v.sort();
        v[v.len() / 2]
    };
    let (raw_rate, grow_rate) = (total(&lat[0]), total(&lat[1]));
    let (k_single, s_single) = (total(&lat[2]), total(&lat[3]));
    let [raw_med, _, k_med, s_med] =
        [median(&mut lat[0]), median(&mut lat[1]), median(&mut lat[2]), median(&mut lat[3])];

    let (mut kb_d, mut sb_d) = (Duration::ZERO, Duration::ZERO);
    for b in 0..args.batches {
        if b % 2 == 0 {
            kb_d += kifu.batched(1, args.batch_size)?;
            sb_d += sql.batched(1, args.batch_size)?;
        } else {
            sb_d += sql.batched(1, args.batch_size)?;
            kb_d += kifu.batched(1, args.batch_size)?;
        }
    }
    let events = args.batches * args.batch_size;
    let (k_batch, s_batch) = (per_sec(events, kb_d), per_sec(events, sb_d));

    let cpu = cpu_measures(&kifu, &sql, args.reps)?;
    let (k_export, k_verify, k_blake3, k_derive, s_verify) =
        (cpu.export, cpu.verify, cpu.plain, cpu.derive, cpu.sqlite);
    let raw = raw_rate;
    drop(kifu);
    drop(sql);

    let us = |d: Duration| format!("{:.0} µs", d.as_secs_f64() * 1e6);
    let mut t = Table::new();
    t.load_preset(UTF8_FULL).set_content_arrangement(ContentArrangement::Dynamic).set_header(vec![
        "measure",
        "kifu (sled)",
        "SQLite (WAL, FULL)",
        "kifu / SQLite",
        "target",
        "result",
    ]);
    let mark = |ok: bool| if ok { "PASS" } else { "MISS" };

    t.add_row(row(
        "durable appends/s, 1 event per flush",
        &rate(k_single),
        &rate(s_single),
        &ratio(k_single / s_single),
        "≥ SQLite (rate and median)",
        mark(k_single >= s_single && k_med <= s_med),
    ));
    t.add_row(row(
        "  median latency of one durable append",
        &us(k_med),
        &us(s_med),
        &ratio(s_med.as_secs_f64() / k_med.as_secs_f64()),
        "",
        "",
    ));
    t.add_row(row(
        "raw fsync/s: 128 B pwrite + fdatasync, preallocated file",
        &rate(raw),
        &format!("median {}", us(raw_med)),
        "",
        "",
        "",
    ));
    t.add_row(row("raw fsync/s: 128 B append + fdatasync, growing file", &rate(grow_rate), "", "", "", ""));
    t.add_row(row(
        "durable appends / raw fsync (rate; by median latency)",
        &format!("{}; {}", ratio(k_single / raw), ratio(raw_med.as_secs_f64() / k_med.as_secs_f64())),
        &format!("{}; {}", ratio(s_single / raw), ratio(raw_med.as_secs_f64() / s_med.as_secs_f64())),
        "",
        "kifu ≥ 0.70× (both)",
        mark(k_single >= 0.7 * raw && raw_med.as_secs_f64() >= 0.7 * k_med.as_secs_f64()),
    ));
    t.add_row(row(
        &format!("batched appends/s, {} events per flush", args.batch_size),
        &rate(k_batch),
        &rate(s_batch),
        &ratio(k_batch / s_batch),
        "≥ 500,000/s",
        mark(k_batch >= 500_000.0),
    ));
    t.add_row(row(
        "read + verify events/s (export; SQLite: SELECT, re-encode, re-hash)",
        &rate(k_export),
        &rate(s_verify),
        &ratio(k_export / s_verify),
        "",
        "",
    ));
    t.add_row(row("verify events/s in memory (chain::verify_log)", &rate(k_verify), "", "", "", ""));
    t.add_row(row("blake3 alone events/s (blake3::hash of the same bytes)", &rate(k_blake3), "", "", "", ""));
    t.add_row(row("  chain::event_hash events/s (blake3 derive_key mode)", &rate(k_derive), "", "", "", ""));
    t.add_row(row(
        "verify time / blake3 time (verify_log; export)",
        &format!("{}; {}", ratio(k_blake3 / k_verify), ratio(k_blake3 / k_export)),
        "",
        "",
        "verify_log ≤ 2.00×",
        mark(k_blake3 / k_verify <= 2.0),
    ));
    println!("{t}");
    Ok(())
}

fn row(a: &str, b: &str, c: &str, d: &str, e: &str, f: &str) -> Vec<Cell> {
    vec![
        Cell::new(a),
        Cell::new(b).set_alignment(CellAlignment::Right),
        Cell::new(c).set_alignment(CellAlignment::Right),
        Cell::new(d).set_alignment(CellAlignment::Right),
        Cell::new(e),
        Cell::new(f),
    ]
}

/// `1234567.8` → `1,234,568/s`.
fn rate(x: f64) -> String {
    let n = x.round() as u64;
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out + "/s"
}

fn ratio(x: f64) -> String {
    format!("{x:.2}×")
}

fn per_sec(n: u64, d: Duration) -> f64 {
    n as f64 / d.as_secs_f64().max(1e-9)
}

/// Deterministic, incompressible-looking payload bytes.
fn payload_bytes(n: usize) -> Vec<u8> {
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect()
}

fn actor() -> Actor {
    Actor::Player("alice".into())
}

fn header(stream: &StreamId) -> Header {
    Header::V1(HeaderV1 {
        stream: stream.clone(),
        kind: StreamKind::Opaque,
        ruleset: "opaque".into(),
        ruleset_version: 1,
        players: vec![],
        config: vec![],
        created_at: SystemClock.now(),
    })
}

/// Writes 128-byte blocks, each followed by `fdatasync`. `grow`: append to a new file (every
/// sync also commits the new size); otherwise overwrite a preallocated, synced 1 MiB file.
struct RawProbe {
    file: File,
    grow: bool,
    next: u64,
}

const PROBE_AREA: u64 = 1 << 20;

impl RawProbe {
    fn new(path: &Path, grow: bool) -> Result<Self> {
        let file = File::options()
            .create(true)
            .truncate(true)
            .read(true)
            .write(true)
            .open(path)
            .with_context(|| format!("cannot create {}", path.display()))?;
        if !grow {
            file.write_all_at(&vec![0u8; PROBE_AREA as usize], 0)?;
            file.sync_all()?;
        }
        Ok(RawProbe { file, grow, next: 0 })
    }

    fn run(&mut self, n: u64) -> Result<Duration> {
        let block = [0xA5u8; 128];
        let start = Instant::now();
        for _ in 0..n {
            let off = self.next * 128;
            let off = if self.grow { off } else { off % PROBE_AREA };
            self.file.write_all_at(&block, off)?;
            self.file.sync_data()?;
            self.next += 1;
        }
        Ok(start.elapsed())
    }
}

struct KifuBench {
    store: SledStore,
    payload: Vec<u8>,
    single_len: u64,
    batch_len: u64,
}

impl KifuBench {
    /// Opens a store and creates both streams (one event each).
    fn open(dir: &Path, payload: &[u8]) -> Result<Self> {
        let mut b = KifuBench {
            store: SledStore::open(dir, Arc::new(SystemClock))?,
            payload: payload.to_vec(),
            single_len: 0,
            batch_len: 0,
        };
        let e = vec![b.event()];
        b.single_len = b.append(STREAM, ExpectedVersion::NoStream, e)?;
        let e = vec![b.event()];
        b.batch_len = b.append(BATCH_STREAM, ExpectedVersion::NoStream, e)?;
        Ok(b)
    }

    fn append(&self, stream: &str, expected: ExpectedVersion, events: Vec<NewEvent>) -> Result<u64> {
        let stream = StreamId::new(stream)?;
        let a = self.store.append(AppendRequest { create: Some(header(&stream)), stream, expected, events })?;
        Ok(a.head.len)
    }

    fn event(&self) -> NewEvent {
        NewEvent { actor: actor(), payload: self.payload.clone(), idempotency: None }
    }

    /// `n` durable appends of one event each, with an exact expected version.
    fn single(&mut self, n: u64) -> Result<Duration> {
        let start = Instant::now();
        for _ in 0..n {
            let e = vec![self.event()];
            self.single_len = self.append(STREAM, ExpectedVersion::Exact(self.single_len), e)?;
        }
        Ok(start.elapsed())
    }

    /// `batches` appends of `size` events in one request (one transaction, one flush).
    fn batched(&mut self, batches: u64, size: u64) -> Result<Duration> {
        let mut total = Duration::ZERO;
        for _ in 0..batches {
            let events: Vec<NewEvent> = (0..size).map(|_| self.event()).collect();
            let start = Instant::now();
            self.batch_len = self.append(BATCH_STREAM, ExpectedVersion::Exact(self.batch_len), events)?;
            total += start.elapsed();
        }
        Ok(total)
    }
}

/// Events per second of the CPU-bound measurements over the batch stream (best of `reps`,
/// interleaved so that a slow moment of the machine hits all of them).
struct Cpu {
    /// `Store::export`: read every event from sled and verify the chain.
    export: f64,
    /// `chain::verify_log` over the events held in memory.
    verify: f64,
    /// Plain `blake3::hash` over the same record bodies.
    plain: f64,
    /// `chain::event_hash` (blake3 in derive_key mode, as the chain hashes) over them.
    derive: f64,
    /// SQLite: SELECT the rows, re-encode, re-hash and check the chain.
    sqlite: f64,
}

fn cpu_measures(kifu: &KifuBench, sql: &SqliteBench, reps: u32) -> Result<Cpu> {
    let stream = StreamId::new(BATCH_STREAM)?;
    let log = kifu.store.export(&stream)?;
    let n = log.events.len() as u64;
    let mut best = [Duration::MAX; 5];
    for _ in 0..reps.max(1) {
        let start = Instant::now();
        black_box(kifu.store.export(&stream)?);
        best[0] = best[0].min(start.elapsed());

        let (h, e) = (log.header_bytes.clone(), log.events.clone());
        let start = Instant::now();
        let v = chain::verify_log(h, e)?;
        best[1] = best[1].min(start.elapsed());
        if v.head != log.head {
            bail!("verify_log disagrees with export");
        }
        drop(v);

        let start = Instant::now();
        for stored in &log.events {
            black_box(blake3::hash(&stored[..stored.len() - 32]));
        }
        best[2] = best[2].min(start.elapsed());

        let start = Instant::now();
        for stored in &log.events {
            black_box(chain::event_hash(&stored[..stored.len() - 32]));
        }
        best[3] = best[3].min(start.elapsed());

        let start = Instant::now();
        let rows = sql.read_verify()?;
        best[4] = best[4].min(start.elapsed());
        if rows != n {
            bail!("SQLite holds {rows} events, kifu {n}");
        }
    }
    Ok(Cpu {
        export: per_sec(n, best[0]),
        verify: per_sec(n, best[1]),
        plain: per_sec(n, best[2]),
        derive: per_sec(n, best[3]),
        sqlite: per_sec(n, best[4]),
    })
}

/// The same hash-chained rows in SQLite: one row per event, the columns of the envelope plus
/// its hash, computed over the same postcard envelope bytes as kifu's.
struct SqliteBench {
    conn: Connection,
    payload: Vec<u8>,
    single_len: u64,
    batch_len: u64,
}

impl SqliteBench {
    fn open(path: &Path, payload: &[u8]) -> Result<Self> {
        let conn = Connection::open(path)?;
        let mode: String = conn.query_row("PRAGMA journal_mode=WAL", [], |r| r.get(0))?;
        if mode != "wal" {
            bail!("SQLite refused WAL mode (got {mode})");
        }
        conn.execute_batch(
            "PRAGMA synchronous=FULL;
             CREATE TABLE events (
                 stream TEXT NOT NULL,
                 seq INTEGER NOT NULL,
                 time INTEGER NOT NULL,
                 actor TEXT NOT NULL,
                 payload BLOB NOT NULL,
                 prev BLOB NOT NULL,
                 hash BLOB NOT NULL,
                 PRIMARY KEY (stream, seq)
             ) WITHOUT ROWID;",
        )?;
        let sync: i64 = conn.query_row("PRAGMA synchronous", [], |r| r.get(0))?;
        if sync != 2 {
            bail!("SQLite synchronous is {sync}, not FULL (2)");
        }
        let mut b = SqliteBench { conn, payload: payload.to_vec(), single_len: 0, batch_len: 0 };
        // One event in each stream, as KifuBench::open creates them.
        b.single(1)?;
        b.batched(1, 1)?;
        Ok(b)
    }

    /// One transaction: reads the head, checks the expected length, appends `count` rows.
    fn append_tx(&mut self, stream: &str, expected: u64, count: u64) -> Result<()> {
        let payload = self.payload.as_slice();
        let tx = self.conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        {
            let head: Option<(u64, Vec<u8>)> = tx
                .prepare_cached("SELECT seq, hash FROM events WHERE stream = ?1 ORDER BY seq DESC LIMIT 1")?
                .query_row(params![stream], |r| Ok((r.get(0)?, r.get(1)?)))
                .optional()?;
            let (mut len, mut prev) = match head {
                Some((seq, h)) => (seq + 1, Hash32(h.as_slice().try_into()?)),
                None => (0, chain::header_hash(stream.as_bytes())),
            };
            if len != expected {
                bail!("wrong expected version: {expected} but the stream holds {len}");
            }
            let now = SystemClock.now();
            let actor = actor();
            let actor_text = actor.to_string();
            let mut insert = tx.prepare_cached(
                "INSERT INTO events (stream, seq, time, actor, payload, prev, hash)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            )?;
            for _ in 0..count {
                let env = Envelope::V1(EnvelopeV1 {
                    stream: Cow::Borrowed(stream),
                    seq: len,
                    recorded_at: now,
                    actor: actor.clone(),
                    idempotency: None,
                    payload: Cow::Borrowed(payload),
                    prev,
                });
                let (_, hash) = chain::seal_event(&env)?;
                insert.execute(params![stream, len, now.0, actor_text, payload, &prev.0[..], &hash.0[..]])?;
                prev = hash;
                len += 1;
            }
        }
        tx.commit()?;
        Ok(())
    }

    fn single(&mut self, n: u64) -> Result<Duration> {
        let start = Instant::now();
        for _ in 0..n {
            self.append_tx(STREAM, self.single_len, 1)?;
            self.single_len += 1;
        }
        Ok(start.elapsed())
    }

    fn batched(&mut self, batches: u64, size: u64) -> Result<Duration> {
        let start = Instant::now();
        for _ in 0..batches {
            self.append_tx(BATCH_STREAM, self.batch_len, size)?;
            self.batch_len += size;
        }
        Ok(start.elapsed())
    }

    /// Reads the batch stream in order, re-encodes each row's envelope, re-hashes it and checks
    /// the stored hash, the sequence and the link: what kifu's export does.
    fn read_verify(&self) -> Result<u64> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT seq, time, actor, payload, prev, hash FROM events
             WHERE stream = ?1 ORDER BY seq",
        )?;
        let mut rows = stmt.query(params![BATCH_STREAM])?;
        let mut head = Head { len: 0, hash: chain::header_hash(BATCH_STREAM.as_bytes()) };
        let mut buf = Vec::with_capacity(256);
        while let Some(r) = rows.next()? {
            let seq: u64 = r.get(0)?;
            let actor: Actor = r.get_ref(2)?.as_str()?.parse()?;
            let payload = r.get_ref(3)?.as_blob()?;
            let prev = Hash32(r.get_ref(4)?.as_blob()?.try_into()?);
            let stored = Hash32(r.get_ref(5)?.as_blob()?.try_into()?);
            if seq != head.len || prev != head.hash {
                bail!("SQLite chain broken at {seq}");
            }
            let env = Envelope::V1(EnvelopeV1 {
                stream: Cow::Borrowed(BATCH_STREAM),
                seq,
                recorded_at: Timestamp(r.get(1)?),
                actor,
                idempotency: None,
                payload: Cow::Borrowed(payload),
                prev,
            });
            buf.clear();
            let body = postcard::to_extend(&env, buf)?;
            let hash = chain::event_hash(&body);
            buf = body;
            if hash != stored {
                bail!("SQLite row {seq}: hash mismatch");
            }
            head = Head { len: seq + 1, hash };
        }
        Ok(head.len)
    }
}

/// The ways of writing one append to sled that `--breakdown` compares.
#[derive(Clone, Copy)]
enum Shape {
    /// The layout before chunking: a transaction over 4 trees (read head, insert event, insert head).
    FourTreeTx,
    /// One tree, a transaction inserting the chunk and a head record.
    TwoKeyTx,
    /// One tree, `apply_batch` of the chunk and a head record.
    TwoKeyBatch,
    /// One tree, a transaction inserting only the chunk.
    OneKeyTx,
    /// One tree, `Tree::insert` of the chunk (the head derived from it): what kifu does.
    Insert,
}

impl Shape {
    const ALL: [Shape; 5] = [Shape::FourTreeTx, Shape::TwoKeyTx, Shape::TwoKeyBatch, Shape::OneKeyTx, Shape::Insert];

    fn name(self) -> &'static str {
        match self {
            Shape::FourTreeTx => "4-tree transaction (previous layout)",
            Shape::TwoKeyTx => "1 tree, transaction: chunk + head key",
            Shape::TwoKeyBatch => "1 tree, apply_batch: chunk + head key",
            Shape::OneKeyTx => "1 tree, transaction: chunk only",
            Shape::Insert => "1 tree, insert: chunk only (kifu)",
        }
    }
}

/// A sled database written in one [`Shape`], with its `db` file for `fdatasync`.
struct RawSled {
    shape: Shape,
    db: sled::Db,
    trees: Vec<sled::Tree>,
    data: File,
}

impl RawSled {
    fn open(path: &Path, shape: Shape) -> Result<Self> {
        let db = sled::Config::new().path(path).open()?;
        let names: &[&str] = match shape {
            Shape::FourTreeTx => &["headers", "heads", "events", "idempotency"],
            _ => &["kifu"],
        };
        let trees = names.iter().map(|n| db.open_tree(n)).collect::<Result<Vec<_>, _>>()?;
        let data = File::options().read(true).open(path.join("db"))?;
        Ok(RawSled { shape, db, trees, data })
    }

    /// Writes `chunks` (key, value) and a head record the way the shape does.
    fn write(&self, chunks: &[(Vec<u8>, Vec<u8>)]) -> Result<()> {
        use sled::transaction::ConflictableTransactionError as Cte;
        use sled::Transactional;
        let head = [9u8; 40];
        let err = |e| anyhow::anyhow!("{e:?}");
        let t = &self.trees;
        match self.shape {
            Shape::FourTreeTx => (&t[0], &t[1], &t[2], &t[3])
                .transaction(|(_h, hd, e, _i)| {
                    let _ = hd.get(b"s")?;
                    for (k, v) in chunks {
                        e.insert(k.as_slice(), v.as_slice())?;
                    }
                    hd.insert(b"s", &head[..])?;
                    Ok::<_, Cte<()>>(())
                })
                .map_err(err),
            Shape::TwoKeyTx | Shape::OneKeyTx => t[0]
                .transaction(|tx| {
                    for (k, v) in chunks {
                        tx.insert(k.as_slice(), v.as_slice())?;
                    }
                    if matches!(self.shape, Shape::TwoKeyTx) {
                        tx.insert(b"D-s", &head[..])?;
                    }
                    Ok::<_, Cte<()>>(())
                })
                .map_err(err),
            Shape::TwoKeyBatch => {
                let mut b = sled::Batch::default();
                for (k, v) in chunks {
                    b.insert(k.as_slice(), v.as_slice());
                }
                b.insert(b"D-s", &head[..]);
                Ok(t[0].apply_batch(b)?)
            }
            // One chunk: a plain insert; several: an atomic batch, as `SledStore` does.
            Shape::Insert => match chunks {
                [(k, v)] => Ok(t[0].insert(k.as_slice(), v.as_slice()).map(drop)?),
                _ => {
                    let mut b = sled::Batch::default();
                    for (k, v) in chunks {
                        b.insert(k.as_slice(), v.as_slice());
                    }
                    Ok(t[0].apply_batch(b)?)
                }
            },
        }
    }

    /// One durable write: (write, flush, fdatasync) times.
    fn durable(&self, chunks: &[(Vec<u8>, Vec<u8>)]) -> Result<[Duration; 3]> {
        let t0 = Instant::now();
        self.write(chunks)?;
        let t1 = Instant::now();
        self.db.flush()?;
        let t2 = Instant::now();
        self.data.sync_data()?;
        Ok([t1 - t0, t2 - t1, t2.elapsed()])
    }
}

/// `E ‖ len ‖ stream ‖ u64be seq`, the chunk key.
fn chunk_key(stream: &str, seq: u64) -> Vec<u8> {
    let mut k = vec![b'E', stream.len() as u8];
    k.extend_from_slice(stream.as_bytes());
    k.extend_from_slice(&seq.to_be_bytes());
    k
}

/// Times the parts of a durable append with sled used directly (the write, `Db::flush`,
/// `fdatasync` of the `db` file) for each [`Shape`], interleaved one append at a time with a
/// raw pwrite + fdatasync on a preallocated file; then the same for 1,000-event batches, with
/// `SledStore::append` of the same batch for comparison.
fn breakdown(dir: &Path, args: &Args) -> Result<()> {
    let sleds = Shape::ALL
        .iter()
        .enumerate()
        .map(|(i, &s)| RawSled::open(&dir.join(format!("sled-{i}")), s))
        .collect::<Result<Vec<_>>>()?;
    let value = vec![7u8; 4 + 100 + 60 + 32];
    let n = args.single;
    let mut raw = RawProbe::new(&dir.join("fsync-probe"), false)?;
    let mut raw_t = Duration::ZERO;
    let mut parts = vec![[Duration::ZERO; 3]; sleds.len()];
    for i in 0..n {
        raw_t += raw.run(1)?;
        for k in 0..sleds.len() {
            let which = (k + i as usize) % sleds.len();
            let d = sleds[which].durable(&[(chunk_key(STREAM, i), value.clone())])?;
            for (p, d) in parts[which].iter_mut().zip(d) {
                *p += d;
            }
        }
    }
    let us = |d: Duration| format!("{:.1}", d.as_secs_f64() * 1e6 / n as f64);
    let raw_us = raw_t.as_secs_f64() * 1e6 / n as f64;
    let mut t = Table::new();
    t.load_preset(UTF8_FULL).set_header(vec![
        "one durable 1-event append",
        "write µs",
        "Db::flush µs",
        "fdatasync µs",
        "total µs",
        "raw / total",
    ]);
    for (s, p) in sleds.iter().zip(&parts) {
        let total: Duration = p.iter().sum();
        t.add_row(vec![
            s.shape.name().to_string(),
            us(p[0]),
            us(p[1]),
            us(p[2]),
            us(total),
            ratio(raw_us / (total.as_secs_f64() * 1e6 / n as f64)),
        ]);
    }
    t.add_row(vec![
        "raw pwrite + fdatasync (preallocated)".to_string(),
        String::new(),
        String::new(),
        String::new(),
        format!("{raw_us:.1}"),
        String::new(),
    ]);
    println!("{t}");

    // Batches: the old 1,000-key transaction against the chunked writes.
    let payload = payload_bytes(args.payload);
    let size = args.batch_size;
    let mut kifu = KifuBench::open(&dir.join("kifu"), &payload)?;
    let mut seal_t = Duration::ZERO;
    let mut store_t = Duration::ZERO;
    let mut old = vec![[Duration::ZERO; 3]; sleds.len()];
    let mut new = vec![[Duration::ZERO; 3]; sleds.len()];
    let mut prev = Hash32::default();
    let mut seq = 0u64;
    for b in 0..args.batches {
        let t0 = Instant::now();
        let now = SystemClock.now();
        let mut sealed = Vec::with_capacity(size as usize);
        for _ in 0..size {
            let env = Envelope::V1(EnvelopeV1 {
                stream: Cow::Borrowed(BATCH_STREAM),
                seq,
                recorded_at: now,
                actor: actor(),
                idempotency: None,
                payload: Cow::Borrowed(&payload),
                prev,
            });
            let (stored, hash) = chain::seal_event(&env)?;
            sealed.push((seq, stored));
            prev = hash;
            seq += 1;
        }
        seal_t += t0.elapsed();
        let per_event: Vec<_> = sealed.iter().map(|(s, v)| (chunk_key(BATCH_STREAM, *s), v.clone())).collect();
        let mut chunks: Vec<(Vec<u8>, Vec<u8>)> = Vec::new();
        for (s, v) in &sealed {
            match chunks.last_mut() {
                Some((_, c)) if c.len() + 4 + v.len() <= kifu::store::sled_store::CHUNK_BYTES => {
                    c.extend_from_slice(&(v.len() as u32).to_le_bytes());
                    c.extend_from_slice(v);
                }
                _ => {
                    let mut c = (v.len() as u32).to_le_bytes().to_vec();
                    c.extend_from_slice(v);
                    chunks.push((chunk_key(BATCH_STREAM, *s), c));
                }
            }
        }
        for k in 0..sleds.len() {
            let which = (k + b as usize) % sleds.len();
            // The old per-event keys only in the previous layout's shape, to keep the run short.
            if matches!(sleds[which].shape, Shape::FourTreeTx) {
                let d = sleds[which].durable(&per_event)?;
                old[which].iter_mut().zip(d).for_each(|(p, d)| *p += d);
            }
            let d = sleds[which].durable(&chunks)?;
            new[which].iter_mut().zip(d).for_each(|(p, d)| *p += d);
        }
        store_t += kifu.batched(1, size)?;
    }
    let ms = |d: Duration| format!("{:.2}", d.as_secs_f64() * 1e3 / args.batches as f64);
    let evs = |d: Duration| rate(per_sec(args.batches * size, d));
    let mut t = Table::new();
    t.load_preset(UTF8_FULL).set_header(vec![
        format!("one durable {size}-event batch"),
        "write ms".to_string(),
        "flush ms".to_string(),
        "fdatasync ms".to_string(),
        "+ seal: events/s".to_string(),
    ]);
    t.add_row(vec![
        "seal (postcard encode + blake3)".to_string(),
        ms(seal_t),
        String::new(),
        String::new(),
        evs(seal_t),
    ]);
    let mut add = |name: String, p: &[Duration; 3]| {
        t.add_row(vec![name, ms(p[0]), ms(p[1]), ms(p[2]), evs(seal_t + p.iter().sum::<Duration>())]);
    };
    add(format!("{}, one key per event", Shape::FourTreeTx.name()), &old[0]);
    for (s, p) in sleds.iter().zip(&new) {
        add(format!("{}, {}-byte chunks", s.shape.name(), kifu::store::sled_store::CHUNK_BYTES), p);
    }
    t.add_row(vec![
        "SledStore::append of the same batch".to_string(),
        ms(store_t),
        String::new(),
        String::new(),
        evs(store_t),
    ]);
    println!("{t}");
    Ok(())
}
