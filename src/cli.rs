//! Command-line definitions (clap derive).

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

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

    #[command(flatten)]
    pub global: Global,
}

/// The options every command takes.
#[derive(Debug, Args)]
pub struct Global {
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

/// The formats of `check`: the report owns them ([`replay_audit::report::format`]).
pub use replay_audit::report::format::CheckFormat;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TextFormat {
    Text,
    Json,
}

/// `diff --format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DiffFormat {
    /// For a terminal.
    #[value(alias = "text")]
    Table,
    /// A pull-request comment.
    Markdown,
    Json,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ReportFormat {
    Markdown,
    Html,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum GraphFormat {
    Dot,
    Mermaid,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FailOn {
    Error,
    Warning,
    Info,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ImportFormat {
    /// CloudFormation or SAM template (YAML or JSON; local nested stacks read with it), or a CDK cloud assembly folder (`cdk.out`).
    Cloudformation,
    /// Terraform plan JSON (`terraform show -json PLANFILE`).
    Terraform,
    /// AsyncAPI 2.x or 3.x document (YAML or JSON).
    Asyncapi,
    /// A folder of AWS CLI (or AWS Config query) JSON outputs about deployed resources, as `export-aws` makes it.
    AwsExport,
}

/// The resources `export-aws` writes the commands for.
#[derive(Debug, Clone, clap::Args)]
pub struct ExportAwsArgs {
    /// An SQS queue, by URL or name; repeatable.
    #[arg(long = "queue", value_name = "URL|NAME")]
    pub queues: Vec<String>,
    /// A Lambda function, by name: its configuration, event source mappings and asynchronous invocation settings; repeatable.
    #[arg(long = "function", value_name = "NAME")]
    pub functions: Vec<String>,
    /// An EventBridge rule, by name: the rule and its targets; repeatable.
    #[arg(long = "rule", value_name = "NAME")]
    pub rules: Vec<String>,
    /// The event bus of the `--rule`s [default: the account's default bus].
    #[arg(long = "event-bus", value_name = "NAME")]
    pub event_bus: Option<String>,
    /// A DynamoDB table, by name: the table, its TTL and its point-in-time recovery; repeatable.
    #[arg(long = "table", value_name = "NAME")]
    pub tables: Vec<String>,
    /// An SNS topic, by ARN: its subscriptions and their attributes; repeatable.
    #[arg(long = "topic", value_name = "ARN")]
    pub topics: Vec<String>,
    /// A Step Functions state machine, by ARN; repeatable.
    #[arg(long = "state-machine", value_name = "ARN")]
    pub state_machines: Vec<String>,
    /// An EventBridge pipe, by name; repeatable.
    #[arg(long = "pipe", value_name = "NAME")]
    pub pipes: Vec<String>,
    /// An EventBridge Scheduler schedule, by name; repeatable.
    #[arg(long = "schedule", value_name = "NAME")]
    pub schedules: Vec<String>,
    /// The schedule group of the `--schedule`s [default: the default group].
    #[arg(long = "group", value_name = "NAME")]
    pub group: Option<String>,
    /// A Kinesis data stream, by name; repeatable.
    #[arg(long = "stream", value_name = "NAME")]
    pub streams: Vec<String>,
    /// An AWS Config advanced query over every resource type the importer reads (`config.json`).
    #[arg(long = "config-query")]
    pub config_query: bool,
    /// Query this AWS Config aggregator (every account and Region it sees) instead of the current account and Region.
    #[arg(long, value_name = "NAME", requires = "config_query")]
    pub aggregator: Option<String>,
    /// The `--region` of every command.
    #[arg(long, value_name = "REGION")]
    pub region: Option<String>,
    /// The `--profile` of every command (read-only credentials are enough).
    #[arg(long, value_name = "PROFILE")]
    pub profile: Option<String>,
    /// The folder the script writes the files into.
    #[arg(long = "out-dir", value_name = "DIR", default_value = "aws-export")]
    pub out_dir: String,
}

/// A value of `check -o`: the file the `--format` output goes to, or another
/// format and its file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OutputArg {
    File(PathBuf),
    Also(CheckFormat, PathBuf),
}

/// `FORMAT=FILE` when the part before `=` is a format's name, else a file.
fn output_arg(v: &str) -> Result<OutputArg, String> {
    if let Some((f, file)) = v.split_once('=')
        && let Ok(format) = <CheckFormat as ValueEnum>::from_str(f, true)
    {
        if file.is_empty() {
            return Err(format!(
                "`{v}` names no file after `=`: write e.g. `{f}=report.out`"
            ));
        }
        return Ok(OutputArg::Also(format, PathBuf::from(file)));
    }
    Ok(OutputArg::File(PathBuf::from(v)))
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run every rule and print the findings (exit 1 on findings at or above --fail-on).
    Check(CheckArgs),
    /// Worst-case horizon at each guard, store and effect, with the arithmetic of the worst path.
    Horizon(HorizonArgs),
    /// Re-run the analysis with changed values; print the findings resolved, introduced and unchanged.
    #[command(name = "what-if")]
    WhatIf(WhatIfArgs),
    /// Compare with the architecture at a git revision (--base REV) or in a folder (--base-dir DIR):
    /// findings introduced and resolved, horizons, windows and minimum retentions that moved.
    /// Exit 1 when the change introduces a failing finding.
    Diff(DiffArgs),
    /// Compare the code (templates, plans, with their overlay) with what is deployed (--deployed
    /// FOLDER, an export of the live configuration): values that differ, resources on one side only,
    /// findings and horizons that move. Exit 1 when the deployed side has a failing finding the code
    /// does not.
    Drift(DriftArgs),
    /// Interactive what-if session (set, unset, undo, check, horizon, why, diff, save); reads a pipe too.
    Shell(ShellArgs),
    /// The review checklist report, per intent, with the graph drawn and the worst paths marked.
    Report(ReportArgs),
    /// The dependency graph (components, links, regions), findings marked.
    Graph(GraphArgs),
    /// Print a rule's page: what it detects, why it matters, how to fix it.
    Explain(ExplainArgs),
    /// List every rule.
    Rules(RulesArgs),
    /// List the built-in platform kinds, or show one with its defaults and sources.
    Catalog(CatalogArgs),
    /// A commented manifest skeleton from CloudFormation/SAM, Terraform (plan JSON or .tf files), AsyncAPI or an AWS CLI export.
    Import(ImportArgs),
    /// Print (never run) the read-only AWS CLI commands that save what `import aws-export` reads.
    ExportAws(ExportAwsArgs),
    /// Print the JSON Schema of the manifest, for editors (see docs/editors.md).
    Schema(SchemaArgs),
    /// Print a shell completion script.
    Completions(CompletionsArgs),
    /// Print the man page (roff): the full one, or a command's; or write every page to a folder.
    Man(ManArgs),
    /// Write a commented starter manifest that passes `check`.
    Init(InitArgs),
    /// Run the language server on stdin/stdout (LSP): diagnostics, hover, go to definition and fixes in the editor (see docs/editors.md).
    Lsp,
}

/// The arguments of `check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Manifest files or folders (every *.yaml / *.yml below), read as one architecture.
    #[arg(required_unless_present = "each", conflicts_with = "each")]
    pub paths: Vec<PathBuf>,
    /// CloudFormation template parameter among the paths, KEY=VALUE; repeatable.
    #[arg(long = "parameter", visible_alias = "var", value_name = "KEY=VALUE")]
    pub parameters: Vec<String>,
    /// Organisation mode: every manifest file directly in DIR, and every
    /// sub-folder of DIR with manifests, is a separate architecture;
    /// they are checked in parallel (RAYON_NUM_THREADS threads).
    #[arg(long, value_name = "DIR")]
    pub each: Option<PathBuf>,
    /// Output format [default: human on a terminal, else table; with --each, table (human and concise are refused)].
    #[arg(long, value_enum)]
    pub format: Option<CheckFormat>,
    /// Lowest severity that fails the run [default: `fail_on` of the policy file, else error].
    #[arg(long, value_enum)]
    pub fail_on: Option<FailOn>,
    /// Policy file [default: replay-audit.toml beside the first manifest path;
    /// with --each, each architecture's own].
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Fail only on findings whose fingerprint is not in this baseline file.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["write_baseline", "each"])]
    pub baseline: Option<PathBuf>,
    /// Write the fingerprints of the current (non-waived) findings to FILE; they then count as baselined.
    #[arg(long, value_name = "FILE", conflicts_with = "each")]
    pub write_baseline: Option<PathBuf>,
    /// Apply an overrides file (`TARGET: VALUE` lines, as the shell's `save` writes).
    #[arg(long, value_name = "FILE", conflicts_with = "each")]
    pub overrides: Option<PathBuf>,
    /// Write the output to FILE instead of standard output (written whole
    /// or not at all; input errors too); `FORMAT=FILE` writes that format
    /// to FILE as well, besides the `--format` output (repeatable, e.g.
    /// `-o sarif=results.sarif -o junit=junit.xml`).
    #[arg(short = 'o', long, value_name = "FILE|FORMAT=FILE", value_parser = output_arg)]
    pub output: Vec<OutputArg>,
    /// Show only the findings that fail the run (active, at or above --fail-on).
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// Show only findings of this severity or worse (the exit code still counts every finding).
    #[arg(long, value_enum, value_name = "SEVERITY")]
    pub min_severity: Option<FailOn>,
    /// Keep waived and baselined findings in SARIF (marked with
    /// `suppressions` and `baselineState`); by default SARIF leaves them
    /// out, since GitHub code scanning would show them as open alerts.
    #[arg(long)]
    pub include_accepted: bool,
    /// Apply the fixes the findings state with certainty (a window raised
    /// to the minimum safe value, with the policy's margin) to the
    /// manifest files, then report what remains. Templates are never edited.
    #[arg(long, conflicts_with_all = ["diff", "each"])]
    pub fix: bool,
    /// Print the fixes `--fix` would apply as a unified diff instead of the
    /// findings, and change nothing (exit 1 when there is something to fix).
    #[arg(long, conflicts_with = "each")]
    pub diff: bool,
}

