//! `explain` against a reference read straight from the folded state: random events (late
//! entries, drops, draws, odd fields, both percentage rules) are recorded and every player's
//! explanation is checked round by round (the opponent, points before the round, the score group,
//! pair-downs, rematches, the bye) and for the standing (rank, each tiebreaker equal to the mean
//! of the opponents it lists, the neighbours on the same points), also as of an earlier round.
//! Then the refusals (unknown player, unpaired round, an over-long name), the CLI and the API.

use std::collections::BTreeMap;

use axum::http::StatusCode;
use proptest::prelude::*;
use rand::{RngExt, SeedableRng};

use kifu::game::commit::{commit_seed, Commitment, Secret};
use kifu::log::envelope::{Actor, StreamId, Timestamp};
use kifu::store::sled_store::SledStore;
use kifu::tournament::explain::{explain, Explanation};
use kifu::tournament::state::Tournament;
use kifu::tournament::TournamentError;
use kifu::tournament::{record, round_seed, ConfigV1, MatchScore, Policy, RoundsPlan, TournamentEvent as E};

use crate::support::TestEnv;

const SEED: Secret = Commitment([9; 32]);

fn config(policy: Policy, rounds: u32) -> ConfigV1 {
    ConfigV1 {
        name: "why cup".into(),
        game: "stones".into(),
        policy,
        rounds: RoundsPlan::Fixed(rounds),
        top_cut: 0,
        seed_commitment: Some(commit_seed(&SEED)),
    }
}

/// A random Swiss event as its events (every one legal when offered), folded as it goes; with
/// `churn`, players enter late and drop at random.
fn random_event(players: usize, rounds: u32, policy: Policy, seed: u64, churn: bool) -> Vec<E> {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut st = Tournament::default();
    let mut events = vec![E::Created { config: config(policy, rounds) }];
    events.extend((1..=players).map(|i| E::PlayerRegistered { player: format!("p{i:02}"), deck: None }));
    let offer = |st: &mut Tournament, events: &mut Vec<E>, e: E| {
        if st.validate(&e).is_empty() {
            *st = std::mem::take(st).apply(&e);
            events.push(e);
        }
    };
    for e in events.clone() {
        st = st.apply(&e);
    }
    let mut late = 0;
    for round in 1..=rounds {
        if churn && round > 1 && rng.random_range(0..3) == 0 {
            late += 1;
            let e = E::LateEntered { player: format!("late{late}"), deck: None, first_round: round };
            offer(&mut st, &mut events, e);
        }
        if churn && round > 1 && rng.random_range(0..3) == 0 {
            let active: Vec<String> =
                (0..st.players.len()).filter(|&p| st.active_in(p, round)).map(|p| st.players[p].name.clone()).collect();
            if active.len() > 3 {
                let who = active[rng.random_range(0..active.len())].clone();
                let e = E::PlayerDropped { player: who, after_round: round - 1, reason: "went home".into() };
                offer(&mut st, &mut events, e);
            }
        }
        let rs = round_seed(&SEED, round);
        let (tables, byes) = st.derive_round(round, &rs);
        offer(&mut st, &mut events, E::RoundPaired { round, tables: tables.clone(), byes, round_seed: Some(rs) });
        for t in tables {
            let score = match rng.random_range(0..5) {
                0 => MatchScore { a_wins: 2, b_wins: 0, draws: 0 },
                1 => MatchScore { a_wins: 2, b_wins: 1, draws: 0 },
                2 => MatchScore { a_wins: 1, b_wins: 2, draws: 0 },
                3 => MatchScore { a_wins: 0, b_wins: 2, draws: 0 },
                _ => MatchScore { a_wins: 1, b_wins: 1, draws: 1 },
            };
            offer(&mut st, &mut events, E::ResultReported { round, table: t.table, score, games: vec![] });
        }
    }
    events
}

/// Records `events` as a tournament stream in a fresh store and loads it back.
fn recorded(events: &[E]) -> (tempfile::TempDir, record::Loaded) {
    let dir = tempfile::tempdir().unwrap();
    let store =
        SledStore::open(&dir.path().join("data"), std::sync::Arc::new(kifu::clock::SteppingClock::fixed())).unwrap();
    let id = StreamId::new("why").unwrap();
    let E::Created { config } = &events[0] else { panic!("event 0 is Created") };
    record::create(&store, &id, config, Actor::Organizer("olga".into()), Timestamp(0), events[1..].to_vec()).unwrap();
    let loaded = record::load(&store, &id).unwrap();
    (dir, loaded)
}

fn fold(events: &[E]) -> Tournament {
    events.iter().fold(Tournament::default(), |st, e| st.apply(e))
}

fn mean(xs: &[f64]) -> Option<f64> {
    (!xs.is_empty()).then(|| xs.iter().sum::<f64>() / xs.len() as f64)
}

