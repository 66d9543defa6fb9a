//! Several servers over one NATS cluster (two `AppState`s over one namespace, each with its own
//! connection, as two `kifu serve` processes would be): a live follower on one receives what is
//! appended through the other, in order, and resumes from Last-Event-ID; one serves a game at
//! the head another appended to; a token revoked through one (or the CLI) is refused by the
//! other; a result reported on one is confirmed on the other. Then a server cut off from its
//! cluster: cached answers marked stale, writes refused with 503, recovery on its own.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::http::{HeaderMap, StatusCode};
use serde_json::{json, Value};

use kifu::clock::SteppingClock;
use kifu::log::envelope::StreamId;
use kifu::server::tokens::{Book, Role};
use kifu::server::{AppState, ServerConfig};
use kifu::store::nats_store::{NatsStore, NatsUrl};
use kifu::store::{Store, Table};

use super::live::{feed, open_live, open_live_with, read_events, read_to_end};
use super::{fixture_log, rt};
use crate::support::{nats_namespace, NatsNamespace, TestEnv};

/// A server over `store` with no token file and no pending file: whatever it keeps, it keeps
/// in the store's shared records.
fn server(store: NatsStore) -> AppState {
    AppState::new(Arc::new(store), Arc::new(SteppingClock::fixed()), ServerConfig::default())
}

/// Two servers over one fresh namespace.
fn two_servers() -> (NatsNamespace, AppState, AppState) {
    let ns = nats_namespace();
    let (a, b) = (server(ns.store()), server(ns.store()));
    (ns, a, b)
}

/// Issues a token into the store's shared tokens, as `kifu --store nats://… token issue` does.
fn issue(store: &dyn Store, role: Role, scope: &str, name: &str) -> String {
    let book = Book::Shared(store.records(Table::Tokens).unwrap().expect("a cluster shares its tokens"));
    let secret = *blake3::hash(format!("{role}/{scope}/{name}").as_bytes()).as_bytes();
    book.issue(role, scope, name, secret, "2026-01-01T00:00:00Z".into()).unwrap()
}

