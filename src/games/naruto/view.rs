//! What each viewer may see: the board as a [`BoardView`] and one-line event descriptions.
//!
//! Hidden information (NAR-OPEN-23 settled here, digest §1.22 "Hidden information"):
//! - hand: its owner and judges see it; everyone else sees the count;
//! - deck: everyone sees only the count (its order is unknown even to the log);
//! - battle rewards and removed-from-game cards: face down, so players (the owner included) and
//!   spectators see only the count; judges see what the log holds;
//! - chakra is public: hand-cost payments must be shown to check their elements (NAR-COST-2),
//!   played missions and jutsu go there face up, and Ambush ninja come back out of it;
//! - village, battlefield (teams, leaders, power), discard and turn markers are public.
//!
//! A card the log holds only as a seal is [`CardView::Hidden`] for everyone, judges included.

use super::catalog::CardType;
use super::events::{BlockingTeam, CardRef, DeployFrom, NarutoEvent, SentTeam, Zone, ZoneRef};
use super::state::{Held, NarutoState, PlayerState};
use crate::game::commit::Commitment;
use crate::game::view::{AreaLayout, AreaStyle, CardView, GroupView, SeatView, TableLayout, ZoneView};
use crate::game::{BoardView, Seat, Viewer, Visibility};

/// Who may see the identities of cards in `seat`'s `zone`: the table of the module doc, as data.
pub fn zone_visibility(seat: Seat, zone: Zone) -> Visibility {
    match zone {
        Zone::Chakra | Zone::Village | Zone::Battlefield | Zone::Discard => Visibility::Public,
        Zone::Hand => Visibility::Owner(seat),
        Zone::Rewards | Zone::Removed => Visibility::Judge,
        Zone::Deck | Zone::DeckBottom | Zone::DeckSearch => Visibility::Nobody,
    }
}

/// Whether `viewer` may see the identities of cards in `seat`'s `zone`.
pub fn can_see(viewer: Viewer, seat: Seat, zone: Zone) -> bool {
    zone_visibility(seat, zone).sees(viewer)
}

fn known(s: &NarutoState, instance: &str, statuses: Vec<String>) -> CardView {
    CardView::known(instance, s.def(instance), statuses)
}

fn ninja_statuses(s: &NarutoState, c: &str) -> Vec<String> {
    let mut out = Vec::new();
    let Some(def) = s.def(c) else { return out };
    if def.kind == CardType::Ninja {
        out.push(if s.injured.contains(c) { "injured" } else { "healthy" }.to_string());
    }
    if def.has_ambush() {
        out.push("ambush".to_string());
    }
    if def.permanent {
        out.push("permanent".to_string());
    }
    for m in s.modifiers.iter().filter(|m| m.target == c) {
        out.push(format!("{:?} {:+}", m.stat, m.delta).to_lowercase());
    }
    out
}

fn held_zone(s: &NarutoState, viewer: Viewer, seat: Seat, zone: Zone, cards: &[Held]) -> ZoneView {
    let visible = can_see(viewer, seat, zone);
    let cards = cards
        .iter()
        .map(|h| match h {
            Held::Known(c) if visible => known(s, c, Vec::new()),
            _ => CardView::Hidden,
        })
        .collect::<Vec<_>>();
    ZoneView { zone: zone.name().to_string(), count: cards.len(), cards, groups: Vec::new() }
}

fn plain_zone(s: &NarutoState, zone: Zone, cards: &[String], groups: Vec<GroupView>) -> ZoneView {
    ZoneView {
        zone: zone.name().to_string(),
        count: cards.len(),
        cards: cards.iter().map(|c| known(s, c, ninja_statuses(s, c))).collect(),
        groups,
    }
}

fn team_group(
    s: &NarutoState,
    seat: Seat,
    label: String,
    leader: &str,
    supports: &[String],
    facts: Vec<String>,
) -> GroupView {
    let mut cards = vec![known(s, leader, [vec!["leader".to_string()], ninja_statuses(s, leader)].concat())];
    cards.extend(supports.iter().map(|c| known(s, c, [vec!["support".to_string()], ninja_statuses(s, c)].concat())));
    let mut facts = facts;
    facts.insert(0, format!("power {}", super::rules::team_power(s, seat, leader, supports, false)));
    GroupView { label, cards, facts }
}

