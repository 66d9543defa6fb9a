//! The machinery written once for every game (record, replay, rulings, backups, snapshots, audit,
//! JSON lines, self-play), exercised through a tiny three-player game defined here: players take
//! 1 to 3 stones in turn, and whoever takes the last stone wins.

use std::sync::Arc;

use kifu::clock::SteppingClock;
use kifu::game::audit;
use kifu::game::record::{self, GameError};
use kifu::game::replay::Replay;
use kifu::game::selfplay;
use kifu::game::{Game, GameEntry, Ruling, Seat};
use kifu::log::envelope::{Actor, StreamId, Timestamp};
use kifu::store::sled_store::SledStore;
use kifu::store::Store;

use crate::stones::{Config, Event, Stones};

fn players() -> Vec<String> {
    vec!["ann".into(), "bo".into(), "cy".into()]
}

fn take(seat: Seat, count: u32) -> GameEntry<Event> {
    GameEntry::Played(Event::StonesTaken { seat, count })
}

/// A store holding one new stones game with 10 stones.
fn new_game() -> (SledStore, StreamId) {
    let store = SledStore::temporary(Arc::new(SteppingClock::fixed())).unwrap();
    let id = StreamId::new("stones-1").unwrap();
    let config = Config { players: players(), stones: 10 };
    record::create::<Stones>(&store, &id, &config, Timestamp(0)).unwrap();
    (store, id)
}

fn player(name: &str) -> Actor {
    Actor::Player(name.into())
}

fn judge() -> Actor {
    Actor::Judge("jin".into())
}

fn replay(store: &SledStore, id: &StreamId) -> Replay<Stones> {
    let g = record::load::<Stones>(store, id).unwrap();
    Replay::new(g.config, g.steps).unwrap()
}

#[test]
fn illegal_action_is_refused_with_rule_ids_and_nothing_is_written() {
    let (store, id) = new_game();
    record::record::<Stones>(&store, &id, player("ann"), take(0, 2), None).unwrap();
    let err = record::record::<Stones>(&store, &id, player("ann"), take(0, 5), None).unwrap_err();
    let GameError::Refused(v) = err else { panic!("{err}") };
    let rules: Vec<_> = v.iter().map(|v| v.rule).collect();
    assert_eq!(rules, ["STONES-2", "STONES-3"], "every broken rule is reported, not just the first");
    assert_eq!(store.head(&id).unwrap().len, 1);
}

#[test]
fn a_player_cannot_record_another_seats_action() {
    let (store, id) = new_game();
    let err = record::record::<Stones>(&store, &id, player("bo"), take(0, 1), None).unwrap_err();
    let GameError::Refused(v) = err else { panic!("{err}") };
    assert_eq!(v[0].rule, "KIFU-ACTOR-1");
}

#[test]
fn a_judge_can_force_an_illegal_action_and_it_is_flagged() {
    let (store, id) = new_game();
    let forced =
        GameEntry::Forced { judge: "jin".into(), broke: vec![], event: Event::StonesTaken { seat: 1, count: 2 } };
    // A player cannot force.
    let err = record::record::<Stones>(&store, &id, player("bo"), forced.clone(), None).unwrap_err();
    assert!(matches!(&err, GameError::Refused(v) if v[0].rule == "KIFU-RULING-1"), "{err}");
    let rec = record::record::<Stones>(&store, &id, judge(), forced, None).unwrap();
    assert_eq!(rec.flagged.iter().map(|v| v.rule).collect::<Vec<_>>(), ["STONES-2"]);
    let g = record::load::<Stones>(&store, &id).unwrap();
    assert!(matches!(&g.steps[0].entry, GameEntry::Forced { broke, .. } if broke == &["STONES-2"]));
    let (report, _) = audit::audit::<Stones>(g.config, g.steps).unwrap();
    assert_eq!(report.findings.len(), 1);
    assert_eq!(report.findings[0].rule, "STONES-2");
    assert_eq!(report.findings[0].resolution.as_deref(), Some("recorded by judge jin with --force"));
    assert_eq!(report.unresolved(), 0);
}

