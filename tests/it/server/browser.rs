//! The pages in headless Chromium, driven over WebDriver (fantoccini + Debian's chromedriver), at
//! 1400×900 and at 390×844: open a replay, drag the scrubber and check the board at that
//! position, jump to a turn, use the keyboard shortcuts (also right after a perspective change),
//! check that a spectator never sees a hand while a player sees their own, that both seats fit
//! on the screen and no card is drawn twice, jump from the findings panel, follow a live game
//! (and stop following on a scrub back), see the disconnected badge when the server stops and
//! the page resume when it is back, download a log that verifies, open the standings and
//! bracket, the 404 pages, no sideways scroll on a phone, and axe-core's accessibility check.
//! Screenshots are saved under `target/screenshots/`. The test FAILS (it does not skip) when
//! Chromium, chromedriver or axe-core is missing: `tools/test` installs them.

use std::net::{SocketAddr, TcpListener, TcpStream};
use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::actions::{InputSource, KeyAction, KeyActions, MouseActions, PointerAction, MOUSE_BUTTON_LEFT};
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value};

use kifu::game::Viewer;
use kifu::log::envelope::StreamId;
use kifu::server::tokens::Role;

use super::{rt, ServerEnv};

/// How long a browser test waits for a page to show something before it fails: generous, because
/// CI runs the browser tests beside each other and beside the rest of the suite on two cores, where
/// one game's page can take several seconds to redraw.
pub(super) const PATIENCE: Duration = Duration::from_secs(60);

const CHROME_FLAGS: [&str; 9] = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1400,900",
];

fn find_program(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    for dir in std::env::split_paths(&path) {
        for n in names {
            let p = dir.join(n);
            if p.is_file() {
                return Some(p);
            }
        }
    }
    None
}

/// chromedriver on a free loopback port, in a process group of its own. Dropping it — also
/// while a failed test unwinds — kills chromedriver and every Chromium process it started, by
/// their PIDs and by the group, so no browser outlives the test.
pub(super) struct ChromeDriver {
    child: Child,
    port: u16,
    _profile: tempfile::TempDir,
}

