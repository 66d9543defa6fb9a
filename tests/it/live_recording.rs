//! Live recording at scale: a game kept open and extended event by event gives exactly what a
//! full refold gives at every sequence number (boards, positions, timelines, audits), records in
//! O(1) per event with the exact expected version, and the server's caches stay bounded. A
//! proptest checks the same on random self-played games of two rulesets, extended by pushes and
//! by tails of random length, against the full fold (the reference model) at every step.

use std::sync::Arc;

use kifu::clock::SteppingClock;
use kifu::game::driver::Session;
use kifu::game::record::{GameError, LiveGame};
use kifu::game::{selfplay, GameEntry, Ruling, Viewer};
use kifu::games::naruto::Naruto;
use kifu::log::chain::{self, VerifiedLog};
use kifu::store::sled_store::SledStore;
use kifu::store::{Store, StoreError};
use proptest::prelude::*;

use crate::server::{fixture_log, fixtures};

/// The log cut after its first `n` events.
fn prefix(log: &VerifiedLog, n: usize) -> VerifiedLog {
    chain::verify_log(log.header_bytes.clone(), log.events[..n].to_vec()).unwrap()
}

fn viewers(players: usize) -> Vec<Viewer> {
    let mut v = vec![Viewer::Judge, Viewer::Spectator];
    v.extend((0..players).map(|s| Viewer::Player(s as u8)));
    v
}

/// Every fixture game, opened empty and extended one event at a time, against a fresh open of
/// the same prefix at every sequence number.
#[test]
fn extending_event_by_event_equals_a_full_refold_at_every_seq() {
    for name in fixtures() {
        let log = fixture_log(&name);
        let driver = kifu::games::driver(&log.header.v1().ruleset).unwrap();
        let mut live = driver.open(&prefix(&log, 0)).unwrap();
        let viewers = viewers(live.players().len());
        // Build the audit and timelines first, so they too are extended rather than refolded.
        live.audit();
        for v in &viewers {
            live.timeline_range(*v, 0, 0);
        }
        for n in 1..=log.events.len() {
            live.extend(&log.events[n - 1..n]).unwrap();
            let cut = prefix(&log, n);
            let full = driver.open(&cut).unwrap();
            let at = format!("{name} after {n} events");
            assert_eq!(live.head(), cut.head, "{at}");
            assert_eq!(live.len(), n as u64, "{at}");
            assert_eq!(live.position_at(n as u64), full.position_at(n as u64), "{at}");
            assert_eq!(live.audit(), driver.audit(&cut).unwrap(), "{at}");
            for v in &viewers {
                assert_eq!(live.board(n as u64, *v), full.board(n as u64, *v), "{at}, {v:?}");
                assert_eq!(live.describe(n as u64 - 1, *v), full.describe(n as u64 - 1, *v), "{at}, {v:?}");
            }
        }
        for v in &viewers {
            assert_eq!(live.timeline_range(*v, 0, u64::MAX), driver.open(&log).unwrap().timeline(*v), "{name} {v:?}");
        }
    }
}

/// A tail that does not link to the open head is refused and nothing is folded.
#[test]
fn a_tail_that_does_not_link_is_refused() {
    let log = fixture_log("naruto-digital");
    let driver = kifu::games::driver("naruto").unwrap();
    let mut live = driver.open(&prefix(&log, 3)).unwrap();
    let err = live.extend(&log.events[4..6]).unwrap_err();
    assert!(matches!(err, GameError::Store(StoreError::Corrupt(_))), "{err}");
    assert_eq!(live.len(), 3);
    live.extend(&log.events[3..6]).unwrap();
    assert_eq!(live.head(), prefix(&log, 6).head);
}

fn players() -> Vec<String> {
    vec!["ann".into(), "bo".into()]
}

