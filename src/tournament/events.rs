//! The tournament's stored records: the header configuration and the event enum.
//!
//! Stored format (postcard): variants are only ever appended, never reordered or removed, and a
//! stored struct never gains a field. Events are named in the past tense.

use serde::{Deserialize, Serialize};

use super::policy::Policy;
use crate::game::commit::{Commitment, Secret};
use crate::log::envelope::Timestamp;
use crate::log::hash::Hash32;
use crate::log::limits::{check_name, check_note, TooLong};

/// The ruleset name of tournament streams.
pub const RULESET: &str = "swiss";
/// Bumped when the meaning of recorded tournament events changes. v3: the Pokémon top cut by
/// attendance follows the Play! Pokémon handbook (top 4 for 9–20 players, top 8 from 21).
pub const RULESET_VERSION: u32 = 3;
/// Swiss v2 (unreleased builds before v3): as v3 but with the earlier Pokémon top-cut table
/// ([`crate::tournament::policy::Policy::rules_v2`]); its streams open and verify under it.
pub const RULESET_VERSION_2: u32 = 2;
/// The rules version kifu 0.1.0 recorded tournaments under. Its streams still open and verify
/// under the rules they were played by ([`crate::tournament::state::Tournament::released_0_1`]):
/// players tied on every tiebreaker ordered by name, a player without opponents at 0% rather than
/// the floor, the 0.1.0 MTR rounds table, Pokémon Op Win% not frozen at a drop, and `Finalized`
/// not checked against the rounds played.
pub const RULESET_VERSION_0_1: u32 = 1;

/// How many Swiss rounds a tournament plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub enum RoundsPlan {
    /// By the policy's attendance table, fixed when round 1 is paired.
    ByAttendance,
    Fixed(u32),
}

/// The header configuration of a tournament stream (postcard in `HeaderV1::config`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TournamentConfig {
    V1(ConfigV1),
}

/// Version 1 of the configuration. Never add a field: add `ConfigV2` instead.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ConfigV1 {
    pub name: String,
    /// The ruleset of the games played (e.g. `naruto`, `mtg`); linked game logs must use it.
    pub game: String,
    pub policy: Policy,
    pub rounds: RoundsPlan,
    /// Players in the single-elimination top cut (0, 2, 4, 8, 16, ...).
    pub top_cut: u32,
    /// `commit_seed(seed)`; `None` for tournaments imported with pairings made elsewhere.
    pub seed_commitment: Option<Commitment>,
}

impl TournamentConfig {
    pub fn v1(&self) -> &ConfigV1 {
        match self {
            TournamentConfig::V1(c) => c,
        }
    }
}

/// A table of a round: `a` is listed first (the higher-ranked player).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct PairedTable {
    pub table: u32,
    pub a: String,
    pub b: String,
}

/// A match score in games, from `a`'s side: W-L-D.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct MatchScore {
    pub a_wins: u32,
    pub b_wins: u32,
    pub draws: u32,
}

impl std::fmt::Display for MatchScore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}-{}-{}", self.a_wins, self.b_wins, self.draws)
    }
}

/// Text typed for a score or a penalty that is not one (bad input at the CLI or the server).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ParseError(pub String);

impl std::str::FromStr for MatchScore {
    type Err = ParseError;
    /// `W-L-D` or `W-L`.
    fn from_str(s: &str) -> Result<Self, ParseError> {
        let parts: Vec<&str> = s.trim().split('-').collect();
        // A bad score is quoted by its prefix only: a report may carry a megabyte of it.
        let quoted = || crate::log::quote_prefix(s);
        let num = |x: &str| {
            x.trim().parse::<u32>().map_err(|_| ParseError(format!("{:?} is not a score like 2-1-0", quoted())))
        };
        match parts.as_slice() {
            [w, l] => Ok(MatchScore { a_wins: num(w)?, b_wins: num(l)?, draws: 0 }),
            [w, l, d] => Ok(MatchScore { a_wins: num(w)?, b_wins: num(l)?, draws: num(d)? }),
            _ => Err(ParseError(format!("{:?} is not a score like 2-1-0 (wins-losses-draws, in games)", quoted()))),
        }
    }
}

/// A game played in a match: its stream id and the head hash it had when the result was reported.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct GameLink {
    pub stream: String,
    #[schemars(with = "String")]
    pub head: Hash32,
}

/// A penalty a judge issued.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub enum Penalty {
    Warning,
    GameLoss,
    MatchLoss,
    /// Also drops the player.
    Disqualification,
    /// Play! Pokémon's lightest penalty: recorded, not reported (appended for the Pokémon table).
    Caution,
    /// Play! Pokémon: the opponent needs two fewer Prize cards to win the game.
    DoublePrizeCard,
    /// Play! Pokémon: the opponent needs four fewer Prize cards to win the game.
    QuadPrizeCard,
}

