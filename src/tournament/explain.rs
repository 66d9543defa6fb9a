//! Why a player was paired as they were and ranks where they do, read from the tournament's own
//! events: for each round the score group, who was paired down and why, the rematches avoided or
//! forced, why the bye went where it did; and each tiebreaker with the opponents and records it
//! was computed from, against the players on the same points. Pure: the events are folded again
//! (once, in order), nothing is read from a store.
//!
//! Everything an explanation says is re-derivable from the public log (pairings, results, round
//! seeds and standings are all public), so it reveals nothing the standings do not.

use std::collections::BTreeMap;

use serde::Serialize;

use super::events::TournamentEvent;
use super::policy::{Rules, Tiebreaker};
use super::record::{self, Loaded};
use super::rules;
use super::standings::{match_points, StandingRow, Tally};
use super::state::Tournament;
use super::TournamentError;

/// At most this many names are listed in one sentence; the rest are counted.
const NAMES_LISTED: usize = 6;

const SWISS_METHOD: &str = "Each Swiss round is paired from the standings before it: players meet players on \
     the same points (their score group) where they can; kifu avoids rematches first (and second byes), then keeps \
     pair-downs as few and as short as it can; among equally good pairings the round's seed decides, and the seed is \
     committed before round 1, so anyone can re-derive every round (kifu tournament verify).";

const POD_METHOD: &str = "Each round's pods are built from the standings before it (points, then pod-mates' \
     average points, then the round seed's draw): each pod opens with the best-ranked player not yet seated and takes \
     the best-ranked players who have met its members least often. The seed is committed before round 1, so anyone \
     can re-derive every round (kifu tournament verify).";

/// A player's explanation.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Explanation {
    pub tournament: String,
    pub player: String,
    /// The round asked about, or every round played when none was.
    pub round: Option<u32>,
    /// How the event pairs its rounds, once for all of them.
    pub pairing_method: String,
    /// What the standing below is as of: "after round R" or "now".
    pub standing_as_of: String,
    pub rounds: Vec<RoundWhy>,
    pub standing: Option<StandingWhy>,
}

/// How the player came to sit where they sat in one round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RoundWhy {
    pub round: u32,
    /// `table`, `bye`, `pod`, `top cut`, `missed` (entered later), `dropped`, `not paired`.
    pub kind: String,
    /// The table (or pod) number.
    pub table: Option<u32>,
    /// The opponent, or the pod-mates.
    pub opponents: Vec<String>,
    /// The player's match points before the round.
    pub points: Option<u32>,
    /// The opponent's match points before the round (a table).
    pub opponent_points: Option<u32>,
    /// Players in the round on the player's points, the player included.
    pub score_group: Option<u32>,
    pub paired_down: bool,
    pub paired_up: bool,
    pub rematch: bool,
    /// Plain sentences, in the order a person asks: where, why there, who else, what was avoided.
    pub why: Vec<String>,
}

/// Where the player ranks and how each tiebreaker was computed.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StandingWhy {
    pub rank: String,
    pub of: u32,
    pub points: u32,
    pub record: String,
    pub how_points: String,
    pub tiebreakers: Vec<TiebreakerWhy>,
    /// The players just above and below on the same points, and what separates them.
    pub beside: Vec<Comparison>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TiebreakerWhy {
    pub name: String,
    /// The value as a fraction (0..1), or points for the pods' opponents' average.
    pub value: Option<f64>,
    pub how: String,
    pub parts: Vec<Part>,
}

/// One opponent's share of a tiebreaker.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Part {
    pub opponent: String,
    pub record: String,
    pub value: f64,
    pub note: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Comparison {
    pub player: String,
    pub rank: String,
    pub above: bool,
    pub decided_by: String,
}

