//! The JSON API through the router (no socket): reads, viewer permissions, audit redaction,
//! tournament pages, result reporting with confirmation, rulings, and refusals that write nothing.

use axum::http::StatusCode;
use serde_json::{json, Value};

use kifu::game::Viewer;
use kifu::log::envelope::StreamId;
use kifu::server::tokens::Role;
use kifu::tournament::record;

use super::{call, call_keyed, fixtures, get, rt, ServerEnv};

#[test]
fn streams_summary_events_and_boards_match_the_library() {
    let env = ServerEnv::new();
    let app = env.app();
    rt().block_on(async {
        let (s, streams) = get(&app, "/api/v1/streams", None).await;
        assert_eq!(s, StatusCode::OK);
        let ids: Vec<&str> = streams.as_array().unwrap().iter().map(|r| r["id"].as_str().unwrap()).collect();
        for f in fixtures() {
            assert!(ids.contains(&f.as_str()), "{f} listed");
        }
        assert!(ids.contains(&"cup"));

        let log = super::fixture_log("naruto-physical");
        let session = kifu::games::driver("naruto").unwrap().open(&log).unwrap();
        let (s, sum) = get(&app, "/api/v1/games/naruto-physical", None).await;
        assert_eq!(s, StatusCode::OK);
        assert_eq!(sum["events"], 433);
        assert_eq!(sum["head"], log.head.hash.to_hex());
        assert_eq!(sum["live"], false);
        assert_eq!(sum["access"]["viewers"], json!(["spectator"]));

        // Paged events equal the library's timeline for the spectator.
        let timeline = serde_json::to_value(session.timeline(Viewer::Spectator)).unwrap();
        let mut got: Vec<Value> = Vec::new();
        let mut from = 0;
        loop {
            let (s, page) =
                get(&app, &format!("/api/v1/games/naruto-physical/events?from={from}&limit=100"), None).await;
            assert_eq!(s, StatusCode::OK);
            got.extend(page["entries"].as_array().unwrap().iter().cloned());
            match page["next"].as_u64() {
                Some(n) => from = n,
                None => break,
            }
        }
        assert_eq!(Value::Array(got), timeline);
        // A short page takes the per-event path; it must agree with the long one.
        let (_, short) = get(&app, "/api/v1/games/naruto-physical/events?from=10&limit=5", None).await;
        assert_eq!(short["entries"], Value::Array(timeline.as_array().unwrap()[10..15].to_vec()));

        // The board at a sequence number, and at a turn/phase.
        for n in [0u64, 1, 77, 432, 433] {
            let (s, b) = get(&app, &format!("/api/v1/games/naruto-physical/board?seq={n}"), None).await;
            assert_eq!(s, StatusCode::OK);
            assert_eq!(b["board"], serde_json::to_value(session.board(n, Viewer::Spectator)).unwrap());
            assert_eq!(b["seq"], n);
        }
        let phase = session.position_at(session.seek_turn(5, None).unwrap() + 3).phase;
        let want = session.seek_turn(5, Some(phase)).unwrap();
        let (s, b) = get(&app, &format!("/api/v1/games/naruto-physical/board?turn=5&phase={phase}"), None).await;
        assert_eq!(s, StatusCode::OK);
        assert_eq!(b["seq"], want);
        assert_eq!(b["board"]["turn"], 5);

        // Bad input is 4xx with a message, never a panic.
        for (uri, code) in [
            ("/api/v1/games/naruto-physical/board?seq=434", StatusCode::BAD_REQUEST),
            ("/api/v1/games/naruto-physical/board?seq=x", StatusCode::BAD_REQUEST),
            ("/api/v1/games/naruto-physical/board?turn=999", StatusCode::NOT_FOUND),
            ("/api/v1/games/naruto-physical/board?as=nobody", StatusCode::BAD_REQUEST),
            ("/api/v1/games/no-such-game", StatusCode::NOT_FOUND),
            ("/api/v1/games/bad%20id", StatusCode::BAD_REQUEST),
            ("/api/v1/games/cup", StatusCode::NOT_FOUND),
            ("/api/v1/tournaments/naruto-physical", StatusCode::BAD_REQUEST),
            ("/api/v1/nothing-here", StatusCode::NOT_FOUND),
        ] {
            let (s, body) = get(&app, uri, None).await;
            assert_eq!(s, code, "{uri}: {body}");
            assert!(body["error"].is_string(), "{uri} explains itself");
        }
    });
}

