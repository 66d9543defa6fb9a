//! Every game recorded whole through the options API alone: the players of a bound match (a
//! table of two, or a pod for FATE) each pick from their own token and see only their own seat's
//! options, kifu records the automatic steps, a judge forces one illegal action and backs it up;
//! the log verifies, its audit flags exactly the forced event (resolved by the judge), and its
//! played events equal, event for event, the game the agent played.

use std::collections::BTreeMap;

use axum::http::StatusCode;
use serde_json::{json, Value};

use kifu::game::options::{offering, option_id, ParamKind, Pick};
use kifu::game::reach::{dealer_of, reach};
use kifu::game::{record, selfplay, Game, GameEntry};
use kifu::log::envelope::{Actor, MatchBinding, MatchPlace, StreamId, Timestamp};
use kifu::server::tokens::Role;
use kifu::store::Store;
use kifu::tournament::{record as tournament, round_seed, ConfigV1, Policy, RoundsPlan, TournamentEvent};

use super::{call, get, open_match_of, rt, ServerEnv};
use crate::options::replay_of;

/// A pod tournament of `game` with `players` registered and round 1 paired into one pod;
/// returns the pod's players in seat order.
pub(super) fn open_pod(store: &dyn Store, tournament: &str, game: &str, players: &[String]) -> Vec<String> {
    open_pods(store, tournament, game, players, players.len() as u32).remove(0)
}

/// As [`open_pod`] with pods of `size` (and one smaller): every pod of round 1, seats in order.
pub(super) fn open_pods(
    store: &dyn Store,
    tournament: &str,
    game: &str,
    players: &[String],
    size: u32,
) -> Vec<Vec<String>> {
    use kifu::game::commit::{commit_seed, Commitment};
    let id = StreamId::new(tournament).unwrap();
    let seed = Commitment([6; 32]);
    let config = ConfigV1 {
        name: format!("{game} pods"),
        game: game.into(),
        policy: Policy::Mtr,
        rounds: RoundsPlan::Fixed(1),
        top_cut: 0,
        seed_commitment: Some(commit_seed(&seed)),
    };
    let mut events: Vec<TournamentEvent> =
        players.iter().map(|p| TournamentEvent::PlayerRegistered { player: p.clone(), deck: None }).collect();
    events.push(TournamentEvent::PodFormatSet { size, sole_win: 3, shared_win: 1, loss: 0 });
    let org = Actor::Organizer("ora".into());
    tournament::create(store, &id, &config, org.clone(), Timestamp(1_767_225_600_000_000), events).unwrap();
    let state = tournament::load(store, &id).unwrap().state;
    let rs = round_seed(&seed, 1);
    let pods = state.derive_pods(1, &rs).unwrap();
    let paired = TournamentEvent::PodRoundPaired { round: 1, pods: pods.clone(), round_seed: rs };
    tournament::record(store, &id, org, vec![paired]).unwrap();
    pods
}

/// The self-played games of `G` at this table (seats in order) from `seeds` that a table can
/// record through options alone: every event an option or an automatic step, no escape hatch,
/// and no dealer's seed.
fn recordable_games<G: Game>(
    players: &[String],
    seeds: std::ops::Range<u64>,
) -> impl Iterator<Item = (G::Config, Vec<G::Event>)> + '_ {
    seeds.filter_map(move |seed| {
        let game = selfplay::self_play::<G>(seed, players, 5_000).unwrap();
        let events: Vec<G::Event> = game
            .entries
            .into_iter()
            .filter_map(|(_, e)| if let GameEntry::Played(e) = e { Some(e) } else { None })
            .collect();
        let replay = replay_of::<G>(&game.config, &events);
        let r = reach(&replay);
        // Escape hatches are a judge's events (the events API), not picks: a game without them.
        let recordable = G::outcome(&replay.tip().game).is_some()
            && dealer_of(&replay).is_none()
            && r.unreachable.is_empty()
            && r.as_events.is_empty();
        recordable.then_some((game.config, events))
    })
}