/// The arguments of `horizon`.
#[derive(Debug, Args)]
pub struct HorizonArgs {
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// CloudFormation template parameter among the paths, KEY=VALUE; repeatable.
    #[arg(long = "parameter", visible_alias = "var", value_name = "KEY=VALUE")]
    pub parameters: Vec<String>,
    /// Only this intent.
    #[arg(long)]
    pub intent: Option<String>,
    /// Only this component.
    #[arg(long)]
    pub at: Option<String>,
    #[arg(long, value_enum, default_value_t = TextFormat::Text)]
    pub format: TextFormat,
    /// For each dedup layer (store, ledger, transport window, provider key window): the
    /// minimum safe retention, or what would bound an unbounded horizon.
    #[arg(long)]
    pub required: bool,
}

/// The arguments of `what-if`.
#[derive(Debug, Args)]
pub struct WhatIfArgs {
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// CloudFormation template parameter among the paths, KEY=VALUE; repeatable.
    #[arg(long = "parameter", visible_alias = "var", value_name = "KEY=VALUE")]
    pub parameters: Vec<String>,
    /// A change: ID.FIELD=VALUE, nested with dots and list indices
    /// (settlement-scheduler.sends_to[0].retry.attempts=5). VALUE is YAML.
    #[arg(long = "set", value_name = "TARGET=VALUE")]
    pub set: Vec<String>,
    /// Remove a field (its default applies).
    #[arg(long = "unset", value_name = "TARGET")]
    pub unset: Vec<String>,
    /// Apply an overrides file first (`TARGET: VALUE` lines).
    #[arg(long, value_name = "FILE")]
    pub overrides: Option<PathBuf>,
    #[arg(long, value_enum, default_value_t = TextFormat::Text)]
    pub format: TextFormat,
    /// Lowest severity of an introduced or remaining (not waived) finding that fails the run
    /// [default: `fail_on` of the policy file, else error].
    #[arg(long, value_enum)]
    pub fail_on: Option<FailOn>,
    /// Policy file (margin, severities, waivers) [default: replay-audit.toml beside the first manifest path].
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
}