/// Every round of `x` against the final state `st` (the reference reads the state directly).
fn check_rounds(st: &Tournament, p: usize, x: &Explanation, only: Option<u32>) -> Result<(), TestCaseError> {
    let name = &st.players[p].name;
    let mut expected_rounds = Vec::new();
    for r in st.swiss().filter(|r| only.is_none_or(|o| o == r.round)) {
        let pl = &st.players[p];
        let dropped_before = pl.dropped_after.is_some_and(|d| d < r.round);
        if dropped_before && pl.dropped_after != Some(r.round - 1) {
            continue;
        }
        expected_rounds.push(r.round);
        let why = x.rounds.iter().find(|w| w.round == r.round);
        prop_assert!(why.is_some(), "{name}: round {} is not explained: {x:#?}", r.round);
        let why = why.unwrap();
        if pl.first_round > r.round {
            prop_assert_eq!(&why.kind, "missed");
            continue;
        }
        if dropped_before {
            prop_assert_eq!(&why.kind, "dropped");
            continue;
        }
        let before = st.points_before(r.round);
        let mine = before[p];
        prop_assert_eq!(why.points, Some(mine), "{}: points before round {}", name, r.round);
        let group = (0..st.players.len()).filter(|&q| st.active_in(q, r.round) && before[q] == mine).count();
        prop_assert_eq!(why.score_group, Some(group as u32), "{}: score group of round {}", name, r.round);
        if r.byes.contains(&p) {
            prop_assert_eq!(&why.kind, "bye");
            prop_assert!(
                why.why.iter().any(|w| w.contains("an odd number, so one of them had a bye")),
                "{:?}",
                why.why
            );
            continue;
        }
        let t = r.tables.iter().find(|t| t.a == p || t.b == p).unwrap();
        let opp = if t.a == p { t.b } else { t.a };
        let opp_name = &st.players[opp].name;
        prop_assert_eq!(&why.kind, "table");
        prop_assert_eq!(why.table, Some(t.table));
        prop_assert_eq!(&why.opponents, &vec![opp_name.clone()]);
        prop_assert_eq!(why.opponent_points, Some(before[opp]));
        prop_assert_eq!(why.paired_down, before[opp] < mine, "{}: paired down in round {}", name, r.round);
        prop_assert_eq!(why.paired_up, before[opp] > mine, "{}: paired up in round {}", name, r.round);
        if why.paired_down {
            let start = format!("You were paired down: {opp_name} had {} points.", before[opp]);
            prop_assert!(why.why.iter().any(|w| w.starts_with(&start)), "{:?}", why.why);
        }
        let met_before = st
            .swiss()
            .filter(|e| e.round < r.round)
            .flat_map(|e| &e.tables)
            .any(|e| (e.a == p && e.b == opp) || (e.b == p && e.a == opp));
        prop_assert_eq!(why.rematch, met_before, "{}: rematch in round {}", name, r.round);
        if met_before {
            prop_assert!(why.why.iter().any(|w| w.starts_with("This is a rematch")), "{:?}", why.why);
        }
    }
    let got: Vec<u32> = x.rounds.iter().map(|w| w.round).collect();
    prop_assert_eq!(got, expected_rounds, "{}: the rounds explained", name);
    Ok(())
}

