//! `validate`: every rule an event would break, each with its digest rule ID — and the rule
//! computations (team power, fight results, rewards, the winner table) shared with the agent.
//!
//! Recorder IDs used besides `NAR-*` (not in the digest, so not in the coverage table):
//! - `KIFU-CARD-1`: a card the event names is not in the zone the event says it comes from;
//! - `KIFU-CARD-2`: a card instance or card id that no registered deck has;
//! - `KIFU-SEED-1`, `KIFU-SEAL-1`: a seed or sealed card reveal that does not match its commitment
//!   (checked by [`crate::game::commit::CommitmentLedger`]);
//! - `KIFU-SEED-4`: a digital game's shuffle that does not name a committed, unrevealed seed.
//!
//! Effect-driven actions recorded through the escape hatches (`CardMoved`, `EffectResolved`,
//! `ModifierApplied`) get the KIFU checks; from rules version 4 `CardMoved` and `ModifierApplied`
//! are also held to the rules that govern what they change ([`escape_hatch_checks`]).
//! `NinjaInjured`/`Defeated`/`Healed` are checked against the damage rules (NAR-DMG) already.

use std::collections::{BTreeMap, BTreeSet};

use super::catalog::{CardDef, CardType};
use super::config::{
    parse_instance, CounterMissionPolicy, EmptyDeckDrawPolicy, MultiBlockPolicy, MultiElementPolicy,
    ShortDeckRewardPolicy, TurnMarkerPolicy,
};
use super::events::{
    BlockingTeam, CardRef, CommonEvent, Damage, DeployFrom, FightResult, LinkKind, Lot, NarutoEvent, SentTeam, Stat,
    Step, WinReason, Zone, ZoneRef,
};
use super::rules_version::Rules;
use super::state::NarutoState;
use crate::game::commit::{blind_take, Commitment, Secret};
use crate::game::rules::cite_specifically;
use crate::game::{RuleId, Seat, Violation};

/// Every rule `event` would break if applied to `s`, under rules versions 1 and 2. Empty means
/// legal.
pub fn validate(s: &NarutoState, event: &NarutoEvent) -> Vec<Violation> {
    let mut c = Check::new(s);
    c.event(event);
    c.finish()
}

/// Every rule `event` would break under `rules`: version 3 cites the most specific digest
/// ID where versions 1 and 2 cite a general one ([`most_specific`]); what is refused is the same.
/// Version 4 holds the escape hatches to the rules that govern what they change
/// ([`escape_hatch_checks`]). Version 5 records a resolved chain's moves to chakra as steps of
/// their own (checked in every version by [`Check::moved_to_chakra`]: no earlier game holds one)
/// and holds a game that moved on without them to the rules they break ([`steps_left_out`]).
pub fn validate_as(s: &NarutoState, event: &NarutoEvent, rules: Rules) -> Vec<Violation> {
    let mut out = validate(s, event);
    if rules.most_specific_ids {
        most_specific(s, event, &mut out);
    }
    if rules.escape_hatches_held {
        out.extend(escape_hatch_checks(s, event));
    }
    if rules.chakra_moves_recorded && s.result.is_none() {
        out.extend(steps_left_out(s, event));
    }
    if rules.played_card_moves_cited {
        played_card_moved(s, event, &mut out);
    }
    out
}

/// Version 6: an effect's `CardMoved` naming a played mission or a used jutsu, which waits in no
/// zone from version 5 (on its chain, or due to go to chakra, or left out of it). Version 5 cites
/// the scaffold's "no such card there" (KIFU-CARD-1); the rule the move breaks is the one that
/// sends the card to chakra (NAR-MISSION-5, NAR-JUTSU-3, whether or not its effect was applied,
/// NAR-COST-5). A move into the chakra of the seat that played it, once its chain resolved, is that
/// move made by hand (a judge putting back a move the table left out): legal, wherever `from`
/// says it was, since no zone holds it.
fn played_card_moved(s: &NarutoState, event: &NarutoEvent, out: &mut Vec<Violation>) {
    let NarutoEvent::CardMoved { card, to, .. } = event else { return };
    let Some(p) = s.played(card) else { return };
    // The only card-level finding `CardMoved` has is `holds`' KIFU-CARD-1 on `from`.
    out.retain(|v| v.rule != "KIFU-CARD-1");
    let (rule, what) = chakra_rule(p.kind);
    let owner = s.name(p.seat);
    let why = if !p.resolved {
        format!("{card} is a {what} still on the chain: it goes to {owner}'s chakra once the chain resolved")
    } else if to.zone != Zone::Chakra || to.seat != p.seat {
        let waits = if p.left_out { "was left out of" } else { "waits to go to" };
        format!(
            "{card} is a played {what} that {waits} {owner}'s chakra: it goes there, not to {}, whether or not \
             its effect was applied (NAR-COST-5)",
            to.zone.name()
        )
    } else {
        return;
    };
    out.push(Violation::new(rule, why));
}

/// Version 5: an event that moved the game on ([`NarutoEvent::moves_on`]) while a resolved
/// chain's mission or jutsu still waited to go to chakra breaks NAR-MISSION-5 or NAR-JUTSU-3 for
/// each card left out.
fn steps_left_out(s: &NarutoState, event: &NarutoEvent) -> Vec<Violation> {
    if !event.moves_on() {
        return Vec::new();
    }
    s.chakra_due()
        .map(|p| {
            let (rule, what) = chakra_rule(p.kind);
            let why = format!(
                "{} was left out of {}'s chakra: a played {what} goes there once its chain resolved, \
                 whether or not its effect was applied (NAR-COST-5)",
                p.card,
                s.name(p.seat)
            );
            Violation::new(rule, why)
        })
        .collect()
}

/// The rule that puts a resolved card of kind `kind` into chakra, and what the card is.
fn chakra_rule(kind: LinkKind) -> (RuleId, &'static str) {
    match kind {
        LinkKind::Jutsu => ("NAR-JUTSU-3", "jutsu"),
        _ => ("NAR-MISSION-5", "mission"),
    }
}

/// Version 4: an effect's card move and value change, held to the zones and values they change.
/// The village holds ninja, clients and permanent missions (NAR-ZONE-4) and the battlefield the
/// teams' ninja (NAR-ZONE-5), so an effect moves nothing else there; a modifier changes a ninja's
/// value (NAR-POWER-2), so it names a ninja in play (the village or the battlefield, KIFU-CARD-1
/// otherwise). A card `validate` already finds missing is not judged again here.
fn escape_hatch_checks(s: &NarutoState, event: &NarutoEvent) -> Vec<Violation> {
    let mut out = Vec::new();
    match event {
        NarutoEvent::CardMoved { card, to, .. } => {
            let Some(def) = s.def(card) else { return out };
            let fits = match to.zone {
                Zone::Village => {
                    matches!(def.kind, CardType::Ninja | CardType::Client)
                        || (def.kind == CardType::Mission && def.permanent)
                }
                Zone::Battlefield => def.kind == CardType::Ninja,
                _ => true,
            };
            if !fits {
                let (rule, holds) = if to.zone == Zone::Village {
                    ("NAR-ZONE-4", "ninja, clients and permanent missions")
                } else {
                    ("NAR-ZONE-5", "the teams' ninja")
                };
                let what = def.kind.name();
                out.push(Violation::new(rule, format!("{card} is a {what}: the {} holds {holds}", to.zone.name())));
            }
        }
        NarutoEvent::ModifierApplied { target, .. } => {
            let Some(def) = s.def(target) else { return out };
            if def.kind != CardType::Ninja {
                let what = def.kind.name();
                out.push(Violation::new("NAR-POWER-2", format!("{target} is a {what}: only a ninja has values")));
            } else {
                // The scaffold's own in-play check (KIFU-CARD-1), as for an injured or healed ninja.
                let mut c = Check::new(s);
                c.in_play(target);
                out.extend(c.finish());
            }
        }
        _ => {}
    }
    out
}

