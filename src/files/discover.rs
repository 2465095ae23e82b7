//! Which files a run reads: files as given, folders walked for `*.yaml` /
//! `*.yml` (sorted, symbolic links not followed, hidden folders skipped),
//! every file read once. A CDK cloud assembly folder (`cdk.out`) found on
//! the way is its `manifest.json` alone, which names its templates.
//!
//! A folder in a repository holds more than manifests: `check .` would
//! otherwise read `.github/workflows/*.yaml` and report hundreds of
//! errors. So a folder scan skips hidden folders (`.git`, `.github`, …)
//! and, once a found file is read, one that is not a manifest
//! ([`is_manifest_text`]); the run prints one note line counting what was
//! skipped ([`Skipped::note`]). Files named on the command line are always
//! read.
//!
//! The same file given twice (`a.yaml ./a.yaml`), or a folder and a file
//! inside it, is one file: otherwise every id in it would be "defined
//! twice" against itself (pre-commit passes a folder's files besides the
//! folder in `args`).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::{Origin, io_reason};
use crate::diagnostics::Diagnostic;

/// Folders nested deeper than this under a given folder are an error.
const MAX_WALK_DEPTH: usize = 32;

/// The files of a run, in order, and what the folder scan skipped.
#[derive(Debug, Default)]
pub struct Discovered {
    pub files: Vec<(PathBuf, Origin)>,
    pub skipped: Skipped,
}

/// What a folder scan left out.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Skipped {
    /// Hidden folders under a given folder, not walked.
    pub hidden_folders: usize,
    /// Found YAML files that are not manifests (counted by the reader).
    pub not_manifests: usize,
}

impl Skipped {
    /// The one note line about what was skipped, if anything was.
    pub fn note(&self) -> Option<String> {
        let mut parts = Vec::new();
        if self.hidden_folders > 0 {
            parts.push(format!("{} hidden folder(s)", self.hidden_folders));
        }
        if self.not_manifests > 0 {
            parts.push(format!(
                "{} YAML file(s) that are not manifests (no top-level `version` with `components`, `intents` or `regions`)",
                self.not_manifests
            ));
        }
        (!parts.is_empty()).then(|| {
            format!(
                "note: the folder scan skipped {}; name a file on the command line to read it anyway",
                parts.join(" and ")
            )
        })
    }
}

/// Whether a YAML text found under a folder is a manifest: a top-level
/// `version` key with `components`, `intents` or `regions` beside it. A
/// document in flow style (`{...}`) is left to the parser. Only the keys
/// at column 0 are looked at, so the cost is one pass over the text.
pub fn is_manifest_text(text: &str) -> bool {
    let (mut version, mut body) = (false, false);
    for line in text.lines() {
        let line = line.strip_prefix('\u{feff}').unwrap_or(line);
        if line.starts_with('{') {
            return true;
        }
        if line.starts_with([' ', '\t', '#', '-']) {
            continue;
        }
        let Some((key, _)) = line.split_once(':') else {
            continue;
        };
        match key.trim().trim_matches(['"', '\'']) {
            "version" => version = true,
            "components" | "intents" | "regions" => body = true,
            _ => {}
        }
        if version && body {
            return true;
        }
    }
    false
}

