//! Self-play: seeded random games validate clean, end with an outcome, are deterministic, use
//! every stack, block, protection and hidden-card rule, and 1,000 of them audit clean through the
//! generic audit.

use std::collections::BTreeMap;

use kifu::game::audit::audit;
use kifu::game::replay::Step;
use kifu::game::selfplay::self_play;
use kifu::game::{Game, GameEntry};
use kifu::games::brk::catalog::{Resource, Trigger};
use kifu::games::brk::events::{BrkEvent as E, RevealReason};
use kifu::games::brk::state::Status;
use kifu::games::brk::Brk;
use kifu::log::envelope::Timestamp;

use super::play;
use kifu::game::policy::PolicyTable;

#[test]
fn a_thousand_self_play_games_audit_clean_and_use_every_mechanic() {
    let players = vec!["alice".to_string(), "bob".to_string()];
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut bump = |k: &str| *seen.entry(k.to_string()).or_default() += 1;
    for seed in 0..1000u64 {
        let game = self_play::<Brk>(seed, &players, 20_000).unwrap_or_else(|v| panic!("seed {seed}: {v:?}"));
        let steps: Vec<Step<E>> = game
            .entries
            .iter()
            .enumerate()
            .map(|(i, (actor, entry))| Step {
                seq: i as u64,
                recorded_at: Timestamp(0),
                actor: actor.clone(),
                entry: entry.clone(),
            })
            .collect();
        let (report, _) = audit::<Brk>(game.config.clone(), steps).unwrap_or_else(|v| panic!("seed {seed}: {v:?}"));
        assert!(report.is_clean(), "seed {seed}: {:?}", report.findings);
        let outcome = report.outcome.unwrap_or_else(|| panic!("seed {seed}: the game has no outcome"));
        bump(&format!("winners {:?}", outcome.winners()));
        for (k, v) in game.config.policies().to_pairs() {
            bump(&format!("{k}={v}"));
        }
        let s = &game.final_state;
        for a in &s.actions {
            match &a.status {
                Status::Interrupted { automatic: true, rule, .. } => bump(&format!("auto-interrupted {rule}")),
                Status::Interrupted { .. } => bump("interrupted by card text"),
                Status::Blocked { .. } => bump("blocked"),
                Status::Done if a.ability.trigger == Trigger::OnDeath => bump("on-death feature performed"),
                Status::Done if !a.assumed.is_empty() => {
                    let lacks = a.ability.requires.as_ref().is_some_and(|x| {
                        a.assumed.iter().any(|t| s.piece(t).and_then(|p| s.def_of(p)).is_some_and(|d| !d.has_trait(x)))
                    });
                    bump(if lacks { "false assumption stood" } else { "assumption held" });
                }
                _ => {}
            }
        }
        let mut turn = 0;
        for (_, entry) in &game.entries {
            let GameEntry::Played(e) = entry else { continue };
            match e {
                E::TurnStarted { turn: t, .. } => turn = *t,
                E::CardRevealed { reason, piece, .. } => {
                    bump(&format!("reveal {reason:?}"));
                    let row3 = s.piece(piece).is_some_and(|p| p.owner == 1 && p.cell.row == 3);
                    if row3 && turn == 2 && *reason == RevealReason::RevealSubphase {
                        bump("second player's 3rd row stayed hidden through turn 1");
                    }
                }
                E::EffectApplied { action, target, protected_by } => {
                    let a = s.action(*action).unwrap();
                    let def = s.piece(target).and_then(|p| s.def_of(p));
                    match protected_by {
                        Some(h) => {
                            let complex = def.is_some_and(|d| {
                                d.protections.iter().any(|p| p.name == h.protection && p.components.len() > 1)
                            });
                            bump(if complex {
                                "stopped by a complex protection's component"
                            } else {
                                "stopped by protection"
                            });
                        }
                        None if !a.ability.pierces.is_empty()
                            && def.is_some_and(|d| {
                                d.protections.iter().any(|p| a.ability.pierces.iter().any(|x| x.protection == p.name))
                            }) =>
                        {
                            bump("a feature worked against a protection")
                        }
                        None => {}
                    }
                }
                E::PaymentMade { resources, .. } if resources.iter().any(|r| r.resource == Resource::Lives) => {
                    bump("lives paid")
                }
                E::CardHidden { .. } => bump("card hidden by an effect"),
                E::GameActionDeclared { .. } => bump("declared"),
                _ => {}
            }
        }
    }
    eprintln!("1000 BRK self-play games audited: {seen:?}");
    for k in [
        "winners [0]",
        "winners [1]",
        "stack_order=fifo",
        "priority=active-first",
        "false_assumption=stands",
        "auto-interrupted BRK-INT-5",
        "auto-interrupted BRK-HID-11",
        "interrupted by card text",
        "blocked",
        "on-death feature performed",
        "false assumption stood",
        "assumption held",
        "reveal RevealSubphase",
        "reveal DeclaredAction",
        "reveal Targeted",
        "reveal ControllerChoice",
        "second player's 3rd row stayed hidden through turn 1",
        "stopped by protection",
        "stopped by a complex protection's component",
        "a feature worked against a protection",
        "lives paid",
        "card hidden by an effect",
    ] {
        assert!(seen.get(k).copied().unwrap_or(0) > 0, "no self-play game had {k:?}: {seen:?}");
    }
}

