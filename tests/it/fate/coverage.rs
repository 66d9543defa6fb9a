//! The coverage table lists exactly the digest's FATE rule IDs, and COVERAGE.md is up to date.

use kifu::game::Game;
use kifu::games::fate::coverage::coverage_markdown;
use kifu::games::fate::Fate;

use crate::game_support::{check_coverage_against_digest, check_coverage_markdown};

#[test]
fn coverage_lists_every_digest_rule_exactly_once() {
    // The `FATE-*` IDs of digest §5 (from its heading to Appendix A).
    check_coverage_against_digest("## 5. Fate", "\n## Appendix A", &["FATE-"], 60, &Fate::coverage());
}

#[test]
fn coverage_markdown_is_checked_in() {
    check_coverage_markdown("src/games/fate/COVERAGE.md", &coverage_markdown(), "fate::coverage");
}