#[test]
fn viewers_are_limited_by_role() {
    let env = ServerEnv::new();
    let app = env.app();
    let judge = env.token(Role::Judge, "*", "jin");
    let alice = env.token(Role::Player, "naruto", "alice");
    let outsider = env.token(Role::Player, "cup", "alice");
    let cup_judge = env.token(Role::Judge, "cup", "kim");
    rt().block_on(async {
        let g = "/api/v1/games/naruto-physical";
        let board = |v: &str| format!("{g}/board?seq=100&as={v}");
        // Public: spectator only.
        assert_eq!(get(&app, &board("spectator"), None).await.0, StatusCode::OK);
        assert_eq!(get(&app, &board("judge"), None).await.0, StatusCode::FORBIDDEN);
        assert_eq!(get(&app, &board("seat:0"), None).await.0, StatusCode::FORBIDDEN);
        // An unknown token is 401, not a silent downgrade.
        assert_eq!(get(&app, &board("spectator"), Some("kifu_nope")).await.0, StatusCode::UNAUTHORIZED);
        // A player sees their own seat, not the opponent's, nor the judge's view.
        let (s, sum) = get(&app, g, Some(&alice)).await;
        assert_eq!(s, StatusCode::OK);
        assert_eq!(sum["access"]["viewers"], json!(["spectator", "seat:0"]));
        assert_eq!(get(&app, &board("seat:0"), Some(&alice)).await.0, StatusCode::OK);
        assert_eq!(get(&app, &board("seat:1"), Some(&alice)).await.0, StatusCode::FORBIDDEN);
        assert_eq!(get(&app, &board("judge"), Some(&alice)).await.0, StatusCode::FORBIDDEN);
        // The same name in another tournament's token sees nothing hidden here.
        assert_eq!(get(&app, &board("seat:0"), Some(&outsider)).await.0, StatusCode::FORBIDDEN);
        assert_eq!(get(&app, &board("judge"), Some(&cup_judge)).await.0, StatusCode::FORBIDDEN);
        // Judges see everything in scope.
        for v in ["spectator", "seat:0", "seat:1", "judge"] {
            assert_eq!(get(&app, &board(v), Some(&judge)).await.0, StatusCode::OK, "judge as {v}");
        }
        let cup_game = env.cup_games[0].to_string();
        let (s, sum) = get(&app, &format!("/api/v1/games/{cup_game}"), Some(&cup_judge)).await;
        assert_eq!(s, StatusCode::OK);
        assert_eq!(sum["access"]["judge"], true);
        let (_, who) = get(&app, "/api/v1/whoami", Some(&alice)).await;
        assert_eq!(who, json!({"role": "player", "scope": "naruto", "name": "alice"}));
        // A revoked token stops working at once (the server re-reads the token file).
        let hash = kifu::server::tokens::hash(&alice);
        kifu::server::tokens::revoke(&env.tokens, &hash[..16]).unwrap();
        assert_eq!(get(&app, g, Some(&alice)).await.0, StatusCode::UNAUTHORIZED);
    });
}

#[test]
fn audit_and_verify() {
    let env = ServerEnv::new();
    let app = env.app();
    let judge = env.token(Role::Judge, "*", "jin");
    rt().block_on(async {
        let (s, a) = get(&app, "/api/v1/games/naruto-judged/audit", None).await;
        assert_eq!(s, StatusCode::OK);
        let f = a["findings"].as_array().unwrap();
        assert_eq!(f.len(), 3);
        assert!(f.iter().all(|x| x["seq"] == 52 && x["resolution"].is_string() && x["message"].is_null()));
        let (_, a) = get(&app, "/api/v1/games/naruto-judged/audit", Some(&judge)).await;
        assert!(a["findings"].as_array().unwrap().iter().all(|x| x["message"].is_string()), "judges read the messages");
        let (_, a) = get(&app, "/api/v1/games/naruto-unruled/audit", None).await;
        assert_eq!(a["unresolved"], 1);
        assert_eq!(a["findings"][0]["seq"], 650);

        let (s, v) = get(&app, "/api/v1/games/naruto-digital/verify", None).await;
        assert_eq!(s, StatusCode::OK);
        assert_eq!(v["ok"], true);
        assert_eq!(v["head"], super::fixture_log("naruto-digital").head.hash.to_hex());
        assert_eq!(get(&app, "/api/v1/games/nope/verify", None).await.0, StatusCode::NOT_FOUND);
    });
}

