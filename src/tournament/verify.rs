//! Verification of a tournament: its chain, every event against the rules (pairings re-derived
//! from the round seeds and the state before them, the revealed seed against the commitment),
//! the standings recomputed, and every linked game (chain, audit, outcome against the reported
//! score, or in a pod tournament the places reported against the game's placements). Also the
//! tournament's root hash (see the module documentation of [`super`]).

use std::collections::BTreeMap;

use serde::Serialize;

use super::events::{GameLink, TournamentEvent};
use super::record::{self, Loaded};
use super::state::{OverrideKind, PodState, TableState, Tournament};
use super::TournamentError;
use crate::game::driver::Driver;
use crate::log::envelope::{MatchBinding, MatchPlace, StreamId};
use crate::log::hash::Hash32;
use crate::store::Store;

/// Context of the root hash (blake3 derive_key mode).
pub const ROOT_CONTEXT: &str = "kifu 2026-11-21 tournament root v1";

/// One line of the verification report.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Check {
    pub check: String,
    pub ok: bool,
    pub detail: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Report {
    pub tournament: String,
    pub events: u64,
    pub head: Hash32,
    pub games: usize,
    pub root: Hash32,
    pub checks: Vec<Check>,
}

impl Report {
    pub fn ok(&self) -> bool {
        self.checks.iter().all(|c| c.ok)
    }
}

/// The root hash of a tournament head and its linked games.
pub fn root_hash(head: Hash32, events: u64, games: &BTreeMap<String, Hash32>) -> Hash32 {
    let mut input = Vec::with_capacity(44 + games.len() * 80);
    input.extend_from_slice(&head.0);
    input.extend_from_slice(&events.to_le_bytes());
    input.extend_from_slice(&(games.len() as u32).to_le_bytes());
    for (id, h) in games {
        input.extend_from_slice(&(id.len() as u32).to_le_bytes());
        input.extend_from_slice(id.as_bytes());
        input.extend_from_slice(&h.0);
    }
    Hash32(blake3::derive_key(ROOT_CONTEXT, &input))
}

/// Every game a tournament links, by stream id, with the head of its last report.
pub fn linked_games(loaded: &Loaded) -> BTreeMap<String, Hash32> {
    let mut out = BTreeMap::new();
    for r in &loaded.state.rounds {
        for g in r.tables.iter().flat_map(|t| &t.games).chain(r.pods.iter().flat_map(|p| &p.games)) {
            out.insert(g.stream.clone(), g.head);
        }
    }
    out
}

/// One check's outcome into the report: its name, whether it passed, and what was seen.
type Add<'a> = dyn FnMut(&str, bool, String) + 'a;

/// Verifies a tournament stream and everything it links. Fails only when the tournament stream
/// itself cannot be read; every other problem is a failed check in the report.
pub fn verify(
    store: &dyn Store,
    stream: &StreamId,
    drivers: &dyn Fn(&str) -> Option<&'static dyn Driver>,
) -> Result<Report, TournamentError> {
    let mut checks = Vec::new();
    let mut add = |check: &str, ok: bool, detail: String| checks.push(Check { check: check.into(), ok, detail });
    let log = match store.export(stream) {
        Ok(l) => l,
        Err(e) => {
            add("tournament chain", false, e.to_string());
            let (head, root) = (Hash32::default(), Hash32::default());
            return Ok(Report { tournament: stream.to_string(), events: 0, head, games: 0, root, checks });
        }
    };
    add("tournament chain", true, format!("{} events, every hash and link verified", log.head.len));
    let loaded = record::from_log_checked(&log)?;
    check_rules(&loaded, &mut add);
    check_pairings(&loaded, &mut add);
    check_seed(&loaded, &mut add);
    check_penalties(&loaded, &mut add);
    check_finalized(&loaded.state, &mut add);
    check_corrections(&loaded, &mut add);
    check_overrides(&loaded, &mut add);
    check_decks(&loaded, &mut add);
    check_standings(&loaded.state, &mut add);
    check_linked_games(store, &loaded, drivers, &mut add);
    let games = linked_games(&loaded);
    let root = root_hash(loaded.head.hash, loaded.head.len, &games);
    check_signatures(&loaded, &games, &mut add);
    check_reports(&loaded, &mut add);
    let (events, head) = (loaded.head.len, loaded.head.hash);
    Ok(Report { tournament: stream.to_string(), events, head, games: games.len(), root, checks })
}

