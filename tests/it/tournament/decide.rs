//! The tournament's rules as given/when/then: given the events so far, when one more is offered,
//! then `validate` names exactly the `TOUR-*` rules it breaks. One case per rule at least; every
//! registered ID has a case and every ID the source uses is registered.

use std::collections::BTreeSet;

use kifu::game::commit::{commit_seed, Commitment, Secret};
use kifu::game::Violation;
use kifu::log::envelope::{Actor, StreamId, Timestamp};
use kifu::log::hash::Hash32;
use kifu::store::sled_store::SledStore;
use kifu::store::{AppendRequest, ExpectedVersion, NewEvent, Store};
use kifu::tournament::events::{Checkpoint, GameLink, PairedTable, Penalty};
use kifu::tournament::rules::{is_tour_rule, TOUR_RULES};
use kifu::tournament::state::Tournament;
use kifu::tournament::{record, round_seed, ConfigV1, MatchScore, Policy, RoundsPlan, TournamentEvent as E};

use crate::game_support::cases;

const SEED: Secret = Commitment([5; 32]);

fn config(rounds: u32, top_cut: u32, seeded: bool) -> ConfigV1 {
    ConfigV1 {
        name: "cup".into(),
        game: "stones".into(),
        policy: Policy::Mtr,
        rounds: RoundsPlan::Fixed(rounds),
        top_cut,
        seed_commitment: seeded.then(|| commit_seed(&SEED)),
    }
}

/// A tournament folded from events, each checked on the way (a given is itself legal).
struct Given(Tournament);

impl Given {
    fn created(rounds: u32, top_cut: u32) -> Self {
        Given(Tournament::default()).then(E::Created { config: config(rounds, top_cut, true) })
    }

    /// Created and `n` players registered (`p1`, `p2`, ...).
    fn players(n: usize, rounds: u32, top_cut: u32) -> Self {
        (1..=n).fold(Given::created(rounds, top_cut), |g, i| g.then(register(&format!("p{i}"))))
    }

    fn then(self, e: E) -> Self {
        let broken = self.0.validate(&e);
        assert!(broken.is_empty(), "the given {e:?} is itself refused: {broken:?}");
        Given(self.0.apply(&e))
    }

    /// The next Swiss round as the seed and the standings give it.
    fn next_round(&self) -> E {
        let round = self.0.rounds.len() as u32 + 1;
        let rs = round_seed(&SEED, round);
        let (tables, byes) = self.0.derive_round(round, &rs);
        E::RoundPaired { round, tables, byes, round_seed: Some(rs) }
    }

    fn paired(self) -> Self {
        let e = self.next_round();
        self.then(e)
    }

    /// Every table of the latest round won 2-0 by its first-listed player.
    fn reported(self) -> Self {
        let r = self.0.rounds.last().expect("a paired round");
        let (round, tables) = (r.round, r.tables.iter().map(|t| t.table).collect::<Vec<_>>());
        tables.into_iter().fold(self, |g, table| g.then(result(round, table, 2, 0)))
    }

    fn cut(self) -> Self {
        let (round, tables) = self.0.derive_top_cut().expect("a top cut to pair");
        self.then(E::TopCutPaired { round, tables })
    }

    /// A pod tournament of `n` players, pods of 4, round 1 paired.
    fn pods(n: usize) -> Self {
        let g = Given(Tournament::default()).then(E::Created { config: config(2, 0, true) });
        let g = (1..=n).fold(g, |g, i| g.then(register(&format!("p{i}"))));
        let g = g.then(E::PodFormatSet { size: 4, sole_win: 5, shared_win: 1, loss: 0 });
        let rs = round_seed(&SEED, 1);
        let pods = g.0.derive_pods(1, &rs).expect("pods");
        g.then(E::PodRoundPaired { round: 1, pods, round_seed: rs })
    }

    /// When `e` is offered: the rules it breaks.
    fn when(self, e: E) -> Vec<Violation> {
        self.0.validate(&e)
    }
}

fn register(name: &str) -> E {
    E::PlayerRegistered { player: name.into(), deck: None }
}

fn result(round: u32, table: u32, a_wins: u32, b_wins: u32) -> E {
    E::ResultReported { round, table, score: MatchScore { a_wins, b_wins, draws: 0 }, games: vec![] }
}

fn link(stream: &str) -> GameLink {
    GameLink { stream: stream.into(), head: Hash32::default() }
}

fn penalty(player: &str, round: u32, penalty: Penalty, reason: &str) -> E {
    E::PenaltyIssued { player: player.into(), round, penalty, judge: "jo".into(), reason: reason.into() }
}

