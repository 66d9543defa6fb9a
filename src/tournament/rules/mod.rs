//! The tournament's rules as decide/evolve, the shape games have: [`validate`] (decide) lists
//! every `TOUR-*` rule an event breaks in a state, [`apply`] (evolve) folds an event into the
//! state and is total. Each concern's checks and folds live in one file, and [`TOUR_RULES`]
//! registers every ID with its one-line summary (the table docs/rule-ids.md shows).
//!
//! `apply` takes the state by value and returns it, as `Game::apply(state, &event) -> state`
//! does: the fold reads the same in both, and moving a `Tournament` costs a few hundred bytes,
//! not a clone.

mod cut;
mod decks;
mod finalize;
mod investigations;
mod judging;
mod overrides;
mod pairing;
mod penalties;
mod pods;
mod registration;
mod results;
mod setup;
mod signing;

use super::events::{PairedTable, TournamentEvent};
use super::state::{OverrideKind, Tournament};
use crate::game::{RuleId, Violation};

pub use cut::derive_top_cut;
pub use judging::{ruling_players, AppealRow, HistoryRow, MAX_EXTENSION};
pub use overrides::{moved, swapped};
pub use pairing::enough_players;
pub use registration::resolve;
pub use setup::is_zone_name;

/// Every `TOUR-*` rule ID `validate` reports, with what it means and, where there is one, its
/// source where the project's notes name one (MTR: Magic Tournament Rules; IPG: Infraction
/// Procedure Guide; Play! Pokémon: the Tournament Rules Handbook). IDs are stable: a rule that
/// goes away leaves its number unused.
pub const TOUR_RULES: &[(RuleId, &str)] = &[
    ("TOUR-LOG-1", "a tournament's log opens with Created, and only once"),
    ("TOUR-LOG-2", "the Created event is the configuration the header records"),
    (
        "TOUR-LOG-3",
        "only stored bytes that decode as no tournament event are set aside, by an official with a reason; \
         a set-aside entry is read, never recorded",
    ),
    ("TOUR-REG-1", "a player's name is non-empty, trimmed, within the name bound and not \"-\" (a bye in imports)"),
    ("TOUR-REG-2", "a player registers once; names ignore case"),
    (
        "TOUR-REG-3",
        "players register before round 1; a late entrant enters after it, before the top cut, from the next round \
         (missed rounds count as losses, as Play! Pokémon's late entry)",
    ),
    ("TOUR-REG-4", "an event names a registered player"),
    ("TOUR-REG-5", "a player drops once, after the current round"),
    ("TOUR-DECK-1", "a deck list is registered for a registered player who has not dropped"),
    ("TOUR-DECK-2", "a deck list is registered before the player's first round is paired (round 1, or a late entrant's first round): a list is locked once their play starts"),
    (
        "TOUR-DECK-3",
        "a registered deck list is changed after the lock only by a judge or organizer, who gives the reason",
    ),
    (
        "TOUR-DECK-4",
        "a deck check names the judge, a paired round (and the player's table), and a player with a registered list",
    ),
    (
        "TOUR-DECK-5",
        "deck lists are required before round 1; when they are, round 1 is paired only once every player in it \
         has a list, and a list arrives by the deadline the event set",
    ),
    ("TOUR-PAIR-1", "rounds are paired in order: the next round's number"),
    ("TOUR-PAIR-2", "a round is paired only when every match of the previous round has a result"),
    ("TOUR-PAIR-3", "no more Swiss rounds than planned, and none once the top cut has started (MTR Appendix E)"),
    ("TOUR-PAIR-4", "a round needs at least two active players"),
    ("TOUR-PAIR-5", "each active player sits once in a round; dropped and not-yet-entered players sit out"),
    ("TOUR-PAIR-6", "tables are numbered 1, 2, 3... in order"),
    ("TOUR-PAIR-7", "a round's pairings are the ones its seed and the standings give"),
    ("TOUR-PAIR-8", "the planned Swiss rounds cover those played (1 to 64), set before the top cut"),
    ("TOUR-PAIR-9", "voiding a round gives its reason"),
    ("TOUR-PAIR-10", "only the latest round is voided, before any result or penalty in it"),
    ("TOUR-SEED-1", "a round carries a seed exactly when the tournament committed to one"),
    ("TOUR-SEED-2", "the revealed seed matches the commitment and every round's seed"),
    ("TOUR-SEED-3", "a tournament commits to one pairing seed"),
    ("TOUR-SEED-4", "the pairing seed is revealed before finalizing"),
    ("TOUR-RESULT-1", "a result names a paired round and one of its tables or pods"),
    ("TOUR-RESULT-2", "a match is reported once; a correction changes an existing result"),
    ("TOUR-RESULT-3", "a score fits the match format (best of N); a top-cut match has a winner"),
    ("TOUR-RESULT-4", "a correction names the judge and the reason"),
    ("TOUR-RESULT-5", "the match format is best of 1, 3 or 5, set once, before round 1"),
    ("TOUR-RESULT-6", "a game is linked to one result"),
    ("TOUR-PEN-1", "a penalty names the judge and gives its reason"),
    ("TOUR-PEN-2", "a penalty is issued in a round that is paired"),
    ("TOUR-PEN-3", "a disqualified player is still in the tournament"),
    (
        "TOUR-PEN-4",
        "a game or match loss penalty agrees with its round's result (the IPG's game loss: a game won by the opponent)",
    ),
    (
        "TOUR-PEN-5",
        "an infraction is one of the policy's table, and its penalty is the policy's (the default, upgraded for a \
         repeat by the policy's rule: IPG 2 and 3, Play! Pokémon section 3), or lighter with the downgrade's reason",
    ),
    ("TOUR-PEN-6", "caution and prize-card penalties are given only under the Pokémon policy"),
    ("TOUR-CALL-1", "a judge call is opened at a table or pod of a paired round and names who called"),
    (
        "TOUR-CALL-2",
        "a call that exists is taken, escalated (to the head judge, once named) and closed by a named judge, each \
         once, never before its earlier steps; nothing is recorded on a closed call",
    ),
    ("TOUR-CALL-3", "a time extension is set for a closed call, by a judge with a reason, up to 60 minutes"),
    ("TOUR-APPEAL-1", "an appeal names a recorded penalty or a closed call's ruling, by a player it is about"),
    (
        "TOUR-APPEAL-2",
        "a ruling is appealed once: not while its appeal waits, never after the head judge decided (the decision is \
         final; MTR 2.8)",
    ),
    (
        "TOUR-APPEAL-3",
        "an appeal is decided once, by the head judge the event named, with a reason; only a penalty is changed, \
         and to another penalty",
    ),
    ("TOUR-APPEAL-4", "a disqualification's appeal is decided before the next round is paired"),
    ("TOUR-OVER-1", "an override names who made it (an organizer or the head judge) and gives its reason"),
    (
        "TOUR-OVER-2",
        "only the latest Swiss round is overridden, before any result in it and before a game starts at a table it \
         changes, every player in it seated once, and the override changes something",
    ),
    (
        "TOUR-CASE-1",
        "a statement is about a registered player and names who gave it and the judge who took it; its text is \
         sealed in the log and kept for the judges",
    ),
    (
        "TOUR-CASE-2",
        "a disqualification report is the named head judge's, signed with their recorded key, once for a \
         disqualification of the player that stands, with the facts found and the reasons",
    ),
    ("TOUR-CUT-1", "the top cut is a power of two, at least 2, with that many players still in (MTR Appendix E)"),
    ("TOUR-CUT-2", "the top cut starts after every planned Swiss round"),
    ("TOUR-CUT-3", "a top-cut round is the bracket the Swiss standings or the previous winners give (1v8, 4v5...)"),
    ("TOUR-CUT-4", "the bracket ends with its final"),
    (
        "TOUR-CUT-5",
        "the top cut's size (0 or a power of two) is set by a named official of a two-player event, before the top \
         cut starts",
    ),
    (
        "TOUR-ARCH-1",
        "an event is archived by its organizer with a reason; an archived event takes nothing but signatures",
    ),
    ("TOUR-STAFF-1", "a floor judge is named once, by a trimmed, non-empty name"),
    ("TOUR-STAFF-2", "the event's time zone is an IANA name (Area/City) or UTC"),
    ("TOUR-FINAL-1", "nothing but signatures (and archiving the event) is recorded after finalization"),
    ("TOUR-FINAL-2", "a tournament is finalized when every planned round and the bracket are played"),
    ("TOUR-FINAL-3", "finalizing early names the judge and the reason, and only for an unfinished event"),
    ("TOUR-SIGN-1", "a signer has a name of 1 to 100 characters and one recorded key"),
    ("TOUR-SIGN-2", "a checkpoint is signed by a recorded signer with a 64-byte signature"),
    ("TOUR-SIGN-3", "a checkpoint names the log as it is: a closed round, or the final root after finalization"),
    ("TOUR-POD-1", "two-player events in a two-player tournament, pod events in a pod tournament"),
    ("TOUR-POD-2", "the pod format: 3 to 8 seats, points by place, no top cut or match format, set before round 1"),
    ("TOUR-POD-3", "a pod's places are one per seat, ranked from 1 with shared places"),
    ("TOUR-POD-4", "a pod plays one game"),
];

