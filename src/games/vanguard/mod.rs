//! Cardfight!! Vanguard as played in the fan-made client, digest §4, rule prefixes `VG` (the
//! rules) and `VGC` (the client).
//!
//! [`Vanguard`] implements [`crate::game::Game`]. The module has the shape every game has:
//! - [`config`]: the stored header (players, main and G decks, embedded card definitions, the
//!   policy for each OPEN point of §4.4);
//! - [`catalog`]: the card file format, deck lists with `[main]`/`[g]` sections, VG-DECK checks;
//! - [`events`]: the versioned event enum: rules-level events and the client's manual operations;
//! - [`state`] and [`apply`]: the fold (total, no rule logic);
//! - [`rules`]: `validate`, citing `VG-*` and `VGC-*` IDs;
//! - [`view`]: redaction into a [`crate::game::BoardView`] and one-line descriptions;
//! - [`agent`]: random legal play for self-play, and [`agent::client_ops`], the same game as the
//!   client's manual operations;
//! - [`vgclog`]: the plain-text action-log format `kifu game import --from vgc-log` reads;
//! - [`coverage`]: every `VG-*` and `VGC-*` rule ID with how it is enforced (also `COVERAGE.md`).
//!
//! Manual operations and the audit: the client enforces almost nothing, so players moved cards
//! by hand. A [`events::ClientOp`] validates what the client enforces and the rules the operation
//! itself breaks; an imported client log keeps every line as recorded, and the audit names each
//! line's broken rule with its sequence number (see [`rules`]).

pub mod agent;
pub mod apply;
pub mod catalog;
pub mod config;
pub mod coverage;
pub mod events;
pub mod rules;
pub mod state;
pub mod vgclog;
pub mod view;

use crate::game::catalog::{read_new_game, DeckFormat};
use crate::game::commit::{AgentSecrets, CommitmentLedger};
use crate::game::{
    AgentRng, BoardView, Game, NewGame, Outcome, Position, RuleCoverage, Seat, SeatRange, Viewer, Violation,
};

pub use config::VanguardConfig;
pub use events::{ClientOp, VanguardEvent};
pub use state::VanguardState;

/// The Cardfight!! Vanguard ruleset.
pub struct Vanguard;

impl Game for Vanguard {
    const RULESET: &'static str = "vanguard";
    const RULESET_VERSION: u32 = 1;
    const SEATS: SeatRange = SeatRange::TWO;
    // Turn order is checked by the game's own rule IDs, which the pinned fixtures' findings name.
    const CHECKS_AWAITED: bool = false;

    type Config = VanguardConfig;
    type Event = VanguardEvent;
    type State = VanguardState;

    fn players(config: &VanguardConfig) -> Vec<String> {
        config.v1().players.clone()
    }

    fn new_config(request: &NewGame<'_>) -> Result<VanguardConfig, Vec<String>> {
        let format = DeckFormat { seats: Self::SEATS, parse: catalog::parse_deck_list, check: catalog::check_deck };
        let (catalog, decks) = read_new_game(request, catalog::Catalog::sample, format)?;
        let mut config = VanguardConfig::new(request.players.to_vec(), decks, &catalog)
            .map_err(|v| v.into_iter().map(|v| v.to_string()).collect::<Vec<_>>())?;
        for (key, value) in request.policies {
            config.set_policy(key, value).map_err(|e| vec![e])?;
        }
        Ok(config)
    }

    fn setup(config: &VanguardConfig) -> Result<VanguardState, Vec<Violation>> {
        let problems = config.check();
        if problems.is_empty() {
            Ok(VanguardState::new(config))
        } else {
            Err(problems)
        }
    }

    fn validate(state: &VanguardState, event: &VanguardEvent) -> Vec<Violation> {
        rules::validate(state, event)
    }

    fn apply(state: VanguardState, event: &VanguardEvent) -> VanguardState {
        apply::apply(state, event)
    }

    fn acting_seat(event: &VanguardEvent) -> Option<Seat> {
        event.seat()
    }

    fn outcome(state: &VanguardState) -> Option<Outcome> {
        state.result.clone()
    }

    fn position(state: &VanguardState) -> Position {
        let phase = if state.result.is_some() { "over" } else { state.phase.name() };
        // The digest's Vanguard phases have no named steps, so the step is the phase.
        Position { turn: state.turn, phase, step: phase, active: state.active, awaited: Self::awaited(state) }
    }

    fn awaited(state: &VanguardState) -> Vec<Seat> {
        if state.result.is_some() {
            return vec![];
        }
        match (state.active, &state.attack) {
            (None, _) => vec![0, 1],
            // An attack awaiting its hit: the defender guards.
            (Some(a), Some(at)) if at.hit.is_none() => vec![a, VanguardState::opponent(a)],
            (Some(a), _) => vec![a],
        }
    }

    fn view(state: &VanguardState, viewer: Viewer) -> BoardView {
        view::view(state, viewer)
    }

    fn describe(state: &VanguardState, event: &VanguardEvent, viewer: Viewer) -> String {
        view::describe(state, event, viewer)
    }

    fn coverage() -> Vec<RuleCoverage> {
        coverage::coverage()
    }

    fn ledger(state: &VanguardState) -> &CommitmentLedger {
        &state.ledger
    }

    fn ledger_mut(state: &mut VanguardState) -> &mut CommitmentLedger {
        &mut state.ledger
    }

    fn self_play_config(players: &[String], rng: &mut AgentRng) -> (VanguardConfig, AgentSecrets) {
        agent::self_play_config(players, rng)
    }

    fn agent_step(state: &VanguardState, secrets: &mut AgentSecrets, rng: &mut AgentRng) -> Option<VanguardEvent> {
        agent::agent_step(state, secrets, rng)
    }
}
