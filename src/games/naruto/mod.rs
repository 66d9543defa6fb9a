//! The Naruto Collectible Card Game (Bandai), digest §1, rule prefix `NAR`.
//!
//! [`Naruto`] implements [`crate::game::Game`]. The module has the shape every game has:
//! - [`config`]: the stored header (players, decks, embedded card definitions, OPEN-point policies);
//! - [`catalog`]: the card file format users bring, deck lists, deck-construction checks;
//! - [`events`]: the versioned, past-tense event enum;
//! - [`state`] and [`apply`]: the fold (total, no rule logic);
//! - [`rules`]: `validate`, citing digest rule IDs;
//! - [`view`]: redaction into a [`crate::game::BoardView`] and one-line descriptions;
//! - [`agent`]: random legal play for self-play;
//! - [`coverage`]: every `NAR-*` rule ID with how it is enforced (also `COVERAGE.md`).
//!
//! Conventions: card instances are `p{seat}-{index}` (seat's deck-list index, 0-based); teams
//! are named by their leader; the turn has the steps of NAR-TURN-1 ([`events::Step`]), and a
//! step's single action moves the game on (a draw, sending teams, ending the jutsu exchange,
//! returning teams, moving the marker) while `StepAdvanced` records every other transition.

pub mod agent;
pub mod apply;
pub mod catalog;
pub mod config;
pub mod coverage;
pub mod events;
pub mod rules;
pub mod state;
pub mod view;

use crate::game::catalog::{read_new_game, DeckFormat};
use crate::game::commit::{AgentSecrets, CommitmentLedger};
use crate::game::{
    AgentRng, BoardView, Game, NewGame, Outcome, Position, RuleCoverage, Seat, SeatRange, Viewer, Violation,
};

pub use config::NarutoConfig;
pub use events::NarutoEvent;
pub use state::NarutoState;

/// The Naruto CCG ruleset.
pub struct Naruto;

impl Game for Naruto {
    const RULESET: &'static str = "naruto";
    const RULESET_VERSION: u32 = 1;
    const SEATS: SeatRange = SeatRange::TWO;
    // Turn order is checked by the game's own rule IDs, which the pinned fixtures' findings name.
    const CHECKS_AWAITED: bool = false;

    type Config = NarutoConfig;
    type Event = NarutoEvent;
    type State = NarutoState;

    fn players(config: &NarutoConfig) -> Vec<String> {
        config.v1().players.clone()
    }

    fn new_config(request: &NewGame<'_>) -> Result<NarutoConfig, Vec<String>> {
        let format = DeckFormat {
            seats: Self::SEATS,
            parse: catalog::parse_deck_list,
            // check_deck takes a slice; the closure adapts it to the parsed Vec.
            check: |deck, cards| catalog::check_deck(deck, cards),
        };
        let (catalog, decks) = read_new_game(request, catalog::Catalog::sample, format)?;
        let mut config = NarutoConfig::new(request.players.to_vec(), decks, &catalog, config::ShuffleMode::Physical)
            .map_err(|v| v.into_iter().map(|v| v.to_string()).collect::<Vec<_>>())?;
        for (key, value) in request.policies {
            config.set_policy(key, value).map_err(|e| vec![e])?;
        }
        Ok(config)
    }

    fn setup(config: &NarutoConfig) -> Result<NarutoState, Vec<Violation>> {
        let problems = config.check();
        if problems.is_empty() {
            Ok(NarutoState::new(config))
        } else {
            Err(problems)
        }
    }

    fn validate(state: &NarutoState, event: &NarutoEvent) -> Vec<Violation> {
        rules::validate(state, event)
    }

    fn apply(state: NarutoState, event: &NarutoEvent) -> NarutoState {
        apply::apply(state, event)
    }

    fn acting_seat(event: &NarutoEvent) -> Option<Seat> {
        event.seat()
    }

    fn outcome(state: &NarutoState) -> Option<Outcome> {
        state.result.clone()
    }

    fn position(state: &NarutoState) -> Position {
        let (phase, step) =
            if state.result.is_some() { ("over", "over") } else { (state.step.phase(), state.step.name()) };
        Position { turn: state.turn, phase, step, active: state.attacker, awaited: Self::awaited(state) }
    }

    fn awaited(state: &NarutoState) -> Vec<Seat> {
        use events::Step;
        if state.result.is_some() {
            return vec![];
        }
        let both = vec![0, 1];
        match (state.step, state.attacker) {
            // Mulligans, the jutsu exchange and the hand check involve both players.
            (Step::Setup | Step::Jutsu | Step::HandCheck, _) | (_, None) => both,
            (Step::Block, Some(a)) => vec![NarutoState::opponent(a)],
            (_, Some(a)) => vec![a],
        }
    }

    fn view(state: &NarutoState, viewer: Viewer) -> BoardView {
        view::view(state, viewer)
    }

    fn describe(state: &NarutoState, event: &NarutoEvent, viewer: Viewer) -> String {
        view::describe(state, event, viewer)
    }

    fn coverage() -> Vec<RuleCoverage> {
        coverage::coverage()
    }

    fn ledger(state: &NarutoState) -> &CommitmentLedger {
        &state.ledger
    }

    fn ledger_mut(state: &mut NarutoState) -> &mut CommitmentLedger {
        &mut state.ledger
    }

    fn self_play_config(players: &[String], rng: &mut AgentRng) -> (NarutoConfig, AgentSecrets) {
        agent::self_play_config(players, rng)
    }

    fn agent_step(state: &NarutoState, secrets: &mut AgentSecrets, rng: &mut AgentRng) -> Option<NarutoEvent> {
        agent::agent_step(state, secrets, rng)
    }
}
