//! Store recovery and the data directory's safety: leftovers of interrupted sled writes are
//! removed on open (and reported), an unopenable store names its directory and the verify
//! command, a full disk still opens read-only, and the directory and files are owner-only.

use std::os::unix::fs::PermissionsExt;

use crate::support::{kifu_cmd, TestEnv};

fn with_two_notes() -> TestEnv {
    let env = TestEnv::new();
    env.ok(&["append", "notes", "--text", "first"]);
    env.ok(&["append", "notes", "--text", "second"]);
    env
}

#[test]
fn a_snapshot_left_half_written_by_a_kill_is_removed_on_open() {
    let env = with_two_notes();
    // What a SIGKILL during sled's snapshot leaves: the temporary file, never renamed.
    let leftover = env.data().join("snap.FFFFFFFFFFFFFFF0.generating");
    std::fs::write(&leftover, b"half a snapsh").unwrap();
    let out = env.kifu(&["streams"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "streams failed: {stderr}");
    assert!(stderr.contains("removed snap.FFFFFFFFFFFFFFF0.generating"), "no recovery note: {stderr}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("notes"));
    assert!(!leftover.exists());
    env.ok(&["verify", "--all"]);
    let log = env.ok(&["log", "notes"]);
    assert!(log.contains("second"), "{log}");
}

#[test]
fn an_unopenable_store_names_its_directory_and_the_verify_command() {
    let env = with_two_notes();
    // A complete-looking snapshot that is not one: nothing kifu may delete.
    std::fs::write(env.data().join("snap.FFFFFFFFFFFFFFF0"), b"this is not a snapshot at all").unwrap();
    let err = env.fails(&["streams"]);
    let dir = env.data().display().to_string();
    assert!(err.contains(&format!("cannot open the store in {dir}")), "{err}");
    assert!(err.contains(&format!("kifu --data {dir} verify --all")), "{err}");
}

#[test]
fn a_full_disk_opens_the_store_read_only() {
    let env = with_two_notes();
    let full = |args: &[&str]| kifu_cmd(&env.data()).env("KIFU_TEST_DISK_FULL", "1").args(args).output().unwrap();
    for args in [&["streams"][..], &["verify", "--all"], &["log", "notes"]] {
        let out = full(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{args:?} failed on a full disk: {stderr}");
        assert!(stderr.contains("read-only"), "{args:?}: no read-only note: {stderr}");
    }
    let file = env.path("notes.kifu");
    let out = full(&["export", "notes", "-o", file.to_str().unwrap()]);
    assert!(out.status.success(), "export failed: {}", String::from_utf8_lossy(&out.stderr));
    env.ok(&["verify", file.to_str().unwrap()]);
    // Writes are refused, and nothing was written.
    let out = full(&["append", "notes", "--text", "third"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("the disk is full: "));
    assert!(!env.ok(&["log", "notes"]).contains("third"));
}

#[test]
fn the_data_directory_and_store_files_are_owner_only() {
    let env = TestEnv::new();
    env.ok(&["append", "notes", "--text", "first"]);
    let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&env.data()), 0o700);
    for name in ["db", "conf"] {
        assert_eq!(mode(&env.data().join(name)) & 0o077, 0, "{name} is readable by others");
    }
    // A looser existing directory is tightened, with a note.
    std::fs::set_permissions(env.data(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let out = env.kifu(&["streams"]);
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("tightened the permissions"), "{stderr}");
    assert_eq!(mode(&env.data()), 0o700);
}

#[test]
fn the_secret_pairing_seed_and_tokens_are_owner_only() {
    let env = TestEnv::new();
    let seed = "22".repeat(32);
    env.ok(&["tournament", "new", "--name", "Fri", "--game", "naruto", "--id", "fri", "--seed", &seed]);
    env.ok(&["token", "issue", "--role", "judge", "--all", "--name", "jin"]);
    let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    let seeds = env.data().join("tournament-seeds");
    assert_eq!(mode(&seeds), 0o700);
    assert_eq!(mode(&seeds.join("fri.seed")), 0o600);
    assert_eq!(mode(&env.data().join("server")), 0o700);
    assert_eq!(mode(&env.data().join("server").join("tokens.json")), 0o600);
}
