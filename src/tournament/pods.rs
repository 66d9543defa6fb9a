//! Pod pairing for multiplayer games (FATE): players sit in pods of 4 filled with pods of 3 (the
//! size a policy), built from the standings while avoiding repeated pod-mates; points come from
//! each game's placements by a policy table; the tiebreaker is the opponents' average points.
//!
//! Pure functions only. The stored side: a tournament records `PodFormatSet` before round 1, then
//! `PodRoundPaired` (re-derived from the round seed by [`crate::tournament::state`]) and
//! `PodResultReported` (places checked against the linked game's outcome by `verify`).
//!
//! Conventions (multiplayer organized play):
//! - points per game, by default 5 for a sole win, 1 each for a shared win (a draw), 0 for a loss;
//! - places are competition ranks in seat order (1, 2, 2, 4): a game's outcome gives seat `s` the
//!   place 1 + the seats placed strictly before it; when everyone lost, every seat is last;
//! - standings and the order a round is paired from: (1) points, (2) opponents' average points
//!   (every pod-mate of every reported pod, each pod-mate's points divided by its games,
//!   averaged), (3) a seeded draw: `order_key(round seed, name)` when pairing,
//!   `order_key(tie key, name)` in the published standings (nobody can steer either).

use std::collections::BTreeMap;

use crate::game::Violation;

/// The pod size policy: pods of `size` filled with pods of `size - 1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PodSize {
    pub size: usize,
}

impl Default for PodSize {
    fn default() -> Self {
        PodSize { size: 4 }
    }
}

/// The sizes of the pods for `n` players: as many full pods as possible, the rest one smaller.
pub fn pod_sizes(n: usize, policy: PodSize) -> Result<Vec<usize>, Violation> {
    let size = policy.size;
    if size < 3 {
        return Err(Violation::new("TOUR-POD-2", format!("pods of {size} are not multiplayer pods; use at least 3")));
    }
    let pods = n.div_ceil(size);
    let small = pods * size - n;
    if n == 0 || small > pods {
        return Err(Violation::new(
            "TOUR-PAIR-4",
            format!("{n} players cannot sit in pods of {size} and {}", size - 1),
        ));
    }
    let mut out = vec![size; pods - small];
    out.extend(std::iter::repeat_n(size - 1, small));
    Ok(out)
}

/// How often each pair of players has shared a pod.
pub type Met = BTreeMap<(String, String), u32>;

fn key(a: &str, b: &str) -> (String, String) {
    if a <= b {
        (a.to_string(), b.to_string())
    } else {
        (b.to_string(), a.to_string())
    }
}

/// Records a played pod in `met`.
pub fn record_pod(met: &mut Met, pod: &[String]) {
    for (i, a) in pod.iter().enumerate() {
        for b in &pod[i + 1..] {
            *met.entry(key(a, b)).or_default() += 1;
        }
    }
}

/// Pods for one round. `ranked` is the standings order (best first, ties already broken by the
/// seeded order key). Each pod is opened by the best unseated player and filled with the
/// best-ranked players who have met its members least often, so pods follow the standings and
/// repeats are avoided wherever the field allows.
pub fn pair_pods(ranked: &[String], met: &Met, policy: PodSize) -> Result<Vec<Vec<String>>, Violation> {
    let sizes = pod_sizes(ranked.len(), policy)?;
    let mut free: Vec<&String> = ranked.iter().collect();
    let mut pods = Vec::new();
    for size in sizes {
        let mut pod = vec![free.remove(0).clone()];
        while pod.len() < size {
            let repeats = |p: &String| pod.iter().map(|m| met.get(&key(m, p)).copied().unwrap_or(0)).sum::<u32>();
            let best = (0..free.len()).min_by_key(|i| (repeats(free[*i]), *i)).unwrap_or(0);
            pod.push(free.remove(best).clone());
        }
        pods.push(pod);
    }
    improve(&mut pods, met);
    Ok(pods)
}

/// How many earlier pod-mate pairs `pod` repeats.
pub fn repeats_in(pod: &[String], met: &Met) -> u32 {
    let mut n = 0;
    for (i, a) in pod.iter().enumerate() {
        for b in &pod[i + 1..] {
            n += met.get(&key(a, b)).copied().unwrap_or(0);
        }
    }
    n
}

/// The greedy fill can leave the last pods with several repeats; swapping two players of
/// different pods whenever that lowers the repeats fixes most of it (bounded passes, deterministic).
fn improve(pods: &mut [Vec<String>], met: &Met) {
    for _ in 0..8 {
        let mut changed = false;
        for a in 0..pods.len() {
            for b in a + 1..pods.len() {
                for i in 0..pods[a].len() {
                    for j in 0..pods[b].len() {
                        let before = repeats_in(&pods[a], met) + repeats_in(&pods[b], met);
                        let (x, y) = (pods[a][i].clone(), pods[b][j].clone());
                        pods[a][i] = y.clone();
                        pods[b][j] = x.clone();
                        if repeats_in(&pods[a], met) + repeats_in(&pods[b], met) < before {
                            changed = true;
                        } else {
                            pods[a][i] = x;
                            pods[b][j] = y;
                        }
                    }
                }
            }
        }
        if !changed {
            return;
        }
    }
}

