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
pub mod cards;
pub mod catalog;
pub mod check;
pub mod commit;
pub mod common;
pub mod dealer;
pub mod driver;
pub mod explore;
pub mod options;
pub mod policy;
pub mod reach;
pub mod record;
pub mod replay;
pub mod rules;
pub mod seats;
pub mod selfplay;
pub mod timeline;
pub mod versions;
pub mod view;
pub mod visibility;

use std::fmt::Debug;

use serde::{de::DeserializeOwned, Deserialize, Serialize};

pub use catalog::ConfigProblem;
pub use rules::{Enforcement, LateViolation, RuleCoverage, RuleId, ScenarioCount, Unrecordable, Violation};
pub use seats::{SeatRange, Seats};
pub use view::{BoardView, Viewer};
pub use visibility::Visibility;

/// The agent's random source: seeded, portable and deterministic.
pub type AgentRng = rand_chacha::ChaCha8Rng;

/// A player's place at the table: an index into the header's player list. Games have N players.
pub type Seat = u8;

/// The other seat of a two-player game. Games of more seats use [`next_seat`] or their own order.
pub fn opponent(seat: Seat) -> Seat {
    if seat == 0 {
        1
    } else {
        0
    }
}

/// The seat after `seat` in table order among `seats` seats, skipping those `skip` names
/// (eliminated seats); `None` when no other seat is left.
pub fn next_seat(seat: Seat, seats: usize, skip: &[Seat]) -> Option<Seat> {
    (1..=seats)
        .filter_map(|d| Seat::try_from((usize::from(seat) + d) % seats.max(1)).ok())
        .find(|s| !skip.contains(s) && *s != seat)
}

/// A seat's display name from the header's player list; `seat N` for a seat the list lacks, so a
/// malformed record still renders.
pub fn seat_name(names: &[String], seat: Seat) -> String {
    names.get(usize::from(seat)).cloned().unwrap_or_else(|| format!("seat {seat}"))
}

/// How a game ended, as the rules (or judges' game-loss rulings) decided it.
///
/// Not a stored format (it is recomputed by every fold), but it appears in JSON output.
/// Every seat of the game appears in exactly one place. The kinds stay distinct
/// (see [`Outcome::kind`]): a win, a shared win, a draw (one place holding every seat, nobody
/// eliminated) and "everyone lost" (every seat eliminated).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Outcome {
    /// The places, best first; seats in one place tie.
    pub placements: Vec<Vec<Seat>>,
    /// Seats knocked out by a loss (a loss condition or a judge's game loss), in the order they
    /// went out. An eliminated seat never counts as a winner, whatever its place.
    pub eliminated: Vec<Seat>,
    /// Why the game ended, in a few words, citing the rule ID where there is one (e.g. "NAR-WIN-2: 10 battle rewards").
    pub reason: String,
}

/// The kind of an [`Outcome`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum OutcomeKind {
    /// One seat placed first.
    Won,
    /// Several seats, not all of them, share first place.
    SharedWin,
    /// Every seat shares first place and nobody was eliminated.
    Draw,
    /// Every seat was eliminated.
    EveryoneLost,
}

impl Outcome {
    /// `winner` won; the other seats of `seats` share second place.
    pub fn won(winner: Seat, seats: usize, reason: impl Into<String>) -> Outcome {
        let rest: Vec<Seat> = all_seats(seats).filter(|s| *s != winner).collect();
        let mut placements = vec![vec![winner]];
        if !rest.is_empty() {
            placements.push(rest);
        }
        Outcome { placements, eliminated: vec![], reason: reason.into() }
    }

    /// Every one of `seats` seats shares first place.
    pub fn draw(seats: usize, reason: impl Into<String>) -> Outcome {
        Outcome { placements: vec![all_seats(seats).collect()], eliminated: vec![], reason: reason.into() }
    }

    /// Every one of `seats` seats lost.
    pub fn everyone_lost(seats: usize, reason: impl Into<String>) -> Outcome {
        Outcome {
            placements: vec![all_seats(seats).collect()],
            eliminated: all_seats(seats).collect(),
            reason: reason.into(),
        }
    }

    /// Every seat that appears in the outcome.
    pub fn seats(&self) -> usize {
        self.placements.iter().map(Vec::len).sum()
    }

