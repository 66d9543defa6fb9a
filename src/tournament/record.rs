//! Tournament streams in a store: create, load (verifying the chain, then folding with
//! validation) and record (validate, then append at the exact expected version, all or nothing).
//! Loading to show or write folds without re-checking the stored events; `verify` folds with
//! [`from_log_checked`], which validates them all and re-derives every round.

use super::events::{
    ConfigV1, TournamentConfig, TournamentEvent, RULESET, RULESET_VERSION, RULESET_VERSION_0_1, RULESET_VERSION_2,
};
use super::state::Tournament;
use super::TournamentError;
use crate::game::Violation;
use crate::log::chain::{self, Head, VerifiedLog};
use crate::log::envelope::{Actor, Header, HeaderV1, StreamId, StreamKind, Timestamp};
use crate::store::{AppendRequest, ExpectedVersion, NewEvent, Store};

/// One decoded event of a tournament stream.
#[derive(Clone, Debug)]
pub struct Entry {
    pub seq: u64,
    pub recorded_at: Timestamp,
    pub actor: Actor,
    pub event: TournamentEvent,
    /// The event's hash: the head of the log up to and including it.
    pub hash: crate::log::hash::Hash32,
}

/// A tournament stream read back and folded.
#[derive(Clone, Debug)]
pub struct Loaded {
    pub header: Header,
    pub config: ConfigV1,
    pub entries: Vec<Entry>,
    pub state: Tournament,
    pub head: Head,
    /// Events that broke a rule when folded by [`from_log_checked`], by sequence number (a store
    /// only holds such events if someone wrote around kifu: `verify` reports them).
    pub problems: Vec<(u64, String, Vec<Violation>)>,
}

pub use super::events::kind;

pub fn header(stream: &StreamId, config: &ConfigV1, created_at: Timestamp) -> Result<Header, TournamentError> {
    Ok(Header::V1(HeaderV1 {
        stream: stream.clone(),
        kind: StreamKind::Tournament,
        ruleset: RULESET.to_string(),
        ruleset_version: RULESET_VERSION,
        players: vec![],
        config: postcard::to_stdvec(&TournamentConfig::V1(config.clone()))?,
        created_at,
    }))
}

/// Creates a tournament stream: its header and the `Created` event, plus any first events.
pub fn create(
    store: &dyn Store,
    stream: &StreamId,
    config: &ConfigV1,
    actor: Actor,
    created_at: Timestamp,
    more: Vec<TournamentEvent>,
) -> Result<Head, TournamentError> {
    let mut state = Tournament::default();
    let mut events = vec![TournamentEvent::Created { config: config.clone() }];
    events.extend(more);
    let encoded = encode(&actor, &events)?;
    check_all(&mut state, &events)?;
    let appended = store.append(AppendRequest {
        stream: stream.clone(),
        expected: ExpectedVersion::NoStream,
        create: Some(header(stream, config, created_at)?),
        events: encoded,
    })?;
    Ok(appended.head)
}

/// Encodes events for an append: every append of a tournament event (the CLI's, the server's,
/// Melee and TOM imports') comes through here, so this is where their names and notes are
/// bounded ([`crate::log::limits`]), before anything is written.
fn encode(actor: &Actor, events: &[TournamentEvent]) -> Result<Vec<NewEvent>, TournamentError> {
    actor.check_name()?;
    events
        .iter()
        .map(|e| {
            e.check_text().map_err(|err| TournamentError::Input(format!("{}: {err}", kind(e))))?;
            Ok(NewEvent { actor: actor.clone(), payload: postcard::to_stdvec(e)?, idempotency: None })
        })
        .collect()
}

/// Validates and applies `events` in order; the first that breaks a rule refuses them all.
pub fn check_all(state: &mut Tournament, events: &[TournamentEvent]) -> Result<(), TournamentError> {
    for e in events {
        let problems = state.validate(e);
        if !problems.is_empty() {
            return Err(TournamentError::Refused { event: kind(e).to_string(), problems });
        }
        *state = std::mem::take(state).apply(e);
    }
    Ok(())
}

/// Decodes a verified log as a tournament and folds it (`apply` is total), without checking the
/// stored events against the rules: kifu validated each when it recorded it, and re-validating
/// (re-deriving every round's pairing above all) cost most of a cold `pair` at 10,000 players.
/// A log written around kifu is `verify`'s to catch ([`from_log_checked`]); `problems` is empty.
pub fn from_log(log: &VerifiedLog) -> Result<Loaded, TournamentError> {
    fold(log, false)
}

