//! Every file replay-audit reads or writes goes through this module, because
//! in CI a pull request controls every file of the tree, symbolic links
//! included.
//!
//! - [`read_found`] reads a file the tool finds by itself (a manifest under
//!   a folder, `replay-audit.toml` beside the manifests): never through a
//!   symbolic link. [`read_given`] reads a file named on the command line
//!   and follows links, except one from inside the work tree to outside it
//!   ([`check_given`]). Both read at most the size limit + 1 bytes from the
//!   opened handle (a `/proc` file stats as size 0 and still yields data)
//!   and refuse what is not text ([`read`]). Nothing under a `.git` folder
//!   is read, whatever name or link leads there.
//! - [`discover`] lists the files of a run (folders walked, hidden
//!   folders skipped, each file once).
//! - Every file read is remembered ([`is_input`]), and [`write_atomic`]
//!   refuses to write onto one, or through a symbolic link; it writes a
//!   temporary file beside the target and renames it into place, so a
//!   failed write leaves the old file as it was.
//!
//! How "never through a link" is made sound without a libc binding (there
//! is no portable `O_NOFOLLOW` constant in std, and its value differs
//! between Linux architectures): the directory entry is examined with
//! `symlink_metadata` (lstat, which does not follow), refused if it is a
//! link, then opened, and the opened handle's (device, inode) must equal
//! the entry's. A link's own inode is never a regular file's, so if the
//! entry was swapped for a link between the two steps the identities
//! differ and the read is refused.

mod discover;
mod given;
mod write;

pub use discover::{Discovered, NO_MANIFESTS, Skipped, discover, is_manifest_text, no_manifests};
pub use given::{check_given, normalise, stays_in_tree, work_tree};
pub use write::{Mode, WriteError, WriteErrorKind, write_atomic, write_atomic_with};

use std::collections::BTreeSet;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::diagnostics::Diagnostic;

/// How the path of a file to read came about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// Found by the tool (folder scan, policy beside the manifests): a
    /// symbolic link is refused.
    Found,
    /// Named by the user (command line): a symbolic link is followed
    /// unless it leads out of the work tree ([`check_given`]).
    Given,
}

/// The most characters of a line shown from a policy, baseline or
/// overrides file in an error.
pub const EXCERPT_CHARS: usize = 80;

/// Reads a file the tool found by itself: never through a symbolic link.
pub fn read_found(path: &Path, max_bytes: u64) -> Result<String, Diagnostic> {
    read(path, Origin::Found, max_bytes)
}

/// Reads a file named by the user: links are followed, within the work
/// tree ([`check_given`]).
pub fn read_given(path: &Path, max_bytes: u64) -> Result<String, Diagnostic> {
    read(path, Origin::Given, max_bytes)
}

