//! What a seat may record now in the Naruto CCG ([`crate::game::options`]): the setup, every
//! step of the attacker's turn, the blocker's counter missions and blocks, both players' jutsu,
//! labelled from the seat's own view, each kept only when `validate` accepts it.
//!
//! A choice among many values is one option with a parameter: the cards a physical draw brought
//! (the opening hand, step A's draw, a battle reward, each from the cards that may still be in
//! that deck), the cards paying a hand cost, the cards discarded at the hand check, the teams of
//! the organization (each ninja's team number), the teams sent to attack or block (their leaders,
//! and for a block the team it blocks), a jutsu's target, the lot as it fell. At a digital table
//! the dealer's seeded order decides a draw: the seat states the card its screen shows, and the
//! audit checks it against the seed once it is revealed.
//!
//! The dealer's seed (digital tables) is committed and revealed through a
//! [`ParamKind::Secret`] parameter, offered to the first seat's page so it is offered once, in the
//! shape of the game's rules version: version 1's own `SeedCommitted`/`SeedRevealed`/`CardRevealed`,
//! version 2's common events.
//!
//! Automatic steps ([`automatic`]): the first `TurnStarted` once both hands are kept and each
//! next one once the turn marker moved; step A's `StepAdvanced` when no card is drawn (the
//! starting player's first turn, an empty deck under `empty_deck_draw=skip`), its
//! `WinnerDetermined` under `empty_deck_draw=lose`, and its `CardDrawn` when the deck holds one
//! known card; the end of step K once every reward and fight is recorded; `TeamsReturned`;
//! step M's `WinnerDetermined` or `StepAdvanced`; step N's `StepAdvanced` when no discard is due;
//! `TurnMarkerAdvanced`. None is due while a chain is open: closing it is the players' call
//! (NAR-CHAIN-4, NAR-OPEN-16). From rules version 5, once a chain resolved, each of its missions
//! and jutsu goes to its player's chakra (`MissionMovedToChakra`, `JutsuMovedToChakra`,
//! NAR-MISSION-5, NAR-JUTSU-3) before any other step.

use super::catalog::{CardDef, CardType};
use super::config::{CounterMissionPolicy, MultiBlockPolicy, MultiElementPolicy, ShuffleMode, TurnMarkerPolicy};
use super::events::{
    BlockingTeam, CardRef, CoinSide, CommonEvent, DeployFrom, LinkKind, Lot, NarutoEvent as E, SentTeam, Step, Throw,
    WinReason,
};
use super::rules::{expected_reward, expected_winner, resolve_fight, reward_taken, validate};
use super::rules_version::Rules;
use super::state::{Held, NarutoState};
use super::NarutoRules;
use crate::game::commit::Commitment;
use crate::game::options::{legal, Concern, GameOption, Param, ParamKind, ParamValue, Pick, SecretForm};
use crate::game::{opponent, Game, Seat};

/// The key of the dealer's seed at a digital table (the agent's, and every recorded game's).
pub use super::config::SEED_KEY;

/// Rock-paper-scissors lots are offered decided in round 1 to this round (each round before the
/// last a tie): one option per length, as the parameter takes a fixed number of throws.
pub const MAX_LOT_ROUNDS: usize = 10;

type Fill = fn(&E, &[String]) -> Option<E>;
type Read = fn(&E) -> Option<Vec<String>>;

/// The actions `seat` may record now under rules version `V`.
pub fn options<const V: u32>(s: &NarutoState, seat: Seat) -> Vec<GameOption<E>> {
    let mut o = Vec::new();
    if seat > 1 {
        return o;
    }
    dealer_seed::<V>(s, seat, &mut o);
    sealed_reveals::<V>(s, seat, &mut o);
    let awaited = <NarutoRules<V> as Game>::awaited(s);
    if s.result.is_none() && awaited.contains(&seat) {
        if s.step == Step::Setup {
            setup(s, seat, &mut o);
        } else if automatic(s, NarutoRules::<V>::RULES).is_none() {
            turn(s, seat, NarutoRules::<V>::RULES, &mut o);
        }
    }
    legal::<NarutoRules<V>>(s, o)
}

/// The next event the rules fully determine under `rules`, recorded by kifu
/// itself (see the module doc).
pub fn automatic(s: &NarutoState, rules: Rules) -> Option<E> {
    if s.result.is_some() {
        return None;
    }
    if s.step == Step::Setup {
        let markers = match s.policies.turn_marker {
            TurnMarkerPolicy::PerPlayer => s.players.iter().all(|p| p.marker_set),
            TurnMarkerPolicy::Shared => s.shared_marker_set,
        };
        let kept = s.players.iter().all(|p| p.kept);
        return s.first.filter(|_| markers && kept).map(|attacker| E::TurnStarted { turn: 1, attacker });
    }
    let attacker = s.attacker?;
    if !s.chain.is_empty() {
        return None;
    }
    // From version 5 a resolved chain's missions and jutsu go to chakra first (NAR-MISSION-5,
    // NAR-JUTSU-3); earlier versions' fold put them there when they were played.
    if let Some(due) = s.chakra_due().next().filter(|_| rules.chakra_moves_recorded) {
        let (seat, card) = (due.seat, due.card.clone());
        return Some(match due.kind {
            LinkKind::Jutsu => E::JutsuMovedToChakra { seat, card },
            _ => E::MissionMovedToChakra { seat, card },
        });
    }
    let p = s.players.get(attacker)?;
    match s.step {
        Step::TurnEnded => Some(E::TurnStarted { turn: s.turn + 1, attacker: opponent(attacker) }),
        Step::Draw => draw_step(s, attacker),
        Step::Calculation => (pending_rewards(s).is_empty() && pending_fights(s).is_empty())
            .then_some(E::StepAdvanced { to: Step::Return }),
        Step::Return => Some(E::TeamsReturned {}),
        Step::Winner => Some(match expected_winner(s) {
            Some((winner, reason, _)) => E::WinnerDetermined { winner, reason },
            None => E::StepAdvanced { to: Step::HandCheck },
        }),
        Step::HandCheck => (p.hand.len() <= 6).then_some(E::StepAdvanced { to: Step::Marker }),
        Step::Marker => Some(match s.policies.turn_marker {
            TurnMarkerPolicy::PerPlayer => E::TurnMarkerAdvanced { seat: Some(attacker), value: p.marker + 1 },
            TurnMarkerPolicy::Shared => E::TurnMarkerAdvanced { seat: None, value: s.shared_marker + 1 },
        }),
        _ => None,
    }
}

