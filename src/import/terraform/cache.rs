//! The module cache `terraform init` writes beside a root module:
//! `.terraform/modules/modules.json` lists every module call by key (`queue`,
//! nested calls `queue.inner`) with the folder its code was copied to
//! (`Dir`, relative to the root module's folder), as tflint reads it. A
//! registry or remote module (`source = "terraform-aws-modules/sqs/aws"`,
//! `git::…`, `https://….zip`) is read from that folder.
//!
//! The cache is read by the importer itself, not found by the folder walk
//! (which skips hidden folders and everything under `.terraform/`), under
//! the rules for files found rather than named: `modules.json` and a
//! module's files are never read through a symbolic link, and a module
//! folder reached through a link, or outside the root module's folder, is
//! not read (its call stays a TODO, its outputs placeholders).

use std::path::{Path, PathBuf};

use super::modules::normal;
use crate::manifest::Limits;

/// One cached module: its key (`queue`, `queue.inner`), its folder and
/// its `.tf` files (name, text).
pub(super) struct Cached {
    pub key: String,
    pub dir: PathBuf,
    pub files: Vec<(String, String)>,
}

/// The file `terraform init` writes, relative to the root module's folder.
pub(super) const MANIFEST: &str = ".terraform/modules/modules.json";

/// The modules cached for root folder `root`, in the order `modules.json`
/// lists them; none without a (readable) cache. Local modules (`./x`) are
/// listed too, by the folder they already are in.
pub(super) fn read(root: &Path, limits: &Limits) -> Vec<Cached> {
    let here = match root.as_os_str().is_empty() {
        true => Path::new("."),
        false => root,
    };
    let path = here.join(MANIFEST);
    if !no_link(here, Path::new(MANIFEST)) {
        return Vec::new();
    }
    let Ok(text) = crate::files::read(&path, crate::files::Origin::Found, limits.max_file_bytes)
    else {
        return Vec::new();
    };
    let Ok(json) = serde_json::from_str::<serde_json::Value>(&text) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let entries = json.get("Modules").and_then(|m| m.as_array());
    for m in entries.into_iter().flatten() {
        let key = m.get("Key").and_then(|k| k.as_str()).unwrap_or("");
        let Some(dir) = m.get("Dir").and_then(|d| d.as_str()) else {
            continue;
        };
        if key.is_empty() || Path::new(dir).is_absolute() {
            continue;
        }
        let rel = normal(Path::new(dir));
        // `..` left after normalising leaves the root's folder.
        if rel.as_os_str().is_empty()
            || rel
                .components()
                .any(|c| matches!(c, std::path::Component::ParentDir))
            || !no_link(here, &rel)
        {
            continue;
        }
        let full = normal(&root.join(&rel));
        if !crate::files::stays_in_tree(&here.join(&rel), here) {
            continue;
        }
        if let Ok(files) = super::inputs::read_dir(&here.join(&rel), limits) {
            out.push(Cached {
                key: key.to_string(),
                dir: full,
                files,
            });
        }
    }
    out
}

/// Whether no part of `rel` under `base` is a symbolic link (every part
/// must exist).
fn no_link(base: &Path, rel: &Path) -> bool {
    let mut p = base.to_path_buf();
    for c in rel.components() {
        p.push(c);
        match std::fs::symlink_metadata(&p) {
            Ok(m) if !m.file_type().is_symlink() => {}
            _ => return false,
        }
    }
    true
}

/// The key of the call named `name` in the module at `prefix`
/// (`module.a.module.b.` → `a.b.NAME`).
pub(super) fn key(prefix: &str, name: &str) -> String {
    // An instance of a repeated call (`module.q["a"].`) is keyed as
    // the call: `terraform init` downloads a module once per call.
    let mut parts: Vec<&str> = prefix
        .split('.')
        .filter(|p| !p.is_empty() && *p != "module")
        .map(|p| p.split('[').next().unwrap_or(p))
        .collect();
    parts.push(name);
    parts.join(".")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_of_nested_calls() {
        assert_eq!(key("", "queue"), "queue");
        assert_eq!(key("module.a.module.b.", "c"), "a.b.c");
        assert_eq!(key("module.q[\"a\"].", "inner"), "q.inner");
        assert_eq!(key("module.q[0].", "inner"), "q.inner");
    }
}