/// The field as it stood when a Swiss round was paired: what the pairing was made from.
struct Before {
    /// Active players in standings order (player indices).
    order: Vec<usize>,
    /// Match points by player index (active players only).
    points: Vec<Option<u32>>,
    had_bye: Vec<bool>,
    /// The player's tally before the round.
    tally: Tally,
    /// Pod rounds: the player's pod standing before the round (rank, points).
    pod_rank: Option<(u32, u32)>,
}

/// Explains `player`'s rounds (or only `round`) and standing in a loaded tournament.
pub fn explain(loaded: &Loaded, player: &str, round: Option<u32>) -> Result<Explanation, TournamentError> {
    crate::log::limits::check_name(|| "the player's name".into(), player)?;
    let final_state = &loaded.state;
    let name = rules::resolve(final_state, player)?;
    let p =
        final_state.player(&name).ok_or_else(|| TournamentError::Internal(format!("{name} resolved but absent")))?;
    if let Some(r) = round {
        if !final_state.rounds.iter().any(|x| x.round == r) {
            let paired = final_state.rounds.last().map_or(0, |x| x.round);
            return Err(TournamentError::Input(if paired == 0 {
                format!("round {r} is not paired: no round is paired yet")
            } else {
                format!("round {r} is not paired: rounds 1 to {paired} are")
            }));
        }
    }
    // One pass over the events: the field as it stood before each round was paired, and the state
    // after `round` (just before the next round was paired) for the standing.
    let mut st = record::empty_state(&loaded.header);
    let mut before: BTreeMap<u32, Before> = BTreeMap::new();
    let mut after: Option<Tournament> = None;
    for e in &loaded.entries {
        let paired = match &e.event {
            TournamentEvent::RoundPaired { round: r, .. } | TournamentEvent::PodRoundPaired { round: r, .. } => {
                Some((*r, true))
            }
            TournamentEvent::TopCutPaired { round: r, .. } => Some((*r, false)),
            _ => None,
        };
        if let Some((r, swiss)) = paired {
            if round.is_some_and(|want| r == want + 1) && after.is_none() {
                after = Some(st.clone());
            }
            if swiss && round.is_none_or(|want| want == r) {
                before.insert(r, snapshot(&st, r, p));
            }
        }
        st = st.apply(&e.event);
    }
    let as_of = after.as_ref().unwrap_or(final_state);
    let rounds = final_state
        .rounds
        .iter()
        .filter(|r| round.is_none_or(|want| want == r.round))
        .filter_map(|r| round_why(final_state, r, p, before.get(&r.round)))
        .collect();
    // A player who entered after the round asked about has no standing as of it.
    let standing = match as_of.player(&name) {
        Some(q) if as_of.pod_format.is_some() => pod_standing(as_of, q),
        Some(q) => standing(as_of, q),
        None => None,
    };
    Ok(Explanation {
        tournament: loaded.config.name.clone(),
        player: name,
        round,
        pairing_method: if final_state.pod_format.is_some() { POD_METHOD.into() } else { SWISS_METHOD.into() },
        standing_as_of: match (round, &after) {
            (Some(r), Some(_)) => format!("after round {r}"),
            _ => "now".into(),
        },
        rounds,
        standing,
    })
}

fn snapshot(st: &Tournament, round: u32, p: usize) -> Before {
    let n = st.players.len();
    let mut points = vec![None; n];
    let mut order = Vec::new();
    let mut pod_rank = None;
    if st.pod_format.is_some() {
        let rows = st.pod_standings();
        for (i, row) in rows.iter().enumerate() {
            if let Some(x) = st.player(&row.player) {
                if st.active_in(x, round) {
                    order.push(x);
                    points[x] = Some(row.points);
                }
                if x == p {
                    pod_rank = Some((i as u32 + 1, row.points));
                }
            }
        }
    } else {
        for row in st.standings() {
            if let Some(x) = st.player(&row.player) {
                if st.active_in(x, round) {
                    order.push(x);
                    points[x] = Some(row.points);
                }
            }
        }
    }
    let had_bye = (0..n).map(|x| st.tallies.0.get(x).is_some_and(|t| t.byes > 0)).collect();
    let tally = st.tallies.0.get(p).cloned().unwrap_or_default();
    Before { order, points, had_bye, tally, pod_rank }
}

