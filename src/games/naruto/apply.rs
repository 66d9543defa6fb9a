//! Folding events into state: total, never panics, holds no rule checks.
//!
//! A judge may force an illegal event into the log, so every branch does what it can: a card that
//! is not where the event says is moved from wherever it is, an unknown seat changes nothing.
//! Deck operations are reported to the [`crate::game::commit::CommitmentLedger`] so the audit can
//! replay seeded shuffles.

use super::events::{
    BlockingTeam, CardRef, CommonEvent, DeployFrom, Duration, LinkKind, NarutoEvent, SentTeam, Stat, Step, WinReason,
    Zone,
};
use super::rules_version::Rules;
use super::state::{deck_name, ChainLink, Held, Modifier, NarutoState, Played, TurnCounters};
use crate::game::commit::Commitment;
use crate::game::{Outcome, Seat};

/// Applies one event under `rules`. Up to version 4 the fold puts a played
/// mission into chakra inside `MissionPlayed` and a used jutsu inside `JutsuUsed`, before their
/// chain resolves; from version 5 the card waits on the chain ([`super::state::Played`]) and
/// `MissionMovedToChakra` / `JutsuMovedToChakra` record the move once the chain resolved
/// (NAR-MISSION-5, NAR-JUTSU-3), so a table that forgot one shows it on the board. A permanent
/// mission goes into the village inside `MissionPlayed` in every version: it is put into play
/// where it is played and stays there (NAR-MISSION-6), with no later move to record.
pub fn apply_as(mut s: NarutoState, event: &NarutoEvent, rules: Rules) -> NarutoState {
    use NarutoEvent::*;
    let waits_on_the_chain = rules.chakra_moves_recorded;
    if waits_on_the_chain && event.moves_on() {
        // The game moved on past the moves due: cited there once (rules::validate_as).
        for p in s.played.iter_mut().filter(|p| p.resolved) {
            p.left_out = true;
        }
    }
    match event {
        TurnMarkerSet { seat, value } => turn_marker_set(&mut s, *seat, *value),
        SeedCommitted { .. } | SeedRevealed { .. } | CardRevealed { .. } | Common(_) => {
            if let Some(c) = event.as_common() {
                common(&mut s, &c);
            }
        }
        DeckShuffled { deck, by, seed } => deck_shuffled(&mut s, deck, by, seed),
        FirstPlayerLotDrawn { winner, .. } => s.lot_winner = Some(*winner),
        FirstPlayerChosen { first, .. } => s.first = Some(*first),
        OpeningHandDrawn { seat, cards } => opening_hand_drawn(&mut s, seat, cards),
        MulliganTaken { seat, attempt } => mulligan_taken(&mut s, seat, attempt),
        HandKept { seat } => hand_kept(&mut s, seat),
        TurnStarted { turn, attacker } => turn_started(&mut s, turn, attacker),
        CardDrawn { seat, card } => card_drawn(&mut s, seat, card),
        StepAdvanced { to } => s.step = *to,
        NinjaDeployed { seat, card, from, hand_cost_paid } => ninja_deployed(&mut s, seat, card, from, hand_cost_paid),
        MissionPlayed { seat, card, counter, hand_cost_paid, .. } => {
            mission_played(&mut s, seat, card, counter, hand_cost_paid, waits_on_the_chain)
        }
        ChainLinkAdded { seat, source, kind, description } => s.chain.push(ChainLink {
            seat: *seat,
            source: source.clone(),
            kind: *kind,
            description: description.clone(),
        }),
        ChainResolved {} => chain_resolved(&mut s),
        ChakraCharged { seat, cards } => chakra_charged(&mut s, seat, cards),
        ClientDeployed { seat, card, hand_cost_paid, .. } => client_deployed(&mut s, seat, card, hand_cost_paid),
        TeamsOrganized { seat, teams } => teams_organized(&mut s, seat, teams),
        AttackingTeamsSent { seat, teams } => attacking_teams_sent(&mut s, seat, teams),
        BlockingTeamsSent { seat, teams } => blocking_teams_sent(&mut s, seat, teams),
        JutsuUsed { seat, card, .. } => jutsu_used(&mut s, seat, card, waits_on_the_chain),
        JutsuExchangeEnded {} => {
            if s.step == Step::Jutsu {
                s.step = Step::Calculation;
            }
        }
        BattleRewardTaken { seat, team, cards } => battle_reward_taken(&mut s, seat, team, cards),
        FightResolved { attacker, blocker, injured, defeated, .. } => {
            fight_resolved(&mut s, attacker, blocker, injured, defeated)
        }
        TeamsReturned {} => teams_returned(&mut s),
        WinnerDetermined { winner, reason } => winner_determined(&mut s, winner, reason),
        HandCheckDiscard { seat, cards } => hand_check_discard(&mut s, seat, cards),
        TurnMarkerAdvanced { seat, value } => turn_marker_advanced(&mut s, seat, value),
        CoinFlipped { .. } | EffectResolved { .. } => {}
        CardMoved { card, from, to, .. } => match from.zone {
            Zone::Deck => take_top(&mut s, from.seat, &CardRef::Open(card.clone()), to.seat, to.zone),
            _ => {
                if from.zone == Zone::DeckSearch {
                    s.ledger.deck_order_lost(&deck_name(from.seat));
                }
                relocate(&mut s, card, from.seat, from.zone, to.seat, to.zone);
            }
        },
        ModifierApplied { target, stat, delta, duration } => modifier_applied(&mut s, target, stat, delta, duration),
        NinjaInjured { ninja, .. } => ninja_injured(&mut s, ninja),
        NinjaDefeated { ninja, .. } => defeat(&mut s, ninja),
        NinjaHealed { ninja, .. } => ninja_healed(&mut s, ninja),
        MissionMovedToChakra { seat, card } | JutsuMovedToChakra { seat, card } => to_chakra(&mut s, *seat, card),
    }
    s
}

