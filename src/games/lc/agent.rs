//! Random legal play: self-play configurations and an agent that plays whole games, emitting only
//! events that `validate` accepts.
//!
//! Each step the agent lists the actions open to the player whose move it is (put a card down,
//! attach, move, flip, activate a strategy, attack, attack directly, protect, refill, pass, a
//! full discard), keeps those `validate` accepts and picks one by weight, so every mechanic
//! occurs and a game always ends. An attack's result is what [`expected_result`] computes.
//!
//! Digital games commit the dealer's seed first, draw exactly the card the seeded order puts on
//! top and reveal the seed once the game has an outcome; physical games draw a uniformly random
//! card of the pile, which is what a real shuffle looks like to the log.

use rand::seq::{IndexedRandom, SliceRandom};
use rand::RngExt;

use super::catalog::{CardKind, Catalog};
use super::config::{DrawOrder, LcConfig, ShuffleMode};
use super::events::{CardRef, Duration, LcEvent, Line, ProtectFrom, Stat};
use super::rules::{expected_result, validate};
use super::state::{Held, LcState};
use crate::game::commit::AgentSecrets;
use crate::game::selfplay::{mix_policies, Mix};
use crate::game::{opponent, AgentRng, Seat};

pub use super::config::SEED_KEY;

/// A random deck of 24–32 cards from `catalog`, mostly Combat cards.
pub fn random_deck(catalog: &Catalog, rng: &mut AgentRng) -> Vec<String> {
    let by_kind =
        |k: CardKind| catalog.cards.values().filter(|d| d.kind == k).map(|d| d.id.clone()).collect::<Vec<_>>();
    let combat = by_kind(CardKind::Combat);
    let mut other: Vec<String> = [CardKind::Equipment, CardKind::Effect, CardKind::Strategy, CardKind::Protection]
        .into_iter()
        .flat_map(by_kind)
        .collect();
    other.shuffle(rng);
    let total = rng.random_range(24..=32usize);
    let mut deck = Vec::new();
    while deck.len() < total {
        let pool = if rng.random_bool(0.6) || other.is_empty() { &combat } else { &other };
        if let Some(id) = pool.choose(rng) {
            deck.push(id.clone());
        } else {
            break;
        }
    }
    deck.sort();
    deck
}

/// A self-play configuration: random decks from the sample catalog, a random mix of policies and
/// shuffle modes ([`MIX`]), and for digital games the dealer's seed.
pub fn self_play_config(players: &[String], rng: &mut AgentRng) -> (LcConfig, AgentSecrets) {
    let catalog = Catalog::sample();
    let decks = vec![random_deck(&catalog, rng), random_deck(&catalog, rng)];
    let players: Vec<String> = players.iter().take(2).cloned().collect();
    let mut config = LcConfig::new(players, decks, &catalog, ShuffleMode::Physical).unwrap_or_else(|_| {
        // The sample catalog holds every card the decks name, so this is unreachable in practice.
        LcConfig::V1(super::config::ConfigV1 {
            players: Vec::new(),
            decks: Vec::new(),
            cards: Vec::new(),
            policies: super::config::Policies::default(),
            shuffles: ShuffleMode::Physical,
        })
    });
    mix_policies(&mut config, MIX, rng, LcConfig::set_policy);
    let digital = config.v1().shuffles == ShuffleMode::Digital;
    let secrets = if digital { AgentSecrets::with_dealer_seed(SEED_KEY, rng) } else { AgentSecrets::default() };
    (config, secrets)
}

/// Self-play's mix of shuffle modes and policies, with the odds LC's games were pinned with.
/// `refill=put-down-count` is left at its default: a hand that shrinks (a Protection card played
/// from it) never grows back under it, and two empty hands over empty fields never end a game.
pub const MIX: &[Mix<'static>] = &[
    Mix::Coin { key: "shuffles", p: 0.5, yes: "digital", no: None },
    Mix::Coin { key: "sword_tie", p: 0.5, yes: "both-destroyed", no: Some("nothing") },
    Mix::Coin { key: "shield_tie", p: 0.5, yes: "defense-destroyed", no: Some("nothing") },
    Mix::Coin { key: "draw_order", p: 0.3, yes: "before-attacks", no: Some("after-attacks") },
    Mix::Coin { key: "round", p: 0.3, yes: "one-turn", no: Some("both-turns") },
    Mix::Pick { key: "protection_from", values: &["either", "hand", "field"] },
    Mix::Pick { key: "slots", values: &["3", "4", "5"] },
];

