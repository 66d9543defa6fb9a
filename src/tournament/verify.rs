//! Verification of a tournament: its chain, every event against the rules (pairings re-derived
//! from the round seeds and the state before them, the revealed seed against the commitment),
//! the standings recomputed, and every linked game (chain, audit, outcome against the reported
//! score, or in a pod tournament the places reported against the game's placements). Also the
//! tournament's root hash (see the module documentation of [`super`]).

use std::collections::BTreeMap;

use serde::Serialize;

use super::events::{GameLink, TournamentEvent};
use super::record::{self, Loaded};
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
            return Ok(Report {
                tournament: stream.to_string(),
                events: 0,
                head: Hash32::default(),
                games: 0,
                root: Hash32::default(),
                checks,
            });
        }
    };
    add("tournament chain", true, format!("{} events, every hash and link verified", log.head.len));
    let loaded = record::from_log_checked(&log)?;
    let st = &loaded.state;
    if loaded.problems.is_empty() {
        add("events follow the rules", true, format!("{} events validated in order", loaded.entries.len()));
    } else {
        for (seq, kind, problems) in &loaded.problems {
            add("events follow the rules", false, format!("event {seq} ({kind}): {}", problems.join("; ")));
        }
    }
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
    for (r, why) in &st.voided {
        parts.push(format!("round {r} voided before any result ({why}) and re-derived"));
    }
    if parts.is_empty() {
        parts.push("no round paired yet".into());
    }
    let pair_ok = !loaded
        .problems
        .iter()
        .any(|(_, k, _)| k == "round paired" || k == "top cut paired" || k == "pod round paired");
    add("pairings", pair_ok, parts.join("; "));
    match (st.commitment(), st.revealed_seed) {
        (None, _) => add("seed", true, "no seed committed (imported pairings)".into()),
        (Some(_), Some(_)) => add(
            "seed",
            !loaded.problems.iter().any(|(_, k, _)| k == "seed revealed"),
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
    let penalties: Vec<String> = st
        .players
        .iter()
        .flat_map(|p| p.penalties.iter().map(move |(r, k, _)| format!("{} {k:?} (round {r})", p.name)))
        .collect();
    if !penalties.is_empty() {
        add(
            "penalties",
            !loaded.problems.iter().any(|(_, k, _)| k == "penalty issued"),
            format!("{}; every game or match loss is reflected in its result", penalties.join(", ")),
        );
    }
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
        let bad = loaded.problems.iter().any(|(_, k, _)| k == "result corrected" || k == "pod result corrected");
        add("corrections", !bad, format!("{}; the standings count the corrected results", corrections.join("; ")));
    }
    let scratch = st.tallies_from_scratch();
    if scratch == st.tallies {
        add("standings", true, format!("{} players; incremental tallies equal a recomputation", st.players.len()));
    } else {
        let differ: Vec<String> = st
            .players
            .iter()
            .enumerate()
            .filter(|(i, _)| scratch.0.get(*i) != st.tallies.0.get(*i))
            .map(|(_, p)| p.name.clone())
            .collect();
        add("standings", false, format!("recomputed tallies differ for {}", differ.join(", ")));
    }
    // Linked games.
    let mut games_checked = 0usize;
    let mut unbound = 0usize;
    let mut game_problems: Vec<String> = Vec::new();
    let tid = loaded.header.stream();
    let at = |round: u32, place: MatchPlace| MatchBinding { tournament: tid.clone(), round, place };
    for r in &st.rounds {
        for t in &r.tables {
            let (Some(score), false) = (t.result, t.games.is_empty()) else { continue };
            let a = &st.players[t.a].name;
            let b = &st.players[t.b].name;
            let mut tally = (0u32, 0u32, 0u32);
            let mut all_read = true;
            for g in &t.games {
                games_checked += 1;
                let want = at(r.round, MatchPlace::Table(t.table));
                match check_game(store, g, &loaded.config.game, &want, a, b, drivers) {
                    Ok((winner, bound)) => {
                        unbound += usize::from(!bound);
                        match winner {
                            Some(true) => tally.0 += 1,
                            Some(false) => tally.1 += 1,
                            None => tally.2 += 1,
                        }
                    }
                    Err(e) => {
                        all_read = false;
                        game_problems.push(format!("round {} table {}: game {}: {e}", r.round, t.table, g.stream));
                    }
                }
            }
            if all_read && (tally.0, tally.1, tally.2) != (score.a_wins, score.b_wins, score.draws) {
                game_problems.push(format!(
                    "round {} table {} ({a} vs {b}): reported {score}, but the linked games say {}-{}-{}",
                    r.round, t.table, tally.0, tally.1, tally.2
                ));
            }
        }
    }
    for r in &st.rounds {
        for p in &r.pods {
            let (Some(places), Some(g)) = (&p.places, p.games.last()) else { continue };
            let names: Vec<String> = p.seats.iter().map(|&s| st.players[s].name.clone()).collect();
            games_checked += 1;
            let bound_to = at(r.round, MatchPlace::Pod(p.pod));
            match check_pod_game(store, g, &loaded.config.game, &bound_to, &names, drivers) {
                Ok((want, bound)) => {
                    unbound += usize::from(!bound);
                    if &want != places {
                        game_problems.push(format!(
                            "round {} pod {} ({}): reported places {places:?}, but the linked game's outcome gives {want:?}",
                            r.round,
                            p.pod,
                            names.join(", ")
                        ));
                    }
                }
                Err(e) => game_problems.push(format!("round {} pod {}: game {}: {e}", r.round, p.pod, g.stream)),
            }
        }
    }
    if game_problems.is_empty() {
        let legacy = match unbound {
            0 => String::new(),
            n => format!("; {n} linked unbound by an earlier build, checked by their players"),
        };
        add(
            "linked games",
            true,
            format!(
                "{games_checked} game(s): bound to their match, chains verify, audits clean, outcomes agree{legacy}"
            ),
        );
    } else {
        for p in game_problems {
            add("linked games", false, p);
        }
    }
    let games = linked_games(&loaded);
    let root = root_hash(loaded.head.hash, loaded.head.len, &games);
    check_signatures(&loaded, &games, &mut add);
    Ok(Report {
        tournament: stream.to_string(),
        events: loaded.head.len,
        head: loaded.head.hash,
        games: games.len(),
        root,
        checks,
    })
}

