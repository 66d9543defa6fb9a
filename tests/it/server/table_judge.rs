//! The table page from start to finish, with a judge at the table: a player starts the table's
//! game with one tap on the tournament page (the game is created bound to the table with the
//! registered lists) and lands on it in record mode; a judge's page records a play for a seat as
//! the scorekeeper (the log says the judge entered it), issues a warning, forces an action the
//! rules refuse (the page lists exactly the rules it breaks, with their summaries, and records the
//! judge's note about it), backs the game up (the page lists what it undoes) and issues a game
//! loss; a pick whose answer is lost is sent again and recorded once; the finished game's page
//! reports the match's result from the outcome, with the game linked.

use std::collections::BTreeSet;

use axum::http::StatusCode;
use fantoccini::Client;
use serde_json::{json, Value};

use kifu::game::record::LiveGame;
use kifu::game::{GameEntry, Ruling};
use kifu::games::lc::{Lc, LcEvent};
use kifu::log::envelope::{Actor, StreamId};
use kifu::server::tokens::Role;
use kifu::store::Store;

use super::binding::Env;
use super::browser::{connect, js, screenshot, serve_app, start_chromedriver, use_token, viewport, wait_for};
use super::new_games::deck;
use super::table_page::{grown, tap};
use super::{call, get, rt};

/// The game's entries as stored.
fn entries(store: &dyn Store, stream: &StreamId) -> Vec<(Actor, GameEntry<LcEvent>)> {
    let loaded = kifu::game::record::load::<Lc>(store, stream).unwrap();
    loaded.steps.into_iter().map(|s| (s.actor, s.entry)).collect()
}

/// Sets a form control's value as a person would choose it, and tells the page.
pub(super) async fn choose(c: &Client, css: &str, value: &str) {
    wait_for(c, &format!("document.querySelector({})", json!(css))).await;
    js(
        c,
        &format!(
            "(() => {{ const e = document.querySelector({}); e.value = {}; e.dispatchEvent(new Event('change', {{ bubbles: true }})); return true; }})()",
            json!(css),
            json!(value)
        ),
    )
    .await;
}

/// The judge's status line once it says `text`.
pub(super) async fn judge_says(c: &Client, text: &str) -> String {
    let expr = format!("document.getElementById('judge-status').textContent.includes({})", json!(text));
    wait_for(c, &expr).await;
    js(c, "document.getElementById('judge-status').textContent").await.as_str().unwrap_or_default().to_string()
}

/// The first option `token` may pick now for `seat` that takes no value and does not end the game.
async fn plain_option(app: &axum::Router, stream: &StreamId, token: &str, seat: u64) -> String {
    let (s, v) = get(app, &format!("/api/v1/games/{stream}/options?seat={seat}"), Some(token)).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let found = v["options"].as_array().unwrap().iter().find(|o| o["param"].is_null() && o["ends_game"].is_null());
    found.unwrap_or_else(|| panic!("no plain option for seat {seat}: {v}"))["id"].as_str().unwrap().to_string()
}

