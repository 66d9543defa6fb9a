//! Conceding (issue 52): in every game a player concedes for their own seat through
//! `POST /games/{id}/concede`, recorded as `GameEntry::Conceded` with that player as the actor.
//! A two-seat game ends with the other seat winning; a FATE pod of three goes on without the
//! conceding seat, which takes the last place. Refused: a judge (who gives a game loss instead),
//! another seat's player, a concession after the game is over or a second one. The timeline and
//! the audit say it in the past tense, and the game exports and imports with it. The options
//! answer says which seats the game awaits and marks the options of the other seats as any-time
//! actions.

use axum::http::StatusCode;
use serde_json::{json, Value};

use kifu::game::{record, Game, GameEntry};
use kifu::games::brk::Brk;
use kifu::games::fate::config::GameEnd;
use kifu::games::fate::{Fate, FateConfig};
use kifu::games::lc::Lc;
use kifu::games::naruto::NarutoV4;
use kifu::games::vanguard::VanguardV2;
use kifu::log::envelope::{Actor, MatchBinding, MatchPlace, StreamId, Timestamp};
use kifu::server::tokens::Role;
use kifu::store::sled_store::SledStore;
use kifu::store::Store;

use super::five_games::{open_pod, recordable};
use super::{call, get, open_match_of, rt, ServerEnv};

const AT: Timestamp = Timestamp(1_767_225_600_000_000);

/// A new game of `G` bound to round 1 of `tid` for `players` (a table of two, else a pod).
fn bound_game<G: Game>(env: &ServerEnv, tid: &str, players: &[String]) -> (StreamId, Vec<String>) {
    bound_game_with::<G>(env, tid, players, |_| {})
}

/// As [`bound_game`], the configuration changed by `adjust` first.
fn bound_game_with<G: Game>(
    env: &ServerEnv,
    tid: &str,
    players: &[String],
    adjust: impl FnOnce(&mut G::Config),
) -> (StreamId, Vec<String>) {
    let store = env.state.store().clone();
    let (seated, place) = if players.len() == 2 {
        open_match_of(&*store, tid, G::RULESET, players);
        (players.to_vec(), MatchPlace::Table(1))
    } else {
        (open_pod(&*store, tid, G::RULESET, players), MatchPlace::Pod(1))
    };
    let (mut config, _) = recordable::<G>(&seated);
    adjust(&mut config);
    let stream = StreamId::new(&format!("{tid}-r1-g1")).unwrap();
    let bound = MatchBinding { tournament: StreamId::new(tid).unwrap(), round: 1, place };
    record::create_bound::<G>(&*store, &stream, &config, AT, Some(bound)).unwrap();
    (stream, seated)
}

async fn concede(app: &axum::Router, stream: &StreamId, token: &str, seat: usize) -> (StatusCode, Value) {
    call(app, "POST", &format!("/api/v1/games/{stream}/concede"), Some(token), Some(json!({ "seat": seat }))).await
}

/// The judge's timeline texts of the concessions (the automatic steps a concession makes due,
/// such as a dealer's reveal, stand beside them).
async fn timeline(app: &axum::Router, stream: &StreamId, judge: &str) -> Vec<String> {
    let (st, v) = get(app, &format!("/api/v1/games/{stream}/events?as=judge"), Some(judge)).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    let entries = v["entries"].as_array().unwrap();
    entries.iter().filter(|e| e["kind"] == "concession").map(|e| e["text"].as_str().unwrap().to_string()).collect()
}

/// Every refusal's text names `rule`.
fn refused_with(got: (StatusCode, Value), status: StatusCode, rule: &str) {
    assert_eq!(got.0, status, "{}", got.1);
    assert!(got.1["error"].as_str().unwrap_or_default().contains(rule), "{rule}: {}", got.1);
}

