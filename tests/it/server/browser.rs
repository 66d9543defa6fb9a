//! The pages in headless Chromium, driven over WebDriver (fantoccini + Debian's chromedriver):
//! open a replay, drag the scrubber and check the board at that position, jump to a turn, use
//! the keyboard shortcuts, check that a spectator never sees a hand while a player sees their
//! own, follow a live game, open the standings and bracket. Screenshots are saved under
//! `target/screenshots/`. The test FAILS (it does not skip) when Chromium or chromedriver is
//! missing: `.ci/run` installs them.

use std::net::{SocketAddr, TcpListener, TcpStream};
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

const CHROME_FLAGS: [&str; 9] = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1400,1000",
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

/// chromedriver on a free loopback port; killed (by its PID) when dropped.
struct ChromeDriver {
    child: Child,
    port: u16,
    _profile: tempfile::TempDir,
}

impl Drop for ChromeDriver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

fn start_chromedriver() -> ChromeDriver {
    let driver = find_program(&["chromedriver"]).unwrap_or_else(|| {
        panic!("chromedriver is not installed: apt-get install chromium chromium-driver (.ci/run does); the browser tests do not skip")
    });
    find_program(&["chromium", "chromium-browser"])
        .expect("chromium is not installed: apt-get install chromium chromium-driver");
    let port = free_port();
    let child = Command::new(driver)
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
        assert!(t0.elapsed() < Duration::from_secs(15), "chromedriver did not listen on {addr}");
        std::thread::sleep(Duration::from_millis(50));
    }
    cd
}