/// The arguments of `diff`.
#[derive(Debug, Args)]
pub struct DiffArgs {
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// The git revision to compare with (the same paths, read with git).
    #[arg(
        long,
        value_name = "REV",
        required_unless_present = "base_dir",
        conflicts_with = "base_dir"
    )]
    pub base: Option<String>,
    /// A folder holding the base version of the architecture.
    #[arg(long, value_name = "DIR")]
    pub base_dir: Option<PathBuf>,
    /// CloudFormation template parameter among the paths, KEY=VALUE; repeatable.
    #[arg(long = "parameter", value_name = "KEY=VALUE")]
    pub parameters: Vec<String>,
    #[arg(long, value_enum, default_value_t = DiffFormat::Table)]
    pub format: DiffFormat,
    /// Lowest severity of an introduced (not waived) finding that fails the run
    /// [default: `fail_on` of the policy file, else error].
    #[arg(long, value_enum)]
    pub fail_on: Option<FailOn>,
    /// Policy file for both versions [default: the nearest replay-audit.toml of the current paths].
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
}

/// The arguments of `shell`.
#[derive(Debug, Args)]
pub struct ShellArgs {
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// CloudFormation template parameter among the paths, KEY=VALUE; repeatable.
    #[arg(long = "parameter", visible_alias = "var", value_name = "KEY=VALUE")]
    pub parameters: Vec<String>,
    /// Policy file (margin, severities, waivers) [default: replay-audit.toml beside the first manifest path].
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
}

