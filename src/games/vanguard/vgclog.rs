//! The vgc-log format: a plain-text action log close to the fan-made client's operations
//! (VGC-LOG-2 saves a log, but the seed does not describe its format, VG-OPEN-2, so kifu defines
//! this one). `kifu game import --from vgc-log FILE` turns it into a game stream.
//!
//! One line per action; `#` starts a comment; blank lines are ignored. A header comes first:
//!
//! ```text
//! vgc-log 1                      # the format and its version
//! stream vg-club-42              # optional: the stream id to create
//! player alice                   # seat 0, then seat 1
//! player bob
//! main alice 4 TA-01             # main deck: COUNT CARD-ID (from the catalog), in list order
//! g alice 2 TA-G1                # G deck
//! policy power_multiple=rule     # optional: an OPEN-point policy (see config.rs)
//! ```
//!
//! Then one action per line: `WHO OPERATION ARGUMENTS`, where `WHO` is a player's name, or
//! `system` for what no player does. Cards are instance ids: `p0-17` is seat 0's 18th main-deck
//! card, `p0-g1` its second G-deck card. Circles are `vc fl bl bc fr br`.
//!
//! | line | event |
//! |---|---|
//! | `alice vanguard p0-0` | the starting vanguard, face down (VG-SETUP-1) |
//! | `system first alice` | the first player |
//! | `alice hand p0-1 p0-2 p0-3 p0-4 p0-5` | the opening hand |
//! | `alice redraw p0-3 p0-4 -> p0-9 p0-12` | a redraw: returned, then drawn |
//! | `system reveal` | both vanguards flipped |
//! | `alice phase ride` | a phase button: `ride` (starts the turn), `main`, `battle`, `end` |
//! | `alice draw p0-7` | left-click the deck (VGC-OP-2) |
//! | `alice check p0-7` | right-click the deck: drive or damage check (VGC-OP-3) |
//! | `alice ride p0-17` | ride from the hand |
//! | `alice move p0-17 fl` | move a card by hand to a circle or `drop damage soul hand guardian bind removed deck deck-bottom g-zone` |
//! | `alice to-top p0-5`, `to-bottom`, `to-hand` | the card menu (VGC-UI-4) |
//! | `alice shuffle`, `alice view-deck` | the deck menu, looking through the deck |
//! | `alice mill p0-5`, `soul-charge p0-5`, `bind-top p0-5` | the deck menu (VGC-UI-5) |
//! | `alice rest p0-17`, `alice stand p0-17` | battle position (VGC-OP-7) |
//! | `alice flip-damage p0-9 down`, `alice flip-g p0-g0 up` | flips (VGC-OP-8, VGC-OP-9) |
//! | `alice lock p1-20`, `unlock`, `delete p1-0`, `undelete` | VGC-OP-10, VGC-OP-11 |
//! | `alice power p0-17 +3000`, `alice power p0-17 =11000` | add or set power (VGC-OP-12) |
//! | `alice stride p0-g0 p0-45` | stride a G unit over a heart |
//! | `alice legion p0-43` | the L button |
//! | `alice trigger p0-45`, `alice trigger p0-45 critical p0-45` | a trigger's power (and critical) |
//! | `alice chat good luck!` | a chat message |
//! | `spectator joined carol`, `spectator left carol` | spectators |
//! | `alice lose six-damage`, `system draw deck-out` | the game's end, as recorded |
//!
//! Lines are recorded as the client recorded them: the import checks only that each line can be
//! read (naming the line number of each one it cannot), not the rules. `kifu game audit` then
//! lists every rule the operations broke, with its rule ID and sequence number.
//!
//! ```text
//! vgc-log 1
//! player alice
//! player bob
//! main alice 1 TA-00
//! ...
//! alice vanguard p0-0
//! bob vanguard p1-0
//! system first alice
//! alice hand p0-17 p0-31 p0-42 p0-1 p0-5
//! bob hand p1-17 p1-31 p1-42 p1-1 p1-5
//! system reveal
//! alice phase ride
//! alice draw p0-21
//! alice ride p0-17
//! alice chat gl hf
//! ```

use std::ops::ControlFlow;

use thiserror::Error;

