//! Small mutable records that every server on one store shares ([`Records`]): the server's access
//! tokens and pending result reports. They are not logs (no history, no hash chain); a store
//! that many servers share (the NATS cluster: one KV bucket per [`Table`], replicated like the
//! streams) offers them through [`super::Store::records`], so a token revoked through one
//! server is refused by all of them. A store only one process opens (sled) offers none: the
//! server then keeps these in files beside the store, as before.

use super::StoreError;

/// The tables a store may share.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Table {
    /// Access tokens by the hex hash of the token text.
    Tokens,
    /// Result reports waiting for the opponent's confirmation.
    PendingResults,
    /// Pod result reports waiting for the other pod players' confirmations.
    PendingPodResults,
}

impl Table {
    /// The table's name inside a store (a NATS bucket is `KIFU_<ns>_<NAME>`).
    pub fn name(self) -> &'static str {
        match self {
            Table::Tokens => "TOKENS",
            Table::PendingResults => "PENDING",
            Table::PendingPodResults => "PENDING_PODS",
        }
    }
}

/// What [`Records::update`] does with a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// Leave it as it is (nothing is written).
    Keep,
    Put(Vec<u8>),
    Delete,
}

/// A table of small records (a few KiB each) under keys of `A-Za-z0-9_=-` and `.`.
pub trait Records {
    /// The record under `key`, if any.
    fn get(&self, key: &str) -> Result<Option<Vec<u8>>, StoreError>;

    /// Writes `value` under `key` if the key holds nothing; `false` (writing nothing) if it does.
    fn create(&self, key: &str, value: Vec<u8>) -> Result<bool, StoreError>;

    /// Replaces the record under `key` by what `change` makes of the current one, atomically:
    /// when another writer changed it in between, `change` runs again on the new record.
    fn update(&self, key: &str, change: &mut dyn FnMut(Option<&[u8]>) -> Change) -> Result<(), StoreError>;

    /// Every key holding a record, sorted.
    fn keys(&self) -> Result<Vec<String>, StoreError>;
}

/// Whether `key` is usable in every backend's tables (nonempty dot-separated tokens).
pub fn valid_key(key: &str) -> bool {
    !key.is_empty()
        && key.split('.').all(|t| !t.is_empty())
        && key.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '=' | '-' | '.'))
}