/// Step A without a choice: no draw (the first turn, an empty deck), the loss of an empty deck
/// under `empty_deck_draw=lose`, or the draw of the one card the deck is known to hold.
fn draw_step(s: &NarutoState, attacker: Seat) -> Option<E> {
    use super::config::EmptyDeckDrawPolicy;
    let p = s.players.get(attacker)?;
    if s.is_first_turn() || (p.deck_count == 0 && s.policies.empty_deck_draw == EmptyDeckDrawPolicy::Skip) {
        return Some(E::StepAdvanced { to: Step::Mission });
    }
    if p.deck_count == 0 {
        return Some(E::WinnerDetermined { winner: opponent(attacker), reason: WinReason::DeckOut });
    }
    match (p.deck_count, p.deck.len(), p.deck.first()) {
        (1, 1, Some(card)) => Some(E::CardDrawn { seat: attacker, card: CardRef::Open(card.clone()) }),
        _ => None,
    }
}

/// The attacking teams still owed their battle reward (unblocked, NAR-REWARD-1).
fn pending_rewards(s: &NarutoState) -> Vec<&SentTeam> {
    s.battle
        .attacks
        .iter()
        .filter(|t| !s.battle.is_blocked(&t.leader) && !s.battle.rewarded.contains(&t.leader))
        .collect()
}

/// The blocks whose fight is not resolved yet, with the attacking team each blocks.
fn pending_fights(s: &NarutoState) -> Vec<(&SentTeam, &BlockingTeam)> {
    s.battle
        .blocks
        .iter()
        .filter(|b| !s.battle.fought.iter().any(|(a, bl)| *a == b.blocks && *bl == b.leader))
        .filter_map(|b| s.battle.attacks.iter().find(|a| a.leader == b.blocks).map(|a| (a, b)))
        .collect()
}

fn card_name(s: &NarutoState, card: &str) -> String {
    s.def(card).map_or_else(|| card.to_string(), |d| d.name.clone())
}

fn known_hand(s: &NarutoState, seat: Seat) -> Vec<String> {
    s.players.get(seat).map(|p| p.hand.iter().filter_map(Held::known).map(str::to_string).collect()).unwrap_or_default()
}

fn card_values(s: &NarutoState, cards: &[String]) -> Vec<ParamValue> {
    cards.iter().map(|c| ParamValue::new(c.clone(), card_name(s, c))).collect()
}

fn open_cards(values: &[String]) -> Vec<CardRef> {
    values.iter().cloned().map(CardRef::Open).collect()
}

fn read_open(cards: &[CardRef]) -> Option<Vec<String>> {
    cards.iter().map(|c| if let CardRef::Open(id) = c { Some(id.clone()) } else { None }).collect()
}

/// An option taking `count` values among `values` (an event option when it takes none), kept
/// when `sample` (the template filled with values that pass the rules' other checks) validates
/// clean but for `value_rules`, the rules the picked values decide.
#[allow(clippy::too_many_arguments)]
fn param_option(
    s: &NarutoState,
    seat: Seat,
    label: String,
    concerns: Vec<Concern>,
    param: Param,
    template: E,
    (fill, read): (Fill, Read),
    value_rules: &[&str],
) -> Option<GameOption<E>> {
    if param.count == 0 {
        let event = fill(&template, &[])?;
        return Some(GameOption::event(seat, label, concerns, event));
    }
    if param.values.len() < param.count {
        return None;
    }
    let first: Vec<String> = param.values.iter().take(param.count).map(|v| v.value.clone()).collect();
    let sample = fill(&template, &first)?;
    if validate(s, &sample).iter().any(|v| !value_rules.contains(&v.rule)) {
        return None;
    }
    Some(GameOption { seat, label, concerns, pick: Pick::Param { param, template, fill, read } })
}

fn card_param(name: &'static str, label: String, kind: ParamKind, count: usize, values: Vec<ParamValue>) -> Param {
    Param { name, label, kind, count, values, secret: None }
}

/// The cards that may still be in `owner`'s deck, as the values of a draw.
fn deck_values(s: &NarutoState, owner: Seat) -> Vec<ParamValue> {
    let deck: Vec<String> = s.players.get(owner).map(|p| p.deck.iter().cloned().collect()).unwrap_or_default();
    card_values(s, &deck)
}

/// How a draw is stated: the card the seat took, or (digital) the one its screen shows.
fn draw_note(s: &NarutoState) -> &'static str {
    match s.shuffles {
        ShuffleMode::Physical => "",
        ShuffleMode::Digital => " (as the digital table dealt it)",
    }
}

// ---- Setup (NAR-SETUP, NAR-MULL) ----

fn setup(s: &NarutoState, seat: Seat, o: &mut Vec<GameOption<E>>) {
    let Some(p) = s.players.get(seat) else { return };
    match s.policies.turn_marker {
        TurnMarkerPolicy::PerPlayer if !p.marker_set => o.push(GameOption::event(
            seat,
            "Set your turn marker to 0",
            vec![],
            E::TurnMarkerSet { seat: Some(seat), value: 0 },
        )),
        TurnMarkerPolicy::Shared if !s.shared_marker_set && seat == 0 => o.push(GameOption::event(
            seat,
            "Set the shared turn marker to 0",
            vec![],
            E::TurnMarkerSet { seat: None, value: 0 },
        )),
        _ => {}
    }
    shuffles(s, seat, o);
    if s.lot_winner.is_none() && seat == 0 {
        // Either player may record the lot; the first seat's page offers it, so it is offered once.
        lots(s, seat, o);
    }
    if s.lot_winner == Some(seat) && s.first.is_none() {
        o.push(GameOption::event(seat, "Go first", vec![], E::FirstPlayerChosen { chooser: seat, first: seat }));
        let other = opponent(seat);
        let label = format!("Let {} go first", s.name(other));
        o.push(GameOption::event(seat, label, vec![], E::FirstPlayerChosen { chooser: seat, first: other }));
    }
    if !p.hand_drawn && !p.kept {
        opening_hand(s, seat, p.mulligans, o);
    }
    if p.hand_drawn && !p.kept {
        o.push(GameOption::event(seat, "Keep your hand", vec![Concern::Zone("hand".into())], E::HandKept { seat }));
        let attempt = p.mulligans + 1;
        let label = format!("Take mulligan {attempt}: shuffle your hand back and draw {}", 6 - usize::from(attempt));
        o.push(GameOption::event(seat, label, vec![Concern::Zone("hand".into())], E::MulliganTaken { seat, attempt }));
    }
}

