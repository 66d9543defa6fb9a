//! Standings as pure functions: per-player tallies maintained incrementally from match results,
//! and the ranking with every tiebreaker of the policy.

use serde::{Deserialize, Serialize};

use super::policy::{Rules, Tiebreaker};

/// One Swiss match as the standings see it. `b == None` is a bye: a 2-0 match win for `a`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatchRecord {
    pub a: usize,
    pub b: Option<usize>,
    pub a_wins: u32,
    pub b_wins: u32,
    pub draws: u32,
}

impl MatchRecord {
    pub fn bye(a: usize) -> Self {
        MatchRecord { a, b: None, a_wins: 2, b_wins: 0, draws: 0 }
    }
}

/// What the standings need to know about one player beyond the matches.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Entrant {
    pub name: String,
    /// Entered late (rounds missed are losses; the Pokémon late penalty applies).
    pub late: bool,
    pub dropped: bool,
    /// The player's place in the seeded random draw that orders players tied on everything.
    pub draw: u64,
}

/// A player's running totals. Maintained incrementally: [`Tally::add`] and [`Tally::remove`] are
/// inverses, so a correction is a removal and an addition.
#[derive(Clone, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Tally {
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
    pub byes: u32,
    /// Rounds counted: played, byes and missed rounds.
    pub rounds: u32,
    pub missed: u32,
    pub games_won: u32,
    pub games_lost: u32,
    pub games_drawn: u32,
    /// Opponents (not byes), one entry per match, kept sorted.
    pub opponents: Vec<usize>,
}

/// Tallies for a whole field.
#[derive(Clone, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Tallies(pub Vec<Tally>);

impl Tallies {
    pub fn new(players: usize) -> Self {
        Tallies(vec![Tally::default(); players])
    }

    pub fn grow(&mut self, players: usize) {
        if self.0.len() < players {
            self.0.resize(players, Tally::default());
        }
    }

    /// Counts rounds a late entrant missed as match losses.
    pub fn missed(&mut self, p: usize, rounds: u32) {
        self.grow(p + 1);
        let t = &mut self.0[p];
        t.missed += rounds;
        t.rounds += rounds;
        t.losses += rounds;
    }

    pub fn add(&mut self, m: &MatchRecord) {
        self.change(m, true);
    }

    pub fn remove(&mut self, m: &MatchRecord) {
        self.change(m, false);
    }

    fn change(&mut self, m: &MatchRecord, add: bool) {
        self.grow(m.a.max(m.b.unwrap_or(0)) + 1);
        // No allocation: this runs once per result when a log is folded.
        let both = [(m.a, m.b, m.a_wins, m.b_wins), (m.b.unwrap_or(m.a), Some(m.a), m.b_wins, m.a_wins)];
        let sides = &both[..if m.b.is_some() { 2 } else { 1 }];
        for &(p, opp, won, lost) in sides {
            let t = &mut self.0[p];
            let upd = |x: &mut u32, d: u32| {
                if add {
                    *x += d
                } else {
                    *x = x.saturating_sub(d)
                }
            };
            upd(&mut t.rounds, 1);
            match won.cmp(&lost) {
                std::cmp::Ordering::Greater => upd(&mut t.wins, 1),
                std::cmp::Ordering::Less => upd(&mut t.losses, 1),
                std::cmp::Ordering::Equal => upd(&mut t.draws, 1),
            }
            upd(&mut t.games_won, won);
            upd(&mut t.games_lost, lost);
            upd(&mut t.games_drawn, m.draws);
            match opp {
                None => upd(&mut t.byes, 1),
                Some(o) => {
                    if add {
                        let at = t.opponents.partition_point(|&x| x < o);
                        t.opponents.insert(at, o);
                    } else if let Ok(at) = t.opponents.binary_search(&o) {
                        t.opponents.remove(at);
                    }
                }
            }
        }
    }
}

/// One row of the standings. Percentages are fractions in 0..1.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StandingRow {
    /// Shared by players tied on every tiebreaker (shown "T8").
    pub rank: u32,
    /// Tied with another player on every tiebreaker; the order among them is the random draw.
    pub tied: bool,
    pub player: String,
    pub points: u32,
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
    pub byes: u32,
    /// The player's own match-win % (Pokémon: own win %), as used for opponents.
    pub mw: f64,
    /// Opponents' match-win % (Pokémon: Op Win%).
    pub omw: f64,
    /// Own game-win %.
    pub gw: f64,
    /// Opponents' game-win %.
    pub ogw: f64,
    /// Opponents' opponents' match-win % (Pokémon: Op Op Win%).
    pub oomw: f64,
    pub late: bool,
    pub dropped: bool,
}

