//! Self-play: seeded random games validate clean, end with an outcome, are deterministic, and
//! 1,000 of them audit clean through the generic audit.

use std::collections::BTreeMap;

use kifu::game::audit::audit;
use kifu::game::replay::Step;
use kifu::game::selfplay::self_play;
use kifu::game::Game;
use kifu::games::vanguard::events::ClientOp;
use kifu::games::vanguard::{Vanguard, VanguardEvent as E};
use kifu::log::envelope::Timestamp;

use super::play;

#[test]
fn a_thousand_self_play_games_audit_clean() {
    let start = std::time::Instant::now();
    let players = vec!["alice".to_string(), "bob".to_string()];
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    for seed in 0..1000u64 {
        let game = self_play::<Vanguard>(seed, &players, 20_000).unwrap_or_else(|v| panic!("seed {seed}: {v:?}"));
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
        let (report, _) = audit::<Vanguard>(game.config, steps).unwrap_or_else(|v| panic!("seed {seed}: {v:?}"));
        assert!(report.is_clean(), "seed {seed}: {:?}", report.findings);
        let outcome = report.outcome.unwrap_or_else(|| panic!("seed {seed}: the game has no outcome"));
        *seen.entry(outcome.reason.split(':').next().unwrap_or("").to_string()).or_default() += 1;
        *seen.entry(format!("winners {:?}", outcome.winners())).or_default() += 1;
        for (_, entry) in &game.entries {
            let kifu::game::GameEntry::Played(e) = entry else { continue };
            let k = match e {
                E::Redrawn { .. } => "redraw",
                E::GradeAssisted { .. } => "grade assist",
                E::ForerunnerCalled { .. } => "forerunner",
                E::Strode { .. } => "stride",
                E::Boosted { .. } => "boost",
                E::GuardianCalled { .. } => "guard",
                E::Intercepted { .. } => "intercept",
                E::TriggerResolved { healed: Some(_), .. } => "heal",
                E::TriggerResolved { stood: Some(_), .. } => "stand trigger",
                E::TriggerResolved { drew: Some(_), .. } => "draw trigger",
                E::TriggerResolved { critical_to: Some(_), .. } => "critical trigger",
                E::AttackResolved { hit: false } => "miss",
                E::CounterBlasted { .. } => "counter blast",
                E::SoulCharged { .. } => "soul charge",
                E::SoulBlasted { .. } => "soul blast",
                _ => continue,
            };
            *seen.entry(k.to_string()).or_default() += 1;
        }
    }
    let elapsed = start.elapsed();
    eprintln!("1000 Vanguard self-play games audited in {elapsed:?}: {seen:?}");
    crate::game_support::check_all_seen(
        &seen,
        &[
            "VG-WIN-2",
            "VG-WIN-3",
            "winners [0]",
            "winners [1]",
            "redraw",
            "grade assist",
            "forerunner",
            "stride",
            "boost",
            "guard",
            "intercept",
            "heal",
            "stand trigger",
            "draw trigger",
            "critical trigger",
            "miss",
            "counter blast",
            "soul charge",
            "soul blast",
        ],
    );
}

#[test]
fn self_play_is_deterministic_and_validates_every_event() {
    crate::game_support::check_self_play_is_deterministic::<Vanguard>();
}

#[test]
fn the_agent_never_plays_client_operations() {
    // Self-play records the rules-level view; the client view is derived (see props.rs).
    let game = play(3, false);
    assert!(!game.events.iter().any(|e| matches!(e, E::Client { op: ClientOp::Moved { .. }, .. })));
    assert!(Vanguard::outcome(&game.last).is_some());
}