fn infraction(player: &str, code: &str, penalty: Penalty, downgrade: Option<&str>) -> E {
    E::InfractionPenalized {
        player: player.into(),
        round: 1,
        infraction: code.into(),
        penalty,
        judge: "jo".into(),
        reason: "seen by jo".into(),
        downgrade: downgrade.map(Into::into),
        call: None,
    }
}

/// A call at round 1 table `table`, opened at second 0.
fn open_call(table: u32) -> E {
    E::JudgeCallOpened { round: 1, table, caller: "p1".into(), at: Timestamp(0) }
}

/// Closing call 1 at second `secs`.
fn close_call(secs: i64) -> E {
    E::JudgeCallClosed {
        call: 1,
        judge: "jo".into(),
        at: Timestamp(secs * 1_000_000),
        outcome: kifu::tournament::events::CallOutcome::Ruling,
        note: String::new(),
    }
}

fn appeal_of_penalty_1(player: &str) -> E {
    E::AppealLodged { ruling: kifu::tournament::events::RulingRef::Penalty(1), player: player.into(), at: Timestamp(0) }
}

fn decided(judge: &str, decision: kifu::tournament::events::AppealDecision) -> E {
    E::AppealDecided { appeal: 1, decision, judge: judge.into(), reason: "heard both players".into() }
}

/// Then: exactly the rules `covers` are broken (each at least once, no other).
fn run(name: &str, covers: &[&str], case: impl FnOnce() -> Vec<Violation>) {
    let broken = case();
    let got: BTreeSet<&str> = broken.iter().map(|v| v.rule).collect();
    let want: BTreeSet<&str> = covers.iter().copied().collect();
    assert_eq!(got, want, "{name}: {broken:#?}");
    for v in &broken {
        assert!(!v.message.trim().is_empty(), "{name}: {v} says nothing");
    }
}

/// A log whose `Created` differs from the header's configuration, checked as `verify` checks it.
fn created_differs_from_header() -> Vec<Violation> {
    let store = SledStore::temporary(std::sync::Arc::new(kifu::clock::SteppingClock::fixed())).unwrap();
    let id = StreamId::new("header-mismatch").unwrap();
    let created = E::Created { config: config(3, 0, false) };
    let request = AppendRequest {
        stream: id.clone(),
        expected: ExpectedVersion::NoStream,
        create: Some(record::header(&id, &config(4, 0, false), Timestamp(0)).unwrap()),
        events: vec![NewEvent {
            actor: Actor::Organizer("mallory".into()),
            payload: postcard::to_stdvec(&created).unwrap(),
            idempotency: None,
        }],
    };
    store.append(request).unwrap();
    let loaded = record::from_log_checked(&store.export(&id).unwrap()).unwrap();
    loaded.problems.into_iter().flat_map(|(_, _, v)| v).collect()
}

