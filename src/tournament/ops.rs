//! Organizer operations shared by the CLI and the server: creating an event with its secret
//! seed, pairing the next Swiss round (committing a fresh seed for an imported event) and
//! finalizing. The organizer's secret seeds live in `DIR/tournament-seeds/ID.seed` (0600 in a
//! 0700 directory) until finalization reveals them; they are never written to the log. This is
//! the one module of `tournament` that touches files (the seed files both edges need, and the
//! sealed texts kept privately: deck lists, deck checks' differences, investigations'
//! statements); fresh randomness still comes from the caller.

use std::path::{Path, PathBuf};

use super::claim;
use super::events::{round_seed, ConfigV1, PairedTable, TournamentEvent};
use super::record::{self, Loaded};
use super::standings::StandingRow;
use super::TournamentError;
use crate::game::commit::{commit_seed, Commitment, Secret};
use crate::log::chain::Head;
use crate::log::envelope::{Actor, StreamId, Timestamp};
use crate::store::Store;

/// Where the secret pairing seed of tournament `id` is kept under the data directory.
pub fn seed_path(data_dir: &Path, id: &StreamId) -> PathBuf {
    data_dir.join("tournament-seeds").join(format!("{id}.seed"))
}

fn io(what: &'static str, p: &Path, e: std::io::Error) -> TournamentError {
    TournamentError::Io { what, path: p.to_path_buf(), source: e }
}

/// Writes a seed file, owner-only from its first byte (the seed predicts every pairing until it
/// is revealed), atomically, in an owner-only directory.
pub fn save_seed(data_dir: &Path, id: &StreamId, seed: &Secret) -> Result<(), TournamentError> {
    let p = seed_path(data_dir, id);
    if let Some(d) = p.parent() {
        crate::store::private_dir(d).map_err(|e| io("create", d, e))?;
    }
    crate::store::write_private_atomic(&p, format!("{seed}\n").as_bytes()).map_err(|e| io("write", &p, e))
}

/// Parses 64 hex digits.
pub fn parse_seed(s: &str) -> Result<Secret, TournamentError> {
    let mut out = [0u8; 32];
    hex::decode_to_slice(s.trim(), &mut out)
        .map_err(|e| TournamentError::Input(format!("a seed is 64 hex digits: {e}")))?;
    Ok(Commitment(out))
}

pub fn load_seed(data_dir: &Path, id: &StreamId) -> Result<Secret, TournamentError> {
    let p = seed_path(data_dir, id);
    let text = match std::fs::read_to_string(&p) {
        Ok(text) => text,
        // Not a fault of kifu's: another organizer (or server) created the event and holds it.
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(TournamentError::Input(format!(
                "the pairing seed of {id} is not in {} (only the organizer who created it holds it)",
                p.display()
            )))
        }
        Err(e) => return Err(io("read", &p, e)),
    };
    parse_seed(&text)
}

/// Creates a tournament that commits to `seed` and records its match format; the seed is saved
/// only once the stream exists.
#[allow(clippy::too_many_arguments)]
pub fn create(
    store: &dyn Store,
    data_dir: &Path,
    id: &StreamId,
    config: &ConfigV1,
    seed: &Secret,
    best_of: u32,
    actor: Actor,
    now: Timestamp,
) -> Result<Head, TournamentError> {
    create_with(store, data_dir, id, config, seed, vec![TournamentEvent::MatchFormatSet { best_of }], actor, now)
}

/// Creates a tournament that commits to `seed` with `first` recorded with `Created` in one append
/// (its format and the setup the organizer's page gives: lists required, time zone, judges);
/// the seed is saved only once the stream exists.
#[allow(clippy::too_many_arguments)]
pub fn create_with(
    store: &dyn Store,
    data_dir: &Path,
    id: &StreamId,
    config: &ConfigV1,
    seed: &Secret,
    first: Vec<TournamentEvent>,
    actor: Actor,
    now: Timestamp,
) -> Result<Head, TournamentError> {
    let head = record::create(store, id, config, actor, now, first)?;
    save_seed(data_dir, id, seed)?;
    Ok(head)
}

