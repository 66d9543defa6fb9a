//! Views and descriptions never leak hidden identities to players and spectators: hands, Draw
//! Piles and face-down field cards (digest §3.14).

use std::collections::BTreeSet;

use kifu::game::{Game, Viewer};
use kifu::games::lc::events::Line;
use kifu::games::lc::state::Held;
use kifu::games::lc::{Lc, LcState};

/// Instances `viewer` may not identify.
fn hidden_from(s: &LcState, viewer: Viewer) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for (i, p) in s.players.iter().enumerate() {
        out.extend(p.pile.iter().cloned());
        if viewer != Viewer::Player(i as u8) {
            out.extend(p.hand.iter().filter_map(Held::known).map(str::to_string));
            for line in Line::ALL {
                out.extend(p.line(line).iter().filter(|f| f.face_down).map(|f| f.card.clone()));
            }
        }
    }
    out
}

#[test]
fn board_views_hide_what_the_rules_hide() {
    let mut checked = 0;
    let mut face_down_seen = 0;
    for seed in 0..15u64 {
        let game = super::play(seed, true);
        for s in game.states.iter().step_by(2) {
            for viewer in [Viewer::Player(0), Viewer::Player(1), Viewer::Spectator] {
                let json = serde_json::to_string(&Lc::view(s, viewer)).unwrap();
                for c in hidden_from(s, viewer) {
                    assert!(!json.contains(&format!("\"{c}\"")), "seed {seed}: {viewer:?} sees hidden {c}");
                }
                checked += 1;
            }
            let judge = serde_json::to_string(&Lc::view(s, Viewer::Judge)).unwrap();
            for p in &s.players {
                for c in p.hand.iter().filter_map(Held::known) {
                    assert!(judge.contains(&format!("\"{c}\"")), "judge misses {c}");
                }
                for f in p.attack.iter().chain(&p.defense).chain(&p.strategy).filter(|f| f.face_down) {
                    assert!(judge.contains(&format!("\"{}\"", f.card)), "judge misses face-down {}", f.card);
                    face_down_seen += 1;
                }
            }
        }
    }
    assert!(checked > 1000, "only {checked} views checked");
    assert!(face_down_seen > 10, "too few face-down cards to test: {face_down_seen}");
}

#[test]
fn descriptions_hide_what_stays_hidden() {
    let mut hidden_lines = 0;
    for seed in 0..10u64 {
        let game = super::play(seed, true);
        for (i, e) in game.events.iter().enumerate() {
            let before = &game.states[i];
            let after = game.states.get(i + 1).unwrap_or(&game.last);
            for viewer in [Viewer::Player(0), Viewer::Player(1), Viewer::Spectator] {
                let line = Lc::describe(before, e, viewer);
                assert!(!line.is_empty());
                let hidden: BTreeSet<String> =
                    hidden_from(before, viewer).intersection(&hidden_from(after, viewer)).cloned().collect();
                for c in hidden {
                    assert!(
                        !line.contains(&format!("({c})")),
                        "seed {seed} event {i}: {viewer:?} reads {c} in {line:?}"
                    );
                }
                if line.contains("a card face down") || line.ends_with(" cards") {
                    hidden_lines += 1;
                }
            }
        }
    }
    assert!(hidden_lines > 100, "{hidden_lines}");
}

#[test]
fn the_policies_are_visible_on_the_board() {
    let game = super::play(4, false);
    let view = Lc::view(&game.last, Viewer::Spectator);
    for key in
        ["policy slots", "policy sword_tie", "policy empty_pile_winner", "policy shuffles", "policy opening_rounds"]
    {
        assert!(view.facts.iter().any(|(k, _)| k == key), "{key} missing from {:?}", view.facts);
    }
}
