//! Uniform exploration of a game's options: a player that picks uniformly among every option
//! offered to any seat and uniformly among each parameter's offered values, recording through
//! the same path a page's pick takes ([`record::resolve_pick`], then the automatic steps
//! [`record::automatic_step`] makes due). What it finds is what a table could run into: a state
//! where the game is not over and no seat has an option (a dead end), or an offered pick the
//! rules refuse. The test suite and `tools/bench-options` run it over many seeds.

use std::collections::BTreeMap;

use rand::seq::{IndexedRandom, SliceRandom};
use rand::{Rng, RngExt, SeedableRng};

use super::commit::{self, AgentSecrets, Commitment, Secret};
use super::options::{self, GameOption, ParamKind, SecretForm};
use super::record::{self, MAX_AUTOMATIC};
use super::replay::{Replay, Step};
use super::{audit, AgentRng, Game, GameEntry};
use crate::log::envelope::{Actor, Timestamp};

/// Consecutive refused picks after which a state counts as a dead end: every pick tried there
/// was refused, so nothing the seats are offered moves the game on.
const STUCK_AFTER: usize = 64;

/// How one explored game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The rules ended it.
    Over,
    /// It reached the event cap while still running (not a failure: a long game).
    Capped,
    /// Not over, and no seat had an option (or every pick tried was refused): `what` says where.
    DeadEnd { what: String },
    /// The game does not set up from its configuration, or has no options table.
    NotPlayable { what: String },
}

/// One explored game: how it ended, its events, and the picks the rules refused with what was
/// picked and why.
#[derive(Clone, Debug)]
pub struct Explored {
    pub ending: Ending,
    pub events: usize,
    pub picks: usize,
    pub refused: Vec<String>,
    /// The rules' reason the game ended, or at a dead end the state it stopped in (for reports).
    pub detail: String,
}

/// What a seat's own device holds for the secrets it is asked for (seeds, chains, sealed cards),
/// made the way a seat's page makes them from a parameter's [`SecretForm`].
#[derive(Default)]
struct Device {
    seeds: BTreeMap<String, Secret>,
    chains: BTreeMap<String, Vec<Secret>>,
    sealed: BTreeMap<Commitment, (String, Secret)>,
}

fn fresh(rng: &mut AgentRng) -> Secret {
    let mut b = [0u8; 32];
    rng.fill_bytes(&mut b);
    Commitment(b)
}

impl Device {
    /// The values a seat's page sends for a secret parameter of form `form` over `cards`;
    /// `None` when the device holds no secret the form asks for.
    fn fill(&mut self, form: &SecretForm, cards: &[String], rng: &mut AgentRng) -> Option<Vec<String>> {
        Some(match form {
            SecretForm::SeedCommitment { key } => {
                let seed = fresh(rng);
                self.seeds.insert(key.clone(), seed);
                vec![commit::commit_seed(&seed).to_string()]
            }
            SecretForm::SeedReveal { key } => vec![self.seeds.get(key)?.to_string()],
            SecretForm::ChainTip { key, length } => {
                let chain = commit::hash_chain(&fresh(rng), *length as usize);
                let tip = chain.last()?.to_string();
                self.chains.insert(key.clone(), chain);
                vec![tip]
            }
            SecretForm::ChainLink { key, revealed } => {
                let chain = self.chains.get(key)?;
                let at = chain.len().checked_sub(2 + *revealed as usize)?;
                vec![chain.get(at)?.to_string()]
            }
            SecretForm::SealedPlacement { places } => {
                let mut places = places.clone();
                places.shuffle(rng);
                let mut out = Vec::new();
                for (card, place) in cards.iter().zip(places) {
                    if rng.random_bool(0.5) {
                        out.push(format!("{place}:open:{card}"));
                    } else {
                        let salt = fresh(rng);
                        let sealed = commit::seal(card, &salt);
                        self.sealed.insert(sealed, (card.clone(), salt));
                        out.push(format!("{place}:sealed:{sealed}"));
                    }
                }
                out
            }
            SecretForm::CardProof { commitment } => {
                let (card, salt) = self.sealed.get(commitment)?;
                vec![card.clone(), salt.to_string()]
            }
        })
    }
}

