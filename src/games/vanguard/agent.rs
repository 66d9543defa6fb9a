//! Random legal play: self-play configurations and an agent that plays whole games from the
//! setup to a loss, emitting only events that `validate` accepts; and [`client_ops`], which
//! re-expresses a rules-level event as the client's manual operations (the same game as players
//! would have recorded it by hand in the client).
//!
//! Deck order is unknown to the log (physical shuffles), so every card that comes off the top of
//! a deck is a uniformly random card of that deck, which is what a real shuffle looks like.

use rand::seq::{IndexedRandom, SliceRandom};
use rand::RngExt;

use super::catalog::{CardDef, CardKind, Catalog, DeckList, TriggerType};
use super::config::{Limit, VanguardConfig};
use super::events::{Circle, ClientOp, Phase, Place, VanguardEvent as E};
use super::rules_version::Rules;
use super::state::VanguardState;
use crate::game::commit::AgentSecrets;
use crate::game::selfplay::{mix_policies, Mix};
use crate::game::{AgentRng, Seat};

/// A random legal deck of one clan from `catalog`, in the client's standard balance (VGC-SRV-4):
/// 17/14/11/8 cards of grades 0/1/2/3 with 16 triggers (4 heal), and up to 8 G units.
pub fn random_deck(catalog: &Catalog, rng: &mut AgentRng) -> DeckList {
    let mut clans: Vec<&str> = catalog.cards.values().map(|d| d.clan.as_str()).collect();
    clans.dedup();
    clans.sort();
    clans.dedup();
    let clan = clans.choose(rng).copied().unwrap_or("");
    let of = |f: &dyn Fn(&CardDef) -> bool| -> Vec<&CardDef> {
        catalog.cards.values().filter(|d| d.clan == clan && f(d)).collect()
    };
    let mut main = Vec::new();
    if let Some(starter) = of(&|d| d.grade == 0 && d.kind == CardKind::Normal).choose(rng) {
        main.push(starter.id.clone());
    }
    for t in [TriggerType::Draw, TriggerType::Critical, TriggerType::Heal, TriggerType::Stand] {
        if let Some(d) = of(&|d| d.trigger == Some(t)).first() {
            main.extend(std::iter::repeat_n(d.id.clone(), 4));
        }
    }
    for (g, total) in [(1u8, 14usize), (2, 11), (3, 8)] {
        let mut names = of(&|d| d.grade == g && d.kind == CardKind::Normal);
        names.shuffle(rng);
        let mut left = total;
        // Fill four at a time until the grade's quota is met, never more than 4 of a name.
        for d in names.iter().cycle().take(names.len() * 4) {
            if left == 0 {
                break;
            }
            let have = main.iter().filter(|c| *c == &d.id).count();
            if have < 4 {
                main.push(d.id.clone());
                left -= 1;
            }
        }
    }
    // Deck lists group copies of a card, as a player writes them.
    main.sort();
    let gs = of(&|d| d.kind == CardKind::GUnit);
    let n = rng.random_range(0..=8usize);
    let mut g: Vec<String> = (0..n).filter_map(|_| gs.choose(rng).map(|d| d.id.clone())).collect();
    g.sort();
    DeckList { main, g }
}

/// A self-play configuration: random decks from the sample catalog and a random mix of policies.
/// The same configuration under every rules version.
pub fn self_play_config(players: &[String], rng: &mut AgentRng, _rules: Rules) -> (VanguardConfig, AgentSecrets) {
    let catalog = Catalog::sample();
    let decks = vec![random_deck(&catalog, rng), random_deck(&catalog, rng)];
    let mut config = match VanguardConfig::new(players.to_vec(), decks.clone(), &catalog) {
        Ok(c) => c,
        // Unreachable with the sample catalog; an empty config still fails `setup` loudly.
        Err(_) => VanguardConfig::V1(super::config::ConfigV1 {
            players: players.to_vec(),
            decks,
            cards: Vec::new(),
            policies: Default::default(),
        }),
    };
    mix_policies(&mut config, MIX, rng, VanguardConfig::set_policy);
    (config, AgentSecrets::default())
}

