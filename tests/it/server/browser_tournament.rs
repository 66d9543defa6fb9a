//! The tournament page in headless Chromium (the harness of `browser.rs`), at 1400×900 and
//! 390×844, on a small event built for it: shared ranks shown "T2", the top cut and the final
//! placings after it, a judge's penalty issued from the page and reported by verification,
//! finalizing from the page, signed checkpoints, pairings by table and by name, and the printed
//! pairings and result slips under the print stylesheet. Screenshots go to `target/screenshots/`.

use fantoccini::{Client, Locator};
use serde_json::json;

use kifu::log::envelope::{Actor, StreamId, Timestamp};
use kifu::server::tokens::Role;
use kifu::server::{AppState, ServerConfig};
use kifu::store::Store;
use kifu::tournament::events::{Checkpoint, ConfigV1, MatchScore, PairedTable, RoundsPlan, TournamentEvent};
use kifu::tournament::{record, sign, verify, Policy};

use super::browser::{
    assert_no_sideways_scroll, axe_check, axe_source, connect, js, screenshot, serve_app, start_chromedriver,
    unreachable_by_tab, use_token, viewport, wait_for, OVERFLOWS, SMALL_TEXT,
};
use super::{rt, ServerEnv};

const ID: &str = "league";
const SIGNER: &str = "olga";

fn table(n: u32, a: &str, b: &str) -> PairedTable {
    PairedTable { table: n, a: a.into(), b: b.into() }
}

fn result(round: u32, table: u32, a_wins: u32, b_wins: u32) -> TournamentEvent {
    TournamentEvent::ResultReported { round, table, score: MatchScore { a_wins, b_wins, draws: 0 }, games: vec![] }
}

/// Signs the tournament's current head as `checkpoint` (the CLI's `kifu tournament sign`).
fn sign_now(store: &dyn Store, id: &StreamId, key: &ed25519_dalek::SigningKey, round: Option<u32>) {
    let loaded = record::load(store, id).unwrap();
    let (head, events) = (loaded.head.hash, loaded.head.len);
    let checkpoint = match round {
        Some(round) => Checkpoint::RoundClosed { round, head, events },
        None => {
            Checkpoint::Final { root: verify::root_hash(head, events, &verify::linked_games(&loaded)), head, events }
        }
    };
    let signature = sign::sign(key, id.as_str(), &checkpoint);
    let ev = TournamentEvent::CheckpointSigned { signer: SIGNER.into(), checkpoint, signature };
    record::record(store, id, Actor::Organizer(SIGNER.into()), vec![ev]).unwrap();
}

/// Four players, two Swiss rounds and a top 2. After round 2 "Bea" and "Cy" are tied on every
/// tiebreaker (each beat "Dov" 2-0 and lost 0-2 to "Ann"), so they share rank 2; the seeded
/// draw decides which of them plays the final.
fn build(store: &dyn Store, key: &ed25519_dalek::SigningKey) -> StreamId {
    let id = StreamId::new(ID).unwrap();
    let config = ConfigV1 {
        name: "Thursday league".into(),
        game: "naruto".into(),
        policy: Policy::Mtr,
        rounds: RoundsPlan::Fixed(2),
        top_cut: 2,
        seed_commitment: None,
    };
    let mut first = vec![
        TournamentEvent::MatchFormatSet { best_of: 3 },
        TournamentEvent::SignerRecorded { signer: SIGNER.into(), public_key: sign::public(key) },
    ];
    first.extend(
        ["Ann", "Bea", "Cy", "Dov"].map(|p| TournamentEvent::PlayerRegistered { player: p.into(), deck: None }),
    );
    record::create(store, &id, &config, Actor::Organizer(SIGNER.into()), Timestamp(0), first).unwrap();
    let org = || Actor::Organizer(SIGNER.into());
    let pair = |round, tables| TournamentEvent::RoundPaired { round, tables, byes: vec![], round_seed: None };
    record::record(store, &id, org(), vec![pair(1, vec![table(1, "Ann", "Bea"), table(2, "Cy", "Dov")])]).unwrap();
    record::record(store, &id, org(), vec![result(1, 1, 2, 0), result(1, 2, 2, 0)]).unwrap();
    sign_now(store, &id, key, Some(1));
    record::record(store, &id, org(), vec![pair(2, vec![table(1, "Ann", "Cy"), table(2, "Bea", "Dov")])]).unwrap();
    record::record(store, &id, org(), vec![result(2, 1, 2, 0), result(2, 2, 2, 0)]).unwrap();
    sign_now(store, &id, key, Some(2));
    let (round, tables) = record::load(store, &id).unwrap().state.derive_top_cut().unwrap();
    record::record(store, &id, org(), vec![TournamentEvent::TopCutPaired { round, tables }]).unwrap();
    record::record(store, &id, org(), vec![result(round, 1, 2, 1)]).unwrap();
    sign_now(store, &id, key, Some(round));
    id
}

