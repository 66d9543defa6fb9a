//! The program behind `tools/bench-table`: the table page measured as players use it. For each
//! game, a self-played game that a table records through options alone is recorded again through
//! the replay page in record mode, one headless Chromium session per seat (each with its own
//! player token, the game bound to a tournament table or pod), by tapping the `[data-option]`,
//! `[data-param]` and confirm controls the page shows. Prints one table: taps per player decision
//! (automatic steps are kifu's and cost no tap; nothing is typed), the time from the tap that
//! sends a pick to the new event on every other seat's page (p50/p99, over the live feed on
//! loopback), and the time to the first options when a player opens the page over a throttled
//! link (400 ms latency, 1 Mbit/s), cold and warm. Not a timed test: a measurement to read.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "chromium.rs"]
mod chromium;

use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use fantoccini::Client;
use serde_json::{json, Value};

use chromium::{program, session, throttle};
use kifu::clock::SystemClock;
use kifu::game::commit::{commit_seed, Commitment};
use kifu::game::options::{offering, option_id, ParamKind, Pick};
use kifu::game::reach::{dealer_of, reach};
use kifu::game::replay::{Replay, Step};
use kifu::game::{record, selfplay, Game, GameEntry};
use kifu::log::envelope::{Actor, MatchBinding, MatchPlace, StreamId, Timestamp};
use kifu::server::tokens::{self, Role};
use kifu::server::{AppState, ServerConfig};
use kifu::store::sled_store::SledStore;
use kifu::store::Store;
use kifu::tournament::{round_seed, ConfigV1, Policy, RoundsPlan, TournamentEvent};

const LATENCY_MS: u64 = 400;
const BYTES_PER_S: u64 = 1_000_000 / 8;
const NAMES: [&str; 6] = ["ana", "rui", "kai", "mei", "sol", "tia"];

async fn js(c: &Client, expr: &str) -> Value {
    c.execute(&format!("return ({expr});"), vec![]).await.unwrap()
}

