//! The sample catalog, the deck-list format and deck construction (VG-DECK).

use kifu::games::vanguard::catalog::{
    check_deck, format_deck_list, parse_deck_list, Catalog, DeckList, SAMPLE_CATALOG,
};

#[test]
fn the_sample_catalog_loads_and_every_card_is_labelled_invented() {
    let c = Catalog::sample();
    assert!(c.cards.len() >= 30);
    assert_eq!(Catalog::from_json(SAMPLE_CATALOG).unwrap(), c);
    for d in c.cards.values() {
        assert!(d.invented && d.name.contains("(invented)"), "{} must be labelled invented", d.id);
    }
    assert!(SAMPLE_CATALOG.contains("INVENTED"));
}

#[test]
fn the_catalog_rejects_impossible_cards() {
    let bad = r#"{"cards":[{"id":"X","name":"X","kind":"trigger","trigger":"heal","grade":1}]}"#;
    assert!(Catalog::from_json(bad).unwrap_err().to_string().contains("VG-CARD-7"));
    let untriggered = r#"{"cards":[{"id":"X","name":"X","kind":"trigger","grade":0}]}"#;
    assert!(Catalog::from_json(untriggered).is_err());
}

#[test]
fn deck_lists_parse_with_sections_and_line_numbers() {
    let c = Catalog::sample();
    let text = "# a deck\n[main]\n4 TA-01\n4x TA-02\n[g]\n2 TA-G1\n";
    let d = parse_deck_list(text, &c).unwrap();
    assert_eq!((d.main.len(), d.g.len()), (8, 2));
    assert_eq!(parse_deck_list(&format_deck_list(&d), &c).unwrap(), d);
    let errs = parse_deck_list("4 TA-01\nfour TA-02\n1 NOPE\n", &c).unwrap_err();
    let lines: Vec<usize> = errs.iter().map(|e| e.line).collect();
    assert_eq!(lines, vec![2, 3]);
}

fn standard(g: &[&str]) -> DeckList {
    super::alpha_deck(g)
}

#[test]
fn deck_construction_rules_name_their_ids() {
    let c = Catalog::sample();
    assert_eq!(check_deck(&standard(&["TA-G1", "TA-G2"]), &c), vec![]);
    let ids = |d: &DeckList| check_deck(d, &c).iter().map(|v| v.rule).collect::<Vec<_>>();
    let mut d = standard(&[]);
    d.main.push("TA-10".into());
    assert_eq!(ids(&d), vec!["VG-DECK-1", "VG-DECK-2"]);
    let mut d = standard(&[]);
    d.main[1] = "TA-12".into();
    assert_eq!(ids(&d), vec!["VG-DECK-3"]);
    let mut d = standard(&["TA-G1"; 9]);
    d.main[49] = "TA-G1".into();
    assert_eq!(ids(&d), vec!["VG-DECK-6", "VG-DECK-6"]);
    let d = standard(&["TA-10"]);
    assert_eq!(ids(&d), vec!["VG-ZONE-7"]);
}

#[test]
fn policies_round_trip_through_their_keys() {
    crate::game_support::check_policies_round_trip(kifu::games::vanguard::config::POLICIES);
}