/// Applies the page's `@media print` rules on screen (a headless session cannot open the print
/// preview), so a screenshot shows the printed sheet and computed styles can be checked. The
/// print rules are switched to every medium through the CSSOM: the content security policy
/// refuses an inline `<style>` element, which would silently apply nothing.
pub(super) async fn as_printed(c: &Client, on: bool) {
    let script = if on {
        "window.__printRules = [...document.styleSheets].flatMap((s) => [...s.cssRules])
           .filter((r) => r.media && r.media.mediaText === 'print');
         for (const r of window.__printRules) r.media.mediaText = 'all';
         return window.__printRules.length;"
    } else {
        "for (const r of window.__printRules || []) r.media.mediaText = 'print'; return 0;"
    };
    let n = c.execute(script, vec![]).await.unwrap();
    assert!(!on || n.as_u64().unwrap_or(0) > 0, "the page has print rules");
}

async fn click(c: &Client, id: &str) {
    c.find(Locator::Id(id)).await.unwrap().click().await.unwrap();
}

async fn fill(c: &Client, id: &str, text: &str) {
    let input = c.find(Locator::Id(id)).await.unwrap();
    input.clear().await.unwrap();
    input.send_keys(text).await.unwrap();
}

#[test]
fn browser_tournament_page() {
    let env = ServerEnv::new();
    let store = env.state.store().clone();
    let key = sign::key_from([42; 32]);
    let id = build(&*store, &key);
    let judge = env.token(Role::Judge, "*", "jules");
    let organizer = env.token(Role::Organizer, "*", SIGNER);
    // The page finalizes, so this server keeps seeds (none is needed: the event has no commitment).
    let seeds = tempfile::tempdir().unwrap();
    let config = ServerConfig {
        tokens: Some(env.tokens.clone()),
        seeds: Some(seeds.path().to_path_buf()),
        ..ServerConfig::default()
    };
    let state = AppState::new(store.clone(), env.state.clock().clone(), config);
    let cd = start_chromedriver();
    let axe = axe_source();
    let mut axe_found: Vec<String> = Vec::new();
    let before = record::load(&*store, &id).unwrap().state;
    let finalist = before.rounds[2].tables[0].b;
    let finalist = before.players[finalist].name.clone();
    let other = if finalist == "Bea" { "Cy" } else { "Bea" };
    rt().block_on(async {
        let base = serve_app(state.clone()).await;
        let c = connect(&cd, false).await;
        viewport(&c, 1400, 900).await;

        // Shared ranks: the two players tied on every tiebreaker both show "T2".
        c.goto(&format!("{base}/tournament/{ID}#standings")).await.unwrap();
        wait_for(&c, "document.querySelectorAll('#standings-table tr[data-player]').length === 4").await;
        let ranks = js(
            &c,
            "Object.fromEntries([...document.querySelectorAll('#standings-table tr[data-player]')].map((r) => [r.dataset.player, r.cells[0].textContent]))",
        )
        .await;
        assert_eq!(ranks, json!({"Ann": "1", "Bea": "T2", "Cy": "T2", "Dov": "4"}));
        // The seeded draw's order among the tied: the one it put first plays the final.
        let order = js(
            &c,
            "Object.fromEntries([...document.querySelectorAll('#standings-table tr[data-player]')].map((r) => [r.dataset.player, r.querySelector('td.tie-order').textContent]))",
        )
        .await;
        assert_eq!(order[finalist.as_str()], json!("1 of 2 by seeded draw"), "{order}");
        assert_eq!(order[other], json!("2 of 2 by seeded draw"), "{order}");
        assert_eq!(order["Ann"], json!(""), "{order}");
        screenshot(&c, "tournament-ties").await;

        // The public is not offered the officials' forms (they would answer with a token error).
        assert_eq!(js(&c, "document.getElementById('tab-run').hidden && document.getElementById('run').hidden").await, true);
        c.goto(&format!("{base}/tournament/{ID}#run")).await.unwrap();
        wait_for(&c, "document.querySelectorAll('#standings-table tr[data-player]').length === 4").await;
        assert_eq!(js(&c, "[document.getElementById('tab-run').hidden, document.querySelector('section.tab.on').id]").await, json!([true, "pairings"]));

        // A judge issues a penalty from the page; verification lists it.
        use_token(&c, &judge, "judge jules").await;
        wait_for(&c, "!document.getElementById('tab-run').hidden").await;
        click(&c, "tab-run").await;
        fill(&c, "p-player", "Dov").await;
        fill(&c, "p-reason", "slow play").await;
        c.find(Locator::Css("#run-penalty button[type=submit]")).await.unwrap().click().await.unwrap();
        wait_for(&c, "document.getElementById('run-status').textContent.startsWith('done')").await;
        wait_for(&c, "[...document.querySelectorAll('#checks tr')].some((r) => r.textContent.includes('Dov Warning'))").await;

        // The organizer finalizes from the page; the final root is then signed.
        use_token(&c, &organizer, "organizer olga").await;
        c.execute("document.getElementById('run-status').textContent = ''; return 0;", vec![]).await.unwrap();
        c.find(Locator::Css("#run-finalize button[type=submit]")).await.unwrap().click().await.unwrap();
        let status = wait_for(&c, "document.getElementById('run-status').textContent").await;
        assert_eq!(status, json!("done"), "finalized, not early: every round was played");
        // While the final root is unsigned, verification names that checkpoint. (The page
        // verified once when finalizing; only a fragment change does not reload it.)
        c.goto(&format!("{base}/tournament/{ID}#placings")).await.unwrap();
        c.refresh().await.unwrap();
        let badge = wait_for(&c, "document.getElementById('verify-badge').textContent !== 'verifying…' && document.getElementById('verify-badge').textContent").await;
        let failed = js(&c, "[...document.querySelectorAll('#checks tr')].filter((r) => r.cells[1].textContent !== 'ok').map((r) => r.textContent)").await;
        assert_eq!(badge, json!("verification FAILED"), "{failed}");
        assert_eq!(failed, json!(["signaturesFAILEDthe final root carries no valid signature"]));
        // The organizer signs the final root (the CLI's `kifu tournament sign`); the server's
        // verification at the new head sees it once the page asks again.
        sign_now(&*store, &id, &key, None);
        c.refresh().await.unwrap();

        // Final placings: the champion, the finalist, then the Swiss order (with its shared rank).
        wait_for(&c, "document.getElementById('placings-caption').textContent === 'final placings'").await;
        let rows = js(
            &c,
            "[...document.querySelectorAll('#placings-table tr[data-player]')].map((r) => [...r.cells].map((td) => td.textContent))",
        )
        .await;
        // The third place is not shared: its Swiss tie was with the finalist, placed higher.
        assert_eq!(
            rows,
            json!([
                ["1", "Ann", "champion", "1"],
                ["2", finalist, "final", "T2"],
                ["3", other, "swiss", "T2"],
                ["4", "Dov", "swiss", "4"]
            ])
        );
        let badge = wait_for(&c, "document.getElementById('verify-badge').textContent !== 'verifying…' && document.getElementById('verify-badge').textContent").await;
        let failed = js(&c, "[...document.querySelectorAll('#checks tr')].filter((r) => r.cells[1].textContent !== 'ok').map((r) => r.textContent)").await;
        assert_eq!(badge, json!("verified ✓"), "{failed}");
        let checks = js(
            &c,
            "Object.fromEntries([...document.querySelectorAll('#checks tr')].map((r) => [r.cells[0].textContent, r.cells[1].textContent + ' ' + r.cells[2].textContent]))",
        )
        .await;
        let check = |k: &str| checks[k].as_str().unwrap_or_else(|| panic!("no {k} check in {checks}")).to_string();
        assert!(check("penalties").starts_with("ok Dov Warning"), "{checks}");
        assert!(check("finalized").starts_with("ok finalized after every planned round"), "{checks}");
        let signed = check("signatures");
        assert!(signed.starts_with("ok ") && signed.contains("olga signed final root"), "{checks}");
        c.execute("document.getElementById('checks-box').open = true; return 0;", vec![]).await.unwrap();
        screenshot(&c, "tournament-placings").await;
        axe_check(&c, &axe, "the tournament placings", &mut axe_found).await;

        // Pairings of round 2 by table and by name.
        c.goto(&format!("{base}/tournament/{ID}#pairings")).await.unwrap();
        wait_for(&c, "document.querySelectorAll('#round option').length === 3").await;
        c.execute(
            "const s = document.getElementById('round'); s.value = '2'; s.dispatchEvent(new Event('change')); return 0;",
            vec![],
        )
        .await
        .unwrap();
        wait_for(&c, "document.getElementById('showing').textContent === 'round 2, by table'").await;
        let by_table = js(&c, "[...document.querySelectorAll('#pairings-table tr[data-table]')].map((r) => [r.cells[0].textContent, r.cells[1].textContent, r.cells[3].textContent, r.cells[5].textContent])").await;
        assert_eq!(by_table, json!([["1", "Ann", "Cy", "2-0-0"], ["2", "Bea", "Dov", "2-0-0"]]));
        click(&c, "by-name").await;
        wait_for(&c, "document.getElementById('showing').textContent === 'round 2, by name'").await;
        let by_name = js(&c, "[...document.querySelectorAll('#pairings-table tr')].slice(1).map((r) => [...r.cells].map((td) => td.textContent))").await;
        assert_eq!(
            by_name,
            json!([["Ann", "1", "Cy"], ["Bea", "2", "Dov"], ["Cy", "1", "Ann"], ["Dov", "2", "Bea"]])
        );
        screenshot(&c, "tournament-pairings-by-name").await;

        // Printing: each button fills the print area; under the print stylesheet only it shows.
        c.execute("window.print = () => { window.printed = (window.printed || 0) + 1; }; return 0;", vec![]).await.unwrap();
        click(&c, "print-slips").await;
        assert_eq!(js(&c, "window.printed").await, json!(1));
        let slips = js(
            &c,
            "[...document.querySelectorAll('#print .slip')].map((s) => [s.querySelector('.slip-head').textContent, [...s.querySelectorAll('.slip-name')].map((n) => n.textContent), s.textContent.includes('signature')])",
        )
        .await;
        assert_eq!(
            slips,
            json!([
                ["Thursday league — round 2 · table 1", ["Ann", "Cy"], true],
                ["Thursday league — round 2 · table 2", ["Bea", "Dov"], true]
            ])
        );
        assert_eq!(js(&c, "getComputedStyle(document.getElementById('print')).display").await, json!("none"), "not on screen");
        as_printed(&c, true).await;
        screenshot(&c, "tournament-print-slips").await;
        as_printed(&c, false).await;
        for (button, heading, rows) in
            [("print-by-table", "by table", 3), ("print-by-name", "by name", 5)]
        {
            click(&c, button).await;
            let h = js(&c, "document.querySelector('#print h2').textContent").await;
            assert_eq!(h, json!(format!("Thursday league — round 2 — {heading}")));
            assert_eq!(js(&c, "document.querySelectorAll('#print tr').length").await, json!(rows), "{heading}");
        }
        as_printed(&c, true).await;
        screenshot(&c, "tournament-print-by-name").await;
        as_printed(&c, false).await;
        assert_eq!(js(&c, "window.printed").await, json!(3));
        // Printed from the dark theme: black on white paper, not black on near-black.
        c.execute("document.documentElement.dataset.theme = 'dark'; return 0;", vec![]).await.unwrap();
        click(&c, "print-by-table").await;
        as_printed(&c, true).await;
        let inks = js(&c, "['body', '#print', '#print th', '#print td'].map((q) => { const s = getComputedStyle(document.querySelector(q)); return [s.color, s.backgroundColor]; })").await;
        for (i, ink) in inks.as_array().unwrap().iter().enumerate() {
            assert_eq!(ink[0], json!("rgb(0, 0, 0)"), "printed text {i} in the dark theme: {inks}");
            assert!(ink[1] == json!("rgb(255, 255, 255)") || (i > 0 && ink[1] == json!("rgba(0, 0, 0, 0)")), "printed paper {i} in the dark theme: {inks}");
        }
        screenshot(&c, "tournament-print-dark").await;
        as_printed(&c, false).await;
        c.execute("delete document.documentElement.dataset.theme; return 0;", vec![]).await.unwrap();

        // A phone: placings and pairings fit without sideways scrolling.
        c.close().await.unwrap();
        let c = connect(&cd, true).await;
        c.goto(&format!("{base}/tournament/{ID}#placings")).await.unwrap();
        wait_for(&c, "document.querySelectorAll('#placings-table tr[data-player]').length === 4").await;
        assert_no_sideways_scroll(&c, "phone-placings").await;
        screenshot(&c, "phone-tournament-placings").await;
        c.goto(&format!("{base}/tournament/{ID}#pairings")).await.unwrap();
        wait_for(&c, "document.querySelectorAll('#pairings-table tr[data-table]').length === 1").await;
        assert_no_sideways_scroll(&c, "phone-pairings").await;
        screenshot(&c, "phone-tournament-pairings").await;
        c.close().await.unwrap();
    });
    assert!(axe_found.is_empty(), "axe-core found serious or critical problems: {axe_found:#?}");
    drop(cd);
}