/// Self-play's mix of policies, with the odds Vanguard's games were pinned with: each row, with
/// probability 0.25, takes one of its values.
pub const MIX: &[Mix<'static>] = &[
    Mix::Maybe { key: "first_turn_attack", p: 0.25, values: &["first-player-only", "both-first-turns"] },
    Mix::Maybe { key: "simultaneous_loss", p: 0.25, values: &["draw", "active-player-loses"] },
    Mix::Maybe { key: "grade_assist_removal", p: 0.25, values: &["two-and-two", "two-total"] },
    Mix::Maybe { key: "damage_check_clan", p: 0.25, values: &["required", "not-required"] },
    Mix::Maybe { key: "stride_limit", p: 0.25, values: &["once-per-turn", "unlimited"] },
];

fn pick<T: Clone>(v: &[T], rng: &mut AgentRng) -> Option<T> {
    v.choose(rng).cloned()
}

fn deck_cards(s: &VanguardState, seat: Seat) -> Vec<String> {
    s.players.get(seat).map(|p| p.deck.iter().cloned().collect()).unwrap_or_default()
}

fn grade(s: &VanguardState, c: &str) -> u8 {
    s.def(c).map_or(0, |d| d.grade)
}

/// The next event of a random legal game, or `None` once the game is over: an automatic step
/// ([`super::options::automatic`], as a recorded game gets them, so both have one shape), the
/// setup, an open trigger, or the step of the turn's phase.
pub fn agent_step(s: &VanguardState, _secrets: &mut AgentSecrets, rng: &mut AgentRng, rules: Rules) -> Option<E> {
    if let Some(step) = super::options::automatic(s, rules) {
        weigh_skipped_phase(s, &step, rng);
        return Some(step);
    }
    if s.result.is_some() {
        return None;
    }
    if s.phase == Phase::Setup {
        return setup_step(s, rng);
    }
    if let Some(ch) = s.check.as_ref().filter(|c| c.open()) {
        return Some(resolve_trigger(s, ch.seat, rng));
    }
    let seat = s.active?;
    let p = s.players.get(seat)?;
    let vg = s.vanguard_grade(seat).unwrap_or(0);
    let next = |phase| Some(E::PhaseEntered { seat, phase });
    match s.phase {
        // The stand and end phases' steps are automatic.
        Phase::Setup | Phase::Stand | Phase::End => None,
        Phase::Draw if !p.turn.drew => Some(E::CardDrawn { seat, card: pick(&deck_cards(s, seat), rng)? }),
        Phase::Draw => {
            let can_assist = vg < 3
                && p.g_zone.len() >= 2
                && p.hand.len() >= 2
                && !p.hand.iter().any(|c| grade(s, c) == vg + 1)
                && p.grade_assists_game == 0;
            next(if can_assist && rng.random_bool(0.5) { Phase::GradeAssist } else { Phase::Ride })
        }
        Phase::GradeAssist => grade_assist_step(s, seat, vg, rng).or_else(|| next(Phase::Ride)),
        Phase::Ride => ride_step(s, seat, vg, rng).or_else(|| next(Phase::Stride)),
        Phase::Stride => stride_step(s, seat, vg, rng).or_else(|| next(Phase::Main)),
        Phase::Main => replacing_call(s, seat, vg, rng, rules)
            .or_else(|| main_step(s, seat, vg, rng))
            .or_else(|| next(Phase::Battle)),
        Phase::Battle => battle_step(s, seat, rng).or_else(|| next(Phase::End)),
    }
}

/// A phase the rules leave nothing to choose in moves on by itself; the agent still weighs the
/// phase's choice as it did before the step was automatic (the rules refuse whatever it would
/// pick, so it picks nothing), drawing what it drew then: a seed plays the game it always played,
/// and the pinned recipes keep their bytes.
fn weigh_skipped_phase(s: &VanguardState, step: &E, rng: &mut AgentRng) {
    let E::PhaseEntered { seat, .. } = step else { return };
    let vg = s.vanguard_grade(*seat).unwrap_or(0);
    let _ = match s.phase {
        Phase::GradeAssist => grade_assist_step(s, *seat, vg, rng),
        Phase::Ride => ride_step(s, *seat, vg, rng),
        Phase::Stride => stride_step(s, *seat, vg, rng),
        _ => None,
    };
}

