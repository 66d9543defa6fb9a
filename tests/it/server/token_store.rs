//! The token file under concurrency and corruption: concurrent `kifu token issue` and `revoke`
//! lose nothing, a revoked token never works again, a corrupt file answers 503 without a path
//! and gives the CLI a clear error; pending reports that do not parse are kept, not dropped.

use std::os::unix::fs::PermissionsExt;
use std::process::Stdio;

use axum::http::StatusCode;

use kifu::server::tokens::{self, Role};

use super::{get, rt, ServerEnv};
use crate::support::{kifu_cmd, TestEnv};

#[test]
fn concurrent_issues_and_revokes_lose_nothing() {
    let env = TestEnv::new();
    let path = tokens::path(&env.data());
    let old: Vec<String> = (0..50u8)
        .map(|i| tokens::issue(&path, Role::Judge, "*", &format!("old{i}"), [i; 32], "t".into()).unwrap())
        .collect();
    // 50 issues and 50 revokes (one per old token), all at once.
    let mut children = Vec::new();
    for (i, t) in old.iter().enumerate() {
        let issue = kifu_cmd(&env.data())
            .args(["token", "issue", "--role", "judge", "--all", "--name", &format!("new{i}")])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let revoke = kifu_cmd(&env.data())
            .args(["token", "revoke", &tokens::hash(t)[..16]])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        children.push((issue, revoke));
    }
    let mut issued = Vec::new();
    for (issue, revoke) in children {
        let out = issue.wait_with_output().unwrap();
        assert!(out.status.success());
        issued.push(String::from_utf8(out.stdout).unwrap().trim().to_string());
        assert!(revoke.wait_with_output().unwrap().status.success());
    }
    let file = tokens::load(&path).unwrap();
    let stored: Vec<&str> = file.tokens.iter().map(|g| g.hash.as_str()).collect();
    assert_eq!(stored.len(), 50, "exactly the 50 new tokens remain");
    for t in &issued {
        assert!(stored.contains(&tokens::hash(t).as_str()), "issued token {t} was lost");
    }
    for t in &old {
        assert!(!stored.contains(&tokens::hash(t).as_str()), "a revoked token came back");
        // Never again: the same token cannot be issued anew.
        let secret: [u8; 32] = hex::decode(&t[5..]).unwrap().try_into().unwrap();
        assert!(tokens::issue(&path, Role::Judge, "*", "again", secret, "t".into()).is_err());
    }
    assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o600);
    let leftovers: Vec<_> = std::fs::read_dir(path.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "temporary files left: {leftovers:?}");
}

#[test]
fn a_corrupt_token_file_is_503_without_a_path_and_a_clear_cli_error() {
    let env = ServerEnv::new();
    let app = env.app();
    let judge = env.token(Role::Judge, "*", "jin");
    std::fs::write(&env.tokens, "{ not json").unwrap();
    rt().block_on(async {
        let (s, body) = get(&app, "/api/v1/games/naruto-physical", Some(&judge)).await;
        assert_eq!(s, StatusCode::SERVICE_UNAVAILABLE, "{body}");
        let text = body.to_string();
        assert!(!text.contains('/') && !text.contains("tokens.json"), "the body names a file: {text}");
    });
    let cli = TestEnv::new();
    let path = tokens::path(&cli.data());
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, "{ not json").unwrap();
    let err = cli.fails(&["token", "list"]);
    assert!(err.contains("is not a valid token file"), "{err}");
    assert!(std::fs::read_to_string(&path).unwrap() == "{ not json", "the CLI left the file as it was");
}

#[test]
fn unparseable_pending_reports_are_kept_aside_not_dropped() {
    let dir = tempfile::tempdir().unwrap();
    let pending = dir.path().join("pending-results.json");
    std::fs::write(&pending, "[{\"tournament\": ").unwrap();
    let store = kifu::store::sled_store::SledStore::temporary(std::sync::Arc::new(kifu::clock::SteppingClock::fixed()))
        .unwrap();
    let config = kifu::server::ServerConfig { tokens: None, pending: Some(pending.clone()), ..Default::default() };
    let _state = kifu::server::AppState::new(
        std::sync::Arc::new(store),
        std::sync::Arc::new(kifu::clock::SteppingClock::fixed()),
        config,
    );
    let aside = dir.path().join("pending-results.json.unreadable");
    assert_eq!(std::fs::read_to_string(aside).unwrap(), "[{\"tournament\": ");
}