/// Each deck is shuffled by its owner, then by the opponent (NAR-SETUP-2, NAR-MULL-1); at a
/// digital table with the dealer's seed.
fn shuffles(s: &NarutoState, seat: Seat, o: &mut Vec<GameOption<E>>) {
    let seed = (s.shuffles == ShuffleMode::Digital).then(|| SEED_KEY.to_string());
    let other = opponent(seat);
    let (Some(mine), Some(theirs)) = (s.players.get(seat), s.players.get(other)) else { return };
    if !mine.shuffled_by_owner {
        let event = E::DeckShuffled { deck: seat, by: seat, seed: seed.clone() };
        o.push(GameOption::event(seat, "Shuffle your deck", vec![Concern::Zone("deck".into())], event));
    }
    if theirs.shuffled_by_owner && !theirs.shuffled_by_opponent {
        let event = E::DeckShuffled { deck: other, by: seat, seed };
        o.push(GameOption::event(seat, format!("Shuffle {}'s deck", s.name(other)), vec![], event));
    }
}

fn opening_hand(s: &NarutoState, seat: Seat, mulligans: u8, o: &mut Vec<GameOption<E>>) {
    let n = 6usize.saturating_sub(usize::from(mulligans));
    let param = card_param("cards", format!("the {n} cards you drew"), ParamKind::Card, n, deck_values(s, seat));
    let fill: Fill = |e, v| match e {
        E::OpeningHandDrawn { seat, .. } => Some(E::OpeningHandDrawn { seat: *seat, cards: open_cards(v) }),
        _ => None,
    };
    let read: Read = |e| match e {
        E::OpeningHandDrawn { cards, .. } => read_open(cards),
        _ => None,
    };
    let label = format!("Draw your opening hand ({n} cards){}", draw_note(s));
    let template = E::OpeningHandDrawn { seat, cards: vec![] };
    let concerns = vec![Concern::Zone("deck".into())];
    o.extend(param_option(s, seat, label, concerns, param, template, (fill, read), &[]));
}

fn throw_name(t: Throw) -> &'static str {
    match t {
        Throw::Rock => "rock",
        Throw::Paper => "paper",
        Throw::Scissors => "scissors",
    }
}

fn throw_of(name: &str) -> Option<Throw> {
    [Throw::Rock, Throw::Paper, Throw::Scissors].into_iter().find(|t| throw_name(*t) == name)
}

fn side_name(c: CoinSide) -> &'static str {
    match c {
        CoinSide::Heads => "heads",
        CoinSide::Tails => "tails",
    }
}

/// The winner a lot names: the last throw's, or the caller's when the call was right.
fn lot_winner(lot: &Lot) -> Seat {
    match lot {
        Lot::RockPaperScissors { rounds } => match rounds.last() {
            Some([a, b]) if b.beats(*a) => 1,
            _ => 0,
        },
        Lot::CoinToss { caller, call, result } => {
            if call == result {
                *caller
            } else {
                opponent(*caller)
            }
        }
    }
}

/// The lot as it fell (NAR-SETUP-3): a coin toss (who called what, what it showed), or
/// rock-paper-scissors decided in round `k` (the throws of every round, ties before the last).
fn lots(s: &NarutoState, seat: Seat, o: &mut Vec<GameOption<E>>) {
    let mut tosses = Vec::new();
    for caller in [0u8, 1] {
        for call in [CoinSide::Heads, CoinSide::Tails] {
            for result in [CoinSide::Heads, CoinSide::Tails] {
                tosses.push(ParamValue {
                    value: format!("{caller}:{}:{}", side_name(call), side_name(result)),
                    label: format!(
                        "{} called {}, the coin showed {}",
                        s.name(caller),
                        side_name(call),
                        side_name(result)
                    ),
                    group: None,
                    also: None,
                });
            }
        }
    }
    let param = card_param("toss", "how the coin fell".into(), ParamKind::Choice, 1, tosses);
    let template = E::FirstPlayerLotDrawn {
        lot: Lot::CoinToss { caller: 0, call: CoinSide::Heads, result: CoinSide::Heads },
        winner: 0,
    };
    let fill: Fill = |_, v| {
        let mut parts = v.first()?.split(':');
        let caller = parts.next()?.parse::<Seat>().ok()?;
        let side = |t: &str| [CoinSide::Heads, CoinSide::Tails].into_iter().find(|c| side_name(*c) == t);
        let lot = Lot::CoinToss { caller, call: side(parts.next()?)?, result: side(parts.next()?)? };
        Some(E::FirstPlayerLotDrawn { winner: lot_winner(&lot), lot })
    };
    let read: Read = |e| match e {
        E::FirstPlayerLotDrawn { lot: Lot::CoinToss { caller, call, result }, .. } => {
            Some(vec![format!("{caller}:{}:{}", side_name(*call), side_name(*result))])
        }
        _ => None,
    };
    o.extend(param_option(
        s,
        seat,
        "Record the coin toss for the first player".into(),
        vec![],
        param,
        template,
        (fill, read),
        &[],
    ));
    for k in 1..=MAX_LOT_ROUNDS {
        o.extend(rock_paper_scissors(s, seat, k));
    }
}

