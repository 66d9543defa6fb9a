//! The `Store` trait's contract, run against every backend through one helper
//! ([`for_every_backend`]): sled (a temporary store) and NATS JetStream (a fresh namespace in
//! the 3-node test cluster, see `support::nats_url`). Identical requests under the fixed clock
//! must leave identical heads on both. Then what only the cluster has: two stores (two
//! servers) over one namespace, and its bad inputs.

use std::sync::Arc;
use std::time::Duration;

use kifu::clock::SteppingClock;
use kifu::log::chain;
use kifu::log::envelope::{Actor, IdempotencyId, StreamId, Timestamp};
use kifu::store::nats_store::{NatsStore, NatsUrl};
use kifu::store::sled_store::SledStore;
use kifu::store::{AppendRequest, ExpectedVersion, Imported, NewEvent, Store, StoreError};

use crate::support::{nats_namespace, opaque_header};

/// Runs `test` against each backend; returns what each returned, sled's first.
fn for_every_backend<T>(test: impl Fn(&dyn Store) -> T) -> Vec<T> {
    let sled = SledStore::temporary(Arc::new(SteppingClock::fixed())).unwrap();
    let ns = nats_namespace();
    let nats = ns.store();
    vec![test(&sled), test(&nats)]
}

fn sid(s: &str) -> StreamId {
    StreamId::new(s).unwrap()
}

fn ev(text: &str) -> NewEvent {
    NewEvent { actor: Actor::System, payload: text.as_bytes().to_vec(), idempotency: None }
}

fn ev_id(text: &str, key: &str) -> NewEvent {
    NewEvent { idempotency: Some(IdempotencyId::from_key(key)), ..ev(text) }
}

fn req(stream: &str, expected: ExpectedVersion, events: Vec<NewEvent>) -> AppendRequest {
    AppendRequest { stream: sid(stream), expected, create: Some(opaque_header(stream, Timestamp(0))), events }
}

/// A stored event's payload, as text.
fn text(stored: &[u8]) -> String {
    String::from_utf8(chain::open_event(stored).unwrap().0.v1().payload.to_vec()).unwrap()
}

fn payloads(store: &dyn Store, stream: &str) -> Vec<String> {
    let log = store.export(&sid(stream)).expect("the chain verifies");
    log.events.iter().map(|e| text(e)).collect()
}

#[test]
fn appends_reads_and_heads_agree_across_backends() {
    let heads = for_every_backend(|store| {
        let a = store.append(req("g.one", ExpectedVersion::NoStream, vec![ev("a"), ev("b")])).unwrap();
        assert_eq!((a.first_seq, a.head.len, a.retried), (0, 2, false));
        let b = store.append(req("g.one", ExpectedVersion::Exact(2), vec![ev("c")])).unwrap();
        assert_eq!((b.first_seq, b.head.len), (2, 3));
        let c = store.append(req("g.one", ExpectedVersion::Any, vec![ev("d"), ev("e"), ev("f")])).unwrap();
        assert_eq!(c.first_seq, 3);
        // A stream created with no event has the header hash as its head.
        let empty = store.append(req("empty", ExpectedVersion::NoStream, vec![])).unwrap();
        assert_eq!(empty.head.len, 0);
        assert_eq!(store.head(&sid("empty")).unwrap(), empty.head);
        let id = sid("g.one");
        assert_eq!(store.head(&id).unwrap(), c.head);
        assert_eq!(payloads(store, "g.one"), ["a", "b", "c", "d", "e", "f"]);
        let all = store.read(&id, 0, 100).unwrap();
        // Each append returned its events exactly as a read returns them (a live game folds
        // these instead of reading back); an append of no event returned none.
        assert_eq!([a.stored, b.stored, c.stored].concat(), all);
        assert!(empty.stored.is_empty());
        for from in 0..=7 {
            for to in from..=8 {
                let (f, t) = (from.min(6) as usize, to.min(6) as usize);
                assert_eq!(store.read(&id, from, to).unwrap(), all[f..t], "read({from}, {to})");
            }
        }
        let (bytes, header) = store.header(&id).unwrap();
        assert_eq!(header.stream(), &id);
        assert_eq!(chain::header_hash(&bytes), chain::verify_log(bytes.clone(), vec![]).unwrap().head.hash);
        (c.head, empty.head)
    });
    assert_eq!(heads[0], heads[1], "the same requests under the same clock leave the same chain");
}

