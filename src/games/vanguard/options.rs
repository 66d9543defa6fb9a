//! What a seat may record now in Cardfight!! Vanguard ([`crate::game::options`]), and the steps
//! the rules fully determine ([`automatic`]), which kifu records itself.
//!
//! Every option is built from the seat's own view (its hand, its deck list, the field) and kept
//! only when `validate` accepts it. A seat's options are offered while the game awaits it
//! ([`crate::game::Game::awaited`]): the setup to both seats, a turn to its player, an attack to
//! both players until it resolves, a damage check to the defender, a revealed trigger to the seat
//! that checked it. The table is physical (the client's deck order is unknown to the log), so a
//! card off the top of a deck (a draw, a drive or damage check, a draw trigger, the opening hand,
//! a redraw, a soul charge) is one option with a card parameter listing the cards of the seat's
//! own deck: the card it turned over is one of those.
//!
//! Version 1's games are the fan client's (`kifu game import --from vgc-log` records them), so
//! version 1 also offers the client's manual operations ([`client_options`]). Table talk (a chat
//! line, in free words) and spectators coming and going are no seat's option; neither are the
//! escape hatches that record what card text did in free words (superior rides and calls,
//! activated effects, moved cards, modifiers, the common notes): a judge or the table records
//! them as events.

use super::catalog::TriggerType;
use super::config::{GradeAssistRemoval, Limit, SimultaneousLoss};
use super::events::{Circle, ClientOp, Phase, Place, PowerEdit, ShuffleReason, VanguardEvent as E};
use super::rules_version::Rules;
use super::state::{CheckState, VanguardState};
use super::Vanguard;
use crate::game::options::{legal, Concern, GameOption, Param, ParamKind, ParamValue, Pick};
use crate::game::{opponent, Game, Seat};

type Opt = GameOption<E>;
type Fill = fn(&E, &[String]) -> Option<E>;
type Read = fn(&E) -> Option<Vec<String>>;

/// The phases a turn may move to, in order (VG-TURN-1).
const LATER: [Phase; 6] = [Phase::GradeAssist, Phase::Ride, Phase::Stride, Phase::Main, Phase::Battle, Phase::End];

/// The actions `seat` may record now in the rules' own terms, each accepted by rules version `V`.
pub fn options<const V: u32>(s: &VanguardState, seat: Seat) -> Vec<Opt> {
    if s.result.is_some() || !Vanguard::awaited(s).contains(&seat) {
        return Vec::new();
    }
    let mut o = Offer { s, seat, out: Vec::new() };
    if s.phase == Phase::Setup {
        o.setup();
    } else if let Some(ch) = s.check.as_ref().filter(|c| c.open()) {
        o.trigger(ch);
    } else if s.attack.is_some() {
        o.attack();
    } else {
        o.turn();
    }
    if s.phase != Phase::Setup {
        o.costs();
    }
    o.shuffle();
    legal::<super::VanguardRules<V>>(s, o.out)
}

/// The next event the rules fully determine: the end of the game once the board shows a loss
/// (VG-WIN), the vanguards flipped once both players redrew, the first turn, the draw phase after
/// the stand phase, the phases with nothing to choose (no grade assist, ride or stride possible),
/// the end of a resolved battle, and the turn handed over after the end phase; from version 5
/// first the steps a call, stride or ride made due ([`VanguardState::owed_steps`]).
pub fn automatic(s: &VanguardState, rules: Rules) -> Option<E> {
    if s.result.is_some() {
        return None;
    }
    if let Some(end) = game_end(s) {
        return Some(end);
    }
    // From version 5 the steps a call, stride or ride made due come first.
    if rules.owed_steps {
        if let Some(step) = s.owed_steps().into_iter().next() {
            return Some(step);
        }
    }
    if s.check.as_ref().is_some_and(|c| c.open()) {
        return None;
    }
    if s.phase == Phase::Setup {
        return setup_step(s);
    }
    let seat = s.active?;
    let p = s.players.get(seat)?;
    let next = |phase| Some(E::PhaseEntered { seat, phase });
    match s.phase {
        // From version 4 the stand and the end-of-turn clean-up are steps of their own.
        Phase::Stand if rules.transition_steps && !p.to_stand().is_empty() => {
            Some(E::UnitsStood { seat, cards: p.to_stand() })
        }
        Phase::End if rules.transition_steps && s.attack.is_none() && !s.cleanup_due(seat).is_empty() => {
            let c = s.cleanup_due(seat);
            Some(E::TurnCleanedUp { seat, g_unit: c.g_unit, flipped: c.flipped, expired: c.expired })
        }
        Phase::Stand => next(Phase::Draw),
        Phase::Draw | Phase::GradeAssist if p.turn.drew && !grade_assist_possible(s, seat) => next(Phase::Ride),
        Phase::Ride if !ride_possible(s, seat) && !forerunner_possible(s, seat) => next(Phase::Stride),
        Phase::Stride if !stride_possible(s, seat) => next(Phase::Main),
        Phase::Battle => match &s.attack {
            // From version 4 the hit rear-guard and the guardians retire in steps of their own.
            Some(a) if a.hit.is_some() && a.damage_left == 0 && rules.transition_steps => Some(battle_end_step(s)),
            Some(a) if a.hit.is_some() && a.damage_left == 0 => Some(E::BattleEnded {}),
            _ => None,
        },
        Phase::End if s.attack.is_none() => Some(E::TurnStarted { turn: s.turn + 1, seat: opponent(seat) }),
        _ => None,
    }
}

/// Version 4's next step of a resolved battle: the hit rear-guard retires, then the guardians,
/// then the battle ends.
fn battle_end_step(s: &VanguardState) -> E {
    if let Some((seat, card)) = s.hit_unit_due() {
        return E::HitUnitRetired { seat, card };
    }
    match s.guardians_due() {
        Some((seat, cards)) => E::GuardiansRetired { seat, cards },
        None => E::BattleEnded {},
    }
}

