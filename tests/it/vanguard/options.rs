//! Vanguard's options and automatic steps: every event of self-play (rules version 2) and of the
//! pinned fixtures (version 1, the client's manual operations included) is an option of its seat
//! or an automatic step; a game recorded by picks alone equals the agent's; no seat's option
//! names a card it cannot see; `automatic` agrees with the agent.

use kifu::game::options::{option_id, Concern, Pick};
use kifu::game::record;
use kifu::game::replay::Replay;
use kifu::game::{Game, Viewer};
use kifu::games::vanguard::view::visible_now;
use kifu::games::vanguard::{Vanguard, VanguardConfig, VanguardEvent, VanguardState, VanguardV2};
use kifu::log::envelope::Actor;
use kifu::log::file;
use kifu::store::Store;

use crate::options::{reach, record_by_picks, replay_of, self_played, Reach};
use kifu::game::reach::recorded_as_event;

fn game<G: Game<Config = VanguardConfig, Event = VanguardEvent>>(seed: u64) -> (VanguardConfig, Vec<VanguardEvent>) {
    self_played::<G>(seed, &["ana".into(), "rui".into()], 20_000)
}

fn stray(r: &Reach) -> Vec<&String> {
    r.unreachable.keys().collect()
}

#[test]
fn every_event_of_a_thousand_vanguard_v2_self_played_games_is_an_option_of_its_seat_or_an_automatic_step() {
    let mut total = Reach::default();
    for seed in 0..1000 {
        let (config, events) = game::<VanguardV2>(seed);
        total.add(reach(&replay_of::<VanguardV2>(&config, &events)));
    }
    eprintln!("vanguard v2 self-play (1,000 games): {total:?}");
    assert!(total.events > 100_000, "{total:?}");
    assert!(total.automatic > 20_000 && total.with_param > 10_000, "{total:?}");
    assert_eq!(total.illegal, 0, "{total:?}");
    assert!(total.unreachable.is_empty(), "Vanguard events no option offers: {:?}", total.unreachable);
}

#[test]
fn every_played_event_of_the_vanguard_fixtures_is_an_option_or_an_automatic_step() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("replays");
    for name in ["vanguard-clean", "vanguard-manual", "vanguard-as-recorded"] {
        let log = file::read(&std::fs::read(dir.join(format!("{name}.kifu"))).unwrap()).unwrap();
        assert_eq!(log.header.v1().ruleset_version, 1, "{name}");
        let game = record::from_log::<Vanguard>(&log).unwrap();
        let r = reach(&Replay::<Vanguard>::new(game.config, game.steps).unwrap());
        eprintln!("{name}: {r:?}");
        assert!(stray(&r).is_empty(), "{name}: {r:?}");
        if name != "vanguard-as-recorded" {
            assert!(r.picks > 100 && r.with_param > 30, "{name}: {r:?}");
        }
    }
}

#[test]
fn a_vanguard_game_recorded_by_picks_alone_equals_the_agents_game_event_for_event() {
    for seed in 0..3 {
        let (config, events) = game::<VanguardV2>(seed);
        let (s, stream, recorded) = record_by_picks::<VanguardV2>(&config, &events);
        let got: Vec<_> = recorded.iter().map(|(_, e)| e.clone()).collect();
        assert_eq!(got, events, "seed {seed}");
        let by_kifu = recorded.iter().filter(|(a, _)| *a == Actor::System).count();
        assert!(by_kifu > 50, "seed {seed}: {by_kifu} automatic steps");
        assert!(recorded.iter().any(|(a, _)| matches!(a, Actor::Player(n) if n == "ana")));
        assert!(recorded.iter().any(|(a, _)| matches!(a, Actor::Player(n) if n == "rui")));
        let log = s.export(&stream).unwrap();
        assert_eq!(log.header.v1().ruleset_version, 2);
        let report = kifu::games::driver("vanguard").unwrap().audit(&log).unwrap();
        assert!(report.findings.is_empty(), "seed {seed}: {:?}", report.findings);
    }
    // Version 1 offers the same actions (and the client's operations besides).
    let (config, events) = game::<Vanguard>(7);
    let (_, _, recorded) = record_by_picks::<Vanguard>(&config, &events);
    assert_eq!(recorded.into_iter().map(|(_, e)| e).collect::<Vec<_>>(), events);
}

/// Whether `seat` may name `card`: its own, or one it may see where it lies.
fn may_name(s: &VanguardState, seat: u8, card: &str) -> bool {
    VanguardState::owner(card) == Some(seat) || visible_now(s, Viewer::Player(seat), card)
}