async fn connect(cd: &ChromeDriver) -> Client {
    let chromium = find_program(&["chromium", "chromium-browser"]).unwrap();
    let mut args: Vec<String> = CHROME_FLAGS.iter().map(|s| s.to_string()).collect();
    args.push(format!("--user-data-dir={}", cd._profile.path().display()));
    let caps = json!({"goog:chromeOptions": {"binary": chromium, "args": args}});
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

async fn screenshot(c: &Client, name: &str) {
    let png = c.screenshot().await.unwrap();
    std::fs::write(screenshots_dir().join(format!("{name}.png")), png).unwrap();
}

/// Polls a JavaScript expression until it is truthy (10 s).
async fn wait_for(c: &Client, expr: &str) -> Value {
    let t0 = Instant::now();
    loop {
        let v = c.execute(&format!("return ({expr});"), vec![]).await.unwrap();
        if !(v.is_null() || v == json!(false) || v == json!("") || v == json!(0)) {
            return v;
        }
        if t0.elapsed() > Duration::from_secs(10) {
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

async fn js(c: &Client, expr: &str) -> Value {
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

#[test]
fn browser_end_to_end() {
    let env = ServerEnv::new();
    let cd = start_chromedriver();
    let log = super::fixture_log("naruto-physical");
    let session = kifu::games::driver("naruto").unwrap().open(&log).unwrap();
    let alice = env.token(Role::Player, "naruto", "alice");
    let store = env.state.store().clone();
    let standings = kifu::tournament::record::load(&*store, &StreamId::new("cup").unwrap()).unwrap().state.standings();
    rt().block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let app = kifu::server::app(env.state.clone());
        tokio::spawn(async move { axum::serve(listener, app).await });
        let c = connect(&cd).await;

        // Open a replay at a position given in the URL.
        c.goto(&format!("{base}/replay/naruto-physical?seq=40")).await.unwrap();
        wait_for(&c, "document.getElementById('board').dataset.seq === '40'").await;
        assert_eq!(js(&c, "document.getElementById('events').children.length").await, 433);
        assert_eq!(js(&c, "document.getElementById('head').title").await, log.head.hash.to_hex());
        wait_for(&c, "document.getElementById('audit-summary').textContent.includes('clean')").await;
        assert_eq!(js(&c, "getComputedStyle(document.getElementById('live-badge')).display").await, "none", "a finished game is not live");

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
        screenshot(&c, "replay-scrubbed").await;

        // Jump to a turn.
        c.find(Locator::Id("turn-input")).await.unwrap().send_keys("5").await.unwrap();
        c.find(Locator::Id("jump")).await.unwrap().click().await.unwrap();
        let t5 = session.seek_turn(5, None).unwrap();
        wait_for(&c, &format!("document.getElementById('board').dataset.seq === '{t5}'")).await;
        assert_eq!(js(&c, "document.getElementById('position').dataset.turn").await, "5");

        // Keyboard shortcuts (focus off the turn box first).
        c.execute("document.activeElement.blur()", vec![]).await.unwrap();
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

        // A spectator never sees a hand: at many positions, no face-up card in any hand.
        let hand_cards = "document.querySelectorAll('.zone[data-zone=\"hand\"] .card.known').length";
        let hidden_cards = "document.querySelectorAll('.zone[data-zone=\"hand\"] .card.hidden').length";
        for n in (0..=433).step_by(37) {
            c.execute(&format!("document.getElementById('scrubber').value = {n}; document.getElementById('scrubber').dispatchEvent(new Event('input'))"), vec![]).await.unwrap();
            wait_for(&c, &format!("document.getElementById('board').dataset.seq === '{n}'")).await;
            assert_eq!(js(&c, hand_cards).await, 0, "a spectator saw a hand card at {n}");
        }
        assert_eq!(js(&c, "document.getElementById('perspective').options.length").await, 1, "public: spectator only");
        // The position where both hands hold the most cards.
        let hand = |n: u64, seat: usize| {
            let b = session.board(n, Viewer::Judge);
            b.seats[seat].zones.iter().find(|z| z.zone == "hand").map_or(0, |z| z.count)
        };
        let at = (0..433).max_by_key(|&n| (hand(n, 0).min(hand(n, 1)), hand(n, 0))).unwrap();
        c.goto(&format!("{base}/replay/naruto-physical?seq={at}")).await.unwrap();
        wait_for(&c, &format!("document.getElementById('board').dataset.seq === '{at}'")).await;
        assert!(js(&c, hidden_cards).await.as_u64().unwrap() > 0, "hands show face down");
        screenshot(&c, "replay-spectator").await;

        // A player's token: their own hand face up, the opponent's still face down.
        c.find(Locator::Id("token-input")).await.unwrap().send_keys(&alice).await.unwrap();
        c.find(Locator::Id("token-apply")).await.unwrap().click().await.unwrap();
        wait_for(&c, "document.getElementById('role').textContent.startsWith('player alice')").await;
        wait_for(&c, "document.getElementById('perspective').options.length === 2").await;
        c.find(Locator::Css("#perspective option[value='seat:0']")).await.unwrap().click().await.unwrap();
        wait_for(&c, "document.getElementById('board').dataset.viewer === 'seat:0'").await;
        let own = js(&c, "document.querySelectorAll('.seat[data-seat=\"0\"] .zone[data-zone=\"hand\"] .card.known').length").await;
        let theirs = js(&c, "document.querySelectorAll('.seat[data-seat=\"1\"] .zone[data-zone=\"hand\"] .card.known').length").await;
        assert_eq!(own, hand(at, 0), "alice sees her own hand");
        assert_eq!(theirs, 0, "alice never sees bob's hand");
        assert!(c.current_url().await.unwrap().as_str().contains("as=seat%3A0"), "the perspective is in the URL");
        screenshot(&c, "replay-player").await;
        c.execute("localStorage.removeItem('kifu-token')", vec![]).await.unwrap();

        // A live game: events appended through the server reach the page.
        super::live::feed(&env.state, &log, "naruto-live", 0, 10).await;
        c.goto(&format!("{base}/replay/naruto-live")).await.unwrap();
        wait_for(&c, "document.getElementById('board').dataset.seq === '10'").await;
        assert_ne!(js(&c, "getComputedStyle(document.getElementById('live-badge')).display").await, "none", "LIVE shows");
        super::live::feed(&env.state, &log, "naruto-live", 10, 25).await;
        wait_for(&c, "document.getElementById('events').children.length === 25").await;
        wait_for(&c, "document.getElementById('board').dataset.seq === '25'").await;
        assert_eq!(js(&c, hand_cards).await, 0, "a live game's hands stay hidden");

        // Another game through the same generic board: Vanguard's circles as groups.
        c.goto(&format!("{base}/replay/vanguard-clean?seq=60")).await.unwrap();
        wait_for(&c, "document.getElementById('board').dataset.seq === '60'").await;
        assert!(js(&c, "document.querySelectorAll('#board .zone').length").await.as_u64().unwrap() > 4);
        assert_eq!(js(&c, hand_cards).await, 0, "a spectator never sees a Vanguard hand either");
        screenshot(&c, "replay-vanguard").await;

        // The standings, the bracket, the verification badge, links to replays.
        c.goto(&format!("{base}/tournament/cup#standings")).await.unwrap();
        wait_for(&c, "document.querySelectorAll('#standings-table tr').length === 9").await;
        let first = js(&c, "document.querySelector('#standings-table tr[data-player]').dataset.player").await;
        assert_eq!(first, standings[0].player);
        assert!(js(&c, "document.querySelector('#standings-table tr').textContent").await.as_str().unwrap().contains("OMW%"));
        wait_for(&c, "document.getElementById('verify-badge').textContent === 'verified ✓'").await;
        screenshot(&c, "tournament-standings").await;
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

        c.close().await.unwrap();
    });
    drop(cd);
}
