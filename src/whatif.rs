//! What-if questions: the same architecture with some values changed.
//!
//! The manifest files are parsed once into span-carrying YAML trees
//! ([`Session`]). A change (`--set TARGET=VALUE`, `--unset TARGET`, a line of
//! an overrides file, a `set` in the shell) edits a copy of those trees, and
//! the copy is read by the normal loader and validator: a changed value is
//! checked exactly like a value written in the manifest, with the same
//! messages and "did you mean" suggestions. Each change is kept as a small
//! source file of its own (the argument text), so an error in it is shown
//! pointing into the argument, and findings about it name it.
//!
//! Also here: comparing two lists of findings ([`compare`]) and the minimum
//! safe retention of every dedup layer (`horizon --required`, [`required`]).

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::analysis::{Analysis, IntentResult, Step};
use crate::diagnostics::{Diagnostic, Loc, SourceFile, SourceMap, suggest};
use crate::manifest::load::{self, COMPONENT_FIELDS, INTENT_FIELDS, REGION_FIELDS};
use crate::manifest::model::LinkType;
use crate::manifest::yaml::{self, Limits, Node, Value};
use crate::manifest::{LoadError, Manifest};
use crate::report::json::JsonFinding;
use crate::rules::{Finding, Severity, margin, required_window};
use crate::time::Dur;

// Link fields of a component (a string item there is a link to an id, and
// is turned into `{to: id}` when a field below it is set), and those that
// take a `retry` policy (for the `ID.retry.FIELD` shorthand).
use crate::manifest::vocabulary::{LINK_FIELDS, RETRY_LINKS};

/// One requested change: `value` `None` removes the field.
#[derive(Debug, Clone, PartialEq)]
pub struct Override {
    /// The target as written (`payout-idempotency.retention`).
    pub target: String,
    /// Where the target is written (an argument, a shell line, an overrides file).
    pub loc: Loc,
    pub value: Option<Node>,
}

/// A change as shown to the user: the target in its canonical spelling and
/// the value in the files and after the change (`None`: not set).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct Change {
    pub target: String,
    pub old: Option<String>,
    pub new: Option<String>,
    /// Where the old value (or the element) stands in the files.
    #[serde(skip)]
    pub loc: Option<Loc>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Section {
    Intents,
    Components,
    Regions,
}

