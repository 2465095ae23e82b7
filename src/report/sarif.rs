//! `--format sarif`: SARIF 2.1.0, for GitHub code scanning and editors.
//!
//! Hand-written serde structs for the small subset replay-audit fills in:
//! the SARIF crates on crates.io (`serde-sarif`) generate the whole schema
//! and are not on the project's list of dependencies, and the subset is
//! checked against the official schema in `tests/sarif_schema.rs`.

use std::collections::BTreeMap;
use std::io::{self, Write};

use serde::Serialize;

use crate::diagnostics::{Loc, SourceMap};
use crate::manifest::Manifest;
use crate::report::related;
use crate::report::root::Root;
use crate::rules::{Finding, RULES, Rule, Severity};

mod format;
mod log;
pub use format::SarifFormat;
pub use log::*;

pub const SCHEMA: &str =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";
/// The repository `Cargo.toml` names, where the rule pages the reports
/// link to are (`docs/rules/RHnnn.md`).
pub const INFORMATION_URI: &str = env!("CARGO_PKG_REPOSITORY");
/// Key of the one partial fingerprint: `Finding::fingerprint()`, without line numbers.
pub const FINGERPRINT_KEY: &str = "replayAudit/v1";

/// The partial fingerprint GitHub code scanning tracks an alert by.
pub const GITHUB_FINGERPRINT_KEY: &str = "primaryLocationLineHash";

/// The base id of paths relative to the repository root.
pub const SRCROOT: &str = "%SRCROOT%";
/// The rule id of a result that reports an input error.
pub const INPUT_ERROR: &str = "input-error";

/// A rule's page on the repository.
pub fn help_uri(code: &str) -> String {
    format!("{INFORMATION_URI}/blob/main/docs/rules/{code}.md")
}

pub fn level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

/// A path as given on the command line, as a URI reference: `/` separators,
/// and every byte outside the unreserved set percent-encoded (a space in a
/// folder name must not make the URI invalid).
pub fn uri(path: &str) -> String {
    let mut s = String::with_capacity(path.len());
    for b in path.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                s.push(b as char)
            }
            b'\\' => s.push('/'),
            _ => s.push_str(&format!("%{b:02X}")),
        }
    }
    s
}

/// The first paragraph of the page's `## What it detects`, else the summary.
fn full_description(r: &Rule) -> String {
    let mut lines = r
        .doc
        .lines()
        .skip_while(|l| l.trim() != "## What it detects")
        .skip(1)
        .skip_while(|l| l.trim().is_empty());
    let mut para = Vec::new();
    for l in lines.by_ref() {
        if l.trim().is_empty() || l.starts_with('#') {
            break;
        }
        para.push(l.trim());
    }
    if para.is_empty() {
        r.summary().to_string()
    } else {
        para.join(" ")
    }
}

/// The descriptor of one rule, from its page: the page once, as the
/// Markdown help (the plain-text help is its first paragraph and where the
/// page is); `helpUri` only for a rule that has a page.
pub fn descriptor(r: &'static Rule) -> Descriptor {
    let has_page = !r.doc.trim().is_empty();
    let full = full_description(r);
    let (text, markdown) = if has_page {
        let text = format!(
            "{full}\n\nThe rule's page (docs/rules/{}.md) says how to fix it.",
            r.code
        );
        (text, Some(r.doc.to_string()))
    } else {
        (format!("{} {}: {full}", r.code, r.name), None)
    };
    Descriptor {
        id: r.code,
        name: r.name,
        short_description: Text {
            text: r.summary().to_string(),
        },
        full_description: Text { text: full },
        help: Help { text, markdown },
        help_uri: has_page.then(|| help_uri(r.code)),
        default_configuration: Configuration {
            level: level(r.severity),
        },
    }
}

/// How artifact URIs are written: as the paths are (`None`), or relative
/// to a repository root.
#[derive(Clone, Copy)]
struct Paths<'a>(Option<&'a Root>);

