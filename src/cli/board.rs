//! Renders a game's [`BoardView`] as terminal tables, the same way for every game.

use comfy_table::Table;
use kifu::game::view::{BoardView, CardView, ZoneView};
use kifu::game::Viewer;

use super::output;

fn card(c: &CardView) -> String {
    match c {
        CardView::Known { card, name, statuses, .. } if statuses.is_empty() => format!("{card} {name}"),
        CardView::Known { card, name, statuses, .. } => format!("{card} {name} [{}]", statuses.join(", ")),
        CardView::Hidden => "▮".to_string(),
    }
}

fn zone_cards(z: &ZoneView) -> String {
    let mut parts: Vec<String> = Vec::new();
    if !z.cards.is_empty() {
        let hidden = z.cards.iter().filter(|c| matches!(c, CardView::Hidden)).count();
        if hidden == z.cards.len() {
            parts.push(format!("{hidden} face down"));
        } else {
            parts.push(z.cards.iter().map(card).collect::<Vec<_>>().join(", "));
        }
    }
    for g in &z.groups {
        let facts = if g.facts.is_empty() { String::new() } else { format!(" ({})", g.facts.join("; ")) };
        parts.push(format!("{}: {}{facts}", g.label, g.cards.iter().map(card).collect::<Vec<_>>().join(", ")));
    }
    if parts.is_empty() && z.count > 0 {
        parts.push("hidden".into());
    }
    parts.join("\n")
}

/// Who is looking, in words.
pub fn viewer_name(v: Viewer, players: &[String]) -> String {
    match v {
        Viewer::Player(s) => format!("{} (seat {s})", players.get(usize::from(s)).map_or("?", String::as_str)),
        Viewer::Spectator => "spectator".into(),
        Viewer::Judge => "judge (everything)".into(),
    }
}

/// The board as a list of tables: one per seat, then the shared zones and facts.
pub fn tables(board: &BoardView) -> Vec<(String, Table)> {
    let mut out = Vec::new();
    for seat in &board.seats {
        let active = if board.active == Some(seat.seat) { " — to act" } else { "" };
        let title = format!("{} (seat {}){active}", seat.name, seat.seat);
        let mut t = output::table(["zone", "cards", "contents"]);
        if !seat.counters.is_empty() {
            let counters = seat.counters.iter().map(|(k, v)| format!("{k}: {v}")).collect::<Vec<_>>().join("   ");
            t.add_row(["counters".to_string(), String::new(), counters]);
        }
        for z in &seat.zones {
            t.add_row([z.zone.clone(), z.count.to_string(), zone_cards(z)]);
        }
        out.push((title, t));
    }
    if !board.shared.is_empty() || !board.facts.is_empty() {
        let mut t = output::table(["shared", "cards", "contents"]);
        for z in &board.shared {
            t.add_row([z.zone.clone(), z.count.to_string(), zone_cards(z)]);
        }
        for (k, v) in &board.facts {
            t.add_row([k.clone(), String::new(), v.clone()]);
        }
        out.push(("table".to_string(), t));
    }
    out
}

/// Prints the board with a heading line.
pub fn print(board: &BoardView, players: &[String], heading: &str) {
    let active = board.active.and_then(|s| players.get(usize::from(s))).map_or("-".to_string(), Clone::clone);
    println!("{heading}");
    println!(
        "turn {} · phase {} · to act: {active} · seen by {}",
        board.turn,
        board.phase,
        viewer_name(board.viewer, players)
    );
    for (title, t) in tables(board) {
        println!("{title}");
        println!("{t}");
    }
    if let Some(o) = &board.outcome {
        println!("Result: {} ({})", o.headline(players), o.reason);
    }
}

/// Parses `--as`: p1, p2, ... (1-based seats), a player's name, `spectator` or `judge`.
pub fn parse_viewer(text: &str, players: &[String]) -> Result<Viewer, String> {
    match text {
        "spectator" => return Ok(Viewer::Spectator),
        "judge" => return Ok(Viewer::Judge),
        _ => {}
    }
    if let Some(n) = text.strip_prefix('p').and_then(|n| n.parse::<usize>().ok()) {
        if (1..=players.len()).contains(&n) {
            return u8::try_from(n - 1).map(Viewer::Player).map_err(|e| e.to_string());
        }
    }
    if let Some(i) = players.iter().position(|p| p == text) {
        return u8::try_from(i).map(Viewer::Player).map_err(|e| e.to_string());
    }
    Err(format!(
        "unknown viewer {text:?}: use p1..p{}, a player's name ({}), spectator or judge",
        players.len(),
        players.join(", ")
    ))
}