use super::catalog::{Catalog, DeckList};
use super::config::VanguardConfig;
use super::events::{Circle, ClientOp, LossReason, Phase, Place, PowerEdit, VanguardEvent as E};
use crate::game::policy::{PolicyError, PolicyTable};
use crate::game::{GameEntry, Seat, Violation};
use crate::log::envelope::Actor;

/// A client log read into a configuration and the entries to record.
pub struct ClientLog {
    pub stream: Option<String>,
    pub config: VanguardConfig,
    pub entries: Vec<(Actor, GameEntry<E>)>,
}

fn place(s: &str) -> Option<Place> {
    Some(match s {
        "drop" => Place::Drop,
        "damage" => Place::Damage,
        "soul" => Place::Soul,
        "hand" => Place::Hand,
        "guardian" => Place::Guardian,
        "bind" => Place::Bind,
        "removed" => Place::Removed,
        "deck" => Place::Deck,
        "deck-bottom" => Place::DeckBottom,
        "g-zone" => Place::GZone,
        c => Place::Circle(Circle::parse(c)?),
    })
}

fn place_name(p: Place) -> String {
    match p {
        Place::Drop => "drop".into(),
        Place::Damage => "damage".into(),
        Place::Soul => "soul".into(),
        Place::Hand => "hand".into(),
        Place::Guardian => "guardian".into(),
        Place::Bind => "bind".into(),
        Place::Removed => "removed".into(),
        Place::Deck | Place::DeckSearch => "deck".into(),
        Place::DeckBottom => "deck-bottom".into(),
        Place::GZone => "g-zone".into(),
        Place::Circle(c) => c.name().into(),
    }
}

fn reason(s: &str) -> Option<LossReason> {
    match s {
        "six-damage" => Some(LossReason::SixDamage),
        "deck-out" => Some(LossReason::DeckOut),
        _ => None,
    }
}

/// The most cards a deck section of a log may list (a legal deck has far fewer; the rules say
/// how many): past it the log is refused at once.
pub const DECK_LINES_MAX: usize = 200;

/// Something in a client log that keeps it out: an unreadable line (`line N: ...`), the player
/// count, or the configuration the header lines make.
#[derive(Debug, Error)]
pub enum LogProblem {
    #[error("line {line}: vgc-log version {version} is not supported (this build reads 1)")]
    Version { line: usize, version: String },
    #[error("line {line}: a vgc-log starts with `vgc-log 1`")]
    NoVersion { line: usize },
    #[error("line {line}: player name {name:?} is taken")]
    NameTaken { line: usize, name: String },
    #[error("line {line}: {who:?} is not a player named above")]
    DeckOwner { line: usize, who: String },
    #[error("line {line}: {count:?} is not a card count")]
    Count { line: usize, count: String },
    #[error("line {line}: card {id} is not in the catalog")]
    UnknownCard { line: usize, id: String },
    #[error("line {line}: the {section} deck of {who} would hold more than {DECK_LINES_MAX} cards")]
    DeckTooLong { line: usize, section: String, who: String },
    #[error("line {line}: expected `policy KEY=VALUE`")]
    PolicyShape { line: usize },
    #[error("line {line}: {error}")]
    Policy { line: usize, error: PolicyError },
    #[error("line {line}: {error}")]
    Action { line: usize, error: ActionError },
    #[error("the log names {players} players; a Vanguard game has 2 (`player NAME` lines)")]
    Players { players: usize },
    /// A rule the configuration the header lines make breaks.
    #[error("{0}")]
    Config(Violation),
}

/// An action line that does not read.
#[derive(Debug, Error)]
pub enum ActionError {
    #[error("{who:?} is not a player named in the header, `system` or `spectator`")]
    UnknownActor { who: String },
    #[error("{name:?} is not a player")]
    NotAPlayer { name: String },
    #[error("{reason:?} is not six-damage or deck-out")]
    Reason { reason: String },
    #[error("unknown system action {action:?}")]
    UnknownSystem { action: String },
    #[error("expected `spectator joined NAME` or `spectator left NAME`")]
    Spectator,
    #[error("expected `redraw CARDS -> CARDS`")]
    Redraw,
    #[error("{phase:?} is not a phase")]
    Phase { phase: String },
    #[error("{place:?} is not a place")]
    Place { place: String },
    #[error("{face:?} is not up or down")]
    Face { face: String },
    #[error("{value:?} is not +N, -N or =N")]
    Power { value: String },
    #[error("cannot read {action:?}")]
    Unreadable { action: String },
}