impl Penalty {
    /// Severity, lightest first: caution, warning, double and quad prize card, game loss, match
    /// loss, disqualification. Upgrades move up it; a downgrade moves down.
    pub fn severity(self) -> u8 {
        match self {
            Penalty::Caution => 0,
            Penalty::Warning => 1,
            Penalty::DoublePrizeCard => 2,
            Penalty::QuadPrizeCard => 3,
            Penalty::GameLoss => 4,
            Penalty::MatchLoss => 5,
            Penalty::Disqualification => 6,
        }
    }

    /// The name the CLI takes and prints (`game-loss`).
    pub fn name(self) -> &'static str {
        match self {
            Penalty::Caution => "caution",
            Penalty::Warning => "warning",
            Penalty::DoublePrizeCard => "double-prize",
            Penalty::QuadPrizeCard => "quad-prize",
            Penalty::GameLoss => "game-loss",
            Penalty::MatchLoss => "match-loss",
            Penalty::Disqualification => "dq",
        }
    }
}

/// How a judge call ended. Stored format: variants are only appended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub enum CallOutcome {
    /// A ruling on the game (no penalty).
    Ruling,
    /// Nothing to fix.
    NoAction,
    /// A penalty (recorded as its own event, naming the call).
    Penalty,
}

impl std::str::FromStr for CallOutcome {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Self, ParseError> {
        Ok(match s.trim().to_lowercase().as_str() {
            "ruling" => CallOutcome::Ruling,
            "no-action" | "none" => CallOutcome::NoAction,
            "penalty" => CallOutcome::Penalty,
            other => return Err(ParseError(format!("unknown outcome {other:?}: use ruling, no-action or penalty"))),
        })
    }
}

/// What an appeal is about: a penalty (numbered 1, 2, ... in the order penalties were recorded)
/// or the ruling that closed a judge call (numbered by the order calls were opened).
/// Stored format: variants are only appended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub enum RulingRef {
    Penalty(u32),
    Call(u32),
}

impl std::fmt::Display for RulingRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RulingRef::Penalty(n) => write!(f, "penalty {n}"),
            RulingRef::Call(n) => write!(f, "the ruling of call {n}"),
        }
    }
}

/// The head judge's decision on an appeal: final. Stored format: variants are only appended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub enum AppealDecision {
    Upheld,
    /// The penalty or ruling no longer stands (a penalty stops counting, in the standings'
    /// checks and for upgrades).
    Overturned,
    /// A penalty replaced by this one (only for penalties).
    Changed(Penalty),
}

impl std::fmt::Display for AppealDecision {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AppealDecision::Upheld => write!(f, "upheld"),
            AppealDecision::Overturned => write!(f, "overturned"),
            AppealDecision::Changed(p) => write!(f, "changed to {}", p.name()),
        }
    }
}

impl std::str::FromStr for Penalty {
    type Err = ParseError;
    /// `warning`, `game-loss`, `match-loss` or `dq`; for Play! Pokémon also `caution`,
    /// `double-prize` and `quad-prize`.
    fn from_str(s: &str) -> Result<Self, ParseError> {
        Ok(match s.trim().to_lowercase().as_str() {
            "caution" => Penalty::Caution,
            "double-prize" | "double-prize-card" => Penalty::DoublePrizeCard,
            "quad-prize" | "quad-prize-card" => Penalty::QuadPrizeCard,
            "warning" => Penalty::Warning,
            "game-loss" | "gameloss" => Penalty::GameLoss,
            "match-loss" | "matchloss" => Penalty::MatchLoss,
            "dq" | "disqualification" => Penalty::Disqualification,
            other => {
                return Err(ParseError(format!(
                    "unknown penalty {other:?}: use warning, game-loss, match-loss or dq (Play! Pokémon also \
                     caution, double-prize, quad-prize)"
                )))
            }
        })
    }
}

