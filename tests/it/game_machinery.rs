//! The machinery written once for every game (record, replay, rulings, backups, snapshots, audit,
//! JSON lines, self-play), exercised through a tiny three-player game defined here: players take
//! 1 to 3 stones in turn, and whoever takes the last stone wins.

use std::sync::Arc;

use kifu::clock::SteppingClock;
use kifu::game::audit;
use kifu::game::commit::{
    combine_seeds, commit_seed, die_roll, seal, seal_choice, seeded_order, CommitmentLedger, RandomMode,
};
use kifu::game::common::CommonEvent;
use kifu::game::driver::Driver;
use kifu::game::record::{self, GameError};
use kifu::game::replay::Replay;
use kifu::game::selfplay;
use kifu::game::versions::Versions;
use kifu::game::{Game, GameEntry, Outcome, OutcomeKind, Ruling, Seat};
use kifu::log::envelope::{Actor, IdempotencyId, StreamId, Timestamp};
use kifu::log::hash::Hash32;
use kifu::store::sled_store::SledStore;
use kifu::store::{Store, StoreError};

use crate::stones::{Config, Event, Stones, StonesV2, DICE, STONES, STONES_V2, STONES_VERSIONS};

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
    let config = Config { players: players(), stones: 10, dice: None };
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
    record::record::<Stones>(&store, &id, player("ann"), take(0, 2), None, None).unwrap();
    let err = record::record::<Stones>(&store, &id, player("ann"), take(0, 5), None, None).unwrap_err();
    let GameError::Refused(v) = err else { panic!("{err}") };
    let rules: Vec<_> = v.iter().map(|v| v.rule).collect();
    assert_eq!(rules, ["KIFU-TURN-1", "STONES-3"], "every broken rule is reported, not just the first");
    assert_eq!(store.head(&id).unwrap().len, 1);
}

#[test]
fn a_retry_under_an_idempotency_key_is_answered_as_the_first_attempt() {
    let (store, id) = new_game();
    let key = |k: &str| Some(IdempotencyId::from_key(k));
    let first = record::record::<Stones>(&store, &id, player("ann"), take(0, 2), Some(0), key("t1")).unwrap();
    assert_eq!((first.seq, first.retried), (0, false));
    record::record::<Stones>(&store, &id, player("bo"), take(1, 1), Some(1), key("t2")).unwrap();
    // The client never saw the first answer and sends the request again: its expected count is
    // stale and it is no longer ann's turn, yet it is recognised, and nothing is written.
    let again = record::record::<Stones>(&store, &id, player("ann"), take(0, 2), Some(0), key("t1")).unwrap();
    assert_eq!((again.seq, again.retried), (0, true));
    assert_eq!(again.head, store.head(&id).unwrap());
    let again = record::record::<Stones>(&store, &id, player("ann"), take(0, 2), None, key("t1")).unwrap();
    assert_eq!((again.seq, again.retried), (0, true));
    assert_eq!(store.head(&id).unwrap().len, 2);
    // The same key with another action or another actor is a conflict; a refusal stays one.
    for (actor, entry) in [(player("ann"), take(0, 3)), (player("cy"), take(0, 2))] {
        let err = record::record::<Stones>(&store, &id, actor, entry, None, key("t1")).unwrap_err();
        assert!(matches!(err, GameError::Store(StoreError::IdempotencyConflict { seq: 0, .. })), "{err}");
    }
    let err = record::record::<Stones>(&store, &id, player("ann"), take(0, 1), None, key("t3")).unwrap_err();
    assert!(matches!(err, GameError::Refused(_)), "{err}");
    // A forced entry is judged again on the later head (it breaks other rules there): still a retry.
    let forced_again =
        || GameEntry::Forced { judge: "jin".into(), broke: vec![], event: Event::StonesTaken { seat: 1, count: 1 } };
    let forced = forced_again();
    let rec = record::record::<Stones>(&store, &id, judge(), forced.clone(), None, key("f1")).unwrap();
    assert_eq!(rec.flagged.iter().map(|v| v.rule).collect::<Vec<_>>(), ["KIFU-TURN-1"]);
    // Six stones left: cy and ann take them all, and the game is over.
    record::record::<Stones>(&store, &id, player("cy"), take(2, 3), None, None).unwrap();
    record::record::<Stones>(&store, &id, player("ann"), take(0, 3), None, None).unwrap();
    let again = record::record::<Stones>(&store, &id, judge(), forced, None, key("f1")).unwrap();
    assert_eq!((again.seq, again.retried), (rec.seq, true));
    assert_eq!(again.flagged.iter().map(|v| v.rule).collect::<Vec<_>>(), ["KIFU-TURN-1"], "as first recorded");
    assert_eq!(store.head(&id).unwrap().len, 5);
    // Judged afresh now, the same action breaks more: the retry above was not a plain store retry.
    let fresh = record::record::<Stones>(&store, &id, judge(), forced_again(), None, None).unwrap();
    assert_ne!(fresh.flagged.iter().map(|v| v.rule).collect::<Vec<_>>(), ["KIFU-TURN-1"]);
}

