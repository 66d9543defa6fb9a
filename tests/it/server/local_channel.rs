//! The CLI while `kifu serve` holds the data directory: every command reaches the store through
//! the server's local channel (a 0600 unix socket in the directory), with the same output, errors
//! and exit codes as the same commands run with no server, and the server serves what they wrote
//! at once. A socket left by a server that was killed is ignored.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Stdio};
use std::time::Duration;

use crate::support::{kifu_cmd, TestEnv};

fn http_get(addr: &str, path: &str) -> String {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    write!(s, "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n").unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    out
}

/// A running `kifu serve`, stopped (by its PID) when dropped, a failing test included.
struct Served(Child);

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn serve(env: &TestEnv) -> (Served, String) {
    let mut child = kifu_cmd(&env.data())
        .args(["serve", "--addr", "127.0.0.1:0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let addr = line.split("http://").nth(1).unwrap().split('/').next().unwrap().to_string();
    (Served(child), addr)
}

/// `text` with every time of day (`00:00:07.000000Z`) as `TIME`: the store stamps each append
/// with its own clock, which in a server has ticked for its earlier requests.
fn without_times(text: &str) -> String {
    const SHAPE: &[u8] = b"dd:dd:dd.ddddddZ";
    let b = text.as_bytes();
    let fits = |i: usize| {
        b.len() >= i + SHAPE.len()
            && SHAPE.iter().zip(&b[i..]).all(|(s, c)| if *s == b'd' { c.is_ascii_digit() } else { s == c })
    };
    let (mut out, mut i) = (String::with_capacity(text.len()), 0);
    while i < b.len() {
        if fits(i) {
            out.push_str("TIME");
            i += SHAPE.len();
        } else {
            let ch = text[i..].chars().next().unwrap_or(' ');
            out.push(ch);
            i += ch.len_utf8();
        }
    }
    out
}

/// `text` with what differs between two data directories by design made alike: the directory's
/// path, the times the store stamps, and every 64-digit hex value (a deck list's commitment is
/// salted at random, so hashes after it differ) and its 12-digit short form.
fn normalized(text: &str, data: &std::path::Path) -> String {
    let text = without_times(&text.replace(&data.display().to_string(), "DATA"));
    let mut out = String::with_capacity(text.len());
    let mut run = String::new();
    for c in text.chars().chain(std::iter::once(' ')) {
        if c.is_ascii_hexdigit() {
            run.push(c);
            continue;
        }
        out.push_str(if run.len() == 64 || run.len() == 12 { "HEX" } else { &run });
        run.clear();
        out.push(c);
    }
    out.pop();
    out
}

/// An organizer's session at the terminal: a tournament registered and paired, a table's game
/// created from the pairing, options listed and picked, a refused pick, a log and an audit.
/// Returns each command's exit code, stdout and stderr.
fn session(env: &TestEnv) -> Vec<(Option<i32>, String, String)> {
    let n = |b: &[u8]| normalized(&String::from_utf8_lossy(b), &env.data());
    let decks = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("replays/decks");
    let seed = "55".repeat(32);
    let deck = |p: &str| decks.join(format!("lc-{p}.deck")).to_str().unwrap().to_string();
    let (ana, rui) = (deck("ana"), deck("rui"));
    let mut commands: Vec<Vec<&str>> = vec![
        vec!["tournament", "new", "--name", "LC Cup", "--game", "lc", "--id", "lcup", "--seed", &seed],
        vec!["tournament", "register", "lcup", "ana", "rui"],
        vec!["tournament", "deck", "lcup", "ana", &ana],
        vec!["tournament", "deck", "lcup", "rui", &rui],
        vec!["tournament", "pair", "lcup"],
        vec!["game", "new", "--game", "lc", "--tournament", "lcup", "--round", "1", "--table", "1", "--id", "g1"],
        // The same table's game again: refused, the same way with or without a server.
        vec!["game", "new", "--game", "lc", "--tournament", "lcup", "--round", "1", "--table", "1", "--id", "g1"],
        vec!["game", "options", "g1", "--as", "p1"],
        vec!["game", "pick", "g1", "1-0000000000000000", "--json"],
    ];
    let mut out = Vec::new();
    for c in commands.drain(..) {
        let o = env.kifu(&c);
        out.push((o.status.code(), n(&o.stdout), n(&o.stderr)));
    }
    // Pick the first seat's shuffle by the id the options listed.
    let options: serde_json::Value = serde_json::from_str(&env.ok(&["game", "options", "g1", "--json"])).unwrap();
    let shuffle = options["options"].as_array().unwrap().iter().find(|o| o["label"] == "Shuffle your deck").unwrap();
    for c in [
        vec!["game", "pick", "g1", shuffle["id"].as_str().unwrap()],
        vec!["log", "g1"],
        vec!["game", "audit", "g1"],
        vec!["verify", "lcup"],
        vec!["streams"],
    ] {
        let o = env.kifu(&c);
        out.push((o.status.code(), n(&o.stdout), n(&o.stderr)));
    }
    out
}

#[test]
fn commands_while_the_server_runs_go_through_it_with_the_same_output_and_errors() {
    // The same session with no server, for comparison.
    let alone = TestEnv::new();
    let direct = session(&alone);
    assert_eq!(direct[5].0, Some(0), "{}", direct[5].2);
    assert_ne!(direct[6].0, Some(0), "a second game for the table is refused");

    let env = TestEnv::new();
    env.ok(&["streams"]);
    let (child, addr) = serve(&env);
    let socket = env.data().join(kifu::store::channel::SOCKET);
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&socket).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "only the directory's owner can use the channel");
    }
    let started = std::time::Instant::now();
    let through = session(&env);
    // Every command answered without waiting for the store's lock (30 s each when it did).
    assert!(started.elapsed() < Duration::from_secs(60), "{:?}", started.elapsed());
    for (i, (a, b)) in direct.iter().zip(&through).enumerate() {
        assert_eq!(a, b, "command {i}: the same output and errors through the server");
    }
    // The server serves what the commands wrote, at once.
    let streams = http_get(&addr, "/api/v1/streams");
    assert!(streams.contains("\"g1\"") && streams.contains("\"lcup\""), "{streams}");
    let events = http_get(&addr, "/api/v1/games/g1/events?from=0&limit=10");
    assert!(events.starts_with("HTTP/1.1 200") && events.contains("\"seq\":0"), "{events}");

    // Killed without a chance to remove its socket: the next command opens the store itself.
    drop(child);
    assert!(socket.exists(), "a killed server leaves its socket behind");
    let log = normalized(&env.ok(&["log", "g1"]), &env.data());
    assert_eq!(log, through[10].1, "the log read directly equals the one read through the server");
    // A new server replaces the stale socket and serves the channel again.
    let (_served, _) = serve(&env);
    assert!(env.ok(&["verify", "g1"]).contains("g1"));
}
