//! Pod tournaments of a multiplayer game (FATE): a 12-player event of self-played 4-Master games
//! over three rounds verifies with a root hash covering every game; a misreported place, a game
//! by the wrong players and pods that do not match the seed are refused or reported by verify.

use std::sync::Arc;

use kifu::clock::SteppingClock;
use kifu::game::commit::Commitment;
use kifu::game::driver::Driver;
use kifu::log::envelope::{Actor, StreamId};
use kifu::store::sled_store::SledStore;
use kifu::store::{AppendRequest, ExpectedVersion, NewEvent, Store};
use kifu::tournament::events::{ConfigV1, RoundsPlan};
use kifu::tournament::{event, record, round_seed, verify, Policy, TournamentEvent};

fn fate() -> &'static dyn Driver {
    kifu::games::driver("fate").expect("this build records FATE")
}

fn details(report: &verify::Report) -> String {
    report
        .checks
        .iter()
        .map(|c| format!("{} {}: {}", c.check, if c.ok { "ok" } else { "FAILED" }, c.detail))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn a_twelve_player_pod_event_of_fate_games_verifies_and_its_root_covers_every_game() {
    let clock = SteppingClock::fixed();
    let store = SledStore::temporary(Arc::new(SteppingClock::fixed())).unwrap();
    let id = StreamId::new("fate-pods").unwrap();
    let seed = Commitment([7; 32]);
    let run = event::run_pod_event(&store, fate(), &id, 12, 3, seed, &clock).unwrap();
    assert!(run.report.ok(), "{}", details(&run.report));
    assert_eq!(run.games.len(), 9, "three rounds of three pods of 4");
    assert_eq!(run.report.games, 9);
    let loaded = record::load(&store, &id).unwrap();
    let st = &loaded.state;
    // Every game is linked with its current head, and the root commits to exactly those.
    let linked = verify::linked_games(&loaded);
    for g in &run.games {
        assert_eq!(linked.get(g.as_str()), Some(&store.head(g).unwrap().hash), "{g} is covered by the root");
        assert_eq!(store.export(g).unwrap().header.v1().players.len(), 4, "{g} is a 4-Master game");
    }
    assert_eq!(run.report.root, verify::root_hash(loaded.head.hash, loaded.head.len, &linked));
    // Every round re-derives from the revealed seed; every player played every round.
    for r in &st.rounds {
        assert_eq!(r.pods.len(), 3);
        let rs = round_seed(&seed, r.round);
        assert_eq!(r.seed, Some(rs));
    }
    let standings = st.pod_standings();
    assert_eq!(standings.len(), 12);
    assert!(standings.iter().all(|r| r.games == 3));
    assert!(standings.windows(2).all(|w| w[0].points >= w[1].points), "standings by points first");
    let total: u32 = standings.iter().map(|r| r.points).sum();
    assert!(total > 0, "somebody scored");
    // Round 2 avoids round 1's pod-mates as far as 12 players allow (at most one repeated pair per pod).
    let names = |p: &kifu::tournament::state::PodState| -> Vec<String> {
        p.seats.iter().map(|&s| st.players[s].name.clone()).collect()
    };
    let mut met = kifu::tournament::pods::Met::new();
    for p in &st.rounds[0].pods {
        kifu::tournament::pods::record_pod(&mut met, &names(p));
    }
    for p in &st.rounds[1].pods {
        let n = names(p);
        let repeats = kifu::tournament::pods::repeats_in(&n, &met);
        assert!(repeats <= 1, "round 2 pod {n:?} repeats {repeats} pairs");
    }
}

fn raw_append(store: &SledStore, id: &StreamId, ev: &TournamentEvent) {
    let len = store.head(id).unwrap().len;
    store
        .append(AppendRequest {
            stream: id.clone(),
            expected: ExpectedVersion::Exact(len),
            create: None,
            events: vec![NewEvent {
                actor: Actor::Organizer("mallory".into()),
                payload: postcard::to_stdvec(ev).unwrap(),
                idempotency: None,
            }],
        })
        .unwrap();
}

#[test]
fn misreported_places_wrong_players_and_pods_off_the_seed_are_refused_or_reported() {
    let clock = SteppingClock::fixed();
    let store = SledStore::temporary(Arc::new(SteppingClock::fixed())).unwrap();
    let id = StreamId::new("fate-pods-bad").unwrap();
    let seed = Commitment([9; 32]);
    event::create_pod_event(&store, fate(), &id, 12, 2, &seed, &clock).unwrap();
    let state = record::load(&store, &id).unwrap().state;
    let rs = round_seed(&seed, 1);
    let good = state.derive_pods(1, &rs).unwrap();

    // Pods that do not match the seed are refused, and nothing is written.
    let mut off = good.clone();
    let (x, y) = (off[0][0].clone(), off[1][0].clone());
    off[0][0] = y;
    off[1][0] = x;
    let before = store.head(&id).unwrap().len;
    let ev = TournamentEvent::PodRoundPaired { round: 1, pods: off.clone(), round_seed: rs };
    let err = record::record(&store, &id, Actor::Organizer("o".into()), vec![ev]).unwrap_err().to_string();
    assert!(err.contains("pods are not the ones its seed and the pod standings give"), "{err}");
    assert!(err.contains("pod 1: expected"), "{err}");
    assert_eq!(store.head(&id).unwrap().len, before);
    // Two-player events have no place in a pod tournament.
    let table = kifu::tournament::events::PairedTable { table: 1, a: good[0][0].clone(), b: good[0][1].clone() };
    let ev = TournamentEvent::RoundPaired { round: 1, tables: vec![table], byes: vec![], round_seed: Some(rs) };
    let err = record::record(&store, &id, Actor::Organizer("o".into()), vec![ev]).unwrap_err().to_string();
    assert!(err.contains("this tournament plays in pods"), "{err}");

    assert_eq!(event::pair_pod_round(&store, &id, &seed, 1).unwrap(), good);
    let mut played = Vec::new();
    for (i, pod) in good.iter().enumerate() {
        played.push(event::play_pod(&store, fate(), &clock, &id, &seed, 1, i as u32 + 1, pod).unwrap());
    }
    // Pod 1's game, bound to pod 1, cannot be linked to pod 2.
    let loaded = record::load(&store, &id).unwrap();
    let err = kifu::tournament::claim::claim_pod_games(&store, &loaded, 1, 2, &[played[0].0.to_string()])
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("it was created bound to fate-pods-bad round 1 pod 1, not to fate-pods-bad round 1 pod 2"),
        "{err}"
    );
    // Malformed places are refused when reported.
    let err = event::report_pod(&store, &id, 1, 1, vec![1, 1, 3, 5], &played[0].0).unwrap_err().to_string();
    assert!(err.contains("are not the places of a 4-player pod"), "{err}");
    // A misreported place: well formed, recorded, and caught by verify against the game's outcome.
    let (game, places) = &played[1];
    let mut wrong = places.clone();
    wrong.rotate_left(1);
    if wrong == *places {
        wrong = if places[0] == 1 { vec![4; 4] } else { vec![1, 2, 3, 4] };
    }
    event::report_pod(&store, &id, 1, 1, played[0].1.clone(), &played[0].0).unwrap();
    event::report_pod(&store, &id, 1, 2, wrong.clone(), game).unwrap();
    event::report_pod(&store, &id, 1, 3, played[2].1.clone(), &played[2].0).unwrap();
    // A round 2 written around kifu with pods off the seed.
    let state = record::load(&store, &id).unwrap().state;
    let rs2 = round_seed(&seed, 2);
    let mut off = state.derive_pods(2, &rs2).unwrap();
    let (x, y) = (off[0][0].clone(), off[2][0].clone());
    off[0][0] = y;
    off[2][0] = x;
    raw_append(&store, &id, &TournamentEvent::PodRoundPaired { round: 2, pods: off, round_seed: rs2 });

    let report = verify::verify(&store, &id, &kifu::games::driver).unwrap();
    let text = details(&report);
    assert!(!report.ok(), "{text}");
    assert!(
        text.contains("round 1 pod 2 (")
            && text.contains(&format!("reported places {wrong:?}, but the linked game's outcome gives {places:?}")),
        "{text}"
    );
    assert!(text.contains("pairings FAILED"), "{text}");
    assert!(text.contains("round 2's pods are not the ones its seed and the pod standings give"), "{text}");
}