/// A note into a stream of another kind (a game) is refused by every backend, writing nothing.
#[test]
fn an_append_of_another_kind_to_an_existing_stream_is_refused() {
    for_every_backend(crate::stream_kinds::check_kind_refusal);
}

#[test]
fn refusals_write_nothing() {
    for_every_backend(|store| {
        store.append(req("r", ExpectedVersion::NoStream, vec![ev("a")])).unwrap();
        let before = store.head(&sid("r")).unwrap();
        let err = store.append(req("r", ExpectedVersion::NoStream, vec![ev("x")])).unwrap_err();
        assert!(matches!(err, StoreError::WrongExpectedVersion { current: Some(1), .. }), "{err}");
        let err = store.append(req("r", ExpectedVersion::Exact(5), vec![ev("x")])).unwrap_err();
        assert!(err.to_string().contains("wrong expected version"), "{err}");
        let err = store.append(req("none", ExpectedVersion::Exact(0), vec![ev("x")])).unwrap_err();
        assert!(matches!(err, StoreError::WrongExpectedVersion { current: None, .. }), "{err}");
        let mut no_header = req("nh", ExpectedVersion::Any, vec![ev("x")]);
        no_header.create = None;
        assert!(matches!(store.append(no_header).unwrap_err(), StoreError::NoHeader(_)));
        let mut mismatch = req("mm", ExpectedVersion::Any, vec![ev("x")]);
        mismatch.create = Some(opaque_header("other", Timestamp(0)));
        assert!(matches!(store.append(mismatch).unwrap_err(), StoreError::HeaderMismatch { .. }));
        assert_eq!(store.head(&sid("r")).unwrap(), before);
        for missing in ["none", "nh", "mm", "other"] {
            assert!(matches!(store.head(&sid(missing)), Err(StoreError::UnknownStream(_))), "{missing}");
            assert!(matches!(store.export(&sid(missing)), Err(StoreError::UnknownStream(_))), "{missing}");
        }
        assert_eq!(store.streams().unwrap().len(), 1);
    });
}

#[test]
fn retries_with_idempotency_ids_record_nothing_twice() {
    for_every_backend(|store| {
        let first = req("i", ExpectedVersion::NoStream, vec![ev_id("a", "k1"), ev_id("b", "k2")]);
        let a = store.append(first.clone()).unwrap();
        assert!(!a.retried);
        // The retry's expected version is stale by now: it is recognised before that check.
        let again = store.append(first.clone()).unwrap();
        assert!(again.retried);
        assert!(again.stored.is_empty(), "a retry wrote nothing");
        assert_eq!((again.first_seq, again.head), (0, a.head));
        store.append(req("i", ExpectedVersion::Exact(2), vec![ev("c")])).unwrap();
        let head = store.head(&sid("i")).unwrap();
        // The same id with another payload, and a request only partly recorded, are refused.
        let err = store.append(req("i", ExpectedVersion::Any, vec![ev_id("other", "k1")])).unwrap_err();
        assert!(matches!(err, StoreError::IdempotencyConflict { seq: 0, .. }), "{err}");
        let err = store.append(req("i", ExpectedVersion::Any, vec![ev_id("b", "k2"), ev_id("new", "k3")])).unwrap_err();
        assert!(matches!(err, StoreError::PartialRetry { .. }), "{err}");
        assert_eq!(store.head(&sid("i")).unwrap(), head);
        assert_eq!(payloads(store, "i"), ["a", "b", "c"]);
        // Where each id landed, asked by id alone (a live game asks this before refusing).
        let at = |key: &str| store.recorded_id(&sid("i"), &IdempotencyId::from_key(key)).unwrap();
        assert_eq!((at("k1"), at("k2"), at("k3")), (Some(0), Some(1), None));
        assert_eq!(store.recorded_id(&sid("no-such-stream"), &IdempotencyId::from_key("k1")).unwrap(), None);
    });
}