/// "ana, bob and 3 more".
fn names(list: &[String]) -> String {
    let shown: Vec<&str> = list.iter().take(NAMES_LISTED).map(String::as_str).collect();
    let more = list.len().saturating_sub(NAMES_LISTED);
    let mut s = match shown.as_slice() {
        [] => String::new(),
        [one] => (*one).to_string(),
        [init @ .., last] if more == 0 => format!("{} and {last}", init.join(", ")),
        all => all.join(", "),
    };
    if more > 0 {
        s.push_str(&format!(" and {more} more"));
    }
    s
}

fn record_of(t: &Tally) -> String {
    format!("{}-{}-{}", t.wins, t.losses, t.draws)
}

/// A standings row's match record, "W-L-D".
fn row_record(r: &StandingRow) -> String {
    format!("{}-{}-{}", r.wins, r.losses, r.draws)
}

fn pct(x: f64) -> String {
    format!("{:.2}%", x * 100.0)
}

/// The rounds in which `p` met each earlier opponent, by opponent.
fn met_in(st: &Tournament, p: usize, before_round: u32) -> BTreeMap<usize, Vec<u32>> {
    let mut out: BTreeMap<usize, Vec<u32>> = BTreeMap::new();
    for r in st.swiss().filter(|r| r.round < before_round) {
        for t in &r.tables {
            if t.a == p {
                out.entry(t.b).or_default().push(r.round);
            } else if t.b == p {
                out.entry(t.a).or_default().push(r.round);
            }
        }
    }
    out
}

