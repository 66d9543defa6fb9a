//! The tournament state and what it derives: players, rounds, standings, the pairing a seed
//! gives, placings. The rules that decide and fold events are [`super::rules`]; `validate` and
//! `apply` here delegate to them. Pairings and top-cut seedings are re-derived from this state,
//! so a replay that validates every event has checked every round against its seed.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::events::{ConfigV1, GameLink, MatchScore, PairedTable, Penalty};
use super::pairing::{self, order_key};
use super::pods::{self, PodSize, PodStandingRow, PointsTable};
use super::policy::Rules;
use super::standings::{self, MatchRecord, StandingRow, Tallies};
use crate::game::commit::{Commitment, Secret};
use crate::game::Violation;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    pub name: String,
    pub deck: Option<String>,
    /// The first round a late entrant plays (earlier rounds count as losses).
    pub first_round: u32,
    pub dropped_after: Option<u32>,
    /// The penalties standing (after appeals): (round, penalty, reason).
    pub penalties: Vec<(u32, Penalty, String)>,
    /// The commitment to the deck list the player registered last.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deck_list: Option<crate::game::commit::Commitment>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableState {
    pub table: u32,
    pub a: usize,
    pub b: usize,
    pub result: Option<MatchScore>,
    pub games: Vec<GameLink>,
    pub corrections: u32,
}

/// A pod of a pod round: its players by seat, and its result once reported.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PodState {
    pub pod: u32,
    pub seats: Vec<usize>,
    pub places: Option<Vec<u32>>,
    pub games: Vec<GameLink>,
    /// How many times a judge corrected the result.
    pub corrections: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundState {
    pub round: u32,
    pub tables: Vec<TableState>,
    pub byes: Vec<usize>,
    pub seed: Option<Secret>,
    pub top_cut: bool,
    /// The pods of a pod round (empty in two-player rounds, which have tables instead).
    pub pods: Vec<PodState>,
}

impl RoundState {
    /// Where table `table` is in `tables`: position `table - 1` when the tables are numbered
    /// 1, 2, 3... (as `validate` requires), so folding a round's results is linear, not
    /// quadratic, in its tables; a search otherwise (a log written around kifu).
    pub fn table_at(&self, table: u32) -> Option<usize> {
        let i = (table as usize).checked_sub(1)?;
        match self.tables.get(i) {
            Some(t) if t.table == table => Some(i),
            _ => self.tables.iter().position(|t| t.table == table),
        }
    }
}

impl TableState {
    /// The entrant who won the match, if it has a decisive result.
    pub fn winner(&self) -> Option<usize> {
        match self.result {
            Some(s) if s.a_wins > s.b_wins => Some(self.a),
            Some(s) if s.b_wins > s.a_wins => Some(self.b),
            _ => None,
        }
    }
}

impl RoundState {
    pub fn complete(&self) -> bool {
        self.tables.iter().all(|t| t.result.is_some()) && self.pods.iter().all(|p| p.places.is_some())
    }

    /// The name of a top-cut round by its number of tables ("final", "semifinals", ...).
    pub fn stage(&self) -> String {
        match self.tables.len() {
            1 => "final".to_string(),
            2 => "semifinals".to_string(),
            4 => "quarterfinals".to_string(),
            n => format!("top {}", n * 2),
        }
    }
}

