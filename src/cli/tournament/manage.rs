//! `kifu tournament new|register|drop`.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{anyhow, bail, Context as _, Result};
use serde_json::json;

use kifu::game::commit::{commit_seed, Commitment};
use kifu::log::envelope::{Actor, StreamId};
use kifu::tournament::events::Penalty;
use kifu::tournament::policy::{CustomPolicy, Tiebreaker, TOP_CUT_BY_ATTENDANCE};
use kifu::tournament::rules::resolve;
use kifu::tournament::state::fold_name;
use kifu::tournament::{ops, record, ConfigV1, Policy, RoundsPlan, TournamentEvent};

use super::{parse_seed, Context};
use crate::cli::output;

#[derive(clap::Args, Debug)]
pub struct NewArgs {
    /// The tournament's name.
    #[arg(long)]
    name: String,
    /// The game played (its ruleset name, e.g. naruto).
    #[arg(long)]
    game: String,
    /// mtr, melee, pokemon, or the name of a custom policy (then give --points, --floor, --tiebreakers).
    #[arg(long, default_value = "mtr")]
    policy: String,
    /// Custom policy: points for a win, a draw and a loss.
    #[arg(long, value_delimiter = ',', default_value = "3,1,0")]
    points: Vec<u32>,
    /// Custom policy: floor on MW%/GW% in thousandths.
    #[arg(long, default_value_t = 0)]
    floor: u32,
    /// Custom policy: tiebreakers in order, from omw, gw, ogw, oomw, late, h2h.
    #[arg(long, value_delimiter = ',', default_value = "omw,gw,ogw")]
    tiebreakers: Vec<String>,
    /// Swiss rounds (default: by the policy's attendance table when round 1 is paired).
    #[arg(long)]
    rounds: Option<u32>,
    /// Players in the top cut: 0 for none, 2, 4, 8, ..., or auto (by the policy's attendance table).
    #[arg(long, default_value = "auto")]
    top_cut: String,
    /// Games per match: 1, 3 or 5. Scores that cannot happen in it are refused.
    #[arg(long, default_value_t = 3)]
    best_of: u32,
    /// swiss (two-player matches) or pods (a multiplayer game, e.g. fate: pods of --pod-size
    /// filled with pods one seat smaller, points by place, no top cut).
    #[arg(long, default_value = "swiss")]
    format: String,
    /// Pods: seats per pod.
    #[arg(long, default_value_t = 4)]
    pod_size: u32,
    /// Pods: points for a sole win, a shared win (a draw) and a loss.
    #[arg(long, value_delimiter = ',', default_value = "5,1,0")]
    pod_points: Vec<u32>,
    /// The stream id (default: derived from the name and the time).
    #[arg(long)]
    id: Option<StreamId>,
    /// The secret pairing seed as 64 hex digits (default: drawn from the operating system).
    #[arg(long)]
    seed: Option<String>,
    /// Who records it.
    #[arg(long, default_value = "organizer:organizer")]
    actor: Actor,
}

fn tiebreaker(s: &str) -> Result<Tiebreaker> {
    Ok(match s {
        "omw" => Tiebreaker::OpponentMatchWin,
        "gw" => Tiebreaker::GameWin,
        "ogw" => Tiebreaker::OpponentGameWin,
        "oomw" => Tiebreaker::OpponentOpponentMatchWin,
        "late" => Tiebreaker::LatePenalty,
        "h2h" => Tiebreaker::HeadToHead,
        _ => bail!("unknown tiebreaker {s:?}: use omw, gw, ogw, oomw, late or h2h"),
    })
}

/// The policy: a preset by name, or a custom one from `--points`, `--floor` and `--tiebreakers`.
fn policy_of(a: &NewArgs) -> Result<Policy> {
    if let Some(p) = Policy::preset(&a.policy) {
        return Ok(p);
    }
    let [w, d, l] = a.points.as_slice() else { bail!("--points takes three numbers: win,draw,loss") };
    Ok(Policy::Custom(CustomPolicy {
        name: a.policy.clone(),
        win_points: *w,
        draw_points: *d,
        loss_points: *l,
        floor_permille: a.floor,
        tiebreakers: a.tiebreakers.iter().map(|t| tiebreaker(t)).collect::<Result<_>>()?,
        rounds: vec![],
    }))
}