/// The loss the state shows (VG-WIN-2, VG-WIN-3), under the `simultaneous_loss` policy when both lose.
fn game_end(s: &VanguardState) -> Option<E> {
    let losses = s.losses();
    let (seat, reason) = losses.first().copied()?;
    let loser = if losses.len() > 1 {
        match s.policies.simultaneous_loss {
            SimultaneousLoss::Draw => None,
            SimultaneousLoss::ActivePlayerLoses => s.active,
        }
    } else {
        Some(seat)
    };
    let reason = losses.iter().find(|(l, _)| Some(*l) == loser).map_or(reason, |(_, r)| *r);
    Some(E::GameEnded { loser, reason })
}

/// The setup's determined steps: the flip once both players redrew (no one is left to keep a
/// hand), and the first player's first turn once the vanguards are face up.
fn setup_step(s: &VanguardState) -> Option<E> {
    if s.revealed {
        return Some(E::TurnStarted { turn: s.turn + 1, seat: s.first? });
    }
    let all_redrew = s.players.iter().all(|p| p.vanguard.is_some() && p.hand_drawn && p.redrawn);
    (all_redrew && s.first.is_some()).then_some(E::VanguardsRevealed {})
}

fn grade(s: &VanguardState, card: &str) -> u8 {
    s.def(card).map_or(0, |d| d.grade)
}

fn is_g_unit(s: &VanguardState, card: &str) -> bool {
    s.def(card).is_some_and(|d| d.is_g_unit())
}

/// Whether a grade assist could still be made this turn (VG-GA-1, VG-OPEN-5): said generously,
/// so a phase is never skipped that held one.
fn grade_assist_possible(s: &VanguardState, seat: Seat) -> bool {
    let Some(p) = s.players.get(seat) else { return false };
    let vg = s.vanguard_grade(seat).unwrap_or(0);
    let used = match s.policies.grade_assist_limit {
        Limit::OncePerTurn => p.turn.grade_assists,
        Limit::OncePerGame => p.grade_assists_game,
        Limit::Unlimited => 0,
    };
    // Two of the four cards removed come from the hand, which holds the card taken by then.
    let hand_ok = s.policies.grade_assist_removal == GradeAssistRemoval::TwoTotal || !p.hand.is_empty();
    vg < 3
        && used == 0
        && p.g_zone.len() >= 2
        && hand_ok
        && !p.hand.iter().any(|c| grade(s, c) == vg + 1 && !is_g_unit(s, c))
}

/// Whether a normal ride could still be made this turn (VG-RIDE-1..3, VG-RIDE-8).
fn ride_possible(s: &VanguardState, seat: Seat) -> bool {
    let Some(p) = s.players.get(seat) else { return false };
    let vg = s.vanguard_grade(seat).unwrap_or(0);
    !p.turn.rode
        && p.g_unit.is_none()
        && p.hand.iter().any(|c| !is_g_unit(s, c) && (grade(s, c) == vg || grade(s, c) == vg + 1))
}

/// Whether the unit just ridden upon may be called by its Forerunner (VG-KW-1).
fn forerunner_possible(s: &VanguardState, seat: Seat) -> bool {
    let Some((who, card)) = &s.ridden_upon else { return false };
    let clan = s.players.get(seat).and_then(|p| p.vanguard.as_ref()).and_then(|u| s.def(&u.card)).map(|d| &d.clan);
    *who == seat && s.def(card).is_some_and(|d| d.has("forerunner") && Some(&d.clan) == clan)
}

/// Whether a stride could be made now (VG-STRIDE-1..3, VG-OPEN-6).
fn stride_possible(s: &VanguardState, seat: Seat) -> bool {
    let Some(p) = s.players.get(seat) else { return false };
    let limit_ok = s.policies.stride_limit == Limit::Unlimited || p.turn.strides == 0;
    let g_ok = p.g_zone.iter().any(|(c, up)| is_g_unit(s, c) && (!up || s.policies.stride_face_up));
    let cost: u32 = p.hand.iter().map(|c| u32::from(grade(s, c))).sum();
    p.g_unit.is_none()
        && limit_ok
        && g_ok
        && cost >= 3
        && p.vanguard.is_some()
        && s.vanguard_grade(seat).unwrap_or(0) >= 3
        && s.vanguard_grade(opponent(seat)).unwrap_or(0) >= 3
}

/// A card's name, for labels (the seat's own cards and face-up units only are named).
fn name(s: &VanguardState, card: &str) -> String {
    s.def(card).map_or_else(|| card.to_string(), |d| d.name.clone())
}

fn card(c: &str) -> Concern {
    Concern::Card(c.to_string())
}

fn zone(z: &str) -> Concern {
    Concern::Zone(z.to_string())
}

fn one(values: &[String]) -> Option<String> {
    match values {
        [v] => Some(v.clone()),
        _ => None,
    }
}

/// The cards of `seat`'s deck: what a card off its top may be.
fn deck(s: &VanguardState, seat: Seat) -> Vec<String> {
    s.players.get(seat).map(|p| p.deck.iter().cloned().collect()).unwrap_or_default()
}

/// A card parameter: `count` of `cards`, each labelled with its name.
fn cards_param(s: &VanguardState, name_: &'static str, label: String, count: usize, cards: &[String]) -> Param {
    let values = cards.iter().map(|c| ParamValue::new(c.clone(), name(s, c))).collect();
    Param { name: name_, label, kind: ParamKind::Card, count, values, secret: None }
}

/// The options of one seat, as they are built.
struct Offer<'a> {
    s: &'a VanguardState,
    seat: Seat,
    out: Vec<Opt>,
}

