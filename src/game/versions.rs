//! Rules versions that stay readable: one ruleset, several released versions, each its own
//! [`Game`](super::Game) implementation behind its version number. [`Versions`] is itself a
//! [`Driver`]: it creates and self-plays under the newest version, and opens, audits, exports and
//! records into a stored game under the version named in that game's header. So a game recorded
//! under version N opens, replays and audits under version N's rules after version N+1 ships.

/// One game's rules versions as named behaviours, declared once in the game's `rules_version.rs`:
/// the newest version, then one `bool` field per behaviour a version changed, with the version
/// that added it and a doc saying what and why. It writes the `Copy` struct `Rules` (each
/// field's doc opens with the version that added it), the `const fn rules(version)` that is the
/// only place a version number becomes behaviour, and `Rules::BEHAVIOURS` (name, version, doc)
/// with `Rules::flags`, for the table `docs/rules-versions.md` is generated from. Validate,
/// apply, options and the agent read the fields, never the number.
///
/// ```
/// mod rules_version {
///     kifu::rules_version! {
///         newest: 2;
///         /// Refuses a seat the game does not await (`KIFU-TURN-1`).
///         checks_awaited: 2,
///     }
/// }
/// assert!(!rules_version::rules(1).checks_awaited);
/// assert!(rules_version::rules(2).checks_awaited);
/// ```
#[macro_export]
macro_rules! rules_version {
    (newest: $newest:literal; $($(#[doc = $doc:literal])* $field:ident: $since:literal,)*) => {
        /// What this game's rules version does, one behaviour a field, each from the version
        /// named in its doc on (built by [`rules`] from the version number; a version that
        /// changed nothing of a behaviour leaves it as the version before had it).
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct Rules {
            $(
                #[doc = concat!("From version ", stringify!($since), ":")]
                $(#[doc = $doc])*
                pub $field: bool,
            )*
        }

        impl Rules {
            /// Version 1, as released.
            pub const FIRST: Rules = rules(1);
            /// The newest version: what new games record.
            pub const NEWEST: u32 = $newest;
            /// Every behaviour: its name, the version that added it, and its doc.
            pub const BEHAVIOURS: &'static [(&'static str, u32, &'static str)] =
                &[$((stringify!($field), $since, concat!($($doc, "\n",)* "")),)*];

            /// Each behaviour by name with whether this version has it, in the order of
            /// [`Rules::BEHAVIOURS`].
            pub fn flags(&self) -> Vec<(&'static str, bool)> {
                vec![$((stringify!($field), self.$field),)*]
            }
        }

        /// The behaviours of rules version `version`: each behaviour from the version that added it.
        pub const fn rules(version: u32) -> Rules {
            let _ = version;
            Rules { $($field: version >= $since,)* }
        }
    };
}

use super::audit::AuditReport;
use super::driver::{Driver, Session};
use super::record::{self, GameError, Recorded};
use super::{NewGame, RuleCoverage, Ruling};
use crate::log::chain::{Head, VerifiedLog};
use crate::log::envelope::{Actor, Header, IdempotencyId, MatchBinding, StreamId, Timestamp};
use crate::store::Store;

/// Every released version of one ruleset, oldest first; the last is the newest.
pub struct Versions {
    pub ruleset: &'static str,
    pub released: &'static [&'static dyn Driver],
}

impl Versions {
    /// The newest version's driver (`None` only for an empty list).
    pub fn newest(&self) -> Option<&'static dyn Driver> {
        self.released.last().copied()
    }

    /// The driver for `version`, if this build still has it.
    pub fn get(&self, version: u32) -> Option<&'static dyn Driver> {
        self.released.iter().copied().find(|d| d.ruleset_version() == version)
    }

    /// The driver for a stored game's header.
    fn for_header(&self, header: &Header) -> Result<&'static dyn Driver, GameError> {
        let h = header.v1();
        self.get(h.ruleset_version).ok_or_else(|| GameError::RulesetVersion {
            stream: h.stream.to_string(),
            ruleset: self.ruleset,
            found: h.ruleset_version,
            have: self.newest().map_or(0, |d| d.ruleset_version()),
        })
    }

    fn for_stream(&self, store: &dyn Store, stream: &StreamId) -> Result<&'static dyn Driver, GameError> {
        let (_, header) = store.header(stream)?;
        self.for_header(&header)
    }

    fn current(&self) -> Result<&'static dyn Driver, GameError> {
        self.newest().ok_or(GameError::NoRelease { ruleset: self.ruleset })
    }

    /// The driver for a game in JSON lines: the version its first line names, or version 1 when
    /// it names none. Only version 1's exports (the pinned fixtures and every file exported before
    /// exports named their version) leave it out, so reading such a file under any later rules
    /// would report violations its game never had. A build without version 1 refuses such a file
    /// by name rather than guess, as it refuses a stored version 1 game.
    fn for_jsonl(&self, text: &str) -> Result<&'static dyn Driver, GameError> {
        let Some(found) = record::jsonl_rules_version(text) else {
            let unnamed = u32::try_from(record::UNNAMED_RULES_VERSION).ok().and_then(|v| self.get(v));
            return unnamed.ok_or_else(|| {
                record::JsonlProblem::UnnamedRulesVersion {
                    ruleset: self.ruleset,
                    have: self.released.iter().map(|d| d.ruleset_version()).collect(),
                }
                .into()
            });
        };
        u32::try_from(found).ok().and_then(|v| self.get(v)).ok_or_else(|| {
            record::JsonlProblem::RulesVersion {
                ruleset: self.ruleset,
                found,
                have: self.released.iter().map(|d| d.ruleset_version()).collect(),
            }
            .into()
        })
    }
}

