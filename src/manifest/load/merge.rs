//! How one field of an overlay extends the same field of an imported
//! component.
//!
//! A field that is not a link replaces the imported one. A link field
//! (`sends_to`, `delivers_to`, `calls`, `effects`, `dead_letter`,
//! `redrive`: the `Link` fields of the vocabulary) merges by `to`, as
//! Kubernetes' strategic merge does for keyed lists: an overlay link whose
//! `to` an imported link names merges into it field by field (the
//! overlay's fields win; a nested object such as `retry` merges key by
//! key), an overlay link to a new target is appended to a list (and
//! replaces a single link), and imported links the overlay does not name
//! stay. So an overlay that adds `passes_key` to a call keeps the `retry`
//! the template gave it. An overlay cannot remove an imported link: that
//! is changed in the template, or in a skeleton saved by `import`.
//!
//! A value that is not a link (or list of links) on either side is
//! replaced as before, so the reader reports the overlay's own error.

use std::collections::HashMap;

use crate::manifest::vocabulary::{Obj, Type};
use crate::manifest::yaml::{Node, Value};

/// Sets the overlay's `key: value` into the imported component `fields`.
pub(super) fn component_field(fields: &mut Vec<(Node, Node)>, key: Node, value: Node) {
    let name = key.value.scalar_text();
    let Some(slot) = fields
        .iter_mut()
        .find(|(k, _)| k.value.scalar_text() == name)
    else {
        fields.push((key, value));
        return;
    };
    let link = name
        .as_deref()
        .and_then(|n| Obj::Component.field(n))
        .and_then(|f| match f.ty {
            Type::Link { obj, many } => Some((obj, many)),
            _ => None,
        });
    match link.and_then(|(obj, many)| links(&slot.1, &value, obj, many)) {
        Some(merged) => slot.1 = merged,
        None => *slot = (key, value),
    }
}

/// The items of a link field: one id, one object, or a list of them.
fn items(n: &Node) -> Option<Vec<&Node>> {
    match &n.value {
        Value::Seq(s) => Some(s.iter().collect()),
        Value::Map(_) | Value::Str(_) | Value::Int(_) => Some(vec![n]),
        _ => None,
    }
}

/// The target a link item names: the id itself, or its `to`.
fn target(item: &Node) -> Option<String> {
    match &item.value {
        Value::Map(m) => m
            .iter()
            .find(|(k, _)| k.value.scalar_text().as_deref() == Some("to"))
            .and_then(|(_, v)| v.value.scalar_text()),
        Value::Str(_) | Value::Int(_) => item.value.scalar_text(),
        _ => None,
    }
}

/// The imported links `base` extended by the overlay's `over`, or `None`
/// where the overlay replaces them (a single link to another target, or
/// a value that is not links at all).
fn links(base: &Node, over: &Node, obj: Obj, many: bool) -> Option<Node> {
    let base_items = items(base)?;
    let over_items = items(over)?;
    if over_items.iter().any(|o| target(o).is_none()) {
        return None;
    }
    if !many {
        let ([b], [o]) = (base_items.as_slice(), over_items.as_slice()) else {
            return None;
        };
        if target(b)? != target(o)? {
            return None;
        }
        let mut merged = (*b).clone();
        merge_item(&mut merged, o, obj);
        return Some(merged);
    }
    let mut out: Vec<Node> = base_items.into_iter().cloned().collect();
    // Each imported target's items, so every overlay link is looked up once.
    let mut by_target: HashMap<String, Vec<usize>> = HashMap::new();
    for (i, item) in out.iter().enumerate() {
        if let Some(t) = target(item) {
            by_target.entry(t).or_default().push(i);
        }
    }
    for o in over_items {
        match target(o).and_then(|t| by_target.get(&t)) {
            Some(at) => {
                for &i in at {
                    merge_item(&mut out[i], o, obj);
                }
            }
            None => out.push(o.clone()),
        }
    }
    Some(Node {
        value: Value::Seq(out),
        loc: base.loc,
    })
}

/// Merges overlay link `over` into imported link `base` (same target).
fn merge_item(base: &mut Node, over: &Node, obj: Obj) {
    let Value::Map(extra) = &over.value else {
        // The overlay names the target only: nothing to add.
        return;
    };
    let Value::Map(fields) = &mut base.value else {
        // An imported id alone: the overlay's object says everything.
        *base = over.clone();
        return;
    };
    for (k, v) in extra {
        let name = k.value.scalar_text();
        if name.as_deref() == Some("to") {
            continue;
        }
        let nested = name
            .as_deref()
            .and_then(|n| obj.field(n))
            .is_some_and(|f| matches!(f.ty, Type::Object(_)));
        match fields
            .iter_mut()
            .find(|(bk, _)| bk.value.scalar_text() == name)
        {
            Some(slot) if nested => merge_map(slot, k, v),
            Some(slot) => *slot = (k.clone(), v.clone()),
            None => fields.push((k.clone(), v.clone())),
        }
    }
}

