//! What each viewer may see: the board as a [`BoardView`] and one-line event descriptions.
//!
//! Hidden information (digest §3.14):
//! - hand: its owner and judges; everyone else sees the count (a card drawn sealed is hidden from
//!   everyone until it is revealed or played);
//! - Draw Pile: the count only, for everyone (its order is unknown);
//! - face-down field cards (LC-FIELD-4): their owner and judges, until flipped; others see that
//!   a card lies there, not its identity or values;
//! - face-up field cards, attachments, the Dead Zone, Combat Points and line points: public.
//!
//! The same table as data: [`zone_visibility`] and [`field_visibility`] give a
//! [`Visibility`]; views and descriptions ask it, never the viewer directly.
//!
//! The board's facts list every policy in force, so the choice made for each OPEN point is visible.

use super::events::{CardRef, CommonEvent, LcEvent, Line, LinePointLost, PointsLost, ProtectFrom, Stat, Zone};
use super::state::{FieldCard, Held, LcState};
use crate::game::policy::Choice;
use crate::game::policy::PolicyTable;
use crate::game::view::{AreaLayout, AreaStyle, CardView, GroupView, SeatView, TableLayout, ZoneView};
use crate::game::{BoardView, Seat, Viewer, Visibility};

/// Who may see the identities of cards in `seat`'s `zone`: the table of the module doc, as data.
/// A line holds face-up cards here; a face-down one is [`field_visibility`]'s.
pub fn zone_visibility(seat: Seat, zone: Zone) -> Visibility {
    match zone {
        Zone::Attack | Zone::Defense | Zone::Strategy | Zone::DeadZone => Visibility::Public,
        Zone::Hand => Visibility::Owner(seat),
        Zone::DrawPile | Zone::DrawPileBottom => Visibility::Nobody,
    }
}

/// A field card: public face up, its owner's face down (LC-FIELD-4).
pub fn field_visibility(seat: Seat, face_down: bool) -> Visibility {
    Visibility::public_or_owner(!face_down, seat)
}

/// Who may identify `card` where it is now; a card in no visible place (a Draw Pile, or held
/// sealed) is the judges' alone.
pub fn card_visibility(s: &LcState, card: &str) -> Visibility {
    for (seat, p) in s.players.enumerate() {
        if p.known_in_hand(card) {
            return zone_visibility(seat, Zone::Hand);
        }
        if let Some(f) = p.field_card(card) {
            return field_visibility(seat, f.face_down);
        }
        if p.host_of(card).is_some() || p.dead.iter().any(|c| c == card) {
            return Visibility::Public;
        }
    }
    Visibility::Judge
}

/// The phase name for positions and views.
pub fn phase(s: &LcState) -> &'static str {
    if s.result.is_some() {
        "over"
    } else if s.round == 0 {
        "setup"
    } else if s.combat_phase() {
        "combat"
    } else {
        "placement"
    }
}

/// The step within the turn: `attack` while an attack is pending, `refill` once drawn, `main` otherwise.
pub fn step(s: &LcState) -> &'static str {
    match (&s.result, &s.turn, &s.attack) {
        (Some(_), ..) => "over",
        (_, None, _) => phase(s),
        (_, Some(_), Some(_)) => "attack",
        (_, Some(t), None) if t.refilled => "refill",
        (_, Some(t), None) if !t.acted => "start",
        _ => "main",
    }
}

/// Whether `viewer` may identify `card` where it is now.
pub fn visible_now(s: &LcState, viewer: Viewer, card: &str) -> bool {
    card_visibility(s, card).sees(viewer)
}

/// `LC-C01 Iron Squire (invented) (p0-3)`.
pub fn label(s: &LcState, instance: &str) -> String {
    crate::game::catalog::instance_label(s.def(instance), instance)
}

/// The label if `viewer` may see the card now, else `a card`.
fn shown(s: &LcState, viewer: Viewer, card: &str) -> String {
    if visible_now(s, viewer, card) {
        label(s, card)
    } else {
        "a card".to_string()
    }
}

