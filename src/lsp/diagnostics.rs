//! `textDocument/publishDiagnostics`: the findings of a document's
//! architecture as `check` makes them (code, severity, message and help,
//! the rule's page, the worst path's links as related information), and an
//! input that could not be analysed as error diagnostics at their place.

use std::path::{Path, PathBuf};

use std::str::FromStr;

use lsp_types::{
    CodeDescription, Diagnostic, DiagnosticRelatedInformation, DiagnosticSeverity, Location,
    NumberOrString, Position, PublishDiagnosticsParams, Range, Uri,
};

use super::analyse::Snapshot;
use super::position::{range_of, uri_of};
use crate::diagnostics::{Loc, SourceMap};
use crate::manifest::Manifest;
use crate::rules::{Finding, Severity};

/// Where the diagnostics say they come from.
pub const SOURCE: &str = "replay-audit";

/// The diagnostics of every file of the snapshot, each file's own (an
/// empty list clears what an earlier version of it had).
pub fn publish(snapshot: &Snapshot) -> Vec<PublishDiagnosticsParams> {
    let mut by_file: Vec<(PathBuf, Vec<Diagnostic>)> = snapshot
        .files
        .iter()
        .map(|f| (f.clone(), Vec::new()))
        .collect();
    let mut push = |path: &str, d: Diagnostic| {
        let i = by_file
            .iter()
            .position(|(f, _)| f.as_os_str() == path)
            // What the engine places elsewhere (another file, no place) is
            // shown at the top of the document.
            .unwrap_or(0);
        by_file[i].1.push(d);
    };
    match &snapshot.result {
        Ok(c) => {
            let sources = &c.manifest.sources;
            for f in &c.findings {
                let path = f.loc.map_or("", |l| sources.path(l));
                push(path, finding(&c.manifest, f));
            }
        }
        Err(e) => {
            let (sources, diagnostics) = e.diagnostics();
            for d in &diagnostics {
                let path = d.loc.map_or("", |l| sources.path(l));
                let placed = snapshot.files.iter().any(|f| f.as_os_str() == path);
                push(path, input_error(&sources, d, placed));
            }
        }
    }
    by_file
        .into_iter()
        .filter_map(|(path, diagnostics)| {
            Some(PublishDiagnosticsParams {
                uri: uri_of(&path)?,
                diagnostics,
                version: None,
            })
        })
        .collect()
}

/// The range of `loc` in its file's text (the start of the document when
/// there is none).
fn range(sources: &SourceMap, loc: Option<Loc>) -> Range {
    match loc.and_then(|l| Some((sources.files.get(l.file as usize)?, l))) {
        Some((file, l)) if !file.text.is_empty() => range_of(&file.text, l),
        Some((_, l)) => {
            let p = Position::new(l.line.saturating_sub(1), l.col.saturating_sub(1));
            Range::new(p, Position::new(p.line, p.character + 1))
        }
        None => Range::new(Position::new(0, 0), Position::new(0, 1)),
    }
}

fn severity(s: Severity) -> DiagnosticSeverity {
    match s {
        Severity::Error => DiagnosticSeverity::ERROR,
        Severity::Warning => DiagnosticSeverity::WARNING,
        Severity::Info => DiagnosticSeverity::INFORMATION,
    }
}

/// A finding: its code and rule page, the message with its help, and the
/// worst path's links. A waived finding is a hint naming its waiver.
fn finding(m: &Manifest, f: &Finding) -> Diagnostic {
    let sources = &m.sources;
    let mut message = f.message.clone();
    let help = f.help();
    if help != "-" {
        message.push_str(&format!("\nhelp: {help}"));
    }
    let severity = match &f.waived {
        Some(w) => {
            message.push_str(&format!("\nwaived: {}", w.reason));
            DiagnosticSeverity::HINT
        }
        None => severity(f.severity),
    };
    // The worst path's links, as SARIF's relatedLocations.
    let related: Vec<DiagnosticRelatedInformation> = crate::report::related::hops(Some(m), f)
        .into_iter()
        .filter_map(|hop| {
            let loc = hop.loc?;
            Some(DiagnosticRelatedInformation {
                location: Location::new(
                    uri_of(Path::new(sources.path(loc)))?,
                    range(sources, Some(loc)),
                ),
                message: hop.text,
            })
        })
        .collect();
    Diagnostic {
        range: range(sources, f.loc),
        severity: Some(severity),
        code: Some(NumberOrString::String(f.rule.code.to_string())),
        code_description: Uri::from_str(&crate::report::sarif::help_uri(f.rule.code))
            .ok()
            .map(|href| CodeDescription { href }),
        source: Some(SOURCE.to_string()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        tags: None,
        data: None,
    }
}

/// An input error (YAML syntax, an unknown kind, a dangling id, a policy
/// error) at its place when that place is in a file of the snapshot
/// (`placed`), else at the top of the document with its place named.
fn input_error(
    sources: &SourceMap,
    d: &crate::diagnostics::Diagnostic,
    placed: bool,
) -> Diagnostic {
    let mut message = match d.loc {
        Some(l) if !placed => format!("{}: {}", sources.display(l), d.message),
        _ => d.message.clone(),
    };
    if let Some(h) = &d.help {
        message.push_str(&format!("\nhelp: {h}"));
    }
    Diagnostic {
        range: range(sources, d.loc.filter(|_| placed)),
        severity: Some(DiagnosticSeverity::ERROR),
        source: Some(SOURCE.to_string()),
        message,
        ..Diagnostic::default()
    }
}
