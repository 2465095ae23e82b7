//! `check --fix` and `--diff`: the fixes a finding states with certainty,
//! applied to the manifest files it was read from. Today that is a window
//! too short for the latest copy (RH001, RH002, RH004): its field raised to
//! the minimum safe value under the policy's margin ([`help::raise`]).
//!
//! Only the value changes: a declared value is replaced in place (its
//! comment and the rest of the line kept), a value the manifest leaves to
//! the catalog's default is written on a line of its own under the
//! component's `kind:`, with the same indentation. Everything else stays
//! byte for byte. A template (CloudFormation, Terraform, AsyncAPI) is never
//! edited: its findings keep their help. A second run finds nothing to fix.

use std::collections::BTreeMap;

use crate::manifest::Manifest;
use crate::rules::help::{self, Raise};
use crate::rules::{Finding, Margin};

/// One file's text before and after its fixes.
#[derive(Debug, Clone, PartialEq)]
pub struct Fixed {
    pub path: String,
    pub before: String,
    pub after: String,
    /// What was changed, one line each (`payout-idempotency.retention: 1h → 16h 57m 30s`).
    pub changes: Vec<String>,
}

/// A change to one line of a file.
#[derive(Debug, Clone, PartialEq)]
enum Edit {
    /// The value at this column (1-based, in characters) becomes the text.
    Replace { col: u32, text: String },
    /// A line with this text goes after the line.
    InsertAfter { text: String },
}

/// The files the certain fixes of `findings` change, in path order.
pub fn plan(m: &Manifest, findings: &[Finding], margin: Margin) -> Vec<Fixed> {
    // By file, then line: the largest value asked of one place wins.
    let mut edits: BTreeMap<u32, BTreeMap<u32, (Edit, Raise)>> = BTreeMap::new();
    // Whether each file is a manifest, decided once per file.
    let mut manifest: BTreeMap<u32, bool> = BTreeMap::new();
    for f in findings {
        let (Some(r), Some(loc)) = (help::raise(m, f, margin), f.loc) else {
            continue;
        };
        let Some(source) = m.sources.files.get(loc.file as usize) else {
            continue;
        };
        let is_manifest = *manifest
            .entry(loc.file)
            .or_insert_with(|| crate::files::is_manifest_text(&source.text));
        if r.fixed_by_platform || !is_manifest {
            continue;
        }
        let Some(edit) = loc
            .line
            .checked_sub(1)
            .and_then(|i| source.line(i as usize))
            .and_then(|line| edit_at(line, loc.col, &r))
        else {
            continue;
        };
        let line = edits.entry(loc.file).or_default();
        match line.get(&loc.line) {
            Some((_, old)) if old.at_least >= r.at_least => {}
            _ => {
                line.insert(loc.line, (edit, r));
            }
        }
    }
    edits
        .into_iter()
        .filter_map(|(file, lines)| {
            let source = m.sources.files.get(file as usize)?;
            let mut changes = Vec::new();
            let after = apply(&source.text, &lines, &mut changes);
            Some(Fixed {
                path: source.path.clone(),
                before: source.text.clone(),
                after,
                changes,
            })
        })
        .collect()
}

/// The edit that raises `r` at column `col` of a manifest's `line`: its
/// value where the line sets the field, a new line after `kind:` where the
/// value is the kind's default; nothing elsewhere (a flow mapping).
fn edit_at(line: &str, col: u32, r: &Raise) -> Option<Edit> {
    let body = line.trim_start();
    let indent = &line[..line.len() - body.len()];
    let (key, value) = body.split_once(':')?;
    // Block style only: `key: value` with the value where the finding is.
    let value_col = line.len() - value.trim_start().len();
    if line[..value_col].chars().count() + 1 != col as usize {
        return None;
    }
    let text = r.at_least.to_string();
    match key.trim() {
        k if k == r.field => Some(Edit::Replace { col, text }),
        "kind" => Some(Edit::InsertAfter {
            text: format!("{indent}{}: {text}", r.field),
        }),
        _ => None,
    }
}

