//! The `kifu` binary: parses arguments, runs the command, maps errors to exit codes.

// Every line the CLI prints (`print!`, `println!`, `eprint!`, `eprintln!`: tables, messages,
// errors) goes through these, defined before `mod cli` so they shadow the standard macros in
// every command: recorded text (a player's free text, an official's reason, a name) can carry
// ESC sequences that clear or retitle the reader's terminal, CR that forges a line, or bidi
// overrides that reorder it, and `kifu::log::limits::inert` shows each such character as a
// visible escape instead. One place, so no command can forget it. (Bytes written on purpose,
// an export's file content, go through `write_all`, not these.) The text is built with
// `fmt::format(format_args!(..))`, which is `format!` without a nested `format!` call at every site.
macro_rules! println {
    () => { ::std::println!() };
    ($($arg:tt)*) => { ::std::println!("{}", ::kifu::log::limits::inert(&::std::fmt::format(::std::format_args!($($arg)*)))) };
}
macro_rules! print {
    ($($arg:tt)*) => { ::std::print!("{}", ::kifu::log::limits::inert(&::std::fmt::format(::std::format_args!($($arg)*)))) };
}
macro_rules! eprintln {
    () => { ::std::eprintln!() };
    ($($arg:tt)*) => { ::std::eprintln!("{}", ::kifu::log::limits::inert(&::std::fmt::format(::std::format_args!($($arg)*)))) };
}
macro_rules! eprint {
    ($($arg:tt)*) => { ::std::eprint!("{}", ::kifu::log::limits::inert(&::std::fmt::format(::std::format_args!($($arg)*)))) };
}

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