/// A grade assist, if the policy allows one now; `None` moves on to the ride phase.
fn grade_assist_step(s: &VanguardState, seat: Seat, vg: u8, rng: &mut AgentRng) -> Option<E> {
    let p = s.players.get(seat)?;
    let target: Vec<String> = deck_cards(s, seat).into_iter().filter(|c| grade(s, c) == vg + 1).collect();
    let allowed = match s.policies.grade_assist_limit {
        Limit::OncePerTurn => p.turn.grade_assists == 0,
        Limit::OncePerGame => p.grade_assists_game == 0,
        Limit::Unlimited => true,
    };
    if !allowed || p.g_zone.len() < 2 || p.hand.len() < 2 {
        return None;
    }
    let mut removed: Vec<String> = p.hand.iter().take(2).cloned().collect();
    if s.policies.grade_assist_removal == super::config::GradeAssistRemoval::TwoAndTwo {
        removed.extend(p.g_zone.iter().take(2).map(|(c, _)| c.clone()));
    }
    Some(E::GradeAssisted { seat, taken: pick(&target, rng), removed })
}

/// A ride (up a grade, now and then a same-grade ride) or a forerunner call; `None` moves on.
fn ride_step(s: &VanguardState, seat: Seat, vg: u8, rng: &mut AgentRng) -> Option<E> {
    let p = s.players.get(seat)?;
    if !p.turn.rode && p.g_unit.is_none() {
        let up: Vec<String> = p.hand.iter().filter(|c| grade(s, c) == vg + 1).cloned().collect();
        let same: Vec<String> = p.hand.iter().filter(|c| grade(s, c) == vg && vg > 0).cloned().collect();
        if let Some(card) = pick(&up, rng).or_else(|| if rng.random_bool(0.2) { pick(&same, rng) } else { None }) {
            return Some(E::Rode { seat, card });
        }
    }
    if let Some((_, card)) = s.ridden_upon.as_ref().filter(|(r, c)| *r == seat && p.soul.contains(c)) {
        let ok = s.def(card).is_some_and(|d| d.has("forerunner"))
            && s.def(card).map(|d| &d.clan) == p.vanguard.as_ref().and_then(|u| s.def(&u.card)).map(|d| &d.clan);
        let free: Vec<Circle> = Circle::REAR.into_iter().filter(|c| !p.rear.contains_key(c)).collect();
        if ok && rng.random_bool(0.7) {
            if let Some(circle) = pick(&free, rng) {
                return Some(E::ForerunnerCalled { seat, card: card.clone(), circle });
            }
        }
    }
    None
}

/// A stride when both vanguards are grade 3 or more and the hand pays it; `None` moves on.
fn stride_step(s: &VanguardState, seat: Seat, vg: u8, rng: &mut AgentRng) -> Option<E> {
    let p = s.players.get(seat)?;
    let opp = crate::game::opponent(seat);
    let g: Vec<String> = p.g_zone.iter().filter(|(_, up)| !up).map(|(c, _)| c.clone()).collect();
    let limit_ok = s.policies.stride_limit == Limit::Unlimited || p.turn.strides == 0;
    if vg < 3 || s.vanguard_grade(opp).unwrap_or(0) < 3 || p.g_unit.is_some() || !limit_ok || !rng.random_bool(0.7) {
        return None;
    }
    let mut hand = p.hand.clone();
    hand.sort_by_key(|c| std::cmp::Reverse(grade(s, c)));
    let mut total = 0u8;
    let mut discarded = Vec::new();
    for c in hand {
        if total >= 3 {
            break;
        }
        total += grade(s, &c);
        discarded.push(c);
    }
    let heart = p.vanguard.as_ref().map(|u| u.card.clone());
    match (pick(&g, rng), heart, total >= 3) {
        (Some(g_unit), Some(heart), true) => Some(E::Strode { seat, g_unit, heart, discarded }),
        _ => None,
    }
}

fn setup_step(s: &VanguardState, rng: &mut AgentRng) -> Option<E> {
    for seat in [0u8, 1] {
        let p = s.players.get(seat)?;
        if p.vanguard.is_none() {
            let zeros: Vec<String> = p
                .deck
                .iter()
                .filter(|c| s.def(c).is_some_and(|d| d.grade == 0 && d.kind == CardKind::Normal))
                .cloned()
                .collect();
            let card = pick(&zeros, rng).or_else(|| {
                let any: Vec<String> = p.deck.iter().filter(|c| grade(s, c) == 0).cloned().collect();
                pick(&any, rng)
            })?;
            return Some(E::StartingVanguardSet { seat, card });
        }
    }
    if s.first.is_none() {
        return Some(E::FirstPlayerDetermined { first: if rng.random_bool(0.5) { 0 } else { 1 } });
    }
    for seat in [0u8, 1] {
        let p = s.players.get(seat)?;
        if !p.hand_drawn {
            let mut deck = deck_cards(s, seat);
            deck.shuffle(rng);
            deck.truncate(5);
            return Some(E::OpeningHandDrawn { seat, cards: deck });
        }
    }
    for seat in [0u8, 1] {
        let p = s.players.get(seat)?;
        if !p.redrawn && !s.revealed && rng.random_bool(0.2) {
            let mut returned: Vec<String> = p.hand.iter().filter(|c| grade(s, c) >= 2).cloned().collect();
            if returned.is_empty() {
                returned = p.hand.iter().take(1).cloned().collect();
            }
            let mut pool = deck_cards(s, seat);
            pool.extend(returned.iter().cloned());
            pool.shuffle(rng);
            pool.truncate(returned.len());
            return Some(E::Redrawn { seat, returned, drawn: pool });
        }
    }
    // The first turn, once the vanguards are face up, is an automatic step.
    (!s.revealed).then_some(E::VanguardsRevealed {})
}

