//! Random legal play: self-play configurations and an agent that plays whole FATE games, from the
//! deal to the last defeat, emitting only events that `validate` accepts.
//!
//! Besides the turn's own steps, the agent now and then lets a random Master activate an effect
//! (paying its costs left to right with real dice), use a Command Spell, or record an effect's
//! result through an escape hatch, so every mechanic occurs. Command Spells are spent at a steady
//! rate, so every game ends (FATE-WIN-1).

use rand::seq::{IndexedRandom, SliceRandom};
use rand::{Rng, RngExt};

use super::catalog::{self, CardType, Cost, EffectKind};
use super::config::{
    ConfigV1, DiceMode, FateConfig, FirstMaster, GameEnd, HandPick, PranaZero, RestCost, Seating, TurnOrder,
};
use super::dice;
use super::events::{
    AttackType, CardRef, CardState, FateEvent, Payment, Process, ServantUnveiled, SpellUse, Stat, Step, Unveiled,
};
use super::rules::{servant_candidates, validate};
use super::state::{FateState, Held, Pose};
use crate::game::commit::{AgentSecrets, Commitment};
use crate::game::{AgentRng, Seat};

/// A random legal deck from the sample catalog: 1–2 Heroic Spirits, 1–2 Classes, Secret Signs to 20–26 cards.
pub fn random_deck(rng: &mut AgentRng) -> Vec<String> {
    let cat = catalog::sample();
    let of = |k: CardType| cat.cards.values().filter(|d| d.kind == k).map(|d| d.id.clone()).collect::<Vec<_>>();
    let (spirits, classes, signs) = (of(CardType::HeroicSpirit), of(CardType::Class), of(CardType::SecretSign));
    let mut deck = Vec::new();
    for pool in [&spirits, &classes] {
        for _ in 0..rng.random_range(1..=2) {
            deck.extend(pool.choose(rng).cloned());
        }
    }
    let total = rng.random_range(20..=26usize);
    while deck.len() < total {
        deck.extend(signs.choose(rng).cloned());
    }
    deck.shuffle(rng);
    deck
}

/// A self-play configuration: random decks and a random mix of policies.
pub fn self_play_config(players: &[String], rng: &mut AgentRng) -> (FateConfig, AgentSecrets) {
    let cat = catalog::sample();
    let decks: Vec<Vec<String>> = players.iter().map(|_| random_deck(rng)).collect();
    let mut config = FateConfig::new(players.to_vec(), decks.clone(), &cat).unwrap_or_else(|_| {
        FateConfig::V1(ConfigV1 { players: players.to_vec(), decks, cards: Vec::new(), policies: Default::default() })
    });
    let FateConfig::V1(c) = &mut config;
    let p = &mut c.policies;
    if players.len() < usize::from(p.min_masters) {
        p.min_masters = 2;
    }
    p.max_masters = p.max_masters.max(u8::try_from(players.len()).unwrap_or(u8::MAX));
    if rng.random_bool(0.5) {
        p.turn_order = TurnOrder::R1;
    }
    if rng.random_bool(0.3) {
        p.seating = Seating::Counterclockwise;
    }
    if rng.random_bool(0.3) {
        p.first_master = FirstMaster::FirstSeat;
    }
    if rng.random_bool(0.3) {
        p.rest_cost = RestCost::Any;
    }
    p.failed_roll_counts = rng.random_bool(0.7);
    p.failed_roll_refund = rng.random_bool(0.3);
    p.x_cost_allowed = rng.random_bool(0.3);
    p.ritual_both = rng.random_bool(0.7);
    p.prana_zero = *[PranaZero::Danger, PranaZero::Danger, PranaZero::Defeat, PranaZero::Nothing]
        .choose(rng)
        .unwrap_or(&PranaZero::Danger);
    if rng.random_bool(0.2) {
        p.game_end = GameEnd::FirstDefeat;
    }
    p.sign_bonus_all = rng.random_bool(0.3);
    let mut secrets = AgentSecrets::default();
    if rng.random_bool(0.5) {
        p.dice = DiceMode::Digital;
        for seat in 0..players.len() {
            let mut s = [0u8; 32];
            rng.fill_bytes(&mut s);
            for (k, link) in dice::chain(&Commitment(s)).into_iter().enumerate() {
                secrets.seeds.insert(link_key(seat, k), link);
            }
        }
    }
    (config, secrets)
}

