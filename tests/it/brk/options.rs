//! BRK's options and automatic steps: every event of self-play and of the fixtures is an option
//! of its seat or an automatic step; a game recorded by picks alone equals the agent's; no seat's
//! option names a card it cannot see; `automatic` agrees with the agent.

use kifu::game::options::{option_id, Concern, ParamKind, Pick};
use kifu::game::record;
use kifu::game::replay::Replay;
use kifu::game::{Game, Viewer};
use kifu::games::brk::view::can_see;
use kifu::games::brk::{Brk, BrkConfig, BrkEvent};
use kifu::log::envelope::Actor;
use kifu::log::file;
use kifu::store::Store;

use crate::options::{reach, record_by_picks, replay_of, self_played, Reach};
use kifu::game::reach::recorded_as_event;

fn brk_game(seed: u64) -> (BrkConfig, Vec<BrkEvent>) {
    self_played::<Brk>(seed, &["ana".into(), "rui".into()], 20_000)
}

fn stray(r: &Reach) -> Vec<&String> {
    r.unreachable.keys().collect()
}

#[test]
fn every_event_of_brk_self_play_is_an_option_of_its_seat_or_an_automatic_step() {
    let mut total = Reach::default();
    for seed in 0..60 {
        let (config, events) = brk_game(seed);
        total.add(reach(&replay_of::<Brk>(&config, &events)));
    }
    eprintln!("brk self-play (60 games): {total:?}");
    assert!(total.events > 3_000, "{total:?}");
    assert!(total.automatic > 1_000 && total.with_param > 100, "{total:?}");
    assert!(stray(&total).is_empty(), "BRK events no option offers: {:?}", total.unreachable);
}

#[test]
fn every_played_event_of_the_brk_fixtures_is_an_option_or_an_automatic_step() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("replays");
    for name in ["brk-clean", "brk-judged", "brk-unresolved"] {
        let log = file::read(&std::fs::read(dir.join(format!("{name}.kifu"))).unwrap()).unwrap();
        let game = record::from_log::<Brk>(&log).unwrap();
        let r = reach(&Replay::<Brk>::new(game.config, game.steps).unwrap());
        eprintln!("{name}: {r:?}");
        assert!(stray(&r).is_empty(), "{name}: {r:?}");
        assert!(r.picks > 50 && r.automatic > 50, "{name}: {r:?}");
    }
}

#[test]
fn a_brk_game_recorded_by_picks_alone_equals_the_agents_game_event_for_event() {
    let games: Vec<_> =
        (0..50).map(brk_game).filter(|(_, events)| !events.iter().any(recorded_as_event::<Brk>)).take(3).collect();
    assert_eq!(games.len(), 3);
    for (config, events) in games {
        let (s, stream, recorded) = record_by_picks::<Brk>(&config, &events);
        let got: Vec<_> = recorded.iter().map(|(_, e)| e.clone()).collect();
        assert_eq!(got, events);
        let by_kifu = recorded.iter().filter(|(a, _)| *a == Actor::System).count();
        assert!(by_kifu > 20, "{by_kifu} automatic steps");
        assert!(recorded.iter().any(|(a, _)| matches!(a, Actor::Player(n) if n == "ana")));
        assert!(recorded.iter().any(|(a, _)| matches!(a, Actor::Player(n) if n == "rui")));
        let log = s.export(&stream).unwrap();
        let report = kifu::games::driver("brk").unwrap().audit(&log).unwrap();
        assert!(report.findings.is_empty(), "{:?}", report.findings);
    }
}

#[test]
fn a_brk_seats_options_never_name_a_card_it_cannot_see_and_never_look_alike() {
    for seed in 0..8 {
        let (config, events) = brk_game(seed);
        let mut state = Brk::setup(&config).unwrap();
        for (i, e) in events.iter().enumerate() {
            for seat in [0u8, 1] {
                let viewer = Viewer::Player(seat);
                let options = Brk::options(&state, seat).unwrap();
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
                // Names of cards the seat may see, and of the other seat's hidden cards.
                let seen: Vec<String> = state
                    .pieces
                    .iter()
                    .filter(|p| can_see(viewer, p))
                    .filter_map(|p| state.def_of(p).map(|d| d.name.clone()))
                    .collect();
                let hidden: Vec<&kifu::games::brk::state::Piece> =
                    state.pieces.iter().filter(|p| !can_see(viewer, p)).collect();
                for o in &options {
                    for c in &o.concerns {
                        if let Concern::Card(id) = c {
                            let visible = state
                                .pieces
                                .iter()
                                .any(|p| p.instance.as_deref() == Some(id.as_str()) && can_see(viewer, p));
                            assert!(visible, "seed {seed} event {i}: seat {seat}'s {:?} names {id}", o.label);
                        }
                    }
                    for p in &hidden {
                        if let Some(d) = state.def_of(p).filter(|d| !seen.contains(&d.name)) {
                            assert!(
                                !o.label.contains(&d.name),
                                "seed {seed} event {i}: seat {seat}'s {:?} names hidden {}",
                                o.label,
                                p.id
                            );
                        }
                    }
                    if let Some(p) = o.param() {
                        let own = format!("p{seat}-");
                        assert!(
                            p.values.iter().all(|v| v.value.starts_with(&own)),
                            "seat {seat} offered another squad"
                        );
                        assert_eq!(p.kind, ParamKind::Secret);
                    }
                }
            }
            Brk::ledger_mut(&mut state).at(i as u64);
            state = Brk::apply(state, e);
        }
    }
}

#[test]
fn the_brk_agent_and_the_options_agree_on_the_automatic_steps() {
    let mut due = 0;
    for seed in 0..20 {
        let (config, events) = brk_game(seed);
        let mut state = Brk::setup(&config).unwrap();
        for (i, e) in events.iter().enumerate() {
            if let Some(step) = Brk::automatic(&state) {
                assert_eq!(&step, e, "seed {seed} event {i}: an automatic step was due");
                due += 1;
            }
            Brk::ledger_mut(&mut state).at(i as u64);
            state = Brk::apply(state, e);
        }
        assert!(Brk::automatic(&state).is_none(), "seed {seed}: a step is due after the last event");
    }
    assert!(due > 500, "{due} automatic steps");
}