/// Whether an event of kind `kinds` broke a rule (the checks below fail on their own kinds).
fn broke(loaded: &Loaded, kinds: &[&str]) -> bool {
    loaded.problems.iter().any(|(_, k, _)| kinds.contains(&k.as_str()))
}

/// Every event against the rules of the state before it, each broken rule with its ID.
fn check_rules(loaded: &Loaded, add: &mut Add) {
    if loaded.problems.is_empty() {
        add("events follow the rules", true, format!("{} events validated in order", loaded.entries.len()));
    }
    for (seq, kind, problems) in &loaded.problems {
        let list: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
        add("events follow the rules", false, format!("event {seq} ({kind}): {}", list.join("; ")));
    }
}

/// Which rounds were imported, re-derived from their seeds, cut or voided.
fn check_pairings(loaded: &Loaded, add: &mut Add) {
    let st = &loaded.state;
    let list = |rs: Vec<u32>| rs.iter().map(|r| r.to_string()).collect::<Vec<_>>().join(", ");
    let seeded: Vec<u32> = st.rounds.iter().filter(|r| r.seed.is_some()).map(|r| r.round).collect();
    let imported: Vec<u32> = st.rounds.iter().filter(|r| !r.top_cut && r.seed.is_none()).map(|r| r.round).collect();
    let cut: Vec<u32> = st.rounds.iter().filter(|r| r.top_cut).map(|r| r.round).collect();
    let mut parts = Vec::new();
    if !imported.is_empty() {
        parts.push(format!("round(s) {} imported (paired elsewhere, no seed)", list(imported)));
    }
    if !seeded.is_empty() {
        parts.push(format!("round(s) {} paired by kifu, re-derived from their seeds and the standings", list(seeded)));
    }
    if !cut.is_empty() {
        parts.push(format!("top-cut round(s) {} re-derived from the standings and winners", list(cut)));
    }
    for o in st.overrides.iter().filter(|o| o.kind == OverrideKind::Pairing) {
        parts.push(format!(
            "round {} overridden by {} ({}); later rounds re-derived from the standings as they are",
            o.round, o.by, o.reason
        ));
    }
    for (r, why) in &st.voided {
        parts.push(format!("round {r} voided before any result ({why}) and re-derived"));
    }
    if parts.is_empty() {
        parts.push("no round paired yet".into());
    }
    let pair_ok = !broke(loaded, &["round paired", "top cut paired", "pod round paired", "pairing overridden"]);
    add("pairings", pair_ok, parts.join("; "));
}

fn check_seed(loaded: &Loaded, add: &mut Add) {
    let st = &loaded.state;
    match (st.commitment(), st.revealed_seed) {
        (None, _) => add("seed", true, "no seed committed (imported pairings)".into()),
        (Some(_), Some(_)) => add(
            "seed",
            !broke(loaded, &["seed revealed"]),
            "revealed seed matches the commitment and derives every round seed".into(),
        ),
        (Some(c), None) if st.finalized => {
            add("seed", false, format!("finalized without revealing the seed committed as {c}"))
        }
        (Some(c), None) => add(
            "seed",
            true,
            format!("the seed committed as {c} is revealed at finalization (the event is still running)"),
        ),
    }
}