/// Version 3's rule IDs for a fight resolved wrongly. A fight for an attacking team that nobody
/// blocked is NAR-BSTAT-2 (an unblocked team is non-fighting), not "not a blocked team and its
/// blocker" (NAR-BSTAT-1). Team powers that would be right had every injured member fought with
/// its healthy values are NAR-DMG-4; powers that would be right without the modifiers in play are
/// NAR-POWER-2; either, not the power formula (NAR-POWER-1/3). Versions 1 and 2 keep their
/// findings, so their logs keep their verdicts.
fn most_specific(s: &NarutoState, event: &NarutoEvent, out: &mut [Violation]) {
    let NarutoEvent::FightResolved { attacker, blocker, mental, attack_power, block_power, .. } = event else {
        return;
    };
    let Some(att) = s.attacker else { return };
    let attacking = s.battle.attacks.iter().find(|t| t.leader == *attacker);
    let blocked = s.battle.blocks.iter().any(|b| b.blocks == *attacker);
    let Some(a) = attacking else { return };
    if !blocked {
        let why =
            format!("the team led by {attacker} was not blocked: it is non-fighting, and no fight is resolved for it");
        cite_specifically(out, &["NAR-BSTAT-1"], "NAR-BSTAT-2", &why);
        return;
    }
    let Some(b) = s.battle.blocks.iter().find(|t| t.leader == *blocker && t.blocks == *attacker) else { return };
    let powers = |values: Values| {
        (
            team_power_with(s, att, &a.leader, &a.supports, *mental, values),
            team_power_with(s, crate::game::opponent(att), &b.leader, &b.supports, *mental, values),
        )
    };
    let recorded = (*attack_power, *block_power);
    let formula: &[RuleId] = &["NAR-POWER-1", "NAR-POWER-3"];
    if recorded == powers(Values { injuries: false, modifiers: true }) {
        let hurt: Vec<&str> = std::iter::once(&a.leader)
            .chain(&a.supports)
            .chain(std::iter::once(&b.leader))
            .chain(&b.supports)
            .map(String::as_str)
            .filter(|n| s.injured.contains(*n))
            .collect();
        let why = format!("{} fought with healthy values; an injured ninja uses its injured values", hurt.join(", "));
        cite_specifically(out, formula, "NAR-DMG-4", &why);
    } else if recorded == powers(Values { injuries: true, modifiers: false }) {
        let (want_a, want_b) = powers(Values::CURRENT);
        let why = format!("the modifiers in play apply: team powers are {want_a} vs {want_b}");
        cite_specifically(out, formula, "NAR-POWER-2", &why);
    }
}

type Check<'a> = crate::game::check::Check<'a, NarutoState>;

