//! Writing an output file without destroying anything: never onto an input
//! of the run, never through a symbolic link, and never half-written (a
//! temporary file beside the target is renamed into place).

use std::hash::{BuildHasher, Hasher};
use std::io::Write;
use std::path::{Component, Path, PathBuf};

/// Whether a file already at the target may be replaced.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// `-o`, `--write-baseline`, `save --force`.
    Replace,
    /// `init --output`, `save`: an existing file is refused.
    CreateNew,
    /// `check --fix`: only a manifest this run read, rewritten whole.
    Fix,
}

/// Why an output was not written; nothing at the target was changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WriteError {
    pub kind: WriteErrorKind,
    pub message: String,
    pub help: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WriteErrorKind {
    /// The target is a symbolic link.
    Link,
    /// The target is, or resolves to, a file this run read.
    Input,
    /// A file is there and [`Mode::CreateNew`] was asked for.
    Exists,
    /// The target is a folder.
    Folder,
    /// Creating, writing or renaming failed.
    Io,
}

impl WriteError {
    /// Replaces the help (a command knows the flag that fixes it).
    pub fn help(mut self, help: impl Into<String>) -> Self {
        self.help = help.into();
        self
    }
}

impl std::fmt::Display for WriteError {
    /// `error: MESSAGE` and `help: HELP` on two lines, no newline at the end.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Paths in the message come from the command line or the manifest:
        // shown inert, as every echoed value.
        let echo = crate::diagnostics::echo;
        write!(
            f,
            "error: {}\nhelp: {}",
            echo(&self.message),
            echo(&self.help)
        )
    }
}

fn refused(kind: WriteErrorKind, message: String, help: &str) -> WriteError {
    WriteError {
        kind,
        message,
        help: help.to_string(),
    }
}

/// Writes `bytes` to `target`.
///
/// Refused, with nothing written: a target that is a symbolic link (unless
/// it leads to a stream, as `/dev/stdout` on a pipe does), a folder, a file this process read ([`super::is_input`]: same canonical
/// path, or same device and inode, so hard links count), or, with
/// [`Mode::CreateNew`], any existing entry. A regular file (or a new one)
/// is written to a temporary file in the target's folder (created new,
/// under an unpredictable name), synced, then renamed over the target, so
/// readers see the old file or the new, never a fragment; on failure the
/// temporary file is removed. An existing FIFO or device (`-o /dev/null`)
/// is written in place: there is nothing to replace atomically.
pub fn write_atomic(target: &Path, bytes: &[u8], mode: Mode) -> Result<(), WriteError> {
    write_atomic_with(target, mode, |w| w.write_all(bytes))
}

/// [`write_atomic`] with the bytes written by `write` into a buffered
/// writer (an output made as it is written, never whole in memory). Every
/// refusal comes before `write` runs; if it or the writing fails, the
/// temporary file is removed and the target is as it was.
pub fn write_atomic_with(
    target: &Path,
    mode: Mode,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<(), WriteError> {
    let name = target.display();
    folders_hold_no_link(target)?;
    match std::fs::symlink_metadata(target) {
        // `-o /dev/stdout` on a terminal or a pipe: a link to a stream
        // replaces no file.
        Ok(m) if m.file_type().is_symlink() && leads_to_a_stream(target) => {
            return write_in_place(target, write);
        }
        Ok(m) if m.file_type().is_symlink() => {
            return Err(refused(
                WriteErrorKind::Link,
                format!("`{name}` is a symbolic link; replay-audit does not write through links"),
                "remove the link, or give the path of a regular file",
            ));
        }
        Ok(m) if m.is_dir() => {
            return Err(refused(
                WriteErrorKind::Folder,
                format!("`{name}` is a folder"),
                "give a file path",
            ));
        }
        Ok(_) if mode == Mode::Fix && super::is_input(target) => {}
        _ if mode == Mode::Fix => {
            return Err(refused(
                WriteErrorKind::Input,
                format!("`{name}` is not a manifest this run read"),
                "`check --fix` rewrites only the manifests it checked",
            ));
        }
        Ok(_) if super::is_input(target) => {
            return Err(refused(
                WriteErrorKind::Input,
                format!(
                    "`{name}` is an input of this run (a manifest, overrides, baseline or policy file); writing there would replace it"
                ),
                "give another output path",
            ));
        }
        Ok(_) if mode == Mode::CreateNew => {
            return Err(refused(
                WriteErrorKind::Exists,
                format!("`{name}` already exists"),
                "give another path, or move the file away first",
            ));
        }
        Ok(m) if !m.is_file() => return write_in_place(target, write),
        _ => {}
    }
    let old = std::fs::metadata(target).ok();
    let (tmp, file) = temp_beside(target).map_err(|e| io_error(target, &e))?;
    let written = (|| {
        if let Some(old) = &old {
            // Keep the replaced file's permissions.
            file.set_permissions(old.permissions())?;
        }
        let mut out = std::io::BufWriter::new(file);
        write(&mut out)?;
        let file = out
            .into_inner()
            .map_err(std::io::IntoInnerError::into_error)?;
        file.sync_all()?;
        drop(file);
        std::fs::rename(&tmp, target)
    })();
    written.map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        io_error(target, &e)
    })
}

