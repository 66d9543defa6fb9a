//! Headless Chromium for the page benchmarks (`bench-viewer`, `bench-table`): finding the
//! programs, a session per profile, and Chromium's own network throttling through chromedriver.
#![allow(dead_code)]

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::time::Duration;

use fantoccini::{Client, ClientBuilder};
use serde_json::{json, Value};

/// The first of `names` on the PATH.
pub fn program(names: &[&str]) -> PathBuf {
    let path = std::env::var_os("PATH").expect("PATH");
    std::env::split_paths(&path)
        .flat_map(|d| names.iter().map(move |n| d.join(n)))
        .find(|p| p.is_file())
        .unwrap_or_else(|| panic!("{} is not installed (tools/test installs it)", names[0]))
}

/// chromedriver's own endpoint for Chromium's network throttling (a plain HTTP call: fantoccini
/// has no command for it): `latency_ms` each way, `bytes_per_s` down and up.
pub fn throttle(driver_port: u16, session: &str, latency_ms: u64, bytes_per_s: u64) {
    let body = json!({"network_conditions": {
        "offline": false, "latency": latency_ms,
        "download_throughput": bytes_per_s, "upload_throughput": bytes_per_s,
    }})
    .to_string();
    let mut s = TcpStream::connect(("127.0.0.1", driver_port)).unwrap();
    write!(
        s,
        "POST /session/{session}/chromium/network_conditions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    // chromedriver may keep the connection open: the status line is all this needs.
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let mut head = [0u8; 12];
    s.read_exact(&mut head).unwrap();
    let status = String::from_utf8_lossy(&head);
    assert!(status.starts_with("HTTP/1.1 200"), "chromedriver refused the throttling: {status}");
}

/// A headless desktop-sized Chromium session on its own profile.
pub async fn session(port: u16, profile: &Path) -> Client {
    let chromium = program(&["chromium", "chromium-browser"]);
    let caps = json!({"goog:chromeOptions": {"binary": chromium, "args": [
        "--headless", "--no-sandbox", "--disable-gpu", "--window-size=1400,900",
        "--disable-background-networking", "--no-first-run", format!("--user-data-dir={}", profile.display()),
    ]}});
    let Value::Object(caps) = caps else { unreachable!() };
    let mut b = ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new());
    b.capabilities(caps);
    b.connect(&format!("http://127.0.0.1:{port}")).await.expect("a Chromium session")
}