/// The first game of [`recordable_games`] in 100 seeds.
pub(super) fn recordable<G: Game>(players: &[String]) -> (G::Config, Vec<G::Event>) {
    recordable_games::<G>(players, 0..100)
        .next()
        .unwrap_or_else(|| panic!("no {} game recordable through options in 100 seeds", G::RULESET))
}

/// The shortest game of [`recordable_games`] in the first `seeds` (the quickest to record through
/// a browser), or the first in 100 seeds when none of them is recordable.
pub(super) fn shortest_recordable<G: Game>(players: &[String], seeds: u64) -> (G::Config, Vec<G::Event>) {
    recordable_games::<G>(players, 0..seeds).min_by_key(|(_, e)| e.len()).unwrap_or_else(|| recordable::<G>(players))
}

/// The option (id, seat, parameters) that records `event` in `state` after `len` events, as a
/// page would send it.
pub(super) fn option_for<G: Game>(
    state: &G::State,
    len: u64,
    event: &G::Event,
) -> (String, u8, BTreeMap<String, Value>) {
    let o = offering::<G>(state, event).into_iter().next().unwrap_or_else(|| panic!("{event:?} is no option"));
    let params = match &o.pick {
        Pick::Event(_) => BTreeMap::new(),
        Pick::Param { param, .. } if param.kind == ParamKind::Dealt => BTreeMap::new(),
        Pick::Param { param, read, .. } => [(param.name.to_string(), json!(read(event).unwrap()))].into(),
    };
    (option_id(len, &o), o.seat, params)
}

/// Whether the option recording `event` takes a secret its page makes or opens by itself.
pub(super) fn is_secret<G: Game>(state: &G::State, event: &G::Event) -> bool {
    offering::<G>(state, event).first().and_then(|o| o.param()).is_some_and(|p| p.kind == ParamKind::Secret)
}