#[test]
fn a_backup_restores_the_earlier_state_and_resolves_what_it_undid() {
    let (store, id) = new_game();
    record::record::<Stones>(&store, &id, player("ann"), take(0, 1), None).unwrap();
    record::record::<Stones>(&store, &id, player("bo"), take(1, 3), None).unwrap();
    let forced =
        GameEntry::Forced { judge: "jin".into(), broke: vec![], event: Event::StonesTaken { seat: 0, count: 3 } };
    record::record::<Stones>(&store, &id, judge(), forced, None).unwrap();
    let backup = Ruling::BackedUp { judge: "jin".into(), to_seq: 1, note: "bo took the wrong count".into() };
    record::record::<Stones>(&store, &id, judge(), GameEntry::Ruled(backup), None).unwrap();
    let r = replay(&store, &id);
    let after = r.last();
    assert_eq!(after.game, r.state_at(1).game, "the game is where it stood before event 1");
    assert_eq!(after.game.stones, 9);
    assert_eq!(after.rulings.backups.len(), 1);
    // Play continues from there: it is bo's turn again.
    record::record::<Stones>(&store, &id, player("bo"), take(1, 2), None).unwrap();
    let g = record::load::<Stones>(&store, &id).unwrap();
    let (report, _) = audit::audit::<Stones>(g.config, g.steps).unwrap();
    assert_eq!(report.findings.len(), 1);
    assert!(report.findings[0].resolution.as_deref().unwrap().starts_with("recorded by judge jin"));
}

#[test]
fn audit_collects_every_violation_and_reports_unresolved_ones() {
    // A log written by another tool (JSON lines) may hold illegal plays nobody ruled on.
    let (store, _) = new_game();
    let id = StreamId::new("imported").unwrap();
    let config = Config { players: players(), stones: 10 };
    let entries = vec![
        (player("ann"), take(0, 3)),
        (player("ann"), take(0, 3)),
        (player("cy"), take(2, 9)),
        (
            judge(),
            GameEntry::Ruled(Ruling::WarningIssued {
                judge: "jin".into(),
                seat: 0,
                rule: Some("STONES-2".into()),
                about: Some(1),
                note: "out of turn".into(),
            }),
        ),
    ];
    record::import_entries::<Stones>(&store, &id, &config, entries, Timestamp(0)).unwrap();
    let g = record::load::<Stones>(&store, &id).unwrap();
    let (report, _) = audit::audit::<Stones>(g.config, g.steps).unwrap();
    let found: Vec<_> = report.findings.iter().map(|f| (f.seq, f.rule.as_str(), f.resolution.is_some())).collect();
    // Event 2 breaks two rules at once (cy acts on bo's turn and takes 9): both are reported.
    assert_eq!(found, [(Some(1), "STONES-2", true), (Some(2), "STONES-2", false), (Some(2), "STONES-3", false)]);
    assert_eq!(report.unresolved(), 2);
    assert_eq!(report.findings[0].actor.as_deref(), Some("player:ann"));
}

#[test]
fn a_game_loss_ruling_decides_the_outcome() {
    let (store, id) = new_game();
    record::record::<Stones>(&store, &id, player("ann"), take(0, 1), None).unwrap();
    let loss =
        Ruling::GameLossIssued { judge: "jin".into(), seat: 1, rule: None, about: None, note: "marked cards".into() };
    record::record::<Stones>(&store, &id, judge(), GameEntry::Ruled(loss), None).unwrap();
    let r = replay(&store, &id);
    // Three players: one game loss leaves two, so the game goes on by the rules.
    assert_eq!(r.last().outcome(), None);
    let loss = Ruling::GameLossIssued { judge: "jin".into(), seat: 2, rule: None, about: None, note: "no show".into() };
    record::record::<Stones>(&store, &id, judge(), GameEntry::Ruled(loss), None).unwrap();
    assert_eq!(replay(&store, &id).last().outcome().unwrap().winners, [0]);
    // A ruling about an event that does not exist yet is refused.
    let bad = Ruling::NoteRecorded { judge: "jin".into(), about: Some(99), note: "?".into() };
    let err = record::record::<Stones>(&store, &id, judge(), GameEntry::Ruled(bad), None).unwrap_err();
    assert!(matches!(&err, GameError::Refused(v) if v[0].rule == "KIFU-RULING-2"), "{err}");
}