/// A two-seat game of `G`: the second seat concedes, the first wins; every refusal holds.
fn a_concession_ends_a_two_seat_game<G: Game>() {
    let env = ServerEnv::new();
    let app = env.app();
    let store = env.state.store().clone();
    let tid = format!("{}-concede", G::RULESET);
    let players: Vec<String> = ["ana", "rui"].iter().map(|s| s.to_string()).collect();
    let (stream, players) = bound_game::<G>(&env, &tid, &players);
    let tokens: Vec<String> = players.iter().map(|p| env.token(Role::Player, &tid, p)).collect();
    let judge = env.token(Role::Judge, &tid, "jin");
    rt().block_on(async {
        // Before: each player may concede for their own seat only.
        let (st, v) = get(&app, &format!("/api/v1/games/{stream}/options"), Some(&tokens[1])).await;
        assert_eq!(st, StatusCode::OK, "{v}");
        assert_eq!(v["concede"], json!([1]), "{v}");
        assert_eq!(v["out"], json!([]));
        // A judge may not concede for a player; a player may not concede for another seat.
        let (st, v) = concede(&app, &stream, &judge, 1).await;
        assert_eq!(st, StatusCode::FORBIDDEN, "{v}");
        let (st, v) = concede(&app, &stream, &tokens[0], 1).await;
        assert_eq!(st, StatusCode::FORBIDDEN, "{v}");
        // Nor through the recorder, whoever enters it in the player's name.
        let judged = record::record::<G>(
            &*store,
            &stream,
            Actor::Judge("jin".into()),
            GameEntry::Conceded { seat: 1 },
            None,
            None,
        );
        assert!(judged.unwrap_err().to_string().contains("KIFU-CONCEDE-1"));
        let other = record::record::<G>(
            &*store,
            &stream,
            Actor::Player(players[0].clone()),
            GameEntry::Conceded { seat: 1 },
            None,
            None,
        );
        assert!(other.unwrap_err().to_string().contains("KIFU-CONCEDE-1"));
        let len = store.head(&stream).unwrap().len;
        assert_eq!(len, 0, "nothing recorded");

        let (st, v) = concede(&app, &stream, &tokens[1], 1).await;
        assert_eq!(st, StatusCode::CREATED, "{v}");
        assert_eq!(v["options"], json!([]), "the game is over: {v}");
        assert_eq!(v["concede"], json!([]), "{v}");
        let (_, audit) = get(&app, &format!("/api/v1/games/{stream}/audit"), Some(&judge)).await;
        assert_eq!(audit["findings"], json!([]), "{audit}");
        assert_eq!(audit["outcome"]["placements"], json!([[0], [1]]), "{audit}");
        assert_eq!(audit["outcome"]["eliminated"], json!([1]), "{audit}");
        assert_eq!(audit["outcome"]["reason"], json!("rui conceded"), "{audit}");
        assert_eq!(timeline(&app, &stream, &judge).await, ["rui conceded"]);
        // Once over: neither seat concedes, and no one concedes twice.
        refused_with(concede(&app, &stream, &tokens[1], 1).await, StatusCode::UNPROCESSABLE_ENTITY, "KIFU-CONCEDE-2");
        refused_with(concede(&app, &stream, &tokens[0], 0).await, StatusCode::UNPROCESSABLE_ENTITY, "KIFU-CONCEDE-2");
        let after = store.head(&stream).unwrap().len;
        refused_with(concede(&app, &stream, &tokens[0], 0).await, StatusCode::UNPROCESSABLE_ENTITY, "KIFU-CONCEDE-2");
        assert_eq!(store.head(&stream).unwrap().len, after, "nothing more recorded");
    });

    // Export and import: the concession comes back with its player, the outcome the same.
    let driver = kifu::games::driver(G::RULESET).unwrap();
    let text = driver.export_jsonl(&store.export(&stream).unwrap()).unwrap();
    let line = text.lines().nth(1).unwrap();
    assert_eq!(serde_json::from_str::<Value>(line).unwrap()["entry"], json!({ "Conceded": { "seat": 1 } }), "{line}");
    assert_eq!(serde_json::from_str::<Value>(line).unwrap()["actor"], json!("player:rui"), "{line}");
    let other = SledStore::temporary(std::sync::Arc::new(kifu::clock::SteppingClock::fixed())).unwrap();
    let (copy, _) = driver.import_jsonl(&other, &text, None, AT, false).unwrap();
    let report = driver.audit(&other.export(&copy).unwrap()).unwrap();
    assert_eq!(report.outcome.unwrap().winners(), [0]);
    // A concession after the end is refused on import as well.
    let n = text.lines().count() - 1;
    let twice = format!("{}{}\n", text, line.replace("\"seq\":0", &format!("\"seq\":{n}")));
    let err = driver.import_jsonl(&other, &twice, Some(StreamId::new("twice").unwrap()), AT, false).unwrap_err();
    assert!(err.to_string().contains("KIFU-CONCEDE-2"), "{err}");
}

#[test]
fn a_concession_ends_an_lc_game() {
    a_concession_ends_a_two_seat_game::<Lc>();
}

#[test]
fn a_concession_ends_a_naruto_game() {
    a_concession_ends_a_two_seat_game::<NarutoV4>();
}

#[test]
fn a_concession_ends_a_vanguard_game() {
    a_concession_ends_a_two_seat_game::<VanguardV2>();
}

#[test]
fn a_concession_ends_a_brk_game() {
    a_concession_ends_a_two_seat_game::<Brk>();
}

#[test]
fn a_concession_ends_a_two_master_fate_game() {
    a_concession_ends_a_two_seat_game::<Fate>();
}

/// Each seat's options answer: the awaited seats with their names, and every option of a seat
/// the game does not await marked any-time (those of an awaited seat not).
async fn check_awaited_answers(
    app: &axum::Router,
    stream: &StreamId,
    tokens: &[String],
    players: &[String],
) -> Vec<u64> {
    let mut awaited: Option<Vec<u64>> = None;
    for (seat, token) in tokens.iter().enumerate() {
        let (st, v) = get(app, &format!("/api/v1/games/{stream}/options"), Some(token)).await;
        assert_eq!(st, StatusCode::OK, "{v}");
        let seats: Vec<u64> = v["awaited"].as_array().unwrap().iter().map(|a| a["seat"].as_u64().unwrap()).collect();
        for a in v["awaited"].as_array().unwrap() {
            assert_eq!(a["name"].as_str().unwrap(), players[a["seat"].as_u64().unwrap() as usize]);
        }
        assert_eq!(*awaited.get_or_insert(seats.clone()), seats, "every seat reads the same awaited seats");
        for o in v["options"].as_array().unwrap() {
            assert_eq!(o["any_time"], json!(!seats.contains(&(seat as u64))), "seat {seat}: {o}");
        }
    }
    awaited.unwrap_or_default()
}