/// The chain is cleared; from rules version 5 its missions and jutsu are due to go to chakra.
fn chain_resolved(s: &mut NarutoState) {
    let chain = std::mem::take(&mut s.chain);
    for p in s.played.iter_mut().filter(|p| chain.iter().any(|l| l.source == p.card)) {
        p.resolved = true;
    }
}

fn teams_returned(s: &mut NarutoState) {
    for p in &mut s.players {
        let back = std::mem::take(&mut p.battlefield);
        p.village.extend(back);
    }
    if s.step == Step::Return {
        s.step = Step::Winner;
    }
}

/// Rules version 5: a played mission or used jutsu leaves the hand and waits on the chain, in no
/// zone, until its chain resolves and its move to chakra is recorded.
fn onto_the_chain(s: &mut NarutoState, seat: Seat, card: &str, kind: LinkKind) {
    let was_in_hand = s.players.get_mut(seat).is_some_and(|p| p.take(Zone::Hand, card));
    if !was_in_hand {
        remove_anywhere(s, card);
    }
    leave_play(s, card, Zone::Chakra);
    s.played.push(Played { seat, card: card.to_string(), kind, resolved: false, left_out: false });
}

/// NAR-MISSION-5 / NAR-JUTSU-3 (rules version 5): the card goes to `seat`'s chakra from wherever
/// it is (the chain, as a rule; a card named wrongly is moved all the same, as the fold does for
/// every event).
fn to_chakra(s: &mut NarutoState, seat: Seat, card: &str) {
    remove_anywhere(s, card);
    leave_play(s, card, Zone::Chakra);
    if let Some(p) = s.players.get_mut(seat) {
        p.put(Zone::Chakra, card);
    }
}

/// A common event, in either shape: the ledger's part ([`crate::game::common::record`]) and a
/// revealed card's identity on the board. The common escape hatches are recorded only: Naruto's
/// own `CardMoved` moves cards between seat-qualified zones.
fn common(s: &mut NarutoState, c: &CommonEvent) {
    crate::game::common::record(&mut s.ledger, c);
    if let CommonEvent::CardRevealed { commitment, card, .. } = c {
        card_revealed(s, commitment, card);
    }
}

/// A player's own turn marker, or the shared one (`turn_marker=shared`, NAR-OPEN-5).
fn turn_marker_set(s: &mut NarutoState, seat: Option<Seat>, value: u32) {
    match seat {
        Some(seat) => {
            if let Some(p) = s.players.get_mut(seat) {
                p.marker = value;
                p.marker_set = true;
            }
        }
        None => {
            s.shared_marker = value;
            s.shared_marker_set = true;
        }
    }
}