/// The board as `viewer` may see it.
pub fn view(s: &NarutoState, viewer: Viewer) -> BoardView {
    let seats = s.players.enumerate().map(|(seat, p)| seat_view(s, viewer, seat, p)).collect();
    // The chain's links, then (rules version 5) the missions and jutsu whose chain resolved and
    // that wait to go to chakra, or that the table left out of it: in no zone, shown where they
    // were last.
    let mut cards: Vec<CardView> =
        s.chain.iter().map(|l| known(s, &l.source, vec![format!("{:?}", l.kind).to_lowercase()])).collect();
    for p in s.played.iter().filter(|p| p.resolved) {
        let status = if p.left_out { "left out of chakra" } else { "resolved, to chakra" };
        cards.push(known(s, &p.card, vec![format!("{:?}", p.kind).to_lowercase(), status.to_string()]));
    }
    let chain = ZoneView { zone: "chain".to_string(), count: cards.len(), cards, groups: Vec::new() };
    let mut facts = vec![("step".to_string(), s.step.name().to_string())];
    if let Some(first) = s.first {
        facts.push(("starting player".to_string(), s.name(first)));
    }
    if s.policies.turn_marker == super::config::TurnMarkerPolicy::Shared {
        facts.push(("shared turn marker".to_string(), s.shared_marker.to_string()));
    }
    BoardView::of::<super::Naruto>(s, viewer, seats, vec![chain], facts, layout())
}

/// One seat's counters and zones, in the order the board draws them.
fn seat_view(s: &NarutoState, viewer: Viewer, seat: Seat, p: &PlayerState) -> SeatView {
    let mut village = plain_zone(s, Zone::Village, &p.village, village_groups(s, seat));
    village.settle_groups();
    let mut battlefield = plain_zone(s, Zone::Battlefield, &p.battlefield, battle_groups(s, seat));
    battlefield.settle_groups();
    let zones = vec![
        held_zone(s, viewer, seat, Zone::Hand, &p.hand),
        ZoneView { zone: "deck".to_string(), count: p.deck_count, cards: Vec::new(), groups: Vec::new() },
        plain_zone(s, Zone::Chakra, &p.chakra, Vec::new()),
        village,
        battlefield,
        plain_zone(s, Zone::Discard, &p.discard, Vec::new()),
        held_zone(s, viewer, seat, Zone::Rewards, &p.rewards),
        held_zone(s, viewer, seat, Zone::Removed, &p.removed),
    ];
    SeatView { seat, name: s.name(seat), counters: seat_counters(s, seat, p), zones }
}

fn seat_counters(s: &NarutoState, seat: Seat, p: &PlayerState) -> Vec<(String, String)> {
    let mut counters = vec![
        ("turn marker".to_string(), s.marker_for(seat).to_string()),
        ("deck".to_string(), p.deck_count.to_string()),
        ("hand".to_string(), p.hand.len().to_string()),
        ("rewards".to_string(), p.rewards.len().to_string()),
        ("mulligans".to_string(), p.mulligans.to_string()),
    ];
    // A finished game has no attacker or blocker left: its last battle is over with it.
    let over = <super::Naruto as crate::game::Game>::outcome(s).is_some();
    if !over && s.attacker == Some(seat) {
        counters.push(("role".to_string(), "attacker".to_string()));
    } else if !over && s.attacker.is_some() {
        counters.push(("role".to_string(), "blocker".to_string()));
    }
    counters
}

/// The teams organized in `seat`'s village.
fn village_groups(s: &NarutoState, seat: Seat) -> Vec<GroupView> {
    s.current_teams(seat)
        .iter()
        .enumerate()
        .map(|(n, t)| GroupView {
            label: format!("team {}", n + 1),
            cards: t.iter().map(|c| known(s, c, ninja_statuses(s, c))).collect(),
            facts: Vec::new(),
        })
        .collect()
}