/// Every signature against its recorded key and the log prefix it names; once a key is
/// recorded, every closed round and (after finalization) the final root must be signed.
fn check_signatures(loaded: &Loaded, games: &BTreeMap<String, Hash32>, add: &mut dyn FnMut(&str, bool, String)) {
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

/// Checks one linked game of a pod; returns the places its outcome gives, in the pod's seat order.
fn check_pod_game(
    store: &dyn Store,
    link: &GameLink,
    game: &str,
    want: &MatchBinding,
    pod: &[String],
    drivers: &dyn Fn(&str) -> Option<&'static dyn Driver>,
) -> Result<(Vec<u32>, bool), String> {
    let (players, outcome, bound) = open_game(store, link, game, want, drivers, &|players| {
        let mut sorted = players.to_vec();
        sorted.sort();
        let mut want = pod.to_vec();
        want.sort();
        (sorted != want).then(|| format!("its players are {players:?}, not the pod's {pod:?}"))
    })?;
    let outcome = outcome.ok_or("the game is unfinished: it has no placements")?;
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
) -> Result<(Option<bool>, bool), String> {
    let seated = |players: &[String]| {
        let seated = players.iter().any(|p| p == a) && players.iter().any(|p| p == b);
        (!seated).then(|| format!("its players are {players:?}, not {a} and {b}"))
    };
    let (players, outcome, bound) = open_game(store, link, game, want, drivers, &seated)?;
    let seat = |name: &str| players.iter().position(|p| p == name);
    let (Some(sa), Some(sb)) = (seat(a), seat(b)) else {
        return Err(format!("its players are {players:?}, not {a} and {b}"));
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
    wrong_players: &dyn Fn(&[String]) -> Option<String>,
) -> Result<(Vec<String>, Option<crate::game::Outcome>, bool), String> {
    let id = StreamId::new(&link.stream).map_err(|e| e.to_string())?;
    let log = store.export(&id).map_err(|e| format!("chain does not verify: {e}"))?;
    if log.head.hash != link.head {
        return Err(format!(
            "its head is {} ({} events) but the result recorded head {}",
            log.head.hash.short(),
            log.head.len,
            link.head.short()
        ));
    }
    let h = log.header.v1();
    if h.ruleset != game {
        return Err(format!("it is a {} game; the tournament plays {game}", h.ruleset));
    }
    match log.header.bound() {
        Some(b) if b != want => return Err(format!("it was created bound to {b}, not to {want}")),
        _ => {}
    }
    if let Some(why) = wrong_players(&h.players) {
        return Err(why);
    }
    let driver = drivers(&h.ruleset).ok_or_else(|| format!("this build cannot audit {} games", h.ruleset))?;
    let report = driver.audit(&log).map_err(|e| format!("cannot audit: {e}"))?;
    if report.unresolved() > 0 {
        let first = report.findings.iter().find(|f| f.resolution.is_none());
        return Err(format!(
            "audit has {} unresolved finding(s){}",
            report.unresolved(),
            first.map(|f| format!(", first: {}: {}", f.rule, f.message)).unwrap_or_default()
        ));
    }
    Ok((h.players.clone(), report.outcome, log.header.bound().is_some()))
}

/// Whether an event links games (for tools that list them).
pub fn links(e: &TournamentEvent) -> &[GameLink] {
    match e {
        TournamentEvent::ResultReported { games, .. }
        | TournamentEvent::ResultCorrected { games, .. }
        | TournamentEvent::PodResultReported { games, .. }
        | TournamentEvent::PodResultCorrected { games, .. } => games,
        _ => &[],
    }
}
