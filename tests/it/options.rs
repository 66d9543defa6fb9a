//! Options (what a seat may record now) and automatic steps: every event the agent plays is an
//! option of its seat or a step kifu records by itself; a game recorded by picks alone equals
//! the agent's game event for event; stale, made-up and out-of-range picks are refused with
//! nothing written.

use std::collections::BTreeMap;
use std::sync::Arc;

use kifu::clock::SteppingClock;
use kifu::game::options::{option_id, ParamKind, Pick, PickError};
use kifu::game::record::{self, GameError, LiveGame, Write};
use kifu::game::replay::Replay;
use kifu::game::{Game, GameEntry};
use kifu::games::lc::config::ShuffleMode;
use kifu::games::lc::{Lc, LcConfig};
use kifu::log::envelope::{Actor, StreamId, Timestamp};
use kifu::log::file;
use kifu::store::sled_store::SledStore;
use kifu::store::Store;

use crate::game_support::event_kind;

/// How a game's events are reached through options (the library's count, also used by
/// tools/bench-options).
pub(crate) use kifu::game::reach::{dealer_of, reach, Reach};

/// The options that record an event (the library's one lookup, also used by tools/bench-options).
pub(crate) use kifu::game::options::offering;

/// The configuration and the played events of the self-played game of `seed` at a table of
/// `players` (at most `max` events).
pub(crate) fn self_played<G: Game>(seed: u64, players: &[String], max: usize) -> (G::Config, Vec<G::Event>) {
    let game = kifu::game::selfplay::self_play::<G>(seed, players, max).unwrap();
    let events = game
        .entries
        .into_iter()
        .filter_map(|(_, e)| match e {
            GameEntry::Played(e) => Some(e),
            _ => None,
        })
        .collect();
    (game.config, events)
}

/// A replay of `events` played in order on a fresh game of `config`.
pub(crate) fn replay_of<G: Game>(config: &G::Config, events: &[G::Event]) -> Replay<G> {
    let steps = events
        .iter()
        .enumerate()
        .map(|(i, e)| kifu::game::replay::Step {
            seq: i as u64,
            recorded_at: Timestamp(0),
            actor: Actor::System,
            entry: GameEntry::Played(e.clone()),
        })
        .collect();
    Replay::<G>::new(config.clone(), steps).unwrap()
}

fn lc_game(seed: u64) -> (LcConfig, Vec<<Lc as Game>::Event>) {
    self_played::<Lc>(seed, &["ana".into(), "rui".into()], 20_000)
}

fn is_digital(config: &LcConfig) -> bool {
    let LcConfig::V1(c) = config;
    c.shuffles == ShuffleMode::Digital
}

#[test]
fn every_event_of_lc_self_play_is_an_option_of_its_seat_or_an_automatic_step() {
    let (mut physical, mut digital) = (Reach::default(), Reach::default());
    for seed in 0..60 {
        let (config, events) = lc_game(seed);
        let r = reach(&replay_of::<Lc>(&config, &events));
        if is_digital(&config) { &mut digital } else { &mut physical }.add(r);
    }
    eprintln!("physical {physical:?}\ndigital {digital:?}");
    assert!(physical.events > 3_000 && digital.events > 3_000, "{physical:?} {digital:?}");
    assert!(physical.automatic > 100 && physical.with_param > 100, "{physical:?}");
    // A digital game's commitment, shuffles, opening hands and reveal are the dealer's automatic
    // steps; its refills and full discards take a dealt parameter.
    assert!(digital.automatic > physical.automatic && digital.with_param > 100, "{digital:?}");
    assert!(physical.unreachable.is_empty(), "physical LC events no option offers: {:?}", physical.unreachable);
    assert!(digital.unreachable.is_empty(), "digital LC events no option offers: {:?}", digital.unreachable);
}

#[test]
fn every_played_event_of_the_lc_fixtures_is_an_option_or_an_automatic_step() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("replays");
    for name in ["lc-clean", "lc-judged", "lc-unruled"] {
        let log = file::read(&std::fs::read(dir.join(format!("{name}.kifu"))).unwrap()).unwrap();
        let game = record::from_log::<Lc>(&log).unwrap();
        let replay = Replay::<Lc>::new(game.config, game.steps).unwrap();
        let r = reach(&replay);
        assert!(r.unreachable.is_empty(), "{name}: {r:?}");
        assert!(r.picks > 50, "{name}: {r:?}");
    }
}

