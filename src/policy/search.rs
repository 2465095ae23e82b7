//! Where the policy file of a run is: `--config FILE`, else the nearest
//! `replay-audit.toml` from the manifests' folder up to the repository
//! root, like ruff's and cargo-deny's configuration.
//!
//! The search starts in the first path's folder (the folder itself when a
//! folder is given) and walks up its real parents (the start is resolved
//! once, so no symbolic link is walked through on the way up). It stops at
//! the repository root, the first folder holding `.git` (a folder, or a
//! file in a worktree); outside a repository only the start folder is
//! searched, so a stray file above a checkout never applies. A link named
//! `replay-audit.toml` is located too, for the reader to refuse: found
//! files are never read through one (`crate::files::Origin::Found`).

use std::path::{Path, PathBuf};

use super::FILE_NAME;

/// At most this many folders are searched (a path deeper than this is
/// not a checkout anyone works in).
const MAX_LEVELS: usize = 64;

/// The policy file for a run: the one `config` names, else the nearest
/// `replay-audit.toml` from the first path up to the repository root.
pub fn locate(paths: &[PathBuf], config: Option<&Path>) -> Option<PathBuf> {
    if let Some(c) = config {
        return Some(c.to_path_buf());
    }
    let first = paths.first()?;
    let start = if first.is_dir() {
        first.clone()
    } else {
        match first.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        }
    };
    let candidate = search_dirs(&start).into_iter().find_map(|dir| {
        let c = dir.join(FILE_NAME);
        let entry = std::fs::symlink_metadata(&c).ok()?;
        (entry.is_file() || entry.file_type().is_symlink()).then_some(c)
    })?;
    Some(shown(&candidate, first.is_absolute()))
}

/// The folders searched from `start`: it and its parents up to the
/// repository root, or `start` alone outside a repository.
fn search_dirs(start: &Path) -> Vec<PathBuf> {
    let Ok(real) = std::fs::canonicalize(start) else {
        return vec![start.to_path_buf()];
    };
    let mut dirs = Vec::new();
    for dir in real.ancestors().take(MAX_LEVELS) {
        dirs.push(dir.to_path_buf());
        if std::fs::symlink_metadata(dir.join(".git")).is_ok() {
            return dirs;
        }
    }
    vec![real]
}

/// `path` as messages show it: relative to the working folder when the
/// user gave relative paths (`replay-audit.toml`, `../replay-audit.toml`),
/// else absolute.
fn shown(path: &Path, absolute: bool) -> PathBuf {
    let Some(cwd) = (!absolute)
        .then(std::env::current_dir)
        .and_then(Result::ok)
        .and_then(|cwd| std::fs::canonicalize(cwd).ok())
    else {
        return path.to_path_buf();
    };
    if let Ok(under) = path.strip_prefix(&cwd) {
        return under.to_path_buf();
    }
    // A policy above the working folder: `..` once per level up.
    let dir = path.parent().unwrap_or(path);
    match cwd.strip_prefix(dir) {
        Ok(below) => below
            .components()
            .map(|_| Path::new(".."))
            .collect::<PathBuf>()
            .join(path.file_name().unwrap_or_default()),
        Err(_) => path.to_path_buf(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outside_a_repository_only_the_start_folder_is_searched() {
        let d = tempfile::tempdir().unwrap();
        let sub = d.path().join("a/b");
        std::fs::create_dir_all(&sub).unwrap();
        let real = std::fs::canonicalize(&sub).unwrap();
        assert_eq!(search_dirs(&sub), vec![real]);
    }

    #[test]
    fn inside_a_repository_the_search_stops_at_its_root() {
        let d = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(d.path()).unwrap();
        std::fs::create_dir_all(root.join(".git")).unwrap();
        std::fs::create_dir_all(root.join("a/b")).unwrap();
        assert_eq!(
            search_dirs(&root.join("a/b")),
            vec![root.join("a/b"), root.join("a"), root.clone()]
        );
    }
}
