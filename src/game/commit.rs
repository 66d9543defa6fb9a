//! Randomness anyone can check: sealed cards and choices, committed seeds (one dealer's, or
//! combined from a share of every seat), seeded shuffles, die rolls and random picks, and the deck
//! transcripts that let an audit prove every seeded shuffle, roll and pick was honest. Shared by
//! every game: a game's `apply` reports operations to a [`CommitmentLedger`] kept in its state,
//! `validate` asks it the `check_*` questions, and the audit calls [`CommitmentLedger::audit`].
//!
//! Hash spec (fixed forever; see docs/format.md, "What is hashed"):
//! - sealed card: `blake3::keyed_hash(key = salt, message = card instance id as UTF-8)`;
//! - sealed choice: `blake3 derive_key(CHOICE_CONTEXT, salt ‖ u32le(len(key)) ‖ key ‖ choice)`;
//! - seed commitment (a dealer's seed or one seat's share): `blake3 derive_key(SEED_CONTEXT, seed)`;
//! - combined seed: `blake3 derive_key(COMBINE_CONTEXT, u32le(len(key)) ‖ key ‖ (u8(seat) ‖ share)*)`
//!   over the shares in seat order;
//! - shuffle: the XOF of `blake3 derive_key(SHUFFLE_CONTEXT, seed ‖ u32le(len(deck)) ‖ deck ‖ u32le(n))`
//!   drives a Fisher–Yates shuffle of the deck's contents in sorted order, where `n` counts the
//!   seeded shuffles of that deck so far;
//! - die roll: the XOF of `blake3 derive_key(DIE_CONTEXT, seed ‖ u32le(len(key)) ‖ key ‖ u32le(n) ‖ u32le(sides))`
//!   gives a uniform `1..=sides`; random pick: the same under `PICK_CONTEXT` with the number of
//!   choices, giving a uniform index `0..count`. `n` counts the rolls and picks drawn from that seed
//!   so far. Uniform values use rejection sampling on little-endian u64 words of the XOF.
//! - hash chain (one per seat, for many rounds of randomness from one commitment each): the chain's
//!   links are `c[0] = secret`, `c[i+1] = commit_seed(c[i])`; a seat commits to the tip `c[L]` and
//!   reveals `c[L-1]`, `c[L-2]`, ... one link per round, each checked by hashing to the one before;
//!   round `r` of chain `key` is the seed named `"{key}/{r}"`, worth
//!   `blake3 derive_key(CHAIN_ROUND_CONTEXT, u32le(len(key)) ‖ key ‖ u32le(r) ‖ (u8(seat) ‖ link)*)`
//!   over the round's links in seat order; its rolls and picks are drawn as from any seed.

use std::collections::BTreeMap;

use super::rules::Violation;

/// Context string for seed commitments (blake3 derive_key mode).
pub const SEED_CONTEXT: &str = "kifu 2026-11-21 shuffle seed commitment v1";
/// Context string for the per-shuffle random stream (blake3 derive_key mode).
pub const SHUFFLE_CONTEXT: &str = "kifu 2026-11-21 seeded shuffle v1";

/// Context string for die rolls (blake3 derive_key mode).
pub const DIE_CONTEXT: &str = "kifu 2026-11-22 die roll v1";
/// Context string for random picks (blake3 derive_key mode).
pub const PICK_CONTEXT: &str = "kifu 2026-11-22 random pick v1";
/// Context string for combining every seat's seed share into one seed (blake3 derive_key mode).
pub const COMBINE_CONTEXT: &str = "kifu 2026-11-22 combined seed v1";
/// Context string for sealed choices (blake3 derive_key mode).
pub const CHOICE_CONTEXT: &str = "kifu 2026-11-22 sealed choice v1";
/// Context string for one round of a hash chain's combined links (blake3 derive_key mode).
pub const CHAIN_ROUND_CONTEXT: &str = "kifu 2026-11-25 hash-chain round v1";
/// The context of [`blind_take`]'s marks.
pub const BLIND_CONTEXT: &str = "kifu 2026-12-07 card taken unseen v1";

/// How a game's randomness comes about, chosen in the header (like Naruto's `shuffles` policy).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
pub enum RandomMode {
    /// A real table: shuffles, dice and picks are recorded as the facts they were; only whether
    /// a result is possible is checked.
    Physical,
    /// A digital table: every result derives from a committed seed and the audit re-derives it.
    Digital,
}

