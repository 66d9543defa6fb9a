//! Given/when/then rule tests: every case folds `given` from a fixture setup, validates `when`
//! and compares the violated rule IDs with `then`, through the one helper [`run`]. Each case
//! declares the rule IDs it covers; `every_enforced_rule_has_a_case` checks the coverage table.

use kifu::game::Game;
use kifu::games::vanguard::catalog::{Catalog, DeckList};
use kifu::games::vanguard::events::{Circle, ClientOp, EffectKind, LossReason, Phase, Place, PowerEdit, Stat, Until};
use kifu::games::vanguard::{VanguardConfig, VanguardEvent as E, VanguardV4 as V4, VanguardV5 as Vanguard};

use crate::game_support::{cases, check_enforced_rules_have_cases};

// ---------------------------------------------------------------------------------------------
// Fixture: both seats register the same Alpha deck (sample catalog), laid out by index:
//  0 TA-00 starter (forerunner) | 1-4 draw | 5-8 critical | 9-12 heal | 13-16 stand triggers
// 17-20 TA-10 g1 | 21-24 TA-11 g1 LB4 | 25-27 TA-12 g1 | 28-30 TA-13 g1 sentinel
// 31-34 TA-20 g2 | 35-38 TA-21 g2 | 39-41 TA-22 g2 restraint
// 42-44 TA-30 g3 lord | 45-47 TA-31 g3 LB4 | 48-49 TA-32 g3 legion (mate: TA-30's name)
// G deck: g0 g1 TA-G1 (GB1), g2 TA-G2, g3 TA-G3.
// ---------------------------------------------------------------------------------------------

fn deck() -> DeckList {
    super::alpha_deck(&["TA-G1", "TA-G1", "TA-G2", "TA-G3"])
}

fn config_with(decks: Vec<DeckList>, policies: &[(&str, &str)]) -> VanguardConfig {
    let mut c = VanguardConfig::new(vec!["Alice".into(), "Bob".into()], decks, &Catalog::sample())
        .unwrap_or_else(|v| panic!("fixture config: {v:?}"));
    for (k, v) in policies {
        c.set_policy(k, v).unwrap_or_else(|e| panic!("{e}"));
    }
    c
}

// ---------------------------------------------------------------------------------------------
// The one helper.
// ---------------------------------------------------------------------------------------------

type Case = crate::game_support::Case<Vanguard>;