/// A round just paired, with the standings before it (the points posted with the pairings).
pub struct Paired {
    pub round: u32,
    pub tables: Vec<PairedTable>,
    pub byes: Vec<String>,
    pub before: Vec<StandingRow>,
    pub head: Head,
}

/// Pairs the next Swiss round of a loaded tournament: opens nothing again, computes the
/// standings once, derives the round once and appends at the loaded version.
pub fn pair_next(
    store: &dyn Store,
    data_dir: &Path,
    id: &StreamId,
    loaded: Loaded,
    actor: Actor,
    rounds: Option<u32>,
    fresh_seed: Secret,
) -> Result<Paired, TournamentError> {
    pair_next_at(store, data_dir, id, loaded.state, loaded.head, actor, rounds, fresh_seed)
}

/// As [`pair_next`], from the state folded up to `at` (see [`record::load_state`]). The store's
/// snapshot is not re-kept here (encoding it costs a sixth of a cold `pair` at 10,000 players):
/// the next command folds the new round onto it, and the next `record` keeps it.
#[allow(clippy::too_many_arguments)]
pub fn pair_next_at(
    store: &dyn Store,
    data_dir: &Path,
    id: &StreamId,
    mut state: super::state::Tournament,
    at: Head,
    actor: Actor,
    rounds: Option<u32>,
    fresh_seed: Secret,
) -> Result<Paired, TournamentError> {
    let round = state.rounds.len() as u32 + 1;
    if let Err(v) = super::rules::enough_players(&state, round) {
        return Err(TournamentError::Refused { event: "round paired".into(), problems: vec![v] });
    }
    let mut events = Vec::new();
    if let Some(n) = rounds {
        events.push(TournamentEvent::SwissRoundsSet { rounds: n });
    }
    // An event imported without a seed commits to a fresh one before kifu pairs its first round.
    let fresh = state.commitment().is_none();
    let seed = if fresh {
        let seed = fresh_seed;
        events.push(TournamentEvent::SeedCommitted { commitment: commit_seed(&seed) });
        seed
    } else {
        load_seed(data_dir, id)?
    };
    record::check_all(&mut state, &events)?;
    let before = state.standings();
    let rs = round_seed(&seed, round);
    let (tables, byes) = state.derive_round_from(&before, round, &rs);
    let paired = TournamentEvent::RoundPaired { round, tables, byes, round_seed: Some(rs) };
    // Derived from this very state just now: every rule but the re-derivation is checked.
    let problems = state.validate_derived(&paired);
    if !problems.is_empty() {
        return Err(TournamentError::Refused { event: record::kind(&paired).into(), problems });
    }
    if fresh {
        save_seed(data_dir, id, &seed)?;
    }
    events.push(paired);
    let head = record::append_at(store, id, at.len, actor, &events)?;
    let Some(TournamentEvent::RoundPaired { tables, byes, .. }) = events.pop() else {
        return Err(TournamentError::Internal("the round was not the last event".into()));
    };
    Ok(Paired { round, tables, byes, before, head })
}

/// Creates a pod tournament: the header, `Created` and its pod format (`PodFormatSet`; no match
/// format: a pod plays one game), and keeps the seed file.
#[allow(clippy::too_many_arguments)]
pub fn create_pods(
    store: &dyn Store,
    data_dir: &Path,
    id: &StreamId,
    config: &ConfigV1,
    seed: &Secret,
    format: TournamentEvent,
    actor: Actor,
    now: Timestamp,
) -> Result<Head, TournamentError> {
    create_with(store, data_dir, id, config, seed, vec![format], actor, now)
}