fn round_why(st: &Tournament, r: &super::state::RoundState, p: usize, before: Option<&Before>) -> Option<RoundWhy> {
    let name = |i: usize| st.players.get(i).map_or_else(|| "?".to_string(), |x| x.name.clone());
    let mut why = RoundWhy {
        round: r.round,
        kind: String::new(),
        table: None,
        opponents: vec![],
        points: None,
        opponent_points: None,
        score_group: None,
        paired_down: false,
        paired_up: false,
        rematch: false,
        why: vec![],
    };
    if r.top_cut {
        return top_cut_why(st, r, p, why);
    }
    let pl = &st.players[p];
    if pl.first_round > r.round {
        why.kind = "missed".into();
        why.why.push(format!(
            "You entered late, at round {}: round {} counts as a match loss (a missed round).",
            pl.first_round, r.round
        ));
        return Some(why);
    }
    if let Some(d) = pl.dropped_after.filter(|&d| d < r.round) {
        // Only the first round after the drop says so.
        if d + 1 != r.round {
            return None;
        }
        why.kind = "dropped".into();
        why.why.push(format!("You dropped after round {d}, so you are not paired again."));
        return Some(why);
    }
    let overrides: Vec<String> = st
        .overrides
        .iter()
        .filter(|o| o.round == r.round && o.kind == super::state::OverrideKind::Pairing)
        .map(|o| {
            format!(
                "This round's pairings were changed by hand by {}: {}. Verify lists the change; the pairing the seed gave is still checked.",
                o.by, o.reason
            )
        })
        .collect();
    let seeded = r.seed.is_some() && overrides.is_empty();
    if !r.pods.is_empty() {
        let pod = r.pods.iter().find(|x| x.seats.contains(&p))?;
        why.kind = "pod".into();
        why.table = Some(pod.pod);
        why.opponents = pod.seats.iter().filter(|&&s| s != p).map(|&s| name(s)).collect();
        let seat = pod.seats.iter().position(|&s| s == p).unwrap_or(0);
        why.why.push(format!("You sat in pod {}, seat {}, with {}.", pod.pod, seat + 1, names(&why.opponents)));
        if let Some((rank, points)) = before.and_then(|b| b.pod_rank) {
            why.points = Some(points);
            let n = before.map_or(0, |b| b.order.len());
            why.why.push(format!(
                "Before the round you had {points} points, ranked {rank} of the {n} players in the round."
            ));
        }
        why.why.extend(overrides);
        return Some(why);
    }
    let Some(b) = before else {
        why.kind = if r.byes.contains(&p) { "bye" } else { "table" }.into();
        return Some(why);
    };
    let my_points = b.points.get(p).copied().flatten().unwrap_or(0);
    let n = b.order.len();
    let rank = b.order.iter().position(|&x| x == p).map_or(n, |i| i + 1);
    let group: Vec<usize> = b.order.iter().copied().filter(|&x| b.points[x] == Some(my_points)).collect();
    why.points = Some(my_points);
    why.score_group = Some(group.len() as u32);
    let met = met_in(st, p, r.round);
    let mut facts = format!(
        "Before round {} you had {my_points} points ({}), ranked {rank} of the {n} players in the round; \
         your score group (players on {my_points} points) had {} player{}.",
        r.round,
        record_of(&b.tally),
        group.len(),
        if group.len() == 1 { "" } else { "s" }
    );
    if !r.byes.contains(&p) && r.tables.iter().all(|t| t.a != p && t.b != p) {
        why.kind = "not paired".into();
        why.why.push("You are not in this round's pairings.".into());
        return Some(why);
    }
    if r.seed.is_none() {
        facts.push_str(
            " This round was paired outside kifu (imported without a seed): kifu can show who met whom, not why.",
        );
    }
    why.why.push(facts);
    why.why.extend(overrides);
    if r.byes.contains(&p) {
        why.kind = "bye".into();
        why.why.push(format!("{n} players were in the round, an odd number, so one of them had a bye (a match win)."));
        if seeded {
            why.why.push(bye_reason(b, p, rank, &name));
        }
        return Some(why);
    }
    let Some(t) = r.tables.iter().find(|t| t.a == p || t.b == p) else { return Some(why) };
    let opp = if t.a == p { t.b } else { t.a };
    let opp_points = b.points.get(opp).copied().flatten().unwrap_or(0);
    why.kind = "table".into();
    why.table = Some(t.table);
    why.opponents = vec![name(opp)];
    why.opponent_points = Some(opp_points);
    why.paired_down = opp_points < my_points;
    why.paired_up = opp_points > my_points;
    why.why.push(direction_line(r, b, my_points, group.len(), opp, &name));
    why.rematch = met.contains_key(&opp);
    why.why.extend(rematch_line(&met, b, my_points, opp, seeded, &name));
    Some(why)
}

/// A top-cut round: seeded from the Swiss standings, then the winners in bracket order.
fn top_cut_why(st: &Tournament, r: &super::state::RoundState, p: usize, mut why: RoundWhy) -> Option<RoundWhy> {
    let name = |i: usize| st.players.get(i).map_or_else(|| "?".to_string(), |x| x.name.clone());
    let t = r.tables.iter().find(|t| t.a == p || t.b == p)?;
    let opp = if t.a == p { t.b } else { t.a };
    let rank_of = |x: usize| {
        st.standings().iter().find(|row| row.player == name(x)).map_or_else(|| "?".into(), |row| row.rank_label())
    };
    why.kind = "top cut".into();
    why.table = Some(t.table);
    why.opponents = vec![name(opp)];
    let first_cut = st.rounds.iter().find(|x| x.top_cut).map(|x| x.round) == Some(r.round);
    why.why.push(if first_cut {
        format!(
            "Top cut: the bracket is seeded from the Swiss standings, the best against the last of the cut \
             (1 v 8, 4 v 5, 2 v 7, 3 v 6 in a top 8); you finished the Swiss {}, {} finished {}.",
            rank_of(p),
            name(opp),
            rank_of(opp)
        )
    } else {
        format!("Top cut: the winners of the previous round meet in bracket order; you meet {}.", name(opp))
    });
    Some(why)
}