/// Reads a client log against `catalog`. Every line that cannot be read is reported as `line N: ...`.
pub fn parse(text: &str, catalog: &Catalog) -> Result<ClientLog, Vec<LogProblem>> {
    let mut reader = Reader::default();
    for (i, raw) in text.lines().enumerate() {
        if reader.line(i + 1, raw, catalog).is_break() {
            break;
        }
    }
    reader.finish(catalog)
}

/// What a client log said so far, and every line it could not read.
#[derive(Default)]
struct Reader {
    errors: Vec<LogProblem>,
    players: Vec<String>,
    decks: Vec<DeckList>,
    policies: Vec<(usize, String, String)>,
    stream: Option<String>,
    entries: Vec<(Actor, GameEntry<E>)>,
    seen_version: bool,
}

fn seat_in(players: &[String], name: &str) -> Option<Seat> {
    players.iter().position(|p| p == name).and_then(|i| Seat::try_from(i).ok())
}

impl Reader {
    /// Reads line `n`; breaks when the log must be refused at once (a deck past its bound).
    fn line(&mut self, n: usize, raw: &str, catalog: &Catalog) -> ControlFlow<()> {
        let line = raw.split('#').next().unwrap_or("").trim();
        // Chat keeps its '#' characters: only a comment at the start of the text after the verb is cut.
        let line = if raw.split_whitespace().nth(1) == Some("chat") { raw.trim() } else { line };
        if line.is_empty() {
            return ControlFlow::Continue(());
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["vgc-log", "1"] => self.seen_version = true,
            ["vgc-log", v] => self.errors.push(LogProblem::Version { line: n, version: v.to_string() }),
            _ if !self.seen_version => {
                self.errors.push(LogProblem::NoVersion { line: n });
                self.seen_version = true;
            }
            ["stream", id] => self.stream = Some(id.to_string()),
            ["player", name] => self.player(n, name),
            [section @ ("main" | "g"), who, count, id] => return self.deck_line(n, section, who, count, id, catalog),
            ["policy", kv] => match kv.split_once('=') {
                Some((k, v)) => self.policies.push((n, k.to_string(), v.to_string())),
                None => self.errors.push(LogProblem::PolicyShape { line: n }),
            },
            [who, rest @ ..] => {
                let players = &self.players;
                match action(who, rest, line, &|name| seat_in(players, name)) {
                    Ok(entry) => self.entries.push(entry),
                    Err(error) => self.errors.push(LogProblem::Action { line: n, error }),
                }
            }
            [] => {}
        }
        ControlFlow::Continue(())
    }

    fn player(&mut self, n: usize, name: &str) {
        if self.players.iter().any(|p| p == name) || name == "system" || name == "spectator" {
            self.errors.push(LogProblem::NameTaken { line: n, name: name.to_string() });
        }
        self.players.push(name.to_string());
        self.decks.push(DeckList::default());
    }

    /// `main|g PLAYER COUNT CARD`; breaks when the deck would pass [`DECK_LINES_MAX`].
    fn deck_line(
        &mut self,
        n: usize,
        section: &str,
        who: &str,
        count: &str,
        id: &str,
        catalog: &Catalog,
    ) -> ControlFlow<()> {
        let Some(seat) = seat_in(&self.players, who) else {
            self.errors.push(LogProblem::DeckOwner { line: n, who: who.to_string() });
            return ControlFlow::Continue(());
        };
        let Ok(k) = count.parse::<usize>() else {
            self.errors.push(LogProblem::Count { line: n, count: count.to_string() });
            return ControlFlow::Continue(());
        };
        if catalog.get(id).is_none() {
            self.errors.push(LogProblem::UnknownCard { line: n, id: id.to_string() });
            return ControlFlow::Continue(());
        }
        if let Some(d) = self.decks.get_mut(usize::from(seat)) {
            let target = if section == "main" { &mut d.main } else { &mut d.g };
            // Memory stays bounded by the cap, not by the length of the log.
            if target.len() + k > DECK_LINES_MAX {
                self.errors.push(LogProblem::DeckTooLong {
                    line: n,
                    section: section.to_string(),
                    who: who.to_string(),
                });
                return ControlFlow::Break(());
            }
            target.extend(std::iter::repeat_n(id.to_string(), k));
        }
        ControlFlow::Continue(())
    }