cases! {
    runner: run;
    // Registration.
    the_first_event_is_created [ "TOUR-LOG-1" ] => || Given(Tournament::default()).when(register("ann"));
    created_only_once [ "TOUR-LOG-1" ] => || Given::created(3, 0).when(E::Created { config: config(3, 0, true) });
    the_created_event_is_the_headers [ "TOUR-LOG-2" ] => created_differs_from_header;
    an_entry_is_set_aside_with_a_reason [ "TOUR-LOG-3" ] => || {
        Given::players(2, 3, 0).when(E::EntrySetAside { seq: 1, by: "org".into(), reason: " ".into() })
    };
    only_an_earlier_entry_is_set_aside [ "TOUR-LOG-3" ] => || {
        Given::players(2, 3, 0).when(E::EntrySetAside { seq: 3, by: "org".into(), reason: "a note".into() })
    };
    a_set_aside_entry_is_never_recorded [ "TOUR-LOG-3" ] => || {
        Given::players(2, 3, 0).when(E::SetAside { by: "org".into(), at: 2 })
    };
    a_name_is_registered_trimmed [ "TOUR-REG-1" ] => || Given::created(3, 0).when(register(" ann"));
    a_bye_marker_is_no_name [ "TOUR-REG-1" ] => || Given::created(3, 0).when(register("-"));
    names_ignore_case [ "TOUR-REG-2" ] => || Given::created(3, 0).then(register("ann")).when(register("ANN"));
    registration_closes_at_round_one [ "TOUR-REG-3" ] => || Given::players(4, 3, 0).paired().when(register("zed"));
    a_late_entrant_starts_next_round [ "TOUR-REG-3" ] => || {
        Given::players(4, 3, 0).paired().when(E::LateEntered { player: "zed".into(), deck: None, first_round: 3 })
    };
    a_drop_names_a_registered_player [ "TOUR-REG-4" ] => || {
        Given::players(2, 3, 0).when(E::PlayerDropped { player: "zed".into(), after_round: 0, reason: "ill".into() })
    };
    a_player_drops_once [ "TOUR-REG-5" ] => || {
        let drop = || E::PlayerDropped { player: "p1".into(), after_round: 0, reason: "ill".into() };
        Given::players(2, 3, 0).then(drop()).when(drop())
    };
    // Deck lists.
    a_deck_list_is_for_a_registered_player [ "TOUR-DECK-1" ] => || {
        Given::players(2, 3, 0).when(E::DeckListRegistered { player: "zed".into(), commitment: Commitment([1; 32]) })
    };
    a_dropped_player_registers_no_list [ "TOUR-DECK-1" ] => || {
        let drop = E::PlayerDropped { player: "p1".into(), after_round: 0, reason: "ill".into() };
        Given::players(2, 3, 0).then(drop).when(E::DeckListRegistered { player: "p1".into(), commitment: Commitment([1; 32]) })
    };
    deck_lists_are_locked_once_round_1_is_paired [ "TOUR-DECK-2" ] => || {
        let list = |b| E::DeckListRegistered { player: "p1".into(), commitment: Commitment([b; 32]) };
        Given::players(2, 3, 0).then(list(1)).then(list(2)).paired().when(list(3))
    };
    a_late_entrant_registers_a_list_before_their_first_round [ ] => || {
        let late = E::LateEntered { player: "zed".into(), deck: None, first_round: 2 };
        Given::players(4, 3, 0).paired().then(late).when(E::DeckListRegistered { player: "zed".into(), commitment: Commitment([1; 32]) })
    };
    a_late_entrants_list_locks_once_their_first_round_is_paired [ "TOUR-DECK-2" ] => || {
        let late = E::LateEntered { player: "zed".into(), deck: None, first_round: 2 };
        let list = |b| E::DeckListRegistered { player: "zed".into(), commitment: Commitment([b; 32]) };
        Given::players(3, 3, 0).paired().then(late).then(list(1)).reported().paired().when(list(2))
    };
    a_list_is_changed_only_once_registered_and_with_a_judge_and_reason [ "TOUR-DECK-3" ] => || {
        let change = E::DeckListChanged { player: "p1".into(), commitment: Commitment([2; 32]), judge: "jin".into(), reason: " ".into() };
        Given::players(2, 3, 0).paired().when(change)
    };
    a_deck_check_needs_a_registered_list_and_a_paired_round [ "TOUR-DECK-4" ] => || {
        Given::players(2, 3, 0).paired().when(E::DeckChecked {
            round: 2,
            table: None,
            at: Timestamp(0),
            judge: "jin".into(),
            player: "p1".into(),
            result: kifu::tournament::events::DeckCheckResult::Matches,
        })
    };
    // Investigations.
    a_statement_is_about_a_player_of_the_event [ "TOUR-CASE-1" ] => || {
        Given::players(2, 3, 0).paired().when(E::StatementRecorded {
            player: "nobody".into(),
            by: kifu::tournament::events::StatementBy::Witness,
            author: "wes".into(),
            judge: "jin".into(),
            at: Timestamp(0),
            statement: Commitment([3; 32]),
        })
    };
    a_report_supports_a_disqualification_that_stands [ "TOUR-CASE-2" ] => || {
        Given::players(2, 3, 0)
            .paired()
            .then(E::HeadJudgeNamed { judge: "hj".into() })
            .then(E::SignerRecorded { signer: "hj".into(), public_key: [1; 32] })
            .then(penalty("p1", 1, Penalty::Warning, "slow play"))
            .when(E::DisqualificationReported {
                player: "p1".into(),
                penalty: 1,
                head_judge: "hj".into(),
                facts: "p1 looked at p2's hand".into(),
                reasons: "cheating".into(),
                at: Timestamp(0),
                signature: vec![0; 64],
            })
    };
    // Pairing.
    rounds_are_paired_in_order [ "TOUR-PAIR-1" ] => || {
        let g = Given::players(4, 3, 0);
        let E::RoundPaired { tables, byes, .. } = g.next_round() else { unreachable!() };
        let mut v = g.when(E::RoundPaired { round: 2, tables, byes, round_seed: Some(round_seed(&SEED, 2)) });
        // Round 1's tables under round 2's seed need not be its derivation either.
        v.retain(|x| x.rule != "TOUR-PAIR-7");
        v
    };
    a_round_waits_for_every_result [ "TOUR-PAIR-2" ] => || {
        let g = Given::players(4, 3, 0).paired();
        let next = E::RoundPaired { round: 2, tables: vec![], byes: vec![], round_seed: None };
        // Unseeded and empty: only the incomplete round 1 and the missing seed are wrong.
        let mut v = g.when(next);
        v.retain(|x| x.rule != "TOUR-SEED-1");
        v
    };
    no_more_rounds_than_planned [ "TOUR-PAIR-3" ] => || {
        let g = Given::players(4, 1, 0).paired().reported();
        let e = g.next_round();
        g.when(e)
    };
    a_round_needs_two_players [ "TOUR-PAIR-4" ] => || {
        let g = Given::players(1, 3, 0);
        let e = g.next_round();
        g.when(e)
    };
    a_player_sits_once [ "TOUR-PAIR-5", "TOUR-PAIR-7" ] => || {
        let t = |table, a: &str, b: &str| PairedTable { table, a: a.into(), b: b.into() };
        let rs = Some(round_seed(&SEED, 1));
        let tables = vec![t(1, "p1", "p2"), t(2, "p1", "p3")];
        Given::players(3, 3, 0).when(E::RoundPaired { round: 1, tables, byes: vec![], round_seed: rs })
    };
    tables_are_numbered_in_order [ "TOUR-PAIR-6" ] => || {
        let g = Given::players(4, 3, 0);
        let E::RoundPaired { mut tables, byes, round_seed, .. } = g.next_round() else { unreachable!() };
        tables.swap(0, 1);
        let mut v = g.when(E::RoundPaired { round: 1, tables, byes, round_seed });
        // Swapped tables are also not the derived pairing (TOUR-PAIR-7's case is below).
        v.retain(|x| x.rule != "TOUR-PAIR-7");
        v
    };
    a_round_is_the_one_its_seed_gives [ "TOUR-PAIR-7" ] => || {
        let g = Given::players(4, 3, 0);
        let E::RoundPaired { mut tables, byes, round_seed, .. } = g.next_round() else { unreachable!() };
        let b1 = tables[1].b.clone();
        let b = std::mem::replace(&mut tables[0].b, b1);
        tables[1].b = b;
        g.when(E::RoundPaired { round: 1, tables, byes, round_seed })
    };
    the_plan_covers_the_rounds_played [ "TOUR-PAIR-8" ] => || Given::players(2, 3, 0).when(E::SwissRoundsSet { rounds: 65 });
    voiding_gives_its_reason [ "TOUR-PAIR-9" ] => || {
        Given::players(4, 3, 0).paired().when(E::RoundVoided { round: 1, reason: " ".into() })
    };
    only_a_round_without_results_is_voided [ "TOUR-PAIR-10" ] => || {
        Given::players(4, 3, 0).paired().reported().when(E::RoundVoided { round: 1, reason: "late".into() })
    };
    // Seeds.
    a_committed_tournament_pairs_from_its_seed [ "TOUR-SEED-1" ] => || {
        let g = Given::players(4, 3, 0);
        let E::RoundPaired { tables, byes, .. } = g.next_round() else { unreachable!() };
        g.when(E::RoundPaired { round: 1, tables, byes, round_seed: None })
    };
    the_revealed_seed_matches [ "TOUR-SEED-2" ] => || Given::players(2, 3, 0).when(E::SeedRevealed { seed: Commitment([6; 32]) });
    one_commitment [ "TOUR-SEED-3" ] => || Given::created(3, 0).when(E::SeedCommitted { commitment: commit_seed(&SEED) });
    the_seed_is_revealed_before_finalizing [ "TOUR-SEED-4" ] => || {
        Given::players(2, 1, 0).paired().reported().when(E::Finalized)
    };
    // Results.
    a_result_names_a_paired_table [ "TOUR-RESULT-1" ] => || Given::players(4, 3, 0).paired().when(result(1, 9, 2, 0));
    a_match_is_reported_once [ "TOUR-RESULT-2" ] => || Given::players(2, 3, 0).paired().reported().when(result(1, 1, 2, 1));
    a_score_fits_the_match_format [ "TOUR-RESULT-3" ] => || {
        Given::players(2, 3, 0).then(E::MatchFormatSet { best_of: 3 }).paired().when(result(1, 1, 3, 0))
    };
    a_top_cut_match_has_a_winner [ "TOUR-RESULT-3" ] => || {
        Given::players(4, 1, 2).paired().reported().cut().when(result(2, 1, 1, 1))
    };
    a_correction_names_judge_and_reason [ "TOUR-RESULT-4" ] => || {
        let score = MatchScore { a_wins: 0, b_wins: 2, draws: 0 };
        let fix = E::ResultCorrected { round: 1, table: 1, score, games: vec![], judge: "jo".into(), reason: "".into() };
        Given::players(2, 3, 0).paired().reported().when(fix)
    };
    kifu_plays_best_of_one_three_or_five [ "TOUR-RESULT-5" ] => || Given::players(2, 3, 0).when(E::MatchFormatSet { best_of: 2 });
    a_game_backs_one_result [ "TOUR-RESULT-6" ] => || {
        let g = Given::pods(8).then(E::PodResultReported { round: 1, pod: 1, places: vec![1, 2, 3, 4], games: vec![link("g1")] });
        g.when(E::PodResultReported { round: 1, pod: 2, places: vec![1, 2, 3, 4], games: vec![link("g1")] })
    };
    // Penalties.
    a_penalty_gives_its_reason [ "TOUR-PEN-1" ] => || Given::players(2, 3, 0).paired().when(penalty("p1", 1, Penalty::Warning, " "));
    a_penalty_is_in_a_paired_round [ "TOUR-PEN-2" ] => || Given::players(2, 3, 0).paired().when(penalty("p1", 4, Penalty::Warning, "slow"));
    a_disqualified_player_is_still_in [ "TOUR-PEN-3" ] => || {
        let drop = E::PlayerDropped { player: "p1".into(), after_round: 0, reason: "ill".into() };
        Given::players(2, 3, 0).then(drop).when(penalty("p1", 1, Penalty::Disqualification, "collusion"))
    };
    a_match_loss_is_in_the_result [ "TOUR-PEN-4" ] => || {
        let g = Given::players(2, 3, 0).paired();
        let winner = g.0.players[g.0.rounds[0].tables[0].a].name.clone();
        g.then(penalty(&winner, 1, Penalty::MatchLoss, "marked cards")).when(result(1, 1, 2, 0))
    };
    a_game_loss_after_the_result_is_in_it [ "TOUR-PEN-4" ] => || {
        let g = Given::players(2, 3, 0).paired().reported();
        let winner = g.0.players[g.0.rounds[0].tables[0].a].name.clone();
        g.when(penalty(&winner, 1, Penalty::GameLoss, "deck error"))
    };
    an_infraction_is_in_the_policys_table [ "TOUR-PEN-5" ] => || {
        Given::players(2, 3, 0).paired().when(infraction("p1", "gpe-nonsense", Penalty::Warning, None))
    };
    a_repeat_is_upgraded_by_the_policy [ "TOUR-PEN-5" ] => || {
        // IPG 3: a second Tournament Error warning in the same category is a game loss.
        let slow = || infraction("p1", "te-slow-play", Penalty::Warning, None);
        Given::players(2, 3, 0).paired().then(slow()).when(slow())
    };
    a_downgrade_is_lighter_and_gives_its_reason [ "TOUR-PEN-5" ] => || {
        Given::players(2, 3, 0).paired().when(infraction("p1", "te-tardiness", Penalty::Warning, Some(" ")))
    };
    pokemon_penalties_only_under_the_pokemon_policy [ "TOUR-PEN-6" ] => || {
        Given::players(2, 3, 0).paired().when(penalty("p1", 1, Penalty::Caution, "talking"))
    };
    // Judge calls.
    a_call_is_at_a_paired_table [ "TOUR-CALL-1" ] => || Given::players(2, 3, 0).paired().when(open_call(9));
    a_call_is_closed_once [ "TOUR-CALL-2" ] => || {
        Given::players(2, 3, 0).paired().then(open_call(1)).then(close_call(200)).when(close_call(300))
    };
    a_call_does_not_go_back_in_time [ "TOUR-CALL-2" ] => || {
        let take = E::JudgeCallTaken { call: 1, judge: "jo".into(), at: Timestamp(60_000_000) };
        Given::players(2, 3, 0).paired().then(open_call(1)).then(take).when(close_call(30))
    };
    an_extension_is_for_a_closed_call_with_a_reason [ "TOUR-CALL-3" ] => || {
        let set = E::TimeExtensionAdjusted { call: 1, minutes: 3, judge: "jo".into(), reason: "".into() };
        Given::players(2, 3, 0).paired().then(open_call(1)).when(set)
    };
    // Appeals.
    an_appeal_names_a_ruling [ "TOUR-APPEAL-1" ] => || Given::players(2, 3, 0).paired().when(appeal_of_penalty_1("p1"));
    the_penalized_player_appeals [ "TOUR-APPEAL-1" ] => || {
        Given::players(2, 3, 0).paired().then(penalty("p1", 1, Penalty::Warning, "slow")).when(appeal_of_penalty_1("p2"))
    };
    a_decided_appeal_is_final [ "TOUR-APPEAL-2" ] => || {
        use kifu::tournament::events::AppealDecision;
        Given::players(2, 3, 0)
            .paired()
            .then(E::HeadJudgeNamed { judge: "hana".into() })
            .then(penalty("p1", 1, Penalty::Warning, "slow"))
            .then(appeal_of_penalty_1("p1"))
            .then(decided("hana", AppealDecision::Upheld))
            .when(appeal_of_penalty_1("p1"))
    };
    only_the_head_judge_decides [ "TOUR-APPEAL-3" ] => || {
        use kifu::tournament::events::AppealDecision;
        Given::players(2, 3, 0)
            .paired()
            .then(E::HeadJudgeNamed { judge: "hana".into() })
            .then(penalty("p1", 1, Penalty::Warning, "slow"))
            .then(appeal_of_penalty_1("p1"))
            .when(decided("jo", AppealDecision::Overturned))
    };
    a_disqualification_is_appealed_before_the_next_round [ "TOUR-APPEAL-4" ] => || {
        use kifu::tournament::events::AppealDecision;
        Given::players(4, 3, 0)
            .then(E::HeadJudgeNamed { judge: "hana".into() })
            .paired()
            .then(penalty("p1", 1, Penalty::Disqualification, "aggression"))
            .reported()
            .then(appeal_of_penalty_1("p1"))
            .paired()
            .when(decided("hana", AppealDecision::Overturned))
    };
    // Overrides.
    an_override_names_its_author_and_reason [ "TOUR-OVER-1" ] => || {
        let g = Given::players(4, 3, 0).paired();
        let (round, tables, byes) = kifu::tournament::rules::swapped(&g.0, "p1", "p2").unwrap();
        g.when(E::PairingOverridden { round, tables, byes, by: "olga".into(), reason: " ".into() })
    };
    a_late_entry_names_who_admitted_it_and_why [ "TOUR-OVER-1" ] => || {
        let late = E::LateEntryAdmitted {
            player: "zed".into(),
            deck: None,
            first_round: 2,
            by: "olga".into(),
            reason: "".into(),
        };
        Given::players(4, 3, 0).paired().when(late)
    };
    an_admitted_late_entrant_starts_next_round [ "TOUR-REG-3" ] => || {
        let late = E::LateEntryAdmitted {
            player: "zed".into(),
            deck: None,
            first_round: 3,
            by: "olga".into(),
            reason: "stuck in traffic".into(),
        };
        Given::players(4, 3, 0).paired().when(late)
    };
    a_result_entered_against_the_reports_names_who_and_why [ "TOUR-OVER-1" ] => || {
        let score = MatchScore { a_wins: 2, b_wins: 0, draws: 0 };
        let entered = E::ResultEntered { round: 1, table: 1, score, games: vec![], by: " ".into(), reason: "slip".into() };
        Given::players(4, 3, 0).paired().when(entered)
    };
    a_result_is_entered_once [ "TOUR-RESULT-2" ] => || {
        let score = MatchScore { a_wins: 2, b_wins: 0, draws: 0 };
        let entered = E::ResultEntered { round: 1, table: 1, score, games: vec![], by: "olga".into(), reason: "x".into() };
        Given::players(4, 3, 0).paired().reported().when(entered)
    };
    a_pod_result_entered_names_who_and_why [ "TOUR-OVER-1" ] => || {
        let entered =
            E::PodResultEntered { round: 1, pod: 1, places: vec![1, 2, 3, 4], games: vec![], by: "olga".into(), reason: "".into() };
        Given::pods(8).when(entered)
    };
    only_the_latest_round_before_results_is_overridden [ "TOUR-OVER-2" ] => || {
        let g = Given::players(4, 3, 0).paired().reported();
        let (round, tables, byes) = kifu::tournament::rules::swapped(&g.0, "p1", "p2").unwrap();
        g.when(E::PairingOverridden { round, tables, byes, by: "olga".into(), reason: "accessibility".into() })
    };
    // Top cut.
    the_cut_is_a_power_of_two [ "TOUR-CUT-1" ] => || {
        let g = Given::players(4, 1, 8).paired().reported();
        let tables = vec![PairedTable { table: 1, a: "p1".into(), b: "p2".into() }];
        g.when(E::TopCutPaired { round: 2, tables })
    };
    the_cut_follows_every_swiss_round [ "TOUR-CUT-2" ] => || {
        let g = Given::players(4, 2, 2).paired().reported();
        let tables = vec![PairedTable { table: 1, a: "p1".into(), b: "p2".into() }];
        g.when(E::TopCutPaired { round: 2, tables })
    };
    the_bracket_is_seeded_by_the_standings [ "TOUR-CUT-3" ] => || {
        let g = Given::players(4, 1, 2).paired().reported();
        let (round, mut tables) = g.0.derive_top_cut().unwrap();
        let t = &mut tables[0];
        std::mem::swap(&mut t.a, &mut t.b);
        g.when(E::TopCutPaired { round, tables })
    };
    the_bracket_ends_with_its_final [ "TOUR-CUT-4" ] => || {
        let g = Given::players(4, 1, 2).paired().reported().cut().reported();
        let tables = vec![PairedTable { table: 1, a: "p1".into(), b: "p2".into() }];
        g.when(E::TopCutPaired { round: 3, tables })
    };
    // Finalizing.
    nothing_but_signatures_after_finalizing [ "TOUR-FINAL-1" ] => || {
        let early = E::FinalizedEarly { judge: "jo".into(), reason: "venue closed".into() };
        Given::players(2, 3, 0).then(E::SeedRevealed { seed: SEED }).then(early).when(register("zed"))
    };
    a_tournament_ends_when_its_rounds_are_played [ "TOUR-FINAL-2" ] => || {
        Given::players(2, 3, 0).then(E::SeedRevealed { seed: SEED }).when(E::Finalized)
    };
    finalizing_early_names_judge_and_reason [ "TOUR-FINAL-3" ] => || {
        let early = E::FinalizedEarly { judge: " ".into(), reason: "venue closed".into() };
        Given::players(2, 3, 0).then(E::SeedRevealed { seed: SEED }).when(early)
    };
    // Signing.
    a_signer_has_a_name [ "TOUR-SIGN-1" ] => || Given::created(3, 0).when(E::SignerRecorded { signer: "".into(), public_key: [1; 32] });
    a_checkpoint_is_signed_by_a_recorded_signer [ "TOUR-SIGN-2" ] => || {
        let g = Given::players(2, 3, 0).paired().reported();
        let checkpoint = Checkpoint::RoundClosed { round: 1, head: Hash32::default(), events: g.0.seen };
        g.when(E::CheckpointSigned { signer: "eve".into(), checkpoint, signature: vec![0; 64] })
    };
    a_checkpoint_names_the_log_as_it_is [ "TOUR-SIGN-3" ] => || {
        let g = Given::players(2, 3, 0).paired().then(E::SignerRecorded { signer: "sam".into(), public_key: [1; 32] });
        let checkpoint = Checkpoint::RoundClosed { round: 1, head: Hash32::default(), events: 2 };
        g.when(E::CheckpointSigned { signer: "sam".into(), checkpoint, signature: vec![0; 64] })
    };
    // Pods.
    a_pod_tournament_has_no_tables [ "TOUR-POD-1" ] => || {
        Given::pods(8).when(result(1, 1, 2, 0))
    };
    a_pod_has_three_to_eight_seats [ "TOUR-POD-2" ] => || {
        Given::players(8, 3, 0).when(E::PodFormatSet { size: 9, sole_win: 5, shared_win: 1, loss: 0 })
    };
    places_are_competition_ranks [ "TOUR-POD-3" ] => || {
        Given::pods(8).when(E::PodResultReported { round: 1, pod: 1, places: vec![1, 1, 3, 5], games: vec![] })
    };
    a_pod_plays_one_game [ "TOUR-POD-4" ] => || {
        let games = vec![link("g1"), link("g2")];
        Given::pods(8).when(E::PodResultReported { round: 1, pod: 1, places: vec![1, 2, 3, 4], games })
    };
    // Setup on the organizer's page.
    the_top_cut_is_a_power_of_two [ "TOUR-CUT-5" ] => || Given::players(8, 3, 0).when(top_cut_set(6));
    the_top_cut_no_longer_changes_once_cut [ "TOUR-CUT-5" ] => || {
        let g = Given::players(8, 1, 4).paired().reported().cut();
        g.when(top_cut_set(2))
    };
    a_pod_event_has_no_top_cut_to_set [ "TOUR-CUT-5" ] => || Given::pods(8).when(top_cut_set(4));
    an_archive_gives_its_reason [ "TOUR-ARCH-1" ] => || {
        Given::players(2, 3, 0).when(E::TournamentArchived { by: "org".into(), reason: " ".into() })
    };
    an_archived_event_takes_nothing_more [ "TOUR-ARCH-1" ] => || {
        Given::players(2, 3, 0).then(archived()).when(register("zed"))
    };
    a_judge_is_named_once [ "TOUR-STAFF-1" ] => || {
        Given::created(3, 0).then(E::JudgeNamed { judge: "jo".into() }).when(E::JudgeNamed { judge: "JO".into() })
    };
    a_time_zone_is_a_zone_name [ "TOUR-STAFF-2" ] => || Given::created(3, 0).when(E::TimeZoneSet { zone: "+02:00".into() });
    lists_are_required_before_round_1 [ "TOUR-DECK-5" ] => || {
        Given::players(2, 3, 0).paired().when(E::DeckListsRequired { deadline: None })
    };
    required_lists_hold_round_1 [ "TOUR-DECK-5" ] => || {
        let g = Given::players(2, 3, 0).then(E::DeckListsRequired { deadline: Some(Timestamp(0)) });
        let g = g.then(E::DeckListRegistered { player: "p1".into(), commitment: Commitment([1; 32]) });
        let e = g.next_round();
        g.when(e)
    };
}

