//! One interface for the outputs of `check`: [`CheckFormat`] names them
//! (the `--format` values), [`of`] gives each one's [`Format`], and a
//! format is one type in its own file that writes everything `check`
//! writes in it: the findings of a [`CheckRun`], the input errors of a run
//! that could not be analysed, and its part of `check --each`. A new
//! format is its file, a variant here and a line in [`of`].

use std::io::{self, Write};

use clap::ValueEnum;

use crate::diagnostics::{Diagnostic, SourceMap};
use crate::manifest::Manifest;
use crate::policy::Notes;
use crate::report::each::{Arch, Part};
use crate::report::root::Root;
use crate::report::{
    concise, diagnostic, github, gitlab, horizon, json, junit, markdown, sarif, table,
};
use crate::rules::{Finding, Severity};

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CheckFormat {
    /// A table of the findings [the default when standard output is not a terminal].
    Table,
    Json,
    /// SARIF 2.1.0 (GitHub code scanning, editors).
    Sarif,
    /// JUnit XML: a suite per intent, a test case per finding.
    Junit,
    /// GitHub Actions workflow commands (annotations).
    Github,
    /// A pull-request comment.
    Markdown,
    /// A GitLab Code Quality report (merge-request widget and diff).
    Gitlab,
    /// rustc-style diagnostics with the manifest lines, grouped by intent
    /// [the default on a terminal].
    #[value(alias = "pretty", alias = "full")]
    Human,
    /// One line per finding, `file:line:col: severity[CODE]: message` (editors, quickfix lists).
    #[value(alias = "short")]
    Concise,
}

impl CheckFormat {
    /// The format of a `check` run without `--format`: diagnostics on a
    /// terminal, the table otherwise (logs and pipes keep their output).
    pub fn default_for(stdout_is_terminal: bool) -> CheckFormat {
        if stdout_is_terminal {
            CheckFormat::Human
        } else {
            CheckFormat::Table
        }
    }
}

/// What one `check` run hands to its output.
pub struct CheckRun<'a> {
    /// The merged manifest (its sources place the findings).
    pub manifest: &'a Manifest,
    pub findings: &'a [Finding],
    /// Unused waivers and stale baseline entries.
    pub notes: &'a Notes,
    /// Per finding, in the same order, why it is accepted (see [`accepted`]).
    pub accepted: &'a [Option<&'a str>],
    /// The horizon table (only the Markdown comment shows it).
    pub horizon_rows: &'a [horizon::Row],
    /// Colour for a terminal (the table only).
    pub color: bool,
    /// The lowest severity that fails the run (JUnit fails those cases).
    pub threshold: Severity,
    /// What SARIF and GitHub paths are relative to.
    pub root: Root,
}

impl CheckRun<'_> {
    pub fn sources(&self) -> &SourceMap {
        &self.manifest.sources
    }
}

/// An output of `check`.
pub trait Format: Sync {
    /// The findings of one run.
    fn write(&self, out: &mut dyn Write, run: &CheckRun) -> io::Result<()>;

    /// The input errors of a run that could not be analysed, so that CI
    /// shows them where it reads this format; the terminal formats write
    /// nothing (standard error has the errors in every format).
    fn write_errors(
        &self,
        out: &mut dyn Write,
        map: &SourceMap,
        errors: &[Diagnostic],
        root: &Root,
    ) -> io::Result<()>;

    /// How `check --each` writes this format.
    fn each(&self) -> Each;

    /// An analysed architecture's part of `check --each` (for
    /// [`Each::Parts`]).
    fn part(&self, _a: &Arch) -> Option<Part> {
        None
    }

    /// The part of an architecture that could not be analysed.
    fn failed_part(
        &self,
        _name: &str,
        _map: &SourceMap,
        _errors: &[Diagnostic],
        _root: &Root,
    ) -> Option<Part> {
        None
    }

    /// The parts, in order, as one document.
    fn combine(&self, parts: Vec<Part>) -> String {
        parts
            .into_iter()
            .filter_map(|p| match p {
                Part::Text(t) => Some(t),
                _ => None,
            })
            .collect()
    }
}

/// How `check --each` writes a format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Each {
    /// A table per architecture under its heading, then the totals.
    Table,
    /// One JSON document of every architecture.
    Json,
    /// A part per architecture ([`Format::part`]) put together by
    /// [`Format::combine`].
    Parts,
    /// Lines that belong to one run: refused.
    Refused,
}

/// The format that `--format` names.
pub fn of(format: CheckFormat) -> &'static dyn Format {
    match format {
        CheckFormat::Table => &table::TableFormat,
        CheckFormat::Json => &json::JsonFormat,
        CheckFormat::Sarif => &sarif::SarifFormat,
        CheckFormat::Junit => &junit::JunitFormat,
        CheckFormat::Github => &github::GithubFormat,
        CheckFormat::Markdown => &markdown::MarkdownFormat,
        CheckFormat::Gitlab => &gitlab::GitlabFormat,
        CheckFormat::Human => &diagnostic::Human,
        CheckFormat::Concise => &concise::ConciseFormat,
    }
}

/// What `--quiet` and `--min-severity` let through (for `check` and
/// `check --each` alike); the exit code still counts every finding.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Shown {
    /// `--quiet`: only the findings that fail the run.
    pub quiet: bool,
    /// `--min-severity`.
    pub min_severity: Option<Severity>,
    /// Leave out the findings a waiver or the baseline accepts: SARIF does
    /// by default, since GitHub code scanning reads no `suppressions` and
    /// would show them as open alerts (`--include-accepted` keeps them).
    pub omit_accepted: bool,
}

impl Shown {
    /// Whether `f` is shown when findings at or above `threshold` fail.
    pub fn shows(&self, f: &Finding, threshold: Severity) -> bool {
        self.min_severity.is_none_or(|min| f.severity >= min)
            && (!self.quiet || f.fails(threshold))
            && !(self.omit_accepted && (f.waived.is_some() || f.baselined))
    }

    /// The notes as shown: under `--quiet`, which policy applied and
    /// nothing else.
    pub fn notes(&self, notes: Notes) -> Notes {
        if !self.quiet {
            return notes;
        }
        Notes {
            policy: notes.policy,
            ..Notes::default()
        }
    }
}

/// Per finding, the reason it is waived or baselined, for the formats that
/// mark them (SARIF suppressions, JUnit skipped cases).
pub fn accepted(findings: &[Finding]) -> Vec<Option<&str>> {
    findings
        .iter()
        .map(|f| match (&f.waived, f.baselined) {
            (Some(w), _) => Some(w.reason.as_str()),
            (None, true) => Some("listed in the baseline"),
            (None, false) => None,
        })
        .collect()
}
