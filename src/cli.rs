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
        #[arg(required_unless_present = "each", conflicts_with = "each")]
        paths: Vec<PathBuf>,
        /// Organisation mode: every manifest file directly in DIR, and every
        /// sub-folder of DIR with manifests, is a separate architecture;
        /// they are checked in parallel (RAYON_NUM_THREADS threads).
        #[arg(long, value_name = "DIR")]
        each: Option<PathBuf>,
        #[arg(long, value_enum, default_value_t = CheckFormat::Table)]
        format: CheckFormat,
        /// Lowest severity that fails the run.
        #[arg(long, value_enum, default_value_t = FailOn::Error)]
        fail_on: FailOn,
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
