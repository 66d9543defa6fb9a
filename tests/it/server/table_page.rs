//! The table page: two players, each in a headless Chromium session of their own with their own
//! token (one on a 390×844 phone, one on a desktop), record a whole physical LC game (and a
//! Vanguard game) on `/replay/GAME` by tapping the `[data-option]` controls the page shows
//! (and, for a parameter, the `[data-param]` values the agent's event carries) until the game
//! ends. The log equals the agent's game event for event, neither page ever offered the other
//! seat's options, the page not awaited said whom the game waited for, both said when it was
//! over; on the phone nothing scrolls sideways and every button of the panel is at least 44 px;
//! axe-core finds no serious violation. Screenshots of record mode are saved under
//! `target/screenshots/`.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use fantoccini::{Client, Locator};
use serde_json::{json, Value};

use kifu::game::{record, Game, GameEntry};
use kifu::games::lc::Lc;
use kifu::games::vanguard::Vanguard;
use kifu::log::envelope::{MatchBinding, MatchPlace, StreamId, Timestamp};
use kifu::server::tokens::Role;
use kifu::store::Store;

use super::browser::{
    assert_no_sideways_scroll, axe_check, axe_source, connect, js, screenshot, serve_app, start_chromedriver,
    use_token, viewport, wait_for, ChromeDriver,
};
use super::five_games::{option_for, recordable};
use super::{open_match_of, rt, ServerEnv};

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
                assert!(t0.elapsed() < Duration::from_secs(10), "cannot tap {css}: {e}");
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

