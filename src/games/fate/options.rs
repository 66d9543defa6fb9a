//! What a Master may record now in FATE ([`crate::game::options`]), and the steps kifu records
//! itself ([`automatic`]). Options are written from the seat's own view: a card is named (and
//! concerned by its instance id) only when [`super::view`] lets the seat see it; a card it cannot
//! see is named by its place ("card 2 of Bazett's hand"). Every option is kept only when
//! `validate` accepts it. The agent ([`super::agent`]) plays the automatic steps through
//! [`automatic`].
//!
//! Interjections are options of every living Master at any moment: Command Spells (FATE-CS-1),
//! activations of its field's [Activated] effects (FATE-EFF-4), and the die an activation's cost
//! rolls. Values a seat chooses are one option with a typed parameter: the cards of its own deck
//! a physical deal or draw gave it, the cards it discards or rests, a die as it fell at a physical
//! table, a lot's result. The commit/reveal steps of a digital game's dice chain are options of
//! the seat that holds the chain, with the value only its page has (the tip, the next link) as a
//! [`ParamKind::Secret`] parameter.
//!
//! Automatic steps (no choice in them, and due where the agent plays them): the first Active
//! Master once the deal is over (`first_master=first-seat`, or the lot's result), the lot of a
//! digital game once every Master revealed its link, the encounter once its die is recorded, the
//! random Servant once its pick is recorded, and a blind hand pick's card once its pick is
//! recorded; from rules version 4, first of all, the steps an event made due
//! ([`FateState::owed_steps`]: a defeat, Danger at 0 prana, a defeated Active Master's status, a
//! Servant leaving Danger, the wounding's prana loss, the retreat's rest). The other steps without a choice (a turn's start and stand step, the handover, the
//! battle's reveal, damage and end, a digital game's seeded dice) stay one-tap options of the
//! Master whose step it is: the agent may interject a Command Spell or an effect before them,
//! and its random stream is pinned by the fixtures.

use super::catalog::{CardType, Cost, EffectKind};
use super::config::{DiceMode, FirstMaster, HandPick, RestCost};
use super::events::{
    AttackType, CardRef, CommonEvent, FateEvent, Payment, Process, ServantUnveiled, SpellUse, Stat, Step, Unveiled,
    DICE_CHAIN,
};
use super::rules::{position_labels, seat_labels, servant_candidates, validate, validate_as};
use super::rules_version::Rules;
use super::state::{FateState, Held, Pose};
use super::view::{hand_visibility, servant_visibility};
use super::FateRules;
use crate::game::commit::{die_roll, random_pick, Commitment};
use crate::game::options::{legal, Concern, GameOption, Param, ParamKind, ParamValue, Pick, SecretForm};
use crate::game::{Seat, Viewer};

/// The actions `seat` may record now under rules version `V`: each is kept only when that
/// version's `validate` accepts it (so version 2 offers no Command Spell option 4 for a Servant
/// in Danger, FATE-EFF-2).
pub fn options<const V: u32>(s: &FateState, seat: Seat) -> Vec<GameOption<FateEvent>> {
    let mut o = Vec::new();
    if s.result.is_some() || !s.is_living(seat) {
        return o;
    }
    if s.step == Step::Setup {
        setup(s, seat, &mut o);
    } else {
        turn(s, seat, FateRules::<V>::RULES, &mut o);
        command_spells(s, seat, &mut o);
        activations(s, seat, &mut o);
    }
    dice_chain(s, seat, &mut o);
    legal::<FateRules<V>>(s, o)
}

/// The next event the rules fully determine under `rules`, recorded by kifu itself: see
/// the module docs. From version 4 the steps an event made due come first
/// ([`FateState::owed_steps`]).
pub fn automatic(s: &FateState, rules: Rules) -> Option<FateEvent> {
    if s.result.is_some() {
        return None;
    }
    if rules.owed_steps {
        if let Some(step) = s.owed_steps().into_iter().next() {
            return Some(step);
        }
    }
    if s.step == Step::Setup {
        return first_master(s);
    }
    let e = match s.step {
        Step::Encounter => {
            let seat = s.turn_master?;
            if s.encounter_pending {
                let i = pending_pick(s)?;
                FateEvent::RandomServantSelected { seat, target: *servant_candidates(s, seat).get(i)? }
            } else {
                match s.pending.first() {
                    Some(CommonEvent::DieRolled { .. }) => FateEvent::EncounterRolled { seat },
                    _ => return None,
                }
            }
        }
        Step::Battle => {
            let b = s.battle.as_ref().filter(|b| b.process == Process::Retreat && !b.card_taken)?;
            let (winner, loser) = s.hand_take(b)?;
            if s.policies.hand_pick != HandPick::Blind {
                return None;
            }
            let index = pending_pick(s)?;
            let card = held_ref(s.master(loser)?.hand.get(index)?);
            FateEvent::CardTakenFromHand { winner, loser, index: u8::try_from(index).ok()?, card }
        }
        _ => return None,
    };
    validate_as(s, &e, rules).is_empty().then_some(e)
}

