//! The Naruto Collectible Card Game (Bandai), digest §1, rule prefix `NAR`.
//!
//! [`Naruto`] implements [`crate::game::Game`]. The module has the shape every game has:
//! - [`config`]: the stored header (players, decks, embedded card definitions, OPEN-point policies);
//! - [`catalog`]: the card file format users bring, deck lists, deck-construction checks;
//! - [`events`]: the versioned, past-tense event enum;
//! - [`state`] and [`apply`]: the fold (total, no rule logic);
//! - [`rules`]: `validate`, citing digest rule IDs;
//! - [`view`]: redaction into a [`crate::game::BoardView`] and one-line descriptions;
//! - [`options`]: what a seat may record now, and the automatic steps kifu records itself;
//! - [`agent`]: random legal play for self-play;
//! - [`coverage`]: every `NAR-*` rule ID with how it is enforced (also `COVERAGE.md`).
//!
//! Conventions: card instances are `p{seat}-{index}` (seat's deck-list index, 0-based); teams
//! are named by their leader; the turn has the steps of NAR-TURN-1 ([`events::Step`]), and a
//! step's single action moves the game on (a draw, sending teams, ending the jutsu exchange,
//! returning teams, moving the marker) while `StepAdvanced` records every other transition.
//!
//! Rules versions ([`NarutoRules`]): version 1 ([`Naruto`]) is the game as released, with its own
//! `SeedCommitted`, `SeedRevealed` and `CardRevealed` events and turn order checked by `NAR-*` IDs
//! only; version 2 ([`NarutoV2`]) records the common events ([`events::CommonEvent`]), refuses a
//! seat the game does not await (`KIFU-TURN-1`) and self-plays with an even policy mix; version 3
//! ([`NarutoV3`]) is version 2 citing the most specific digest ID for a fight resolved wrongly
//! ([`rules::validate_as`]); version 4 ([`NarutoV4`]) holds the escape hatches to the zones and
//! values they change; version 5 ([`NarutoV5`]) folds differently ([`apply::apply_as`]): a played
//! mission and a used jutsu wait on the chain and go to chakra in automatic steps of their own;
//! version 6 ([`NarutoV6`]) cites an effect moving such a card under the chakra rules; version 7
//! ([`NarutoV7`], what new games record) offers a battle reward face down, naming no card. One code
//! path folds and checks every shape (what each version changed: [`rules_version::Rules`]).
//!
//! Options ([`options::options`]): every action a seat may record now, from its own view; a draw
//! (the opening hand, step A) takes the cards drawn as a parameter, as do hand
//! costs, chakra, discards, teams, leaders and blocks; the dealer's seed and sealed cards take a
//! secret parameter, in the shape of the version. Automatic steps ([`options::automatic`], which
//! the agent plays too): the first `TurnStarted` once both hands are kept and each next one after
//! the marker moved; step A without a choice (`StepAdvanced` when nothing is drawn, the
//! `WinnerDetermined` of `empty_deck_draw=lose`, the `CardDrawn` of a deck's one known card); the
//! end of step K once every reward and fight is recorded; `TeamsReturned`; step M's
//! `WinnerDetermined` or `StepAdvanced`; step N's `StepAdvanced` when nobody discards; and
//! `TurnMarkerAdvanced`. None is due while a chain is open. From version 5, once a chain
//! resolved, each of its missions and jutsu goes to chakra (`MissionMovedToChakra`,
//! `JutsuMovedToChakra`) before anything else.

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

pub use config::NarutoConfig;
pub use events::NarutoEvent;
pub use state::NarutoState;

