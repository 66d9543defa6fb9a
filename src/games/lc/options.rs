//! What a seat may record now in line combat ([`crate::game::options`]): every action of the
//! seat's turn and of an attack, labelled from the seat's own view, each kept only when
//! `validate` accepts it. The agent chooses among these (see [`super::agent`]).
//!
//! Draws at a physical table (the opening hand, a refill, the new hand of a full discard) are one
//! option each with a card parameter: which cards of the seat's own pile it drew. Draws of a
//! digital game follow the dealer's seed: a refill and a full discard are still the seat's
//! choice, with a [`ParamKind::Dealt`] parameter kifu fills as the dealer.
//!
//! Automatic steps: `RoundStarted` and `GameEnded` ([`automatic`]); when kifu deals a digital
//! game ([`dealt`]), also the seed's commitment, both seeded shuffles, the opening hands and the
//! seed's reveal after the end.

use super::catalog::{CardKind, HAND_SIZE};
use super::config::{RoundKind, ShuffleMode, SEED_KEY};
use super::events::{CardRef, CommonEvent, Duration, EndReason, LcEvent, Line, PointsChanged, ProtectFrom, Stat};
use super::rules::expected_result;
use super::state::{pile_name, Held, LcState};
use super::Lc;
use crate::game::commit::{commit_seed, AgentSecrets};
use crate::game::options::{legal, Concern, GameOption, Param, ParamKind, ParamValue, Pick};
use crate::game::{opponent, Seat};

/// The actions `seat` may record now.
pub fn options(s: &LcState, seat: Seat) -> Vec<GameOption<LcEvent>> {
    let mut o = Vec::new();
    if s.result.is_some() {
        return o;
    }
    setup(s, seat, &mut o);
    if let Some(a) = &s.attack {
        attack(s, seat, a.seat, &mut o);
    } else if s.turn.as_ref().is_some_and(|t| t.seat == seat) {
        turn(s, seat, &mut o);
    }
    legal::<Lc>(s, o)
}

/// The next event the rules fully determine, recorded by kifu itself: the next round once
/// both turns of a round are over, and the end of the game once the board shows it.
pub fn automatic(s: &LcState) -> Option<LcEvent> {
    if s.result.is_some() || setup_open(s) {
        return None;
    }
    if let Some(reason) = s.points_end() {
        return Some(LcEvent::GameEnded { reason, winners: s.winners_for(reason) });
    }
    if s.turn.is_some() {
        return None;
    }
    if s.pile_end() {
        let reason = EndReason::EmptyDrawPile;
        return Some(LcEvent::GameEnded { reason, winners: s.winners_for(reason) });
    }
    let round = if s.round == 0 { s.first_round() } else { s.round + 1 };
    let first = s.first.unwrap_or(0);
    let first = match s.policies.round {
        RoundKind::BothTurns => first,
        RoundKind::OneTurn if (round - s.first_round()) % 2 == 0 => first,
        RoundKind::OneTurn => opponent(first),
    };
    Some(LcEvent::RoundStarted { round, first })
}

/// The seed key kifu holds as the dealer of a digital game.
pub fn dealer_key(config: &super::LcConfig) -> Option<&'static str> {
    (config.v1().shuffles == ShuffleMode::Digital).then_some(SEED_KEY)
}

/// What the dealer's seed determines in a digital game: its commitment first, each seat's
/// seeded shuffle, the opening hands once the first player is known, the reveal after the end.
pub fn dealt(s: &LcState, dealer: &AgentSecrets) -> Option<LcEvent> {
    let seed = dealer.seeds.get(SEED_KEY).filter(|_| s.shuffles == ShuffleMode::Digital)?;
    let key = SEED_KEY.to_string();
    if s.result.is_some() {
        let due = s.ledger.seed_commitment(SEED_KEY).is_some() && !s.ledger.seed_is_revealed(SEED_KEY);
        return due.then_some(LcEvent::Common(CommonEvent::SeedRevealed { key, seat: None, seed: *seed }));
    }
    if s.ledger.seed_commitment(SEED_KEY).is_none() {
        return Some(LcEvent::Common(CommonEvent::SeedCommitted { key, seat: None, commitment: commit_seed(seed) }));
    }
    if let Some(seat) = [0u8, 1].into_iter().find(|&seat| s.players.get(seat).is_some_and(|p| !p.shuffled)) {
        return Some(LcEvent::DeckShuffled { seat, by: seat, seed: Some(key) });
    }
    s.first?;
    let seat = [0u8, 1].into_iter().find(|&seat| s.players.get(seat).is_some_and(|p| !p.hand_drawn))?;
    let n = HAND_SIZE.min(s.players.get(seat)?.pile_count);
    let cards = deal_cards(s, seat, n, dealer)?;
    Some(LcEvent::OpeningHandDrawn { seat, cards: open_cards(&cards) })
}

