//! Visibility as data: who may see a piece of information. Games tag zones and event details
//! with a [`Visibility`]; views and descriptions ask [`Visibility::sees`], so adding a team (or a
//! new kind of viewer) is a change in one place.

use serde::Serialize;

use super::{Seat, Viewer};

/// Who may see something.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Visibility {
    /// Everyone, spectators included.
    Public,
    /// The owning seat and judges.
    Owner(Seat),
    /// Judges only (what the log holds but no player knows, e.g. a seed before its reveal).
    Judge,
    /// Nobody: not recorded in the clear (a sealed card's identity before its reveal).
    Nobody,
}

impl Visibility {
    /// Whether `viewer` may see what this visibility guards.
    pub fn sees(self, viewer: Viewer) -> bool {
        match (self, viewer) {
            (Visibility::Public, _) => true,
            (Visibility::Nobody, _) => false,
            (_, Viewer::Judge) => true,
            (Visibility::Owner(owner), Viewer::Player(seat)) => owner == seat,
            (Visibility::Owner(_) | Visibility::Judge, _) => false,
        }
    }

    /// `Public` when `public`, else visible to `owner` (the usual OPEN-point policy shape:
    /// "is the soul public?").
    pub fn public_or_owner(public: bool, owner: Seat) -> Visibility {
        if public {
            Visibility::Public
        } else {
            Visibility::Owner(owner)
        }
    }
}
