//! The LC fixture games under replays/, regenerated from deterministic recipes and pinned byte for
//! byte: a clean self-played game; a judged game whose table recorded an attack result with the
//! wrong arithmetic (forced by a judge, warned about and backed up); and a game whose careless
//! recorder kept such a result with nobody ruling on it. `UPDATE_EXPECT=1 cargo test --release
//! lc::fixtures` rewrites them.

use std::path::Path;
use std::sync::Arc;

use kifu::clock::SteppingClock;
use kifu::game::driver::Driver;
use kifu::game::{record, AgentRng, Game, GameEntry, Ruling};
use kifu::games::lc::events::EndReason;
use kifu::games::lc::{Lc, LcEvent as E};
use kifu::log::chain::VerifiedLog;
use kifu::log::envelope::{Actor, StreamId};
use kifu::store::sled_store::SledStore;
use kifu::store::Store;
use rand::SeedableRng;

use crate::game_support::{check_checked_in_fixture, pin_fixture};
use crate::support::ensure_file_contents;

fn store() -> SledStore {
    SledStore::temporary(Arc::new(SteppingClock::fixed())).unwrap()
}

fn t0() -> kifu::log::envelope::Timestamp {
    kifu::log::envelope::Timestamp(1_767_225_600_000_000)
}

fn driver() -> &'static dyn Driver {
    kifu::games::driver("lc").unwrap()
}

fn players() -> Vec<String> {
    vec!["ana".to_string(), "rui".to_string()]
}

fn self_played(name: &str, seed: u64) -> VerifiedLog {
    let s = store();
    let id = StreamId::new(name).unwrap();
    driver().self_play(&s, &id, seed, &players(), t0()).unwrap();
    s.export(&id).unwrap()
}

/// The first seed from 1 whose self-played game ends at zero Combat Points after a Direct Attack.
fn clean_seed() -> u64 {
    (1..200)
        .find(|s| {
            let g = super::play(*s, false);
            g.events.iter().any(|e| matches!(e, E::DirectAttackDeclared { .. }))
                && g.events.iter().any(|e| matches!(e, E::GameEnded { reason: EndReason::ZeroPoints, .. }))
        })
        .unwrap()
}

/// A wrong-arithmetic copy of an attack result: 3 more Combat Points deducted than the rules give.
fn miscounted(e: &E) -> Option<E> {
    let E::AttackResolved { sword, against, destroyed, points_lost, line_points_lost, prevented: false } = e else {
        return None;
    };
    let mut points_lost = points_lost.clone();
    points_lost.first_mut()?.points += 3;
    Some(E::AttackResolved {
        sword: *sword,
        against: *against,
        destroyed: destroyed.clone(),
        points_lost,
        line_points_lost: line_points_lost.clone(),
        prevented: false,
    })
}

/// A self-played game in which the first Sword-against-Sword result that costs points is recorded
/// with the wrong arithmetic: by a judge who forces it, warns and backs it up (`judged`), or kept
/// as played with nobody ruling (`!judged`).
fn miscounted_game(name: &str, seed: u64, judged: bool) -> Option<VerifiedLog> {
    let mut rng = AgentRng::seed_from_u64(seed);
    let (config, mut secrets) = Lc::self_play_config(&players(), &mut rng);
    let names = Lc::players(&config);
    let mut state = Lc::setup(&config).ok()?;
    let mut entries: Vec<(Actor, GameEntry<E>)> = Vec::new();
    let mut done = false;
    while let Some(event) = Lc::agent_step(&state, &mut secrets, &mut rng) {
        let sword_vs_sword = state
            .attack
            .as_ref()
            .and_then(|a| a.target.as_ref())
            .and_then(|t| state.on_field(t))
            .is_some_and(|(_, line, _)| line == kifu::games::lc::events::Line::Attack);
        let wrong = if done || !sword_vs_sword { None } else { miscounted(&event) };
        if let Some(wrong) = wrong {
            done = true;
            let seq = entries.len() as u64;
            let broke: Vec<String> = Lc::validate(&state, &wrong).iter().map(|v| v.rule.to_string()).collect();
            if judged {
                let judge = Actor::Judge("jin".into());
                entries.push((judge.clone(), GameEntry::Forced { judge: "jin".into(), broke, event: wrong }));
                let seat = state.attack.as_ref().map_or(0, |a| a.seat);
                entries.push((
                    judge.clone(),
                    GameEntry::Ruled(Ruling::WarningIssued {
                        judge: "jin".into(),
                        seat,
                        rule: Some("LC-ATK-3".into()),
                        about: Some(seq),
                        note: "3 points too many were deducted".into(),
                    }),
                ));
                entries.push((
                    judge,
                    GameEntry::Ruled(Ruling::BackedUp {
                        judge: "jin".into(),
                        to_seq: seq,
                        note: "record the result again, computed right".into(),
                    }),
                ));
            } else {
                Lc::ledger_mut(&mut state).at(seq);
                state = Lc::apply(state, &wrong);
                entries.push((Actor::System, GameEntry::Played(wrong)));
                continue;
            }
        }
        let actor = record::actor_for::<Lc>(&names, &event);
        Lc::ledger_mut(&mut state).at(entries.len() as u64);
        state = Lc::apply(state, &event);
        entries.push((actor, GameEntry::Played(event)));
    }
    if !done || Lc::outcome(&state).is_none() {
        return None;
    }
    let s = store();
    let id = StreamId::new(name).unwrap();
    record::import_entries::<Lc>(&s, &id, &config, entries, t0()).unwrap();
    Some(s.export(&id).unwrap())
}

fn first_miscounted(name: &str, judged: bool) -> VerifiedLog {
    (1..100).find_map(|seed| miscounted_game(name, seed, judged)).unwrap()
}

#[test]
fn lc_fixtures_match_their_recipes_and_pinned_audits() {
    let fixtures = [
        ("lc-clean", self_played("lc-clean", clean_seed())),
        ("lc-judged", first_miscounted("lc-judged", true)),
        ("lc-unruled", first_miscounted("lc-unruled", false)),
    ];
    let mut expected = String::new();
    for (name, log) in &fixtures {
        expected += &pin_fixture(driver(), name, log);
    }
    ensure_file_contents("replays/expected-lc.txt", expected.as_bytes());
}

#[test]
fn checked_in_lc_fixtures_verify_audit_and_round_trip() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("replays");
    let expected = std::fs::read_to_string(dir.join("expected-lc.txt")).unwrap();
    for line in expected.lines() {
        let (log, jsonl) = check_checked_in_fixture(driver(), line);
        let name = line.split(' ').next().unwrap();
        match record::parse_jsonl::<Lc>(&jsonl, false) {
            Ok(parsed) => assert_eq!(parsed.entries.len() as u64, log.head.len, "{name}"),
            Err(e) => assert!(line.contains("UNRESOLVED"), "{name} should import from JSON lines: {e}"),
        }
    }
    let line = |n: &str| expected.lines().find(|l| l.starts_with(n)).unwrap().to_string();
    assert!(line("lc-clean").ends_with("findings=[]"));
    // The wrong arithmetic is found at the event that recorded it: ruled in one game, not in the other.
    assert!(line("lc-judged").contains(":LC-ATK-3:ruled"), "{}", line("lc-judged"));
    assert!(line("lc-unruled").contains(":LC-ATK-3:UNRESOLVED"), "{}", line("lc-unruled"));
}
