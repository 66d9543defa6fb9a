//! What each viewer may see: the board as a [`BoardView`] and one-line event descriptions.
//!
//! Hidden information (digest §5.14 "Hidden information"):
//! - hand: its owner and judges see it; everyone else sees the count;
//! - deck: everyone sees only the count;
//! - a face-down Servant: its owner (who set it) and judges see it; everyone else sees two
//!   face-down cards until the ritual reveal or a battle's reveal process turns them up;
//! - a card taken from a hand (FATE-BATTLE-9) goes to the taker's hand: the taker and the loser
//!   (and judges) are told which card it was, everyone else only that a card was taken;
//! - field states, Secret Signs, prana, Command Spells, marks and the discard are public (FATE-CTX-1).
//!
//! A card the log holds only as a seal is [`CardView::Hidden`] for everyone, judges included.

use super::apply::cost_labels;
use super::events::{CardRef, FateEvent, Payment, ServantUnveiled, SpellUse, Unveiled};
use super::state::{rolled_faces, FateState, Held, MasterState};
use crate::game::policy::PolicyTable;
use crate::game::view::{AreaLayout, AreaStyle, CardView, GroupView, SeatView, TableLayout, ZoneView};
use crate::game::{BoardView, Seat, Viewer, Visibility};

/// Who sees what `seat` alone may see: its hand, a card dealt or drawn to it, a hand pick.
pub(super) fn hand_visibility(seat: Seat) -> Visibility {
    Visibility::Owner(seat)
}

/// Who sees `seat`'s Servant: everyone once face up, its owner (and judges) while face down.
pub(super) fn servant_visibility(seat: Seat, face_down: bool) -> Visibility {
    Visibility::public_or_owner(!face_down, seat)
}

/// A card taken from a hand (FATE-BATTLE-9): the taker and the loser know it.
fn taken_card_sees(winner: Seat, loser: Seat, viewer: Viewer) -> bool {
    hand_visibility(winner).sees(viewer) || hand_visibility(loser).sees(viewer)
}

fn known(s: &FateState, instance: &str, statuses: Vec<String>) -> CardView {
    CardView::known(instance, s.def(instance), statuses)
}

fn held(s: &FateState, h: &Held, visible: bool, statuses: Vec<String>) -> CardView {
    match h {
        Held::Known(c) if visible => known(s, c, statuses),
        _ => CardView::Hidden,
    }
}

/// The board as `viewer` may see it.
pub fn view(s: &FateState, viewer: Viewer) -> BoardView {
    let seats = s.seats().map(|seat| seat_view(s, viewer, seat)).collect();
    BoardView::of::<super::Fate>(s, viewer, seats, Vec::new(), board_facts(s), layout())
}

/// One Master's counters and zones: hand, deck, Servant, Secret Signs, discard.
fn seat_view(s: &FateState, viewer: Viewer, seat: Seat) -> SeatView {
    let m = &s.masters[usize::from(seat)];
    let hand_visible = hand_visibility(seat).sees(viewer);
    let hand: Vec<CardView> = m.hand.iter().map(|h| held(s, h, hand_visible, Vec::new())).collect();
    let signs = ZoneView {
        zone: "secret-signs".to_string(),
        count: m.signs.len(),
        cards: m.signs.iter().map(|x| known(s, &x.card, vec![x.pose.name().to_string()])).collect(),
        groups: Vec::new(),
    };
    let zones = vec![
        ZoneView { zone: "hand".to_string(), count: hand.len(), cards: hand, groups: Vec::new() },
        ZoneView { zone: "deck".to_string(), count: m.deck_count, cards: Vec::new(), groups: Vec::new() },
        servant_zone(s, viewer, seat, m),
        signs,
        ZoneView {
            zone: "discard".to_string(),
            count: m.discard.len(),
            cards: m.discard.iter().map(|c| known(s, c, Vec::new())).collect(),
            groups: Vec::new(),
        },
    ];
    SeatView { seat, name: s.name(seat), counters: master_counters(s, seat, m), zones }
}

