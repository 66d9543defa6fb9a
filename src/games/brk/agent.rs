//! Random legal play for BRK self-play, on the `minimal` skeleton (BRK-OPEN-1).
//!
//! The agent deploys some cards hidden with sealed identities (keeping their salts in
//! [`AgentSecrets::sealed`]), declares attacks, spells, finishing blows, heals and marker effects,
//! answers the opponent's actions with its own (a heal against a finishing blow makes the fold
//! interrupt it, BRK-INT-5), blocks and interrupts actions on the stack, targets hidden cards by
//! assumption (BRK-HID-9, revealing them, BRK-HID-11), reveals by choice, hides cards through
//! the escape hatch (BRK-OPEN-7) and uses on-death features from the graveyard. Every event it
//! returns validates clean. The steps the rules fully determine come from
//! [`super::options::automatic`], as a recorded game gets them, so both have one shape.

use rand::seq::{IndexedRandom, SliceRandom};
use rand::{Rng, RngExt};

use super::catalog::{AbilityKind, CardDef, Catalog, DeckList, Trigger};
use super::config::BrkConfig;
use super::events::{BrkEvent as E, CardRef, Cell, Deployment, Phase, RevealProof, RevealReason, Zone};
use super::rules_version::Rules;
use super::state::{BrkState, Piece, Status};
use super::Brk;
use crate::game::commit::{seal, AgentSecrets, Commitment};
use crate::game::selfplay::{mix_policies, Mix};
use crate::game::{AgentRng, Game, Seat};

/// A self-play configuration: random squads from the sample catalog, and a random mix of the
/// stack policies so that every reading of BRK-OPEN-2 and BRK-OPEN-3 is played.
pub fn self_play_config(players: &[String], rng: &mut AgentRng, _rules: Rules) -> (BrkConfig, AgentSecrets) {
    let catalog = Catalog::sample();
    let ids: Vec<String> = catalog.cards.keys().cloned().collect();
    let mut decks = Vec::new();
    for _ in 0..2 {
        let n = rng.random_range(7..=10usize);
        let cards = (0..n).filter_map(|_| ids.choose(rng).cloned()).collect();
        decks.push(DeckList { cards });
    }
    let mut config = match BrkConfig::new(players.to_vec(), decks.clone(), &catalog) {
        Ok(c) => c,
        // Unreachable with the sample catalog; an empty config still fails `setup` loudly.
        Err(_) => BrkConfig::V1(super::config::ConfigV1 {
            players: players.to_vec(),
            decks,
            cards: Vec::new(),
            policies: Default::default(),
        }),
    };
    mix_policies(&mut config, MIX, rng, BrkConfig::set_policy);
    (config, AgentSecrets::default())
}

/// Self-play's mix of policies, with the odds BRK's games were pinned with: each row, with
/// probability 0.3, takes one of its values (the policy table's, in its order).
pub const MIX: &[Mix<'static>] = &[
    Mix::Maybe { key: "stack_order", p: 0.3, values: &["lifo", "fifo"] },
    Mix::Maybe { key: "priority", p: 0.3, values: &["alternate", "active-first"] },
    Mix::Maybe { key: "false_assumption", p: 0.3, values: &["interrupt", "stands"] },
];

/// The definition of a piece as its controller knows it: from the state, or from the sealed
/// identity the agent kept the salt of.
fn known_def<'a>(s: &'a BrkState, secrets: &AgentSecrets, p: &Piece) -> Option<&'a CardDef> {
    if let Some(d) = s.def_of(p) {
        return Some(d);
    }
    let (instance, _) = secrets.sealed.get(&p.sealed?)?;
    s.def(instance)
}

fn reveal(s: &BrkState, secrets: &AgentSecrets, p: &Piece, reason: RevealReason) -> E {
    let proof = match (&p.instance, p.sealed) {
        (None, Some(c)) => {
            secrets.sealed.get(&c).map(|(instance, salt)| RevealProof { instance: instance.clone(), salt: *salt })
        }
        _ => None,
    };
    let _ = s;
    E::CardRevealed { seat: p.owner, piece: p.id.clone(), reason, proof }
}

fn deploy(s: &BrkState, seat: Seat, secrets: &mut AgentSecrets, rng: &mut AgentRng) -> E {
    let mut mine = s.squad(seat);
    mine.shuffle(rng);
    let mut cells: Vec<Cell> =
        (1..=Cell::ROWS).flat_map(|row| (1..=Cell::COLS).map(move |col| Cell { row, col })).collect();
    cells.shuffle(rng);
    let mut cards = Vec::new();
    for (instance, cell) in mine.into_iter().zip(cells) {
        // The Second player's 3rd row is where hiding pays most (BRK-HID-4 (a) exception).
        let p = if seat == 1 && cell.row == 3 { 0.7 } else { 0.3 };
        let hidden = rng.random_bool(p);
        let card = if hidden {
            let mut salt = [0u8; 32];
            rng.fill_bytes(&mut salt);
            let salt = Commitment(salt);
            let c = seal(&instance, &salt);
            secrets.sealed.insert(c, (instance, salt));
            CardRef::Sealed(c)
        } else {
            CardRef::Open(instance)
        };
        cards.push(Deployment { cell, card, hidden });
    }
    E::SquadDeployed { seat, cards }
}