    pub fn kind(&self) -> OutcomeKind {
        let total = self.seats();
        let first = self.placements.first().map_or(0, Vec::len);
        if total > 0 && self.placements.iter().flatten().all(|s| self.eliminated.contains(s)) {
            OutcomeKind::EveryoneLost
        } else if first == total {
            OutcomeKind::Draw
        } else if first > 1 {
            OutcomeKind::SharedWin
        } else {
            OutcomeKind::Won
        }
    }

    /// The seats that won: first place, unless the game is a draw or everyone lost. An
    /// eliminated seat is never a winner.
    pub fn winners(&self) -> Vec<Seat> {
        match self.kind() {
            OutcomeKind::Draw | OutcomeKind::EveryoneLost => vec![],
            _ => self
                .placements
                .first()
                .map(|p| p.iter().copied().filter(|s| !self.eliminated.contains(s)).collect())
                .unwrap_or_default(),
        }
    }

    /// The result in a few words with the players' names: "alice won", "draw", "everyone lost",
    /// "alice, bob share the win"; with three or more seats, the places follow.
    pub fn headline(&self, names: &[String]) -> String {
        let name = |s: &Seat| seat_name(names, *s);
        let list = |seats: &[Seat]| seats.iter().map(name).collect::<Vec<_>>().join(", ");
        let head = match self.kind() {
            OutcomeKind::Won => format!("{} won", list(&self.winners())),
            OutcomeKind::SharedWin => format!("{} share the win", list(&self.winners())),
            OutcomeKind::Draw => "draw".to_string(),
            OutcomeKind::EveryoneLost => "everyone lost".to_string(),
        };
        if self.seats() <= 2 {
            return head;
        }
        let places: Vec<String> = self
            .placements
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let out = p.iter().filter(|s| self.eliminated.contains(s)).count();
                let mark = if out == p.len() { " (out)" } else { "" };
                format!("{}. {}{mark}", i + 1, list(p))
            })
            .collect();
        format!("{head}; {}", places.join("; "))
    }

    /// The place (0 = first) of `seat`, if it appears.
    pub fn place_of(&self, seat: Seat) -> Option<usize> {
        self.placements.iter().position(|p| p.contains(&seat))
    }

    /// This outcome with `lost` (in the order they went out) eliminated: they leave their places
    /// and take the last places, the last one out placing highest among them.
    pub fn with_eliminated(mut self, lost: &[Seat]) -> Outcome {
        for p in &mut self.placements {
            p.retain(|s| !lost.contains(s));
        }
        self.placements.retain(|p| !p.is_empty());
        for s in lost.iter().rev() {
            self.placements.push(vec![*s]);
        }
        for s in lost {
            if !self.eliminated.contains(s) {
                self.eliminated.push(*s);
            }
        }
        self
    }
}

fn all_seats(seats: usize) -> impl Iterator<Item = Seat> {
    (0..seats).filter_map(|s| Seat::try_from(s).ok())
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
    /// The seat whose turn it is (the attacker in Naruto, the turn player in FATE), if any.
    pub active: Option<Seat>,
    /// Who may act now ([`Game::awaited`]): the blocker in a block step, the seat holding
    /// priority on a stack, every seat owing a simultaneous choice or a link of an open reveal
    /// round, FATE's Active Master when it hands the status over, the seat an automatic step is
    /// recorded for (the incoming player of a turn handover). Empty when the game is over or
    /// only automatic steps recorded for no seat are due.
    pub awaited: Vec<Seat>,
}