/// Reads `path` as text under `max_bytes`. The rule for what replay-audit
/// reads as text and shows of it, stated once so messages and docs agree:
///
/// 1. A file must be UTF-8 and hold no control character other than tab,
///    line feed and carriage return (no C0 control, DEL or C1 control).
///    Otherwise it is "not a text file": the error names the first such
///    character by its code point, line, column and byte, and shows no
///    snippet of the file. (`/proc/self/environ` separates its variables
///    with NUL, so it is refused here, before any parser sees it.)
/// 2. An error in a policy, baseline or overrides file (which may be any
///    text file named by mistake) shows at most one line of it, cut to
///    [`EXCERPT_CHARS`] characters ([`excerpt`]).
/// 3. Manifest errors show the offending line (cut at 200 bytes) as before:
///    a manifest is the text the user asked to be analysed.
pub fn read(path: &Path, origin: Origin, max_bytes: u64) -> Result<String, Diagnostic> {
    let name = path.display();
    let cannot = |e: std::io::Error| {
        Diagnostic::new(None, format!("cannot read `{name}`: {}", io_reason(&e)))
    };
    not_in_git(path)?;
    let entry = match origin {
        Origin::Found => std::fs::symlink_metadata(path),
        Origin::Given => {
            check_given(path)?;
            std::fs::metadata(path)
        }
    }
    .map_err(cannot)?;
    if entry.file_type().is_symlink() {
        return Err(Diagnostic::new(
            None,
            format!(
                "`{name}` is a symbolic link; files replay-audit finds by itself are never read through one"
            ),
        )
        .help("replace the link with the file itself, or name the file on the command line"));
    }
    // A FIFO or a device would block the read or never end.
    if !entry.is_file() {
        return Err(not_regular(&name));
    }
    if entry.len() > max_bytes {
        return Err(too_big(format!(
            "`{name}` is {} bytes, more than the limit of {max_bytes} bytes",
            entry.len()
        )));
    }
    let file = std::fs::File::open(path).map_err(cannot)?;
    let opened = file.metadata().map_err(cannot)?;
    if !opened.is_file() {
        return Err(not_regular(&name));
    }
    if !same_file(&entry, &opened) {
        return Err(Diagnostic::new(
            None,
            format!("`{name}` was replaced while it was being opened"),
        )
        .help("run again once nothing is changing the files"));
    }
    remember(path, &opened);
    note_link(path);
    // The length in the metadata is not trusted: read one byte past the limit.
    // It sizes the buffer (when the memory is there), so a small file takes
    // two reads rather than one per doubling of the buffer.
    let mut bytes = Vec::new();
    let hint = opened.len().min(max_bytes).saturating_add(1);
    let _ = bytes.try_reserve_exact(usize::try_from(hint).unwrap_or(0));
    file.take(max_bytes.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(cannot)?;
    if bytes.len() as u64 > max_bytes {
        return Err(too_big(format!(
            "`{name}` holds more than the limit of {max_bytes} bytes"
        )));
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let (line, col) = line_col(&String::from_utf8_lossy(&e.as_bytes()[..at]));
        Diagnostic::new(
            None,
            format!(
                "`{name}` is not UTF-8 text: invalid byte at line {line}, column {col} (byte {at})"
            ),
        )
        .help("save the manifest as UTF-8")
    })?;
    if let Some((at, c)) = first_control(&text) {
        let (line, col) = line_col(&text[..at]);
        return Err(Diagnostic::new(
            None,
            format!(
                "`{name}` is not a text file: control character U+{:04X} at line {line}, column {col} (byte {at})",
                c as u32
            ),
        )
        .help("give a text file; nothing of a file holding control characters is shown"));
    }
    Ok(text)
}

/// The entries directly in folder `dir` that `keep` takes (by their
/// path), sorted, sub-folders left out; a symbolic link stays, for the
/// reading to refuse with its name ([`read`] of a found file).
pub fn list_dir(dir: &Path, keep: impl Fn(&Path) -> bool) -> Result<Vec<PathBuf>, Diagnostic> {
    let entries = std::fs::read_dir(dir).map_err(|e| {
        Diagnostic::new(
            None,
            format!("cannot read folder `{}`: {}", dir.display(), io_reason(&e)),
        )
    })?;
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| keep(p))
        .filter(|p| std::fs::symlink_metadata(p).is_ok_and(|m| !m.is_dir()))
        .collect();
    paths.sort();
    Ok(paths)
}

/// Refuses a path that lies under a `.git` folder, by its name or where
/// it resolves to: the repository's own data (`.git/config` may hold a
/// token) is never an input, whatever link or name leads there.
pub fn not_in_git(path: &Path) -> Result<(), Diagnostic> {
    let git = |p: &Path| p.components().any(|c| c.as_os_str() == ".git");
    let named = git(&normalise(path));
    if named || std::fs::canonicalize(path).is_ok_and(|real| git(&real)) {
        let how = if named {
            "lies in"
        } else {
            "leads through a symbolic link into"
        };
        return Err(Diagnostic::new(
            None,
            format!(
                "`{}` {how} a `.git` folder; nothing under `.git` is read",
                path.display()
            ),
        )
        .help("give a file of the work tree; `.git` holds the repository's own data"));
    }
    Ok(())
}

fn not_regular(name: &std::path::Display) -> Diagnostic {
    Diagnostic::new(None, format!("`{name}` is not a regular file"))
        .help("give manifest files or folders; pipes and devices are not read")
}

fn too_big(message: String) -> Diagnostic {
    Diagnostic::new(None, message)
        .help("raise the limit with --max-file-size BYTES if the file is genuine")
}

/// The first control character other than tab, line feed and carriage
/// return, with its byte offset ([`read`]).
pub fn first_control(text: &str) -> Option<(usize, char)> {
    text.char_indices()
        .find(|&(_, c)| c.is_control() && !matches!(c, '\t' | '\n' | '\r'))
}

/// 1-based line and column (in characters) just after `before`.
fn line_col(before: &str) -> (usize, usize) {
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

pub fn io_reason(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file or folder".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ => e.to_string(),
    }
}