/// A pod event of FATE: the page shows each pod's seats (and a judge's correction), prints the
/// round by pod, and prints one result slip per pod with every seat and a place box per player.
#[test]
fn browser_pod_round_prints_by_pod_and_pod_slips() {
    use kifu::clock::SteppingClock;
    use kifu::game::commit::Commitment;
    use kifu::tournament::event;

    let env = ServerEnv::new();
    let store = env.state.store().clone();
    let id = StreamId::new("pod-night").unwrap();
    let fate = kifu::games::driver("fate").unwrap();
    let clock = SteppingClock::fixed();
    let seed = Commitment([6; 32]);
    event::create_pod_event(&*store, fate, &id, 8, 1, &seed, &clock).unwrap();
    let pods = event::pair_pod_round(&*store, &id, &seed, 1).unwrap();
    let mut played = Vec::new();
    for (i, pod) in pods.iter().enumerate() {
        let n = i as u32 + 1;
        let (game, places) = event::play_pod(&*store, fate, &clock, &id, &seed, 1, n, pod).unwrap();
        event::report_pod(&*store, &id, 1, n, places.clone(), &game).unwrap();
        played.push((game, places));
    }
    // A judge re-records pod 1's result (same places, same game): shown as corrected.
    let loaded = record::load(&*store, &id).unwrap();
    let games = kifu::tournament::claim::claim_pod_games(&*store, &loaded, 1, 1, &[played[0].0.to_string()]).unwrap();
    let ev = TournamentEvent::PodResultCorrected {
        round: 1,
        pod: 1,
        places: played[0].1.clone(),
        games,
        judge: "jin".into(),
        reason: "slip rewritten".into(),
    };
    record::record(&*store, &id, Actor::Judge("jin".into()), vec![ev]).unwrap();

    let cd = start_chromedriver();
    rt().block_on(async {
        let base = serve_app(env.state.clone()).await;
        let c = connect(&cd, false).await;
        viewport(&c, 1400, 900).await;
        c.goto(&format!("{base}/tournament/pod-night#pairings")).await.unwrap();
        wait_for(&c, "document.querySelectorAll('#pairings-table tr[data-table]').length === 2").await;
        wait_for(&c, "document.getElementById('showing').textContent === 'round 1, by pod'").await;
        wait_for(&c, "document.getElementById('t-info').textContent.includes('1/1 pod rounds')").await;
        let rows = js(&c, "[...document.querySelectorAll('#pairings-table tr[data-table]')].map((r) => r.cells[1].textContent)").await;
        let rows: Vec<String> = rows.as_array().unwrap().iter().map(|r| r.as_str().unwrap().to_string()).collect();
        assert!(rows[0].ends_with("(corrected)") && !rows[1].contains("corrected"), "{rows:?}");
        for (row, pod) in rows.iter().zip(&pods) {
            for name in pod {
                assert!(row.contains(name.as_str()), "{row} lists {name}");
            }
        }
        // Pods, seats and places: not tables, opponents and Swiss ranks, nor a Swiss policy's name.
        let info = js(&c, "document.getElementById('t-info').textContent").await;
        let info = info.as_str().unwrap();
        assert!(info.contains("points by place") && !info.contains("mtr"), "{info}");
        let labels = js(&c, "[document.getElementById('by-table').textContent, document.getElementById('print-by-table').textContent]").await;
        assert_eq!(labels, json!(["by pod", "Print by pod"]));
        click(&c, "by-name").await;
        wait_for(&c, "document.getElementById('showing').textContent === 'round 1, by name'").await;
        let heads = js(&c, "[...document.querySelectorAll('#pairings-table th')].map((h) => h.textContent)").await;
        assert_eq!(heads, json!(["player", "pod", "pod-mates"]));
        click(&c, "by-table").await;
        wait_for(&c, "document.querySelectorAll('#placings-table tr[data-player]').length === 8").await;
        let heads = js(&c, "[...document.querySelectorAll('#placings-table th')].map((h) => h.textContent)").await;
        assert_eq!(heads, json!(["place", "player", "stage", "pod standing"]));

        c.execute("window.print = () => { window.printed = (window.printed || 0) + 1; }; return 0;", vec![]).await.unwrap();
        click(&c, "print-slips").await;
        let slips = js(
            &c,
            "[...document.querySelectorAll('#print .slip')].map((s) => [s.querySelector('.slip-head').textContent, [...s.querySelectorAll('.slip-name')].map((n) => n.textContent), (s.textContent.match(/place ____/g) || []).length, s.textContent.includes('signature')])",
        )
        .await;
        let want: Vec<serde_json::Value> = pods
            .iter()
            .enumerate()
            .map(|(i, pod)| json!([format!("fate pod demo — round 1 · pod {}", i + 1), pod, pod.len(), true]))
            .collect();
        assert_eq!(slips, json!(want));
        as_printed(&c, true).await;
        screenshot(&c, "tournament-print-pod-slips").await;
        as_printed(&c, false).await;
        click(&c, "print-by-table").await;
        assert_eq!(js(&c, "document.querySelector('#print h2').textContent").await, json!("fate pod demo — round 1 — by pod"));
        assert_eq!(js(&c, "document.querySelectorAll('#print tr').length").await, json!(9), "a header and one row per seat");
        assert_eq!(js(&c, "window.printed").await, json!(2));
        c.close().await.unwrap();
    });
    drop(cd);
}

