//! FATE's options and automatic steps: every event the agent plays (3 to 6 Masters, physical and
//! digital dice) is an option of its seat or an automatic step, except the escape hatches; a game
//! recorded by picks alone equals the agent's; no seat's option names a card it cannot see; and
//! `automatic` agrees with the agent.

use std::collections::BTreeSet;

use kifu::game::options::{option_id, Concern, ParamKind, Pick};
use kifu::game::record;
use kifu::game::replay::Replay;
use kifu::game::view::CardView;
use kifu::game::{Game, Viewer};
use kifu::games::fate::config::DiceMode;
use kifu::games::fate::{Fate, FateConfig, FateEvent, FateState};
use kifu::log::envelope::Actor;
use kifu::log::file;
use kifu::store::Store;

use super::names;
use crate::options::{reach, record_by_picks, replay_of, self_played, Reach};
use kifu::game::reach::recorded_as_event;

fn fate_game(seed: u64) -> (FateConfig, Vec<FateEvent>) {
    self_played::<Fate>(seed, &names(3 + (seed % 4) as usize), 50_000)
}

fn is_digital(config: &FateConfig) -> bool {
    config.policies().dice == DiceMode::Digital
}

fn stray(r: &Reach) -> Vec<&String> {
    r.unreachable.keys().collect()
}

#[test]
fn every_event_of_fate_self_play_is_an_option_of_its_seat_or_an_automatic_step() {
    let (mut physical, mut digital) = (Reach::default(), Reach::default());
    for seed in 0..60 {
        let (config, events) = fate_game(seed);
        let r = reach(&replay_of::<Fate>(&config, &events));
        if is_digital(&config) { &mut digital } else { &mut physical }.add(r);
    }
    eprintln!("FATE physical {physical:?}\nFATE digital {digital:?}");
    assert!(physical.events > 3_000 && digital.events > 3_000, "{physical:?} {digital:?}");
    assert!(physical.automatic > 100 && physical.with_param > 100, "{physical:?}");
    assert!(digital.automatic > 10 && digital.with_param > 100, "{digital:?}");
    assert!(stray(&physical).is_empty(), "physical FATE events no option offers: {:?}", physical.unreachable);
    assert!(stray(&digital).is_empty(), "digital FATE events no option offers: {:?}", digital.unreachable);
}

#[test]
fn every_played_event_of_the_fate_fixtures_is_an_option_or_an_automatic_step() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("replays");
    for name in ["fate-clean", "fate-judged", "fate-unruled"] {
        let log = file::read(&std::fs::read(dir.join(format!("{name}.kifu"))).unwrap()).unwrap();
        let game = record::from_log::<Fate>(&log).unwrap();
        let r = reach(&Replay::<Fate>::new(game.config, game.steps).unwrap());
        eprintln!("{name}: {r:?}");
        assert!(stray(&r).is_empty(), "{name}: {r:?}");
        assert!(r.picks > 50, "{name}: {r:?}");
    }
}

/// Self-play seeds from `from` whose every event a seat's option offers (no escape hatch), with
/// digital dice or not.
fn reachable_games(from: u64, n: usize, digital: bool) -> Vec<(FateConfig, Vec<FateEvent>)> {
    (from..from + 400)
        .map(fate_game)
        .filter(|(c, events)| is_digital(c) == digital && !events.iter().any(recorded_as_event::<Fate>))
        .take(n)
        .collect()
}

#[test]
fn a_fate_game_recorded_by_picks_alone_equals_the_agents_game_event_for_event() {
    for digital in [false, true] {
        let games = reachable_games(0, 1, digital);
        assert_eq!(games.len(), 1, "a game without escape hatches (digital {digital})");
        for (config, events) in games {
            let (s, stream, recorded) = record_by_picks::<Fate>(&config, &events);
            let got: Vec<_> = recorded.iter().map(|(_, e)| e.clone()).collect();
            assert_eq!(got, events);
            let by_kifu = recorded.iter().filter(|(a, _)| *a == Actor::System).count();
            assert!(by_kifu >= 1, "{by_kifu} automatic steps");
            eprintln!("picked {} events, {by_kifu} by kifu (digital {digital})", recorded.len());
            let log = s.export(&stream).unwrap();
            let report = kifu::games::driver("fate").unwrap().audit(&log).unwrap();
            assert!(report.findings.is_empty(), "{:?}", report.findings);
        }
    }
}

