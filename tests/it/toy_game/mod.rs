//! A toy card game written from the "how to add a game" steps with the shared machinery only
//! ([`ten`]), registered in this test and nowhere else: it records, replays, audits and round-trips
//! through the one `GameDriver`, and its rule cases run on the one `Case` scaffold.

mod ten;

use std::sync::Arc;

use kifu::clock::SteppingClock;
use kifu::game::driver::{Driver, GameDriver};
use kifu::game::record::GameError;
use kifu::game::{Game, NewGame, Viewer};
use kifu::log::envelope::{StreamId, Timestamp};
use kifu::store::sled_store::SledStore;
use kifu::store::Store;

use crate::game_support::{cases, check_enforced_rules_have_cases};
use ten::{Ten, TenConfig, TenEvent as E};

type Case = crate::game_support::Case<Ten>;

static TEN: GameDriver<Ten> = GameDriver::new();

fn store() -> SledStore {
    SledStore::temporary(Arc::new(SteppingClock::fixed())).unwrap()
}

fn players() -> Vec<String> {
    vec!["ann".into(), "bo".into()]
}

fn t0() -> Timestamp {
    Timestamp(1_767_225_600_000_000)
}

#[test]
fn ten_self_played_games_record_replay_and_audit_clean() {
    let s = store();
    for seed in 0..20u64 {
        let id = StreamId::new(&format!("ten-{seed}")).unwrap();
        let head = TEN.self_play(&s, &id, seed, &players(), t0()).unwrap();
        let log = s.export(&id).unwrap();
        let report = TEN.audit(&log).unwrap();
        assert!(report.is_clean(), "seed {seed}: {:?}", report.findings);
        let outcome = report.outcome.unwrap_or_else(|| panic!("seed {seed}: the game did not end"));
        assert!(outcome.reason.starts_with("TEN-WIN-"), "seed {seed}: {}", outcome.reason);
        let session = TEN.open(&log).unwrap();
        assert_eq!(session.len(), head.len);
        assert_eq!(session.timeline(Viewer::Spectator).len() as u64, head.len);
        let board = session.board(head.len, Viewer::Spectator);
        assert_eq!(board.phase, "over");
        assert_eq!(board.outcome, Some(outcome));
        // A game survives the trip through JSON lines into another stream.
        let jsonl = TEN.export_jsonl(&log).unwrap();
        let (copy, copy_head) =
            TEN.import_jsonl(&s, &jsonl, Some(StreamId::new(&format!("copy-{seed}")).unwrap()), t0(), false).unwrap();
        assert_eq!(copy_head.len, head.len);
        let copied = TEN.export_jsonl(&s.export(&copy).unwrap()).unwrap();
        // Only the header's stream name differs.
        assert!(copied.lines().skip(1).eq(jsonl.lines().skip(1)), "seed {seed}: {copied}");
    }
}

#[test]
fn ten_created_from_deck_lists_refuses_an_out_of_turn_play_and_records_a_legal_one() {
    let s = store();
    let id = StreamId::new("ten-new").unwrap();
    let decks = vec!["2 T4\n1 T3\n".to_string(), "3 T2\n".to_string()];
    let policies = vec![("target".to_string(), "6".to_string())];
    let request = NewGame { players: &players(), decks: &decks, catalog: None, policies: &policies };
    TEN.create(&s, &id, &request, t0()).unwrap();
    let bo_first = r#"{"CardPlayed":{"seat":1,"card":"p1-0"}}"#;
    match TEN.act_json(&s, &id, None, bo_first, None, None, None) {
        Err(GameError::Refused(v)) => assert_eq!(v.iter().map(|v| v.rule).collect::<Vec<_>>(), ["KIFU-TURN-1"]),
        other => panic!("an out-of-turn play must be refused, got {other:?}"),
    }
    let ann = r#"{"CardPlayed":{"seat":0,"card":"p0-0"}}"#;
    assert_eq!(TEN.act_json(&s, &id, None, ann, None, None, None).unwrap().seq, 0);
    let session = TEN.open(&s.export(&id).unwrap()).unwrap();
    assert_eq!(session.timeline(Viewer::Spectator)[0].text, "ann played T4 Four (p0-0)");
    assert!(session.board(1, Viewer::Spectator).facts.contains(&("target".to_string(), "6".to_string())));
}

#[test]
fn ten_new_config_names_what_is_wrong() {
    let decks = vec!["1 T9\n".to_string(), "".to_string()];
    let request = NewGame { players: &players(), decks: &decks, catalog: None, policies: &[] };
    let errors = Ten::new_config(&request).unwrap_err();
    assert!(errors.iter().any(|e| e.to_string().contains("card T9 is not in the catalog")), "{errors:?}");
    assert!(errors.iter().any(|e| e.to_string().contains("TEN-DECK-1")), "{errors:?}");
}

fn config() -> TenConfig {
    let (cat, decks) = (kifu::game::catalog::Catalog::sample(), vec![vec!["T4".into(); 3], vec!["T1".into(); 3]]);
    TenConfig::new(players(), decks, &cat).unwrap()
}

fn play(seat: u8, i: usize) -> E {
    E::CardPlayed { seat, card: format!("p{seat}-{i}") }
}

cases! {
    ten_end_1_no_play_after_the_end ["TEN-END-1"] => Case::event(config(), vec![play(0, 0), play(1, 0), play(0, 1), play(1, 1), play(0, 2)], play(1, 2), &["TEN-END-1"]);
    ten_card_played_twice ["TEN-END-1"] => Case::event(config(), vec![play(0, 0), play(1, 0)], play(0, 0), &["KIFU-CARD-1"]);
    ten_deck_1_an_empty_deck ["TEN-DECK-1"] => Case::setup({ let mut c = config(); let TenConfig::V1(v) = &mut c; v.decks[1].clear(); c }, &["TEN-DECK-1"]);
}

#[test]
fn ten_enforced_rules_have_cases() {
    check_enforced_rules_have_cases(CASES, Ten::coverage());
}