/// A game: the rules as pure functions over plain types.
///
/// Architecture invariant: `apply` is total and holds no rule logic; `validate` holds all of it.
/// Nothing here does IO, reads the clock or draws randomness except through parameters.
pub trait Game: 'static {
    /// Stable ruleset name recorded in every game stream's header (e.g. `"naruto"`).
    const RULESET: &'static str;
    /// Bumped when the rules code changes the meaning of recorded events. A released version's
    /// rules stay in the build behind their number (see [`versions`]), so a game recorded under
    /// an older version still opens, replays and audits under its own rules.
    const RULESET_VERSION: u32;
    /// How many seats the game seats (checked once, by [`rules::check_seats`]).
    const SEATS: SeatRange;
    /// Whether the recorder refuses an action by a seat that [`Game::awaited`] does not name
    /// (`KIFU-TURN-1`). New games and new rules versions say `true`; version 1 of Naruto and
    /// Vanguard predates the query and checks turn order with its own rule IDs only.
    const CHECKS_AWAITED: bool;
    /// The kinds of event ([`reach::event_kind`]) a table records as events rather than as a
    /// seat's option: the escape hatches that say in free words what card text did (digest §0.3),
    /// table talk, who watched. A judge or the table enters them through the events API; the
    /// common escape hatches ([`reach::COMMON_AS_EVENTS`]) are added for every game.
    const RECORDED_AS_EVENTS: &'static [&'static str] = &[];

    /// The header configuration: players, registered decks (with the card definitions they use,
    /// so a replay never depends on an external catalog) and the policy chosen for each OPEN point.
    /// Stored postcard-encoded in the stream header, so it is a stored format: never add fields,
    /// add a new versioned variant instead.
    type Config: Serialize + DeserializeOwned + Clone + Debug + Send + Sync;
    /// The versioned event enum, named in the past tense. Stored postcard-encoded as the payload
    /// of a [`GameEntry`]. Only append variants; never reorder or remove them.
    type Event: Serialize + DeserializeOwned + Clone + PartialEq + Debug + schemars::JsonSchema + Send + Sync;
    /// The fold state. Deliberately not serializable: it is not a format. `Send + Sync` (like
    /// `Config` and `Event`) so an opened replay can be shared by the server's request handlers.
    type State: Clone + Debug + Send + Sync;

    /// The player names, in seat order.
    fn players(config: &Self::Config) -> Vec<String>;

    /// Builds a configuration from what a user brings on the command line: player names, deck
    /// lists (one text per seat, in the game's deck-list format), an optional card catalog (the
    /// game's sample catalog otherwise) and `KEY=VALUE` policies. Errors name the file line or
    /// the rule ID.
    fn new_config(request: &NewGame<'_>) -> Result<Self::Config, Vec<ConfigProblem>>;

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

    /// The violations of earlier events that `event` brings to light when applied to `state`
    /// (a sealed card revealed to lack what its owner assumed when declaring): each names the
    /// event that broke the rule, where the audit cites it. `event` itself stays legal (its own
    /// violations are [`Game::validate`]'s), so the table records the reveal as played. The fold
    /// keeps the sequence number it needs from [`commit::CommitmentLedger::seq`].
    fn revealed_violations(state: &Self::State, event: &Self::Event) -> Vec<LateViolation> {
        let _ = (state, event);
        Vec::new()
    }

    /// Applies an event. Total: never fails and holds no rule logic, so illegal events that a
    /// judge forced into the log still fold.
    fn apply(state: Self::State, event: &Self::Event) -> Self::State;

    /// The seat the event is performed by, if it is a player's action (used to check the envelope's
    /// actor). Events that carry no seat (automatic steps, fight results) return `None`.
    fn acting_seat(event: &Self::Event) -> Option<Seat>;

    /// The outcome once the rules have ended the game.
    fn outcome(state: &Self::State) -> Option<Outcome>;

    /// Where the state stands: turn, phase, the seat whose turn it is, and who may act
    /// (`awaited: Self::awaited(state)`).
    fn position(state: &Self::State) -> Position;

    /// The seats the game waits for now ("who may act"): see [`Position::awaited`]. Seats a judge
    /// eliminated are removed by the machinery. Every event an agent plays has its acting seat
    /// here (self-play enforces it), unless the event [interjects](Game::interjects). An automatic
    /// step that is recorded for a seat (a turn handover naming the incoming player) awaits that
    /// seat: who "may act" is the seat the event is recorded for.
    fn awaited(state: &Self::State) -> Vec<Seat>;

    /// Whether `event` is an interjection: an action the rules let a seat take at any moment,
    /// whoever the game awaits (FATE's Command Spells, FATE-CS-1, and effects activated outside
    /// one's turn, FATE-EFF-4). Neither self-play nor the `KIFU-TURN-1` check hold an
    /// interjection to [`Game::awaited`]; the game's own rules check it. `state` is the state
    /// before the event. Without it, a game whose every seat may always interject would await
    /// every seat always, and "who may act" would say nothing.
    fn interjects(state: &Self::State, event: &Self::Event) -> bool {
        let _ = (state, event);
        false
    }

    /// A judge's game loss ([`Ruling::GameLossIssued`]) or the seat's own concession
    /// ([`GameEntry::Conceded`]) put `seat` out of the game. The hook lets
    /// a game of three or more go on without the seat (skip its turns, drop it from the awaited
    /// seats, take its cards off the table). The machinery places the seat last whatever the
    /// game does. Must be idempotent: after a backup the machinery calls it again for every
    /// game loss still standing. Two-seat games end at the first game loss and need not
    /// override it.
    fn seat_eliminated(state: Self::State, seat: Seat) -> Self::State {
        let _ = seat;
        state
    }

    /// The next event the rules fully determine from `state` (a step with no choice in it: a
    /// new round, the end the board shows), recorded by kifu itself right after the action that
    /// made it due, so a person never records it. `None` when a seat must act. The agent plays
    /// the same steps, so a self-played game and a game recorded at a table have one shape.
    fn automatic(state: &Self::State) -> Option<Self::Event> {
        let _ = state;
        None
    }

    /// The seed key kifu holds as the dealer of a game with this configuration ([`dealer`]):
    /// `Some` when its shuffles are digital and the game deals from a dealer's seed. `None` by
    /// default (a physical game, or a game whose randomness comes from the seats' own devices).
    fn dealer_key(config: &Self::Config) -> Option<&'static str> {
        let _ = config;
        None
    }

    /// The next event the dealer's seeds fully determine ([`dealer`]): the seed's commitment
    /// before anything else, a seeded shuffle, a draw no one chooses, the reveal once the game is
    /// over. Recorded by kifu as an automatic step when it holds `dealer`; the agents play it
    /// too. `None` by default.
    fn dealt(state: &Self::State, dealer: &commit::AgentSecrets) -> Option<Self::Event> {
        let _ = (state, dealer);
        None
    }

    /// The next `n` cards `seat` draws from its pile as `dealer` deals them (a
    /// [`options::ParamKind::Dealt`] parameter's values). `None` by default, or when the dealer
    /// does not hold the seed.
    fn deal_cards(state: &Self::State, seat: Seat, n: usize, dealer: &commit::AgentSecrets) -> Option<Vec<String>> {
        let _ = (state, seat, n, dealer);
        None
    }

    /// Whether `event` is the dealer's to record in a game dealt from a dealer's seed (a game
    /// whose [`dealer_key`](Game::dealer_key) is `Some`): a shuffle by the seed, a draw, a deal,
    /// the dealer's commitment or reveal. Such an event posted by a player is refused
    /// (`KIFU-DEAL-1`): no seat deals its own cards, it picks the option and the dealer fills
    /// the cards. `false` by default (a game kifu cannot deal).
    fn dealer_deals(event: &Self::Event) -> bool {
        let _ = event;
        false
    }

    /// The actions `seat` may record now ([`options`]): every one validates clean, and none
    /// names what the seat may not see (its labels and concerns are written from the seat's
    /// view). `None` while the game has no options table yet: its actions are recorded as
    /// events, and the API says so.
    fn options(state: &Self::State, seat: Seat) -> Option<Vec<options::GameOption<Self::Event>>> {
        let _ = (state, seat);
        None
    }

    /// The board as `viewer` may see it. Architecture invariant: hidden information leaves the
    /// core only through this function.
    fn view(state: &Self::State, viewer: Viewer) -> BoardView;

    /// One line describing an event for logs and timelines, as `viewer` may see it (no hidden
    /// identities). `state` is the state *before* the event.
    fn describe(state: &Self::State, event: &Self::Event, viewer: Viewer) -> String;

    /// Every rule ID of the game's digest section, with whether and how it is enforced.
    fn coverage() -> Vec<RuleCoverage>;

    /// How many judge's scenarios each rule ID has (the generated `scenarios.tsv`).
    fn scenarios() -> Vec<ScenarioCount> {
        Vec::new()
    }

    /// The actions the rules give a player that a table still cannot record.
    fn unrecordable() -> &'static [Unrecordable] {
        &[]
    }

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
    /// A stored entry that does not decode as this game's event (a note an older build let
    /// `kifu append` write into the game), which the judge `judge` set aside by the
    /// [`Ruling::EntrySetAside`] at event `by`. Readers put it in place of the undecodable bytes,
    /// which stay in the log; it folds as nothing. A JSON-lines export writes it so the game
    /// imports again, and an import accepts it only with that ruling after it.
    SetAside { judge: String, by: u64 },
    /// The player at `seat` conceded: they lose the game, recorded with their own authority (only
    /// the seat's player records it, never a judge, who has [`Ruling::GameLossIssued`]). The seat
    /// is out as a game loss puts it out: with one seat left the game ends and that seat wins;
    /// in a pod the game goes on without it, and it takes the last place left.
    Conceded { seat: Seat },
}