#[test]
fn browser_a_player_starts_the_tables_game_a_judge_rules_at_the_table_and_the_result_is_reported() {
    let env = Env::new();
    let app = env.app();
    let store = env.store();
    let org = env.token(Role::Organizer, "lcup", "ora");
    let judge = env.token(Role::Judge, "lcup", "jin");
    let ana = env.token(Role::Player, "lcup", "ana");
    let rui = env.token(Role::Player, "lcup", "rui");
    let cd = start_chromedriver();
    rt().block_on(async {
        // The event: two players with registered lists, round 1 paired.
        let body = json!({"id": "lcup", "name": "LC Cup", "game": "lc", "rounds": 1, "top_cut": 0, "best_of": 1});
        assert_eq!(call(&app, "POST", "/api/v1/tournaments", Some(&org), Some(body)).await.0, StatusCode::CREATED);
        let players = json!({"players": ["ana", "rui"]});
        assert_eq!(call(&app, "POST", "/api/v1/tournaments/lcup/players", Some(&org), Some(players)).await.0, StatusCode::CREATED);
        for (token, player) in [(&ana, "ana"), (&rui, "rui")] {
            let list = json!({"player": player, "list": deck(&format!("lc-{player}.deck"))});
            let (s, v) = call(&app, "POST", "/api/v1/tournaments/lcup/decks", Some(token), Some(list)).await;
            assert_eq!(s, StatusCode::CREATED, "{v}");
        }
        let (s, v) = call(&app, "POST", "/api/v1/tournaments/lcup/rounds", Some(&org), Some(json!({}))).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        let (_, pairings) = get(&app, "/api/v1/tournaments/lcup/pairings", None).await;
        let seat_of = |name: &str| u64::from(pairings["tables"][0]["b"] == name);

        let base = serve_app(env.state()).await;
        let phone = connect(&cd, true).await;
        let desk = connect(&cd, false).await;
        viewport(&desk, 1400, 900).await;

        // Ana taps "Start game" beside her table and lands on its page, recording.
        phone.goto(&format!("{base}/tournament/lcup")).await.unwrap();
        use_token(&phone, &ana, "player ana").await;
        tap(&phone, "[data-start=\"1\"]").await;
        wait_for(&phone, "location.pathname === '/replay/lcup-r1-t1-g1'").await;
        wait_for(&phone, "!document.getElementById('record').hidden").await;
        assert_eq!(js(&phone, "document.getElementById('judge').hidden").await, json!(true), "no judge tools for a player");
        let stream = StreamId::new("lcup-r1-t1-g1").unwrap();
        let (_, header) = store.header(&stream).unwrap();
        assert_eq!(header.bound().unwrap().to_string(), "lcup round 1 table 1");

        // The judge's page: the tools, and the options grouped by whose action they are.
        desk.goto(&format!("{base}/replay/{stream}")).await.unwrap();
        use_token(&desk, &judge, "judge jin").await;
        wait_for(&desk, "!document.getElementById('judge').hidden").await;
        wait_for(&desk, "document.querySelector('#record-body h3.for-seat')").await;
        let status = js(&desk, "document.getElementById('record-status').textContent").await;
        assert!(status.as_str().unwrap().starts_with("Scorekeeper: recording for"), "{status}");

        // As the scorekeeper, the judge enters a play the game waits for, one that takes no value.
        let (s, v) = get(&app, &format!("/api/v1/games/{stream}/options"), Some(&judge)).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        // Rui's (ana records her own below): each seat shuffles its pile first, with no value.
        let rui_first = u64::from(pairings["tables"][0]["b"] == "rui");
        let plain = v["options"].as_array().unwrap().iter().find(|o| {
            o["param"].is_null() && o["ends_game"].is_null() && o["seat"] == rui_first
        });
        let id = plain.unwrap_or_else(|| panic!("no plain option for rui: {v}"))["id"].as_str().unwrap().to_string();
        let len = store.head(&stream).unwrap().len;
        tap(&desk, &format!("[data-option=\"{id}\"]")).await;
        grown(&*store, &stream, len).await;
        let log = entries(&*store, &stream);
        let (actor, entry) = &log[len as usize];
        assert_eq!(actor, &Actor::Judge("jin".into()), "the log says the scorekeeper entered it");
        assert!(matches!(entry, GameEntry::Played(_)), "{entry:?}");

        // A pick whose answer is lost on the way back is sent again under its key: recorded once.
        let ana_seat = seat_of("ana");
        let t0 = std::time::Instant::now();
        let ana_option = loop {
            let (_, v) = get(&app, &format!("/api/v1/games/{stream}/options"), Some(&ana)).await;
            let plain = v["options"].as_array().unwrap().iter().find(|o| o["param"].is_null() && o["ends_game"].is_null()).cloned();
            if let Some(o) = plain {
                break o["id"].as_str().unwrap().to_string();
            }
            // Not ana's turn: the judge enters the other seat's plays until it is.
            let other = plain_option(&app, &stream, &judge, 1 - ana_seat).await;
            let (s, v) = call(&app, "POST", &format!("/api/v1/games/{stream}/options"), Some(&judge), Some(json!({"option": other, "seat": 1 - ana_seat}))).await;
            assert_eq!(s, StatusCode::CREATED, "{v}");
            assert!(t0.elapsed().as_secs() < 20, "ana's turn never came");
        };
        wait_for(&phone, &format!("document.querySelector('[data-option=\"{ana_option}\"]')")).await;
        js(
            &phone,
            "(() => { const real = window.fetch; let lost = 0; window.fetch = async (url, o) => { const r = await real(url, o); if (o && o.method === 'POST' && String(url).endsWith('/options') && lost++ === 0) throw new TypeError('the connection dropped'); return r; }; return true; })()",
        )
        .await;
        let ana_plays = |log: &[(Actor, GameEntry<LcEvent>)]| log.iter().filter(|(a, _)| a == &Actor::Player("ana".into())).count();
        let before = ana_plays(&entries(&*store, &stream));
        tap(&phone, &format!("[data-option=\"{ana_option}\"]")).await;
        wait_for(&phone, "document.getElementById('record-status').dataset.pending === 'yes'").await;
        wait_for(&phone, "document.getElementById('record-status').dataset.recorded === '1'").await;
        assert_eq!(ana_plays(&entries(&*store, &stream)), before + 1, "the retried pick is recorded once");

        // A warning to rui, about the event shown, under a rule picked from the list.
        let rui_seat = seat_of("rui");
        tap(&desk, "[data-judge=\"open-penalty\"]").await;
        choose(&desk, "[data-tool=\"penalty\"] [data-field=\"seat\"]", &rui_seat.to_string()).await;
        choose(&desk, "[data-tool=\"penalty\"] [data-field=\"rule\"]", "LC-ROUND-1").await;
        choose(&desk, "[data-tool=\"penalty\"] [data-field=\"note\"]", "slow play").await;
        tap(&desk, "[data-judge=\"penalty\"]").await;
        judge_says(&desk, "Recorded as event").await;
        let log = entries(&*store, &stream);
        match &log.last().unwrap().1 {
            GameEntry::Ruled(Ruling::WarningIssued { judge, seat, rule, note, .. }) => {
                assert_eq!((judge.as_str(), u64::from(*seat), rule.as_deref(), note.as_str()), ("jin", rui_seat, Some("LC-ROUND-1"), "slow play"));
            }
            other => panic!("not a warning: {other:?}"),
        }

        // Forcing an action the rules refuse: the page lists exactly what it breaks.
        let illegal: LcEvent = serde_json::from_value(json!({"RoundStarted": {"round": 7, "first": rui_seat}})).unwrap();
        let forced = GameEntry::Forced { judge: "jin".into(), broke: vec![], event: illegal.clone() };
        let live = LiveGame::<Lc>::load(&*store, &stream).unwrap();
        let want: BTreeSet<String> = live.check(&Actor::Judge("jin".into()), &forced).into_iter().map(|v| v.rule.to_string()).collect();
        assert!(!want.is_empty(), "the action is illegal now");
        tap(&desk, "[data-judge=\"open-force\"]").await;
        choose(&desk, "[data-tool=\"force\"] [data-field=\"event\"]", "RoundStarted").await;
        choose(&desk, "[data-tool=\"force\"] [data-field=\"RoundStarted.round\"]", "7").await;
        choose(&desk, "[data-tool=\"force\"] [data-field=\"RoundStarted.first\"]", &rui_seat.to_string()).await;
        tap(&desk, "[data-judge=\"check\"]").await;
        wait_for(&desk, "document.querySelector('[data-field=\"verdict\"] li[data-rule]')").await;
        let shown = js(&desk, "[...document.querySelectorAll('[data-field=\"verdict\"] li[data-rule]')].map((l) => l.dataset.rule)").await;
        let shown: BTreeSet<String> = serde_json::from_value(shown).unwrap();
        assert_eq!(shown, want, "the page lists the rules the action breaks");
        let summaries = js(&desk, "document.querySelector('[data-field=\"verdict\"]').textContent").await;
        assert!(summaries.as_str().unwrap().contains('—'), "each rule with its summary: {summaries}");
        screenshot(&desk, "judge-desktop-force").await;
        choose(&desk, "[data-tool=\"force\"] [data-field=\"note\"]", "the table played it; it stands").await;
        tap(&desk, "[data-judge=\"force\"]").await;
        judge_says(&desk, "Forced as event").await;
        let log = entries(&*store, &stream);
        let n = log.len();
        let forced_at = n - 2;
        match (&log[forced_at].1, &log[n - 1].1) {
            (GameEntry::Forced { judge, broke, event }, GameEntry::Ruled(Ruling::NoteRecorded { about, note, .. })) => {
                assert_eq!(judge, "jin");
                assert_eq!(event, &illegal);
                assert_eq!(broke.iter().cloned().collect::<BTreeSet<_>>(), want);
                assert_eq!((*about, note.as_str()), (Some(forced_at as u64), "the table played it; it stands"));
            }
            other => panic!("not a forced entry and its note: {other:?}"),
        }

        // A backup to before the forced action: the page lists what it undoes first.
        tap(&desk, "[data-judge=\"open-backup\"]").await;
        choose(&desk, "[data-tool=\"backup\"] [data-field=\"to_seq\"]", &forced_at.to_string()).await;
        wait_for(&desk, "document.querySelectorAll('[data-tool=\"backup\"] .undone-list li').length === 2").await;
        tap(&desk, "[data-judge=\"backup\"]").await;
        desk.accept_alert().await.unwrap();
        judge_says(&desk, "Recorded as event").await;
        // One numbering: the list marks the forced event, by the number the panel gave it, undone.
        let row = format!("document.querySelector('#events li.ev[data-seq=\"{forced_at}\"]')");
        wait_for(&desk, &format!("{row}?.classList.contains('undone') && {row}.querySelector('.seq').textContent === '#{forced_at}'")).await;
        match &entries(&*store, &stream).last().unwrap().1 {
            GameEntry::Ruled(Ruling::BackedUp { to_seq, .. }) => assert_eq!(*to_seq, forced_at as u64),
            other => panic!("not a backup: {other:?}"),
        }

        // A game loss to rui ends the game; ana's page offers the match's result from it.
        choose(&desk, "[data-tool=\"penalty\"] [data-field=\"kind\"]", "GameLossIssued").await;
        choose(&desk, "[data-tool=\"penalty\"] [data-field=\"seat\"]", &rui_seat.to_string()).await;
        choose(&desk, "[data-tool=\"penalty\"] [data-field=\"note\"]", "marked cards").await;
        tap(&desk, "[data-judge=\"penalty\"]").await;
        desk.accept_alert().await.unwrap();
        judge_says(&desk, "Recorded as event").await;
        screenshot(&desk, "judge-desktop-tools").await;
        wait_for(&phone, "document.querySelector('[data-report=\"1-0-0\"]')").await;
        screenshot(&phone, "table-phone-report").await;
        tap(&phone, "[data-report=\"1-0-0\"]").await;
        wait_for(&phone, "document.querySelector('[data-reported]')").await;
        let (_, pending) = get(&app, "/api/v1/tournaments/lcup/results", None).await;
        let report: &Value = &pending["pending"][0];
        assert_eq!(report["reported_by"], "ana", "{pending}");
        assert_eq!(report["games"], json!([stream.as_str()]), "{pending}");
        let from_a = if seat_of("ana") == 0 { "1-0-0" } else { "0-1-0" };
        assert_eq!(report["score"], from_a, "{pending}");
    });
}
