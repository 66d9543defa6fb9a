//! Swiss pairing as a pure function: score brackets, an order drawn from the round's seed, no
//! avoidable rematch, as few pair-downs as possible, the bye to the lowest-ranked player without one.
//!
//! Quality is measured by a cost that is minimised lexicographically: first rematches (and byes to
//! players who already had one), then *pair-down steps*: a pair whose players sit in brackets `i`
//! and `j` (brackets numbered from the top, by distinct score) costs `|i - j|`, and the bye costs
//! the number of brackets below its player plus one (the bye is a virtual bracket under the last).
//! A pair that skips a bracket therefore counts twice: pair-downs go into the next bracket.
//!
//! Every boundary between brackets with an odd number of players above it must be crossed by at
//! least one pair, so the number of such boundaries is a lower bound ([`lower_bound`]). The fast
//! path pairs bracket by bracket in seeded order (greedy with swap repair), O(n · rounds); when it
//! meets the bound and has no rematch the pairing is optimal. Otherwise the troubled part is
//! re-solved exactly ([`exact`], a subset DP, on the whole field up to [`EXACT_LIMIT`] players or
//! on windows of brackets), and if a rematch still remains a maximum-cardinality matching
//! (Edmonds' blossom algorithm) over the whole field decides whether a rematch-free pairing
//! exists — so the no-rematch guarantee is global, not greedy.

use std::collections::BTreeSet;

/// One player to pair. Slices of entrants are in standings order: index 0 ranks first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entrant {
    /// Match points so far.
    pub score: u32,
    pub had_bye: bool,
    /// The player's place in the seeded order within a bracket (from [`order_key`]).
    pub key: u64,
}

/// A round's pairing: pairs of entrant indices (higher-ranked first) and the bye, if any.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Pairing {
    pub pairs: Vec<(usize, usize)>,
    pub bye: Option<usize>,
}

/// How good a pairing is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Quality {
    pub rematches: u32,
    /// Byes given to players who already had one.
    pub repeat_byes: u32,
    /// Pair-down steps (see the module documentation).
    pub pair_downs: u64,
    /// Pairs of players with different scores.
    pub mixed_pairs: u32,
    /// Sum over pairs of the absolute score difference.
    pub score_difference: u64,
}

/// Fields (counting the bye) up to this size are paired exactly when the fast path is not optimal.
pub const EXACT_LIMIT: usize = 20;

const REMATCH: u64 = 1 << 30;
/// A second bye weighs more than any number of rematches: at most one bye per player is hard.
const REPEAT_BYE: u64 = 1 << 44;
const SECONDARY_BITS: u32 = 16;

/// The seeded order key of a player for a round: the first 8 bytes of
/// `blake3 keyed_hash(key = round seed, player name as UTF-8)`, little-endian.
pub fn order_key(round_seed: &[u8; 32], player: &str) -> u64 {
    let h = blake3::keyed_hash(round_seed, player.as_bytes());
    let mut b = [0u8; 8];
    b.copy_from_slice(&h.as_bytes()[..8]);
    u64::from_le_bytes(b)
}

struct Field<'a> {
    e: &'a [Entrant],
    opp: &'a [Vec<usize>],
    bracket: Vec<usize>,
    brackets: usize,
}

impl<'a> Field<'a> {
    fn new(e: &'a [Entrant], opp: &'a [Vec<usize>]) -> Self {
        let scores: BTreeSet<u32> = e.iter().map(|x| x.score).collect();
        let desc: Vec<u32> = scores.into_iter().rev().collect();
        let bracket = e.iter().map(|x| desc.iter().position(|s| *s == x.score).unwrap_or(0)).collect();
        Field { e, opp, bracket, brackets: desc.len() }
    }

    fn played(&self, a: usize, b: usize) -> bool {
        self.opp.get(a).is_some_and(|o| o.contains(&b))
    }

    fn ok(&self, a: usize, b: usize) -> bool {
        a != b && !self.played(a, b)
    }

