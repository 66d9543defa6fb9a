//! The `kifu` binary: parses arguments, runs the command, maps errors to exit codes.

mod cli;

use std::process::ExitCode;

// jemalloc rather than the system allocator: it hands freed memory back to the system, so the
// buffers of a connection flood do not stay in the server's RSS (glibc kept them).
#[cfg(not(target_env = "msvc"))]
#[global_allocator]
static GLOBAL: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// Lets jemalloc purge freed pages from a thread of its own, so an idle server returns memory too
/// (without it, purging happens only as a side effect of later allocations).
pub fn purge_in_background() {
    #[cfg(not(target_env = "msvc"))]
    let _ = tikv_jemalloc_ctl::background_thread::write(true);
}

fn main() -> ExitCode {
    // `kifu log ... | head` should end quietly, as other Unix tools do, not panic on a closed pipe.
    sigpipe::reset();
    match cli::run() {
        Ok(code) => code,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::from(1)
        }
    }
}
