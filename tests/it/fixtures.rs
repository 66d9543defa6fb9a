//! The fixture games under replays/: each is regenerated from a deterministic recipe (fixed
//! clock, fixed seeds) and must match the checked-in files byte for byte; each verifies, audits
//! to its pinned findings, and round-trips through the store, the JSON log form and JSON lines.
//! `UPDATE_EXPECT=1 cargo test --release fixtures` rewrites the files after an intended change.

use std::path::Path;
use std::sync::Arc;

use rand::SeedableRng;

use kifu::clock::SteppingClock;
use kifu::game::driver::Driver;
use kifu::game::record;
use kifu::game::{AgentRng, Game, GameEntry, Ruling};
use kifu::games::naruto::Naruto;
use kifu::log::chain::VerifiedLog;
use kifu::log::envelope::{Actor, StreamId};
use kifu::store::sled_store::SledStore;
use kifu::store::{AppendRequest, ExpectedVersion, NewEvent, Store};

use crate::game_support::{check_checked_in_fixture, pin_fixture};
use crate::support::ensure_file_contents;

const PLAYERS: [&str; 2] = ["alice", "bob"];

fn players() -> Vec<String> {
    PLAYERS.iter().map(|p| p.to_string()).collect()
}

fn store() -> SledStore {
    SledStore::temporary(Arc::new(SteppingClock::fixed())).unwrap()
}

fn t0() -> kifu::log::envelope::Timestamp {
    kifu::log::envelope::Timestamp(1_767_225_600_000_000)
}

/// Version 1's driver: the fixtures were recorded under it, so their recipes pin it (new games
/// record version 2, whose self-play draws and records differently).
fn driver() -> &'static dyn Driver {
    kifu::games::released("naruto", 1).unwrap()
}

fn is_digital(config: &<Naruto as Game>::Config) -> bool {
    format!("{config:?}").contains("Digital")
}

/// The first seed from `from` whose self-play game is digital (seeded shuffles) or physical.
fn seed_with(from: u64, digital: bool) -> u64 {
    (from..from + 100)
        .find(|s| {
            let mut rng = AgentRng::seed_from_u64(*s);
            is_digital(&Naruto::self_play_config(&players(), &mut rng).0) == digital
        })
        .unwrap()
}

fn self_played(name: &str, seed: u64) -> VerifiedLog {
    let s = store();
    let id = StreamId::new(name).unwrap();
    driver().self_play(&s, &id, seed, &players(), t0()).unwrap();
    s.export(&id).unwrap()
}

/// A game in which, mid-game, an action is repeated illegally; a judge forces it, warns the
/// player, backs the game up to before it, and play goes on to the end.
fn judged(name: &str, seed: u64) -> VerifiedLog {
    let mut rng = AgentRng::seed_from_u64(seed);
    let (config, mut secrets) = Naruto::self_play_config(&players(), &mut rng);
    let names = Naruto::players(&config);
    let mut state = Naruto::setup(&config).unwrap();
    let mut entries: Vec<(Actor, GameEntry<<Naruto as Game>::Event>)> = Vec::new();
    let mut judged_at = None;
    while let Some(event) = Naruto::agent_step(&state, &mut secrets, &mut rng) {
        let actor = record::actor_for::<Naruto>(&names, &event);
        Naruto::ledger_mut(&mut state).at(entries.len() as u64);
        state = Naruto::apply(state, &event);
        entries.push((actor.clone(), GameEntry::Played(event.clone())));
        let turn = Naruto::position(&state).turn;
        if judged_at.is_none() && turn >= 4 && !Naruto::validate(&state, &event).is_empty() {
            // The same action again breaks the rules here: record it forced, then rule on it.
            let seq = entries.len() as u64;
            let broke = Naruto::validate(&state, &event).iter().map(|v| v.rule.to_string()).collect();
            entries.push((
                Actor::Judge("jin".into()),
                GameEntry::Forced { judge: "jin".into(), broke, event: event.clone() },
            ));
            let seat = Naruto::acting_seat(&event).unwrap_or(0);
            entries.push((
                Actor::Judge("jin".into()),
                GameEntry::Ruled(Ruling::WarningIssued {
                    judge: "jin".into(),
                    seat,
                    rule: None,
                    about: Some(seq),
                    note: "the action was recorded twice".into(),
                }),
            ));
            entries.push((
                Actor::Judge("jin".into()),
                GameEntry::Ruled(Ruling::BackedUp {
                    judge: "jin".into(),
                    to_seq: seq,
                    note: "undo the duplicate".into(),
                }),
            ));
            judged_at = Some(seq);
        }
    }
    assert!(judged_at.is_some(), "seed {seed} never offered a repeatable illegal action");
    let s = store();
    let id = StreamId::new(name).unwrap();
    record::import_entries::<Naruto>(&s, &id, &config, entries, t0()).unwrap();
    s.export(&id).unwrap()
}

