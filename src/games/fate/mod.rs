//! The Fate-style Masters/Servants multiplayer card game, digest §5, rule prefix `FATE`.
//!
//! [`FateRules`] implements [`crate::game::Game`] under each rules version: [`Fate`] (version 1,
//! as released), [`FateV2`] (a Command Spell's option 4 waives only the cost, so it cannot use an
//! effect of a Servant in Danger, FATE-EFF-2; and the escape hatches are held to the rules that
//! govern what they change, [`rules::validate_as`]), [`FateV3`] (a sealed card checked when its
//! seal opens), [`FateV4`] (every step the rules give a Master is an event of its own) and
//! [`FateV5`] (the newest: an owed defeat comes before any escape hatch, and the card taken from a
//! loser's hand is the held one). The module has the shape every game has:
//! - [`config`]: the stored header (Masters, decks, embedded card definitions, OPEN-point policies);
//! - [`catalog`]: the card file format users bring, deck lists, deck checks;
//! - [`events`]: the versioned, past-tense event enum;
//! - [`state`] and [`apply`]: the fold (total, no rule logic);
//! - [`rules`]: `validate`, citing digest rule IDs;
//! - [`view`]: redaction into a [`crate::game::BoardView`] and one-line descriptions;
//! - [`options`]: what a Master may record now, and the automatic steps kifu records itself;
//! - [`agent`]: random legal play for self-play;
//! - [`coverage`]: every `FATE-*` rule ID with how it is enforced (also `COVERAGE.md`).
//!
//! Conventions: 3 to 6 Masters by default (2 as a variant); card instances are `p{seat}-{index}`;
//! a turn has the steps of FATE-TURN ([`events::Step`]) and a battle the processes of FATE-BATTLE
//! ([`events::Process`]). The Active Master and the Master whose turn it is are tracked apart; the
//! turn order follows the `turn_order` policy (readings R1/R2 of FATE-PHASE-5).
//!
//! Automatic steps, recorded by kifu itself right after the action that makes them due
//! ([`options::automatic`]): `FirstActiveMasterChosen` once the deal is over (seat 0 under
//! `first_master=first-seat`, else the lot's result); a digital game's lot (`RandomPicked` from
//! the dice chain) once every Master revealed its link; `EncounterRolled` once the encounter die
//! is recorded; `RandomServantSelected` once its pick is recorded; `CardTakenFromHand` once a
//! blind pick is recorded (`hand_pick=blind`); from version 4, the steps of
//! [`state::FateState::owed_steps`] once an event makes them due. The other steps without a
//! choice (`TurnStarted`, the stand step, `ActiveMasterHandedOver`, `BattleServantsRevealed`, `BattleProcessEnded`,
//! `DamageDealt`, `BattleEnded`, a digital game's seeded dice) are one-tap options of the Master
//! who owes them, because a Command Spell or an effect may come first (FATE-CS-1, FATE-EFF-4).

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

pub use config::FateConfig;
pub use events::FateEvent;
pub use state::FateState;

/// The FATE ruleset under rules version `V`. Every released version stays behind its number (see
/// [`crate::game::versions`]), so a stored game replays and audits under its own rules. The
/// versions share every event, the fold and views; what a version changes is in
/// [`rules::validate_as`], and the options and agent offer only what their version's `validate`
/// accepts.
pub struct FateRules<const V: u32>;
/// Version 1, as released: the pinned fixtures and every game recorded before version 2 open,
/// replay and audit under it.
pub type Fate = FateRules<1>;
/// Version 2: Command Spell option 4 on a Servant in Danger is refused (FATE-EFF-2: the spell
/// waives the cost, not the state), and the escape hatches are held to the rules: nothing changes
/// for a defeated Master (FATE-WIN-1), and Danger is for Servants only (FATE-STATE-3).
pub type FateV2 = FateRules<2>;
/// Version 3: version 2, with a sealed card checked when its
/// seal opens (a Servant's card of its slot's type, FATE-OPEN-2; a dealt or drawn card from that
/// deck, FATE-TURN-2), cited at the event that sealed it ([`rules::revealed_violations`]); and an
/// escape hatch no longer turns a Servant with a sealed card face up (KIFU-SEAL-1).
pub type FateV3 = FateRules<3>;
/// Version 4: version 3, with every step the rules give a
/// Master and that versions 1 to 3 made silently inside another event recorded as an event of its
/// own, so a table that forgot one can be recorded and cited: the stand step names the cards it
/// stands (`RestingCardsStood`, FATE-TURN-1), and kifu records the steps without a choice as
/// automatic steps ([`state::FateState::owed_steps`]): `ServantLeftDanger` after a handover
/// (FATE-PHASE-3), `PranaLost` and `WoundedServantsRested` in a battle (FATE-BATTLE-8/9),
/// `ServantsEndangered` or `MastersDefeated` at 0 prana (FATE-OPEN-13), `MastersDefeated` on the
/// third Command Spell (FATE-WIN-1), and `ActiveStatusPassed` from a defeated Active Master
/// (FATE-PHASE-4). An event that moves on while one is owed is cited
/// ([`rules::validate_as`]).
pub type FateV4 = FateRules<4>;
/// Version 5, the newest: what new games record. Version 4, with three more checks: an escape
/// hatch that changes a Master whose defeat is owed is refused (FATE-WIN-1: the defeat comes
/// first); a step recorded after one it leaves out is looked for among the steps owed once that
/// one is settled, so the table is cited once, for what it left out; and the winner's card taken
/// from the loser's hand is the held one (FATE-BATTLE-9; a sealed one under its own seal, or
/// KIFU-SEAL-1), a known card taken sealed checked when its seal opens, cited at the taking.
pub type FateV5 = FateRules<5>;

