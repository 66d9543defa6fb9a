//! Sealed choices on the players' own pages (issue 30, item 2): two players, each in a headless
//! Chromium session of their own, record a whole BRK game on `/replay/GAME`. Each deploys its
//! squad on the page, placing every card and turning the agent's hidden ones face down: the page
//! seals them with salts it draws and keeps, and later opens each seal when the reveal option is
//! tapped, with no hash shown and none typed. The log equals the agent's game but for the seals'
//! salts, verifies, and audits clean. Two Masters record a digital-dice FATE game the same way:
//! each page commits to its dice chain and reveals every link by a tap. The page's BLAKE3
//! (seal.js) equals the Rust crate's on the hashes kifu specifies. And every secret parameter any
//! game offers says what its secret is.

use std::collections::BTreeMap;

use axum::http::StatusCode;
use fantoccini::Client;
use serde_json::{json, Value};

use kifu::game::commit::{commit_seed, hash_chain, seal, seal_choice, Commitment};
use kifu::game::common::CommonEvent;
use kifu::game::{record, Game, GameEntry};
use kifu::games::brk::events::{BrkEvent, CardRef};
use kifu::games::brk::state::BrkState;
use kifu::games::brk::Brk;
use kifu::games::fate::{Fate, FateEvent};
use kifu::log::envelope::{MatchBinding, MatchPlace, StreamId, Timestamp};
use kifu::server::tokens::Role;

use super::browser::{
    assert_no_sideways_scroll, axe_check, axe_source, connect, js, screenshot, serve_app, start_chromedriver,
    use_token, wait_for,
};
use super::five_games::{option_for, recordable};
use super::table_page::{grown, open_option, quoted, tap, tap_values};
use super::{get, open_match_of, rt, ServerEnv};

/// The record panel never shows a hash (64 hex digits) to the player.
async fn assert_no_hash_shown(c: &Client, at: &str) {
    let shown = js(c, "/[0-9a-f]{64}/i.test(document.getElementById('record').innerText)").await;
    assert_eq!(shown, json!(false), "the record panel shows a hash at {at}");
}

/// The page's BLAKE3 against the Rust crate's: plain hashes over one and many blocks, and the
/// sealed card, seed commitment, sealed choice and hash chain of `kifu::game::commit`.
async fn assert_blake3_matches(c: &Client) {
    for len in [0usize, 1, 63, 64, 65, 128, 200, 1024] {
        let bytes: Vec<u8> = (0..len).map(|i| (i % 251) as u8).collect();
        let want = blake3::hash(&bytes).to_hex().to_string();
        let got = js(
            c,
            &format!("(() => {{ const b = kifuSeal.blake3; const a = new Uint8Array({len}).map((_, i) => i % 251); return b.hex(b.hash(a)); }})()"),
        )
        .await;
        assert_eq!(got, json!(want), "BLAKE3 of {len} bytes");
    }
    let salt = Commitment([7; 32]);
    let long_card = "p1-".to_string() + &"x".repeat(150);
    for card in ["p0-3", long_card.as_str()] {
        let got = js(
            c,
            &format!(
                "kifuSeal.blake3.hex(kifuSeal.seal({}, kifuSeal.blake3.unhex({})))",
                json!(card),
                json!(salt.to_hex())
            ),
        )
        .await;
        assert_eq!(got, json!(seal(card, &salt).to_hex()), "sealed card {card}");
    }
    let got =
        js(c, &format!("kifuSeal.blake3.hex(kifuSeal.commitSeed(kifuSeal.blake3.unhex({})))", json!(salt.to_hex())))
            .await;
    assert_eq!(got, json!(commit_seed(&salt).to_hex()), "seed commitment");
    let got = js(
        c,
        &format!(
            "kifuSeal.blake3.hex(kifuSeal.sealChoice('round 3 bid', 'seven', kifuSeal.blake3.unhex({})))",
            json!(salt.to_hex())
        ),
    )
    .await;
    assert_eq!(got, json!(seal_choice("round 3 bid", "seven", &salt).to_hex()), "sealed choice");
    let chain = hash_chain(&salt, 40);
    for i in [0usize, 1, 39, 40] {
        let got = js(
            c,
            &format!("kifuSeal.blake3.hex(kifuSeal.chainLink(kifuSeal.blake3.unhex({}), {i}))", json!(salt.to_hex())),
        )
        .await;
        assert_eq!(got, json!(chain[i].to_hex()), "hash chain link {i}");
    }
}

