//! Self-play: seeded random games validate clean, end with an outcome, are deterministic and audit clean.

use std::collections::BTreeMap;

use kifu::game::{Game, Position};
use kifu::games::naruto::config::ShuffleMode;
use kifu::games::naruto::events::{DeployFrom, FightResult};
use kifu::games::naruto::{Naruto, NarutoEvent as E};

use super::play;

#[test]
fn a_thousand_self_play_games_validate_end_and_audit_clean() {
    let start = std::time::Instant::now();
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut count = |k: &str| *seen.entry(k.to_string()).or_default() += 1;
    for seed in 0..1000u64 {
        // `play` asserts every event validates clean and that the game ends.
        let game = play(seed, false);
        let state = &game.last;
        let outcome = Naruto::outcome(state).unwrap_or_else(|| panic!("seed {seed}: no outcome"));
        assert_eq!(outcome.winners().len(), 1, "seed {seed}: Naruto has no draws");
        assert_eq!(Naruto::ledger(state).audit(), vec![], "seed {seed}: audit");
        assert_eq!(
            Naruto::position(state),
            Position { turn: state.turn, phase: "over", step: "over", active: state.attacker, awaited: vec![] }
        );
        count(&format!("winner {}", outcome.winners()[0]));
        count(&outcome.reason[..9]);
        count(if state.shuffles == ShuffleMode::Digital { "digital" } else { "physical" });
        if state.shuffles == ShuffleMode::Digital {
            assert!(
                game.events.iter().any(|e| matches!(e, E::SeedRevealed { .. })),
                "seed {seed}: digital game never revealed its seed"
            );
        }
        for e in &game.events {
            match e {
                E::MulliganTaken { attempt, .. } => count(&format!("mulligan {attempt}")),
                E::NinjaDeployed { from: DeployFrom::Chakra, .. } => count("ambush from chakra"),
                E::NinjaDeployed { hand_cost_paid, .. } if !hand_cost_paid.is_empty() => count("hand cost paid"),
                E::MissionPlayed { counter: true, .. } => count("counter mission"),
                E::ClientDeployed { .. } => count("client"),
                E::FightResolved { result, mental, .. } => {
                    count(&format!("{result:?}"));
                    if *mental {
                        count("mental");
                    }
                }
                E::BattleRewardTaken { cards, .. } => count(&format!("reward {}", cards.len())),
                E::HandCheckDiscard { .. } => count("hand check discard"),
                E::JutsuUsed { .. } => count("jutsu"),
                _ => {}
            }
        }
    }
    let elapsed = start.elapsed();
    eprintln!("1000 self-play games in {elapsed:?}: {seen:?}");
    crate::game_support::check_all_seen(
        &seen,
        &[
            "winner 0",
            "winner 1",
            "NAR-WIN-2",
            "NAR-WIN-3",
            "digital",
            "physical",
            "mulligan 1",
            "mulligan 2",
            "ambush from chakra",
            "hand cost paid",
            "counter mission",
            "client",
            "jutsu",
            "mental",
            "reward 1",
            "reward 2",
            "hand check discard",
        ],
    );
    for r in [
        FightResult::AttackerVictory,
        FightResult::AttackerCrushingVictory,
        FightResult::BlockerVictory,
        FightResult::BlockerCrushingVictory,
        FightResult::Draw,
    ] {
        assert!(seen.contains_key(&format!("{r:?}")), "no fight ended {r:?}");
    }
}

#[test]
fn self_play_is_deterministic() {
    crate::game_support::check_self_play_is_deterministic::<Naruto>();
}