/// A pod round just paired, with the pod standings before it.
pub struct PodsPaired {
    pub round: u32,
    pub pods: Vec<Vec<String>>,
    pub before: Vec<super::pods::PodStandingRow>,
    pub head: Head,
}

/// Pairs the next round of a pod tournament from its kept seed and appends it at the loaded version.
pub fn pair_next_pods(
    store: &dyn Store,
    data_dir: &Path,
    id: &StreamId,
    loaded: Loaded,
    actor: Actor,
) -> Result<PodsPaired, TournamentError> {
    let state = loaded.state;
    let round = state.rounds.len() as u32 + 1;
    let seed = load_seed(data_dir, id)?;
    let rs = round_seed(&seed, round);
    let pods = state.derive_pods(round, &rs).map_err(TournamentError::Rule)?;
    let paired = TournamentEvent::PodRoundPaired { round, pods: pods.clone(), round_seed: rs };
    let problems = state.validate_derived(&paired);
    if !problems.is_empty() {
        return Err(TournamentError::Refused { event: record::kind(&paired).into(), problems });
    }
    let head = record::append_at(store, id, loaded.head.len, actor, &[paired])?;
    Ok(PodsPaired { round, pods, before: state.pod_standings(), head })
}

/// TOUR-OVER-2 for a pairing override read against the store: a table of the latest round
/// whose players the override changes must have no game started. A game is created bound to its
/// table with that table's players in its hashed header, so moving either player away would leave
/// the game with no match it could ever be linked to (its players never again seated together
/// there). The override is refused with the tables and games named; nothing is written.
pub fn check_override_games(
    store: &dyn Store,
    id: &StreamId,
    state: &super::state::Tournament,
    tables: &[PairedTable],
) -> Result<(), TournamentError> {
    let Some(l) = state.rounds.last() else { return Ok(()) };
    let name = |i: usize| state.players.get(i).map(|p| p.name.clone()).unwrap_or_default();
    let pair = |a: String, b: String| if a <= b { (a, b) } else { (b, a) };
    let changed: Vec<u32> = l
        .tables
        .iter()
        .filter(|old| {
            let now = tables.iter().find(|t| t.table == old.table).map(|t| pair(t.a.clone(), t.b.clone()));
            now != Some(pair(name(old.a), name(old.b)))
        })
        .map(|old| old.table)
        .collect();
    if changed.is_empty() {
        return Ok(());
    }
    let started: Vec<String> = claim::games_at_tables(store, id, l.round)?
        .into_iter()
        .filter(|(table, _)| changed.contains(table))
        .map(|(table, game)| format!("table {table} ({game})"))
        .collect();
    if started.is_empty() {
        return Ok(());
    }
    Err(TournamentError::Rule(crate::game::Violation::new(
        "TOUR-OVER-2",
        format!(
            "round {}: a game has started at {}: its players are fixed in the game's header, so the override \
             would leave it with no match; pairings change only before a changed table's game starts",
            l.round,
            started.join(", ")
        ),
    )))
}

/// Reveals the seed (if committed and not yet revealed) and finalizes. With `early` (a judge and
/// a reason) an unfinished event is finalized early; without it, it is refused.
pub fn finalize(
    store: &dyn Store,
    data_dir: &Path,
    id: &StreamId,
    actor: Actor,
    early: Option<(String, String)>,
) -> Result<(Head, Vec<String>), TournamentError> {
    let loaded = record::load(store, id)?;
    let unfinished = loaded.state.unfinished();
    let mut events = Vec::new();
    if loaded.state.commitment().is_some() && loaded.state.revealed_seed.is_none() {
        events.push(TournamentEvent::SeedRevealed { seed: load_seed(data_dir, id)? });
    }
    let mut actor = actor;
    match early {
        Some((judge, reason)) if !unfinished.is_empty() => {
            actor = Actor::Judge(judge.trim().into());
            events.push(TournamentEvent::FinalizedEarly { judge: judge.trim().into(), reason: reason.trim().into() });
        }
        _ => events.push(TournamentEvent::Finalized),
    }
    let mut state = loaded.state;
    record::check_all(&mut state, &events)?;
    let head = record::append_at(store, id, loaded.head.len, actor, &events)?;
    Ok((head, unfinished))
}

