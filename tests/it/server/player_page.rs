//! A player's own page over the API (`GET /tournaments/{id}/me`, issue 53 item 3): it answers a
//! player's token from that player's own registration only; a late entrant registers a list
//! before their first round; a player's report reads from their own side, two matching reports
//! are recorded at once and a disagreement is marked for a judge; and each bad input (a list
//! that breaks the deck rules or arrives after the lock, a report for a table that is not the
//! player's, a call from someone not at that table, a penalty by a player token, an appeal of
//! another player's penalty) is refused with its rule ID or cause, nothing written.

use axum::http::StatusCode;
use serde_json::{json, Value};

use kifu::log::envelope::StreamId;
use kifu::server::app;
use kifu::server::tokens::Role;

use super::new_games::deck;
use super::{call, get, rt, Floor};

const ID: &str = "pcup";

fn refused(s: StatusCode, v: &Value, want: StatusCode, says: &str) {
    assert_eq!(s, want, "{v}");
    let msg = v["error"].as_str().unwrap_or_default();
    assert!(msg.contains(says), "{says:?} in {msg:?}");
}

#[test]
fn a_players_page_answers_their_own_registration_and_refuses_what_is_not_theirs() {
    // Given an LC event of four with lists, hana its head judge,
    let floor = Floor::new(ID);
    let router = app(floor.state.clone());
    let token = |role, name: &str| floor.token(role, name);
    let (org, jin) = (token(Role::Organizer, "olga"), token(Role::Judge, "jin"));
    let store = floor.state.store().clone();
    let id = StreamId::new(ID).unwrap();
    let events = || store.head(&id).unwrap().len;
    rt().block_on(async {
        let post = |path: &str, t: &str, body: Value| {
            let (router, t, path) = (router.clone(), t.to_string(), format!("/api/v1/tournaments/{ID}{path}"));
            async move { call(&router, "POST", &path, Some(&t), Some(body)).await }
        };
        let me = |t: String| {
            let router = router.clone();
            async move { get(&router, &format!("/api/v1/tournaments/{ID}/me"), Some(&t)).await }
        };
        let body = json!({"id": ID, "name": "Player cup", "game": "lc", "rounds": 2, "top_cut": 0, "best_of": 3});
        let (s, v) = call(&router, "POST", "/api/v1/tournaments", Some(&org), Some(body)).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        let (s, v) = post("/players", &org, json!({"players": ["ann", "bo", "cy", "dee"]})).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        assert_eq!(post("/head-judge", &org, json!({"judge": "hana"})).await.0, StatusCode::CREATED);

        // the page is a registered player's own: no token, an official, a name the event never
        // registered, or a token for another event get the cause, not the data;
        let (s, _) = get(&router, &format!("/api/v1/tournaments/{ID}/me"), None).await;
        assert_eq!(s, StatusCode::UNAUTHORIZED);
        let (s, v) = me(jin.clone()).await;
        refused(s, &v, StatusCode::FORBIDDEN, "a player's own");
        let (s, v) = me(token(Role::Player, "zed")).await;
        refused(s, &v, StatusCode::FORBIDDEN, "zed is not registered in this tournament");
        // (a prefix or a different case of a registered name is no registration either)
        let (s, v) = me(token(Role::Player, "an")).await;
        refused(s, &v, StatusCode::FORBIDDEN, "not registered");
        let (s, v) = me(token(Role::Player, "ANN")).await;
        refused(s, &v, StatusCode::FORBIDDEN, "not registered");
        let (s, v) = me(floor.token_in("other", Role::Player, "ann")).await;
        refused(s, &v, StatusCode::FORBIDDEN, "another tournament");
        let (s, v) = me(token(Role::Player, "ann")).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        assert_eq!((v["me"].clone(), v["round"].clone()), (json!("ann"), Value::Null), "{v}");
        assert_eq!(v["deck"], json!({"registered": false, "locked": false, "lists_kept": true}), "{v}");
        let (s, c) = get(&router, &format!("/api/v1/tournaments/{ID}/catalog"), None).await;
        assert_eq!(s, StatusCode::OK, "{c}");
        assert!(c["cards"].as_array().unwrap().iter().any(|x| x["id"] == "LC-C01"), "{c}");

        // a list that breaks the deck rules is refused with its rule ID, nothing written;
        let n = events();
        let (s, v) = post("/decks", &token(Role::Player, "ann"), json!({"player": "ann", "list": "2 LC-C01\n"})).await;
        refused(s, &v, StatusCode::UNPROCESSABLE_ENTITY, "LC-REFILL-1");
        assert_eq!(events(), n, "a refused list writes nothing");
        for p in ["ann", "bo", "cy", "dee"] {
            let (s, v) =
                post("/decks", &token(Role::Player, p), json!({"player": p, "list": deck("lc-ana.deck")})).await;
            assert_eq!(s, StatusCode::CREATED, "{v}");
        }

        // round 1 is paired: a list arriving after the lock is refused (TOUR-DECK-2);
        assert_eq!(post("/rounds", &org, json!({})).await.0, StatusCode::CREATED);
        let (_, pairings) = get(&router, &format!("/api/v1/tournaments/{ID}/pairings"), None).await;
        let seat = |t: usize, side: &str| pairings["tables"][t][side].as_str().unwrap().to_string();
        let (a1, b1, a2, b2) = (seat(0, "a"), seat(0, "b"), seat(1, "a"), seat(1, "b"));
        let n = events();
        let (s, v) =
            post("/decks", &token(Role::Player, &a1), json!({"player": a1, "list": deck("lc-rui.deck")})).await;
        refused(s, &v, StatusCode::UNPROCESSABLE_ENTITY, "TOUR-DECK-2");
        assert_eq!(events(), n);
        let (_, v) = me(token(Role::Player, &b1)).await;
        assert_eq!(v["round"]["round"], 1, "{v}");
        assert_eq!(v["round"]["seat"]["table"], 1, "{v}");
        assert_eq!(v["round"]["seat"]["opponents"], json!([a1]), "{v}");
        assert_eq!(v["deck"]["locked"], true, "{v}");

        // a late entrant registers their list before their first round (and not once it is paired);
        let (s, v) =
            post("/players", &org, json!({"players": ["eli"], "reason": "arrived after round 1 was paired"})).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        let eli = token(Role::Player, "eli");
        let (_, v) = me(eli.clone()).await;
        assert_eq!((v["first_round"].clone(), v["deck"]["locked"].clone()), (json!(2), json!(false)), "{v}");
        assert_eq!(v["round"]["seat"], Value::Null, "{v}");
        let (s, v) = post("/decks", &eli, json!({"player": "eli", "list": deck("lc-rui.deck")})).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");

        // a report, a call, a penalty where the player has no say: refused, nothing written;
        let n = events();
        let (s, v) = post("/results", &token(Role::Player, &a1), json!({"table": 2, "score": "2-0-0"})).await;
        refused(s, &v, StatusCode::FORBIDDEN, "not table 2");
        let (s, v) = post("/calls", &token(Role::Player, &a1), json!({"table": 2})).await;
        refused(s, &v, StatusCode::FORBIDDEN, "does not play at round 1 table 2");
        let pen = json!({"player": a2, "infraction": "te-slow-play", "reason": "slow"});
        let (s, v) = post("/penalties", &token(Role::Player, &a1), pen).await;
        refused(s, &v, StatusCode::FORBIDDEN, "judge or organizer token");
        assert_eq!(events(), n, "refusals write nothing");
        let (_, p) = get(&router, &format!("/api/v1/tournaments/{ID}/results"), None).await;
        assert_eq!(p["pending"], json!([]), "no report is kept");

        // when table 1's second-listed player says "I won 2-1" and the first says "I lost 1-2",
        // then the result is recorded at once, as the second-listed player's win;
        let (s, v) = post("/results", &token(Role::Player, &b1), json!({"table": 1, "score": "2-1-0"})).await;
        assert_eq!(s, StatusCode::ACCEPTED, "{v}");
        let (_, v) = me(token(Role::Player, &a1)).await;
        assert_eq!(v["pending"]["mine"], "1-2-0", "the opponent's report from a1's side: {v}");
        let (s, v) = post("/results", &token(Role::Player, &a1), json!({"table": 1, "score": "1-2-0"})).await;
        assert_eq!(s, StatusCode::CREATED, "two matching reports are recorded: {v}");
        assert_eq!(events(), n + 1);
        let (_, pairings) = get(&router, &format!("/api/v1/tournaments/{ID}/pairings"), None).await;
        assert_eq!(pairings["tables"][0]["result"], "1-2-0", "{pairings}");
        let (_, v) = me(token(Role::Player, &b1)).await;
        assert_eq!(v["round"]["seat"]["result"], "2-1-0", "{v}");

        // when table 2's players both say "I won 2-0", then the table is disputed for a judge,
        // nothing recorded;
        let (s, v) = post("/results", &token(Role::Player, &a2), json!({"score": "2-0-0"})).await;
        assert_eq!(s, StatusCode::ACCEPTED, "{v}");
        let (s, v) = post("/results", &token(Role::Player, &b2), json!({"table": 2, "score": "2-0-0"})).await;
        refused(s, &v, StatusCode::CONFLICT, "disputed, a judge will decide");
        assert_eq!(events(), n + 1);
        let (_, v) = me(token(Role::Player, &a2)).await;
        assert!(v["pending"]["disputed"].as_str().is_some_and(|d| d.contains(&b2)), "{v}");

        // a player's penalties are theirs: a judge's penalty shows on their page only, they
        // appeal it to the head judge, and another player's appeal of it is refused (TOUR-APPEAL-1).
        let pen = json!({"player": a1, "infraction": "te-slow-play", "reason": "slow in game 3"});
        let (s, v) = post("/penalties", &jin, pen).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        let (_, v) = me(token(Role::Player, &a1)).await;
        assert_eq!(v["penalties"].as_array().unwrap().len(), 1, "{v}");
        let (_, v) = me(token(Role::Player, &b1)).await;
        assert_eq!(v["penalties"], json!([]), "{v}");
        let n = events();
        let (s, v) = post("/appeals", &token(Role::Player, &b1), json!({"penalty": 1})).await;
        refused(s, &v, StatusCode::UNPROCESSABLE_ENTITY, "TOUR-APPEAL-1");
        assert_eq!(events(), n);
        let (s, v) = post("/appeals", &token(Role::Player, &a1), json!({"penalty": 1})).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        let (_, v) = me(token(Role::Player, &a1)).await;
        assert_eq!(v["appeals"][0]["ruling"], "penalty 1", "{v}");

        // Round 2 seats the late entrant: their list is locked now.
        let entry = json!({"table": 2, "score": "2-0-0", "reason": "the slip shows two games to the first seat"});
        let (s, v) = call(&router, "POST", &format!("/api/v1/tournaments/{ID}/results"), Some(&org), Some(entry)).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        let (s, v) = post("/rounds", &org, json!({})).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        let (s, v) = post("/decks", &eli, json!({"player": "eli", "list": deck("lc-ana.deck")})).await;
        refused(s, &v, StatusCode::UNPROCESSABLE_ENTITY, "eli's first round, 2, is paired");
    });
}
