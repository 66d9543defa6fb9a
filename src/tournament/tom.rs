//! Pokémon TOM (Tournament Operations Manager) XML: import into tournament events and export.
//!
//! Read: `<players><player userid>` (first and last name; `<dropped><round>N` = dropped after
//! round N), `<pods><pod category><rounds><round number type><matches><match outcome>` with
//! outcome 1 = player1 won, 2 = player2 won, 3 = tie, 5 = bye (a single `<player>`), 0 = not
//! played yet; and `<standings><pod category type="finished"><player id place>`: TOM's final
//! places per age division. Divisions paired together share one Swiss; each division's places
//! are its players in the overall order. Only Swiss rounds (type 2) are imported.

use std::collections::{BTreeMap, HashMap, HashSet};

use serde::Deserialize;

use super::events::{ConfigV1, MatchScore, PairedTable, RoundsPlan, TournamentEvent};
use super::policy::Policy;
use super::state::Tournament;
use super::TournamentError;

#[derive(Debug, Deserialize)]
struct Tom {
    data: Option<Data>,
    players: Players,
    pods: Pods,
    standings: Option<Standings>,
}

#[derive(Debug, Deserialize)]
struct Data {
    name: Option<String>,
}

#[derive(Debug, Deserialize)]
struct Players {
    #[serde(default)]
    player: Vec<TomPlayer>,
}

#[derive(Debug, Deserialize)]
struct TomPlayer {
    #[serde(rename = "@userid")]
    userid: String,
    firstname: Option<String>,
    lastname: Option<String>,
    dropped: Option<Dropped>,
}

#[derive(Debug, Deserialize)]
struct Dropped {
    round: Option<u32>,
}

#[derive(Debug, Deserialize)]
struct Pods {
    #[serde(default)]
    pod: Vec<Pod>,
}

#[derive(Debug, Deserialize)]
struct Pod {
    rounds: Option<Rounds>,
}

#[derive(Debug, Deserialize)]
struct Rounds {
    #[serde(default)]
    round: Vec<TomRound>,
}

#[derive(Debug, Deserialize)]
struct TomRound {
    #[serde(rename = "@number")]
    number: u32,
    #[serde(rename = "@type")]
    kind: Option<String>,
    matches: Option<Matches>,
}

#[derive(Debug, Deserialize)]
struct Matches {
    #[serde(default, rename = "match")]
    matches: Vec<TomMatch>,
}

#[derive(Debug, Deserialize)]
struct TomMatch {
    #[serde(rename = "@outcome")]
    outcome: u32,
    player1: Option<Ref>,
    player2: Option<Ref>,
    player: Option<Ref>,
    tablenumber: Option<u32>,
}

#[derive(Debug, Deserialize)]
struct Ref {
    #[serde(rename = "@userid")]
    userid: String,
}

#[derive(Debug, Deserialize)]
struct Standings {
    #[serde(default)]
    pod: Vec<StandingPod>,
}

#[derive(Debug, Deserialize)]
struct StandingPod {
    #[serde(rename = "@category")]
    category: String,
    #[serde(rename = "@type")]
    kind: String,
    #[serde(default)]
    player: Vec<Place>,
}

#[derive(Debug, Deserialize)]
struct Place {
    #[serde(rename = "@id")]
    id: String,
    #[serde(rename = "@place")]
    place: u32,
}

/// What a TOM import produces.
pub struct Imported {
    pub config: ConfigV1,
    pub events: Vec<TournamentEvent>,
    /// TOM's final places: for each division (category), player names in place order.
    pub published: BTreeMap<String, Vec<String>>,
}

const MAX_PLAYERS: usize = 20_000;
const MAX_ROUNDS: u32 = 64;

fn bad(m: String) -> TournamentError {
    TournamentError::Input(format!("TOM file: {m}"))
}

