//! Import of MTGODecklistCache JSON exports of Melee events into tournament events.
//!
//! Traps of the format: players are keyed by display name; `Player1` is always the winner;
//! a drawn match can be listed twice (deduplicated per round); byes are `Player2: "-"`; only
//! rounds named `Round N` are Swiss rounds (top-8 rounds are left out); a player who appears in
//! no later round dropped after the last round they played.

use std::collections::{BTreeMap, HashSet};

use serde::Deserialize;

use super::events::{ConfigV1, MatchScore, PairedTable, RoundsPlan, TournamentEvent};
use super::policy::Policy;
use super::TournamentError;

#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
struct File {
    tournament: Option<Info>,
    rounds: Option<Vec<Round>>,
    standings: Option<Vec<Standing>>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
struct Info {
    name: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
struct Round {
    round_name: String,
    matches: Vec<Match>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
struct Match {
    player1: String,
    player2: String,
    result: String,
}

/// A published standings row, as the export gives it (fields it lacks read as 0).
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(rename_all = "PascalCase", default)]
pub struct Standing {
    pub rank: u32,
    pub player: String,
    pub points: u32,
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
    #[serde(rename = "OMWP")]
    pub omwp: f64,
    #[serde(rename = "GWP")]
    pub gwp: f64,
    #[serde(rename = "OGWP")]
    pub ogwp: f64,
}

/// What an import produces: the configuration, the events after `Created`, the published standings.
pub struct Imported {
    pub config: ConfigV1,
    pub events: Vec<TournamentEvent>,
    pub published: Vec<Standing>,
    /// Duplicate listings dropped (drawn matches listed twice, repeated players).
    pub duplicates: usize,
}

fn is_bye(name: &str) -> bool {
    name.trim() == "-" || name.trim().is_empty()
}

/// Registration order: the published standings, then anyone else in the rounds; and the last
/// round (index) each player played.
fn registration_order(published: &[Standing], rounds: &[(u32, Vec<Match>)]) -> (Vec<String>, BTreeMap<String, usize>) {
    let mut players: Vec<String> = Vec::new();
    let mut known: HashSet<String> = HashSet::new();
    let mut last_round: BTreeMap<String, usize> = BTreeMap::new();
    for s in published {
        if known.insert(s.player.clone()) {
            players.push(s.player.clone());
        }
    }
    for (i, (_, ms)) in rounds.iter().enumerate() {
        for p in ms.iter().flat_map(|m| [&m.player1, &m.player2]).filter(|p| !is_bye(p)) {
            if known.insert(p.clone()) {
                players.push(p.clone());
            }
            last_round.insert(p.clone(), i);
        }
    }
    (players, last_round)
}

/// Round `number`'s pairing and results; returns how many duplicate listings it dropped (a drawn
/// match listed twice, a player listed in two matches).
fn round_events(number: u32, ms: &[Match], events: &mut Vec<TournamentEvent>) -> Result<usize, TournamentError> {
    let mut duplicates = 0;
    let mut seen: HashSet<String> = HashSet::new();
    let mut tables = Vec::new();
    let mut scores = Vec::new();
    let mut byes = Vec::new();
    for m in ms {
        let (a, b) = (m.player1.trim().to_string(), m.player2.trim().to_string());
        let score: MatchScore =
            m.result.parse().map_err(|e| TournamentError::Input(format!("round {number}: {a} vs {b}: {e}")))?;
        if seen.contains(&a) || (!is_bye(&b) && seen.contains(&b)) {
            duplicates += 1;
            continue;
        }
        seen.insert(a.clone());
        if is_bye(&b) {
            byes.push(a);
            continue;
        }
        seen.insert(b.clone());
        tables.push(PairedTable { table: tables.len() as u32 + 1, a, b });
        scores.push(score);
    }
    events.push(TournamentEvent::RoundPaired { round: number, tables: tables.clone(), byes, round_seed: None });
    for (t, s) in tables.iter().zip(scores) {
        events.push(TournamentEvent::ResultReported { round: number, table: t.table, score: s, games: vec![] });
    }
    Ok(duplicates)
}

pub fn parse(text: &str, policy: Policy) -> Result<Imported, TournamentError> {
    let file: File = serde_json::from_str(text)
        .map_err(|e| TournamentError::Input(format!("not an MTGODecklistCache JSON file: {e}")))?;
    let mut rounds: Vec<(u32, Vec<Match>)> = file
        .rounds
        .unwrap_or_default()
        .into_iter()
        .filter_map(|r| {
            let n = r.round_name.strip_prefix("Round ")?.trim().parse::<u32>().ok()?;
            Some((n, r.matches))
        })
        .collect();
    rounds.sort_by_key(|r| r.0);
    if rounds.is_empty() {
        return Err(TournamentError::Input("the file has no Swiss rounds (\"Round N\")".into()));
    }
    let published = file.standings.unwrap_or_default();
    let (players, last_round) = registration_order(&published, &rounds);
    let config = ConfigV1 {
        name: file.tournament.and_then(|t| t.name).unwrap_or_else(|| "Melee import".into()),
        game: "mtg".into(),
        policy,
        rounds: RoundsPlan::Fixed(rounds.len() as u32),
        top_cut: 0,
        seed_commitment: None,
    };
    let mut events: Vec<TournamentEvent> =
        players.iter().map(|p| TournamentEvent::PlayerRegistered { player: p.clone(), deck: None }).collect();
    let mut duplicates = 0;
    let mut dropped: HashSet<String> = HashSet::new();
    for (i, (_, ms)) in rounds.iter().enumerate() {
        let number = i as u32 + 1;
        if i > 0 {
            for p in &players {
                let gone = last_round.get(p).is_none_or(|&l| l < i);
                if gone && dropped.insert(p.clone()) {
                    events.push(TournamentEvent::PlayerDropped {
                        player: p.clone(),
                        after_round: i as u32,
                        reason: "absent from the later rounds of the export".into(),
                    });
                }
            }
        }
        duplicates += round_events(number, ms, &mut events)?;
    }
    super::events::check_imported_text("Melee", &config, &events)?;
    Ok(Imported { config, events, published, duplicates })
}
