//! The Berserk-style game, digest §2, rule prefix `BRK`: the stack, interruption, blocking,
//! protection and hidden cards of rules 526–529, on a minimal skeleton of turns, cells, lives and
//! victory that is NOT from the seed (BRK-OPEN-1; see [`rules`]).
//!
//! [`Brk`] implements [`crate::game::Game`]. The module has the shape every game has:
//! - [`config`]: the stored header (players, squads, embedded card definitions, the policy for each
//!   OPEN point: `stack_order`, `priority`, `false_assumption`, `skeleton`);
//! - [`catalog`]: the card file format and the squad-list format;
//! - [`events`]: the versioned event enum; hidden identities are sealed;
//! - [`state`] and [`apply`]: the fold (total; it interrupts actions that became illegal, BRK-INT-5);
//! - [`rules`]: `validate`, citing `BRK-*` IDs;
//! - [`view`]: redaction into a [`crate::game::BoardView`] and one-line descriptions;
//! - [`agent`]: random legal play for self-play;
//! - [`coverage`]: every `BRK-*` rule ID with how it is enforced (also `COVERAGE.md`).
//!
//! Who may act: the priority holder (`BrkState::priority`), shown as a fact of every view.

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

pub use config::BrkConfig;
pub use events::BrkEvent;
pub use state::BrkState;

/// The Berserk-style ruleset.
pub struct Brk;

impl Game for Brk {
    const RULESET: &'static str = "brk";
    const RULESET_VERSION: u32 = 1;
    const SEATS: SeatRange = SeatRange::TWO;
    // Priority is checked by BRK-STACK-3 (its cases name it), and a reveal uses no stack
    // (BRK-HID-5): a controller may reveal without holding priority, which KIFU-TURN-1 would refuse.
    const CHECKS_AWAITED: bool = false;

    type Config = BrkConfig;
    type Event = BrkEvent;
    type State = BrkState;

    fn players(config: &BrkConfig) -> Vec<String> {
        config.v1().players.clone()
    }

    fn new_config(request: &NewGame<'_>) -> Result<BrkConfig, Vec<String>> {
        let format = DeckFormat { seats: Self::SEATS, parse: catalog::parse_deck_list, check: catalog::check_deck };
        let (catalog, decks) = read_new_game(request, catalog::sample, format)?;
        let mut config = BrkConfig::new(request.players.to_vec(), decks, &catalog)
            .map_err(|v| v.into_iter().map(|v| v.to_string()).collect::<Vec<_>>())?;
        for (key, value) in request.policies {
            config.set_policy(key, value).map_err(|e| vec![e])?;
        }
        Ok(config)
    }

    fn setup(config: &BrkConfig) -> Result<BrkState, Vec<Violation>> {
        let problems = config.check();
        if problems.is_empty() {
            Ok(BrkState::new(config))
        } else {
            Err(problems)
        }
    }

    fn validate(state: &BrkState, event: &BrkEvent) -> Vec<Violation> {
        rules::validate(state, event)
    }

    fn apply(state: BrkState, event: &BrkEvent) -> BrkState {
        apply::apply(state, event)
    }

    fn acting_seat(event: &BrkEvent) -> Option<Seat> {
        event.seat()
    }

    fn outcome(state: &BrkState) -> Option<Outcome> {
        state.result.clone()
    }

    fn position(state: &BrkState) -> Position {
        let phase = if state.result.is_some() { "over" } else { state.phase.name() };
        // The skeleton's phases have no steps, so the step is the phase.
        Position { turn: state.turn, phase, step: phase, active: state.active, awaited: Self::awaited(state) }
    }

    /// Who may act: the priority holder in the main phase; otherwise whoever owes the next step
    /// (a reveal, a deployment, the active player's phase change).
    fn awaited(state: &BrkState) -> Vec<Seat> {
        state.awaited()
    }

    fn view(state: &BrkState, viewer: Viewer) -> BoardView {
        view::view(state, viewer)
    }

    fn describe(state: &BrkState, event: &BrkEvent, viewer: Viewer) -> String {
        view::describe(state, event, viewer)
    }

    fn coverage() -> Vec<RuleCoverage> {
        coverage::coverage()
    }

    fn ledger(state: &BrkState) -> &CommitmentLedger {
        &state.ledger
    }

    fn ledger_mut(state: &mut BrkState) -> &mut CommitmentLedger {
        &mut state.ledger
    }

    fn self_play_config(players: &[String], rng: &mut AgentRng) -> (BrkConfig, AgentSecrets) {
        agent::self_play_config(players, rng)
    }

    fn agent_step(state: &BrkState, secrets: &mut AgentSecrets, rng: &mut AgentRng) -> Option<BrkEvent> {
        agent::agent_step(state, secrets, rng)
    }
}
