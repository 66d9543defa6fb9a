//! Test machinery every game's tests share: the coverage-table checks against the rules digest,
//! the given/when/then harness pieces, and the pinned fixture games' summaries and round trips.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::sync::Arc;

use kifu::clock::SteppingClock;
use kifu::game::audit::Finding;
use kifu::game::driver::Driver;
use kifu::game::policy::{self, Policy};
use kifu::game::record::{self, GameError, LiveGame};
use kifu::game::{actor_for, AgentRng, Enforcement, Game, GameEntry, RuleCoverage, ScenarioCount, Viewer, Violation};
use kifu::log::chain::VerifiedLog;
use kifu::log::envelope::{Actor, StreamId, Timestamp};
use kifu::log::{file, json};
use kifu::store::sled_store::SledStore;
use kifu::store::Store;

use rand::SeedableRng;

use crate::support::ensure_file_contents;

// ---------------------------------------------------------------------------------------------
// Coverage tables.
// ---------------------------------------------------------------------------------------------

/// The rule IDs with one of `prefixes` in the digest section that starts at `heading` and runs to
/// `next_heading` (or the end of the digest).
pub fn digest_ids(heading: &str, next_heading: &str, prefixes: &[&str]) -> BTreeSet<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/rules/RULES-DIGEST.md");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("the rules digest must be readable at {}: {e}", path.display()));
    let start = text.find(heading).unwrap_or_else(|| panic!("digest has no {heading:?} heading"));
    let end = text[start..].find(next_heading).map_or(text.len(), |i| start + i);
    let section = &text[start..end];
    let mut ids = BTreeSet::new();
    for prefix in prefixes {
        for (i, _) in section.match_indices(prefix) {
            let id: String = section[i..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '-').collect();
            let id = id.trim_end_matches('-').to_string();
            if id.rsplit('-').next().is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit())) {
                ids.insert(id);
            }
        }
    }
    ids
}

/// A game's coverage table lists every rule ID of its digest section exactly once, and nothing
/// else. `min_ids` guards against a digest parse that silently finds too little.
pub fn check_coverage_against_digest(
    heading: &str,
    next_heading: &str,
    prefixes: &[&str],
    min_ids: usize,
    rows: &[RuleCoverage],
) {
    let digest = digest_ids(heading, next_heading, prefixes);
    assert!(digest.len() > min_ids, "suspiciously few IDs parsed from the digest: {}", digest.len());
    let mut seen = BTreeSet::new();
    for r in rows {
        assert!(seen.insert(r.rule.to_string()), "{} appears twice in the coverage table", r.rule);
    }
    let missing: Vec<&String> = digest.difference(&seen).collect();
    let extra: Vec<&String> = seen.difference(&digest).collect();
    assert!(missing.is_empty(), "digest rules missing from coverage(): {missing:?}");
    assert!(extra.is_empty(), "coverage() rows not in the digest: {extra:?}");
}

/// The checked-in `COVERAGE.md` at `rel` is what `coverage_markdown()` generates; UPDATE_EXPECT=1
/// rewrites it. `test_filter` is the cargo test filter the message tells the reader to run.
pub fn check_coverage_markdown(rel: &str, want: &str, test_filter: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(rel);
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    if have == want {
        return;
    }
    if std::env::var("UPDATE_EXPECT").is_ok_and(|v| v == "1") {
        std::fs::write(&path, want).unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
        return;
    }
    panic!(
        "{} is out of date; regenerate it with `UPDATE_EXPECT=1 cargo test --release {test_filter}`",
        path.display()
    );
}

/// Every policy of a game's table takes its last listed value, the `(key, value)` pairs set the
/// same policies again, and a bad value or an unknown key is an error.
pub fn check_policies_round_trip<P: Default + PartialEq + std::fmt::Debug>(table: &[Policy<P>]) {
    let mut p = P::default();
    for row in table {
        let value = row.values.last().copied().unwrap_or_default();
        let value = if value.starts_with('<') { "2" } else { value };
        policy::set(table, &mut p, row.key, value).unwrap_or_else(|e| panic!("{e}"));
        assert!(policy::set(table, &mut p, row.key, "sideways").is_err(), "{} accepts anything", row.key);
    }
    let mut q = P::default();
    for (k, v) in policy::pairs(table, &p) {
        policy::set(table, &mut q, k, &v).unwrap_or_else(|e| panic!("{e}"));
    }
    assert_eq!(p, q);
    assert_ne!(p, P::default());
    assert!(policy::set(table, &mut p, "no_such_policy", "x").is_err());
}