/// Where the deck list a commitment seals is kept for tournament `id`: named by its commitment,
/// so a kept list cannot change without its name (and the log's commitment) disagreeing.
pub fn deck_list_path(data_dir: &Path, id: &StreamId, commitment: &Commitment) -> PathBuf {
    data_dir.join("tournament-decks").join(id.as_str()).join(format!("{}.list", hex::encode(commitment.0)))
}

/// Seals `player`'s deck list `text` under `salt` and keeps it (salt line, then the list) in an
/// owner-only file; returns the commitment the log records.
pub fn save_deck_list(
    data_dir: &Path,
    id: &StreamId,
    player: &str,
    text: &str,
    salt: &Secret,
) -> Result<Commitment, TournamentError> {
    let commitment = crate::game::commit::seal_choice(&super::events::deck_list_key(player), text, salt);
    keep_sealed(&deck_list_path(data_dir, id, &commitment), salt, text)?;
    Ok(commitment)
}

/// Player `player`'s case in tournament `id` exported for conduct reviewers (see
/// [`super::case::CaseBundle`]): the tournament's log, the statements about the player, each
/// with the salt it was sealed with, read from the data directory and checked against the log,
/// and the player's rulings in games with those games' logs.
/// `Input` when a statement's text is not on this machine (the bundle would be incomplete).
pub fn export_case(
    store: &dyn Store,
    data_dir: &Path,
    id: &StreamId,
    player: &str,
) -> Result<super::case::CaseBundle, TournamentError> {
    let log = store.export(id)?;
    let loaded = record::from_log(&log)?;
    let state = &loaded.state;
    let name = super::rules::resolve(state, player)?;
    let mut statements = Vec::new();
    for s in state.statements.iter().filter(|s| s.player == name) {
        let p = statement_path(data_dir, id, s.number);
        let key = super::events::statement_key(s.number);
        let (salt, text) = read_sealed_salted(&p, &key, &s.commitment)?.ok_or_else(|| {
            TournamentError::Input(format!(
                "statement {}'s text is not in {} (only the recorder that took it holds it)",
                s.number,
                p.display()
            ))
        })?;
        statements.push(super::case::RevealedStatement { statement: s.number, salt: salt.to_string(), text });
    }
    // Only the player's rulings, and the logs of the games they were given in, so the reviewers
    // can find each ruling in its game (and are not handed the other players' games).
    let rulings: Vec<_> =
        super::game_rulings::game_rulings(store, id, state)?.into_iter().filter(|r| r.player == name).collect();
    let mut games = Vec::new();
    for r in &rulings {
        if games.iter().any(|(g, _)| g == &r.game) {
            continue;
        }
        let gid = StreamId::new(&r.game).map_err(|e| TournamentError::Input(format!("game {}: {e}", r.game)))?;
        games.push((r.game.clone(), crate::log::file::write(&store.export(&gid)?)));
    }
    let file = crate::log::file::write(&log);
    Ok(super::case::bundle(&file, id.as_str(), &name, statements, rulings, games))
}

/// Keeps a sealed text (a deck list, a deck check's differences, a statement) where `p` says:
/// the salt on the first line, then the text, in an owner-only file in an owner-only folder.
fn keep_sealed(p: &Path, salt: &Secret, text: &str) -> Result<(), TournamentError> {
    if let Some(d) = p.parent() {
        crate::store::private_dir(d).map_err(|e| io("create", d, e))?;
    }
    crate::store::write_private_atomic(p, format!("{salt}\n{text}").as_bytes()).map_err(|e| io("write", p, e))
}