/// Rock-paper-scissors decided in round `k`: one throw of each round, "round:seat 0's-seat 1's",
/// a tie in each round before the last and a decisive throw in the last (the values of a round
/// are one group, so a pick cannot leave a round out, fill one twice, or decide early).
fn rock_paper_scissors(s: &NarutoState, seat: Seat, k: usize) -> Option<GameOption<E>> {
    let throws = [Throw::Rock, Throw::Paper, Throw::Scissors];
    let mut values = Vec::new();
    for round in 1..=k {
        for a in throws {
            for b in throws.into_iter().filter(|b| (*b == a) == (round < k)) {
                values.push(ParamValue {
                    value: format!("{round}:{}-{}", throw_name(a), throw_name(b)),
                    label: format!("round {round}: {} {}, {} {}", s.name(0), throw_name(a), s.name(1), throw_name(b)),
                    group: Some(format!("round {round}")),
                    also: None,
                });
            }
        }
    }
    let param = card_param("throws", format!("the throw of each of the {k} round(s)"), ParamKind::Choice, k, values);
    let template = E::FirstPlayerLotDrawn { lot: Lot::RockPaperScissors { rounds: vec![] }, winner: 0 };
    let fill: Fill = |_, v| {
        let mut rounds = v
            .iter()
            .map(|r| {
                let (round, throw) = r.split_once(':')?;
                let (a, b) = throw.split_once('-')?;
                Some((round.parse::<usize>().ok()?, [throw_of(a)?, throw_of(b)?]))
            })
            .collect::<Option<Vec<_>>>()?;
        rounds.sort_by_key(|(round, _)| *round);
        let lot = Lot::RockPaperScissors { rounds: rounds.into_iter().map(|(_, t)| t).collect() };
        Some(E::FirstPlayerLotDrawn { winner: lot_winner(&lot), lot })
    };
    let read: Read = |e| match e {
        E::FirstPlayerLotDrawn { lot: Lot::RockPaperScissors { rounds }, .. } => Some(
            rounds
                .iter()
                .enumerate()
                .map(|(i, [a, b])| format!("{}:{}-{}", i + 1, throw_name(*a), throw_name(*b)))
                .collect(),
        ),
        _ => None,
    };
    let label = format!("Record rock-paper-scissors for the first player, decided in round {k}");
    // The sample throws need not decide the lot: which do is what the pick says (NAR-SETUP-3).
    param_option(s, seat, label, vec![], param, template, (fill, read), &["NAR-SETUP-3"])
}

// ---- The dealer's seed and sealed cards, in the shape of rules version `V` ----

/// A secret parameter: 64 hex digits (or an instance id and a salt) only the seat's page holds.
fn secret_param(name: &'static str, label: &str, count: usize, form: SecretForm) -> Param {
    Param { name, label: label.to_string(), kind: ParamKind::Secret, count, values: vec![], secret: Some(form) }
}

fn hex(v: Option<&String>) -> Option<Commitment> {
    Commitment::from_hex(v?).ok()
}

/// A digital table's dealer seed: committed before the first shuffle, revealed once the game
/// is over so the audit can check every seeded draw.
fn dealer_seed<const V: u32>(s: &NarutoState, seat: Seat, o: &mut Vec<GameOption<E>>) {
    if s.shuffles != ShuffleMode::Digital || seat != 0 {
        return;
    }
    let key = SEED_KEY.to_string();
    let zero = Commitment([0; 32]);
    let committed = s.ledger.seed_commitment(SEED_KEY).is_some();
    if s.step == Step::Setup && !committed {
        let template = if NarutoRules::<V>::RULES.common_events {
            E::Common(CommonEvent::SeedCommitted { key, seat: None, commitment: zero })
        } else {
            E::SeedCommitted { key, commitment: zero }
        };
        let fill: Fill = |e, v| match e {
            E::SeedCommitted { key, .. } => Some(E::SeedCommitted { key: key.clone(), commitment: hex(v.first())? }),
            E::Common(CommonEvent::SeedCommitted { key, seat, .. }) => Some(E::Common(CommonEvent::SeedCommitted {
                key: key.clone(),
                seat: *seat,
                commitment: hex(v.first())?,
            })),
            _ => None,
        };
        let read: Read = |e| match e {
            E::SeedCommitted { commitment, .. }
            | E::Common(CommonEvent::SeedCommitted { seat: None, commitment, .. }) => Some(vec![commitment.to_hex()]),
            _ => None,
        };
        let param = secret_param(
            "commitment",
            "the dealer seed's commitment (64 hex digits the table holds)",
            1,
            SecretForm::SeedCommitment { key: SEED_KEY.into() },
        );
        let pick = Pick::Param { param, template, fill, read };
        o.push(GameOption { seat, label: "Commit the digital table's shuffle seed".into(), concerns: vec![], pick });
    } else if committed && s.result.is_some() && !s.ledger.seed_is_revealed(SEED_KEY) {
        let template = if NarutoRules::<V>::RULES.common_events {
            E::Common(CommonEvent::SeedRevealed { key, seat: None, seed: zero })
        } else {
            E::SeedRevealed { key, seed: zero }
        };
        let fill: Fill = |e, v| match e {
            E::SeedRevealed { key, .. } => Some(E::SeedRevealed { key: key.clone(), seed: hex(v.first())? }),
            E::Common(CommonEvent::SeedRevealed { key, seat, .. }) => {
                Some(E::Common(CommonEvent::SeedRevealed { key: key.clone(), seat: *seat, seed: hex(v.first())? }))
            }
            _ => None,
        };
        let read: Read = |e| match e {
            E::SeedRevealed { seed, .. } | E::Common(CommonEvent::SeedRevealed { seat: None, seed, .. }) => {
                Some(vec![seed.to_hex()])
            }
            _ => None,
        };
        let param = secret_param(
            "seed",
            "the dealer's seed (64 hex digits the table holds)",
            1,
            SecretForm::SeedReveal { key: SEED_KEY.into() },
        );
        let pick = Pick::Param { param, template, fill, read };
        o.push(GameOption { seat, label: "Reveal the digital table's shuffle seed".into(), concerns: vec![], pick });
    }
}

