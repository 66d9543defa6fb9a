//! Given/when/then rule tests: every case folds `given` from a fixture setup, validates `when`
//! and compares the violated rule IDs with `then`, through the one helper [`run`]. Each case
//! declares the rule IDs it covers; `every_enforced_rule_has_a_case` checks the coverage table.

use kifu::game::Game;
use kifu::games::lc::catalog::Catalog;
use kifu::games::lc::config::ShuffleMode;
use kifu::games::lc::events::{
    CardRef, CommonEvent, EndReason, Line, LinePointLost, PointsChanged, PointsLost, ProtectFrom, Zone,
};
use kifu::games::lc::{Lc, LcConfig, LcEvent as E};

use crate::game_support::{cases, check_enforced_rules_have_cases};

// ---------------------------------------------------------------------------------------------
// Fixture: both seats register the same 30-card deck (sample catalog), by index:
//  0 LC-C01 Iron Squire 4/3 | 1 LC-C02 Bronze Archer 5/1 | 2 LC-C03 Tower Guard 2/6
//  3 LC-E01 Long Spear +2 Sword | 4 LC-S01 War Drums (strategy)   <- the opening hand, 0..=4
//  5 LC-P01 Guardian Ward (protection) | 6 LC-C04 Wandering Duelist 6/2 | 7 LC-C05 Shield Maiden 3/5
//  8 LC-C08 Twin Blade 5/3 | 9 LC-E02 Tower Shield +3 Shield | 10 LC-F01 Battle Fury +3/-1
// 11-29 LC-C07 Village Recruit 3/3
// ---------------------------------------------------------------------------------------------

fn deck() -> Vec<String> {
    let mut d: Vec<String> =
        ["LC-C01", "LC-C02", "LC-C03", "LC-E01", "LC-S01", "LC-P01", "LC-C04", "LC-C05", "LC-C08", "LC-E02", "LC-F01"]
            .iter()
            .map(|s| s.to_string())
            .collect();
    d.extend(std::iter::repeat_n("LC-C07".to_string(), 19));
    d
}

fn config_with(decks: Vec<Vec<String>>, policies: &[(&str, &str)]) -> LcConfig {
    let mut c = LcConfig::new(vec!["Alice".into(), "Bob".into()], decks, &Catalog::sample(), ShuffleMode::Physical)
        .unwrap_or_else(|v| panic!("fixture config: {v:?}"));
    for (k, v) in policies {
        c.set_policy(k, v).unwrap_or_else(|e| panic!("{e}"));
    }
    c
}

// ---------------------------------------------------------------------------------------------
// The one helper.
// ---------------------------------------------------------------------------------------------

type Case = crate::game_support::Case<Lc>;

