//! `textDocument/hover`: on a component id, its kind's documented values
//! with the fact id of each, and for a guard or store the horizon, the
//! window and the worst path's arithmetic ([`crate::report::horizon`]); on
//! a kind, its documented values.

use lsp_types::{
    Hover, HoverContents, HoverParams, MarkupContent, MarkupKind, TextDocumentPositionParams,
};

use super::Server;
use super::analyse::{self, Checked};
use super::position::{is_key, path_of, word_at};
use crate::catalog::{Kind, catalog};
use crate::report::diagnostic::field_of;
use crate::report::horizon;
use crate::time::Dur;

pub fn hover(server: &Server, p: HoverParams) -> Option<Hover> {
    let at = &p.text_document_position_params;
    let (checked, word) = at_word(server, at)?;
    let text = server.open.get(&path_of(&at.text_document.uri)?)?;
    let shown = match checked.manifest.component(&word) {
        Some(c) => {
            let mut s = format!("**`{word}`**: kind `{}`\n\n", c.kind.value);
            if let Some(k) = catalog().kind(c.kind.value.as_str()) {
                s.push_str(&kind_text(k));
            }
            s.push_str(&horizons(&checked, &word));
            s
        }
        // A kind is a value (`kind: sqs-standard`), never a key (`store:`).
        None if !is_key(text, at.position) => kind_text(catalog().kind(&word)?),
        None => return None,
    };
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: shown,
        }),
        range: None,
    })
}

/// The checked architecture of the document and the id under the cursor.
pub fn at_word(server: &Server, at: &TextDocumentPositionParams) -> Option<(Checked, String)> {
    let path = path_of(&at.text_document.uri)?;
    let text = server.open.get(&path)?;
    let word = word_at(text, at.position)?;
    let snapshot = analyse::snapshot(&path, &server.open, &server.limits);
    Some((snapshot.result.ok()?, word))
}

/// A kind's summary and documented values, each with its source's fact id.
fn kind_text(k: &Kind) -> String {
    let mut s = format!(
        "`{}` ({}, {}): {}\n",
        k.id,
        k.generic.name(),
        k.vendor,
        k.summary
    );
    if !k.fields.is_empty() {
        s.push_str("\n| field | default | min | max | source |\n|---|---|---|---|---|\n");
        let v = |v: &Option<toml::Value>| match v {
            None => "-".to_string(),
            Some(toml::Value::String(s)) => s.clone(),
            Some(other) => other.to_string(),
        };
        for (name, f) in &k.fields {
            let fixed = if f.fixed { " (fixed)" } else { "" };
            s.push_str(&format!(
                "| `{name}` | {}{fixed} | {} | {} | {} |\n",
                v(&f.default),
                v(&f.min),
                v(&f.max),
                f.source
            ));
        }
    }
    s
}

/// For each intent whose copies reach `id`: the horizon, the window, the
/// verdict, the minimum safe window under the policy's margin and the
/// worst path's arithmetic (`horizon 15h 25m = 45m dead_letter + ...`).
fn horizons(c: &Checked, id: &str) -> String {
    let analysis = crate::analysis::analyse(&c.manifest);
    let mut s = String::new();
    for r in horizon::rows(&analysis, None, Some(id)) {
        let window = r.window.map_or("none".to_string(), |w| w.to_string());
        s.push_str(&format!(
            "\n**{}** ({}): horizon {}, window {window}: {}",
            r.intent,
            r.role,
            r.horizon,
            r.verdict()
        ));
        if matches!(r.role, "guard" | "store") && !r.needs().is_unbounded() {
            let least = c.policy.margin.required_window(r.needs());
            s.push_str(&format!(", minimum safe window {least}"));
        }
        s.push('\n');
        let terms: Vec<String> = r
            .steps
            .iter()
            .filter(|st| st.adds != Dur::ZERO)
            .map(|st| format!("{} {}", st.adds, field_of(&st.why)))
            .collect();
        if !terms.is_empty() {
            let more = r.elided.map_or(String::new(), |e| {
                format!(" + {} in {} more steps", e.adds, e.steps)
            });
            s.push_str(&format!(
                "\n`horizon {} = {}{more}`\n\nworst path: {}\n",
                r.horizon,
                terms.join(" + "),
                r.path.join(" → ")
            ));
        }
    }
    s
}