/// A stream of more chunks than a store keeps the starts of (the NATS store thins them) reads
/// the same from any position, through the store that wrote it and through a fresh one.
#[test]
fn a_long_stream_reads_the_same_from_any_position() {
    let chunks = 300u64;
    let positions = [0, 1, 150, 257, chunks - 1];
    let read_all = |store: &dyn Store| -> Vec<Vec<String>> {
        positions
            .iter()
            .map(|&from| store.read(&sid("long"), from, chunks).unwrap().iter().map(|e| text(e)).collect())
            .collect()
    };
    let expected: Vec<Vec<String>> =
        positions.iter().map(|&from| (from..chunks).map(|i| format!("e{i}")).collect()).collect();
    let sled = SledStore::temporary(Arc::new(SteppingClock::fixed())).unwrap();
    let ns = nats_namespace();
    let (nats, fresh) = (ns.store(), ns.store());
    for store in [&sled as &dyn Store, &nats] {
        for i in 0..chunks {
            let expected = if i == 0 { ExpectedVersion::NoStream } else { ExpectedVersion::Exact(i) };
            store.append(req("long", expected, vec![ev(&format!("e{i}"))])).unwrap();
        }
        assert_eq!(read_all(store), expected);
    }
    assert_eq!(read_all(&fresh), expected, "a store that wrote none of it");
    assert_eq!(sled.head(&sid("long")).unwrap(), nats.head(&sid("long")).unwrap());
}

#[test]
fn listing_is_paged_and_ordered_by_id() {
    for_every_backend(|store| {
        let ids = ["b", "a.1", "c-2", "a", "z", "a.10", "m_3"];
        for id in ids {
            store.append(req(id, ExpectedVersion::NoStream, vec![ev(id)])).unwrap();
        }
        let mut sorted: Vec<&str> = ids.to_vec();
        sorted.sort_unstable();
        let mut paged = Vec::new();
        let mut after: Option<StreamId> = None;
        loop {
            let page = store.streams_page(after.as_ref(), 3).unwrap();
            assert!(page.len() <= 3);
            let Some(last) = page.last() else { break };
            after = Some(last.header.stream().clone());
            paged.extend(page.iter().map(|s| (s.header.stream().to_string(), s.head.len)));
        }
        assert_eq!(paged, sorted.iter().map(|s| (s.to_string(), 1)).collect::<Vec<_>>());
        let all: Vec<String> = store.streams().unwrap().iter().map(|s| s.header.stream().to_string()).collect();
        assert_eq!(all, sorted);
    });
}

#[test]
fn a_watch_sees_every_event_in_order_from_any_position() {
    for_every_backend(|store| {
        store.append(req("w", ExpectedVersion::NoStream, vec![ev("0"), ev("1")])).unwrap();
        let mut from_start = store.watch(&sid("w"), 0).unwrap();
        let mut from_one = store.watch(&sid("w"), 1).unwrap();
        assert_eq!(from_start.ready(store).unwrap().len(), 2);
        assert_eq!(from_start.position(), 2);
        std::thread::scope(|s| {
            s.spawn(|| {
                for i in 2..6 {
                    std::thread::sleep(Duration::from_millis(20));
                    store.append(req("w", ExpectedVersion::Exact(i), vec![ev(&i.to_string())])).unwrap();
                }
            });
            let mut seen = Vec::new();
            while seen.len() < 4 {
                let got = from_start.next(store, Duration::from_secs(20)).unwrap();
                assert!(!got.is_empty(), "a watch waited 20 s for an event appended meanwhile");
                seen.extend(got);
            }
            let texts: Vec<String> = seen.iter().map(|e| text(e)).collect();
            assert_eq!(texts, ["2", "3", "4", "5"]);
        });
        let rest = from_one.next(store, Duration::from_secs(5)).unwrap();
        assert_eq!(rest.len(), 5, "a late reader catches up from its position");
        assert_eq!(from_one.position(), 6);
    });
}