/// A self-played Naruto game recorded event by event on an open game: the same game a reload
/// gives, a stale expected version refused with the current one and nothing written, and a
/// second open game that fell behind catches up and retries once.
#[test]
fn recording_on_an_open_game_matches_a_reload() {
    let dir = tempfile::tempdir().unwrap();
    let store = SledStore::open(dir.path(), Arc::new(SteppingClock::fixed())).unwrap();
    let game = selfplay::self_play::<Naruto>(7, &players(), 400).unwrap();
    let id = kifu::log::envelope::StreamId::new("live-1").unwrap();
    kifu::game::record::create::<Naruto>(&store, &id, &game.config, kifu::log::envelope::Timestamp(0)).unwrap();
    let mut live = LiveGame::<Naruto>::load(&store, &id).unwrap();
    live.audit();
    let mut other = LiveGame::<Naruto>::load(&store, &id).unwrap();
    for (i, (actor, entry)) in game.entries.iter().cloned().enumerate() {
        let expected = (i % 2 == 0).then_some(i as u64);
        let rec = live.record(&store, actor, entry, expected, None).unwrap();
        assert_eq!(rec.seq, i as u64);
        assert_eq!(store.head(&id).unwrap(), rec.head);
    }
    let n = live.len();
    assert_eq!(n, game.entries.len() as u64);

    // A stale expected version: refused with the current count, nothing written.
    let note =
        |text: &str| GameEntry::Ruled(Ruling::NoteRecorded { judge: "jo".into(), about: None, note: text.into() });
    let judge = kifu::log::envelope::Actor::Judge("jo".into());
    let err = live.record(&store, judge.clone(), note("stale"), Some(n - 1), None).unwrap_err();
    match err {
        GameError::Store(StoreError::WrongExpectedVersion { current, .. }) => assert_eq!(current, Some(n)),
        e => panic!("expected a wrong-version refusal, got {e}"),
    }
    assert_eq!(store.head(&id).unwrap().len, n);

    // `other` was opened before every append: its first attempt meets a wrong version, then it
    // reloads the tail and records on the current head.
    let rec = other.record(&store, judge, note("late"), None, None).unwrap();
    assert_eq!(rec.seq, n);
    live.catch_up(&store).unwrap();

    let fresh = LiveGame::<Naruto>::load(&store, &id).unwrap();
    let log = store.export(&id).unwrap();
    let driver = kifu::games::driver("naruto").unwrap();
    for open in [&mut live, &mut other] {
        assert_eq!(open.head(), fresh.head());
        assert_eq!(open.audit(), driver.audit(&log).unwrap());
        assert_eq!(Session::board(open, n + 1, Viewer::Judge), Session::board(&fresh, n + 1, Viewer::Judge));
    }
}

/// A crawl of every game in a store through the server (summary, a long events page, the
/// audit) keeps the bytes the server holds open under `--cache-mb`'s bound, while the games
/// together hold several times that: least recently used games are let go.
#[test]
fn the_server_cache_stays_bounded_under_a_crawl() {
    use kifu::server::{app, AppState, ServerConfig};
    let dir = tempfile::tempdir().unwrap();
    let clock = Arc::new(SteppingClock::fixed());
    let store = SledStore::open(dir.path(), clock.clone()).unwrap();
    let driver = kifu::games::driver("naruto").unwrap();
    let games = 24;
    let mut total = 0;
    for seed in 0..games {
        let id = kifu::log::envelope::StreamId::new(&format!("crawl-{seed}")).unwrap();
        driver.self_play(&store, &id, seed, &players(), kifu::log::envelope::Timestamp(0)).unwrap();
        let mut s = driver.open(&store.export(&id).unwrap()).unwrap();
        s.audit();
        s.timeline_range(Viewer::Spectator, 0, u64::MAX);
        total += s.approx_bytes();
    }
    let cap = total / 6;
    let config = ServerConfig { cache_bytes: Some(cap), ..ServerConfig::default() };
    let state = AppState::new(Arc::new(store), clock, config);
    let router = app(state.clone());
    let rt = crate::server::rt();
    let mut peak = 0;
    for seed in 0..games {
        for uri in [
            format!("/api/v1/games/crawl-{seed}"),
            format!("/api/v1/games/crawl-{seed}/events?from=0&limit=1000"),
            format!("/api/v1/games/crawl-{seed}/audit"),
        ] {
            let (status, _) = rt.block_on(crate::server::get(&router, &uri, None));
            assert_eq!(status, 200, "{uri}");
            let (used, _) = state.cache_usage();
            assert!(used <= cap, "after {uri}: {used} bytes cached, over the bound of {cap}");
            peak = peak.max(used);
        }
    }
    let (_, open) = state.cache_usage();
    assert!(open < games as usize, "{open} of {games} games still open: nothing was evicted");
    assert!(peak > cap / 2, "the cache was used ({peak} of {cap} bytes)");
}

