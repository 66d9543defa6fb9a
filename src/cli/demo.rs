//! `kifu demo`: builds a fresh store and walks a first-time user through what kifu does:
//! recording self-played games, boards as a player and as a spectator see them, a judge's
//! ruling, the audit, export and verification, the head hashes that identify every log, and two
//! tournaments: a Swiss event of two-player games and a pod event of 4-Master FATE games.

use std::path::Path;
use std::process::ExitCode;

use anyhow::{anyhow, Context as _, Result};

use kifu::game::driver::Driver;
use kifu::game::{Ruling, Viewer};
use kifu::log::envelope::StreamId;
use kifu::log::file;
use kifu::store::sled_store::SledStore;
use kifu::store::Store;

use super::{board, output, Context};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// How many games to self-play per game type.
    #[arg(long, default_value_t = 3)]
    games: u64,
}

/// Prints the next numbered section heading.
fn section(n: &mut usize, title: &str) {
    *n += 1;
    println!();
    println!("━━ {n}. {title}");
}

pub fn run(ctx: &Context, args: Args) -> Result<ExitCode> {
    let dir = ctx.data_dir.join("demo");
    if dir.exists() {
        std::fs::remove_dir_all(&dir)
            .with_context(|| format!("cannot clear the previous demo store {}", dir.display()))?;
    }
    let store = SledStore::open(&dir, ctx.clock().clone())?;
    println!("kifu demo — a fresh store in {}", dir.display());
    println!("Every action below is an event appended to a hash-chained log; replay is a fold over those events.");

    let mut step = 0;
    let drivers = kifu::games::drivers();
    let first = *drivers.first().ok_or_else(|| anyhow!("this build records no games"))?;

    section(&mut step, "Recording games played by the random legal-play agent");
    let games = record_games(ctx, &store, &drivers, args.games)?;
    let showcase = &games[0];
    show_boards(&store, &mut step, &drivers, &games)?;

    let judged = games.get(games.len().min(3) - 1).unwrap_or(showcase).clone();
    section(&mut step, &format!("A judge at work on {judged}"));
    judge_demo(&store, first, &judged)?;

    section(&mut step, "Audit: every event folded and checked against the rules (rule IDs from the digest)");
    audit_games(&store, &games)?;

    section(&mut step, "Export to self-verifying .kifu files, then verify them");
    let exports = dir.join("exports");
    export_games(&store, &games, &exports)?;

    section(&mut step, "A Swiss tournament: 8 players, every match a self-played game, then a top 4");
    let tid = StreamId::new(&format!("{}-swiss-demo", first.ruleset()))?;
    // The organizer's secret pairing seed: committed when the event is created, revealed at the end.
    let seed = kifu::game::commit::Secret::from(blake3::hash(format!("demo {}", ctx.clock().now().0).as_bytes()));
    let run = kifu::tournament::event::run_swiss_event(&store, first, &tid, 8, seed, ctx.clock().as_ref())?;
    println!("{} games were played and linked to their results.", run.games.len());
    super::tournament::show::print_standings(&store, &tid)?;
    println!("Anyone holding the exports can check the final result: every pairing re-derives from the revealed seed,");
    println!("every linked game verifies and audits, and the standings recompute:");
    super::tournament::show::print_report(&run.report);

    if let Some(fate) = kifu::games::driver("fate") {
        section(&mut step, "A pod tournament: 12 FATE Masters in pods of 4, two rounds, points 5/1/0 by place");
        pod_event(ctx, &store, fate)?;
    }

    println!();
    println!("The demo store lives in {}", dir.display());
    println!("Exported files are in {}", exports.display());
    println!("Try next:");
    let data = display(&dir);
    println!("  kifu --data {data} streams");
    println!("  kifu --data {data} game show {showcase} --turn 3 --as p1");
    println!("  kifu --data {data} game replay {showcase} --as spectator");
    println!("  kifu --data {data} game audit {judged}");
    println!("  kifu --data {data} log {judged} --from {}", store.head(&judged)?.len.saturating_sub(4));
    println!("  kifu verify {}", display(&exports.join(format!("{showcase}.kifu"))));
    println!("  kifu --data {data} tournament standings {tid}");
    println!("  kifu --data {data} tournament verify {tid}");
    println!("  kifu --data {data} serve        # these games and events in a browser (the demo has its own store)");
    Ok(ExitCode::SUCCESS)
}

const PLAYERS: [&str; 2] = ["alice", "bob"];

