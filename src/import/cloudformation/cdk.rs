//! CDK cloud assemblies (`cdk.out`, what `cdk synth` writes) and the ids
//! of CDK-made resources.
//!
//! An assembly folder holds `manifest.json`, whose `artifacts` list each
//! stack (`"type": "aws:cloudformation:stack"`, its template in
//! `properties.templateFile`, its construct path in `displayName`) and each
//! stage (`"type": "cdk:cloud-assembly"`, a sub-assembly in the folder
//! `properties.directoryName`). Every stack of the assembly and of its
//! stages is one architecture, read like several templates given together;
//! a stack's nested stacks (`*.nested.template.json`) are found through
//! their stack resource's `aws:asset:path` metadata ([`super::nested`]).
//! Asset folders (`asset.*`: function code) are never read. The manifest
//! names the files, so they are read like files the tool found: never
//! through a symbolic link, never outside the assembly folder.
//!
//! Ids: a resource with `Metadata: aws:cdk:path` (`Payouts/PayoutRequests/
//! Resource`) is named by its construct path below its stack (`Payouts`):
//! the path's parts in kebab case joined by `.`, without the last part
//! when it is the CDK's `Resource` or `Default` (`payout-requests`; in a
//! nested stack `Ledger`, `ledger.ledger-events`). The hashed logical id
//! (`PayoutRequestsFF550EDF`) is used only for a resource without one.

use std::path::{Path, PathBuf};

use super::local_file::{Refused, link_words, resolve};
use super::stacks::Template;
use super::{Node, Value, kebab};
use crate::diagnostics::{Diagnostic, SourceMap};
use crate::manifest::{Limits, LoadError};

/// The metadata key holding a resource's construct path.
pub(super) const PATH_KEY: &str = "aws:cdk:path";

/// The file every assembly folder holds.
pub const MANIFEST: &str = "manifest.json";

/// Stages nested deeper than this are an error.
const MAX_STAGE_DEPTH: usize = 8;

/// The construct path of a synthesized template's stack: the path of its
/// `AWS::CDK::Metadata` resource without `/CDKMetadata/Default`, else the
/// first part of a resource's path; none for a template without CDK
/// metadata.
pub(super) fn stack_path(root: &Node) -> Option<String> {
    let resources = root.get("Resources").map(Node::entries).unwrap_or(&[]);
    let path = |r: &Node| {
        r.at(&["Metadata", PATH_KEY])
            .and_then(Node::str)
            .map(str::to_string)
    };
    let meta = resources.iter().find_map(|(_, r)| {
        let ty = r.get("Type").and_then(Node::str);
        (ty == Some("AWS::CDK::Metadata"))
            .then(|| {
                path(r)?
                    .strip_suffix("/CDKMetadata/Default")
                    .map(str::to_string)
            })
            .flatten()
    });
    meta.or_else(|| {
        let first = resources.iter().find_map(|(_, r)| path(r))?;
        first.split('/').next().map(str::to_string)
    })
}

/// The id of a resource from its construct path below the stack at `stack`
/// (see the module); none without a path under it.
pub(super) fn construct_id(stack: &str, r: &Node) -> Option<String> {
    let path = r.at(&["Metadata", PATH_KEY]).and_then(Node::str)?;
    let rel = path.strip_prefix(stack)?.strip_prefix('/')?;
    let mut parts: Vec<&str> = rel.split('/').filter(|p| !p.is_empty()).collect();
    if parts.len() > 1 && matches!(parts.last(), Some(&"Resource" | &"Default")) {
        parts.pop();
    }
    if parts.is_empty() {
        return None;
    }
    Some(parts.iter().map(|p| kebab(p)).collect::<Vec<_>>().join("."))
}

/// A stack's name for ids several stacks share: its construct path's
/// parts in kebab case joined by `.` (`Audit/Archive` → `audit.archive`).
pub(super) fn stack_name(path: &str) -> String {
    path.split('/').map(kebab).collect::<Vec<_>>().join(".")
}

/// Whether `dir` is a cloud assembly: it holds `manifest.json` and the
/// `cdk.out` version file `cdk synth` writes beside it (or is itself named
/// `cdk.out`), neither a symbolic link.
pub fn is_assembly(dir: &Path) -> bool {
    let file = |name: &str| {
        std::fs::symlink_metadata(dir.join(name)).is_ok_and(|m| m.file_type().is_file())
    };
    file(MANIFEST) && (file("cdk.out") || dir.file_name().is_some_and(|n| n == "cdk.out"))
}

/// Whether `path` is the manifest of a cloud assembly.
pub fn is_manifest(path: &Path) -> bool {
    path.file_name().is_some_and(|n| n == MANIFEST)
        && is_assembly(path.parent().unwrap_or(Path::new(".")))
}