fn deck_shuffled(s: &mut NarutoState, deck: &Seat, by: &Seat, seed: &Option<String>) {
    let setup = s.step == Step::Setup;
    if let Some(p) = s.players.get_mut(*deck) {
        if setup {
            if by == deck {
                p.shuffled_by_owner = true;
            } else {
                p.shuffled_by_opponent = true;
            }
        }
        // The transcript can only be checked when the fold knows the deck's exact contents.
        let exact = p.deck.len() == p.deck_count;
        let contents: Vec<String> = p.deck.iter().cloned().collect();
        let key = seed.as_deref().filter(|_| exact);
        s.ledger.deck_shuffled(&deck_name(*deck), contents, key);
    }
}

fn opening_hand_drawn(s: &mut NarutoState, seat: &Seat, cards: &[CardRef]) {
    for card in cards {
        draw(s, *seat, card);
    }
    if let Some(p) = s.players.get_mut(*seat) {
        p.hand_drawn = true;
    }
}

fn mulligan_taken(s: &mut NarutoState, seat: &Seat, attempt: &u8) {
    if let Some(p) = s.players.get_mut(*seat) {
        for held in std::mem::take(&mut p.hand) {
            if let Held::Known(c) = held {
                p.deck.insert(c);
            }
            p.deck_count += 1;
        }
        p.mulligans = p.mulligans.max(*attempt);
        p.hand_drawn = false;
        p.shuffled_by_owner = false;
        p.shuffled_by_opponent = false;
    }
}

fn hand_kept(s: &mut NarutoState, seat: &Seat) {
    if let Some(p) = s.players.get_mut(*seat) {
        p.kept = true;
    }
}

fn turn_started(s: &mut NarutoState, turn: &u32, attacker: &Seat) {
    s.turn = *turn;
    s.attacker = Some(*attacker);
    s.step = Step::Draw;
    for p in &mut s.players {
        p.turn = TurnCounters::default();
    }
    s.battle = Default::default();
    s.chain.clear();
    s.modifiers.retain(|m| m.duration == Duration::Permanent);
}

fn card_drawn(s: &mut NarutoState, seat: &Seat, card: &CardRef) {
    draw(s, *seat, card);
    if let Some(p) = s.players.get_mut(*seat) {
        p.turn.drew = true;
    }
    if s.step == Step::Draw {
        s.step = Step::Mission;
    }
}

fn ninja_deployed(s: &mut NarutoState, seat: &Seat, card: &str, from: &DeployFrom, hand_cost_paid: &[String]) {
    pay(s, *seat, hand_cost_paid);
    let zone = match from {
        DeployFrom::Hand => Zone::Hand,
        DeployFrom::Chakra => Zone::Chakra,
    };
    relocate(s, card, *seat, zone, *seat, Zone::Village);
    s.injured.remove(card);
    if let Some(p) = s.players.get_mut(*seat) {
        p.turn.ninja_deployed += 1;
    }
}

/// A mission played: into the village if permanent (NAR-MISSION-6); otherwise into chakra at
/// once up to rules version 4, onto the chain from version 5 (`waits`, NAR-MISSION-5).
fn mission_played(
    s: &mut NarutoState,
    seat: &Seat,
    card: &str,
    counter: &bool,
    hand_cost_paid: &[String],
    waits: bool,
) {
    pay(s, *seat, hand_cost_paid);
    let permanent = s.def(card).is_some_and(|d| d.permanent);
    if waits && !permanent {
        onto_the_chain(s, *seat, card, LinkKind::Mission);
    } else {
        let to = if permanent { Zone::Village } else { Zone::Chakra };
        relocate(s, card, *seat, Zone::Hand, *seat, to);
    }
    s.chain.push(ChainLink {
        seat: *seat,
        source: card.to_string(),
        kind: LinkKind::Mission,
        description: String::new(),
    });
    if let Some(p) = s.players.get_mut(*seat) {
        if *counter {
            p.turn.counter_missions += 1;
        } else {
            p.turn.missions += 1;
        }
    }
}

fn chakra_charged(s: &mut NarutoState, seat: &Seat, cards: &[String]) {
    for c in cards {
        relocate(s, c, *seat, Zone::Hand, *seat, Zone::Chakra);
    }
    if let Some(p) = s.players.get_mut(*seat) {
        p.turn.charged += u32::try_from(cards.len()).unwrap_or(u32::MAX);
    }
}

fn client_deployed(s: &mut NarutoState, seat: &Seat, card: &str, hand_cost_paid: &[String]) {
    pay(s, *seat, hand_cost_paid);
    relocate(s, card, *seat, Zone::Hand, *seat, Zone::Village);
    if let Some(p) = s.players.get_mut(*seat) {
        p.turn.clients += 1;
    }
}