    /// Primary cost of a pair (rematch weight plus pair-down steps).
    fn cost(&self, a: usize, b: usize) -> u64 {
        let steps = self.bracket[a].abs_diff(self.bracket[b]) as u64;
        if self.played(a, b) {
            REMATCH + steps
        } else {
            steps
        }
    }

    fn bye_cost(&self, a: usize) -> u64 {
        let steps = (self.brackets - self.bracket[a]) as u64;
        if self.e[a].had_bye {
            REPEAT_BYE + steps
        } else {
            steps
        }
    }

    fn total(&self, p: &Pairing) -> u64 {
        p.pairs.iter().map(|&(a, b)| self.cost(a, b)).sum::<u64>() + p.bye.map(|b| self.bye_cost(b)).unwrap_or(0)
    }
}

/// The least number of pair-down steps any pairing of this field needs.
pub fn lower_bound(entrants: &[Entrant]) -> u64 {
    let f = Field::new(entrants, &[]);
    let mut count = vec![0usize; f.brackets + 1];
    for b in &f.bracket {
        count[*b] += 1;
    }
    let mut above = 0;
    let mut bound = 0;
    for c in count.iter().take(f.brackets) {
        above += c;
        if above % 2 == 1 {
            bound += 1;
        }
    }
    bound
}

/// Measures a pairing.
pub fn quality(entrants: &[Entrant], opponents: &[Vec<usize>], p: &Pairing) -> Quality {
    let f = Field::new(entrants, opponents);
    let mut q = Quality::default();
    for &(a, b) in &p.pairs {
        if f.played(a, b) {
            q.rematches += 1;
        }
        q.pair_downs += f.bracket[a].abs_diff(f.bracket[b]) as u64;
        let d = entrants[a].score.abs_diff(entrants[b].score);
        if d > 0 {
            q.mixed_pairs += 1;
        }
        q.score_difference += u64::from(d);
    }
    if let Some(b) = p.bye {
        q.pair_downs += (f.brackets - f.bracket[b]) as u64;
        if entrants[b].had_bye {
            q.repeat_byes += 1;
        }
    }
    q
}

/// Pairs a round. `entrants` are the players to pair (dropped players already left out), in
/// standings order; `opponents[i]` lists the entrants `i` has already played.
pub fn pair_round(entrants: &[Entrant], opponents: &[Vec<usize>]) -> Pairing {
    let f = Field::new(entrants, opponents);
    let n = entrants.len();
    if n == 0 {
        return Pairing::default();
    }
    let mut best = greedy(&f);
    let bound = lower_bound(entrants);
    if f.total(&best) <= bound {
        return normalise(&f, best);
    }
    let vertices = n + n % 2;
    if vertices <= EXACT_LIMIT {
        let all: Vec<usize> = (0..n).collect();
        if let Some(p) = exact_subset(&f, &all, n % 2 == 1) {
            if f.total(&p) <= f.total(&best) {
                best = p;
            }
        }
        return normalise(&f, best);
    }
    repair_windows(&f, &mut best);
    repair_local(&f, &mut best);
    if f.total(&best) >= REMATCH {
        if let Some(p) = global_rematch_free(&f, &best) {
            best = p;
        }
    }
    normalise(&f, best)
}

/// Higher-ranked player first in each pair; pairs ordered by their better player (table 1 first).
fn normalise(_f: &Field<'_>, mut p: Pairing) -> Pairing {
    for pair in &mut p.pairs {
        if pair.1 < pair.0 {
            *pair = (pair.1, pair.0);
        }
    }
    p.pairs.sort_unstable();
    p
}