/// A Combat-Phase case: the record starts at round 4 (`opening_rounds=none`), Alice first.
fn case(given: Vec<E>, when: E, then: &[&'static str]) -> Case {
    case_with(&[], given, when, then)
}

fn case_with(policies: &[(&str, &str)], given: Vec<E>, when: E, then: &[&'static str]) -> Case {
    let mut all = vec![("opening_rounds", "none")];
    all.extend_from_slice(policies);
    let mut g = combat();
    g.extend(given);
    Case::event(config_with(vec![deck(), deck()], &all), g, when, then)
}

/// A case under the default skeleton (rounds 1–3 are placement rounds); `given` follows the setup.
fn placement_case(given: Vec<E>, when: E, then: &[&'static str]) -> Case {
    let mut g = setup();
    g.extend(given);
    Case::event(config_with(vec![deck(), deck()], &[]), g, when, then)
}

// ---------------------------------------------------------------------------------------------
// Event builders.
// ---------------------------------------------------------------------------------------------

fn p(seat: u8, i: usize) -> String {
    format!("p{seat}-{i}")
}

/// Shuffles, Alice first, both opening hands (cards 0..=4).
fn setup() -> Vec<E> {
    let hand = |seat| (0..5).map(|i| CardRef::Open(p(seat, i))).collect();
    vec![
        E::DeckShuffled { seat: 0, by: 0, seed: None },
        E::DeckShuffled { seat: 1, by: 1, seed: None },
        E::FirstPlayerChosen { first: 0, how: "coin toss".into() },
        E::OpeningHandDrawn { seat: 0, cards: hand(0) },
        E::OpeningHandDrawn { seat: 1, cards: hand(1) },
    ]
}

/// The setup and round 4 (the Combat Phase), Alice's turn.
fn combat() -> Vec<E> {
    let mut v = setup();
    v.push(E::RoundStarted { round: 4, first: 0 });
    v
}

fn put(seat: u8, i: usize, line: Line) -> E {
    E::CardPutDown { seat, card: p(seat, i), line, face_down: false, replaced: None }
}

fn put_down(seat: u8, i: usize, line: Line) -> E {
    E::CardPutDown { seat, card: p(seat, i), line, face_down: true, replaced: None }
}

/// Test scaffolding the rules accept: an effect moves `seat`'s card `i` from `from` to a line.
fn cm(seat: u8, i: usize, from: Zone, to: Zone) -> E {
    E::Common(CommonEvent::CardMoved {
        seat: Some(seat),
        card: p(seat, i),
        from: from.key().into(),
        to: to.key().into(),
        cause: "test setup".into(),
    })
}

/// Bob's hand card `i` moves onto his field by an effect.
fn bob(i: usize, to: Zone) -> E {
    cm(1, i, Zone::Hand, to)
}

fn attack(attacker: usize, target: usize) -> E {
    E::AttackDeclared { seat: 0, attacker: p(0, attacker), target: p(1, target) }
}

fn lost(seat: u8, points: u32) -> PointsLost {
    PointsLost { seat, points }
}

fn line_lost(seat: u8, line: Line) -> LinePointLost {
    LinePointLost { seat, line }
}

fn resolved(sword: i32, against: i32, destroyed: &[String], points: Vec<PointsLost>, lines: Vec<LinePointLost>) -> E {
    E::AttackResolved {
        sword,
        against,
        destroyed: destroyed.to_vec(),
        points_lost: points,
        line_points_lost: lines,
        prevented: false,
    }
}

/// Iron Squire (4) against Iron Squire (4): a tie, nothing happens under the default policy.
fn tie() -> Vec<E> {
    vec![put(0, 0, Line::Attack), bob(0, Zone::Attack), attack(0, 0), resolved(4, 4, &[], vec![], vec![])]
}

fn refill(cards: &[usize]) -> E {
    E::RefillDrawn { seat: 0, cards: cards.iter().map(|&i| CardRef::Open(p(0, i))).collect() }
}

fn protect(card: usize) -> E {
    E::ProtectionPlayed { seat: 1, card: p(1, card), from: ProtectFrom::Hand }
}

fn direct(attacker: usize) -> E {
    E::DirectAttackDeclared { seat: 0, attacker: p(0, attacker) }
}

/// Alice's War Drums (card 4) on her Strategy line, activated: its effect changes Combat Points.
fn drums_change(changes: &[(u8, i32)]) -> E {
    E::StrategyPointsChanged {
        seat: 0,
        card: p(0, 4),
        changes: changes.iter().map(|&(seat, delta)| PointsChanged { seat, delta }).collect(),
    }
}

// ---------------------------------------------------------------------------------------------
// The cases.
// ---------------------------------------------------------------------------------------------

cases! {
    // LC-ROUND: rounds and the turn.
    placement_rounds_have_no_attacks ["LC-ROUND-1"] => placement_case(
        vec![E::RoundStarted { round: 1, first: 0 }, put(0, 0, Line::Attack), bob(0, Zone::Attack)],
        attack(0, 0), &["LC-ROUND-1"]);
    placement_rounds_allow_face_down_cards ["LC-FIELD-4"] => placement_case(
        vec![E::RoundStarted { round: 1, first: 0 }], put_down(0, 0, Line::Attack), &[]);
    rounds_are_numbered_in_order ["LC-ROUND-1"] => placement_case(vec![], E::RoundStarted { round: 2, first: 0 }, &["LC-ROUND-1"]);
    combat_phase_attack_is_legal ["LC-ATK-1", "LC-ROUND-1"] => case(vec![put(0, 0, Line::Attack), bob(0, Zone::Attack)], attack(0, 0), &[]);
    cards_go_down_before_attacking ["LC-ROUND-2"] => case(tie(), put(0, 1, Line::Attack), &["LC-ROUND-2"]);
    only_the_active_player_puts_cards_down ["LC-ROUND-2"] => case(vec![], put(1, 0, Line::Attack), &["LC-ROUND-2"]);
    no_attack_after_the_refill ["LC-ROUND-3"] => case(
        vec![put(0, 0, Line::Attack), bob(0, Zone::Attack), refill(&[5])], attack(0, 0), &["LC-ROUND-3"]);
    a_round_ends_before_the_next ["LC-ROUND-3"] => case(vec![], E::RoundStarted { round: 5, first: 0 }, &["LC-ROUND-3"]);
    draw_before_attacks_under_that_policy ["LC-ROUND-4"] => case_with(&[("draw_order", "before-attacks")],
        vec![put(0, 0, Line::Attack), bob(0, Zone::Attack)], attack(0, 0), &["LC-ROUND-4"]);
    draw_then_attack_under_that_policy ["LC-ROUND-4"] => case_with(&[("draw_order", "before-attacks")],
        vec![put(0, 0, Line::Attack), bob(0, Zone::Attack), refill(&[5])], attack(0, 0), &[]);

    // LC-CARD and LC-FIELD: what goes where.
    combat_cards_stay_out_of_the_strategy_line ["LC-CARD-1"] => case(vec![], put(0, 0, Line::Strategy), &["LC-CARD-1"]);
    equipment_is_attached_not_put_in_a_line ["LC-CARD-1"] => case(vec![], put(0, 3, Line::Attack), &["LC-CARD-1"]);
    attachments_need_a_host_on_the_field ["LC-CARD-2"] => case(vec![],
        E::CardAttached { seat: 0, card: p(0, 3), to: p(0, 1) }, &["LC-CARD-2"]);
    attack_values_include_attachments ["LC-CARD-2", "LC-ATK-3"] => case(
        vec![put(0, 0, Line::Attack), E::CardAttached { seat: 0, card: p(0, 3), to: p(0, 0) }, bob(1, Zone::Attack), attack(0, 1)],
        // Recorded as if the Long Spear (+2) were not there: 4 against 5.
        resolved(4, 5, &[p(0, 0)], vec![lost(0, 1)], vec![line_lost(0, Line::Attack)]), &["LC-ATK-3", "LC-CARD-2"]);
    attack_with_attachment_computed_right ["LC-CARD-2"] => case(
        vec![put(0, 0, Line::Attack), E::CardAttached { seat: 0, card: p(0, 3), to: p(0, 0) }, bob(1, Zone::Attack), attack(0, 1)],
        resolved(6, 5, &[p(1, 1)], vec![lost(1, 1)], vec![line_lost(1, Line::Attack)]), &[]);
    moving_into_a_full_line ["LC-FIELD-1"] => case_with(&[("slots", "1")],
        vec![put(0, 0, Line::Attack), put(0, 1, Line::Defense)],
        E::CardShifted { seat: 0, card: p(0, 1), to: Line::Attack }, &["LC-FIELD-1"]);
    a_full_line_needs_a_replacement ["LC-FIELD-2"] => case_with(&[("slots", "1")],
        vec![put(0, 0, Line::Attack)], put(0, 1, Line::Attack), &["LC-FIELD-2"]);
    a_full_line_takes_a_replacement ["LC-FIELD-2"] => case_with(&[("slots", "1")], vec![put(0, 0, Line::Attack)],
        E::CardPutDown { seat: 0, card: p(0, 1), line: Line::Attack, face_down: false, replaced: Some(p(0, 0)) }, &[]);
    no_replacement_with_a_free_slot ["LC-FIELD-2"] => case(vec![put(0, 0, Line::Attack)],
        E::CardPutDown { seat: 0, card: p(0, 1), line: Line::Attack, face_down: false, replaced: Some(p(0, 0)) }, &["LC-FIELD-2"]);
    a_line_at_zero_points_takes_no_cards ["LC-FIELD-3"] => case_with(&[("line_points", "1")],
        vec![put(0, 1, Line::Attack), bob(0, Zone::Attack), attack(1, 0),
             resolved(5, 4, &[p(1, 0)], vec![lost(1, 1)], vec![line_lost(1, Line::Attack)]),
             refill(&[5]), E::TurnPassed { seat: 0 }],
        put(1, 1, Line::Attack), &["LC-FIELD-3"]);
    flipping_a_face_up_card ["LC-FIELD-4"] => case(vec![put(0, 0, Line::Attack)],
        E::CardsFlipped { seat: 0, cards: vec![p(0, 0)] }, &["LC-FIELD-4"]);

    // LC-STRAT and LC-PROT.
    strategy_from_the_hand ["LC-STRAT-1"] => case(vec![],
        E::StrategyActivated { seat: 0, card: p(0, 4), note: String::new() }, &["LC-STRAT-1"]);
    strategy_from_the_field ["LC-STRAT-1", "LC-ROUND-2"] => case(vec![put_down(0, 4, Line::Strategy)],
        E::StrategyActivated { seat: 0, card: p(0, 4), note: String::new() }, &[]);
    protection_on_ones_own_turn ["LC-PROT-1"] => case(vec![],
        E::ProtectionPlayed { seat: 0, card: p(0, 5), from: ProtectFrom::Hand }, &["LC-PROT-1", "KIFU-CARD-1"]);
    protection_against_an_attack ["LC-PROT-1"] => case(
        vec![put(0, 0, Line::Attack), bob(0, Zone::Attack), attack(0, 0), cm(1, 5, Zone::DrawPile, Zone::Hand)],
        protect(5), &[]);
    protection_from_the_hand_when_policy_says_field ["LC-PROT-1"] => case_with(&[("protection_from", "field")],
        vec![put(0, 0, Line::Attack), bob(0, Zone::Attack), attack(0, 0), cm(1, 5, Zone::DrawPile, Zone::Hand)],
        protect(5), &["LC-PROT-1"]);
    protected_attacker_stays_face_down ["LC-ATK-2"] => case(
        vec![put_down(0, 0, Line::Attack), bob(0, Zone::Attack), attack(0, 0), cm(1, 5, Zone::DrawPile, Zone::Hand), protect(5)],
        E::AttackResolved { sword: 4, against: 4, destroyed: vec![], points_lost: vec![], line_points_lost: vec![], prevented: true }, &[]);

    // LC-MOVE.
    attacked_card_cannot_go_back_to_defense ["LC-MOVE-1"] => case(tie(),
        E::CardShifted { seat: 0, card: p(0, 0), to: Line::Defense }, &["LC-MOVE-1"]);
    moves_only_in_ones_own_turn ["LC-MOVE-1"] => case(vec![bob(0, Zone::Attack)],
        E::CardShifted { seat: 1, card: p(1, 0), to: Line::Defense }, &["LC-MOVE-1"]);
    card_from_defense_cannot_attack ["LC-MOVE-2"] => case(
        vec![put(0, 0, Line::Defense), E::CardShifted { seat: 0, card: p(0, 0), to: Line::Attack }, bob(0, Zone::Attack)],
        attack(0, 0), &["LC-MOVE-2"]);

    // LC-ATK.
    attack_with_a_defense_card ["LC-ATK-1"] => case(vec![put(0, 0, Line::Defense), bob(0, Zone::Attack)], attack(0, 0), &["LC-ATK-1"]);
    attack_a_card_in_the_hand ["LC-ATK-1"] => case(vec![put(0, 0, Line::Attack), bob(0, Zone::Attack)], attack(0, 1), &["LC-ATK-1"]);
    face_down_cards_are_flipped_to_compare ["LC-ATK-2"] => case(
        vec![put_down(0, 0, Line::Attack), bob(0, Zone::Attack), attack(0, 0)],
        resolved(4, 4, &[], vec![], vec![]), &["LC-ATK-2"]);
    flipped_cards_compare ["LC-ATK-2"] => case(
        vec![put_down(0, 0, Line::Attack), bob(0, Zone::Attack), attack(0, 0), E::CardsFlipped { seat: 0, cards: vec![p(0, 0)] }],
        resolved(4, 4, &[], vec![], vec![]), &[]);
    sword_vs_sword_wrong_deduction ["LC-ATK-3"] => case(
        vec![cm(0, 6, Zone::DrawPile, Zone::Attack), bob(0, Zone::Attack), attack(6, 0)],
        // Duelist 6 against Squire 4: the difference is 2, not 6.
        resolved(6, 4, &[p(1, 0)], vec![lost(1, 6)], vec![line_lost(1, Line::Attack)]), &["LC-ATK-3"]);
    sword_vs_sword_right ["LC-ATK-3"] => case(
        vec![cm(0, 6, Zone::DrawPile, Zone::Attack), bob(0, Zone::Attack), attack(6, 0)],
        resolved(6, 4, &[p(1, 0)], vec![lost(1, 2)], vec![line_lost(1, Line::Attack)]), &[]);
    sword_tie_under_both_destroyed ["LC-ATK-3"] => case_with(&[("sword_tie", "both-destroyed")],
        vec![put(0, 0, Line::Attack), bob(0, Zone::Attack), attack(0, 0)],
        resolved(4, 4, &[], vec![], vec![]), &["LC-ATK-3"]);
    sword_beats_shield_costs_no_points ["LC-ATK-4"] => case(
        vec![cm(0, 6, Zone::DrawPile, Zone::Attack), bob(1, Zone::Defense), attack(6, 1)],
        resolved(6, 1, &[p(1, 1)], vec![lost(1, 5)], vec![line_lost(1, Line::Defense)]), &["LC-ATK-4"]);
    sword_beats_shield_right ["LC-ATK-4"] => case(
        vec![cm(0, 6, Zone::DrawPile, Zone::Attack), bob(1, Zone::Defense), attack(6, 1)],
        resolved(6, 1, &[p(1, 1)], vec![], vec![line_lost(1, Line::Defense)]), &[]);
    shield_beats_sword_costs_the_attacker ["LC-ATK-4"] => case(
        vec![put(0, 0, Line::Attack), bob(2, Zone::Defense), attack(0, 2)],
        resolved(4, 6, &[], vec![lost(0, 2)], vec![]), &[]);
    shield_beats_sword_destroys_nothing ["LC-ATK-4"] => case(
        vec![put(0, 0, Line::Attack), bob(2, Zone::Defense), attack(0, 2)],
        resolved(4, 6, &[p(1, 2)], vec![lost(0, 2)], vec![]), &["LC-ATK-4"]);
    shield_tie_under_defense_destroyed ["LC-ATK-4"] => case_with(&[("shield_tie", "defense-destroyed")],
        vec![put(0, 2, Line::Attack), cm(1, 6, Zone::DrawPile, Zone::Defense), attack(2, 6)],
        resolved(2, 2, &[p(1, 6)], vec![], vec![line_lost(1, Line::Defense)]), &[]);
    a_card_attacks_once_per_round ["LC-ATK-5"] => case(tie(), attack(0, 0), &["LC-ATK-5"]);

    // LC-DIRECT.
    direct_attack_against_cards ["LC-DIRECT-1"] => case(vec![put(0, 0, Line::Attack), bob(0, Zone::Defense)], direct(0), &["LC-DIRECT-1"]);
    direct_attack_wrong_deduction ["LC-DIRECT-2"] => case(vec![put(0, 0, Line::Attack), direct(0)],
        resolved(4, 0, &[], vec![lost(1, 3)], vec![]), &["LC-DIRECT-2"]);
    direct_attack_right ["LC-DIRECT-2"] => case(vec![put(0, 0, Line::Attack), direct(0)],
        resolved(4, 0, &[], vec![lost(1, 4)], vec![]), &[]);
    second_direct_attack_in_a_round ["LC-DIRECT-3"] => case(
        vec![put(0, 0, Line::Attack), put(0, 1, Line::Attack), direct(0), resolved(4, 0, &[], vec![lost(1, 4)], vec![])],
        direct(1), &["LC-DIRECT-3"]);
    protection_stops_a_direct_attack ["LC-DIRECT-4", "LC-DIRECT-2"] => case(
        vec![put(0, 0, Line::Attack), direct(0), cm(1, 5, Zone::DrawPile, Zone::Hand), protect(5)],
        resolved(4, 0, &[], vec![lost(1, 4)], vec![]), &["LC-DIRECT-2", "LC-DIRECT-4"]);

    // LC-REFILL and LC-DISCARD.
    passing_without_the_refill ["LC-REFILL-1"] => case(vec![put(0, 0, Line::Attack)], E::TurnPassed { seat: 0 }, &["LC-REFILL-1"]);
    refill_draws_up_to_five ["LC-REFILL-1"] => case(vec![put(0, 0, Line::Attack)], refill(&[5, 6]), &["LC-REFILL-1"]);
    refill_right ["LC-REFILL-1"] => case(vec![put(0, 0, Line::Attack)], refill(&[5]), &[]);
    refill_counts_put_down_cards_under_that_policy ["LC-REFILL-1"] => case_with(&[("refill", "put-down-count")],
        vec![put(0, 0, Line::Attack), put(0, 1, Line::Attack)], refill(&[5]), &["LC-REFILL-1"]);
    full_discard_at_the_start ["LC-DISCARD-1", "LC-DISCARD-2"] => case(vec![], E::FullDiscarded {
        seat: 0, discarded: (0..5).map(|i| p(0, i)).collect(), drawn: (5..10).map(|i| CardRef::Open(p(0, i))).collect(), cost: 10 }, &[]);
    full_discard_after_acting ["LC-DISCARD-1"] => case(vec![put(0, 0, Line::Attack)], E::FullDiscarded {
        seat: 0, discarded: (1..5).map(|i| p(0, i)).collect(), drawn: (5..10).map(|i| CardRef::Open(p(0, i))).collect(), cost: 10 }, &["LC-DISCARD-1"]);
    full_discard_costs_ten ["LC-DISCARD-2"] => case(vec![], E::FullDiscarded {
        seat: 0, discarded: (0..5).map(|i| p(0, i)).collect(), drawn: (5..10).map(|i| CardRef::Open(p(0, i))).collect(), cost: 5 }, &["LC-DISCARD-2"]);

    // LC-END.
    nothing_after_zero_points ["LC-END-1"] => case_with(&[("combat_points", "1")],
        vec![put(0, 1, Line::Attack), bob(0, Zone::Attack), attack(1, 0), resolved(5, 4, &[p(1, 0)], vec![lost(1, 1)], vec![line_lost(1, Line::Attack)])],
        refill(&[5]), &["LC-END-1"]);
    zero_points_loses ["LC-END-3"] => case_with(&[("combat_points", "1")],
        vec![put(0, 1, Line::Attack), bob(0, Zone::Attack), attack(1, 0), resolved(5, 4, &[p(1, 0)], vec![lost(1, 1)], vec![line_lost(1, Line::Attack)])],
        E::GameEnded { reason: EndReason::ZeroPoints, winners: vec![0] }, &[]);
    zero_points_wrong_winner ["LC-END-3"] => case_with(&[("combat_points", "1")],
        vec![put(0, 1, Line::Attack), bob(0, Zone::Attack), attack(1, 0), resolved(5, 4, &[p(1, 0)], vec![lost(1, 1)], vec![line_lost(1, Line::Attack)])],
        E::GameEnded { reason: EndReason::ZeroPoints, winners: vec![1] }, &["LC-END-3"]);
    game_cannot_end_without_cause ["LC-END-1"] => case(vec![], E::GameEnded { reason: EndReason::ZeroPoints, winners: vec![0] }, &["LC-END-1"]);
    both_at_zero_is_a_draw ["LC-END-2"] => Case {
        forced: vec![9],
        ..case_with(&[("combat_points", "1")],
            vec![put(0, 1, Line::Attack), bob(0, Zone::Attack), attack(1, 0),
                 // A judge recorded an effect-driven result that cost both players their last point.
                 resolved(5, 4, &[p(1, 0)], vec![lost(1, 1), lost(0, 1)], vec![line_lost(1, Line::Attack)])],
            E::GameEnded { reason: EndReason::BothZero, winners: vec![0] }, &["LC-END-2"])
    };
    empty_pile_at_round_start_ends_the_game ["LC-END-1"] => Case::event(config_with(vec![deck(), deck()[..5].to_vec()], &[("opening_rounds", "none")]), setup(), E::RoundStarted { round: 4, first: 0 }, &["LC-END-1"]);
    empty_pile_winner_follows_the_policy ["LC-END-3"] => Case::event(
        config_with(vec![deck(), deck()[..5].to_vec()], &[("opening_rounds", "none")]),
        setup(),
        // Equal points under `more-points`: a draw, not a win for Alice.
        E::GameEnded { reason: EndReason::EmptyDrawPile, winners: vec![0] },
        &["LC-END-3"],
    );
    // Tricky cases: close to a rule, and legal.
    the_turn_passes_after_the_refill ["LC-ROUND-3", "LC-REFILL-1"] => case(vec![put(0, 0, Line::Attack), refill(&[5])],
        E::TurnPassed { seat: 0 }, &[]);
    equipment_attaches_to_a_field_card ["LC-CARD-1", "LC-CARD-2"] => case(vec![put(0, 0, Line::Attack)],
        E::CardAttached { seat: 0, card: p(0, 3), to: p(0, 0) }, &[]);
    a_defense_card_moves_into_a_free_attack_slot ["LC-FIELD-1", "LC-MOVE-2"] => case_with(&[("slots", "1")],
        vec![put(0, 0, Line::Defense)], E::CardShifted { seat: 0, card: p(0, 0), to: Line::Attack }, &[]);
    a_line_at_zero_points_leaves_the_other_line_open ["LC-FIELD-3"] => case_with(&[("line_points", "1")],
        vec![put(0, 1, Line::Attack), bob(0, Zone::Attack), attack(1, 0),
             resolved(5, 4, &[p(1, 0)], vec![lost(1, 1)], vec![line_lost(1, Line::Attack)]),
             refill(&[5]), E::TurnPassed { seat: 0 }],
        put(1, 1, Line::Defense), &[]);
    a_card_that_has_not_attacked_moves_back_to_defense ["LC-MOVE-1"] => case(vec![put(0, 0, Line::Attack)],
        E::CardShifted { seat: 0, card: p(0, 0), to: Line::Defense }, &[]);
    another_card_attacks_after_the_first ["LC-ATK-5"] => case(
        vec![put(0, 0, Line::Attack), put(0, 1, Line::Attack), bob(0, Zone::Attack), attack(0, 0), resolved(4, 4, &[], vec![], vec![])],
        attack(1, 0), &[]);
    a_strategy_card_does_not_shield_from_a_direct_attack ["LC-DIRECT-1"] => case(
        vec![put(0, 0, Line::Attack), bob(4, Zone::Strategy)], direct(0), &[]);
    a_direct_attack_after_an_attack_cleared_the_field ["LC-DIRECT-1", "LC-DIRECT-3"] => case(
        vec![put(0, 0, Line::Attack), put(0, 1, Line::Attack), bob(0, Zone::Attack), attack(1, 0),
             resolved(5, 4, &[p(1, 0)], vec![lost(1, 1)], vec![line_lost(1, Line::Attack)])],
        direct(0), &[]);
    protection_against_a_direct_attack ["LC-DIRECT-4"] => case(
        vec![put(0, 0, Line::Attack), direct(0), cm(1, 5, Zone::DrawPile, Zone::Hand)], protect(5), &[]);
    play_goes_on_above_zero ["LC-END-1"] => case_with(&[("combat_points", "2")],
        vec![put(0, 1, Line::Attack), bob(0, Zone::Attack), attack(1, 0), resolved(5, 4, &[p(1, 0)], vec![lost(1, 1)], vec![line_lost(1, Line::Attack)])],
        refill(&[5]), &[]);

    // A Strategy card's effect on both players' points is one event (LC-END-2, LC-OPEN-15).
    an_effect_takes_both_last_points_at_once_a_draw ["LC-END-2"] => case_with(&[("combat_points", "1")],
        vec![put_down(0, 4, Line::Strategy), drums_change(&[(0, -1), (1, -1)])],
        E::GameEnded { reason: EndReason::BothZero, winners: vec![] }, &[]);
    an_effect_takes_both_last_points_no_winner ["LC-END-2"] => case_with(&[("combat_points", "1")],
        vec![put_down(0, 4, Line::Strategy), drums_change(&[(0, -1), (1, -1)])],
        E::GameEnded { reason: EndReason::BothZero, winners: vec![0] }, &["LC-END-2"]);
    an_effect_after_both_reached_zero_is_after_the_end ["LC-END-1"] => case_with(&[("combat_points", "1")],
        vec![put_down(0, 4, Line::Strategy), drums_change(&[(0, -1), (1, -1)])],
        drums_change(&[(1, 1)]), &["LC-END-1"]);
    an_effect_on_points_needs_the_card_on_the_strategy_line ["LC-STRAT-1"] => case(vec![],
        drums_change(&[(1, -2)]), &["LC-STRAT-1"]);
    an_effect_on_points_by_the_waiting_player ["LC-ROUND-2"] => case(vec![bob(4, Zone::Strategy)],
        E::StrategyPointsChanged { seat: 1, card: p(1, 4), changes: vec![PointsChanged { seat: 0, delta: -2 }] }, &["LC-ROUND-2"]);
    a_deck_too_small_for_the_opening_hand ["LC-REFILL-1"] => Case::setup(config_with(vec![deck()[..3].to_vec(), deck()], &[]), &["LC-REFILL-1"]);
}

#[test]
fn every_enforced_rule_has_a_case() {
    check_enforced_rules_have_cases(CASES, Lc::coverage());
}

/// `src/games/lc/scenarios.tsv` counts this table's illegal and tricky cases per rule ID.
#[test]
fn scenario_index_is_checked_in() {
    crate::game_support::check_scenario_index::<Lc>("lc", built_cases());
}
