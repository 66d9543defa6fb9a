//! The BRK fixture games under replays/, regenerated from deterministic recipes and pinned byte
//! for byte: a clean self-played game; a judged game in which a blocked action's source did not
//! pay (the judge forced the entry, warned the player and backed up); and a game with an
//! unresolved finding (an interrupted action was charged). `UPDATE_EXPECT=1 cargo test --release
//! brk::fixtures` rewrites them.

use std::path::Path;
use std::sync::Arc;

use kifu::clock::SteppingClock;
use kifu::game::driver::Driver;
use kifu::game::record::{self, actor_for};
use kifu::game::{Game, GameEntry, Ruling};
use kifu::games::brk::events::BrkEvent as E;
use kifu::games::brk::state::Status;
use kifu::games::brk::{Brk, BrkConfig};
use kifu::log::chain::VerifiedLog;
use kifu::log::envelope::{Actor, StreamId};
use kifu::store::sled_store::SledStore;
use kifu::store::Store;

use crate::game_support::{check_checked_in_fixture, pin_fixture};
use crate::support::ensure_file_contents;

fn store() -> SledStore {
    SledStore::temporary(Arc::new(SteppingClock::fixed())).unwrap()
}

fn t0() -> kifu::log::envelope::Timestamp {
    kifu::log::envelope::Timestamp(1_767_225_600_000_000)
}

/// The pinned fixtures keep their bytes under the rules version they were recorded with.
fn driver() -> &'static dyn Driver {
    kifu::games::released("brk", 1).unwrap()
}

fn players() -> Vec<String> {
    vec!["alice".to_string(), "bob".to_string()]
}

fn self_played(name: &str, seed: u64) -> VerifiedLog {
    let s = store();
    let id = StreamId::new(name).unwrap();
    driver().self_play(&s, &id, seed, &players(), t0()).unwrap();
    s.export(&id).unwrap()
}

type Entries = Vec<(Actor, GameEntry<E>)>;

/// Whether an effect hid a face-up card of each seat during the game: then the judge sees cards
/// neither player's opponent nor a spectator sees, which the server's leak test needs.
fn hides_both(seed: u64) -> bool {
    let g = super::play(seed, false);
    [0u8, 1].iter().all(|seat| {
        g.events
            .iter()
            .any(|e| matches!(e, E::CardHidden { piece, .. } if g.last.piece(piece).is_some_and(|p| p.owner == *seat)))
    })
}

/// A self-played game with the fixture's player names, as entries and the states before each event.
fn game(seed: u64) -> (BrkConfig, Vec<E>, Vec<kifu::games::brk::BrkState>) {
    let g = super::play(seed, true);
    let mut config = g.config.clone();
    let BrkConfig::V1(c) = &mut config;
    c.players = players();
    (config, g.events, g.states)
}

fn played(e: &E) -> (Actor, GameEntry<E>) {
    (actor_for::<Brk>(&players(), e), GameEntry::Played(e.clone()))
}

/// After the first block, the player holding priority passes instead of the source paying: the
/// judge forces the entry (BRK-BLOCK-5), warns the source's controller and backs up; the game then
/// goes on as played.
fn judged(seed: u64) -> Option<(BrkConfig, Entries)> {
    if !hides_both(seed) {
        return None;
    }
    let (config, events, states) = game(seed);
    let i = events.iter().position(|e| matches!(e, E::GameActionBlocked { .. }))?;
    let mut entries: Entries = events[..=i].iter().map(played).collect();
    let after = Brk::apply(states[i].clone(), &events[i]);
    let holder = after.priority?;
    let payer = after.payment_due()?.seat;
    let wrong = E::PriorityPassed { seat: holder };
    let broke: Vec<String> = Brk::validate(&after, &wrong).iter().map(|v| v.rule.to_string()).collect();
    if broke != ["BRK-BLOCK-5"] {
        return None;
    }
    let at = entries.len() as u64;
    entries.push((Actor::Judge("jin".into()), GameEntry::Forced { judge: "jin".into(), broke, event: wrong }));
    entries.push((
        Actor::Judge("jin".into()),
        GameEntry::Ruled(Ruling::WarningIssued {
            judge: "jin".into(),
            seat: payer,
            rule: Some("BRK-BLOCK-5".into()),
            about: Some(at),
            note: "the blocked action's source pays everything it was due".into(),
        }),
    ));
    entries.push((
        Actor::Judge("jin".into()),
        GameEntry::Ruled(Ruling::BackedUp { judge: "jin".into(), to_seq: at, note: "back to the payment".into() }),
    ));
    entries.extend(events[i + 1..].iter().map(played));
    Some((config, entries))
}

