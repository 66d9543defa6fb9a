//! The table page (issue 30's "done when"): a complete game of each of the five games recorded
//! on `/replay/GAME` by its players (two, or a pod of three for FATE), each in a headless
//! Chromium session of their own with their own token, seat 0 on a 390×844 phone, tapping the
//! `[data-option]` controls the page shows (the `[data-param]` values the agent's event carries,
//! where each card of a sealed placement goes; the pages make and open their own seals and dice
//! chains), while a judge at the table forces one illegal action with a note, backs it up and
//! issues a warning, and a spectator with no token follows the game live. The first seat then
//! reports the match's result from the outcome. The log equals the agent's game, verifies and
//! audits as expected; no page offered another seat's options, the spectator's page never showed
//! or received a hidden card; on the phone nothing scrolls sideways and every button of the panel
//! is at least 44 px; axe-core finds no serious violation. Screenshots of record mode are saved
//! under `target/screenshots/`. One helper, [`record_at_the_table`], for every game.

use std::collections::{BTreeMap, HashSet};
use std::time::{Duration, Instant};

use axum::http::StatusCode;
use fantoccini::{Client, Locator};
use serde_json::{json, Value};

use kifu::game::{record, Game, GameEntry, Ruling};
use kifu::games::brk::events::{BrkEvent, CardRef};
use kifu::games::brk::Brk;
use kifu::games::fate::{Fate, FateEvent};
use kifu::games::lc::Lc;
use kifu::games::naruto::NarutoV4;
use kifu::games::vanguard::VanguardV2;
use kifu::log::envelope::{Actor, MatchBinding, MatchPlace, StreamId, Timestamp};
use kifu::server::tokens::Role;
use kifu::store::Store;

use super::browser::{
    assert_no_sideways_scroll, axe_check, axe_source, connect_own, js, screenshot, serve_app, start_chromedriver,
    use_token, wait_for, PATIENCE,
};
use super::five_games::{is_secret, open_pod, option_for, shortest_recordable};
use super::leak::{assert_no_leak, hidden, occurrences, without_known_cards};
use super::seals_page::{chain_links, in_cell_order, same_play, sealed_cards};
use super::table_judge::{choose, judge_says};
use super::{get, open_match_of, rt, ServerEnv};

/// A CSS attribute value in double quotes.
pub(super) fn quoted(v: &str) -> String {
    format!("\"{}\"", v.replace('\\', "\\\\").replace('"', "\\\""))
}

