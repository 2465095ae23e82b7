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
//! A merged link is located where the overlay writes it (its values keep
//! their own places, so an imported `retry` still points at the template).
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
    // Each imported target's links, so every overlay link is looked up once.
    let mut by_target: HashMap<String, Vec<usize>> = HashMap::new();
    for (i, item) in out.iter().enumerate() {
        if let Some(t) = target(item) {
            by_target.entry(t).or_default().push(i);
        }
    }
    // The overlay's links to one imported target, folded into one, so each
    // imported link takes one merge however many the overlay has.
    let mut folded: Vec<(&[usize], Node)> = Vec::new();
    let mut at: HashMap<String, usize> = HashMap::new();
    let mut added = Vec::new();
    for o in over_items {
        let t = target(o).unwrap_or_default();
        match (by_target.get(&t), at.get(&t)) {
            (Some(_), Some(&f)) => merge_item(&mut folded[f].1, o, obj),
            (Some(ix), None) => {
                at.insert(t, folded.len());
                folded.push((ix, o.clone()));
            }
            (None, _) => added.push(o.clone()),
        }
    }
    for (ix, o) in &folded {
        // Further imported links to the target take the overlay's known
        // fields only: their size is bounded, so the work stays linear.
        let known = known_only(o, obj);
        for (n, &i) in ix.iter().enumerate() {
            merge_item(&mut out[i], if n == 0 { o } else { &known }, obj);
        }
    }
    out.append(&mut added);
    Some(Node::new(Value::Seq(out), base.loc))
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
    // The overlay is where the link is now written: a finding on the link
    // points there, one on an imported value at that value's line.
    base.loc = over.loc;
    let nested = |name: &str| {
        obj.field(name)
            .is_some_and(|f| matches!(f.ty, Type::Object(_)))
    };
    merge_fields(fields, extra, &nested);
}

/// Merges mapping entries `extra` into `fields`: a key of both takes the
/// overlay's value, or, where `nested` says so and both are mappings, merges
/// key by key (all the way down). `to` is the imported link's own.
fn merge_fields(
    fields: &mut Vec<(Node, Node)>,
    extra: &[(Node, Node)],
    nested: &dyn Fn(&str) -> bool,
) {
    let mut index: HashMap<String, usize> = HashMap::new();
    for (i, (k, _)) in fields.iter().enumerate() {
        if let Some(name) = k.value.scalar_text() {
            index.entry(name).or_insert(i);
        }
    }
    for (k, v) in extra {
        let name = k.value.scalar_text().unwrap_or_default();
        if name == "to" {
            continue;
        }
        match index.get(&name) {
            Some(&i) => match (&mut fields[i].1.value, &v.value) {
                (Value::Map(sub), Value::Map(more)) if nested(&name) => {
                    merge_fields(sub, more, &|_| true)
                }
                _ => fields[i] = (k.clone(), v.clone()),
            },
            None => {
                index.insert(name, fields.len());
                fields.push((k.clone(), v.clone()));
            }
        }
    }
}

/// The fields of overlay link `over` that the link object `obj` defines,
/// with scalar values (a nested object: its known scalar fields).
fn known_only(over: &Node, obj: Obj) -> Node {
    let Value::Map(m) = &over.value else {
        return over.clone();
    };
    let scalar = |v: &Node| v.value.scalar_text().is_some();
    let kept = m
        .iter()
        .filter_map(|(k, v)| {
            let f = obj.field(&k.value.scalar_text()?)?;
            match (&f.ty, &v.value) {
                (Type::Object(inner), Value::Map(sub)) => {
                    let sub: Vec<_> = sub
                        .iter()
                        .filter(|(sk, sv)| {
                            scalar(sv)
                                && sk
                                    .value
                                    .scalar_text()
                                    .is_some_and(|n| inner.field(&n).is_some())
                        })
                        .cloned()
                        .collect();
                    Some((k.clone(), Node::new(Value::Map(sub), v.loc)))
                }
                _ if scalar(v) => Some((k.clone(), v.clone())),
                _ => None,
            }
        })
        .collect();
    Node::new(Value::Map(kept), over.loc)
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
        flow(&Node::new(Value::Map(fields), Default::default()))
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
    fn several_imported_links_to_one_target_take_the_overlays_known_fields() {
        assert_eq!(
            merged(
                "calls: [{to: a, timeout: 1s}, {to: a, retry: {attempts: 2, backoff: 1s}}]\n",
                "calls: [{to: a, passes_key: true, odd: [1]}, {to: a, retry: {attempts: 3, odd: 1}}]\n",
            ),
            "{calls: [{to: a, timeout: 1s, passes_key: true, odd: [1], retry: {attempts: 3, odd: 1}}, {to: a, retry: {attempts: 3, backoff: 1s}, passes_key: true}]}"
        );
    }

    /// Many imported links to one target and an overlay link with many
    /// fields: each imported link after the first takes a bounded merge.
    #[test]
    fn merging_stays_linear() {
        let n = 20_000;
        let node = |value| Node::new(value, Default::default());
        let s = |t: &str| node(Value::Str(t.into()));
        let link = |extra: Vec<(Node, Node)>| {
            let mut m = vec![(s("to"), s("a"))];
            m.extend(extra);
            node(Value::Map(m))
        };
        let base = node(Value::Seq((0..n).map(|_| link(Vec::new())).collect()));
        let many = (0..n).map(|i| (s(&format!("k{i}")), s("v"))).collect();
        let over = node(Value::Seq(vec![link(many)]));
        let mut fields = vec![(s("calls"), base)];
        let started = std::time::Instant::now();
        component_field(&mut fields, s("calls"), over);
        assert!(started.elapsed().as_secs() < 5, "{:?}", started.elapsed());
        let Value::Seq(items) = &fields[0].1.value else {
            panic!()
        };
        let len = |i: &Node| match &i.value {
            Value::Map(m) => m.len(),
            _ => 0,
        };
        assert_eq!((items.len(), len(&items[0]), len(&items[1])), (n, n + 1, 1));
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