impl Drop for ChromeDriver {
    fn drop(&mut self) {
        let pid = self.child.id();
        // Collected before any is killed: an orphan is re-parented and would no longer be found.
        let mut doomed = descendants(pid);
        doomed.push(pid);
        let mut kill = Command::new("kill");
        kill.arg("-KILL").arg("--").arg(format!("-{pid}"));
        kill.args(doomed.iter().map(u32::to_string));
        let _ = kill.stdout(Stdio::null()).stderr(Stdio::null()).status();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Every process below `root` (children, grandchildren…), read from /proc.
fn descendants(root: u32) -> Vec<u32> {
    let parents: Vec<(u32, u32)> = std::fs::read_dir("/proc")
        .map(|d| {
            d.filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
                .filter_map(|pid| {
                    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
                    // `pid (comm) state ppid …`; comm may hold spaces and parentheses.
                    let ppid = stat.rsplit_once(')')?.1.split_whitespace().nth(1)?.parse().ok()?;
                    Some((pid, ppid))
                })
                .collect()
        })
        .unwrap_or_default();
    let mut out = Vec::new();
    let mut frontier = vec![root];
    while let Some(p) = frontier.pop() {
        for &(child, _) in parents.iter().filter(|(_, pp)| *pp == p) {
            out.push(child);
            frontier.push(child);
        }
    }
    out
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

pub(super) fn start_chromedriver() -> ChromeDriver {
    let driver = find_program(&["chromedriver"]).unwrap_or_else(|| {
        panic!("chromedriver is not installed: apt-get install chromium chromium-driver (.ci/run does); the browser tests do not skip")
    });
    find_program(&["chromium", "chromium-browser"])
        .expect("chromium is not installed: apt-get install chromium chromium-driver");
    let port = free_port();
    let child = Command::new(driver)
        .process_group(0)
        .arg(format!("--port={port}"))
        .arg("--allowed-ips=127.0.0.1")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromedriver starts");
    let cd = ChromeDriver { child, port, _profile: tempfile::tempdir().unwrap() };
    let addr: SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
    let t0 = Instant::now();
    while TcpStream::connect_timeout(&addr, Duration::from_millis(200)).is_err() {
        assert!(t0.elapsed() < PATIENCE, "chromedriver did not listen on {addr}");
        std::thread::sleep(Duration::from_millis(50));
    }
    cd
}

/// A Chromium session; `phone` emulates a 390×844 phone screen (a desktop window cannot be
/// made that narrow).
pub(super) async fn connect(cd: &ChromeDriver, phone: bool) -> Client {
    let profile = if phone { cd._profile.path().join("phone") } else { cd._profile.path().to_path_buf() };
    session_in(cd, phone, &profile).await
}

/// As [`connect`], in a browser profile of its own (`name`): its storage and tokens are its own,
/// as another person's device.
pub(super) async fn connect_own(cd: &ChromeDriver, phone: bool, name: &str) -> Client {
    session_in(cd, phone, &cd._profile.path().join("own").join(name)).await
}

async fn session_in(cd: &ChromeDriver, phone: bool, profile: &Path) -> Client {
    let chromium = find_program(&["chromium", "chromium-browser"]).unwrap();
    let mut args: Vec<String> = CHROME_FLAGS.iter().map(|s| s.to_string()).collect();
    args.push(format!("--user-data-dir={}", profile.display()));
    let mut options = json!({"binary": chromium, "args": args});
    if phone {
        options["mobileEmulation"] = json!({"deviceMetrics": {"width": 390, "height": 844, "pixelRatio": 1.0}});
    }
    let caps = json!({"goog:chromeOptions": options});
    let serde_json::Value::Object(caps) = caps else { unreachable!() };
    let mut builder = ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new());
    builder.capabilities(caps);
    builder.connect(&format!("http://127.0.0.1:{}", cd.port)).await.expect("a Chromium session")
}

/// The target directory this test binary was built into (…/target/release/deps/it-…).
fn screenshots_dir() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let target = exe.ancestors().nth(3).map(Path::to_path_buf).unwrap_or_else(|| PathBuf::from("target"));
    let dir = target.join("screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

pub(super) async fn screenshot(c: &Client, name: &str) {
    let png = c.screenshot().await.unwrap();
    std::fs::write(screenshots_dir().join(format!("{name}.png")), png).unwrap();
}

/// Polls a JavaScript expression until it is truthy (10 s).
/// Serves `state` on a free loopback port for the rest of the runtime; returns the base URL.
pub(super) async fn serve_app(state: kifu::server::AppState) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let app = kifu::server::app(state);
    tokio::spawn(async move { axum::serve(listener, app).await });
    base
}

pub(super) async fn wait_for(c: &Client, expr: &str) -> Value {
    let t0 = Instant::now();
    loop {
        let v = c.execute(&format!("return ({expr});"), vec![]).await.unwrap();
        if !(v.is_null() || v == json!(false) || v == json!("") || v == json!(0)) {
            return v;
        }
        if t0.elapsed() > PATIENCE {
            let err = c
                .execute(
                    "return document.getElementById('error') && document.getElementById('error').textContent",
                    vec![],
                )
                .await;
            panic!("timed out waiting for {expr} (page error: {err:?})");
        }
        tokio::time::sleep(Duration::from_millis(40)).await;
    }
}

pub(super) async fn js(c: &Client, expr: &str) -> Value {
    c.execute(&format!("return ({expr});"), vec![]).await.unwrap()
}

async fn board_seq(c: &Client) -> u64 {
    js(c, "Number(document.getElementById('board').dataset.seq)").await.as_u64().unwrap()
}

async fn press(c: &Client, keys: &[char]) {
    let mut a = KeyActions::new("keyboard".into());
    for k in keys {
        a = a.then(KeyAction::Down { value: *k });
    }
    for k in keys.iter().rev() {
        a = a.then(KeyAction::Up { value: *k });
    }
    c.perform_actions(a).await.unwrap();
}

const RIGHT: char = '\u{e014}';
const LEFT: char = '\u{e012}';
const SHIFT: char = '\u{e008}';
const HOME: char = '\u{e011}';
const END: char = '\u{e010}';

/// axe-core, installed by `tools/test` (npm) into `target/npm`; the test fails without it.
pub(super) fn axe_source() -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/npm/node_modules/axe-core/axe.min.js");
    std::fs::read_to_string(&p).unwrap_or_else(|e| {
        panic!("axe-core is missing at {} ({e}): run tools/test, which installs it with npm", p.display())
    })
}

/// Runs axe-core on the page; adds every serious or critical violation to `found` (the test
/// checks the list at its end, so one run reports every page's).
pub(super) async fn axe_check(c: &Client, axe: &str, page: &str, found: &mut Vec<String>) {
    c.execute(&format!("{axe}\nwindow.axe = axe; return true;"), vec![]).await.unwrap();
    let v = c
        .execute_async(
            "const done = arguments[arguments.length - 1];
             axe.run(document, {resultTypes: ['violations']}).then((r) => done(r.violations
               .filter((v) => v.impact === 'serious' || v.impact === 'critical')
               .map((v) => v.impact + ' ' + v.id + ': ' + v.help + ' at ' + v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | '))))
               .catch((e) => done(['axe failed: ' + e]));",
            vec![],
        )
        .await
        .unwrap();
    let list = v.as_array().cloned().unwrap_or_default();
    found.extend(list.iter().map(|v| format!("{page}: {}", v.as_str().unwrap_or_default())));
}

/// Every card drawn on the page, by instance id: none twice.
async fn assert_no_duplicate_cards(c: &Client, at: &str) {
    let dupes = js(
        c,
        "(() => { const seen = new Set(), d = []; for (const e of document.querySelectorAll('#board .card.known')) { const i = e.dataset.instance; if (seen.has(i)) d.push(i); seen.add(i); } return d; })()",
    )
    .await;
    assert_eq!(dupes, json!([]), "cards drawn twice at {at}");
}

/// Sizes the window so that the page itself (the viewport) is `w`×`h`.
pub(super) async fn viewport(c: &Client, w: u32, h: u32) {
    c.set_window_size(w, h).await.unwrap();
    let inner = js(c, "[window.innerWidth, window.innerHeight]").await;
    let (iw, ih) = (inner[0].as_u64().unwrap() as u32, inner[1].as_u64().unwrap() as u32);
    c.set_window_size(w + w.saturating_sub(iw), h + h.saturating_sub(ih)).await.unwrap();
    let inner = js(c, "[window.innerWidth, window.innerHeight]").await;
    assert_eq!(inner, json!([w, h]), "the viewport is {w}×{h}");
}

/// Every seat's side (`seats` of them) lies inside the window: no scrolling to see an opponent.
async fn assert_seats_on_screen(c: &Client, at: &str, seats: usize) {
    screenshot(c, &format!("seats-{}", at.replace([' ', ','], "-"))).await;
    let rects = js(
        c,
        "[...document.querySelectorAll('#board .seat')].map((s) => { const r = s.getBoundingClientRect(); return [r.top, r.bottom, innerHeight, r.left, r.right, innerWidth]; })",
    )
    .await;
    let rects = rects.as_array().unwrap();
    assert_eq!(rects.len(), seats, "{seats} seats at {at}");
    for r in rects {
        let [top, bottom, h, left, right, w] = [0, 1, 2, 3, 4, 5].map(|i| r[i].as_f64().unwrap());
        assert!(top >= 0.0 && bottom <= h + 0.5, "a seat at {at} is off screen: {top}..{bottom} of {h}");
        assert!(left >= 0.0 && right <= w + 0.5, "a seat at {at} is off screen: {left}..{right} of {w}");
    }
}

pub(super) async fn assert_no_sideways_scroll(c: &Client, at: &str) {
    let (sw, w) = (
        js(c, "document.documentElement.scrollWidth").await.as_f64().unwrap(),
        js(c, "window.innerWidth").await.as_f64().unwrap(),
    );
    assert!(sw <= w, "{at} scrolls sideways: {sw} > {w}");
}

async fn goto_board(c: &Client, url: &str, seq: u64) {
    c.goto(url).await.unwrap();
    wait_for(c, &format!("document.getElementById('board').dataset.seq === '{seq}'")).await;
}

pub(super) async fn use_token(c: &Client, token: &str, role: &str) {
    let input = c.find(Locator::Id("token-input")).await.unwrap();
    input.clear().await.unwrap();
    input.send_keys(token).await.unwrap();
    c.find(Locator::Id("token-apply")).await.unwrap().click().await.unwrap();
    wait_for(c, &format!("document.getElementById('role').textContent.startsWith('{role}')")).await;
}

/// Serves the app on its own runtime (so the test can stop it, connections and all, with
/// `shutdown_background`); `addr` rebinds a stopped server's address.
fn serve_on(state: kifu::server::AppState, addr: Option<SocketAddr>) -> (tokio::runtime::Runtime, SocketAddr) {
    let at = addr.unwrap_or_else(|| "127.0.0.1:0".parse().unwrap());
    let t0 = Instant::now();
    let listener = loop {
        match TcpListener::bind(at) {
            Ok(l) => break l,
            Err(e) => {
                assert!(t0.elapsed() < Duration::from_secs(10), "cannot bind {at}: {e}");
                std::thread::sleep(Duration::from_millis(100));
            }
        }
    };
    listener.set_nonblocking(true).unwrap();
    let addr = listener.local_addr().unwrap();
    let rt = rt();
    let app = kifu::server::app(state);
    rt.spawn(async move {
        let listener = tokio::net::TcpListener::from_std(listener).unwrap();
        axum::serve(listener, app).await
    });
    (rt, addr)
}

#[test]
fn browser_end_to_end() {
    let env = ServerEnv::new();
    let cd = start_chromedriver();
    let axe = axe_source();
    let log = super::fixture_log("naruto-physical");
    let session = kifu::games::driver("naruto").unwrap().open(&log).unwrap();
    let judged = super::fixture_log("naruto-judged");
    // A BRK game recorded elsewhere whose reveal finds a false assumption made at a declaration.
    let (late_declared, late_reveal, late_text) = crate::brk::rules::false_assumption_jsonl("brk-net-shot");
    let brk = kifu::games::driver("brk").unwrap();
    brk.import_jsonl(&*env.state.store().clone(), &late_text, None, kifu::log::envelope::Timestamp(0), true).unwrap();
    let alice = env.token(Role::Player, "naruto", "alice");
    let judge = env.token(Role::Judge, "*", "jules");
    let store = env.state.store().clone();
    let standings = kifu::tournament::record::load(&*store, &StreamId::new("cup").unwrap()).unwrap().state.standings();
    let mut axe_found: Vec<String> = Vec::new();
    // A second live game, on a server the test stops and starts again.
    let (stoppable, addr2) = serve_on(env.state.clone(), None);
    rt().block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let app = kifu::server::app(env.state.clone());
        tokio::spawn(async move { axum::serve(listener, app).await });
        let c = connect(&cd, false).await;
        viewport(&c, 1400, 900).await;

        // Open a replay at a position given in the URL: the first board, then the paged list.
        goto_board(&c, &format!("{base}/replay/naruto-physical?seq=40"), 40).await;
        assert_eq!(js(&c, "document.getElementById('controls').disabled").await, false, "controls on after the first board");
        assert_eq!(js(&c, "document.getElementById('loading').hidden").await, true);
        wait_for(&c, "document.querySelectorAll('#events li.ev').length === 433").await;
        assert!(js(&c, "document.querySelectorAll('#events li.turn-head').length").await.as_u64().unwrap() > 5, "turn headers");
        let first = js(&c, "document.querySelector('#events li.ev .actor').textContent").await;
        assert!(!first.as_str().unwrap().is_empty(), "the event list shows the actor");
        assert_eq!(js(&c, "document.getElementById('head').title").await, log.head.hash.to_hex());
        wait_for(&c, "document.getElementById('audit-summary').textContent.includes('clean')").await;
        assert_eq!(js(&c, "getComputedStyle(document.getElementById('live-badge')).display").await, "none", "a finished game is not live");
        // The table: stats on the tiles, names before ids, no instance id for a spectator.
        let tiles = js(&c, "[...document.querySelectorAll('#board .card.known')].map((e) => e.textContent).join(' | ')").await;
        let tiles = tiles.as_str().unwrap().to_string();
        assert!(tiles.contains("atk") && tiles.contains("sup") && tiles.contains("cost"), "Naruto tiles show cost, attack and support: {tiles}");
        assert!(!tiles.contains("p0-") && !tiles.contains("p1-"), "no instance id for a spectator: {tiles}");

        // Drag the scrubber; the board shows exactly that position.
        let scrub = c.find(Locator::Id("scrubber")).await.unwrap();
        let drag = MouseActions::new("mouse".into())
            .then(PointerAction::MoveToElement { element: scrub.clone(), duration: None, x: 0.0, y: 0.0 })
            .then(PointerAction::Down { button: MOUSE_BUTTON_LEFT })
            .then(PointerAction::MoveBy { duration: Some(Duration::from_millis(150)), x: 120.0, y: 0.0 })
            .then(PointerAction::Up { button: MOUSE_BUTTON_LEFT });
        c.perform_actions(drag).await.unwrap();
        let value: u64 = js(&c, "Number(document.getElementById('scrubber').value)").await.as_u64().unwrap();
        assert!(value > 216, "dragging right of the middle moved the scrubber past it: {value}");
        wait_for(&c, &format!("document.getElementById('board').dataset.seq === '{value}'")).await;
        let want = session.board(value, Viewer::Spectator);
        assert_eq!(js(&c, "Number(document.getElementById('position').dataset.turn)").await, want.turn);
        for s in &want.seats {
            for z in &s.zones {
                let got = js(&c, &format!("document.querySelector('.seat[data-seat=\"{}\"] .zone[data-zone=\"{}\"]').dataset.count", s.seat, z.zone)).await;
                assert_eq!(got, z.count.to_string(), "seat {} zone {} at {value}", s.seat, z.zone);
            }
        }
        assert_eq!(js(&c, "document.querySelector('#events li.current').dataset.seq").await, (value - 1).to_string());
        assert!(c.current_url().await.unwrap().as_str().ends_with(&format!("?seq={value}")), "the URL encodes the position");
        assert_seats_on_screen(&c, "naruto-physical", 2).await;
        assert_no_duplicate_cards(&c, &format!("naruto-physical {value}")).await;
        // A screen reader hears the position as the label shows it, by the log's numbering.
        wait_for(&c, &format!("document.getElementById('announce').textContent.startsWith('after #{} · {value} of ')", value - 1)).await;
        screenshot(&c, "replay-scrubbed").await;

        // Jump to a turn.
        c.find(Locator::Id("turn-input")).await.unwrap().send_keys("5").await.unwrap();
        c.find(Locator::Id("jump")).await.unwrap().click().await.unwrap();
        let t5 = session.seek_turn(5, None).unwrap();
        wait_for(&c, &format!("document.getElementById('board').dataset.seq === '{t5}'")).await;
        assert_eq!(js(&c, "document.getElementById('position').dataset.turn").await, "5");

        // Keyboard shortcuts: the jump gave the focus back to the board.
        assert_eq!(js(&c, "document.activeElement.id").await, "board");
        press(&c, &[RIGHT]).await;
        wait_for(&c, &format!("document.getElementById('board').dataset.seq === '{}'", t5 + 1)).await;
        press(&c, &[LEFT]).await;
        press(&c, &[LEFT]).await;
        wait_for(&c, &format!("document.getElementById('board').dataset.seq === '{}'", t5 - 1)).await;
        press(&c, &[SHIFT, RIGHT]).await;
        wait_for(&c, &format!("document.getElementById('board').dataset.seq === '{t5}'")).await;
        press(&c, &[SHIFT, RIGHT]).await;
        let t6 = session.seek_turn(6, None).unwrap();
        wait_for(&c, &format!("document.getElementById('board').dataset.seq === '{t6}'")).await;
        press(&c, &[END]).await;
        wait_for(&c, "document.getElementById('board').dataset.seq === '433'").await;
        wait_for(&c, "document.getElementById('outcome-badge')").await;
        press(&c, &[HOME]).await;
        wait_for(&c, "document.getElementById('board').dataset.seq === '0'").await;
        // Space plays; Space again pauses.
        press(&c, &[' ']).await;
        wait_for(&c, "Number(document.getElementById('board').dataset.seq) >= 3").await;
        press(&c, &[' ']).await;
        let paused = board_seq(&c).await;
        tokio::time::sleep(Duration::from_millis(500)).await;
        assert!(board_seq(&c).await <= paused + 1, "paused");
        // `?` shows the help; Escape closes it.
        press(&c, &['?']).await;
        wait_for(&c, "document.getElementById('help').open").await;
        screenshot(&c, "replay-help").await;
        press(&c, &['\u{e00c}']).await;
        wait_for(&c, "!document.getElementById('help').open").await;

        // A spectator never sees a hand: at many positions, no face-up card in any hand.
        let hand_cards = "document.querySelectorAll('.zone[data-zone=\"hand\"] .card.known').length";
        let hidden_cards = "document.querySelectorAll('.zone[data-zone=\"hand\"] .card.hidden').length";
        for n in (0..=433).step_by(37) {
            c.execute(&format!("document.getElementById('scrubber').value = {n}; document.getElementById('scrubber').dispatchEvent(new Event('input'))"), vec![]).await.unwrap();
            wait_for(&c, &format!("document.getElementById('board').dataset.seq === '{n}'")).await;
            assert_eq!(js(&c, hand_cards).await, 0, "a spectator saw a hand card at {n}");
            assert_no_duplicate_cards(&c, &format!("naruto-physical {n}")).await;
        }
        assert_eq!(js(&c, "document.getElementById('perspective').options.length").await, 1, "public: spectator only");
        // The position where both hands hold the most cards.
        let hand = |n: u64, seat: usize| {
            let b = session.board(n, Viewer::Judge);
            b.seats[seat].zones.iter().find(|z| z.zone == "hand").map_or(0, |z| z.count)
        };
        let at = (0..433).max_by_key(|&n| (hand(n, 0).min(hand(n, 1)), hand(n, 0))).unwrap();
        goto_board(&c, &format!("{base}/replay/naruto-physical?seq={at}"), at).await;
        assert!(js(&c, hidden_cards).await.as_u64().unwrap() > 0, "hands show face down");
        assert_seats_on_screen(&c, "naruto-physical, full hands", 2).await;
        screenshot(&c, "replay-spectator").await;
        axe_check(&c, &axe, "the replay page", &mut axe_found).await;

        // A player's token: their own hand face up, the opponent's still face down; their seat at
        // the bottom of the table; the keyboard steps right after the perspective changes.
        use_token(&c, &alice, "player alice").await;
        wait_for(&c, "document.getElementById('perspective').options.length === 2").await;
        c.find(Locator::Css("#perspective option[value='seat:0']")).await.unwrap().click().await.unwrap();
        wait_for(&c, "document.getElementById('board').dataset.viewer === 'seat:0'").await;
        let own = js(&c, "document.querySelectorAll('.seat[data-seat=\"0\"] .zone[data-zone=\"hand\"] .card.known').length").await;
        let theirs = js(&c, "document.querySelectorAll('.seat[data-seat=\"1\"] .zone[data-zone=\"hand\"] .card.known').length").await;
        assert_eq!(own, hand(at, 0), "alice sees her own hand");
        assert_eq!(theirs, 0, "alice never sees bob's hand");
        assert_eq!(js(&c, "document.querySelector('#board .seat.own').dataset.seat").await, "0", "alice's seat is at the bottom");
        assert!(c.current_url().await.unwrap().as_str().contains("as=seat%3A0"), "the perspective is in the URL");
        press(&c, &[RIGHT]).await;
        wait_for(&c, &format!("document.getElementById('board').dataset.seq === '{}'", at + 1)).await;
        assert_eq!(js(&c, "document.getElementById('board').dataset.viewer").await, "seat:0", "→ stepped, it did not change the seat");
        screenshot(&c, "replay-player").await;

        // A judge: instance ids on the tiles, the findings panel and its jump, the download.
        use_token(&c, &judge, "judge jules").await;
        goto_board(&c, &format!("{base}/replay/naruto-judged?as=judge&seq=10"), 10).await;
        wait_for(&c, "document.querySelectorAll('#findings button.finding').length === 3").await;
        let f = js(&c, "document.querySelector('#findings li').textContent").await;
        assert!(f.as_str().unwrap().contains("NAR-") && f.as_str().unwrap().contains("ruled"), "a finding with its rule and resolution: {f}");
        assert!(js(&c, "document.querySelectorAll('#markers .marker').length").await.as_u64().unwrap() >= 1);
        c.find(Locator::Css("#findings button.finding")).await.unwrap().click().await.unwrap();
        wait_for(&c, "document.getElementById('board').dataset.seq === '53'").await;
        assert_eq!(js(&c, "document.activeElement.id").await, "board", "the jump returns the focus to the board");
        assert!(js(&c, "document.querySelector('#board .card.known .cid').textContent").await.as_str().unwrap().contains(" · p"), "a judge sees instance ids");
        assert_no_duplicate_cards(&c, "naruto-judged 53 (judge)").await;
        screenshot(&c, "replay-findings").await;
        assert_eq!(js(&c, "document.getElementById('downloads').hidden").await, false, "judges may download");
        c.find(Locator::Id("dl-kifu")).await.unwrap().click().await.unwrap();
        wait_for(&c, "document.getElementById('download-status').dataset.bytes").await;
        let bytes = js(&c, "Number(document.getElementById('download-status').dataset.bytes)").await;
        assert_eq!(bytes, kifu::log::file::write(&judged).len(), "the page saved the whole .kifu file");

        // A finding found late: cited at the declaration that made the false assumption, saying
        // which later event (the reveal) brought it to light, and marked there in the list.
        goto_board(&c, &format!("{base}/replay/brk-net-shot?as=judge&seq=0"), 0).await;
        let found = format!("found at event #{late_reveal}");
        wait_for(&c, &format!("[...document.querySelectorAll('#findings li')].some(li => li.textContent.includes('{found}'))")).await;
        let f = js(&c, "[...document.querySelectorAll('#findings li')].map(li => li.textContent).join(' | ')").await;
        let f = f.as_str().unwrap();
        assert!(f.contains("BRK-HID-10") && f.contains(&format!("event #{late_declared} ({found})")), "{f}");
        let marked = format!("document.querySelector('#events li.ev[data-seq=\"{late_reveal}\"]')?.classList.contains('reveals')");
        wait_for(&c, &marked).await;
        c.execute("document.getElementById('findings').scrollIntoView()", vec![]).await.unwrap();
        screenshot(&c, "replay-found-late").await;
        c.execute("localStorage.removeItem('kifu-token')", vec![]).await.unwrap();

        // A live game: events appended through the server reach the page; scrubbing back stops
        // following, "jump to live" resumes it.
        super::live::feed(&env.state, &log, "naruto-live", 0, 10).await;
        goto_board(&c, &format!("{base}/replay/naruto-live"), 10).await;
        assert_ne!(js(&c, "getComputedStyle(document.getElementById('live-badge')).display").await, "none", "LIVE shows");
        super::live::feed(&env.state, &log, "naruto-live", 10, 25).await;
        wait_for(&c, "document.querySelectorAll('#events li.ev').length === 25").await;
        wait_for(&c, "document.getElementById('board').dataset.seq === '25'").await;
        assert_eq!(js(&c, hand_cards).await, 0, "a live game's hands stay hidden");
        press(&c, &[LEFT]).await;
        wait_for(&c, "document.getElementById('board').dataset.seq === '24'").await;
        wait_for(&c, "!document.getElementById('to-live').hidden").await;
        super::live::feed(&env.state, &log, "naruto-live", 25, 30).await;
        wait_for(&c, "document.querySelectorAll('#events li.ev').length === 30").await;
        wait_for(&c, "document.getElementById('seq-label').textContent === 'after #23 · 24 of 30 events'").await;
        assert_eq!(board_seq(&c).await, 24, "a reader looking back is not pulled to the end");
        screenshot(&c, "replay-live-paused").await;
        c.find(Locator::Id("to-live")).await.unwrap().click().await.unwrap();
        wait_for(&c, "document.getElementById('board').dataset.seq === '30'").await;
        super::live::feed(&env.state, &log, "naruto-live", 30, 32).await;
        wait_for(&c, "document.getElementById('board').dataset.seq === '32'").await;

        // The server stops: the page says so, and resumes where it was when the server is back.
        super::live::feed(&env.state, &log, "naruto-live2", 0, 10).await;
        goto_board(&c, &format!("http://{addr2}/replay/naruto-live2"), 10).await;
        assert_eq!(js(&c, "document.getElementById('conn-badge').hidden").await, true);
        stoppable.shutdown_background();
        wait_for(&c, "!document.getElementById('conn-badge').hidden").await;
        assert!(!js(&c, "document.getElementById('chain-badge').textContent").await.as_str().unwrap().contains("verified"), "no 'verified' while disconnected");
        screenshot(&c, "replay-disconnected").await;
        super::live::feed(&env.state, &log, "naruto-live2", 10, 15).await;
        let (restarted, _) = serve_on(env.state.clone(), Some(addr2));
        wait_for(&c, "document.querySelectorAll('#events li.ev').length === 15").await;
        wait_for(&c, "document.getElementById('conn-badge').hidden").await;
        wait_for(&c, "document.getElementById('board').dataset.seq === '15'").await;
        restarted.shutdown_background(); // a runtime is not dropped inside another one

        // Another game through the same generic table: Vanguard's circles as the 2×3 grid.
        goto_board(&c, &format!("{base}/replay/vanguard-clean?seq=60"), 60).await;
        assert!(js(&c, "document.querySelectorAll('#board .zone').length").await.as_u64().unwrap() > 4);
        assert_eq!(js(&c, hand_cards).await, 0, "a spectator never sees a Vanguard hand either");
        let cells = js(&c, "[...document.querySelectorAll('.seat.own .zone[data-zone=\"field\"] .group')].map((g) => { const r = g.getBoundingClientRect(); return [Math.round(r.top), Math.round(r.left)]; })").await;
        let cells = cells.as_array().unwrap();
        assert_eq!(cells.len(), 6, "six circles");
        let rows: std::collections::BTreeSet<i64> = cells.iter().map(|p| p[0].as_i64().unwrap()).collect();
        let cols: std::collections::BTreeSet<i64> = cells.iter().map(|p| p[1].as_i64().unwrap()).collect();
        assert_eq!((rows.len(), cols.len()), (2, 3), "the circles lie as a 2×3 grid: {cells:?}");
        assert!(js(&c, "document.querySelector('#board .card.known').textContent").await.as_str().unwrap().contains("pow"), "Vanguard tiles show power");
        assert_seats_on_screen(&c, "vanguard-clean", 2).await;
        assert_no_duplicate_cards(&c, "vanguard-clean 60").await;
        screenshot(&c, "replay-vanguard").await;

        // The standings, the bracket, the verification badge, links to replays.
        c.goto(&format!("{base}/tournament/cup#standings")).await.unwrap();
        wait_for(&c, "document.querySelectorAll('#standings-table tr').length === 9").await;
        let first = js(&c, "document.querySelector('#standings-table tr[data-player]').dataset.player").await;
        assert_eq!(first, standings[0].player);
        assert!(js(&c, "document.querySelector('#standings-table tr').textContent").await.as_str().unwrap().contains("OMW%"));
        wait_for(&c, "document.getElementById('verify-badge').textContent === 'verified ✓'").await;
        screenshot(&c, "tournament-standings").await;
        axe_check(&c, &axe, "the tournament page", &mut axe_found).await;
        c.find(Locator::Id("tab-bracket")).await.unwrap().click().await.unwrap();
        assert_eq!(js(&c, "document.querySelectorAll('#bracket .bround').length").await, 2);
        screenshot(&c, "tournament-bracket").await;
        c.find(Locator::Id("tab-pairings")).await.unwrap().click().await.unwrap();
        c.find(Locator::Id("by-name")).await.unwrap().click().await.unwrap();
        wait_for(&c, "document.querySelectorAll('#pairings-table tr').length === 3").await; // the final: 2 players
        c.find(Locator::Id("by-table")).await.unwrap().click().await.unwrap();
        let link = c.find(Locator::Css("#pairings-table a.replay-link")).await.unwrap();
        let href = link.attr("href").await.unwrap().unwrap();
        link.click().await.unwrap();
        wait_for(&c, "document.getElementById('board') && document.getElementById('board').dataset.seq !== ''").await;
        assert!(c.current_url().await.unwrap().path().ends_with(&href));
        screenshot(&c, "replay-from-tournament").await;

        // The home page: tournaments with players and winner; search and filters.
        c.goto(&format!("{base}/")).await.unwrap();
        wait_for(&c, "document.querySelector('#tournaments tr[data-id=\"cup\"] td.winner')").await;
        let row = js(&c, "document.querySelector('#tournaments tr[data-id=\"cup\"]').textContent").await;
        assert!(row.as_str().unwrap().contains(&standings[0].player), "the cup's row names its players: {row}");
        c.find(Locator::Id("search")).await.unwrap().send_keys("vanguard").await.unwrap();
        let vanguard_games = super::fixtures().iter().filter(|f| f.starts_with("vanguard")).count();
        wait_for(
            &c,
            &format!("[...document.querySelectorAll('#games tbody tr')].filter((r) => !r.hidden).length === {vanguard_games}"),
        )
        .await;
        screenshot(&c, "home").await;
        axe_check(&c, &axe, "the home page", &mut axe_found).await;

        // Unknown ids: a page that says so (the status is checked in `pages_404`).
        c.goto(&format!("{base}/replay/no-such-game")).await.unwrap();
        wait_for(&c, "document.getElementById('not-found')").await;
        screenshot(&c, "replay-404").await;

        // Dark mode, by the switch.
        goto_board(&c, &format!("{base}/replay/naruto-physical?seq=200"), 200).await;
        c.find(Locator::Id("theme")).await.unwrap().click().await.unwrap();
        wait_for(&c, "document.documentElement.dataset.theme === 'dark'").await;
        screenshot(&c, "replay-dark").await;
        axe_check(&c, &axe, "the replay page, dark", &mut axe_found).await;
        c.execute("localStorage.removeItem('kifu-theme')", vec![]).await.unwrap();

        c.close().await.unwrap();

        // A phone: 390×844, nothing scrolls sideways, the table reads.
        let c = connect(&cd, true).await;
        for (url, seq, name) in [
            (format!("{base}/replay/naruto-physical?seq=200"), 200, "phone-naruto"),
            (format!("{base}/replay/vanguard-clean?seq=60"), 60, "phone-vanguard"),
        ] {
            goto_board(&c, &url, seq).await;
            assert_eq!(js(&c, "[window.innerWidth, window.innerHeight]").await, json!([390, 844]), "a phone's screen");
            assert_no_sideways_scroll(&c, name).await;
            assert_no_duplicate_cards(&c, name).await;
            screenshot(&c, name).await;
        }
        c.goto(&format!("{base}/")).await.unwrap();
        wait_for(&c, "document.querySelector('#tournaments tr[data-id=\"cup\"] td.winner')").await;
        assert_no_sideways_scroll(&c, "phone-home").await;
        screenshot(&c, "phone-home").await;
        c.goto(&format!("{base}/tournament/cup#standings")).await.unwrap();
        wait_for(&c, "document.querySelectorAll('#standings-table tr').length === 9").await;
        screenshot(&c, "phone-standings").await;

        c.close().await.unwrap();
    });
    assert!(axe_found.is_empty(), "axe-core found serious or critical problems: {axe_found:#?}");
    drop(cd);
}

/// The games recorded after Naruto and Vanguard, each through the same checks.
const NEW_GAMES: [&str; 3] = ["lc", "brk", "fate"];

/// Cards the library shows `viewer` face up on a board: in zones and in their groups.
fn known_cards(b: &kifu::game::BoardView) -> usize {
    let zones = b.seats.iter().flat_map(|s| s.zones.iter()).chain(b.shared.iter());
    zones
        .flat_map(|z| z.cards.iter().chain(z.groups.iter().flat_map(|g| g.cards.iter())))
        .filter(|c| matches!(c, kifu::game::view::CardView::Known { .. }))
        .count()
}

/// One fixture replay (`name`, of `game`) on the desktop (`c`, 1400×900) and on a phone
/// (`phone`, 390×844): every seat on screen, no sideways scroll on the phone, no card drawn
/// twice, a spectator sees no hand and exactly the library's face-up cards, the keyboard steps
/// right after a judge changes the perspective, each finding's jump, and axe-core.
async fn check_replay(t: &Browsers<'_>, name: &str, axe_found: &mut Vec<String>) {
    let Browsers { c, phone, base, app, judge, axe } = *t;
    let game = name.split('-').next().unwrap();
    let log = super::fixture_log(name);
    let session = kifu::games::driver(game).unwrap().open(&log).unwrap();
    let len = session.len();
    let seats = session.board(0, Viewer::Judge).seats.len();
    let url = |seq: u64, viewer: &str| format!("{base}/replay/{name}?seq={seq}{viewer}");
    // (The first call finds the browser on its blank start page, which has no localStorage.)
    c.execute("try { localStorage.removeItem('kifu-token') } catch (_) {}", vec![]).await.unwrap();

    // A spectator, at positions across the game.
    let hand_cards = "document.querySelectorAll('.zone[data-zone=\"hand\"] .card.known').length";
    for n in (0..=len).step_by((len as usize / 6).max(1)) {
        goto_board(c, &url(n, ""), n).await;
        assert_eq!(js(c, hand_cards).await, 0, "a spectator saw a hand card in {name} at {n}");
        let known = js(c, "document.querySelectorAll('#board .card.known').length").await;
        assert_eq!(
            known,
            known_cards(&session.board(n, Viewer::Spectator)),
            "{name} at {n}: the spectator's face-up cards"
        );
        assert_no_duplicate_cards(c, &format!("{name} {n}")).await;
    }
    // The position where the hands hold the most cards: face down, every seat on the screen.
    let in_hands = |n: u64| -> usize {
        let b = session.board(n, Viewer::Judge);
        b.seats.iter().map(|s| s.zones.iter().find(|z| z.zone == "hand").map_or(0, |z| z.count)).sum()
    };
    let at = (1..len).max_by_key(|&n| in_hands(n)).unwrap_or(0);
    goto_board(c, &url(at, ""), at).await;
    if in_hands(at) > 0 {
        assert!(
            js(c, "document.querySelectorAll('.zone[data-zone=\"hand\"] .card.hidden').length").await.as_u64().unwrap()
                > 0,
            "{name}: hands show face down"
        );
    }
    assert_seats_on_screen(c, &format!("{name} {at}"), seats).await;
    screenshot(c, &format!("{name}-desktop")).await;
    axe_check(c, axe, &format!("the {name} replay"), axe_found).await;

    // A judge picks a seat's perspective; → then steps, it does not change the seat.
    use_token(c, judge, "judge jules").await;
    wait_for(c, &format!("document.getElementById('perspective').options.length === {}", seats + 2)).await;
    let seat = seats - 1;
    c.find(Locator::Css(&format!("#perspective option[value='seat:{seat}']"))).await.unwrap().click().await.unwrap();
    wait_for(c, &format!("document.getElementById('board').dataset.viewer === 'seat:{seat}'")).await;
    assert_eq!(
        js(c, "document.querySelector('#board .seat.own').dataset.seat").await,
        seat.to_string(),
        "{name}: the chosen seat at the bottom"
    );
    press(c, &[RIGHT]).await;
    wait_for(c, &format!("document.getElementById('board').dataset.seq === '{}'", at + 1)).await;
    assert_eq!(
        js(c, "document.getElementById('board').dataset.viewer").await,
        format!("seat:{seat}"),
        "{name}: → stepped"
    );
    assert_no_duplicate_cards(c, &format!("{name} {} (seat {seat})", at + 1)).await;

    // The findings panel: one entry per finding of the audit; each with an event jumps to it.
    let (_, audit) = super::get(app, &format!("/api/v1/games/{name}/audit"), Some(judge)).await;
    let findings = audit["findings"].as_array().unwrap().clone();
    goto_board(c, &url(0, "&as=judge"), 0).await;
    // (A finding about the whole game is text, not a button: there is no event to jump to.)
    wait_for(c, &format!("document.querySelectorAll('#findings .finding').length === {}", findings.len())).await;
    for (i, f) in findings.iter().enumerate().filter(|(_, f)| f["seq"].is_u64()) {
        let target = f["seq"].as_u64().unwrap() + 1;
        c.execute(&format!("document.querySelectorAll('#findings .finding')[{i}].click()"), vec![]).await.unwrap();
        wait_for(c, &format!("document.getElementById('board').dataset.seq === '{target}'")).await;
        assert_eq!(
            js(c, "document.activeElement.id").await,
            "board",
            "{name}: the jump returns the focus to the board"
        );
        assert_no_duplicate_cards(c, &format!("{name} {target} (judge)")).await;
    }
    if name.contains("judged") {
        assert!(findings.iter().any(|f| f["seq"].is_u64()), "{name} has a finding to jump to");
        screenshot(c, &format!("{name}-findings")).await;
    }
    c.execute("localStorage.removeItem('kifu-token')", vec![]).await.unwrap();

    // A phone.
    goto_board(phone, &url(at, ""), at).await;
    assert_no_sideways_scroll(phone, &format!("phone {name}")).await;
    assert_no_duplicate_cards(phone, &format!("phone {name}")).await;
    assert_eq!(js(phone, hand_cards).await, 0, "a spectator saw a hand card on a phone in {name}");
    screenshot(phone, &format!("{name}-phone")).await;
}

/// What [`check_replay`] works with: the two browsers, the server and the judge's token.
struct Browsers<'a> {
    c: &'a Client,
    phone: &'a Client,
    base: &'a str,
    app: &'a axum::Router,
    judge: &'a str,
    axe: &'a str,
}

#[test]
fn browser_lc_brk_fate_replays() {
    let env = ServerEnv::new();
    let cd = start_chromedriver();
    let axe = axe_source();
    let judge = env.token(Role::Judge, "*", "jules");
    let app = env.app();
    let mut axe_found: Vec<String> = Vec::new();
    let mut checked = 0;
    rt().block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let served = env.app();
        tokio::spawn(async move { axum::serve(listener, served).await });
        let c = connect(&cd, false).await;
        viewport(&c, 1400, 900).await;
        let phone = connect(&cd, true).await;
        for name in super::fixtures().iter().filter(|f| NEW_GAMES.iter().any(|g| f.starts_with(&format!("{g}-")))) {
            let t = Browsers { c: &c, phone: &phone, base: &base, app: &app, judge: &judge, axe: &axe };
            check_replay(&t, name, &mut axe_found).await;
            checked += 1;
        }
        c.close().await.unwrap();
        phone.close().await.unwrap();
    });
    assert_eq!(checked, 10, "three fixtures each of LC and BRK, four of FATE (clean, judged, unruled, as recorded)");
    assert!(axe_found.is_empty(), "axe-core found serious or critical problems: {axe_found:#?}");
    drop(cd);
}