impl Offer<'_> {
    fn event(&mut self, label: String, concerns: Vec<Concern>, e: E) {
        self.out.push(GameOption::event(self.seat, label, concerns, e));
    }

    /// An option with a parameter, offered when the event it records with the parameter's first
    /// values validates (every value of a deck is as good as another; other parameters list
    /// their best values first).
    fn param(&mut self, label: String, concerns: Vec<Concern>, param: Param, base: E, fill: Fill, read: Read) {
        let first: Vec<String> = param.values.iter().take(param.count).map(|v| v.value.clone()).collect();
        if first.len() < param.count {
            return;
        }
        let Some(template) = fill(&base, &first) else { return };
        self.offer(label, concerns, param, template, fill, read);
    }

    /// Offers the option whose `template` (filled with the parameter's first values) validates.
    fn offer(&mut self, label: String, concerns: Vec<Concern>, param: Param, template: E, fill: Fill, read: Read) {
        if Vanguard::validate(self.s, &template).is_empty() {
            self.out.push(GameOption {
                seat: self.seat,
                label,
                concerns,
                pick: Pick::Param { param, template, fill, read },
            });
        }
    }

    /// A client operation on one card, whose values are each of `cards` it validates with.
    fn each(&mut self, label: String, concerns: Vec<Concern>, cards: Vec<String>, base: E) {
        let s = self.s;
        let ok: Vec<String> = cards
            .into_iter()
            .filter(|c| with_card(&base, std::slice::from_ref(c)).is_some_and(|e| Vanguard::validate(s, &e).is_empty()))
            .collect();
        if !ok.is_empty() {
            let param = cards_param(s, "card", "the card".into(), 1, &ok);
            self.param(label, concerns, param, base, with_card, op_card);
        }
    }

    /// "Which card came off your deck": one card of the seat's deck. The option concerns the
    /// deck, after `concerns`.
    fn top_card(&mut self, label: String, mut concerns: Vec<Concern>, base: E, fill: Fill, read: Read) {
        let cards = deck(self.s, self.seat);
        let param = cards_param(self.s, "card", "the card you turned over".into(), 1, &cards);
        concerns.push(zone("deck"));
        self.param(label, concerns, param, base, fill, read);
    }

    fn shuffle(&mut self) {
        let values = REASONS.iter().map(|(_, v)| ParamValue::new(v.to_string(), v.replace('-', " "))).collect();
        let param =
            Param { name: "reason", label: "why".into(), kind: ParamKind::Choice, count: 1, values, secret: None };
        let base = E::DeckShuffled { seat: self.seat, reason: ShuffleReason::Setup };
        self.param(
            "Shuffle your deck".into(),
            vec![zone("deck")],
            param,
            base,
            |e, v| {
                let (E::DeckShuffled { seat, .. }, Some(v)) = (e, one(v)) else { return None };
                let reason = REASONS.iter().find(|(_, n)| *n == v)?.0;
                Some(E::DeckShuffled { seat: *seat, reason })
            },
            |e| match e {
                E::DeckShuffled { reason, .. } => {
                    REASONS.iter().find(|(r, _)| r == reason).map(|(_, n)| vec![n.to_string()])
                }
                _ => None,
            },
        );
    }
}

/// Why a deck was shuffled, as a shuffle option's choices.
const REASONS: [(ShuffleReason, &str); 5] = [
    (ShuffleReason::Setup, "setup"),
    (ShuffleReason::Redraw, "redraw"),
    (ShuffleReason::GradeAssist, "grade-assist"),
    (ShuffleReason::Search, "search"),
    (ShuffleReason::Effect, "effect"),
];

/// The setup (VG-SETUP): the starting vanguard, the first player, the opening hand, a redraw, the flip.
impl Offer<'_> {
    fn setup(&mut self) {
        let (s, seat) = (self.s, self.seat);
        let Some(p) = s.players.get(seat) else { return };
        if p.vanguard.is_none() {
            let zeros: Vec<String> =
                deck(s, seat).into_iter().filter(|c| grade(s, c) == 0 && !is_g_unit(s, c)).collect();
            let param = cards_param(s, "card", "a grade-0 unit of your deck".into(), 1, &zeros);
            let base = E::StartingVanguardSet { seat, card: String::new() };
            self.param(
                "Set your starting vanguard face down".into(),
                vec![zone("deck")],
                param,
                base,
                |e, v| {
                    let E::StartingVanguardSet { seat, .. } = e else { return None };
                    Some(E::StartingVanguardSet { seat: *seat, card: one(v)? })
                },
                |e| match e {
                    E::StartingVanguardSet { card, .. } => Some(vec![card.clone()]),
                    _ => None,
                },
            );
        }
        if seat == 0 && s.first.is_none() {
            self.first_player();
        }
        if p.vanguard.is_some() && !p.hand_drawn {
            let cards = deck(s, seat);
            let param = cards_param(s, "cards", "the 5 cards you drew".into(), 5, &cards);
            let base = E::OpeningHandDrawn { seat, cards: vec![] };
            self.param(
                "Draw your opening hand (5 cards)".into(),
                vec![zone("deck")],
                param,
                base,
                |e, v| {
                    let E::OpeningHandDrawn { seat, .. } = e else { return None };
                    Some(E::OpeningHandDrawn { seat: *seat, cards: v.to_vec() })
                },
                |e| match e {
                    E::OpeningHandDrawn { cards, .. } => Some(cards.clone()),
                    _ => None,
                },
            );
        }
        if p.hand_drawn && !p.redrawn && !s.revealed {
            self.redraws();
            self.event("Keep your hand: flip the vanguards face up".into(), vec![zone("vc")], E::VanguardsRevealed {});
        }
    }

    /// The first player (VG-SETUP-2), as the table's coin fell: either seat may record it, so the
    /// first seat's page offers it, once.
    fn first_player(&mut self) {
        let s = self.s;
        let values = (0..2u8).map(|f| ParamValue::new(f.to_string(), s.name(f))).collect();
        let param = Param {
            name: "first",
            label: "who goes first".into(),
            kind: ParamKind::Choice,
            count: 1,
            values,
            secret: None,
        };
        self.param(
            "Record who goes first".into(),
            vec![],
            param,
            E::FirstPlayerDetermined { first: 0 },
            |_, v| Some(E::FirstPlayerDetermined { first: one(v)?.parse().ok()? }),
            |e| match e {
                E::FirstPlayerDetermined { first } => Some(vec![first.to_string()]),
                _ => None,
            },
        );
    }

    /// A redraw (VG-SETUP-4): one option per set of hand cards returned, the cards drawn instead
    /// as the parameter (the returned cards are shuffled back in, so they may come again).
    fn redraws(&mut self) {
        let (s, seat) = (self.s, self.seat);
        let Some(p) = s.players.get(seat) else { return };
        let hand = &p.hand;
        for mask in 1..(1usize << hand.len().min(8)) {
            let returned: Vec<String> =
                hand.iter().enumerate().filter(|(i, _)| mask & (1 << i) != 0).map(|(_, c)| c.clone()).collect();
            let mut pool = deck(s, seat);
            pool.extend(returned.iter().cloned());
            let names: Vec<String> = returned.iter().map(|c| name(s, c)).collect();
            let n = returned.len();
            let param = cards_param(s, "drawn", format!("the {n} card(s) you drew"), n, &pool);
            let label = format!("Redraw: return {} and draw {n}", names.join(", "));
            let concerns = returned.iter().map(|c| card(c)).collect();
            let base = E::Redrawn { seat, returned, drawn: vec![] };
            self.param(
                label,
                concerns,
                param,
                base,
                |e, v| {
                    let E::Redrawn { seat, returned, .. } = e else { return None };
                    Some(E::Redrawn { seat: *seat, returned: returned.clone(), drawn: v.to_vec() })
                },
                |e| match e {
                    E::Redrawn { drawn, .. } => Some(drawn.clone()),
                    _ => None,
                },
            );
        }
    }
}

