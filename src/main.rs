//! Thin binary: parse arguments, run the command, map to an exit code.

mod cli;
mod commands;
mod init;
mod manual;
mod org;
mod shell;

use std::process::ExitCode;

use crate::cli::Cli;
use clap::Parser;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    // The command runs on the main thread: starting a thread with the
    // parser's 256 MiB stack (and its own allocator arena) for every run
    // cost a small check more than its parsing. What needs that stack
    // (serde-saphyr's reading) starts it itself, and a panic there goes on
    // here. A panic is reported as an internal error.
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| commands::run(cli))) {
        Ok(code) => ExitCode::from(code),
        Err(_) => {
            eprintln!("error: internal error: the command stopped unexpectedly (please report it)");
            ExitCode::from(2)
        }
    }
}