#[test]
fn import_and_export_round_trip_between_backends() {
    let sled = SledStore::temporary(Arc::new(SteppingClock::fixed())).unwrap();
    sled.append(req("x", ExpectedVersion::NoStream, vec![ev("a"), ev_id("b", "kb")])).unwrap();
    sled.append(req("x", ExpectedVersion::Exact(2), (0..300).map(|i| ev(&format!("e{i}"))).collect())).unwrap();
    let log = sled.export(&sid("x")).unwrap();
    let ns = nats_namespace();
    let nats = ns.store();
    assert_eq!(nats.import(&log).unwrap(), Imported::Created);
    assert_eq!(nats.import(&log).unwrap(), Imported::AlreadyPresent);
    let back = nats.export(&sid("x")).unwrap();
    assert_eq!((back.head, &back.events), (log.head, &log.events));
    // Imported ids are indexed: a retry of the request that recorded "b" is recognised.
    let retry = nats.append(req("x", ExpectedVersion::Any, vec![ev_id("b", "kb")])).unwrap();
    assert!(retry.retried && retry.first_seq == 1);
    // Another log under the same id is refused.
    let other = SledStore::temporary(Arc::new(SteppingClock::fixed())).unwrap();
    other.append(req("x", ExpectedVersion::NoStream, vec![ev("different")])).unwrap();
    let err = nats.import(&other.export(&sid("x")).unwrap()).unwrap_err();
    assert!(matches!(err, StoreError::StreamExists { events: 302, .. }), "{err}");
}

/// A log of `events` events of 400 bytes each on `stream` (from sled), and the largest message
/// size that holds one event but never two: an import of it then sends one message per event
/// (the first with the header).
fn big_log(stream: &str, events: usize) -> (chain::VerifiedLog, usize) {
    let sled = SledStore::temporary(Arc::new(SteppingClock::fixed())).unwrap();
    let evs: Vec<NewEvent> = (0..events).map(|i| ev(&format!("{i:0>400}"))).collect();
    sled.append(req(stream, ExpectedVersion::NoStream, evs)).unwrap();
    let log = sled.export(&sid(stream)).unwrap();
    let widest = log.events.iter().map(|e| e.len()).max().unwrap();
    let limit = log.header_bytes.len() + 4 + widest + 4;
    assert!(2 * (log.events.iter().map(|e| e.len()).min().unwrap() + 4) > limit, "one event per message");
    (log, limit)
}

/// Imports [`big_log`]`(stream, events)`, one message per event, while another store (another
/// server) reads the stream's head over and over; returns every head length the reader saw (0
/// for no stream yet), after checking that the stream reads back as the log.
fn import_watched(stream: &str, events: usize) -> Vec<u64> {
    let ns = nats_namespace();
    let (log, limit) = big_log(stream, events);
    let mut importer = ns.store();
    importer.limit_import_messages(limit);
    let reader = ns.store();
    let done = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let (id, full, until) = (sid(stream), log.head.len, done.clone());
    let watcher = std::thread::spawn(move || {
        let mut seen = Vec::new();
        while !until.load(std::sync::atomic::Ordering::SeqCst) && seen.last() != Some(&full) {
            match reader.head(&id) {
                Ok(head) => seen.push(head.len),
                Err(StoreError::UnknownStream(_)) => seen.push(0),
                Err(e) => panic!("{e}"),
            }
        }
        seen
    });
    assert_eq!(importer.import(&log).unwrap(), Imported::Created);
    done.store(true, std::sync::atomic::Ordering::SeqCst);
    let mut seen = watcher.join().unwrap();
    seen.dedup();
    let back = ns.store().export(&sid(stream)).unwrap();
    assert_eq!((back.head, &back.events), (log.head, &log.events));
    seen
}

