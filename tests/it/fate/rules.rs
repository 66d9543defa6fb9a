//! Given/when/then rule tests: every case folds `given` from a fixture setup, validates `when`
//! and compares the violated rule IDs with `then`, through the one helper [`run`]. Each case
//! declares the rule IDs it covers; `every_enforced_rule_has_a_case` checks the coverage table.
//!
//! `given` is built by [`G`], which validates and applies each event as it goes, so a case's
//! setup is itself legal by construction.

use kifu::game::commit::{chain_round_seed, die_roll, hash_chain, seal, Commitment};
use kifu::game::common::CommonEvent;
use kifu::game::Game;
use kifu::games::fate::catalog::{CardDef, CardType, Catalog, EffectDef, EffectKind};
use kifu::games::fate::events::{
    AttackType, CardRef, CardState, DefeatReason, Payment, PranaChange, PranaLoss, ServantUnveiled, SpellUse, Stat,
    Unveiled,
};
use kifu::games::fate::rules::{seat_labels, servant_candidates};
use kifu::games::fate::state::Pose;
use kifu::games::fate::{FateConfig, FateEvent as E, FateState, FateV5 as Fate};

use crate::game_support::{cases, check_enforced_rules_have_cases};

// ---------------------------------------------------------------------------------------------
// Fixture: a test catalog and decks whose first cards are known.
// ---------------------------------------------------------------------------------------------

fn eff(name: &str, kind: EffectKind, cost: &[&str]) -> EffectDef {
    EffectDef { name: name.into(), kind, cost: cost.iter().map(|c| c.to_string()).collect() }
}

fn card(id: &str, kind: CardType, stats: [i32; 4], keywords: &[&str], effects: Vec<EffectDef>) -> CardDef {
    CardDef {
        id: id.into(),
        name: format!("{id} (invented)"),
        kind,
        physical_attack: stats[0],
        physical_defense: stats[1],
        magical_attack: stats[2],
        magical_defense: stats[3],
        keywords: keywords.iter().map(|k| k.to_string()).collect(),
        effects,
        text: String::new(),
        invented: true,
    }
}

/// H: effects 0 T, 1 D1,2+R1, 2 [Constant], 3 X, 4 E1, 5 R1. HP: [Preemptive Strike]. S: effect 0 T.
fn catalog() -> Catalog {
    use EffectKind::*;
    Catalog::from_cards(vec![
        card(
            "H",
            CardType::HeroicSpirit,
            [3, 2, 1, 1],
            &[],
            vec![
                eff("Tap", Activated, &["T"]),
                eff("Substitute Battle", Activated, &["D1,2", "R1"]),
                eff("Ward", Constant, &[]),
                eff("Unknown", Activated, &["X"]),
                eff("Discard", Activated, &["E1"]),
                eff("Rest", Activated, &["R1"]),
            ],
        ),
        card("HP", CardType::HeroicSpirit, [2, 2, 2, 2], &["preemptive-strike"], vec![]),
        card("C", CardType::Class, [1, 1, 1, 1], &[], vec![]),
        card("S", CardType::SecretSign, [0; 4], &[], vec![eff("Sign", Activated, &["T"])]),
    ])
    .unwrap_or_default()
}

/// Deck index → card: 0 H, 1 C, 2 HP, 3.. S (20 cards).
fn deck() -> Vec<String> {
    let mut d: Vec<String> = ["H", "C", "HP"].iter().map(|s| s.to_string()).collect();
    d.extend(std::iter::repeat_n("S".to_string(), 17));
    d
}

fn config(players: usize, policies: &[(&str, &str)]) -> FateConfig {
    let names = ["Ayaka", "Bazett", "Caren", "Dan"].iter().take(players).map(|s| s.to_string()).collect();
    let mut c = FateConfig::new(names, vec![deck(); players], &catalog()).unwrap_or_else(|v| panic!("fixture: {v:?}"));
    for (k, v) in policies {
        c.set_policy(k, v).unwrap_or_else(|e| panic!("{e}"));
    }
    c
}

fn p(seat: u8, i: usize) -> String {
    format!("p{seat}-{i}")
}

/// Builds a legal `given`: validates and applies each event as it is added.
struct G {
    config: FateConfig,
    s: FateState,
    events: Vec<E>,
}

impl G {
    fn new(players: usize, policies: &[(&str, &str)]) -> G {
        G::with_decks(vec![deck(); players], policies)
    }

    /// A game of one Master per deck of `decks`.
    fn with_decks(decks: Vec<Vec<String>>, policies: &[(&str, &str)]) -> G {
        let mut config = config(decks.len(), policies);
        let FateConfig::V1(v) = &mut config;
        v.decks = decks;
        let s = Fate::setup(&config).unwrap_or_else(|v| panic!("fixture setup: {v:?}"));
        G { config, s, events: Vec::new() }
    }

    /// Adds `e`, then the steps it made due, as kifu records them (rules version 4's
    /// [`FateState::owed_steps`]).
    fn push(self, e: E) -> G {
        let mut g = self.push_only(e);
        for _ in 0..8 {
            let Some(step) = g.s.owed_steps().into_iter().next() else { break };
            g = g.push_only(step);
        }
        g
    }

    /// Adds `e` alone, leaving the steps it made due unrecorded.
    fn push_only(mut self, e: E) -> G {
        let v = Fate::validate(&self.s, &e);
        assert!(v.is_empty(), "given event {} {e:?} is itself illegal: {v:?}", self.events.len());
        Fate::ledger_mut(&mut self.s).at(self.events.len() as u64);
        self.s = Fate::apply(self.s, &e);
        self.events.push(e);
        self
    }

    /// Every Master sets H + C (seat 2: HP + C) and is dealt deck cards 3..7; no Active Master yet.
    fn dealt(self) -> G {
        self.dealt_as(|seat, i| CardRef::Open(p(seat, i)))
    }

    /// `dealt`, each dealt card as `card(seat, i)` gives it (open, or sealed at a digital table).
    fn dealt_as(mut self, card: impl Fn(u8, usize) -> CardRef) -> G {
        for seat in 0..self.s.masters.len() as u8 {
            let hs = if seat == 2 { p(seat, 2) } else { p(seat, 0) };
            self = self
                .push(E::ServantSet { seat, heroic_spirit: CardRef::Open(hs), class: CardRef::Open(p(seat, 1)) })
                .push(E::CardsDealt { seat, cards: (3..7).map(|i| card(seat, i)).collect() });
        }
        self
    }

    /// The deal, then seat 0 as the first Active Master (by lot, the default policy).
    fn setup(self) -> G {
        self.dealt().lot(0).push(E::FirstActiveMasterChosen { seat: 0 })
    }

    /// A six-sided die rolled by `seat` at a physical table.
    fn roll(self, seat: u8, value: u32) -> G {
        self.push(E::Common(CommonEvent::DieRolled { seat: Some(seat), sides: 6, value, seed: None }))
    }

    /// The lot for the first Active Master falls on `seat`.
    fn lot(self, seat: u8) -> G {
        let living = self.s.living();
        let picked = living.iter().position(|x| *x == seat).unwrap() as u32;
        self.push(E::Common(CommonEvent::RandomPicked { seat: None, among: seat_labels(&living), picked, seed: None }))
    }

    /// `seat`'s encounter picks `target`'s Servant at random.
    fn servant_lot(self, seat: u8, target: u8) -> G {
        let among = servant_candidates(&self.s, seat);
        let picked = among.iter().position(|x| *x == target).unwrap() as u32;
        self.push(E::Common(CommonEvent::RandomPicked {
            seat: Some(seat),
            among: seat_labels(&among),
            picked,
            seed: None,
        }))
    }

    fn top(&self, seat: u8) -> CardRef {
        let m = &self.s.masters[usize::from(seat)];
        CardRef::Open(m.deck.iter().next().cloned().unwrap_or_default())
    }

    /// Turn start, stand and draw: the turn is in its ritual step.
    fn start(self, seat: u8) -> G {
        let card = Some(self.top(seat));
        self.push(E::TurnStarted { seat }).stand(seat).push(E::CardDrawn { seat, card })
    }

    /// The stand step, naming `seat`'s Resting cards (FATE-TURN-1).
    fn stand(self, seat: u8) -> G {
        let e = stood(&self.s, seat);
        self.push(e)
    }

    fn reveal(self, seat: u8) -> G {
        let m = &self.s.masters[usize::from(seat)];
        let drawn: Vec<CardRef> = m.deck.iter().take(2).map(|c| CardRef::Open(c.clone())).collect();
        let hs = if seat == 2 { p(seat, 2) } else { p(seat, 0) };
        let cards = vec![Unveiled { card: hs, salt: None }, Unveiled { card: p(seat, 1), salt: None }];
        self.push(E::ServantRevealed { seat, cards, drawn })
    }

    fn sign(self, seat: u8) -> G {
        let card = self.sign_in_hand(seat);
        self.push(E::SecretSignPlaced { seat, card })
    }

    fn sign_in_hand(&self, seat: u8) -> String {
        self.s.masters[usize::from(seat)].hand.iter().filter_map(|h| h.known()).next().unwrap_or_default().to_string()
    }

    /// Discards to the hand limit if needed (known cards, first held first), then ends the turn.
    fn end(self, seat: u8) -> G {
        let held = &self.s.masters[usize::from(seat)].hand;
        let hand: Vec<String> = held.iter().filter_map(|h| h.known().map(str::to_string)).collect();
        let n = held.len();
        let g = if n >= 5 { self.push(E::HandDiscarded { seat, cards: hand[..n - 4].to_vec() }) } else { self };
        g.push(E::TurnEnded { seat })
    }

    /// A turn without ritual or battle.
    fn quiet(self, seat: u8) -> G {
        self.start(seat).push(E::RitualStepEnded { seat }).push(E::BattleStepSkipped { seat }).end(seat)
    }

    /// A turn revealing the Servant; the encounter roll is 2 (no battle).
    fn reveal_turn(self, seat: u8) -> G {
        self.start(seat)
            .reveal(seat)
            .push(E::RitualStepEnded { seat })
            .roll(seat, 2)
            .push(E::EncounterRolled { seat })
            .end(seat)
    }

    fn handover(self, from: u8, to: u8) -> G {
        self.push(E::ActiveMasterHandedOver { from, to })
    }

    /// Seats 0, 1 and 2 reveal their Servants in turns 1–3 (reading R2), the status passes to
    /// seat 1, and seat 0 starts turn 4 and reaches the declare step.
    fn revealed_declare(self) -> G {
        self.reveal_turn(0).reveal_turn(1).reveal_turn(2).handover(0, 1).start(0).push(E::RitualStepEnded { seat: 0 })
    }

    /// `revealed_declare`, then seat 0 assaults `target`: the battle is in its battle process.
    fn battle(self, target: u8) -> G {
        self.revealed_declare().push(E::AssaultDeclared { seat: 0, target })
    }