/// One thing the priority holder can do with a card.
#[derive(Clone, Debug)]
enum Opt {
    Declare { source: String, ability: u8, target: String },
    Block { action: u32, blocker: String, source: String },
    Interrupt { action: u32, by: String },
}

impl Opt {
    fn actor(&self) -> &str {
        match self {
            Opt::Declare { source, .. } => source,
            Opt::Block { blocker, .. } => blocker,
            Opt::Interrupt { by, .. } => by,
        }
    }
}

fn gold_left(s: &BrkState, seat: Seat) -> u32 {
    let committed: u32 = s
        .stack
        .iter()
        .filter_map(|id| s.action(*id))
        .filter(|a| a.seat == seat)
        .flat_map(|a| a.payment.iter())
        .filter(|r| r.resource == super::catalog::Resource::Gold)
        .map(|r| u32::from(r.amount))
        .sum();
    u32::from(s.gold(seat)).saturating_sub(committed)
}

fn gold_cost(cost: &[super::catalog::ResourceAmount]) -> u32 {
    cost.iter().filter(|r| r.resource == super::catalog::Resource::Gold).map(|r| u32::from(r.amount)).sum()
}

/// Every legal option of `me` now (the caller holds priority in the main phase).
fn options(s: &BrkState, secrets: &AgentSecrets, me: Seat) -> Vec<Opt> {
    let mut out = Vec::new();
    let gold = gold_left(s, me);
    for p in s.pieces.iter().filter(|p| p.owner == me) {
        let Some(def) = known_def(s, secrets, p) else { continue };
        for (i, ab) in def.abilities.iter().enumerate() {
            let Ok(i) = u8::try_from(i) else { continue };
            if gold_cost(&ab.cost) > gold {
                continue;
            }
            if !p.can_use(i, ab.trigger) {
                continue;
            }
            match ab.kind {
                AbilityKind::Block => {
                    for id in &s.stack {
                        let Some(a) = s.action(*id).filter(|a| a.seat != me) else { continue };
                        let zone = s.piece(&a.source).map_or(Zone::Play, |x| x.zone);
                        let ok = match zone {
                            Zone::Play => true,
                            Zone::Graveyard => a.ability.trigger == Trigger::OnDeath,
                            Zone::Deck => a.ability.trigger == Trigger::OnReturnToDeck,
                        };
                        if ok {
                            out.push(Opt::Block { action: *id, blocker: p.id.clone(), source: a.source.clone() });
                        }
                    }
                }
                AbilityKind::Interrupt => {
                    for id in &s.stack {
                        if s.action(*id).is_some_and(|a| a.seat != me) {
                            out.push(Opt::Interrupt { action: *id, by: p.id.clone() });
                        }
                    }
                }
                kind => {
                    let friendly = kind == AbilityKind::Heal;
                    for t in s.pieces.iter().filter(|t| t.zone == Zone::Play && (t.owner == me) == friendly) {
                        if t.id == p.id && !friendly {
                            continue;
                        }
                        let tdef = known_def(s, secrets, t);
                        if let Some(x) = &ab.requires {
                            let ok =
                                if t.hidden && t.owner != me { true } else { tdef.is_some_and(|d| d.has_trait(x)) };
                            if !ok {
                                continue;
                            }
                        }
                        if kind == AbilityKind::FinishingBlow && !t.hidden && t.lives > i16::from(ab.amount) {
                            continue;
                        }
                        out.push(Opt::Declare { source: p.id.clone(), ability: i, target: t.id.clone() });
                    }
                }
            }
        }
    }
    out
}

fn act(s: &BrkState, secrets: &AgentSecrets, me: Seat, o: &Opt) -> E {
    let actor = o.actor();
    if let Some(p) = s.piece(actor).filter(|p| p.hidden) {
        return reveal(s, secrets, p, RevealReason::DeclaredAction);
    }
    match o {
        Opt::Declare { source, ability, target } => {
            let payment = s
                .piece(source)
                .and_then(|p| s.def_of(p))
                .and_then(|d| d.ability(*ability))
                .map(|a| a.cost.clone())
                .unwrap_or_default();
            E::GameActionDeclared {
                seat: me,
                source: source.clone(),
                ability: *ability,
                targets: vec![target.clone()],
                payment,
            }
        }
        Opt::Block { action, blocker, source } => {
            E::GameActionBlocked { seat: me, action: *action, blocker: blocker.clone(), blocker_target: source.clone() }
        }
        Opt::Interrupt { action, by } => E::GameActionInterrupted {
            seat: me,
            action: *action,
            by: by.clone(),
            reason: super::options::INTERRUPT_REASON.into(),
        },
    }
}

