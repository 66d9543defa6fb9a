//! Which games a result may link: the one check that decides whether a game becomes part of a
//! tournament (and so whether the tournament's judges and players get access to it).
//!
//! A game belongs to a tournament only through a result recorded in the tournament's log that
//! links it. So every link is checked before it is recorded: a game this tournament may claim is
//! a game stream of the tournament's ruleset whose players are exactly the match's two players
//! (or, in a pod tournament, exactly the pod's players), and that no other match or pod of this
//! tournament and no other tournament in the store links.

use std::collections::HashSet;

use crate::log::envelope::{StreamId, StreamKind};
use crate::store::{Store, StoreError};

use super::events::GameLink;
use super::record::{self, Loaded};
use super::TournamentError;

/// Checks that the result of `round`, `table` of `tournament` may link `games`, and returns the
/// links with each game's current head. Refuses (writing nothing) a game that does not exist, is
/// not a game of the tournament's ruleset, is not played by exactly the match's players, is
/// named twice, or is linked by another match of this tournament or by another tournament.
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
    let state = &tournament.state;
    let tid = tournament.header.stream().as_str().to_string();
    let refuse = |game: &str, why: String| TournamentError::Input(format!("cannot link game {game:?}: {why}"));
    match_players.sort();
    let whose = match slot {
        Slot::Table(..) => "this match's two players".to_string(),
        Slot::Pod(_, pod) => format!("pod {pod}'s players ({})", match_players.join(", ")),
    };
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
        let mut players = h.players.clone();
        players.sort();
        if players[..] != match_players[..] {
            return Err(refuse(g, format!("its players ({}) are not {whose}", h.players.join(", "))));
        }
        for r in &state.rounds {
            for t in &r.tables {
                if Slot::Table(r.round, t.table) != slot && t.games.iter().any(|l| l.stream == *g) {
                    return Err(refuse(g, format!("round {} table {} already links it", r.round, t.table)));
                }
            }
            for p in &r.pods {
                if Slot::Pod(r.round, p.pod) != slot && p.games.iter().any(|l| l.stream == *g) {
                    return Err(refuse(g, format!("round {} pod {} already links it", r.round, p.pod)));
                }
            }
        }
        if let Some(other) = linked_elsewhere(store, &tid, g)? {
            return Err(refuse(g, format!("tournament {other} already links it")));
        }
        out.push(GameLink { stream: g.clone(), head: store.head(&sid)?.hash });
    }
    Ok(out)
}

/// Another tournament in the store that links `game`, if any. A tournament that no longer
/// loads claims nothing. Costs a load of every other tournament: results are rare writes.
fn linked_elsewhere(store: &dyn Store, tournament: &str, game: &str) -> Result<Option<String>, TournamentError> {
    for s in store.streams()? {
        let h = s.header.v1();
        if h.kind != StreamKind::Tournament || s.header.stream().as_str() == tournament {
            continue;
        }
        let Ok(other) = record::load(store, s.header.stream()) else { continue };
        let rounds = &other.state.rounds;
        let tables = rounds.iter().flat_map(|r| &r.tables).flat_map(|t| &t.games);
        let pods = rounds.iter().flat_map(|r| &r.pods).flat_map(|p| &p.games);
        if tables.chain(pods).any(|l| l.stream == game) {
            return Ok(Some(s.header.stream().to_string()));
        }
    }
    Ok(None)
}