/// The players' names by TOM id, in the file's order, and the round each dropped after.
struct Roster {
    name_of: HashMap<String, String>,
    order: Vec<String>,
    dropped_after: HashMap<String, u32>,
}

impl Roster {
    fn who(&self, id: &str) -> Result<String, TournamentError> {
        self.name_of.get(id).cloned().ok_or_else(|| bad(format!("a match names unknown player id {id}")))
    }
}

/// Names: "First Last", made unique (case-insensitively) with the player id if needed.
fn roster(tom: &Tom) -> Result<Roster, TournamentError> {
    let mut r = Roster { name_of: HashMap::new(), order: Vec::new(), dropped_after: HashMap::new() };
    let mut taken: HashSet<String> = HashSet::new();
    for p in &tom.players.player {
        let full =
            format!("{} {}", p.firstname.as_deref().unwrap_or("").trim(), p.lastname.as_deref().unwrap_or("").trim());
        let mut name = full.trim().to_string();
        if name.is_empty() || name == "-" {
            name = format!("player {}", p.userid);
        }
        if !taken.insert(name.to_lowercase()) {
            name = format!("{name} ({})", p.userid);
            taken.insert(name.to_lowercase());
        }
        if r.name_of.insert(p.userid.clone(), name.clone()).is_some() {
            return Err(bad(format!("player id {} is listed twice", p.userid)));
        }
        r.order.push(p.userid.clone());
        if let Some(d) = p.dropped.as_ref().and_then(|d| d.round) {
            r.dropped_after.insert(p.userid.clone(), d);
        }
    }
    Ok(r)
}

/// The Swiss rounds' matches by round number (TOM's round type 2), numbered 1, 2, 3...
fn swiss_rounds(tom: &Tom) -> Result<BTreeMap<u32, Vec<&TomMatch>>, TournamentError> {
    let mut rounds: BTreeMap<u32, Vec<&TomMatch>> = BTreeMap::new();
    for pod in &tom.pods.pod {
        for r in pod.rounds.iter().flat_map(|rs| &rs.round) {
            if r.kind.as_deref().is_some_and(|k| k != "2") {
                continue;
            }
            if r.number == 0 || r.number > MAX_ROUNDS {
                return Err(bad(format!("round number {} is out of range", r.number)));
            }
            rounds.entry(r.number).or_default().extend(r.matches.iter().flat_map(|m| &m.matches));
        }
    }
    if rounds.keys().copied().ne(1..=rounds.len() as u32) {
        return Err(bad("the Swiss rounds are not numbered 1, 2, 3, ...".into()));
    }
    Ok(rounds)
}

pub fn parse(xml: &str, policy: Policy) -> Result<Imported, TournamentError> {
    let tom: Tom = quick_xml::de::from_str(xml).map_err(|e| bad(format!("not a TOM tournament export: {e}")))?;
    if tom.players.player.len() > MAX_PLAYERS {
        return Err(bad(format!("more than {MAX_PLAYERS} players")));
    }
    let mut roster = roster(&tom)?;
    // The event's players: those paired in a round or placed in the standings (TOM's player list
    // also holds people who registered and never took part).
    let placed: HashSet<&str> =
        tom.standings.iter().flat_map(|s| &s.pod).flat_map(|p| &p.player).map(|p| p.id.as_str()).collect();
    let rounds = swiss_rounds(&tom)?;
    // A player's first round is the first they were paired in (later ones entered late).
    let mut first: HashMap<String, u32> = HashMap::new();
    for (&n, ms) in &rounds {
        for m in ms {
            for r in [&m.player1, &m.player2, &m.player].into_iter().flatten() {
                first.entry(r.userid.clone()).or_insert(n);
            }
        }
    }
    let config = ConfigV1 {
        name: tom
            .data
            .as_ref()
            .and_then(|d| d.name.as_deref())
            .map(|n| n.trim().to_string())
            .unwrap_or_else(|| "TOM import".into()),
        game: "pokemon-tcg".into(),
        policy,
        rounds: RoundsPlan::Fixed(rounds.len() as u32),
        top_cut: 0,
        seed_commitment: None,
    };
    roster.order.retain(|id| first.contains_key(id) || placed.contains(id.as_str()));
    let mut events: Vec<TournamentEvent> = roster
        .order
        .iter()
        .filter(|id| first.get(*id).is_none_or(|&f| f <= 1))
        .map(|id| TournamentEvent::PlayerRegistered { player: roster.name_of[id].clone(), deck: None })
        .collect();
    for (&n, ms) in &rounds {
        for id in roster.order.iter().filter(|id| first.get(*id) == Some(&n) && n > 1) {
            events.push(TournamentEvent::LateEntered {
                player: roster.name_of[id].clone(),
                deck: None,
                first_round: n,
            });
        }
        round_events(&roster, n, ms, &mut events)?;
        for id in roster.order.iter().filter(|id| roster.dropped_after.get(*id) == Some(&n)) {
            let player = roster.name_of[id].clone();
            events.push(TournamentEvent::PlayerDropped { player, after_round: n, reason: "dropped (TOM)".into() });
        }
    }
    let published = published(&tom, &roster)?;
    super::events::check_imported_text("TOM", &config, &events)?;
    Ok(Imported { config, events, published })
}