#[test]
fn tournament_pages_match_the_library() {
    let env = ServerEnv::new();
    let app = env.app();
    let store = env.state.store().clone();
    let loaded = record::load(&*store, &StreamId::new("cup").unwrap()).unwrap();
    rt().block_on(async {
        let (s, t) = get(&app, "/api/v1/tournaments/cup", None).await;
        assert_eq!(s, StatusCode::OK);
        assert_eq!(t["players"], 8);
        assert_eq!(t["finalized"], true);

        let (s, st) = get(&app, "/api/v1/tournaments/cup/standings", None).await;
        assert_eq!(s, StatusCode::OK);
        assert_eq!(st["rows"], serde_json::to_value(loaded.state.standings()).unwrap());
        assert!(st["columns"].as_array().unwrap().iter().any(|c| c["key"] == "omw"));

        let (s, p) = get(&app, "/api/v1/tournaments/cup/pairings?round=1", None).await;
        assert_eq!(s, StatusCode::OK);
        assert_eq!(p["tables"].as_array().unwrap().len(), 4);
        assert_eq!(p["by_name"].as_array().unwrap().len(), 8);
        let names: Vec<&str> = p["by_name"].as_array().unwrap().iter().map(|r| r["player"].as_str().unwrap()).collect();
        let mut sorted = names.clone();
        sorted.sort_by_key(|n| n.to_lowercase());
        assert_eq!(names, sorted, "by name is alphabetical");
        let link = p["tables"][0]["games"][0]["stream"].as_str().unwrap().to_string();
        assert_eq!(get(&app, &format!("/api/v1/games/{link}"), None).await.0, StatusCode::OK, "match links replay");
        assert_eq!(get(&app, "/api/v1/tournaments/cup/pairings?round=99", None).await.0, StatusCode::NOT_FOUND);

        let (s, b) = get(&app, "/api/v1/tournaments/cup/bracket", None).await;
        assert_eq!(s, StatusCode::OK);
        let rounds = b["rounds"].as_array().unwrap();
        assert_eq!(rounds.len(), 2);
        assert_eq!(rounds[0]["stage"], "semifinals");
        assert_eq!(rounds[1]["stage"], "final");
        assert!(rounds[1]["tables"][0]["winner"].is_string());

        let report =
            kifu::tournament::verify::verify(&*store, &StreamId::new("cup").unwrap(), &kifu::games::driver).unwrap();
        let (s, v) = get(&app, "/api/v1/tournaments/cup/verify", None).await;
        assert_eq!(s, StatusCode::OK);
        assert_eq!(v["ok"], true);
        assert_eq!(v["root"], report.root.to_hex());
    });
}

/// A four-player tournament with round 1 paired and no result yet.
fn open_event(env: &ServerEnv) -> (StreamId, Vec<(u32, String, String)>) {
    use kifu::game::commit::{commit_seed, Commitment};
    use kifu::log::envelope::{Actor, Timestamp};
    use kifu::tournament::{round_seed, ConfigV1, Policy, RoundsPlan, TournamentEvent};
    let store = env.state.store().clone();
    let id = StreamId::new("league").unwrap();
    let seed = Commitment([3; 32]);
    let config = ConfigV1 {
        name: "League night".into(),
        game: "naruto".into(),
        policy: Policy::Mtr,
        rounds: RoundsPlan::Fixed(3),
        top_cut: 0,
        seed_commitment: Some(commit_seed(&seed)),
    };
    let regs = ["ann", "ben", "cat", "dan"]
        .iter()
        .map(|p| TournamentEvent::PlayerRegistered { player: p.to_string(), deck: None })
        .collect();
    let org = Actor::Organizer("ora".into());
    record::create(&*store, &id, &config, org.clone(), Timestamp(1_767_225_600_000_000), regs).unwrap();
    let state = record::load(&*store, &id).unwrap().state;
    let rs = round_seed(&seed, 1);
    let (tables, byes) = state.derive_round(1, &rs);
    record::record(
        &*store,
        &id,
        org,
        vec![TournamentEvent::RoundPaired { round: 1, tables: tables.clone(), byes, round_seed: Some(rs) }],
    )
    .unwrap();
    (id, tables.into_iter().map(|t| (t.table, t.a, t.b)).collect())
}