impl Check<'_> {
    /// Events of a turn need the setup to be over (NAR-SETUP-5).
    fn in_turn(&mut self) -> bool {
        if self.state.step == Step::Setup || self.state.attacker.is_none() {
            self.violation("NAR-SETUP-5", "play has not begun: the setup is not complete");
            false
        } else {
            true
        }
    }

    fn step(&mut self, want: Step, rule: RuleId, what: &str) {
        if self.state.step != want {
            self.violation(
                rule,
                format!("{what} belongs to step {}, but the game is in step {}", want.name(), self.state.step.name()),
            );
        }
    }

    fn attacker_only(&mut self, seat: Seat, rule: RuleId, what: &str) {
        if Some(seat) != self.state.attacker {
            self.violation(rule, format!("only the attacker may {what}; {} is the blocker", self.state.name(seat)));
        }
    }

    /// The checks every event gets, then the one check of its kind.
    fn event(&mut self, event: &NarutoEvent) {
        if self.state.result.is_some() && !event.is_reveal() {
            self.violation("NAR-ROLE-6", "the game is over; only seed and card reveals may follow");
            return;
        }
        if let Some(seat) = event.seat() {
            if !self.seat_ok(seat, self.state.players.len().min(2)) {
                return;
            }
        }
        self.event_of_kind(event);
    }

    /// Dispatches to the check of the event's kind.
    fn event_of_kind(&mut self, event: &NarutoEvent) {
        use NarutoEvent::*;
        match event {
            TurnMarkerSet { seat, value } => self.turn_marker_set(*seat, *value),
            SeedCommitted { key, .. } => self.seed_committed(key),
            DeckShuffled { deck, by, seed } => self.deck_shuffled(*deck, *by, seed.as_deref()),
            FirstPlayerLotDrawn { lot, winner } => self.lot(lot, *winner),
            FirstPlayerChosen { chooser, first } => self.first_player_chosen(*chooser, *first),
            OpeningHandDrawn { seat, cards } => self.opening_hand(*seat, cards),
            MulliganTaken { seat, attempt } => self.mulligan(*seat, *attempt),
            HandKept { seat } => self.hand_kept(*seat),
            TurnStarted { turn, attacker } => self.turn_started(*turn, *attacker),
            CardDrawn { seat, card } => self.card_drawn(*seat, card),
            StepAdvanced { to } => self.step_advanced(*to),
            NinjaDeployed { seat, card, from, hand_cost_paid } => {
                self.ninja_deployed(*seat, card, *from, hand_cost_paid)
            }
            MissionPlayed { seat, card, counter, element, targets, hand_cost_paid } => {
                self.mission_played(*seat, card, *counter, element.as_deref(), hand_cost_paid);
                self.all_known(targets);
            }
            ChainLinkAdded { source, .. } => {
                self.known(source);
            }
            ChainResolved {} | CoinFlipped { .. } | EffectResolved { .. } => {}
            ChakraCharged { seat, cards } => self.chakra_charged(*seat, cards),
            ClientDeployed { seat, card, element, hand_cost_paid } => {
                self.client_deployed(*seat, card, element.as_deref(), hand_cost_paid)
            }
            TeamsOrganized { seat, teams } => self.teams_organized(*seat, teams),
            AttackingTeamsSent { seat, teams } => self.attacking_sent(*seat, teams),
            BlockingTeamsSent { seat, teams } => self.blocking_sent(*seat, teams),
            JutsuUsed { seat, card, ninja, targets, .. } => {
                self.jutsu_used(*seat, card, ninja);
                self.all_known(targets);
            }
            JutsuExchangeEnded {} => self.in_step(Step::Jutsu, "NAR-TURN-1", "ending the jutsu exchange"),
            BattleRewardTaken { seat, team, cards } => self.reward(*seat, team, cards),
            FightResolved {
                attacker,
                blocker,
                mental,
                attack_power,
                block_power,
                result,
                damage,
                injured,
                defeated,
            } => self.fight(
                attacker,
                blocker,
                *mental,
                (*attack_power, *block_power),
                *result,
                damage,
                injured,
                defeated,
            ),
            TeamsReturned {} => self.in_step(Step::Return, "NAR-RETURN-1", "returning the teams"),
            WinnerDetermined { winner, reason } => self.winner(*winner, *reason),
            HandCheckDiscard { seat, cards } => self.hand_check(*seat, cards),
            TurnMarkerAdvanced { seat, value } => self.marker_advanced(*seat, *value),
            CardMoved { card, from, to, .. } => self.card_moved(card, *from, *to),
            ModifierApplied { target, .. } => {
                self.known(target);
            }
            NinjaInjured { ninja, .. } => self.ninja_injured(ninja),
            NinjaDefeated { ninja, .. } => {
                self.in_play(ninja);
            }
            NinjaHealed { ninja, .. } => self.ninja_healed(ninja),
            SeedRevealed { key, seed } => self.out.extend(self.state.ledger.check_seed_reveal(key, seed)),
            CardRevealed { commitment, instance, salt } => self.card_revealed(commitment, instance, salt),
            Common(c) => self.common(c),
            MissionMovedToChakra { seat, card } => self.moved_to_chakra(*seat, card, LinkKind::Mission),
            JutsuMovedToChakra { seat, card } => self.moved_to_chakra(*seat, card, LinkKind::Jutsu),
        }
    }

    /// `MissionMovedToChakra` / `JutsuMovedToChakra` (rules version 5): exactly a card of that
    /// kind whose chain resolved, into the chakra of the seat that played it (NAR-MISSION-5,
    /// NAR-JUTSU-3). A permanent mission stays in the village (NAR-MISSION-6). A card whose move
    /// the game moved on without may still be moved late: the leaving out was cited already.
    fn moved_to_chakra(&mut self, seat: Seat, card: &str, kind: LinkKind) {
        let s = self.state;
        if !self.seat_ok(seat, s.players.len().min(2)) {
            return;
        }
        let (rule, what) = chakra_rule(kind);
        let Some(p) = s.played(card) else {
            let Some(def) = self.known(card) else { return };
            if def.kind == CardType::Mission && def.permanent && s.players.iter().any(|p| p.holds(Zone::Village, card))
            {
                self.violation("NAR-MISSION-6", format!("{card} is a permanent mission: it stays in the village"));
            } else {
                self.violation(
                    rule,
                    format!("{card} is no {what} whose chain resolved: nothing of it goes to chakra now"),
                );
            }
            return;
        };
        if p.kind != kind {
            let (_, is) = chakra_rule(p.kind);
            self.violation(rule, format!("{card} is a {is} that was played, not a {what}"));
        } else if !p.resolved {
            self.violation(rule, format!("{card} is still on the chain: it goes to chakra once the chain resolved"));
        } else if p.seat != seat {
            self.violation(rule, format!("{card} was played by {}: it goes to their chakra", s.name(p.seat)));
        }
    }

    /// Version 1's `SeedCommitted`: the dealer's seed, committed once (`KIFU-SEED-1`, the ID
    /// version 1 records; the common event says `KIFU-SEED-5`).
    fn seed_committed(&mut self, key: &str) {
        if self.state.ledger.seed_commitment(key).is_some() {
            self.violation("KIFU-SEED-1", format!("seed {key:?} was already committed"));
        }
    }

    /// Version 1's `CardRevealed`: a card of the game, opening its seal.
    fn card_revealed(&mut self, commitment: &Commitment, instance: &str, salt: &Secret) {
        self.known(instance);
        self.out.extend(self.state.ledger.check_reveal(commitment, instance, salt));
    }

    /// A common event: the shared checks ([`crate::game::common::validate`]) at a table of two
    /// whose shuffle mode is the header's; a revealed card must be one of the game's.
    fn common(&mut self, c: &CommonEvent) {
        let s = self.state;
        if let CommonEvent::CardRevealed { card, .. } = c {
            self.known(card);
        }
        let cx = crate::game::common::Context {
            ledger: &s.ledger,
            seats: s.players.len().min(2),
            mode: s.shuffles.into(),
            contributors: &[0, 1],
        };
        self.out.extend(crate::game::common::validate(&cx, c));
    }

    fn all_known(&mut self, cards: &[String]) {
        for c in cards {
            self.known(c);
        }
    }

    /// An event of the turn that belongs to step `want`.
    fn in_step(&mut self, want: Step, rule: RuleId, what: &str) {
        if self.in_turn() {
            self.step(want, rule, what);
        }
    }

    fn first_player_chosen(&mut self, chooser: Seat, first: Seat) {
        let s = self.state;
        if !self.seat_ok(first, s.players.len().min(2)) {
            return;
        }
        if s.step != Step::Setup || s.first.is_some() {
            self.violation("NAR-SETUP-3", "the first player was already chosen");
        } else if s.lot_winner != Some(chooser) {
            self.violation(
                "NAR-SETUP-3",
                format!("{} did not win the lot, so may not choose who goes first", s.name(chooser)),
            );
        }
    }

    fn hand_kept(&mut self, seat: Seat) {
        let s = self.state;
        let p = s.players.get(seat);
        if s.step != Step::Setup || !p.is_some_and(|p| p.hand_drawn && !p.kept) {
            self.violation("NAR-SETUP-4", format!("{} has no drawn hand to keep", s.name(seat)));
        }
    }

    /// The escape hatch: both zones' seats exist and the card is where the move says.
    fn card_moved(&mut self, card: &str, from: ZoneRef, to: ZoneRef) {
        let seats = self.state.players.len().min(2);
        if !self.seat_ok(from.seat, seats) || !self.seat_ok(to.seat, seats) {
            return;
        }
        self.holds(from.seat, from.zone, card);
    }

    fn ninja_injured(&mut self, ninja: &str) {
        if self.in_play(ninja) && self.state.injured.contains(ninja) {
            self.violation("NAR-DMG-2", format!("{ninja} is already injured; more damage defeats it (NAR-DMG-3)"));
        }
    }

    fn ninja_healed(&mut self, ninja: &str) {
        if self.in_play(ninja) && !self.state.injured.contains(ninja) {
            self.violation("NAR-DMG-5", format!("{ninja} is healthy; only an injured ninja can be healed"));
        }
    }

    fn in_play(&mut self, ninja: &str) -> bool {
        let owner = parse_instance(ninja).map(|(seat, _)| seat);
        let ok = owner.and_then(|o| self.state.players.get(o)).is_some_and(|p| p.in_play(ninja));
        if !ok && self.known(ninja).is_some() {
            self.violation("KIFU-CARD-1", format!("{ninja} is not in play (village or battlefield)"));
        }
        ok
    }

    fn turn_marker_set(&mut self, seat: Option<Seat>, value: u32) {
        let s = self.state;
        if s.step != Step::Setup {
            self.violation("NAR-SETUP-1", "turn markers are set during the setup");
            return;
        }
        if value != 0 {
            self.violation("NAR-SETUP-1", format!("the turn marker starts at 0, not {value}"));
        }
        match (s.policies.turn_marker, seat) {
            (TurnMarkerPolicy::PerPlayer, Some(seat)) => {
                if self.seat_ok(seat, self.state.players.len().min(2))
                    && s.players.get(seat).is_some_and(|p| p.marker_set)
                {
                    self.violation("NAR-SETUP-1", format!("{}'s turn marker is already set", s.name(seat)));
                }
            }
            (TurnMarkerPolicy::Shared, None) => {
                if s.shared_marker_set {
                    self.violation("NAR-SETUP-1", "the shared turn marker is already set");
                }
            }
            (TurnMarkerPolicy::PerPlayer, None) => {
                self.violation("NAR-OPEN-5", "policy turn_marker=per-player: each player sets their own marker")
            }
            (TurnMarkerPolicy::Shared, Some(_)) => {
                self.violation("NAR-OPEN-5", "policy turn_marker=shared: there is one shared marker (seat null)")
            }
        }
    }

    fn markers_set(&self) -> bool {
        match self.state.policies.turn_marker {
            TurnMarkerPolicy::PerPlayer => self.state.players.iter().all(|p| p.marker_set),
            TurnMarkerPolicy::Shared => self.state.shared_marker_set,
        }
    }

    fn deck_shuffled(&mut self, deck: Seat, by: Seat, seed: Option<&str>) {
        let s = self.state;
        if !self.seat_ok(deck, self.state.players.len().min(2)) || !self.seat_ok(by, self.state.players.len().min(2)) {
            return;
        }
        self.out.extend(s.ledger.check_shuffle_seed(s.shuffles.into(), seed));
        if s.step != Step::Setup {
            // Shuffles during play come from card effects: recorded, not checked.
            return;
        }
        if !self.markers_set() {
            self.violation("NAR-SETUP-1", "set the turn marker(s) to 0 before shuffling");
        }
        let Some(p) = s.players.get(deck) else { return };
        if by != deck && !p.shuffled_by_owner {
            let rule = if p.mulligans > 0 { "NAR-MULL-1" } else { "NAR-SETUP-2" };
            self.violation(rule, format!("{} shuffles their own deck before the opponent shuffles it", s.name(deck)));
        }
        if p.hand_drawn {
            self.violation(
                "NAR-SETUP-2",
                format!("{}'s hand is already drawn; only a mulligan reshuffles", s.name(deck)),
            );
        }
    }

    fn decks_shuffled(&self, seat: Seat) -> bool {
        self.state.players.get(seat).is_some_and(|p| p.shuffled_by_owner && p.shuffled_by_opponent)
    }

    fn lot(&mut self, lot: &Lot, winner: Seat) {
        let s = self.state;
        if !self.seat_ok(winner, self.state.players.len().min(2)) {
            return;
        }
        if s.step != Step::Setup || s.lot_winner.is_some() {
            self.violation("NAR-SETUP-3", "the lot for the first player was already drawn");
            return;
        }
        if !(self.decks_shuffled(0) && self.decks_shuffled(1)) {
            self.violation("NAR-SETUP-2", "both decks are shuffled by their owner and by the opponent before the lot");
        }
        let decided = match lot {
            Lot::RockPaperScissors { rounds } => {
                let ties_first = rounds.iter().rev().skip(1).all(|[a, b]| a == b);
                match rounds.last() {
                    Some([a, b]) if ties_first && a.beats(*b) => Some(0),
                    Some([a, b]) if ties_first && b.beats(*a) => Some(1),
                    _ => None,
                }
            }
            Lot::CoinToss { caller, call, result } => {
                if !self.seat_ok(*caller, self.state.players.len().min(2)) {
                    return;
                }
                Some(if call == result { *caller } else { crate::game::opponent(*caller) })
            }
        };
        match decided {
            None => self.violation(
                "NAR-SETUP-3",
                "the recorded throws do not decide a winner (only the last round may be decisive)",
            ),
            Some(w) if w != winner => self
                .violation("NAR-SETUP-3", format!("the recorded lot was won by {}, not {}", s.name(w), s.name(winner))),
            Some(_) => {}
        }
    }

    fn opening_hand(&mut self, seat: Seat, cards: &[CardRef]) {
        let s = self.state;
        if s.step != Step::Setup {
            self.violation("NAR-SETUP-4", "opening hands are drawn during the setup");
            return;
        }
        let Some(p) = s.players.get(seat) else { return };
        if s.first.is_none() {
            self.violation("NAR-SETUP-4", "hands are drawn once the first player is decided (NAR-SETUP-3)");
        }
        if p.hand_drawn || p.kept {
            self.violation("NAR-SETUP-4", format!("{} already has a hand", s.name(seat)));
        }
        if !self.decks_shuffled(seat) {
            let rule = if p.mulligans > 0 { "NAR-MULL-1" } else { "NAR-SETUP-2" };
            self.violation(
                rule,
                format!("{}'s deck is shuffled by its owner and then by the opponent before drawing", s.name(seat)),
            );
        }
        let want = 6usize.saturating_sub(usize::from(p.mulligans));
        if cards.len() != want {
            let rule = match p.mulligans {
                0 => "NAR-SETUP-4",
                1 => "NAR-MULL-1",
                _ => "NAR-MULL-2",
            };
            self.violation(rule, format!("this hand has {want} cards, not {}", cards.len()));
        }
        self.taken_from_deck(seat, cards);
    }

    /// Cards taken from the top of `seat`'s deck: open ones must be in it, all distinct, and there must be enough.
    fn taken_from_deck(&mut self, seat: Seat, cards: &[CardRef]) {
        let open: Vec<String> = cards
            .iter()
            .filter_map(|c| match c {
                CardRef::Open(c) => Some(c.clone()),
                CardRef::Sealed(_) => None,
            })
            .collect();
        self.distinct(&open, "KIFU-CARD-1");
        for c in &open {
            self.holds(seat, Zone::Deck, c);
        }
        let count = self.state.players.get(seat).map_or(0, |p| p.deck_count);
        if cards.len() > count {
            self.violation("KIFU-CARD-1", format!("{} cards taken from a deck of {count}", cards.len()));
        }
    }

    fn mulligan(&mut self, seat: Seat, attempt: u8) {
        let s = self.state;
        let Some(p) = s.players.get(seat) else { return };
        if s.step != Step::Setup || !p.hand_drawn || p.kept {
            self.violation("NAR-MULL-1", format!("{} has no drawn, unkept hand to mulligan", s.name(seat)));
            return;
        }
        if p.mulligans >= 2 || attempt > 2 {
            self.violation("NAR-MULL-3", "at most two mulligans are allowed");
        } else if attempt != p.mulligans + 1 {
            let rule = if attempt == 2 { "NAR-MULL-2" } else { "NAR-MULL-1" };
            self.violation(rule, format!("this would be mulligan {}, not {attempt}", p.mulligans + 1));
        }
    }

    fn turn_started(&mut self, turn: u32, attacker: Seat) {
        let s = self.state;
        if !self.seat_ok(attacker, self.state.players.len().min(2)) {
            return;
        }
        if s.step == Step::Setup {
            if !s.players.iter().all(|p| p.kept) {
                self.violation("NAR-SETUP-5", "play begins once both players have kept a hand");
            }
            if turn != 1 {
                self.violation("NAR-TURN-1", format!("the first turn is turn 1, not {turn}"));
            }
            match s.first {
                Some(first) if first != attacker => {
                    self.violation("NAR-SETUP-3", format!("{} chose to go first", s.name(first)))
                }
                None => self.violation("NAR-SETUP-3", "nobody has been chosen to go first"),
                Some(_) => {}
            }
            return;
        }
        if s.step != Step::TurnEnded {
            self.violation(
                "NAR-MARKER-3",
                format!("a new turn starts after the turn marker moved; the game is in step {}", s.step.name()),
            );
        }
        if turn != s.turn + 1 {
            self.violation("NAR-TURN-1", format!("the next turn is {}, not {turn}", s.turn + 1));
        }
        if Some(attacker) == s.attacker {
            self.violation("NAR-ROLE-5", format!("roles swap every turn: {} attacked last turn", s.name(attacker)));
        }
    }

    fn card_drawn(&mut self, seat: Seat, card: &CardRef) {
        let s = self.state;
        if !self.in_turn() {
            return;
        }
        self.step(Step::Draw, "NAR-TURN-1", "the turn's draw");
        self.attacker_only(seat, "NAR-DRAW-1", "draw in step A");
        if s.is_first_turn() {
            self.violation("NAR-DRAW-3", "the starting player does not draw on their first turn");
        }
        let count = s.players.get(seat).map_or(0, |p| p.deck_count);
        if count == 0 {
            self.violation("NAR-OPEN-8", "the deck is empty: there is no card to draw");
            return;
        }
        if let CardRef::Open(c) = card {
            self.holds(seat, Zone::Deck, c);
        }
    }

    fn step_advanced(&mut self, to: Step) {
        let s = self.state;
        if !self.in_turn() {
            return;
        }
        let Some(attacker) = s.attacker else { return };
        let from = s.step;
        let bad_order = |c: &mut Self| {
            c.violation("NAR-TURN-1", format!("step {} does not follow step {}", to.name(), from.name()))
        };
        match (from, to) {
            (Step::Draw, Step::Mission) => {
                let empty = s.players.get(attacker).is_some_and(|p| p.deck_count == 0);
                if empty && s.policies.empty_deck_draw == EmptyDeckDrawPolicy::Lose {
                    self.violation("NAR-OPEN-8", "policy empty_deck_draw=lose: the attacker cannot draw and loses");
                } else if !s.is_first_turn() && !empty {
                    self.violation("NAR-DRAW-1", "the attacker draws a card in step A");
                }
            }
            (Step::Mission, Step::Organization) => {}
            (Step::Organization, Step::Attack) | (Step::Organization, Step::Winner) => {
                let teams = s.current_teams(attacker);
                let in_teams: BTreeSet<&String> = teams.iter().flatten().collect();
                for n in s.village_ninja(attacker) {
                    if !in_teams.contains(&n) {
                        self.violation("NAR-TEAM-4", format!("{n} is in the village but in no team"));
                    }
                }
                if s.is_first_turn() && to == Step::Attack {
                    self.violation("NAR-TURN-5", "the starting player's first turn skips the battle phase");
                } else if !s.is_first_turn() && to == Step::Winner {
                    bad_order(self);
                }
            }
            (Step::Calculation, Step::Return) => {
                for t in &s.battle.attacks {
                    if !s.battle.is_blocked(&t.leader) && !s.battle.rewarded.contains(&t.leader) {
                        self.violation(
                            "NAR-REWARD-1",
                            format!("the non-fighting team led by {} has not taken its battle reward", t.leader),
                        );
                    }
                }
                for b in &s.battle.blocks {
                    if !s.battle.fought.iter().any(|(a, bl)| *a == b.blocks && *bl == b.leader) {
                        self.violation(
                            "NAR-RESULT-1",
                            format!("the fight between the teams led by {} and {} is not resolved", b.blocks, b.leader),
                        );
                    }
                }
            }
            (Step::Return, Step::Winner) => self
                .violation("NAR-RETURN-1", "all teams on the battlefield return to the village first (TeamsReturned)"),
            (Step::Winner, Step::HandCheck) => {
                if let Some((w, _, rule)) = expected_winner(s) {
                    self.violation(rule, format!("{} has won; the game ends here (NAR-WIN-1)", s.name(w)));
                }
            }
            (Step::HandCheck, Step::Marker) => {
                let n = s.players.get(attacker).map_or(0, |p| p.hand.len());
                if n > 6 {
                    self.violation("NAR-HAND-1", format!("the attacker has {n} cards and discards down to 6 first"));
                }
            }
            _ => bad_order(self),
        }
    }

    fn ninja_deployed(&mut self, seat: Seat, card: &str, from: DeployFrom, paid: &[String]) {
        let s = self.state;
        if !self.in_turn() {
            return;
        }
        self.step(Step::Mission, "NAR-TURN-1", "deploying a ninja");
        self.attacker_only(seat, "NAR-NINJA-1", "deploy ninja");
        let zone = match from {
            DeployFrom::Hand => Zone::Hand,
            DeployFrom::Chakra => Zone::Chakra,
        };
        self.holds(seat, zone, card);
        let Some(def) = s.def(card) else { return };
        if def.kind != CardType::Ninja {
            self.violation("NAR-NINJA-1", format!("{card} is a {}, not a ninja", def.kind.name()));
            return;
        }
        if from == DeployFrom::Chakra && !def.has_ambush() {
            self.violation("NAR-NINJA-3", format!("{card} has no Ambush status, so it cannot be deployed from chakra"));
        }
        if s.players.get(seat).is_some_and(|p| p.turn.ninja_deployed >= 1) {
            self.violation("NAR-NINJA-2", "only one ninja may be deployed per turn (Ambush included)");
        }
        let same_name = s.players.get(seat).is_some_and(|p| {
            p.village.iter().chain(&p.battlefield).any(|c| {
                c != card && s.kind(c) == Some(CardType::Ninja) && s.def(c).is_some_and(|d| d.name == def.name)
            })
        });
        if same_name {
            self.violation("NAR-NINJA-4", format!("{} already has a ninja named {:?} in play", s.name(seat), def.name));
        }
        self.entry_cost(seat, card, def);
        self.hand_cost(seat, card, def, None, paid);
    }

    fn entry_cost(&mut self, seat: Seat, card: &str, def: &CardDef) {
        let marker = self.state.marker_for(seat);
        if def.entry_cost > marker {
            self.violation(
                "NAR-COST-1",
                format!("{card} has entry cost {} but the turn marker is {marker}", def.entry_cost),
            );
        }
    }

    /// NAR-COST-2/3: `paid` is exactly the hand cost, from hand, with matching elements.
    fn hand_cost(&mut self, seat: Seat, card: &str, def: &CardDef, element: Option<&str>, paid: &[String]) {
        let s = self.state;
        if usize::try_from(def.hand_cost).ok() != Some(paid.len()) {
            self.violation(
                "NAR-COST-2",
                format!("{card} has hand cost {}, but {} cards were paid", def.hand_cost, paid.len()),
            );
        }
        self.distinct(paid, "NAR-COST-2");
        let mut paid_defs = Vec::new();
        for c in paid {
            if c == card {
                self.violation("NAR-COST-2", format!("{card} cannot pay its own hand cost"));
                continue;
            }
            if self.holds(seat, Zone::Hand, c) {
                if let Some(d) = s.def(c) {
                    paid_defs.push((c, d));
                }
            }
        }
        if let Some(e) = element {
            if !def.has_element(e) {
                self.violation("NAR-COST-3", format!("{card} has no element {e:?}"));
                return;
            }
        }
        match def.elements.len() {
            0 => {}
            1 => {
                let e = &def.elements[0];
                for (c, d) in &paid_defs {
                    if !d.has_element(e) {
                        self.violation("NAR-COST-2", format!("{c} is not of element {e}, so it cannot pay for {card}"));
                    }
                }
            }
            _ => match s.policies.multi_element_cost {
                MultiElementPolicy::AnyOf => {
                    for (c, d) in &paid_defs {
                        if !def.elements.iter().any(|e| d.has_element(e)) {
                            self.violation(
                                "NAR-COST-3",
                                format!("{c} shares no element with {card} (policy multi_element_cost=any-of)"),
                            );
                        }
                    }
                }
                MultiElementPolicy::ChooseOne => {
                    let ok = |e: &String| paid_defs.iter().all(|(_, d)| d.has_element(e));
                    let fine = match element {
                        Some(e) => ok(&e.to_string()),
                        None => def.elements.iter().any(ok),
                    };
                    if !fine {
                        self.violation("NAR-COST-3", format!("the cards paid for {card} do not all share one chosen element (policy multi_element_cost=choose-one)"));
                    }
                }
                MultiElementPolicy::AllOf => {
                    let covered = def.elements.iter().all(|e| paid_defs.iter().any(|(_, d)| d.has_element(e)));
                    let each = paid_defs.iter().all(|(_, d)| def.elements.iter().any(|e| d.has_element(e)));
                    if !covered || !each {
                        self.violation("NAR-COST-3", format!("the cards paid for {card} must cover all its elements (policy multi_element_cost=all-of)"));
                    }
                }
            },
        }
    }

    fn mission_played(&mut self, seat: Seat, card: &str, counter: bool, element: Option<&str>, paid: &[String]) {
        let s = self.state;
        if !self.in_turn() {
            return;
        }
        let Some(attacker) = s.attacker else { return };
        let blocker = crate::game::opponent(attacker);
        self.holds(seat, Zone::Hand, card);
        let missions = |x: Seat| s.players.get(x).map_or(0, |p| p.turn.missions);
        let counters = |x: Seat| s.players.get(x).map_or(0, |p| p.turn.counter_missions);
        if counter {
            if seat != blocker {
                self.violation("NAR-MISSION-1", "only the blocker plays counter missions");
            }
            match s.policies.counter_missions {
                CounterMissionPolicy::OwnLimit if counters(blocker) >= 1 => {
                    self.violation("NAR-OPEN-15", "policy counter_missions=own-limit: one counter mission per turn")
                }
                CounterMissionPolicy::SharedLimit if counters(blocker) + missions(attacker) >= 1 => self.violation(
                    "NAR-OPEN-15",
                    "policy counter_missions=shared-limit: a mission was already played this turn",
                ),
                _ => {}
            }
        } else {
            self.step(Step::Mission, "NAR-TURN-1", "playing a mission");
            self.attacker_only(seat, "NAR-MISSION-1", "play a mission (the blocker plays counter missions)");
            if missions(attacker) >= 1 {
                self.violation("NAR-MISSION-8", "only one mission may be played per turn");
            } else if s.policies.counter_missions == CounterMissionPolicy::SharedLimit && counters(blocker) >= 1 {
                self.violation(
                    "NAR-OPEN-15",
                    "policy counter_missions=shared-limit: a counter mission was already played this turn",
                );
            }
        }
        let Some(def) = s.def(card) else { return };
        if def.kind != CardType::Mission {
            self.violation("NAR-MISSION-1", format!("{card} is a {}, not a mission", def.kind.name()));
            return;
        }
        self.entry_cost(seat, card, def);
        self.hand_cost(seat, card, def, element, paid);
    }

    fn chakra_charged(&mut self, seat: Seat, cards: &[String]) {
        let s = self.state;
        if !self.in_turn() {
            return;
        }
        self.step(Step::Mission, "NAR-TURN-1", "charging chakra");
        self.attacker_only(seat, "NAR-CHAKRA-1", "charge chakra");
        self.distinct(cards, "KIFU-CARD-1");
        for c in cards {
            self.holds(seat, Zone::Hand, c);
        }
        if let Some(limit) = s.policies.chakra_charge_limit {
            let done = s.players.get(seat).map_or(0, |p| p.turn.charged);
            let n = u32::try_from(cards.len()).unwrap_or(u32::MAX);
            if done.saturating_add(n) > limit {
                self.violation(
                    "NAR-OPEN-14",
                    format!("policy chakra_charge_limit={limit}: {done} cards charged this turn already"),
                );
            }
        }
    }

    fn client_deployed(&mut self, seat: Seat, card: &str, element: Option<&str>, paid: &[String]) {
        let s = self.state;
        if !self.in_turn() {
            return;
        }
        self.step(Step::Mission, "NAR-TURN-1", "deploying a client");
        self.attacker_only(seat, "NAR-CLIENT-1", "deploy a client");
        self.holds(seat, Zone::Hand, card);
        let Some(def) = s.def(card) else { return };
        if def.kind != CardType::Client {
            self.violation("NAR-CLIENT-1", format!("{card} is a {}, not a client", def.kind.name()));
            return;
        }
        if s.players.get(seat).is_some_and(|p| p.turn.clients >= 1) {
            self.violation("NAR-CLIENT-2", "only one client may be played per turn");
        }
        if s.players.get(seat).is_some_and(|p| p.village.iter().any(|c| s.kind(c) == Some(CardType::Client))) {
            self.violation("NAR-CLIENT-3", format!("{} already has a client", s.name(seat)));
        }
        self.entry_cost(seat, card, def);
        self.hand_cost(seat, card, def, element, paid);
    }

    fn teams_organized(&mut self, seat: Seat, teams: &[Vec<String>]) {
        let s = self.state;
        if !self.in_turn() {
            return;
        }
        self.step(Step::Organization, "NAR-TURN-1", "organizing teams");
        self.attacker_only(seat, "NAR-TEAM-1", "organize teams");
        if s.players.get(seat).is_some_and(|p| p.turn.organized) {
            self.violation(
                "NAR-TEAM-5",
                "teams are organized once; they cannot be reorganized until the next organization phase",
            );
        }
        let mut seen = BTreeSet::new();
        for t in teams {
            if t.is_empty() || t.len() > 3 {
                self.violation("NAR-TEAM-2", format!("a team has 1 to 3 ninja, not {}", t.len()));
            }
            for c in t {
                if !seen.insert(c.clone()) {
                    self.violation("NAR-TEAM-4", format!("{c} is in two teams"));
                    continue;
                }
                if self.holds(seat, Zone::Village, c) && s.kind(c) != Some(CardType::Ninja) {
                    self.violation("NAR-TEAM-7", format!("{c} is not a ninja; only ninja form teams"));
                }
            }
        }
        for n in s.village_ninja(seat) {
            if !seen.contains(&n) {
                self.violation("NAR-TEAM-4", format!("{n} is in the village but in no team"));
            }
        }
    }

    /// Checks a sent team against `seat`'s current teams; `team_rule` is cited when it is not one of them.
    fn sent_team(
        &mut self,
        seat: Seat,
        leader: &str,
        supports: &[String],
        leader_rule: RuleId,
        team_rule: RuleId,
    ) -> bool {
        let members: Vec<String> = std::iter::once(leader.to_string()).chain(supports.iter().cloned()).collect();
        let mut ok = true;
        if supports.iter().any(|c| c == leader) || members.iter().collect::<BTreeSet<_>>().len() != members.len() {
            self.violation(leader_rule, format!("the team led by {leader} names a ninja twice"));
            ok = false;
        }
        let mut present = true;
        for c in &members {
            present &= self.holds(seat, Zone::Village, c);
        }
        if present && ok {
            let set: BTreeSet<&String> = members.iter().collect();
            let matches = self.state.current_teams(seat).iter().any(|t| t.iter().collect::<BTreeSet<_>>() == set);
            if !matches {
                self.violation(
                    team_rule,
                    format!("the team led by {leader} is not one of {}'s organized teams", self.state.name(seat)),
                );
                ok = false;
            }
        }
        ok && present
    }

    fn attacking_sent(&mut self, seat: Seat, teams: &[SentTeam]) {
        let s = self.state;
        if !self.in_turn() {
            return;
        }
        if s.battle.attack_sent {
            self.violation("NAR-ATK-4", "the attacking teams were already sent; they cannot change this turn");
            return;
        }
        if s.step != Step::Attack && s.is_first_turn() {
            self.violation("NAR-TURN-5", "the starting player's first turn has no battle phase");
        } else {
            self.step(Step::Attack, "NAR-TURN-1", "sending attacking teams");
        }
        if Some(seat) != s.attacker {
            self.violation("NAR-ROLE-3", "only the attacker may declare an attack");
            return;
        }
        if teams.len() > 3 {
            self.violation("NAR-ATK-2", format!("at most 3 teams may attack, not {}", teams.len()));
        }
        let mut used = BTreeSet::new();
        for t in teams {
            if std::iter::once(&t.leader).chain(&t.supports).any(|c| used.contains(c)) {
                self.violation("NAR-ATK-4", format!("the team led by {} is sent twice", t.leader));
                continue;
            }
            self.sent_team(seat, &t.leader, &t.supports, "NAR-ATK-3", "NAR-TEAM-5");
            used.extend(std::iter::once(&t.leader).chain(&t.supports).cloned());
        }
    }

    fn blocking_sent(&mut self, seat: Seat, teams: &[BlockingTeam]) {
        let s = self.state;
        if !self.in_turn() {
            return;
        }
        if s.battle.block_sent {
            self.violation("NAR-BLK-2", "the blocking teams were already sent; they cannot change this turn");
            return;
        }
        self.step(Step::Block, "NAR-TURN-1", "sending blocking teams");
        if Some(seat) != s.blocker() {
            self.violation("NAR-BLK-1", "only the blocker sends blocking teams");
            return;
        }
        let mut used = BTreeSet::new();
        let mut blocked: BTreeMap<&str, usize> = BTreeMap::new();
        for t in teams {
            if std::iter::once(&t.leader).chain(&t.supports).any(|c| used.contains(c)) {
                self.violation("NAR-BLK-2", format!("the team led by {} is sent twice", t.leader));
                continue;
            }
            self.sent_team(seat, &t.leader, &t.supports, "NAR-BLK-2", "NAR-TEAM-6");
            used.extend(std::iter::once(&t.leader).chain(&t.supports).cloned());
            if !s.battle.attacks.iter().any(|a| a.leader == t.blocks) {
                self.violation("NAR-BLK-2", format!("{} leads no attacking team", t.blocks));
            }
            *blocked.entry(t.blocks.as_str()).or_default() += 1;
        }
        if s.policies.multi_block == MultiBlockPolicy::Forbid {
            for (leader, n) in blocked {
                if n > 1 {
                    self.violation(
                        "NAR-OPEN-18",
                        format!("policy multi_block=forbid: {n} teams block the team led by {leader}"),
                    );
                }
            }
        }
    }

    fn jutsu_used(&mut self, seat: Seat, card: &str, ninja: &str) {
        let s = self.state;
        if !self.in_turn() {
            return;
        }
        self.step(Step::Jutsu, "NAR-JUTSU-1", "using a jutsu");
        self.holds(seat, Zone::Hand, card);
        if let Some(def) = s.def(card) {
            if def.kind != CardType::Jutsu {
                self.violation("NAR-JUTSU-1", format!("{card} is a {}, not a jutsu", def.kind.name()));
            }
        }
        if !s.players.get(seat).is_some_and(|p| p.holds(Zone::Battlefield, ninja)) && self.known(ninja).is_some() {
            self.violation("NAR-JUTSU-1", format!("{ninja} is not one of {}'s ninja on the battlefield", s.name(seat)));
        }
    }

    fn reward(&mut self, seat: Seat, team: &str, cards: &[CardRef]) {
        let s = self.state;
        if !self.in_turn() {
            return;
        }
        self.step(Step::Calculation, "NAR-TURN-1", "taking a battle reward");
        if Some(seat) != s.attacker {
            self.violation("NAR-REWARD-1", "only the attacker's non-fighting teams earn battle rewards");
            return;
        }
        let Some(t) = s.battle.attacks.iter().find(|t| t.leader == team) else {
            self.violation("NAR-REWARD-1", format!("{team} leads no attacking team"));
            return;
        };
        if s.battle.is_blocked(team) {
            self.violation(
                "NAR-REWARD-2",
                format!("the team led by {team} was blocked; only non-fighting teams earn rewards"),
            );
            return;
        }
        if s.battle.rewarded.iter().any(|r| r == team) {
            self.violation("NAR-REWARD-1", format!("the team led by {team} already took its reward"));
            return;
        }
        let opp = crate::game::opponent(seat);
        let (want, short) = expected_reward(s, seat, t);
        if cards.len() != want {
            let power = team_power(s, seat, &t.leader, &t.supports, false);
            let rule = if short { "NAR-OPEN-21" } else { "NAR-REWARD-1" };
            self.violation(rule, format!("a team of power {power} takes {want} reward card(s), not {}", cards.len()));
        }
        self.taken_from_deck(opp, cards);
    }

    #[allow(clippy::too_many_arguments)]
    fn fight(
        &mut self,
        attacker: &str,
        blocker: &str,
        mental: bool,
        powers: (i32, i32),
        result: FightResult,
        damage: &[Damage],
        injured: &[String],
        defeated: &[String],
    ) {
        let s = self.state;
        if !self.in_turn() {
            return;
        }
        self.step(Step::Calculation, "NAR-TURN-1", "resolving a fight");
        let (Some(a), Some(b)) = (
            s.battle.attacks.iter().find(|t| t.leader == attacker),
            s.battle.blocks.iter().find(|t| t.leader == blocker && t.blocks == attacker),
        ) else {
            self.violation(
                "NAR-BSTAT-1",
                format!("the teams led by {attacker} and {blocker} are not a blocked attacking team and its blocker"),
            );
            return;
        };
        if s.battle.fought.iter().any(|(x, y)| x == attacker && y == blocker) {
            self.violation("NAR-RESULT-1", "this fight was already resolved");
            return;
        }
        let Some(att) = s.attacker else { return };
        let want = (
            team_power(s, att, &a.leader, &a.supports, mental),
            team_power(s, crate::game::opponent(att), &b.leader, &b.supports, mental),
        );
        if powers != want {
            let rule = if mental { "NAR-POWER-3" } else { "NAR-POWER-1" };
            self.violation(rule, format!("team powers are {} vs {}, not {} vs {}", want.0, want.1, powers.0, powers.1));
        }
        let want_result = fight_result(powers.0, powers.1);
        if result != want_result {
            self.violation(
                "NAR-RESULT-1",
                format!("powers {} vs {} give {want_result:?}, not {result:?}", powers.0, powers.1),
            );
        }
        let want_damage = fight_damage(s, a, b, result);
        let got: BTreeMap<&str, u32> = damage.iter().map(|d| (d.ninja.as_str(), d.amount)).collect();
        let exp: BTreeMap<&str, u32> = want_damage.iter().map(|d| (d.ninja.as_str(), d.amount)).collect();
        if got != exp {
            let winners: Vec<&String> = match result {
                FightResult::AttackerVictory | FightResult::AttackerCrushingVictory => team_members(a),
                FightResult::BlockerVictory | FightResult::BlockerCrushingVictory => team_members_b(b),
                FightResult::Draw => Vec::new(),
            };
            if got.keys().any(|n| winners.iter().any(|w| w.as_str() == *n)) {
                self.violation("NAR-RESULT-2", "the winning team takes no damage");
            } else {
                self.violation("NAR-RESULT-1", format!("a {result:?} deals {}", describe_damage(&want_damage)));
            }
        }
        let (want_injured, want_defeated) = damage_effects(s, damage);
        let sorted = |v: &[String]| v.iter().cloned().collect::<BTreeSet<_>>();
        if sorted(injured) != want_injured {
            self.violation("NAR-DMG-2", format!("the damage injures exactly {:?}", want_injured));
        }
        if sorted(defeated) != want_defeated {
            self.violation("NAR-DMG-3", format!("the damage defeats exactly {:?}", want_defeated));
        }
    }

    fn winner(&mut self, winner: Seat, reason: WinReason) {
        let s = self.state;
        if !self.seat_ok(winner, self.state.players.len().min(2)) || !self.in_turn() {
            return;
        }
        let expected = match s.step {
            Step::Winner => expected_winner(s),
            Step::Draw if s.policies.empty_deck_draw == EmptyDeckDrawPolicy::Lose => {
                let empty = s.attacker.and_then(|a| s.players.get(a)).is_some_and(|p| p.deck_count == 0);
                match (empty, s.blocker()) {
                    (true, Some(b)) => Some((b, WinReason::DeckOut, "NAR-OPEN-8")),
                    _ => {
                        self.violation("NAR-WIN-1", "victory is checked in step M");
                        return;
                    }
                }
            }
            _ => {
                self.violation("NAR-WIN-1", "victory is checked only in step M, at the end of the turn");
                return;
            }
        };
        match expected {
            None => self.violation("NAR-WIN-5", "no player meets a victory condition; the game continues"),
            Some((w, r, rule)) => {
                if w != winner || r != reason {
                    self.violation(rule, format!("{} wins ({r:?}), not {} ({reason:?})", s.name(w), s.name(winner)));
                }
            }
        }
    }

    fn hand_check(&mut self, seat: Seat, cards: &[String]) {
        let s = self.state;
        if !self.in_turn() {
            return;
        }
        self.step(Step::HandCheck, "NAR-TURN-1", "the hand check");
        if Some(seat) != s.attacker {
            self.violation("NAR-HAND-2", "the blocker never discards at the hand check");
            return;
        }
        self.distinct(cards, "KIFU-CARD-1");
        for c in cards {
            self.holds(seat, Zone::Hand, c);
        }
        let n = s.players.get(seat).map_or(0, |p| p.hand.len());
        if n <= 6 || n.saturating_sub(cards.len()) != 6 {
            self.violation(
                "NAR-HAND-1",
                format!("with {n} cards in hand the attacker discards {}, not {}", n.saturating_sub(6), cards.len()),
            );
        }
    }

    fn marker_advanced(&mut self, seat: Option<Seat>, value: u32) {
        let s = self.state;
        if !self.in_turn() {
            return;
        }
        self.step(Step::Marker, "NAR-TURN-1", "moving the turn marker");
        let Some(attacker) = s.attacker else { return };
        let current = match (s.policies.turn_marker, seat) {
            (TurnMarkerPolicy::PerPlayer, Some(x)) if x == attacker => s.players.get(x).map_or(0, |p| p.marker),
            (TurnMarkerPolicy::Shared, None) => s.shared_marker,
            _ => {
                self.violation(
                    "NAR-MARKER-1",
                    "the attacker moves their turn marker (or the shared marker under turn_marker=shared)",
                );
                return;
            }
        };
        if value != current + 1 {
            self.violation(
                "NAR-MARKER-1",
                format!("the marker moves up by 1, from {current} to {}, not to {value}", current + 1),
            );
        }
    }
}