fn case(given: Vec<E>, when: E, then: &[&'static str]) -> Case {
    Case::event(config_with(vec![deck(), deck()], &[]), given, when, then)
}

fn case_with(policies: &[(&str, &str)], given: Vec<E>, when: E, then: &[&'static str]) -> Case {
    Case::event(config_with(vec![deck(), deck()], policies), given, when, then)
}

fn setup_case(d: DeckList, then: &[&'static str]) -> Case {
    Case::setup(config_with(vec![d, deck()], &[]), then)
}

// ---------------------------------------------------------------------------------------------
// Event builders.
// ---------------------------------------------------------------------------------------------

fn p(seat: u8, i: usize) -> String {
    format!("p{seat}-{i}")
}

fn g(seat: u8, i: usize) -> String {
    format!("p{seat}-g{i}")
}

/// An effect moves a card (test scaffolding the rules accept).
fn cm(card: String, to: Place) -> E {
    E::CardMoved { card, to, cause: "test setup".into() }
}

fn client(seat: u8, op: ClientOp) -> E {
    E::Client { seat, op }
}

fn phase(seat: u8, phase: Phase) -> E {
    E::PhaseEntered { seat, phase }
}

const HAND: [usize; 5] = [17, 31, 42, 1, 5];

/// Starting vanguards, first player Alice, both hands, the flip.
fn setup() -> Vec<E> {
    vec![
        E::StartingVanguardSet { seat: 0, card: p(0, 0) },
        E::StartingVanguardSet { seat: 1, card: p(1, 0) },
        E::FirstPlayerDetermined { first: 0 },
        E::OpeningHandDrawn { seat: 0, cards: HAND.iter().map(|i| p(0, *i)).collect() },
        E::OpeningHandDrawn { seat: 1, cards: HAND.iter().map(|i| p(1, *i)).collect() },
        E::VanguardsRevealed {},
    ]
}

/// Turn 1 (Alice), after the draw of p0-21.
fn t1() -> Vec<E> {
    [
        setup(),
        vec![E::TurnStarted { turn: 1, seat: 0 }, phase(0, Phase::Draw), E::CardDrawn { seat: 0, card: p(0, 21) }],
    ]
    .concat()
}

/// Turn 1 in `ph`, with `extra` scaffolding first.
fn t1_at(ph: Phase, extra: Vec<E>) -> Vec<E> {
    [t1(), extra, vec![phase(0, ph)]].concat()
}

/// Turn 2 (Bob), after his draw of p1-21, with `extra` scaffolding, in phase `ph`.
fn t2_at(ph: Phase, extra: Vec<E>) -> Vec<E> {
    [
        t1(),
        vec![
            phase(0, Phase::End),
            E::TurnStarted { turn: 2, seat: 1 },
            phase(1, Phase::Draw),
            E::CardDrawn { seat: 1, card: p(1, 21) },
        ],
        extra,
        vec![phase(1, ph)],
    ]
    .concat()
}

/// Both vanguards grade 3 (p0-45 and p1-45, superior rides by effect).
fn grade3() -> Vec<E> {
    vec![cm(p(0, 45), Place::Circle(Circle::Vanguard)), cm(p(1, 45), Place::Circle(Circle::Vanguard))]
}

/// Bob's battle phase on turn 2; his vanguard p1-31 (grade 2, 10000) and Alice's p0-17 (grade 1, 8000).
fn battle(extra: Vec<E>) -> Vec<E> {
    t2_at(
        Phase::Battle,
        [vec![cm(p(1, 31), Place::Circle(Circle::Vanguard)), cm(p(0, 17), Place::Circle(Circle::Vanguard))], extra]
            .concat(),
    )
}

fn attack_vc() -> E {
    E::AttackDeclared { seat: 1, attacker: Circle::Vanguard, target: Circle::Vanguard }
}

/// Bob's vanguard attack has hit Alice's vanguard (1 damage owed).
fn hit(extra: Vec<E>) -> Vec<E> {
    [battle(extra), vec![attack_vc(), E::DriveChecked { seat: 1, card: p(1, 18) }, E::AttackResolved { hit: true }]]
        .concat()
}

/// `n` damage cards for `seat` (cards 25.. of the deck).
fn damage(seat: u8, n: usize) -> Vec<E> {
    (0..n).map(|i| cm(p(seat, 25 + i), Place::Damage)).collect()
}

/// Every remaining deck card of `seat` to the drop zone (from index 26 on, plus the rest).
fn empty_deck(seat: u8) -> Vec<E> {
    let used: &[usize] = if seat == 0 { &[0, 17, 31, 42, 1, 5, 21] } else { &[0, 17, 31, 42, 1, 5] };
    (0..50).filter(|i| !used.contains(i)).map(|i| cm(p(seat, i), Place::Drop)).collect()
}

fn legion_board() -> Vec<E> {
    let mut v = vec![cm(p(0, 48), Place::Circle(Circle::Vanguard)), cm(p(1, 45), Place::Circle(Circle::Vanguard))];
    v.extend([2, 3, 4, 6, 7, 8, 10, 11].iter().map(|i| cm(p(0, *i), Place::Drop)));
    v
}

fn legion(returned: [usize; 4], mate: usize) -> E {
    E::LegionPerformed { seat: 0, returned: returned.iter().map(|i| p(0, *i)).collect(), mate: p(0, mate) }
}

/// A deck whose G deck is full: eight G units (VG-DECK-6, VG-ZONE-7).
fn full_g_deck() -> DeckList {
    super::alpha_deck(&["TA-G1", "TA-G1", "TA-G1", "TA-G2", "TA-G2", "TA-G2", "TA-G3", "TA-G3"])
}

/// The main deck with `swaps` (index, card) applied.
fn deck_with(swaps: &[(usize, &str)]) -> DeckList {
    let mut d = deck();
    for (i, id) in swaps {
        d.main[*i] = (*id).into();
    }
    d
}

/// Bob's stride phase on turn 2, both vanguards grade 3 and p1-46 in his hand, with `extra` first.
fn stride_ready(extra: Vec<E>) -> Vec<E> {
    t2_at(Phase::Stride, [grade3(), vec![cm(p(1, 46), Place::Hand)], extra].concat())
}

fn stride_g0() -> E {
    E::Strode { seat: 1, g_unit: g(1, 0), heart: p(1, 45), discarded: vec![p(1, 46)] }
}

/// The current turn (of `seat`, in any phase) ends and the opponent's turn `turn` runs to its
/// draw of card `drew`.
fn next_turn(seat: u8, turn: u32, drew: usize) -> Vec<E> {
    let next = 1 - seat;
    vec![
        phase(seat, Phase::End),
        E::TurnStarted { turn, seat: next },
        phase(next, Phase::Draw),
        E::CardDrawn { seat: next, card: p(next, drew) },
    ]
}

/// Bob performed legion on turn 2 (vanguard p1-48, mate p1-43; Alice's vanguard grade 3).
fn bob_legion() -> Vec<E> {
    let board = vec![
        cm(p(1, 48), Place::Circle(Circle::Vanguard)),
        cm(p(0, 45), Place::Circle(Circle::Vanguard)),
        cm(p(1, 2), Place::Drop),
        cm(p(1, 3), Place::Drop),
        cm(p(1, 4), Place::Drop),
        cm(p(1, 6), Place::Drop),
    ];
    [
        t2_at(Phase::Main, board),
        vec![E::LegionPerformed { seat: 1, returned: [2, 3, 4, 6].iter().map(|i| p(1, *i)).collect(), mate: p(1, 43) }],
    ]
    .concat()
}

/// Bob's deck with two draw triggers of another clan (p1-2, p1-3): they do not activate (VG-BATTLE-9).
fn beta_draw_triggers() -> VanguardConfig {
    config_with(vec![deck(), deck_with(&[(2, "TB-01"), (3, "TB-01")])], &[])
}

/// Both players at 5 damage; Bob's attack hit and Alice's damage check revealed a heal (p0-9).
fn heal_at_five() -> Vec<E> {
    [hit([damage(0, 5), damage(1, 5)].concat()), vec![E::DamageChecked { seat: 0, card: p(0, 9) }]].concat()
}

/// Alice's vanguard p0-0 and rear-guard p0-17 (on fl) rested by effects on turn 1 (the client's
/// position toggle), `bob` on Bob's turn 2, and Alice's turn 3 begun: her stand phase.
fn alice_rested(bob: Vec<E>) -> Vec<E> {
    let rest = |card| client(0, ClientOp::PositionChanged { card, rested: true });
    [
        t1_at(Phase::Main, vec![cm(p(0, 17), Place::Circle(Circle::FrontLeft))]),
        vec![rest(p(0, 0)), rest(p(0, 17))],
        next_turn(0, 2, 22),
        bob,
        vec![phase(1, Phase::End), E::TurnStarted { turn: 3, seat: 0 }],
    ]
    .concat()
}

/// Bob locked Alice's rested rear-guard p0-17 on his turn.
fn bob_locks() -> Vec<E> {
    vec![client(1, ClientOp::LockChanged { card: p(0, 17), locked: true })]
}

fn stood(cards: &[String]) -> E {
    E::UnitsStood { seat: 0, cards: cards.to_vec() }
}

/// Bob's end phase on turn 2 after `extra` in his main phase.
fn bob_ends(extra: Vec<E>) -> Vec<E> {
    [t2_at(Phase::Main, extra), vec![phase(1, Phase::End)]].concat()
}

/// Bob's end phase on turn 2, his G unit p1-g0 strode over p1-45.
fn bob_ends_strode() -> Vec<E> {
    [stride_ready(vec![]), vec![stride_g0(), phase(1, Phase::End)]].concat()
}

fn cleaned(g_unit: Option<String>, flipped: Vec<String>, expired: Vec<String>) -> E {
    E::TurnCleanedUp { seat: 1, g_unit, flipped, expired }
}

fn until_end_of_turn(card: String) -> E {
    E::ModifierApplied { card, stat: Stat::Power, delta: 5000, until: Until::EndOfTurn }
}

fn turn_3() -> E {
    E::TurnStarted { turn: 3, seat: 0 }
}

/// Bob's vanguard attacked Alice's rear-guard p0-2 on fl and hit.
fn rear_hit() -> Vec<E> {
    let attack = E::AttackDeclared { seat: 1, attacker: Circle::Vanguard, target: Circle::FrontLeft };
    let resolved = vec![attack, E::DriveChecked { seat: 1, card: p(1, 18) }, E::AttackResolved { hit: true }];
    [battle(vec![cm(p(0, 2), Place::Circle(Circle::FrontLeft))]), resolved].concat()
}

/// Alice guarded Bob's vanguard attack with p0-1, and it failed.
fn guarded() -> Vec<E> {
    let guard = E::GuardianCalled { seat: 0, card: p(0, 1) };
    [
        battle(vec![]),
        vec![attack_vc(), guard, E::DriveChecked { seat: 1, card: p(1, 18) }, E::AttackResolved { hit: false }],
    ]
    .concat()
}

fn guardians_retired(cards: Vec<String>) -> E {
    E::GuardiansRetired { seat: 0, cards }
}

/// Alice's main phase on turn 1 with p0-17 on fl, and p0-1 called onto fl (the call displaced p0-17).
fn called_onto_p0_17() -> Vec<E> {
    let onto = E::Called { seat: 0, card: p(0, 1), circle: Circle::FrontLeft };
    [t1_at(Phase::Main, vec![cm(p(0, 17), Place::Circle(Circle::FrontLeft))]), vec![onto]].concat()
}

fn occupant_retired(card: String) -> E {
    E::OccupantRetired { seat: 0, card, circle: Circle::FrontLeft }
}

/// Bob's stride over p1-45, deleted by Alice (the client's delete) before his stride phase when
/// `deleted`.
fn strode_over(deleted: bool) -> Vec<E> {
    let delete = client(0, ClientOp::DeleteChanged { card: p(1, 45), deleted: true });
    [stride_ready(if deleted { vec![delete] } else { vec![] }), vec![stride_g0()]].concat()
}

fn heart_face_up(cards: Vec<String>) -> E {
    E::HeartTurnedFaceUp { seat: 1, cards }
}

/// Bob's legion (p1-48 and its mate p1-43), then p1-44 put onto his vanguard circle by an effect:
/// a ride on the legion.
fn rode_on_legion() -> Vec<E> {
    [bob_legion(), vec![cm(p(1, 44), Place::Circle(Circle::Vanguard))]].concat()
}

fn mate_to_soul(card: String) -> E {
    E::LegionMateMovedToSoul { seat: 1, card }
}

cases! {
    // Version 5: a displaced occupant's retirement, a deleted heart turned face up and a legion
    // mate moved to the soul are steps of their own, recorded after the call, stride or ride.
    vg_zone_5_the_game_moves_on_with_the_occupant_unretired ["VG-ZONE-5"] => case(called_onto_p0_17(), phase(0, Phase::Battle), &["VG-ZONE-5"]);
    vg_zone_5_a_second_call_before_the_retirement ["VG-ZONE-5"] => case(called_onto_p0_17(), E::Called { seat: 0, card: p(0, 5), circle: Circle::BackCenter }, &["VG-ZONE-5"]);
    vg_zone_5_retired_a_unit_the_call_did_not_displace ["VG-ZONE-5"] => case(called_onto_p0_17(), occupant_retired(p(0, 1)), &["VG-ZONE-5"]);
    vg_zone_5_retired_before_the_call ["VG-ZONE-5"] => case(t1_at(Phase::Main, vec![cm(p(0, 17), Place::Circle(Circle::FrontLeft))]), occupant_retired(p(0, 17)), &["VG-ZONE-5"]);
    vg_zone_5_occupant_retired_after_the_call ["VG-ZONE-5"] => case(called_onto_p0_17(), occupant_retired(p(0, 17)), &[]);
    vg_zone_5_an_effects_records_may_come_before_the_retirement ["VG-ZONE-5"] => case(called_onto_p0_17(), until_end_of_turn(p(0, 1)), &[]);
    vg_zone_5_the_game_moves_on_after_the_retirement ["VG-ZONE-5"] => case([called_onto_p0_17(), vec![occupant_retired(p(0, 17))]].concat(), phase(0, Phase::Battle), &[]);
    vg_zone_5_a_call_onto_an_empty_circle_owes_nothing ["VG-ZONE-5"] => case([t1_at(Phase::Main, vec![]), vec![E::Called { seat: 0, card: p(0, 1), circle: Circle::FrontLeft }]].concat(), phase(0, Phase::Battle), &[]);
    vg_zone_5_a_move_onto_an_occupied_circle_swaps ["VG-ZONE-5"] => case([t1_at(Phase::Main, vec![cm(p(0, 17), Place::Circle(Circle::FrontLeft)), cm(p(0, 1), Place::Circle(Circle::BackLeft))]), vec![E::RearGuardMoved { seat: 0, from: Circle::BackLeft, to: Circle::FrontLeft }]].concat(), phase(0, Phase::Battle), &[]);
    vg_stride_2_the_game_moves_on_with_the_heart_face_down ["VG-STRIDE-2"] => case(strode_over(true), phase(1, Phase::Main), &["VG-STRIDE-2"]);
    vg_stride_2_turned_up_a_card_not_the_heart ["VG-STRIDE-2"] => case(strode_over(true), heart_face_up(vec![p(1, 0)]), &["VG-STRIDE-2"]);
    vg_stride_2_nothing_to_turn_face_up ["VG-STRIDE-2"] => case(strode_over(false), heart_face_up(vec![p(1, 45)]), &["VG-STRIDE-2"]);
    vg_stride_2_deleted_heart_turned_face_up ["VG-STRIDE-2"] => case(strode_over(true), heart_face_up(vec![p(1, 45)]), &[]);
    vg_stride_2_the_game_moves_on_after_the_flip ["VG-STRIDE-2"] => case([strode_over(true), vec![heart_face_up(vec![p(1, 45)])]].concat(), phase(1, Phase::Main), &[]);
    vg_stride_2_a_face_up_heart_owes_nothing ["VG-STRIDE-2"] => case(strode_over(false), phase(1, Phase::Main), &[]);
    vg_kw_8_the_game_moves_on_with_the_mate_beside_the_new_vanguard ["VG-KW-8"] => case(rode_on_legion(), phase(1, Phase::Battle), &["VG-KW-8"]);
    vg_kw_8_moved_the_leader_not_the_mate ["VG-KW-8"] => case(rode_on_legion(), mate_to_soul(p(1, 48)), &["VG-KW-8"]);
    vg_kw_8_no_ride_no_mate_to_move ["VG-KW-8"] => case(bob_legion(), mate_to_soul(p(1, 43)), &["VG-KW-8"]);
    vg_kw_8_mate_moved_to_the_soul ["VG-KW-8"] => case(rode_on_legion(), mate_to_soul(p(1, 43)), &[]);
    vg_kw_8_the_game_moves_on_after_the_mate ["VG-KW-8"] => case([rode_on_legion(), vec![mate_to_soul(p(1, 43))]].concat(), phase(1, Phase::Battle), &[]);
    vg_kw_8_a_legion_not_ridden_upon_keeps_its_mate ["VG-KW-8"] => case(bob_legion(), phase(1, Phase::Battle), &[]);

    // Version 4: the stand phase's stand and the end phase's clean-up are steps of their own.
    vg_stand_1_left_rested ["VG-STAND-1"] => case(alice_rested(vec![]), phase(0, Phase::Draw), &["VG-STAND-1"]);
    vg_stand_1_one_unit_not_stood ["VG-STAND-1"] => case(alice_rested(vec![]), stood(&[p(0, 0)]), &["VG-STAND-1"]);
    vg_stand_1_a_locked_unit_stays_rested ["VG-STAND-1"] => case([alice_rested(bob_locks()), vec![stood(&[p(0, 0)])]].concat(), phase(0, Phase::Draw), &[]);
    vg_stand_1_both_stood ["VG-STAND-1"] => case(alice_rested(vec![]), stood(&[p(0, 0), p(0, 17)]), &[]);
    vg_kw_2_a_locked_unit_does_not_stand ["VG-KW-2"] => case(alice_rested(bob_locks()), stood(&[p(0, 0), p(0, 17)]), &["VG-KW-2"]);
    vg_stride_4_g_unit_left_on_the_vanguard_circle ["VG-STRIDE-4"] => case(bob_ends_strode(), turn_3(), &["VG-STRIDE-4"]);
    vg_stride_4_clean_up_without_the_g_unit ["VG-STRIDE-4"] => case(bob_ends_strode(), cleaned(None, vec![], vec![]), &["VG-STRIDE-4"]);
    vg_stride_4_g_unit_returned ["VG-STRIDE-4"] => case(bob_ends_strode(), cleaned(Some(g(1, 0)), vec![], vec![]), &[]);
    vg_stride_4_next_turn_after_the_return ["VG-STRIDE-4"] => case([bob_ends_strode(), vec![cleaned(Some(g(1, 0)), vec![], vec![])]].concat(), turn_3(), &[]);
    vg_end_2_modifier_kept_into_the_next_turn ["VG-END-2"] => case(bob_ends(vec![until_end_of_turn(p(1, 0))]), turn_3(), &["VG-END-2"]);
    vg_end_2_clean_up_keeps_a_modifier ["VG-END-2"] => case(bob_ends(vec![until_end_of_turn(p(1, 0))]), cleaned(None, vec![], vec![]), &["VG-END-2"]);
    vg_end_2_the_opponents_modifier_expires_too ["VG-END-2"] => case(bob_ends(vec![until_end_of_turn(p(0, 0))]), cleaned(None, vec![], vec![p(0, 0)]), &[]);
    vg_end_2_battle_modifiers_are_gone_already ["VG-END-2"] => case(bob_ends(vec![E::ModifierApplied { card: p(1, 0), stat: Stat::Power, delta: 5000, until: Until::EndOfBattle }]), turn_3(), &[]);
    vg_end_4_deleted_vanguard_left_face_down ["VG-END-4"] => case(bob_ends(vec![client(0, ClientOp::DeleteChanged { card: p(1, 0), deleted: true })]), turn_3(), &["VG-END-4"]);
    vg_end_4_clean_up_leaves_it_face_down ["VG-END-4"] => case(bob_ends(vec![client(0, ClientOp::DeleteChanged { card: p(1, 0), deleted: true })]), cleaned(None, vec![], vec![]), &["VG-END-4"]);
    vg_battle_10_hit_rear_guard_left_on_the_field ["VG-BATTLE-10"] => case(rear_hit(), E::BattleEnded {}, &["VG-BATTLE-10"]);
    vg_battle_10_retired_a_unit_not_hit ["VG-BATTLE-10"] => case(rear_hit(), E::HitUnitRetired { seat: 0, card: p(0, 17) }, &["VG-BATTLE-10"]);
    vg_battle_10_hit_rear_guard_retired ["VG-BATTLE-10"] => case(rear_hit(), E::HitUnitRetired { seat: 0, card: p(0, 2) }, &[]);
    vg_battle_10_battle_ends_after_the_retirement ["VG-BATTLE-10"] => case([rear_hit(), vec![E::HitUnitRetired { seat: 0, card: p(0, 2) }]].concat(), E::BattleEnded {}, &[]);
    vg_battle_14_guardian_left_on_the_circle ["VG-BATTLE-14"] => case(guarded(), E::BattleEnded {}, &["VG-BATTLE-14"]);
    vg_battle_14_a_guardian_not_retired ["VG-BATTLE-14"] => case(guarded(), guardians_retired(vec![]), &["VG-BATTLE-14"]);
    vg_battle_14_guardians_retired ["VG-BATTLE-14"] => case(guarded(), guardians_retired(vec![p(0, 1)]), &[]);
    vg_battle_14_battle_ends_after_the_guardians ["VG-BATTLE-14"] => case([guarded(), vec![guardians_retired(vec![p(0, 1)])]].concat(), E::BattleEnded {}, &[]);
    vg_end_4_the_opponents_locked_card_waits_for_its_owner ["VG-END-4"] => case(bob_ends(vec![cm(p(0, 2), Place::Circle(Circle::FrontLeft)), client(1, ClientOp::LockChanged { card: p(0, 2), locked: true })]), turn_3(), &[]);

    // Deck construction.
    vg_deck_ok [] => setup_case(deck(), &[]);
    vg_deck_1_exactly_fifty ["VG-DECK-1"] => setup_case({ let mut d = deck(); d.main.pop(); d }, &["VG-DECK-1"]);
    vg_deck_2_four_per_name ["VG-DECK-2"] => setup_case({ let mut d = deck(); d.main[48] = "TA-10".into(); d }, &["VG-DECK-2"]);
    vg_deck_3_sixteen_triggers ["VG-DECK-3"] => setup_case({ let mut d = deck(); d.main[1] = "TA-25".replace("25", "12"); d }, &["VG-DECK-3"]);
    vg_deck_4_four_heals ["VG-DECK-4"] => setup_case({ let mut d = deck(); d.main[13] = "TA-03".into(); d }, &["VG-DECK-2", "VG-DECK-4"]);
    vg_deck_5_four_sentinels ["VG-DECK-5"] => setup_case({ let mut d = deck(); d.main[25] = "TB-13".into(); d.main[26] = "TB-13".into(); d }, &["VG-DECK-5"]);
    vg_deck_6_no_g_units_in_the_main_deck ["VG-DECK-6"] => setup_case({ let mut d = deck(); d.main[49] = "TA-G1".into(); d }, &["VG-DECK-6"]);
    vg_deck_6_g_zone_holds_eight ["VG-DECK-6"] => setup_case({ let mut d = deck(); d.g = vec!["TA-G1".into(); 9]; d }, &["VG-DECK-6"]);
    vg_zone_7_only_g_units_in_the_g_zone ["VG-ZONE-7"] => setup_case({ let mut d = deck(); d.g.push("TA-10".into()); d }, &["VG-ZONE-7"]);
    vg_zone_7_effect_puts_a_unit_in_the_g_zone ["VG-ZONE-7"] => case(t1(), cm(p(0, 17), Place::GZone), &["VG-ZONE-7"]);

    // Setup.
    vg_setup_1_grade_0 ["VG-SETUP-1"] => case(vec![], E::StartingVanguardSet { seat: 0, card: p(0, 17) }, &["VG-SETUP-1"]);
    vg_setup_1_once ["VG-SETUP-1"] => case(setup()[..1].to_vec(), E::StartingVanguardSet { seat: 0, card: p(0, 1) }, &["VG-SETUP-1"]);
    vg_setup_2_first_player_once ["VG-SETUP-2"] => case(setup()[..3].to_vec(), E::FirstPlayerDetermined { first: 1 }, &["VG-SETUP-2"]);
    vg_setup_2_first_player_starts ["VG-SETUP-2"] => case(setup(), E::TurnStarted { turn: 1, seat: 1 }, &["VG-SETUP-2"]);
    vg_setup_2_no_attack_on_turn_1 ["VG-SETUP-2"] => case(t1_at(Phase::Battle, vec![]), E::AttackDeclared { seat: 0, attacker: Circle::Vanguard, target: Circle::Vanguard }, &["VG-SETUP-2"]);
    vg_setup_2_client_attack_on_turn_1 ["VG-SETUP-2"] => case(
        [setup(), vec![client(0, ClientOp::PhaseButton { phase: Phase::Ride }), client(0, ClientOp::Drew { card: p(0, 21) }), client(0, ClientOp::PhaseButton { phase: Phase::Battle })]].concat(),
        client(0, ClientOp::PositionChanged { card: p(0, 0), rested: true }),
        &["VG-SETUP-2"],
    );
    vg_open_3_both_first_turns ["VG-SETUP-2"] => case_with(&[("first_turn_attack", "both-first-turns")], battle(vec![]), attack_vc(), &["VG-SETUP-2"]);
    vg_setup_3_five_cards ["VG-SETUP-3"] => case(setup()[..3].to_vec(), E::OpeningHandDrawn { seat: 0, cards: vec![p(0, 1), p(0, 2)] }, &["VG-SETUP-3"]);
    vg_setup_3_after_the_starting_vanguard ["VG-SETUP-3"] => case(vec![], E::OpeningHandDrawn { seat: 0, cards: (1..6).map(|i| p(0, i)).collect() }, &["VG-SETUP-3"]);
    vg_setup_4_redraw_as_many ["VG-SETUP-4"] => case(setup()[..5].to_vec(), E::Redrawn { seat: 0, returned: vec![p(0, 42)], drawn: vec![p(0, 43), p(0, 44)] }, &["VG-SETUP-4"]);
    vg_setup_4_redraw_once ["VG-SETUP-4"] => case(
        [setup()[..5].to_vec(), vec![E::Redrawn { seat: 0, returned: vec![p(0, 42)], drawn: vec![p(0, 43)] }]].concat(),
        E::Redrawn { seat: 0, returned: vec![p(0, 43)], drawn: vec![p(0, 42)] },
        &["VG-SETUP-4"],
    );
    vg_setup_4_redraw_ok ["VG-SETUP-4"] => case(setup()[..5].to_vec(), E::Redrawn { seat: 0, returned: vec![p(0, 42), p(0, 31)], drawn: vec![p(0, 42), p(0, 2)] }, &[]);
    vg_setup_5_flip_after_both_hands ["VG-SETUP-5"] => case(setup()[..4].to_vec(), E::VanguardsRevealed {}, &["VG-SETUP-5"]);
    vg_setup_5_no_turn_before_the_flip ["VG-SETUP-5"] => case(setup()[..5].to_vec(), E::TurnStarted { turn: 1, seat: 0 }, &["VG-SETUP-5"]);

    // Winning and losing.
    vg_win_1_nobody_lost ["VG-WIN-1"] => case(t1(), E::GameEnded { loser: Some(1), reason: LossReason::SixDamage }, &["VG-WIN-1"]);
    vg_win_2_six_damage_loses ["VG-WIN-2"] => case([t1(), damage(1, 6)].concat(), E::GameEnded { loser: Some(1), reason: LossReason::SixDamage }, &[]);
    vg_win_2_play_on_after_six ["VG-WIN-2"] => case([t1(), damage(1, 6)].concat(), cm(p(1, 40), Place::Damage), &["VG-WIN-2"]);
    vg_win_2_the_wrong_loser ["VG-WIN-2"] => case([t1(), damage(1, 6)].concat(), E::GameEnded { loser: Some(0), reason: LossReason::SixDamage }, &["VG-WIN-2"]);
    vg_win_3_empty_deck_loses ["VG-WIN-3"] => case([t1(), empty_deck(1)].concat(), phase(0, Phase::Ride), &["VG-WIN-3"]);
    vg_win_3_empty_deck_loss_recorded ["VG-WIN-3"] => case([t1(), empty_deck(1)].concat(), E::GameEnded { loser: Some(1), reason: LossReason::DeckOut }, &[]);
    vg_win_4_nothing_after_the_result ["VG-WIN-4"] => case([t1(), damage(1, 6), vec![E::GameEnded { loser: Some(1), reason: LossReason::SixDamage }]].concat(), phase(0, Phase::Ride), &["VG-WIN-4"]);
    vg_open_4_both_lose_is_a_draw ["VG-OPEN-4"] => Case { tolerated: vec!["VG-WIN-2", "VG-WIN-3"], ..case([t1(), damage(1, 6), damage(0, 6)].concat(), E::GameEnded { loser: Some(1), reason: LossReason::SixDamage }, &["VG-OPEN-4"]) };
    vg_open_4_draw_recorded ["VG-OPEN-4"] => Case { tolerated: vec!["VG-WIN-2", "VG-WIN-3"], ..case([t1(), damage(1, 6), damage(0, 6)].concat(), E::GameEnded { loser: None, reason: LossReason::SixDamage }, &[]) };
    vg_open_4_active_player_loses ["VG-OPEN-4"] => Case { tolerated: vec!["VG-WIN-2", "VG-WIN-3"], ..case_with(&[("simultaneous_loss", "active-player-loses")], [t1(), damage(1, 6), damage(0, 6)].concat(), E::GameEnded { loser: Some(1), reason: LossReason::SixDamage }, &["VG-OPEN-4"]) };

    // Turn structure.
    vg_turn_1_phases_in_order ["VG-TURN-1"] => case(t1_at(Phase::Main, vec![]), phase(0, Phase::Ride), &["VG-TURN-1"]);
    vg_turn_1_not_the_opponents_phase ["VG-TURN-1"] => case(t1(), phase(1, Phase::Ride), &["VG-TURN-1"]);
    vg_turn_2_no_return_to_main ["VG-TURN-2"] => case(t1_at(Phase::Battle, vec![]), phase(0, Phase::Main), &["VG-TURN-2"]);
    vg_turn_2_no_call_in_battle ["VG-TURN-2"] => case(t1_at(Phase::Battle, vec![]), E::Called { seat: 0, card: p(0, 1), circle: Circle::BackCenter }, &["VG-TURN-2"]);
    vg_draw_1_one_draw ["VG-DRAW-1"] => case(t1(), E::CardDrawn { seat: 0, card: p(0, 22) }, &["VG-DRAW-1"]);
    vg_draw_1_draw_phase_not_skipped ["VG-DRAW-1"] => case([setup(), vec![E::TurnStarted { turn: 1, seat: 0 }, phase(0, Phase::Draw)]].concat(), phase(0, Phase::Ride), &["VG-DRAW-1"]);
    vg_draw_1_client_draw_without_cause ["VG-DRAW-1"] => case(t1_at(Phase::Main, vec![]), client(0, ClientOp::Drew { card: p(0, 22) }), &["VG-DRAW-1"]);
    vg_end_1_turns_alternate ["VG-END-1"] => case([t1(), vec![phase(0, Phase::End)]].concat(), E::TurnStarted { turn: 2, seat: 0 }, &["VG-END-1"]);
    vg_end_1_turn_ends_first ["VG-END-1"] => case(t1(), E::TurnStarted { turn: 2, seat: 1 }, &["VG-END-1"]);

    // Grade assist.
    vg_ga_ok ["VG-GA-3"] => case(
        t1_at(Phase::GradeAssist, vec![cm(p(0, 17), Place::Drop), cm(p(0, 21), Place::Drop)]),
        E::GradeAssisted { seat: 0, taken: Some(p(0, 25)), removed: vec![p(0, 31), p(0, 42), g(0, 0), g(0, 1)] },
        &[],
    );
    vg_ga_1_grade_3_vanguard ["VG-GA-1"] => case(
        t1_at(Phase::GradeAssist, vec![cm(p(0, 45), Place::Circle(Circle::Vanguard))]),
        E::GradeAssisted { seat: 0, taken: None, removed: vec![p(0, 31), p(0, 42), g(0, 0), g(0, 1)] },
        &["VG-GA-1"],
    );
    vg_ga_1_hand_can_ride ["VG-GA-1"] => case(t1_at(Phase::GradeAssist, vec![]), E::GradeAssisted { seat: 0, taken: None, removed: vec![p(0, 31), p(0, 42), g(0, 0), g(0, 1)] }, &["VG-GA-1"]);
    vg_ga_2_between_draw_and_ride ["VG-GA-2"] => case(
        t1_at(Phase::Ride, vec![cm(p(0, 17), Place::Drop), cm(p(0, 21), Place::Drop)]),
        E::GradeAssisted { seat: 0, taken: None, removed: vec![p(0, 31), p(0, 42), g(0, 0), g(0, 1)] },
        &["VG-GA-2"],
    );
    vg_ga_3_one_grade_higher ["VG-GA-3"] => case(
        t1_at(Phase::GradeAssist, vec![cm(p(0, 17), Place::Drop), cm(p(0, 21), Place::Drop)]),
        E::GradeAssisted { seat: 0, taken: Some(p(0, 33)), removed: vec![p(0, 31), p(0, 42), g(0, 0), g(0, 1)] },
        &["VG-GA-3"],
    );
    vg_open_5_two_and_two ["VG-GA-3", "VG-OPEN-5"] => case(
        t1_at(Phase::GradeAssist, vec![cm(p(0, 17), Place::Drop), cm(p(0, 21), Place::Drop)]),
        E::GradeAssisted { seat: 0, taken: None, removed: vec![p(0, 31), p(0, 42)] },
        &["VG-GA-3"],
    );
    vg_open_5_two_total ["VG-OPEN-5"] => case_with(
        &[("grade_assist_removal", "two-total")],
        t1_at(Phase::GradeAssist, vec![cm(p(0, 17), Place::Drop), cm(p(0, 21), Place::Drop)]),
        E::GradeAssisted { seat: 0, taken: None, removed: vec![p(0, 31), p(0, 42)] },
        &[],
    );
    vg_open_5_once_per_turn ["VG-OPEN-5"] => case(
        [
            t1_at(Phase::GradeAssist, vec![cm(p(0, 17), Place::Drop), cm(p(0, 21), Place::Drop)]),
            vec![E::GradeAssisted { seat: 0, taken: None, removed: vec![p(0, 31), p(0, 42), g(0, 0), g(0, 1)] }],
        ]
        .concat(),
        E::GradeAssisted { seat: 0, taken: None, removed: vec![p(0, 1), p(0, 5), g(0, 2), g(0, 3)] },
        &["VG-OPEN-5"],
    );

    // Ride.
    vg_ride_ok ["VG-RIDE-2"] => case(t1_at(Phase::Ride, vec![]), E::Rode { seat: 0, card: p(0, 17) }, &[]);
    vg_ride_1_in_the_ride_phase ["VG-RIDE-1"] => case(t1_at(Phase::Main, vec![]), E::Rode { seat: 0, card: p(0, 17) }, &["VG-RIDE-1"]);
    vg_ride_2_one_grade_up ["VG-RIDE-2"] => case(t1_at(Phase::Ride, vec![]), E::Rode { seat: 0, card: p(0, 31) }, &["VG-RIDE-2"]);
    vg_ride_3_once_per_turn ["VG-RIDE-3"] => case([t1_at(Phase::Ride, vec![]), vec![E::Rode { seat: 0, card: p(0, 17) }]].concat(), E::Rode { seat: 0, card: p(0, 21) }, &["VG-RIDE-3"]);
    vg_ride_6_superior_ride_ignores_grade ["VG-RIDE-2"] => case(t1_at(Phase::Ride, vec![]), E::SuperiorRode { seat: 0, card: p(0, 42), from: Place::Hand, source: p(0, 0) }, &[]);
    vg_ride_7_superior_ride_after_a_ride ["VG-RIDE-3"] => case([t1_at(Phase::Ride, vec![]), vec![E::Rode { seat: 0, card: p(0, 17) }]].concat(), E::SuperiorRode { seat: 0, card: p(0, 42), from: Place::Hand, source: p(0, 17) }, &[]);
    vg_ride_8_no_ride_over_a_g_unit ["VG-RIDE-8"] => case(
        [t2_at(Phase::Stride, [grade3(), vec![cm(p(1, 46), Place::Hand)]].concat()), vec![E::Strode { seat: 1, g_unit: g(1, 0), heart: p(1, 45), discarded: vec![p(1, 46)] }]].concat(),
        E::SuperiorRode { seat: 1, card: p(1, 42), from: Place::Hand, source: p(1, 45) },
        &["VG-RIDE-8"],
    );
    vgc_upd_2_client_cannot_ride_over_a_g_unit ["VGC-UPD-2", "VG-RIDE-1", "VG-RIDE-2"] => case(
        [t2_at(Phase::Stride, [grade3(), vec![cm(p(1, 46), Place::Hand)]].concat()), vec![E::Strode { seat: 1, g_unit: g(1, 0), heart: p(1, 45), discarded: vec![p(1, 46)] }]].concat(),
        client(1, ClientOp::Rode { card: p(1, 42) }),
        &["VGC-UPD-2", "VG-RIDE-1", "VG-RIDE-2"],
    );
    vg_kw_1_forerunner ["VG-KW-1"] => case([t1_at(Phase::Ride, vec![]), vec![E::Rode { seat: 0, card: p(0, 17) }]].concat(), E::ForerunnerCalled { seat: 0, card: p(0, 0), circle: Circle::BackCenter }, &[]);
    vg_kw_1_only_the_ridden_upon_unit ["VG-KW-1"] => case([t1_at(Phase::Ride, vec![]), vec![E::Rode { seat: 0, card: p(0, 17) }]].concat(), E::ForerunnerCalled { seat: 0, card: p(0, 1), circle: Circle::BackCenter }, &["VG-KW-1"]);

    // Stride.
    vg_stride_ok ["VG-STRIDE-1"] => case(t2_at(Phase::Stride, [grade3(), vec![cm(p(1, 46), Place::Hand)]].concat()), E::Strode { seat: 1, g_unit: g(1, 0), heart: p(1, 45), discarded: vec![p(1, 46)] }, &[]);
    vg_stride_1_both_grade_3 ["VG-STRIDE-1"] => case(t2_at(Phase::Stride, vec![cm(p(1, 45), Place::Circle(Circle::Vanguard)), cm(p(1, 46), Place::Hand)]), E::Strode { seat: 1, g_unit: g(1, 0), heart: p(1, 45), discarded: vec![p(1, 46)] }, &["VG-STRIDE-1"]);
    vg_stride_1_discard_grades_3 ["VG-STRIDE-1"] => case(t2_at(Phase::Stride, grade3()), E::Strode { seat: 1, g_unit: g(1, 0), heart: p(1, 45), discarded: vec![p(1, 17)] }, &["VG-STRIDE-1"]);
    vg_stride_2_face_down_g_unit ["VG-STRIDE-2"] => case(
        t2_at(Phase::Stride, [grade3(), vec![cm(p(1, 46), Place::Hand), client(1, ClientOp::GZoneFlipped { card: g(1, 0), face_up: true })]].concat()),
        E::Strode { seat: 1, g_unit: g(1, 0), heart: p(1, 45), discarded: vec![p(1, 46)] },
        &["VG-STRIDE-2"],
    );
    vg_open_6_face_up_stride_allowed ["VG-OPEN-6"] => case_with(
        &[("stride_face_up", "allow")],
        t2_at(Phase::Stride, [grade3(), vec![cm(p(1, 46), Place::Hand), client(1, ClientOp::GZoneFlipped { card: g(1, 0), face_up: true })]].concat()),
        E::Strode { seat: 1, g_unit: g(1, 0), heart: p(1, 45), discarded: vec![p(1, 46)] },
        &[],
    );
    vg_open_6_one_stride_per_turn ["VG-OPEN-6", "VG-STRIDE-1"] => case(
        [t2_at(Phase::Stride, [grade3(), vec![cm(p(1, 46), Place::Hand), cm(p(1, 47), Place::Hand)]].concat()), vec![E::Strode { seat: 1, g_unit: g(1, 0), heart: p(1, 45), discarded: vec![p(1, 46)] }]].concat(),
        E::Strode { seat: 1, g_unit: g(1, 1), heart: p(1, 45), discarded: vec![p(1, 47)] },
        &["VG-OPEN-6", "VG-STRIDE-1"],
    );
    vg_stride_3_heart_is_the_vanguard ["VG-STRIDE-3"] => case(t2_at(Phase::Stride, [grade3(), vec![cm(p(1, 46), Place::Hand)]].concat()), E::Strode { seat: 1, g_unit: g(1, 0), heart: p(1, 42), discarded: vec![p(1, 46)] }, &["VG-STRIDE-3"]);

    // Main phase.
    vg_main_1_call_ok ["VG-MAIN-1"] => case(t1_at(Phase::Main, vec![]), E::Called { seat: 0, card: p(0, 1), circle: Circle::BackCenter }, &[]);
    vg_main_1_grade_at_most_the_vanguards ["VG-MAIN-1"] => case(t1_at(Phase::Main, vec![]), E::Called { seat: 0, card: p(0, 17), circle: Circle::FrontLeft }, &["VG-MAIN-1"]);
    vg_main_1_in_the_main_phase ["VG-MAIN-1"] => case(t1_at(Phase::Ride, vec![]), E::Called { seat: 0, card: p(0, 1), circle: Circle::BackCenter }, &["VG-MAIN-1"]);
    vg_main_1_client_call_grade ["VG-MAIN-1"] => case(t1_at(Phase::Main, vec![]), client(0, ClientOp::Moved { card: p(0, 42), to: Place::Circle(Circle::FrontRight) }), &["VG-MAIN-1"]);
    vg_zone_5_not_onto_the_vanguard_circle ["VG-ZONE-5"] => case(t1_at(Phase::Main, vec![]), E::Called { seat: 0, card: p(0, 1), circle: Circle::Vanguard }, &["VG-ZONE-5"]);
    vg_main_2_superior_call_sources ["VG-MAIN-2"] => case(t1_at(Phase::Main, vec![cm(p(0, 2), Place::Soul)]), E::SuperiorCalled { seat: 0, card: p(0, 2), from: Place::Soul, circle: Circle::BackLeft, source: p(0, 0) }, &["VG-MAIN-2"]);
    vg_main_2_from_the_drop_zone ["VG-MAIN-2"] => case(t1_at(Phase::Main, vec![cm(p(0, 2), Place::Drop)]), E::SuperiorCalled { seat: 0, card: p(0, 2), from: Place::Drop, circle: Circle::BackLeft, source: p(0, 0) }, &[]);
    vg_main_3_within_a_column ["VG-MAIN-3"] => case(t1_at(Phase::Main, vec![cm(p(0, 2), Place::Circle(Circle::FrontLeft))]), E::RearGuardMoved { seat: 0, from: Circle::FrontLeft, to: Circle::BackLeft }, &[]);
    vg_main_3_not_across_columns ["VG-MAIN-3"] => case(t1_at(Phase::Main, vec![cm(p(0, 2), Place::Circle(Circle::FrontLeft))]), E::RearGuardMoved { seat: 0, from: Circle::FrontLeft, to: Circle::FrontRight }, &["VG-MAIN-3"]);
    vg_main_3_behind_the_vanguard_stays ["VG-MAIN-3"] => case(t1_at(Phase::Main, vec![cm(p(0, 2), Place::Circle(Circle::BackCenter))]), E::RearGuardMoved { seat: 0, from: Circle::BackCenter, to: Circle::BackLeft }, &["VG-MAIN-3"]);
    vg_kw_2_locked_units_do_nothing ["VG-KW-2"] => case(t1_at(Phase::Main, vec![cm(p(0, 2), Place::Circle(Circle::FrontLeft)), client(1, ClientOp::LockChanged { card: p(0, 2), locked: true })]), E::RearGuardMoved { seat: 0, from: Circle::FrontLeft, to: Circle::BackLeft }, &["VG-KW-2"]);

    // Legion.
    vg_kw_8_legion_ok ["VG-KW-8"] => case(t1_at(Phase::Main, legion_board()), legion([2, 3, 4, 6], 43), &[]);
    vg_kw_8_opponent_grade_3 ["VG-KW-8"] => case(t1_at(Phase::Main, legion_board()[..1].iter().cloned().chain(legion_board()[2..].iter().cloned()).collect()), legion([2, 3, 4, 6], 43), &["VG-KW-8"]);
    vg_kw_8_four_from_the_drop_zone ["VG-KW-8"] => case(t1_at(Phase::Main, legion_board()), E::LegionPerformed { seat: 0, returned: vec![p(0, 2)], mate: p(0, 43) }, &["VG-KW-8"]);
    vg_kw_8_the_named_mate ["VG-KW-8"] => case(t1_at(Phase::Main, legion_board()), legion([2, 3, 4, 6], 46), &["VG-KW-8"]);
    vg_main_5_legion_in_the_main_phase ["VG-MAIN-5"] => case(t1_at(Phase::Ride, legion_board()), legion([2, 3, 4, 6], 43), &["VG-MAIN-5"]);
    vg_open_8_legion_once_per_game ["VG-OPEN-8"] => case([t1_at(Phase::Main, legion_board()), vec![legion([2, 3, 4, 6], 43)]].concat(), legion([7, 8, 10, 11], 44), &["VG-OPEN-8"]);
    vgc_ui_4_l_button_from_soul_or_deck ["VGC-UI-4"] => case(t1_at(Phase::Main, [legion_board(), vec![cm(p(0, 43), Place::Hand)]].concat()), client(0, ClientOp::Legion { mate: p(0, 43) }), &["VGC-UI-4"]);

    // Effects and costs.
    vg_eff_2_act_in_the_main_phase ["VG-EFF-2"] => case(t1_at(Phase::Battle, vec![]), E::EffectActivated { seat: 0, source: p(0, 0), kind: EffectKind::Act, description: "test".into() }, &["VG-EFF-2"]);
    vg_kw_7_limit_break_needs_damage ["VG-KW-7"] => case(t1_at(Phase::Main, vec![]), E::EffectActivated { seat: 0, source: p(0, 21), kind: EffectKind::Act, description: "LB4".into() }, &["VG-KW-7"]);
    vg_kw_7_limit_break_with_four ["VG-KW-7"] => case(t1_at(Phase::Main, damage(0, 4)), E::EffectActivated { seat: 0, source: p(0, 21), kind: EffectKind::Act, description: "LB4".into() }, &[]);
    vg_kw_10_generation_break ["VG-KW-10"] => case(t1_at(Phase::Main, vec![]), E::EffectActivated { seat: 0, source: g(0, 0), kind: EffectKind::Auto, description: "GB1".into() }, &["VG-KW-10"]);
    vg_kw_10_generation_break_face_up ["VG-KW-10"] => case(t1_at(Phase::Main, vec![client(0, ClientOp::GZoneFlipped { card: g(0, 1), face_up: true })]), E::EffectActivated { seat: 0, source: g(0, 0), kind: EffectKind::Auto, description: "GB1".into() }, &[]);
    vg_cost_1_soul_blast_from_the_soul ["VG-COST-1"] => case(t1_at(Phase::Main, vec![]), E::SoulBlasted { seat: 0, cards: vec![p(0, 2)] }, &["VG-COST-1"]);
    vg_cost_2_soul_charge_from_the_deck ["VG-COST-2"] => case(t1_at(Phase::Main, vec![]), E::SoulCharged { seat: 0, cards: vec![p(0, 17)] }, &["VG-COST-2"]);
    vg_cost_3_counter_blast_face_up ["VG-COST-3"] => case(t1_at(Phase::Main, [damage(0, 1), vec![E::CounterBlasted { seat: 0, cards: vec![p(0, 25)] }]].concat()), E::CounterBlasted { seat: 0, cards: vec![p(0, 25)] }, &["VG-COST-3"]);

    // Battle.
    vg_battle_2_front_row_attacker ["VG-BATTLE-2"] => case(battle(vec![cm(p(1, 2), Place::Circle(Circle::BackLeft))]), E::AttackDeclared { seat: 1, attacker: Circle::BackLeft, target: Circle::Vanguard }, &["VG-BATTLE-2"]);
    vg_battle_2_standing_attacker ["VG-BATTLE-2"] => case([battle(vec![]), vec![attack_vc(), E::DriveChecked { seat: 1, card: p(1, 18) }, E::AttackResolved { hit: true }, E::DamageChecked { seat: 0, card: p(0, 18) }, E::BattleEnded {}]].concat(), attack_vc(), &["VG-BATTLE-2"]);
    vg_battle_2_front_row_target ["VG-BATTLE-2"] => case(battle(vec![cm(p(0, 2), Place::Circle(Circle::BackLeft))]), E::AttackDeclared { seat: 1, attacker: Circle::Vanguard, target: Circle::BackLeft }, &["VG-BATTLE-2"]);
    vg_kw_4_lord ["VG-KW-4"] => Case::event(config_with(vec![deck(), { let mut d = deck(); d.main[25] = "TB-12".into(); d }], &[]), battle(vec![cm(p(1, 42), Place::Circle(Circle::FrontLeft)), cm(p(1, 25), Place::Circle(Circle::BackLeft))]), E::AttackDeclared { seat: 1, attacker: Circle::FrontLeft, target: Circle::Vanguard }, &["VG-KW-4"]);
    vg_kw_5_restraint ["VG-KW-5"] => case(battle(vec![cm(p(1, 39), Place::Circle(Circle::FrontLeft))]), E::AttackDeclared { seat: 1, attacker: Circle::FrontLeft, target: Circle::Vanguard }, &["VG-KW-5"]);
    vg_kw_2_locked_cannot_attack ["VG-KW-2"] => case(battle(vec![cm(p(1, 35), Place::Circle(Circle::FrontLeft)), client(0, ClientOp::LockChanged { card: p(1, 35), locked: true })]), E::AttackDeclared { seat: 1, attacker: Circle::FrontLeft, target: Circle::Vanguard }, &["VG-KW-2"]);
    vg_battle_3_boost_ok ["VG-BATTLE-3"] => case([battle(vec![cm(p(1, 2), Place::Circle(Circle::BackCenter))]), vec![attack_vc()]].concat(), E::Boosted { seat: 1, booster: Circle::BackCenter }, &[]);
    vg_battle_3_grade_0_1_boost ["VG-BATTLE-3"] => case([battle(vec![cm(p(1, 32), Place::Circle(Circle::BackCenter))]), vec![attack_vc()]].concat(), E::Boosted { seat: 1, booster: Circle::BackCenter }, &["VG-BATTLE-3"]);
    vg_battle_3_directly_behind ["VG-BATTLE-3"] => case([battle(vec![cm(p(1, 2), Place::Circle(Circle::BackLeft))]), vec![attack_vc()]].concat(), E::Boosted { seat: 1, booster: Circle::BackLeft }, &["VG-BATTLE-3"]);
    vg_battle_5_guard_grade ["VG-BATTLE-5"] => case([battle(vec![]), vec![attack_vc()]].concat(), E::GuardianCalled { seat: 0, card: p(0, 31) }, &["VG-BATTLE-5"]);
    vg_battle_5_guard_ok ["VG-BATTLE-5"] => case([battle(vec![]), vec![attack_vc()]].concat(), E::GuardianCalled { seat: 0, card: p(0, 1) }, &[]);
    vg_battle_5_only_the_defender_guards ["VG-BATTLE-5"] => case([battle(vec![]), vec![attack_vc()]].concat(), E::GuardianCalled { seat: 1, card: p(1, 1) }, &["VG-BATTLE-5"]);
    vg_battle_6_intercept_grade_2_front ["VG-BATTLE-6"] => case([battle(vec![cm(p(0, 32), Place::Circle(Circle::BackLeft))]), vec![attack_vc()]].concat(), E::Intercepted { seat: 0, circle: Circle::BackLeft }, &["VG-BATTLE-6"]);
    vg_battle_6_intercept_ok ["VG-BATTLE-6"] => case([battle(vec![cm(p(0, 32), Place::Circle(Circle::FrontLeft))]), vec![attack_vc()]].concat(), E::Intercepted { seat: 0, circle: Circle::FrontLeft }, &[]);
    vg_battle_6_never_the_vanguard ["VG-BATTLE-6"] => case([battle(vec![cm(p(0, 32), Place::Circle(Circle::Vanguard))]), vec![attack_vc()]].concat(), E::Intercepted { seat: 0, circle: Circle::Vanguard }, &["VG-BATTLE-6"]);
    vg_battle_7_one_drive_below_grade_3 ["VG-BATTLE-7"] => case([battle(vec![]), vec![attack_vc(), E::DriveChecked { seat: 1, card: p(1, 18) }]].concat(), E::DriveChecked { seat: 1, card: p(1, 19) }, &["VG-BATTLE-7"]);
    vg_battle_7_twin_drive ["VG-BATTLE-7"] => case([battle(vec![cm(p(1, 45), Place::Circle(Circle::Vanguard))]), vec![attack_vc(), E::DriveChecked { seat: 1, card: p(1, 18) }]].concat(), E::DriveChecked { seat: 1, card: p(1, 19) }, &[]);
    vg_battle_7_drives_before_resolving ["VG-BATTLE-7"] => case([battle(vec![]), vec![attack_vc()]].concat(), E::AttackResolved { hit: true }, &["VG-BATTLE-7"]);
    vg_battle_7_rear_guards_do_not_drive ["VG-BATTLE-7"] => case([battle(vec![cm(p(1, 35), Place::Circle(Circle::FrontLeft))]), vec![E::AttackDeclared { seat: 1, attacker: Circle::FrontLeft, target: Circle::Vanguard }]].concat(), E::DriveChecked { seat: 1, card: p(1, 18) }, &["VG-BATTLE-7"]);
    vg_battle_8_resolve_each_trigger ["VG-BATTLE-8"] => case([battle(vec![cm(p(1, 45), Place::Circle(Circle::Vanguard))]), vec![attack_vc(), E::DriveChecked { seat: 1, card: p(1, 6) }]].concat(), E::DriveChecked { seat: 1, card: p(1, 19) }, &["VG-BATTLE-8"]);
    vg_battle_9_same_clan_for_triggers ["VG-BATTLE-9"] => Case::event(beta_draw_triggers(), [battle(vec![]), vec![attack_vc(), E::DriveChecked { seat: 1, card: p(1, 2) }]].concat(), E::TriggerResolved { seat: 1, power_to: p(1, 31), critical_to: None, drew: Some(p(1, 19)), healed: None, stood: None }, &["VG-BATTLE-9"]);
    vg_battle_9_another_clans_trigger_is_just_a_card ["VG-BATTLE-9", "VG-BATTLE-7"] => Case::event(beta_draw_triggers(), [battle(vec![cm(p(1, 45), Place::Circle(Circle::Vanguard))]), vec![attack_vc(), E::DriveChecked { seat: 1, card: p(1, 2) }]].concat(), E::DriveChecked { seat: 1, card: p(1, 19) }, &[]);
    vg_battle_10_hit_when_at_least_equal ["VG-BATTLE-10"] => case([battle(vec![]), vec![attack_vc(), E::DriveChecked { seat: 1, card: p(1, 18) }]].concat(), E::AttackResolved { hit: false }, &["VG-BATTLE-10"]);
    vg_battle_10_shields_count ["VG-BATTLE-10"] => case([battle(vec![]), vec![attack_vc(), E::GuardianCalled { seat: 0, card: p(0, 1) }, E::DriveChecked { seat: 1, card: p(1, 18) }]].concat(), E::AttackResolved { hit: true }, &["VG-BATTLE-10"]);
    vg_battle_10_resolved_once ["VG-BATTLE-10"] => case(hit(vec![]), E::AttackResolved { hit: true }, &["VG-BATTLE-10"]);
    vg_battle_11_damage_check_after_a_hit ["VG-BATTLE-11"] => case([battle(vec![]), vec![attack_vc()]].concat(), E::DamageChecked { seat: 0, card: p(0, 18) }, &["VG-BATTLE-11"]);
    vg_battle_11_one_per_critical ["VG-BATTLE-11"] => case([hit(vec![]), vec![E::DamageChecked { seat: 0, card: p(0, 18) }]].concat(), E::DamageChecked { seat: 0, card: p(0, 19) }, &["VG-BATTLE-11"]);
    vg_battle_11_no_end_with_damage_owed ["VG-BATTLE-11"] => case(hit(vec![]), E::BattleEnded {}, &["VG-BATTLE-11"]);
    vg_battle_13_heal_saves_at_five ["VG-BATTLE-13"] => case(heal_at_five(), E::TriggerResolved { seat: 0, power_to: p(0, 17), critical_to: None, drew: None, healed: Some(p(0, 25)), stood: None }, &[]);
    vg_battle_13_no_loss_before_the_heal ["VG-BATTLE-13"] => case(heal_at_five(), E::GameEnded { loser: Some(0), reason: LossReason::SixDamage }, &["VG-BATTLE-13"]);
    vg_battle_14_one_battle_at_a_time ["VG-BATTLE-14"] => case([battle(vec![cm(p(1, 35), Place::Circle(Circle::FrontLeft))]), vec![attack_vc()]].concat(), E::AttackDeclared { seat: 1, attacker: Circle::FrontLeft, target: Circle::Vanguard }, &["VG-BATTLE-14"]);
    vg_battle_14_no_end_phase_mid_battle ["VG-BATTLE-14"] => case([battle(vec![]), vec![attack_vc()]].concat(), phase(1, Phase::End), &["VG-BATTLE-14"]);
    vg_battle_14_battle_ends ["VG-BATTLE-14"] => case([hit(vec![]), vec![E::DamageChecked { seat: 0, card: p(0, 18) }]].concat(), E::BattleEnded {}, &[]);

    // Triggers.
    vg_trig_1_only_from_checks ["VG-TRIG-1"] => case(battle(vec![]), E::TriggerResolved { seat: 1, power_to: p(1, 31), critical_to: None, drew: None, healed: None, stood: None }, &["VG-TRIG-1"]);
    vg_trig_3_draw_trigger_draws ["VG-TRIG-3"] => case([battle(vec![]), vec![attack_vc(), E::DriveChecked { seat: 1, card: p(1, 2) }]].concat(), E::TriggerResolved { seat: 1, power_to: p(1, 31), critical_to: None, drew: None, healed: None, stood: None }, &["VG-TRIG-3"]);
    vg_trig_4_critical_trigger ["VG-TRIG-4"] => case([battle(vec![]), vec![attack_vc(), E::DriveChecked { seat: 1, card: p(1, 6) }]].concat(), E::TriggerResolved { seat: 1, power_to: p(1, 31), critical_to: None, drew: None, healed: None, stood: None }, &["VG-TRIG-4"]);
    vg_trig_4_critical_ok ["VG-TRIG-4"] => case([battle(vec![]), vec![attack_vc(), E::DriveChecked { seat: 1, card: p(1, 6) }]].concat(), E::TriggerResolved { seat: 1, power_to: p(1, 31), critical_to: Some(p(1, 31)), drew: None, healed: None, stood: None }, &[]);
    vg_trig_5_heal_needs_as_much_damage ["VG-TRIG-5"] => case(
        [battle([damage(0, 1), damage(1, 2)].concat()), vec![attack_vc(), E::DriveChecked { seat: 1, card: p(1, 10) }]].concat(),
        E::TriggerResolved { seat: 1, power_to: p(1, 31), critical_to: None, drew: None, healed: Some(p(1, 25)), stood: None },
        &[],
    );
    vg_trig_5_no_heal_with_less_damage ["VG-TRIG-5"] => case(
        [battle([damage(0, 2), damage(1, 1)].concat()), vec![attack_vc(), E::DriveChecked { seat: 1, card: p(1, 10) }]].concat(),
        E::TriggerResolved { seat: 1, power_to: p(1, 31), critical_to: None, drew: None, healed: Some(p(1, 25)), stood: None },
        &["VG-TRIG-5"],
    );
    vg_trig_5_client_heal_with_less_damage ["VG-TRIG-5"] => case(
        [battle([damage(0, 2), damage(1, 1)].concat()), vec![attack_vc(), E::DriveChecked { seat: 1, card: p(1, 10) }, client(1, ClientOp::TriggerApplied { power_to: p(1, 31), critical_to: None })]].concat(),
        client(1, ClientOp::Moved { card: p(1, 25), to: Place::Drop }),
        &["VG-TRIG-5"],
    );
    vg_trig_6_stand_trigger_stands_a_rear_guard ["VG-TRIG-6"] => case(
        [battle(vec![cm(p(1, 35), Place::Circle(Circle::FrontLeft))]), vec![attack_vc(), E::DriveChecked { seat: 1, card: p(1, 14) }]].concat(),
        E::TriggerResolved { seat: 1, power_to: p(1, 31), critical_to: None, drew: None, healed: None, stood: Some(p(1, 31)) },
        &["VG-TRIG-6"],
    );
    vg_trig_6_client_stand_without_trigger ["VG-TRIG-6"] => case([battle(vec![]), vec![attack_vc()]].concat(), client(1, ClientOp::PositionChanged { card: p(1, 31), rested: false }), &["VG-TRIG-6"]);

    // The client's own constraints.
    vgc_ui_2_no_draw_button ["VGC-UI-2"] => case(t1(), client(0, ClientOp::PhaseButton { phase: Phase::Draw }), &["VGC-UI-2"]);
    vgc_op_3_checks_in_a_battle_phase ["VGC-OP-3"] => case(t1_at(Phase::Main, vec![]), client(0, ClientOp::Checked { card: p(0, 22) }), &["VGC-OP-3"]);
    vgc_op_10_lock_rear_guards_only ["VGC-OP-10"] => case(t1(), client(1, ClientOp::LockChanged { card: p(0, 0), locked: true }), &["VGC-OP-10"]);
    vgc_op_11_delete_the_vanguard_only ["VGC-OP-11"] => case(t1_at(Phase::Main, vec![cm(p(0, 2), Place::Circle(Circle::FrontLeft))]), client(1, ClientOp::DeleteChanged { card: p(0, 2), deleted: true }), &["VGC-OP-11"]);
    vgc_op_12_power_in_hundreds ["VGC-OP-12"] => case(t1(), client(0, ClientOp::PowerEdited { card: p(0, 0), mode: PowerEdit::Add, value: 150 }), &["VGC-OP-12"]);
    vgc_op_12_negative_allowed ["VGC-OP-12"] => case(t1(), client(0, ClientOp::PowerEdited { card: p(0, 0), mode: PowerEdit::Set, value: -300 }), &[]);
    vgc_op_12_client_only_policy ["VGC-OP-12"] => case_with(&[("power_multiple", "client-only")], t1(), client(0, ClientOp::PowerEdited { card: p(0, 0), mode: PowerEdit::Add, value: 150 }), &[]);
    vgc_upd_2_g_units_never_into_the_main_deck ["VGC-UPD-2", "VG-DECK-6"] => case(t1(), client(0, ClientOp::ToTopOfDeck { card: g(0, 0) }), &["VGC-UPD-2", "VG-DECK-6"]);

    // Judge's tricky cases: moves a table might think illegal, or the edge of a rule.
    vg_deck_1_starter_counts_g_deck_does_not ["VG-DECK-1"] => Case::setup(config_with(vec![full_g_deck(), deck()], &[]), &[]);
    vg_deck_2_exactly_four_copies ["VG-DECK-2"] => setup_case(deck_with(&[(25, "TB-10"), (26, "TB-10"), (27, "TB-10"), (28, "TB-10")]), &[]);
    vg_deck_3_triggers_of_another_clan_count ["VG-DECK-3"] => setup_case(deck_with(&[(1, "TB-01"), (5, "TB-02")]), &[]);
    vg_deck_4_four_heals_of_two_clans ["VG-DECK-4"] => setup_case(deck_with(&[(9, "TB-03"), (10, "TB-03")]), &[]);
    vg_deck_5_four_sentinels_of_two_names ["VG-DECK-5"] => setup_case(deck_with(&[(25, "TB-13")]), &[]);
    vg_deck_6_eight_g_units ["VG-DECK-6", "VG-ZONE-7"] => Case::setup(config_with(vec![full_g_deck(), full_g_deck()], &[]), &[]);
    vg_zone_5_call_onto_an_occupied_circle ["VG-ZONE-5", "VG-MAIN-1"] => case(t1_at(Phase::Main, vec![cm(p(0, 2), Place::Circle(Circle::FrontLeft))]), E::Called { seat: 0, card: p(0, 1), circle: Circle::FrontLeft }, &[]);
    vg_zone_7_g_unit_back_to_a_full_g_zone ["VG-ZONE-7"] => Case::event(
        config_with(vec![full_g_deck(), full_g_deck()], &[]),
        [stride_ready(vec![]), vec![stride_g0()]].concat(),
        cm(g(1, 0), Place::GZone),
        &[],
    );
    vg_setup_1_a_trigger_is_grade_0 ["VG-SETUP-1"] => case(vec![], E::StartingVanguardSet { seat: 0, card: p(0, 1) }, &[]);
    vg_setup_2_second_player_attacks_on_turn_2 ["VG-SETUP-2", "VG-BATTLE-2"] => case(battle(vec![]), attack_vc(), &[]);
    vg_setup_3_second_player_draws_first ["VG-SETUP-3"] => case(setup()[..3].to_vec(), E::OpeningHandDrawn { seat: 1, cards: HAND.iter().map(|i| p(1, *i)).collect() }, &[]);
    vg_setup_5_flip_without_redraws ["VG-SETUP-5"] => case(setup()[..5].to_vec(), E::VanguardsRevealed {}, &[]);
    vg_win_1_face_down_damage_counts ["VG-WIN-1", "VG-WIN-2"] => case(
        [t1(), damage(1, 5), vec![E::CounterBlasted { seat: 1, cards: vec![p(1, 25)] }, cm(p(1, 40), Place::Damage)]].concat(),
        E::GameEnded { loser: Some(1), reason: LossReason::SixDamage },
        &[],
    );
    vg_win_4_chat_after_the_result ["VG-WIN-4"] => case(
        [t1(), damage(1, 6), vec![E::GameEnded { loser: Some(1), reason: LossReason::SixDamage }]].concat(),
        E::ChatMessage { seat: 1, text: "good game".into() },
        &[],
    );
    vg_turn_1_empty_phases_pass_unrecorded ["VG-TURN-1"] => case(t1(), phase(0, Phase::Main), &[]);
    vg_turn_2_superior_call_in_the_battle_phase ["VG-TURN-2", "VG-MAIN-2"] => case(
        t1_at(Phase::Battle, vec![cm(p(0, 2), Place::Drop)]),
        E::SuperiorCalled { seat: 0, card: p(0, 2), from: Place::Drop, circle: Circle::BackLeft, source: p(0, 0) },
        &[],
    );
    vg_draw_1_client_draw_for_a_draw_trigger ["VG-DRAW-1"] => case(
        [battle(vec![]), vec![attack_vc(), E::DriveChecked { seat: 1, card: p(1, 2) }]].concat(),
        client(1, ClientOp::Drew { card: p(1, 19) }),
        &[],
    );
    vg_ga_1_grade_2_vanguard ["VG-GA-1", "VG-GA-3"] => case(
        t1_at(Phase::GradeAssist, vec![cm(p(0, 31), Place::Circle(Circle::Vanguard)), cm(p(0, 42), Place::Drop)]),
        E::GradeAssisted { seat: 0, taken: Some(p(0, 43)), removed: vec![p(0, 1), p(0, 5), g(0, 0), g(0, 1)] },
        &[],
    );
    vg_ga_2_second_players_grade_assist ["VG-GA-2"] => case(
        t2_at(Phase::GradeAssist, vec![cm(p(1, 17), Place::Drop), cm(p(1, 21), Place::Drop)]),
        E::GradeAssisted { seat: 1, taken: Some(p(1, 25)), removed: vec![p(1, 31), p(1, 42), g(1, 0), g(1, 1)] },
        &[],
    );
    vg_ride_1_ride_a_trigger_of_the_same_grade ["VG-RIDE-1", "VG-RIDE-2"] => case(t1_at(Phase::Ride, vec![]), E::Rode { seat: 0, card: p(0, 1) }, &[]);
    vg_ride_3_normal_ride_after_a_superior_ride ["VG-RIDE-3"] => case(
        [t1_at(Phase::Ride, vec![]), vec![E::SuperiorRode { seat: 0, card: p(0, 17), from: Place::Hand, source: p(0, 0) }]].concat(),
        E::Rode { seat: 0, card: p(0, 31) },
        &[],
    );
    vg_ride_8_face_up_g_units_are_not_on_the_field ["VG-RIDE-8"] => case(
        t1_at(Phase::Ride, vec![client(0, ClientOp::GZoneFlipped { card: g(0, 0), face_up: true })]),
        E::SuperiorRode { seat: 0, card: p(0, 42), from: Place::Hand, source: p(0, 0) },
        &[],
    );
    vg_stride_2_face_down_beside_a_face_up ["VG-STRIDE-2", "VG-STRIDE-1"] => case(
        stride_ready(vec![client(1, ClientOp::GZoneFlipped { card: g(1, 1), face_up: true })]),
        stride_g0(),
        &[],
    );
    vg_stride_3_the_legion_mate_as_the_heart ["VG-STRIDE-3"] => case(
        [bob_legion(), next_turn(1, 3, 22), next_turn(0, 4, 22), vec![phase(1, Phase::Stride)]].concat(),
        E::Strode { seat: 1, g_unit: g(1, 0), heart: p(1, 43), discarded: vec![p(1, 42)] },
        &[],
    );
    vg_main_5_second_players_legion ["VG-MAIN-5", "VG-KW-8"] => case(
        bob_legion()[..bob_legion().len() - 1].to_vec(),
        E::LegionPerformed { seat: 1, returned: [2, 3, 4, 6].iter().map(|i| p(1, *i)).collect(), mate: p(1, 43) },
        &[],
    );
    vg_open_8_legion_again_next_turn ["VG-OPEN-8"] => case_with(
        &[("legion_limit", "once-per-turn")],
        [
            t1_at(Phase::Main, legion_board()),
            vec![
                legion([2, 3, 4, 6], 43),
                E::SuperiorRode { seat: 0, card: p(0, 49), from: Place::DeckSearch, source: p(0, 48) },
                E::LegionMateMovedToSoul { seat: 0, card: p(0, 43) },
            ],
            next_turn(0, 2, 21),
            next_turn(1, 3, 22),
            vec![phase(0, Phase::Main)],
        ]
        .concat(),
        legion([7, 8, 10, 11], 44),
        &[],
    );
    vg_battle_2_target_a_front_row_rear_guard ["VG-BATTLE-2"] => case(
        battle(vec![cm(p(0, 2), Place::Circle(Circle::FrontLeft))]),
        E::AttackDeclared { seat: 1, attacker: Circle::Vanguard, target: Circle::FrontLeft },
        &[],
    );
    vg_battle_8_next_drive_after_the_trigger ["VG-BATTLE-8", "VG-BATTLE-7"] => case(
        [
            battle(vec![cm(p(1, 45), Place::Circle(Circle::Vanguard))]),
            vec![
                attack_vc(),
                E::DriveChecked { seat: 1, card: p(1, 6) },
                E::TriggerResolved { seat: 1, power_to: p(1, 45), critical_to: Some(p(1, 45)), drew: None, healed: None, stood: None },
            ],
        ]
        .concat(),
        E::DriveChecked { seat: 1, card: p(1, 19) },
        &[],
    );
    vg_battle_10_equal_power_hits ["VG-BATTLE-10"] => case(
        [
            t2_at(Phase::Battle, vec![cm(p(1, 31), Place::Circle(Circle::Vanguard)), cm(p(0, 32), Place::Circle(Circle::Vanguard))]),
            vec![attack_vc(), E::DriveChecked { seat: 1, card: p(1, 18) }],
        ]
        .concat(),
        E::AttackResolved { hit: true },
        &[],
    );
    vg_battle_11_two_checks_after_a_critical ["VG-BATTLE-11", "VG-TRIG-4"] => case(
        [
            battle(vec![]),
            vec![
                attack_vc(),
                E::DriveChecked { seat: 1, card: p(1, 6) },
                E::TriggerResolved { seat: 1, power_to: p(1, 31), critical_to: Some(p(1, 31)), drew: None, healed: None, stood: None },
                E::AttackResolved { hit: true },
                E::DamageChecked { seat: 0, card: p(0, 18) },
            ],
        ]
        .concat(),
        E::DamageChecked { seat: 0, card: p(0, 19) },
        &[],
    );
    vg_end_1_turn_ends_from_the_draw_phase ["VG-END-1"] => case([t1(), vec![phase(0, Phase::End)]].concat(), E::TurnStarted { turn: 2, seat: 1 }, &[]);
    vg_trig_1_power_and_critical_to_different_units ["VG-TRIG-1", "VG-TRIG-4"] => case(
        [battle(vec![cm(p(1, 35), Place::Circle(Circle::FrontLeft))]), vec![attack_vc(), E::DriveChecked { seat: 1, card: p(1, 6) }]].concat(),
        E::TriggerResolved { seat: 1, power_to: p(1, 35), critical_to: Some(p(1, 31)), drew: None, healed: None, stood: None },
        &[],
    );
    vg_trig_3_draw_trigger_in_a_damage_check ["VG-TRIG-3"] => case(
        [hit(vec![]), vec![E::DamageChecked { seat: 0, card: p(0, 2) }]].concat(),
        E::TriggerResolved { seat: 0, power_to: p(0, 17), critical_to: None, drew: Some(p(0, 19)), healed: None, stood: None },
        &[],
    );
    vg_trig_6_stand_the_rear_guard_that_attacked ["VG-TRIG-6"] => case(
        [
            battle(vec![cm(p(1, 35), Place::Circle(Circle::FrontLeft))]),
            vec![
                E::AttackDeclared { seat: 1, attacker: Circle::FrontLeft, target: Circle::Vanguard },
                E::AttackResolved { hit: true },
                E::DamageChecked { seat: 0, card: p(0, 18) },
                E::BattleEnded {},
                attack_vc(),
                E::DriveChecked { seat: 1, card: p(1, 14) },
            ],
        ]
        .concat(),
        E::TriggerResolved { seat: 1, power_to: p(1, 31), critical_to: None, drew: None, healed: None, stood: Some(p(1, 35)) },
        &[],
    );
    vg_eff_2_auto_in_the_opponents_battle ["VG-EFF-2"] => case(
        [battle(vec![]), vec![attack_vc()]].concat(),
        E::EffectActivated { seat: 0, source: p(0, 17), kind: EffectKind::Auto, description: "test".into() },
        &[],
    );
    vg_cost_1_soul_blast_the_ridden_upon_unit ["VG-COST-1"] => case(
        [t1_at(Phase::Ride, vec![]), vec![E::Rode { seat: 0, card: p(0, 17) }, phase(0, Phase::Main)]].concat(),
        E::SoulBlasted { seat: 0, cards: vec![p(0, 0)] },
        &[],
    );
    vg_cost_2_soul_charge_a_trigger ["VG-COST-2"] => case(t1_at(Phase::Main, vec![]), E::SoulCharged { seat: 0, cards: vec![p(0, 2)] }, &[]);
    vg_cost_3_two_face_up_beside_a_face_down ["VG-COST-3"] => case(
        t1_at(Phase::Main, [damage(0, 3), vec![E::CounterBlasted { seat: 0, cards: vec![p(0, 25)] }]].concat()),
        E::CounterBlasted { seat: 0, cards: vec![p(0, 26), p(0, 27)] },
        &[],
    );
    vg_kw_2_a_locked_unit_can_be_attacked ["VG-KW-2"] => case(
        battle(vec![cm(p(0, 2), Place::Circle(Circle::FrontLeft)), client(1, ClientOp::LockChanged { card: p(0, 2), locked: true })]),
        E::AttackDeclared { seat: 1, attacker: Circle::Vanguard, target: Circle::FrontLeft },
        &[],
    );
    vg_kw_4_lord_with_only_its_clan ["VG-KW-4"] => case(
        battle(vec![cm(p(1, 42), Place::Circle(Circle::FrontLeft)), cm(p(1, 2), Place::Circle(Circle::BackLeft))]),
        E::AttackDeclared { seat: 1, attacker: Circle::FrontLeft, target: Circle::Vanguard },
        &[],
    );
    vg_kw_5_restraint_still_intercepts ["VG-KW-5", "VG-BATTLE-6"] => case(
        [battle(vec![cm(p(0, 39), Place::Circle(Circle::FrontLeft))]), vec![attack_vc()]].concat(),
        E::Intercepted { seat: 0, circle: Circle::FrontLeft },
        &[],
    );
    vgc_ui_2_ride_button_starts_the_turn ["VGC-UI-2"] => case([t1(), vec![phase(0, Phase::End)]].concat(), client(1, ClientOp::PhaseButton { phase: Phase::Ride }), &[]);
    vgc_ui_4_l_button_from_the_soul ["VGC-UI-4"] => case(t1_at(Phase::Main, [legion_board(), vec![cm(p(0, 43), Place::Soul)]].concat()), client(0, ClientOp::Legion { mate: p(0, 43) }), &[]);
    vgc_op_3_damage_check_in_the_opponents_battle ["VGC-OP-3"] => case(hit(vec![]), client(0, ClientOp::Checked { card: p(0, 18) }), &[]);
    vgc_op_10_lock_the_opponents_rear_guard ["VGC-OP-10"] => case(t2_at(Phase::Main, vec![cm(p(0, 2), Place::Circle(Circle::FrontLeft))]), client(1, ClientOp::LockChanged { card: p(0, 2), locked: true }), &[]);
    vgc_op_11_delete_the_opponents_vanguard ["VGC-OP-11"] => case(t2_at(Phase::Main, vec![]), client(1, ClientOp::DeleteChanged { card: p(0, 0), deleted: true }), &[]);
    vgc_upd_2_g_unit_back_to_the_g_zone_by_hand ["VGC-UPD-2"] => case([stride_ready(vec![]), vec![stride_g0()]].concat(), client(1, ClientOp::Moved { card: g(1, 0), to: Place::GZone }), &[]);

    // Recorder checks.
    kifu_card_1_card_where_the_event_says ["KIFU-CARD-1"] => case(t1_at(Phase::Main, vec![]), E::Called { seat: 0, card: p(0, 40), circle: Circle::BackLeft }, &["KIFU-CARD-1"]);
    kifu_card_2_unknown_instances ["KIFU-CARD-2"] => case(t1(), cm("p0-99".into(), Place::Drop), &["KIFU-CARD-2"]);
    kifu_seat_1_two_seats ["KIFU-SEAT-1"] => case(t1(), E::CardDrawn { seat: 2, card: p(0, 22) }, &["KIFU-SEAT-1"]);
}

/// Every Enforced rule in the coverage table is named by at least one case above.
#[test]
fn every_enforced_rule_has_a_case() {
    check_enforced_rules_have_cases(CASES, Vanguard::coverage());
}

/// `src/games/vanguard/scenarios.tsv` counts this table's illegal and tricky cases per rule ID.
#[test]
fn scenario_index_is_checked_in() {
    crate::game_support::check_scenario_index::<Vanguard>("vanguard", built_cases());
}

/// Versions 1 and 2 keep the general IDs their logs were audited under (a trigger without its
/// clan: VG-TRIG-1; a loss inside the heal window: VG-WIN-1), where version 3 cites VG-BATTLE-9
/// and VG-BATTLE-13.
#[test]
fn versions_1_and_2_keep_their_ids_where_version_3_is_specific() {
    use kifu::games::vanguard::{Vanguard as V1, VanguardV2 as V2};
    let moments = [
        (
            beta_draw_triggers(),
            [battle(vec![]), vec![attack_vc(), E::DriveChecked { seat: 1, card: p(1, 2) }]].concat(),
            E::TriggerResolved {
                seat: 1,
                power_to: p(1, 31),
                critical_to: None,
                drew: Some(p(1, 19)),
                healed: None,
                stood: None,
            },
            ("VG-TRIG-1", "VG-BATTLE-9"),
        ),
        (
            config_with(vec![deck(), deck()], &[]),
            heal_at_five(),
            E::GameEnded { loser: Some(0), reason: LossReason::SixDamage },
            ("VG-WIN-1", "VG-BATTLE-13"),
        ),
    ];
    for (config, given, when, (old, new)) in moments {
        let mut s = V1::setup(&config).unwrap();
        for g in &given {
            s = V1::apply(s, g);
        }
        let ids = |v: Vec<kifu::game::Violation>| v.into_iter().map(|v| v.rule).collect::<Vec<_>>();
        assert_eq!(ids(V1::validate(&s, &when)), vec![old]);
        assert_eq!(ids(V2::validate(&s, &when)), vec![old]);
        assert_eq!(ids(Vanguard::validate(&s, &when)), vec![new]);
    }
}

/// Versions 3, 4 and 5 self-play and audit clean, holding every seat to its turn (version 4 with
/// its stand and clean-up steps, version 5 with its occupants' retirements too).
#[test]
fn versions_3_to_5_self_play_and_audit_clean() {
    use crate::game_support::{check_self_play_audits_clean, table};
    check_self_play_audits_clean::<kifu::games::vanguard::VanguardV3>(0..10, &[table(2)]);
    check_self_play_audits_clean::<V4>(0..20, &[table(2)]);
    check_self_play_audits_clean::<Vanguard>(0..20, &[table(2)]);
}

/// Version 4's self-play records the stand, the clean-up and the retirements of a battle as their
/// own steps whenever something is due (units rested by attacks, a strode G unit, trigger power,
/// a hit rear-guard, guardians), and version 3's never does.
#[test]
fn version_4_self_play_records_the_stand_and_the_clean_up() {
    use crate::game_support::play;
    let count = |events: &[E], f: fn(&E) -> bool| events.iter().filter(|e| f(e)).count();
    let (mut stood, mut cleaned) = (0, 0);
    for seed in 0..5 {
        let v4 = play::<V4>(seed, false);
        stood += count(&v4.events, |e| matches!(e, E::UnitsStood { .. }));
        cleaned += count(&v4.events, |e| matches!(e, E::TurnCleanedUp { .. }));
        let v3 = play::<kifu::games::vanguard::VanguardV3>(seed, false);
        assert_eq!(count(&v3.events, |e| matches!(e, E::UnitsStood { .. } | E::TurnCleanedUp { .. })), 0);
    }
    assert!(stood >= 5 && cleaned >= 5, "5 games: {stood} stands, {cleaned} clean-ups recorded");
    let retired: usize = (0..5)
        .map(|seed| {
            count(&play::<V4>(seed, false).events, |e| {
                matches!(e, E::HitUnitRetired { .. } | E::GuardiansRetired { .. })
            })
        })
        .sum();
    assert!(retired >= 5, "5 games: {retired} hit rear-guards and guardians retired as steps of their own");
}

/// Versions 1 to 3 fold the stand into `TurnStarted` and the clean-up into the end phase, so
/// their logs replay and audit as released; version 4 leaves both to their own steps.
#[test]
fn versions_1_to_3_fold_the_stand_and_the_clean_up_themselves() {
    use kifu::games::vanguard::VanguardV3 as V3;
    let config = config_with(vec![deck(), deck()], &[]);
    let fold = |apply: fn(_, &E) -> _, given: &[E]| given.iter().fold(V3::setup(&config).unwrap(), apply);
    let v3 = fold(V3::apply, &alice_rested(vec![]));
    assert!(v3.players[0].to_stand().is_empty(), "version 3 stands Alice's units as her turn starts");
    assert!(V3::validate(&v3, &phase(0, Phase::Draw)).is_empty());
    let v4 = fold(V4::apply, &alice_rested(vec![]));
    assert_eq!(v4.players[0].to_stand(), vec![p(0, 0), p(0, 17)], "version 4 leaves them to UnitsStood");
    let strode = [bob_ends_strode(), vec![turn_3()]].concat();
    assert!(fold(V3::apply, &strode).players[1].g_unit.is_none(), "version 3 returns the G unit in the end phase");
    assert!(fold(V4::apply, &strode).players[1].g_unit.is_some(), "version 4 left it where the table left it");
    let hit_rear = |apply| fold(apply, &rear_hit()).players[0].rear.contains_key(&Circle::FrontLeft);
    assert!(!hit_rear(V3::apply), "version 3 retires the hit rear-guard inside AttackResolved");
    assert!(hit_rear(V4::apply), "version 4 leaves it to HitUnitRetired");
    let guardians = |apply| fold(apply, &[guarded(), vec![E::BattleEnded {}]].concat()).players[0].guardians.len();
    assert_eq!((guardians(V3::apply), guardians(V4::apply)), (0, 1), "version 4 leaves them to GuardiansRetired");
}

/// Versions 1 to 4 retire the occupant inside the call, turn a deleted heart face up inside the
/// stride and put the legion mate into the soul inside the ride, so their logs replay and audit as
/// released (a version 4 game with all three folds as before); version 5 leaves each to its own step.
#[test]
fn versions_1_to_4_fold_the_occupant_the_heart_and_the_mate_themselves() {
    let config = config_with(vec![deck(), deck()], &[]);
    let fold = |apply: fn(_, &E) -> _, given: &[E]| given.iter().fold(V4::setup(&config).unwrap(), apply);
    let (v4, v5) = (fold(V4::apply, &called_onto_p0_17()), fold(Vanguard::apply, &called_onto_p0_17()));
    assert!(v4.players[0].drop.contains(&p(0, 17)) && v4.owed_steps().is_empty(), "version 4 retires it in the call");
    assert!(!v5.players[0].drop.contains(&p(0, 17)), "version 5 leaves it to OccupantRetired");
    assert_eq!(v5.owed_steps(), vec![occupant_retired(p(0, 17))]);
    assert!(V4::validate(&v4, &phase(0, Phase::Battle)).is_empty(), "version 4 owes no retirement");
    let deleted = |s: &kifu::games::vanguard::VanguardState| s.players[1].vanguard.as_ref().is_some_and(|u| u.deleted);
    assert!(!deleted(&fold(V4::apply, &strode_over(true))), "version 4 turns the heart face up in the stride");
    let v5 = fold(Vanguard::apply, &strode_over(true));
    assert!(deleted(&v5) && v5.owed_steps() == vec![heart_face_up(vec![p(1, 45)])]);
    assert!(fold(V4::apply, &rode_on_legion()).players[1].mate.is_none(), "version 4 moves the mate in the ride");
    let v5 = fold(Vanguard::apply, &rode_on_legion());
    assert!(v5.players[1].mate.is_some() && v5.owed_steps() == vec![mate_to_soul(p(1, 43))]);
    let v4 = fold(V4::apply, &rode_on_legion());
    for step in [mate_to_soul(p(1, 43)), occupant_retired(p(0, 17)), heart_face_up(vec![p(1, 45)])] {
        assert!(!V4::validate(&v4, &step).is_empty(), "version 4 owes no {step:?}");
    }
}

/// Version 5's self-play calls onto occupied circles now and then and records each displaced
/// occupant's retirement as its own step, right after the call; version 4's never does.
#[test]
fn version_5_self_play_records_the_occupants_retirement() {
    use crate::game_support::play;
    let mut retired = 0;
    for seed in 0..10 {
        let v5 = play::<Vanguard>(seed, false);
        for (i, e) in v5.events.iter().enumerate() {
            if matches!(e, E::OccupantRetired { .. }) {
                retired += 1;
                assert!(matches!(v5.events[i - 1], E::Called { .. }), "seed {seed}: the retirement follows its call");
            }
        }
        let v4 = play::<V4>(seed, false);
        assert!(!v4.events.iter().any(|e| matches!(e, E::OccupantRetired { .. })));
    }
    assert!(retired >= 3, "10 games: {retired} occupants retired as steps of their own");
}

/// Version 5's board shows a unit a call displaced while it is in no zone: "retires next" while
/// its retirement is owed, "left unretired" once the table moved on without it (cited once, there),
/// to everyone (it was face up on its circle); an event that puts it somewhere clears it.
#[test]
fn version_5_board_shows_the_displaced_occupant_until_it_is_somewhere() {
    use kifu::game::view::{CardView, Viewer};
    let config = config_with(vec![deck(), deck()], &[]);
    let fold = |given: &[E]| given.iter().fold(Vanguard::setup(&config).unwrap(), Vanguard::apply);
    let waiting = |s: &kifu::games::vanguard::VanguardState, viewer| -> Vec<Vec<String>> {
        let board = Vanguard::view(s, viewer);
        let zones = board.seats[0].zones.iter().filter(|z| z.zone == "waiting to retire");
        let cards = zones.flat_map(|z| z.cards.clone());
        cards
            .map(|c| match c {
                CardView::Known { instance, statuses, .. } => [vec![instance], statuses].concat(),
                CardView::Hidden => vec!["hidden".into()],
            })
            .collect()
    };
    let owed = fold(&called_onto_p0_17());
    let retires = vec![p(0, 17), "displaced from rear-guard fl".into(), "retires next".into()];
    for viewer in [Viewer::Player(0), Viewer::Player(1), Viewer::Spectator, Viewer::Judge] {
        assert_eq!(waiting(&owed, viewer), vec![retires.clone()], "{viewer:?}");
    }
    let left = fold(&[called_onto_p0_17(), vec![phase(0, Phase::Battle)]].concat());
    let unretired = vec![p(0, 17), "displaced from rear-guard fl".into(), "left unretired (VG-ZONE-5)".into()];
    assert_eq!(waiting(&left, Viewer::Player(1)), vec![unretired]);
    assert!(left.owed_steps().is_empty(), "cited once, where the table moved on: owed no more");
    let put_right = Vanguard::apply(left, &cm(p(0, 17), Place::Drop));
    assert!(waiting(&put_right, Viewer::Judge).is_empty() && put_right.players[0].drop.contains(&p(0, 17)));
    let retired = fold(&[called_onto_p0_17(), vec![occupant_retired(p(0, 17))]].concat());
    assert!(waiting(&retired, Viewer::Judge).is_empty(), "retired: in the drop zone");
    let v4 = called_onto_p0_17().iter().fold(V4::setup(&config).unwrap(), V4::apply);
    assert!(V4::view(&v4, Viewer::Judge).seats[0].zones.iter().all(|z| z.zone != "waiting to retire"));
}

/// After a stride the vanguard circle shows the G unit and the heart beneath it; a rear-guard is
/// neither (the board once marked every rear-guard of a seat with a G unit as its "heart").
#[test]
fn only_the_vanguard_circle_shows_the_g_unit_and_its_heart() {
    use kifu::game::view::{CardView, Viewer};
    let config = config_with(vec![deck(), deck()], &[]);
    let given = [strode_over(false), vec![cm(p(1, 20), Place::Circle(Circle::FrontLeft))]].concat();
    let s = given.iter().fold(Vanguard::setup(&config).unwrap(), Vanguard::apply);
    assert!(s.players[1].g_unit.is_some(), "Bob strode");
    let board = Vanguard::view(&s, Viewer::Judge);
    let field = board.seats[1].zones.iter().find(|z| z.zone == "field").unwrap();
    let statuses = |label: &str| -> Vec<Vec<String>> {
        let cards = field.groups.iter().filter(|g| g.label == label).flat_map(|g| g.cards.iter());
        cards
            .map(|c| match c {
                CardView::Known { statuses, .. } => statuses.clone(),
                CardView::Hidden => vec!["hidden".into()],
            })
            .collect()
    };
    let has = |st: &Vec<String>, what: &str| st.iter().any(|x| x == what);
    let vc = statuses("vanguard (vc)");
    assert!(vc.iter().any(|st| has(st, "G unit")) && vc.iter().any(|st| has(st, "heart")), "{vc:?}");
    let fl = statuses("rear-guard fl");
    assert_eq!(fl.len(), 1, "{fl:?}");
    assert!(!has(&fl[0], "heart") && !has(&fl[0], "G unit"), "{fl:?}");
}