fn greedy(f: &Field<'_>) -> Pairing {
    let n = f.e.len();
    let mut bye = None;
    if n % 2 == 1 {
        // The lowest-ranked player without a bye; the standings order puts the lowest bracket last.
        bye = (0..n).rev().find(|&i| !f.e[i].had_bye).or(Some(n - 1));
    }
    let mut members: Vec<Vec<usize>> = vec![Vec::new(); f.brackets];
    for i in 0..n {
        if Some(i) != bye {
            members[f.bracket[i]].push(i);
        }
    }
    for m in &mut members {
        m.sort_by_key(|&i| (f.e[i].key, i));
    }
    let mut pairs = Vec::with_capacity(n / 2);
    let mut floaters: Vec<usize> = Vec::new();
    for (b, m) in members.iter().enumerate() {
        let last = b + 1 == f.brackets;
        let mut pool_members = m.clone();
        let mut down: Vec<usize> = Vec::new();
        if (floaters.len() + pool_members.len()) % 2 == 1 && !last {
            // The lowest-ranked member who can leave the rest pairable floats down.
            let mut by_rank = pool_members.clone();
            by_rank.sort_unstable_by(|x, y| y.cmp(x));
            let mut chosen = None;
            for &cand in by_rank.iter().take(8) {
                let rest: Vec<usize> = pool_members.iter().copied().filter(|&x| x != cand).collect();
                let (_, stuck) = pair_pool(f, &floaters, &rest);
                if stuck.is_empty() {
                    chosen = Some(cand);
                    break;
                }
            }
            let cand = chosen.or(by_rank.first().copied());
            if let Some(c) = cand {
                pool_members.retain(|&x| x != c);
                down.push(c);
            }
        }
        let (mut got, stuck) = pair_pool(f, &floaters, &pool_members);
        pairs.append(&mut got);
        if last {
            // Nothing below: whoever is stuck meets whoever else is (a rematch the fallback may remove).
            for c in stuck.chunks(2) {
                if let [a, b] = c {
                    pairs.push((*a, *b));
                }
            }
            floaters.clear();
        } else {
            let mut next: Vec<usize> = stuck;
            next.extend(down);
            next.sort_unstable();
            floaters = next;
        }
    }
    Pairing { pairs, bye }
}

/// Pairs floaters (each with the first compatible member in seeded order), then the members among
/// themselves in seeded order, skipping rematches; repairs leftovers by swapping with made pairs.
/// Returns the pairs and the players left unpaired.
fn pair_pool(f: &Field<'_>, floaters: &[usize], members: &[usize]) -> (Vec<(usize, usize)>, Vec<usize>) {
    let mut used = vec![false; members.len()];
    let mut pairs = Vec::with_capacity((floaters.len() + members.len()) / 2);
    let mut stuck = Vec::new();
    for &fl in floaters {
        match (0..members.len()).find(|&k| !used[k] && f.ok(fl, members[k])) {
            Some(k) => {
                used[k] = true;
                pairs.push((fl, members[k]));
            }
            None => stuck.push(fl),
        }
    }
    let mut start = 0;
    for k in 0..members.len() {
        if used[k] {
            continue;
        }
        used[k] = true;
        while start < members.len() && used[start] {
            start += 1;
        }
        let a = members[k];
        match (start.max(k + 1)..members.len()).find(|&j| !used[j] && f.ok(a, members[j])) {
            Some(j) => {
                used[j] = true;
                pairs.push((a, members[j]));
            }
            None => stuck.push(a),
        }
    }
    // Repair: two stuck players x, y and a made pair (a, b) with x~a and y~b become (x, a), (y, b).
    let mut i = 0;
    while i < stuck.len() {
        let x = stuck[i];
        let mut fixed = false;
        for j in (i + 1)..stuck.len() {
            let y = stuck[j];
            if f.ok(x, y) {
                pairs.push((x, y));
                stuck.remove(j);
                stuck.remove(i);
                fixed = true;
                break;
            }
            if let Some(pi) = (0..pairs.len()).rev().find(|&pi| {
                let (a, b) = pairs[pi];
                (f.ok(x, a) && f.ok(y, b)) || (f.ok(x, b) && f.ok(y, a))
            }) {
                let (a, b) = pairs[pi];
                if f.ok(x, a) && f.ok(y, b) {
                    pairs[pi] = (x, a);
                    pairs.push((y, b));
                } else {
                    pairs[pi] = (x, b);
                    pairs.push((y, a));
                }
                stuck.remove(j);
                stuck.remove(i);
                fixed = true;
                break;
            }
        }
        if !fixed {
            i += 1;
        }
    }
    (pairs, stuck)
}