/// The agent's key for link `k` of `seat`'s dice chain (`k = 0` is the secret, `CHAIN_LENGTH` the tip).
fn link_key(seat: usize, k: usize) -> String {
    format!("fate-dice-{seat}-{k:05}")
}

/// In a digital game whose current round is incomplete, the next Master's reveal.
fn reveal_due(s: &FateState, secrets: &AgentSecrets) -> Option<FateEvent> {
    if s.policies.dice != DiceMode::Digital {
        return None;
    }
    let seat = s.living().into_iter().find(|x| s.dice.revealed[usize::from(*x)].is_none())?;
    let done = usize::try_from(s.dice.reveals[usize::from(seat)]).unwrap_or(usize::MAX);
    let k = dice::CHAIN_LENGTH.checked_sub(done + 1)?;
    let link = *secrets.seeds.get(&link_key(usize::from(seat), k))?;
    Some(FateEvent::DiceRevealed { seat, link })
}

/// The round's value in a digital game (the caller has made sure it is complete).
fn round_value(s: &FateState) -> Option<[u8; 32]> {
    (s.policies.dice == DiceMode::Digital).then(|| s.dice.value(&s.living())).flatten()
}

/// The first event of `candidates` (tried in a random order) that validates clean.
fn first_legal(s: &FateState, mut candidates: Vec<FateEvent>, rng: &mut AgentRng) -> Option<FateEvent> {
    candidates.shuffle(rng);
    candidates.into_iter().find(|e| validate(s, e).is_empty())
}

fn deck_cards(s: &FateState, seat: Seat, n: usize, rng: &mut AgentRng) -> Vec<CardRef> {
    let Some(m) = s.master(seat) else { return Vec::new() };
    let mut deck: Vec<&String> = m.deck.iter().collect();
    deck.shuffle(rng);
    deck.into_iter().take(n).map(|c| CardRef::Open(c.clone())).collect()
}

fn known_hand(s: &FateState, seat: Seat) -> Vec<String> {
    s.master(seat).map(|m| m.hand.iter().filter_map(|h| h.known().map(str::to_string)).collect()).unwrap_or_default()
}

fn unveil_all(s: &FateState, seat: Seat) -> Vec<Unveiled> {
    s.master(seat)
        .and_then(|m| m.servant.as_ref())
        .map(|sv| {
            sv.cards().iter().filter_map(|h| h.known()).map(|c| Unveiled { card: c.to_string(), salt: None }).collect()
        })
        .unwrap_or_default()
}

/// The next event of a random legal game, or `None` once the game is over.
pub fn agent_step(s: &FateState, secrets: &mut AgentSecrets, rng: &mut AgentRng) -> Option<FateEvent> {
    if s.result.is_some() {
        return None;
    }
    if s.step == Step::Setup {
        return setup_step(s, secrets, rng);
    }
    // A random outcome is due: every Master reveals first (the agent plays every seat).
    let random_due = match s.step {
        Step::Encounter => true,
        Step::Battle => s.battle.as_ref().is_some_and(|b| {
            b.process == Process::Retreat
                && !b.card_taken
                && s.policies.hand_pick == HandPick::Blind
                && s.hand_take(b).is_some()
        }),
        _ => false,
    };
    if random_due {
        if let Some(e) = reveal_due(s, secrets) {
            return Some(e);
        }
    }
    let roll: f64 = rng.random();
    if roll < 0.035 {
        if let Some(e) = command_spell(s, rng) {
            return Some(e);
        }
    } else if roll < 0.14 {
        if let Some(e) = activate(s, secrets, rng) {
            return Some(e);
        }
    } else if roll < 0.15 {
        if let Some(e) = escape_hatch(s, rng) {
            return Some(e);
        }
    }
    turn_step(s, rng)
}