/// Every penalty with what stands after appeals (an upgrade, a downgrade and the appeal's
/// decision named), every appeal, and every judge call with the time extension it gave.
fn check_penalties(loaded: &Loaded, add: &mut Add) {
    let st = &loaded.state;
    let penalties: Vec<String> = st
        .penalty_log
        .iter()
        .map(|r| {
            let name = st.players.get(r.player).map_or("?", |p| p.name.as_str());
            let mut line = match r.standing {
                Some(k) => format!("{name} {k:?} (round {})", r.round),
                None => format!("{name} {:?} (round {}) overturned", r.issued, r.round),
            };
            if let Some(i) = &r.infraction {
                line.push_str(&format!(" for {i}"));
            }
            if r.upgraded {
                line.push_str(", upgraded for a repeat");
            }
            if let Some(d) = &r.downgrade {
                line.push_str(&format!(", downgraded ({d})"));
            }
            if r.standing != Some(r.issued) && r.standing.is_some() {
                line.push_str(&format!(", issued as {:?}", r.issued));
            }
            line
        })
        .collect();
    if !penalties.is_empty() {
        add(
            "penalties",
            !broke(loaded, &["penalty issued", "infraction penalized"]),
            format!("{}; every game or match loss is reflected in its result", penalties.join(", ")),
        );
    }
    let appeals: Vec<String> = st
        .appeals
        .iter()
        .map(|a| match &a.decided {
            Some((d, hj, why)) => {
                format!("appeal {} of {} by {}: {d} by head judge {hj} ({why})", a.number, a.ruling, a.player)
            }
            None => format!("appeal {} of {} by {}: waiting for the head judge", a.number, a.ruling, a.player),
        })
        .collect();
    if !appeals.is_empty() {
        let ok = !broke(loaded, &["appeal lodged", "appeal decided", "head judge named"]);
        add("appeals", ok, format!("{}; penalties count as decided", appeals.join("; ")));
    }
    if !st.calls.is_empty() {
        let closed = st.calls.iter().filter(|c| c.closed.is_some()).count();
        let extended: Vec<String> = st
            .calls
            .iter()
            .filter(|c| c.extension() > 0)
            .map(|c| {
                let how = match &c.adjusted {
                    Some(a) => format!(", set by {}: {}", a.judge, a.reason),
                    None => String::new(),
                };
                format!("call {} round {} table {} +{} min{how}", c.number, c.round, c.table, c.extension())
            })
            .collect();
        let kinds = [
            "judge call opened",
            "judge call taken",
            "judge call escalated",
            "judge call closed",
            "time extension adjusted",
        ];
        let detail = format!(
            "{} calls, {closed} closed; extensions: {}",
            st.calls.len(),
            if extended.is_empty() { "none".to_string() } else { extended.join("; ") }
        );
        add("judge calls", !broke(loaded, &kinds), detail);
    }
}

fn check_finalized(st: &Tournament, add: &mut Add) {
    match (&st.finalized_early, st.finalized) {
        (Some((judge, reason)), _) => add(
            "finalized",
            true,
            format!("finalized early by judge {judge}: {reason} (left unplayed: {})", st.unfinished().join("; ")),
        ),
        (None, true) if st.pod_format.is_some() => add(
            "finalized",
            true,
            format!("finalized after every planned pod round ({}; a pod tournament has no top cut)", st.swiss_played()),
        ),
        (None, true) => add("finalized", true, "finalized after every planned round and the top cut".into()),
        (None, false) => add("finalized", true, "not finalized yet".into()),
    }
}

fn check_corrections(loaded: &Loaded, add: &mut Add) {
    let corrections: Vec<String> = loaded
        .entries
        .iter()
        .filter_map(|e| match &e.event {
            TournamentEvent::ResultCorrected { round, table, score, judge, reason, .. } => {
                Some(format!("round {round} table {table} to {score} by judge {judge} ({reason})"))
            }
            TournamentEvent::PodResultCorrected { round, pod, places, judge, reason, .. } => {
                Some(format!("round {round} pod {pod} to places {places:?} by judge {judge} ({reason})"))
            }
            _ => None,
        })
        .collect();
    if !corrections.is_empty() {
        let bad = broke(loaded, &["result corrected", "pod result corrected"]);
        add("corrections", !bad, format!("{}; the standings count the corrected results", corrections.join("; ")));
    }
}

