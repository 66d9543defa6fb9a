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
//! - [`options`]: what a seat may record now, and the automatic steps kifu records itself;
//! - [`agent`]: random legal play for self-play (the automatic steps through
//!   [`options::automatic`]), and [`agent::client_ops`], the same game as the client's manual
//!   operations;
//! - [`vgclog`]: the plain-text action-log format `kifu game import --from vgc-log` reads;
//! - [`coverage`]: every `VG-*` and `VGC-*` rule ID with how it is enforced (also `COVERAGE.md`).
//!
//! Options and automatic steps ([`options`]): a seat's options are what the game awaits of it
//! (the setup, its turn, an attack, a damage check, a revealed trigger), each card off the top of
//! a deck as a card parameter listing the seat's own deck (the table is physical). The automatic
//! steps ([`options::automatic`]) are `GameEnded` (a loss the board shows), `VanguardsRevealed`
//! once both players redrew, `TurnStarted` (the first turn, and the turn handed over after the
//! end phase), `PhaseEntered` of the draw phase after the stand phase and of the phases with
//! nothing to choose (no grade assist, ride or stride possible), and `BattleEnded` once an attack
//! is resolved and its damage checked. Version 1 also offers the client's manual operations
//! ([`options::client_options`]): its games are the client's logs.
//!
//! Manual operations and the audit: the client enforces almost nothing, so players moved cards
//! by hand. A [`events::ClientOp`] validates what the client enforces and the rules the operation
//! itself breaks; an imported client log keeps every line as recorded, and the audit names each
//! line's broken rule with its sequence number (see [`rules`]).
//!
//! Rules versions ([`VanguardRules`]): version 1 ([`Vanguard`]) is the game as released, turn
//! order checked by `VG-*` IDs only; version 2 ([`VanguardV2`]) also refuses a seat the game
//! does not await (`KIFU-TURN-1`; a chat line interjects); version 3 ([`VanguardV3`]) also cites
//! the most specific digest ID where the earlier versions cite a general one
//! ([`rules::validate_as`]); version 4 ([`VanguardV4`]) records the stand, the clean-up and a
//! battle's retirements as steps of their own; version 5 ([`VanguardV5`], what new games record)
//! also a displaced occupant's retirement, a deleted heart turned face up and a legion mate moved
//! to the soul ([`apply::apply_as`], [`state::VanguardState::owed_steps`]). All record the common
//! events ([`events::CommonEvent`], appended last) and share every event, fold and agent. The cards are the shared registry
//! ([`crate::game::cards::Cards`]) over Vanguard's main-and-G deck lists.

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
pub mod vgclog;
pub mod view;

use crate::game::catalog::{config_from_request, DeckFormat};
use crate::game::{Game, NewGame, Position, Seat, SeatRange};

pub use config::VanguardConfig;
pub use events::{ClientOp, VanguardEvent};
pub use state::VanguardState;

/// The Cardfight!! Vanguard ruleset under rules version `V`. Every released version stays behind
/// its number (see [`crate::game::versions`]), so a stored game replays and audits under its own
/// rules. The versions share every event, fold and agent; version 2 also refuses an action by a
/// seat the game does not await (`KIFU-TURN-1`), which version 1's findings never named; version 3
/// cites the most specific digest ID where the earlier versions cite a general one
/// ([`rules::validate_as`]).
pub struct VanguardRules<const V: u32>;
/// Version 1, as released: the pinned fixtures, every game recorded before version 2, and the
/// client logs `kifu game import --from vgc-log` reads (the client never held a player to a turn).
pub type Vanguard = VanguardRules<1>;
/// Version 2: turn order held by `KIFU-TURN-1`.
pub type VanguardV2 = VanguardRules<2>;
/// Version 3: version 2 with the most specific rule IDs.
pub type VanguardV3 = VanguardRules<3>;
/// Version 4: the stand phase's stand (`UnitsStood`), the end
/// phase's clean-up (`TurnCleanedUp`) and a battle's retirements (`HitUnitRetired`,
/// `GuardiansRetired`) are automatic steps of their own, not folded into `TurnStarted`,
/// `PhaseEntered`, `AttackResolved` and `BattleEnded`, so a table that forgot one is on the record
/// and its turn or battle moving on is held to VG-STAND-1, VG-STRIDE-4, VG-END-2, VG-END-4,
/// VG-BATTLE-10 and VG-BATTLE-14.
pub type VanguardV4 = VanguardRules<4>;
/// Version 5, the newest: what new games record. The last three steps the fold made inside
/// another event are automatic steps of their own: the retirement of the unit a call displaced
/// from its circle (`OccupantRetired`, VG-ZONE-5), a deleted heart turned face up after a stride
/// (`HeartTurnedFaceUp`, VG-STRIDE-2) and the legion mate moved to the soul after a ride
/// (`LegionMateMovedToSoul`, VG-KW-8). The call, stride or ride only marks the step owed
/// ([`state::VanguardState::owed_steps`]); a game that moves on without it is cited once, at the
/// event that moved on.
pub type VanguardV5 = VanguardRules<5>;