/// Round `n`'s pairing (tables in TOM's table order, renumbered 1, 2, 3...) and its results.
fn round_events(
    roster: &Roster,
    n: u32,
    ms: &[&TomMatch],
    events: &mut Vec<TournamentEvent>,
) -> Result<(), TournamentError> {
    let win = MatchScore { a_wins: 1, b_wins: 0, draws: 0 };
    let mut tables: Vec<(u32, PairedTable, Option<MatchScore>)> = Vec::new();
    let mut byes = Vec::new();
    for m in ms {
        match (m.outcome, &m.player1, &m.player2, &m.player) {
            (5, _, _, Some(p)) | (5, Some(p), None, None) => byes.push(roster.who(&p.userid)?),
            (o @ (0..=3), Some(a), Some(b), _) => {
                let score = match o {
                    1 => Some(win),
                    2 => Some(win.swapped()),
                    3 => Some(MatchScore { a_wins: 0, b_wins: 0, draws: 1 }),
                    _ => None,
                };
                let t = PairedTable { table: 0, a: roster.who(&a.userid)?, b: roster.who(&b.userid)? };
                tables.push((m.tablenumber.unwrap_or(u32::MAX), t, score));
            }
            (o, ..) => return Err(bad(format!("round {n}: outcome {o} is not one kifu reads (1, 2, 3, 5, 0)"))),
        }
    }
    tables.sort_by_key(|t| t.0);
    let tables: Vec<(PairedTable, Option<MatchScore>)> =
        tables.into_iter().enumerate().map(|(i, (_, t, s))| (PairedTable { table: i as u32 + 1, ..t }, s)).collect();
    let paired = tables.iter().map(|t| t.0.clone()).collect();
    events.push(TournamentEvent::RoundPaired { round: n, tables: paired, byes, round_seed: None });
    for (t, s) in &tables {
        if let Some(score) = s {
            events.push(TournamentEvent::ResultReported { round: n, table: t.table, score: *score, games: vec![] });
        }
    }
    Ok(())
}

/// TOM's final places: for each finished division, the player names in place order.
fn published(tom: &Tom, roster: &Roster) -> Result<BTreeMap<String, Vec<String>>, TournamentError> {
    let mut published = BTreeMap::new();
    for pod in tom.standings.iter().flat_map(|s| &s.pod) {
        if pod.kind != "finished" {
            continue;
        }
        let mut places: Vec<&Place> = pod.player.iter().collect();
        places.sort_by_key(|p| p.place);
        let names = places.iter().map(|p| roster.who(&p.id)).collect::<Result<Vec<_>, _>>()?;
        published.insert(pod.category.clone(), names);
    }
    Ok(published)
}

