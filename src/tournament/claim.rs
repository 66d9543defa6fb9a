//! Which games a result may link: the one check that decides whether a game becomes part of a
//! tournament (and so whether the tournament's judges and players get access to it).
//!
//! A game belongs to a tournament's match because it was created bound to that match: the
//! binding (tournament, round, table or pod) is in its hashed header ([`MatchBinding`]), checked
//! when the game is created ([`check_binding`]) and never changed. A result links only games
//! bound to its own match, so no other match or tournament can claim a game, live or finished,
//! whoever its players are. Games that an earlier build linked unbound keep their recorded links
//! (`verify` still checks them by their players); no new link to an unbound game is recorded.

use std::collections::HashSet;

use crate::log::envelope::{MatchBinding, MatchPlace, StreamId, StreamKind};
use crate::store::{Store, StoreError};

use super::events::GameLink;
use super::record::{self, Loaded};
use super::state::Tournament;
use super::TournamentError;

/// Checks that the result of `round`, `table` of `tournament` may link `games`, and returns the
/// links with each game's current head. Refuses (writing nothing) a game that does not exist, is
/// not a game of the tournament's ruleset, was not created bound to this match, is not played by
/// exactly the match's players, or is named twice.
pub fn claim_games(
    store: &dyn Store,
    tournament: &Loaded,
    round: u32,
    table: u32,
    games: &[String],
) -> Result<Vec<GameLink>, TournamentError> {
    let state = &tournament.state;
    let tb = state
        .rounds
        .iter()
        .find(|r| r.round == round)
        .and_then(|r| r.table_at(table).map(|i| &r.tables[i]))
        .ok_or_else(|| TournamentError::Input(format!("round {round} has no table {table}")))?;
    let name = |i: usize| state.players.get(i).map(|p| p.name.clone()).unwrap_or_default();
    claim(store, tournament, Slot::Table(round, table), vec![name(tb.a), name(tb.b)], games)
}

/// Which result a claim is for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Slot {
    Table(u32, u32),
    Pod(u32, u32),
}

/// As [`claim_games`] for the result of `round`, `pod` of a pod tournament: each game must be of
/// the tournament's ruleset and played by exactly the pod's players.
pub fn claim_pod_games(
    store: &dyn Store,
    tournament: &Loaded,
    round: u32,
    pod: u32,
    games: &[String],
) -> Result<Vec<GameLink>, TournamentError> {
    let state = &tournament.state;
    let p = state
        .rounds
        .iter()
        .find(|r| r.round == round)
        .and_then(|r| r.pods.iter().find(|p| p.pod == pod))
        .ok_or_else(|| TournamentError::Input(format!("round {round} has no pod {pod}")))?;
    let names = p.seats.iter().map(|&i| state.players.get(i).map(|p| p.name.clone()).unwrap_or_default()).collect();
    claim(store, tournament, Slot::Pod(round, pod), names, games)
}

fn claim(
    store: &dyn Store,
    tournament: &Loaded,
    slot: Slot,
    mut match_players: Vec<String>,
    games: &[String],
) -> Result<Vec<GameLink>, TournamentError> {
    let tid = tournament.header.stream();
    let refuse = |game: &str, why: String| TournamentError::Input(format!("cannot link game {game:?}: {why}"));
    match_players.sort();
    let whose = match slot {
        Slot::Table(..) => "this match's two players".to_string(),
        Slot::Pod(_, pod) => format!("pod {pod}'s players ({})", match_players.join(", ")),
    };
    let want = slot.binding(tid);
    let mut seen = HashSet::new();
    let mut out = Vec::with_capacity(games.len());
    for g in games {
        let sid = StreamId::new(g).map_err(|e| refuse(g, e.to_string()))?;
        if !seen.insert(g.as_str()) {
            return Err(refuse(g, "it is named twice".into()));
        }
        let (_, header) = match store.header(&sid) {
            Err(StoreError::UnknownStream(_)) => return Err(refuse(g, "no such stream".into())),
            other => other?,
        };
        let h = header.v1();
        if h.kind != StreamKind::Game || h.ruleset != tournament.config.game {
            return Err(refuse(g, format!("it is not a {} game", tournament.config.game)));
        }
        // The binding, hashed into the game's header when it was created, is what makes the game
        // this match's: a game created unbound, or bound to another match or tournament, is not,
        // whoever its players are.
        match header.bound() {
            Some(b) if *b == want => {}
            Some(b) => return Err(refuse(g, format!("it was created bound to {b}, not to {want}"))),
            None => {
                return Err(refuse(
                    g,
                    format!("it was not created bound to a match (create it with --tournament {tid} ...)"),
                ))
            }
        }
        let mut players = h.players.clone();
        players.sort();
        if players[..] != match_players[..] {
            return Err(refuse(g, format!("its players ({}) are not {whose}", h.players.join(", "))));
        }
        out.push(GameLink { stream: g.clone(), head: store.head(&sid)?.hash });
    }
    Ok(out)
}

