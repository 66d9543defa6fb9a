//! Naruto and Vanguard in the newer shapes (rules versions 2 and 3): new games self-play and audit
//! clean under them, record the common events and are held to who may act (`KIFU-TURN-1`), while
//! every pinned version 1 fixture still opens, replays and audits through the registry under its
//! own rules, byte for byte as pinned.

use std::path::Path;
use std::sync::Arc;

use rand::SeedableRng;

use kifu::clock::SteppingClock;
use kifu::game::audit;
use kifu::game::common::CommonEvent;
use kifu::game::record;
use kifu::game::replay::Step;
use kifu::game::{AgentRng, Game, GameEntry, Viewer};
use kifu::games::naruto::events::CoinSide;
use kifu::games::naruto::{Naruto, NarutoEvent, NarutoV2, NarutoV3, NarutoV4, NarutoV5, NarutoV7};
use kifu::games::vanguard::{Vanguard, VanguardEvent, VanguardV2};
use kifu::log::envelope::{StreamId, Timestamp};
use kifu::log::file;
use kifu::store::sled_store::SledStore;
use kifu::store::Store;

use crate::game_support::{
    cases, check_every_actor_was_awaited, check_self_play_audits_clean, fixture_summary, table, Case,
};

fn store() -> SledStore {
    SledStore::temporary(Arc::new(SteppingClock::fixed())).unwrap()
}

// ---------------------------------------------------------------------------------------------
// Version 2 self-plays and audits clean.
// ---------------------------------------------------------------------------------------------

#[test]
fn naruto_v2_self_plays_and_audits_clean_holding_every_seat_to_its_turn() {
    const _: () = assert!(NarutoV2::CHECKS_AWAITED && NarutoV2::RULESET_VERSION == 2);
    check_self_play_audits_clean::<NarutoV2>(0..60, &[table(2)]);
    check_every_actor_was_awaited::<NarutoV2>(0..60, &[table(2)]);
}

/// Version 3 plays version 2's game (only its findings' rule IDs are more specific): it too
/// self-plays and audits clean, every seat held to its turn.
#[test]
fn naruto_v3_self_plays_and_audits_clean_holding_every_seat_to_its_turn() {
    const _: () = assert!(NarutoV3::CHECKS_AWAITED && NarutoV3::RULESET_VERSION == 3);
    check_self_play_audits_clean::<NarutoV3>(0..60, &[table(2)]);
    check_every_actor_was_awaited::<NarutoV3>(0..60, &[table(2)]);
}

/// Version 4 holds the escape hatches to the rules; its agent's own (a modifier on a ninja on the
/// battlefield) keeps to them: it self-plays and audits clean, every seat held to its turn.
#[test]
fn naruto_v4_self_plays_and_audits_clean_holding_every_seat_to_its_turn() {
    const _: () = assert!(NarutoV4::CHECKS_AWAITED && NarutoV4::RULESET_VERSION == 4);
    check_self_play_audits_clean::<NarutoV4>(0..60, &[table(2)]);
    check_every_actor_was_awaited::<NarutoV4>(0..60, &[table(2)]);
}

#[test]
fn naruto_v5_self_plays_and_audits_clean_holding_every_seat_to_its_turn() {
    const _: () = assert!(NarutoV5::CHECKS_AWAITED && NarutoV5::RULESET_VERSION == 5);
    check_self_play_audits_clean::<NarutoV5>(0..60, &[table(2)]);
    check_every_actor_was_awaited::<NarutoV5>(0..60, &[table(2)]);
}

/// Version 7 takes every battle reward face down (blind marks, no card named) and still
/// self-plays and audits clean, holding every seat to its turn.
#[test]
fn naruto_v7_self_plays_and_audits_clean_taking_rewards_face_down() {
    const _: () = assert!(NarutoV7::CHECKS_AWAITED && NarutoV7::RULESET_VERSION == 7);
    check_self_play_audits_clean::<NarutoV7>(0..60, &[table(2)]);
    check_every_actor_was_awaited::<NarutoV7>(0..60, &[table(2)]);
    let mut rewards = 0;
    for seed in 0..20 {
        let (_, events) = crate::options::self_played::<NarutoV7>(seed, &["ana".into(), "rui".into()], 20_000);
        for e in &events {
            if let NarutoEvent::BattleRewardTaken { cards, .. } = e {
                rewards += 1;
                assert!(cards.iter().all(|c| matches!(c, kifu::games::naruto::events::CardRef::Sealed(_))), "{e:?}");
            }
        }
    }
    assert!(rewards > 0, "no battle reward in 20 games");
}

