//! `textDocument/completion`: field names and values from the vocabulary
//! table ([`crate::manifest::vocabulary`]), for block-style YAML. Where the
//! cursor is is read from the text alone (it may not parse while typed):
//! the keys of the lines above with less indentation are the path from the
//! top, and the table says which object each step enters. On a key: the
//! object's fields with their docs; after `field:`, the field's choices,
//! `true`/`false`, the catalog's kinds, or the ids the file defines.

use lsp_types::{
    CompletionItem, CompletionItemKind, CompletionParams, CompletionResponse, Documentation,
};

use super::Server;
use super::position::{byte_of, line, path_of};
use crate::manifest::vocabulary::{FieldDef, Obj, Type};

pub fn completion(server: &Server, p: CompletionParams) -> Option<CompletionResponse> {
    let at = p.text_document_position;
    let text = server.open.get(&path_of(&at.text_document.uri)?)?;
    let items = complete(text, at.position.line, at.position.character)?;
    Some(CompletionResponse::Array(items))
}

/// The completions at `(line, character)` of `text`, if the cursor is on a
/// key or after one.
pub fn complete(text: &str, at_line: u32, character: u32) -> Option<Vec<CompletionItem>> {
    let l = line(text, at_line);
    let before = &l[..byte_of(l, character)];
    let content = before.trim_start();
    let item = content.strip_prefix("- ").map(str::trim_start);
    let body = item.unwrap_or(content);
    let indent = (before.len() - body.len()) as u32;
    match body.split_once(':') {
        // `field: val|`: the field's values.
        Some((key, _)) if is_key(key) => {
            let obj = object_at(text, at_line, indent)?;
            let def = obj.field(key.trim())?;
            Some(values(text, def))
        }
        Some(_) => None,
        // `fie|`: the object's fields.
        None if is_key(body) => {
            let obj = object_at(text, at_line, indent)?;
            Some(obj.fields().iter().map(field_item).collect())
        }
        None => None,
    }
}