pub(crate) fn store() -> SledStore {
    SledStore::temporary(Arc::new(SteppingClock::fixed())).unwrap()
}

/// Records `events` through picks alone on a fresh game of `config`: each by the option of its
/// seat that offers it (parameter values read back from the event), each automatic step by kifu
/// itself. Returns the store, stream and the recorded entries with their actors.
pub(crate) fn record_by_picks<G: Game>(
    config: &G::Config,
    events: &[G::Event],
) -> (SledStore, StreamId, Vec<(Actor, G::Event)>) {
    let s = store();
    let stream = StreamId::new("picked").unwrap();
    record::create::<G>(&s, &stream, config, Timestamp(1_767_225_600_000_000)).unwrap();
    // kifu deals a digital game with the seed the agent dealt it with (its log reveals it).
    let dealer = dealer_of(&replay_of::<G>(config, events));
    let mut live = LiveGame::<G>::load(&s, &stream).unwrap().with_dealer(dealer);
    live.settle(&s).unwrap();
    let names = G::players(config);
    while (live.len() as usize) < events.len() {
        let i = live.len() as usize;
        let state = live.replay.tip().game.clone();
        let option = offering::<G>(&state, &events[i]).into_iter().next();
        let Some(option) = option else { panic!("event {i} {:?} is no option", events[i]) };
        let params: BTreeMap<String, Vec<String>> = match &option.pick {
            Pick::Event(_) => BTreeMap::new(),
            // kifu deals these itself.
            Pick::Param { param, .. } if param.kind == ParamKind::Dealt => BTreeMap::new(),
            Pick::Param { param, read, .. } => [(param.name.to_string(), read(&events[i]).unwrap())].into(),
        };
        let actor = Actor::Player(names[usize::from(option.seat)].clone());
        let id = option_id(live.len(), &option);
        live.pick(
            Write { store: &s, actor, expected: Some(live.len()), idempotency: None },
            &[option.seat],
            &id,
            &params,
        )
        .unwrap();
    }
    let recorded = record::load::<G>(&s, &stream).unwrap();
    let entries = recorded
        .steps
        .into_iter()
        .map(|st| match st.entry {
            GameEntry::Played(e) => (st.actor, e),
            other => panic!("a pick recorded {other:?}"),
        })
        .collect();
    (s, stream, entries)
}

/// The first physical LC self-play seeds from `from` whose every event a seat's option offers.
fn physical_lc_games(from: u64, n: usize) -> Vec<(LcConfig, Vec<<Lc as Game>::Event>)> {
    (from..from + 200).map(lc_game).filter(|(c, _)| !is_digital(c)).take(n).collect()
}

#[test]
fn an_lc_game_recorded_by_picks_alone_equals_the_agents_game_event_for_event() {
    let games = physical_lc_games(0, 3);
    assert_eq!(games.len(), 3);
    for (config, events) in games {
        let (s, stream, recorded) = record_by_picks::<Lc>(&config, &events);
        let got: Vec<_> = recorded.iter().map(|(_, e)| e.clone()).collect();
        assert_eq!(got, events);
        // kifu entered the automatic steps; the players entered their own actions.
        let by_kifu = recorded.iter().filter(|(a, _)| *a == Actor::System).count();
        assert!(by_kifu > 5, "{by_kifu} automatic steps");
        assert!(recorded.iter().any(|(a, _)| matches!(a, Actor::Player(n) if n == "ana")));
        let log = s.export(&stream).unwrap();
        let report = kifu::games::driver("lc").unwrap().audit(&log).unwrap();
        assert!(report.findings.is_empty(), "{:?}", report.findings);
    }
}

