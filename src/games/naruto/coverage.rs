//! The coverage table: every `NAR-*` rule ID of digest §1 and whether `validate` enforces it.
//!
//! `Enforced` rows are each named by a given/when/then test (`tests/it/naruto/rules.rs`); a
//! test checks this table against the digest and another keeps `COVERAGE.md` in sync with
//! [`coverage_markdown`] (regenerate with `UPDATE_EXPECT=1 cargo test`).

use crate::game::rules::Enforcement::{self, Enforced, Informational, RecordedNotEnforced};
use crate::game::RuleCoverage;

const FOLD: &str = "the fold applies it; no event states it, so there is nothing to reject";
const EFFECTS: &str = "card effects are out of the seeds' scope; recorded through the escape-hatch events";
const CONTEXT: &str = "context or glossary; nothing to check";
const OPEN: &str = "OPEN point: recorded as it happened, not rejected";

fn row(rule: &'static str, summary: &'static str, enforcement: Enforcement) -> RuleCoverage {
    RuleCoverage { rule, summary, enforcement }
}

/// Every NAR rule ID with its enforcement.
pub fn coverage() -> Vec<RuleCoverage> {
    vec![
        row("NAR-CARD-1", "card types: ninja, jutsu, mission (+ client)", Informational { reason: "the catalog's `type` field; the fourth type is NAR-OPEN-1" }),
        row("NAR-CARD-2", "ninja card fields", Informational { reason: "the catalog format's ninja fields" }),
        row("NAR-CARD-3", "jutsu card fields", Informational { reason: "the catalog format's jutsu fields" }),
        row("NAR-CARD-4", "one mission per turn", Enforced),
        row("NAR-CARD-5", "example cards N008 Iruka, M003 Leaf Headband", Informational { reason: "the only real cards in the sample catalog" }),
        row("NAR-CARD-6", "a mission may have several elements", Informational { reason: "catalog `elements` is a list; payment is NAR-COST-3" }),
        row("NAR-DECK-1", "two players, one deck each", Enforced),
        row("NAR-DECK-2", "at least 50 cards", Enforced),
        row("NAR-DECK-3", "at most 30 ninja, combined ninja excepted", Enforced),
        row("NAR-DECK-4", "at most 3 cards of one name", Enforced),
        row("NAR-ZONE-1", "battle rewards area, face down", Informational { reason: "a zone of the fold and view (face down: see the view module)" }),
        row("NAR-ZONE-2", "discard", Informational { reason: "a zone of the fold and view" }),
        row("NAR-ZONE-3", "chakra; used missions and jutsu go there", Informational { reason: FOLD }),
        row("NAR-ZONE-4", "village: ninja, client, permanent missions", Informational { reason: "a zone of the fold and view" }),
        row("NAR-ZONE-5", "battlefield", Informational { reason: "a zone of the fold and view" }),
        row("NAR-ZONE-6", "turn order zone holds the turn marker", Informational { reason: "a counter of the fold and view" }),
        row("NAR-ZONE-7", "removed-from-game cards, face down", Informational { reason: "a zone of the fold (face down in views); how cards get there is NAR-OPEN-4" }),
        row("NAR-ZONE-8", "deck: ordered, face down", Informational { reason: "the fold tracks contents and count; order only through seeded-shuffle transcripts" }),
        row("NAR-ZONE-9", "hand", Informational { reason: "a zone of the fold and view" }),
        row("NAR-ZONE-10", "a printed mat is optional", Informational { reason: CONTEXT }),
        row("NAR-EQUIP-1", "something to mark the turn number", Informational { reason: "the turn marker counters; per player or shared is NAR-OPEN-5" }),
        row("NAR-EQUIP-2", "a coin for coin flips", RecordedNotEnforced { reason: "CoinFlipped records effect flips; the first-player lot is checked under NAR-SETUP-3" }),
        row("NAR-SETUP-1", "turn markers set to 0 before shuffling", Enforced),
        row("NAR-SETUP-2", "shuffle own deck, then the opponent's", Enforced),
        row("NAR-SETUP-3", "lot by rock-paper-scissors or coin; winner chooses the first player", Enforced),
        row("NAR-SETUP-4", "draw 6; mulligan if wanted", Enforced),
        row("NAR-SETUP-5", "play begins when preparations are complete", Enforced),
        row("NAR-MULL-1", "first mulligan: return, shuffle, opponent shuffles, draw 5", Enforced),
        row("NAR-MULL-2", "second mulligan: draw 4", Enforced),
        row("NAR-MULL-3", "at most 2 mulligans", Enforced),
        row("NAR-ROLE-1", "players alternate turns", Enforced),
        row("NAR-ROLE-2", "the turn's player is the attacker, the other the blocker", Enforced),
        row("NAR-ROLE-3", "only the attacker declares attacks", Enforced),
        row("NAR-ROLE-4", "the blocker may respond (counter missions, blocks, jutsu)", Enforced),
        row("NAR-ROLE-5", "roles swap every turn", Enforced),
        row("NAR-ROLE-6", "the game ends as soon as a victory condition is met (step M)", Enforced),
        row("NAR-TURN-1", "steps A..O in order", Enforced),
        row("NAR-TURN-2", "source inconsistency in end-phase letters", Informational { reason: "code uses step names, as the digest advises" }),
        row("NAR-TURN-3", "source inconsistency in phase grouping", Informational { reason: "steps follow the digest's Start/Mission/Organization/Battle/End grouping" }),
        row("NAR-TURN-4", "mission-phase actions in any order", Informational { reason: "one `mission` step accepts B, V, G and D in any order" }),
        row("NAR-TURN-5", "starting player's first turn: no draw, no battle", Enforced),
        row("NAR-TURN-6", "phase exits are implicit", Informational { reason: "StepAdvanced makes them explicit in the log; the protocol is NAR-OPEN-7" }),
        row("NAR-DRAW-1", "the attacker draws the top card in step A", Enforced),
        row("NAR-DRAW-2", "start-of-turn effects resolve before the draw", RecordedNotEnforced { reason: EFFECTS }),
        row("NAR-DRAW-3", "no draw on the starting player's first turn", Enforced),
        row("NAR-NINJA-1", "the attacker deploys a ninja into their village", Enforced),
        row("NAR-NINJA-2", "one ninja deployment per turn", Enforced),
        row("NAR-NINJA-3", "Ambush: deploy from hand or chakra; counts as the deployment", Enforced),
        row("NAR-NINJA-4", "no two same-name ninja in one's own village", Enforced),
        row("NAR-NINJA-5", "the opponent's same-name ninja does not matter", Enforced),
        row("NAR-NINJA-6", "ninja entry cost <= turn marker (cited as NAR-COST-1)", Enforced),
        row("NAR-NINJA-7", "ninja hand cost paid (cited as NAR-COST-2)", Enforced),
        row("NAR-NINJA-8", "a deployed ninja enters healthy", Informational { reason: FOLD }),
        row("NAR-NINJA-9", "deploying a ninja starts no chain", Informational { reason: "the fold adds no chain link for a deployment; enters-play effects are recorded" }),
        row("NAR-COST-1", "entry cost <= turn marker (threshold, not payment)", Enforced),
        row("NAR-COST-2", "hand cost: N same-element cards from hand to chakra", Enforced),
        row("NAR-COST-3", "multi-element hand cost (reading per policy multi_element_cost)", Enforced),
        row("NAR-COST-4", "jutsu cost payment unstated", RecordedNotEnforced { reason: "NAR-OPEN-9: `cost_paid` is recorded as given" }),
        row("NAR-COST-5", "played missions and jutsu go to chakra; not a charge", Informational { reason: FOLD }),
        row("NAR-MISSION-1", "attacker plays a mission; blocker a counter mission", Enforced),
        row("NAR-MISSION-2", "mission entry cost <= turn marker (cited as NAR-COST-1)", Enforced),
        row("NAR-MISSION-3", "targets chosen on play; no target, no play", RecordedNotEnforced { reason: "whether a mission needs a target is card text, which the seeds do not give" }),
        row("NAR-MISSION-4", "mission hand cost (cited as NAR-COST-2/3)", Enforced),
        row("NAR-MISSION-5", "a played mission goes to chakra", Informational { reason: FOLD }),
        row("NAR-MISSION-6", "permanent missions stay in the village", Informational { reason: FOLD }),
        row("NAR-MISSION-7", "playing a mission starts a chain", Informational { reason: FOLD }),
        row("NAR-MISSION-8", "one mission per turn", Enforced),
        row("NAR-CHAKRA-1", "the attacker may charge chakra from hand", Enforced),
        row("NAR-CHAKRA-2", "chakra-charge rules missing", RecordedNotEnforced { reason: "NAR-OPEN-14: limited only by policy chakra_charge_limit" }),
        row("NAR-CHAKRA-3", "played missions/jutsu moving to chakra are not charges", Informational { reason: FOLD }),
        row("NAR-CLIENT-1", "the attacker deploys a client into the village", Enforced),
        row("NAR-CLIENT-2", "one client per turn", Enforced),
        row("NAR-CLIENT-3", "one client in play per player", Enforced),
        row("NAR-CLIENT-4", "the opponent's same-name client does not matter", Enforced),
        row("NAR-CLIENT-5", "client entry and hand cost (cited as NAR-COST-1/2/3)", Enforced),
        row("NAR-CLIENT-6", "a client does not use the ninja deployment", Enforced),
        row("NAR-CLIENT-7", "deploying a client starts no chain", Informational { reason: "the fold adds no chain link; enters-play effects are recorded" }),
        row("NAR-CHAIN-1", "ninja/client deployment start no chain", Informational { reason: FOLD }),
        row("NAR-CHAIN-2", "a mission starts a chain", Informational { reason: FOLD }),
        row("NAR-CHAIN-3", "a jutsu joins the chain", Informational { reason: FOLD }),
        row("NAR-CHAIN-4", "the opponent may respond at chain windows", RecordedNotEnforced { reason: "NAR-OPEN-16: counter missions are accepted in any step of the turn" }),
        row("NAR-TEAM-1", "the attacker organizes village ninja into teams", Enforced),
        row("NAR-TEAM-2", "a team has 1 to 3 ninja", Enforced),
        row("NAR-TEAM-3", "any number of teams", Enforced),
        row("NAR-TEAM-4", "every village ninja is in a team", Enforced),
        row("NAR-TEAM-5", "teams fixed until the next own organization", Enforced),
        row("NAR-TEAM-6", "the blocker has only the teams of their last organization", Enforced),
        row("NAR-TEAM-7", "clients and missions are not in teams", Enforced),
        row("NAR-ATK-1", "the attacker may send teams (or none) to the battlefield", Enforced),
        row("NAR-ATK-2", "at most 3 attacking teams", Enforced),
        row("NAR-ATK-3", "each sent team has a leader; the rest support", Enforced),
        row("NAR-ATK-4", "the attack configuration is fixed for the turn", Enforced),
        row("NAR-ATK-5", "injured ninja may attack", Informational { reason: "no restriction to check; they fight with injured values (NAR-DMG-4)" }),
        row("NAR-BLK-1", "the blocker may block with teams (or none)", Enforced),
        row("NAR-BLK-2", "each blocking team blocks one attacking team, with a leader; fixed", Enforced),
        row("NAR-BLK-3", "step Z ends once every attacking team is blocked or not", Informational { reason: "BlockingTeamsSent records all assignments at once and ends the step" }),
        row("NAR-BLK-4", "several blockers on one attacking team unstated", RecordedNotEnforced { reason: "NAR-OPEN-18: policy multi_block" }),
        row("NAR-BLK-5", "no limit on blocking teams", Informational { reason: "no limit to check" }),
        row("NAR-BSTAT-1", "a blocked attacking team and its blocker are fighting teams", Enforced),
        row("NAR-BSTAT-2", "an unblocked attacking team is non-fighting", Enforced),
        row("NAR-BSTAT-3", "teams not sent are remaining teams", Informational { reason: "shown in views; nothing to check" }),
        row("NAR-JUTSU-1", "only battlefield ninja use jutsu, during the exchange", Enforced),
        row("NAR-JUTSU-2", "a used jutsu joins the chain", Informational { reason: FOLD }),
        row("NAR-JUTSU-3", "used jutsu go to chakra", Informational { reason: FOLD }),
        row("NAR-JUTSU-4", "jutsu-use rules missing", RecordedNotEnforced { reason: "NAR-OPEN-19: any number, either player, in any order" }),
        row("NAR-POWER-1", "team power = leader attack + supports' support", Enforced),
        row("NAR-POWER-2", "values from current status and modifiers", Enforced),
        row("NAR-POWER-3", "mental battle: sum of mental power", Enforced),
        row("NAR-POWER-4", "order of several battles unstated", RecordedNotEnforced { reason: "NAR-OPEN-20: rewards and fights in any order" }),
        row("NAR-REWARD-1", "non-fighting team: power <= 4 takes 1, >= 5 takes 2", Enforced),
        row("NAR-REWARD-2", "rewards only from non-fighting teams", Enforced),
        row("NAR-REWARD-3", "rewards shrink the opponent's deck", Informational { reason: FOLD }),
        row("NAR-RESULT-1", "fight results by power difference and their damage", Enforced),
        row("NAR-RESULT-2", "the winning team takes no damage", Enforced),
        row("NAR-DMG-1", "ninja in play are healthy by default", Informational { reason: FOLD }),
        row("NAR-DMG-2", "1 damage injures a healthy ninja", Enforced),
        row("NAR-DMG-3", "damage to an injured ninja, or 2 to a healthy one, defeats it", Enforced),
        row("NAR-DMG-4", "injured ninja use injured values; effects negated except \"Valid\"", Enforced),
        row("NAR-DMG-5", "heal turns an injured ninja healthy", Enforced),
        row("NAR-DMG-6", "injury persists across turns", Informational { reason: FOLD }),
        row("NAR-RETURN-1", "all battlefield teams return to the village", Enforced),
        row("NAR-RETURN-2", "returned ninja keep their status", Informational { reason: FOLD }),
        row("NAR-RETURN-3", "team composition persists", Informational { reason: FOLD }),
        row("NAR-WIN-1", "victory is checked only at step M", Enforced),
        row("NAR-WIN-2", "10 rewards win; both: the attacker wins", Enforced),
        row("NAR-WIN-3", "an empty deck loses; both: the attacker loses", Enforced),
        row("NAR-WIN-4", "rewards take priority over deck-out", Enforced),
        row("NAR-WIN-5", "no winner: continue; no draws", Enforced),
        row("NAR-HAND-1", "attacker with 7+ cards discards to 6", Enforced),
        row("NAR-HAND-2", "the blocker never discards at step N", Enforced),
        row("NAR-MARKER-1", "the attacker moves the marker up by 1", Enforced),
        row("NAR-MARKER-2", "end-of-turn effects happen after the marker moves", RecordedNotEnforced { reason: EFFECTS }),
        row("NAR-MARKER-3", "a new turn starts after the marker moves; roles swap", Enforced),
        row("NAR-MARKER-4", "the marker starts at 0, so first turns allow entry cost 0 (or 1 shared)", Enforced),
        row("NAR-OPEN-1", "a fourth card type; combined and squad cards", Informational { reason: "client is the fourth type; combined ninja are ninja with `combined: true`" }),
        row("NAR-OPEN-2", "element list not given", Informational { reason: "elements are free text in the catalog" }),
        row("NAR-OPEN-3", "no name field on ninja", Informational { reason: "the catalog requires a name for every card" }),
        row("NAR-OPEN-4", "removed-from-game area", RecordedNotEnforced { reason: "cards get there only through CardMoved; face down in views" }),
        row("NAR-OPEN-5", "turn marker per player or shared", Enforced),
        row("NAR-OPEN-6", "mulligan order and timing", RecordedNotEnforced { reason: OPEN }),
        row("NAR-OPEN-7", "priority/pass protocol", RecordedNotEnforced { reason: "StepAdvanced records phase exits; response windows are not modelled" }),
        row("NAR-OPEN-8", "drawing from an empty deck", Enforced),
        row("NAR-OPEN-9", "jutsu cost payment", RecordedNotEnforced { reason: OPEN }),
        row("NAR-OPEN-10", "when a mental battle happens; mental power source", RecordedNotEnforced { reason: "FightResolved.mental is recorded; the power is then checked as NAR-POWER-3 with catalog mental_power" }),
        row("NAR-OPEN-11", "name uniqueness on the battlefield / chakra", RecordedNotEnforced { reason: "the check covers village and battlefield (the battlefield is empty whenever ninja deploy), not chakra" }),
        row("NAR-OPEN-12", "the English keyword for \"Valid\"", Informational { reason: "effect negation is card text; not modelled" }),
        row("NAR-OPEN-13", "multi-element hand cost reading", RecordedNotEnforced { reason: "policy multi_element_cost (default any-of); violations cite NAR-COST-3" }),
        row("NAR-OPEN-14", "chakra-charge limits", Enforced),
        row("NAR-OPEN-15", "counter missions and the one-mission limit", Enforced),
        row("NAR-OPEN-16", "chain mechanics", RecordedNotEnforced { reason: OPEN }),
        row("NAR-OPEN-17", "blocker ninja outside any team", RecordedNotEnforced { reason: "such ninja cannot block; teams lose defeated members" }),
        row("NAR-OPEN-18", "several blockers per attacking team", Enforced),
        row("NAR-OPEN-19", "jutsu exchange procedure", RecordedNotEnforced { reason: OPEN }),
        row("NAR-OPEN-20", "order of battles in step K", RecordedNotEnforced { reason: OPEN }),
        row("NAR-OPEN-21", "reward with a short deck", Enforced),
        row("NAR-OPEN-22", "who chooses hand-check discards", RecordedNotEnforced { reason: "the discarded cards are recorded; the owner is presumed" }),
        row("NAR-OPEN-23", "visibility of chakra, rewards, hand-cost cards", Informational { reason: "settled in the view module: chakra public, rewards and removed cards face down for players" }),
        row("NAR-OPEN-24", "terminology chapter missing", Informational { reason: CONTEXT }),
    ]
}