#[test]
fn a_player_reports_and_the_opponent_confirms() {
    let env = ServerEnv::new();
    let app = env.app();
    let (id, tables) = open_event(&env);
    let (table, a, b) = tables[0].clone();
    let (_, c, _) = tables[1].clone();
    let ta = env.token(Role::Player, "league", &a);
    let tb = env.token(Role::Player, "league", &b);
    let tc = env.token(Role::Player, "league", &c);
    let foreign = env.token(Role::Player, "cup", &a);
    let judge = env.token(Role::Judge, "league", "jin");
    let store = env.state.store().clone();
    let head = || store.head(&id).unwrap();
    rt().block_on(async {
        let url = "/api/v1/tournaments/league/results";
        let body = json!({"table": table, "score": "2-1-0"});
        let before = head();
        // Refusals write nothing.
        assert_eq!(call(&app, "POST", url, None, Some(body.clone())).await.0, StatusCode::UNAUTHORIZED);
        assert_eq!(call(&app, "POST", url, Some(&tc), Some(body.clone())).await.0, StatusCode::FORBIDDEN);
        assert_eq!(call(&app, "POST", url, Some(&foreign), Some(body.clone())).await.0, StatusCode::FORBIDDEN);
        let (s, _) = call(&app, "POST", url, Some(&ta), Some(json!({"table": table, "score": "two"}))).await;
        assert_eq!(s, StatusCode::BAD_REQUEST);
        assert_eq!(head(), before);

        // The report waits for the opponent.
        let (s, r) = call(&app, "POST", url, Some(&ta), Some(body.clone())).await;
        assert_eq!(s, StatusCode::ACCEPTED, "{r}");
        assert_eq!(r["recorded"], false);
        assert_eq!(head(), before);
        let (_, p) = get(&app, url, None).await;
        assert_eq!(p["pending"][0]["reported_by"], a.as_str());

        let confirm = format!("{url}/confirm");
        // Only the opponent confirms (a different score is a dispute: see table 2 below).
        assert_eq!(call(&app, "POST", &confirm, Some(&ta), Some(body.clone())).await.0, StatusCode::FORBIDDEN);
        assert_eq!(call(&app, "POST", &confirm, Some(&tc), Some(body.clone())).await.0, StatusCode::FORBIDDEN);
        assert_eq!(head(), before);

        let (s, r) = call(&app, "POST", &confirm, Some(&tb), Some(body.clone())).await;
        assert_eq!(s, StatusCode::CREATED, "{r}");
        assert_eq!(head().len, before.len + 1);
        let loaded = record::load(&*store, &id).unwrap();
        assert_eq!(loaded.entries.last().unwrap().actor.to_string(), format!("player:{b}"));
        let (_, p) = get(&app, url, None).await;
        assert_eq!(p["pending"], json!([]));

        // Now it has a result: players cannot report again; a judge corrects with a reason.
        assert_eq!(call(&app, "POST", url, Some(&ta), Some(body.clone())).await.0, StatusCode::CONFLICT);
        assert_eq!(
            call(&app, "POST", url, Some(&judge), Some(json!({"table": table, "score": "0-2-0"}))).await.0,
            StatusCode::CONFLICT
        );
        let (s, _) = call(
            &app,
            "POST",
            url,
            Some(&judge),
            Some(json!({"table": table, "score": "0-2-0", "reason": "slip signed wrong"})),
        )
        .await;
        assert_eq!(s, StatusCode::CREATED);
        let (_, p) = get(&app, "/api/v1/tournaments/league/pairings", None).await;
        assert_eq!(p["tables"][0]["result"], "0-2-0");
        assert_eq!(p["tables"][0]["corrections"], 1);
        // Table 2: a different score is a dispute; it stays until an official settles it on the
        // record (a confirmation after all is refused, and a floor judge's plain report is an
        // override they may not make).
        let (t2, _, d) = tables[1].clone();
        let td = env.token(Role::Player, "league", &d);
        let (s, r) = call(&app, "POST", url, Some(&tc), Some(json!({"table": t2, "score": "2-1-0"}))).await;
        assert_eq!(s, StatusCode::ACCEPTED, "{r}");
        let (s, _) = call(&app, "POST", &confirm, Some(&td), Some(json!({"table": t2, "score": "1-2-0"}))).await;
        assert_eq!(s, StatusCode::CONFLICT);
        let (_, p) = get(&app, url, None).await;
        assert!(p["pending"][0]["disputed"].is_string(), "{p}");
        let (s, _) = call(&app, "POST", &confirm, Some(&td), Some(json!({"table": t2, "score": "2-1-0"}))).await;
        assert_eq!(s, StatusCode::CONFLICT);
        let before = head();
        assert_eq!(
            call(&app, "POST", url, Some(&judge), Some(json!({"table": t2, "score": "1-1-1"}))).await.0,
            StatusCode::FORBIDDEN
        );
        assert_eq!(head(), before, "nothing written");
        // The rules still apply to a judge's report (no such table: 404).
        assert_eq!(
            call(&app, "POST", url, Some(&judge), Some(json!({"table": 9, "score": "1-0"}))).await.0,
            StatusCode::NOT_FOUND
        );
    });
}