/// Inside the score group, paired down (and why: the group's parity after the players who came
/// down into it), or paired up.
fn direction_line(
    r: &super::state::RoundState,
    b: &Before,
    my_points: u32,
    group: usize,
    opp: usize,
    name: &dyn Fn(usize) -> String,
) -> String {
    let opp_points = b.points.get(opp).copied().flatten().unwrap_or(0);
    // Players from higher groups paired into this group, and this group's players paired lower.
    let in_group = |x: usize| b.points[x] == Some(my_points);
    let came_down = r
        .tables
        .iter()
        .filter(|t| {
            let (pa, pb) = (b.points[t.a].unwrap_or(0), b.points[t.b].unwrap_or(0));
            (in_group(t.a) && pb > my_points) || (in_group(t.b) && pa > my_points)
        })
        .count();
    let left = group.saturating_sub(came_down).saturating_sub(usize::from(r.byes.iter().any(|&x| in_group(x))));
    match opp_points.cmp(&my_points) {
        std::cmp::Ordering::Equal => {
            format!("You were paired inside your score group: {} also had {my_points} points.", name(opp))
        }
        std::cmp::Ordering::Less => {
            let parity = if came_down > 0 {
                format!(
                    "After {came_down} player{} from higher groups {} paired into your group, {left} of its players were left",
                    if came_down == 1 { "" } else { "s" },
                    if came_down == 1 { "was" } else { "were" }
                )
            } else {
                format!("Your group had {left} players to pair")
            };
            if left % 2 == 1 {
                format!(
                    "You were paired down: {} had {opp_points} points. {parity}, an odd number, so one of them had to meet a player with fewer points; the seeded pairing made it you.",
                    name(opp)
                )
            } else {
                format!(
                    "You were paired down: {} had {opp_points} points. {parity}, an even number, but pairing them all among themselves would have needed a rematch or more pair-downs elsewhere, which kifu avoids first.",
                    name(opp)
                )
            }
        }
        std::cmp::Ordering::Greater => {
            format!(
                "You were paired up: {} ({opp_points} points) came down from a higher score group that had a player left over, and met a player of your group.",
                name(opp)
            )
        }
    }
}

/// Whether `opp` was met before (and whether the seed, not a hand, paired them again), or which
/// earlier opponents on the same points were avoided.
fn rematch_line(
    met: &BTreeMap<usize, Vec<u32>>,
    b: &Before,
    my_points: u32,
    opp: usize,
    seeded: bool,
    name: &dyn Fn(usize) -> String,
) -> Option<String> {
    if let Some(rounds) = met.get(&opp) {
        let rounds = rounds.iter().map(|r| r.to_string()).collect::<Vec<_>>().join(", ");
        return Some(if seeded {
            format!(
                "This is a rematch: you had played {} in round {rounds}. No pairing of the whole round avoided every rematch (kifu checks the whole field before it accepts one).",
                name(opp)
            )
        } else {
            format!("This is a rematch: you had played {} in round {rounds}.", name(opp))
        });
    }
    let avoided: Vec<String> =
        met.keys().filter(|&&x| x != opp && b.points[x] == Some(my_points)).map(|&x| name(x)).collect();
    if !avoided.is_empty() && seeded {
        Some(format!(
            "Rematches avoided: you had already played {} in your score group, so kifu did not pair you with {}.",
            names(&avoided),
            if avoided.len() == 1 { "them" } else { "any of them" }
        ))
    } else if !met.is_empty() {
        Some(format!("Not a rematch: you had not played {} before.", name(opp)))
    } else {
        None
    }
}

