//! The table page's bad input (issue 30): two players tapping at once, a seat trying to act for
//! another, a page left open on an old head, a revoked token mid-game and a game that ended while
//! a pick was in flight. Each page says what happened in plain words, stays on the table (fresh
//! options, never an error page), and the log holds exactly what was meant: no pick recorded
//! twice, none for the wrong seat, none after the end; it verifies and audits clean.

use axum::http::StatusCode;
use fantoccini::Client;
use serde_json::{json, Value};

use kifu::game::{record, Game, GameEntry};
use kifu::game::options::{GameOption, Pick};
use kifu::games::lc::{Lc, LcEvent};
use kifu::log::envelope::{MatchBinding, MatchPlace, StreamId, Timestamp};
use kifu::server::tokens::Role;
use kifu::store::Store;

use super::browser::{connect_own, js, serve_app, start_chromedriver, use_token, wait_for};
use super::five_games::{option_for, recordable};
use super::table_page::{quoted, tap};
use super::{call, get, open_match_of, rt, ServerEnv};

/// The game's state now, its length, and how many of the agent's events it played.
fn now<G: Game>(store: &dyn Store, stream: &StreamId, config: &G::Config) -> (G::State, u64, usize) {
    let loaded = record::load::<G>(store, stream).unwrap();
    let mut state = G::setup(config).unwrap();
    let mut played = 0;
    for (seq, s) in loaded.steps.iter().enumerate() {
        if let GameEntry::Played(e) = &s.entry {
            G::ledger_mut(&mut state).at(seq as u64);
            state = G::apply(state, e);
            played += 1;
        }
    }
    (state, loaded.steps.len() as u64, played)
}

/// The page's refusal line once it says `text`.
async fn page_says(c: &Client, text: &str) -> String {
    wait_for(c, &format!("document.getElementById('record-error').textContent.includes({})", json!(text))).await;
    js(c, "document.getElementById('record-error').textContent").await.as_str().unwrap_or_default().to_string()
}

/// The page stays the table: its record panel shown, with its seat's options or whom it waits for.
async fn still_at_the_table(c: &Client) {
    wait_for(c, "!document.getElementById('record').hidden && document.getElementById('record-status').textContent.length > 0").await;
}

/// The game at the table, as the test drives it besides the pages.
struct At<'a> {
    store: &'a dyn Store,
    stream: &'a StreamId,
    config: &'a <Lc as Game>::Config,
    events: &'a [LcEvent],
    app: &'a axum::Router,
    judge: &'a str,
}

