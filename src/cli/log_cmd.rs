//! `kifu log STREAM`: a stream's events, who recorded them and when, with their hashes.

use std::process::ExitCode;

use anyhow::Result;

use kifu::log::chain::{self, VerifiedLog};
use kifu::log::envelope::StreamId;
use kifu::log::json;
use kifu::store::Store;

use super::{output, payload, Context};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The stream id.
    stream: StreamId,
    /// First sequence number to show.
    #[arg(long, default_value_t = 0)]
    from: u64,
    /// Last sequence number to show (inclusive).
    #[arg(long)]
    to: Option<u64>,
    /// Print the events as JSON (the JSON log form's event objects).
    #[arg(long)]
    json: bool,
}

pub fn run(ctx: &Context, args: Args) -> Result<ExitCode> {
    let store = ctx.open_store()?;
    let (header_bytes, header) = store.header(&args.stream)?;
    let head = store.head(&args.stream)?;
    let to = args.to.map_or(head.len, |t| t.saturating_add(1)).min(head.len);
    let stored = store.read(&args.stream, args.from, to)?;
    // Reuse the JSON form so `log --json` and `export --json` agree field for field.
    let slice = VerifiedLog { header_bytes, header: header.clone(), events: stored, head };
    let events = json::to_json(&slice)?.events;
    if args.json {
        output::print_json(&events)?;
        return Ok(ExitCode::SUCCESS);
    }
    // Game events are described through their game, in one fold over the whole (verified) game,
    // as a judge sees them: `kifu log` is the audit trail. Other payloads are shown as they are.
    let game_lines = match kifu::games::driver(&header.v1().ruleset) {
        Some(d) if header.v1().kind == kifu::log::envelope::StreamKind::Game => {
            let whole = store.export(&args.stream)?;
            Some(d.open(&whole)?.timeline(kifu::game::Viewer::Judge))
        }
        _ => None,
    };
    // "entered by" is the envelope's actor; "action of" names the seat's player when someone else
    // (a scorekeeper, a judge, kifu) entered that player's action.
    let mut t = output::table(["seq", "recorded (UTC)", "entered by", "action of", "event", "hash"]);
    for (e, stored) in events.iter().zip(&slice.events) {
        let (text, action_of) = match &game_lines {
            Some(lines) => lines
                .get(e.seq as usize)
                .map(|l| (l.shown_text(), l.action_of.clone().unwrap_or_default()))
                .unwrap_or_default(),
            None => {
                let (env, _) = chain::open_event(stored).map_err(|p| anyhow::anyhow!("event {}: {p}", e.seq))?;
                (payload::describe(&header, &env.v1().payload), String::new())
            }
        };
        let at = e.recorded_at_utc.replace('T', " ");
        t.add_row([e.seq.to_string(), at, e.actor.to_string(), action_of, text, e.hash.short()]);
    }
    println!("{t}");
    println!("{} of {} events shown; head {}", events.len(), head.len, head.hash);
    Ok(ExitCode::SUCCESS)
}