/// The text [`keep_sealed`] kept at `p`, checked against the log's `commitment` under `key`:
/// `None` when this machine does not hold it, `Internal` when it no longer matches.
fn read_sealed(p: &Path, key: &str, commitment: &Commitment) -> Result<Option<String>, TournamentError> {
    Ok(read_sealed_salted(p, key, commitment)?.map(|(_, text)| text))
}

/// As [`read_sealed`], with the salt the text was sealed with (to reveal it to someone else).
fn read_sealed_salted(
    p: &Path,
    key: &str,
    commitment: &Commitment,
) -> Result<Option<(Secret, String)>, TournamentError> {
    let kept = match std::fs::read_to_string(p) {
        Ok(kept) => kept,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io("read", p, e)),
    };
    let (salt, text) = kept.split_once('\n').unwrap_or((kept.as_str(), ""));
    let salt = parse_seed(salt)?;
    if crate::game::commit::seal_choice(key, text, &salt) != *commitment {
        return Err(TournamentError::Internal(format!(
            "{}: the kept text does not match the commitment the log recorded ({key})",
            p.display()
        )));
    }
    Ok(Some((salt, text.to_string())))
}

/// The deck list `player` registered last in `state`, read from its file and checked against
/// the commitment in the log: `Input` when the player registered none or this machine does not
/// hold it, `Internal` when the kept file no longer matches its commitment.
pub fn load_deck_list(
    data_dir: &Path,
    id: &StreamId,
    state: &super::state::Tournament,
    player: &str,
) -> Result<String, TournamentError> {
    let commitment = state
        .player(player)
        .and_then(|i| state.players.get(i))
        .and_then(|p| p.deck_list)
        .ok_or_else(|| TournamentError::Input(format!("{player} has registered no deck list for {id}")))?;
    let p = deck_list_path(data_dir, id, &commitment);
    read_sealed(&p, &super::events::deck_list_key(player), &commitment)?.ok_or_else(|| {
        TournamentError::Input(format!(
            "{player}'s deck list is not in {} (only the organizer who took the registration holds it)",
            p.display()
        ))
    })
}

/// Registers `player`'s deck list for tournament `id` (already checked by the game's deck rules
/// at the edge): kept privately first, then its commitment recorded, so the log never commits
/// to a list nobody holds.
pub fn register_deck(
    store: &dyn Store,
    data_dir: &Path,
    id: &StreamId,
    player: &str,
    text: &str,
    salt: &Secret,
    actor: Actor,
) -> Result<(Head, Commitment), TournamentError> {
    let (mut state, _) = record::load_state(store, id)?;
    let name = super::rules::resolve(&state, player)?;
    // Checked before the list is kept, so a refused registration leaves no file behind.
    let commitment = crate::game::commit::seal_choice(&super::events::deck_list_key(&name), text, salt);
    let event = TournamentEvent::DeckListRegistered { player: name.clone(), commitment };
    record::check_all(&mut state, std::slice::from_ref(&event))?;
    save_deck_list(data_dir, id, &name, text, salt)?;
    let (head, _) = record::record(store, id, actor, vec![event])?;
    Ok((head, commitment))
}

/// Records a judge's change to `player`'s registered list (after the lock): the new list is
/// kept privately first, then `DeckListChanged` records its commitment, the judge and reason.
#[allow(clippy::too_many_arguments)]
pub fn change_deck(
    store: &dyn Store,
    data_dir: &Path,
    id: &StreamId,
    player: &str,
    text: &str,
    salt: &Secret,
    judge: &str,
    reason: &str,
    actor: Actor,
) -> Result<(Head, Commitment), TournamentError> {
    let (mut state, _) = record::load_state(store, id)?;
    let name = super::rules::resolve(&state, player)?;
    let commitment = crate::game::commit::seal_choice(&super::events::deck_list_key(&name), text, salt);
    let event = TournamentEvent::DeckListChanged {
        player: name.clone(),
        commitment,
        judge: judge.trim().to_string(),
        reason: reason.trim().to_string(),
    };
    event.check_text().map_err(|e| TournamentError::Input(e.to_string()))?;
    record::check_all(&mut state, std::slice::from_ref(&event))?;
    save_deck_list(data_dir, id, &name, text, salt)?;
    let (head, _) = record::record(store, id, actor, vec![event])?;
    Ok((head, commitment))
}

