//! What a seat may record now in BRK ([`crate::game::options`]): the deployment, reveals, game
//! actions, blocks, interruptions, passes and the end of a turn, labelled from the seat's own view
//! ([`super::view::can_see`]), each kept only when `validate` accepts it. The agent plays the
//! automatic steps through [`automatic`] (see [`super::agent`]).
//!
//! A hidden card's identity lives on its controller's device: a deployment seals it and a reveal
//! opens the seal with the instance and salt. Neither can be listed from the state, so those two
//! options take a [`ParamKind::Secret`] parameter whose values the seat's device supplies (the
//! listed values are the seat's own cards, as a hint); the rules check them against the seal.
//!
//! Automatic steps ([`automatic`]): `TurnStarted`, `MainPhaseEntered` (once the Reveal subphase
//! has nothing left to reveal), `GameActionPerformed` (both players passed), `PaymentMade`,
//! `EffectApplied` (the protection the rules compute) and `GameEnded`; from rules version 4,
//! before any of them, the steps an event made due: `CardsSentToGraveyard` (BRK-OPEN-1),
//! `MarkersPlacedOnReveal` (BRK-HID-2) and `CardsOpened` (BRK-FRAG-6).

use super::catalog::AbilityKind;
use super::events::{BrkEvent as E, CardRef, Cell, Deployment, Phase, RevealProof, RevealReason, Zone};
use super::rules::{actions_of, can_act, expected_protection, victory_as};
use super::state::{BrkState, Piece};
use super::view::can_see;
use super::BrkRules;
use crate::game::commit::Commitment;
use crate::game::options::{legal, Concern, GameOption, Param, ParamKind, ParamValue, Pick, SecretForm};
use crate::game::{Seat, Viewer};

/// The reason an interruption by card text records (the agent and the option record the same words).
pub use super::rules::INTERRUPT_REASON;

/// The cause the escape hatch "an effect hid this card" records (BRK-OPEN-7).
pub const HIDE_CAUSE: &str = "an effect turned it face down";

/// The actions `seat` may record now under rules version `V` (each kept only when that version's
/// `validate` accepts it).
pub fn options<const V: u32>(s: &BrkState, seat: Seat) -> Vec<GameOption<E>> {
    let mut o = Vec::new();
    if s.result.is_some() || seat > 1 {
        return o;
    }
    if s.phase == Phase::Setup {
        if !s.deployed(seat) {
            o.push(deploy_option(s, seat));
        }
        return legal::<BrkRules<V>>(s, o);
    }
    // A targeted hidden card is revealed before anything else (BRK-HID-4 (c)).
    if let Some(p) = s.pending_reveals.first().and_then(|id| s.piece(id)) {
        if p.owner == seat {
            o.push(reveal_option(s, p, RevealReason::Targeted));
        }
        return legal::<BrkRules<V>>(s, o);
    }
    if s.phase == Phase::Reveal {
        for p in s.reveal_due().into_iter().filter(|p| p.owner == seat) {
            o.push(reveal_option(s, p, RevealReason::RevealSubphase));
        }
    }
    if s.phase == Phase::Main && s.priority == Some(seat) && automatic(s).is_none() {
        // From version 6 a card revealed to act that cannot act holds nobody up (BRK-HID-4).
        let rules = BrkRules::<V>::RULES;
        let declaring = s.declaring.as_deref().filter(|p| !rules.declaring_lapses || can_act(s, p, rules));
        main(s, seat, declaring, &mut o);
    }
    legal::<BrkRules<V>>(s, o)
}

