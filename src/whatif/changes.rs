//! Changes as text: values in YAML flow style as they would be written
//! back, the overrides file the shell's `save` writes, and the list and
//! diff of changes against the files.

use super::Change;
use crate::diagnostics::SourceMap;
use crate::manifest::yaml::{Node, Value};

/// A value in YAML flow style, as it would be written back.
pub fn flow(n: &Node) -> String {
    match &n.value {
        Value::Null => "~".into(),
        Value::Bool(b) => b.to_string(),
        Value::Int(i) => i.to_string(),
        Value::Float(f) => f.to_string(),
        Value::Str(s) => quote(s),
        Value::Seq(items) => format!(
            "[{}]",
            items.iter().map(flow).collect::<Vec<_>>().join(", ")
        ),
        Value::Map(entries) => format!(
            "{{{}}}",
            entries
                .iter()
                .map(|(k, v)| format!("{}: {}", flow(k), flow(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// A string as a plain YAML scalar where that reads back as the same
/// string, else double-quoted.
pub fn quote(s: &str) -> String {
    let plain = !s.is_empty()
        && s.trim() == s
        && !s.chars().any(|c| ":#[]{},&*!|>'\"%@`\n\\".contains(c))
        && !s.starts_with(['-', '?', '~'])
        && !matches!(
            s.to_ascii_lowercase().as_str(),
            "true" | "false" | "null" | "yes" | "no" | "on" | "off"
        )
        && s.parse::<f64>().is_err();
    if plain {
        s.to_string()
    } else {
        serde_json::to_string(s).expect("a string serialises")
    }
}

/// Changes as an overrides file (`save`; read back by `--overrides`).
pub fn overrides_yaml(changes: &[Change]) -> String {
    let mut s = String::from(
        "# replay-audit overrides: TARGET: VALUE (null removes the field).\n# Use with `replay-audit check --overrides FILE` or `what-if --overrides FILE`.\n",
    );
    for c in changes {
        s.push_str(&format!(
            "{}: {}\n",
            quote(&c.target),
            c.new.as_deref().unwrap_or("null")
        ));
    }
    s
}

fn show(v: &Option<String>) -> &str {
    v.as_deref().unwrap_or("(not set)")
}

impl Change {
    /// `target: old → new`, as the shell and `what-if` show a change.
    pub fn line(&self) -> String {
        format!("{}: {} → {}", self.target, show(&self.old), show(&self.new))
    }
}

/// `target: old → new`, one a line.
pub fn render_changes(changes: &[Change]) -> String {
    if changes.is_empty() {
        return "no changes\n".into();
    }
    changes
        .iter()
        .map(|c| format!("  {}\n", c.line()))
        .collect()
}

/// The changes against the files as a unified diff (see [`super::unified`]).
pub fn render_diff(sources: &SourceMap, files: &[&str], changes: &[Change]) -> String {
    if changes.is_empty() {
        return "no changes\n".into();
    }
    super::unified::unified(sources, files.len(), changes)
}

/// [`render_diff`] naming, for a field the files do not set, the value
/// that applied (see [`super::unified::unified_with`]).
pub fn render_diff_with(
    sources: &SourceMap,
    files: &[&str],
    changes: &[Change],
    default_of: &dyn Fn(&Change) -> Option<String>,
) -> String {
    if changes.is_empty() {
        return "no changes\n".into();
    }
    super::unified::unified_with(sources, files.len(), changes, default_of)
}