/// `text` with the edits of its lines applied, each described in `changes`.
fn apply(text: &str, lines: &BTreeMap<u32, (Edit, Raise)>, changes: &mut Vec<String>) -> String {
    let mut out = String::with_capacity(text.len() + 64);
    for (i, line) in text.split_inclusive('\n').enumerate() {
        let Some((edit, r)) = lines.get(&(i as u32 + 1)) else {
            out.push_str(line);
            continue;
        };
        let (content, end) = match line.strip_suffix('\n') {
            Some(c) => (c, "\n"),
            None => (line, ""),
        };
        match edit {
            Edit::Replace { col, text } => {
                let at = content
                    .char_indices()
                    .nth(*col as usize - 1)
                    .map_or(content.len(), |(b, _)| b);
                let len = crate::report::diagnostic::value_len(&content[at..]);
                changes.push(format!(
                    "{}.{}: {} → {text}",
                    r.component,
                    r.field,
                    &content[at..at + len]
                ));
                out.push_str(&content[..at]);
                out.push_str(text);
                out.push_str(&content[at + len..]);
                out.push_str(end);
            }
            Edit::InsertAfter { text } => {
                changes.push(format!(
                    "{}.{}: (the kind's default) → {}",
                    r.component, r.field, r.at_least
                ));
                out.push_str(content);
                out.push('\n');
                out.push_str(text);
                out.push_str(if end.is_empty() { "" } else { "\n" });
            }
        }
    }
    out
}

/// The unified diff of `before` and `after` (line edits only: lines are
/// replaced or added, never moved), with three lines of context.
pub fn unified_diff(path: &str, before: &str, after: &str) -> String {
    let old: Vec<&str> = before.lines().collect();
    let new: Vec<&str> = after.lines().collect();
    // Walk both: equal lines are context; a differing old line is replaced
    // by the new one, a new line that equals the next old one's successor
    // is an insertion.
    let mut ops: Vec<(char, &str)> = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < old.len() || j < new.len() {
        match (old.get(i), new.get(j)) {
            (Some(a), Some(b)) if a == b => {
                ops.push((' ', a));
                i += 1;
                j += 1;
            }
            (Some(_), Some(b)) if old.get(i) == new.get(j + 1) => {
                ops.push(('+', b));
                j += 1;
            }
            (Some(a), Some(b)) => {
                ops.push(('-', a));
                ops.push(('+', b));
                i += 1;
                j += 1;
            }
            (Some(a), None) => {
                ops.push(('-', a));
                i += 1;
            }
            (None, Some(b)) => {
                ops.push(('+', b));
                j += 1;
            }
            (None, None) => break,
        }
    }
    hunks(path, &ops)
}

/// `--- a/PATH`, `+++ b/PATH` and the hunks of `ops` with three lines of
/// context around each change.
fn hunks(path: &str, ops: &[(char, &str)]) -> String {
    const CONTEXT: usize = 3;
    let changed: Vec<usize> = (0..ops.len()).filter(|&k| ops[k].0 != ' ').collect();
    if changed.is_empty() {
        return String::new();
    }
    let mut out = format!("--- a/{path}\n+++ b/{path}\n");
    let mut k = 0;
    while k < changed.len() {
        let start = changed[k].saturating_sub(CONTEXT);
        let mut end = (changed[k] + CONTEXT + 1).min(ops.len());
        while k + 1 < changed.len() && changed[k + 1] < end + CONTEXT {
            k += 1;
            end = (changed[k] + CONTEXT + 1).min(ops.len());
        }
        let line_of = |upto: usize, side: char| {
            ops[..upto]
                .iter()
                .filter(|(op, _)| *op == ' ' || *op == side)
                .count()
        };
        let span = &ops[start..end];
        let count = |side: char| {
            span.iter()
                .filter(|(op, _)| *op == ' ' || *op == side)
                .count()
        };
        out.push_str(&format!(
            "@@ -{},{} +{},{} @@\n",
            line_of(start, '-') + 1,
            count('-'),
            line_of(start, '+') + 1,
            count('+')
        ));
        for (op, text) in span {
            out.push(*op);
            out.push_str(text);
            out.push('\n');
        }
        k += 1;
    }
    out
}