#[test]
fn self_play_is_deterministic_and_validates_every_event() {
    crate::game_support::check_self_play_is_deterministic::<Brk>();
    assert!(Brk::outcome(&play(3, false).last).is_some());
}

/// Rules version 3, what new games record, self-plays and audits clean too: version 2's added
/// checks refuse nothing the agent plays, and version 3 finds nothing late in its games.
#[test]
fn version_3_self_plays_and_audits_clean() {
    crate::game_support::check_self_play_audits_clean::<kifu::games::brk::BrkV3>(
        0..200,
        &[crate::game_support::table(2)],
    );
}

/// Rules version 4 self-plays and audits clean, holding every seat to its turn, and records as
/// automatic steps of their own what versions 1 to 3 folded inside other events: a revealed
/// card's markers, the turn start's opening and the deaths.
#[test]
fn version_4_self_plays_and_audits_clean_recording_every_step() {
    self_plays_recording_every_step::<4>();
}

/// Rules version 5, what new games record, does the same (it differs from version 4 only for a
/// dead card a table left in play, which self-play never leaves).
#[test]
fn version_5_self_plays_and_audits_clean_recording_every_step() {
    self_plays_recording_every_step::<5>();
}

fn self_plays_recording_every_step<const V: u32>() {
    use crate::game_support::{check_every_actor_was_awaited, check_self_play_audits_clean, table};
    use kifu::games::brk::BrkRules;
    check_self_play_audits_clean::<BrkRules<V>>(0..200, &[table(2)]);
    check_every_actor_was_awaited::<BrkRules<V>>(0..60, &[table(2)]);
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    for seed in 0..200u64 {
        let game = self_play::<BrkRules<V>>(seed, &table(2), 20_000).unwrap_or_else(|v| panic!("seed {seed}: {v:?}"));
        for (_, entry) in &game.entries {
            let GameEntry::Played(e) = entry else { continue };
            let kind = match e {
                E::MarkersPlacedOnReveal { .. } => "MarkersPlacedOnReveal",
                E::CardsOpened { .. } => "CardsOpened",
                E::CardsSentToGraveyard { .. } => "CardsSentToGraveyard",
                _ => continue,
            };
            *seen.entry(kind).or_default() += 1;
        }
        let s = &game.final_state;
        assert!(s.owed_steps().is_empty(), "seed {seed}: steps still owed at the end");
        let dead_in_play = s.pieces.iter().filter(|p| kifu::games::brk::state::BrkState::out_of_lives(p)).count();
        assert_eq!(dead_in_play, 0, "seed {seed}: a card with no lives left is still in play");
    }
    eprintln!("200 BRK version {V} self-play games: {seen:?}");
    for kind in ["MarkersPlacedOnReveal", "CardsOpened", "CardsSentToGraveyard"] {
        assert!(seen.get(kind).is_some_and(|n| *n > 0), "no {kind} in 200 games: {seen:?}");
    }
}