/// Version 5: now and then, with every rear-guard circle taken, a call onto an occupied circle
/// (its occupant's retirement is then the owed step `OccupantRetired`, VG-ZONE-5). Earlier
/// versions draw nothing here, so their seeds play the games they always played.
fn replacing_call(s: &VanguardState, seat: Seat, vg: u8, rng: &mut AgentRng, rules: Rules) -> Option<E> {
    let p = s.players.get(seat)?;
    if !rules.owed_steps || p.rear.len() < Circle::REAR.len() {
        return None;
    }
    let callable: Vec<String> = p
        .hand
        .iter()
        .filter(|c| s.def(c).is_some_and(|d| d.grade <= vg && d.grade >= 1 && !d.is_g_unit()))
        .cloned()
        .collect();
    if callable.is_empty() || !rng.random_bool(0.3) {
        return None;
    }
    let circle = pick(&Circle::REAR, rng)?;
    Some(E::Called { seat, card: pick(&callable, rng)?, circle })
}

fn main_step(s: &VanguardState, seat: Seat, vg: u8, rng: &mut AgentRng) -> Option<E> {
    let p = s.players.get(seat)?;
    let free: Vec<Circle> = Circle::REAR.into_iter().filter(|c| !p.rear.contains_key(c)).collect();
    let callable: Vec<String> = p
        .hand
        .iter()
        .filter(|c| s.def(c).is_some_and(|d| d.grade <= vg && !d.is_g_unit() && (d.grade > 0 || rng.random_bool(0.3))))
        .cloned()
        .collect();
    if !free.is_empty() && !callable.is_empty() && rng.random_bool(0.75) {
        // Prefer front-row circles for grade 2+, back-row for boosters.
        let card = pick(&callable, rng)?;
        let back = grade(s, &card) <= 1;
        let preferred: Vec<Circle> = free.iter().copied().filter(|c| c.is_front() != back).collect();
        let circle = pick(if preferred.is_empty() { &free } else { &preferred }, rng)?;
        return Some(E::Called { seat, card, circle });
    }
    let face_up: Vec<String> = p.damage.iter().filter(|(_, up)| *up).map(|(c, _)| c.clone()).collect();
    if !face_up.is_empty() && rng.random_bool(0.08) {
        return Some(E::CounterBlasted { seat, cards: vec![face_up[0].clone()] });
    }
    if p.deck.len() > 10 && rng.random_bool(0.05) {
        return Some(E::SoulCharged { seat, cards: vec![pick(&deck_cards(s, seat), rng)?] });
    }
    if !p.soul.is_empty() && rng.random_bool(0.04) {
        return Some(E::SoulBlasted { seat, cards: vec![p.soul[0].clone()] });
    }
    None
}

