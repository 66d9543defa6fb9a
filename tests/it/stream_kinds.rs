//! Streams keep their kind: a generic note (`kifu append`) into a game or tournament stream is
//! refused by the store, directly and through a running server, writing nothing; and `kifu
//! verify` reports a game or tournament stream whose events do not decode as its kind (one
//! damaged before the refusal existed), naming the stream and the event.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Output, Stdio};

use kifu::log::envelope::{Actor, Header, HeaderV1, StreamId, StreamKind, Timestamp};
use kifu::store::{AppendRequest, ExpectedVersion, NewEvent, Store, StoreError};

use crate::support::{kifu_cmd, opaque_header, TestEnv};

const GAME: &str = "naruto-physical";
const CUP: &str = "cup";

fn sid(s: &str) -> StreamId {
    StreamId::new(s).unwrap()
}

/// A data directory holding the pinned Naruto game (imported) and a Swiss tournament.
fn env_with_game_and_tournament() -> TestEnv {
    let env = TestEnv::new();
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("replays/{GAME}.kifu"));
    env.ok(&["import", fixture.to_str().unwrap()]);
    let seed = "55".repeat(32);
    env.ok(&["tournament", "new", "--name", "Cup", "--game", "lc", "--id", CUP, "--seed", &seed]);
    env.ok(&["tournament", "register", CUP, "ana", "rui"]);
    env
}

/// Each stream's head, as `kifu verify --all --json` reports it (read through the CLI, so it
/// works while a server holds the directory too).
fn heads(env: &TestEnv) -> serde_json::Value {
    let out = env.kifu(&["verify", "--all", "--json"]);
    serde_json::from_slice(&out.stdout).unwrap()
}

/// `kifu append` into the game and into the tournament: each refused with a non-zero exit, a
/// message naming the stream, its kind and the commands to use instead, and nothing written.
fn check_notes_are_refused(env: &TestEnv) {
    let before = heads(env);
    for (stream, kind, instead) in [(GAME, "game", "kifu game rule"), (CUP, "tournament", "kifu tournament")] {
        for extra in [&[][..], &["--expect", "any"][..], &["--idempotency-key", "k1"][..]] {
            let mut args = vec!["append", stream, "--text", "judge call: deck count", "--actor", "judge:jin"];
            args.extend_from_slice(extra);
            let out = env.kifu(&args);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(1), "{stream} {extra:?}: {stderr}");
            assert!(stderr.contains(&format!("stream {stream} is a {kind} stream")), "{stderr}");
            assert!(stderr.contains("nothing was written") && stderr.contains(instead), "{stderr}");
        }
    }
    assert_eq!(heads(env), before, "nothing written: every head unchanged");
    // An opaque stream still takes notes.
    env.ok(&["append", "table-7-notes", "--text", "ok", "--expect", "none"]);
}

#[test]
fn a_note_into_a_game_or_tournament_stream_is_refused_and_writes_nothing() {
    let env = env_with_game_and_tournament();
    check_notes_are_refused(&env);
    let s = env.store();
    assert!(kifu::import::check_decodes(&s.export(&sid(GAME)).unwrap()).is_ok());
    assert!(kifu::import::check_decodes(&s.export(&sid(CUP)).unwrap()).is_ok());
}

