//! The command-line reference, generated from the clap definitions of
//! [`crate::cli`] so that none of it can drift: the man pages ([`man`]),
//! `docs/cli.md` ([`markdown`]) and the shell completion scripts
//! ([`completion`]). The facts clap does not know (exit status, the
//! environment, the files read) are the tables below, shared by all of them.

pub mod completion;
pub mod man;
#[cfg(test)]
pub mod markdown;

use clap::CommandFactory;

use crate::cli::Cli;

/// The binary's name, as users type it.
pub const BIN: &str = "replay-audit";

/// Exit status and what it means.
pub const EXIT_STATUS: &[(&str, &str)] = &[
    (
        "0",
        "success: no finding (that is not waived or baselined) at or above the failing severity",
    ),
    (
        "1",
        "findings at or above the failing severity (`--fail-on`, else `fail_on` of the policy file, else error); for `check --each`, the worst architecture's",
    ),
    (
        "2",
        "the input could not be analysed: a manifest, policy, baseline or overrides file with errors (each printed with file:line:col and a fix), a value on the command line that names nothing, an unusable command line, or an output file that cannot be written",
    ),
];

/// Environment variables read.
pub const ENVIRONMENT: &[(&str, &str)] = &[
    (
        "NO_COLOR",
        "when set and not empty, `--color auto` prints no colour even on a terminal",
    ),
    (
        "REPLAY_AUDIT_TODAY",
        "today's date for waiver expiry, `YYYY-MM-DD` (default: the UTC date of the clock); for reproducible CI runs and tests",
    ),
    (
        "RAYON_NUM_THREADS",
        "the number of threads `check --each` checks architectures on (default: one per CPU)",
    ),
];

/// Files read or written without being named on the command line, and the
/// ones that are.
pub const FILES: &[(&str, &str)] = &[
    (
        "*.yaml, *.yml",
        "manifests: every one below a folder given as PATHS (sorted; symbolic links not followed), read as one architecture",
    ),
    (
        "replay-audit.toml",
        "the policy (failing severity, per-rule severity, the RH004 margin, waivers), read beside the first manifest path unless `--config FILE` names one; with `check --each`, each architecture's own",
    ),
    (
        "baseline (--baseline, --write-baseline)",
        "JSON fingerprints of accepted findings; `check` fails only on findings not in it",
    ),
    (
        "overrides (--overrides)",
        "`TARGET: VALUE` lines, as the shell's `save` writes them",
    ),
];

/// The command tree, built (bin names and display names set), without the
/// `help` subcommand.
pub fn command() -> clap::Command {
    let mut cmd = Cli::command().disable_help_subcommand(true);
    cmd.build();
    cmd
}

/// The visible subcommands, in declaration order.
pub fn subcommands(cmd: &clap::Command) -> impl Iterator<Item = &clap::Command> {
    cmd.get_subcommands().filter(|s| !s.is_hide_set())
}

#[cfg(test)]
mod tests;
