//! A pod's places through the API: a pod player reports them, every other player of the pod
//! confirms (then `PodResultReported` is recorded, the last confirming player its actor), a
//! player who disagrees disputes and a judge enters the places, a judge corrects recorded places
//! with a reason; every refusal writes nothing to the tournament's log.

use axum::http::StatusCode;
use serde_json::{json, Value};

use kifu::log::envelope::StreamId;
use kifu::server::tokens::Role;
use kifu::tournament::{record, TournamentEvent};

use super::five_games::open_pods;
use super::{call, get, rt, Floor};

const T: &str = "fate-night";

#[test]
fn pod_places_are_reported_confirmed_disputed_entered_and_corrected_and_refusals_write_nothing() {
    let floor = Floor::new(T);
    let store = floor.state.store().clone();
    let names: Vec<String> =
        ["ann", "bo", "cy", "di", "eve", "fay", "gus", "hal"].iter().map(|s| s.to_string()).collect();
    let pods = open_pods(&*store, T, "fate", &names, 4);
    assert_eq!(pods.len(), 2, "8 players in two pods of 4");
    name_head_judge(&*store, "jin");
    let floor_judge = floor.token(Role::Judge, "kai");
    let (p1, p2) = (&pods[0], &pods[1]);
    let tok = |n: &str| floor.token(Role::Player, n);
    let judge = floor.token(Role::Judge, "jin");
    let elsewhere = floor.token_in("other-event", Role::Player, &p1[1]);
    let id = StreamId::new(T).unwrap();
    let len = || store.head(&id).unwrap().len;
    let app = kifu::server::app(floor.state.clone());
    let url = format!("/api/v1/tournaments/{T}/pods/results");
    let confirm = format!("{url}/confirm");
    rt().block_on(async {
        let before = len();
        let refused = |s: StatusCode, v: &Value, want: StatusCode, says: &str| {
            assert_eq!(s, want, "{v}");
            let msg = v["error"].as_str().unwrap_or_default();
            assert!(msg.contains(says), "{says:?} in {msg:?}");
        };
        // Refusals before any report: no token, another tournament's player, a player of
        // another pod, the wrong number of places, impossible places, a stranger named, a game
        // that is not the pod's.
        let body = json!({"round": 1, "pod": 1, "places": [1, 2, 2, 4]});
        let (s, v) = call(&app, "POST", &url, None, Some(body.clone())).await;
        refused(s, &v, StatusCode::UNAUTHORIZED, "token");
        let (s, v) = call(&app, "POST", &url, Some(&elsewhere), Some(body.clone())).await;
        refused(s, &v, StatusCode::FORBIDDEN, "not for this tournament");
        let (s, v) = call(&app, "POST", &url, Some(&tok(&p2[0])), Some(body.clone())).await;
        refused(s, &v, StatusCode::FORBIDDEN, &format!("{} does not sit in round 1 pod 1", p2[0]));
        let (s, v) = call(&app, "POST", &url, Some(&tok(&p1[0])), Some(json!({"pod": 1, "places": [1, 2, 3]}))).await;
        refused(s, &v, StatusCode::UNPROCESSABLE_ENTITY, "pod 1 has 4 seats; 3 places were reported");
        let (s, v) =
            call(&app, "POST", &url, Some(&tok(&p1[0])), Some(json!({"pod": 1, "places": [1, 2, 2, 3]}))).await;
        refused(s, &v, StatusCode::UNPROCESSABLE_ENTITY, "TOUR-POD-3");
        let nine = json!({"pod": 1, "places": [1, 2, 3, 4, 5, 6, 7, 8, 9]});
        let (s, v) = call(&app, "POST", &url, Some(&tok(&p1[0])), Some(nine)).await;
        refused(s, &v, StatusCode::BAD_REQUEST, "at most 8 seats");
        let stranger = json!({"pod": 1, "places": {p1[0].as_str(): 1, p1[1].as_str(): 2, p1[2].as_str(): 3, "zed": 4}});
        let (s, v) = call(&app, "POST", &url, Some(&tok(&p1[0])), Some(stranger)).await;
        refused(s, &v, StatusCode::BAD_REQUEST, "\"zed\" does not sit in round 1 pod 1");
        let game = json!({"pod": 1, "places": [1, 2, 2, 4], "games": ["no-such-game"]});
        let (s, v) = call(&app, "POST", &url, Some(&tok(&p1[0])), Some(game)).await;
        refused(s, &v, StatusCode::BAD_REQUEST, "cannot link game \"no-such-game\"");
        assert_eq!(len(), before, "nothing written");
        assert_eq!(get(&app, &url, None).await.1["pending"], json!([]), "nothing kept pending");

        // A report (the pod from the player's token): pending, waiting for the three others.
        let (s, v) = call(&app, "POST", &url, Some(&tok(&p1[0])), Some(json!({"places": [1, 2, 2, 4]}))).await;
        assert_eq!(s, StatusCode::ACCEPTED, "{v}");
        assert_eq!(v["recorded"], false);
        let (_, p) = get(&app, &url, None).await;
        let r = &p["pending"][0];
        assert_eq!(r["reported_by"], p1[0].as_str());
        assert_eq!(r["places"], json!([1, 2, 2, 4]));
        assert_eq!(r["to_confirm"], json!(&p1[1..]));
        assert_eq!(r["seats"][3], json!({"player": p1[3], "place": 4}));
        assert_eq!(len(), before, "pending: not in the log yet");

        // The reporter does not confirm; another player does not report over it; a player of
        // another pod or another event does not confirm.
        let yes = json!({"round": 1, "pod": 1, "places": [1, 2, 2, 4]});
        let (s, v) = call(&app, "POST", &confirm, Some(&tok(&p1[0])), Some(yes.clone())).await;
        refused(s, &v, StatusCode::CONFLICT, "you reported round 1 pod 1");
        let (s, v) = call(&app, "POST", &url, Some(&tok(&p1[1])), Some(json!({"places": [4, 1, 2, 2]}))).await;
        refused(s, &v, StatusCode::CONFLICT, &format!("{} already reported round 1 pod 1", p1[0]));
        let (s, v) = call(&app, "POST", &confirm, Some(&tok(&p2[0])), Some(yes.clone())).await;
        refused(s, &v, StatusCode::FORBIDDEN, "does not sit in round 1 pod 1");
        let (s, v) = call(&app, "POST", &confirm, Some(&elsewhere), Some(yes.clone())).await;
        refused(s, &v, StatusCode::FORBIDDEN, "player tokens of this tournament");

        // Each other player confirms (by seat order, or by player); twice is refused.
        let (s, v) = call(&app, "POST", &confirm, Some(&tok(&p1[1])), Some(yes.clone())).await;
        assert_eq!(s, StatusCode::ACCEPTED, "{v}");
        assert_eq!(v["pending"]["to_confirm"], json!(&p1[2..]));
        let (s, v) = call(&app, "POST", &confirm, Some(&tok(&p1[1])), Some(yes.clone())).await;
        refused(s, &v, StatusCode::CONFLICT, "you already confirmed round 1 pod 1");
        let by_player =
            json!({"pod": 1, "places": {p1[0].as_str(): 1, p1[1].as_str(): 2, p1[2].as_str(): 2, p1[3].as_str(): 4}});
        let (s, v) = call(&app, "POST", &confirm, Some(&tok(&p1[2])), Some(by_player)).await;
        assert_eq!(s, StatusCode::ACCEPTED, "{v}");
        assert_eq!(len(), before);
        let (s, v) = call(&app, "POST", &confirm, Some(&tok(&p1[3])), Some(yes.clone())).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        assert_eq!(len(), before + 1, "recorded once everyone confirmed");
        let loaded = record::load(&*store, &id).unwrap();
        let last = loaded.entries.last().unwrap();
        assert_eq!(last.actor.to_string(), format!("player:{}", p1[3]), "the last confirming player");
        assert_eq!(
            last.event,
            TournamentEvent::PodResultReported { round: 1, pod: 1, places: vec![1, 2, 2, 4], games: vec![] }
        );
        let (_, p) = get(&app, &url, None).await;
        assert_eq!(p["pending"], json!([]));

        // A pod with a result takes no player's report.
        let at = len();
        let (s, v) = call(&app, "POST", &url, Some(&tok(&p1[2])), Some(json!({"places": [1, 2, 3, 4]}))).await;
        refused(s, &v, StatusCode::CONFLICT, "round 1 pod 1 already has a result; ask a judge");
        assert_eq!(len(), at);

        // A dispute: the message names who said what; the others cannot confirm it any more; a
        // judge enters the places at once.
        let (s, v) = call(&app, "POST", &url, Some(&tok(&p2[0])), Some(json!({"places": [1, 2, 3, 4]}))).await;
        assert_eq!(s, StatusCode::ACCEPTED, "{v}");
        let theirs = json!({"pod": 2, "places": [2, 1, 3, 4]});
        let (s, v) = call(&app, "POST", &confirm, Some(&tok(&p2[1])), Some(theirs)).await;
        let said = format!(
            "{} reported {} 1, {} 2, {} 3, {} 4; {} says {} 2, {} 1",
            p2[0], p2[0], p2[1], p2[2], p2[3], p2[1], p2[0], p2[1]
        );
        refused(s, &v, StatusCode::CONFLICT, &said);
        let (_, p) = get(&app, &url, None).await;
        assert!(p["pending"][0]["disputed"].as_str().unwrap().starts_with(&format!("{} says", p2[1])), "{p}");
        let (s, v) =
            call(&app, "POST", &confirm, Some(&tok(&p2[2])), Some(json!({"pod": 2, "places": [1, 2, 3, 4]}))).await;
        refused(s, &v, StatusCode::CONFLICT, "is disputed");
        // One tap: the same places, disputed anyway.
        let (s, v) = call(
            &app,
            "POST",
            &confirm,
            Some(&tok(&p2[3])),
            Some(json!({"pod": 2, "places": [1, 2, 3, 4], "dispute": true})),
        )
        .await;
        refused(s, &v, StatusCode::CONFLICT, &format!("{} disputes it", p2[3]));
        assert_eq!(len(), at);
        // A judge gives the pod (a judge has none of their own) and enters the places.
        let (s, v) = call(&app, "POST", &url, Some(&judge), Some(json!({"places": [2, 1, 3, 4]}))).await;
        refused(s, &v, StatusCode::BAD_REQUEST, "give the pod");
        let (s, v) = call(&app, "POST", &url, Some(&judge), Some(json!({"pod": 2, "places": [2, 1, 2, 3]}))).await;
        refused(s, &v, StatusCode::UNPROCESSABLE_ENTITY, "TOUR-POD-3");
        // Entering places against the players' reports is an override: the organizer's or the
        // head judge's (not a floor judge's), with a reason.
        let entry = json!({"pod": 2, "places": [2, 1, 3, 4]});
        let (s, v) = call(&app, "POST", &url, Some(&floor_judge), Some(entry.clone())).await;
        refused(s, &v, StatusCode::FORBIDDEN, "only the organizer or the head judge enters a pod's places");
        let (s, v) = call(&app, "POST", &url, Some(&judge), Some(entry)).await;
        refused(s, &v, StatusCode::BAD_REQUEST, "is an override on the record: give its reason");
        assert_eq!(len(), at);
        let entry = json!({"pod": 2, "places": [2, 1, 3, 4], "reason": "the table agreed in front of me"});
        let (s, v) = call(&app, "POST", &url, Some(&judge), Some(entry)).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        assert_eq!(len(), at + 1);
        let loaded = record::load(&*store, &id).unwrap();
        let last = loaded.entries.last().unwrap();
        assert_eq!(last.actor.to_string(), "judge:jin");
        assert_eq!(
            last.event,
            TournamentEvent::PodResultEntered {
                round: 1,
                pod: 2,
                places: vec![2, 1, 3, 4],
                games: vec![],
                by: "jin".into(),
                reason: "the table agreed in front of me".into()
            }
        );
        assert_eq!(get(&app, &url, None).await.1["pending"], json!([]), "the disputed report is gone");

        // A correction of recorded places gives its reason.
        let at = len();
        let fix = json!({"pod": 1, "places": [2, 1, 3, 4]});
        let (s, v) = call(&app, "POST", &url, Some(&judge), Some(fix.clone())).await;
        refused(s, &v, StatusCode::CONFLICT, "round 1 pod 1 already has a result; a correction gives a reason");
        assert_eq!(len(), at);
        let mut fix = fix;
        fix["reason"] = json!("slip misread");
        let (s, v) = call(&app, "POST", &url, Some(&judge), Some(fix)).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        let loaded = record::load(&*store, &id).unwrap();
        assert_eq!(
            loaded.entries.last().unwrap().event,
            TournamentEvent::PodResultCorrected {
                round: 1,
                pod: 1,
                places: vec![2, 1, 3, 4],
                games: vec![],
                judge: "jin".into(),
                reason: "slip misread".into()
            }
        );
        let (_, pairings) = get(&app, &format!("/api/v1/tournaments/{T}/pairings"), None).await;
        assert_eq!(pairings["pods"][0]["corrections"], 1, "{pairings}");
    });
}

