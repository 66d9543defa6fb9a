//! The coverage table: every `LC-*` rule ID of digest §3 and whether `validate` enforces it.
//!
//! `Enforced` rows are each named by a given/when/then test (`tests/it/lc/rules.rs`); a test
//! checks this table against the digest and another keeps `COVERAGE.md` in sync with
//! [`coverage_markdown`] (regenerate with `UPDATE_EXPECT=1 cargo test`).

use crate::game::rules::Enforcement::{self, Enforced, Informational, RecordedNotEnforced};
use crate::game::RuleCoverage;

use crate::game::rules::row;

fn policy(reason: &'static str) -> Enforcement {
    Informational { reason }
}

/// Every LC rule ID with its enforcement.
#[rustfmt::skip]
pub fn coverage() -> Vec<RuleCoverage> {
    vec![
        row("LC-ROUND-1", "the 4th round is the Combat Phase; no combat before it", Enforced),
        row("LC-ROUND-2", "in the Combat Phase: put cards down and draw, then use Combat and Strategy cards; only the active player", Enforced),
        row("LC-ROUND-3", "turn end: refill, then pass; a round's turns all pass before the next", Enforced),
        row("LC-ROUND-4", "order of drawing vs attacking (L4 vs L46)", Enforced),
        row("LC-ROUND-5", "round vs turn is undefined", policy("LC-OPEN-3: policy round")),
        row("LC-CARD-1", "card kinds: Combat (Attack/Defense lines), Strategy, Protection, Equipment/Effect (attached)", Enforced),
        row("LC-CARD-2", "attached Equipment/Effect values add to Sword or Shield", Enforced),
        row("LC-FIELD-1", "Attack, Defense and Strategy lines of slots", Enforced),
        row("LC-FIELD-2", "a full line takes a new card only by sending one of its cards to the Dead Zone", Enforced),
        row("LC-FIELD-3", "a line whose points are zero takes no more cards from hand", Enforced),
        row("LC-FIELD-4", "field cards may be face down", Enforced),
        row("LC-STRAT-1", "strategies are activated only from the field, never from the hand", Enforced),
        row("LC-PROT-1", "Protection cards only in the opponent's turn, against their attack", Enforced),
        row("LC-PROT-2", "under Protection the attacker need not flip their card", Informational { reason: "the exception LC-ATK-2 states too, enforced there: a permission, so nothing can break it (LC-ATK-2's case of a protected attacker left face down checks it)" }),
        row("LC-PROT-3", "Protection may prevent a Direct Attack", Informational { reason: "the same rule as LC-DIRECT-4, enforced there" }),
        row("LC-MOVE-1", "the active player moves Attack-line cards; a card that attacked cannot go back to Defense this round", Enforced),
        row("LC-MOVE-2", "a card moved from Defense to Attack cannot attack this round", Enforced),
        row("LC-MOVE-3", "per-card flags: moved from Defense, attacked this round", Informational { reason: "the fold keeps both flags; LC-MOVE-1 and LC-MOVE-2 check them" }),
        row("LC-ATK-1", "an attack: own Attack-line card against an opposing Attack- or Defense-line card", Enforced),
        row("LC-ATK-2", "face-down cards are flipped up to compare", Enforced),
        row("LC-ATK-3", "Sword vs Sword: lower destroyed, difference off its owner's points, one Attack-line point lost", Enforced),
        row("LC-ATK-4", "Sword vs Shield: higher Sword destroys the defense card (one Defense-line point); lower Sword costs the attacker the difference", Enforced),
        row("LC-ATK-5", "each Attack-line card attacks once per round (derived)", Enforced),
        row("LC-DIRECT-1", "a Direct Attack only against empty Attack and Defense lines", Enforced),
        row("LC-DIRECT-2", "the attacker's Sword comes off the opponent's Combat Points", Enforced),
        row("LC-DIRECT-3", "one Direct Attack per round", Enforced),
        row("LC-DIRECT-4", "Protection may prevent a Direct Attack", Enforced),
        row("LC-REFILL-1", "refill to 5 at the end of the turn", Enforced),
        row("LC-DISCARD-1", "full discard at the start of the turn: the whole hand of 5 out, 5 new in", Enforced),
        row("LC-DISCARD-2", "a full discard costs 10 Combat Points", Enforced),
        row("LC-END-1", "the game ends at zero Combat Points or with an empty Draw Pile at the start of a round", Enforced),
        row("LC-END-2", "both players at zero together: a draw", Enforced),
        row("LC-END-3", "the player at zero loses; the empty-pile winner is a policy", Enforced),
        row("LC-END-4", "at or below zero counts as zero", RecordedNotEnforced { reason: "a fold rule: the end check treats points <= 0 as zero; clamping is LC-OPEN-14" }),
        row("LC-OPEN-1", "rounds 1-3 and the placement rules are not in the seed", policy("policy opening_rounds; the skeleton (shuffle, first player, 5 cards, placement rounds) is not from the seed")),
        row("LC-OPEN-2", "draw vs attack order", policy("policy draw_order, checked as LC-ROUND-3/LC-ROUND-4")),
        row("LC-OPEN-3", "round vs turn", policy("policy round")),
        row("LC-OPEN-4", "life points and Combat Points are one pool", policy("one counter per player")),
        row("LC-OPEN-5", "slots per line", policy("policy slots")),
        row("LC-OPEN-6", "whether putting cards down is mandatory", RecordedNotEnforced { reason: "a turn with no card put down is recorded, not rejected" }),
        row("LC-OPEN-7", "starting Combat Points and line points", policy("policies combat_points and line_points")),
        row("LC-OPEN-8", "Protection: where from, what it prevents, how many", policy("policy protection_from; a Protection card prevents the whole attack, one per attack")),
        row("LC-OPEN-9", "ties in Sword vs Sword and Sword vs Shield", policy("policies sword_tie and shield_tie")),
        row("LC-OPEN-10", "attack limits per card; free choice of target", policy("policy attacks_per_card; any opposing Attack/Defense card may be targeted")),
        row("LC-OPEN-11", "refill when put-down count and missing cards differ", policy("policy refill")),
        row("LC-OPEN-12", "full discard with under 5 cards or under 10 points", policy("policies full_discard_hand and full_discard_points")),
        row("LC-OPEN-13", "the winner when an empty Draw Pile ends the game", policy("policy empty_pile_winner")),
        row("LC-OPEN-14", "negative Combat Points", policy("policy negative_points")),
        row("LC-OPEN-15", "what Strategy cards do and cost", RecordedNotEnforced { reason: "card-defined: what a card does is not in the seed; recorded through StrategyPointsChanged (Combat Points, one player's or both at once; whether the card may be used then is checked as LC-STRAT-1) and ModifierApplied (Sword or Shield)" }),
    ]
}

/// The generated `COVERAGE.md`.
pub fn coverage_markdown() -> String {
    crate::game::rules::coverage_markdown(&crate::game::rules::CoverageDoc {
        title: "LC (line-combat game) rule coverage",
        game: "lc",
        groups: &[],
        rows: &coverage(),
        scenarios: &crate::game::rules::parse_scenarios(SCENARIOS),
        unrecordable: UNRECORDABLE,
    })
}

/// How many judge's scenarios each rule ID has: generated from `tests/it/lc/rules.rs` by its
/// `scenario_index_is_checked_in` test.
pub const SCENARIOS: &str = include_str!("scenarios.tsv");

/// The actions the rules give a player that a table still cannot record (see COVERAGE.md).
pub const UNRECORDABLE: &[crate::game::Unrecordable] = &[];
