//! Import decodes as well as verifies: a stream whose configuration or any event does not decode
//! under its ruleset and version, or whose ruleset this build does not know, is refused with the
//! first bad sequence number, and nothing is written. `kifu verify FILE` says the same of each
//! (non-zero, with the reason), and `kifu verify --chain-only FILE` still finds its chain sound.

use std::path::{Path, PathBuf};

use kifu::log::chain::{self, VerifiedLog};
use kifu::log::envelope::{Header, HeaderV1, StreamId, StreamKind};
use kifu::store::sled_store::SledStore;
use kifu::store::{AppendRequest, ExpectedVersion, NewEvent, Store};

use crate::support::TestEnv;

fn fixture() -> VerifiedLog {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("replays/naruto-physical.kifu");
    kifu::log::file::read(&std::fs::read(p).unwrap()).unwrap()
}

/// The fixture's first `n` events re-recorded under `id` with `edit` applied to the header and
/// event `bad` (if any) replaced by bytes no game decodes; written to a .kifu file.
fn variant(env: &TestEnv, id: &str, n: usize, bad: Option<usize>, edit: impl Fn(&mut HeaderV1)) -> PathBuf {
    let log = fixture();
    let mut h = log.header.v1().clone();
    h.stream = StreamId::new(id).unwrap();
    edit(&mut h);
    let store = SledStore::temporary(std::sync::Arc::new(kifu::clock::SteppingClock::fixed())).unwrap();
    let events = log.events[..n]
        .iter()
        .enumerate()
        .map(|(i, stored)| {
            let (e, _) = chain::open_event(stored).unwrap();
            let payload = if Some(i) == bad { vec![0xff; 9] } else { e.v1().payload.to_vec() };
            NewEvent { actor: e.v1().actor.clone(), payload, idempotency: None }
        })
        .collect();
    let sid = h.stream.clone();
    let req =
        AppendRequest { stream: sid.clone(), expected: ExpectedVersion::NoStream, create: Some(Header::V1(h)), events };
    store.append(req).unwrap();
    let path = env.path(&format!("{id}.kifu"));
    std::fs::write(&path, kifu::log::file::write(&store.export(&sid).unwrap())).unwrap();
    path
}

#[test]
fn undecodable_or_unknown_streams_are_refused() {
    let env = TestEnv::new();
    let cases: Vec<(PathBuf, &str)> = vec![
        (variant(&env, "bad-event", 8, Some(3), |_| {}), "event 3"),
        (variant(&env, "bad-config", 4, None, |h| h.config = vec![0xff; 7]), "configuration"),
        (variant(&env, "new-version", 4, None, |h| h.ruleset_version = 99), "99"),
        (
            // A game's log dressed up as a tournament: no Swiss configuration in its header.
            variant(&env, "fake-tournament", 4, None, |h| {
                h.kind = StreamKind::Tournament;
                h.ruleset = "swiss".into();
                h.ruleset_version = 3;
                h.players.clear();
            }),
            "does not decode",
        ),
        (
            variant(&env, "chess", 4, None, |h| h.ruleset = "chess".into()),
            "cannot decode game streams of ruleset \"chess\"",
        ),
        (
            variant(&env, "odd-notes", 4, None, |h| {
                h.kind = StreamKind::Opaque;
                h.ruleset = "notes".into();
            }),
            "cannot decode opaque streams of ruleset \"notes\"",
        ),
    ];
    for (file, why) in &cases {
        let f = file.to_str().unwrap();
        // The chain itself verifies ...
        env.ok(&["verify", "--chain-only", f]);
        // ... but the import is refused, saying why, and writes nothing ...
        let err = env.fails(&["import", f]);
        assert!(err.contains("nothing imported") && err.contains(why), "{}: {err}", file.display());
        // ... and so is a plain verify, exiting non-zero with the same reason, in the table and in JSON.
        let out = env.kifu(&["verify", f]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{}: {text}", file.display());
        assert!(text.contains("FAILED"), "{text}");
        let out = env.kifu(&["verify", "--json", f]);
        assert_eq!(out.status.code(), Some(1));
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(json[0]["ok"], false);
        let problem = json[0]["problem"].as_str().unwrap();
        assert!(problem.contains("kifu import refuses it") && problem.contains(why), "{json}");
    }
    assert!(!env.ok(&["streams", "--json"]).contains("\"bad-"), "nothing was imported");
    // The unchanged fixture imports.
    let good = variant(&env, "good", 8, None, |_| {});
    env.ok(&["verify", good.to_str().unwrap()]);
    env.ok(&["import", good.to_str().unwrap()]);
}
