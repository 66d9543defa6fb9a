//! Seats: how many a game seats ([`SeatRange`]) and the per-seat accessor every game state uses
//! ([`Seats`]), so no game indexes its players by hand.

use super::Seat;

/// The seat counts a game accepts, inclusive (BRK and LC: 2 to 2; FATE: 3 to 6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeatRange {
    pub min: u8,
    pub max: u8,
}

impl SeatRange {
    /// Exactly two seats.
    pub const TWO: SeatRange = SeatRange { min: 2, max: 2 };

    pub const fn new(min: u8, max: u8) -> SeatRange {
        SeatRange { min, max }
    }

    pub fn contains(&self, seats: usize) -> bool {
        usize::from(self.min) <= seats && seats <= usize::from(self.max)
    }
}

impl std::fmt::Display for SeatRange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.min == self.max {
            write!(f, "exactly {}", self.min)
        } else {
            write!(f, "{} to {}", self.min, self.max)
        }
    }
}

/// One `P` per seat, indexed by [`Seat`]. Out-of-range seats give `None`, never a panic: a forced
/// or imported event may name any seat.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Seats<P>(pub Vec<P>);

impl<P> Seats<P> {
    pub fn new(per_seat: Vec<P>) -> Self {
        Seats(per_seat)
    }

    /// The number of seats.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn get(&self, seat: Seat) -> Option<&P> {
        self.0.get(usize::from(seat))
    }

    pub fn get_mut(&mut self, seat: Seat) -> Option<&mut P> {
        self.0.get_mut(usize::from(seat))
    }

    /// Whether `seat` is one of the game's seats.
    pub fn has(&self, seat: Seat) -> bool {
        usize::from(seat) < self.0.len()
    }

    /// One value per seat, built from the header's per-seat list (decks, names).
    pub fn per_seat<T>(items: &[T], f: impl Fn(Seat, &T) -> P) -> Self {
        items.iter().enumerate().filter_map(|(i, t)| Some(f(Seat::try_from(i).ok()?, t))).collect()
    }

    /// Every seat with its value, in seat order. (`iter()` is the slice's: the values alone.)
    pub fn enumerate(&self) -> impl Iterator<Item = (Seat, &P)> {
        self.0.iter().enumerate().filter_map(|(i, p)| Some((Seat::try_from(i).ok()?, p)))
    }

    /// Every seat number, in seat order.
    pub fn seats(&self) -> impl Iterator<Item = Seat> + '_ {
        (0..self.0.len()).filter_map(|i| Seat::try_from(i).ok())
    }

    /// Applies `f` to `seat`'s value if the seat exists (the total `apply` idiom).
    pub fn update(&mut self, seat: Seat, f: impl FnOnce(&mut P)) {
        if let Some(p) = self.get_mut(seat) {
            f(p);
        }
    }
}

impl<P> std::ops::Deref for Seats<P> {
    type Target = [P];
    fn deref(&self) -> &[P] {
        &self.0
    }
}

impl<P> std::ops::DerefMut for Seats<P> {
    fn deref_mut(&mut self) -> &mut [P] {
        &mut self.0
    }
}

impl<'a, P> IntoIterator for &'a Seats<P> {
    type Item = &'a P;
    type IntoIter = std::slice::Iter<'a, P>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl<'a, P> IntoIterator for &'a mut Seats<P> {
    type Item = &'a mut P;
    type IntoIter = std::slice::IterMut<'a, P>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter_mut()
    }
}

impl<P> FromIterator<P> for Seats<P> {
    fn from_iter<I: IntoIterator<Item = P>>(iter: I) -> Self {
        Seats(iter.into_iter().collect())
    }
}