fn is_key(s: &str) -> bool {
    s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The object whose fields go at `indent` on line `at`: the keys of the
/// lines above with less indentation, followed through the vocabulary from
/// the manifest's top level.
fn object_at(text: &str, at: u32, indent: u32) -> Option<Obj> {
    let mut path = Vec::new();
    let mut threshold = indent;
    for i in (0..at).rev() {
        if threshold == 0 {
            break;
        }
        let l = line(text, i);
        let content = l.trim_start();
        if content.is_empty() || content.starts_with('#') {
            continue;
        }
        let dash = (l.len() - content.len()) as u32;
        let (body, at_indent) = match content.strip_prefix("- ") {
            Some(rest) => {
                let rest_trim = rest.trim_start();
                (rest_trim, (l.len() - rest_trim.len()) as u32)
            }
            None => (content, dash),
        };
        if content.starts_with("- ") && at_indent <= threshold {
            // Inside this list item: its parent key may stand at the dash's
            // own indentation (`sends_to:` then `- to: q` below it).
            threshold = dash + 1;
            if at_indent == indent {
                continue;
            }
        }
        if at_indent < threshold
            && let Some((key, _)) = body.split_once(':')
        {
            // A field name or an id (`payout-worker:`, `"a b":`).
            path.push(key.trim_matches(['"', '\'']).to_string());
            threshold = dash.min(at_indent);
        }
    }
    path.reverse();
    let mut obj = Obj::Manifest;
    let mut keys = path.iter();
    while let Some(key) = keys.next() {
        obj = match obj.field(key)?.ty {
            Type::Entries(o) => {
                // The next key is an id.
                keys.next()?;
                o
            }
            Type::Object(o) | Type::Objects(o) | Type::Link { obj: o, .. } => o,
            _ => return None,
        };
    }
    Some(obj)
}

fn field_item(f: &FieldDef) -> CompletionItem {
    CompletionItem {
        label: f.name.to_string(),
        kind: Some(CompletionItemKind::FIELD),
        detail: Some(f.doc.to_string()),
        insert_text: Some(format!("{}: ", f.name)),
        ..CompletionItem::default()
    }
}

/// The values field `def` may take that the table or the file can name.
fn values(text: &str, def: &FieldDef) -> Vec<CompletionItem> {
    let item = |label: &str, kind: CompletionItemKind, doc: Option<String>| CompletionItem {
        label: label.to_string(),
        kind: Some(kind),
        documentation: doc.map(Documentation::String),
        ..CompletionItem::default()
    };
    match def.ty {
        Type::Choice(names) => names
            .iter()
            .map(|n| item(n, CompletionItemKind::ENUM_MEMBER, None))
            .collect(),
        Type::Text { examples } => examples
            .iter()
            .map(|n| item(n, CompletionItemKind::VALUE, None))
            .collect(),
        Type::Bool => ["true", "false"]
            .iter()
            .map(|n| item(n, CompletionItemKind::VALUE, None))
            .collect(),
        Type::Kind => crate::catalog::kind_ids()
            .map(|k| {
                let summary = crate::catalog::catalog().kind(k).map(|k| k.summary.clone());
                item(k, CompletionItemKind::CLASS, summary)
            })
            .collect(),
        Type::Id | Type::Ids | Type::Link { .. } => ids(text)
            .into_iter()
            .map(|n| item(n, CompletionItemKind::REFERENCE, None))
            .collect(),
        _ => Vec::new(),
    }
}

/// The ids the file defines: the keys one level under `components:`,
/// `regions:` and `intents:`.
fn ids(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut section = false;
    let mut child: Option<usize> = None;
    for l in text.lines() {
        let content = l.trim_start();
        if content.is_empty() || content.starts_with('#') {
            continue;
        }
        let indent = l.len() - content.len();
        if indent == 0 {
            section = matches!(
                content.split_once(':').map(|(k, _)| k),
                Some("components" | "regions" | "intents")
            );
            child = None;
            continue;
        }
        if section
            && *child.get_or_insert(indent) == indent
            && let Some((key, _)) = content.split_once(':')
        {
            out.push(key.trim_matches(['"', '\'']));
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "version: 1\ncomponents:\n  q-1:\n    kind: sqs-standard\n    sends_to:\n      - to: w\n        re\n    dead_letter: { to: d }\n    \n  w:\n    dedup:\n      claim: \n";

    fn labels(items: Option<Vec<CompletionItem>>) -> Vec<String> {
        items
            .unwrap_or_default()
            .into_iter()
            .map(|i| i.label)
            .collect()
    }

    #[test]
    fn fields_of_the_object_at_the_cursor() {
        // Line 9 (`    `): a component's fields.
        let l = labels(complete(TEXT, 8, 4));
        assert_eq!(&l[..3], ["kind", "description", "regions"]);
        // Line 7 (`        re`): inside a `sends_to` item, the link's fields.
        let l = labels(complete(TEXT, 6, 10));
        assert!(l.contains(&"retry".to_string()), "{l:?}");
        assert!(!l.contains(&"kind".to_string()), "{l:?}");
        // The top level.
        assert!(labels(complete("ver", 0, 3)).contains(&"components".to_string()));
    }

    #[test]
    fn values_of_the_field_at_the_cursor() {
        let claim = labels(complete(TEXT, 11, 13));
        assert!(
            claim.contains(&"conditional-write".to_string()),
            "{claim:?}"
        );
        let kinds = labels(complete(TEXT, 3, 10));
        assert!(
            kinds.contains(&"powertools-idempotency".to_string()),
            "{kinds:?}"
        );
        assert_eq!(labels(complete(TEXT, 5, 14)), ["q-1", "w"]);
    }
}

#[cfg(test)]
mod hostile {
    use super::super::position::{is_key, range_of, word_at};
    use crate::diagnostics::Loc;
    use lsp_types::Position;

    /// Every function that reads a place answers at every place of texts
    /// with multi-byte characters, CRLF, tabs, flow collections and
    /// unclosed quotes, and beyond the end of every line.
    #[test]
    fn no_place_panics() {
        let texts = [
            "a: é𝄞 1h # c\r\n  - b: \"x\r\n\t{ c: [d, 'e\n",
            "components:\n  é-𝄞:\n    kind: 𝄞\n    - - to: \n",
            "",
            ":\n- \n-\n  :",
        ];
        for t in texts {
            for line in 0..6u32 {
                for ch in 0..16u32 {
                    let p = Position::new(line, ch);
                    let _ = word_at(t, p);
                    let _ = is_key(t, p);
                    let _ = super::complete(t, line, ch);
                    let _ = range_of(
                        t,
                        Loc {
                            file: 0,
                            line: line + 1,
                            col: ch + 1,
                        },
                    );
                }
            }
        }
    }
}
