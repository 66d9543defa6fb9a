//! `kifu tournament ...`: run a Swiss event as an organizer (new, register, drop, pair, report,
//! standings, top-cut, finalize), check one (verify), move one in and out (export, import).
//! Every command takes `--json`.

mod cases;
mod io;
mod judging;
mod manage;
mod rounds;
pub mod show;
mod sign;

use std::process::ExitCode;

use anyhow::Result;

use kifu::game::commit::Secret;
use kifu::tournament::{ops, TournamentError};

use super::Context;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Print JSON instead of tables.
    #[arg(long, global = true)]
    json: bool,
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand, Debug)]
pub enum Command {
    /// Create a tournament: name, game, policy, rounds, top cut; commits to a secret pairing seed.
    New(manage::NewArgs),
    /// Register players (after round 1 is paired they enter late).
    Register(manage::RegisterArgs),
    /// Drop a player: never paired again.
    Drop(manage::DropArgs),
    /// Register a player's deck list: checked by the game's deck rules, kept private, its
    /// commitment recorded. Games created from a pairing take the players' registered lists.
    Deck(manage::DeckArgs),
    /// A judge changes a player's registered deck list after the lock, with a reason.
    DeckChange(judging::DeckChangeArgs),
    /// A deck check: the deck presented (as a list file) against the registered list; the log
    /// says whether it matched and how many cards differ, the differences stay with the judges.
    DeckCheck(judging::DeckCheckArgs),
    /// Pair the next Swiss round from the seed and the standings; prints the pairings.
    Pair(rounds::PairNextArgs),
    /// Report (or, as a judge, correct) a match result, linking the games played.
    Report(rounds::ReportArgs),
    /// The standings with every tiebreaker.
    Standings(show::StandingsArgs),
    /// Why a player was paired as they were (score group, pair-downs, rematches, the bye) and
    /// ranks where they do (each tiebreaker with the opponents it comes from).
    Explain(show::ExplainArgs),
    /// Pair the next single-elimination round of the top cut (seeded 1v8, 4v5, 2v7, 3v6).
    TopCut(rounds::PairArgs),
    /// Record a signer's public key (from their key file): closed rounds and the final root must then be signed.
    Signer(sign::SignerArgs),
    /// Sign the next unsigned checkpoint (a closed round, or the final root after finalize).
    Sign(sign::SignArgs),
    /// Final placings: the champion, each top-cut round, then the Swiss order.
    Placings(show::PlacingsArgs),
    /// Reveal the pairing seed and finalize the tournament (a judge can finalize early with a reason).
    Finalize(rounds::FinalizeArgs),
    /// Void the latest round before any result is reported; `pair` then re-pairs it.
    Void(rounds::VoidArgs),
    /// Repair a tournament an older build damaged: set aside a stored event that decodes as no
    /// tournament event (`kifu verify` names it), on the record; its bytes stay in the log.
    SetAside(rounds::SetAsideArgs),
    /// Record a judge's penalty: warning, game-loss, match-loss or dq (which drops the player).
    Penalty(manage::PenaltyArgs),
    /// Judge calls: open, take, escalate, close (the match gets the time back), extend, list.
    Call(judging::CallArgs),
    /// Name the event's head judge (escalations go to them; only they decide appeals).
    HeadJudge(judging::HeadJudgeArgs),
    /// The event policy's infraction table: codes, default penalties, repeat upgrades.
    Infractions(judging::InfractionsArgs),
    /// A player's penalty history in the event (everyone's without a player), with appeals.
    Penalties(judging::HistoryArgs),
    /// Appeal a penalty or a call's ruling to the head judge.
    Appeal(judging::AppealArgs),
    /// The head judge decides an appeal: upheld, overturned, or the penalty it becomes.
    Decide(judging::DecideArgs),
    /// Change the latest round's pairings by hand (swap two players, seat one at a table), with
    /// who and why: an event that verify lists.
    Override(judging::OverrideArgs),
    /// A round's tables with results and the time extension judge calls gave each.
    Pairings(judging::PairingsArgs),
    /// Record a statement in an investigation (player, opponent, witness or judge): its text is
    /// kept for the judges only, the log holds its sealed commitment.
    Statement(cases::StatementArgs),
    /// The head judge's disqualification report (facts found, reasons), signed with their key file.
    DqReport(cases::ReportArgs),
    /// A player's case file: calls, penalties with upgrades and appeals, deck checks, statements,
    /// disqualification reports and whether their signatures verify.
    Case(cases::CaseArgs),
    /// Check a case exported with `case --export` (by a conduct reviewer, with no data
    /// directory): the log's chain and rules, each statement against its seal, each signature.
    CaseCheck(cases::CaseCheckArgs),
    /// Verify the chain, every pairing, the standings and every linked game; prints the root hash.
    Verify(show::VerifyArgs),
    /// Write the tournament's events as JSON.
    Export(io::ExportArgs),
    /// Create a tournament from another system's export (e.g. --from melee FILE).
    Import(io::ImportArgs),
}