/// Merges a nested object key by key (the overlay's values win, mappings
/// inside merge the same way).
fn merge_map(slot: &mut (Node, Node), k: &Node, v: &Node) {
    let (Value::Map(fields), Value::Map(extra)) = (&mut slot.1.value, &v.value) else {
        *slot = (k.clone(), v.clone());
        return;
    };
    for (ek, ev) in extra {
        let name = ek.value.scalar_text();
        match fields
            .iter_mut()
            .find(|(bk, _)| bk.value.scalar_text() == name)
        {
            Some(s) => merge_map(s, ek, ev),
            None => fields.push((ek.clone(), ev.clone())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manifest::yaml::{self, Limits};

    /// A value in flow style, without places.
    fn flow(n: &Node) -> String {
        match &n.value {
            Value::Seq(s) => format!("[{}]", s.iter().map(flow).collect::<Vec<_>>().join(", ")),
            Value::Map(m) => format!(
                "{{{}}}",
                m.iter()
                    .map(|(k, v)| format!("{}: {}", flow(k), flow(v)))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            v => v.scalar_text().unwrap_or_else(|| "~".into()),
        }
    }

    fn merged(base: &str, over: &str) -> String {
        let parse = |t: &str| yaml::parse(t, 0, &Limits::default()).unwrap();
        let Value::Map(mut fields) = parse(base).value else {
            panic!("{base}")
        };
        let Value::Map(extra) = parse(over).value else {
            panic!("{over}")
        };
        for (k, v) in extra {
            component_field(&mut fields, k, v);
        }
        flow(&Node {
            value: Value::Map(fields),
            loc: Default::default(),
        })
    }

    #[test]
    fn an_overlay_link_merges_into_the_imported_one_of_the_same_target() {
        assert_eq!(
            merged(
                "calls: [{to: charge, retry: {attempts: 3, backoff: 2s}}, log]\n",
                "calls: [{to: charge, passes_key: true, retry: {attempts: 5}}, audit]\n",
            ),
            "{calls: [{to: charge, retry: {attempts: 5, backoff: 2s}, passes_key: true}, log, audit]}"
        );
        // An imported id alone takes the overlay's object; an overlay id
        // alone adds nothing; every imported link to the target merges.
        assert_eq!(
            merged(
                "effects: [bank, {to: mail, passes_key: false}, {to: mail}]\n",
                "effects: [{to: bank, passes_key: true}, mail]\n",
            ),
            "{effects: [{to: bank, passes_key: true}, {to: mail, passes_key: false}, {to: mail}]}"
        );
        assert_eq!(
            merged("sends_to: q\n", "sends_to: {to: q, dedup_id: content}\n"),
            "{sends_to: [{to: q, dedup_id: content}]}"
        );
    }

    #[test]
    fn other_fields_and_single_links_to_another_target_are_replaced() {
        assert_eq!(
            merged(
                "dead_letter: {to: a, max_receives: 3}\ntimeout: 5s\n",
                "dead_letter: {to: b}\ntimeout: 9s\nkind: x\n",
            ),
            "{dead_letter: {to: b}, timeout: 9s, kind: x}"
        );
        assert_eq!(
            merged(
                "dead_letter: {to: a, max_receives: 3, within: 1d}\n",
                "dead_letter: {to: a, max_receives: 5}\n",
            ),
            "{dead_letter: {to: a, max_receives: 5, within: 1d}}"
        );
    }

    #[test]
    fn a_value_that_is_not_links_replaces_so_the_reader_reports_it() {
        assert_eq!(
            merged("sends_to: [q]\n", "sends_to: {}\n"),
            "{sends_to: {}}"
        );
        assert_eq!(
            merged("sends_to: [q]\n", "sends_to: true\n"),
            "{sends_to: true}"
        );
        assert_eq!(merged("sends_to: [q]\n", "sends_to:\n"), "{sends_to: ~}");
        assert_eq!(
            merged("sends_to: [q]\n", "sends_to: [r, [x]]\n"),
            "{sends_to: [r, [x]]}"
        );
    }
}
