//! The formats of `check --each`: each architecture is rendered on its own
//! (in parallel, by [`crate::org`]) into a [`Part`], and the parts are put
//! together in path order: one SARIF run per architecture (told apart by
//! `automationDetails.id`), one JUnit suite per architecture, GitHub
//! annotations one after the other, a Markdown section per architecture.
//! JSON and the table keep their own layout in `org`.

use quick_junit::TestSuite;

use crate::cli::CheckFormat;
use crate::diagnostics::{Diagnostic, SourceMap};
use crate::manifest::Manifest;
use crate::policy::Notes;
use crate::report::root::Root;
use crate::report::sarif::{self, Context};
use crate::report::{errors, format, github, gitlab, junit, markdown};
use crate::rules::{Finding, Severity};

/// One architecture in the chosen format.
#[derive(Debug)]
pub enum Part {
    Text(String),
    Sarif(Box<sarif::Run>),
    Junit(Box<TestSuite>),
    Gitlab(Vec<gitlab::Issue>),
}

/// What an analysed architecture hands to [`checked`].
pub struct Arch<'a> {
    /// The architecture's path as `check --each` shows it.
    pub name: &'a str,
    pub manifest: &'a Manifest,
    pub findings: &'a [Finding],
    pub notes: &'a Notes,
    /// The horizon table of the Markdown section.
    pub horizons: &'a [crate::report::horizon::Row],
    pub threshold: Severity,
    pub root: &'a Root,
}

/// The part of an analysed architecture (`None` for JSON and the table).
pub fn checked(format: CheckFormat, a: &Arch) -> Option<Part> {
    let map = &a.manifest.sources;
    let accepted = format::accepted(a.findings);
    let id = a.root.display(a.name);
    Some(match format {
        CheckFormat::Table | CheckFormat::Human | CheckFormat::Concise | CheckFormat::Json => {
            return None;
        }
        CheckFormat::Sarif => {
            let (findings, accepted, dropped) = sarif::within_limit(a.findings, &accepted);
            let cx = Context {
                manifest: Some(a.manifest),
                waived: &accepted,
                root: Some(a.root),
                architecture: Some(&id),
                policy: Some(a.notes.policy.as_deref()),
            };
            let mut run = sarif::run(&a.root.map(map), &findings, &cx);
            sarif::note_left_out(&mut run, dropped);
            Part::Sarif(Box::new(run))
        }
        CheckFormat::Junit => {
            let mut suite =
                junit::architecture_suite(a.name, map, a.findings, &accepted, a.threshold);
            suite.add_property(junit::policy_property(a.notes.policy.as_deref()));
            Part::Junit(Box::new(suite))
        }
        CheckFormat::Github => Part::Text(
            github::render(&a.root.map(map), a.findings) + &github::render_notes(a.root, a.notes),
        ),
        CheckFormat::Markdown => Part::Text(section(
            a.name,
            &markdown::render_full(map, a.findings, Some(a.manifest), a.horizons),
        )),
        // Fingerprints are unique across the report: each is prefixed by
        // its architecture.
        CheckFormat::Gitlab => Part::Gitlab(gitlab::issues(
            &a.root.map(map),
            a.findings,
            &accepted,
            &format!("{id}/"),
        )),
    })
}

/// The part of an architecture that could not be analysed.
pub fn failed(
    format: CheckFormat,
    name: &str,
    map: &SourceMap,
    diagnostics: &[Diagnostic],
    root: &Root,
) -> Option<Part> {
    let id = root.display(name);
    Some(match format {
        CheckFormat::Table | CheckFormat::Human | CheckFormat::Concise | CheckFormat::Json => {
            return None;
        }
        CheckFormat::Sarif => {
            let cx = Context {
                root: Some(root),
                architecture: Some(&id),
                ..Context::default()
            };
            Part::Sarif(Box::new(errors::sarif_run(
                &root.map(map),
                diagnostics,
                &cx,
            )))
        }
        CheckFormat::Junit => Part::Junit(Box::new(errors::junit_suite(name, map, diagnostics))),
        CheckFormat::Github => Part::Text(errors::github_lines(&root.map(map), diagnostics)),
        CheckFormat::Markdown => {
            Part::Text(section(name, &errors::markdown_text(map, diagnostics)))
        }
        CheckFormat::Gitlab => Part::Gitlab(gitlab::error_issues(
            &root.map(map),
            diagnostics,
            &format!("{id}/"),
        )),
    })
}

/// GitHub code scanning rejects a SARIF file of more than 20 runs.
pub const MAX_SARIF_RUNS: usize = 20;

/// The runs of `check --each` within GitHub's limit: a run per
/// architecture (each its own category) up to [`MAX_SARIF_RUNS`], else one
/// run for all under the category `replay-audit/`, with an invocation per
/// architecture and each result's GitHub identity prefixed by its
/// architecture's category, so that none is shared.
fn fold(runs: Vec<sarif::Run>) -> Vec<sarif::Run> {
    if runs.len() <= MAX_SARIF_RUNS {
        return runs;
    }
    let mut all = runs.into_iter();
    let Some(mut one) = all.next() else {
        return Vec::new();
    };
    let prefix = |run: &mut sarif::Run| {
        let id = run
            .automation_details
            .take()
            .map(|a| a.id)
            .unwrap_or_default();
        for r in &mut run.results {
            if let Some(fp) = r
                .partial_fingerprints
                .get_mut(sarif::GITHUB_FINGERPRINT_KEY)
            {
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
    if one.results.len() > sarif::MAX_RESULTS {
        let rank = |level: &str| match level {
            "error" => 0,
            "warning" => 1,
            _ => 2,
        };
        let dropped = one.results.len() - sarif::MAX_RESULTS;
        one.results.sort_by_key(|r| rank(r.level));
        one.results.truncate(sarif::MAX_RESULTS);
        sarif::note_left_out(&mut one, dropped);
    }
    one.automation_details = Some(sarif::AutomationDetails {
        id: "replay-audit/".to_string(),
    });
    // Each architecture's policy is in its own invocation's run no more.
    one.properties = None;
    vec![one]
}

/// A Markdown comment of one architecture under its own heading.
fn section(name: &str, comment: &str) -> String {
    let body = comment.strip_prefix("## replay-audit\n").unwrap_or(comment);
    format!("## replay-audit: {}\n{body}\n", markdown::escape(name))
}

/// The parts, in order, as one document of the format.
pub fn combine(format: CheckFormat, parts: Vec<Part>) -> String {
    match format {
        CheckFormat::Sarif => {
            let runs = parts
                .into_iter()
                .filter_map(|p| match p {
                    Part::Sarif(r) => Some(*r),
                    _ => None,
                })
                .collect();
            sarif::to_text(&sarif::log_of(fold(runs)))
        }
        CheckFormat::Gitlab => {
            let issues: Vec<gitlab::Issue> = parts
                .into_iter()
                .flat_map(|p| match p {
                    Part::Gitlab(i) => i,
                    _ => Vec::new(),
                })
                .collect();
            let mut out = Vec::new();
            gitlab::write(&mut out, &issues).expect("writes to memory");
            String::from_utf8(out).expect("JSON is UTF-8")
        }
        CheckFormat::Junit => {
            let suites = parts
                .into_iter()
                .filter_map(|p| match p {
                    Part::Junit(s) => Some(*s),
                    _ => None,
                })
                .collect();
            junit::to_text(&junit::report(suites))
        }
        _ => parts
            .into_iter()
            .filter_map(|p| match p {
                Part::Text(t) => Some(t),
                _ => None,
            })
            .collect(),
    }
}
