//! The `.kifu` single-file replay: a self-verifying container for one stream.
//!
//! Layout (all integers little-endian):
//! ```text
//! magic        8 bytes   89 4B 49 46 55 0D 0A 1A   ("\x89KIFU\r\n\x1a": binary, catches text-mode mangling)
//! version      u32       1
//! header       u32 len ‖ the header's stored bytes
//! event frame  'E' (0x45) ‖ u32 len ‖ the event's stored bytes (body ‖ hash)      repeated, in sequence order
//! end frame    'Z' (0x5A) ‖ u64 event count ‖ 32-byte head hash
//! ```
//! Nothing may follow the end frame. Reading verifies every record, so a file that reads is a
//! file whose chain checks; any damage is reported at the first bad place.

use super::chain::{self, At, ChainError, Head, VerifiedLog, Verifier};
use super::hash::Hash32;

/// The 8-byte magic number that opens every `.kifu` file.
pub const MAGIC: [u8; 8] = *b"\x89KIFU\r\n\x1a";
/// The format version this build writes and reads.
pub const FORMAT_VERSION: u32 = 1;
const EVENT_TAG: u8 = b'E';
const END_TAG: u8 = b'Z';

/// Where in a `.kifu` file a problem was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Location {
    Magic,
    Version,
    Header,
    /// The frame that should hold the event with this sequence number.
    Event(u64),
    /// The end frame, or what follows it.
    End,
}

impl std::fmt::Display for Location {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Location::Magic => f.write_str("magic number"),
            Location::Version => f.write_str("format version"),
            Location::Header => f.write_str("header"),
            Location::Event(seq) => write!(f, "event {seq}"),
            Location::End => f.write_str("end marker"),
        }
    }
}

/// Why a `.kifu` file was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FileError {
    #[error("not a .kifu file (bad magic number)")]
    NotKifu,
    #[error("unknown .kifu format version {found} (this build reads version {FORMAT_VERSION})")]
    UnknownVersion { found: u32 },
    #[error("file is truncated in the {at}: {what}")]
    Truncated { at: Location, what: String },
    #[error("{at}: bad frame: {what}")]
    BadFrame { at: Location, what: String },
    #[error("{0}")]
    Chain(ChainError),
    #[error("end marker: {what}")]
    BadEnd { what: String },
}

impl FileError {
    /// Where the problem is; for chain problems, the event's sequence number or the header.
    pub fn location(&self) -> Location {
        match self {
            FileError::NotKifu => Location::Magic,
            FileError::UnknownVersion { .. } => Location::Version,
            FileError::Truncated { at, .. } | FileError::BadFrame { at, .. } => *at,
            FileError::Chain(e) => match e.at {
                At::Header => Location::Header,
                At::Event(seq) => Location::Event(seq),
            },
            FileError::BadEnd { .. } => Location::End,
        }
    }
}

/// Writes a verified log as a `.kifu` file.
pub fn write(log: &VerifiedLog) -> Vec<u8> {
    let body: usize = log.events.iter().map(|e| e.len() + 5).sum();
    let mut out = Vec::with_capacity(8 + 4 + 4 + log.header_bytes.len() + body + 41);
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    push_len(&mut out, log.header_bytes.len());
    out.extend_from_slice(&log.header_bytes);
    for e in &log.events {
        out.push(EVENT_TAG);
        push_len(&mut out, e.len());
        out.extend_from_slice(e);
    }
    out.push(END_TAG);
    out.extend_from_slice(&log.head.len.to_le_bytes());
    out.extend_from_slice(&log.head.hash.0);
    out
}

fn push_len(out: &mut Vec<u8>, len: usize) {
    // Records are far below 4 GiB; a larger one cannot be produced by the store.
    out.extend_from_slice(&u32::try_from(len).unwrap_or(u32::MAX).to_le_bytes());
}