async fn wait_for(c: &Client, expr: &str) -> Value {
    let t0 = Instant::now();
    loop {
        let v = js(c, expr).await;
        if !(v.is_null() || v == json!(false) || v == json!("") || v == json!(0)) {
            return v;
        }
        assert!(t0.elapsed() < Duration::from_secs(20), "timed out waiting for {expr}");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

fn quoted(v: &str) -> String {
    format!("\"{}\"", v.replace('\\', "\\\\").replace('"', "\\\""))
}

/// The control of value `value` of option `id`'s parameter `name`: beside the action in the list
/// (it records at once), or in the action's open picker.
fn value_css(id: &str, name: &str, value: &str) -> String {
    let (id, name, value) = (quoted(id), quoted(name), quoted(value));
    format!("[data-option={id}][data-param={name}][data-value={value}], #record-body[data-editing={id}] [data-param={name}][data-value={value}]")
}

/// Clicks `css` inside the page (no WebDriver round trip between the clock and the click) and
/// returns the page's clock when it did.
async fn tap(c: &Client, css: &str) -> f64 {
    let expr = format!("(() => {{ const e = document.querySelector({}); if (!e || e.disabled) return null; const t = Date.now(); e.click(); return t; }})()", json!(css));
    wait_for(c, &expr).await.as_f64().unwrap()
}

/// A tournament of `game` with `players` registered and round 1 paired (one table or one pod).
fn open_event(store: &dyn Store, tid: &StreamId, game: &str, players: &[String]) -> (Vec<String>, MatchPlace) {
    let seed = Commitment([5; 32]);
    let config = ConfigV1 {
        name: format!("{game} bench"),
        game: game.into(),
        policy: Policy::Mtr,
        rounds: RoundsPlan::Fixed(1),
        top_cut: 0,
        seed_commitment: Some(commit_seed(&seed)),
    };
    let mut regs: Vec<TournamentEvent> =
        players.iter().map(|p| TournamentEvent::PlayerRegistered { player: p.to_string(), deck: None }).collect();
    let pods = players.len() > 2;
    if pods {
        regs.push(TournamentEvent::PodFormatSet { size: players.len() as u32, sole_win: 3, shared_win: 1, loss: 0 });
    }
    let org = Actor::Organizer("ora".into());
    kifu::tournament::record::create(store, tid, &config, org.clone(), Timestamp(1_767_225_600_000_000), regs).unwrap();
    let state = kifu::tournament::record::load(store, tid).unwrap().state;
    let rs = round_seed(&seed, 1);
    if pods {
        let pods = state.derive_pods(1, &rs).unwrap();
        let seated = pods[0].clone();
        let paired = TournamentEvent::PodRoundPaired { round: 1, pods, round_seed: rs };
        kifu::tournament::record::record(store, tid, org, vec![paired]).unwrap();
        (seated, MatchPlace::Pod(1))
    } else {
        let (tables, byes) = state.derive_round(1, &rs);
        let seated = players.to_vec();
        let paired = TournamentEvent::RoundPaired { round: 1, tables, byes, round_seed: Some(rs) };
        kifu::tournament::record::record(store, tid, org, vec![paired]).unwrap();
        (seated, MatchPlace::Table(1))
    }
}

/// The first self-played game of `G` that a table records through options the page draws:
/// every event an option or an automatic step, no escape hatch, no dealer's seed, no sealed value
/// (not on the page yet). `None` when 100 seeds give none.
fn recordable<G: Game>(players: &[String]) -> Option<(G::Config, Vec<G::Event>)> {
    (0..100).find_map(|seed| {
        let game = selfplay::self_play::<G>(seed, players, 5_000).ok()?;
        let events: Vec<G::Event> = game
            .entries
            .into_iter()
            .filter_map(|(_, e)| if let GameEntry::Played(e) = e { Some(e) } else { None })
            .collect();
        let steps = events
            .iter()
            .enumerate()
            .map(|(i, e)| Step {
                seq: i as u64,
                recorded_at: Timestamp(0),
                actor: Actor::System,
                entry: GameEntry::Played(e.clone()),
            })
            .collect();
        let replay = Replay::<G>::new(game.config.clone(), steps).ok()?;
        let r = reach(&replay);
        let sealed = events.iter().enumerate().any(|(i, e)| {
            offering::<G>(&replay.state_at(i as u64).game, e)
                .first()
                .is_some_and(|o| matches!(&o.pick, Pick::Param { param, .. } if param.kind == ParamKind::Secret))
        });
        (G::outcome(&replay.tip().game).is_some()
            && dealer_of(&replay).is_none()
            && r.unreachable.is_empty()
            && r.as_events.is_empty()
            && !sealed)
            .then_some((game.config, events))
    })
}

struct Row {
    game: &'static str,
    seats: usize,
    events: usize,
    automatic: usize,
    decisions: usize,
    taps: usize,
    latencies: Vec<f64>,
    first_cold: f64,
    first_warm: f64,
    note: String,
    /// Taps by the option's label (digits dropped): (decisions, taps).
    by_label: std::collections::BTreeMap<String, (usize, usize)>,
}

/// The wall clock in ms, as a page's `Date.now()` reads it.
fn wall_ms() -> f64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs_f64() * 1000.0
}

fn pct(v: &[f64], p: f64) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    let mut s = v.to_vec();
    s.sort_by(|a, b| a.total_cmp(b));
    s[((s.len() - 1) as f64 * p).round() as usize]
}

/// Time to the page's first options for a player opening the game: the token already in the
/// browser, the link throttled; cold (new profile) and warm (the same browser again, from a blank
/// page: not from kifu's index, whose own requests would still be on the throttled link).
async fn first_options(driver_port: u16, base: &str, url: &str, token: &str) -> (f64, f64) {
    let profile = tempfile::tempdir().unwrap();
    let c = session(driver_port, profile.path()).await;
    c.goto(&format!("{base}/")).await.unwrap();
    js(&c, &format!("(localStorage.setItem('kifu-token', {}), true)", json!(token))).await;
    throttle(driver_port, &c.session_id().await.unwrap().unwrap(), LATENCY_MS, BYTES_PER_S);
    let mark = "(() => { const e = performance.getEntriesByName('kifu-first-options'); return e.length ? e[0].startTime : null; })()";
    c.goto(url).await.unwrap();
    let cold = wait_for(&c, mark).await.as_f64().unwrap();
    c.goto("about:blank").await.unwrap();
    c.goto(url).await.unwrap();
    let warm = wait_for(&c, mark).await.as_f64().unwrap();
    c.close().await.unwrap();
    (cold, warm)
}