/// The events only the dealer records in a digital game: its seed's commitment and reveal, the
/// seeded shuffles, and every draw (the opening hands, a full discard's new cards, a refill),
/// whose cards come from the seed; a seat picks the draw's option and kifu fills the cards.
pub fn dealer_deals(event: &LcEvent) -> bool {
    match event {
        LcEvent::Common(CommonEvent::SeedCommitted { seat, .. } | CommonEvent::SeedRevealed { seat, .. }) => {
            seat.is_none()
        }
        LcEvent::DeckShuffled { seed, .. } => seed.is_some(),
        LcEvent::FullDiscarded { drawn, .. } => !drawn.is_empty(),
        LcEvent::OpeningHandDrawn { .. } | LcEvent::RefillDrawn { .. } => true,
        _ => false,
    }
}

/// The next `n` cards of `seat`'s pile as the dealer's seed orders them.
pub fn deal_cards(s: &LcState, seat: Seat, n: usize, dealer: &AgentSecrets) -> Option<Vec<String>> {
    let seed = dealer.seeds.get(SEED_KEY).filter(|_| s.shuffles == ShuffleMode::Digital)?;
    crate::game::dealer::deal(&s.ledger, &pile_name(seat), seed, n)
}

/// Whether the setup (shuffles, first player, opening hands) is still going on.
fn setup_open(s: &LcState) -> bool {
    s.round == 0 && (s.first.is_none() || s.players.iter().any(|p| !p.hand_drawn || !p.shuffled))
}

fn card_name(s: &LcState, card: &str) -> String {
    s.def(card).map_or_else(|| card.to_string(), |d| d.name.clone())
}

/// Where a field card lies, in the seat's words: "rui's defense line, slot 2".
fn place(s: &LcState, card: &str) -> Option<String> {
    let (owner, line, i) = s.on_field(card)?;
    Some(format!("{}'s {}, slot {}", s.name(owner), line_name(line), i + 1))
}

/// Whether `seat` may see which card `card` is: its own, or face up on the field.
fn visible(s: &LcState, seat: Seat, card: &str) -> bool {
    LcState::owner(card) == Some(seat) || s.field_card(card).is_some_and(|f| !f.face_down)
}

/// A field card as `seat` may name it: its name when it may see it, otherwise its place.
fn seen(s: &LcState, seat: Seat, card: &str) -> String {
    if visible(s, seat, card) {
        card_name(s, card)
    } else {
        format!("the face-down card in {}", place(s, card).unwrap_or_else(|| "play".into()))
    }
}

/// What a page attaches an option on `card` to: the card itself when `seat` may see it, its
/// place otherwise (a hidden card's instance id is not the seat's to know).
fn concern(s: &LcState, seat: Seat, card: &str) -> Concern {
    if visible(s, seat, card) {
        Concern::Card(card.to_string())
    } else {
        Concern::Zone(place(s, card).unwrap_or_else(|| "field".into()))
    }
}

fn line_name(line: Line) -> &'static str {
    match line {
        Line::Attack => "attack line",
        Line::Defense => "defense line",
        Line::Strategy => "strategy line",
    }
}

/// The parameter "which cards of your pile did you draw": `count` cards among the pile's.
fn drawn_param(s: &LcState, seat: Seat, count: usize) -> Param {
    let values = s
        .players
        .get(seat)
        .map(|p| p.pile.iter().map(|c| ParamValue::new(c.clone(), card_name(s, c))).collect())
        .unwrap_or_default();
    Param::cards(format!("the {count} card(s) you drew"), count, values)
}

fn open_cards(values: &[String]) -> Vec<CardRef> {
    values.iter().cloned().map(CardRef::Open).collect()
}

fn read_open(cards: &[CardRef]) -> Option<Vec<String>> {
    cards.iter().map(|c| if let CardRef::Open(id) = c { Some(id.clone()) } else { None }).collect()
}