fn battle_step(s: &VanguardState, seat: Seat, rng: &mut AgentRng) -> Option<E> {
    let opp = crate::game::opponent(seat);
    let p = s.players.get(seat)?;
    let o = s.players.get(opp)?;
    let Some(a) = &s.attack else {
        if s.no_attack_turn(seat) || rng.random_bool(0.05) {
            return None;
        }
        let other_clan = |clan: &str| p.units().iter().any(|(_, u)| s.def(&u.card).is_some_and(|d| d.clan != clan));
        let attackers: Vec<Circle> = [Circle::FrontLeft, Circle::Vanguard, Circle::FrontRight]
            .into_iter()
            .filter(|c| {
                p.on(*c).is_some_and(|u| {
                    !u.rested
                        && !u.locked
                        && s.def(&u.card)
                            .is_some_and(|d| !(d.has("restraint") || (d.has("lord") && other_clan(&d.clan))))
                })
            })
            .collect();
        let attacker = pick(&attackers, rng)?;
        let targets: Vec<Circle> =
            [Circle::FrontLeft, Circle::FrontRight].into_iter().filter(|c| o.rear.contains_key(c)).collect();
        let target = if targets.is_empty() || rng.random_bool(0.7) { Circle::Vanguard } else { pick(&targets, rng)? };
        return Some(E::AttackDeclared { seat, attacker, target });
    };
    let (atk, def) = s.battle_powers()?;
    match a.hit {
        None => {
            if a.booster.is_none() && a.drives_done == 0 && o.guardians.is_empty() {
                if let Some(b) = a.attacker.behind() {
                    let ok = p.rear.get(&b).is_some_and(|u| !u.rested && !u.locked && grade(s, &u.card) <= 1);
                    if ok && rng.random_bool(0.8) {
                        return Some(E::Boosted { seat, booster: b });
                    }
                }
            }
            if a.drives_done == 0 && atk >= def {
                let og = s.vanguard_grade(opp).unwrap_or(0);
                let guards: Vec<String> = o
                    .hand
                    .iter()
                    .filter(|c| s.def(c).is_some_and(|d| d.grade <= og && d.shield > 0))
                    .cloned()
                    .collect();
                if !guards.is_empty() && rng.random_bool(0.5) {
                    return Some(E::GuardianCalled { seat: opp, card: pick(&guards, rng)? });
                }
                let interceptors: Vec<Circle> = [Circle::FrontLeft, Circle::FrontRight]
                    .into_iter()
                    .filter(|c| *c != a.target && o.rear.get(c).is_some_and(|u| !u.locked && grade(s, &u.card) == 2))
                    .collect();
                if !interceptors.is_empty() && rng.random_bool(0.25) {
                    return Some(E::Intercepted { seat: opp, circle: pick(&interceptors, rng)? });
                }
            }
            if a.drives_done < a.drives_total {
                return Some(E::DriveChecked { seat, card: pick(&deck_cards(s, seat), rng)? });
            }
            Some(E::AttackResolved { hit: atk >= def })
        }
        Some(true) if a.damage_left > 0 => Some(E::DamageChecked { seat: opp, card: pick(&deck_cards(s, opp), rng)? }),
        Some(_) => Some(E::BattleEnded {}),
    }
}

fn resolve_trigger(s: &VanguardState, seat: Seat, rng: &mut AgentRng) -> E {
    let ch = s.check.clone();
    let t = ch.as_ref().and_then(|c| c.trigger).unwrap_or(TriggerType::Draw);
    let p = s.players.get(seat);
    // Power goes to the attacker for drive checks and to the vanguard for damage checks.
    let unit = match &s.attack {
        Some(a) if a.seat == seat => p.and_then(|p| p.on(a.attacker)),
        _ => p.and_then(|p| p.on(Circle::Vanguard)),
    }
    .or_else(|| p.and_then(|p| p.on(Circle::Vanguard)))
    .map(|u| u.card.clone())
    .unwrap_or_default();
    let critical_to = (t == TriggerType::Critical).then(|| unit.clone());
    let drew = if t == TriggerType::Draw { pick(&deck_cards(s, seat), rng) } else { None };
    let healed = match (&ch, p) {
        (Some(c), Some(p)) if t == TriggerType::Heal && c.damage_before.0 >= c.damage_before.1 => {
            p.damage.first().map(|(c, _)| c.clone())
        }
        _ => None,
    };
    let stood = if t == TriggerType::Stand {
        p.and_then(|p| p.rear.values().find(|u| u.rested).map(|u| u.card.clone()))
    } else {
        None
    };
    E::TriggerResolved { seat, power_to: unit, critical_to, drew, healed, stood }
}