#[test]
fn vanguard_v2_self_plays_and_audits_clean_holding_every_seat_to_its_turn() {
    const _: () = assert!(VanguardV2::CHECKS_AWAITED && VanguardV2::RULESET_VERSION == 2);
    check_self_play_audits_clean::<VanguardV2>(0..60, &[table(2)]);
    check_every_actor_was_awaited::<VanguardV2>(0..60, &[table(2)]);
}

#[test]
fn vanguard_v4_self_plays_and_audits_clean_holding_every_seat_to_its_turn() {
    use kifu::games::vanguard::VanguardV4;
    const _: () = assert!(VanguardV4::CHECKS_AWAITED && VanguardV4::RULESET_VERSION == 4);
    check_self_play_audits_clean::<VanguardV4>(0..30, &[table(2)]);
    check_every_actor_was_awaited::<VanguardV4>(0..30, &[table(2)]);
}

#[test]
fn vanguard_v5_self_plays_and_audits_clean_holding_every_seat_to_its_turn() {
    use kifu::games::vanguard::VanguardV5;
    const _: () = assert!(VanguardV5::CHECKS_AWAITED && VanguardV5::RULESET_VERSION == 5);
    check_self_play_audits_clean::<VanguardV5>(0..30, &[table(2)]);
    check_every_actor_was_awaited::<VanguardV5>(0..30, &[table(2)]);
}

/// Given the registry, when it self-plays a new Naruto game, then the game is recorded under
/// version 7 (the newest), audits clean, and a digital game's seed is the common `SeedCommitted` /
/// `SeedRevealed` (the dealer's, `seat: None`), never version 1's own seed events.
#[test]
fn a_new_naruto_game_records_version_7_and_the_common_seed_events() {
    let driver = kifu::games::driver("naruto").unwrap();
    assert_eq!(driver.ruleset_version(), 7);
    let s = store();
    let (mut common, mut digital) = (0, 0);
    for seed in 0..12u64 {
        let id = StreamId::new(&format!("v6-{seed}")).unwrap();
        driver.self_play(&s, &id, seed, &table(2), Timestamp(0)).unwrap();
        let log = s.export(&id).unwrap();
        assert_eq!(log.header.v1().ruleset_version, 7);
        let report = driver.audit(&log).unwrap();
        assert!(report.is_clean() && report.outcome.is_some(), "seed {seed}: {:?}", report.findings);
        let game = record::from_log::<NarutoV7>(&log).unwrap();
        let events: Vec<&NarutoEvent> = game
            .steps
            .iter()
            .filter_map(|st| match &st.entry {
                GameEntry::Played(e) => Some(e),
                _ => None,
            })
            .collect();
        assert!(
            !events.iter().any(|e| matches!(e, NarutoEvent::SeedCommitted { .. } | NarutoEvent::SeedRevealed { .. })),
            "seed {seed}: version 7 records the common seed events"
        );
        let seeds = events
            .iter()
            .filter(|e| {
                matches!(
                    e,
                    NarutoEvent::Common(
                        CommonEvent::SeedCommitted { seat: None, .. } | CommonEvent::SeedRevealed { seat: None, .. }
                    )
                )
            })
            .count();
        if seeds > 0 {
            assert_eq!(seeds, 2, "seed {seed}: one commitment and one reveal");
            digital += 1;
        }
        common += seeds;
    }
    assert!(digital > 0 && common > 0, "no digital game among twelve");
}