fn enforcement_cell(e: &Enforcement) -> String {
    match e {
        Enforced => "Enforced".to_string(),
        RecordedNotEnforced { reason } => format!("Recorded, not enforced: {reason}"),
        Informational { reason } => format!("Informational: {reason}"),
    }
}

/// The coverage table as markdown (checked in as `src/games/naruto/COVERAGE.md`).
pub fn coverage_markdown() -> String {
    let rows = coverage();
    let enforced = rows.iter().filter(|r| r.enforcement == Enforced).count();
    let recorded = rows.iter().filter(|r| matches!(r.enforcement, RecordedNotEnforced { .. })).count();
    let info = rows.len() - enforced - recorded;
    let mut out = String::from("# Naruto CCG rule coverage\n\n");
    out.push_str("Generated from `src/games/naruto/coverage.rs` by `coverage_markdown()`; do not edit by hand.\n");
    out.push_str("Regenerate with `UPDATE_EXPECT=1 cargo test --release naruto`.\n\n");
    out.push_str(&format!(
        "{} rule IDs: {enforced} enforced, {recorded} recorded but not enforced, {info} informational.\n\n",
        rows.len()
    ));
    out.push_str("| Rule | Summary | Enforcement |\n|---|---|---|\n");
    for r in rows {
        out.push_str(&format!(
            "| {} | {} | {} |\n",
            r.rule,
            r.summary.replace('|', "\\|"),
            enforcement_cell(&r.enforcement).replace('|', "\\|")
        ));
    }
    out
}
