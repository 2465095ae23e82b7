//! `--format json`: the stable contract of `cli.md`.

use std::io::{self, Write};

use serde::Serialize;

use crate::diagnostics::{Diagnostic, Location, SourceMap};
use crate::policy::Notes;
use crate::report::Summary;
use crate::report::format::{CheckRun, Format};
use crate::rules::{Finding, Waived};

#[derive(Debug, Serialize)]
pub struct JsonFinding {
    pub code: &'static str,
    pub name: &'static str,
    pub severity: &'static str,
    pub message: String,
    pub intent: Option<String>,
    pub component: Option<String>,
    pub horizon_seconds: Option<u64>,
    pub window_seconds: Option<u64>,
    pub path: Vec<String>,
    pub assumptions: Vec<String>,
    pub location: Option<Location>,
    /// The live waiver covering it, or null.
    pub waived: Option<Waived>,
    /// Listed in the `--baseline` file.
    pub baselined: bool,
}

impl JsonFinding {
    pub fn from(map: &SourceMap, f: &Finding) -> JsonFinding {
        JsonFinding {
            code: f.rule.code,
            name: f.rule.name,
            severity: f.severity.name(),
            message: f.message.clone(),
            intent: f.intent.clone(),
            component: f.component.clone(),
            horizon_seconds: f.horizon.and_then(|h| h.secs()),
            window_seconds: f.window.and_then(|w| w.secs()),
            path: f.path.clone(),
            assumptions: f.assumptions.clone(),
            location: f.loc.map(|l| map.location(l)),
            waived: f.waived.clone(),
            baselined: f.baselined,
        }
    }
}

/// One input error: what is wrong, where, and how to fix it.
#[derive(Debug, Clone, Serialize)]
pub struct JsonError {
    pub message: String,
    pub location: Option<Location>,
    pub help: Option<String>,
}

impl JsonError {
    pub fn from(map: &SourceMap, d: &Diagnostic) -> JsonError {
        JsonError {
            message: d.message.clone(),
            location: d.loc.map(|l| map.location(l)),
            help: d.help.clone(),
        }
    }
}

#[derive(Serialize)]
struct Report<'a> {
    version: u32,
    findings: Lazy<'a>,
    summary: Summary,
    #[serde(flatten)]
    notes: Notes,
    /// Only when the input could not be analysed (exit 2).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    errors: Vec<JsonError>,
}

/// The findings, each converted as it is written: a large report never
/// holds a second copy of every finding.
struct Lazy<'a>(&'a SourceMap, &'a [Finding]);

impl Serialize for Lazy<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.1.iter().map(|f| JsonFinding::from(self.0, f)))
    }
}

pub fn render(map: &SourceMap, findings: &[Finding]) -> String {
    render_with(map, findings, &Notes::default())
}

/// [`render`] with the policy's and the baseline's notes (`unused_waivers`,
/// `stale_baseline`).
pub fn render_with(map: &SourceMap, findings: &[Finding], notes: &Notes) -> String {
    let mut buf = Vec::new();
    write_with(&mut buf, map, findings, notes).expect("writing to memory cannot fail");
    String::from_utf8(buf).expect("serde_json writes UTF-8")
}

/// [`render_with`] straight to a writer, so a large report is never held
/// whole in memory.
pub fn write_with(
    mut w: impl std::io::Write,
    map: &SourceMap,
    findings: &[Finding],
    notes: &Notes,
) -> std::io::Result<()> {
    let r = Report {
        version: 1,
        findings: Lazy(map, findings),
        summary: Summary::of(findings),
        notes: notes.clone(),
        errors: Vec::new(),
    };
    serde_json::to_writer_pretty(&mut w, &r)?;
    w.write_all(b"\n")
}

/// The report of an input that could not be analysed: no findings, zero
/// counts, and its `errors`.
pub fn write_errors(
    mut w: impl std::io::Write,
    map: &SourceMap,
    errors: &[Diagnostic],
) -> std::io::Result<()> {
    let r = Report {
        version: 1,
        findings: Lazy(map, &[]),
        summary: Summary::default(),
        notes: Notes::default(),
        errors: errors.iter().map(|d| JsonError::from(map, d)).collect(),
    };
    serde_json::to_writer_pretty(&mut w, &r)?;
    w.write_all(b"\n")
}

/// `--format json`, written as it is produced: a large report is never held
/// whole.
pub struct JsonFormat;

impl Format for JsonFormat {
    fn write(&self, out: &mut dyn Write, run: &CheckRun) -> io::Result<()> {
        write_with(out, run.sources(), run.findings, run.notes)
    }
}