/// An import of 600 messages is one atomic batch: a reader on another server sees no stream,
/// then all of it, never a part.
#[test]
fn a_large_import_lands_whole_as_one_atomic_batch() {
    let seen = import_watched("whole", 600);
    assert!(seen.iter().all(|&h| h == 0 || h == 600), "heads seen: {seen:?}");
}

/// An import over 1,000 messages lands in batches of at most 1,000 (each verified before the
/// next builds on it): a reader sees only the heads between whole batches.
#[test]
fn an_import_over_one_batch_lands_in_whole_batches() {
    let seen = import_watched("batches", 2_300);
    assert!(seen.iter().all(|h| [0, 1_000, 2_000, 2_300].contains(h)), "heads seen: {seen:?}");
}

/// A batch the cluster refuses at its last message leaves nothing of the import visible, and
/// the error says so. The refusal: a message already in the stream (another subject) carries the
/// message id of the batch's last message (the hash the log ends in).
#[test]
fn an_import_batch_refused_at_its_end_stores_nothing_of_it() {
    use async_nats::jetstream;
    let ns = nats_namespace();
    let (log, limit) = big_log("refused", 50);
    let mut importer = ns.store();
    importer.limit_import_messages(limit);
    let (servers, subject, id) =
        (ns.url.servers.clone(), format!("{}.ev.decoy", ns.url.namespace), log.head.hash.to_hex());
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    rt.block_on(async move {
        let js = jetstream::new(async_nats::connect(servers.as_slice()).await.unwrap());
        let decoy = jetstream::message::PublishMessage::build().message_id(id).payload("decoy".into());
        js.send_publish(subject, decoy).await.unwrap().await.unwrap();
    });
    let err = importer.import(&log).unwrap_err();
    assert!(matches!(err, StoreError::BatchRefused { from: 0, to: 50, .. }), "{err}");
    assert!(err.to_string().contains("none of them is stored"), "{err}");
    let head = ns.store().head(&sid("refused"));
    assert!(matches!(head, Err(StoreError::UnknownStream(_))), "{head:?}");
}

/// Two stores over one namespace stand for two kifu servers on one cluster: appends with
/// expected versions from both never fork the stream, each sees the other's appends, and a
/// watch on one wakes for an append through the other.
#[test]
fn two_servers_over_one_cluster_never_fork() {
    let ns = nats_namespace();
    let (one, two) = (Arc::new(ns.store()), Arc::new(ns.store()));
    one.append(req("shared", ExpectedVersion::NoStream, vec![])).unwrap();
    let mut watch = one.watch(&sid("shared"), 0).unwrap();
    let per = 15;
    let writers: Vec<_> = [one.clone(), two.clone()]
        .into_iter()
        .enumerate()
        .map(|(w, store)| {
            std::thread::spawn(move || {
                let mut conflicts = 0;
                for i in 0..per {
                    loop {
                        let expected = ExpectedVersion::Exact(store.head(&sid("shared")).unwrap().len);
                        match store.append(req("shared", expected, vec![ev(&format!("w{w}-{i}"))])) {
                            Ok(_) => break,
                            Err(StoreError::WrongExpectedVersion { .. }) => conflicts += 1,
                            // The store's own retries, bounded, lost to the other writer every
                            // time (a loaded machine): a conflict like any other, retried.
                            Err(StoreError::Unavailable { reason, .. }) if reason.contains("kept appending first") => {
                                conflicts += 1
                            }
                            Err(e) => panic!("{e}"),
                        }
                    }
                }
                conflicts
            })
        })
        .collect();
    let mut seen = Vec::new();
    while seen.len() < 2 * per {
        let got = watch.next(&*one, Duration::from_secs(30)).unwrap();
        assert!(!got.is_empty(), "the watch saw {} of {} events", seen.len(), 2 * per);
        seen.extend(got);
    }
    let _conflicts: usize = writers.into_iter().map(|h| h.join().unwrap()).sum();
    let log = two.export(&sid("shared")).unwrap();
    assert_eq!(log.events, seen, "the watch saw the verified chain, in order");
    let mut texts = payloads(&*one, "shared");
    texts.sort();
    let mut expected: Vec<String> = (0..2).flat_map(|w| (0..per).map(move |i| format!("w{w}-{i}"))).collect();
    expected.sort();
    assert_eq!(texts, expected, "every acknowledged event exactly once");
    assert_eq!(one.head(&sid("shared")).unwrap(), two.head(&sid("shared")).unwrap());
}