/// One card whose count differs between the registered list and the deck presented.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct CardDifference {
    pub card: String,
    pub registered: u32,
    pub presented: u32,
}

/// Card counts of a deck list: each non-empty line is `N card`, `Nx card` or `card` (one);
/// lines starting with `#` or `//` are comments. Names compare ignoring case and spacing.
fn card_counts(text: &str) -> std::collections::BTreeMap<String, (String, u32)> {
    let mut out: std::collections::BTreeMap<String, (String, u32)> = std::collections::BTreeMap::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with("//") {
            continue;
        }
        let (n, card) = match line.split_once(char::is_whitespace) {
            Some((n, rest)) => match n.trim_end_matches(['x', 'X']).parse::<u32>() {
                Ok(n) => (n, rest.trim()),
                Err(_) => (1, line),
            },
            None => (1, line),
        };
        let key = super::state::fold_name(card);
        let e = out.entry(key).or_insert_with(|| (card.to_string(), 0));
        e.1 = e.1.saturating_add(n);
    }
    out
}

/// The cards whose counts differ between `registered` and `presented`, by card name.
pub fn deck_differences(registered: &str, presented: &str) -> Vec<CardDifference> {
    let r = card_counts(registered);
    let p = card_counts(presented);
    let mut keys: Vec<&String> = r.keys().chain(p.keys()).collect();
    keys.sort();
    keys.dedup();
    keys.into_iter()
        .filter_map(|k| {
            let (rn, rc) = r.get(k).map(|(n, c)| (n.as_str(), *c)).unwrap_or(("", 0));
            let (pn, pc) = p.get(k).map(|(n, c)| (n.as_str(), *c)).unwrap_or(("", 0));
            (rc != pc).then(|| CardDifference {
                card: if rn.is_empty() { pn.to_string() } else { rn.to_string() },
                registered: rc,
                presented: pc,
            })
        })
        .collect()
}

/// Where a deck check's private differences are kept (beside the lists).
pub fn deck_check_path(data_dir: &Path, id: &StreamId, check: u32) -> PathBuf {
    data_dir.join("tournament-decks").join(id.as_str()).join(format!("check-{check}.diff"))
}

/// What a recorded deck check gives back: its number, the public result, and the differences
/// (private: for the judges).
#[derive(Clone, Debug)]
pub struct DeckCheckDone {
    pub head: Head,
    pub check: u32,
    pub result: super::events::DeckCheckResult,
    pub differences: Vec<CardDifference>,
}