fn known(s: &LcState, instance: &str, statuses: Vec<String>) -> CardView {
    CardView::known(instance, s.def(instance), statuses)
}

fn slot(s: &LcState, viewer: Viewer, seat: Seat, line: Line, i: usize, f: &FieldCard) -> GroupView {
    let see = field_visibility(seat, f.face_down).sees(viewer);
    let mut statuses = Vec::new();
    for (on, what) in [(f.face_down, "face down"), (f.attacked, "attacked"), (f.from_defense, "from defense")] {
        if on {
            statuses.push(what.to_string());
        }
    }
    let mut cards = vec![if see { known(s, &f.card, statuses) } else { CardView::Hidden }];
    cards.extend(f.attachments.iter().map(|a| known(s, a, vec!["attached".to_string()])));
    let facts = if see && line != Line::Strategy {
        vec![format!("sword {}", s.value(&f.card, Stat::Sword)), format!("shield {}", s.value(&f.card, Stat::Shield))]
    } else if f.face_down {
        vec!["face down".to_string()]
    } else {
        Vec::new()
    };
    GroupView { label: format!("slot {}", i + 1), cards, facts }
}

/// The board as `viewer` may see it.
pub fn view(s: &LcState, viewer: Viewer) -> BoardView {
    let mut seats = Vec::new();
    for (seat, p) in s.players.enumerate() {
        let hand_visible = zone_visibility(seat, Zone::Hand).sees(viewer);
        let counters = vec![
            ("combat points".to_string(), p.points.to_string()),
            ("attack-line points".to_string(), p.attack_points.to_string()),
            ("defense-line points".to_string(), p.defense_points.to_string()),
            ("direct attack used".to_string(), if p.direct_used { "yes" } else { "no" }.to_string()),
        ];
        let hand: Vec<CardView> = p
            .hand
            .iter()
            .map(|h| match h {
                Held::Known(c) if hand_visible => known(s, c, Vec::new()),
                _ => CardView::Hidden,
            })
            .collect();
        let mut zones = vec![
            ZoneView { zone: "hand".into(), count: hand.len(), cards: hand, groups: Vec::new() },
            ZoneView { zone: "draw pile".into(), count: p.pile_count, cards: Vec::new(), groups: Vec::new() },
        ];
        for line in Line::ALL {
            let cards = p.line(line);
            zones.push(ZoneView {
                zone: format!("{} line", line.name()),
                count: cards.len(),
                cards: Vec::new(),
                groups: cards.iter().enumerate().map(|(i, f)| slot(s, viewer, seat, line, i, f)).collect(),
            });
        }
        zones.push(ZoneView {
            zone: "dead zone".into(),
            count: p.dead.len(),
            cards: p.dead.iter().map(|c| known(s, c, Vec::new())).collect(),
            groups: Vec::new(),
        });
        seats.push(SeatView { seat, name: s.name(seat), counters, zones });
    }
    let mut facts = vec![("round".to_string(), s.round.to_string()), ("step".to_string(), step(s).to_string())];
    if let Some(first) = s.first {
        facts.push(("first player".to_string(), s.name(first)));
    }
    if let Some(a) = &s.attack {
        let target = a.target.as_deref().map_or("the Combat Points (direct)".to_string(), |t| shown(s, viewer, t));
        facts.push(("attack".to_string(), format!("{} against {target}", shown(s, viewer, &a.attacker))));
        if let Some(p) = &a.protection {
            facts.push(("protected by".to_string(), label(s, p)));
        }
    }
    facts.push(("policy shuffles".to_string(), s.shuffles.name().to_string()));
    for (k, v) in s.policies.to_pairs() {
        facts.push((format!("policy {k}"), v));
    }
    BoardView::of::<super::Lc>(s, viewer, seats, Vec::new(), facts, layout())
}