fn team_members(t: &SentTeam) -> Vec<&String> {
    std::iter::once(&t.leader).chain(&t.supports).collect()
}

fn team_members_b(t: &BlockingTeam) -> Vec<&String> {
    std::iter::once(&t.leader).chain(&t.supports).collect()
}

fn describe_damage(d: &[Damage]) -> String {
    if d.is_empty() {
        return "no damage".to_string();
    }
    d.iter().map(|d| format!("{} to {}", d.amount, d.ninja)).collect::<Vec<_>>().join(", ")
}

/// Which of a ninja's current circumstances its value counts (NAR-POWER-2): its injury (NAR-DMG-4)
/// and the modifiers in play. Rules count both ([`Values::CURRENT`]); version 3 names the one a
/// recorded power left out.
#[derive(Clone, Copy)]
struct Values {
    injuries: bool,
    modifiers: bool,
}

impl Values {
    const CURRENT: Values = Values { injuries: true, modifiers: true };
}

/// A ninja's current value (NAR-POWER-2, NAR-DMG-4): healthy or injured printed value plus modifiers.
pub fn ninja_value(s: &NarutoState, ninja: &str, stat: Stat) -> i32 {
    ninja_value_with(s, ninja, stat, Values::CURRENT)
}

fn ninja_value_with(s: &NarutoState, ninja: &str, stat: Stat, values: Values) -> i32 {
    let Some(d) = s.def(ninja) else { return 0 };
    let injured = values.injuries && s.injured.contains(ninja);
    let base = match (stat, injured) {
        (Stat::Attack, false) => d.attack,
        (Stat::Attack, true) => d.injured_attack,
        (Stat::Support, false) => d.support,
        (Stat::Support, true) => d.injured_support,
        (Stat::MentalPower, _) => d.mental_power.unwrap_or(0),
    };
    if values.modifiers {
        base.saturating_add(s.modifier(ninja, stat))
    } else {
        base
    }
}

