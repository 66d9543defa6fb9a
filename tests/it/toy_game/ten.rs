//! Ten, a toy card game written from the how-to with the shared machinery only: two players
//! play numbered cards from open hands in turn; the first to reach the `target` policy (10)
//! wins; when the player to move has no card left, the higher score wins (equal: a draw).
//! It is a game module of the standard shape in one file: cards, config, events, state, then
//! the `rules`, `apply`, `view`, `coverage` and `agent` modules that `forward_game!` forwards to.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use kifu::game::cards::{instance_id, Cards};
use kifu::game::catalog::{
    config_from_request, embed_cards, parse_count_list, unknown_card, CardLookup, Catalog, CatalogCard, DeckFormat,
};
use kifu::game::commit::CommitmentLedger;
use kifu::game::common::CommonEvent;
use kifu::game::policy::{Policy, PolicyTable};
use kifu::game::rules::check_seats;
use kifu::game::{Game, NewGame, Outcome, Position, Seat, SeatRange, Seats, Violation};

/// The game: its name, rules version and seats; the rest is forwarded to the modules below.
pub struct Ten;

impl Game for Ten {
    const RULESET: &'static str = "ten";
    const RULESET_VERSION: u32 = 1;
    const SEATS: SeatRange = SeatRange::TWO;
    const CHECKS_AWAITED: bool = true;

    kifu::forward_game!(config: TenConfig, event: TenEvent, state: TenState);

    fn new_config(request: &NewGame<'_>) -> Result<TenConfig, Vec<kifu::game::ConfigProblem>> {
        let format =
            DeckFormat { seats: Self::SEATS, parse: parse_count_list, check: |deck, cat| check_deck(deck, cat) };
        config_from_request(request, Catalog::sample, format, TenConfig::new, TenConfig::set_policy)
    }

    fn position(s: &TenState) -> Position {
        let phase = if s.result.is_some() { "over" } else { "play" };
        Position { turn: s.turn + 1, phase, step: phase, active: Some(s.to_play()), awaited: Self::awaited(s) }
    }

    fn awaited(s: &TenState) -> Vec<Seat> {
        if s.result.is_some() {
            vec![]
        } else {
            vec![s.to_play()]
        }
    }
}

// ---- Cards: the catalog's card fields and the deck check ----

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct CardDef {
    pub id: String,
    pub name: String,
    pub value: u32,
}

impl CatalogCard for CardDef {
    const SAMPLE: &'static str = r#"{"cards": [
        {"id": "T1", "name": "One", "value": 1}, {"id": "T2", "name": "Two", "value": 2},
        {"id": "T3", "name": "Three", "value": 3}, {"id": "T4", "name": "Four", "value": 4}]}"#;
    fn id(&self) -> &str {
        &self.id
    }
    fn name(&self) -> &str {
        &self.name
    }
    fn stats(&self) -> Vec<(String, String)> {
        vec![("value".into(), self.value.to_string())]
    }
}

/// TEN-DECK-1: a deck holds at least one card, each one the catalog knows (`KIFU-CARD-2`).
pub fn check_deck(deck: &[String], cards: &(impl CardLookup<CardDef> + ?Sized)) -> Vec<Violation> {
    let mut out: Vec<Violation> =
        deck.iter().filter(|id| cards.card(id).is_none()).map(|id| unknown_card(id)).collect();
    if deck.is_empty() {
        out.push(Violation::new("TEN-DECK-1", "a deck needs at least one card"));
    }
    out
}

// ---- Config: the stored header and its policies ----

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Policies {
    pub target: u32,
}

impl Default for Policies {
    fn default() -> Self {
        Policies { target: 10 }
    }
}

impl PolicyTable for Policies {
    const TABLE: &'static [Policy<Policies>] = &[Policy {
        key: "target",
        values: &["10", "6", "15"],
        open: "TEN-WIN-1",
        get: |p| p.target.to_string(),
        set: |p, v| {
            p.target = v.parse().ok()?;
            Some(())
        },
    }];
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum TenConfig {
    V1(ConfigV1),
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ConfigV1 {
    pub players: Vec<String>,
    pub decks: Vec<Vec<String>>,
    pub cards: Vec<CardDef>,
    pub policies: Policies,
}

kifu::config_v1!(TenConfig, ConfigV1, Policies);

impl TenConfig {
    pub fn new(players: Vec<String>, decks: Vec<Vec<String>>, cat: &Catalog<CardDef>) -> Result<Self, Vec<Violation>> {
        let cards = embed_cards(decks.iter().flatten(), cat)?;
        Ok(TenConfig::V1(ConfigV1 { players, decks, cards, policies: Policies::default() }))
    }

    pub fn check(&self) -> Vec<Violation> {
        let c = self.v1();
        check_seats(Ten::SEATS, &c.players, &c.decks, |deck| check_deck(deck, &c.cards[..]))
    }
}

// ---- Events and state ----

/// Stored format: variants are only ever appended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub enum TenEvent {
    Common(CommonEvent),
    CardPlayed { seat: Seat, card: String },
}

