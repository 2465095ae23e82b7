//! The session: the manifest files parsed once into YAML trees, copies of
//! those trees with overrides applied ([`Edited`]), and the manifest read
//! back from a copy with the list of what changed ([`Built`]).

use std::collections::{BTreeMap, HashSet};

use super::target::{Ids, Section, Target, resolve};
use super::tree::{Holder, element, element_key_loc, element_mut, get_at, set_at};
use super::{Change, Override, flow};
use crate::diagnostics::{Diagnostic, SourceFile, SourceMap};
use crate::manifest::load;
use crate::manifest::yaml::{Limits, Node, Value};
use crate::manifest::{LoadError, Manifest};

/// The manifest files parsed once, plus the sources of every change made
/// since (append-only, so a change keeps its locations after `undo`).
#[derive(Debug, Clone)]
pub struct Session {
    base_sources: SourceMap,
    base_trees: Vec<Node>,
    pub(super) limits: Limits,
    extra: Vec<SourceFile>,
    ids: Ids,
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
                }) = tree.get(section.key())
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
                false => SourceFile::default(),
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

    /// Keeps the text of a change as a source of its own; its file number.
    pub(super) fn add_source(&mut self, name: &str, text: &str) -> u32 {
        self.extra
            .push(SourceFile::new(name.to_string(), text.to_string()));
        (self.base_sources.files.len() + self.extra.len() - 1) as u32
    }

    /// `d` as an error of the session, with every source to show it.
    pub(super) fn error(&self, d: Diagnostic) -> LoadError {
        LoadError {
            sources: self.sources(),
            diagnostics: vec![d],
        }
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
        let t = resolve(&self.ids, &e.trees, &o.target, o.loc)?;
        let section = t.section;
        let Some(node) = element_mut(&mut e.trees[t.file], section, &t.id) else {
            return Ok(());
        };
        let mut path = format!("{}.{}", section.key(), t.id);
        let holder = match section {
            Section::Components => Holder::Component,
            Section::Intents | Section::Regions => Holder::Plain,
        };
        set_at(node, &t.segs, o.value.as_ref(), holder, &mut path)?;
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
        let manifest = crate::manifest::validated(load::load_nodes(sources, trees))?;
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
}