/// As [`from_log`], validating every event in order, re-deriving every Swiss round from its seed
/// and the standings before it and every top-cut round from the standings or the winners, and
/// collecting what each breaks in `problems`: what `verify` reports on.
pub fn from_log_checked(log: &VerifiedLog) -> Result<Loaded, TournamentError> {
    fold(log, true)
}

fn fold(log: &VerifiedLog, check: bool) -> Result<Loaded, TournamentError> {
    let h = log.header.v1();
    let stream = h.stream.to_string();
    if h.kind != StreamKind::Tournament || h.ruleset != RULESET {
        return Err(TournamentError::NotATournament { stream, kind: h.kind.to_string(), ruleset: h.ruleset.clone() });
    }
    if ![RULESET_VERSION, RULESET_VERSION_2, RULESET_VERSION_0_1].contains(&h.ruleset_version) {
        return Err(TournamentError::Version { stream, found: h.ruleset_version, have: RULESET_VERSION });
    }
    let TournamentConfig::V1(config) = postcard::from_bytes(&h.config)
        .map_err(|e| TournamentError::BadConfig { stream: stream.clone(), msg: e.to_string() })?;
    let mut state = empty_state(&log.header);
    let (entries, set_aside) = decode(log, &stream)?;
    let mut problems = Vec::new();
    for entry in &entries {
        let (seq, event) = (entry.seq, &entry.event);
        // What is read in place of bytes set aside was not recorded: there is nothing to check.
        if check && !set_aside.contains(&seq) {
            let broken = state.validate(event);
            if let (0, TournamentEvent::Created { config: c }) = (seq, event) {
                if c != &config {
                    let v = Violation::new("TOUR-LOG-2", "the Created event differs from the header");
                    problems.push((seq, kind(event).into(), vec![v]));
                }
            }
            if !broken.is_empty() {
                problems.push((seq, kind(event).to_string(), broken));
            }
        }
        state = state.apply(event);
    }
    Ok(Loaded { header: log.header.clone(), config, entries, state, head: log.head, problems })
}

/// The events of a verified tournament log, and the sequence numbers read as set aside: stored
/// bytes that decode as no tournament event are an error unless a later `EntrySetAside` names
/// them (TOUR-LOG-3), and then read as [`TournamentEvent::SetAside`].
fn decode(log: &VerifiedLog, stream: &str) -> Result<(Vec<Entry>, Vec<u64>), TournamentError> {
    let mut entries = Vec::with_capacity(log.events.len());
    let mut damaged = Vec::new();
    for (seq, bytes) in log.events.iter().enumerate() {
        let seq = seq as u64;
        let undecodable = |msg: String| TournamentError::Undecodable { stream: stream.to_string(), seq, msg };
        // `log` is verified: every event's hash was checked against its bytes already.
        let (env, hash) = chain::open_verified(bytes).map_err(|p| undecodable(p.to_string()))?;
        let e = env.v1();
        let event = match postcard::from_bytes::<TournamentEvent>(&e.payload) {
            Ok(event) => event,
            Err(err) => {
                damaged.push((entries.len(), undecodable(err.to_string())));
                TournamentEvent::SetAside { by: String::new(), at: u64::MAX }
            }
        };
        entries.push(Entry { seq, recorded_at: e.recorded_at, actor: e.actor.clone(), event, hash });
    }
    let names = |e: &Entry| match &e.event {
        TournamentEvent::EntrySetAside { seq, by, .. } => {
            Some((*seq, TournamentEvent::SetAside { by: by.clone(), at: e.seq }))
        }
        _ => None,
    };
    let set_aside = crate::log::read_set_aside(&mut entries, damaged, |e| e.seq, names, |e, r| e.event = r)?;
    Ok((entries, set_aside))
}