#[test]
fn a_digital_lc_game_dealt_by_kifu_and_recorded_by_picks_equals_the_agents_game() {
    let games: Vec<_> = (0..200).map(lc_game).filter(|(c, _)| is_digital(c)).take(2).collect();
    assert_eq!(games.len(), 2);
    for (config, events) in games {
        let (s, stream, recorded) = record_by_picks::<Lc>(&config, &events);
        let got: Vec<_> = recorded.iter().map(|(_, e)| e.clone()).collect();
        assert_eq!(got, events);
        // The commitment, both shuffles, both opening hands and the reveal are kifu's as the dealer.
        let kinds: Vec<String> =
            recorded.iter().filter(|(a, _)| *a == Actor::System).map(|(_, e)| event_kind(e)).collect();
        for k in ["Common(SeedCommitted", "DeckShuffled", "OpeningHandDrawn", "Common(SeedRevealed"] {
            assert!(kinds.iter().any(|x| x == k), "{k} is not kifu's: {kinds:?}");
        }
        // The refills were the players' picks, their cards dealt by kifu.
        assert!(recorded.iter().any(|(a, e)| matches!(a, Actor::Player(_)) && event_kind(e) == "RefillDrawn"));
        let log = s.export(&stream).unwrap();
        let report = kifu::games::driver("lc").unwrap().audit(&log).unwrap();
        assert!(report.findings.is_empty(), "{:?}", report.findings);
    }
}

