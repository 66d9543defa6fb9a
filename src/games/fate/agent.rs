//! Random legal play: self-play configurations and an agent that plays whole FATE games, from the
//! deal to the last defeat, emitting only events that `validate` accepts.
//!
//! Besides the turn's own steps, the agent now and then lets a random Master activate an effect
//! (paying its costs left to right with real dice), use a Command Spell, or record an effect's
//! result through an escape hatch, so every mechanic occurs. Command Spells are spent at a steady
//! rate, so every game ends (FATE-WIN-1).
//!
//! The agent plays under a rules version: every choice it checks, it checks with that version's
//! `validate` ([`validate_as`]). Version 1's games come out as they were pinned: its checks are
//! the released ones, and the random stream is drawn the same way under every version.

use rand::seq::{IndexedRandom, SliceRandom};
use rand::{Rng, RngExt};

use super::catalog::{self, CardType, Cost, EffectKind};
use super::config::{ConfigV1, DiceMode, FateConfig, FirstMaster, HandPick, RestCost};
use super::events::{
    AttackType, CardRef, CardState, CommonEvent, FateEvent, Payment, Process, ServantUnveiled, SpellUse, Stat, Step,
    Unveiled, DICE_CHAIN,
};
use super::rules::{position_labels, seat_labels, servant_candidates, validate_as};
use super::rules_version::Rules;
use super::state::{FateState, Held, Pose};
use crate::game::commit::{die_roll, hash_chain, random_pick, AgentSecrets, Commitment};
use crate::game::selfplay::{mix_policies, Mix};
use crate::game::{AgentRng, Seat};