/// The ruling a stored game entry carries, read without the game's event type (a tournament
/// counts the warnings and game losses given inside its games): postcard writes an enum's
/// variant index first, as a varint (`Ruled` is 2, one byte), then the variant's contents, so
/// in every game a `Ruled` entry is that byte followed by the postcard of its [`Ruling`].
pub fn ruling_in(payload: &[u8]) -> Option<Ruling> {
    match payload.split_first() {
        Some((2, rest)) => postcard::from_bytes(rest).ok(),
        _ => None,
    }
}

/// The stored payload of a `Ruled` entry, written without the game's event type (the inverse of
/// [`ruling_in`]): how `kifu game set-aside` records into a game that no longer decodes.
pub fn ruled_payload(ruling: &Ruling) -> Result<Vec<u8>, postcard::Error> {
    let mut out = vec![2];
    out.extend(postcard::to_stdvec(ruling)?);
    Ok(out)
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
    /// The stored entry at `seq`, which does not decode as this game's event, no longer counts:
    /// the repair of a stream an older build damaged (`kifu game set-aside`). The entry stays in
    /// the log; readers hold it as [`GameEntry::SetAside`].
    EntrySetAside { judge: String, seq: u64, note: String },
}

/// Checks every string a game's event carries (a free text such as Naruto's `EffectResolved`
/// description or Vanguard's chat, a card's name, a zone) against the note bound: each game's
/// events have their own fields, so they are read through their serialized form, once, for
/// every game alike. The error names the innermost field the string is in.
fn check_event_text<E: Serialize>(event: &E) -> Result<(), crate::log::limits::TooLong> {
    fn walk(v: &serde_json::Value, field: &str) -> Result<(), crate::log::limits::TooLong> {
        match v {
            serde_json::Value::String(s) => crate::log::limits::check_note(|| format!("the event's text ({field})"), s),
            serde_json::Value::Array(a) => a.iter().try_for_each(|x| walk(x, field)),
            serde_json::Value::Object(m) => m.iter().try_for_each(|(k, x)| {
                crate::log::limits::check_name(|| format!("a key in the event's {field}"), k)?;
                walk(x, k)
            }),
            _ => Ok(()),
        }
    }
    // An event that does not serialize to JSON has no text to bound here (its own encoding
    // fails where it is stored).
    match serde_json::to_value(event) {
        Ok(v) => walk(&v, "event"),
        Err(_) => Ok(()),
    }
}

