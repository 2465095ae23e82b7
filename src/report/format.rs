//! One interface for the outputs of `check`: a [`CheckRun`] holds what
//! every format may show, [`Format`] writes it, and [`of`] picks the
//! format of a `--format` value.

use std::io::{self, Write};

use crate::cli::CheckFormat;
use crate::diagnostics::SourceMap;
use crate::manifest::Manifest;
use crate::policy::Notes;
use crate::report::root::Root;
use crate::report::{
    concise, diagnostic, github, gitlab, horizon, json, junit, markdown, sarif, table,
};
use crate::rules::{Finding, Severity};

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
pub trait Format {
    fn write(&self, out: &mut dyn Write, run: &CheckRun) -> io::Result<()>;
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
