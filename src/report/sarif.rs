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
use crate::report::format::{CheckRun, Format};
use crate::report::related;
use crate::rules::{Finding, RULES, Rule, Severity};

pub const SCHEMA: &str =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";
pub const INFORMATION_URI: &str = "https://github.com/replay-audit/replay-audit";
/// Key of the one partial fingerprint: `Finding::fingerprint()`, without line numbers.
pub const FINGERPRINT_KEY: &str = "replayAudit/v1";

/// A rule's page on the repository.
pub fn help_uri(code: &str) -> String {
    format!("{INFORMATION_URI}/blob/main/docs/rules/{code}.md")
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Log {
    #[serde(rename = "$schema")]
    pub schema: &'static str,
    pub version: &'static str,
    pub runs: Vec<Run>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Run {
    pub tool: Tool,
    /// Our columns count characters (Unicode scalar values), not UTF-16 units.
    pub column_kind: &'static str,
    pub results: Vec<SarifResult>,
}

#[derive(Debug, Serialize)]
pub struct Tool {
    pub driver: Driver,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Driver {
    pub name: &'static str,
    pub version: &'static str,
    pub semantic_version: &'static str,
    pub information_uri: &'static str,
    pub rules: Vec<Descriptor>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Descriptor {
    pub id: &'static str,
    pub name: &'static str,
    pub short_description: Text,
    pub full_description: Text,
    pub help: Help,
    pub help_uri: String,
    pub default_configuration: Configuration,
}

#[derive(Debug, Serialize)]
pub struct Text {
    pub text: String,
}

#[derive(Debug, Serialize)]
pub struct Help {
    pub text: String,
    pub markdown: String,
}

#[derive(Debug, Serialize)]
pub struct Configuration {
    pub level: &'static str,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SarifResult {
    pub rule_id: &'static str,
    pub rule_index: usize,
    pub level: &'static str,
    pub message: Text,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub locations: Vec<Location>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub related_locations: Vec<Location>,
    pub partial_fingerprints: BTreeMap<&'static str, String>,
    /// Empty: no suppression applies. A waived finding has one `external` entry.
    pub suppressions: Vec<Suppression>,
    pub properties: Properties,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Location {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<usize>,
    pub physical_location: PhysicalLocation,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<Text>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PhysicalLocation {
    pub artifact_location: ArtifactLocation,
    pub region: Region,
}

#[derive(Debug, Serialize)]
pub struct ArtifactLocation {
    pub uri: String,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Region {
    pub start_line: u32,
    pub start_column: u32,
}

#[derive(Debug, Serialize)]
pub struct Suppression {
    pub kind: &'static str,
    pub justification: String,
}

/// replay-audit's own values, as in `--format json`.
#[derive(Debug, Serialize)]
pub struct Properties {
    pub intent: Option<String>,
    pub component: Option<String>,
    pub horizon_seconds: Option<u64>,
    pub window_seconds: Option<u64>,
    pub path: Vec<String>,
    pub assumptions: Vec<String>,
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

/// The descriptor of one rule, from its page.
pub fn descriptor(r: &'static Rule) -> Descriptor {
    let help = if r.doc.trim().is_empty() {
        // The page is not embedded: point at it.
        format!("{} {}: see {}", r.code, r.name, help_uri(r.code))
    } else {
        r.doc.to_string()
    };
    Descriptor {
        id: r.code,
        name: r.name,
        short_description: Text {
            text: r.summary().to_string(),
        },
        full_description: Text {
            text: full_description(r),
        },
        help: Help {
            text: help.clone(),
            markdown: help,
        },
        help_uri: help_uri(r.code),
        default_configuration: Configuration {
            level: level(r.severity),
        },
    }
}

fn location(map: &SourceMap, loc: Loc, id: Option<usize>, message: Option<String>) -> Location {
    Location {
        id,
        physical_location: PhysicalLocation {
            artifact_location: ArtifactLocation {
                uri: uri(map.path(loc)),
            },
            // SARIF lines and columns start at 1; a default Loc (0) means "start".
            region: Region {
                start_line: loc.line.max(1),
                start_column: loc.col.max(1),
            },
        },
        message: message.map(|text| Text { text }),
    }
}

/// The SARIF log as a value (tests and a later policy layer use it).
///
/// `manifest`: when given, the steps of a finding's worst path become
/// `relatedLocations` (see [`related::hops`]). `waived`: per finding, in the
/// same order, `Some(justification)` for a finding a waiver covers; shorter
/// than `findings` (or empty) means the rest are not waived.
pub fn log(
    map: &SourceMap,
    findings: &[Finding],
    manifest: Option<&Manifest>,
    waived: &[Option<&str>],
) -> Log {
    let results = findings
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let related_locations = related::hops(manifest, f)
                .into_iter()
                .filter_map(|h| Some((h.loc?, h.text)))
                .enumerate()
                .map(|(n, (l, text))| location(map, l, Some(n), Some(text)))
                .collect();
            SarifResult {
                rule_id: f.rule.code,
                rule_index: RULES
                    .iter()
                    .position(|r| r.code == f.rule.code)
                    .unwrap_or(0),
                level: level(f.severity),
                message: Text {
                    text: f.message.clone(),
                },
                locations: f
                    .loc
                    .map(|l| location(map, l, None, None))
                    .into_iter()
                    .collect(),
                related_locations,
                partial_fingerprints: BTreeMap::from([(FINGERPRINT_KEY, f.fingerprint())]),
                suppressions: waived
                    .get(i)
                    .copied()
                    .flatten()
                    .map(|j| Suppression {
                        kind: "external",
                        justification: j.to_string(),
                    })
                    .into_iter()
                    .collect(),
                properties: Properties {
                    intent: f.intent.clone(),
                    component: f.component.clone(),
                    horizon_seconds: f.horizon.and_then(|h| h.secs()),
                    window_seconds: f.window.and_then(|w| w.secs()),
                    path: f.path.clone(),
                    assumptions: f.assumptions.clone(),
                },
            }
        })
        .collect();
    Log {
        schema: SCHEMA,
        version: "2.1.0",
        runs: vec![Run {
            tool: Tool {
                driver: Driver {
                    name: "replay-audit",
                    version: env!("CARGO_PKG_VERSION"),
                    semantic_version: env!("CARGO_PKG_VERSION"),
                    information_uri: INFORMATION_URI,
                    rules: RULES.iter().map(descriptor).collect(),
                },
            },
            column_kind: "unicodeCodePoints",
            results,
        }],
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
    serde_json::to_string_pretty(&log(map, findings, manifest, waived)).expect("SARIF serialises")
        + "\n"
}

/// `--format sarif`, with the worst paths placed and accepted findings
/// suppressed.
pub struct SarifFormat;

impl Format for SarifFormat {
    fn write(&self, out: &mut dyn Write, run: &CheckRun) -> io::Result<()> {
        let text = render_with(
            run.sources(),
            run.findings,
            Some(run.manifest),
            run.accepted,
        );
        out.write_all(text.as_bytes())
    }
}
