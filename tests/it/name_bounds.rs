//! Every name is bounded at `kifu::log::limits::NAME_MAX` characters (notes and reasons at
//! `NOTE_MAX`) on every way in: a name at the limit is accepted, one over it is refused with the
//! field and the limit named, and nothing is written. A stream an earlier build stored with a
//! longer name still opens, verifies and replays, and listings show the name cut.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use kifu::clock::SteppingClock;
use kifu::log::chain::{self, VerifiedLog};
use kifu::log::envelope::{Actor, Header, StreamId};
use kifu::log::limits::{NAME_MAX, NOTE_MAX};
use kifu::store::sled_store::SledStore;
use kifu::store::{AppendRequest, ExpectedVersion, NewEvent, Store};

use crate::support::TestEnv;

/// A name of `n` characters, two bytes each: the bound counts characters, not bytes.
fn name(n: usize) -> String {
    "é".repeat(n)
}

fn manifest(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

fn streams_json(env: &TestEnv) -> Vec<serde_json::Value> {
    match env.kifu(&["streams", "--json"]) {
        out if out.status.success() => serde_json::from_slice(&out.stdout).unwrap(),
        // A command that failed before any store existed leaves none to list.
        _ => vec![],
    }
}

/// The stream ids in the store (none when nothing was ever written).
fn stream_ids(env: &TestEnv) -> Vec<String> {
    streams_json(env).iter().map(|s| s["stream"].as_str().unwrap_or_default().to_string()).collect()
}

fn assert_over(err: &str, field: &str, limit: usize) {
    let want = format!("{field} is {} characters; the limit is {limit}", limit + 1);
    assert!(err.contains(&want), "expected {want:?} in: {err}");
}

/// The naruto fixture re-recorded under `id` with `edit` applied to its header and to each
/// event's actor; written as a `.kifu` file (`json`: the JSON log form).
fn crafted(env: &TestEnv, id: &str, json: bool, edit: impl Fn(&mut Header, &mut Vec<NewEvent>)) -> PathBuf {
    let log = kifu::log::file::read(&std::fs::read(manifest("replays/naruto-physical.kifu")).unwrap()).unwrap();
    let mut header = log.header.clone();
    let h = header.v1_mut();
    h.stream = StreamId::new(id).unwrap();
    let mut events: Vec<NewEvent> = log
        .events
        .iter()
        .map(|stored| {
            let (e, _) = chain::open_event(stored).unwrap();
            NewEvent { actor: e.v1().actor.clone(), payload: e.v1().payload.to_vec(), idempotency: None }
        })
        .collect();
    edit(&mut header, &mut events);
    let store = SledStore::temporary(Arc::new(SteppingClock::fixed())).unwrap();
    let sid = StreamId::new(id).unwrap();
    store
        .append(AppendRequest {
            stream: sid.clone(),
            expected: ExpectedVersion::NoStream,
            create: Some(header),
            events,
        })
        .unwrap();
    let exported = store.export(&sid).unwrap();
    let path = env.path(&format!("{id}.{}", if json { "json" } else { "kifu" }));
    let bytes = if json {
        serde_json::to_vec(&kifu::log::json::to_json(&exported).unwrap()).unwrap()
    } else {
        kifu::log::file::write(&exported)
    };
    std::fs::write(&path, bytes).unwrap();
    path
}

/// Renames alice (seat 0) to `to` in the header, its configuration and every event she recorded.
fn rename_alice(to: &str) -> impl Fn(&mut Header, &mut Vec<NewEvent>) + '_ {
    use kifu::games::naruto::config::NarutoConfig;
    move |header, events| {
        let mut config = kifu::game::record::decode_config::<kifu::games::naruto::Naruto>(header).unwrap();
        let NarutoConfig::V1(c) = &mut config;
        c.players[0] = to.to_string();
        let h = header.v1_mut();
        h.config = postcard::to_stdvec(&config).unwrap();
        h.players[0] = to.to_string();
        for e in events.iter_mut() {
            if e.actor == Actor::Player("alice".into()) {
                e.actor = Actor::Player(to.to_string());
            }
        }
    }
}

