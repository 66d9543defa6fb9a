//! Live games: events appended through the server reach server-sent-event followers in order,
//! a reconnect with Last-Event-ID resumes after the last event seen, and players record their
//! own actions through the API (refused actions write nothing).

use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tower::ServiceExt;

use kifu::game::{Game, GameEntry};
use kifu::games::naruto::Naruto;
use kifu::log::chain::{self, VerifiedLog};
use kifu::log::envelope::{Header, StreamId};
use kifu::server::tokens::Role;
use kifu::server::AppState;
use kifu::store::{AppendRequest, ExpectedVersion, NewEvent};

use super::{call, get, rt, ServerEnv};

/// Copies events `from..to` of a fixture log into stream `id` through the server's append path.
pub async fn feed(state: &AppState, log: &VerifiedLog, id: &str, from: u64, to: u64) {
    let mut h = log.header.v1().clone();
    h.stream = StreamId::new(id).unwrap();
    for seq in from..to {
        let (env, _) = chain::open_event(&log.events[seq as usize]).unwrap();
        let e = env.v1();
        state
            .append(AppendRequest {
                stream: h.stream.clone(),
                expected: if seq == 0 { ExpectedVersion::NoStream } else { ExpectedVersion::Exact(seq) },
                create: Some(Header::V1(h.clone())),
                events: vec![NewEvent { actor: e.actor.clone(), payload: e.payload.to_vec(), idempotency: None }],
            })
            .await
            .unwrap();
    }
}

/// Reads server-sent events from a body until `n` events arrived; returns (id, data) pairs.
pub async fn read_events(body: &mut Body, n: usize) -> Vec<(u64, Value)> {
    let mut buf = String::new();
    let mut out = Vec::new();
    while out.len() < n {
        let frame = tokio::time::timeout(Duration::from_secs(10), body.frame()).await.expect("an event in time");
        let frame = frame.expect("the stream stays open").unwrap();
        if let Ok(data) = frame.into_data() {
            buf.push_str(std::str::from_utf8(&data).unwrap());
        }
        while let Some(end) = buf.find("\n\n") {
            let block: String = buf.drain(..end + 2).collect();
            let mut id = None;
            let mut data = None;
            for line in block.lines() {
                if let Some(v) = line.strip_prefix("id: ").or_else(|| line.strip_prefix("id:")) {
                    id = v.trim().parse().ok();
                }
                if let Some(v) = line.strip_prefix("data: ").or_else(|| line.strip_prefix("data:")) {
                    data = serde_json::from_str(v).ok();
                }
            }
            if let (Some(i), Some(d)) = (id, data) {
                out.push((i, d));
            }
        }
    }
    out
}

pub async fn open_live(state: &AppState, uri: &str, last_event_id: Option<u64>) -> Body {
    let mut req = Request::builder().uri(uri);
    if let Some(l) = last_event_id {
        req = req.header("last-event-id", l.to_string());
    }
    let resp = kifu::server::app(state.clone()).oneshot(req.body(Body::empty()).unwrap()).await.unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    assert_eq!(resp.headers()["content-type"], "text/event-stream");
    resp.into_body()
}

#[test]
fn live_followers_get_every_event_and_resume_after_the_last_seen() {
    let env = ServerEnv::new();
    let log = super::fixture_log("naruto-physical");
    rt().block_on(async {
        feed(&env.state, &log, "naruto-live", 0, 10).await;
        // A follower from the start, and one that only wants new events.
        let mut all = open_live(&env.state, "/api/v1/games/naruto-live/live?from=0", None).await;
        let mut new = open_live(&env.state, "/api/v1/games/naruto-live/live", None).await;
        let first = read_events(&mut all, 10).await;
        assert_eq!(first.iter().map(|e| e.0).collect::<Vec<_>>(), (0..10).collect::<Vec<_>>());
        feed(&env.state, &log, "naruto-live", 10, 40).await;
        let rest = read_events(&mut all, 30).await;
        assert_eq!(rest.iter().map(|e| e.0).collect::<Vec<_>>(), (10..40).collect::<Vec<_>>());
        assert_eq!(rest.last().unwrap().1["events"], 40);
        let fresh = read_events(&mut new, 30).await;
        assert_eq!(fresh.first().unwrap().0, 10);

        // The entries are the spectator's timeline, the same as the paged events.
        let app = env.app();
        let (_, page) = call(&app, "GET", "/api/v1/games/naruto-live/events?from=0&limit=40", None, None).await;
        let sent: Vec<Value> = first.iter().chain(&rest).map(|e| e.1["entry"].clone()).collect();
        assert_eq!(Value::Array(sent), page["entries"]);

        // Reconnecting with Last-Event-ID: 24 resumes at 25.
        let mut again = open_live(&env.state, "/api/v1/games/naruto-live/live", Some(24)).await;
        let resumed = read_events(&mut again, 15).await;
        assert_eq!(resumed.iter().map(|e| e.0).collect::<Vec<_>>(), (25..40).collect::<Vec<_>>());

        // A live game's hidden cards: the public cannot ask for more than the spectator view.
        let (s, _) = call(&app, "GET", "/api/v1/games/naruto-live/live?as=judge", None, None).await;
        assert_eq!(s, StatusCode::FORBIDDEN);
    });
}

