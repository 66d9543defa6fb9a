//! Views and descriptions never leak hidden identities to players and spectators.

use std::collections::BTreeSet;

use kifu::game::view::CardView;
use kifu::game::{Game, Viewer};
use kifu::games::naruto::state::Held;
use kifu::games::naruto::{Naruto, NarutoState};

/// Instances `viewer` may not identify: both decks, all rewards and removed cards, other players' hands.
fn hidden_from(s: &NarutoState, viewer: Viewer) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for (i, p) in s.players.iter().enumerate() {
        out.extend(p.deck.iter().cloned());
        out.extend(p.rewards.iter().chain(&p.removed).filter_map(Held::known).map(str::to_string));
        if viewer != Viewer::Player(i as u8) {
            out.extend(p.hand.iter().filter_map(Held::known).map(str::to_string));
        }
    }
    out
}

/// Instances `viewer` may identify.
fn visible_to(s: &NarutoState, viewer: Viewer) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for (i, p) in s.players.iter().enumerate() {
        out.extend(p.chakra.iter().chain(&p.village).chain(&p.battlefield).chain(&p.discard).cloned());
        if viewer == Viewer::Player(i as u8) {
            out.extend(p.hand.iter().filter_map(Held::known).map(str::to_string));
        }
    }
    out.extend(s.chain.iter().map(|l| l.source.clone()));
    out
}

fn card_id(s: &NarutoState, instance: &str) -> String {
    s.def(instance).map(|d| d.id.clone()).unwrap_or_default()
}

fn assert_no_leak(s: &NarutoState, viewer: Viewer, text: &str, hidden: &BTreeSet<String>, what: &str) {
    let public_ids: BTreeSet<String> = visible_to(s, viewer).iter().map(|c| card_id(s, c)).collect();
    for c in hidden {
        assert!(
            !text.contains(&format!("\"{c}\"")) && !text.contains(&format!("({c})")),
            "{what}: {viewer:?} sees hidden instance {c}: {text}"
        );
        let id = card_id(s, c);
        if !public_ids.contains(&id) {
            assert!(
                !text.contains(&format!("\"{id}\"")) && !text.contains(&format!("{id} ")),
                "{what}: {viewer:?} sees hidden card id {id}"
            );
        }
    }
}

#[test]
fn board_views_hide_hands_decks_and_face_down_cards() {
    let mut checked = 0;
    for seed in 0..12u64 {
        let game = super::play(seed, true);
        for s in game.states.iter().step_by(3) {
            for viewer in [Viewer::Player(0), Viewer::Player(1), Viewer::Spectator] {
                let view = Naruto::view(s, viewer);
                let json = serde_json::to_string(&view).unwrap_or_default();
                assert_no_leak(s, viewer, &json, &hidden_from(s, viewer), "view");
                // Hidden cards are `Hidden`, never a known card without identity.
                for seat in &view.seats {
                    let hand =
                        seat.zones.iter().find(|z| z.zone == "hand").map(|z| z.cards.clone()).unwrap_or_default();
                    let own = viewer == Viewer::Player(seat.seat);
                    assert!(
                        hand.iter().all(|c| own == matches!(c, CardView::Known { .. })),
                        "{viewer:?} hand of seat {}",
                        seat.seat
                    );
                    let deck = seat
                        .zones
                        .iter()
                        .find(|z| z.zone == "deck")
                        .map(|z| (z.count, z.cards.len()))
                        .unwrap_or_default();
                    assert_eq!(deck.1, 0, "decks list no cards");
                }
                checked += 1;
            }
            // The judge sees every hand card the log holds openly.
            let judge = serde_json::to_string(&Naruto::view(s, Viewer::Judge)).unwrap_or_default();
            for p in &s.players {
                for c in p.hand.iter().filter_map(Held::known) {
                    assert!(judge.contains(&format!("\"{c}\"")), "judge misses {c}");
                }
            }
        }
    }
    assert!(checked > 1000, "only {checked} views checked");
}

#[test]
fn descriptions_hide_what_stays_hidden() {
    let mut drew_hidden = 0;
    for seed in 0..12u64 {
        let game = super::play(seed, true);
        for (i, e) in game.events.iter().enumerate() {
            let before = &game.states[i];
            let after = Naruto::apply(before.clone(), e);
            for viewer in crate::game_support::viewers(2) {
                let line = Naruto::describe(before, e, viewer);
                assert!(!line.is_empty());
                if viewer == Viewer::Judge {
                    continue;
                }
                let hidden: BTreeSet<String> =
                    hidden_from(before, viewer).intersection(&hidden_from(&after, viewer)).cloned().collect();
                assert_no_leak(&after, viewer, &line, &hidden, "describe");
                if let kifu::games::naruto::NarutoEvent::CardDrawn { seat, .. } = e {
                    if viewer != Viewer::Player(*seat) {
                        assert!(line.ends_with("drew a card"), "{line}");
                        drew_hidden += 1;
                    } else {
                        assert!(line.contains("(p"), "the drawer sees the card: {line}");
                    }
                }
            }
        }
    }
    assert!(drew_hidden > 100);
}
