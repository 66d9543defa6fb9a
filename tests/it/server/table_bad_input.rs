//! The table page's bad input (issue 30): two players tapping at once, a seat trying to act for
//! another, a page left open on an old head, a revoked token mid-game and a game that ended while
//! a pick was in flight. Each page says what happened in plain words, stays on the table (fresh
//! options, never an error page), and the log holds exactly what was meant: no pick recorded
//! twice, none for the wrong seat, none after the end; it verifies and audits clean.

use axum::http::StatusCode;
use fantoccini::Client;
use serde_json::json;

use kifu::game::options::{option_id, GameOption, Pick};
use kifu::game::{record, Game, GameEntry};
use kifu::games::lc::{Lc, LcEvent};
use kifu::log::envelope::{MatchBinding, MatchPlace, StreamId, Timestamp};
use kifu::server::tokens::Role;
use kifu::store::Store;

use super::browser::{connect_own, js, screenshot, serve_app, start_chromedriver, use_token, wait_for, PATIENCE};
use super::five_games::recordable;
use super::table_page::{quoted, tap};
use super::{call, get, open_match_of, rt, ServerEnv};

/// The game's state now and its length.
fn now(store: &dyn Store, stream: &StreamId, config: &<Lc as Game>::Config) -> (<Lc as Game>::State, u64) {
    let loaded = record::load::<Lc>(store, stream).unwrap();
    let mut state = Lc::setup(config).unwrap();
    for (seq, s) in loaded.steps.iter().enumerate() {
        if let GameEntry::Played(e) = &s.entry {
            Lc::ledger_mut(&mut state).at(seq as u64);
            state = Lc::apply(state, e);
        }
    }
    (state, loaded.steps.len() as u64)
}

/// An option recorded by one tap that does not end the game.
fn plain(state: &<Lc as Game>::State, o: &GameOption<LcEvent>) -> bool {
    match &o.pick {
        Pick::Event(e) => Lc::outcome(&Lc::apply(state.clone(), e)).is_none(),
        Pick::Param { .. } => false,
    }
}

/// The page's refusal line once it says `text`.
async fn page_says(c: &Client, text: &str) -> String {
    wait_for(c, &format!("document.getElementById('record-error').textContent.includes({})", json!(text))).await;
    js(c, "document.getElementById('record-error').textContent").await.as_str().unwrap_or_default().to_string()
}

/// The page stays the table: its record panel shown, with its seat's options or whom it waits for.
async fn still_at_the_table(c: &Client) {
    wait_for(
        c,
        "!document.getElementById('record').hidden && document.getElementById('record-status').textContent.length > 0",
    )
    .await;
}

/// The game at the table, as the test drives it besides the pages.
struct At<'a> {
    store: &'a dyn Store,
    stream: &'a StreamId,
    config: &'a <Lc as Game>::Config,
    app: &'a axum::Router,
    judge: &'a str,
}

impl At<'_> {
    /// The options of every seat now, with the game's length.
    fn options(&self) -> (<Lc as Game>::State, u64, Vec<GameOption<LcEvent>>) {
        let (state, len) = now(self.store, self.stream, self.config);
        let all = (0..2).flat_map(|s| Lc::options(&state, s).unwrap_or_default()).collect();
        (state, len, all)
    }

    /// The judge records an option for its seat through the API: a plain one if there is one,
    /// else the first values of one with a parameter.
    async fn advance(&self) {
        let (state, len, all) = self.options();
        let o = all.iter().find(|o| plain(&state, o)).or(all.first()).expect("an option");
        let values: Vec<String> =
            o.param().map(|p| p.values.iter().take(p.count).map(|v| v.value.clone()).collect()).unwrap_or_default();
        let params = o.param().map(|p| json!({ p.name: values })).unwrap_or(json!({}));
        let body = json!({ "option": option_id(len, o), "params": params, "expected": len, "seat": o.seat });
        let uri = format!("/api/v1/games/{}/options", self.stream);
        let (st, v) = call(self.app, "POST", &uri, Some(self.judge), Some(body)).await;
        assert_eq!(st, StatusCode::CREATED, "{v}");
    }

    /// A plain option of a seat other than `not`, as the page offers it: (button, seat); the
    /// judge records options until there is one.
    async fn next(&self, not: Option<usize>) -> (String, usize) {
        for _ in 0..200 {
            let (state, len, all) = self.options();
            let found = all.iter().find(|o| plain(&state, o) && Some(usize::from(o.seat)) != not);
            if let Some(o) = found {
                return (format!("[data-option={}]", quoted(&option_id(len, o))), usize::from(o.seat));
            }
            self.advance().await;
        }
        panic!("no plain option came");
    }
}