/// Whether `rule` is a registered `TOUR-*` ID.
pub fn is_tour_rule(rule: &str) -> bool {
    TOUR_RULES.iter().any(|(r, _)| *r == rule)
}

/// The summary of a registered `TOUR-*` ID.
pub fn summary(rule: &str) -> Option<&'static str> {
    TOUR_RULES.iter().find(|(r, _)| *r == rule).map(|(_, s)| *s)
}

/// Every rule `event` breaks in `state`; empty means it may be recorded. `rederive`: re-derive
/// a round's pairing from its seed (off only for a round the caller has just derived itself).
pub fn validate(state: &Tournament, event: &TournamentEvent, rederive: bool) -> Vec<Violation> {
    let mut v = Vec::new();
    if !gates(state, event, &mut v) {
        return v;
    }
    use TournamentEvent as E;
    match event {
        E::Created { .. } => v.push(Violation::new("TOUR-LOG-1", "the tournament was already created")),
        E::PlayerRegistered { .. } | E::LateEntered { .. } | E::LateEntryAdmitted { .. } => {
            registration::check_entry(state, event, &mut v)
        }
        E::PlayerDropped { player, after_round, .. } => registration::check_drop(state, player, *after_round, &mut v),
        E::RoundPaired { round, .. } => {
            setup::check_lists_in(state, *round, &mut v);
            pairing::check_round(state, event, rederive, &mut v)
        }
        E::SwissRoundsSet { rounds } => pairing::check_plan(state, *rounds, &mut v),
        E::RoundVoided { round, reason } => pairing::check_void(state, *round, reason, &mut v),
        E::SeedCommitted { .. } => pairing::check_commit(state, &mut v),
        E::SeedRevealed { seed } => pairing::check_reveal(state, seed, &mut v),
        E::ResultReported { .. } | E::ResultCorrected { .. } | E::ResultEntered { .. } => {
            results::check_result(state, event, &mut v)
        }
        E::MatchFormatSet { best_of } => results::check_format(state, *best_of, &mut v),
        E::PenaltyIssued { .. } | E::InfractionPenalized { .. } => penalties::check_penalty(state, event, &mut v),
        E::JudgeCallOpened { .. }
        | E::JudgeCallTaken { .. }
        | E::JudgeCallEscalated { .. }
        | E::JudgeCallClosed { .. }
        | E::TimeExtensionAdjusted { .. }
        | E::HeadJudgeNamed { .. }
        | E::AppealLodged { .. }
        | E::AppealDecided { .. } => judging::check(state, event, &mut v),
        E::PairingOverridden { .. } => overrides::check(state, event, &mut v),
        E::TopCutPaired { round, tables } => cut::check_cut(state, *round, tables, rederive, &mut v),
        E::Finalized => finalize::check_finalized(state, &mut v),
        E::FinalizedEarly { judge, reason } => finalize::check_early(state, judge, reason, &mut v),
        E::SignerRecorded { signer, .. } => signing::check_signer(state, signer, &mut v),
        E::CheckpointSigned { .. } => signing::check_checkpoint(state, event, &mut v),
        E::PodFormatSet { .. } => pods::check_format(state, event, &mut v),
        E::PodRoundPaired { round, .. } => {
            setup::check_lists_in(state, *round, &mut v);
            pods::check_round(state, event, rederive, &mut v)
        }
        E::PodResultReported { .. } | E::PodResultCorrected { .. } | E::PodResultEntered { .. } => {
            pods::check_result(state, event, &mut v)
        }
        E::DeckListRegistered { player, .. } => decks::check_registration(state, player, &mut v),
        E::DeckListChanged { player, judge, reason, .. } => decks::check_change(state, player, judge, reason, &mut v),
        E::DeckChecked { round, table, judge, player, .. } => {
            decks::check_deck_check(state, *round, *table, judge, player, &mut v)
        }
        E::StatementRecorded { player, author, judge, .. } => {
            investigations::check_statement(state, player, author, judge, &mut v)
        }
        E::DisqualificationReported { .. } => investigations::check_report(state, event, &mut v),
        E::EntrySetAside { seq, by, reason } => {
            v.extend(set_aside_named(by, reason));
            if *seq >= state.seen {
                v.push(Violation::new("TOUR-LOG-3", format!("there is no event {seq} before this one to set aside")));
            }
        }
        E::SetAside { .. } => {
            v.push(Violation::new("TOUR-LOG-3", "a set-aside entry is read from damaged bytes, never recorded"))
        }
        E::TopCutSet { .. }
        | E::TournamentArchived { .. }
        | E::JudgeNamed { .. }
        | E::DeckListsRequired { .. }
        | E::TimeZoneSet { .. } => setup::check(state, event, &mut v),
    }
    v
}