/// Version 2's self-play mixes every policy row through the shared `mix_policies`: over a few
/// dozen seeds every row of its table takes some value other than the default.
#[test]
fn naruto_v2_self_play_mixes_every_policy_row() {
    use kifu::game::policy::PolicyTable;
    let mut moved: std::collections::BTreeSet<String> = Default::default();
    for seed in 0..64u64 {
        let (config, _) = NarutoV2::self_play_config(&table(2), &mut AgentRng::seed_from_u64(seed));
        let defaults = kifu::games::naruto::config::Policies::default().to_pairs();
        for (pair, default) in config.policies().to_pairs().into_iter().zip(defaults) {
            if pair != default {
                moved.insert(pair.0.to_string());
            }
        }
        if config.v1().shuffles == kifu::games::naruto::config::ShuffleMode::Digital {
            moved.insert("shuffles".into());
        }
    }
    use kifu::game::selfplay::Mix;
    let rows: Vec<&str> = kifu::games::naruto::agent::V2_MIX
        .iter()
        .map(|m| match m {
            Mix::Coin { key, .. } | Mix::Pick { key, .. } | Mix::Maybe { key, .. } => *key,
        })
        .collect();
    for row in rows {
        assert!(moved.contains(row), "{row} never left its default: {moved:?}");
    }
}

// ---------------------------------------------------------------------------------------------
// Version 1's pinned fixtures still open, replay and audit through the registry.
// ---------------------------------------------------------------------------------------------

/// Given the registry that now creates later versions' games, when it opens each pinned version 1
/// fixture of Naruto and Vanguard, then the fixture audits to its pinned line, replays to the end
/// with a timeline entry per event, exports the same JSON lines as version 1's own driver, and
/// stays version 1.
#[test]
fn every_version_1_fixture_still_opens_replays_and_audits_under_version_1() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("replays");
    let mut seen = 0;
    for (ruleset, expected) in [
        ("naruto", "expected.txt"),
        ("naruto", "expected-as-recorded.txt"),
        ("vanguard", "expected-vanguard.txt"),
        ("vanguard", "expected-as-recorded.txt"),
    ] {
        let registry = kifu::games::driver(ruleset).unwrap();
        let v1 = kifu::games::released(ruleset, 1).unwrap();
        assert!(registry.ruleset_version() > 1, "{ruleset}: the registry creates a later version");
        let text = std::fs::read_to_string(dir.join(expected)).unwrap();
        for line in text.lines().filter(|l| l.starts_with(ruleset)) {
            let name = line.split(' ').next().unwrap();
            let log = file::read(&std::fs::read(dir.join(format!("{name}.kifu"))).unwrap()).unwrap();
            assert_eq!(log.header.v1().ruleset_version, 1, "{name}");
            assert_eq!(fixture_summary(registry, name, &log), format!("{line}\n"), "{name}");
            assert_eq!(registry.audit(&log).unwrap(), v1.audit(&log).unwrap(), "{name}");
            assert_eq!(registry.export_jsonl(&log).unwrap(), v1.export_jsonl(&log).unwrap(), "{name}");
            let session = registry.open(&log).unwrap();
            assert_eq!(session.len(), log.head.len, "{name}");
            assert_eq!(session.timeline(Viewer::Judge).len() as u64, log.head.len, "{name}");
            seen += 1;
        }
    }
    assert!(seen >= 8, "only {seen} fixtures");
}

// ---------------------------------------------------------------------------------------------
// Given/when/then: who may act, version 1 against version 2.
// ---------------------------------------------------------------------------------------------

/// The events of a self-played game of `G` from `seed` up to (not including) the first state
/// `stop` accepts, and its configuration: a position that self-play reaches.
fn given_until<G: Game>(seed: u64, stop: impl Fn(&G::State) -> bool) -> (G::Config, Vec<G::Event>, G::State) {
    let mut rng = AgentRng::seed_from_u64(seed);
    let (config, mut secrets) = G::self_play_config(&table(2), &mut rng);
    let mut state = G::setup(&config).unwrap();
    let mut given = Vec::new();
    while !stop(&state) {
        let event = G::agent_step(&state, &mut secrets, &mut rng).expect("the position comes up before the end");
        G::ledger_mut(&mut state).at(given.len() as u64);
        state = G::apply(state, &event);
        given.push(event);
    }
    (config, given, state)
}

