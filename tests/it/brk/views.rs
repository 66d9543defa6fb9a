//! Views and descriptions never leak hidden identities to the opponent or spectators.

use std::collections::BTreeSet;

use kifu::game::{Game, Viewer};
use kifu::games::brk::{Brk, BrkState};

/// Instances `viewer` may not identify: hidden cards of other seats (judges see all the log holds).
fn hidden_from(s: &BrkState, viewer: Viewer) -> BTreeSet<String> {
    s.pieces
        .iter()
        .filter(|p| p.hidden && viewer != Viewer::Player(p.owner) && viewer != Viewer::Judge)
        .filter_map(|p| p.instance.clone())
        .collect()
}

#[test]
fn board_views_and_descriptions_hide_hidden_identities() {
    let mut checked = 0;
    let mut hidden_seen = 0;
    for seed in 0..20u64 {
        let game = super::play(seed, true);
        for (i, s) in game.states.iter().enumerate() {
            for viewer in [Viewer::Player(0), Viewer::Player(1), Viewer::Spectator] {
                let hidden = hidden_from(s, viewer);
                hidden_seen += hidden.len();
                let json = serde_json::to_string(&Brk::view(s, viewer)).unwrap();
                for c in &hidden {
                    assert!(!json.contains(&format!("\"{c}\"")), "seed {seed} state {i}: {viewer:?} sees hidden {c}");
                }
                let line = Brk::describe(s, &game.events[i], viewer);
                assert!(!line.is_empty());
                let after = game.states.get(i + 1).unwrap_or(&game.last);
                for c in hidden.intersection(&hidden_from(after, viewer)) {
                    assert!(!line.contains(c.as_str()), "seed {seed} event {i}: {viewer:?} reads {c} in {line:?}");
                }
                checked += 1;
            }
            // Every face-down card shows as Hidden, without an identity, to the other seat.
            let spectator = Brk::view(s, Viewer::Spectator);
            for p in s.pieces.iter().filter(|p| p.hidden) {
                let zone = &spectator.seats[usize::from(p.owner)].zones[0];
                let g = zone.groups.iter().find(|g| g.label.starts_with(&format!("{} ", p.id))).unwrap();
                assert_eq!(g.cards, vec![kifu::game::view::CardView::Hidden]);
            }
        }
    }
    assert!(checked > 1000 && hidden_seen > 100, "only {checked} views, {hidden_seen} hidden identities checked");
}

#[test]
fn the_event_log_itself_does_not_name_sealed_cards() {
    // A deployed hidden card is sealed: its instance appears in no event before its reveal.
    for seed in 0..10u64 {
        let game = super::play(seed, true);
        let kifu::games::brk::BrkEvent::SquadDeployed { cards, .. } = &game.events[0] else { panic!() };
        assert!(cards
            .iter()
            .filter(|d| d.hidden)
            .all(|d| matches!(d.card, kifu::games::brk::events::CardRef::Sealed(_))));
        let json = serde_json::to_string(&game.events[0]).unwrap();
        for p in game.last.pieces.iter().filter(|p| p.owner == 0 && p.sealed.is_some()) {
            if let Some(i) = &p.instance {
                assert!(!json.contains(&format!("\"{i}\"")), "seed {seed}: deployment names sealed {i}");
            }
        }
    }
}