fn setup_step(s: &FateState, secrets: &AgentSecrets, rng: &mut AgentRng) -> Option<FateEvent> {
    for seat in s.seats() {
        let m = s.master(seat)?;
        if m.servant.is_none() {
            let pick = |k: CardType, rng: &mut AgentRng| {
                let mut ids: Vec<&String> = m.deck.iter().filter(|c| s.kind(c) == Some(k)).collect();
                ids.sort();
                ids.choose(rng).map(|c| CardRef::Open((*c).clone()))
            };
            let hs = pick(CardType::HeroicSpirit, rng)?;
            let class = pick(CardType::Class, rng)?;
            return Some(FateEvent::ServantSet { seat, heroic_spirit: hs, class });
        }
        if !m.dealt {
            let n = usize::from(s.policies.opening_hand).min(m.deck_count);
            return Some(FateEvent::CardsDealt { seat, cards: deck_cards(s, seat, n, rng) });
        }
    }
    if s.policies.dice == DiceMode::Digital {
        if let Some(seat) = s.seats().find(|x| s.dice.last[usize::from(*x)].is_none()) {
            let tip = *secrets.seeds.get(&link_key(usize::from(seat), dice::CHAIN_LENGTH))?;
            return Some(FateEvent::DiceChainCommitted { seat, tip });
        }
    }
    let living = s.living();
    let seat = match (s.policies.first_master, s.policies.dice) {
        (FirstMaster::FirstSeat, _) => 0,
        (FirstMaster::Lot, DiceMode::Physical) => *living.choose(rng)?,
        (FirstMaster::Lot, DiceMode::Digital) => {
            if let Some(e) = reveal_due(s, secrets) {
                return Some(e);
            }
            living[dice::pick(&round_value(s)?, 0, living.len())]
        }
    };
    Some(FateEvent::FirstActiveMasterChosen { seat })
}

fn turn_step(s: &FateState, rng: &mut AgentRng) -> Option<FateEvent> {
    use FateEvent::*;
    let me = s.turn_master;
    match s.step {
        Step::Setup | Step::Over => None,
        Step::TurnOver => {
            if s.handover_due() {
                let from = s.active_master?;
                Some(ActiveMasterHandedOver { from, to: s.next_living(from) })
            } else {
                Some(TurnStarted { seat: s.expected_next()? })
            }
        }
        Step::Stand => Some(CardsStood { seat: me? }),
        Step::Draw => {
            let seat = me?;
            Some(CardDrawn { seat, card: deck_cards(s, seat, 1, rng).pop() })
        }
        Step::Ritual => {
            let seat = me?;
            let mut options = Vec::new();
            if rng.random_bool(0.5) {
                for c in known_hand(s, seat).into_iter().filter(|c| s.kind(c) == Some(CardType::SecretSign)) {
                    options.push(SecretSignPlaced { seat, card: c });
                }
            }
            if rng.random_bool(0.6) {
                let n = 2.min(s.master(seat)?.deck_count);
                options.push(ServantRevealed { seat, cards: unveil_all(s, seat), drawn: deck_cards(s, seat, n, rng) });
            }
            first_legal(s, options, rng).or(Some(RitualStepEnded { seat }))
        }
        Step::Encounter => {
            let seat = me?;
            let value = round_value(s);
            if s.encounter_pending {
                let candidates = servant_candidates(s, seat);
                let target = match value {
                    Some(v) => *candidates.get(dice::pick(&v, 0, candidates.len()))?,
                    None => *candidates.choose(rng)?,
                };
                Some(RandomServantSelected { seat, target })
            } else {
                let roll = value.map_or_else(|| rng.random_range(1..=6), |v| dice::die(&v, 0));
                Some(EncounterRolled { seat, roll })
            }
        }
        Step::Declare => {
            let seat = me?;
            if rng.random_bool(0.7) {
                let targets: Vec<FateEvent> =
                    s.living().into_iter().map(|target| AssaultDeclared { seat, target }).collect();
                if let Some(e) = first_legal(s, targets, rng) {
                    return Some(e);
                }
            }
            Some(BattleStepSkipped { seat })
        }
        Step::Battle => battle_step(s, rng),
        Step::End => {
            let seat = me?;
            let mut hand = known_hand(s, seat);
            let n = s.master(seat)?.hand.len();
            if n >= 5 {
                hand.shuffle(rng);
                hand.truncate(n - 4);
                return Some(HandDiscarded { seat, cards: hand });
            }
            Some(TurnEnded { seat })
        }
    }
}

