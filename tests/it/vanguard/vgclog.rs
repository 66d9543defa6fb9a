//! The vgc-log import: the format reads back what it writes, unreadable lines are named by line
//! number, and the CLI imports a rule-breaking client log whose audit lists each violation.

use kifu::games::vanguard::catalog::Catalog;
use kifu::games::vanguard::vgclog;

use crate::support::TestEnv;

#[test]
fn unreadable_lines_are_named_by_number() {
    let text = "vgc-log 1\nplayer alice\nplayer bob\nmain alice 4 NOPE\nalice dance p0-1\nalice power p0-1 lots\nzed draw p1-1\n";
    let errs = vgclog::parse(text, &Catalog::sample()).err().unwrap();
    let joined = errs.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("\n");
    for n in [4, 5, 6, 7] {
        assert!(joined.contains(&format!("line {n}:")), "line {n} should be reported: {joined}");
    }
}

#[test]
fn the_sample_log_round_trips_through_the_line_writer() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("replays/vanguard-manual.vgclog");
    let text = std::fs::read_to_string(path).unwrap();
    let log = vgclog::parse(&text, &Catalog::sample()).unwrap_or_else(|e| panic!("{e:?}"));
    let names = vec!["alice".to_string(), "bob".to_string()];
    let mut again = vgclog::header(&log.config, log.stream.as_deref());
    for (_, entry) in &log.entries {
        let kifu::game::GameEntry::Played(e) = entry else { panic!("only plays") };
        again += &vgclog::line(&names, e).unwrap();
        again.push('\n');
    }
    let body: String = text.lines().filter(|l| !l.starts_with('#')).map(|l| format!("{l}\n")).collect();
    assert_eq!(again, body);
}

#[test]
fn cli_imports_a_client_log_and_the_audit_names_each_violation() {
    let env = TestEnv::new();
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("replays/vanguard-manual.vgclog");
    let out = env.ok(&["game", "import", "--from", "vgc-log", path.to_str().unwrap(), "--id", "vg-imported"]);
    assert_eq!(out.trim(), "vg-imported");
    let audit = env.kifu(&["game", "audit", "vg-imported"]);
    assert!(!audit.status.success(), "unresolved violations make the audit fail");
    let text = String::from_utf8_lossy(&audit.stdout).to_string() + &String::from_utf8_lossy(&audit.stderr);
    for rule in ["VG-SETUP-2", "VGC-OP-12", "VG-DECK-6", "VG-TRIG-5", "VG-WIN-2"] {
        assert!(text.contains(rule), "audit should list {rule}:\n{text}");
    }
    let bad = env.path("bad.vgclog");
    std::fs::write(&bad, "vgc-log 1\nplayer alice\nplayer bob\nalice jump\n").unwrap();
    let err = env.fails(&["game", "import", "--from", "vgc-log", bad.to_str().unwrap(), "--id", "vg-bad"]);
    assert!(err.contains("line 4"), "{err}");
}

/// A 2 MB log of repeated deck lines held up to 60 card ids per line in memory (337 MB) before
/// it was refused; now a deck section over the cap is refused at its first line over it.
#[test]
fn a_log_of_endless_deck_lines_is_refused_at_the_cap() {
    let mut text = String::from("vgc-log 1\nplayer alice\nplayer bob\n");
    while text.len() < 2 << 20 {
        text.push_str("main alice 60 TA-01\n");
    }
    let errs = vgclog::parse(&text, &Catalog::sample()).err().unwrap();
    let over = format!("line 7: the main deck of alice would hold more than {} cards", vgclog::DECK_LINES_MAX);
    assert!(errs.iter().any(|e| e.to_string() == over), "{:?}", &errs[..errs.len().min(3)]);
    assert!(errs.len() < 10, "{} errors", errs.len());
}