    /// The configuration the header lines describe, its policies set, or every error found.
    fn finish(mut self, catalog: &Catalog) -> Result<ClientLog, Vec<LogProblem>> {
        if self.players.len() != 2 {
            self.errors.push(LogProblem::Players { players: self.players.len() });
        }
        let config = match VanguardConfig::new(self.players, self.decks, catalog) {
            Ok(mut c) => {
                for (n, k, v) in self.policies {
                    if let Err(e) = c.set_policy(&k, &v) {
                        self.errors.push(LogProblem::Policy { line: n, error: e });
                    }
                }
                Some(c)
            }
            Err(v) => {
                self.errors.extend(v.into_iter().map(LogProblem::Config));
                None
            }
        };
        match config {
            Some(config) if self.errors.is_empty() => {
                Ok(ClientLog { stream: self.stream, config, entries: self.entries })
            }
            _ => Err(self.errors),
        }
    }
}

/// One action line after its first word `who`: a system, spectator or player action.
fn action(
    who: &str,
    rest: &[&str],
    line: &str,
    seat_of: &dyn Fn(&str) -> Option<Seat>,
) -> Result<(Actor, GameEntry<E>), ActionError> {
    match who {
        "system" => Ok((Actor::System, GameEntry::Played(system_action(rest, seat_of)?))),
        "spectator" => Ok((Actor::System, GameEntry::Played(spectator_action(rest)?))),
        _ => {
            let seat = seat_of(who).ok_or_else(|| ActionError::UnknownActor { who: who.to_string() })?;
            Ok((Actor::Player(who.to_string()), GameEntry::Played(player_action(seat, rest, line)?)))
        }
    }
}

fn system_action(rest: &[&str], seat_of: &dyn Fn(&str) -> Option<Seat>) -> Result<E, ActionError> {
    match rest {
        ["first", name] => Ok(E::FirstPlayerDetermined {
            first: seat_of(name).ok_or_else(|| ActionError::NotAPlayer { name: name.to_string() })?,
        }),
        ["reveal"] => Ok(E::VanguardsRevealed {}),
        ["draw", r] => Ok(E::GameEnded {
            loser: None,
            reason: reason(r).ok_or_else(|| ActionError::Reason { reason: r.to_string() })?,
        }),
        _ => Err(ActionError::UnknownSystem { action: rest.join(" ") }),
    }
}

fn spectator_action(rest: &[&str]) -> Result<E, ActionError> {
    match rest {
        ["joined", name] => Ok(E::SpectatorJoined { user: name.to_string() }),
        ["left", name] => Ok(E::SpectatorLeft { user: name.to_string() }),
        _ => Err(ActionError::Spectator),
    }
}

/// A player's own event (setup, chat, concession); anything else is a client operation.
fn player_action(seat: Seat, rest: &[&str], line: &str) -> Result<E, ActionError> {
    let c = |s: &str| s.to_string();
    match rest {
        ["vanguard", card] => Ok(E::StartingVanguardSet { seat, card: c(card) }),
        ["hand", cards @ ..] => Ok(E::OpeningHandDrawn { seat, cards: cards.iter().map(|s| c(s)).collect() }),
        ["redraw", cards @ ..] => {
            let split = cards.iter().position(|w| *w == "->").ok_or(ActionError::Redraw)?;
            let (returned, drawn) = cards.split_at(split);
            Ok(E::Redrawn {
                seat,
                returned: returned.iter().map(|s| c(s)).collect(),
                drawn: drawn.iter().skip(1).map(|s| c(s)).collect(),
            })
        }
        ["chat", ..] => {
            let text = line.split_once("chat").map_or("", |(_, t)| t).trim().to_string();
            Ok(E::ChatMessage { seat, text })
        }
        ["lose", r] => Ok(E::GameEnded {
            loser: Some(seat),
            reason: reason(r).ok_or_else(|| ActionError::Reason { reason: r.to_string() })?,
        }),
        _ => Ok(E::Client { seat, op: client_op(rest)? }),
    }
}

