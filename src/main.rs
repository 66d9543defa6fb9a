//! The `kifu` binary: parses arguments, runs the command, maps errors to exit codes.

mod cli;

use std::process::ExitCode;

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