/// The card each sealed deployment of the agent's game hides: the one its reveal names, or, for
/// a seal never opened, a squad card no other deployment names (its identity never matters).
pub(super) fn sealed_cards(state: &<Brk as Game>::State, events: &[BrkEvent]) -> BTreeMap<Commitment, String> {
    let mut out = BTreeMap::new();
    let opened: Vec<(Commitment, String)> = events
        .iter()
        .filter_map(|e| match e {
            BrkEvent::CardRevealed { proof: Some(p), .. } => Some((seal(&p.instance, &p.salt), p.instance.clone())),
            _ => None,
        })
        .collect();
    for e in events {
        let BrkEvent::SquadDeployed { seat, cards } = e else { continue };
        let named: Vec<String> = cards
            .iter()
            .filter_map(|d| if let CardRef::Open(i) = &d.card { Some(i.clone()) } else { None })
            .chain(opened.iter().map(|(_, i)| i.clone()))
            .collect();
        let mut spare = state.squad(*seat).into_iter().filter(|i| !named.contains(i));
        for d in cards {
            if let CardRef::Sealed(c) = &d.card {
                let card = opened.iter().find(|(x, _)| x == c).map(|(_, i)| i.clone()).or_else(|| spare.next());
                out.insert(*c, card.expect("a squad card for every seal"));
            }
        }
    }
    out
}

/// The agent's game as a page deploys it: a page sends a squad in cell order (BRK numbers the
/// pieces by it: A1 is the first), the agent in its own, so each deployment is put in cell order
/// and every piece id renamed to match (piece ids are the only strings like `A3` in the events).
pub(super) fn in_cell_order(events: &[BrkEvent]) -> Vec<BrkEvent> {
    let mut rename: BTreeMap<String, String> = BTreeMap::new();
    for e in events {
        if let BrkEvent::SquadDeployed { seat, cards } = e {
            let mut order: Vec<usize> = (0..cards.len()).collect();
            order.sort_by_key(|&i| (cards[i].cell.row, cards[i].cell.col));
            for (new, &old) in order.iter().enumerate() {
                rename.insert(BrkState::piece_id(*seat, old), BrkState::piece_id(*seat, new));
            }
        }
    }
    fn walk(v: &mut Value, rename: &BTreeMap<String, String>) {
        match v {
            Value::String(s) => {
                if let Some(n) = rename.get(s.as_str()) {
                    *s = n.clone();
                }
            }
            Value::Array(a) => a.iter_mut().for_each(|x| walk(x, rename)),
            Value::Object(o) => o.values_mut().for_each(|x| walk(x, rename)),
            _ => {}
        }
    }
    events
        .iter()
        .map(|e| match e {
            BrkEvent::SquadDeployed { seat, cards } => {
                let mut cards = cards.clone();
                cards.sort_by_key(|d| (d.cell.row, d.cell.col));
                BrkEvent::SquadDeployed { seat: *seat, cards }
            }
            e => {
                let mut v = serde_json::to_value(e).unwrap();
                walk(&mut v, &rename);
                serde_json::from_value(v).unwrap()
            }
        })
        .collect()
}

