//! Given/when/then rule tests: every case folds `given` from a fixture setup, validates `when`
//! and compares the violated rule IDs with `then`, through the one helper [`run`]. Each case
//! declares the rule IDs it covers; `every_enforced_rule_has_a_case` checks the coverage table.
//! Fold tests at the end check what the fold does on its own (BRK-INT-5, BRK-HID-2/3/5, payments).

use kifu::game::commit::{seal, Commitment};
use kifu::game::Game;
use kifu::games::brk::catalog::{Catalog, DeckList, ResourceAmount};
use kifu::games::brk::events::{
    BrkEvent as E, CardRef, Cell, Deployment, ProtectionHit, RevealProof, RevealReason, Zone,
};
use kifu::games::brk::state::{BrkState, Status};
use kifu::games::brk::{BrkConfig, BrkRules, BrkV5 as Brk};

use crate::game_support::{cases, check_enforced_rules_have_cases};

// ---------------------------------------------------------------------------------------------
// Fixture. Alice (seat 0, First player), all face up on row 1 (A7 on r2c2):
//   A1 Executioner (finishing blow 2) | A2 Border Guard (strike 2, block) | A3 Storm Caller
//   (lightning: spell 2; unbinding bolt: spell 1 against the whole "magic") | A4 Venom Adept
//   (poison dart, against magic's "poison" component) | A5 Sky Hunter (net shot: only [flying])
//   | A6 Counterspeller (interrupt) | A7 Blood Mage (blood bolt, paid with 1 life)
// Bob (seat 1, Second player):
//   B1 Field Healer (mend 1) | B2 Warded Sentinel (protection "spells", armor marker; parry)
//   | B3 Runeward Knight (complex protection "magic" = spell + poison) | B4 Martyr Monk (on death:
//   last rites; vigil block) on row 1; B5 Border Guard hidden on r2c1; B6 Warded Sentinel hidden
//   and B7 Griffin Rider [flying] hidden on the 3rd row; B8 Counterspeller on r2c2.
// Hidden cards are sealed with salt [n; 32].
// ---------------------------------------------------------------------------------------------

const ALICE: [&str; 7] = ["BRK-02", "BRK-01", "BRK-06", "BRK-07", "BRK-08", "BRK-11", "BRK-12"];
const BOB: [&str; 8] = ["BRK-03", "BRK-04", "BRK-05", "BRK-10", "BRK-01", "BRK-04", "BRK-09", "BRK-11"];

fn config_with(policies: &[(&str, &str)]) -> BrkConfig {
    let decks =
        [&ALICE[..], &BOB[..]].iter().map(|d| DeckList { cards: d.iter().map(|s| s.to_string()).collect() }).collect();
    let mut c = BrkConfig::new(vec!["Alice".into(), "Bob".into()], decks, &Catalog::sample()).unwrap();
    for (k, v) in policies {
        c.set_policy(k, v).unwrap();
    }
    c
}

fn salt(n: u8) -> Commitment {
    Commitment([n; 32])
}

fn deploy0() -> E {
    let cards = (0..7)
        .map(|i| Deployment {
            cell: if i < 6 { Cell { row: 1, col: (i % 5) as u8 + 1 } } else { Cell { row: 2, col: 2 } },
            card: CardRef::Open(format!("p0-{i}")),
            hidden: false,
        })
        .map(|mut d| {
            if d.card == CardRef::Open("p0-5".into()) {
                d.cell = Cell { row: 2, col: 1 };
            }
            d
        })
        .collect();
    E::SquadDeployed { seat: 0, cards }
}

/// Bob's squad with a Sky Hunter (net shot: only [flying]) as B8 in place of the Counterspeller.
fn config_bob_hunter() -> BrkConfig {
    let mut bob = BOB;
    bob[7] = "BRK-08";
    let decks =
        [&ALICE[..], &bob[..]].iter().map(|d| DeckList { cards: d.iter().map(|s| s.to_string()).collect() }).collect();
    BrkConfig::new(vec!["Alice".into(), "Bob".into()], decks, &Catalog::sample()).unwrap()
}

/// Turn 1, Alice passes; Bob's Sky Hunter B8 declares its net shot on his own sealed B6 (a
/// Warded Sentinel, no flyer), treating it as a flyer: only the reveal can show it is not.
fn net_shot_on_own_sealed_b6() -> Vec<E> {
    let net_shot = E::GameActionDeclared {
        seat: 1,
        source: "B8".into(),
        ability: 0,
        targets: vec!["B6".into()],
        payment: Catalog::sample().get("BRK-08").unwrap().abilities[0].cost.clone(),
    };
    with(t1(), vec![pass(0), net_shot])
}

fn deploy1() -> E {
    let cell = |row, col| Cell { row, col };
    let open = |i: usize, c| Deployment { cell: c, card: CardRef::Open(format!("p1-{i}")), hidden: false };
    let hidden = |i: usize, c| Deployment {
        cell: c,
        card: CardRef::Sealed(seal(&format!("p1-{i}"), &salt(i as u8))),
        hidden: true,
    };
    E::SquadDeployed {
        seat: 1,
        cards: vec![
            open(0, cell(1, 1)),
            open(1, cell(1, 2)),
            open(2, cell(1, 3)),
            open(3, cell(1, 4)),
            hidden(4, cell(2, 1)),
            hidden(5, cell(3, 1)),
            hidden(6, cell(3, 2)),
            open(7, cell(2, 2)),
        ],
    }
}

fn reveal(seat: u8, piece: &str, reason: RevealReason) -> E {
    // B5..B7 are p1-4..p1-6, sealed with salt 4..6.
    let proof = piece
        .strip_prefix('B')
        .and_then(|n| n.parse::<usize>().ok())
        .filter(|n| (5..=7).contains(n))
        .map(|n| RevealProof { instance: format!("p1-{}", n - 1), salt: salt((n - 1) as u8) });
    E::CardRevealed { seat, piece: piece.into(), reason, proof }
}

/// Turn 1, Alice's main phase: B5 revealed in the Reveal subphase, B6 and B7 still hidden (3rd row).
fn t1() -> Vec<E> {
    vec![
        deploy0(),
        deploy1(),
        E::TurnStarted { seat: 0, turn: 1 },
        reveal(1, "B5", RevealReason::RevealSubphase),
        E::MainPhaseEntered { seat: 0 },
    ]
}

fn with(mut a: Vec<E>, b: Vec<E>) -> Vec<E> {
    a.extend(b);
    a
}

fn card_of(piece: &str) -> &'static str {
    let n: usize = piece[1..].parse().unwrap();
    if piece.starts_with('A') {
        ALICE[n - 1]
    } else {
        BOB[n - 1]
    }
}

fn cost(piece: &str, ability: u8) -> Vec<ResourceAmount> {
    Catalog::sample().get(card_of(piece)).unwrap().abilities[usize::from(ability)].cost.clone()
}

fn declare(seat: u8, source: &str, ability: u8, target: &str) -> E {
    E::GameActionDeclared {
        seat,
        source: source.into(),
        ability,
        targets: vec![target.into()],
        payment: cost(source, ability),
    }
}

fn pass(seat: u8) -> E {
    E::PriorityPassed { seat }
}

fn perform(action: u32) -> E {
    E::GameActionPerformed { action }
}

/// The payment action `action` (declared by `source` with `ability`) is due.
fn pay(action: u32, source: &str, ability: u8) -> E {
    E::PaymentMade { action, resources: cost(source, ability) }
}

fn effect(action: u32, target: &str) -> E {
    E::EffectApplied { action, target: target.into(), protected_by: None }
}

fn protected(action: u32, target: &str, protection: &str, component: &str) -> E {
    E::EffectApplied {
        action,
        target: target.into(),
        protected_by: Some(ProtectionHit { protection: protection.into(), component: component.into() }),
    }
}