/// The arguments of `report`.
#[derive(Debug, Args)]
pub struct ReportArgs {
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// CloudFormation template parameter among the paths, KEY=VALUE; repeatable.
    #[arg(long = "parameter", visible_alias = "var", value_name = "KEY=VALUE")]
    pub parameters: Vec<String>,
    #[arg(long, value_enum, default_value_t = ReportFormat::Markdown)]
    pub format: ReportFormat,
    /// Write the report to this file instead of standard output.
    #[arg(short = 'o', long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Policy file (margin, severities, waivers) [default: replay-audit.toml beside the first manifest path].
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
}

/// The arguments of `graph`.
#[derive(Debug, Args)]
pub struct GraphArgs {
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// CloudFormation template parameter among the paths, KEY=VALUE; repeatable.
    #[arg(long = "parameter", visible_alias = "var", value_name = "KEY=VALUE")]
    pub parameters: Vec<String>,
    #[arg(long, value_enum, default_value_t = GraphFormat::Dot)]
    pub format: GraphFormat,
    /// Write the graph to this file instead of standard output.
    #[arg(short = 'o', long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Policy file (margin, severities, waivers) [default: replay-audit.toml beside the first manifest path].
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
}

/// The arguments of `explain`.
#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// Rule code (RH001) or name (replay-outlives-dedup-window).
    #[arg(value_parser = Offered(rule_words), hide_possible_values = true)]
    pub code: String,
}

/// The arguments of `rules`.
#[derive(Debug, Args)]
pub struct RulesArgs {
    #[arg(long, value_enum, default_value_t = TextFormat::Text)]
    pub format: TextFormat,
}

/// The arguments of `catalog`.
#[derive(Debug, Args)]
pub struct CatalogArgs {
    #[arg(value_parser = Offered(kind_words), hide_possible_values = true)]
    pub kind: Option<String>,
    #[arg(long, value_enum, default_value_t = TextFormat::Text)]
    pub format: TextFormat,
}