/// What the fan client's buttons did, recorded as they were pressed (not checked by the rules).
fn client_op(rest: &[&str]) -> Result<ClientOp, ActionError> {
    let c = |s: &str| s.to_string();
    let face = |s: &str| match s {
        "up" => Ok(true),
        "down" => Ok(false),
        _ => Err(ActionError::Face { face: s.to_string() }),
    };
    Ok(match rest {
        ["phase", ph] => ClientOp::PhaseButton {
            phase: Phase::parse(ph).ok_or_else(|| ActionError::Phase { phase: ph.to_string() })?,
        },
        ["draw", card] => ClientOp::Drew { card: c(card) },
        ["check", card] => ClientOp::Checked { card: c(card) },
        ["ride", card] => ClientOp::Rode { card: c(card) },
        ["move", card, to] => ClientOp::Moved {
            card: c(card),
            to: place(to).ok_or_else(|| ActionError::Place { place: to.to_string() })?,
        },
        ["to-top", card] => ClientOp::ToTopOfDeck { card: c(card) },
        ["to-bottom", card] => ClientOp::ToBottomOfDeck { card: c(card) },
        ["to-hand", card] => ClientOp::ToHand { card: c(card) },
        ["shuffle"] => ClientOp::Shuffled {},
        ["view-deck"] => ClientOp::DeckViewed {},
        ["mill", card] => ClientOp::Milled { card: c(card) },
        ["soul-charge", card] => ClientOp::SoulCharged { card: c(card) },
        ["bind-top", card] => ClientOp::BoundTop { card: c(card) },
        ["rest", card] => ClientOp::PositionChanged { card: c(card), rested: true },
        ["stand", card] => ClientOp::PositionChanged { card: c(card), rested: false },
        ["flip-damage", card, f] => ClientOp::DamageFlipped { card: c(card), face_up: face(f)? },
        ["flip-g", card, f] => ClientOp::GZoneFlipped { card: c(card), face_up: face(f)? },
        ["lock", card] => ClientOp::LockChanged { card: c(card), locked: true },
        ["unlock", card] => ClientOp::LockChanged { card: c(card), locked: false },
        ["delete", card] => ClientOp::DeleteChanged { card: c(card), deleted: true },
        ["undelete", card] => ClientOp::DeleteChanged { card: c(card), deleted: false },
        ["power", card, v] => power_edit(card, v)?,
        ["stride", g_unit, heart] => ClientOp::Strode { g_unit: c(g_unit), heart: c(heart) },
        ["legion", mate] => ClientOp::Legion { mate: c(mate) },
        ["trigger", power_to] => ClientOp::TriggerApplied { power_to: c(power_to), critical_to: None },
        ["trigger", power_to, "critical", crit] => {
            ClientOp::TriggerApplied { power_to: c(power_to), critical_to: Some(c(crit)) }
        }
        _ => return Err(ActionError::Unreadable { action: rest.join(" ") }),
    })
}

/// `power CARD +N|-N|=N`: add to the shown power, or set it.
fn power_edit(card: &str, v: &str) -> Result<ClientOp, ActionError> {
    let (mode, num) = match v.strip_prefix('=') {
        Some(n) => (PowerEdit::Set, n),
        None => (PowerEdit::Add, v.strip_prefix('+').unwrap_or(v)),
    };
    let value = num.parse::<i32>().map_err(|_| ActionError::Power { value: v.to_string() })?;
    Ok(ClientOp::PowerEdited { card: card.to_string(), mode, value })
}