/// The end of the deal: the first Active Master, after the lot where there is one.
fn first_master(s: &FateState) -> Option<FateEvent> {
    let digital = s.policies.dice == DiceMode::Digital;
    for seat in s.seats() {
        let m = s.master(seat)?;
        if m.servant.is_none() || !m.dealt || (digital && !s.ledger.chain_is_committed(DICE_CHAIN, seat)) {
            return None;
        }
    }
    let living = s.living();
    let seat = match s.policies.first_master {
        FirstMaster::FirstSeat => 0,
        FirstMaster::Lot => match pending_pick(s) {
            Some(i) => *living.get(i)?,
            // A digital lot is drawn from the round every Master revealed a link for.
            None if digital => return seeded(s, None, Some(seat_labels(&living))),
            None => return None,
        },
    };
    Some(FateEvent::FirstActiveMasterChosen { seat })
}

/// The pick waiting to be used.
fn pending_pick(s: &FateState) -> Option<usize> {
    match s.pending.first() {
        Some(CommonEvent::RandomPicked { picked, .. }) => usize::try_from(*picked).ok(),
        _ => None,
    }
}

/// The `i`-th roll waiting to be used.
fn pending_die(s: &FateState, i: usize) -> Option<u8> {
    match s.pending.get(i) {
        Some(CommonEvent::DieRolled { value, .. }) => u8::try_from(*value).ok(),
        _ => None,
    }
}

/// A digital game's draw from the current dice-chain round, once every living Master revealed
/// its link for it (and no draw used the round yet).
fn seeded(s: &FateState, seat: Option<Seat>, among: Option<Vec<String>>) -> Option<FateEvent> {
    let living = s.living();
    if living.iter().any(|x| s.ledger.chain_link_due(DICE_CHAIN, *x).is_some()) {
        return None;
    }
    let (key, seed) = s.ledger.chain_round_ready(DICE_CHAIN, &living)?;
    let n = s.ledger.next_draw(&key);
    let c = match among {
        None => CommonEvent::DieRolled { seat, sides: 6, value: die_roll(&seed, &key, n, 6), seed: Some(key) },
        Some(among) => {
            let picked = random_pick(&seed, &key, n, u32::try_from(among.len()).ok()?);
            CommonEvent::RandomPicked { seat, among, picked, seed: Some(key) }
        }
    };
    Some(FateEvent::Common(c))
}

fn held_ref(h: &Held) -> CardRef {
    match h {
        Held::Known(c) => CardRef::Open(c.clone()),
        Held::Sealed(c) => CardRef::Sealed(*c),
    }
}

fn card_name(s: &FateState, card: &str) -> String {
    s.def(card).map_or_else(|| card.to_string(), |d| d.name.clone())
}

/// Whether `seat` may see which card `card` is, by the view's rules: its own hand, deck search
/// and Servant, any Servant face up, Secret Signs and the discard (public, FATE-CTX-1).
fn visible(s: &FateState, seat: Seat, card: &str) -> bool {
    let viewer = Viewer::Player(seat);
    s.seats().any(|x| {
        let Some(m) = s.master(x) else { return false };
        let in_hand = m.hand.iter().any(|h| h.known() == Some(card)) || m.deck.contains(card);
        (in_hand && hand_visibility(x).sees(viewer))
            || m.servant.as_ref().is_some_and(|v| v.holds(card) && servant_visibility(x, v.face_down).sees(viewer))
            || m.signs.iter().any(|g| g.card == card)
            || m.discard.iter().any(|c| c == card)
    })
}

/// What a page attaches an option on `card` to: the card when `seat` may see it, else its zone.
fn concern(s: &FateState, seat: Seat, card: &str, zone: &str) -> Concern {
    if visible(s, seat, card) {
        Concern::Card(card.to_string())
    } else {
        Concern::Zone(zone.to_string())
    }
}

fn value(s: &FateState, card: &str) -> ParamValue {
    ParamValue::new(card.to_string(), card_name(s, card))
}

fn own_deck(s: &FateState, seat: Seat) -> Vec<ParamValue> {
    s.master(seat).map(|m| m.deck.iter().map(|c| value(s, c)).collect()).unwrap_or_default()
}

fn known_hand(s: &FateState, seat: Seat) -> Vec<String> {
    s.master(seat).map(|m| m.hand.iter().filter_map(|h| h.known().map(str::to_string)).collect()).unwrap_or_default()
}

fn open_cards(values: &[String]) -> Vec<CardRef> {
    values.iter().cloned().map(CardRef::Open).collect()
}

fn read_open(cards: &[CardRef]) -> Option<Vec<String>> {
    cards.iter().map(|c| if let CardRef::Open(id) = c { Some(id.clone()) } else { None }).collect()
}