impl StandingRow {
    /// "8", or "T8" for a shared rank.
    pub fn rank_label(&self) -> String {
        if self.tied {
            format!("T{}", self.rank)
        } else {
            self.rank.to_string()
        }
    }
}

/// The mean, or `floor` for a player with no opponents (only byes or nothing played yet).
fn mean_or(floor: f64, xs: impl Iterator<Item = f64>) -> f64 {
    let mut n = 0usize;
    let mut s = 0.0;
    for x in xs {
        n += 1;
        s += x;
    }
    if n == 0 {
        floor
    } else {
        s / n as f64
    }
}

/// A player's match points under the policy.
pub fn match_points(rules: &Rules, x: &Tally) -> u32 {
    x.wins * rules.win + x.draws * rules.draw + x.losses * rules.loss
}

/// Each player's own match-win % (Pokémon: own win %) as opponents' tiebreakers use it.
pub fn own_pct(rules: &Rules, entrants: &[Entrant], tallies: &Tallies) -> Vec<f64> {
    let n = entrants.len();
    let empty = Tally::default();
    let t = |p: usize| tallies.0.get(p).unwrap_or(&empty);
    let points = |p: usize| match_points(rules, t(p));
    (0..n)
        .map(|p| {
            let x = t(p);
            if rules.pokemon_pct {
                let rounds = x.rounds.saturating_sub(x.byes);
                let won = f64::from(x.wins.saturating_sub(x.byes)) + 0.5 * f64::from(x.draws);
                let cap = if entrants[p].dropped { rules.dropped_cap.unwrap_or(1.0) } else { 1.0 };
                if rounds == 0 {
                    rules.floor
                } else {
                    (won / f64::from(rounds)).clamp(rules.floor, cap.max(rules.floor))
                }
            } else if x.rounds == 0 {
                rules.floor
            } else {
                let (rounds, pts) = if rules.byes_in_own_pct {
                    (x.rounds, points(p))
                } else {
                    (x.rounds - x.byes, points(p).saturating_sub(x.byes * rules.win))
                };
                if rounds == 0 {
                    rules.floor
                } else {
                    (f64::from(pts) / f64::from(rules.win.max(1) * rounds)).max(rules.floor)
                }
            }
        })
        .collect()
}

/// Ranks a field. `head_to_head(a, b)` > 0 when `a` won their meetings.
pub fn rank(rules: &Rules, entrants: &[Entrant], tallies: &Tallies, matches: &[MatchRecord]) -> Vec<StandingRow> {
    rank_with(rules, entrants, tallies, matches, &[])
}

/// Every player's percentages: own match-win and game-win, and the opponents' ones.
struct Pcts {
    mw: Vec<f64>,
    /// Own game-win %, floored or not as the policy says.
    gw: Vec<f64>,
    omw: Vec<f64>,
    ogw: Vec<f64>,
    oomw: Vec<f64>,
}

fn percentages(rules: &Rules, entrants: &[Entrant], tallies: &Tallies, frozen: &[Option<f64>]) -> Pcts {
    let n = entrants.len();
    let empty = Tally::default();
    let t = |p: usize| tallies.0.get(p).unwrap_or(&empty);
    let mw = own_pct(rules, entrants, tallies);
    let gw_raw: Vec<f64> = (0..n)
        .map(|p| {
            let x = t(p);
            let games = x.games_won + x.games_lost + x.games_drawn;
            if games == 0 {
                0.0
            } else {
                f64::from(3 * x.games_won + x.games_drawn) / f64::from(3 * games)
            }
        })
        .collect();
    let gw_floored: Vec<f64> = gw_raw.iter().map(|g| g.max(rules.floor)).collect();
    // A player who met no opponent (only byes) shows the floor, as the lowest any opponent can have.
    let none = if rules.floor_without_opponents { rules.floor } else { 0.0 };
    let opp_mean = |p: usize, of: &[f64]| mean_or(none, t(p).opponents.iter().map(|&o| of[o]));
    let omw: Vec<f64> = (0..n).map(|p| frozen.get(p).copied().flatten().unwrap_or_else(|| opp_mean(p, &mw))).collect();
    let ogw: Vec<f64> = (0..n).map(|p| opp_mean(p, &gw_floored)).collect();
    let oomw: Vec<f64> = (0..n).map(|p| opp_mean(p, &omw)).collect();
    let gw = if rules.floor_own_gw { gw_floored } else { gw_raw };
    Pcts { mw, gw, omw, ogw, oomw }
}