#[test]
fn rulings_need_a_judge() {
    let env = ServerEnv::new();
    let app = env.app();
    let judge = env.token(Role::Judge, "naruto", "jin");
    let alice = env.token(Role::Player, "naruto", "alice");
    let store = env.state.store().clone();
    let id = StreamId::new("naruto-unruled").unwrap();
    rt().block_on(async {
        let url = "/api/v1/games/naruto-unruled/rulings";
        let ruling =
            json!({"ruling": {"NoteRecorded": {"judge": "jin", "about": 650, "note": "repeat attack; ruled later"}}});
        let before = store.head(&id).unwrap();
        assert_eq!(call(&app, "POST", url, None, Some(ruling.clone())).await.0, StatusCode::UNAUTHORIZED);
        assert_eq!(call(&app, "POST", url, Some(&alice), Some(ruling.clone())).await.0, StatusCode::FORBIDDEN);
        let other = json!({"ruling": {"NoteRecorded": {"judge": "someone", "about": null, "note": "x"}}});
        assert_eq!(call(&app, "POST", url, Some(&judge), Some(other)).await.0, StatusCode::BAD_REQUEST);
        let stale = json!({"ruling": ruling["ruling"], "expected": 3});
        assert_eq!(call(&app, "POST", url, Some(&judge), Some(stale)).await.0, StatusCode::CONFLICT);
        assert_eq!(store.head(&id).unwrap(), before);
        let (s, r) = call(&app, "POST", url, Some(&judge), Some(ruling)).await;
        assert_eq!(s, StatusCode::CREATED, "{r}");
        assert_eq!(r["seq"], 651);
        // The note resolves the finding.
        let (_, a) = get(&app, "/api/v1/games/naruto-unruled/audit", None).await;
        assert_eq!(a["unresolved"], 0);
    });
}