/// A tournament as folded from its events. Serializable only for the store's derived snapshot
/// (`record::load_state`), a cache rebuilt from the log whenever the fold's sources change.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Tournament {
    /// Recorded under swiss v1 by kifu 0.1.0: folded and verified by the rules it was played by
    /// (see [`super::events::RULESET_VERSION_0_1`]), so its recorded pairings still re-derive.
    pub released_0_1: bool,
    /// Recorded under swiss v2: plans a Pokémon top cut by that version's table
    /// (see [`super::events::RULESET_VERSION_2`]).
    pub swiss_v2: bool,
    pub config: Option<ConfigV1>,
    pub players: Vec<Player>,
    pub index: HashMap<String, usize>,
    pub rounds: Vec<RoundState>,
    /// Fixed when round 1 is paired.
    pub swiss_rounds: Option<u32>,
    pub revealed_seed: Option<Secret>,
    pub finalized: bool,
    /// Maintained incrementally as results arrive (see `standings::Tallies`).
    pub tallies: Tallies,
    /// Players by trimmed, lower-cased name (names are unique case-insensitively).
    pub folded: HashMap<String, usize>,
    /// Best-of-N of every match, when the tournament recorded its match format.
    pub best_of: Option<u32>,
    /// The top-cut size: the configured one, or by attendance when round 1 is paired.
    pub top_cut: Option<u32>,
    /// Rounds voided before any result, with the reason.
    pub voided: Vec<(u32, String)>,
    /// Set when a judge finalized before the planned rounds or bracket were finished.
    pub finalized_early: Option<(String, String)>,
    /// The key of the random draw that orders players tied on every tiebreaker.
    pub tie_key: [u8; 32],
    /// A seed committed after creation (an imported event continued in kifu).
    pub late_commitment: Option<Commitment>,
    /// Events folded so far.
    pub seen: u64,
    /// Recorded signers' public keys, by name.
    pub signers: Vec<(String, [u8; 32])>,
    /// Checkpoints signed: (event count of the prefix, checkpoint, signer).
    pub signed: Vec<(super::events::Checkpoint, String)>,
    /// Set by `PodFormatSet`: the tournament plays in pods (pod size and points table).
    pub pod_format: Option<(PodSize, PointsTable)>,
    /// Judge calls in the order they were opened (call `n` is `calls[n - 1]`).
    pub calls: Vec<super::judging::Call>,
    /// Every penalty in the order recorded (penalty `n` is `penalty_log[n - 1]`), with what
    /// stands after appeals; `Player::penalties` holds the standing ones.
    pub penalty_log: Vec<super::judging::PenaltyRecord>,
    /// Appeals in the order lodged (appeal `n` is `appeals[n - 1]`).
    pub appeals: Vec<super::judging::Appeal>,
    pub head_judge: Option<String>,
    /// The top cut an official set (`TopCutSet`), which a voided round 1 keeps.
    pub top_cut_set: Option<u32>,
    /// Set by `TournamentArchived`: (organizer, reason). Hidden from the lists, still verifiable.
    pub archived: Option<(String, String)>,
    /// The floor judges the organizer named, in the order named.
    pub judges: Vec<String>,
    /// Set by `DeckListsRequired`: every player registers a list, by the deadline if one is given.
    pub decks_required: Option<Option<crate::log::envelope::Timestamp>>,
    /// The event's time zone (`TimeZoneSet`), an IANA name.
    pub time_zone: Option<String>,
    /// Everything changed by hand, in the order recorded: pairings, late entries, results
    /// entered against the players' reports.
    pub overrides: Vec<Override>,
    /// Deck checks in the order recorded (check `n` is `deck_checks[n - 1]`).
    pub deck_checks: Vec<DeckCheck>,
    /// Deck lists changed after the lock: (player, judge, reason).
    pub deck_changes: Vec<(String, String, String)>,
    /// Statements taken in investigations (statement `n` is `statements[n - 1]`): the public
    /// part, the text sealed.
    pub statements: Vec<Statement>,
    /// Disqualification reports, in the order recorded.
    pub dq_reports: Vec<DqReport>,
}

/// What an override changed by hand (see [`Override`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum OverrideKind {
    /// The round's pairings (`PairingOverridden`).
    Pairing,
    /// `player` entered the event late (`LateEntryAdmitted`, or an unattributed `LateEntered`).
    LateEntry { player: String },
    /// A table's result entered against the players' reports (`ResultEntered`).
    Result { table: u32, score: String },
    /// A pod's places entered against the players' reports (`PodResultEntered`).
    PodResult { pod: u32, places: Vec<u32> },
}

/// An override on the record: what an organizer or head judge did by hand in `round`, the
/// event that did it, who and why. `by` and `reason` are empty only for a late entry an import
/// or a build before 2026-11-27 recorded without them (`LateEntered`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Override {
    pub event: u64,
    pub round: u32,
    pub kind: OverrideKind,
    pub by: String,
    pub reason: String,
}

impl Override {
    /// One line for `verify`, the judges' page and the CLI: what was changed, by whom and why.
    pub fn describe(&self) -> String {
        let what = match &self.kind {
            OverrideKind::Pairing => format!("round {} pairings changed by hand", self.round),
            OverrideKind::LateEntry { player } => format!("{player} entered late, from round {}", self.round),
            OverrideKind::Result { table, score } => {
                format!("round {} table {table} result {score} entered against the players' reports", self.round)
            }
            OverrideKind::PodResult { pod, places } => {
                format!("round {} pod {pod} places {places:?} entered against the players' reports", self.round)
            }
        };
        if self.by.is_empty() {
            format!("{what} (event {}; no author or reason recorded: an import or an earlier build)", self.event)
        } else {
            format!("{what} by {} ({}) (event {})", self.by, self.reason, self.event)
        }
    }

