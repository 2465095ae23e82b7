//! `--format junit`: JUnit XML (quick-junit, the serializer cargo-nextest
//! uses, rather than hand-built XML and its escaping).
//!
//! One test suite per intent, plus `(no intent)` for findings that belong
//! to none; in each, one test case per rule of [`RULES`]: passing without a
//! finding, failing with the findings' messages and places, skipped when
//! every finding of that rule there is waived.

use std::collections::{BTreeMap, BTreeSet};
use std::io::{self, Write};

use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};

use crate::diagnostics::SourceMap;
use crate::report::format::{CheckRun, Format};
use crate::report::{place, xml};
use crate::rules::{Finding, RULES};

/// A finding with its waiver reason, if a waiver covers it.
type Waivable<'a> = (&'a Finding, Option<&'a str>);

/// Name of the suite for findings without an intent.
pub const NO_INTENT: &str = "(no intent)";

/// Every manifest string goes through [`xml::value`]: a character XML 1.0
/// forbids is shown instead of breaking the document, and a line break in
/// a value is shown as `\n`, so no line of a value starts a line of the
/// output.
///
/// JUnit XML of the findings; `intents` are the manifest's intent ids, so
/// that a clean intent still shows its passing rules.
pub fn render(map: &SourceMap, intents: &[&str], findings: &[Finding]) -> String {
    render_with(map, intents, findings, &[])
}

/// As [`render`]; `waived`: per finding, in the same order, `Some(reason)`
/// for a finding a waiver covers (shorter or empty: the rest are not).
pub fn render_with(
    map: &SourceMap,
    intents: &[&str],
    findings: &[Finding],
    waived: &[Option<&str>],
) -> String {
    // suite -> rule code -> findings (with their waiver).
    let mut by_suite: BTreeMap<&str, BTreeMap<&str, Vec<Waivable>>> = BTreeMap::new();
    let names: BTreeSet<&str> = intents
        .iter()
        .copied()
        .chain(findings.iter().filter_map(|f| f.intent.as_deref()))
        .collect();
    for (i, f) in findings.iter().enumerate() {
        let suite = f.intent.as_deref().unwrap_or(NO_INTENT);
        let w = waived.get(i).copied().flatten();
        by_suite
            .entry(suite)
            .or_default()
            .entry(f.rule.code)
            .or_default()
            .push((f, w));
    }
    let mut report = Report::new("replay-audit");
    let empty = BTreeMap::new();
    for suite_name in names.into_iter().chain([NO_INTENT]) {
        let found = by_suite.get(suite_name).unwrap_or(&empty);
        let mut suite = TestSuite::new(xml::value(suite_name));
        for r in RULES {
            let list = found.get(r.code).map_or(&[][..], Vec::as_slice);
            let open: Vec<&Finding> = list
                .iter()
                .filter(|(_, w)| w.is_none())
                .map(|(f, _)| *f)
                .collect();
            let status = if list.is_empty() {
                TestCaseStatus::success()
            } else if open.is_empty() {
                let mut s = TestCaseStatus::skipped();
                let reasons: Vec<String> = list
                    .iter()
                    .map(|(f, w)| {
                        format!(
                            "{}: {}: {}\n  waived: {}",
                            xml::value(&place(map, f)),
                            f.severity.name(),
                            xml::value(&f.message),
                            xml::value(w.unwrap_or(""))
                        )
                    })
                    .collect();
                s.set_message(xml::value(&one_line(&format!(
                    "waived: {}",
                    list[0].1.unwrap_or("")
                ))))
                .set_description(reasons.join("\n"));
                s
            } else {
                let mut s = TestCaseStatus::non_success(NonSuccessKind::Failure);
                let message = if open.len() == 1 {
                    xml::value(&one_line(&open[0].message))
                } else {
                    format!("{} findings of {} {}", open.len(), r.code, r.name)
                };
                let mut text = String::new();
                for (f, w) in list {
                    text.push_str(&format!(
                        "{}: {}: {}\n",
                        xml::value(&place(map, f)),
                        f.severity.name(),
                        xml::value(&f.message)
                    ));
                    if let Some(reason) = w {
                        text.push_str(&format!("  waived: {}\n", xml::value(reason)));
                    }
                    if let Some(c) = &f.component {
                        text.push_str(&format!("  component: {}\n", xml::value(c)));
                    }
                    if !f.path.is_empty() {
                        let path = f.path.join(" → ");
                        text.push_str(&format!("  path: {}\n", xml::value(&path)));
                    }
                    for a in &f.assumptions {
                        text.push_str(&format!("  assumes: {}\n", xml::value(a)));
                    }
                }
                s.set_message(message)
                    .set_type(f_severity(&open))
                    .set_description(text.trim_end_matches('\n'));
                s
            };
            let mut case = TestCase::new(format!("{} {}", r.code, r.name), status);
            case.set_classname(xml::value(&format!("replay-audit.{suite_name}")));
            suite.add_test_case(case);
        }
        report.add_test_suite(suite);
    }
    report.to_string().expect("JUnit XML serialises")
}

/// An attribute value on one line: XML readers turn a raw line break in an
/// attribute into a space anyway, so say so plainly.
fn one_line(s: &str) -> String {
    s.replace("\r\n", " ").replace(['\r', '\n'], " ")
}

/// The failure's type: the worst severity among the open findings.
fn f_severity(open: &[&Finding]) -> &'static str {
    open.iter()
        .map(|f| f.severity)
        .max()
        .map_or("error", |s| s.name())
}

/// `--format junit`, a suite per intent of the manifest.
pub struct JunitFormat;

impl Format for JunitFormat {
    fn write(&self, out: &mut dyn Write, run: &CheckRun) -> io::Result<()> {
        let intents: Vec<&str> = run.manifest.intents.iter().map(|i| i.id.as_str()).collect();
        let text = render_with(run.sources(), &intents, run.findings, run.accepted);
        out.write_all(text.as_bytes())
    }
}
