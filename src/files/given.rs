//! Paths named on the command line. A user may name a symbolic link and
//! have it followed, but CI often names files by a shell pattern
//! (`check manifests/*.yaml`), and a pull request can put a link into the
//! tree that points to a secret outside it (`~/.git-credentials`): errors
//! quote the line they point at, so following that link would print the
//! secret in the CI log. The rule: a named path that lies in the work tree
//! (the repository, else the current folder) must also resolve into it; a
//! path named outside the work tree (an absolute path the user typed) is
//! followed wherever it leads, since no pull request put it there.

use std::path::{Component, Path, PathBuf};

use crate::diagnostics::Diagnostic;

/// The work tree seen from `cwd` (absolute): the nearest folder from `cwd`
/// upward holding `.git` (a folder, or a file in a linked work tree), else
/// `cwd`.
pub fn work_tree(cwd: &Path) -> &Path {
    cwd.ancestors()
        .find(|d| d.join(".git").exists())
        .unwrap_or(cwd)
}

/// `path` without `.` and with each `..` taking off the folder before it,
/// on the text alone (an input that does not exist is still named).
pub fn normalise(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// The work tree, when `named` lies in it (by its text, from the current
/// folder) but `target` resolves outside it; `None` when `named` lies
/// outside the tree (the user's own choice), `target` stays in it, or
/// either cannot be resolved (reading it then reports why).
fn escaped_tree(named: &Path, target: &Path) -> Option<PathBuf> {
    escaped_tree_from(&std::env::current_dir().ok()?, named, target)
}

/// [`escaped_tree`] seen from `cwd`, resolved first: from a folder reached
/// through a link, the tree's own path (`/real/repo/ra/leak.yaml`) lies in
/// the tree as much as a relative name does.
fn escaped_tree_from(cwd: &Path, named: &Path, target: &Path) -> Option<PathBuf> {
    let cwd = std::fs::canonicalize(cwd).ok()?;
    let tree = work_tree(&cwd);
    if !normalise(&cwd.join(named)).starts_with(tree) {
        return None;
    }
    let real = std::fs::canonicalize(target).ok()?;
    let real_tree = std::fs::canonicalize(tree).ok()?;
    (!real.starts_with(real_tree)).then(|| tree.to_path_buf())
}

/// The current folder, resolved: a folder reached through a symbolic link
/// is judged by where it is, like any other path.
pub(crate) fn real_cwd() -> Option<PathBuf> {
    std::fs::canonicalize(std::env::current_dir().ok()?).ok()
}

/// How errors name `tree`: "the repository" or "the current folder".
pub(crate) fn tree_word(tree: &Path) -> &'static str {
    if tree.join(".git").exists() {
        "the repository"
    } else {
        "the current folder"
    }
}

/// Refuses a path named on the command line that lies in the work tree
/// but resolves outside it through a symbolic link (see the module).
pub fn check_given(path: &Path) -> Result<(), Diagnostic> {
    let Some(tree) = escaped_tree(path, path) else {
        return Ok(());
    };
    let what = tree_word(&tree);
    Err(Diagnostic::new(
        None,
        format!(
            "`{}` leads out of {what} (`{}`) through a symbolic link; such a link is not followed",
            path.display(),
            tree.display()
        ),
    )
    .help("name what the link points to by its own path, or put it in the link's place"))
}

/// Whether `path`, which a file under `named` (a path the user named)
/// points to, may be read: as [`check_given`], if `named` lies in the
/// work tree, `path` must resolve into it; named outside it, `named` is the
/// user's own and so is what it points to. (A Terraform module folder is
/// named by the configuration's text, which a pull request writes.) A
/// `path` that cannot be resolved may be tried: reading it fails.
pub fn stays_in_tree(path: &Path, named: &Path) -> bool {
    escaped_tree(named, path).is_none()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalise_works_on_the_text() {
        assert_eq!(normalise(Path::new("/a/./b/../c")), Path::new("/a/c"));
        assert_eq!(normalise(Path::new("a/../../b")), Path::new("b"));
    }

    #[cfg(unix)]
    #[test]
    fn a_current_folder_reached_through_a_link_is_resolved_first() {
        let d = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(d.path()).unwrap();
        let repo = root.join("repo");
        std::fs::create_dir_all(repo.join(".git")).unwrap();
        std::fs::write(root.join("secret"), "s").unwrap();
        std::os::unix::fs::symlink(root.join("secret"), repo.join("leak.yaml")).unwrap();
        std::os::unix::fs::symlink(&repo, root.join("via")).unwrap();
        // Named by the tree's own path from the linked folder: in the tree.
        let leak = repo.join("leak.yaml");
        assert_eq!(
            escaped_tree_from(&root.join("via"), &leak, &leak),
            Some(repo.clone())
        );
        assert_eq!(escaped_tree_from(&repo, &leak, &leak), Some(repo.clone()));
        assert_eq!(
            escaped_tree_from(
                &root.join("via"),
                &root.join("secret"),
                &root.join("secret")
            ),
            None
        );
    }

    #[test]
    fn the_work_tree_is_the_nearest_folder_with_git() {
        let d = tempfile::tempdir().unwrap();
        let sub = d.path().join("repo/a/b");
        std::fs::create_dir_all(&sub).unwrap();
        std::fs::create_dir(d.path().join("repo/.git")).unwrap();
        assert_eq!(work_tree(&sub), d.path().join("repo"));
        let outside = d.path().join("elsewhere");
        if !outside.ancestors().any(|a| a.join(".git").exists()) {
            assert_eq!(work_tree(&outside), outside);
        }
    }
}