    /// The kind as a short word for JSON readers: pairing, late entry, result, pod result.
    pub fn kind_name(&self) -> &'static str {
        match self.kind {
            OverrideKind::Pairing => "pairing",
            OverrideKind::LateEntry { .. } => "late entry",
            OverrideKind::Result { .. } => "result",
            OverrideKind::PodResult { .. } => "pod result",
        }
    }
}

/// A statement on the record: who gave it, about whom, taken by which judge, and the commitment
/// to its text (kept privately, for the judges).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Statement {
    pub number: u32,
    pub player: String,
    pub by: super::events::StatementBy,
    pub author: String,
    pub judge: String,
    pub at: crate::log::envelope::Timestamp,
    pub commitment: Commitment,
}

/// A head judge's disqualification report as recorded (see `DisqualificationReported`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DqReport {
    pub player: String,
    pub penalty: u32,
    pub head_judge: String,
    pub facts: String,
    pub reasons: String,
    pub at: crate::log::envelope::Timestamp,
    pub signature: Vec<u8>,
}

/// A deck check on the record (the public part: matched, or how many cards differ).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeckCheck {
    pub round: u32,
    pub table: Option<u32>,
    pub at: crate::log::envelope::Timestamp,
    pub judge: String,
    pub player: String,
    pub result: super::events::DeckCheckResult,
}

/// Case- and space-insensitive form of a player's name.
pub fn fold_name(name: &str) -> String {
    name.trim().to_lowercase()
}

/// Levenshtein distance in characters (for "did you mean").
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + usize::from(ca != *cb)).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

impl Tournament {
    pub fn rules(&self) -> Option<Rules> {
        self.config.as_ref().map(|c| match (self.released_0_1, self.swiss_v2) {
            (true, _) => c.policy.rules_0_1(),
            (false, true) => c.policy.rules_v2(),
            (false, false) => c.policy.rules(),
        })
    }

    /// Keeps an override made by the event being folded (`seen` already counts it).
    pub fn record_override(&mut self, round: u32, kind: OverrideKind, by: &str, reason: &str) {
        let event = self.seen.saturating_sub(1);
        self.overrides.push(Override { event, round, kind, by: by.to_string(), reason: reason.to_string() });
    }

    pub fn swiss(&self) -> impl Iterator<Item = &RoundState> {
        self.rounds.iter().filter(|r| !r.top_cut)
    }

    pub fn swiss_played(&self) -> u32 {
        self.swiss().count() as u32
    }

    pub fn player(&self, name: &str) -> Option<usize> {
        self.index.get(name).copied()
    }

    /// The pairing-seed commitment: the header's, or one committed later (`SeedCommitted`).
    pub fn commitment(&self) -> Option<Commitment> {
        self.config.as_ref().and_then(|c| c.seed_commitment).or(self.late_commitment)
    }

    /// A player by name as typed: exact, else trimmed and case-insensitive.
    pub fn find(&self, name: &str) -> Option<usize> {
        self.player(name).or_else(|| self.folded.get(&fold_name(name)).copied())
    }

    /// The registered name closest to `name`, if one is close enough to be a typo.
    pub fn suggest(&self, name: &str) -> Option<&str> {
        let want = fold_name(name);
        let limit = (want.chars().count() / 3).max(2);
        self.players
            .iter()
            .map(|p| (edit_distance(&want, &fold_name(&p.name)), p.name.as_str()))
            .filter(|(d, _)| *d <= limit)
            .min()
            .map(|(_, n)| n)
    }

    /// "X is not registered in this tournament", with the nearest name if there is one.
    pub fn unknown(&self, name: &str) -> String {
        match self.suggest(name) {
            Some(s) => format!("{name:?} is not registered in this tournament; did you mean {s:?}?"),
            None => format!("{name:?} is not registered in this tournament"),
        }
    }

    /// Players who can be paired in `round` (registered, entered by then, not dropped).
    pub fn active_count(&self, round: u32) -> usize {
        (0..self.players.len()).filter(|&p| self.active_in(p, round)).count()
    }

