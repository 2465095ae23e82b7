//! Imported values that are defaults, not settings.
//!
//! Some values an importer writes are what the resource implies for the
//! kind it guessed, not something the template states: a DynamoDB table
//! with `TimeToLiveSpecification` gets `expiry: physical-ttl`, which holds
//! for a table read directly but not for a Powertools idempotency store
//! kept in that table (the library checks each record's expiry, F042). The
//! importer marks such a value with [`MARK`] at the start of its comment;
//! when an overlay sets another `kind` whose catalog entry has a default
//! for the field, and does not set the field itself, the imported value is
//! dropped so that the kind's default applies ([`yields`]).

use crate::manifest::yaml::{Node, Value};

/// (component id, field) of the imported values marked as defaults.
pub type Defaults = std::collections::BTreeSet<(String, String)>;

/// The start of the comment of an imported value that is a default.
pub const MARK: &str = "default (an overlay's kind with a default of its own replaces it); ";

/// (component id, field) of every component field of `node`, the parsed
/// tree of generated `text` (places not yet moved to the template), whose
/// line carries [`MARK`] as its comment.
pub fn marked(text: &str, node: &Node) -> Vec<(String, String)> {
    let lines: Vec<&str> = text.lines().collect();
    let Some(comps) = node.get("components") else {
        return Vec::new();
    };
    let Value::Map(comps) = &comps.value else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (id, body) in comps {
        let (Some(id), Value::Map(fields)) = (id.value.scalar_text(), &body.value) else {
            continue;
        };
        for (k, v) in fields {
            let Some(key) = k.value.scalar_text() else {
                continue;
            };
            let line = (k.loc.line as usize)
                .checked_sub(1)
                .and_then(|i| lines.get(i));
            if line.is_some_and(|l| carries_mark(l, &key, v)) {
                out.push((id.clone(), key));
            }
        }
    }
    out
}

/// Whether `line` is `key: value  # MARK...` with a plain scalar value (a
/// quoted value could hold the marker's text itself).
fn carries_mark(line: &str, key: &str, value: &Node) -> bool {
    let Some(text) = value.value.scalar_text() else {
        return false;
    };
    let plain = text
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'));
    plain
        && line
            .trim_start()
            .starts_with(&format!("{key}: {text}  # {MARK}"))
}

/// Whether an imported `field` marked as a default gives way to an overlay
/// that sets kind `overlay_kind` in place of `imported_kind` and does not
/// set the field: the catalog entry of the overlay's kind has a default for
/// it. The same kind, or a kind the catalog does not know, keeps the value.
pub fn yields(field: &str, imported_kind: Option<&str>, overlay_kind: &str) -> bool {
    imported_kind != Some(overlay_kind)
        && crate::catalog::catalog()
            .kind(overlay_kind)
            .and_then(|k| k.fields.get(field))
            .is_some_and(|f| f.default.is_some())
}

/// Removes from imported `fields` of component `id` the defaults that an
/// overlay's `extra` fields replace by setting another kind.
pub fn drop_yielding(
    fields: &mut Vec<(Node, Node)>,
    extra: &[(Node, Node)],
    id: &str,
    defaults: &Defaults,
) {
    let text = |m: &[(Node, Node)], key: &str| {
        m.iter()
            .find(|(k, _)| k.is_key(key))
            .map(|(_, v)| v.value.scalar_text())
    };
    let Some(Some(kind)) = text(extra, "kind") else {
        return;
    };
    let imported_kind = text(fields, "kind").flatten();
    fields.retain(|(k, _)| {
        let Some(key) = k.value.scalar_text() else {
            return true;
        };
        !(defaults.contains(&(id.to_string(), key.clone()))
            && text(extra, &key).is_none()
            && yields(&key, imported_kind.as_deref(), &kind))
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manifest::yaml;

    fn parse(text: &str) -> Node {
        yaml::parse(text, 0, &yaml::Limits::default()).unwrap()
    }

    #[test]
    fn only_plain_values_with_the_mark_first_are_defaults() {
        let text = format!(
            "version: 1\ncomponents:\n  t:\n    kind: dynamodb-table  # x\n    expiry: physical-ttl  # {MARK}from Resources.T (t.yaml:4)\n    retention: 1d  # from {MARK}\n    scope: \"a  # {MARK}\"\n"
        );
        let node = parse(&text);
        assert_eq!(marked(&text, &node), vec![("t".into(), "expiry".into())]);
    }

    #[test]
    fn a_default_yields_only_to_another_kind_with_its_own() {
        assert!(yields(
            "expiry",
            Some("dynamodb-table"),
            "powertools-idempotency"
        ));
        assert!(!yields("expiry", Some("dynamodb-table"), "dynamodb-table"));
        assert!(!yields("expiry", Some("dynamodb-table"), "store"));
        assert!(!yields("expiry", Some("dynamodb-table"), "my-own-kind"));
    }
}