impl At<'_> {
    /// The agent's next event, picked through the API by the judge (for its seat).
    async fn advance(&self) {
        let (state, len, played) = now::<Lc>(self.store, self.stream, self.config);
        let (id, seat, params) = option_for::<Lc>(&state, len, &self.events[played]);
        let body = json!({ "option": id, "params": params, "expected": len, "seat": seat });
        let uri = format!("/api/v1/games/{}/options", self.stream);
        let (st, v) = call(self.app, "POST", &uri, Some(self.judge), Some(body)).await;
        assert_eq!(st, StatusCode::CREATED, "{v}");
    }

    /// The agent's next event as the page offers it, (button, seat), once it is one tap that
    /// does not end the game (the judge picks the others).
    async fn next(&self) -> (String, usize) {
        loop {
            let (state, len, played) = now::<Lc>(self.store, self.stream, self.config);
            let event = &self.events[played];
            let (id, seat, params) = option_for::<Lc>(&state, len, event);
            if params.is_empty() && Lc::outcome(&Lc::apply(state, event)).is_none() {
                return (format!("[data-option={}]", quoted(&id)), usize::from(seat));
            }
            self.advance().await;
        }
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
    let (config, events) = recordable::<Lc>(&players);
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
        let t = At { store: &*store, stream: &stream, config: &config, events: &events, app: &app, judge: &judge };
        // Two players tapping at once: while both seats have something to pick, both tap; one
        // pick lands, the other page gets the fresh options and says the game moved on.
        let both = loop {
            let (state, len, played) = now::<Lc>(&*store, &stream, &config);
            let plain = |o: &GameOption<LcEvent>| match &o.pick {
                Pick::Event(e) => Lc::outcome(&Lc::apply(state.clone(), e)).is_none(),
                Pick::Param { .. } => false,
            };
            let mine = |s: u8| Lc::options(&state, s).unwrap_or_default().into_iter().find(plain);
            if let (Some(a), Some(b)) = (mine(0), mine(1)) {
                break [a, b].map(|o| format!("[data-option={}]", quoted(&kifu::game::options::option_id(len, &o))));
            }
            assert!(played < 60, "no point where both seats pick");
            t.advance().await;
        };
        let len = store.head(&stream).unwrap().len;
        for (c, b) in pages.iter().zip(&both) {
            wait_for(c, &format!("document.querySelector({})", json!(b))).await;
            kifu_freeze(c).await;
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
            assert!(t0.elapsed().as_secs() < 10, "no page said the game moved on: {said:?}");
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        assert_eq!(store.head(&stream).unwrap().len, len + 1, "one of the two picks landed, once");
        for c in &pages {
            still_at_the_table(c).await;
            thaw(c).await;
        }

        // A seat trying to act for another: the awaited seat's page under the other player's
        // token (signed in elsewhere in the same browser) taps the option: refused, nothing recorded.
        let (button, seat) = t.next().await;
        let c = &pages[seat];
        wait_for(c, &format!("document.querySelector({})", json!(button))).await;
        js(c, &format!("(kifu.setToken({}), true)", json!(tokens[1 - seat]))).await;
        let len = store.head(&stream).unwrap().len;
        tap(c, &button).await;
        let says = page_says(c, "not yours").await;
        assert!(says.contains(&players[seat]), "{says}");
        assert_eq!(store.head(&stream).unwrap().len, len, "nothing recorded for another seat");
        js(c, &format!("(kifu.setToken({}), true)", json!(tokens[seat]))).await;

        // A page left open on an old head (its live feed lagging): a judge's note moved the game
        // on; the tap is refused as stale, the page shows the fresh options, and the same action
        // tapped again is recorded once.
        kifu_freeze(c).await;
        let note = json!({ "ruling": { "NoteRecorded": { "judge": "jin", "about": null, "note": "table 1 moved" } }, "expected": len });
        let (st, v) = call(&app, "POST", &format!("/api/v1/games/{stream}/rulings"), Some(&judge), Some(note)).await;
        assert_eq!(st, StatusCode::CREATED, "{v}");
        tap(c, &button).await;
        page_says(c, "moved on").await;
        assert_eq!(store.head(&stream).unwrap().len, len + 1, "only the note");
        thaw(c).await;
        let (fresh, _) = t.next().await;
        tap(c, &fresh).await;
        super::table_page::grown(&*store, &stream, len + 1).await;

        // A revoked token mid-game: the tap is refused with a plain reason, nothing recorded.
        let (button, seat) = t.next().await;
        let c = &pages[seat];
        wait_for(c, &format!("document.querySelector({})", json!(button))).await;
        env.revoke(&tokens[seat]);
        let len = store.head(&stream).unwrap().len;
        tap(c, &button).await;
        page_says(c, "revoked").await;
        assert_eq!(store.head(&stream).unwrap().len, len, "nothing recorded under a revoked token");

        // A game that ended while a pick was in flight: the other seat's page, its feed lagging,
        // taps after a judge's game loss ended the game: nothing recorded, the page says so.
        while t.next().await.1 == seat {
            t.advance().await;
        }
        let (button, other) = t.next().await;
        let c = &pages[other];
        wait_for(c, &format!("document.querySelector({})", json!(button))).await;
        kifu_freeze(c).await;
        let len = store.head(&stream).unwrap().len;
        let loss = json!({ "ruling": { "GameLossIssued": { "judge": "jin", "seat": seat, "rule": null, "about": null, "note": "marked cards" } }, "expected": len });
        let (st, v) = call(&app, "POST", &format!("/api/v1/games/{stream}/rulings"), Some(&judge), Some(loss)).await;
        assert_eq!(st, StatusCode::CREATED, "{v}");
        tap(c, &button).await;
        page_says(c, "game ended").await;
        assert_eq!(store.head(&stream).unwrap().len, len + 1, "nothing recorded after the end");

        // The log: every played event is the agent's, in order; it verifies and audits clean.
        let loaded = record::load::<Lc>(&*store, &stream).unwrap();
        let got: Vec<_> = loaded.steps.iter().filter_map(|s| if let GameEntry::Played(e) = &s.entry { Some(e.clone()) } else { None }).collect();
        assert!(got[..] == events[..got.len()], "the log's events are the agent's");
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
/// while its connection hangs).
async fn kifu_freeze(c: &Client) {
    js(c, "(window.kifuLive = kifuRecord.changed, kifuRecord.changed = () => {}, true)").await;
}

/// The live feed catches up.
async fn thaw(c: &Client) {
    let _: Value = js(c, "(kifuRecord.changed = window.kifuLive || kifuRecord.changed, kifuRecord.changed(), true)").await;
}