impl Paths<'_> {
    /// The URI of a path of the source map (already made relative by
    /// [`Root::map`] when there is a root) and its base id.
    fn artifact(&self, path: &str) -> ArtifactLocation {
        match self.0 {
            Some(_) if path.starts_with('/') => ArtifactLocation {
                uri: format!("file://{}", uri(path)),
                uri_base_id: None,
            },
            Some(_) if path != crate::engine::STDIN => ArtifactLocation {
                uri: uri(path),
                uri_base_id: Some(SRCROOT),
            },
            _ => ArtifactLocation {
                uri: uri(path),
                uri_base_id: None,
            },
        }
    }

    fn base_ids(&self) -> BTreeMap<&'static str, BaseUri> {
        self.0
            .map(|r| (SRCROOT, BaseUri { uri: r.uri() }))
            .into_iter()
            .collect()
    }
}

fn location(
    map: &SourceMap,
    paths: Paths,
    loc: Loc,
    id: Option<usize>,
    message: Option<String>,
) -> Location {
    Location {
        id,
        physical_location: PhysicalLocation {
            artifact_location: paths.artifact(map.path(loc)),
            // SARIF lines and columns start at 1; a default Loc (0) means "start".
            region: Region {
                start_line: loc.line.max(1),
                start_column: loc.col.max(1),
            },
        },
        message: message.map(|text| Text { text }),
    }
}

/// What places the results of a run besides the source map.
#[derive(Clone, Copy, Default)]
pub struct Context<'a> {
    /// When given, the steps of a finding's worst path become
    /// `relatedLocations` (see [`related::hops`]).
    pub manifest: Option<&'a Manifest>,
    /// Per finding, in the same order, `Some(justification)` for a finding
    /// a waiver or the baseline accepts; shorter than the findings (or
    /// empty) means the rest are not.
    pub waived: &'a [Option<&'a str>],
    /// When given, the source map's paths are relative to this root (see
    /// [`Root::map`]): URIs get [`SRCROOT`] and the run says where it is.
    pub root: Option<&'a Root>,
    /// The architecture of the run, for `check --each`.
    pub architecture: Option<&'a str>,
    /// When given, the run's properties say which policy applied: the
    /// file, or `None` for the defaults.
    pub policy: Option<Option<&'a str>>,
}

/// The SARIF log as a value (tests and a later policy layer use it); see
/// [`Context`] for `manifest` and `waived`.
pub fn log(
    map: &SourceMap,
    findings: &[Finding],
    manifest: Option<&Manifest>,
    waived: &[Option<&str>],
) -> Log {
    let cx = Context {
        manifest,
        waived,
        ..Context::default()
    };
    log_of(vec![run(map, findings, &cx)])
}

/// A log of the given runs.
pub fn log_of<R>(runs: Vec<Run<R>>) -> Log<R> {
    Log {
        schema: SCHEMA,
        version: "2.1.0",
        runs,
    }
}

fn result(map: &SourceMap, cx: &Context, i: usize, f: &Finding, id: String) -> SarifResult {
    let paths = Paths(cx.root);
    let related_locations = related::hops(cx.manifest, f)
        .into_iter()
        .filter_map(|h| Some((h.loc?, h.text)))
        // GitHub rejects a result of more than 1,000 locations: a path of
        // thousands of steps shows its first 1,000.
        .take(MAX_LOCATIONS)
        .enumerate()
        .map(|(n, (l, text))| location(map, paths, l, Some(n), Some(text)))
        .collect();
    SarifResult {
        rule_id: f.rule.code,
        rule_index: RULES
            .iter()
            .position(|r| r.code == f.rule.code)
            .unwrap_or(0),
        level: level(f.severity),
        // The concrete fix travels in the message, which code scanning
        // shows; the rule's own `help` points at its page for the rest.
        message: Text {
            text: match &f.fix {
                Some(fix) => format!("{}\nhelp: {fix}", f.message),
                None => f.message.clone(),
            },
        },
        locations: f
            .loc
            .map(|l| location(map, paths, l, None, None))
            .into_iter()
            .collect(),
        related_locations,
        partial_fingerprints: BTreeMap::from([
            (FINGERPRINT_KEY, f.fingerprint()),
            (GITHUB_FINGERPRINT_KEY, id),
        ]),
        suppressions: cx
            .waived
            .get(i)
            .copied()
            .flatten()
            .map(|j| Suppression {
                // An inline allowance is written in the manifest itself.
                kind: match f.waived.as_ref().and_then(|w| w.inline.as_ref()) {
                    Some(_) => "inSource",
                    None => "external",
                },
                justification: j.to_string(),
            })
            .into_iter()
            .collect(),
        baseline_state: f.baselined.then_some("unchanged"),
        properties: Properties::of(f),
    }
}

