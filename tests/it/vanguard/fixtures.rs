//! The Vanguard fixture games under replays/, regenerated from deterministic recipes and pinned
//! byte for byte (like tests/it/fixtures.rs): a clean self-played game, and a game played through
//! the client's manual operations that breaks rules, shipped both as the client log
//! (`vanguard-manual.vgclog`, the sample for `kifu game import --from vgc-log`) and as the
//! imported game. `UPDATE_EXPECT=1 cargo test --release vanguard::fixtures` rewrites them.

use std::path::Path;
use std::sync::Arc;

use kifu::clock::SteppingClock;
use kifu::game::driver::Driver;
use kifu::game::record;
use kifu::game::Game;
use kifu::games::vanguard::agent::client_ops;
use kifu::games::vanguard::catalog::{Catalog, TriggerType};
use kifu::games::vanguard::events::{ClientOp, LossReason, Phase, Place, PowerEdit};
use kifu::games::vanguard::{vgclog, Vanguard, VanguardEvent as E, VanguardState};
use kifu::log::chain::VerifiedLog;
use kifu::log::envelope::StreamId;
use kifu::store::sled_store::SledStore;
use kifu::store::Store;

use crate::game_support::{check_checked_in_fixture, pin_fixture};
use crate::support::ensure_file_contents;

fn store() -> SledStore {
    SledStore::temporary(Arc::new(SteppingClock::fixed())).unwrap()
}

fn t0() -> kifu::log::envelope::Timestamp {
    kifu::log::envelope::Timestamp(1_767_225_600_000_000)
}

/// Version 1's driver: the fixtures were recorded under it, so their recipes pin it.
fn driver() -> &'static dyn Driver {
    kifu::games::released("vanguard", 1).unwrap()
}

fn players() -> Vec<String> {
    vec!["alice".to_string(), "bob".to_string()]
}

fn self_played(name: &str, seed: u64) -> VerifiedLog {
    let s = store();
    let id = StreamId::new(name).unwrap();
    driver().self_play(&s, &id, seed, &players(), t0()).unwrap();
    s.export(&id).unwrap()
}

/// The client log of a self-played game (as the client's manual operations), with rule-breaking
/// operations slipped in: an attack by hand on the first turn, a power edit that is not a multiple
/// of 100, a G unit put into the main deck, a heal while the player had less damage than the
/// opponent, and a seventh damage card with no loss recorded. `None` if the game offers no spot.
fn manual_log(seed: u64) -> Option<String> {
    let game = super::play(seed, true);
    let mut config = game.config.clone();
    // The header's players are the fixture's names.
    let kifu::games::vanguard::VanguardConfig::V1(c) = &mut config;
    c.players = players();
    let names_now = players();
    let strode: Vec<String> = game
        .events
        .iter()
        .filter_map(|e| if let E::Strode { g_unit, .. } = e { Some(g_unit.clone()) } else { None })
        .collect();
    let last = game.events.last()?;
    let E::GameEnded { loser: Some(loser), reason: LossReason::SixDamage } = last else { return None };
    let mut client = Vanguard::setup(&config).ok()?;
    let mut lines: Vec<String> = Vec::new();
    let mut done = [false; 4];
    let push = |client: &mut VanguardState, lines: &mut Vec<String>, e: E| {
        lines.push(vgclog::line(&names_now, &e).unwrap_or_default());
        *client = Vanguard::apply(client.clone(), &e);
    };
    for (i, event) in game.events.iter().enumerate() {
        if i + 1 == game.events.len() {
            // A seventh damage card: the loser checks once more instead of recording the loss.
            let p = client.players.get(*loser)?;
            let card = p.deck.iter().find(|c| client.def(c).is_some_and(|d| d.trigger.is_none()))?.clone();
            push(&mut client, &mut lines, E::Client { seat: *loser, op: ClientOp::Checked { card } });
        }
        for op in client_ops(&game.states[i], event) {
            let is_reveal = matches!(op, E::VanguardsRevealed {});
            push(&mut client, &mut lines, op.clone());
            if is_reveal {
                push(&mut client, &mut lines, E::ChatMessage { seat: 0, text: "gl hf".into() });
                push(&mut client, &mut lines, E::SpectatorJoined { user: "carol".into() });
            }
            let E::Client { seat, op } = &op else { continue };
            match op {
                ClientOp::PhaseButton { phase: Phase::Battle } if client.turn == 1 && !done[0] => {
                    let vg = client.players.get(*seat)?.vanguard.as_ref()?.card.clone();
                    push(
                        &mut client,
                        &mut lines,
                        E::Client { seat: *seat, op: ClientOp::PositionChanged { card: vg, rested: true } },
                    );
                    done[0] = true;
                }
                ClientOp::PhaseButton { phase: Phase::Main } if client.turn >= 4 && !done[1] => {
                    let vg = client.players.get(*seat)?.vanguard.as_ref()?.card.clone();
                    push(
                        &mut client,
                        &mut lines,
                        E::Client {
                            seat: *seat,
                            op: ClientOp::PowerEdited { card: vg, mode: PowerEdit::Add, value: 2550 },
                        },
                    );
                    let g = client
                        .players
                        .get(*seat)?
                        .g_zone
                        .iter()
                        .find(|(g, _)| !strode.contains(g))
                        .map(|(g, _)| g.clone());
                    if let Some(g) = g {
                        push(&mut client, &mut lines, E::Client { seat: *seat, op: ClientOp::ToTopOfDeck { card: g } });
                        done[1] = true;
                    }
                }
                ClientOp::TriggerApplied { .. } if !done[2] => {
                    let ch = client.check.clone()?;
                    let p = client.players.get(*seat)?;
                    if ch.trigger == Some(TriggerType::Heal)
                        && ch.damage_before.0 < ch.damage_before.1
                        && !p.damage.is_empty()
                    {
                        let card = p.damage[0].0.clone();
                        push(
                            &mut client,
                            &mut lines,
                            E::Client { seat: *seat, op: ClientOp::Moved { card: card.clone(), to: Place::Drop } },
                        );
                        push(
                            &mut client,
                            &mut lines,
                            E::Client { seat: *seat, op: ClientOp::Moved { card, to: Place::Damage } },
                        );
                        done[2] = true;
                    }
                }
                _ => {}
            }
        }
    }
    if !(done[0] && done[1] && done[2]) {
        return None;
    }
    let mut out = String::from(
        "# A Vanguard game played in the fan-made client, as its players recorded it by hand.\n\
         # Generated by tests/it/vanguard/fixtures.rs from a self-played game; the players broke\n\
         # rules along the way. Import: kifu game import --from vgc-log replays/vanguard-manual.vgclog\n",
    );
    out += &vgclog::header(&config, Some("vanguard-manual"));
    for l in lines {
        out += &l;
        out.push('\n');
    }
    Some(out)
}