#[allow(clippy::too_many_arguments)]
async fn bench_game<G: Game>(
    game: &'static str,
    seats: usize,
    store: &Arc<SledStore>,
    tokens_path: &Path,
    driver_port: u16,
    base: &str,
) -> Row {
    let names: Vec<String> = NAMES[..seats].iter().map(|s| s.to_string()).collect();
    let mut row = Row {
        game,
        seats,
        events: 0,
        automatic: 0,
        decisions: 0,
        taps: 0,
        latencies: vec![],
        first_cold: f64::NAN,
        first_warm: f64::NAN,
        note: String::new(),
        by_label: Default::default(),
    };
    let trace = std::env::var_os("BENCH_TABLE_TRACE").is_some();
    let tid = StreamId::new(&format!("{game}-bench")).unwrap();
    let (players, place) = open_event(&**store, &tid, game, &names);
    eprintln!("{game}: finding a self-played game a page can record");
    let Some((config, events)) = recordable::<G>(&players) else {
        row.note = "no self-played game recordable on the page without sealed values".into();
        return row;
    };
    let stream = StreamId::new(&format!("{tid}-r1-g1")).unwrap();
    let bound = MatchBinding { tournament: tid.clone(), round: 1, place };
    record::create_bound::<G>(&**store, &stream, &config, Timestamp(1_767_225_600_000_000), Some(bound)).unwrap();
    let tokens: Vec<String> = players
        .iter()
        .map(|p| {
            let secret = *blake3::hash(format!("player/{tid}/{p}").as_bytes()).as_bytes();
            tokens::issue(tokens_path, Role::Player, tid.as_str(), p, secret, "2026-01-01T00:00:00Z".into()).unwrap()
        })
        .collect();
    let url = format!("{base}/replay/{stream}");
    eprintln!("{game}: {} events; time to first options", events.len());
    (row.first_cold, row.first_warm) = first_options(driver_port, base, &url, &tokens[0]).await;

    let profiles: Vec<_> = (0..seats).map(|_| tempfile::tempdir().unwrap()).collect();
    let mut sessions = Vec::new();
    for (seat, p) in profiles.iter().enumerate() {
        let c = session(driver_port, p.path()).await;
        c.goto(&format!("{base}/")).await.unwrap();
        js(&c, &format!("(localStorage.setItem('kifu-token', {}), true)", json!(tokens[seat]))).await;
        c.goto(&url).await.unwrap();
        wait_for(&c, "!document.getElementById('record').hidden").await;
        // When each event reaches this page: the board's position, stamped by the page's clock.
        js(&c, "(() => { window.__seen = {}; const b = document.getElementById('board'); new MutationObserver(() => { const n = Number(b.dataset.seq); if (!(n in window.__seen)) window.__seen[n] = Date.now(); }).observe(b, { attributes: true, attributeFilter: ['data-seq'] }); return true; })()").await;
        // When each entry's frame reached the page (record mode hears of every one).
        js(&c, "(() => { window.__frames = {}; const real = kifuRecord.changed; kifuRecord.changed = () => { const n = Number(document.getElementById('scrubber').max); if (!(n in window.__frames)) window.__frames[n] = Date.now(); real(); }; return true; })()").await;
        sessions.push(c);
    }
    eprintln!("{game}: recording through {seats} pages");
    let mut state = G::setup(&config).unwrap();
    let mut len = 0u64;
    let mut played = 0usize;
    while played < events.len() {
        let event = &events[played];
        let o =
            offering::<G>(&state, event).into_iter().next().unwrap_or_else(|| panic!("{game}: {event:?} is no option"));
        let id = option_id(len, &o);
        let c = &sessions[usize::from(o.seat)];
        let button = format!("[data-option={}]", quoted(&id));
        let taps_before = row.taps;
        row.decisions += 1;
        // Values the page shows already (a short list beside the action, or the picker of a seat's
        // only action, opened by itself) are tapped at once; anything else starts with the
        // action's own button.
        let mut sent = f64::NAN;
        let shown = match &o.pick {
            Pick::Param { param, read, .. } if param.kind != ParamKind::Dealt => {
                let first = read(event).unwrap().into_iter().next().unwrap_or_default();
                let css = value_css(&id, param.name, &first);
                wait_for(
                    c,
                    &format!("!!document.querySelector({}) || !!document.querySelector({})", json!(button), json!(css)),
                )
                .await;
                js(c, &format!("!!document.querySelector({})", json!(css))).await == json!(true)
            }
            _ => false,
        };
        if !shown {
            sent = tap(c, &button).await;
            row.taps += 1;
        }
        if let Pick::Param { param, read, .. } = &o.pick {
            let values = read(event).unwrap();
            let stepper = param.kind == ParamKind::Number && param.values.len() > 12;
            if stepper {
                // From the first value up to the one picked, then Record.
                let at = param.values.iter().position(|v| v.value == values[0]).unwrap();
                for _ in 0..at {
                    tap(c, &format!("[data-param={}][data-step=\"1\"]", quoted(param.name))).await;
                    row.taps += 1;
                }
                sent = tap(c, &button).await;
                row.taps += 1;
            } else if param.kind != ParamKind::Dealt {
                // One value records on its tap; several need Record.
                for v in &values {
                    sent = tap(c, &value_css(&id, param.name, v)).await;
                    row.taps += 1;
                }
                if values.len() > 1 {
                    sent = tap(c, &format!("button.primary{button}")).await;
                    row.taps += 1;
                }
            }
        }
        if js(c, "!!document.querySelector('[data-confirm]')").await == json!(true) {
            sent = tap(c, &format!("[data-confirm][data-option={}]", quoted(&id))).await;
            row.taps += 1;
        }
        let t0 = Instant::now();
        let appended_at;
        let now = loop {
            let h = store.head(&stream).unwrap().len;
            if h > len {
                appended_at = wall_ms();
                break h;
            }
            assert!(t0.elapsed() < Duration::from_secs(20), "{game}: nothing recorded after event {len}");
            tokio::time::sleep(Duration::from_millis(5)).await;
        };
        for (s, other) in sessions.iter().enumerate() {
            if s == usize::from(o.seat) {
                continue;
            }
            let seen = wait_for(other, &format!("window.__seen[{now}] || (Number(document.getElementById('board').dataset.seq) >= {now} && Date.now())")).await;
            row.latencies.push(seen.as_f64().unwrap() - sent);
            if trace {
                let frame = js(other, &format!("window.__frames[{now}] || null")).await.as_f64().unwrap_or(f64::NAN);
                eprintln!(
                    "trace {game} #{len}->{now} seat {s}: appended +{:.0} ms, frame +{:.0} ms, board +{:.0} ms",
                    appended_at - sent,
                    frame - sent,
                    seen.as_f64().unwrap() - sent
                );
            }
        }
        let label = match &o.pick {
            Pick::Param { param, .. } => format!("{} [{:?} ×{}]", o.label, param.kind, param.count),
            Pick::Event(_) => o.label.clone(),
        };
        let label: String = label.chars().filter(|c| !c.is_ascii_digit()).collect();
        let e = row.by_label.entry(label).or_insert((0, 0));
        e.0 += 1;
        e.1 += row.taps - taps_before;
        row.automatic += (now - len - 1) as usize;
        for e in &events[played..played + (now - len) as usize] {
            G::ledger_mut(&mut state).at(len);
            state = G::apply(state, e);
            len += 1;
            played += 1;
        }
    }
    row.events = events.len();
    for c in sessions {
        c.close().await.unwrap();
    }
    row
}

