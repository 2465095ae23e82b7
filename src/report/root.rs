//! Paths as CI shows them: relative to the repository root (the git work
//! tree: the nearest folder upward holding `.git`, else the current
//! folder), with `/` separators, whichever folder the command ran from.
//!
//! SARIF (`%SRCROOT%`-relative URIs) and GitHub annotations need this:
//! code scanning and the annotation API place a result by its path in the
//! repository, and a literal CLI argument (`./a.yaml`, `/abs/a.yaml`,
//! `../a.yaml`) places nothing.

use std::path::{Path, PathBuf};

use crate::diagnostics::SourceMap;
use crate::files::{normalise, work_tree};

/// The name suffix the engine gives the manifest it imports from a file.
const IMPORTED: &str = " (imported)";

/// Where paths are made relative to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Root {
    /// The current folder, to resolve relative arguments.
    cwd: PathBuf,
    /// The repository root (absolute).
    root: PathBuf,
}

impl Root {
    /// The root seen from the current folder (from `/` if the current
    /// folder cannot be read: every path then shows absolute).
    pub fn current() -> Root {
        let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
        Root::of(&cwd)
    }

    /// The root as seen from `cwd` (absolute): the nearest folder from
    /// `cwd` upward holding `.git` (a folder, or a file in a linked work
    /// tree), else `cwd`.
    pub fn of(cwd: &Path) -> Root {
        let root = work_tree(cwd).to_path_buf();
        Root {
            cwd: cwd.to_path_buf(),
            root,
        }
    }

    /// `path` relative to the root with `/` separators, or `None` when it
    /// lies outside the root (or is no file name, like `<stdin>`).
    pub fn relative(&self, path: &str) -> Option<String> {
        if path == crate::engine::STDIN {
            return None;
        }
        let full = normalise(&self.cwd.join(path));
        // A path through a symbolic link to the repository (`/tmp` on
        // macOS) is compared by its real place.
        let real;
        let rel = match full.strip_prefix(&self.root) {
            Ok(r) => r,
            Err(_) => {
                real = std::fs::canonicalize(&full).ok()?;
                real.strip_prefix(&self.root).ok()?
            }
        };
        let parts: Vec<String> = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        (!parts.is_empty()).then(|| parts.join("/"))
    }

    /// `path` as an annotation shows it: relative to the root, else
    /// absolute (a path outside the repository cannot be placed anyway).
    pub fn display(&self, path: &str) -> String {
        let (base, suffix) = split_imported(path);
        match self.relative(base) {
            Some(r) => format!("{r}{suffix}"),
            None if base == crate::engine::STDIN => path.to_string(),
            None => format!(
                "{}{suffix}",
                normalise(&self.cwd.join(base)).to_string_lossy()
            ),
        }
    }

    /// A copy of `map` with every path as [`Root::display`] shows it and no
    /// texts (the formats that place findings by path show no snippet).
    pub fn map(&self, map: &SourceMap) -> SourceMap {
        let mut out = SourceMap::default();
        for f in &map.files {
            out.add(self.display(&f.path), String::new());
        }
        out
    }

    /// The root as a `file://` URI ending in `/`.
    pub fn uri(&self) -> String {
        let mut s = self.root.to_string_lossy().replace('\\', "/");
        if !s.starts_with('/') {
            s.insert(0, '/');
        }
        if !s.ends_with('/') {
            s.push('/');
        }
        format!("file://{}", crate::report::sarif::uri(&s))
    }
}

/// `a.yaml (imported)` → (`a.yaml`, ` (imported)`).
fn split_imported(path: &str) -> (&str, &str) {
    match path.strip_suffix(IMPORTED) {
        Some(base) => (base, IMPORTED),
        None => (path, ""),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_relative_to_the_folder_with_git() {
        let d = tempfile::tempdir().unwrap();
        let repo = d.path().join("repo");
        std::fs::create_dir_all(repo.join(".git")).unwrap();
        std::fs::create_dir_all(repo.join("infra/payments")).unwrap();
        let from_sub = Root::of(&repo.join("infra/payments"));
        let from_top = Root::of(&repo);
        assert_eq!(from_sub.display("./a.yaml"), "infra/payments/a.yaml");
        assert_eq!(from_sub.display("../../b/c.yaml"), "b/c.yaml");
        assert_eq!(
            from_top.display("infra/payments/a.yaml"),
            "infra/payments/a.yaml"
        );
        let abs = repo.join("infra/payments/a.yaml");
        assert_eq!(
            from_top.display(&abs.to_string_lossy()),
            "infra/payments/a.yaml"
        );
        assert_eq!(
            from_sub.display("t.json (imported)"),
            "infra/payments/t.json (imported)"
        );
        assert_eq!(from_sub.display("<stdin>"), "<stdin>");
        let outside = d.path().join("other.yaml");
        assert_eq!(
            from_sub.display("../../../other.yaml"),
            outside.to_string_lossy()
        );
        assert_eq!(from_sub.relative("../../../other.yaml"), None);
    }

    #[cfg(unix)]
    #[test]
    fn a_path_through_a_link_is_placed_by_its_real_place() {
        let d = tempfile::tempdir().unwrap();
        let repo = d.path().canonicalize().unwrap().join("repo");
        std::fs::create_dir_all(repo.join(".git")).unwrap();
        std::fs::write(repo.join("a.yaml"), "version: 1\n").unwrap();
        let link = d.path().join("link");
        std::os::unix::fs::symlink(&repo, &link).unwrap();
        let r = Root::of(&repo);
        let via = link.join("a.yaml");
        assert_eq!(r.display(&via.to_string_lossy()), "a.yaml");
    }

    #[test]
    fn without_git_the_current_folder_is_the_root() {
        let d = tempfile::tempdir().unwrap();
        // A temporary folder has no `.git` above it on a build machine; if
        // it has, the test says nothing, so check that first.
        if d.path().ancestors().any(|a| a.join(".git").exists()) {
            return;
        }
        let r = Root::of(d.path());
        assert_eq!(r.display("./x/a.yaml"), "x/a.yaml");
        assert!(r.uri().starts_with("file:///"), "{}", r.uri());
        assert!(r.uri().ends_with('/'), "{}", r.uri());
    }
}
