//! The FATE fixture games under replays/: a clean digital four-Master game, a judged game (a
//! forced repeat, a warning and a backup) and a game with an unresolved finding, each
//! regenerated from a deterministic recipe and pinned in `replays/expected-fate.txt`.

use std::sync::Arc;

use rand::SeedableRng;

use kifu::clock::SteppingClock;
use kifu::game::driver::Driver;
use kifu::game::record;
use kifu::game::{AgentRng, Game, GameEntry, Ruling};
use kifu::games::fate::config::DiceMode;
use kifu::games::fate::Fate;
use kifu::log::chain::VerifiedLog;
use kifu::log::envelope::{Actor, StreamId};
use kifu::store::sled_store::SledStore;
use kifu::store::{AppendRequest, ExpectedVersion, NewEvent, Store};

use crate::game_support::{check_checked_in_fixture, pin_fixture};
use crate::support::ensure_file_contents;

fn players() -> Vec<String> {
    ["ayaka", "bazett", "caren", "dan"].iter().map(|p| p.to_string()).collect()
}

fn store() -> SledStore {
    SledStore::temporary(Arc::new(SteppingClock::fixed())).unwrap()
}

fn t0() -> kifu::log::envelope::Timestamp {
    kifu::log::envelope::Timestamp(1_767_225_600_000_000)
}

/// The pinned fixtures keep their bytes under the rules version they were recorded with.
fn driver() -> &'static dyn Driver {
    kifu::games::released("fate", 1).unwrap()
}

/// The first seed from `from` whose self-play game has digital dice.
fn digital_seed(from: u64) -> u64 {
    (from..from + 100)
        .find(|s| {
            let mut rng = AgentRng::seed_from_u64(*s);
            Fate::self_play_config(&players(), &mut rng).0.policies().dice == DiceMode::Digital
        })
        .unwrap()
}

fn self_played(name: &str, seed: u64) -> VerifiedLog {
    let s = store();
    let id = StreamId::new(name).unwrap();
    driver().self_play(&s, &id, seed, &players(), t0()).unwrap();
    s.export(&id).unwrap()
}

/// Mid-game a Master places a second Secret Sign; a judge forces it, warns, and backs up.
fn judged(name: &str, seed: u64) -> VerifiedLog {
    let mut rng = AgentRng::seed_from_u64(seed);
    let (config, mut secrets) = Fate::self_play_config(&players(), &mut rng);
    let names = Fate::players(&config);
    let mut state = Fate::setup(&config).unwrap();
    let mut entries: Vec<(Actor, GameEntry<<Fate as Game>::Event>)> = Vec::new();
    let mut judged_at = None;
    while let Some(event) = Fate::agent_step(&state, &mut secrets, &mut rng) {
        let actor = record::actor_for::<Fate>(&names, &event);
        Fate::ledger_mut(&mut state).at(entries.len() as u64);
        state = Fate::apply(state, &event);
        entries.push((actor, GameEntry::Played(event.clone())));
        if judged_at.is_none() && matches!(event, kifu::games::fate::FateEvent::SecretSignPlaced { .. }) {
            let broke: Vec<String> = Fate::validate(&state, &event).iter().map(|v| v.rule.to_string()).collect();
            if broke.is_empty() {
                continue;
            }
            let seq = entries.len() as u64;
            let judge = Actor::Judge("jin".into());
            entries.push((judge.clone(), GameEntry::Forced { judge: "jin".into(), broke, event: event.clone() }));
            let seat = Fate::acting_seat(&event).unwrap_or(0);
            entries.push((
                judge.clone(),
                GameEntry::Ruled(Ruling::WarningIssued {
                    judge: "jin".into(),
                    seat,
                    rule: Some("FATE-TURN-3".into()),
                    about: Some(seq),
                    note: "a second Secret Sign in one turn".into(),
                }),
            ));
            entries.push((
                judge,
                GameEntry::Ruled(Ruling::BackedUp {
                    judge: "jin".into(),
                    to_seq: seq,
                    note: "undo the second sign".into(),
                }),
            ));
            judged_at = Some(seq);
        }
    }
    assert!(judged_at.is_some(), "seed {seed} never placed a Secret Sign");
    let s = store();
    let id = StreamId::new(name).unwrap();
    record::import_entries::<Fate>(&s, &id, &config, entries, t0()).unwrap();
    s.export(&id).unwrap()
}

/// A log written without validation: the last recorded event repeated, and nobody ruled on it.
fn unruled(name: &str, seed: u64) -> VerifiedLog {
    let base = self_played("tmp", seed);
    let g = record::from_log::<Fate>(&base).unwrap();
    let s = store();
    let id = StreamId::new(name).unwrap();
    let cut = g.steps.len() / 2;
    let mut entries: Vec<(Actor, GameEntry<<Fate as Game>::Event>)> =
        g.steps[..cut].iter().map(|st| (st.actor.clone(), st.entry.clone())).collect();
    let dup = entries[cut - 1].clone();
    entries.push(dup);
    let header = record::game_header::<Fate>(&id, &g.config, t0()).unwrap();
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

fn fixtures() -> Vec<(&'static str, VerifiedLog)> {
    vec![
        ("fate-clean", self_played("fate-clean", digital_seed(1))),
        ("fate-judged", judged("fate-judged", 2)),
        ("fate-unruled", unruled("fate-unruled", 3)),
    ]
}

#[test]
fn fate_fixtures_match_their_recipes_and_pinned_audits() {
    let mut expected = String::new();
    for (name, log) in fixtures() {
        expected += &pin_fixture(driver(), name, &log);
    }
    ensure_file_contents("replays/expected-fate.txt", expected.as_bytes());
}

#[test]
fn checked_in_fate_fixtures_verify_audit_and_round_trip() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("replays");
    let expected = std::fs::read_to_string(dir.join("expected-fate.txt")).unwrap();
    for line in expected.lines() {
        let (log, jsonl) = check_checked_in_fixture(driver(), line);
        let g = record::from_log::<Fate>(&log).unwrap();
        match record::parse_jsonl::<Fate>(&jsonl, false) {
            Ok(parsed) => {
                let from_log: Vec<_> = g.steps.iter().map(|s| (s.actor.clone(), s.entry.clone())).collect();
                assert_eq!(parsed.entries, from_log);
            }
            Err(e) => assert!(line.contains("UNRESOLVED"), "{line} should import from JSON lines: {e}"),
        }
    }
    assert!(expected.contains("fate-clean") && expected.contains("findings=[]"));
    assert!(expected.contains("FATE-TURN-3:ruled"));
    assert!(expected.contains("UNRESOLVED"));
}
