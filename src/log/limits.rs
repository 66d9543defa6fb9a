//! The one bound on the text people type into kifu: names (players, judges, organizers, actors,
//! signers, tournaments and games) and notes (rulings, reasons).
//!
//! Checked where input enters (the CLI, the API, JSON-lines and log imports, Melee and TOM
//! imports, and the game and tournament recorders every write path goes through), never when a
//! stored log is read, replayed or verified: a stream an earlier build recorded with a longer
//! name still opens, and listings show such a name cut by [`shown`]. Lengths are counted in
//! characters (Unicode scalar values), as a person counts them, not in bytes.

use std::borrow::Cow;

use thiserror::Error;

/// The most characters a name may have. 100 is the bound tournament registration has enforced
/// since 0.1.0 (so every registered tournament player already meets it, and a game's players,
/// who are matched to them by name, can be as long), and it fits a full name with a club or
/// team suffix with room to spare.
pub const NAME_MAX: usize = 100;

/// The most characters a note or reason may have (a ruling's note, a drop's, a penalty's or a
/// correction's reason): a long paragraph, where a name is one line.
pub const NOTE_MAX: usize = 2000;

/// A value over its limit: the error names the field, the value's length and the limit.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{field} is {chars} characters; the limit is {limit}")]
pub struct TooLong {
    /// What the value is, as the message names it: `player name 3`, `actor name`, `note`.
    pub field: String,
    pub chars: usize,
    pub limit: usize,
}

/// The length of `value` in characters, counting no further than needed to tell it exceeds
/// `limit` (at most `4 * limit` bytes are read; the full count is taken only for the message).
fn over(value: &str, limit: usize) -> Option<usize> {
    // A character is at least one byte: at most `limit` bytes is at most `limit` characters.
    if value.len() <= limit || value.chars().nth(limit).is_none() {
        return None;
    }
    Some(value.chars().count())
}

/// Checks a value against `limit`; `field` is built only for the error.
pub fn check(field: impl FnOnce() -> String, value: &str, limit: usize) -> Result<(), TooLong> {
    match over(value, limit) {
        None => Ok(()),
        Some(chars) => Err(TooLong { field: field(), chars, limit }),
    }
}

/// Checks a name against [`NAME_MAX`].
pub fn check_name(field: impl FnOnce() -> String, value: &str) -> Result<(), TooLong> {
    check(field, value, NAME_MAX)
}

/// Checks a note or reason against [`NOTE_MAX`].
pub fn check_note(field: impl FnOnce() -> String, value: &str) -> Result<(), TooLong> {
    check(field, value, NOTE_MAX)
}

/// Checks a header's player names; the message numbers them from 1, in seat order.
pub fn check_players(players: &[String]) -> Result<(), TooLong> {
    for (i, p) in players.iter().enumerate() {
        check_name(|| format!("player name {}", i + 1), p)?;
    }
    Ok(())
}

/// A name as a listing shows it: unchanged within [`NAME_MAX`], else its first `NAME_MAX - 1`
/// characters and `…` (a stream an earlier build recorded with a longer name is shown, not refused).
pub fn shown(name: &str) -> Cow<'_, str> {
    match name.char_indices().nth(NAME_MAX) {
        None => Cow::Borrowed(name),
        Some(_) => {
            let end = name.char_indices().nth(NAME_MAX - 1).map_or(name.len(), |(i, _)| i);
            Cow::Owned(format!("{}…", &name[..end]))
        }
    }
}

/// [`shown`] for an owned name, reusing it when it is within the limit.
pub fn shown_owned(name: String) -> String {
    match shown(&name) {
        Cow::Borrowed(_) => name,
        Cow::Owned(cut) => cut,
    }
}

/// Whether `c` must not reach a terminal as it is: a C0 control other than newline and tab (ESC
/// starts the sequences that clear a screen, retitle a window or forge a line; CR and BS
/// overwrite what was printed; BEL rings), DEL, a C1 control (U+0080–U+009F: 8-bit CSI and OSC),
/// or a Unicode bidi control (U+061C, U+200E/U+200F, the embeddings and overrides U+202A–U+202E,
/// the isolates U+2066–U+2069), which reorders what a reader sees.
pub fn is_unsafe_char(c: char) -> bool {
    match c {
        '\n' | '\t' => false,
        '\u{0}'..='\u{1f}' | '\u{7f}'..='\u{9f}' => true,
        '\u{61c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' => true,
        _ => false,
    }
}

/// Recorded text made inert for a terminal: every character [`is_unsafe_char`] names is shown
/// as its escape (`\u{1b}`), visibly, so an audit sees what was recorded and nothing it
/// carries acts on the reader's terminal. Newlines and tabs stay. Text with nothing to escape is
/// borrowed as it is (the common case costs one scan). Display only: the log keeps what was
/// recorded (history is never rewritten).
pub fn inert(text: &str) -> Cow<'_, str> {
    escape_unsafe(text, |c| format!("\\u{{{:x}}}", u32::from(c)))
}

/// `text` with every character [`is_unsafe_char`] names replaced by `escape(c)`; borrowed as it
/// is when there is none (one scan).
fn escape_unsafe(text: &str, escape: fn(char) -> String) -> Cow<'_, str> {
    if !text.chars().any(is_unsafe_char) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if is_unsafe_char(c) {
            out.push_str(&escape(c));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// JSON text made inert for a terminal without changing what it says: every character
/// [`is_unsafe_char`] names (serde_json escapes C0 controls itself but writes C1 and bidi
/// controls raw inside strings) becomes its JSON escape (`\u202e`), which a JSON reader decodes
/// to the same string. Outside strings JSON has only whitespace, which is kept.
pub fn inert_json(json: &str) -> Cow<'_, str> {
    // Every unsafe character is in the Basic Multilingual Plane: one \uXXXX escape.
    escape_unsafe(json, |c| format!("\\u{:04x}", u32::from(c)))
}
