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
    Known {
        instance: String,
        card: String,
        name: String,
        statuses: Vec<String>,
        /// The catalog's printed numbers, as the game names them ("cost" = "3", "power" = "9000").
        stats: Vec<(String, String)>,
    },
    /// Face down or hidden from this viewer. Carries no identity, not even an instance id.
    Hidden,
}

impl CardView {
    /// A card the viewer may see, with its catalog id and name. A record can name a card its
    /// catalog lacks (an imported or forced entry), so a missing definition shows as `unknown card`.
    pub fn known<C: CatalogCard>(instance: &str, def: Option<&C>, statuses: Vec<String>) -> CardView {
        let (card, name, stats) = def.map_or_else(
            || (String::new(), String::from("unknown card"), Vec::new()),
            |d| (d.id().to_string(), d.name().to_string(), d.stats()),
        );
        CardView::Known { instance: instance.to_string(), card, name, statuses, stats }
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
    /// How the table is laid out (see [`TableLayout`]); empty means "every zone in order".
    pub layout: TableLayout,
}

impl BoardView {
    /// The board of `state` for `viewer`: turn, phase, whose turn and the outcome come from the
    /// game's own [`Game::position`](super::Game::position) and [`Game::outcome`](super::Game::outcome),
    /// so every game's view fills in only what it owns (seats, shared zones, facts, layout).
    pub fn of<G: super::Game>(
        state: &G::State,
        viewer: Viewer,
        seats: Vec<SeatView>,
        shared: Vec<ZoneView>,
        facts: Vec<(String, String)>,
        layout: TableLayout,
    ) -> BoardView {
        let pos = G::position(state);
        // Seat names come from the header: one an earlier build stored unbounded is shown cut.
        let mut seats = seats;
        for s in &mut seats {
            s.name = crate::log::limits::shown_owned(std::mem::take(&mut s.name));
        }
        BoardView {
            viewer,
            turn: pos.turn,
            phase: pos.phase.to_string(),
            active: pos.active,
            seats,
            shared,
            facts,
            outcome: G::outcome(state),
            layout,
        }
    }
}

// ---- The table layout: where each area sits, as data, so one page draws every game ----

/// Where each zone sits on the table. A seat's side is a grid of `columns` columns whose row 1 is
/// the table edge in front of that seat's player: the viewer's own seat is drawn at the bottom
/// of the screen (row 1 lowest) and the opponents at the top, mirrored (row 1 highest), so both
/// sides meet in the middle, where the shared areas sit. A zone the layout does not name is drawn
/// after the placed ones, so a game without a layout still shows everything.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct TableLayout {
    /// Grid columns on one seat's side.
    pub columns: u8,
    pub areas: Vec<AreaLayout>,
}

/// Which side of the table an area belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// Each seat's own zone of this name, on that seat's side.
    Seat,
    /// A zone of the board's `shared` list, in the middle of the table.
    Shared,
}

/// How an area's cards lie.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum AreaStyle {
    /// Face up in a row that wraps (a village, a hand).
    Row,
    /// A stack: the count, and the top cards only when they are visible (a deck, a discard pile).
    Pile,
    /// The zone's groups as the cells of a grid (`cells`), e.g. Vanguard's circles.
    Cells,
}

/// One area: a zone, its place in the seat's grid (1-based, as CSS grid lines) and its style.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AreaLayout {
    pub zone: String,
    pub side: Side,
    pub row: u8,
    pub col: u8,
    pub rows: u8,
    pub cols: u8,
    pub style: AreaStyle,
    /// For [`AreaStyle::Cells`]: each group label's cell (row, column; row 1 nearest the seat's
    /// player, as for the areas).
    pub cells: Vec<(String, u8, u8)>,
}

impl AreaLayout {
    /// An area of one seat's side.
    pub fn seat(zone: &str, row: u8, col: u8, rows: u8, cols: u8, style: AreaStyle) -> Self {
        AreaLayout { zone: zone.into(), side: Side::Seat, row, col, rows, cols, style, cells: Vec::new() }
    }

    /// A shared area in the middle of the table (its row and columns count in the same grid).
    pub fn shared(zone: &str, col: u8, cols: u8, style: AreaStyle) -> Self {
        AreaLayout { zone: zone.into(), side: Side::Shared, row: 1, col, rows: 1, cols, style, cells: Vec::new() }
    }
}

impl ZoneView {
    /// One card, one place: a card belongs to a group only while the zone holds it, and a card
    /// in a group is not listed again loose. Groups left empty (a team that went home) go.
    pub fn settle_groups(&mut self) {
        if self.groups.is_empty() {
            return;
        }
        let held: Vec<&str> = self.cards.iter().filter_map(CardView::instance).collect();
        let mut grouped: Vec<String> = Vec::new();
        for g in &mut self.groups {
            g.cards.retain(|c| c.instance().is_some_and(|i| held.contains(&i) && !grouped.iter().any(|x| x == i)));
            grouped.extend(g.cards.iter().filter_map(CardView::instance).map(str::to_string));
        }
        self.groups.retain(|g| !g.cards.is_empty());
        self.cards.retain(|c| c.instance().is_none_or(|i| !grouped.iter().any(|x| x == i)));
    }
}

impl CardView {
    /// The instance id of a visible card.
    pub fn instance(&self) -> Option<&str> {
        match self {
            CardView::Known { instance, .. } => Some(instance),
            CardView::Hidden => None,
        }
    }
}