/// Every override with its author and reason: pairings changed by hand, late entries, results
/// entered against the players' reports. Listed, not failed: an override breaks a rule only when
/// it lacks its author or reason, or changes what it may not (TOUR-OVER-*).
fn check_overrides(loaded: &Loaded, add: &mut Add) {
    let st = &loaded.state;
    if st.overrides.is_empty() {
        return;
    }
    let list: Vec<String> = st.overrides.iter().map(|o| o.describe()).collect();
    let kinds = ["pairing overridden", "late entry admitted", "result entered", "pod result entered"];
    add("overrides", !broke(loaded, &kinds), format!("{} override(s): {}", list.len(), list.join("; ")))
}

/// Deck lists registered, changed after the lock (with the judge and the reason), and every
/// deck check with its result (which cards differ stays sealed with the judges).
fn check_decks(loaded: &Loaded, add: &mut Add) {
    let st = &loaded.state;
    let registered = st.players.iter().filter(|p| p.deck_list.is_some()).count();
    if registered == 0 && st.deck_checks.is_empty() {
        return;
    }
    let mut parts = vec![format!("{registered} list(s) registered")];
    for (player, judge, reason) in &st.deck_changes {
        parts.push(format!("{player}'s list changed after the lock by {judge} ({reason})"));
    }
    for (i, d) in st.deck_checks.iter().enumerate() {
        let result = match &d.result {
            super::events::DeckCheckResult::Matches => "matched".to_string(),
            differs => format!("{} card(s) differ", differs.cards()),
        };
        let at = d.table.map(|t| format!(" table {t}")).unwrap_or_default();
        parts.push(format!(
            "deck check {} of {} in round {}{at} by {} at {}: {result}",
            i + 1,
            d.player,
            d.round,
            d.judge,
            d.at.to_rfc3339()
        ));
    }
    let kinds = ["deck list registered", "deck list changed", "deck checked"];
    add("decks", !broke(loaded, &kinds), parts.join("; "))
}

/// The incrementally kept tallies against a recomputation from every match.
fn check_standings(st: &Tournament, add: &mut Add) {
    let scratch = st.tallies_from_scratch();
    if scratch == st.tallies {
        add("standings", true, format!("{} players; incremental tallies equal a recomputation", st.players.len()));
        return;
    }
    let differ: Vec<String> = st
        .players
        .iter()
        .enumerate()
        .filter(|(i, _)| scratch.0.get(*i) != st.tallies.0.get(*i))
        .map(|(_, p)| p.name.clone())
        .collect();
    add("standings", false, format!("recomputed tallies differ for {}", differ.join(", ")));
}

/// What the linked games were found to say: how many were read, how many were linked unbound
/// by an earlier build, and every disagreement.
#[derive(Default)]
struct GamesSeen {
    checked: usize,
    unbound: usize,
    problems: Vec<String>,
}

/// Every linked game: bound to its match, its chain and audit clean, its outcome the result's.
fn check_linked_games(
    store: &dyn Store,
    loaded: &Loaded,
    drivers: &dyn Fn(&str) -> Option<&'static dyn Driver>,
    add: &mut Add,
) {
    let mut seen = GamesSeen::default();
    for r in &loaded.state.rounds {
        for t in r.tables.iter().filter(|t| t.result.is_some() && !t.games.is_empty()) {
            check_table_games(store, loaded, r.round, t, drivers, &mut seen);
        }
        for p in &r.pods {
            check_pod_games(store, loaded, r.round, p, drivers, &mut seen);
        }
    }
    if !seen.problems.is_empty() {
        for p in seen.problems {
            add("linked games", false, p);
        }
        return;
    }
    let legacy = match seen.unbound {
        0 => String::new(),
        n => format!("; {n} linked unbound by an earlier build, checked by their players"),
    };
    let checked = seen.checked;
    add(
        "linked games",
        true,
        format!("{checked} game(s): bound to their match, chains verify, audits clean, outcomes agree{legacy}"),
    );
}