/// The rules that hold before any other: the log opens with Created, a finalized tournament
/// takes only signatures, a pod tournament takes no two-player events. False: stop here.
fn gates(state: &Tournament, event: &TournamentEvent, v: &mut Vec<Violation>) -> bool {
    use TournamentEvent as E;
    if state.config.is_none() {
        if !matches!(event, E::Created { .. }) {
            v.push(Violation::new("TOUR-LOG-1", "the first event of a tournament must be Created"));
        }
        return false;
    }
    // Signatures and setting damaged bytes aside complete or repair the record: an archived or
    // finalized tournament takes them too.
    let repair = matches!(event, E::CheckpointSigned { .. } | E::EntrySetAside { .. });
    if let Some((by, _)) = &state.archived {
        if !repair {
            v.push(Violation::new(
                "TOUR-ARCH-1",
                format!("the event was archived by {by}; nothing but signatures can be recorded after that"),
            ));
            return false;
        }
    }
    // A finalized event can still be archived (kept, hidden from the lists).
    if state.finalized && !repair && !matches!(event, E::TournamentArchived { .. }) {
        v.push(Violation::new(
            "TOUR-FINAL-1",
            "the tournament is finalized; nothing but signatures can be recorded after that",
        ));
        return false;
    }
    let two_player = matches!(
        event,
        E::RoundPaired { .. }
            | E::TopCutPaired { .. }
            | E::ResultReported { .. }
            | E::ResultCorrected { .. }
            | E::ResultEntered { .. }
    );
    if state.pod_format.is_some() && two_player {
        v.push(Violation::new(
            "TOUR-POD-1",
            format!(
                "this tournament plays in pods: {} is for two-player tables (pair pods, report pod places)",
                super::events::kind(event)
            ),
        ));
        return false;
    }
    true
}