/// The pod format event of `--format pods` (none for Swiss), and the top cut `--top-cut` gives
/// with it (a pod tournament has none).
fn format_and_cut(a: &NewArgs) -> Result<(Option<TournamentEvent>, u32)> {
    let top_cut = match a.top_cut.as_str() {
        "auto" => TOP_CUT_BY_ATTENDANCE,
        n => match n.parse::<u32>() {
            Ok(k) if k == 0 || (k > 1 && k.is_power_of_two() && k <= 1024) => k,
            _ => bail!("--top-cut must be auto, 0 or a power of two (2, 4, 8, 16...), not {n}"),
        },
    };
    let pods = match a.format.as_str() {
        "swiss" => None,
        "pods" => {
            let [sole_win, shared_win, loss] = a.pod_points[..] else {
                bail!("--pod-points takes three numbers: sole win,shared win,loss")
            };
            Some(TournamentEvent::PodFormatSet { size: a.pod_size, sole_win, shared_win, loss })
        }
        other => bail!("unknown --format {other:?}: use swiss or pods"),
    };
    let top_cut = match (&pods, top_cut) {
        (Some(_), TOP_CUT_BY_ATTENDANCE | 0) => 0,
        (Some(_), k) => bail!("a pod tournament has no top cut, not --top-cut {k}"),
        (None, k) => k,
    };
    Ok((pods, top_cut))
}

/// A stream id from the event's name and the time: `t-SLUG-HASH6`.
fn default_id(name: &str, now: kifu::log::envelope::Timestamp) -> Result<StreamId> {
    let slug: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '-' })
        .collect::<String>()
        .split('-')
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join("-");
    let slug: String = slug.chars().take(40).collect();
    let h = blake3::hash(format!("{name}|{}", now.0).as_bytes());
    Ok(StreamId::new(&format!("t-{}-{}", if slug.is_empty() { "event" } else { &slug }, &h.to_hex()[..6]))?)
}

pub fn run_new(ctx: &Context, a: NewArgs, json: bool) -> Result<ExitCode> {
    if kifu::games::driver(&a.game).is_none() {
        let known: Vec<_> = kifu::games::drivers().iter().map(|d| d.ruleset()).collect();
        eprintln!(
            "note: this build records no {:?} games (it records: {}); results can still be reported, without linked games",
            a.game,
            known.join(", ")
        );
    }
    let policy = policy_of(&a)?;
    let (pods, top_cut) = format_and_cut(&a)?;
    let seed = match &a.seed {
        Some(s) => parse_seed(s)?,
        None => Commitment(rand::random::<[u8; 32]>()),
    };
    let now = ctx.clock().now();
    let id = match a.id {
        Some(id) => id,
        None => default_id(&a.name, now)?,
    };
    let config = ConfigV1 {
        name: a.name.clone(),
        game: a.game.clone(),
        policy,
        rounds: a.rounds.map(RoundsPlan::Fixed).unwrap_or(RoundsPlan::ByAttendance),
        top_cut,
        seed_commitment: Some(commit_seed(&seed)),
    };
    let store = ctx.open_store()?;
    let head = match pods {
        Some(format) => ops::create_pods(&store, &ctx.data_dir, &id, &config, &seed, format, a.actor, now)?,
        None => ops::create(&store, &ctx.data_dir, &id, &config, &seed, a.best_of, a.actor, now)?,
    };
    if json {
        output::print_json(
            &json!({"id": id.to_string(), "head": head.hash.to_hex(), "seed_commitment": commit_seed(&seed).to_string()}),
        )?;
    } else {
        println!("{id}");
        eprintln!(
            "created {} ({} policy); pairing seed committed as {} and kept in the data directory until finalize",
            a.name,
            config.policy.name(),
            commit_seed(&seed)
        );
    }
    Ok(ExitCode::SUCCESS)
}

#[derive(clap::Args, Debug)]
pub struct RegisterArgs {
    pub id: StreamId,
    /// The players' names.
    #[arg(required = true)]
    pub players: Vec<String>,
    /// A deck list file (the game's deck-list format), checked by the game's deck rules.
    #[arg(long)]
    pub deck: Option<PathBuf>,
    /// Once round 1 is paired, a registration is a late entry, an override on the record: who
    /// admits it (an organizer or the head judge) ...
    #[arg(long)]
    pub by: Option<String>,
    /// ... and why (both listed by verify).
    #[arg(long)]
    pub reason: Option<String>,
    #[arg(long, default_value = "organizer:organizer")]
    pub actor: Actor,
}