/// The names of the two-player demo games' players.
fn players() -> Vec<String> {
    PLAYERS.map(String::from).to_vec()
}

/// Self-plays `per_game` games of every game this build records, and prints a table of them.
fn record_games(ctx: &Context, store: &SledStore, drivers: &[&dyn Driver], per_game: u64) -> Result<Vec<StreamId>> {
    let mut games: Vec<StreamId> = Vec::new();
    let mut t = output::table(["game", "rules", "players", "events", "turns", "result", "head hash"]);
    for d in drivers {
        for seed in 1..=per_game {
            let id = StreamId::new(&format!("{}-table-{seed}", d.ruleset()))?;
            let names = seats_for(d.ruleset(), &players());
            let head = d.self_play(store, &id, seed, &names, ctx.clock().now())?;
            let log = store.export(&id)?;
            let session = d.open(&log)?;
            let last = session.board(session.len(), Viewer::Spectator);
            t.add_row([
                id.to_string(),
                format!("{} v{}", d.ruleset(), d.ruleset_version()),
                names.join(" vs "),
                head.len.to_string(),
                last.turn.to_string(),
                result_text(&last.outcome, &names),
                head.hash.short(),
            ]);
            games.push(id);
        }
    }
    println!("{t}");
    Ok(games)
}

/// The first game mid-game as its first player and a spectator saw it, then every other game
/// this build records as its second player saw it.
fn show_boards(store: &SledStore, step: &mut usize, drivers: &[&dyn Driver], games: &[StreamId]) -> Result<()> {
    let (first, showcase) = (drivers[0], &games[0]);
    let players = players();
    let log = store.export(showcase)?;
    let session = first.open(&log)?;
    let final_turn = session.position_at(session.len()).turn;
    let start = session.seek_turn(final_turn / 2 + 1, None).unwrap_or(session.len() / 2);
    // A moment when both players hold cards, so the difference between the two views shows.
    let hand = |b: &kifu::game::view::BoardView, seat: usize| {
        b.seats.get(seat).and_then(|s| s.zones.iter().find(|z| z.zone == "hand")).map_or(0, |z| z.count)
    };
    let mid = (start..session.len())
        .find(|&n| {
            let b = session.board(n, Viewer::Judge);
            hand(&b, 0) > 0 && hand(&b, 1) > 0
        })
        .unwrap_or(start);
    section(step, &format!("{showcase} in the middle of the game, as alice saw it"));
    board::print(&session.board(mid, Viewer::Player(0)), &players, &format!("after {mid} of {} events", session.len()));
    println!("alice sees her own hand; bob's hand is face down to her.");
    section(step, "The same moment as a spectator sees it: hidden cards stay hidden");
    board::print(&session.board(mid, Viewer::Spectator), &players, &format!("after {mid} of {} events", session.len()));
    println!("What happened just before, as a spectator saw it:");
    for e in (mid.saturating_sub(4)..mid).filter_map(|s| session.describe(s, Viewer::Spectator)) {
        println!("  event {:>4} · turn {:>2} {:<12} · {:<14} {}", e.seq, e.turn, e.step, e.actor, e.text);
    }
    for d in drivers.iter().skip(1) {
        let Some(id) = games.iter().find(|g| g.as_str().starts_with(d.ruleset())) else { continue };
        let log = store.export(id)?;
        let s = d.open(&log)?;
        let at = s.seek_turn(s.position_at(s.len()).turn / 2 + 1, None).unwrap_or(s.len() / 2);
        section(step, &format!("A {} game too: {id} in the middle, as bob saw it", d.ruleset()));
        let names = seats_for(d.ruleset(), &players);
        board::print(&s.board(at, Viewer::Player(1)), &names, &format!("after {at} of {} events", s.len()));
    }
    Ok(())
}

/// Audits every game and prints a table of the findings.
fn audit_games(store: &SledStore, games: &[StreamId]) -> Result<()> {
    let mut t = output::table(["game", "events", "result", "findings", "unresolved", "sealed cards left hidden"]);
    for id in games {
        let log = store.export(id)?;
        let d = super::game::driver_for(&log)?;
        let r = d.audit(&log)?;
        t.add_row([
            id.to_string(),
            r.events.to_string(),
            result_text(&r.outcome, &seats_for(d.ruleset(), &players())),
            r.findings.len().to_string(),
            r.unresolved().to_string(),
            r.unrevealed_sealed_cards.to_string(),
        ]);
    }
    println!("{t}");
    Ok(())
}