impl<E: Serialize> GameEntry<E> {
    /// Checks the names and notes an entry carries against [`crate::log::limits`]: the judge who
    /// forced it or ruled, a ruling's rule ID and note, and every text a played event carries.
    /// Checked when an entry is recorded or imported, never when a stored one is folded (an
    /// earlier build's longer note still replays).
    pub fn check_text(&self) -> Result<(), crate::log::limits::TooLong> {
        use crate::log::limits::{check_name, check_note};
        match self {
            GameEntry::Played(e) | GameEntry::RecordedElsewhere(e) => check_event_text(e),
            GameEntry::Forced { judge, broke, event } => {
                check_name(|| "the forcing judge's name".into(), judge)?;
                broke.iter().try_for_each(|r| check_name(|| "a broken rule's ID".into(), r))?;
                check_event_text(event)
            }
            GameEntry::SetAside { judge, .. } => check_name(|| "the judge who set the entry aside".into(), judge),
            GameEntry::Conceded { .. } => Ok(()),
            GameEntry::Ruled(r) => {
                let (judge, rule, note) = match r {
                    Ruling::WarningIssued { judge, rule, note, .. }
                    | Ruling::GameLossIssued { judge, rule, note, .. } => (judge, rule.as_deref(), note),
                    Ruling::BackedUp { judge, note, .. }
                    | Ruling::NoteRecorded { judge, note, .. }
                    | Ruling::EntrySetAside { judge, note, .. } => (judge, None, note),
                };
                check_name(|| "the ruling judge's name".into(), judge)?;
                if let Some(rule) = rule {
                    check_name(|| "the ruling's rule ID".into(), rule)?;
                }
                check_note(|| "the ruling's note".into(), note)
            }
        }
    }
}

