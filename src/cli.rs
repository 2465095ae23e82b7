//! Command-line definitions (clap derive).

use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};

#[derive(Debug, Parser)]
#[command(
    name = "replay-audit",
    version,
    about = "Finds where a replay can outlive the dedup state that should stop it",
    long_about = "replay-audit reads an architecture manifest (producers, queues, retries, dead-letter queues, \
dedup stores, effects, regions) and reports every place where a duplicate can reach a side effect after \
the dedup state that should stop it has forgotten the key, or in a region that cannot see it."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,

    /// Colour: auto (only on a terminal, never with NO_COLOR), always, never.
    #[arg(long, global = true, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,

    /// Largest manifest file accepted, in bytes.
    #[arg(long, global = true, default_value_t = 64 * 1024 * 1024, value_name = "BYTES")]
    pub max_file_size: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CheckFormat {
    Table,
    Json,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TextFormat {
    Text,
    Json,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FailOn {
    Error,
    Warning,
    Info,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run every rule and print the findings (exit 1 on findings at or above --fail-on).
    Check {
        /// Manifest files or folders (every *.yaml / *.yml below), read as one architecture.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        #[arg(long, value_enum, default_value_t = CheckFormat::Table)]
        format: CheckFormat,
        /// Lowest severity that fails the run.
        #[arg(long, value_enum, default_value_t = FailOn::Error)]
        fail_on: FailOn,
        /// Apply an overrides file (`TARGET: VALUE` lines, as the shell's `save` writes).
        #[arg(long, value_name = "FILE")]
        overrides: Option<PathBuf>,
    },
    /// Worst-case horizon at each guard, store and effect, with the arithmetic of the worst path.
    Horizon {
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Only this intent.
        #[arg(long)]
        intent: Option<String>,
        /// Only this component.
        #[arg(long)]
        at: Option<String>,
        #[arg(long, value_enum, default_value_t = TextFormat::Text)]
        format: TextFormat,
        /// For each dedup layer (store, ledger, transport window, provider key window): the
        /// minimum safe retention, or what would bound an unbounded horizon.
        #[arg(long)]
        required: bool,
    },
    /// Re-run the analysis with changed values; print the findings resolved, introduced and unchanged.
    #[command(name = "what-if")]
    WhatIf {
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// A change: ID.FIELD=VALUE, nested with dots and list indices
        /// (settlement-scheduler.sends_to[0].retry.attempts=5). VALUE is YAML.
        #[arg(long = "set", value_name = "TARGET=VALUE")]
        set: Vec<String>,
        /// Remove a field (its default applies).
        #[arg(long = "unset", value_name = "TARGET")]
        unset: Vec<String>,
        /// Apply an overrides file first (`TARGET: VALUE` lines).
        #[arg(long, value_name = "FILE")]
        overrides: Option<PathBuf>,
        #[arg(long, value_enum, default_value_t = TextFormat::Text)]
        format: TextFormat,
        /// Lowest severity of an introduced or remaining finding that fails the run.
        #[arg(long, value_enum, default_value_t = FailOn::Error)]
        fail_on: FailOn,
    },
    /// Interactive what-if session (set, unset, undo, check, horizon, why, diff, save); reads a pipe too.
    Shell {
        #[arg(required = true)]
        paths: Vec<PathBuf>,
    },
    /// Print a rule's page: what it detects, why it matters, how to fix it.
    Explain {
        /// Rule code (RH001) or name (replay-outlives-dedup-window).
        code: String,
    },
    /// List every rule.
    Rules {
        #[arg(long, value_enum, default_value_t = TextFormat::Text)]
        format: TextFormat,
    },
    /// List the built-in platform kinds, or show one with its defaults and sources.
    Catalog {
        kind: Option<String>,
        #[arg(long, value_enum, default_value_t = TextFormat::Text)]
        format: TextFormat,
    },
}
