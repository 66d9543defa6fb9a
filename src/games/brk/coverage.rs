//! The coverage table: every `BRK-*` rule ID of digest §2 and whether `validate` enforces it.
//!
//! `Enforced` rows are each named by a given/when/then test (`tests/it/brk/rules.rs`); a test
//! checks this table against the digest and another keeps `COVERAGE.md` in sync with
//! [`coverage_markdown`] (regenerate with `UPDATE_EXPECT=1 cargo test`).

use crate::game::rules::Enforcement::{Enforced, Informational, RecordedNotEnforced};
use crate::game::RuleCoverage;

const TITLE: &str = "a title or lead sentence with no rule text (digest §2.7)";

use crate::game::rules::row;

/// Every BRK rule ID with its enforcement.
#[rustfmt::skip]
pub fn coverage() -> Vec<RuleCoverage> {
    vec![
        row("BRK-STACK-1", "a declared game action is on the stack at once", Informational { reason: "declaring is one event, GameActionDeclared, which puts the action on the stack: no log can declare without stacking" }),
        row("BRK-STACK-2", "an action being performed has left the stack: no interrupting or blocking it; its effects come first", Enforced),
        row("BRK-STACK-3", "stack order and priority passing (policies stack_order and priority)", Enforced),
        row("BRK-INT-1", "interrupting makes an action impossible by the rules or card text", Enforced),
        row("BRK-INT-2", "an interrupted action is removed without payment", Enforced),
        row("BRK-INT-3", "an action already performed cannot be interrupted", Enforced),
        row("BRK-INT-4", "a declaration cannot be interrupted", Informational { reason: "declaring and being on the stack are one event (BRK-STACK-1), so there is nothing between to interrupt" }),
        row("BRK-INT-5", "legality is rechecked on the stack; an illegal finishing blow is removed unpaid", Enforced),
        row("BRK-BLOCK-1", "only an action on the stack can be blocked", Enforced),
        row("BRK-BLOCK-2", "the blocker targets the source of the action", Enforced),
        row("BRK-BLOCK-3", "on-death and on-return features may be blocked in the graveyard or deck", Enforced),
        row("BRK-BLOCK-4", "a blocked action is removed with no effects", Enforced),
        row("BRK-BLOCK-5", "a blocked action's source still pays everything it was due", Enforced),
        row("BRK-BLOCK-6", "interrupted: unpaid; blocked or performed: paid, once it leaves the stack", Enforced),
        row("BRK-PROT-1", "protection from X: no effects, markers or accompanying features of X on that card", Enforced),
        row("BRK-PROT-2", "complex protection is several component protections", Enforced),
        row("BRK-PROT-3", "features work against a complex protection as a whole (each component) or one component", Enforced),
        row("BRK-HID-1", "a hidden card is in the play zone, face down", Enforced),
        row("BRK-HID-2", "a card that starts hidden has no markers; they are placed on reveal, without the stack", Enforced),
        row("BRK-HID-3", "a card that becomes hidden keeps its markers", Informational { reason: "no event removes a marker, so no log can break it; the fold keeps them on CardHidden (a fold test checks it)" }),
        row("BRK-HID-4", "reveal triggers: Reveal subphase (Second player's 3rd row may wait out the First player's first turn), declaring, being targeted, controller's choice", Enforced),
        row("BRK-HID-5", "revealing does not use the stack", Informational { reason: "no event can put a reveal on the stack: CardRevealed interjects whoever holds priority, and blocks and interruptions name declared actions only; a fold test checks the stack and priority stay" }),
        row("BRK-HID-6", "a hidden source of a constant feature may stay hidden; the feature is absent", Enforced),
        row("BRK-HID-7", "constant features of other cards do not reveal a hidden card", Informational { reason: "constant features are not events, so nothing can reveal a card because of one; a reveal \"as a target\" of no declared action is BRK-HID-4" }),
        row("BRK-HID-8", "a hidden card can be targeted like a card on its own cell", Informational { reason: "a permission with nothing to break: every piece in play, hidden or not, is a target on its own cell, and a targeted hidden card must be revealed (BRK-HID-4 (c)); case brk_hid_8_hidden_card_targeted_on_its_cell" }),
        row("BRK-HID-9", "an action limited to cards with X may treat the opponent's hidden cards as having X", Enforced),
        row("BRK-HID-10", "a player may not assume a false X of their own hidden card; only the controller knows its identity", Enforced),
        row("BRK-HID-11", "targeting reveals; the assumption is checked; a false one follows the false_assumption policy", Enforced),
        row("BRK-FRAG-1", "payment has neither source nor target", Informational { reason: "no event can treat a payment as having a source or a target: it is recorded against its action (PaymentMade), blocks and interruptions name actions, and no protection is asked of it; case brk_frag_1_payment_of_lives_ignores_protection" }),
        row("BRK-FRAG-2", "game rules effects", Informational { reason: TITLE }),
        row("BRK-FRAG-3", "a compound feature lists several abilities", Informational { reason: "a card's abilities are listed one by one in the catalog" }),
        row("BRK-FRAG-4", "lives and wounds", Informational { reason: "title only; the skeleton's lives and wounds are BRK-OPEN-1" }),
        row("BRK-FRAG-5", "action", Informational { reason: TITLE }),
        row("BRK-FRAG-6", "a card acts once per turn; opening restores that", Enforced),
        row("BRK-FRAG-7", "general rules for assigning defenders", Informational { reason: TITLE }),
        row("BRK-FRAG-8", "quick (sudden) attack", Informational { reason: TITLE }),
        row("BRK-FRAG-9", "attack modifiers", Informational { reason: TITLE }),
        row("BRK-FRAG-10", "rules of zero", Informational { reason: TITLE }),
        row("BRK-OPEN-1", "setup, turns, cells, lives and victory are absent: the minimal skeleton (policy skeleton=minimal), not from the seed", Enforced),
        row("BRK-OPEN-2", "stack order and priority", Informational { reason: "policies stack_order=lifo|fifo and priority=alternate|active-first, enforced as BRK-STACK-3" }),
        row("BRK-OPEN-3", "a false assumption about a hidden target", Informational { reason: "policy false_assumption=interrupt|stands, enforced as BRK-HID-11" }),
        row("BRK-OPEN-4", "gaps and a typo in the rule numbering", Informational { reason: "the digest's IDs are used; the seed's numbers are only cited" }),
        row("BRK-OPEN-5", "accompanying features are not defined", RecordedNotEnforced { reason: "undefined by the seed, so nothing can check one; no card of the catalog has one; what such a feature did is recorded with the escape hatches (MarkerPlaced, LivesChanged) or a common NoteRecorded" }),
        row("BRK-OPEN-6", "does «бой» mean the game or one combat", Informational { reason: "read as the game: cards start hidden when deployed before turn 1; the skeleton has no combats, so the other reading has nothing to apply to" }),
        row("BRK-OPEN-7", "how a card becomes hidden during play", RecordedNotEnforced { reason: "the seed gives no way, so which effect hides a card cannot be checked; CardHidden records it, checked only against BRK-HID-1 (a face-up card in play)" }),
        row("BRK-OPEN-8", "«открывается» read as un-tapping", Informational { reason: "read so, not a policy yet: the other reading (opening = turning face up, so a reveal restores the action) would need a new policy key, and the stored policy table has no room for it without a new header version; a card opens at its controller's turn start (CardsOpened, an automatic step from rules version 4); CardOpened records an effect that opens it (BRK-FRAG-6)" }),
    ]
}

/// The coverage table as markdown (checked in as `src/games/brk/COVERAGE.md`).
pub fn coverage_markdown() -> String {
    crate::game::rules::coverage_markdown(&crate::game::rules::CoverageDoc {
        title: "Berserk-style game (BRK) rule coverage",
        game: "brk",
        groups: &[],
        rows: &coverage(),
        scenarios: &crate::game::rules::parse_scenarios(SCENARIOS),
        unrecordable: UNRECORDABLE,
    })
}

/// How many judge's scenarios each rule ID has: generated from `tests/it/brk/rules.rs` by its
/// `scenario_index_is_checked_in` test.
pub const SCENARIOS: &str = include_str!("scenarios.tsv");

/// The actions the rules give a player that a table still cannot record (see COVERAGE.md): none.
/// Up to rules version 3 the fold made three of them inside another event (a revealed card's
/// markers inside `CardRevealed`, the turn start's opening inside `TurnStarted`, a death inside
/// the event that took the last life); version 4 records each as an automatic step of its own
/// ([`super::BrkV4`]), as versions 5 and 6 ([`super::BrkV6`]) do.
pub const UNRECORDABLE: &[crate::game::Unrecordable] = &[];
