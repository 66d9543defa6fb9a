//! Issue 53's items 2, 6 and 7 in headless Chromium: an organizer sets up an LC Swiss event on a
//! desktop (the game chosen from the server's games, judges and time zone named, the top cut set
//! after the players register), pairs it, moves a whole match for accessibility on the floor,
//! and the pairings and printed sheets follow the newest round; once finalized, neither the
//! Run tab nor the floor offers an action. On a 390×844 phone, a FATE pod event is created with
//! deck lists required, its lists registered, its pod round seated, its places entered and its
//! placings shown. Screenshots go to `target/screenshots/setup-*.png`.

use fantoccini::Client;
use serde_json::json;

use kifu::log::envelope::{Actor, StreamId};
use kifu::server::tokens::Role;
use kifu::store::Store;
use kifu::tournament::{record, MatchScore, TournamentEvent};

use super::browser::{
    assert_no_sideways_scroll, connect, js, screenshot, serve_app, start_chromedriver, use_token, viewport, wait_for,
};
use super::browser_floor::{choose, tap, type_in};
use super::browser_tournament::as_printed;
use super::{rt, Floor};

const EIGHT: &str = "ann, bo, cy, di, eve, fay, gus, hal";

/// Every table of the latest round won 2-0 by its first-listed player (as the players' confirmed
/// reports would record it).
fn report_round(store: &dyn Store, id: &str) {
    let id = StreamId::new(id).unwrap();
    let state = record::load(store, &id).unwrap().state;
    let r = state.rounds.last().unwrap();
    let score = MatchScore { a_wins: 2, b_wins: 0, draws: 0 };
    let events = r
        .tables
        .iter()
        .map(|t| TournamentEvent::ResultReported { round: r.round, table: t.table, score, games: vec![] })
        .collect();
    record::record(store, &id, Actor::Organizer("olga".into()), events).unwrap();
}

/// The players at `table` of the latest round, first-listed first.
fn at_table(store: &dyn Store, id: &str, table: usize) -> (String, String) {
    let state = record::load(store, &StreamId::new(id).unwrap()).unwrap().state;
    let t = &state.rounds.last().unwrap().tables[table - 1];
    (state.players[t.a].name.clone(), state.players[t.b].name.clone())
}

/// The new-event form once the server's games are in its list.
async fn new_event_form(c: &Client) {
    wait_for(c, "document.getElementById('run-new').getClientRects().length > 0 && document.querySelectorAll('#n-game option').length === 5").await;
    let offered = js(c, "[...document.querySelectorAll('#n-game option')].map((o) => o.value)").await;
    assert_eq!(
        offered,
        json!(["naruto", "vanguard", "lc", "brk", "fate"]),
        "the games are the server's, not free text"
    );
}

async fn run_tab(c: &Client) {
    tap(c, "#tab-run").await;
    wait_for(c, "document.getElementById('run').classList.contains('on')").await;
}

