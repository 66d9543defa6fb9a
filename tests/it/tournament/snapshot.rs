//! The folded state the store keeps beside a tournament (`record::load_state`): it is the state a
//! full load folds, whether used at the head or extended by the events since, and a torn,
//! foreign or forked snapshot is rebuilt from the log rather than trusted.

use std::sync::Arc;

use kifu::clock::SteppingClock;
use kifu::game::commit::Commitment;
use kifu::log::chain;
use kifu::log::envelope::StreamId;
use kifu::store::sled_store::SledStore;
use kifu::store::Store;
use kifu::tournament::state::Tournament;
use kifu::tournament::{event, record};

use crate::stones::STONES;

fn assert_same(got: &Tournament, want: &Tournament, what: &str) {
    assert_eq!(got.players, want.players, "{what}: players");
    assert_eq!(got.index, want.index, "{what}: index");
    assert_eq!(got.rounds, want.rounds, "{what}: rounds");
    assert_eq!(got.tallies, want.tallies, "{what}: tallies");
    assert_eq!((got.seen, got.finalized, got.swiss_rounds), (want.seen, want.finalized, want.swiss_rounds), "{what}");
    assert_eq!(got.standings(), want.standings(), "{what}: standings");
}

/// The one snapshot file in the store's `derived/` directory.
fn snapshot_file(data: &std::path::Path) -> std::path::PathBuf {
    let files: Vec<_> = std::fs::read_dir(data.join("derived")).unwrap().map(|e| e.unwrap().path()).collect();
    assert_eq!(files.len(), 1, "{files:?}");
    files[0].clone()
}

#[test]
fn the_kept_state_is_the_folded_state_and_a_bad_one_is_rebuilt() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let s = SledStore::open(&data, Arc::new(SteppingClock::fixed())).unwrap();
    let id = StreamId::new("snap").unwrap();
    let clock = SteppingClock::fixed();
    event::run_swiss_event(&s, &STONES, &id, 10, Commitment([3; 32]), &clock).unwrap();
    let full = record::load(&s, &id).unwrap();
    assert!(full.state.rounds.len() >= 4, "a whole event was played");

    // Recording kept the state as it went: at the head, it is what a full load folds.
    let file = snapshot_file(&data);
    let (state, head) = record::load_state(&s, &id).unwrap();
    assert_eq!(head, full.head);
    assert_same(&state, &full.state, "kept at the head");

    // Kept at an earlier head: extended by the events since.
    let log = s.export(&id).unwrap();
    let half = log.events.len() / 2;
    let prefix = chain::verify_log(log.header_bytes.clone(), log.events[..half].to_vec()).unwrap();
    let early = record::from_log(&prefix).unwrap();
    record::keep_state(&s, &id, &early.state, early.head);
    let (state, head) = record::load_state(&s, &id).unwrap();
    assert_eq!(head, full.head);
    assert_same(&state, &full.state, "extended from half way");

    // Torn (one byte flipped): its checksum fails, and the log is loaded instead.
    let mut bytes = std::fs::read(&file).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x40;
    std::fs::write(&file, &bytes).unwrap();
    let (state, _) = record::load_state(&s, &id).unwrap();
    assert_same(&state, &full.state, "torn");

    // Another stream's state (another log, as a fork would be): its head is not on this chain.
    let other = StreamId::new("other").unwrap();
    event::run_swiss_event(&s, &STONES, &other, 6, Commitment([4; 32]), &clock).unwrap();
    let foreign = record::load(&s, &other).unwrap();
    assert_ne!(foreign.head, full.head);
    record::keep_state(&s, &id, &foreign.state, foreign.head);
    let (state, head) = record::load_state(&s, &id).unwrap();
    assert_eq!(head, full.head);
    assert_same(&state, &full.state, "foreign");

    // Gone: rebuilt from the log and kept again.
    std::fs::remove_dir_all(data.join("derived")).unwrap();
    let (state, _) = record::load_state(&s, &id).unwrap();
    assert_same(&state, &full.state, "missing");
    assert!(data.join("derived").is_dir(), "the rebuilt state is kept");
}

/// The CLI holds whichever backend `--store` names as a `Box<dyn Store>`: the box must keep and
/// find the kept state as the backend itself does, or every command refolds the whole log.
#[test]
fn a_boxed_store_keeps_the_state_and_its_blobs_are_private() {
    use std::os::unix::fs::PermissionsExt as _;
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let boxed: Box<dyn Store> = Box::new(SledStore::open(&data, Arc::new(SteppingClock::fixed())).unwrap());
    let id = StreamId::new("boxed").unwrap();
    event::run_swiss_event(&boxed, &STONES, &id, 6, Commitment([4; 32]), &SteppingClock::fixed()).unwrap();
    let full = record::load(&boxed, &id).unwrap();
    let kept = boxed.derived(&id, "tournament-state").expect("the box finds the state kept through it");
    assert!(!kept.is_empty());
    assert!(snapshot_file(&data).exists());
    let (state, head) = record::load_state(&boxed, &id).unwrap();
    assert_eq!(head, full.head);
    assert_same(&state, &full.state, "through a box");
    for d in [data.clone(), data.join("blobs"), data.join("derived")] {
        let mode = std::fs::metadata(&d).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode & 0o077, 0, "{} is {mode:o}", d.display());
    }
}
