//! The ids a manifest tree references, found through the vocabulary (every
//! field typed `Id`, `Ids` or a link's `to`), so the deployed side can be
//! renamed to the code's ids and an overlay can leave out what names a
//! component the deployed side lacks.

use std::collections::{BTreeSet, HashMap};

use crate::manifest::vocabulary::{Obj, Type};
use crate::manifest::yaml::{Node, Value};

/// Calls `f` on every scalar of `node` (an object of type `obj`) that
/// names another entry.
fn visit(node: &mut Node, obj: Obj, f: &mut dyn FnMut(&mut Node)) {
    let Value::Map(entries) = &mut node.value else {
        return;
    };
    for (k, v) in entries {
        let Some(def) = k.value.scalar_text().and_then(|n| obj.field(&n)) else {
            continue;
        };
        field(v, def.ty, f);
    }
}

fn field(v: &mut Node, ty: Type, f: &mut dyn FnMut(&mut Node)) {
    match (ty, &mut v.value) {
        (Type::Id | Type::Ids, Value::Str(_)) => f(v),
        (Type::Ids, Value::Seq(items)) => items.iter_mut().for_each(|i| field(i, Type::Id, f)),
        (Type::Link { obj, .. }, Value::Seq(items)) => items
            .iter_mut()
            .for_each(|i| field(i, Type::Link { obj, many: false }, f)),
        (Type::Link { .. }, Value::Str(_)) => f(v),
        (Type::Link { obj, .. } | Type::Object(obj) | Type::Objects(obj), Value::Map(_)) => {
            visit(v, obj, f)
        }
        (Type::Objects(obj), Value::Seq(items)) => items.iter_mut().for_each(|i| visit(i, obj, f)),
        _ => {}
    }
}

/// The entries of section `name` of a manifest tree.
fn section<'a>(tree: &'a mut Node, name: &str) -> Option<&'a mut Vec<(Node, Node)>> {
    let Value::Map(top) = &mut tree.value else {
        return None;
    };
    let (_, v) = top
        .iter_mut()
        .find(|(k, _)| k.value.scalar_text().as_deref() == Some(name))?;
    match &mut v.value {
        Value::Map(m) => Some(m),
        _ => None,
    }
}

fn rename_str(n: &mut Node, to: &HashMap<String, String>) {
    if let Value::Str(s) = &mut n.value
        && let Some(new) = to.get(s.as_str())
    {
        *s = new.clone();
    }
}

/// Renames every component id of `tree` that `to` maps, where it is
/// defined and wherever it is referenced.
pub fn rename(tree: &mut Node, to: &HashMap<String, String>) {
    if to.is_empty() {
        return;
    }
    for (name, obj) in [
        ("components", Obj::Component),
        ("intents", Obj::Intent),
        ("regions", Obj::Region),
    ] {
        let Some(entries) = section(tree, name) else {
            continue;
        };
        for (k, v) in entries {
            if obj == Obj::Component {
                rename_str(k, to);
            }
            visit(v, obj, &mut |n| rename_str(n, to));
        }
    }
}

/// The ids of section `name` (`components`, `regions`) of `tree`.
pub fn ids(tree: &mut Node, name: &str) -> Vec<String> {
    section(tree, name).map_or_else(Vec::new, |entries| {
        entries
            .iter()
            .filter_map(|(k, _)| k.value.scalar_text())
            .collect()
    })
}

/// Takes the components `ids` out of `tree`.
pub fn remove(tree: &mut Node, ids: &BTreeSet<String>) {
    if let Some(entries) = section(tree, "components") {
        entries.retain(|(k, _)| !k.value.scalar_text().is_some_and(|id| ids.contains(&id)));
    }
}

/// Keeps of an imported `tree` its `version`, the components `ids` and
/// the regions `known` lacks; every other section goes.
pub fn keep_only(tree: &mut Node, ids: &BTreeSet<String>, known: &BTreeSet<String>) {
    if let Value::Map(top) = &mut tree.value {
        top.retain(|(k, _)| {
            matches!(
                k.value.scalar_text().as_deref(),
                Some("version" | "components" | "regions")
            )
        });
    }
    if let Some(entries) = section(tree, "components") {
        entries.retain(|(k, _)| k.value.scalar_text().is_some_and(|id| ids.contains(&id)));
    }
    if let Some(entries) = section(tree, "regions") {
        entries.retain(|(k, _)| !k.value.scalar_text().is_some_and(|id| known.contains(&id)));
    }
}