/// `seat`'s teams in battle: its attacking teams when it attacks, its blocking teams otherwise.
fn battle_groups(s: &NarutoState, seat: Seat) -> Vec<GroupView> {
    if s.attacker == Some(seat) {
        s.battle
            .attacks
            .iter()
            .enumerate()
            .map(|(n, t)| {
                let status = if s.battle.is_blocked(&t.leader) { "fighting" } else { "non-fighting" };
                let label = format!("attacking team {}", n + 1);
                team_group(s, seat, label, &t.leader, &t.supports, vec![status.to_string()])
            })
            .collect()
    } else {
        s.battle
            .blocks
            .iter()
            .enumerate()
            .map(|(n, t)| {
                let facts = vec![format!("blocks the team led by {}", t.blocks)];
                team_group(s, seat, format!("blocking team {}", n + 1), &t.leader, &t.supports, facts)
            })
            .collect()
    }
}

/// `N008 Iruka (p0-3)`.
pub fn label(s: &NarutoState, instance: &str) -> String {
    crate::game::catalog::instance_label(s.def(instance), instance)
}

fn labels(s: &NarutoState, cards: &[String]) -> String {
    if cards.is_empty() {
        return "nothing".to_string();
    }
    cards.iter().map(|c| label(s, c)).collect::<Vec<_>>().join(", ")
}