fn master_counters(s: &FateState, seat: Seat, m: &MasterState) -> Vec<(String, String)> {
    let mut counters = vec![
        ("prana".to_string(), m.prana.to_string()),
        ("command spells".to_string(), m.command_spells.to_string()),
        ("deck".to_string(), m.deck_count.to_string()),
        ("hand".to_string(), m.hand.len().to_string()),
    ];
    if !m.marks.is_empty() {
        counters.push(("special marks".to_string(), m.marks.join(", ")));
    }
    let mut roles = Vec::new();
    // A finished game has no one to act: no seat is the active Master or the turn's any more.
    let over = <super::Fate as crate::game::Game>::outcome(s).is_some();
    if s.active_master == Some(seat) && !over {
        roles.push("active master");
    }
    if s.turn_master == Some(seat) && !over {
        roles.push("turn");
    }
    if let Some(b) = &s.battle {
        if b.attacker == seat {
            roles.push("attacking");
        }
        if b.responder == seat {
            roles.push("responding");
        }
    }
    if m.defeated {
        let place = s.defeated.iter().position(|d| *d == seat).map_or(0, |i| i + 1);
        roles.push(if place > 0 { "defeated" } else { "out" });
        counters.push(("defeated".to_string(), format!("#{place}")));
    }
    if !roles.is_empty() {
        counters.push(("role".to_string(), roles.join(", ")));
    }
    counters
}

fn servant_zone(s: &FateState, viewer: Viewer, seat: Seat, m: &MasterState) -> ZoneView {
    let mut servant_cards = Vec::new();
    let mut facts = Vec::new();
    if let Some(sv) = &m.servant {
        let visible = servant_visibility(seat, sv.face_down).sees(viewer);
        let state = if sv.face_down { "face-down".to_string() } else { sv.pose.name().to_string() };
        for h in sv.cards() {
            servant_cards.push(held(s, h, visible, vec![state.clone()]));
        }
        facts.push(format!("state {state}"));
        if !sv.face_down {
            facts.extend(face_up_servant_facts(s, seat));
        }
    }
    ZoneView {
        zone: "servant".to_string(),
        count: servant_cards.len(),
        // One card, one place: the Servant's cards are drawn once, inside the group that
        // carries its state (stance, stats), never again loose in the zone.
        cards: Vec::new(),
        groups: vec![GroupView { label: "servant".to_string(), cards: servant_cards, facts }],
    }
}

/// A face-up Servant's stats, and whether it strikes first.
fn face_up_servant_facts(s: &FateState, seat: Seat) -> Vec<String> {
    use super::events::Stat::*;
    let mut facts = vec![format!(
        "physical {}/{}, magical {}/{}",
        s.stat(seat, PhysicalAttack),
        s.stat(seat, PhysicalDefense),
        s.stat(seat, MagicalAttack),
        s.stat(seat, MagicalDefense)
    )];
    if s.preemptive(seat) {
        facts.push("preemptive strike".to_string());
    }
    facts
}

fn board_facts(s: &FateState) -> Vec<(String, String)> {
    let mut facts = vec![
        ("step".to_string(), s.step.name().to_string()),
        ("phase".to_string(), s.phase.to_string()),
        ("turn order".to_string(), format!("{:?}", s.policies.turn_order)),
    ];
    if let Some(am) = s.active_master.filter(|_| <super::Fate as crate::game::Game>::outcome(s).is_none()) {
        facts.push(("active master".to_string(), s.name(am)));
    }
    if let Some(b) = &s.battle {
        facts.push(("battle".to_string(), format!("{} attacks {}", s.name(b.attacker), s.name(b.responder))));
        facts.push(("process".to_string(), b.process.name().to_string()));
    }
    if !s.defeated.is_empty() {
        let order: Vec<String> = s.defeated.iter().map(|d| s.name(*d)).collect();
        facts.push(("defeated (in order)".to_string(), order.join(", ")));
    }
    for (k, v) in s.policies.to_pairs() {
        facts.push((format!("policy {k}"), v));
    }
    facts
}