    /// The planned top-cut size (0: none). Before round 1 a cut by attendance is not known yet.
    pub fn planned_cut(&self) -> u32 {
        self.top_cut.unwrap_or(0)
    }

    /// What is left to play before the tournament can be finalized (empty: it is over).
    pub fn unfinished(&self) -> Vec<String> {
        let mut v = Vec::new();
        if self.rounds.is_empty() {
            v.push("no round was paired".to_string());
            return v;
        }
        let pods = self.pod_format.is_some();
        if let Some(l) = self.rounds.last() {
            if !l.complete() {
                let what = if pods { "pods" } else { "tables" };
                v.push(format!("round {} still has {what} without a result", l.round));
            }
        }
        let planned = self.swiss_rounds.unwrap_or(0);
        if self.swiss_played() < planned {
            let what = if pods { "pod" } else { "Swiss" };
            v.push(format!("only {} of {planned} {what} rounds were played", self.swiss_played()));
            return v;
        }
        let k = self.planned_cut();
        let cut: Vec<&RoundState> = self.rounds.iter().filter(|r| r.top_cut).collect();
        match cut.last() {
            None if k >= 2 => {
                let still_in = self.players.iter().filter(|p| p.dropped_after.is_none()).count();
                if still_in >= k as usize {
                    v.push(format!("the top {k} was not played"));
                }
            }
            Some(l) if l.tables.len() > 1 || l.tables.iter().any(|t| t.winner().is_none()) => {
                v.push(format!("the top {k} is not finished ({} in progress)", l.stage()));
            }
            _ => {}
        }
        v
    }

    /// Whether player `p` plays round `round`: entered by then and not dropped before it.
    pub fn active_in(&self, p: usize, round: u32) -> bool {
        let pl = &self.players[p];
        pl.first_round <= round && pl.dropped_after.is_none_or(|d| d >= round)
    }

    /// Every Swiss match (byes included) in round order.
    pub fn matches(&self) -> Vec<MatchRecord> {
        let mut out = Vec::new();
        for r in self.swiss() {
            for t in &r.tables {
                if let Some(s) = t.result {
                    out.push(MatchRecord { a: t.a, b: Some(t.b), a_wins: s.a_wins, b_wins: s.b_wins, draws: s.draws });
                }
            }
            for &b in &r.byes {
                out.push(MatchRecord::bye(b));
            }
        }
        out
    }

    pub fn missed(&self) -> Vec<(usize, u32)> {
        self.players
            .iter()
            .enumerate()
            .filter(|(_, p)| p.first_round > 1)
            .map(|(i, p)| (i, p.first_round - 1))
            .collect()
    }

    /// Tallies recomputed from scratch (the incremental ones must equal these).
    pub fn tallies_from_scratch(&self) -> Tallies {
        standings::tally_all(self.players.len(), &self.missed(), &self.matches())
    }

    pub fn entrants(&self) -> Vec<standings::Entrant> {
        self.players
            .iter()
            .map(|p| standings::Entrant {
                name: p.name.clone(),
                late: p.first_round > 1,
                dropped: p.dropped_after.is_some(),
                // 0.1.0 ordered players tied on everything by name: every draw equal leaves that.
                draw: if self.released_0_1 { 0 } else { order_key(&self.tie_key, &p.name) },
            })
            .collect()
    }

    /// Each player's match points before Swiss round `round` was played (missed rounds count as
    /// losses), by player index: what pairings of that round post.
    pub fn points_before(&self, round: u32) -> Vec<u32> {
        let Some(rules) = self.rules() else { return vec![0; self.players.len()] };
        let mut pts: Vec<u32> = self
            .players
            .iter()
            .map(|p| p.first_round.saturating_sub(1).min(round.saturating_sub(1)) * rules.loss)
            .collect();
        for r in self.swiss().filter(|r| r.round < round) {
            for t in &r.tables {
                let Some(s) = t.result else { continue };
                let (a, b) = match s.a_wins.cmp(&s.b_wins) {
                    std::cmp::Ordering::Greater => (rules.win, rules.loss),
                    std::cmp::Ordering::Less => (rules.loss, rules.win),
                    std::cmp::Ordering::Equal => (rules.draw, rules.draw),
                };
                pts[t.a] += a;
                pts[t.b] += b;
            }
            for &b in &r.byes {
                pts[b] += rules.win;
            }
        }
        pts
    }

