//! Every option leads somewhere: a player picking uniformly among every option offered to any
//! seat, and uniformly among each parameter's offered values, through the page's pick path,
//! never reaches a state where the game is not over and no seat has an option, and every pick
//! it makes is accepted. Each game, in each randomness mode it has (`games::explore_all`), over
//! a bounded sample of seeded games; a game that hits the event cap is counted, not failed.

/// Games per game and mode, and the events after which one counts as capped.
const GAMES: usize = 30;
const CAP: usize = 3_000;

/// The games and modes whose pickers offer only values the rules accept; the rest (Naruto's
/// multi-team blocks and all-of costs) are reported. No game or mode may reach a dead end.
const HOLDS: &[(&str, &str)] = &[
    ("vanguard", "physical"),
    ("brk", "physical"),
    ("lc", "physical"),
    ("lc", "dealt"),
    ("fate", "physical"),
    ("fate", "digital"),
];

#[test]
fn uniform_picks_reach_no_dead_end_and_every_offered_pick_is_accepted() {
    let mut broken = Vec::new();
    for row in kifu::games::explore_all(GAMES, CAP) {
        let x = &row.tally;
        eprintln!(
            "{} {}: {} games, {} ended, {} capped, {} dead ends, {} refused picks {:?}",
            row.ruleset, row.mode, x.games, x.over, x.capped, x.dead_ends, x.refused, x.refused_by_rule
        );
        assert_eq!(x.refused_by_rule.values().sum::<usize>(), x.refused, "{} {}", row.ruleset, row.mode);
        assert_eq!(x.games, GAMES, "{} {}: not enough seeds in this mode", row.ruleset, row.mode);
        assert!(x.over > 0, "{} {}: no game ended: {x:?}", row.ruleset, row.mode);
        let refusals_count = HOLDS.contains(&(row.ruleset, row.mode));
        if x.dead_ends > 0 || (refusals_count && x.refused > 0) {
            broken.push(format!(
                "{} {}: {} dead ends (first {:?}), {} refused picks (first {:?})",
                row.ruleset, row.mode, x.dead_ends, x.first_dead_end, x.refused, x.first_refusal
            ));
        }
    }
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}

/// BRK version 6 (`declaring_lapses`): a card revealed to act that has no game action the rules
/// accept no longer holds the game up. Under version 5 every uniformly picked game stopped there
/// (the card's controller had nothing to record); under version 6 they end.
#[test]
fn brk_version_6_releases_a_card_revealed_to_act_that_cannot_act() {
    use kifu::game::explore::tally;
    let v5 = tally::<kifu::games::brk::BrkV5>(5, |_| true, CAP);
    assert_eq!(v5.dead_ends, 5, "{v5:?}");
    let state = v5.dead_end_state.unwrap_or_default();
    assert!(state.contains("declaring: Some("), "version 5's dead end is not a card revealed to act: {state}");
    let v6 = tally::<kifu::games::brk::BrkV6>(5, |_| true, CAP);
    assert_eq!((v6.dead_ends, v6.refused, v6.over), (0, 0, 5), "{v6:?}");
}