/// Records the agent's game of `G` through the API, as described at the top of this file. `G` is
/// the version a new game of `game` records (the registry's newest), as at a real table.
fn record_through_the_api<G: Game>(game: &str, seats: usize) {
    let newest = kifu::games::driver(game).unwrap().ruleset_version();
    assert_eq!(G::RULESET_VERSION, newest, "{game}: record under the version a new game records");
    let env = ServerEnv::new();
    let store = env.state.store().clone();
    let tid = format!("{game}-cup");
    let names: Vec<String> =
        ["ana", "rui", "kai", "mei", "sol", "tia"][..seats].iter().map(|s| s.to_string()).collect();
    let (players, place) = if seats == 2 {
        open_match_of(&*store, &tid, game, &names);
        (names.clone(), MatchPlace::Table(1))
    } else {
        (open_pod(&*store, &tid, game, &names), MatchPlace::Pod(1))
    };
    let (config, events) = recordable::<G>(&players);
    let stream = StreamId::new(&format!("{tid}-r1-g1")).unwrap();
    let bound = MatchBinding { tournament: StreamId::new(&tid).unwrap(), round: 1, place };
    record::create_bound::<G>(&*store, &stream, &config, Timestamp(1_767_225_600_000_000), Some(bound)).unwrap();
    let tokens: Vec<String> = players.iter().map(|p| env.token(Role::Player, &tid, p)).collect();
    let judge = env.token(Role::Judge, &tid, "jin");
    let app = env.app();
    let uri = format!("/api/v1/games/{stream}/options");
    rt().block_on(async {
        // Each player sees only their own seat's options; another seat's are refused.
        for (seat, token) in tokens.iter().enumerate() {
            let (st, body) = get(&app, &uri, Some(token)).await;
            assert_eq!(st, StatusCode::OK, "{game}: {body}");
            assert!(body["options"].as_array().unwrap().iter().all(|o| o["seat"] == seat), "{game}: {body}");
            let other = (seat + 1) % seats;
            let (st, body) = get(&app, &format!("{uri}?seat={other}"), Some(token)).await;
            assert_eq!(st, StatusCode::FORBIDDEN, "{game}: {body}");
        }
        let mut state = G::setup(&config).unwrap();
        let (mut len, mut played, mut forced) = (0u64, 0usize, None);
        while played < events.len() {
            let event = &events[played];
            // Once the game is under way, the judge forces an earlier action again (now illegal)
            // and backs it up; the players then go on.
            let due = forced.is_none() && played >= 10;
            let again = events[..played].iter().filter(|_| due).find(|e| !G::validate(&state, e).is_empty());
            if let Some(illegal) = again {
                forced = Some(len);
                let (st, body) = call(
                    &app,
                    "POST",
                    &format!("/api/v1/games/{stream}/events"),
                    Some(&judge),
                    Some(json!({ "event": illegal, "forced": true, "expected": len })),
                )
                .await;
                assert_eq!(st, StatusCode::CREATED, "{game}: {body}");
                assert!(!body["flagged"].as_array().unwrap().is_empty(), "{game}: {body}");
                let ruling =
                    json!({ "BackedUp": { "judge": "jin", "to_seq": len, "note": "recorded again by mistake" } });
                let (st, body) = call(
                    &app,
                    "POST",
                    &format!("/api/v1/games/{stream}/rulings"),
                    Some(&judge),
                    Some(json!({ "ruling": ruling, "expected": len + 1 })),
                )
                .await;
                assert_eq!(st, StatusCode::CREATED, "{game}: {body}");
                len += 2;
                continue;
            }
            let (id, seat, params) = option_for::<G>(&state, len, event);
            let body = json!({ "option": id, "params": params, "expected": len });
            let (st, body) = call(&app, "POST", &uri, Some(&tokens[usize::from(seat)]), Some(body)).await;
            assert_eq!(st, StatusCode::CREATED, "{game} event {played} {event:?}: {body}");
            for e in &events[played..played + body["recorded"].as_array().unwrap().len()] {
                G::ledger_mut(&mut state).at(len);
                state = G::apply(state, e);
                len += 1;
                played += 1;
            }
        }
        let forced = forced.unwrap_or_else(|| panic!("{game}: no event to force"));
        let loaded = record::load::<G>(&*store, &stream).unwrap();
        let got: Vec<G::Event> = loaded
            .steps
            .iter()
            .filter_map(|s| if let GameEntry::Played(e) = &s.entry { Some(e.clone()) } else { None })
            .collect();
        assert!(got == events, "{game}: the log's events differ from the agent's");
        // kifu entered the automatic steps; each player entered only their own seat's actions.
        assert!(loaded.steps.iter().any(|s| s.actor == Actor::System), "{game}");
        for s in &loaded.steps {
            if let (GameEntry::Played(e), Actor::Player(name)) = (&s.entry, &s.actor) {
                if let Some(seat) = G::acting_seat(e) {
                    assert_eq!(name, &players[usize::from(seat)], "{game}: {e:?}");
                }
            }
        }
        let (st, audit) = get(&app, &format!("/api/v1/games/{stream}/audit"), Some(&judge)).await;
        assert_eq!(st, StatusCode::OK, "{game}");
        let findings = audit["findings"].as_array().unwrap();
        assert!(!findings.is_empty() && findings.iter().all(|f| f["seq"] == forced), "{game}: {audit}");
        assert_eq!(audit["unresolved"], 0, "{game}: {audit}");
        let (st, verify) = get(&app, &format!("/api/v1/games/{stream}/verify"), None).await;
        assert_eq!(st, StatusCode::OK, "{game}: {verify}");
    });
}

#[test]
fn a_whole_lc_game_through_the_options_api() {
    record_through_the_api::<kifu::games::lc::Lc>("lc", 2);
}

#[test]
fn a_whole_brk_game_through_the_options_api() {
    record_through_the_api::<kifu::games::brk::BrkV6>("brk", 2);
}

#[test]
fn a_whole_naruto_game_through_the_options_api() {
    record_through_the_api::<kifu::games::naruto::NarutoV7>("naruto", 2);
}

#[test]
fn a_whole_vanguard_game_through_the_options_api() {
    record_through_the_api::<kifu::games::vanguard::VanguardV5>("vanguard", 2);
}

#[test]
fn a_whole_fate_game_of_three_masters_through_the_options_api() {
    record_through_the_api::<kifu::games::fate::FateV5>("fate", 3);
}