/// `text` as shown in errors about a policy, baseline or overrides file:
/// every line cut to [`EXCERPT_CHARS`] characters (the renderer shows the
/// one line an error points at), control characters made visible.
/// Line numbers are unchanged.
pub fn excerpt(text: &str) -> String {
    let mut out = String::new();
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let line = line.strip_suffix('\r').unwrap_or(line);
        let cut: String = line.chars().take(EXCERPT_CHARS).collect();
        out.push_str(&crate::diagnostics::inert(&cut).replace('\t', " "));
    }
    out
}

/// Whether two metadata describe the same file.
fn same_file(a: &std::fs::Metadata, b: &std::fs::Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        a.dev() == b.dev() && a.ino() == b.ino()
    }
    #[cfg(not(unix))]
    {
        a.len() == b.len() && a.modified().ok() == b.modified().ok()
    }
}

/// A file this process has read: where it is and what it is.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Identity {
    canonical: Option<PathBuf>,
    /// (device, inode) on Unix.
    id: Option<(u64, u64)>,
}

impl Identity {
    fn of(path: &Path, meta: &std::fs::Metadata) -> Identity {
        Identity {
            canonical: std::fs::canonicalize(path).ok(),
            id: file_id(meta),
        }
    }
}

fn file_id(meta: &std::fs::Metadata) -> Option<(u64, u64)> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        Some((meta.dev(), meta.ino()))
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        None
    }
}

/// Every file read by this process. Kept process-wide, fed by the readers
/// above, so no command can forget an input when it checks an output path:
/// manifests found under folders, overlays, overrides, baselines and
/// policies are all here once read. A set: a run over N files remembers
/// each in O(log N) (a list searched on every read made `check` over
/// 16,000 files quadratic).
static INPUTS: Mutex<BTreeSet<Identity>> = Mutex::new(BTreeSet::new());

/// The names (as shown) of the files read through a symbolic link in some
/// folder of their path or in their own name: no line of them is quoted.
static LINKED: Mutex<BTreeSet<String>> = Mutex::new(BTreeSet::new());

/// Whether the file named `name` was read through a symbolic link.
pub fn through_link(name: &str) -> bool {
    let linked = LINKED.lock().unwrap_or_else(|e| e.into_inner());
    linked.contains(name)
}

/// Records `path` in [`LINKED`] when where it resolves differs from its
/// own text taken from the (resolved) current folder.
fn note_link(path: &Path) {
    let Some(cwd) = given::real_cwd() else {
        return;
    };
    let Ok(real) = std::fs::canonicalize(path) else {
        return;
    };
    if given::normalise(&cwd.join(path)) != real {
        let mut linked = LINKED.lock().unwrap_or_else(|e| e.into_inner());
        linked.insert(path.display().to_string());
    }
}

fn remember(path: &Path, meta: &std::fs::Metadata) {
    let id = Identity::of(path, meta);
    let mut inputs = INPUTS.lock().unwrap_or_else(|e| e.into_inner());
    inputs.insert(id);
}

/// Whether `path` is (or resolves to, or is a hard link of) a file read by
/// this process.
pub fn is_input(path: &Path) -> bool {
    let canonical = std::fs::canonicalize(path).ok();
    let id = std::fs::metadata(path).ok().as_ref().and_then(file_id);
    let inputs = INPUTS.lock().unwrap_or_else(|e| e.into_inner());
    inputs.iter().any(|i| {
        (i.id.is_some() && i.id == id) || (i.canonical.is_some() && i.canonical == canonical)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_other_than_line_breaks_and_tabs_are_found() {
        assert_eq!(first_control("a\tb\r\nc\n"), None);
        assert_eq!(first_control("ab\0c"), Some((2, '\0')));
        assert_eq!(first_control("é\u{7f}"), Some((2, '\u{7f}')));
        assert_eq!(first_control("x\u{85}"), Some((1, '\u{85}')));
        assert_eq!(first_control("\u{202e}"), None);
    }

    #[test]
    fn excerpts_keep_line_numbers_and_cut_long_lines() {
        let long = "k".repeat(300);
        let e = excerpt(&format!("a\r\n{long}\n\u{1b}x\n"));
        let lines: Vec<&str> = e.split('\n').collect();
        assert_eq!(lines.len(), 4);
        assert_eq!(lines[0], "a");
        assert_eq!(lines[1].chars().count(), EXCERPT_CHARS);
        assert_eq!(lines[2], "␛x");
    }
}
