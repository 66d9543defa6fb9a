//! Every released JSON-lines export imports: a file naming no `rules_version` is version 1's (the
//! only version whose exports left it out), so the shipped `replays/*.jsonl` import and audit
//! through the registry as under their own version, and every export names its version now.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use kifu::clock::SteppingClock;
use kifu::game::driver::Driver;
use kifu::game::record::{GameError, JsonlProblem};
use kifu::log::envelope::Timestamp;
use kifu::log::file;
use kifu::store::sled_store::SledStore;
use kifu::store::Store;

use crate::support::{kifu_cmd, TestEnv};

fn store() -> SledStore {
    SledStore::temporary(Arc::new(SteppingClock::fixed())).unwrap()
}

fn replays() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("replays")
}

/// Every shipped `replays/NAME.jsonl`, with its text and the ruleset its first line names.
fn shipped() -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(replays()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("jsonl") {
            continue;
        }
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        let head: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
        out.push((name, text, head["game"].as_str().unwrap().to_string()));
    }
    out.sort();
    out
}

/// A version 1 export with its first line's `rules_version` taken out: the file as version 1's
/// exporter wrote it (an export writes the field right after `game`).
fn unnamed(text: &str) -> String {
    let (first, rest) = text.split_once('\n').unwrap();
    assert!(first.contains(",\"rules_version\":1,"), "{first}");
    format!("{}\n{rest}", first.replacen(",\"rules_version\":1,", ",", 1))
}

/// Given every shipped JSON-lines fixture (none names a rules version; each is a version 1 game,
/// as its `.kifu` says), when it is imported through the registry (which creates new games under
/// the newest version) and audited as a file, then it is read under version 1: the import does
/// what version 1's own driver does with it (plainly when that accepts it, else as recorded
/// elsewhere), the stored game is version 1 and audits with version 1's findings, and the file
/// audits with them too.
#[test]
fn every_shipped_jsonl_imports_and_audits_as_under_its_own_version() {
    let (mut seen, mut plain) = (0, 0);
    for (name, text, ruleset) in shipped() {
        assert!(!text.lines().next().unwrap().contains("rules_version"), "{name}: the pinned file stays as written");
        let log = file::read(&std::fs::read(replays().join(format!("{name}.kifu"))).unwrap()).unwrap();
        let version = log.header.v1().ruleset_version;
        assert_eq!(version, 1, "{name}");
        let registry = kifu::games::driver(&ruleset).unwrap();
        let own = kifu::games::released(&ruleset, version).unwrap();
        let (theirs, ours) = (store(), store());
        let plainly = own.import_jsonl(&ours, &text, None, Timestamp(0), false);
        let through = registry.import_jsonl(&theirs, &text, None, Timestamp(0), false);
        let as_recorded = match (&plainly, &through) {
            (Ok(_), Ok(_)) => false,
            (Err(a), Err(b)) => {
                assert_eq!(a.to_string(), b.to_string(), "{name}: refused as version 1 refuses it");
                true
            }
            _ => panic!("{name}: version 1 {:?}, the registry {:?}", plainly.as_ref().err(), through.as_ref().err()),
        };
        let ((a, _), (b, _)) = if as_recorded {
            (
                own.import_jsonl(&ours, &text, None, Timestamp(0), true).unwrap(),
                registry.import_jsonl(&theirs, &text, None, Timestamp(0), true).unwrap(),
            )
        } else {
            plain += 1;
            (plainly.unwrap(), through.unwrap())
        };
        let (a, b) = (ours.export(&a).unwrap(), theirs.export(&b).unwrap());
        assert_eq!(b.header.v1().ruleset_version, version, "{name}: stored under its own version");
        assert_eq!(registry.audit(&b).unwrap().findings, own.audit(&a).unwrap().findings, "{name}");
        if !as_recorded {
            // A plain import is the game itself: the pinned game's own findings.
            assert_eq!(registry.audit(&b).unwrap().findings, own.audit(&log).unwrap().findings, "{name}");
        }
        let file_log = registry.jsonl_log(&text).unwrap();
        assert_eq!(file_log.header.v1().ruleset_version, version, "{name}");
        let own_file = own.audit(&own.jsonl_log(&text).unwrap()).unwrap();
        assert_eq!(registry.audit(&file_log).unwrap(), own_file, "{name}: `kifu game audit FILE`");
        seen += 1;
    }
    assert_eq!(seen, 18, "every shipped file");
    assert!(plain >= 8, "the clean and judged games import plainly: only {plain}");
}

