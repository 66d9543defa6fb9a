//! The game interface: the one shape every game module has, and the machinery written once for all games.
//!
//! A game is a set of pure functions over plain types (see [`Game`]). The recorder, replay,
//! audit, views and the CLI are written once against this trait; no game knows about storage.
//!
//! Shape of a game module (`src/games/<name>/`): `events` (the versioned, past-tense event enum),
//! `state` (the fold state), `rules` (`validate`, with rule IDs from the digest), `apply` (total,
//! no rule logic), `view` (redaction into a [`view::BoardView`]), `agent` (random legal play) and
//! `catalog` (the card file format).

pub mod audit;
pub mod catalog;
pub mod commit;
pub mod driver;
pub mod record;
pub mod replay;
pub mod rules;
pub mod selfplay;
pub mod view;

use std::fmt::Debug;

use serde::{de::DeserializeOwned, Deserialize, Serialize};

pub use rules::{Enforcement, RuleCoverage, RuleId, Violation};
pub use view::{BoardView, Viewer};

/// The agent's random source: seeded, portable and deterministic.
pub type AgentRng = rand_chacha::ChaCha8Rng;

/// A player's place at the table: an index into the header's player list. Games have N players.
pub type Seat = u8;

/// The other seat of a two-player game.
pub fn opponent(seat: Seat) -> Seat {
    if seat == 0 {
        1
    } else {
        0
    }
}

/// A seat's display name from the header's player list; `seat N` for a seat the list lacks, so a
/// malformed record still renders.
pub fn seat_name(names: &[String], seat: Seat) -> String {
    names.get(usize::from(seat)).cloned().unwrap_or_else(|| format!("seat {seat}"))
}

/// How a game ended, as the rules (or a judge's game-loss ruling) decided it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Outcome {
    /// The winning seats. Empty means a draw; in a game of three or more, several may share a win.
    pub winners: Vec<Seat>,
    /// Why the game ended, in a few words, citing the rule ID where there is one (e.g. "NAR-WIN-2: 10 battle rewards").
    pub reason: String,
}

/// Where a state stands in the game, for seeking ("jump to turn 5, phase battle") and for display.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Position {
    /// Turn number, starting at 1 for the first turn; 0 before the first turn (setup, mulligans).
    pub turn: u32,
    /// The phase, lowercase and stable (e.g. "mission", "battle", "end").
    pub phase: &'static str,
    /// The step within the phase (e.g. "attack", "block" in Naruto's battle phase); the phase
    /// again for games whose phases have no steps. Seeking by phase matches either.
    pub step: &'static str,
    /// The seat whose turn it is (the attacker in Naruto, the Active Master in FATE), if any.
    pub active: Option<Seat>,
}