/// Everything that happens in a tournament. Stored format: variants are only ever appended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub enum TournamentEvent {
    /// Always event 0; repeats the header configuration.
    Created {
        config: ConfigV1,
    },
    PlayerRegistered {
        player: String,
        deck: Option<String>,
    },
    /// A player joined after round 1 was paired; the rounds before `first_round` count as losses.
    LateEntered {
        player: String,
        deck: Option<String>,
        first_round: u32,
    },
    /// The player leaves after `after_round` and is never paired again.
    PlayerDropped {
        player: String,
        after_round: u32,
        reason: String,
    },
    /// A Swiss round. `round_seed = derive_key(ROUND_SEED_CONTEXT, seed ‖ u32le(round))` — `None`
    /// when the pairings were made elsewhere (imports) and cannot be re-derived.
    RoundPaired {
        round: u32,
        tables: Vec<PairedTable>,
        byes: Vec<String>,
        #[schemars(with = "Option<String>")]
        round_seed: Option<Secret>,
    },
    ResultReported {
        round: u32,
        table: u32,
        score: MatchScore,
        games: Vec<GameLink>,
    },
    ResultCorrected {
        round: u32,
        table: u32,
        score: MatchScore,
        games: Vec<GameLink>,
        judge: String,
        reason: String,
    },
    PenaltyIssued {
        player: String,
        round: u32,
        penalty: Penalty,
        judge: String,
        reason: String,
    },
    /// A single-elimination round of the top cut, seeded from the Swiss standings (1v8, 4v5, 2v7, 3v6).
    TopCutPaired {
        round: u32,
        tables: Vec<PairedTable>,
    },
    /// The pairing seed, checked against the commitment of `Created`.
    SeedRevealed {
        #[schemars(with = "String")]
        seed: Secret,
    },
    Finalized,
    /// The match format, recorded before round 1 is paired: every match is best of `best_of`
    /// games (1, 3 or 5) and scores that cannot happen in it are refused. Tournaments without
    /// this event (recorded before it existed, or imported) take any score.
    MatchFormatSet {
        best_of: u32,
    },
    /// The latest round is withdrawn before any result was reported in it; the next pairing
    /// re-pairs the same round number from the same seed with the standings as they are then.
    RoundVoided {
        round: u32,
        reason: String,
    },
    /// Finalized before the planned Swiss rounds or the top cut were finished, on a judge's say.
    FinalizedEarly {
        judge: String,
        reason: String,
    },
    /// A tournament created without a seed commitment (an import) commits to one before the first
    /// round kifu pairs; from then on every round carries its seed and is re-derivable.
    SeedCommitted {
        #[schemars(with = "String")]
        commitment: Commitment,
    },
    /// The planned number of Swiss rounds changed (e.g. an imported event continued in kifu).
    SwissRoundsSet {
        rounds: u32,
    },
    /// An organizer's or judge's ed25519 public key; from then on every closed round and the
    /// final root must carry a signature (see `sign`). The secret key never enters the log.
    SignerRecorded {
        signer: String,
        #[schemars(with = "String")]
        public_key: [u8; 32],
    },
    /// A recorded signer's ed25519 signature (64 bytes) over a checkpoint of this log.
    CheckpointSigned {
        signer: String,
        checkpoint: Checkpoint,
        #[serde(with = "serde_bytes")]
        #[schemars(with = "String")]
        signature: Vec<u8>,
    },
    /// The tournament plays a multiplayer game in pods (see [`super::pods`]), recorded before
    /// round 1 is paired: pods of `size` filled with pods of `size - 1`, and each game's points
    /// by placement: `sole_win` for a sole first place, `shared_win` for a shared one (a draw),
    /// `loss` otherwise. From then on rounds are `PodRoundPaired` and results `PodResultReported`.
    PodFormatSet {
        size: u32,
        sole_win: u32,
        shared_win: u32,
        loss: u32,
    },
    /// A round of pods: `pods[i]` is pod `i + 1`, its players in seat order (seat 0 first), as the
    /// round seed and the pod standings derive them (see [`super::pods`]).
    PodRoundPaired {
        round: u32,
        pods: Vec<Vec<String>>,
        #[schemars(with = "String")]
        round_seed: Secret,
    },
    /// A pod's result: each seat's place in the pod's seat order (1 is best; seats sharing a place
    /// share its number, the next place skips: 1, 2, 2, 4; everyone losing puts every seat last),
    /// and the game played (a pod plays one game; none when it was played off the record).
    PodResultReported {
        round: u32,
        pod: u32,
        places: Vec<u32>,
        games: Vec<GameLink>,
    },
    /// A judge's correction of a pod's reported result (as `ResultCorrected` for a table): the
    /// places and the game replace the reported ones; the judge and the reason are kept, and
    /// `verify` checks the corrected places against the linked game's outcome.
    PodResultCorrected {
        round: u32,
        pod: u32,
        places: Vec<u32>,
        games: Vec<GameLink>,
        judge: String,
        reason: String,
    },
    /// A player's deck list for the event, committed to by a salted hash
    /// ([`crate::game::commit::seal_choice`] under [`deck_list_key`]); the list itself stays with
    /// the organizer (`DIR/tournament-decks`, see [`super::ops::save_deck_list`]), private to
    /// the player and the event's judges. The latest registration of a player stands.
    DeckListRegistered {
        player: String,
        commitment: Commitment,
    },
    /// A judge call at a table (or pod) of a paired round, by `caller` (a player or a judge).
    /// Calls are numbered 1, 2, ... in the order they were opened; `at` comes from the recorder's
    /// clock (or is given when the call is entered afterwards). See [`super::judging`].
    JudgeCallOpened {
        round: u32,
        table: u32,
        caller: String,
        #[schemars(with = "i64")]
        at: Timestamp,
    },
    /// A judge took the call.
    JudgeCallTaken {
        call: u32,
        judge: String,
        #[schemars(with = "i64")]
        at: Timestamp,
    },
    /// The call went to the head judge (`judge`).
    JudgeCallEscalated {
        call: u32,
        judge: String,
        #[schemars(with = "i64")]
        at: Timestamp,
    },
    /// The call ended; the match's time extension is derived from how long it lasted.
    JudgeCallClosed {
        call: u32,
        judge: String,
        #[schemars(with = "i64")]
        at: Timestamp,
        outcome: CallOutcome,
        note: String,
    },
    /// A judge set the time extension a call gives (replacing the derived one), with a reason.
    TimeExtensionAdjusted {
        call: u32,
        minutes: u32,
        judge: String,
        reason: String,
    },
    /// The event's head judge: escalations go to them and only they decide appeals.
    HeadJudgeNamed {
        judge: String,
    },
    /// A penalty for an infraction of the policy's table ([`super::judging`]): `penalty` is the
    /// table's, upgraded for a repeat by the policy's rule, unless `downgrade` gives the reason
    /// for a lighter one. `call`: the judge call it came from, if any.
    InfractionPenalized {
        player: String,
        round: u32,
        infraction: String,
        penalty: Penalty,
        judge: String,
        reason: String,
        downgrade: Option<String>,
        call: Option<u32>,
    },
    /// `player` appealed a ruling to the head judge. Appeals are numbered 1, 2, ...
    AppealLodged {
        ruling: RulingRef,
        player: String,
        #[schemars(with = "i64")]
        at: Timestamp,
    },
    /// The head judge's decision on appeal `appeal`: final; the ruling it answers keeps its
    /// history, and what counts from then on is the decision.
    AppealDecided {
        appeal: u32,
        decision: AppealDecision,
        judge: String,
        reason: String,
    },
    /// An organizer or the head judge (`by`) changed the latest Swiss round's pairings by hand,
    /// before any result in it: `tables` and `byes` replace them. `verify` lists it with its
    /// author and reason; the round's `RoundPaired` is still checked against its seed.
    PairingOverridden {
        round: u32,
        tables: Vec<PairedTable>,
        byes: Vec<String>,
        by: String,
        reason: String,
    },
    /// A judge or organizer (`judge`) changed `player`'s registered list after the lock, with a
    /// reason: `commitment` seals the new list as `DeckListRegistered` does (kept privately).
    DeckListChanged {
        player: String,
        commitment: Commitment,
        judge: String,
        reason: String,
    },
    /// `judge` checked `player`'s deck against their registered list in round `round` (at
    /// `table`, if the check was at one). Deck checks are numbered 1, 2, ... The public log
    /// says only whether the deck matched and how many cards differ; which cards is a private
    /// note sealed by `DeckCheckResult::Differs::differences` (see [`deck_check_key`]).
    DeckChecked {
        round: u32,
        table: Option<u32>,
        #[schemars(with = "i64")]
        at: Timestamp,
        judge: String,
        player: String,
        result: DeckCheckResult,
    },
    /// `judge` took a statement from `author` (in the role `by`) in an investigation about
    /// `player`. Statements are numbered 1, 2, ... The text is for the event's judges only: the
    /// public log keeps `statement`, the text sealed under [`statement_key`] with a secret salt
    /// (as a deck list is), and the text stays in an owner-only file in the data directory.
    StatementRecorded {
        player: String,
        by: StatementBy,
        author: String,
        judge: String,
        #[schemars(with = "i64")]
        at: Timestamp,
        #[schemars(with = "String")]
        statement: Commitment,
    },
    /// The head judge's disqualification report on `player`: the facts found and the reasons,
    /// supporting penalty `penalty` (a disqualification that stands), signed with the head judge's
    /// recorded ed25519 key over [`super::sign::report_message`].
    DisqualificationReported {
        player: String,
        penalty: u32,
        head_judge: String,
        facts: String,
        reasons: String,
        #[schemars(with = "i64")]
        at: Timestamp,
        #[serde(with = "serde_bytes")]
        #[schemars(with = "String")]
        signature: Vec<u8>,
    },
    /// An organizer or the head judge (`by`) let `player` enter after round 1 was paired, with a
    /// reason: an override on the record (TOUR-OVER-1), folded as [`Self::LateEntered`] (which
    /// imports and builds before 2026-11-27 wrote without an author or a reason). The rounds
    /// before `first_round` count as losses.
    LateEntryAdmitted {
        player: String,
        deck: Option<String>,
        first_round: u32,
        by: String,
        reason: String,
    },
    /// An organizer or the head judge (`by`) entered a table's result against the players'
    /// reports (a disputed report, or one the opponent never confirmed), with a reason: counted
    /// as [`Self::ResultReported`], listed by `verify` as an override (TOUR-OVER-1).
    ResultEntered {
        round: u32,
        table: u32,
        score: MatchScore,
        games: Vec<GameLink>,
        by: String,
        reason: String,
    },
    /// As [`Self::ResultEntered`] for a pod's places (counted as [`Self::PodResultReported`]).
    PodResultEntered {
        round: u32,
        pod: u32,
        places: Vec<u32>,
        games: Vec<GameLink>,
        by: String,
        reason: String,
    },
    /// The official `by` set aside the stored entry at `seq`, which decodes as no tournament
    /// event (a note an older build let `kifu append` write into the tournament, after which it
    /// no longer opened), with a reason (TOUR-LOG-3, `kifu tournament set-aside`). The entry
    /// stays in the log; readers hold it as [`Self::SetAside`].
    EntrySetAside {
        seq: u64,
        by: String,
        reason: String,
    },
    /// Never recorded (TOUR-LOG-3): how a reader holds a stored entry that the
    /// [`Self::EntrySetAside`] at event `at`, by `by`, set aside. It folds as nothing.
    SetAside {
        by: String,
        at: u64,
    },
    /// An official (`by`) set the top cut's size (0: none) before the top cut started,
    /// replacing the configured one or the policy's by attendance (TOUR-CUT-5).
    TopCutSet {
        top_cut: u32,
        by: String,
    },
    /// The organizer `by` archived a mistaken event, with a reason (TOUR-ARCH-1): it stays on
    /// the record and verifiable, is hidden from the lists, and takes nothing more but signatures.
    TournamentArchived {
        by: String,
        reason: String,
    },
    /// A floor judge of the event, named by the organizer (TOUR-STAFF-1): shown on the event's
    /// pages beside the head judge.
    JudgeNamed {
        judge: String,
    },
    /// Every player registers a deck list: round 1 is paired only once each active player has
    /// one (TOUR-DECK-5). `deadline`: when the organizer asks for them by, shown to players and
    /// checked by the server that receives them (the lock stays round 1's pairing).
    DeckListsRequired {
        #[schemars(with = "Option<i64>")]
        deadline: Option<Timestamp>,
    },
    /// The event's time zone (an IANA name such as `Europe/Paris`, or `UTC`): the pages show
    /// the event's times in it, labelled (TOUR-STAFF-2).
    TimeZoneSet {
        zone: String,
    },
}