fn top_cut_set(top_cut: u32) -> E {
    E::TopCutSet { top_cut, by: "org".into() }
}

fn archived() -> E {
    E::TournamentArchived { by: "org".into(), reason: "created by mistake".into() }
}

/// Given an 8-player MTR event with the top cut by attendance (none for 8 under MTR), when the
/// organizer sets a top 4 after round 1, then the cut is planned, kept through a voided round 1,
/// and paired once the Swiss rounds are played.
#[test]
fn a_top_cut_set_after_round_1_is_played() {
    let by_attendance = kifu::tournament::policy::TOP_CUT_BY_ATTENDANCE;
    let g = Given::players(8, 1, by_attendance).then(top_cut_set(4));
    assert_eq!(g.0.planned_cut(), 4, "set before round 1");
    let g = g.paired().then(E::RoundVoided { round: 1, reason: "wrong players".into() }).paired();
    assert_eq!(g.0.planned_cut(), 4, "a voided round 1 keeps the cut the organizer set");
    let g = Given::players(8, 1, by_attendance).paired();
    assert_eq!(g.0.planned_cut(), 0, "MTR's table gives 8 players no cut");
    let g = g.then(top_cut_set(4)).reported();
    let (_, tables) = g.0.derive_top_cut().expect("a top 4 to pair");
    assert_eq!(tables.len(), 2);
}

