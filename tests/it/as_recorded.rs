//! Games recorded elsewhere: `kifu game import --as-recorded` stores every line as it was
//! recorded (illegal actions as `RecordedElsewhere`, a deck that breaks the deck rules with its
//! findings at the setup), the audit reports them unresolved until a judge rules, plain import
//! stays all or nothing, and bad files are refused by line number with nothing stored. The
//! fixtures `replays/*-as-recorded.*` (Naruto, Vanguard, FATE) are pinned in `replays/expected-as-recorded.txt`.

use std::path::Path;
use std::sync::Arc;

use serde_json::Value;

use kifu::clock::SteppingClock;
use kifu::game::driver::Driver;
use kifu::game::record::{self, GameError};
use kifu::game::{GameEntry, Ruling};
use kifu::games::naruto::Naruto;
use kifu::log::chain::VerifiedLog;
use kifu::log::envelope::{Actor, StreamId, Timestamp};
use kifu::store::sled_store::SledStore;
use kifu::store::Store;

use crate::game_support::{check_checked_in_fixture, pin_fixture};
use crate::support::{ensure_file_contents, kifu_cmd, TestEnv};

fn store() -> SledStore {
    SledStore::temporary(Arc::new(SteppingClock::fixed())).unwrap()
}

fn t0() -> Timestamp {
    Timestamp(1_767_225_600_000_000)
}

fn replays(name: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("replays").join(name)).unwrap()
}

/// How a recipe breaks the deck rules in the header it imports.
#[derive(Clone, Copy)]
enum DeckBreak {
    /// Seat 0's deck padded with four extra copies of its first card (Naruto's and Vanguard's
    /// copy limits and sizes).
    PadFirstSeat,
    /// The event's minimum deck size raised above every registered deck (FATE-OPEN-1: a table
    /// that played 30-card decks registered shorter ones). Padding would break no FATE rule.
    MinDeck(u32),
}

/// A clean fixture's JSON lines as a careless recorder elsewhere might have kept them: renamed,
/// its decks breaking the deck rules (`broken`), one action written twice midway and the last
/// one written twice at the end.
fn as_recorded_text(clean: &str, name: &str) -> String {
    as_recorded_text_with(clean, name, DeckBreak::PadFirstSeat)
}

fn as_recorded_text_with(clean: &str, name: &str, broken: DeckBreak) -> String {
    let mut lines: Vec<String> = clean.lines().map(str::to_string).collect();
    let mut head: Value = serde_json::from_str(&lines[0]).unwrap();
    head["stream"] = Value::String(name.into());
    match broken {
        DeckBreak::PadFirstSeat => {
            let deck = &mut head["config"]["V1"]["decks"][0];
            let cards = if deck.is_array() { deck } else { &mut deck["main"] };
            let first = cards[0].clone();
            for _ in 0..4 {
                cards.as_array_mut().unwrap().push(first.clone());
            }
        }
        DeckBreak::MinDeck(n) => head["config"]["V1"]["policies"]["min_deck"] = Value::from(n),
    }
    lines[0] = serde_json::to_string(&head).unwrap();
    let unseq = |l: &str| {
        let mut v: Value = serde_json::from_str(l).unwrap();
        v.as_object_mut().unwrap().remove("seq");
        serde_json::to_string(&v).unwrap()
    };
    let mut out: Vec<String> = lines.iter().map(|l| if l == &lines[0] { l.clone() } else { unseq(l) }).collect();
    let mid = out.len() / 3;
    out.insert(mid + 1, out[mid].clone());
    out.push(out[out.len() - 1].clone());
    out.join("\n") + "\n"
}

fn imported(driver: &dyn Driver, text: &str) -> VerifiedLog {
    let s = store();
    let (id, _) = driver.import_jsonl(&s, text, None, t0(), true).unwrap();
    s.export(&id).unwrap()
}

/// Each recipe: the game, the fixture's name, its JSON lines, and the rule-ID prefix of the deck
/// findings it must show at the setup.
fn recipes() -> Vec<(&'static dyn Driver, &'static str, String, &'static str)> {
    vec![
        // The pinned JSON lines name no version, which reads as version 1, the version the
        // fixtures were recorded under; the recipes name it too, through its own driver.
        (
            kifu::games::released("naruto", 1).unwrap(),
            "naruto-as-recorded",
            as_recorded_text(&replays("naruto-physical.jsonl"), "naruto-as-recorded"),
            "NAR-DECK-",
        ),
        (
            kifu::games::released("vanguard", 1).unwrap(),
            "vanguard-as-recorded",
            as_recorded_text(&replays("vanguard-clean.jsonl"), "vanguard-as-recorded"),
            "VG-DECK-",
        ),
        (
            kifu::games::released("fate", 1).unwrap(),
            "fate-as-recorded",
            as_recorded_text_with(&replays("fate-clean.jsonl"), "fate-as-recorded", DeckBreak::MinDeck(30)),
            "FATE-OPEN-1",
        ),
    ]
}