/// Who gave a statement in an investigation. Stored format: variants are only appended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub enum StatementBy {
    /// The player the investigation is about.
    Player,
    Opponent,
    Witness,
    Judge,
}

impl StatementBy {
    pub fn name(self) -> &'static str {
        match self {
            StatementBy::Player => "player",
            StatementBy::Opponent => "opponent",
            StatementBy::Witness => "witness",
            StatementBy::Judge => "judge",
        }
    }
}

impl std::str::FromStr for StatementBy {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Self, ParseError> {
        Ok(match s.trim().to_lowercase().as_str() {
            "player" => StatementBy::Player,
            "opponent" => StatementBy::Opponent,
            "witness" => StatementBy::Witness,
            "judge" => StatementBy::Judge,
            other => {
                return Err(ParseError(format!(
                    "unknown statement role {:?}: use player, opponent, witness or judge",
                    crate::log::quote_prefix(other)
                )))
            }
        })
    }
}

/// The longest statement text kept, in characters (a page of handwriting is about 2,000).
pub const STATEMENT_MAX: usize = 8000;

/// What a deck check found. Stored format: variants are only appended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub enum DeckCheckResult {
    /// The deck is the registered list.
    Matches,
    /// `cards` cards differ (the sum of each card's count difference); `differences` commits
    /// to the list of differences, kept privately with the lists.
    Differs { cards: u32, differences: Commitment },
}

