//! `--format github`: GitHub Actions workflow commands, one annotation per
//! finding: `::error file=F,line=L,col=C,title=CODE name::message`.
//!
//! Escaping follows the runner's rules (`@actions/core`, `command.ts`): in
//! the message, `%`, `\r` and `\n`; in property values, those and also `:`
//! and `,`, which would otherwise end the value or the property list.

use std::io::{self, Write};

use crate::diagnostics::{SourceMap, inert};
use crate::report::format::{CheckRun, Format};
use crate::rules::{Finding, Severity};

/// Escapes the data after the closing `::`.
/// Other control characters (ESC would colour the job log) become visible
/// (see [`inert`]).
pub fn escape_data(s: &str) -> String {
    inert(
        &s.replace('%', "%25")
            .replace('\r', "%0D")
            .replace('\n', "%0A"),
    )
}

/// Escapes a property value (`file=`, `title=`).
pub fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

pub fn command(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "notice",
    }
}

/// One line per finding; nothing for no finding.
pub fn render(map: &SourceMap, findings: &[Finding]) -> String {
    let mut out = String::new();
    for f in findings {
        let mut props = Vec::new();
        if let Some(l) = f.loc {
            props.push(format!("file={}", escape_property(map.path(l))));
            props.push(format!("line={}", l.line.max(1)));
            props.push(format!("col={}", l.col.max(1)));
        }
        // An accepted finding (waived or baselined) is a notice, so the
        // pull request does not show an error that does not fail the run.
        let (cmd, accepted) = match (&f.waived, f.baselined) {
            (Some(w), _) => ("notice", format!(" (waived: {})", w.reason)),
            (None, true) => ("notice", " (baselined)".to_string()),
            (None, false) => (command(f.severity), String::new()),
        };
        props.push(format!(
            "title={}",
            escape_property(&format!("{} {}{accepted}", f.rule.code, f.rule.name))
        ));
        out.push_str(&format!(
            "::{} {}::{}\n",
            cmd,
            props.join(","),
            escape_data(&f.message)
        ));
    }
    out
}

/// `--format github`.
pub struct GithubFormat;

impl Format for GithubFormat {
    fn write(&self, out: &mut dyn Write, run: &CheckRun) -> io::Result<()> {
        out.write_all(render(run.sources(), run.findings).as_bytes())
    }
}