/// Why a seeded round's bye went to `p`, ranked `rank` of the round's players (an imported or
/// hand-changed round says only what is known, so it has no reason).
fn bye_reason(b: &Before, p: usize, rank: usize, name: &dyn Fn(usize) -> String) -> String {
    let below: Vec<String> = b.order.iter().skip(rank).filter(|&&x| !b.had_bye[x]).map(|&x| name(x)).collect();
    let below_had: Vec<String> = b.order.iter().skip(rank).filter(|&&x| b.had_bye[x]).map(|&x| name(x)).collect();
    if b.had_bye[p] {
        "You had already had a bye: every player without one would have needed a rematch to leave the rest pairable, so a second bye was the least bad choice."
            .into()
    } else if below.is_empty() && below_had.is_empty() {
        "The bye goes to the lowest-ranked player who has not had one: you were last in the standings.".into()
    } else if below.is_empty() {
        format!(
            "The bye goes to the lowest-ranked player who has not had one: everyone ranked below you ({}) already had a bye.",
            names(&below_had)
        )
    } else {
        format!(
            "{} ranked below you without a bye, but giving one of them the bye would have needed a rematch or more pair-downs, which kifu avoids first; the bye then goes as low as it can.",
            names(&below)
        )
    }
}

/// The tiebreaker keys compare at this precision (as the ranking does).
fn same(a: f64, b: f64) -> bool {
    (a * 1e12).round() == (b * 1e12).round()
}

fn tiebreaker_value(tb: Tiebreaker, row: &StandingRow) -> Option<f64> {
    match tb {
        Tiebreaker::OpponentMatchWin => Some(row.omw),
        Tiebreaker::GameWin => Some(row.gw),
        Tiebreaker::OpponentGameWin => Some(row.ogw),
        Tiebreaker::OpponentOpponentMatchWin => Some(row.oomw),
        Tiebreaker::LatePenalty | Tiebreaker::HeadToHead => None,
    }
}

fn standing(st: &Tournament, p: usize) -> Option<StandingWhy> {
    let rules = st.rules()?;
    let rows = st.standings();
    let me_at = rows.iter().position(|r| r.player == st.players[p].name)?;
    let me = &rows[me_at];
    let empty = Tally::default();
    let t = st.tallies.0.get(p).unwrap_or(&empty);
    let row_of = |name: &str| rows.iter().find(|r| r.player == name);
    let opponents: Vec<(&str, &StandingRow)> = t
        .opponents
        .iter()
        .filter_map(|&o| st.players.get(o).and_then(|x| row_of(&x.name)).map(|r| (r.player.as_str(), r)))
        .collect();
    let mut tiebreakers = vec![TiebreakerWhy {
        name: "MW%".into(),
        value: Some(me.mw),
        how: own_match_win(&rules, t, me),
        parts: vec![],
    }];
    tiebreakers.extend(rules.tiebreakers.iter().map(|&tb| tiebreaker_why(&rules, tb, me, t, &opponents)));
    let mut beside = Vec::new();
    for (at, above) in [(me_at.checked_sub(1), true), (Some(me_at + 1), false)] {
        let Some(other) = at.and_then(|i| rows.get(i)) else { continue };
        if other.points != me.points {
            continue;
        }
        beside.push(Comparison {
            player: other.player.clone(),
            rank: other.rank_label(),
            above,
            decided_by: separated_by(&rules, me, other),
        });
    }
    Some(StandingWhy {
        rank: me.rank_label(),
        of: rows.len() as u32,
        points: me.points,
        record: row_record(me),
        how_points: format!(
            "{} win{} × {} + {} draw{} × {} + {} loss{} × {} = {} points{}",
            t.wins,
            if t.wins == 1 { "" } else { "s" },
            rules.win,
            t.draws,
            if t.draws == 1 { "" } else { "s" },
            rules.draw,
            t.losses,
            if t.losses == 1 { "" } else { "es" },
            rules.loss,
            match_points(&rules, t),
            match (t.byes, t.missed) {
                (0, 0) => String::new(),
                (b, 0) => format!(" ({b} of the wins {})", if b == 1 { "is a bye" } else { "are byes" }),
                (0, m) => format!(
                    " ({m} of the losses {} missed by a late entry)",
                    if m == 1 { "is a round" } else { "are rounds" }
                ),
                (b, m) => format!(
                    " ({b} bye{}, {m} missed round{})",
                    if b == 1 { "" } else { "s" },
                    if m == 1 { "" } else { "s" }
                ),
            }
        ),
        tiebreakers,
        beside,
    })
}