    /// The Swiss standings from the incrementally maintained tallies.
    pub fn standings(&self) -> Vec<StandingRow> {
        let Some(r) = self.rules() else { return vec![] };
        let entrants = self.entrants();
        let frozen = if r.pokemon_pct && !self.released_0_1 { self.frozen_resistance(&r, &entrants) } else { vec![] };
        standings::rank_with(&r, &entrants, &self.tallies, &self.matches(), &frozen)
    }

    /// Pokémon (as TOM ranks it): a player who dropped before the last Swiss round keeps the
    /// Op Win% they had when they dropped, from their opponents' records at that round. TOM's
    /// Round Rock export ranks a 0-1 dropped player whose opponent was 1-0 at the drop above
    /// 0-3 players whose opponents finished better than that opponent did; no other reading of
    /// the handbook orders it so.
    fn frozen_resistance(&self, rules: &Rules, entrants: &[standings::Entrant]) -> Vec<Option<f64>> {
        let last = self.swiss_played();
        let mut out = vec![None; self.players.len()];
        let mut drops: Vec<u32> =
            self.players.iter().filter_map(|p| p.dropped_after).filter(|&d| d >= 1 && d < last).collect();
        drops.sort_unstable();
        drops.dedup();
        for d in drops {
            let mut prefix = Vec::new();
            for r in self.swiss().filter(|r| r.round <= d) {
                for t in &r.tables {
                    if let Some(s) = t.result {
                        prefix.push(MatchRecord {
                            a: t.a,
                            b: Some(t.b),
                            a_wins: s.a_wins,
                            b_wins: s.b_wins,
                            draws: s.draws,
                        });
                    }
                }
                prefix.extend(r.byes.iter().map(|&b| MatchRecord::bye(b)));
            }
            let missed: Vec<(usize, u32)> =
                self.missed().into_iter().map(|(p, m)| (p, m.min(d))).filter(|&(_, m)| m > 0).collect();
            let tallies = standings::tally_all(self.players.len(), &missed, &prefix);
            let mw = standings::own_pct(rules, entrants, &tallies);
            for (p, pl) in self.players.iter().enumerate() {
                if pl.dropped_after != Some(d) {
                    continue;
                }
                let opp = &tallies.0[p].opponents;
                if !opp.is_empty() {
                    out[p] = Some(opp.iter().map(|&o| mw[o]).sum::<f64>() / opp.len() as f64);
                }
            }
        }
        out
    }

    /// The pairing of Swiss round `round` that the seed and the current state determine.
    pub fn derive_round(&self, round: u32, seed: &Secret) -> (Vec<PairedTable>, Vec<String>) {
        self.derive_round_from(&self.standings(), round, seed)
    }

    /// As [`Self::derive_round`], from standings the caller already computed on this state.
    pub fn derive_round_from(
        &self,
        standings: &[StandingRow],
        round: u32,
        seed: &Secret,
    ) -> (Vec<PairedTable>, Vec<String>) {
        let mut order: Vec<usize> = Vec::new();
        for row in standings {
            if let Some(p) = self.player(&row.player) {
                if self.active_in(p, round) {
                    order.push(p);
                }
            }
        }
        let mut slot = vec![usize::MAX; self.players.len()];
        for (i, &p) in order.iter().enumerate() {
            slot[p] = i;
        }
        let points: HashMap<&str, u32> = standings.iter().map(|r| (r.player.as_str(), r.points)).collect();
        let entrants: Vec<pairing::Entrant> = order
            .iter()
            .map(|&p| {
                let name = self.players[p].name.as_str();
                pairing::Entrant {
                    score: points.get(name).copied().unwrap_or(0),
                    had_bye: self.tallies.0.get(p).is_some_and(|t| t.byes > 0),
                    key: order_key(&seed.0, name),
                }
            })
            .collect();
        let opponents: Vec<Vec<usize>> = order
            .iter()
            .map(|&p| {
                self.tallies
                    .0
                    .get(p)
                    .map(|t| t.opponents.iter().map(|&o| slot[o]).filter(|&o| o != usize::MAX).collect())
                    .unwrap_or_default()
            })
            .collect();
        let pairing = pairing::pair_round(&entrants, &opponents);
        let tables = pairing
            .pairs
            .iter()
            .enumerate()
            .map(|(i, &(a, b))| PairedTable {
                table: i as u32 + 1,
                a: self.players[order[a]].name.clone(),
                b: self.players[order[b]].name.clone(),
            })
            .collect();
        let byes = pairing.bye.map(|b| vec![self.players[order[b]].name.clone()]).unwrap_or_default();
        (tables, byes)
    }