/// Re-solves windows of adjacent brackets exactly wherever the fast path crossed a boundary more
/// often than parity requires or left a rematch.
fn repair_windows(f: &Field<'_>, p: &mut Pairing) {
    let n = f.e.len();
    for width in 1..=3usize {
        let bound = lower_bound(f.e);
        if f.total(p) <= bound {
            return;
        }
        for top in 0..f.brackets {
            let lo = top;
            let hi = top + width;
            let mut partner = vec![usize::MAX; n];
            for &(a, b) in &p.pairs {
                partner[a] = b;
                partner[b] = a;
            }
            let mut set: BTreeSet<usize> = BTreeSet::new();
            let troubled = p.pairs.iter().any(|&(a, b)| {
                let (x, y) = (f.bracket[a].min(f.bracket[b]), f.bracket[a].max(f.bracket[b]));
                (x >= lo && x <= hi || y >= lo && y <= hi) && (f.played(a, b) || y - x > 1)
            }) || p.bye.is_some_and(|b| f.e[b].had_bye && f.bracket[b] >= lo);
            if !troubled && width > 1 {
                continue;
            }
            for (i, &bi) in f.bracket.iter().enumerate() {
                if bi >= lo && bi <= hi {
                    set.insert(i);
                    if partner[i] != usize::MAX {
                        set.insert(partner[i]);
                    }
                }
            }
            let with_bye = p.bye.is_some_and(|b| set.contains(&b));
            if set.len() + usize::from(with_bye) > EXACT_LIMIT || set.len() < 2 {
                continue;
            }
            let verts: Vec<usize> = set.iter().copied().collect();
            let old: u64 = p.pairs.iter().filter(|(a, _)| set.contains(a)).map(|&(a, b)| f.cost(a, b)).sum::<u64>()
                + if with_bye { p.bye.map(|b| f.bye_cost(b)).unwrap_or(0) } else { 0 };
            if let Some(sub) = exact_subset(f, &verts, with_bye) {
                let new = f.total(&sub);
                if new < old {
                    p.pairs.retain(|(a, _)| !set.contains(a));
                    p.pairs.extend(sub.pairs);
                    if with_bye {
                        p.bye = sub.bye;
                    }
                }
            }
        }
    }
}

/// The brackets a pair spans (lowest, highest).
fn span(f: &Field<'_>, a: usize, b: usize) -> (usize, usize) {
    (f.bracket[a].min(f.bracket[b]), f.bracket[a].max(f.bracket[b]))
}

/// How often each bracket boundary is crossed by `p` (pairs and the bye), and how often parity
/// requires it to be (once when the players above it are odd in number).
fn crossings(f: &Field<'_>, p: &Pairing) -> (Vec<u64>, Vec<u64>) {
    let nb = f.brackets;
    let mut cross = vec![0u64; nb + 1];
    for &(a, b) in &p.pairs {
        let (x, y) = span(f, a, b);
        for c in cross.iter_mut().take(y).skip(x) {
            *c += 1;
        }
    }
    if let Some(b) = p.bye {
        for c in cross.iter_mut().take(nb).skip(f.bracket[b]) {
            *c += 1;
        }
    }
    let mut count = vec![0usize; nb];
    for &b in &f.bracket {
        count[b] += 1;
    }
    let mut need = vec![0u64; nb + 1];
    let mut above = 0;
    for k in 0..nb {
        above += count[k];
        need[k] = (above % 2) as u64;
    }
    (cross, need)
}