#[test]
fn a_player_cannot_record_another_seats_action() {
    let (store, id) = new_game();
    let err = record::record::<Stones>(&store, &id, player("bo"), take(0, 1), None, None).unwrap_err();
    let GameError::Refused(v) = err else { panic!("{err}") };
    assert_eq!(v[0].rule, "KIFU-ACTOR-1");
    // Refused for that alone: the rules the action would also break are the other seat's
    // business (in a card game they say where its hidden cards lie), so none is listed.
    let err = record::record::<Stones>(&store, &id, player("bo"), take(0, 9), None, None).unwrap_err();
    let GameError::Refused(v) = err else { panic!("{err}") };
    assert_eq!(v.iter().map(|v| v.rule).collect::<Vec<_>>(), ["KIFU-ACTOR-1"], "{v:?}");
    // The same action by its own seat breaks the rules, so the check above hid something.
    let err = record::record::<Stones>(&store, &id, player("ann"), take(0, 9), None, None).unwrap_err();
    let GameError::Refused(v) = err else { panic!("{err}") };
    assert!(!v.is_empty() && v.iter().all(|v| v.rule != "KIFU-ACTOR-1"), "{v:?}");
    assert_eq!(store.head(&id).unwrap().len, 0, "nothing written");
}

#[test]
fn a_judge_can_force_an_illegal_action_and_it_is_flagged() {
    let (store, id) = new_game();
    let forced =
        GameEntry::Forced { judge: "jin".into(), broke: vec![], event: Event::StonesTaken { seat: 1, count: 2 } };
    // A player cannot force.
    let err = record::record::<Stones>(&store, &id, player("bo"), forced.clone(), None, None).unwrap_err();
    assert!(matches!(&err, GameError::Refused(v) if v[0].rule == "KIFU-RULING-1"), "{err}");
    let rec = record::record::<Stones>(&store, &id, judge(), forced, None, None).unwrap();
    assert_eq!(rec.flagged.iter().map(|v| v.rule).collect::<Vec<_>>(), ["KIFU-TURN-1"]);
    let g = record::load::<Stones>(&store, &id).unwrap();
    assert!(matches!(&g.steps[0].entry, GameEntry::Forced { broke, .. } if broke == &["KIFU-TURN-1"]));
    let (report, _) = audit::audit::<Stones>(g.config, g.steps).unwrap();
    assert_eq!(report.findings.len(), 1);
    assert_eq!(report.findings[0].rule, "KIFU-TURN-1");
    assert_eq!(report.findings[0].resolution.as_deref(), Some("forced entry by judge jin (event 0)"));
    assert_eq!(report.unresolved(), 0);
}

