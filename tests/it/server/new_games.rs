//! Games created in the server and deck lists registered through it: a player registers their
//! own list (checked by the game's deck rules, kept private, its commitment in the log), the
//! event's judge creates a table's game from the pairing (players in seat order, the registered
//! lists, bound to the table), the match's players record it from their first event; refusals
//! write nothing.

use axum::http::StatusCode;
use serde_json::json;

use kifu::log::envelope::{MatchPlace, StreamId};
use kifu::server::tokens::Role;

use super::binding::Env;
use super::{call, get, rt};

pub(super) fn deck(name: &str) -> String {
    std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("replays/decks").join(name)).unwrap()
}

#[test]
fn a_tables_player_or_judge_creates_its_game_from_the_pairing_and_registered_lists_and_its_players_record_it() {
    let env = Env::new();
    let app = env.app();
    let store = env.store();
    let org = env.token(Role::Organizer, "lcup", "ora");
    let judge = env.token(Role::Judge, "lcup", "jin");
    let ana = env.token(Role::Player, "lcup", "ana");
    let rui = env.token(Role::Player, "lcup", "rui");
    let tid = StreamId::new("lcup").unwrap();
    rt().block_on(async {
        let body = json!({"id": "lcup", "name": "LC Cup", "game": "lc", "rounds": 1, "top_cut": 0, "best_of": 1});
        assert_eq!(call(&app, "POST", "/api/v1/tournaments", Some(&org), Some(body)).await.0, StatusCode::CREATED);
        let players = json!({"players": ["ana", "rui"]});
        let (s, v) = call(&app, "POST", "/api/v1/tournaments/lcup/players", Some(&org), Some(players)).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");

        // Deck lists: each player registers their own; not the other's; an illegal list is
        // refused with its rule ID; nothing is written by a refusal.
        let decks = "/api/v1/tournaments/lcup/decks";
        let before = store.head(&tid).unwrap();
        let (s, v) =
            call(&app, "POST", decks, Some(&rui), Some(json!({"player": "ana", "list": deck("lc-rui.deck")}))).await;
        assert_eq!(s, StatusCode::FORBIDDEN, "{v}");
        let bad = json!({"player": "ana", "list": "3 no-such-card\n"});
        let (s, v) = call(&app, "POST", decks, Some(&ana), Some(bad)).await;
        assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
        assert!(v["error"].as_str().unwrap().contains("is not in the catalog"), "{v}");
        assert_eq!(store.head(&tid).unwrap(), before, "nothing written");
        for (token, player, file) in [(&ana, "ana", "lc-ana.deck"), (&rui, "rui", "lc-rui.deck")] {
            let (s, v) =
                call(&app, "POST", decks, Some(token), Some(json!({"player": player, "list": deck(file)}))).await;
            assert_eq!(s, StatusCode::CREATED, "{v}");
            assert_eq!(v["commitment"].as_str().unwrap().len(), 64, "{v}");
        }
        // A list is the player's and the judges' only.
        let (s, _) = get(&app, "/api/v1/tournaments/lcup/decks/ana", Some(&rui)).await;
        assert_eq!(s, StatusCode::FORBIDDEN);
        let (s, _) = get(&app, "/api/v1/tournaments/lcup/decks/ana", None).await;
        assert_eq!(s, StatusCode::UNAUTHORIZED);
        for token in [&ana, &judge] {
            let (s, v) = get(&app, "/api/v1/tournaments/lcup/decks/ana", Some(token)).await;
            assert_eq!(s, StatusCode::OK, "{v}");
            assert_eq!(v["list"], json!(deck("lc-ana.deck")));
        }

        // Round 1: lists are locked now.
        let (s, v) = call(&app, "POST", "/api/v1/tournaments/lcup/rounds", Some(&org), Some(json!({}))).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        let (s, v) =
            call(&app, "POST", decks, Some(&ana), Some(json!({"player": "ana", "list": deck("lc-rui.deck")}))).await;
        assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
        assert!(v["error"].as_str().unwrap().contains("TOUR-DECK-2"), "{v}");

        // The table's game: a player of another match (or event) cannot start it; the match's own
        // player can, with the registered lists only (their own decks are refused); a judge can
        // bring lists; no table 9; one game at a time, and the refusal names the game in play.
        let games = "/api/v1/tournaments/lcup/rounds/1/tables/1/games";
        let zed = env.token(Role::Player, "lcup", "zed");
        let ana_elsewhere = env.token(Role::Player, "other-cup", "ana");
        for t in [&zed, &ana_elsewhere] {
            assert_eq!(call(&app, "POST", games, Some(t), Some(json!({}))).await.0, StatusCode::FORBIDDEN);
        }
        let own = json!({"decks": [deck("lc-rui.deck"), deck("lc-rui.deck")]});
        let (s, v) = call(&app, "POST", games, Some(&ana), Some(own)).await;
        assert_eq!(s, StatusCode::FORBIDDEN, "{v}");
        assert!(v["error"].as_str().unwrap().contains("registered lists"), "{v}");
        let (s, _) =
            call(&app, "POST", "/api/v1/tournaments/lcup/rounds/1/tables/9/games", Some(&judge), Some(json!({}))).await;
        assert_eq!(s, StatusCode::NOT_FOUND);
        let (s, created) = call(&app, "POST", games, Some(&ana), Some(json!({}))).await;
        assert_eq!(s, StatusCode::CREATED, "{created}");
        assert_eq!(created["id"], "lcup-r1-t1-g1");
        assert_eq!(created["bound"], "lcup round 1 table 1");
        let (s, v) = call(&app, "POST", games, Some(&judge), Some(json!({}))).await;
        assert_eq!(s, StatusCode::CONFLICT, "{v}");
        assert_eq!(v["game"], "lcup-r1-t1-g1", "{v}");
        let id = StreamId::new("lcup-r1-t1-g1").unwrap();
        let (_, header) = store.header(&id).unwrap();
        let bound = header.bound().unwrap();
        assert_eq!((bound.round, bound.place), (1, MatchPlace::Table(1)));
        // The pairing's players in seat order, each with the list they registered.
        let (_, pairings) = get(&app, "/api/v1/tournaments/lcup/pairings", None).await;
        let t1 = &pairings["tables"][0];
        let order = [t1["a"].as_str().unwrap(), t1["b"].as_str().unwrap()];
        assert_eq!(created["players"], json!(order), "{pairings}");

        // The match's players see and record their own seats from the first event.
        for token in [&ana, &rui] {
            let (s, v) = get(&app, "/api/v1/games/lcup-r1-t1-g1/options", Some(token)).await;
            assert_eq!(s, StatusCode::OK, "{v}");
            assert!(!v["options"].as_array().unwrap().is_empty(), "{v}");
        }
    });
}