#[test]
fn players_record_their_own_actions() {
    let env = ServerEnv::new();
    let log = super::fixture_log("naruto-physical");
    let alice = env.token(Role::Player, "naruto", "alice");
    let bob = env.token(Role::Player, "naruto", "bob");
    let app = env.app();
    let store = env.state.store().clone();
    let id = StreamId::new("naruto-live").unwrap();
    rt().block_on(async {
        // Feed until the next event is a seated player's action.
        let mut n = 30u64;
        let (event, seat) = loop {
            let (envl, _) = chain::open_event(&log.events[n as usize]).unwrap();
            let entry: GameEntry<<Naruto as Game>::Event> = postcard::from_bytes(envl.v1().payload.as_ref()).unwrap();
            if let GameEntry::Played(e) = entry {
                if let Some(seat) = Naruto::acting_seat(&e) {
                    break (e, seat);
                }
            }
            n += 1;
        };
        feed(&env.state, &log, "naruto-live", 0, n).await;
        super::link_games(&*store, "naruto", "naruto", &["naruto-live".to_string()]);
        let (mine, theirs) = if seat == 0 { (&alice, &bob) } else { (&bob, &alice) };
        let url = "/api/v1/games/naruto-live/events";
        let body = json!({"event": serde_json::to_value(&event).unwrap(), "expected": n});
        let before = store.head(&id).unwrap();
        assert_eq!(call(&app, "POST", url, None, Some(body.clone())).await.0, StatusCode::UNAUTHORIZED);
        let (s, r) = call(&app, "POST", url, Some(theirs), Some(body.clone())).await;
        assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "the other seat's action is refused: {r}");
        let forced = json!({"event": body["event"], "forced": true});
        assert_eq!(call(&app, "POST", url, Some(mine), Some(forced)).await.0, StatusCode::FORBIDDEN);
        assert_eq!(store.head(&id).unwrap(), before);
        let (s, r) = call(&app, "POST", url, Some(mine), Some(body.clone())).await;
        assert_eq!(s, StatusCode::CREATED, "{r}");
        assert_eq!(r["seq"], n);
        // The same head as the fixture: the API recorded the same bytes the recorder did.
        let (_, sum) = call(&app, "GET", "/api/v1/games/naruto-live", None, None).await;
        assert_eq!(sum["events"], n + 1);
        // Replaying the same request is refused (illegal now, and stale): nothing is written.
        let (s, _) = call(&app, "POST", url, Some(mine), Some(body)).await;
        assert!(s == StatusCode::CONFLICT || s == StatusCode::UNPROCESSABLE_ENTITY, "{s}");
        assert_eq!(store.head(&id).unwrap().len, n + 1);
    });
}

/// `Last-Event-ID: 18446744073709551615` resumed at event 0 (the `+ 1` wrapped): an id past the
/// end resumes at the end.
#[test]
fn a_last_event_id_past_the_end_resumes_at_the_end() {
    let env = ServerEnv::new();
    let log = super::fixture_log("naruto-physical");
    rt().block_on(async {
        feed(&env.state, &log, "naruto-wrap", 0, 10).await;
        let mut body = open_live(&env.state, "/api/v1/games/naruto-wrap/live", Some(u64::MAX)).await;
        feed(&env.state, &log, "naruto-wrap", 10, 11).await;
        let got = read_events(&mut body, 1).await;
        assert_eq!(got[0].0, 10, "the next new event, not the whole log again");
    });
}