/// The turn player's actions between battles (VG-TURN): the draw, grade assist, rides, strides,
/// calls, moves, legion, attacks and moving on to a later phase.
impl Offer<'_> {
    fn turn(&mut self) {
        let (s, seat) = (self.s, self.seat);
        if s.active != Some(seat) {
            return;
        }
        match s.phase {
            Phase::Draw if s.players.get(seat).is_some_and(|p| !p.turn.drew) => self.top_card(
                "Draw a card".into(),
                vec![],
                E::CardDrawn { seat, card: String::new() },
                |e, v| match e {
                    E::CardDrawn { seat, .. } => Some(E::CardDrawn { seat: *seat, card: one(v)? }),
                    _ => None,
                },
                |e| match e {
                    E::CardDrawn { card, .. } => Some(vec![card.clone()]),
                    _ => None,
                },
            ),
            Phase::GradeAssist => self.grade_assists(),
            Phase::Ride => self.rides(),
            Phase::Stride => self.strides(),
            Phase::Main => self.main(),
            Phase::Battle => self.attacks(),
            _ => {}
        }
        for phase in LATER.into_iter().filter(|p| *p > s.phase) {
            let label = format!("Go to the {} phase", phase.name().replace('-', " "));
            self.event(label, vec![], E::PhaseEntered { seat, phase });
        }
    }

    /// A grade assist (VG-GA): one option per card found in the top five (or none), the cards
    /// removed from the game as the parameter.
    fn grade_assists(&mut self) {
        let (s, seat) = (self.s, self.seat);
        let Some(p) = s.players.get(seat) else { return };
        if !grade_assist_possible(s, seat) {
            return;
        }
        let vg = s.vanguard_grade(seat).unwrap_or(0);
        let found: Vec<String> =
            deck(s, seat).into_iter().filter(|c| grade(s, c) == vg + 1 && !is_g_unit(s, c)).collect();
        let g: Vec<String> = p.g_zone.iter().map(|(c, _)| c.clone()).collect();
        // Under two-and-two, the two G-zone cards are part of the option (one per pair, in the
        // G zone's order) and the parameter takes the two from the hand: a pick cannot mix them.
        let (count, g_pairs, removable): (usize, Vec<Vec<String>>, Vec<String>) = match s.policies.grade_assist_removal
        {
            GradeAssistRemoval::TwoAndTwo => {
                let pairs = (0..g.len()).flat_map(|i| (i + 1..g.len()).map(move |j| (i, j)));
                (2, pairs.map(|(i, j)| vec![g[i].clone(), g[j].clone()]).collect(), p.hand.clone())
            }
            GradeAssistRemoval::TwoTotal => (2, vec![vec![]], p.hand.iter().chain(&g).cloned().collect()),
        };
        for taken in found.iter().map(Some).chain([None]) {
            for from_g in &g_pairs {
                self.grade_assist(vg, taken, from_g, count, &removable);
            }
        }
    }

    /// One grade assist option: `taken` from the top five (or none), `from_g` removed from the G
    /// zone with it, and `count` cards of `removable` (and the card taken) as the parameter.
    fn grade_assist(&mut self, vg: u8, taken: Option<&String>, from_g: &[String], count: usize, removable: &[String]) {
        let (s, seat) = (self.s, self.seat);
        // The card taken is in the hand by the time the removal is made.
        let mut removable = removable.to_vec();
        removable.extend(taken.cloned());
        let mut label = match taken {
            Some(t) => format!("Grade assist: take {} from the top five", name(s, t)),
            None => format!("Grade assist: no grade {} in the top five", vg + 1),
        };
        if !from_g.is_empty() {
            let names: Vec<String> = from_g.iter().map(|c| name(s, c)).collect();
            label.push_str(&format!(", removing {} from the G zone", names.join(" and ")));
        }
        let what = format!("the {count} cards you remove from the game");
        let param = cards_param(s, "removed", what, count, &removable);
        if removable.len() < count {
            return;
        }
        // The first values, then the G-zone pair: the pair stays when a pick fills the values.
        let removed = [&removable[..count], from_g].concat();
        let template = E::GradeAssisted { seat, taken: taken.cloned(), removed };
        let mut concerns: Vec<Concern> = taken.map(|t| card(t)).into_iter().chain([zone("deck")]).collect();
        concerns.extend(from_g.iter().map(|c| card(c)));
        self.offer(
            label,
            concerns,
            param,
            template,
            |e, v| {
                // The template's removal is the values (two), then the G-zone pair if any.
                let E::GradeAssisted { seat, taken, removed } = e else { return None };
                let pair = removed.get(2..).unwrap_or_default();
                Some(E::GradeAssisted { seat: *seat, taken: taken.clone(), removed: [v, pair].concat() })
            },
            |e| match e {
                // The G-zone pair comes last (as the template holds it); the values come first.
                E::GradeAssisted { removed, .. } => Some(removed[..removed.len().min(2)].to_vec()),
                _ => None,
            },
        );
    }

    fn rides(&mut self) {
        let (s, seat) = (self.s, self.seat);
        let Some(p) = s.players.get(seat) else { return };
        if ride_possible(s, seat) {
            for c in &p.hand {
                let e = E::Rode { seat, card: c.clone() };
                self.event(format!("Ride {}", name(s, c)), vec![card(c), zone("vc")], e);
            }
        }
        if let Some((_, c)) = s.ridden_upon.as_ref().filter(|_| forerunner_possible(s, seat)) {
            for circle in Circle::REAR {
                let label = format!("Call {} to {} (Forerunner)", name(s, c), circle.name());
                self.event(
                    label,
                    vec![card(c), zone(circle.name())],
                    E::ForerunnerCalled { seat, card: c.clone(), circle },
                );
            }
        }
    }
}