/// Boxes that spill out of the box they sit in (a scrolling box excepted: its content may be
/// larger), under `root`: each as `what: child rect vs parent rect`.
pub(super) const OVERFLOWS: &str = "((root) => { const bad = []; const d = (e) => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (e.className && typeof e.className === 'string' ? '.' + e.className.trim().split(/\\s+/).join('.') : '') + (e.dataset.zone ? '[' + e.dataset.zone + ']' : '');
  for (const e of document.querySelectorAll(root + ' *')) {
    const p = e.parentElement, cs = getComputedStyle(e), ps = getComputedStyle(p);
    if (['absolute', 'fixed'].includes(cs.position) || e.closest('.sr-only, details:not([open]) > :not(summary)') || ['option', 'script'].includes(e.tagName.toLowerCase())) continue;
    // A scrolling box's content may be larger; an inline parent's box is only its text's line.
    if (/(auto|scroll)/.test(ps.overflowX + ps.overflowY) || ps.display === 'inline') continue;
    const r = e.getBoundingClientRect(), q = p.getBoundingClientRect();
    if (!r.width || !r.height || !q.width) continue;
    if (r.left < q.left - 1 || r.right > q.right + 1 || r.top < q.top - 1 || r.bottom > q.bottom + 1)
      bad.push(d(e) + ' in ' + d(p) + ': ' + [r.left, r.right, r.top, r.bottom].map(Math.round) + ' vs ' + [q.left, q.right, q.top, q.bottom].map(Math.round));
  }
  return bad.slice(0, 8); })";

