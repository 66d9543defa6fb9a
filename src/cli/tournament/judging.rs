//! `kifu tournament call|head-judge|infractions|penalties|appeal|decide|pairings|override`: the
//! judges' floor from the command line (judge calls and their time extensions, the policy's
//! infraction table, a player's penalty history, appeals and the head judge's decisions, and
//! pairings changed by hand on the record).

use std::process::ExitCode;

use anyhow::{anyhow, bail, Result};
use serde_json::json;

use kifu::log::envelope::{Actor, StreamId, Timestamp};
use kifu::tournament::events::{AppealDecision, CallOutcome, Penalty, RulingRef};
use kifu::tournament::rules::resolve;
use kifu::tournament::{judging, record, TournamentEvent};

use super::Context;
use crate::cli::output;

/// `--at`: an RFC 3339 time (a call entered after the fact), else the clock's now.
pub(super) fn at(ctx: &Context, at: &Option<String>) -> Result<Timestamp> {
    match at {
        None => Ok(ctx.clock().now()),
        Some(s) => {
            let t = chrono::DateTime::parse_from_rfc3339(s.trim()).map_err(|e| {
                anyhow!("--at {:?} is not an RFC 3339 time like 2026-11-27T14:05:00Z: {e}", kifu::log::quote_prefix(s))
            })?;
            Ok(Timestamp::from_datetime(t.with_timezone(&chrono::Utc)))
        }
    }
}

fn record_one(
    ctx: &Context,
    id: &StreamId,
    actor: Actor,
    ev: TournamentEvent,
) -> Result<(kifu::log::chain::Head, kifu::tournament::state::Tournament)> {
    let store = ctx.open_store()?;
    Ok(record::record(&store, id, actor, vec![ev])?)
}

#[derive(clap::Args, Debug)]
pub struct CallArgs {
    #[command(subcommand)]
    command: CallCommand,
}

#[derive(clap::Subcommand, Debug)]
enum CallCommand {
    /// Open a judge call at a table (or pod) of the current round; prints the call's number.
    Open {
        id: StreamId,
        #[arg(long)]
        table: u32,
        /// Default: the latest round.
        #[arg(long)]
        round: Option<u32>,
        /// Who called (a player at the table, or a judge).
        #[arg(long)]
        caller: String,
        /// When (RFC 3339), for a call entered afterwards; default now.
        #[arg(long)]
        at: Option<String>,
        /// Who records it.
        #[arg(long, default_value = "organizer:organizer")]
        actor: Actor,
    },
    /// A judge takes the call.
    Take {
        id: StreamId,
        call: u32,
        #[arg(long)]
        judge: String,
        #[arg(long)]
        at: Option<String>,
    },
    /// The call goes to the head judge (default: the head judge the event named).
    Escalate {
        id: StreamId,
        call: u32,
        #[arg(long)]
        judge: Option<String>,
        #[arg(long)]
        at: Option<String>,
    },
    /// Close the call: ruling, no-action or penalty. The match gets the call's duration back,
    /// rounded up to a minute.
    Close {
        id: StreamId,
        call: u32,
        #[arg(long)]
        judge: String,
        #[arg(long)]
        outcome: String,
        #[arg(long, default_value = "")]
        note: String,
        #[arg(long)]
        at: Option<String>,
    },
    /// Set the time extension a closed call gives, with a reason.
    Extend {
        id: StreamId,
        call: u32,
        #[arg(long)]
        minutes: u32,
        #[arg(long)]
        judge: String,
        #[arg(long)]
        reason: String,
    },
    /// The event's judge calls (of one round with --round).
    List {
        id: StreamId,
        #[arg(long)]
        round: Option<u32>,
    },
}