/// Runs a case through the recorder's checks (the game's `validate` and the seat checks every
/// game shares, `KIFU-TURN-1` among them): `given` must audit clean, and the findings at `when`
/// are `then`.
fn recorded<G: Game>(name: &str, covers: &[&str], c: Case<G>) {
    let kifu_only = c.then.iter().all(|id| id.starts_with("KIFU") || covers.contains(id));
    assert!(kifu_only, "{name}: expects IDs it does not declare");
    let crate::game_support::When::Event(when) = c.when else { panic!("{name}: a recorded case has an event") };
    let players = G::players(&c.config);
    let at = c.given.len() as u64;
    let steps: Vec<Step<G::Event>> = c
        .given
        .into_iter()
        .chain([when])
        .enumerate()
        .map(|(i, e)| Step {
            seq: i as u64,
            recorded_at: Timestamp(0),
            actor: record::actor_for::<G>(&players, &e),
            entry: GameEntry::Played(e),
        })
        .collect();
    let (report, _) = audit::audit::<G>(c.config, steps).unwrap();
    let before: Vec<_> = report.findings.iter().filter(|f| f.seq.is_some_and(|s| s < at)).collect();
    assert!(before.is_empty(), "{name}: the given events are not clean: {before:?}");
    let mut got: Vec<&str> = report.findings.iter().filter(|f| f.seq == Some(at)).map(|f| f.rule.as_str()).collect();
    got.sort();
    got.dedup();
    let mut want = c.then.clone();
    want.sort();
    assert_eq!(got, want, "{name}: findings {:?}", report.findings);
}

/// A Naruto block step (only the blocker is awaited) and the attacker, from a game of version `G`.
fn naruto_block<G: Game<State = kifu::games::naruto::NarutoState, Event = NarutoEvent>>(
) -> (G::Config, Vec<NarutoEvent>, u8) {
    let (config, given, state) =
        given_until::<G>(3, |s| s.step == kifu::games::naruto::events::Step::Block && s.result.is_none());
    (config, given, state.attacker.unwrap())
}

/// The attacker flipping a coin for an effect during the block: Naruto's own rules record it
/// whenever it happens (NAR-EQUIP-2 is recorded, not enforced).
fn coin_by(seat: u8) -> NarutoEvent {
    NarutoEvent::CoinFlipped { seat, result: CoinSide::Heads, purpose: "an effect".into() }
}

/// A Vanguard main phase (only the turn player is awaited) and the turn player.
fn vanguard_main<G: Game<State = kifu::games::vanguard::VanguardState, Event = VanguardEvent>>(
) -> (G::Config, Vec<VanguardEvent>, u8) {
    let (config, given, state) =
        given_until::<G>(2, |s| s.phase == kifu::games::vanguard::events::Phase::Main && s.result.is_none());
    (config, given, state.active.unwrap())
}

fn note_by(seat: u8) -> VanguardEvent {
    VanguardEvent::Common(CommonEvent::NoteRecorded { seat: Some(seat), note: "an effect resolved".into() })
}

cases! {
    runner: recorded;
    // Given a Naruto block step (the blocker awaited), when the attacker records a coin flip,
    // then version 2 refuses it (KIFU-TURN-1) where version 1 recorded it.
    naruto_v2_refuses_an_action_by_a_seat_it_does_not_await ["KIFU-TURN-1"] => {
        let (config, given, attacker) = naruto_block::<NarutoV2>();
        Case::<NarutoV2>::event(config, given, coin_by(attacker), &["KIFU-TURN-1"])
    };
    naruto_v1_records_the_same_action_as_released [] => {
        let (config, given, attacker) = naruto_block::<Naruto>();
        Case::<Naruto>::event(config, given, coin_by(attacker), &[])
    };
    // Given a Naruto block step, when the blocker (awaited) records the coin flip, then both
    // versions accept it.
    naruto_v2_accepts_the_awaited_seat [] => {
        let (config, given, attacker) = naruto_block::<NarutoV2>();
        Case::<NarutoV2>::event(config, given, coin_by(kifu::game::opponent(attacker)), &[])
    };
    // Given a Vanguard main phase (the turn player awaited), when the other player records a
    // common note, then version 2 refuses it and version 1 does not.
    vanguard_v2_refuses_an_action_by_a_seat_it_does_not_await ["KIFU-TURN-1"] => {
        let (config, given, active) = vanguard_main::<VanguardV2>();
        Case::<VanguardV2>::event(config, given, note_by(kifu::game::opponent(active)), &["KIFU-TURN-1"])
    };
    vanguard_v1_records_the_same_action_as_released [] => {
        let (config, given, active) = vanguard_main::<Vanguard>();
        Case::<Vanguard>::event(config, given, note_by(kifu::game::opponent(active)), &[])
    };
    // Talk at the table interjects: a chat line by the player not awaited is never refused.
    vanguard_v2_lets_either_player_chat_at_any_moment [] => {
        let (config, given, active) = vanguard_main::<VanguardV2>();
        let chat = VanguardEvent::ChatMessage { seat: kifu::game::opponent(active), text: "gg".into() };
        Case::<VanguardV2>::event(config, given, chat, &[])
    };
}