/// The players re-solved around the costly pair `(a, b)`: it, crossing pairs, then pairs inside
/// the neighbouring brackets, nearest first, at most four per bracket, within [`EXACT_LIMIT`].
fn window(f: &Field<'_>, p: &Pairing, (a, b): (usize, usize)) -> (BTreeSet<usize>, usize, usize) {
    let nb = f.brackets;
    let (x, y) = span(f, a, b);
    let lo = x.saturating_sub(1);
    let hi = (y + 1).min(nb - 1);
    let mut set: BTreeSet<usize> = [a, b].into_iter().collect();
    let mut candidates: Vec<(u64, (usize, usize))> = p
        .pairs
        .iter()
        .copied()
        .filter(|&(c, d)| (c, d) != (a, b))
        .filter_map(|(c, d)| {
            let (u, v) = span(f, c, d);
            if v < lo || u > hi {
                return None;
            }
            // Crossing pairs first, then pairs inside the window's brackets, nearest first.
            let prio = if u != v { 0 } else { 1 + u.abs_diff(x).min(u.abs_diff(y)) as u64 };
            Some((prio, (c, d)))
        })
        .collect();
    candidates.sort_unstable();
    let mut per_bracket = vec![0usize; nb];
    for (_, (c, d)) in candidates {
        if set.len() + 2 > EXACT_LIMIT - 1 {
            break;
        }
        let (u, _) = span(f, c, d);
        if per_bracket[u] >= 4 {
            continue;
        }
        per_bracket[u] += 1;
        set.insert(c);
        set.insert(d);
    }
    (set, lo, hi)
}

/// Re-solves `set` exactly (with the bye when `with_bye`) and keeps it if it costs less.
fn resolve_window(f: &Field<'_>, p: &mut Pairing, set: &BTreeSet<usize>, with_bye: bool) -> bool {
    let verts: Vec<usize> = set.iter().copied().collect();
    let old: u64 = p.pairs.iter().filter(|(c, _)| set.contains(c)).map(|&(c, d)| f.cost(c, d)).sum::<u64>()
        + if with_bye { p.bye.map(|bb| f.bye_cost(bb)).unwrap_or(0) } else { 0 };
    let Some(sub) = exact_subset(f, &verts, with_bye) else { return false };
    if f.total(&sub) >= old {
        return false;
    }
    p.pairs.retain(|(c, _)| !set.contains(c));
    p.pairs.extend(sub.pairs);
    if with_bye {
        p.bye = sub.bye;
    }
    true
}

/// Large-neighbourhood repair: around each pair that costs more than parity requires (a rematch,
/// a pair-down over two brackets, or a boundary crossed more often than needed), re-solve exactly
/// a window of up to [`EXACT_LIMIT`] players made of that pair and nearby pairs.
fn repair_local(f: &Field<'_>, p: &mut Pairing) {
    let bound = lower_bound(f.e);
    let mut tried: BTreeSet<(usize, usize)> = BTreeSet::new();
    for _ in 0..200 {
        if f.total(p) <= bound {
            return;
        }
        let (cross, need) = crossings(f, p);
        let bad = p.pairs.iter().copied().find(|&(a, b)| {
            if tried.contains(&(a, b)) {
                return false;
            }
            let (x, y) = span(f, a, b);
            f.played(a, b) || y - x > 1 || (x < y && cross[x] > need[x])
        });
        let Some(pair) = bad else { return };
        tried.insert(pair);
        let (mut set, lo, hi) = window(f, p, pair);
        let with_bye = p.bye.is_some_and(|bb| f.bracket[bb] >= lo && f.bracket[bb] <= hi + 1);
        if let Some(bb) = p.bye.filter(|_| with_bye) {
            if set.len() % 2 == 1 || set.contains(&bb) {
                continue;
            }
            set.insert(bb);
        }
        if resolve_window(f, p, &set, with_bye) {
            tried.clear();
        }
    }
}