pub fn run_call(ctx: &Context, a: CallArgs, json: bool) -> Result<ExitCode> {
    let judge_actor = |j: &str| Actor::Judge(j.trim().to_string());
    let (id, ev, actor) = match a.command {
        CallCommand::List { id, round } => return list_calls(ctx, &id, round, json),
        CallCommand::Open { id, table, round, caller, at: when, actor } => {
            let store = ctx.open_store()?;
            let (state, _) = record::load_state(&store, &id)?;
            let Some(round) = round.or(state.rounds.last().map(|r| r.round)) else { bail!("no round is paired yet") };
            let ev = TournamentEvent::JudgeCallOpened {
                round,
                table,
                caller: caller.trim().to_string(),
                at: at(ctx, &when)?,
            };
            (id, ev, actor)
        }
        CallCommand::Take { id, call, judge, at: when } => {
            let ev = TournamentEvent::JudgeCallTaken { call, judge: judge.trim().to_string(), at: at(ctx, &when)? };
            (id, ev, judge_actor(&judge))
        }
        CallCommand::Escalate { id, call, judge, at: when } => {
            let judge = match judge {
                Some(j) => j.trim().to_string(),
                None => {
                    let store = ctx.open_store()?;
                    let (state, _) = record::load_state(&store, &id)?;
                    state.head_judge.ok_or_else(|| {
                        anyhow!("the event has no head judge: name one (`kifu tournament head-judge`) or give --judge")
                    })?
                }
            };
            let ev = TournamentEvent::JudgeCallEscalated { call, judge: judge.clone(), at: at(ctx, &when)? };
            (id, ev, judge_actor(&judge))
        }
        CallCommand::Close { id, call, judge, outcome, note, at: when } => {
            let outcome: CallOutcome = outcome.parse()?;
            let ev = TournamentEvent::JudgeCallClosed {
                call,
                judge: judge.trim().to_string(),
                at: at(ctx, &when)?,
                outcome,
                note: note.trim().to_string(),
            };
            (id, ev, judge_actor(&judge))
        }
        CallCommand::Extend { id, call, minutes, judge, reason } => {
            let ev = TournamentEvent::TimeExtensionAdjusted {
                call,
                minutes,
                judge: judge.trim().to_string(),
                reason: reason.trim().to_string(),
            };
            (id, ev, judge_actor(&judge))
        }
    };
    let what = record::kind(&ev);
    let (head, state) = record_one(ctx, &id, actor, ev)?;
    // The call the event was about: a new one is the last opened.
    let n = match (what, state.calls.last()) {
        ("judge call opened", Some(c)) => c.number,
        _ => 0,
    };
    let c = state
        .calls
        .iter()
        .rev()
        .find(|c| n == 0 || c.number == n)
        .ok_or_else(|| anyhow!("internal: no call after {what}"))?;
    if json {
        output::print_json(&json!({
            "call": c.number, "status": c.status(), "round": c.round, "table": c.table,
            "extension_minutes": c.extension(), "head": head.hash.to_hex(),
        }))?;
    } else {
        println!("{what}: call {} (round {} table {}), {}", c.number, c.round, c.table, c.status());
    }
    Ok(ExitCode::SUCCESS)
}