/// Clicks the first element matching `css`, again if the page redrew it in between (a live
/// entry arriving re-renders the options).
pub(super) async fn tap(c: &Client, css: &str) {
    let t0 = Instant::now();
    loop {
        let tried = match c.find(Locator::Css(css)).await {
            Ok(e) => e.click().await.map_err(|e| e.to_string()),
            Err(e) => Err(e.to_string()),
        };
        match tried {
            Ok(()) => return,
            Err(e) => {
                assert!(t0.elapsed() < PATIENCE, "cannot tap {css}: {e}");
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }
    }
}

/// The seats of every option control the page shows now.
async fn shown_seats(c: &Client) -> Vec<u64> {
    let v = js(c, "[...document.querySelectorAll('[data-option]')].map((b) => Number(b.dataset.seat))").await;
    v.as_array().map(|a| a.iter().filter_map(Value::as_u64).collect()).unwrap_or_default()
}

/// Every button of the record panel is at least 44 px each way (a thumb's target).
async fn assert_touch_targets(c: &Client, at: &str) {
    let small = js(
        c,
        "[...document.querySelectorAll('#record button')].filter((b) => b.offsetParent).map((b) => b.getBoundingClientRect()).filter((r) => r.width < 44 || r.height < 44).map((r) => [r.width, r.height])",
    )
    .await;
    assert_eq!(small, json!([]), "touch targets under 44 px at {at}");
}

/// The number of events in `stream` once it is more than `len` (within [`PATIENCE`]).
pub(super) async fn grown(store: &dyn Store, stream: &StreamId, len: u64) -> u64 {
    let t0 = Instant::now();
    loop {
        let now = store.head(stream).map(|h| h.len).unwrap_or(0);
        if now > len {
            return now;
        }
        assert!(t0.elapsed() < PATIENCE, "nothing was recorded after event {len}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Screenshots of record mode, once each: the options list on both screens, the card picker.
async fn shots(sessions: &[Client], shot: &mut Vec<String>, name: String, seat: usize) {
    if shot.contains(&name) {
        return;
    }
    screenshot(&sessions[seat], &name).await;
    shot.push(name);
}

/// The control of value `value` of option `id`'s parameter `name`: beside the action in the list
/// (where it records at once), or in the action's open picker.
pub(super) fn value_css(id: &str, name: &str, value: &str) -> String {
    let (id, name, value) = (quoted(id), quoted(name), quoted(value));
    format!("[data-option={id}][data-param={name}][data-value={value}], #record-body[data-editing={id}] [data-param={name}][data-value={value}]")
}

/// Opens option `id` with its button, unless the page shows its values already (a short list
/// beside the action, or the picker of the seat's only action, open by itself). The page shows
/// the option (`[data-option]`) when this is called.
pub(super) async fn open_option(c: &Client, id: &str, params: &BTreeMap<String, Value>) {
    let first = params.iter().next().and_then(|(name, v)| {
        let v = match v {
            Value::Array(a) => a.first()?.as_str()?.to_string(),
            v => v.as_str()?.to_string(),
        };
        Some(value_css(id, name, &v))
    });
    if let Some(css) = first {
        if js(c, &format!("!!document.querySelector({})", json!(css))).await == json!(true) {
            return;
        }
    }
    tap(c, &format!("[data-option={}]", quoted(id))).await;
}

/// Taps the values of each parameter of option `id` (a value picked twice is tapped twice), then
/// its Record button when there are several: one value is recorded by its tap.
pub(super) async fn tap_values(c: &Client, id: &str, params: &BTreeMap<String, Value>) {
    let mut tapped = 0;
    for (name, values) in params {
        let values: Vec<String> = match values {
            Value::Array(a) => a.iter().filter_map(|v| v.as_str().map(String::from)).collect(),
            v => v.as_str().map(String::from).into_iter().collect(),
        };
        for v in values {
            tap(c, &value_css(id, name, &v)).await;
            tapped += 1;
        }
    }
    if tapped > 1 {
        tap(c, &format!("button.primary[data-option={}]", quoted(id))).await;
    }
}

/// What a game brings to the table besides its options: its name, its seats, and only what its
/// sealed forms need; everything else is the same for every game ([`record_at_the_table`]).
pub(super) trait AtTable: Game + Sized {
    /// The ruleset's name (the tournament's game).
    const NAME: &'static str;
    /// The seats at the table (a pod beyond two).
    const PLAYERS: usize = 2;
    /// The agent's game as the pages play it: the shortest of a few seeds (a browser records
    /// every event of it).
    fn agent(players: &[String]) -> (Self::Config, Vec<Self::Event>) {
        shortest_recordable::<Self>(players, 12)
    }
    /// What `seat`'s page keeps before the game (its storage), so its secrets are the agent's.
    fn kept(_events: &[Self::Event], _seat: u8) -> Option<Value> {
        None
    }
    /// Where each card of a sealed placement goes: (card, cell, face down); empty for any other
    /// event.
    fn placement(_config: &Self::Config, _events: &[Self::Event], _event: &Self::Event) -> Vec<(String, String, bool)> {
        Vec::new()
    }
    /// The agent's event and the logged one are the same play (a page's own secrets aside).
    fn same(agent: &Self::Event, logged: &Self::Event) -> bool {
        agent == logged
    }
}

impl AtTable for Lc {
    const NAME: &'static str = "lc";
}

impl AtTable for VanguardV2 {
    const NAME: &'static str = "vanguard";
}

impl AtTable for NarutoV4 {
    const NAME: &'static str = "naruto";
}

impl AtTable for Brk {
    const NAME: &'static str = "brk";
    fn agent(players: &[String]) -> (Self::Config, Vec<BrkEvent>) {
        let (config, events) = shortest_recordable::<Brk>(players, 12);
        (config, in_cell_order(&events))
    }
    fn placement(config: &Self::Config, events: &[BrkEvent], event: &BrkEvent) -> Vec<(String, String, bool)> {
        let BrkEvent::SquadDeployed { cards, .. } = event else { return Vec::new() };
        let hidden = sealed_cards(&Brk::setup(config).unwrap(), events);
        let card = |c: &CardRef| match c {
            CardRef::Open(i) => i.clone(),
            CardRef::Sealed(s) => hidden[s].clone(),
        };
        cards.iter().map(|d| (card(&d.card), d.cell.name(), d.hidden)).collect()
    }
    fn same(agent: &BrkEvent, logged: &BrkEvent) -> bool {
        same_play(agent, logged)
    }
}

impl AtTable for Fate {
    const NAME: &'static str = "fate";
    const PLAYERS: usize = 3;
    /// The last link the agent's dice chain reveals, as the chain's secret: the page hashes its
    /// way to the agent's tip and links.
    fn kept(events: &[FateEvent], seat: u8) -> Option<Value> {
        let links = chain_links(events, seat);
        let last = links.last()?;
        Some(json!({ "chains": { "dice": { "secret": last.to_hex(), "length": links.len() } } }))
    }
    /// A chain never revealed is the page's own: its tip is not the agent's.
    fn same(agent: &FateEvent, logged: &FateEvent) -> bool {
        use kifu::game::common::CommonEvent::ChainCommitted;
        match (agent, logged) {
            (
                FateEvent::Common(ChainCommitted { key: a, seat: s, .. }),
                FateEvent::Common(ChainCommitted { key: b, seat: t, .. }),
            ) => a == b && s == t,
            (a, b) => a == b,
        }
    }
}

/// Fills the judge's force form from an event's JSON (a unit variant, or one whose fields are
/// plain values): picks the variant, then sets each field as a person would. "ok" when filled.
const FILL_FORCE: &str = r#"((ev) => {
  const at = (path) => document.querySelector(`[data-tool="force"] [data-field="${path}"]`);
  const set = (path, v) => {
    const e = at(path);
    if (!e) return false;
    if (e.type === "checkbox") e.checked = !!v;
    else e.value = String(v);
    e.dispatchEvent(new Event("change", { bubbles: true }));
    return true;
  };
  const name = typeof ev === "string" ? ev : Object.keys(ev)[0];
  if (!set("event", name)) return "no variant " + name;
  if (typeof ev === "string") return "ok";
  for (const [k, v] of Object.entries(ev[name])) {
    const path = name + "." + k;
    if (v === null) continue;
    const opt = at(path + "?");
    if (opt) set(path + "?", true);
    if (!set(path, v)) return "no field " + path;
  }
  return "ok";
})"#;

/// The first of `earlier` the rules refuse now whose JSON the force form takes field by field.
fn illegal_again<G: Game>(state: &G::State, earlier: &[G::Event]) -> Option<(G::Event, Value)> {
    let flat = |v: &Value| match v {
        Value::String(_) => true,
        Value::Object(o) => {
            o.len() == 1
                && o.values()
                    .all(|b| b.as_object().is_some_and(|f| f.values().all(|x| !x.is_object() && !x.is_array())))
        }
        _ => false,
    };
    earlier
        .iter()
        .filter(|e| !G::validate(state, e).is_empty())
        .map(|e| (e.clone(), serde_json::to_value(e).unwrap()))
        .find(|(_, v)| flat(v))
}

/// The judge's page forces `illegal` (the page lists the rules it breaks; the judge's note is
/// recorded about it), backs the game up to before it, and warns `warned`; returns the forced
/// event's sequence number.
async fn judge_at_the_table(
    desk: &Client,
    store: &dyn Store,
    stream: &StreamId,
    illegal: &Value,
    warned: usize,
) -> u64 {
    let at = store.head(stream).unwrap().len;
    tap(desk, "[data-judge=\"open-force\"]").await;
    wait_for(desk, "document.querySelector('[data-tool=\"force\"] [data-field=\"event\"]')").await;
    // The force form speaks the players' words: no type name such as `FirstPlayerChosen`.
    let names = "[...document.querySelectorAll('[data-tool=\"force\"] select[data-field=\"event\"] option')].map((o) => o.textContent)";
    let typed = js(desk, &format!("{names}.filter((t) => /[a-z][A-Z]/.test(t))")).await;
    assert_eq!(typed, json!([]), "type names in the force form");
    assert!(js(desk, &format!("{names}.length")).await.as_u64().unwrap() > 3, "the force form lists the game's events");
    assert_eq!(js(desk, &format!("{FILL_FORCE}({illegal})")).await, json!("ok"), "the force form takes {illegal}");
    tap(desk, "[data-judge=\"check\"]").await;
    wait_for(desk, "document.querySelector('[data-field=\"verdict\"] li[data-rule]')").await;
    choose(desk, "[data-tool=\"force\"] [data-field=\"note\"]", "played again by mistake; backed up").await;
    tap(desk, "[data-judge=\"force\"]").await;
    judge_says(desk, "Forced as event").await;
    assert_eq!(store.head(stream).unwrap().len, at + 2, "the forced event and the judge's note");
    tap(desk, "[data-judge=\"open-backup\"]").await;
    choose(desk, "[data-tool=\"backup\"] [data-field=\"to_seq\"]", &at.to_string()).await;
    wait_for(desk, "document.querySelectorAll('[data-tool=\"backup\"] .undone-list li').length === 2").await;
    tap(desk, "[data-judge=\"backup\"]").await;
    desk.accept_alert().await.unwrap();
    grown(store, stream, at + 2).await;
    // The list marks the forced event undone as the backup arrives live.
    wait_for(
        desk,
        &format!("document.querySelector('#events li.ev[data-seq=\"{at}\"]')?.classList.contains('undone')"),
    )
    .await;
    tap(desk, "[data-judge=\"open-penalty\"]").await;
    choose(desk, "[data-tool=\"penalty\"] [data-field=\"seat\"]", &warned.to_string()).await;
    choose(desk, "[data-tool=\"penalty\"] [data-field=\"note\"]", "slow play").await;
    tap(desk, "[data-judge=\"penalty\"]").await;
    grown(store, stream, at + 3).await;
    at
}

/// Keeps every board response the page receives from now on (`window.kifuBoards`).
const KEEP_BOARDS: &str = "(() => { window.kifuBoards = []; const real = window.fetch; window.fetch = async (url, o) => { const r = await real(url, o); if (String(url).includes('/board')) r.clone().text().then((t) => window.kifuBoards.push(t)); return r; }; return true; })()";

/// The catalog ids of the cards a board shows face up.
fn public_cards(v: &Value, out: &mut HashSet<String>) {
    match v {
        Value::Object(m) => {
            if let Some(c) = m.get("Known").and_then(|k| k["card"].as_str()) {
                out.insert(c.to_string());
            }
            m.values().for_each(|x| public_cards(x, out));
        }
        Value::Array(a) => a.iter().for_each(|x| public_cards(x, out)),
        _ => {}
    }
}

/// The spectator's page following the game live: what it shows at event `seq` and every board it
/// received since the last look name no card the judge sees hidden from a spectator at that
/// point. Returns how many cards were hidden from it at `seq` (the check is not vacuous).
async fn spectator_saw_nothing_hidden(
    c: &Client,
    app: &axum::Router,
    judge: &str,
    stream: &StreamId,
    seq: u64,
) -> usize {
    let hidden_at = |n: u64| async move {
        let base = format!("/api/v1/games/{stream}/board?seq={n}");
        let (_, j) = get(app, &format!("{base}&as=judge"), Some(judge)).await;
        let (_, v) = get(app, &format!("{base}&as=spectator"), None).await;
        (hidden(&j["board"], &v["board"]), v["board"].clone())
    };
    wait_for(c, &format!("document.getElementById('board').dataset.seq === '{seq}'")).await;
    let (now, view) = hidden_at(seq).await;
    let mut public = HashSet::new();
    public_cards(&view, &mut public);
    let html = js(c, "document.getElementById('board').outerHTML").await;
    let html = html.as_str().unwrap_or_default();
    for (instance, card) in &now {
        assert!(occurrences(html, instance).is_empty(), "the spectator's board at {seq} shows hidden card {instance}");
        if !public.contains(card) {
            assert!(occurrences(html, card).is_empty(), "the spectator's board at {seq} names hidden card {card}");
        }
    }
    let got = js(c, "window.kifuBoards.splice(0)").await;
    for text in got.as_array().into_iter().flatten().filter_map(Value::as_str) {
        let Ok(resp) = serde_json::from_str::<Value>(text) else { continue };
        let Some(n) = resp["seq"].as_u64() else { continue };
        let (then, _) = hidden_at(n).await;
        assert_no_leak(&without_known_cards(&resp["board"]).to_string(), &then, &format!("spectator's board {n}"));
        let mut shown = HashSet::new();
        public_cards(&resp["board"], &mut shown);
        assert!(then.iter().all(|(_, card)| !shown.contains(card) || public.contains(card) || n != seq), "board {n}");
    }
    now.len()
}

/// W-L-D of one game from `seat`'s side, as a match result counts it.
fn score_of(placements: &[Vec<u8>], seat: u8) -> String {
    let first = placements.first().cloned().unwrap_or_default();
    let (w, l, d) = match () {
        _ if first.len() > 1 && first.contains(&seat) => (0, 0, 1),
        _ if first == [seat] => (1, 0, 0),
        _ if !first.is_empty() => (0, 1, 0),
        _ => (0, 0, 1),
    };
    format!("{w}-{l}-{d}")
}

/// The agent's game of `G` recorded on the table page by its players, each on a Chromium session
/// of their own with their own token (seat 0 on a 390×844 phone, the others on desktops), with a
/// judge at the table on a session of their own and a spectator (no token) following it live:
/// each seat taps the `[data-option]` controls (and `[data-param]` values, and for a sealed
/// placement where each card goes) its page offers; once the game is under way the judge forces
/// an earlier action again through the panel's force form (with a note), backs it up and issues a
/// warning. Then the first seat reports the match's result from the outcome on the finish panel
/// (a pod's places, which the pod's other players confirm). The log
/// equals the agent's game, verifies, audits with exactly the forced event flagged and resolved,
/// and holds the warning; no page offered another seat's options; the spectator's page never
/// showed or received a hidden card. Screenshots of record mode go under `target/screenshots/`.
pub(super) fn record_at_the_table<G: AtTable>() {
    let env = ServerEnv::new();
    let cd = start_chromedriver();
    let axe = axe_source();
    let store = env.state.store().clone();
    let app = env.app();
    let game = G::NAME;
    let tid = format!("{game}-table");
    // LC's screenshots keep their names; another game's carry its name.
    let prefix = if game == "lc" { "table".to_string() } else { format!("table-{game}") };
    let names: Vec<String> = ["ana", "rui", "kai", "mei"][..G::PLAYERS].iter().map(|s| s.to_string()).collect();
    let (players, place) = if G::PLAYERS == 2 {
        open_match_of(&*store, &tid, game, &names);
        (names, MatchPlace::Table(1))
    } else {
        (open_pod(&*store, &tid, game, &names), MatchPlace::Pod(1))
    };
    let (config, events) = G::agent(&players);
    let stream = StreamId::new(&format!("{tid}-r1-g1")).unwrap();
    let bound = MatchBinding { tournament: StreamId::new(&tid).unwrap(), round: 1, place };
    record::create_bound::<G>(&*store, &stream, &config, Timestamp(1_767_225_600_000_000), Some(bound)).unwrap();
    let tokens: Vec<String> = players.iter().map(|p| env.token(Role::Player, &tid, p)).collect();
    let judge = env.token(Role::Judge, &tid, "jin");
    let t0 = Instant::now();
    rt().block_on(async {
        let base = serve_app(env.state.clone()).await;
        let url = format!("{base}/replay/{stream}");
        let mut sessions = Vec::new();
        for (seat, player) in players.iter().enumerate() {
            let c = connect_own(&cd, seat == 0, player).await;
            c.goto(&url).await.unwrap();
            if let Some(kept) = G::kept(&events, seat as u8) {
                let key = format!("kifu-seal:{stream}:{seat}");
                js(&c, &format!("(localStorage.setItem({}, {}), true)", json!(key), json!(kept.to_string()))).await;
            }
            use_token(&c, &tokens[seat], &format!("player {player}")).await;
            wait_for(&c, "!document.getElementById('record').hidden").await;
            wait_for(&c, &format!("document.getElementById('board').dataset.viewer === 'seat:{seat}'")).await;
            sessions.push(c);
        }
        let desk = connect_own(&cd, false, "judge").await;
        desk.goto(&url).await.unwrap();
        use_token(&desk, &judge, "judge jin").await;
        wait_for(&desk, "!document.getElementById('judge').hidden").await;
        let watcher = connect_own(&cd, false, "spectator").await;
        watcher.goto(&url).await.unwrap();
        wait_for(&watcher, "document.getElementById('board').dataset.viewer === 'spectator'").await;
        js(&watcher, KEEP_BOARDS).await;
        let mut ever_hidden = spectator_saw_nothing_hidden(&watcher, &app, &judge, &stream, 0).await;

        let mut state = G::setup(&config).unwrap();
        let (mut len, mut played, mut with_param) = (0u64, 0usize, 0usize);
        let (mut shot, mut waiting_seen, mut axed) = (Vec::new(), false, false);
        let (mut axe_found, mut forced): (Vec<String>, Option<(u64, G::Event)>) = (Vec::new(), None);
        while played < events.len() {
            let event = &events[played];
            // Once the game is under way, the judge forces an earlier action again, now illegal.
            if forced.is_none() && played >= 10 {
                if let Some((illegal, v)) = illegal_again::<G>(&state, &events[..played]) {
                    let warned = usize::from(G::awaited(&state).first().copied().unwrap_or(0));
                    forced = Some((judge_at_the_table(&desk, &*store, &stream, &v, warned).await, illegal));
                    len = store.head(&stream).unwrap().len;
                    continue;
                }
            }
            let (id, seat, params) = option_for::<G>(&state, len, event);
            let (seat, c) = (usize::from(seat), &sessions[usize::from(seat)]);
            let button = format!("[data-option={}]", quoted(&id));
            wait_for(c, &format!("document.querySelector({})", json!(button))).await;
            // Each page offers its own seat's options and never another's.
            for (s, other) in sessions.iter().enumerate() {
                let seats = shown_seats(other).await;
                assert!(seats.iter().all(|&x| x == s as u64), "{game} event {played}: seat {s}'s page offers {seats:?}");
            }
            // A page whose seat is not awaited says whom the game waits for.
            let other = &sessions[(seat + 1) % sessions.len()];
            if played > 12 && !waiting_seen && G::awaited(&state).len() == 1 && shown_seats(other).await.is_empty() {
                let says = format!("Waiting for {}", players[seat]);
                let status = "document.getElementById('record-status').textContent";
                wait_for(other, &format!("{status}.includes({})", json!(says))).await;
                waiting_seen = true;
            }
            if played > 12 && !shot.contains(&format!("{prefix}-desktop-options")) {
                shots(&sessions, &mut shot, format!("{prefix}-phone-options"), 0).await;
                shots(&sessions, &mut shot, format!("{prefix}-desktop-options"), 1).await;
                assert_touch_targets(&sessions[0], "the phone's options").await;
                axe_check(&sessions[1], &axe, "record mode's options", &mut axe_found).await;
            }
            let placement = G::placement(&config, &events, event);
            let secret = is_secret::<G>(&state, event);
            with_param += usize::from(!params.is_empty() || secret || !placement.is_empty());
            let mut next = state.clone();
            G::ledger_mut(&mut next).at(len);
            let ends = G::outcome(&G::apply(next, event)).is_some();
            if !placement.is_empty() || secret {
                tap(c, &button).await;
            } else {
                open_option(c, &id, &params).await;
            }
            if !placement.is_empty() {
                for (card, cell, face_down) in &placement {
                    choose(c, &format!("select[data-card={}]", quoted(card)), cell).await;
                    if *face_down {
                        tap(c, &format!("button[data-card={}][data-face=up]", quoted(card))).await;
                    }
                }
                shots(&sessions, &mut shot, format!("{prefix}-{}-placement", if seat == 0 { "phone" } else { "desktop" }), seat).await;
                tap(c, &format!("button.primary{button}")).await;
            } else if !secret {
                // An action that ends the game asks first: its Record button says so.
                let asks = js(c, "!!document.querySelector('[data-confirm]')").await == json!(true);
                assert!(asks || !ends || !params.is_empty(), "{game}: the action that ends the game asks first");
                if asks {
                    tap(c, &format!("[data-confirm][data-option={}]", quoted(&id))).await;
                }
                if !params.is_empty() {
                    // The picker as it opens, before a value is tapped (one value records at once).
                    let name = format!("{prefix}-{}-parameter", if seat == 0 { "phone" } else { "desktop" });
                    shots(&sessions, &mut shot, name, seat).await;
                    if seat == 0 && !axed {
                        assert_touch_targets(c, "the phone's parameter picker").await;
                        assert_no_sideways_scroll(c, "the phone's parameter picker").await;
                        axe_check(c, &axe, "record mode's parameter picker", &mut axe_found).await;
                        axed = true;
                    }
                    tap_values(c, &id, &params).await;
                }
            }
            let now = grown(&*store, &stream, len).await;
            let logged = played_events::<G>(&*store, &stream);
            let upto = played + (now - len) as usize;
            for k in played..upto {
                let e = &logged[k];
                assert!(G::same(&events[k], e), "{game} event {k}: the page recorded {e:?}, the agent played {:?}", events[k]);
                G::ledger_mut(&mut state).at(len);
                state = G::apply(state, e);
                len += 1;
            }
            played = upto;
            ever_hidden += spectator_saw_nothing_hidden(&watcher, &app, &judge, &stream, len).await;
        }
        let took = t0.elapsed();
        assert!(ever_hidden > 0, "{game}: cards were hidden from the spectator (the check is not vacuous)");
        assert!(with_param > 0, "{game}: the game had parameter picks");
        assert!(axe_found.is_empty(), "{game}: accessibility violations in record mode: {axe_found:#?}");
        assert!(shot.contains(&format!("{prefix}-phone-options")), "{game}: screenshots taken: {shot:?}");
        for c in &sessions {
            wait_for(c, "document.getElementById('record-status').textContent === 'The game is over.'").await;
        }
        assert_no_sideways_scroll(&sessions[0], "the phone's finished game").await;
        screenshot(&sessions[0], &format!("{prefix}-phone-over")).await;

        // The judge's rulings as the log holds them.
        let (at, illegal) = forced.unwrap_or_else(|| panic!("{game}: no earlier action to force"));
        let loaded = record::load::<G>(&*store, &stream).unwrap();
        let entry = |n: u64| &loaded.steps[n as usize].entry;
        assert!(matches!(entry(at), GameEntry::Forced { judge, event, .. } if judge == "jin" && event == &illegal), "{game}");
        assert!(
            matches!(entry(at + 1), GameEntry::Ruled(Ruling::NoteRecorded { about: Some(a), .. }) if *a == at),
            "{game}: the judge's note about the forced event"
        );
        assert!(matches!(entry(at + 2), GameEntry::Ruled(Ruling::BackedUp { to_seq, .. }) if *to_seq == at), "{game}");
        assert!(
            matches!(entry(at + 3), GameEntry::Ruled(Ruling::WarningIssued { judge, note, .. }) if judge == "jin" && note == "slow play"),
            "{game}: the warning"
        );
        // kifu entered the automatic steps; each player only their own seat's actions.
        assert!(loaded.steps.iter().any(|s| s.actor == Actor::System), "{game}");
        for s in &loaded.steps {
            if let (GameEntry::Played(e), Actor::Player(name)) = (&s.entry, &s.actor) {
                if let Some(seat) = G::acting_seat(e) {
                    assert_eq!(name, &players[usize::from(seat)], "{game}: {e:?}");
                }
            }
        }
        let (st, verify) = get(&app, &format!("/api/v1/games/{stream}/verify"), None).await;
        assert_eq!(st, StatusCode::OK, "{game}: {verify}");
        let (_, audit) = get(&app, &format!("/api/v1/games/{stream}/audit"), Some(&judge)).await;
        let findings = audit["findings"].as_array().unwrap();
        assert!(!findings.is_empty() && findings.iter().all(|f| f["seq"] == at), "{game}: {audit}");
        assert_eq!(audit["unresolved"], 0, "{game}: {audit}");

        // The result from the game's outcome.
        let outcome = G::outcome(&state).unwrap();
        let (_, summary) = get(&app, &format!("/api/v1/games/{stream}"), None).await;
        assert_eq!(summary["outcome"]["placements"], json!(outcome.placements), "{game}: {summary}");
        if let MatchPlace::Table(_) = place {
            let score = score_of(&outcome.placements, 0);
            let c = &sessions[0];
            tap(c, &format!("[data-report={}]", quoted(&score))).await;
            wait_for(c, "document.querySelector('[data-reported]')").await;
            let (_, results) = get(&app, &format!("/api/v1/tournaments/{tid}/results"), None).await;
            let report = &results["pending"][0];
            assert_eq!(report["reported_by"], players[0], "{game}: {results}");
            assert_eq!(report["games"], json!([stream.as_str()]), "{game}: {results}");
        } else {
            // The pod's places from the outcome, reported from the finish panel with the game
            // linked; the other players of the pod confirm them and they are recorded.
            let places = kifu::tournament::pods::places_from_outcome(&outcome, players.len());
            let joined = places.iter().map(|p| p.to_string()).collect::<Vec<_>>().join(",");
            let c = &sessions[0];
            tap(c, &format!("[data-report-places={}]", quoted(&joined))).await;
            wait_for(c, "document.querySelector('[data-reported]')").await;
            let url = format!("/api/v1/tournaments/{tid}/pods/results");
            let (_, results) = get(&app, &url, None).await;
            let report = &results["pending"][0];
            assert_eq!(report["reported_by"], players[0], "{game}: {results}");
            assert_eq!(report["games"], json!([stream.as_str()]), "{game}: {results}");
            assert_eq!(report["places"], json!(places), "{game}: {results}");
            for (i, token) in tokens.iter().enumerate().skip(1) {
                let body = json!({"pod": 1, "places": places});
                let (s, v) = super::call(&app, "POST", &format!("{url}/confirm"), Some(token), Some(body)).await;
                let want = if i + 1 == tokens.len() { StatusCode::CREATED } else { StatusCode::ACCEPTED };
                assert_eq!(s, want, "{game}: {v}");
            }
            let t = kifu::tournament::record::load(&*store, &StreamId::new(&tid).unwrap()).unwrap();
            let pod = &t.state.rounds[0].pods[0];
            assert_eq!(pod.places.as_ref(), Some(&places), "{game}");
            assert_eq!(pod.games.iter().map(|g| g.stream.as_str()).collect::<Vec<_>>(), [stream.as_str()], "{game}");
        }
        eprintln!("{game}: {} events on the table page in {:.1} s", events.len(), took.as_secs_f64());
        for c in sessions.into_iter().chain([desk, watcher]) {
            c.close().await.unwrap();
        }
    });
}

/// The played events of the game as logged.
fn played_events<G: Game>(store: &dyn Store, stream: &StreamId) -> Vec<G::Event> {
    let loaded = record::load::<G>(store, stream).unwrap();
    loaded.steps.into_iter().filter_map(|s| if let GameEntry::Played(e) = s.entry { Some(e) } else { None }).collect()
}

#[test]
fn browser_an_lc_game_recorded_at_the_table_with_a_judge_and_a_spectator() {
    record_at_the_table::<Lc>();
}

#[test]
fn browser_a_vanguard_game_recorded_at_the_table_with_a_judge_and_a_spectator() {
    record_at_the_table::<VanguardV2>();
}

#[test]
fn browser_a_naruto_game_recorded_at_the_table_with_a_judge_and_a_spectator() {
    record_at_the_table::<NarutoV4>();
}

#[test]
fn browser_a_brk_game_recorded_at_the_table_with_a_judge_and_a_spectator() {
    record_at_the_table::<Brk>();
}

#[test]
fn browser_a_fate_pod_recorded_at_the_table_with_a_judge_and_a_spectator() {
    record_at_the_table::<Fate>();
}