/// The points table: `sole_win`, `shared_win` (a draw) and `loss`, e.g. 5/1/0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PointsTable {
    pub sole_win: u32,
    pub shared_win: u32,
    pub loss: u32,
}

impl Default for PointsTable {
    fn default() -> Self {
        PointsTable { sole_win: 5, shared_win: 1, loss: 0 }
    }
}

/// A player's points from a game's winners (seats of the pod).
pub fn points(winners: &[u8], seat: u8, table: PointsTable) -> u32 {
    match (winners.contains(&seat), winners.len()) {
        (true, 1) => table.sole_win,
        (true, _) => table.shared_win,
        (false, _) => table.loss,
    }
}

/// Each player's (points, games) over `games`.
fn totals(games: &[(Vec<String>, Vec<u32>)]) -> BTreeMap<&str, (u32, u32)> {
    let mut total: BTreeMap<&str, (u32, u32)> = BTreeMap::new();
    for (pod, pts) in games {
        for (p, x) in pod.iter().zip(pts) {
            let e = total.entry(p.as_str()).or_default();
            e.0 += x;
            e.1 += 1;
        }
    }
    total
}

/// Opponents' average points: for each pod-mate of each game, its points per game, averaged.
/// `games` lists each game's pod and each seat's points.
pub fn opponents_average(player: &str, games: &[(Vec<String>, Vec<u32>)]) -> f64 {
    let total = totals(games);
    let mut sum = 0.0;
    let mut n = 0u32;
    for (pod, _) in games.iter().filter(|(pod, _)| pod.iter().any(|p| p == player)) {
        for mate in pod.iter().filter(|p| *p != player) {
            if let Some((pts, games)) = total.get(mate.as_str()) {
                sum += f64::from(*pts) / f64::from((*games).max(1));
                n += 1;
            }
        }
    }
    if n == 0 {
        0.0
    } else {
        sum / f64::from(n)
    }
}

/// The places a game's outcome gives its `seats` seats (by game seat), as competition ranks.
pub fn places_from_outcome(outcome: &crate::game::Outcome, seats: usize) -> Vec<u32> {
    if outcome.kind() == crate::game::OutcomeKind::EveryoneLost {
        return vec![seats as u32; seats];
    }
    let mut out = vec![seats as u32; seats];
    let mut before = 0u32;
    for group in &outcome.placements {
        for s in group {
            if let Some(p) = out.get_mut(usize::from(*s)) {
                *p = before + 1;
            }
        }
        before += group.len() as u32;
    }
    out
}

/// Whether `places` are competition ranks of a pod of their length (1, 2, 2, 4), or every seat
/// last (everyone lost).
pub fn check_places(places: &[u32]) -> Result<(), Violation> {
    let n = places.len() as u32;
    if places.iter().all(|&p| p == n) {
        return Ok(());
    }
    for &p in places {
        let better = places.iter().filter(|&&q| q < p).count() as u32;
        if p == 0 || p > n || better != p - 1 {
            return Err(Violation::new(
                "TOUR-POD-3",
                format!(
                    "places {places:?} are not the places of a {n}-player pod (1 is best; a shared place repeats, \
                     the next skips: 1, 2, 2, 4)"
                ),
            ));
        }
    }
    Ok(())
}

/// A seat's points from its pod's places: a sole first place, a shared one, or a loss.
pub fn points_from_places(places: &[u32], seat: usize, table: PointsTable) -> u32 {
    let firsts = places.iter().filter(|&&p| p == 1).count();
    match (places.get(seat), firsts) {
        (Some(1), 1) => table.sole_win,
        (Some(1), _) => table.shared_win,
        _ => table.loss,
    }
}

/// One row of the pod standings.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct PodStandingRow {
    pub rank: u32,
    pub player: String,
    pub points: u32,
    pub games: u32,
    /// Opponents' average points (the first tiebreaker).
    pub opponents_average: f64,
    pub dropped: bool,
}

/// Players ordered by points, then opponents' average points, then `draw` (lowest first).
/// `games` lists each reported pod and each seat's points.
pub fn rank(players: &[(String, u64, bool)], games: &[(Vec<String>, Vec<u32>)]) -> Vec<PodStandingRow> {
    let total = totals(games);
    let mut rows: Vec<(PodStandingRow, u64)> = players
        .iter()
        .map(|(name, draw, dropped)| {
            let (points, played) = total.get(name.as_str()).copied().unwrap_or_default();
            let row = PodStandingRow {
                rank: 0,
                player: name.clone(),
                points,
                games: played,
                opponents_average: opponents_average(name, games),
                dropped: *dropped,
            };
            (row, *draw)
        })
        .collect();
    rows.sort_by(|(a, da), (b, db)| {
        b.points.cmp(&a.points).then(b.opponents_average.total_cmp(&a.opponents_average)).then(da.cmp(db))
    });
    rows.into_iter()
        .enumerate()
        .map(|(i, (mut r, _))| {
            r.rank = i as u32 + 1;
            r
        })
        .collect()
}
