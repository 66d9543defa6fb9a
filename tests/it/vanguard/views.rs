//! Views and descriptions never leak hidden identities to players and spectators.

use std::collections::BTreeSet;

use kifu::game::{Game, Viewer};
use kifu::games::vanguard::{ClientOp, Vanguard, VanguardEvent as E, VanguardState};

/// Instances `viewer` may not identify under the default policies: decks, other players' hands,
/// souls, bind zones and face-down G units, and face-down starting vanguards.
fn hidden_from(s: &VanguardState, viewer: Viewer) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for (i, p) in s.players.iter().enumerate() {
        out.extend(p.deck.iter().cloned());
        if viewer != Viewer::Player(i as u8) {
            out.extend(p.hand.iter().cloned());
            out.extend(p.soul.iter().cloned());
            out.extend(p.bind.iter().cloned());
            out.extend(p.g_zone.iter().filter(|(_, up)| !up).map(|(c, _)| c.clone()));
            out.extend(p.vanguard.iter().filter(|u| u.face_down).map(|u| u.card.clone()));
        }
    }
    out
}

#[test]
fn board_views_hide_what_the_rules_hide() {
    let mut checked = 0;
    for seed in 0..15u64 {
        let game = super::play(seed, true);
        for s in game.states.iter().step_by(3) {
            for viewer in [Viewer::Player(0), Viewer::Player(1), Viewer::Spectator] {
                let json = serde_json::to_string(&Vanguard::view(s, viewer)).unwrap();
                for c in hidden_from(s, viewer) {
                    assert!(!json.contains(&format!("\"{c}\"")), "seed {seed}: {viewer:?} sees hidden {c}");
                }
                // The opponent cannot even learn how many face-down G units there are (VGC-UPD-1).
                let view = Vanguard::view(s, viewer);
                for (i, p) in s.players.iter().enumerate() {
                    let g = view.seats[i].zones.iter().find(|z| z.zone == "g-zone").unwrap();
                    let want = if viewer == Viewer::Player(i as u8) { p.g_zone.len() } else { p.g_zone_face_up() };
                    assert_eq!(g.count, want, "{viewer:?} g-zone of seat {i}");
                }
                checked += 1;
            }
            let judge = serde_json::to_string(&Vanguard::view(s, Viewer::Judge)).unwrap();
            for p in &s.players {
                for c in p.hand.iter().chain(&p.soul) {
                    assert!(judge.contains(&format!("\"{c}\"")), "judge misses {c}");
                }
            }
        }
    }
    assert!(checked > 1000, "only {checked} views checked");
}

#[test]
fn descriptions_hide_what_stays_hidden() {
    let mut hidden_draws = 0;
    for seed in 0..10u64 {
        let game = super::play(seed, true);
        for (i, e) in game.events.iter().enumerate() {
            let before = &game.states[i];
            let after = game.states.get(i + 1).unwrap_or(&game.last);
            for viewer in [Viewer::Player(0), Viewer::Player(1), Viewer::Spectator] {
                let line = Vanguard::describe(before, e, viewer);
                assert!(!line.is_empty());
                let mut hidden: BTreeSet<String> =
                    hidden_from(before, viewer).intersection(&hidden_from(after, viewer)).cloned().collect();
                // A checked card is revealed to both players before it goes to the hand (VG-BATTLE-7).
                if let E::DriveChecked { card, .. } | E::Client { op: ClientOp::Checked { card }, .. } = e {
                    hidden.remove(card);
                }
                for c in hidden {
                    assert!(
                        !line.contains(&format!("({c})")),
                        "seed {seed} event {i}: {viewer:?} reads {c} in {line:?}"
                    );
                }
                if line.ends_with("drew a card") {
                    hidden_draws += 1;
                }
            }
        }
    }
    assert!(hidden_draws > 100);
}