/// A table's games: each read and audited, and together they give the reported score.
fn check_table_games(
    store: &dyn Store,
    loaded: &Loaded,
    round: u32,
    t: &TableState,
    drivers: &dyn Fn(&str) -> Option<&'static dyn Driver>,
    seen: &mut GamesSeen,
) {
    let st = &loaded.state;
    let Some(score) = t.result else { return };
    let (a, b) = (&st.players[t.a].name, &st.players[t.b].name);
    let want = MatchBinding { tournament: loaded.header.stream().clone(), round, place: MatchPlace::Table(t.table) };
    let mut tally = (0u32, 0u32, 0u32);
    let mut all_read = true;
    for g in &t.games {
        seen.checked += 1;
        match check_game(store, g, &loaded.config.game, &want, a, b, drivers) {
            Ok((winner, bound)) => {
                seen.unbound += usize::from(!bound);
                match winner {
                    Some(true) => tally.0 += 1,
                    Some(false) => tally.1 += 1,
                    None => tally.2 += 1,
                }
            }
            Err(e) => {
                all_read = false;
                seen.problems.push(format!("round {round} table {}: game {}: {e}", t.table, g.stream));
            }
        }
    }
    if all_read && (tally.0, tally.1, tally.2) != (score.a_wins, score.b_wins, score.draws) {
        seen.problems.push(format!(
            "round {round} table {} ({a} vs {b}): reported {score}, but the linked games say {}-{}-{}",
            t.table, tally.0, tally.1, tally.2
        ));
    }
}

/// A pod's game: read and audited, and its outcome gives the reported places.
fn check_pod_games(
    store: &dyn Store,
    loaded: &Loaded,
    round: u32,
    p: &PodState,
    drivers: &dyn Fn(&str) -> Option<&'static dyn Driver>,
    seen: &mut GamesSeen,
) {
    let (Some(places), Some(g)) = (&p.places, p.games.last()) else { return };
    let st = &loaded.state;
    let names: Vec<String> = p.seats.iter().map(|&s| st.players[s].name.clone()).collect();
    seen.checked += 1;
    let bound_to = MatchBinding { tournament: loaded.header.stream().clone(), round, place: MatchPlace::Pod(p.pod) };
    match check_pod_game(store, g, &loaded.config.game, &bound_to, &names, drivers) {
        Ok((want, bound)) => {
            seen.unbound += usize::from(!bound);
            if &want != places {
                seen.problems.push(format!(
                    "round {round} pod {} ({}): reported places {places:?}, but the linked game's outcome gives {want:?}",
                    p.pod,
                    names.join(", ")
                ));
            }
        }
        Err(e) => seen.problems.push(format!("round {round} pod {}: game {}: {e}", p.pod, g.stream)),
    }
}