/// Issue 33's tournament page on a phone (390×844) and a desktop (1400×900), light and dark, on
/// the 8-player cup whose tables link their games: every tab button on the screen, the root
/// hash whole, every column of every table reachable (the table scrolls sideways inside its own
/// box, the page does not), every replay link reachable and visible, no box spilling out of its
/// box, no text under 12 px and every control reached by Tab on the phone; axe-core.
#[test]
fn browser_tournament_page_on_a_phone() {
    let env = ServerEnv::new();
    let cd = start_chromedriver();
    let axe = axe_source();
    let mut axe_found: Vec<String> = Vec::new();
    rt().block_on(async {
        let base = serve_app(env.state.clone()).await;
        let desk = connect(&cd, false).await;
        viewport(&desk, 1400, 900).await;
        let phone = connect(&cd, true).await;
        for theme in ["light", "dark"] {
            for (c, size) in [(&phone, "phone"), (&desk, "desktop")] {
                c.goto(&format!("{base}/")).await.unwrap();
                c.execute("localStorage.setItem('kifu-theme', arguments[0]); localStorage.removeItem('kifu-token')", vec![json!(theme)]).await.unwrap();
                for tab in ["pairings", "standings", "bracket", "placings", "results"] {
                    let at = format!("cup {tab} {size} {theme}");
                    c.goto(&format!("{base}/tournament/cup#{tab}")).await.unwrap();
                    c.refresh().await.unwrap();
                    wait_for(c, "document.querySelectorAll('#standings-table tr[data-player]').length === 8").await;
                    wait_for(c, "document.getElementById('verify-badge').textContent === 'verified ✓'").await;
                    if tab == "pairings" {
                        wait_for(c, "document.querySelectorAll('#pairings-table a.replay-link').length > 0").await;
                    }
                    // The tabs wrap: every one of them on the screen.
                    let off = js(c, "[...document.querySelectorAll('nav.tabs button')].filter((b) => !b.hidden && b.getClientRects().length).filter((b) => { const r = b.getBoundingClientRect(); return r.left < 0 || r.right > innerWidth; }).map((b) => b.textContent)").await;
                    assert_eq!(off, json!([]), "{at}: tabs off the screen");
                    // The root hash, whole.
                    let root = js(c, "(() => { const e = document.getElementById('root-hash'), r = e.getBoundingClientRect(); return [r.left >= 0 && r.right <= innerWidth, e.scrollWidth <= e.clientWidth + 1 || getComputedStyle(e).display === 'inline', e.textContent.length]; })()").await;
                    assert_eq!(root, json!([true, true, 64]), "{at}: the root hash");
                    // Every column and every replay link: scrolled to inside its own box, on screen.
                    let unreachable = js(c, "(() => { const bad = []; for (const e of document.querySelectorAll('section.tab.on table th, section.tab.on table a.replay-link')) { e.scrollIntoView({block: 'nearest', inline: 'nearest'}); const r = e.getBoundingClientRect(); const hit = document.elementFromPoint(Math.min(r.left + r.width / 2, innerWidth - 1), Math.min(r.top + r.height / 2, innerHeight - 1)); if (r.left < -1 || r.right > innerWidth + 1 || scrollX !== 0 || !(hit && (hit === e || e.contains(hit) || hit.contains(e)))) bad.push(e.textContent); } window.scrollTo(0, 0); return bad; })()").await;
                    assert_eq!(unreachable, json!([]), "{at}: columns or replay links out of reach");
                    if size == "phone" {
                        assert_no_sideways_scroll(c, &at).await;
                    }
                    let spill = js(c, &format!("{OVERFLOWS}('main')")).await;
                    assert_eq!(spill, json!([]), "{at}: boxes spill out of their boxes");
                    if size == "phone" && theme == "light" {
                        assert_eq!(js(c, SMALL_TEXT).await, json!([]), "{at}: text under 12 px");
                        let n = js(c, "document.querySelectorAll('a[href], button, select, input, summary, [tabindex=\"0\"]').length").await.as_u64().unwrap() as usize;
                        let missed = unreachable_by_tab(c, n + 8).await;
                        assert_eq!(missed, json!([]), "{at}: controls Tab does not reach");
                    }
                    if tab == "pairings" || tab == "standings" {
                        axe_check(c, &axe, &at, &mut axe_found).await;
                    }
                    c.execute("window.scrollTo(0, 0)", vec![]).await.unwrap();
                    screenshot(c, &format!("tournament-{tab}-{size}-{theme}")).await;
                }
            }
        }
        desk.close().await.unwrap();
        phone.close().await.unwrap();
    });
    assert!(axe_found.is_empty(), "axe-core found serious or critical problems: {axe_found:#?}");
    drop(cd);
}