    pub(crate) fn table_states(&self, tables: &[PairedTable]) -> Vec<TableState> {
        tables
            .iter()
            .filter_map(|t| {
                Some(TableState {
                    table: t.table,
                    a: self.player(&t.a)?,
                    b: self.player(&t.b)?,
                    result: None,
                    games: vec![],
                    corrections: 0,
                })
            })
            .collect()
    }
}

/// The key of the draw among players tied on every tiebreaker: the seed commitment (fixed and
/// public before any result, so nobody can steer a tie), or for tournaments without one,
/// `blake3 derive_key("kifu 2026-11-22 tie draw v1", postcard(config))`. A player's place in the
/// draw is `order_key(tie_key, name)`, lowest first.
pub fn tie_key(config: &ConfigV1) -> [u8; 32] {
    match config.seed_commitment {
        Some(c) => c.0,
        None => blake3::derive_key("kifu 2026-11-22 tie draw v1", &postcard::to_stdvec(config).unwrap_or_default()),
    }
}

/// Seeds in single-elimination bracket order: 1v8, 4v5, 2v7, 3v6 for eight.
pub fn bracket_order(k: usize) -> Vec<usize> {
    let mut order = vec![1usize];
    while order.len() < k {
        let m = order.len() * 2 + 1;
        order = order.iter().flat_map(|&s| [s, m - s]).collect();
    }
    order
}

/// A player's final place: after a top cut, the champion, then each bracket round's losers (in
/// Swiss order within the round), then everyone else in Swiss order.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Placing {
    pub place: u32,
    /// Shared with others tied on every tiebreaker (only in the Swiss part): shown "T9".
    pub tied: bool,
    pub player: String,
    /// "champion", "final", "semifinals", "quarterfinals", "top 16", ..., "in the bracket"
    /// (still playing), or "swiss".
    pub stage: String,
    /// The Swiss rank label ("T8", "12").
    pub swiss_rank: String,
    pub dropped: bool,
}

impl Placing {
    pub fn place_label(&self) -> String {
        if self.tied {
            format!("T{}", self.place)
        } else {
            self.place.to_string()
        }
    }
}

impl Tournament {
    /// Final placings (provisional while the bracket is being played).
    pub fn placings(&self) -> Vec<Placing> {
        if self.pod_format.is_some() {
            return self.pod_placings();
        }
        let swiss = self.standings();
        let mut out =
            Placings { state: self, swiss: &swiss, rows: Vec::new(), placed: vec![false; self.players.len()] };
        out.bracket();
        out.swiss_rest();
        // A place is shared ("T3") only if another row holds it: a Swiss tie with a player the
        // top cut placed higher leaves the other player alone in its place.
        let mut rows = out.rows;
        let mut holders: HashMap<u32, usize> = HashMap::new();
        for row in &rows {
            *holders.entry(row.place).or_default() += 1;
        }
        for row in &mut rows {
            row.tied = holders.get(&row.place).copied().unwrap_or(0) > 1;
        }
        rows
    }

    /// A pod tournament has no top cut: its placings are its pod standings.
    fn pod_placings(&self) -> Vec<Placing> {
        self.pod_standings()
            .into_iter()
            .map(|r| Placing {
                place: r.rank,
                tied: false,
                player: r.player,
                stage: "pods".into(),
                swiss_rank: r.rank.to_string(),
                dropped: r.dropped,
            })
            .collect()
    }
}

/// Placings being built: the bracket's first, then the rest in Swiss order.
struct Placings<'a> {
    state: &'a Tournament,
    swiss: &'a [StandingRow],
    rows: Vec<Placing>,
    placed: Vec<bool>,
}

