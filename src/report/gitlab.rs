//! `--format gitlab`: a GitLab Code Quality report, the JSON array GitLab
//! shows in a merge request's Code Quality widget and diff (each issue's
//! `description`, `check_name`, `fingerprint`, `severity` and
//! `location.path` / `location.lines.begin`, as GitLab documents them).
//!
//! A finding a waiver or the baseline accepts is left out: Code Quality has
//! no notion of an accepted issue, and one it shows is one to fix. The
//! fingerprint is the finding's identity without line numbers
//! ([`crate::report::Identities`]), so a moved line is the same issue in
//! GitLab's comparison of two pipelines. An input that could not be
//! analysed is one `blocker` issue per error.

use crate::report::each::{Arch, Part};
use crate::report::format::Each;
use crate::report::root::Root;
use std::io::{self, Write};

use serde::Serialize;

use crate::diagnostics::{Diagnostic, Loc, SourceMap};
use crate::report::Identities;
use crate::report::format::{CheckRun, Format};
use crate::rules::{Finding, Severity};

/// One Code Quality issue.
#[derive(Debug, Serialize)]
pub struct Issue {
    pub description: String,
    pub check_name: String,
    pub fingerprint: String,
    pub severity: &'static str,
    pub location: Location,
}

#[derive(Debug, Serialize)]
pub struct Location {
    pub path: String,
    pub lines: Lines,
}

#[derive(Debug, Serialize)]
pub struct Lines {
    pub begin: u32,
}

/// Code Quality's severity of a finding's: an error fails the review, a
/// warning should be looked at, an info is for the record.
fn severity(s: Severity) -> &'static str {
    match s {
        Severity::Error => "critical",
        Severity::Warning => "major",
        Severity::Info => "info",
    }
}

/// Where an issue points: the finding's place, else the first file of the
/// run at line 1 (Code Quality needs a path).
fn location(map: &SourceMap, loc: Option<Loc>) -> Location {
    let loc = loc.unwrap_or(Loc {
        file: 0,
        line: 1,
        col: 1,
    });
    Location {
        path: map
            .files
            .get(loc.file as usize)
            .map_or_else(String::new, |f| f.path.clone()),
        lines: Lines {
            begin: loc.line.max(1),
        },
    }
}

/// The issues of the findings not accepted (`accepted[i]` is `Some` for
/// a waived or baselined finding), their fingerprints prefixed by
/// `prefix` (the architecture, with `check --each`).
pub fn issues(
    map: &SourceMap,
    findings: &[Finding],
    accepted: &[Option<&str>],
    prefix: &str,
) -> Vec<Issue> {
    let mut ids = Identities::default();
    findings
        .iter()
        .enumerate()
        .filter(|(i, _)| accepted.get(*i).copied().flatten().is_none())
        .map(|(_, f)| Issue {
            description: format!("{}: {}", f.rule.code, f.message),
            check_name: format!("{} {}", f.rule.code, f.rule.name),
            fingerprint: format!("{prefix}{}", ids.next(f)),
            severity: severity(f.severity),
            location: location(map, f.loc),
        })
        .collect()
}

/// One `blocker` issue per input error.
pub fn error_issues(map: &SourceMap, errors: &[Diagnostic], prefix: &str) -> Vec<Issue> {
    errors
        .iter()
        .enumerate()
        .map(|(n, d)| Issue {
            description: match &d.help {
                Some(h) => format!("{} (help: {h})", d.message),
                None => d.message.clone(),
            },
            check_name: "input-error".to_string(),
            fingerprint: format!("{prefix}input-error#{}", n + 1),
            severity: "blocker",
            location: location(map, d.loc),
        })
        .collect()
}

/// The report: a JSON array, pretty-printed, every string inert as in the
/// other JSON outputs.
pub fn write(out: &mut dyn Write, issues: &[Issue]) -> io::Result<()> {
    crate::report::json::write_pretty(&mut *out, issues)?;
    out.write_all(b"\n")
}

/// `--format gitlab`.
pub struct GitlabFormat;

impl Format for GitlabFormat {
    fn write(&self, out: &mut dyn Write, r: &CheckRun) -> io::Result<()> {
        let map = r.root.map(r.sources());
        write(out, &issues(&map, r.findings, r.accepted, ""))
    }

    fn write_errors(
        &self,
        out: &mut dyn Write,
        map: &SourceMap,
        errors: &[Diagnostic],
        root: &Root,
    ) -> io::Result<()> {
        write(out, &error_issues(&root.map(map), errors, ""))
    }

    fn each(&self) -> Each {
        Each::Parts
    }

    // Fingerprints are unique across the report: each is prefixed by its
    // architecture.
    fn part(&self, a: &Arch) -> Option<Part> {
        let accepted = crate::report::format::accepted(a.findings);
        let map = a.root.map(&a.manifest.sources);
        let prefix = format!("{}/", a.root.display(a.name));
        Some(Part::Gitlab(issues(&map, a.findings, &accepted, &prefix)))
    }

    fn failed_part(
        &self,
        name: &str,
        map: &SourceMap,
        errors: &[Diagnostic],
        root: &Root,
    ) -> Option<Part> {
        let prefix = format!("{}/", root.display(name));
        Some(Part::Gitlab(error_issues(&root.map(map), errors, &prefix)))
    }

    fn combine(&self, parts: Vec<Part>) -> String {
        let all: Vec<Issue> = parts
            .into_iter()
            .flat_map(|p| match p {
                Part::Gitlab(i) => i,
                _ => Vec::new(),
            })
            .collect();
        let mut out = Vec::new();
        write(&mut out, &all).expect("writes to memory");
        String::from_utf8(out).expect("JSON is UTF-8")
    }
}