/// A running `kifu serve`, stopped (by its PID) when dropped.
struct Served(Child);

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn a_note_into_a_game_or_tournament_is_refused_through_a_running_server() {
    let env = env_with_game_and_tournament();
    let mut child = kifu_cmd(&env.data())
        .args(["serve", "--addr", "127.0.0.1:0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let served = Served(child);
    assert!(env.data().join(kifu::store::channel::SOCKET).exists(), "the server holds the directory: {line}");
    check_notes_are_refused(&env);
    drop(served);
}

/// The store refuses it whatever the caller: a request carrying an opaque header to create its
/// stream with does not add to a game stream; the game's own appends (no header) still do.
#[test]
fn the_store_refuses_an_append_of_another_kind() {
    let env = env_with_game_and_tournament();
    let s = env.store();
    let head = s.head(&sid(GAME)).unwrap();
    let note = || NewEvent { actor: Actor::System, payload: b"a note".to_vec(), idempotency: None };
    for expected in [ExpectedVersion::Any, ExpectedVersion::Exact(head.len), ExpectedVersion::NoStream] {
        let err = s
            .append(AppendRequest {
                stream: sid(GAME),
                expected,
                create: Some(opaque_header(GAME, Timestamp(0))),
                events: vec![note()],
            })
            .unwrap_err();
        assert!(
            matches!(&err, StoreError::KindMismatch { kind: StreamKind::Game, writing: StreamKind::Opaque, .. }),
            "{err}"
        );
    }
    assert_eq!(s.head(&sid(GAME)).unwrap(), head);
}

/// Writes into `stream` what a build without the refusal let `kifu append` write, returning
/// the note's sequence number.
fn damage(s: &dyn Store, stream: &str) -> u64 {
    // Through the store API with no header to create the stream with: the store takes the
    // events as the stream's own kind (what game and tournament code send), so the refusal is
    // bypassed; no command sends a generic note this way.
    let a = s
        .append(AppendRequest {
            stream: sid(stream),
            expected: ExpectedVersion::Any,
            create: None,
            events: vec![NewEvent {
                actor: Actor::Judge("jin".into()),
                payload: b"judge call: deck count".to_vec(),
                idempotency: None,
            }],
        })
        .unwrap();
    a.first_seq
}

/// Given a game stream and a tournament stream each holding a note that does not decode as
/// their events (written through the store API, the refusal bypassed), when `kifu verify` checks
/// the store or the stream, then it names the stream and the event and why, and exits 1, while
/// every other stream still checks.
#[test]
fn verify_reports_a_stream_whose_events_do_not_decode_as_its_kind() {
    let env = env_with_game_and_tournament();
    env.ok(&["append", "table-7-notes", "--text", "ok"]);
    let clean = env.ok(&["verify", "--all"]);
    assert!(clean.contains("every chain checks"), "{clean}");
    let (game_seq, cup_seq) = {
        let s = env.store();
        (damage(&s, GAME), damage(&s, CUP))
    };
    let out = env.kifu(&["verify", "--all", "--json"]);
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stdout));
    let reports: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let by = |t: &str| reports.as_array().unwrap().iter().find(|r| r["target"] == t).unwrap().clone();
    let game = by(GAME);
    assert_eq!(game["ok"], false);
    let why = game["problem"].as_str().unwrap();
    assert!(why.contains("the game stream does not decode"), "{why}");
    assert!(why.contains(&format!("stream {GAME}, event {game_seq}")) && why.contains("naruto"), "{why}");
    let cup = by(CUP);
    assert_eq!(cup["ok"], false);
    let why = cup["problem"].as_str().unwrap();
    assert!(why.contains("the tournament stream does not decode") && why.contains(&format!("{cup_seq}")), "{why}");
    assert_eq!(by("table-7-notes")["ok"], true);
    // One stream: the same finding.
    let out = env.kifu(&["verify", GAME, "--json"]);
    assert_eq!(out.status.code(), Some(1));
    let one: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(one[0]["problem"], game["problem"]);
    let out = env.kifu(&["verify", GAME]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("1 of 1 FAILED"));
}

/// The header of a game stream, enough for a store (which never decodes what it stores).
fn game_header(stream: &str) -> Header {
    Header::V1(HeaderV1 {
        stream: sid(stream),
        kind: StreamKind::Game,
        ruleset: "naruto".into(),
        ruleset_version: 1,
        players: vec!["alice".into(), "bob".into()],
        config: vec![],
        created_at: Timestamp(0),
    })
}

/// Every backend: an append carrying a header of another kind than the existing stream's is
/// refused, whatever it expects, and writes nothing; one of the same kind, or with no header,
/// goes ahead.
pub fn check_kind_refusal(store: &dyn Store) {
    let ev = |t: &str| NewEvent { actor: Actor::System, payload: t.as_bytes().to_vec(), idempotency: None };
    let g = sid("kinds.game");
    let a = store
        .append(AppendRequest {
            stream: g.clone(),
            expected: ExpectedVersion::NoStream,
            create: Some(game_header("kinds.game")),
            events: vec![ev("a")],
        })
        .unwrap();
    for expected in [ExpectedVersion::Any, ExpectedVersion::Exact(1)] {
        let req = AppendRequest {
            stream: g.clone(),
            expected,
            create: Some(opaque_header("kinds.game", Timestamp(0))),
            events: vec![ev("note")],
        };
        let err = store.append(req).unwrap_err();
        assert!(matches!(&err, StoreError::KindMismatch { kind: StreamKind::Game, .. }), "{err}");
        assert!(err.to_string().contains("stream kinds.game is a game stream"), "{err}");
    }
    assert_eq!(store.head(&g).unwrap(), a.head, "nothing written");
    let same = AppendRequest {
        stream: g.clone(),
        expected: ExpectedVersion::Exact(1),
        create: Some(game_header("kinds.game")),
        events: vec![ev("b")],
    };
    assert_eq!(store.append(same).unwrap().head.len, 2);
    let bare =
        AppendRequest { stream: g.clone(), expected: ExpectedVersion::Exact(2), create: None, events: vec![ev("c")] };
    assert_eq!(store.append(bare).unwrap().head.len, 3);
}