pub fn run(ctx: &Context, args: Args) -> Result<ExitCode> {
    let json = args.json;
    match dispatch(ctx, args) {
        Err(e) if json => {
            // A refusal lists every rule broken ("problems" as text, "violations" with each rule's
            // ID apart); other errors carry their whole chain.
            let violations = match e.downcast_ref::<TournamentError>() {
                Some(TournamentError::Refused { problems, .. }) => problems.clone(),
                _ => vec![],
            };
            let problems: Vec<String> = violations.iter().map(|v| v.to_string()).collect();
            crate::cli::output::print_json(&serde_json::json!({
                "error": format!("{e:#}"),
                "problems": problems,
                "violations": violations,
            }))?;
            Ok(ExitCode::from(1))
        }
        other => other,
    }
}

fn dispatch(ctx: &Context, args: Args) -> Result<ExitCode> {
    let json = args.json;
    match args.command {
        Command::New(a) => manage::run_new(ctx, a, json),
        Command::Register(a) => manage::run_register(ctx, a, json),
        Command::Drop(a) => manage::run_drop(ctx, a, json),
        Command::Deck(a) => manage::run_deck(ctx, a, json),
        Command::DeckChange(a) => judging::run_deck_change(ctx, a, json),
        Command::DeckCheck(a) => judging::run_deck_check(ctx, a, json),
        Command::Pair(a) => rounds::run_pair(ctx, a, json),
        Command::Report(a) => rounds::run_report(ctx, a, json),
        Command::Standings(a) => show::run_standings(ctx, a, json),
        Command::Explain(a) => show::run_explain(ctx, a, json),
        Command::TopCut(a) => rounds::run_top_cut(ctx, a, json),
        Command::Finalize(a) => rounds::run_finalize(ctx, a, json),
        Command::Void(a) => rounds::run_void(ctx, a, json),
        Command::SetAside(a) => rounds::run_set_aside(ctx, a, json),
        Command::Placings(a) => show::run_placings(ctx, a, json),
        Command::Signer(a) => sign::run_signer(ctx, a, json),
        Command::Sign(a) => sign::run_sign(ctx, a, json),
        Command::Penalty(a) => manage::run_penalty(ctx, a, json),
        Command::Call(a) => judging::run_call(ctx, a, json),
        Command::HeadJudge(a) => judging::run_head_judge(ctx, a, json),
        Command::Infractions(a) => judging::run_infractions(ctx, a, json),
        Command::Penalties(a) => judging::run_history(ctx, a, json),
        Command::Appeal(a) => judging::run_appeal(ctx, a, json),
        Command::Decide(a) => judging::run_decide(ctx, a, json),
        Command::Pairings(a) => judging::run_pairings(ctx, a, json),
        Command::Override(a) => judging::run_override(ctx, a, json),
        Command::Statement(a) => cases::run_statement(ctx, a, json),
        Command::DqReport(a) => cases::run_report(ctx, a, json),
        Command::Case(a) => cases::run_case(ctx, a, json),
        Command::CaseCheck(a) => cases::run_case_check(a, json),
        Command::Verify(a) => show::run_verify(ctx, a, json),
        Command::Export(a) => io::run_export(ctx, a, json),
        Command::Import(a) => io::run_import(ctx, a, json),
    }
}

fn parse_seed(s: &str) -> Result<Secret> {
    Ok(ops::parse_seed(s)?)
}