#[test]
fn a_two_player_tournament_cannot_record_pods() {
    let store = SledStore::temporary(Arc::new(SteppingClock::fixed())).unwrap();
    let id = StreamId::new("swiss-no-pods").unwrap();
    let seed = Commitment([3; 32]);
    let config = ConfigV1 {
        name: "t".into(),
        game: "fate".into(),
        policy: Policy::Mtr,
        rounds: RoundsPlan::Fixed(1),
        top_cut: 0,
        seed_commitment: Some(kifu::game::commit::commit_seed(&seed)),
    };
    let regs = (1..=4).map(|i| TournamentEvent::PlayerRegistered { player: format!("p{i}"), deck: None }).collect();
    record::create(&store, &id, &config, Actor::Organizer("o".into()), kifu::log::envelope::Timestamp(0), regs)
        .unwrap();
    let pods = vec![vec!["p1".to_string(), "p2".into(), "p3".into(), "p4".into()]];
    let ev = TournamentEvent::PodRoundPaired { round: 1, pods, round_seed: round_seed(&seed, 1) };
    let err = record::record(&store, &id, Actor::Organizer("o".into()), vec![ev]).unwrap_err().to_string();
    assert!(err.contains("does not play in pods"), "{err}");
    let config = ConfigV1 { top_cut: 4, ..config };
    let id = StreamId::new("swiss-cut").unwrap();
    let err = record::create(
        &store,
        &id,
        &config,
        Actor::Organizer("o".into()),
        kifu::log::envelope::Timestamp(0),
        vec![event::pod_format()],
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("a pod tournament has no top cut"), "{err}");
}