fn list_calls(ctx: &Context, id: &StreamId, round: Option<u32>, json: bool) -> Result<ExitCode> {
    let store = ctx.open_store()?;
    let (state, _) = record::load_state(&store, id)?;
    let calls: Vec<&judging::Call> = state.calls.iter().filter(|c| round.is_none_or(|r| c.round == r)).collect();
    if json {
        output::print_json(&calls.iter().map(|c| c.json()).collect::<Vec<_>>())?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut t = output::table(["call", "round", "table", "caller", "opened", "status", "by", "+min"]);
    for c in calls {
        let by = c
            .closed
            .as_ref()
            .map(|x| x.judge.clone())
            .or(c.escalated.as_ref().map(|x| x.judge.clone()))
            .or(c.taken.as_ref().map(|x| x.judge.clone()));
        t.add_row([
            c.number.to_string(),
            c.round.to_string(),
            c.table.to_string(),
            c.caller.clone(),
            c.opened.to_rfc3339(),
            c.status().to_string(),
            by.unwrap_or_default(),
            c.extension().to_string(),
        ]);
    }
    println!("{t}");
    Ok(ExitCode::SUCCESS)
}

#[derive(clap::Args, Debug)]
pub struct HeadJudgeArgs {
    pub id: StreamId,
    /// The head judge's name: escalations go to them, and only they decide appeals.
    pub judge: String,
    #[arg(long, default_value = "organizer:organizer")]
    pub actor: Actor,
}

pub fn run_head_judge(ctx: &Context, a: HeadJudgeArgs, json: bool) -> Result<ExitCode> {
    let judge = a.judge.trim().to_string();
    let (head, _) = record_one(ctx, &a.id, a.actor, TournamentEvent::HeadJudgeNamed { judge: judge.clone() })?;
    if json {
        output::print_json(&json!({"head_judge": judge, "head": head.hash.to_hex()}))?;
    } else {
        println!("{judge} is the head judge of {}", a.id);
    }
    Ok(ExitCode::SUCCESS)
}

#[derive(clap::Args, Debug)]
pub struct InfractionsArgs {
    pub id: StreamId,
}

/// `kifu tournament infractions`: the event policy's infraction table.
pub fn run_infractions(ctx: &Context, a: InfractionsArgs, json: bool) -> Result<ExitCode> {
    let store = ctx.open_store()?;
    let (state, _) = record::load_state(&store, &a.id)?;
    let policy = state.config.as_ref().map(|c| c.policy.clone()).ok_or_else(|| anyhow!("no tournament"))?;
    let rows = judging::table(&policy);
    let upgrade = |u: judging::Upgrade| match u {
        judging::Upgrade::Never => "never".to_string(),
        judging::Upgrade::GameLossFrom(n) => format!("game-loss from offence {n}"),
        judging::Upgrade::NextStep => "next penalty up".to_string(),
    };
    if json {
        let v: Vec<_> = rows
            .iter()
            .map(|i| json!({"code": i.code, "name": i.name, "category": i.category, "default": i.default.name(), "upgrade": upgrade(i.upgrade)}))
            .collect();
        output::print_json(&v)?;
        return Ok(ExitCode::SUCCESS);
    }
    if rows.is_empty() {
        println!("the {} policy has no infraction table: judges issue plain penalties (--type)", policy.name());
        return Ok(ExitCode::SUCCESS);
    }
    let mut t = output::table(["code", "infraction", "category", "penalty", "repeat"]);
    for i in rows {
        t.add_row([
            i.code.to_string(),
            i.name.to_string(),
            i.category.to_string(),
            i.default.name().to_string(),
            upgrade(i.upgrade),
        ]);
    }
    println!("{t}");
    Ok(ExitCode::SUCCESS)
}

#[derive(clap::Args, Debug)]
pub struct HistoryArgs {
    pub id: StreamId,
    /// One player (default: everyone with a penalty).
    pub player: Option<String>,
}

/// `kifu tournament penalties`: each player's penalties in the event, as issued and as they
/// stand after appeals.
pub fn run_history(ctx: &Context, a: HistoryArgs, json: bool) -> Result<ExitCode> {
    let store = ctx.open_store()?;
    let (state, _) = record::load_state(&store, &a.id)?;
    // Warnings and game losses given inside the event's games count in the same history.
    let in_games = kifu::tournament::game_rulings::game_rulings(&store, &a.id, &state)?;
    let players: Vec<usize> = match &a.player {
        Some(p) => {
            let name = resolve(&state, p)?;
            vec![state.player(&name).ok_or_else(|| anyhow!("{}", state.unknown(p)))?]
        }
        None => {
            let mut v: Vec<usize> = state.penalty_log.iter().map(|r| r.player).collect();
            v.extend(in_games.iter().filter_map(|g| state.player(&g.player)));
            v.sort_unstable();
            v.dedup();
            v
        }
    };
    let games_of = |p: usize| -> Vec<&kifu::tournament::game_rulings::GameRuling> {
        in_games.iter().filter(|g| g.player == state.players[p].name).collect()
    };
    if json {
        let v: Vec<_> = players
            .iter()
            .map(|&p| {
                json!({
                    "player": state.players[p].name,
                    "penalties": state.penalty_history(p),
                    "game_rulings": games_of(p),
                })
            })
            .collect();
        output::print_json(&if a.player.is_some() { v.into_iter().next().unwrap_or_default() } else { json!(v) })?;
        return Ok(ExitCode::SUCCESS);
    }
    for p in players {
        println!("{}", state.players[p].name);
        println!("{}", penalty_table(&state.penalty_history(p), &games_of(p)));
    }
    Ok(ExitCode::SUCCESS)
}

/// A player's penalties (as issued, upgrades, downgrades, what stands, appeals) and the rulings
/// given in their games, as one table.
pub(super) fn penalty_table(
    rows: &[kifu::tournament::rules::HistoryRow],
    games: &[&kifu::tournament::game_rulings::GameRuling],
) -> output::Table {
    let mut t = output::table(["#", "round", "infraction", "issued", "stands", "judge", "reason", "appeal"]);
    for r in rows {
        let mut issued = r.issued.clone();
        if r.upgraded {
            issued.push_str(" (upgraded)");
        }
        if let Some(d) = &r.downgrade {
            issued.push_str(&format!(" (downgraded: {d})"));
        }
        let appeal: Vec<String> = r.appeals.iter().map(|x| format!("{} {}", x.appeal, x.decision)).collect();
        t.add_row([
            r.penalty.to_string(),
            r.round.to_string(),
            r.infraction.clone().unwrap_or_else(|| "—".into()),
            issued,
            r.standing.clone().unwrap_or_else(|| "overturned".into()),
            r.judge.clone(),
            r.reason.clone(),
            appeal.join("; "),
        ]);
    }
    for g in games {
        t.add_row([
            format!("{}#{}", g.game, g.seq),
            g.round.map(|r| r.to_string()).unwrap_or_default(),
            g.rule.clone().unwrap_or_else(|| "in game".into()),
            g.kind.to_string(),
            g.kind.to_string(),
            g.judge.clone(),
            g.note.clone(),
            String::new(),
        ]);
    }
    t
}

#[derive(clap::Args, Debug)]
pub struct AppealArgs {
    pub id: StreamId,
    /// The player appealing (the penalized player, or one at the call's table).
    pub player: String,
    /// The penalty appealed (its number in `kifu tournament penalties`).
    #[arg(long, conflicts_with = "call", required_unless_present = "call")]
    pub penalty: Option<u32>,
    /// The call whose ruling is appealed.
    #[arg(long)]
    pub call: Option<u32>,
    #[arg(long)]
    pub at: Option<String>,
    #[arg(long, default_value = "organizer:organizer")]
    pub actor: Actor,
}

pub fn run_appeal(ctx: &Context, a: AppealArgs, json: bool) -> Result<ExitCode> {
    let ruling = match (a.penalty, a.call) {
        (Some(p), None) => RulingRef::Penalty(p),
        (None, Some(c)) => RulingRef::Call(c),
        _ => bail!("give --penalty N or --call N"),
    };
    let store = ctx.open_store()?;
    let (state, _) = record::load_state(&store, &a.id)?;
    let player = resolve(&state, &a.player)?;
    let ev = TournamentEvent::AppealLodged { ruling, player: player.clone(), at: at(ctx, &a.at)? };
    let (head, state) = record::record(&store, &a.id, a.actor, vec![ev])?;
    let n = state.appeals.len();
    if json {
        output::print_json(
            &json!({"appeal": n, "ruling": ruling.to_string(), "player": player, "head": head.hash.to_hex()}),
        )?;
    } else {
        println!("appeal {n}: {player} appeals {ruling} to the head judge");
    }
    Ok(ExitCode::SUCCESS)
}

#[derive(clap::Args, Debug)]
pub struct DecideArgs {
    pub id: StreamId,
    pub appeal: u32,
    /// upheld, overturned, or a penalty it is changed to (warning, game-loss, ...).
    pub decision: String,
    /// The head judge deciding.
    #[arg(long)]
    pub judge: String,
    #[arg(long)]
    pub reason: String,
}

/// `upheld`, `overturned`, or the penalty a penalty is changed to.
pub fn parse_decision(s: &str) -> Result<AppealDecision> {
    Ok(match s.trim().to_lowercase().as_str() {
        "upheld" | "uphold" => AppealDecision::Upheld,
        "overturned" | "overturn" => AppealDecision::Overturned,
        other => AppealDecision::Changed(
            other
                .parse::<Penalty>()
                .map_err(|e| anyhow!("{e}; a decision is upheld, overturned, or the penalty it is changed to"))?,
        ),
    })
}

pub fn run_decide(ctx: &Context, a: DecideArgs, json: bool) -> Result<ExitCode> {
    let decision = parse_decision(&a.decision)?;
    let judge = a.judge.trim().to_string();
    let ev = TournamentEvent::AppealDecided {
        appeal: a.appeal,
        decision,
        judge: judge.clone(),
        reason: a.reason.trim().to_string(),
    };
    let (head, _) = record_one(ctx, &a.id, Actor::Judge(judge.clone()), ev)?;
    if json {
        output::print_json(&json!({"appeal": a.appeal, "decision": decision.to_string(), "head": head.hash.to_hex()}))?;
    } else {
        println!("appeal {}: {decision} by head judge {judge}", a.appeal);
    }
    Ok(ExitCode::SUCCESS)
}

#[derive(clap::Args, Debug)]
pub struct PairingsArgs {
    pub id: StreamId,
    /// Default: the latest round.
    #[arg(long)]
    pub round: Option<u32>,
}

/// `kifu tournament pairings`: a round's tables with their results and the time extension the
/// judge calls at each gave.
pub fn run_pairings(ctx: &Context, a: PairingsArgs, json: bool) -> Result<ExitCode> {
    let store = ctx.open_store()?;
    let (s, _) = record::load_state(&store, &a.id)?;
    let r = match a.round {
        Some(n) => s.rounds.iter().find(|r| r.round == n).ok_or_else(|| anyhow!("round {n} is not paired"))?,
        None => s.rounds.last().ok_or_else(|| anyhow!("no round is paired yet"))?,
    };
    let name = |i: usize| s.players.get(i).map_or("?".to_string(), |p| p.name.clone());
    let rows: Vec<serde_json::Value> = r
        .tables
        .iter()
        .map(|t| {
            json!({
                "table": t.table, "a": name(t.a), "b": name(t.b),
                "result": t.result.map(|x| x.to_string()),
                "extension_minutes": s.extension(r.round, t.table),
                "open_calls": s.open_calls(r.round, t.table),
            })
        })
        .chain(r.pods.iter().map(|p| {
            json!({
                "pod": p.pod, "seats": p.seats.iter().map(|&x| name(x)).collect::<Vec<_>>(),
                "places": p.places,
                "extension_minutes": s.extension(r.round, p.pod),
                "open_calls": s.open_calls(r.round, p.pod),
            })
        }))
        .collect();
    let byes: Vec<String> = r.byes.iter().map(|&b| name(b)).collect();
    if json {
        output::print_json(&json!({"round": r.round, "top_cut": r.top_cut, "tables": rows, "byes": byes}))?;
        return Ok(ExitCode::SUCCESS);
    }
    println!("Round {}", r.round);
    let mut t = output::table(["table", "player", "opponent", "result", "time"]);
    for row in &rows {
        let ext = row["extension_minutes"].as_u64().unwrap_or(0);
        let open = row["open_calls"].as_u64().unwrap_or(0);
        let time = match (ext, open) {
            (0, 0) => String::new(),
            (e, 0) => format!("+{e} min"),
            (e, _) => format!("+{e} min, judge at the table"),
        };
        let (who, other) = match row.get("seats") {
            Some(seats) => (seats.to_string(), String::new()),
            None => (row["a"].as_str().unwrap_or("").to_string(), row["b"].as_str().unwrap_or("").to_string()),
        };
        let number = row.get("table").or(row.get("pod")).map(|v| v.to_string()).unwrap_or_default();
        t.add_row([number, who, other, row["result"].as_str().unwrap_or("").to_string(), time]);
    }
    for b in &byes {
        t.add_row(["bye".to_string(), b.clone(), "—".into(), String::new(), String::new()]);
    }
    println!("{t}");
    Ok(ExitCode::SUCCESS)
}

#[derive(clap::Args, Debug)]
pub struct OverrideArgs {
    pub id: StreamId,
    /// Swap two players' seats in the latest round (either may have the bye).
    #[arg(long, num_args = 2, value_names = ["PLAYER", "PLAYER"], required_unless_present = "seat")]
    pub swap: Option<Vec<String>>,
    /// Seat this player at --table (for accessibility): they swap with the table's first-listed player.
    #[arg(long, requires = "table", conflicts_with = "swap")]
    pub seat: Option<String>,
    #[arg(long)]
    pub table: Option<u32>,
    /// Who makes the change: an organizer or the head judge.
    #[arg(long)]
    pub by: String,
    /// Why (required; listed by verify).
    #[arg(long)]
    pub reason: String,
    #[arg(long, default_value = "organizer:organizer")]
    pub actor: Actor,
}

/// `kifu tournament override`: change the latest round's pairings by hand, on the record.
pub fn run_override(ctx: &Context, a: OverrideArgs, json: bool) -> Result<ExitCode> {
    let store = ctx.open_store()?;
    let (state, _) = record::load_state(&store, &a.id)?;
    let (x, y) = match (&a.swap, &a.seat, a.table) {
        (Some(pair), None, _) if pair.len() == 2 => (resolve(&state, &pair[0])?, resolve(&state, &pair[1])?),
        (None, Some(p), Some(table)) => {
            let who = resolve(&state, p)?;
            let l = state.rounds.last().ok_or_else(|| anyhow!("no round is paired"))?;
            let t = l
                .tables
                .get((table as usize).wrapping_sub(1))
                .ok_or_else(|| anyhow!("round {} has no table {table}", l.round))?;
            (who, state.players[t.a].name.clone())
        }
        _ => bail!("give --swap PLAYER PLAYER, or --seat PLAYER --table N"),
    };
    let (round, tables, byes) =
        kifu::tournament::rules::swapped(&state, &x, &y).ok_or_else(|| anyhow!("no round is paired"))?;
    // A table whose game has started keeps its players (TOUR-OVER-2).
    kifu::tournament::ops::check_override_games(&store, &a.id, &state, &tables)?;
    let ev = TournamentEvent::PairingOverridden {
        round,
        tables: tables.clone(),
        byes: byes.clone(),
        by: a.by.trim().to_string(),
        reason: a.reason.trim().to_string(),
    };
    let (head, _) = record::record(&store, &a.id, a.actor, vec![ev])?;
    if json {
        output::print_json(&json!({"round": round, "tables": tables, "byes": byes, "head": head.hash.to_hex()}))?;
    } else {
        println!(
            "round {round}: {x} and {y} swapped by {} ({}); `kifu tournament verify` lists it",
            a.by.trim(),
            a.reason.trim()
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// The largest deck-list file the deck commands read (a 60-card list is a few kilobytes).
const DECK_FILE_MAX: u64 = 64 * 1024;

fn read_deck_file(p: &std::path::Path) -> Result<String> {
    let size = std::fs::metadata(p).map_err(|e| anyhow!("cannot read {}: {e}", p.display()))?.len();
    if size > DECK_FILE_MAX {
        bail!("{} has {size} bytes: a deck list has at most {DECK_FILE_MAX}", p.display());
    }
    std::fs::read_to_string(p).map_err(|e| anyhow!("cannot read {}: {e}", p.display()))
}

/// Deck changes and checks are a judge's or organizer's: a player actor is refused.
pub(super) fn official_actor(actor: &Actor, what: &str) -> Result<()> {
    if matches!(actor, Actor::Player(_) | Actor::System) {
        bail!("{what} is a judge's or organizer's (--actor judge:NAME or organizer:NAME), not {actor}'s");
    }
    Ok(())
}

#[derive(clap::Args, Debug)]
pub struct DeckChangeArgs {
    pub id: StreamId,
    /// The player, as registered.
    pub player: String,
    /// The new deck-list file, in the game's deck-list format.
    pub file: std::path::PathBuf,
    /// The judge who allows the change.
    #[arg(long)]
    pub judge: String,
    /// Why (required; on the record).
    #[arg(long)]
    pub reason: String,
    #[arg(long, default_value = "organizer:organizer")]
    pub actor: Actor,
}

/// `kifu tournament deck-change`: a judge changes a registered list after the lock, with a reason.
pub fn run_deck_change(ctx: &Context, a: DeckChangeArgs, json: bool) -> Result<ExitCode> {
    official_actor(&a.actor, "changing a registered deck list")?;
    let text = read_deck_file(&a.file)?;
    let store = ctx.open_store()?;
    let loaded = record::load(&store, &a.id)?;
    if let Some(driver) = kifu::games::driver(&loaded.config.game) {
        driver
            .check_deck(&text, None)
            .map_err(|e| anyhow!("{}'s deck is not legal for {}: {e}", a.player, loaded.config.game))?;
    }
    let salt = kifu::game::commit::Commitment(rand::random::<[u8; 32]>());
    let (head, commitment) = kifu::tournament::ops::change_deck(
        &store,
        &ctx.data_dir,
        &a.id,
        &a.player,
        &text,
        &salt,
        &a.judge,
        &a.reason,
        a.actor,
    )?;
    if json {
        output::print_json(&json!({"player": a.player, "commitment": commitment, "head": head.hash.to_hex()}))?;
    } else {
        println!(
            "{}'s deck list changed by {} ({}); commitment {commitment}",
            a.player,
            a.judge.trim(),
            a.reason.trim()
        );
    }
    Ok(ExitCode::SUCCESS)
}

#[derive(clap::Args, Debug)]
pub struct DeckCheckArgs {
    pub id: StreamId,
    /// The player whose deck is checked.
    pub player: String,
    /// The deck as presented, written out as a deck list (the game's deck-list format).
    pub file: std::path::PathBuf,
    /// The judge who checked it.
    #[arg(long)]
    pub judge: String,
    /// Default: the latest round.
    #[arg(long)]
    pub round: Option<u32>,
    /// The table (or pod) the check was at, if any.
    #[arg(long)]
    pub table: Option<u32>,
    /// When (RFC 3339), for a check entered afterwards; default now.
    #[arg(long)]
    pub at: Option<String>,
    #[arg(long, default_value = "organizer:organizer")]
    pub actor: Actor,
}

/// `kifu tournament deck-check`: compares the presented deck with the registered list; the log
/// records whether it matched and how many cards differ, the differences stay with the judges.
pub fn run_deck_check(ctx: &Context, a: DeckCheckArgs, json: bool) -> Result<ExitCode> {
    official_actor(&a.actor, "a deck check")?;
    let text = read_deck_file(&a.file)?;
    let at = at(ctx, &a.at)?;
    let store = ctx.open_store()?;
    let (state, _) = record::load_state(&store, &a.id)?;
    let round = match a.round {
        Some(r) => r,
        None => state
            .rounds
            .last()
            .map(|r| r.round)
            .ok_or_else(|| anyhow!("no round is paired: a deck check is in a round"))?,
    };
    let salt = kifu::game::commit::Commitment(rand::random::<[u8; 32]>());
    let done = kifu::tournament::ops::deck_check(
        &store,
        &ctx.data_dir,
        &a.id,
        &a.player,
        round,
        a.table,
        at,
        &a.judge,
        &text,
        &salt,
        a.actor,
    )?;
    let cards = done.result.cards();
    if json {
        output::print_json(&json!({
            "check": done.check,
            "player": a.player,
            "round": round,
            "table": a.table,
            "matches": done.differences.is_empty(),
            "cards": cards,
            "differences": done.differences,
            "head": done.head.hash.to_hex(),
        }))?;
    } else if done.differences.is_empty() {
        println!("deck check {}: {}'s deck matches the registered list", done.check, a.player);
    } else {
        println!("deck check {}: {}'s deck differs from the registered list by {cards} card(s):", done.check, a.player);
        for d in &done.differences {
            println!("  {}: registered {}, presented {}", d.card, d.registered, d.presented);
        }
        println!("a penalty is recorded apart: `kifu tournament penalty ... --reason \"deck check {}\"`", done.check);
    }
    Ok(ExitCode::SUCCESS)
}
