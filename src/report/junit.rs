//! `--format junit`: JUnit XML (quick-junit, the serializer cargo-nextest
//! uses, rather than hand-built XML and its escaping).
//!
//! One test suite per intent with findings, plus `(no intent)` only when
//! some finding belongs to none; one test case per finding, so the counts
//! are the findings': it fails at or above the failing severity
//! (`--fail-on`), passes below it (info, by default warnings too) with the
//! finding as its output, and is skipped, with the reason, when a waiver
//! or the baseline accepts it; a finding an inline allowance in the
//! manifest accepts passes, its output starting `allowed: reason (inline
//! allowance at FILE:LINE)`. Every suite has the property
//! `replay-audit.policy`: the policy file that applied. An input that could not be analysed is one
//! failing case per error ([`crate::report::errors`]).

use crate::diagnostics::Diagnostic;
use crate::report::each::{Arch, Part};
use crate::report::errors;
use crate::report::format::Each;
use crate::report::root::Root;
use std::collections::BTreeMap;
use std::io::{self, Write};

use quick_junit::{NonSuccessKind, Property, Report, TestCase, TestCaseStatus, TestSuite};

use crate::diagnostics::SourceMap;
use crate::report::format::{CheckRun, Format};
use crate::report::{place, xml};
use crate::rules::{Finding, Severity};

/// Name of the suite for findings without an intent.
pub const NO_INTENT: &str = "(no intent)";

/// Every manifest string goes through [`xml::value`]: a character XML 1.0
/// forbids is shown instead of breaking the document, and a line break in
/// a value is shown as `\n`, so no line of a value starts a line of the
/// output.
///
/// JUnit XML of the findings, failing at errors (a clean intent has no
/// case).
pub fn render(map: &SourceMap, findings: &[Finding]) -> String {
    render_with(map, findings, &[])
}

/// As [`render`]; `waived`: per finding, in the same order, `Some(reason)`
/// for a finding a waiver covers (shorter or empty: the rest are not).
pub fn render_with(map: &SourceMap, findings: &[Finding], waived: &[Option<&str>]) -> String {
    to_text(&report(suites(map, findings, waived, Severity::Error)))
}

/// A report of the given suites.
pub fn report(suites: Vec<TestSuite>) -> Report {
    let mut r = Report::new("replay-audit");
    r.add_test_suites(suites);
    r
}

pub fn to_text(r: &Report) -> String {
    r.to_string().expect("JUnit XML serialises")
}

/// A suite per intent with findings, in intent order, then `(no intent)`
/// when a finding has none.
pub fn suites(
    map: &SourceMap,
    findings: &[Finding],
    waived: &[Option<&str>],
    threshold: Severity,
) -> Vec<TestSuite> {
    let mut by_intent: BTreeMap<&str, Vec<TestCase>> = BTreeMap::new();
    let mut none = Vec::new();
    for (i, f) in findings.iter().enumerate() {
        let w = waived.get(i).copied().flatten();
        let suite = f.intent.as_deref().unwrap_or(NO_INTENT);
        let case = case(map, f, w, threshold, &format!("replay-audit.{suite}"));
        match &f.intent {
            Some(intent) => by_intent.entry(intent).or_default().push(case),
            None => none.push(case),
        }
    }
    let mut out: Vec<TestSuite> = by_intent
        .into_iter()
        .map(|(name, cases)| suite(name, cases))
        .collect();
    if !none.is_empty() {
        out.push(suite(NO_INTENT, none));
    }
    out
}

/// Every finding of one architecture in one suite named after it (the
/// intent is in each case's class name), for `check --each`.
pub fn architecture_suite(
    name: &str,
    map: &SourceMap,
    findings: &[Finding],
    waived: &[Option<&str>],
    threshold: Severity,
) -> TestSuite {
    let cases = findings.iter().enumerate().map(|(i, f)| {
        let intent = f.intent.as_deref().unwrap_or(NO_INTENT);
        let w = waived.get(i).copied().flatten();
        case(
            map,
            f,
            w,
            threshold,
            &format!("replay-audit.{name}.{intent}"),
        )
    });
    suite(name, cases.collect())
}

pub fn suite(name: &str, cases: Vec<TestCase>) -> TestSuite {
    let mut s = TestSuite::new(xml::value(name));
    s.add_test_cases(cases);
    s
}

/// `CODE name: component (subject)`: what the finding is about, so that two
/// findings of one rule are told apart, and no line number, so a moved line
/// is the same case in a comparison of two runs (the place is in the
/// case's `file` and `line` attributes).
fn case_name(f: &Finding) -> String {
    let mut s = format!("{} {}", f.rule.code, f.rule.name);
    if let Some(c) = &f.component {
        s.push_str(&format!(": {c}"));
    }
    if let Some(subject) = &f.subject {
        s.push_str(&format!(" ({subject})"));
    }
    xml::value(&s)
}