#[test]
fn browser_event_setup_pods_and_the_floor_on_a_desktop_and_a_phone() {
    let floor = Floor::new("lc-night");
    let store = floor.state.store().clone();
    let org = floor.token_in("*", Role::Organizer, "olga");
    let cd = start_chromedriver();
    rt().block_on(async {
        let base = serve_app(floor.state.clone()).await;
        let c = connect(&cd, false).await;
        viewport(&c, 1400, 900).await;

        // Item 2: the new-event form on a desktop.
        c.goto(&format!("{base}/tournament/lc-night")).await.unwrap();
        use_token(&c, &org, "organizer olga").await;
        new_event_form(&c).await;
        choose(&c, "#n-game", "lc").await;
        assert_eq!(js(&c, "document.getElementById('n-format').value").await, json!("swiss"));
        type_in(&c, "#n-name", "LC night").await;
        type_in(&c, "#n-rounds", "1").await;
        type_in(&c, "#n-zone", "Europe/Paris").await;
        type_in(&c, "#n-head-judge", "hana").await;
        type_in(&c, "#n-judges", "jo, kai").await;
        assert_no_sideways_scroll(&c, "desktop new event").await;
        screenshot(&c, "setup-new-event-desktop").await;
        tap(&c, "[data-create]").await;
        wait_for(&c, "document.getElementById('t-name').textContent === 'LC night'").await;
        let info = js(&c, "document.getElementById('t-info').textContent").await;
        assert!(info.as_str().unwrap().contains("head judge hana · judges jo, kai"), "{info}");

        // Players, then the top cut the policy gives 8 (none) changed to a top 4.
        type_in(&c, "#g-players", EIGHT).await;
        tap(&c, "#run-register button[type=submit]").await;
        wait_for(&c, "document.getElementById('t-info').textContent.includes('8 players')").await;
        wait_for(&c, "document.getElementById('setup-info').textContent.includes('by attendance: top none for 8 players')").await;
        assert!(js(&c, "document.getElementById('setup-info').textContent").await.as_str().unwrap().contains("times in Europe/Paris"));
        choose(&c, "#c-cut", "4").await;
        tap(&c, "[data-set-cut]").await;
        wait_for(&c, "document.getElementById('setup-info').textContent.startsWith('top cut top 4 (changeable')").await;
        screenshot(&c, "setup-run-tab-desktop").await;

        // Item 7: after pairing, the pairings show the new round.
        tap(&c, "#run-pair").await;
        wait_for(&c, "document.getElementById('showing').textContent === 'round 1, by table'").await;

        // A whole match moves to table 3 on the floor; the match there takes table 1.
        let (one, three) = (at_table(&*store, "lc-night", 1), at_table(&*store, "lc-night", 3));
        c.goto(&format!("{base}/tournament/lc-night/judge#overrides")).await.unwrap();
        wait_for(&c, "document.querySelectorAll('#mv-to option').length === 4").await;
        let floor_info = js(&c, "document.getElementById('floor-info').textContent").await;
        assert!(floor_info.as_str().unwrap().contains("times in Europe/Paris"), "{floor_info}");
        choose(&c, "#mv-from", "1").await;
        choose(&c, "#mv-to", "3").await;
        type_in(&c, "#mv-reason", "step-free access at table 3").await;
        tap(&c, "[data-move]").await;
        wait_for(&c, "document.getElementById('status').textContent.includes('moved to table 3')").await;
        assert_eq!(at_table(&*store, "lc-night", 3), one, "the match moved whole");
        assert_eq!(at_table(&*store, "lc-night", 1), three, "the other match took its table");
        screenshot(&c, "setup-floor-move-desktop").await;

        // The top cut: pairings and the printed sheet follow the newest round.
        report_round(&*store, "lc-night");
        c.goto(&format!("{base}/tournament/lc-night#pairings")).await.unwrap();
        wait_for(&c, "document.getElementById('showing').textContent === 'round 1, by table'").await;
        run_tab(&c).await;
        tap(&c, "#run-topcut").await;
        wait_for(&c, "document.getElementById('round').value === '2'").await;
        assert!(js(&c, "document.getElementById('run-cut').hidden").await == json!(true), "the cut is made: no size change");
        tap(&c, "#tab-pairings").await;
        wait_for(&c, "document.getElementById('showing').textContent === 'round 2, by table'").await;
        tap(&c, "#print-by-table").await;
        as_printed(&c, true).await;
        let printed = js(&c, "document.getElementById('print').textContent").await;
        assert!(printed.as_str().unwrap().contains("round 2"), "the printed sheet is the newest round: {printed}");
        screenshot(&c, "setup-print-newest-desktop").await;
        as_printed(&c, false).await;

        // The final, finalizing: no floor action is offered any more.
        report_round(&*store, "lc-night");
        run_tab(&c).await;
        tap(&c, "#run-topcut").await;
        wait_for(&c, "document.getElementById('round').value === '3'").await;
        report_round(&*store, "lc-night");
        c.goto(&format!("{base}/tournament/lc-night#run")).await.unwrap();
        wait_for(&c, "document.getElementById('t-info').textContent.includes('8 players')").await;
        run_tab(&c).await;
        tap(&c, "#run-finalize button[type=submit]").await;
        wait_for(&c, "!document.getElementById('run-closed').hidden").await;
        let shown = js(&c, "['run-ongoing', 'run-setup'].map((i) => document.getElementById(i).getClientRects().length)").await;
        assert_eq!(shown, json!([0, 0]), "a finalized event offers no floor action");
        screenshot(&c, "setup-finalized-desktop").await;
        c.goto(&format!("{base}/tournament/lc-night/judge#overrides")).await.unwrap();
        wait_for(&c, "!document.getElementById('floor-closed').hidden").await;
        let forms = js(&c, "['move', 'override', 'late', 'call-open', 'penalty'].map((i) => document.getElementById(i).getClientRects().length)").await;
        assert_eq!(forms, json!([0, 0, 0, 0, 0]), "the floor of a finalized event offers no action");
        screenshot(&c, "setup-floor-finalized-desktop").await;
        c.close().await.unwrap();

        // Item 6 on a phone: a FATE pod event with deck lists required.
        let c = connect(&cd, true).await;
        c.goto(&format!("{base}/tournament/fate-night")).await.unwrap();
        use_token(&c, &org, "organizer olga").await;
        new_event_form(&c).await;
        choose(&c, "#n-game", "fate").await;
        assert_eq!(js(&c, "document.getElementById('n-format').value").await, json!("pods"), "a multiplayer game plays in pods");
        let lines = js(&c, "['n-pod-line', 'n-best-line', 'n-cut-line'].map((i) => document.getElementById(i).hidden)").await;
        assert_eq!(lines, json!([false, true, true]), "pods: a size, no match format or top cut");
        type_in(&c, "#n-name", "FATE night").await;
        type_in(&c, "#n-rounds", "1").await;
        tap(&c, "#n-decks").await;
        wait_for(&c, "!document.getElementById('n-deadline-line').hidden").await;
        assert_no_sideways_scroll(&c, "phone new pod event").await;
        screenshot(&c, "setup-new-pod-event-phone").await;
        tap(&c, "[data-create]").await;
        wait_for(&c, "document.getElementById('t-name').textContent === 'FATE night'").await;
        type_in(&c, "#g-players", EIGHT).await;
        tap(&c, "#run-register button[type=submit]").await;
        wait_for(&c, "document.getElementById('t-info').textContent.includes('8 players')").await;
        // Round 1 waits for the lists (TOUR-DECK-5).
        tap(&c, "#run-pair").await;
        wait_for(&c, "document.getElementById('run-status').textContent.includes('TOUR-DECK-5')").await;
        // The lists, checked by FATE's deck rules (not a two-seat game's Masters).
        let list = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/replays/decks/fate.deck")).unwrap();
        // One after another, as players at their own phones would (each append names the head it follows).
        let script = "const [list, names] = arguments; return names.reduce((done, p) => done.then((n) => kifu.api('/tournaments/fate-night/decks', { method: 'POST', body: { player: p, list } }).then(() => n + 1)), Promise.resolve(0));";
        let names = json!(EIGHT.split(", ").collect::<Vec<_>>());
        assert_eq!(c.execute(script, vec![json!(list), names]).await.unwrap(), json!(8));
        tap(&c, "#run-pair").await;
        wait_for(&c, "document.getElementById('run-status').textContent.includes('round 1 paired')").await;
        tap(&c, "#tab-pairings").await;
        wait_for(&c, "document.getElementById('showing').textContent === 'round 1, by pod' && document.querySelectorAll('#pairings-table tr[data-table]').length === 2").await;
        assert_no_sideways_scroll(&c, "phone pods seated").await;
        screenshot(&c, "setup-pods-seated-phone").await;

        // Places entered for both pods, then finalized: the placings are the pod standings.
        c.goto(&format!("{base}/tournament/fate-night#results")).await.unwrap();
        for pod in ["1", "2"] {
            wait_for(&c, "document.querySelectorAll('#jp-pod option').length === 2").await;
            choose(&c, "#jp-pod", pod).await;
            for seat in 1..=4 {
                tap(&c, &format!("#jp-seats [data-seat='{seat}'] button[data-place='{seat}']")).await;
            }
            type_in(&c, "#jp-reason", "entered from the slip").await;
            tap(&c, "#jp-enter").await;
            wait_for(&c, "document.getElementById('jp-status').textContent.startsWith('Recorded')").await;
        }
        run_tab(&c).await;
        tap(&c, "#run-finalize button[type=submit]").await;
        wait_for(&c, "!document.getElementById('run-closed').hidden").await;
        tap(&c, "#tab-placings").await;
        wait_for(&c, "document.querySelectorAll('#placings-table tr').length === 9").await;
        assert_no_sideways_scroll(&c, "phone pod placings").await;
        screenshot(&c, "setup-pod-placings-phone").await;
        c.close().await.unwrap();
    });
    drop(cd);
}
