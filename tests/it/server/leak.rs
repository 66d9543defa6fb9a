//! The leak property: for every fixture game, at every sequence number, the spectator's and
//! each player's responses (the board with its last event, and the event list) carry no identity
//! of a card the judge's view shows in a place hidden from them: no instance id at all, and no
//! catalog id except as the label of a card that is public.

use std::collections::HashSet;

use axum::http::StatusCode;
use serde_json::Value;

use kifu::server::tokens::Role;

use super::{fixtures, get, rt, ServerEnv};

pub(super) type Hidden = HashSet<(String, String)>;

fn known(c: &Value) -> Option<(String, String)> {
    let k = c.get("Known")?;
    Some((k["instance"].as_str()?.to_string(), k["card"].as_str()?.to_string()))
}

/// The judge's cards that `view` does not show, zone by zone and group by group.
fn hidden_cards(judge: &[Value], view: &[Value], out: &mut Hidden) {
    if judge.len() != view.len() {
        out.extend(judge.iter().filter_map(known));
        return;
    }
    for (j, v) in judge.iter().zip(view) {
        if let Some(jk) = known(j) {
            if known(v).as_ref() != Some(&jk) {
                out.insert(jk);
            }
        }
    }
}

fn hidden_zones(judge: &Value, view: &Value, out: &mut Hidden) {
    let (jz, vz) = (judge.as_array().unwrap(), view.as_array().unwrap());
    assert_eq!(jz.len(), vz.len(), "every viewer sees the same zones");
    for (j, v) in jz.iter().zip(vz) {
        assert_eq!(j["zone"], v["zone"]);
        hidden_cards(j["cards"].as_array().unwrap(), v["cards"].as_array().unwrap(), out);
        let (jg, vg) = (j["groups"].as_array().unwrap(), v["groups"].as_array().unwrap());
        for (i, g) in jg.iter().enumerate() {
            match vg.get(i) {
                Some(h) => hidden_cards(g["cards"].as_array().unwrap(), h["cards"].as_array().unwrap(), out),
                None => out.extend(g["cards"].as_array().unwrap().iter().filter_map(known)),
            }
        }
    }
}

pub(super) fn hidden(judge: &Value, view: &Value) -> Hidden {
    let mut out = Hidden::new();
    let (js, vs) = (judge["seats"].as_array().unwrap(), view["seats"].as_array().unwrap());
    assert_eq!(js.len(), vs.len());
    for (j, v) in js.iter().zip(vs) {
        hidden_zones(&j["zones"], &v["zones"], &mut out);
    }
    hidden_zones(&judge["shared"], &view["shared"], &mut out);
    out
}

/// Occurrences of `word` in `text` as a whole token (not part of a longer id).
pub(super) fn occurrences(text: &str, word: &str) -> Vec<usize> {
    let is_id = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
    text.match_indices(word)
        .filter(|(i, _)| {
            let before = text[..*i].chars().next_back();
            let after = text[i + word.len()..].chars().next();
            !before.is_some_and(is_id) && !after.is_some_and(is_id)
        })
        .map(|(i, _)| i)
        .collect()
}

/// Fails if `text` names a hidden instance, or a hidden card's catalog id other than as the
/// label `ID NAME (INSTANCE)` of a public instance.
pub(super) fn assert_no_leak(text: &str, hidden: &Hidden, what: &str) {
    let instances: HashSet<&str> = hidden.iter().map(|(i, _)| i.as_str()).collect();
    for (inst, card) in hidden {
        assert!(occurrences(text, inst).is_empty(), "{what}: hidden card {inst} ({card}) is named in {text}");
        for at in occurrences(text, card) {
            let rest = &text[at..];
            let label = rest.find('(').and_then(|o| rest[o + 1..].find(')').map(|c| &rest[o + 1..o + 1 + c]));
            assert!(
                label.is_some_and(|l| !instances.contains(l)),
                "{what}: hidden card id {card} appears outside a public card's label: {text}"
            );
        }
    }
}

