//! The judges' floor page (`/tournament/ID/judge`) in headless Chromium, phone first (390×844)
//! and at one desktop size: a judge opens, takes and closes a call; issues slow play twice (the
//! second upgraded) and finds the player's history by name; records the player's appeal, which
//! the head judge decides; records a deck check and a statement and reads it back; shows and
//! prints the case file; swaps two players, admits a late entry and enters a disputed result
//! (each listed as an override). A player's token, or none, gets a message instead of the data. Every
//! control is at least 44 px tall and nothing scrolls sideways. Screenshots go to
//! `target/screenshots/floor-*.png`.

use fantoccini::{Client, Locator};
use serde_json::json;

use kifu::game::commit::Commitment;
use kifu::log::envelope::{Actor, StreamId, Timestamp};
use kifu::server::tokens::Role;
use kifu::tournament::events::{ConfigV1, PairedTable, RoundsPlan, TournamentEvent};
use kifu::tournament::{ops, record, Policy};

use super::browser::{
    assert_no_sideways_scroll, axe_check, axe_source, connect, js, screenshot, serve_app, start_chromedriver,
    use_token, viewport, wait_for,
};
use super::browser_tournament::as_printed;
use super::{rt, Floor};

const ID: &str = "floor";
const LIST: &str = "4 Ember Fox\n4 Tide Turtle\n2 Storm Call\n";

/// Four players, a head judge, Ann's deck list registered, round 1 paired (Ann v Bea, Cy v Dov).
fn build(store: &dyn kifu::store::Store, data: &std::path::Path) {
    let id = StreamId::new(ID).unwrap();
    let config = ConfigV1 {
        name: "Saturday open".into(),
        game: "naruto".into(),
        policy: Policy::Mtr,
        rounds: RoundsPlan::Fixed(3),
        top_cut: 0,
        seed_commitment: None,
    };
    let org = || Actor::Organizer("olga".into());
    let mut first: Vec<TournamentEvent> =
        ["Ann", "Bea", "Cy", "Dov"].map(|p| TournamentEvent::PlayerRegistered { player: p.into(), deck: None }).into();
    first.push(TournamentEvent::HeadJudgeNamed { judge: "hana".into() });
    record::create(store, &id, &config, org(), Timestamp(0), first).unwrap();
    ops::register_deck(store, data, &id, "Ann", LIST, &Commitment([9; 32]), org()).unwrap();
    let t = |table, a: &str, b: &str| PairedTable { table, a: a.into(), b: b.into() };
    let pair = TournamentEvent::RoundPaired {
        round: 1,
        tables: vec![t(1, "Ann", "Bea"), t(2, "Cy", "Dov")],
        byes: vec![],
        round_seed: None,
    };
    record::record(store, &id, org(), vec![pair]).unwrap();
}

/// Sets a `<select>` (found by a CSS selector) to `value` as a tap on an option would.
pub(super) async fn choose(c: &Client, css: &str, value: &str) {
    let script = format!(
        "const s = document.querySelector({css:?}); s.value = {value:?}; s.dispatchEvent(new Event('change')); return s.value;"
    );
    assert_eq!(c.execute(&script, vec![]).await.unwrap(), json!(value), "{css} offers {value}");
}

pub(super) async fn type_in(c: &Client, css: &str, text: &str) {
    let input = c.find(Locator::Css(css)).await.unwrap();
    input.clear().await.unwrap();
    input.send_keys(text).await.unwrap();
}

pub(super) async fn tap(c: &Client, css: &str) {
    c.find(Locator::Css(css)).await.unwrap().click().await.unwrap();
}

async fn status_says(c: &Client, text: &str) {
    wait_for(c, &format!("document.getElementById('status').textContent.includes({text:?})")).await;
}

/// Every visible control of the page is at least 44 px tall (a thumb's target), and nothing
/// scrolls sideways.
async fn fits_a_thumb(c: &Client, at: &str) {
    controls_fit_a_thumb(c, "main", at).await;
}

/// As [`fits_a_thumb`] for the controls inside `scope` (a CSS selector).
pub(super) async fn controls_fit_a_thumb(c: &Client, scope: &str, at: &str) {
    let controls = ["button", "select", "input", "textarea", "summary"].map(|t| format!("{scope} {t}")).join(", ");
    let small = js(
        c,
        &format!(
            "[...document.querySelectorAll({controls:?})]
               .filter((e) => e.offsetParent !== null)
               .map((e) => [e.dataset && Object.keys(e.dataset)[0] || e.id || e.textContent.trim(), Math.round(e.getBoundingClientRect().height)])
               .filter(([, h]) => h < 44)"
        ),
    )
    .await;
    assert_eq!(small, json!([]), "{at}: controls under 44 px");
    assert_no_sideways_scroll(c, at).await;
}

