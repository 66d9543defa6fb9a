//! The card file format, the sample catalog, deck lists, policies and the stored formats.

use kifu::game::{AgentRng, Game};
use kifu::games::naruto::catalog::{check_deck, format_deck_list, parse_deck_list, CardType, Catalog, SAMPLE_CATALOG};
use kifu::games::naruto::config::POLICIES;
use kifu::games::naruto::{Naruto, NarutoConfig, NarutoEvent};
use rand::SeedableRng;

#[test]
fn sample_catalog_has_only_two_real_cards() {
    let catalog = Catalog::from_json(SAMPLE_CATALOG).unwrap_or_else(|e| panic!("{e}"));
    let iruka = catalog.get("N008").unwrap_or_else(|| panic!("N008 missing"));
    assert_eq!(
        (iruka.name.as_str(), iruka.kind, iruka.entry_cost, iruka.invented),
        ("Iruka", CardType::Ninja, 2, false)
    );
    let headband = catalog.get("M003").unwrap_or_else(|| panic!("M003 missing"));
    assert_eq!(
        (headband.name.as_str(), headband.kind, headband.entry_cost, headband.elements.clone(), headband.invented),
        ("Leaf Headband", CardType::Mission, 2, vec!["Lightning".to_string()], false)
    );
    for c in catalog.cards.values().filter(|c| c.id != "N008" && c.id != "M003") {
        assert!(c.invented && c.name.contains("(invented)"), "{} must be labelled invented", c.id);
    }
}

#[test]
fn sample_catalog_is_varied() {
    let catalog = Catalog::sample();
    let ninja: Vec<_> = catalog.cards.values().filter(|c| c.kind == CardType::Ninja).collect();
    let elements: std::collections::BTreeSet<&String> = ninja.iter().flat_map(|c| &c.elements).collect();
    assert!(elements.len() >= 3);
    for cost in 0..=3 {
        assert!(ninja.iter().any(|c| c.entry_cost == cost), "no ninja with entry cost {cost}");
    }
    assert!(ninja.iter().any(|c| c.combined));
    assert!(ninja.iter().any(|c| c.has_ambush()));
    assert!(catalog.cards.values().any(|c| c.kind == CardType::Mission && c.permanent));
    assert!(catalog.cards.values().any(|c| c.kind == CardType::Jutsu));
    assert!(catalog.cards.values().any(|c| c.kind == CardType::Client));
}

#[test]
fn deck_lists_parse_with_comments_and_report_line_numbers() {
    let catalog = Catalog::sample();
    let deck =
        parse_deck_list("# my deck\n3 N008   # Iruka\n\n2x M003\n", &catalog).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(deck, vec!["N008", "N008", "N008", "M003", "M003"]);
    assert_eq!(format_deck_list(&deck), "3 N008\n2 M003\n");
    let errors = parse_deck_list("3 N008\nthree N008\n1 NOPE\n2 N008 extra\n", &catalog).err().unwrap_or_default();
    let lines: Vec<usize> = errors.iter().map(|e| e.line).collect();
    assert_eq!(lines, vec![2, 3, 4]);
    assert!(errors[1].to_string().contains("NOPE"));
}

#[test]
fn deck_checks_cite_the_deck_rules() {
    let catalog = Catalog::sample();
    let short = vec!["N008".to_string(); 4];
    let rules: Vec<&str> = check_deck(&short, &catalog).iter().map(|v| v.rule).collect();
    assert_eq!(rules, vec!["NAR-DECK-2", "NAR-DECK-4"]);
}

#[test]
fn policies_round_trip_through_their_keys() {
    crate::game_support::check_policies_round_trip(POLICIES);
}

#[test]
fn config_and_events_round_trip_through_postcard_and_json() {
    let mut rng = AgentRng::seed_from_u64(7);
    let (mut config, _) = Naruto::self_play_config(&["A".to_string(), "B".to_string()], &mut rng);
    config.set_policy("turn_marker", "shared").unwrap_or_else(|e| panic!("{e}"));
    let bytes = postcard::to_stdvec(&config).unwrap_or_default();
    let back: NarutoConfig = postcard::from_bytes(&bytes).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(back, config);

    let game = super::play(3, false);
    for e in &game.events {
        let bytes = postcard::to_stdvec(e).unwrap_or_default();
        let back: NarutoEvent = postcard::from_bytes(&bytes).unwrap_or_else(|err| panic!("{e:?}: {err}"));
        assert_eq!(&back, e);
        let json = serde_json::to_string(e).unwrap_or_default();
        let back: NarutoEvent = serde_json::from_str(&json).unwrap_or_else(|err| panic!("{json}: {err}"));
        assert_eq!(&back, e);
    }
}

#[test]
fn events_are_typed_as_pleasant_json() {
    let json = r#"{"NinjaDeployed": {"seat": 0, "card": "p0-3", "from": "hand", "hand_cost_paid": []}}"#;
    let e: NarutoEvent = serde_json::from_str(json).unwrap_or_else(|err| panic!("{err}"));
    assert_eq!(
        e,
        NarutoEvent::NinjaDeployed {
            seat: 0,
            card: "p0-3".into(),
            from: kifu::games::naruto::events::DeployFrom::Hand,
            hand_cost_paid: vec![]
        }
    );
    let schema = serde_json::to_string(&schemars::schema_for!(NarutoEvent)).unwrap_or_default();
    assert!(schema.contains("FightResolved") && schema.contains("CardRevealed"));
}

#[test]
fn setup_rejects_illegal_decks_with_rule_ids() {
    let catalog = Catalog::sample();
    let config = NarutoConfig::new(
        vec!["A".into(), "B".into()],
        vec![vec!["N008".into(); 3], vec!["N008".into(); 50]],
        &catalog,
        kifu::games::naruto::config::ShuffleMode::Physical,
    )
    .unwrap_or_else(|v| panic!("{v:?}"));
    let rules: Vec<&str> = Naruto::setup(&config).err().unwrap_or_default().iter().map(|v| v.rule).collect();
    assert_eq!(rules, vec!["NAR-DECK-2", "NAR-DECK-3", "NAR-DECK-4"]);
}