/// The README's commands on the README's file: `kifu game import replays/naruto-physical.jsonl`
/// stores it, and `kifu game audit` of the clean version 1 game finds nothing.
#[test]
fn the_readme_import_of_a_version_1_export_works() {
    let env = TestEnv::new();
    let file = replays().join("naruto-physical.jsonl");
    let out = kifu_cmd(&env.data()).args(["game", "audit"]).arg(&file).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    let out =
        kifu_cmd(&env.data()).args(["game", "import"]).arg(&file).args(["--id", "copy-of-physical"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let copy = env.store().export(&kifu::log::envelope::StreamId::new("copy-of-physical").unwrap()).unwrap();
    assert_eq!(copy.header.v1().ruleset_version, 1);
}

/// Given a version 1 game, when the registry exports it, then the first line names
/// `rules_version: 1`, and the export imports again (under version 1) and exports the same.
#[test]
fn an_export_of_a_version_1_game_names_its_version_and_imports_again() {
    for (name, ruleset) in [("naruto-physical", "naruto"), ("vanguard-clean", "vanguard"), ("brk-clean", "brk")] {
        let log = file::read(&std::fs::read(replays().join(format!("{name}.kifu"))).unwrap()).unwrap();
        let registry = kifu::games::driver(ruleset).unwrap();
        let text = registry.export_jsonl(&log).unwrap();
        let head: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
        assert_eq!(head["rules_version"], serde_json::json!(1), "{name}");
        let s = store();
        let (id, _) = registry.import_jsonl(&s, &text, None, Timestamp(0), false).unwrap();
        let copy = s.export(&id).unwrap();
        assert_eq!(copy.header.v1().ruleset_version, 1, "{name}");
        assert_eq!(registry.export_jsonl(&copy).unwrap(), text, "{name}");
        // Without the field it is the same game: the pinned file is that export.
        assert_eq!(unnamed(&text), std::fs::read_to_string(replays().join(format!("{name}.jsonl"))).unwrap());
    }
}

/// Given a file naming no rules version, then it is version 1's: the registry reads it under
/// version 1, a later version's own driver refuses it by name, and so does a build without
/// version 1, rather than reading it under rules it was not recorded under.
#[test]
fn a_file_without_rules_version_is_treated_as_version_1() {
    let text = std::fs::read_to_string(replays().join("naruto-physical.jsonl")).unwrap();
    let registry = kifu::games::driver("naruto").unwrap();
    assert!(registry.ruleset_version() > 1);
    assert_eq!(registry.jsonl_log(&text).unwrap().header.v1().ruleset_version, 1);
    let newest = kifu::games::released("naruto", registry.ruleset_version()).unwrap();
    let s = store();
    let err = newest.import_jsonl(&s, &text, None, Timestamp(0), true).unwrap_err();
    assert!(
        matches!(&err, GameError::Jsonl(p) if matches!(p[..], [JsonlProblem::UnnamedRulesVersion { .. }])),
        "{err}"
    );
    assert!(err.to_string().contains("names no rules_version, which means naruto rules version 1"), "{err}");
    assert!(s.streams().unwrap().is_empty(), "nothing stored");

    static V2_ONLY: kifu::game::versions::Versions =
        kifu::game::versions::Versions { ruleset: "stones", released: &[&crate::stones::STONES_V2] };
    let stones: &dyn Driver = &V2_ONLY;
    let file = "{\"game\":\"stones\",\"config\":{\"players\":[\"a\",\"b\"],\"stones\":3}}\n";
    let err = stones.jsonl_log(file).unwrap_err().to_string();
    assert!(err.contains("stones rules version 1") && err.contains("this build has version(s) 2"), "{err}");
    let named = "{\"game\":\"stones\",\"rules_version\":2,\"config\":{\"players\":[\"a\",\"b\"],\"stones\":3}}\n";
    assert_eq!(stones.jsonl_log(named).unwrap().header.v1().ruleset_version, 2);
}
