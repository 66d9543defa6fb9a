//! Random legal play: self-play configurations and an agent that plays whole games, setup to
//! step M, emitting only events that `validate` accepts.
//!
//! Digital games commit the dealer's seed first, draw exactly the card the seeded order puts on
//! top ([`crate::game::commit::CommitmentLedger::predicted_top`]) and reveal the seed once the
//! game has an outcome, so the audit comes back clean. Physical games draw a uniformly random
//! card of the deck, which is what a real shuffle looks like to the log.

use rand::seq::{IndexedRandom, SliceRandom};
use rand::RngExt;

use super::catalog::{CardDef, CardType, Catalog};
use super::config::{
    CounterMissionPolicy, MultiBlockPolicy, MultiElementPolicy, NarutoConfig, ShuffleMode, TurnMarkerPolicy,
};
use super::events::{
    BlockingTeam, CardRef, CoinSide, DeployFrom, Duration, Lot, NarutoEvent, SentTeam, Stat, Step, Throw,
};
use super::rules::{expected_reward, resolve_fight, reward_taken};
use super::rules_version::Rules;
use super::state::{deck_name, Held, NarutoState};
use crate::game::commit::{commit_seed, AgentSecrets};
use crate::game::selfplay::{mix_policies, Mix};
use crate::game::{AgentRng, Seat};

pub use super::config::SEED_KEY;

/// A random legal deck from `catalog`: 50–54 cards, 18–26 ninja, at most 3 per name.
pub fn random_deck(catalog: &Catalog, rng: &mut AgentRng) -> Vec<String> {
    let mut ninja: Vec<&CardDef> =
        catalog.cards.values().filter(|d| d.kind == CardType::Ninja && !d.combined).collect();
    let mut other: Vec<&CardDef> = catalog.cards.values().filter(|d| d.kind != CardType::Ninja || d.combined).collect();
    ninja.shuffle(rng);
    other.shuffle(rng);
    let ninja_target = rng.random_range(18..=26usize);
    let total = rng.random_range(50..=54usize);
    let mut deck = Vec::new();
    fill(&mut deck, &ninja, ninja_target, rng);
    fill(&mut deck, &other, total, rng);
    // A small catalog may not reach 50 with the other cards alone; top up with ninja (still ≤ 30).
    fill(&mut deck, &ninja, total, rng);
    deck
}

fn fill(deck: &mut Vec<String>, pool: &[&CardDef], target: usize, rng: &mut AgentRng) {
    for _ in 0..3 {
        for d in pool {
            if deck.len() >= target {
                return;
            }
            let have = deck.iter().filter(|c| *c == &d.id).count();
            let add = rng.random_range(1..=3usize).min(3 - have.min(3)).min(target - deck.len());
            deck.extend(std::iter::repeat_n(d.id.clone(), add));
        }
    }
}

/// A self-play configuration under `rules`: random decks from the sample catalog,
/// a random mix of policies and shuffle modes, and for digital games the dealer's seed.
/// Version 1 keeps the odds it was released with (its pinned fixtures are drawn from them,
/// [`V1_MIX`]); version 2 gives every row an even chance ([`V2_MIX`]).
pub fn self_play_config(players: &[String], rng: &mut AgentRng, rules: Rules) -> (NarutoConfig, AgentSecrets) {
    released_config(players, rng, if rules.even_policy_mix { V2_MIX } else { V1_MIX })
}

/// Version 1's mix, with the odds its games (and pinned fixtures) were played with: the shuffle
/// mode a coin, each reading of NAR-OPEN-13 and NAR-OPEN-15 equally likely, the others a
/// quarter of the time. `empty_deck_draw` keeps its default.
pub const V1_MIX: &[Mix<'static>] = &[
    Mix::Coin { key: "shuffles", p: 0.5, yes: "digital", no: None },
    Mix::Coin { key: "turn_marker", p: 0.25, yes: "shared", no: None },
    Mix::Pick { key: "multi_element_cost", values: &["any-of", "choose-one", "all-of"] },
    Mix::Maybe { key: "chakra_charge_limit", p: 0.25, values: &["1", "2", "3"] },
    Mix::Pick { key: "counter_missions", values: &["own-limit", "shared-limit", "unlimited"] },
    Mix::Coin { key: "multi_block", p: 0.25, yes: "allow", no: None },
    Mix::Coin { key: "short_deck_reward", p: 0.25, yes: "none", no: None },
];

