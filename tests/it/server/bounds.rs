//! The bounded server over a real socket: half-sent connections are closed by the header
//! timeout; connections over the cap are refused with a 503 while the cap is held by requests
//! being answered, and a normal client is served once they end; slow requests without a token
//! are bounded per address and in total (the oldest shed), so slow bodies from several
//! addresses leave a token holder served; a kept-alive connection that falls silent is closed by the idle timeout, while a slow
//! request head or a quiet live stream is not cut; bodies over the limit are 413; a body that
//! does not arrive closes its connection; live-event streams and connections are capped per
//! client address, so one address's flood leaves another served.

use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use kifu::server::{serve_bounded, Limits};

use kifu::server::tokens::Role;

use super::{rt, ServerEnv};

const CAP: usize = 8;

fn test_limits() -> Limits {
    Limits {
        max_connections: CAP,
        // Above the global cap: these tests flood from one address to test the global cap
        // (`one_address_at_its_cap_leaves_room_for_another` sets one below it).
        connections_per_client: 2 * CAP,
        unproven_per_client: 2,
        max_unproven: CAP / 2,
        header_timeout: Duration::from_millis(500),
        idle_timeout: Duration::from_millis(500),
        max_body: 64 * 1024,
        body_timeout: Duration::from_secs(10),
        min_body_rate: 1024,
        sse_per_client: 2,
    }
}

async fn start(env: &ServerEnv) -> (String, tokio::sync::oneshot::Sender<()>) {
    start_with(env, test_limits()).await
}

async fn start_with(env: &ServerEnv, limits: Limits) -> (String, tokio::sync::oneshot::Sender<()>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let state = env.state.clone();
    tokio::spawn(async move {
        serve_bounded(listener, state, limits, async {
            let _ = stopped.await;
        })
        .await
    });
    (addr, stop)
}

/// Sends `request` and reads the reply until the server closes (or 10 s pass).
async fn exchange(addr: &str, request: &[u8]) -> String {
    let mut s = TcpStream::connect(addr).await.unwrap();
    let _ = s.write_all(request).await;
    let mut out = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(10), s.read_to_end(&mut out)).await;
    String::from_utf8_lossy(&out).into_owned()
}

fn get(path: &str) -> Vec<u8> {
    format!("GET {path} HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n").into_bytes()
}

/// A report's head with a body that is never sent: with no minimum body rate and a long body
/// timeout, it holds its connection until the client closes it.
fn slow_body(token: Option<&str>) -> Vec<u8> {
    let auth = token.map(|t| format!("authorization: Bearer {t}\r\n")).unwrap_or_default();
    format!(
        "POST /api/v1/tournaments/cup/results HTTP/1.1\r\nhost: x\r\n{auth}content-type: application/json\r\n\
         content-length: 1000\r\n\r\n"
    )
    .into_bytes()
}

/// Whether the server closes `s` within 10 s.
async fn closes(s: &mut TcpStream) -> bool {
    let mut buf = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), s.read_to_end(&mut buf)).await.is_ok()
}

/// Whether `s` is still open after half a second (nothing is sent to it meanwhile).
async fn stays_open(s: &mut TcpStream) -> bool {
    let mut buf = [0u8; 64];
    tokio::time::timeout(Duration::from_millis(500), s.read(&mut buf)).await.is_err()
}

