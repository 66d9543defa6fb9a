//! The fold property: a game recorded through rules-level events and the same game recorded
//! through the client's manual operations (`agent::client_ops`) fold to the same board, and the
//! client view of a legal game validates clean too.

use kifu::game::Game;
use kifu::games::vanguard::agent::client_ops;
use kifu::games::vanguard::{Vanguard, VanguardState};

/// Everything on the table: zones, face-up/face-down, unit statuses and powers.
fn board(s: &VanguardState) -> String {
    let mut out = String::new();
    for (i, p) in s.players.iter().enumerate() {
        let mut hand = p.hand.clone();
        hand.sort();
        let mut drop = p.drop.clone();
        drop.sort();
        let mut soul = p.soul.clone();
        soul.sort();
        let mut g = p.g_zone.clone();
        g.sort();
        let units: Vec<String> = p
            .units()
            .iter()
            .map(|(c, u)| {
                format!("{}:{}:{}:{}:{}:{}", c.name(), u.card, u.rested, u.locked, u.deleted, s.unit_power(u))
            })
            .collect();
        out += &format!(
            "seat {i}\n hand {hand:?}\n deck {:?}\n drop {drop:?}\n damage {:?}\n soul {soul:?}\n units {units:?}\n heart {:?}\n guardians {:?}\n g {g:?}\n bind {:?}\n",
            p.deck, p.damage, p.heart, p.guardians, p.bind
        );
    }
    out += &format!("removed {:?}\nresult {:?}\n", s.removed, s.result);
    out
}

#[test]
fn rules_view_and_client_view_fold_to_the_same_board() {
    let mut client_events = 0;
    for seed in 0..60u64 {
        let game = super::play(seed, true);
        let mut client = Vanguard::setup(&game.config).unwrap();
        for (i, event) in game.events.iter().enumerate() {
            let before = &game.states[i];
            for op in client_ops(before, event) {
                let v = Vanguard::validate(&client, &op);
                assert!(v.is_empty(), "seed {seed}, event {i} {event:?} as {op:?}: {v:?}");
                client = Vanguard::apply(client, &op);
                client_events += 1;
            }
            let after = game.states.get(i + 1).unwrap_or(&game.last);
            assert_eq!(board(&client), board(after), "seed {seed}: boards differ after event {i} {event:?}");
        }
        assert_eq!(Vanguard::outcome(&client), Vanguard::outcome(&game.last));
    }
    assert!(client_events > 10_000, "only {client_events} client operations checked");
}
