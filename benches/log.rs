//! Criterion benchmarks of the event log: durable single appends and 1,000-event batches into a
//! sled store on disk, and chain verification (`chain::verify_log`, `Store::export`) against
//! blake3 alone over the same bytes (plain `blake3::hash`, and the chain's derive_key mode).
//! `tools/bench-log` compares the same numbers with SQLite.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::hint::black_box;
use std::sync::Arc;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};

use kifu::clock::SystemClock;
use kifu::log::chain;
use kifu::log::envelope::{Actor, Header, StreamId, Timestamp};
use kifu::store::sled_store::SledStore;
use kifu::store::{AppendRequest, ExpectedVersion, NewEvent, Store};

const PAYLOAD: usize = 100;
const BATCH: u64 = 1_000;
const VERIFY_EVENTS: u64 = 10_000;

fn payload() -> Vec<u8> {
    (0..PAYLOAD).map(|i| (i as u8).wrapping_mul(31) ^ 0x5a).collect()
}

fn event() -> NewEvent {
    NewEvent { actor: Actor::Player("alice".into()), payload: payload(), idempotency: None }
}

fn request(stream: &StreamId, len: Option<u64>, events: Vec<NewEvent>) -> AppendRequest {
    AppendRequest {
        stream: stream.clone(),
        expected: len.map_or(ExpectedVersion::NoStream, ExpectedVersion::Exact),
        create: Some(Header::opaque(stream.clone(), Timestamp(0))),
        events,
    }
}

/// A durable store in a fresh directory on disk under the target directory.
fn store_on_disk() -> (tempfile::TempDir, SledStore) {
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let store = SledStore::open(dir.path(), Arc::new(SystemClock)).unwrap();
    (dir, store)
}

fn appends(c: &mut Criterion) {
    let mut g = c.benchmark_group("append");
    g.sample_size(10).warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(3));

    let (_dir, store) = store_on_disk();
    let stream = StreamId::new("single").unwrap();
    let mut len = store.append(request(&stream, None, vec![event()])).unwrap().head.len;
    g.throughput(Throughput::Elements(1));
    g.bench_function("durable single event", |b| {
        b.iter_custom(|iters| {
            let start = Instant::now();
            for _ in 0..iters {
                len = store.append(request(&stream, Some(len), vec![event()])).unwrap().head.len;
            }
            start.elapsed()
        })
    });

    let stream = StreamId::new("batch").unwrap();
    let mut len = store.append(request(&stream, None, vec![event()])).unwrap().head.len;
    g.throughput(Throughput::Elements(BATCH));
    g.bench_function("durable batch of 1000 events", |b| {
        b.iter_batched(
            || (0..BATCH).map(|_| event()).collect::<Vec<_>>(),
            |events| {
                len = store.append(request(&stream, Some(len), events)).unwrap().head.len;
            },
            BatchSize::PerIteration,
        )
    });
    g.finish();
}

fn verification(c: &mut Criterion) {
    let (_dir, store) = store_on_disk();
    let stream = StreamId::new("verify").unwrap();
    let mut len = None;
    while len.unwrap_or(0) < VERIFY_EVENTS {
        let events = (0..BATCH).map(|_| event()).collect();
        len = Some(store.append(request(&stream, len, events)).unwrap().head.len);
    }
    let log = store.export(&stream).unwrap();
    let n = log.events.len() as u64;

    let mut g = c.benchmark_group("verify");
    g.sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .throughput(Throughput::Elements(n));
    g.bench_function(format!("chain::verify_log {n} events"), |b| {
        b.iter_batched(
            || (log.header_bytes.clone(), log.events.clone()),
            |(h, e)| chain::verify_log(h, e).unwrap(),
            BatchSize::LargeInput,
        )
    });
    g.bench_function(format!("blake3::hash alone {n} events"), |b| {
        b.iter(|| {
            for stored in &log.events {
                black_box(blake3::hash(&stored[..stored.len() - 32]));
            }
        })
    });
    g.bench_function(format!("chain::event_hash alone {n} events"), |b| {
        b.iter(|| {
            for stored in &log.events {
                black_box(chain::event_hash(&stored[..stored.len() - 32]));
            }
        })
    });
    g.bench_function(format!("Store::export {n} events"), |b| b.iter(|| store.export(&stream).unwrap()));
    g.finish();
}

criterion_group!(benches, appends, verification);
criterion_main!(benches);