/// A sealed card of the seat's hand, opened with its instance and salt (its page holds both).
fn sealed_reveals<const V: u32>(s: &NarutoState, seat: Seat, o: &mut Vec<GameOption<E>>) {
    let Some(p) = s.players.get(seat) else { return };
    for (i, held) in p.hand.iter().enumerate() {
        let Held::Sealed(commitment) = held else { continue };
        let zero = Commitment([0; 32]);
        let template = if NarutoRules::<V>::RULES.common_events {
            E::Common(CommonEvent::CardRevealed { seat, commitment: *commitment, card: String::new(), salt: zero })
        } else {
            E::CardRevealed { commitment: *commitment, instance: String::new(), salt: zero }
        };
        let fill: Fill = |e, v| match e {
            E::CardRevealed { commitment, .. } => {
                Some(E::CardRevealed { commitment: *commitment, instance: v.first()?.clone(), salt: hex(v.get(1))? })
            }
            E::Common(CommonEvent::CardRevealed { seat, commitment, .. }) => {
                Some(E::Common(CommonEvent::CardRevealed {
                    seat: *seat,
                    commitment: *commitment,
                    card: v.first()?.clone(),
                    salt: hex(v.get(1))?,
                }))
            }
            _ => None,
        };
        let read: Read = |e| match e {
            E::CardRevealed { instance: card, salt, .. } | E::Common(CommonEvent::CardRevealed { card, salt, .. }) => {
                Some(vec![card.clone(), salt.to_hex()])
            }
            _ => None,
        };
        let param = secret_param(
            "card",
            "the card's instance id, then the salt that sealed it (64 hex digits)",
            2,
            SecretForm::CardProof { commitment: *commitment },
        );
        let pick = Pick::Param { param, template, fill, read };
        let label = format!("Reveal the sealed card {} of your hand", i + 1);
        o.push(GameOption { seat, label, concerns: vec![Concern::Zone("hand".into())], pick });
    }
}

// ---- The turn (NAR-TURN-1) ----

fn turn(s: &NarutoState, seat: Seat, rules: Rules, o: &mut Vec<GameOption<E>>) {
    let Some(attacker) = s.attacker else { return };
    let chain_open = !s.chain.is_empty();
    if chain_open {
        // The players close the chain once nobody adds to it (NAR-CHAIN-4, NAR-OPEN-16).
        o.push(GameOption::event(seat, "Resolve the chain", vec![Concern::Zone("chain".into())], E::ChainResolved {}));
    }
    let mine = seat == attacker && !chain_open;
    match s.step {
        Step::Draw if mine => draw(s, seat, o),
        Step::Mission => {
            if mine {
                mission(s, seat, o);
            }
            if seat != attacker && s.counter_mission_open() {
                missions(s, seat, true, o);
            }
        }
        Step::Organization if mine => organization(s, seat, o),
        Step::Attack if mine => attack(s, seat, o),
        Step::Block if seat != attacker && !chain_open => block(s, seat, o),
        Step::Jutsu => {
            jutsus(s, seat, o);
            if !chain_open {
                o.push(GameOption::event(seat, "End the jutsu exchange", vec![], E::JutsuExchangeEnded {}));
            }
        }
        Step::Calculation if mine => calculation(s, seat, rules, o),
        Step::HandCheck if mine => hand_check(s, seat, o),
        _ => {}
    }
}

/// Step A: the card drawn from the top of the deck.
fn draw(s: &NarutoState, seat: Seat, o: &mut Vec<GameOption<E>>) {
    let param = card_param("card", "the card you drew".into(), ParamKind::Card, 1, deck_values(s, seat));
    let fill: Fill = |e, v| match e {
        E::CardDrawn { seat, .. } => Some(E::CardDrawn { seat: *seat, card: CardRef::Open(v.first()?.clone()) }),
        _ => None,
    };
    let read: Read = |e| match e {
        E::CardDrawn { card: CardRef::Open(c), .. } => Some(vec![c.clone()]),
        _ => None,
    };
    let template = E::CardDrawn { seat, card: CardRef::Open(String::new()) };
    let label = format!("Draw a card{}", draw_note(s));
    o.extend(param_option(s, seat, label, vec![Concern::Zone("deck".into())], param, template, (fill, read), &[]));
}

/// The hand cards (other than `card`) that may pay `def`'s hand cost: of its element, of one of
/// its elements, or of `element` when one is chosen (NAR-COST-2/3, NAR-OPEN-13).
fn payers(s: &NarutoState, seat: Seat, card: &str, def: &CardDef, element: Option<&str>) -> Vec<String> {
    let fits = |c: &String| {
        let Some(d) = s.def(c) else { return false };
        match (element, def.elements.len()) {
            (Some(e), _) => d.has_element(e),
            (None, 0) => true,
            (None, _) => def.elements.iter().any(|e| d.has_element(e)),
        }
    };
    known_hand(s, seat).into_iter().filter(|c| c != card && fits(c)).collect()
}

/// The elements a hand cost may be paid in: one option each under `multi_element_cost=choose-one`
/// for a card of several elements, otherwise none chosen.
fn cost_elements(s: &NarutoState, def: &CardDef) -> Vec<Option<String>> {
    if def.elements.len() > 1 && s.policies.multi_element_cost == MultiElementPolicy::ChooseOne {
        def.elements.iter().cloned().map(Some).collect()
    } else {
        vec![None]
    }
}