/// Plays every pod of `round` (pods as `pair --json` printed them) and returns each pod's game and places.
fn play_round(
    env: &crate::support::TestEnv,
    id: &str,
    round: u32,
    pods: &serde_json::Value,
) -> Vec<(String, Vec<u32>)> {
    let store = env.store();
    let tid = StreamId::new(id).unwrap();
    let seed = Commitment([5; 32]);
    let mut out = Vec::new();
    for (i, pod) in pods.as_array().unwrap().iter().enumerate() {
        let players: Vec<String> = pod.as_array().unwrap().iter().map(|p| p.as_str().unwrap().to_string()).collect();
        let (game, places) =
            event::play_pod(&store, fate(), &SteppingClock::fixed(), &tid, &seed, round, i as u32 + 1, &players)
                .unwrap();
        out.push((game.to_string(), places));
    }
    out
}

fn places_arg(places: &[u32]) -> String {
    places.iter().map(|p| p.to_string()).collect::<Vec<_>>().join(",")
}

#[test]
fn a_judge_corrects_a_pod_result_and_pods_export_to_csv_but_not_to_tom() {
    let env = crate::support::TestEnv::new();
    let id = "fate-cli-pods";
    let seed = "33".repeat(32);
    env.ok(&[
        "tournament",
        "new",
        "--name",
        "Pod night",
        "--game",
        "fate",
        "--id",
        id,
        "--seed",
        &seed,
        "--format",
        "pods",
        "--rounds",
        "2",
    ]);
    let names: Vec<String> = (1..=12).map(|i| format!("p{i:02}")).collect();
    let mut args = vec!["tournament", "register", id];
    args.extend(names.iter().map(String::as_str));
    env.ok(&args);
    let paired: serde_json::Value = serde_json::from_str(&env.ok(&["tournament", "pair", id, "--json"])).unwrap();
    let played = play_round(&env, id, 1, &paired["pods"]);
    // Pod 2's slip is misread: its places are reported wrong.
    let (game2, right) = played[1].clone();
    let mut wrong = right.clone();
    wrong.rotate_left(1);
    if wrong == right {
        wrong = if right[0] == 1 { vec![4; 4] } else { vec![1, 2, 3, 4] };
    }
    for (i, (game, places)) in played.iter().enumerate() {
        let places = if i == 1 { &wrong } else { places };
        let pod = (i + 1).to_string();
        env.ok(&["tournament", "report", id, "--pod", &pod, "--places", &places_arg(places), "--game", game]);
    }
    let (ok, text) = super::runs::verify(&env, id);
    assert!(!ok, "{text}");
    assert!(
        text.contains(&format!("reported places {wrong:?}, but the linked game's outcome gives {right:?}")),
        "{text}"
    );

    // A second report is refused; a correction needs a judge and a reason; nothing is written.
    let right_arg = places_arg(&right);
    let report = ["tournament", "report", id, "--round", "1", "--pod", "2", "--places", &right_arg, "--game", &game2];
    let err = env.fails(&report);
    assert!(err.contains("already has a result; a judge corrects it with a reason"), "{err}");
    let err = env.fails(&[&report[..], &["--judge", "jo"]].concat());
    assert!(err.contains("a correction needs both --judge and --reason"), "{err}");
    let err =
        env.fails(&["tournament", "report", id, "--pod", "9", "--places", "1,2,3,4", "--judge", "jo", "--reason", "x"]);
    assert!(err.contains("round 1 has no pod 9"), "{err}");
    let out = env.ok(&[&report[..], &["--judge", "jo", "--reason", "slip read upside down"]].concat());
    assert!(out.contains("corrected"), "{out}");
    let (ok, text) = super::runs::verify(&env, id);
    assert!(ok, "{text}");
    assert!(
        text.contains(&format!(
            "corrections ok: round 1 pod 2 to places {right:?} by judge jo (slip read upside down)"
        )),
        "{text}"
    );
    let standings = env.ok(&["tournament", "standings", id]);
    assert!(standings.contains("Corrected: round 1 pod 2"), "{standings}");

    // CSV: one row per seat with its place, and pod standings; TOM refuses pods and says why.
    let csv = env.ok(&["tournament", "export", id, "--csv", "pairings"]);
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines[0], "round,pod,seat,player,place,corrected");
    assert_eq!(lines.len(), 13, "{csv}");
    let pod2: Vec<&str> = lines.iter().copied().filter(|l| l.starts_with("1,2,")).collect();
    assert_eq!(pod2.len(), 4, "{csv}");
    for (seat, l) in pod2.iter().enumerate() {
        assert!(l.ends_with(&format!(",{},true", right[seat])), "{l}");
    }
    let csv = env.ok(&["tournament", "export", id, "--csv", "standings"]);
    assert!(csv.starts_with("rank,player,points,games,opponents_average,dropped\n"), "{csv}");
    assert_eq!(csv.lines().count(), 13);
    let err = env.fails(&["tournament", "export", id, "--to", "tom"]);
    assert!(err.contains("TOM cannot hold a pod tournament") && err.contains("two-player"), "{err}");

    // Finishing the event: verify's finalized line speaks of pod rounds, not a top cut.
    let early = env.fails(&["tournament", "finalize", id]);
    assert!(early.contains("only 1 of 2 pod rounds were played"), "{early}");
    let paired: serde_json::Value = serde_json::from_str(&env.ok(&["tournament", "pair", id, "--json"])).unwrap();
    for (i, (game, places)) in play_round(&env, id, 2, &paired["pods"]).iter().enumerate() {
        let pod = (i + 1).to_string();
        env.ok(&["tournament", "report", id, "--pod", &pod, "--places", &places_arg(places), "--game", game]);
    }
    env.ok(&["tournament", "finalize", id]);
    let (ok, text) = super::runs::verify(&env, id);
    assert!(ok, "{text}");
    assert!(
        text.contains("finalized ok: finalized after every planned pod round (2; a pod tournament has no top cut)"),
        "{text}"
    );
    assert!(!text.contains("top-cut round"), "{text}");
}