fn tool(rules: Vec<Descriptor>) -> Tool {
    Tool {
        driver: Driver {
            name: "replay-audit",
            version: env!("CARGO_PKG_VERSION"),
            semantic_version: env!("CARGO_PKG_VERSION"),
            information_uri: INFORMATION_URI,
            rules,
        },
    }
}

/// `replay-audit/PATH/`: the run's category, so that code scanning keeps
/// the runs of `check --each` apart.
fn automation(architecture: Option<&str>) -> Option<AutomationDetails> {
    architecture.map(|a| AutomationDetails {
        id: format!("replay-audit/{a}/"),
    })
}

/// The run of one analysed architecture: every rule's descriptor, a result
/// per finding.
pub fn run(map: &SourceMap, findings: &[Finding], cx: &Context) -> Run {
    let mut ids = crate::report::Identities::default();
    run_of(
        findings
            .iter()
            .enumerate()
            .map(|(i, f)| result(map, cx, i, f, ids.next(f)))
            .collect(),
        cx,
    )
}

/// The results of a run, each made as it is written: a large log never
/// holds every result at once.
pub struct Results<'a> {
    map: &'a SourceMap,
    findings: &'a [Finding],
    cx: &'a Context<'a>,
}

impl Serialize for Results<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut ids = crate::report::Identities::default();
        s.collect_seq(
            self.findings
                .iter()
                .enumerate()
                .map(|(i, f)| result(self.map, self.cx, i, f, ids.next(f))),
        )
    }
}

/// [`run`] with its results written as they are made ([`Results`]).
pub fn streamed_run<'a>(
    map: &'a SourceMap,
    findings: &'a [Finding],
    cx: &'a Context<'a>,
) -> Run<Results<'a>> {
    run_of(Results { map, findings, cx }, cx)
}

/// The run of one analysed architecture around its `results`.
fn run_of<R>(results: R, cx: &Context) -> Run<R> {
    Run {
        tool: tool(RULES.iter().map(descriptor).collect()),
        invocations: vec![Invocation {
            execution_successful: true,
            tool_execution_notifications: Vec::new(),
        }],
        original_uri_base_ids: Paths(cx.root).base_ids(),
        automation_details: automation(cx.architecture),
        column_kind: "unicodeCodePoints",
        results,
        properties: cx.policy.map(|p| RunProperties {
            policy: p.map(str::to_string),
        }),
    }
}

/// The descriptor of [`INPUT_ERROR`], the rule of the results that report
/// input errors (no page: the message says what to fix).
fn input_descriptor() -> Descriptor {
    let text = "A manifest, template, overlay or policy file could not be read, parsed or validated, so nothing was analysed; the message gives the place and the fix.";
    Descriptor {
        id: INPUT_ERROR,
        // A name distinct from the id, as SARIF1001 asks.
        name: "input-could-not-be-analysed",
        short_description: Text {
            text: "The input could not be analysed".to_string(),
        },
        full_description: Text {
            text: text.to_string(),
        },
        help: Help {
            text: text.to_string(),
            markdown: None,
        },
        help_uri: None,
        default_configuration: Configuration { level: "error" },
    }
}

/// A place by its path in the source map's terms: (file, line, column).
pub type Place<'a> = (&'a str, u32, u32);

