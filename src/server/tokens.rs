//! Access tokens: issued by the CLI (`kifu token issue`), presented by browsers and scripts as
//! `Authorization: Bearer TOKEN`, stored only as their BLAKE3 hash: in `DATA/server/tokens.json`,
//! or, when the store is shared by several servers (a cluster), in its shared records
//! ([`crate::store::Records`], one record per token hash) so that a token revoked through one
//! server is refused by every server at its next request. [`Book`] is either.
//!
//! Why a JSON file and not the hash chain: tokens are credentials, not history. They must be
//! revocable and re-issuable without writing to a tournament's log (whose formats are forever and
//! whose contents are public), and the CLI must be able to issue one while `kifu serve` holds
//! sled's exclusive lock on the store. The server re-reads the file when it changes, so a token
//! issued while it runs works at once. A leaked file holds no usable token: only hashes.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::store::{Change, Records, StoreError};

/// What a token lets its holder do (see the module documentation of [`super`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// Sees their own hidden cards in their own games of the tournament; reports and confirms
    /// their own match results.
    Player,
    /// Omniscient view, rulings, forced entries and result corrections within the scope.
    Judge,
    /// Everything a judge may do, plus reporting results for any table.
    Organizer,
}

/// A role that is not player, judge or organizer.
#[derive(Debug, thiserror::Error)]
#[error("a role is player, judge or organizer, not {0:?}")]
pub struct InvalidRole(pub String);

impl std::str::FromStr for Role {
    type Err = InvalidRole;
    fn from_str(s: &str) -> Result<Self, InvalidRole> {
        match s {
            "player" => Ok(Role::Player),
            "judge" => Ok(Role::Judge),
            "organizer" => Ok(Role::Organizer),
            _ => Err(InvalidRole(crate::log::quote_prefix(s))),
        }
    }
}

impl std::fmt::Display for Role {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Role::Player => "player",
            Role::Judge => "judge",
            Role::Organizer => "organizer",
        })
    }
}

/// The scope meaning "every tournament and game on this server" (judges and organizers only).
pub const ALL: &str = "*";

/// One issued token, as stored: never the token itself.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Grant {
    /// Hex BLAKE3 hash of the token text.
    pub hash: String,
    pub role: Role,
    /// A tournament stream id, or `*` (judges and organizers only).
    pub scope: String,
    /// The player's registered name, or the judge's or organizer's name (recorded as the actor).
    pub name: String,
    pub issued_at: String,
}

/// The token file.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TokenFile {
    pub version: u32,
    pub tokens: Vec<Grant>,
    /// Hashes of revoked tokens: never accepted or issued again.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub revoked: Vec<String>,
}

#[derive(Debug, Error)]
pub enum TokenError {
    #[error("cannot read or write {path}: {msg}")]
    Io { path: String, msg: String },
    #[error("{path} is not a valid token file: {msg}")]
    Format { path: String, msg: String },
    #[error("{0}")]
    Input(String),
    #[error("the shared tokens: {0}")]
    Store(#[from] StoreError),
    #[error("the shared token record {hash} does not parse: {msg}")]
    Record { hash: String, msg: String },
}

/// Where the server keeps its token file inside a data directory.
pub fn path(data_dir: &Path) -> PathBuf {
    data_dir.join("server").join("tokens.json")
}

/// The stored form of a token: hex BLAKE3 of its text.
pub fn hash(token: &str) -> String {
    blake3::hash(token.as_bytes()).to_hex().to_string()
}

/// Reads a token file; a missing file holds no tokens.
pub fn load(path: &Path) -> Result<TokenFile, TokenError> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Ok(TokenFile { version: 1, tokens: vec![], revoked: vec![] })
        }
        Err(e) => return Err(TokenError::Io { path: path.display().to_string(), msg: e.to_string() }),
    };
    serde_json::from_str(&text).map_err(|e| TokenError::Format { path: path.display().to_string(), msg: e.to_string() })
}

fn save(path: &Path, file: &TokenFile) -> Result<(), TokenError> {
    let text = serde_json::to_string_pretty(file)
        .map_err(|e| TokenError::Format { path: path.display().to_string(), msg: e.to_string() })?;
    // A unique temporary file renamed over the old one: the server never reads a half-written
    // file, and concurrent writers (serialized by `locked`) never share a temporary file.
    crate::store::write_private_atomic(path, (text + "\n").as_bytes())
        .map_err(|e| TokenError::Io { path: path.display().to_string(), msg: e.to_string() })
}

/// Runs a read-modify-write of the token file under an exclusive lock of `tokens.json.lock`,
/// so a concurrent issue cannot undo a revoke (or lose another issue).
fn locked<T>(path: &Path, change: impl FnOnce(&mut TokenFile) -> Result<T, TokenError>) -> Result<T, TokenError> {
    use fs2::FileExt;
    use std::os::unix::fs::OpenOptionsExt;
    let io = |e: std::io::Error| TokenError::Io { path: path.display().to_string(), msg: e.to_string() };
    if let Some(d) = path.parent() {
        crate::store::private_dir(d).map_err(io)?;
    }
    let lock = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .mode(0o600)
        .open(path.with_extension("json.lock"))
        .map_err(io)?;
    lock.lock_exclusive().map_err(io)?;
    let mut file = load(path)?;
    let out = change(&mut file)?;
    save(path, &file)?;
    // Dropping the file releases the lock.
    Ok(out)
}

