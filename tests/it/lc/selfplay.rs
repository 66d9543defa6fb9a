//! Self-play: seeded random games validate clean, end with an outcome, are deterministic, use
//! every mechanic, and 1,000 of them audit clean through the generic audit.

use std::collections::BTreeMap;

use kifu::game::audit::audit;
use kifu::game::replay::Step;
use kifu::game::selfplay::self_play;
use kifu::game::{Game, GameEntry};
use kifu::games::lc::events::{CommonEvent, EndReason};
use kifu::games::lc::{Lc, LcEvent as E};
use kifu::log::envelope::Timestamp;

use super::play;

/// The mechanic an event shows, for the variety count.
fn mechanic(e: &E) -> Option<&'static str> {
    Some(match e {
        E::FullDiscarded { .. } => "full discard",
        E::CardPutDown { face_down: true, .. } => "face-down put-down",
        E::CardPutDown { replaced: Some(_), .. } => "replacement (full line)",
        E::CardAttached { .. } => "attachment",
        E::CardShifted { .. } => "move between lines",
        E::CardsFlipped { .. } => "flip",
        E::StrategyActivated { .. } => "strategy",
        E::DirectAttackDeclared { .. } => "direct attack",
        E::ProtectionPlayed { .. } => "protection",
        E::AttackResolved { prevented: false, against, sword, destroyed, .. }
            if sword == against && destroyed.is_empty() =>
        {
            "tie, nothing"
        }
        E::AttackResolved { prevented: false, against, sword, .. } if sword == against => "tie, destroyed",
        E::AttackResolved { line_points_lost, .. }
            if line_points_lost.iter().any(|l| l.line == kifu::games::lc::events::Line::Defense) =>
        {
            "defense card destroyed"
        }
        E::AttackResolved { destroyed, points_lost, .. } if destroyed.is_empty() && !points_lost.is_empty() => {
            "attacker repelled by a shield"
        }
        E::AttackResolved { line_points_lost, .. } if !line_points_lost.is_empty() => "sword beats sword",
        E::ModifierApplied { .. } => "modifier",
        E::Common(CommonEvent::SeedRevealed { .. }) => "digital seed",
        E::GameEnded { reason: EndReason::ZeroPoints, .. } => "end at zero points",
        E::GameEnded { reason: EndReason::EmptyDrawPile, .. } => "end on an empty pile",
        _ => return None,
    })
}

#[test]
fn a_thousand_self_play_games_audit_clean() {
    let players = vec!["alice".to_string(), "bob".to_string()];
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    for seed in 0..1000u64 {
        let game = self_play::<Lc>(seed, &players, 20_000).unwrap_or_else(|v| panic!("seed {seed}: {v:?}"));
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
        let (report, _) = audit::<Lc>(game.config.clone(), steps).unwrap_or_else(|v| panic!("seed {seed}: {v:?}"));
        assert!(
            report.is_clean(),
            "seed {seed} ({} events, policies {:?}): {:?}\nlast events: {:?}",
            game.entries.len(),
            game.config.policies(),
            report.findings,
            &game.entries[game.entries.len().saturating_sub(8)..]
        );
        let outcome = report.outcome.unwrap_or_else(|| panic!("seed {seed}: the game has no outcome"));
        *seen.entry(format!("winners {:?}", outcome.winners())).or_default() += 1;
        for (_, entry) in &game.entries {
            if let Some(k) = match entry {
                GameEntry::Played(e) => mechanic(e),
                _ => None,
            } {
                *seen.entry(k.to_string()).or_default() += 1;
            }
        }
    }
    eprintln!("1000 LC self-play games: {seen:?}");
    for k in [
        "winners [0]",
        "winners [1]",
        "full discard",
        "face-down put-down",
        "replacement (full line)",
        "attachment",
        "move between lines",
        "flip",
        "strategy",
        "direct attack",
        "protection",
        "tie, nothing",
        "tie, destroyed",
        "defense card destroyed",
        "attacker repelled by a shield",
        "sword beats sword",
        "modifier",
        "digital seed",
        "end at zero points",
        "end on an empty pile",
    ] {
        assert!(seen.get(k).copied().unwrap_or(0) > 0, "no self-play game had {k:?}: {seen:?}");
    }
}

#[test]
fn self_play_is_deterministic_and_validates_every_event() {
    for seed in [0u64, 1, 17, 99, 512] {
        assert_eq!(play(seed, false).events, play(seed, false).events, "seed {seed}");
    }
    assert_ne!(play(1, false).events, play(2, false).events);
    assert!(Lc::outcome(&play(3, false).last).is_some());
}
