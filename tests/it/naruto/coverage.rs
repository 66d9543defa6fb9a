//! The coverage table lists exactly the digest's NAR rule IDs, and COVERAGE.md is up to date.

use kifu::game::Game;
use kifu::games::naruto::coverage::coverage_markdown;
use kifu::games::naruto::Naruto;

use crate::game_support::{check_coverage_against_digest, check_coverage_markdown};

#[test]
fn coverage_lists_every_digest_rule_exactly_once() {
    // The `NAR-*` IDs of digest §1 (from its heading to the next top-level section).
    check_coverage_against_digest("## 1. Naruto", "\n## 2.", &["NAR-"], 150, &Naruto::coverage());
}

#[test]
fn coverage_markdown_is_checked_in() {
    check_coverage_markdown("src/games/naruto/COVERAGE.md", &coverage_markdown(), "naruto::coverage");
}
