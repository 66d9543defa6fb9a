//! The Berserk-style game, digest §2, rule prefix `BRK`: the stack, interruption, blocking,
//! protection and hidden cards of rules 526–529, on a minimal skeleton of turns, cells, lives and
//! victory that is NOT from the seed (BRK-OPEN-1; see [`rules`]).
//!
//! [`BrkRules`] implements [`crate::game::Game`] under each rules version: [`Brk`] (version 1, as
//! released), [`BrkV2`] (its `validate` also holds the escape hatches to the rules,
//! [`rules::validate_as`]), [`BrkV3`] (a false assumption about one's own hidden card cited at
//! the declaration), [`BrkV4`] (the three steps the fold made inside other events are events of
//! their own, [`apply::apply_as`]) and [`BrkV5`] (the newest: a death left out is cited once, and
//! a dead card counts for nobody's victory). The module has the shape every game has:
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
//! identity is opened with the instance and salt only its device holds. From rules version 4 the
//! three transitions versions 1 to 3 fold inside another event are automatic steps of their own,
//! recorded before anything else once due ([`state::BrkState::owed_steps`]):
//! `MarkersPlacedOnReveal` (a revealed card's markers, BRK-HID-2), `CardsOpened` (the turn
//! start's opening, BRK-FRAG-6) and `CardsSentToGraveyard` (death at no lives, BRK-OPEN-1).

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

pub use config::BrkConfig;
pub use events::BrkEvent;
pub use state::BrkState;

/// The Berserk-style ruleset under rules version `V`. Every released version stays behind its
/// number (see [`crate::game::versions`]), so a stored game replays and audits under its own rules.
/// The versions share every event, views, options and agent; what a version changes is in
/// [`rules::validate_as`], for version 3 in [`rules::revealed_violations`] and for version 4 in
/// the fold, [`apply::apply_as`] (the steps it leaves owed are what [`options::automatic`] and the
/// agent record first; the earlier versions' fold never owes one), for version 5 in both (the
/// deaths left out, [`state::Owed::left_dead`], and the victory, [`rules::victory_as`]).
pub struct BrkRules<const V: u32>;
/// Version 1, as released: the pinned fixtures and every game recorded before version 2 open,
/// replay and audit under it.
pub type Brk = BrkRules<1>;
/// Version 2: the escape hatches are held to the rules that govern what they change (a marker of a
/// kind a face-up card is protected from, BRK-PROT-1; markers, lives and opening only for cards in
/// play, BRK-OPEN-1), and once the skeleton's victory holds only the game's end may be recorded
/// (BRK-OPEN-1).
pub type BrkV2 = BrkRules<2>;
/// Version 3: version 2, with a false assumption about one's own hidden card (BRK-HID-10) cited
/// at the declaration that made it, found when the card is revealed, instead of at the reveal.
pub type BrkV3 = BrkRules<3>;
/// Version 4: version 3, with the three steps its fold made
/// inside other events recorded as automatic steps of their own ([`apply::apply_as`]): a card
/// that started hidden gets its markers in `MarkersPlacedOnReveal` after its reveal (BRK-HID-2),
/// the active player's cards that acted open in `CardsOpened` after `TurnStarted` (BRK-FRAG-6,
/// BRK-OPEN-8), and cards with no lives left go to the graveyard in `CardsSentToGraveyard`
/// (BRK-OPEN-1). A table that moves on without one is held to its rule at the event that moved
/// on ([`rules::validate_as`]). As released it owes a death left out again after every later
/// change of lives (and cites it again), and counts a dead card left in play for the victory.
pub type BrkV4 = BrkRules<4>;
/// Version 5: version 4, with a death the table left out
/// remembered ([`state::Owed::left_dead`]): cited once, never owed again unless the card regains
/// lives, and a late `CardsSentToGraveyard` may still move it. A card with no lives left counts
/// for nobody in the skeleton's victory ([`rules::victory_as`]), so `GameEnded` may come while
/// its death is owed (the game's end leaves no step out).
pub type BrkV5 = BrkRules<5>;
/// Version 6, the newest: what new games record. Version 5, with a card revealed to act that has
/// no game action the rules accept (BRK-HID-4) holding nobody up: its controller may pass or end
/// the turn, which releases it ([`rules::can_act`]); version 5 demanded its action even then and
/// the game could go no further.
pub type BrkV6 = BrkRules<6>;

impl<const V: u32> BrkRules<V> {
    /// What version `V` does: the one place the version number becomes behaviour.
    pub const RULES: rules_version::Rules = rules_version::rules(V);
}

impl<const V: u32> Game for BrkRules<V> {
    const RULESET: &'static str = "brk";
    const RULESET_VERSION: u32 = V;
    const SEATS: SeatRange = SeatRange::TWO;
    // Priority is also checked by BRK-STACK-3 (its cases name it); a reveal uses no stack
    // (BRK-HID-5), so it interjects rather than waiting for priority.
    const CHECKS_AWAITED: bool = true;
    const RECORDED_AS_EVENTS: &'static [&'static str] = &["CardOpened", "CardMoved", "MarkerPlaced", "LivesChanged"];

    crate::forward_game!(config: BrkConfig, event: BrkEvent, state: BrkState, rules: Self::RULES);

    fn new_config(request: &NewGame<'_>) -> Result<BrkConfig, Vec<crate::game::ConfigProblem>> {
        let format = DeckFormat { seats: Self::SEATS, parse: catalog::parse_deck_list, check: catalog::check_deck };
        config_from_request(request, catalog::Catalog::sample, format, BrkConfig::new, BrkConfig::set_policy)
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

    fn options(state: &BrkState, seat: Seat) -> Option<Vec<crate::game::options::GameOption<BrkEvent>>> {
        Some(options::options::<V>(state, seat))
    }

    fn automatic(state: &BrkState) -> Option<BrkEvent> {
        options::automatic(state)
    }

    /// A reveal uses no stack (BRK-HID-5): a controller may reveal its hidden card without holding
    /// priority; the rules check that the card is its own and the proof matches.
    fn interjects(_state: &BrkState, event: &BrkEvent) -> bool {
        matches!(event, BrkEvent::CardRevealed { .. })
    }

    /// Version 3: a reveal brings a false assumption about the revealed card to light, cited at
    /// the declaration that made it (earlier versions cite it at the reveal, in `validate`).
    fn revealed_violations(state: &BrkState, event: &BrkEvent) -> Vec<crate::game::LateViolation> {
        if Self::RULES.false_assumption_at_declaration {
            rules::revealed_violations(state, event)
        } else {
            vec![]
        }
    }
}