fn esc(s: &str) -> String {
    quick_xml::escape::escape(s).into_owned()
}

/// Writes a tournament as a TOM export: one pod (category 2, Masters) with its Swiss rounds,
/// drops, and final places from kifu's placings. Player ids are the players' registration order.
/// TOM's matches are two-player (player1, player2, outcome 1/2/3/5; its "pods" are age
/// divisions, not game pods), so a pod tournament of a multiplayer game is refused.
pub fn export(t: &Tournament, name: &str) -> Result<String, TournamentError> {
    if t.pod_format.is_some() {
        return Err(TournamentError::Input(
            "TOM cannot hold a pod tournament: its matches are two-player (player1 against player2); \
             export pods with --to kifu, --to json, or --csv standings|pairings"
                .into(),
        ));
    }
    let id = |p: usize| (p + 1).to_string();
    let mut x = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    x.push_str("<tournament type=\"2\" stage=\"5\" version=\"1.84\" gametype=\"TRADING_CARD_GAME\" mode=\"LEAGUECHALLENGE\">\n");
    x.push_str(&format!("\t<data>\n\t\t<name>{}</name>\n\t</data>\n\t<players>\n", esc(name)));
    for (i, p) in t.players.iter().enumerate() {
        let (first, last) = p.name.split_once(' ').unwrap_or((&p.name, ""));
        x.push_str(&format!(
            "\t\t<player userid=\"{}\">\n\t\t\t<firstname>{}</firstname>\n\t\t\t<lastname>{}</lastname>\n",
            id(i),
            esc(first),
            esc(last)
        ));
        if let Some(r) = p.dropped_after {
            x.push_str(&format!(
                "\t\t\t<dropped>\n\t\t\t\t<status>1</status>\n\t\t\t\t<round>{r}</round>\n\t\t\t</dropped>\n"
            ));
        }
        x.push_str("\t\t</player>\n");
    }
    x.push_str("\t</players>\n\t<pods>\n\t\t<pod category=\"2\" stage=\"2\">\n\t\t\t<rounds>\n");
    for r in t.swiss() {
        x.push_str(&format!("\t\t\t\t<round number=\"{}\" type=\"2\" stage=\"6\">\n\t\t\t\t\t<matches>\n", r.round));
        for tb in &r.tables {
            let outcome = match tb.result {
                None => 0,
                Some(s) if s.a_wins > s.b_wins => 1,
                Some(s) if s.b_wins > s.a_wins => 2,
                Some(_) => 3,
            };
            x.push_str(&format!(
                "\t\t\t\t\t\t<match outcome=\"{outcome}\">\n\t\t\t\t\t\t\t<player1 userid=\"{}\"/>\n\t\t\t\t\t\t\t<player2 userid=\"{}\"/>\n\t\t\t\t\t\t\t<tablenumber>{}</tablenumber>\n\t\t\t\t\t\t</match>\n",
                id(tb.a),
                id(tb.b),
                tb.table
            ));
        }
        for &b in &r.byes {
            x.push_str(&format!(
                "\t\t\t\t\t\t<match outcome=\"5\">\n\t\t\t\t\t\t\t<player userid=\"{}\"/>\n\t\t\t\t\t\t</match>\n",
                id(b)
            ));
        }
        x.push_str("\t\t\t\t\t</matches>\n\t\t\t\t</round>\n");
    }
    x.push_str("\t\t\t</rounds>\n\t\t</pod>\n\t</pods>\n\t<standings>\n\t\t<pod category=\"2\" type=\"finished\">\n");
    for p in t.placings() {
        if let Some(i) = t.player(&p.player) {
            x.push_str(&format!("\t\t\t<player id=\"{}\" place=\"{}\" />\n", id(i), p.place));
        }
    }
    x.push_str("\t\t</pod>\n\t</standings>\n</tournament>\n");
    Ok(x)
}
