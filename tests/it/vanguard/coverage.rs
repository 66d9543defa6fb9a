//! The coverage table lists exactly the digest's VG and VGC rule IDs, and COVERAGE.md is up to date.

use std::collections::BTreeSet;

use kifu::game::Game;
use kifu::games::vanguard::coverage::coverage_markdown;
use kifu::games::vanguard::Vanguard;

/// The `VG-*` and `VGC-*` IDs of digest §4 (from its heading to the next top-level section).
fn digest_ids() -> BTreeSet<String> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/rules/RULES-DIGEST.md");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("the rules digest must be readable at {}: {e}", path.display()));
    let start = text.find("## 4. Cardfight!! Vanguard").unwrap_or_else(|| panic!("digest has no §4 heading"));
    let end = text[start..].find("\n## 5.").map_or(text.len(), |i| start + i);
    let section = &text[start..end];
    let mut ids = BTreeSet::new();
    for (i, _) in section.match_indices("VG") {
        let rest = &section[i..];
        if !(rest.starts_with("VG-") || rest.starts_with("VGC-")) {
            continue;
        }
        let id: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '-').collect();
        let id = id.trim_end_matches('-').to_string();
        if id.rsplit('-').next().is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit())) {
            ids.insert(id);
        }
    }
    ids
}

#[test]
fn coverage_lists_every_digest_rule_exactly_once() {
    let digest = digest_ids();
    assert!(digest.len() > 170, "suspiciously few IDs parsed from the digest: {}", digest.len());
    let rows = Vanguard::coverage();
    let mut seen = BTreeSet::new();
    for r in &rows {
        assert!(seen.insert(r.rule.to_string()), "{} appears twice in the coverage table", r.rule);
    }
    let missing: Vec<&String> = digest.difference(&seen).collect();
    let extra: Vec<&String> = seen.difference(&digest).collect();
    assert!(missing.is_empty(), "digest rules missing from coverage(): {missing:?}");
    assert!(extra.is_empty(), "coverage() rows not in the digest: {extra:?}");
}

#[test]
fn coverage_markdown_is_checked_in() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/games/vanguard/COVERAGE.md");
    let want = coverage_markdown();
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    if have == want {
        return;
    }
    if std::env::var("UPDATE_EXPECT").is_ok_and(|v| v == "1") {
        std::fs::write(&path, &want).unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
        return;
    }
    panic!(
        "{} is out of date; regenerate it with `UPDATE_EXPECT=1 cargo test --release vanguard::coverage`",
        path.display()
    );
}