// ---------------------------------------------------------------------------------------------
// Self-play, views and properties: what every game's tests run.
// ---------------------------------------------------------------------------------------------

/// One self-play game: its config, events and every state along the way (state `i` is before
/// event `i`).
pub struct Played<G: Game> {
    pub config: G::Config,
    pub events: Vec<G::Event>,
    pub states: Vec<G::State>,
    pub last: G::State,
}

/// Plays a seeded two-player game of `G` to the end, asserting that every event validates clean.
pub fn play<G: Game>(seed: u64, keep_states: bool) -> Played<G> {
    let mut rng = AgentRng::seed_from_u64(seed);
    let players = vec!["Alice".to_string(), "Bob".to_string()];
    let (config, mut secrets) = G::self_play_config(&players, &mut rng);
    let mut state = match G::setup(&config) {
        Ok(s) => s,
        Err(v) => panic!("seed {seed}: self-play config rejected: {v:?}"),
    };
    let mut events = Vec::new();
    let mut states = Vec::new();
    for seq in 0..20_000u64 {
        let Some(event) = G::agent_step(&state, &mut secrets, &mut rng) else {
            return Played { config, events, states, last: state };
        };
        let violations = G::validate(&state, &event);
        assert!(violations.is_empty(), "seed {seed}, event {seq} {event:?}: {violations:?}");
        if keep_states {
            states.push(state.clone());
        }
        G::ledger_mut(&mut state).at(seq);
        state = G::apply(state, &event);
        events.push(event);
    }
    panic!("seed {seed}: the game did not end within 20,000 events");
}

/// Self-play is deterministic for a seed and differs between seeds.
pub fn check_self_play_is_deterministic<G: Game>()
where
    G::Event: PartialEq,
{
    for seed in [0u64, 1, 17, 99, 512] {
        assert_eq!(play::<G>(seed, false).events, play::<G>(seed, false).events, "seed {seed}");
    }
    assert_ne!(play::<G>(1, false).events, play::<G>(2, false).events);
}

/// Every situation in `want` came up at least once in `seen` (self-play coverage).
pub fn check_all_seen(seen: &BTreeMap<String, usize>, want: &[&str]) {
    for k in want {
        assert!(seen.get(*k).copied().unwrap_or(0) > 0, "no self-play game had {k:?}: {seen:?}");
    }
}

/// Every viewer of a game of `seats` seats: each player, a spectator and a judge.
pub fn viewers(seats: u8) -> Vec<Viewer> {
    (0..seats).map(Viewer::Player).chain([Viewer::Spectator, Viewer::Judge]).collect()
}

// ---------------------------------------------------------------------------------------------
// Given/when/then rule tests.
// ---------------------------------------------------------------------------------------------

/// What a rule case does after its `given` events.
#[derive(Clone)]
pub enum When<E> {
    /// Registering the decks (`Game::setup`).
    Setup,
    Event(E),
}

/// The sorted, de-duplicated rule IDs of `violations`.
fn rule_ids(violations: &[Violation]) -> Vec<&'static str> {
    let mut got: Vec<&'static str> = violations.iter().map(|v| v.rule).collect();
    got.sort();
    got.dedup();
    got
}