/// The run of an input that could not be analysed: per error (its place
/// in the source map's terms, and its text) a result of [`INPUT_ERROR`]
/// and a notification of the unsuccessful invocation.
pub fn error_run(errors: Vec<(Option<Place>, String)>, cx: &Context) -> Run {
    let paths = Paths(cx.root);
    let place = |at: Option<Place>| -> Vec<Location> {
        at.map(|(file, line, col)| Location {
            id: None,
            physical_location: PhysicalLocation {
                artifact_location: paths.artifact(file),
                region: Region {
                    start_line: line.max(1),
                    start_column: col.max(1),
                },
            },
            message: None,
        })
        .into_iter()
        .collect()
    };
    let mut results = Vec::new();
    let mut notifications = Vec::new();
    for (at, text) in errors {
        let fingerprint = format!("{INPUT_ERROR}:{}:{text}", at.map_or("", |a| a.0));
        results.push(SarifResult {
            rule_id: INPUT_ERROR,
            rule_index: 0,
            level: "error",
            message: Text { text: text.clone() },
            locations: place(at),
            related_locations: Vec::new(),
            partial_fingerprints: BTreeMap::from([(FINGERPRINT_KEY, fingerprint)]),
            suppressions: Vec::new(),
            baseline_state: None,
            properties: Properties::default(),
        });
        notifications.push(Notification {
            level: "error",
            message: Text { text },
            locations: place(at),
        });
    }
    Run {
        tool: tool(vec![input_descriptor()]),
        invocations: vec![Invocation {
            execution_successful: false,
            tool_execution_notifications: notifications,
        }],
        original_uri_base_ids: paths.base_ids(),
        automation_details: automation(cx.architecture),
        column_kind: "unicodeCodePoints",
        results,
        properties: None,
    }
}

/// SARIF of the findings, without related locations or waivers.
pub fn render(map: &SourceMap, findings: &[Finding]) -> String {
    render_with(map, findings, None, &[])
}

/// SARIF with the worst paths placed (`manifest`) and waived findings marked
/// as externally suppressed (`waived`, see [`log`]).
pub fn render_with(
    map: &SourceMap,
    findings: &[Finding],
    manifest: Option<&Manifest>,
    waived: &[Option<&str>],
) -> String {
    to_text(&log(map, findings, manifest, waived))
}

/// A log as printed (C1 controls and bidirectional overrides escaped, see
/// [`crate::report::json::write_pretty`]).
pub fn to_text(log: &Log) -> String {
    let mut buf = Vec::new();
    write_log(&mut buf, log).expect("writing to memory cannot fail");
    String::from_utf8(buf).expect("serde_json writes UTF-8")
}

/// [`to_text`] straight to a writer.
pub fn write_log<R: Serialize>(mut w: impl Write, log: &Log<R>) -> io::Result<()> {
    crate::report::json::write_pretty(&mut w, log)?;
    w.write_all(b"\n")
}

/// GitHub code scanning rejects a result with more than 1,000 locations.
pub const MAX_LOCATIONS: usize = 1_000;

/// GitHub code scanning rejects a run of more than 25,000 results.
pub const MAX_RESULTS: usize = 25_000;

/// What [`within_limit`] keeps: the findings, their `accepted` entries, and
/// how many were left out.
pub type Within<'a> = (
    std::borrow::Cow<'a, [Finding]>,
    std::borrow::Cow<'a, [Option<&'a str>]>,
    usize,
);

/// The findings a run can hold: all of them up to [`MAX_RESULTS`], else the
/// most severe that many (in their order), with their `accepted` entries,
/// and how many were left out.
pub fn within_limit<'a>(findings: &'a [Finding], accepted: &'a [Option<&'a str>]) -> Within<'a> {
    use std::borrow::Cow;
    if findings.len() <= MAX_RESULTS {
        return (Cow::Borrowed(findings), Cow::Borrowed(accepted), 0);
    }
    let mut keep: Vec<usize> = (0..findings.len()).collect();
    keep.sort_by_key(|&i| std::cmp::Reverse(findings[i].severity));
    keep.truncate(MAX_RESULTS);
    keep.sort_unstable();
    let kept = keep.iter().map(|&i| findings[i].clone()).collect();
    let acc = keep
        .iter()
        .map(|&i| accepted.get(i).copied().flatten())
        .collect();
    (
        Cow::Owned(kept),
        Cow::Owned(acc),
        findings.len() - MAX_RESULTS,
    )
}

/// Tells, in the run's invocation, that `n` results were left out (none
/// when `n` is 0).
pub fn note_left_out<R>(run: &mut Run<R>, n: usize) {
    if n > 0
        && let Some(inv) = run.invocations.first_mut()
    {
        inv.tool_execution_notifications.push(left_out(n));
    }
}

/// The notification of a run that left `n` results out.
pub fn left_out(n: usize) -> Notification {
    Notification {
        level: "warning",
        message: Text {
            text: format!(
                "{n} findings of the lowest severities are left out: GitHub code scanning accepts at most {MAX_RESULTS} results per run; `replay-audit check --format json` lists every finding"
            ),
        },
        locations: Vec::new(),
    }
}