/// The [`Game`] methods every game module of the standard shape forwards to its modules, written
/// once, with the three types. Use inside `impl Game for MyGame { ... }`, after the constants; write
/// `new_config`, `position` and `awaited` by hand. The module must have `rules::validate`,
/// `apply::apply`, `view::{view, describe}`, `coverage::coverage`,
/// `agent::{self_play_config, agent_step}`; the config `v1().players` and `check()`; the state
/// `new(&config)`, `result` and `ledger`; the event `seat()`. A game with more than one rules
/// version passes its one version knob, `rules: Self::RULES` (the game's `rules_version::Rules`
/// of the version, see [`crate::rules_version!`]): `validate` then calls
/// `rules::validate_as(state, event, rules)`, `apply` calls `apply::apply_as(state, event, rules)`,
/// and the agent's two functions take the rules as their last argument. One
/// `impl<const V: u32> Game for MyGame<V>` serves every version, each reading the behaviours.
#[macro_export]
macro_rules! forward_game {
    (config: $config:ty, event: $event:ty, state: $state:ty $(, rules: $rules:expr)?) => {
        $crate::forward_game!(@rules config: $config, event: $event, state: $state $(, rules: $rules)?);

        fn self_play_config(
            players: &[String],
            rng: &mut $crate::game::AgentRng,
        ) -> ($config, $crate::game::commit::AgentSecrets) {
            agent::self_play_config(players, rng $(, $rules)?)
        }

        fn agent_step(
            state: &$state,
            secrets: &mut $crate::game::commit::AgentSecrets,
            rng: &mut $crate::game::AgentRng,
        ) -> Option<$event> {
            agent::agent_step(state, secrets, rng $(, $rules)?)
        }
    };
    (@validate $s:ident, $e:ident) => {
        rules::validate($s, $e)
    };
    (@validate $s:ident, $e:ident, $rules:expr) => {
        rules::validate_as($s, $e, $rules)
    };
    (@apply $s:ident, $e:ident) => {
        apply::apply($s, $e)
    };
    (@apply $s:ident, $e:ident, $rules:expr) => {
        apply::apply_as($s, $e, $rules)
    };
    (@rules config: $config:ty, event: $event:ty, state: $state:ty $(, rules: $rules:expr)?) => {
        type Config = $config;
        type Event = $event;
        type State = $state;

        fn players(config: &$config) -> Vec<String> {
            config.v1().players.clone()
        }

        fn setup(config: &$config) -> Result<$state, Vec<$crate::game::Violation>> {
            let problems = config.check();
            if problems.is_empty() {
                Ok(<$state>::new(config))
            } else {
                Err(problems)
            }
        }

        fn setup_as_recorded(
            config: &$config,
        ) -> Result<($state, Vec<$crate::game::Violation>), Vec<$crate::game::Violation>> {
            // A game recorded elsewhere: the state is built from whatever decks were registered,
            // and the deck findings go to the audit (at the setup).
            Ok((<$state>::new(config), config.check()))
        }

        fn validate(state: &$state, event: &$event) -> Vec<$crate::game::Violation> {
            $crate::forward_game!(@validate state, event $(, $rules)?)
        }

        fn apply(state: $state, event: &$event) -> $state {
            $crate::forward_game!(@apply state, event $(, $rules)?)
        }

        fn acting_seat(event: &$event) -> Option<$crate::game::Seat> {
            event.seat()
        }

        fn outcome(state: &$state) -> Option<$crate::game::Outcome> {
            state.result.clone()
        }

        fn view(state: &$state, viewer: $crate::game::Viewer) -> $crate::game::BoardView {
            view::view(state, viewer)
        }

        fn describe(state: &$state, event: &$event, viewer: $crate::game::Viewer) -> String {
            view::describe(state, event, viewer)
        }

        fn coverage() -> Vec<$crate::game::RuleCoverage> {
            coverage::coverage()
        }

        fn scenarios() -> Vec<$crate::game::ScenarioCount> {
            $crate::game::rules::parse_scenarios(coverage::SCENARIOS)
        }

        fn unrecordable() -> &'static [$crate::game::Unrecordable] {
            coverage::UNRECORDABLE
        }

        fn ledger(state: &$state) -> &$crate::game::commit::CommitmentLedger {
            &state.ledger
        }

        fn ledger_mut(state: &mut $state) -> &mut $crate::game::commit::CommitmentLedger {
            &mut state.ledger
        }
    };
}

/// The actor that records a game action: the acting seat's player, or the system.
pub fn actor_for<G: Game>(players: &[String], event: &G::Event) -> crate::log::envelope::Actor {
    use crate::log::envelope::Actor;
    match G::acting_seat(event).and_then(|s| players.get(usize::from(s))) {
        Some(name) => Actor::Player(name.clone()),
        None => Actor::System,
    }
}
