//! One file per command: each takes what it needs through the library's
//! engine ([`replay_audit::engine`]), prints the result, and returns the
//! exit code (0 clean, 1 findings at or above the failing severity, 2 input
//! that could not be analysed). An input error travels as an
//! [`engine::Error`] and is printed here, in one place.

mod check;
mod diff;
mod drift;
mod each;
mod export_aws;
mod graph;
mod horizon;
mod import;
mod info;
mod init;
mod lsp;
mod report;
mod shell;
mod what_if;

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use crate::cli::{Cli, ColorChoice, Command, FailOn, Global};
pub use replay_audit::diagnostics::did_you_mean;
use replay_audit::engine::{self, Inputs};
use replay_audit::report::no_commands;
use replay_audit::{files, manifest, policy, rules};

/// What a command returns: its exit code, or the error that stopped it.
pub type Outcome = Result<u8, engine::Error>;

/// Runs the command; an error is printed and gives exit code 2.
pub fn run(cli: Cli) -> u8 {
    let g = &cli.global;
    let outcome = match &cli.command {
        Command::Check(a) => check::run(a, g),
        Command::Horizon(a) => horizon::run(a, g),
        Command::WhatIf(a) => what_if::run(a, g),
        Command::Diff(a) => diff::run(a, g),
        Command::Drift(a) => drift::run(a, g),
        Command::Shell(a) => shell::run(a, g),
        Command::Report(a) => report::run(a, g),
        Command::Graph(a) => graph::run(a, g),
        Command::Import(a) => import::run(a, g),
        Command::ExportAws(a) => export_aws::run(a),
        Command::Init(a) => init::run(a.output.as_deref()),
        Command::Lsp => lsp::run(g),
        Command::Explain(a) => info::explain(a),
        Command::Rules(a) => info::rules(a),
        Command::Catalog(a) => info::catalog(a),
        Command::Schema(a) => info::schema(a),
        Command::Completions(a) => info::completions(a),
        Command::Man(a) => info::man(a),
    };
    outcome.unwrap_or_else(|e| {
        eprint!("{}", e.render(stderr_color(g)));
        2
    })
}

/// `text` single-quoted for a POSIX shell: nothing in it is expanded.
pub fn sh_quoted(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// Whether to colour a stream: `--color`, else only on a terminal and
/// never with `NO_COLOR`.
pub fn color(choice: ColorChoice, stream_is_tty: bool) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            stream_is_tty && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
        }
    }
}

pub fn stderr_color(g: &Global) -> bool {
    color(g.color, std::io::stderr().is_terminal())
}

pub fn stdout_color(g: &Global) -> bool {
    color(g.color, std::io::stdout().is_terminal())
}

pub fn out(text: &str) -> Result<(), engine::Error> {
    out_with(|w| w.write_all(text.as_bytes()))
}

/// Standard output through a buffer (reports may be written as they are
/// made); a closed pipe ends the output quietly.
pub fn out_with(
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<(), engine::Error> {
    let mut w = std::io::BufWriter::new(std::io::stdout().lock());
    match no_commands::write_through(&mut w, write) {
        Err(e) if broken_pipe(&e) => Ok(()),
        r => Ok(r?),
    }
}

/// A closed pipe, also when a writer wrapped the I/O error in its own.
fn broken_pipe(e: &std::io::Error) -> bool {
    let inner = e.get_ref();
    e.kind() == std::io::ErrorKind::BrokenPipe
        || inner
            .and_then(|i| i.downcast_ref::<std::io::Error>())
            .is_some_and(broken_pipe)
        || inner
            .and_then(|i| i.downcast_ref::<serde_json::Error>())
            .and_then(serde_json::Error::io_error_kind)
            == Some(std::io::ErrorKind::BrokenPipe)
}

/// Writes to `-o FILE`, or to standard output. A file is written whole or
/// not at all, never onto an input of the run nor through a link
/// ([`files::write_atomic`]); a refused or failed write is an input error (2).
pub fn write_output(path: Option<&Path>, text: &str) -> Outcome {
    write_output_with(path, |w| w.write_all(text.as_bytes()))
}

/// [`write_output`] with the text written by `write` as it is made.
pub fn write_output_with(
    path: Option<&Path>,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Outcome {
    match path {
        None => {
            out_with(write)?;
            Ok(0)
        }
        Some(p) => match files::write_atomic_with(p, files::Mode::Replace, |w| {
            no_commands::write_through(w, write)
        }) {
            Ok(()) => Ok(0),
            Err(e) => {
                eprintln!("{e}");
                Ok(2)
            }
        },
    }
}

/// What a command reads, from its arguments and the global flags.
pub fn inputs(
    g: &Global,
    paths: &[PathBuf],
    parameters: &[String],
    config: Option<&Path>,
    overrides: Option<&Path>,
) -> Result<Inputs, engine::Error> {
    let parameters = replay_audit::import::parse_params(parameters)
        .map_err(|e| engine::Error::usage(e, "write --parameter Name=value"))?;
    Ok(Inputs {
        paths: paths.to_vec(),
        overrides: overrides.map(Path::to_path_buf),
        parameters,
        limits: limits(g),
        config: config.map(Path::to_path_buf),
    })
}

pub fn limits(g: &Global) -> manifest::Limits {
    manifest::Limits {
        max_file_bytes: g.max_file_size,
        ..manifest::Limits::default()
    }
}

/// Today's date for waivers (`REPLAY_AUDIT_TODAY` or the clock).
pub fn today() -> Result<policy::Date, engine::Error> {
    policy::Date::today().map_err(|message| engine::Error::Usage {
        message,
        help: None,
    })
}

pub fn severity(f: FailOn) -> rules::Severity {
    match f {
        FailOn::Error => rules::Severity::Error,
        FailOn::Warning => rules::Severity::Warning,
        FailOn::Info => rules::Severity::Info,
    }
}

/// `error: no KIND `VALUE``, with "did you mean" among `ids`, else `fallback`.
pub fn not_found<'a>(
    kind: &str,
    value: &str,
    ids: impl IntoIterator<Item = &'a str>,
    fallback: impl FnOnce() -> String,
) -> engine::Error {
    engine::Error::usage(
        format!("no {kind} `{value}`"),
        did_you_mean(value, ids, fallback),
    )
}
