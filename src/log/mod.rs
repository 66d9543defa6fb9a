//! The event log, generic over payload bytes: envelopes, the hash chain, `.kifu` replay files and
//! their JSON form. It knows no game and no storage: it stores, chains and verifies payload bytes
//! without decoding them.

pub mod chain;
pub mod envelope;
pub mod file;
pub mod hash;
pub mod json;
pub mod limits;

use thiserror::Error;

/// Reads the entries of a log that decoded as nothing (`damaged`: each entry's index and the
/// error it gives) as set aside: each is given (by `put`) what the first LATER entry naming its
/// sequence number says it reads as (`names` of an entry: the sequence number it sets aside and
/// that reading). A damaged entry no later one names stays an error: the stream
/// does not open, as before. Returns the sequence numbers read as set aside. Shared by the game
/// and tournament decoders, which differ only in their entry types.
pub fn read_set_aside<T, R, E>(
    entries: &mut [T],
    damaged: Vec<(usize, E)>,
    seq_of: impl Fn(&T) -> u64,
    names: impl Fn(&T) -> Option<(u64, R)>,
    put: impl Fn(&mut T, R),
) -> Result<Vec<u64>, E> {
    if damaged.is_empty() {
        return Ok(Vec::new());
    }
    let mut rulings = std::collections::BTreeMap::new();
    for e in entries.iter() {
        if let Some((seq, replacement)) = names(e).filter(|(seq, _)| *seq < seq_of(e)) {
            rulings.entry(seq).or_insert(replacement);
        }
    }
    let mut set_aside = Vec::with_capacity(damaged.len());
    for (i, error) in damaged {
        let seq = seq_of(&entries[i]);
        put(&mut entries[i], rulings.remove(&seq).ok_or(error)?);
        set_aside.push(seq);
    }
    Ok(set_aside)
}

/// How much of a bad value an error message quotes.
pub const QUOTE_MAX: usize = 80;

/// `value` as an error message quotes it: at most [`QUOTE_MAX`] characters, then `…` and the
/// total length, so a megabyte of bad input makes a one-line message.
pub fn quote_prefix(value: &str) -> String {
    match value.char_indices().nth(QUOTE_MAX) {
        None => value.to_string(),
        Some((end, _)) => format!("{}… ({} bytes)", &value[..end], value.len()),
    }
}

/// Everything that can be wrong with log bytes: records that do not decode, chains that do not
/// link, files that are truncated or from an unknown format version.
#[derive(Debug, Error)]
pub enum LogError {
    #[error("invalid stream id {id:?}: {why}")]
    InvalidStreamId { id: String, why: &'static str },
    #[error("invalid actor {text:?}: expected player:NAME, judge:NAME, organizer:NAME or system")]
    InvalidActor { text: String },
    #[error("{0}")]
    Chain(#[from] chain::ChainError),
    #[error("{0}")]
    TooLong(#[from] limits::TooLong),
    #[error("malformed JSON log: {0}")]
    Json(String),
    #[error("could not encode a record: {0}")]
    Encode(#[from] postcard::Error),
    #[error("expected {digits} hex digits, got {text:?}")]
    InvalidHex { digits: usize, text: String },
}