impl DeckCheckResult {
    /// How many cards differ (0 when the deck matches).
    pub fn cards(&self) -> u32 {
        match self {
            DeckCheckResult::Matches => 0,
            DeckCheckResult::Differs { cards, .. } => *cards,
        }
    }
}

impl TournamentEvent {
    /// Checks the names and notes an event carries against [`crate::log::limits`]: player,
    /// judge and signer names, the tournament's name and game, reasons. Checked when
    /// an event is recorded or imported (every append goes through `record`), never when a
    /// stored event is folded, so a tournament an earlier build recorded still opens.
    pub fn check_text(&self) -> Result<(), TooLong> {
        let player = |p: &String| check_name(|| "player name".into(), p);
        let judge = |j: &String| check_name(|| "judge name".into(), j);
        let reason = |r: &String| check_note(|| "reason".into(), r);
        let tables = |t: &[PairedTable]| t.iter().try_for_each(|t| player(&t.a).and_then(|_| player(&t.b)));
        match self {
            TournamentEvent::Created { config } => {
                check_name(|| "tournament name".into(), &config.name)?;
                check_name(|| "the tournament's game name".into(), &config.game)
            }
            // A deck is a deck list (checked by the game's deck rules), not a name.
            TournamentEvent::PlayerRegistered { player: p, .. } | TournamentEvent::LateEntered { player: p, .. } => {
                player(p)
            }
            TournamentEvent::LateEntryAdmitted { player: p, by, reason: r, .. } => {
                player(p)?;
                check_name(|| "the override's author".into(), by)?;
                reason(r)
            }
            TournamentEvent::ResultEntered { by, reason: r, .. }
            | TournamentEvent::PodResultEntered { by, reason: r, .. }
            | TournamentEvent::EntrySetAside { by, reason: r, .. } => {
                check_name(|| "the override's author".into(), by)?;
                reason(r)
            }
            TournamentEvent::PlayerDropped { player: p, reason: r, .. } => player(p).and_then(|_| reason(r)),
            TournamentEvent::DeckListRegistered { player: p, .. } => player(p),
            TournamentEvent::RoundPaired { tables: t, byes, .. } => {
                tables(t)?;
                byes.iter().try_for_each(player)
            }
            TournamentEvent::TopCutPaired { tables: t, .. } => tables(t),
            TournamentEvent::ResultCorrected { judge: j, reason: r, .. }
            | TournamentEvent::PodResultCorrected { judge: j, reason: r, .. }
            | TournamentEvent::FinalizedEarly { judge: j, reason: r } => judge(j).and_then(|_| reason(r)),
            TournamentEvent::PenaltyIssued { player: p, judge: j, reason: r, .. } => {
                player(p)?;
                judge(j)?;
                reason(r)
            }
            TournamentEvent::RoundVoided { reason: r, .. } => reason(r),
            TournamentEvent::SetAside { by, .. } => check_name(|| "the official who set it aside".into(), by),
            TournamentEvent::SignerRecorded { signer, .. } | TournamentEvent::CheckpointSigned { signer, .. } => {
                check_name(|| "signer name".into(), signer)
            }
            TournamentEvent::PodRoundPaired { pods, .. } => pods.iter().flatten().try_for_each(player),
            TournamentEvent::JudgeCallOpened { caller, .. } => check_name(|| "caller".into(), caller),
            TournamentEvent::JudgeCallTaken { judge: j, .. }
            | TournamentEvent::JudgeCallEscalated { judge: j, .. }
            | TournamentEvent::HeadJudgeNamed { judge: j } => judge(j),
            TournamentEvent::JudgeCallClosed { judge: j, note, .. } => {
                judge(j)?;
                check_note(|| "note".into(), note)
            }
            TournamentEvent::TimeExtensionAdjusted { judge: j, reason: r, .. }
            | TournamentEvent::AppealDecided { judge: j, reason: r, .. } => judge(j).and_then(|_| reason(r)),
            TournamentEvent::InfractionPenalized { player: p, infraction, judge: j, reason: r, downgrade, .. } => {
                player(p)?;
                check_name(|| "infraction".into(), infraction)?;
                judge(j)?;
                reason(r)?;
                downgrade.iter().try_for_each(reason)
            }
            TournamentEvent::AppealLodged { player: p, .. } => player(p),
            TournamentEvent::PairingOverridden { tables: t, byes, by, reason: r, .. } => {
                tables(t)?;
                byes.iter().try_for_each(player)?;
                check_name(|| "the override's author".into(), by)?;
                reason(r)
            }
            TournamentEvent::DeckListChanged { player: p, judge: j, reason: r, .. } => {
                player(p)?;
                judge(j)?;
                reason(r)
            }
            TournamentEvent::DeckChecked { player: p, judge: j, .. } => player(p).and_then(|_| judge(j)),
            TournamentEvent::StatementRecorded { player: p, author, judge: j, .. } => {
                player(p)?;
                check_name(|| "the statement's author".into(), author)?;
                judge(j)
            }
            TournamentEvent::DisqualificationReported { player: p, head_judge, facts, reasons, .. } => {
                player(p)?;
                judge(head_judge)?;
                check_note(|| "facts found".into(), facts)?;
                check_note(|| "reasons".into(), reasons)
            }
            TournamentEvent::ResultReported { .. }
            | TournamentEvent::PodResultReported { .. }
            | TournamentEvent::SeedRevealed { .. }
            | TournamentEvent::Finalized
            | TournamentEvent::MatchFormatSet { .. }
            | TournamentEvent::SeedCommitted { .. }
            | TournamentEvent::SwissRoundsSet { .. }
            | TournamentEvent::PodFormatSet { .. }
            | TournamentEvent::DeckListsRequired { .. } => Ok(()),
            TournamentEvent::TopCutSet { by, .. } => check_name(|| "the official who set it".into(), by),
            TournamentEvent::TournamentArchived { by, reason: r } => {
                check_name(|| "the organizer who archived it".into(), by)?;
                reason(r)
            }
            TournamentEvent::JudgeNamed { judge: j } => judge(j),
            TournamentEvent::TimeZoneSet { zone } => check_name(|| "time zone".into(), zone),
        }
    }
}