/// Refuses `target` when a folder on its way that lies in the work tree
/// (the repository, else the current folder, [`super::work_tree`]) is a
/// symbolic link: a pull request can make `reports` a link to `../outside`,
/// and `-o reports/x.html` would then write outside the tree. Each folder
/// is examined from the current folder (resolved) downward with
/// `symlink_metadata`, which does not follow links. A path named outside
/// the tree (an absolute path, or one going up out of it) is the user's
/// own: links there are followed. The last component is the target itself,
/// checked by [`write_atomic_with`].
fn folders_hold_no_link(target: &Path) -> Result<(), WriteError> {
    let Some(cwd) = super::given::real_cwd() else {
        return Ok(());
    };
    let tree = super::work_tree(&cwd).to_path_buf();
    let full = cwd.join(target);
    if !super::normalise(&full).starts_with(&tree) {
        return Ok(());
    }
    let parts: Vec<Component> = full.components().collect();
    let mut at = PathBuf::new();
    for (i, part) in parts.iter().enumerate() {
        if i + 1 == parts.len() && matches!(part, Component::Normal(_)) {
            break;
        }
        match part {
            Component::ParentDir => {
                at.pop();
                continue;
            }
            Component::CurDir => continue,
            Component::Normal(n) => at.push(n),
            other => {
                at.push(other.as_os_str());
                continue;
            }
        }
        let Ok(meta) = std::fs::symlink_metadata(&at) else {
            // Missing: creating the file there fails and says so.
            return Ok(());
        };
        if !meta.file_type().is_symlink() {
            continue;
        }
        if at.starts_with(&tree) {
            let link = at.strip_prefix(&cwd).unwrap_or(&at);
            return Err(refused(
                WriteErrorKind::Link,
                format!(
                    "`{}` leads through `{}`, a symbolic link in {} (`{}`); replay-audit does not write through links",
                    target.display(),
                    link.display(),
                    super::given::tree_word(&tree),
                    tree.display()
                ),
                "remove the link, or give a path without links in it",
            ));
        }
        // Outside the tree, the user's own link: followed.
        match std::fs::canonicalize(&at) {
            Ok(real) => at = real,
            Err(_) => return Ok(()),
        }
    }
    Ok(())
}

/// Whether `target` resolves to a FIFO, a socket or a device (not a
/// regular file nor a folder).
fn leads_to_a_stream(target: &Path) -> bool {
    std::fs::metadata(target).is_ok_and(|m| !m.is_file() && !m.is_dir())
}

fn write_in_place(
    target: &Path,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<(), WriteError> {
    std::fs::OpenOptions::new()
        .write(true)
        .open(target)
        .and_then(|f| {
            let mut out = std::io::BufWriter::new(f);
            write(&mut out)?;
            out.flush()
        })
        .map_err(|e| io_error(target, &e))
}

fn io_error(target: &Path, e: &std::io::Error) -> WriteError {
    refused(
        WriteErrorKind::Io,
        format!("cannot write `{}`: {e}", target.display()),
        "check that the folder exists and is writable and that the disk has room; nothing at that path was changed",
    )
}

/// A new file in the target's folder, `.NAME.replay-audit-PID-RANDOM.tmp`.
/// The name is unpredictable (std's randomly keyed hasher) and the file is
/// created new, so a planted file or link of that name is never opened.
fn temp_beside(target: &Path) -> std::io::Result<(PathBuf, std::fs::File)> {
    let dir = match target.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let base = target
        .file_name()
        .map_or_else(|| "out".into(), |n| n.to_string_lossy().into_owned());
    let mut last = None;
    for attempt in 0..16u32 {
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u32(attempt);
        h.write_u128(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos()),
        );
        let tmp = dir.join(format!(
            ".{base}.replay-audit-{}-{:016x}.tmp",
            std::process::id(),
            h.finish()
        ));
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)
        {
            Ok(f) => return Ok((tmp, f)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| std::io::Error::other("no free temporary name")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_a_file_and_leaves_no_temporary_behind() {
        let d = tempfile::tempdir().unwrap();
        let t = d.path().join("out.md");
        std::fs::write(&t, "old").unwrap();
        write_atomic(&t, b"new", Mode::Replace).unwrap();
        assert_eq!(std::fs::read_to_string(&t).unwrap(), "new");
        assert_eq!(std::fs::read_dir(d.path()).unwrap().count(), 1);
        let e = write_atomic(&t, b"x", Mode::CreateNew).unwrap_err();
        assert_eq!(e.kind, WriteErrorKind::Exists);
        assert_eq!(std::fs::read_to_string(&t).unwrap(), "new");
    }

    #[test]
    fn a_missing_folder_is_an_error_and_writes_nothing() {
        let d = tempfile::tempdir().unwrap();
        let t = d.path().join("no/out.md");
        let e = write_atomic(&t, b"x", Mode::Replace).unwrap_err();
        assert_eq!(e.kind, WriteErrorKind::Io);
        assert!(e.message.starts_with("cannot write `"), "{}", e.message);
    }

    #[test]
    fn a_failing_writer_leaves_the_old_file_and_no_temporary() {
        let d = tempfile::tempdir().unwrap();
        let t = d.path().join("out.html");
        std::fs::write(&t, "old").unwrap();
        let e = write_atomic_with(&t, Mode::Replace, |w| {
            w.write_all(&[b'x'; 100_000])?;
            Err(std::io::Error::other("stopped halfway"))
        })
        .unwrap_err();
        assert_eq!(e.kind, WriteErrorKind::Io);
        assert!(e.message.ends_with("stopped halfway"), "{}", e.message);
        assert_eq!(std::fs::read_to_string(&t).unwrap(), "old");
        assert_eq!(std::fs::read_dir(d.path()).unwrap().count(), 1);
    }

    #[test]
    fn a_refused_target_never_runs_the_writer() {
        let d = tempfile::tempdir().unwrap();
        let t = d.path().join("out.html");
        std::fs::write(&t, "old").unwrap();
        let e = write_atomic_with(&t, Mode::CreateNew, |_| {
            panic!("the writer ran for a refused target")
        })
        .unwrap_err();
        assert_eq!(e.kind, WriteErrorKind::Exists);
    }
}