#[test]
fn a_backup_restores_the_earlier_state_and_resolves_what_it_undid() {
    let (store, id) = new_game();
    record::record::<Stones>(&store, &id, player("ann"), take(0, 1), None, None).unwrap();
    record::record::<Stones>(&store, &id, player("bo"), take(1, 3), None, None).unwrap();
    let forced =
        GameEntry::Forced { judge: "jin".into(), broke: vec![], event: Event::StonesTaken { seat: 0, count: 3 } };
    record::record::<Stones>(&store, &id, judge(), forced, None, None).unwrap();
    let backup = Ruling::BackedUp { judge: "jin".into(), to_seq: 1, note: "bo took the wrong count".into() };
    record::record::<Stones>(&store, &id, judge(), GameEntry::Ruled(backup), None, None).unwrap();
    let r = replay(&store, &id);
    let after = r.last();
    assert_eq!(after.game, r.state_at(1).game, "the game is where it stood before event 1");
    assert_eq!(after.game.stones, 9);
    assert_eq!(after.rulings.backups.len(), 1);
    // Play continues from there: it is bo's turn again.
    record::record::<Stones>(&store, &id, player("bo"), take(1, 2), None, None).unwrap();
    let g = record::load::<Stones>(&store, &id).unwrap();
    let (report, _) = audit::audit::<Stones>(g.config, g.steps).unwrap();
    assert_eq!(report.findings.len(), 1);
    assert!(report.findings[0].resolution.as_deref().unwrap().starts_with("forced entry by judge jin"));
}

/// Every list of a game's events (the whole timeline, one event described, a page of the open
/// game) marks the plays a judge's backup undid, and only those: rulings stand, and plays after
/// the backup count. A second backup further back undoes the plays of the first's replay too.
#[test]
fn events_a_backup_undid_are_marked_undone_in_every_list() {
    use kifu::game::driver::Session;
    use kifu::game::Viewer;
    let (store, id) = new_game();
    let backup =
        |to_seq| GameEntry::Ruled(Ruling::BackedUp { judge: "jin".into(), to_seq, note: "wrong count".into() });
    record::record::<Stones>(&store, &id, player("ann"), take(0, 2), None, None).unwrap(); // 0
    record::record::<Stones>(&store, &id, player("bo"), take(1, 3), None, None).unwrap(); // 1
    record::record::<Stones>(&store, &id, judge(), backup(1), None, None).unwrap(); // 2: undoes 1
    record::record::<Stones>(&store, &id, player("bo"), take(1, 1), None, None).unwrap(); // 3
    record::record::<Stones>(&store, &id, player("cy"), take(2, 1), None, None).unwrap(); // 4
    let undone = |g: &record::LiveGame<Stones>| -> Vec<bool> {
        let whole: Vec<bool> = g.timeline(Viewer::Judge).iter().map(|e| e.undone).collect();
        let one: Vec<bool> = (0..g.len()).map(|s| g.describe(s, Viewer::Judge).unwrap().undone).collect();
        assert_eq!(whole, one, "the whole timeline and each event described agree");
        whole
    };
    let mut g = record::LiveGame::<Stones>::load(&store, &id).unwrap();
    assert_eq!(undone(&g), [false, true, false, false, false]);
    // The open game's cached page is built before the next backup: it is marked when served.
    assert_eq!(g.timeline_range(Viewer::Spectator, 0, 5).iter().filter(|e| e.undone).count(), 1);
    record::record::<Stones>(&store, &id, judge(), backup(3), None, None).unwrap(); // 5: undoes 3, 4
    g.catch_up(&store).unwrap();
    let page: Vec<bool> = g.timeline_range(Viewer::Spectator, 0, 6).iter().map(|e| e.undone).collect();
    assert_eq!(page, [false, true, false, true, true, false]);
    assert_eq!(g.describe(5, Viewer::Judge).unwrap().backs_up_to, Some(3), "the backup names the first event it undid");
    assert!(g.describe(5, Viewer::Judge).unwrap().shown_text().contains("backed the game up to before event 3"));
    assert!(g.describe(4, Viewer::Judge).unwrap().shown_text().ends_with("[undone by a judge's backup]"));
    record::record::<Stones>(&store, &id, judge(), backup(0), None, None).unwrap(); // 6: undoes every play
    g.catch_up(&store).unwrap();
    assert_eq!(undone(&g), [true, true, false, true, true, false, false]);
}

