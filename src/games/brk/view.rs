//! What each viewer may see: the board as a [`BoardView`] and one-line event descriptions.
//!
//! Hidden information (digest §2.9):
//! - a hidden card's identity: its controller (BRK-HID-10) and judges, and only when the log holds
//!   it (a sealed identity is known to nobody in the core until its reveal); the opponent and
//!   spectators see a face-down card on its cell, its public piece id and markers (BRK-HID-3), not
//!   its lives (which would tell cards apart);
//! - everything else is public: face-up cards, the graveyard, the stack with every action's
//!   status and why it left, payments, gold, priority and the policies.

use super::catalog::{Resource, ResourceAmount};
use super::events::{BrkEvent, CardRef, Cell, Zone};
use super::state::{BrkState, Piece, PlayerState, Status};
use crate::game::policy::PolicyTable;
use crate::game::view::{AreaLayout, AreaStyle, CardView, GroupView, SeatView, TableLayout, ZoneView};
use crate::game::{BoardView, Seat, Viewer, Visibility};

/// Who may identify `p` (and see its lives) as it lies: the table of the module doc, as data.
/// A sealed identity is known to nobody until its reveal, which `card_view` handles: the core
/// holds no instance to show.
pub fn piece_visibility(p: &Piece) -> Visibility {
    Visibility::public_or_owner(!p.hidden, p.owner)
}

/// Whether `viewer` may identify `p` as it lies.
pub fn can_see(viewer: Viewer, p: &Piece) -> bool {
    piece_visibility(p).sees(viewer)
}

fn card_view(s: &BrkState, viewer: Viewer, p: &Piece) -> CardView {
    match (&p.instance, can_see(viewer, p)) {
        (Some(i), true) => {
            let mut statuses = Vec::new();
            if p.hidden {
                statuses.push("hidden".to_string());
            }
            if p.acted {
                statuses.push("acted".to_string());
            }
            CardView::known(i, s.def_of(p), statuses)
        }
        _ => CardView::Hidden,
    }
}

fn piece_group(s: &BrkState, viewer: Viewer, p: &Piece) -> GroupView {
    let mut facts = Vec::new();
    if p.hidden {
        facts.push("face down".to_string());
    }
    if can_see(viewer, p) && p.instance.is_some() {
        facts.push(format!("lives {}", p.lives));
    }
    if !p.markers.is_empty() {
        facts.push(format!("markers {}", p.markers.join(", ")));
    }
    // A face-up card says "acted" itself (its status); a face-down one only through its group.
    if p.acted && !matches!(card_view(s, viewer, p), CardView::Known { .. }) {
        facts.push("acted this turn".to_string());
    }
    GroupView { label: format!("{} {}", p.id, p.cell.name()), cards: vec![card_view(s, viewer, p)], facts }
}

fn resources(r: &[ResourceAmount]) -> String {
    if r.is_empty() {
        return "nothing".to_string();
    }
    r.iter()
        .map(|x| {
            let what = match x.resource {
                Resource::Gold => "gold",
                Resource::Lives => "lives",
            };
            format!("{} {what}", x.amount)
        })
        .collect::<Vec<_>>()
        .join(" + ")
}

/// Why an action left the stack, or that it has not.
pub fn status_line(st: &Status) -> String {
    match st {
        Status::OnStack => "on the stack".into(),
        Status::Interrupted { rule, why, automatic: true } => {
            format!("interrupted automatically ({rule}: {why}), unpaid")
        }
        Status::Interrupted { why, .. } => format!("interrupted ({why}), unpaid"),
        Status::Blocked { blocker } => format!("blocked by {blocker}: no effects, paid"),
        Status::Performing => "performing".into(),
        Status::Done => "done".into(),
    }
}

/// The board as `viewer` may see it.
pub fn view(s: &BrkState, viewer: Viewer) -> BoardView {
    let seats = s.players.enumerate().map(|(seat, player)| seat_view(s, viewer, seat, player)).collect();
    BoardView::of::<super::Brk>(s, viewer, seats, stack_zones(s), board_facts(s), layout())
}