/// The agent's event and the log's are the same play: the same cells and faces, the same cards
/// revealed, everything else equal; only the seals and their salts are the pages' own.
pub(super) fn same_play(agent: &BrkEvent, logged: &BrkEvent) -> bool {
    match (agent, logged) {
        (BrkEvent::SquadDeployed { seat: a, cards: x }, BrkEvent::SquadDeployed { seat: b, cards: y }) => {
            a == b
                && x.len() == y.len()
                && x.iter().zip(y).all(|(p, q)| {
                    p.cell == q.cell
                        && p.hidden == q.hidden
                        && match (&p.card, &q.card) {
                            (CardRef::Sealed(_), CardRef::Sealed(_)) => true,
                            (p, q) => p == q,
                        }
                })
        }
        (
            BrkEvent::CardRevealed { seat: a, piece: p, reason: r, proof: Some(x) },
            BrkEvent::CardRevealed { seat: b, piece: q, reason: s, proof: Some(y) },
        ) => a == b && p == q && r == s && x.instance == y.instance,
        (a, b) => a == b,
    }
}

#[test]
fn browser_pages_seal_a_brk_deployment_and_open_the_seals_themselves() {
    let env = ServerEnv::new();
    let cd = start_chromedriver();
    let store = env.state.store().clone();
    let tid = "brk-seals";
    let players: Vec<String> = ["ana", "rui"].iter().map(|s| s.to_string()).collect();
    open_match_of(&*store, tid, "brk", &players);
    let (config, events) = recordable::<Brk>(&players);
    let events = in_cell_order(&events);
    let stream = StreamId::new(&format!("{tid}-r1-g1")).unwrap();
    let bound = MatchBinding { tournament: StreamId::new(tid).unwrap(), round: 1, place: MatchPlace::Table(1) };
    record::create_bound::<Brk>(&*store, &stream, &config, Timestamp(1_767_225_600_000_000), Some(bound)).unwrap();
    let tokens: Vec<String> = players.iter().map(|p| env.token(Role::Player, tid, p)).collect();
    let judge = env.token(Role::Judge, tid, "jin");
    let hidden = sealed_cards(&Brk::setup(&config).unwrap(), &events);
    assert!(!hidden.is_empty(), "the agent's game hides cards");
    rt().block_on(async {
        let base = serve_app(env.state.clone()).await;
        let url = format!("{base}/replay/{stream}");
        let sessions = vec![connect(&cd, true).await, connect(&cd, false).await];
        for (seat, c) in sessions.iter().enumerate() {
            c.goto(&url).await.unwrap();
            use_token(c, &tokens[seat], &format!("player {}", players[seat])).await;
            wait_for(c, "!document.getElementById('record').hidden").await;
            wait_for(c, &format!("document.getElementById('board').dataset.viewer === 'seat:{seat}'")).await;
        }
        assert_blake3_matches(&sessions[0]).await;
        let mut state = Brk::setup(&config).unwrap();
        let (mut len, mut played, mut opened) = (0u64, 0usize, 0usize);
        let (axe, mut axe_found) = (axe_source(), Vec::new());
        while played < events.len() {
            let event = &events[played];
            let (id, seat, params) = option_for::<Brk>(&state, len, event);
            let c = &sessions[usize::from(seat)];
            let button = format!("[data-option={}]", quoted(&id));
            wait_for(c, &format!("document.querySelector({})", json!(button))).await;
            assert_no_hash_shown(c, &format!("event {played}")).await;
            match event {
                BrkEvent::SquadDeployed { .. } | BrkEvent::CardRevealed { proof: Some(_), .. } => tap(c, &button).await,
                _ => open_option(c, &id, &params).await,
            }
            match event {
                BrkEvent::SquadDeployed { cards, .. } => {
                    // Each card on the agent's cell, face down where the agent hid it.
                    for d in cards {
                        let card = match &d.card {
                            CardRef::Open(i) => i.clone(),
                            CardRef::Sealed(s) => hidden[s].clone(),
                        };
                        let select = format!("select[data-card={}]", quoted(&card));
                        wait_for(c, &format!("document.querySelector({})", json!(select))).await;
                        js(
                            c,
                            &format!(
                                "(() => {{ const s = document.querySelector({}); s.value = {}; s.dispatchEvent(new Event('change')); return true; }})()",
                                json!(select),
                                json!(d.cell.name())
                            ),
                        )
                        .await;
                        if d.hidden {
                            tap(c, &format!("button[data-card={}][data-face=up]", quoted(&card))).await;
                        }
                    }
                    assert_no_hash_shown(c, "the deployment").await;
                    screenshot(c, if seat == 0 { "seals-phone-deploy" } else { "seals-desktop-deploy" }).await;
                    if seat == 0 {
                        // The phone's placement: thumb-sized, nothing sideways, no serious
                        // accessibility violation.
                        let small = js(
                            c,
                            "[...document.querySelectorAll('#record button, #record select')].filter((b) => b.offsetParent).map((b) => b.getBoundingClientRect()).filter((r) => r.width < 44 || r.height < 44).map((r) => [r.width, r.height])",
                        )
                        .await;
                        assert_eq!(small, json!([]), "touch targets under 44 px in the placement");
                        assert_no_sideways_scroll(c, "the phone's placement").await;
                        axe_check(c, &axe, "the placement of a sealed deployment", &mut axe_found).await;
                    }
                    tap(c, &format!("button.primary{button}")).await;
                }
                BrkEvent::CardRevealed { proof: Some(_), .. } => opened += 1,
                _ => {
                    if js(c, "!!document.querySelector('[data-confirm]')").await == json!(true) {
                        tap(c, &format!("[data-confirm][data-option={}]", quoted(&id))).await;
                    }
                    tap_values(c, &id, &params).await;
                }
            }
            let now = grown(&*store, &stream, len).await;
            let loaded = record::load::<Brk>(&*store, &stream).unwrap();
            let logged: Vec<BrkEvent> = loaded
                .steps
                .iter()
                .filter_map(|s| if let GameEntry::Played(e) = &s.entry { Some(e.clone()) } else { None })
                .collect();
            for (k, e) in logged.iter().enumerate().take(now as usize).skip(len as usize) {
                assert!(same_play(&events[k], e), "event {k}: the page recorded {e:?}, the agent played {:?}", events[k]);
                Brk::ledger_mut(&mut state).at(len);
                state = Brk::apply(state, e);
                len += 1;
                played += 1;
            }
        }
        assert!(opened > 0, "a page opened a seal it made");
        assert!(axe_found.is_empty(), "accessibility violations in the placement: {axe_found:#?}");
        // What a page kept is its own: the revealed seals are forgotten, the others still kept.
        let kept = js(&sessions[0], &format!("localStorage.getItem('kifu-seal:{stream}:0')")).await;
        assert!(kept.as_str().is_some_and(|k| k.contains("seals")), "seat 0's page keeps its seals: {kept}");
        for c in sessions {
            c.close().await.unwrap();
        }
        let app = env.app();
        let (st, verify) = get(&app, &format!("/api/v1/games/{stream}/verify"), None).await;
        assert_eq!(st, StatusCode::OK, "{verify}");
        let (st, audit) = get(&app, &format!("/api/v1/games/{stream}/audit"), Some(&judge)).await;
        assert_eq!(st, StatusCode::OK, "{audit}");
        assert_eq!(audit["findings"], json!([]), "{audit}");
    });
}

