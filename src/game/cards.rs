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

/// The card definitions and the registered decks, shared by every state of a game.
#[derive(Debug)]
pub struct Cards<D> {
    pub defs: BTreeMap<String, D>,
    /// Card ids per seat, in deck-list order.
    pub decks: Vec<Vec<String>>,
}

impl<D> Default for Cards<D> {
    fn default() -> Self {
        Cards { defs: BTreeMap::new(), decks: Vec::new() }
    }
}

impl<D> Cards<D> {
    /// The definition of a card instance, if the instance exists.
    pub fn def(&self, instance: &str) -> Option<&D> {
        let (seat, index) = parse_instance(instance)?;
        let id = self.decks.get(usize::from(seat))?.get(index)?;
        self.defs.get(id)
    }
}