/// Folds `event` into `state`. Total: an event that breaks rules still folds (unknown names are
/// skipped), so a log written around kifu can be loaded and `verify` can say what it breaks.
pub fn apply(mut state: Tournament, event: &TournamentEvent) -> Tournament {
    state.seen += 1;
    use TournamentEvent as E;
    match event {
        E::Created { config } => registration::created(&mut state, config),
        E::PlayerRegistered { .. } | E::LateEntered { .. } | E::LateEntryAdmitted { .. } => {
            registration::entered(&mut state, event)
        }
        E::PlayerDropped { player, after_round, .. } => registration::dropped(&mut state, player, *after_round),
        E::RoundPaired { round, tables, byes, round_seed } => {
            pairing::paired(&mut state, *round, tables, byes, *round_seed)
        }
        E::SwissRoundsSet { rounds } => state.swiss_rounds = Some(*rounds),
        E::RoundVoided { round, reason } => pairing::voided(&mut state, *round, reason),
        E::SeedCommitted { commitment } => {
            state.late_commitment.get_or_insert(*commitment);
        }
        E::SeedRevealed { seed } => state.revealed_seed = Some(*seed),
        E::ResultReported { round, table, score, games } => {
            results::reported(&mut state, *round, *table, *score, games, false)
        }
        E::ResultCorrected { round, table, score, games, .. } => {
            results::reported(&mut state, *round, *table, *score, games, true)
        }
        E::ResultEntered { round, table, score, games, by, reason } => {
            results::reported(&mut state, *round, *table, *score, games, false);
            let kind = OverrideKind::Result { table: *table, score: score.to_string() };
            state.record_override(*round, kind, by, reason);
        }
        E::MatchFormatSet { best_of } => {
            state.best_of.get_or_insert(*best_of);
        }
        E::PenaltyIssued { .. } | E::InfractionPenalized { .. } => penalties::issued(&mut state, event),
        E::JudgeCallOpened { .. }
        | E::JudgeCallTaken { .. }
        | E::JudgeCallEscalated { .. }
        | E::JudgeCallClosed { .. }
        | E::TimeExtensionAdjusted { .. }
        | E::HeadJudgeNamed { .. }
        | E::AppealLodged { .. }
        | E::AppealDecided { .. } => judging::apply(&mut state, event),
        E::PairingOverridden { .. } => overrides::apply(&mut state, event),
        E::TopCutPaired { round, tables } => cut::paired(&mut state, *round, tables),
        E::Finalized => state.finalized = true,
        E::FinalizedEarly { judge, reason } => finalize::early(&mut state, judge, reason),
        E::SignerRecorded { signer, public_key } => signing::recorded(&mut state, signer, public_key),
        E::CheckpointSigned { signer, checkpoint, .. } => state.signed.push((checkpoint.clone(), signer.clone())),
        E::PodFormatSet { size, sole_win, shared_win, loss } => {
            pods::format_set(&mut state, *size, [*sole_win, *shared_win, *loss])
        }
        E::PodRoundPaired { round, pods, round_seed } => pods::paired(&mut state, *round, pods, *round_seed),
        E::PodResultReported { round, pod, places, games } => {
            pods::reported(&mut state, *round, *pod, places, games, false)
        }
        E::PodResultCorrected { round, pod, places, games, .. } => {
            pods::reported(&mut state, *round, *pod, places, games, true)
        }
        E::PodResultEntered { round, pod, places, games, by, reason } => {
            pods::reported(&mut state, *round, *pod, places, games, false);
            let kind = OverrideKind::PodResult { pod: *pod, places: places.clone() };
            state.record_override(*round, kind, by, reason);
        }
        E::DeckListRegistered { player, commitment } => decks::registered(&mut state, player, *commitment),
        E::DeckListChanged { player, commitment, judge, reason } => {
            decks::registered(&mut state, player, *commitment);
            state.deck_changes.push((player.clone(), judge.clone(), reason.clone()));
        }
        E::DeckChecked { .. } => decks::checked(&mut state, event),
        E::StatementRecorded { .. } | E::DisqualificationReported { .. } => investigations::apply(&mut state, event),
        E::EntrySetAside { .. } | E::SetAside { .. } => {}
        E::TopCutSet { .. }
        | E::TournamentArchived { .. }
        | E::JudgeNamed { .. }
        | E::DeckListsRequired { .. }
        | E::TimeZoneSet { .. } => setup::apply(&mut state, event),
    }
    state
}