/// Right before the turn in which an action was interrupted ends, its declared payment is recorded
/// anyway (BRK-INT-2), and nobody rules on it.
fn unresolved(seed: u64) -> Option<(BrkConfig, Entries)> {
    if !hides_both(seed) {
        return None;
    }
    let (config, events, states) = game(seed);
    let (i, id) = events.iter().enumerate().find_map(|(i, e)| {
        let E::GameActionInterrupted { action, .. } = e else { return None };
        let a = states[i].action(*action)?;
        let gold_only = a.payment.iter().all(|r| r.resource == kifu::games::brk::catalog::Resource::Gold);
        (!a.payment.is_empty() && gold_only).then_some((i, *action))
    })?;
    let end = i + events[i..].iter().position(|e| matches!(e, E::TurnEnded { .. }))?;
    let s = &states[end];
    if !matches!(s.action(id)?.status, Status::Interrupted { .. }) {
        return None;
    }
    let charge = E::PaymentMade { action: id, resources: s.action(id)?.payment.clone() };
    let mut entries: Entries = events[..end].iter().map(played).collect();
    entries.push(played(&charge));
    entries.extend(events[end..].iter().map(played));
    Some((config, entries))
}

fn imported(name: &str, (config, entries): (BrkConfig, Entries)) -> VerifiedLog {
    let s = store();
    let id = StreamId::new(name).unwrap();
    record::import_entries::<Brk>(&s, &id, &config, entries, t0()).unwrap();
    s.export(&id).unwrap()
}

#[test]
fn brk_fixtures_match_their_recipes_and_pinned_audits() {
    let fixtures = [
        ("brk-clean", self_played("brk-clean", (1..200).find(|s| hides_both(*s)).unwrap())),
        ("brk-judged", imported("brk-judged", (2..200).find_map(judged).unwrap())),
        ("brk-unresolved", imported("brk-unresolved", (3..200).find_map(unresolved).unwrap())),
    ];
    let mut expected = String::new();
    for (name, log) in &fixtures {
        expected += &pin_fixture(driver(), name, log);
    }
    ensure_file_contents("replays/expected-brk.txt", expected.as_bytes());
}

#[test]
fn checked_in_brk_fixtures_verify_audit_and_round_trip() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("replays");
    let expected = std::fs::read_to_string(dir.join("expected-brk.txt")).unwrap();
    for line in expected.lines() {
        let (log, jsonl) = check_checked_in_fixture(driver(), line);
        let name = line.split(' ').next().unwrap();
        match record::parse_jsonl::<Brk>(&jsonl, false) {
            Ok(parsed) => assert_eq!(parsed.entries.len() as u64, log.head.len, "{name}"),
            Err(e) => assert!(line.contains("UNRESOLVED"), "{name} should import from JSON lines: {e}"),
        }
    }
    let line = |name: &str| expected.lines().find(|l| l.starts_with(name)).unwrap().to_string();
    assert!(line("brk-clean ").ends_with("findings=[]"));
    // The blocked action's unpaid source is found at the forced event, and ruled on.
    assert!(line("brk-judged").contains(":BRK-BLOCK-5:ruled"), "{}", line("brk-judged"));
    assert!(line("brk-unresolved").contains(":BRK-INT-2:UNRESOLVED"), "{}", line("brk-unresolved"));
}
