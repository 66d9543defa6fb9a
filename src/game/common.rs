//! The events every game has, written once: seed commits and reveals (a dealer's seed or a share
//! per seat), hash-chain commitments and per-round links (many rounds of combined randomness from
//! one commitment per seat), card and choice reveals, sealed choices, die rolls and random picks, sealed draws,
//! and the escape hatches of digest §0.3 (move a card, set a counter, a note).
//!
//! A new game embeds [`CommonEvent`] in its event enum from its first version
//! (`enum MyEvent { Common(CommonEvent), ... }`), calls [`validate`] from its `validate`,
//! [`record`] from its `apply`, and [`describe`] from its `describe`. The board effects of a
//! card move or counter (zones, counters) stay the game's: [`record`] only feeds the ledger.
//! Stored format: variants are only ever appended.

use serde::{Deserialize, Serialize};

use super::commit::{seal, Commitment, CommitmentLedger, RandomMode, Secret};
use super::rules::check_seat;
use super::visibility::Visibility;
use super::{Seat, Viewer, Violation};

/// What every game records the same way.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub enum CommonEvent {
    /// A seed was committed: the dealer's (`seat: None`) or `seat`'s share of combined seed `key`.
    SeedCommitted { key: String, seat: Option<Seat>, commitment: Commitment },
    /// The seed (or `seat`'s share) behind a commitment was revealed.
    SeedRevealed { key: String, seat: Option<Seat>, seed: Secret },
    /// `seat` took the top card of `deck` face down into `zone`, sealed as `commitment`.
    TopCardTakenSealed { seat: Seat, deck: String, zone: String, commitment: Commitment },
    /// A sealed card was revealed: its identity and the salt that opens the seal.
    CardRevealed { seat: Seat, commitment: Commitment, card: String, salt: Secret },
    /// `seat` sealed its choice `key` (a simultaneous secret choice).
    ChoiceSealed { seat: Seat, key: String, commitment: Commitment },
    /// `seat` revealed its sealed choice `key`.
    ChoiceRevealed { seat: Seat, key: String, choice: String, salt: Secret },
    /// A die with `sides` sides showed `value`; `seed` names the committed seed it derives from
    /// at a digital table, and is absent at a physical one.
    DieRolled { seat: Option<Seat>, sides: u32, value: u32, seed: Option<String> },
    /// Choice `picked` (an index) of `among` was picked at random, as a die roll is.
    RandomPicked { seat: Option<Seat>, among: Vec<String>, picked: u32, seed: Option<String> },
    /// Escape hatch (digest §0.3): a card moved for a reason the core rules do not model.
    CardMoved { seat: Option<Seat>, card: String, from: String, to: String, cause: String },
    /// Escape hatch: a counter (life, a resource, a marker) was set to `value`.
    CounterSet { seat: Option<Seat>, counter: String, value: i64, cause: String },
    /// Escape hatch: a note for the record (an effect resolved, a modifier applied).
    NoteRecorded { seat: Option<Seat>, note: String },
    /// `seat` committed to the tip of its hash chain `key` (see [`super::commit::hash_chain`]): one
    /// commitment serves every round of randomness of the game.
    ChainCommitted { key: String, seat: Seat, tip: Commitment },
    /// `seat` revealed its next link of chain `key` for the chain's current round; once every seat
    /// has, rolls and picks name the round's seed ([`super::commit::chain_round_key`]).
    ChainLinkRevealed { key: String, seat: Seat, link: Secret },
}

/// What [`validate`] needs to know about the game.
pub struct Context<'a> {
    pub ledger: &'a CommitmentLedger,
    /// The number of seats.
    pub seats: usize,
    /// How randomness comes about at this table (from the header).
    pub mode: RandomMode,
    /// The seats whose shares a combined seed needs (every seat still in the game).
    pub contributors: &'a [Seat],
}

