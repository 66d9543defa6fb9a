//! Card instances, written once for every game: instance ids (`p{seat}-{index}`), a card whose
//! identity the log may have sealed ([`Held`]), and the card definitions and registered decks
//! that every state of one game shares ([`Cards`]).

use std::collections::BTreeMap;

use super::commit::Commitment;
use super::Seat;

/// The instance id of seat `seat`'s `index`-th deck card.
pub fn instance_id(seat: Seat, index: usize) -> String {
    format!("p{seat}-{index}")
}

/// The owner seat and deck index of an instance id `p{seat}-{index}`.
pub fn parse_instance(id: &str) -> Option<(Seat, usize)> {
    let (seat, index) = id.strip_prefix('p')?.split_once('-')?;
    Some((seat.parse().ok()?, index.parse().ok()?))
}

/// A card in a place that may hold face-down cards whose identity the log sealed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Held {
    Known(String),
    Sealed(Commitment),
}

impl Held {
    /// The instance id, once known.
    pub fn known(&self) -> Option<&str> {
        match self {
            Held::Known(c) => Some(c),
            Held::Sealed(_) => None,
        }
    }
}

/// A registered deck as [`Cards`] keeps it: which card id each instance names. A deck is a card
/// list (instance `p{seat}-{index}`) unless the game's instances say more (Vanguard's G deck,
/// `p{seat}-g{index}`).
pub trait RegisteredDeck {
    /// The card id of the instance whose id ends in `index` (the part after `p{seat}-`).
    fn card_at(&self, index: &str) -> Option<&String>;
}

impl RegisteredDeck for Vec<String> {
    fn card_at(&self, index: &str) -> Option<&String> {
        self.get(index.parse::<usize>().ok()?)
    }
}

/// The card definitions and the registered decks (`L`, one per seat), shared by every state of a game.
#[derive(Debug)]
pub struct Cards<D, L = Vec<String>> {
    pub defs: BTreeMap<String, D>,
    /// Each seat's registered deck, in deck-list order.
    pub decks: Vec<L>,
}

impl<D, L> Default for Cards<D, L> {
    fn default() -> Self {
        Cards { defs: BTreeMap::new(), decks: Vec::new() }
    }
}

impl<D, L: RegisteredDeck> Cards<D, L> {
    /// The definition of a card instance `p{seat}-{index}`, if the instance exists.
    pub fn def(&self, instance: &str) -> Option<&D> {
        let (seat, index) = instance.strip_prefix('p')?.split_once('-')?;
        let seat: Seat = seat.parse().ok()?;
        let id = self.decks.get(usize::from(seat))?.card_at(index)?;
        self.defs.get(id)
    }
}