/// `HS01 Knight of the Lake (invented) (p0-3)`.
pub fn label(s: &FateState, instance: &str) -> String {
    crate::game::catalog::instance_label(s.def(instance), instance)
}

fn labels(s: &FateState, cards: &[String]) -> String {
    if cards.is_empty() {
        return "nothing".to_string();
    }
    cards.iter().map(|c| label(s, c)).collect::<Vec<_>>().join(", ")
}

fn refs(s: &FateState, cards: &[CardRef], visible: bool) -> String {
    if !visible {
        return match cards.len() {
            1 => "1 card".to_string(),
            n => format!("{n} cards"),
        };
    }
    let named: Vec<String> = cards
        .iter()
        .map(|c| match c {
            CardRef::Open(c) => label(s, c),
            CardRef::Sealed(_) => "a sealed card".to_string(),
        })
        .collect();
    if named.is_empty() {
        "no cards".to_string()
    } else {
        named.join(", ")
    }
}

/// A payment; `faces` are the dice recorded for the activation, used by its `Rolled` payments in order.
fn payment(s: &FateState, p: &Payment, faces: &mut std::vec::IntoIter<u32>) -> String {
    match p {
        Payment::Tapped => "T".to_string(),
        Payment::Rested(c) => format!("rested {}", labels(s, c)),
        Payment::Rolled => faces.next().map_or("rolled (no roll recorded)".to_string(), |r| format!("rolled {r}")),
        Payment::Discarded(c) => format!("discarded {}", labels(s, c)),
        Payment::XPaid(x) => format!("X: {x}"),
    }
}

/// One line describing `event`, as `viewer` may see it; `s` is the state before it.
pub fn describe(s: &FateState, event: &FateEvent, viewer: Viewer) -> String {
    use FateEvent::*;
    let n = |seat: &Seat| s.name(*seat);
    let l = |c: &str| label(s, c);
    match event {
        ServantSet { seat, heroic_spirit, class } => format!(
            "{} set a Servant face down: {}",
            n(seat),
            refs(s, &[heroic_spirit.clone(), class.clone()], hand_visibility(*seat).sees(viewer))
        ),
        CardsDealt { seat, cards } => {
            format!("{} was dealt {}", n(seat), refs(s, cards, hand_visibility(*seat).sees(viewer)))
        }
        FirstActiveMasterChosen { seat } => format!("{} became the first Active Master", n(seat)),
        ActiveMasterHandedOver { from, to } => format!("{} handed the Active Master status to {}", n(from), n(to)),
        TurnStarted { seat } => format!("{}'s turn {} began", n(seat), s.turn + 1),
        CardsStood { seat } => format!("{} stood up every Resting card", n(seat)),
        CardDrawn { seat, card: Some(c) } => {
            format!("{} drew {}", n(seat), refs(s, std::slice::from_ref(c), hand_visibility(*seat).sees(viewer)))
        }
        CardDrawn { seat, card: None } => format!("{} could not draw: the deck is empty", n(seat)),
        SecretSignPlaced { seat, card } => format!("{} placed Secret Sign {}", n(seat), l(card)),
        ServantRevealed { seat, cards, drawn } => describe_servant_revealed(s, *seat, cards, drawn, viewer),
        RitualStepEnded { seat } => format!("{} ended the ritual step", n(seat)),
        EncounterRolled { seat } => describe_encounter(s, *seat),
        RandomServantSelected { seat, target } => {
            format!("the random Servant was {}'s: {} battles it", n(target), n(seat))
        }
        AssaultDeclared { seat, target } => format!("{} declared an assault on {}", n(seat), n(target)),
        BattleStepSkipped { seat } => format!("{} declared no assault", n(seat)),
        BattleServantsRevealed { servants } => describe_battle_servants(s, servants),
        BattleProcessEnded => "the battle process ended".to_string(),
        AttackTypeChosen { seat, attack } => format!(
            "{} chose a {} attack",
            n(seat),
            if *attack == super::events::AttackType::Physical { "physical" } else { "magical" }
        ),
        DamageDealt { to_attacker, to_responder } => {
            format!("damage: the attacker took {to_attacker}, the responder took {to_responder}")
        }
        CardTakenFromHand { winner, loser, index, card } => describe_taken(s, *winner, *loser, *index, card, viewer),
        BattleEnded => "the battle ended".to_string(),
        HandDiscarded { seat, cards } => format!("{} discarded {} to the hand limit", n(seat), labels(s, cards)),
        TurnEnded { seat } => format!("{}'s turn ended", n(seat)),
        EffectActivated { seat, card, effect, paid, succeeded } => {
            describe_effect(s, *seat, card, *effect, paid, *succeeded)
        }
        CommandSpellUsed { seat, spell } => describe_command_spell(s, *seat, spell),
        CardStateChanged { card, state, note } => format!("{} became {} ({note})", l(card), state.name()),
        PranaChanged { seat, delta, note } => format!("{}'s prana changed by {delta:+} ({note})", n(seat)),
        StatModified { seat, stat, delta, note } => format!("{}'s Servant got {stat:?} {delta:+} ({note})", n(seat)),
        SpecialMarkPlaced { seat, mark, note } => format!("{} got the special mark {mark:?} ({note})", n(seat)),
        EffectResolved { seat, card, note } => format!("{}'s {}: {note}", n(seat), l(card)),
        CommandSpellLost { seat, note } => format!("{} lost a Command Spell ({note})", n(seat)),
        PranaChangedTogether { changes, note } => {
            let each: Vec<String> = changes.iter().map(|c| format!("{} {:+}", n(&c.seat), c.delta)).collect();
            format!("prana changed at once: {} ({note})", each.join(", "))
        }
        Common(c) => crate::game::common::describe(c, viewer, |x| s.name(x)),
        CardRevealed { seat, card, .. } => {
            if hand_visibility(*seat).sees(viewer) {
                format!("{} opened a sealed hand card: {}", n(seat), l(card))
            } else {
                format!("{} opened a sealed hand card to the record", n(seat))
            }
        }
        _ => describe_step(s, event),
    }
}

