//! Owner-only files kept beside a data directory, outside the logs: the seeds kifu holds as the
//! dealer of a digital game it created (`game::dealer`), until the game reveals them.
//!
//! One file per game, `DIR/game-dealers/GAME.seeds`, 0600 in a 0700 folder, written atomically:
//! one `KEY HEX` line per seed.

use std::path::{Path, PathBuf};

use super::StoreError;
use crate::log::envelope::StreamId;
use crate::log::hash::Hash32;

/// Where the dealer's seeds of game `id` are kept.
pub fn dealer_seeds_path(data_dir: &Path, id: &StreamId) -> PathBuf {
    data_dir.join("game-dealers").join(format!("{}.seeds", id.as_str()))
}

fn io(what: &str, path: &Path, e: std::io::Error) -> StoreError {
    StoreError::Backend(format!("cannot {what} the dealer's seeds at {}: {e}", path.display()))
}

/// Keeps `seeds` (key and seed) for game `id`.
pub fn save_dealer_seeds(data_dir: &Path, id: &StreamId, seeds: &[(String, Hash32)]) -> Result<(), StoreError> {
    let path = dealer_seeds_path(data_dir, id);
    if let Some(dir) = path.parent() {
        super::private_dir(dir).map_err(|e| io("create the folder of", &path, e))?;
    }
    let text: String = seeds.iter().map(|(k, seed)| format!("{k} {seed}\n")).collect();
    super::write_private_atomic(&path, text.as_bytes()).map_err(|e| io("write", &path, e))
}

/// The seeds kept for game `id`, or `None` when kifu deals nothing of it.
pub fn load_dealer_seeds(data_dir: &Path, id: &StreamId) -> Result<Option<Vec<(String, Hash32)>>, StoreError> {
    let path = dealer_seeds_path(data_dir, id);
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io("read", &path, e)),
    };
    let mut seeds = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let damaged = || {
            StoreError::Backend(format!(
                "the dealer's seeds at {} are damaged (line {}): restore the file from a backup",
                path.display(),
                i + 1
            ))
        };
        let (key, hex) = line.split_once(' ').ok_or_else(damaged)?;
        seeds.push((key.to_string(), Hash32::from_hex(hex).map_err(|_| damaged())?));
    }
    Ok(Some(seeds))
}