/// Checks the names and notes of a tournament read from another program's file (a Melee or TOM
/// export) before anything is recorded: the error names the file, the field and the limit, and
/// which player of the file (numbered from 1 in registration order) it is about.
pub fn check_imported_text(
    source: &str,
    config: &ConfigV1,
    events: &[TournamentEvent],
) -> Result<(), super::TournamentError> {
    let bad = |e: TooLong| super::TournamentError::Input(format!("{source} file: {e}"));
    TournamentEvent::Created { config: config.clone() }.check_text().map_err(bad)?;
    let mut registered = 0;
    for e in events {
        if let TournamentEvent::PlayerRegistered { player, .. }
        | TournamentEvent::LateEntered { player, .. }
        | TournamentEvent::LateEntryAdmitted { player, .. } = e
        {
            registered += 1;
            check_name(|| format!("player name {registered}"), player).map_err(bad)?;
        }
        e.check_text().map_err(bad)?;
    }
    Ok(())
}

/// What a signer vouches for: a prefix of the tournament log (its head hash and event count).
/// Stored format: variants are only appended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub enum Checkpoint {
    /// The tournament head right after round `round`'s last result.
    RoundClosed {
        round: u32,
        #[schemars(with = "String")]
        head: Hash32,
        events: u64,
    },
    /// After finalization: the root hash (the tournament head and every linked game's head).
    Final {
        #[schemars(with = "String")]
        root: Hash32,
        #[schemars(with = "String")]
        head: Hash32,
        events: u64,
    },
}