fn drawn(s: &LcState, viewer: Viewer, seat: Seat, cards: &[CardRef]) -> String {
    if zone_visibility(seat, Zone::Hand).sees(viewer) {
        let names: Vec<String> = cards
            .iter()
            .map(|c| match c {
                CardRef::Open(c) => label(s, c),
                CardRef::Sealed(_) => "a sealed card".to_string(),
            })
            .collect();
        format!("{} cards: {}", cards.len(), names.join(", "))
    } else {
        format!("{} cards", cards.len())
    }
}

/// One line describing `event` (applied to `s`) as `viewer` may see it.
pub fn describe(s: &LcState, event: &LcEvent, viewer: Viewer) -> String {
    use LcEvent::*;
    let who = |seat: Seat| s.name(seat);
    match event {
        Common(c) => describe_common(s, c, viewer),
        DeckShuffled { seat, by, seed } => describe_shuffle(s, *seat, *by, seed.as_deref()),
        FirstPlayerChosen { first, how } => format!("{} goes first ({how})", who(*first)),
        OpeningHandDrawn { seat, cards } => {
            format!("{} drew an opening hand of {}", who(*seat), drawn(s, viewer, *seat, cards))
        }
        RoundStarted { round, first } => {
            let phase = if *round >= 4 { "Combat Phase" } else { "placement round (skeleton, not from the seed)" };
            format!("round {round} ({phase}) started; {} plays first", who(*first))
        }
        FullDiscarded { seat, discarded, drawn: d, cost } => {
            describe_full_discard(s, viewer, *seat, discarded, d, *cost)
        }
        CardPutDown { seat, card, line, face_down, replaced } => {
            describe_put_down(s, viewer, *seat, card, *line, *face_down, replaced.as_deref())
        }
        CardAttached { seat, card, to } => {
            format!("{} attached {} to {}", who(*seat), label(s, card), shown(s, viewer, to))
        }
        CardShifted { seat, card, to } => {
            format!("{} moved {} to the {} line", who(*seat), shown(s, viewer, card), to.name())
        }
        CardsFlipped { seat, cards } => {
            let names: Vec<String> = cards.iter().map(|c| label(s, c)).collect();
            format!("{} flipped {} face up", who(*seat), names.join(", "))
        }
        StrategyActivated { seat, card, note } => {
            format!("{} activated strategy {}: {note}", who(*seat), label(s, card))
        }
        AttackDeclared { seat, attacker, target } => {
            format!("{} attacked {} with {}", who(*seat), shown(s, viewer, target), shown(s, viewer, attacker))
        }
        DirectAttackDeclared { seat, attacker } => {
            format!("{} made a Direct Attack with {}", who(*seat), shown(s, viewer, attacker))
        }
        ProtectionPlayed { seat, card, from } => {
            let from = if *from == ProtectFrom::Hand { "hand" } else { "Strategy line" };
            format!("{} used Protection {} from the {from}", who(*seat), label(s, card))
        }
        AttackResolved { prevented: true, .. } => "the attack was prevented by Protection".to_string(),
        AttackResolved { sword, against, destroyed, points_lost, line_points_lost, prevented: false } => {
            describe_attack_resolved(s, *sword, *against, destroyed, points_lost, line_points_lost)
        }
        RefillDrawn { seat, cards } => format!("{} refilled, drawing {}", who(*seat), drawn(s, viewer, *seat, cards)),
        TurnPassed { seat } => format!("{} passed the turn", who(*seat)),
        ModifierApplied { target, stat, delta, duration } => {
            format!("{} got {delta:+} {stat:?} ({duration:?})", shown(s, viewer, target))
        }
        StrategyPointsChanged { seat, card, changes } => {
            let each: Vec<String> = changes.iter().map(|c| format!("{} {:+}", who(c.seat), c.delta)).collect();
            format!("{}'s Strategy {} changed Combat Points: {}", who(*seat), label(s, card), each.join(", "))
        }
        GameEnded { reason, winners } => {
            let w: Vec<String> = winners.iter().map(|&w| who(w)).collect();
            let res = if w.is_empty() { "a draw".to_string() } else { format!("{} won", w.join(", ")) };
            format!("game over: {res} ({})", reason.describe())
        }
    }
}

