//! Who may act ([`Game::awaited`]): in every game, every self-played event's acting seat was
//! awaited by the state before it, and the cases issue 9 names (a turn handover, a reveal round,
//! priority after a declaration) await the right seats.

use std::collections::BTreeMap;

use kifu::game::Game;
use kifu::games::brk::{Brk, BrkEvent};
use kifu::games::fate::Fate;
use kifu::games::lc::Lc;
use kifu::games::naruto::{Naruto, NarutoV2};
use kifu::games::vanguard::{Vanguard, VanguardV2};

use crate::game_support::{check_every_actor_was_awaited, table};

#[test]
fn every_naruto_actor_was_awaited() {
    check_every_actor_was_awaited::<Naruto>(0..200, &[table(2)]);
}

#[test]
fn every_vanguard_actor_was_awaited() {
    check_every_actor_was_awaited::<Vanguard>(0..200, &[table(2)]);
}

#[test]
fn every_lc_actor_was_awaited() {
    check_every_actor_was_awaited::<Lc>(0..200, &[table(2)]);
}

#[test]
fn every_brk_actor_was_awaited() {
    check_every_actor_was_awaited::<Brk>(0..200, &[table(2)]);
}

#[test]
fn every_fate_actor_was_awaited() {
    check_every_actor_was_awaited::<Fate>(0..200, &[table(3), table(4), table(5), table(6)]);
}

// ---------------------------------------------------------------------------------------------
// Given/when/then: the cases issue 9 names, on states self-play reaches.
// ---------------------------------------------------------------------------------------------

/// Given a Naruto turn that has ended, when the next turn starts, then the state awaited the
/// incoming attacker (the seat `TurnStarted` is recorded for), not the outgoing one.
#[test]
fn a_naruto_turn_handover_awaits_the_incoming_attacker() {
    use kifu::games::naruto::events::Step;
    use kifu::games::naruto::NarutoEvent;
    let mut handovers = 0;
    for seed in 0..20 {
        let game = crate::game_support::play::<Naruto>(seed, true);
        for (state, event) in game.states.iter().zip(&game.events) {
            if state.step != Step::TurnEnded {
                continue;
            }
            let Some(outgoing) = state.attacker else { continue };
            let NarutoEvent::TurnStarted { attacker, .. } = event else {
                panic!("seed {seed}: after a turn ended came {event:?}");
            };
            assert_ne!(*attacker, outgoing);
            assert_eq!(Naruto::awaited(state), vec![*attacker], "seed {seed}");
            assert_eq!(Naruto::position(state).active, Some(outgoing), "whose turn is still the outgoing attacker's");
            handovers += 1;
        }
    }
    assert!(handovers > 100, "only {handovers} handovers in 20 games");
}

/// Given a digital FATE game of four Masters, when a Master opens a dice-chain reveal round with
/// its link, then every other living Master is awaited for its link, and each leaves the round's
/// debtors as it reveals; a Master that already revealed is not awaited for a second link.
#[test]
fn a_fate_reveal_round_awaits_every_unrevealed_master_and_shrinks() {
    use kifu::game::common::CommonEvent;
    use kifu::games::fate::events::DICE_CHAIN;
    use kifu::games::fate::FateEvent;
    let mut rounds = 0;
    let mut reveals = 0;
    for seed in 0..40 {
        let game = crate::fate::play(seed, 4, true);
        let states = &game.states;
        for (i, event) in game.events.iter().enumerate() {
            let FateEvent::Common(CommonEvent::ChainLinkRevealed { seat, .. }) = event else { continue };
            let (before, after) = (&states[i], states.get(i + 1).unwrap_or(&game.last));
            let living = after.living();
            let owed_before = before.ledger.chain_round_owed(DICE_CHAIN, &before.living());
            let owed_after = after.ledger.chain_round_owed(DICE_CHAIN, &living);
            if owed_before.is_empty() {
                // It opened the round: it interjects, and now every other Master owes a link.
                assert!(Fate::interjects(before, event), "seed {seed}, event {i}: an opening link interjects");
                let others: Vec<u8> = living.iter().copied().filter(|x| x != seat).collect();
                assert_eq!(owed_after, others, "seed {seed}, event {i}");
                rounds += 1;
            } else {
                // A link of the open round: it was awaited, and the round shrinks by that Master.
                assert!(!Fate::interjects(before, event));
                assert!(Fate::awaited(before).contains(seat), "seed {seed}, event {i}");
                let want: Vec<u8> = owed_before.iter().copied().filter(|x| x != seat).collect();
                if !want.is_empty() {
                    assert_eq!(owed_after, want, "seed {seed}, event {i}");
                }
                reveals += 1;
            }
            for x in &owed_after {
                assert!(Fate::awaited(after).contains(x), "seed {seed}, event {i}: seat {x} owes a link");
            }
            let again = FateEvent::Common(CommonEvent::ChainLinkRevealed {
                key: DICE_CHAIN.into(),
                seat: *seat,
                link: kifu::game::commit::Commitment([0; 32]),
            });
            let rolling =
                after.pending.iter().any(|c| matches!(c, CommonEvent::DieRolled { seat: Some(x), .. } if x == seat));
            if !owed_after.is_empty() && after.step_owner() != Some(*seat) && !rolling {
                let v = kifu::game::selfplay::unawaited::<Fate>(after, &again);
                assert_eq!(v.map(|v| v.rule), Some("KIFU-TURN-1"), "seed {seed}, event {i}: a second link");
            }
        }
    }
    assert!(rounds > 20 && reveals > 60, "{rounds} rounds, {reveals} reveals");
}