/// Issue 33's reporting and officials' forms: a player's report names the winner and waits for
/// the opponent, who alone is offered Confirm (and a different score, a dispute); the reporter
/// sees whom it waits for and no Confirm. An id no event holds yet is a 404 that is still the
/// tournament page: the public sees the notice and no forms, an organizer's token the "New
/// event" form, which creates the event.
#[test]
fn browser_reports_wait_for_the_opponent_and_organizers_create_events() {
    let env = ServerEnv::new();
    let store = env.state.store().clone();
    let id = StreamId::new("evening").unwrap();
    let config = ConfigV1 {
        name: "Evening".into(),
        game: "naruto".into(),
        policy: Policy::Mtr,
        rounds: RoundsPlan::Fixed(2),
        top_cut: 0,
        seed_commitment: None,
    };
    let mut first = vec![TournamentEvent::MatchFormatSet { best_of: 3 }];
    first.extend(
        ["Ann", "Bea", "Cy", "Dov"].map(|p| TournamentEvent::PlayerRegistered { player: p.into(), deck: None }),
    );
    let org = || Actor::Organizer(SIGNER.into());
    record::create(&*store, &id, &config, org(), Timestamp(0), first).unwrap();
    let tables = vec![table(1, "Ann", "Bea"), table(2, "Cy", "Dov")];
    record::record(
        &*store,
        &id,
        org(),
        vec![TournamentEvent::RoundPaired { round: 1, tables, byes: vec![], round_seed: None }],
    )
    .unwrap();
    let ann = env.token(Role::Player, "evening", "Ann");
    let bea = env.token(Role::Player, "evening", "Bea");
    let organizer = env.token(Role::Organizer, "*", SIGNER);
    let judge = env.token(Role::Judge, "*", "jules");
    let seeds = tempfile::tempdir().unwrap();
    let config = ServerConfig {
        tokens: Some(env.tokens.clone()),
        seeds: Some(seeds.path().to_path_buf()),
        ..ServerConfig::default()
    };
    let state = AppState::new(store.clone(), env.state.clock().clone(), config);
    let cd = start_chromedriver();
    rt().block_on(async {
        let base = serve_app(state).await;
        let c = connect(&cd, true).await;
        let pending = "[...document.querySelectorAll('#pending tr[data-table]')]";

        // Ann reports from her side; the report names the winner and waits for Bea.
        c.goto(&format!("{base}/tournament/evening#results")).await.unwrap();
        use_token(&c, &ann, "player Ann").await;
        assert_eq!(js(&c, "document.getElementById('tab-run').hidden").await, true, "a player runs nothing");
        fill(&c, "r-table", "1").await;
        fill(&c, "r-score", "2-1-0").await;
        c.find(Locator::Css("#report-form button[type=submit]")).await.unwrap().click().await.unwrap();
        wait_for(&c, "document.getElementById('r-status').textContent === \"waiting for your opponent's confirmation\"").await;
        wait_for(&c, &format!("{pending}.length === 1")).await;
        let row = js(&c, &format!("{pending}.map((r) => [r.querySelector('td.result').textContent, r.cells[3].textContent, r.cells[4].textContent, r.querySelectorAll('button').length])")).await;
        assert_eq!(row, json!([["Ann 2-1-0 Bea · Ann won", "Ann", "waiting for Bea", 0]]), "the reporter is not offered Confirm");
        assert_no_sideways_scroll(&c, "phone results").await;
        screenshot(&c, "tournament-report-pending-reporter").await;

        // Bea, the opponent: Confirm or a different score.
        use_token(&c, &bea, "player Bea").await;
        wait_for(&c, "document.querySelector('#pending button.confirm') && document.querySelector('#pending button.dispute') && document.querySelector('#pending input.dispute-score')").await;
        assert_no_sideways_scroll(&c, "phone results, the opponent").await;
        screenshot(&c, "tournament-report-pending-opponent").await;
        click_css(&c, "#pending button.confirm").await;
        wait_for(&c, "document.getElementById('r-status').textContent === 'confirmed: recorded'").await;
        wait_for(&c, &format!("{pending}.length === 0")).await;
        let result = js(&c, "document.querySelector('#pairings-table tr[data-table=\"1\"]').cells[5].textContent").await;
        assert_eq!(result, json!("2-1-0"));

        // A judge sees the Run event tab; a player never did.
        use_token(&c, &judge, "judge jules").await;
        wait_for(&c, "!document.getElementById('tab-run').hidden").await;

        // An id no event holds: the notice; for the public no form, for an organizer "New event".
        c.execute("localStorage.removeItem('kifu-token'); return 0;", vec![]).await.unwrap();
        c.goto(&format!("{base}/tournament/brand-new")).await.unwrap();
        wait_for(&c, "document.getElementById('role').textContent.startsWith('spectator')").await;
        assert!(js(&c, "document.getElementById('not-found').textContent").await.as_str().unwrap().contains("brand-new"));
        let hidden = js(&c, "['tab-run', 'run', 'run-new'].map((i) => document.getElementById(i).getClientRects().length === 0)").await;
        assert_eq!(hidden, json!([true, true, true]), "the public is offered no form");
        use_token(&c, &organizer, "organizer olga").await;
        wait_for(&c, "document.getElementById('run-new').getClientRects().length > 0").await;
        assert_eq!(js(&c, "document.getElementById('run-ongoing').getClientRects().length").await, json!(0));
        screenshot(&c, "tournament-new-event").await;
        wait_for(&c, "document.querySelectorAll('#n-game option').length > 0").await;
        fill(&c, "n-name", "Brand new").await;
        click_css(&c, "#run-new button[type=submit]").await;
        wait_for(&c, "document.getElementById('t-name').textContent === 'Brand new' && !document.getElementById('not-found')").await;
        assert_eq!(js(&c, "document.getElementById('run-new').hidden").await, true);
        c.close().await.unwrap();
    });
    drop(cd);
}

