//! The coverage table: every `VG-*` and `VGC-*` rule ID of digest §4 and whether `validate`
//! enforces it.
//!
//! `Enforced` rows are each named by a given/when/then test (`tests/it/vanguard/rules.rs`); a
//! test checks this table against the digest and another keeps `COVERAGE.md` in sync with
//! [`coverage_markdown`] (regenerate with `UPDATE_EXPECT=1 cargo test`).

use crate::game::rules::Enforcement::{self, Enforced, Informational, RecordedNotEnforced};
use crate::game::RuleCoverage;

const FOLD: &str = "the fold applies it; no event states it, so there is nothing to reject";
const EFFECTS: &str = "card effects are out of the seed's scope; recorded through the escape-hatch events";
const CONTEXT: &str = "client software or context; nothing in a game record to check";
const CATALOG: &str = "a field of the card catalog format";

fn row(rule: &'static str, summary: &'static str, enforcement: Enforcement) -> RuleCoverage {
    RuleCoverage { rule, summary, enforcement }
}

/// Every VG and VGC rule ID with its enforcement.
#[rustfmt::skip]
pub fn coverage() -> Vec<RuleCoverage> {
    vec![
        row("VG-DECK-1", "main deck of exactly 50 cards, starting vanguard included", Enforced),
        row("VG-DECK-2", "at most 4 units of one name", Enforced),
        row("VG-DECK-3", "exactly 16 trigger units", Enforced),
        row("VG-DECK-4", "at most 4 heal triggers", Enforced),
        row("VG-DECK-5", "at most 4 sentinels", Enforced),
        row("VG-DECK-6", "G units never in the main deck; G zone of up to 8", Enforced),
        row("VG-DECK-7", "advice: build from one clan", Informational { reason: "advice, not a rule" }),
        row("VG-ZONE-1", "deck: draw from the top; empty deck loses; no G units in it", Informational { reason: "the deck-out loss is VG-WIN-3, G units in the deck VG-DECK-6" }),
        row("VG-ZONE-2", "drop zone: destroyed and discarded cards; heals go here", Informational { reason: "a zone of the fold and view; heals are checked under VG-TRIG-5" }),
        row("VG-ZONE-3", "damage zone: 6 or more loses", Informational { reason: "the loss is checked as VG-WIN-2" }),
        row("VG-ZONE-4", "vanguard circle: top unit is the vanguard, the cards under it the soul", Informational { reason: FOLD }),
        row("VG-ZONE-5", "five rear-guard circles, one unit each; calling onto an occupied circle retires the old unit", Enforced),
        row("VG-ZONE-6", "guardian circle; guardians go to the drop zone after the battle", Informational { reason: "the fold moves them at BattleEnded; the end of battle is VG-BATTLE-14" }),
        row("VG-ZONE-7", "the G zone holds only G units, up to 8", Enforced),
        row("VG-ZONE-8", "bind zone and removed-from-game zone exist", Informational { reason: "zones of the fold and view; what goes there is recorded (CardMoved, client operations)" }),
        row("VG-ZONE-9", "field geometry: front row vc+2, back row 3 behind them", Informational { reason: "the circle names vc, fl, fr, bl, bc, br; columns are used by VG-MAIN-3 and VG-BATTLE-3" }),
        row("VG-CARD-1", "name; archetype words", Informational { reason: CATALOG }),
        row("VG-CARD-2", "race", Informational { reason: CATALOG }),
        row("VG-CARD-3", "clan; trigger activation needs a same-clan unit", Informational { reason: "the catalog field; trigger activation is VG-BATTLE-9" }),
        row("VG-CARD-4", "power", Informational { reason: CATALOG }),
        row("VG-CARD-5", "shield added when guarding or intercepting", Informational { reason: "the catalog field; used in the battle powers of VG-BATTLE-10" }),
        row("VG-CARD-6", "grades 0-4", Informational { reason: "the catalog loader rejects grades above 4" }),
        row("VG-CARD-7", "only grade-0 units have triggers", Informational { reason: "the catalog loader rejects a trigger on any other unit" }),
        row("VG-CARD-8", "grade skills: boost 0-1, intercept 2, twin drive 3, triple drive G", Informational { reason: "checked as VG-BATTLE-3, VG-BATTLE-6 and VG-BATTLE-7" }),
        row("VG-CARD-9", "unit types: normal, trigger, G", Informational { reason: "the catalog `kind` field" }),
        row("VG-CARD-10", "critical (1 on every unit at the time)", Informational { reason: "the catalog `critical` field; damage per hit in VG-BATTLE-10" }),
        row("VG-CARD-11", "flavour text has no effect", Informational { reason: CONTEXT }),
        row("VG-CARD-12", "ability text", Informational { reason: EFFECTS }),
        row("VG-SETUP-1", "a grade-0 unit from the deck, face down, as the starting vanguard", Enforced),
        row("VG-SETUP-2", "first player at random; no attacks on the first turn", Enforced),
        row("VG-SETUP-3", "shuffle and draw 5", Enforced),
        row("VG-SETUP-4", "redraw: return any number, shuffle, draw as many; once", Enforced),
        row("VG-SETUP-5", "both vanguards flipped face up together; the game begins", Enforced),
        row("VG-WIN-1", "win by dealing 6 damage", Enforced),
        row("VG-WIN-2", "6 or more damage loses at once", Enforced),
        row("VG-WIN-3", "an empty deck loses at once", Enforced),
        row("VG-WIN-4", "loss conditions are state checks at any moment", Enforced),
        row("VG-TURN-1", "phase order stand, draw, grade assist, ride, stride, main, battle, end", Enforced),
        row("VG-TURN-2", "no return from the battle phase to the main phase", Enforced),
        row("VG-STAND-1", "rested units stand", Informational { reason: "the fold stands the active player's units when the turn starts (locked units excepted)" }),
        row("VG-DRAW-1", "draw the top card", Enforced),
        row("VG-DRAW-2", "unable to draw: lose", Informational { reason: "an empty deck is already a loss (VG-WIN-3), flagged on the next event" }),
        row("VG-DRAW-3", "a trigger drawn into the hand does not activate", Informational { reason: "only checks open a trigger (VG-TRIG-1)" }),
        row("VG-GA-1", "grade assist conditions", Enforced),
        row("VG-GA-2", "grade assist between draw and ride", Enforced),
        row("VG-GA-3", "grade assist procedure: take grade+1 from the top 5, remove cards", Enforced),
        row("VG-GA-4", "optional? how often?", Informational { reason: "VG-OPEN-5: policy grade_assist_limit" }),
        row("VG-RIDE-1", "ride a unit from the hand onto the vanguard in the ride phase", Enforced),
        row("VG-RIDE-2", "ride to the same grade or one higher", Enforced),
        row("VG-RIDE-3", "one normal ride per turn", Enforced),
        row("VG-RIDE-4", "riding does not heal", Informational { reason: FOLD }),
        row("VG-RIDE-5", "superior ride by effects", RecordedNotEnforced { reason: "SuperiorRode records the effect's source; the effect itself is a card text" }),
        row("VG-RIDE-6", "superior ride ignores grade and is not limited", Enforced),
        row("VG-RIDE-7", "a normal ride does not affect superior rides", Enforced),
        row("VG-RIDE-8", "no ride while a G unit is on the field", Enforced),
        row("VG-STRIDE-1", "stride: both vanguards grade 3+, discard grades totalling 3+", Enforced),
        row("VG-STRIDE-2", "a face-down G unit onto the vanguard; the vanguard becomes the heart", Enforced),
        row("VG-STRIDE-3", "the G unit takes one heart's name and power", Enforced),
        row("VG-STRIDE-4", "at end of turn the G unit returns face up", Informational { reason: "the fold returns it when the end phase is entered" }),
        row("VG-STRIDE-5", "stride is not a ride", Informational { reason: "a stride never counts as the turn's ride (the fold keeps them apart)" }),
        row("VG-STRIDE-6", "G units are grade 4 with triple drive", Informational { reason: "catalog grade 4; three drive checks under VG-BATTLE-7" }),
        row("VG-STRIDE-7", "no stated stride limit", Informational { reason: "VG-OPEN-6: policy stride_limit" }),
        row("VG-MAIN-1", "call units of grade <= the vanguard's to rear-guard circles", Enforced),
        row("VG-MAIN-2", "superior call from the drop zone, deck or hand", Enforced),
        row("VG-MAIN-3", "rear-guards move within their column; swaps", Enforced),
        row("VG-MAIN-4", "ACT effects in the main phase", Informational { reason: "checked as VG-EFF-2" }),
        row("VG-MAIN-5", "legion in the main phase", Enforced),
        row("VG-MAIN-6", "ending the main phase leads to the battle phase", Informational { reason: "phase order is VG-TURN-1" }),
        row("VG-BATTLE-1", "any number of attacks", Informational { reason: "nothing limits attacks but standing units" }),
        row("VG-BATTLE-2", "attack: rest a standing front-row unit, target a front-row unit", Enforced),
        row("VG-BATTLE-3", "boost from a standing grade 0-1 unit directly behind", Enforced),
        row("VG-BATTLE-4", "a booster leaving the field cancels the boost", Informational { reason: "the battle powers count a booster only while it is on its circle" }),
        row("VG-BATTLE-5", "guardians from the hand, grade <= the vanguard's", Enforced),
        row("VG-BATTLE-6", "intercept: grade-2 front-row rear-guard, never the vanguard", Enforced),
        row("VG-BATTLE-7", "drive check 1/2/3 by the vanguard's grade, vanguard attacks only", Enforced),
        row("VG-BATTLE-8", "each drive check's trigger resolves before the next", Enforced),
        row("VG-BATTLE-9", "a trigger activates only with a same-clan unit on the field", Enforced),
        row("VG-BATTLE-10", "hit when attacker power >= defender power; rear-guards retire, vanguards take damage", Enforced),
        row("VG-BATTLE-11", "one damage check per point of damage", Enforced),
        row("VG-BATTLE-12", "damage-check trigger power stays for later battles", Informational { reason: FOLD }),
        row("VG-BATTLE-13", "heal before the heal trigger reaches the damage zone (5 damage survives)", Enforced),
        row("VG-BATTLE-14", "after the battle guardians go to the drop zone; attack again", Enforced),
        row("VG-END-1", "the turn ends, the opponent's begins", Enforced),
        row("VG-END-2", "until-end-of-turn effects expire", Informational { reason: "the fold clears turn modifiers when the end phase is entered" }),
        row("VG-END-3", "the G unit returns to the G zone", Informational { reason: "the fold returns it (VG-STRIDE-4)" }),
        row("VG-END-4", "locked and deleted cards turn face up at their owner's end of turn", Informational { reason: FOLD }),
        row("VG-TRIG-1", "triggers only from drive and damage checks: +5000 to a unit", Enforced),
        row("VG-TRIG-2", "triggers drawn or taken by effects do not activate", Informational { reason: "only checks open a trigger (VG-TRIG-1)" }),
        row("VG-TRIG-3", "draw trigger draws 1", Enforced),
        row("VG-TRIG-4", "critical trigger +1 critical", Enforced),
        row("VG-TRIG-5", "heal trigger heals 1 only when damage >= the opponent's", Enforced),
        row("VG-TRIG-6", "stand trigger stands a rear-guard", Enforced),
        row("VG-TRIG-7", "the client auto-activates drive-check triggers", Informational { reason: "see VGC-OP-13" }),
        row("VG-EFF-1", "AUTO effects", RecordedNotEnforced { reason: EFFECTS }),
        row("VG-EFF-2", "ACT effects in the main phase when the cost is paid", Enforced),
        row("VG-EFF-3", "CONT effects", RecordedNotEnforced { reason: EFFECTS }),
        row("VG-COST-1", "soul blast: soul to drop zone", Enforced),
        row("VG-COST-2", "soul charge: deck top to soul", Enforced),
        row("VG-COST-3", "counter blast: face-up damage turned face down", Enforced),
        row("VG-COST-4", "an unpayable cost cannot be used", Informational { reason: "each cost event is checked for the cards it names (VG-COST-1..3)" }),
        row("VG-KW-1", "forerunner: call the ridden-upon unit of the same clan", Enforced),
        row("VG-KW-2", "lock: locked cards can do nothing; unlocked at the owner's end of turn", Enforced),
        row("VG-KW-3", "delete: face down, power 0, no text", Informational { reason: "the fold makes a deleted unit's power 0 and turns it face up at the owner's end of turn" }),
        row("VG-KW-4", "lord: cannot attack with a unit of another clan on the field", Enforced),
        row("VG-KW-5", "restraint: cannot attack", Enforced),
        row("VG-KW-6", "sentinel: at most four", Informational { reason: "checked as VG-DECK-5" }),
        row("VG-KW-7", "limit break 4/5 needs that much damage", Enforced),
        row("VG-KW-8", "legion: opponent grade 3+, return 4 from the drop, search the mate", Enforced),
        row("VG-KW-9", "stride keyword", Informational { reason: "checked as VG-STRIDE-1..3" }),
        row("VG-KW-10", "generation break X needs X face-up G units", Enforced),
        row("VG-OPEN-1", "does the client's editor enforce deck rules", Informational { reason: "kifu checks VG-DECK when a game is created, whatever the client did" }),
        row("VG-OPEN-2", "the client's log format", Informational { reason: "kifu defines its own: the vgc-log format (src/games/vanguard/vgclog.rs)" }),
        row("VG-OPEN-3", "no attacks on the first turn: whose", Informational { reason: "policy first_turn_attack (default first-player-only); the check is VG-SETUP-2" }),
        row("VG-OPEN-4", "simultaneous losses", Enforced),
        row("VG-OPEN-5", "grade assist: optional, how often, what is removed", Enforced),
        row("VG-OPEN-6", "stride: limit, face-up G units, what the discard counts", Enforced),
        row("VG-OPEN-7", "same-clan condition for damage-check triggers", Informational { reason: "policy damage_check_clan (default required); checked as VG-BATTLE-9" }),
        row("VG-OPEN-8", "legion: once per game or per turn", Enforced),
        row("VG-OPEN-9", "soul and bind visibility", Informational { reason: "policy soul_visibility (default owner) in views; the bind zone is its owner's" }),
        row("VG-OPEN-10", "face-down damage identifiable?", Informational { reason: "policy face_down_damage (default public) in views" }),
        row("VG-OPEN-11", "modifier durations beyond boost and triggers", Informational { reason: "ModifierApplied records its duration" }),
        row("VG-OPEN-12", "power edits multiples of 100: rule or UI constraint", Informational { reason: "policy power_multiple (default rule); the check is VGC-OP-12" }),
        row("VGC-MENU-1", "host a room by IP", Informational { reason: CONTEXT }),
        row("VGC-MENU-2", "test mode", Informational { reason: CONTEXT }),
        row("VGC-MENU-3", "deck editor", Informational { reason: CONTEXT }),
        row("VGC-MENU-4", "load replay; the client asks to save replays", Informational { reason: "kifu's .kifu files are the replays" }),
        row("VGC-MENU-5", "deck load by name", Informational { reason: "decks are registered in the game header" }),
        row("VGC-MENU-6", "connect to a server", Informational { reason: CONTEXT }),
        row("VGC-MENU-7", "card-text language", Informational { reason: CONTEXT }),
        row("VGC-SRV-1", "lobby, plates, location chat, sleeves", Informational { reason: CONTEXT }),
        row("VGC-SRV-2", "nickname colours; spectating a duel", RecordedNotEnforced { reason: "SpectatorJoined and SpectatorLeft record who watched" }),
        row("VGC-SRV-3", "locations", Informational { reason: CONTEXT }),
        row("VGC-SRV-4", "random room: standard balance 17/14/11/8, 16 triggers (4 heal)", Informational { reason: "the self-play decks use this balance; VG-DECK applies to them" }),
        row("VGC-SRV-5", "castle sleeve lottery", Informational { reason: CONTEXT }),
        row("VGC-EDIT-1", "clan menu", Informational { reason: CONTEXT }),
        row("VGC-EDIT-2", "deck controls", Informational { reason: CONTEXT }),
        row("VGC-EDIT-3", "add and remove copies", Informational { reason: CONTEXT }),
        row("VGC-EDIT-4", "search", Informational { reason: CONTEXT }),
        row("VGC-EDIT-5", "does the editor enforce VG-DECK", Informational { reason: "VG-OPEN-1" }),
        row("VGC-UI-1", "chat with the opponent", RecordedNotEnforced { reason: "ChatMessage records it; chat is allowed at any time" }),
        row("VGC-UI-2", "phase buttons: ride stands units, no draw or stride button, end removes triggers and returns the G unit", Enforced),
        row("VGC-UI-3", "the opponent sees the bind zone face down", Informational { reason: "views show the bind zone to its owner and judges only" }),
        row("VGC-UI-4", "card menu to deck top/bottom and hand; L for legion from soul or deck", Enforced),
        row("VGC-UI-5", "deck menu: shuffle, mill, soul charge, bind top card", RecordedNotEnforced { reason: "client operations Shuffled, Milled, SoulCharged, BoundTop, recorded as the client recorded them" }),
        row("VGC-UI-6", "open the main deck or the G deck", Informational { reason: CONTEXT }),
        row("VGC-UI-7", "used G units panel", Informational { reason: "views show face-up G units to everyone" }),
        row("VGC-UI-8", "shared removed-from-game zone", Informational { reason: "one shared zone in the fold and view, with who put each card there" }),
        row("VGC-OP-1", "select a card (and move it by hand)", RecordedNotEnforced { reason: "the client operation Moved records where a card was put; the rules it breaks by that are reported" }),
        row("VGC-OP-2", "left-click the deck: draw", RecordedNotEnforced { reason: "client operation Drew; a draw no rule explains is VG-DRAW-1" }),
        row("VGC-OP-3", "right-click the deck: drive check, or damage check in the opponent's battle phase", Enforced),
        row("VGC-OP-4", "look through the deck (the opponent sees it)", RecordedNotEnforced { reason: "client operation DeckViewed" }),
        row("VGC-OP-5", "open the soul", Informational { reason: CONTEXT }),
        row("VGC-OP-6", "list the drop zone", Informational { reason: CONTEXT }),
        row("VGC-OP-7", "toggle stand/rest", RecordedNotEnforced { reason: "client operation PositionChanged; an attack by hand on the first turn is VG-SETUP-2, a stand no rule explains VG-TRIG-6" }),
        row("VGC-OP-8", "flip a damage card", RecordedNotEnforced { reason: "client operation DamageFlipped" }),
        row("VGC-OP-9", "flip a G-zone card", RecordedNotEnforced { reason: "client operation GZoneFlipped" }),
        row("VGC-OP-10", "lock/unlock a rear-guard", Enforced),
        row("VGC-OP-11", "delete the vanguard", Enforced),
        row("VGC-OP-12", "add or set power in multiples of 100", Enforced),
        row("VGC-OP-13", "drive-check triggers activate automatically; the player picks the unit", RecordedNotEnforced { reason: "client operation TriggerApplied" }),
        row("VGC-KEY-1", "viewport keys", Informational { reason: CONTEXT }),
        row("VGC-KEY-2", "Enter opens chat", Informational { reason: CONTEXT }),
        row("VGC-KEY-3", "Ctrl closes views", Informational { reason: CONTEXT }),
        row("VGC-LOG-1", "Q opens the action log", Informational { reason: CONTEXT }),
        row("VGC-LOG-2", "S saves the log to a file", Informational { reason: "kifu game import --from vgc-log reads kifu's plain-text form of such a log" }),
        row("VGC-REPLAY-1", "the client asks to save a replay", Informational { reason: CONTEXT }),
        row("VGC-REPLAY-2", "replays by name", Informational { reason: CONTEXT }),
        row("VGC-REPLAY-3", "space pauses playback", Informational { reason: CONTEXT }),
        row("VGC-REPLAY-4", "no way back from replay view", Informational { reason: CONTEXT }),
        row("VGC-UPD-1", "extra deck: face up or down; the opponent cannot see it or its size", Informational { reason: "views list only face-up G units to the opponent and spectators" }),
        row("VGC-UPD-2", "stride in the client; G units return to the G deck; no ride or legion with a G unit", Enforced),
        row("VGC-UPD-3", "the shared RFG zone; taking the opponent's cards", Informational { reason: "the shared zone records who put each card there" }),
        row("VGC-UPD-4", "technical changes", Informational { reason: CONTEXT }),
    ]
}