/// The next event the rules fully determine, recorded by kifu itself: the next turn, the main
/// phase once nothing is left to reveal, a passed-on stack's next action, its payment and
/// effects, and the end of the game. `None` while a seat owes a reveal or a choice.
pub fn automatic(s: &BrkState) -> Option<E> {
    if s.result.is_some() {
        return None;
    }
    // Rules version 4: the steps an event made due come first ([`BrkState::owed_steps`]; the
    // earlier versions' fold makes them inside that event, so it never owes one).
    if let Some(step) = s.owed_steps().into_iter().next() {
        return Some(step);
    }
    if s.phase == Phase::Setup {
        // Both squads deployed: turn 1 is the First player's (seat 0, BRK-OPEN-1).
        let ready = (0..2).all(|seat| s.deployed(seat));
        return ready.then(|| E::TurnStarted { seat: s.awaited().first().copied().unwrap_or(0), turn: 1 });
    }
    if s.pending_reveals.first().and_then(|id| s.piece(id)).is_some() {
        return None;
    }
    if let Some(a) = s.payment_due() {
        return Some(E::PaymentMade { action: a.id, resources: a.payment.clone() });
    }
    if let Some(a) = s.performing() {
        let target = a.targets.iter().find(|t| !a.applied.contains(t)).cloned().unwrap_or_default();
        let protected_by = expected_protection(s, a, &target);
        return Some(E::EffectApplied { action: a.id, target, protected_by });
    }
    if s.declaring.is_none() {
        // The fold's rules are the game's: from version 5 a dead card counts for nobody.
        if let Some((winner, reason)) = victory_as(s, s.owed.rules) {
            return Some(E::GameEnded { winner, reason });
        }
    }
    match s.phase {
        Phase::Setup => None,
        Phase::End => s.awaited().first().map(|&seat| E::TurnStarted { seat, turn: s.turn + 1 }),
        Phase::Reveal => s.reveal_due().is_empty().then(|| E::MainPhaseEntered { seat: s.active.unwrap_or(0) }),
        Phase::Main => {
            // Who performs is nobody's choice, but the agent plays it as the priority holder's turn.
            if s.priority.is_some() && s.passes >= 2 && s.declaring.is_none() {
                s.next_to_perform().map(|action| E::GameActionPerformed { action })
            } else {
                None
            }
        }
    }
}

/// Where a piece lies, in the players' words: "rui's r2c3 (B3)".
fn place(s: &BrkState, p: &Piece) -> String {
    match p.zone {
        Zone::Play => format!("{}'s {} ({})", s.name(p.owner), p.cell.name(), p.id),
        zone => format!("{}'s {} ({})", s.name(p.owner), zone.name(), p.id),
    }
}

/// A piece as `seat` may name it: its card's name when it may see it and the log holds its
/// identity, otherwise its place.
fn seen(s: &BrkState, seat: Seat, p: &Piece) -> String {
    match s.def_of(p) {
        Some(d) if can_see(Viewer::Player(seat), p) => format!("{} ({})", d.name, p.id),
        _ => format!("the face-down card on {}", place(s, p)),
    }
}

/// What a page attaches an option on `p` to: the card when `seat` may see it, its group on the
/// board ("B3 r2c3", as the board view labels it) otherwise.
fn concern(seat: Seat, p: &Piece) -> Concern {
    match &p.instance {
        Some(i) if can_see(Viewer::Player(seat), p) => Concern::Card(i.clone()),
        _ => Concern::Zone(format!("{} {}", p.id, p.cell.name())),
    }
}

/// The seat's own squad as hint values of a sealed parameter (the device supplies the real ones).
fn own_cards(s: &BrkState, seat: Seat) -> Vec<ParamValue> {
    s.squad(seat)
        .into_iter()
        .map(|i| {
            let label = s.def(&i).map_or_else(|| i.clone(), |d| d.name.clone());
            ParamValue::new(i, label)
        })
        .collect()
}

/// One deployment as a parameter value: `r1c2:open:p0-3`, `r1c2:hidden:p0-3` (face down but
/// named) or `r1c2:sealed:<64 hex digits>`.
fn deployment_value(d: &Deployment) -> String {
    match (&d.card, d.hidden) {
        (CardRef::Open(i), false) => format!("{}:open:{i}", d.cell.name()),
        (CardRef::Open(i), true) => format!("{}:hidden:{i}", d.cell.name()),
        (CardRef::Sealed(c), _) => format!("{}:sealed:{c}", d.cell.name()),
    }
}

