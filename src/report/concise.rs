//! `--format concise`: one line per finding,
//! `file:line:col: severity[CODE]: message`,
//! the shape editors' quickfix lists and `errorformat` read (ruff's and
//! clippy's short output); the summary line, then which policy applied.

use crate::diagnostics::{Diagnostic, SourceMap};
use crate::report::format::Each;
use crate::report::root::Root;
use std::io::{self, Write};

use crate::diagnostics::echo;
use crate::report::format::{CheckRun, Format};
use crate::report::{Summary, place};
use crate::rules::Finding;

/// Every finding on one line, then the counts.
pub fn render(map: &crate::diagnostics::SourceMap, findings: &[Finding]) -> String {
    let mut out = String::new();
    for f in findings {
        let accepted = match (&f.waived, f.baselined) {
            (Some(w), _) => format!(" ({}: {})", w.word(), w.reason),
            (None, true) => " (baselined)".to_string(),
            (None, false) => String::new(),
        };
        // One finding, one line: an echoed value never breaks it.
        let head = format!("{}[{}]: {}", f.severity.name(), f.rule.code, f.message);
        let line = match f.loc {
            Some(_) => format!("{}: {head}{accepted}", place(map, f)),
            None => format!("{head}{accepted}"),
        };
        out.push_str(&echo(&line));
        out.push('\n');
    }
    if findings.is_empty() {
        out.push_str("No findings.\n");
    } else {
        out.push_str(&Summary::of(findings).line());
        out.push('\n');
    }
    out
}

/// `--format concise`.
pub struct ConciseFormat;

impl Format for ConciseFormat {
    fn write(&self, out: &mut dyn Write, run: &CheckRun) -> io::Result<()> {
        out.write_all(render(run.sources(), run.findings).as_bytes())?;
        writeln!(out, "{}", echo(&run.notes.policy_line()))
    }

    fn write_errors(
        &self,
        _out: &mut dyn Write,
        _map: &SourceMap,
        _errors: &[Diagnostic],
        _root: &Root,
    ) -> io::Result<()> {
        // On a terminal the errors are on standard error only.
        Ok(())
    }

    fn each(&self) -> Each {
        Each::Refused
    }
}