/// A parameter option, kept only when its template filled with `sample` validates (the values a
/// pick may choose are all alike, so one sample stands for them). The arguments are the fields of
/// the option and of its `Pick::Param`, spelled out so each call reads as the option it makes.
#[allow(clippy::too_many_arguments)]
fn param_option(
    s: &FateState,
    seat: Seat,
    label: String,
    concerns: Vec<Concern>,
    param: Param,
    template: FateEvent,
    fill: fn(&FateEvent, &[String]) -> Option<FateEvent>,
    read: fn(&FateEvent) -> Option<Vec<String>>,
    sample: &[String],
) -> Option<GameOption<FateEvent>> {
    let filled = fill(&template, sample)?;
    if !validate(s, &filled).is_empty() {
        return None;
    }
    Some(GameOption { seat, label, concerns, pick: Pick::Param { param, template, fill, read } })
}

/// Cards of the seat's own deck a physical deal or draw gave it (the seat searches or draws its
/// own deck, so it sees their names): `count` of them.
fn drawn_option(
    s: &FateState,
    seat: Seat,
    label: String,
    count: usize,
    template: FateEvent,
    fill: fn(&FateEvent, &[String]) -> Option<FateEvent>,
    read: fn(&FateEvent) -> Option<Vec<String>>,
) -> Option<GameOption<FateEvent>> {
    let concerns = vec![Concern::Zone("deck".into())];
    let values = own_deck(s, seat);
    let sample: Vec<String> = values.iter().take(count).map(|v| v.value.clone()).collect();
    let param = Param::cards(format!("the {count} card(s) you drew"), count, values);
    param_option(s, seat, label, concerns, param, template, fill, read, &sample)
}

/// A die or a pick among `among` for `seat` (recorded as `by`, which is `None` for the deal's
/// lot): at a physical table the result as it fell, as a parameter; at a digital one the draw of
/// the dice chain's round, once every Master revealed its link.
fn random_option(
    s: &FateState,
    seat: Seat,
    by: Option<Seat>,
    label: &str,
    among: Option<Vec<(String, String)>>,
) -> Option<GameOption<FateEvent>> {
    if s.policies.dice == DiceMode::Digital {
        let names = among.map(|a| a.into_iter().map(|(v, _)| v).collect());
        let e = seeded(s, by, names)?;
        return Some(GameOption::event(seat, format!("{label} (from the dice chain)"), vec![], e));
    }
    match among {
        None => die_option(s, seat, by, label),
        Some(among) => pick_option(s, seat, by, label, among),
    }
}

/// A die rolled at a physical table: its value (1 to 6) as it fell.
fn die_option(s: &FateState, seat: Seat, by: Option<Seat>, label: &str) -> Option<GameOption<FateEvent>> {
    let values = (1..=6).map(|v| ParamValue::new(v.to_string(), v.to_string())).collect();
    let param = Param {
        name: "die",
        label: "the die as it fell".into(),
        kind: ParamKind::Number,
        count: 1,
        values,
        secret: None,
    };
    let template = FateEvent::Common(CommonEvent::DieRolled { seat: by, sides: 6, value: 1, seed: None });
    param_option(
        s,
        seat,
        label.to_string(),
        vec![],
        param,
        template,
        |e, v| match e {
            FateEvent::Common(CommonEvent::DieRolled { seat, sides, .. }) => {
                let value = v.first()?.parse().ok()?;
                Some(FateEvent::Common(CommonEvent::DieRolled { seat: *seat, sides: *sides, value, seed: None }))
            }
            _ => None,
        },
        |e| match e {
            FateEvent::Common(CommonEvent::DieRolled { value, seed: None, .. }) => Some(vec![value.to_string()]),
            _ => None,
        },
        &["1".to_string()],
    )
}

/// A random pick made at a physical table (a lot, a random Servant): the result as it fell.
fn pick_option(
    s: &FateState,
    seat: Seat,
    by: Option<Seat>,
    label: &str,
    among: Vec<(String, String)>,
) -> Option<GameOption<FateEvent>> {
    let values =
        among.iter().enumerate().map(|(i, (_, label))| ParamValue::new(i.to_string(), label.clone())).collect();
    let names = among.into_iter().map(|(v, _)| v).collect();
    let param = Param {
        name: "picked",
        label: "the result as it fell".into(),
        kind: ParamKind::Choice,
        count: 1,
        values,
        secret: None,
    };
    let template = FateEvent::Common(CommonEvent::RandomPicked { seat: by, among: names, picked: 0, seed: None });
    param_option(
        s,
        seat,
        label.to_string(),
        vec![],
        param,
        template,
        |e, v| match e {
            FateEvent::Common(CommonEvent::RandomPicked { seat, among, .. }) => {
                let picked = v.first()?.parse().ok()?;
                let c = CommonEvent::RandomPicked { seat: *seat, among: among.clone(), picked, seed: None };
                Some(FateEvent::Common(c))
            }
            _ => None,
        },
        |e| match e {
            FateEvent::Common(CommonEvent::RandomPicked { picked, seed: None, .. }) => Some(vec![picked.to_string()]),
            _ => None,
        },
        &["0".to_string()],
    )
}

