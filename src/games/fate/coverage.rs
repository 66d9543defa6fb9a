//! The coverage table: every `FATE-*` rule ID of digest §5 and whether `validate` enforces it.
//!
//! `Enforced` rows are each named by a given/when/then test (`tests/it/fate/rules.rs`); a test
//! checks this table against the digest and another keeps `COVERAGE.md` in sync with
//! [`coverage_markdown`] (regenerate with `UPDATE_EXPECT=1 cargo test --release fate`).

use crate::game::rules::Enforcement::{Enforced, Informational, RecordedNotEnforced};
use crate::game::RuleCoverage;

use crate::game::rules::row;

/// Every FATE rule ID with its enforcement.
pub fn coverage() -> Vec<RuleCoverage> {
    vec![
        row("FATE-STATE-1", "Standing: a Servant may attack and use its properties; Secret Signs work", Informational { reason: "a permission with nothing to break: what a Standing card may do, the other states forbid (FATE-STATE-2..4, FATE-EFF-2); case a_standing_servant_may_attack" }),
        row("FATE-STATE-2", "Resting: a Servant cannot attack on its own, only respond", Enforced),
        row("FATE-STATE-3", "Danger (Servants only): no attack, no written abilities", Enforced),
        row("FATE-STATE-4", "Face-down: no property works, not even [Constant]", Enforced),
        row("FATE-STATE-5", "capability matrix of the four states", Informational { reason: "derived from FATE-STATE-1..4 and FATE-EFF-1/2: each cell is cited under the rule it comes from (cases a_resting_servant_may_respond, a_servant_in_danger_may_respond)" }),
        row("FATE-STATE-6", "known state transitions", Informational { reason: "a list of transitions, each checked under its own rule ID; from rules version 4 each is an event of its own: the stand step (RestingCardsStood, FATE-TURN-1), a T or R cost (EffectActivated, FATE-COST-1/2), the retreat's rest (WoundedServantsRested, FATE-BATTLE-9), Danger→Resting on receiving the Active Master status (ServantLeftDanger, FATE-PHASE-3), Command Spell option 5 (FATE-CS-3) and the reveals (FATE-TURN-3, FATE-BATTLE-1)" }),
        row("FATE-COST-1", "T: rest the card being used", Enforced),
        row("FATE-COST-2", "R(n): rest n cards not yet resting", Enforced),
        row("FATE-COST-3", "D(n): roll a die; a listed face makes it work", Enforced),
        row("FATE-COST-4", "E(n): discard n cards from hand", Enforced),
        row("FATE-COST-5", "compound costs paid left to right; a failed die aborts the rest", Enforced),
        row("FATE-COST-6", "an X cost exists; its meaning is FATE-OPEN-6", Enforced),
        row("FATE-PHASE-1", "N Masters; the first Active Master is chosen at the deal", Enforced),
        row("FATE-PHASE-2", "play passes to the next Master", Enforced),
        row("FATE-PHASE-3", "when play comes back to the Active Master the status is handed on; Danger → Resting", Enforced),
        row("FATE-PHASE-4", "the status passes to the next Master each phase", Enforced),
        row("FATE-PHASE-5", "turn order around a handover: readings R1/R2", Enforced),
        row("FATE-TURN-1", "stand step: Resting → Standing", Enforced),
        row("FATE-TURN-2", "draw step: draw one card", Enforced),
        row("FATE-TURN-3", "ritual step: one Secret Sign; Servant reveal draws 2", Enforced),
        row("FATE-TURN-4", "branch after the ritual step", Enforced),
        row("FATE-TURN-5", "encounter roll: 1 battles a random Servant, 2–6 skip; no voluntary assault", Enforced),
        row("FATE-TURN-6", "battle step on a declared assault with a Standing Servant", Enforced),
        row("FATE-TURN-7", "end step ends the turn; hand limit", Enforced),
        row("FATE-BATTLE-1", "reveal process turns face-down Servants up", Enforced),
        row("FATE-BATTLE-2", "battle process: effects such as Substitute Battle", Enforced),
        row("FATE-BATTLE-3", "the attacking side chooses physical or magical", Enforced),
        row("FATE-BATTLE-4", "attacker damage = attack − defense, a tie deals 1", Enforced),
        row("FATE-BATTLE-5", "the responding side chooses its attack type", Enforced),
        row("FATE-BATTLE-6", "responder damage = attack − defense, a tie deals 0", Enforced),
        row("FATE-BATTLE-7", "[Preemptive Strike] denies the response", Enforced),
        row("FATE-BATTLE-8", "each side loses prana equal to the damage it took", Enforced),
        row("FATE-BATTLE-9", "a wounded Servant rests; the winner takes a card from the loser's hand", Enforced),
        row("FATE-BATTLE-10", "damage is simultaneous", Enforced),
        row("FATE-DMG-1", "attacker's damage, tie deals 1", Informational { reason: "the same rule as FATE-BATTLE-4, whose step it belongs to: a wrong attacker damage is cited there (cases an_attackers_tie_deals_one, a_tie_deals_one_to_the_responder_and_nothing_back)" }),
        row("FATE-DMG-2", "responder's damage, tie deals 0", Informational { reason: "the same rule as FATE-BATTLE-6, whose step it belongs to: a wrong responder damage is cited there" }),
        row("FATE-DMG-3", "which stats physical and magical use", Informational { reason: "settled as FATE-OPEN-12: the catalog's physical/magical attack and defense" }),
        row("FATE-DMG-4", "negative damage", Informational { reason: "settled as FATE-OPEN-12 (0); a wrong amount is cited as FATE-BATTLE-4/6 (case negative_damage_is_zero). Citing FATE-DMG-4 itself would move existing verdicts: a rules version's business" }),
        row("FATE-DMG-5", "damage is paid in prana tokens", Informational { reason: "prana per Master (policy prana); removed by PranaLost from rules version 4, checked as FATE-BATTLE-8 (up to version 3 the fold removed it inside DamageDealt)" }),
        row("FATE-CS-1", "three Command Spells per Master, usable at any moment", Enforced),
        row("FATE-CS-2", "a used Command Spell is spent; spending the third loses", Informational { reason: "the fold spends it (no event can use a spell without spending it); a fourth spell is FATE-CS-1; the defeat after the third is FATE-WIN-1 (from rules version 4 a MastersDefeated of its own)" }),
        row("FATE-CS-3", "the five options of a Command Spell", Enforced),
        row("FATE-EFF-1", "[Constant] effects always apply while face up", Enforced),
        row("FATE-EFF-2", "[Activated] effects barred in Danger (Servant) or Danger/Resting (Secret Sign)", Enforced),
        row("FATE-EFF-3", "one activation per process or step per player", Enforced),
        row("FATE-EFF-4", "effects may be activated outside one's turn and battle", Informational { reason: "a permission with nothing to break: no activation is refused for being outside the Master's turn or battle (cases effects_outside_ones_own_turn_and_battle, a_bystander_activates_in_the_battle_process)" }),
        row("FATE-EFF-5", "effects last until the end of the turn", Informational { reason: "the fold clears stat changes at TurnEnded" }),
        row("FATE-HAND-1", "a hand of 5 or more is discarded to 4 at the end step", Enforced),
        row("FATE-WIN-1", "losing all three Command Spells is defeat", Enforced),
        row("FATE-WIN-2", "no other end condition is stated", Informational { reason: "see the policies prana_zero and game_end (FATE-OPEN-13, FATE-OPEN-18)" }),
        row("FATE-CTX-1", "play-by-post: field states and texts are posted publicly", Informational { reason: "views show every field card's state to everyone" }),
        row("FATE-OPEN-1", "setup: deck, opening hand, Servants face down", Enforced),
        row("FATE-OPEN-2", "a Servant is a Heroic Spirit and a Class card", Enforced),
        row("FATE-OPEN-3", "how a Servant enters Danger", RecordedNotEnforced { reason: "policy prana_zero=danger (default) puts a Servant at 0 prana in Danger (from rules version 4 a ServantsEndangered of its own, checked as FATE-OPEN-13); any other way in is an effect the seed does not define, recorded with CardStateChanged and checked for a card on a field (KIFU-CARD-1); from rules version 2 only a Servant enters Danger (FATE-STATE-3) and no card of a defeated Master's changes (FATE-WIN-1)" }),
        row("FATE-OPEN-4", "which cards T/R(n) may rest", Informational { reason: "policy rest_cost (default own), enforced as FATE-COST-2; T on a resting card is FATE-COST-1" }),
        row("FATE-OPEN-5", "a failed die: activation used? costs refunded?", Informational { reason: "policies failed_roll (default counts), enforced as FATE-EFF-3, and failed_roll_refund (default kept), applied by the fold" }),
        row("FATE-OPEN-6", "the X cost", Informational { reason: "policy x_cost (default forbid), enforced as FATE-COST-6" }),
        row("FATE-OPEN-7", "first Active Master and seating direction", Enforced),
        row("FATE-OPEN-8", "turn order around a handover", Informational { reason: "policy turn_order (default r2), enforced as FATE-PHASE-5" }),
        row("FATE-OPEN-9", "both ritual actions in one turn?", Enforced),
        row("FATE-OPEN-10", "the random Servant of an encounter", Enforced),
        row("FATE-OPEN-11", "how the winner takes a card", RecordedNotEnforced { reason: "policy hand_pick (default blind): a blind pick must be the recorded random pick (physical: the position; digital: drawn from the combined seed), cited as FATE-BATTLE-9; a chosen pick is the winner's own, so nothing is left to check" }),
        row("FATE-OPEN-12", "stat model and negative damage", Informational { reason: "the defense of the attack's type; negative damage is 0" }),
        row("FATE-OPEN-13", "prana: start, owner, reaching 0", Enforced),
        row("FATE-OPEN-14", "«суммируются»: stacking Command Spells", Informational { reason: "several Command Spells may be used one after another at any moment" }),
        row("FATE-OPEN-15", "is spending the last Command Spell defeat?", Informational { reason: "read as yes (FATE-CS-2); other losses recorded with CommandSpellLost" }),
        row("FATE-OPEN-16", "whose Secret Signs option 2 counts", RecordedNotEnforced { reason: "policy sign_bonus (default own): option 2 names only the stat and the fold counts the Secret Signs when it is used, so no recorded amount can be wrong" }),
        row("FATE-OPEN-17", "special marks", RecordedNotEnforced { reason: "undefined by the seed, so which effect places one cannot be checked: SpecialMarkPlaced records it; option 3 removing a mark the Master does not have is FATE-CS-3" }),
        row("FATE-OPEN-18", "first defeat ends the game, or last standing", Informational { reason: "policy game_end (default last-standing), enforced as FATE-WIN-1" }),
    ]
}

/// The generated `src/games/fate/COVERAGE.md`.
pub fn coverage_markdown() -> String {
    crate::game::rules::coverage_markdown(&crate::game::rules::CoverageDoc {
        title: "FATE rule coverage",
        game: "fate",
        groups: &[],
        rows: &coverage(),
        scenarios: &crate::game::rules::parse_scenarios(SCENARIOS),
        unrecordable: UNRECORDABLE,
    })
}

/// How many judge's scenarios each rule ID has: generated from `tests/it/fate/rules.rs` by its
/// `scenario_index_is_checked_in` test.
pub const SCENARIOS: &str = include_str!("scenarios.tsv");

/// The actions the rules give a player that a table still cannot record (see COVERAGE.md): none.
/// Up to rules version 3 the fold made seven of them inside another event (the stand step's
/// cards, the handover's Danger→Resting, the wounding's prana loss and rest, what 0 prana does,
/// the defeat on the third Command Spell, a defeated Active Master's status); version 4 records
/// each as an event of its own ([`super::FateV4`]).
pub const UNRECORDABLE: &[crate::game::Unrecordable] = &[];