/// Two servers append to one stream at the same moment, each expecting the same length: the
/// cluster lets exactly one land and refuses the other's message (no loser is ever stored, so
/// no append reads back what it wrote), and the refused one is told the stream moved on.
#[test]
fn racing_appends_with_one_expected_length_land_exactly_once() {
    use async_nats::jetstream;
    let ns = nats_namespace();
    let (one, two) = (Arc::new(ns.store()), Arc::new(ns.store()));
    one.append(req("race", ExpectedVersion::NoStream, vec![])).unwrap();
    assert_eq!(two.head(&sid("race")).unwrap().len, 0, "both stores hold the tip before the race");
    let rounds = 40u64;
    let barrier = Arc::new(std::sync::Barrier::new(2));
    let racers: Vec<_> = [one.clone(), two.clone()]
        .into_iter()
        .enumerate()
        .map(|(w, store)| {
            let barrier = barrier.clone();
            std::thread::spawn(move || {
                let mut won = Vec::new();
                for round in 0..rounds {
                    barrier.wait();
                    let r = store.append(req("race", ExpectedVersion::Exact(round), vec![ev(&format!("{round}-{w}"))]));
                    match r {
                        Ok(a) => won.push(a.first_seq),
                        Err(StoreError::WrongExpectedVersion { current: Some(n), .. }) => assert_eq!(n, round + 1),
                        Err(e) => panic!("round {round}: {e}"),
                    }
                    barrier.wait();
                }
                won
            })
        })
        .collect();
    let won: Vec<Vec<u64>> = racers.into_iter().map(|h| h.join().unwrap()).collect();
    let mut all: Vec<u64> = won.concat();
    all.sort();
    assert_eq!(all, (0..rounds).collect::<Vec<_>>(), "each round: exactly one append landed, at its position");
    assert_eq!(two.export(&sid("race")).unwrap().head.len, rounds);
    // One message for the stream's creation and one per landed append: no loser was stored.
    let (servers, name) = (ns.url.servers.clone(), format!("KIFU_{}", ns.url.namespace));
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let messages = rt.block_on(async move {
        let js = jetstream::new(async_nats::connect(servers.as_slice()).await.unwrap());
        js.get_stream(&name).await.unwrap().info().await.unwrap().state.messages
    });
    assert_eq!(messages, rounds + 1, "messages in the events stream");
}