/// Removes the cards a viewer is shown face up, keeping everything else of a board response.
pub(super) fn without_known_cards(v: &Value) -> Value {
    match v {
        Value::Object(m) if m.contains_key("Known") => Value::Null,
        Value::Object(m) => Value::Object(m.iter().map(|(k, x)| (k.clone(), without_known_cards(x))).collect()),
        Value::Array(a) => Value::Array(a.iter().map(without_known_cards).collect()),
        other => other.clone(),
    }
}

#[test]
fn no_response_leaks_a_hidden_card() {
    let env = ServerEnv::new();
    let app = env.app();
    let judge = env.token(Role::Judge, "*", "jin");
    rt().block_on(async {
        let games = fixtures();
        assert!(games.len() >= 4, "the fixtures are found: {games:?}");
        for game in &games {
            let (_, sum) = get(&app, &format!("/api/v1/games/{game}"), None).await;
            let len = sum["events"].as_u64().unwrap();
            // Each player's token is for the tournament of the fixture's game, which links it
            // (ServerEnv). A multiplayer game is in no two-player tournament, so its seats are
            // asked for with a judge's token: the board is redacted for the seat all the same.
            let scope = game.split('-').next().unwrap();
            let linked = super::LINKED.contains(&scope);
            let players: Vec<String> =
                sum["players"].as_array().unwrap().iter().map(|p| p.as_str().unwrap().to_string()).collect();
            let mut viewers: Vec<(String, Option<String>)> = vec![("spectator".into(), None)];
            for (seat, p) in players.iter().enumerate() {
                let token = if linked { env.token(Role::Player, scope, p) } else { judge.clone() };
                viewers.push((format!("seat:{seat}"), Some(token)));
            }
            let mut totals = Vec::new();
            for (viewer, token) in &viewers {
                let token = token.as_deref();
                let viewer = viewer.as_str();
                let base = format!("/api/v1/games/{game}");
                let mut hidden_at: Vec<Hidden> = Vec::with_capacity(len as usize + 1);
                for n in 0..=len {
                    let (s, j) = get(&app, &format!("{base}/board?seq={n}&as=judge"), Some(&judge)).await;
                    assert_eq!(s, StatusCode::OK);
                    let (s, v) = get(&app, &format!("{base}/board?seq={n}&as={viewer}"), token).await;
                    assert_eq!(s, StatusCode::OK, "{game} {viewer} {n}");
                    let h = hidden(&j["board"], &v["board"]);
                    let what = format!("{game} as {viewer} at {n}");
                    // The board: once the cards shown face up are taken out, no hidden identity remains.
                    assert_no_leak(&without_known_cards(&v["board"]).to_string(), &h, &what);
                    // Shown face-up cards are never hidden ones (the pairing above) and the last event's
                    // text names no card hidden both before and after it.
                    if n > 0 {
                        let both: Hidden = h.intersection(&hidden_at[n as usize - 1]).cloned().collect();
                        assert_no_leak(&v["last"].to_string(), &both, &what);
                    }
                    hidden_at.push(h);
                }
                // The event list: event s names no card hidden both before (s) and after (s + 1) it.
                let mut entries = Vec::new();
                let mut from = 0;
                loop {
                    let (s, page) =
                        get(&app, &format!("{base}/events?from={from}&limit=1000&as={viewer}"), token).await;
                    assert_eq!(s, StatusCode::OK);
                    entries.extend(page["entries"].as_array().unwrap().iter().cloned());
                    match page["next"].as_u64() {
                        Some(n) => from = n,
                        None => break,
                    }
                }
                assert_eq!(entries.len() as u64, len);
                for e in &entries {
                    let s = e["seq"].as_u64().unwrap() as usize;
                    let both: Hidden = hidden_at[s].intersection(&hidden_at[s + 1]).cloned().collect();
                    assert_no_leak(&e.to_string(), &both, &format!("{game} event {s} as {viewer}"));
                }
                let ever: usize = hidden_at.iter().map(HashSet::len).sum();
                assert!(
                    ever > 0,
                    "{game} as {viewer}: the judge saw cards this viewer did not (the test is not vacuous)"
                );
                totals.push((viewer, ever));
            }
            // A player sees their own hidden cards: over the game they miss fewer than a spectator.
            assert!(totals[1..].iter().all(|t| t.1 < totals[0].1), "{game}: {totals:?}");
        }
    });
}