/// One of the policy's tiebreakers for the player: its formula and the opponents it comes from.
fn tiebreaker_why(
    rules: &Rules,
    tb: Tiebreaker,
    me: &StandingRow,
    t: &Tally,
    opponents: &[(&str, &StandingRow)],
) -> TiebreakerWhy {
    let at_floor = |v: f64| same(v, rules.floor).then(|| format!("the {} floor", pct(rules.floor)));
    let (how, parts) = match tb {
        Tiebreaker::OpponentMatchWin => {
            let frozen = me.dropped && rules.pokemon_pct;
            (
                format!(
                    "the mean of your opponents' match-win % ({} opponent{}, byes are not opponents; each at least {}){}",
                    opponents.len(),
                    if opponents.len() == 1 { "" } else { "s" },
                    pct(rules.floor),
                    if frozen { "; a player who dropped keeps the value they had when they dropped" } else { "" }
                ),
                opponents
                    .iter()
                    .map(|(n, r)| Part {
                        opponent: n.to_string(),
                        record: row_record(r),
                        value: r.mw,
                        note: at_floor(r.mw),
                    })
                    .collect(),
            )
        }
        Tiebreaker::GameWin => (
            format!(
                "games won {}, lost {}, drawn {}: (3 × {} + {}) / (3 × {}){}",
                t.games_won,
                t.games_lost,
                t.games_drawn,
                t.games_won,
                t.games_drawn,
                t.games_won + t.games_lost + t.games_drawn,
                if rules.floor_own_gw { format!(", at least {}", pct(rules.floor)) } else { String::new() }
            ),
            vec![],
        ),
        Tiebreaker::OpponentGameWin => (
            format!("the mean of your opponents' game-win % (each at least {})", pct(rules.floor)),
            opponents
                .iter()
                .map(|(n, r)| {
                    let v = r.gw.max(rules.floor);
                    Part { opponent: n.to_string(), record: row_record(r), value: v, note: at_floor(v) }
                })
                .collect(),
        ),
        Tiebreaker::OpponentOpponentMatchWin => (
            "the mean of your opponents' OMW% (their opponents' match-win %)".into(),
            opponents
                .iter()
                .map(|(n, r)| Part { opponent: n.to_string(), record: row_record(r), value: r.omw, note: None })
                .collect(),
        ),
        Tiebreaker::LatePenalty => (
            if me.late {
                "you entered late: you rank below every player on the same points who did not".into()
            } else {
                "you did not enter late: no penalty".into()
            },
            vec![],
        ),
        Tiebreaker::HeadToHead => {
            ("only when exactly two players are tied on everything before it and they played each other".into(), vec![])
        }
    };
    TiebreakerWhy { name: tb.label().into(), value: tiebreaker_value(tb, me), how, parts }
}

fn own_match_win(rules: &Rules, t: &Tally, me: &StandingRow) -> String {
    if rules.pokemon_pct {
        format!(
            "(wins without byes {} + ½ × draws {}) / (rounds without byes {}), at least {}; {} as your opponents count it",
            t.wins.saturating_sub(t.byes),
            t.draws,
            t.rounds.saturating_sub(t.byes),
            pct(rules.floor),
            pct(me.mw)
        )
    } else {
        let (rounds, points) = if rules.byes_in_own_pct {
            (t.rounds, match_points(rules, t))
        } else {
            (t.rounds - t.byes.min(t.rounds), match_points(rules, t).saturating_sub(t.byes * rules.win))
        };
        format!(
            "{points} points / ({} × {rounds} rounds), at least {}: {} as your opponents count it",
            rules.win,
            pct(rules.floor),
            pct(me.mw)
        )
    }
}

