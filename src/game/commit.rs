//! Sealed cards, committed shuffle seeds and the deck transcripts that let an audit prove every
//! seeded shuffle was honest. Shared by every game: a game's `apply` reports deck operations to a
//! [`CommitmentLedger`] kept in its state, and the audit calls [`CommitmentLedger::audit`].
//!
//! Hash spec (fixed forever; see ARCHITECTURE.md):
//! - sealed card: `blake3::keyed_hash(key = salt, message = card instance id as UTF-8)`;
//! - seed commitment: `blake3 derive_key(SEED_CONTEXT, seed)`;
//! - shuffle: the XOF of `blake3 derive_key(SHUFFLE_CONTEXT, seed ‖ u32le(len(deck)) ‖ deck ‖ u32le(n))`
//!   drives a Fisher–Yates shuffle of the deck's contents in sorted order, where `n` counts the
//!   seeded shuffles of that deck so far.

use std::collections::BTreeMap;

use super::rules::Violation;

/// Context string for seed commitments (blake3 derive_key mode).
pub const SEED_CONTEXT: &str = "kifu 2026-11-21 shuffle seed commitment v1";
/// Context string for the per-shuffle random stream (blake3 derive_key mode).
pub const SHUFFLE_CONTEXT: &str = "kifu 2026-11-21 seeded shuffle v1";

/// A 32-byte commitment (a sealed card or a seed hash): the same type as a log hash, raw in
/// postcard and hex in JSON.
pub use crate::log::hash::Hash32 as Commitment;

/// A 32-byte secret: a shuffle seed or a sealing salt.
pub type Secret = Commitment;

/// Seals a card instance: the commitment a recorder logs instead of the card's identity.
pub fn seal(card_instance: &str, salt: &Secret) -> Commitment {
    Commitment(*blake3::keyed_hash(&salt.0, card_instance.as_bytes()).as_bytes())
}

/// The commitment logged before a seeded shuffle.
pub fn commit_seed(seed: &Secret) -> Commitment {
    Commitment(blake3::derive_key(SEED_CONTEXT, &seed.0))
}

/// The order a seeded shuffle puts `contents` in. `contents` is sorted first, so the result
/// depends only on the multiset of cards, the seed, the deck's name and the shuffle number.
pub fn seeded_order(seed: &Secret, deck: &str, shuffle_no: u32, contents: &[String]) -> Vec<String> {
    let mut cards = contents.to_vec();
    cards.sort();
    let mut hasher = blake3::Hasher::new_derive_key(SHUFFLE_CONTEXT);
    hasher.update(&seed.0);
    hasher.update(&u32::try_from(deck.len()).unwrap_or(u32::MAX).to_le_bytes());
    hasher.update(deck.as_bytes());
    hasher.update(&shuffle_no.to_le_bytes());
    let mut xof = hasher.finalize_xof();
    // Fisher–Yates with rejection sampling, so every permutation is equally likely.
    for i in (1..cards.len()).rev() {
        let bound = (i + 1) as u64;
        let zone = u64::MAX - (u64::MAX % bound);
        let j = loop {
            let mut buf = [0u8; 8];
            xof.fill(&mut buf);
            let x = u64::from_le_bytes(buf);
            if x < zone {
                break (x % bound) as usize;
            }
        };
        cards.swap(i, j);
    }
    cards
}

/// What the dealer of a digital game knows: its shuffle seeds by key. Never logged until revealed.
#[derive(Clone, Debug, Default)]
pub struct AgentSecrets {
    pub seeds: BTreeMap<String, Secret>,
    /// Cards the agent sealed: commitment → (card instance, salt), so it can reveal them later.
    pub sealed: BTreeMap<Commitment, (String, Secret)>,
}

/// One operation on a deck since its last shuffle, as a game's `apply` reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
enum DeckOp {
    TookTop(String),
    PutTop(String),
    PutBottom(String),
}