/// Sets aside the stored entry at `seq` of a tournament, which decodes as no tournament event
/// (a note an older build let `kifu append` write, after which the tournament no longer
/// opened): appends the official `actor`'s [`TournamentEvent::EntrySetAside`] with `reason` (an
/// organizer or a judge: the head judge, whose role the server checks), so its
/// pages, export and `verify` work again. The damaged bytes stay: history is not rewritten.
/// Works on a tournament that does not load; refuses an entry that decodes or is set aside.
pub fn set_aside(
    store: &dyn Store,
    stream: &StreamId,
    seq: u64,
    actor: Actor,
    reason: &str,
) -> Result<Head, TournamentError> {
    let by = match &actor {
        Actor::Organizer(n) | Actor::Judge(n) => n.clone(),
        other => {
            let m = format!("entries are set aside by an organizer or a judge, not {}", other.shown());
            return Err(TournamentError::Refused {
                event: "entry set aside".into(),
                problems: vec![Violation::new("TOUR-LOG-3", m)],
            });
        }
    };
    let by = by.as_str();
    let log = store.export(stream)?;
    let h = log.header.v1();
    if h.kind != StreamKind::Tournament || h.ruleset != RULESET {
        let (kind, ruleset) = (h.kind.to_string(), h.ruleset.clone());
        return Err(TournamentError::NotATournament { stream: stream.to_string(), kind, ruleset });
    }
    let refuse = |m: String| TournamentError::Refused {
        event: "entry set aside".into(),
        problems: vec![Violation::new("TOUR-LOG-3", m)],
    };
    let event = TournamentEvent::EntrySetAside { seq, by: by.to_string(), reason: reason.to_string() };
    event.check_text()?;
    let problems = super::rules::set_aside_named(by, reason);
    if !problems.is_empty() {
        return Err(TournamentError::Refused { event: "entry set aside".into(), problems });
    }
    let n = log.events.len() as u64;
    let bytes = log.events.get(seq as usize).ok_or_else(|| refuse(format!("the tournament has {n} events")))?;
    let decodes = |b: &Vec<u8>| {
        chain::open_verified(b).ok().and_then(|(e, _)| postcard::from_bytes::<TournamentEvent>(&e.v1().payload).ok())
    };
    if decodes(bytes).is_some() {
        return Err(refuse(format!("event {seq} is a tournament event; only bytes that decode as none are set aside")));
    }
    let aside = |b: &Vec<u8>| matches!(decodes(b), Some(TournamentEvent::EntrySetAside { seq: s, .. }) if s == seq);
    if log.events[seq as usize + 1..].iter().any(aside) {
        return Err(refuse(format!("event {seq} is set aside already")));
    }
    append_at(store, stream, n, actor, &[event])
}

/// The state before a tournament's first event, under the rules version its header names.
pub fn empty_state(header: &Header) -> Tournament {
    let version = header.v1().ruleset_version;
    Tournament {
        released_0_1: version == RULESET_VERSION_0_1,
        swiss_v2: version == RULESET_VERSION_2,
        ..Tournament::default()
    }
}

/// Loads a tournament stream, verifying its whole chain first.
pub fn load(store: &dyn Store, stream: &StreamId) -> Result<Loaded, TournamentError> {
    from_log(&store.export(stream)?)
}

/// The name of the folded-state snapshot the store keeps beside a tournament stream.
const SNAPSHOT: &str = "tournament-state";

/// What a snapshot must match to be used: the build and the sources of the fold. A snapshot is
/// postcard of [`Tournament`] (no stored format: any change to the fold's code makes every kept
/// snapshot stale, and it is rebuilt from the log).
fn fold_fingerprint() -> [u8; 32] {
    static FP: std::sync::OnceLock<[u8; 32]> = std::sync::OnceLock::new();
    *FP.get_or_init(|| {
        let mut h = blake3::Hasher::new();
        h.update(env!("CARGO_PKG_VERSION").as_bytes());
        for src in [
            &include_bytes!("state.rs")[..],
            include_bytes!("standings.rs"),
            include_bytes!("pods.rs"),
            include_bytes!("events.rs"),
            include_bytes!("policy.rs"),
            include_bytes!("pairing.rs"),
            include_bytes!("record.rs"),
            include_bytes!("judging.rs"),
            include_bytes!("rules/judging.rs"),
            include_bytes!("rules/penalties.rs"),
            include_bytes!("rules/overrides.rs"),
            include_bytes!("rules/mod.rs"),
            include_bytes!("rules/registration.rs"),
            include_bytes!("rules/results.rs"),
            include_bytes!("rules/pods.rs"),
        ] {
            h.update(&(src.len() as u64).to_le_bytes());
            h.update(src);
        }
        *h.finalize().as_bytes()
    })
}

#[derive(serde::Serialize)]
struct SnapshotRef<'a> {
    fingerprint: [u8; 32],
    len: u64,
    hash: crate::log::hash::Hash32,
    state: &'a Tournament,
}

#[derive(serde::Deserialize)]
struct Snapshot {
    fingerprint: [u8; 32],
    len: u64,
    hash: crate::log::hash::Hash32,
    state: Tournament,
}