/// The first seed from `from` whose game offers every injection point.
fn manual_seed(from: u64) -> (u64, String) {
    (from..from + 200).find_map(|s| manual_log(s).map(|l| (s, l))).unwrap()
}

fn imported(name: &str, text: &str) -> VerifiedLog {
    let log = vgclog::parse(text, &Catalog::sample()).unwrap_or_else(|e| panic!("{e:?}"));
    let s = store();
    let id = StreamId::new(name).unwrap();
    record::import_entries::<Vanguard>(&s, &id, &log.config, log.entries, t0()).unwrap();
    s.export(&id).unwrap()
}

fn clean_seed() -> u64 {
    (1..100)
        .find(|s| {
            matches!(super::play(*s, false).events.last(), Some(E::GameEnded { reason: LossReason::SixDamage, .. }))
        })
        .unwrap()
}

#[test]
fn vanguard_fixtures_match_their_recipes_and_pinned_audits() {
    let (_, text) = manual_seed(1);
    ensure_file_contents("replays/vanguard-manual.vgclog", text.as_bytes());
    let fixtures = [
        ("vanguard-clean", self_played("vanguard-clean", clean_seed())),
        ("vanguard-manual", imported("vanguard-manual", &text)),
    ];
    let mut expected = String::new();
    for (name, log) in &fixtures {
        expected += &pin_fixture(driver(), name, log);
    }
    ensure_file_contents("replays/expected-vanguard.txt", expected.as_bytes());
}

#[test]
fn checked_in_vanguard_fixtures_verify_audit_and_round_trip() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("replays");
    let expected = std::fs::read_to_string(dir.join("expected-vanguard.txt")).unwrap();
    for line in expected.lines() {
        let (log, jsonl) = check_checked_in_fixture(driver(), line);
        let name = line.split(' ').next().unwrap();
        match record::parse_jsonl::<Vanguard>(&jsonl, false) {
            Ok(parsed) => assert_eq!(parsed.entries.len() as u64, log.head.len, "{name}"),
            Err(e) => assert!(line.contains("UNRESOLVED"), "{name} should import from JSON lines: {e}"),
        }
    }
    // The rule-breaking game: every intended violation is found, with its rule ID and sequence number.
    let manual = expected.lines().find(|l| l.starts_with("vanguard-manual")).unwrap();
    for rule in ["VG-SETUP-2", "VGC-OP-12", "VGC-UPD-2", "VG-DECK-6", "VG-TRIG-5", "VG-WIN-2"] {
        assert!(manual.contains(&format!(":{rule}:UNRESOLVED")), "vanguard-manual should report {rule}: {manual}");
    }
    assert!(expected.lines().any(|l| l.starts_with("vanguard-clean") && l.ends_with("findings=[]")));
}
