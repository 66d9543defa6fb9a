//! Property tests: the fold, validation, views and descriptions are total on arbitrary events.

use kifu::game::commit::Commitment;
use kifu::game::{Game, Viewer};
use kifu::games::naruto::events::*;
use kifu::games::naruto::{Naruto, NarutoEvent as E, NarutoState};
use proptest::prelude::*;

/// Decodes random words into an arbitrary (usually illegal) event.
fn arbitrary_event(w: &[u32]) -> E {
    let mut i = 0;
    let mut next = |m: u32| {
        let v = w.get(i).copied().unwrap_or(0) % m.max(1);
        i += 1;
        v
    };
    let card = |n: u32| {
        if n % 17 == 0 {
            "bogus".to_string()
        } else {
            format!("p{}-{}", n % 3, n % 64)
        }
    };
    let seat = |n: u32| (n % 3) as u8;
    let zones = [
        Zone::Deck,
        Zone::DeckBottom,
        Zone::DeckSearch,
        Zone::Hand,
        Zone::Chakra,
        Zone::Village,
        Zone::Battlefield,
        Zone::Discard,
        Zone::Rewards,
        Zone::Removed,
    ];
    let steps = [
        Step::Setup,
        Step::Draw,
        Step::Mission,
        Step::Organization,
        Step::Attack,
        Step::Block,
        Step::Jutsu,
        Step::Calculation,
        Step::Return,
        Step::Winner,
        Step::HandCheck,
        Step::Marker,
        Step::TurnEnded,
    ];
    let (a, b, c, d) = (next(1000), next(1000), next(1000), next(1000));
    let cards = |n: u32| (0..n % 5).map(|k| card(a.wrapping_add(k * 7))).collect::<Vec<_>>();
    let refs = |n: u32| {
        (0..n % 4)
            .map(|k| if k == 1 { CardRef::Sealed(Commitment([k as u8; 32])) } else { CardRef::Open(card(b + k)) })
            .collect::<Vec<_>>()
    };
    match next(26) {
        0 => E::TurnMarkerSet { seat: Some(seat(a)), value: b % 3 },
        1 => E::DeckShuffled { deck: seat(a), by: seat(b), seed: None },
        2 => E::OpeningHandDrawn { seat: seat(a), cards: refs(c) },
        3 => E::MulliganTaken { seat: seat(a), attempt: (b % 4) as u8 },
        4 => E::TurnStarted { turn: a % 5, attacker: seat(b) },
        5 => E::CardDrawn { seat: seat(a), card: refs(3).pop().unwrap_or(CardRef::Open(card(c))) },
        6 => E::StepAdvanced { to: steps[(a % 13) as usize] },
        7 => E::NinjaDeployed {
            seat: seat(a),
            card: card(b),
            from: if c % 2 == 0 { DeployFrom::Hand } else { DeployFrom::Chakra },
            hand_cost_paid: cards(d),
        },
        8 => E::MissionPlayed {
            seat: seat(a),
            card: card(b),
            counter: c % 2 == 0,
            element: None,
            targets: cards(d),
            hand_cost_paid: cards(c),
        },
        9 => E::ChakraCharged { seat: seat(a), cards: cards(b) },
        10 => {
            E::ClientDeployed { seat: seat(a), card: card(b), element: Some("Fire".into()), hand_cost_paid: cards(c) }
        }
        11 => E::TeamsOrganized { seat: seat(a), teams: vec![cards(b), cards(c)] },
        12 => E::AttackingTeamsSent { seat: seat(a), teams: vec![SentTeam { leader: card(b), supports: cards(c) }] },
        13 => E::BlockingTeamsSent {
            seat: seat(a),
            teams: vec![BlockingTeam { leader: card(b), supports: cards(c), blocks: card(d) }],
        },
        14 => E::JutsuUsed { seat: seat(a), card: card(b), ninja: card(c), targets: vec![], cost_paid: cards(d) },
        15 => E::BattleRewardTaken { seat: seat(a), team: card(b), cards: refs(c) },
        16 => E::FightResolved {
            attacker: card(a),
            blocker: card(b),
            mental: c % 2 == 0,
            attack_power: (c % 20) as i32 - 5,
            block_power: (d % 20) as i32 - 5,
            result: FightResult::Draw,
            damage: vec![Damage { ninja: card(c), amount: d % 3 }],
            injured: cards(a),
            defeated: cards(b),
        },
        17 => E::TeamsReturned {},
        18 => E::WinnerDetermined {
            winner: seat(a),
            reason: if b % 2 == 0 { WinReason::Rewards } else { WinReason::DeckOut },
        },
        19 => E::HandCheckDiscard { seat: seat(a), cards: cards(b) },
        20 => E::TurnMarkerAdvanced { seat: if a % 3 == 2 { None } else { Some(seat(a)) }, value: b % 9 },
        21 => E::CardMoved {
            card: card(a),
            from: ZoneRef { seat: seat(b), zone: zones[(c % 10) as usize] },
            to: ZoneRef { seat: seat(d), zone: zones[(a % 10) as usize] },
            cause: "prop".into(),
        },
        22 => E::ModifierApplied {
            target: card(a),
            stat: Stat::Support,
            delta: (b % 7) as i32 - 3,
            duration: Duration::EndOfTurn,
        },
        23 => E::NinjaDefeated { ninja: card(a), cause: "prop".into() },
        24 => E::CardRevealed { commitment: Commitment([1; 32]), instance: card(a), salt: Commitment([2; 32]) },
        _ => E::JutsuExchangeEnded {},
    }
}

fn states() -> Vec<NarutoState> {
    let game = super::play(11, true);
    game.states.iter().step_by(25).cloned().collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, rng_seed: proptest::test_runner::RngSeed::Fixed(20261121), ..ProptestConfig::default() })]

    #[test]
    fn apply_validate_view_describe_are_total(start in 0usize..1000, words in proptest::collection::vec(any::<u32>(), 6..120)) {
        let all = states();
        let mut s = all[start % all.len()].clone();
        for chunk in words.chunks(6) {
            let e = arbitrary_event(chunk);
            let _ = Naruto::validate(&s, &e);
            let _ = Naruto::describe(&s, &e, Viewer::Player(0));
            s = Naruto::apply(s, &e);
            let _ = Naruto::view(&s, Viewer::Spectator);
            let _ = Naruto::position(&s);
            // The fold keeps counts consistent whatever it is fed.
            for p in &s.players {
                prop_assert!(p.deck.len() >= p.deck_count || p.deck_count > 0);
            }
        }
    }
}