/// Exports every game to a `.kifu` file in `exports`, reads each back and prints its head hash.
fn export_games(store: &SledStore, games: &[StreamId], exports: &Path) -> Result<()> {
    std::fs::create_dir_all(exports)?;
    let mut t = output::table(["file", "events", "verified", "head hash (identifies the whole log)"]);
    for id in games {
        let log = store.export(id)?;
        let path = exports.join(format!("{id}.kifu"));
        std::fs::write(&path, file::write(&log))?;
        let back = file::read(&std::fs::read(&path)?).map_err(|e| anyhow!("{}: {e}", path.display()))?;
        let name = path.file_name().map_or(String::new(), |n| n.to_string_lossy().to_string());
        t.add_row([name, back.head.len.to_string(), "chain checks".to_string(), back.head.hash.to_hex()]);
    }
    println!("{t}");
    Ok(())
}

/// A pod event of 12 FATE Masters, two rounds, with its standings and verification.
fn pod_event(ctx: &Context, store: &SledStore, fate: &'static dyn Driver) -> Result<()> {
    let pid = StreamId::new("fate-pods-demo")?;
    let seed = kifu::game::commit::Secret::from(blake3::hash(format!("pods {}", ctx.clock().now().0).as_bytes()));
    let run = kifu::tournament::event::run_pod_event(store, fate, &pid, 12, 2, seed, ctx.clock().as_ref())?;
    println!(
        "{} games of 4 Masters were played; each pod's places were reported with its game linked.",
        run.games.len()
    );
    super::tournament::show::print_standings(store, &pid)?;
    println!("Verification re-derives every pod from the revealed seed and checks every place against its game:");
    super::tournament::show::print_report(&run.report);
    Ok(())
}

/// The players of a demo game: FATE seats 4 Masters (2 is only a variant), the others two players.
fn seats_for(ruleset: &str, two: &[String]) -> Vec<String> {
    if ruleset == "fate" {
        ["alice", "bob", "carol", "dave"].map(String::from).to_vec()
    } else {
        two.to_vec()
    }
}

fn display(p: &Path) -> String {
    p.display().to_string()
}

fn result_text(outcome: &Option<kifu::game::Outcome>, players: &[String]) -> String {
    match outcome {
        None => "unfinished".into(),
        Some(o) => format!("{}: {}", o.headline(players), o.reason),
    }
}

/// An illegal action refused with its rule IDs, then forced by a judge (stored and flagged),
/// then undone by a backup ruling: all new events, nothing rewritten.
fn judge_demo(store: &SledStore, d: &dyn Driver, id: &StreamId) -> Result<()> {
    let log = store.export(id)?;
    let jsonl = d.export_jsonl(&log)?;
    // Replaying the game's first action now, at the end, breaks the rules of the turn structure.
    let first_line = jsonl.lines().nth(1).ok_or_else(|| anyhow!("{id} has no events"))?;
    let line: serde_json::Value = serde_json::from_str(first_line)?;
    let event =
        line.pointer("/entry/Played").ok_or_else(|| anyhow!("{id}: event 0 is not a played action"))?.to_string();
    let before = log.head.len;
    println!("Someone tries to record, at the end of the game, the action that opened it:");
    println!("  {event}");
    match d.act_json(store, id, None, &event, None, None, None) {
        Ok(r) => println!("  (unexpectedly legal: recorded as event {})", r.seq),
        Err(e) => {
            println!("  REFUSED, nothing written:");
            for l in e.to_string().lines().skip(1) {
                println!("  {l}");
            }
        }
    }
    let forced = d.act_json(store, id, None, &event, Some("jin".into()), None, None)?;
    println!(
        "Judge jin forces it into the log anyway: event {}, flagged as breaking {}.",
        forced.seq,
        forced.flagged.iter().map(|v| v.rule).collect::<Vec<_>>().join(", ")
    );
    let backup = Ruling::BackedUp {
        judge: "jin".into(),
        to_seq: before,
        note: "recorded in error; the game is restored".into(),
    };
    let b = d.rule(store, id, kifu::log::envelope::Actor::Judge("jin".into()), backup, None, None)?;
    println!("Judge jin then backs the game up to before event {before}: ruling recorded as event {}.", b.seq);
    println!("History is never rewritten: the forced event and the backup both stay in the log, and the audit shows the finding as ruled on.");
    Ok(())
}