/// Every case above names only the recorder's own IDs: the version difference is `KIFU-TURN-1`.
#[test]
fn the_version_cases_cover_only_kifu_ids() {
    assert!(CASES.iter().all(|(_, ids)| ids.iter().all(|id| id.starts_with("KIFU-"))));
    assert!(CASES.len() >= 6);
}

// ---------------------------------------------------------------------------------------------
// JSON lines name their rules version: an exported game imports under its own rules.
// ---------------------------------------------------------------------------------------------

/// Given a game self-played under the version before the newest, of every ruleset with more
/// than one version, when it is exported as JSON lines and imported into another store through
/// the registry (which creates new games under the newest), then the file names its version,
/// the import is refused nothing and stays under that version, and it audits as the original.
#[test]
fn an_exported_game_imports_under_the_rules_version_it_was_recorded_under() {
    let mut seen = 0;
    for ruleset in ["naruto", "vanguard", "brk", "fate"] {
        let registry = kifu::games::driver(ruleset).unwrap();
        let version = registry.ruleset_version() - 1;
        let older = kifu::games::released(ruleset, version).unwrap();
        let (from, to) = (store(), store());
        let id = StreamId::new(&format!("{ruleset}-v{version}")).unwrap();
        older.self_play(&from, &id, 7, &table(if ruleset == "fate" { 4 } else { 2 }), Timestamp(0)).unwrap();
        let log = from.export(&id).unwrap();
        let text = registry.export_jsonl(&log).unwrap();
        let named = format!("{{\"game\":\"{ruleset}\",\"rules_version\":{version},");
        assert!(text.starts_with(&named), "{ruleset}: {}", &text[..80]);
        let (copy, _) = registry.import_jsonl(&to, &text, None, Timestamp(0), false).unwrap();
        let imported = to.export(&copy).unwrap();
        assert_eq!(imported.header.v1().ruleset_version, version, "{ruleset}");
        assert_eq!(registry.audit(&imported).unwrap().findings, registry.audit(&log).unwrap().findings, "{ruleset}");
        assert_eq!(registry.jsonl_log(&text).unwrap().header.v1().ruleset_version, version, "{ruleset}");
        seen += 1;
    }
    assert_eq!(seen, 4);
}

/// Given JSON lines whose first line names a rules version this build lacks, when they are
/// imported or audited, then nothing is stored and the problem names the versions there are; a
/// version's own driver refuses a file naming another version; the pinned version 1 export names
/// none (exports name their version since; a file naming none is version 1's).
#[test]
fn a_rules_version_this_build_lacks_is_refused_by_name() {
    let registry = kifu::games::driver("naruto").unwrap();
    let v1 = kifu::games::released("naruto", 1).unwrap();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("replays");
    let text = std::fs::read_to_string(dir.join("naruto-physical.jsonl")).unwrap();
    assert!(!text.lines().next().unwrap().contains("rules_version"), "the pinned version 1 export stays as written");
    let future = text.replacen("{\"game\":\"naruto\",", "{\"game\":\"naruto\",\"rules_version\":99,", 1);
    let s = store();
    let err = registry.import_jsonl(&s, &future, None, Timestamp(0), true).unwrap_err().to_string();
    assert!(err.contains("naruto rules version 99; this build has version(s) 1, 2, 3, 4, 5"), "{err}");
    assert!(s.streams().unwrap().is_empty(), "nothing stored");
    assert!(registry.jsonl_log(&future).is_err());
    let named_2 = text.replacen("{\"game\":\"naruto\",", "{\"game\":\"naruto\",\"rules_version\":2,", 1);
    let err = v1.import_jsonl(&s, &named_2, None, Timestamp(0), true).unwrap_err().to_string();
    assert!(err.contains("naruto rules version 2; this build has version(s) 1"), "{err}");
    let named_1 = text.replacen("{\"game\":\"naruto\",", "{\"game\":\"naruto\",\"rules_version\":1,", 1);
    let (id, _) = registry.import_jsonl(&s, &named_1, None, Timestamp(0), false).unwrap();
    assert_eq!(s.export(&id).unwrap().header.v1().ruleset_version, 1);
}