/// Team power (NAR-POWER-1): the leader's attack plus each support's support; for a mental
/// battle (NAR-POWER-3), the sum of every member's mental power. Members no longer in play count nothing.
pub fn team_power(s: &NarutoState, seat: Seat, leader: &str, supports: &[String], mental: bool) -> i32 {
    team_power_with(s, seat, leader, supports, mental, Values::CURRENT)
}

fn team_power_with(
    s: &NarutoState,
    seat: Seat,
    leader: &str,
    supports: &[String],
    mental: bool,
    values: Values,
) -> i32 {
    let present = |c: &str| s.players.get(seat).is_some_and(|p| p.in_play(c));
    let value = |c: &str, stat| ninja_value_with(s, c, stat, values);
    if mental {
        return std::iter::once(leader)
            .chain(supports.iter().map(String::as_str))
            .filter(|c| present(c))
            .map(|c| value(c, Stat::MentalPower))
            .sum();
    }
    let lead = if present(leader) { value(leader, Stat::Attack) } else { 0 };
    lead + supports.iter().filter(|c| present(c)).map(|c| value(c, Stat::Support)).sum::<i32>()
}

/// NAR-RESULT-1: the fight result from the two powers.
pub fn fight_result(attack: i32, block: i32) -> FightResult {
    let diff = attack - block;
    match diff {
        0 => FightResult::Draw,
        1..=4 => FightResult::AttackerVictory,
        d if d >= 5 => FightResult::AttackerCrushingVictory,
        -4..=-1 => FightResult::BlockerVictory,
        _ => FightResult::BlockerCrushingVictory,
    }
}