#[test]
fn a_flood_over_the_cap_is_refused_and_a_normal_client_is_still_served() {
    let env = ServerEnv::new();
    let token = env.token(Role::Judge, "*", "jin");
    rt().block_on(async {
        // Kept-alive connections stay open (only the client's close ends them).
        let limits = Limits { idle_timeout: Duration::from_secs(120), ..test_limits() };
        let (addr, _stop) = start_with(&env, limits).await;
        // Slowloris: half a request head each; the header timeout closes them.
        for _ in 0..2 {
            let mut s = TcpStream::connect(&addr).await.unwrap();
            s.write_all(b"GET /api/v1/streams HTTP/1.1\r\nhost: x\r\n").await.unwrap();
            assert!(closes(&mut s).await, "a slowloris connection stayed open");
        }
        // The cap's worth of a token holder's kept-alive connections (proven by a request
        // answered: not shed) ...
        let mut held = Vec::new();
        let ask = format!("GET /api/v1/whoami HTTP/1.1\r\nhost: x\r\nauthorization: Bearer {token}\r\n\r\n");
        for _ in 0..CAP {
            let mut s = TcpStream::connect(&addr).await.unwrap();
            s.write_all(ask.as_bytes()).await.unwrap();
            let mut seen = Vec::new();
            assert!(read_until(&mut s, &mut seen, b"jin").await, "{}", String::from_utf8_lossy(&seen));
            held.push(s);
        }
        // ... so a flood past the cap is refused at once.
        let mut refused = 0;
        for _ in 0..3 * CAP {
            let reply = exchange(&addr, &get("/api/v1/streams")).await;
            if reply.starts_with("HTTP/1.1 503") {
                assert!(reply.contains("connection limit"), "{reply}");
                refused += 1;
            } else {
                assert!(reply.starts_with("HTTP/1.1 200"), "{reply}");
            }
        }
        assert!(refused > 0, "no connection over the cap was refused");
        // Once they end, a normal client is served.
        drop(held);
        let mut served = false;
        for _ in 0..50 {
            if exchange(&addr, &get("/api/v1/streams")).await.starts_with("HTTP/1.1 200") {
                served = true;
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        assert!(served, "a normal client was not served after the flood");
    });
}

#[test]
fn bodies_and_live_streams_are_bounded() {
    let env = ServerEnv::new();
    rt().block_on(async {
        let (addr, _stop) = start(&env).await;
        let body = vec![b'x'; 256 * 1024];
        let mut req = format!(
            "POST /api/v1/tournaments/cup/results HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n\
             content-length: {}\r\nconnection: close\r\n\r\n",
            body.len()
        )
        .into_bytes();
        req.extend_from_slice(&body);
        let reply = exchange(&addr, &req).await;
        assert!(reply.starts_with("HTTP/1.1 413"), "{}", &reply[..reply.len().min(200)]);

        let live = b"GET /api/v1/games/naruto-physical/live HTTP/1.1\r\nhost: x\r\n\r\n";
        let mut open = Vec::new();
        for _ in 0..2 {
            let mut s = TcpStream::connect(&addr).await.unwrap();
            s.write_all(live).await.unwrap();
            let mut buf = [0u8; 12];
            s.read_exact(&mut buf).await.unwrap();
            assert_eq!(&buf, b"HTTP/1.1 200");
            open.push(s);
        }
        let reply = exchange(&addr, live).await;
        assert!(reply.starts_with("HTTP/1.1 429"), "{reply}");
        // Closing one frees its slot.
        drop(open.pop());
        let mut again = false;
        // The server notices the close when it next writes (a keep-alive comment every 15 s).
        for _ in 0..250 {
            let mut s = TcpStream::connect(&addr).await.unwrap();
            s.write_all(live).await.unwrap();
            let mut buf = [0u8; 12];
            s.read_exact(&mut buf).await.unwrap();
            if &buf == b"HTTP/1.1 200" {
                again = true;
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        assert!(again, "a closed live stream kept its slot");
    });
}

/// Reads from `s` into `seen` until `needle` has arrived (true), or the connection closes or
/// 10 s pass (false).
async fn read_until(s: &mut TcpStream, seen: &mut Vec<u8>, needle: &[u8]) -> bool {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        if seen.windows(needle.len()).any(|w| w == needle) {
            return true;
        }
        let mut buf = [0u8; 4096];
        match tokio::time::timeout_at(deadline, s.read(&mut buf)).await {
            Ok(Ok(n)) if n > 0 => seen.extend_from_slice(&buf[..n]),
            _ => return false,
        }
    }
}

#[test]
fn an_idle_connection_is_closed_and_an_active_one_is_not_cut() {
    let env = ServerEnv::new();
    let log = super::fixture_log("naruto-physical");
    rt().block_on(async {
        // A header timeout far past the test's patience: only the idle timeout can close.
        let limits =
            Limits { header_timeout: Duration::from_secs(120), idle_timeout: Duration::from_secs(1), ..test_limits() };
        let (addr, _stop) = start_with(&env, limits).await;

        // One kept-alive request answered, then silence: closed.
        let mut s = TcpStream::connect(&addr).await.unwrap();
        s.write_all(b"GET /api/v1/streams HTTP/1.1\r\nhost: x\r\n\r\n").await.unwrap();
        let mut out = Vec::new();
        let closed = tokio::time::timeout(Duration::from_secs(10), s.read_to_end(&mut out)).await;
        assert!(closed.is_ok(), "an idle keep-alive connection stayed open");
        let out = String::from_utf8_lossy(&out);
        assert!(out.starts_with("HTTP/1.1 200") && !out.contains("connection: close"), "{out}");

        // A request head sent slowly, but never silent for the idle time, is served.
        let mut s = TcpStream::connect(&addr).await.unwrap();
        for piece in ["GET /api/v1/streams HTTP/1.1\r\n", "host: x\r\n", "connection: close\r\n", "\r\n"] {
            tokio::time::sleep(Duration::from_millis(300)).await;
            s.write_all(piece.as_bytes()).await.unwrap();
        }
        let mut out = Vec::new();
        let _ = tokio::time::timeout(Duration::from_secs(10), s.read_to_end(&mut out)).await;
        assert!(out.starts_with(b"HTTP/1.1 200"), "{}", String::from_utf8_lossy(&out));

        // A live stream quiet for longer than the idle time is a response in flight: not cut.
        super::live::feed(&env.state, &log, "naruto-idle", 0, 1).await;
        let mut s = TcpStream::connect(&addr).await.unwrap();
        s.write_all(b"GET /api/v1/games/naruto-idle/live?from=0 HTTP/1.1\r\nhost: x\r\n\r\n").await.unwrap();
        let mut seen = Vec::new();
        assert!(read_until(&mut s, &mut seen, b"id: 0\n").await, "{}", String::from_utf8_lossy(&seen));
        tokio::time::sleep(Duration::from_secs(3)).await;
        super::live::feed(&env.state, &log, "naruto-idle", 1, 2).await;
        assert!(
            read_until(&mut s, &mut seen, b"id: 1\n").await,
            "the quiet live stream was cut: {}",
            String::from_utf8_lossy(&seen)
        );
    });
}

#[test]
fn a_bad_viewer_is_quoted_by_its_prefix() {
    // 1 MB through the parser; through the router, as long a value as a URI may carry (64 KiB).
    let err = kifu::server::state::parse_viewer(&"x".repeat(1 << 20)).unwrap_err().to_string();
    assert!(err.len() < 256 && err.contains("as= is spectator, judge or seat:N"), "{} bytes: {err:.300}", err.len());
    let env = ServerEnv::new();
    rt().block_on(async {
        let uri = format!("/api/v1/games/naruto-physical/events?as={}", "y".repeat(60_000));
        let (status, body) = super::get(&env.app(), &uri, None).await;
        assert_eq!(status, axum::http::StatusCode::BAD_REQUEST);
        let text = body.to_string();
        assert!(text.len() < 512 && text.contains("(60000 bytes)"), "{} bytes: {text:.300}", text.len());
    });
}

/// A request head announcing a body that never comes: the connection is closed at the body's
/// deadline (a second's grace at the minimum rate), although its response is "in flight", so a
/// wave of them cannot hold the connection cap; a body that keeps pace is read and answered.
#[test]
fn a_body_that_does_not_arrive_is_closed_and_others_are_still_served() {
    let env = ServerEnv::new();
    rt().block_on(async {
        // Header and idle timeouts far past the test's patience: only the body's deadline closes.
        let limits = Limits {
            header_timeout: Duration::from_secs(120),
            idle_timeout: Duration::from_secs(120),
            body_timeout: Duration::from_secs(5),
            min_body_rate: 1024,
            // Unproven bounds that leave all these to the body's deadline.
            unproven_per_client: CAP,
            max_unproven: CAP,
            ..test_limits()
        };
        let (addr, _stop) = start_with(&env, limits).await;
        let head = "POST /api/v1/tournaments/cup/results HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n\
                    content-length: 1000\r\n\r\n";
        // The whole cap's worth of connections, each a head and no body.
        let started = std::time::Instant::now();
        let mut held = Vec::new();
        for _ in 0..CAP {
            let mut s = TcpStream::connect(&addr).await.unwrap();
            s.write_all(head.as_bytes()).await.unwrap();
            held.push(s);
        }
        for mut s in held {
            let mut buf = Vec::new();
            let closed = tokio::time::timeout(Duration::from_secs(10), s.read_to_end(&mut buf)).await;
            assert!(closed.is_ok(), "a connection whose body never came stayed open");
        }
        eprintln!("{CAP} connections with a head and no body closed after {:?}", started.elapsed());
        // Everyone else is served.
        let mut served = false;
        for _ in 0..50 {
            if exchange(&addr, &get("/api/v1/streams")).await.starts_with("HTTP/1.1 200") {
                served = true;
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        assert!(served, "a normal client was not served after the slow bodies");
        // A body sent in pieces, but at a pace above the minimum, is read whole and answered
        // (401: the report needs a token, which the handler checks after reading the body).
        let body = format!("{:<1000}", r#"{"round":1,"table":1,"score":"1-0-0"}"#);
        let mut s = TcpStream::connect(&addr).await.unwrap();
        s.write_all(head.as_bytes()).await.unwrap();
        for piece in [&body[..400], &body[400..800], &body[800..]] {
            tokio::time::sleep(Duration::from_millis(200)).await;
            s.write_all(piece.as_bytes()).await.unwrap();
        }
        let mut seen = Vec::new();
        assert!(read_until(&mut s, &mut seen, b"\r\n").await, "a body that kept pace was cut");
        assert!(seen.starts_with(b"HTTP/1.1 401"), "{}", String::from_utf8_lossy(&seen));
    });
}

/// Connects to `addr` from the loopback address `from` (127.0.0.0/8 is all loopback on Linux).
async fn connect_from(from: &str, addr: &str) -> TcpStream {
    try_connect_from(from, addr).await.unwrap()
}

async fn try_connect_from(from: &str, addr: &str) -> std::io::Result<TcpStream> {
    let socket = tokio::net::TcpSocket::new_v4()?;
    socket.bind(format!("{from}:0").parse().map_err(std::io::Error::other)?)?;
    socket.connect(addr.parse().map_err(std::io::Error::other)?).await
}

/// One address at its own connection cap (a slowloris wave) is refused past it with a 429,
/// and leaves the rest of the global cap to other addresses: 127.0.0.2 is still served.
#[test]
fn one_address_at_its_cap_leaves_room_for_another() {
    let env = ServerEnv::new();
    rt().block_on(async {
        let per_client = CAP / 2;
        let limits = Limits {
            connections_per_client: per_client,
            // Its half-heads stay (none is shed) until the address's cap.
            unproven_per_client: per_client,
            header_timeout: Duration::from_secs(120),
            idle_timeout: Duration::from_secs(120),
            ..test_limits()
        };
        let (addr, _stop) = start_with(&env, limits).await;
        // 127.0.0.1 opens as many connections as the whole server allows, each half a head.
        let mut held = Vec::new();
        for _ in 0..CAP {
            let mut s = connect_from("127.0.0.1", &addr).await;
            s.write_all(b"GET /api/v1/streams HTTP/1.1\r\nhost: x\r\n").await.unwrap();
            held.push(s);
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
        // Past its cap it is refused, saying why ...
        let mut s = connect_from("127.0.0.1", &addr).await;
        s.write_all(&get("/api/v1/streams")).await.unwrap();
        let mut out = Vec::new();
        let _ = tokio::time::timeout(Duration::from_secs(10), s.read_to_end(&mut out)).await;
        let out = String::from_utf8_lossy(&out);
        assert!(out.starts_with("HTTP/1.1 429"), "{out}");
        assert!(out.contains(&format!("at most {per_client} connections at once per client address")), "{out}");
        // ... and another address is served while 127.0.0.1 still holds its share.
        let mut s = connect_from("127.0.0.2", &addr).await;
        s.write_all(&get("/api/v1/streams")).await.unwrap();
        let mut out = Vec::new();
        let _ = tokio::time::timeout(Duration::from_secs(10), s.read_to_end(&mut out)).await;
        assert!(out.starts_with(b"HTTP/1.1 200"), "{}", String::from_utf8_lossy(&out[..out.len().min(300)]));
        drop(held);
    });
}

/// Limits where four addresses at their own connection cap would hold twice the global cap.
fn fair_limits() -> Limits {
    Limits {
        max_connections: 16,
        connections_per_client: 8,
        unproven_per_client: 2,
        max_unproven: 8,
        header_timeout: Duration::from_secs(120),
        idle_timeout: Duration::from_secs(120),
        // A body that never comes holds its connection until the server sheds it.
        body_timeout: Duration::from_secs(120),
        min_body_rate: 0,
        ..test_limits()
    }
}

/// Sends `request` from `from` with a token and reads the reply until the server closes.
async fn exchange_from(from: &str, addr: &str, request: &[u8]) -> String {
    let mut s = connect_from(from, addr).await;
    let _ = s.write_all(request).await;
    let mut out = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(10), s.read_to_end(&mut out)).await;
    String::from_utf8_lossy(&out).into_owned()
}

fn whoami(token: &str) -> Vec<u8> {
    format!("GET /api/v1/whoami HTTP/1.1\r\nhost: x\r\nauthorization: Bearer {token}\r\nconnection: close\r\n\r\n")
        .into_bytes()
}

/// The attack of issue 50: four addresses each keep as many slow-body connections open as the
/// server lets them (every one reopened as soon as it is closed), which under a plain
/// per-address cap held the whole global cap. Slow bodies without a token are unproven, so
/// each address holds two and the server sheds the rest: every request of a token holder on
/// another address is served.
#[test]
fn slow_bodies_from_four_addresses_leave_a_token_holder_served() {
    let env = ServerEnv::new();
    let token = env.token(Role::Judge, "*", "jin");
    rt().block_on(async {
        let limits = fair_limits();
        let per_client = limits.connections_per_client;
        let (addr, _stop) = start_with(&env, limits).await;
        let opened = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let mut attackers = Vec::new();
        for from in ["127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5"] {
            for _ in 0..per_client {
                let (addr, opened) = (addr.clone(), opened.clone());
                attackers.push(tokio::spawn(async move {
                    loop {
                        if let Ok(mut s) = try_connect_from(from, &addr).await {
                            opened.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                            if s.write_all(&slow_body(None)).await.is_ok() {
                                // Held until the server closes it (or refuses it).
                                let _ = s.read_to_end(&mut Vec::new()).await;
                            }
                        }
                        tokio::time::sleep(Duration::from_millis(20)).await;
                    }
                }));
            }
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
        let mut failed = Vec::new();
        for _ in 0..30 {
            let reply = exchange_from("127.0.0.1", &addr, &whoami(&token)).await;
            if !(reply.starts_with("HTTP/1.1 200") && reply.contains(r#""role":"judge""#)) {
                failed.push(reply);
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let opened = opened.load(std::sync::atomic::Ordering::Relaxed);
        for a in attackers {
            a.abort();
        }
        assert!(failed.is_empty(), "{} of 30 token requests failed: {:?}", failed.len(), failed.first());
        // The attack did press: connections were shed and reopened past what it could hold.
        assert!(opened > 4 * per_client, "only {opened} attacking connections were opened");
    });
}

/// Unproven connections past an address's bound shed that address's oldest; past the total
/// bound, the oldest of the address holding the most; a token holder's slow body is not shed.
#[test]
fn unproven_connections_are_shed_oldest_first_per_address_and_in_total() {
    let env = ServerEnv::new();
    let token = env.token(Role::Judge, "*", "jin");
    rt().block_on(async {
        let limits = Limits { max_unproven: 4, ..fair_limits() };
        let (addr, _stop) = start_with(&env, limits).await;
        // A token holder's slow body: proven, outside the unproven bounds.
        let mut proven = connect_from("127.0.0.2", &addr).await;
        proven.write_all(&slow_body(Some(&token))).await.unwrap();
        tokio::time::sleep(Duration::from_millis(100)).await;
        // 127.0.0.2 opens four slow bodies without a token: its two oldest are shed.
        let mut two = Vec::new();
        for _ in 0..4 {
            let mut s = connect_from("127.0.0.2", &addr).await;
            s.write_all(&slow_body(None)).await.unwrap();
            two.push(s);
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        assert!(closes(&mut two[0]).await && closes(&mut two[1]).await, "an address's oldest were not shed");
        assert!(stays_open(&mut two[2]).await && stays_open(&mut two[3]).await, "an address's newest were shed");
        // 127.0.0.3 opens two (four unproven in all), then 127.0.0.4 one: past the total, the
        // oldest of the heaviest addresses (127.0.0.2 and 127.0.0.3 hold two each) is shed.
        let mut three = Vec::new();
        for _ in 0..2 {
            let mut s = connect_from("127.0.0.3", &addr).await;
            s.write_all(&slow_body(None)).await.unwrap();
            three.push(s);
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let mut four = connect_from("127.0.0.4", &addr).await;
        four.write_all(&slow_body(None)).await.unwrap();
        assert!(closes(&mut two[2]).await, "the oldest unproven connection was not shed past the total");
        assert!(stays_open(&mut two[3]).await, "127.0.0.2's newest was shed");
        assert!(stays_open(&mut three[0]).await && stays_open(&mut three[1]).await, "127.0.0.3's were shed");
        assert!(stays_open(&mut four).await, "the newcomer was shed");
        assert!(stays_open(&mut proven).await, "a token holder's slow body was shed");
        // A token holder on yet another address is served.
        let reply = exchange_from("127.0.0.1", &addr, &whoami(&token)).await;
        assert!(reply.starts_with("HTTP/1.1 200"), "{reply}");
    });
}
