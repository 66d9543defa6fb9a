//! `kifu serve` and `kifu token` through the real binary: tokens issued while nothing runs are
//! honoured by the server, the server listens on loopback (and refuses other addresses without
//! --allow-remote), and it is stopped by its PID.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::Stdio;
use std::time::Duration;

use crate::support::{kifu_cmd, TestEnv};

fn http_get(addr: &str, path: &str, token: Option<&str>) -> String {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let auth = token.map(|t| format!("Authorization: Bearer {t}\r\n")).unwrap_or_default();
    write!(s, "GET {path} HTTP/1.1\r\nHost: {addr}\r\n{auth}Connection: close\r\n\r\n").unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    out
}

#[test]
fn serve_and_tokens_through_the_binary() {
    let env = TestEnv::new();
    env.ok(&["import", concat!(env!("CARGO_MANIFEST_DIR"), "/replays/naruto-judged.kifu")]);
    let token = env.ok(&["token", "issue", "--role", "judge", "--all", "--name", "jin"]).trim().to_string();
    assert!(token.starts_with("kifu_"));
    let list = env.ok(&["token", "list", "--json"]);
    assert!(!list.contains(&token), "only the hash is stored");
    assert!(list.contains(&kifu::server::tokens::hash(&token)));
    let err = env.fails(&["token", "issue", "--role", "player", "--all", "--name", "x"]);
    assert!(err.contains("one tournament"), "{err}");
    let err = env.fails(&["serve", "--addr", "0.0.0.0:0"]);
    assert!(err.contains("--allow-remote"), "{err}");

    let mut child =
        kifu_cmd(&env.data()).args(["serve", "--addr", "127.0.0.1:0"]).stdout(Stdio::piped()).spawn().unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    // "kifu serve: listening on http://127.0.0.1:PORT/ (data ...)"
    let addr = line.split("http://").nth(1).unwrap().split('/').next().unwrap().to_string();
    let streams = http_get(&addr, "/api/v1/streams", None);
    assert!(streams.starts_with("HTTP/1.1 200"), "{streams}");
    assert!(streams.contains("naruto-judged"));
    let page = http_get(&addr, "/replay/naruto-judged", None);
    assert!(page.contains("content-security-policy") && page.contains("/assets/replay.js"));
    let judge = http_get(&addr, "/api/v1/games/naruto-judged/board?seq=10&as=judge", Some(&token));
    assert!(judge.starts_with("HTTP/1.1 200"), "{judge}");
    let public = http_get(&addr, "/api/v1/games/naruto-judged/board?seq=10&as=judge", None);
    assert!(public.starts_with("HTTP/1.1 403"), "{public}");
    // A token issued while the server runs works at once (the token file is not in sled).
    let late = env.ok(&["token", "issue", "--role", "organizer", "--tournament", "naruto", "--name", "ora"]);
    let who = http_get(&addr, "/api/v1/whoami", Some(late.trim()));
    assert!(who.contains("\"organizer\""), "{who}");
    // A write to a peer that went away raises SIGPIPE (a cluster node's socket, written with
    // writev): the server ignores it and goes on serving. A trial saw a server end on one.
    let sent = std::process::Command::new("kill").args(["-PIPE", &child.id().to_string()]).status().unwrap();
    assert!(sent.success());
    std::thread::sleep(Duration::from_millis(200));
    assert!(child.try_wait().unwrap().is_none(), "the server ended on SIGPIPE");
    assert!(http_get(&addr, "/api/v1/streams", None).starts_with("HTTP/1.1 200"));
    child.kill().unwrap();
    child.wait().unwrap();
}

/// `kifu log … | head` ends quietly when the reader goes (SIGPIPE, as other Unix tools do), not
/// with a panic; only the commands that hold sockets ignore SIGPIPE (the server, above).
#[test]
fn a_listing_into_a_closed_pipe_ends_quietly() {
    use std::os::unix::process::ExitStatusExt;
    let env = TestEnv::new();
    env.ok(&["import", concat!(env!("CARGO_MANIFEST_DIR"), "/replays/naruto-judged.kifu")]);
    // About 200 KB of table: more than a pipe holds, so the writer meets the closed end.
    let mut child = kifu_cmd(&env.data())
        .args(["log", "naruto-judged"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).unwrap();
    assert!(!first.is_empty());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.signal(), Some(13), "ended by SIGPIPE: {:?}", out.status);
    assert!(out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
}