impl Section {
    fn key(self) -> &'static str {
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

#[derive(Debug, Clone, PartialEq, Eq)]
enum Seg {
    Key(String),
    Index(usize),
}

/// A target resolved against the files.
#[derive(Debug, Clone)]
struct Target {
    id: String,
    file: usize,
    section: Section,
    /// Segments below the element, each with the column where it is written.
    segs: Vec<(Seg, Loc)>,
}

impl Target {
    fn canonical(&self) -> String {
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

/// The manifest files parsed once, plus the sources of every change made
/// since (append-only, so a change keeps its locations after `undo`).
#[derive(Debug, Clone)]
pub struct Session {
    base_sources: SourceMap,
    base_trees: Vec<Node>,
    limits: Limits,
    extra: Vec<SourceFile>,
    ids: BTreeMap<String, (usize, Section)>,
}

/// The parsed trees with some overrides applied, and the targets those
/// changed (in the order first changed): the state a shell step starts
/// from, so a new change is applied alone instead of with all before it.
#[derive(Debug, Clone)]
pub struct Edited {
    trees: Vec<Node>,
    targets: Vec<Target>,
    seen: HashSet<String>,
}

/// A manifest built with changes, and those changes.
#[derive(Debug)]
pub struct Built {
    pub manifest: Manifest,
    pub changes: Vec<Change>,
}

impl Session {
    /// Parses files or folders (no reading of the model yet).
    pub fn open(paths: &[PathBuf], limits: &Limits) -> Result<Session, LoadError> {
        let (sources, trees) =
            load::parse_files(paths, limits).map_err(|(sources, diagnostics)| LoadError {
                sources,
                diagnostics,
            })?;
        Ok(Session::new(sources, trees, limits))
    }

    /// Parses in-memory texts (file name, content).
    pub fn from_texts(texts: Vec<(String, String)>, limits: &Limits) -> Result<Session, LoadError> {
        let (sources, trees) =
            load::parse_texts(texts, limits).map_err(|(sources, diagnostics)| LoadError {
                sources,
                diagnostics,
            })?;
        Ok(Session::new(sources, trees, limits))
    }

    /// Parses texts (name, content, imported by `import`) with the entries
    /// of overlays merged into the imported components and regions they
    /// extend, as `check` reads them.
    pub fn from_merged(
        texts: Vec<(String, String, bool)>,
        limits: &Limits,
    ) -> Result<Session, LoadError> {
        let (sources, nodes, diagnostics) = load::parse_merging(texts, limits);
        if !diagnostics.is_empty() {
            return Err(LoadError {
                sources,
                diagnostics,
            });
        }
        let trees = nodes.into_iter().map(|(_, n)| n).collect();
        Ok(Session::new(sources, trees, limits))
    }

    fn new(sources: SourceMap, trees: Vec<Node>, limits: &Limits) -> Session {
        let mut ids = BTreeMap::new();
        for (file, tree) in trees.iter().enumerate() {
            for section in [Section::Regions, Section::Intents, Section::Components] {
                let Some(Node {
                    value: Value::Map(entries),
                    ..
                }) = map_get(tree, section.key())
                else {
                    continue;
                };
                for (k, _) in entries {
                    if let Some(id) = k.value.scalar_text() {
                        ids.entry(id).or_insert((file, section));
                    }
                }
            }
        }
        Session {
            base_sources: sources,
            base_trees: trees,
            limits: *limits,
            extra: Vec::new(),
            ids,
        }
    }

    /// Every intent, component and region id (for completion).
    pub fn ids(&self) -> impl Iterator<Item = &str> + Clone {
        self.ids.keys().map(String::as_str)
    }

    /// The manifest files and the sources of every change.
    pub fn sources(&self) -> SourceMap {
        let mut s = self.base_sources.clone();
        s.files.extend(self.extra.iter().cloned());
        s
    }

    /// The sources a model built from `trees` can point into: the files,
    /// and the change texts that a node of the trees still comes from. The
    /// other changes (replaced since, or undone) keep their place with an
    /// empty entry, which costs no allocation: a shell step copies the text
    /// of the changes in effect, not of every change ever typed.
    fn sources_for(&self, trees: &[Node]) -> SourceMap {
        fn mark(n: &Node, base: usize, used: &mut [bool]) {
            if let Some(u) = (n.loc.file as usize)
                .checked_sub(base)
                .and_then(|i| used.get_mut(i))
            {
                *u = true;
            }
            match &n.value {
                Value::Seq(items) => items.iter().for_each(|i| mark(i, base, used)),
                Value::Map(entries) => entries.iter().for_each(|(k, v)| {
                    mark(k, base, used);
                    mark(v, base, used);
                }),
                _ => {}
            }
        }
        let base = self.base_sources.files.len();
        let mut used = vec![false; self.extra.len()];
        trees.iter().for_each(|t| mark(t, base, &mut used));
        let mut s = self.base_sources.clone();
        s.files
            .extend(self.extra.iter().zip(used).map(|(f, u)| match u {
                true => f.clone(),
                false => SourceFile {
                    path: String::new(),
                    text: String::new(),
                },
            }));
        s
    }

    /// Paths of the manifest files.
    pub fn files(&self) -> Vec<&str> {
        self.base_sources
            .files
            .iter()
            .map(|f| f.path.as_str())
            .collect()
    }

    fn add_source(&mut self, name: &str, text: &str) -> u32 {
        self.extra.push(SourceFile {
            path: name.to_string(),
            text: text.to_string(),
        });
        (self.base_sources.files.len() + self.extra.len() - 1) as u32
    }

    fn error(&self, d: Diagnostic) -> LoadError {
        LoadError {
            sources: self.sources(),
            diagnostics: vec![d],
        }
    }

    /// Reads `TARGET=VALUE`; `origin` names where it was written (`--set`).
    /// The value is YAML (a scalar or a flow list/mapping); `~` or `null`
    /// removes the field.
    pub fn parse_set(&mut self, origin: &str, arg: &str) -> Result<Override, LoadError> {
        let arg = arg.trim();
        let file = self.add_source(origin, arg);
        let Some(eq) = arg.find('=') else {
            return Err(self.error(
                Diagnostic::at(
                    Loc {
                        file,
                        line: 1,
                        col: 1,
                    },
                    format!("`{arg}` is not TARGET=VALUE"),
                )
                .label("no `=`")
                .help(
                    "write e.g. `payout-idempotency.retention=2d`; `unset TARGET` removes a field",
                ),
            ));
        };
        let target = arg[..eq].trim_end().to_string();
        let shift = arg[..=eq].chars().count() as u32;
        let text = &arg[eq + 1..];
        let mut value = match yaml::parse(text, file, &self.limits) {
            Ok(v) => v,
            Err(mut d) => {
                if let Some(l) = &mut d.loc
                    && l.line == 1
                {
                    l.col += shift;
                }
                return Err(self.error(d));
            }
        };
        shift_cols(&mut value, shift);
        if text.trim().is_empty() {
            return Err(self.error(
                Diagnostic::at(
                    Loc {
                        file,
                        line: 1,
                        col: shift,
                    },
                    format!("`{target}` has no value after `=`"),
                )
                .help("give a value, e.g. `2d`; `unset TARGET` (or `~`) removes a field"),
            ));
        }
        let value = (value.value != Value::Null).then_some(value);
        Ok(Override {
            target,
            loc: Loc {
                file,
                line: 1,
                col: 1,
            },
            value,
        })
    }

    /// `--unset TARGET`.
    pub fn parse_unset(&mut self, origin: &str, target: &str) -> Override {
        let target = target.trim();
        let file = self.add_source(origin, target);
        Override {
            target: target.to_string(),
            loc: Loc {
                file,
                line: 1,
                col: 1,
            },
            value: None,
        }
    }

    /// An overrides file: a mapping `TARGET: VALUE` (`null` removes the field),
    /// as `save` writes it.
    pub fn read_overrides(&mut self, path: &Path) -> Result<Vec<Override>, LoadError> {
        let name = path.display().to_string();
        let text = load::read_text(path, &self.limits).map_err(|d| {
            self.error(
                d.help("give a YAML file of `TARGET: VALUE` lines, as the shell's `save` writes"),
            )
        })?;
        // Errors show one line of the file at most, cut short
        // (crate::files::excerpt): it may be any text named by mistake.
        let file = self.add_source(&name, &crate::files::excerpt(&text));
        let node = yaml::parse(&text, file, &self.limits).map_err(|d| self.error(d))?;
        let entries = match node.value {
            Value::Map(e) => e,
            Value::Null => Vec::new(),
            other => {
                return Err(self.error(
                    Diagnostic::at(node.loc, format!("the overrides file must be a mapping, found {}", other.type_name()))
                        .help("write one `TARGET: VALUE` per line, e.g. `payout-idempotency.retention: 2d`"),
                ));
            }
        };
        let mut out = Vec::new();
        for (k, v) in entries {
            let Some(target) = k.value.scalar_text() else {
                return Err(self.error(Diagnostic::at(
                    k.loc,
                    "a target must be written as text: `ID.FIELD`",
                )));
            };
            out.push(Override {
                target,
                loc: k.loc,
                value: (v.value != Value::Null).then_some(v),
            });
        }
        Ok(out)
    }

    /// Resolves a target: the longest prefix that is an id, then fields.
    fn resolve(&self, trees: &[Node], target: &str, loc: Loc) -> Result<Target, Diagnostic> {
        let at = |off: usize| Loc {
            col: loc.col + off as u32,
            ..loc
        };
        let cuts: Vec<usize> = target
            .char_indices()
            .filter(|(_, c)| matches!(c, '.' | '['))
            .map(|(i, _)| i)
            .chain([target.len()])
            .collect();
        let Some(&cut) = cuts
            .iter()
            .rev()
            .find(|&&c| self.ids.contains_key(&target[..c]))
        else {
            let first = &target[..cuts[0]];
            let sugg = cuts
                .iter()
                .rev()
                .find_map(|&c| suggest(&target[..c], self.ids()));
            let d = Diagnostic::at(loc, format!("no intent, component or region `{first}`"))
                .label("unknown id");
            let d = match sugg {
                Some(s) => d.help(format!("did you mean `{s}`?")),
                None => d.help(format!(
                    "the ids are: {}",
                    self.ids().take(20).collect::<Vec<_>>().join(", ")
                )),
            };
            return Err(d);
        };
        let id = target[..cut].to_string();
        let (file, section) = self.ids[&id];
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
        let mut t = Target {
            id,
            file,
            section,
            segs,
        };
        // `ID.retry.FIELD`: retry lives on a link; accept it where the
        // component has exactly one link that retries.
        if section == Section::Components && t.segs[0].0 == Seg::Key("retry".into()) {
            let comp = element(&trees[file], section, &t.id);
            let mut cands = Vec::new();
            for f in RETRY_LINKS {
                match comp.and_then(|c| map_get(c, f)) {
                    Some(Node {
                        value: Value::Seq(items),
                        ..
                    }) => cands.extend(
                        (0..items.len()).map(|i| vec![Seg::Key(f.to_string()), Seg::Index(i)]),
                    ),
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
        }
        Ok(t)
    }

    /// Builds the manifest with `overrides` applied in order.
    pub fn build(&self, overrides: &[Override]) -> Result<Built, LoadError> {
        self.finish(&self.edit(overrides)?)
    }

    /// The parsed files with `overrides` applied in order; every override
    /// that cannot be applied is reported.
    pub fn edit(&self, overrides: &[Override]) -> Result<Edited, LoadError> {
        let mut e = Edited {
            trees: self.base_trees.clone(),
            targets: Vec::new(),
            seen: HashSet::new(),
        };
        let errors: Vec<Diagnostic> = overrides
            .iter()
            .filter_map(|o| self.apply(&mut e, o).err())
            .collect();
        if errors.is_empty() {
            Ok(e)
        } else {
            Err(LoadError {
                sources: self.sources(),
                diagnostics: errors,
            })
        }
    }

    /// `edited` with one more override applied: the same as [`Session::edit`]
    /// with `o` appended, without applying the earlier overrides again.
    pub fn edit_more(&self, edited: &Edited, o: &Override) -> Result<Edited, LoadError> {
        let mut e = edited.clone();
        self.apply(&mut e, o).map_err(|d| self.error(d))?;
        Ok(e)
    }

    /// Applies one override to the trees, recording its target.
    fn apply(&self, e: &mut Edited, o: &Override) -> Result<(), Diagnostic> {
        let t = self.resolve(&e.trees, &o.target, o.loc)?;
        let section = t.section;
        let Some(node) = element_mut(&mut e.trees[t.file], section, &t.id) else {
            return Ok(());
        };
        let mut path = format!("{}.{}", section.key(), t.id);
        set_at(
            node,
            &t.segs,
            o.value.as_ref(),
            false,
            section == Section::Components,
            &mut path,
        )?;
        // The canonical spellings seen, so that a repeat costs one lookup
        // rather than a pass over every target so far.
        if e.seen.insert(t.canonical()) {
            e.targets.push(t);
        }
        Ok(())
    }

    /// Reads and validates the edited trees, and lists the changes against
    /// the files.
    pub fn finish(&self, e: &Edited) -> Result<Built, LoadError> {
        let trees = &e.trees;
        let sources = self.sources_for(trees);
        let manifest = crate::manifest::check(load::load_nodes(sources, trees))?;
        let changes = e
            .targets
            .iter()
            .filter_map(|t| {
                let old = get_at(
                    element(&self.base_trees[t.file], t.section, &t.id)?,
                    &t.segs,
                );
                let new = get_at(element(&trees[t.file], t.section, &t.id)?, &t.segs);
                let old_s = old.map(flow);
                let new_s = new.map(flow);
                let loc = old
                    .map(|n| n.loc)
                    .or_else(|| element_key_loc(&self.base_trees[t.file], t.section, &t.id));
                (old_s != new_s).then(|| Change {
                    target: t.canonical(),
                    old: old_s,
                    new: new_s,
                    loc,
                })
            })
            .collect();
        Ok(Built { manifest, changes })
    }

    /// Field names that may follow `prefix` (for completion): the fields of
    /// the element, or of the link, retry or guard below it.
    pub fn fields_after(&self, id: &str) -> &'static [&'static str] {
        self.ids.get(id).map_or(&[], |(_, s)| s.fields())
    }
}

fn shift_cols(n: &mut Node, shift: u32) {
    if n.loc.line == 1 {
        n.loc.col += shift;
    }
    match &mut n.value {
        Value::Seq(items) => items.iter_mut().for_each(|i| shift_cols(i, shift)),
        Value::Map(entries) => entries.iter_mut().for_each(|(k, v)| {
            shift_cols(k, shift);
            shift_cols(v, shift);
        }),
        _ => {}
    }
}

fn map_get<'n>(n: &'n Node, key: &str) -> Option<&'n Node> {
    match &n.value {
        Value::Map(entries) => entries
            .iter()
            .find(|(k, _)| k.value.scalar_text().as_deref() == Some(key))
            .map(|(_, v)| v),
        _ => None,
    }
}

fn map_get_mut<'n>(n: &'n mut Node, key: &str) -> Option<&'n mut Node> {
    match &mut n.value {
        Value::Map(entries) => entries
            .iter_mut()
            .find(|(k, _)| k.value.scalar_text().as_deref() == Some(key))
            .map(|(_, v)| v),
        _ => None,
    }
}