/// A draw option: the event with its cards as the parameter, which the seat states at a
/// physical table and kifu deals from the seed in a digital game ([`ParamKind::Dealt`]).
fn draw_option(
    s: &LcState,
    seat: Seat,
    label: String,
    count: usize,
    template: LcEvent,
    fill: fn(&LcEvent, &[String]) -> Option<LcEvent>,
    read: fn(&LcEvent) -> Option<Vec<String>>,
) -> Option<GameOption<LcEvent>> {
    if count == 0 {
        return Some(GameOption::event(seat, label, vec![Concern::Zone("pile".into())], template));
    }
    let param = match s.shuffles {
        ShuffleMode::Physical => drawn_param(s, seat, count),
        ShuffleMode::Digital => Param {
            name: "cards",
            label: format!("the {count} card(s) kifu deals you"),
            kind: ParamKind::Dealt,
            count,
            values: vec![],
            secret: None,
        },
    };
    Some(GameOption {
        seat,
        label,
        concerns: vec![Concern::Zone("pile".into())],
        pick: Pick::Param { param, template, fill, read },
    })
}

fn setup(s: &LcState, seat: Seat, o: &mut Vec<GameOption<LcEvent>>) {
    if s.round != 0 {
        return;
    }
    let Some(p) = s.players.get(seat) else { return };
    if !p.shuffled && s.shuffles == ShuffleMode::Physical {
        o.push(GameOption::event(
            seat,
            "Shuffle your deck",
            vec![Concern::Zone("pile".into())],
            LcEvent::DeckShuffled { seat, by: seat, seed: None },
        ));
    }
    if s.first.is_none() && seat == 0 {
        // The table tosses a coin; either seat may record who won it (the first seat's page
        // offers it, so it is offered once).
        let names = |f: Seat| ParamValue::new(f.to_string(), s.name(f));
        o.push(GameOption {
            seat,
            label: "Record who goes first (coin toss)".into(),
            concerns: vec![],
            pick: Pick::Param {
                param: Param {
                    name: "first",
                    label: "who goes first".into(),
                    kind: ParamKind::Choice,
                    count: 1,
                    values: vec![names(0), names(1)],
                    secret: None,
                },
                template: LcEvent::FirstPlayerChosen { first: 0, how: "coin toss".into() },
                fill: |_, v| {
                    let first = v.first()?.parse().ok()?;
                    Some(LcEvent::FirstPlayerChosen { first, how: "coin toss".into() })
                },
                read: |e| match e {
                    LcEvent::FirstPlayerChosen { first, .. } => Some(vec![first.to_string()]),
                    _ => None,
                },
            },
        });
    }
    if p.shuffled && !p.hand_drawn {
        let n = HAND_SIZE.min(p.pile_count);
        o.extend(draw_option(
            s,
            seat,
            format!("Draw your opening hand ({n} cards)"),
            n,
            LcEvent::OpeningHandDrawn { seat, cards: vec![] },
            |e, v| match e {
                LcEvent::OpeningHandDrawn { seat, .. } => {
                    Some(LcEvent::OpeningHandDrawn { seat: *seat, cards: open_cards(v) })
                }
                _ => None,
            },
            |e| match e {
                LcEvent::OpeningHandDrawn { cards, .. } => read_open(cards),
                _ => None,
            },
        ));
    }
}