/// A game: the rules as pure functions over plain types.
///
/// Architecture invariant: `apply` is total and holds no rule logic; `validate` holds all of it.
/// Nothing here does IO, reads the clock or draws randomness except through parameters.
pub trait Game: 'static {
    /// Stable ruleset name recorded in every game stream's header (e.g. `"naruto"`).
    const RULESET: &'static str;
    /// Bumped when the rules code changes the meaning of recorded events.
    const RULESET_VERSION: u32;

    /// The header configuration: players, registered decks (with the card definitions they use,
    /// so a replay never depends on an external catalog) and the policy chosen for each OPEN point.
    /// Stored postcard-encoded in the stream header, so it is a stored format: never add fields,
    /// add a new versioned variant instead.
    type Config: Serialize + DeserializeOwned + Clone + Debug + Send + Sync;
    /// The versioned event enum, named in the past tense. Stored postcard-encoded as the payload
    /// of a [`GameEntry`]. Only append variants; never reorder or remove them.
    type Event: Serialize + DeserializeOwned + Clone + Debug + schemars::JsonSchema + Send + Sync;
    /// The fold state. Deliberately not serializable: it is not a format. `Send + Sync` (like
    /// `Config` and `Event`) so an opened replay can be shared by the server's request handlers.
    type State: Clone + Debug + Send + Sync;

    /// The player names, in seat order.
    fn players(config: &Self::Config) -> Vec<String>;

    /// Builds a configuration from what a user brings on the command line: player names, deck
    /// lists (one text per seat, in the game's deck-list format), an optional card catalog (the
    /// game's sample catalog otherwise) and `KEY=VALUE` policies. Errors name the file line or
    /// the rule ID.
    fn new_config(request: &NewGame<'_>) -> Result<Self::Config, Vec<String>>;

    /// Checks a configuration (deck construction rules etc.) and builds the initial state:
    /// an unvalidated setup becomes a validated position, or the list of what is wrong.
    fn setup(config: &Self::Config) -> Result<Self::State, Vec<Violation>>;

    /// The initial state of a game recorded elsewhere, whose configuration may break the setup
    /// rules (a registered deck a judge must rule on): the state and what it breaks. Games that
    /// cannot fold a broken setup keep the default, which refuses it like [`Game::setup`].
    fn setup_as_recorded(config: &Self::Config) -> Result<(Self::State, Vec<Violation>), Vec<Violation>> {
        Self::setup(config).map(|s| (s, Vec::new()))
    }

    /// Every rule the event would break if applied to `state`. Empty means legal.
    fn validate(state: &Self::State, event: &Self::Event) -> Vec<Violation>;

    /// Applies an event. Total: never fails and holds no rule logic, so illegal events that a
    /// judge forced into the log still fold.
    fn apply(state: Self::State, event: &Self::Event) -> Self::State;

    /// The seat the event is performed by, if it is a player's action (used to check the envelope's
    /// actor). Events that carry no seat (automatic steps, fight results) return `None`.
    fn acting_seat(event: &Self::Event) -> Option<Seat>;

    /// The outcome once the rules have ended the game.
    fn outcome(state: &Self::State) -> Option<Outcome>;

    /// Where the state stands: turn, phase, active seat.
    fn position(state: &Self::State) -> Position;

    /// The board as `viewer` may see it. Architecture invariant: hidden information leaves the
    /// core only through this function.
    fn view(state: &Self::State, viewer: Viewer) -> BoardView;

    /// One line describing an event for logs and timelines, as `viewer` may see it (no hidden
    /// identities). `state` is the state *before* the event.
    fn describe(state: &Self::State, event: &Self::Event, viewer: Viewer) -> String;

    /// Every rule ID of the game's digest section, with whether and how it is enforced.
    fn coverage() -> Vec<RuleCoverage>;

    /// The commitments a game checks at audit time (sealed cards and shuffle seeds).
    fn ledger(state: &Self::State) -> &commit::CommitmentLedger;

    /// Mutable access to the ledger, so the generic fold can tell it the sequence number of the
    /// event about to be applied (`ledger_mut(&mut s).at(seq)`) before calling `apply`.
    fn ledger_mut(state: &mut Self::State) -> &mut commit::CommitmentLedger;

    /// A valid random configuration for self-play (decks drawn from the game's sample catalog,
    /// default policies), plus the dealer's secrets for a digital game with committed seeds.
    fn self_play_config(players: &[String], rng: &mut AgentRng) -> (Self::Config, commit::AgentSecrets);

    /// A random legal-play agent: the next event to record, or `None` when the game is over.
    /// Every event it returns must validate clean. Deterministic for a given `rng` state.
    /// `secrets` holds what the dealer of a digital game knows (its shuffle seeds), so the agent
    /// can draw the card a seeded shuffle put on top and reveal the seed at the end; the agent
    /// may also keep the salts of cards it sealed there, to reveal them later.
    fn agent_step(state: &Self::State, secrets: &mut commit::AgentSecrets, rng: &mut AgentRng) -> Option<Self::Event>;
}

/// What a user brings to create a game: see [`Game::new_config`].
#[derive(Clone, Debug)]
pub struct NewGame<'a> {
    pub players: &'a [String],
    /// One deck-list text per seat.
    pub decks: &'a [String],
    /// A card catalog text; `None` means the game's sample catalog.
    pub catalog: Option<&'a str>,
    pub policies: &'a [(String, String)],
}

/// The payload of every game stream event: a game action, a judge's forced entry, or a ruling.
/// This wrapper is what makes rulings, forced entries and backups work identically in every game.
///
/// Stored format: variants are only ever appended.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub enum GameEntry<E> {
    /// A game action that passed validation when it was recorded.
    Played(E),
    /// A game action a judge recorded although it broke rules; it is folded and flagged.
    Forced {
        /// The judge who forced it.
        judge: String,
        /// The rule IDs it broke when it was recorded.
        broke: Vec<String>,
        /// The action itself.
        event: E,
    },
    /// A judge's ruling.
    Ruled(Ruling),
    /// A game action recorded elsewhere (on paper, by another program) and imported as it was
    /// recorded (`kifu game import --as-recorded`): not validated at recording time. It folds
    /// like any action; the audit reports what it breaks, unresolved until a judge rules.
    RecordedElsewhere(E),
}

/// A judge's ruling. Rulings are events: history is never rewritten.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub enum Ruling {
    /// A warning to a player, optionally about the event at sequence `about`.
    WarningIssued { judge: String, seat: Seat, rule: Option<String>, about: Option<u64>, note: String },
    /// A game loss: the player loses the game, whatever the board says.
    GameLossIssued { judge: String, seat: Seat, rule: Option<String>, about: Option<u64>, note: String },
    /// A backup: the game continues from the state as it stood before event `to_seq`.
    /// Events from `to_seq` up to this ruling stay in the log but no longer count.
    BackedUp { judge: String, to_seq: u64, note: String },
    /// A note for the record, optionally about an event; resolves its findings when `about` is set.
    NoteRecorded { judge: String, about: Option<u64>, note: String },
}
