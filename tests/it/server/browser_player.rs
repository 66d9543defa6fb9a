//! A player's own page (`/tournament/ID/me`, issue 53 item 3) in headless Chromium at 390×844:
//! a late entrant picks a list from the catalog (a short one is refused with its rule ID, then
//! registered); a second-listed player taps "I won 2-1" and the opponent confirms it with one
//! tap (recorded at once, as the second-listed player's win); two players who both say they won
//! are marked disputed and offered nothing more, here and on the tournament page; a player calls
//! a judge to their table, sees the call's extension on the round clock and appeals the ruling
//! and a penalty to the head judge. A judge's token gets a message. Every control is at least
//! 44 px tall and nothing scrolls sideways. Screenshots go to `target/screenshots/player-*.png`.

use fantoccini::Client;
use serde_json::json;

use kifu::log::envelope::{Actor, StreamId, Timestamp};
use kifu::server::tokens::Role;
use kifu::tournament::events::{ConfigV1, PairedTable, RoundsPlan, TournamentEvent};
use kifu::tournament::{record, Policy};

use super::browser::{
    axe_check, axe_source, connect, js, screenshot, serve_app, start_chromedriver, use_token, wait_for,
};
use super::browser_floor::{choose, controls_fit_a_thumb, tap, type_in};
use super::{call, rt, Floor};

const ID: &str = "mine";