/// Every secret parameter `G` offers along its self-played games of `seeds`, with whether each
/// says what its secret is; the number of secret parameters seen.
fn secret_params_carry_a_form<G: Game>(players: usize, seeds: std::ops::Range<u64>) -> usize {
    use kifu::game::options::ParamKind;
    let names: Vec<String> = ["ana", "rui", "kai", "mei"][..players].iter().map(|s| s.to_string()).collect();
    let mut seen = 0;
    for seed in seeds {
        let game = kifu::game::selfplay::self_play::<G>(seed, &names, 5_000).unwrap();
        let mut state = G::setup(&game.config).unwrap();
        for (n, (_, entry)) in game.entries.iter().enumerate() {
            for seat in 0..u8::try_from(players).unwrap() {
                for o in G::options(&state, seat).unwrap_or_default() {
                    let Some(p) = o.param() else { continue };
                    assert_eq!(
                        p.kind == ParamKind::Secret,
                        p.secret.is_some(),
                        "{} seed {seed} event {n}: {:?} ({}) and its form",
                        G::RULESET,
                        o.label,
                        p.name
                    );
                    seen += usize::from(p.secret.is_some());
                }
            }
            if let GameEntry::Played(e) = entry {
                G::ledger_mut(&mut state).at(n as u64);
                state = G::apply(state, e);
            }
        }
    }
    seen
}

