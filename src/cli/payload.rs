//! One-line summaries of event payloads for `kifu log`, by the stream's ruleset.

use kifu::log::envelope::{Header, StreamKind};

/// A short human description of a payload. Opaque payloads show as text when they are UTF-8.
pub fn describe(header: &Header, payload: &[u8]) -> String {
    let h = header.v1();
    match h.kind {
        StreamKind::Opaque => match std::str::from_utf8(payload) {
            Ok(text) => text.to_string(),
            Err(_) => format!("{} bytes: {}", payload.len(), hex::encode(&payload[..payload.len().min(16)])),
        },
        _ => format!("{} bytes ({} v{})", payload.len(), h.ruleset, h.ruleset_version),
    }
}