fn count(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// Cards entering a hidden zone: named when `viewer` may see them there.
fn refs(s: &NarutoState, cards: &[CardRef], visible: bool) -> String {
    if !visible {
        return count(cards.len(), "card");
    }
    let named: Vec<String> = cards
        .iter()
        .map(|c| match c {
            CardRef::Open(c) => label(s, c),
            CardRef::Sealed(_) => "a sealed card".to_string(),
        })
        .collect();
    if named.is_empty() {
        "no cards".to_string()
    } else {
        named.join(", ")
    }
}

fn zone_ref(s: &NarutoState, z: &ZoneRef) -> String {
    format!("{}'s {}", s.name(z.seat), z.zone.name())
}

/// One line describing `event` (about to be applied to `s`) as `viewer` may see it.
pub fn describe(s: &NarutoState, event: &NarutoEvent, viewer: Viewer) -> String {
    use NarutoEvent::*;
    let n = |seat: &Seat| s.name(*seat);
    let l = |c: &String| label(s, c);
    match event {
        TurnMarkerSet { seat: Some(seat), value } => format!("{}'s turn marker was set to {value}", n(seat)),
        TurnMarkerSet { seat: None, value } => format!("the shared turn marker was set to {value}"),
        SeedCommitted { key, commitment } => format!("shuffle seed {key:?} was committed ({commitment})"),
        DeckShuffled { deck, by, seed } => describe_shuffle(s, *deck, *by, seed.as_deref()),
        FirstPlayerLotDrawn { lot, winner } => describe_lot(s, lot, *winner),
        FirstPlayerChosen { chooser, first } => format!("{} chose {} to go first", n(chooser), n(first)),
        OpeningHandDrawn { seat, cards } => {
            format!("{} drew a hand: {}", n(seat), refs(s, cards, can_see(viewer, *seat, Zone::Hand)))
        }
        MulliganTaken { seat, attempt } => {
            format!("{} took mulligan {attempt}, returning the hand to the deck", n(seat))
        }
        HandKept { seat } => format!("{} kept their hand", n(seat)),
        TurnStarted { turn, attacker } => format!("turn {turn} started; {} attacks", n(attacker)),
        CardDrawn { seat, card } => describe_draw(s, *seat, card, viewer),
        StepAdvanced { to } => format!("the game moved to step {}", to.name()),
        NinjaDeployed { seat, card, from, hand_cost_paid } => describe_deploy(s, *seat, card, from, hand_cost_paid),
        MissionPlayed { seat, card, counter, hand_cost_paid, .. } => {
            describe_mission(s, *seat, card, *counter, hand_cost_paid)
        }
        ChainLinkAdded { seat, source, description, .. } => {
            format!("{} added {} to the chain: {description}", n(seat), l(source))
        }
        ChainResolved {} => "the chain resolved".to_string(),
        ChakraCharged { seat, cards } => format!("{} charged chakra with {}", n(seat), labels(s, cards)),
        ClientDeployed { seat, card, hand_cost_paid, .. } => {
            format!("{} deployed client {} paying {}", n(seat), l(card), labels(s, hand_cost_paid))
        }
        TeamsOrganized { seat, teams } => describe_teams(s, *seat, teams),
        AttackingTeamsSent { seat, teams } => describe_attacks(s, *seat, teams),
        BlockingTeamsSent { seat, teams } => describe_blocks(s, *seat, teams),
        JutsuUsed { seat, card, ninja, .. } => format!("{}'s {} used jutsu {}", n(seat), l(ninja), l(card)),
        JutsuExchangeEnded {} => "the jutsu exchange ended".to_string(),
        BattleRewardTaken { seat, team, cards } => format!(
            "{}'s team led by {} took battle rewards: {}",
            n(seat),
            l(team),
            refs(s, cards, can_see(viewer, *seat, Zone::Rewards))
        ),
        FightResolved { attacker, blocker, attack_power, block_power, result, injured, defeated, .. } => format!(
            "fight {} ({attack_power}) vs {} ({block_power}): {}; injured {}; defeated {}",
            l(attacker),
            l(blocker),
            format!("{result:?}").to_lowercase(),
            labels(s, injured),
            labels(s, defeated)
        ),
        TeamsReturned {} => "the teams returned to their villages".to_string(),
        WinnerDetermined { winner, reason } => format!("{} won the game ({reason:?})", n(winner)),
        HandCheckDiscard { seat, cards } => format!("{} discarded {} at the hand check", n(seat), labels(s, cards)),
        TurnMarkerAdvanced { seat: Some(seat), value } => format!("{}'s turn marker moved to {value}", n(seat)),
        TurnMarkerAdvanced { seat: None, value } => format!("the shared turn marker moved to {value}"),
        CoinFlipped { seat, result, purpose } => format!("{} flipped a coin for {purpose}: {result:?}", n(seat)),
        CardMoved { card, from, to, cause } => describe_move(s, card, from, to, cause, viewer),
        EffectResolved { source, description } => format!("effect of {}: {description}", l(source)),
        ModifierApplied { target, stat, delta, duration } => {
            format!("{} got {stat:?} {delta:+} ({duration:?})", l(target))
        }
        NinjaInjured { ninja, cause } => format!("{} was injured ({cause})", l(ninja)),
        NinjaDefeated { ninja, cause } => format!("{} was defeated ({cause})", l(ninja)),
        NinjaHealed { ninja, cause } => format!("{} was healed ({cause})", l(ninja)),
        SeedRevealed { key, .. } => format!("shuffle seed {key:?} was revealed"),
        CardRevealed { commitment, instance, .. } => describe_reveal(s, commitment, instance, viewer),
        // A common card reveal is shown as version 1's is: only to those who see where it lies.
        Common(super::events::CommonEvent::CardRevealed { commitment, card, .. }) => {
            describe_reveal(s, commitment, card, viewer)
        }
        Common(c) => crate::game::common::describe(c, viewer, |seat| s.name(seat)),
        MissionMovedToChakra { seat, card } => describe_to_chakra(s, *seat, "mission", card),
        JutsuMovedToChakra { seat, card } => describe_to_chakra(s, *seat, "jutsu", card),
    }
}

/// Rules version 5's move of a resolved chain's mission or jutsu to chakra.
fn describe_to_chakra(s: &NarutoState, seat: Seat, what: &str, card: &str) -> String {
    format!("{}'s {what} {} went to their chakra, its chain resolved", s.name(seat), label(s, card))
}

fn describe_shuffle(s: &NarutoState, deck: Seat, by: Seat, seed: Option<&str>) -> String {
    let how = seed.map_or(String::new(), |k| format!(" with seed {k:?}"));
    format!("{} shuffled {}'s deck{how}", s.name(by), s.name(deck))
}

fn describe_lot(s: &NarutoState, lot: &super::events::Lot, winner: Seat) -> String {
    let how = match lot {
        super::events::Lot::RockPaperScissors { rounds } => {
            format!("rock-paper-scissors ({} round(s))", rounds.len())
        }
        super::events::Lot::CoinToss { caller, call, result } => {
            format!("a coin toss ({} called {call:?}, it came up {result:?})", s.name(*caller)).to_lowercase()
        }
    };
    format!("{} won the lot for the first player by {how}", s.name(winner))
}

fn describe_draw(s: &NarutoState, seat: Seat, card: &CardRef, viewer: Viewer) -> String {
    if can_see(viewer, seat, Zone::Hand) {
        format!("{} drew {}", s.name(seat), refs(s, std::slice::from_ref(card), true))
    } else {
        format!("{} drew a card", s.name(seat))
    }
}

fn describe_deploy(s: &NarutoState, seat: Seat, card: &str, from: &DeployFrom, paid: &[String]) -> String {
    format!("{} deployed {} from {from:?} paying {}", s.name(seat), label(s, card), labels(s, paid))
        .replace("Hand", "hand")
        .replace("Chakra", "chakra")
}

fn describe_mission(s: &NarutoState, seat: Seat, card: &str, counter: bool, paid: &[String]) -> String {
    format!(
        "{} played {}{} paying {}",
        s.name(seat),
        if counter { "counter mission " } else { "mission " },
        label(s, card),
        labels(s, paid)
    )
}

fn describe_teams(s: &NarutoState, seat: Seat, teams: &[Vec<String>]) -> String {
    let t: Vec<String> = teams.iter().map(|t| format!("[{}]", labels(s, t))).collect();
    format!("{} organized {}: {}", s.name(seat), count(teams.len(), "team"), t.join(" "))
}

fn describe_attacks(s: &NarutoState, seat: Seat, teams: &[SentTeam]) -> String {
    let t: Vec<String> = teams.iter().map(|t| format!("led by {}", label(s, &t.leader))).collect();
    if t.is_empty() {
        format!("{} sent no attacking team", s.name(seat))
    } else {
        format!("{} attacked with {}: {}", s.name(seat), count(teams.len(), "team"), t.join("; "))
    }
}

fn describe_blocks(s: &NarutoState, seat: Seat, teams: &[BlockingTeam]) -> String {
    let t: Vec<String> =
        teams.iter().map(|t| format!("{} blocks {}", label(s, &t.leader), label(s, &t.blocks))).collect();
    if t.is_empty() {
        format!("{} blocked nothing", s.name(seat))
    } else {
        format!("{} blocked: {}", s.name(seat), t.join("; "))
    }
}

fn describe_move(s: &NarutoState, card: &str, from: &ZoneRef, to: &ZoneRef, cause: &str, viewer: Viewer) -> String {
    let what = if can_see(viewer, from.seat, from.zone) || can_see(viewer, to.seat, to.zone) {
        label(s, card)
    } else {
        "a card".to_string()
    };
    format!("{what} moved from {} to {} ({cause})", zone_ref(s, from), zone_ref(s, to))
}

/// A sealed card's reveal names it only to a viewer who may see the zone the seal lies in.
fn describe_reveal(s: &NarutoState, commitment: &Commitment, instance: &str, viewer: Viewer) -> String {
    let visible = s.players.iter().enumerate().any(|(i, p)| {
        let seat = Seat::try_from(i).unwrap_or(Seat::MAX);
        let sealed = Held::Sealed(*commitment);
        (p.hand.contains(&sealed) && can_see(viewer, seat, Zone::Hand))
            || (p.rewards.contains(&sealed) && can_see(viewer, seat, Zone::Rewards))
            || (p.removed.contains(&sealed) && can_see(viewer, seat, Zone::Removed))
    });
    if visible {
        format!("sealed card {commitment} was revealed as {}", label(s, instance))
    } else {
        "a sealed card was revealed to the record".to_string()
    }
}

// ---- The table ----

/// Naruto's table, from each player's edge: hand, deck and discard; village, chakra and
/// rewards; the battlefield (teams in the middle, facing the opponent's); the chain between.
pub fn layout() -> TableLayout {
    use AreaStyle::{Pile, Row};
    TableLayout {
        columns: 6,
        areas: vec![
            AreaLayout::seat("hand", 1, 1, 1, 4, Row),
            AreaLayout::seat("deck", 1, 5, 1, 1, Pile),
            AreaLayout::seat("discard", 1, 6, 1, 1, Pile),
            AreaLayout::seat("village", 2, 1, 1, 4, Row),
            AreaLayout::seat("chakra", 2, 5, 1, 1, Pile),
            AreaLayout::seat("rewards", 2, 6, 1, 1, Pile),
            AreaLayout::seat("battlefield", 3, 1, 1, 5, Row),
            AreaLayout::seat("removed", 3, 6, 1, 1, Pile),
            AreaLayout::shared("chain", 1, 6, Row),
        ],
    }
}
