//! A file a template names by a relative path (a state machine's
//! `DefinitionUri`, a nested stack's `TemplateURL`, a cloud assembly's
//! template): read only where it stays inside its folder and reaches no
//! symbolic link on the way, so a pull request cannot make the import read
//! a file outside the repository.

use std::ffi::OsString;
use std::path::{Component, Path, PathBuf};

/// Why a relative path is not read; each caller words it.
#[derive(Debug, PartialEq)]
pub enum Refused {
    /// A `..` climbs above the folder.
    Leaves,
    /// An absolute path.
    Absolute,
    /// Nothing but `.` and `..`.
    Empty,
    /// The path passes through this symbolic link.
    Link(PathBuf),
}

/// `rel` read from `start` (the folders below `root` it is relative to),
/// as a path under `root`.
pub fn resolve(root: &Path, start: Vec<OsString>, rel: &str) -> Result<PathBuf, Refused> {
    let mut parts = start;
    for c in Path::new(rel).components() {
        match c {
            Component::Normal(p) => parts.push(p.to_owned()),
            Component::CurDir => {}
            Component::ParentDir if parts.pop().is_some() => {}
            Component::ParentDir => return Err(Refused::Leaves),
            Component::RootDir | Component::Prefix(_) => return Err(Refused::Absolute),
        }
    }
    if parts.is_empty() {
        return Err(Refused::Empty);
    }
    let mut file = root.to_path_buf();
    for p in parts {
        file.push(p);
        if std::fs::symlink_metadata(&file).is_ok_and(|m| m.file_type().is_symlink()) {
            return Err(Refused::Link(file));
        }
    }
    Ok(file)
}

/// How the refusal of a link reads, the same for every caller.
pub fn link_words(link: &Path) -> String {
    format!(
        "`{}` is a symbolic link, which is not followed",
        link.display()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_stays_in_its_folder() {
        let root = Path::new("/nonexistent-root");
        assert_eq!(
            resolve(root, vec![], "a/../b.json"),
            Ok(root.join("b.json"))
        );
        assert_eq!(
            resolve(root, vec!["sub".into()], "../c.json"),
            Ok(root.join("c.json"))
        );
        assert_eq!(resolve(root, vec![], "../c.json"), Err(Refused::Leaves));
        assert_eq!(resolve(root, vec![], "/etc/passwd"), Err(Refused::Absolute));
        assert_eq!(resolve(root, vec![], "a/.."), Err(Refused::Empty));
    }
}