/// Every signature against its recorded key and the log prefix it names; once a key is
/// recorded, every closed round and (after finalization) the final root must be signed.
fn check_signatures(loaded: &Loaded, games: &BTreeMap<String, Hash32>, add: &mut Add) {
    use super::events::Checkpoint;
    let st = &loaded.state;
    if st.signers.is_empty() {
        return;
    }
    let stream = loaded.header.v1().stream.to_string();
    let mut good: Vec<(Checkpoint, String)> = Vec::new();
    let mut problems = Vec::new();
    for e in &loaded.entries {
        let TournamentEvent::CheckpointSigned { signer, checkpoint, signature } = &e.event else { continue };
        let (head, events) = checkpoint.prefix();
        let what = checkpoint.describe();
        let actual = events.checked_sub(1).and_then(|i| loaded.entries.get(i as usize)).map(|x| x.hash);
        if actual != Some(head) || events > e.seq {
            problems.push(format!(
                "{what}: signed by {signer}, but the log's head at event {events} is not the one signed"
            ));
            continue;
        }
        if let Checkpoint::Final { root, .. } = checkpoint {
            if *root != root_hash(head, events, games) {
                problems.push(format!("{what}: signed by {signer}, but the root hash differs from the recomputed one"));
                continue;
            }
        }
        let Some((_, key)) = st.signers.iter().find(|(n, _)| n == signer) else {
            problems.push(format!("{what}: {signer} has no recorded key"));
            continue;
        };
        match super::sign::check(key, &stream, checkpoint, signature) {
            Ok(()) => good.push((checkpoint.clone(), signer.clone())),
            Err(why) => problems.push(format!("{what}: {signer}'s signature is invalid: {why}")),
        }
    }
    for r in st.rounds.iter().filter(|r| r.complete()) {
        let signed = good.iter().any(|(c, _)| matches!(c, Checkpoint::RoundClosed { round, .. } if *round == r.round));
        if !signed {
            problems.push(format!("round {} closed (its checkpoint) carries no valid signature", r.round));
        }
    }
    if st.finalized && !good.iter().any(|(c, _)| matches!(c, Checkpoint::Final { .. })) {
        problems.push("the final root carries no valid signature".into());
    }
    if problems.is_empty() {
        let who: Vec<String> = good.iter().map(|(c, s)| format!("{s} signed {}", c.describe())).collect();
        let keys: Vec<String> = st.signers.iter().map(|(n, k)| format!("{n} {}", &hex::encode(k)[..16])).collect();
        add("signatures", true, format!("{} (keys: {})", who.join("; "), keys.join(", ")));
    } else {
        for p in problems {
            add("signatures", false, p);
        }
    }
}

/// Every disqualification report's signature against its head judge's recorded key.
fn check_reports(loaded: &Loaded, add: &mut Add) {
    let st = &loaded.state;
    let stream = loaded.header.v1().stream.to_string();
    for r in &st.dq_reports {
        let what = format!("{}'s disqualification report (penalty {}) by {}", r.player, r.penalty, r.head_judge);
        match super::case::check_report(st, &stream, r) {
            Ok(()) => add("disqualification reports", true, format!("{what}: the signature verifies")),
            Err(why) => add("disqualification reports", false, format!("{what}: {why}")),
        }
    }
}

/// Checks one linked game of a pod; returns the places its outcome gives, in the pod's seat order.
fn check_pod_game(
    store: &dyn Store,
    link: &GameLink,
    game: &str,
    want: &MatchBinding,
    pod: &[String],
    drivers: &dyn Fn(&str) -> Option<&'static dyn Driver>,
) -> Result<(Vec<u32>, bool), LinkError> {
    let (players, outcome, bound) = open_game(store, link, game, want, drivers, &|players| {
        let mut sorted = players.to_vec();
        sorted.sort();
        let mut want = pod.to_vec();
        want.sort();
        (sorted != want).then(|| LinkError::Players(format!("its players are {players:?}, not the pod's {pod:?}")))
    })?;
    let outcome = outcome.ok_or(LinkError::Unfinished)?;
    let by_game_seat = super::pods::places_from_outcome(&outcome, players.len());
    let places = pod
        .iter()
        .map(|n| players.iter().position(|p| p == n).and_then(|s| by_game_seat.get(s).copied()).unwrap_or(0))
        .collect();
    Ok((places, bound))
}

/// Checks one linked game; returns whether `a` won it (`None`: drawn or unfinished), and whether
/// the game is bound (not linked unbound by an earlier build).
fn check_game(
    store: &dyn Store,
    link: &GameLink,
    game: &str,
    want: &MatchBinding,
    a: &str,
    b: &str,
    drivers: &dyn Fn(&str) -> Option<&'static dyn Driver>,
) -> Result<(Option<bool>, bool), LinkError> {
    let seated = |players: &[String]| {
        let seated = players.iter().any(|p| p == a) && players.iter().any(|p| p == b);
        (!seated).then(|| LinkError::Players(format!("its players are {players:?}, not {a} and {b}")))
    };
    let (players, outcome, bound) = open_game(store, link, game, want, drivers, &seated)?;
    let seat = |name: &str| players.iter().position(|p| p == name);
    let (Some(sa), Some(sb)) = (seat(a), seat(b)) else {
        return Err(LinkError::Players(format!("its players are {players:?}, not {a} and {b}")));
    };
    let winner = match outcome {
        None => None,
        Some(o) => {
            // Placements decide: the better-placed seat won; a shared place or everyone losing is a draw.
            let place = |s: usize| crate::game::Seat::try_from(s).ok().and_then(|s| o.place_of(s));
            match (o.kind(), place(sa), place(sb)) {
                (crate::game::OutcomeKind::EveryoneLost, _, _) => None,
                (_, Some(a), Some(b)) if a < b => Some(true),
                (_, Some(a), Some(b)) if b < a => Some(false),
                _ => None,
            }
        }
    };
    Ok((winner, bound))
}