impl super::policy::Choice for RandomMode {
    const NAMES: &'static [&'static str] = &["physical", "digital"];
    fn index(self) -> usize {
        self as usize
    }
    fn from_index(i: usize) -> Option<Self> {
        [RandomMode::Physical, RandomMode::Digital].get(i).copied()
    }
}

/// A 32-byte commitment (a sealed card or a seed hash): the same type as a log hash, raw in
/// postcard and hex in JSON.
pub use crate::log::hash::Hash32 as Commitment;

/// A 32-byte secret: a shuffle seed or a sealing salt.
pub type Secret = Commitment;

/// Seals a card instance: the commitment a recorder logs instead of the card's identity.
pub fn seal(card_instance: &str, salt: &Secret) -> Commitment {
    Commitment(*blake3::keyed_hash(&salt.0, card_instance.as_bytes()).as_bytes())
}

/// The mark of the `position`-th card taken face down, unseen by anyone, from the top of `deck`
/// in turn `turn` for `taker` (a Naruto battle reward, NAR-REWARD-1, taken once per team and
/// turn: the team's leader is the taker): it seals no card, so nobody can reveal it, and it is
/// the same whatever the deck holds, so the option that records it tells the taker nothing about
/// the deck. Read from what every fold knows, and distinct per take and position, as the ledger
/// keys sealed cards by commitment.
pub fn blind_take(deck: &str, turn: u32, taker: &str, position: u32) -> Commitment {
    let mut h = blake3::Hasher::new_derive_key(BLIND_CONTEXT);
    h.update(&len32(deck));
    h.update(deck.as_bytes());
    h.update(&turn.to_le_bytes());
    h.update(&len32(taker));
    h.update(taker.as_bytes());
    h.update(&position.to_le_bytes());
    Commitment(*h.finalize().as_bytes())
}

/// The commitment logged before a seeded shuffle.
pub fn commit_seed(seed: &Secret) -> Commitment {
    Commitment(blake3::derive_key(SEED_CONTEXT, &seed.0))
}

/// Seals a choice (`key` names what is chosen, e.g. "round 3 bid"): the commitment a seat logs
/// before the choices are revealed together.
pub fn seal_choice(key: &str, choice: &str, salt: &Secret) -> Commitment {
    let mut h = blake3::Hasher::new_derive_key(CHOICE_CONTEXT);
    h.update(&salt.0);
    h.update(&len32(key));
    h.update(key.as_bytes());
    h.update(choice.as_bytes());
    Commitment(*h.finalize().as_bytes())
}

/// The seed that every seat's revealed share makes together: nobody knows it until the last
/// share is revealed, and every share was committed before any was revealed.
pub fn combine_seeds(key: &str, shares: &[(super::Seat, Secret)]) -> Secret {
    let mut sorted = shares.to_vec();
    sorted.sort_by_key(|(seat, _)| *seat);
    let mut h = blake3::Hasher::new_derive_key(COMBINE_CONTEXT);
    h.update(&len32(key));
    h.update(key.as_bytes());
    for (seat, share) in &sorted {
        h.update(&[*seat]);
        h.update(&share.0);
    }
    Commitment(*h.finalize().as_bytes())
}

/// A seat's hash chain of `len` links from its secret: `chain[0]` is the secret, `chain[len]` the
/// tip it commits to; its `k`-th reveal (0-based) is `chain[len - 1 - k]`.
pub fn hash_chain(secret: &Secret, len: usize) -> Vec<Secret> {
    let mut out = Vec::with_capacity(len + 1);
    out.push(*secret);
    for i in 0..len {
        out.push(commit_seed(&out[i]));
    }
    out
}

/// The seed key that round `round` of hash chain `key` is drawn from (what a roll names).
pub fn chain_round_key(key: &str, round: u32) -> String {
    format!("{key}/{round}")
}

/// The seed of round `round` of hash chain `key` from the links revealed for it: nobody knows it
/// before the last seat has revealed, and no seat can choose its link (the chain fixes it).
pub fn chain_round_seed(key: &str, round: u32, links: &[(super::Seat, Secret)]) -> Secret {
    let mut sorted = links.to_vec();
    sorted.sort_by_key(|(seat, _)| *seat);
    let mut h = blake3::Hasher::new_derive_key(CHAIN_ROUND_CONTEXT);
    h.update(&len32(key));
    h.update(key.as_bytes());
    h.update(&round.to_le_bytes());
    for (seat, link) in &sorted {
        h.update(&[*seat]);
        h.update(&link.0);
    }
    Commitment(*h.finalize().as_bytes())
}

