//! Digital dice anyone can check: every die roll, random Servant, blind pick and lot of a digital
//! FATE game comes from a value combined from every undefeated Master's reveal.
//!
//! Scheme (fixed forever, like the hashes of [`crate::game::commit`]):
//! - at the deal each Master commits to the tip of a hash chain: `tip = H^L(s)` with
//!   `H = commit_seed` (blake3 `derive_key`), `L` = [`CHAIN_LENGTH`];
//! - before each random outcome every undefeated Master reveals the next link `r` of its chain,
//!   checked by `H(r) == previous link` (the tip first). Nobody can predict the value before the
//!   last Master has revealed, and no Master can bias it: its own link is fixed by its commitment;
//! - the round's value is `derive_key(`[`DICE_CONTEXT`]`, u32le(round) ‖ (seat ‖ r) for every
//!   revealing seat in seat order)`; the `i`-th number drawn from it is the first 8 bytes (u64 le)
//!   of `keyed_hash(value, u32le(i))`; a die shows `x % 6 + 1`, a pick among `n` is `x % n`.
//!
//! The audit re-derives every value: `validate` checks each random event against the round.

use crate::game::commit::{commit_seed, Commitment, Secret};
use crate::game::Seat;

/// Context string of a round's combined value (blake3 derive_key mode).
pub const DICE_CONTEXT: &str = "kifu 2026-11-22 fate combined dice round v1";

/// Links in each Master's hash chain: the most random outcomes one digital game can have.
pub const CHAIN_LENGTH: usize = 4096;

/// The dice state of a digital game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Dice {
    /// Each seat's last verified link (the committed tip at first).
    pub last: Vec<Option<Commitment>>,
    /// This round's reveals by seat.
    pub revealed: Vec<Option<Secret>>,
    /// Rounds completed and consumed so far.
    pub round: u32,
    /// Links each seat has revealed so far.
    pub reveals: Vec<u32>,
}

impl Dice {
    pub fn new(seats: usize) -> Dice {
        Dice { last: vec![None; seats], revealed: vec![None; seats], round: 0, reveals: vec![0; seats] }
    }

    /// The round's combined value, once every seat in `living` has revealed.
    pub fn value(&self, living: &[Seat]) -> Option<[u8; 32]> {
        let mut h = blake3::Hasher::new_derive_key(DICE_CONTEXT);
        h.update(&self.round.to_le_bytes());
        for seat in living {
            let r = self.revealed.get(usize::from(*seat)).copied().flatten()?;
            h.update(&[*seat]);
            h.update(&r.0);
        }
        Some(*h.finalize().as_bytes())
    }
}

/// The `i`-th number drawn from a round's value.
pub fn number(value: &[u8; 32], i: u32) -> u64 {
    let out = blake3::keyed_hash(value, &i.to_le_bytes());
    let mut b = [0u8; 8];
    b.copy_from_slice(&out.as_bytes()[..8]);
    u64::from_le_bytes(b)
}

/// The `i`-th die of a round.
pub fn die(value: &[u8; 32], i: u32) -> u8 {
    u8::try_from(number(value, i) % 6).unwrap_or(0) + 1
}

/// The `i`-th pick among `n` of a round (0 when `n` is 0).
pub fn pick(value: &[u8; 32], i: u32, n: usize) -> usize {
    if n == 0 {
        return 0;
    }
    usize::try_from(number(value, i) % n as u64).unwrap_or(0)
}

/// A Master's whole chain from its secret: `chain[0]` is the secret, `chain[L]` the tip; the
/// `k`-th reveal (0-based) is `chain[L - 1 - k]`.
pub fn chain(secret: &Secret) -> Vec<Secret> {
    let mut out = Vec::with_capacity(CHAIN_LENGTH + 1);
    out.push(*secret);
    for i in 0..CHAIN_LENGTH {
        out.push(commit_seed(&out[i]));
    }
    out
}
