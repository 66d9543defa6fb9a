//! The bounded server over a real socket: connections over the cap are refused with a 503 while
//! idle and half-sent connections are closed by the header timeout, so a normal client is served
//! again; a kept-alive connection that falls silent is closed by the idle timeout, while a slow
//! request head or a quiet live stream is not cut; bodies over the limit are 413; a body that
//! does not arrive closes its connection; live-event streams and connections are capped per
//! client address, so one address's flood leaves another served.

use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use kifu::server::{serve_bounded, Limits};

use super::{rt, ServerEnv};

const CAP: usize = 8;

fn test_limits() -> Limits {
    Limits {
        max_connections: CAP,
        // Above the global cap: these tests flood from one address to test the global cap
        // (`one_address_at_its_cap_leaves_room_for_another` sets one below it).
        connections_per_client: 2 * CAP,
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

#[test]
fn a_flood_over_the_cap_is_refused_and_a_normal_client_is_still_served() {
    let env = ServerEnv::new();
    rt().block_on(async {
        let (addr, _stop) = start(&env).await;
        // Slowloris: the cap's worth of connections that send half a request head and stop.
        let mut held = Vec::new();
        for _ in 0..CAP {
            let mut s = TcpStream::connect(&addr).await.unwrap();
            s.write_all(b"GET /api/v1/streams HTTP/1.1\r\nhost: x\r\n").await.unwrap();
            held.push(s);
        }
        // Give the server time to accept them all, then flood past the cap: refused at once.
        tokio::time::sleep(Duration::from_millis(100)).await;
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
        // The header timeout closes every half-sent connection ...
        for mut s in held {
            let mut buf = Vec::new();
            let closed = tokio::time::timeout(Duration::from_secs(10), s.read_to_end(&mut buf)).await;
            assert!(closed.is_ok(), "a slowloris connection stayed open");
        }
        // ... so a normal client is served.
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
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.bind(format!("{from}:0").parse().unwrap()).unwrap();
    socket.connect(addr.parse().unwrap()).await.unwrap()
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
