//! The sample catalog, the deck-list format, the deck checks, policies, and malformed input
//! refused with a clear message.

use kifu::game::{Game, NewGame};
use kifu::games::lc::catalog::{check_deck, format_deck_list, parse_deck_list, Catalog, SAMPLE_CATALOG};
use kifu::games::lc::config::POLICIES;
use kifu::games::lc::Lc;

#[test]
fn the_sample_catalog_loads_and_every_card_is_labelled_invented() {
    let c = Catalog::sample();
    assert!(c.cards.len() >= 15);
    assert_eq!(Catalog::from_json(SAMPLE_CATALOG).unwrap(), c);
    // The seed names no card, so every sample card is invented and says so.
    for d in c.cards.values() {
        assert!(d.invented && d.name.contains("(invented)"), "{} must be labelled invented", d.id);
    }
}

#[test]
fn the_catalog_rejects_malformed_cards() {
    let valued_strategy = r#"{"cards":[{"id":"X","name":"X","kind":"strategy","sword":3}]}"#;
    assert!(Catalog::from_json(valued_strategy).unwrap_err().to_string().contains("LC-CARD-1"));
    let huge = r#"{"cards":[{"id":"X","name":"X","kind":"combat","sword":1000}]}"#;
    assert!(Catalog::from_json(huge).unwrap_err().to_string().contains("out of range"));
    let unlabelled = r#"{"cards":[{"id":"X","name":"X","kind":"combat","invented":true}]}"#;
    assert!(Catalog::from_json(unlabelled).unwrap_err().to_string().contains("(invented)"));
    let kind = r#"{"cards":[{"id":"X","name":"X","kind":"spell"}]}"#;
    assert!(Catalog::from_json(kind).unwrap_err().to_string().contains("not valid JSON of the documented shape"));
    let twice = r#"{"cards":[{"id":"X","name":"X","kind":"combat"},{"id":"X","name":"Y","kind":"combat"}]}"#;
    assert!(Catalog::from_json(twice).unwrap_err().to_string().contains("twice"));
}

#[test]
fn deck_lists_parse_with_line_numbers() {
    let c = Catalog::sample();
    let text = "# knights\n4 LC-C01\n2x LC-E01   # spears\n";
    let d = parse_deck_list(text, &c).unwrap();
    assert_eq!(d.len(), 6);
    assert_eq!(parse_deck_list(&format_deck_list(&d), &c).unwrap(), d);
    let errs = parse_deck_list("4 LC-C01\nfour LC-C02\n1 NOPE\n", &c).unwrap_err();
    let lines: Vec<usize> = errs.iter().map(|e| e.line).collect();
    assert_eq!(lines, vec![2, 3]);
    assert_eq!(check_deck(&d, &c), vec![]);
    assert_eq!(check_deck(&d[..3], &c).iter().map(|v| v.rule).collect::<Vec<_>>(), vec!["LC-REFILL-1"]);
}

fn request<'a>(players: &'a [String], decks: &'a [String], policies: &'a [(String, String)]) -> NewGame<'a> {
    NewGame { players, decks, catalog: None, policies }
}

#[test]
fn new_games_take_policies_and_refuse_bad_ones() {
    let players = vec!["Ana".to_string(), "Rui".to_string()];
    let decks = vec!["10 LC-C01\n".to_string(), "10 LC-C07\n".to_string()];
    let ok = vec![("slots".to_string(), "3".to_string()), ("sword_tie".to_string(), "both-destroyed".to_string())];
    let config = Lc::new_config(&request(&players, &decks, &ok)).unwrap();
    assert_eq!(config.policies().slots, 3);
    assert!(config.policies().sword_tie_destroys_both);
    assert!(Lc::setup(&config).is_ok());
    for (k, v, want) in
        [("slots", "11", "does not accept"), ("ties", "x", "unknown policy"), ("round", "three", "does not accept")]
    {
        let bad = vec![(k.to_string(), v.to_string())];
        let err = Lc::new_config(&request(&players, &decks, &bad)).unwrap_err();
        assert!(err[0].to_string().contains(want), "{k}={v}: {err:?}");
    }
    let short = vec!["10 LC-C01\n".to_string(), "2 LC-C07\nx\n".to_string()];
    let err = Lc::new_config(&request(&players, &short, &[])).unwrap_err();
    assert!(err.iter().any(|e| e.to_string().contains("deck 2: line 2")), "{err:?}");
    // Every OPEN point that changes legality has a policy key.
    for open in [
        "LC-OPEN-1",
        "LC-OPEN-2",
        "LC-OPEN-3",
        "LC-OPEN-5",
        "LC-OPEN-7",
        "LC-OPEN-8",
        "LC-OPEN-9",
        "LC-OPEN-10",
        "LC-OPEN-11",
        "LC-OPEN-12",
        "LC-OPEN-13",
        "LC-OPEN-14",
    ] {
        assert!(POLICIES.iter().any(|r| r.open == open), "{open} has no policy");
    }
}

#[test]
fn the_readme_decks_register() {
    let c = Catalog::sample();
    for name in ["lc-ana", "lc-rui"] {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("replays/decks/{name}.deck"));
        let text = std::fs::read_to_string(&path).unwrap();
        let deck = parse_deck_list(&text, &c).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        assert_eq!(check_deck(&deck, &c), vec![], "{name}");
    }
}
