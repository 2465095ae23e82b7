//! `--format github`: GitHub Actions workflow commands, one annotation per
//! finding: `::error file=F,line=L,col=C,title=CODE name::message`, with
//! `F` relative to the repository root ([`Root`]); a `::warning` per
//! unused waiver, waiver that never expires (at its place in the policy
//! file) and stale baseline entry; a `::notice` naming the policy file
//! that applied; an `::error` per input error ([`crate::report::errors`]).
//!
//! Escaping follows the runner's rules (`@actions/core`, `command.ts`): in
//! the message, `%`, `\r` and `\n`; in property values, those and also `:`
//! and `,`, which would otherwise end the value or the property list.

use crate::diagnostics::Diagnostic;
use crate::report::each::{Arch, Part};
use crate::report::format::Each;
use std::io::{self, Write};

use crate::diagnostics::{SourceMap, inert};
use crate::policy::Notes;
use crate::report::format::{CheckRun, Format};
use crate::report::root::Root;
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

/// `::CMD file=F,line=L,col=C,title=T::DATA`, every value escaped; the
/// place only when there is one.
/// A name that is no file (`<stdin>`) cannot place an annotation: the
/// place then leads the data.
pub fn line(cmd: &str, place: Option<(&str, u32, u32)>, title: &str, data: &str) -> String {
    let mut props = Vec::new();
    if let Some((file, line, col)) = place
        && file == crate::engine::STDIN
    {
        let data = format!("{file}:{line}:{col}: {data}");
        return self::line(cmd, None, title, &data);
    }
    if let Some((file, line, col)) = place {
        props.push(format!("file={}", escape_property(file)));
        props.push(format!("line={}", line.max(1)));
        props.push(format!("col={}", col.max(1)));
    }
    props.push(format!("title={}", escape_property(title)));
    format!("::{cmd} {}::{}\n", props.join(","), escape_data(data))
}

/// A `::warning` per unused waiver and per waiver that never expires (at
/// its place in the policy file), and per stale baseline entry.
pub fn render_notes(root: &Root, notes: &Notes) -> String {
    let mut out = String::new();
    for w in &notes.never_expiring_waivers {
        let file = root.display(&w.location.file);
        out.push_str(&line(
            "warning",
            Some((&file, w.location.line, w.location.column)),
            "replay-audit waiver never expires",
            &w.message(),
        ));
    }
    for w in &notes.unused_waivers {
        let file = root.display(&w.location.file);
        let title = match w.inline {
            true => "replay-audit unused inline allowance",
            false => "replay-audit unused waiver",
        };
        out.push_str(&line(
            "warning",
            Some((&file, w.location.line, w.location.column)),
            title,
            &w.message(),
        ));
    }
    for s in &notes.stale_baseline {
        out.push_str(&line(
            "warning",
            None,
            "replay-audit stale baseline entry",
            &format!(
                "baseline entry `{s}` no longer occurs; rewrite the baseline with --write-baseline"
            ),
        ));
    }
    out
}

/// The `::notice` saying which policy applied: `policy_line` is
/// [`Notes::policy_line`] (with the architecture before it under `--each`).
pub fn policy_notice(policy_line: &str) -> String {
    line("notice", None, "replay-audit policy", policy_line)
}

/// One line per finding; nothing for no finding.
pub fn render(map: &SourceMap, findings: &[Finding]) -> String {
    let mut out = String::new();
    for f in findings {
        // An accepted finding (waived or baselined) is a notice, so the
        // pull request does not show an error that does not fail the run.
        let (cmd, accepted) = match (&f.waived, f.baselined) {
            (Some(w), _) => ("notice", format!(" ({}: {})", w.word(), w.reason)),
            (None, true) => ("notice", " (baselined)".to_string()),
            (None, false) => (command(f.severity), String::new()),
        };
        let place = f.loc.map(|l| (map.path(l), l.line, l.col));
        let title = format!("{} {}{accepted}", f.rule.code, f.rule.name);
        out.push_str(&line(cmd, place, &title, &f.message));
    }
    out
}

/// `--format github`.
pub struct GithubFormat;

impl Format for GithubFormat {
    fn write(&self, out: &mut dyn Write, run: &CheckRun) -> io::Result<()> {
        let map = run.root.map(run.sources());
        out.write_all(render(&map, run.findings).as_bytes())?;
        out.write_all(render_notes(&run.root, run.notes).as_bytes())?;
        out.write_all(policy_notice(&run.notes.policy_line()).as_bytes())
    }

    fn write_errors(
        &self,
        out: &mut dyn Write,
        map: &SourceMap,
        errors: &[Diagnostic],
        root: &Root,
    ) -> io::Result<()> {
        out.write_all(crate::report::errors::github_lines(&root.map(map), errors).as_bytes())
    }

    fn each(&self) -> Each {
        Each::Parts
    }

    fn part(&self, a: &Arch) -> Option<Part> {
        let map = a.root.map(&a.manifest.sources);
        Some(Part::Text(
            render(&map, a.findings) + &render_notes(a.root, a.notes),
        ))
    }

    fn failed_part(
        &self,
        _name: &str,
        map: &SourceMap,
        errors: &[Diagnostic],
        root: &Root,
    ) -> Option<Part> {
        let lines = crate::report::errors::github_lines(&root.map(map), errors);
        Some(Part::Text(lines))
    }
}
