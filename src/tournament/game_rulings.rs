//! The warnings and game losses judges gave inside a tournament's games (`Ruled` entries of the
//! game logs), for the players' penalty histories: the games are those the tournament's results
//! link and those whose hashed header binds them to one of its matches (still being played).
//! Read through the store, so this is beside [`super::record`], not in the pure core.

use serde::{Deserialize, Serialize};

use super::state::Tournament;
use super::TournamentError;
use crate::game::{ruling_in, Ruling};
use crate::log::chain;
use crate::log::envelope::{MatchPlace, StreamId, StreamKind};
use crate::store::Store;

/// A ruling given in a game of the event against a player.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameRuling {
    pub game: String,
    /// The ruling's event number in the game.
    pub seq: u64,
    pub round: Option<u32>,
    pub table: Option<u32>,
    pub player: String,
    /// `warning` or `game-loss`.
    pub kind: String,
    pub judge: String,
    pub rule: Option<String>,
    pub note: String,
}

/// Every warning and game loss given in the tournament's games, in game and event order.
pub fn game_rulings(
    store: &dyn Store,
    tournament: &StreamId,
    state: &Tournament,
) -> Result<Vec<GameRuling>, TournamentError> {
    // (game id, round, table) of every linked game, then every game bound to a match here.
    let mut games: Vec<(String, Option<u32>, Option<u32>)> = Vec::new();
    for r in &state.rounds {
        for t in &r.tables {
            games.extend(t.games.iter().map(|g| (g.stream.clone(), Some(r.round), Some(t.table))));
        }
        for p in &r.pods {
            games.extend(p.games.iter().map(|g| (g.stream.clone(), Some(r.round), Some(p.pod))));
        }
    }
    for s in store.streams()? {
        let h = s.header.v1();
        if h.kind != StreamKind::Game {
            continue;
        }
        if let Some(b) = s.header.bound().filter(|b| &b.tournament == tournament) {
            let place = match b.place {
                MatchPlace::Table(n) | MatchPlace::Pod(n) => n,
            };
            games.push((h.stream.to_string(), Some(b.round), Some(place)));
        }
    }
    games.sort();
    games.dedup_by(|a, b| a.0 == b.0);
    let mut out = Vec::new();
    for (game, round, table) in games {
        let Ok(id) = StreamId::new(&game) else { continue };
        // A linked game that is gone is verify's to report, not the history's.
        let Ok(log) = store.export(&id) else { continue };
        let players = log.header.v1().players.clone();
        for (seq, bytes) in log.events.iter().enumerate() {
            let Ok((env, _)) = chain::open_verified(bytes) else { continue };
            let Some(ruling) = ruling_in(&env.v1().payload) else { continue };
            let (kind, judge, seat, rule, note) = match ruling {
                Ruling::WarningIssued { judge, seat, rule, note, .. } => ("warning", judge, seat, rule, note),
                Ruling::GameLossIssued { judge, seat, rule, note, .. } => ("game-loss", judge, seat, rule, note),
                _ => continue,
            };
            let player = players.get(usize::from(seat)).cloned().unwrap_or_else(|| format!("seat {seat}"));
            out.push(GameRuling {
                game: game.clone(),
                seq: seq as u64,
                round,
                table,
                player,
                kind: kind.to_string(),
                judge,
                rule,
                note,
            });
        }
    }
    Ok(out)
}