impl Slot {
    fn binding(self, tournament: &StreamId) -> MatchBinding {
        let (round, place) = match self {
            Slot::Table(r, t) => (r, MatchPlace::Table(t)),
            Slot::Pod(r, p) => (r, MatchPlace::Pod(p)),
        };
        MatchBinding { tournament: tournament.clone(), round, place }
    }
}

/// Checks that a new game of `ruleset` played by `players` may be created bound to `bound`: the
/// tournament exists and plays `ruleset`, and the round has that table (or pod) and seats exactly
/// these players. A bound game is in its match's scope from its first event.
pub fn check_binding(
    store: &dyn Store,
    bound: &MatchBinding,
    ruleset: &str,
    players: &[String],
) -> Result<(), TournamentError> {
    let tournament = match record::load(store, &bound.tournament) {
        Err(TournamentError::Store(StoreError::UnknownStream(_))) => {
            return Err(TournamentError::Input(format!("no tournament {}", bound.tournament)))
        }
        other => other?,
    };
    if tournament.config.game != ruleset {
        return Err(TournamentError::Input(format!(
            "tournament {} plays {}, not {ruleset}",
            bound.tournament, tournament.config.game
        )));
    }
    let mut seated = seated_at(&tournament.state, bound)?;
    let mut given = players.to_vec();
    given.sort();
    seated.sort();
    if given != seated {
        return Err(TournamentError::Input(format!("{bound} seats {}, not {}", seated.join(", "), players.join(", "))));
    }
    Ok(())
}

/// The players `state` seats at the match `bound` names (a table's two, or a pod's), or why there
/// is no such match.
pub fn seated_at(state: &Tournament, bound: &MatchBinding) -> Result<Vec<String>, TournamentError> {
    let missing = |what: String| TournamentError::Input(what);
    let round = state
        .rounds
        .iter()
        .find(|r| r.round == bound.round)
        .ok_or_else(|| missing(format!("tournament {} has no round {}", bound.tournament, bound.round)))?;
    let name = |i: usize| state.players.get(i).map(|p| p.name.clone()).unwrap_or_default();
    match bound.place {
        MatchPlace::Table(n) => {
            let t = round
                .table_at(n)
                .map(|i| &round.tables[i])
                .ok_or_else(|| missing(format!("round {} of {} has no table {n}", bound.round, bound.tournament)))?;
            Ok(vec![name(t.a), name(t.b)])
        }
        MatchPlace::Pod(n) => {
            let p = round
                .pods
                .iter()
                .find(|p| p.pod == n)
                .ok_or_else(|| missing(format!("round {} of {} has no pod {n}", bound.round, bound.tournament)))?;
            Ok(p.seats.iter().map(|&i| name(i)).collect())
        }
    }
}

/// The games created bound to a table of `round` of `tournament`, as (table, game id), by table:
/// read from the hashed headers of the store's games (a game is its match's from creation, before
/// any result links it), so the scan is the store's whole list, as the penalty history's is.
pub fn games_at_tables(
    store: &dyn Store,
    tournament: &StreamId,
    round: u32,
) -> Result<Vec<(u32, String)>, TournamentError> {
    let mut out = Vec::new();
    for s in store.streams()? {
        if s.header.v1().kind != StreamKind::Game {
            continue;
        }
        if let Some(b) = s.header.bound().filter(|b| &b.tournament == tournament && b.round == round) {
            if let MatchPlace::Table(n) = b.place {
                out.push((n, s.header.stream().to_string()));
            }
        }
    }
    out.sort();
    Ok(out)
}
