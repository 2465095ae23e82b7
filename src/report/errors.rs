//! Input errors (a manifest, template or policy that does not load) in the
//! machine formats, so a failed run is visible where CI looks: JSON an
//! `errors` array beside empty `findings`; SARIF a result per error and an
//! unsuccessful invocation with a notification per error; GitHub an
//! `::error` annotation per error; JUnit a failing test case per error;
//! Markdown a list; each format's `write_errors` writes them with these.
//! The terminal formats print nothing here: standard error has the
//! rustc-style rendering in every format.

use quick_junit::{NonSuccessKind, TestCase, TestCaseStatus, TestSuite};

use crate::diagnostics::{Diagnostic, SourceMap};
use crate::report::sarif::{self, Context};
use crate::report::{github, junit, markdown, xml};

/// The suite of input errors in JUnit.
pub const JUNIT_SUITE: &str = "(input)";

/// The message and, when there is one, its fix.
fn message(d: &Diagnostic) -> String {
    match &d.help {
        Some(h) => format!("{}\nhelp: {h}", d.message),
        None => d.message.clone(),
    }
}

/// `file:line:col`, or `None` for an error without a place.
fn place(map: &SourceMap, d: &Diagnostic) -> Option<String> {
    d.loc.map(|l| map.display(l))
}

/// The SARIF run of an input that could not be analysed: the one
/// `input-error` rule, a result per error, and the invocation marked
/// unsuccessful with a notification per error.
pub fn sarif_run(map: &SourceMap, errors: &[Diagnostic], cx: &Context) -> sarif::Run {
    sarif::error_run(
        errors
            .iter()
            .map(|d| (d.loc.map(|l| (map.path(l), l.line, l.col)), message(d)))
            .collect(),
        cx,
    )
}

/// A failing case per error, in a suite of its own name.
pub fn junit_suite(name: &str, map: &SourceMap, errors: &[Diagnostic]) -> TestSuite {
    let cases = errors
        .iter()
        .enumerate()
        .map(|(i, d)| {
            let at = place(map, d);
            let mut s = TestCaseStatus::non_success(NonSuccessKind::Failure);
            s.set_message(xml::value(&junit::one_line(&d.message)))
                .set_type("input error")
                .set_description(xml::value(&format!(
                    "{}: error: {}",
                    at.as_deref().unwrap_or("-"),
                    message(d)
                )));
            let title = match &at {
                Some(p) => format!("input error at {p}"),
                None => format!("input error {}", i + 1),
            };
            let mut case = TestCase::new(xml::value(&title), s);
            case.set_classname(xml::value(&format!("replay-audit.{name}")));
            case
        })
        .collect();
    junit::suite(name, cases)
}

/// An `::error` annotation per error.
pub fn github_lines(map: &SourceMap, errors: &[Diagnostic]) -> String {
    errors
        .iter()
        .map(|d| {
            let at = d.loc.map(|l| (map.path(l), l.line, l.col));
            github::line("error", at, "replay-audit input error", &message(d))
        })
        .collect()
}

/// The pull-request comment of a run that could not be analysed.
pub fn markdown_text(map: &SourceMap, errors: &[Diagnostic]) -> String {
    let mut s = format!(
        "## replay-audit\n\n**The input could not be analysed**: {} error(s).\n\n",
        errors.len()
    );
    for d in errors {
        let at = place(map, d).map(|p| format!("{}: ", markdown::escape(&p)));
        s.push_str(&format!(
            "- {}{}",
            at.unwrap_or_default(),
            markdown::escape(&d.message)
        ));
        if let Some(h) = &d.help {
            s.push_str(&format!(" (help: {})", markdown::escape(h)));
        }
        s.push('\n');
    }
    s
}