#[test]
fn every_secret_parameter_of_every_game_says_what_its_secret_is() {
    use kifu::games::{lc::Lc, naruto::Naruto, naruto::NarutoV2, vanguard::Vanguard};
    assert!(secret_params_carry_a_form::<Brk>(2, 0..4) > 0, "BRK offers sealed deployments and reveals");
    assert!(secret_params_carry_a_form::<Fate>(2, 0..8) > 0, "FATE's digital dice offer chains");
    secret_params_carry_a_form::<Naruto>(2, 0..8);
    secret_params_carry_a_form::<NarutoV2>(2, 0..8);
    secret_params_carry_a_form::<Lc>(2, 0..4);
    secret_params_carry_a_form::<Vanguard>(2, 0..4);
}

/// The first self-played FATE game of two Masters with digital dice that a table can record
/// through options alone, in which both Masters reveal links of their dice chains.
fn digital_dice_game(players: &[String]) -> (<Fate as Game>::Config, Vec<FateEvent>) {
    use kifu::game::reach::{dealer_of, reach};
    use kifu::games::fate::config::DiceMode;
    for seed in 0..300 {
        let game = kifu::game::selfplay::self_play::<Fate>(seed, players, 5_000).unwrap();
        if game.config.policies().dice != DiceMode::Digital {
            continue;
        }
        let events: Vec<FateEvent> = game
            .entries
            .into_iter()
            .filter_map(|(_, e)| if let GameEntry::Played(e) = e { Some(e) } else { None })
            .collect();
        let both_link = (0..2).all(|s| !chain_links(&events, s).is_empty());
        let replay = crate::options::replay_of::<Fate>(&game.config, &events);
        let r = reach(&replay);
        if both_link
            && Fate::outcome(&replay.tip().game).is_some()
            && dealer_of(&replay).is_none()
            && r.unreachable.is_empty()
            && r.as_events.is_empty()
        {
            return (game.config, events);
        }
    }
    panic!("no recordable digital-dice FATE game of two Masters in 300 seeds");
}

/// The dice-chain links `seat` revealed in `events`, in order.
pub(super) fn chain_links(events: &[FateEvent], seat: u8) -> Vec<Commitment> {
    events
        .iter()
        .filter_map(|e| match e {
            FateEvent::Common(CommonEvent::ChainLinkRevealed { seat: s, link, .. }) if *s == seat => Some(*link),
            _ => None,
        })
        .collect()
}