/// The cards `seat` may see in `state`, by its board view, and the names of the other seats'
/// cards it may not see (in hands, decks and face-down Servants) that no visible card shares.
fn sight(state: &FateState, seat: u8) -> (BTreeSet<String>, BTreeSet<String>) {
    let view = Fate::view(state, Viewer::Player(seat));
    let mut seen = BTreeSet::new();
    let mut seen_names = BTreeSet::new();
    for sv in &view.seats {
        for z in &sv.zones {
            for c in z.cards.iter().chain(z.groups.iter().flat_map(|g| g.cards.iter())) {
                if let CardView::Known { instance, name, .. } = c {
                    seen.insert(instance.clone());
                    seen_names.insert(name.clone());
                }
            }
        }
    }
    // The seat knows its own cards' names (its hand, its Servant, the deck it searches).
    if let Some(m) = state.master(seat) {
        let servant = m.servant.iter().flat_map(|v| v.cards().into_iter().cloned());
        let own = m.hand.iter().cloned().chain(servant).filter_map(|h| h.known().map(str::to_string));
        seen_names.extend(own.chain(m.deck.iter().cloned()).filter_map(|c| state.def(&c).map(|d| d.name.clone())));
    }
    let mut hidden = BTreeSet::new();
    for (x, m) in state.masters.iter().enumerate() {
        if x == usize::from(seat) {
            continue;
        }
        let servant = m.servant.iter().filter(|v| v.face_down).flat_map(|v| v.cards().into_iter().cloned());
        for c in m
            .hand
            .iter()
            .cloned()
            .chain(servant)
            .filter_map(|h| h.known().map(str::to_string))
            .chain(m.deck.iter().cloned())
        {
            if let Some(d) = state.def(&c) {
                if !seen_names.contains(&d.name) {
                    hidden.insert(d.name.clone());
                }
            }
        }
    }
    (seen, hidden)
}

#[test]
fn a_seats_fate_options_never_name_a_card_it_cannot_see_and_never_look_alike() {
    for seed in [1u64, 2, 7, 8] {
        let (config, events) = fate_game(seed);
        let mut state = Fate::setup(&config).unwrap();
        for (i, e) in events.iter().enumerate() {
            for seat in state.seats().collect::<Vec<_>>() {
                let own = format!("p{seat}-");
                let (seen, hidden) = sight(&state, seat);
                let options = Fate::options(&state, seat).unwrap();
                for (a, x) in options.iter().enumerate() {
                    for y in &options[a + 1..] {
                        if option_id(0, x) == option_id(0, y) {
                            assert!(
                                matches!((&x.pick, &y.pick), (Pick::Event(p), Pick::Event(q)) if p == q),
                                "seed {seed} event {i}: {:?} twice",
                                x.label
                            );
                        }
                    }
                }
                for o in &options {
                    for c in &o.concerns {
                        if let Concern::Card(id) = c {
                            assert!(
                                id.starts_with(&own) || seen.contains(id),
                                "seed {seed} event {i}: seat {seat}'s option {:?} names {id}, which it cannot see",
                                o.label
                            );
                        }
                    }
                    for name in &hidden {
                        assert!(!o.label.contains(name.as_str()), "seed {seed} event {i}: {:?} names {name}", o.label);
                    }
                    if let Some(p) = o.param().filter(|p| p.kind == ParamKind::Card) {
                        for v in &p.values {
                            assert!(
                                v.value.starts_with(&own) || seen.contains(&v.value),
                                "seed {seed} event {i}: seat {seat} is offered {} it cannot see",
                                v.value
                            );
                        }
                    }
                }
            }
            Fate::ledger_mut(&mut state).at(i as u64);
            state = Fate::apply(state, e);
        }
    }
}

#[test]
fn the_fate_agent_and_the_options_agree_on_the_automatic_steps() {
    // The agent plays the automatic steps through the same function: where `automatic` says a
    // step is due, the agent's next event is that step.
    let mut due = 0;
    for seed in 0..40 {
        let (config, events) = fate_game(seed);
        let mut state = Fate::setup(&config).unwrap();
        for (i, e) in events.iter().enumerate() {
            if let Some(step) = Fate::automatic(&state) {
                assert_eq!(&step, e, "seed {seed} event {i}: an automatic step was due");
                due += 1;
            }
            Fate::ledger_mut(&mut state).at(i as u64);
            state = Fate::apply(state, e);
        }
    }
    eprintln!("{due} automatic steps agreed");
    assert!(due > 100, "{due}");
}