/// Pending results exist only for tournaments: a game or an unknown stream is not one.
#[test]
fn pending_results_of_a_stream_that_is_not_a_tournament() {
    let env = ServerEnv::new();
    let app = env.app();
    rt().block_on(async {
        assert_eq!(get(&app, "/api/v1/tournaments/naruto-physical/results", None).await.0, StatusCode::BAD_REQUEST);
        assert_eq!(get(&app, "/api/v1/tournaments/no-such/results", None).await.0, StatusCode::NOT_FOUND);
        assert_eq!(get(&app, "/api/v1/tournaments/cup/results", None).await.0, StatusCode::OK);
    });
}

/// Opens a live stream with a token (as `EventSource` does: `?access_token=`).
pub async fn open_live_with(state: &AppState, uri: &str, token: &str) -> Body {
    let uri = format!("{uri}&access_token={token}");
    let resp = kifu::server::app(state.clone()).oneshot(Request::get(uri).body(Body::empty()).unwrap()).await.unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    resp.into_body()
}

/// Reads a live stream until the server ends it (true) or 10 s pass without a byte (false);
/// returns whether it ended and everything it sent.
pub async fn read_to_end(body: &mut Body) -> (bool, String) {
    let mut text = String::new();
    loop {
        match tokio::time::timeout(Duration::from_secs(10), body.frame()).await {
            Err(_) => return (false, text),
            Ok(None) => return (true, text),
            Ok(Some(frame)) => {
                if let Ok(data) = frame.unwrap().into_data() {
                    text.push_str(std::str::from_utf8(&data).unwrap());
                }
            }
        }
    }
}

/// A judge's token revoked while its live stream (the judge's view: hidden cards) is open:
/// the stream ends with `event: revoked` before the next event it would have carried, and
/// within a few seconds when no event comes; another judge's stream goes on.
#[test]
fn a_revoked_judges_open_live_stream_is_closed() {
    use kifu::server::tokens;
    let env = ServerEnv::new();
    let log = super::fixture_log("naruto-physical");
    let (ann, ben, cat) =
        (env.token(Role::Judge, "*", "ann"), env.token(Role::Judge, "*", "ben"), env.token(Role::Judge, "*", "cat"));
    rt().block_on(async {
        feed(&env.state, &log, "naruto-revoke", 0, 2).await;
        let uri = "/api/v1/games/naruto-revoke/live?as=judge&from=0";
        let mut streams = Vec::new();
        for t in [&ann, &ben, &cat] {
            let mut s = open_live_with(&env.state, uri, t).await;
            assert_eq!(read_events(&mut s, 2).await.iter().map(|e| e.0).collect::<Vec<_>>(), vec![0, 1]);
            streams.push(s);
        }
        let (mut ann_s, mut ben_s, mut cat_s) = (streams.remove(0), streams.remove(0), streams.remove(0));
        // Ann is revoked, and the next event is recorded at once: her stream ends without it.
        tokens::revoke(&env.tokens, &tokens::hash(&ann)[..16]).unwrap();
        feed(&env.state, &log, "naruto-revoke", 2, 3).await;
        let (ended, sent) = read_to_end(&mut ann_s).await;
        assert!(ended && sent.contains("event: revoked"), "{sent}");
        assert!(!sent.contains("id: 2"), "a revoked judge got the next event: {sent}");
        assert_eq!(read_events(&mut ben_s, 1).await[0].0, 2);
        // Cat is revoked and nothing more is recorded: the stream ends by itself.
        tokens::revoke(&env.tokens, &tokens::hash(&cat)[..16]).unwrap();
        let revoked_at = std::time::Instant::now();
        let (ended, sent) = read_to_end(&mut cat_s).await;
        assert!(ended && sent.contains("event: revoked"), "a revoked judge's quiet stream stayed open: {sent}");
        eprintln!("a revoked judge's quiet live stream ended {:?} after the revocation", revoked_at.elapsed());
        // Ben's stream is still open and live.
        feed(&env.state, &log, "naruto-revoke", 3, 4).await;
        assert_eq!(read_events(&mut ben_s, 1).await[0].0, 3);
    });
}
