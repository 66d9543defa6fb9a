//! What each viewer may see: the board as a [`BoardView`] and one-line event descriptions.
//!
//! Hidden information (digest §4.5, with the policies for VG-OPEN-9 and VG-OPEN-10):
//! - hand: its owner and judges; everyone else sees the count;
//! - deck: the count only, for everyone;
//! - starting vanguard before the flip (VG-SETUP-1): its owner and judges;
//! - G zone: face-down G units are seen by their owner and judges only, and (VGC-UPD-1) the
//!   opponent and spectators cannot even learn how many there are: their view lists and counts
//!   only the face-up G units;
//! - bind zone: its owner and judges (the client shows it face down to the opponent, VGC-UI-3);
//! - soul: its owner and judges, unless `soul_visibility=public`; the count is public;
//! - damage zone: face-down cards stay identifiable unless `face_down_damage=hidden`;
//! - field (locked and deleted units included: their identity was public before the flip),
//!   guardian circle, drop zone, the shared removed-from-game zone and checked cards: public.

use super::events::{Circle, ClientOp, Phase, Place, VanguardEvent};
use super::state::{PlayerState, Unit, VanguardState};
use crate::game::policy::PolicyTable;
use crate::game::view::{AreaLayout, AreaStyle, CardView, GroupView, SeatView, TableLayout, ZoneView};
use crate::game::{BoardView, Seat, Viewer, Visibility};

fn owner_or_judge(viewer: Viewer, seat: Seat) -> bool {
    Visibility::Owner(seat).sees(viewer)
}

/// Who may identify `card`, which is in `seat`'s `place` (face up or down as it lies): the table
/// of the module doc, as data.
pub fn visibility(s: &VanguardState, seat: Seat, place: Place, card: &str) -> Visibility {
    let public_if = |public: bool| Visibility::public_or_owner(public, seat);
    match place {
        Place::Deck | Place::DeckBottom | Place::DeckSearch => Visibility::Nobody,
        Place::Hand | Place::Bind => Visibility::Owner(seat),
        Place::Soul => public_if(s.policies.soul_public),
        Place::Damage => {
            let face_up = s.players.get(seat).is_some_and(|p| p.damage.iter().any(|(c, up)| c == card && *up));
            public_if(face_up || s.policies.face_down_damage_public)
        }
        Place::GZone => public_if(s.players.get(seat).is_some_and(|p| p.g_zone.iter().any(|(c, up)| c == card && *up))),
        Place::Circle(_) => {
            let face_down =
                s.players.get(seat).is_some_and(|p| p.units().iter().any(|(_, u)| u.card == card && u.face_down));
            public_if(!face_down)
        }
        Place::Drop | Place::Removed | Place::Guardian => Visibility::Public,
    }
}

/// Whether `viewer` may identify `card`, which is in `seat`'s `place`.
pub fn can_see(s: &VanguardState, viewer: Viewer, seat: Seat, place: Place, card: &str) -> bool {
    visibility(s, seat, place, card).sees(viewer)
}

/// Whether `viewer` may identify `card` where it is now (judges see what the log holds).
pub fn visible_now(s: &VanguardState, viewer: Viewer, card: &str) -> bool {
    match s.find(card) {
        Some((seat, place)) => can_see(s, viewer, seat, place, card),
        None => Visibility::Judge.sees(viewer),
    }
}

/// `TA-10 Test Herald (p0-17)`.
pub fn label(s: &VanguardState, instance: &str) -> String {
    crate::game::catalog::instance_label(s.def(instance), instance)
}

fn known(s: &VanguardState, instance: &str, statuses: Vec<String>) -> CardView {
    CardView::known(instance, s.def(instance), statuses)
}

fn unit_statuses(s: &VanguardState, u: &Unit) -> Vec<String> {
    let mut out = vec![if u.rested { "rested" } else { "standing" }.to_string()];
    for (on, what) in [(u.locked, "locked"), (u.deleted, "deleted"), (u.face_down, "face down")] {
        if on {
            out.push(what.to_string());
        }
    }
    out.push(format!("power {}", s.unit_power(u)));
    if u.crit_turn != 0 {
        out.push(format!("critical {:+}", u.crit_turn));
    }
    out
}