/// A FATE pod of three under `game_end` (FATE-OPEN-18).
fn fate_pod(env: &ServerEnv, tid: &str, game_end: GameEnd) -> (StreamId, Vec<String>) {
    let names: Vec<String> = ["ana", "rui", "kai"].iter().map(|s| s.to_string()).collect();
    bound_game_with::<Fate>(env, tid, &names, |c| {
        let FateConfig::V1(c) = c;
        c.policies.game_end = game_end;
    })
}

#[test]
fn a_fate_pod_of_three_goes_on_without_the_master_who_conceded() {
    let env = ServerEnv::new();
    let app = env.app();
    let tid = "fate-pod-concede";
    let (stream, players) = fate_pod(&env, tid, GameEnd::LastStanding);
    let tokens: Vec<String> = players.iter().map(|p| env.token(Role::Player, tid, p)).collect();
    let judge = env.token(Role::Judge, tid, "jin");
    rt().block_on(async {
        check_awaited_answers(&app, &stream, &tokens, &players).await;
        let (st, v) = concede(&app, &stream, &tokens[1], 1).await;
        assert_eq!(st, StatusCode::CREATED, "{v}");
        assert_eq!(v["out"], json!([1]), "{v}");
        assert_eq!(v["options"], json!([]), "an out seat has no options: {v}");
        let (_, audit) = get(&app, &format!("/api/v1/games/{stream}/audit"), Some(&judge)).await;
        assert_eq!(audit["outcome"], Value::Null, "two Masters are left: the game goes on ({audit})");
        assert_eq!(audit["findings"], json!([]), "{audit}");
        let awaited = check_awaited_answers(&app, &stream, &tokens, &players).await;
        assert!(!awaited.contains(&1), "{awaited:?}");
        let mut left = 0;
        for seat in [0, 2] {
            let (_, v) = get(&app, &format!("/api/v1/games/{stream}/options"), Some(&tokens[seat])).await;
            left += v["options"].as_array().unwrap().len();
        }
        assert!(left > 0, "the two Masters left play on");
        // Out already: a second concession is refused.
        refused_with(concede(&app, &stream, &tokens[1], 1).await, StatusCode::UNPROCESSABLE_ENTITY, "KIFU-CONCEDE-2");
        // The next to concede leaves one Master: the game ends, the first out placed last.
        let (st, v) = concede(&app, &stream, &tokens[2], 2).await;
        assert_eq!(st, StatusCode::CREATED, "{v}");
        let (_, audit) = get(&app, &format!("/api/v1/games/{stream}/audit"), Some(&judge)).await;
        assert_eq!(audit["outcome"]["placements"], json!([[0], [2], [1]]), "{audit}");
        assert_eq!(audit["outcome"]["eliminated"], json!([1, 2]), "{audit}");
        assert_eq!(audit["outcome"]["reason"], json!(format!("{}, {} conceded", players[1], players[2])), "{audit}");
        let places = kifu::tournament::pods::places_from_outcome(
            &serde_json::from_value(audit["outcome"].clone()).unwrap(),
            players.len(),
        );
        assert_eq!(places, [1, 3, 2], "the pod's places count the concessions as losses");
        let said = timeline(&app, &stream, &judge).await;
        assert_eq!(said, [format!("{} conceded", players[1]), format!("{} conceded", players[2])]);
    });
}

/// A pod whose rules end the game at the first defeat (FATE-OPEN-18 `first-defeat`): a concession
/// ends it as a defeat would, the conceding Master last, the reason the concession.
#[test]
fn a_fate_pod_that_ends_at_the_first_defeat_ends_at_a_concession() {
    let env = ServerEnv::new();
    let app = env.app();
    let tid = "fate-first-defeat";
    let (stream, players) = fate_pod(&env, tid, GameEnd::FirstDefeat);
    let token = env.token(Role::Player, tid, &players[1]);
    let judge = env.token(Role::Judge, tid, "jin");
    rt().block_on(async {
        let (st, v) = concede(&app, &stream, &token, 1).await;
        assert_eq!(st, StatusCode::CREATED, "{v}");
        let (_, audit) = get(&app, &format!("/api/v1/games/{stream}/audit"), Some(&judge)).await;
        assert_eq!(audit["outcome"]["placements"], json!([[0, 2], [1]]), "{audit}");
        assert_eq!(audit["outcome"]["eliminated"], json!([1]), "{audit}");
        assert_eq!(audit["outcome"]["reason"], json!(format!("{} conceded", players[1])), "{audit}");
    });
}