/// A deck check: compares the deck `presented` with `player`'s registered list (refused, with
/// nothing written, when they registered none), keeps the differences privately, sealed, and
/// records `DeckChecked` with only whether it matched and how many cards differ.
#[allow(clippy::too_many_arguments)]
pub fn deck_check(
    store: &dyn Store,
    data_dir: &Path,
    id: &StreamId,
    player: &str,
    round: u32,
    table: Option<u32>,
    at: crate::log::envelope::Timestamp,
    judge: &str,
    presented: &str,
    salt: &Secret,
    actor: Actor,
) -> Result<DeckCheckDone, TournamentError> {
    use super::events::DeckCheckResult;
    let (mut state, _) = record::load_state(store, id)?;
    let name = super::rules::resolve(&state, player)?;
    let has_list = state.player(&name).and_then(|i| state.players.get(i)).and_then(|p| p.deck_list).is_some();
    if !has_list {
        return Err(TournamentError::Input(format!(
            "{name} has registered no deck list for {id}: there is nothing to check the deck against (TOUR-DECK-4)"
        )));
    }
    let registered = load_deck_list(data_dir, id, &state, &name)?;
    let differences = deck_differences(&registered, presented);
    let check = state.deck_checks.len() as u32 + 1;
    let text: String = differences
        .iter()
        .map(|d| format!("{}: registered {}, presented {}\n", d.card, d.registered, d.presented))
        .collect();
    let result = if differences.is_empty() {
        DeckCheckResult::Matches
    } else {
        let cards = differences.iter().map(|d| d.registered.abs_diff(d.presented)).fold(0u32, u32::saturating_add);
        let differences = crate::game::commit::seal_choice(&super::events::deck_check_key(check), &text, salt);
        DeckCheckResult::Differs { cards, differences }
    };
    let event = TournamentEvent::DeckChecked {
        round,
        table,
        at,
        judge: judge.trim().to_string(),
        player: name.clone(),
        result: result.clone(),
    };
    event.check_text().map_err(|e| TournamentError::Input(e.to_string()))?;
    record::check_all(&mut state, std::slice::from_ref(&event))?;
    if !differences.is_empty() {
        keep_sealed(&deck_check_path(data_dir, id, check), salt, &text)?;
    }
    let (head, _) = record::record(store, id, actor, vec![event])?;
    Ok(DeckCheckDone { head, check, result, differences })
}

/// Where statement `n` of tournament `id` is kept (its text, sealed as a deck list is).
pub fn statement_path(data_dir: &Path, id: &StreamId, n: u32) -> PathBuf {
    data_dir.join("tournament-cases").join(id.as_str()).join(format!("statement-{n}.txt"))
}

/// A statement for an investigation, as the edges hand it over.
#[derive(Clone, Debug)]
pub struct NewStatement<'a> {
    pub player: &'a str,
    pub by: super::events::StatementBy,
    pub author: &'a str,
    pub judge: &'a str,
    pub at: Timestamp,
    pub text: &'a str,
}

/// Records a statement: refused with nothing written when it breaks a rule (TOUR-CASE-1) or its
/// text is empty or longer than [`super::events::STATEMENT_MAX`]; otherwise the text is kept
/// privately, sealed, and `StatementRecorded` carries only the commitment. Returns the head and
/// the statement's number.
pub fn record_statement(
    store: &dyn Store,
    data_dir: &Path,
    id: &StreamId,
    s: &NewStatement<'_>,
    salt: &Secret,
    actor: Actor,
) -> Result<(Head, u32), TournamentError> {
    use super::events::STATEMENT_MAX;
    let (mut state, _) = record::load_state(store, id)?;
    let text = s.text.trim();
    if text.is_empty() {
        return Err(TournamentError::Input("a statement has text: write what was said".into()));
    }
    let chars = text.chars().count();
    if chars > STATEMENT_MAX {
        return Err(TournamentError::Input(format!("a statement has at most {STATEMENT_MAX} characters, not {chars}")));
    }
    let player = match state.find(s.player) {
        Some(p) => state.players[p].name.clone(),
        None => s.player.trim().to_string(),
    };
    let n = state.statements.len() as u32 + 1;
    let statement = crate::game::commit::seal_choice(&super::events::statement_key(n), text, salt);
    let event = TournamentEvent::StatementRecorded {
        player,
        by: s.by,
        author: s.author.trim().to_string(),
        judge: s.judge.trim().to_string(),
        at: s.at,
        statement,
    };
    event.check_text().map_err(|e| TournamentError::Input(e.to_string()))?;
    record::check_all(&mut state, std::slice::from_ref(&event))?;
    keep_sealed(&statement_path(data_dir, id, n), salt, text)?;
    let (head, _) = record::record(store, id, actor, vec![event])?;
    Ok((head, n))
}