impl Placings<'_> {
    fn swiss_pos(&self, p: usize) -> Option<usize> {
        let name = &self.state.players[p].name;
        self.swiss.iter().position(|r| &r.player == name)
    }

    fn push(&mut self, p: usize, stage: String) {
        self.placed[p] = true;
        let row = self.swiss_pos(p).map(|i| &self.swiss[i]);
        let pl = &self.state.players[p];
        self.rows.push(Placing {
            place: self.rows.len() as u32 + 1,
            tied: false,
            player: pl.name.clone(),
            stage,
            swiss_rank: row.map(|r| r.rank_label()).unwrap_or_default(),
            dropped: pl.dropped_after.is_some(),
        });
    }

    /// Players not placed yet, in Swiss order.
    fn unplaced_by_swiss(&self, mut players: Vec<usize>) -> Vec<usize> {
        players.retain(|&p| !self.placed[p]);
        players.sort_by_key(|&p| self.swiss_pos(p));
        players.dedup();
        players
    }

    /// The champion, players still in the bracket, then each bracket round's losers.
    fn bracket(&mut self) {
        let cut: Vec<&RoundState> = self.state.rounds.iter().filter(|r| r.top_cut).collect();
        let Some(last) = cut.last() else { return };
        // Still alive: every player of the latest bracket round without a decided loss.
        let mut alive: Vec<usize> = Vec::new();
        for t in &last.tables {
            match t.winner() {
                Some(w) if last.tables.len() == 1 => self.push(w, "champion".into()),
                Some(w) => alive.push(w),
                None => alive.extend([t.a, t.b]),
            }
        }
        for p in self.unplaced_by_swiss(alive) {
            self.push(p, "in the bracket".into());
        }
        for r in cut.iter().rev() {
            let losers = r.tables.iter().filter_map(|t| t.winner().map(|w| if w == t.a { t.b } else { t.a }));
            for p in self.unplaced_by_swiss(losers.collect()) {
                self.push(p, r.stage());
            }
        }
    }

    /// Everyone the bracket did not place, in Swiss order; a shared Swiss rank is a shared place.
    fn swiss_rest(&mut self) {
        let mut prev: Option<(u32, u32)> = None; // (Swiss rank, place) of the previous row
        for r in self.swiss {
            let Some(p) = self.state.player(&r.player) else { continue };
            if self.placed[p] {
                continue;
            }
            let place = match prev {
                Some((rank, place)) if r.tied && rank == r.rank => place,
                _ => self.rows.len() as u32 + 1,
            };
            prev = Some((r.rank, place));
            self.rows.push(Placing {
                place,
                tied: r.tied,
                player: r.player.clone(),
                stage: "swiss".into(),
                swiss_rank: r.rank_label(),
                dropped: self.state.players[p].dropped_after.is_some(),
            });
        }
    }
}

impl Tournament {
    /// Every reported pod: its players by seat and each seat's points.
    pub fn pod_games(&self) -> Vec<(Vec<String>, Vec<u32>)> {
        let Some((_, table)) = self.pod_format else { return vec![] };
        self.rounds
            .iter()
            .flat_map(|r| &r.pods)
            .filter_map(|p| {
                let places = p.places.as_ref()?;
                let names = p.seats.iter().map(|&s| self.players[s].name.clone()).collect();
                let pts = (0..p.seats.len()).map(|i| pods::points_from_places(places, i, table)).collect();
                Some((names, pts))
            })
            .collect()
    }

    /// The pod standings (see [`super::pods`] for the tiebreakers; the last is the tie draw).
    pub fn pod_standings(&self) -> Vec<PodStandingRow> {
        let players: Vec<(String, u64, bool)> = self
            .players
            .iter()
            .map(|p| (p.name.clone(), order_key(&self.tie_key, &p.name), p.dropped_after.is_some()))
            .collect();
        pods::rank(&players, &self.pod_games())
    }

    /// The pods of round `round` that the seed and the current state determine: the active
    /// players ranked by points, opponents' average points and `order_key(seed, name)`, seated
    /// by [`pods::pair_pods`] against every earlier pod.
    pub fn derive_pods(&self, round: u32, seed: &Secret) -> Result<Vec<Vec<String>>, Violation> {
        let Some((size, _)) = self.pod_format else {
            return Err(Violation::new("TOUR-POD-1", "this tournament does not play in pods"));
        };
        let players: Vec<(String, u64, bool)> = (0..self.players.len())
            .filter(|&p| self.active_in(p, round))
            .map(|p| (self.players[p].name.clone(), order_key(&seed.0, &self.players[p].name), false))
            .collect();
        let ranked: Vec<String> = pods::rank(&players, &self.pod_games()).into_iter().map(|r| r.player).collect();
        let mut met = pods::Met::new();
        for pod in self.rounds.iter().flat_map(|r| &r.pods) {
            let names: Vec<String> = pod.seats.iter().map(|&s| self.players[s].name.clone()).collect();
            pods::record_pod(&mut met, &names);
        }
        pods::pair_pods(&ranked, &met, size)
    }
}
