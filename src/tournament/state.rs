//! The tournament fold: `validate` holds every rule of the event log, `apply` is total. Pairings
//! and top-cut seedings are re-derived here, so a replay that validates every event has checked
//! every round against its seed and the state before it.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::events::{round_seed, ConfigV1, GameLink, MatchScore, PairedTable, Penalty, RoundsPlan, TournamentEvent};
use super::pairing::{self, order_key};
use super::pods::{self, PodSize, PodStandingRow, PointsTable};
use super::policy::{Rules, TOP_CUT_BY_ATTENDANCE};
use super::standings::{self, MatchRecord, StandingRow, Tallies};
use crate::game::commit::{commit_seed, Commitment, Secret};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    pub name: String,
    pub deck: Option<String>,
    /// The first round a late entrant plays (earlier rounds count as losses).
    pub first_round: u32,
    pub dropped_after: Option<u32>,
    pub penalties: Vec<(u32, Penalty, String)>,
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

    fn active_in(&self, p: usize, round: u32) -> bool {
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

    /// The next top-cut round as the standings (first round) or the previous winners determine it.
    pub fn derive_top_cut(&self) -> Result<(u32, Vec<PairedTable>), String> {
        self.config.as_ref().ok_or("the tournament was not created")?;
        let round = self.rounds.len() as u32 + 1;
        let previous: Vec<&RoundState> = self.rounds.iter().filter(|r| r.top_cut).collect();
        let seeds: Vec<String> = match previous.last() {
            None => {
                let k = self.planned_cut() as usize;
                if k < 2 || !k.is_power_of_two() {
                    return Err(format!("the top cut size is {k}; it must be a power of two, at least 2"));
                }
                let planned = self.swiss_rounds.unwrap_or(0);
                if self.swiss_played() < planned {
                    return Err(format!("only {} of {planned} Swiss rounds were played", self.swiss_played()));
                }
                let st: Vec<StandingRow> = self.standings().into_iter().filter(|r| !r.dropped).collect();
                if st.len() < k {
                    return Err(format!("a top {k} needs {k} players still in; {} are", st.len()));
                }
                let order = bracket_order(k);
                order.iter().map(|&s| st[s - 1].player.clone()).collect()
            }
            Some(last) => {
                if last.tables.len() < 2 {
                    return Err("the top cut is over: its final was paired".into());
                }
                let mut winners = Vec::new();
                for t in &last.tables {
                    match t.winner().and_then(|w| self.players.get(w)) {
                        Some(p) => winners.push(p.name.clone()),
                        None => return Err(format!("round {} table {} has no winner yet", last.round, t.table)),
                    }
                }
                winners
            }
        };
        let tables = seeds
            .chunks(2)
            .enumerate()
            .filter_map(|(i, c)| match c {
                [a, b] => Some(PairedTable { table: i as u32 + 1, a: a.clone(), b: b.clone() }),
                _ => None,
            })
            .collect();
        Ok((round, tables))
    }

    /// Every rule `event` breaks in this state. Empty means it may be recorded.
    pub fn validate(&self, event: &TournamentEvent) -> Vec<String> {
        self.validate_inner(event, true)
    }

    /// As [`Self::validate`] for a round the caller has just derived from this very state with
    /// [`Self::derive_round`]: every rule but the re-derivation (which would repeat the work).
    pub fn validate_derived(&self, event: &TournamentEvent) -> Vec<String> {
        self.validate_inner(event, false)
    }

    fn validate_inner(&self, event: &TournamentEvent, rederive: bool) -> Vec<String> {
        let mut v = Vec::new();
        if self.config.is_none() {
            if !matches!(event, TournamentEvent::Created { .. }) {
                v.push("the first event of a tournament must be Created".into());
            }
            return v;
        }
        if self.finalized && !matches!(event, TournamentEvent::CheckpointSigned { .. }) {
            v.push("the tournament is finalized; nothing but signatures can be recorded after that".into());
            return v;
        }
        let unknown = |name: &str| self.unknown(name);
        let last = self.rounds.last();
        if self.pod_format.is_some()
            && matches!(
                event,
                TournamentEvent::RoundPaired { .. }
                    | TournamentEvent::TopCutPaired { .. }
                    | TournamentEvent::ResultReported { .. }
                    | TournamentEvent::ResultCorrected { .. }
            )
        {
            v.push(format!(
                "this tournament plays in pods: {} is for two-player tables (pair pods, report pod places)",
                super::record::kind(event)
            ));
            return v;
        }
        match event {
            TournamentEvent::Created { .. } => v.push("the tournament was already created".into()),
            TournamentEvent::PlayerRegistered { player, .. } | TournamentEvent::LateEntered { player, .. } => {
                if player.trim().is_empty() {
                    v.push("a player's name cannot be empty".into());
                } else if player.trim() != player {
                    v.push(format!("{player:?} has spaces around it: register it trimmed"));
                }
                // The one name bound (since 0.1.0 here, where it also holds for stored events).
                let max = crate::log::limits::NAME_MAX;
                if player.chars().count() > max {
                    v.push(format!("a player's name has at most {max} characters"));
                }
                if player == "-" {
                    v.push("\"-\" is reserved (it marks a bye in imports)".into());
                }
                if self.index.contains_key(player) {
                    v.push(format!("{player:?} is already registered"));
                } else if let Some(&p) = self.folded.get(&fold_name(player)) {
                    v.push(format!(
                        "{player:?} is already registered as {:?} (names ignore case)",
                        self.players[p].name
                    ));
                }
                match event {
                    TournamentEvent::PlayerRegistered { .. } if !self.rounds.is_empty() => {
                        v.push("round 1 is already paired: register latecomers as late entries".into())
                    }
                    TournamentEvent::LateEntered { first_round, .. } => {
                        if self.rounds.is_empty() {
                            v.push("no round is paired yet: register the player normally".into());
                        }
                        if self.rounds.iter().any(|r| r.top_cut) {
                            v.push("the Swiss rounds are over".into());
                        }
                        let next = self.rounds.len() as u32 + 1;
                        if *first_round != next {
                            v.push(format!("a late entrant starts in the next round, {next}, not {first_round}"));
                        }
                    }
                    _ => {}
                }
            }
            TournamentEvent::PlayerDropped { player, after_round, .. } => match self.player(player) {
                None => v.push(unknown(player)),
                Some(p) => {
                    if self.players[p].dropped_after.is_some() {
                        v.push(format!("{player} already dropped"));
                    }
                    let cur = self.rounds.len() as u32;
                    if *after_round != cur {
                        v.push(format!("a drop takes effect after the current round {cur}, not {after_round}"));
                    }
                }
            },
            TournamentEvent::RoundPaired { round, tables, byes, round_seed: seed } => {
                let next = self.rounds.len() as u32 + 1;
                if *round != next {
                    v.push(format!("the next round is {next}, not {round}"));
                }
                if self.rounds.iter().any(|r| r.top_cut) {
                    v.push("the top cut has started; no more Swiss rounds".into());
                }
                if let Some(l) = last {
                    if !l.complete() {
                        v.push(format!("round {} still has tables without a result", l.round));
                    }
                }
                if let Some(planned) = self.swiss_rounds {
                    if *round > planned && seed.is_some() {
                        v.push(format!("the tournament plays {planned} Swiss rounds"));
                    }
                }
                if seed.is_some() && self.active_count(*round) < 2 {
                    v.push(format!(
                        "round {round} needs at least two active players; {} {} in",
                        self.active_count(*round),
                        if self.active_count(*round) == 1 { "is" } else { "are" }
                    ));
                }
                let mut seen = vec![false; self.players.len()];
                let names = tables.iter().flat_map(|t| [&t.a, &t.b]).chain(byes.iter());
                for name in names {
                    match self.player(name) {
                        None => v.push(unknown(name)),
                        Some(p) => {
                            if std::mem::replace(&mut seen[p], true) {
                                v.push(format!("{name} is paired twice in round {round}"));
                            }
                            if !self.active_in(p, *round) {
                                v.push(format!("{name} is not in round {round} (dropped or not yet entered)"));
                            }
                        }
                    }
                }
                for (i, t) in tables.iter().enumerate() {
                    if t.table != i as u32 + 1 {
                        v.push(format!("tables must be numbered 1, 2, 3...: found {} at position {}", t.table, i + 1));
                        break;
                    }
                }
                match seed {
                    Some(seed) => {
                        if self.commitment().is_none() {
                            v.push("the tournament committed to no seed, so no round can claim one".into());
                        }
                        if rederive {
                            let (want_tables, want_byes) = self.derive_round(*round, seed);
                            if &want_tables != tables || &want_byes != byes {
                                v.push(describe_pairing_diff(*round, &want_tables, &want_byes, tables, byes));
                            }
                        }
                    }
                    None => {
                        if self.commitment().is_some() {
                            v.push(
                                "this tournament pairs from its committed seed: the round must carry its seed".into(),
                            );
                        }
                    }
                }
            }
            TournamentEvent::ResultReported { round, table, score, .. }
            | TournamentEvent::ResultCorrected { round, table, score, .. } => {
                match self.rounds.iter().find(|r| r.round == *round) {
                    None => v.push(format!("round {round} is not paired")),
                    Some(r) => match r.table_at(*table).map(|i| &r.tables[i]) {
                        None => v.push(format!("round {round} has no table {table}")),
                        Some(t) => {
                            let corrected = matches!(event, TournamentEvent::ResultCorrected { .. });
                            if corrected && t.result.is_none() {
                                v.push(format!("round {round} table {table} has no result to correct; report it"));
                            }
                            if !corrected && t.result.is_some() {
                                v.push(format!(
                                    "round {round} table {table} already has a result; a judge corrects it with a reason"
                                ));
                            }
                            match self.best_of {
                                Some(n) => {
                                    if let Err(e) = score.check(n, r.top_cut) {
                                        v.push(format!("round {round} table {table}: {e}"));
                                    }
                                }
                                None if r.top_cut && score.a_wins == score.b_wins => {
                                    v.push("a top-cut match needs a winner".into())
                                }
                                None => {}
                            }
                            v.extend(self.penalty_conflicts(*round, t, *score));
                        }
                    },
                }
                if let TournamentEvent::ResultCorrected { judge, reason, .. } = event {
                    if judge.trim().is_empty() || reason.trim().is_empty() {
                        v.push("a correction names the judge and the reason".into());
                    }
                }
            }
            TournamentEvent::PenaltyIssued { player, judge, reason, round, penalty } => {
                if judge.trim().is_empty() {
                    v.push("a penalty names the judge".into());
                }
                if reason.trim().is_empty() {
                    v.push("a penalty gives its reason".into());
                }
                let cur = self.rounds.len() as u32;
                if *round > cur.max(1) {
                    v.push(format!("round {round} is not paired yet (the current round is {cur})"));
                }
                match self.player(player) {
                    None => v.push(unknown(player)),
                    Some(p) => {
                        if *penalty == Penalty::Disqualification && self.players[p].dropped_after.is_some() {
                            v.push(format!("{player} already left the tournament"));
                        }
                        if matches!(penalty, Penalty::GameLoss | Penalty::MatchLoss) {
                            let table = self
                                .rounds
                                .iter()
                                .find(|r| r.round == *round)
                                .and_then(|r| r.tables.iter().find(|t| t.a == p || t.b == p));
                            if let Some(t) = table {
                                if let Some(s) = t.result {
                                    let mine = if t.a == p { s } else { s.swapped() };
                                    let ok = match penalty {
                                        Penalty::MatchLoss => mine.b_wins > mine.a_wins,
                                        _ => mine.b_wins >= 1,
                                    };
                                    if !ok {
                                        v.push(format!(
                                            "round {round} table {} already has the result {s}, which does not \
                                             include this {}; correct the result with it",
                                            t.table,
                                            if *penalty == Penalty::MatchLoss { "match loss" } else { "game loss" }
                                        ));
                                    }
                                }
                            }
                        }
                    }
                }
            }
            TournamentEvent::TopCutPaired { round, tables } => {
                if let Some(l) = last {
                    if !l.complete() {
                        v.push(format!("round {} still has tables without a result", l.round));
                    }
                }
                let derived = if rederive { Some(self.derive_top_cut()) } else { None };
                match derived {
                    None => {}
                    Some(Err(e)) => v.push(e),
                    Some(Ok((want_round, want))) => {
                        if want_round != *round {
                            v.push(format!("the next round is {want_round}, not {round}"));
                        }
                        if &want != tables {
                            v.push(describe_pairing_diff(*round, &want, &[], tables, &[]));
                        }
                    }
                }
            }
            TournamentEvent::SeedRevealed { seed } => match self.commitment() {
                None => v.push("the tournament committed to no seed".into()),
                Some(c) => {
                    if commit_seed(seed) != c {
                        v.push(format!("the revealed seed does not match the commitment {c}"));
                    }
                    for r in &self.rounds {
                        if let Some(s) = r.seed {
                            if round_seed(seed, r.round) != s {
                                v.push(format!("round {}'s seed was not derived from the revealed seed", r.round));
                            }
                        }
                    }
                }
            },
            TournamentEvent::Finalized => {
                // 0.1.0 finalized whenever asked; its logs are checked by the rules they were played by.
                let unfinished = if self.released_0_1 { Vec::new() } else { self.unfinished() };
                for u in unfinished {
                    v.push(format!("{u}; a judge can finalize early with a reason"));
                }
                if self.commitment().is_some() && self.revealed_seed.is_none() {
                    v.push("reveal the pairing seed before finalizing".into());
                }
            }
            TournamentEvent::FinalizedEarly { judge, reason } => {
                if judge.trim().is_empty() || reason.trim().is_empty() {
                    v.push("finalizing early names the judge and the reason".into());
                }
                if self.unfinished().is_empty() {
                    v.push("the tournament is over: finalize it normally".into());
                }
                if self.commitment().is_some() && self.revealed_seed.is_none() {
                    v.push("reveal the pairing seed before finalizing".into());
                }
            }
            TournamentEvent::MatchFormatSet { best_of } => {
                if !super::events::FORMATS.contains(best_of) {
                    v.push(format!("best of {best_of}: kifu plays best of 1, 3 or 5"));
                }
                if !self.rounds.is_empty() {
                    v.push("the match format is set before round 1 is paired".into());
                }
                if self.best_of.is_some() {
                    v.push("the match format is already set".into());
                }
            }
            TournamentEvent::SeedCommitted { .. } => {
                if self.commitment().is_some() {
                    v.push("the tournament already committed to a pairing seed".into());
                }
            }
            TournamentEvent::SwissRoundsSet { rounds } => {
                if *rounds < self.swiss_played().max(1) {
                    v.push(format!(
                        "{} Swiss round(s) were already played; plan at least that many",
                        self.swiss_played()
                    ));
                }
                if *rounds > 64 {
                    v.push("at most 64 Swiss rounds".into());
                }
                if self.rounds.iter().any(|r| r.top_cut) {
                    v.push("the top cut has started".into());
                }
            }
            TournamentEvent::SignerRecorded { signer, .. } => {
                if signer.trim().is_empty() || signer.len() > 100 {
                    v.push("a signer has a name of 1 to 100 characters".into());
                }
                if self.signers.iter().any(|(n, _)| n == signer) {
                    v.push(format!("{signer} already has a recorded key"));
                }
            }
            TournamentEvent::CheckpointSigned { signer, checkpoint, signature } => {
                if !self.signers.iter().any(|(n, _)| n == signer) {
                    v.push(format!("{signer} has no recorded key"));
                }
                if signature.len() != 64 {
                    v.push(format!("a signature has 64 bytes, not {}", signature.len()));
                }
                let (_, events) = checkpoint.prefix();
                match checkpoint {
                    super::events::Checkpoint::RoundClosed { round, .. } => {
                        match self.rounds.iter().find(|r| r.round == *round) {
                            None => v.push(format!("round {round} is not paired")),
                            Some(r) if !r.complete() => v.push(format!("round {round} is not closed yet")),
                            _ => {}
                        }
                    }
                    super::events::Checkpoint::Final { .. } => {
                        if !self.finalized {
                            v.push("the final root is signed after finalization".into());
                        }
                    }
                }
                if events != self.seen {
                    v.push(format!("a checkpoint names the log as it is ({} events), not {events}", self.seen));
                }
            }
            TournamentEvent::PodFormatSet { .. }
            | TournamentEvent::PodRoundPaired { .. }
            | TournamentEvent::PodResultReported { .. }
            | TournamentEvent::PodResultCorrected { .. } => v.extend(self.validate_pods(event, rederive)),
            TournamentEvent::RoundVoided { round, reason } => {
                if reason.trim().is_empty() {
                    v.push("voiding a round gives its reason".into());
                }
                match last {
                    None => v.push("no round is paired".into()),
                    Some(l) => {
                        if l.round != *round {
                            v.push(format!("only the latest round, {}, can be voided, not {round}", l.round));
                        }
                        if let Some(t) = l.tables.iter().find(|t| t.result.is_some()) {
                            v.push(format!(
                                "round {} already has a result (table {}); a round is voided only before any result",
                                l.round, t.table
                            ));
                        }
                        if let Some(p) = l.pods.iter().find(|p| p.places.is_some()) {
                            v.push(format!(
                                "round {} already has a result (pod {}); a round is voided only before any result",
                                l.round, p.pod
                            ));
                        }
                        let penalized = self.players.iter().any(|p| p.penalties.iter().any(|x| x.0 == l.round));
                        if penalized {
                            v.push(format!("a penalty was issued in round {}; it cannot be voided", l.round));
                        }
                    }
                }
            }
        }
        v
    }

    /// Applies an event. Total: an event that breaks rules still folds (unknown names are skipped).
    pub fn apply(&mut self, event: &TournamentEvent) {
        self.seen += 1;
        match event {
            TournamentEvent::Created { config } => {
                if self.config.is_none() {
                    self.config = Some(config.clone());
                    if let RoundsPlan::Fixed(n) = config.rounds {
                        self.swiss_rounds = Some(n);
                    }
                    if config.top_cut != TOP_CUT_BY_ATTENDANCE {
                        self.top_cut = Some(config.top_cut);
                    }
                    self.tie_key = tie_key(config);
                }
            }
            TournamentEvent::PlayerRegistered { player, deck } => self.add_player(player, deck, 1),
            TournamentEvent::LateEntered { player, deck, first_round } => {
                self.add_player(player, deck, (*first_round).max(1));
                if let Some(p) = self.player(player) {
                    if *first_round > 1 {
                        self.tallies.missed(p, first_round - 1);
                    }
                }
            }
            TournamentEvent::PlayerDropped { player, after_round, .. } => {
                if let Some(p) = self.player(player) {
                    self.players[p].dropped_after.get_or_insert(*after_round);
                }
            }
            TournamentEvent::RoundPaired { round, tables, byes, round_seed } => {
                let n = self.players.iter().filter(|p| p.dropped_after.is_none()).count() as u32;
                if self.swiss_rounds.is_none() {
                    self.swiss_rounds = self.rules().map(|r| r.swiss_rounds(n));
                }
                if self.top_cut.is_none() {
                    self.top_cut = self.rules().map(|r| r.top_cut(n));
                }
                let byes: Vec<usize> = byes.iter().filter_map(|b| self.player(b)).collect();
                for &b in &byes {
                    self.tallies.add(&MatchRecord::bye(b));
                }
                let tables = self.table_states(tables);
                self.rounds.push(RoundState {
                    round: *round,
                    tables,
                    byes,
                    seed: *round_seed,
                    top_cut: false,
                    pods: vec![],
                });
            }
            TournamentEvent::TopCutPaired { round, tables } => {
                let tables = self.table_states(tables);
                self.rounds.push(RoundState {
                    round: *round,
                    tables,
                    byes: vec![],
                    seed: None,
                    top_cut: true,
                    pods: vec![],
                });
            }
            TournamentEvent::ResultReported { round, table, score, games }
            | TournamentEvent::ResultCorrected { round, table, score, games, .. } => {
                let corrected = matches!(event, TournamentEvent::ResultCorrected { .. });
                let Some(r) = self.rounds.iter_mut().find(|r| r.round == *round) else { return };
                let top_cut = r.top_cut;
                let Some(i) = r.table_at(*table) else { return };
                let t = &mut r.tables[i];
                let old = t.result.replace(*score);
                t.games = games.clone();
                if corrected {
                    t.corrections += 1;
                }
                let (a, b) = (t.a, t.b);
                if !top_cut {
                    let rec = |s: MatchScore| MatchRecord {
                        a,
                        b: Some(b),
                        a_wins: s.a_wins,
                        b_wins: s.b_wins,
                        draws: s.draws,
                    };
                    if let Some(o) = old {
                        self.tallies.remove(&rec(o));
                    }
                    self.tallies.add(&rec(*score));
                }
            }
            TournamentEvent::PenaltyIssued { player, round, penalty, reason, .. } => {
                if let Some(p) = self.player(player) {
                    self.players[p].penalties.push((*round, *penalty, reason.clone()));
                    if *penalty == Penalty::Disqualification {
                        let cur = self.rounds.len() as u32;
                        self.players[p].dropped_after.get_or_insert(cur);
                    }
                }
            }
            TournamentEvent::SeedRevealed { seed } => self.revealed_seed = Some(*seed),
            TournamentEvent::Finalized => self.finalized = true,
            TournamentEvent::FinalizedEarly { judge, reason } => {
                self.finalized = true;
                self.finalized_early = Some((judge.clone(), reason.clone()));
            }
            TournamentEvent::MatchFormatSet { best_of } => {
                self.best_of.get_or_insert(*best_of);
            }
            TournamentEvent::RoundVoided { round, reason } => self.void(*round, reason),
            TournamentEvent::SeedCommitted { commitment } => {
                self.late_commitment.get_or_insert(*commitment);
            }
            TournamentEvent::SwissRoundsSet { rounds } => self.swiss_rounds = Some(*rounds),
            TournamentEvent::SignerRecorded { signer, public_key } => {
                if !self.signers.iter().any(|(n, _)| n == signer) {
                    self.signers.push((signer.clone(), *public_key));
                }
            }
            TournamentEvent::CheckpointSigned { signer, checkpoint, .. } => {
                self.signed.push((checkpoint.clone(), signer.clone()));
            }
            TournamentEvent::PodFormatSet { size, sole_win, shared_win, loss } => {
                if self.pod_format.is_none() {
                    let size = PodSize { size: *size as usize };
                    let table = PointsTable { sole_win: *sole_win, shared_win: *shared_win, loss: *loss };
                    self.pod_format = Some((size, table));
                    self.top_cut = Some(0);
                }
            }
            TournamentEvent::PodRoundPaired { round, pods, round_seed } => {
                let n = self.players.iter().filter(|p| p.dropped_after.is_none()).count() as u32;
                if self.swiss_rounds.is_none() {
                    self.swiss_rounds = self.rules().map(|r| r.swiss_rounds(n));
                }
                let pods = pods
                    .iter()
                    .enumerate()
                    .map(|(i, seats)| PodState {
                        pod: i as u32 + 1,
                        seats: seats.iter().filter_map(|s| self.player(s)).collect(),
                        places: None,
                        games: vec![],
                        corrections: 0,
                    })
                    .collect();
                self.rounds.push(RoundState {
                    round: *round,
                    tables: vec![],
                    byes: vec![],
                    seed: Some(*round_seed),
                    top_cut: false,
                    pods,
                });
            }
            TournamentEvent::PodResultReported { round, pod, places, games }
            | TournamentEvent::PodResultCorrected { round, pod, places, games, .. } => {
                let Some(r) = self.rounds.iter_mut().find(|r| r.round == *round) else { return };
                let Some(p) = r.pods.iter_mut().find(|p| p.pod == *pod) else { return };
                p.places = Some(places.clone());
                p.games = games.clone();
                if matches!(event, TournamentEvent::PodResultCorrected { .. }) {
                    p.corrections += 1;
                }
            }
        }
    }

    /// Withdraws the latest round: its byes leave the tallies, players who entered or dropped
    /// after it are moved back one round, and a plan fixed by its pairing is unfixed.
    fn void(&mut self, round: u32, reason: &str) {
        if self.rounds.last().map(|r| r.round) != Some(round) {
            return;
        }
        let Some(r) = self.rounds.pop() else { return };
        self.voided.push((round, reason.to_string()));
        for t in &r.tables {
            if let Some(s) = t.result {
                if !r.top_cut {
                    self.tallies.remove(&MatchRecord {
                        a: t.a,
                        b: Some(t.b),
                        a_wins: s.a_wins,
                        b_wins: s.b_wins,
                        draws: s.draws,
                    });
                }
            }
        }
        for &b in &r.byes {
            self.tallies.remove(&MatchRecord::bye(b));
        }
        for p in 0..self.players.len() {
            let pl = &mut self.players[p];
            if pl.first_round == round + 1 && round >= 1 {
                pl.first_round = round.max(1);
                if let Some(t) = self.tallies.0.get_mut(p) {
                    t.missed = t.missed.saturating_sub(1);
                    t.rounds = t.rounds.saturating_sub(1);
                    t.losses = t.losses.saturating_sub(1);
                }
            }
            if pl.dropped_after == Some(round) {
                pl.dropped_after = Some(round - 1);
            }
        }
        if self.rounds.is_empty() {
            if let Some(cfg) = &self.config {
                self.swiss_rounds = match cfg.rounds {
                    RoundsPlan::Fixed(n) => Some(n),
                    RoundsPlan::ByAttendance => None,
                };
                self.top_cut = (cfg.top_cut != TOP_CUT_BY_ATTENDANCE).then_some(cfg.top_cut);
            }
        }
    }

    fn add_player(&mut self, name: &str, deck: &Option<String>, first_round: u32) {
        if self.index.contains_key(name) {
            return;
        }
        self.folded.entry(fold_name(name)).or_insert(self.players.len());
        self.index.insert(name.to_string(), self.players.len());
        self.players.push(Player {
            name: name.to_string(),
            deck: deck.clone(),
            first_round,
            dropped_after: None,
            penalties: vec![],
        });
        self.tallies.grow(self.players.len());
    }

    fn table_states(&self, tables: &[PairedTable]) -> Vec<TableState> {
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

impl Tournament {
    /// Game or match losses the penalties of `round` impose on a result at `t`, violated by `score`.
    fn penalty_conflicts(&self, round: u32, t: &TableState, score: MatchScore) -> Vec<String> {
        let mut v = Vec::new();
        for (p, mine) in [(t.a, score), (t.b, score.swapped())] {
            let Some(pl) = self.players.get(p) else { continue };
            for (r, pen, _) in &pl.penalties {
                if *r != round {
                    continue;
                }
                match pen {
                    Penalty::MatchLoss if mine.b_wins <= mine.a_wins => v.push(format!(
                        "{} has a match loss penalty in round {round}: the result must be a loss",
                        pl.name
                    )),
                    Penalty::GameLoss if mine.b_wins == 0 => v.push(format!(
                        "{} has a game loss penalty in round {round}: the opponent won at least one game",
                        pl.name
                    )),
                    _ => {}
                }
            }
        }
        v
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

fn describe_pairing_diff(
    round: u32,
    want: &[PairedTable],
    want_byes: &[String],
    got: &[PairedTable],
    got_byes: &[String],
) -> String {
    let mut lines = vec![format!("round {round}'s pairings are not the ones its seed and the standings give:")];
    for i in 0..want.len().max(got.len()) {
        let w = want.get(i).map(|t| format!("{} vs {}", t.a, t.b)).unwrap_or_else(|| "-".into());
        let g = got.get(i).map(|t| format!("{} vs {}", t.a, t.b)).unwrap_or_else(|| "-".into());
        if w != g {
            lines.push(format!("    table {}: expected {w}, recorded {g}", i + 1));
        }
        if lines.len() > 6 {
            lines.push("    ...".into());
            break;
        }
    }
    if want_byes != got_byes {
        lines.push(format!("    bye: expected {want_byes:?}, recorded {got_byes:?}"));
    }
    lines.join("\n")
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
            // A pod tournament has no top cut: its placings are its pod standings.
            let rows = self.pod_standings();
            return rows
                .into_iter()
                .map(|r| Placing {
                    place: r.rank,
                    tied: false,
                    player: r.player,
                    stage: "pods".into(),
                    swiss_rank: r.rank.to_string(),
                    dropped: r.dropped,
                })
                .collect();
        }
        let swiss = self.standings();
        let swiss_pos: HashMap<&str, usize> = swiss.iter().enumerate().map(|(i, r)| (r.player.as_str(), i)).collect();
        let mut out: Vec<Placing> = Vec::new();
        let mut placed = vec![false; self.players.len()];
        let push = |out: &mut Vec<Placing>, p: usize, stage: String| {
            let name = &self.players[p].name;
            let row = swiss_pos.get(name.as_str()).map(|&i| &swiss[i]);
            out.push(Placing {
                place: out.len() as u32 + 1,
                tied: false,
                player: name.clone(),
                stage,
                swiss_rank: row.map(|r| r.rank_label()).unwrap_or_default(),
                dropped: self.players[p].dropped_after.is_some(),
            });
        };
        let by_swiss = |v: &mut Vec<usize>| v.sort_by_key(|&p| swiss_pos.get(self.players[p].name.as_str()).copied());
        let cut: Vec<&RoundState> = self.rounds.iter().filter(|r| r.top_cut).collect();
        if let Some(last) = cut.last() {
            // Still alive: every player of the latest bracket round without a decided loss.
            let mut alive: Vec<usize> = Vec::new();
            for t in &last.tables {
                match t.winner() {
                    Some(w) if last.tables.len() == 1 => {
                        push(&mut out, w, "champion".into());
                        placed[w] = true;
                    }
                    Some(w) => alive.push(w),
                    None => alive.extend([t.a, t.b]),
                }
            }
            by_swiss(&mut alive);
            for p in alive {
                if !std::mem::replace(&mut placed[p], true) {
                    push(&mut out, p, "in the bracket".into());
                }
            }
            for r in cut.iter().rev() {
                let mut losers: Vec<usize> = r
                    .tables
                    .iter()
                    .filter_map(|t| t.winner().map(|w| if w == t.a { t.b } else { t.a }))
                    .filter(|&p| !placed[p])
                    .collect();
                by_swiss(&mut losers);
                for p in losers {
                    placed[p] = true;
                    push(&mut out, p, r.stage());
                }
            }
        }
        let mut prev: Option<(u32, u32)> = None; // (Swiss rank, place) of the previous row
        for r in &swiss {
            let Some(p) = self.player(&r.player) else { continue };
            if placed[p] {
                continue;
            }
            // Players sharing a Swiss rank share their place too.
            let place = match prev {
                Some((rank, place)) if r.tied && rank == r.rank => place,
                _ => out.len() as u32 + 1,
            };
            prev = Some((r.rank, place));
            out.push(Placing {
                place,
                tied: r.tied,
                player: r.player.clone(),
                stage: "swiss".into(),
                swiss_rank: r.rank_label(),
                dropped: self.players[p].dropped_after.is_some(),
            });
        }
        // A place is shared ("T3") only if another row holds it: a Swiss tie with a player the
        // top cut placed higher leaves the other player alone in its place.
        let mut holders: std::collections::HashMap<u32, usize> = std::collections::HashMap::new();
        for row in &out {
            *holders.entry(row.place).or_default() += 1;
        }
        for row in &mut out {
            row.tied = holders.get(&row.place).copied().unwrap_or(0) > 1;
        }
        out
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
    pub fn derive_pods(&self, round: u32, seed: &Secret) -> Result<Vec<Vec<String>>, String> {
        let Some((size, _)) = self.pod_format else { return Err("this tournament does not play in pods".into()) };
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

    fn validate_pods(&self, event: &TournamentEvent, rederive: bool) -> Vec<String> {
        let mut v = Vec::new();
        match event {
            TournamentEvent::PodFormatSet { size, sole_win, shared_win, loss } => {
                if !self.rounds.is_empty() {
                    v.push("the pod format is set before round 1 is paired".into());
                }
                if self.pod_format.is_some() {
                    v.push("the pod format is already set".into());
                }
                if !(3..=8).contains(size) {
                    v.push(format!("pods of {size}: a pod has 3 to 8 seats"));
                }
                if !(sole_win >= shared_win && shared_win >= loss) {
                    v.push(format!(
                        "points {sole_win}/{shared_win}/{loss} reward a worse place: a sole win ≥ a shared win ≥ a loss"
                    ));
                }
                if self.config.as_ref().is_some_and(|c| c.top_cut != 0) {
                    v.push("a pod tournament has no top cut: create it with a top cut of 0".into());
                }
                if self.best_of.is_some() {
                    v.push("a pod plays one game: the tournament already set a match format".into());
                }
            }
            TournamentEvent::PodRoundPaired { round, pods, round_seed } => {
                if self.pod_format.is_none() {
                    v.push("this tournament does not play in pods (record the pod format before round 1)".into());
                    return v;
                }
                let next = self.rounds.len() as u32 + 1;
                if *round != next {
                    v.push(format!("the next round is {next}, not {round}"));
                }
                if let Some(l) = self.rounds.last() {
                    if !l.complete() {
                        v.push(format!("round {} still has pods without a result", l.round));
                    }
                }
                if let Some(planned) = self.swiss_rounds {
                    if *round > planned {
                        v.push(format!("the tournament plays {planned} rounds"));
                    }
                }
                if self.commitment().is_none() {
                    v.push("pods are paired from a committed seed; the tournament committed to none".into());
                }
                let mut seen = vec![false; self.players.len()];
                for name in pods.iter().flatten() {
                    match self.player(name) {
                        None => v.push(self.unknown(name)),
                        Some(p) => {
                            if std::mem::replace(&mut seen[p], true) {
                                v.push(format!("{name} sits in two pods in round {round}"));
                            }
                            if !self.active_in(p, *round) {
                                v.push(format!("{name} is not in round {round} (dropped or not yet entered)"));
                            }
                        }
                    }
                }
                if rederive {
                    match self.derive_pods(*round, round_seed) {
                        Err(e) => v.push(format!("round {round} cannot be paired in pods: {e}")),
                        Ok(want) if &want != pods => v.push(describe_pod_diff(*round, &want, pods)),
                        Ok(_) => {}
                    }
                }
            }
            TournamentEvent::PodResultReported { round, pod, places, games }
            | TournamentEvent::PodResultCorrected { round, pod, places, games, .. } => {
                let corrected = matches!(event, TournamentEvent::PodResultCorrected { .. });
                if self.pod_format.is_none() {
                    v.push("this tournament does not play in pods: report a table's score".into());
                    return v;
                }
                let found =
                    self.rounds.iter().find(|r| r.round == *round).and_then(|r| r.pods.iter().find(|p| p.pod == *pod));
                let Some(p) = found else {
                    v.push(format!("round {round} has no pod {pod}"));
                    return v;
                };
                if places.len() != p.seats.len() {
                    v.push(format!("pod {pod} has {} seats; {} places were reported", p.seats.len(), places.len()));
                } else if let Err(e) = pods::check_places(places) {
                    v.push(e);
                }
                if !corrected && p.places.is_some() {
                    v.push(format!("round {round} pod {pod} already has a result; a judge corrects it with a reason"));
                }
                if corrected && p.places.is_none() {
                    v.push(format!("round {round} pod {pod} has no result to correct; report it"));
                }
                if let TournamentEvent::PodResultCorrected { judge, reason, .. } = event {
                    if judge.trim().is_empty() || reason.trim().is_empty() {
                        v.push("a correction names the judge and the reason".into());
                    }
                }
                if games.len() > 1 {
                    v.push(format!("a pod plays one game; {} are linked", games.len()));
                }
                for g in games {
                    // A correction may keep (or re-link) the pod's own game.
                    let elsewhere = self.rounds.iter().any(|r| {
                        r.tables.iter().any(|t| t.games.iter().any(|l| l.stream == g.stream))
                            || r.pods.iter().any(|q| {
                                !(r.round == *round && q.pod == *pod) && q.games.iter().any(|l| l.stream == g.stream)
                            })
                    });
                    if elsewhere {
                        v.push(format!("game {} is already linked to another result", g.stream));
                    }
                }
            }
            _ => {}
        }
        v
    }
}

fn describe_pod_diff(round: u32, want: &[Vec<String>], got: &[Vec<String>]) -> String {
    let mut lines = vec![format!("round {round}'s pods are not the ones its seed and the pod standings give:")];
    for i in 0..want.len().max(got.len()) {
        let show = |p: Option<&Vec<String>>| p.map(|p| p.join(", ")).unwrap_or_else(|| "-".into());
        let (w, g) = (show(want.get(i)), show(got.get(i)));
        if w != g {
            lines.push(format!("    pod {}: expected {w}; recorded {g}", i + 1));
        }
    }
    lines.join("\n")
}