/// A log a careless recorder wrote without validation: an illegal play nobody ruled on.
fn unruled(name: &str, seed: u64) -> VerifiedLog {
    let base = self_played("tmp", seed);
    let g = record::from_log::<Naruto>(&base).unwrap();
    let s = store();
    let id = StreamId::new(name).unwrap();
    let cut = g.steps.len() / 2;
    let mut entries: Vec<(Actor, GameEntry<<Naruto as Game>::Event>)> =
        g.steps[..cut].iter().map(|st| (st.actor.clone(), st.entry.clone())).collect();
    let dup = entries[cut - 1].clone();
    entries.push(dup);
    let header = record::game_header::<Naruto>(&id, &g.config, t0()).unwrap();
    let events = entries
        .iter()
        .map(|(actor, entry)| NewEvent {
            actor: actor.clone(),
            payload: postcard::to_stdvec(entry).unwrap(),
            idempotency: None,
        })
        .collect();
    s.append(AppendRequest { stream: id.clone(), expected: ExpectedVersion::NoStream, create: Some(header), events })
        .unwrap();
    s.export(&id).unwrap()
}

struct Fixture {
    name: &'static str,
    log: VerifiedLog,
}

fn fixtures() -> Vec<Fixture> {
    vec![
        Fixture { name: "naruto-physical", log: self_played("naruto-physical", seed_with(1, false)) },
        Fixture { name: "naruto-digital", log: self_played("naruto-digital", seed_with(1, true)) },
        Fixture { name: "naruto-judged", log: judged("naruto-judged", 5) },
        Fixture { name: "naruto-unruled", log: unruled("naruto-unruled", 9) },
    ]
}

#[test]
fn fixtures_match_their_recipes_and_pinned_audits() {
    let mut expected = String::new();
    for f in fixtures() {
        expected += &pin_fixture(driver(), f.name, &f.log);
    }
    ensure_file_contents("replays/expected.txt", expected.as_bytes());
}

#[test]
fn checked_in_fixtures_verify_audit_and_round_trip() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("replays");
    let expected = std::fs::read_to_string(dir.join("expected.txt")).unwrap();
    let mut seen = 0;
    for line in expected.lines() {
        let (log, jsonl) = check_checked_in_fixture(driver(), line);
        let name = line.split(' ').next().unwrap();
        // The JSON lines hold the same entries, and re-import (validated) where the log is legal.
        let g = record::from_log::<Naruto>(&log).unwrap();
        match record::parse_jsonl::<Naruto>(&jsonl, false) {
            Ok(parsed) => {
                let from_log: Vec<_> = g.steps.iter().map(|s| (s.actor.clone(), s.entry.clone())).collect();
                assert_eq!(parsed.entries, from_log, "{name}");
            }
            Err(e) => assert!(line.contains("UNRESOLVED"), "{name} should import from JSON lines: {e}"),
        }
        seen += 1;
    }
    assert!(seen >= 4);
    assert!(
        expected.contains("naruto-judged") && expected.contains(":ruled"),
        "a fixture has a judged violation and backup"
    );
}