impl Checkpoint {
    /// The log prefix the checkpoint names: (head hash, event count).
    pub fn prefix(&self) -> (Hash32, u64) {
        match self {
            Checkpoint::RoundClosed { head, events, .. } | Checkpoint::Final { head, events, .. } => (*head, *events),
        }
    }

    pub fn describe(&self) -> String {
        match self {
            Checkpoint::RoundClosed { round, events, .. } => format!("round {round} closed (event {events})"),
            Checkpoint::Final { events, .. } => format!("final root (event {events})"),
        }
    }
}

/// Context of the per-round pairing seed (blake3 derive_key mode).
pub const ROUND_SEED_CONTEXT: &str = "kifu 2026-11-21 swiss round seed v1";

/// The seed of round `round`: `blake3 derive_key(ROUND_SEED_CONTEXT, seed ‖ u32le(round))`.
pub fn round_seed(seed: &Secret, round: u32) -> Secret {
    let mut input = Vec::with_capacity(36);
    input.extend_from_slice(&seed.0);
    input.extend_from_slice(&round.to_le_bytes());
    Commitment(blake3::derive_key(ROUND_SEED_CONTEXT, &input))
}

impl MatchScore {
    /// The same score from `b`'s side.
    pub fn swapped(self) -> MatchScore {
        MatchScore { a_wins: self.b_wins, b_wins: self.a_wins, draws: self.draws }
    }

    /// Whether this score can happen in a best-of-`best_of` match: nobody wins more than the
    /// majority, not both reach it, and drawn games (which do not count towards the majority)
    /// are at most `best_of`. A top-cut match also needs a winner. (TOUR-RESULT-3)
    pub fn check(self, best_of: u32, top_cut: bool) -> Result<(), crate::game::Violation> {
        let need = best_of / 2 + 1;
        let mut why = Vec::new();
        if self.a_wins > need || self.b_wins > need {
            why.push(format!("nobody wins more than {need} games"));
        }
        if self.a_wins == need && self.b_wins == need {
            why.push(format!("the match ends when one player reaches {need} wins"));
        }
        if self.draws > best_of {
            why.push(format!("at most {best_of} drawn games"));
        }
        if top_cut && self.a_wins == self.b_wins {
            why.push("a top-cut match needs a winner".into());
        }
        if why.is_empty() {
            Ok(())
        } else {
            let msg = format!("{self} cannot happen in a best-of-{best_of} match: {}", why.join("; "));
            Err(crate::game::Violation::new("TOUR-RESULT-3", msg))
        }
    }
}