/// "`what` names the judge and the reason" (one check for corrections, early finalization and
/// penalties' judges), under `rule`.
fn judge_and_reason(rule: RuleId, what: &str, judge: &str, reason: &str, v: &mut Vec<Violation>) {
    if judge.trim().is_empty() || reason.trim().is_empty() {
        v.push(Violation::new(rule, format!("{what} names the judge and the reason")));
    }
}

/// TOUR-LOG-3's names: an entry is set aside by a named official, for a reason. Checked also
/// where the tournament cannot be loaded to validate against ([`super::record::set_aside`]).
pub(crate) fn set_aside_named(by: &str, reason: &str) -> Vec<Violation> {
    let mut v = Vec::new();
    judge_and_reason("TOUR-LOG-3", "setting an entry aside", by, reason, &mut v);
    v
}

/// The round after the last one paired (pairing, late entry and pods all count from it).
fn next_round(state: &Tournament) -> u32 {
    state.rounds.len() as u32 + 1
}

/// TOUR-PAIR-1 and TOUR-PAIR-2, shared by Swiss, top-cut and pod rounds.
fn check_in_order(state: &Tournament, round: u32, what: &str, v: &mut Vec<Violation>) {
    let next = next_round(state);
    if round != next {
        v.push(Violation::new("TOUR-PAIR-1", format!("the next round is {next}, not {round}")));
    }
    check_previous_complete(state, what, v);
}