/// Writes one event as a vgc-log line, if the format has one for it.
pub fn line(names: &[String], event: &E) -> Option<String> {
    let who = |s: &Seat| names.get(usize::from(*s)).cloned().unwrap_or_else(|| format!("seat{s}"));
    let r = |r: &LossReason| match r {
        LossReason::SixDamage => "six-damage",
        LossReason::DeckOut => "deck-out",
    };
    Some(match event {
        E::StartingVanguardSet { seat, card } => format!("{} vanguard {card}", who(seat)),
        E::FirstPlayerDetermined { first } => format!("system first {}", who(first)),
        E::OpeningHandDrawn { seat, cards } => format!("{} hand {}", who(seat), cards.join(" ")),
        E::Redrawn { seat, returned, drawn } => {
            format!("{} redraw {} -> {}", who(seat), returned.join(" "), drawn.join(" "))
        }
        E::VanguardsRevealed {} => "system reveal".into(),
        E::GameEnded { loser: Some(l), reason } => format!("{} lose {}", who(l), r(reason)),
        E::GameEnded { loser: None, reason } => format!("system draw {}", r(reason)),
        E::ChatMessage { seat, text } => format!("{} chat {text}", who(seat)),
        E::SpectatorJoined { user } => format!("spectator joined {user}"),
        E::SpectatorLeft { user } => format!("spectator left {user}"),
        E::Client { seat, op } => {
            let w = who(seat);
            match op {
                ClientOp::Drew { card } => format!("{w} draw {card}"),
                ClientOp::Checked { card } => format!("{w} check {card}"),
                ClientOp::ToTopOfDeck { card } => format!("{w} to-top {card}"),
                ClientOp::ToBottomOfDeck { card } => format!("{w} to-bottom {card}"),
                ClientOp::ToHand { card } => format!("{w} to-hand {card}"),
                ClientOp::Shuffled {} => format!("{w} shuffle"),
                ClientOp::DeckViewed {} => format!("{w} view-deck"),
                ClientOp::Milled { card } => format!("{w} mill {card}"),
                ClientOp::SoulCharged { card } => format!("{w} soul-charge {card}"),
                ClientOp::BoundTop { card } => format!("{w} bind-top {card}"),
                ClientOp::PositionChanged { card, rested: true } => format!("{w} rest {card}"),
                ClientOp::PositionChanged { card, rested: false } => format!("{w} stand {card}"),
                ClientOp::DamageFlipped { card, face_up } => {
                    format!("{w} flip-damage {card} {}", if *face_up { "up" } else { "down" })
                }
                ClientOp::GZoneFlipped { card, face_up } => {
                    format!("{w} flip-g {card} {}", if *face_up { "up" } else { "down" })
                }
                ClientOp::LockChanged { card, locked } => {
                    format!("{w} {} {card}", if *locked { "lock" } else { "unlock" })
                }
                ClientOp::DeleteChanged { card, deleted } => {
                    format!("{w} {} {card}", if *deleted { "delete" } else { "undelete" })
                }
                ClientOp::PowerEdited { card, mode: PowerEdit::Add, value } => format!("{w} power {card} {value:+}"),
                ClientOp::PowerEdited { card, mode: PowerEdit::Set, value } => format!("{w} power {card} ={value}"),
                ClientOp::Rode { card } => format!("{w} ride {card}"),
                ClientOp::Strode { g_unit, heart } => format!("{w} stride {g_unit} {heart}"),
                ClientOp::Legion { mate } => format!("{w} legion {mate}"),
                ClientOp::PhaseButton { phase } => format!("{w} phase {}", phase.name()),
                ClientOp::Moved { card, to } => format!("{w} move {card} {}", place_name(*to)),
                ClientOp::TriggerApplied { power_to, critical_to: None } => format!("{w} trigger {power_to}"),
                ClientOp::TriggerApplied { power_to, critical_to: Some(c) } => {
                    format!("{w} trigger {power_to} critical {c}")
                }
            }
        }
        _ => return None,
    })
}

/// The header of a client log for `config`.
pub fn header(config: &VanguardConfig, stream: Option<&str>) -> String {
    let c = config.v1();
    let mut out = String::from("vgc-log 1\n");
    if let Some(s) = stream {
        out += &format!("stream {s}\n");
    }
    for p in &c.players {
        out += &format!("player {p}\n");
    }
    for (p, d) in c.players.iter().zip(&c.decks) {
        for (section, cards) in [("main", &d.main), ("g", &d.g)] {
            let mut i = 0;
            while i < cards.len() {
                let mut j = i;
                while j < cards.len() && cards[j] == cards[i] {
                    j += 1;
                }
                out += &format!("{section} {p} {} {}\n", j - i, cards[i]);
                i = j;
            }
        }
    }
    let defaults = super::config::Policies::default().to_pairs();
    for (k, v) in c.policies.to_pairs() {
        if !defaults.contains(&(k, v.clone())) {
            out += &format!("policy {k}={v}\n");
        }
    }
    out
}