/// Given a BRK main phase, when a seat declares an action (and no targeted hidden card must be
/// revealed first), then the state awaits exactly the seat the priority policy hands priority to
/// (BRK-OPEN-2): the other seat, or the active one. And the state after the deployments awaits
/// the first player, who records the first turn's start.
#[test]
fn brk_priority_after_a_declaration_and_the_first_turn_are_awaited() {
    use kifu::games::brk::config::PriorityRule;
    let mut declarations = BTreeMap::new();
    for seed in 0..40 {
        let game = crate::brk::play(seed, true);
        let after = |i: usize| game.states.get(i + 1).unwrap_or(&game.last);
        for (i, event) in game.events.iter().enumerate() {
            let (s, e) = (after(i), event);
            if let BrkEvent::TurnStarted { seat, turn: 1 } = e {
                assert_eq!(Brk::awaited(&game.states[i]), vec![*seat], "seed {seed}: the first turn's start");
            }
            let BrkEvent::GameActionDeclared { seat, .. } = e else { continue };
            if !s.pending_reveals.is_empty() || s.result.is_some() {
                continue;
            }
            let want = match s.policies.priority {
                PriorityRule::Alternate => kifu::game::opponent(*seat),
                PriorityRule::ActiveFirst => s.active.unwrap_or(0),
            };
            assert_eq!(Brk::awaited(s), vec![want], "seed {seed}, event {i}");
            *declarations.entry(format!("{:?}", s.policies.priority)).or_insert(0) += 1;
        }
    }
    assert!(declarations.len() == 2 && declarations.values().all(|n| *n > 10), "{declarations:?}");
}

/// FATE checks who may act (`CHECKS_AWAITED`): a thousand self-played games of 3 to 6 Masters
/// audit clean through the generic audit, which holds every acting seat to the awaited seats.
#[test]
fn a_thousand_fate_games_audit_clean_with_the_awaited_check() {
    crate::game_support::check_self_play_audits_clean::<Fate>(0..250, &[table(3), table(4), table(5), table(6)]);
}

// The new games and the new rules versions check who may act (BRK's thousand-game audit lives
// with its self-play tests, Naruto's and Vanguard's version 2 in rules_versions.rs); version 1 of
// the released games does not, so their games audit exactly as before.
const _: () = assert!(Fate::CHECKS_AWAITED && Brk::CHECKS_AWAITED && Lc::CHECKS_AWAITED);
const _: () = assert!(NarutoV2::CHECKS_AWAITED && VanguardV2::CHECKS_AWAITED);
const _: () = assert!(!Naruto::CHECKS_AWAITED && !Vanguard::CHECKS_AWAITED);

/// The CLI's `show` says who may act: the "waiting for" fact names the awaited seats by name.
#[test]
fn show_names_who_may_act() {
    let env = crate::support::TestEnv::new();
    let out = env.ok(&["game", "self-play", "--game", "brk", "--seed", "3", "--count", "1", "--prefix", "w"]);
    let id = out.lines().next().unwrap().split('\t').next().unwrap().trim().to_string();
    let shown = env.ok(&["game", "show", &id, "--turn", "2", "--as", "spectator"]);
    let line = shown.lines().find(|l| l.contains("waiting for")).unwrap_or_else(|| panic!("{shown}"));
    assert!(line.contains("alice") || line.contains("bob") || line.contains("p0") || line.contains("p1"), "{line}");
}