/// The match formats kifu knows.
pub const FORMATS: [u32; 3] = [1, 3, 5];

/// A short name for an event kind, for reports.
pub fn kind(e: &TournamentEvent) -> &'static str {
    match e {
        TournamentEvent::Created { .. } => "created",
        TournamentEvent::PlayerRegistered { .. } => "player registered",
        TournamentEvent::LateEntered { .. } => "late entry",
        TournamentEvent::PlayerDropped { .. } => "player dropped",
        TournamentEvent::RoundPaired { .. } => "round paired",
        TournamentEvent::ResultReported { .. } => "result reported",
        TournamentEvent::ResultCorrected { .. } => "result corrected",
        TournamentEvent::PenaltyIssued { .. } => "penalty issued",
        TournamentEvent::TopCutPaired { .. } => "top cut paired",
        TournamentEvent::SeedRevealed { .. } => "seed revealed",
        TournamentEvent::Finalized => "finalized",
        TournamentEvent::MatchFormatSet { .. } => "match format set",
        TournamentEvent::RoundVoided { .. } => "round voided",
        TournamentEvent::FinalizedEarly { .. } => "finalized early",
        TournamentEvent::SeedCommitted { .. } => "seed committed",
        TournamentEvent::SwissRoundsSet { .. } => "swiss rounds set",
        TournamentEvent::SignerRecorded { .. } => "signer recorded",
        TournamentEvent::CheckpointSigned { .. } => "checkpoint signed",
        TournamentEvent::PodFormatSet { .. } => "pod format set",
        TournamentEvent::PodRoundPaired { .. } => "pod round paired",
        TournamentEvent::PodResultReported { .. } => "pod result reported",
        TournamentEvent::PodResultCorrected { .. } => "pod result corrected",
        TournamentEvent::DeckListRegistered { .. } => "deck list registered",
        TournamentEvent::JudgeCallOpened { .. } => "judge call opened",
        TournamentEvent::JudgeCallTaken { .. } => "judge call taken",
        TournamentEvent::JudgeCallEscalated { .. } => "judge call escalated",
        TournamentEvent::JudgeCallClosed { .. } => "judge call closed",
        TournamentEvent::TimeExtensionAdjusted { .. } => "time extension adjusted",
        TournamentEvent::HeadJudgeNamed { .. } => "head judge named",
        TournamentEvent::InfractionPenalized { .. } => "infraction penalized",
        TournamentEvent::AppealLodged { .. } => "appeal lodged",
        TournamentEvent::AppealDecided { .. } => "appeal decided",
        TournamentEvent::PairingOverridden { .. } => "pairing overridden",
        TournamentEvent::DeckListChanged { .. } => "deck list changed",
        TournamentEvent::DeckChecked { .. } => "deck checked",
        TournamentEvent::StatementRecorded { .. } => "statement recorded",
        TournamentEvent::DisqualificationReported { .. } => "disqualification reported",
        TournamentEvent::LateEntryAdmitted { .. } => "late entry admitted",
        TournamentEvent::ResultEntered { .. } => "result entered",
        TournamentEvent::PodResultEntered { .. } => "pod result entered",
        TournamentEvent::EntrySetAside { .. } => "entry set aside",
        TournamentEvent::SetAside { .. } => "set aside (not a tournament event)",
        TournamentEvent::TopCutSet { .. } => "top cut set",
        TournamentEvent::TournamentArchived { .. } => "tournament archived",
        TournamentEvent::JudgeNamed { .. } => "judge named",
        TournamentEvent::DeckListsRequired { .. } => "deck lists required",
        TournamentEvent::TimeZoneSet { .. } => "time zone set",
    }
}

/// The key a deck list's commitment is sealed under: one per player, so a list registered for
/// one player cannot be passed off as another's.
pub fn deck_list_key(player: &str) -> String {
    format!("deck-list/{player}")
}

/// The key a deck check's private differences are sealed under: one per check.
pub fn deck_check_key(check: u32) -> String {
    format!("deck-check/{check}")
}

/// The key a statement's text is sealed under: one per statement.
pub fn statement_key(statement: u32) -> String {
    format!("statement/{statement}")
}