/// The values of `option`'s parameter, picked uniformly within its declared bounds: `count`
/// distinct offered values (a value listed twice may come twice), none for dealt cards (kifu
/// deals them), a secret as the seat's device makes it.
fn pick_values<E>(
    option: &GameOption<E>,
    device: &mut Device,
    rng: &mut AgentRng,
) -> Option<BTreeMap<String, Vec<String>>> {
    let Some(param) = option.param() else { return Some(BTreeMap::new()) };
    let picked = match param.kind {
        ParamKind::Dealt => Vec::new(),
        ParamKind::Secret => {
            let form = param.secret.as_ref()?;
            let cards: Vec<String> = param.values.iter().take(param.count).map(|v| v.value.clone()).collect();
            device.fill(form, &cards, rng)?
        }
        _ => {
            // In a random order, each value unless its group is taken: `count` values, at most
            // one of each group, every such pick equally possible.
            let mut order: Vec<&options::ParamValue> = param.values.iter().collect();
            order.shuffle(rng);
            let mut groups = std::collections::BTreeSet::new();
            let mut picked = Vec::with_capacity(param.count);
            for v in order {
                if picked.len() < param.count && v.groups().all(|g| !groups.contains(g)) {
                    groups.extend(v.groups());
                    picked.push(v.value.clone());
                }
            }
            picked
        }
    };
    Some([(param.name.to_string(), picked)].into())
}

/// Every option open to any seat not out of the game, one per option id (as a page lists them).
fn offered<G: Game>(replay: &Replay<G>, players: usize) -> Option<Vec<GameOption<G::Event>>> {
    let tip = replay.tip();
    let out = tip.eliminated();
    let mut all: Vec<GameOption<G::Event>> = Vec::new();
    let mut ids = std::collections::BTreeSet::new();
    for seat in (0..G::SEATS.max).filter(|s| usize::from(*s) < players && !out.contains(s)) {
        for o in G::options(&tip.game, seat)? {
            if ids.insert(options::option_id(replay.len(), &o)) {
                all.push(o);
            }
        }
    }
    Some(all)
}

/// An explored game in progress: the replay it records into, the dealer kifu would be, and each
/// seat's device.
struct Run<G: Game> {
    replay: Replay<G>,
    players: Vec<String>,
    dealer: Option<AgentSecrets>,
    devices: Vec<Device>,
}

impl<G: Game> Run<G> {
    fn push(&mut self, actor: Actor, event: G::Event) {
        let seq = self.replay.len();
        self.replay.push(Step { seq, recorded_at: Timestamp(0), actor, entry: GameEntry::Played(event) });
    }

    /// Records the automatic steps due (at most [`MAX_AUTOMATIC`]), as a pick's append does;
    /// the violations of the first one the recorder would refuse.
    fn settle(&mut self) -> Result<(), String> {
        for _ in 0..=MAX_AUTOMATIC {
            let Some(event) = record::automatic_step(self.replay.tip(), self.dealer.as_ref()) else { return Ok(()) };
            self.checked(Actor::System, &event)?;
            self.push(Actor::System, event);
        }
        Ok(())
    }

    /// What the recorder checks of an entry (actor, seat, awaited, rules), as text.
    fn checked(&self, actor: Actor, event: &G::Event) -> Result<(), String> {
        let step =
            Step { seq: self.replay.len(), recorded_at: Timestamp(0), actor, entry: GameEntry::Played(event.clone()) };
        let v = audit::step_violations::<G>(&self.players, self.replay.tip(), &step);
        if v.is_empty() {
            Ok(())
        } else {
            Err(v.iter().map(|v| format!("{}: {}", v.rule, v.message)).collect::<Vec<_>>().join("; "))
        }
    }

    /// One uniform pick among `offered`: `Ok(true)` when recorded, `Ok(false)` when refused
    /// (noted in `refused`).
    fn pick(&mut self, offered: &[GameOption<G::Event>], rng: &mut AgentRng, refused: &mut Vec<String>) -> bool {
        let Some(option) = offered.choose(rng) else { return false };
        let len = self.replay.len();
        let id = options::option_id(len, option);
        let seat = usize::from(option.seat);
        let params = self.devices.get_mut(seat).and_then(|d| pick_values(option, d, rng));
        let at = || format!("after {len} events ({:?})", self.replay.tip().position());
        let Some(params) = params else {
            refused.push(format!("{} {}: the seat's device holds no secret it asks for", at(), option.label));
            return false;
        };
        let state = &self.replay.tip().game;
        let resolved = record::resolve_pick::<G>(state, self.dealer.as_ref(), offered, len, &id, &params);
        let actor = Actor::Player(super::seat_name(&self.players, option.seat));
        match resolved.map_err(|e| e.to_string()).and_then(|(_, e)| self.checked(actor.clone(), &e).map(|()| e)) {
            Ok(event) => {
                self.push(super::actor_for::<G>(&self.players, &event), event);
                true
            }
            Err(why) => {
                refused.push(format!("{} {:?} with {params:?}: {why}", at(), option.label));
                false
            }
        }
    }
}