/// Player `p`'s sort key: points, then the policy's tiebreakers in order (lower sorts first).
fn sort_key(rules: &Rules, entrants: &[Entrant], points: u32, pct: &Pcts, p: usize) -> Vec<i64> {
    // Keys rounded to 1e-12 so players whose percentages are equal tie exactly.
    let q = |x: f64| (x * 1e12).round() as i64;
    let mut k = vec![-i64::from(points)];
    for tb in &rules.tiebreakers {
        match tb {
            Tiebreaker::OpponentMatchWin => k.push(-q(pct.omw[p])),
            Tiebreaker::GameWin => k.push(-q(pct.gw[p])),
            Tiebreaker::OpponentGameWin => k.push(-q(pct.ogw[p])),
            Tiebreaker::OpponentOpponentMatchWin => k.push(-q(pct.oomw[p])),
            Tiebreaker::LatePenalty => k.push(i64::from(entrants[p].late)),
            Tiebreaker::HeadToHead => {}
        }
    }
    k
}

/// Matches `a` won against `b` minus those `b` won against `a`.
fn head_to_head(a: usize, b: usize, matches: &[MatchRecord]) -> i64 {
    let mut score = 0i64;
    for m in matches {
        if m.b == Some(b) && m.a == a || m.b == Some(a) && m.a == b {
            let (aw, bw) = if m.a == a { (m.a_wins, m.b_wins) } else { (m.b_wins, m.a_wins) };
            score += i64::from(aw > bw) - i64::from(bw > aw);
        }
    }
    score
}

/// Ranks along `order` (sorted by `keys`): players with equal keys share a rank and are tied,
/// unless head-to-head (when the policy uses it) separates exactly two. Reorders such a pair.
fn assign_ranks(order: &mut [usize], keys: &[Vec<i64>], h2h: bool, matches: &[MatchRecord]) -> (Vec<u32>, Vec<bool>) {
    let n = keys.len();
    let mut rank_of = vec![0u32; n];
    let mut tied = vec![false; n];
    let mut i = 0;
    while i < order.len() {
        let mut j = i + 1;
        while j < order.len() && keys[order[j]] == keys[order[i]] {
            j += 1;
        }
        let mut decided = j - i == 1;
        if h2h && j - i == 2 {
            let score = head_to_head(order[i], order[i + 1], matches);
            if score < 0 {
                order.swap(i, i + 1);
            }
            decided = score != 0;
        }
        for (k, &p) in order.iter().enumerate().take(j).skip(i) {
            rank_of[p] = if decided { k as u32 + 1 } else { i as u32 + 1 };
            tied[p] = !decided;
        }
        i = j;
    }
    (rank_of, tied)
}

/// As [`rank`], with some players' opponents' win % given (`frozen[p]`): the Pokémon policy
/// freezes a dropped player's Op Win% at their drop (see `Tournament::standings`).
pub fn rank_with(
    rules: &Rules,
    entrants: &[Entrant],
    tallies: &Tallies,
    matches: &[MatchRecord],
    frozen: &[Option<f64>],
) -> Vec<StandingRow> {
    let n = entrants.len();
    let empty = Tally::default();
    let t = |p: usize| tallies.0.get(p).unwrap_or(&empty);
    let points = |p: usize| match_points(rules, t(p));
    let pct = percentages(rules, entrants, tallies, frozen);
    let keys: Vec<Vec<i64>> = (0..n).map(|p| sort_key(rules, entrants, points(p), &pct, p)).collect();
    let mut order: Vec<usize> = (0..n).collect();
    // The policy's final step: players tied on every key are ordered by the seeded draw (names
    // only separate equal draws, which a 64-bit keyed hash makes vanishingly rare).
    order.sort_by(|&a, &b| {
        keys[a]
            .cmp(&keys[b])
            .then_with(|| entrants[a].draw.cmp(&entrants[b].draw))
            .then_with(|| entrants[a].name.cmp(&entrants[b].name))
    });
    let h2h = rules.tiebreakers.contains(&Tiebreaker::HeadToHead);
    let (rank_of, tied) = assign_ranks(&mut order, &keys, h2h, matches);
    order
        .iter()
        .map(|&p| {
            let x = t(p);
            StandingRow {
                rank: rank_of[p],
                tied: tied[p],
                player: entrants[p].name.clone(),
                points: points(p),
                wins: x.wins,
                losses: x.losses,
                draws: x.draws,
                byes: x.byes,
                mw: pct.mw[p],
                omw: pct.omw[p],
                gw: pct.gw[p],
                ogw: pct.ogw[p],
                oomw: pct.oomw[p],
                late: entrants[p].late,
                dropped: entrants[p].dropped,
            }
        })
        .collect()
}

/// Tallies recomputed from scratch.
pub fn tally_all(players: usize, missed: &[(usize, u32)], matches: &[MatchRecord]) -> Tallies {
    let mut t = Tallies::new(players);
    for &(p, r) in missed {
        t.missed(p, r);
    }
    for m in matches {
        t.add(m);
    }
    t
}
