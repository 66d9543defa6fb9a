//! The sample catalog, the squad-list format and the skeleton's squad rule (BRK-OPEN-1).

use kifu::game::policy::PolicyTable;
use kifu::game::{Game, NewGame};
use kifu::games::brk::catalog::{check_deck, parse_deck_list, write_deck_list, Catalog, SAMPLE_CATALOG};
use kifu::games::brk::Brk;

#[test]
fn the_sample_catalog_loads_and_every_card_is_labelled_invented() {
    let c = Catalog::sample();
    assert!(c.cards.len() >= 12);
    assert_eq!(Catalog::from_json(SAMPLE_CATALOG).unwrap(), c);
    // The seed names no card, so every card is invented and says so.
    for d in c.cards.values() {
        assert!(d.name.ends_with("(invented)"), "{} must be labelled invented", d.id);
    }
    // The catalog has what the rules need: complex protection, pierces, on-death, restrictions.
    let all: Vec<_> = c.cards.values().collect();
    assert!(all.iter().any(|d| d.protections.iter().any(|p| p.components.len() > 1)));
    assert!(all.iter().flat_map(|d| &d.abilities).any(|a| a.pierces.iter().any(|p| p.component.is_some())));
    assert!(all.iter().flat_map(|d| &d.abilities).any(|a| a.pierces.iter().any(|p| p.component.is_none())));
    assert!(all.iter().flat_map(|d| &d.abilities).any(|a| a.requires.is_some()));
}

#[test]
fn the_catalog_rejects_malformed_and_impossible_cards() {
    assert!(Catalog::from_json("{\"cards\": [").unwrap_err().to_string().contains("not valid JSON"));
    let no_lives = r#"{"cards":[{"id":"X","name":"X","lives":0}]}"#;
    assert!(Catalog::from_json(no_lives).unwrap_err().to_string().contains("lives"));
    let empty_protection =
        r#"{"cards":[{"id":"X","name":"X","lives":2,"protections":[{"name":"p","components":[]}]}]}"#;
    assert!(Catalog::from_json(empty_protection).unwrap_err().to_string().contains("protection"));
    let marker = r#"{"cards":[{"id":"X","name":"X","lives":2,"abilities":[{"name":"m","kind":"marker"}]}]}"#;
    assert!(Catalog::from_json(marker).unwrap_err().to_string().contains("marker"));
    let twice = r#"{"cards":[{"id":"X","name":"X","lives":2},{"id":"X","name":"Y","lives":2}]}"#;
    assert!(Catalog::from_json(twice).unwrap_err().to_string().contains("twice"));
}

#[test]
fn squad_lists_parse_with_line_numbers_and_the_skeleton_checks_size() {
    let c = Catalog::sample();
    let d = parse_deck_list("# squad\n2 BRK-01\n3x BRK-02\n", &c).unwrap();
    assert_eq!(d.cards.len(), 5);
    assert_eq!(parse_deck_list(&write_deck_list(&d), &c).unwrap(), d);
    assert!(check_deck(&d, &c).is_empty());
    let errs = parse_deck_list("2 BRK-01\ntwo BRK-02\n1 NOPE\n", &c).unwrap_err();
    assert_eq!(errs.iter().map(|e| e.line).collect::<Vec<_>>(), vec![2, 3]);
    let small = parse_deck_list("2 BRK-01\n", &c).unwrap();
    assert_eq!(check_deck(&small, &c).iter().map(|v| v.rule).collect::<Vec<_>>(), vec!["BRK-OPEN-1"]);
}

#[test]
fn new_config_takes_policies_and_refuses_bad_ones() {
    let players = vec!["A".to_string(), "B".to_string()];
    let decks = vec!["5 BRK-01\n".to_string(), "5 BRK-03\n".to_string()];
    let policies =
        vec![("stack_order".to_string(), "fifo".to_string()), ("priority".to_string(), "active-first".to_string())];
    let req = NewGame { players: &players, decks: &decks, catalog: None, policies: &policies };
    let c = Brk::new_config(&req).unwrap();
    let pairs = c.policies().to_pairs();
    assert!(pairs.contains(&("stack_order", "fifo".to_string())));
    assert!(pairs.contains(&("priority", "active-first".to_string())));
    let bad = vec![("stack_order".to_string(), "random".to_string())];
    let err =
        Brk::new_config(&NewGame { players: &players, decks: &decks, catalog: None, policies: &bad }).unwrap_err();
    assert!(err[0].to_string().contains("lifo|fifo"), "{err:?}");
    let bad_deck = vec!["5 BRK-01\n".to_string(), "x BRK-03\n".to_string()];
    let err =
        Brk::new_config(&NewGame { players: &players, decks: &bad_deck, catalog: None, policies: &[] }).unwrap_err();
    assert!(err[0].to_string().contains("deck 2: line 1"), "{err:?}");
}

#[test]
fn policies_round_trip_through_their_keys() {
    crate::game_support::check_policies_round_trip(kifu::games::brk::config::POLICIES);
}