#[test]
fn as_recorded_fixtures_match_their_recipes() {
    let mut expected = String::new();
    for (driver, name, text, _) in recipes() {
        let log = imported(driver, &text);
        expected += &pin_fixture(driver, name, &log);
    }
    ensure_file_contents("replays/expected-as-recorded.txt", expected.as_bytes());
}

/// Each fixture: stored as recorded, its deck findings at the setup and its illegal lines
/// unresolved; the JSON-lines form audits the same without a store; plain import refuses it.
#[test]
fn games_recorded_elsewhere_are_stored_and_audited_as_recorded() {
    let expected = replays("expected-as-recorded.txt");
    let recipes = recipes();
    assert_eq!(expected.lines().count(), recipes.len(), "one pinned line per recipe");
    for ((driver, name, text, deck), line) in recipes.into_iter().zip(expected.lines()) {
        assert!(line.starts_with(name));
        let (log, jsonl) = check_checked_in_fixture(driver, line);
        let report = driver.audit(&log).unwrap();
        assert!(
            report.findings.iter().any(|f| f.seq.is_none() && f.rule.starts_with(deck) && f.resolution.is_none()),
            "{name}: the deck's findings stand at the setup: {:?}",
            report.findings
        );
        let last = log.head.len - 1;
        assert!(
            report.findings.iter().any(|f| f.seq == Some(last) && f.resolution.is_none()),
            "{name}: the repeated last action is an unresolved finding"
        );
        // Audit of the JSON lines, without a store: the same findings.
        let from_file = driver.audit(&driver.jsonl_log(&jsonl).unwrap()).unwrap();
        assert_eq!(from_file.findings, report.findings, "{name}");

        // Plain import is all or nothing: refused, nothing stored.
        let s = store();
        assert!(driver.import_jsonl(&s, &text, None, t0(), false).is_err(), "{name}");
        assert!(s.streams().unwrap().is_empty());

        // A judge's note about the illegal last action resolves it.
        s.import(&log).unwrap();
        let id = log.header.stream().clone();
        let note = Ruling::NoteRecorded { judge: "jo".into(), about: Some(last), note: "checked the paper".into() };
        driver.rule(&s, &id, Actor::Judge("jo".into()), note, None, None).unwrap();
        let after = driver.audit(&s.export(&id).unwrap()).unwrap();
        let f = after.findings.iter().find(|f| f.seq == Some(last)).unwrap();
        assert_eq!(f.resolution.as_deref(), Some(format!("note by judge jo (event {})", last + 1).as_str()));
    }
}

#[test]
fn bad_as_recorded_files_are_refused_by_line_and_store_nothing() {
    let text = as_recorded_text(&replays("naruto-physical.jsonl"), "bad");
    let driver = kifu::games::driver("naruto").unwrap();
    let s = store();

    // An undecodable line.
    let mut lines: Vec<&str> = text.lines().collect();
    lines[7] = r#"{"actor":"player:alice","entry":{"Played":{"NoSuchEvent":{}}}}"#;
    let err = driver.import_jsonl(&s, &(lines.join("\n") + "\n"), None, t0(), true).unwrap_err().to_string();
    assert!(err.contains("line 8"), "{err}");
    assert!(s.streams().unwrap().is_empty());

    // A forced entry whose `broke` list is not what the rules report (a made-up rule ID), in a
    // game whose decks are legal, so plain import reaches the line too.
    let clean = replays("naruto-physical.jsonl");
    let mut lines: Vec<String> = clean.lines().map(str::to_string).collect();
    let mut v: Value = serde_json::from_str(&lines[5]).unwrap();
    let event = v["entry"]["Played"].clone();
    v["actor"] = Value::String("judge:jo".into());
    v["entry"] = serde_json::json!({"Forced": {"judge": "jo", "broke": ["NAR-MADE-UP-1"], "event": event}});
    lines[5] = serde_json::to_string(&v).unwrap();
    let bad = lines.join("\n") + "\n";
    for as_recorded in [true, false] {
        let err = driver.import_jsonl(&s, &bad, None, t0(), as_recorded).unwrap_err();
        assert!(matches!(&err, GameError::Refused(v) if v.iter().any(|v| v.rule == "KIFU-RULING-3")), "{err}");
        assert!(err.to_string().contains("line 6 (event 4)"), "{err}");
    }
    assert!(s.streams().unwrap().is_empty());
}

/// Only an import stores an action as recorded elsewhere: live recording refuses it.
#[test]
fn live_recording_refuses_an_entry_recorded_elsewhere() {
    let log = kifu::log::file::read(
        &std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("replays/naruto-physical.kifu")).unwrap(),
    )
    .unwrap();
    let s = store();
    s.import(&log).unwrap();
    let id: StreamId = log.header.stream().clone();
    let g = record::from_log::<Naruto>(&log).unwrap();
    let GameEntry::Played(e) = g.steps[3].entry.clone() else { panic!("event 3 is an action") };
    let err = record::record::<Naruto>(&s, &id, Actor::Judge("jo".into()), GameEntry::RecordedElsewhere(e), None, None)
        .unwrap_err();
    assert!(err.to_string().contains("--as-recorded"), "{err}");
    assert_eq!(s.head(&id).unwrap(), log.head);
}

