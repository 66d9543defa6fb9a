//! `tools/bench-flood`: the RSS of `kifu serve` before, during and after a connection flood.
//! Opens CONNECTIONS (default 15,000) connections to a server on 127.0.0.1, each sending half a
//! request head and holding on (slowloris; past the server's bound on unproven connections per
//! address, 32, it closes the oldest), then closes them all and watches the RSS settle. Prints one table. Not a timed test.
#![allow(clippy::expect_used)]

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn rss_mib(pid: u32) -> f64 {
    let s = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    s.lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        .unwrap_or(0.0)
        / 1024.0
}

fn main() {
    let kifu = std::env::var("BENCH_KIFU").expect("BENCH_KIFU: the kifu binary (tools/bench-flood builds it)");
    let connections: usize = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(15_000);
    let settle = Duration::from_secs(std::env::args().nth(2).and_then(|s| s.parse().ok()).unwrap_or(20));
    let dir = tempfile::tempdir().expect("a temporary directory");
    let mut server = Command::new(&kifu)
        .args(["--data", &dir.path().join("data").to_string_lossy(), "serve", "--addr", "127.0.0.1:0"])
        .stdout(Stdio::piped())
        .spawn()
        .expect("kifu serve starts");
    let mut line = String::new();
    let mut out = BufReader::new(server.stdout.take().expect("piped stdout"));
    let _ = out.read_line(&mut line);
    let addr = line.split("http://").nth(1).and_then(|r| r.split('/').next()).unwrap_or_default().to_string();
    let pid = server.id();
    // Warm up with a few whole requests, so the baseline includes the server's first allocations.
    for _ in 0..20 {
        if let Ok(mut s) = TcpStream::connect(&addr) {
            let _ = write!(s, "GET /api/v1/streams HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n");
            let _ = std::io::Read::read_to_end(&mut s, &mut Vec::new());
        }
    }
    std::thread::sleep(Duration::from_secs(1));
    let baseline = rss_mib(pid);

    let started = Instant::now();
    let (mut held, mut failed, mut peak) = (Vec::with_capacity(connections), 0usize, 0f64);
    for i in 0..connections {
        match TcpStream::connect_timeout(&addr.parse().expect("an address"), Duration::from_secs(2)) {
            Ok(mut s) => {
                let _ = s.write_all(b"GET /api/v1/streams HTTP/1.1\r\nhost: x\r\n");
                held.push(s);
            }
            Err(_) => failed += 1,
        }
        if i % 500 == 0 {
            peak = peak.max(rss_mib(pid));
        }
    }
    let opened = started.elapsed();
    std::thread::sleep(Duration::from_millis(500));
    let during = rss_mib(pid).max(peak);
    drop(held);
    let mut samples = Vec::new();
    let closed = Instant::now();
    while closed.elapsed() < settle {
        std::thread::sleep(Duration::from_secs(1));
        samples.push(rss_mib(pid));
    }
    let after = samples.last().copied().unwrap_or(0.0);
    let _ = server.kill();
    let _ = server.wait();

    println!(
        "bench-flood: {connections} connections ({failed} failed to connect) opened in {:.1} s",
        opened.as_secs_f64()
    );
    println!("{:<34} {:>8}", "server RSS", "MiB");
    println!("{:<34} {baseline:>8.1}", "baseline (after warm-up)");
    println!("{:<34} {during:>8.1}", "during the flood (peak)");
    for (i, s) in samples.iter().enumerate().filter(|(i, _)| [0, 4, 9].contains(i)) {
        println!("{:<34} {s:>8.1}", format!("{} s after closing", i + 1));
    }
    println!("{:<34} {after:>8.1}", format!("after ({} s)", settle.as_secs()));
}
