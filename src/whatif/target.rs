//! Targets of a change (`ID.field[0].field`): the sections ids are
//! declared in, the segments below an element, and resolving a target
//! against the ids of the files, with the `ID.retry.FIELD` shorthand for
//! the one link of a component that retries.

use std::collections::BTreeMap;

use super::tree::element;
use crate::diagnostics::{Diagnostic, Loc, suggest};
use crate::manifest::load::{COMPONENT_FIELDS, INTENT_FIELDS, REGION_FIELDS};
use crate::manifest::yaml::{Node, Value};

// Link fields of a component (a string item there is a link to an id, and
// is turned into `{to: id}` when a field below it is set), and those that
// take a `retry` policy (for the `ID.retry.FIELD` shorthand).
pub(super) use crate::manifest::vocabulary::{LINK_FIELDS, RETRY_LINKS};

/// Where an id is declared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Section {
    Intents,
    Components,
    Regions,
}

impl Section {
    pub(super) fn key(self) -> &'static str {
        match self {
            Section::Intents => "intents",
            Section::Components => "components",
            Section::Regions => "regions",
        }
    }
    fn fields(self) -> &'static [&'static str] {
        match self {
            Section::Intents => INTENT_FIELDS,
            Section::Components => COMPONENT_FIELDS,
            Section::Regions => REGION_FIELDS,
        }
    }
}

/// One step below an element: a field or a list item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Seg {
    Key(String),
    Index(usize),
}

/// A target resolved against the files.
#[derive(Debug, Clone)]
pub(super) struct Target {
    pub(super) id: String,
    pub(super) file: usize,
    pub(super) section: Section,
    /// Segments below the element, each with the column where it is written.
    pub(super) segs: Vec<(Seg, Loc)>,
}

impl Target {
    pub(super) fn canonical(&self) -> String {
        let mut s = self.id.clone();
        for (seg, _) in &self.segs {
            match seg {
                Seg::Key(k) => {
                    s.push('.');
                    s.push_str(k);
                }
                Seg::Index(i) => s.push_str(&format!("[{i}]")),
            }
        }
        s
    }
}

/// Every id of the files: the file and section that declare it first.
pub(super) type Ids = BTreeMap<String, (usize, Section)>;

/// Resolves a target: the longest prefix that is an id, then fields.
pub(super) fn resolve(
    ids: &Ids,
    trees: &[Node],
    target: &str,
    loc: Loc,
) -> Result<Target, Diagnostic> {
    let cuts: Vec<usize> = target
        .char_indices()
        .filter(|(_, c)| matches!(c, '.' | '['))
        .map(|(i, _)| i)
        .chain([target.len()])
        .collect();
    let Some(&cut) = cuts.iter().rev().find(|&&c| ids.contains_key(&target[..c])) else {
        return Err(unknown_id(ids, target, &cuts, loc));
    };
    let id = target[..cut].to_string();
    let (file, section) = ids[&id];
    let segs = segments(target, cut, loc)?;
    if segs.is_empty() {
        return Err(Diagnostic::at(
            loc,
            format!("`{id}` needs a field: write `{id}.FIELD=VALUE`"),
        )
        .help(format!(
            "the fields of {} are: {}",
            section.key(),
            section.fields().join(", ")
        )));
    }
    let t = Target {
        id,
        file,
        section,
        segs,
    };
    // `ID.retry.FIELD`: retry lives on a link; accept it where the
    // component has exactly one link that retries.
    if section == Section::Components && t.segs[0].0 == Seg::Key("retry".into()) {
        return retry_shorthand(&trees[file], t, loc);
    }
    Ok(t)
}

/// No prefix of `target` (cut at `cuts`) is an id: the nearest id, or a
/// list of them.
fn unknown_id(ids: &Ids, target: &str, cuts: &[usize], loc: Loc) -> Diagnostic {
    let first = &target[..cuts[0]];
    let names = || ids.keys().map(String::as_str);
    let sugg = cuts
        .iter()
        .rev()
        .find_map(|&c| suggest(&target[..c], names()));
    let d = Diagnostic::at(loc, format!("no intent, component or region `{first}`"))
        .label("unknown id");
    match sugg {
        Some(s) => d.help(format!("did you mean `{s}`?")),
        None => d.help(format!(
            "the ids are: {}",
            names().take(20).collect::<Vec<_>>().join(", ")
        )),
    }
}

/// The segments of `target` after the id (which ends at `cut`), each with
/// the column where it is written.
fn segments(target: &str, cut: usize, loc: Loc) -> Result<Vec<(Seg, Loc)>, Diagnostic> {
    let at = |off: usize| Loc {
        col: loc.col + off as u32,
        ..loc
    };
    let mut segs = Vec::new();
    let rest = &target[cut..];
    let bytes = rest.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'.' => {
                let start = i + 1;
                let end = rest[start..]
                    .find(['.', '['])
                    .map_or(rest.len(), |e| start + e);
                if end == start {
                    return Err(Diagnostic::at(
                        at(cut + i),
                        format!("`{target}`: empty field name"),
                    )
                    .label("here"));
                }
                segs.push((Seg::Key(rest[start..end].to_string()), at(cut + start)));
                i = end;
            }
            b'[' => {
                let close = rest[i..].find(']').map(|e| i + e);
                let n = close.and_then(|c| rest[i + 1..c].trim().parse::<usize>().ok());
                let (Some(close), Some(n)) = (close, n) else {
                    return Err(Diagnostic::at(
                        at(cut + i),
                        format!("`{target}`: a list index is written `[0]`"),
                    )
                    .label("bad index"));
                };
                segs.push((Seg::Index(n), at(cut + i)));
                i = close + 1;
            }
            _ => unreachable!("cuts are at `.` or `[`"),
        }
    }
    Ok(segs)
}

/// `ID.retry...` on a component: the target with the segments of its one
/// link that retries put before `retry`, or why there is no such link.
fn retry_shorthand(tree: &Node, mut t: Target, loc: Loc) -> Result<Target, Diagnostic> {
    let comp = element(tree, t.section, &t.id);
    let mut cands = Vec::new();
    for f in RETRY_LINKS {
        match comp.and_then(|c| c.get(f)) {
            Some(Node {
                value: Value::Seq(items),
                ..
            }) => {
                cands.extend((0..items.len()).map(|i| vec![Seg::Key(f.to_string()), Seg::Index(i)]))
            }
            Some(_) => cands.push(vec![Seg::Key(f.to_string())]),
            None => {}
        }
    }
    if cands.len() != 1 {
        let spell = |c: &Vec<Seg>| {
            Target {
                segs: c.iter().map(|s| (s.clone(), loc)).collect(),
                ..t.clone()
            }
            .canonical()
        };
        let list: Vec<String> = cands
            .iter()
            .map(|c| format!("`{}.retry...`", spell(c)))
            .collect();
        return Err(Diagnostic::at(
            t.segs[0].1,
            format!(
                "`retry` is set on a link, and `{}` has {}",
                t.id,
                match list.len() {
                    0 => "no `sends_to`, `delivers_to` or `calls` link".to_string(),
                    n => format!("{n} links that retry"),
                }
            ),
        )
        .label("which link?")
        .help(if list.is_empty() {
            "retry policies go on `sends_to`, `delivers_to` and `calls` links".to_string()
        } else {
            format!("write one of {}", list.join(", "))
        }));
    }
    let l = t.segs[0].1;
    let mut segs: Vec<(Seg, Loc)> = cands.remove(0).into_iter().map(|s| (s, l)).collect();
    segs.append(&mut t.segs);
    t.segs = segs;
    Ok(t)
}
