//! A full disk under a running server: a write it refuses is a 507 saying "the disk is full",
//! reads keep working, and once space is freed writes work again by themselves (no restart),
//! with every acknowledged event kept; the CLI says the same in plain words and exits 1.
//!
//! The store lives on a small tmpfs the test mounts (and unmounts); where mounting is not
//! allowed, on the file system of the temporary directory, which the test fills itself (only
//! when that is small enough to fill).

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use axum::http::StatusCode;
use serde_json::{json, Value};

use kifu::clock::SteppingClock;
use kifu::log::envelope::StreamId;
use kifu::server::tokens::{self, Role};
use kifu::server::{app, AppState, ServerConfig};
use kifu::store::sled_store::SledStore;
use kifu::store::Store;

use super::{call, fixture_log, get, rt};
use crate::support::kifu_cmd;

/// The size of the tmpfs the test mounts.
const DISK: u64 = 16 << 20;

/// A small file system for the store, and a file that fills it.
struct SmallDisk {
    dir: tempfile::TempDir,
    mounted: bool,
}

impl SmallDisk {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let mounted = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={DISK},mode=0700"), "kifu-test-disk"])
            .arg(dir.path())
            .status()
            .is_ok_and(|s| s.success());
        if !mounted {
            // Filled by the test itself: only a file system small enough to fill.
            let free = fs2::available_space(dir.path()).unwrap();
            assert!(
                free < 2 << 30,
                "cannot mount a tmpfs here, and the temporary directory's file system has {free} bytes free: \
                 too many to fill for a test; run as root (mount) or with TMPDIR on a small file system"
            );
        }
        SmallDisk { dir, mounted }
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    fn filler(&self) -> PathBuf {
        self.path().join("filler")
    }

    /// Writes to the filler until the disk refuses a single block (bounded by the disk's size).
    fn fill(&self) {
        let mut f = std::fs::OpenOptions::new().create(true).append(true).open(self.filler()).unwrap();
        let limit = fs2::total_space(self.path()).unwrap() / 4096 + 1024;
        let mut n = 0;
        for size in [1 << 20, 64 << 10, 4096, 512, 1] {
            let block = vec![0x5a; size];
            while f.write_all(&block).is_ok() {
                n += 1;
                assert!(n < limit, "the disk did not fill");
            }
        }
        let _ = f.sync_all();
        assert!(fs2::available_space(self.path()).unwrap() < 4096, "the disk is not full");
    }

    fn free(&self) {
        std::fs::remove_file(self.filler()).unwrap();
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(self.filler());
        if self.mounted {
            // Lazy: a file still open somewhere does not keep the mount.
            let _ = Command::new("umount").arg("-l").arg(self.dir.path()).status();
        }
    }
}

fn note(text: &str) -> Value {
    json!({"ruling": {"NoteRecorded": {"judge": "jin", "about": null, "note": text}}})
}

/// The stored hash of event `seq` (its last 32 bytes), in hex.
fn stored_hash(store: &dyn Store, id: &StreamId, seq: u64) -> String {
    let stored = store.read(id, seq, seq + 1).unwrap();
    hex::encode(&stored[0][stored[0].len() - 32..])
}