/// The exact minimum-cost pairing of a small field (see [`EXACT_LIMIT`]); `None` if it is too big.
pub fn exact(entrants: &[Entrant], opponents: &[Vec<usize>]) -> Option<Pairing> {
    let f = Field::new(entrants, opponents);
    let all: Vec<usize> = (0..entrants.len()).collect();
    exact_subset(&f, &all, entrants.len() % 2 == 1).map(|p| normalise(&f, p))
}

/// Subset DP over `verts` (plus a bye vertex when `with_bye`): always pair the lowest remaining
/// vertex. Ties go to the bye for the lowest-ranked player and to higher-ranked partners.
fn exact_subset(f: &Field<'_>, verts: &[usize], with_bye: bool) -> Option<Pairing> {
    let m = verts.len() + usize::from(with_bye);
    if m > EXACT_LIMIT + 2 || m % 2 == 1 {
        return None;
    }
    let bye_v = verts.len();
    let n = f.e.len() as u64;
    let w = |i: usize, j: usize| -> u64 {
        let (i, j) = (i.min(j), i.max(j));
        if j == bye_v && with_bye {
            let p = verts[i];
            (f.bye_cost(p) << SECONDARY_BITS) + (n - p as u64).min((1 << SECONDARY_BITS) - 1)
        } else {
            f.cost(verts[i], verts[j]) << SECONDARY_BITS
        }
    };
    let full: usize = (1usize << m) - 1;
    let mut memo: Vec<u64> = vec![u64::MAX; 1usize << m];
    memo[0] = 0;
    fn solve(mask: usize, memo: &mut Vec<u64>, w: &dyn Fn(usize, usize) -> u64) -> u64 {
        if memo[mask] != u64::MAX {
            return memo[mask];
        }
        let i = mask.trailing_zeros() as usize;
        let rest = mask & !(1 << i);
        let mut best = u64::MAX - 1;
        let mut r = rest;
        while r != 0 {
            let j = r.trailing_zeros() as usize;
            r &= r - 1;
            let c = w(i, j).saturating_add(solve(rest & !(1 << j), memo, w));
            if c < best {
                best = c;
            }
        }
        memo[mask] = best;
        best
    }
    solve(full, &mut memo, &w);
    let mut out = Pairing::default();
    let mut mask = full;
    while mask != 0 {
        let i = mask.trailing_zeros() as usize;
        let rest = mask & !(1 << i);
        let target = memo[mask];
        let mut r = rest;
        let mut found = None;
        while r != 0 {
            let j = r.trailing_zeros() as usize;
            r &= r - 1;
            let sub = rest & !(1 << j);
            if w(i, j).saturating_add(memo[sub]) == target {
                found = Some((j, sub));
                break;
            }
        }
        let (j, sub) = found?;
        if with_bye && j == bye_v {
            out.bye = Some(verts[i]);
        } else {
            out.pairs.push((verts[i], verts[j]));
        }
        mask = sub;
    }
    Some(out)
}

const NONE: usize = usize::MAX;

/// Maximum-cardinality matching (Edmonds' blossom algorithm) on the rematch-free graph, started
/// from the rematch-free part of `start`. Returns a rematch-free pairing if one exists, improved
/// afterwards by pair swaps that lower the pair-down cost.
fn global_rematch_free(f: &Field<'_>, start: &Pairing) -> Option<Pairing> {
    let n = f.e.len();
    let odd = n % 2 == 1;
    let v = n + usize::from(odd);
    // Vertex `n` (in an odd field) is the bye: only players who had none may take it.
    let adj = |a: usize, b: usize| -> bool {
        if a == b {
            return false;
        }
        if odd && (a == n || b == n) {
            let p = if a == n { b } else { a };
            return !f.e[p].had_bye;
        }
        f.ok(a, b)
    };
    let mut mate = vec![NONE; v];
    let bye = start.bye.filter(|_| odd).map(|b| (b, n));
    for (a, b) in start.pairs.iter().copied().chain(bye) {
        if adj(a, b) {
            mate[a] = b;
            mate[b] = a;
        }
    }
    for root in 0..v {
        if mate[root] == NONE {
            augment(&mut mate, root, &adj);
        }
    }
    if mate.contains(&NONE) {
        return None;
    }
    let mut out = Pairing::default();
    for (a, &b) in mate.iter().enumerate().take(n) {
        if b == n {
            out.bye = Some(a);
        } else if a < b {
            out.pairs.push((a, b));
        }
    }
    improve_by_swaps(f, &mut out);
    Some(out)
}