/// Strides, the main phase and attacks.
impl Offer<'_> {
    /// A stride (VG-STRIDE): one option per G unit, heart and number of cards discarded, the
    /// discarded cards as the parameter (highest grades first).
    fn strides(&mut self) {
        let (s, seat) = (self.s, self.seat);
        let Some(p) = s.players.get(seat) else { return };
        if !stride_possible(s, seat) {
            return;
        }
        let mut hand = p.hand.clone();
        hand.sort_by_key(|c| std::cmp::Reverse(grade(s, c)));
        let hearts: Vec<&String> = [&p.vanguard, &p.mate].into_iter().flatten().map(|u| &u.card).collect();
        for (g, _) in &p.g_zone {
            for heart in &hearts {
                for n in 1..=3usize.min(hand.len()) {
                    let label = format!("Stride {} over {}, discarding {n}", name(s, g), name(s, heart));
                    let param = cards_param(s, "discarded", format!("the {n} card(s) you discard"), n, &hand);
                    let base = E::Strode { seat, g_unit: g.clone(), heart: (*heart).clone(), discarded: vec![] };
                    self.param(
                        label,
                        vec![card(g), card(heart)],
                        param,
                        base,
                        |e, v| {
                            let E::Strode { seat, g_unit, heart, .. } = e else { return None };
                            Some(E::Strode {
                                seat: *seat,
                                g_unit: g_unit.clone(),
                                heart: heart.clone(),
                                discarded: v.to_vec(),
                            })
                        },
                        |e| match e {
                            E::Strode { discarded, .. } => Some(discarded.clone()),
                            _ => None,
                        },
                    );
                }
            }
        }
    }

    /// Calls (VG-MAIN-1), moves within a column (VG-MAIN-3) and legion (VG-KW-8).
    fn main(&mut self) {
        let (s, seat) = (self.s, self.seat);
        let Some(p) = s.players.get(seat) else { return };
        let vg = s.vanguard_grade(seat).unwrap_or(0);
        for c in p.hand.iter().filter(|c| grade(s, c) <= vg && !is_g_unit(s, c)) {
            for circle in Circle::REAR {
                let label = match p.rear.get(&circle) {
                    Some(old) => format!("Call {} to {}, retiring {}", name(s, c), circle.name(), name(s, &old.card)),
                    None => format!("Call {} to {}", name(s, c), circle.name()),
                };
                self.event(label, vec![card(c), zone(circle.name())], E::Called { seat, card: c.clone(), circle });
            }
        }
        for (from, to) in [(Circle::FrontLeft, Circle::BackLeft), (Circle::FrontRight, Circle::BackRight)] {
            for (from, to) in [(from, to), (to, from)] {
                if let Some(u) = p.rear.get(&from) {
                    let label = format!("Move {} from {} to {}", name(s, &u.card), from.name(), to.name());
                    self.event(label, vec![card(&u.card), zone(to.name())], E::RearGuardMoved { seat, from, to });
                }
            }
        }
        self.legions();
    }

    /// Legion (VG-KW-8): one option per mate in the deck, the four units returned from the drop
    /// zone as the parameter.
    fn legions(&mut self) {
        let (s, seat) = (self.s, self.seat);
        let Some(p) = s.players.get(seat) else { return };
        let wanted = p.vanguard.as_ref().and_then(|u| s.def(&u.card)).and_then(|d| d.legion_mate.clone());
        let Some(wanted) = wanted.filter(|_| p.mate.is_none() && p.drop.len() >= 4) else { return };
        for mate in deck(s, seat).into_iter().filter(|c| s.def(c).is_some_and(|d| d.name == wanted)) {
            let param = cards_param(s, "returned", "the 4 units you return from the drop zone".into(), 4, &p.drop);
            let base = E::LegionPerformed { seat, returned: vec![], mate: mate.clone() };
            self.param(
                format!("Legion with {}", name(s, &mate)),
                vec![card(&mate)],
                param,
                base,
                |e, v| {
                    let E::LegionPerformed { seat, mate, .. } = e else { return None };
                    Some(E::LegionPerformed { seat: *seat, returned: v.to_vec(), mate: mate.clone() })
                },
                |e| match e {
                    E::LegionPerformed { returned, .. } => Some(returned.clone()),
                    _ => None,
                },
            );
        }
    }

    /// Attacks (VG-BATTLE-2): each standing front-row unit on each of the opponent's front-row units.
    fn attacks(&mut self) {
        let (s, seat) = (self.s, self.seat);
        let (Some(p), Some(o)) = (s.players.get(seat), s.players.get(opponent(seat))) else { return };
        for attacker in [Circle::FrontLeft, Circle::Vanguard, Circle::FrontRight] {
            let Some(u) = p.on(attacker) else { continue };
            for target in [Circle::FrontLeft, Circle::Vanguard, Circle::FrontRight] {
                let Some(t) = o.on(target) else { continue };
                let label = format!("Attack {} on {} with {}", name(s, &t.card), target.name(), name(s, &u.card));
                let e = E::AttackDeclared { seat, attacker, target };
                self.event(label, vec![card(&u.card), card(&t.card)], e);
            }
        }
    }
}