/// Version 4's steps (the stand step naming its cards, and the automatic steps), in words.
fn describe_step(s: &FateState, event: &FateEvent) -> String {
    use FateEvent::*;
    let names = |seats: &[Seat]| seats.iter().map(|x| s.name(*x)).collect::<Vec<_>>().join(" and ");
    match event {
        RestingCardsStood { seat, servant, signs } => {
            let mut stood: Vec<String> = signs.iter().map(|c| label(s, c)).collect();
            if *servant {
                stood.insert(0, "the Servant".into());
            }
            match stood.len() {
                0 => format!("{} had no Resting card to stand", s.name(*seat)),
                _ => format!("{} stood up {}", s.name(*seat), stood.join(", ")),
            }
        }
        ServantLeftDanger { seat } => {
            format!(
                "{}'s Servant turned from Danger to Resting (the Master received the Active Master status)",
                s.name(*seat)
            )
        }
        PranaLost { losses } => {
            let each: Vec<String> =
                losses.iter().map(|x| format!("{} lost {} prana", s.name(x.seat), x.amount)).collect();
            format!("wounding: {}", each.join(", "))
        }
        WoundedServantsRested { seats } => format!("retreat: {}'s wounded Servant went Resting", names(seats)),
        ServantsEndangered { seats } => format!("{}'s Servant entered Danger at 0 prana", names(seats)),
        MastersDefeated { seats, reason } => {
            let (rule, why) = reason.rule();
            format!("{} defeated: {why} ({rule})", names(seats))
        }
        ActiveStatusPassed { from, to } => {
            format!("the Active Master status passed from the defeated {} to {}", s.name(*from), s.name(*to))
        }
        _ => String::new(),
    }
}

fn describe_servant_revealed(
    s: &FateState,
    seat: Seat,
    cards: &[Unveiled],
    drawn: &[CardRef],
    viewer: Viewer,
) -> String {
    format!(
        "{} revealed the Servant ({}) and drew {}",
        s.name(seat),
        cards.iter().map(|u| label(s, &u.card)).collect::<Vec<_>>().join(", "),
        refs(s, drawn, hand_visibility(seat).sees(viewer))
    )
}