/// Checks a deck list with the game's own deck rules ([`kifu::game::driver::Driver::check_deck`]).
fn check_deck(game: &str, player: &str, deck: &str) -> Result<()> {
    let Some(driver) = kifu::games::driver(game) else { return Ok(()) };
    driver.check_deck(deck, None).map_err(|e| anyhow!("{player}'s deck is not legal for {game}: {e}"))
}

/// The largest deck-list file `tournament deck` reads (a 60-card list is a few kilobytes).
const DECK_LIST_MAX: u64 = 64 * 1024;

#[derive(clap::Args, Debug)]
pub struct DeckArgs {
    pub id: StreamId,
    /// The player, as registered.
    pub player: String,
    /// The deck-list file, in the game's deck-list format.
    pub file: PathBuf,
    #[arg(long, default_value = "organizer:organizer")]
    pub actor: Actor,
}

/// `kifu tournament deck`: checks a player's deck list by the game's deck rules, keeps it
/// privately (the organizer's data directory, owner-only) and records its commitment.
pub fn run_deck(ctx: &Context, a: DeckArgs, json: bool) -> Result<ExitCode> {
    let size = std::fs::metadata(&a.file).with_context(|| format!("cannot read {}", a.file.display()))?.len();
    if size > DECK_LIST_MAX {
        bail!("{} has {size} bytes: a deck list has at most {DECK_LIST_MAX}", a.file.display());
    }
    let text = std::fs::read_to_string(&a.file).with_context(|| format!("cannot read {}", a.file.display()))?;
    let store = ctx.open_store()?;
    let loaded = record::load(&store, &a.id)?;
    let game = loaded.config.game.clone();
    check_deck(&game, &a.player, &text)?;
    let salt = Commitment(rand::random::<[u8; 32]>());
    let (head, commitment) = ops::register_deck(&store, &ctx.data_dir, &a.id, &a.player, &text, &salt, a.actor)?;
    if json {
        output::print_json(&json!({"player": a.player, "commitment": commitment, "head": head.hash.to_hex()}))?;
    } else {
        println!("{}'s deck list for {} registered; commitment {commitment}", a.player, a.id);
        println!("the list is kept private in {}", ops::deck_list_path(&ctx.data_dir, &a.id, &commitment).display());
    }
    Ok(ExitCode::SUCCESS)
}

pub fn run_register(ctx: &Context, a: RegisterArgs, json: bool) -> Result<ExitCode> {
    let store = ctx.open_store()?;
    let loaded = record::load(&store, &a.id)?;
    let deck = match &a.deck {
        Some(p) => Some(std::fs::read_to_string(p).with_context(|| format!("cannot read {}", p.display()))?),
        None => None,
    };
    let late = !loaded.state.rounds.is_empty();
    let next = loaded.state.rounds.len() as u32 + 1;
    let admitted = match (late, a.by.as_deref().map(str::trim), a.reason.as_deref().map(str::trim)) {
        (false, None, None) => None,
        (false, _, _) => bail!("--by and --reason are for late entries; round 1 is not paired yet"),
        (true, Some(by), Some(reason)) if !by.is_empty() && !reason.is_empty() => {
            kifu::log::limits::check_name(|| "--by".into(), by)?;
            Some((by.to_string(), reason.to_string()))
        }
        (true, _, _) => bail!(
            "round 1 of {} is paired: a late entry is an override on the record; give --by (an organizer or the \
             head judge) and --reason",
            a.id
        ),
    };
    let mut events = Vec::new();
    let mut names: Vec<String> = Vec::new();
    for (i, p) in a.players.iter().enumerate() {
        let p = p.trim().to_string();
        kifu::log::limits::check_name(|| format!("player name {}", i + 1), &p)?;
        if names.iter().any(|n| fold_name(n) == fold_name(&p)) {
            bail!("{p:?} is given twice (names ignore case and surrounding spaces)");
        }
        names.push(p);
    }
    for p in &names {
        if let Some(d) = &deck {
            check_deck(&loaded.config.game, p, d)?;
        }
        events.push(match &admitted {
            Some((by, reason)) => TournamentEvent::LateEntryAdmitted {
                player: p.clone(),
                deck: deck.clone(),
                first_round: next,
                by: by.clone(),
                reason: reason.clone(),
            },
            None => TournamentEvent::PlayerRegistered { player: p.clone(), deck: deck.clone() },
        });
    }
    let (head, state) = record::record(&store, &a.id, a.actor, events)?;
    if json {
        output::print_json(
            &json!({"registered": names, "late": late, "players": state.players.len(), "head": head.hash.to_hex()}),
        )?;
    } else {
        for p in &names {
            let how = match &admitted {
                Some((by, reason)) => format!("entered late (from round {next}), admitted by {by}: {reason}"),
                None => "registered".into(),
            };
            println!("{p} {how}");
        }
        println!("{} players", state.players.len());
    }
    Ok(ExitCode::SUCCESS)
}

