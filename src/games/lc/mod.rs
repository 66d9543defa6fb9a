//! The Portuguese line-combat card game (the seed never names it), digest §3, rule prefix `LC`.
//!
//! [`Lc`] implements [`crate::game::Game`]. The module has the shape every game has:
//! - [`config`]: the stored header (players, decks, embedded card definitions, the policy for
//!   each OPEN point of §3.13, the shuffle mode);
//! - [`catalog`]: the card file format, deck lists and the deck checks;
//! - [`events`]: the versioned, past-tense event enum, the recorder's common events at variant 0;
//! - [`state`] and [`apply`]: the fold (total, no rule logic);
//! - [`rules`]: `validate`, citing `LC-*` IDs; [`rules::expected_result`] recomputes an attack;
//! - [`view`]: redaction into a [`crate::game::BoardView`] and one-line descriptions;
//! - [`options`]: what a seat may record now, and the automatic steps kifu records itself;
//! - [`agent`]: random legal play for self-play;
//! - [`coverage`]: every `LC-*` rule ID with how it is enforced (also `COVERAGE.md`).
//!
//! The seed is only the combat chapter: rounds 1–3 and the placement rules it calls "already
//! explained" are recorded through a documented skeleton (policy `opening_rounds`, LC-OPEN-1),
//! which is **not from the seed**: shuffle, choose the first player, draw 5, then rounds in which
//! each player puts cards down, refills and passes; the Combat Phase starts in round 4.
//!
//! A Combat-Phase turn, as recorded: optional `FullDiscarded` first; `CardPutDown` /
//! `CardAttached`; then `CardShifted`, `StrategyActivated` and attacks, each attack being
//! `AttackDeclared` (or `DirectAttackDeclared`), an optional `ProtectionPlayed` by the defender,
//! `CardsFlipped` for face-down cards, and `AttackResolved` with the table's arithmetic; then
//! `RefillDrawn` and `TurnPassed` (the refill comes before the attacks under
//! `draw_order=before-attacks`). `GameEnded` records the end the board shows.

pub mod agent;
pub mod apply;
pub mod catalog;
pub mod config;
pub mod coverage;
pub mod events;
pub mod options;
pub mod rules;
pub mod rules_version;
pub mod state;
pub mod view;

use crate::game::catalog::{config_from_request, DeckFormat};
use crate::game::{Game, NewGame, Position, Seat, SeatRange};

pub use config::LcConfig;
pub use events::LcEvent;
pub use state::LcState;

/// The line-combat ruleset.
pub struct Lc;

impl Game for Lc {
    const RULESET: &'static str = "lc";
    const RULESET_VERSION: u32 = 1;
    const SEATS: SeatRange = SeatRange::TWO;
    const CHECKS_AWAITED: bool = true;

    crate::forward_game!(config: LcConfig, event: LcEvent, state: LcState);

    fn new_config(request: &NewGame<'_>) -> Result<LcConfig, Vec<crate::game::ConfigProblem>> {
        let format = DeckFormat {
            seats: Self::SEATS,
            parse: catalog::parse_deck_list,
            check: |deck, cards| catalog::check_deck(deck, cards),
        };
        config_from_request(
            request,
            catalog::Catalog::sample,
            format,
            |players, decks, catalog| LcConfig::new(players, decks, catalog, config::ShuffleMode::Physical),
            LcConfig::set_policy,
        )
    }

    fn position(state: &LcState) -> Position {
        Position {
            turn: state.turn_no,
            phase: view::phase(state),
            step: view::step(state),
            active: state.active(),
            awaited: Self::awaited(state),
        }
    }

    fn options(state: &LcState, seat: Seat) -> Option<Vec<crate::game::options::GameOption<LcEvent>>> {
        Some(options::options(state, seat))
    }

    fn automatic(state: &LcState) -> Option<LcEvent> {
        options::automatic(state)
    }

    fn dealer_key(config: &LcConfig) -> Option<&'static str> {
        options::dealer_key(config)
    }

    fn dealt(state: &LcState, dealer: &crate::game::commit::AgentSecrets) -> Option<LcEvent> {
        options::dealt(state, dealer)
    }

    fn deal_cards(
        state: &LcState,
        seat: Seat,
        n: usize,
        dealer: &crate::game::commit::AgentSecrets,
    ) -> Option<Vec<String>> {
        options::deal_cards(state, seat, n, dealer)
    }

    fn dealer_deals(event: &LcEvent) -> bool {
        options::dealer_deals(event)
    }

    fn awaited(state: &LcState) -> Vec<Seat> {
        let setup = state.round == 0 && state.players.iter().any(|p| !p.hand_drawn || !p.shuffled);
        match (&state.result, &state.attack, &state.turn) {
            (Some(_), ..) => vec![],
            // An attack: the attacker flips and activates strategies, the defender flips and protects.
            (None, Some(a), _) => vec![a.seat, crate::game::opponent(a.seat)],
            (None, None, Some(t)) => vec![t.seat],
            (None, None, None) if setup => vec![0, 1],
            // Between rounds only automatic steps are due (the next round, or the end).
            (None, None, None) => vec![],
        }
    }
}