/// Keeps `state`, folded up to `head`, as the store's snapshot of `stream` (best effort).
pub fn keep_state(store: &dyn Store, stream: &StreamId, state: &Tournament, head: Head) {
    let snap = SnapshotRef { fingerprint: fold_fingerprint(), len: head.len, hash: head.hash, state };
    // Into a buffer sized once (a growing vector costs twice as much per byte at 10,000
    // players); a guess too small falls back to the growing one.
    let tables: usize = state.rounds.iter().map(|r| r.tables.len() + r.byes.len() + r.pods.len() * 4).sum();
    let guess = 4096 + state.players.len() * 160 + tables * 48;
    let mut buf = vec![0u8; guess];
    let body = match postcard::to_slice(&snap, &mut buf) {
        Ok(b) => b.len(),
        Err(_) => match postcard::to_stdvec(&snap) {
            Ok(v) => {
                buf = v;
                buf.len()
            }
            Err(_) => return,
        },
    };
    buf.truncate(body);
    let sum = blake3::hash(&buf);
    buf.extend_from_slice(sum.as_bytes());
    store.keep_derived(stream, SNAPSHOT, &buf);
}

/// The kept snapshot of `stream`, if there is one this build can use (whole, same fold).
fn kept_state(store: &dyn Store, stream: &StreamId) -> Option<(Tournament, Head)> {
    let bytes = store.derived(stream, SNAPSHOT)?;
    let (body, sum) = bytes.split_at(bytes.len().checked_sub(32)?);
    if blake3::hash(body).as_bytes() != sum {
        return None;
    }
    let snap: Snapshot = postcard::from_bytes(body).ok()?;
    (snap.fingerprint == fold_fingerprint()).then_some((snap.state, Head { len: snap.len, hash: snap.hash }))
}

/// The state at the stream's head, as [`load`] folds it, for commands that only need the state
/// (pair, record). From the store's snapshot when it holds one: at the head, it is used as it is;
/// behind it, the events since are read, verified link by link from the snapshot's head and
/// folded. Otherwise (no snapshot, another build's, or a log that no longer extends it) the
/// whole log is loaded and verified, and the snapshot is kept for the next command. The log
/// stays the truth: `verify` always re-reads and re-derives all of it.
pub fn load_state(store: &dyn Store, stream: &StreamId) -> Result<(Tournament, Head), TournamentError> {
    let head = store.head(stream)?;
    if let Some((mut state, at)) = kept_state(store, stream) {
        if at == head {
            return Ok((state, head));
        }
        // Not kept again here: a tail costs little to fold, and the callers keep the state at
        // the head they append.
        if at.len < head.len && extend(store, stream, &mut state, at, head).is_some() {
            return Ok((state, head));
        }
    }
    let loaded = load(store, stream)?;
    keep_state(store, stream, &loaded.state, loaded.head);
    Ok((loaded.state, loaded.head))
}

/// Folds the events from `at` to `head` onto `state`; `None` if they do not verify as the
/// continuation of `at` (the caller then loads the whole log, which reports why).
fn extend(store: &dyn Store, stream: &StreamId, state: &mut Tournament, at: Head, head: Head) -> Option<()> {
    let tail = store.read(stream, at.len, head.len).ok()?;
    let mut verifier = chain::Verifier::from_head(stream.clone(), at);
    let mut events = Vec::with_capacity(tail.len());
    for bytes in &tail {
        let env = verifier.push(bytes).ok()?;
        events.push(postcard::from_bytes::<TournamentEvent>(&env.v1().payload).ok()?);
    }
    if verifier.head() != head {
        return None;
    }
    for e in &events {
        *state = std::mem::take(state).apply(e);
    }
    Some(())
}

/// Validates events against the stream's current state and appends them at the exact version it
/// was loaded at (a concurrent writer makes the append fail rather than interleave).
pub fn record(
    store: &dyn Store,
    stream: &StreamId,
    actor: Actor,
    events: Vec<TournamentEvent>,
) -> Result<(Head, Tournament), TournamentError> {
    let encoded = encode(&actor, &events)?;
    let (mut state, head) = load_state(store, stream)?;
    check_all(&mut state, &events)?;
    let appended = store.append(AppendRequest {
        stream: stream.clone(),
        expected: ExpectedVersion::Exact(head.len),
        create: None,
        events: encoded,
    })?;
    keep_state(store, stream, &state, appended.head);
    Ok((appended.head, state))
}

/// Appends events the caller already validated against the state loaded at version `len`.
pub fn append_at(
    store: &dyn Store,
    stream: &StreamId,
    len: u64,
    actor: Actor,
    events: &[TournamentEvent],
) -> Result<Head, TournamentError> {
    let appended = store.append(AppendRequest {
        stream: stream.clone(),
        expected: ExpectedVersion::Exact(len),
        create: None,
        events: encode(&actor, events)?,
    })?;
    Ok(appended.head)
}