#[derive(clap::Args, Debug)]
pub struct DropArgs {
    pub id: StreamId,
    pub player: String,
    #[arg(long, default_value = "dropped")]
    pub reason: String,
    #[arg(long, default_value = "organizer:organizer")]
    pub actor: Actor,
}

pub fn run_drop(ctx: &Context, a: DropArgs, json: bool) -> Result<ExitCode> {
    let store = ctx.open_store()?;
    let loaded = record::load(&store, &a.id)?;
    let player = resolve(&loaded.state, &a.player)?;
    let after_round = loaded.state.rounds.len() as u32;
    let ev = TournamentEvent::PlayerDropped { player: player.clone(), after_round, reason: a.reason };
    let (head, _) = record::record(&store, &a.id, a.actor, vec![ev])?;
    if json {
        output::print_json(&json!({"dropped": player, "after_round": after_round, "head": head.hash.to_hex()}))?;
    } else {
        println!("{player} dropped after round {after_round}");
    }
    Ok(ExitCode::SUCCESS)
}

#[derive(clap::Args, Debug)]
pub struct PenaltyArgs {
    pub id: StreamId,
    pub player: String,
    /// warning, game-loss, match-loss or dq (Pokémon also caution, double-prize, quad-prize).
    /// With --infraction, default: the policy's penalty for it (upgraded for a repeat).
    #[arg(long = "type", required_unless_present = "infraction")]
    pub kind: Option<String>,
    /// The infraction, by its code in the policy's table (`kifu tournament infractions`).
    #[arg(long)]
    pub infraction: Option<String>,
    /// Why a lighter penalty than the policy's is given (with --infraction and --type).
    #[arg(long, requires = "infraction")]
    pub downgrade: Option<String>,
    /// The judge call the penalty came from.
    #[arg(long, requires = "infraction")]
    pub call: Option<u32>,
    /// Why (required).
    #[arg(long)]
    pub reason: String,
    /// The judge issuing it.
    #[arg(long)]
    pub judge: String,
    /// The round it applies to (default: the latest).
    #[arg(long)]
    pub round: Option<u32>,
}

pub fn run_penalty(ctx: &Context, a: PenaltyArgs, json: bool) -> Result<ExitCode> {
    let store = ctx.open_store()?;
    let (state, _) = record::load_state(&store, &a.id)?;
    let player = resolve(&state, &a.player)?;
    let round = a.round.unwrap_or(state.rounds.len() as u32);
    let judge = a.judge.trim().to_string();
    let reason = a.reason.trim().to_string();
    let (ev, penalty, upgraded) = match &a.infraction {
        None => {
            let penalty: Penalty = a.kind.as_deref().unwrap_or_default().parse()?;
            (TournamentEvent::PenaltyIssued { player: player.clone(), round, penalty, judge, reason }, penalty, false)
        }
        Some(code) => {
            let (expected, upgraded) = state.expected_penalty(&player, code).map_err(|v| anyhow!("{v}"))?;
            let penalty: Penalty = match &a.kind {
                Some(k) => k.parse()?,
                None => expected,
            };
            let ev = TournamentEvent::InfractionPenalized {
                player: player.clone(),
                round,
                infraction: code.trim().to_lowercase(),
                penalty,
                judge,
                reason,
                downgrade: a.downgrade.as_ref().map(|d| d.trim().to_string()),
                call: a.call,
            };
            (ev, penalty, upgraded && penalty == expected)
        }
    };
    let (head, state) = record::record(&store, &a.id, Actor::Judge(a.judge.trim().to_string()), vec![ev])?;
    let number = state.penalty_log.len();
    if json {
        output::print_json(&json!({
            "number": number, "player": player, "round": round, "penalty": penalty, "upgraded": upgraded,
            "head": head.hash.to_hex(),
        }))?;
    } else {
        let dq = if penalty == Penalty::Disqualification { "; the player is dropped" } else { "" };
        let up = if upgraded { " (upgraded: a repeat of the same infraction)" } else { "" };
        println!("{player}: {penalty:?} in round {round} recorded (penalty {number}){up}{dq}");
    }
    Ok(ExitCode::SUCCESS)
}
