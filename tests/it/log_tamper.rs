//! Tampering with an exported stream: every single-byte flip, every deleted event, every swap of
//! adjacent events and every truncation is detected and reported at the right place.

use kifu::log::chain::VerifiedLog;
use kifu::log::file::{self, Location};
use kifu::log::json;

use crate::support::sample_log;

/// The byte ranges of a `.kifu` file, by the place a problem there must be reported at.
fn regions(log: &VerifiedLog) -> Vec<(std::ops::Range<usize>, Location)> {
    let mut out = vec![(0..8, Location::Magic), (8..12, Location::Version)];
    let mut pos = 12;
    let end = pos + 4 + log.header_bytes.len();
    out.push((pos..end, Location::Header));
    pos = end;
    for (seq, e) in log.events.iter().enumerate() {
        let end = pos + 5 + e.len();
        out.push((pos..end, Location::Event(seq as u64)));
        pos = end;
    }
    out.push((pos..pos + 41, Location::End));
    out
}

fn frames(bytes: &[u8], log: &VerifiedLog) -> Vec<std::ops::Range<usize>> {
    regions(log)
        .into_iter()
        .filter(|(_, l)| matches!(l, Location::Event(_)))
        .map(|(r, _)| r)
        .inspect(|r| assert!(r.end <= bytes.len()))
        .collect()
}

/// The one helper every tampering case goes through: the damaged bytes must be refused, and the
/// refusal must name `expected`.
fn check(damaged: &[u8], expected: Location, case: &str) {
    match file::read(damaged) {
        Ok(_) => panic!("{case}: damaged file was accepted"),
        Err(e) => assert_eq!(e.location(), expected, "{case}: reported at {} ({e})", e.location()),
    }
}

#[test]
fn every_single_byte_flip_is_detected_at_its_place() {
    let log = sample_log();
    let bytes = file::write(&log);
    let regions = regions(&log);
    assert_eq!(regions.last().unwrap().0.end, bytes.len());
    let mut checked = 0;
    for (range, place) in &regions {
        for offset in range.clone() {
            for mask in [0x01u8, 0x10, 0x80, 0xff] {
                let mut damaged = bytes.clone();
                damaged[offset] ^= mask;
                check(&damaged, *place, &format!("byte {offset} ^ {mask:#04x}"));
                checked += 1;
            }
        }
    }
    assert_eq!(checked, bytes.len() * 4);
}

#[test]
fn deleting_any_event_is_detected_at_its_sequence_number() {
    let log = sample_log();
    let bytes = file::write(&log);
    let frames = frames(&bytes, &log);
    for (seq, f) in frames.iter().enumerate() {
        let mut damaged = bytes[..f.start].to_vec();
        damaged.extend_from_slice(&bytes[f.end..]);
        check(&damaged, Location::Event(seq as u64), &format!("deleted event {seq}"));
    }
}

#[test]
fn swapping_adjacent_events_is_detected_at_the_first_of_them() {
    let log = sample_log();
    let bytes = file::write(&log);
    let frames = frames(&bytes, &log);
    for seq in 0..frames.len() - 1 {
        let (a, b) = (&frames[seq], &frames[seq + 1]);
        let mut damaged = bytes[..a.start].to_vec();
        damaged.extend_from_slice(&bytes[b.clone()]);
        damaged.extend_from_slice(&bytes[a.clone()]);
        damaged.extend_from_slice(&bytes[b.end..]);
        check(&damaged, Location::Event(seq as u64), &format!("swapped events {seq} and {}", seq + 1));
    }
}

#[test]
fn truncating_at_every_event_boundary_is_detected() {
    let log = sample_log();
    let bytes = file::write(&log);
    let frames = frames(&bytes, &log);
    for (seq, f) in frames.iter().enumerate() {
        check(&bytes[..f.start], Location::Event(seq as u64), &format!("truncated before event {seq}"));
    }
    let end = frames.last().unwrap().end;
    check(&bytes[..end], Location::Event(frames.len() as u64), "truncated before the end marker");
}

#[test]
fn truncating_anywhere_is_detected() {
    let log = sample_log();
    let bytes = file::write(&log);
    for (range, place) in regions(&log) {
        for cut in range.clone() {
            if cut == range.start && place == Location::End {
                continue; // a cut before the end marker is an event boundary, checked above
            }
            // A cut inside the magic number is a file that is not a .kifu file at all.
            let expected = if cut < 8 { Location::Magic } else { place };
            check(&bytes[..cut], expected, &format!("truncated at byte {cut}"));
        }
    }
}

#[test]
fn rehashed_edit_is_caught_by_the_next_link() {
    // An editor who changes event 2 and recomputes its hash still breaks event 3's link.
    let log = sample_log();
    let mut events = log.events.clone();
    let (env, _) = kifu::log::chain::open_event(&events[2]).unwrap();
    let mut env = env.into_owned();
    let kifu::log::envelope::Envelope::V1(e) = &mut env;
    e.payload = std::borrow::Cow::Owned(b"bob drew nothing".to_vec());
    events[2] = kifu::log::chain::seal_event(&env).unwrap().0;
    let err = kifu::log::chain::verify_log(log.header_bytes.clone(), events).unwrap_err();
    assert_eq!(err.at, kifu::log::chain::At::Event(3));
}

#[test]
fn edited_json_payload_is_detected_at_its_sequence_number() {
    let log = sample_log();
    let mut j = json::to_json(&log).unwrap();
    j.events[4].payload_hex = hex::encode("an edited note");
    let err = json::from_json(&j).unwrap_err().to_string();
    assert!(err.contains("event 4") && err.contains("hash does not match"), "{err}");
}
