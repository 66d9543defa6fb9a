//! Concurrent appenders with expected versions, in threads and in two processes: no fork, no gap,
//! every acknowledged event present exactly once.

use std::collections::BTreeSet;
use std::sync::Arc;

use kifu::clock::SteppingClock;
use kifu::log::chain;
use kifu::log::envelope::{Actor, IdempotencyId, StreamId, Timestamp};
use kifu::store::sled_store::SledStore;
use kifu::store::{AppendRequest, ExpectedVersion, NewEvent, Store, StoreError};

use crate::support::{kifu_cmd, opaque_header, TestEnv};

/// Every event's payload, in sequence order, after verifying the whole chain.
fn payloads(store: &impl Store, stream: &StreamId) -> Vec<String> {
    let log = store.export(stream).expect("chain verifies");
    log.events
        .iter()
        .map(|e| String::from_utf8(chain::open_event(e).unwrap().0.v1().payload.to_vec()).unwrap())
        .collect()
}

#[test]
fn threads_appending_with_expected_versions_never_fork() {
    let env = TestEnv::new();
    let store = Arc::new(SledStore::open(&env.data(), Arc::new(SteppingClock::fixed())).unwrap());
    let stream = StreamId::new("contended").unwrap();
    let header = opaque_header("contended", Timestamp(0));
    let (threads, per_thread) = (4, 40);
    let handles: Vec<_> = (0..threads)
        .map(|t| {
            let (store, stream, header) = (store.clone(), stream.clone(), header.clone());
            std::thread::spawn(move || {
                let mut acks = Vec::new();
                let mut conflicts = 0;
                for i in 0..per_thread {
                    let payload = format!("t{t}-{i}");
                    loop {
                        let expected = match store.head(&stream) {
                            Ok(h) => ExpectedVersion::Exact(h.len),
                            Err(StoreError::UnknownStream(_)) => ExpectedVersion::NoStream,
                            Err(e) => panic!("{e}"),
                        };
                        let req = AppendRequest {
                            stream: stream.clone(),
                            expected,
                            create: Some(header.clone()),
                            events: vec![NewEvent {
                                actor: Actor::System,
                                payload: payload.clone().into_bytes(),
                                idempotency: None,
                            }],
                        };
                        match store.append(req) {
                            Ok(a) => {
                                acks.push((a.first_seq, payload));
                                break;
                            }
                            Err(StoreError::WrongExpectedVersion { .. }) => conflicts += 1,
                            Err(e) => panic!("{e}"),
                        }
                    }
                }
                (acks, conflicts)
            })
        })
        .collect();
    let mut acked = Vec::new();
    for h in handles {
        acked.extend(h.join().unwrap().0);
    }
    let got = payloads(&*store, &stream);
    assert_eq!(got.len(), threads * per_thread, "no gap and no lost event");
    for (seq, payload) in &acked {
        assert_eq!(&got[*seq as usize], payload, "acknowledged event {seq} is where it was acknowledged");
    }
    let distinct: BTreeSet<_> = got.iter().collect();
    assert_eq!(distinct.len(), got.len(), "no event recorded twice");
}

#[test]
fn two_processes_taking_turns_never_fork() {
    let env = TestEnv::new();
    let count = 25;
    let children: Vec<_> = ["a", "b"]
        .iter()
        .map(|w| {
            kifu_cmd(&env.data())
                .args(["debug", "append-loop", "shared", "--count", &count.to_string(), "--writer", w, "--reopen"])
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let mut acks = Vec::new();
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "writer failed: {}", String::from_utf8_lossy(&out.stderr));
        for line in String::from_utf8(out.stdout).unwrap().lines() {
            let parts: Vec<_> = line.split(' ').collect();
            assert_eq!(parts[0], "ack");
            acks.push((parts[1].to_string(), parts[2].parse::<u64>().unwrap()));
        }
    }
    assert_eq!(acks.len(), 2 * count);
    let store = env.store();
    let got = payloads(&store, &StreamId::new("shared").unwrap());
    assert_eq!(got.len(), 2 * count);
    let seqs: BTreeSet<_> = acks.iter().map(|(_, s)| *s).collect();
    assert_eq!(seqs.len(), 2 * count, "every acknowledged sequence number is distinct");
    for w in ["a", "b"] {
        let mine: Vec<_> = got.iter().filter(|p| p.starts_with(&format!("{w}-"))).cloned().collect();
        let expected: Vec<_> = (0..count).map(|i| format!("{w}-{i}")).collect();
        assert_eq!(mine, expected, "writer {w}'s events are all there, in its order");
    }
}

#[test]
fn a_retried_append_is_recorded_once() {
    let store = SledStore::temporary(Arc::new(SteppingClock::fixed())).unwrap();
    let stream = StreamId::new("retry").unwrap();
    let req = |expected| AppendRequest {
        stream: stream.clone(),
        expected,
        create: Some(opaque_header("retry", Timestamp(0))),
        events: vec![NewEvent {
            actor: Actor::Organizer("ora".into()),
            payload: b"table 4: alice 2-1 bob".to_vec(),
            idempotency: Some(IdempotencyId::from_key("round-1-table-4")),
        }],
    };
    let first = store.append(req(ExpectedVersion::NoStream)).unwrap();
    assert!(!first.retried);
    // The client never saw the acknowledgement and retries with its stale expectation.
    let again = store.append(req(ExpectedVersion::NoStream)).unwrap();
    assert!(again.retried);
    assert_eq!(again.first_seq, first.first_seq);
    assert_eq!(store.head(&stream).unwrap().len, 1);
    // Reusing the id for a different event is refused, and writes nothing.
    let mut other = req(ExpectedVersion::Any);
    other.events[0].payload = b"table 4: bob 2-0 alice".to_vec();
    let err = store.append(other).unwrap_err();
    assert!(matches!(err, StoreError::IdempotencyConflict { seq: 0, .. }), "{err}");
    assert_eq!(store.head(&stream).unwrap().len, 1);
}

