//! The FATE catalog and deck-list formats: the sample catalog parses and labels invented cards;
//! malformed catalogs and deck lists are refused with line numbers, and nothing is created.

use kifu::game::{Game, NewGame};
use kifu::games::fate::catalog::{self, CardType, Catalog, Cost};
use kifu::games::fate::Fate;

#[test]
fn the_sample_catalog_parses_and_labels_every_invented_card() {
    let cat = Catalog::from_json(catalog::SAMPLE_CATALOG).unwrap();
    assert!(cat.cards.len() >= 15);
    for kind in [CardType::HeroicSpirit, CardType::Class, CardType::SecretSign] {
        assert!(cat.cards.values().any(|c| c.kind == kind), "no {kind:?} card");
    }
    for c in cat.cards.values() {
        assert!(!c.invented || c.name.contains("(invented)"), "{} is invented but not labelled", c.id);
    }
    assert!(cat.cards.values().any(|c| c.effects.iter().any(|e| e.name == "Substitute Battle")));
    assert!(cat.cards.values().any(|c| c.preemptive()));
}

#[test]
fn costs_parse_in_the_seed_notation() {
    assert_eq!(Cost::parse("T"), Ok(Cost::Tap));
    assert_eq!(Cost::parse("R2"), Ok(Cost::Rest(2)));
    assert_eq!(Cost::parse("D1,2"), Ok(Cost::Die(vec![1, 2])));
    assert_eq!(Cost::parse("E1"), Ok(Cost::Discard(1)));
    assert_eq!(Cost::parse("X"), Ok(Cost::X));
    assert!(Cost::parse("D7").is_err());
    assert!(Cost::parse("Q").is_err());
}

#[test]
fn malformed_catalogs_are_refused_with_a_clear_message() {
    let bad_cost = r#"{"cards":[{"id":"A","name":"A (invented)","type":"class","invented":true,
        "effects":[{"name":"e","kind":"activated","cost":["D9"]}]}]}"#;
    assert!(Catalog::from_json(bad_cost).unwrap_err().to_string().contains("die faces"));
    let unlabelled = r#"{"cards":[{"id":"A","name":"Plain","type":"class","invented":true}]}"#;
    assert!(Catalog::from_json(unlabelled).unwrap_err().to_string().contains("(invented)"));
    let bad_type = r#"{"cards":[{"id":"A","name":"A","type":"wizard"}]}"#;
    assert!(Catalog::from_json(bad_type).unwrap_err().to_string().contains("documented shape"));
}

#[test]
fn deck_lists_report_every_bad_line_with_its_number() {
    let cat = Catalog::sample();
    let errors = catalog::parse_deck_list("1 HS01\n1 CL01\nfour SS01\n2 NOPE\n", &cat).unwrap_err();
    let lines: Vec<usize> = errors.iter().map(|e| e.line).collect();
    assert_eq!(lines, vec![3, 4]);
    let deck = catalog::parse_deck_list("# a deck\n1 HS01\n1 CL01 # the class\n18x SS01\n", &cat).unwrap();
    assert_eq!(deck.len(), 20);
    assert_eq!(catalog::check_deck(&deck, &cat), vec![]);
    assert_eq!(catalog::format_deck_list(&deck[..2]), "1 HS01\n1 CL01\n");
}

#[test]
fn a_new_game_needs_three_to_six_masters_and_legal_decks() {
    let players: Vec<String> = ["a", "b", "c"].iter().map(|s| s.to_string()).collect();
    let deck = "1 HS01\n1 CL01\n18 SS01\n".to_string();
    let decks = vec![deck.clone(), deck.clone(), deck.clone()];
    let ok = Fate::new_config(&NewGame { players: &players, decks: &decks, catalog: None, policies: &[] });
    assert!(ok.is_ok());
    let two = &players[..2];
    let err =
        Fate::new_config(&NewGame { players: two, decks: &decks[..2], catalog: None, policies: &[] }).unwrap_err();
    assert!(err[0].to_string().contains("FATE-PHASE-1"), "{err:?}");
    let variant = vec![("masters".to_string(), "2-6".to_string())];
    assert!(Fate::new_config(&NewGame { players: two, decks: &decks[..2], catalog: None, policies: &variant }).is_ok());
    let no_class = vec!["1 HS01\n19 SS01\n".to_string(), deck.clone(), deck];
    let err =
        Fate::new_config(&NewGame { players: &players, decks: &no_class, catalog: None, policies: &[] }).unwrap_err();
    assert!(err.iter().any(|e| e.to_string().contains("FATE-OPEN-2")), "{err:?}");
    let bad_policy = vec![("turn_order".to_string(), "r3".to_string())];
    let decks3 = vec!["1 HS01\n1 CL01\n18 SS01\n".to_string(); 3];
    let err = Fate::new_config(&NewGame { players: &players, decks: &decks3, catalog: None, policies: &bad_policy })
        .unwrap_err();
    assert!(err[0].to_string().contains("r2|r1"), "{err:?}");
}