/// Reads a linked game: its chain, its head against the link, its ruleset, its binding (a bound
/// game must be bound to `want`; an unbound one was linked by an earlier build), its players (by
/// `wrong_players`), a clean audit; returns its players, its outcome and whether it is bound.
fn open_game(
    store: &dyn Store,
    link: &GameLink,
    game: &str,
    want: &MatchBinding,
    drivers: &dyn Fn(&str) -> Option<&'static dyn Driver>,
    wrong_players: &dyn Fn(&[String]) -> Option<LinkError>,
) -> Result<(Vec<String>, Option<crate::game::Outcome>, bool), LinkError> {
    let id = StreamId::new(&link.stream).map_err(|e| LinkError::Id(e.to_string()))?;
    let log = store.export(&id).map_err(|e| LinkError::Chain(e.to_string()))?;
    if log.head.hash != link.head {
        return Err(LinkError::Head(format!(
            "its head is {} ({} events) but the result recorded head {}",
            log.head.hash.short(),
            log.head.len,
            link.head.short()
        )));
    }
    let h = log.header.v1();
    if h.ruleset != game {
        return Err(LinkError::Ruleset(format!("it is a {} game; the tournament plays {game}", h.ruleset)));
    }
    match log.header.bound() {
        Some(b) if b != want => return Err(LinkError::Binding(format!("it was created bound to {b}, not to {want}"))),
        _ => {}
    }
    if let Some(why) = wrong_players(&h.players) {
        return Err(why);
    }
    let driver = drivers(&h.ruleset).ok_or_else(|| LinkError::NoDriver(h.ruleset.clone()))?;
    let report = driver.audit(&log).map_err(|e| LinkError::Audit(e.to_string()))?;
    if report.unresolved() > 0 {
        let first = report.findings.iter().find(|f| f.resolution.is_none());
        return Err(LinkError::Unresolved(format!(
            "audit has {} unresolved finding(s){}",
            report.unresolved(),
            first.map(|f| format!(", first: {}: {}", f.rule, f.message)).unwrap_or_default()
        )));
    }
    Ok((h.players.clone(), report.outcome, log.header.bound().is_some()))
}

/// Why a linked game does not back the result that links it (the detail of a failed check).
#[derive(Debug, thiserror::Error)]
enum LinkError {
    #[error("{0}")]
    Id(String),
    #[error("chain does not verify: {0}")]
    Chain(String),
    #[error("{0}")]
    Head(String),
    #[error("{0}")]
    Ruleset(String),
    #[error("{0}")]
    Binding(String),
    #[error("{0}")]
    Players(String),
    #[error("this build cannot audit {0} games")]
    NoDriver(String),
    #[error("cannot audit: {0}")]
    Audit(String),
    #[error("{0}")]
    Unresolved(String),
    #[error("the game is unfinished: it has no placements")]
    Unfinished,
}

/// Whether an event links games (for tools that list them).
pub fn links(e: &TournamentEvent) -> &[GameLink] {
    match e {
        TournamentEvent::ResultReported { games, .. }
        | TournamentEvent::ResultCorrected { games, .. }
        | TournamentEvent::PodResultReported { games, .. }
        | TournamentEvent::PodResultCorrected { games, .. }
        | TournamentEvent::ResultEntered { games, .. }
        | TournamentEvent::PodResultEntered { games, .. } => games,
        _ => &[],
    }
}