impl Driver for Versions {
    fn ruleset(&self) -> &'static str {
        self.ruleset
    }

    fn ruleset_version(&self) -> u32 {
        self.newest().map_or(0, |d| d.ruleset_version())
    }

    fn coverage(&self) -> Vec<RuleCoverage> {
        self.newest().map(|d| d.coverage()).unwrap_or_default()
    }

    fn scenarios(&self) -> Vec<super::ScenarioCount> {
        self.newest().map(|d| d.scenarios()).unwrap_or_default()
    }

    fn unrecordable(&self) -> &'static [super::Unrecordable] {
        self.newest().map_or(&[], |d| d.unrecordable())
    }

    fn entry_schema(&self) -> String {
        self.newest().map(|d| d.entry_schema()).unwrap_or_default()
    }

    fn check_deck(&self, deck: &str, catalog: Option<&str>) -> Result<(), GameError> {
        self.current()?.check_deck(deck, catalog)
    }

    fn seats(&self) -> super::SeatRange {
        self.newest().map_or(super::SeatRange { min: 2, max: 2 }, |d| d.seats())
    }

    fn create_bound(
        &self,
        store: &dyn Store,
        stream: &StreamId,
        request: &NewGame<'_>,
        now: Timestamp,
        bound: Option<MatchBinding>,
    ) -> Result<Head, GameError> {
        self.current()?.create_bound(store, stream, request, now, bound)
    }

    #[allow(clippy::too_many_arguments)]
    fn act_json(
        &self,
        store: &dyn Store,
        stream: &StreamId,
        actor: Option<Actor>,
        event_json: &str,
        forced_by: Option<String>,
        expected: Option<u64>,
        idempotency: Option<IdempotencyId>,
    ) -> Result<Recorded, GameError> {
        self.for_stream(store, stream)?.act_json(store, stream, actor, event_json, forced_by, expected, idempotency)
    }

    fn rule(
        &self,
        store: &dyn Store,
        stream: &StreamId,
        actor: Actor,
        ruling: Ruling,
        expected: Option<u64>,
        idempotency: Option<IdempotencyId>,
    ) -> Result<Recorded, GameError> {
        self.for_stream(store, stream)?.rule(store, stream, actor, ruling, expected, idempotency)
    }

    fn set_aside(
        &self,
        store: &dyn Store,
        stream: &StreamId,
        judge: &str,
        seq: u64,
        note: String,
    ) -> Result<Recorded, GameError> {
        self.for_stream(store, stream)?.set_aside(store, stream, judge, seq, note)
    }

    fn open(&self, log: &VerifiedLog) -> Result<Box<dyn Session>, GameError> {
        self.for_header(&log.header)?.open(log)
    }

    fn check_decodes(&self, log: &VerifiedLog) -> Result<(), GameError> {
        self.for_header(&log.header)?.check_decodes(log)
    }

    fn audit(&self, log: &VerifiedLog) -> Result<AuditReport, GameError> {
        self.for_header(&log.header)?.audit(log)
    }

    /// An import is recorded under the version its first line names, or version 1 when it
    /// names none (see `for_jsonl`).
    fn import_jsonl_bound(
        &self,
        store: &dyn Store,
        text: &str,
        stream: Option<StreamId>,
        now: Timestamp,
        as_recorded: bool,
        bound: Option<MatchBinding>,
    ) -> Result<(StreamId, Head), GameError> {
        self.for_jsonl(text)?.import_jsonl_bound(store, text, stream, now, as_recorded, bound)
    }

    fn jsonl_log(&self, text: &str) -> Result<VerifiedLog, GameError> {
        self.for_jsonl(text)?.jsonl_log(text)
    }

    fn export_jsonl(&self, log: &VerifiedLog) -> Result<String, GameError> {
        self.for_header(&log.header)?.export_jsonl(log)
    }

    fn self_play_bound(
        &self,
        store: &dyn Store,
        stream: &StreamId,
        seed: u64,
        players: &[String],
        now: Timestamp,
        bound: Option<MatchBinding>,
    ) -> Result<Head, GameError> {
        self.current()?.self_play_bound(store, stream, seed, players, now, bound)
    }
}
