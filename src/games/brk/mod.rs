//! The Berserk-style game, digest §2, rule prefix `BRK`: the stack, interruption, blocking,
//! protection and hidden cards of rules 526–529, on a minimal skeleton of turns, cells, lives and
//! victory that is NOT from the seed (BRK-OPEN-1; see [`rules`]).
//!
//! [`Brk`] (rules version 1, as released) and [`BrkV2`] (version 2, the newest: its `validate`
//! also holds the escape hatches to the rules, [`rules::validate_as`]) implement
//! [`crate::game::Game`]. The module has the shape every game has:
//! - [`config`]: the stored header (players, squads, embedded card definitions, the policy for each
//!   OPEN point: `stack_order`, `priority`, `false_assumption`, `skeleton`);
//! - [`catalog`]: the card file format and the squad-list format;
//! - [`events`]: the versioned event enum; hidden identities are sealed;
//! - [`state`] and [`apply`]: the fold (total; it interrupts actions that became illegal, BRK-INT-5);
//! - [`rules`]: `validate`, citing `BRK-*` IDs;
//! - [`view`]: redaction into a [`crate::game::BoardView`] and one-line descriptions;
//! - [`options`]: what a seat may record now, and the automatic steps kifu records itself;
//! - [`agent`]: random legal play for self-play;
//! - [`coverage`]: every `BRK-*` rule ID with how it is enforced (also `COVERAGE.md`).
//!
//! Who may act: the priority holder (`BrkState::priority`), shown as a fact of every view.
//!
//! Automatic steps, recorded by kifu itself right after the action that makes them due
//! ([`options::automatic`]): `TurnStarted` (both squads deployed, or the last turn ended),
//! `MainPhaseEntered` (the Reveal subphase has nothing left to reveal), `GameActionPerformed`
//! (both players passed), `PaymentMade` and `EffectApplied` (an action left the stack), and
//! `GameEnded` (the skeleton's victory holds). Reveals are the controller's options: a sealed
//! identity is opened with the instance and salt only its device holds. Three transitions the
//! fold still makes inside another event (a revealed card's markers, opening at the turn start,
//! death at no lives) are listed in [`coverage::UNRECORDABLE`].

pub mod agent;
pub mod apply;
pub mod catalog;
pub mod config;
pub mod coverage;
pub mod events;
pub mod options;
pub mod rules;
pub mod state;
pub mod view;

use crate::game::catalog::{config_from_request, DeckFormat};
use crate::game::{Game, NewGame, Position, Seat, SeatRange};

pub use config::BrkConfig;
pub use events::BrkEvent;
pub use state::BrkState;

/// The Berserk-style ruleset, rules version 1 as released: the pinned fixtures and every game
/// recorded before version 2 open, replay and audit under it.
pub struct Brk;

/// Rules version 2, the newest: what new games record. It shares every event and the fold with
/// version 1 and adds checks to `validate` ([`rules::validate_as`]): the escape hatches are held
/// to the rules that govern what they change (a marker of a kind a face-up card is protected
/// from, BRK-PROT-1; markers, lives and opening only for cards in play, BRK-OPEN-1), and once
/// the skeleton's victory holds only the game's end may be recorded (BRK-OPEN-1).
pub struct BrkV2;

pub struct BrkV3;

/// The one `Game` implementation of both versions: `$rules` is the module whose `validate` the
/// version uses (the fold, views, options and agent are shared).
macro_rules! brk_game {
    ($game:ty, $version:expr $(, { $($extra:tt)* })?) => {
        impl Game for $game {
            const RULESET: &'static str = "brk";
            const RULESET_VERSION: u32 = $version;
            const SEATS: SeatRange = SeatRange::TWO;
            // Priority is also checked by BRK-STACK-3 (its cases name it); a reveal uses no stack
            // (BRK-HID-5), so it interjects rather than waiting for priority.
            const CHECKS_AWAITED: bool = true;
            const RECORDED_AS_EVENTS: &'static [&'static str] =
                &["CardOpened", "CardMoved", "MarkerPlaced", "LivesChanged"];

            crate::forward_game!(config: BrkConfig, event: BrkEvent, state: BrkState);

            fn new_config(request: &NewGame<'_>) -> Result<BrkConfig, Vec<crate::game::ConfigProblem>> {
                let format =
                    DeckFormat { seats: Self::SEATS, parse: catalog::parse_deck_list, check: catalog::check_deck };
                config_from_request(request, catalog::Catalog::sample, format, BrkConfig::new, BrkConfig::set_policy)
            }

            fn position(state: &BrkState) -> Position {
                let phase = if state.result.is_some() { "over" } else { state.phase.name() };
                // The skeleton's phases have no steps, so the step is the phase.
                Position { turn: state.turn, phase, step: phase, active: state.active, awaited: Self::awaited(state) }
            }

            /// Who may act: the priority holder in the main phase; otherwise whoever owes the next
            /// step (a reveal, a deployment, the active player's phase change).
            fn awaited(state: &BrkState) -> Vec<Seat> {
                state.awaited()
            }

            fn options(state: &BrkState, seat: Seat) -> Option<Vec<crate::game::options::GameOption<BrkEvent>>> {
                Some(options::options(state, seat))
            }

            fn automatic(state: &BrkState) -> Option<BrkEvent> {
                options::automatic(state)
            }

            /// A reveal uses no stack (BRK-HID-5): a controller may reveal its hidden card without
            /// holding priority; the rules check that the card is its own and the proof matches.
            fn interjects(_state: &BrkState, event: &BrkEvent) -> bool {
                matches!(event, BrkEvent::CardRevealed { .. })
            }

            $($($extra)*)?
        }
    };
}

brk_game!(Brk, 1);

/// A later rules version: the same modules, but `rules::validate` is that version's
/// (`rules::validate_as`), and any hook the version adds.
macro_rules! brk_version {
    ($module:ident, $game:ident, $version:literal $(, { $($extra:tt)* })?) => {
        mod $module {
            use super::{agent, apply, catalog, coverage, options, view, BrkConfig, BrkEvent, BrkState, $game};
            use crate::game::catalog::{config_from_request, DeckFormat};
            use crate::game::{Game, NewGame, Position, Seat, SeatRange};

            /// `validate` under this rules version (the name the game macro calls).
            mod rules {
                use super::super::{rules, BrkEvent, BrkState};

                pub fn validate(state: &BrkState, event: &BrkEvent) -> Vec<crate::game::Violation> {
                    rules::validate_as(state, event, $version)
                }
            }

            brk_game!($game, $version $(, { $($extra)* })?);
        }
    };
}

brk_version!(v2, BrkV2, 2);

brk_version!(v3, BrkV3, 3, {
    fn revealed_violations(state: &BrkState, event: &BrkEvent) -> Vec<crate::game::LateViolation> {
        super::rules::revealed_violations(state, event)
    }
});