/// One player's gold, count in play, role, and the pieces in each of their zones.
fn seat_view(s: &BrkState, viewer: Viewer, seat: Seat, player: &PlayerState) -> SeatView {
    let mine: Vec<&Piece> = s.pieces.iter().filter(|p| p.owner == seat).collect();
    let zone = |z: Zone, name: &str| {
        let ps: Vec<&&Piece> = mine.iter().filter(|p| p.zone == z).collect();
        ZoneView {
            zone: name.to_string(),
            count: ps.len(),
            // One card, one place: each piece is drawn once, inside its own group (its cell,
            // lives, markers), never again loose in the zone.
            cards: Vec::new(),
            groups: ps.iter().map(|p| piece_group(s, viewer, p)).collect(),
        }
    };
    SeatView {
        seat,
        name: s.name(seat),
        counters: vec![
            ("gold".to_string(), player.gold.to_string()),
            ("in play".to_string(), mine.iter().filter(|p| p.zone == Zone::Play).count().to_string()),
            ("role".to_string(), if seat == 0 { "First player" } else { "Second player" }.to_string()),
        ],
        zones: vec![zone(Zone::Play, "battlefield"), zone(Zone::Graveyard, "graveyard"), zone(Zone::Deck, "deck")],
    }
}

/// The stack, top first, and the last actions that left it.
fn stack_zones(s: &BrkState) -> Vec<ZoneView> {
    let mut stack: Vec<GroupView> = s.stack.iter().rev().filter_map(|id| action_group(s, *id)).collect();
    // Newest first: the first is the top, the one that resolves next; say so.
    if let Some(top) = stack.first_mut() {
        top.facts.insert(0, "top of the stack".to_string());
    }
    // The last actions that left the stack, newest first: bounded so a long game's view stays small.
    let left: Vec<GroupView> = s
        .actions
        .iter()
        .rev()
        .filter(|a| a.status != Status::OnStack)
        .take(8)
        .filter_map(|a| action_group(s, a.id))
        .collect();
    vec![
        ZoneView { zone: "stack".into(), count: stack.len(), cards: Vec::new(), groups: stack },
        ZoneView { zone: "left the stack".into(), count: left.len(), cards: Vec::new(), groups: left },
    ]
}

/// One action with its status and payments, or `None` for an id the state does not hold.
fn action_group(s: &BrkState, id: u32) -> Option<GroupView> {
    let a = s.action(id)?;
    let mut facts = vec![
        format!("status: {}", status_line(&a.status)),
        format!("due: {}", resources(&a.payment)),
        match &a.paid {
            Some(p) => format!("paid: {}", resources(p)),
            None => "paid: not yet".to_string(),
        },
    ];
    if !a.assumed.is_empty() {
        facts.push(format!(
            "assumed of hidden {}: [{}]",
            a.assumed.join(", "),
            a.ability.requires.clone().unwrap_or_default()
        ));
    }
    Some(GroupView {
        label: format!(
            "#{} {} ({}) by {} → {}",
            a.id,
            a.ability.name,
            a.ability.kind.name(),
            a.source,
            a.targets.join(", ")
        ),
        cards: Vec::new(),
        facts,
    })
}

fn board_facts(s: &BrkState) -> Vec<(String, String)> {
    let mut facts = vec![("phase".to_string(), s.phase.name().to_string())];
    facts.push(("priority".to_string(), s.priority.map_or("nobody".to_string(), |p| s.name(p))));
    if !s.first_turn_over {
        facts.push(("first player's first turn".to_string(), "not over (BRK-HID-4 (a) exception)".to_string()));
    }
    for (k, v) in s.policies.to_pairs() {
        facts.push((format!("policy {k}"), v));
    }
    facts.push((
        "skeleton".to_string(),
        "minimal: turns, cells, lives and victory are not from the seed (BRK-OPEN-1)".to_string(),
    ));
    facts
}

fn piece_label(s: &BrkState, viewer: Viewer, id: &str) -> String {
    match s.piece(id) {
        Some(p) if can_see(viewer, p) => match s.def_of(p) {
            Some(d) => format!("{id} ({})", d.name),
            None => id.to_string(),
        },
        _ => id.to_string(),
    }
}

