//! Formats are forever: a tournament and its games recorded by the first released build (0.1.0,
//! its `kifu demo`) still import, audit clean and verify under this build, with the same heads and
//! the same root hash. The files in `replays/released-0.1.0/` were exported by that build and must
//! never be regenerated.

use std::path::Path;
use std::sync::Arc;

use kifu::clock::SteppingClock;
use kifu::game::Viewer;
use kifu::log::envelope::StreamId;
use kifu::store::sled_store::SledStore;
use kifu::store::Store;

const TOURNAMENT: &str = "naruto-swiss-demo";
const TOURNAMENT_HEAD: &str = "5af6df73b8679d26688886bfc34d7580319d06391347e30dbbbf4f1ef44629da";
/// The root hash 0.1.0's `kifu tournament verify` printed for it.
const ROOT: &str = "3b6b424107765ce0d5067ee0405d5fe3d1f66c60db1c9bfc2e916da71c40dddc";

fn released_store() -> SledStore {
    let store = SledStore::temporary(Arc::new(SteppingClock::fixed())).unwrap();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("replays/released-0.1.0");
    let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    assert_eq!(files.len(), 16, "the tournament and its 15 games");
    for f in files {
        let log = kifu::log::file::read(&std::fs::read(&f).unwrap()).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        store.import(&log).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
    }
    store
}

#[test]
fn a_tournament_recorded_by_0_1_0_verifies_with_the_same_root_hash() {
    let store = released_store();
    let id = StreamId::new(TOURNAMENT).unwrap();
    assert_eq!(store.head(&id).unwrap().hash.to_string(), TOURNAMENT_HEAD);
    let report = kifu::tournament::verify::verify(&store, &id, &kifu::games::driver).unwrap();
    let failed: Vec<_> = report.checks.iter().filter(|c| !c.ok).map(|c| format!("{}: {}", c.check, c.detail)).collect();
    assert!(failed.is_empty(), "checks failed: {failed:#?}");
    assert_eq!(report.games, 15);
    assert_eq!(report.root.to_string(), ROOT);
}

#[test]
fn every_game_recorded_by_0_1_0_opens_and_audits_clean() {
    let store = released_store();
    let games: Vec<StreamId> = store
        .streams()
        .unwrap()
        .into_iter()
        .map(|s| s.header.stream().clone())
        .filter(|s| s.as_str() != TOURNAMENT)
        .collect();
    assert_eq!(games.len(), 15);
    for id in games {
        let log = store.export(&id).unwrap();
        let driver = kifu::games::driver(&log.header.v1().ruleset).unwrap();
        let session = driver.open(&log).unwrap_or_else(|e| panic!("{id}: {e}"));
        assert!(
            session.board(session.len(), Viewer::Judge).outcome.is_some(),
            "{id} ended under 0.1.0, so it ends now"
        );
        let report = driver.audit(&log).unwrap();
        assert!(report.findings.is_empty(), "{id}: {:?}", report.findings);
    }
}