/// Checks what a token is issued for and makes its grant (the token text and what is stored).
fn grant_for(
    role: Role,
    scope: &str,
    name: &str,
    secret: [u8; 32],
    issued_at: String,
) -> Result<(String, Grant), TokenError> {
    if name.trim().is_empty() {
        return Err(TokenError::Input("a token names its holder (--name)".into()));
    }
    if scope.trim().is_empty() {
        return Err(TokenError::Input("a token has a scope: a tournament id, or * for judges and organizers".into()));
    }
    if role == Role::Player && scope == ALL {
        return Err(TokenError::Input("a player token belongs to one tournament, not *".into()));
    }
    let token = format!("kifu_{}", hex::encode(secret));
    let grant = Grant { hash: hash(&token), role, scope: scope.to_string(), name: name.to_string(), issued_at };
    Ok((token, grant))
}

/// Issues a token from 32 random bytes the caller draws (the library draws no randomness):
/// records its hash with the role, scope and name, and returns the token text (shown once).
pub fn issue(
    path: &Path,
    role: Role,
    scope: &str,
    name: &str,
    secret: [u8; 32],
    issued_at: String,
) -> Result<String, TokenError> {
    let (token, grant) = grant_for(role, scope, name, secret, issued_at)?;
    locked(path, |file| {
        file.version = 1;
        // A revoked token's hash never comes back (the same secret issued again is refused).
        if file.revoked.contains(&grant.hash) {
            return Err(TokenError::Input("this token was revoked; issue a new one".into()));
        }
        file.tokens.push(grant);
        Ok(())
    })?;
    Ok(token)
}

/// Revokes every token whose hash starts with `prefix` (at least 8 hex digits); returns how many.
pub fn revoke(path: &Path, prefix: &str) -> Result<usize, TokenError> {
    check_prefix(prefix)?;
    locked(path, |file| {
        let (gone, kept): (Vec<Grant>, Vec<Grant>) =
            std::mem::take(&mut file.tokens).into_iter().partition(|g| g.hash.starts_with(prefix));
        file.tokens = kept;
        file.revoked.extend(gone.iter().map(|g| g.hash.clone()));
        Ok(gone.len())
    })
}

/// A revoke names at least 8 hex digits of the hash: a shorter prefix could catch other tokens.
fn check_prefix(prefix: &str) -> Result<(), TokenError> {
    if prefix.len() < 8 {
        return Err(TokenError::Input("give at least 8 hex digits of the token hash (see `kifu token list`)".into()));
    }
    Ok(())
}

/// A token as a shared record: its grant, or the mark that it was revoked (kept forever, so a
/// revoked token is never accepted or issued again).
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Record {
    Active(Grant),
    Revoked,
}

/// Where the tokens are kept: a store's shared records (several servers) or the token file.
pub enum Book<'a> {
    Shared(Box<dyn Records + 'a>),
    File(PathBuf),
}

impl Book<'_> {
    pub fn issue(
        &self,
        role: Role,
        scope: &str,
        name: &str,
        secret: [u8; 32],
        issued_at: String,
    ) -> Result<String, TokenError> {
        let records = match self {
            Book::File(path) => return issue(path, role, scope, name, secret, issued_at),
            Book::Shared(r) => r,
        };
        let (token, grant) = grant_for(role, scope, name, secret, issued_at)?;
        let key = grant.hash.clone();
        let bytes = serde_json::to_vec(&Record::Active(grant))
            .map_err(|e| TokenError::Record { hash: key.clone(), msg: e.to_string() })?;
        if !records.create(&key, bytes)? {
            return Err(TokenError::Input(match read(&**records, &key)? {
                Some(Record::Revoked) => "this token was revoked; issue a new one".to_string(),
                _ => "this token was already issued; issue a new one".to_string(),
            }));
        }
        Ok(token)
    }

    /// Revokes every token whose hash starts with `prefix` (at least 8 hex digits); returns how many.
    pub fn revoke(&self, prefix: &str) -> Result<usize, TokenError> {
        let records = match self {
            Book::File(path) => return revoke(path, prefix),
            Book::Shared(r) => r,
        };
        check_prefix(prefix)?;
        let mut n = 0;
        for key in records.keys()?.into_iter().filter(|k| k.starts_with(prefix)) {
            let mut revoked = false;
            records.update(&key, &mut |current| match current.map(serde_json::from_slice::<Record>) {
                // A record that does not parse is revoked too: it grants nothing either way.
                Some(Ok(Record::Revoked)) | None => Change::Keep,
                Some(_) => {
                    revoked = true;
                    Change::Put(br#""revoked""#.to_vec())
                }
            })?;
            n += usize::from(revoked);
        }
        Ok(n)
    }

    /// The tokens that are valid now.
    pub fn list(&self) -> Result<Vec<Grant>, TokenError> {
        let records = match self {
            Book::File(path) => return Ok(load(path)?.tokens),
            Book::Shared(r) => r,
        };
        let mut out = Vec::new();
        for key in records.keys()? {
            if let Some(Record::Active(g)) = read(&**records, &key)? {
                out.push(g);
            }
        }
        Ok(out)
    }

    /// The grant of the token whose hash is `hash`, if it is valid (shared records only: the
    /// server keeps the token file's grants in memory, re-reading it when it changes).
    pub fn lookup(&self, hash: &str) -> Result<Option<Grant>, TokenError> {
        match self {
            Book::File(path) => Ok(load(path)?.tokens.into_iter().find(|g| g.hash == hash)),
            Book::Shared(r) => Ok(match read(&**r, hash)? {
                Some(Record::Active(g)) if g.hash == hash => Some(g),
                _ => None,
            }),
        }
    }
}

fn read(records: &dyn Records, key: &str) -> Result<Option<Record>, TokenError> {
    if !crate::store::records::valid_key(key) {
        return Ok(None);
    }
    match records.get(key)? {
        None => Ok(None),
        Some(bytes) => serde_json::from_slice(&bytes)
            .map(Some)
            .map_err(|e| TokenError::Record { hash: key.to_string(), msg: e.to_string() }),
    }
}