/// NAR-RESULT-1/2: the damage a result deals, to members still in play.
pub fn fight_damage(s: &NarutoState, a: &SentTeam, b: &BlockingTeam, result: FightResult) -> Vec<Damage> {
    let in_play = |c: &str| parse_instance(c).and_then(|(o, _)| s.players.get(o)).is_some_and(|p| p.in_play(c));
    let mut out = Vec::new();
    let mut hit = |c: &str, amount: u32| {
        if in_play(c) {
            out.push(Damage { ninja: c.to_string(), amount });
        }
    };
    match result {
        FightResult::Draw => {
            hit(&a.leader, 1);
            hit(&b.leader, 1);
        }
        FightResult::AttackerVictory => hit(&b.leader, 1),
        FightResult::BlockerVictory => hit(&a.leader, 1),
        FightResult::AttackerCrushingVictory => {
            hit(&b.leader, 2);
            for c in &b.supports {
                hit(c, 1);
            }
        }
        FightResult::BlockerCrushingVictory => {
            hit(&a.leader, 2);
            for c in &a.supports {
                hit(c, 1);
            }
        }
    }
    out
}

/// NAR-DMG-2/3: which ninja the damage injures and which it defeats.
pub fn damage_effects(s: &NarutoState, damage: &[Damage]) -> (BTreeSet<String>, BTreeSet<String>) {
    let mut total: BTreeMap<&str, u32> = BTreeMap::new();
    for d in damage {
        *total.entry(d.ninja.as_str()).or_default() += d.amount;
    }
    let mut injured = BTreeSet::new();
    let mut defeated = BTreeSet::new();
    for (n, amount) in total {
        match (s.injured.contains(n), amount) {
            (_, 0) => {}
            (false, 1) => {
                injured.insert(n.to_string());
            }
            _ => {
                defeated.insert(n.to_string());
            }
        }
    }
    (injured, defeated)
}