/// Version 2's mix: each row of [`V2_MIX`] takes one of its values half the time.
pub const V2_MIX: &[Mix<'static>] = &[
    Mix::Maybe { key: "shuffles", p: 0.5, values: &["physical", "digital"] },
    Mix::Maybe { key: "turn_marker", p: 0.5, values: &["per-player", "shared"] },
    Mix::Maybe { key: "multi_element_cost", p: 0.5, values: &["any-of", "choose-one", "all-of"] },
    Mix::Maybe { key: "chakra_charge_limit", p: 0.5, values: &["unlimited", "1", "2", "3"] },
    Mix::Maybe { key: "counter_missions", p: 0.5, values: &["own-limit", "shared-limit", "unlimited"] },
    Mix::Maybe { key: "multi_block", p: 0.5, values: &["forbid", "allow"] },
    Mix::Maybe { key: "short_deck_reward", p: 0.5, values: &["take-remaining", "none"] },
    Mix::Maybe { key: "empty_deck_draw", p: 0.5, values: &["skip", "lose"] },
];

/// A self-play configuration: random decks from the sample catalog, the policies and shuffle
/// mode mixed by `mix` ([`mix_policies`]), and for a digital game the dealer's seed.
fn released_config(players: &[String], rng: &mut AgentRng, mix: &[Mix<'_>]) -> (NarutoConfig, AgentSecrets) {
    let catalog = Catalog::sample();
    let decks = vec![random_deck(&catalog, rng), random_deck(&catalog, rng)];
    let mut config = NarutoConfig::new(players.to_vec(), decks.clone(), &catalog, ShuffleMode::Physical)
        .unwrap_or_else(|_| {
            // Unreachable with the sample catalog; an empty config still fails `setup` loudly.
            NarutoConfig::V1(super::config::ConfigV1 {
                players: players.to_vec(),
                decks,
                cards: Vec::new(),
                policies: Default::default(),
                shuffles: ShuffleMode::Physical,
            })
        });
    mix_policies(&mut config, mix, rng, NarutoConfig::set_policy);
    let secrets = if config.v1().shuffles == ShuffleMode::Digital {
        AgentSecrets::with_dealer_seed(SEED_KEY, rng)
    } else {
        AgentSecrets::default()
    };
    (config, secrets)
}

/// The next event of a random legal game under `rules`, or `None` once the game
/// is over and every seed is revealed. Both versions play the same game; version 2 records the
/// dealer's seed as common events ([`NarutoEvent::in_common_shape`]).
pub fn agent_step(
    s: &NarutoState,
    secrets: &mut AgentSecrets,
    rng: &mut AgentRng,
    rules: Rules,
) -> Option<NarutoEvent> {
    let event = next_event(s, secrets, rng, rules)?;
    Some(if rules.common_events { event.in_common_shape() } else { event })
}

fn next_event(s: &NarutoState, secrets: &mut AgentSecrets, rng: &mut AgentRng, rules: Rules) -> Option<NarutoEvent> {
    if s.result.is_some() {
        return secrets
            .seeds
            .iter()
            .find(|(k, _)| s.ledger.seed_commitment(k).is_some() && !s.ledger.seed_is_revealed(k))
            .map(|(k, seed)| NarutoEvent::SeedRevealed { key: k.clone(), seed: *seed });
    }
    // The steps the rules fully determine are the shared automatic ones (no randomness drawn).
    if let Some(e) = super::options::automatic(s, rules) {
        return Some(e);
    }
    if s.step == Step::Setup {
        return Some(setup_step(s, secrets, rng));
    }
    let attacker = s.attacker?;
    let blocker = crate::game::opponent(attacker);
    if !s.chain.is_empty() {
        return Some(NarutoEvent::ChainResolved {});
    }
    let ev = match s.step {
        // Step A draws (the cases without a draw are automatic).
        Step::Draw => {
            let card = top_cards(s, secrets, attacker, 1, rng).pop()?;
            NarutoEvent::CardDrawn { seat: attacker, card: CardRef::Open(card) }
        }
        Step::Mission => mission_step(s, attacker, rng),
        Step::Organization => organization_step(s, attacker, rng),
        Step::Attack => attack_step(s, attacker, rng),
        Step::Block => block_step(s, blocker, rng),
        Step::Jutsu => jutsu_step(s, rng),
        Step::Calculation => calculation_step(s, secrets, attacker, rng, rules)?,
        Step::HandCheck => {
            let hand = known_hand(s, attacker);
            let n = s.players.get(attacker).map_or(0, |p| p.hand.len());
            NarutoEvent::HandCheckDiscard { seat: attacker, cards: sample(&hand, n.saturating_sub(6), rng) }
        }
        // Every other step's event is automatic.
        Step::Setup | Step::TurnEnded | Step::Return | Step::Winner | Step::Marker => return None,
    };
    Some(ev)
}

fn sample(cards: &[String], n: usize, rng: &mut AgentRng) -> Vec<String> {
    let mut v = cards.to_vec();
    v.shuffle(rng);
    v.truncate(n);
    v
}

fn known_hand(s: &NarutoState, seat: Seat) -> Vec<String> {
    s.players.get(seat).map(|p| p.hand.iter().filter_map(Held::known).map(str::to_string).collect()).unwrap_or_default()
}

/// The next `n` cards off the top of `seat`'s deck: the seeded order when the agent knows the
/// seed, otherwise a random pick (a physical shuffle).
fn top_cards(s: &NarutoState, secrets: &AgentSecrets, seat: Seat, n: usize, rng: &mut AgentRng) -> Vec<String> {
    let name = deck_name(seat);
    if let Some(seed) = secrets.seeds.get(SEED_KEY) {
        let mut ledger = s.ledger.clone();
        let mut out = Vec::new();
        while out.len() < n {
            let Some(top) = ledger.predicted_top(&name, seed) else {
                break;
            };
            ledger.deck_took_top(&name, &top);
            out.push(top);
        }
        if out.len() == n {
            return out;
        }
    }
    let deck: Vec<String> = s.players.get(seat).map(|p| p.deck.iter().cloned().collect()).unwrap_or_default();
    sample(&deck, n, rng)
}

fn setup_step(s: &NarutoState, secrets: &AgentSecrets, rng: &mut AgentRng) -> NarutoEvent {
    match s.policies.turn_marker {
        TurnMarkerPolicy::PerPlayer => {
            for (i, p) in s.players.iter().enumerate() {
                if !p.marker_set {
                    return NarutoEvent::TurnMarkerSet { seat: Seat::try_from(i).ok(), value: 0 };
                }
            }
        }
        TurnMarkerPolicy::Shared => {
            if !s.shared_marker_set {
                return NarutoEvent::TurnMarkerSet { seat: None, value: 0 };
            }
        }
    }
    let seed = secrets.seeds.get(SEED_KEY).filter(|_| s.shuffles == ShuffleMode::Digital);
    if let Some(seed) = seed {
        if s.ledger.seed_commitment(SEED_KEY).is_none() {
            return NarutoEvent::SeedCommitted { key: SEED_KEY.to_string(), commitment: commit_seed(seed) };
        }
    }
    let seed_key = seed.map(|_| SEED_KEY.to_string());
    for seat in [0u8, 1] {
        let Some(p) = s.players.get(seat) else { continue };
        if p.hand_drawn || p.kept {
            continue;
        }
        if !p.shuffled_by_owner {
            return NarutoEvent::DeckShuffled { deck: seat, by: seat, seed: seed_key };
        }
        if !p.shuffled_by_opponent {
            return NarutoEvent::DeckShuffled { deck: seat, by: crate::game::opponent(seat), seed: seed_key };
        }
    }
    let Some(lot_winner) = s.lot_winner else {
        return lot(rng);
    };
    let Some(_) = s.first else {
        return NarutoEvent::FirstPlayerChosen { chooser: lot_winner, first: rng.random_range(0..=1u8) };
    };
    for seat in [0u8, 1] {
        let Some(p) = s.players.get(seat) else { continue };
        if !p.hand_drawn && !p.kept {
            let n = 6 - usize::from(p.mulligans.min(2));
            let cards = top_cards(s, secrets, seat, n, rng).into_iter().map(CardRef::Open).collect();
            return NarutoEvent::OpeningHandDrawn { seat, cards };
        }
    }
    for seat in [0u8, 1] {
        let Some(p) = s.players.get(seat) else { continue };
        if p.hand_drawn && !p.kept {
            let chance = if p.mulligans == 0 { 0.15 } else { 0.05 };
            if p.mulligans < 2 && rng.random_bool(chance) {
                return NarutoEvent::MulliganTaken { seat, attempt: p.mulligans + 1 };
            }
            return NarutoEvent::HandKept { seat };
        }
    }
    NarutoEvent::TurnStarted { turn: 1, attacker: s.first.unwrap_or(0) }
}

fn lot(rng: &mut AgentRng) -> NarutoEvent {
    if rng.random_bool(0.5) {
        let throws = [Throw::Rock, Throw::Paper, Throw::Scissors];
        let mut rounds = Vec::new();
        loop {
            let a = throws[rng.random_range(0..3usize)];
            let b = throws[rng.random_range(0..3usize)];
            rounds.push([a, b]);
            if a != b {
                let winner = if a.beats(b) { 0 } else { 1 };
                return NarutoEvent::FirstPlayerLotDrawn { lot: Lot::RockPaperScissors { rounds }, winner };
            }
        }
    }
    let caller = rng.random_range(0..=1u8);
    let side = |b: bool| if b { CoinSide::Heads } else { CoinSide::Tails };
    let call = side(rng.random_bool(0.5));
    let result = side(rng.random_bool(0.5));
    let winner = if call == result { caller } else { crate::game::opponent(caller) };
    NarutoEvent::FirstPlayerLotDrawn { lot: Lot::CoinToss { caller, call, result }, winner }
}

/// Cards from `seat`'s hand (other than `card`) that pay `def`'s hand cost, and the element chosen.
fn payment(
    s: &NarutoState,
    seat: Seat,
    card: &str,
    def: &CardDef,
    rng: &mut AgentRng,
) -> Option<(Vec<String>, Option<String>)> {
    let need = usize::try_from(def.hand_cost).ok()?;
    let mut hand: Vec<String> = known_hand(s, seat).into_iter().filter(|c| c != card).collect();
    hand.shuffle(rng);
    let has = |c: &String, e: &str| s.def(c).is_some_and(|d| d.has_element(e));
    let take = |pool: Vec<String>| {
        if pool.len() >= need {
            Some(pool.into_iter().take(need).collect::<Vec<_>>())
        } else {
            None
        }
    };
    match def.elements.len() {
        0 => take(hand).map(|p| (p, None)),
        1 => take(hand.into_iter().filter(|c| has(c, &def.elements[0])).collect()).map(|p| (p, None)),
        _ => match s.policies.multi_element_cost {
            MultiElementPolicy::AnyOf => {
                take(hand.into_iter().filter(|c| def.elements.iter().any(|e| has(c, e))).collect()).map(|p| (p, None))
            }
            MultiElementPolicy::ChooseOne => {
                for e in &def.elements {
                    if let Some(p) = take(hand.iter().filter(|c| has(c, e)).cloned().collect()) {
                        return Some((p, Some(e.clone())));
                    }
                }
                None
            }
            MultiElementPolicy::AllOf => {
                if need < def.elements.len() {
                    return None;
                }
                let mut paid: Vec<String> = Vec::new();
                for e in &def.elements {
                    let c = hand.iter().find(|c| has(c, e) && !paid.contains(c))?.clone();
                    paid.push(c);
                }
                for c in &hand {
                    if paid.len() >= need {
                        break;
                    }
                    if !paid.contains(c) && def.elements.iter().any(|e| has(c, e)) {
                        paid.push(c.clone());
                    }
                }
                (paid.len() == need).then_some((paid, None))
            }
        },
    }
}

fn mission_step(s: &NarutoState, attacker: Seat, rng: &mut AgentRng) -> NarutoEvent {
    let blocker = crate::game::opponent(attacker);
    let Some(p) = s.players.get(attacker) else {
        return NarutoEvent::StepAdvanced { to: Step::Organization };
    };
    let marker = s.marker_for(attacker);
    let mut options: Vec<NarutoEvent> = Vec::new();
    let names_in_play: Vec<String> = p
        .village
        .iter()
        .chain(&p.battlefield)
        .filter(|c| s.kind(c) == Some(CardType::Ninja))
        .filter_map(|c| s.def(c).map(|d| d.name.clone()))
        .collect();
    if p.turn.ninja_deployed == 0 {
        let from_hand = known_hand(s, attacker).into_iter().map(|c| (c, DeployFrom::Hand));
        let from_chakra = p
            .chakra
            .iter()
            .filter(|c| s.def(c).is_some_and(|d| d.has_ambush()))
            .map(|c| (c.clone(), DeployFrom::Chakra));
        for (c, from) in from_hand.chain(from_chakra).collect::<Vec<_>>() {
            let Some(d) = s.def(&c) else { continue };
            if d.kind != CardType::Ninja || d.entry_cost > marker || names_in_play.contains(&d.name) {
                continue;
            }
            if let Some((paid, _)) = payment(s, attacker, &c, d, rng) {
                options.push(NarutoEvent::NinjaDeployed { seat: attacker, card: c, from, hand_cost_paid: paid });
            }
        }
    }
    let shared_used = s.policies.counter_missions == CounterMissionPolicy::SharedLimit
        && s.players.get(blocker).is_some_and(|b| b.turn.counter_missions > 0);
    if p.turn.missions == 0 && !shared_used {
        options.extend(mission_options(s, attacker, false, rng));
    }
    let has_client = p.village.iter().any(|c| s.kind(c) == Some(CardType::Client));
    if p.turn.clients == 0 && !has_client {
        for c in known_hand(s, attacker) {
            let Some(d) = s.def(&c) else { continue };
            if d.kind != CardType::Client || d.entry_cost > marker {
                continue;
            }
            if let Some((paid, element)) = payment(s, attacker, &c, d, rng) {
                options.push(NarutoEvent::ClientDeployed { seat: attacker, card: c, element, hand_cost_paid: paid });
            }
        }
    }
    let limit = s.policies.chakra_charge_limit.unwrap_or(u32::MAX).min(2);
    if p.turn.charged < limit && !p.hand.is_empty() && rng.random_bool(0.5) {
        let hand = known_hand(s, attacker);
        if let Some(c) = hand.choose(rng) {
            options.push(NarutoEvent::ChakraCharged { seat: attacker, cards: vec![c.clone()] });
        }
    }
    if s.counter_mission_open() && rng.random_bool(0.15) {
        options.extend(mission_options(s, blocker, true, rng));
    }
    if !options.is_empty() && rng.random_bool(0.8) {
        let i = rng.random_range(0..options.len());
        return options.swap_remove(i);
    }
    NarutoEvent::StepAdvanced { to: Step::Organization }
}

fn mission_options(s: &NarutoState, seat: Seat, counter: bool, rng: &mut AgentRng) -> Vec<NarutoEvent> {
    let marker = s.marker_for(seat);
    let mut out = Vec::new();
    for c in known_hand(s, seat) {
        let Some(d) = s.def(&c) else { continue };
        if d.kind != CardType::Mission || d.entry_cost > marker {
            continue;
        }
        if let Some((paid, element)) = payment(s, seat, &c, d, rng) {
            out.push(NarutoEvent::MissionPlayed {
                seat,
                card: c,
                counter,
                element,
                targets: Vec::new(),
                hand_cost_paid: paid,
            });
        }
    }
    out
}

fn organization_step(s: &NarutoState, attacker: Seat, rng: &mut AgentRng) -> NarutoEvent {
    let ninja = s.village_ninja(attacker);
    let covered: usize = s.current_teams(attacker).iter().map(Vec::len).sum();
    let organized = s.players.get(attacker).is_some_and(|p| p.turn.organized);
    if !organized && !ninja.is_empty() && (covered != ninja.len() || rng.random_bool(0.5)) {
        let mut pool = ninja;
        pool.shuffle(rng);
        let mut teams = Vec::new();
        while !pool.is_empty() {
            let size = rng.random_range(1..=3usize).min(pool.len());
            teams.push(pool.drain(..size).collect());
        }
        return NarutoEvent::TeamsOrganized { seat: attacker, teams };
    }
    let to = if s.is_first_turn() { Step::Winner } else { Step::Attack };
    NarutoEvent::StepAdvanced { to }
}

fn as_sent(team: &[String], rng: &mut AgentRng) -> SentTeam {
    let i = rng.random_range(0..team.len());
    let leader = team[i].clone();
    let supports = team.iter().filter(|c| **c != leader).cloned().collect();
    SentTeam { leader, supports }
}

/// About a quarter of the games (by registered deck sizes, so it is fixed per game) are played
/// cautiously, so that some end by deck-out (NAR-WIN-3) rather than by rewards.
fn cautious(s: &NarutoState) -> bool {
    s.cards.decks.iter().map(Vec::len).sum::<usize>() % 4 == 0
}

fn attack_step(s: &NarutoState, attacker: Seat, rng: &mut AgentRng) -> NarutoEvent {
    let mut teams = s.current_teams(attacker);
    teams.shuffle(rng);
    let mut sent = Vec::new();
    for t in &teams {
        if sent.len() < 3 && rng.random_bool(if cautious(s) { 0.04 } else { 0.7 }) {
            sent.push(as_sent(t, rng));
        }
    }
    NarutoEvent::AttackingTeamsSent { seat: attacker, teams: sent }
}

fn block_step(s: &NarutoState, blocker: Seat, rng: &mut AgentRng) -> NarutoEvent {
    let mut blocks = Vec::new();
    let mut open: Vec<String> = s.battle.attacks.iter().map(|t| t.leader.clone()).collect();
    for team in s.current_teams(blocker) {
        if open.is_empty() || !rng.random_bool(if cautious(s) { 0.95 } else { 0.5 }) {
            continue;
        }
        let i = rng.random_range(0..open.len());
        let target =
            if s.policies.multi_block == MultiBlockPolicy::Allow { open[i].clone() } else { open.swap_remove(i) };
        let t = as_sent(&team, rng);
        blocks.push(BlockingTeam { leader: t.leader, supports: t.supports, blocks: target });
    }
    NarutoEvent::BlockingTeamsSent { seat: blocker, teams: blocks }
}

fn jutsu_step(s: &NarutoState, rng: &mut AgentRng) -> NarutoEvent {
    if rng.random_bool(0.3) {
        let mut options = Vec::new();
        for seat in [0u8, 1] {
            let Some(p) = s.players.get(seat) else { continue };
            let Some(ninja) = p.battlefield.choose(rng) else {
                continue;
            };
            for c in known_hand(s, seat) {
                if s.kind(&c) == Some(CardType::Jutsu) {
                    options.push(NarutoEvent::JutsuUsed {
                        seat,
                        card: c,
                        ninja: ninja.clone(),
                        targets: vec![ninja.clone()],
                        cost_paid: Vec::new(),
                    });
                }
            }
        }
        if let Some(e) = options.choose(rng) {
            return e.clone();
        }
    }
    // The invented jutsu's effect, recorded as a modifier (at most twice a turn).
    let on_field: Vec<String> = s.players.iter().flat_map(|p| p.battlefield.iter().cloned()).collect();
    if s.modifiers.iter().filter(|m| m.duration == Duration::EndOfTurn).count() < 2 && rng.random_bool(0.1) {
        if let Some(target) = on_field.choose(rng) {
            return NarutoEvent::ModifierApplied {
                target: target.clone(),
                stat: Stat::Attack,
                delta: 1,
                duration: Duration::EndOfTurn,
            };
        }
    }
    NarutoEvent::JutsuExchangeEnded {}
}

/// Step K's next reward or fight; `None` once both are done (the step's end is automatic).
fn calculation_step(
    s: &NarutoState,
    secrets: &AgentSecrets,
    attacker: Seat,
    rng: &mut AgentRng,
    rules: Rules,
) -> Option<NarutoEvent> {
    for t in &s.battle.attacks {
        if !s.battle.is_blocked(&t.leader) && !s.battle.rewarded.contains(&t.leader) {
            if rules.blind_rewards {
                return Some(reward_taken(s, attacker, t));
            }
            // Before `blind_rewards`, the taker named the cards (the agent knows the dealer's seed).
            let (n, _) = expected_reward(s, attacker, t);
            let foe = crate::game::opponent(attacker);
            let cards = top_cards(s, secrets, foe, n, rng).into_iter().map(CardRef::Open).collect();
            return Some(NarutoEvent::BattleRewardTaken { seat: attacker, team: t.leader.clone(), cards });
        }
    }
    for b in &s.battle.blocks {
        if s.battle.fought.iter().any(|(a, bl)| *a == b.blocks && *bl == b.leader) {
            continue;
        }
        if let Some(a) = s.battle.attacks.iter().find(|a| a.leader == b.blocks) {
            return Some(resolve_fight(s, a, b, rng.random_bool(0.05)));
        }
    }
    None
}
