//! The policies' tables at every boundary (MTR Appendix E, Play! Pokémon), honest ties (a shared
//! rank, head-to-head, then the seeded draw, never name order), the OMW% floor for a player who
//! only had byes, and match formats.

use kifu::tournament::events::MatchScore;
use kifu::tournament::policy::{CustomPolicy, Policy, Tiebreaker};
use kifu::tournament::standings::{self, Entrant, MatchRecord};

/// MTR Appendix E as published: (first player count, rounds, top cut).
const MTR_E: &[(u32, u32, u32)] =
    &[(1, 3, 0), (9, 5, 4), (17, 5, 8), (33, 6, 8), (65, 7, 8), (129, 8, 8), (227, 9, 8), (410, 10, 8)];

/// The Play! Pokémon table (swiss v3; sources in docs/rules/pokemon-structure.md): (first player
/// count, rounds, top cut).
const POKEMON: &[(u32, u32, u32)] =
    &[(1, 3, 0), (9, 4, 4), (13, 5, 4), (21, 5, 8), (33, 6, 8), (65, 7, 8), (129, 8, 8), (227, 9, 8), (410, 10, 8)];

/// The Pokémon table swiss v1 and v2 planned, which their tournaments keep.
const POKEMON_V2: &[(u32, u32, u32)] =
    &[(1, 3, 0), (9, 4, 2), (13, 5, 4), (21, 5, 8), (33, 6, 8), (65, 7, 8), (129, 8, 16), (227, 9, 16), (410, 10, 32)];

fn expected(table: &[(u32, u32, u32)], n: u32) -> (u32, u32) {
    let row = table.iter().rev().find(|r| n >= r.0).unwrap();
    (row.1, row.2)
}

#[test]
fn rounds_and_top_cut_follow_the_published_tables_at_every_boundary() {
    for (policy, table) in [(Policy::Mtr, MTR_E), (Policy::Melee, MTR_E), (Policy::Pokemon, POKEMON)] {
        let rules = policy.rules();
        for n in 2..=2000u32 {
            assert_eq!(
                (rules.swiss_rounds(n), rules.top_cut(n)),
                expected(table, n),
                "{} with {n} players",
                rules.name
            );
        }
        for &(first, _, _) in table.iter().skip(1) {
            assert_ne!(
                (rules.swiss_rounds(first - 1), rules.top_cut(first - 1)),
                (rules.swiss_rounds(first), rules.top_cut(first)),
                "{}: {first} starts a new row",
                rules.name
            );
        }
    }
    let mtr = Policy::Mtr.rules();
    assert_eq!(
        (mtr.swiss_rounds(226), mtr.swiss_rounds(227), mtr.swiss_rounds(409), mtr.swiss_rounds(410)),
        (8, 9, 9, 10)
    );
    // Both sides of every Pokémon boundary, written out: (players, rounds, top cut).
    let pokemon = Policy::Pokemon.rules();
    #[rustfmt::skip]
    let edges = [
        (8, 3, 0), (9, 4, 4), (12, 4, 4), (13, 5, 4), (20, 5, 4), (21, 5, 8), (32, 5, 8), (33, 6, 8),
        (64, 6, 8), (65, 7, 8), (128, 7, 8), (129, 8, 8), (226, 8, 8), (227, 9, 8), (409, 9, 8), (410, 10, 8),
    ];
    for (n, rounds, cut) in edges {
        assert_eq!((pokemon.swiss_rounds(n), pokemon.top_cut(n)), (rounds, cut), "pokemon with {n} players");
    }
}

#[test]
fn pokemon_tournaments_of_earlier_versions_keep_the_cut_they_were_planned_with() {
    use kifu::tournament::events::{ConfigV1, RoundsPlan};
    use kifu::tournament::policy::TOP_CUT_BY_ATTENDANCE;
    use kifu::tournament::state::Tournament;
    for rules in [Policy::Pokemon.rules_v2(), Policy::Pokemon.rules_0_1()] {
        for n in 2..=2000u32 {
            assert_eq!((rules.swiss_rounds(n), rules.top_cut(n)), expected(POKEMON_V2, n), "{n} players");
        }
    }
    let config = ConfigV1 {
        name: "cup".into(),
        game: "stones".into(),
        policy: Policy::Pokemon,
        rounds: RoundsPlan::ByAttendance,
        top_cut: TOP_CUT_BY_ATTENDANCE,
        seed_commitment: None,
    };
    let cut = |swiss_v2: bool, released_0_1: bool| {
        let t = Tournament { config: Some(config.clone()), swiss_v2, released_0_1, ..Tournament::default() };
        let r = t.rules().unwrap();
        [10, 130, 500].map(|n| r.top_cut(n))
    };
    assert_eq!(cut(false, false), [4, 8, 8], "swiss v3");
    assert_eq!(cut(true, false), [2, 16, 32], "swiss v2");
    assert_eq!(cut(false, true), [2, 16, 32], "swiss v1 (kifu 0.1.0)");
    // MTR and Melee did not change between v2 and v3.
    for p in [Policy::Mtr, Policy::Melee] {
        assert_eq!(p.rules_v2(), p.rules());
    }
}