/// One request to `state`'s server; the status, the headers and the JSON body.
async fn request(
    state: &AppState,
    method: &str,
    uri: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> (StatusCode, HeaderMap, Value) {
    super::call_with_headers(&kifu::server::app(state.clone()), method, uri, token, body).await
}

fn stale(headers: &HeaderMap) -> bool {
    headers.get("kifu-stale").is_some_and(|v| v == "true")
}

#[test]
fn a_follower_on_one_server_gets_what_another_appends_in_order_and_resumes() {
    let (_ns, a, b) = two_servers();
    let log = fixture_log("naruto-physical");
    rt().block_on(async {
        feed(&a, &log, "g.live", 0, 5).await;
        let mut all = open_live(&b, "/api/v1/games/g.live/live?from=0", None).await;
        let mut new = open_live(&b, "/api/v1/games/g.live/live", None).await;
        let first = read_events(&mut all, 5).await;
        assert_eq!(first.iter().map(|e| e.0).collect::<Vec<_>>(), (0..5).collect::<Vec<_>>());
        // Appended through A, one request per event, while B's followers wait.
        feed(&a, &log, "g.live", 5, 30).await;
        let rest = read_events(&mut all, 25).await;
        assert_eq!(rest.iter().map(|e| e.0).collect::<Vec<_>>(), (5..30).collect::<Vec<_>>());
        assert_eq!(rest.last().unwrap().1["events"], 30);
        let fresh = read_events(&mut new, 25).await;
        assert_eq!(fresh.iter().map(|e| e.0).collect::<Vec<_>>(), (5..30).collect::<Vec<_>>());
        // B describes them as A would: the same spectator timeline.
        let (_, _, page) = request(&a, "GET", "/api/v1/games/g.live/events?from=0&limit=30", None, None).await;
        let sent: Vec<Value> = first.iter().chain(&rest).map(|e| e.1["entry"].clone()).collect();
        assert_eq!(Value::Array(sent), page["entries"]);

        // A follower reconnecting to B with Last-Event-ID: 17 resumes at 18, then follows A's appends.
        let mut again = open_live(&b, "/api/v1/games/g.live/live", Some(17)).await;
        let resumed = read_events(&mut again, 12).await;
        assert_eq!(resumed.iter().map(|e| e.0).collect::<Vec<_>>(), (18..30).collect::<Vec<_>>());
        feed(&a, &log, "g.live", 30, 34).await;
        let more = read_events(&mut again, 4).await;
        assert_eq!(more.iter().map(|e| e.0).collect::<Vec<_>>(), (30..34).collect::<Vec<_>>());
    });
}

#[test]
fn a_server_serves_a_game_at_the_head_another_server_appended() {
    let (_ns, a, b) = two_servers();
    let log = fixture_log("naruto-physical");
    rt().block_on(async {
        feed(&a, &log, "g.head", 0, 10).await;
        let (s, _, sum) = request(&b, "GET", "/api/v1/games/g.head", None, None).await;
        assert_eq!(s, StatusCode::OK);
        assert_eq!(sum["events"], 10);
        // B has the game open at 10 events; A appends: B's next answer is at A's head.
        feed(&a, &log, "g.head", 10, 12).await;
        let (_, headers, sum) = request(&b, "GET", "/api/v1/games/g.head", None, None).await;
        assert_eq!(sum["events"], 12);
        assert!(!stale(&headers), "a fresh answer is not marked stale");
        let head_a = a.store().head(&StreamId::new("g.head").unwrap()).unwrap();
        assert_eq!(sum["chain"]["head"], head_a.hash.to_hex());
        let (_, _, board) = request(&b, "GET", "/api/v1/games/g.head/board?at=12", None, None).await;
        let (_, _, board_a) = request(&a, "GET", "/api/v1/games/g.head/board?at=12", None, None).await;
        assert_eq!(board, board_a);
    });
}

/// A judge follows a live game (the judge's view) on both servers; the token is revoked
/// through A's store: both streams end, each by its own periodic re-check of the shared token.
#[test]
fn a_revoked_tokens_live_streams_end_on_every_server() {
    let (_ns, a, b) = two_servers();
    let judge = issue(&**a.store(), Role::Judge, "*", "jin");
    let log = fixture_log("naruto-physical");
    rt().block_on(async {
        feed(&a, &log, "g.revoke", 0, 2).await;
        let uri = "/api/v1/games/g.revoke/live?as=judge&from=0";
        let mut on_a = open_live_with(&a, uri, &judge).await;
        let mut on_b = open_live_with(&b, uri, &judge).await;
        for s in [&mut on_a, &mut on_b] {
            assert_eq!(read_events(s, 2).await.iter().map(|e| e.0).collect::<Vec<_>>(), vec![0, 1]);
        }
        let book = Book::Shared(a.store().records(Table::Tokens).unwrap().unwrap());
        assert_eq!(book.revoke(&kifu::server::tokens::hash(&judge)[..12]).unwrap(), 1);
        let revoked_at = Instant::now();
        for (server, s) in [("A", &mut on_a), ("B", &mut on_b)] {
            let (ended, sent) = read_to_end(s).await;
            assert!(ended && sent.contains("event: revoked"), "server {server} kept the stream: {sent}");
            eprintln!(
                "server {server}: the revoked judge's stream ended {:?} after the revocation",
                revoked_at.elapsed()
            );
        }
    });
}

#[test]
fn a_token_revoked_through_one_server_is_refused_by_the_other() {
    let (ns, a, b) = two_servers();
    let judge = issue(&**a.store(), Role::Judge, "*", "jin");
    let keep = issue(&**a.store(), Role::Judge, "*", "kai");
    rt().block_on(async {
        for server in [&a, &b] {
            let (s, _, who) = request(server, "GET", "/api/v1/whoami", Some(&judge), None).await;
            assert_eq!(s, StatusCode::OK);
            assert_eq!(who["name"], "jin");
        }
        // Revoked through A's store: B refuses it at its next request.
        let book = Book::Shared(a.store().records(Table::Tokens).unwrap().unwrap());
        assert_eq!(book.revoke(&kifu::server::tokens::hash(&judge)[..12]).unwrap(), 1);
        assert_eq!(request(&b, "GET", "/api/v1/whoami", Some(&judge), None).await.0, StatusCode::UNAUTHORIZED);
        assert_eq!(request(&a, "GET", "/api/v1/whoami", Some(&judge), None).await.0, StatusCode::UNAUTHORIZED);
        assert_eq!(request(&b, "GET", "/api/v1/whoami", Some(&keep), None).await.0, StatusCode::OK);
        // Never again: the same token cannot be issued anew.
        let secret: [u8; 32] = hex::decode(&judge[5..]).unwrap().try_into().unwrap();
        let err = book.issue(Role::Judge, "*", "jin", secret, "t".into()).unwrap_err();
        assert!(err.to_string().contains("revoked"), "{err}");
    });

    // The CLI against the cluster: issue, list, revoke; B follows each.
    let env = TestEnv::new();
    let store = ns.location();
    let token = env.ok(&["--store", &store, "token", "issue", "--role", "organizer", "--all", "--name", "ora"]);
    let token = token.trim().to_string();
    let list = env.ok(&["--store", &store, "token", "list", "--json"]);
    let list: Value = serde_json::from_str(&list).unwrap();
    let names: Vec<&str> = list.as_array().unwrap().iter().map(|g| g["name"].as_str().unwrap()).collect();
    assert_eq!(names.len(), 2, "kai and ora are valid, jin is not: {names:?}");
    assert!(names.contains(&"ora") && names.contains(&"kai"), "{names:?}");
    assert!(!env.data().join("server").join("tokens.json").exists(), "no token file beside a cluster");
    rt().block_on(async {
        let (s, _, who) = request(&b, "GET", "/api/v1/whoami", Some(&token), None).await;
        assert_eq!((s, who["role"].as_str()), (StatusCode::OK, Some("organizer")));
    });
    let prefix = &kifu::server::tokens::hash(&token)[..10];
    assert!(env.ok(&["--store", &store, "token", "revoke", prefix]).contains("revoked 1"));
    rt().block_on(async {
        assert_eq!(request(&b, "GET", "/api/v1/whoami", Some(&token), None).await.0, StatusCode::UNAUTHORIZED);
    });
}

#[test]
fn a_result_reported_on_one_server_is_confirmed_on_the_other() {
    let (_ns, a, b) = two_servers();
    let id = super::open_match(&**a.store(), "league.x", "naruto");
    let alice = issue(&**a.store(), Role::Player, "league.x", "alice");
    let bob = issue(&**a.store(), Role::Player, "league.x", "bob");
    rt().block_on(async {
        let url = "/api/v1/tournaments/league.x/results";
        let (s, _, r) =
            request(&a, "POST", url, Some(&alice), Some(json!({"player": "alice", "score": "2-1-0"}))).await;
        assert_eq!(s, StatusCode::ACCEPTED, "{r}");
        let before = b.store().head(&id).unwrap();
        // B sees A's pending report and takes bob's confirmation.
        let (s, _, p) = request(&b, "GET", url, None, None).await;
        assert_eq!(s, StatusCode::OK);
        let pending = p["pending"][0].clone();
        assert_eq!(pending["reported_by"], "alice", "{p}");
        let body = json!({"table": pending["table"], "score": pending["score"]});
        let (s, _, r) = request(&b, "POST", &format!("{url}/confirm"), Some(&bob), Some(body)).await;
        assert_eq!(s, StatusCode::CREATED, "{r}");
        assert_eq!(a.store().head(&id).unwrap().len, before.len + 1);
        // Gone on both; A serves the recorded result.
        for server in [&a, &b] {
            let (_, _, p) = request(server, "GET", url, None, None).await;
            assert_eq!(p["pending"], json!([]));
        }
        let (_, _, pairings) = request(&a, "GET", "/api/v1/tournaments/league.x/pairings", None, None).await;
        assert!(pairings["tables"][0]["result"].is_string(), "{pairings}");
    });
}

/// A single-node JetStream server of the test's own, on a port of its own (so the test cluster
/// other tests use stays up), which the test stops and starts again with the same data.
struct OwnServer {
    port: u16,
    dir: tempfile::TempDir,
    child: Option<std::process::Child>,
}

impl OwnServer {
    fn start() -> Self {
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let mut s = OwnServer { port, dir: tempfile::tempdir().unwrap(), child: None };
        s.restart();
        s
    }

    fn restart(&mut self) {
        let child = std::process::Command::new(crate::support::nats_server())
            .args(["-js", "-a", "127.0.0.1", "-p", &self.port.to_string(), "-sd"])
            .arg(self.dir.path())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("tools/nats-server-install installed nats-server");
        self.child = Some(child);
    }

    fn stop(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }

    fn url(&self) -> NatsUrl {
        NatsUrl::parse(&format!("nats://127.0.0.1:{}?ns=cut&replicas=1", self.port)).unwrap()
    }

    /// A store over this server, once it accepts connections.
    fn store(&self) -> NatsStore {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            match NatsStore::connect(&self.url(), Arc::new(SteppingClock::fixed())) {
                Ok(s) => return s,
                Err(_) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(100)),
                Err(e) => panic!("the server did not start: {e}"),
            }
        }
    }
}