/// The next `n` cards off the top of `seat`'s pile: the seeded order when the agent knows the
/// seed, otherwise a random pick (a physical shuffle).
fn top_cards(s: &LcState, secrets: &AgentSecrets, seat: Seat, n: usize, rng: &mut AgentRng) -> Vec<CardRef> {
    if let Some(dealt) = super::options::deal_cards(s, seat, n, secrets) {
        return dealt.into_iter().map(CardRef::Open).collect();
    }
    let pile: Vec<String> = s.players.get(seat).map(|p| p.pile.iter().cloned().collect()).unwrap_or_default();
    pile.sample(rng, n).cloned().map(CardRef::Open).collect()
}

fn known_hand(s: &LcState, seat: Seat) -> Vec<String> {
    s.players.get(seat).map(|p| p.hand.iter().filter_map(Held::known).map(str::to_string).collect()).unwrap_or_default()
}

/// The next event of a random legal game, or `None` once the game is over and every seed is revealed.
pub fn agent_step(s: &LcState, secrets: &mut AgentSecrets, rng: &mut AgentRng) -> Option<LcEvent> {
    // What the dealer's seed determines (a digital game's commitment, shuffles, opening hands and
    // reveal) is kifu's as the dealer: the same function records it at a table.
    if let Some(e) = super::options::dealt(s, secrets) {
        return Some(e);
    }
    if s.result.is_some() {
        return None;
    }
    if let Some(e) = setup_step(s, secrets, rng) {
        return Some(e);
    }
    // The steps the rules fully determine (the next round, the end) are the shared automatic ones.
    if let Some(e) = super::options::automatic(s) {
        return Some(e);
    }
    if s.attack.is_some() {
        return attack_step(s, rng);
    }
    turn_step(s, secrets, rng)
}

fn setup_step(s: &LcState, secrets: &AgentSecrets, rng: &mut AgentRng) -> Option<LcEvent> {
    // A digital game's commitment and seeded shuffles came first ([`super::options::dealt`]).
    for seat in [0u8, 1] {
        if s.players.get(seat).is_some_and(|p| !p.shuffled) {
            return Some(LcEvent::DeckShuffled { seat, by: seat, seed: None });
        }
    }
    if s.first.is_none() {
        return Some(LcEvent::FirstPlayerChosen { first: rng.random_range(0..=1u8), how: "coin toss".to_string() });
    }
    for seat in [0u8, 1] {
        if let Some(p) = s.players.get(seat).filter(|p| !p.hand_drawn) {
            let n = super::catalog::HAND_SIZE.min(p.pile_count);
            return Some(LcEvent::OpeningHandDrawn { seat, cards: top_cards(s, secrets, seat, n, rng) });
        }
    }
    None
}

/// Picks by weight among the candidates `validate` accepts.
fn pick(s: &LcState, candidates: Vec<(u32, LcEvent)>, rng: &mut AgentRng) -> Option<LcEvent> {
    let legal: Vec<(u32, LcEvent)> =
        candidates.into_iter().filter(|(w, e)| *w > 0 && validate(s, e).is_empty()).collect();
    let total: u32 = legal.iter().map(|(w, _)| w).sum();
    if total == 0 {
        return None;
    }
    let mut x = rng.random_range(0..total);
    for (w, e) in legal {
        if x < w {
            return Some(e);
        }
        x -= w;
    }
    None
}

fn attack_step(s: &LcState, rng: &mut AgentRng) -> Option<LcEvent> {
    let a = s.attack.as_ref()?;
    let defender = opponent(a.seat);
    let mut c: Vec<(u32, LcEvent)> = Vec::new();
    if a.protection.is_none() {
        let d = s.players.get(defender)?;
        for h in d.hand.iter().filter_map(Held::known) {
            if s.kind(h) == Some(CardKind::Protection) {
                c.push((3, LcEvent::ProtectionPlayed { seat: defender, card: h.to_string(), from: ProtectFrom::Hand }));
            }
        }
        for f in &d.strategy {
            if s.kind(&f.card) == Some(CardKind::Protection) {
                c.push((
                    3,
                    LcEvent::ProtectionPlayed { seat: defender, card: f.card.clone(), from: ProtectFrom::Field },
                ));
            }
        }
        let p = s.players.get(a.seat)?;
        for f in &p.strategy {
            if s.kind(&f.card) == Some(CardKind::Strategy) && rng.random_bool(0.3) {
                c.push((
                    1,
                    LcEvent::StrategyActivated { seat: a.seat, card: f.card.clone(), note: "for this attack".into() },
                ));
            }
        }
        if rng.random_bool(0.05) {
            let stat = if rng.random_bool(0.5) { Stat::Sword } else { Stat::Shield };
            let target = a.target.clone().unwrap_or_else(|| a.attacker.clone());
            c.push((1, LcEvent::ModifierApplied { target, stat, delta: 1, duration: Duration::EndOfRound }));
        }
    }
    // Flip what must be compared, then resolve with the rules' arithmetic.
    if a.protection.is_none() {
        for card in std::iter::once(&a.attacker).chain(a.target.iter()) {
            if let Some((seat, _, _)) = s.on_field(card).filter(|_| s.field_card(card).is_some_and(|f| f.face_down)) {
                c.push((6, LcEvent::CardsFlipped { seat, cards: vec![card.clone()] }));
            }
        }
    }
    if let Some(e) = expected_result(s) {
        c.push((6, e.event()));
    }
    // Flips come first: a resolution with a face-down card would not validate.
    pick(s, c, rng)
}