fn attack(s: &LcState, seat: Seat, attacker_seat: Seat, o: &mut Vec<GameOption<LcEvent>>) {
    let Some(a) = &s.attack else { return };
    let defender = opponent(attacker_seat);
    if seat == defender && a.protection.is_none() {
        if let Some(d) = s.players.get(defender) {
            for h in d.hand.iter().filter_map(Held::known) {
                if s.kind(h) == Some(CardKind::Protection) {
                    o.push(GameOption::event(
                        seat,
                        format!("Protect with {} from your hand", card_name(s, h)),
                        vec![Concern::Card(h.to_string()), Concern::Zone("hand".into())],
                        LcEvent::ProtectionPlayed { seat, card: h.to_string(), from: ProtectFrom::Hand },
                    ));
                }
            }
            for f in d.strategy.iter().filter(|f| s.kind(&f.card) == Some(CardKind::Protection)) {
                o.push(GameOption::event(
                    seat,
                    format!("Protect with {} from the strategy line", card_name(s, &f.card)),
                    vec![Concern::Card(f.card.clone())],
                    LcEvent::ProtectionPlayed { seat, card: f.card.clone(), from: ProtectFrom::Field },
                ));
            }
        }
    }
    if seat == attacker_seat && a.protection.is_none() {
        strategies(s, seat, "for this attack", o);
        for card in std::iter::once(&a.attacker).chain(a.target.iter()) {
            o.push(modifier_option(s, seat, card));
        }
    }
    for card in std::iter::once(&a.attacker).chain(a.target.iter()) {
        let own = LcState::owner(card) == Some(seat);
        if own && s.field_card(card).is_some_and(|f| f.face_down) {
            o.push(GameOption::event(
                seat,
                format!("Turn {} face up", card_name(s, card)),
                vec![Concern::Card(card.clone())],
                LcEvent::CardsFlipped { seat, cards: vec![card.clone()] },
            ));
        }
    }
    if let Some(e) = expected_result(s) {
        let label = match &a.target {
            Some(t) => format!("Resolve the attack of {} on {}", seen(s, seat, &a.attacker), seen(s, seat, t)),
            None => format!("Resolve the direct attack of {}", seen(s, seat, &a.attacker)),
        };
        o.push(GameOption::event(
            seat,
            label,
            std::iter::once(&a.attacker).chain(a.target.iter()).map(|c| concern(s, seat, c)).collect(),
            e.event(),
        ));
    }
}

/// The changes a card's effect may make to a Sword or Shield (LC-OPEN-15), as one choice:
/// each stat, by -3 to +3, for the round or for good.
const MODIFIER_DELTAS: [i32; 6] = [-3, -2, -1, 1, 2, 3];

fn modifier_value(stat: Stat, delta: i32, duration: Duration) -> String {
    let stat = match stat {
        Stat::Sword => "sword",
        Stat::Shield => "shield",
    };
    let lasts = match duration {
        Duration::EndOfRound => "round",
        Duration::Permanent => "permanent",
    };
    format!("{stat}:{delta:+}:{lasts}")
}

fn modifier_values() -> Vec<ParamValue> {
    let mut out = Vec::new();
    for stat in [Stat::Sword, Stat::Shield] {
        for duration in [Duration::EndOfRound, Duration::Permanent] {
            for delta in MODIFIER_DELTAS {
                let label = format!(
                    "{} {delta:+} {}",
                    if stat == Stat::Sword { "Sword" } else { "Shield" },
                    if duration == Duration::EndOfRound { "until the round ends" } else { "for good" }
                );
                out.push(ParamValue::new(modifier_value(stat, delta, duration), label));
            }
        }
    }
    out
}

/// A card's effect changing the Sword or Shield of a card in the attack: one option per card,
/// the change as a choice.
fn modifier_option(s: &LcState, seat: Seat, card: &str) -> GameOption<LcEvent> {
    let template = LcEvent::ModifierApplied {
        target: card.to_string(),
        stat: Stat::Sword,
        delta: 1,
        duration: Duration::EndOfRound,
    };
    let param = Param {
        name: "change",
        label: "the change the effect makes".into(),
        kind: ParamKind::Choice,
        count: 1,
        values: modifier_values(),
        secret: None,
    };
    GameOption {
        seat,
        label: format!("Change the Sword or Shield of {} (a card's effect)", seen(s, seat, card)),
        concerns: vec![concern(s, seat, card)],
        pick: Pick::Param {
            param,
            template,
            fill: |e, v| {
                let LcEvent::ModifierApplied { target, .. } = e else { return None };
                let mut parts = v.first()?.split(':');
                let stat = match parts.next()? {
                    "sword" => Stat::Sword,
                    "shield" => Stat::Shield,
                    _ => return None,
                };
                let delta = parts.next()?.parse().ok()?;
                let duration = match parts.next()? {
                    "round" => Duration::EndOfRound,
                    "permanent" => Duration::Permanent,
                    _ => return None,
                };
                Some(LcEvent::ModifierApplied { target: target.clone(), stat, delta, duration })
            },
            read: |e| match e {
                LcEvent::ModifierApplied { stat, delta, duration, .. } => {
                    Some(vec![modifier_value(*stat, *delta, *duration)])
                }
                _ => None,
            },
        },
    }
}

