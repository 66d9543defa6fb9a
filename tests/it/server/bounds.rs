//! The bounded server over a real socket: connections over the cap are refused with a 503 while
//! idle and half-sent connections are closed by the header timeout, so a normal client is served
//! again; bodies over the limit are 413; live-event streams are capped per client address.

use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use kifu::server::{serve_bounded, Limits};

use super::{rt, ServerEnv};

const CAP: usize = 8;

async fn start(env: &ServerEnv) -> (String, tokio::sync::oneshot::Sender<()>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    let limits = Limits {
        max_connections: CAP,
        header_timeout: Duration::from_millis(500),
        max_body: 64 * 1024,
        sse_per_client: 2,
    };
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