/// A random legal deck from the sample catalog: 1–2 Heroic Spirits, 1–2 Classes, Secret Signs to 20–26 cards.
pub fn random_deck(rng: &mut AgentRng) -> Vec<String> {
    let cat = catalog::Catalog::sample();
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

/// A self-play configuration: random decks and a random mix of policies. Every rules version
/// self-plays the same configurations (`_version`: no version changes them).
pub fn self_play_config(players: &[String], rng: &mut AgentRng, _rules: Rules) -> (FateConfig, AgentSecrets) {
    let cat = catalog::Catalog::sample();
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
    mix_policies(&mut config, MIX, rng, FateConfig::set_policy);
    let mut secrets = AgentSecrets::default();
    if config.policies().dice == DiceMode::Digital {
        for seat in 0..players.len() {
            let mut s = [0u8; 32];
            rng.fill_bytes(&mut s);
            for (k, link) in hash_chain(&Commitment(s), CHAIN_LENGTH).into_iter().enumerate() {
                secrets.seeds.insert(link_key(seat, k), link);
            }
        }
    }
    (config, secrets)
}

/// Self-play's mix of policies and dice modes, with the odds FATE's games were pinned with (a
/// Servant at 0 prana is in Danger twice as often as under either other reading).
pub const MIX: &[Mix<'static>] = &[
    Mix::Coin { key: "turn_order", p: 0.5, yes: "r1", no: None },
    Mix::Coin { key: "seating", p: 0.3, yes: "counterclockwise", no: None },
    Mix::Coin { key: "first_master", p: 0.3, yes: "first-seat", no: None },
    Mix::Coin { key: "rest_cost", p: 0.3, yes: "any", no: None },
    Mix::Coin { key: "failed_roll", p: 0.7, yes: "counts", no: Some("free") },
    Mix::Coin { key: "failed_roll_refund", p: 0.3, yes: "refunded", no: Some("kept") },
    Mix::Coin { key: "x_cost", p: 0.3, yes: "record", no: Some("forbid") },
    Mix::Coin { key: "ritual", p: 0.7, yes: "both", no: Some("one") },
    Mix::Pick { key: "prana_zero", values: &["danger", "danger", "defeat", "nothing"] },
    Mix::Coin { key: "game_end", p: 0.2, yes: "first-defeat", no: None },
    Mix::Coin { key: "sign_bonus", p: 0.3, yes: "all", no: Some("own") },
    Mix::Coin { key: "dice", p: 0.5, yes: "digital", no: None },
];

/// Links in each Master's dice chain: the most random outcomes one self-played game can have.
const CHAIN_LENGTH: usize = 4096;

/// The agent's key for link `k` of `seat`'s dice chain (`k = 0` is the secret, `CHAIN_LENGTH` the tip).
fn link_key(seat: usize, k: usize) -> String {
    format!("fate-dice-{seat}-{k:05}")
}

/// What to record next for a die roll (`among: None`) or a pick among `among` by `seat`: at a
/// physical table the result as it fell; at a digital one each undefeated Master's next link until
/// the round is complete, then the draw the round's seed gives.
fn draw(
    s: &FateState,
    secrets: &AgentSecrets,
    rng: &mut AgentRng,
    seat: Option<Seat>,
    among: Option<Vec<String>>,
) -> Option<FateEvent> {
    if among.as_ref().is_some_and(Vec::is_empty) {
        return None;
    }
    let c = match s.policies.dice {
        DiceMode::Physical => match among {
            None => CommonEvent::DieRolled { seat, sides: 6, value: rng.random_range(1..=6), seed: None },
            Some(among) => {
                let picked = u32::try_from(rng.random_range(0..among.len())).ok()?;
                CommonEvent::RandomPicked { seat, among, picked, seed: None }
            }
        },
        DiceMode::Digital => {
            let living = s.living();
            for x in &living {
                if let Some(done) = s.ledger.chain_link_due(DICE_CHAIN, *x) {
                    let k = CHAIN_LENGTH.checked_sub(usize::try_from(done).ok()? + 1)?;
                    let link = *secrets.seeds.get(&link_key(usize::from(*x), k))?;
                    let reveal = CommonEvent::ChainLinkRevealed { key: DICE_CHAIN.into(), seat: *x, link };
                    return Some(FateEvent::Common(reveal));
                }
            }
            let (key, seed) = s.ledger.chain_round_ready(DICE_CHAIN, &living)?;
            let n = s.ledger.next_draw(&key);
            match among {
                None => CommonEvent::DieRolled { seat, sides: 6, value: die_roll(&seed, &key, n, 6), seed: Some(key) },
                Some(among) => {
                    let picked = random_pick(&seed, &key, n, u32::try_from(among.len()).ok()?);
                    CommonEvent::RandomPicked { seat, among, picked, seed: Some(key) }
                }
            }
        }
    };
    Some(FateEvent::Common(c))
}

/// The `i`-th roll waiting to be used.
fn pending_die(s: &FateState, i: usize) -> Option<u8> {
    match s.pending.get(i) {
        Some(CommonEvent::DieRolled { value, .. }) => u8::try_from(*value).ok(),
        _ => None,
    }
}

/// The pick waiting to be used.
fn pending_pick(s: &FateState) -> Option<usize> {
    match s.pending.first() {
        Some(CommonEvent::RandomPicked { picked, .. }) => usize::try_from(*picked).ok(),
        _ => None,
    }
}

/// The first event of `candidates` (tried in a random order) that validates clean under `rules`.
fn first_legal(s: &FateState, mut candidates: Vec<FateEvent>, rng: &mut AgentRng, rules: Rules) -> Option<FateEvent> {
    candidates.shuffle(rng);
    candidates.into_iter().find(|e| validate_as(s, e, rules).is_empty())
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

/// The next event of a random legal game under `rules`, or `None` once the game is over.
pub fn agent_step(s: &FateState, secrets: &mut AgentSecrets, rng: &mut AgentRng, rules: Rules) -> Option<FateEvent> {
    if s.result.is_some() {
        return None;
    }
    if s.step == Step::Setup {
        return setup_step(s, secrets, rng);
    }
    // Version 4's owed steps are automatic, as a recorded game gets them (no random draw, so
    // earlier versions' streams are unchanged).
    if rules.owed_steps {
        if let Some(step) = s.owed_steps().into_iter().next() {
            return Some(step);
        }
    }
    // Rolls and picks already recorded are used next: by the step that drew them, or else by the
    // activation whose dice they are.
    let drawing_step = s.step == Step::Encounter
        || (s.step == Step::Battle && s.battle.as_ref().is_some_and(|b| b.process == Process::Retreat));
    if !s.pending.is_empty() {
        return if drawing_step { turn_step(s, secrets, rng, rules) } else { activate(s, secrets, rng, rules) };
    }
    let roll: f64 = rng.random();
    if roll < 0.035 {
        if let Some(e) = command_spell(s, rng, rules) {
            return Some(e);
        }
    } else if roll < 0.14 && !drawing_step {
        if let Some(e) = activate(s, secrets, rng, rules) {
            return Some(e);
        }
    } else if roll < 0.15 {
        if let Some(e) = escape_hatch(s, rng) {
            return Some(e);
        }
    }
    turn_step(s, secrets, rng, rules)
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
        if let Some(seat) = s.seats().find(|x| !s.ledger.chain_is_committed(DICE_CHAIN, *x)) {
            let tip = *secrets.seeds.get(&link_key(usize::from(seat), CHAIN_LENGTH))?;
            return Some(FateEvent::Common(CommonEvent::ChainCommitted { key: DICE_CHAIN.into(), seat, tip }));
        }
    }
    // The first Active Master (and a digital lot) are the shared automatic steps.
    if let Some(e) = super::options::automatic(s, Rules::FIRST) {
        return Some(e);
    }
    if s.policies.first_master == FirstMaster::FirstSeat || pending_pick(s).is_some() {
        return None;
    }
    draw(s, secrets, rng, None, Some(seat_labels(&s.living())))
}

fn turn_step(s: &FateState, secrets: &AgentSecrets, rng: &mut AgentRng, rules: Rules) -> Option<FateEvent> {
    use FateEvent::*;
    let me = s.turn_master;
    match s.step {
        Step::Setup | Step::Over => None,
        Step::TurnOver => {
            if s.handover_due() {
                let from = s.active_master?;
                Some(ActiveMasterHandedOver { from, to: s.next_living(from) })
            } else {
                // Recorded for the Master "who may act" names: the one whose turn starts.
                Some(TurnStarted { seat: s.step_owner()? })
            }
        }
        Step::Stand if rules.owed_steps => Some(s.stand_step(me?)),
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
            first_legal(s, options, rng, rules).or(Some(RitualStepEnded { seat }))
        }
        Step::Encounter => {
            let seat = me?;
            // The encounter and the random Servant, once their draw is recorded, are automatic.
            if let Some(e) = super::options::automatic(s, Rules::FIRST) {
                return Some(e);
            }
            if s.encounter_pending {
                let candidates = servant_candidates(s, seat);
                match pending_pick(s) {
                    Some(_) => None,
                    None => draw(s, secrets, rng, Some(seat), Some(seat_labels(&candidates))),
                }
            } else {
                match pending_die(s, 0) {
                    Some(_) => None,
                    None => draw(s, secrets, rng, Some(seat), None),
                }
            }
        }
        Step::Declare => {
            let seat = me?;
            if rng.random_bool(0.7) {
                let targets: Vec<FateEvent> =
                    s.living().into_iter().map(|target| AssaultDeclared { seat, target }).collect();
                if let Some(e) = first_legal(s, targets, rng, rules) {
                    return Some(e);
                }
            }
            Some(BattleStepSkipped { seat })
        }
        Step::Battle => battle_step(s, secrets, rng),
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

fn battle_step(s: &FateState, secrets: &AgentSecrets, rng: &mut AgentRng) -> Option<FateEvent> {
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
                    let index = if s.policies.hand_pick == HandPick::Blind {
                        // The card a recorded blind pick names is an automatic step.
                        if let Some(e) = super::options::automatic(s, Rules::FIRST) {
                            return Some(e);
                        }
                        match pending_pick(s) {
                            Some(_) => return None,
                            None => return draw(s, secrets, rng, Some(winner), Some(position_labels(hand.len()))),
                        }
                    } else {
                        rng.random_range(0..hand.len())
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

/// A random Master uses a random Command Spell its version accepts: under version 2 that leaves
/// out option 4 for a Servant in Danger (FATE-EFF-2).
fn command_spell(s: &FateState, rng: &mut AgentRng, rules: Rules) -> Option<FateEvent> {
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
    first_legal(s, events, rng, rules)
}

/// The cards on a Master's field whose effects it may activate: its Secret Signs and its face-up Servant.
fn field_cards(s: &FateState, seat: Seat) -> Vec<String> {
    let Some(m) = s.master(seat) else { return Vec::new() };
    let mut cards: Vec<String> = m.signs.iter().map(|x| x.card.clone()).collect();
    if let Some(sv) = m.servant.as_ref().filter(|x| !x.face_down) {
        cards.extend(sv.cards().iter().filter_map(|h| h.known().map(str::to_string)));
    }
    cards
}

/// The effect a Master activates with dice: the first [Activated] effect with a die cost on its
/// field, so the agent finds it again while it records the dice one by one.
fn dice_effect(s: &FateState, seat: Seat) -> Option<(String, usize)> {
    field_cards(s, seat).into_iter().find_map(|card| {
        let i = s
            .def(&card)?
            .effects
            .iter()
            .position(|e| e.kind == EffectKind::Activated && e.costs().iter().any(|c| matches!(c, Cost::Die(_))))?;
        Some((card, i))
    })
}

/// A random Master tries a random [Activated] effect of a card on its field, paying its costs left
/// to right; the dice of a die cost are recorded first, one roll per call, and used by the activation.
fn activate(s: &FateState, secrets: &AgentSecrets, rng: &mut AgentRng, rules: Rules) -> Option<FateEvent> {
    let rolling = match s.pending.first() {
        Some(CommonEvent::DieRolled { seat, .. }) => Some((*seat)?),
        Some(_) => return None,
        None => None,
    };
    let seat = match rolling {
        Some(x) => x,
        None => *s.living().choose(rng)?,
    };
    let (card, i) = match rolling {
        Some(_) => dice_effect(s, seat)?,
        None => {
            let card = field_cards(s, seat).choose(rng)?.clone();
            let effects = s.def(&card)?.effects.clone();
            let (i, e) = effects
                .iter()
                .enumerate()
                .filter(|(_, e)| e.kind == EffectKind::Activated)
                .collect::<Vec<_>>()
                .choose(rng)
                .copied()?;
            if e.costs().iter().any(|c| matches!(c, Cost::Die(_))) {
                dice_effect(s, seat)?
            } else {
                (card, i)
            }
        }
    };
    let e = s.def(&card)?.effects.get(i)?.clone();
    match pay(s, seat, &card, i, &e.costs(), rng, &|k| pending_die(s, k)) {
        Some(event) => validate_as(s, &event, rules).is_empty().then_some(event),
        None if s.pending.is_empty() => {
            // Before the first die: roll only for an activation that would be legal.
            let mut t = s.clone();
            let lucky = |_: usize| -> Option<u8> {
                e.costs().iter().find_map(|c| match c {
                    Cost::Die(f) => f.first().copied(),
                    _ => None,
                })
            };
            let planned = pay(&t, seat, &card, i, &e.costs(), rng, &lucky)?;
            if let FateEvent::EffectActivated { paid, .. } = &planned {
                for (k, p) in paid.iter().enumerate() {
                    if let (Payment::Rolled, Some(r)) = (p, lucky(k)) {
                        let seed = None;
                        t.pending.push(CommonEvent::DieRolled {
                            seat: Some(seat),
                            sides: 6,
                            value: u32::from(r),
                            seed,
                        });
                    }
                }
            }
            if !validate_as(&t, &planned, rules).is_empty() {
                return None;
            }
            draw(s, secrets, rng, Some(seat), None)
        }
        None => draw(s, secrets, rng, Some(seat), None),
    }
}

/// The activation paying `costs` left to right with the dice `die(k)` gives, or `None` while a
/// die is still to be rolled.
fn pay(
    s: &FateState,
    seat: Seat,
    card: &str,
    i: usize,
    costs: &[Cost],
    rng: &mut AgentRng,
    die: &dyn Fn(usize) -> Option<u8>,
) -> Option<FateEvent> {
    let mut dice_used = 0usize;
    let mut paid = Vec::new();
    let mut succeeded = true;
    let mut used: Vec<String> = Vec::new();
    let mut hand = known_hand(s, seat);
    hand.shuffle(rng);
    for cost in costs.iter().cloned() {
        match cost {
            Cost::Tap => {
                used.push(card.to_string());
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
                let r = die(dice_used)?;
                dice_used += 1;
                paid.push(Payment::Rolled);
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
    Some(FateEvent::EffectActivated {
        seat,
        card: card.to_string(),
        effect: u8::try_from(i).unwrap_or(0),
        paid,
        succeeded,
    })
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