#[test]
fn snapshots_give_the_same_state_as_refolding_everywhere() {
    let game = selfplay::self_play::<Stones>(7, &players(), 1000).unwrap();
    let steps: Vec<_> = game
        .entries
        .into_iter()
        .enumerate()
        .map(|(i, (actor, entry))| kifu::game::replay::Step { seq: i as u64, recorded_at: Timestamp(0), actor, entry })
        .collect();
    let n = steps.len() as u64;
    let r = Replay::<Stones>::with_inspector(game.config, steps, 4, |_, _, _| {}).unwrap();
    for i in 0..=n {
        assert_eq!(r.state_at(i).game, r.refold_to(i).game, "state after {i} events");
    }
    assert_eq!(r.last().game, game.final_state);
    assert_eq!(r.seek_turn(3, None), Some(2));
    assert_eq!(r.seek_turn(3, Some("take")), Some(2));
    assert_eq!(r.seek_turn(999, None), None);
}

#[test]
fn self_play_is_deterministic_and_audits_clean() {
    for seed in 0..200 {
        let a = selfplay::self_play::<Stones>(seed, &players(), 1000).unwrap();
        let b = selfplay::self_play::<Stones>(seed, &players(), 1000).unwrap();
        assert_eq!(a.entries, b.entries);
        assert!(Stones::outcome(&a.final_state).is_some(), "seed {seed} finished");
        let steps = a
            .entries
            .into_iter()
            .enumerate()
            .map(|(i, (actor, entry))| kifu::game::replay::Step {
                seq: i as u64,
                recorded_at: Timestamp(0),
                actor,
                entry,
            })
            .collect();
        let (report, _) = audit::audit::<Stones>(a.config, steps).unwrap();
        assert!(report.is_clean(), "seed {seed}: {:?}", report.findings);
    }
}

#[test]
fn json_lines_round_trip_and_refuse_illegal_lines_by_number() {
    let (store, id) = new_game();
    record::record::<Stones>(&store, &id, player("ann"), take(0, 2), None).unwrap();
    record::record::<Stones>(&store, &id, player("bo"), take(1, 1), None).unwrap();
    let g = record::load::<Stones>(&store, &id).unwrap();
    let text = record::to_jsonl::<Stones>(&id, &g.config, &g.steps).unwrap();
    let parsed = record::parse_jsonl::<Stones>(&text, false).unwrap();
    assert_eq!(parsed.stream.as_deref(), Some("stones-1"));
    let copy = StreamId::new("copy").unwrap();
    record::import_entries::<Stones>(&store, &copy, &parsed.config, parsed.entries, Timestamp(0)).unwrap();
    let c = record::load::<Stones>(&store, &copy).unwrap();
    assert_eq!(
        c.steps.iter().map(|s| &s.entry).collect::<Vec<_>>(),
        g.steps.iter().map(|s| &s.entry).collect::<Vec<_>>()
    );
    // An illegal third line is refused by line number and rule ID; nothing is imported.
    let bad =
        format!("{text}{}\n", r#"{"actor":"player:ann","entry":{"Played":{"StonesTaken":{"seat":0,"count":7}}}}"#);
    let err = record::parse_jsonl::<Stones>(&bad, false).err().unwrap().to_string();
    assert!(err.contains("STONES-3") && err.contains("line 4 (event 2)"), "{err}");
    let err = record::parse_jsonl::<Stones>(
        "{\"game\":\"stones\",\"config\":{\"players\":[\"a\",\"b\"],\"stones\":3}}\nnot json\n",
        false,
    )
    .err()
    .unwrap()
    .to_string();
    assert!(err.contains("line 2"), "{err}");
}