fn enforcement_cell(e: &Enforcement) -> String {
    match e {
        Enforced => "Enforced".to_string(),
        RecordedNotEnforced { reason } => format!("Recorded, not enforced: {reason}"),
        Informational { reason } => format!("Informational: {reason}"),
    }
}

/// The coverage table as markdown (checked in as `src/games/vanguard/COVERAGE.md`).
pub fn coverage_markdown() -> String {
    let rows = coverage();
    let mut out = String::from("# Cardfight!! Vanguard rule coverage\n\n");
    out.push_str("Generated from `src/games/vanguard/coverage.rs` by `coverage_markdown()`; do not edit by hand.\n");
    out.push_str("Regenerate with `UPDATE_EXPECT=1 cargo test --release vanguard`.\n\n");
    for prefix in ["VG-", "VGC-"] {
        let part: Vec<&RuleCoverage> = rows.iter().filter(|r| r.rule.starts_with(prefix)).collect();
        let enforced = part.iter().filter(|r| r.enforcement == Enforced).count();
        let recorded = part.iter().filter(|r| matches!(r.enforcement, RecordedNotEnforced { .. })).count();
        out.push_str(&format!(
            "{prefix}*: {} rule IDs: {enforced} enforced, {recorded} recorded but not enforced, {} informational.\n\n",
            part.len(),
            part.len() - enforced - recorded
        ));
    }
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