/// A cursor that names the place it is reading when bytes run out.
struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize, at: Location, what: &str) -> Result<&'a [u8], FileError> {
        let end = self.pos.checked_add(n).filter(|&e| e <= self.bytes.len());
        match end {
            Some(end) => {
                let s = &self.bytes[self.pos..end];
                self.pos = end;
                Ok(s)
            }
            None => Err(FileError::Truncated {
                at,
                what: format!(
                    "{what} needs {n} bytes at offset {}, only {} left",
                    self.pos,
                    self.bytes.len() - self.pos
                ),
            }),
        }
    }

    fn u32(&mut self, at: Location, what: &str) -> Result<u32, FileError> {
        let b = self.take(4, at, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
}

/// Reads and verifies a `.kifu` file. Fails at the first bad place, naming it.
pub fn read(bytes: &[u8]) -> Result<VerifiedLog, FileError> {
    let mut r = Reader { bytes, pos: 0 };
    if bytes.len() < MAGIC.len() || bytes[..MAGIC.len()] != MAGIC {
        return Err(FileError::NotKifu);
    }
    r.pos = MAGIC.len();
    let version = r.u32(Location::Version, "format version")?;
    if version != FORMAT_VERSION {
        return Err(FileError::UnknownVersion { found: version });
    }
    let header_len = r.u32(Location::Header, "header length")? as usize;
    let header_bytes = r.take(header_len, Location::Header, "header")?.to_vec();
    let (mut verifier, header) = Verifier::from_header_bytes(&header_bytes).map_err(FileError::Chain)?;
    let mut events = Vec::new();
    loop {
        let seq = verifier.head().len;
        let at = Location::Event(seq);
        if r.pos == bytes.len() {
            return Err(FileError::Truncated {
                at,
                what: format!("the file ends after {seq} events without its end marker"),
            });
        }
        let tag = r.take(1, at, "frame tag")?[0];
        match tag {
            EVENT_TAG => {
                let len = r.u32(at, "event length")? as usize;
                let stored = r.take(len, at, "event record")?;
                verifier.push(stored).map_err(FileError::Chain)?;
                events.push(stored.to_vec());
            }
            END_TAG => {
                let end = r.take(40, Location::End, "end marker")?;
                let mut count = [0u8; 8];
                count.copy_from_slice(&end[..8]);
                let count = u64::from_le_bytes(count);
                let mut hash = [0u8; 32];
                hash.copy_from_slice(&end[8..]);
                let hash = Hash32(hash);
                return finish(&verifier, count, hash, &r).map(|head| VerifiedLog {
                    header_bytes,
                    header,
                    events,
                    head,
                });
            }
            other if bytes.len() - r.pos == 40 => {
                // Exactly an end frame's worth of bytes is left: the end marker's tag is damaged.
                return Err(FileError::BadEnd {
                    what: format!("unknown frame tag 0x{other:02x} where the end marker should be"),
                });
            }
            other => {
                return Err(FileError::BadFrame {
                    at,
                    what: format!("unknown frame tag 0x{other:02x} at offset {}", r.pos - 1),
                })
            }
        }
    }
}

fn finish(verifier: &Verifier, count: u64, hash: Hash32, r: &Reader<'_>) -> Result<Head, FileError> {
    let head = verifier.head();
    if r.pos != r.bytes.len() {
        // A real end frame is last; one followed by more bytes is a damaged event frame.
        return Err(FileError::BadFrame {
            at: Location::Event(head.len),
            what: format!(
                "an end marker after {} events is followed by {} more bytes",
                head.len,
                r.bytes.len() - r.pos
            ),
        });
    }
    if hash == head.hash && count != head.len {
        return Err(FileError::BadEnd { what: format!("says {count} events but the file holds {}", head.len) });
    }
    if count > head.len {
        // The end marker promises events that are not there: event `head.len` onwards is missing.
        return Err(FileError::Chain(ChainError {
            stream: verifier.stream().to_string(),
            at: At::Event(head.len),
            problem: chain::Problem::Missing { expected_events: count },
        }));
    }
    if count < head.len {
        return Err(FileError::BadEnd { what: format!("says {count} events but the file holds {}", head.len) });
    }
    if hash != head.hash {
        return Err(FileError::BadEnd {
            what: format!("head hash {} does not match the last event's hash {}", hash.short(), head.hash.short()),
        });
    }
    Ok(head)
}