/// The standing of `x` against the standings of `st` (the state it is as of).
fn check_standing(st: &Tournament, name: &str, x: &Explanation) -> Result<(), TestCaseError> {
    let Some(p) = st.player(name) else {
        prop_assert!(x.standing.is_none(), "{name} had not entered yet: no standing");
        return Ok(());
    };
    let rules = st.rules().unwrap();
    let rows = st.standings();
    let at = rows.iter().position(|r| r.player == st.players[p].name).unwrap();
    let row = &rows[at];
    let s = x.standing.as_ref().unwrap();
    prop_assert_eq!(&s.rank, &row.rank_label());
    prop_assert_eq!(s.points, row.points);
    prop_assert_eq!(s.of as usize, rows.len());
    let value = |label: &str| s.tiebreakers.iter().find(|t| t.name == label);
    let opponents: Vec<String> = st.tallies.0[p].opponents.iter().map(|&o| st.players[o].name.clone()).collect();
    for (label, v) in [("OMW%", row.omw), ("OGW%", row.ogw), ("OOMW%", row.oomw), ("GW%", row.gw), ("MW%", row.mw)] {
        let Some(tb) = value(label) else { continue };
        prop_assert!((tb.value.unwrap() - v).abs() < 1e-12, "{label}: {:?} against {v}", tb.value);
        if tb.parts.is_empty() {
            continue;
        }
        let mut listed: Vec<String> = tb.parts.iter().map(|x| x.opponent.clone()).collect();
        let mut want = opponents.clone();
        listed.sort();
        want.sort();
        prop_assert_eq!(listed, want, "{} lists every opponent once per match", label);
        // A Pokémon player who dropped keeps the OMW% they had at the drop: not today's mean.
        let frozen = label == "OMW%" && rules.pokemon_pct && row.dropped;
        if !frozen {
            let m = mean(&tb.parts.iter().map(|x| x.value).collect::<Vec<_>>()).unwrap();
            prop_assert!((m - v).abs() < 1e-9, "{label} {v} is not the mean {m} of {:?}", tb.parts);
        }
    }
    for c in &s.beside {
        let other = rows.iter().position(|r| r.player == c.player).unwrap();
        prop_assert_eq!(rows[other].points, row.points, "beside: the same points");
        prop_assert_eq!(other.abs_diff(at), 1, "beside: next to the player");
        prop_assert_eq!(c.above, other < at);
    }
    let same_points_next = [at.checked_sub(1), Some(at + 1)]
        .into_iter()
        .flatten()
        .filter(|&i| rows.get(i).is_some_and(|r| r.points == row.points))
        .count();
    prop_assert_eq!(s.beside.len(), same_points_next, "every neighbour on the same points is compared");
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn explanations_agree_with_the_pairings_and_standings(
        players in 4usize..14,
        rounds in 2u32..6,
        pokemon in any::<bool>(),
        seed in any::<u64>(),
    ) {
        let policy = if pokemon { Policy::Pokemon } else { Policy::Mtr };
        let events = random_event(players, rounds, policy, seed, true);
        let (_dir, loaded) = recorded(&events);
        let st = &loaded.state;
        for p in 0..st.players.len() {
            let name = st.players[p].name.clone();
            let x = explain(&loaded, &name.to_uppercase(), None).unwrap();
            prop_assert_eq!(&x.player, &name, "the name resolves case-insensitively");
            check_rounds(st, p, &x, None)?;
            check_standing(st, &name, &x)?;
        }
        // As of a round: that round only, and the standing as it was when the next was paired.
        let r = 1 + (seed % u64::from(st.swiss_played())) as u32;
        let cut = events
            .iter()
            .position(|e| matches!(e, E::RoundPaired { round, .. } if *round == r + 1))
            .unwrap_or(events.len());
        let then = fold(&events[..cut]);
        for p in 0..st.players.len() {
            let x = explain(&loaded, &st.players[p].name, Some(r)).unwrap();
            check_rounds(st, p, &x, Some(r))?;
            check_standing(&then, &st.players[p].name, &x)?;
            let as_of = if cut < events.len() { format!("after round {r}") } else { "now".into() };
            prop_assert_eq!(&x.standing_as_of, &as_of);
        }
    }
}

/// Seven players, three rounds: the bye each round goes to the lowest-ranked player without one,
/// and the explanation says so in those words.
#[test]
fn the_bye_is_explained_by_rank() {
    let events = random_event(7, 3, Policy::Mtr, 11, false);
    let (_dir, loaded) = recorded(&events);
    let st = &loaded.state;
    let mut byes = BTreeMap::new();
    for r in st.swiss() {
        let b = r.byes[0];
        byes.insert(r.round, st.players[b].name.clone());
        let x = explain(&loaded, &st.players[b].name, Some(r.round)).unwrap();
        let why = &x.rounds[0];
        assert_eq!(why.kind, "bye");
        let text = why.why.join(" ");
        assert!(text.contains("7 players were in the round, an odd number"), "{text}");
        assert!(
            text.contains("lowest-ranked player who has not had one")
                || text.contains("ranked below you without a bye"),
            "{text}"
        );
        // Nobody gets a second bye in three rounds of seven.
        assert!(!text.contains("You had already had a bye"), "{text}");
    }
    let mut names: Vec<&String> = byes.values().collect();
    names.dedup();
    assert_eq!(names.len(), 3, "three different players had the byes: {byes:?}");
}

#[test]
fn explain_refuses_what_it_cannot_explain() {
    let events = random_event(6, 2, Policy::Mtr, 3, false);
    let (_dir, loaded) = recorded(&events);
    match explain(&loaded, "p0l", None) {
        Err(TournamentError::UnknownPlayer(v)) => {
            assert_eq!(v.rule, "TOUR-REG-4");
            assert!(v.message.contains("did you mean"), "{v}");
        }
        other => panic!("an unknown player: {other:?}"),
    }
    match explain(&loaded, "p01", Some(3)) {
        Err(TournamentError::Input(m)) => assert_eq!(m, "round 3 is not paired: rounds 1 to 2 are"),
        other => panic!("an unpaired round: {other:?}"),
    }
    match explain(&loaded, &"x".repeat(500), None) {
        Err(TournamentError::Input(m)) => assert!(m.contains("the player's name"), "{m}"),
        other => panic!("an over-long name: {other:?}"),
    }
}

