//! The store against a reference model (sled's "act like a BTreeMap"): random appends with right,
//! stale and absent expectations and retried idempotency ids must leave the store exactly as a
//! plain map of vectors says, with every chain verifying.

use std::collections::BTreeMap;
use std::sync::Arc;

use proptest::prelude::*;

use kifu::clock::SteppingClock;
use kifu::log::chain;
use kifu::log::envelope::{Actor, IdempotencyId, StreamId, Timestamp};
use kifu::store::sled_store::SledStore;
use kifu::store::{AppendRequest, ExpectedVersion, NewEvent, Store, StoreError};

use crate::support::opaque_header;

#[derive(Clone, Debug)]
enum Expect {
    Right,
    Stale(u64),
    NoStream,
    Any,
}

#[derive(Clone, Debug)]
struct Op {
    stream: usize,
    expect: Expect,
    /// Either a retryable single event (an idempotency key) or a batch of plain events.
    key: Option<u8>,
    events: usize,
}

fn op() -> impl Strategy<Value = Op> {
    let expect = prop_oneof![
        4 => Just(Expect::Right),
        1 => (1u64..3).prop_map(Expect::Stale),
        1 => Just(Expect::NoStream),
        1 => Just(Expect::Any),
    ];
    (0usize..3, expect, proptest::option::of(0u8..6), 1usize..4).prop_map(|(stream, expect, key, events)| Op {
        stream,
        expect,
        key,
        events: if key.is_some() { 1 } else { events },
    })
}

#[derive(Default)]
struct Model {
    /// Per stream: the payloads, and which idempotency keys are recorded.
    streams: BTreeMap<usize, (Vec<String>, BTreeMap<u8, u64>)>,
}

#[derive(Debug, PartialEq)]
enum Predicted {
    Written,
    Retried,
    WrongVersion,
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]
    #[test]
    fn store_behaves_like_the_reference_model(ops in proptest::collection::vec(op(), 1..40)) {
        let store = SledStore::temporary(Arc::new(SteppingClock::fixed())).unwrap();
        let mut model = Model::default();
        for (n, op) in ops.iter().enumerate() {
            let sid = StreamId::new(&format!("s{}", op.stream)).unwrap();
            let current = model.streams.get(&op.stream).map(|(p, _)| p.len() as u64);
            let expected = match (&op.expect, current) {
                (Expect::Right, Some(len)) => ExpectedVersion::Exact(len),
                (Expect::Right, None) | (Expect::NoStream, _) => ExpectedVersion::NoStream,
                (Expect::Stale(off), len) => ExpectedVersion::Exact(len.unwrap_or(0) + off),
                (Expect::Any, _) => ExpectedVersion::Any,
            };
            let payloads: Vec<String> = match op.key {
                Some(k) => vec![format!("key-{k}")],
                None => (0..op.events).map(|i| format!("op{n}-{i}")).collect(),
            };
            let retry = op.key.is_some_and(|k| model.streams.get(&op.stream).is_some_and(|(_, keys)| keys.contains_key(&k)));
            let predicted = if retry {
                Predicted::Retried
            } else {
                match (expected, current) {
                    (ExpectedVersion::Any, _) | (ExpectedVersion::NoStream, None) => Predicted::Written,
                    (ExpectedVersion::Exact(e), Some(len)) if e == len => Predicted::Written,
                    _ => Predicted::WrongVersion,
                }
            };
            let result = store.append(AppendRequest {
                stream: sid.clone(),
                expected,
                create: Some(opaque_header(sid.as_str(), Timestamp(0))),
                events: payloads
                    .iter()
                    .map(|p| NewEvent {
                        actor: Actor::System,
                        payload: p.clone().into_bytes(),
                        idempotency: op.key.map(|k| IdempotencyId::from_key(&format!("key-{k}"))),
                    })
                    .collect(),
            });
            let got = match &result {
                Ok(a) if a.retried => Predicted::Retried,
                Ok(_) => Predicted::Written,
                Err(StoreError::WrongExpectedVersion { current: c, .. }) => {
                    prop_assert_eq!(*c, current, "the error names the current version");
                    Predicted::WrongVersion
                }
                Err(e) => return Err(TestCaseError::fail(format!("unexpected error {e}"))),
            };
            prop_assert_eq!(&got, &predicted, "op {} {:?}", n, op);
            if got == Predicted::Written {
                let entry = model.streams.entry(op.stream).or_default();
                let first = entry.0.len() as u64;
                prop_assert_eq!(result.unwrap().first_seq, first);
                if let Some(k) = op.key {
                    entry.1.insert(k, first);
                }
                entry.0.extend(payloads);
            }
        }
        for (s, (payloads, _)) in &model.streams {
            let sid = StreamId::new(&format!("s{s}")).unwrap();
            let log = store.export(&sid).unwrap();
            let got: Vec<String> = log
                .events
                .iter()
                .map(|e| String::from_utf8(chain::open_event(e).unwrap().0.v1().payload.to_vec()).unwrap())
                .collect();
            prop_assert_eq!(&got, payloads);
        }
        prop_assert_eq!(store.streams().unwrap().len(), model.streams.len());
    }
}