/// The same event as the client's manual operations (digest §4.2), given the state before it:
/// what a player would have done by hand in the client. Events the client has no operation for
/// (the setup, the end of the game, abilities) stay as they are.
pub fn client_ops(s: &VanguardState, event: &E) -> Vec<E> {
    match event {
        E::TurnStarted { seat, .. } => vec![op(*seat, ClientOp::PhaseButton { phase: Phase::Ride })],
        E::PhaseEntered { seat, phase } => match phase {
            Phase::Main | Phase::Battle | Phase::End => vec![op(*seat, ClientOp::PhaseButton { phase: *phase })],
            _ => vec![],
        },
        E::CardDrawn { seat, card } => vec![op(*seat, ClientOp::Drew { card: card.clone() })],
        E::GradeAssisted { seat, taken, removed } => {
            let mut out: Vec<E> = taken.iter().map(|c| op(*seat, ClientOp::ToHand { card: c.clone() })).collect();
            out.extend(removed.iter().map(|c| mv(*seat, c, Place::Removed)));
            out.push(op(*seat, ClientOp::Shuffled {}));
            out
        }
        E::Rode { seat, card } => vec![op(*seat, ClientOp::Rode { card: card.clone() })],
        E::ForerunnerCalled { seat, card, circle } | E::Called { seat, card, circle } => {
            vec![mv(*seat, card, Place::Circle(*circle))]
        }
        E::Strode { seat, g_unit, heart, discarded } => {
            let mut out: Vec<E> = discarded.iter().map(|c| mv(*seat, c, Place::Drop)).collect();
            out.push(op(*seat, ClientOp::Strode { g_unit: g_unit.clone(), heart: heart.clone() }));
            out
        }
        E::CounterBlasted { seat, cards } => {
            cards.iter().map(|c| op(*seat, ClientOp::DamageFlipped { card: c.clone(), face_up: false })).collect()
        }
        E::SoulBlasted { seat, cards } => cards.iter().map(|c| mv(*seat, c, Place::Drop)).collect(),
        E::SoulCharged { seat, cards } => {
            cards.iter().map(|c| op(*seat, ClientOp::SoulCharged { card: c.clone() })).collect()
        }
        E::AttackDeclared { seat, attacker, .. } | E::Boosted { seat, booster: attacker } => {
            vec![op(*seat, ClientOp::PositionChanged { card: unit_on(s, *seat, *attacker), rested: true })]
        }
        E::GuardianCalled { seat, card } => vec![mv(*seat, card, Place::Guardian)],
        E::Intercepted { seat, circle } => vec![mv(*seat, &unit_on(s, *seat, *circle), Place::Guardian)],
        E::DriveChecked { seat, card } | E::DamageChecked { seat, card } => {
            vec![op(*seat, ClientOp::Checked { card: card.clone() })]
        }
        E::TriggerResolved { seat, power_to, critical_to, drew, healed, stood } => {
            trigger_ops(*seat, power_to, critical_to, drew, healed, stood)
        }
        E::AttackResolved { hit: true } => match &s.attack {
            Some(a) if a.target != Circle::Vanguard => {
                let opp = crate::game::opponent(a.seat);
                vec![mv(opp, &unit_on(s, opp, a.target), Place::Drop)]
            }
            _ => vec![],
        },
        E::AttackResolved { hit: false } => vec![],
        E::BattleEnded {} => guardians_retired(s),
        other => vec![other.clone()],
    }
}

/// A client operation by `seat`.
fn op(seat: Seat, op: ClientOp) -> E {
    E::Client { seat, op }
}

/// `seat` moved `card` by hand to `to` (VGC-OP-1).
fn mv(seat: Seat, card: &str, to: Place) -> E {
    op(seat, ClientOp::Moved { card: card.to_string(), to })
}

/// The card of the unit on `seat`'s `circle` (empty when there is none: the operation then
/// names no card, as a careless client log would).
fn unit_on(s: &VanguardState, seat: Seat, circle: Circle) -> String {
    s.players.get(seat).and_then(|p| p.on(circle)).map(|u| u.card.clone()).unwrap_or_default()
}

/// A resolved trigger by hand: its power (and critical), then the card it drew, healed or stood.
fn trigger_ops(
    seat: Seat,
    power_to: &str,
    critical_to: &Option<String>,
    drew: &Option<String>,
    healed: &Option<String>,
    stood: &Option<String>,
) -> Vec<E> {
    let mut out =
        vec![op(seat, ClientOp::TriggerApplied { power_to: power_to.to_string(), critical_to: critical_to.clone() })];
    if let Some(c) = drew {
        out.push(op(seat, ClientOp::Drew { card: c.clone() }));
    }
    if let Some(c) = healed {
        out.push(mv(seat, c, Place::Drop));
    }
    if let Some(c) = stood {
        out.push(op(seat, ClientOp::PositionChanged { card: c.clone(), rested: false }));
    }
    out
}

/// The end of a battle by hand: every guardian moved to its owner's drop zone.
fn guardians_retired(s: &VanguardState) -> Vec<E> {
    s.players.enumerate().flat_map(|(seat, p)| p.guardians.iter().map(move |c| mv(seat, c, Place::Drop))).collect()
}
