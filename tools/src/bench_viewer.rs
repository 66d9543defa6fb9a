//! The program behind `tools/bench-viewer`: serves the fixture games on 127.0.0.1 (in this
//! process), opens each replay in headless Chromium with Chromium's own network throttling
//! (400 ms latency, 1 Mbit/s each way, set through chromedriver) and prints one table: the time
//! to the first board and to the whole event list, with an empty cache and with a warm one. Not
//! a timed test: a measurement to read. All traffic stays on the loopback interface.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "chromium.rs"]
mod chromium;

use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use fantoccini::Client;

use chromium::{program, session, throttle};
use kifu::clock::SystemClock;
use kifu::server::{AppState, ServerConfig};
use kifu::store::sled_store::SledStore;
use kifu::store::Store;

const LATENCY_MS: u64 = 400;
const BYTES_PER_S: u64 = 1_000_000 / 8;
const GAMES: [&str; 3] = ["naruto-physical", "naruto-judged", "vanguard-clean"];

async fn marks(c: &Client) -> (f64, f64) {
    let t0 = Instant::now();
    loop {
        let v = c
            .execute(
                "const m = (n) => { const e = performance.getEntriesByName(n); return e.length ? e[0].startTime : null; };
                 return [m('kifu-first-board'), m('kifu-events-loaded')];",
                vec![],
            )
            .await
            .unwrap();
        if let (Some(a), Some(b)) = (v[0].as_f64(), v[1].as_f64()) {
            return (a, b);
        }
        assert!(t0.elapsed() < Duration::from_secs(120), "the page never finished loading");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

fn main() {
    let dir = tempfile::tempdir().unwrap();
    let store = SledStore::open(&dir.path().join("data"), Arc::new(SystemClock)).unwrap();
    let replays = Path::new(env!("CARGO_MANIFEST_DIR")).join("replays");
    for g in GAMES {
        let bytes = std::fs::read(replays.join(format!("{g}.kifu"))).unwrap();
        store.import(&kifu::log::file::read(&bytes).unwrap()).unwrap();
    }
    let state = AppState::new(Arc::new(store), Arc::new(SystemClock), ServerConfig::default());
    let driver_port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let mut driver = Command::new(program(&["chromedriver"]))
        .arg(format!("--port={driver_port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    let mut rows = Vec::new();
    rt.block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let app = kifu::server::app(state);
        tokio::spawn(async move { axum::serve(listener, app).await });
        let t0 = Instant::now();
        while TcpStream::connect(("127.0.0.1", driver_port)).is_err() {
            assert!(t0.elapsed() < Duration::from_secs(15), "chromedriver did not start");
            std::thread::sleep(Duration::from_millis(50));
        }
        for g in GAMES {
            let profile = tempfile::tempdir().unwrap();
            let c = session(driver_port, profile.path()).await;
            throttle(driver_port, &c.session_id().await.unwrap().unwrap(), LATENCY_MS, BYTES_PER_S);
            let url = format!("{base}/replay/{g}?seq=100");
            c.goto(&url).await.unwrap();
            let cold = marks(&c).await;
            c.goto(&format!("{base}/")).await.unwrap();
            c.goto(&url).await.unwrap();
            let warm = marks(&c).await;
            let events: u64 = c
                .execute("return document.querySelectorAll('#events li.ev').length", vec![])
                .await
                .unwrap()
                .as_u64()
                .unwrap();
            rows.push((g, events, cold, warm));
            c.close().await.unwrap();
        }
    });
    let _ = driver.kill();
    let _ = driver.wait();
    let mut t = comfy_table::Table::new();
    t.set_header(vec![
        "replay (seq=100)",
        "events",
        "first board, cold (ms)",
        "whole list, cold (ms)",
        "first board, warm (ms)",
        "whole list, warm (ms)",
    ]);
    for (g, n, cold, warm) in rows {
        t.add_row(vec![
            g.to_string(),
            n.to_string(),
            format!("{:.0}", cold.0),
            format!("{:.0}", cold.1),
            format!("{:.0}", warm.0),
            format!("{:.0}", warm.1),
        ]);
    }
    println!("Chromium network throttling: {LATENCY_MS} ms latency, 1 Mbit/s down and up; times from navigation start");
    println!("{t}");
}