/// Four players of an LC event, hana its head judge, round 1 paired by hand (Ann v Bea, Cy v
/// Dov), and Eli admitted late (from round 2).
fn build(store: &dyn kifu::store::Store) {
    let id = StreamId::new(ID).unwrap();
    let config = ConfigV1 {
        name: "Sunday league".into(),
        game: "lc".into(),
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
    let t = |table, a: &str, b: &str| PairedTable { table, a: a.into(), b: b.into() };
    let pair = TournamentEvent::RoundPaired {
        round: 1,
        tables: vec![t(1, "Ann", "Bea"), t(2, "Cy", "Dov")],
        byes: vec![],
        round_seed: None,
    };
    let late = TournamentEvent::LateEntryAdmitted {
        player: "Eli".into(),
        deck: None,
        first_round: 2,
        by: "olga".into(),
        reason: "arrived after the pairings".into(),
    };
    record::record(store, &id, org(), vec![pair, late]).unwrap();
}

async fn status_says(c: &Client, text: &str) {
    wait_for(c, &format!("document.getElementById('status').textContent.includes({text:?})")).await;
}

async fn open_as(c: &Client, page: &str, token: &str, who: &str) {
    c.goto(page).await.unwrap();
    use_token(c, token, &format!("player {who}")).await;
    wait_for(
        c,
        &format!(
            "!document.getElementById('me').hidden && document.getElementById('t-name').textContent.endsWith({who:?})"
        ),
    )
    .await;
}

#[test]
fn browser_players_own_page() {
    let floor = Floor::new(ID);
    build(&**floor.state.store());
    let tok = |name: &str| floor.token(Role::Player, name);
    let (ann, bea, cy, dov, eli) = (tok("Ann"), tok("Bea"), tok("Cy"), tok("Dov"), tok("Eli"));
    let jin = floor.token(Role::Judge, "jin");
    let state = floor.state.clone();
    let router = kifu::server::app(state.clone());
    let cd = start_chromedriver();
    let axe = axe_source();
    let mut axe_found: Vec<String> = Vec::new();
    rt().block_on(async {
        let base = serve_app(state.clone()).await;
        let c = connect(&cd, true).await;
        let page = format!("{base}/tournament/{ID}/me");

        // A judge's token: a message, not a player's data.
        c.goto(&page).await.unwrap();
        use_token(&c, &jin, "judge jin").await;
        let denied = wait_for(&c, "!document.getElementById('denied').hidden && document.getElementById('denied').textContent").await;
        assert!(denied.as_str().unwrap().contains("a player's own"), "{denied}");
        screenshot(&c, "player-phone-refused").await;

        // Eli, admitted late, registers a list before round 2: picked from the catalog; too short
        // a list is refused with its rule ID and nothing is registered.
        open_as(&c, &page, &eli, "Eli").await;
        assert_eq!(js(&c, "document.getElementById('deck-state').dataset.state").await, json!("open"));
        assert!(js(&c, "document.getElementById('where').textContent").await.as_str().unwrap().contains("no table"));
        choose(&c, "[data-deck-card]", "LC-C01").await;
        type_in(&c, "[data-deck-count]", "2").await;
        tap(&c, "[data-deck-add]").await;
        tap(&c, "[data-deck-submit]").await;
        let refused = wait_for(&c, "document.getElementById('deck-result').className === 'error' && document.getElementById('deck-result').textContent").await;
        assert!(refused.as_str().unwrap().contains("LC-REFILL-1"), "{refused}");
        assert_eq!(js(&c, "document.getElementById('deck-state').dataset.state").await, json!("open"));
        screenshot(&c, "player-phone-deck-refused").await;
        for (card, n) in [("LC-C01", "2"), ("LC-C02", "3")] {
            choose(&c, "[data-deck-card]", card).await;
            type_in(&c, "[data-deck-count]", n).await;
            tap(&c, "[data-deck-add]").await;
        }
        let list = js(&c, "document.getElementById('deck-list').value").await;
        assert!(list.as_str().unwrap().starts_with("4 LC-C01  # "), "{list}");
        tap(&c, "[data-deck-submit]").await;
        wait_for(&c, "document.getElementById('deck-state').dataset.state === 'registered'").await;
        controls_fit_a_thumb(&c, "main", "player-phone-deck").await;
        screenshot(&c, "player-phone-deck").await;

        // Bea, listed second at table 1, says "I won 2-1"; Ann confirms it with one tap.
        open_as(&c, &page, &bea, "Bea").await;
        assert_eq!(js(&c, "document.getElementById('where').textContent").await, json!("Round 1 · Table 1"));
        assert_eq!(js(&c, "document.getElementById('opponents').textContent").await, json!("Bea v Ann"));
        assert_eq!(js(&c, "document.getElementById('deck-state').dataset.state").await, json!("missing"));
        let offered = js(&c, "[...document.querySelectorAll('[data-result]')].map((b) => b.textContent)").await;
        assert_eq!(offered, json!(["I won 2-0", "I won 2-1", "I lost 1-2", "I lost 0-2", "Draw 1-1", "Draw 0-0-1"]));
        controls_fit_a_thumb(&c, "main", "player-phone-table").await;
        screenshot(&c, "player-phone-table").await;
        axe_check(&c, &axe, "a player's own page", &mut axe_found).await;
        tap(&c, "[data-result=\"2-1-0\"]").await;
        status_says(&c, "Waiting for Ann").await;
        wait_for(&c, "document.getElementById('report-state').dataset.state === 'waiting'").await;
        open_as(&c, &page, &ann, "Ann").await;
        let said = js(&c, "document.getElementById('report-state').textContent").await;
        assert!(said.as_str().unwrap().starts_with("Bea reported: you lost 1-2."), "{said}");
        assert_eq!(js(&c, "document.querySelector('#report-buttons button.confirm').textContent").await, json!("Confirm: I lost 1-2"));
        screenshot(&c, "player-phone-confirm").await;
        tap(&c, "#report-buttons button.confirm").await;
        status_says(&c, "Recorded: I lost 1-2.").await;
        wait_for(&c, "document.getElementById('report-state').dataset.state === 'recorded'").await;
        let (_, pairings) = super::get(&router, &format!("/api/v1/tournaments/{ID}/pairings"), None).await;
        assert_eq!((pairings["tables"][0]["result"].clone(), pairings["tables"][0]["winner"].clone()), (json!("1-2-0"), json!("Bea")));

        // Cy and Dov both say they won 2-0: disputed, and nothing more is offered to either.
        open_as(&c, &page, &cy, "Cy").await;
        tap(&c, "[data-result=\"2-0-0\"]").await;
        status_says(&c, "Waiting for Dov").await;
        open_as(&c, &page, &dov, "Dov").await;
        tap(&c, "[data-result=\"2-0-0\"]").await;
        status_says(&c, "disputed, a judge will decide").await;
        wait_for(&c, "document.getElementById('report-state').dataset.state === 'disputed'").await;
        assert_eq!(js(&c, "document.querySelectorAll('[data-result]').length").await, json!(0));
        screenshot(&c, "player-phone-disputed").await;

        // Dov calls a judge to table 2; jin takes and closes the call, giving 5 minutes; Dov sees
        // them on the round clock and appeals the ruling, then a penalty, to the head judge.
        tap(&c, "[data-call-judge]").await;
        status_says(&c, "Call 1 opened: a judge is coming to table 2.").await;
        wait_for(&c, "document.querySelector('[data-call=\"1\"][data-status=\"open\"]')").await;
        let calls = format!("/api/v1/tournaments/{ID}/calls/1");
        for (step, body) in [
            ("take", json!({})),
            ("close", json!({"outcome": "ruling", "note": "the attack was legal"})),
            ("extension", json!({"minutes": 5, "reason": "the ruling took long"})),
        ] {
            let (s, v) = call(&router, "POST", &format!("{calls}/{step}"), Some(&jin), Some(body)).await;
            assert_eq!(s.as_u16(), 201, "{step}: {v}");
        }
        let pen = json!({"player": "Dov", "infraction": "te-slow-play", "reason": "slow in game 2"});
        let (s, v) = call(&router, "POST", &format!("/api/v1/tournaments/{ID}/penalties"), Some(&jin), Some(pen)).await;
        assert_eq!(s.as_u16(), 201, "{v}");
        open_as(&c, &page, &dov, "Dov").await;
        wait_for(&c, "document.getElementById('clock').dataset.extension === '5'").await;
        assert!(js(&c, "document.getElementById('clock').textContent").await.as_str().unwrap().contains("+5 min"));
        tap(&c, "[data-appeal-call=\"1\"]").await;
        status_says(&c, "Appeal 1 lodged").await;
        wait_for(&c, "!document.querySelector('[data-appeal-call]') && document.querySelector('[data-penalty=\"1\"] [data-appeal-penalty]')").await;
        tap(&c, "[data-penalty=\"1\"] [data-appeal-penalty]").await;
        status_says(&c, "Appeal 2 lodged: penalty 1 goes to the head judge, hana.").await;
        let row = wait_for(&c, "!document.querySelector('[data-appeal-penalty]') && document.querySelector('[data-penalty=\"1\"]').textContent").await;
        assert!(row.as_str().unwrap().contains("appeal 2: waiting"), "{row}");
        controls_fit_a_thumb(&c, "main", "player-phone-judge").await;
        screenshot(&c, "player-phone-judge").await;

        // The tournament page links a player's token here, and offers the disputed table's
        // players no Confirm or Dispute.
        c.goto(&format!("{base}/tournament/{ID}#results")).await.unwrap();
        use_token(&c, &dov, "player Dov").await;
        wait_for(&c, "!document.getElementById('my-page-line').hidden").await;
        assert_eq!(js(&c, "document.getElementById('my-page').getAttribute('href')").await, json!(format!("/tournament/{ID}/me")));
        wait_for(&c, "document.querySelector('#pending tr[data-table=\"2\"] [data-disputed=\"yes\"]')").await;
        assert_eq!(js(&c, "document.querySelectorAll('#pending tr[data-table=\"2\"] button').length").await, json!(0));
        screenshot(&c, "player-phone-tournament-page").await;
        c.close().await.unwrap();
    });
    assert!(axe_found.is_empty(), "axe-core found serious or critical problems: {axe_found:#?}");
    drop(cd);
}