async fn click_css(c: &Client, css: &str) {
    c.find(Locator::Css(css)).await.unwrap().click().await.unwrap();
}

/// Issue 34's explanations on the tournament page, on a phone and a desktop: "why?" beside a
/// player in the standings opens each round's pairing explained and each tiebreaker with the
/// opponents it comes from; the round picker narrows it to one round (the standing as it was
/// then); a player's token adds "Why am I paired and ranked here?" for their own.
#[test]
fn browser_explains_pairings_and_tiebreakers() {
    let env = ServerEnv::new();
    let player = env.token(Role::Player, "cup", "player-05");
    let cd = start_chromedriver();
    rt().block_on(async {
        let base = serve_app(env.state.clone()).await;
        let desk = connect(&cd, false).await;
        viewport(&desk, 1400, 900).await;
        let phone = connect(&cd, true).await;
        for (c, size) in [(&phone, "phone"), (&desk, "desktop")] {
            c.goto(&format!("{base}/tournament/cup#standings")).await.unwrap();
            c.execute("localStorage.removeItem('kifu-token')", vec![]).await.unwrap();
            c.refresh().await.unwrap();
            wait_for(c, "document.querySelectorAll('#standings-table button[data-explain]').length === 8").await;
            assert_eq!(js(c, "document.getElementById('explain-me-line').hidden").await, json!(true), "{size}: the public has no own explanation");
            c.find(Locator::Css("#standings-table button[data-explain='player-02']")).await.unwrap().click().await.unwrap();
            wait_for(c, "!document.getElementById('explain').hidden && document.querySelectorAll('#explain-rounds section').length > 0").await;
            let shown = js(c, "({title: document.getElementById('explain-title').textContent, rounds: [...document.querySelectorAll('#explain-rounds section')].map((s) => s.dataset.round), lines: document.querySelectorAll('#explain-rounds li').length, omw: document.querySelectorAll('#explain-standing [data-tiebreaker=\"OMW%\"] tr').length})").await;
            assert_eq!(shown["title"], json!("Why player-02"), "{size}: {shown}");
            // The cup has three Swiss rounds and a top 4; every round the player played is there.
            assert!(shown["rounds"].as_array().unwrap().len() >= 3, "{size}: {shown}");
            assert!(shown["lines"].as_u64().unwrap() >= 3, "{size}: {shown}");
            assert!(shown["omw"].as_u64().unwrap() >= 2, "{size}: a header and an opponent at least: {shown}");
            if size == "phone" {
                assert_no_sideways_scroll(c, "explain on a phone").await;
                let small = js(c, "[...document.querySelectorAll('#explain button, #explain select, #standings-table button.why')].filter((b) => { const r = b.getBoundingClientRect(); return r.height < 44 || r.width < 44; }).map((b) => b.textContent)").await;
                assert_eq!(small, json!([]), "touch targets under 44 px");
            }
            screenshot(c, &format!("tournament-explain-{size}")).await;
            // One round: its pairing, and the standing as it was after it.
            c.execute("const s = document.getElementById('explain-round'); s.value = '1'; s.dispatchEvent(new Event('change'));", vec![]).await.unwrap();
            wait_for(c, "[...document.querySelectorAll('#explain-rounds section')].map((s) => s.dataset.round).join() === '1'").await;
            let h = js(c, "document.querySelector('#explain-standing h3').textContent").await;
            assert!(h.as_str().unwrap().starts_with("Standing after round 1:"), "{size}: {h}");
            // A player's own explanation, from their token.
            use_token(c, &player, "player").await;
            wait_for(c, "!document.getElementById('explain-me-line').hidden").await;
            c.find(Locator::Id("explain-me")).await.unwrap().click().await.unwrap();
            wait_for(c, "document.getElementById('explain-title').textContent === 'Why player-05'").await;
            c.execute("localStorage.removeItem('kifu-token')", vec![]).await.unwrap();
        }
        desk.close().await.unwrap();
        phone.close().await.unwrap();
    });
    drop(cd);
}