/// An attack in progress (VG-BATTLE): the boost, guards and intercepts, drive and damage checks,
/// the resolution; and a revealed trigger's resolution (VG-TRIG).
impl Offer<'_> {
    fn attack(&mut self) {
        let (s, seat) = (self.s, self.seat);
        let Some(a) = &s.attack else { return };
        let (Some(p), Some(atk), Some(powers)) = (s.players.get(seat), s.players.get(a.seat), s.battle_powers()) else {
            return;
        };
        if a.hit.is_none() {
            if seat == a.seat {
                if let Some(b) = a.attacker.behind().filter(|_| a.booster.is_none()) {
                    if let Some(u) = atk.rear.get(&b) {
                        self.event(
                            format!("Boost with {}", name(s, &u.card)),
                            vec![card(&u.card)],
                            E::Boosted { seat, booster: b },
                        );
                    }
                }
                self.drive_check();
            } else {
                self.guards(p);
            }
            let (verb, hit) = if powers.0 >= powers.1 { ("hits", true) } else { ("misses", false) };
            let label = format!("Resolve the attack: {} against {}, it {verb}", powers.0, powers.1);
            self.event(label, vec![], E::AttackResolved { hit });
        } else if seat != a.seat && a.damage_left > 0 {
            self.top_card(
                format!("Damage check ({} to go)", a.damage_left),
                vec![],
                E::DamageChecked { seat, card: String::new() },
                |e, v| match e {
                    E::DamageChecked { seat, .. } => Some(E::DamageChecked { seat: *seat, card: one(v)? }),
                    _ => None,
                },
                |e| match e {
                    E::DamageChecked { card, .. } => Some(vec![card.clone()]),
                    _ => None,
                },
            );
        }
    }

    fn drive_check(&mut self) {
        let seat = self.seat;
        self.top_card(
            "Drive check".into(),
            vec![],
            E::DriveChecked { seat, card: String::new() },
            |e, v| match e {
                E::DriveChecked { seat, .. } => Some(E::DriveChecked { seat: *seat, card: one(v)? }),
                _ => None,
            },
            |e| match e {
                E::DriveChecked { card, .. } => Some(vec![card.clone()]),
                _ => None,
            },
        );
    }

    /// The defender's guardians from the hand (VG-BATTLE-5) and interceptors (VG-BATTLE-6).
    fn guards(&mut self, p: &super::state::PlayerState) {
        let (s, seat) = (self.s, self.seat);
        for c in &p.hand {
            let shield = s.def(c).map_or(0, |d| d.shield);
            let label = format!("Guard with {} ({shield} shield)", name(s, c));
            self.event(label, vec![card(c), zone("guardian circle")], E::GuardianCalled { seat, card: c.clone() });
        }
        for circle in [Circle::FrontLeft, Circle::FrontRight] {
            if let Some(u) = p.rear.get(&circle) {
                let label = format!("Intercept with {}", name(s, &u.card));
                self.event(label, vec![card(&u.card), zone("guardian circle")], E::Intercepted { seat, circle });
            }
        }
    }

    /// A revealed trigger's resolution: its power (and critical) to one of the seat's units, and
    /// what it draws (the parameter), heals or stands.
    fn trigger(&mut self, ch: &CheckState) {
        let (s, seat) = (self.s, self.seat);
        let Some(p) = s.players.get(seat).filter(|_| ch.seat == seat) else { return };
        let units: Vec<String> = p.units().into_iter().map(|(_, u)| u.card.clone()).collect();
        let t = ch.trigger.unwrap_or(TriggerType::Draw);
        for to in &units {
            let power = format!("{} trigger: +5000 to {}", t.name(), name(s, to));
            let base = resolved(seat, to, Extra::Nothing);
            match t {
                TriggerType::Critical => {
                    for c in &units {
                        let e = resolved(seat, to, Extra::Critical(c));
                        self.event(format!("{power}, +1 critical to {}", name(s, c)), vec![card(to), card(c)], e);
                    }
                }
                TriggerType::Draw => self.top_card(
                    format!("{power}, draw a card"),
                    vec![card(to)],
                    base,
                    |e, v| match e {
                        E::TriggerResolved { seat, power_to, .. } => {
                            Some(resolved(*seat, power_to, Extra::Drew(&one(v)?)))
                        }
                        _ => None,
                    },
                    |e| match e {
                        E::TriggerResolved { drew: Some(c), .. } => Some(vec![c.clone()]),
                        _ => None,
                    },
                ),
                TriggerType::Heal => {
                    for (d, _) in &p.damage {
                        let e = resolved(seat, to, Extra::Healed(d));
                        self.event(format!("{power}, heal {}", name(s, d)), vec![card(to), card(d)], e);
                    }
                    self.event(format!("{power}, heal nothing"), vec![card(to)], base);
                }
                TriggerType::Stand => {
                    for u in p.rear.values().filter(|u| u.rested) {
                        let e = resolved(seat, to, Extra::Stood(&u.card));
                        self.event(format!("{power}, stand {}", name(s, &u.card)), vec![card(to), card(&u.card)], e);
                    }
                    self.event(format!("{power}, stand nothing"), vec![card(to)], base);
                }
            }
        }
    }

    /// Costs (VG-COST): counter blasts, soul blasts and soul charges of 1 to 5 cards, the cards
    /// as the parameter.
    fn costs(&mut self) {
        let (s, seat) = (self.s, self.seat);
        let Some(p) = s.players.get(seat) else { return };
        let face_up: Vec<String> = p.damage.iter().filter(|(_, up)| *up).map(|(c, _)| c.clone()).collect();
        let kinds = [
            ("Counter Blast", "damage", face_up, E::CounterBlasted { seat, cards: vec![] }),
            ("Soul Blast", "soul", p.soul.clone(), E::SoulBlasted { seat, cards: vec![] }),
            ("Soul Charge", "deck", deck(s, seat), E::SoulCharged { seat, cards: vec![] }),
        ];
        for (what, from, cards, base) in kinds {
            for n in 1..=cards.len().min(5) {
                let param = cards_param(s, "cards", format!("the {n} card(s)"), n, &cards);
                self.param(format!("{what} {n}"), vec![zone(from)], param, base.clone(), with_cost, cost_cards);
            }
        }
    }
}

/// A cost event with the cards picked.
fn with_cost(e: &E, v: &[String]) -> Option<E> {
    let cards = v.to_vec();
    match e {
        E::CounterBlasted { seat, .. } => Some(E::CounterBlasted { seat: *seat, cards }),
        E::SoulBlasted { seat, .. } => Some(E::SoulBlasted { seat: *seat, cards }),
        E::SoulCharged { seat, .. } => Some(E::SoulCharged { seat: *seat, cards }),
        _ => None,
    }
}

/// The cards a cost event names.
fn cost_cards(e: &E) -> Option<Vec<String>> {
    match e {
        E::CounterBlasted { cards, .. } | E::SoulBlasted { cards, .. } | E::SoulCharged { cards, .. } => {
            Some(cards.clone())
        }
        _ => None,
    }
}