fn block(seat: u8, action: u32, blocker: &str, target: &str) -> E {
    E::GameActionBlocked { seat, action, blocker: blocker.into(), blocker_target: target.into() }
}

fn interrupt(seat: u8, action: u32, by: &str) -> E {
    E::GameActionInterrupted { seat, action, by: by.into(), reason: "Dispel".into() }
}

fn marker(piece: &str, kind: &str) -> E {
    E::MarkerPlaced { piece: piece.into(), marker: kind.into(), cause: "test".into() }
}

fn hide(piece: &str) -> E {
    E::CardHidden { piece: piece.into(), cause: "test".into() }
}

/// Two actions waiting: Alice's strike #1 on B3, then Bob's mend #2 on B3; Alice passed.
fn two_waiting() -> Vec<E> {
    with(t1(), vec![declare(0, "A2", 0, "B3"), declare(1, "B1", 0, "B3"), pass(0)])
}

/// As [`two_waiting`], but #2 (last in, first out) already performed and done; #1 still waits.
/// Priority came back to Alice, who passed again: Bob holds it.
fn top_resolved() -> Vec<E> {
    with(two_waiting(), with(mend_resolved(), vec![pass(0)]))
}

/// Bob's mend #2 on B3, on top of the stack, performed and resolved once both passed after Alice.
fn mend_resolved() -> Vec<E> {
    vec![pass(1), perform(2), pay(2, "B1", 0), effect(2, "B3")]
}

fn lives(piece: &str, delta: i8) -> E {
    E::LivesChanged { piece: piece.into(), delta, cause: "test".into() }
}

/// `source`'s `ability` on `target` declared by Alice, both passed, performed and paid.
fn performed(source: &str, ability: u8, target: &str) -> Vec<E> {
    with(t1(), vec![declare(0, source, ability, target), pass(1), pass(0), perform(1), pay(1, source, ability)])
}

/// Alice's finishing blow #1 on B1 (2 lives), answered by nothing, fully resolved: B1 dies.
fn fb_done() -> Vec<E> {
    with(performed("A1", 0, "B1"), vec![effect(1, "B1")])
}

/// Alice's finishing blow #1 on B1, blocked by Bob's B2 (paid).
fn fb_blocked() -> Vec<E> {
    with(t1(), vec![declare(0, "A1", 0, "B1"), block(1, 1, "B2", "A1")])
}

/// Alice's finishing blow #1 on B1, interrupted by Bob's B8.
fn fb_interrupted() -> Vec<E> {
    with(t1(), vec![declare(0, "A1", 0, "B1"), interrupt(1, 1, "B8")])
}

/// The seed's example (BRK-INT-5): a finishing blow of 2 on B3 at 2 lives; Bob heals B3 by 1 first.
fn fb_healed() -> Vec<E> {
    let given = vec![lives("B3", -3), declare(0, "A1", 0, "B3"), declare(1, "B1", 0, "B3"), pass(0)];
    with(with(t1(), given), mend_resolved())
}

/// Alice's net shot (only on [flying]) on Bob's hidden B6, which is no flyer; B6 revealed.
fn net_shot_on_b6() -> Vec<E> {
    with(t1(), vec![declare(0, "A5", 0, "B6"), reveal(1, "B6", RevealReason::Targeted), pass(1), pass(0)])
}

/// Turn 1, Alice's main phase: every card of Bob's revealed and then killed by effects, one by
/// one; the skeleton's victory holds for Alice (BRK-OPEN-1).
fn bob_wiped_out() -> Vec<E> {
    let mut given = with(
        t1(),
        vec![reveal(1, "B6", RevealReason::ControllerChoice), reveal(1, "B7", RevealReason::ControllerChoice)],
    );
    given.extend((1..=8).map(|n| lives(&format!("B{n}"), -10)));
    given
}

/// Turn 2 (Bob's), in its Reveal subphase.
fn t2() -> Vec<E> {
    with(t1(), vec![E::TurnEnded { seat: 0 }, E::TurnStarted { seat: 1, turn: 2 }])
}

// ---------------------------------------------------------------------------------------------
// The one helper. The cases run under the newest rules version (5): their given events are
// followed by the steps each made due, as kifu records them ([`complete`]).
// ---------------------------------------------------------------------------------------------

type Case = crate::game_support::Case<Brk>;

