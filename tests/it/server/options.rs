//! The options API's refusals: stale, foreign and made-up picks are refused with nothing
//! written (another seat's option answered as a made-up id is) (a whole game of each of the five games through this API is in `five_games.rs`).

use std::collections::BTreeMap;

use axum::http::StatusCode;
use serde_json::{json, Value};

use kifu::game::options::{option_id, Pick};
use kifu::game::{record, Game, GameEntry};
use kifu::games::lc::config::ShuffleMode;
use kifu::games::lc::{Lc, LcConfig, LcEvent};
use kifu::log::envelope::{MatchBinding, MatchPlace, StreamId, Timestamp};
use kifu::server::tokens::Role;

use super::{call, open_match_of, rt, ServerEnv};

/// A physical LC self-played game between ana and rui with no judge-only event in it.
fn physical_lc_game() -> (LcConfig, Vec<LcEvent>) {
    for seed in 0..200 {
        let game = kifu::game::selfplay::self_play::<Lc>(seed, &["ana".into(), "rui".into()], 20_000).unwrap();
        let LcConfig::V1(c) = &game.config;
        let events: Vec<LcEvent> = game
            .entries
            .into_iter()
            .filter_map(|(_, e)| if let GameEntry::Played(e) = e { Some(e) } else { None })
            .collect();
        if c.shuffles == ShuffleMode::Physical && !events.iter().any(|e| matches!(e, LcEvent::ModifierApplied { .. })) {
            return (game.config, events);
        }
    }
    panic!("no physical LC game in 200 seeds");
}

/// The option (id, seat, parameters) that records `event` in `state` after `len` events.
fn option_for(state: &<Lc as Game>::State, len: u64, event: &LcEvent) -> (String, u8, BTreeMap<String, Value>) {
    let seats = Lc::acting_seat(event).map_or_else(|| Lc::awaited(state), |s| vec![s]);
    for seat in seats {
        for o in Lc::options(state, seat).unwrap() {
            if o.offers(event) {
                let params = match &o.pick {
                    Pick::Event(_) => BTreeMap::new(),
                    Pick::Param { param, read, .. } => [(param.name.to_string(), json!(read(event).unwrap()))].into(),
                };
                return (option_id(len, &o), o.seat, params);
            }
        }
    }
    panic!("event {len} {event:?} is no option");
}

#[test]
fn stale_foreign_and_made_up_picks_are_refused_and_write_nothing() {
    let env = ServerEnv::new();
    let store = env.state.store().clone();
    let players = vec!["ana".to_string(), "rui".to_string()];
    open_match_of(&*store, "lcup", "lc", &players);
    let (config, events) = physical_lc_game();
    let stream = StreamId::new("lcup-g").unwrap();
    let bound = MatchBinding { tournament: StreamId::new("lcup").unwrap(), round: 1, place: MatchPlace::Table(1) };
    record::create_bound::<Lc>(&*store, &stream, &config, Timestamp(1_767_225_600_000_000), Some(bound)).unwrap();
    let ana = env.token(Role::Player, "lcup", "ana");
    let rui = env.token(Role::Player, "lcup", "rui");
    let outsider = env.token(Role::Player, "other", "ana");
    let app = env.app();
    let uri = format!("/api/v1/games/{stream}/options");
    let state = Lc::setup(&config).unwrap();
    let (id, seat, params) = option_for(&state, 0, &events[0]);
    let (mine, theirs) = if seat == 0 { (&ana, &rui) } else { (&rui, &ana) };
    rt().block_on(async {
        // Another seat's open option gets exactly the answer a made-up id gets (422, KIFU-OPT-1,
        // the same text but for the id): which ids are open to the opponent is not an oracle.
        let body = json!({ "option": id, "params": params, "expected": 0 });
        let (st, b) = call(&app, "POST", &uri, Some(theirs), Some(body.clone())).await;
        assert_eq!(st, StatusCode::UNPROCESSABLE_ENTITY, "{b}");
        let made_up = "0-0000000000000000";
        let (st2, b2) =
            call(&app, "POST", &uri, Some(theirs), Some(json!({ "option": made_up, "params": params, "expected": 0 })))
                .await;
        assert_eq!(st2, st, "{b2}");
        assert!(b["error"].as_str().unwrap().contains("KIFU-OPT-1"), "{b}");
        assert_eq!(
            b["error"].as_str().unwrap().replace(&id, "ID"),
            b2["error"].as_str().unwrap().replace(made_up, "ID"),
            "not yours and no such option read the same"
        );
        // A token outside the match: 403.
        let (st, _) = call(&app, "POST", &uri, Some(&outsider), Some(body.clone())).await;
        assert_eq!(st, StatusCode::FORBIDDEN);
        // A made-up id: 422 with the rule.
        let (st, b) = call(&app, "POST", &uri, Some(mine), Some(json!({ "option": made_up }))).await;
        assert_eq!(st, StatusCode::UNPROCESSABLE_ENTITY, "{b}");
        assert!(b["error"].as_str().unwrap().contains("KIFU-OPT-1"), "{b}");
        assert_eq!(store.head(&stream).unwrap().len, 0, "nothing written");
        // The pick lands once; the same pick again is stale: 409 with the head and fresh options.
        let (st, b) = call(&app, "POST", &uri, Some(mine), Some(body.clone())).await;
        assert_eq!(st, StatusCode::CREATED, "{b}");
        let len = store.head(&stream).unwrap().len;
        let (st, b) = call(&app, "POST", &uri, Some(mine), Some(body.clone())).await;
        assert_eq!(st, StatusCode::CONFLICT, "{b}");
        assert_eq!(b["events"], json!(len), "{b}");
        assert!(b["options"].is_array() && b["head"].is_string(), "{b}");
        assert_eq!(store.head(&stream).unwrap().len, len, "nothing written");
    });
}