/// `kifu game audit FILE` reads the JSON-lines form; unresolved findings exit non-zero.
#[test]
fn the_cli_audits_a_json_lines_file_without_a_store() {
    let env = TestEnv::new();
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("replays/naruto-as-recorded.jsonl");
    let out = kifu_cmd(&env.data()).args(["game", "audit", "--json"]).arg(&file).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v["unresolved"].as_u64().unwrap() >= 2, "{v}");
    assert!(!env.data().join("db").exists(), "no store was opened");
}

/// A header key this build does not know (a policy, or a field of the configuration) refuses
/// the file, as `kifu game new --policy` does, naming the keys it knows; nothing is stored.
#[test]
fn an_unknown_header_key_is_refused_naming_the_known_ones() {
    let driver = kifu::games::driver("brk").unwrap();
    let clean = replays("brk-clean.jsonl");
    let mut lines: Vec<String> = clean.lines().map(str::to_string).collect();
    let head: Value = serde_json::from_str(&lines[0]).unwrap();
    for (place, key) in [("policies", "min_squad"), ("config", "houserules")] {
        let mut h = head.clone();
        let target = if place == "policies" { &mut h["config"]["V1"]["policies"] } else { &mut h["config"]["V1"] };
        target.as_object_mut().unwrap().insert(key.into(), Value::from("x"));
        lines[0] = serde_json::to_string(&h).unwrap();
        let s = store();
        for as_recorded in [true, false] {
            let err = driver.import_jsonl(&s, &(lines.join("\n") + "\n"), None, t0(), as_recorded).unwrap_err();
            let text = err.to_string();
            assert!(text.contains(&format!("unknown field `{key}`")), "{text}");
            let known = if place == "policies" { "`stack_order`" } else { "`players`" };
            assert!(text.contains(known), "the known keys are named: {text}");
        }
        assert!(s.streams().unwrap().is_empty());
    }
}

/// A forced entry's `broke` list is a set: each rule named once, in any order, however many times
/// the action broke it; a list that leaves a rule out or names one not broken is refused, naming
/// which.
#[test]
fn a_forced_entrys_broke_list_is_compared_as_a_set() {
    let driver = kifu::games::driver("naruto").unwrap();
    let clean = replays("naruto-physical.jsonl");
    let clean: Vec<String> = clean.lines().map(str::to_string).collect();
    let unseq = |l: &str| {
        let mut v: Value = serde_json::from_str(l).unwrap();
        v.as_object_mut().unwrap().remove("seq");
        serde_json::to_string(&v).unwrap()
    };
    // The first action that is illegal when recorded a second time at once (line k + 1 repeats
    // line k, event k - 1): which rules it breaks, the audit of the game imported as recorded says.
    let (k, lines, broke) = (5..clean.len())
        .find_map(|k| {
            let mut lines = clean.clone();
            lines.insert(k + 1, lines[k].clone());
            let lines: Vec<String> =
                lines.iter().enumerate().map(|(i, l)| if i == 0 { l.clone() } else { unseq(l) }).collect();
            let s = store();
            let (id, _) = driver.import_jsonl(&s, &(lines.join("\n") + "\n"), None, t0(), true).ok()?;
            let report = driver.audit(&s.export(&id).unwrap()).unwrap();
            let mut broke: Vec<String> =
                report.findings.iter().filter(|f| f.seq == Some(k as u64)).map(|f| f.rule.clone()).collect();
            broke.sort();
            broke.dedup();
            (!broke.is_empty()).then_some((k, lines, broke))
        })
        .expect("some action of the fixture is illegal when repeated");
    let forced = |names: &[String]| {
        let mut out = lines.clone();
        let mut v: Value = serde_json::from_str(&out[k + 1]).unwrap();
        let event = v["entry"]["Played"].clone();
        v["actor"] = Value::String("judge:jo".into());
        v["entry"] = serde_json::json!({"Forced": {"judge": "jo", "broke": names, "event": event}});
        out[k + 1] = serde_json::to_string(&v).unwrap();
        out.join("\n") + "\n"
    };
    // Each rule twice, in reverse order: accepted.
    let twice: Vec<String> = broke.iter().rev().flat_map(|r| [r.clone(), r.clone()]).collect();
    driver.import_jsonl(&store(), &forced(&twice), None, t0(), true).unwrap();
    // One left out, one made up: refused, both named.
    let mut wrong: Vec<String> = broke[1..].to_vec();
    wrong.push("NAR-MADE-UP-1".into());
    let err = driver.import_jsonl(&store(), &forced(&wrong), None, t0(), true).unwrap_err().to_string();
    assert!(err.contains(&format!("missing {}", broke[0])), "{err}");
    assert!(err.contains("not broken NAR-MADE-UP-1"), "{err}");
}