/// What the ledger knows about one deck's order since its last shuffle.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct DeckTranscript {
    /// Seeded shuffles of this deck so far (the `n` of the shuffle hash).
    seeded_shuffles: u32,
    /// The last seeded shuffle: which seed, which shuffle number, the contents, and the event sequence.
    segment: Option<Segment>,
    /// Closed segments waiting for their seed to be revealed.
    closed: Vec<Segment>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Segment {
    deck: String,
    seed_key: String,
    shuffle_no: u32,
    contents: Vec<String>,
    ops: Vec<(u64, DeckOp)>,
    /// Set when the deck was searched or reordered in a way the transcript cannot model.
    untracked: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct SeedEntry {
    commitment: Commitment,
    revealed: Option<Secret>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct SealedEntry {
    sealed_at: u64,
    revealed: Option<String>,
}

/// Every commitment of a game and every seeded deck's transcript.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CommitmentLedger {
    seeds: BTreeMap<String, SeedEntry>,
    sealed: BTreeMap<Commitment, SealedEntry>,
    decks: BTreeMap<String, DeckTranscript>,
    /// The sequence number of the event being applied; games set it through [`Self::at`].
    seq: u64,
}

impl CommitmentLedger {
    /// Tells the ledger which event sequence the following operations belong to.
    pub fn at(&mut self, seq: u64) {
        self.seq = seq;
    }

    pub fn seed_committed(&mut self, key: &str, commitment: Commitment) {
        self.seeds.insert(key.to_string(), SeedEntry { commitment, revealed: None });
    }

    pub fn seed_revealed(&mut self, key: &str, seed: Secret) {
        if let Some(entry) = self.seeds.get_mut(key) {
            entry.revealed = Some(seed);
        }
    }

    /// The commitment for seed `key`, if one was logged.
    pub fn seed_commitment(&self, key: &str) -> Option<Commitment> {
        self.seeds.get(key).map(|s| s.commitment)
    }

    /// Whether seed `key` has been revealed.
    pub fn seed_is_revealed(&self, key: &str) -> bool {
        self.seeds.get(key).is_some_and(|s| s.revealed.is_some())
    }

    /// Checks a seed reveal against its commitment (for a game's `validate`).
    pub fn check_seed_reveal(&self, key: &str, seed: &Secret) -> Vec<Violation> {
        match self.seeds.get(key) {
            None => vec![Violation::new("KIFU-SEED-1", format!("seed {key:?} was never committed"))],
            Some(e) if e.revealed.is_some() => {
                vec![Violation::new("KIFU-SEED-1", format!("seed {key:?} was already revealed"))]
            }
            Some(e) if commit_seed(seed) != e.commitment => vec![Violation::new(
                "KIFU-SEED-1",
                format!("revealed seed {key:?} does not match its commitment {}", e.commitment),
            )],
            Some(_) => vec![],
        }
    }

    /// A deck was shuffled. With `seed_key`, the shuffle is seeded and its order is checkable later;
    /// without, it is a physical shuffle whose order nobody knows.
    pub fn deck_shuffled(&mut self, deck: &str, contents: Vec<String>, seed_key: Option<&str>) {
        let t = self.decks.entry(deck.to_string()).or_default();
        if let Some(seg) = t.segment.take() {
            t.closed.push(seg);
        }
        if let Some(key) = seed_key {
            t.segment = Some(Segment {
                deck: deck.to_string(),
                seed_key: key.to_string(),
                shuffle_no: t.seeded_shuffles,
                contents,
                ops: Vec::new(),
                untracked: false,
            });
            t.seeded_shuffles += 1;
        }
    }

    fn op(&mut self, deck: &str, op: DeckOp) {
        let seq = self.seq;
        if let Some(seg) = self.decks.get_mut(deck).and_then(|t| t.segment.as_mut()) {
            seg.ops.push((seq, op));
        }
    }

    pub fn deck_took_top(&mut self, deck: &str, card: &str) {
        self.op(deck, DeckOp::TookTop(card.to_string()));
    }

    pub fn deck_put_top(&mut self, deck: &str, card: &str) {
        self.op(deck, DeckOp::PutTop(card.to_string()));
    }

    pub fn deck_put_bottom(&mut self, deck: &str, card: &str) {
        self.op(deck, DeckOp::PutBottom(card.to_string()));
    }

    /// The deck was searched or reordered: its order is unknown until the next shuffle.
    pub fn deck_order_lost(&mut self, deck: &str) {
        if let Some(seg) = self.decks.get_mut(deck).and_then(|t| t.segment.as_mut()) {
            seg.untracked = true;
        }
    }

    /// The card a seeded deck has on top, for an agent that knows the seed (self-play's dealer).
    pub fn predicted_top(&self, deck: &str, seed: &Secret) -> Option<String> {
        let seg = self.decks.get(deck)?.segment.as_ref()?;
        let order = replay_segment(seg, seed).ok()?;
        order.first().cloned()
    }

    pub fn card_sealed(&mut self, commitment: Commitment) {
        let seq = self.seq;
        self.sealed.insert(commitment, SealedEntry { sealed_at: seq, revealed: None });
    }

    /// Checks a reveal against its commitment (for a game's `validate`).
    pub fn check_reveal(&self, commitment: &Commitment, card_instance: &str, salt: &Secret) -> Vec<Violation> {
        match self.sealed.get(commitment) {
            None => vec![Violation::new("KIFU-SEAL-1", format!("no sealed card has commitment {commitment}"))],
            Some(e) if e.revealed.is_some() => {
                vec![Violation::new("KIFU-SEAL-1", format!("sealed card {commitment} was already revealed"))]
            }
            Some(_) if seal(card_instance, salt) != *commitment => vec![Violation::new(
                "KIFU-SEAL-1",
                format!("revealed card {card_instance:?} with that salt does not match commitment {commitment}"),
            )],
            Some(_) => vec![],
        }
    }

    pub fn card_revealed(&mut self, commitment: &Commitment, card_instance: &str) {
        if let Some(e) = self.sealed.get_mut(commitment) {
            e.revealed = Some(card_instance.to_string());
        }
    }

    /// Sealed cards not (yet) revealed: (commitment, sequence it was sealed at).
    pub fn unrevealed(&self) -> Vec<(Commitment, u64)> {
        self.sealed.iter().filter(|(_, e)| e.revealed.is_none()).map(|(c, e)| (*c, e.sealed_at)).collect()
    }

    /// The end-of-game checks: every committed seed was revealed, and every seeded shuffle's
    /// transcript agrees with the order the revealed seed produces.
    pub fn audit(&self) -> Vec<(Option<u64>, Violation)> {
        let mut out = Vec::new();
        for (key, s) in &self.seeds {
            if s.revealed.is_none() {
                out.push((
                    None,
                    Violation::new(
                        "KIFU-SEED-3",
                        format!("seed {key:?} was committed but never revealed, so its shuffles cannot be checked"),
                    ),
                ));
            }
        }
        for (deck, t) in &self.decks {
            for seg in t.closed.iter().chain(t.segment.iter()) {
                if seg.untracked {
                    continue;
                }
                let Some(seed) = self.seeds.get(&seg.seed_key).and_then(|s| s.revealed) else {
                    continue;
                };
                if let Err((seq, v)) = replay_segment(seg, &seed) {
                    out.push((
                        Some(seq),
                        Violation::new(
                            "KIFU-SEED-2",
                            format!("deck {deck:?}, seeded shuffle #{}: {v}", seg.shuffle_no),
                        ),
                    ));
                }
            }
        }
        out
    }
}

/// Replays one segment of a seeded deck; returns the resulting order or the first deviation.
fn replay_segment(seg: &Segment, seed: &Secret) -> Result<Vec<String>, (u64, String)> {
    let mut order: std::collections::VecDeque<String> =
        seeded_order(seed, &seg.deck, seg.shuffle_no, &seg.contents).into();
    for (seq, op) in &seg.ops {
        match op {
            DeckOp::TookTop(card) => match order.pop_front() {
                Some(top) if &top == card => {}
                Some(top) => return Err((*seq, format!("took {card} but the seeded order had {top} on top"))),
                None => return Err((*seq, format!("took {card} from a deck the seeded order says was empty"))),
            },
            DeckOp::PutTop(card) => order.push_front(card.clone()),
            DeckOp::PutBottom(card) => order.push_back(card.clone()),
        }
    }
    Ok(order.into())
}