/// The finding in full: place, severity, message, component, path,
/// assumptions and the fix, one per line.
fn detail(map: &SourceMap, f: &Finding) -> String {
    let mut text = format!(
        "{}: {}: {}\n",
        xml::value(&place(map, f)),
        f.severity.name(),
        xml::value(&f.message)
    );
    if let Some(c) = &f.component {
        text.push_str(&format!("  component: {}\n", xml::value(c)));
    }
    if !f.path.is_empty() {
        let path = f.path.join(" → ");
        text.push_str(&format!("  path: {}\n", xml::value(&path)));
    }
    for a in f.assumptions() {
        text.push_str(&format!("  assumes: {}\n", xml::value(a)));
    }
    text.push_str(&format!("  help: {}\n", xml::value(&f.help())));
    text.trim_end_matches('\n').to_string()
}

/// One finding's case: passing with the allowance when allowed inline,
/// skipped when otherwise accepted, failing at or above `threshold`, else
/// passing with the finding as its output.
fn case(
    map: &SourceMap,
    f: &Finding,
    accepted: Option<&str>,
    threshold: Severity,
    classname: &str,
) -> TestCase {
    let mut text = detail(map, f);
    let mut passed = false;
    let allowed = f.waived.as_ref().and_then(|w| w.inline.as_ref());
    let status = if let (Some(reason), Some(at)) = (accepted, allowed) {
        // Allowed in the manifest itself: a passing case whose output
        // starts with the allowance, as a test the code opts out of.
        passed = true;
        text = format!(
            "allowed: {} (inline allowance at {}:{})\n{text}",
            xml::value(reason),
            xml::value(&at.file),
            at.line
        );
        TestCaseStatus::success()
    } else if let Some(reason) = accepted {
        let mut s = TestCaseStatus::skipped();
        s.set_message(xml::value(&one_line(&format!("waived: {reason}"))))
            .set_description(format!("{text}\n  waived: {}", xml::value(reason)));
        s
    } else if f.severity >= threshold {
        let mut s = TestCaseStatus::non_success(NonSuccessKind::Failure);
        s.set_message(xml::value(&one_line(&f.message)))
            .set_type(f.severity.name())
            .set_description(text.clone());
        s
    } else {
        passed = true;
        TestCaseStatus::success()
    };
    let mut case = TestCase::new(case_name(f), status);
    case.set_classname(xml::value(classname));
    if let Some(l) = f.loc {
        case.extra
            .insert("file".into(), xml::value(map.path(l)).into());
        case.extra.insert("line".into(), l.line.to_string().into());
    }
    if passed {
        case.set_system_out(text);
    }
    case
}

/// An attribute value on one line: XML readers turn a raw line break in an
/// attribute into a space anyway, so say so plainly.
pub fn one_line(s: &str) -> String {
    s.replace("\r\n", " ").replace(['\r', '\n'], " ")
}

/// The property every suite of a run carries: which policy applied (the
/// file, or `none: the defaults apply`).
pub fn policy_property(policy: Option<&str>) -> Property {
    Property::new(
        "replay-audit.policy",
        xml::value(policy.unwrap_or("none: the defaults apply")),
    )
}

/// `--format junit`, a suite per intent with findings, each with the
/// policy property; a run with no finding has one empty suite,
/// `replay-audit`, to carry it.
pub struct JunitFormat;

/// The suites of [`JunitFormat`]: [`suites`], each with the policy property.
pub fn suites_with_policy(
    map: &SourceMap,
    findings: &[Finding],
    waived: &[Option<&str>],
    threshold: Severity,
    policy: Option<&str>,
) -> Vec<TestSuite> {
    let mut suites = suites(map, findings, waived, threshold);
    if suites.is_empty() {
        suites.push(suite("replay-audit", Vec::new()));
    }
    for s in &mut suites {
        s.add_property(policy_property(policy));
    }
    suites
}

impl Format for JunitFormat {
    fn write(&self, out: &mut dyn Write, run: &CheckRun) -> io::Result<()> {
        let suites = suites_with_policy(
            run.sources(),
            run.findings,
            run.accepted,
            run.threshold,
            run.notes.policy.as_deref(),
        );
        out.write_all(to_text(&report(suites)).as_bytes())
    }

    fn write_errors(
        &self,
        out: &mut dyn Write,
        map: &SourceMap,
        errors: &[Diagnostic],
        _root: &Root,
    ) -> io::Result<()> {
        let suite = errors::junit_suite(errors::JUNIT_SUITE, map, errors);
        out.write_all(to_text(&report(vec![suite])).as_bytes())
    }

    fn each(&self) -> Each {
        Each::Parts
    }

    fn part(&self, a: &Arch) -> Option<Part> {
        let accepted = crate::report::format::accepted(a.findings);
        let map = &a.manifest.sources;
        let mut suite = architecture_suite(a.name, map, a.findings, &accepted, a.threshold);
        suite.add_property(policy_property(a.notes.policy.as_deref()));
        Some(Part::Junit(Box::new(suite)))
    }

    fn failed_part(
        &self,
        name: &str,
        map: &SourceMap,
        errors: &[Diagnostic],
        _root: &Root,
    ) -> Option<Part> {
        Some(Part::Junit(Box::new(errors::junit_suite(
            name, map, errors,
        ))))
    }

    fn combine(&self, parts: Vec<Part>) -> String {
        let suites = parts
            .into_iter()
            .filter_map(|p| match p {
                Part::Junit(s) => Some(*s),
                _ => None,
            })
            .collect();
        to_text(&report(suites))
    }
}