/// The number of events in `stream` once it is more than `len` (10 s).
pub(super) async fn grown(store: &dyn Store, stream: &StreamId, len: u64) -> u64 {
    let t0 = Instant::now();
    loop {
        let now = store.head(stream).map(|h| h.len).unwrap_or(0);
        if now > len {
            return now;
        }
        assert!(t0.elapsed() < Duration::from_secs(10), "nothing was recorded after event {len}");
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

/// Seat 0's player on a phone, seat 1's on a desktop, each on the game's page with their own
/// token, in record mode from their own seat.
async fn open_sessions(cd: &ChromeDriver, url: &str, tokens: &[String], players: &[String]) -> Vec<Client> {
    let sessions = vec![connect(cd, true).await, connect(cd, false).await];
    viewport(&sessions[1], 1400, 900).await;
    for (seat, c) in sessions.iter().enumerate() {
        c.goto(url).await.unwrap();
        use_token(c, &tokens[seat], &format!("player {}", players[seat])).await;
        wait_for(c, "!document.getElementById('record').hidden").await;
        wait_for(c, &format!("document.getElementById('board').dataset.viewer === 'seat:{seat}'")).await;
    }
    sessions
}

/// Taps the values of each parameter (a value picked twice is tapped twice), then the option's
/// Record button (`button`, in the list's place) when there are several: one value is recorded
/// by its tap.
pub(super) async fn tap_values(c: &Client, button: &str, params: &BTreeMap<String, Value>) {
    let mut tapped = 0;
    for (name, values) in params {
        let values: Vec<String> = match values {
            Value::Array(a) => a.iter().filter_map(|v| v.as_str().map(String::from)).collect(),
            v => v.as_str().map(String::from).into_iter().collect(),
        };
        for v in values {
            tap(c, &format!("[data-param={}][data-value={}]", quoted(name), quoted(&v))).await;
            tapped += 1;
        }
    }
    if tapped > 1 {
        tap(c, button).await;
    }
}

#[test]
fn browser_two_players_record_a_whole_lc_game_on_the_table_page() {
    record_on_the_page::<Lc>("lc", true);
}

#[test]
fn browser_two_players_record_a_whole_vanguard_game_on_the_table_page() {
    record_on_the_page::<Vanguard>("vanguard", false);
}

/// The agent's game of `G` recorded on two pages, as described at the top of this file; `lc`
/// marks the game whose last action is known to ask before it ends the game.
fn record_on_the_page<G: Game>(game: &str, lc: bool) {
    let env = ServerEnv::new();
    let cd = start_chromedriver();
    let axe = axe_source();
    let store = env.state.store().clone();
    let tid = format!("{game}-table");
    let tid = tid.as_str();
    // LC's screenshots keep their names; another game's carry its name.
    let prefix = if lc { "table".to_string() } else { format!("table-{game}") };
    let players: Vec<String> = ["ana", "rui"].iter().map(|s| s.to_string()).collect();
    open_match_of(&*store, tid, game, &players);
    let (config, events) = recordable::<G>(&players);
    let stream = StreamId::new(&format!("{tid}-r1-g1")).unwrap();
    let bound = MatchBinding { tournament: StreamId::new(tid).unwrap(), round: 1, place: MatchPlace::Table(1) };
    record::create_bound::<G>(&*store, &stream, &config, Timestamp(1_767_225_600_000_000), Some(bound)).unwrap();
    let tokens: Vec<String> = players.iter().map(|p| env.token(Role::Player, tid, p)).collect();
    rt().block_on(async {
        let base = serve_app(env.state.clone()).await;
        let sessions = open_sessions(&cd, &format!("{base}/replay/{stream}"), &tokens, &players).await;
        let mut state = G::setup(&config).unwrap();
        let (mut len, mut played, mut with_param) = (0u64, 0usize, 0usize);
        let (mut shot, mut waiting_seen, mut axed) = (Vec::new(), false, false);
        let mut axe_found: Vec<String> = Vec::new();
        let mut ended_by_confirm = false;
        while played < events.len() {
            let (id, seat, params) = option_for::<G>(&state, len, &events[played]);
            let (seat, c) = (usize::from(seat), &sessions[usize::from(seat)]);
            let button = format!("[data-option={}]", quoted(&id));
            wait_for(c, &format!("document.querySelector({})", json!(button))).await;
            // Each page offers its own seat's options and never the other's.
            for (s, other) in sessions.iter().enumerate() {
                let seats = shown_seats(other).await;
                assert!(seats.iter().all(|&x| x == s as u64), "event {played}: seat {s}'s page offers {seats:?}");
            }
            // The page of the seat not awaited says whom the game waits for.
            let other = &sessions[1 - seat];
            if played > 12 && !waiting_seen && shown_seats(other).await.is_empty() {
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
            tap(c, &button).await;
            // An action that ends the game asks first: its Record button says so.
            if js(c, "!!document.querySelector('[data-confirm]')").await == json!(true) {
                ended_by_confirm = true;
                tap(c, &format!("[data-confirm][data-option={}]", quoted(&id))).await;
            }
            if !params.is_empty() {
                with_param += 1;
                // The picker as it opens, before a value is tapped (one value records at once).
                let name = format!("{prefix}-{}-parameter", if seat == 0 { "phone" } else { "desktop" });
                shots(&sessions, &mut shot, name, seat).await;
                if seat == 0 && !axed {
                    assert_touch_targets(c, "the phone's parameter picker").await;
                    assert_no_sideways_scroll(c, "the phone's parameter picker").await;
                    axe_check(c, &axe, "record mode's parameter picker", &mut axe_found).await;
                    axed = true;
                }
                tap_values(c, &button, &params).await;
            }
            let now = grown(&*store, &stream, len).await;
            for e in &events[played..played + (now - len) as usize] {
                G::ledger_mut(&mut state).at(len);
                state = G::apply(state, e);
                len += 1;
                played += 1;
            }
        }
        assert!(with_param > 0, "the game had parameter picks");
        assert!(ended_by_confirm || !lc, "the action that ended the game asked first");
        // (A Vanguard seat always has something to pick: no page of it ever waits.)
        assert!(waiting_seen || !lc, "a page said whom the game waits for");
        assert!(axe_found.is_empty(), "accessibility violations in record mode: {axe_found:#?}");
        assert!(shot.contains(&format!("{prefix}-phone-options")), "screenshots taken: {shot:?}");
        let c = &sessions[0];
        wait_for(c, "document.getElementById('record-status').textContent === 'The game is over.'").await;
        wait_for(&sessions[1], "document.getElementById('record-status').textContent === 'The game is over.'").await;
        assert_no_sideways_scroll(c, "the phone's finished game").await;
        screenshot(c, &format!("{prefix}-phone-over")).await;
        let loaded = record::load::<G>(&*store, &stream).unwrap();
        let got: Vec<_> = loaded
            .steps
            .iter()
            .filter_map(|s| if let GameEntry::Played(e) = &s.entry { Some(e.clone()) } else { None })
            .collect();
        assert!(got == events, "the log's events differ from the agent's game");
        for c in sessions {
            c.close().await.unwrap();
        }
    });
}