fn describe_shuffle(s: &LcState, seat: Seat, by: Seat, seed: Option<&str>) -> String {
    let how = seed.map_or(String::new(), |k| format!(" with seed {k:?}"));
    format!("{} shuffled {}'s Draw Pile{how}", s.name(by), s.name(seat))
}

fn describe_full_discard(
    s: &LcState,
    viewer: Viewer,
    seat: Seat,
    discarded: &[String],
    d: &[CardRef],
    cost: u32,
) -> String {
    let out: Vec<String> = discarded.iter().map(|c| label(s, c)).collect();
    format!(
        "{} made a full discard for {cost} points: {} to the Dead Zone, drew {}",
        s.name(seat),
        out.join(", "),
        drawn(s, viewer, seat, d)
    )
}

fn describe_put_down(
    s: &LcState,
    viewer: Viewer,
    seat: Seat,
    card: &str,
    line: Line,
    face_down: bool,
    replaced: Option<&str>,
) -> String {
    let name = if field_visibility(seat, face_down).sees(viewer) { label(s, card) } else { "a card".to_string() };
    let how = if face_down { " face down" } else { "" };
    let rep = replaced.map_or(String::new(), |r| format!(", replacing {} (to the Dead Zone)", label(s, r)));
    format!("{} put {name}{how} in the {} line{rep}", s.name(seat), line.name())
}

/// An attack that was not prevented: the confrontation, then what it destroyed and cost.
fn describe_attack_resolved(
    s: &LcState,
    sword: i32,
    against: i32,
    destroyed: &[String],
    points_lost: &[PointsLost],
    line_points_lost: &[LinePointLost],
) -> String {
    let mut parts = vec![format!("Sword {sword} against {against}")];
    for c in destroyed {
        parts.push(format!("{} destroyed", label(s, c)));
    }
    for l in points_lost {
        parts.push(format!("{} lost {} Combat Points", s.name(l.seat), l.points));
    }
    for l in line_points_lost {
        parts.push(format!("{} lost a {}-line point", s.name(l.seat), l.line.name()));
    }
    format!("attack resolved: {}", parts.join("; "))
}

fn describe_common(s: &LcState, c: &CommonEvent, viewer: Viewer) -> String {
    match c {
        // A revealed card stays hidden from those who may not see it where it now lies.
        CommonEvent::CardRevealed { seat, card, .. } if !visible_now(s, viewer, card) => {
            format!("{} revealed a sealed card to the judge", s.name(*seat))
        }
        CommonEvent::CardRevealed { seat, card, .. } => format!("{} revealed {}", s.name(*seat), label(s, card)),
        _ => crate::game::common::describe(c, viewer, |seat| s.name(seat)),
    }
}

// ---- The table as data (drawn by the web viewer with no per-game code) ----

/// One seat's side: the hand, Draw Pile and Dead Zone at the player's edge, then the Strategy,
/// Defense and Attack lines, so the two Attack lines face each other across the middle.
pub fn layout() -> TableLayout {
    use AreaStyle::{Pile, Row};
    TableLayout {
        columns: 6,
        areas: vec![
            AreaLayout::seat("hand", 1, 1, 1, 4, Row),
            AreaLayout::seat("draw pile", 1, 5, 1, 1, Pile),
            AreaLayout::seat("dead zone", 1, 6, 1, 1, Pile),
            AreaLayout::seat("strategy line", 2, 1, 1, 6, Row),
            AreaLayout::seat("defense line", 3, 1, 1, 6, Row),
            AreaLayout::seat("attack line", 4, 1, 1, 6, Row),
        ],
    }
}