/// The `n`-th roll of a die with `sides` sides (1..=sides) from seed `key`.
pub fn die_roll(seed: &Secret, key: &str, n: u32, sides: u32) -> u32 {
    let mut xof = draw_stream(DIE_CONTEXT, seed, key, n, sides);
    // `uniform` < sides ≤ u32::MAX, so the conversion cannot fail.
    u32::try_from(uniform(&mut xof, u64::from(sides.max(1)))).unwrap_or(0) + 1
}

/// The `n`-th random pick among `count` choices (an index 0..count) from seed `key`.
pub fn random_pick(seed: &Secret, key: &str, n: u32, count: u32) -> u32 {
    let mut xof = draw_stream(PICK_CONTEXT, seed, key, n, count);
    u32::try_from(uniform(&mut xof, u64::from(count.max(1)))).unwrap_or(0)
}

fn draw_stream(context: &str, seed: &Secret, key: &str, n: u32, bound: u32) -> blake3::OutputReader {
    let mut h = blake3::Hasher::new_derive_key(context);
    h.update(&seed.0);
    h.update(&len32(key));
    h.update(key.as_bytes());
    h.update(&n.to_le_bytes());
    h.update(&bound.to_le_bytes());
    h.finalize_xof()
}

fn len32(s: &str) -> [u8; 4] {
    u32::try_from(s.len()).unwrap_or(u32::MAX).to_le_bytes()
}

/// A uniform value in `0..bound` (bound ≥ 1), by rejection sampling so every value is equally likely.
fn uniform(xof: &mut blake3::OutputReader, bound: u64) -> u64 {
    let zone = u64::MAX - (u64::MAX % bound);
    loop {
        let mut buf = [0u8; 8];
        xof.fill(&mut buf);
        let x = u64::from_le_bytes(buf);
        if x < zone {
            return x % bound;
        }
    }
}

