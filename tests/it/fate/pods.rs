//! Pod pairing for FATE tournaments (`kifu::tournament::pods`): pods of 4 filled with pods of 3,
//! built from the standings without repeated pod-mates where possible, points from placements.

use std::collections::BTreeMap;

use kifu::game::selfplay::self_play;
use kifu::games::fate::Fate;
use kifu::tournament::pods::{opponents_average, pair_pods, pod_sizes, points, record_pod, Met, PodSize, PointsTable};

#[test]
fn pods_of_four_are_filled_with_pods_of_three() {
    let four = PodSize::default();
    assert_eq!(pod_sizes(12, four), Ok(vec![4, 4, 4]));
    assert_eq!(pod_sizes(13, four), Ok(vec![4, 3, 3, 3]));
    assert_eq!(pod_sizes(14, four), Ok(vec![4, 4, 3, 3]));
    assert_eq!(pod_sizes(15, four), Ok(vec![4, 4, 4, 3]));
    assert_eq!(pod_sizes(6, four), Ok(vec![3, 3]));
    assert!(pod_sizes(5, four).is_err());
    assert_eq!(pod_sizes(10, PodSize { size: 5 }), Ok(vec![5, 5]));
}

#[test]
fn points_come_from_placements_by_the_table() {
    let t = PointsTable::default();
    assert_eq!(points(&[2], 2, t), 5);
    assert_eq!(points(&[1, 2], 2, t), 1);
    assert_eq!(points(&[1], 2, t), 0);
}

#[test]
fn a_twelve_player_pod_event_of_self_played_games_avoids_repeat_pod_mates() {
    let players: Vec<String> = (1..=12).map(|i| format!("m{i:02}")).collect();
    let mut met = Met::new();
    let mut score: BTreeMap<String, u32> = players.iter().map(|p| (p.clone(), 0)).collect();
    let mut games: Vec<(Vec<String>, Vec<u32>)> = Vec::new();
    for round in 0..3u64 {
        let mut round_repeats = 0;
        let mut ranked = players.clone();
        ranked.sort_by_key(|p| (std::cmp::Reverse(score[p]), p.clone()));
        let pods = pair_pods(&ranked, &met, PodSize::default()).unwrap();
        assert_eq!(pods.len(), 3);
        for (i, pod) in pods.iter().enumerate() {
            if round == 1 {
                // After round 1's three pods of 4, a pod of 4 must hold two players from one of
                // them: one repeated pair is the least possible, and the pairing achieves it.
                let mut repeats = 0;
                for (a, x) in pod.iter().enumerate() {
                    for y in &pod[a + 1..] {
                        let k = if x <= y { (x.clone(), y.clone()) } else { (y.clone(), x.clone()) };
                        repeats += met.get(&k).copied().unwrap_or(0);
                    }
                }
                assert!(repeats <= 1, "round 2 pod {pod:?} repeats {repeats} pairs");
                round_repeats += repeats;
            }
            let game = self_play::<Fate>(round * 10 + i as u64, pod, 100_000).unwrap();
            let outcome = game.final_state.result.clone().unwrap();
            let pts: Vec<u32> =
                (0..pod.len() as u8).map(|seat| points(&outcome.winners(), seat, PointsTable::default())).collect();
            for (p, x) in pod.iter().zip(&pts) {
                *score.get_mut(p).unwrap() += x;
            }
            record_pod(&mut met, pod);
            games.push((pod.clone(), pts));
        }
        if round == 1 {
            assert_eq!(round_repeats, 3, "one repeated pair per pod is the least possible");
        }
    }
    let total: u32 = score.values().sum();
    assert!(total > 0);
    let oa = opponents_average("m01", &games);
    assert!((0.0..=5.0).contains(&oa));
}