fn case(given: Vec<E>, when: E, then: &[&'static str]) -> Case {
    case_with(&[], given, when, then)
}

fn case_with(policies: &[(&str, &str)], given: Vec<E>, when: E, then: &[&'static str]) -> Case {
    let config = config_with(policies);
    let given = complete(&config, &given);
    Case::event(config, given, when, then)
}

/// `given`, each event followed by the steps it made due (rules version 4's and 5's
/// [`BrkState::owed_steps`]), as kifu records them.
fn complete(config: &BrkConfig, given: &[E]) -> Vec<E> {
    let mut state = Brk::setup(config).unwrap();
    let mut out = Vec::new();
    for g in given {
        let mut next = Some(g.clone());
        while let Some(e) = next.take() {
            state = Brk::apply(state, &e);
            out.push(e);
            next = state.owed_steps().into_iter().next();
        }
    }
    out
}

/// `given` completed ([`complete`]) and then `last` alone, the steps it makes due left unrecorded.
fn owing(given: Vec<E>, last: E) -> Vec<E> {
    with(complete(&config_with(&[]), &given), vec![last])
}

/// A case whose given events are recorded exactly as listed ([`owing`] leaves a step owed).
fn as_listed(given: Vec<E>, when: E, then: &[&'static str]) -> Case {
    Case::event(config_with(&[]), given, when, then)
}

fn fold(config: &BrkConfig, given: &[E]) -> BrkState {
    let mut state = Brk::setup(config).unwrap();
    for (i, g) in complete(config, given).iter().enumerate() {
        let v = Brk::validate(&state, g);
        assert!(v.is_empty(), "given event {i} {g:?} is itself illegal: {v:?}");
        state = Brk::apply(state, g);
    }
    state
}

/// Turn 1: Alice's finishing blow #1 on B1 blocked by Bob's B2 (which acted) and paid, the turn
/// over; turn 2 (Bob's) started, with B2's opening owed.
fn t2_after_a_block() -> Vec<E> {
    owing(with(fb_blocked(), vec![pay(1, "A1", 0), E::TurnEnded { seat: 0 }]), E::TurnStarted { seat: 1, turn: 2 })
}

fn opened(seat: u8, pieces: &[&str]) -> E {
    E::CardsOpened { seat, pieces: pieces.iter().map(|p| p.to_string()).collect() }
}

fn to_graveyard(pieces: &[&str]) -> E {
    E::CardsSentToGraveyard { pieces: pieces.iter().map(|p| p.to_string()).collect() }
}

fn markers_on_reveal(piece: &str, markers: &[&str]) -> E {
    E::MarkersPlacedOnReveal { piece: piece.into(), markers: markers.iter().map(|m| m.to_string()).collect() }
}

/// Alice's finishing blow #1 on B1 resolved: B1 has no lives left and its death is owed.
fn b1_dying() -> Vec<E> {
    owing(performed("A1", 0, "B1"), effect(1, "B1"))
}

/// Bob revealed his hidden Warded Sentinel B6 by choice: its armor marker is owed.
fn b6_revealed() -> Vec<E> {
    owing(t1(), reveal(1, "B6", RevealReason::ControllerChoice))
}

/// Alice's Blood Mage A7, down to 1 life, declares its blood bolt on B1; performed, it pays its
/// last life: its death is owed while the bolt's effect still is.
fn a7_paid_its_last_life() -> Vec<E> {
    let given = with(t1(), vec![lives("A7", -3), declare(0, "A7", 0, "B1"), pass(1), pass(0), perform(1)]);
    owing(given, pay(1, "A7", 0))
}

/// Bob's cards all killed as in [`bob_wiped_out`], the last one (B8) with its death owed.
fn bob_dying() -> Vec<E> {
    let mut given = bob_wiped_out();
    let last = given.pop().expect("bob_wiped_out kills B8 last");
    owing(given, last)
}

/// [`bob_dying`], and Alice passed without B8's death (cited there, once, BRK-OPEN-1): B8 stays
/// in play with no lives, Bob's only card left in play.
fn bob_left_dead() -> Vec<E> {
    with(bob_dying(), vec![pass(0)])
}

/// [`b1_dying`], and Alice passed without B1's death (cited there, once): B1 stays in play with
/// no lives.
fn b1_left_dead() -> Vec<E> {
    with(b1_dying(), vec![pass(0)])
}

/// A case whose given events are recorded exactly as listed, the last one forced by a judge (it
/// moved on without an owed step, BRK-OPEN-1).
fn after_forced(given: Vec<E>, when: E, then: &[&'static str]) -> Case {
    let mut c = Case::event(config_with(&[]), given, when, then);
    c.forced = vec![c.given.len() - 1];
    c
}

cases! {
    // The stack.
    brk_stack_2_no_interrupting_a_performed_action ["BRK-INT-3", "BRK-STACK-2"] => case(fb_done(), interrupt(0, 1, "A6"), &["BRK-INT-3", "BRK-STACK-2"]);
    brk_stack_2_effects_come_first ["BRK-STACK-2", "BRK-STACK-3"] => case(performed("A1", 0, "B1"), pass(0), &["BRK-STACK-2", "BRK-STACK-3"]);
    brk_stack_2_no_effect_before_performing ["BRK-STACK-2"] => case(with(t1(), vec![declare(0, "A1", 0, "B1")]), effect(1, "B1"), &["BRK-STACK-2"]);
    brk_stack_3_only_the_priority_holder_declares ["BRK-STACK-3"] => case(t1(), declare(1, "B2", 0, "A1"), &["BRK-STACK-3"]);
    brk_stack_3_both_pass_before_performing ["BRK-STACK-3"] => case(with(t1(), vec![declare(0, "A1", 0, "B1"), pass(1)]), perform(1), &["BRK-STACK-3"]);
    brk_stack_3_lifo_performs_the_last_first ["BRK-STACK-3"] => case(with(t1(), vec![declare(0, "A2", 0, "B3"), declare(1, "B2", 0, "A1"), pass(0), pass(1)]), perform(1), &["BRK-STACK-3"]);
    brk_stack_3_fifo_performs_the_first_first ["BRK-STACK-3"] => case_with(&[("stack_order", "fifo")], with(t1(), vec![declare(0, "A2", 0, "B3"), declare(1, "B2", 0, "A1"), pass(0), pass(1)]), perform(1), &[]);
    brk_stack_3_active_first_keeps_priority ["BRK-STACK-3"] => case_with(&[("priority", "active-first")], with(t1(), vec![declare(0, "A2", 0, "B3")]), declare(1, "B2", 0, "A1"), &["BRK-STACK-3"]);
    brk_stack_3_active_first_active_answers ["BRK-STACK-3"] => case_with(&[("priority", "active-first")], with(t1(), vec![declare(0, "A2", 0, "B3")]), declare(0, "A1", 0, "B1"), &[]);
    brk_stack_3_turn_ends_with_an_empty_stack ["BRK-STACK-3"] => case(with(t1(), vec![declare(0, "A2", 0, "B3"), pass(1)]), E::TurnEnded { seat: 0 }, &["BRK-STACK-3"]);

    // Interruption.
    brk_int_1_interruption_says_why ["BRK-INT-1"] => case(with(t1(), vec![declare(0, "A1", 0, "B1")]), E::GameActionInterrupted { seat: 1, action: 1, by: "B8".into(), reason: " ".into() }, &["BRK-INT-1"]);
    brk_int_1_card_text_needed ["BRK-INT-1"] => case(with(t1(), vec![declare(0, "A1", 0, "B1")]), interrupt(1, 1, "B2"), &["BRK-INT-1"]);
    brk_int_1_card_text_interrupts ["BRK-INT-1"] => case(with(t1(), vec![declare(0, "A1", 0, "B1")]), interrupt(1, 1, "B8"), &[]);
    brk_int_2_interrupted_pays_nothing ["BRK-INT-2"] => case(fb_interrupted(), pay(1, "A1", 0), &["BRK-INT-2"]);
    brk_int_2_interrupted_is_never_performed ["BRK-INT-2"] => case(with(fb_interrupted(), vec![pass(0), pass(1)]), perform(1), &["BRK-INT-2"]);
    brk_int_3_no_interrupting_a_blocked_action ["BRK-INT-3"] => case(with(fb_blocked(), vec![pay(1, "A1", 0)]), interrupt(0, 1, "A6"), &["BRK-INT-3"]);
    brk_int_5_illegal_finishing_blow_not_declared ["BRK-INT-5"] => case(t1(), declare(0, "A1", 0, "B3"), &["BRK-INT-5"]);
    brk_int_5_healed_target_interrupts_the_blow ["BRK-INT-5"] => case(with(fb_healed(), vec![pass(0), pass(1)]), perform(1), &["BRK-INT-5"]);
    brk_int_5_interrupted_blow_pays_nothing ["BRK-INT-5", "BRK-INT-2"] => case(fb_healed(), pay(1, "A1", 0), &["BRK-INT-2"]);

    // Blocking.
    brk_block_1_only_on_the_stack ["BRK-BLOCK-1", "BRK-STACK-2"] => case(with(fb_done(), vec![pass(0)]), block(1, 1, "B2", "A1"), &["BRK-BLOCK-1", "BRK-STACK-2"]);
    brk_block_1_not_after_it_left_the_stack ["BRK-BLOCK-1"] => case(fb_interrupted(), block(0, 1, "A2", "A1"), &["BRK-BLOCK-1"]);
    brk_block_2_blocker_targets_the_source ["BRK-BLOCK-2"] => case(with(t1(), vec![declare(0, "A1", 0, "B1")]), block(1, 1, "B2", "B1"), &["BRK-BLOCK-2"]);
    brk_block_2_blocking_the_source ["BRK-BLOCK-2"] => case(with(t1(), vec![declare(0, "A1", 0, "B1")]), block(1, 1, "B2", "A1"), &[]);
    brk_block_2_needs_a_block_ability ["BRK-BLOCK-2"] => case(with(t1(), vec![declare(0, "A1", 0, "B1")]), block(1, 1, "B1", "A1"), &["BRK-BLOCK-2"]);
    brk_block_3_not_in_the_graveyard_for_plain_actions ["BRK-BLOCK-3"] => case(with(t1(), vec![declare(0, "A3", 0, "B1"), lives("A3", -2)]), block(1, 1, "B2", "A3"), &["BRK-BLOCK-3"]);
    brk_block_3_on_death_feature_blocked_in_the_graveyard ["BRK-BLOCK-3"] => case(with(t1(), vec![lives("B4", -2), pass(0), declare(1, "B4", 0, "B1")]), block(0, 1, "A2", "B4"), &[]);
    brk_block_4_blocked_deals_nothing ["BRK-BLOCK-4"] => case(with(fb_blocked(), vec![pay(1, "A1", 0)]), effect(1, "B1"), &["BRK-BLOCK-4"]);
    brk_block_4_blocked_is_never_performed ["BRK-BLOCK-4"] => case(with(fb_blocked(), vec![pay(1, "A1", 0), pass(0), pass(1)]), perform(1), &["BRK-BLOCK-4"]);
    brk_block_5_source_pays_everything ["BRK-BLOCK-5"] => case(fb_blocked(), E::PaymentMade { action: 1, resources: vec![] }, &["BRK-BLOCK-5"]);
    brk_block_5_unpaid_block_is_a_finding ["BRK-BLOCK-5"] => case(fb_blocked(), pass(0), &["BRK-BLOCK-5"]);
    brk_block_5_blocked_pays ["BRK-BLOCK-5"] => case(fb_blocked(), pay(1, "A1", 0), &[]);
    brk_block_5_declared_payment_is_the_cost ["BRK-BLOCK-5"] => case(t1(), E::GameActionDeclared { seat: 0, source: "A1".into(), ability: 0, targets: vec!["B1".into()], payment: vec![] }, &["BRK-BLOCK-5"]);
    brk_block_5_payable_even_if_blocked ["BRK-BLOCK-5"] => case(with(t1(), vec![declare(0, "A3", 0, "B1"), pass(1), declare(0, "A2", 0, "B3"), pass(1)]), declare(0, "A1", 0, "B1"), &["BRK-BLOCK-5"]);
    brk_block_6_no_payment_on_the_stack ["BRK-BLOCK-6"] => case(with(t1(), vec![declare(0, "A1", 0, "B1")]), pay(1, "A1", 0), &["BRK-BLOCK-6"]);
    brk_block_6_performed_pays_first ["BRK-BLOCK-6"] => case(with(t1(), vec![declare(0, "A1", 0, "B1"), pass(1), pass(0), perform(1)]), effect(1, "B1"), &["BRK-BLOCK-6"]);

    // Protection.
    brk_prot_1_protection_stops_the_effect ["BRK-PROT-1"] => case(performed("A3", 0, "B2"), effect(1, "B2"), &["BRK-PROT-1"]);
    brk_prot_1_protected_target ["BRK-PROT-1"] => case(performed("A3", 0, "B2"), protected(1, "B2", "spells", "spell"), &[]);
    brk_prot_1_only_against_x ["BRK-PROT-1"] => case(performed("A2", 0, "B2"), protected(1, "B2", "spells", "spell"), &["BRK-PROT-1"]);
    brk_prot_2_component_of_the_complex ["BRK-PROT-2"] => case(performed("A3", 0, "B2"), protected(1, "B2", "magic", "spell"), &["BRK-PROT-2"]);
    brk_prot_2_complex_protects_by_component ["BRK-PROT-2", "BRK-PROT-1"] => case(performed("A3", 0, "B3"), effect(1, "B3"), &["BRK-PROT-1"]);
    brk_prot_3_against_the_whole_complex ["BRK-PROT-3"] => case(performed("A3", 1, "B3"), protected(1, "B3", "magic", "spell"), &["BRK-PROT-3"]);
    brk_prot_3_whole_complex_pierced ["BRK-PROT-3"] => case(performed("A3", 1, "B3"), effect(1, "B3"), &[]);
    brk_prot_3_against_one_component ["BRK-PROT-3"] => case(performed("A4", 0, "B3"), protected(1, "B3", "magic", "poison"), &["BRK-PROT-3"]);

    // Hidden cards.
    brk_hid_1_only_cards_in_play_hide ["BRK-HID-1"] => case(fb_done(), E::CardHidden { piece: "B1".into(), cause: "test".into() }, &["BRK-HID-1"]);
    brk_hid_2_no_markers_before_the_reveal ["BRK-HID-2"] => case(t1(), E::MarkerPlaced { piece: "B6".into(), marker: "poison".into(), cause: "test".into() }, &["BRK-HID-2"]);
    brk_hid_4a_reveal_subphase_reveals ["BRK-HID-4"] => case(vec![deploy0(), deploy1(), E::TurnStarted { seat: 0, turn: 1 }], E::MainPhaseEntered { seat: 0 }, &["BRK-HID-4"]);
    brk_hid_4a_second_players_third_row_waits ["BRK-HID-4"] => case(vec![deploy0(), deploy1(), E::TurnStarted { seat: 0, turn: 1 }, reveal(1, "B5", RevealReason::RevealSubphase)], E::MainPhaseEntered { seat: 0 }, &[]);
    brk_hid_4a_third_row_revealed_after_the_first_turn ["BRK-HID-4"] => case(t2(), E::MainPhaseEntered { seat: 1 }, &["BRK-HID-4"]);
    brk_hid_4a_only_in_the_reveal_subphase ["BRK-HID-4"] => case(t1(), reveal(1, "B6", RevealReason::RevealSubphase), &["BRK-HID-4"]);
    brk_hid_4b_declaring_reveals ["BRK-HID-4"] => case(with(t1(), vec![pass(0)]), declare(1, "B7", 0, "A1"), &["BRK-HID-4"]);
    brk_hid_4b_revealed_to_declare ["BRK-HID-4"] => case(with(t1(), vec![pass(0), reveal(1, "B7", RevealReason::DeclaredAction)]), declare(1, "B7", 0, "A1"), &[]);
    brk_hid_4b_the_action_comes_next ["BRK-HID-4"] => case(with(t1(), vec![pass(0), reveal(1, "B7", RevealReason::DeclaredAction)]), pass(1), &["BRK-HID-4"]);
    brk_hid_4c_target_revealed_first ["BRK-HID-4"] => case(with(t1(), vec![declare(0, "A2", 0, "B7")]), pass(1), &["BRK-HID-4"]);
    brk_hid_4c_only_targets_revealed_as_targets ["BRK-HID-4"] => case(t1(), reveal(1, "B7", RevealReason::Targeted), &["BRK-HID-4"]);
    brk_hid_4d_controller_reveals_at_will ["BRK-HID-4"] => case(t1(), reveal(1, "B7", RevealReason::ControllerChoice), &[]);
    brk_hid_6_hidden_protection_is_absent ["BRK-HID-6"] => case(with(t1(), vec![declare(0, "A3", 0, "B2"), E::CardHidden { piece: "B2".into(), cause: "test".into() }, pass(1), pass(0), perform(1), pay(1, "A3", 0)]), protected(1, "B2", "spells", "spell"), &["BRK-HID-6"]);
    brk_hid_8_hidden_card_targeted_on_its_cell ["BRK-HID-9", "BRK-HID-4"] => case(t1(), declare(0, "A2", 0, "B6"), &[]);
    brk_hid_9_restriction_on_a_face_up_card ["BRK-HID-9"] => case(t1(), declare(0, "A5", 0, "B1"), &["BRK-HID-9"]);
    brk_hid_9_opponents_hidden_card_assumed ["BRK-HID-9"] => case(t1(), declare(0, "A5", 0, "B6"), &[]);
    brk_hid_10_no_false_assumption_about_ones_own ["BRK-HID-10"] => case(with(t1(), vec![E::CardHidden { piece: "A1".into(), cause: "test".into() }]), declare(0, "A5", 0, "A1"), &["BRK-HID-10"]);
    // Found late: the reveal is true and recorded as played; the finding is cited at the declaration.
    brk_hid_10_false_assumption_cited_at_the_declaration ["BRK-HID-10"] => Case::event(config_bob_hunter(), net_shot_on_own_sealed_b6(), reveal(1, "B6", RevealReason::Targeted), &["BRK-HID-10"]);
    brk_hid_10_opponent_cannot_read_a_hidden_identity ["BRK-HID-10"] => case(t1(), reveal(0, "B6", RevealReason::ControllerChoice), &["BRK-HID-10"]);
    brk_hid_11_false_assumption_interrupts ["BRK-HID-11"] => case(net_shot_on_b6(), perform(1), &["BRK-HID-11"]);
    brk_hid_11_false_assumption_stands_by_policy ["BRK-HID-11"] => case_with(&[("false_assumption", "stands")], net_shot_on_b6(), perform(1), &[]);
    brk_hid_11_true_assumption_holds ["BRK-HID-11"] => case(with(t1(), vec![declare(0, "A5", 0, "B7"), reveal(1, "B7", RevealReason::Targeted), pass(1), pass(0)]), perform(1), &[]);

    // Fragments.
    brk_frag_1_payment_of_lives_ignores_protection ["BRK-BLOCK-6", "BRK-PROT-1"] => case(with(t1(), vec![declare(0, "A7", 0, "B1"), pass(1), pass(0), perform(1)]), pay(1, "A7", 0), &[]);
    brk_frag_6_once_per_turn ["BRK-FRAG-6"] => case(with(performed("A2", 0, "B3"), vec![effect(1, "B3")]), declare(0, "A2", 0, "B3"), &["BRK-FRAG-6"]);
    brk_frag_6_opening_restores_the_action ["BRK-FRAG-6"] => case(with(performed("A2", 0, "B3"), vec![effect(1, "B3"), E::CardOpened { piece: "A2".into(), cause: "test".into() }]), declare(0, "A2", 0, "B3"), &[]);
    brk_frag_6_blocker_acts_once ["BRK-FRAG-6"] => case(with(fb_blocked(), vec![pay(1, "A1", 0), pass(0), declare(1, "B3", 0, "A3")]), block(0, 2, "A2", "B3"), &[]);
    brk_frag_6_a_blocker_that_acted ["BRK-FRAG-6"] => case(with(fb_blocked(), vec![pay(1, "A1", 0), declare(0, "A3", 1, "B1")]), block(1, 2, "B2", "A3"), &["BRK-FRAG-6"]);

    // Legal play close to a rule (tricky: no finding at all), written from the digest.
    brk_stack_2_the_action_below_still_waits ["BRK-STACK-2", "BRK-BLOCK-1"] => case(top_resolved(), block(1, 1, "B2", "A2"), &[]);
    brk_int_3_the_action_below_can_still_be_interrupted ["BRK-INT-3", "BRK-STACK-2"] => case(top_resolved(), interrupt(1, 1, "B8"), &[]);
    brk_block_1_blocking_an_action_under_the_top ["BRK-BLOCK-1"] => case(two_waiting(), block(1, 1, "B2", "A2"), &[]);
    brk_int_2_nothing_owed_after_an_interruption ["BRK-INT-2", "BRK-BLOCK-6"] => case(fb_interrupted(), pass(0), &[]);
    brk_int_5_finishing_blow_of_exactly_the_lives_left ["BRK-INT-5"] => case(t1(), declare(0, "A1", 0, "B1"), &[]);
    brk_block_4_another_action_on_the_same_target_works ["BRK-BLOCK-4"] => case(with(t1(), vec![declare(0, "A2", 0, "B3"), pass(1), declare(0, "A1", 0, "B1"), block(1, 2, "B2", "A1"), pay(2, "A1", 0), pass(0), pass(1), perform(1), pay(1, "A2", 0)]), effect(1, "B3"), &[]);
    brk_block_6_performed_pays_exactly_its_cost ["BRK-BLOCK-6"] => case(with(t1(), vec![declare(0, "A1", 0, "B1"), pass(1), pass(0), perform(1)]), pay(1, "A1", 0), &[]);
    brk_prot_2_the_complex_stops_a_spell_by_its_component ["BRK-PROT-2", "BRK-PROT-1"] => case(performed("A3", 0, "B3"), protected(1, "B3", "magic", "spell"), &[]);
    brk_hid_1_a_face_up_card_in_play_hides ["BRK-HID-1"] => case(t1(), hide("B2"), &[]);
    brk_hid_2_markers_once_revealed ["BRK-HID-2"] => case(t1(), marker("B5", "poison"), &[]);
    brk_hid_2_a_card_hidden_later_may_get_markers ["BRK-HID-2"] => case(with(t1(), vec![hide("B1")]), marker("B1", "poison"), &[]);
    brk_hid_6_a_hidden_target_has_no_protection ["BRK-HID-6", "BRK-PROT-1"] => case(with(t1(), vec![declare(0, "A3", 0, "B2"), hide("B2"), pass(1), pass(0), perform(1), pay(1, "A3", 0)]), effect(1, "B2"), &[]);
    brk_hid_10_the_controller_reveals_its_own ["BRK-HID-10"] => case(t1(), reveal(1, "B6", RevealReason::ControllerChoice), &[]);
    brk_open_1_the_second_turn_is_the_second_players ["BRK-OPEN-1"] => case(with(t1(), vec![E::TurnEnded { seat: 0 }]), E::TurnStarted { seat: 1, turn: 2 }, &[]);

    // Escape hatches held to the rules that govern what they change (rules version 2).
    brk_prot_1_no_marker_of_a_protected_kind ["BRK-PROT-1", "BRK-PROT-2"] => case(t1(), marker("B3", "poison"), &["BRK-PROT-1"]);
    brk_prot_1_a_marker_of_another_kind ["BRK-PROT-1"] => case(t1(), marker("B2", "poison"), &[]);
    brk_hid_6_a_hidden_card_gets_markers_it_would_be_protected_from ["BRK-HID-6", "BRK-PROT-1"] => case(with(t1(), vec![hide("B3")]), marker("B3", "poison"), &[]);
    brk_open_1_no_marker_in_the_graveyard ["BRK-OPEN-1"] => case(fb_done(), marker("B1", "poison"), &["BRK-OPEN-1"]);
    brk_open_1_no_opening_in_the_graveyard ["BRK-OPEN-1"] => case(fb_done(), E::CardOpened { piece: "B1".into(), cause: "test".into() }, &["BRK-OPEN-1"]);
    brk_open_1_no_lives_in_the_graveyard ["BRK-OPEN-1"] => case(fb_done(), lives("B1", 1), &["BRK-OPEN-1"]);

    brk_open_1_a_decided_game_ends_next ["BRK-OPEN-1"] => case(bob_wiped_out(), pass(0), &["BRK-OPEN-1"]);
    brk_open_1_the_decided_game_ends ["BRK-OPEN-1"] => case(bob_wiped_out(), E::GameEnded { winner: Some(0), reason: "test".into() }, &[]);

    // The skeleton (BRK-OPEN-1) and the recorder's own checks.
    brk_open_1_turn_order ["BRK-OPEN-1"] => case(vec![deploy0(), deploy1()], E::TurnStarted { seat: 1, turn: 1 }, &["BRK-OPEN-1"]);
    brk_open_1_cells ["BRK-OPEN-1"] => case(vec![], E::SquadDeployed { seat: 1, cards: vec![] }, &["BRK-OPEN-1"]);
    brk_open_1_no_premature_victory ["BRK-OPEN-1"] => case(t1(), E::GameEnded { winner: Some(0), reason: "test".into() }, &["BRK-OPEN-1"]);
    brk_open_1_squad_size ["BRK-OPEN-1"] => Case::setup({ let mut c = config_with(&[]); let BrkConfig::V1(v) = &mut c; v.decks[0].cards.truncate(3); c }, &["BRK-OPEN-1"]);
    kifu_seal_1_wrong_salt ["KIFU-SEAL-1"] => case(t1(), E::CardRevealed { seat: 1, piece: "B6".into(), reason: RevealReason::ControllerChoice, proof: Some(RevealProof { instance: "p1-5".into(), salt: salt(9) }) }, &["KIFU-SEAL-1"]);
    kifu_card_1_unknown_piece ["KIFU-CARD-1"] => case(t1(), declare(0, "A1", 0, "Z9"), &["KIFU-CARD-1"]);
    kifu_seat_1_two_seats ["KIFU-SEAT-1"] => case(t1(), pass(2), &["KIFU-SEAT-1"]);

    // Rules version 4: the steps versions 1 to 3 made inside other events are automatic steps of
    // their own; a table that moves on without one is cited there, once, under its rule.
    brk_hid_2_the_game_moved_on_without_the_markers ["BRK-HID-2"] => as_listed(b6_revealed(), pass(0), &["BRK-HID-2"]);
    brk_hid_2_the_markers_are_the_cards_own ["BRK-HID-2"] => as_listed(b6_revealed(), markers_on_reveal("B6", &["poison"]), &["BRK-HID-2"]);
    brk_hid_2_no_markers_owed_to_a_card_that_started_face_up ["BRK-HID-2"] => case(t1(), markers_on_reveal("B2", &["armor"]), &["BRK-HID-2"]);
    brk_frag_6_the_game_moved_on_without_opening ["BRK-FRAG-6"] => as_listed(t2_after_a_block(), reveal(1, "B6", RevealReason::RevealSubphase), &["BRK-FRAG-6"]);
    brk_frag_6_the_opening_names_the_cards_that_acted ["BRK-FRAG-6"] => as_listed(t2_after_a_block(), opened(1, &["B2", "B1"]), &["BRK-FRAG-6"]);
    brk_frag_6_no_opening_when_no_turn_started ["BRK-FRAG-6"] => case(with(fb_blocked(), vec![pay(1, "A1", 0)]), opened(1, &["B2"]), &["BRK-FRAG-6"]);
    brk_open_1_the_game_moved_on_without_the_death ["BRK-OPEN-1"] => as_listed(b1_dying(), pass(0), &["BRK-OPEN-1"]);
    brk_open_1_only_cards_with_no_lives_go ["BRK-OPEN-1"] => as_listed(b1_dying(), to_graveyard(&["B1", "B2"]), &["BRK-OPEN-1"]);
    brk_open_1_no_death_owed ["BRK-OPEN-1"] => case(t1(), to_graveyard(&["B1"]), &["BRK-OPEN-1"]);

    // Legal but close to those steps: no finding.
    brk_hid_2_the_markers_come_before_the_targeted_cards_action ["BRK-HID-2", "BRK-HID-4"] => as_listed(owing(with(t1(), vec![declare(0, "A2", 0, "B6")]), reveal(1, "B6", RevealReason::Targeted)), markers_on_reveal("B6", &["armor"]), &[]);
    brk_hid_2_a_card_hidden_later_owes_nothing_on_its_reveal ["BRK-HID-2"] => as_listed(owing(with(t1(), vec![hide("B2")]), reveal(1, "B2", RevealReason::ControllerChoice)), pass(0), &[]);
    brk_frag_6_only_the_active_players_cards_open ["BRK-FRAG-6"] => as_listed(t2_after_a_block(), opened(1, &["B2", "B2"]), &[]);
    brk_open_1_the_death_comes_before_the_actions_effect ["BRK-OPEN-1", "BRK-STACK-2"] => as_listed(a7_paid_its_last_life(), to_graveyard(&["A7"]), &[]);
    brk_open_1_an_effect_heals_a_dying_card_first ["BRK-OPEN-1"] => as_listed(b1_dying(), lives("B1", 1), &[]);

    // Rules version 5: a card with no lives left counts for nobody's victory, whether its death
    // is owed or was left out; a death left out may still be recorded late.
    brk_open_1_a_game_decided_by_a_dead_card_ends_next ["BRK-OPEN-1"] => after_forced(bob_left_dead(), pass(1), &["BRK-OPEN-1"]);
    brk_open_1_only_dead_cards_go_late ["BRK-OPEN-1"] => after_forced(b1_left_dead(), to_graveyard(&["B1", "B2"]), &["BRK-OPEN-1"]);
    brk_open_1_a_player_whose_cards_are_dead_has_lost ["BRK-OPEN-1"] => after_forced(bob_left_dead(), E::GameEnded { winner: Some(0), reason: "test".into() }, &[]);
    brk_open_1_the_game_ends_while_a_death_is_owed ["BRK-OPEN-1"] => as_listed(bob_dying(), E::GameEnded { winner: Some(0), reason: "test".into() }, &[]);
    brk_open_1_a_death_left_out_goes_late ["BRK-OPEN-1"] => after_forced(bob_left_dead(), to_graveyard(&["B8"]), &[]);
}

/// Every Enforced rule in the coverage table is named by at least one case above.
#[test]
fn every_enforced_rule_has_a_case() {
    check_enforced_rules_have_cases(CASES, Brk::coverage());
}

/// `src/games/brk/scenarios.tsv` counts this table's illegal and tricky cases per rule ID.
#[test]
fn scenario_index_is_checked_in() {
    crate::game_support::check_scenario_index::<Brk>("brk", built_cases());
}

// ---------------------------------------------------------------------------------------------
// What the fold does on its own.
// ---------------------------------------------------------------------------------------------

#[test]
fn the_fold_interrupts_an_action_that_became_illegal_and_records_why() {
    // BRK-INT-5, the seed's own example.
    let s = fold(&config_with(&[]), &fb_healed());
    let a = s.action(1).unwrap();
    match &a.status {
        Status::Interrupted { rule, why, automatic } => {
            assert_eq!((*rule, *automatic), ("BRK-INT-5", true));
            assert!(why.contains("finishing blow of 2") && why.contains("3 lives"), "{why}");
        }
        other => panic!("expected an automatic interruption, got {other:?}"),
    }
    assert!(s.stack.is_empty() && a.paid.is_none());
    assert_eq!(s.piece("B3").unwrap().lives, 3);
    // Alice's gold paid nothing for the interrupted blow; Bob paid his heal.
    assert_eq!((s.gold(0), s.gold(1)), (3, 2));
}

#[test]
fn a_blocked_action_is_paid_and_deals_nothing() {
    let s = fold(&config_with(&[]), &with(fb_blocked(), vec![pay(1, "A1", 0)]));
    let a = s.action(1).unwrap();
    assert!(matches!(a.status, Status::Blocked { .. }));
    assert_eq!(a.paid.as_deref(), Some(&cost("A1", 0)[..]));
    assert_eq!(s.piece("B1").unwrap().lives, 2);
    // Alice paid the blow; Bob paid his blocker's parry.
    assert_eq!((s.gold(0), s.gold(1)), (2, 2));
    assert!(s.piece("B2").unwrap().acted);
}

#[test]
fn reveals_place_markers_without_the_stack_and_hidden_cards_keep_theirs() {
    let mut given = with(t1(), vec![declare(0, "A2", 0, "B3")]);
    let before = fold(&config_with(&[]), &given);
    // BRK-HID-2: B6 (a Warded Sentinel) started hidden without its armor marker.
    assert!(before.piece("B6").unwrap().markers.is_empty());
    given.push(reveal(1, "B6", RevealReason::ControllerChoice));
    let after = fold(&config_with(&[]), &given);
    assert_eq!(after.piece("B6").unwrap().markers, vec!["armor".to_string()]);
    // BRK-HID-5: the stack and priority are untouched by the reveal.
    assert_eq!(
        (after.stack.clone(), after.priority, after.passes),
        (before.stack.clone(), before.priority, before.passes)
    );
    // BRK-HID-3: B2 keeps its armor when it becomes hidden.
    given.push(E::CardHidden { piece: "B2".into(), cause: "test".into() });
    let hidden = fold(&config_with(&[]), &given);
    assert!(hidden.piece("B2").unwrap().hidden);
    assert_eq!(hidden.piece("B2").unwrap().markers, vec!["armor".to_string()]);
}

#[test]
fn a_payment_of_lives_is_not_an_effect() {
    // BRK-FRAG-1: A7 (protected from attacks) pays a life; it is no effect, so nothing stops it.
    let s = fold(
        &config_with(&[]),
        &with(t1(), vec![declare(0, "A7", 0, "B1"), pass(1), pass(0), perform(1), pay(1, "A7", 0)]),
    );
    assert_eq!(s.piece("A7").unwrap().lives, 3);
    assert_eq!(s.gold(0), 3);
}

#[test]
fn an_on_death_feature_comes_from_the_graveyard() {
    let s = fold(&config_with(&[]), &with(t1(), vec![lives("B4", -2), pass(0), declare(1, "B4", 0, "B1")]));
    assert_eq!(s.piece("B4").unwrap().zone, Zone::Graveyard);
    assert_eq!(s.stack, vec![1]);
}

/// Version 2's checks are its own: under version 1 (the pinned fixtures and every game recorded
/// before), a marker of a protected kind, a marker in the graveyard and an event after the
/// skeleton's victory still validate as they did, so old games audit unchanged.
#[test]
fn version_1_games_audit_as_released() {
    use kifu::games::brk::Brk as BrkV1;
    let config = config_with(&[]);
    let at = |given: &[E], when: &E| {
        let mut s = BrkV1::setup(&config).unwrap();
        for g in given {
            s = BrkV1::apply(s, g);
        }
        (BrkV1::validate(&s, when), Brk::validate(&s, when))
    };
    let (v1, v2) = at(&t1(), &marker("B3", "poison"));
    assert!(v1.is_empty() && v2.iter().any(|v| v.rule == "BRK-PROT-1"), "{v1:?} {v2:?}");
    let (v1, v2) = at(&fb_done(), &marker("B1", "poison"));
    assert!(v1.is_empty() && v2.iter().any(|v| v.rule == "BRK-OPEN-1"), "{v1:?} {v2:?}");
}

/// Version 3 cites a false assumption about one's own sealed card at the declaration; version 2
/// (and 1), as released, refuse the reveal that shows it, and find nothing late.
#[test]
fn version_2_games_cite_a_false_assumption_at_the_reveal() {
    use kifu::games::brk::BrkV2;
    let given = net_shot_on_own_sealed_b6();
    let revealed = reveal(1, "B6", RevealReason::Targeted);
    let mut s = BrkV2::setup(&config_bob_hunter()).unwrap();
    for (i, g) in given.iter().enumerate() {
        s.ledger.at(i as u64);
        s = BrkV2::apply(s, g);
    }
    let rules = |v: Vec<kifu::game::Violation>| v.into_iter().map(|v| v.rule).collect::<Vec<_>>();
    assert_eq!(rules(BrkV2::validate(&s, &revealed)), ["BRK-HID-10"]);
    assert!(BrkV2::revealed_violations(&s, &revealed).is_empty());
    assert!(Brk::validate(&s, &revealed).is_empty());
    let late = Brk::revealed_violations(&s, &revealed);
    assert_eq!(
        late.iter().map(|l| (l.at, l.violation.rule)).collect::<Vec<_>>(),
        [(given.len() as u64 - 1, "BRK-HID-10")]
    );
}

/// The steps of a game that declares a net shot on Bob's own sealed B6 (assuming it flies) and then
/// reveals it, each played, except the declaration when a judge forced it (`forced_declaration`).
pub(crate) fn false_assumption_game(forced_declaration: bool) -> Vec<kifu::game::replay::Step<E>> {
    use kifu::game::GameEntry;
    use kifu::log::envelope::{Actor, Timestamp};
    let given = net_shot_on_own_sealed_b6();
    let declared = given.len() - 1;
    let entries = given.into_iter().enumerate().map(|(i, event)| {
        if i == declared && forced_declaration {
            GameEntry::Forced { judge: "jin".into(), broke: vec![], event }
        } else {
            GameEntry::Played(event)
        }
    });
    let entries = entries.chain([GameEntry::Played(reveal(1, "B6", RevealReason::Targeted))]);
    let step = |(i, entry)| kifu::game::replay::Step {
        seq: i as u64,
        recorded_at: Timestamp(i as i64),
        actor: Actor::System,
        entry,
    };
    entries.enumerate().map(step).collect()
}

/// The false-assumption game as JSON lines recorded elsewhere, for `id`: the index of the
/// declaration its reveal finds a false assumption in, the reveal's, and the text.
pub(crate) fn false_assumption_jsonl(id: &str) -> (usize, usize, String) {
    let steps = false_assumption_game(false);
    let (declared, reveal_at) = (steps.len() - 2, steps.len() - 1);
    let id = kifu::log::envelope::StreamId::new(id).unwrap();
    (declared, reveal_at, kifu::game::record::to_jsonl::<Brk>(&id, &config_bob_hunter(), &steps).unwrap())
}

/// `kifu game audit` on the game recorded elsewhere (JSON lines, audited under the newest rules)
/// cites the false assumption at the declaration and says which event found it, in its table and
/// in `--json`, and exits non-zero for the unresolved finding.
#[test]
fn the_cli_audit_says_where_a_late_finding_was_found() {
    use crate::support::{kifu_cmd, TestEnv};
    let env = TestEnv::new();
    let (declared, reveal_at, text) = false_assumption_jsonl("brk-net-shot");
    let file = env.path("net-shot.jsonl");
    std::fs::write(&file, text).unwrap();
    let out = kifu_cmd(&env.data()).args(["game", "audit"]).arg(&file).output().unwrap();
    let table = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{table}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(table.contains(&format!("{declared} (found at {reveal_at})")) && table.contains("BRK-HID-10"), "{table}");
    let out = kifu_cmd(&env.data()).args(["game", "audit", "--json"]).arg(&file).output().unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let late: Vec<&serde_json::Value> =
        v["report"]["findings"].as_array().into_iter().flatten().filter(|f| !f["found_at"].is_null()).collect();
    assert_eq!(late.len(), 1, "{v}");
    let want = (serde_json::json!(declared), serde_json::json!(reveal_at), serde_json::json!("BRK-HID-10"));
    assert_eq!((late[0]["seq"].clone(), late[0]["found_at"].clone(), late[0]["rule"].clone()), want);
}

/// A judge who forced the declaration (for what it broke then) did not rule on a false assumption
/// nobody could see until the reveal: the late finding at that event stays open until a ruling
/// about it.
#[test]
fn a_forced_declaration_does_not_resolve_what_its_reveal_finds_later() {
    use kifu::game::audit::audit;
    use kifu::game::replay::Step;
    use kifu::game::{GameEntry, Ruling};
    use kifu::log::envelope::{Actor, Timestamp};
    let steps = false_assumption_game(true);
    let declared = steps.len() as u64 - 2;
    let (report, _) = audit::<Brk>(config_bob_hunter(), steps.clone()).unwrap();
    let late: Vec<_> = report.findings.iter().filter(|f| f.found_at.is_some()).collect();
    assert_eq!(late.len(), 1, "{:#?}", report.findings);
    assert_eq!((late[0].seq, late[0].rule.as_str(), &late[0].resolution), (Some(declared), "BRK-HID-10", &None));
    let warned = Ruling::WarningIssued {
        judge: "jin".into(),
        seat: 1,
        about: Some(declared),
        rule: Some("BRK-HID-10".into()),
        note: "assumed its own hidden card could be netted".into(),
    };
    let mut ruled = steps;
    let seq = ruled.len() as u64;
    let judge = Actor::Judge("jin".into());
    ruled.push(Step { seq, recorded_at: Timestamp(seq as i64), actor: judge, entry: GameEntry::Ruled(warned) });
    let (report, _) = audit::<Brk>(config_bob_hunter(), ruled).unwrap();
    let late = report.findings.iter().find(|f| f.found_at.is_some()).unwrap();
    assert!(late.resolution.as_deref().is_some_and(|r| r.starts_with("warning by judge jin")), "{late:?}");
}

/// Version 3's fold (and 1's and 2's), as released: a revealed card's markers, the turn start's
/// opening and a death happen inside the events that make them due, and nothing is ever owed;
/// version 4's fold leaves each to a step of its own, owed until recorded.
#[test]
fn version_3_games_fold_as_released() {
    use kifu::games::brk::BrkV3;
    let config = config_with(&[]);
    let fold_as = |v4: bool, given: &[E]| {
        let mut s = Brk::setup(&config).unwrap();
        for g in given {
            s = if v4 { Brk::apply(s, g) } else { BrkV3::apply(s, g) };
        }
        s
    };
    // A death (BRK-OPEN-1): B1 has no lives left after the finishing blow.
    let given = b1_dying();
    let (v3, v4) = (fold_as(false, &given), fold_as(true, &given));
    assert_eq!(v3.piece("B1").unwrap().zone, Zone::Graveyard);
    assert!(v3.owed_steps().is_empty());
    assert_eq!(v4.piece("B1").unwrap().zone, Zone::Play);
    assert_eq!(v4.owed_steps(), vec![to_graveyard(&["B1"])]);
    // A revealed card's markers (BRK-HID-2): B6's armor.
    let given = b6_revealed();
    let (v3, v4) = (fold_as(false, &given), fold_as(true, &given));
    assert_eq!(v3.piece("B6").unwrap().markers, vec!["armor".to_string()]);
    assert!(v3.owed_steps().is_empty());
    assert!(v4.piece("B6").unwrap().markers.is_empty());
    assert_eq!(v4.owed_steps(), vec![markers_on_reveal("B6", &["armor"])]);
    // The turn start's opening (BRK-FRAG-6): B2 blocked in turn 1 and opens at Bob's turn 2.
    let given = t2_after_a_block();
    let (v3, v4) = (fold_as(false, &given), fold_as(true, &given));
    assert!(!v3.piece("B2").unwrap().acted);
    assert!(v3.owed_steps().is_empty());
    assert!(v4.piece("B2").unwrap().acted && v4.piece("A1").unwrap().acted);
    assert_eq!(v4.owed_steps(), vec![opened(1, &["B2"])]);
    // Version 3's validate knows nothing owed: each step is refused under its rule.
    let rules = |v: Vec<kifu::game::Violation>| v.into_iter().map(|v| v.rule).collect::<Vec<_>>();
    assert_eq!(rules(BrkV3::validate(&v3, &opened(1, &["B2"]))), ["BRK-FRAG-6"]);
}

/// Version 4: a step the table left out is cited once, at the event that moved on without it;
/// after that it is owed no more and the board shows what the table left (B1 still in play with
/// no lives), and no later event is cited for it.
#[test]
fn a_step_left_out_is_cited_once() {
    let config = config_with(&[]);
    let mut s = Brk::setup(&config).unwrap();
    for g in b1_dying() {
        s = Brk::apply(s, &g);
    }
    let rules = |v: Vec<kifu::game::Violation>| v.into_iter().map(|v| v.rule).collect::<Vec<_>>();
    assert_eq!(rules(Brk::validate(&s, &pass(0))), ["BRK-OPEN-1"]);
    assert_eq!(Brk::automatic(&s), Some(to_graveyard(&["B1"])));
    s = Brk::apply(s, &pass(0));
    assert!(s.owed_steps().is_empty());
    assert_eq!(s.piece("B1").unwrap().zone, Zone::Play);
    assert!(Brk::validate(&s, &pass(1)).is_empty());
}

/// `log` folded as recorded under rules version `V`, with what each event breaks there: (its
/// index, the rule ID).
fn folded_as<const V: u32>(log: &[E]) -> (BrkState, Vec<(usize, String)>) {
    let mut s = BrkRules::<V>::setup(&config_with(&[])).unwrap();
    let mut found = Vec::new();
    for (i, e) in log.iter().enumerate() {
        found.extend(BrkRules::<V>::validate(&s, e).into_iter().map(|v| (i, v.rule.to_string())));
        s = BrkRules::<V>::apply(s, e);
    }
    (s, found)
}

/// Version 5: a death the table left out is cited once, where it moved on, even when a later
/// event takes lives from the same card and another later event moves on; the card stays as the
/// table left it until it regains lives, and a new death after that is owed again. Version 4, as
/// released, owes the same death again once its lives changed and cites it again.
#[test]
fn a_death_left_out_is_cited_once_from_version_5() {
    let log = with(b1_left_dead(), vec![lives("B1", -1), pass(1)]);
    let moved_on = log.len() - 3;
    let cited = |at: &[usize]| at.iter().map(|i| (*i, "BRK-OPEN-1".to_string())).collect::<Vec<_>>();
    let (s, v5) = folded_as::<5>(&log);
    assert_eq!(v5, cited(&[moved_on]));
    let (_, v4) = folded_as::<4>(&log);
    assert_eq!(v4, cited(&[moved_on, log.len() - 1]));
    assert!(s.owed_steps().is_empty());
    assert_eq!((s.piece("B1").unwrap().zone, s.piece("B1").unwrap().lives), (Zone::Play, -1));
    assert_eq!(s.left_dead(), ["B1"]);
    // It regains lives (a judge's correction) and loses them again: a new death, owed again.
    let s = Brk::apply(Brk::apply(s, &lives("B1", 2)), &lives("B1", -1));
    assert!(s.left_dead().is_empty());
    assert_eq!(s.owed_steps(), vec![to_graveyard(&["B1"])]);
}

/// Version 5: a `CardsSentToGraveyard` after the citation puts the board right: accepted, it
/// moves the card left dead to the graveyard. Version 4 owes nothing then and refuses it.
#[test]
fn a_late_death_step_moves_a_card_left_dead_from_version_5() {
    let log = with(b1_left_dead(), vec![to_graveyard(&["B1"])]);
    let (moved_on, late) = (log.len() - 2, log.len() - 1);
    let (s, v5) = folded_as::<5>(&log);
    assert_eq!(v5, [(moved_on, "BRK-OPEN-1".to_string())]);
    assert_eq!(s.piece("B1").unwrap().zone, Zone::Graveyard);
    assert!(s.left_dead().is_empty() && s.owed.left_dead.is_empty());
    let (_, v4) = folded_as::<4>(&log);
    assert_eq!(v4, [(moved_on, "BRK-OPEN-1".to_string()), (late, "BRK-OPEN-1".to_string())]);
}

/// Version 5: a card with no lives left counts for nobody's victory, so a player whose only
/// cards in play are dead has lost, and the automatic steps end the game (after recording the
/// death still owed, as kifu records every owed step first). Version 4 counts the dead card.
#[test]
fn a_dead_card_counts_for_nobodys_victory_from_version_5() {
    use kifu::games::brk::rules::victory_as;
    let ended = E::GameEnded { winner: Some(0), reason: "test".into() };
    let (s5, _) = folded_as::<5>(&bob_left_dead());
    assert_eq!(victory_as(&s5, kifu::games::brk::BrkV5::RULES).map(|(w, _)| w), Some(Some(0)));
    assert!(Brk::validate(&s5, &ended).is_empty());
    assert!(matches!(Brk::automatic(&s5), Some(E::GameEnded { winner: Some(0), .. })));
    let (s4, _) = folded_as::<4>(&bob_left_dead());
    assert_eq!(victory_as(&s4, kifu::games::brk::BrkV4::RULES), None);
    let v4: Vec<_> = kifu::games::brk::BrkV4::validate(&s4, &ended).into_iter().map(|v| v.rule).collect();
    assert_eq!(v4, ["BRK-OPEN-1"]);
    // The death still owed is recorded first, then the end.
    let (owed, _) = folded_as::<5>(&bob_dying());
    assert_eq!(Brk::automatic(&owed), Some(to_graveyard(&["B8"])));
    assert!(Brk::validate(&owed, &ended).is_empty());
}