impl<const V: u32> VanguardRules<V> {
    /// What version `V` does: the one place the version number becomes behaviour.
    pub const RULES: rules_version::Rules = rules_version::rules(V);
}

impl<const V: u32> Game for VanguardRules<V> {
    const RULESET: &'static str = "vanguard";
    const RULESET_VERSION: u32 = V;
    const SEATS: SeatRange = SeatRange::TWO;
    const CHECKS_AWAITED: bool = Self::RULES.checks_awaited;
    const RECORDED_AS_EVENTS: &'static [&'static str] =
        &["CardMoved", "EffectResolved", "ModifierApplied", "ChatMessage", "SpectatorJoined", "SpectatorLeft"];

    crate::forward_game!(config: VanguardConfig, event: VanguardEvent, state: VanguardState, rules: Self::RULES);

    fn new_config(request: &NewGame<'_>) -> Result<VanguardConfig, Vec<crate::game::ConfigProblem>> {
        let format = DeckFormat { seats: Self::SEATS, parse: catalog::parse_deck_list, check: catalog::check_deck };
        config_from_request(request, catalog::Catalog::sample, format, VanguardConfig::new, VanguardConfig::set_policy)
    }

    fn position(state: &VanguardState) -> Position {
        let phase = if state.result.is_some() { "over" } else { state.phase.name() };
        // The digest's Vanguard phases have no named steps, so the step is the phase.
        Position { turn: state.turn, phase, step: phase, active: state.active, awaited: Self::awaited(state) }
    }

    fn awaited(state: &VanguardState) -> Vec<Seat> {
        awaited(state)
    }

    /// What `seat` may record now: the rules' actions, and in version 1 (the fan client's
    /// games) the client's manual operations too.
    fn options(state: &VanguardState, seat: Seat) -> Option<Vec<crate::game::options::GameOption<VanguardEvent>>> {
        let mut o = options::options::<V>(state, seat);
        if !Self::RULES.rules_options_only {
            o.extend(options::client_options(state, seat));
        }
        Some(o)
    }

    fn automatic(state: &VanguardState) -> Option<VanguardEvent> {
        options::automatic(state, Self::RULES)
    }

    /// Talk around the table (a chat line) is allowed at any moment (VGC-UI-1), whoever
    /// the game awaits.
    fn interjects(_state: &VanguardState, event: &VanguardEvent) -> bool {
        event.is_table_talk()
    }
}

/// Who the game awaits (every version).
fn awaited(state: &VanguardState) -> Vec<Seat> {
    use crate::game::opponent;
    if state.result.is_some() {
        return vec![];
    }
    // A revealed trigger is resolved by the seat that checked it, before anything else (VG-BATTLE-8).
    if let Some(c) = state.check.as_ref().filter(|c| c.open()) {
        return vec![c.seat];
    }
    match (state.active, &state.attack) {
        (None, _) => vec![0, 1],
        // An attack awaiting its hit: the defender guards.
        (Some(a), Some(at)) if at.hit.is_none() => vec![a, opponent(a)],
        // A hit: the defender checks its damage.
        (Some(a), Some(at)) if at.hit == Some(true) && at.damage_left > 0 => vec![opponent(a)],
        // The end phase hands over: the next turn starts for (and is recorded by) the other player.
        (Some(a), None) if state.phase == events::Phase::End => vec![opponent(a)],
        (Some(a), _) => vec![a],
    }
}
