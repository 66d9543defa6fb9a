//! The standings JSON of a tournament (rows with every tiebreaker, and the policy's columns),
//! computed once per head: the state caches it with the open tournament, and
//! `GET /tournaments/{id}/standings` serves the cached bytes.

use serde_json::{json, Value};

use crate::tournament::policy::Tiebreaker;
use crate::tournament::record::Loaded;

/// The standings response: rows with every tiebreaker, and the policy's tiebreaker columns.
pub fn standings_body(loaded: &Loaded) -> Value {
    let rules = loaded.config.policy.rules();
    let columns: Vec<Value> = rules
        .tiebreakers
        .iter()
        .filter(|tb| **tb != Tiebreaker::HeadToHead)
        .map(|tb| {
            let (key, label) = match tb {
                Tiebreaker::OpponentMatchWin => ("omw", if rules.pokemon_pct { "Op Win%" } else { tb.label() }),
                Tiebreaker::GameWin => ("gw", tb.label()),
                Tiebreaker::OpponentGameWin => ("ogw", tb.label()),
                Tiebreaker::OpponentOpponentMatchWin => {
                    ("oomw", if rules.pokemon_pct { "Op Op Win%" } else { tb.label() })
                }
                Tiebreaker::LatePenalty => ("late", tb.label()),
                Tiebreaker::HeadToHead => ("h2h", tb.label()),
            };
            json!({"key": key, "label": label})
        })
        .collect();
    if loaded.state.pod_format.is_some() {
        // A pod tournament ranks by pod points, then opponents' average points (see tournament::pods).
        let rows: Vec<Value> = loaded
            .state
            .pod_standings()
            .into_iter()
            .map(|r| {
                json!({"rank": r.rank, "tied": false, "player": r.player, "points": r.points, "games": r.games,
                       "opponents_average": r.opponents_average, "dropped": r.dropped})
            })
            .collect();
        return json!({
            "name": crate::log::limits::shown(&loaded.config.name),
            "policy": rules.name,
            "format": "pods",
            "swiss_played": loaded.state.rounds.len(),
            "columns": [{"key": "opponents_average", "label": "Pod-mates' avg points"}],
            "rows": rows,
        });
    }
    json!({
        "name": crate::log::limits::shown(&loaded.config.name),
        "policy": rules.name,
        "format": "swiss",
        "swiss_played": loaded.state.swiss_played(),
        "columns": columns,
        "rows": loaded.state.standings(),
    })
}