/// A card entering play for its hand cost: the cards paid are the parameter.
fn paid_option(
    s: &NarutoState,
    seat: Seat,
    card: &str,
    label: String,
    element: Option<&str>,
    template: E,
) -> Option<GameOption<E>> {
    let def = s.def(card)?;
    let need = usize::try_from(def.hand_cost).ok()?;
    let values = card_values(s, &payers(s, seat, card, def, element));
    let param = card_param(
        "paid",
        format!("the {need} card(s) of your hand paying the hand cost"),
        ParamKind::Card,
        need,
        values,
    );
    let fill: Fill = |e, v| {
        let mut e = e.clone();
        match &mut e {
            E::NinjaDeployed { hand_cost_paid, .. }
            | E::MissionPlayed { hand_cost_paid, .. }
            | E::ClientDeployed { hand_cost_paid, .. } => *hand_cost_paid = v.to_vec(),
            _ => return None,
        }
        Some(e)
    };
    let read: Read = |e| match e {
        E::NinjaDeployed { hand_cost_paid, .. }
        | E::MissionPlayed { hand_cost_paid, .. }
        | E::ClientDeployed { hand_cost_paid, .. } => Some(hand_cost_paid.clone()),
        _ => None,
    };
    let concerns = vec![Concern::Card(card.to_string())];
    param_option(s, seat, label, concerns, param, template, (fill, read), &["NAR-COST-2", "NAR-COST-3"])
}

/// Steps B, V, G, D (NAR-TURN-4): a ninja, a mission, chakra, a client, in any order.
fn mission(s: &NarutoState, seat: Seat, o: &mut Vec<GameOption<E>>) {
    let Some(p) = s.players.get(seat) else { return };
    let hand = known_hand(s, seat);
    let from_hand = hand.iter().map(|c| (c.clone(), DeployFrom::Hand));
    let from_chakra =
        p.chakra.iter().filter(|c| s.def(c).is_some_and(|d| d.has_ambush())).map(|c| (c.clone(), DeployFrom::Chakra));
    for (card, from) in from_hand.chain(from_chakra) {
        if s.kind(&card) != Some(CardType::Ninja) {
            continue;
        }
        let whence = if from == DeployFrom::Hand { "your hand" } else { "your chakra (Ambush)" };
        let label = format!("Deploy {} from {whence}", card_name(s, &card));
        let template = E::NinjaDeployed { seat, card: card.clone(), from, hand_cost_paid: vec![] };
        o.extend(paid_option(s, seat, &card, label, None, template));
    }
    missions(s, seat, false, o);
    for card in hand.iter().filter(|c| s.kind(c) == Some(CardType::Client)) {
        let Some(def) = s.def(card) else { continue };
        for element in cost_elements(s, def) {
            let label = format!("Deploy the client {}{}", card_name(s, card), paid_in(element.as_deref()));
            let template =
                E::ClientDeployed { seat, card: card.clone(), element: element.clone(), hand_cost_paid: vec![] };
            o.extend(paid_option(s, seat, card, label, element.as_deref(), template));
        }
    }
    let values = card_values(s, &hand);
    let param = card_param("cards", "the card to charge".into(), ParamKind::Card, 1, values);
    let template = E::ChakraCharged { seat, cards: vec![] };
    let concerns = vec![Concern::Zone("hand".into()), Concern::Zone("chakra".into())];
    o.extend(param_option(
        s,
        seat,
        "Charge a card of your hand into chakra".into(),
        concerns,
        param,
        template,
        HAND_CARDS,
        &[],
    ));
    o.push(GameOption::event(seat, "End the mission phase", vec![], E::StepAdvanced { to: Step::Organization }));
}

fn paid_in(element: Option<&str>) -> String {
    element.map(|e| format!(", paying in {e}")).unwrap_or_default()
}

/// The seat's missions (the blocker's are counter missions, NAR-MISSION-1, NAR-OPEN-15).
fn missions(s: &NarutoState, seat: Seat, counter: bool, o: &mut Vec<GameOption<E>>) {
    if counter && s.policies.counter_missions == CounterMissionPolicy::SharedLimit && !s.counter_mission_open() {
        return;
    }
    for card in known_hand(s, seat).iter().filter(|c| s.kind(c) == Some(CardType::Mission)) {
        let Some(def) = s.def(card) else { continue };
        for element in cost_elements(s, def) {
            let what = if counter { "Play the counter mission" } else { "Play the mission" };
            let label = format!("{what} {}{}", card_name(s, card), paid_in(element.as_deref()));
            let template = E::MissionPlayed {
                seat,
                card: card.clone(),
                counter,
                element: element.clone(),
                targets: vec![],
                hand_cost_paid: vec![],
            };
            o.extend(paid_option(s, seat, card, label, element.as_deref(), template));
        }
    }
}

/// Step E: every village ninja in a team of 1 to 3 (NAR-TEAM), stated as each ninja's team
/// number; or moving on with the teams as they stand.
fn organization(s: &NarutoState, seat: Seat, o: &mut Vec<GameOption<E>>) {
    let ninja = s.village_ninja(seat);
    let mut values = Vec::new();
    for n in &ninja {
        for t in 1..=ninja.len() {
            values.push(ParamValue {
                value: format!("{n}@{t}"),
                label: format!("{} in team {t}", card_name(s, n)),
                group: Some(n.clone()),
                also: None,
            });
        }
    }
    let param = card_param("teams", "each ninja's team".into(), ParamKind::Choice, ninja.len(), values);
    let fill: Fill = |e, v| {
        let E::TeamsOrganized { seat, .. } = e else { return None };
        let mut teams: std::collections::BTreeMap<usize, Vec<String>> = Default::default();
        for x in v {
            let (n, t) = x.rsplit_once('@')?;
            teams.entry(t.parse().ok()?).or_default().push(n.to_string());
        }
        Some(E::TeamsOrganized { seat: *seat, teams: teams.into_values().collect() })
    };
    let read: Read = |e| match e {
        E::TeamsOrganized { teams, .. } => {
            Some(teams.iter().enumerate().flat_map(|(i, t)| t.iter().map(move |n| format!("{n}@{}", i + 1))).collect())
        }
        _ => None,
    };
    if !ninja.is_empty() {
        let template = E::TeamsOrganized { seat, teams: vec![] };
        let concerns = vec![Concern::Zone("village".into())];
        let rules = ["NAR-TEAM-2", "NAR-TEAM-4"];
        o.extend(param_option(s, seat, "Organize your teams".into(), concerns, param, template, (fill, read), &rules));
    }
    let to = if s.is_first_turn() { Step::Winner } else { Step::Attack };
    o.push(GameOption::event(seat, "End the organization phase", vec![], E::StepAdvanced { to }));
}