#[test]
fn browser_bad_input_at_the_table_says_what_happened_and_records_nothing_wrong() {
    let env = ServerEnv::new();
    let cd = start_chromedriver();
    let store = env.state.store().clone();
    let app = env.app();
    let tid = "lc-bad";
    let players: Vec<String> = ["ana", "rui"].iter().map(|s| s.to_string()).collect();
    open_match_of(&*store, tid, "lc", &players);
    let (config, _) = recordable::<Lc>(&players);
    let stream = StreamId::new(&format!("{tid}-r1-g1")).unwrap();
    let bound = MatchBinding { tournament: StreamId::new(tid).unwrap(), round: 1, place: MatchPlace::Table(1) };
    record::create_bound::<Lc>(&*store, &stream, &config, Timestamp(1_767_225_600_000_000), Some(bound)).unwrap();
    let tokens: Vec<String> = players.iter().map(|p| env.token(Role::Player, tid, p)).collect();
    let judge = env.token(Role::Judge, tid, "jin");
    rt().block_on(async {
        let base = serve_app(env.state.clone()).await;
        let url = format!("{base}/replay/{stream}");
        let mut pages = Vec::new();
        for (seat, p) in players.iter().enumerate() {
            let c = connect_own(&cd, seat == 0, p).await;
            c.goto(&url).await.unwrap();
            use_token(&c, &tokens[seat], &format!("player {p}")).await;
            wait_for(&c, "!document.getElementById('record').hidden").await;
            pages.push(c);
        }
        let t = At { store: &*store, stream: &stream, config: &config, app: &app, judge: &judge };
        // Two players tapping at once: while both seats have something to pick, both tap; one
        // pick lands, the other page gets the fresh options and says the game moved on.
        let both = loop {
            let (state, len, all) = t.options();
            let mine = |s: u8| all.iter().find(|o| o.seat == s && plain(&state, o));
            if let (Some(a), Some(b)) = (mine(0), mine(1)) {
                break [a, b].map(|o| format!("[data-option={}]", quoted(&option_id(len, o))));
            }
            assert!(len < 60, "no point where both seats pick");
            t.advance().await;
        };
        let len = store.head(&stream).unwrap().len;
        for (c, b) in pages.iter().zip(&both) {
            wait_for(c, &format!("document.querySelector({})", json!(b))).await;
            kifu_freeze(c, len).await;
        }
        let scripts: Vec<String> =
            both.iter().map(|b| format!("(document.querySelector({}).click(), true)", json!(b))).collect();
        futures_util::future::join_all(pages.iter().zip(&scripts).map(|(c, s)| js(c, s))).await;
        let t0 = std::time::Instant::now();
        loop {
            let mut said = Vec::new();
            for c in &pages {
                said.push(js(c, "document.getElementById('record-error').textContent").await);
            }
            if said.iter().any(|s| s.as_str().is_some_and(|s| s.contains("moved on"))) {
                break;
            }
            assert!(t0.elapsed() < PATIENCE, "no page said the game moved on: {said:?}");
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        assert_eq!(store.head(&stream).unwrap().len, len + 1, "one of the two picks landed, once");
        for c in &pages {
            still_at_the_table(c).await;
            thaw(c).await;
        }

        // A seat trying to act for another: the awaited seat's page under the other player's
        // token (signed in elsewhere in the same browser) taps the option: refused, nothing recorded.
        let (button, seat) = t.next(None).await;
        let c = &pages[seat];
        wait_for(c, &format!("document.querySelector({})", json!(button))).await;
        let len = store.head(&stream).unwrap().len;
        kifu_freeze(c, len).await;
        js(c, &format!("(kifu.setToken({}), true)", json!(tokens[1 - seat]))).await;
        tap(c, &button).await;
        let says = page_says(c, "not yours").await;
        assert!(says.contains(&format!("{}'s", players[seat])), "the page names whose seat it is: {says}");
        assert_eq!(store.head(&stream).unwrap().len, len, "nothing recorded for another seat");
        js(c, &format!("(kifu.setToken({}), true)", json!(tokens[seat]))).await;
        thaw(c).await;

        // A page left open on an old head (its live feed lagging): a judge's note moved the game
        // on; the tap is refused as stale, the page shows the fresh options, and the same action
        // tapped again is recorded once.
        kifu_freeze(c, len).await;
        let note = json!({ "ruling": { "NoteRecorded": { "judge": "jin", "about": null, "note": "table 1 moved" } }, "expected": len });
        let (st, v) = call(&app, "POST", &format!("/api/v1/games/{stream}/rulings"), Some(&judge), Some(note)).await;
        assert_eq!(st, StatusCode::CREATED, "{v}");
        tap(c, &button).await;
        page_says(c, "moved on").await;
        assert_eq!(store.head(&stream).unwrap().len, len + 1, "only the note");
        thaw(c).await;
        let (fresh, _) = t.next(None).await;
        tap(c, &fresh).await;
        super::table_page::grown(&*store, &stream, len + 1).await;

        // A revoked token mid-game: the tap is refused with a plain reason, nothing recorded.
        let (button, seat) = t.next(None).await;
        let c = &pages[seat];
        wait_for(c, &format!("document.querySelector({})", json!(button))).await;
        env.revoke(&tokens[seat]);
        let len = store.head(&stream).unwrap().len;
        tap(c, &button).await;
        page_says(c, "revoked").await;
        assert_eq!(store.head(&stream).unwrap().len, len, "nothing recorded under a revoked token");

        // A game that ended while a pick was in flight: the other seat's page, its feed lagging,
        // taps after a judge's game loss ended the game: nothing recorded, the page says so.
        let (button, other) = t.next(Some(seat)).await;
        let c = &pages[other];
        wait_for(c, &format!("document.querySelector({})", json!(button))).await;
        let len = store.head(&stream).unwrap().len;
        kifu_freeze(c, len).await;
        let loss = json!({ "ruling": { "GameLossIssued": { "judge": "jin", "seat": seat, "rule": null, "about": null, "note": "marked cards" } }, "expected": len });
        let (st, v) = call(&app, "POST", &format!("/api/v1/games/{stream}/rulings"), Some(&judge), Some(loss)).await;
        assert_eq!(st, StatusCode::CREATED, "{v}");
        tap(c, &button).await;
        page_says(c, "game ended").await;
        assert_eq!(store.head(&stream).unwrap().len, len + 1, "nothing recorded after the end");

        // The log verifies and audits clean: nothing recorded against the rules.
        let (st, verify) = get(&app, &format!("/api/v1/games/{stream}/verify"), None).await;
        assert_eq!(st, StatusCode::OK, "{verify}");
        let (_, audit) = get(&app, &format!("/api/v1/games/{stream}/audit"), Some(&judge)).await;
        assert_eq!(audit["findings"], json!([]), "{audit}");
        for c in pages {
            c.close().await.unwrap();
        }
    });
}

/// The page's live feed lags: new entries no longer refresh its options (as a page left open
/// while its connection hangs). First the page settles at `len` events: its options are those of
/// that head and no refresh is due or on its way (one already started lands first).
async fn kifu_freeze(c: &Client, len: u64) {
    let settled = format!("(() => {{ const r = document.getElementById('record'); return r.dataset.settled === 'yes' && r.dataset.events === '{len}'; }})()");
    wait_for(c, &settled).await;
    js(c, "(window.kifuLive = kifuRecord.changed, kifuRecord.changed = () => {}, true)").await;
}

/// The live feed refreshes the options again from the next entry on.
async fn thaw(c: &Client) {
    js(c, "(kifuRecord.changed = window.kifuLive || kifuRecord.changed, true)").await;
}

/// The record panel's status text now.
async fn status_of(c: &Client) -> String {
    js(c, "document.getElementById('record-status').textContent").await.as_str().unwrap_or_default().to_string()
}

/// Whose move (issue 52): the awaited seat's page says "Your move", the other page "Waiting for"
/// the awaited player (never itself); then the other player ends the game by tapping Concede and
/// accepting the confirm(), and both pages show the outcome, the control gone.
#[test]
fn browser_the_table_says_whose_move_and_a_player_concedes() {
    let env = ServerEnv::new();
    let cd = start_chromedriver();
    let store = env.state.store().clone();
    let app = env.app();
    let tid = "lc-concede";
    let players: Vec<String> = ["ana", "rui"].iter().map(|s| s.to_string()).collect();
    open_match_of(&*store, tid, "lc", &players);
    let (config, _) = recordable::<Lc>(&players);
    let stream = StreamId::new(&format!("{tid}-r1-g1")).unwrap();
    let bound = MatchBinding { tournament: StreamId::new(tid).unwrap(), round: 1, place: MatchPlace::Table(1) };
    record::create_bound::<Lc>(&*store, &stream, &config, Timestamp(1_767_225_600_000_000), Some(bound)).unwrap();
    let tokens: Vec<String> = players.iter().map(|p| env.token(Role::Player, tid, p)).collect();
    let judge = env.token(Role::Judge, tid, "jin");
    rt().block_on(async {
        let base = serve_app(env.state.clone()).await;
        let url = format!("{base}/replay/{stream}");
        let mut pages = Vec::new();
        for (seat, p) in players.iter().enumerate() {
            let c = connect_own(&cd, seat == 0, p).await;
            c.goto(&url).await.unwrap();
            use_token(&c, &tokens[seat], &format!("player {p}")).await;
            wait_for(&c, "!document.getElementById('record').hidden").await;
            pages.push(c);
        }
        let t = At { store: &*store, stream: &stream, config: &config, app: &app, judge: &judge };
        // A head where the game awaits one seat, which holds options.
        let seat = loop {
            let (_, v) = get(&app, &format!("/api/v1/games/{stream}/options"), Some(&judge)).await;
            let awaited: Vec<u64> = v["awaited"].as_array().unwrap().iter().map(|a| a["seat"].as_u64().unwrap()).collect();
            let holds = |s: u64| v["options"].as_array().unwrap().iter().any(|o| o["seat"] == s);
            if let [s] = awaited[..] {
                if holds(s) {
                    break s as usize;
                }
            }
            assert!(store.head(&stream).unwrap().len < 60, "no head awaits one seat alone");
            t.advance().await;
        };
        let len = store.head(&stream).unwrap().len;
        let settled = format!("(() => {{ const r = document.getElementById('record'); return r.dataset.settled === 'yes' && r.dataset.events === '{len}'; }})()");
        for c in &pages {
            wait_for(c, &settled).await;
        }
        let other = 1 - seat;
        let mine = status_of(&pages[seat]).await;
        assert!(mine.starts_with("Your move"), "the awaited seat's page: {mine}");
        let theirs = status_of(&pages[other]).await;
        assert_eq!(theirs, format!("Waiting for {}", players[seat]), "the other seat's page");
        // Concede, apart from the actions, on the page of the seat not awaited: a confirm() first.
        let control = "document.querySelector('#record .concede [data-concede]')";
        assert_eq!(js(&pages[other], &format!("!!{control} && !{control}.closest('.opts')")).await, json!(true));
        screenshot(&pages[other], "table-concede-offered").await;
        tap(&pages[other], "#record .concede [data-concede]").await;
        pages[other].accept_alert().await.unwrap();
        super::table_page::grown(&*store, &stream, len).await;
        for c in &pages {
            wait_for(c, "document.getElementById('record-status').textContent === 'The game is over.'").await;
            let won = format!("{} won", players[seat]);
            wait_for(c, &format!("(document.querySelector('.over-line') || {{dataset: {{}}}}).dataset.outcome === {}", json!(won))).await;
            assert_eq!(js(c, &format!("!!{control}")).await, json!(false), "no Concede once the game is over");
        }
        screenshot(&pages[other], "table-conceded").await;
        let (_, audit) = get(&app, &format!("/api/v1/games/{stream}/audit"), Some(&judge)).await;
        assert_eq!(audit["outcome"]["reason"], json!(format!("{} conceded", players[other])), "{audit}");
        assert_eq!(audit["findings"], json!([]), "{audit}");
        for c in pages {
            c.close().await.unwrap();
        }
    });
}