fn parse_cell(text: &str) -> Option<Cell> {
    let (row, col) = text.strip_prefix('r')?.split_once('c')?;
    Some(Cell { row: row.parse().ok()?, col: col.parse().ok()? })
}

fn parse_deployment(text: &str) -> Option<Deployment> {
    let mut parts = text.splitn(3, ':');
    let cell = parse_cell(parts.next()?)?;
    let (how, what) = (parts.next()?, parts.next()?);
    let (card, hidden) = match how {
        "open" => (CardRef::Open(what.to_string()), false),
        "hidden" => (CardRef::Open(what.to_string()), true),
        "sealed" => (CardRef::Sealed(Commitment::from_hex(what).ok()?), true),
        _ => return None,
    };
    Some(Deployment { cell, card, hidden })
}

/// Every cell of a seat's 3×5 side, by name, row by row: where a deployment may put a card.
fn all_cells() -> Vec<String> {
    (1..=Cell::ROWS).flat_map(|row| (1..=Cell::COLS).map(move |col| Cell { row, col }.name())).collect()
}

/// "Deploy your squad": one value per card, each a cell and the card, face up, or hidden with its
/// identity sealed on the seat's device.
fn deploy_option(s: &BrkState, seat: Seat) -> GameOption<E> {
    let count = s.squad(seat).len();
    GameOption {
        seat,
        label: format!("Deploy your squad ({count} cards)"),
        concerns: vec![Concern::Zone("battlefield".into())],
        pick: Pick::Param {
            param: Param {
                name: "cards",
                label: "each card's cell, face up (open) or hidden (sealed on your device)".into(),
                kind: ParamKind::Secret,
                count,
                values: own_cards(s, seat),
                secret: Some(SecretForm::SealedPlacement { places: all_cells() }),
            },
            template: E::SquadDeployed { seat, cards: vec![] },
            fill: |e, v| match e {
                E::SquadDeployed { seat, .. } => Some(E::SquadDeployed {
                    seat: *seat,
                    cards: v.iter().map(|x| parse_deployment(x)).collect::<Option<_>>()?,
                }),
                _ => None,
            },
            read: |e| match e {
                E::SquadDeployed { cards, .. } => Some(cards.iter().map(deployment_value).collect()),
                _ => None,
            },
        },
    }
}

/// Turning the controller's hidden `p` face up for `reason`. A sealed identity is opened with the
/// instance and salt the seat's device kept (a parameter); an identity the log holds needs none.
fn reveal_option(s: &BrkState, p: &Piece, reason: RevealReason) -> GameOption<E> {
    let seat = p.owner;
    let why = match reason {
        RevealReason::RevealSubphase => "",
        RevealReason::DeclaredAction => " to act",
        RevealReason::Targeted => " (it is targeted)",
        RevealReason::ControllerChoice => " by choice",
    };
    let label = format!("Reveal {}{why}", seen(s, seat, p));
    let concerns = vec![concern(seat, p)];
    let template = E::CardRevealed { seat, piece: p.id.clone(), reason, proof: None };
    match (&p.instance, p.sealed) {
        (None, Some(commitment)) => GameOption {
            seat,
            label,
            concerns,
            pick: Pick::Param {
                param: Param {
                    name: "proof",
                    label: "the card and the salt it was sealed with (kept on your device)".into(),
                    kind: ParamKind::Secret,
                    count: 2,
                    values: own_cards(s, seat),
                    secret: Some(SecretForm::CardProof { commitment }),
                },
                template,
                fill: |e, v| match (e, v) {
                    (E::CardRevealed { seat, piece, reason, .. }, [instance, salt]) => Some(E::CardRevealed {
                        seat: *seat,
                        piece: piece.clone(),
                        reason: *reason,
                        proof: Some(RevealProof { instance: instance.clone(), salt: Commitment::from_hex(salt).ok()? }),
                    }),
                    _ => None,
                },
                read: |e| match e {
                    E::CardRevealed { proof: Some(p), .. } => Some(vec![p.instance.clone(), p.salt.to_string()]),
                    _ => None,
                },
            },
        },
        _ => GameOption::event(seat, label, concerns, template),
    }
}