/// The members of a team, leader first.
fn members(leader: &str, supports: &[String]) -> Vec<String> {
    std::iter::once(leader.to_string()).chain(supports.iter().cloned()).collect()
}

/// `leader` at the head of the template team it belongs to, the others supporting in team order.
fn led_by(teams: &[Vec<String>], leader: &str) -> Option<(String, Vec<String>)> {
    let team = teams.iter().find(|t| t.iter().any(|c| c == leader))?;
    Some((leader.to_string(), team.iter().filter(|c| *c != leader).cloned().collect()))
}

/// A team's members in the players' words: "Naruto, Sakura".
fn team_label(s: &NarutoState, team: &[String]) -> String {
    team.iter().map(|c| card_name(s, c)).collect::<Vec<_>>().join(", ")
}

/// Step Zh: up to 3 of the organized teams, each under a leader of its members (NAR-ATK). The
/// template lists the teams, so a picked leader names its team.
fn attack(s: &NarutoState, seat: Seat, o: &mut Vec<GameOption<E>>) {
    let teams = s.current_teams(seat);
    let none = E::AttackingTeamsSent { seat, teams: vec![] };
    o.push(GameOption::event(seat, "Send no team to attack", vec![], none));
    // Members in order of their place in the team, so the first values lead distinct teams.
    let mut values = Vec::new();
    for i in 0..3 {
        for t in teams.iter().filter(|t| t.len() > i) {
            values.push(ParamValue {
                value: t[i].clone(),
                label: format!("{} leading {}", card_name(s, &t[i]), team_label(s, t)),
                // One leader per team: the team's first member names it.
                group: Some(t[0].clone()),
                also: None,
            });
        }
    }
    let template = E::AttackingTeamsSent {
        seat,
        teams: teams.iter().map(|t| SentTeam { leader: t[0].clone(), supports: t[1..].to_vec() }).collect(),
    };
    let fill: Fill = |e, v| {
        let E::AttackingTeamsSent { seat, teams } = e else { return None };
        let all: Vec<Vec<String>> = teams.iter().map(|t| members(&t.leader, &t.supports)).collect();
        let sent = v
            .iter()
            .map(|l| led_by(&all, l).map(|(leader, supports)| SentTeam { leader, supports }))
            .collect::<Option<_>>()?;
        Some(E::AttackingTeamsSent { seat: *seat, teams: sent })
    };
    let read: Read = |e| match e {
        E::AttackingTeamsSent { teams, .. } => Some(teams.iter().map(|t| t.leader.clone()).collect()),
        _ => None,
    };
    for k in 1..=teams.len().min(3) {
        let param = card_param(
            "leaders",
            format!("the leaders of the {k} attacking team(s)"),
            ParamKind::Card,
            k,
            values.clone(),
        );
        let label = format!("Send {k} team(s) to attack");
        o.extend(param_option(
            s,
            seat,
            label,
            vec![Concern::Zone("village".into())],
            param,
            template.clone(),
            (fill, read),
            &[],
        ));
    }
}

/// Step Z: blocking teams, each under a leader of its members, each blocking an attacking team
/// (NAR-BLK; several on one attacker under `multi_block=allow`, NAR-OPEN-18).
fn block(s: &NarutoState, seat: Seat, o: &mut Vec<GameOption<E>>) {
    let teams = s.current_teams(seat);
    o.push(GameOption::event(seat, "Block nothing", vec![], E::BlockingTeamsSent { seat, teams: vec![] }));
    let attacks = &s.battle.attacks;
    let mut values = Vec::new();
    for t in &teams {
        for m in t {
            for a in attacks {
                values.push(ParamValue {
                    value: format!("{m}>{}", a.leader),
                    label: format!(
                        "{} leading {} blocks the team led by {}",
                        card_name(s, m),
                        team_label(s, t),
                        card_name(s, &a.leader)
                    ),
                    // A team blocks once: its first member names it. Under `multi_block=forbid`
                    // an attacking team is blocked once too (NAR-OPEN-18).
                    group: Some(t[0].clone()),
                    also: (s.policies.multi_block == MultiBlockPolicy::Forbid).then(|| a.leader.clone()),
                });
            }
        }
    }
    let template = E::BlockingTeamsSent {
        seat,
        teams: teams
            .iter()
            .map(|t| BlockingTeam { leader: t[0].clone(), supports: t[1..].to_vec(), blocks: String::new() })
            .collect(),
    };
    let fill: Fill = |e, v| {
        let E::BlockingTeamsSent { seat, teams } = e else { return None };
        let all: Vec<Vec<String>> = teams.iter().map(|t| members(&t.leader, &t.supports)).collect();
        let sent = v
            .iter()
            .map(|x| {
                let (l, blocks) = x.split_once('>')?;
                let (leader, supports) = led_by(&all, l)?;
                Some(BlockingTeam { leader, supports, blocks: blocks.to_string() })
            })
            .collect::<Option<_>>()?;
        Some(E::BlockingTeamsSent { seat: *seat, teams: sent })
    };
    let read: Read = |e| match e {
        E::BlockingTeamsSent { teams, .. } => {
            Some(teams.iter().map(|t| format!("{}>{}", t.leader, t.blocks)).collect())
        }
        _ => None,
    };
    let most = match s.policies.multi_block {
        MultiBlockPolicy::Allow => teams.len(),
        MultiBlockPolicy::Forbid => teams.len().min(attacks.len()),
    };
    for k in 1..=most {
        let param = card_param(
            "blocks",
            format!("the {k} blocking team(s): leader and the team it blocks"),
            ParamKind::Choice,
            k,
            values.clone(),
        );
        let label = format!("Block with {k} team(s)");
        // Each value names one team and one attacker; its groups keep a pick to one block per
        // team (and per attacker under `multi_block=forbid`).
        let rules = ["NAR-BLK-2", "NAR-OPEN-18"];
        o.extend(param_option(
            s,
            seat,
            label,
            vec![Concern::Zone("village".into())],
            param,
            template.clone(),
            (fill, read),
            &rules,
        ));
    }
}