fn main() {
    let dir = tempfile::tempdir().unwrap();
    let store = Arc::new(SledStore::open(&dir.path().join("data"), Arc::new(SystemClock)).unwrap());
    let tokens_path = dir.path().join("tokens.json");
    let config = ServerConfig { tokens: Some(tokens_path.clone()), ..ServerConfig::default() };
    let state = AppState::new(store.clone(), Arc::new(SystemClock), config);
    let driver_port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let mut driver = Command::new(program(&["chromedriver"]))
        .arg(format!("--port={driver_port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    let rows = rt.block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let app = kifu::server::app(state);
        tokio::spawn(async move { axum::serve(listener, app).await });
        let t0 = Instant::now();
        while TcpStream::connect(("127.0.0.1", driver_port)).is_err() {
            assert!(t0.elapsed() < Duration::from_secs(15), "chromedriver did not start");
            std::thread::sleep(Duration::from_millis(50));
        }
        use kifu::games::{brk::Brk, fate::Fate, lc::Lc, naruto::Naruto, vanguard::Vanguard};
        // BENCH_TABLE_GAMES=naruto,fate measures only those.
        let only = std::env::var("BENCH_TABLE_GAMES").unwrap_or_default();
        let wanted = |g: &str| only.is_empty() || only.split(',').any(|x| x == g);
        let mut rows = Vec::new();
        if wanted("lc") {
            rows.push(bench_game::<Lc>("lc", 2, &store, &tokens_path, driver_port, &base).await);
        }
        if wanted("vanguard") {
            rows.push(bench_game::<Vanguard>("vanguard", 2, &store, &tokens_path, driver_port, &base).await);
        }
        if wanted("naruto") {
            rows.push(bench_game::<Naruto>("naruto", 2, &store, &tokens_path, driver_port, &base).await);
        }
        if wanted("brk") {
            rows.push(bench_game::<Brk>("brk", 2, &store, &tokens_path, driver_port, &base).await);
        }
        if wanted("fate") {
            rows.push(bench_game::<Fate>("fate", 3, &store, &tokens_path, driver_port, &base).await);
        }
        rows
    });
    let _ = driver.kill();
    let _ = driver.wait();
    let mut t = comfy_table::Table::new();
    t.set_header(vec![
        "game",
        "browsers",
        "events",
        "automatic",
        "decisions",
        "taps",
        "taps/decision",
        "chars typed",
        "tap→others p50 (ms)",
        "tap→others p99 (ms)",
        "first options cold (ms)",
        "first options warm (ms)",
    ]);
    let mut unmeasured = Vec::new();
    let mut costly = Vec::new();
    for r in &rows {
        for (label, (n, taps)) in &r.by_label {
            if taps > n {
                costly.push(format!("{}: {label}: {n} decisions, {taps} taps", r.game));
            }
        }
    }
    for r in rows {
        if !r.note.is_empty() {
            unmeasured.push(format!("{}: {}", r.game, r.note));
            continue;
        }
        t.add_row(vec![
            r.game.to_string(),
            r.seats.to_string(),
            r.events.to_string(),
            r.automatic.to_string(),
            r.decisions.to_string(),
            r.taps.to_string(),
            format!("{:.2}", r.taps as f64 / r.decisions.max(1) as f64),
            "0".into(),
            format!("{:.0}", pct(&r.latencies, 0.5)),
            format!("{:.0}", pct(&r.latencies, 0.99)),
            format!("{:.0}", r.first_cold),
            format!("{:.0}", r.first_warm),
        ]);
    }
    println!(
        "Each game recorded through /replay/GAME in record mode, one Chromium per seat on loopback; first options over Chromium throttling ({LATENCY_MS} ms latency, 1 Mbit/s)"
    );
    println!("{t}");
    for u in unmeasured {
        println!("not measured: {u}");
    }
    // Where the taps beyond one per decision go.
    for c in costly {
        println!("more than one tap: {c}");
    }
}