/// Events of a random self-played game kept: long enough to reach turns and combat, short
/// enough that a full fold at every step stays quick.
const PROP_EVENTS: usize = 150;

/// A self-played game of `ruleset` from `seed`, cut after [`PROP_EVENTS`] events.
fn self_played(ruleset: &str, seed: u64) -> VerifiedLog {
    let store = SledStore::temporary(Arc::new(SteppingClock::fixed())).unwrap();
    let id = kifu::log::envelope::StreamId::new("prop").unwrap();
    let driver = kifu::games::driver(ruleset).unwrap();
    driver.self_play(&store, &id, seed, &players(), kifu::log::envelope::Timestamp(0)).unwrap();
    let log = store.export(&id).unwrap();
    let n = log.events.len().min(PROP_EVENTS);
    prefix(&log, n)
}

/// Opens `log` empty, then extends it in tails of the given lengths (1 is a single push) until
/// every event is folded; after each tail compares everything a viewer or judge can read with
/// a full fold of the same prefix.
fn extend_matches_full_fold(ruleset: &str, log: &VerifiedLog, tails: &[usize]) -> Result<(), TestCaseError> {
    let driver = kifu::games::driver(ruleset).unwrap();
    let mut live = driver.open(&prefix(log, 0)).unwrap();
    let viewers = viewers(live.players().len());
    live.audit();
    live.timeline_range(Viewer::Spectator, 0, 0);
    let (mut n, mut i) = (0, 0);
    while n < log.events.len() {
        let step = tails[i % tails.len()].clamp(1, log.events.len() - n);
        i += 1;
        live.extend(&log.events[n..n + step]).unwrap();
        n += step;
        let cut = prefix(log, n);
        let full = driver.open(&cut).unwrap();
        let at = format!("{ruleset} after {n} events");
        prop_assert_eq!(live.head(), cut.head, "{}", at);
        prop_assert_eq!(live.len(), n as u64, "{}", at);
        // The newest position and one earlier (kept snapshots must match the refold too).
        for k in [n as u64, n as u64 / 2] {
            prop_assert_eq!(live.position_at(k), full.position_at(k), "{} at {}", at, k);
        }
        prop_assert_eq!(live.audit(), driver.audit(&cut).unwrap(), "{}", at);
        for v in &viewers {
            prop_assert_eq!(live.board(n as u64, *v), full.board(n as u64, *v), "{} {:?}", at, v);
            prop_assert_eq!(live.describe(n as u64 - 1, *v), full.describe(n as u64 - 1, *v), "{} {:?}", at, v);
        }
    }
    // The spectator's timeline was extended tail by tail; the others are built once at the end.
    let full = driver.open(log).unwrap();
    for v in &viewers {
        prop_assert_eq!(live.timeline_range(*v, 0, u64::MAX), full.timeline(*v), "{} {:?}", ruleset, v);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 6,
        rng_seed: proptest::test_runner::RngSeed::Fixed(20261125),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// Naruto: random self-played games, extended by pushes and tails, equal the full fold.
    #[test]
    fn naruto_extended_by_pushes_and_tails_equals_the_full_fold(
        seed in 0u64..10_000,
        tails in proptest::collection::vec(prop_oneof![3 => Just(1usize), 1 => 2usize..12], 1..8),
    ) {
        extend_matches_full_fold("naruto", &self_played("naruto", seed), &tails)?;
    }

    /// Vanguard: the same.
    #[test]
    fn vanguard_extended_by_pushes_and_tails_equals_the_full_fold(
        seed in 0u64..10_000,
        tails in proptest::collection::vec(prop_oneof![3 => Just(1usize), 1 => 2usize..12], 1..8),
    ) {
        extend_matches_full_fold("vanguard", &self_played("vanguard", seed), &tails)?;
    }
}