impl<const V: u32> FateRules<V> {
    /// What version `V` does: the one place the version number becomes behaviour.
    pub const RULES: rules_version::Rules = rules_version::rules(V);
}

impl<const V: u32> Game for FateRules<V> {
    const RULESET: &'static str = "fate";
    const RULESET_VERSION: u32 = V;
    /// 2 to 8 seats at most; the `masters` policy narrows it (3 to 6 by default, FATE-PHASE-1).
    const SEATS: SeatRange = SeatRange::new(2, 8);
    // Any Master may use a Command Spell at any moment (FATE-CS-1) and activate effects outside
    // its turn (FATE-EFF-4): those interject (see `interjects`); every other action must come
    // from an awaited Master, on top of the FATE rule IDs that check the turn order.
    const CHECKS_AWAITED: bool = true;
    const RECORDED_AS_EVENTS: &'static [&'static str] = &[
        "CardStateChanged",
        "PranaChanged",
        "StatModified",
        "SpecialMarkPlaced",
        "EffectResolved",
        "CommandSpellLost",
        "PranaChangedTogether",
    ];

    crate::forward_game!(config: FateConfig, event: FateEvent, state: FateState, rules: Self::RULES);

    fn new_config(request: &NewGame<'_>) -> Result<FateConfig, Vec<crate::game::ConfigProblem>> {
        let format = DeckFormat {
            seats: Self::SEATS,
            parse: catalog::parse_deck_list,
            check: |deck, cards| catalog::check_deck(deck, cards),
        };
        let config =
            config_from_request(request, catalog::Catalog::sample, format, FateConfig::new, FateConfig::set_policy)?;
        // The seat range is a policy (`masters`), so the players are checked once it is set.
        let problems = config.check();
        if !problems.is_empty() {
            return Err(problems.into_iter().map(crate::game::ConfigProblem::Setup).collect());
        }
        Ok(config)
    }

    /// FATE's rules name the parts of a turn steps (FATE-TURN-1..7) and the parts of a battle
    /// processes (a FATE "phase" is a whole rotation of turns, FATE-PHASE, a board fact). In a
    /// [`Position`] the part of the turn is the phase and the part within it the step: the turn's
    /// step is the phase, and in a battle its process is the step (else the step is the phase).
    fn position(state: &FateState) -> Position {
        let phase = state.step.name();
        let step = match state.battle.as_ref() {
            Some(b) if state.step == events::Step::Battle => b.process.name(),
            _ => phase,
        };
        Position { turn: state.turn, phase, step, active: state.turn_master, awaited: Self::awaited(state) }
    }

    fn awaited(state: &FateState) -> Vec<Seat> {
        state.may_act()
    }

    fn options(state: &FateState, seat: Seat) -> Option<Vec<crate::game::options::GameOption<FateEvent>>> {
        Some(options::options::<V>(state, seat))
    }

    fn automatic(state: &FateState) -> Option<FateEvent> {
        options::automatic(state, Self::RULES)
    }

    /// A Command Spell may be used at any moment (FATE-CS-1) and an effect activated outside
    /// one's turn (FATE-EFF-4), so any Master may also roll the first die of an activation's
    /// cost, or open a dice-chain round for it with its link. Every living Master always holds a
    /// Command Spell (losing the third defeats it), so awaiting these would await every Master
    /// always.
    fn interjects(state: &FateState, event: &FateEvent) -> bool {
        use crate::game::common::CommonEvent;
        match event {
            FateEvent::CommandSpellUsed { .. } | FateEvent::EffectActivated { .. } => true,
            FateEvent::Common(CommonEvent::DieRolled { .. }) => true,
            FateEvent::Common(CommonEvent::ChainLinkRevealed { key, .. }) => {
                state.ledger.chain_round_owed(key, &state.living()).is_empty()
            }
            _ => false,
        }
    }

    fn seat_eliminated(state: FateState, seat: Seat) -> FateState {
        apply::eliminate(state, seat, Self::RULES)
    }

    /// Version 3: a reveal checks the sealed cards it opens, citing the event that sealed them.
    fn revealed_violations(state: &FateState, event: &FateEvent) -> Vec<crate::game::LateViolation> {
        if Self::RULES.seals_checked_on_reveal {
            rules::revealed_violations(state, event, Self::RULES)
        } else {
            vec![]
        }
    }
}