/// The order a seeded shuffle puts `contents` in. `contents` is sorted first, so the result
/// depends only on the multiset of cards, the seed, the deck's name and the shuffle number.
pub fn seeded_order(seed: &Secret, deck: &str, shuffle_no: u32, contents: &[String]) -> Vec<String> {
    let mut cards = contents.to_vec();
    cards.sort();
    let mut hasher = blake3::Hasher::new_derive_key(SHUFFLE_CONTEXT);
    hasher.update(&seed.0);
    hasher.update(&len32(deck));
    hasher.update(deck.as_bytes());
    hasher.update(&shuffle_no.to_le_bytes());
    let mut xof = hasher.finalize_xof();
    // Fisher–Yates with rejection sampling, so every permutation is equally likely.
    for i in (1..cards.len()).rev() {
        let j = uniform(&mut xof, (i + 1) as u64) as usize;
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
    /// Each seat's share of a combined seed, by (seed key, seat), kept until the reveal.
    pub shares: BTreeMap<(String, super::Seat), Secret>,
    /// Sealed choices: (choice key, seat) → (choice, salt).
    pub choices: BTreeMap<(String, super::Seat), (String, Secret)>,
}

impl AgentSecrets {
    /// A digital self-play game's secrets: a dealer seed under `key`, 32 bytes drawn from `rng`.
    pub fn with_dealer_seed(key: &str, rng: &mut super::AgentRng) -> AgentSecrets {
        let mut seed = [0u8; 32];
        rand::Rng::fill_bytes(rng, &mut seed);
        let mut secrets = AgentSecrets::default();
        secrets.seeds.insert(key.to_string(), Commitment(seed));
        secrets
    }
}

/// One operation on a deck since its last shuffle, as a game's `apply` reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
enum DeckOp {
    TookTop(String),
    /// The top card was taken face down: its identity is checked once its seal is revealed.
    TookTopSealed(Commitment),
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

/// A seed made of one share per seat: commit all, then reveal all, then combine.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct CombinedSeed {
    shares: BTreeMap<super::Seat, SeedEntry>,
}

impl CombinedSeed {
    fn value(&self, key: &str) -> Option<Secret> {
        let shares: Option<Vec<(super::Seat, Secret)>> =
            self.shares.iter().map(|(seat, e)| e.revealed.map(|s| (*seat, s))).collect();
        shares.filter(|s| !s.is_empty()).map(|s| combine_seeds(key, &s))
    }
}

/// What was drawn from a seed: a die roll (sides, value) or a pick (choices, index).
#[derive(Clone, Debug, PartialEq, Eq)]
enum Draw {
    Die { sides: u32, value: u32 },
    Pick { count: u32, index: u32 },
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct DrawEntry {
    seq: u64,
    key: String,
    n: u32,
    draw: Draw,
}

/// One hash chain per seat (`key` names the set): the links verified so far and the current round.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct HashChains {
    /// Each committed seat's last verified link (its tip at first).
    last: BTreeMap<super::Seat, Commitment>,
    /// Links each seat has revealed so far.
    reveals: BTreeMap<super::Seat, u32>,
    /// The current round and its links by seat.
    round: u32,
    links: BTreeMap<super::Seat, Secret>,
    /// Whether anything was drawn from the current round: the next link starts a new round.
    drawn: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct ChoiceEntry {
    commitment: Commitment,
    revealed: Option<String>,
}

/// Every commitment of a game and every seeded deck's transcript.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CommitmentLedger {
    seeds: BTreeMap<String, SeedEntry>,
    sealed: BTreeMap<Commitment, SealedEntry>,
    decks: BTreeMap<String, DeckTranscript>,
    combined: BTreeMap<String, CombinedSeed>,
    /// Draws (rolls and picks) per seed key so far: the `n` of the next draw.
    drawn: BTreeMap<String, u32>,
    draws: Vec<DrawEntry>,
    choices: BTreeMap<(String, super::Seat), ChoiceEntry>,
    /// Hash chains by key, and the seed of every round revealed so far by round key.
    chains: BTreeMap<String, HashChains>,
    chain_rounds: BTreeMap<String, Secret>,
    /// The sequence number of the event being applied; games set it through [`Self::at`].
    seq: u64,
}

impl CommitmentLedger {
    /// Tells the ledger which event sequence the following operations belong to.
    pub fn at(&mut self, seq: u64) {
        self.seq = seq;
    }

    /// The sequence number of the event being applied (what a fold remembers of a declaration
    /// whose mistake only a later reveal can show: [`crate::game::Game::revealed_violations`]).
    pub fn seq(&self) -> u64 {
        self.seq
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

    /// `KIFU-SEED-4`: a shuffle names a committed, unrevealed seed, as a digital game's must (a
    /// physical game's shuffle may name one too; it is only checked to exist).
    pub fn check_shuffle_seed(&self, mode: RandomMode, seed: Option<&str>) -> Vec<Violation> {
        let problem = match seed {
            Some(key) if self.seed_commitment(key).is_none() => format!("seed {key:?} was never committed"),
            Some(key) if self.seed_is_revealed(key) => {
                format!("seed {key:?} is already revealed, so a shuffle with it is predictable")
            }
            None if mode == RandomMode::Digital => "a digital game's shuffles name a committed seed".to_string(),
            _ => return Vec::new(),
        };
        vec![Violation::new("KIFU-SEED-4", problem)]
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
        let order = replay_segment(seg, seed, &self.sealed).ok()?;
        order.first().cloned()
    }

    /// The top card of a seeded deck was taken face down, sealed as `commitment`: privacy for the
    /// taker, and the deck order stays checkable once the seal is revealed.
    pub fn deck_took_top_sealed(&mut self, deck: &str, commitment: Commitment) {
        self.card_sealed(commitment);
        self.op(deck, DeckOp::TookTopSealed(commitment));
    }

    /// Seat `seat` committed its share of the combined seed `key`.
    pub fn share_committed(&mut self, key: &str, seat: super::Seat, commitment: Commitment) {
        self.combined.entry(key.to_string()).or_default().shares.insert(seat, SeedEntry { commitment, revealed: None });
    }

    /// Seat `seat` revealed its share of the combined seed `key`.
    pub fn share_revealed(&mut self, key: &str, seat: super::Seat, share: Secret) {
        if let Some(e) = self.combined.get_mut(key).and_then(|c| c.shares.get_mut(&seat)) {
            e.revealed = Some(share);
        }
    }

    /// Checks a share commitment: one per seat, and none once the reveals began (`KIFU-SEED-5`).
    pub fn check_share_commit(&self, key: &str, seat: super::Seat) -> Vec<Violation> {
        let Some(c) = self.combined.get(key) else { return vec![] };
        if c.shares.contains_key(&seat) {
            return vec![Violation::new(
                "KIFU-SEED-5",
                format!("seat {seat} already committed a share of seed {key:?}"),
            )];
        }
        if c.shares.values().any(|e| e.revealed.is_some()) {
            return vec![Violation::new(
                "KIFU-SEED-5",
                format!("seat {seat} committed a share of seed {key:?} after shares were revealed"),
            )];
        }
        vec![]
    }

    /// Checks a share reveal: every seat of `contributors` committed first (`KIFU-SEED-5`), and the
    /// share matches its commitment (`KIFU-SEED-1`).
    pub fn check_share_reveal(
        &self,
        key: &str,
        seat: super::Seat,
        share: &Secret,
        contributors: &[super::Seat],
    ) -> Vec<Violation> {
        let Some(c) = self.combined.get(key) else {
            return vec![Violation::new("KIFU-SEED-4", format!("seed {key:?} has no committed shares"))];
        };
        let mut out: Vec<Violation> =
            revealed_early(contributors, |s| c.shares.contains_key(s), &format!("a share of seed {key:?}"))
                .into_iter()
                .collect();
        match c.shares.get(&seat) {
            None => out.push(Violation::new("KIFU-SEED-1", format!("seat {seat} never committed a share of {key:?}"))),
            Some(e) if e.revealed.is_some() => {
                out.push(Violation::new("KIFU-SEED-1", format!("seat {seat}'s share of {key:?} was already revealed")))
            }
            Some(e) if commit_seed(share) != e.commitment => out.push(Violation::new(
                "KIFU-SEED-1",
                format!("seat {seat}'s revealed share of {key:?} does not match its commitment {}", e.commitment),
            )),
            Some(_) => {}
        }
        out
    }

    /// Whether `key` names a seed: a dealer's seed or a combined one.
    pub fn has_seed(&self, key: &str) -> bool {
        self.seeds.contains_key(key) || self.combined.contains_key(key) || self.chain_rounds.contains_key(key)
    }

    /// The seed `key` if it is known yet: a revealed dealer seed, or a combined seed whose every
    /// committed share is revealed.
    pub fn seed_value(&self, key: &str) -> Option<Secret> {
        match self.seeds.get(key) {
            Some(e) => e.revealed,
            None => self.combined.get(key).and_then(|c| c.value(key)).or_else(|| self.chain_rounds.get(key).copied()),
        }
    }

    /// The `n` the next roll or pick from seed `key` will use.
    pub fn next_draw(&self, key: &str) -> u32 {
        self.drawn.get(key).copied().unwrap_or(0)
    }

    /// Checks a die roll: the value is on the die (`KIFU-DIE-1`), the mode fits (`KIFU-DIE-3`),
    /// the seed exists (`KIFU-SEED-4`), and, when the seed is already known (a combined seed,
    /// revealed before the roll), the value is the one it derives (`KIFU-DIE-2`).
    pub fn check_die(&self, mode: RandomMode, seed: Option<&str>, sides: u32, value: u32) -> Vec<Violation> {
        let mut out = Vec::new();
        if sides == 0 || value == 0 || value > sides {
            out.push(Violation::new("KIFU-DIE-1", format!("rolled {value} on a die with {sides} sides")));
        }
        out.extend(self.check_seeded(mode, seed, |s, key, n| {
            let want = die_roll(s, key, n, sides);
            (want != value).then(|| format!("the seed rolls {want} on d{sides}, not {value} (draw #{n} of {key:?})"))
        }));
        out
    }

    /// Checks a random pick of index `index` among `count` choices, like [`Self::check_die`].
    pub fn check_pick(&self, mode: RandomMode, seed: Option<&str>, count: u32, index: u32) -> Vec<Violation> {
        let mut out = Vec::new();
        if index >= count {
            out.push(Violation::new("KIFU-DIE-1", format!("picked choice {index} of {count}")));
        }
        out.extend(self.check_seeded(mode, seed, |s, key, n| {
            let want = random_pick(s, key, n, count);
            (want != index)
                .then(|| format!("the seed picks choice {want} of {count}, not {index} (draw #{n} of {key:?})"))
        }));
        out
    }

    fn check_seeded(
        &self,
        mode: RandomMode,
        seed: Option<&str>,
        differs: impl Fn(&Secret, &str, u32) -> Option<String>,
    ) -> Vec<Violation> {
        match (mode, seed) {
            (RandomMode::Physical, Some(key)) => vec![Violation::new(
                "KIFU-DIE-3",
                format!("a physical table's result names seed {key:?}; record the result as it fell"),
            )],
            (RandomMode::Digital, None) => {
                vec![Violation::new("KIFU-DIE-3", "a digital table's result must derive from a committed seed")]
            }
            (RandomMode::Physical, None) => vec![],
            (RandomMode::Digital, Some(key)) if !self.has_seed(key) => {
                vec![Violation::new("KIFU-SEED-4", format!("seed {key:?} was never committed"))]
            }
            (RandomMode::Digital, Some(key)) => match self.seed_value(key) {
                Some(s) => {
                    differs(&s, key, self.next_draw(key)).map(|m| Violation::new("KIFU-DIE-2", m)).into_iter().collect()
                }
                None => vec![],
            },
        }
    }

    /// A die was rolled; with `seed`, the audit re-derives it once the seed is known.
    pub fn die_rolled(&mut self, seed: Option<&str>, sides: u32, value: u32) {
        self.drawn_from(seed, Draw::Die { sides, value });
    }

    /// A random pick chose `index` of `count`; with `seed`, the audit re-derives it.
    pub fn random_picked(&mut self, seed: Option<&str>, count: u32, index: u32) {
        self.drawn_from(seed, Draw::Pick { count, index });
    }

    fn drawn_from(&mut self, seed: Option<&str>, draw: Draw) {
        let Some(key) = seed else { return };
        if let Some((c, round)) = self.chain_of_round_mut(key) {
            if round == c.round {
                c.drawn = true;
            }
        }
        let n = self.drawn.entry(key.to_string()).or_insert(0);
        self.draws.push(DrawEntry { seq: self.seq, key: key.to_string(), n: *n, draw });
        *n += 1;
    }

    /// Seat `seat` committed to the tip of its hash chain `key`.
    pub fn chain_committed(&mut self, key: &str, seat: super::Seat, tip: Commitment) {
        self.chains.entry(key.to_string()).or_default().last.entry(seat).or_insert(tip);
    }

    /// Checks a chain commitment: one per seat, before any link is revealed (`KIFU-SEED-5`).
    pub fn check_chain_commit(&self, key: &str, seat: super::Seat) -> Vec<Violation> {
        let Some(c) = self.chains.get(key) else { return vec![] };
        if c.last.contains_key(&seat) {
            return vec![Violation::new("KIFU-SEED-5", format!("seat {seat} already committed a chain for {key:?}"))];
        }
        if !c.reveals.is_empty() {
            return vec![Violation::new(
                "KIFU-SEED-5",
                format!("seat {seat} committed a chain for {key:?} after links were revealed"),
            )];
        }
        vec![]
    }

    /// Seat `seat` revealed its next link of chain `key`: the first link after a draw opens a new round.
    pub fn chain_link_revealed(&mut self, key: &str, seat: super::Seat, link: Secret) {
        let Some(c) = self.chains.get_mut(key) else { return };
        if c.drawn {
            c.round += 1;
            c.links.clear();
            c.drawn = false;
        }
        c.links.insert(seat, link);
        c.last.insert(seat, link);
        *c.reveals.entry(seat).or_insert(0) += 1;
        let links: Vec<(super::Seat, Secret)> = c.links.iter().map(|(s, l)| (*s, *l)).collect();
        let round = c.round;
        self.chain_rounds.insert(chain_round_key(key, round), chain_round_seed(key, round, &links));
    }

    /// Checks a link reveal: the seat committed a chain (`KIFU-SEED-4`), every seat of
    /// `contributors` committed before the first reveal (`KIFU-SEED-5`), the link hashes to the
    /// seat's last one (`KIFU-SEED-1`), and the seat has not revealed for this round yet (`KIFU-SEED-5`).
    pub fn check_chain_reveal(
        &self,
        key: &str,
        seat: super::Seat,
        link: &Secret,
        contributors: &[super::Seat],
    ) -> Vec<Violation> {
        let Some(c) = self.chains.get(key) else {
            return vec![Violation::new("KIFU-SEED-4", format!("no seat committed a chain for {key:?}"))];
        };
        let mut out: Vec<Violation> =
            revealed_early(contributors, |s| c.last.contains_key(s), &format!("a link of chain {key:?}"))
                .into_iter()
                .collect();
        match c.last.get(&seat) {
            None => out.push(Violation::new("KIFU-SEED-4", format!("seat {seat} committed no chain for {key:?}"))),
            Some(last) if commit_seed(link) != *last => out.push(Violation::new(
                "KIFU-SEED-1",
                format!("seat {seat}'s link does not hash to its last link of chain {key:?}"),
            )),
            Some(_) => {}
        }
        if !c.drawn && c.links.contains_key(&seat) {
            out.push(Violation::new(
                "KIFU-SEED-5",
                format!("seat {seat} already revealed a link for round {} of chain {key:?}", c.round),
            ));
        }
        out
    }

    /// Whether seat `seat` committed a chain for `key`.
    pub fn chain_is_committed(&self, key: &str, seat: super::Seat) -> bool {
        self.chains.get(key).is_some_and(|c| c.last.contains_key(&seat))
    }

    /// The seed key the next draw from chain `key` names: its current round, or the next one
    /// once the current was drawn from (then every seat must reveal again).
    pub fn chain_round(&self, key: &str) -> String {
        let c = self.chains.get(key);
        let round = c.map_or(0, |c| c.round + u32::from(c.drawn));
        chain_round_key(key, round)
    }

    /// If `seat` must reveal a link of chain `key` before the next draw, how many it revealed so
    /// far (which link is next), for an agent holding the chain.
    pub fn chain_link_due(&self, key: &str, seat: super::Seat) -> Option<u32> {
        let c = self.chains.get(key)?;
        (c.drawn || !c.links.contains_key(&seat)).then(|| c.reveals.get(&seat).copied().unwrap_or(0))
    }

    /// The seats of `contributors` that still owe their link to the open round of chain `key`:
    /// a round opens with its first link and closes when the last contributor reveals (or a draw
    /// uses it). Empty when no round is open. A reveal round is a simultaneous step: every seat
    /// listed here may reveal now, in any order ("who may act").
    pub fn chain_round_owed(&self, key: &str, contributors: &[super::Seat]) -> Vec<super::Seat> {
        let Some(c) = self.chains.get(key) else { return vec![] };
        if c.drawn || c.links.is_empty() {
            return vec![];
        }
        contributors.iter().copied().filter(|s| !c.links.contains_key(s)).collect()
    }

    /// The current round of chain `key` and its seed, once every seat of `contributors` revealed
    /// (a round may serve several draws in a row, e.g. the dice of one cost).
    pub fn chain_round_ready(&self, key: &str, contributors: &[super::Seat]) -> Option<(String, Secret)> {
        let c = self.chains.get(key)?;
        if contributors.iter().any(|s| !c.links.contains_key(s)) || c.links.is_empty() {
            return None;
        }
        let round = chain_round_key(key, c.round);
        self.chain_rounds.get(&round).map(|s| (round, *s))
    }

    /// `KIFU-CHAIN-1`: a draw naming a hash-chain round must name the chain's current round, after
    /// every seat of `contributors` revealed its link for it (so nobody knew the value beforehand,
    /// and nobody can go back to an earlier round it liked better).
    pub fn check_chain_draw(&self, seed: Option<&str>, contributors: &[super::Seat]) -> Vec<Violation> {
        let Some((key, round)) = seed.and_then(split_round) else { return vec![] };
        let Some(c) = self.chains.get(key) else { return vec![] };
        if round != c.round {
            return vec![Violation::new(
                "KIFU-CHAIN-1",
                format!("a draw from round {round} of chain {key:?}, whose current round is {}", c.round),
            )];
        }
        let missing: Vec<String> =
            contributors.iter().filter(|s| !c.links.contains_key(s)).map(|s| format!("seat {s}")).collect();
        if missing.is_empty() {
            vec![]
        } else {
            vec![Violation::new(
                "KIFU-CHAIN-1",
                format!("a draw from round {round} of chain {key:?} before {} revealed a link", missing.join(", ")),
            )]
        }
    }

    fn chain_of_round_mut(&mut self, seed: &str) -> Option<(&mut HashChains, u32)> {
        let (key, round) = split_round(seed)?;
        self.chains.get_mut(key).map(|c| (c, round))
    }

    /// Seat `seat` sealed its choice `key`.
    pub fn choice_sealed(&mut self, key: &str, seat: super::Seat, commitment: Commitment) {
        self.choices.entry((key.to_string(), seat)).or_insert(ChoiceEntry { commitment, revealed: None });
    }

    /// Checks a choice seal: one per seat and key (`KIFU-SEAL-2`).
    pub fn check_choice_seal(&self, key: &str, seat: super::Seat) -> Vec<Violation> {
        match self.choices.get(&(key.to_string(), seat)) {
            Some(_) => vec![Violation::new("KIFU-SEAL-2", format!("seat {seat} already sealed a choice for {key:?}"))],
            None => vec![],
        }
    }

    /// Checks a choice reveal against its seal (`KIFU-SEAL-2`).
    pub fn check_choice_reveal(&self, key: &str, seat: super::Seat, choice: &str, salt: &Secret) -> Vec<Violation> {
        match self.choices.get(&(key.to_string(), seat)) {
            None => vec![Violation::new("KIFU-SEAL-2", format!("seat {seat} sealed no choice for {key:?}"))],
            Some(e) if e.revealed.is_some() => {
                vec![Violation::new("KIFU-SEAL-2", format!("seat {seat}'s choice for {key:?} was already revealed"))]
            }
            Some(e) if seal_choice(key, choice, salt) != e.commitment => vec![Violation::new(
                "KIFU-SEAL-2",
                format!(
                    "seat {seat}'s revealed choice {choice:?} for {key:?} does not match its seal {}",
                    e.commitment
                ),
            )],
            Some(_) => vec![],
        }
    }

    pub fn choice_revealed(&mut self, key: &str, seat: super::Seat, choice: &str) {
        if let Some(e) = self.choices.get_mut(&(key.to_string(), seat)) {
            e.revealed = Some(choice.to_string());
        }
    }

    /// The revealed choice of `seat` for `key`, if any.
    pub fn revealed_choice(&self, key: &str, seat: super::Seat) -> Option<&str> {
        self.choices.get(&(key.to_string(), seat)).and_then(|e| e.revealed.as_deref())
    }

    /// Whether `seat` sealed a choice for `key`.
    pub fn has_sealed_choice(&self, key: &str, seat: super::Seat) -> bool {
        self.choices.contains_key(&(key.to_string(), seat))
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

    /// The sequence number of the event that sealed `commitment`, if a card was sealed under it:
    /// where a false statement about the sealed card was made, found when it is revealed.
    pub fn sealed_at(&self, commitment: &Commitment) -> Option<u64> {
        self.sealed.get(commitment).map(|e| e.sealed_at)
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
        for (key, c) in &self.combined {
            for (seat, e) in &c.shares {
                if e.revealed.is_none() {
                    out.push((
                        None,
                        Violation::new(
                            "KIFU-SEED-3",
                            format!("seat {seat}'s share of seed {key:?} was committed but never revealed"),
                        ),
                    ));
                }
            }
        }
        for d in &self.draws {
            let Some(seed) = self.seed_value(&d.key) else { continue };
            let wrong = match d.draw {
                Draw::Die { sides, value } => {
                    let want = die_roll(&seed, &d.key, d.n, sides);
                    (want != value).then(|| format!("rolled {value} on d{sides}, but the seed rolls {want}"))
                }
                Draw::Pick { count, index } => {
                    let want = random_pick(&seed, &d.key, d.n, count);
                    (want != index).then(|| format!("picked choice {index} of {count}, but the seed picks {want}"))
                }
            };
            if let Some(m) = wrong {
                out.push((Some(d.seq), Violation::new("KIFU-DIE-2", format!("seed {:?}, draw #{}: {m}", d.key, d.n))));
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
                if let Err((seq, v)) = replay_segment(seg, &seed, &self.sealed) {
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

/// `"{key}/{round}"` split into the chain key and the round.
fn split_round(seed: &str) -> Option<(&str, u32)> {
    let (key, round) = seed.rsplit_once('/')?;
    Some((key, round.parse().ok()?))
}

/// Replays one segment of a seeded deck; returns the resulting order or the first deviation.
fn replay_segment(
    seg: &Segment,
    seed: &Secret,
    sealed: &BTreeMap<Commitment, SealedEntry>,
) -> Result<Vec<String>, (u64, String)> {
    let mut order: std::collections::VecDeque<String> =
        seeded_order(seed, &seg.deck, seg.shuffle_no, &seg.contents).into();
    for (seq, op) in &seg.ops {
        match op {
            DeckOp::TookTop(card) => match order.pop_front() {
                Some(top) if &top == card => {}
                Some(top) => return Err((*seq, format!("took {card} but the seeded order had {top} on top"))),
                None => return Err((*seq, format!("took {card} from a deck the seeded order says was empty"))),
            },
            DeckOp::TookTopSealed(c) => match (order.pop_front(), sealed.get(c).and_then(|e| e.revealed.as_ref())) {
                (Some(top), Some(card)) if &top != card => {
                    return Err((*seq, format!("took sealed {card} but the seeded order had {top} on top")))
                }
                (None, _) => {
                    return Err((*seq, "took a sealed card from a deck the seeded order says was empty".into()))
                }
                _ => {}
            },
            DeckOp::PutTop(card) => order.push_front(card.clone()),
            DeckOp::PutBottom(card) => order.push_back(card.clone()),
        }
    }
    Ok(order.into())
}

/// `KIFU-SEED-5`: `what` was revealed before every seat of `contributors` had committed.
fn revealed_early(
    contributors: &[super::Seat],
    committed: impl Fn(&super::Seat) -> bool,
    what: &str,
) -> Option<Violation> {
    let missing: Vec<String> = contributors.iter().filter(|s| !committed(s)).map(|s| format!("seat {s}")).collect();
    (!missing.is_empty())
        .then(|| Violation::new("KIFU-SEED-5", format!("{what} was revealed before {} committed", missing.join(", "))))
}