impl Drop for OwnServer {
    fn drop(&mut self) {
        self.stop();
    }
}

#[test]
fn a_server_cut_off_from_its_cluster_serves_its_cache_stale_and_refuses_writes() {
    let mut cluster = OwnServer::start();
    let store = cluster.store();
    store.import(&fixture_log("naruto-physical")).unwrap();
    store.import(&fixture_log("naruto-unruled")).unwrap();
    let judge = issue(&store, Role::Judge, "*", "jin");
    let state = server(store);
    let game = "/api/v1/games/naruto-physical";
    let ruling = json!({"ruling": {"NoteRecorded": {"judge": "jin", "about": null, "note": "table 4 checked"}}});
    rt().block_on(async {
        // Served fresh: the game and the token are now cached.
        let (s, headers, fresh) = request(&state, "GET", game, Some(&judge), None).await;
        assert_eq!(s, StatusCode::OK);
        assert!(!stale(&headers));

        cluster.stop();
        // What is cached is served as it was, marked stale; the token still reads.
        let (s, headers, cached) = request(&state, "GET", game, Some(&judge), None).await;
        assert_eq!(s, StatusCode::OK, "{cached}");
        assert!(stale(&headers), "a cached answer while cut off is marked Kifu-Stale: true");
        assert_eq!(cached, fresh);
        let (s, headers, _) = request(&state, "GET", &format!("{game}/board?at=3"), None, None).await;
        assert_eq!(s, StatusCode::OK);
        assert!(stale(&headers));
        // What is not cached, and every write, is 503 with a JSON error saying why.
        let (s, _, err) = request(&state, "GET", "/api/v1/games/naruto-unruled", None, None).await;
        assert_eq!(s, StatusCode::SERVICE_UNAVAILABLE, "{err}");
        assert!(err["error"].as_str().unwrap().contains("cannot be reached"), "{err}");
        let (s, _, err) = request(&state, "POST", &format!("{game}/rulings"), Some(&judge), Some(ruling.clone())).await;
        assert_eq!(s, StatusCode::SERVICE_UNAVAILABLE, "{err}");
        assert_eq!(err["status"], 503);
        let text = err["error"].as_str().unwrap();
        assert!(text.contains("cannot be reached") && text.contains("refuses writes"), "{text}");
        // A token it never saw cannot be checked: 503, not 401.
        let (s, _, _) = request(&state, "GET", "/api/v1/whoami", Some("kifu_00"), None).await;
        assert_eq!(s, StatusCode::SERVICE_UNAVAILABLE);

        // The cluster comes back: the server recovers on its own (the client reconnects).
        cluster.restart();
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let (s, headers, _) = request(&state, "GET", game, Some(&judge), None).await;
            if s == StatusCode::OK && !stale(&headers) {
                break;
            }
            assert!(Instant::now() < deadline, "still stale 60 s after the cluster came back");
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        let (s, _, r) = request(&state, "POST", &format!("{game}/rulings"), Some(&judge), Some(ruling)).await;
        assert_eq!(s, StatusCode::CREATED, "{r}");
        let (s, headers, sum) = request(&state, "GET", "/api/v1/games/naruto-unruled", None, None).await;
        assert_eq!(s, StatusCode::OK, "{sum}");
        assert!(!stale(&headers));
    });
    let head = state.store().head(&StreamId::new("naruto-physical").unwrap()).unwrap();
    assert_eq!(head.len, fixture_log("naruto-physical").head.len + 1, "the ruling recorded after recovery, once");
}
