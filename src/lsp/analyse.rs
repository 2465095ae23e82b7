//! One document's architecture, read from the editor's texts by the same
//! engine as `check`: the document (a manifest, or a template with its
//! overlay `NAME.overlay.yaml` beside it, or that overlay), the policy
//! `replay-audit.toml` found from its folder, the findings on today's date.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::engine::{self, Inputs};
use crate::files::Origin;
use crate::manifest::{Limits, Manifest, load::read_input};
use crate::policy::{Date, Policy};
use crate::rules::Finding;

/// The texts the editor holds, by path: open documents win over the disk.
pub type Open = HashMap<PathBuf, String>;

/// What the engine made of one document's architecture.
pub struct Snapshot {
    /// The files read, the document first (their paths as the sources name them).
    pub files: Vec<PathBuf>,
    pub result: Result<Checked, engine::Error>,
}

/// A manifest that loaded and its findings under the policy.
pub struct Checked {
    pub manifest: Manifest,
    pub policy: Policy,
    pub today: Date,
    pub findings: Vec<Finding>,
}

/// The overlay beside a template (`NAME.overlay.yaml` beside `NAME.yaml`,
/// `.yml` or `.json`), or the template beside an overlay.
fn companion(path: &Path, exists: &dyn Fn(&Path) -> bool) -> Option<PathBuf> {
    let name = path.file_name()?.to_str()?;
    if let Some(stem) = name.strip_suffix(".overlay.yaml") {
        return ["yaml", "yml", "json"]
            .iter()
            .map(|ext| path.with_file_name(format!("{stem}.{ext}")))
            .find(|p| exists(p));
    }
    let stem = name
        .strip_suffix(".yaml")
        .or_else(|| name.strip_suffix(".yml"))
        .or_else(|| name.strip_suffix(".json"))?;
    let overlay = path.with_file_name(format!("{stem}.overlay.yaml"));
    exists(&overlay).then_some(overlay)
}

/// Whether `text` is for replay-audit: a manifest or overlay, or a
/// template, plan or AsyncAPI document it imports. Other YAML (a CI
/// workflow, a chart) the editor opens gets no diagnostics.
pub fn is_ours(path: &Path, text: &str, limits: &Limits) -> bool {
    crate::files::is_manifest_text(text) || crate::import::detect_path(path, text, limits).is_some()
}

/// Reads and checks the architecture of the document at `path`.
pub fn snapshot(path: &Path, open: &Open, limits: &Limits) -> Snapshot {
    let exists = |p: &Path| open.contains_key(p) || p.is_file();
    let mut files = vec![path.to_path_buf()];
    // The template first, then its overlay, as `check TEMPLATE OVERLAY`.
    if let Some(other) = companion(path, &exists) {
        if other.to_string_lossy().ends_with(".overlay.yaml") {
            files.push(other);
        } else {
            files.insert(0, other);
        }
    }
    let result = check_files(&files, open, limits);
    // The document first: the others are only read.
    files.sort_by_key(|f| f != path);
    Snapshot { files, result }
}

fn check_files(files: &[PathBuf], open: &Open, limits: &Limits) -> Result<Checked, engine::Error> {
    let inputs = Inputs {
        paths: files.to_vec(),
        limits: *limits,
        ..Inputs::default()
    };
    let mut raw = Vec::with_capacity(files.len());
    for f in files {
        let text = match open.get(f) {
            // The editor's text is bounded as a file read from disk is.
            Some(t) if t.len() as u64 > limits.max_file_bytes => {
                let d = crate::diagnostics::Diagnostic::new(
                    None,
                    format!(
                        "{} is larger than {} bytes",
                        f.display(),
                        limits.max_file_bytes
                    ),
                )
                .help("raise --max-file-size in the editor's command for `replay-audit lsp`");
                return Err(engine::Error::Load(crate::manifest::LoadError {
                    sources: Default::default(),
                    diagnostics: vec![d],
                }));
            }
            Some(t) => t.clone(),
            None => read_input(f, Origin::Given, limits).map_err(|d| {
                engine::Error::Load(crate::manifest::LoadError {
                    sources: Default::default(),
                    diagnostics: vec![d],
                })
            })?,
        };
        raw.push((f.display().to_string(), text, Origin::Given));
    }
    let manifest = engine::load_texts(&inputs, raw)?;
    let policy = engine::policy(&inputs)?;
    let today = Date::today().map_err(|message| engine::Error::Usage {
        message,
        help: None,
    })?;
    let findings = engine::check(&manifest, &policy, today).findings;
    Ok(Checked {
        manifest,
        policy,
        today,
        findings,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_overlay_and_its_template_find_each_other() {
        let have =
            |p: &Path| p == Path::new("/a/stack.yaml") || p == Path::new("/a/stack.overlay.yaml");
        assert_eq!(
            companion(Path::new("/a/stack.yaml"), &have),
            Some(PathBuf::from("/a/stack.overlay.yaml"))
        );
        assert_eq!(
            companion(Path::new("/a/stack.overlay.yaml"), &have),
            Some(PathBuf::from("/a/stack.yaml"))
        );
        assert_eq!(companion(Path::new("/a/other.yaml"), &have), None);
    }
}
