//! The table as every fixture game draws it: one card, one place (no instance id twice on a
//! board, at any position, for the omniscient viewer), and a layout whose areas name zones the
//! board has, so the page can place every area it is given.

use std::collections::HashMap;

use kifu::game::view::{BoardView, CardView, Side};
use kifu::game::Viewer;

use super::{fixture_log, fixtures};

/// Where each visible instance id is drawn: "seat 0 village/team 1", ...
fn places(b: &BoardView) -> HashMap<String, Vec<String>> {
    let mut out: HashMap<String, Vec<String>> = HashMap::new();
    let zones = b.seats.iter().flat_map(|s| s.zones.iter().map(move |z| (format!("seat {}", s.seat), z)));
    let zones = zones.chain(b.shared.iter().map(|z| ("shared".to_string(), z)));
    for (owner, z) in zones {
        let mut add = |c: &CardView, at: String| {
            if let Some(i) = c.instance() {
                out.entry(i.to_string()).or_default().push(at);
            }
        };
        for c in &z.cards {
            add(c, format!("{owner} {}", z.zone));
        }
        for g in &z.groups {
            for c in &g.cards {
                add(c, format!("{owner} {}/{}", z.zone, g.label));
            }
        }
    }
    out
}

#[test]
fn every_fixture_position_draws_each_card_once() {
    let names = fixtures();
    assert!(names.len() >= 6, "the fixtures are all here: {names:?}");
    for name in names {
        let log = fixture_log(&name);
        let driver = kifu::games::driver(&log.header.v1().ruleset).unwrap();
        let session = driver.open(&log).unwrap();
        for n in 0..=log.head.len {
            let b = session.board(n, Viewer::Judge);
            for (instance, at) in places(&b) {
                // The chain (Naruto) names the card whose effect is pending, wherever it lies.
                let at: Vec<&String> = at.iter().filter(|a| !a.ends_with("chain")).collect();
                assert!(at.len() <= 1, "{name} at {n}: {instance} is drawn {} times: {at:?}", at.len());
            }
        }
    }
}

#[test]
fn every_layout_area_names_a_zone_of_the_board() {
    for name in fixtures() {
        let log = fixture_log(&name);
        let session = kifu::games::driver(&log.header.v1().ruleset).unwrap().open(&log).unwrap();
        let b = session.board(log.head.len, Viewer::Spectator);
        assert!(b.layout.columns > 0 && !b.layout.areas.is_empty(), "{name} has a table layout");
        for a in &b.layout.areas {
            let found = match a.side {
                Side::Seat => b.seats.iter().all(|s| s.zones.iter().any(|z| z.zone == a.zone)),
                Side::Shared => b.shared.iter().any(|z| z.zone == a.zone),
            };
            assert!(found, "{name}: the layout places {:?}, which the board lacks", a.zone);
            assert!(a.col >= 1 && a.col + a.cols - 1 <= b.layout.columns, "{name}: {:?} fits the grid", a.zone);
        }
        // Every seat zone has a place on the table.
        for z in &b.seats[0].zones {
            assert!(b.layout.areas.iter().any(|a| a.zone == z.zone), "{name}: zone {} is placed", z.zone);
        }
    }
}