/// What a trigger did besides its power.
enum Extra<'a> {
    Nothing,
    Critical(&'a str),
    Drew(&'a str),
    Healed(&'a str),
    Stood(&'a str),
}

/// A resolved trigger that gave `power_to` its power, and `extra`.
fn resolved(seat: Seat, power_to: &str, extra: Extra<'_>) -> E {
    let some = |c: &str| Some(c.to_string());
    let (mut critical_to, mut drew, mut healed, mut stood) = (None, None, None, None);
    match extra {
        Extra::Nothing => {}
        Extra::Critical(c) => critical_to = some(c),
        Extra::Drew(c) => drew = some(c),
        Extra::Healed(c) => healed = some(c),
        Extra::Stood(c) => stood = some(c),
    }
    E::TriggerResolved { seat, power_to: power_to.to_string(), critical_to, drew, healed, stood }
}

/// The fan client's manual operations (digest §4.2) `seat` may record now: what version 1's
/// games (the client's logs) record. The client holds no one to a turn, so they are offered
/// whoever the game awaits; each is kept when `validate` accepts it, and names the seat's own
/// cards only.
pub fn client_options(s: &VanguardState, seat: Seat) -> Vec<Opt> {
    if s.result.is_some() || s.players.get(seat).is_none() {
        return Vec::new();
    }
    let mut o = Offer { s, seat, out: Vec::new() };
    o.client_buttons();
    o.client_deck();
    o.client_units();
    o.client_moves();
    legal::<Vanguard>(s, o.out)
}

fn op(seat: Seat, op: ClientOp) -> E {
    E::Client { seat, op }
}

/// The one card a client operation names.
fn op_card(e: &E) -> Option<Vec<String>> {
    let E::Client { op, .. } = e else { return None };
    match op {
        ClientOp::Drew { card }
        | ClientOp::Checked { card }
        | ClientOp::ToTopOfDeck { card }
        | ClientOp::ToBottomOfDeck { card }
        | ClientOp::ToHand { card }
        | ClientOp::Milled { card }
        | ClientOp::SoulCharged { card }
        | ClientOp::BoundTop { card }
        | ClientOp::Moved { card, .. } => Some(vec![card.clone()]),
        ClientOp::Legion { mate } => Some(vec![mate.clone()]),
        _ => None,
    }
}

/// The client operation `e` with its card replaced by the one value picked.
fn with_card(e: &E, values: &[String]) -> Option<E> {
    let (E::Client { seat, op }, Some(c)) = (e, one(values)) else { return None };
    let op = match op {
        ClientOp::Drew { .. } => ClientOp::Drew { card: c },
        ClientOp::Checked { .. } => ClientOp::Checked { card: c },
        ClientOp::ToTopOfDeck { .. } => ClientOp::ToTopOfDeck { card: c },
        ClientOp::ToBottomOfDeck { .. } => ClientOp::ToBottomOfDeck { card: c },
        ClientOp::ToHand { .. } => ClientOp::ToHand { card: c },
        ClientOp::Milled { .. } => ClientOp::Milled { card: c },
        ClientOp::SoulCharged { .. } => ClientOp::SoulCharged { card: c },
        ClientOp::BoundTop { .. } => ClientOp::BoundTop { card: c },
        ClientOp::Moved { to, .. } => ClientOp::Moved { card: c, to: *to },
        ClientOp::Legion { .. } => ClientOp::Legion { mate: c },
        _ => return None,
    };
    Some(E::Client { seat: *seat, op })
}

/// The value a power edit picked.
fn with_value(e: &E, values: &[String]) -> Option<E> {
    let E::Client { seat, op: ClientOp::PowerEdited { card, mode, .. } } = e else { return None };
    let value = one(values)?.parse().ok()?;
    Some(E::Client { seat: *seat, op: ClientOp::PowerEdited { card: card.clone(), mode: *mode, value } })
}

fn edited_value(e: &E) -> Option<Vec<String>> {
    match e {
        E::Client { op: ClientOp::PowerEdited { value, .. }, .. } => Some(vec![value.to_string()]),
        _ => None,
    }
}

/// Every place a card may be moved to by hand.
const PLACES: [Place; 16] = [
    Place::Hand,
    Place::Drop,
    Place::Damage,
    Place::Soul,
    Place::GZone,
    Place::Bind,
    Place::Removed,
    Place::Guardian,
    Place::Deck,
    Place::DeckBottom,
    Place::Circle(Circle::Vanguard),
    Place::Circle(Circle::FrontLeft),
    Place::Circle(Circle::BackLeft),
    Place::Circle(Circle::BackCenter),
    Place::Circle(Circle::FrontRight),
    Place::Circle(Circle::BackRight),
];

/// The client's buttons and the operations on the seat's deck, its units and its cards.
impl Offer<'_> {
    fn client_buttons(&mut self) {
        let seat = self.seat;
        for phase in [Phase::Ride, Phase::Main, Phase::Battle, Phase::End] {
            let label = format!("Press the {} phase button (client)", phase.name());
            self.event(label, vec![], op(seat, ClientOp::PhaseButton { phase }));
        }
        self.event("Shuffle the deck (client)".into(), vec![zone("deck")], op(seat, ClientOp::Shuffled {}));
        self.event("Look through the deck (client)".into(), vec![zone("deck")], op(seat, ClientOp::DeckViewed {}));
    }

    /// The operations that take the top card of the deck (which one is the parameter).
    fn client_deck(&mut self) {
        let seat = self.seat;
        let ops = [
            ("Draw (client)", ClientOp::Drew { card: String::new() }),
            ("Check the top card (client)", ClientOp::Checked { card: String::new() }),
            ("Mill the top card (client)", ClientOp::Milled { card: String::new() }),
            ("Soul charge the top card (client)", ClientOp::SoulCharged { card: String::new() }),
            ("Bind the top card (client)", ClientOp::BoundTop { card: String::new() }),
        ];
        for (label, o) in ops {
            self.top_card(label.into(), vec![], op(seat, o), with_card, op_card);
        }
    }

    /// Rest and stand, flips, locks, deletes, power edits, rides, strides, legion and a trigger's power.
    fn client_units(&mut self) {
        let (s, seat) = (self.s, self.seat);
        let Some(p) = s.players.get(seat) else { return };
        for (circle, u) in p.units() {
            let c = u.card.clone();
            let n = name(s, &c);
            let (verb, rested) = if u.rested { ("Stand", false) } else { ("Rest", true) };
            self.event(
                format!("{verb} {n} (client)"),
                vec![card(&c)],
                op(seat, ClientOp::PositionChanged { card: c.clone(), rested }),
            );
            if circle == Circle::Vanguard {
                let (verb, deleted) = if u.deleted { ("Undelete", false) } else { ("Delete", true) };
                self.event(
                    format!("{verb} {n} (client)"),
                    vec![card(&c)],
                    op(seat, ClientOp::DeleteChanged { card: c.clone(), deleted }),
                );
            } else {
                let (verb, locked) = if u.locked { ("Unlock", false) } else { ("Lock", true) };
                self.event(
                    format!("{verb} {n} (client)"),
                    vec![card(&c)],
                    op(seat, ClientOp::LockChanged { card: c.clone(), locked }),
                );
            }
            self.power_edits(&c);
        }
        for (zone_name, cards, damage) in [("damage zone", &p.damage, true), ("G zone", &p.g_zone, false)] {
            for (c, up) in cards {
                let label = format!("Flip {} face {} (client)", name(s, c), if *up { "down" } else { "up" });
                let o = if damage {
                    ClientOp::DamageFlipped { card: c.clone(), face_up: !up }
                } else {
                    ClientOp::GZoneFlipped { card: c.clone(), face_up: !up }
                };
                self.event(label, vec![card(c), zone(zone_name)], op(seat, o));
            }
        }
        self.client_rides();
    }

    /// Adding to or setting a unit's power (VGC-OP-12), the value as the parameter.
    fn power_edits(&mut self, c: &str) {
        let (s, seat) = (self.s, self.seat);
        for (mode, verb, range) in
            [(PowerEdit::Add, "Add power to", -10..=20), (PowerEdit::Set, "Set the power of", 0..=40)]
        {
            let values = range.map(|k: i32| k * 1000).map(|v| ParamValue::new(v.to_string(), v.to_string())).collect();
            let param = Param {
                name: "value",
                label: "the power".into(),
                kind: ParamKind::Number,
                count: 1,
                values,
                secret: None,
            };
            let base = op(seat, ClientOp::PowerEdited { card: c.to_string(), mode, value: 0 });
            self.param(format!("{verb} {} (client)", name(s, c)), vec![card(c)], param, base, with_value, edited_value);
        }
    }

    fn client_rides(&mut self) {
        let (s, seat) = (self.s, self.seat);
        let Some(p) = s.players.get(seat) else { return };
        for c in &p.hand {
            self.event(
                format!("Ride {} (client)", name(s, c)),
                vec![card(c), zone("vc")],
                op(seat, ClientOp::Rode { card: c.clone() }),
            );
        }
        let hearts: Vec<&String> = [&p.vanguard, &p.mate].into_iter().flatten().map(|u| &u.card).collect();
        for (g, _) in &p.g_zone {
            for heart in &hearts {
                let e = op(seat, ClientOp::Strode { g_unit: g.clone(), heart: (*heart).clone() });
                self.event(
                    format!("Stride {} over {} (client)", name(s, g), name(s, heart)),
                    vec![card(g), card(heart)],
                    e,
                );
            }
        }
        let mates: Vec<String> = deck(s, seat).into_iter().chain(p.soul.iter().cloned()).collect();
        let base = op(seat, ClientOp::Legion { mate: String::new() });
        self.each("Legion (client)".into(), vec![zone("vc")], mates, base);
        if let Some(ch) = s.check.as_ref().filter(|c| c.seat == seat && c.trigger.is_some() && !c.power_done) {
            let units: Vec<String> = p.units().into_iter().map(|(_, u)| u.card.clone()).collect();
            let critical = ch.trigger == Some(TriggerType::Critical);
            for to in &units {
                let crits: Vec<Option<&String>> = if critical { units.iter().map(Some).collect() } else { vec![None] };
                for c in crits {
                    let label = match c {
                        Some(c) => format!("Trigger: power to {}, critical to {} (client)", name(s, to), name(s, c)),
                        None => format!("Trigger: power to {} (client)", name(s, to)),
                    };
                    let e = op(seat, ClientOp::TriggerApplied { power_to: to.clone(), critical_to: c.cloned() });
                    self.event(label, std::iter::once(to).chain(c).map(|u| card(u)).collect(), e);
                }
            }
        }
    }

    /// A card of the seat's moved by hand (VGC-OP-1, VGC-UI-4): one option per place, the card
    /// as the parameter (each of the seat's own cards that may go there).
    fn client_moves(&mut self) {
        let (s, seat) = (self.s, self.seat);
        let own: Vec<String> = s
            .cards
            .decks
            .get(usize::from(seat))
            .map(|d| {
                let main = (0..d.main.len()).map(|i| super::config::instance_id(seat, i));
                main.chain((0..d.g.len()).map(|i| super::config::g_instance_id(seat, i))).collect()
            })
            .unwrap_or_default();
        let not_in =
            |place: Place| -> Vec<String> { own.iter().filter(|c| !s.holds(seat, place, c)).cloned().collect() };
        let top = op(seat, ClientOp::ToTopOfDeck { card: String::new() });
        self.each("Put a card on top of the deck (client)".into(), vec![zone("deck")], not_in(Place::Deck), top);
        let bottom = op(seat, ClientOp::ToBottomOfDeck { card: String::new() });
        self.each(
            "Put a card at the bottom of the deck (client)".into(),
            vec![zone("deck")],
            not_in(Place::Deck),
            bottom,
        );
        let hand = op(seat, ClientOp::ToHand { card: String::new() });
        self.each("Put a card into the hand (client)".into(), vec![zone("hand")], not_in(Place::Hand), hand);
        for to in PLACES {
            let base = op(seat, ClientOp::Moved { card: String::new(), to });
            let label = format!("Move a card to the {} (client)", to.name());
            self.each(label, vec![zone(&to.name())], not_in(to), base);
        }
    }
}