fn sorted(then: &[&'static str]) -> Vec<&'static str> {
    let mut want = then.to_vec();
    want.sort();
    want
}

/// Sets up the case's game. A rejected setup must be what a `When::Setup` case expects (then
/// there is nothing more to run: `None`); an accepted one must not be expected to fail.
pub fn start_case<G: Game>(
    name: &str,
    config: &G::Config,
    when: When<G::Event>,
    then: &[&'static str],
) -> Option<(G::State, G::Event)> {
    let state = match G::setup(config) {
        Ok(s) => s,
        Err(v) => {
            assert!(matches!(when, When::Setup), "{name}: fixture config rejected: {v:?}");
            assert_eq!(rule_ids(&v), sorted(then), "{name}: setup violations {v:?}");
            return None;
        }
    };
    match when {
        When::Setup => {
            assert!(then.is_empty(), "{name}: setup accepted, expected {then:?}");
            None
        }
        When::Event(e) => Some((state, e)),
    }
}

/// Compares the rule IDs the moment breaks ([`Broken`]: at once, or found late about an earlier
/// event) with `then`, each of which the case must declare in `covers` (KIFU IDs are the
/// recorder's own); then applies the moment to `state`, because the fold is total: applying any
/// event, legal or not, must not panic.
fn check_when<G: Game>(
    name: &str,
    covers: &[&str],
    then: &[&'static str],
    broke: &Broken,
    (state, event): (G::State, &G::Event),
) {
    let mut got: Vec<&str> = broke.now.iter().copied().chain(broke.late.iter().map(|(_, rule)| *rule)).collect();
    got.sort_unstable();
    got.dedup();
    let want = sorted(then);
    assert_eq!(got, want, "{name}: when {event:?}\nbroke now {:?}, found late {:?}", broke.now, broke.late);
    for id in &want {
        assert!(covers.contains(id) || id.starts_with("KIFU"), "{name}: expects {id} but does not declare it covered");
    }
    let _ = G::apply(state, event);
}

/// One given/when/then rule case, the one scaffold every game's rule tests use: a configuration,
/// the events that lead up to the moment (`given`, each legal unless told otherwise), the moment
/// itself (`when`: registering the decks or one event) and the rule IDs it must break (`then`).
pub struct Case<G: Game> {
    pub config: G::Config,
    pub given: Vec<G::Event>,
    /// Given events a judge forced into the log (indices into `given`): folded without checking.
    pub forced: Vec<usize>,
    /// Rule IDs any given event may break (a forced simultaneous loss, say); others still fail.
    pub tolerated: Vec<&'static str>,
    pub when: When<G::Event>,
    pub then: Vec<&'static str>,
}

impl<G: Game> Case<G> {
    pub fn new(config: G::Config, given: Vec<G::Event>, when: When<G::Event>, then: &[&'static str]) -> Self {
        Case { config, given, forced: vec![], tolerated: vec![], when, then: then.to_vec() }
    }

    /// A case whose moment is one event.
    pub fn event(config: G::Config, given: Vec<G::Event>, when: G::Event, then: &[&'static str]) -> Self {
        Case::new(config, given, When::Event(when), then)
    }

    /// A case whose moment is registering the decks (`Game::setup`).
    pub fn setup(config: G::Config, then: &[&'static str]) -> Self {
        Case::new(config, vec![], When::Setup, then)
    }
}

/// Sets the case's game up ([`start_case`]) and folds `given` as the recorder would (each given
/// event must itself be legal unless forced or breaking only tolerated rules): the state before
/// the moment, and the moment. `None` for a case whose moment is the setup.
fn fold_given<G: Game>(name: &str, c: &Case<G>) -> Option<(G::State, G::Event)> {
    let (mut state, event) = start_case::<G>(name, &c.config, c.when.clone(), &c.then)?;
    for (i, g) in c.given.iter().enumerate() {
        let v: Vec<Violation> = G::validate(&state, g).into_iter().filter(|v| !c.tolerated.contains(&v.rule)).collect();
        assert!(c.forced.contains(&i) || v.is_empty(), "{name}: given event {i} {g:?} is itself illegal: {v:?}");
        G::ledger_mut(&mut state).at(i as u64);
        state = G::apply(state, g);
    }
    Some((state, event))
}

/// What the moment breaks: its own violations (`now`, cited at the moment) and those it brings
/// to light about a given event (`late`: the given event's index and the rule, cited there).
struct Broken {
    now: Vec<&'static str>,
    late: Vec<(u64, &'static str)>,
}

fn broken<G: Game>(state: &G::State, event: &G::Event) -> Broken {
    let mut late: Vec<(u64, &'static str)> =
        G::revealed_violations(state, event).into_iter().map(|l| (l.at, l.violation.rule)).collect();
    late.sort_unstable();
    late.dedup();
    Broken { now: rule_ids(&G::validate(state, event)), late }
}

/// Runs a case: folds it to the moment ([`fold_given`]), then validates `when` and compares the
/// sorted, de-duplicated rule IDs it breaks, at once or found late, with `then` ([`check_when`]);
/// then meets it on the record ([`check_recorded`]).
pub fn run_case<G: Game>(name: &str, covers: &[&str], c: Case<G>) {
    let Some((state, event)) = fold_given::<G>(name, &c) else {
        return;
    };
    let broke = broken::<G>(&state, &event);
    check_when::<G>(name, covers, &c.then, &broke, (state, &event));
    check_recorded::<G>(name, &c.config, (&c.given, &c.forced, &c.tolerated), &event, &broke);
}

/// The two ways a judge meets a case on the record, each through the recorder and a store: at
/// the table (every given event recorded as played, a judge forcing those the case forces, then
/// the moment: one that breaks a rule itself forced by the judge, flagged with exactly those
/// rules; one that breaks none played and accepted, and what it brings to light about earlier
/// events cited there) and recorded elsewhere (the same game as JSON lines imported as recorded,
/// whose audit must cite exactly the moment's rules at the moment and the late ones at their
/// events, unresolved, and nothing anywhere else).
fn check_recorded<G: Game>(
    name: &str,
    config: &G::Config,
    (given, forced, tolerated): (&[G::Event], &[usize], &[&'static str]),
    event: &G::Event,
    broke: &Broken,
) {
    let store = SledStore::temporary(Arc::new(SteppingClock::fixed())).unwrap();
    let players = G::players(config);
    let table = StreamId::new("scenario-at-the-table").unwrap();
    record::create::<G>(&store, &table, config, Timestamp(0)).unwrap_or_else(|e| panic!("{name}: create: {e}"));
    let mut live = LiveGame::<G>::load(&store, &table).unwrap();
    let judge = || Actor::Judge("judge".into());
    let forcing = |event: &G::Event| GameEntry::Forced { judge: "judge".into(), broke: vec![], event: event.clone() };
    for (i, g) in given.iter().enumerate() {
        let played = live.record(&store, actor_for::<G>(&players, g), GameEntry::Played(g.clone()), None, None);
        if let Err(e) = played {
            // What the case forces, or lets break a tolerated rule, a judge forces at the table
            // too; so does a step the case takes out of turn to set the scene (only the recorder's
            // own checks refuse it: its validate-level cases do not ask who is awaited).
            let excused = forced.contains(&i)
                || matches!(&e, GameError::Refused(v) if v.iter().all(|v| tolerated.contains(&v.rule) || v.rule.starts_with("KIFU-TURN")));
            assert!(excused, "{name}: given event {i} {g:?} cannot be recorded at a table: {e}");
            live.record(&store, judge(), forcing(g), None, None)
                .unwrap_or_else(|e| panic!("{name}: a judge cannot force given event {i}: {e}"));
        }
    }
    let want = &broke.now;
    if want.is_empty() {
        live.record(&store, actor_for::<G>(&players, event), GameEntry::Played(event.clone()), None, None)
            .unwrap_or_else(|e| panic!("{name}: the moment {event:?} breaks nothing and is refused at the table: {e}"));
    } else {
        let forced = live
            .record(&store, judge(), forcing(event), None, None)
            .unwrap_or_else(|e| panic!("{name}: a judge cannot force {event:?}: {e}"));
        let flagged: Vec<&str> = rule_ids(&forced.flagged).into_iter().filter(|r| !awaited_only(r, want)).collect();
        assert_eq!(&flagged, want, "{name}: forced at the table, flagged {:#?}", forced.flagged);
    }
    let moment = given.len() as u64;
    assert_eq!(late_findings(&live.audit().findings, moment), broke.late, "{name}: at the table, found late");
    check_imported_as_recorded::<G>(name, &store, &table, (moment, event), broke);
}

/// The findings the moment brought to light about earlier events: (where cited, rule), sorted.
fn late_findings(findings: &[Finding], moment: u64) -> Vec<(u64, &str)> {
    let mut got: Vec<(u64, &str)> = findings
        .iter()
        .filter(|f| f.found_at == Some(moment))
        .filter_map(|f| Some((f.seq?, f.rule.as_str())))
        .collect();
    got.sort_unstable();
    got.dedup();
    got
}

/// The recorder's awaited-seat check (KIFU-TURN-1), which the validate-level cases do not make:
/// it is the case's business only when the case names it.
fn awaited_only(rule: &str, want: &[&str]) -> bool {
    rule == "KIFU-TURN-1" && !want.contains(&rule)
}

/// The table's game, its moment played as the table played it, exported as JSON lines and
/// imported as recorded elsewhere: the audit cites exactly `want` at the moment, and any other
/// finding is one a judge resolved (a forced given event).
fn check_imported_as_recorded<G: Game>(
    name: &str,
    store: &SledStore,
    table: &StreamId,
    (at, event): (u64, &G::Event),
    broke: &Broken,
) {
    let want = &broke.now;
    let loaded = record::load::<G>(store, table).unwrap();
    let players = G::players(&loaded.config);
    let mut steps = loaded.steps;
    if let Some(last) = steps.last_mut() {
        last.actor = actor_for::<G>(&players, event);
        last.entry = GameEntry::Played(event.clone());
    }
    let elsewhere = StreamId::new("scenario-recorded-elsewhere").unwrap();
    let text = record::to_jsonl::<G>(&elsewhere, &loaded.config, &steps).unwrap();
    let parsed = record::parse_jsonl::<G>(&text, true).unwrap_or_else(|e| panic!("{name}: import as recorded: {e}"));
    record::import_entries::<G>(store, &elsewhere, &parsed.config, parsed.entries, Timestamp(0))
        .unwrap_or_else(|e| panic!("{name}: import as recorded: {e}"));
    let report = LiveGame::<G>::load(store, &elsewhere).unwrap().audit();
    assert_eq!(late_findings(&report.findings, at), broke.late, "{name}: imported as recorded, found late");
    let open: Vec<&Finding> = report
        .findings
        .iter()
        .filter(|f| f.resolution.is_none() && f.found_at.is_none() && !awaited_only(&f.rule, want))
        .collect();
    let elsewhere_cited: Vec<&&Finding> = open.iter().filter(|f| f.seq != Some(at)).collect();
    assert!(
        elsewhere_cited.is_empty(),
        "{name}: imported, findings not at the moment (event {at}): {elsewhere_cited:#?}"
    );
    let mut got: Vec<&str> = open.iter().map(|f| f.rule.as_str()).collect();
    got.sort_unstable();
    got.dedup();
    assert_eq!(&got, want, "{name}: imported as recorded, the audit found {open:#?}");
}

/// The scenario index of a game's cases (`src/games/{game}/scenarios.tsv`) is checked in: for every
/// rule ID of the coverage table, its illegal cases (the moment breaks it; counted with the
/// event it is cited at, `setup` for registering the decks) and its tricky ones (the case
/// covers it and the moment breaks nothing). UPDATE_EXPECT=1 rewrites it.
pub fn check_scenario_index<G: Game>(game: &str, cases: Vec<(&'static str, &'static [&'static str], Case<G>)>) {
    let mut counts: Vec<ScenarioCount> =
        G::coverage().iter().map(|r| ScenarioCount { rule: r.rule.to_string(), ..Default::default() }).collect();
    for (name, covers, case) in &cases {
        let (cited, late) = match fold_given::<G>(name, case) {
            None => ("setup".to_string(), vec![]),
            Some((state, e)) => (event_name(&e), broken::<G>(&state, &e).late),
        };
        for c in counts.iter_mut() {
            if case.then.contains(&c.rule.as_str()) {
                c.illegal += 1;
                // A violation found late is cited at the given event that made it.
                let late_at = late.iter().find(|(_, r)| *r == c.rule).and_then(|(at, _)| case.given.get(*at as usize));
                let cited = late_at.map_or_else(|| cited.clone(), event_name);
                if !c.cited_at.contains(&cited) {
                    c.cited_at.push(cited);
                }
            } else if case.then.is_empty() && covers.contains(&c.rule.as_str()) {
                c.tricky += 1;
            }
        }
    }
    let rel = format!("src/games/{game}/scenarios.tsv");
    check_coverage_markdown(&rel, &kifu::game::rules::scenarios_text(&counts), &format!("{game}::rules"));
}

/// An event's variant name as its JSON form spells it (a common event by its inner name).
fn event_name<E: serde::Serialize>(event: &E) -> String {
    let mut v = serde_json::to_value(event).unwrap_or_default();
    loop {
        match v {
            serde_json::Value::String(s) => return s,
            serde_json::Value::Object(m) if m.len() == 1 => {
                let Some((k, inner)) = m.into_iter().next() else { return "?".into() };
                if k != "Common" {
                    return k;
                }
                v = inner;
            }
            _ => return "?".into(),
        }
    }
}

/// Every rule the coverage table marks Enforced has a case, and no case claims an ID the table
/// does not list as Enforced (KIFU IDs are the recorder's own).
pub fn check_enforced_rules_have_cases(cases: &[(&str, &[&str])], coverage: Vec<RuleCoverage>) {
    let named: BTreeSet<&str> = cases.iter().flat_map(|(_, ids)| ids.iter().copied()).collect();
    let table: BTreeSet<&str> =
        coverage.into_iter().filter(|r| r.enforcement == Enforcement::Enforced).map(|r| r.rule).collect();
    let missing: Vec<&&str> = table.iter().filter(|r| !named.contains(**r)).collect();
    assert!(missing.is_empty(), "Enforced rules without a given/when/then case: {missing:?}");
    let stray: Vec<&&str> = named.iter().filter(|r| !r.starts_with("KIFU") && !table.contains(**r)).collect();
    assert!(stray.is_empty(), "cases cover IDs not marked Enforced: {stray:?}");
}

/// One `#[test]` per case, each running it through [`run_case`], and
/// `CASES`: (test name, rule IDs it covers) for every case.
/// `runner: PATH;` first runs each case through that function instead (the tournament rules'
/// cases, whose `Given` is a tournament, not a game).
macro_rules! cases {
    (runner: $run:path; $( $name:ident [$($id:literal),*] => $body:expr; )*) => {
        $(
            #[test]
            fn $name() {
                $run(stringify!($name), &[$($id),*], $body);
            }
        )*
        /// (test name, rule IDs it covers) for every case above.
        const CASES: &[(&str, &[&str])] = &[$((stringify!($name), &[$($id),*])),*];
    };
    ($( $name:ident [$($id:literal),*] => $body:expr; )*) => {
        $(
            #[test]
            fn $name() {
                $crate::game_support::run_case(stringify!($name), &[$($id),*], $body);
            }
        )*
        /// (test name, rule IDs it covers) for every case above.
        const CASES: &[(&str, &[&str])] = &[$((stringify!($name), &[$($id),*])),*];

        /// Every case above, built: what the scenario index counts (the toy game keeps none).
        #[allow(dead_code)]
        fn built_cases() -> Vec<(&'static str, &'static [&'static str], Case)> {
            vec![$((stringify!($name), &[$($id),*] as &'static [&'static str], $body)),*]
        }
    };
}
pub(crate) use cases;

// ---------------------------------------------------------------------------------------------
// Fixture games under replays/.
// ---------------------------------------------------------------------------------------------

/// The one line of `replays/expected*.txt` that pins a fixture: length, head hash, outcome and
/// every audit finding with its resolution.
pub fn fixture_summary(driver: &dyn Driver, name: &str, log: &VerifiedLog) -> String {
    let report = driver.audit(log).unwrap();
    let outcome = match &report.outcome {
        Some(o) => format!("winners={:?} ({})", o.winners(), o.reason),
        None => "unfinished".into(),
    };
    let findings: Vec<String> = report
        .findings
        .iter()
        .map(|x| {
            format!(
                "{}:{}:{}",
                x.seq.map_or("end".into(), |s| s.to_string()),
                x.rule,
                if x.resolution.is_some() { "ruled" } else { "UNRESOLVED" }
            )
        })
        .collect();
    format!("{name} events={} head={} {outcome} findings=[{}]\n", log.head.len, log.head.hash, findings.join(" "))
}

/// Pins a regenerated fixture's `.kifu`, `.json` and `.jsonl` files; returns its summary line.
pub fn pin_fixture(driver: &dyn Driver, name: &str, log: &VerifiedLog) -> String {
    let base = format!("replays/{name}");
    ensure_file_contents(&format!("{base}.kifu"), &file::write(log));
    let mut j = serde_json::to_string_pretty(&json::to_json(log).unwrap()).unwrap();
    j.push('\n');
    ensure_file_contents(&format!("{base}.json"), j.as_bytes());
    ensure_file_contents(&format!("{base}.jsonl"), as_pinned_jsonl(log, driver.export_jsonl(log).unwrap()).as_bytes());
    fixture_summary(driver, name, log)
}

/// An export as its pinned `.jsonl` fixture holds it. Every export names its rules version now,
/// but version 1's exports left `rules_version` out, and the pinned version 1 fixtures stay as
/// they were written (a file naming none reads as version 1). So for a version 1 log the one
/// field is taken out of the header line, where an export writes it right after `game`, and the
/// rest is still compared byte for byte: a regenerated fixture keeps its bytes.
pub fn as_pinned_jsonl(log: &VerifiedLog, export: String) -> String {
    let h = log.header.v1();
    if h.ruleset_version != 1 {
        return export;
    }
    let named = format!("{{\"game\":{},\"rules_version\":1,", serde_json::to_string(&h.ruleset).unwrap());
    assert!(
        export.starts_with(&named),
        "a version 1 export names its version: {}",
        &export[..named.len().min(export.len())]
    );
    format!("{{\"game\":{},{}", serde_json::to_string(&h.ruleset).unwrap(), &export[named.len()..])
}

/// Checks one checked-in fixture against its `expected` line: the README describes it, it audits
/// to that line, its JSON log form is the same log byte for byte, and a store import and export
/// leaves it unchanged. Returns the log and its JSON lines for the game's own entry checks.
pub fn check_checked_in_fixture(driver: &dyn Driver, line: &str) -> (VerifiedLog, String) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("replays");
    let readme = std::fs::read_to_string(dir.join("README.md")).unwrap();
    let name = line.split(' ').next().unwrap();
    assert!(readme.contains(&format!("`{name}`")), "replays/README.md describes {name}");
    let bytes = std::fs::read(dir.join(format!("{name}.kifu"))).unwrap();
    let log = file::read(&bytes).unwrap();
    assert_eq!(fixture_summary(driver, name, &log), format!("{line}\n"));
    let j = json::from_json_str(&std::fs::read_to_string(dir.join(format!("{name}.json"))).unwrap()).unwrap();
    assert_eq!((j.header_bytes, j.events), (log.header_bytes.clone(), log.events.clone()));
    let s = SledStore::temporary(Arc::new(SteppingClock::fixed())).unwrap();
    s.import(&log).unwrap();
    assert_eq!(file::write(&s.export(log.header.stream()).unwrap()), bytes);
    let jsonl = std::fs::read_to_string(dir.join(format!("{name}.jsonl"))).unwrap();
    (log, jsonl)
}

// ---------------------------------------------------------------------------------------------
// Who may act.
// ---------------------------------------------------------------------------------------------

/// The kind of an event from its debug form: the variant name, with the inner variant for a
/// wrapped common event (`Common(ChainLinkRevealed`).
pub use kifu::game::reach::event_kind;

/// Self-plays `seeds` games of `G` for each player list of `tables` and asserts that every agent
/// event's acting seat was awaited by the state before it ([`kifu::game::selfplay::unawaited`]),
/// and that the generic self-play (which enforces it) completes. Returns how many events of each
/// kind were checked, so a caller can assert the seat-carrying kinds came up.
pub fn check_every_actor_was_awaited<G: Game>(
    seeds: std::ops::Range<u64>,
    tables: &[Vec<String>],
) -> BTreeMap<String, usize> {
    let mut checked: BTreeMap<String, usize> = BTreeMap::new();
    let mut unawaited: BTreeMap<String, (usize, String)> = BTreeMap::new();
    for players in tables {
        for seed in seeds.clone() {
            let mut rng = AgentRng::seed_from_u64(seed);
            let (config, mut secrets) = G::self_play_config(players, &mut rng);
            let mut state = G::setup(&config).unwrap_or_else(|v| panic!("seed {seed}: config rejected: {v:?}"));
            for seq in 0..50_000u64 {
                let Some(event) = G::agent_step(&state, &mut secrets, &mut rng) else { break };
                let kind = event_kind(&event);
                if G::acting_seat(&event).is_some() {
                    *checked.entry(kind.clone()).or_default() += 1;
                }
                if let Some(v) = kifu::game::selfplay::unawaited::<G>(&state, &event) {
                    let p = G::position(&state);
                    let e = unawaited.entry(kind).or_insert((0, String::new()));
                    e.0 += 1;
                    if e.1.is_empty() {
                        e.1 = format!(
                            "{} seats, seed {seed}, event {seq} at {}/{} (turn of {:?}): {}",
                            players.len(),
                            p.phase,
                            p.step,
                            p.active,
                            v.message
                        );
                    }
                }
                G::ledger_mut(&mut state).at(seq);
                state = G::apply(state, &event);
            }
            if unawaited.is_empty() {
                if let Err(v) = kifu::game::selfplay::self_play::<G>(seed, players, 50_000) {
                    panic!("seed {seed}: self-play refused: {v:?}");
                }
            }
        }
    }
    assert!(unawaited.is_empty(), "events by seats the state did not await (kind: count, first):\n{unawaited:#?}");
    checked
}

/// `n` player names, for games of more than two seats.
pub fn table(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("p{i}")).collect()
}

/// Self-plays `seeds` games of `G` for each player list of `tables` and audits each through the
/// generic audit (so a game with `CHECKS_AWAITED` checks every acting seat was awaited): every
/// report is clean and has an outcome.
pub fn check_self_play_audits_clean<G: Game>(seeds: std::ops::Range<u64>, tables: &[Vec<String>]) {
    use kifu::game::replay::Step;
    use kifu::log::envelope::Timestamp;
    for players in tables {
        for seed in seeds.clone() {
            let game = kifu::game::selfplay::self_play::<G>(seed, players, 50_000)
                .unwrap_or_else(|v| panic!("seed {seed}: {v:?}"));
            let steps: Vec<Step<G::Event>> = game
                .entries
                .into_iter()
                .enumerate()
                .map(|(i, (actor, entry))| Step { seq: i as u64, recorded_at: Timestamp(0), actor, entry })
                .collect();
            let (report, _) = kifu::game::audit::audit::<G>(game.config, steps)
                .unwrap_or_else(|v| panic!("{} seats, seed {seed}: {v:?}", players.len()));
            assert!(report.is_clean(), "{} seats, seed {seed}: {:?}", players.len(), report.findings);
            assert!(report.outcome.is_some(), "{} seats, seed {seed}: no outcome", players.len());
        }
    }
}

/// The README's coverage table (between `<!-- rules-coverage -->` markers) is what every game's
/// coverage rows, scenario index and unrecordable list say; UPDATE_EXPECT=1 rewrites it.
#[test]
fn the_readmes_coverage_table_is_current() {
    let mut table = String::from(
        "| game | rule IDs | enforced | enforced with an illegal and a tricky scenario | actions a table cannot record |\n\
         |---|---|---|---|---|\n",
    );
    for d in kifu::games::drivers() {
        let s = kifu::game::rules::rules_summary(&d.coverage(), &d.scenarios(), d.unrecordable());
        table.push_str(&format!(
            "| {} | {} | {} | {} | {} |\n",
            d.ruleset(),
            s.rule_ids,
            s.enforced,
            s.enforced_with_both_cases,
            s.cannot_record
        ));
    }
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md");
    let readme = std::fs::read_to_string(&path).unwrap();
    let (open, close) = ("<!-- rules-coverage -->\n", "<!-- /rules-coverage -->");
    let start = readme.find(open).expect("the README has a rules-coverage block") + open.len();
    let end = readme[start..].find(close).expect("the rules-coverage block is closed") + start;
    if readme[start..end] == table {
        return;
    }
    if std::env::var("UPDATE_EXPECT").is_ok_and(|v| v == "1") {
        std::fs::write(&path, format!("{}{table}{}", &readme[..start], &readme[end..])).unwrap();
        return;
    }
    panic!("README.md's rules coverage table is out of date; regenerate it with `UPDATE_EXPECT=1 cargo test --release readmes_coverage`");
}