/// The stack templates of the assembly whose manifest at `path` holds
/// `text`, stages' included, in the manifest's order.
pub fn templates(path: &Path, text: &str, limits: &Limits) -> Result<Vec<Template>, LoadError> {
    let mut sources = SourceMap::default();
    let mut out = Vec::new();
    let dir = path.parent().unwrap_or(Path::new(""));
    match assembly(dir, path, text, limits, &mut sources, &mut out, 0) {
        Ok(()) => Ok(out),
        Err(d) => Err(LoadError {
            sources,
            diagnostics: vec![d],
        }),
    }
}

/// Reads the assembly in `dir` (its manifest at `path` holding `text`)
/// into `out`.
fn assembly(
    dir: &Path,
    path: &Path,
    text: &str,
    limits: &Limits,
    sources: &mut SourceMap,
    out: &mut Vec<Template>,
    depth: usize,
) -> Result<(), Diagnostic> {
    let file = sources.add(path.display().to_string(), text.to_string());
    let root = crate::import::parse(text, file, limits)?;
    let Some(artifacts) = root
        .get("artifacts")
        .filter(|a| matches!(a.value, Value::Map(_)))
    else {
        return Err(root.error_at(
            format!("`{}` is not a CDK cloud assembly manifest: it has no `artifacts`", path.display()),
            "give the folder `cdk synth` writes (cdk.out), which holds manifest.json and the stacks' templates",
        ));
    };
    for (id, a) in artifacts.entries() {
        let prop = |k: &str| a.at(&["properties", k]);
        match a.get("type").and_then(Node::str) {
            Some("aws:cloudformation:stack") => {
                let Some(f) = prop("templateFile") else {
                    continue;
                };
                let file = inside(dir, f)?;
                let text =
                    crate::files::read(&file, crate::files::Origin::Found, limits.max_file_bytes)
                        .map_err(|d| at(f, d.message))?;
                let display = a.get("displayName").and_then(Node::str).unwrap_or(id.key());
                out.push(Template {
                    name: file.display().to_string(),
                    text,
                    cdk: Some(display.to_string()),
                });
            }
            Some("cdk:cloud-assembly") => {
                let Some(d) = prop("directoryName") else {
                    continue;
                };
                if depth >= MAX_STAGE_DEPTH {
                    return Err(at(d, format!("stages are read {MAX_STAGE_DEPTH} deep")));
                }
                let sub = inside(dir, d)?;
                let manifest = sub.join(MANIFEST);
                let text = crate::files::read(
                    &manifest,
                    crate::files::Origin::Found,
                    limits.max_file_bytes,
                )
                .map_err(|e| at(d, e.message))?;
                assembly(&sub, &manifest, &text, limits, sources, out, depth + 1)?;
            }
            _ => {}
        }
    }
    Ok(())
}

/// An error at a manifest value.
fn at(n: &Node, message: String) -> Diagnostic {
    Diagnostic::at(n.loc, message)
        .label("named here")
        .help("synthesize the app again (`npx cdk synth`) and give the folder it writes")
}

/// The path the manifest value `n` names in `dir`: relative, inside it,
/// and not through a symbolic link.
fn inside(dir: &Path, n: &Node) -> Result<PathBuf, Diagnostic> {
    let Some(rel) = n.str() else {
        return Err(at(n, format!("`{}` is not a file name", n.brief())));
    };
    resolve(dir, Vec::new(), rel).map_err(|r| {
        at(
            n,
            match r {
                Refused::Leaves | Refused::Absolute => {
                    format!("`{rel}` leaves the assembly folder `{}`", dir.display())
                }
                Refused::Empty => format!("`{rel}` names no file"),
                Refused::Link(link) => link_words(&link),
            },
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resource(path: &str) -> Node {
        let text = format!("Metadata:\n  aws:cdk:path: {path}\n");
        crate::import::parse(&text, 0, &Limits::default()).unwrap()
    }

    #[test]
    fn ids_come_from_construct_paths() {
        let id = |stack: &str, path: &str| construct_id(stack, &resource(path));
        assert_eq!(
            id("Payouts", "Payouts/PayoutRequests/Resource"),
            Some("payout-requests".into())
        );
        assert_eq!(
            id("Payouts", "Payouts/Ledger/LedgerEvents/Resource"),
            Some("ledger.ledger-events".into())
        );
        assert_eq!(
            id("Audit/Archive", "Audit/Archive/Queue"),
            Some("queue".into())
        );
        // Another stack's path, or the stack itself: no id from it.
        assert_eq!(id("Payouts", "Other/Queue/Resource"), None);
        assert_eq!(id("Payouts", "PayoutsX/Queue/Resource"), None);
        assert_eq!(stack_name("Audit/Archive"), "audit.archive");
    }
}