/// The next event of a random legal game, or `None` once the game is over. Every version plays
/// alike: the steps a version owes come from the fold ([`super::state::Owed::rules`]).
pub fn agent_step(s: &BrkState, secrets: &mut AgentSecrets, rng: &mut AgentRng, _rules: Rules) -> Option<E> {
    if s.result.is_some() {
        return None;
    }
    // Who acts comes from the game's "who may act" query, as the recorder sees it.
    let awaited = <Brk as Game>::awaited(s);
    if s.phase == Phase::Setup {
        if let Some(&seat) = awaited.iter().find(|x| !s.deployed(**x)) {
            return Some(deploy(s, seat, secrets, rng));
        }
    }
    // Rules version 4: the steps an event made due come before anything, a targeted card's
    // reveal too (none is ever owed under the earlier versions' fold).
    if let Some(step) = s.owed_steps().into_iter().next() {
        return Some(step);
    }
    if let Some(p) = s.pending_reveals.first().and_then(|id| s.piece(id)) {
        return Some(reveal(s, secrets, p, RevealReason::Targeted));
    }
    // The steps the rules fully determine (the next turn, the main phase, a passed-on stack's
    // action, its payment and effects, the end) are the shared automatic ones.
    if let Some(e) = super::options::automatic(s) {
        return Some(e);
    }
    let active = s.active.unwrap_or(0);
    match s.phase {
        Phase::Setup | Phase::End => None,
        Phase::Reveal => s.reveal_due().first().map(|p| reveal(s, secrets, p, RevealReason::RevealSubphase)),
        Phase::Main => main_step(s, secrets, rng, active, awaited.first().copied()),
    }
}

/// `me`: the awaited seat, the priority holder (BRK-STACK-3).
fn main_step(s: &BrkState, secrets: &AgentSecrets, rng: &mut AgentRng, active: Seat, me: Option<Seat>) -> Option<E> {
    let me = me?;
    let opts = options(s, secrets, me);
    if let Some(p) = &s.declaring {
        let mine: Vec<&Opt> = opts.iter().filter(|o| o.actor() == p).collect();
        // The options of a card revealed to act are the ones that made the agent reveal it.
        return mine.choose(rng).map(|o| act(s, secrets, me, o));
    }
    let r = rng.random_range(0..100u32);
    // Escape hatch (BRK-OPEN-7): now and then an effect hides one of the player's face-up cards.
    if r < 2 {
        let face_up: Vec<&Piece> = s.in_play(me).filter(|p| !p.hidden && p.instance.is_some()).collect();
        if let Some(p) = face_up.choose(rng) {
            return Some(E::CardHidden { piece: p.id.clone(), cause: super::options::HIDE_CAUSE.into() });
        }
    }
    if r < 5 {
        let hidden: Vec<&Piece> = s.in_play(me).filter(|p| p.hidden).collect();
        if let Some(p) = hidden.choose(rng) {
            return Some(reveal(s, secrets, p, RevealReason::ControllerChoice));
        }
    }
    // Answer a finishing blow on one's own card with a heal on it (BRK-INT-5).
    let threatened: Vec<&String> = s
        .stack
        .iter()
        .filter_map(|id| s.action(*id))
        .filter(|a| a.seat != me && a.ability.kind == AbilityKind::FinishingBlow && a.status == Status::OnStack)
        .flat_map(|a| a.targets.iter())
        .collect();
    let heals: Vec<&Opt> = opts
        .iter()
        .filter(|o| matches!(o, Opt::Declare { target, .. } if threatened.contains(&target)))
        .filter(|o| {
            let Opt::Declare { source, ability, .. } = o else { return false };
            s.piece(source)
                .and_then(|p| known_def(s, secrets, p))
                .and_then(|d| d.ability(*ability))
                .is_some_and(|a| a.kind == AbilityKind::Heal)
        })
        .collect();
    if !heals.is_empty() && rng.random_bool(0.8) {
        return heals.choose(rng).map(|o| act(s, secrets, me, o));
    }
    let answers: Vec<&Opt> = opts.iter().filter(|o| !matches!(o, Opt::Declare { .. })).collect();
    if !answers.is_empty() && rng.random_bool(0.35) {
        return answers.choose(rng).map(|o| act(s, secrets, me, o));
    }
    let declares: Vec<&Opt> = opts.iter().filter(|o| matches!(o, Opt::Declare { .. })).collect();
    let want = if s.stack.is_empty() && me == active { 0.85 } else { 0.35 };
    if !declares.is_empty() && rng.random_bool(want) {
        return declares.choose(rng).map(|o| act(s, secrets, me, o));
    }
    if s.stack.is_empty() && me == active {
        return Some(E::TurnEnded { seat: me });
    }
    Some(E::PriorityPassed { seat: me })
}