fn teams_organized(s: &mut NarutoState, seat: &Seat, teams: &[Vec<String>]) {
    if let Some(p) = s.players.get_mut(*seat) {
        p.teams = teams.to_vec();
        p.turn.organized = true;
    }
}

fn attacking_teams_sent(s: &mut NarutoState, seat: &Seat, teams: &[SentTeam]) {
    for t in teams {
        for c in std::iter::once(&t.leader).chain(&t.supports) {
            relocate(s, c, *seat, Zone::Village, *seat, Zone::Battlefield);
        }
    }
    s.battle.attacks = teams.to_vec();
    s.battle.attack_sent = true;
    if s.step == Step::Attack {
        s.step = Step::Block;
    }
}

fn blocking_teams_sent(s: &mut NarutoState, seat: &Seat, teams: &[BlockingTeam]) {
    for t in teams {
        for c in std::iter::once(&t.leader).chain(&t.supports) {
            relocate(s, c, *seat, Zone::Village, *seat, Zone::Battlefield);
        }
    }
    s.battle.blocks = teams.to_vec();
    s.battle.block_sent = true;
    if s.step == Step::Block {
        s.step = Step::Jutsu;
    }
}

/// A jutsu used: into chakra at once up to rules version 4, onto the chain from version 5
/// (`waits`, NAR-JUTSU-3).
fn jutsu_used(s: &mut NarutoState, seat: &Seat, card: &str, waits: bool) {
    if waits {
        onto_the_chain(s, *seat, card, LinkKind::Jutsu);
    } else {
        relocate(s, card, *seat, Zone::Hand, *seat, Zone::Chakra);
    }
    s.chain.push(ChainLink {
        seat: *seat,
        source: card.to_string(),
        kind: LinkKind::Jutsu,
        description: String::new(),
    });
}

fn battle_reward_taken(s: &mut NarutoState, seat: &Seat, team: &str, cards: &[CardRef]) {
    let from = crate::game::opponent(*seat);
    for card in cards {
        take_top(s, from, card, *seat, Zone::Rewards);
    }
    s.battle.rewarded.push(team.to_string());
}

fn fight_resolved(s: &mut NarutoState, attacker: &str, blocker: &str, injured: &[String], defeated: &[String]) {
    s.battle.fought.push((attacker.to_string(), blocker.to_string()));
    for n in injured {
        s.injured.insert(n.clone());
    }
    for n in defeated {
        defeat(s, n);
    }
}

fn winner_determined(s: &mut NarutoState, winner: &Seat, reason: &WinReason) {
    let why = match reason {
        super::events::WinReason::Rewards => "NAR-WIN-2: 10 or more battle rewards",
        super::events::WinReason::DeckOut => "NAR-WIN-3: the opponent's deck is empty",
    };
    s.result = Some(Outcome::won(*winner, s.players.len(), why));
}

fn hand_check_discard(s: &mut NarutoState, seat: &Seat, cards: &[String]) {
    for c in cards {
        relocate(s, c, *seat, Zone::Hand, *seat, Zone::Discard);
    }
}

fn turn_marker_advanced(s: &mut NarutoState, seat: &Option<Seat>, value: &u32) {
    match seat {
        Some(seat) => {
            if let Some(p) = s.players.get_mut(*seat) {
                p.marker = *value;
            }
        }
        None => s.shared_marker = *value,
    }
    if s.step == Step::Marker {
        s.step = Step::TurnEnded;
    }
}

fn modifier_applied(s: &mut NarutoState, target: &str, stat: &Stat, delta: &i32, duration: &Duration) {
    s.modifiers.push(Modifier { target: target.to_string(), stat: *stat, delta: *delta, duration: *duration })
}

fn ninja_injured(s: &mut NarutoState, ninja: &str) {
    s.injured.insert(ninja.to_string());
}

fn ninja_healed(s: &mut NarutoState, ninja: &str) {
    s.injured.remove(ninja);
}