/// A recorded statement's text, checked against its commitment (`None`: not on this machine).
pub fn statement_text(
    data_dir: &Path,
    id: &StreamId,
    s: &super::state::Statement,
) -> Result<Option<String>, TournamentError> {
    read_sealed(&statement_path(data_dir, id, s.number), &super::events::statement_key(s.number), &s.commitment)
}

/// A head judge's disqualification report, as the edges hand it over.
#[derive(Clone, Debug)]
pub struct NewReport<'a> {
    pub player: &'a str,
    /// The disqualification it supports; default: the player's latest one that stands.
    pub penalty: Option<u32>,
    pub head_judge: &'a str,
    pub facts: &'a str,
    pub reasons: &'a str,
    pub at: Timestamp,
}

/// Signs and records a disqualification report with `key`, which must be the head judge's
/// recorded key: refused with nothing written otherwise, or when the report breaks TOUR-CASE-2.
pub fn report_disqualification(
    store: &dyn Store,
    id: &StreamId,
    r: &NewReport<'_>,
    key: &ed25519_dalek::SigningKey,
    actor: Actor,
) -> Result<Head, TournamentError> {
    use super::events::Penalty;
    let (mut state, _) = record::load_state(store, id)?;
    let player = super::rules::resolve(&state, r.player)?;
    let p = state.player(&player);
    let penalty = match r.penalty {
        Some(n) => n,
        None => state
            .penalty_log
            .iter()
            .rev()
            .find(|x| Some(x.player) == p && x.standing == Some(Penalty::Disqualification))
            .map(|x| x.number)
            .ok_or_else(|| {
                TournamentError::Input(format!(
                    "{player} has no disqualification in {id}: a report supports one (TOUR-CASE-2)"
                ))
            })?,
    };
    let head_judge = r.head_judge.trim();
    if let Some((_, k)) = state.signers.iter().find(|(n, _)| n == head_judge) {
        if *k != super::sign::public(key) {
            return Err(TournamentError::Input(format!("the key given is not {head_judge}'s recorded key")));
        }
    }
    let (facts, reasons) = (r.facts.trim(), r.reasons.trim());
    let report = super::sign::Report { player: &player, penalty, head_judge, facts, reasons, at: r.at };
    let signature = super::sign::sign_report(key, id.as_str(), &report);
    let event = TournamentEvent::DisqualificationReported {
        player: player.clone(),
        penalty,
        head_judge: head_judge.to_string(),
        facts: facts.to_string(),
        reasons: reasons.to_string(),
        at: r.at,
        signature,
    };
    event.check_text().map_err(|e| TournamentError::Input(e.to_string()))?;
    record::check_all(&mut state, std::slice::from_ref(&event))?;
    Ok(record::record(store, id, actor, vec![event])?.0)
}

/// Player `player`'s case file in tournament `id` (see [`super::case`]), with the rulings given
/// in the event's games; with `statements` (for the event's judges) the statements' text is read
/// from the data directory and checked against the log.
pub fn case_file(
    store: &dyn Store,
    data_dir: &Path,
    id: &StreamId,
    player: &str,
    statements: bool,
) -> Result<super::case::CaseFile, TournamentError> {
    let (state, _) = record::load_state(store, id)?;
    let name = super::rules::resolve(&state, player)?;
    let p = state.player(&name).unwrap_or_default();
    let rulings = super::game_rulings::game_rulings(store, id, &state)?;
    let mut texts = std::collections::HashMap::new();
    if statements {
        for s in state.statements.iter().filter(|s| s.player == name) {
            texts.insert(s.number, statement_text(data_dir, id, s)?);
        }
    }
    let text = |s: &super::state::Statement| texts.get(&s.number).cloned().flatten();
    let reveal: Option<super::case::Reveal<'_>> = statements.then_some(&text as _);
    Ok(super::case::case_file(&state, id.as_str(), p, rulings, reveal))
}