/// TOUR-PAIR-2: the latest round has every result.
fn check_previous_complete(state: &Tournament, what: &str, v: &mut Vec<Violation>) {
    if let Some(l) = state.rounds.last() {
        if !l.complete() {
            v.push(Violation::new("TOUR-PAIR-2", format!("round {} still has {what} without a result", l.round)));
        }
    }
}

/// TOUR-REG-4 and TOUR-PAIR-5 for the players seated in `round`: registered, active, once.
fn check_seated<'a>(
    state: &Tournament,
    round: u32,
    names: impl Iterator<Item = &'a String>,
    twice: &str,
    v: &mut Vec<Violation>,
) {
    let mut seen = vec![false; state.players.len()];
    for name in names {
        match state.player(name) {
            None => v.push(Violation::new("TOUR-REG-4", state.unknown(name))),
            Some(p) => {
                if std::mem::replace(&mut seen[p], true) {
                    v.push(Violation::new("TOUR-PAIR-5", format!("{name} {twice} in round {round}")));
                }
                if !state.active_in(p, round) {
                    v.push(Violation::new(
                        "TOUR-PAIR-5",
                        format!("{name} is not in round {round} (dropped or not yet entered)"),
                    ));
                }
            }
        }
    }
}

/// The rules as methods of the state they decide on, for callers that hold a [`Tournament`]
/// (written here, beside the rules, so that the state does not import them).
impl Tournament {
    /// The next top-cut round as the standings (first round) or the previous winners determine
    /// it, or the rule that keeps it from being paired ([`derive_top_cut`]).
    pub fn derive_top_cut(&self) -> Result<(u32, Vec<PairedTable>), Violation> {
        derive_top_cut(self)
    }

    /// Every rule `event` breaks in this state ([`validate`]). Empty: it may be recorded.
    pub fn validate(&self, event: &TournamentEvent) -> Vec<Violation> {
        validate(self, event, true)
    }

    /// As [`Self::validate`] for a round the caller has just derived from this very state with
    /// [`Self::derive_round`]: every rule but the re-derivation (which would repeat the work).
    pub fn validate_derived(&self, event: &TournamentEvent) -> Vec<Violation> {
        validate(self, event, false)
    }

    /// The state after `event` ([`apply`]): total, by value as a game's `apply` is.
    #[must_use]
    pub fn apply(self, event: &TournamentEvent) -> Self {
        apply(self, event)
    }
}