#[test]
fn game_new_takes_a_name_at_the_limit_and_refuses_one_over() {
    let env = TestEnv::new();
    let deck = |p: &str| manifest(&format!("replays/decks/{p}.deck")).to_string_lossy().to_string();
    let (a, b) = (deck("alice"), deck("bob"));
    let new = |id: &str, second: &str| {
        let players = format!("alice,{second}");
        env.kifu(&["game", "new", "--game", "naruto", "--id", id, "--players", &players, "--deck", &a, "--deck", &b])
    };
    let out = new("at", &name(NAME_MAX));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let out = new("over", &name(NAME_MAX + 1));
    assert!(!out.status.success());
    assert_over(&String::from_utf8_lossy(&out.stderr), "player name 2", NAME_MAX);
    assert_eq!(stream_ids(&env), ["at"], "nothing written on refusal");
    // A judge's ruling: the judge's name and the note are bounded too.
    let rule = |judge: &str, note: &str| env.kifu(&["game", "rule", "at", "note", "--judge", judge, "--note", note]);
    let out = rule(&name(NAME_MAX + 1), "fine");
    assert!(!out.status.success());
    assert_over(&String::from_utf8_lossy(&out.stderr), "name", NAME_MAX);
    let out = rule("jin", &"n".repeat(NOTE_MAX + 1));
    assert!(!out.status.success());
    assert_over(&String::from_utf8_lossy(&out.stderr), "the ruling's note", NOTE_MAX);
    let log = env.ok(&["log", "at", "--json"]);
    assert_eq!(serde_json::from_str::<serde_json::Value>(&log).unwrap().as_array().map_or(0, Vec::len), 0);
    let out = rule(&name(NAME_MAX), &"n".repeat(NOTE_MAX));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn append_bounds_its_actor_and_note() {
    let env = TestEnv::new();
    let actor = |n: usize| format!("judge:{}", name(n));
    env.ok(&["append", "notes", "--text", "x", "--actor", &actor(NAME_MAX)]);
    let err = env.fails(&["append", "notes", "--text", "x", "--actor", &actor(NAME_MAX + 1)]);
    assert_over(&err, "the actor's judge name", NAME_MAX);
    let err = env.fails(&["append", "notes", "--text", &"n".repeat(NOTE_MAX + 1)]);
    assert_over(&err, "the note (--text)", NOTE_MAX);
    env.ok(&["append", "notes", "--text", &"n".repeat(NOTE_MAX)]);
    assert_eq!(env.store().head(&StreamId::new("notes").unwrap()).unwrap().len, 2);
}

#[test]
fn tournament_register_and_its_reasons_are_bounded() {
    let env = TestEnv::new();
    let seed = "22".repeat(32);
    let err = env.fails(&[
        "tournament",
        "new",
        "--name",
        &name(NAME_MAX + 1),
        "--game",
        "stones",
        "--id",
        "t0",
        "--seed",
        &seed,
    ]);
    assert_over(&err, "tournament name", NAME_MAX);
    assert!(stream_ids(&env).is_empty(), "nothing written on refusal");
    env.ok(&["tournament", "new", "--name", &name(NAME_MAX), "--game", "stones", "--id", "t", "--seed", &seed]);
    let head = || env.store().head(&StreamId::new("t").unwrap()).unwrap();
    let before = head();
    let over = name(NAME_MAX + 1);
    let err = env.fails(&["tournament", "register", "t", "ann", "bo", &over]);
    assert_over(&err, "player name 3", NAME_MAX);
    // --json prints the refusal as JSON.
    let out = env.kifu(&["tournament", "register", "t", &over, "--json"]);
    assert!(!out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v.to_string().contains("player name 1 is 101 characters; the limit is 100"), "{v}");
    assert_eq!(head(), before, "nothing written on refusal");
    env.ok(&["tournament", "register", "t", "ann", "bo", &name(NAME_MAX)]);
    let err = env.fails(&["tournament", "drop", "t", "ann", "--reason", &"r".repeat(NOTE_MAX + 1)]);
    assert_over(&err, "reason", NOTE_MAX);
    let err = env.fails(&["tournament", "drop", "t", "ann", "--actor", &format!("organizer:{over}")]);
    assert_over(&err, "the actor's organizer name", NAME_MAX);
    env.ok(&["tournament", "drop", "t", "ann", "--reason", &"r".repeat(NOTE_MAX)]);
}

#[test]
fn a_json_lines_import_bounds_players_and_actors_per_line() {
    let env = TestEnv::new();
    let text = std::fs::read_to_string(manifest("replays/naruto-physical.jsonl")).unwrap();
    let renamed =
        |to: &str| text.replace("\"alice\"", &format!("\"{to}\"")).replace("player:alice", &format!("player:{to}"));
    let write = |file: &str, body: &str| {
        let p = env.path(file);
        std::fs::write(&p, body).unwrap();
        p.to_string_lossy().to_string()
    };
    // At the limit: the whole game imports under the long name. JSON lines carry no rules
    // version and import under the newest, which moves a resolved mission to chakra in a step of
    // its own (Naruto version 5); this game was recorded before, so it imports as recorded.
    let at = write("at.jsonl", &renamed(&name(NAME_MAX)));
    env.ok(&["game", "import", &at, "--id", "at", "--as-recorded"]);
    // Over it in the header: refused, naming line 1.
    let over = write("over.jsonl", &renamed(&name(NAME_MAX + 1)));
    let err = env.fails(&["game", "import", &over, "--id", "over"]);
    assert!(err.contains("line 1"), "{err}");
    assert_over(&err, "player name 1", NAME_MAX);
    // A 10 MiB actor on one line: refused, naming the line, in a short message.
    let huge = "m".repeat(10 << 20);
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    lines[3] = lines[3].replacen("player:alice", &format!("player:{huge}"), 1).replacen(
        "player:bob",
        &format!("player:{huge}"),
        1,
    );
    assert!(lines[3].len() > 10 << 20);
    let huge_file = write("huge.jsonl", &lines.join("\n"));
    let err = env.fails(&["game", "import", &huge_file, "--id", "huge"]);
    assert!(
        err.contains("line 4: the actor's player name is 10485760 characters; the limit is 100"),
        "{}",
        &err[..err.len().min(2000)]
    );
    assert!(err.len() < 4096, "the error is {} bytes: {}", err.len(), &err[..err.len().min(3000)]);
    assert_eq!(stream_ids(&env), ["at"], "nothing written on refusal");
}

#[test]
fn kifu_and_json_log_imports_bound_header_players_and_actors() {
    let env = TestEnv::new();
    for json in [false, true] {
        let sfx = if json { "j" } else { "k" };
        let at_name = name(NAME_MAX);
        let at = crafted(&env, &format!("at-{sfx}"), json, rename_alice(&at_name));
        env.ok(&["verify", at.to_str().unwrap()]);
        env.ok(&["import", at.to_str().unwrap()]);
        // A 1 MiB player name in the header (and as the actor of her events).
        let big = name(1 << 20);
        let over = crafted(&env, &format!("over-{sfx}"), json, rename_alice(&big));
        let err = env.fails(&["import", over.to_str().unwrap()]);
        assert!(
            err.contains("nothing imported") && err.contains("player name 1 is 1048576 characters; the limit is 100"),
            "{err}"
        );
        assert!(err.len() < 4096, "the error is {} bytes", err.len());
        // verify FILE says what import says; --chain-only still finds the chain sound.
        let out = env.kifu(&["verify", over.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(1));
        env.ok(&["verify", "--chain-only", over.to_str().unwrap()]);
        // An actor alone over the limit (the header within it) is refused by event.
        let actor = crafted(&env, &format!("actor-{sfx}"), json, |_, events| {
            events[2].actor = Actor::Judge(name(NAME_MAX + 1));
        });
        let err = env.fails(&["import", actor.to_str().unwrap()]);
        assert!(err.contains("event 2"), "{err}");
        assert_over(&err, "the actor's judge name", NAME_MAX);
    }
    let mut ids = stream_ids(&env);
    ids.sort();
    assert_eq!(ids, ["at-j", "at-k"], "nothing written on refusal");
}

#[test]
fn melee_and_tom_imports_bound_player_and_tournament_names() {
    let env = TestEnv::new();
    let melee = std::fs::read_to_string(manifest(
        "tests/data/melee/lega-pauper-genova-winter-season-lunedi-3-febbraio-ore-2030-235978-2025-02-03.json",
    ))
    .unwrap();
    let tom = std::fs::read_to_string(manifest("tests/data/tom/cg-league-night-2026-07-28.xml")).unwrap();
    let import = |from: &str, id: &str, text: String| {
        let p = env.path(&format!("{id}.{from}"));
        std::fs::write(&p, text).unwrap();
        env.kifu(&["tournament", "import", "--from", from, p.to_str().unwrap(), "--id", id])
    };
    // Melee: the winner renamed everywhere the file names them.
    let melee_as = |n: usize| melee.replace("\"tucceicS\"", &format!("\"{}\"", name(n)));
    let out = import("melee", "m-at", melee_as(NAME_MAX));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let out = import("melee", "m-over", melee_as(NAME_MAX + 1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("Melee file"), "{err}");
    assert_over(&err, "player name 1", NAME_MAX);
    // TOM: "First Last" is the name; Anon's first name grown to make it 100 and 101 characters.
    let tom_as =
        |n: usize| tom.replace("<firstname>Player1</firstname>", &format!("<firstname>{}</firstname>", name(n - 5)));
    let out = import("tom", "t-at", tom_as(NAME_MAX));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let out = import("tom", "t-over", tom_as(NAME_MAX + 1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("TOM file"), "{err}");
    assert_over(&err, "player name 1", NAME_MAX);
    let mut ids = stream_ids(&env);
    ids.sort();
    assert_eq!(ids, ["m-at", "t-at"], "nothing written on refusal");
}

/// A game an earlier build stored with a 1,000-character player name, written around the bound
/// (straight into the store, as that build did).
fn old_long_named_game(store: &dyn Store) -> String {
    let long = name(1000);
    let env = TestEnv::new();
    let file = crafted(&env, "old-long", false, rename_alice(&long));
    let log: VerifiedLog = kifu::log::file::read(&std::fs::read(file).unwrap()).unwrap();
    store.import(&log).unwrap();
    long
}

#[test]
fn an_old_long_named_stream_still_verifies_and_replays_and_is_listed_cut() {
    let env = TestEnv::new();
    {
        let store = env.store();
        old_long_named_game(&store);
    }
    env.ok(&["verify", "old-long"]);
    env.ok(&["verify", "--all"]);
    env.ok(&["game", "show", "old-long"]);
    env.ok(&["game", "audit", "old-long"]);
    let rt = crate::server::rt();
    let state = kifu::server::AppState::new(
        Arc::new(env.store()),
        Arc::new(SteppingClock::fixed()),
        kifu::server::ServerConfig::default(),
    );
    let app = kifu::server::app(state);
    rt.block_on(async {
        let (status, list) = crate::server::get(&app, "/api/v1/streams", None).await;
        assert!(status.is_success(), "{list}");
        let players = list[0]["players"].as_array().unwrap();
        let first = players[0].as_str().unwrap();
        assert_eq!(first.chars().count(), NAME_MAX, "{first}");
        assert!(first.ends_with('…'));
        assert_eq!(players[1], "bob");
        let (_, game) = crate::server::get(&app, "/api/v1/games/old-long", None).await;
        assert_eq!(game["players"][0].as_str().map(|p| p.chars().count()), Some(NAME_MAX), "{game}");
        let (_, events) = crate::server::get(&app, "/api/v1/games/old-long/events", None).await;
        let text = events.to_string();
        assert!(!text.contains(&name(NAME_MAX + 1)), "an events listing carries no name over the limit");
    });
}

#[test]
fn an_api_body_is_bounded() {
    use kifu::server::tokens::{self, Role};
    let env = TestEnv::new();
    let tokens_file = env.path("tokens.json");
    let issue = |role, scope: &str, who: &str| {
        let secret = *blake3::hash(format!("{role}/{scope}/{who}").as_bytes()).as_bytes();
        tokens::issue(&tokens_file, role, scope, who, secret, "2026-01-01T00:00:00Z".into()).unwrap()
    };
    let org = issue(Role::Organizer, "*", "ora");
    let config = kifu::server::ServerConfig {
        tokens: Some(tokens_file.clone()),
        pending: Some(env.path("pending.json")),
        seeds: Some(env.path("seeds")),
        ..kifu::server::ServerConfig::default()
    };
    let store = Arc::new(SledStore::temporary(Arc::new(SteppingClock::fixed())).unwrap());
    let app = kifu::server::app(kifu::server::AppState::new(store.clone(), Arc::new(SteppingClock::fixed()), config));
    let rt = crate::server::rt();
    rt.block_on(async {
        use serde_json::json;
        let post = |uri: &'static str, body| crate::server::call(&app, "POST", uri, Some(&org), Some(body));
        let (status, v) =
            post("/api/v1/tournaments", json!({"id": "cup", "name": name(NAME_MAX + 1), "game": "naruto"})).await;
        assert_eq!(status, 400, "{v}");
        assert_over(&v.to_string(), "the tournament's name", NAME_MAX);
        assert!(store.head(&StreamId::new("cup").unwrap()).is_err(), "nothing written");
        let (status, v) =
            post("/api/v1/tournaments", json!({"id": "cup", "name": name(NAME_MAX), "game": "naruto"})).await;
        assert_eq!(status, 201, "{v}");
        let before = store.head(&StreamId::new("cup").unwrap()).unwrap();
        let (status, v) =
            post("/api/v1/tournaments/cup/players", json!({"players": ["ann", name(NAME_MAX + 1)]})).await;
        assert_eq!(status, 400, "{v}");
        assert_over(&v.to_string(), "player name 2", NAME_MAX);
        assert_eq!(store.head(&StreamId::new("cup").unwrap()).unwrap(), before, "nothing written");
        let (status, v) = post("/api/v1/tournaments/cup/players", json!({"players": ["ann", name(NAME_MAX)]})).await;
        assert_eq!(status, 201, "{v}");
        let (status, v) =
            post("/api/v1/tournaments/cup/drops", json!({"player": "ann", "reason": "r".repeat(NOTE_MAX + 1)})).await;
        assert_eq!(status, 400, "{v}");
        assert_over(&v.to_string(), "reason", NOTE_MAX);
    });
}

#[test]
fn the_bound_counts_characters_and_listings_cut_with_an_ellipsis() {
    use kifu::log::limits::{check_name, shown};
    assert!(check_name(|| "x".into(), &name(NAME_MAX)).is_ok());
    let e = check_name(|| "player name 3".into(), &format!("{}a", name(NAME_MAX))).unwrap_err();
    assert_eq!(e.to_string(), "player name 3 is 101 characters; the limit is 100");
    assert_eq!(shown("ab"), "ab");
    let at = name(NAME_MAX);
    assert_eq!(shown(&at), at.as_str());
    let cut = shown(&name(NAME_MAX * 3)).into_owned();
    assert_eq!(cut.chars().count(), NAME_MAX);
    assert!(cut.ends_with('…'));
}