#[test]
fn post_games_creates_a_game_for_an_official_of_every_event_only() {
    let env = Env::new();
    let app = env.app();
    let any_judge = env.token(Role::Judge, "*", "jin");
    let event_judge = env.token(Role::Judge, "lcup", "jin");
    let player = env.token(Role::Player, "lcup", "ana");
    rt().block_on(async {
        let body =
            json!({"game": "lc", "players": ["ana", "rui"], "decks": [deck("lc-ana.deck"), deck("lc-rui.deck")]});
        for t in [&event_judge, &player] {
            assert_eq!(call(&app, "POST", "/api/v1/games", Some(t), Some(body.clone())).await.0, StatusCode::FORBIDDEN);
        }
        let (s, v) = call(&app, "POST", "/api/v1/games", Some(&any_judge), Some(body.clone())).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        assert_eq!(v["id"], "lc-ana-rui-1");
        let (s, v) = call(&app, "POST", "/api/v1/games", Some(&any_judge), Some(body.clone())).await;
        assert_eq!((s, v["id"].clone()), (StatusCode::CREATED, json!("lc-ana-rui-2")), "{v}");
        // The same checks and errors as `kifu game new`.
        let mut unknown = body.clone();
        unknown["game"] = json!("chess");
        let (s, v) = call(&app, "POST", "/api/v1/games", Some(&any_judge), Some(unknown)).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
        assert!(v["error"].as_str().unwrap().contains("unknown game"), "{v}");
        let mut bad = body.clone();
        bad["decks"] = json!(["3 no-such-card\n", deck("lc-rui.deck")]);
        bad["id"] = json!("bad");
        let (s, v) = call(&app, "POST", "/api/v1/games", Some(&any_judge), Some(bad)).await;
        assert!(s.is_client_error(), "{s} {v}");
        assert!(v["error"].as_str().unwrap().contains("is not in the catalog"), "{v}");
        assert!(env.store().head(&StreamId::new("bad").unwrap()).is_err(), "nothing written");
        let mut taken = body.clone();
        taken["id"] = json!("lc-ana-rui-1");
        assert_eq!(call(&app, "POST", "/api/v1/games", Some(&any_judge), Some(taken)).await.0, StatusCode::CONFLICT);
    });
}
