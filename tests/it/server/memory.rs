//! The server's memory under a crawl, through the real binary: `kifu serve --cache-mb 1` reading
//! every game of a store (summary, every event, the audit) ends near where it started, well
//! under what the games hold once open, and a second crawl of the same games adds next to
//! nothing. Bounds are generous (allocator pages and the store's own pages vary by machine); the
//! precise figures are `tools/bench-live --memory`'s and `--accounting`'s.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Stdio};
use std::sync::Arc;
use std::time::Duration;

use kifu::clock::SteppingClock;
use kifu::log::envelope::{StreamId, Timestamp};
use kifu::store::sled_store::SledStore;

use crate::support::{kifu_cmd, TestEnv};

/// Games in the store: open and audited, they hold about 38 MiB (0.63 MiB each, measured by
/// `tools/bench-live --accounting`), many times the 1 MiB bound.
const GAMES: usize = 60;

fn get(addr: &str, path: &str) -> usize {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    write!(s, "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n").unwrap();
    let mut body = Vec::new();
    s.read_to_end(&mut body).unwrap();
    assert!(body.starts_with(b"HTTP/1.1 200"), "{path}: {}", String::from_utf8_lossy(&body[..body.len().min(200)]));
    body.len()
}

/// Resident memory of a process, in MiB (Linux `/proc`).
fn rss_mib(child: &Child) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{}/status", child.id())).unwrap();
    let kib: f64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap();
    kib / 1024.0
}

fn crawl(addr: &str) -> usize {
    let mut bytes = 0;
    for g in 0..GAMES {
        for p in ["", "/events?from=0&limit=1000", "/audit"] {
            bytes += get(addr, &format!("/api/v1/games/mem-{g}{p}"));
        }
    }
    bytes
}

#[test]
fn server_memory_stays_flat_under_a_crawl() {
    let env = TestEnv::new();
    {
        let store = SledStore::open(&env.data(), Arc::new(SteppingClock::fixed())).unwrap();
        let driver = kifu::games::driver("naruto").unwrap();
        let players = ["ann".to_string(), "bo".to_string()];
        for g in 0..GAMES {
            let id = StreamId::new(&format!("mem-{g}")).unwrap();
            driver.self_play(&store, &id, g as u64, &players, Timestamp(0)).unwrap();
        }
    }
    let mut child = kifu_cmd(&env.data())
        .args(["serve", "--addr", "127.0.0.1:0", "--cache-mb", "1"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let addr = line.split("http://").nth(1).unwrap().split('/').next().unwrap().to_string();
    // Listing every stream reads every head: the store's own pages are in before the crawl.
    get(&addr, "/api/v1/streams");
    let before = rss_mib(&child);
    let served = crawl(&addr);
    let first = rss_mib(&child);
    crawl(&addr);
    let second = rss_mib(&child);
    child.kill().unwrap();
    child.wait().unwrap();
    // What the crawl read would not fit the bound: something had to be let go.
    assert!(served > 4 << 20, "the crawl served {served} bytes: too little to test a 1 MiB bound");
    // Kept open, the games alone would add about 38 MiB.
    assert!(first <= before + 24.0, "RSS {before:.1} MiB before the crawl, {first:.1} MiB after it");
    // Flat: a second crawl of the same games reopens every one of them (each was evicted).
    assert!(second <= first + 8.0, "RSS {first:.1} MiB after one crawl, {second:.1} MiB after a second");
}