/// Two Masters record a digital-dice FATE game on their pages: each page commits to its dice
/// chain and reveals each link by a tap. So that the rolls are the agent's, each page's storage
/// is given, before the game, the last link the agent's chain reveals as its secret (the chain
/// of the remaining links): the page hashes its way to the agent's tip and links by itself, and
/// the log equals the agent's game event for event.
#[test]
fn browser_pages_commit_and_reveal_digital_dice_chains() {
    let env = ServerEnv::new();
    let cd = start_chromedriver();
    let store = env.state.store().clone();
    let tid = "fate-dice";
    let players: Vec<String> = ["ana", "rui"].iter().map(|s| s.to_string()).collect();
    open_match_of(&*store, tid, "fate", &players);
    let (config, events) = digital_dice_game(&players);
    let stream = StreamId::new(&format!("{tid}-r1-g1")).unwrap();
    let bound = MatchBinding { tournament: StreamId::new(tid).unwrap(), round: 1, place: MatchPlace::Table(1) };
    record::create_bound::<Fate>(&*store, &stream, &config, Timestamp(1_767_225_600_000_000), Some(bound)).unwrap();
    let tokens: Vec<String> = players.iter().map(|p| env.token(Role::Player, tid, p)).collect();
    let judge = env.token(Role::Judge, tid, "jin");
    rt().block_on(async {
        let base = serve_app(env.state.clone()).await;
        let url = format!("{base}/replay/{stream}");
        let sessions = vec![connect(&cd, true).await, connect(&cd, false).await];
        for (seat, c) in sessions.iter().enumerate() {
            c.goto(&url).await.unwrap();
            let links = chain_links(&events, seat as u8);
            let kept =
                json!({ "chains": { "dice": { "secret": links[links.len() - 1].to_hex(), "length": links.len() } } });
            let key = format!("kifu-seal:{stream}:{seat}");
            js(c, &format!("(localStorage.setItem({}, {}), true)", json!(key), json!(kept.to_string()))).await;
            use_token(c, &tokens[seat], &format!("player {}", players[seat])).await;
            wait_for(c, "!document.getElementById('record').hidden").await;
            wait_for(c, &format!("document.getElementById('board').dataset.viewer === 'seat:{seat}'")).await;
        }
        let mut state = Fate::setup(&config).unwrap();
        let (mut len, mut played, mut links) = (0u64, 0usize, 0usize);
        while played < events.len() {
            let event = &events[played];
            let (id, seat, params) = option_for::<Fate>(&state, len, event);
            let c = &sessions[usize::from(seat)];
            let button = format!("[data-option={}]", quoted(&id));
            wait_for(c, &format!("document.querySelector({})", json!(button))).await;
            assert_no_hash_shown(c, &format!("event {played}")).await;
            let chained = matches!(
                event,
                FateEvent::Common(CommonEvent::ChainLinkRevealed { .. } | CommonEvent::ChainCommitted { .. })
            );
            if chained {
                tap(c, &button).await;
            } else {
                open_option(c, &id, &params).await;
            }
            if matches!(event, FateEvent::Common(CommonEvent::ChainLinkRevealed { .. })) {
                links += 1;
            } else if !matches!(event, FateEvent::Common(CommonEvent::ChainCommitted { .. })) {
                if js(c, "!!document.querySelector('[data-confirm]')").await == json!(true) {
                    tap(c, &format!("[data-confirm][data-option={}]", quoted(&id))).await;
                }
                tap_values(c, &id, &params).await;
            }
            let now = grown(&*store, &stream, len).await;
            for e in &events[played..played + (now - len) as usize] {
                Fate::ledger_mut(&mut state).at(len);
                state = Fate::apply(state, e);
                len += 1;
                played += 1;
            }
        }
        assert!(links >= 2, "both pages revealed links");
        for c in sessions {
            c.close().await.unwrap();
        }
        let loaded = record::load::<Fate>(&*store, &stream).unwrap();
        let got: Vec<FateEvent> = loaded
            .steps
            .iter()
            .filter_map(|s| if let GameEntry::Played(e) = &s.entry { Some(e.clone()) } else { None })
            .collect();
        assert!(got == events, "the log's events differ from the agent's game");
        let app = env.app();
        let (st, verify) = get(&app, &format!("/api/v1/games/{stream}/verify"), None).await;
        assert_eq!(st, StatusCode::OK, "{verify}");
        let (st, audit) = get(&app, &format!("/api/v1/games/{stream}/audit"), Some(&judge)).await;
        assert_eq!(st, StatusCode::OK, "{audit}");
        assert_eq!(audit["findings"], json!([]), "{audit}");
    });
}
