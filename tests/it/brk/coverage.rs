//! The coverage table lists exactly the digest's BRK rule IDs, and COVERAGE.md is up to date.

use kifu::game::Game;
use kifu::games::brk::coverage::coverage_markdown;
use kifu::games::brk::Brk;

use crate::game_support::{check_coverage_against_digest, check_coverage_markdown};

#[test]
fn coverage_lists_every_digest_rule_exactly_once() {
    // The `BRK-*` IDs of digest §2 (from its heading to the next top-level section).
    check_coverage_against_digest("## 2. Berserk-style CCG", "\n## 3.", &["BRK-"], 40, &Brk::coverage());
}

#[test]
fn coverage_markdown_is_checked_in() {
    check_coverage_markdown("src/games/brk/COVERAGE.md", &coverage_markdown(), "brk::coverage");
}