/// Step I: a jutsu of the seat's hand used by one of its ninja on the battlefield, on a target
/// among the ninja fighting (NAR-JUTSU).
fn jutsus(s: &NarutoState, seat: Seat, o: &mut Vec<GameOption<E>>) {
    let Some(p) = s.players.get(seat) else { return };
    let fighting: Vec<String> = s.players.iter().flat_map(|p| p.battlefield.iter().cloned()).collect();
    for card in known_hand(s, seat).iter().filter(|c| s.kind(c) == Some(CardType::Jutsu)) {
        for ninja in &p.battlefield {
            let param =
                card_param("target", "the jutsu's target".into(), ParamKind::Target, 1, card_values(s, &fighting));
            let fill: Fill = |e, v| {
                let E::JutsuUsed { seat, card, ninja, cost_paid, .. } = e else { return None };
                Some(E::JutsuUsed {
                    seat: *seat,
                    card: card.clone(),
                    ninja: ninja.clone(),
                    targets: v.to_vec(),
                    cost_paid: cost_paid.clone(),
                })
            };
            let read: Read = |e| match e {
                E::JutsuUsed { targets, .. } => Some(targets.clone()),
                _ => None,
            };
            let template =
                E::JutsuUsed { seat, card: card.clone(), ninja: ninja.clone(), targets: vec![], cost_paid: vec![] };
            let label = format!("Use {} with {}", card_name(s, card), card_name(s, ninja));
            let concerns = vec![Concern::Card(card.clone()), Concern::Card(ninja.clone())];
            o.extend(param_option(s, seat, label, concerns, param, template, (fill, read), &[]));
        }
    }
}

/// Step K: each unblocked team's battle reward (NAR-REWARD-1), and each fight as the rules
/// compute it, as a normal or a mental battle. A reward is taken face down from the top of the
/// opponent's deck (NAR-ZONE-1): with `blind_rewards` the taker sees no card, so the option names
/// none; it records the count as cards taken unseen ([`reward_taken`]), the same whatever the
/// deck holds. Before, the picker listed the opponent's deck ([`listed_reward`]).
fn calculation(s: &NarutoState, seat: Seat, rules: Rules, o: &mut Vec<GameOption<E>>) {
    let foe = opponent(seat);
    for t in pending_rewards(s) {
        if !rules.blind_rewards {
            o.extend(listed_reward(s, seat, t));
            continue;
        }
        let (n, _) = expected_reward(s, seat, t);
        let label = format!(
            "Take the battle reward of the team led by {}: the top {n} card(s) of {}'s deck, face down",
            card_name(s, &t.leader),
            s.name(foe)
        );
        let concerns = vec![Concern::Card(t.leader.clone()), Concern::Zone("rewards".into())];
        o.push(GameOption::event(seat, label, concerns, reward_taken(s, seat, t)));
    }
    for (a, b) in pending_fights(s) {
        let names = format!("{} against {}", card_name(s, &a.leader), card_name(s, &b.leader));
        let concerns = vec![Concern::Card(a.leader.clone()), Concern::Card(b.leader.clone())];
        o.push(GameOption::event(
            seat,
            format!("Resolve the fight of {names}"),
            concerns.clone(),
            resolve_fight(s, a, b, false),
        ));
        o.push(GameOption::event(
            seat,
            format!("Resolve the fight of {names} as a mental battle"),
            concerns,
            resolve_fight(s, a, b, true),
        ));
    }
}

/// A battle reward as versions before `blind_rewards` offer it: the taker names the cards among
/// every card left in the opponent's deck (kept so their games' options stay as recorded).
fn listed_reward(s: &NarutoState, seat: Seat, t: &SentTeam) -> Option<GameOption<E>> {
    let foe = opponent(seat);
    let (n, _) = expected_reward(s, seat, t);
    let param = card_param(
        "cards",
        format!("the {n} card(s) taken from the top of {}'s deck", s.name(foe)),
        ParamKind::Card,
        n,
        deck_values(s, foe),
    );
    let fill: Fill = |e, v| match e {
        E::BattleRewardTaken { seat, team, .. } => {
            Some(E::BattleRewardTaken { seat: *seat, team: team.clone(), cards: open_cards(v) })
        }
        _ => None,
    };
    let read: Read = |e| match e {
        E::BattleRewardTaken { cards, .. } => read_open(cards),
        _ => None,
    };
    let template = E::BattleRewardTaken { seat, team: t.leader.clone(), cards: vec![] };
    let label =
        format!("Take the battle reward of the team led by {} ({n} card(s)){}", card_name(s, &t.leader), draw_note(s));
    let concerns = vec![Concern::Card(t.leader.clone()), Concern::Zone("rewards".into())];
    param_option(s, seat, label, concerns, param, template, (fill, read), &[])
}

/// Step N: the attacker discards down to 6 (NAR-HAND-1).
fn hand_check(s: &NarutoState, seat: Seat, o: &mut Vec<GameOption<E>>) {
    let hand = known_hand(s, seat);
    let n = s.players.get(seat).map_or(0, |p| p.hand.len()).saturating_sub(6);
    let param = card_param("cards", format!("the {n} card(s) to discard"), ParamKind::Card, n, card_values(s, &hand));
    let template = E::HandCheckDiscard { seat, cards: vec![] };
    let label = format!("Discard {n} card(s) down to 6");
    o.extend(param_option(s, seat, label, vec![Concern::Zone("hand".into())], param, template, HAND_CARDS, &[]));
}

/// The parameter of the events that name cards of the seat's hand (`ChakraCharged`,
/// `HandCheckDiscard`): the cards are the values.
const HAND_CARDS: (Fill, Read) = (
    |e, v| {
        let mut e = e.clone();
        match &mut e {
            E::ChakraCharged { cards, .. } | E::HandCheckDiscard { cards, .. } => *cards = v.to_vec(),
            _ => return None,
        }
        Some(e)
    },
    |e| match e {
        E::ChakraCharged { cards, .. } | E::HandCheckDiscard { cards, .. } => Some(cards.clone()),
        _ => None,
    },
);