/// Searches an augmenting path from the unmatched `root` (e-maxx style BFS with blossom
/// contraction) and flips it, so `root` is matched if it can be.
fn augment(mate: &mut [usize], root: usize, adj: &dyn Fn(usize, usize) -> bool) {
    let v = mate.len();
    let mut used = vec![false; v];
    let mut p = vec![NONE; v];
    let mut base: Vec<usize> = (0..v).collect();
    let mut q = std::collections::VecDeque::new();
    used[root] = true;
    q.push_back(root);
    let mut end = NONE;
    'bfs: while let Some(x) = q.pop_front() {
        for to in 0..v {
            if base[x] == base[to] || mate[x] == to || !adj(x, to) {
                continue;
            }
            if to == root || (mate[to] != NONE && p[mate[to]] != NONE) {
                let cur = lca(mate, &base, &p, x, to, v);
                let mut blossom = vec![false; v];
                mark_path(mate, &base, &mut p, &mut blossom, x, cur, to);
                mark_path(mate, &base, &mut p, &mut blossom, to, cur, x);
                for i in 0..v {
                    if blossom[base[i]] {
                        base[i] = cur;
                        if !used[i] {
                            used[i] = true;
                            q.push_back(i);
                        }
                    }
                }
            } else if p[to] == NONE {
                p[to] = x;
                if mate[to] == NONE {
                    end = to;
                    break 'bfs;
                }
                used[mate[to]] = true;
                q.push_back(mate[to]);
            }
        }
    }
    let mut cur = end;
    while cur != NONE {
        let pv = p[cur];
        let ppv = mate[pv];
        mate[cur] = pv;
        mate[pv] = cur;
        cur = ppv;
    }
}

fn lca(mate: &[usize], base: &[usize], p: &[usize], mut a: usize, mut b: usize, v: usize) -> usize {
    let mut used = vec![false; v];
    loop {
        a = base[a];
        used[a] = true;
        if mate[a] == usize::MAX {
            break;
        }
        a = p[mate[a]];
    }
    loop {
        b = base[b];
        if used[b] {
            return b;
        }
        b = p[mate[b]];
    }
}

fn mark_path(
    mate: &[usize],
    base: &[usize],
    p: &mut [usize],
    blossom: &mut [bool],
    mut x: usize,
    b: usize,
    mut child: usize,
) {
    while base[x] != b {
        blossom[base[x]] = true;
        blossom[base[mate[x]]] = true;
        p[x] = child;
        child = mate[x];
        x = p[mate[x]];
    }
}

/// 2-opt: replace pairs (a, b), (c, d) by (a, c), (b, d) or (a, d), (b, c) when that lowers the cost.
fn improve_by_swaps(f: &Field<'_>, p: &mut Pairing) {
    for _ in 0..4 {
        let mut improved = false;
        let k = p.pairs.len();
        for i in 0..k {
            let (a, b) = p.pairs[i];
            if f.cost(a, b) == 0 {
                continue;
            }
            for j in 0..k {
                if i == j {
                    continue;
                }
                let (c, d) = p.pairs[j];
                let old = f.cost(a, b) + f.cost(c, d);
                if f.cost(a, c) + f.cost(b, d) < old {
                    p.pairs[i] = (a, c);
                    p.pairs[j] = (b, d);
                    improved = true;
                    break;
                }
                if f.cost(a, d) + f.cost(b, c) < old {
                    p.pairs[i] = (a, d);
                    p.pairs[j] = (b, c);
                    improved = true;
                    break;
                }
            }
        }
        if !improved {
            break;
        }
    }
}
