//! The generic board view: what a viewer may see of a game state, in one shape for every game,
//! so the CLI tables, the JSON API and the web viewer render all games with one piece of code.

use serde::Serialize;

use super::catalog::CatalogCard;
use super::Seat;

/// Who is looking. Players see their own hidden cards; spectators see only public information;
/// judges see everything the log holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Viewer {
    Player(Seat),
    Spectator,
    Judge,
}

/// A card as a viewer sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum CardView {
    /// Face up, or visible to this viewer: the catalog id, name and current statuses
    /// (e.g. "injured", "leader", "rested", "locked").
    Known { instance: String, card: String, name: String, statuses: Vec<String> },
    /// Face down or hidden from this viewer. Carries no identity, not even an instance id.
    Hidden,
}

impl CardView {
    /// A card the viewer may see, with its catalog id and name. A record can name a card its
    /// catalog lacks (an imported or forced entry), so a missing definition shows as `unknown card`.
    pub fn known<C: CatalogCard>(instance: &str, def: Option<&C>, statuses: Vec<String>) -> CardView {
        let (card, name) = def.map_or_else(
            || (String::new(), String::from("unknown card")),
            |d| (d.id().to_string(), d.name().to_string()),
        );
        CardView::Known { instance: instance.to_string(), card, name, statuses }
    }
}

/// A zone (hand, deck, village, battlefield, ...) as a viewer sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ZoneView {
    /// Stable lowercase zone name ("hand", "deck", "chakra", ...).
    pub zone: String,
    /// The number of cards in the zone, always public.
    pub count: usize,
    /// The cards, in zone order. Zones whose order and contents are hidden (a deck) list no cards.
    pub cards: Vec<CardView>,
    /// Groups within the zone, e.g. teams on a Naruto battlefield or circles on a Vanguard field.
    pub groups: Vec<GroupView>,
}

/// A labelled group of cards inside a zone (a team, a column, a circle).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GroupView {
    pub label: String,
    pub cards: Vec<CardView>,
    /// Free-form facts about the group ("power 7", "blocks team 2").
    pub facts: Vec<String>,
}

/// One seat's side of the board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SeatView {
    pub seat: Seat,
    pub name: String,
    /// Public counters ("turn marker" = "3", "rewards" = "4", "damage" = "2").
    pub counters: Vec<(String, String)>,
    pub zones: Vec<ZoneView>,
}

/// The whole board for one viewer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BoardView {
    pub viewer: Viewer,
    pub turn: u32,
    pub phase: String,
    pub active: Option<Seat>,
    pub seats: Vec<SeatView>,
    /// Shared zones and game-wide facts: a chain or stack of pending actions, shared markers.
    pub shared: Vec<ZoneView>,
    pub facts: Vec<(String, String)>,
    /// The outcome, once there is one.
    pub outcome: Option<super::Outcome>,
}