/// The priority holder's choices in the main phase: a card revealed to act (`declaring`) must
/// act next; else reveals, declarations, blocks, interruptions, the escape hatch that hides a
/// card, passing and ending the turn.
fn main(s: &BrkState, seat: Seat, declaring: Option<&str>, o: &mut Vec<GameOption<E>>) {
    let acting = |p: &&Piece| declaring.is_none_or(|d| d == p.id);
    for p in s.pieces.iter().filter(|p| p.owner == seat).filter(acting) {
        if p.hidden && p.zone == Zone::Play {
            if declaring.is_none() {
                o.push(reveal_option(s, p, RevealReason::DeclaredAction));
                o.push(reveal_option(s, p, RevealReason::ControllerChoice));
            }
            continue;
        }
        abilities(s, seat, p, o);
    }
    if declaring.is_some() {
        return;
    }
    for p in s.in_play(seat).filter(|p| !p.hidden && p.instance.is_some()) {
        o.push(GameOption::event(
            seat,
            format!("An effect turns {} face down", seen(s, seat, p)),
            vec![concern(seat, p)],
            E::CardHidden { piece: p.id.clone(), cause: HIDE_CAUSE.into() },
        ));
    }
    if s.stack.is_empty() && s.active == Some(seat) {
        o.push(GameOption::event(seat, "End your turn", vec![], E::TurnEnded { seat }));
    }
    o.push(GameOption::event(seat, "Pass priority", vec![], E::PriorityPassed { seat }));
}

/// What the face-up card `p` can do with its abilities ([`actions_of`]), labelled: declare on
/// each target, block or interrupt each of the opponent's actions on the stack.
fn abilities(s: &BrkState, seat: Seat, p: &Piece, o: &mut Vec<GameOption<E>>) {
    let Some(def) = s.def_of(p) else { return };
    let name = seen(s, seat, p);
    for event in actions_of(s, seat, p) {
        let (label, concerns) = match &event {
            E::GameActionBlocked { action, blocker_target, .. } => {
                let Some(src) = s.piece(blocker_target) else { continue };
                (
                    format!("Block action #{action} of {} with {name}", seen(s, seat, src)),
                    vec![concern(seat, p), concern(seat, src)],
                )
            }
            E::GameActionInterrupted { action, .. } => {
                let Some(a) = s.action(*action) else { continue };
                let Some(ab) = def.abilities.iter().find(|ab| ab.kind == AbilityKind::Interrupt) else { continue };
                let src = s.piece(&a.source);
                let of = src.map_or_else(|| a.source.clone(), |x| seen(s, seat, x));
                let mut concerns = vec![concern(seat, p)];
                concerns.extend(src.map(|x| concern(seat, x)));
                (format!("Interrupt action #{action} of {of} with {name}'s {}", ab.name), concerns)
            }
            E::GameActionDeclared { ability, targets, .. } => {
                let (Some(ab), Some(t)) = (def.ability(*ability), targets.first().and_then(|t| s.piece(t))) else {
                    continue;
                };
                let on = if t.id == p.id { "itself".to_string() } else { seen(s, seat, t) };
                (format!("{name}: {} ({}) on {on}", ab.name, ab.kind.name()), vec![concern(seat, p), concern(seat, t)])
            }
            _ => continue,
        };
        o.push(GameOption::event(seat, label, concerns, event));
    }
}
