//! The coverage table lists exactly the digest's VG and VGC rule IDs, and COVERAGE.md is up to date.

use kifu::game::Game;
use kifu::games::vanguard::coverage::coverage_markdown;
use kifu::games::vanguard::Vanguard;

use crate::game_support::{check_coverage_against_digest, check_coverage_markdown};

#[test]
fn coverage_lists_every_digest_rule_exactly_once() {
    // The `VG-*` and `VGC-*` IDs of digest §4 (from its heading to the next top-level section).
    let heading = "## 4. Cardfight!! Vanguard";
    check_coverage_against_digest(heading, "\n## 5.", &["VG-", "VGC-"], 170, &Vanguard::coverage());
}

#[test]
fn coverage_markdown_is_checked_in() {
    check_coverage_markdown("src/games/vanguard/COVERAGE.md", &coverage_markdown(), "vanguard::coverage");
}