/// What ranks `me` and `other` (on the same points) apart.
fn separated_by(rules: &Rules, me: &StandingRow, other: &StandingRow) -> String {
    let (hi, lo) = if me.rank <= other.rank { (me, other) } else { (other, me) };
    for &tb in &rules.tiebreakers {
        match tb {
            Tiebreaker::LatePenalty if hi.late != lo.late => {
                return format!("late entry: {} entered late", lo.player);
            }
            Tiebreaker::HeadToHead if hi.rank != lo.rank => {
                // Everything before it was equal, or an earlier key would have decided.
                return format!("head-to-head: {} won their match against {}", hi.player, lo.player);
            }
            _ => {}
        }
        if let (Some(a), Some(b)) = (tiebreaker_value(tb, hi), tiebreaker_value(tb, lo)) {
            if !same(a, b) {
                return format!("{}: {} {} against {} {}", tb.label(), hi.player, pct(a), lo.player, pct(b));
            }
        }
    }
    if hi.tied && lo.tied && hi.rank == lo.rank {
        format!("tied on every tiebreaker: both rank T{}; the order shown is the event's seeded draw", hi.rank)
    } else {
        "tied on every tiebreaker: the event's seeded random draw (fixed before any result) orders them".into()
    }
}

fn pod_standing(st: &Tournament, p: usize) -> Option<StandingWhy> {
    let rows = st.pod_standings();
    let name = &st.players.get(p)?.name;
    let me_at = rows.iter().position(|r| &r.player == name)?;
    let me = &rows[me_at];
    let games = st.pod_games();
    let totals = |who: &str| {
        games.iter().fold((0u32, 0u32), |(pts, n), (pod, seat_pts)| match pod.iter().position(|x| x == who) {
            Some(i) => (pts + seat_pts.get(i).copied().unwrap_or(0), n + 1),
            None => (pts, n),
        })
    };
    let mut parts = Vec::new();
    for (pod, _) in games.iter().filter(|(pod, _)| pod.contains(name)) {
        for mate in pod.iter().filter(|x| *x != name) {
            let (pts, n) = totals(mate);
            parts.push(Part {
                opponent: mate.clone(),
                record: format!("{pts} points in {n} game{}", if n == 1 { "" } else { "s" }),
                value: f64::from(pts) / f64::from(n.max(1)),
                note: None,
            });
        }
    }
    let beside = [(me_at.checked_sub(1), true), (Some(me_at + 1), false)]
        .into_iter()
        .filter_map(|(at, above)| {
            let other = rows.get(at?)?;
            (other.points == me.points).then(|| {
                let (hi, lo) = if above { (other, me) } else { (me, other) };
                Comparison {
                    player: other.player.clone(),
                    rank: other.rank.to_string(),
                    above,
                    decided_by: if (hi.opponents_average - lo.opponents_average).abs() > 1e-12 {
                        format!(
                            "pod-mates' average points: {} {:.2} against {} {:.2}",
                            hi.player, hi.opponents_average, lo.player, lo.opponents_average
                        )
                    } else {
                        "tied on pod-mates' average points: the event's seeded random draw orders them".into()
                    },
                }
            })
        })
        .collect();
    Some(StandingWhy {
        rank: me.rank.to_string(),
        of: rows.len() as u32,
        points: me.points,
        record: format!("{} game{}", me.games, if me.games == 1 { "" } else { "s" }),
        how_points: format!(
            "{} points from {} pod game{} by the event's points table",
            me.points,
            me.games,
            if me.games == 1 { "" } else { "s" }
        ),
        tiebreakers: vec![TiebreakerWhy {
            name: "pod-mates' average points".into(),
            value: Some(me.opponents_average),
            how: "each pod-mate of each game, their points per game, averaged".into(),
            parts,
        }],
        beside,
    })
}