/// A namespace whose events stream an earlier build created (without direct gets or atomic
/// batches) opens, gains both (a configuration change: nothing is lost), keeps its chain, and
/// takes an import as an atomic batch.
#[test]
fn a_stream_an_earlier_build_created_gains_direct_gets_and_atomic_batches() {
    use async_nats::jetstream::{self, stream};
    let ns = nats_namespace();
    let (servers, name, subjects, replicas) = (
        ns.url.servers.clone(),
        format!("KIFU_{}", ns.url.namespace),
        vec![format!("{}.ev.*", ns.url.namespace)],
        ns.url.replicas,
    );
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let allows = || {
        let (servers, name) = (servers.clone(), name.clone());
        rt.block_on(async move {
            let js = jetstream::new(async_nats::connect(servers.as_slice()).await.unwrap());
            let config = js.get_stream(&name).await.unwrap().cached_info().config.clone();
            (config.allow_direct, config.allow_atomic_publish)
        })
    };
    rt.block_on(async {
        let js = jetstream::new(async_nats::connect(servers.as_slice()).await.unwrap());
        let config = stream::Config {
            name: name.clone(),
            subjects,
            num_replicas: replicas,
            storage: stream::StorageType::File,
            ..Default::default()
        };
        js.create_stream(config).await.unwrap();
    });
    assert_eq!(allows(), (false, false), "the earlier build's stream, as it made it");
    let (one, two) = (ns.store(), ns.store());
    assert_eq!(allows(), (true, true), "opening it allowed direct gets and atomic batches");
    one.append(req("old", ExpectedVersion::NoStream, vec![ev("a")])).unwrap();
    two.append(req("old", ExpectedVersion::Exact(1), vec![ev("b")])).unwrap();
    // `one`'s cached tip is stale: its publish loses to `two`'s chunk and is judged again.
    let stale = one.append(req("old", ExpectedVersion::Exact(1), vec![ev("c")]));
    assert!(matches!(stale, Err(StoreError::WrongExpectedVersion { .. })), "{stale:?}");
    one.append(req("old", ExpectedVersion::Exact(2), vec![ev("c")])).unwrap();
    assert_eq!(payloads(&two, "old"), ["a", "b", "c"]);
    let (log, limit) = big_log("imported", 40);
    let mut three = ns.store();
    three.limit_import_messages(limit);
    assert_eq!(three.import(&log).unwrap(), Imported::Created);
    assert_eq!(two.export(&sid("imported")).unwrap().events, log.events);
}

/// The idempotency index an earlier build created as a KV bucket (one message per subject) loses
/// its per-subject limit when opened (nats-server 2.9.10 may enforce that limit wrongly after a
/// crash: see `IdIndex`), and ids indexed through it are recognised long after their chunk left
/// the recent ones, through a fresh store.
#[test]
fn an_index_an_earlier_build_created_loses_its_per_subject_limit() {
    use async_nats::jetstream::{self, stream};
    let ns = nats_namespace();
    let bucket = format!("KIFU_{}_IDEM", ns.url.namespace);
    let (servers, replicas) = (ns.url.servers.clone(), ns.url.replicas);
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let per_subject = || {
        let (servers, name) = (servers.clone(), format!("KV_{bucket}"));
        rt.block_on(async move {
            let js = jetstream::new(async_nats::connect(servers.as_slice()).await.unwrap());
            js.get_stream(&name).await.unwrap().cached_info().config.max_messages_per_subject
        })
    };
    rt.block_on(async {
        let js = jetstream::new(async_nats::connect(servers.as_slice()).await.unwrap());
        // As the earlier build made it (a KV bucket of history 1).
        js.create_stream(stream::Config {
            name: format!("KV_{bucket}"),
            subjects: vec![format!("$KV.{bucket}.>")],
            max_messages_per_subject: 1,
            discard: stream::DiscardPolicy::New,
            allow_rollup: true,
            deny_delete: true,
            num_replicas: replicas,
            storage: stream::StorageType::File,
            ..Default::default()
        })
        .await
        .unwrap();
    });
    assert_eq!(per_subject(), 1, "the earlier build's bucket, as it made it");
    let one = ns.store();
    assert!(per_subject() <= 0, "opening it lifted the limit: {}", per_subject());
    let first = req("ids", ExpectedVersion::NoStream, vec![ev_id("a", "k")]);
    one.append(first.clone()).unwrap();
    for n in 1..=20u64 {
        one.append(req("ids", ExpectedVersion::Exact(n), vec![ev(&format!("e{n}"))])).unwrap();
    }
    // 20 chunks later the id is found only in the index, by a store that never saw it.
    let two = ns.store();
    let again = two.append(first).unwrap();
    assert!(again.retried && again.stored.is_empty(), "{again:?}");
    assert_eq!(two.recorded_id(&sid("ids"), &IdempotencyId::from_key("k")).unwrap(), Some(0));
    assert_eq!(payloads(&two, "ids").len(), 21);
}

