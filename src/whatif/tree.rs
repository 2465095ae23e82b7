//! The YAML trees of the files, edited in place: finding an element by
//! section and id, setting or removing the value at a target's segments
//! (creating mappings on the way, turning a link written as an id into
//! `{to: id}`), and reading the value there.

use super::target::{LINK_FIELDS, Section, Seg};
use crate::diagnostics::{Diagnostic, Loc};
use crate::manifest::yaml::{Node, Value};

pub(super) fn element<'n>(tree: &'n Node, section: Section, id: &str) -> Option<&'n Node> {
    tree.get(section.key())?.get(id)
}

pub(super) fn element_mut<'n>(
    tree: &'n mut Node,
    section: Section,
    id: &str,
) -> Option<&'n mut Node> {
    tree.get_mut(section.key())?.get_mut(id)
}

pub(super) fn element_key_loc(tree: &Node, section: Section, id: &str) -> Option<Loc> {
    match &tree.get(section.key())?.value {
        Value::Map(entries) => entries
            .iter()
            .find(|(k, _)| k.is_key(id))
            .map(|(k, _)| k.loc),
        _ => None,
    }
}

/// What the node being edited is, for the rules about links.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Holder {
    /// A component: it holds link fields.
    Component,
    /// A link item (or a list of them): a string there is the id it links to.
    Link,
    /// Anything else.
    Plain,
}

/// Sets (or with `None` removes) the value at `segs` below `cur`, creating
/// mappings on the way. `path` is the place reached so far, for messages
/// (`components.ID.field[0]`).
pub(super) fn set_at(
    cur: &mut Node,
    segs: &[(Seg, Loc)],
    value: Option<&Node>,
    holder: Holder,
    path: &mut String,
) -> Result<(), Diagnostic> {
    let (seg, loc) = &segs[0];
    match seg {
        Seg::Key(k) => set_key(cur, k, *loc, segs, value, holder, path),
        Seg::Index(n) => set_index(cur, *n, *loc, segs, value, holder, path),
    }
}

/// [`set_at`] where the first segment is the field `k`.
fn set_key(
    cur: &mut Node,
    k: &String,
    loc: Loc,
    segs: &[(Seg, Loc)],
    value: Option<&Node>,
    holder: Holder,
    path: &mut String,
) -> Result<(), Diagnostic> {
    if cur.value == Value::Null {
        cur.value = Value::Map(Vec::new());
    }
    if holder == Holder::Link && matches!(cur.value, Value::Str(_)) {
        // `sends_to: queue` becomes `sends_to: {to: queue}`.
        let to = Node::new(Value::Str("to".into()), cur.loc);
        let old = std::mem::replace(cur, Node::new(Value::Map(Vec::new()), cur.loc));
        cur.value = Value::Map(vec![(to, old)]);
    }
    let found = match &cur.value {
        Value::Map(entries) => entries.iter().position(|(key, _)| key.is_key(k)),
        other => {
            return Err(Diagnostic::at(
                loc,
                format!(
                    "`{path}` is {}, so it has no field `{k}`",
                    other.type_name()
                ),
            )
            .label("not a mapping"));
        }
    };
    let Value::Map(entries) = &mut cur.value else {
        unreachable!("checked above")
    };
    path.push('.');
    path.push_str(k);
    let key = || Node::new(Value::Str(k.clone()), loc);
    if segs.len() == 1 {
        match (value, found) {
            (Some(v), Some(j)) => entries[j].1 = v.clone(),
            (Some(v), None) => entries.push((key(), v.clone())),
            (None, Some(j)) => {
                entries.remove(j);
            }
            (None, None) => {
                return Err(Diagnostic::at(
                    loc,
                    format!("`{path}` is not set in the manifest: nothing to unset"),
                )
                .label("not set"));
            }
        }
        return Ok(());
    }
    let j = match found {
        Some(j) => j,
        None => {
            entries.push((key(), Node::new(Value::Null, loc)));
            entries.len() - 1
        }
    };
    let below = if holder == Holder::Component && LINK_FIELDS.contains(&k.as_str()) {
        Holder::Link
    } else {
        Holder::Plain
    };
    set_at(&mut entries[j].1, &segs[1..], value, below, path)
}

/// [`set_at`] where the first segment is the list item `[n]`.
fn set_index(
    cur: &mut Node,
    n: usize,
    loc: Loc,
    segs: &[(Seg, Loc)],
    value: Option<&Node>,
    holder: Holder,
    path: &mut String,
) -> Result<(), Diagnostic> {
    let last = segs.len() == 1;
    // An item of a list of links is a link; any other item is plain.
    let below = match holder {
        Holder::Link => Holder::Link,
        Holder::Component | Holder::Plain => Holder::Plain,
    };
    match &mut cur.value {
        Value::Seq(items) => {
            if n >= items.len() {
                return Err(Diagnostic::at(
                    loc,
                    format!(
                        "`{path}` has {} item{}: [{n}] is out of range",
                        items.len(),
                        if items.len() == 1 { "" } else { "s" }
                    ),
                )
                .label("no such item"));
            }
            path.push_str(&format!("[{n}]"));
            if last {
                match value {
                    Some(v) => items[n] = v.clone(),
                    None => {
                        items.remove(n);
                    }
                }
                return Ok(());
            }
            set_at(&mut items[n], &segs[1..], value, below, path)
        }
        Value::Null => Err(Diagnostic::at(
            loc,
            format!("`{path}` is not set, so it has no item [{n}]"),
        )
        .label("no list here")),
        // A field that takes one item or a list: a single item is item 0.
        _ if n == 0 => {
            path.push_str("[0]");
            if last {
                return match value {
                    Some(v) => {
                        *cur = v.clone();
                        Ok(())
                    }
                    None => Err(Diagnostic::at(
                        loc,
                        format!("`{path}` is the only item: unset the field itself"),
                    )
                    .label("only item")),
                };
            }
            set_at(cur, &segs[1..], value, below, path)
        }
        other => Err(Diagnostic::at(
            loc,
            format!(
                "`{path}` is {}, not a list: [{n}] is out of range",
                other.type_name()
            ),
        )
        .label("not a list")),
    }
}

/// The value at `segs`, if set (a link written as an id has only `to`).
pub(super) fn get_at<'n>(cur: &'n Node, segs: &[(Seg, Loc)]) -> Option<&'n Node> {
    let Some(((seg, _), rest)) = segs.split_first() else {
        return Some(cur);
    };
    match (seg, &cur.value) {
        (Seg::Key(k), Value::Str(_)) if k == "to" => get_at(cur, rest),
        (Seg::Key(k), _) => get_at(cur.get(k)?, rest),
        (Seg::Index(n), Value::Seq(items)) => get_at(items.get(*n)?, rest),
        (Seg::Index(0), Value::Null) => None,
        (Seg::Index(0), _) => get_at(cur, rest),
        _ => None,
    }
}