/// The Naruto CCG ruleset under rules version `V`. Every released version stays behind its
/// number (see [`crate::game::versions`]), so a stored game replays and audits under its own rules.
///
/// The versions share every rule and every event; what versions 3 to 5 change in the checks is in
/// [`rules::validate_as`], what version 5 changes in the fold in [`apply::apply_as`] and
/// [`options::automatic`]; what version 2 changes is written here and in
/// [`agent`], once: it checks that every acting seat is awaited (`KIFU-TURN-1`), its agent records
/// the dealer's seed as the common [`events::CommonEvent`]s (version 1 as Naruto's own
/// `SeedCommitted` and `SeedRevealed`), and its self-play mixes every policy row
/// ([`agent::V2_MIX`] through [`crate::game::selfplay::mix_policies`]).
pub struct NarutoRules<const V: u32>;
/// Version 1, as released: the pinned fixtures and every game recorded before version 2.
pub type Naruto = NarutoRules<1>;
/// Version 2: turn order held by `KIFU-TURN-1`; the dealer's seed as the common events.
pub type NarutoV2 = NarutoRules<2>;
/// Version 3: version 2, citing the most specific digest ID for a fight resolved wrongly
/// ([`rules::validate_as`]: NAR-BSTAT-2, NAR-DMG-4, NAR-POWER-2).
pub type NarutoV3 = NarutoRules<3>;
/// Version 4: version 3, with the escape hatches held to the rules that govern what they
/// change: an effect moves into the village only ninja, clients and permanent missions
/// (NAR-ZONE-4) and into the battlefield only ninja (NAR-ZONE-5); a modifier changes a ninja in
/// play (NAR-POWER-2, KIFU-CARD-1).
pub type NarutoV4 = NarutoRules<4>;
/// Version 5: version 4, with a played mission's and a used
/// jutsu's move to chakra an automatic step of its own (`MissionMovedToChakra`,
/// `JutsuMovedToChakra`) once their chain resolved, not folded into `MissionPlayed` and
/// `JutsuUsed` before it ([`apply::apply_as`]); the card waits on the chain meanwhile. A table
/// that moves on without the move is held to NAR-MISSION-5 or NAR-JUTSU-3 at the event that
/// moved on ([`rules::validate_as`]). A permanent mission still goes into the village as it is
/// played (NAR-MISSION-6).
pub type NarutoV5 = NarutoRules<5>;
/// Version 6: version 5 (it folds alike), citing an effect's
/// `CardMoved` of a played mission or used jutsu, which waits in no zone, under the rule that sends
/// it to chakra (NAR-MISSION-5, NAR-JUTSU-3) where version 5 cites "no such card there"
/// (KIFU-CARD-1); its move into the chakra of the seat that played it, once its chain resolved, is
/// legal ([`rules::validate_as`]).
pub type NarutoV6 = NarutoRules<6>;
/// Version 7, the newest: what new games record. Version 6, with a battle reward offered and
/// recorded as the taker sees it, the top cards of the opponent's deck face down (NAR-ZONE-1),
/// where version 6's picker listed the opponent's deck by name (`Rules::blind_rewards`).
pub type NarutoV7 = NarutoRules<7>;

impl<const V: u32> NarutoRules<V> {
    /// What version `V` does: the one place the version number becomes behaviour.
    pub const RULES: rules_version::Rules = rules_version::rules(V);
}

impl<const V: u32> Game for NarutoRules<V> {
    const RULESET: &'static str = "naruto";
    const RULESET_VERSION: u32 = V;
    const SEATS: SeatRange = SeatRange::TWO;
    const CHECKS_AWAITED: bool = Self::RULES.checks_awaited;
    const RECORDED_AS_EVENTS: &'static [&'static str] = &["CardMoved", "EffectResolved", "ModifierApplied"];

    crate::forward_game!(config: NarutoConfig, event: NarutoEvent, state: NarutoState, rules: Self::RULES);

    fn new_config(request: &NewGame<'_>) -> Result<NarutoConfig, Vec<crate::game::ConfigProblem>> {
        let format = DeckFormat {
            seats: Self::SEATS,
            parse: catalog::parse_deck_list,
            // check_deck takes a slice; the closure adapts it to the parsed Vec.
            check: |deck, cards| catalog::check_deck(deck, cards),
        };
        config_from_request(
            request,
            catalog::Catalog::sample,
            format,
            |players, decks, catalog| NarutoConfig::new(players, decks, catalog, config::ShuffleMode::Physical),
            NarutoConfig::set_policy,
        )
    }

    fn position(state: &NarutoState) -> Position {
        let (phase, step) =
            if state.result.is_some() { ("over", "over") } else { (state.step.phase(), state.step.name()) };
        Position { turn: state.turn, phase, step, active: state.attacker, awaited: Self::awaited(state) }
    }

    fn options(state: &NarutoState, seat: Seat) -> Option<Vec<crate::game::options::GameOption<NarutoEvent>>> {
        Some(options::options::<V>(state, seat))
    }

    fn automatic(state: &NarutoState) -> Option<NarutoEvent> {
        options::automatic(state, Self::RULES)
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
            // The attacker's missions, and the blocker's counter mission while it may play one.
            (Step::Mission, Some(_)) if state.counter_mission_open() => both,
            // The block, and the next turn (its start is recorded for the incoming attacker).
            (Step::Block | Step::TurnEnded, Some(a)) => vec![crate::game::opponent(a)],
            (_, Some(a)) => vec![a],
        }
    }
}