#[test]
fn an_unreachable_cluster_is_a_clear_error() {
    let port = free_port();
    let url = NatsUrl::parse(&format!("nats://127.0.0.1:{port}")).unwrap();
    let err = NatsStore::connect(&url, Arc::new(SteppingClock::fixed())).err().unwrap();
    assert!(matches!(err, StoreError::Unavailable { .. }), "{err}");
    assert!(err.to_string().contains("cannot be reached"), "{err}");
    for bad in ["nats://", "nats://h:1?ns=a.b", "nats://h:1?replicas=2", "nats://h:1?x=1"] {
        assert!(NatsUrl::parse(bad).is_err(), "{bad}");
    }
}

/// A server older than kifu supports is refused at connect, naming its version and the minimum,
/// before anything is created in it. The "server" is a stand-in speaking the first lines of the
/// NATS protocol as nats-server 2.9.10 does (its INFO names its version), so no old server needs
/// installing.
#[test]
fn a_server_older_than_supported_is_refused_by_version() {
    use std::io::{BufRead, BufReader, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let created = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let saw = created.clone();
    std::thread::spawn(move || {
        for conn in listener.incoming().take(4) {
            let Ok(mut conn) = conn else { return };
            let info = r#"INFO {"server_id":"OLD","server_name":"old","version":"2.9.10","proto":1,"go":"go1.19","host":"127.0.0.1","port":4222,"headers":true,"max_payload":1048576,"jetstream":true}"#;
            if conn.write_all(format!("{info}\r\n").as_bytes()).is_err() {
                continue;
            }
            let reader = BufReader::new(conn.try_clone().unwrap());
            for line in reader.lines() {
                let Ok(line) = line else { break };
                if line.starts_with("PING") {
                    let _ = conn.write_all(b"PONG\r\n");
                } else if line.contains("$JS.API") {
                    saw.store(true, std::sync::atomic::Ordering::SeqCst);
                }
            }
        }
    });
    let url = NatsUrl::parse(&format!("nats://127.0.0.1:{port}")).unwrap();
    let err = NatsStore::connect(&url, Arc::new(SteppingClock::fixed())).err().unwrap();
    assert!(matches!(err, StoreError::ServerTooOld { .. }), "{err}");
    let text = err.to_string();
    assert!(text.contains("nats-server 2.9.10") && text.contains("2.14.1 or later"), "{text}");
    assert!(!created.load(std::sync::atomic::Ordering::SeqCst), "nothing was asked of JetStream");
}

#[test]
fn a_server_without_jetstream_is_a_clear_error() {
    let port = free_port();
    let mut server = std::process::Command::new(crate::support::nats_server())
        .args(["-a", "127.0.0.1", "-p", &port.to_string()])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("tools/nats-server-install installed nats-server");
    let url = NatsUrl::parse(&format!("nats://127.0.0.1:{port}")).unwrap();
    let mut result = None;
    for _ in 0..100 {
        match NatsStore::connect(&url, Arc::new(SteppingClock::fixed())) {
            Err(e) if e.to_string().contains("cannot connect") => std::thread::sleep(Duration::from_millis(50)),
            other => {
                result = Some(other);
                break;
            }
        }
    }
    let _ = server.kill();
    let _ = server.wait();
    let err = result.expect("nats-server started").err().unwrap();
    assert!(err.to_string().contains("no JetStream"), "{err}");
}

#[test]
fn a_request_over_the_message_limit_is_refused_whole() {
    let ns = nats_namespace();
    let store = ns.store();
    store.append(req("big", ExpectedVersion::NoStream, vec![ev("small")])).unwrap();
    let huge = NewEvent { actor: Actor::System, payload: vec![7; 9 << 20], idempotency: None };
    let err = store.append(req("big", ExpectedVersion::Exact(1), vec![huge])).unwrap_err();
    assert!(matches!(err, StoreError::TooLarge { .. }), "{err}");
    assert_eq!(store.head(&sid("big")).unwrap().len, 1);
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}