/// Given required lists with every player's registered, round 1 pairs; an archived event still
/// folds its archive (who and why) and a finalized one can still be archived.
#[test]
fn required_lists_all_in_pair_and_a_finalized_event_is_archived() {
    let list = |p: &str| E::DeckListRegistered { player: p.into(), commitment: Commitment([1; 32]) };
    let g = Given::players(2, 1, 0).then(E::DeckListsRequired { deadline: None }).then(list("p1")).then(list("p2"));
    let g = g.paired().reported().then(E::SeedRevealed { seed: SEED }).then(E::Finalized).then(archived());
    assert_eq!(g.0.archived, Some(("org".to_string(), "created by mistake".to_string())));
}

#[test]
fn every_registered_tour_rule_has_a_case_and_every_case_names_registered_rules() {
    let named: BTreeSet<&str> = CASES.iter().flat_map(|(_, ids)| ids.iter().copied()).collect();
    let registered: BTreeSet<&str> = TOUR_RULES.iter().map(|(id, _)| *id).collect();
    let missing: Vec<_> = registered.difference(&named).collect();
    assert!(missing.is_empty(), "registered TOUR rules without a given/when/then case: {missing:?}");
    let stray: Vec<_> = named.difference(&registered).collect();
    assert!(stray.is_empty(), "cases name unregistered rules: {stray:?}");
    assert_eq!(registered.len(), TOUR_RULES.len(), "a TOUR rule is registered twice");
    for (id, summary) in TOUR_RULES {
        assert!(!summary.trim().is_empty(), "{id} has no summary");
    }
}