fn zone(s: &VanguardState, viewer: Viewer, seat: Seat, place: Place, name: &str, cards: &[String]) -> ZoneView {
    let cards: Vec<CardView> = cards
        .iter()
        .map(|c| if can_see(s, viewer, seat, place, c) { known(s, c, Vec::new()) } else { CardView::Hidden })
        .collect();
    ZoneView { zone: name.to_string(), count: cards.len(), cards, groups: Vec::new() }
}

fn field(s: &VanguardState, viewer: Viewer, seat: Seat, p: &PlayerState) -> ZoneView {
    let mut groups = Vec::new();
    let mut count = 0;
    for circle in Circle::ALL {
        let mut cards = Vec::new();
        let mut facts = Vec::new();
        let units: Vec<&Unit> = if circle == Circle::Vanguard {
            [&p.g_unit, &p.vanguard, &p.mate].into_iter().flatten().collect()
        } else {
            p.rear.get(&circle).into_iter().collect()
        };
        for u in &units {
            let mut st = unit_statuses(s, u);
            // A G unit stands on the vanguard circle over its heart(s); a rear-guard is neither.
            if p.g_unit.as_ref().is_some_and(|g| g.card == u.card) {
                st.push("G unit".into());
            } else if p.g_unit.is_some() && circle == Circle::Vanguard {
                st.push("heart".into());
            }
            if p.mate.as_ref().is_some_and(|m| m.card == u.card) {
                st.push("legion mate".into());
            }
            cards.push(if can_see(s, viewer, seat, Place::Circle(circle), &u.card) {
                known(s, &u.card, st)
            } else {
                CardView::Hidden
            });
        }
        count += units.len();
        // Each unit shows its own power; the circle's total only adds something for a legion.
        if units.len() > 1 {
            facts.push(format!("power {}", s.circle_power(seat, circle)));
        }
        groups.push(GroupView { label: circle_label(circle), cards, facts });
    }
    ZoneView { zone: "field".into(), count, cards: Vec::new(), groups }
}

/// Rules version 5: `seat`'s units a call displaced from their circle that are in no zone, each
/// with why: its retirement is owed and comes next (`OccupantRetired`), or the table moved on
/// without it (VG-ZONE-5, cited there). Only while there is one, so no earlier board changes. The
/// unit was face up on its circle, so everyone may see it.
fn waiting_to_retire(s: &VanguardState, seat: Seat) -> Option<ZoneView> {
    let owed = s.owed.occupants.iter().map(|o| (o, "retires next"));
    let left = s.owed.unretired.iter().map(|o| (o, "left unretired (VG-ZONE-5)"));
    let cards: Vec<CardView> = owed
        .chain(left)
        .filter(|((at, _, _), _)| *at == seat)
        .map(|((_, circle, card), why)| {
            known(s, card, vec![format!("displaced from {}", circle_label(*circle)), why.to_string()])
        })
        .collect();
    (!cards.is_empty()).then(|| ZoneView {
        zone: "waiting to retire".into(),
        count: cards.len(),
        cards,
        groups: Vec::new(),
    })
}

fn circle_label(circle: Circle) -> String {
    match circle {
        Circle::Vanguard => "vanguard (vc)".to_string(),
        c => format!("rear-guard {}", c.name()),
    }
}