fn strategies(s: &LcState, seat: Seat, note: &str, o: &mut Vec<GameOption<LcEvent>>) {
    let Some(p) = s.players.get(seat) else { return };
    for f in p.strategy.iter().filter(|f| s.kind(&f.card) == Some(CardKind::Strategy)) {
        o.push(GameOption::event(
            seat,
            format!("Activate {}", card_name(s, &f.card)),
            vec![Concern::Card(f.card.clone())],
            LcEvent::StrategyActivated { seat, card: f.card.clone(), note: note.into() },
        ));
        o.push(strategy_points_option(s, seat, &f.card));
    }
}

/// Who a Strategy card's effect on Combat Points changes, in a picked value `WHO:DELTA`.
const POINTS_WHO: [(&str, &str); 3] = [("opponent", "your opponent"), ("self", "you"), ("both", "both players")];

/// The changes a picked `WHO:DELTA` value stands for (`seat` used the card).
fn points_changes(seat: Seat, value: &str) -> Option<Vec<PointsChanged>> {
    let (who, delta) = value.split_once(':')?;
    let delta: i32 = delta.parse().ok().filter(|d| *d != 0)?;
    let seats = match who {
        "opponent" => vec![opponent(seat)],
        "self" => vec![seat],
        "both" => vec![seat, opponent(seat)],
        _ => return None,
    };
    Some(seats.into_iter().map(|seat| PointsChanged { seat, delta }).collect())
}

/// A Strategy card's effect on Combat Points (card-defined, LC-OPEN-15): whose points and by how
/// much, as one choice; "both players" is one event, so both reaching zero is a draw (LC-END-2).
fn strategy_points_option(s: &LcState, seat: Seat, card: &str) -> GameOption<LcEvent> {
    let mut values = Vec::new();
    for (who, label) in POINTS_WHO {
        for delta in [-5, -4, -3, -2, -1, 1, 2, 3, 4, 5] {
            values.push(ParamValue {
                value: format!("{who}:{delta}"),
                label: format!("{label} {delta:+}"),
                group: None,
                also: None,
            });
        }
    }
    let param = Param {
        name: "change",
        label: "whose Combat Points the effect changes, and by how much".into(),
        kind: ParamKind::Choice,
        count: 1,
        values,
        secret: None,
    };
    GameOption {
        seat,
        label: format!("Combat Points changed by {} (its effect)", card_name(s, card)),
        concerns: vec![Concern::Card(card.to_string())],
        pick: Pick::Param {
            param,
            template: LcEvent::StrategyPointsChanged { seat, card: card.to_string(), changes: vec![] },
            fill: |e, v| {
                let LcEvent::StrategyPointsChanged { seat, card, .. } = e else { return None };
                let changes = points_changes(*seat, v.first()?)?;
                Some(LcEvent::StrategyPointsChanged { seat: *seat, card: card.clone(), changes })
            },
            read: |e| {
                let LcEvent::StrategyPointsChanged { seat, changes, .. } = e else { return None };
                let delta = changes.first()?.delta;
                let value = POINTS_WHO
                    .iter()
                    .map(|(who, _)| format!("{who}:{delta}"))
                    .find(|v| points_changes(*seat, v).as_ref() == Some(changes))?;
                Some(vec![value])
            },
        },
    }
}

fn turn(s: &LcState, seat: Seat, o: &mut Vec<GameOption<LcEvent>>) {
    let (Some(p), Some(t)) = (s.players.get(seat), s.turn.as_ref()) else { return };
    let hand: Vec<String> = p.hand.iter().filter_map(Held::known).map(str::to_string).collect();
    if !t.acted && !t.discarded && super::rules::full_discard_open(s, p) {
        let n = HAND_SIZE.min(p.pile_count);
        o.extend(draw_option(
            s,
            seat,
            format!("Discard your whole hand and draw {n} (10 points)"),
            n,
            LcEvent::FullDiscarded { seat, discarded: hand.clone(), drawn: vec![], cost: 10 },
            |e, v| match e {
                LcEvent::FullDiscarded { seat, discarded, cost, .. } => Some(LcEvent::FullDiscarded {
                    seat: *seat,
                    discarded: discarded.clone(),
                    drawn: open_cards(v),
                    cost: *cost,
                }),
                _ => None,
            },
            |e| match e {
                LcEvent::FullDiscarded { drawn, .. } => read_open(drawn),
                _ => None,
            },
        ));
    }
    for card in &hand {
        put_down(s, seat, card, o);
    }
    if s.combat_phase() {
        combat(s, seat, o);
    }
    for line in Line::ALL {
        for f in p.line(line).iter().filter(|f| f.face_down) {
            o.push(GameOption::event(
                seat,
                format!("Turn {} face up", card_name(s, &f.card)),
                vec![Concern::Card(f.card.clone())],
                LcEvent::CardsFlipped { seat, cards: vec![f.card.clone()] },
            ));
        }
    }
    if !t.refilled {
        let due = s.refill_due(seat);
        o.extend(draw_option(
            s,
            seat,
            format!("Refill your hand ({due} cards)"),
            due,
            LcEvent::RefillDrawn { seat, cards: vec![] },
            |e, v| match e {
                LcEvent::RefillDrawn { seat, .. } => Some(LcEvent::RefillDrawn { seat: *seat, cards: open_cards(v) }),
                _ => None,
            },
            |e| match e {
                LcEvent::RefillDrawn { cards, .. } => read_open(cards),
                _ => None,
            },
        ));
    }
    o.push(GameOption::event(seat, "End your turn", vec![], LcEvent::TurnPassed { seat }));
}