/// The files of `paths`: files as given ([`Origin::Given`]), folders
/// walked ([`Origin::Found`]); a file met twice is kept once, at its first
/// place, and counts as given if it was named once.
pub fn discover(paths: &[PathBuf]) -> Result<Discovered, Vec<Diagnostic>> {
    let mut out = Discovered::default();
    let mut errors = Vec::new();
    for p in paths {
        match std::fs::metadata(p) {
            Ok(m) if m.is_dir() => {
                if let Err(d) = super::check_given(p) {
                    errors.push(d);
                    continue;
                }
                let mut found = Vec::new();
                walk(p, &mut found, &mut out.skipped, &mut errors, 0);
                out.files
                    .extend(found.into_iter().map(|f| (f, Origin::Found)));
            }
            Ok(_) => out.files.push((p.clone(), Origin::Given)),
            Err(e) => errors.push(
                Diagnostic::new(
                    None,
                    format!("cannot read `{}`: {}", p.display(), io_reason(&e)),
                )
                .help("check the path; give manifest files or folders holding *.yaml files"),
            ),
        }
    }
    out.files = once_each(std::mem::take(&mut out.files));
    if out.files.is_empty() && errors.is_empty() {
        errors.push(no_manifests(paths));
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

/// The error of a run that found nothing to read: the folders given and
/// the names a folder scan looks for.
pub fn no_manifests(paths: &[PathBuf]) -> Diagnostic {
    let folders: Vec<String> = paths
        .iter()
        .filter(|p| p.is_dir())
        .map(|p| format!("`{}`", crate::diagnostics::echo(&p.display().to_string())))
        .collect();
    let message = match folders.len() {
        0 => NO_MANIFESTS.to_string(),
        _ => format!("{NO_MANIFESTS} in {}", folders.join(", ")),
    };
    Diagnostic::new(None, message).help(
        "a folder is read for manifests (*.yaml, *.yml: a top-level `version` with `components`, `intents` or `regions`) and Terraform (*.tf, *.tf.json, terraform.tfvars, *.auto.tfvars) below it, hidden folders left out; name any other file (a CloudFormation *.json template, an AsyncAPI document) on the command line",
    )
}

/// How [`no_manifests`] starts: `check --each` tells an empty folder apart by it.
pub const NO_MANIFESTS: &str = "no manifest files found";

/// What makes two paths the same file: (device, inode) where known, else
/// the resolved path, else the path as written.
fn identity(path: &Path) -> (Option<(u64, u64)>, PathBuf) {
    let id = std::fs::metadata(path)
        .ok()
        .as_ref()
        .and_then(super::file_id);
    let path = match id {
        Some(_) => PathBuf::new(),
        None => std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf()),
    };
    (id, path)
}

/// `files` with every file once, at its first place; named once is named.
fn once_each(files: Vec<(PathBuf, Origin)>) -> Vec<(PathBuf, Origin)> {
    let mut seen: HashMap<_, usize> = HashMap::with_capacity(files.len());
    let mut out: Vec<(PathBuf, Origin)> = Vec::with_capacity(files.len());
    for (path, origin) in files {
        let key = identity(&path);
        match seen.get(&key) {
            Some(&i) => {
                if origin == Origin::Given {
                    out[i].1 = Origin::Given;
                }
            }
            None => {
                seen.insert(key, out.len());
                out.push((path, origin));
            }
        }
    }
    out
}

fn walk(
    dir: &Path,
    files: &mut Vec<PathBuf>,
    skipped: &mut Skipped,
    errors: &mut Vec<Diagnostic>,
    depth: usize,
) {
    if depth > MAX_WALK_DEPTH {
        errors.push(Diagnostic::new(
            None,
            format!(
                "`{}` is nested more than {MAX_WALK_DEPTH} folders deep",
                dir.display()
            ),
        ));
        return;
    }
    // A CDK cloud assembly is read through its manifest, which names its
    // templates (JSON) and stages; nothing else in it is an input.
    if crate::import::cloudformation::cdk::is_assembly(dir) {
        files.push(dir.join(crate::import::cloudformation::cdk::MANIFEST));
        return;
    }
    // An AWS CLI export (`export-aws`'s folder) is read through its marker.
    if crate::import::aws_export::is_export(dir) {
        files.push(dir.join(crate::import::aws_export::MARKER));
        return;
    }
    let mut entries: Vec<PathBuf> = match std::fs::read_dir(dir) {
        Ok(rd) => rd.filter_map(|e| e.ok().map(|e| e.path())).collect(),
        Err(e) => {
            errors.push(Diagnostic::new(
                None,
                format!("cannot read folder `{}`: {}", dir.display(), io_reason(&e)),
            ));
            return;
        }
    };
    entries.sort();
    for path in entries {
        // Symbolic links are never followed: a folder scan stays in the folder.
        let Ok(meta) = std::fs::symlink_metadata(&path) else {
            continue;
        };
        if meta.file_type().is_symlink() {
            continue;
        }
        if meta.is_dir() {
            let hidden = path
                .file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with('.'));
            // `.git` and Terraform's `.terraform` (its module cache is read
            // through `modules.json`) are never manifests: left out unsaid.
            let expected = path
                .file_name()
                .is_some_and(|n| n == ".git" || n == ".terraform");
            if hidden {
                skipped.hidden_folders += usize::from(!expected);
            } else {
                walk(&path, files, skipped, errors, depth + 1);
            }
        } else if matches!(
            path.extension().and_then(|e| e.to_str()),
            Some("yaml" | "yml")
        ) || crate::import::terraform::is_found_input(&path)
        {
            files.push(path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_manifest_has_version_with_components_intents_or_regions_at_the_top() {
        assert!(is_manifest_text(
            "version: 1\ncomponents:\n  a: {kind: service}\n"
        ));
        assert!(is_manifest_text("# c\n\"version\": 1\nintents: {}\n"));
        assert!(is_manifest_text("version: 1\nregions: {}\n"));
        assert!(is_manifest_text("{version: 1, components: {}}\n"));
        // A GitHub workflow, a compose file, OpenAPI.
        assert!(!is_manifest_text(
            "name: ci\non: [push]\njobs:\n  version: 1\n"
        ));
        assert!(!is_manifest_text("version: '3'\nservices: {}\n"));
        assert!(!is_manifest_text(
            "openapi: 3.0.0\ninfo:\n  version: 1\ncomponents: {}\n"
        ));
    }

    #[test]
    fn the_note_counts_what_was_skipped() {
        assert_eq!(Skipped::default().note(), None);
        assert_eq!(
            Skipped {
                hidden_folders: 2,
                not_manifests: 0
            }
            .note()
            .as_deref(),
            Some(
                "note: the folder scan skipped 2 hidden folder(s); name a file on the command line to read it anyway"
            )
        );
    }
}
