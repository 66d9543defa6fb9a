//! Moving events in and out: Pokémon TOM files reproduce TOM's final places under the `pokemon`
//! policy and round-trip through `export --to tom`; `export` writes a .kifu file that `kifu
//! verify` and `kifu import` accept; CSV standings and pairings.

use std::collections::BTreeMap;
use std::path::PathBuf;

use kifu::log::envelope::{Actor, StreamId, Timestamp};
use kifu::store::Store;
use kifu::tournament::{record, tom, Policy};

use crate::support::TestEnv;

fn tom_files() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/tom");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "xml"))
        .collect();
    v.sort();
    assert_eq!(v.len(), 2, "the two TOM exports in {}", dir.display());
    v
}

/// Each division's players in kifu's overall order (divisions paired together share one Swiss).
fn kifu_order(placings: &[String], division: &[String]) -> Vec<String> {
    placings.iter().filter(|p| division.contains(p)).cloned().collect()
}

#[test]
fn tom_files_reproduce_their_final_places_under_the_pokemon_policy() {
    for path in tom_files() {
        let xml = std::fs::read_to_string(&path).unwrap();
        let imported = tom::parse(&xml, Policy::Pokemon).unwrap();
        let s = kifu::store::sled_store::SledStore::temporary(std::sync::Arc::new(kifu::clock::SteppingClock::fixed()))
            .unwrap();
        let id = StreamId::new("tom").unwrap();
        record::create(&s, &id, &imported.config, Actor::System, Timestamp(0), imported.events).unwrap();
        let loaded = record::from_log_checked(&s.export(&id).unwrap()).unwrap();
        assert!(loaded.problems.is_empty(), "{:?}", loaded.problems);
        let placings = loaded.state.placings();
        let order: Vec<String> = placings.iter().map(|p| p.player.clone()).collect();
        let place: BTreeMap<&str, u32> = placings.iter().map(|p| (p.player.as_str(), p.place)).collect();
        assert!(!imported.published.is_empty());
        let mut compared = 0;
        for (division, theirs) in &imported.published {
            let mine = kifu_order(&order, theirs);
            // TOM's order, read through kifu's places: the same players, never out of kifu's order;
            // players kifu ranks tied on everything (a shared place) are in TOM's own random order.
            assert_eq!(mine.len(), theirs.len(), "{}: division {division}", path.display());
            for w in theirs.windows(2) {
                assert!(
                    place[w[0].as_str()] <= place[w[1].as_str()],
                    "{}: division {division}: TOM ranks {} above {}; kifu: {mine:?}",
                    path.display(),
                    w[0],
                    w[1]
                );
            }
            compared += theirs.len();
        }
        assert!(compared >= 16, "{}: {compared} places compared", path.display());
        // Round trip: kifu's TOM export reads back to the same results and places.
        let again = tom::parse(&tom::export(&loaded.state, &loaded.config.name).unwrap(), Policy::Pokemon).unwrap();
        let s2 =
            kifu::store::sled_store::SledStore::temporary(std::sync::Arc::new(kifu::clock::SteppingClock::fixed()))
                .unwrap();
        record::create(&s2, &id, &again.config, Actor::System, Timestamp(0), again.events).unwrap();
        let back = record::load(&s2, &id).unwrap();
        let mine: BTreeMap<String, u32> = loaded.state.standings().into_iter().map(|r| (r.player, r.points)).collect();
        let theirs: BTreeMap<String, u32> = back.state.standings().into_iter().map(|r| (r.player, r.points)).collect();
        assert_eq!(mine, theirs);
        let places: Vec<String> = back.state.placings().into_iter().map(|p| p.player).collect();
        assert_eq!(places, order, "{}", path.display());
    }
}

#[test]
fn export_writes_a_kifu_file_that_verify_and_import_accept_and_csv() {
    let env = TestEnv::new();
    let seed = "33".repeat(32);
    env.ok(&[
        "tournament",
        "new",
        "--name",
        "Ex",
        "--game",
        "stones",
        "--id",
        "ex",
        "--seed",
        &seed,
        "--rounds",
        "1",
        "--top-cut",
        "0",
    ]);
    env.ok(&["tournament", "register", "ex", "Ann, Jr.", "bo", "cy"]);
    env.ok(&["tournament", "pair", "ex"]);
    env.ok(&["tournament", "report", "ex", "--table", "1", "2-1"]);
    let file = env.path("ex.kifu");
    env.ok(&["tournament", "export", "ex", "-o", file.to_str().unwrap()]);
    let out = env.ok(&["verify", file.to_str().unwrap()]);
    assert!(!out.to_lowercase().contains("fail"), "{out}");
    let other = TestEnv::new();
    other.ok(&["import", file.to_str().unwrap()]);
    other.ok(&["tournament", "standings", "ex"]);
    let csv = env.ok(&["tournament", "export", "ex", "--csv", "standings"]);
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines[0], "rank,player,points,wins,losses,draws,omw,gw,ogw,oomw,dropped");
    assert_eq!(lines.len(), 4, "{csv}");
    assert!(csv.contains("\"Ann, Jr.\""), "a name with a comma is quoted: {csv}");
    let csv = env.ok(&["tournament", "export", "ex", "--csv", "pairings"]);
    assert!(csv.lines().next().unwrap().starts_with("round,table,player,points"), "{csv}");
    assert!(csv.contains(",bye,"), "{csv}");
    let xml = env.ok(&["tournament", "export", "ex", "--to", "tom"]);
    assert!(xml.contains("<match outcome=\"5\">"), "{xml}");
}