impl CommonEvent {
    /// The seat performing the event, if a player does.
    pub fn seat(&self) -> Option<Seat> {
        match self {
            CommonEvent::SeedCommitted { seat, .. } | CommonEvent::SeedRevealed { seat, .. } => *seat,
            CommonEvent::TopCardTakenSealed { seat, .. }
            | CommonEvent::CardRevealed { seat, .. }
            | CommonEvent::ChoiceSealed { seat, .. }
            | CommonEvent::ChoiceRevealed { seat, .. }
            | CommonEvent::ChainCommitted { seat, .. }
            | CommonEvent::ChainLinkRevealed { seat, .. } => Some(*seat),
            CommonEvent::DieRolled { seat, .. }
            | CommonEvent::RandomPicked { seat, .. }
            | CommonEvent::CardMoved { seat, .. }
            | CommonEvent::CounterSet { seat, .. }
            | CommonEvent::NoteRecorded { seat, .. } => *seat,
        }
    }
}

/// Every `KIFU-*` rule the event breaks. Game rules (is it this seat's moment to roll?) stay
/// in the game's `validate`.
pub fn validate(cx: &Context<'_>, event: &CommonEvent) -> Vec<Violation> {
    let mut out: Vec<Violation> = event.seat().and_then(|s| check_seat(s, cx.seats)).into_iter().collect();
    let l = cx.ledger;
    match event {
        CommonEvent::SeedCommitted { key, seat: None, .. } => {
            if l.has_seed(key) {
                out.push(Violation::new("KIFU-SEED-5", format!("seed {key:?} was already committed")));
            }
        }
        CommonEvent::SeedCommitted { key, seat: Some(seat), .. } => {
            if l.seed_commitment(key).is_some() {
                out.push(Violation::new("KIFU-SEED-5", format!("seed {key:?} is a dealer's seed, not a combined one")));
            }
            out.extend(l.check_share_commit(key, *seat));
        }
        CommonEvent::SeedRevealed { key, seat: None, seed } => out.extend(l.check_seed_reveal(key, seed)),
        CommonEvent::SeedRevealed { key, seat: Some(seat), seed } => {
            out.extend(l.check_share_reveal(key, *seat, seed, cx.contributors))
        }
        CommonEvent::TopCardTakenSealed { .. } => {}
        CommonEvent::CardRevealed { commitment, card, salt, .. } => out.extend(l.check_reveal(commitment, card, salt)),
        CommonEvent::ChoiceSealed { seat, key, .. } => out.extend(l.check_choice_seal(key, *seat)),
        CommonEvent::ChoiceRevealed { seat, key, choice, salt } => {
            out.extend(l.check_choice_reveal(key, *seat, choice, salt))
        }
        CommonEvent::DieRolled { sides, value, seed, .. } => {
            out.extend(l.check_die(cx.mode, seed.as_deref(), *sides, *value));
            out.extend(l.check_chain_draw(seed.as_deref(), cx.contributors));
        }
        CommonEvent::RandomPicked { among, picked, seed, .. } => {
            let count = u32::try_from(among.len()).unwrap_or(u32::MAX);
            out.extend(l.check_pick(cx.mode, seed.as_deref(), count, *picked));
            out.extend(l.check_chain_draw(seed.as_deref(), cx.contributors));
        }
        CommonEvent::CardMoved { .. } | CommonEvent::CounterSet { .. } | CommonEvent::NoteRecorded { .. } => {}
        CommonEvent::ChainCommitted { key, seat, .. } => {
            out.extend(physical_chain(cx.mode));
            out.extend(l.check_chain_commit(key, *seat));
        }
        CommonEvent::ChainLinkRevealed { key, seat, link } => {
            out.extend(physical_chain(cx.mode));
            out.extend(l.check_chain_reveal(key, *seat, link, cx.contributors));
        }
    }
    out
}

/// A physical table records results as they fell: it has no hash chains (`KIFU-DIE-3`).
fn physical_chain(mode: RandomMode) -> Option<Violation> {
    (mode == RandomMode::Physical)
        .then(|| Violation::new("KIFU-DIE-3", "a physical table records results as they fell; it has no hash chains"))
}