fn entrants(names: &[&str]) -> Vec<Entrant> {
    names
        .iter()
        .enumerate()
        .map(|(i, n)| Entrant { name: n.to_string(), draw: [40, 10, 30, 20, 50, 60][i % 6], ..Default::default() })
        .collect()
}

#[test]
fn players_tied_on_everything_share_a_rank_in_draw_order_never_name_order() {
    // Four players: a beat b, c beat d; then a-c draw... every winner and every loser identical.
    let names = ["IceCreamJuice17", "dolomiten", "aardvark", "Zed"];
    let e = entrants(&names);
    let m = |a, b| MatchRecord { a, b: Some(b), a_wins: 2, b_wins: 0, draws: 0 };
    let matches = vec![m(0, 1), m(2, 3), m(1, 3), m(0, 2)];
    let tallies = standings::tally_all(4, &[], &matches);
    let rows = standings::rank(&Policy::Mtr.rules(), &e, &tallies, &matches);
    assert_eq!(rows[0].player, "IceCreamJuice17");
    assert_eq!(rows[0].rank_label(), "1");
    // b and c are 1-1 with identical opponents' records and games: tied on every tiebreaker.
    let tied: Vec<_> = rows.iter().filter(|r| r.tied).collect();
    assert_eq!(tied.len(), 2, "{rows:#?}");
    assert!(tied.iter().all(|r| r.rank == 2 && r.rank_label() == "T2"));
    // The draw puts dolomiten (10) before aardvark (30), against name order.
    assert_eq!((rows[1].player.as_str(), rows[2].player.as_str()), ("dolomiten", "aardvark"));
    // Reversing the draw reverses them; names never decide.
    let mut e2 = e.clone();
    e2[1].draw = 99;
    let rows2 = standings::rank(&Policy::Mtr.rules(), &e2, &tallies, &matches);
    assert_eq!((rows2[1].player.as_str(), rows2[2].player.as_str()), ("aardvark", "dolomiten"));
}

#[test]
fn head_to_head_breaks_a_two_way_tie_before_the_draw() {
    // x beat y, and both finished 1-1: with head-to-head as the policy's step after points, x
    // ranks first although the draw (y 10, x 40) would put y first.
    let policy = Policy::Custom(CustomPolicy {
        name: "store".into(),
        win_points: 3,
        draw_points: 1,
        loss_points: 0,
        floor_permille: 0,
        tiebreakers: vec![Tiebreaker::HeadToHead],
        rounds: vec![],
    });
    let e = entrants(&["x", "y", "p", "q"]);
    let m = |a, b| MatchRecord { a, b: Some(b), a_wins: 2, b_wins: 0, draws: 0 };
    let matches = vec![m(0, 1), m(2, 0), m(1, 3), m(2, 3)];
    let tallies = standings::tally_all(4, &[], &matches);
    let rows = standings::rank(&policy.rules(), &e, &tallies, &matches);
    let order: Vec<&str> = rows.iter().map(|r| r.player.as_str()).collect();
    assert_eq!(order, ["p", "x", "y", "q"]);
    assert!(rows.iter().all(|r| !r.tied), "head-to-head decided it: {rows:#?}");
    assert_eq!((rows[1].rank, rows[2].rank), (2, 3));
}

#[test]
fn a_player_whose_only_round_was_a_bye_shows_the_floor() {
    let e = entrants(&["solo", "a", "b"]);
    let matches = vec![MatchRecord::bye(0), MatchRecord { a: 1, b: Some(2), a_wins: 2, b_wins: 1, draws: 0 }];
    let tallies = standings::tally_all(3, &[], &matches);
    for policy in [Policy::Mtr, Policy::Melee, Policy::Pokemon] {
        let rules = policy.rules();
        let rows = standings::rank(&rules, &e, &tallies, &matches);
        let solo = rows.iter().find(|r| r.player == "solo").unwrap();
        assert_eq!(solo.omw, rules.floor, "{}", rules.name);
        assert_eq!(solo.ogw, rules.floor, "{}", rules.name);
    }
}

#[test]
fn scores_are_checked_against_the_match_format() {
    let s = |a, b, d| MatchScore { a_wins: a, b_wins: b, draws: d };
    for ok in [s(2, 0, 0), s(2, 1, 0), s(1, 1, 1), s(0, 0, 0), s(1, 0, 0), s(2, 1, 1), s(0, 0, 3)] {
        assert!(ok.check(3, false).is_ok(), "{ok}");
    }
    for bad in [s(3, 3, 0), s(5, 0, 0), s(2, 2, 0), s(3, 0, 0), s(1, 0, 4)] {
        assert!(bad.check(3, false).is_err(), "{bad}");
    }
    assert!(s(1, 1, 1).check(3, true).is_err(), "a top-cut match needs a winner");
    assert!(s(1, 0, 0).check(1, false).is_ok() && s(2, 0, 0).check(1, false).is_err());
    assert!(s(3, 2, 0).check(5, false).is_ok() && s(3, 3, 0).check(5, false).is_err());
}