/// The tournament page on phones (390×844): the three players of pod 1, each on a session of
/// their own, report (a place button per seat) and confirm pod 1's places with one tap each; a
/// judge sees pod 2's disputed report preselected and enters its places, then corrects pod 1 with
/// a reason. The results tab speaks of pods, seats and places only; every control fits a thumb.
#[test]
fn browser_pod_players_report_and_confirm_places_and_a_judge_enters_and_corrects() {
    use super::browser::{connect_own, js, screenshot, serve_app, start_chromedriver, use_token, wait_for};
    use super::browser_floor::{choose, tap, type_in};

    let floor = Floor::new(T);
    let store = floor.state.store().clone();
    let names: Vec<String> = ["ann", "bo", "cy", "di", "eve", "fay"].iter().map(|s| s.to_string()).collect();
    let pods = open_pods(&*store, T, "fate", &names, 3);
    name_head_judge(&*store, "jin");
    let (p1, p2) = (pods[0].clone(), pods[1].clone());
    let judge = floor.token(Role::Judge, "jin");
    let id = StreamId::new(T).unwrap();
    let last = || record::load(&*store, &id).unwrap().entries.last().cloned().unwrap();
    let cd = start_chromedriver();
    rt().block_on(async {
        let base = serve_app(floor.state.clone()).await;
        let app = kifu::server::app(floor.state.clone());
        let page = format!("{base}/tournament/{T}#results");
        let status = |what: &str| format!("document.getElementById('mp-status').textContent.includes({what:?})");
        let mut sessions = Vec::new();
        for (i, player) in p1.iter().enumerate() {
            let c = connect_own(&cd, true, player).await;
            c.goto(&page).await.unwrap();
            use_token(&c, &floor.token(Role::Player, player), &format!("player {player}")).await;
            wait_for(&c, "!document.getElementById('my-pod').hidden && document.querySelectorAll('#my-pod [data-place]').length === 9").await;
            if i == 0 {
                // The reporter taps each seat's place: 1, 2, 3.
                for seat in 1..=3 {
                    tap(&c, &format!("#my-pod [data-seat='{seat}'] [data-place='{seat}']")).await;
                }
                let pressed = js(&c, "[...document.querySelectorAll('#my-pod button.place.on')].map((b) => b.dataset.place)").await;
                assert_eq!(pressed, json!(["1", "2", "3"]));
                let words = js(&c, "document.getElementById('results').innerText.toLowerCase()").await;
                let words = words.as_str().unwrap();
                assert!(words.contains("pod") && words.contains("seat") && words.contains("place"), "{words}");
                assert!(!words.contains("table") && !words.contains("opponent"), "pod wording only: {words}");
                thumb_sized(&c, "the pod report form").await;
                screenshot(&c, "pods-phone-report").await;
                tap(&c, "#my-pod [data-action='report']").await;
                wait_for(&c, &status("waiting for")).await;
                wait_for(&c, "document.querySelector('#my-pod [data-pod-state=waiting]')").await;
            } else {
                wait_for(&c, "document.querySelector('#my-pod [data-action=confirm]')").await;
                if i == 1 {
                    thumb_sized(&c, "the pod confirm form").await;
                    screenshot(&c, "pods-phone-confirm").await;
                }
                tap(&c, "#my-pod [data-action='confirm']").await;
                wait_for(&c, &status(if i == 2 { "Recorded" } else { "waiting for" })).await;
            }
            sessions.push(c);
        }
        wait_for(&sessions[2], "document.querySelector('#my-pod [data-pod-state=recorded]')").await;
        let e = last();
        assert_eq!(e.actor.to_string(), format!("player:{}", p1[2]));
        assert_eq!(e.event, TournamentEvent::PodResultReported { round: 1, pod: 1, places: vec![1, 2, 3], games: vec![] });
        thumb_sized(&sessions[2], "the recorded pod").await;
        screenshot(&sessions[2], "pods-phone-recorded").await;

        // Pod 2 is disputed (through the API); the judge's form opens on it.
        let url = format!("/api/v1/tournaments/{T}/pods/results");
        let (s, v) = call(&app, "POST", &url, Some(&floor.token(Role::Player, &p2[0])), Some(json!({"places": [1, 2, 3]}))).await;
        assert_eq!(s, StatusCode::ACCEPTED, "{v}");
        let body = json!({"pod": 2, "places": [2, 1, 3]});
        let (s, v) = call(&app, "POST", &format!("{url}/confirm"), Some(&floor.token(Role::Player, &p2[1])), Some(body)).await;
        assert_eq!(s, StatusCode::CONFLICT, "{v}");
        let desk = connect_own(&cd, true, "judge").await;
        desk.goto(&page).await.unwrap();
        use_token(&desk, &judge, "judge jin").await;
        wait_for(&desk, "!document.getElementById('judge-pod').hidden && document.getElementById('jp-pod').value === '2'").await;
        wait_for(&desk, "document.querySelector('#pod-pending [data-state=disputed]')").await;
        let said = js(&desk, "document.getElementById('jp-seats').innerText").await;
        assert!(said.as_str().unwrap().contains(&format!("{} says", p2[1])), "{said}");
        thumb_sized(&desk, "the judge's pod form").await;
        screenshot(&desk, "pods-phone-judge-disputed").await;
        for (seat, place) in [(1, 2), (2, 1), (3, 3)] {
            tap(&desk, &format!("#jp-seats [data-seat='{seat}'] [data-place='{place}']")).await;
        }
        assert_eq!(js(&desk, "document.getElementById('jp-reason').required").await, json!(true), "a dispute is settled with a reason");
        type_in(&desk, "#jp-reason", "replayed the last turn with a judge").await;
        tap(&desk, "#jp-enter").await;
        wait_for(&desk, "document.getElementById('jp-status').textContent.startsWith('Recorded')").await;
        let e = last();
        assert_eq!(e.actor.to_string(), "judge:jin");
        let entered = TournamentEvent::PodResultEntered {
            round: 1,
            pod: 2,
            places: vec![2, 1, 3],
            games: vec![],
            by: "jin".into(),
            reason: "replayed the last turn with a judge".into(),
        };
        assert_eq!(e.event, entered);
        wait_for(&desk, "!document.getElementById('pod-pending-none').hidden").await;

        // A correction of pod 1 needs its reason.
        choose(&desk, "#jp-pod", "1").await;
        wait_for(&desk, "document.getElementById('jp-enter').textContent === 'Correct places'").await;
        tap(&desk, "#jp-seats [data-seat='1'] [data-place='2']").await;
        tap(&desk, "#jp-seats [data-seat='2'] [data-place='1']").await;
        type_in(&desk, "#jp-reason", "places swapped on the slip").await;
        thumb_sized(&desk, "the judge's correction").await;
        screenshot(&desk, "pods-phone-judge-correct").await;
        // The status still says pod 2's entry was recorded: cleared, so the wait below is for this one.
        js(&desk, "(document.getElementById('jp-status').textContent = '', true)").await;
        tap(&desk, "#jp-enter").await;
        wait_for(&desk, "document.getElementById('jp-status').textContent.startsWith('Recorded')").await;
        let e = last();
        assert_eq!(
            e.event,
            TournamentEvent::PodResultCorrected {
                round: 1,
                pod: 1,
                places: vec![2, 1, 3],
                games: vec![],
                judge: "jin".into(),
                reason: "places swapped on the slip".into()
            }
        );
        for c in sessions.into_iter().chain([desk]) {
            c.close().await.unwrap();
        }
    });
    drop(cd);
}

/// Every visible control of the results tab fits a thumb (44 px tall, a place button 44 px wide
/// too), the page does not scroll sideways, and no text reads "null" or "undefined".
async fn thumb_sized(c: &fantoccini::Client, at: &str) {
    super::browser_floor::controls_fit_a_thumb(c, "#results", at).await;
    let narrow = super::browser::js(
        c,
        "[...document.querySelectorAll('#results button.place')].filter((b) => b.offsetParent !== null && b.getBoundingClientRect().width < 44).length",
    )
    .await;
    assert_eq!(narrow, json!(0), "{at}: place buttons under 44 px wide");
    let text = super::browser::js(c, "document.getElementById('results').innerText").await;
    let text = text.as_str().unwrap_or_default();
    assert!(!text.contains("null") && !text.contains("undefined"), "{at}: {text}");
}

/// Names `judge` the head judge of the test's event (entering places against the players'
/// reports is the head judge's or the organizer's).
fn name_head_judge(store: &dyn kifu::store::Store, judge: &str) {
    let named = TournamentEvent::HeadJudgeNamed { judge: judge.into() };
    let org = kifu::log::envelope::Actor::Organizer("ora".into());
    record::record(store, &StreamId::new(T).unwrap(), org, vec![named]).unwrap();
}