#[test]
fn browser_judges_floor() {
    let floor = Floor::new(ID);
    build(&**floor.state.store(), &floor.data);
    let (jin, hana, ann) =
        (floor.token(Role::Judge, "jin"), floor.token(Role::Judge, "hana"), floor.token(Role::Player, "Ann"));
    let state = floor.state.clone();
    let cd = start_chromedriver();
    let axe = axe_source();
    let mut axe_found: Vec<String> = Vec::new();
    rt().block_on(async {
        let base = serve_app(state.clone()).await;
        let c = connect(&cd, true).await;
        let page = format!("{base}/tournament/{ID}/judge");

        // No token, then a player's token: a message, not the data.
        c.goto(&page).await.unwrap();
        wait_for(&c, "!document.getElementById('denied').hidden").await;
        use_token(&c, &ann, "player Ann").await;
        let denied = wait_for(&c, "!document.getElementById('denied').hidden && document.getElementById('denied').textContent").await;
        assert!(denied.as_str().unwrap().contains("for the event's judges"), "{denied}");
        assert_eq!(js(&c, "document.getElementById('floor').hidden").await, json!(true));
        screenshot(&c, "floor-phone-refused").await;

        // The tournament page's "Run event" tab links here.
        c.goto(&format!("{base}/tournament/{ID}#run")).await.unwrap();
        use_token(&c, &jin, "judge jin").await;
        wait_for(&c, "!document.getElementById('tab-run').hidden").await;
        let link = js(&c, "document.getElementById('floor-link').getAttribute('href')").await;
        assert_eq!(link, json!(format!("/tournament/{ID}/judge")));
        c.goto(&page).await.unwrap();

        // A judge: open a call at table 1 (Ann calls), take it, close it with a penalty outcome.
        use_token(&c, &jin, "judge jin").await;
        wait_for(&c, "!document.getElementById('floor').hidden").await;
        let tables = js(&c, "[...document.querySelectorAll('[data-call-table] option')].map((o) => o.textContent)").await;
        assert_eq!(tables, json!(["Table 1: Ann v Bea", "Table 2: Cy v Dov"]));
        choose(&c, "[data-call-table]", "2").await;
        choose(&c, "[data-call-caller]", "Cy").await;
        tap(&c, "[data-call-open]").await;
        status_says(&c, "call 1 opened").await;
        wait_for(&c, "document.querySelector('[data-call=\"1\"][data-status=\"open\"]')").await;
        fits_a_thumb(&c, "floor-phone-calls").await;
        screenshot(&c, "floor-phone-call-open").await;
        tap(&c, "[data-call-take=\"1\"]").await;
        wait_for(&c, "document.querySelector('[data-call=\"1\"][data-status=\"taken\"]')").await;
        choose(&c, "[data-call-outcome=\"1\"]", "penalty").await;
        type_in(&c, "[data-call-note=\"1\"]", "slow play, warned").await;
        tap(&c, "[data-call-close=\"1\"]").await;
        wait_for(&c, "document.querySelector('#calls-closed [data-call=\"1\"][data-status=\"closed\"]')").await;
        assert_eq!(js(&c, "document.getElementById('calls-open').textContent").await, json!("No call in progress."));

        // Slow play twice for Cy: the second is upgraded (IPG: a game loss from the second).
        tap(&c, "nav.floor-tabs [data-tab=players]").await;
        for n in 1..=2 {
            choose(&c, "[data-penalty-player]", "Cy").await;
            choose(&c, "[data-penalty-infraction]", "te-slow-play").await;
            if n == 1 {
                choose(&c, "[data-penalty-call]", "1").await;
            }
            type_in(&c, "[data-penalty-reason]", &format!("slow play, turn {n}")).await;
            tap(&c, "[data-penalize]").await;
            status_says(&c, "penalty recorded for Cy").await;
            wait_for(&c, &format!("document.querySelectorAll('[data-history=\"Cy\"] li[data-penalty]').length === {n}")).await;
        }
        // Found by name: the search narrows the players to Cy's history.
        type_in(&c, "[data-search]", "cy").await;
        wait_for(&c, "document.querySelectorAll('[data-history]').length === 1").await;
        let second = js(&c, "document.querySelector('[data-history=\"Cy\"] li[data-penalty=\"2\"]').textContent").await;
        let second = second.as_str().unwrap();
        assert!(second.starts_with("game-loss") && second.contains("upgraded") && second.contains("Slow Play"), "{second}");
        fits_a_thumb(&c, "floor-phone-history").await;
        screenshot(&c, "floor-phone-history").await;

        // Cy appeals the game loss (the judge records it); the head judge decides it.
        tap(&c, "[data-history=\"Cy\"] [data-appeal=\"2\"]").await;
        status_says(&c, "appeal 1 lodged for Cy").await;
        use_token(&c, &hana, "judge hana").await;
        wait_for(&c, "!document.getElementById('floor').hidden").await;
        tap(&c, "nav.floor-tabs [data-tab=appeals]").await;
        wait_for(&c, "document.querySelector('[data-appeal-open=\"1\"]')").await;
        assert_eq!(js(&c, "document.getElementById('appeals-done').textContent").await, json!("None yet."));
        choose(&c, "[data-decision=\"1\"]", "changed:warning").await;
        type_in(&c, "[data-decision-reason=\"1\"]", "turn 1 was not slow play").await;
        fits_a_thumb(&c, "floor-phone-appeals").await;
        screenshot(&c, "floor-phone-appeal").await;
        tap(&c, "[data-decide=\"1\"]").await;
        let done = wait_for(&c, "document.querySelector('[data-appeal-done=\"1\"]') && document.querySelector('[data-appeal-done=\"1\"]').textContent").await;
        assert!(done.as_str().unwrap().contains("changed to warning by hana"), "{done}");
        tap(&c, "nav.floor-tabs [data-tab=players]").await;
        type_in(&c, "[data-search]", "Cy").await;
        let second = wait_for(&c, "document.querySelector('[data-history=\"Cy\"] li[data-penalty=\"2\"]').textContent").await;
        assert!(second.as_str().unwrap().starts_with("game-loss → warning"), "{second}");

        // A deck check: Ann presents one card short.
        tap(&c, "nav.floor-tabs [data-tab=decks]").await;
        let offered = js(&c, "[...document.querySelectorAll('[data-deck-player] option')].map((o) => o.value)").await;
        assert_eq!(offered, json!(["Ann"]), "only players with a registered list");
        type_in(&c, "[data-deck-list]", "4 Ember Fox\n3 Tide Turtle\n2 Storm Call\n").await;
        tap(&c, "[data-deck-check]").await;
        let result = wait_for(&c, "document.querySelector('[data-deck-result=\"1\"]') && document.querySelector('[data-deck-result=\"1\"]').textContent").await;
        assert!(result.as_str().unwrap().contains("Tide Turtle: registered 4, presented 3"), "{result}");
        wait_for(&c, "document.querySelector('[data-deck-check=\"1\"]')").await;
        fits_a_thumb(&c, "floor-phone-deck-check").await;
        screenshot(&c, "floor-phone-deck-check").await;

        // A witness's statement about Cy, read back on the page.
        tap(&c, "nav.floor-tabs [data-tab=statements]").await;
        choose(&c, "[data-statement-player]", "Cy").await;
        choose(&c, "[data-statement-by]", "witness").await;
        type_in(&c, "[data-statement-author]", "Wes").await;
        type_in(&c, "[data-statement-text]", "Cy waited out the clock on turn 2.").await;
        tap(&c, "[data-statement-record]").await;
        status_says(&c, "statement 1 recorded").await;
        let said = wait_for(&c, "document.querySelector('[data-statement=\"1\"]') && document.querySelector('[data-statement=\"1\"]').textContent").await;
        let said = said.as_str().unwrap();
        assert!(said.contains("witness Wes") && said.contains("Cy waited out the clock on turn 2."), "{said}");
        fits_a_thumb(&c, "floor-phone-statements").await;
        screenshot(&c, "floor-phone-statement").await;

        // The case file on screen, then printed.
        tap(&c, "nav.floor-tabs [data-tab=case]").await;
        choose(&c, "[data-case-player]", "Cy").await;
        tap(&c, "[data-case-show]").await;
        wait_for(&c, "document.getElementById('case-view').dataset.player === 'Cy'").await;
        let case = js(&c, "document.getElementById('case-view').textContent").await;
        let case = case.as_str().unwrap();
        for want in ["Case file: Cy", "Call 1, round 1 table 2", "upgraded", "appeal 1 changed to warning", "Cy waited out the clock"] {
            assert!(case.contains(want), "{want:?} in {case}");
        }
        fits_a_thumb(&c, "floor-phone-case").await;
        screenshot(&c, "floor-phone-case").await;
        axe_check(&c, &axe, "the judges' floor (case file)", &mut axe_found).await;
        c.execute("window.print = () => { window.printed = (window.printed || 0) + 1; }; return 0;", vec![]).await.unwrap();
        tap(&c, "[data-case-print]").await;
        wait_for(&c, "window.printed === 1").await;
        let printed = js(&c, "document.querySelector('#print h2').textContent").await;
        assert_eq!(printed, json!("Case file: Cy"));
        as_printed(&c, true).await;
        assert_eq!(js(&c, "getComputedStyle(document.querySelector('main')).display").await, json!("none"));
        screenshot(&c, "floor-phone-case-printed").await;
        as_printed(&c, false).await;

        // The head judge swaps two players of round 1, with a reason on the record.
        tap(&c, "nav.floor-tabs [data-tab=overrides]").await;
        choose(&c, "[data-override-a]", "Bea").await;
        choose(&c, "[data-override-b]", "Dov").await;
        type_in(&c, "[data-override-reason]", "Bea needs the accessible table").await;
        tap(&c, "[data-override]").await;
        let o = wait_for(&c, "document.querySelector('[data-override=\"1\"]') && document.querySelector('[data-override=\"1\"]').textContent").await;
        assert!(o.as_str().unwrap().contains("round 1 pairings changed by hand by hana (Bea needs the accessible table)"), "{o}");
        // Ann and Dov (now at table 1) disagree on their result; the head judge enters it with a
        // reason from the steppers, and admits a latecomer; both join the overrides on the record.
        let router = kifu::server::app(state.clone());
        let (tann, tdov) = (floor.token(Role::Player, "Ann"), floor.token(Role::Player, "Dov"));
        let results = format!("/api/v1/tournaments/{ID}/results");
        let (s, v) = super::call(&router, "POST", &results, Some(&tann), Some(json!({"table": 1, "score": "2-0-0"}))).await;
        assert_eq!(s.as_u16(), 202, "{v}");
        let confirm = format!("{results}/confirm");
        let (s, v) = super::call(&router, "POST", &confirm, Some(&tdov), Some(json!({"table": 1, "score": "0-2-0"}))).await;
        assert_eq!(s.as_u16(), 409, "{v}");
        type_in(&c, "[data-late-name]", "Eli").await;
        type_in(&c, "[data-late-reason]", "arrived after the pairings").await;
        tap(&c, "[data-late]").await;
        status_says(&c, "Eli entered late").await;
        let o = wait_for(&c, "document.querySelector('[data-override=\"2\"]') && document.querySelector('[data-override=\"2\"]').textContent").await;
        assert!(o.as_str().unwrap().contains("Eli entered late, from round 2 by hana (arrived after the pairings)"), "{o}");
        wait_for(&c, "document.querySelector('[data-pending-table=\"1\"][data-disputed=\"yes\"]')").await;
        for (key, v) in [("a", "1"), ("b", "1"), ("d", "1")] {
            type_in(&c, &format!("[data-pending-table=\"1\"] [data-enter-score={key}]"), v).await;
        }
        fits_a_thumb(&c, "floor-phone-overrides").await;
        screenshot(&c, "floor-phone-result-entry").await;
        type_in(&c, "[data-enter-reason=\"1\"]", "both agreed to a draw in front of jin").await;
        tap(&c, "[data-enter-result=\"1\"]").await;
        status_says(&c, "round 1 table 1: 1-1-1 entered").await;
        let o = wait_for(&c, "document.querySelector('[data-override=\"3\"]') && document.querySelector('[data-override=\"3\"]').textContent").await;
        assert!(o.as_str().unwrap().contains("round 1 table 1 result 1-1-1 entered against the players' reports by hana"), "{o}");
        wait_for(&c, "!document.querySelector('[data-pending-table]')").await;
        screenshot(&c, "floor-phone-overrides").await;
        c.close().await.unwrap();

        // A desktop: the same page, wider, still fitting.
        let c = connect(&cd, false).await;
        viewport(&c, 1400, 900).await;
        c.goto(&format!("{page}#players")).await.unwrap();
        use_token(&c, &jin, "judge jin").await;
        wait_for(&c, "!document.getElementById('floor').hidden && document.querySelectorAll('[data-history]').length === 1").await;
        assert_no_sideways_scroll(&c, "floor-desktop").await;
        screenshot(&c, "floor-desktop-history").await;
        axe_check(&c, &axe, "the judges' floor (desktop)", &mut axe_found).await;
        c.close().await.unwrap();
    });
    assert!(axe_found.is_empty(), "axe-core found serious or critical problems: {axe_found:#?}");
    drop(cd);
}