#[test]
fn a_write_retried_under_an_idempotency_key_records_once() {
    let env = ServerEnv::new();
    let app = env.app();
    let judge = env.token(Role::Judge, "naruto", "jin");
    let store = env.state.store().clone();
    let id = StreamId::new("naruto-unruled").unwrap();
    rt().block_on(async {
        let url = "/api/v1/games/naruto-unruled/rulings";
        let len = store.head(&id).unwrap().len;
        let note = |text: &str| {
            json!({"ruling": {"NoteRecorded": {"judge": "jin", "about": null, "note": text}}, "expected": len})
        };
        let (s, first) = call_keyed(&app, "POST", url, Some(&judge), "table-7-note-1", Some(note("deck check"))).await;
        assert_eq!((s, &first["retried"], &first["seq"]), (StatusCode::CREATED, &json!(false), &json!(len)), "{first}");
        // The answer was lost; the client sends the same request again (its expected count is
        // stale now): the first attempt's answer, and nothing written.
        let (s, again) = call_keyed(&app, "POST", url, Some(&judge), "table-7-note-1", Some(note("deck check"))).await;
        assert_eq!(s, StatusCode::OK, "{again}");
        assert_eq!((&again["retried"], &again["seq"], &again["head"]), (&json!(true), &first["seq"], &first["head"]));
        let head = store.head(&id).unwrap();
        assert_eq!(head.len, len + 1);
        // The same key for another ruling is a conflict; a malformed key is refused. Nothing written.
        let (s, e) = call_keyed(&app, "POST", url, Some(&judge), "table-7-note-1", Some(note("other"))).await;
        assert_eq!(s, StatusCode::CONFLICT, "{e}");
        for bad in ["", "two words", &"k".repeat(256)] {
            let (s, e) = call_keyed(&app, "POST", url, Some(&judge), bad, Some(note("x"))).await;
            assert_eq!(s, StatusCode::BAD_REQUEST, "{bad:?}: {e}");
            assert!(e["error"].as_str().unwrap_or_default().contains("Idempotency-Key"), "{e}");
        }
        assert_eq!(store.head(&id).unwrap(), head);
        // A new key with the stale count is refused as before: only a retry is answered from its
        // first attempt.
        let (s, _) = call_keyed(&app, "POST", url, Some(&judge), "table-7-note-2", Some(note("x"))).await;
        assert_eq!(s, StatusCode::CONFLICT);
        assert_eq!(store.head(&id).unwrap(), head);
    });
}

/// A pod tournament's pages: standings by pod points (not Swiss zeros) and each round's pods, by
/// pod and by name, as the library's fold gives them.
#[test]
fn a_pod_tournament_serves_pod_standings_and_pods() {
    use std::sync::Arc;

    use kifu::clock::SteppingClock;
    use kifu::game::commit::Commitment;
    use kifu::server::{app, AppState, ServerConfig};
    use kifu::store::sled_store::SledStore;

    let clock = Arc::new(SteppingClock::fixed());
    let store = SledStore::temporary(clock.clone()).unwrap();
    let id = StreamId::new("fate-pods").unwrap();
    let fate = kifu::games::driver("fate").unwrap();
    let run = kifu::tournament::event::run_pod_event(&store, fate, &id, 8, 2, Commitment([3; 32]), &*clock).unwrap();
    assert!(run.report.ok());
    let loaded = record::load(&store, &id).unwrap();
    let expected = loaded.state.pod_standings();
    assert!(expected.iter().any(|r| r.points > 0), "someone scored");
    let router = app(AppState::new(Arc::new(store), clock, ServerConfig::default()));
    rt().block_on(async {
        let (s, st) = get(&router, "/api/v1/tournaments/fate-pods/standings", None).await;
        assert_eq!(s, StatusCode::OK);
        assert_eq!(st["format"], "pods");
        let rows = st["rows"].as_array().unwrap();
        assert_eq!(rows.len(), 8);
        for (row, want) in rows.iter().zip(&expected) {
            assert_eq!(row["player"], want.player.as_str());
            assert_eq!(row["points"], want.points);
            assert_eq!(row["games"], want.games);
            assert_eq!(row["rank"], want.rank);
        }

        let (s, p) = get(&router, "/api/v1/tournaments/fate-pods/pairings?round=2", None).await;
        assert_eq!(s, StatusCode::OK);
        let pods = p["pods"].as_array().unwrap();
        assert_eq!(pods.len(), 2, "8 players sit in two pods of 4");
        let round = loaded.state.rounds.iter().find(|r| r.round == 2).unwrap();
        for (pod, want) in pods.iter().zip(&round.pods) {
            let names: Vec<&str> =
                pod["seats"].as_array().unwrap().iter().map(|x| x["player"].as_str().unwrap()).collect();
            let want: Vec<&str> = want.seats.iter().map(|&s| loaded.state.players[s].name.as_str()).collect();
            assert_eq!(names, want, "seats in pod order");
            assert!(pod["seats"].as_array().unwrap().iter().all(|x| x["place"].is_u64()), "places reported");
            assert_eq!(pod["corrections"], 0, "no judge corrected it");
        }
        let by_name = p["by_name"].as_array().unwrap();
        assert_eq!(by_name.len(), 8);
        assert!(
            by_name.iter().all(|r| r["opponent"].as_str().unwrap().matches(", ").count() == 2),
            "three pod-mates each"
        );
    });
}