/// A secret only the seat's page holds (64 hex digits), kept when the rules refuse nothing but
/// what the value decides (`KIFU-SEED-1`: a link that does not hash to the last one).
fn secret_option(
    s: &FateState,
    seat: Seat,
    label: &str,
    (name, form): (&'static str, SecretForm),
    template: FateEvent,
    fill: fn(&FateEvent, &[String]) -> Option<FateEvent>,
    read: fn(&FateEvent) -> Option<Vec<String>>,
) -> Option<GameOption<FateEvent>> {
    if validate(s, &template).iter().any(|v| v.rule != "KIFU-SEED-1") {
        return None;
    }
    let param = Param {
        name,
        label: format!("{name} (64 hex digits your page holds)"),
        kind: ParamKind::Secret,
        count: 1,
        values: vec![],
        secret: Some(form),
    };
    Some(GameOption {
        seat,
        label: label.to_string(),
        concerns: vec![],
        pick: Pick::Param { param, template, fill, read },
    })
}

fn secret(v: &[String]) -> Option<Commitment> {
    Commitment::from_hex(v.first()?).ok()
}

/// Links in the dice chain a seat's page makes: more than the random outcomes of any one game
/// (the agent's chains are as long).
pub const DICE_CHAIN_LENGTH: u32 = 4096;

/// A digital game's dice chain: the tip at the deal, then a link before each random outcome.
fn dice_chain(s: &FateState, seat: Seat, o: &mut Vec<GameOption<FateEvent>>) {
    if s.policies.dice != DiceMode::Digital {
        return;
    }
    if !s.ledger.chain_is_committed(DICE_CHAIN, seat) {
        let template =
            FateEvent::Common(CommonEvent::ChainCommitted { key: DICE_CHAIN.into(), seat, tip: Commitment([0; 32]) });
        o.extend(secret_option(
            s,
            seat,
            "Commit to your dice chain",
            ("tip", SecretForm::ChainTip { key: DICE_CHAIN.into(), length: DICE_CHAIN_LENGTH }),
            template,
            |e, v| match e {
                FateEvent::Common(CommonEvent::ChainCommitted { key, seat, .. }) => {
                    Some(FateEvent::Common(CommonEvent::ChainCommitted {
                        key: key.clone(),
                        seat: *seat,
                        tip: secret(v)?,
                    }))
                }
                _ => None,
            },
            |e| match e {
                FateEvent::Common(CommonEvent::ChainCommitted { tip, .. }) => Some(vec![tip.to_hex()]),
                _ => None,
            },
        ));
        return;
    }
    let living = s.living();
    let all_committed = living.iter().all(|x| s.ledger.chain_is_committed(DICE_CHAIN, *x));
    let Some(revealed) = s.ledger.chain_link_due(DICE_CHAIN, seat).filter(|_| all_committed) else {
        return;
    };
    let template =
        FateEvent::Common(CommonEvent::ChainLinkRevealed { key: DICE_CHAIN.into(), seat, link: Commitment([0; 32]) });
    o.extend(secret_option(
        s,
        seat,
        "Reveal your next dice-chain link",
        ("link", SecretForm::ChainLink { key: DICE_CHAIN.into(), revealed }),
        template,
        |e, v| match e {
            FateEvent::Common(CommonEvent::ChainLinkRevealed { key, seat, .. }) => {
                Some(FateEvent::Common(CommonEvent::ChainLinkRevealed {
                    key: key.clone(),
                    seat: *seat,
                    link: secret(v)?,
                }))
            }
            _ => None,
        },
        |e| match e {
            FateEvent::Common(CommonEvent::ChainLinkRevealed { link, .. }) => Some(vec![link.to_hex()]),
            _ => None,
        },
    ));
}

fn setup(s: &FateState, seat: Seat, o: &mut Vec<GameOption<FateEvent>>) {
    let Some(m) = s.master(seat) else { return };
    if m.servant.is_none() {
        // The Master searches its own deck for a Heroic Spirit and a Class.
        let of = |k: CardType| -> Vec<&String> { m.deck.iter().filter(|c| s.kind(c) == Some(k)).collect() };
        for hs in of(CardType::HeroicSpirit) {
            for class in of(CardType::Class) {
                o.push(GameOption::event(
                    seat,
                    format!("Set {} and {} face down as your Servant", card_name(s, hs), card_name(s, class)),
                    vec![Concern::Card(hs.clone()), Concern::Card(class.clone())],
                    FateEvent::ServantSet {
                        seat,
                        heroic_spirit: CardRef::Open(hs.clone()),
                        class: CardRef::Open(class.clone()),
                    },
                ));
            }
        }
        return;
    }
    if !m.dealt {
        let n = usize::from(s.policies.opening_hand).min(m.deck_count);
        o.extend(drawn_option(
            s,
            seat,
            format!("Draw your opening hand ({n} cards)"),
            n,
            FateEvent::CardsDealt { seat, cards: vec![] },
            |e, v| match e {
                FateEvent::CardsDealt { seat, .. } => Some(FateEvent::CardsDealt { seat: *seat, cards: open_cards(v) }),
                _ => None,
            },
            |e| match e {
                FateEvent::CardsDealt { cards, .. } => read_open(cards),
                _ => None,
            },
        ));
        return;
    }
    // The lot for the first Active Master at a physical table: the first living Master's page
    // offers it, so it is offered once (a digital lot is an automatic step).
    let ready = s.seats().all(|x| s.master(x).is_some_and(|m| m.servant.is_some() && m.dealt));
    let living = s.living();
    if ready
        && s.policies.first_master == FirstMaster::Lot
        && s.policies.dice == DiceMode::Physical
        && s.pending.is_empty()
        && living.first() == Some(&seat)
    {
        let among = seat_labels(&living).into_iter().zip(living.iter().map(|x| s.name(*x))).collect();
        o.extend(random_option(s, seat, None, "Record the lot for the first Active Master", Some(among)));
    }
}

/// The actions of the step `seat` owes (its turn's steps, its part of a battle).
fn turn(s: &FateState, seat: Seat, rules: Rules, o: &mut Vec<GameOption<FateEvent>>) {
    if s.step == Step::TurnOver {
        turn_over(s, seat, o);
        return;
    }
    if s.step == Step::Battle {
        battle(s, seat, o);
        return;
    }
    if s.turn_master != Some(seat) {
        return;
    }
    let Some(m) = s.master(seat) else { return };
    match s.step {
        Step::Stand => o.push(stand_step(s, seat, rules)),
        Step::Draw => draw_step(s, seat, m.deck_count, o),
        Step::Ritual => ritual(s, seat, o),
        Step::Encounter if s.pending.is_empty() => encounter_step(s, seat, o),
        Step::Declare => declare_step(s, seat, o),
        Step::End => end_step(s, seat, m.hand.len(), o),
        _ => {}
    }
}

/// The stand step: up to version 3 every Resting card at once; from version 4 named (FATE-TURN-1).
fn stand_step(s: &FateState, seat: Seat, rules: Rules) -> GameOption<FateEvent> {
    if !rules.owed_steps {
        return GameOption::event(seat, "Stand your resting cards", vec![], FateEvent::CardsStood { seat });
    }
    let (servant, signs) = s.to_stand(seat);
    let mut names: Vec<String> = signs.iter().map(|c| card_name(s, c)).collect();
    if servant {
        names.insert(0, "your Servant".into());
    }
    let label = match names.len() {
        0 => "Stand: nothing is Resting".to_string(),
        _ => format!("Stand {}", names.join(", ")),
    };
    GameOption::event(seat, label, vec![], s.stand_step(seat))
}

/// Between turns: the Active Master hands its status over, or the next Master starts its turn.
fn turn_over(s: &FateState, seat: Seat, o: &mut Vec<GameOption<FateEvent>>) {
    if s.handover_due() {
        if let Some(from) = s.active_master.filter(|a| *a == seat) {
            let to = s.next_living(from);
            o.push(GameOption::event(
                seat,
                format!("Hand the Active Master status to {}", s.name(to)),
                vec![],
                FateEvent::ActiveMasterHandedOver { from, to },
            ));
        }
    } else if s.step_owner() == Some(seat) {
        o.push(GameOption::event(seat, "Start your turn", vec![], FateEvent::TurnStarted { seat }));
    }
}

/// The draw step: a card of the seat's own deck, or nothing from an empty deck.
fn draw_step(s: &FateState, seat: Seat, deck_count: usize, o: &mut Vec<GameOption<FateEvent>>) {
    use FateEvent::CardDrawn;
    if deck_count == 0 {
        let label = "Draw a card (your deck is empty)";
        o.push(GameOption::event(seat, label, vec![Concern::Zone("deck".into())], CardDrawn { seat, card: None }));
        return;
    }
    o.extend(drawn_option(
        s,
        seat,
        "Draw a card".into(),
        1,
        CardDrawn { seat, card: None },
        |e, v| match e {
            CardDrawn { seat, .. } => Some(CardDrawn { seat: *seat, card: open_cards(v).pop() }),
            _ => None,
        },
        |e| match e {
            CardDrawn { card: Some(CardRef::Open(c)), .. } => Some(vec![c.clone()]),
            _ => None,
        },
    ));
}

/// The encounter step: the random Servant once the die called for one, else the die.
fn encounter_step(s: &FateState, seat: Seat, o: &mut Vec<GameOption<FateEvent>>) {
    if s.encounter_pending {
        let candidates = servant_candidates(s, seat);
        let among = seat_labels(&candidates).into_iter().zip(candidates.iter().map(|x| s.name(*x))).collect();
        o.extend(random_option(s, seat, Some(seat), "Draw the random Servant", Some(among)));
    } else {
        o.extend(random_option(s, seat, Some(seat), "Roll the encounter die", None));
    }
}

/// The declare step: an assault on each living Master, or none.
fn declare_step(s: &FateState, seat: Seat, o: &mut Vec<GameOption<FateEvent>>) {
    for target in s.living() {
        o.push(GameOption::event(
            seat,
            format!("Declare an assault on {}", s.name(target)),
            vec![Concern::Zone(format!("{}'s servant", s.name(target)))],
            FateEvent::AssaultDeclared { seat, target },
        ));
    }
    o.push(GameOption::event(seat, "Declare no assault", vec![], FateEvent::BattleStepSkipped { seat }));
}

/// The end step: discarding down to 4 cards (which cards, a parameter), then ending the turn.
fn end_step(s: &FateState, seat: Seat, in_hand: usize, o: &mut Vec<GameOption<FateEvent>>) {
    use FateEvent::HandDiscarded;
    if in_hand >= 5 {
        let values: Vec<ParamValue> = known_hand(s, seat).iter().map(|c| value(s, c)).collect();
        let count = in_hand - 4;
        let sample: Vec<String> = values.iter().take(count).map(|v| v.value.clone()).collect();
        let param = Param::cards(format!("the {count} card(s) you discard"), count, values);
        o.extend(param_option(
            s,
            seat,
            format!("Discard down to 4 cards ({count})"),
            vec![Concern::Zone("hand".into())],
            param,
            HandDiscarded { seat, cards: vec![] },
            |e, v| match e {
                HandDiscarded { seat, .. } => Some(HandDiscarded { seat: *seat, cards: v.to_vec() }),
                _ => None,
            },
            |e| match e {
                HandDiscarded { cards, .. } => Some(cards.clone()),
                _ => None,
            },
            &sample,
        ));
    }
    o.push(GameOption::event(seat, "End your turn", vec![], FateEvent::TurnEnded { seat }));
}

fn unveil_all(s: &FateState, seat: Seat) -> Vec<Unveiled> {
    s.master(seat)
        .and_then(|m| m.servant.as_ref())
        .map(|sv| {
            sv.cards().iter().filter_map(|h| h.known()).map(|c| Unveiled { card: c.to_string(), salt: None }).collect()
        })
        .unwrap_or_default()
}

fn ritual(s: &FateState, seat: Seat, o: &mut Vec<GameOption<FateEvent>>) {
    use FateEvent::*;
    let Some(m) = s.master(seat) else { return };
    for c in known_hand(s, seat).into_iter().filter(|c| s.kind(c) == Some(CardType::SecretSign)) {
        o.push(GameOption::event(
            seat,
            format!("Place {} as a Secret Sign", card_name(s, &c)),
            vec![Concern::Card(c.clone()), Concern::Zone("secret-signs".into())],
            SecretSignPlaced { seat, card: c },
        ));
    }
    let n = 2.min(m.deck_count);
    let cards = unveil_all(s, seat);
    let label = format!("Reveal your Servant and draw {n}");
    let template = ServantRevealed { seat, cards, drawn: vec![] };
    if n == 0 {
        o.push(GameOption::event(seat, label, vec![Concern::Zone("servant".into())], template));
    } else {
        o.extend(drawn_option(
            s,
            seat,
            label,
            n,
            template,
            |e, v| match e {
                ServantRevealed { seat, cards, .. } => {
                    Some(ServantRevealed { seat: *seat, cards: cards.clone(), drawn: open_cards(v) })
                }
                _ => None,
            },
            |e| match e {
                ServantRevealed { drawn, .. } => read_open(drawn),
                _ => None,
            },
        ));
    }
    o.push(GameOption::event(seat, "End the ritual step", vec![], RitualStepEnded { seat }));
}

/// A battle's processes: the attack types are the attacker's and the responder's; the reveal,
/// the damage and the end (no choice in them) either Master of the battle records; the card
/// taken from a hand is the winner's.
fn battle(s: &FateState, seat: Seat, o: &mut Vec<GameOption<FateEvent>>) {
    use FateEvent::*;
    let Some(b) = s.battle.as_ref() else { return };
    let of_battle = seat == b.attacker || seat == b.responder;
    let (a, r) = (s.name(b.attacker), s.name(b.responder));
    match b.process {
        Process::Reveal if of_battle => {
            let face_down: Vec<Seat> = [b.attacker, b.responder]
                .into_iter()
                .filter(|x| s.master(*x).and_then(|m| m.servant.as_ref()).is_some_and(|v| v.face_down))
                .collect();
            let concerns = face_down.iter().map(|x| Concern::Zone(format!("{}'s servant", s.name(*x)))).collect();
            let servants =
                face_down.into_iter().map(|x| ServantUnveiled { seat: x, cards: unveil_all(s, x) }).collect();
            o.push(GameOption::event(
                seat,
                "Reveal the Servants of the battle",
                concerns,
                BattleServantsRevealed { servants },
            ));
        }
        Process::Battle if of_battle => {
            o.push(GameOption::event(seat, "End the battle process", vec![], BattleProcessEnded));
        }
        Process::Attack | Process::Response => {
            let (chooser, verb) =
                if b.process == Process::Attack { (b.attacker, "Attack") } else { (b.responder, "Respond") };
            if seat == chooser {
                for (attack, how) in [(AttackType::Physical, "physical"), (AttackType::Magical, "magical")] {
                    o.push(GameOption::event(
                        seat,
                        format!("{verb} with a {how} attack"),
                        vec![],
                        AttackTypeChosen { seat, attack },
                    ));
                }
            }
        }
        Process::Wounding if of_battle => {
            let (to_attacker, to_responder) = s.expected_damage(b);
            o.push(GameOption::event(
                seat,
                format!("Deal the damage: {to_attacker} to {a}, {to_responder} to {r}"),
                vec![],
                DamageDealt { to_attacker, to_responder },
            ));
        }
        Process::Retreat => retreat(s, seat, o),
        _ => {}
    }
}

fn retreat(s: &FateState, seat: Seat, o: &mut Vec<GameOption<FateEvent>>) {
    use FateEvent::*;
    let Some(b) = s.battle.as_ref() else { return };
    let take = s.hand_take(b).filter(|_| !b.card_taken);
    let hand = take.and_then(|(_, loser)| s.master(loser)).map(|m| m.hand.as_slice()).unwrap_or_default();
    match take {
        Some((winner, loser)) if !hand.is_empty() => {
            if seat != winner || !s.pending.is_empty() {
                return;
            }
            let zone = format!("{}'s hand", s.name(loser));
            if s.policies.hand_pick == HandPick::Blind {
                let among = position_labels(hand.len())
                    .into_iter()
                    .enumerate()
                    .map(|(i, l)| (l, format!("card {} of {zone}", i + 1)))
                    .collect();
                o.extend(random_option(s, seat, Some(winner), "Draw the card to take at random", Some(among)));
                return;
            }
            // The loser hands a card over: the winner records which one by its place, named
            // only when the winner may see it.
            for (index, h) in hand.iter().enumerate() {
                let Ok(i) = u8::try_from(index) else { continue };
                let what = match h.known() {
                    Some(c) if visible(s, seat, c) => format!("{} (card {} of {zone})", card_name(s, c), index + 1),
                    _ => format!("card {} of {zone}", index + 1),
                };
                let concerns = vec![match h.known() {
                    Some(c) => concern(s, seat, c, &zone),
                    None => Concern::Zone(zone.clone()),
                }];
                o.push(GameOption::event(
                    seat,
                    format!("Take {what}"),
                    concerns,
                    CardTakenFromHand { winner, loser, index: i, card: held_ref(h) },
                ));
            }
        }
        _ if seat == b.attacker || seat == b.responder => {
            o.push(GameOption::event(seat, "End the battle", vec![], BattleEnded));
        }
        _ => {}
    }
}

/// Command Spells (FATE-CS-3), any moment: the seat's own.
fn command_spells(s: &FateState, seat: Seat, o: &mut Vec<GameOption<FateEvent>>) {
    let Some(m) = s.master(seat) else { return };
    let mut spells = vec![
        (SpellUse::PranaRestored, "restore one prana".to_string(), vec![]),
        (SpellUse::ServantStood, "stand your Servant up".to_string(), vec![]),
    ];
    for (stat, name) in [
        (Stat::PhysicalAttack, "physical attack"),
        (Stat::PhysicalDefense, "physical defense"),
        (Stat::MagicalAttack, "magical attack"),
        (Stat::MagicalDefense, "magical defense"),
    ] {
        spells.push((SpellUse::StatRaised(stat), format!("raise your Servant's {name}"), vec![]));
    }
    for mark in &m.marks {
        spells.push((SpellUse::MarkRemoved(mark.clone()), format!("remove the mark {mark:?}"), vec![]));
    }
    if let Some(sv) = &m.servant {
        for c in sv.cards().iter().filter_map(|h| h.known()) {
            let effects = s.def(c).map(|d| d.effects.len()).unwrap_or_default();
            for i in 0..effects {
                let Ok(effect) = u8::try_from(i) else { continue };
                spells.push((
                    SpellUse::EffectUsedFree { card: c.to_string(), effect },
                    format!("use {}'s effect {} without its cost", card_name(s, c), i + 1),
                    vec![Concern::Card(c.to_string())],
                ));
            }
        }
    }
    for (spell, what, concerns) in spells {
        o.push(GameOption::event(
            seat,
            format!("Use a Command Spell: {what}"),
            concerns,
            FateEvent::CommandSpellUsed { seat, spell },
        ));
    }
}

/// The cards on a Master's field whose effects it may activate: its Secret Signs and its face-up Servant.
fn field_cards(s: &FateState, seat: Seat) -> Vec<String> {
    let Some(m) = s.master(seat) else { return Vec::new() };
    let mut cards: Vec<String> = m.signs.iter().map(|x| x.card.clone()).collect();
    if let Some(sv) = m.servant.as_ref().filter(|x| !x.face_down) {
        cards.extend(sv.cards().iter().filter_map(|h| h.known().map(str::to_string)));
    }
    cards
}

/// The Standing cards a rest cost of `seat` may use (its own, or anyone's under `rest_cost=any`).
fn rest_pool(s: &FateState, seat: Seat) -> Vec<String> {
    s.seats()
        .filter(|x| *x == seat || s.policies.rest_cost == RestCost::Any)
        .flat_map(|x| {
            let Some(m) = s.master(x) else { return Vec::new() };
            let mut v: Vec<String> =
                m.signs.iter().filter(|g| g.pose == Pose::Standing).map(|g| g.card.clone()).collect();
            if let Some(sv) = m.servant.as_ref().filter(|v| !v.face_down && v.pose == Pose::Standing) {
                v.extend(sv.heroic_spirit.known().map(str::to_string));
            }
            v
        })
        .collect()
}

/// A placeholder in a template's payments, filled in order with the cards picked.
const PICKED: &str = "";

/// The activations of the [Activated] effects on `seat`'s field, paying the costs left to right:
/// the cards it rests and discards are the parameter; the dice are those already recorded (an
/// effect that still needs one offers the roll instead).
fn activations(s: &FateState, seat: Seat, o: &mut Vec<GameOption<FateEvent>>) {
    let mut roll_for: Option<String> = None;
    let pool = rest_pool(s, seat);
    let hand = known_hand(s, seat);
    for card in field_cards(s, seat) {
        let effects = s.def(&card).map(|d| d.effects.clone()).unwrap_or_default();
        for (i, e) in effects.iter().enumerate().filter(|(_, e)| e.kind == EffectKind::Activated) {
            let Ok(effect) = u8::try_from(i) else { continue };
            let (mut paid, mut sample, mut succeeded, mut dice) = (Vec::new(), Vec::new(), true, 0usize);
            let mut used: Vec<String> = Vec::new();
            let mut discards = 0usize;
            let mut ready = true;
            for cost in e.costs() {
                match cost {
                    Cost::Tap => {
                        used.push(card.clone());
                        paid.push(Payment::Tapped);
                    }
                    Cost::Rest(n) => {
                        let free: Vec<&String> = pool.iter().filter(|c| !used.contains(c)).collect();
                        let take: Vec<String> = free.into_iter().take(usize::from(n)).cloned().collect();
                        paid.push(Payment::Rested(vec![PICKED.to_string(); take.len()]));
                        used.extend(take.iter().cloned());
                        sample.extend(take);
                    }
                    Cost::Die(faces) => {
                        let Some(r) = pending_die(s, dice) else {
                            ready = false;
                            break;
                        };
                        dice += 1;
                        paid.push(Payment::Rolled);
                        if !faces.contains(&r) {
                            succeeded = false;
                            break;
                        }
                    }
                    Cost::Discard(n) => {
                        let take: Vec<String> = hand.iter().skip(discards).take(usize::from(n)).cloned().collect();
                        discards += take.len();
                        paid.push(Payment::Discarded(vec![PICKED.to_string(); take.len()]));
                        sample.extend(take);
                    }
                    Cost::X => paid.push(Payment::XPaid("as the card says".to_string())),
                }
            }
            let name = card_name(s, &card);
            if !ready {
                roll_for.get_or_insert(name);
                continue;
            }
            let label =
                format!("Activate {name}'s effect {}{}", i + 1, if succeeded { "" } else { " (the roll failed)" });
            let event = FateEvent::EffectActivated { seat, card: card.clone(), effect, paid, succeeded };
            let concerns = vec![Concern::Card(card.clone())];
            if sample.is_empty() {
                o.push(GameOption::event(seat, label, concerns, event));
                continue;
            }
            let mut values: Vec<ParamValue> = pool.iter().map(|c| value(s, c)).collect();
            values.extend(hand.iter().map(|c| value(s, c)));
            let param = Param::cards(
                "the cards you rest, then the cards you discard, in cost order".into(),
                sample.len(),
                values,
            );
            o.extend(param_option(s, seat, label, concerns, param, event, fill_paid, read_paid, &sample));
        }
    }
    // A die for an activation's cost: at most one option, the die is the same for any effect.
    if let Some(name) = roll_for {
        o.extend(random_option(s, seat, Some(seat), &format!("Roll a die for {name}'s cost"), None));
    }
}

/// The activation with the picked cards in its payments' placeholders, in order.
fn fill_paid(e: &FateEvent, v: &[String]) -> Option<FateEvent> {
    let FateEvent::EffectActivated { seat, card, effect, paid, succeeded } = e else { return None };
    let mut picked = v.iter();
    let mut fill = |cards: &[String]| -> Option<Vec<String>> {
        cards.iter().map(|c| if c == PICKED { picked.next().cloned() } else { Some(c.clone()) }).collect()
    };
    let paid = paid
        .iter()
        .map(|p| match p {
            Payment::Rested(c) => fill(c).map(Payment::Rested),
            Payment::Discarded(c) => fill(c).map(Payment::Discarded),
            other => Some(other.clone()),
        })
        .collect::<Option<Vec<_>>>()?;
    if picked.next().is_some() {
        return None;
    }
    Some(FateEvent::EffectActivated { seat: *seat, card: card.clone(), effect: *effect, paid, succeeded: *succeeded })
}

/// The cards an activation rested and discarded, in cost order.
fn read_paid(e: &FateEvent) -> Option<Vec<String>> {
    let FateEvent::EffectActivated { paid, .. } = e else { return None };
    Some(
        paid.iter()
            .flat_map(|p| match p {
                Payment::Rested(c) | Payment::Discarded(c) => c.clone(),
                _ => Vec::new(),
            })
            .collect(),
    )
}