/// The ledger's part of applying the event (total). The game applies board effects itself.
pub fn record(ledger: &mut CommitmentLedger, event: &CommonEvent) {
    match event {
        CommonEvent::SeedCommitted { key, seat: None, commitment } => ledger.seed_committed(key, *commitment),
        CommonEvent::SeedCommitted { key, seat: Some(seat), commitment } => {
            ledger.share_committed(key, *seat, *commitment)
        }
        CommonEvent::SeedRevealed { key, seat: None, seed } => ledger.seed_revealed(key, *seed),
        CommonEvent::SeedRevealed { key, seat: Some(seat), seed } => ledger.share_revealed(key, *seat, *seed),
        CommonEvent::TopCardTakenSealed { deck, commitment, .. } => ledger.deck_took_top_sealed(deck, *commitment),
        CommonEvent::CardRevealed { commitment, card, .. } => ledger.card_revealed(commitment, card),
        CommonEvent::ChoiceSealed { seat, key, commitment } => ledger.choice_sealed(key, *seat, *commitment),
        CommonEvent::ChoiceRevealed { seat, key, choice, .. } => ledger.choice_revealed(key, *seat, choice),
        CommonEvent::DieRolled { sides, value, seed, .. } => ledger.die_rolled(seed.as_deref(), *sides, *value),
        CommonEvent::RandomPicked { among, picked, seed, .. } => {
            ledger.random_picked(seed.as_deref(), u32::try_from(among.len()).unwrap_or(u32::MAX), *picked)
        }
        CommonEvent::CardMoved { .. } | CommonEvent::CounterSet { .. } | CommonEvent::NoteRecorded { .. } => {}
        CommonEvent::ChainCommitted { key, seat, tip } => ledger.chain_committed(key, *seat, *tip),
        CommonEvent::ChainLinkRevealed { key, seat, link } => ledger.chain_link_revealed(key, *seat, *link),
    }
}

/// One line for the event as `viewer` may see it; `name` gives a seat's display name. Seeds and
/// salts are never printed; a revealed card is public from its reveal on.
pub fn describe(event: &CommonEvent, viewer: Viewer, name: impl Fn(Seat) -> String) -> String {
    let who = |s: &Option<Seat>| s.map_or_else(|| "the dealer".to_string(), &name);
    match event {
        CommonEvent::SeedCommitted { key, seat, commitment } => {
            format!("{} committed seed {key:?} ({commitment})", who(seat))
        }
        CommonEvent::SeedRevealed { key, seat, .. } => format!("{} revealed seed {key:?}", who(seat)),
        CommonEvent::TopCardTakenSealed { seat, deck, zone, commitment } => {
            format!("{} took the top card of {deck} face down into {zone} (sealed {commitment})", name(*seat))
        }
        CommonEvent::CardRevealed { seat, card, .. } => format!("{} revealed {card}", name(*seat)),
        CommonEvent::ChoiceSealed { seat, key, .. } => format!("{} sealed a choice for {key:?}", name(*seat)),
        CommonEvent::ChoiceRevealed { seat, key, choice, .. } => {
            format!("{} revealed {choice:?} for {key:?}", name(*seat))
        }
        CommonEvent::DieRolled { seat, sides, value, seed } => {
            let from = seed.as_ref().map(|k| format!(" from seed {k:?}")).unwrap_or_default();
            format!("{} rolled {value} on d{sides}{from}", who(seat))
        }
        CommonEvent::RandomPicked { seat, among, picked, .. } => {
            let what = among.get(*picked as usize).map_or("?", String::as_str);
            format!("{} picked {what} at random from {} choices", who(seat), among.len())
        }
        CommonEvent::CardMoved { seat, card, from, to, cause } => {
            // The card's identity follows the zones' visibility, which only the game knows; the
            // escape hatch shows it to the mover and judges.
            let owner = seat.map_or(Visibility::Judge, Visibility::Owner);
            let card = if owner.sees(viewer) { card.as_str() } else { "a card" };
            format!("{} moved {card} from {from} to {to}: {cause}", who(seat))
        }
        CommonEvent::CounterSet { seat, counter, value, cause } => {
            format!("{} set {counter} to {value}: {cause}", who(seat))
        }
        CommonEvent::NoteRecorded { seat, note } => format!("{}: note: {note}", who(seat)),
        CommonEvent::ChainCommitted { key, seat, tip } => {
            format!("{} committed a hash chain for {key:?} ending in {tip}", name(*seat))
        }
        CommonEvent::ChainLinkRevealed { key, seat, .. } => {
            format!("{} revealed the next link of its chain {key:?}", name(*seat))
        }
    }
}

/// Seals `card` with a fresh salt from `rng`: the commitment to log and the salt to keep.
pub fn seal_with(card: &str, rng: &mut super::AgentRng) -> (Commitment, Secret) {
    use rand::RngExt;
    let salt = Commitment(rng.random());
    (seal(card, &salt), salt)
}