#[test]
fn a_batch_is_all_or_nothing() {
    let store = SledStore::temporary(Arc::new(SteppingClock::fixed())).unwrap();
    let a = StreamId::new("a").unwrap();
    let b = StreamId::new("b").unwrap();
    let mk = |s: &StreamId, expected| AppendRequest {
        stream: s.clone(),
        expected,
        create: Some(opaque_header(s.as_str(), Timestamp(0))),
        events: vec![NewEvent { actor: Actor::System, payload: b"x".to_vec(), idempotency: None }],
    };
    store.append(mk(&b, ExpectedVersion::NoStream)).unwrap();
    // The second request's expectation is wrong, so the first (creating `a`) must not land either.
    let err =
        store.append_batch(vec![mk(&a, ExpectedVersion::NoStream), mk(&b, ExpectedVersion::Exact(5))]).unwrap_err();
    assert!(matches!(err, StoreError::WrongExpectedVersion { current: Some(1), .. }), "{err}");
    assert!(matches!(store.head(&a), Err(StoreError::UnknownStream(_))));
    assert_eq!(store.head(&b).unwrap().len, 1);
}

/// Group commit: 64 live games appending durably at once share flushes, so the store writes far
/// more appends than it flushes, while one writer alone needs one flush per append. Every
/// acknowledged event is there after the store is reopened.
#[test]
fn sixty_four_writers_share_group_commits() {
    let env = TestEnv::new();
    let store = Arc::new(SledStore::open(&env.data(), Arc::new(SteppingClock::fixed())).unwrap());
    let (writers, per_writer) = (64usize, 12usize);
    let streams: Vec<StreamId> = (0..writers).map(|w| StreamId::new(&format!("live-{w}")).unwrap()).collect();
    let event = |i: usize| NewEvent { actor: Actor::System, payload: format!("e{i}").into_bytes(), idempotency: None };
    let creates = streams
        .iter()
        .map(|s| AppendRequest {
            stream: s.clone(),
            expected: ExpectedVersion::NoStream,
            create: Some(opaque_header(s.as_str(), Timestamp(0))),
            events: vec![],
        })
        .collect();
    store.append_batch(creates).unwrap();

    // One writer alone: every append waits for its own flush.
    let (w0, f0) = store.commit_stats();
    for i in 0..per_writer {
        let req = AppendRequest {
            stream: streams[0].clone(),
            expected: ExpectedVersion::Exact(i as u64),
            create: None,
            events: vec![event(i)],
        };
        store.append(req).unwrap();
    }
    let (w1, f1) = store.commit_stats();
    assert_eq!((w1 - w0, f1 - f0), (per_writer as u64, per_writer as u64), "one writer: one flush per append");

    let barrier = Arc::new(std::sync::Barrier::new(writers));
    let handles: Vec<_> = streams
        .iter()
        .cloned()
        .enumerate()
        .map(|(w, stream)| {
            let (store, barrier) = (store.clone(), barrier.clone());
            std::thread::spawn(move || {
                let base = if w == 0 { per_writer } else { 0 };
                barrier.wait();
                (0..per_writer)
                    .map(|i| {
                        let seq = (base + i) as u64;
                        let req = AppendRequest {
                            stream: stream.clone(),
                            expected: ExpectedVersion::Exact(seq),
                            create: None,
                            events: vec![event(base + i)],
                        };
                        store.append(req).unwrap().first_seq
                    })
                    .collect::<Vec<u64>>()
            })
        })
        .collect();
    let acked: Vec<Vec<u64>> = handles.into_iter().map(|h| h.join().unwrap()).collect();
    let (w2, f2) = store.commit_stats();
    let (appends, flushes) = (w2 - w1, f2 - f1);
    assert_eq!(appends, (writers * per_writer) as u64);
    // How many appends a flush covers depends on how long the disk takes to sync (the benchmark
    // tools/bench-live measures it); here it is enough that flushes are clearly shared.
    assert!(
        flushes * 4 <= appends * 3,
        "64 writers: {flushes} flushes for {appends} appends; group commit should cover several appends per flush"
    );

    // Every acknowledgement survives a reopen, in order, with nothing else.
    drop(store);
    let store = SledStore::open(&env.data(), Arc::new(SteppingClock::fixed())).unwrap();
    for (w, seqs) in acked.iter().enumerate() {
        let base = if w == 0 { per_writer } else { 0 };
        assert_eq!(*seqs, (base as u64..(base + per_writer) as u64).collect::<Vec<_>>());
        let got = payloads(&store, &streams[w]);
        let want: Vec<String> = (0..base + per_writer).map(|i| format!("e{i}")).collect();
        assert_eq!(got, want, "stream {w}");
    }
}