#[test]
fn kifu_deals_a_digital_game_it_creates_from_a_private_seed_and_no_seat_sends_dealt_cards() {
    use crate::support::TestEnv;
    let env = TestEnv::new();
    let decks = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("replays/decks");
    let deck = |p: &str| decks.join(format!("lc-{p}.deck")).to_str().unwrap().to_string();
    let out = env.kifu(&[
        "game",
        "new",
        "--game",
        "lc",
        "--players",
        "ana,rui",
        "--deck",
        &deck("ana"),
        "--deck",
        &deck("rui"),
        "--policy",
        "shuffles=digital",
        "--id",
        "d1",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("kifu deals this digital game"));
    let seeds = env.data().join("game-dealers").join("d1.seeds");
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(std::fs::metadata(&seeds).unwrap().permissions().mode() & 0o777, 0o600);
    }
    // The commitment and both seeded shuffles are recorded at creation, by kifu.
    let log: serde_json::Value = serde_json::from_str(&env.ok(&["log", "d1", "--json"])).unwrap();
    let events = log.as_array().unwrap();
    assert_eq!(events.len(), 3, "{log}");
    assert!(events.iter().all(|e| e["actor"] == "System"), "{log}");
    // kifu is the only dealer: a seat posting its own (stacked) opening hand, or a shuffle of its
    // own, is refused under KIFU-DEAL-1 and nothing is written; so is a player naming the dealer.
    let stacked = r#"{"OpeningHandDrawn":{"seat":0,"cards":[{"Open":"p0-1"},{"Open":"p0-2"},{"Open":"p0-3"},{"Open":"p0-4"},{"Open":"p0-5"}]}}"#;
    for (event, actor) in [
        (stacked, "player:ana"),
        (r#"{"DeckShuffled":{"seat":1,"by":1,"seed":"dealer"}}"#, "player:rui"),
        (
            r#"{"Common":{"SeedRevealed":{"key":"dealer","seat":null,"seed":"0000000000000000000000000000000000000000000000000000000000000000"}}}"#,
            "player:ana",
        ),
    ] {
        let err = env.fails(&["game", "act", "d1", "--json", event, "--actor", actor]);
        assert!(err.contains("KIFU-DEAL-1") && !err.contains("KIFU-CARD"), "{event}: {err}");
    }
    let log: serde_json::Value = serde_json::from_str(&env.ok(&["log", "d1", "--json"])).unwrap();
    assert_eq!(log.as_array().unwrap().len(), 3, "nothing written: {log}");
    // The coin toss is a seat's pick; the opening hands follow from the seed, dealt by kifu.
    let o: serde_json::Value = serde_json::from_str(&env.ok(&["game", "options", "d1", "--json"])).unwrap();
    let toss =
        o["options"].as_array().unwrap().iter().find(|o| o["label"].as_str().unwrap().contains("goes first")).unwrap();
    let out = env.ok(&["game", "pick", "d1", toss["id"].as_str().unwrap(), "first=0"]);
    // The toss, then kifu's: both opening hands (dealt) and the first round.
    assert_eq!(out.matches("recorded event").count(), 4, "{out}");
    // A refill's cards are dealt: the seat picks the option and sends no cards.
    let o: serde_json::Value = serde_json::from_str(&env.ok(&["game", "options", "d1", "--json"])).unwrap();
    let dealt: Vec<&serde_json::Value> =
        o["options"].as_array().unwrap().iter().filter(|o| o["param"]["kind"] == "dealt").collect();
    assert!(!dealt.is_empty(), "{o}");
    assert!(dealt.iter().all(|o| o["param"]["values"].as_array().unwrap().is_empty()), "no seat sees the order");
    let id = dealt[0]["id"].as_str().unwrap();
    let err = env.fails(&["game", "pick", "d1", id, "cards=p0-1"]);
    assert!(err.contains("KIFU-OPT-2") && err.contains("kifu deals"), "{err}");
    let out = env.ok(&["game", "pick", "d1", id]);
    assert!(out.contains("recorded event"), "{out}");
    // Without the seed (a game kifu does not deal), the same pick is refused and records nothing.
    std::fs::remove_file(&seeds).unwrap();
    let o: serde_json::Value = serde_json::from_str(&env.ok(&["game", "options", "d1", "--json"])).unwrap();
    if let Some(d) = o["options"].as_array().unwrap().iter().find(|o| o["param"]["kind"] == "dealt") {
        let err = env.fails(&["game", "pick", "d1", d["id"].as_str().unwrap()]);
        assert!(err.contains("not this game's dealer"), "{err}");
    }
    // Unfinished, the game's seed is not revealed yet: the audit says so, and nothing else.
    let audit = String::from_utf8(env.kifu(&["game", "audit", "d1"]).stdout).unwrap();
    assert!(audit.contains("KIFU-SEED-3") && audit.contains("1 finding(s)"), "{audit}");
}

/// A physical LC game stopped at its first turn, with its live session.
fn lc_at_first_turn() -> (SledStore, LiveGame<Lc>, Vec<<Lc as Game>::Event>) {
    let (config, events) = physical_lc_games(0, 1).remove(0);
    let s = store();
    let stream = StreamId::new("stale").unwrap();
    record::create::<Lc>(&s, &stream, &config, Timestamp(1_767_225_600_000_000)).unwrap();
    let live = LiveGame::<Lc>::load(&s, &stream).unwrap();
    (s, live, events)
}

#[test]
fn a_stale_a_made_up_and_an_out_of_range_pick_are_refused_and_record_nothing() {
    let (s, mut live, events) = lc_at_first_turn();
    let state = live.replay.tip().game.clone();
    let first = offering::<Lc>(&state, &events[0]).remove(0);
    let id = option_id(0, &first);
    let seat = first.seat;
    let none = BTreeMap::new();
    live.pick(
        Write { store: &s, actor: Actor::Player("ana".into()), expected: Some(0), idempotency: None },
        &[seat],
        &id,
        &none,
    )
    .unwrap();
    let len = live.len();
    // The same id again: offered after 0 events, the game now stands after `len`.
    let again = live.pick(
        Write { store: &s, actor: Actor::Player("ana".into()), expected: None, idempotency: None },
        &[seat],
        &id,
        &none,
    );
    assert!(matches!(again, Err(GameError::Pick(PickError::Stale { offered: 0, .. }))), "{again:?}");
    // A made-up id of this state.
    let made_up = format!("{len}-0123456789abcdef");
    let e = live
        .pick(
            Write { store: &s, actor: Actor::Player("ana".into()), expected: None, idempotency: None },
            &[0, 1],
            &made_up,
            &none,
        )
        .unwrap_err();
    assert!(e.to_string().starts_with("KIFU-OPT-1"), "{e}");
    // A card parameter naming a card that is not in the pile.
    let state = live.replay.tip().game.clone();
    let with_param = [0, 1]
        .into_iter()
        .flat_map(|seat| Lc::options(&state, seat).unwrap())
        .find(|o| o.param().is_some())
        .expect("a draw with a card parameter is open in the setup");
    let pid = option_id(len, &with_param);
    let p = with_param.param().unwrap();
    let bad: BTreeMap<String, Vec<String>> = [(p.name.to_string(), vec!["p9-99".to_string(); p.count])].into();
    let e = live
        .pick(
            Write { store: &s, actor: Actor::Player("ana".into()), expected: None, idempotency: None },
            &[with_param.seat],
            &pid,
            &bad,
        )
        .unwrap_err();
    assert!(e.to_string().starts_with("KIFU-OPT-2"), "{e}");
    // Too few values.
    let short: BTreeMap<String, Vec<String>> = [(p.name.to_string(), vec![])].into();
    let e = live
        .pick(
            Write { store: &s, actor: Actor::Player("ana".into()), expected: None, idempotency: None },
            &[with_param.seat],
            &pid,
            &short,
        )
        .unwrap_err();
    assert!(e.to_string().starts_with("KIFU-OPT-2"), "{e}");
    // Another seat's option, asked for as this seat only: not open to it.
    let other = 1 - with_param.seat;
    let e = live
        .pick(
            Write { store: &s, actor: Actor::Player("rui".into()), expected: None, idempotency: None },
            &[other],
            &pid,
            &BTreeMap::new(),
        )
        .unwrap_err();
    assert!(e.to_string().starts_with("KIFU-OPT-1"), "{e}");
    assert_eq!(live.len(), len, "nothing written");
    assert_eq!(s.export(&StreamId::new("stale").unwrap()).unwrap().head.len, len);
}

#[test]
fn a_seats_options_never_name_a_card_it_cannot_see_and_never_look_alike() {
    // Over whole games: no label of one seat's options names a card of the other seat's hand.
    for (config, events) in physical_lc_games(10, 2) {
        let mut state = Lc::setup(&config).unwrap();
        for (i, e) in events.iter().enumerate() {
            for seat in [0u8, 1] {
                let foe = &state.players[usize::from(1 - seat)];
                // Options that record different events never look alike (one id for both).
                let options = Lc::options(&state, seat).unwrap();
                for (a, x) in options.iter().enumerate() {
                    for y in &options[a + 1..] {
                        if option_id(0, x) == option_id(0, y) {
                            assert!(
                                matches!((&x.pick, &y.pick), (Pick::Event(p), Pick::Event(q)) if p == q),
                                "event {i}: {:?} twice",
                                x.label
                            );
                        }
                    }
                }
                for o in options {
                    for c in &o.concerns {
                        if let kifu::game::options::Concern::Card(id) = c {
                            let hidden = foe.hand.iter().any(|h| h.known() == Some(id.as_str()))
                                || state
                                    .field_card(id)
                                    .is_some_and(|f| f.face_down && !id.starts_with(&format!("p{seat}-")));
                            assert!(
                                !hidden,
                                "event {i}: seat {seat}'s option {:?} names a card it cannot see",
                                o.label
                            );
                        }
                    }
                    if let Some(p) = o.param() {
                        for v in &p.values {
                            assert!(!foe.pile.contains(&v.value), "event {i}: seat {seat} is offered the other pile");
                        }
                    }
                }
            }
            Lc::ledger_mut(&mut state).at(i as u64);
            state = Lc::apply(state, e);
        }
    }
}

#[test]
fn the_lc_agent_and_the_options_agree_on_the_automatic_steps() {
    // The agent plays the automatic steps through the same function: a seed's game has them where
    // `automatic` says, and nowhere does `automatic` name a step the agent skipped.
    for seed in 0..20 {
        let (config, events) = lc_game(seed);
        let mut state = Lc::setup(&config).unwrap();
        for (i, e) in events.iter().enumerate() {
            if let Some(due) = Lc::automatic(&state) {
                assert_eq!(&due, e, "seed {seed} event {i}: an automatic step was due");
            }
            Lc::ledger_mut(&mut state).at(i as u64);
            state = Lc::apply(state, e);
        }
    }
}

#[test]
fn the_cli_registers_lists_creates_a_tables_game_from_them_and_records_it_by_picks() {
    use crate::support::TestEnv;
    let env = TestEnv::new();
    let decks = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("replays/decks");
    let seed = "55".repeat(32);
    env.ok(&["tournament", "new", "--name", "LC Cup", "--game", "lc", "--id", "lcup", "--seed", &seed]);
    env.ok(&["tournament", "register", "lcup", "ana", "rui"]);
    for p in ["ana", "rui"] {
        let file = decks.join(format!("lc-{p}.deck"));
        let out = env.ok(&["tournament", "deck", "lcup", p, file.to_str().unwrap()]);
        assert!(out.contains(&format!("{p}'s deck list for lcup registered")), "{out}");
    }
    // The kept lists are private files, named by their commitments.
    let kept = env.data().join("tournament-decks").join("lcup");
    let files: Vec<_> = std::fs::read_dir(&kept).unwrap().map(|e| e.unwrap().path()).collect();
    assert_eq!(files.len(), 2);
    #[cfg(unix)]
    for f in &files {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(std::fs::metadata(f).unwrap().permissions().mode() & 0o777, 0o600, "{}", f.display());
    }
    // An illegal list is refused with its rule and nothing is recorded.
    std::fs::write(env.path("bad.deck"), "3 no-such-card\n").unwrap();
    let err = env.fails(&["tournament", "deck", "lcup", "ana", env.path("bad.deck").to_str().unwrap()]);
    assert!(err.contains("is not in the catalog"), "{err}");
    assert_eq!(std::fs::read_dir(&kept).unwrap().count(), 2, "no file for a refused list");
    env.ok(&["tournament", "pair", "lcup"]);

    // The table's game takes its players and decks from the pairing and the registrations.
    let out = env.kifu(&[
        "game",
        "new",
        "--game",
        "lc",
        "--tournament",
        "lcup",
        "--round",
        "1",
        "--table",
        "1",
        "--id",
        "g1",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("bound to lcup round 1 table 1"));

    // Options: a table; as JSON, with ids the pick takes.
    let table = env.ok(&["game", "options", "g1", "--as", "p1"]);
    assert!(table.contains("Shuffle your deck"), "{table}");
    let options: serde_json::Value = serde_json::from_str(&env.ok(&["game", "options", "g1", "--json"])).unwrap();
    let shuffle = options["options"].as_array().unwrap().iter().find(|o| o["label"] == "Shuffle your deck").unwrap();
    let id = shuffle["id"].as_str().unwrap().to_string();
    let out = env.ok(&["game", "pick", "g1", &id]);
    assert!(out.starts_with("recorded event 0"), "{out}");
    // The same id again is stale; a made-up one is refused with its rule, as JSON too.
    let err = env.fails(&["game", "pick", "g1", &id]);
    assert!(err.contains("offered after 0 events"), "{err}");
    let out = env.kifu(&["game", "pick", "g1", "1-0000000000000000", "--json"]);
    assert!(!out.status.success());
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(j["rule"], "KIFU-OPT-1", "{j}");
    // Every shuffle, then an opening hand with its cards as the parameter.
    loop {
        let o: serde_json::Value = serde_json::from_str(&env.ok(&["game", "options", "g1", "--json"])).unwrap();
        let list = o["options"].as_array().unwrap();
        if let Some(s) = list.iter().find(|o| o["label"] == "Shuffle your deck") {
            env.ok(&["game", "pick", "g1", s["id"].as_str().unwrap()]);
            continue;
        }
        if let Some(c) = list.iter().find(|o| o["label"].as_str().unwrap().starts_with("Record who goes first")) {
            env.ok(&["game", "pick", "g1", c["id"].as_str().unwrap(), "first=0"]);
            continue;
        }
        let draw = list.iter().find(|o| o["label"].as_str().unwrap().starts_with("Draw your opening hand")).unwrap();
        let p = &draw["param"];
        let n = p["count"].as_u64().unwrap() as usize;
        let cards: Vec<&str> =
            p["values"].as_array().unwrap().iter().take(n).map(|v| v["value"].as_str().unwrap()).collect();
        // Too few cards first: refused with KIFU-OPT-2.
        let err = env.fails(&["game", "pick", "g1", draw["id"].as_str().unwrap(), &format!("cards={}", cards[0])]);
        assert!(err.contains("KIFU-OPT-2"), "{err}");
        let out = env.ok(&["game", "pick", "g1", draw["id"].as_str().unwrap(), &format!("cards={}", cards.join(","))]);
        assert!(out.contains("recorded event"), "{out}");
        break;
    }
    let audit = env.ok(&["game", "audit", "g1"]);
    assert!(audit.contains("audit: clean"), "{audit}");
}

#[test]
fn a_pick_and_its_automatic_steps_are_one_append_and_a_keyed_retry_records_nothing() {
    use kifu::log::envelope::IdempotencyId;
    let (config, events) = physical_lc_games(0, 1).remove(0);
    let s = store();
    let stream = StreamId::new("batch").unwrap();
    record::create::<Lc>(&s, &stream, &config, Timestamp(1_767_225_600_000_000)).unwrap();
    let mut live = LiveGame::<Lc>::load(&s, &stream).unwrap();
    let names = Lc::players(&config);
    let mut batches = 0;
    while (live.len() as usize) < events.len() {
        let i = live.len() as usize;
        let state = live.replay.tip().game.clone();
        let option = offering::<Lc>(&state, &events[i]).remove(0);
        let params: BTreeMap<String, Vec<String>> = match &option.pick {
            Pick::Event(_) => BTreeMap::new(),
            Pick::Param { param, read, .. } => [(param.name.to_string(), read(&events[i]).unwrap())].into(),
        };
        let id = option_id(live.len(), &option);
        let actor = Actor::Player(names[usize::from(option.seat)].clone());
        let key = Some(IdempotencyId::from_key(&format!("pick {i}")));
        let before = live.len();
        let recorded = live
            .pick(
                Write { store: &s, actor: actor.clone(), expected: Some(before), idempotency: key },
                &[option.seat],
                &id,
                &params,
            )
            .unwrap();
        if recorded.len() > 1 {
            batches += 1;
            // One append: every event of it reports the same head, the store's head after it.
            assert!(recorded.iter().all(|r| r.head == recorded[0].head));
            assert_eq!(s.export(&stream).unwrap().head, recorded[0].head);
            assert_eq!(recorded.last().unwrap().seq + 1, live.len());
        }
        // The same request again (a timeout, say): recognised, nothing written.
        let again = live
            .pick(Write { store: &s, actor, expected: Some(before), idempotency: key }, &[option.seat], &id, &params)
            .unwrap();
        assert!(again.len() == 1 && again[0].retried && again[0].seq == before, "{again:?}");
        assert_eq!(live.len(), before + recorded.len() as u64);
    }
    assert!(batches > 3, "{batches} picks made steps due");
}

#[test]
fn the_timeline_names_whose_action_a_scorekeeper_entered_and_kifus_automatic_steps() {
    let (s, mut live, events) = lc_at_first_turn();
    let names = ["ana", "rui"];
    // The first pick entered by its own player, the second by a scorekeeper for its seat.
    for (i, actor) in [(0usize, None), (1, Some(Actor::Organizer("carol".into())))] {
        let state = live.replay.tip().game.clone();
        let option = offering::<Lc>(&state, &events[live.len() as usize]).remove(0);
        let params: BTreeMap<String, Vec<String>> = match &option.pick {
            Pick::Event(_) => BTreeMap::new(),
            Pick::Param { param, read, .. } => {
                [(param.name.to_string(), read(&events[live.len() as usize]).unwrap())].into()
            }
        };
        let actor = actor.unwrap_or_else(|| Actor::Player(names[usize::from(option.seat)].into()));
        let id = option_id(live.len(), &option);
        live.pick(Write { store: &s, actor, expected: None, idempotency: None }, &[option.seat], &id, &params)
            .unwrap_or_else(|e| panic!("pick {i}: {e}"));
    }
    let lines = live.timeline_range(kifu::game::Viewer::Judge, 0, live.len());
    assert_eq!(lines[0].action_of, None, "a player's own entry names no one else: {:?}", lines[0]);
    assert_eq!(lines[1].actor, "organizer:carol");
    let seat = Lc::acting_seat(&events[1]).expect("the second event is a seat's");
    assert_eq!(lines[1].action_of.as_deref(), Some(names[usize::from(seat)]), "{:?}", lines[1]);
}