/// The full expected resolution of a fight (used by the agent).
pub fn resolve_fight(s: &NarutoState, a: &SentTeam, b: &BlockingTeam, mental: bool) -> NarutoEvent {
    let att = s.attacker.unwrap_or(0);
    let ap = team_power(s, att, &a.leader, &a.supports, mental);
    let bp = team_power(s, crate::game::opponent(att), &b.leader, &b.supports, mental);
    let result = fight_result(ap, bp);
    let damage = fight_damage(s, a, b, result);
    let (injured, defeated) = damage_effects(s, &damage);
    NarutoEvent::FightResolved {
        attacker: a.leader.clone(),
        blocker: b.leader.clone(),
        mental,
        attack_power: ap,
        block_power: bp,
        result,
        damage,
        injured: injured.into_iter().collect(),
        defeated: defeated.into_iter().collect(),
    }
}

/// NAR-REWARD-1 with NAR-OPEN-21: how many cards a non-fighting team takes, and whether the deck is short.
pub fn expected_reward(s: &NarutoState, seat: Seat, t: &SentTeam) -> (usize, bool) {
    let power = team_power(s, seat, &t.leader, &t.supports, false);
    let n = if power >= 5 { 2 } else { 1 };
    let deck = s.players.get(crate::game::opponent(seat)).map_or(0, |p| p.deck_count);
    if deck >= n {
        return (n, false);
    }
    match s.policies.short_deck_reward {
        ShortDeckRewardPolicy::TakeRemaining => (deck, true),
        ShortDeckRewardPolicy::None => (0, true),
    }
}