// ---------------------------------------------------------------------------------------------
// The per-version table, generated from each game's `rules_version::Rules`.
// ---------------------------------------------------------------------------------------------

/// One game's rules versions as the docs table shows them: its newest version, every behaviour
/// (name, the version that added it, its doc) and, for each version, which behaviours it has.
struct RulesTable {
    ruleset: &'static str,
    newest: u32,
    behaviours: &'static [(&'static str, u32, &'static str)],
    flags: fn(u32) -> Vec<(&'static str, bool)>,
}

/// The table of the game module `kifu::games::$game`, whose ruleset name is the module's.
macro_rules! rules_table {
    ($game:ident) => {
        RulesTable {
            ruleset: stringify!($game),
            newest: kifu::games::$game::rules_version::Rules::NEWEST,
            behaviours: kifu::games::$game::rules_version::Rules::BEHAVIOURS,
            flags: |v| kifu::games::$game::rules_version::rules(v).flags(),
        }
    };
}

fn rules_tables() -> Vec<RulesTable> {
    vec![rules_table!(naruto), rules_table!(vanguard), rules_table!(lc), rules_table!(brk), rules_table!(fate)]
}

/// A doc comment on one line, for a table cell.
fn one_line(doc: &str) -> String {
    doc.split_whitespace().collect::<Vec<_>>().join(" ").replace('|', "\\|")
}

fn render_rules_table(t: &RulesTable) -> String {
    let versions: Vec<u32> = (1..=t.newest).collect();
    let mut out = format!("\n## {}\n\n", t.ruleset);
    if t.behaviours.is_empty() {
        out.push_str(&format!("Version {} only: no behaviour differs between versions yet.\n", t.newest));
        return out;
    }
    out.push_str(&format!("Versions 1 to {}; new games record version {}.\n\n", t.newest, t.newest));
    let heads: Vec<String> = versions.iter().map(|v| format!("v{v}")).collect();
    out.push_str(&format!("| behaviour | {} | what and why |\n", heads.join(" | ")));
    out.push_str(&format!("|---|{}---|\n", "---|".repeat(versions.len())));
    let flags: Vec<_> = versions.iter().map(|v| (t.flags)(*v)).collect();
    for (name, _, doc) in t.behaviours {
        let cells: Vec<&str> = flags
            .iter()
            .map(|f| match f.iter().find(|(n, _)| n == name) {
                Some((_, true)) => "yes",
                _ => "",
            })
            .collect();
        out.push_str(&format!("| `{name}` | {} | {} |\n", cells.join(" | "), one_line(doc)));
    }
    out
}

/// `docs/rules-versions.md` is generated from the games' `Rules` structs, so the per-version
/// table cannot drift from the code; each game's newest version is the newest its registry
/// has, and every later version adds at least one behaviour.
#[test]
fn rules_versions_doc_is_generated_from_the_rules_structs() {
    let mut want = String::from(
        "# Rules versions\n\n\
         What each game's rules versions do differently, one behaviour a row, each from the version \
         that added it. Generated from each game's `src/games/<game>/rules_version.rs` (the `Rules` \
         struct `kifu::rules_version!` writes) by `tests/it/rules_versions.rs`; do not edit by hand, \
         regenerate with `UPDATE_EXPECT=1 cargo test --release --test it rules_versions_doc`.\n",
    );
    for t in rules_tables() {
        for v in 1..=t.newest {
            let driver = kifu::games::released(t.ruleset, v);
            assert_eq!(driver.map(|d| d.ruleset_version()), Some(v), "{} version {v} is released", t.ruleset);
        }
        assert!(kifu::games::released(t.ruleset, t.newest + 1).is_none(), "{}'s newest version", t.ruleset);
        for v in 2..=t.newest {
            assert!(t.behaviours.iter().any(|b| b.1 == v), "{} version {v} names what it changed", t.ruleset);
        }
        assert!(t.behaviours.iter().all(|b| (2..=t.newest).contains(&b.1)), "{}: a behaviour's version", t.ruleset);
        want.push_str(&render_rules_table(&t));
    }
    crate::game_support::check_coverage_markdown("docs/rules-versions.md", &want, "--test it rules_versions_doc");
}