/// The board as `viewer` may see it.
pub fn view(s: &VanguardState, viewer: Viewer) -> BoardView {
    let mut seats = Vec::new();
    for (seat, p) in s.players.enumerate() {
        let face_up_damage = p.damage.iter().filter(|(_, up)| *up).count();
        let mut counters = vec![
            ("damage".to_string(), p.damage_count().to_string()),
            ("face-up damage".to_string(), face_up_damage.to_string()),
            ("deck".to_string(), p.deck.len().to_string()),
            ("hand".to_string(), p.hand.len().to_string()),
            ("soul".to_string(), p.soul.len().to_string()),
        ];
        if let Some(g) = s.vanguard_grade(seat).filter(|_| s.revealed || owner_or_judge(viewer, seat)) {
            counters.push(("vanguard grade".to_string(), g.to_string()));
        }
        if s.active == Some(seat) {
            counters.push(("turn".to_string(), "active".to_string()));
        }
        let damage_cards: Vec<String> = p.damage.iter().map(|(c, _)| c.clone()).collect();
        let mut damage = zone(s, viewer, seat, Place::Damage, "damage", &damage_cards);
        for (cv, (_, up)) in damage.cards.iter_mut().zip(&p.damage) {
            if let CardView::Known { statuses, .. } = cv {
                statuses.push(if *up { "face up" } else { "face down" }.to_string());
            }
        }
        let g_cards: Vec<String> = p
            .g_zone
            .iter()
            .filter(|(c, up)| *up || can_see(s, viewer, seat, Place::GZone, c))
            .map(|(c, _)| c.clone())
            .collect();
        let mut g_zone = zone(s, viewer, seat, Place::GZone, "g-zone", &g_cards);
        for cv in &mut g_zone.cards {
            if let CardView::Known { instance, statuses, .. } = cv {
                let up = p.g_zone.iter().any(|(c, u)| c == instance && *u);
                statuses.push(if up { "face up" } else { "face down" }.to_string());
            }
        }
        let zones = vec![
            zone(s, viewer, seat, Place::Hand, "hand", &p.hand),
            ZoneView { zone: "deck".into(), count: p.deck.len(), cards: Vec::new(), groups: Vec::new() },
            field(s, viewer, seat, p),
            zone(s, viewer, seat, Place::Soul, "soul", &p.soul),
            damage,
            zone(s, viewer, seat, Place::Guardian, "guardian circle", &p.guardians),
            zone(s, viewer, seat, Place::Drop, "drop", &p.drop),
            zone(s, viewer, seat, Place::Bind, "bind", &p.bind),
            g_zone,
        ];
        let zones = zones.into_iter().chain(waiting_to_retire(s, seat)).collect();
        seats.push(SeatView { seat, name: s.name(seat), counters, zones });
    }
    let removed = ZoneView {
        zone: "removed from game (shared)".into(),
        count: s.removed.len(),
        cards: s.removed.iter().map(|(c, by)| known(s, c, vec![format!("put there by {}", s.name(*by))])).collect(),
        groups: Vec::new(),
    };
    let mut facts = vec![("phase".to_string(), s.phase.name().to_string())];
    if let Some(first) = s.first {
        facts.push(("first player".to_string(), s.name(first)));
    }
    if let Some(a) = &s.attack {
        let powers = s.battle_powers().map(|(x, y)| format!(" ({x} vs {y})")).unwrap_or_default();
        facts.push((
            "battle".to_string(),
            format!("{}'s {} attacks {}{powers}", s.name(a.seat), a.attacker.name(), a.target.name()),
        ));
    }
    if !s.spectators.is_empty() {
        facts.push(("spectators".to_string(), s.spectators.iter().cloned().collect::<Vec<_>>().join(", ")));
    }
    for (k, v) in s.policies.to_pairs() {
        facts.push((format!("policy {k}"), v));
    }
    BoardView::of::<super::Vanguard>(s, viewer, seats, vec![removed], facts, layout())
}