/// The battle reward of the non-fighting team `t` as the attacker `seat` takes it: the top cards
/// of the opponent's deck, face down and unseen (NAR-REWARD-1, NAR-ZONE-1), so recorded as
/// cards taken blind ([`blind_take`]): the same event whatever the deck holds.
pub fn reward_taken(s: &NarutoState, seat: Seat, t: &SentTeam) -> NarutoEvent {
    let (n, _) = expected_reward(s, seat, t);
    let deck = super::state::deck_name(crate::game::opponent(seat));
    let at = |i: usize| u32::try_from(i).unwrap_or(u32::MAX);
    let mark = |i: usize| CardRef::Sealed(blind_take(&deck, s.turn, &t.leader, at(i)));
    NarutoEvent::BattleRewardTaken { seat, team: t.leader.clone(), cards: (0..n).map(mark).collect() }
}

/// Step M's table (NAR-WIN-2..4): the winner, why, and the rule that decides it.
pub fn expected_winner(s: &NarutoState) -> Option<(Seat, WinReason, RuleId)> {
    let a = s.attacker?;
    let b = crate::game::opponent(a);
    let rewards = |x: Seat| s.players.get(x).map_or(0, |p| p.rewards.len()) >= 10;
    let empty = |x: Seat| s.players.get(x).is_some_and(|p| p.deck_count == 0);
    let any_empty = empty(a) || empty(b);
    match (rewards(a), rewards(b)) {
        (true, true) => Some((a, WinReason::Rewards, "NAR-WIN-2")),
        (true, false) => Some((a, WinReason::Rewards, if any_empty { "NAR-WIN-4" } else { "NAR-WIN-2" })),
        (false, true) => Some((b, WinReason::Rewards, if any_empty { "NAR-WIN-4" } else { "NAR-WIN-2" })),
        (false, false) => match (empty(a), empty(b)) {
            (true, _) => Some((b, WinReason::DeckOut, "NAR-WIN-3")),
            (false, true) => Some((a, WinReason::DeckOut, "NAR-WIN-3")),
            (false, false) => None,
        },
    }
}