/// Given a game and a tournament each damaged by a note (as above), when a judge sets the
/// game's note aside and the organizer the tournament's, then each repair is one new event
/// after the note (whose bytes stay: every earlier event is unchanged), `verify` passes, the
/// game shows, audits and exports (its timeline saying what was set aside) and the export
/// imports again, and the tournament's standings open; setting aside an event that decodes, one
/// that does not exist, the same one twice, or by a player, is refused with the reason and
/// writes nothing.
#[test]
fn a_damaged_stream_is_repaired_by_setting_the_entry_aside_on_the_record() {
    let env = env_with_game_and_tournament();
    let (game_seq, cup_seq) = {
        let s = env.store();
        (damage(&s, GAME), damage(&s, CUP))
    };
    let out = env.kifu(&["verify", "--all", "--json"]);
    let said = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(said.contains(&format!("set-aside --about {game_seq}")), "{said}");
    assert!(said.contains(&format!("kifu tournament set-aside {CUP} --seq {cup_seq}")), "{said}");
    let damaged = heads(&env);

    let aside = |seq: u64| {
        let s = seq.to_string();
        env.kifu(&["game", "rule", GAME, "--judge", "jin", "set-aside", "--about", &s, "--note", "a note let in"])
    };
    let refused = |o: Output, why: &str| {
        let e = String::from_utf8_lossy(&o.stderr).to_string();
        assert!(!o.status.success() && e.contains("nothing set aside") && e.contains(why), "{e}");
    };
    refused(aside(3), "it is a naruto entry");
    refused(aside(game_seq + 5), &format!("the game has {} events", game_seq + 1));
    let player = env.kifu(&[
        "tournament",
        "set-aside",
        CUP,
        "--seq",
        &cup_seq.to_string(),
        "--reason",
        "r",
        "--actor",
        "player:ana",
    ]);
    assert!(!player.status.success() && String::from_utf8_lossy(&player.stderr).contains("TOUR-LOG-3"));
    let decodes = env.kifu(&["tournament", "set-aside", CUP, "--seq", "0", "--reason", "r"]);
    assert!(String::from_utf8_lossy(&decodes.stderr).contains("is a tournament event"), "{decodes:?}");
    assert_eq!(heads(&env), damaged, "refusals write nothing");

    let said = String::from_utf8_lossy(&aside(game_seq).stdout).to_string();
    assert!(
        said.contains(&format!("set aside event {game_seq} by a ruling recorded as event {}", game_seq + 1)),
        "{said}"
    );
    refused(aside(game_seq), "set aside already");
    let cup = env.ok(&["tournament", "set-aside", CUP, "--seq", &cup_seq.to_string(), "--reason", "a note let in"]);
    assert!(cup.contains(&format!("event {cup_seq} set aside by event {}", cup_seq + 1)), "{cup}");
    let again = env.kifu(&["tournament", "set-aside", CUP, "--seq", &cup_seq.to_string(), "--reason", "r"]);
    assert!(String::from_utf8_lossy(&again.stderr).contains("set aside already"), "{again:?}");

    // The damaged bytes stay; the repair is the one event after them.
    let store = env.store();
    for (stream, seq) in [(GAME, game_seq), (CUP, cup_seq)] {
        let stored = store.read(&sid(stream), seq, seq + 2).unwrap();
        assert_eq!(stored.len(), 2);
        let (note, _) = kifu::log::chain::open_event(&stored[0]).unwrap();
        assert_eq!(&note.v1().payload[..], b"judge call: deck count");
    }
    drop(store);
    assert!(env.ok(&["verify", "--all"]).contains("every chain checks"));
    let shown = env.ok(&["game", "show", GAME, "--as", "judge"]);
    assert!(!shown.is_empty());
    let log = env.ok(&["log", GAME]);
    assert!(log.contains(&format!("set aside event {game_seq}")) && log.contains("set aside by judge jin"), "{log}");
    let file = env.path("repaired.jsonl");
    env.ok(&["game", "export", GAME, "-o", file.to_str().unwrap()]);
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("SetAside") && text.contains("EntrySetAside"), "{text}");
    env.ok(&["game", "import", file.to_str().unwrap(), "--id", "repaired-copy"]);
    env.ok(&["tournament", "standings", CUP]);
}