/// The encounter die is the roll recorded before this event.
fn describe_encounter(s: &FateState, seat: Seat) -> String {
    match rolled_faces(&s.pending).first() {
        Some(roll) => format!(
            "{} rolled {roll} for the encounter: {}",
            s.name(seat),
            if *roll == 1 { "battle against a random Servant" } else { "no battle" }
        ),
        None => format!("{} rolled for the encounter (no roll recorded): no battle", s.name(seat)),
    }
}

fn describe_battle_servants(s: &FateState, servants: &[ServantUnveiled]) -> String {
    let parts: Vec<String> = servants
        .iter()
        .map(|x| {
            let cards = x.cards.iter().map(|u| label(s, &u.card)).collect::<Vec<_>>().join(" + ");
            format!("{}'s {}", s.name(x.seat), cards)
        })
        .collect();
    format!("reveal process: {}", if parts.is_empty() { "nothing face down".to_string() } else { parts.join("; ") })
}

fn describe_taken(s: &FateState, winner: Seat, loser: Seat, index: u8, card: &CardRef, viewer: Viewer) -> String {
    let visible = taken_card_sees(winner, loser, viewer);
    format!(
        "{} took {} (position {}) from {}'s hand",
        s.name(winner),
        refs(s, std::slice::from_ref(card), visible),
        index + 1,
        s.name(loser)
    )
}

/// An activation with its printed cost and what was paid; `Rolled` payments take the dice
/// recorded before it, in order.
fn describe_effect(s: &FateState, seat: Seat, card: &str, effect: u8, paid: &[Payment], succeeded: bool) -> String {
    let def = s.def(card).and_then(|d| d.effects.get(usize::from(effect)));
    let mut faces = rolled_faces(&s.pending).into_iter();
    format!(
        "{} activated {} of {} (cost {}; paid {}): {}",
        s.name(seat),
        def.map_or(format!("effect {effect}"), |e| format!("{:?}", e.name)),
        label(s, card),
        def.map_or(String::new(), |e| cost_labels(&e.costs())),
        paid.iter().map(|p| payment(s, p, &mut faces)).collect::<Vec<_>>().join(", "),
        if succeeded { "it works" } else { "it fails" }
    )
}

/// `left` counts the Command Spells after this one (the state is the one before it).
fn describe_command_spell(s: &FateState, seat: Seat, spell: &SpellUse) -> String {
    let what = match spell {
        SpellUse::PranaRestored => "restore one prana".to_string(),
        SpellUse::StatRaised(stat) => format!("raise {stat:?} by the Secret Signs on the field"),
        SpellUse::MarkRemoved(m) => format!("remove the special mark {m:?}"),
        SpellUse::EffectUsedFree { card, effect } => {
            format!("use effect {effect} of {} without its cost", label(s, card))
        }
        SpellUse::ServantStood => "stand the Servant up".to_string(),
    };
    let left = s.master(seat).map_or(0, |m| m.command_spells.saturating_sub(1));
    format!("{} used Command Spell option {} ({what}); {left} left", s.name(seat), spell.option())
}

// ---- The table as data (drawn by the web viewer with no per-game code) ----

/// One Master's side: hand, deck and discard at the Master's edge, the Servant and the Secret
/// Signs towards the middle of the table, where the other Masters' Servants face it.
pub fn layout() -> TableLayout {
    use AreaStyle::{Pile, Row};
    TableLayout {
        columns: 6,
        areas: vec![
            // The discard pile two columns wide: one column of an opponent's side at 1400 px is
            // narrower than the word "Discard" and its top card's name.
            AreaLayout::seat("hand", 1, 1, 1, 3, Row),
            AreaLayout::seat("deck", 1, 4, 1, 1, Pile),
            AreaLayout::seat("discard", 1, 5, 1, 2, Pile),
            AreaLayout::seat("secret-signs", 2, 1, 1, 3, Row),
            AreaLayout::seat("servant", 2, 4, 1, 3, Row),
        ],
    }
}