impl TenEvent {
    pub fn seat(&self) -> Option<Seat> {
        match self {
            TenEvent::Common(c) => c.seat(),
            TenEvent::CardPlayed { seat, .. } => Some(*seat),
        }
    }
}

#[derive(Clone, Debug)]
pub struct TenState {
    pub names: Vec<String>,
    pub cards: Arc<Cards<CardDef>>,
    pub hands: Seats<Vec<String>>,
    pub scores: Seats<u32>,
    pub turn: u32,
    pub target: u32,
    pub result: Option<Outcome>,
    pub ledger: CommitmentLedger,
}

impl TenState {
    pub fn new(config: &TenConfig) -> Self {
        let c = config.v1();
        let cards = Cards { defs: kifu::game::catalog::by_id(&c.cards), decks: c.decks.clone() };
        let hand = |seat: Seat, deck: &Vec<String>| (0..deck.len()).map(|i| instance_id(seat, i)).collect();
        TenState {
            names: c.players.clone(),
            cards: Arc::new(cards),
            hands: Seats::per_seat(&c.decks, hand),
            scores: Seats::per_seat(&c.decks, |_, _| 0),
            turn: 0,
            target: c.policies.target,
            result: None,
            ledger: CommitmentLedger::default(),
        }
    }

    pub fn to_play(&self) -> Seat {
        (self.turn % 2) as Seat
    }

    pub fn name(&self, seat: Seat) -> String {
        kifu::game::seat_name(&self.names, seat)
    }
}

// ---- The modules forward_game! forwards to ----

/// Ten's rules versions as named behaviours: one version so far, so none (a later version adds
/// a field here and passes `rules: Self::RULES` to `forward_game!`).
pub mod rules_version {
    kifu::rules_version! {
        newest: 1;
    }
}

pub mod rules {
    use kifu::game::commit::RandomMode;
    use kifu::game::common::{self, Context};
    use kifu::game::Violation;

    use super::{TenEvent, TenState};

    pub fn validate(s: &TenState, event: &TenEvent) -> Vec<Violation> {
        let mut out = Vec::new();
        match event {
            TenEvent::Common(c) => {
                let cx = Context { ledger: &s.ledger, seats: 2, mode: RandomMode::Physical, contributors: &[0, 1] };
                out.extend(common::validate(&cx, c));
            }
            TenEvent::CardPlayed { seat, card } => {
                if s.result.is_some() {
                    out.push(Violation::new("TEN-END-1", "the game is over"));
                }
                if !s.hands.get(*seat).is_some_and(|h| h.contains(card)) {
                    out.push(Violation::new("KIFU-CARD-1", format!("{card} is not in {}'s hand", s.name(*seat))));
                }
            }
        }
        out
    }
}

pub mod apply {
    use kifu::game::{common, opponent, Outcome, Seat};

    use super::{TenEvent, TenState};

    pub fn apply(mut s: TenState, event: &TenEvent) -> TenState {
        match event {
            TenEvent::Common(c) => common::record(&mut s.ledger, c),
            TenEvent::CardPlayed { seat, card } => played(&mut s, *seat, card),
        }
        s
    }

    fn played(s: &mut TenState, seat: Seat, card: &str) {
        let value = s.cards.def(card).map_or(0, |d| d.value);
        s.hands.update(seat, |h| h.retain(|c| c != card));
        s.scores.update(seat, |n| *n += value);
        s.turn += 1;
        let score = |seat| s.scores.get(seat).copied().unwrap_or(0);
        if score(seat) >= s.target {
            s.result = Some(Outcome::won(seat, 2, format!("TEN-WIN-1: {} reached {}", s.name(seat), s.target)));
        } else if s.hands.get(s.to_play()).is_none_or(Vec::is_empty) {
            let (a, b) = (score(seat), score(opponent(seat)));
            s.result = Some(match a.cmp(&b) {
                std::cmp::Ordering::Equal => Outcome::draw(2, "TEN-WIN-2: no card left, equal scores"),
                std::cmp::Ordering::Greater => Outcome::won(seat, 2, "TEN-WIN-2: no card left, higher score"),
                std::cmp::Ordering::Less => Outcome::won(opponent(seat), 2, "TEN-WIN-2: no card left, higher score"),
            });
        }
    }
}

