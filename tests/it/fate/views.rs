//! Views and descriptions never leak hidden identities: hands and decks are the owner's, a
//! face-down Servant is its owner's until revealed, a taken card is known to taker and loser only.

use std::collections::BTreeSet;

use kifu::game::view::CardView;
use kifu::game::{Game, Viewer};
use kifu::games::fate::events::FateEvent as E;
use kifu::games::fate::state::Held;
use kifu::games::fate::{Fate, FateState};

/// Instances `viewer` may not identify.
fn hidden_from(s: &FateState, viewer: Viewer) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for (i, m) in s.masters.iter().enumerate() {
        out.extend(m.deck.iter().cloned());
        let own = viewer == Viewer::Player(i as u8);
        if !own {
            out.extend(m.hand.iter().filter_map(Held::known).map(str::to_string));
            if let Some(sv) = m.servant.as_ref().filter(|sv| sv.face_down) {
                out.extend(sv.cards().iter().filter_map(|h| h.known()).map(str::to_string));
            }
        }
    }
    out
}

fn assert_no_leak(viewer: Viewer, text: &str, hidden: &BTreeSet<String>, what: &str) {
    for c in hidden {
        assert!(
            !text.contains(&format!("\"{c}\"")) && !text.contains(&format!("({c})")),
            "{what}: {viewer:?} sees hidden instance {c}: {text}"
        );
    }
}

fn viewers(n: usize) -> Vec<Viewer> {
    let mut v: Vec<Viewer> = (0..n as u8).map(Viewer::Player).collect();
    v.push(Viewer::Spectator);
    v
}

#[test]
fn board_views_and_descriptions_hide_hands_decks_and_face_down_servants() {
    let mut checked = 0;
    for seed in 0..8u64 {
        let game = super::play(seed, 4, true);
        for (i, s) in game.states.iter().enumerate() {
            for viewer in viewers(4) {
                let hidden = hidden_from(s, viewer);
                let view = Fate::view(s, viewer);
                let json = serde_json::to_string(&view).unwrap_or_default();
                assert_no_leak(viewer, &json, &hidden, "view");
                for seat in &view.seats {
                    let hand =
                        seat.zones.iter().find(|z| z.zone == "hand").map(|z| z.cards.clone()).unwrap_or_default();
                    let own = viewer == Viewer::Player(seat.seat);
                    assert!(
                        hand.iter().all(|c| own == matches!(c, CardView::Known { .. })),
                        "{viewer:?} hand {}",
                        seat.seat
                    );
                }
                let e = &game.events[i];
                let text = Fate::describe(s, e, viewer);
                // The event's own line may name what it reveals (a Servant turned up, a discard);
                // it must not name a card still hidden after the event.
                let after = if i + 1 < game.states.len() { &game.states[i + 1] } else { &game.last };
                let still_hidden: BTreeSet<String> =
                    hidden.intersection(&hidden_from(after, viewer)).cloned().collect();
                let taken = matches!(e, E::CardTakenFromHand { winner, loser, .. }
                    if viewer == Viewer::Player(*winner) || viewer == Viewer::Player(*loser));
                if !taken {
                    assert_no_leak(viewer, &text, &still_hidden, "describe");
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 10_000, "only {checked} views checked");
}

#[test]
fn a_taken_card_is_named_to_taker_and_loser_only() {
    let mut found = false;
    for seed in 0..40u64 {
        let game = super::play(seed, 4, true);
        for (i, e) in game.events.iter().enumerate() {
            let E::CardTakenFromHand { winner, loser, card, .. } = e else { continue };
            let kifu::games::fate::events::CardRef::Open(c) = card else { continue };
            let s = &game.states[i];
            for viewer in viewers(4) {
                let text = Fate::describe(s, e, viewer);
                let named = text.contains(&format!("({c})"));
                let allowed = viewer == Viewer::Player(*winner) || viewer == Viewer::Player(*loser);
                assert_eq!(named, allowed, "{viewer:?}: {text}");
            }
            found = true;
        }
    }
    assert!(found, "no card was taken in 40 games");
}

#[test]
fn the_judge_sees_everything_the_log_holds() {
    let game = super::play(3, 4, true);
    let s = &game.states[game.states.len() / 2];
    let view = Fate::view(s, Viewer::Judge);
    for seat in &view.seats {
        for z in seat.zones.iter().filter(|z| z.zone != "deck") {
            assert!(z.cards.iter().all(|c| matches!(c, CardView::Known { .. })), "judge: {}", z.zone);
        }
    }
}

/// The cards of `seat`'s Servant group and deck zone as `viewer` sees them.
fn servant_and_deck(s: &FateState, viewer: Viewer, seat: u8) -> (Vec<CardView>, usize) {
    let view = Fate::view(s, viewer);
    let sv = view.seats.iter().find(|x| x.seat == seat).unwrap();
    let servant = sv.zones.iter().find(|z| z.zone == "servant").unwrap();
    let deck = sv.zones.iter().find(|z| z.zone == "deck").unwrap();
    (servant.groups.iter().flat_map(|g| g.cards.clone()).collect(), deck.cards.len())
}

#[test]
fn a_face_down_servant_is_its_owners_until_revealed_and_decks_are_counts_only() {
    let game = super::play(2, 4, true);
    let (mut down, mut up) = (0, 0);
    for s in game.states.iter().chain(std::iter::once(&game.last)) {
        for (seat, m) in s.masters.enumerate() {
            let Some(sv) = m.servant.as_ref() else { continue };
            for viewer in viewers(4) {
                let (cards, deck_cards) = servant_and_deck(s, viewer, seat);
                assert_eq!(deck_cards, 0, "{viewer:?} sees cards of a deck");
                assert_eq!(cards.len(), 2, "a Servant is two cards");
                let known = cards.iter().all(|c| matches!(c, CardView::Known { .. }));
                let hidden = cards.iter().all(|c| matches!(c, CardView::Hidden));
                // Face up: everyone; face down: its owner alone (a sealed card stays sealed).
                let visible = !sv.face_down || viewer == Viewer::Player(seat);
                if !visible {
                    assert!(hidden, "{viewer:?} sees seat {seat}'s face-down Servant");
                } else if sv.cards().iter().all(|h| h.known().is_some()) {
                    assert!(known, "{viewer:?} cannot see seat {seat}'s Servant");
                }
            }
            if sv.face_down {
                down += 1;
            } else {
                up += 1;
            }
        }
    }
    assert!(down > 0 && up > 0, "the game shows face-down ({down}) and revealed ({up}) Servants");
}

/// A position's phase is the part of the turn (FATE's rules call it a step) and its step the part
/// within it: a battle's process in the battle step, else the phase again.
#[test]
fn a_positions_phase_is_the_turns_step_and_its_step_the_battles_process() {
    use kifu::games::fate::events::Step;
    let mut processes = BTreeSet::new();
    for seed in 0..8u64 {
        for s in super::play(seed, 4, true).states {
            let p = Fate::position(&s);
            assert_eq!(p.phase, s.step.name(), "seed {seed}");
            match s.battle.as_ref().filter(|_| s.step == Step::Battle) {
                Some(b) => {
                    assert_eq!(p.step, b.process.name(), "seed {seed}");
                    processes.insert(p.step);
                }
                None => assert_eq!(p.step, p.phase, "seed {seed}"),
            }
        }
    }
    assert!(processes.len() > 1, "the games' battles ran through several processes: {processes:?}");
}