/// A sealed card's identity, known now wherever the seal lies (the ledger heard of it already).
fn card_revealed(s: &mut NarutoState, commitment: &Commitment, instance: &str) {
    let mut found = false;
    for p in &mut s.players {
        for held in p.hand.iter_mut().chain(p.rewards.iter_mut()).chain(p.removed.iter_mut()) {
            if *held == Held::Sealed(*commitment) {
                *held = Held::Known(instance.to_string());
                found = true;
            }
        }
    }
    // The sealed card left its deck when it was drawn; now we know which one it was.
    if found {
        if let Some((owner, _)) = super::config::parse_instance(instance) {
            if let Some(p) = s.players.get_mut(owner) {
                p.deck.remove(instance);
            }
        }
    }
}

/// Takes a card from the top of `seat`'s deck into their hand.
fn draw(s: &mut NarutoState, seat: Seat, card: &CardRef) {
    take_top(s, seat, card, seat, Zone::Hand);
}

/// Takes `card` from the top of `from`'s deck into zone `to` of seat `to_seat`.
fn take_top(s: &mut NarutoState, from: Seat, card: &CardRef, to_seat: Seat, to: Zone) {
    let name = deck_name(from);
    match card {
        CardRef::Open(c) => {
            let was_in_deck = s.players.get_mut(from).is_some_and(|p| p.take(Zone::Deck, c));
            if was_in_deck {
                s.ledger.deck_took_top(&name, c);
            } else {
                // Not in the deck as far as the fold knows: take it from wherever it is.
                remove_anywhere(s, c);
            }
            if let Some(p) = s.players.get_mut(to_seat) {
                p.put(to, c);
            }
        }
        CardRef::Sealed(commitment) => {
            s.ledger.card_sealed(*commitment);
            // The transcript cannot follow a card it cannot name.
            s.ledger.deck_order_lost(&name);
            if let Some(p) = s.players.get_mut(from) {
                p.deck_count = p.deck_count.saturating_sub(1);
            }
            if let Some(p) = s.players.get_mut(to_seat) {
                match to {
                    Zone::Hand => p.hand.push(Held::Sealed(*commitment)),
                    Zone::Rewards => p.rewards.push(Held::Sealed(*commitment)),
                    _ => p.removed.push(Held::Sealed(*commitment)),
                }
            }
        }
    }
}

/// Moves hand-cost cards from hand to chakra (NAR-COST-2).
fn pay(s: &mut NarutoState, seat: Seat, cards: &[String]) {
    for c in cards {
        relocate(s, c, seat, Zone::Hand, seat, Zone::Chakra);
    }
}

/// Moves `card` from `from` to `to`; if it is not in `from`, from wherever it is.
fn relocate(s: &mut NarutoState, card: &str, from_seat: Seat, from: Zone, to_seat: Seat, to: Zone) {
    let was_there = s.players.get_mut(from_seat).is_some_and(|p| p.take(from, card));
    if !was_there {
        remove_anywhere(s, card);
    }
    leave_play(s, card, to);
    if let Some(p) = s.players.get_mut(to_seat) {
        match to {
            Zone::Deck => {
                p.put(Zone::Deck, card);
                s.ledger.deck_put_top(&deck_name(to_seat), card);
            }
            Zone::DeckBottom => {
                p.put(Zone::Deck, card);
                s.ledger.deck_put_bottom(&deck_name(to_seat), card);
            }
            Zone::DeckSearch => {
                p.put(Zone::Deck, card);
                s.ledger.deck_order_lost(&deck_name(to_seat));
            }
            _ => p.put(to, card),
        }
    }
}

/// Removes a card from every zone that holds it, and (rules version 5) from the chain's wait
/// for chakra: an effect that moves a played mission or jutsu elsewhere settles where it goes.
fn remove_anywhere(s: &mut NarutoState, card: &str) {
    for p in &mut s.players {
        for z in Zone::HELD {
            while p.take(z, card) {}
        }
    }
    s.played.retain(|p| p.card != card);
}

/// A ninja leaving play loses its injury and modifiers (they belong to the card in play).
fn leave_play(s: &mut NarutoState, card: &str, to: Zone) {
    if !matches!(to, Zone::Village | Zone::Battlefield) {
        s.injured.remove(card);
        s.modifiers.retain(|m| m.target != card);
    }
}

/// A defeated ninja goes to its owner's discard (NAR-DMG-3).
fn defeat(s: &mut NarutoState, ninja: &str) {
    remove_anywhere(s, ninja);
    leave_play(s, ninja, Zone::Discard);
    let owner = super::config::parse_instance(ninja).map(|(seat, _)| seat);
    if let Some(p) = owner.and_then(|o| s.players.get_mut(o)) {
        p.put(Zone::Discard, ninja);
    }
}