#[test]
fn audit_collects_every_violation_and_reports_unresolved_ones() {
    // A log written by another tool (JSON lines) may hold illegal plays nobody ruled on.
    let (store, _) = new_game();
    let id = StreamId::new("imported").unwrap();
    let config = Config { players: players(), stones: 10, dice: None };
    let entries = vec![
        (player("ann"), take(0, 3)),
        (player("ann"), take(0, 3)),
        (player("cy"), take(2, 9)),
        (
            judge(),
            GameEntry::Ruled(Ruling::WarningIssued {
                judge: "jin".into(),
                seat: 0,
                rule: Some("KIFU-TURN-1".into()),
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
    assert_eq!(found, [(Some(1), "KIFU-TURN-1", true), (Some(2), "KIFU-TURN-1", false), (Some(2), "STONES-3", false)]);
    assert_eq!(report.unresolved(), 2);
    assert_eq!(report.findings[0].actor.as_deref(), Some("player:ann"));
}

#[test]
fn a_game_loss_ruling_decides_the_outcome() {
    let (store, id) = new_game();
    record::record::<Stones>(&store, &id, player("ann"), take(0, 1), None, None).unwrap();
    let loss =
        Ruling::GameLossIssued { judge: "jin".into(), seat: 1, rule: None, about: None, note: "marked cards".into() };
    record::record::<Stones>(&store, &id, judge(), GameEntry::Ruled(loss), None, None).unwrap();
    let r = replay(&store, &id);
    // Three players: one game loss leaves two, so the game goes on by the rules.
    assert_eq!(r.last().outcome(), None);
    let loss = Ruling::GameLossIssued { judge: "jin".into(), seat: 2, rule: None, about: None, note: "no show".into() };
    record::record::<Stones>(&store, &id, judge(), GameEntry::Ruled(loss), None, None).unwrap();
    assert_eq!(replay(&store, &id).last().outcome().unwrap().winners(), [0]);
    // A ruling about an event that does not exist yet is refused.
    let bad = Ruling::NoteRecorded { judge: "jin".into(), about: Some(99), note: "?".into() };
    let err = record::record::<Stones>(&store, &id, judge(), GameEntry::Ruled(bad), None, None).unwrap_err();
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
    record::record::<Stones>(&store, &id, player("ann"), take(0, 2), None, None).unwrap();
    record::record::<Stones>(&store, &id, player("bo"), take(1, 1), None, None).unwrap();
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

// ---------------------------------------------------------------------------------------------
// N seats, who may act, placements, combined seeds and dice, versioned rules.
// ---------------------------------------------------------------------------------------------

fn names(n: usize) -> Vec<String> {
    ["ann", "bo", "cy", "di", "ed", "fay"].iter().take(n).map(|s| s.to_string()).collect()
}

fn common(c: CommonEvent) -> GameEntry<Event> {
    GameEntry::Played(Event::Common(c))
}

fn create(store: &SledStore, id: &str, n: usize, stones: u32, dice: Option<RandomMode>) -> StreamId {
    let id = StreamId::new(id).unwrap();
    record::create::<Stones>(store, &id, &Config { players: names(n), stones, dice }, Timestamp(0)).unwrap();
    id
}

fn refused(err: GameError) -> Vec<&'static str> {
    match err {
        GameError::Refused(v) => v.iter().map(|v| v.rule).collect(),
        other => panic!("expected a refusal, got {other}"),
    }
}

fn seat_actor(n: usize, seat: Seat) -> Actor {
    player(&names(n)[usize::from(seat)])
}

#[test]
fn every_kifu_rule_id_in_the_source_is_registered_and_documented() {
    use kifu::game::rules::{is_kifu_rule, KIFU_RULES};
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![root.join("src")];
    let mut found = std::collections::BTreeSet::new();
    while let Some(path) = files.pop() {
        if path.is_dir() {
            files.extend(std::fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).unwrap();
            for (i, _) in text.match_indices("\"KIFU-") {
                let id: String = text[i + 1..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '-').collect();
                if id.rsplit('-').next().is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit())) {
                    found.insert(id);
                }
            }
        }
    }
    let unregistered: Vec<_> = found.iter().filter(|id| !is_kifu_rule(id)).collect();
    assert!(unregistered.is_empty(), "KIFU IDs used but not in KIFU_RULES: {unregistered:?}");
    let doc = std::fs::read_to_string(root.join("docs/rule-ids.md")).unwrap();
    for (id, _) in KIFU_RULES {
        assert!(doc.contains(&format!("| `{id}` |")), "docs/rule-ids.md does not list {id}");
    }
    assert!(found.len() >= 15, "suspiciously few KIFU IDs found: {found:?}");
}

#[test]
fn seat_count_outside_the_range_is_refused_by_the_one_seat_check() {
    let err = Stones::setup(&Config { players: names(1), stones: 5, dice: None }).unwrap_err();
    assert_eq!(err.iter().map(|v| v.rule).collect::<Vec<_>>(), ["KIFU-SEAT-2"]);
    let seven: Vec<String> = (0..7).map(|i| format!("p{i}")).collect();
    let err = Stones::setup(&Config { players: seven, stones: 5, dice: None }).unwrap_err();
    assert_eq!(err[0].rule, "KIFU-SEAT-2");
    for n in 2..=6 {
        assert!(Stones::setup(&Config { players: names(n), stones: 5, dice: None }).is_ok());
    }
}

#[test]
fn four_seats_a_game_loss_mid_game_and_placements() {
    let store = SledStore::temporary(Arc::new(SteppingClock::fixed())).unwrap();
    let id = create(&store, "four", 4, 12, None);
    let rec = |seat: Seat, count: u32| {
        record::record::<Stones>(&store, &id, seat_actor(4, seat), take(seat, count), None, None)
    };
    rec(0, 3).unwrap();
    // Seat 2 acting on seat 1's turn: not awaited. A seat that does not exist: out of range.
    assert_eq!(refused(rec(2, 1).unwrap_err()), ["KIFU-TURN-1"]);
    let ghost = take(9, 1);
    assert_eq!(
        refused(record::record::<Stones>(&store, &id, judge(), ghost, None, None).unwrap_err()),
        ["KIFU-SEAT-1"]
    );
    let r = replay(&store, &id);
    assert_eq!(r.last().position().awaited, [1]);
    assert_eq!(r.last().position().active, Some(1));
    // A judge's game loss to seat 1, mid-game, on its own turn: play goes on without it.
    let loss = Ruling::GameLossIssued { judge: "jin".into(), seat: 1, rule: None, about: None, note: "no show".into() };
    record::record::<Stones>(&store, &id, judge(), GameEntry::Ruled(loss), None, None).unwrap();
    let t = replay(&store, &id).last();
    assert_eq!(t.outcome(), None, "three seats are left: the game goes on");
    assert_eq!(t.position().awaited, [2], "the eliminated seat's turn passes on");
    assert_eq!(refused(rec(1, 1).unwrap_err()), ["KIFU-SEAT-3"]);
    rec(2, 3).unwrap();
    rec(3, 3).unwrap();
    rec(0, 2).unwrap();
    // Seat 1 is skipped again; seat 2 takes the last stone.
    rec(2, 1).unwrap();
    let o = replay(&store, &id).last().outcome().unwrap();
    // Seat 0 took 5, seat 3 took 3; the winner first, the eliminated seat last.
    assert_eq!(o.placements, vec![vec![2], vec![0], vec![3], vec![1]]);
    assert_eq!(o.eliminated, [1]);
    assert_eq!(o.winners(), [2]);
    assert_eq!(o.kind(), OutcomeKind::Won);
    assert!(
        o.headline(&names(4)).starts_with("cy won; 1. cy; 2. ann; 3. di; 4. bo (out)"),
        "{}",
        o.headline(&names(4))
    );
    let g = record::load::<Stones>(&store, &id).unwrap();
    let (report, _) = audit::audit::<Stones>(g.config, g.steps).unwrap();
    assert!(report.findings.iter().all(|f| f.resolution.is_some()), "{:?}", report.findings);
    assert_eq!(report.outcome.unwrap().placements, o.placements);
}

#[test]
fn a_seat_out_of_range_is_a_finding_not_a_panic() {
    let store = SledStore::temporary(Arc::new(SteppingClock::fixed())).unwrap();
    let id = create(&store, "ghost", 3, 10, None);
    let ghost =
        GameEntry::Forced { judge: "jin".into(), broke: vec![], event: Event::StonesTaken { seat: 9, count: 1 } };
    let rec = record::record::<Stones>(&store, &id, judge(), ghost, None, None).unwrap();
    assert_eq!(rec.flagged.iter().map(|v| v.rule).collect::<Vec<_>>(), ["KIFU-SEAT-1"]);
    let g = record::load::<Stones>(&store, &id).unwrap();
    let (report, r) = audit::audit::<Stones>(g.config, g.steps).unwrap();
    assert_eq!(report.findings[0].rule, "KIFU-SEAT-1");
    assert_eq!(r.last().game.stones, 9, "the fold is total: the forced entry still folds");
}

#[test]
fn outcomes_tell_a_draw_a_shared_win_and_everyone_lost_apart() {
    let draw = Outcome::draw(3, "agreed");
    let all_lost = Outcome::everyone_lost(3, "all decked");
    let shared = Outcome { placements: vec![vec![0, 2], vec![1]], eliminated: vec![], reason: "tie".into() };
    let won = Outcome::won(1, 2, "r");
    assert_eq!(
        [draw.kind(), all_lost.kind(), shared.kind(), won.kind()],
        [OutcomeKind::Draw, OutcomeKind::EveryoneLost, OutcomeKind::SharedWin, OutcomeKind::Won]
    );
    assert!(draw.winners().is_empty() && all_lost.winners().is_empty());
    assert_eq!(shared.winners(), [0, 2]);
    assert_eq!(won.placements, vec![vec![1], vec![0]]);
    // An eliminated seat never wins, wherever the rules placed it.
    let o = Outcome::won(0, 3, "r").with_eliminated(&[0]);
    assert_eq!(o.placements, vec![vec![1, 2], vec![0]]);
    assert!(!o.winners().contains(&0));
}

#[test]
fn a_combined_seed_drives_the_dice_and_the_audit_rederives_every_roll() {
    for n in [3, 4] {
        let game = selfplay::self_play::<StonesV2>(11 + n as u64, &names(n), 10_000).unwrap();
        let rolls = game
            .entries
            .iter()
            .filter(|(_, e)| {
                matches!(e, GameEntry::Played(Event::Common(CommonEvent::DieRolled { seed: Some(_), .. })))
            })
            .count();
        assert!(rolls >= 2, "{n} seats: {rolls} rolls");
        let commits = game
            .entries
            .iter()
            .filter(|(_, e)| {
                matches!(e, GameEntry::Played(Event::Common(CommonEvent::SeedCommitted { seat: Some(_), .. })))
            })
            .count();
        assert_eq!(commits, n, "every seat contributes a share");
        let o = StonesV2::outcome(&game.final_state).unwrap();
        assert_eq!(o.seats(), n);
        assert_eq!(o.placements.last().unwrap().len(), 1, "misère: the last stone's taker places last");
        let mut steps = to_steps(game.entries.clone());
        let (report, _) = audit::audit::<StonesV2>(game.config.clone(), steps.clone()).unwrap();
        assert!(report.is_clean(), "{n} seats: {:?}", report.findings);
        // A judge forces a different value for one roll: only the audit, re-deriving, can tell.
        let i = steps
            .iter()
            .position(|s| matches!(&s.entry, GameEntry::Played(Event::Common(CommonEvent::DieRolled { .. }))))
            .unwrap();
        let GameEntry::Played(Event::Common(CommonEvent::DieRolled { seat, value, seed, .. })) = steps[i].entry.clone()
        else {
            unreachable!()
        };
        let wrong = value % 3 + 1;
        steps[i].actor = judge();
        steps[i].entry = GameEntry::Forced {
            judge: "jin".into(),
            broke: vec![],
            event: Event::Common(CommonEvent::DieRolled { seat, sides: 3, value: wrong, seed }),
        };
        let (report, _) = audit::audit::<StonesV2>(game.config, steps).unwrap();
        let die: Vec<_> = report.findings.iter().filter(|f| f.rule == "KIFU-DIE-2").map(|f| f.seq).collect();
        // Once when validated (the seed was known), once when the audit re-derived it.
        assert_eq!(die, [Some(i as u64), Some(i as u64)], "{:?}", report.findings);
    }
}

fn to_steps(entries: Vec<(Actor, GameEntry<Event>)>) -> Vec<kifu::game::replay::Step<Event>> {
    entries
        .into_iter()
        .enumerate()
        .map(|(i, (actor, entry))| kifu::game::replay::Step { seq: i as u64, recorded_at: Timestamp(0), actor, entry })
        .collect()
}

#[test]
fn bad_randomness_is_refused_with_rule_ids() {
    let store = SledStore::temporary(Arc::new(SteppingClock::fixed())).unwrap();
    let id = create(&store, "dice", 3, 10, Some(RandomMode::Digital));
    let share = |s: u8| Hash32([s + 1; 32]);
    let act =
        |seat: Seat, c: CommonEvent| record::record::<Stones>(&store, &id, seat_actor(3, seat), common(c), None, None);
    let commit_ =
        |s: Seat| CommonEvent::SeedCommitted { key: DICE.into(), seat: Some(s), commitment: commit_seed(&share(s)) };
    let reveal = |s: Seat, seed| CommonEvent::SeedRevealed { key: DICE.into(), seat: Some(s), seed };
    act(0, commit_(0)).unwrap();
    // Everyone commits before anyone reveals.
    assert_eq!(refused(act(0, reveal(0, share(0))).unwrap_err()), ["KIFU-TURN-1", "KIFU-SEED-5"]);
    assert_eq!(refused(act(0, commit_(0)).unwrap_err()), ["KIFU-TURN-1", "KIFU-SEED-5"]);
    act(1, commit_(1)).unwrap();
    act(2, commit_(2)).unwrap();
    assert_eq!(replay(&store, &id).last().position().awaited, [0, 1, 2]);
    // A share that does not match its commitment.
    assert_eq!(refused(act(1, reveal(1, share(7))).unwrap_err()), ["KIFU-SEED-1"]);
    for s in 0..3 {
        act(s, reveal(s, share(s))).unwrap();
    }
    let seed = combine_seeds(DICE, &[(0, share(0)), (1, share(1)), (2, share(2))]);
    let good = die_roll(&seed, DICE, 0, 3);
    let roll = |value, seed: Option<&str>, sides| CommonEvent::DieRolled {
        seat: Some(0),
        sides,
        value,
        seed: seed.map(String::from),
    };
    assert_eq!(refused(act(0, roll(7, Some(DICE), 3)).unwrap_err()), ["KIFU-DIE-1", "KIFU-DIE-2"]);
    assert_eq!(refused(act(0, roll(good % 3 + 1, Some(DICE), 3)).unwrap_err()), ["KIFU-DIE-2"]);
    assert_eq!(refused(act(0, roll(good, None, 3)).unwrap_err()), ["KIFU-DIE-3"]);
    assert_eq!(refused(act(0, roll(1, Some("other"), 3)).unwrap_err()), ["KIFU-SEED-4"]);
    act(0, roll(good, Some(DICE), 3)).unwrap();
    assert_eq!(
        refused(record::record::<Stones>(&store, &id, player("ann"), take(0, good % 3 + 1), None, None).unwrap_err()),
        ["STONES-6"]
    );
    record::record::<Stones>(&store, &id, player("ann"), take(0, good), None, None).unwrap();
    // A sealed choice must be revealed as sealed.
    let salt = Hash32([9; 32]);
    let sealed =
        CommonEvent::ChoiceSealed { seat: 1, key: "bid".into(), commitment: seal_choice("bid", "rock", &salt) };
    act(1, sealed.clone()).unwrap();
    assert_eq!(refused(act(1, sealed).unwrap_err()), ["KIFU-SEAL-2"]);
    let lie = CommonEvent::ChoiceRevealed { seat: 1, key: "bid".into(), choice: "paper".into(), salt };
    assert_eq!(refused(act(1, lie).unwrap_err()), ["KIFU-SEAL-2"]);
    act(1, CommonEvent::ChoiceRevealed { seat: 1, key: "bid".into(), choice: "rock".into(), salt }).unwrap();
    // Nothing refused was written.
    assert_eq!(replay(&store, &id).len(), 10);
}

#[test]
fn a_physical_table_records_rolls_as_they_fell() {
    let store = SledStore::temporary(Arc::new(SteppingClock::fixed())).unwrap();
    let id = create(&store, "table", 2, 10, Some(RandomMode::Physical));
    let act = |c: CommonEvent| record::record::<Stones>(&store, &id, player("ann"), common(c), None, None);
    let roll = |value, seed: Option<&str>| CommonEvent::DieRolled {
        seat: Some(0),
        sides: 3,
        value,
        seed: seed.map(String::from),
    };
    assert_eq!(refused(act(roll(0, None)).unwrap_err()), ["KIFU-DIE-1"]);
    assert_eq!(refused(act(roll(2, Some(DICE))).unwrap_err()), ["KIFU-DIE-3"]);
    act(roll(2, None)).unwrap();
}

#[test]
fn a_sealed_draw_keeps_the_deck_order_checkable() {
    let seed = Hash32([5; 32]);
    let deck: Vec<String> = (0..6).map(|i| format!("c{i}")).collect();
    let order = seeded_order(&seed, "deck", 0, &deck);
    let run = |revealed: &str| {
        let mut l = CommitmentLedger::default();
        l.seed_committed("s", commit_seed(&seed));
        l.deck_shuffled("deck", deck.clone(), Some("s"));
        l.at(3);
        let salt = Hash32([1; 32]);
        let c = seal(revealed, &salt);
        l.deck_took_top_sealed("deck", c);
        l.card_revealed(&c, revealed);
        l.seed_revealed("s", seed);
        l.audit()
    };
    assert!(run(&order[0]).is_empty());
    let bad = run(&order[1]);
    assert_eq!(bad.iter().map(|(s, v)| (*s, v.rule)).collect::<Vec<_>>(), [(Some(3), "KIFU-SEED-2")]);
}

#[test]
fn a_game_recorded_under_v1_still_opens_replays_and_audits_after_v2_ships() {
    let store = SledStore::temporary(Arc::new(SteppingClock::fixed())).unwrap();
    let players = names(3);
    // Before v2 ships: the build has only v1.
    static V1_ONLY: Versions = Versions { ruleset: "stones", released: &[&STONES] };
    static V2_ONLY: Versions = Versions { ruleset: "stones", released: &[&STONES_V2] };
    let v1_only = &V1_ONLY;
    let old = StreamId::new("old").unwrap();
    v1_only.self_play(&store, &old, 5, &players, Timestamp(0)).unwrap();
    let log = store.export(&old).unwrap();
    let before = v1_only.audit(&log).unwrap();
    // v2 ships (misère): new games use it, the old game keeps its own rules.
    assert_eq!(STONES_VERSIONS.ruleset_version(), 2);
    let after = STONES_VERSIONS.audit(&log).unwrap();
    assert_eq!(after, before);
    assert!(after.is_clean(), "{:?}", after.findings);
    let session = STONES_VERSIONS.open(&log).unwrap();
    assert_eq!(session.board(session.len(), kifu::game::Viewer::Judge).outcome, before.outcome);
    assert!(STONES_VERSIONS.export_jsonl(&log).unwrap().starts_with("{\"game\":\"stones\""));
    // Recording into the old game goes through v1's rules too.
    let err = STONES_VERSIONS
        .act_json(&store, &old, None, r#"{"StonesTaken":{"seat":0,"count":1}}"#, None, None, None)
        .unwrap_err();
    assert!(err.to_string().contains("STONES-4"), "the v1 game is over: {err}");
    let new = StreamId::new("new").unwrap();
    STONES_VERSIONS.self_play(&store, &new, 5, &players, Timestamp(0)).unwrap();
    let log2 = store.export(&new).unwrap();
    assert_eq!(log2.header.v1().ruleset_version, 2);
    let o = STONES_VERSIONS.audit(&log2).unwrap().outcome.unwrap();
    assert_eq!(o.eliminated.len(), 1, "v2: the last stone's taker lost");
    // A version this build never had is refused by name.
    assert!(matches!(V2_ONLY.open(&log), Err(GameError::RulesetVersion { found: 1, have: 2, .. })));
}
