//! The shell's `diff`: the changes of a session as a unified diff of the
//! manifest files (`--- a/FILE`, `+++ b/FILE`, `@@ -l,n +l,n @@` hunks
//! with three lines of context), so it can be read as a patch would be.
//!
//! A change of a value written on its own `key: value` line rewrites that
//! line; a new `ID.FIELD` is a line added under the component's key; an
//! unset field's line goes. A change the text cannot show that way (a
//! value inside a flow mapping, a nested target that is not written yet)
//! is shown as a hunk of its own naming the target.

use super::Change;
use crate::diagnostics::{SourceMap, inert};

/// Lines of context around each change.
const CONTEXT: usize = 3;

/// One edit of one file: at 0-based line `at`, `remove` lines go and
/// `insert` lines come.
struct Edit {
    at: usize,
    remove: usize,
    insert: Vec<String>,
}

/// The changes as a unified diff of the `files` (the first of `sources`).
pub fn unified(sources: &SourceMap, files: usize, changes: &[Change]) -> String {
    unified_with(sources, files, changes, &|_| None)
}

/// [`unified`]; `default_of` gives, for a field the files do not set, the
/// value that applied (`1h, powertools-idempotency default, F040`): an
/// added line ends with the comment `# (not set: DEFAULT) → NEW`.
pub fn unified_with(
    sources: &SourceMap,
    files: usize,
    changes: &[Change],
    default_of: &dyn Fn(&Change) -> Option<String>,
) -> String {
    let files = files.min(sources.files.len());
    let mut per_file: Vec<Vec<Edit>> = (0..files).map(|_| Vec::new()).collect();
    // Each file split once: a session may hold many changes.
    let texts: Vec<Vec<&str>> = sources.files[..files]
        .iter()
        .map(|f| f.text.lines().collect())
        .collect();
    let mut loose = String::new();
    for c in changes {
        match c
            .loc
            .filter(|l| (l.file as usize) < texts.len())
            .and_then(|l| {
                let lines = &texts[l.file as usize];
                let default = default_of(c);
                edit(
                    lines,
                    l.line as usize,
                    l.col as usize,
                    c,
                    default.as_deref(),
                )
                .map(|e| (l.file as usize, e))
            }) {
            Some((f, e)) => per_file[f].push(e),
            None => loose.push_str(&format!(
                "@@ {} @@\n-{}\n+{}\n",
                inert(&c.target),
                c.old
                    .clone()
                    .or_else(|| default_of(c).map(|d| format!("(not set: {d})")))
                    .as_deref()
                    .unwrap_or("(not set)"),
                c.new.as_deref().unwrap_or("(not set)")
            )),
        }
    }
    let mut out = String::new();
    for (f, mut edits) in per_file.into_iter().enumerate() {
        if edits.is_empty() {
            continue;
        }
        let path = inert(&sources.files[f].path);
        out.push_str(&format!("--- a/{path}\n+++ b/{path}\n"));
        edits.sort_by_key(|e| e.at);
        let lines = &texts[f];
        let mut shift: isize = 0;
        let mut rest = &edits[..];
        while !rest.is_empty() {
            // Edits whose contexts touch make one hunk.
            let mut n = 1;
            while n < rest.len() && rest[n].at <= rest[n - 1].at + rest[n - 1].remove + 2 * CONTEXT
            {
                n += 1;
            }
            let (group, tail) = rest.split_at(n);
            out.push_str(&hunk(lines, group, shift));
            shift += group
                .iter()
                .map(|e| e.insert.len() as isize - e.remove as isize)
                .sum::<isize>();
            rest = tail;
        }
    }
    if !loose.is_empty() {
        out.push_str("--- the files\n+++ with the changes\n");
        out.push_str(&loose);
    }
    out
}

/// A hunk: the edits of `group` (in order, their contexts touching) with
/// up to [`CONTEXT`] lines either side; `shift` is how far the edits
/// before it moved the new file's line numbers.
fn hunk(lines: &[&str], group: &[Edit], shift: isize) -> String {
    let first = group[0].at;
    let last = &group[group.len() - 1];
    let start = first.saturating_sub(CONTEXT);
    let end = (last.at + last.remove + CONTEXT).min(lines.len());
    let old_len = end - start;
    let grown: isize = group
        .iter()
        .map(|e| e.insert.len() as isize - e.remove as isize)
        .sum();
    let new_len = (old_len as isize + grown).max(0);
    let new_start = (start as isize + shift).max(0);
    let mut s = format!(
        "@@ -{},{old_len} +{},{new_len} @@\n",
        start + 1,
        new_start + 1
    );
    let mut at = start;
    for e in group {
        for l in &lines[at.min(e.at)..e.at] {
            s.push_str(&format!(" {}\n", inert(l)));
        }
        for l in &lines[e.at..e.at + e.remove] {
            s.push_str(&format!("-{}\n", inert(l)));
        }
        for l in &e.insert {
            s.push_str(&format!("+{}\n", inert(l)));
        }
        at = at.max(e.at + e.remove);
    }
    for l in &lines[at..end] {
        s.push_str(&format!(" {}\n", inert(l)));
    }
    s
}

/// The edit that writes change `c`, whose place is 1-based `line`, `col`
/// of a file's `lines`; `None` when they cannot show it as whole lines.
/// `default`: what a field not written yet had (see [`unified_with`]).
fn edit(
    lines: &[&str],
    line: usize,
    col: usize,
    c: &Change,
    default: Option<&str>,
) -> Option<Edit> {
    let at = line.checked_sub(1)?;
    let here = *lines.get(at)?;
    let (key_part, rest) = here.split_once(':')?;
    let indent = key_part.len() - key_part.trim_start().len();
    match (&c.old, &c.new) {
        // A written value: only a `key: value` line whose value starts at
        // `col` (not inside a flow mapping) is rewritten whole.
        (Some(_), new) => {
            let value_col = key_part.chars().count() + 1 + (rest.len() - rest.trim_start().len());
            if value_col + 1 != col || rest.trim_start().starts_with(['{', '[']) {
                return None;
            }
            let insert = new.iter().map(|v| format!("{}: {v}", key_part)).collect();
            Some(Edit {
                at,
                remove: 1,
                insert,
            })
        }
        // A field not written yet: a line under the component's own key,
        // when that key opens a block (`id:` and nothing after it).
        (None, Some(new)) => {
            let field = c.target.split_once('.')?.1;
            if field.contains(['.', '[']) || !rest.trim().is_empty() {
                return None;
            }
            let child = lines
                .get(at + 1)
                .map(|l| l.len() - l.trim_start().len())
                .filter(|&n| n > indent)
                .unwrap_or(indent + 2);
            let note = default.map_or_else(String::new, |d| format!("  # (not set: {d}) → {new}"));
            Some(Edit {
                at: at + 1,
                remove: 0,
                insert: vec![format!("{}{field}: {new}{note}", " ".repeat(child))],
            })
        }
        (None, None) => None,
    }
}