/// The arguments of `import`.
#[derive(Debug, Args)]
pub struct ImportArgs {
    #[arg(value_enum)]
    pub format: ImportFormat,
    pub file: PathBuf,
    /// More CloudFormation templates, imported with FILE as one
    /// architecture (stacks linked by Export/ImportValue and ARNs).
    #[arg(value_name = "MORE")]
    pub more: Vec<PathBuf>,
    /// Template parameter value (CloudFormation), KEY=VALUE; repeatable.
    /// `--var` is the same for a Terraform variable.
    #[arg(long = "parameter", visible_alias = "var", value_name = "KEY=VALUE")]
    pub parameters: Vec<String>,
    /// A Terraform `.tfvars` file for a configuration (`.tf` file or
    /// module folder); repeatable, later files win.
    #[arg(long = "var-file", value_name = "FILE")]
    pub var_files: Vec<PathBuf>,
}

/// The arguments of `schema`.
#[derive(Debug, Args)]
pub struct SchemaArgs {
    /// The schema of `replay-audit.toml` instead.
    #[arg(long)]
    pub policy: bool,
}

/// The arguments of `completions`.
#[derive(Debug, Args)]
pub struct CompletionsArgs {
    #[arg(value_enum)]
    pub shell: CompletionShell,
}

/// The arguments of `man`.
#[derive(Debug, Args)]
pub struct ManArgs {
    /// Print the page of this command instead [default: the full page, every command].
    pub command: Option<String>,
    /// Write every page (replay-audit.1 and replay-audit-COMMAND.1) into DIR instead.
    #[arg(long, value_name = "DIR", conflicts_with = "command")]
    pub out_dir: Option<PathBuf>,
}

/// The arguments of `init`.
#[derive(Debug, Args)]
pub struct InitArgs {
    /// Write it to FILE instead of stdout (an existing file is never overwritten).
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CompletionShell {
    Bash,
    Zsh,
    Fish,
}

/// A free-text argument whose usual values are offered to shell completion
/// (`explain <Tab>` lists the rule codes): any text is accepted, so an
/// unknown one gets the command's own "did you mean" answer.
#[derive(Clone)]
pub struct Offered(fn() -> Vec<&'static str>);

impl clap::builder::TypedValueParser for Offered {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<String, clap::Error> {
        clap::builder::StringValueParser::new().parse_ref(cmd, arg, value)
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        Some(Box::new(
            (self.0)()
                .into_iter()
                .map(clap::builder::PossibleValue::new),
        ))
    }
}

/// Rule codes, then rule names.
fn rule_words() -> Vec<&'static str> {
    let rules = replay_audit::rules::RULES;
    rules
        .iter()
        .map(|r| r.code)
        .chain(rules.iter().map(|r| r.name))
        .collect()
}

/// The built-in kinds' ids.
fn kind_words() -> Vec<&'static str> {
    replay_audit::catalog::kind_ids().collect()
}

/// The arguments of `drift`.
#[derive(Debug, Args)]
pub struct DriftArgs {
    /// The code: templates, plans or folders of them, and the hand-written overlay manifest.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// What is deployed: a folder (or file) the engine reads, such as an export of the live
    /// configuration.
    #[arg(long, value_name = "FOLDER", required = true)]
    pub deployed: PathBuf,
    /// CloudFormation template parameter (Terraform variable) of the code, KEY=VALUE; repeatable.
    #[arg(long = "parameter", visible_alias = "var", value_name = "KEY=VALUE")]
    pub parameters: Vec<String>,
    #[arg(long, value_enum, default_value_t = DiffFormat::Table)]
    pub format: DiffFormat,
    /// Lowest severity of a finding only the deployed side has that fails the run
    /// [default: `fail_on` of the policy file, else error].
    #[arg(long, value_enum)]
    pub fail_on: Option<FailOn>,
    /// Policy file for both sides [default: the nearest replay-audit.toml of the code's paths].
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
}