/// Whether `node` (of type `obj`) references an id of `ids`.
fn names_any(node: &Node, obj: Obj, ids: &BTreeSet<String>) -> bool {
    let mut n = node.clone();
    let mut found = false;
    visit(&mut n, obj, &mut |v| {
        found |= v.value.scalar_text().is_some_and(|s| ids.contains(&s));
    });
    found
}

/// Takes out of an overlay's `tree` what names a component of `missing`
/// (ids only the code has), so the deployed side reads without a dangling
/// id: the component's own entry, every other entry's field that names
/// one, and every intent that names one. Returns what was left out
/// (`intent ID`, `ID.FIELD`, `ID`).
pub fn leave_out(tree: &mut Node, missing: &BTreeSet<String>) -> Vec<String> {
    let mut out = Vec::new();
    if missing.is_empty() {
        return out;
    }
    if let Some(entries) = section(tree, "intents") {
        entries.retain(|(k, v)| {
            let keep = !names_any(v, Obj::Intent, missing);
            if !keep {
                out.push(format!(
                    "intent {}",
                    k.value.scalar_text().unwrap_or_default()
                ));
            }
            keep
        });
    }
    if let Some(entries) = section(tree, "components") {
        entries.retain(|(k, _)| {
            let id = k.value.scalar_text().unwrap_or_default();
            let keep = !missing.contains(&id);
            if !keep {
                out.push(id);
            }
            keep
        });
        for (k, v) in entries.iter_mut() {
            let id = k.value.scalar_text().unwrap_or_default();
            let Value::Map(fields) = &mut v.value else {
                continue;
            };
            fields.retain(|(fk, fv)| {
                let name = fk.value.scalar_text().unwrap_or_default();
                let Some(def) = Obj::Component.field(&name) else {
                    return true;
                };
                let probe = Node {
                    value: Value::Map(vec![(fk.clone(), fv.clone())]),
                    tag: None,
                    loc: fv.loc,
                };
                let keep = !matches!(
                    def.ty,
                    Type::Id | Type::Ids | Type::Link { .. } | Type::Object(_) | Type::Objects(_)
                ) || !names_any(&probe, Obj::Component, missing);
                if !keep {
                    out.push(format!("{id}.{name}"));
                }
                keep
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manifest::yaml::{Limits, parse};

    fn tree(text: &str) -> Node {
        parse(text, 0, &Limits::default()).unwrap()
    }

    #[test]
    fn renames_definitions_and_every_reference() {
        let mut t = tree(
            "components:\n  q-1:\n    kind: sqs-standard\n    dead_letter: { to: dlq-1 }\n    delivers_to: [f-1, { to: f-2 }]\n  dlq-1:\n    kind: sqs-standard\n    redrive: q-1\nintents:\n  i:\n    origin: q-1\n    effect: [f-1]\n",
        );
        let to: HashMap<String, String> = [
            ("q-1", "orders"),
            ("dlq-1", "orders-dlq"),
            ("f-1", "worker"),
        ]
        .into_iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
        rename(&mut t, &to);
        let mut names = Vec::new();
        for s in ["components", "intents"] {
            for (k, v) in section(&mut t, s).unwrap() {
                names.push(k.value.scalar_text().unwrap());
                let obj = if s == "components" {
                    Obj::Component
                } else {
                    Obj::Intent
                };
                visit(v, obj, &mut |n| names.push(n.value.scalar_text().unwrap()));
            }
        }
        assert_eq!(
            names,
            [
                "orders",
                "orders-dlq",
                "worker",
                "f-2",
                "orders-dlq",
                "orders",
                "i",
                "orders",
                "worker"
            ]
        );
    }

    #[test]
    fn leaves_out_what_names_a_missing_component() {
        let mut t = tree(
            "intents:\n  a:\n    origin: web\n    effect: ledger\n  b:\n    origin: web\n    effect: gone\ncomponents:\n  gone:\n    retention: 1h\n  worker:\n    timeout: 1m\n    dedup: { store: gone }\n    effects: [ledger]\n",
        );
        let missing: BTreeSet<String> = ["gone".to_string()].into();
        assert_eq!(
            leave_out(&mut t, &missing),
            ["intent b", "gone", "worker.dedup"]
        );
        let comps = section(&mut t, "components").unwrap();
        assert_eq!(comps.len(), 1);
        let Value::Map(fields) = &comps[0].1.value else {
            panic!()
        };
        let kept: Vec<_> = fields
            .iter()
            .map(|(k, _)| k.value.scalar_text().unwrap())
            .collect();
        assert_eq!(kept, ["timeout", "effects"]);
    }
}
