//! The coverage table lists exactly the digest's LC rule IDs, and COVERAGE.md is up to date.

use kifu::game::Game;
use kifu::games::lc::coverage::coverage_markdown;
use kifu::games::lc::Lc;

use crate::game_support::{check_coverage_against_digest, check_coverage_markdown};

#[test]
fn coverage_lists_every_digest_rule_exactly_once() {
    // The `LC-*` IDs of digest §3 (from its heading to the next top-level section).
    let heading = "## 3. Portuguese line-combat card game";
    check_coverage_against_digest(heading, "\n## 4.", &["LC-"], 40, &Lc::coverage());
}

#[test]
fn coverage_markdown_is_checked_in() {
    check_coverage_markdown("src/games/lc/COVERAGE.md", &coverage_markdown(), "lc::coverage");
}