/// Putting a hand card down: on each line it may go to, face up or down, replacing each card of
/// a full line; an equipment or effect card attached to each of the seat's cards.
fn put_down(s: &LcState, seat: Seat, card: &str, o: &mut Vec<GameOption<LcEvent>>) {
    let (Some(p), Some(kind)) = (s.players.get(seat), s.kind(card)) else { return };
    let name = card_name(s, card);
    let lines: &[Line] = match kind {
        CardKind::Combat => &[Line::Attack, Line::Defense],
        CardKind::Strategy | CardKind::Protection => &[Line::Strategy],
        CardKind::Equipment | CardKind::Effect => {
            for host in p.attack.iter().chain(&p.defense) {
                o.push(GameOption::event(
                    seat,
                    format!("Attach {name} to {}", card_name(s, &host.card)),
                    vec![Concern::Card(card.to_string()), Concern::Card(host.card.clone())],
                    LcEvent::CardAttached { seat, card: card.to_string(), to: host.card.clone() },
                ));
            }
            &[]
        }
    };
    for &line in lines {
        let full = p.line(line).len() >= s.policies.slots as usize;
        let replaced: Vec<Option<String>> =
            if full { p.line(line).iter().map(|f| Some(f.card.clone())).collect() } else { vec![None] };
        for face_down in [false, true] {
            for r in &replaced {
                let how = if face_down { " face down" } else { "" };
                let instead = r.as_ref().map(|r| format!(", replacing {}", card_name(s, r))).unwrap_or_default();
                let mut concerns = vec![Concern::Card(card.to_string()), Concern::Zone(line_name(line).into())];
                concerns.extend(r.iter().map(|r| Concern::Card(r.clone())));
                o.push(GameOption::event(
                    seat,
                    format!("Put down {name}{how} in the {}{instead}", line_name(line)),
                    concerns,
                    LcEvent::CardPutDown { seat, card: card.to_string(), line, face_down, replaced: r.clone() },
                ));
            }
        }
    }
}

/// The Combat Phase's actions: attacks, direct attacks, shifts between lines, strategies.
fn combat(s: &LcState, seat: Seat, o: &mut Vec<GameOption<LcEvent>>) {
    let (Some(p), Some(foe)) = (s.players.get(seat), s.players.get(opponent(seat))) else { return };
    for f in &p.attack {
        let name = card_name(s, &f.card);
        o.push(GameOption::event(
            seat,
            format!("Attack directly with {name}"),
            vec![Concern::Card(f.card.clone())],
            LcEvent::DirectAttackDeclared { seat, attacker: f.card.clone() },
        ));
        for target in foe.attack.iter().chain(&foe.defense) {
            o.push(GameOption::event(
                seat,
                format!("Attack {} with {name}", seen(s, seat, &target.card)),
                vec![Concern::Card(f.card.clone()), concern(s, seat, &target.card)],
                LcEvent::AttackDeclared { seat, attacker: f.card.clone(), target: target.card.clone() },
            ));
        }
    }
    for (line, to) in [(Line::Attack, Line::Defense), (Line::Defense, Line::Attack)] {
        for f in p.line(line) {
            o.push(GameOption::event(
                seat,
                format!("Move {} to the {}", card_name(s, &f.card), line_name(to)),
                vec![Concern::Card(f.card.clone()), Concern::Zone(line_name(to).into())],
                LcEvent::CardShifted { seat, card: f.card.clone(), to },
            ));
        }
    }
    strategies(s, seat, "no effect recorded", o);
}