/// The other seat's cards `seat` may not see, by name, when no card it may see has that name.
fn hidden_names(s: &VanguardState, seat: u8) -> Vec<String> {
    let foe = kifu::game::opponent(seat);
    let all: Vec<String> = (0..2u8)
        .flat_map(|p| {
            let d = &s.cards.decks[usize::from(p)];
            let main = (0..d.main.len()).map(move |i| format!("p{p}-{i}"));
            main.chain((0..d.g.len()).map(move |i| format!("p{p}-g{i}")))
        })
        .collect();
    let seen: Vec<String> =
        all.iter().filter(|c| may_name(s, seat, c)).filter_map(|c| s.def(c).map(|d| d.name.clone())).collect();
    all.iter()
        .filter(|c| VanguardState::owner(c) == Some(foe) && !may_name(s, seat, c))
        .filter_map(|c| s.def(c).map(|d| d.name.clone()))
        .filter(|n| !seen.contains(n))
        .collect()
}

fn check_options_of<G: Game<State = VanguardState, Event = VanguardEvent>>(state: &VanguardState, what: &str) {
    for seat in [0u8, 1] {
        let options = G::options(state, seat).unwrap();
        for (a, x) in options.iter().enumerate() {
            for y in &options[a + 1..] {
                if option_id(0, x) == option_id(0, y) {
                    let same = matches!((&x.pick, &y.pick), (Pick::Event(p), Pick::Event(q)) if p == q);
                    assert!(same, "{what}: {:?} twice", x.label);
                }
            }
        }
        let hidden = hidden_names(state, seat);
        for o in &options {
            assert_eq!(o.seat, seat);
            for c in &o.concerns {
                if let Concern::Card(id) = c {
                    assert!(may_name(state, seat, id), "{what}: seat {seat}'s {:?} names {id}", o.label);
                }
            }
            for n in &hidden {
                assert!(!o.label.contains(n.as_str()), "{what}: seat {seat}'s {:?} names hidden {n}", o.label);
            }
            for v in o.param().map(|p| p.values.as_slice()).unwrap_or_default() {
                let card = v.value.starts_with('p') && v.value.contains('-');
                assert!(!card || may_name(state, seat, &v.value), "{what}: seat {seat} offered {}", v.value);
            }
        }
    }
}

#[test]
fn a_vanguard_seats_options_never_name_a_card_it_cannot_see_and_never_look_alike() {
    for seed in 0..6 {
        let (config, events) = game::<VanguardV2>(seed);
        let mut state = VanguardV2::setup(&config).unwrap();
        for (i, e) in events.iter().enumerate() {
            check_options_of::<VanguardV2>(&state, &format!("seed {seed} event {i}"));
            VanguardV2::ledger_mut(&mut state).at(i as u64);
            state = VanguardV2::apply(state, e);
        }
    }
    // Version 1 with the client's operations, over the manual fixture.
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("replays");
    let log = file::read(&std::fs::read(dir.join("vanguard-manual.kifu")).unwrap()).unwrap();
    let game = record::from_log::<Vanguard>(&log).unwrap();
    let replay = Replay::<Vanguard>::new(game.config, game.steps).unwrap();
    for i in (0..replay.steps().len() as u64).step_by(3) {
        check_options_of::<Vanguard>(&replay.state_at(i).game, &format!("vanguard-manual event {i}"));
    }
}

#[test]
fn the_vanguard_agent_and_the_options_agree_on_the_automatic_steps() {
    let mut due = 0;
    for seed in 0..40 {
        let (config, events) = game::<VanguardV2>(seed);
        let mut state = VanguardV2::setup(&config).unwrap();
        for (i, e) in events.iter().enumerate() {
            if let Some(step) = VanguardV2::automatic(&state) {
                assert_eq!(&step, e, "seed {seed} event {i}: an automatic step was due");
                assert!(VanguardV2::validate(&state, &step).is_empty(), "seed {seed} event {i}");
                due += 1;
            }
            VanguardV2::ledger_mut(&mut state).at(i as u64);
            state = VanguardV2::apply(state, e);
        }
        assert!(VanguardV2::automatic(&state).is_none(), "seed {seed}: a step is due after the last event");
        assert!(!events.iter().any(recorded_as_event::<VanguardV2>));
    }
    assert!(due > 1_000, "{due} automatic steps");
}