/// `kifu tournament explain` through the CLI: text, JSON, and refusals as JSON with exit 1.
#[test]
fn explain_through_the_cli() {
    let env = TestEnv::new();
    let seed = "22".repeat(32);
    env.ok(&[
        "tournament",
        "new",
        "--name",
        "Friday",
        "--game",
        "stones",
        "--id",
        "fri",
        "--seed",
        &seed,
        "--rounds",
        "2",
    ]);
    env.ok(&["tournament", "register", "fri", "ann", "bo", "cy", "dee", "eve"]);
    env.ok(&["tournament", "pair", "fri"]);
    let loaded = record::load(&env.store(), &StreamId::new("fri").unwrap()).unwrap();
    for t in &loaded.state.rounds[0].tables {
        let a = loaded.state.players[t.a].name.clone();
        env.ok(&["tournament", "report", "fri", "--winner", &a, "2-0"]);
    }
    env.ok(&["tournament", "pair", "fri"]);
    let bye = loaded.state.players[loaded.state.rounds[0].byes[0]].name.clone();
    // Round 2 changed by hand: the explanation says by whom and why, not that the seed chose it.
    let round2 = record::load(&env.store(), &StreamId::new("fri").unwrap()).unwrap().state;
    let t = &round2.rounds[1].tables[0];
    let (a, b) = (round2.players[t.a].name.clone(), round2.players[round2.rounds[1].tables[1].a].name.clone());
    env.ok(&["tournament", "override", "fri", "--swap", &a, &b, "--by", "olga", "--reason", "seat by the door"]);
    let v: serde_json::Value =
        serde_json::from_str(&env.ok(&["tournament", "explain", "fri", &a, "--round", "2", "--json"])).unwrap();
    let why = v["rounds"][0]["why"].to_string();
    assert!(why.contains("changed by hand by olga: seat by the door"), "{why}");
    assert!(!why.contains("Rematches avoided"), "a hand-made pairing is not explained by the seed: {why}");
    let text = env.ok(&["tournament", "explain", "fri", &bye]);
    assert!(text.contains("Round 1: a bye"), "{text}");
    assert!(text.contains("Round 2: table"), "{text}");
    assert!(text.contains("Standing (now)"), "{text}");
    assert!(text.contains("OMW%"), "{text}");
    let v: serde_json::Value =
        serde_json::from_str(&env.ok(&["tournament", "explain", "fri", &bye, "--round", "1", "--json"])).unwrap();
    assert_eq!(v["rounds"].as_array().unwrap().len(), 1, "{v}");
    assert_eq!(v["rounds"][0]["kind"], "bye", "{v}");
    assert_eq!(v["standing_as_of"], "after round 1", "{v}");
    let before = loaded.head.len;
    let out = env.kifu(&["tournament", "explain", "fri", "zed", "--json"]);
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v["error"].as_str().unwrap().contains("zed"), "{v}");
    let out = env.kifu(&["tournament", "explain", "fri", "ann", "--round", "7"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("round 7 is not paired: rounds 1 to 2 are"));
    let after = record::load(&env.store(), &StreamId::new("fri").unwrap()).unwrap().head.len;
    assert!(after >= before, "explaining writes nothing: only the pairing and reports above did");
}

/// The API: public like the standings it is read from; unknown players 404, bad rounds 400.
#[test]
fn explain_through_the_api() {
    let env = crate::server::ServerEnv::new();
    let router = kifu::server::app(env.state.clone());
    crate::server::rt().block_on(async {
        let (s, v) = crate::server::get(&router, "/api/v1/tournaments/cup/explain/player-03", None).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        assert_eq!(v["player"], "player-03");
        assert!(!v["rounds"].as_array().unwrap().is_empty(), "{v}");
        assert!(v["standing"]["tiebreakers"].as_array().unwrap().iter().any(|t| t["name"] == "OMW%"), "{v}");
        let player = env.token(kifu::server::tokens::Role::Player, "cup", "player-03");
        let (s, mine) =
            crate::server::get(&router, "/api/v1/tournaments/cup/explain/player-03?round=2", Some(&player)).await;
        assert_eq!(s, StatusCode::OK, "{mine}");
        assert_eq!(mine["rounds"].as_array().unwrap().len(), 1, "{mine}");
        let (s, v) = crate::server::get(&router, "/api/v1/tournaments/cup/explain/nobody", None).await;
        assert_eq!(s, StatusCode::NOT_FOUND, "{v}");
        assert!(v["error"].as_str().unwrap().contains("nobody"), "{v}");
        let (s, v) = crate::server::get(&router, "/api/v1/tournaments/cup/explain/player-03?round=40", None).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
        assert!(v["error"].as_str().unwrap().contains("round 40 is not paired"), "{v}");
    });
}