fn element<'n>(tree: &'n Node, section: Section, id: &str) -> Option<&'n Node> {
    map_get(map_get(tree, section.key())?, id)
}

fn element_mut<'n>(tree: &'n mut Node, section: Section, id: &str) -> Option<&'n mut Node> {
    map_get_mut(map_get_mut(tree, section.key())?, id)
}

fn element_key_loc(tree: &Node, section: Section, id: &str) -> Option<Loc> {
    match &map_get(tree, section.key())?.value {
        Value::Map(entries) => entries
            .iter()
            .find(|(k, _)| k.value.scalar_text().as_deref() == Some(id))
            .map(|(k, _)| k.loc),
        _ => None,
    }
}

/// Sets (or with `None` removes) the value at `segs` below `cur`, creating
/// mappings on the way. `link` is true where `cur` is a link item;
/// `links_here` where `cur` holds link fields (a component).
fn set_at(
    cur: &mut Node,
    segs: &[(Seg, Loc)],
    value: Option<&Node>,
    link: bool,
    links_here: bool,
    path: &mut String,
) -> Result<(), Diagnostic> {
    let (seg, loc) = &segs[0];
    let last = segs.len() == 1;
    match seg {
        Seg::Key(k) => {
            if cur.value == Value::Null {
                cur.value = Value::Map(Vec::new());
            }
            if link && matches!(cur.value, Value::Str(_)) {
                // `sends_to: queue` becomes `sends_to: {to: queue}`.
                let to = Node {
                    value: Value::Str("to".into()),
                    loc: cur.loc,
                };
                let old = std::mem::replace(
                    cur,
                    Node {
                        value: Value::Map(Vec::new()),
                        loc: cur.loc,
                    },
                );
                cur.value = Value::Map(vec![(to, old)]);
            }
            let found = match &cur.value {
                Value::Map(entries) => entries
                    .iter()
                    .position(|(key, _)| key.value.scalar_text().as_deref() == Some(k)),
                other => {
                    return Err(Diagnostic::at(
                        *loc,
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
            if last {
                match (value, found) {
                    (Some(v), Some(j)) => entries[j].1 = v.clone(),
                    (Some(v), None) => entries.push((
                        Node {
                            value: Value::Str(k.clone()),
                            loc: *loc,
                        },
                        v.clone(),
                    )),
                    (None, Some(j)) => {
                        entries.remove(j);
                    }
                    (None, None) => {
                        return Err(Diagnostic::at(
                            *loc,
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
                    entries.push((
                        Node {
                            value: Value::Str(k.clone()),
                            loc: *loc,
                        },
                        Node {
                            value: Value::Null,
                            loc: *loc,
                        },
                    ));
                    entries.len() - 1
                }
            };
            let is_link = links_here && LINK_FIELDS.contains(&k.as_str());
            set_at(&mut entries[j].1, &segs[1..], value, is_link, false, path)
        }
        Seg::Index(n) => {
            let n = *n;
            match &mut cur.value {
                Value::Seq(items) => {
                    if n >= items.len() {
                        return Err(Diagnostic::at(
                            *loc,
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
                    set_at(&mut items[n], &segs[1..], value, link, false, path)
                }
                Value::Null => Err(Diagnostic::at(
                    *loc,
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
                                *loc,
                                format!("`{path}` is the only item: unset the field itself"),
                            )
                            .label("only item")),
                        };
                    }
                    set_at(cur, &segs[1..], value, link, false, path)
                }
                other => Err(Diagnostic::at(
                    *loc,
                    format!(
                        "`{path}` is {}, not a list: [{n}] is out of range",
                        other.type_name()
                    ),
                )
                .label("not a list")),
            }
        }
    }
}

/// The value at `segs`, if set (a link written as an id has only `to`).
fn get_at<'n>(cur: &'n Node, segs: &[(Seg, Loc)]) -> Option<&'n Node> {
    let Some(((seg, _), rest)) = segs.split_first() else {
        return Some(cur);
    };
    match (seg, &cur.value) {
        (Seg::Key(k), Value::Str(_)) if k == "to" => get_at(cur, rest),
        (Seg::Key(k), _) => get_at(map_get(cur, k)?, rest),
        (Seg::Index(n), Value::Seq(items)) => get_at(items.get(*n)?, rest),
        (Seg::Index(0), Value::Null) => None,
        (Seg::Index(0), _) => get_at(cur, rest),
        _ => None,
    }
}

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

/// `target: old → new`, one a line.
pub fn render_changes(changes: &[Change]) -> String {
    if changes.is_empty() {
        return "no changes\n".into();
    }
    changes
        .iter()
        .map(|c| format!("  {}: {} → {}\n", c.target, show(&c.old), show(&c.new)))
        .collect()
}

/// The changes against the files, like a unified diff.
pub fn render_diff(sources: &SourceMap, files: &[&str], changes: &[Change]) -> String {
    if changes.is_empty() {
        return "no changes\n".into();
    }
    let mut s = format!(
        "--- {}\n+++ with {} change{}\n",
        files.join(" "),
        changes.len(),
        if changes.len() == 1 { "" } else { "s" }
    );
    for c in changes {
        let at = c
            .loc
            .map(|l| format!(" {}:{}", sources.path(l), l.line))
            .unwrap_or_default();
        s.push_str(&format!(
            "@@ {} @@{at}\n-{}\n+{}\n",
            c.target,
            show(&c.old),
            show(&c.new)
        ));
    }
    s
}

/// Findings before and after a change, matched by identity.
#[derive(Debug, Clone, Default)]
pub struct Delta {
    pub resolved: Vec<Finding>,
    pub introduced: Vec<Finding>,
    /// (before, after)
    pub unchanged: Vec<(Finding, Finding)>,
}

/// Matches findings by `Finding::fingerprint()` (code, intent, component):
/// first with the same message, then with the same path, then any, so a
/// finding whose numbers changed is the same finding.
pub fn compare(old: &[Finding], new: &[Finding]) -> Delta {
    let mut taken = vec![false; new.len()];
    let mut matched: Vec<Option<usize>> = vec![None; old.len()];
    type Same = dyn Fn(&Finding, &Finding) -> bool;
    let passes: [&Same; 3] = [
        &|a, b| a.message == b.message,
        &|a, b| a.path == b.path,
        &|_, _| true,
    ];
    // New findings by fingerprint, so matching stays linear on large
    // architectures (thousands of findings).
    let mut by_fp: std::collections::HashMap<String, Vec<usize>> = std::collections::HashMap::new();
    for (j, f) in new.iter().enumerate() {
        by_fp.entry(f.fingerprint()).or_default().push(j);
    }
    let old_fp: Vec<String> = old.iter().map(Finding::fingerprint).collect();
    for same in passes {
        for (i, o) in old.iter().enumerate() {
            if matched[i].is_some() {
                continue;
            }
            let Some(cands) = by_fp.get(&old_fp[i]) else {
                continue;
            };
            if let Some(&j) = cands.iter().find(|&&j| !taken[j] && same(o, &new[j])) {
                taken[j] = true;
                matched[i] = Some(j);
            }
        }
    }
    let mut d = Delta::default();
    let mut back = vec![None; new.len()];
    for (i, m) in matched.iter().enumerate() {
        match m {
            Some(j) => back[*j] = Some(i),
            None => d.resolved.push(old[i].clone()),
        }
    }
    for (j, f) in new.iter().enumerate() {
        match back[j] {
            Some(i) => d.unchanged.push((old[i].clone(), f.clone())),
            None => d.introduced.push(f.clone()),
        }
    }
    d
}

impl Delta {
    /// Whether any finding that remains is at or above `threshold`.
    pub fn fails(&self, threshold: Severity) -> bool {
        self.introduced
            .iter()
            .chain(self.unchanged.iter().map(|(_, n)| n))
            .any(|f| f.fails(threshold))
    }
}

fn dur(d: Option<Dur>) -> String {
    d.map_or_else(|| "none".to_string(), |d| d.to_string())
}

fn finding_line(f: &Finding) -> String {
    format!(
        "{:<7} {} {} — {}{}",
        f.severity.name(),
        f.rule.code,
        f.rule.name,
        f.scope(),
        if f.waived.is_some() { " (waived)" } else { "" }
    )
}

fn numbers(before: Option<&Finding>, f: &Finding) -> String {
    let pair = |a: Option<Dur>, b: Option<Dur>| {
        if a == b {
            dur(b)
        } else {
            format!("{} → {}", dur(a), dur(b))
        }
    };
    if f.horizon.is_none()
        && f.window.is_none()
        && before.is_none_or(|b| b.horizon.is_none() && b.window.is_none())
    {
        return String::new();
    }
    match before {
        Some(b) => format!(
            "\n          horizon {}, window {}",
            pair(b.horizon, f.horizon),
            pair(b.window, f.window)
        ),
        None => format!(
            "\n          horizon {}, window {}",
            dur(f.horizon),
            dur(f.window)
        ),
    }
}

/// `what-if` as text: changes, then resolved, introduced and unchanged findings.
pub fn render_text(changes: &[Change], d: &Delta) -> String {
    let mut s = format!("changes:\n{}", render_changes(changes));
    let mut section = |title: &str, items: Vec<(Option<&Finding>, &Finding)>| {
        if items.is_empty() {
            s.push_str(&format!("{title}: none\n"));
            return;
        }
        s.push_str(&format!("{title} ({}):\n", items.len()));
        for (before, f) in items {
            s.push_str(&format!(
                "  {}{}\n          {}\n",
                finding_line(f),
                numbers(before, f),
                f.message
            ));
        }
    };
    section("resolved", d.resolved.iter().map(|f| (None, f)).collect());
    section(
        "introduced",
        d.introduced.iter().map(|f| (None, f)).collect(),
    );
    section(
        "unchanged",
        d.unchanged.iter().map(|(b, f)| (Some(b), f)).collect(),
    );
    s
}

#[derive(Debug, Serialize)]
struct JsonUnchanged {
    #[serde(flatten)]
    finding: JsonFinding,
    /// The numbers before the change (the finding shows those after it).
    previous_horizon_seconds: Option<u64>,
    previous_window_seconds: Option<u64>,
}

/// `what-if --format json` (cli.md). Resolved findings are located in the
/// files before the change, the others after it.
pub fn render_json(before: &SourceMap, after: &SourceMap, changes: &[Change], d: &Delta) -> String {
    #[derive(Serialize)]
    struct Out<'a> {
        version: u32,
        changes: &'a [Change],
        resolved: Vec<JsonFinding>,
        introduced: Vec<JsonFinding>,
        unchanged: Vec<JsonUnchanged>,
    }
    let out = Out {
        version: 1,
        changes,
        resolved: d
            .resolved
            .iter()
            .map(|f| JsonFinding::from(before, f))
            .collect(),
        introduced: d
            .introduced
            .iter()
            .map(|f| JsonFinding::from(after, f))
            .collect(),
        unchanged: d
            .unchanged
            .iter()
            .map(|(b, f)| JsonUnchanged {
                finding: JsonFinding::from(after, f),
                previous_horizon_seconds: b.horizon.and_then(Dur::secs),
                previous_window_seconds: b.window.and_then(Dur::secs),
            })
            .collect(),
    };
    serde_json::to_string_pretty(&out).expect("serialises") + "\n"
}

/// Minimum safe retention of one dedup layer for one intent.
#[derive(Debug, Clone, Serialize)]
pub struct RequiredRow {
    pub intent: String,
    /// The component whose window applies (store, ledger, transport, provider).
    pub component: String,
    /// guard store | unique constraint | provider key window | transport dedup window
    pub layer: &'static str,
    /// Where the layer acts (the guard for a store).
    pub at: String,
    /// The latest age at which a copy it must recognise arrives.
    pub horizon_seconds: Option<u64>,
    pub window_seconds: Option<u64>,
    pub required_retention_seconds: Option<u64>,
    /// covered | thin-margin | expires-first | unbounded
    pub verdict: &'static str,
    /// When the horizon is unbounded: what would bound it.
    pub bounded_by: Vec<String>,
    #[serde(skip)]
    pub horizon: Dur,
    #[serde(skip)]
    pub window: Dur,
}

/// For every dedup layer an intent reaches, the smallest retention that
/// leaves no RH001, RH002 or RH004 about it under the margin policy.
pub fn required(a: &Analysis, intent: Option<&str>, at: Option<&str>) -> Vec<RequiredRow> {
    let mut out = Vec::new();
    each_required(a, intent, at, &mut |r| {
        out.push(r);
        Ok(())
    })
    .expect("collecting rows does not fail");
    out
}

/// The rows of [`required`], one at a time as they are made.
pub fn each_required(
    a: &Analysis,
    intent: Option<&str>,
    at: Option<&str>,
    emit: &mut dyn FnMut(RequiredRow) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let m = a.manifest;
    let edges = crate::analysis::long_path::first_unbounded_edges(a);
    for r in &a.intents {
        let i = &m.intents[r.intent];
        if intent.is_some_and(|x| x != i.id) {
            continue;
        }
        let mut index = None;
        for l in r.layers.values() {
            let comp = &m.components[l.layer.component].id;
            let at_id = &m.components[l.at].id;
            if at.is_some_and(|x| x != comp && x != at_id) {
                continue;
            }
            // A layer no recognisable copy reaches needs only the horizon of
            // the original at it (nothing it could stop arrives later).
            let h = l
                .reach
                .unwrap_or_else(|| r.horizons.get(&l.at).copied().unwrap_or(Dur::ZERO));
            let need = required_window(h);
            let window = l.layer.window.value;
            let verdict = if h.is_unbounded() {
                if window.is_unbounded() {
                    "covered"
                } else {
                    "unbounded"
                }
            } else if window >= need {
                "covered"
            } else if window >= h {
                "thin-margin"
            } else {
                "expires-first"
            };
            let bounded_by = if h.is_unbounded() {
                let index = index.get_or_insert_with(|| r.path_index(a));
                bounds(a, r, &edges, index.unbounded_steps(l.at))
            } else {
                Vec::new()
            };
            emit(RequiredRow {
                intent: i.id.clone(),
                component: comp.clone(),
                layer: l.layer.label,
                at: at_id.clone(),
                horizon_seconds: h.secs(),
                window_seconds: window.secs(),
                required_retention_seconds: need.secs(),
                verdict,
                bounded_by,
                horizon: h,
                window,
            })?;
        }
    }
    Ok(())
}

/// What would bound an unbounded worst path: its unbounded steps (the last
/// [`long_path::UNBOUNDED_SHOWN`] of them, and how many in all), each with
/// the field that bounds it.
fn bounds(
    a: &Analysis,
    r: &IntentResult,
    edges: &HashMap<(usize, usize), usize>,
    (steps, total): (Vec<(Step, Option<usize>)>, usize),
) -> Vec<String> {
    let m = a.manifest;
    let id = |c: usize| m.components[c].id.as_str();
    let mut out = Vec::new();
    if let Some(e) = r.unbounded_cycle {
        let em = &a.model.edges[e];
        out.push(format!(
            "`max_times` on the redrive `{}` → `{}` (the cycle repeats without a bound)",
            id(em.from),
            id(em.to)
        ));
    }
    for (s, _) in &steps {
        let edge = edges.get(&(s.from, s.to)).map(|&e| &a.model.edges[e]);
        let text = match edge.map(|e| e.ty) {
            Some(LinkType::Redrive) => {
                format!(
                    "`within` on the redrive `{}` → `{}` (or a finite `retention` on `{}`)",
                    id(s.from),
                    id(s.to),
                    id(s.from)
                )
            }
            Some(LinkType::DeliversTo | LinkType::DeadLetter) => {
                format!(
                    "`max_backlog` on `{}` (or a finite `retention`)",
                    id(s.from)
                )
            }
            Some(LinkType::SendsTo) => {
                format!(
                    "`max_backlog` or a finite `max_event_age` on `{}`",
                    id(s.to)
                )
            }
            Some(t) => format!(
                "a bound on the `{}` link `{}` → `{}`: {}",
                t.field(),
                id(s.from),
                id(s.to),
                s.why
            ),
            _ if s.why.starts_with("replay") => format!(
                "a finite `within` on the {} ",
                s.why.split(" enters").next().unwrap_or("replay")
            )
            .trim_end()
            .to_string(),
            _ => format!("a bound on `{}` → `{}`: {}", id(s.from), id(s.to), s.why),
        };
        if !out.contains(&text) {
            out.push(text);
        }
    }
    if total > steps.len() {
        out.push(format!(
            "bounds on the {} earlier unbounded steps of the worst path too",
            crate::report::horizon::thousands(total - steps.len())
        ));
    }
    if out.is_empty() {
        out.push(
            "a declared bound on the worst path (`max_times`, `max_backlog` or `within`)".into(),
        );
    }
    out
}

pub fn render_required_text(rows: &[RequiredRow]) -> String {
    let mut s = String::new();
    let mut current = None;
    for r in rows {
        required_row_text(r, &mut current, &mut s);
    }
    if rows.is_empty() {
        s.push_str("No dedup layer is reached.\n");
    }
    s
}

/// `horizon --required` as text, written row by row as the rows are made.
pub fn write_required_text(
    a: &Analysis,
    intent: Option<&str>,
    at: Option<&str>,
    w: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let (mut current, mut rows) = (None, 0);
    each_required(a, intent, at, &mut |r| {
        let mut s = String::new();
        required_row_text(&r, &mut current, &mut s);
        rows += 1;
        w.write_all(s.as_bytes())
    })?;
    if rows == 0 {
        w.write_all(b"No dedup layer is reached.\n")?;
    }
    Ok(())
}

/// One row of `horizon --required`, after an `intent` line when the
/// intent is not `current`'s.
fn required_row_text(r: &RequiredRow, current: &mut Option<String>, s: &mut String) {
    if current.as_ref() != Some(&r.intent) {
        s.push_str(&format!("intent {}\n", r.intent));
        *current = Some(r.intent.clone());
    }
    let via = if r.at == r.component {
        String::new()
    } else {
        format!(" via `{}`", r.at)
    };
    s.push_str(&format!("  {} ({}{via}): ", r.component, r.layer));
    if r.horizon.is_unbounded() {
        if r.window.is_unbounded() {
            s.push_str("horizon unbounded, window unbounded — covered\n");
            return;
        }
        s.push_str(&format!(
            "horizon unbounded, window {}: no retention is long enough\n",
            r.window
        ));
        for b in &r.bounded_by {
            s.push_str(&format!("      bound it with {b}\n"));
        }
        return;
    }
    let need = required_window(r.horizon);
    s.push_str(&format!(
        "minimum safe retention {need} (horizon {} + margin {}), window {} — {}\n",
        r.horizon,
        margin(r.horizon),
        r.window,
        r.verdict
    ));
}

pub fn render_required_json(rows: &[RequiredRow]) -> String {
    let mut out = Vec::new();
    let mut w = crate::report::horizon::JsonWriter::new(&mut out, "required").expect("in memory");
    for r in rows {
        w.row(r).expect("in memory");
    }
    w.finish().expect("in memory");
    String::from_utf8(out).expect("JSON is UTF-8")
}

/// `horizon --required --format json`, written row by row.
pub fn write_required_json(
    a: &Analysis,
    intent: Option<&str>,
    at: Option<&str>,
    w: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let mut jw = crate::report::horizon::JsonWriter::new(w, "required")?;
    each_required(a, intent, at, &mut |r| jw.row(&r))?;
    jw.finish()
}

/// Loads files with an overrides file applied (`check --overrides`).
pub fn load_with_overrides(
    paths: &[PathBuf],
    overrides: &Path,
    limits: &Limits,
) -> Result<Manifest, LoadError> {
    let mut s = Session::open(paths, limits)?;
    s.build(&[])?;
    let o = s.read_overrides(overrides)?;
    Ok(s.build(&o)?.manifest)
}

#[cfg(test)]
mod tests {
    use super::*;

    const M: &str = "version: 1\nintents:\n  pay:\n    origin: api\n    effect: bank\ncomponents:\n  api:\n    kind: service\n    sends_to: q\n  q:\n    kind: sqs-standard\n    delivers_to: w\n  w:\n    kind: function\n    dedup: {store: keys, claim: conditional-write}\n    effects: [bank]\n  keys:\n    kind: dynamodb-table\n    retention: 1h\n  bank:\n    kind: external\n";

    fn session() -> Session {
        Session::from_texts(vec![("m.yaml".into(), M.into())], &Limits::default()).unwrap()
    }

    fn set(s: &mut Session, arg: &str) -> Result<Built, String> {
        let o = s.parse_set("--set", arg).map_err(|e| e.render(false))?;
        s.build(&[o]).map_err(|e| e.render(false))
    }

    #[test]
    fn sets_a_field_and_reports_old_and_new() {
        let mut s = session();
        let b = set(&mut s, "keys.retention=2d").unwrap();
        assert_eq!(
            b.changes,
            vec![Change {
                target: "keys.retention".into(),
                old: Some("1h".into()),
                new: Some("2d".into()),
                loc: b.changes[0].loc
            }]
        );
        assert_eq!(
            b.manifest
                .component("keys")
                .unwrap()
                .retention()
                .unwrap()
                .value,
            Dur::Secs(172_800)
        );
    }

    #[test]
    fn a_link_written_as_an_id_becomes_a_mapping() {
        let mut s = session();
        let b = set(&mut s, "api.sends_to[0].retry.attempts=5").unwrap();
        let l = &b.manifest.component("api").unwrap().sends_to[0];
        assert_eq!(l.to.value, "q");
        assert_eq!(
            l.retry.as_ref().unwrap().attempts.as_ref().unwrap().value,
            5
        );
        assert_eq!(b.changes[0].old, None);
        // The shorthand names the only link that retries.
        let b = set(&mut s, "q.retry.attempts=4").unwrap();
        assert_eq!(b.changes[0].target, "q.delivers_to.retry.attempts");
    }

    #[test]
    fn errors_are_the_loaders_with_suggestions() {
        let mut s = session();
        let e = set(&mut s, "kyes.retention=2d").unwrap_err();
        assert!(
            e.contains("no intent, component or region `kyes`")
                && e.contains("did you mean `keys`?"),
            "{e}"
        );
        let e = set(&mut s, "keys.retentoin=2d").unwrap_err();
        assert!(
            e.contains("unknown field `retentoin` in `components.keys`")
                && e.contains("did you mean `retention`?"),
            "{e}"
        );
        let e = set(&mut s, "keys.retention=2x").unwrap_err();
        assert!(
            e.contains("`components.keys.retention`: `2x` is not a duration"),
            "{e}"
        );
        assert!(e.contains("--set:1:16"), "{e}");
    }

    #[test]
    fn unset_removes_and_flow_round_trips() {
        let mut s = session();
        let o = s.parse_unset("--unset", "keys.retention");
        let b = s.build(&[o]).unwrap();
        assert_eq!(b.changes[0].new, None);
        assert_eq!(quote("1h 30m"), "1h 30m");
        assert_eq!(quote("true"), "\"true\"");
        assert_eq!(quote("a[0].b"), "\"a[0].b\"");
    }
}
