//! The `kifu` binary: parses arguments, runs the command, maps errors to exit codes.

mod cli;

use std::process::ExitCode;

// jemalloc rather than the system allocator: it hands freed memory back to the system, so the
// buffers of a connection flood do not stay in the server's RSS (glibc kept them).
#[cfg(not(target_env = "msvc"))]
#[global_allocator]
static GLOBAL: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// Lets jemalloc purge freed pages from a thread of its own, so an idle server returns memory too
/// (without it, purging happens only as a side effect of later allocations), and within a
/// quarter second rather than jemalloc's default ten: a crawl that opens and evicts game after
/// game otherwise keeps seconds of freed pages resident (measured: 4–8 MiB at `--cache-mb 1`).
/// Freed pages are returned outright (no lazy `MADV_FREE` stage, whose pages still count in RSS).
pub fn purge_in_background() {
    #[cfg(not(target_env = "msvc"))]
    {
        use tikv_jemalloc_ctl::{Access as _, AsName as _};
        let _ = tikv_jemalloc_ctl::background_thread::write(true);
        let set = |name: String, ms: isize| {
            let _ = name.as_str().name().write(ms);
        };
        // New arenas take the defaults; arenas already made are set one by one.
        set("arenas.dirty_decay_ms\0".into(), DIRTY_DECAY_MS);
        set("arenas.muzzy_decay_ms\0".into(), 0);
        for i in 0..tikv_jemalloc_ctl::arenas::narenas::read().unwrap_or(0) {
            set(format!("arena.{i}.dirty_decay_ms\0"), DIRTY_DECAY_MS);
            set(format!("arena.{i}.muzzy_decay_ms\0"), 0);
        }
    }
}

/// How long jemalloc keeps freed pages for reuse before returning them (see [`purge_in_background`]).
#[cfg(not(target_env = "msvc"))]
const DIRTY_DECAY_MS: isize = 250;

fn main() -> ExitCode {
    match cli::run() {
        Ok(code) => code,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::from(1)
        }
    }
}