fn battle_step(s: &FateState, rng: &mut AgentRng) -> Option<FateEvent> {
    use FateEvent::*;
    let b = s.battle.as_ref()?;
    let kind = |rng: &mut AgentRng| if rng.random_bool(0.5) { AttackType::Physical } else { AttackType::Magical };
    Some(match b.process {
        Process::Reveal => {
            let servants = [b.attacker, b.responder]
                .into_iter()
                .filter(|x| s.master(*x).and_then(|m| m.servant.as_ref()).is_some_and(|v| v.face_down))
                .map(|seat| ServantUnveiled { seat, cards: unveil_all(s, seat) })
                .collect();
            BattleServantsRevealed { servants }
        }
        Process::Battle => BattleProcessEnded,
        Process::Attack => AttackTypeChosen { seat: b.attacker, attack: kind(rng) },
        Process::Response => AttackTypeChosen { seat: b.responder, attack: kind(rng) },
        Process::Wounding => {
            let (to_attacker, to_responder) = s.expected_damage(b);
            DamageDealt { to_attacker, to_responder }
        }
        Process::Retreat => match s.hand_take(b) {
            Some((winner, loser)) if !b.card_taken => {
                let hand = &s.master(loser)?.hand;
                if hand.is_empty() {
                    BattleEnded
                } else {
                    let index = match round_value(s) {
                        Some(v) if s.policies.hand_pick == HandPick::Blind => dice::pick(&v, 0, hand.len()),
                        _ => rng.random_range(0..hand.len()),
                    };
                    let card = match &hand[index] {
                        Held::Known(c) => CardRef::Open(c.clone()),
                        Held::Sealed(c) => CardRef::Sealed(*c),
                    };
                    CardTakenFromHand { winner, loser, index: u8::try_from(index).unwrap_or(0), card }
                }
            }
            _ => BattleEnded,
        },
    })
}

fn command_spell(s: &FateState, rng: &mut AgentRng) -> Option<FateEvent> {
    let seat = *s.living().choose(rng)?;
    let m = s.master(seat)?;
    let mut options = vec![
        SpellUse::PranaRestored,
        SpellUse::StatRaised(
            *[Stat::PhysicalAttack, Stat::PhysicalDefense, Stat::MagicalAttack, Stat::MagicalDefense].choose(rng)?,
        ),
        SpellUse::ServantStood,
    ];
    options.extend(m.marks.iter().map(|x| SpellUse::MarkRemoved(x.clone())));
    if let Some(sv) = &m.servant {
        for c in sv.cards().iter().filter_map(|h| h.known()) {
            for (i, _) in s.def(c).map(|d| d.effects.clone()).unwrap_or_default().iter().enumerate() {
                options.push(SpellUse::EffectUsedFree { card: c.to_string(), effect: u8::try_from(i).unwrap_or(0) });
            }
        }
    }
    let events = options.into_iter().map(|spell| FateEvent::CommandSpellUsed { seat, spell }).collect();
    first_legal(s, events, rng)
}