#[test]
fn a_full_disk_is_507_reads_keep_working_and_writes_come_back_when_space_is_freed() {
    let disk = SmallDisk::new();
    let data = disk.path().join("data");
    let outside = tempfile::tempdir().unwrap();
    let game = StreamId::new("naruto-physical").unwrap();
    {
        let store = SledStore::open(&data, Arc::new(SteppingClock::fixed())).unwrap();
        store.import(&fixture_log("naruto-physical")).unwrap();
        let token_file = outside.path().join("tokens.json");
        let judge = tokens::issue(&token_file, Role::Judge, tokens::ALL, "jin", [9; 32], "2026-01-01T00:00:00Z".into())
            .unwrap();
        let config = ServerConfig { tokens: Some(token_file), ..ServerConfig::default() };
        let state = AppState::new(Arc::new(store), Arc::new(SteppingClock::fixed()), config);
        let store = state.store().clone();
        let app = app(state);
        let url = "/api/v1/games/naruto-physical/rulings";
        rt().block_on(async {
            let (s, r) = call(&app, "POST", url, Some(&judge), Some(note("before"))).await;
            assert_eq!(s, StatusCode::CREATED, "{r}");
            let mut acked = vec![(r["seq"].as_u64().unwrap(), r["head"].as_str().unwrap().to_string())];
            disk.fill();
            // Writes go on until sled needs a block the disk has not got: then 507, in words.
            let mut refused = None;
            for i in 0..400 {
                let (s, r) = call(&app, "POST", url, Some(&judge), Some(note(&format!("while full {i}")))).await;
                if s == StatusCode::CREATED {
                    acked.push((r["seq"].as_u64().unwrap(), r["head"].as_str().unwrap().to_string()));
                    continue;
                }
                refused = Some((s, r));
                break;
            }
            let (s, r) = refused.expect("no write was refused on the full disk");
            assert_eq!(s, StatusCode::INSUFFICIENT_STORAGE, "{r}");
            assert_eq!(r["status"], 507);
            assert!(r["error"].as_str().unwrap().starts_with("the disk is full: "), "{r}");
            assert!(!r.to_string().contains(&*data.to_string_lossy()), "a client learns no server path: {r}");
            // Refused again while the disk stays full; reads keep working meanwhile.
            let (s, r) = call(&app, "POST", url, Some(&judge), Some(note("still full"))).await;
            assert_eq!(s, StatusCode::INSUFFICIENT_STORAGE, "{r}");
            for read in ["/api/v1/streams", "/api/v1/games/naruto-physical", "/api/v1/games/naruto-physical/events"] {
                let (s, r) = get(&app, read, None).await;
                assert_eq!(s, StatusCode::OK, "{read} on a full disk: {r}");
            }
            // Space is freed: the next write works, with no restart.
            disk.free();
            let (s, r) = call(&app, "POST", url, Some(&judge), Some(note("after"))).await;
            assert_eq!(s, StatusCode::CREATED, "the first write after space was freed: {r}");
            acked.push((r["seq"].as_u64().unwrap(), r["head"].as_str().unwrap().to_string()));
            let (s, r) = call(&app, "POST", url, Some(&judge), Some(note("after, again"))).await;
            assert_eq!(s, StatusCode::CREATED, "{r}");
            acked.push((r["seq"].as_u64().unwrap(), r["head"].as_str().unwrap().to_string()));
            // Every acknowledged event is there, chained as acknowledged.
            let log = store.export(&game).unwrap();
            for (seq, head) in &acked {
                assert_eq!(&stored_hash(&*store, &game, *seq), head, "acknowledged event {seq}");
            }
            assert_eq!(log.head.len, acked.last().unwrap().0 + 1);
            eprintln!("{} writes acknowledged on the full disk before the 507", acked.len() - 3);
        });
    }
    // The store again, after the server let it go: every acknowledged event survived the reopen.
    let store = SledStore::open(&data, Arc::new(SteppingClock::fixed())).unwrap();
    let len = store.export(&game).unwrap().head.len;
    drop(store);

    // The CLI on a full disk: appends go on until sled needs a block the disk has not got, then
    // the same words and exit 1; then, space freed, it works again.
    disk.fill();
    let mut appended = 0;
    let out = loop {
        let out = kifu_cmd(&data).args(["append", "notes", "--text", "while full"]).output().unwrap();
        if !out.status.success() {
            break out;
        }
        appended += 1;
        assert!(appended < 200, "no append was refused on the full disk");
    };
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("error: the disk is full: "), "{stderr}");
    assert!(!stderr.contains("Os {") && !stderr.contains("kind:"), "Debug formatting: {stderr}");
    let out = kifu_cmd(&data).args(["log", "naruto-physical", "--json"]).output().unwrap();
    assert!(out.status.success(), "reads on a full disk: {}", String::from_utf8_lossy(&out.stderr));
    disk.free();
    let out = kifu_cmd(&data).args(["append", "notes", "--text", "after"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let store = SledStore::open(&data, Arc::new(SteppingClock::fixed())).unwrap();
    assert_eq!(store.export(&game).unwrap().head.len, len);
    assert_eq!(store.head(&StreamId::new("notes").unwrap()).unwrap().len, appended + 1);
}