fn turn_step(s: &LcState, secrets: &AgentSecrets, rng: &mut AgentRng) -> Option<LcEvent> {
    let t = s.turn.as_ref()?;
    let seat = t.seat;
    let p = s.players.get(seat)?;
    let foe = s.players.get(opponent(seat))?;
    let hand = known_hand(s, seat);
    let mut c: Vec<(u32, LcEvent)> = Vec::new();
    // A hand with nothing to put down (attachments without hosts) would never shrink or refill:
    // a full discard is the way out.
    let stuck =
        hand.iter().all(|c| s.kind(c).is_some_and(|k| k.attaches())) && p.attack.is_empty() && p.defense.is_empty();
    if !t.acted && !t.discarded && rng.random_bool(if stuck { 0.6 } else { 0.04 }) {
        let drawn = top_cards(s, secrets, seat, super::catalog::HAND_SIZE.min(p.pile_count), rng);
        c.push((50, LcEvent::FullDiscarded { seat, discarded: hand.clone(), drawn, cost: 10 }));
    }
    let put_weight = if t.put_down < 3 { 6 } else { 1 };
    for card in &hand {
        let Some(kind) = s.kind(card) else { continue };
        let face_down = rng.random_bool(0.25);
        let lines: &[Line] = match kind {
            CardKind::Combat => &[Line::Attack, Line::Defense],
            CardKind::Strategy | CardKind::Protection => &[Line::Strategy],
            CardKind::Equipment | CardKind::Effect => {
                for host in p.attack.iter().chain(&p.defense) {
                    c.push((2, LcEvent::CardAttached { seat, card: card.clone(), to: host.card.clone() }));
                }
                &[]
            }
        };
        for &line in lines {
            let full = p.line(line).len() >= s.policies.slots as usize;
            let replaced = if full { p.line(line).choose(rng).map(|f| f.card.clone()) } else { None };
            let w = if full { 1 } else { put_weight };
            c.push((w, LcEvent::CardPutDown { seat, card: card.clone(), line, face_down, replaced }));
        }
    }
    if s.combat_phase() {
        for f in &p.attack {
            if foe.attack.is_empty() && foe.defense.is_empty() {
                c.push((12, LcEvent::DirectAttackDeclared { seat, attacker: f.card.clone() }));
            }
            for target in foe.attack.iter().chain(&foe.defense) {
                c.push((4, LcEvent::AttackDeclared { seat, attacker: f.card.clone(), target: target.card.clone() }));
            }
            c.push((1, LcEvent::CardShifted { seat, card: f.card.clone(), to: Line::Defense }));
        }
        for f in &p.defense {
            c.push((1, LcEvent::CardShifted { seat, card: f.card.clone(), to: Line::Attack }));
        }
        for f in p.strategy.iter().filter(|f| s.kind(&f.card) == Some(CardKind::Strategy)) {
            c.push((1, LcEvent::StrategyActivated { seat, card: f.card.clone(), note: "no effect recorded".into() }));
        }
    }
    let down: Vec<String> =
        Line::ALL.iter().flat_map(|&l| p.line(l).iter()).filter(|f| f.face_down).map(|f| f.card.clone()).collect();
    if let Some(card) = down.choose(rng) {
        c.push((1, LcEvent::CardsFlipped { seat, cards: vec![card.clone()] }));
    }
    let due = s.refill_due(seat);
    if !t.refilled {
        let w = if s.policies.draw_order == DrawOrder::BeforeAttacks && t.put_down > 0 { 6 } else { 2 };
        c.push((w, LcEvent::RefillDrawn { seat, cards: top_cards(s, secrets, seat, due, rng) }));
    }
    c.push((if t.refilled || due == 0 { 4 } else { 0 }, LcEvent::TurnPassed { seat }));
    pick(s, c, rng).or(Some(LcEvent::TurnPassed { seat }))
}