#[test]
fn every_tour_rule_id_in_the_source_is_registered() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![root.join("src")];
    let mut found = BTreeSet::new();
    while let Some(path) = files.pop() {
        if path.is_dir() {
            files.extend(std::fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
        } else if path.extension().is_some_and(|e| e == "rs") {
            let mut text = std::fs::read_to_string(&path).unwrap();
            // The registry itself does not count as a use.
            if let Some(start) = text.find("pub const TOUR_RULES") {
                let end = start + text[start..].find("\n];").unwrap();
                text.replace_range(start..end, "");
            }
            for (i, _) in text.match_indices("\"TOUR-") {
                let id: String = text[i + 1..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '-').collect();
                found.insert(id);
            }
        }
    }
    let unregistered: Vec<_> = found.iter().filter(|id| !is_tour_rule(id)).collect();
    assert!(unregistered.is_empty(), "TOUR IDs used but not in TOUR_RULES: {unregistered:?}");
    let unused: Vec<_> = TOUR_RULES.iter().map(|(id, _)| *id).filter(|id| !found.contains(*id)).collect();
    assert!(unused.is_empty(), "registered TOUR IDs that no check in src reports: {unused:?}");
}

/// docs/rule-ids.md lists every registered TOUR ID (as it lists the KIFU ones).
#[test]
fn rule_ids_doc_lists_every_tour_rule() {
    let doc =
        std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/rule-ids.md")).unwrap();
    for (id, _) in kifu::tournament::rules::TOUR_RULES {
        assert!(doc.contains(&format!("| `{id}` |")), "docs/rule-ids.md does not list {id}");
    }
}