    /// Seat 0 battles `target` with the given attack types, up to the wounding process.
    fn typed(self, target: u8, attack: AttackType, response: Option<AttackType>) -> G {
        let g = self.battle(target).push(E::BattleProcessEnded).push(E::AttackTypeChosen { seat: 0, attack });
        match response {
            Some(r) => g.push(E::AttackTypeChosen { seat: target, attack: r }),
            None => g,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The one helper. The cases run under the newest rules version ([`Fate`], version 5).
// ---------------------------------------------------------------------------------------------

type Case = crate::game_support::Case<Fate>;

fn case(g: G, when: E, then: &[&'static str]) -> Case {
    Case::event(g.config, g.events, when, then)
}

fn setup_case(players: usize, decks: Vec<Vec<String>>, policies: &[(&str, &str)], then: &[&'static str]) -> Case {
    let mut c = config(players, policies);
    let FateConfig::V1(v) = &mut c;
    v.decks = decks;
    Case::setup(c, then)
}

fn g3() -> G {
    G::new(3, &[])
}

/// `seat`'s stand step as due now: its Servant if Resting, and its Resting Secret Signs.
fn stood(s: &FateState, seat: u8) -> E {
    s.stand_step(seat)
}

/// A stand step naming what the case says.
fn stands(seat: u8, servant: bool, signs: &[String]) -> E {
    E::RestingCardsStood { seat, servant, signs: signs.to_vec() }
}

fn act(seat: u8, card: String, effect: u8, paid: Vec<Payment>, succeeded: bool) -> E {
    E::EffectActivated { seat, card, effect, paid, succeeded }
}

fn cs(seat: u8, spell: SpellUse) -> E {
    E::CommandSpellUsed { seat, spell }
}

fn danger(seat: u8) -> E {
    E::CardStateChanged { card: p(seat, 0), state: CardState::Danger, note: "test".into() }
}

fn option_four(seat: u8, effect: u8) -> E {
    cs(seat, SpellUse::EffectUsedFree { card: p(seat, 0), effect })
}

/// Four Masters; seat 3 spent its three Command Spells and is defeated (FATE-WIN-1), its face-down
/// Servant still on its field. The game goes on (`game_end` last-standing, the default).
fn seat_3_defeated() -> G {
    G::new(4, &[])
        .setup()
        .push(cs(3, SpellUse::PranaRestored))
        .push(cs(3, SpellUse::PranaRestored))
        .push(cs(3, SpellUse::PranaRestored))
}

fn rest(seat: u8) -> E {
    E::CardStateChanged { card: p(seat, 0), state: CardState::Resting, note: "test".into() }
}

/// `seat`'s face-down Servant turned up (seat 2's Heroic Spirit is HP, deck card 2).
fn unveiled(seat: u8) -> ServantUnveiled {
    let hs = if seat == 2 { p(seat, 2) } else { p(seat, 0) };
    ServantUnveiled { seat, cards: vec![Unveiled { card: hs, salt: None }, Unveiled { card: p(seat, 1), salt: None }] }
}

/// Seat 0 places a Secret Sign and rolls 1 at the encounter: a battle against a random Servant.
fn encounter(target: u8) -> G {
    g3().setup()
        .start(0)
        .sign(0)
        .push(E::RitualStepEnded { seat: 0 })
        .roll(0, 1)
        .push(E::EncounterRolled { seat: 0 })
        .servant_lot(0, target)
}

/// Seat 0 assaults `target` and chooses a physical attack; `prep` comes before the assault.
fn responding(prep: E, target: u8) -> G {
    g3().setup()
        .revealed_declare()
        .push(prep)
        .push(E::AssaultDeclared { seat: 0, target })
        .push(E::BattleProcessEnded)
        .push(E::AttackTypeChosen { seat: 0, attack: AttackType::Physical })
}

fn salt(n: u8) -> Commitment {
    Commitment([n; 32])
}

/// Three Masters; seat 0 sets its Servant sealed, naming `hs` and `class` (salts 1 and 2), the
/// others theirs openly; everyone is dealt, seat 0 is the Active Master and in its ritual step.
fn sealed_servant(hs: &str, class: &str) -> G {
    let sealed = E::ServantSet {
        seat: 0,
        heroic_spirit: CardRef::Sealed(seal(hs, &salt(1))),
        class: CardRef::Sealed(seal(class, &salt(2))),
    };
    let mut g =
        g3().push(sealed).push(E::CardsDealt { seat: 0, cards: (3..7).map(|i| CardRef::Open(p(0, i))).collect() });
    for seat in 1..3u8 {
        let hs = if seat == 2 { p(seat, 2) } else { p(seat, 0) };
        g = g
            .push(E::ServantSet { seat, heroic_spirit: CardRef::Open(hs), class: CardRef::Open(p(seat, 1)) })
            .push(E::CardsDealt { seat, cards: (3..7).map(|i| CardRef::Open(p(seat, i))).collect() });
    }
    // The draw names a card the seal does not hide (the deck's set still holds the sealed ones).
    let g = g.lot(0).push(E::FirstActiveMasterChosen { seat: 0 });
    g.push(E::TurnStarted { seat: 0 }).stand(0).push(E::CardDrawn { seat: 0, card: Some(CardRef::Open(p(0, 7))) })
}

/// Seat 0 reveals its sealed Servant as `hs` and `class` (the salts it was sealed with).
fn reveal_sealed(g: &G, hs: &str, class: &str) -> E {
    let unsealed = g.s.masters[0].deck.iter().filter(|c| ![hs, class].contains(&c.as_str()));
    let drawn: Vec<CardRef> = unsealed.take(2).map(|c| CardRef::Open(c.clone())).collect();
    let cards =
        vec![Unveiled { card: hs.into(), salt: Some(salt(1)) }, Unveiled { card: class.into(), salt: Some(salt(2)) }];
    E::ServantRevealed { seat: 0, cards, drawn }
}

/// A Servant sealed as `hs` + `class`, revealed in the first ritual step (found late, if at all).
fn servant_revealed_as(hs: &str, class: &str, then: &[&'static str]) -> Case {
    let g = sealed_servant(hs, class);
    let when = reveal_sealed(&g, hs, class);
    case(g, when, then)
}

/// Seat 0 draws `card` sealed (salt 3) at turn 1 and shows it from its hand at once.
fn sealed_draw_shown(card: &str, then: &[&'static str]) -> Case {
    let g = g3().setup().push(E::TurnStarted { seat: 0 }).stand(0);
    let commitment = seal(card, &salt(3));
    let g = g.push(E::CardDrawn { seat: 0, card: Some(CardRef::Sealed(commitment)) });
    case(g, E::CardRevealed { seat: 0, commitment, card: card.into(), salt: salt(3) }, then)
}

/// Seat 0 wins a battle against seat 1 and takes seat 1's first card (p1-6, known: its turn's
/// hand limit discarded p1-3 to p1-5; the loser chooses it, so no pick comes first) sealed as
/// `card`, ends the battle and shows the card from its hand: the reveal is legal; a seal holding another card is found.
fn taken_sealed_then_shown(card: &str, then: &[&'static str]) -> Case {
    let commitment = seal(card, &salt(5));
    let taken = E::CardTakenFromHand { winner: 0, loser: 1, index: 0, card: CardRef::Sealed(commitment) };
    let g = G::new(3, &[("hand_pick", "loser-chooses")])
        .setup()
        .typed(1, AttackType::Magical, Some(AttackType::Magical))
        .push(E::DamageDealt { to_attacker: 0, to_responder: 1 })
        .push(taken)
        .push(E::BattleEnded);
    case(g, E::CardRevealed { seat: 0, commitment, card: card.into(), salt: salt(5) }, then)
}

/// Seat 0 draws deck card 12 sealed at turn 1 and shows it from its hand: it is in the hand now.
fn shown_then() -> G {
    let g = g3().setup().push(E::TurnStarted { seat: 0 }).stand(0);
    let commitment = seal(&p(0, 12), &salt(3));
    let g = g.push(E::CardDrawn { seat: 0, card: Some(CardRef::Sealed(commitment)) });
    g.push(E::CardRevealed { seat: 0, commitment, card: p(0, 12), salt: salt(3) })
}

/// Seat 0 wins a battle against seat 1, whose first dealt card p1-3 was dealt sealed (salt 7, a
/// digital table) and is still the first card it holds (its turn's hand limit discarded p1-4 and
/// p1-5; the loser chooses, so no pick comes first), and takes that card as `card` says.
fn sealed_hand_card_taken(card: impl Fn(Commitment) -> CardRef, then: &[&'static str]) -> Case {
    let held = seal(&p(1, 3), &salt(7));
    let deal = move |seat: u8, i: usize| {
        if (seat, i) == (1, 3) {
            CardRef::Sealed(held)
        } else {
            CardRef::Open(p(seat, i))
        }
    };
    let g = G::new(3, &[("hand_pick", "loser-chooses")])
        .dealt_as(deal)
        .lot(0)
        .push(E::FirstActiveMasterChosen { seat: 0 })
        .typed(1, AttackType::Magical, Some(AttackType::Magical))
        .push(E::DamageDealt { to_attacker: 0, to_responder: 1 });
    case(g, E::CardTakenFromHand { winner: 0, loser: 1, index: 0, card: card(held) }, then)
}

/// Seat 0's Servant reveal, drawing deck cards `drawn` openly.
fn drawn_at_reveal(drawn: &[usize]) -> E {
    let cards = vec![Unveiled { card: p(0, 0), salt: None }, Unveiled { card: p(0, 1), salt: None }];
    E::ServantRevealed { seat: 0, cards, drawn: drawn.iter().map(|i| CardRef::Open(p(0, *i))).collect() }
}

/// Seat 0's Servant set with an open Heroic Spirit and a sealed Class card, still face down.
fn half_sealed() -> G {
    let set = E::ServantSet {
        seat: 0,
        heroic_spirit: CardRef::Open(p(0, 0)),
        class: CardRef::Sealed(seal(&p(0, 1), &salt(2))),
    };
    g3().push(set)
}

fn together(changes: &[(u8, i32)]) -> E {
    let changes = changes.iter().map(|&(seat, delta)| PranaChange { seat, delta }).collect();
    E::PranaChangedTogether { changes, note: "test".into() }
}

/// Seat 0 placed a Secret Sign at turn 1, and effects rested it and the Servant; play came round
/// and seat 0's turn 4 is at its stand step. Returns the game and the sign.
fn resting_at_stand() -> (G, String) {
    let g = g3().setup().start(0);
    let sign = g.sign_in_hand(0);
    let rested = E::CardStateChanged { card: sign.clone(), state: CardState::Resting, note: "test".into() };
    let g = g.sign(0).push(rested).push(rest(0)).push(E::RitualStepEnded { seat: 0 }).roll(0, 2);
    let g = g.push(E::EncounterRolled { seat: 0 }).end(0).quiet(1).quiet(2).handover(0, 1);
    (g.push(E::TurnStarted { seat: 0 }), sign)
}

/// Seat 1's Servant was put in Danger, and play came back to seat 0, who handed the status to
/// seat 1: the step turning it Resting is owed and not recorded.
fn handed_to_danger() -> G {
    g3().setup()
        .reveal_turn(0)
        .reveal_turn(1)
        .push(danger(1))
        .reveal_turn(2)
        .push_only(E::ActiveMasterHandedOver { from: 0, to: 1 })
}

/// `players` Masters; those of `out` spent their Command Spells first; then the Active Master
/// (seat 0) spent its third and its defeat is recorded: its status passing on is owed.
fn active_master_defeated(players: usize, out: &[u8]) -> G {
    let mut g = G::new(players, &[]).setup();
    for seat in out {
        g = g.push(cs(*seat, SpellUse::PranaRestored)).push(cs(*seat, SpellUse::PranaRestored));
        g = g.push(cs(*seat, SpellUse::PranaRestored));
    }
    g = g.push(cs(0, SpellUse::PranaRestored)).push(cs(0, SpellUse::PranaRestored));
    let g = g.push_only(cs(0, SpellUse::PranaRestored));
    g.push_only(E::MastersDefeated { seats: vec![0], reason: DefeatReason::CommandSpellsLost })
}

fn loss(seat: u8, amount: u32) -> PranaLoss {
    PranaLoss { seat, amount }
}

/// Seat 0 and seat 1 dealt each other 1 damage (physical both ways): the prana loss is owed.
fn damage_dealt() -> G {
    g3().setup()
        .typed(1, AttackType::Physical, Some(AttackType::Physical))
        .push_only(E::DamageDealt { to_attacker: 1, to_responder: 1 })
}

/// Seat 1's Servant, rested by an effect, responds: both deal 1 damage.
fn resting_responder_wounded() -> G {
    responding(rest(1), 1)
        .push(E::AttackTypeChosen { seat: 1, attack: AttackType::Physical })
        .push_only(E::DamageDealt { to_attacker: 1, to_responder: 1 })
}

/// The owed prana loss of the battle, recorded alone: the wounded Servants' rest is owed.
fn prana_lost(g: G) -> G {
    g.push_only(E::PranaLost { losses: vec![loss(0, 1), loss(1, 1)] })
}

/// Seat 2's prana taken to 0 by an effect, under `policies`: what prana_zero does is owed.
fn prana_gone(policies: &[(&str, &str)]) -> G {
    G::new(3, policies).setup().push_only(E::PranaChanged { seat: 2, delta: -5, note: "test".into() })
}

/// Four Masters; seat 3 spent `n` Command Spells, the last alone (its defeat owed when n = 3).
fn spells_gone(n: usize) -> G {
    let mut g = G::new(4, &[]).setup();
    for _ in 1..n {
        g = g.push(cs(3, SpellUse::PranaRestored));
    }
    g.push_only(cs(3, SpellUse::PranaRestored))
}

/// At the end step of turn 1 with a hand of 5, seat 0 discards the card it just drew.
fn discard_the_drawn_card() -> Case {
    let g = g3().setup();
    let drawn = g.top(0);
    let g = g.start(0).push(E::RitualStepEnded { seat: 0 }).push(E::BattleStepSkipped { seat: 0 });
    let card = match drawn {
        CardRef::Open(c) => c,
        CardRef::Sealed(_) => String::new(),
    };
    case(g, E::HandDiscarded { seat: 0, cards: vec![card] }, &[])
}

cases! {
    // --- Seats, setup and the deal (FATE-PHASE-1, FATE-OPEN-1/2/7) ---
    three_to_six_masters_by_default ["FATE-PHASE-1"] =>
        setup_case(2, vec![deck(); 2], &[], &["FATE-PHASE-1"]);
    two_masters_as_a_policy_variant ["FATE-PHASE-1"] =>
        setup_case(2, vec![deck(); 2], &[("masters", "2-6")], &[]);
    a_deck_needs_a_class_card ["FATE-OPEN-2"] =>
        setup_case(3, vec![deck(), deck(), vec!["H".to_string(); 20]], &[], &["FATE-OPEN-2"]);
    a_deck_below_min_deck_is_refused ["FATE-OPEN-1"] =>
        setup_case(3, vec![deck(), deck(), deck()[..10].to_vec()], &[], &["FATE-OPEN-1"]);
    the_opening_hand_follows_the_policy ["FATE-OPEN-1"] =>
        case(g3(), E::CardsDealt { seat: 0, cards: (3..6).map(|i| CardRef::Open(p(0, i))).collect() }, &["FATE-OPEN-1"]);
    a_servant_is_a_heroic_spirit_and_a_class ["FATE-OPEN-2"] =>
        case(g3(), E::ServantSet { seat: 0, heroic_spirit: CardRef::Open(p(0, 1)), class: CardRef::Open(p(0, 0)) }, &["FATE-OPEN-2"]);
    the_first_active_master_waits_for_the_deal ["FATE-PHASE-1"] =>
        case(g3().lot(0), E::FirstActiveMasterChosen { seat: 0 }, &["FATE-PHASE-1"]);
    first_seat_policy_fixes_the_first_active_master ["FATE-OPEN-7"] =>
        case(G::new(3, &[("first_master", "first-seat")]).dealt(), E::FirstActiveMasterChosen { seat: 1 }, &["FATE-OPEN-7"]);
    a_lot_may_pick_any_master ["FATE-OPEN-7", "FATE-PHASE-1"] =>
        case(g3().dealt().lot(2), E::FirstActiveMasterChosen { seat: 2 }, &[]);

    // --- Turn order (FATE-PHASE-2..5, FATE-OPEN-7/8) ---
    the_first_turn_is_the_active_masters ["FATE-PHASE-5", "FATE-PHASE-2"] =>
        case(g3().setup(), E::TurnStarted { seat: 1 }, &["FATE-PHASE-5"]);
    play_passes_to_the_next_master ["FATE-PHASE-2", "FATE-PHASE-5"] =>
        case(g3().setup().quiet(0), E::TurnStarted { seat: 2 }, &["FATE-PHASE-5"]);
    counterclockwise_seating_reverses_next ["FATE-OPEN-7", "FATE-PHASE-2"] =>
        case(G::new(3, &[("seating", "counterclockwise")]).setup().quiet(0), E::TurnStarted { seat: 2 }, &[]);
    a_turn_out_of_order_under_r2 ["FATE-PHASE-5"] =>
        case(g3().setup().quiet(0), E::TurnStarted { seat: 0 }, &["FATE-PHASE-5"]);
    a_turn_out_of_order_under_r1 ["FATE-PHASE-5"] =>
        case(G::new(3, &[("turn_order", "r1")]).setup().quiet(0), E::TurnStarted { seat: 2 }, &["FATE-PHASE-5"]);
    back_at_the_active_master_the_status_is_handed_over_first ["FATE-PHASE-3"] =>
        case(g3().setup().quiet(0).quiet(1).quiet(2), E::TurnStarted { seat: 0 }, &["FATE-PHASE-3"]);
    no_handover_before_play_comes_back ["FATE-PHASE-3"] =>
        case(g3().setup().quiet(0), E::ActiveMasterHandedOver { from: 0, to: 1 }, &["FATE-PHASE-3"]);
    the_status_passes_to_the_next_master ["FATE-PHASE-4"] =>
        case(g3().setup().quiet(0).quiet(1).quiet(2), E::ActiveMasterHandedOver { from: 0, to: 2 }, &["FATE-PHASE-4"]);
    r2_the_old_active_master_takes_his_turn ["FATE-PHASE-5"] =>
        case(g3().setup().quiet(0).quiet(1).quiet(2).handover(0, 1), E::TurnStarted { seat: 1 }, &["FATE-PHASE-5"]);
    r1_the_new_active_master_starts_the_phase ["FATE-PHASE-5"] =>
        case(G::new(3, &[("turn_order", "r1")]).setup().quiet(0).quiet(1).quiet(2).handover(0, 1), E::TurnStarted { seat: 0 }, &["FATE-PHASE-5"]);
    r2_next_handover_when_play_comes_back_to_the_new_master ["FATE-PHASE-3", "FATE-PHASE-4"] =>
        case(g3().setup().quiet(0).quiet(1).quiet(2).handover(0, 1).quiet(0).quiet(1).quiet(2).quiet(0), E::TurnStarted { seat: 1 }, &["FATE-PHASE-3"]);
    handover_turns_danger_to_resting ["FATE-PHASE-3"] =>
        case(
            g3().setup().reveal_turn(0).reveal_turn(1).push(danger(1)).reveal_turn(2).handover(0, 1).quiet(0).start(1).push(E::RitualStepEnded { seat: 1 }),
            E::AssaultDeclared { seat: 1, target: 0 },
            &[],
        );
    a_turn_waits_for_the_end_step ["FATE-TURN-7"] =>
        case(g3().setup().start(0), E::TurnStarted { seat: 1 }, &["FATE-TURN-7"]);

    // --- Turn steps (FATE-TURN-1..7, FATE-HAND-1, FATE-OPEN-9) ---
    stand_step_comes_first ["FATE-TURN-1", "FATE-TURN-2"] =>
        case(g3().setup().push(E::TurnStarted { seat: 0 }), E::CardDrawn { seat: 0, card: Some(CardRef::Open(p(0, 7))) }, &["FATE-TURN-2"]);
    only_the_turns_master_stands ["FATE-TURN-1", "FATE-PHASE-2"] =>
        case(g3().setup().push(E::TurnStarted { seat: 0 }), stands(1, false, &[]), &["FATE-PHASE-2"]);
    draw_one_card_while_the_deck_has_any ["FATE-TURN-2"] =>
        case(g3().setup().push(E::TurnStarted { seat: 0 }).stand(0), E::CardDrawn { seat: 0, card: None }, &["FATE-TURN-2"]);
    a_second_secret_sign_in_a_turn ["FATE-TURN-3"] =>
        case(g3().setup().start(0).sign(0), E::SecretSignPlaced { seat: 0, card: p(0, 4) }, &["FATE-TURN-3"]);
    a_secret_sign_comes_from_hand ["FATE-TURN-3"] =>
        case(g3().setup().start(0), E::SecretSignPlaced { seat: 0, card: p(0, 15) }, &["FATE-TURN-3"]);
    a_revealed_servant_cannot_be_revealed_again ["FATE-TURN-3"] =>
        case(g3().setup().start(0).reveal(0), E::ServantRevealed { seat: 0, cards: vec![], drawn: vec![] }, &["FATE-TURN-3"]);
    ritual_one_policy_allows_a_single_ritual_action ["FATE-OPEN-9"] =>
        case(G::new(3, &[("ritual", "one")]).setup().start(0).sign(0), E::ServantRevealed {
            seat: 0,
            cards: vec![Unveiled { card: p(0, 0), salt: None }, Unveiled { card: p(0, 1), salt: None }],
            drawn: vec![CardRef::Open(p(0, 11)), CardRef::Open(p(0, 12))],
        }, &["FATE-OPEN-9"]);
    ritual_both_policy_allows_sign_and_reveal ["FATE-OPEN-9", "FATE-TURN-3"] =>
        case(g3().setup().start(0).sign(0), E::ServantRevealed {
            seat: 0,
            cards: vec![Unveiled { card: p(0, 0), salt: None }, Unveiled { card: p(0, 1), salt: None }],
            drawn: vec![CardRef::Open(p(0, 11)), CardRef::Open(p(0, 12))],
        }, &[]);
    assault_only_after_the_ritual_step ["FATE-TURN-4", "FATE-STATE-4"] =>
        case(g3().setup().start(0), E::AssaultDeclared { seat: 0, target: 1 }, &["FATE-TURN-4", "FATE-STATE-4"]);
    unused_ritual_goes_to_declare_not_encounter ["FATE-TURN-4", "FATE-TURN-5"] =>
        case(g3().setup().start(0).push(E::RitualStepEnded { seat: 0 }), E::EncounterRolled { seat: 0 }, &["FATE-TURN-5"]);
    no_voluntary_assault_after_a_used_ritual_step ["FATE-TURN-5", "FATE-STATE-4"] =>
        case(g3().setup().start(0).sign(0).push(E::RitualStepEnded { seat: 0 }), E::AssaultDeclared { seat: 0, target: 1 }, &["FATE-TURN-5", "FATE-STATE-4"]);
    the_encounter_die_has_six_faces ["FATE-TURN-5"] =>
        case(g3().setup().start(0).sign(0).push(E::RitualStepEnded { seat: 0 }).push(E::Common(CommonEvent::DieRolled { seat: Some(0), sides: 8, value: 7, seed: None })),
             E::EncounterRolled { seat: 0 }, &["FATE-TURN-5"]);
    the_encounter_uses_a_recorded_roll ["FATE-TURN-5"] =>
        case(g3().setup().start(0).sign(0).push(E::RitualStepEnded { seat: 0 }), E::EncounterRolled { seat: 0 }, &["FATE-TURN-5"]);
    a_roll_of_two_skips_the_battle ["FATE-TURN-5"] =>
        case(g3().setup().start(0).sign(0).push(E::RitualStepEnded { seat: 0 }).roll(0, 2).push(E::EncounterRolled { seat: 0 }).servant_lot(0, 1), E::RandomServantSelected { seat: 0, target: 1 }, &["FATE-TURN-5"]);
    a_roll_of_one_battles_another_masters_servant ["FATE-TURN-5", "FATE-OPEN-10"] =>
        case(g3().setup().start(0).sign(0).push(E::RitualStepEnded { seat: 0 }).roll(0, 1).push(E::EncounterRolled { seat: 0 }), E::RandomServantSelected { seat: 0, target: 0 }, &["FATE-OPEN-10"]);
    an_assault_names_another_master ["FATE-TURN-6"] =>
        case(g3().setup().revealed_declare(), E::AssaultDeclared { seat: 0, target: 0 }, &["FATE-TURN-6"]);
    a_standing_servant_may_attack ["FATE-TURN-6"] =>
        case(g3().setup().revealed_declare(), E::AssaultDeclared { seat: 0, target: 2 }, &[]);
    a_resting_servant_cannot_attack ["FATE-STATE-2"] =>
        case(g3().setup().revealed_declare().push(act(0, p(0, 0), 0, vec![Payment::Tapped], true)), E::AssaultDeclared { seat: 0, target: 1 }, &["FATE-STATE-2"]);
    a_servant_in_danger_cannot_attack ["FATE-STATE-3"] =>
        case(g3().setup().revealed_declare().push(danger(0)), E::AssaultDeclared { seat: 0, target: 1 }, &["FATE-STATE-3"]);
    a_face_down_servant_cannot_attack ["FATE-STATE-4"] =>
        case(g3().setup().start(0).push(E::RitualStepEnded { seat: 0 }), E::AssaultDeclared { seat: 0, target: 1 }, &["FATE-STATE-4"]);
    the_hand_limit_is_checked_at_the_end ["FATE-HAND-1", "FATE-TURN-7"] =>
        case(g3().setup().start(0).push(E::RitualStepEnded { seat: 0 }).push(E::BattleStepSkipped { seat: 0 }), E::TurnEnded { seat: 0 }, &["FATE-HAND-1"]);
    discard_down_to_exactly_four ["FATE-HAND-1"] =>
        case(g3().setup().start(0).reveal(0).push(E::RitualStepEnded { seat: 0 }).roll(0, 4).push(E::EncounterRolled { seat: 0 }),
             E::HandDiscarded { seat: 0, cards: vec![p(0, 3)] }, &["FATE-HAND-1"]);
    the_end_step_ends_the_turn ["FATE-TURN-7", "FATE-HAND-1"] =>
        case(g3().setup().start(0), E::TurnEnded { seat: 0 }, &["FATE-TURN-7", "FATE-HAND-1"]);

    // --- Battle (FATE-BATTLE-1..9, FATE-DMG) ---
    the_reveal_process_turns_every_face_down_servant_up ["FATE-BATTLE-1"] =>
        case(g3().setup().start(0).sign(0).push(E::RitualStepEnded { seat: 0 }).roll(0, 1).push(E::EncounterRolled { seat: 0 }).servant_lot(0, 1).push(E::RandomServantSelected { seat: 0, target: 1 }),
             E::BattleServantsRevealed { servants: vec![ServantUnveiled { seat: 0, cards: vec![Unveiled { card: p(0, 0), salt: None }, Unveiled { card: p(0, 1), salt: None }] }] },
             &["FATE-BATTLE-1"]);
    the_battle_process_follows_the_reveal ["FATE-BATTLE-2"] =>
        case(g3().setup().start(0).sign(0).push(E::RitualStepEnded { seat: 0 }).roll(0, 1).push(E::EncounterRolled { seat: 0 }).servant_lot(0, 1).push(E::RandomServantSelected { seat: 0, target: 1 }),
             E::BattleProcessEnded, &["FATE-BATTLE-2"]);
    the_attacker_chooses_first ["FATE-BATTLE-3"] =>
        case(g3().setup().battle(1).push(E::BattleProcessEnded), E::AttackTypeChosen { seat: 1, attack: AttackType::Physical }, &["FATE-BATTLE-3"]);
    the_responder_chooses_second ["FATE-BATTLE-5"] =>
        case(g3().setup().battle(1).push(E::BattleProcessEnded).push(E::AttackTypeChosen { seat: 0, attack: AttackType::Physical }),
             E::AttackTypeChosen { seat: 0, attack: AttackType::Magical }, &["FATE-BATTLE-5"]);
    attacker_damage_is_attack_minus_defense ["FATE-BATTLE-4"] =>
        case(g3().setup().typed(1, AttackType::Physical, Some(AttackType::Physical)), E::DamageDealt { to_attacker: 1, to_responder: 2 }, &["FATE-BATTLE-4"]);
    an_attackers_tie_deals_one ["FATE-BATTLE-4"] =>
        case(g3().setup().typed(1, AttackType::Magical, Some(AttackType::Magical)), E::DamageDealt { to_attacker: 0, to_responder: 0 }, &["FATE-BATTLE-4"]);
    a_responders_tie_deals_zero ["FATE-BATTLE-6"] =>
        case(g3().setup().typed(1, AttackType::Magical, Some(AttackType::Magical)), E::DamageDealt { to_attacker: 1, to_responder: 1 }, &["FATE-BATTLE-6"]);
    negative_damage_is_zero ["FATE-BATTLE-4"] =>
        case(g3().setup().typed(2, AttackType::Magical, Some(AttackType::Magical)), E::DamageDealt { to_attacker: 1, to_responder: 0 }, &[]);
    preemptive_strike_denies_the_response ["FATE-BATTLE-7"] =>
        case(g3().setup().reveal_turn(0).reveal_turn(1).reveal_turn(2).handover(0, 1).quiet(0).quiet(1).start(2).push(E::RitualStepEnded { seat: 2 })
                .push(E::AssaultDeclared { seat: 2, target: 0 }).push(E::BattleProcessEnded).push(E::AttackTypeChosen { seat: 2, attack: AttackType::Physical }),
             E::AttackTypeChosen { seat: 0, attack: AttackType::Physical }, &["FATE-BATTLE-7"]);
    damage_is_dealt_in_the_wounding_process ["FATE-BATTLE-8"] =>
        case(g3().setup().battle(1), E::DamageDealt { to_attacker: 0, to_responder: 1 }, &["FATE-BATTLE-8"]);
    the_winner_takes_a_card_before_the_battle_ends ["FATE-BATTLE-9"] =>
        case(g3().setup().typed(1, AttackType::Magical, Some(AttackType::Magical)).push(E::DamageDealt { to_attacker: 0, to_responder: 1 }),
             E::BattleEnded, &["FATE-BATTLE-9"]);
    only_the_winner_takes_from_the_loser ["FATE-BATTLE-9"] =>
        case(g3().setup().typed(1, AttackType::Magical, Some(AttackType::Magical)).push(E::DamageDealt { to_attacker: 0, to_responder: 1 }),
             E::CardTakenFromHand { winner: 1, loser: 0, index: 0, card: CardRef::Open(p(0, 3)) }, &["FATE-BATTLE-9"]);
    no_card_is_taken_when_both_were_wounded ["FATE-BATTLE-9"] =>
        case(g3().setup().typed(1, AttackType::Physical, Some(AttackType::Physical)).push(E::DamageDealt { to_attacker: 1, to_responder: 1 }),
             E::CardTakenFromHand { winner: 0, loser: 1, index: 0, card: CardRef::Open(p(1, 3)) }, &["FATE-BATTLE-9"]);

    // --- Costs (FATE-COST-1..6, FATE-OPEN-4/5/6) ---
    t_cannot_be_paid_by_a_resting_card ["FATE-COST-1"] =>
        case(g3().setup().revealed_declare().push(act(0, p(0, 0), 0, vec![Payment::Tapped], true)).push(E::BattleStepSkipped { seat: 0 }),
             act(0, p(0, 0), 0, vec![Payment::Tapped], true), &["FATE-COST-1"]);
    t_rests_the_card_used ["FATE-COST-1"] =>
        case(g3().setup().revealed_declare().push(E::CardStateChanged { card: p(0, 0), state: CardState::Resting, note: "test".into() }),
             act(0, p(0, 0), 0, vec![Payment::Tapped], true), &["FATE-COST-1"]);
    r_rests_own_standing_cards ["FATE-COST-2"] =>
        case(g3().setup().revealed_declare(), act(0, p(0, 0), 5, vec![Payment::Rested(vec![p(1, 0)])], true), &["FATE-COST-2"]);
    rest_cost_any_policy_rests_any_card ["FATE-COST-2"] =>
        case(G::new(3, &[("rest_cost", "any")]).setup().revealed_declare(), act(0, p(0, 0), 5, vec![Payment::Rested(vec![p(1, 0)])], true), &[]);
    a_d_cost_recorded_as_paid_on_a_wrong_roll ["FATE-COST-3"] =>
        case(g3().setup().revealed_declare().roll(0, 5), act(0, p(0, 0), 1, vec![Payment::Rolled, Payment::Rested(vec![p(0, 0)])], true), &["FATE-COST-3"]);
    a_failed_die_aborts_the_rest_of_the_cost ["FATE-COST-5", "FATE-COST-3"] =>
        case(g3().setup().revealed_declare().roll(0, 5), act(0, p(0, 0), 1, vec![Payment::Rolled], false), &[]);
    a_good_roll_goes_on_paying_left_to_right ["FATE-COST-5"] =>
        case(g3().setup().revealed_declare().roll(0, 2), act(0, p(0, 0), 1, vec![Payment::Rolled], true), &["FATE-COST-5"]);
    costs_are_paid_in_their_order ["FATE-COST-5"] =>
        case(g3().setup().revealed_declare().roll(0, 1), act(0, p(0, 0), 1, vec![Payment::Rested(vec![p(0, 0)]), Payment::Rolled], true), &["FATE-COST-5"]);
    e_discards_from_hand ["FATE-COST-4"] =>
        case(g3().setup().revealed_declare(), act(0, p(0, 0), 4, vec![Payment::Discarded(vec![p(1, 3)])], true), &["FATE-COST-4"]);
    an_x_cost_is_forbidden_by_default ["FATE-COST-6"] =>
        case(g3().setup().revealed_declare(), act(0, p(0, 0), 3, vec![Payment::XPaid("two cards".into())], true), &["FATE-COST-6"]);
    x_cost_record_policy_accepts_it ["FATE-COST-6"] =>
        case(G::new(3, &[("x_cost", "record")]).setup().revealed_declare(), act(0, p(0, 0), 3, vec![Payment::XPaid("two cards".into())], true), &[]);
    a_failed_roll_uses_the_activation_by_default ["FATE-EFF-3"] =>
        case(g3().setup().revealed_declare().roll(0, 6).push(act(0, p(0, 0), 1, vec![Payment::Rolled], false)), act(0, p(0, 0), 0, vec![Payment::Tapped], true), &["FATE-EFF-3"]);
    failed_roll_free_policy_keeps_the_activation ["FATE-EFF-3"] =>
        case(G::new(3, &[("failed_roll", "free")]).setup().revealed_declare().roll(0, 6).push(act(0, p(0, 0), 1, vec![Payment::Rolled], false)), act(0, p(0, 0), 0, vec![Payment::Tapped], true), &[]);

    // --- Effects (FATE-EFF-1..4) ---
    constant_effects_are_not_activated ["FATE-EFF-1"] =>
        case(g3().setup().revealed_declare(), act(0, p(0, 0), 2, vec![], true), &["FATE-EFF-1"]);
    face_down_cards_use_no_property ["FATE-STATE-4", "FATE-EFF-1"] =>
        case(g3().setup().start(0), act(0, p(0, 0), 0, vec![Payment::Tapped], true), &["FATE-STATE-4"]);
    a_servant_in_danger_uses_no_activated_effect ["FATE-EFF-2", "FATE-STATE-3"] =>
        case(g3().setup().revealed_declare().push(danger(0)), act(0, p(0, 0), 0, vec![Payment::Tapped], true), &["FATE-EFF-2"]);
    a_resting_secret_sign_uses_no_activated_effect ["FATE-EFF-2", "FATE-STATE-2", "FATE-COST-1"] =>
        case(g3().setup().start(0).sign(0).push(E::CardStateChanged { card: p(0, 3), state: CardState::Resting, note: "test".into() }),
             act(0, p(0, 3), 0, vec![Payment::Tapped], true), &["FATE-EFF-2", "FATE-COST-1"]);
    one_activation_per_process ["FATE-EFF-3"] =>
        case(g3().setup().revealed_declare().push(act(0, p(0, 0), 0, vec![Payment::Tapped], true)), act(0, p(0, 0), 4, vec![Payment::Discarded(vec![p(0, 6)])], true), &["FATE-EFF-3"]);
    a_new_step_brings_a_new_activation ["FATE-EFF-3"] =>
        case(g3().setup().revealed_declare().push(act(0, p(0, 0), 4, vec![Payment::Discarded(vec![p(0, 6)])], true)).push(E::BattleStepSkipped { seat: 0 }),
             act(0, p(0, 0), 0, vec![Payment::Tapped], true), &[]);
    effects_outside_ones_own_turn_and_battle ["FATE-EFF-3"] =>
        case(g3().setup().battle(2), act(1, p(1, 0), 0, vec![Payment::Tapped], true), &[]);

    // --- Command Spells and the end (FATE-CS, FATE-WIN, FATE-OPEN-13/18) ---
    command_spells_at_any_moment ["FATE-CS-1"] =>
        case(g3().setup().battle(1), cs(2, SpellUse::PranaRestored), &[]);
    a_fourth_command_spell ["FATE-CS-1"] =>
        case(seat_3_defeated(),
             cs(3, SpellUse::PranaRestored), &["FATE-CS-1"]);
    spending_the_third_command_spell_is_defeat ["FATE-WIN-1"] =>
        case(seat_3_defeated(),
             E::CardsDealt { seat: 3, cards: vec![] }, &["FATE-WIN-1"]);
    the_game_goes_on_after_a_defeat_by_default ["FATE-WIN-1"] =>
        case(seat_3_defeated(),
             E::TurnStarted { seat: 0 }, &[]);
    first_defeat_policy_ends_the_game ["FATE-WIN-1"] =>
        case(G::new(4, &[("game_end", "first-defeat")]).setup().push(cs(3, SpellUse::PranaRestored)).push(cs(3, SpellUse::PranaRestored)).push(cs(3, SpellUse::PranaRestored)),
             E::TurnStarted { seat: 0 }, &["FATE-WIN-1"]);
    option_five_stands_a_resting_or_danger_servant ["FATE-CS-3"] =>
        case(g3().setup().revealed_declare(), cs(0, SpellUse::ServantStood), &["FATE-CS-3"]);
    option_four_is_not_for_x_costs ["FATE-CS-3"] =>
        case(g3().setup().revealed_declare(), cs(0, SpellUse::EffectUsedFree { card: p(0, 0), effect: 3 }), &["FATE-CS-3"]);
    option_four_uses_an_effect_without_its_cost ["FATE-CS-3"] =>
        case(g3().setup().revealed_declare(), cs(0, SpellUse::EffectUsedFree { card: p(0, 0), effect: 1 }), &[]);
    option_four_waives_the_cost_not_the_danger ["FATE-EFF-2", "FATE-CS-3"] =>
        case(g3().setup().revealed_declare().push(danger(0)), option_four(0, 0), &["FATE-EFF-2"]);
    option_four_on_a_standing_servants_activated_effect ["FATE-EFF-2", "FATE-CS-3"] =>
        case(g3().setup().revealed_declare(), option_four(0, 0), &[]);
    option_four_on_a_resting_servant_waives_its_t ["FATE-EFF-2", "FATE-COST-1", "FATE-CS-3"] =>
        case(g3().setup().revealed_declare().push(rest(0)), option_four(0, 0), &[]);
    option_three_removes_a_mark_the_master_has ["FATE-CS-3"] =>
        case(g3().setup(), cs(0, SpellUse::MarkRemoved("curse".into())), &["FATE-CS-3"]);
    option_two_raises_a_stat ["FATE-CS-3"] =>
        case(g3().setup(), cs(0, SpellUse::StatRaised(Stat::MagicalAttack)), &[]);
    prana_zero_defeat_policy_defeats_the_master ["FATE-WIN-1"] =>
        case(G::new(3, &[("prana_zero", "defeat")]).setup().push(E::PranaChanged { seat: 2, delta: -5, note: "test".into() }),
             cs(2, SpellUse::PranaRestored), &["FATE-WIN-1"]);

    // --- Escape hatches held to the rules that govern what they change (rules version 2) ---
    no_prana_changes_for_a_defeated_master ["FATE-WIN-1"] =>
        case(seat_3_defeated(), E::PranaChanged { seat: 3, delta: 1, note: "test".into() }, &["FATE-WIN-1"]);
    no_stat_changes_for_a_defeated_master ["FATE-WIN-1"] =>
        case(seat_3_defeated(), E::StatModified { seat: 3, stat: Stat::PhysicalAttack, delta: 1, note: "test".into() }, &["FATE-WIN-1"]);
    no_card_state_changes_on_a_defeated_masters_field ["FATE-WIN-1"] =>
        case(seat_3_defeated(), E::CardStateChanged { card: p(3, 0), state: CardState::Danger, note: "test".into() }, &["FATE-WIN-1"]);
    a_living_masters_prana_changes_after_a_defeat ["FATE-WIN-1"] =>
        case(seat_3_defeated(), E::PranaChanged { seat: 2, delta: -1, note: "test".into() }, &[]);
    a_secret_sign_never_enters_danger ["FATE-STATE-3"] =>
        case(g3().setup().start(0).sign(0), E::CardStateChanged { card: p(0, 3), state: CardState::Danger, note: "test".into() }, &["FATE-STATE-3"]);
    a_servant_enters_danger_by_an_effect ["FATE-STATE-3"] =>
        case(g3().setup().revealed_declare(), danger(1), &[]);

    // --- The edges of each rule: moves a table might think illegal that give no finding ---
    a_second_stand_step ["FATE-TURN-1"] =>
        case(g3().setup().push(E::TurnStarted { seat: 0 }).stand(0), stands(0, false, &[]), &["FATE-TURN-1"]);
    the_stand_step_with_a_servant_in_danger ["FATE-TURN-1"] =>
        case(g3().setup().reveal_turn(0).quiet(1).quiet(2).handover(0, 1).push(danger(0)).push(E::TurnStarted { seat: 0 }),
             stands(0, false, &[]), &[]);
    an_empty_deck_draws_nothing ["FATE-TURN-2"] =>
        case(G::with_decks(vec![deck()[..7].to_vec(), deck(), deck()], &[("min_deck", "7")]).setup().quiet(0).quiet(1).quiet(2).handover(0, 1)
                .push(E::TurnStarted { seat: 0 }).stand(0),
             E::CardDrawn { seat: 0, card: None }, &[]);
    no_ritual_and_no_assault_goes_to_the_end_step ["FATE-TURN-4"] =>
        case(g3().setup().start(0).push(E::RitualStepEnded { seat: 0 }), E::BattleStepSkipped { seat: 0 }, &[]);
    a_servant_reveal_also_leads_to_the_encounter ["FATE-TURN-5", "FATE-OPEN-10"] =>
        case(g3().setup().start(0).reveal(0).push(E::RitualStepEnded { seat: 0 }).roll(0, 1).push(E::EncounterRolled { seat: 0 }).servant_lot(0, 2),
             E::RandomServantSelected { seat: 0, target: 2 }, &[]);
    the_turn_ends_once_the_hand_is_down_to_four ["FATE-TURN-7", "FATE-HAND-1"] =>
        case(g3().setup().start(0).push(E::RitualStepEnded { seat: 0 }).push(E::BattleStepSkipped { seat: 0 }).push(E::HandDiscarded { seat: 0, cards: vec![p(0, 3)] }),
             E::TurnEnded { seat: 0 }, &[]);
    the_card_just_drawn_may_be_the_one_discarded ["FATE-HAND-1"] => discard_the_drawn_card();
    counterclockwise_the_status_passes_the_other_way ["FATE-PHASE-4", "FATE-OPEN-7"] =>
        case(G::new(3, &[("seating", "counterclockwise")]).setup().quiet(0).quiet(2).quiet(1), E::ActiveMasterHandedOver { from: 0, to: 2 }, &[]);
    r2_the_old_active_master_plays_right_after_handing_over ["FATE-PHASE-5", "FATE-PHASE-3"] =>
        case(g3().setup().quiet(0).quiet(1).quiet(2).handover(0, 1), E::TurnStarted { seat: 0 }, &[]);
    r1_two_masters_play_back_to_back_at_the_boundary ["FATE-PHASE-5"] =>
        case(G::new(2, &[("masters", "2-6"), ("turn_order", "r1")]).setup().quiet(0).quiet(1).handover(0, 1), E::TurnStarted { seat: 1 }, &[]);
    a_resting_servant_may_respond ["FATE-STATE-2", "FATE-BATTLE-5"] =>
        case(responding(rest(1), 1), E::AttackTypeChosen { seat: 1, attack: AttackType::Magical }, &[]);
    a_servant_in_danger_may_respond ["FATE-STATE-3"] =>
        case(responding(danger(1), 1), E::AttackTypeChosen { seat: 1, attack: AttackType::Physical }, &[]);
    a_face_down_servant_may_be_assaulted ["FATE-STATE-4", "FATE-TURN-6"] =>
        case(g3().setup().reveal_turn(0).quiet(1).quiet(2).handover(0, 1).start(0).push(E::RitualStepEnded { seat: 0 }),
             E::AssaultDeclared { seat: 0, target: 1 }, &[]);
    a_secret_sign_pays_t_the_turn_it_is_placed ["FATE-COST-1", "FATE-EFF-2"] =>
        case(g3().setup().start(0).sign(0), act(0, p(0, 3), 0, vec![Payment::Tapped], true), &[]);
    a_resting_servant_still_uses_its_activated_effects ["FATE-EFF-2", "FATE-STATE-2"] =>
        case(g3().setup().revealed_declare().push(rest(0)), act(0, p(0, 0), 4, vec![Payment::Discarded(vec![p(0, 6)])], true), &[]);
    another_master_discards_in_the_same_step ["FATE-COST-4", "FATE-EFF-3"] =>
        case(g3().setup().revealed_declare().push(act(0, p(0, 0), 4, vec![Payment::Discarded(vec![p(0, 6)])], true)),
             act(1, p(1, 0), 4, vec![Payment::Discarded(vec![p(1, 6)])], true), &[]);
    r1_may_rest_the_card_being_used ["FATE-COST-2", "FATE-EFF-1"] =>
        case(g3().setup().revealed_declare(), act(0, p(0, 0), 5, vec![Payment::Rested(vec![p(0, 0)])], true), &[]);
    the_reveal_process_turns_up_both_sides_at_once ["FATE-BATTLE-1", "FATE-TURN-6"] =>
        case(encounter(1).push(E::RandomServantSelected { seat: 0, target: 1 }), E::BattleServantsRevealed { servants: vec![unveiled(0), unveiled(1)] }, &[]);
    substitute_battle_in_the_battle_process ["FATE-BATTLE-2", "FATE-COST-5", "FATE-COST-3"] =>
        case(g3().setup().battle(1).roll(0, 2), act(0, p(0, 0), 1, vec![Payment::Rolled, Payment::Rested(vec![p(0, 0)])], true), &[]);
    the_attacker_may_choose_the_weaker_type ["FATE-BATTLE-3"] =>
        case(g3().setup().battle(1).push(E::BattleProcessEnded), E::AttackTypeChosen { seat: 0, attack: AttackType::Magical }, &[]);
    a_tie_deals_one_to_the_responder_and_nothing_back ["FATE-BATTLE-4", "FATE-BATTLE-6", "FATE-BATTLE-8"] =>
        case(g3().setup().typed(1, AttackType::Magical, Some(AttackType::Magical)), E::DamageDealt { to_attacker: 0, to_responder: 1 }, &[]);
    a_responders_preemptive_strike_denies_nothing ["FATE-BATTLE-7", "FATE-BATTLE-5"] =>
        case(g3().setup().typed(2, AttackType::Physical, None), E::AttackTypeChosen { seat: 2, attack: AttackType::Physical }, &[]);
    both_wounded_the_battle_ends_without_a_card ["FATE-BATTLE-9"] =>
        case(g3().setup().typed(1, AttackType::Physical, Some(AttackType::Physical)).push(E::DamageDealt { to_attacker: 1, to_responder: 1 }),
             E::BattleEnded, &[]);
    spending_the_third_command_spell_is_no_violation ["FATE-WIN-1", "FATE-CS-1"] =>
        case(G::new(4, &[]).setup().push(cs(3, SpellUse::PranaRestored)).push(cs(3, SpellUse::PranaRestored)), cs(3, SpellUse::PranaRestored), &[]);
    prana_zero_is_no_defeat_by_default ["FATE-WIN-1"] =>
        case(g3().setup().push(E::PranaChanged { seat: 2, delta: -5, note: "test".into() }), cs(2, SpellUse::PranaRestored), &[]);
    the_opening_hand_policy_sets_its_size ["FATE-OPEN-1"] =>
        case(G::new(3, &[("opening_hand", "3")]), E::CardsDealt { seat: 0, cards: (3..6).map(|i| CardRef::Open(p(0, i))).collect() }, &[]);
    any_heroic_spirit_of_the_deck_may_be_the_servant ["FATE-OPEN-2"] =>
        case(g3(), E::ServantSet { seat: 0, heroic_spirit: CardRef::Open(p(0, 2)), class: CardRef::Open(p(0, 1)) }, &[]);

    // --- Version 3: a sealed card checked when its seal opens, cited where it was sealed ---
    // Found late: the reveal itself is legal and recorded as played; the finding is cited at the
    // ServantSet (given event 0) that set the Class card in the Heroic Spirit's place.
    a_sealed_servant_of_the_wrong_types_is_found_at_its_reveal ["FATE-OPEN-2"] =>
        servant_revealed_as(&p(0, 1), &p(0, 0), &["FATE-OPEN-2"]);
    a_sealed_servant_of_another_masters_card_is_found_at_its_reveal ["FATE-TURN-2"] =>
        servant_revealed_as(&p(1, 0), &p(0, 1), &["FATE-TURN-2"]);
    a_sealed_servant_may_be_any_heroic_spirit_of_the_deck ["FATE-OPEN-2", "FATE-TURN-2"] =>
        servant_revealed_as(&p(0, 2), &p(0, 1), &[]);
    a_sealed_draw_of_a_card_already_in_hand_is_found_when_shown ["FATE-TURN-2"] =>
        sealed_draw_shown(&p(0, 3), &["FATE-TURN-2"]);
    a_sealed_draw_may_be_any_card_left_in_the_deck ["FATE-TURN-2"] =>
        sealed_draw_shown(&p(0, 12), &[]);
    a_card_shown_out_of_its_seal_is_not_drawn_again ["FATE-TURN-2"] =>
        case(shown_then(), drawn_at_reveal(&[12, 13]), &["FATE-TURN-2"]);
    after_a_shown_card_any_other_card_may_be_drawn ["FATE-TURN-2"] =>
        case(shown_then(), drawn_at_reveal(&[13, 14]), &[]);
    no_escape_hatch_turns_a_sealed_servant_face_up ["KIFU-SEAL-1"] =>
        case(half_sealed(), E::CardStateChanged { card: p(0, 0), state: CardState::Standing, note: "test".into() }, &["KIFU-SEAL-1"]);
    an_effect_may_keep_a_sealed_servant_face_down ["KIFU-SEAL-1"] =>
        case(half_sealed(), E::CardStateChanged { card: p(0, 0), state: CardState::FaceDown, note: "test".into() }, &[]);

    // --- One effect on several Masters' prana: a single, simultaneous event ---
    no_prana_changes_together_for_a_defeated_master ["FATE-WIN-1"] =>
        case(seat_3_defeated(), together(&[(2, -1), (3, -1)]), &["FATE-WIN-1"]);
    every_living_masters_prana_changes_together ["FATE-WIN-1"] =>
        case(g3().setup(), together(&[(0, -1), (1, -1), (2, -1)]), &[]);

    // --- Version 4: the steps versions 1 to 3 made silently, each an event of its own ---
    // The stand step names the cards it stands (FATE-TURN-1).
    the_stand_step_names_every_resting_card ["FATE-TURN-1"] =>
        case(resting_at_stand().0, stands(0, true, &[]), &["FATE-TURN-1"]);
    the_stand_step_stands_only_resting_cards ["FATE-TURN-1"] =>
        case(g3().setup().push(E::TurnStarted { seat: 0 }), stands(0, true, &[]), &["FATE-TURN-1"]);
    a_card_named_twice_stands_once ["FATE-TURN-1"] =>
        { let (g, sign) = resting_at_stand(); case(g, stands(0, true, &[sign.clone(), sign]), &[]) };
    version_4_names_the_cards_the_stand_step_stands ["FATE-TURN-1"] =>
        case(g3().setup().push(E::TurnStarted { seat: 0 }), E::CardsStood { seat: 0 }, &["FATE-TURN-1"]);
    // Receiving the Active Master status turns a Servant from Danger to Resting (FATE-PHASE-3).
    the_next_turn_starts_with_the_servant_still_in_danger ["FATE-PHASE-3"] =>
        case(handed_to_danger(), E::TurnStarted { seat: 0 }, &["FATE-PHASE-3"]);
    no_servant_leaves_danger_without_the_status ["FATE-PHASE-3"] =>
        case(g3().setup().reveal_turn(0).push(danger(0)), E::ServantLeftDanger { seat: 0 }, &["FATE-PHASE-3"]);
    a_servant_stood_by_a_command_spell_owes_no_danger_step ["FATE-PHASE-3", "FATE-CS-3"] =>
        case(handed_to_danger().push(cs(1, SpellUse::ServantStood)), E::TurnStarted { seat: 0 }, &[]);
    // A defeated Active Master's status passes to the next living Master (FATE-PHASE-4).
    the_status_of_a_defeated_active_master_passes_to_the_next_master ["FATE-PHASE-4"] =>
        case(active_master_defeated(4, &[]), E::ActiveStatusPassed { from: 0, to: 2 }, &["FATE-PHASE-4"]);
    play_goes_on_before_a_defeated_active_masters_status_passes ["FATE-PHASE-4", "FATE-PHASE-5"] =>
        case(active_master_defeated(4, &[]), E::TurnStarted { seat: 1 }, &["FATE-PHASE-4", "FATE-PHASE-5"]);
    the_status_skips_a_master_already_defeated ["FATE-PHASE-4"] =>
        case(active_master_defeated(4, &[1]), E::ActiveStatusPassed { from: 0, to: 2 }, &[]);
    // The wounding loses each side's damage as prana, at once (FATE-BATTLE-8, FATE-BATTLE-10).
    the_wounding_loses_the_damage_each_side_received ["FATE-BATTLE-8"] =>
        case(damage_dealt(), E::PranaLost { losses: vec![loss(0, 2), loss(1, 1)] }, &["FATE-BATTLE-8"]);
    a_wounding_split_in_two_steps_is_not_simultaneous ["FATE-BATTLE-10"] =>
        case(damage_dealt(), E::PranaLost { losses: vec![loss(0, 1)] }, &["FATE-BATTLE-10"]);
    the_battle_moves_on_before_prana_is_lost ["FATE-BATTLE-8", "FATE-BATTLE-9"] =>
        case(damage_dealt(), E::BattleEnded, &["FATE-BATTLE-8", "FATE-BATTLE-9"]);
    both_losses_named_in_either_order ["FATE-BATTLE-8", "FATE-BATTLE-10"] =>
        case(damage_dealt(), E::PranaLost { losses: vec![loss(1, 1), loss(0, 1)] }, &[]);
    // The retreat rests the wounded Servants (FATE-BATTLE-9).
    the_retreat_rests_each_wounded_servant ["FATE-BATTLE-9"] =>
        case(prana_lost(damage_dealt()), E::WoundedServantsRested { seats: vec![0] }, &["FATE-BATTLE-9"]);
    the_battle_ends_before_the_wounded_rest ["FATE-BATTLE-9"] =>
        case(prana_lost(damage_dealt()), E::BattleEnded, &["FATE-BATTLE-9"]);
    a_wounded_servant_already_resting_owes_no_rest ["FATE-BATTLE-9", "FATE-STATE-2"] =>
        case(prana_lost(resting_responder_wounded()), E::WoundedServantsRested { seats: vec![0] }, &[]);
    // What 0 prana does, as the prana_zero policy says (FATE-OPEN-13).
    play_goes_on_before_a_servant_at_zero_prana_enters_danger ["FATE-OPEN-13"] =>
        case(prana_gone(&[]), E::TurnStarted { seat: 0 }, &["FATE-OPEN-13"]);
    only_the_servant_at_zero_prana_enters_danger ["FATE-OPEN-13"] =>
        case(prana_gone(&[]), E::ServantsEndangered { seats: vec![1] }, &["FATE-OPEN-13"]);
    play_goes_on_before_a_master_at_zero_prana_is_defeated ["FATE-OPEN-13"] =>
        case(prana_gone(&[("prana_zero", "defeat")]), E::TurnStarted { seat: 0 }, &["FATE-OPEN-13"]);
    prana_zero_nothing_owes_no_step ["FATE-OPEN-13"] =>
        case(prana_gone(&[("prana_zero", "nothing")]), E::TurnStarted { seat: 0 }, &[]);
    masters_at_zero_prana_at_once_fall_together_in_any_order ["FATE-OPEN-13"] =>
        case(G::new(3, &[("prana_zero", "defeat")]).setup().push_only(together(&[(1, -5), (2, -5)])),
             E::MastersDefeated { seats: vec![2, 1], reason: DefeatReason::PranaRanOut }, &[]);
    // The third Command Spell gone defeats at once (FATE-WIN-1).
    play_goes_on_before_the_third_spells_defeat ["FATE-WIN-1"] =>
        case(spells_gone(3), E::TurnStarted { seat: 0 }, &["FATE-WIN-1"]);
    a_master_whose_defeat_is_owed_takes_no_part ["FATE-WIN-1"] =>
        case(spells_gone(3), E::CardsDealt { seat: 3, cards: vec![] }, &["FATE-WIN-1"]);
    the_defeat_names_the_master_whose_spells_are_gone ["FATE-WIN-1"] =>
        case(spells_gone(3), E::MastersDefeated { seats: vec![2], reason: DefeatReason::CommandSpellsLost }, &["FATE-WIN-1"]);
    the_second_spell_is_no_defeat ["FATE-WIN-1"] =>
        case(spells_gone(2), E::TurnStarted { seat: 0 }, &[]);

    // --- Version 5 ---
    // An owed defeat comes before any escape hatch on that Master (FATE-WIN-1).
    no_escape_hatch_changes_a_master_whose_defeat_is_owed ["FATE-WIN-1"] =>
        case(spells_gone(3), E::PranaChanged { seat: 3, delta: 2, note: "test".into() }, &["FATE-WIN-1"]);
    an_escape_hatch_may_change_another_master_while_a_defeat_is_owed ["FATE-WIN-1"] =>
        case(spells_gone(3), E::PranaChanged { seat: 1, delta: 2, note: "test".into() }, &[]);
    // A step recorded after one it leaves out is cited for what it left out, once.
    a_rest_recorded_before_the_prana_loss_is_cited_for_the_loss_alone ["FATE-BATTLE-8"] =>
        case(damage_dealt(), E::WoundedServantsRested { seats: vec![0, 1] }, &["FATE-BATTLE-8"]);
    // The winner takes the card the loser holds (FATE-BATTLE-9); a known card taken sealed is
    // checked when its seal opens, and cited at the taking (found late).
    a_known_card_taken_sealed_is_found_at_its_reveal ["FATE-BATTLE-9"] =>
        taken_sealed_then_shown(&p(1, 3), &["FATE-BATTLE-9"]);
    a_known_card_may_be_taken_sealed ["FATE-BATTLE-9"] =>
        taken_sealed_then_shown(&p(1, 6), &[]);
    // A sealed hand card taken: under its own seal, checked at once (not found late).
    a_sealed_hand_card_taken_under_its_own_seal ["FATE-BATTLE-9", "KIFU-SEAL-1"] =>
        sealed_hand_card_taken(CardRef::Sealed, &[]);
    a_sealed_hand_card_taken_under_another_seal ["FATE-BATTLE-9"] =>
        sealed_hand_card_taken(|_| CardRef::Sealed(seal(&p(1, 3), &salt(8))), &["FATE-BATTLE-9"]);
    a_sealed_hand_card_named_openly_as_it_is_taken ["KIFU-SEAL-1"] =>
        sealed_hand_card_taken(|_| CardRef::Open(p(1, 3)), &["KIFU-SEAL-1"]);
}

#[test]
fn every_enforced_rule_has_a_case() {
    check_enforced_rules_have_cases(CASES, Fate::coverage());
}

/// `src/games/fate/scenarios.tsv` counts this table's illegal and tricky cases per rule ID.
#[test]
fn scenario_index_is_checked_in() {
    crate::game_support::check_scenario_index::<Fate>("fate", built_cases());
}

// ---------------------------------------------------------------------------------------------
// Fold checks the cases cannot express (the state after an event).
#[test]
fn the_handover_turns_the_new_active_masters_danger_to_resting() {
    let g = g3().setup().reveal_turn(0).reveal_turn(1).push(danger(1)).reveal_turn(2);
    assert_eq!(g.s.masters[1].servant.as_ref().map(|s| s.pose), Some(Pose::Danger));
    let g = g.handover(0, 1);
    assert_eq!(g.s.masters[1].servant.as_ref().map(|s| s.pose), Some(Pose::Resting));
    assert_eq!(g.s.active_master, Some(1));
}

/// Version 4: the handover leaves the Servant in Danger; the owed step turns it Resting.
#[test]
fn version_4_turns_the_servant_out_of_danger_in_a_step_of_its_own() {
    let g = handed_to_danger();
    assert_eq!(g.s.masters[1].servant.as_ref().map(|s| s.pose), Some(Pose::Danger));
    assert_eq!(g.s.owed_steps(), vec![E::ServantLeftDanger { seat: 1 }]);
    assert_eq!(Fate::automatic(&g.s), Some(E::ServantLeftDanger { seat: 1 }));
    let g = g.push(E::ServantLeftDanger { seat: 1 });
    assert_eq!(g.s.masters[1].servant.as_ref().map(|s| s.pose), Some(Pose::Resting));
    assert_eq!(g.s.owed_steps(), vec![]);
}

/// A step left out is cited once, at the event that moved on without it: after that it is owed no
/// more, and the board shows what the table left (the Servant still in Danger).
#[test]
fn a_step_left_out_is_cited_once_where_the_game_moved_on() {
    let g = handed_to_danger();
    let turn = E::TurnStarted { seat: 0 };
    assert_eq!(rule_ids(&g.s, &turn), vec!["FATE-PHASE-3"]);
    let s = Fate::apply(g.s.clone(), &turn);
    assert_eq!(s.owed_steps(), vec![]);
    assert_eq!(rule_ids(&s, &stood(&s, 0)), Vec::<&str>::new());
    assert_eq!(s.masters[1].servant.as_ref().map(|x| x.pose), Some(Pose::Danger));
}

/// Each version-4 step's board, reached by versions 1 to 3 without it: the same game with the
/// steps left out (and the stand step unnamed), folded under version 3, ends on the same board.
#[test]
fn versions_1_to_3_fold_the_steps_version_4_records() {
    use kifu::games::fate::FateV3;
    let games = [
        ("handover", g3().setup().reveal_turn(0).reveal_turn(1).push(danger(1)).reveal_turn(2).handover(0, 1)),
        ("stand", resting_at_stand().0.stand(0)),
        (
            "wounding",
            g3().setup()
                .typed(1, AttackType::Physical, Some(AttackType::Physical))
                .push(E::DamageDealt { to_attacker: 1, to_responder: 1 }),
        ),
        ("prana at 0, danger", prana_gone(&[]).push(E::ServantsEndangered { seats: vec![2] })),
        (
            "prana at 0, defeat",
            G::new(3, &[("prana_zero", "defeat")]).setup().push(E::PranaChanged {
                seat: 2,
                delta: -5,
                note: "test".into(),
            }),
        ),
        ("third spell", spells_gone(2).push(cs(3, SpellUse::PranaRestored))),
        ("active master out", active_master_defeated(4, &[1]).push(E::ActiveStatusPassed { from: 0, to: 2 })),
    ];
    let board = |s: &FateState| {
        let poses: Vec<_> = s
            .masters
            .iter()
            .map(|m| {
                (
                    m.servant.as_ref().map(|x| x.pose),
                    m.signs.iter().map(|x| x.pose).collect::<Vec<_>>(),
                    m.prana,
                    m.command_spells,
                    m.defeated,
                )
            })
            .collect();
        (poses, s.active_master, s.defeated.clone(), s.step, s.battle.as_ref().map(|b| b.process))
    };
    for (name, g) in games {
        let stepped: Vec<&E> = g
            .events
            .iter()
            .filter(|e| {
                !matches!(
                    e,
                    E::ServantLeftDanger { .. }
                        | E::PranaLost { .. }
                        | E::WoundedServantsRested { .. }
                        | E::ServantsEndangered { .. }
                        | E::MastersDefeated { .. }
                        | E::ActiveStatusPassed { .. }
                )
            })
            .collect();
        let named_stand = g.events.iter().any(|e| matches!(e, E::RestingCardsStood { servant: true, .. }));
        assert!(stepped.len() < g.events.len() || named_stand, "{name}: the game has no version-4 step");
        let mut s = FateV3::setup(&g.config).unwrap_or_else(|v| panic!("{name}: {v:?}"));
        for e in stepped {
            let e = match e {
                E::RestingCardsStood { seat, .. } => E::CardsStood { seat: *seat },
                other => other.clone(),
            };
            assert_eq!(FateV3::validate(&s, &e), vec![], "{name}: {e:?} under version 3");
            s = FateV3::apply(s, &e);
        }
        assert_eq!(board(&s), board(&g.s), "{name}");
    }
}

#[test]
fn r2_and_r1_turn_sequences_match_the_digest() {
    // Digest FATE-PHASE-5 with 3 Masters A, B, C.
    for (order, want) in [
        ("r2", vec!["A", "B", "C", ">B", "A", "B", "C", "A", ">C", "B", "C", "A", "B", ">A", "C"]),
        ("r1", vec!["A", "B", "C", ">B", "B", "C", "A", ">C", "C", "A", "B", ">A", "A"]),
    ] {
        let mut g = G::new(3, &[("turn_order", order)]).setup();
        let mut got = Vec::new();
        while got.len() < want.len() {
            if g.s.handover_due() {
                let from = g.s.active_master.unwrap_or(0);
                let to = g.s.next_living(from);
                got.push(format!(">{}", ["A", "B", "C"][usize::from(to)]));
                g = g.handover(from, to);
            } else {
                let seat = g.s.expected_next().unwrap_or(0);
                got.push(["A", "B", "C"][usize::from(seat)].to_string());
                g = g.quiet(seat);
            }
        }
        assert_eq!(got, want, "reading {order}");
    }
}

/// The stand step turns Resting cards up and leaves a Servant in Danger as it is (FATE-TURN-1).
#[test]
fn the_stand_step_leaves_a_servant_in_danger_alone() {
    let g = g3().setup().reveal_turn(0).quiet(1).quiet(2).handover(0, 1).push(danger(0));
    let g = g.push(E::TurnStarted { seat: 0 }).stand(0);
    assert_eq!(g.s.masters[0].servant.as_ref().map(|s| s.pose), Some(Pose::Danger));
    let g = g3().setup().revealed_declare().push(rest(0)).push(E::BattleStepSkipped { seat: 0 }).end(0);
    let g = g.quiet(1).quiet(2).push(E::TurnStarted { seat: 0 }).stand(0);
    assert_eq!(g.s.masters[0].servant.as_ref().map(|s| s.pose), Some(Pose::Standing));
}

#[test]
fn damage_rests_the_wounded_and_costs_prana() {
    let g = g3().setup().typed(1, AttackType::Physical, Some(AttackType::Physical));
    let g = g.push(E::DamageDealt { to_attacker: 1, to_responder: 1 });
    assert_eq!(g.s.masters[0].prana, 4);
    assert_eq!(g.s.masters[1].prana, 4);
    assert_eq!(g.s.masters[1].servant.as_ref().map(|s| s.pose), Some(Pose::Resting));
}

#[test]
fn defeats_are_kept_in_order_and_the_last_master_standing_wins() {
    let mut g = g3().setup();
    for seat in [2, 1] {
        for _ in 0..3 {
            g = g.push(cs(seat, SpellUse::PranaRestored));
        }
    }
    assert_eq!(g.s.defeated, vec![2, 1]);
    let outcome = Fate::outcome(&g.s).unwrap_or_else(|| panic!("no outcome"));
    assert_eq!(outcome.winners(), vec![0]);
    assert!(outcome.reason.contains("FATE-WIN-1"));
}

#[test]
fn who_may_act_names_the_turn_the_attacker_and_the_responder_not_an_idle_active_master() {
    let g = g3().setup().battle(2);
    assert_eq!(g.s.active_master, Some(1));
    // The battle process between the declaration and the attack is automatic: nobody owes it.
    assert_eq!(g.s.may_act(), Vec::<u8>::new());
    assert_eq!(g.push(E::BattleProcessEnded).s.may_act(), vec![0], "the attacker chooses first");
    assert_eq!(g3().setup().typed(2, AttackType::Physical, None).s.may_act(), vec![2], "then the responder");
    let g = g3().setup().start(0);
    assert_eq!(g.s.may_act(), vec![0]);
    // A Command Spell interjects: any Master may use one at any moment (FATE-CS-1).
    assert!(Fate::interjects(&g.s, &cs(2, SpellUse::PranaRestored)));
}

// ---------------------------------------------------------------------------------------------
// Digital dice: every Master's hash chain (the shared `ChainCommitted` / `ChainLinkRevealed`
// common events), and every roll a `DieRolled` the FATE event must then use.
// ---------------------------------------------------------------------------------------------

const LINKS: usize = 8;

fn chains(n: usize) -> Vec<Vec<kifu::game::commit::Secret>> {
    (0..n).map(|i| hash_chain(&Commitment([i as u8 + 1; 32]), LINKS)).collect()
}

fn rule_ids(s: &FateState, e: &E) -> Vec<&'static str> {
    Fate::validate(s, e).into_iter().map(|v| v.rule).collect()
}

fn link(seat: u8, link: kifu::game::commit::Secret) -> E {
    E::Common(CommonEvent::ChainLinkRevealed { key: "dice".into(), seat, link })
}

fn digital_roll(value: u32, round: &str) -> E {
    E::Common(CommonEvent::DieRolled { seat: Some(0), sides: 6, value, seed: Some(round.into()) })
}

#[test]
fn a_digital_roll_waits_for_every_master_and_no_host_can_predict_or_bias_it() {
    let ch = chains(3);
    let l = LINKS;
    let mut g = G::new(3, &[("dice", "digital"), ("first_master", "first-seat")]).dealt();
    assert!(rule_ids(&g.s, &E::FirstActiveMasterChosen { seat: 0 }).contains(&"KIFU-SEED-4"));
    for seat in 0..3u8 {
        g = g.push(E::Common(CommonEvent::ChainCommitted { key: "dice".into(), seat, tip: ch[usize::from(seat)][l] }));
    }
    g = g.push(E::FirstActiveMasterChosen { seat: 0 }).start(0).sign(0).push(E::RitualStepEnded { seat: 0 });
    // The host (seat 0) knows its own chain and reveals first: no roll is accepted yet.
    g = g.push(link(0, ch[0][l - 1]));
    for roll in 1..=6 {
        assert!(rule_ids(&g.s, &digital_roll(roll, "dice/0")).contains(&"KIFU-CHAIN-1"), "roll {roll}");
    }
    // Nobody can reveal a link of their choosing: only the committed chain's next link passes.
    assert_eq!(rule_ids(&g.s, &link(1, Commitment([9; 32]))), vec!["KIFU-SEED-1"]);
    assert_eq!(rule_ids(&g.s, &link(0, ch[0][l - 2])), vec!["KIFU-SEED-5"]);
    g = g.push(link(1, ch[1][l - 1])).push(link(2, ch[2][l - 1]));
    let links = [(0, ch[0][l - 1]), (1, ch[1][l - 1]), (2, ch[2][l - 1])];
    let want = die_roll(&chain_round_seed("dice", 0, &links), "dice/0", 0, 6);
    for roll in 1..=6 {
        let ids = rule_ids(&g.s, &digital_roll(roll, "dice/0"));
        assert_eq!(ids.is_empty(), roll == want, "roll {roll}: {ids:?}");
        if roll != want {
            assert_eq!(ids, vec!["KIFU-DIE-2"]);
        }
    }
    // Neither a later round nor a result without the seed stands in for it.
    assert!(rule_ids(&g.s, &digital_roll(want, "dice/1")).contains(&"KIFU-CHAIN-1"));
    let unseeded = E::Common(CommonEvent::DieRolled { seat: Some(0), sides: 6, value: want, seed: None });
    assert_eq!(rule_ids(&g.s, &unseeded), vec!["KIFU-DIE-3"]);
    // With the host's link fixed, the other Masters' links spread the outcome over every face:
    // knowing its own seed tells the host nothing about the roll.
    let mut faces = [0usize; 6];
    for t in 0..600u32 {
        let other = |k: u8| Commitment(*blake3::hash(&[t.to_le_bytes().as_slice(), &[k]].concat()).as_bytes());
        let seed = chain_round_seed("dice", 0, &[(0, ch[0][l - 1]), (1, other(1)), (2, other(2))]);
        faces[die_roll(&seed, "dice/0", 0, 6) as usize - 1] += 1;
    }
    assert!(faces.iter().all(|f| (60..=140).contains(f)), "faces {faces:?}");
    // The roll must be used as it fell: nothing else comes first.
    g = g.push(digital_roll(want, "dice/0"));
    assert!(rule_ids(&g.s, &E::AssaultDeclared { seat: 0, target: 1 }).contains(&"KIFU-DIE-4"));
    // Rolling again until a liked face comes up is refused: the first roll stays to be used.
    let next = die_roll(&chain_round_seed("dice", 0, &links), "dice/0", 1, 6);
    assert!(rule_ids(&g.s, &digital_roll(next, "dice/0")).is_empty());
    let rerolled = Fate::apply(g.s.clone(), &digital_roll(next, "dice/0"));
    assert!(rule_ids(&rerolled, &E::EncounterRolled { seat: 0 }).contains(&"KIFU-DIE-4"));
    // The encounter's face is the roll's, stored once: a 1 waits for a random Servant, 2–6 end the turn.
    let g = g.push(E::EncounterRolled { seat: 0 });
    assert!(g.s.pending.is_empty());
    assert_eq!(g.s.encounter_pending, want == 1);
    assert_eq!(g.s.ledger.chain_round("dice"), "dice/1");
    assert_eq!(g.s.ledger.chain_link_due("dice", 0), Some(1));
}

/// Version 2's checks are its own: under version 1 (the pinned fixtures and every game recorded
/// before), Command Spell option 4 on a Servant in Danger and the escape hatches still validate
/// as released, and version 1's options still offer that option, so old games audit unchanged.
#[test]
fn version_1_games_audit_as_released() {
    use kifu::game::options::GameOption;
    use kifu::games::fate::Fate as FateV1;
    let offers = |options: Option<Vec<GameOption<E>>>, e: &E| options.unwrap_or_default().iter().any(|o| o.offers(e));
    let g = g3().setup().revealed_declare().push(danger(0));
    let free = option_four(0, 0);
    assert_eq!(rule_ids(&g.s, &free), ["FATE-EFF-2"]);
    assert!(!offers(Fate::options(&g.s, 0), &free), "version 2 offers option 4 on a Servant in Danger");
    assert!(FateV1::validate(&g.s, &free).is_empty());
    assert!(offers(FateV1::options(&g.s, 0), &free), "version 1 offered it");
    let standing = g3().setup().revealed_declare();
    assert!(offers(Fate::options(&standing.s, 0), &free), "a Standing Servant's effect is offered");

    let g = seat_3_defeated();
    let prana = E::PranaChanged { seat: 3, delta: 1, note: "test".into() };
    assert_eq!(rule_ids(&g.s, &prana), ["FATE-WIN-1"]);
    assert!(FateV1::validate(&g.s, &prana).is_empty());
    let g = g3().setup().start(0).sign(0);
    let sign_danger = E::CardStateChanged { card: p(0, 3), state: CardState::Danger, note: "test".into() };
    assert_eq!(rule_ids(&g.s, &sign_danger), ["FATE-STATE-3"]);
    assert!(FateV1::validate(&g.s, &sign_danger).is_empty());
}

/// Two Masters at 5 prana under `prana_zero` defeat, each losing all of it to one effect: recorded
/// as two `PranaChanged`, whoever is recorded first loses and the game is over before the second;
/// recorded as the one simultaneous event it was, both fall together and share the result.
#[test]
fn a_simultaneous_loss_of_every_masters_prana_is_a_draw_not_a_win_for_the_one_counted_second() {
    use kifu::game::OutcomeKind;
    let g = || G::new(2, &[("masters", "2-6"), ("prana_zero", "defeat")]).setup();
    let split = g().push(E::PranaChanged { seat: 0, delta: -5, note: "test".into() });
    let outcome = split.s.result.clone().expect("the first change ends the game");
    assert_eq!((outcome.kind(), outcome.placements[0].clone()), (OutcomeKind::Won, vec![1]));
    assert_eq!(rule_ids(&split.s, &E::PranaChanged { seat: 1, delta: -5, note: "test".into() }), ["FATE-WIN-1"]);

    let at_once = g().push(together(&[(0, -5), (1, -5)]));
    let outcome = at_once.s.result.clone().expect("both fall: the game is over");
    assert_eq!(outcome.kind(), OutcomeKind::Draw, "{outcome:?}");
    assert_eq!(outcome.placements, vec![vec![0, 1]], "{outcome:?}");
    assert!(outcome.eliminated.is_empty(), "{outcome:?}");
    assert_eq!(at_once.s.defeated, vec![0, 1]);
}

/// Version 3's checks are its own: under version 2 a sealed Servant of the wrong types reveals
/// with nothing found late, and an escape hatch still turns a half-sealed Servant face up.
#[test]
fn version_2_games_audit_as_released() {
    use kifu::games::fate::FateV2;
    let g = sealed_servant(&p(0, 1), &p(0, 0));
    let reveal = reveal_sealed(&g, &p(0, 1), &p(0, 0));
    assert!(FateV2::validate(&g.s, &reveal).is_empty());
    assert!(FateV2::revealed_violations(&g.s, &reveal).is_empty());
    let late: Vec<(u64, &str)> =
        Fate::revealed_violations(&g.s, &reveal).into_iter().map(|l| (l.at, l.violation.rule)).collect();
    assert_eq!(late, [(0, "FATE-OPEN-2"), (0, "FATE-OPEN-2")], "both slots, cited at the ServantSet");
    let up = E::CardStateChanged { card: p(0, 0), state: CardState::Standing, note: "test".into() };
    assert!(FateV2::validate(&half_sealed().s, &up).is_empty());
}