/// Visible text smaller than 12 px: `[size, text]` of each, at most 8.
pub(super) const SMALL_TEXT: &str = "(() => { const bad = [];
  const w = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let t = w.nextNode(); t; t = w.nextNode()) {
    const e = t.parentElement;
    if (!t.textContent.trim() || !e || e.closest('.sr-only, option, script, #print, [hidden], details:not([open]) > :not(summary)') || !e.getClientRects().length) continue;
    const s = parseFloat(getComputedStyle(e).fontSize);
    if (s < 12) bad.push([s, t.textContent.trim().slice(0, 30)]);
  }
  return bad.slice(0, 8); })()";

/// Presses Tab `n` times from the top of the page; returns the visible, enabled controls Tab
/// never reached (links, buttons, fields, summaries, tab stops).
pub(super) async fn unreachable_by_tab(c: &Client, n: usize) -> Value {
    c.execute(
        "document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0);
         window.__tabbed = new Set(); document.addEventListener('focusin', (e) => window.__tabbed.add(e.target));",
        vec![],
    )
    .await
    .unwrap();
    let mut a = KeyActions::new("keyboard".into());
    for _ in 0..n {
        a = a.then(KeyAction::Down { value: '\u{e004}' }).then(KeyAction::Up { value: '\u{e004}' });
    }
    c.perform_actions(a).await.unwrap();
    js(
        c,
        "[...document.querySelectorAll('a[href], button, select, input, summary, [tabindex=\"0\"]')]
           .filter((e) => e.getAttribute('tabindex') !== '-1' && !e.disabled && !e.closest('[hidden], fieldset:disabled, details:not([open]) > :not(summary)') && e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden')
           .filter((e) => !window.__tabbed.has(e))
           .map((e) => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + ' ' + (e.textContent || e.getAttribute('aria-label') || '').trim().slice(0, 30))",
    )
    .await
}

/// How many controls Tab should visit on the page (with room to spare).
async fn tab_stops(c: &Client) -> usize {
    js(c, "document.querySelectorAll('a[href], button, select, input, summary, [tabindex=\"0\"]').length")
        .await
        .as_u64()
        .unwrap() as usize
        + 8
}

/// Issue 33, for every fixture and a live game, at 390×844 and at 1400×900, light and dark: a
/// finished game names no one to act; on the phone the step controls stay in the viewport
/// wherever the page is scrolled, no text is under 12 px and every control is reached by Tab;
/// at both sizes no box spills out of its box, the event list numbers the rows as the position
/// label does (event N is row #N) and says its time zone; the current row is kept out from under
/// the sticky turn header; the board outlines what the last action changed and names it; the
/// public findings show each rule's summary. A screenshot of each under `target/screenshots/`.
#[test]
fn browser_every_fixture_on_a_phone_and_a_desktop() {
    let env = ServerEnv::new();
    let cd = start_chromedriver();
    let axe = axe_source();
    let app = env.app();
    let log = super::fixture_log("naruto-physical");
    let mut axe_found: Vec<String> = Vec::new();
    rt().block_on(async {
        let base = serve_app(env.state.clone()).await;
        super::live::feed(&env.state, &log, "naruto-live", 0, 29).await;
        let desk = connect(&cd, false).await;
        viewport(&desk, 1400, 900).await;
        let phone = connect(&cd, true).await;
        let mut names = super::fixtures();
        names.push("naruto-live".to_string());
        let mut heights = Vec::new();
        let mut in_progress = std::collections::BTreeSet::new();
        for theme in ["light", "dark"] {
            for c in [&desk, &phone] {
                c.goto(&format!("{base}/")).await.unwrap();
                c.execute("localStorage.setItem('kifu-theme', arguments[0]); localStorage.removeItem('kifu-token')", vec![json!(theme)]).await.unwrap();
            }
            for name in &names {
                let (_, summary) = super::get(&app, &format!("/api/v1/games/{name}"), None).await;
                let len = summary["events"].as_u64().unwrap();
                let finished = !summary["outcome"].is_null();
                if !finished {
                    in_progress.insert(name.clone());
                }
                assert_eq!(finished, !summary["live"].as_bool().unwrap(), "{name}");
                let (_, board) = super::get(&app, &format!("/api/v1/games/{name}/board?seq={len}"), None).await;
                for (c, size) in [(&phone, "phone"), (&desk, "desktop")] {
                    let at = format!("{name} {size} {theme}");
                    goto_board(c, &format!("{base}/replay/{name}?seq={len}"), len).await;
                    wait_for(c, &format!("document.getElementById('events-status').textContent === '({len})'")).await;
                    assert_eq!(js(c, "document.documentElement.dataset.theme").await, theme, "{at}");
                    // The end of a finished game: no one to act, no seat marked active.
                    let pos = js(c, "document.getElementById('position').textContent").await;
                    let pos = pos.as_str().unwrap();
                    if finished {
                        assert!(pos.contains("game over") && !pos.contains("to act") && !pos.contains("waiting for"), "{at}: {pos}");
                        assert_eq!(js(c, "document.querySelectorAll('#board .badge.turn, #board .seat.active').length").await, 0, "{at}: an active seat in a finished game");
                        // Nor does a seat's role or a game fact name who acts (an attacker, the
                        // active Master, the turn's seat).
                        let acting = js(c, "[...document.querySelectorAll('#board .chip')].map((e) => e.textContent).filter((t) => /^role: .*\\b(active|turn|attacker|blocker)\\b/.test(t) || /^active master:/.test(t))").await;
                        assert_eq!(acting, json!([]), "{at}: who acts, in a finished game");
                    }
                    // One numbering: the position label, the list and the last action name the
                    // last event by the number the log, the CLI and the judge's panel give it.
                    let label = js(c, "document.getElementById('seq-label').textContent").await;
                    if len > 0 {
                        assert_eq!(label, format!("after #{} · {len} of {len} events", len - 1), "{at}");
                        assert_eq!(js(c, "document.querySelector('#events li.current .seq').textContent").await, format!("#{}", len - 1), "{at}");
                        let last = &board["last"];
                        let said = js(c, "document.getElementById('last-action').textContent").await;
                        assert_eq!(said, format!("#{} {}: {}", len - 1, last["actor"].as_str().unwrap(), last["text"].as_str().unwrap()), "{at}");
                    } else {
                        assert_eq!(label, "start · 0 of 0 events", "{at}");
                    }
                    assert!(js(c, "document.getElementById('events-title').textContent").await.as_str().unwrap().contains("UTC"), "{at}: the time zone");

                    let spill = js(c, &format!("{OVERFLOWS}('main')")).await;
                    assert_eq!(spill, json!([]), "{at}: boxes spill out of their boxes");
                    if size == "phone" {
                        assert_no_sideways_scroll(c, &at).await;
                        assert_eq!(js(c, SMALL_TEXT).await, json!([]), "{at}: text under 12 px");
                        // The step controls stay on the screen wherever the page is scrolled.
                        let h = js(c, "document.documentElement.scrollHeight").await.as_u64().unwrap();
                        heights.push(h);
                        for y in [0, h / 2, h] {
                            c.execute(&format!("window.scrollTo(0, {y})"), vec![]).await.unwrap();
                            let r = js(c, "['scrubber', 'back', 'fwd', 'play'].map((i) => { const r = document.getElementById(i).getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth; })").await;
                            assert_eq!(r, json!([true, true, true, true]), "{at}: the step controls are off screen when scrolled to {y} of {h}");
                        }
                        if theme == "light" {
                            let missed = unreachable_by_tab(c, tab_stops(c).await).await;
                            assert_eq!(missed, json!([]), "{at}: controls Tab does not reach");
                            axe_check(c, &axe, &at, &mut axe_found).await;
                        }
                    } else if theme == "dark" {
                        axe_check(c, &axe, &at, &mut axe_found).await;
                    }
                    c.execute("window.scrollTo(0, 0)", vec![]).await.unwrap();
                    screenshot(c, &format!("{name}-{size}-{theme}")).await;
                }
            }
        }
        eprintln!("phone replay page heights: {heights:?}");

        // The start page: "in progress only" shows the live game and no finished one.
        for (c, size) in [(&phone, "phone"), (&desk, "desktop")] {
            c.goto(&format!("{base}/")).await.unwrap();
            wait_for(c, "document.getElementById('games').dataset.states === 'done'").await;
            assert_eq!(js(c, "document.querySelector('#games tr[data-id=\"naruto-live\"]').dataset.live").await, "true");
            assert_eq!(js(c, "document.querySelector('#games tr[data-id=\"naruto-physical\"]').dataset.live").await, "false");
            c.find(Locator::Id("f-live")).await.unwrap().click().await.unwrap();
            let shown = js(c, "[...document.querySelectorAll('#games tbody tr')].filter((r) => !r.hidden).map((r) => r.dataset.id)").await;
            let want: Vec<&String> = in_progress.iter().collect();
            assert_eq!(shown, json!(want), "{size}: in progress only: the games without an outcome");
            assert!(want.iter().any(|n| *n == "naruto-live") && want.len() < names.len() / 2, "{want:?}");
            if size == "phone" {
                assert_no_sideways_scroll(c, "phone home").await;
            }
            let spill = js(c, &format!("{OVERFLOWS}('main')")).await;
            assert_eq!(spill, json!([]), "{size} home: boxes spill out of their boxes");
            screenshot(c, &format!("home-in-progress-{size}")).await;
        }

        // A live game: the count beside "Events" follows the list as events arrive.
        goto_board(&desk, &format!("{base}/replay/naruto-live"), 29).await;
        wait_for(&desk, "document.getElementById('events-status').textContent === '(29)'").await;
        super::live::feed(&env.state, &log, "naruto-live", 29, 34).await;
        wait_for(&desk, "document.querySelectorAll('#events li.ev').length === 34").await;
        wait_for(&desk, "document.getElementById('events-status').textContent === '(34)'").await;

        // The board outlines what the last action changed: a card that moved, a zone's count.
        let session = kifu::games::driver("naruto").unwrap().open(&log).unwrap();
        let counts = |n: u64| -> Vec<usize> {
            let b = session.board(n, Viewer::Spectator);
            b.seats.iter().flat_map(|s| s.zones.iter().map(|z| z.count)).collect()
        };
        let moved = (200..session.len()).find(|&n| counts(n) != counts(n - 1)).unwrap();
        goto_board(&desk, &format!("{base}/replay/naruto-physical?seq={moved}"), moved).await;
        wait_for(&desk, "Number(document.getElementById('board').dataset.changed) > 0").await;
        assert!(js(&desk, "document.querySelectorAll('#board .zname.changed').length").await.as_u64().unwrap() > 0, "a zone whose count changed is outlined");
        screenshot(&desk, "replay-changed").await;

        // The sticky turn header never covers the current row: put the row under it, step to it.
        goto_board(&desk, &format!("{base}/replay/naruto-physical?seq=300"), 300).await;
        wait_for(&desk, "document.getElementById('events-status').textContent === '(433)'").await;
        desk.execute("const l = document.getElementById('events'), r = l.querySelector('li.ev[data-seq=\"250\"]'); l.scrollTop = r.offsetTop - l.offsetTop - 4;", vec![]).await.unwrap();
        desk.execute("document.getElementById('scrubber').value = 251; document.getElementById('scrubber').dispatchEvent(new Event('input'))", vec![]).await.unwrap();
        wait_for(&desk, "document.getElementById('board').dataset.seq === '251'").await;
        let covered = js(&desk, "(() => { const l = document.getElementById('events'), cur = l.querySelector('li.current'), top = l.getBoundingClientRect().top; const h = [...l.querySelectorAll('li.turn-head')].map((x) => x.getBoundingClientRect()).filter((r) => r.top <= top + 1 && r.bottom > top); return h.some((x) => cur.getBoundingClientRect().top < x.bottom - 1) || cur.getBoundingClientRect().top < top; })()").await;
        assert_eq!(covered, json!(false), "event 251 scrolled into sight below the sticky header");

        // The event list by keyboard: Tab reaches the current row, ↓ and Enter show the next one.
        desk.execute("document.querySelector('#events li.ev[tabindex=\"0\"]').focus()", vec![]).await.unwrap();
        assert_eq!(js(&desk, "document.activeElement.dataset.seq").await, "250");
        press(&desk, &['\u{e015}']).await; // ↓
        press(&desk, &['\u{e007}']).await; // Enter
        wait_for(&desk, "document.getElementById('board').dataset.seq === '252'").await;

        // A card by keyboard: a Tab stop; focused, its whole text is written out under the last
        // action (no hover tooltip needed); Enter or Space on it does not step or play the game.
        goto_board(&desk, &format!("{base}/replay/naruto-physical?seq=200"), 200).await;
        assert_eq!(js(&desk, "[...document.querySelectorAll('#board .card.known')].every((c) => c.tabIndex === 0)").await, true);
        // (The first one drawn: a card in a closed pile's list is not on the screen, and Chromium
        // still gives it boxes.)
        desk.execute("[...document.querySelectorAll('#board .card.known')].find((c) => !c.closest('details:not([open])') && c.getClientRects().length).focus()", vec![]).await.unwrap();
        let said = js(&desk, "[document.getElementById('card-detail').hidden, document.getElementById('card-detail').textContent === document.activeElement.title, document.activeElement.title.length > 0]").await;
        assert_eq!(said, json!([false, true, true]), "the focused card written out");
        press(&desk, &['\u{e007}']).await; // Enter
        press(&desk, &[' ']).await;
        tokio::time::sleep(Duration::from_millis(400)).await;
        assert_eq!(board_seq(&desk).await, 200, "Enter and Space on a card neither step nor play");
        screenshot(&desk, "replay-card-focused").await;

        // The public findings: each with its rule's summary; a finding about the whole game is
        // not a greyed-out control.
        for name in super::fixtures() {
            let (_, audit) = super::get(&app, &format!("/api/v1/games/{name}/audit"), None).await;
            let findings = audit["findings"].as_array().unwrap();
            if findings.is_empty() {
                continue;
            }
            goto_board(&desk, &format!("{base}/replay/{name}?seq=0"), 0).await;
            wait_for(&desk, &format!("document.querySelectorAll('#findings li[data-rule]').length === {}", findings.len())).await;
            for (i, f) in findings.iter().enumerate() {
                let summary = f["summary"].as_str().unwrap_or_else(|| panic!("{name}: no summary for {}", f["rule"]));
                let text = js(&desk, &format!("document.querySelectorAll('#findings li[data-rule]')[{i}].textContent")).await;
                assert!(text.as_str().unwrap().contains(summary), "{name}: finding {i} shows its summary: {text}");
            }
            let greyed = js(&desk, "[...document.querySelectorAll('#findings li.open .finding')].filter((e) => e.disabled || Number(getComputedStyle(e).opacity) < 1).length").await;
            assert_eq!(greyed, 0, "{name}: an unresolved finding greyed out");
            screenshot(&desk, &format!("{name}-findings-public")).await;
        }

        desk.close().await.unwrap();
        phone.close().await.unwrap();
    });
    assert!(axe_found.is_empty(), "axe-core found serious or critical problems: {axe_found:#?}");
    drop(cd);
}