/// Plays the game of `config` from `seed` by uniform picks, at most `max_events` events; `dealer`
/// is what kifu holds as the dealer of a game it deals ([`Game::dealer_key`]).
pub fn explore<G: Game>(config: G::Config, dealer: Option<AgentSecrets>, seed: u64, max_events: usize) -> Explored {
    let mut rng = AgentRng::seed_from_u64(seed);
    let mut done = Explored { ending: Ending::Over, events: 0, picks: 0, refused: Vec::new(), detail: String::new() };
    let replay = match Replay::<G>::new(config, Vec::new()) {
        Ok(r) => r,
        Err(v) => {
            done.ending = Ending::NotPlayable { what: format!("{v:?}") };
            return done;
        }
    };
    let players = G::players(&replay.config);
    let devices = (0..players.len()).map(|_| Device::default()).collect();
    let mut run = Run { replay, players, dealer, devices };
    let mut tries = 0;
    done.ending = loop {
        if let Err(why) = run.settle() {
            break Ending::DeadEnd { what: format!("an automatic step is refused: {why}") };
        }
        if run.replay.tip().outcome().is_some() {
            break Ending::Over;
        }
        if run.replay.len() as usize >= max_events {
            break Ending::Capped;
        }
        let Some(offered) = offered(&run.replay, run.players.len()) else {
            break Ending::NotPlayable { what: format!("{} has no options table", G::RULESET) };
        };
        if offered.is_empty() || tries >= STUCK_AFTER {
            let what = if offered.is_empty() { "no seat has an option" } else { "every pick tried is refused" };
            break Ending::DeadEnd {
                what: format!("after {} events, {what}: {:?}", run.replay.len(), run.replay.tip().position()),
            };
        }
        if run.pick(&offered, &mut rng, &mut done.refused) {
            done.picks += 1;
            tries = 0;
        } else {
            tries += 1;
        }
    };
    done.events = run.replay.len() as usize;
    let tip = run.replay.tip();
    done.detail = match (&done.ending, tip.outcome()) {
        (Ending::DeadEnd { .. }, _) => format!("{:?}", tip.game),
        (_, Some(o)) => o.reason,
        (_, None) => String::new(),
    };
    done
}

/// Many explored games of one game in one randomness mode.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    pub games: usize,
    pub over: usize,
    pub capped: usize,
    pub dead_ends: usize,
    pub refused: usize,
    pub events: usize,
    /// The first dead end and the first refusal found, with their seeds.
    pub first_dead_end: Option<(u64, String)>,
    pub first_refusal: Option<(u64, String)>,
    /// The state of the first dead end (its `Debug`), for whoever fixes it.
    pub dead_end_state: Option<String>,
    /// How many games ended for each reason the rules gave (its first words).
    pub reasons: BTreeMap<String, usize>,
    /// How many picks were refused under each rule ID (the first the refusal cites, or
    /// "no rule ID" for a picker's own refusal): where a picker still offers what fails.
    pub refused_by_rule: BTreeMap<String, usize>,
}

/// The first rule ID `refusal` cites (a word such as `NAR-COST-3`: capitals and digits with at
/// least two dashes), if any.
fn rule_cited(refusal: &str) -> Option<&str> {
    refusal.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-')).find(|w| {
        w.matches('-').count() >= 2 && w.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '-')
    })
}

impl Tally {
    fn add(&mut self, seed: u64, e: Explored) {
        self.games += 1;
        self.events += e.events;
        self.refused += e.refused.len();
        for r in &e.refused {
            *self.refused_by_rule.entry(rule_cited(r).unwrap_or("no rule ID").to_string()).or_default() += 1;
        }
        if self.first_refusal.is_none() {
            self.first_refusal = e.refused.first().map(|r| (seed, r.clone()));
        }
        match e.ending {
            Ending::Over => {
                self.over += 1;
                *self.reasons.entry(e.detail.chars().take(40).collect()).or_default() += 1;
            }
            Ending::Capped => self.capped += 1,
            Ending::DeadEnd { what } | Ending::NotPlayable { what } => {
                self.dead_ends += 1;
                if self.first_dead_end.is_none() {
                    self.first_dead_end = Some((seed, what));
                    self.dead_end_state = Some(e.detail);
                }
            }
        }
    }
}

/// `games` games of `G` whose self-play configuration (from seeds 0, 1, …) is in the randomness
/// mode `digital` says (`in_mode`), each explored from its seed with at most `max_events`
/// events. A game kifu deals ([`Game::dealer_key`]) is dealt from the self-play dealer's seed.
/// Seeds whose configuration is in the other mode are skipped (at most 20 per game wanted).
pub fn tally<G: Game>(games: usize, in_mode: impl Fn(&G::Config) -> bool, max_events: usize) -> Tally {
    let players: Vec<String> = (0..G::SEATS.min.max(2)).map(|i| format!("player{i}")).collect();
    let mut t = Tally::default();
    for seed in 0..(games as u64).saturating_mul(20) {
        if t.games >= games {
            break;
        }
        let mut rng = AgentRng::seed_from_u64(seed);
        let (config, secrets) = G::self_play_config(&players, &mut rng);
        if !in_mode(&config) {
            continue;
        }
        let dealer = G::dealer_key(&config).map(|_| secrets);
        t.add(seed, explore::<G>(config, dealer, seed, max_events));
    }
    t
}
