//! The manifests of an architecture at a git revision (`diff --base REV`):
//! listed with `git ls-tree` and read with `git cat-file --batch` (the
//! `git show REV:PATH` of every file, in one process), under the same rules
//! as files on disk: at most the size limit, text only, links never
//! followed, hidden folders under a given folder skipped.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::diagnostics::Diagnostic;
use crate::files::Origin;

/// One file of the revision: its name as shown (`REV:path`), its text and
/// whether it was named (a file) or found (under a folder).
pub type RevFile = (String, String, Origin);

/// The files of `paths` at `rev`, paths relative to the working folder.
pub fn read_revision(
    rev: &str,
    paths: &[PathBuf],
    max_bytes: u64,
) -> Result<Vec<RevFile>, Diagnostic> {
    if rev.is_empty() || rev.starts_with('-') {
        return Err(
            Diagnostic::new(None, format!("`{rev}` is not a git revision"))
                .help("give a commit, branch or tag, e.g. --base origin/main"),
        );
    }
    let mut ls = Command::new("git");
    ls.args(["ls-tree", "-r", "-l", "-z", rev, "--"])
        .args(paths);
    let listing = run(ls, rev)?;
    let mut wanted = Vec::new();
    for entry in listing.split(|&b| b == 0).filter(|e| !e.is_empty()) {
        let entry = String::from_utf8_lossy(entry);
        let Some((meta, path)) = entry.split_once('\t') else {
            continue;
        };
        let fields: Vec<&str> = meta.split_whitespace().collect();
        // A link (mode 120000) or a submodule is never followed.
        let [mode, "blob", oid, size] = fields[..] else {
            continue;
        };
        if mode == "120000" {
            continue;
        }
        let path = PathBuf::from(path);
        let Some(origin) = origin_of(&path, paths) else {
            continue;
        };
        let size: u64 = size.parse().unwrap_or(u64::MAX);
        if size > max_bytes {
            return Err(Diagnostic::new(
                None,
                format!(
                    "`{rev}:{}` is {size} bytes, more than the limit of {max_bytes} bytes",
                    path.display()
                ),
            )
            .help("raise the limit with --max-file-size BYTES if the file is genuine"));
        }
        wanted.push((path, oid.to_string(), origin));
    }
    let blobs = cat_files(rev, wanted.iter().map(|(_, oid, _)| oid.as_str()))?;
    wanted
        .into_iter()
        .zip(blobs)
        .map(|((path, _, origin), bytes)| {
            let name = format!("{rev}:{}", path.display());
            let text = String::from_utf8(bytes).map_err(|_| {
                Diagnostic::new(None, format!("`{name}` is not UTF-8 text"))
                    .help("save the manifest as UTF-8")
            })?;
            if let Some((at, c)) = crate::files::first_control(&text) {
                return Err(Diagnostic::new(
                    None,
                    format!(
                        "`{name}` is not a text file: control character U+{:04X} at byte {at}",
                        c as u32
                    ),
                )
                .help("give a text file; nothing of a file holding control characters is shown"));
            }
            Ok((name, text, origin))
        })
        .collect()
}

/// Whether a listed file is read, and how: a given path itself is named;
/// a YAML file under a given folder is found unless a folder between them
/// is hidden.
fn origin_of(path: &Path, given: &[PathBuf]) -> Option<Origin> {
    let clean = |p: &Path| {
        p.components()
            .filter(|c| !matches!(c, std::path::Component::CurDir))
            .collect::<PathBuf>()
    };
    let path = clean(path);
    if given.iter().any(|g| clean(g) == path) {
        return Some(Origin::Given);
    }
    let yaml = matches!(
        path.extension().and_then(|e| e.to_str()),
        Some("yaml" | "yml")
    );
    let under = given
        .iter()
        .find_map(|g| path.strip_prefix(clean(g)).ok())?;
    let hidden = under.parent().is_some_and(|dirs| {
        dirs.components()
            .any(|c| c.as_os_str().to_string_lossy().starts_with('.'))
    });
    (yaml && !hidden).then_some(Origin::Found)
}

/// Runs a git command; its standard output, or its first error line.
fn run(mut cmd: Command, rev: &str) -> Result<Vec<u8>, Diagnostic> {
    let out = cmd.stdin(Stdio::null()).output().map_err(|e| {
        Diagnostic::new(None, format!("cannot run git: {e}"))
            .help("install git, or give the base version as a folder with --base-dir DIR")
    })?;
    if out.status.success() {
        return Ok(out.stdout);
    }
    let err = String::from_utf8_lossy(&out.stderr);
    Err(Diagnostic::new(
        None,
        format!("git cannot read revision `{rev}`: {}", err.lines().next().unwrap_or("failed").trim()),
    )
    .help("give a commit, branch or tag git knows (a shallow CI clone needs the base fetched, e.g. actions/checkout with fetch-depth: 0)"))
}

/// The contents of blobs, in order, from one `git cat-file --batch`.
fn cat_files<'a>(
    rev: &str,
    oids: impl Iterator<Item = &'a str>,
) -> Result<Vec<Vec<u8>>, Diagnostic> {
    let input: String = oids.map(|o| format!("{o}\n")).collect();
    if input.is_empty() {
        return Ok(Vec::new());
    }
    let mut child = Command::new("git")
        .args(["cat-file", "--batch"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| Diagnostic::new(None, format!("cannot run git: {e}")))?;
    let mut stdin = child.stdin.take().expect("piped");
    // Written from a thread: git answers while it reads, and a full pipe
    // on both sides would block.
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let mut out = BufReader::new(child.stdout.take().expect("piped"));
    let mut blobs = Vec::new();
    let broken = || {
        Diagnostic::new(
            None,
            format!("git gave an unexpected answer reading revision `{rev}`"),
        )
    };
    let mut header = String::new();
    while {
        header.clear();
        out.read_line(&mut header).map_err(|_| broken())?
    } > 0
    {
        let size: usize = header
            .split_whitespace()
            .nth(2)
            .and_then(|s| s.parse().ok())
            .ok_or_else(broken)?;
        let mut blob = vec![0; size];
        out.read_exact(&mut blob).map_err(|_| broken())?;
        let mut newline = [0u8; 1];
        out.read_exact(&mut newline).map_err(|_| broken())?;
        blobs.push(blob);
    }
    let _ = writer.join();
    let _ = child.wait();
    Ok(blobs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_under_hidden_folders_are_skipped_named_files_kept() {
        let given = [PathBuf::from("arch"), PathBuf::from("./x/ci.yaml")];
        assert_eq!(
            origin_of(Path::new("arch/a.yaml"), &given),
            Some(Origin::Found)
        );
        assert_eq!(origin_of(Path::new("arch/.hidden/a.yaml"), &given), None);
        assert_eq!(origin_of(Path::new("arch/notes.txt"), &given), None);
        assert_eq!(
            origin_of(Path::new("x/ci.yaml"), &given),
            Some(Origin::Given)
        );
    }
}
