//! kifu's one integration-test binary. Each module covers one area; `support` holds the
//! deterministic test environment (temporary data directory, fixed clock, the real `kifu` binary).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod as_recorded;
mod awaited;
mod bounded_output;
mod brk;
mod cli_errors;
mod cluster_faults;
mod crash;
mod doc_examples;
mod explore;
mod fate;
mod fixtures;
mod game_machinery;
mod game_support;
mod import_decode;
mod inert_output;
mod jsonl_versions;
mod layering;
mod lc;
mod live_recording;
mod log_golden;
mod log_tamper;
mod name_bounds;
mod naruto;
mod naruto_games;
mod nats_cli;
mod options;
mod released;
mod rules_versions;
mod server;
mod stones;
mod store_concurrency;
mod store_contract;
mod store_model;
mod store_recovery;
mod stream_kinds;
mod support;
mod tournament;
mod toy_game;
mod vanguard;

/// Every file in tests/it is a module of this binary (jj's "no forgotten test files").
#[test]
fn no_forgotten_test_files() {
    let main = include_str!("main.rs");
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/it");
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        if name == "main" {
            continue;
        }
        assert!(main.contains(&format!("mod {name};")), "tests/it/{name} is not declared in tests/it/main.rs");
    }
}