/// One line for an event, as `viewer` may see it; `s` is the state before the event.
pub fn describe(s: &BrkState, event: &BrkEvent, viewer: Viewer) -> String {
    use BrkEvent::*;
    match event {
        SquadDeployed { seat, cards } => {
            let hidden = cards.iter().filter(|d| d.hidden).count();
            let sealed = cards.iter().filter(|d| matches!(d.card, CardRef::Sealed(_))).count();
            format!("{} deployed {} cards, {hidden} hidden ({sealed} sealed)", s.name(*seat), cards.len())
        }
        TurnStarted { seat, turn } => format!("turn {turn}: {}'s turn, Reveal subphase", s.name(*seat)),
        MainPhaseEntered { seat } => format!("{} entered the main phase", s.name(*seat)),
        CardRevealed { seat, piece, reason, proof } => {
            let name = proof
                .as_ref()
                .and_then(|p| s.def(&p.instance))
                .or_else(|| s.piece(piece).and_then(|p| p.instance.as_ref()).and_then(|i| s.def(i)))
                .map_or("a card".to_string(), |d| d.name.clone());
            format!("{} revealed {piece}: {name}, {}", s.name(*seat), reason.name())
        }
        GameActionDeclared { seat, source, ability, targets, payment } => {
            let ab = s.piece(source).and_then(|p| s.def_of(p)).and_then(|d| d.ability(*ability));
            let targets: Vec<String> = targets.iter().map(|t| piece_label(s, viewer, t)).collect();
            format!(
                "{} declared #{}: {} of {} on {} (due {})",
                s.name(*seat),
                s.actions.len() + 1,
                ab.map_or_else(|| format!("ability #{ability}"), |a| a.name.clone()),
                piece_label(s, viewer, source),
                targets.join(", "),
                resources(payment)
            )
        }
        PriorityPassed { seat } => format!("{} passed", s.name(*seat)),
        GameActionBlocked { seat, action, blocker, blocker_target } => {
            format!("{} blocked #{action} with {blocker}, targeting its source {blocker_target}", s.name(*seat))
        }
        GameActionInterrupted { seat, action, by, reason } => {
            format!("{} interrupted #{action} with {by}: {reason}", s.name(*seat))
        }
        GameActionPerformed { action } => format!("#{action} left the stack and is performed"),
        PaymentMade { action, resources: r } => format!("#{action} was paid: {}", resources(r)),
        EffectApplied { action, target, protected_by } => match protected_by {
            Some(h) => format!("#{action} on {target}: stopped by protection {} ({})", h.protection, h.component),
            None => format!("#{action} took effect on {}", piece_label(s, viewer, target)),
        },
        TurnEnded { seat } => format!("{} ended turn {}", s.name(*seat), s.turn),
        GameEnded { winner, reason } => match winner {
            Some(w) => format!("{} won: {reason}", s.name(*w)),
            None => format!("draw: {reason}"),
        },
        CardHidden { piece, cause } => format!("{piece} became hidden: {cause}"),
        CardOpened { piece, cause } => format!("{piece} opened: {cause}"),
        CardMoved { piece, to, cause } => format!("{piece} moved to the {}: {cause}", to.name()),
        MarkerPlaced { piece, marker, cause } => format!("{piece} got a {marker} marker: {cause}"),
        LivesChanged { piece, delta, cause } => format!("{piece} lives {delta:+}: {cause}"),
        MarkersPlacedOnReveal { piece, markers } => {
            format!("{} got its markers on reveal: {}", piece_label(s, viewer, piece), markers.join(", "))
        }
        CardsOpened { seat, pieces } => {
            let names: Vec<String> = pieces.iter().map(|p| piece_label(s, viewer, p)).collect();
            format!("{}'s cards opened for the turn: {}", s.name(*seat), names.join(", "))
        }
        CardsSentToGraveyard { pieces } => {
            let names: Vec<String> = pieces.iter().map(|p| piece_label(s, viewer, p)).collect();
            format!("no lives left, to the graveyard: {}", names.join(", "))
        }
        Common(c) => crate::game::common::describe(c, viewer, |seat| s.name(seat)),
    }
}

// ---- The table as data (drawn by the web viewer with no per-game code) ----

/// One seat's side: deck and graveyard at the player's edge, the battlefield towards the middle,
/// where the stack and what has left it lie between the two players.
pub fn layout() -> TableLayout {
    use AreaStyle::{Cells, Pile, Row};
    // The 3×5 side as a grid of cells beside the deck and graveyard: a piece's group ("B1 r1c4")
    // lies in the cell its label ends with; row 1 faces the opponent, so it is drawn furthest
    // from the seat's own edge.
    let mut battlefield = AreaLayout::seat("battlefield", 1, 1, 2, 5, Cells);
    battlefield.cells = (1..=Cell::ROWS)
        .flat_map(|row| (1..=Cell::COLS).map(move |col| Cell { row, col }))
        .map(|c| (c.name(), Cell::ROWS + 1 - c.row, c.col))
        .collect();
    TableLayout {
        columns: 6,
        areas: vec![
            AreaLayout::seat("deck", 1, 6, 1, 1, Pile),
            AreaLayout::seat("graveyard", 2, 6, 1, 1, Pile),
            battlefield,
            AreaLayout::shared("stack", 1, 4, Row),
            AreaLayout::shared("left the stack", 5, 2, Row),
        ],
    }
}
