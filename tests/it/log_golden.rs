//! Golden files: the exact bytes and hashes of a fixed stream, its JSON form and the JSON Schema.
//! Any change to the stored format fails here (formats are forever).

use kifu::log::{chain, file, json};

use crate::support::{ensure_file_contents, sample_log};

fn hashes_text(log: &chain::VerifiedLog) -> String {
    let mut s = format!("header {}\n", chain::header_hash(&log.header_bytes));
    for (seq, stored) in log.events.iter().enumerate() {
        let (_, hash) = chain::open_event(stored).unwrap();
        s += &format!("event {seq} {hash}\n");
    }
    s += &format!("head {} {}\n", log.head.len, log.head.hash);
    s
}

fn records_text(log: &chain::VerifiedLog) -> String {
    let mut s = format!("header {}\n", hex::encode(&log.header_bytes));
    for (seq, stored) in log.events.iter().enumerate() {
        s += &format!("event {seq} {}\n", hex::encode(stored));
    }
    s
}

#[test]
fn golden_stream_bytes_and_hashes_are_pinned() {
    let log = sample_log();
    ensure_file_contents("schema/golden/golden-1.kifu", &file::write(&log));
    ensure_file_contents("schema/golden/golden-1.hashes.txt", hashes_text(&log).as_bytes());
    ensure_file_contents("schema/golden/golden-1.records.txt", records_text(&log).as_bytes());
    let mut j = serde_json::to_string_pretty(&json::to_json(&log).unwrap()).unwrap();
    j.push('\n');
    ensure_file_contents("schema/golden/golden-1.json", j.as_bytes());
}

#[test]
fn golden_file_still_reads_and_verifies() {
    let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/schema/golden/golden-1.kifu")).unwrap();
    let log = file::read(&bytes).unwrap();
    assert_eq!(log.head.len, 7);
    assert_eq!(log.header.stream().as_str(), "golden-1");
    // Writing what was read gives back the same bytes: nothing is re-serialized differently.
    assert_eq!(file::write(&log), bytes);
}

#[test]
fn json_form_round_trips_to_identical_bytes() {
    let log = sample_log();
    let text = serde_json::to_string(&json::to_json(&log).unwrap()).unwrap();
    let back = json::from_json_str(&text).unwrap();
    assert_eq!(back.header_bytes, log.header_bytes);
    assert_eq!(back.events, log.events);
    assert_eq!(back.head, log.head);
}

#[test]
fn json_schema_is_generated_from_the_types() {
    ensure_file_contents("schema/kifu-log.schema.json", json::schema().as_bytes());
}

#[test]
fn hash_contexts_are_fixed() {
    assert_eq!(chain::HEADER_CONTEXT, "kifu 2026-11-21 stream header v1");
    assert_eq!(chain::EVENT_CONTEXT, "kifu 2026-11-21 event v1");
    assert_eq!(file::MAGIC, *b"\x89KIFU\r\n\x1a");
}

/// A game's version 2 header (bound to a tournament's match): its bytes and hash are pinned, and
/// it round-trips through `.kifu` and JSON byte for byte.
#[test]
fn a_bound_game_header_is_pinned() {
    use kifu::log::envelope::{Header, MatchBinding, MatchPlace, StreamId};
    let sample = sample_log();
    let mut v1 = sample.header.v1().clone();
    v1.stream = StreamId::new("golden-bound").unwrap();
    let bound = MatchBinding { tournament: StreamId::new("fri").unwrap(), round: 2, place: MatchPlace::Pod(3) };
    let header = Header::with_binding(v1, Some(bound.clone()));
    let bytes = chain::encode_header(&header).unwrap();
    let text = format!("header {}\nhash {}\n", hex::encode(&bytes), chain::header_hash(&bytes));
    ensure_file_contents("schema/golden/golden-bound-header.txt", text.as_bytes());
    let log = chain::verify_log(bytes.clone(), vec![]).unwrap();
    assert_eq!(log.header.bound(), Some(&bound));
    assert_eq!(file::read(&file::write(&log)).unwrap().header_bytes, bytes);
    let j = serde_json::to_string(&json::to_json(&log).unwrap()).unwrap();
    assert_eq!(json::from_json_str(&j).unwrap().header_bytes, bytes);
}