fn count(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// One line describing `event` (about to be applied to `s`) as `viewer` may see it.
pub fn describe(s: &VanguardState, event: &VanguardEvent, viewer: Viewer) -> String {
    use VanguardEvent::*;
    let n = |seat: &Seat| s.name(*seat);
    let shown = |card: &str, seat: Seat, to: Place| shown(s, viewer, card, seat, to);
    let l = |c: &str| label(s, c);
    let list = |cards: &[String]| list(s, cards);
    match event {
        StartingVanguardSet { seat, card } => describe_starting_vanguard(s, *seat, card, viewer),
        FirstPlayerDetermined { first } => format!("{} goes first (determined at random)", n(first)),
        DeckShuffled { seat, reason } => {
            format!("{} shuffled their deck ({reason:?})", n(seat)).replace("(Setup)", "(setup)")
        }
        OpeningHandDrawn { seat, cards } => describe_opening_hand(s, *seat, cards, viewer),
        Redrawn { seat, returned, drawn } => describe_redraw(s, *seat, returned, drawn, viewer),
        VanguardsRevealed {} => describe_vanguards_revealed(s),
        TurnStarted { turn, seat } => format!("turn {turn}: {}'s turn began", n(seat)),
        PhaseEntered { seat, phase } => format!("{} entered the {} phase", n(seat), phase.name()),
        CardDrawn { seat, card } => format!("{} drew {}", n(seat), shown(card, *seat, Place::Hand)),
        GradeAssisted { seat, taken, removed } => format!(
            "{} used grade assist: revealed the hand, took {}, removed {}",
            n(seat),
            taken.as_deref().map_or("nothing".to_string(), |c| shown(c, *seat, Place::Hand)),
            list(removed)
        ),
        Rode { seat, card } => format!("{} rode {}", n(seat), l(card)),
        SuperiorRode { seat, card, source, .. } => format!("{} superior rode {} by {}", n(seat), l(card), l(source)),
        ForerunnerCalled { seat, card, circle } => {
            format!("{} called forerunner {} to {}", n(seat), l(card), circle.name())
        }
        Strode { seat, g_unit, heart, discarded } => {
            format!("{} strode {} over heart {}, discarding {}", n(seat), l(g_unit), l(heart), list(discarded))
        }
        Called { seat, card, circle } => format!("{} called {} to {}", n(seat), l(card), circle.name()),
        SuperiorCalled { seat, card, circle, source, .. } => {
            format!("{} superior called {} to {} by {}", n(seat), l(card), circle.name(), l(source))
        }
        RearGuardMoved { seat, from, to } => {
            format!("{} moved the rear-guard on {} to {}", n(seat), from.name(), to.name())
        }
        LegionPerformed { seat, returned, mate } => {
            format!("{} returned {} to the deck and performed legion with {}", n(seat), list(returned), l(mate))
        }
        EffectActivated { seat, source, kind, description } => {
            format!("{} activated {kind:?} of {}: {description}", n(seat), l(source))
        }
        CounterBlasted { seat, cards } => format!("{} counter blasted {}", n(seat), count(cards.len(), "card")),
        SoulBlasted { seat, cards } => format!("{} soul blasted {}", n(seat), list(cards)),
        SoulCharged { seat, cards } => describe_soul_charge(s, *seat, cards, viewer),
        AttackDeclared { seat, attacker, target } => describe_attack(s, *seat, *attacker, *target),
        Boosted { seat, booster } => format!("{} boosted with {}", n(seat), unit_on(s, *seat, *booster)),
        GuardianCalled { seat, card } => format!("{} guarded with {}", n(seat), l(card)),
        Intercepted { seat, circle } => format!("{} intercepted with {}", n(seat), unit_on(s, *seat, *circle)),
        DriveChecked { seat, card } => format!("{} drive checked {}", n(seat), trigger_text(s, card)),
        DamageChecked { seat, card } => format!("{} damage checked {}", n(seat), trigger_text(s, card)),
        TriggerResolved { seat, power_to, critical_to, drew, healed, stood } => {
            describe_trigger(s, viewer, *seat, power_to, [critical_to, drew, healed, stood])
        }
        AttackResolved { hit } => describe_attack_resolved(s, *hit),
        BattleEnded {} => "the battle ended; guardians and interceptors went to the drop zone".to_string(),
        GameEnded { loser: Some(l), reason } => format!("{} lost the game ({reason:?})", n(l)),
        GameEnded { loser: None, reason } => format!("both players lost at once ({reason:?}): a draw"),
        CardMoved { card, to, cause } => describe_card_moved(s, card, *to, cause, viewer),
        EffectResolved { source, description } => format!("effect of {}: {description}", l(source)),
        ModifierApplied { card, stat, delta, until } => format!("{} got {stat:?} {delta:+} ({until:?})", l(card)),
        Client { seat, op } => format!("{} (client): {}", n(seat), describe_op(s, *seat, op, viewer)),
        ChatMessage { seat, text } => format!("{} said: {text}", n(seat)),
        SpectatorJoined { user } => format!("spectator {user} joined"),
        SpectatorLeft { user } => format!("spectator {user} left"),
        Common(c) => describe_common(s, c, viewer),
        UnitsStood { .. } | TurnCleanedUp { .. } | HitUnitRetired { .. } | GuardiansRetired { .. } => {
            describe_step(s, event)
        }
        OccupantRetired { .. } | HeartTurnedFaceUp { .. } | LegionMateMovedToSoul { .. } => describe_step(s, event),
    }
}

/// A common event; a revealed card is named to those who may see it where it lies.
fn describe_common(s: &VanguardState, c: &super::events::CommonEvent, viewer: Viewer) -> String {
    match c {
        super::events::CommonEvent::CardRevealed { seat, card, .. } if !visible_now(s, viewer, card) => {
            format!("{} revealed a sealed card to the record", s.name(*seat))
        }
        super::events::CommonEvent::CardRevealed { seat, card, .. } => {
            format!("{} revealed {}", s.name(*seat), label(s, card))
        }
        c => crate::game::common::describe(c, viewer, |seat| s.name(seat)),
    }
}

/// A step rules version 4 or 5 records on its own (the stand, the clean-up, a battle's retirements,
/// a displaced occupant's retirement, a heart turned face up, a legion mate moved to the soul);
/// every card it names is on the field in the open.
fn describe_step(s: &VanguardState, event: &VanguardEvent) -> String {
    let n = |seat: &Seat| s.name(*seat);
    match event {
        VanguardEvent::UnitsStood { seat, cards } => format!("{}'s stand phase stood {}", n(seat), list(s, cards)),
        VanguardEvent::TurnCleanedUp { seat, g_unit, flipped, expired } => {
            describe_clean_up(s, *seat, g_unit.as_deref(), flipped, expired)
        }
        VanguardEvent::HitUnitRetired { seat, card } => {
            format!("{}'s hit rear-guard {} retired to the drop zone", n(seat), label(s, card))
        }
        VanguardEvent::GuardiansRetired { seat, cards } => {
            format!("{}'s guardians and interceptors {} went to the drop zone", n(seat), list(s, cards))
        }
        VanguardEvent::OccupantRetired { seat, card, circle } => format!(
            "{}'s {}, displaced from {} by the call, retired to the drop zone",
            n(seat),
            label(s, card),
            circle.name()
        ),
        VanguardEvent::HeartTurnedFaceUp { seat, cards } => {
            format!("{}'s deleted heart {} turned face up", n(seat), list(s, cards))
        }
        VanguardEvent::LegionMateMovedToSoul { seat, card } => {
            format!("{}'s legion mate {} went to the soul", n(seat), label(s, card))
        }
        _ => String::new(),
    }
}

/// The end-of-turn clean-up (rules version 4), naming each part that happened.
fn describe_clean_up(
    s: &VanguardState,
    seat: Seat,
    g_unit: Option<&str>,
    flipped: &[String],
    expired: &[String],
) -> String {
    let mut parts = Vec::new();
    if let Some(g) = g_unit {
        parts.push(format!("{} returned to the G zone face up", label(s, g)));
    }
    if !flipped.is_empty() {
        parts.push(format!("{} turned face up", list(s, flipped)));
    }
    if !expired.is_empty() {
        parts.push(format!("the until-end-of-turn modifiers of {} expired", list(s, expired)));
    }
    if parts.is_empty() {
        parts.push("nothing to clean up".to_string());
    }
    format!("end of {}'s turn: {}", s.name(seat), parts.join("; "))
}

fn describe_starting_vanguard(s: &VanguardState, seat: Seat, card: &str, viewer: Viewer) -> String {
    let what = if owner_or_judge(viewer, seat) { label(s, card) } else { "a grade-0 unit".into() };
    format!("{} set {what} face down as the starting vanguard", s.name(seat))
}

fn describe_vanguards_revealed(s: &VanguardState) -> String {
    let vs: Vec<String> = s.players.iter().filter_map(|p| p.vanguard.as_ref()).map(|u| label(s, &u.card)).collect();
    format!("both vanguards were flipped face up: {}", vs.join(" and "))
}

fn describe_soul_charge(s: &VanguardState, seat: Seat, cards: &[String], viewer: Viewer) -> String {
    let names: Vec<String> = cards.iter().map(|c| shown(s, viewer, c, seat, Place::Soul)).collect();
    format!("{} soul charged {}", s.name(seat), names.join(", "))
}

fn describe_attack_resolved(s: &VanguardState, hit: bool) -> String {
    let powers = s.battle_powers().map(|(a, d)| format!(" ({a} vs {d})")).unwrap_or_default();
    format!("the attack {}{powers}", if hit { "hit" } else { "did not hit" })
}

/// A moved card goes to its owner's zone (seat 0 for an instance id that names no owner).
fn describe_card_moved(s: &VanguardState, card: &str, to: Place, cause: &str, viewer: Viewer) -> String {
    let owner = VanguardState::owner(card).unwrap_or(0);
    format!("{} moved to {}'s {} ({cause})", shown(s, viewer, card, owner, to), s.name(owner), to.name())
}

/// A card is named when the viewer may see it where it is or where it goes.
fn shown(s: &VanguardState, viewer: Viewer, card: &str, seat: Seat, to: Place) -> String {
    if visible_now(s, viewer, card) || can_see(s, viewer, seat, to, card) {
        label(s, card)
    } else {
        "a card".to_string()
    }
}

fn list(s: &VanguardState, cards: &[String]) -> String {
    if cards.is_empty() {
        "nothing".to_string()
    } else {
        cards.iter().map(|c| label(s, c)).collect::<Vec<_>>().join(", ")
    }
}

/// The unit on `seat`'s `circle`, or `?` when the circle is empty.
fn unit_on(s: &VanguardState, seat: Seat, circle: Circle) -> String {
    s.players.get(seat).and_then(|p| p.on(circle)).map_or("?".to_string(), |u| label(s, &u.card))
}

fn describe_opening_hand(s: &VanguardState, seat: Seat, cards: &[String], viewer: Viewer) -> String {
    if owner_or_judge(viewer, seat) {
        format!("{} drew an opening hand: {}", s.name(seat), list(s, cards))
    } else {
        format!("{} drew an opening hand of {}", s.name(seat), count(cards.len(), "card"))
    }
}

fn describe_redraw(s: &VanguardState, seat: Seat, returned: &[String], drawn: &[String], viewer: Viewer) -> String {
    if owner_or_judge(viewer, seat) {
        format!("{} redrew: returned {}, drew {}", s.name(seat), list(s, returned), list(s, drawn))
    } else {
        format!("{} redrew {}", s.name(seat), count(returned.len(), "card"))
    }
}

fn describe_attack(s: &VanguardState, seat: Seat, attacker: Circle, target: Circle) -> String {
    let a = unit_on(s, seat, attacker);
    let t = unit_on(s, crate::game::opponent(seat), target);
    format!("{}'s {a} on {} attacked {t} on {}", s.name(seat), attacker.name(), target.name())
}

/// A trigger's effects in the order it resolves them: power, critical, draw, heal, stand.
fn describe_trigger(
    s: &VanguardState,
    viewer: Viewer,
    seat: Seat,
    power_to: &str,
    [critical_to, drew, healed, stood]: [&Option<String>; 4],
) -> String {
    let mut parts = vec![format!("+5000 power to {}", label(s, power_to))];
    if let Some(c) = critical_to {
        parts.push(format!("+1 critical to {}", label(s, c)));
    }
    if let Some(c) = drew {
        parts.push(format!("drew {}", shown(s, viewer, c, seat, Place::Hand)));
    }
    if let Some(c) = healed {
        parts.push(format!("healed {}", label(s, c)));
    }
    if let Some(c) = stood {
        parts.push(format!("stood {}", label(s, c)));
    }
    format!("{}'s trigger: {}", s.name(seat), parts.join(", "))
}

fn trigger_text(s: &VanguardState, card: &str) -> String {
    match s.def(card).and_then(|d| d.trigger) {
        Some(t) => format!("{} ({} trigger)", label(s, card), t.name()),
        None => label(s, card),
    }
}

fn describe_op(s: &VanguardState, seat: Seat, op: &ClientOp, viewer: Viewer) -> String {
    let shown = |card: &str, to: Place| {
        if visible_now(s, viewer, card) || can_see(s, viewer, seat, to, card) {
            label(s, card)
        } else {
            "a card".to_string()
        }
    };
    let l = |c: &str| label(s, c);
    match op {
        ClientOp::Drew { card } => format!("drew {}", shown(card, Place::Hand)),
        ClientOp::Checked { card } => format!("checked {}", trigger_text(s, card)),
        ClientOp::ToTopOfDeck { card } => format!("put {} on top of the deck", shown(card, Place::Deck)),
        ClientOp::ToBottomOfDeck { card } => format!("put {} on the bottom of the deck", shown(card, Place::Deck)),
        ClientOp::ToHand { card } => format!("put {} into the hand", shown(card, Place::Hand)),
        ClientOp::Shuffled {} => "shuffled the deck".into(),
        ClientOp::Milled { card } => format!("milled {}", l(card)),
        ClientOp::SoulCharged { card } => format!("soul charged {}", shown(card, Place::Soul)),
        ClientOp::BoundTop { card } => format!("bound the top card: {}", shown(card, Place::Bind)),
        ClientOp::DeckViewed {} => "looked through the deck".into(),
        ClientOp::PositionChanged { card, rested } => {
            format!("{} {}", if *rested { "rested" } else { "stood" }, l(card))
        }
        ClientOp::DamageFlipped { card, face_up } => {
            format!("flipped damage {} face {}", shown(card, Place::Damage), if *face_up { "up" } else { "down" })
        }
        ClientOp::GZoneFlipped { card, face_up } => {
            let what = if *face_up || owner_or_judge(viewer, seat) { l(card) } else { "a G unit".into() };
            format!("flipped {what} face {}", if *face_up { "up" } else { "down" })
        }
        ClientOp::LockChanged { card, locked } => {
            format!("{} {}", if *locked { "locked" } else { "unlocked" }, l(card))
        }
        ClientOp::DeleteChanged { card, deleted } => {
            format!("{} {}", if *deleted { "deleted" } else { "undeleted" }, l(card))
        }
        ClientOp::PowerEdited { card, mode, value } => format!("{mode:?} power {value} on {}", l(card)).to_lowercase(),
        ClientOp::Rode { card } => format!("rode {}", l(card)),
        ClientOp::Strode { g_unit, heart } => format!("strode {} over {}", l(g_unit), l(heart)),
        ClientOp::Legion { mate } => format!("legion with {}", l(mate)),
        ClientOp::PhaseButton { phase } => match phase {
            Phase::Ride => "pressed Ride Phase (units stand)".into(),
            p => format!("pressed {} Phase", p.name()),
        },
        ClientOp::Moved { card, to } => format!("moved {} to the {}", shown(card, *to), to.name()),
        ClientOp::TriggerApplied { power_to, critical_to } => match critical_to {
            Some(c) => format!("trigger: +5000 power to {}, +1 critical to {}", l(power_to), l(c)),
            None => format!("trigger: +5000 power to {}", l(power_to)),
        },
    }
}

// ---- The table ----

/// Vanguard's table, from each player's edge: hand, deck and drop; the six circles as the 2×3
/// grid (back row, then the front row with the vanguard in the middle) between the damage zone
/// and the soul, bind and G zones; the guardian circle in front, facing the opponent.
pub fn layout() -> TableLayout {
    use AreaStyle::{Cells, Pile, Row};
    let mut field = AreaLayout::seat("field", 2, 2, 2, 3, Cells);
    field.cells = [
        (Circle::BackLeft, 1, 1),
        (Circle::BackCenter, 1, 2),
        (Circle::BackRight, 1, 3),
        (Circle::FrontLeft, 2, 1),
        (Circle::Vanguard, 2, 2),
        (Circle::FrontRight, 2, 3),
    ]
    .into_iter()
    .map(|(c, row, col)| (circle_label(c), row, col))
    .collect();
    TableLayout {
        columns: 6,
        areas: vec![
            AreaLayout::seat("hand", 1, 1, 1, 4, Row),
            AreaLayout::seat("deck", 1, 5, 1, 1, Pile),
            AreaLayout::seat("drop", 1, 6, 1, 1, Pile),
            AreaLayout::seat("damage", 2, 1, 2, 1, Row),
            field,
            AreaLayout::seat("soul", 2, 5, 1, 1, Pile),
            AreaLayout::seat("bind", 3, 5, 1, 1, Pile),
            AreaLayout::seat("g-zone", 2, 6, 2, 1, Pile),
            AreaLayout::seat("guardian circle", 4, 2, 1, 3, Row),
            AreaLayout::shared("removed from game (shared)", 1, 6, Row),
        ],
    }
}
