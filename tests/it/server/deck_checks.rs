//! Deck checks and list changes over the API: judge and organizer tokens only; a check for a
//! player without a registered list is refused with nothing written.

use axum::http::StatusCode;
use serde_json::json;

use kifu::log::envelope::StreamId;
use kifu::server::tokens::Role;

use super::binding::Env;
use super::{call, rt};

fn deck(name: &str) -> String {
    std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("replays/decks").join(name)).unwrap()
}

#[test]
fn judges_check_decks_and_change_lists_over_the_api_and_players_cannot() {
    let env = Env::new();
    let app = env.app();
    let store = env.store();
    let org = env.token(Role::Organizer, "dcup", "ora");
    let judge = env.token(Role::Judge, "dcup", "jin");
    let ana = env.token(Role::Player, "dcup", "ana");
    let tid = StreamId::new("dcup").unwrap();
    rt().block_on(async {
        let body = json!({"id": "dcup", "name": "DC Cup", "game": "lc", "rounds": 1, "top_cut": 0, "best_of": 1});
        assert_eq!(call(&app, "POST", "/api/v1/tournaments", Some(&org), Some(body)).await.0, StatusCode::CREATED);
        let players = json!({"players": ["ana", "rui", "zed"]});
        assert_eq!(
            call(&app, "POST", "/api/v1/tournaments/dcup/players", Some(&org), Some(players)).await.0,
            StatusCode::CREATED
        );
        for (player, file) in [("ana", "lc-ana.deck"), ("rui", "lc-rui.deck")] {
            let b = json!({"player": player, "list": deck(file)});
            let (s, v) = call(&app, "POST", "/api/v1/tournaments/dcup/decks", Some(&org), Some(b)).await;
            assert_eq!(s, StatusCode::CREATED, "{v}");
        }
        let (s, v) = call(&app, "POST", "/api/v1/tournaments/dcup/rounds", Some(&org), Some(json!({}))).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");

        let checks = "/api/v1/tournaments/dcup/deck-checks";
        let before = store.head(&tid).unwrap();
        // A player cannot check decks; a player without a list cannot be checked.
        let (s, v) =
            call(&app, "POST", checks, Some(&ana), Some(json!({"player": "ana", "list": deck("lc-ana.deck")}))).await;
        assert_eq!(s, StatusCode::FORBIDDEN, "{v}");
        let (s, v) =
            call(&app, "POST", checks, Some(&judge), Some(json!({"player": "zed", "list": deck("lc-ana.deck")}))).await;
        assert!(s.is_client_error(), "{s} {v}");
        assert!(v["error"].as_str().unwrap().contains("zed has registered no deck list"), "{v}");
        assert_eq!(store.head(&tid).unwrap(), before, "nothing written");

        let (s, v) =
            call(&app, "POST", checks, Some(&judge), Some(json!({"player": "ana", "list": deck("lc-rui.deck")}))).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        assert_eq!(v["check"], 1, "{v}");
        assert_eq!(v["matches"], false, "{v}");
        assert!(!v["differences"].as_array().unwrap().is_empty(), "{v}");

        // Changing a list: officials only, with a reason.
        let change = "/api/v1/tournaments/dcup/decks/ana/change";
        let b = json!({"list": deck("lc-rui.deck"), "reason": "registered the wrong file"});
        let (s, v) = call(&app, "POST", change, Some(&ana), Some(b.clone())).await;
        assert_eq!(s, StatusCode::FORBIDDEN, "{v}");
        let (s, v) =
            call(&app, "POST", change, Some(&judge), Some(json!({"list": deck("lc-rui.deck"), "reason": ""}))).await;
        assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
        let (s, v) = call(&app, "POST", change, Some(&judge), Some(b)).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        let (s, v) =
            call(&app, "POST", checks, Some(&org), Some(json!({"player": "ana", "list": deck("lc-rui.deck")}))).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        assert_eq!((v["check"].clone(), v["matches"].clone()), (json!(2), json!(true)), "{v}");
    });
}