pub mod view {
    use kifu::game::catalog::instance_label;
    use kifu::game::common;
    use kifu::game::view::{BoardView, CardView, SeatView, TableLayout, ZoneView};
    use kifu::game::Viewer;

    use super::{Ten, TenEvent, TenState};

    /// Hands are open in Ten, so every viewer sees the same board.
    pub fn view(s: &TenState, viewer: Viewer) -> BoardView {
        let seats = s
            .hands
            .enumerate()
            .map(|(seat, hand)| SeatView {
                seat,
                name: s.name(seat),
                counters: vec![("score".into(), s.scores.get(seat).copied().unwrap_or(0).to_string())],
                zones: vec![ZoneView {
                    zone: "hand".into(),
                    count: hand.len(),
                    cards: hand.iter().map(|c| CardView::known(c, s.cards.def(c), vec![])).collect(),
                    groups: vec![],
                }],
            })
            .collect();
        let facts = vec![("target".into(), s.target.to_string())];
        BoardView::of::<Ten>(s, viewer, seats, vec![], facts, TableLayout::default())
    }

    pub fn describe(s: &TenState, event: &TenEvent, viewer: Viewer) -> String {
        match event {
            TenEvent::Common(c) => common::describe(c, viewer, |seat| s.name(seat)),
            TenEvent::CardPlayed { seat, card } => {
                format!("{} played {}", s.name(*seat), instance_label(s.cards.def(card), card))
            }
        }
    }
}

pub mod coverage {
    use kifu::game::rules::row;
    use kifu::game::{Enforcement, RuleCoverage};

    pub fn coverage() -> Vec<RuleCoverage> {
        let fold = Enforcement::Informational { reason: "the fold ends the game; there is nothing to refuse" };
        vec![
            row("TEN-DECK-1", "a deck holds at least one card", Enforcement::Enforced),
            row("TEN-END-1", "no card is played after the game ended", Enforcement::Enforced),
            row("TEN-WIN-1", "the first to reach the target wins", fold.clone()),
            row("TEN-WIN-2", "no card left for the player to move: the higher score wins", fold),
        ]
    }

    /// The toy game keeps no scenario index (its cases still run through the recorder).
    pub const SCENARIOS: &str = "";

    pub const UNRECORDABLE: &[kifu::game::Unrecordable] = &[];
}

pub mod agent {
    use rand::seq::IndexedRandom;

    use kifu::game::catalog::Catalog;
    use kifu::game::commit::AgentSecrets;
    use kifu::game::selfplay::{mix_policies, Mix};
    use kifu::game::AgentRng;

    use super::{CardDef, Policies, TenConfig, TenEvent, TenState};

    pub fn self_play_config(players: &[String], rng: &mut AgentRng) -> (TenConfig, AgentSecrets) {
        let catalog = Catalog::<CardDef>::sample();
        let ids: Vec<String> = catalog.cards.keys().cloned().collect();
        let mut deck = || (0..6).filter_map(|_| ids.choose(rng).cloned()).collect::<Vec<_>>();
        let decks = vec![deck(), deck()];
        let mut config = TenConfig::new(players.to_vec(), decks, &catalog).unwrap_or_else(|_| {
            // Unreachable with the sample catalog; an empty config still fails `setup` loudly.
            TenConfig::V1(super::ConfigV1 {
                players: players.to_vec(),
                decks: vec![],
                cards: vec![],
                policies: Policies::default(),
            })
        });
        mix_policies(
            &mut config,
            &[Mix::Maybe { key: "target", p: 0.5, values: &["10", "6", "15"] }],
            rng,
            TenConfig::set_policy,
        );
        (config, AgentSecrets::default())
    }

    pub fn agent_step(s: &TenState, _secrets: &mut AgentSecrets, rng: &mut AgentRng) -> Option<TenEvent> {
        if s.result.is_some() {
            return None;
        }
        let seat = s.to_play();
        let card = s.hands.get(seat)?.choose(rng)?.clone();
        Some(TenEvent::CardPlayed { seat, card })
    }
}