/// A random Master tries a random [Activated] effect of a card on its field, paying with real dice.
fn activate(s: &FateState, secrets: &AgentSecrets, rng: &mut AgentRng) -> Option<FateEvent> {
    let seat = *s.living().choose(rng)?;
    let m = s.master(seat)?;
    let mut cards: Vec<String> = m.signs.iter().map(|x| x.card.clone()).collect();
    if let Some(sv) = m.servant.as_ref().filter(|x| !x.face_down) {
        cards.extend(sv.cards().iter().filter_map(|h| h.known().map(str::to_string)));
    }
    let card = cards.choose(rng)?.clone();
    let effects = s.def(&card)?.effects.clone();
    let (i, e) = effects
        .iter()
        .enumerate()
        .filter(|(_, e)| e.kind == EffectKind::Activated)
        .collect::<Vec<_>>()
        .choose(rng)
        .copied()?;
    let value = if s.policies.dice == DiceMode::Digital && e.costs().iter().any(|c| matches!(c, Cost::Die(_))) {
        // The Master declares the activation by asking every Master to reveal for its dice.
        if let Some(reveal) = reveal_due(s, secrets) {
            return Some(reveal);
        }
        round_value(s)
    } else {
        None
    };
    let mut dice_used = 0u32;
    let mut paid = Vec::new();
    let mut succeeded = true;
    let mut used: Vec<String> = Vec::new();
    let mut hand = known_hand(s, seat);
    hand.shuffle(rng);
    for cost in e.costs() {
        match cost {
            Cost::Tap => {
                used.push(card.clone());
                paid.push(Payment::Tapped);
            }
            Cost::Rest(n) => {
                let mut pool: Vec<String> = s
                    .seats()
                    .filter(|x| *x == seat || s.policies.rest_cost == RestCost::Any)
                    .flat_map(|x| {
                        let m = &s.masters[usize::from(x)];
                        let mut v: Vec<String> =
                            m.signs.iter().filter(|g| g.pose == Pose::Standing).map(|g| g.card.clone()).collect();
                        if let Some(sv) = m.servant.as_ref().filter(|v| !v.face_down && v.pose == Pose::Standing) {
                            v.extend(sv.heroic_spirit.known().map(str::to_string));
                        }
                        v
                    })
                    .filter(|c| !used.contains(c))
                    .collect();
                pool.shuffle(rng);
                let pick: Vec<String> = pool.into_iter().take(usize::from(n)).collect();
                used.extend(pick.iter().cloned());
                paid.push(Payment::Rested(pick));
            }
            Cost::Die(faces) => {
                let r = value.map_or_else(|| rng.random_range(1..=6u8), |v| dice::die(&v, dice_used));
                dice_used += 1;
                paid.push(Payment::Rolled(r));
                if !faces.contains(&r) {
                    succeeded = false;
                    break;
                }
            }
            Cost::Discard(n) => {
                let pick: Vec<String> = hand.drain(..usize::from(n).min(hand.len())).collect();
                paid.push(Payment::Discarded(pick));
            }
            Cost::X => paid.push(Payment::XPaid("as the card says".to_string())),
        }
    }
    let event = FateEvent::EffectActivated { seat, card, effect: u8::try_from(i).unwrap_or(0), paid, succeeded };
    validate(s, &event).is_empty().then_some(event)
}

fn escape_hatch(s: &FateState, rng: &mut AgentRng) -> Option<FateEvent> {
    let seat = *s.living().choose(rng)?;
    Some(match rng.random_range(0..3) {
        0 => FateEvent::SpecialMarkPlaced { seat, mark: "curse".to_string(), note: "a card effect".to_string() },
        1 => FateEvent::PranaChanged { seat, delta: -1, note: "a card effect".to_string() },
        _ => {
            let card = s.master(seat)?.servant.as_ref().filter(|x| !x.face_down)?.heroic_spirit.known()?.to_string();
            FateEvent::CardStateChanged { card, state: CardState::Danger, note: "a card effect".to_string() }
        }
    })
}
