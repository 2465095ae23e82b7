//! `--format sarif`: one run of findings (worst paths placed, accepted
//! findings suppressed), a run of input errors, and for `check --each` a
//! run per architecture folded into one past GitHub's limit of runs.

use std::io::{self, Write};

use super::{
    AutomationDetails, Context, GITHUB_FINGERPRINT_KEY, MAX_RESULTS, Run, log_of, note_left_out,
    streamed_run, to_text, within_limit, write_log,
};
use crate::diagnostics::{Diagnostic, SourceMap};
use crate::report::each::{Arch, Part};
use crate::report::errors;
use crate::report::format::{self, CheckRun, Each, Format};
use crate::report::root::Root;

/// GitHub code scanning rejects a SARIF file of more than 20 runs.
pub const MAX_SARIF_RUNS: usize = 20;

/// `--format sarif`.
pub struct SarifFormat;

impl Format for SarifFormat {
    fn write(&self, out: &mut dyn Write, r: &CheckRun) -> io::Result<()> {
        let map = r.root.map(r.sources());
        let (findings, accepted, dropped) = within_limit(r.findings, r.accepted);
        let cx = Context {
            manifest: Some(r.manifest),
            waived: &accepted,
            root: Some(&r.root),
            architecture: None,
            policy: Some(r.notes.policy.as_deref()),
        };
        let mut run = streamed_run(&map, &findings, &cx);
        note_left_out(&mut run, dropped);
        write_log(out, &log_of(vec![run]))
    }

    fn write_errors(
        &self,
        out: &mut dyn Write,
        map: &SourceMap,
        errors: &[Diagnostic],
        root: &Root,
    ) -> io::Result<()> {
        let cx = Context {
            root: Some(root),
            ..Context::default()
        };
        let run = errors::sarif_run(&root.map(map), errors, &cx);
        out.write_all(to_text(&log_of(vec![run])).as_bytes())
    }

    fn each(&self) -> Each {
        Each::Parts
    }

    fn part(&self, a: &Arch) -> Option<Part> {
        let map = &a.manifest.sources;
        let accepted = format::accepted(a.findings);
        let id = a.root.display(a.name);
        let (findings, accepted, dropped) = within_limit(a.findings, &accepted);
        let cx = Context {
            manifest: Some(a.manifest),
            waived: &accepted,
            root: Some(a.root),
            architecture: Some(&id),
            policy: Some(a.notes.policy.as_deref()),
        };
        let mut run = super::run(&a.root.map(map), &findings, &cx);
        note_left_out(&mut run, dropped);
        Some(Part::Sarif(Box::new(run)))
    }

    fn failed_part(
        &self,
        name: &str,
        map: &SourceMap,
        errors: &[Diagnostic],
        root: &Root,
    ) -> Option<Part> {
        let id = root.display(name);
        let cx = Context {
            root: Some(root),
            architecture: Some(&id),
            ..Context::default()
        };
        let run = errors::sarif_run(&root.map(map), errors, &cx);
        Some(Part::Sarif(Box::new(run)))
    }

    fn combine(&self, parts: Vec<Part>) -> String {
        let runs = parts
            .into_iter()
            .filter_map(|p| match p {
                Part::Sarif(r) => Some(*r),
                _ => None,
            })
            .collect();
        to_text(&log_of(fold(runs)))
    }
}

/// The runs of `check --each` within GitHub's limit: a run per
/// architecture (each its own category) up to [`MAX_SARIF_RUNS`], else one
/// run for all under the category `replay-audit/`, with an invocation per
/// architecture and each result's GitHub identity prefixed by its
/// architecture's category, so that none is shared.
fn fold(runs: Vec<Run>) -> Vec<Run> {
    if runs.len() <= MAX_SARIF_RUNS {
        return runs;
    }
    let mut all = runs.into_iter();
    let Some(mut one) = all.next() else {
        return Vec::new();
    };
    let prefix = |run: &mut Run| {
        let id = run
            .automation_details
            .take()
            .map(|a| a.id)
            .unwrap_or_default();
        for r in &mut run.results {
            if let Some(fp) = r.partial_fingerprints.get_mut(GITHUB_FINGERPRINT_KEY) {
                *fp = format!("{id}{fp}");
            }
        }
    };
    prefix(&mut one);
    for mut run in all {
        prefix(&mut run);
        one.results.append(&mut run.results);
        one.invocations.append(&mut run.invocations);
    }
    // One run holds at most 25,000 results: the most severe stay.
    if one.results.len() > MAX_RESULTS {
        let rank = |level: &str| match level {
            "error" => 0,
            "warning" => 1,
            _ => 2,
        };
        let dropped = one.results.len() - MAX_RESULTS;
        one.results.sort_by_key(|r| rank(r.level));
        one.results.truncate(MAX_RESULTS);
        note_left_out(&mut one, dropped);
    }
    one.automation_details = Some(AutomationDetails {
        id: "replay-audit/".to_string(),
    });
    // Each architecture's policy is in its own invocation's run no more.
    one.properties = None;
    vec![one]
}
