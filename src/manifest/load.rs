//! Reading manifest files into the typed model, collecting every error.
//!
//! Each file is parsed into a span-carrying tree (`yaml.rs`) and read field
//! by field. A wrong field does not stop the reading of the others, so one
//! run reports all the errors of all the files.

use std::path::{Path, PathBuf};

use crate::diagnostics::{Diagnostic, Loc, SourceMap, suggest};
use crate::files::Origin;
use crate::manifest::model::*;
use crate::manifest::vocabulary::{self, Obj};
use crate::manifest::yaml::{self, Limits, Node, Piece, Value};
use crate::time::Dur;

/// Manifest files named by the user: files as given, folders walked for
/// `*.yaml` / `*.yml` (sorted, without following symbolic links).
pub fn discover(paths: &[PathBuf]) -> Result<Vec<PathBuf>, Vec<Diagnostic>> {
    Ok(discover_inputs(paths)?
        .into_iter()
        .map(|(p, _)| p)
        .collect())
}

/// [`discover`] with how each file came about: [`Origin::Given`] for a
/// file named by the user (read through a link), [`Origin::Found`] for one
/// found under a folder (never read through a link, see [`read_input`]).
pub fn discover_inputs(paths: &[PathBuf]) -> Result<Vec<(PathBuf, Origin)>, Vec<Diagnostic>> {
    let mut files = Vec::new();
    let mut errors = Vec::new();
    for p in paths {
        match std::fs::metadata(p) {
            Ok(m) if m.is_dir() => {
                let mut found = Vec::new();
                walk(p, &mut found, &mut errors, 0);
                files.extend(found.into_iter().map(|f| (f, Origin::Found)));
            }
            Ok(_) => files.push((p.clone(), Origin::Given)),
            Err(e) => errors.push(
                Diagnostic::new(
                    None,
                    format!("cannot read `{}`: {}", p.display(), io_reason(&e)),
                )
                .help("check the path; give manifest files or folders holding *.yaml files"),
            ),
        }
    }
    if files.is_empty() && errors.is_empty() {
        errors.push(
            Diagnostic::new(None, "no manifest files found")
                .help("a folder is read for *.yaml and *.yml files below it"),
        );
    }
    if errors.is_empty() {
        Ok(files)
    } else {
        Err(errors)
    }
}

const MAX_WALK_DEPTH: usize = 32;

fn walk(dir: &Path, files: &mut Vec<PathBuf>, errors: &mut Vec<Diagnostic>, depth: usize) {
    if depth > MAX_WALK_DEPTH {
        errors.push(Diagnostic::new(
            None,
            format!(
                "`{}` is nested more than {MAX_WALK_DEPTH} folders deep",
                dir.display()
            ),
        ));
        return;
    }
    let mut entries: Vec<PathBuf> = match std::fs::read_dir(dir) {
        Ok(rd) => rd.filter_map(|e| e.ok().map(|e| e.path())).collect(),
        Err(e) => {
            errors.push(Diagnostic::new(
                None,
                format!("cannot read folder `{}`: {}", dir.display(), io_reason(&e)),
            ));
            return;
        }
    };
    entries.sort();
    for path in entries {
        // Symbolic links are never followed: a folder scan stays in the folder.
        let Ok(meta) = std::fs::symlink_metadata(&path) else {
            continue;
        };
        if meta.file_type().is_symlink() {
            continue;
        }
        if meta.is_dir() {
            walk(&path, files, errors, depth + 1);
        } else if matches!(
            path.extension().and_then(|e| e.to_str()),
            Some("yaml" | "yml")
        ) {
            files.push(path);
        }
    }
}

use crate::files::io_reason;

/// What reading produced: the manifest (partial when there were errors),
/// every error, and every id defined (even where its body had errors).
pub struct Loaded {
    pub manifest: Manifest,
    pub errors: Vec<Diagnostic>,
    pub defined: crate::hash::IdSet<String>,
}

/// Reads files into one manifest; `Err` carries the errors that stopped
/// reading (unreadable files), `Ok` the manifest and its other errors.
pub fn load_files(
    paths: &[PathBuf],
    limits: &Limits,
) -> Result<Loaded, (SourceMap, Vec<Diagnostic>)> {
    let files = discover_inputs(paths).map_err(|e| (SourceMap::default(), e))?;
    let mut texts = Vec::new();
    let mut errors = Vec::new();
    for (f, origin) in &files {
        match read_input(f, *origin, limits) {
            Ok(t) => texts.push((f.display().to_string(), t)),
            Err(d) => errors.push(d),
        }
    }
    if !errors.is_empty() {
        return Err((SourceMap::default(), errors));
    }
    Ok(load_texts(texts, limits))
}

/// Reads one file named by the user as UTF-8 text under the size limit
/// ([`crate::files::read`]: bounded, text only; links followed).
pub fn read_text(path: &Path, limits: &Limits) -> Result<String, Diagnostic> {
    crate::files::read_given(path, limits.max_file_bytes)
}

/// Reads one file of [`discover_inputs`]: a file found under a folder is
/// never read through a symbolic link.
pub fn read_input(path: &Path, origin: Origin, limits: &Limits) -> Result<String, Diagnostic> {
    crate::files::read(path, origin, limits.max_file_bytes)
}

/// Reads already loaded texts (file name, content) into one manifest.
pub fn load_texts(texts: Vec<(String, String)>, limits: &Limits) -> Loaded {
    load_texts_merging(
        texts.into_iter().map(|(p, t)| (p, t, false)).collect(),
        limits,
    )
}

/// Like [`load_texts`], for `check` given imported infrastructure: texts
/// flagged `true` were generated by `import`. A component or region defined
/// in an imported text may be defined again in another text; the later
/// definition extends the imported one field by field (its fields win)
/// instead of being a "defined twice" error.
pub fn load_texts_merging(texts: Vec<(String, String, bool)>, limits: &Limits) -> Loaded {
    if !texts.iter().any(|(_, _, imported)| *imported) {
        return stream_texts(texts.into_iter().map(|(p, t, _)| (p, t)), limits);
    }
    let (sources, nodes, mut errors) = parse_merging(texts, limits);
    let mut r = Reader::default();
    let mut out = Collected::default();
    for (file, node) in &nodes {
        r.tree(*file, node, &mut out);
    }
    errors.append(&mut r.errors);
    r.errors = errors;
    out.finish(sources, r)
}

/// Reads texts into the typed model straight from the parser, one section
/// entry at a time: the tree of a whole file is never built, so memory stays
/// near the size of the text and the model.
fn stream_texts(texts: impl IntoIterator<Item = (String, String)>, limits: &Limits) -> Loaded {
    let mut sources = SourceMap::default();
    let mut r = Reader::default();
    let mut out = Collected::default();
    for (path, text) in texts {
        let file = sources.add(path, text);
        let mut doc = Doc::new(file);
        let mut read = Collected::default();
        let before = r.errors.len();
        let parsed = yaml::stream(
            &sources.files[file as usize].text,
            file,
            limits,
            SECTIONS,
            &mut |p| r.piece(p, &mut doc, &mut read),
        );
        match parsed {
            Ok(()) => {
                r.end_doc(&doc);
                out.append(read);
            }
            Err(d) => {
                // As if the file had not been read at all: its YAML error
                // alone, and none of its ids.
                r.errors.truncate(before);
                r.ids.retain(|_, (loc, _)| loc.file != file);
                r.errors.push(d);
            }
        }
    }
    out.finish(sources, r)
}

/// Parses texts (name, content, imported) into trees, each with its file
/// number, and moves the entries of other texts that extend an imported
/// component or region into it ([`merge_section`]). A file with a YAML error
/// has no tree; its error is returned.
pub fn parse_merging(
    texts: Vec<(String, String, bool)>,
    limits: &Limits,
) -> (SourceMap, Vec<(u32, Node)>, Vec<Diagnostic>) {
    let mut sources = SourceMap::default();
    let mut errors = Vec::new();
    let mut nodes: Vec<(u32, bool, Node)> = Vec::new();
    for (path, text, imported) in texts {
        let file = sources.add(path, text);
        match yaml::parse(&sources.files[file as usize].text, file, limits) {
            Ok(node) => nodes.push((file, imported, node)),
            Err(d) => errors.push(d),
        }
    }
    for section in ["components", "regions"] {
        merge_section(&mut nodes, section);
    }
    let nodes = nodes.into_iter().map(|(f, _, n)| (f, n)).collect();
    (sources, nodes, errors)
}

/// Moves the entries of `section` that extend an imported entry of the same
/// id into it: overlay fields replace imported fields of the same name.
fn merge_section(nodes: &mut [(u32, bool, Node)], section: &str) {
    fn section_map<'a>(node: &'a mut Node, section: &str) -> Option<&'a mut Vec<(Node, Node)>> {
        let Value::Map(top) = &mut node.value else {
            return None;
        };
        let (_, v) = top
            .iter_mut()
            .find(|(k, _)| k.value.scalar_text().as_deref() == Some(section))?;
        match &mut v.value {
            Value::Map(m) => Some(m),
            _ => None,
        }
    }
    if !nodes.iter().any(|(_, imp, _)| *imp) {
        return;
    }
    let mut overlay_entries: Vec<(String, Node)> = Vec::new();
    let imported_ids: std::collections::HashSet<String> = nodes
        .iter_mut()
        .filter(|(_, imp, _)| *imp)
        .filter_map(|(_, _, n)| section_map(n, section))
        .flat_map(|m| {
            m.iter()
                .filter_map(|(k, _)| k.value.scalar_text())
                .collect::<Vec<_>>()
        })
        .collect();
    for (_, _, n) in nodes.iter_mut().filter(|(_, imp, _)| !*imp) {
        if let Some(m) = section_map(n, section) {
            let mut i = 0;
            while i < m.len() {
                match m[i].0.value.scalar_text() {
                    Some(id) if imported_ids.contains(&id) => {
                        overlay_entries.push((id, m.remove(i).1))
                    }
                    _ => i += 1,
                }
            }
        }
    }
    for (id, overlay) in overlay_entries {
        for (_, _, n) in nodes.iter_mut().filter(|(_, imp, _)| *imp) {
            let Some(m) = section_map(n, section) else {
                continue;
            };
            let Some((_, base)) = m
                .iter_mut()
                .find(|(k, _)| k.value.scalar_text().as_deref() == Some(id.as_str()))
            else {
                continue;
            };
            match (&mut base.value, overlay.value.clone()) {
                (Value::Map(fields), Value::Map(extra)) => {
                    for (k, v) in extra {
                        let name = k.value.scalar_text();
                        match fields
                            .iter_mut()
                            .find(|(bk, _)| bk.value.scalar_text() == name)
                        {
                            Some(slot) => *slot = (k, v),
                            None => fields.push((k, v)),
                        }
                    }
                }
                (_, Value::Null) => {}
                _ => *base = overlay.clone(),
            }
            break;
        }
    }
}

/// Parses already loaded texts (file name, content) into span-carrying
/// trees without reading the typed model: `trees[i]` is file `i` of the
/// returned map. `what-if` edits these trees and then calls [`load_nodes`],
/// so the YAML is parsed once however many times the model is rebuilt.
pub fn parse_texts(
    texts: Vec<(String, String)>,
    limits: &Limits,
) -> Result<(SourceMap, Vec<Node>), (SourceMap, Vec<Diagnostic>)> {
    let mut sources = SourceMap::default();
    let mut trees = Vec::new();
    let mut errors = Vec::new();
    for (path, text) in texts {
        let file = sources.add(path, text);
        match yaml::parse(&sources.files[file as usize].text, file, limits) {
            Ok(node) => trees.push(node),
            Err(d) => errors.push(d),
        }
    }
    if errors.is_empty() {
        Ok((sources, trees))
    } else {
        Err((sources, errors))
    }
}

/// [`parse_texts`] for files and folders, as [`load_files`] reads them.
pub fn parse_files(
    paths: &[PathBuf],
    limits: &Limits,
) -> Result<(SourceMap, Vec<Node>), (SourceMap, Vec<Diagnostic>)> {
    let files = discover_inputs(paths).map_err(|e| (SourceMap::default(), e))?;
    let mut texts = Vec::new();
    let mut errors = Vec::new();
    for (f, origin) in &files {
        match read_input(f, *origin, limits) {
            Ok(t) => texts.push((f.display().to_string(), t)),
            Err(d) => errors.push(d),
        }
    }
    if !errors.is_empty() {
        return Err((SourceMap::default(), errors));
    }
    parse_texts(texts, limits)
}

/// Reads the typed model from parsed trees: `trees[i]` is read as file `i`
/// of `sources` (locations in the trees may point at any file of the map).
pub fn load_nodes(sources: SourceMap, trees: &[Node]) -> Loaded {
    let mut r = Reader::default();
    let mut out = Collected::default();
    for (file, node) in trees.iter().enumerate() {
        r.tree(file as u32, node, &mut out);
    }
    out.finish(sources, r)
}

/// The sections read entry by entry (ids to settings).
const SECTIONS: &[&str] = vocabulary::SECTIONS;

/// What the files read so far add up to. Ids are unique (the reader
/// refuses a second definition), so sorting by id at the end gives the
/// model's order; an unstable sort works in place, where collecting a map
/// into a vector would hold every component twice.
#[derive(Default)]
struct Collected {
    name: Option<String>,
    regions: Vec<Region>,
    intents: Vec<Intent>,
    components: Vec<Component>,
}

impl Collected {
    fn append(&mut self, mut other: Collected) {
        if let Some(n) = other.name {
            self.name.get_or_insert(n);
        }
        self.regions.append(&mut other.regions);
        self.intents.append(&mut other.intents);
        self.components.append(&mut other.components);
    }

    fn finish(mut self, sources: SourceMap, r: Reader) -> Loaded {
        self.regions.sort_unstable_by(|a, b| a.id.cmp(&b.id));
        self.intents.sort_unstable_by(|a, b| a.id.cmp(&b.id));
        self.components.sort_unstable_by(|a, b| a.id.cmp(&b.id));
        self.components.shrink_to_fit();
        self.intents.shrink_to_fit();
        Loaded {
            manifest: Manifest {
                sources,
                name: self.name,
                regions: self.regions,
                intents: self.intents,
                components: self.components,
            },
            errors: r.errors,
            defined: r.ids.into_keys().collect(),
        }
    }
}

/// Where the reading of one document stands.
struct Doc {
    file: u32,
    /// The section whose entries are being read (index into `SECTIONS`).
    section: usize,
    version: bool,
    /// The document was reported as a whole (empty, not a mapping).
    reported: bool,
    /// The first key, where a missing `version` is reported.
    first: Option<Loc>,
}

impl Doc {
    fn new(file: u32) -> Self {
        Doc {
            file,
            section: 0,
            version: false,
            reported: false,
            first: None,
        }
    }
}

/// Where each id was first defined, across files and kinds of element.
#[derive(Default)]
pub(crate) struct Reader {
    pub errors: Vec<Diagnostic>,
    ids: crate::hash::IdMap<String, (Loc, &'static str)>,
}

// The lists of known fields come from the vocabulary (re-exported here for
// the modules that import them from the loader).
pub(crate) use crate::manifest::vocabulary::{
    BACKUP_FIELDS, COMPONENT_FIELDS, GUARD_FIELDS, IN_PROGRESS_FIELDS, INTENT_FIELDS, KEY_FIELDS,
    REGION_FIELDS, REPLAY_FIELDS, RETRY_FIELDS, TOP_FIELDS,
};

fn link_fields(ty: LinkType) -> &'static [&'static str] {
    Obj::link(ty).names()
}

/// The entries of a mapping, by field name.
pub(crate) struct Fields<'n> {
    entries: Vec<(String, &'n Node, &'n Node)>,
}

impl<'n> Fields<'n> {
    pub fn get(&self, name: &str) -> Option<&'n Node> {
        self.entries
            .iter()
            .find(|(k, _, _)| k == name)
            .map(|(_, _, v)| *v)
    }
}

/// A vector without spare capacity: one built by pushing keeps room for
/// four items, which for 100k components' one-link lists is most of the
/// memory the links take.
fn shrunk<T>(mut v: Vec<T>) -> Vec<T> {
    v.shrink_to_fit();
    v
}

pub(crate) fn is_valid_id(id: &str) -> bool {
    let mut chars = id.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_lowercase() || c.is_ascii_digit())
        && chars
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '.' | '_' | '-'))
}

impl Reader {
    fn err(&mut self, d: Diagnostic) {
        self.errors.push(d);
    }

    /// A mapping with only `known` fields; unknown ones are errors with a
    /// suggestion.
    pub fn fields<'n>(&mut self, node: &'n Node, path: &str, known: &[&str]) -> Option<Fields<'n>> {
        let Value::Map(entries) = &node.value else {
            self.err(
                Diagnostic::at(
                    node.loc,
                    format!(
                        "`{path}` must be a mapping, found {}",
                        node.value.type_name()
                    ),
                )
                .label("expected `field: value` pairs"),
            );
            return None;
        };
        let mut out = Vec::new();
        for (k, v) in entries {
            if let Some(name) = self.field_name(k, path, known) {
                out.push((name, k, v));
            }
        }
        Some(Fields { entries: out })
    }

    /// The name of a field key, if it is one of `known`; errors otherwise.
    fn field_name(&mut self, k: &Node, path: &str, known: &[&str]) -> Option<String> {
        let Some(name) = k.value.scalar_text() else {
            self.err(Diagnostic::at(
                k.loc,
                format!("`{path}` has a key that is {}", k.value.type_name()),
            ));
            return None;
        };
        if !known.contains(&name.as_str()) {
            let mut d = Diagnostic::at(k.loc, format!("unknown field `{name}` in `{path}`"))
                .label("not a field here");
            d = match suggest(&name, known.iter().copied()) {
                Some(s) => d.help(format!("did you mean `{s}`?")),
                None => d.help(format!("the fields of `{path}` are: {}", known.join(", "))),
            };
            self.err(d);
            return None;
        }
        Some(name)
    }

    fn type_error(&mut self, node: &Node, path: &str, expected: &str) {
        self.err(
            Diagnostic::at(
                node.loc,
                format!(
                    "`{path}` must be {expected}, found {}",
                    node.value.type_name()
                ),
            )
            .label(format!("expected {expected}")),
        );
    }

    pub fn string(&mut self, node: &Node, path: &str) -> Option<Sp<String>> {
        match &node.value {
            Value::Str(s) => Some(Sp::new(s.clone(), node.loc)),
            Value::Int(_) | Value::Float(_) | Value::Bool(_) => Some(Sp::new(
                node.value.scalar_text().unwrap_or_default(),
                node.loc,
            )),
            _ => {
                self.type_error(node, path, "a string");
                None
            }
        }
    }

    pub fn id_ref(&mut self, node: &Node, path: &str) -> Option<Sp<String>> {
        let s = self.string(node, path)?;
        if !is_valid_id(&s.value) {
            self.err(
                Diagnostic::at(s.loc, format!("`{path}`: `{}` is not a valid id", s.value))
                    .help("ids are lower-case letters, digits, `.`, `_` and `-`, starting with a letter or digit"),
            );
            return None;
        }
        Some(s)
    }

    /// A reference to a component (resolved later, by `check`).
    pub fn component_ref(&mut self, node: &Node, path: &str) -> Option<Ref> {
        self.id_ref(node, path).map(Ref::new)
    }

    pub fn boolean(&mut self, node: &Node, path: &str) -> Option<Sp<bool>> {
        match &node.value {
            Value::Bool(b) => Some(Sp::new(*b, node.loc)),
            _ => {
                self.type_error(node, path, "`true` or `false`");
                None
            }
        }
    }

    pub fn count(&mut self, node: &Node, path: &str, min: u64) -> Option<Sp<u64>> {
        match &node.value {
            Value::Int(i) if *i >= min as i64 => Some(Sp::new(*i as u64, node.loc)),
            Value::Int(i) => {
                self.err(
                    Diagnostic::at(
                        node.loc,
                        format!("`{path}` is {i}, it must be at least {min}"),
                    )
                    .label("out of range"),
                );
                None
            }
            _ => {
                self.type_error(node, path, "a whole number");
                None
            }
        }
    }

    pub fn number(&mut self, node: &Node, path: &str) -> Option<Sp<f64>> {
        match &node.value {
            Value::Int(i) if *i > 0 => Some(Sp::new(*i as f64, node.loc)),
            Value::Float(f) if f.is_finite() && *f > 0.0 => Some(Sp::new(*f, node.loc)),
            Value::Int(_) | Value::Float(_) => {
                self.err(Diagnostic::at(
                    node.loc,
                    format!("`{path}` must be a positive number"),
                ));
                None
            }
            _ => {
                self.type_error(node, path, "a number");
                None
            }
        }
    }

    /// A duration; `allow_zero` where zero means something ("not kept").
    pub fn duration(&mut self, node: &Node, path: &str, allow_zero: bool) -> Option<Sp<Dur>> {
        let d = match &node.value {
            Value::Int(i) if *i < 0 => {
                Err(format!("`{i}` is negative: durations cannot be negative"))
            }
            Value::Int(i) => Ok(Dur::Secs(*i as u64)),
            Value::Str(s) => Dur::parse(s),
            _ => {
                self.type_error(node, path, "a duration");
                return None;
            }
        };
        match d {
            Ok(Dur::Secs(0)) if !allow_zero => {
                self.err(
                    Diagnostic::at(
                        node.loc,
                        format!("`{path}` is zero, which makes no sense here"),
                    )
                    .help("give a positive duration, e.g. `30s`"),
                );
                None
            }
            Ok(d) => Some(Sp::new(d, node.loc)),
            Err(msg) => {
                self.err(
                    Diagnostic::at(node.loc, format!("`{path}`: {msg}")).label("bad duration"),
                );
                None
            }
        }
    }

    /// One of the names of `T` (declared with its variants).
    pub fn choice<T: Named>(&mut self, node: &Node, path: &str) -> Option<Sp<T>> {
        let (i, loc) = self.choice_index(node, path, T::NAMES)?;
        Some(Sp::new(T::ALL[i], loc))
    }

    /// One of `names`, kept as text.
    pub fn choice_text(&mut self, node: &Node, path: &str, names: &[&str]) -> Option<Sp<String>> {
        let (i, loc) = self.choice_index(node, path, names)?;
        Some(Sp::new(names[i].to_string(), loc))
    }

    fn choice_index(&mut self, node: &Node, path: &str, names: &[&str]) -> Option<(usize, Loc)> {
        let s = self.string(node, path)?;
        if let Some(i) = names.iter().position(|n| *n == s.value) {
            return Some((i, s.loc));
        }
        let mut d = Diagnostic::at(
            s.loc,
            format!("`{path}`: `{}` is not one of {}", s.value, names.join(", ")),
        );
        if let Some(sugg) = suggest(&s.value, names.iter().copied()) {
            d = d.help(format!("did you mean `{sugg}`?"));
        }
        self.err(d);
        None
    }

    pub fn string_list(&mut self, node: &Node, path: &str) -> Option<Sp<Vec<String>>> {
        match &node.value {
            Value::Seq(items) => {
                let v = items
                    .iter()
                    .enumerate()
                    .filter_map(|(i, n)| self.string(n, &format!("{path}[{i}]")).map(|s| s.value))
                    .collect::<Vec<_>>();
                Some(Sp::new(shrunk(v), node.loc))
            }
            Value::Str(s) => Some(Sp::new(vec![s.clone()], node.loc)),
            _ => {
                self.type_error(node, path, "a list of strings");
                None
            }
        }
    }

    /// Items of a field that takes one item or a list of them.
    fn items(node: &Node) -> Vec<(usize, &Node)> {
        match &node.value {
            Value::Seq(items) => items.iter().enumerate().collect(),
            _ => vec![(0, node)],
        }
    }

    fn define(&mut self, id: &Sp<String>, what: &'static str) -> bool {
        if !is_valid_id(&id.value) {
            self.err(
                Diagnostic::at(id.loc, format!("`{}` is not a valid {what} id", id.value))
                    .help("ids are lower-case letters, digits, `.`, `_` and `-`, starting with a letter or digit"),
            );
            return false;
        }
        if let Some((first, first_what)) = self.ids.get(&id.value) {
            let d = Diagnostic::at(id.loc, format!("id `{}` is defined twice", id.value))
                .label(format!("this {what}"))
                .related(*first, format!("first defined here as a {first_what}"))
                .help("intents, components and regions share one namespace across all files: rename one");
            self.err(d);
            return false;
        }
        self.ids.insert(id.value.clone(), (id.loc, what));
        true
    }

    /// Entries of a top-level `id: {...}` mapping.
    fn entries<'n>(&mut self, node: &'n Node, path: &str) -> Vec<(Sp<String>, &'n Node)> {
        match &node.value {
            Value::Map(entries) => entries
                .iter()
                .filter_map(|(k, v)| {
                    let id = k.value.scalar_text()?;
                    Some((Sp::new(id, k.loc), v))
                })
                .collect(),
            Value::Null => Vec::new(),
            _ => {
                self.type_error(node, path, "a mapping of id to settings");
                Vec::new()
            }
        }
    }

    /// Reads the parsed tree of file `file`, as [`stream_texts`] reads text.
    fn tree(&mut self, file: u32, node: &Node, out: &mut Collected) {
        let mut doc = Doc::new(file);
        Piece::of(node, SECTIONS, |p| self.piece(p, &mut doc, out));
        self.end_doc(&doc);
    }

    /// Reads one piece of a document (see [`Piece`]).
    fn piece(&mut self, piece: Piece, doc: &mut Doc, out: &mut Collected) {
        match piece {
            Piece::Document(node) => {
                doc.reported = true;
                if node.value == Value::Null {
                    self.err(
                        Diagnostic::at(
                            Loc {
                                file: doc.file,
                                line: 1,
                                col: 1,
                            },
                            "the manifest is empty: `version` is missing",
                        )
                        .help("start the file with `version: 1`"),
                    );
                } else {
                    self.fields(node, "manifest", TOP_FIELDS);
                }
            }
            Piece::Field(k, v) => {
                doc.first.get_or_insert(k.loc);
                let Some(name) = self.field_name(k, "manifest", TOP_FIELDS) else {
                    return;
                };
                match name.as_str() {
                    "version" => {
                        doc.version = true;
                        self.version(v);
                    }
                    "name" => {
                        if let Some(n) = self.string(v, "name") {
                            out.name.get_or_insert(n.value);
                        }
                    }
                    section => {
                        doc.section = SECTIONS.iter().position(|s| *s == section).unwrap_or(0);
                        if matches!(v.value, Value::Map(_) | Value::Null) {
                            for (id, v) in self.entries(v, section) {
                                self.entry(id, v, doc.section, out);
                            }
                        } else {
                            // Reported at the key: the parser gives no
                            // location to a section value it streams.
                            let expected = "a mapping of id to settings";
                            self.err(
                                Diagnostic::at(
                                    k.loc,
                                    format!(
                                        "`{section}` must be {expected}, found {}",
                                        v.value.type_name()
                                    ),
                                )
                                .label(format!("expected {expected}")),
                            );
                        }
                    }
                }
            }
            Piece::Section(k) => {
                doc.first.get_or_insert(k.loc);
                let name = k.value.scalar_text().unwrap_or_default();
                doc.section = SECTIONS.iter().position(|s| *s == name).unwrap_or(0);
            }
            Piece::Entry(k, v) => {
                // A key that is not a scalar cannot be an id; `fields`
                // of the section's entries never see it.
                if let Some(id) = k.value.scalar_text() {
                    self.entry(Sp::new(id, k.loc), v, doc.section, out);
                }
            }
        }
    }

    /// Reports a document that never said `version`.
    fn end_doc(&mut self, doc: &Doc) {
        if !doc.reported && !doc.version {
            let at = doc.first.unwrap_or(Loc {
                file: doc.file,
                line: 1,
                col: 1,
            });
            self.err(
                Diagnostic::at(at, "`version` is missing")
                    .help("add `version: 1` at the top of the file"),
            );
        }
    }

    fn version(&mut self, v: &Node) {
        if v.value == Value::Int(1) || v.value == Value::Str("1".into()) {
            return;
        }
        self.err(
            Diagnostic::at(
                v.loc,
                format!(
                    "unsupported manifest version `{}`",
                    v.value.scalar_text().unwrap_or_default()
                ),
            )
            .help("this replay-audit reads `version: 1`"),
        );
    }

    /// One `id: settings` entry of section `SECTIONS[section]`.
    fn entry(&mut self, id: Sp<String>, v: &Node, section: usize, out: &mut Collected) {
        match SECTIONS[section] {
            "regions" => {
                if self.define(&id, "region")
                    && let Some(r) = self.region(id, v)
                {
                    out.regions.push(r);
                }
            }
            "intents" => {
                if self.define(&id, "intent")
                    && let Some(i) = self.intent(id, v)
                {
                    out.intents.push(i);
                }
            }
            _ => {
                if self.define(&id, "component")
                    && let Some(c) = self.component(id, v)
                {
                    out.components.push(c);
                }
            }
        }
    }

    fn region(&mut self, id: Sp<String>, node: &Node) -> Option<Region> {
        let path = format!("regions.{}", id.value);
        let mut r = Region {
            id: id.value,
            loc: id.loc,
            failover_to: None,
            detection: None,
            catch_up: None,
        };
        if node.value == Value::Null {
            return Some(r);
        }
        let f = self.fields(node, &path, REGION_FIELDS)?;
        r.failover_to = f
            .get("failover_to")
            .and_then(|n| self.id_ref(n, &format!("{path}.failover_to")));
        r.detection = f
            .get("detection")
            .and_then(|n| self.duration(n, &format!("{path}.detection"), true));
        r.catch_up = f
            .get("catch_up")
            .and_then(|n| self.duration(n, &format!("{path}.catch_up"), true));
        Some(r)
    }

    fn intent(&mut self, id: Sp<String>, node: &Node) -> Option<Intent> {
        let path = format!("intents.{}", id.value);
        let f = self.fields(node, &path, INTENT_FIELDS)?;
        let origin = match f.get("origin") {
            Some(n) => self.component_ref(n, &format!("{path}.origin")),
            None => {
                self.err(
                    Diagnostic::at(id.loc, format!("`{path}` has no `origin`"))
                        .help("name the component where the decision becomes stable: `origin: <component id>`"),
                );
                None
            }
        };
        let mut effects = Vec::new();
        let effect_node = f.get("effect").or_else(|| f.get("effects"));
        match effect_node {
            Some(n) => {
                for (i, item) in Self::items(n) {
                    if let Some(e) = self.component_ref(item, &format!("{path}.effect[{i}]")) {
                        effects.push(e);
                    }
                }
            }
            None => self.err(
                Diagnostic::at(id.loc, format!("`{path}` has no `effect`"))
                    .help("name the component where the business effect happens: `effect: <component id>`"),
            ),
        }
        let key = match f.get("key") {
            Some(n) => self.key(n, &format!("{path}.key")),
            None => Key::default(),
        };
        let fingerprint = f
            .get("fingerprint")
            .and_then(|n| self.string_list(n, &format!("{path}.fingerprint")));
        let mut replays = Vec::new();
        if let Some(n) = f.get("replays") {
            for (i, item) in Self::items(n) {
                if let Some(r) = self.replay(item, &format!("{path}.replays[{i}]"), i) {
                    replays.push(r);
                }
            }
        }
        let tested = f
            .get("tested")
            .and_then(|n| self.string_list(n, &format!("{path}.tested")));
        let description = f
            .get("description")
            .and_then(|n| self.string(n, &format!("{path}.description")))
            .map(|s| s.value);
        Some(Intent {
            id: id.value,
            loc: id.loc,
            description,
            origin: origin?,
            effects: shrunk(effects),
            key,
            fingerprint,
            replays: shrunk(replays),
            tested,
        })
    }

    fn key(&mut self, node: &Node, path: &str) -> Key {
        let mut k = Key {
            loc: Some(node.loc),
            ..Key::default()
        };
        let Some(f) = self.fields(node, path, KEY_FIELDS) else {
            return k;
        };
        k.fields = f
            .get("fields")
            .and_then(|n| self.string_list(n, &format!("{path}.fields")));
        k.minted_at = f
            .get("minted_at")
            .and_then(|n| self.component_ref(n, &format!("{path}.minted_at")));
        k.minted = f
            .get("minted")
            .and_then(|n| self.choice(n, &format!("{path}.minted")));
        k.persisted_before_retry = f
            .get("persisted_before_retry")
            .and_then(|n| self.boolean(n, &format!("{path}.persisted_before_retry")));
        k
    }

    fn replay(&mut self, node: &Node, path: &str, i: usize) -> Option<Replay> {
        let f = self.fields(node, path, REPLAY_FIELDS)?;
        let name = f
            .get("name")
            .and_then(|n| self.string(n, &format!("{path}.name")))
            .map_or_else(|| format!("replay {}", i + 1), |s| s.value);
        let enters_at = self.required(&f, node, path, "enters_at", |r, n, p| r.component_ref(n, p));
        let within = self.required(&f, node, path, "within", |r, n, p| r.duration(n, p, true));
        Some(Replay {
            name,
            loc: node.loc,
            enters_at: enters_at?,
            within: within?,
        })
    }

    fn required<T>(
        &mut self,
        f: &Fields,
        node: &Node,
        path: &str,
        field: &str,
        read: impl FnOnce(&mut Self, &Node, &str) -> Option<T>,
    ) -> Option<T> {
        match f.get(field) {
            Some(n) => read(self, n, &format!("{path}.{field}")),
            None => {
                self.err(
                    Diagnostic::at(node.loc, format!("`{path}` needs `{field}`"))
                        .label(format!("`{field}` missing")),
                );
                None
            }
        }
    }

    fn component(&mut self, id: Sp<String>, node: &Node) -> Option<Component> {
        let path = format!("components.{}", id.value);
        let f = self.fields(node, &path, COMPONENT_FIELDS)?;
        let p = |field: &str| format!("{path}.{field}");
        let kind = self.required(&f, node, &path, "kind", |r, n, p| r.string(n, p));
        let mut c = Component {
            id: id.value.clone(),
            loc: id.loc,
            ..Component::default()
        };
        c.description = f
            .get("description")
            .and_then(|n| self.string(n, &p("description")))
            .map(|s| s.value);
        if let Some(n) = f.get("regions") {
            for (i, item) in Self::items(n) {
                if let Some(r) = self.id_ref(item, &format!("{path}.regions[{i}]")) {
                    c.regions.push(r);
                }
            }
        }
        c.mode = f.get("mode").and_then(|n| self.choice(n, &p("mode")));
        c.sends_to = self.links(&f, &path, LinkType::SendsTo);
        c.delivers_to = self.links(&f, &path, LinkType::DeliversTo);
        c.calls = self.links(&f, &path, LinkType::Calls);
        c.dead_letter = self
            .links(&f, &path, LinkType::DeadLetter)
            .into_iter()
            .next()
            .map(Box::new);
        c.redrive = self
            .links(&f, &path, LinkType::Redrive)
            .into_iter()
            .next()
            .map(Box::new);
        c.effects = self.links(&f, &path, LinkType::Effects);
        c.dedup = f
            .get("dedup")
            .and_then(|n| self.guard(n, &p("dedup")))
            .map(Box::new);
        c.backup = f
            .get("backup")
            .and_then(|n| self.backup(n, &p("backup")))
            .map(Box::new);
        c.settings = self.settings(&f, &path, Self::component_setting);
        c.kind = kind?;
        c.catalog_kind = CatalogKind::of(&c.kind.value);
        c.regions.shrink_to_fit();
        Some(c)
    }

    /// The settings `f` writes, each read by `read`, in the order of
    /// `F::ALL`.
    fn settings<F: SettingField>(
        &mut self,
        f: &Fields,
        path: &str,
        read: fn(&mut Self, F, &Node, &str) -> Option<Setting>,
    ) -> Settings<F> {
        let mut out = Vec::new();
        for &field in F::ALL {
            if let Some(n) = f.get(field.name())
                && let Some(v) = read(self, field, n, &format!("{path}.{}", field.name()))
            {
                out.push((field, v));
            }
        }
        out.into_iter().collect()
    }

    /// How each component setting is read.
    fn component_setting(&mut self, field: Field, n: &Node, p: &str) -> Option<Setting> {
        use Field as F;
        match field {
            F::Timeout | F::MaxEventAge => self.duration(n, p, false).map(Setting::Dur),
            F::VisibilityTimeout | F::Retention | F::DedupWindow | F::MaxBacklog | F::KeyWindow => {
                self.duration(n, p, true).map(Setting::Dur)
            }
            F::MaxReceives => self.count(n, p, 1).map(Setting::Count),
            F::DedupScope | F::Scope => self.string(n, p).map(Setting::Text),
            F::ContentBasedDedup | F::AcceptsKey | F::LookupByReference => {
                self.boolean(n, p).map(Setting::Bool)
            }
            F::MessageAttributes | F::Unique => self.string_list(n, p).map(Setting::List),
            F::Delivery => self.choice(n, p).map(Setting::Delivery),
            F::Expiry => self.choice(n, p).map(Setting::Expiry),
            F::Replication => self.choice(n, p).map(Setting::Replication),
            F::Reconciliation => self
                .choice_text(n, p, vocabulary::RECONCILIATION)
                .map(Setting::Text),
        }
    }

    /// How each link setting is read.
    fn link_setting(&mut self, field: LinkField, n: &Node, p: &str) -> Option<Setting> {
        use LinkField as F;
        match field {
            F::Timeout | F::MaxRecordAge => self.duration(n, p, false).map(Setting::Dur),
            F::Within => self.duration(n, p, true).map(Setting::Dur),
            F::PassesKey => self.boolean(n, p).map(Setting::Bool),
            F::AfterReceives => self.count(n, p, 1).map(Setting::Count),
            F::MaxTimes => self.count(n, p, 0).map(Setting::Count),
            F::DedupId => self.choice(n, p).map(Setting::DedupId),
            F::Mode => self.choice(n, p).map(Setting::Mode),
        }
    }

    fn links(&mut self, f: &Fields, path: &str, ty: LinkType) -> Vec<Link> {
        let Some(node) = f.get(ty.field()) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for (i, item) in Self::items(node) {
            let lp = if matches!(node.value, Value::Seq(_)) {
                format!("{path}.{}[{i}]", ty.field())
            } else {
                format!("{path}.{}", ty.field())
            };
            if let Some(l) = self.link(item, &lp, ty) {
                out.push(l);
            }
        }
        shrunk(out)
    }

    fn link(&mut self, node: &Node, path: &str, ty: LinkType) -> Option<Link> {
        if let Value::Str(_) = node.value {
            let to = self.component_ref(node, path)?;
            return Some(Link::new(ty, node.loc, to));
        }
        let f = self.fields(node, path, link_fields(ty))?;
        let to = self.required(&f, node, path, "to", |r, n, p| r.component_ref(n, p))?;
        let mut l = Link::new(ty, node.loc, to);
        let p = |field: &str| format!("{path}.{field}");
        l.retry = f
            .get("retry")
            .and_then(|n| self.retry(n, &p("retry")))
            .map(Box::new);
        l.settings = self.settings(&f, path, Self::link_setting);
        Some(l)
    }

    fn retry(&mut self, node: &Node, path: &str) -> Option<Retry> {
        let f = self.fields(node, path, RETRY_FIELDS)?;
        let p = |field: &str| format!("{path}.{field}");
        Some(Retry {
            loc: node.loc,
            attempts: f
                .get("attempts")
                .and_then(|n| self.count(n, &p("attempts"), 1)),
            timeout: f
                .get("timeout")
                .and_then(|n| self.duration(n, &p("timeout"), false)),
            backoff: f
                .get("backoff")
                .and_then(|n| self.duration(n, &p("backoff"), true)),
            multiplier: f
                .get("multiplier")
                .and_then(|n| self.number(n, &p("multiplier"))),
            max_backoff: f
                .get("max_backoff")
                .and_then(|n| self.duration(n, &p("max_backoff"), true)),
            max_elapsed: f
                .get("max_elapsed")
                .and_then(|n| self.duration(n, &p("max_elapsed"), false)),
        })
    }

    fn guard(&mut self, node: &Node, path: &str) -> Option<Guard> {
        let f = self.fields(node, path, GUARD_FIELDS)?;
        let p = |field: &str| format!("{path}.{field}");
        let store = self.required(&f, node, path, "store", |r, n, p| r.component_ref(n, p))?;
        let in_progress = match f.get("in_progress") {
            Some(n) => {
                let ip = self.fields(n, &p("in_progress"), IN_PROGRESS_FIELDS);
                ip.map(|ip| InProgress {
                    loc: n.loc,
                    on_conflict: ip
                        .get("on_conflict")
                        .and_then(|x| self.string(x, &p("in_progress.on_conflict"))),
                    expires_after: ip
                        .get("expires_after")
                        .and_then(|x| self.duration(x, &p("in_progress.expires_after"), false)),
                    on_expiry: ip.get("on_expiry").and_then(|x| {
                        self.choice_text(x, &p("in_progress.on_expiry"), vocabulary::ON_EXPIRY)
                    }),
                })
            }
            None => None,
        };
        Some(Guard {
            loc: node.loc,
            store,
            claim: f.get("claim").and_then(|n| self.choice(n, &p("claim"))),
            binds_fingerprint: f
                .get("binds_fingerprint")
                .and_then(|n| self.boolean(n, &p("binds_fingerprint"))),
            stores_result: f
                .get("stores_result")
                .and_then(|n| self.boolean(n, &p("stores_result"))),
            in_progress,
        })
    }

    fn backup(&mut self, node: &Node, path: &str) -> Option<Backup> {
        let f = self.fields(node, path, BACKUP_FIELDS)?;
        let mut b = Backup {
            loc: node.loc,
            ..Backup::default()
        };
        b.rpo = f
            .get("rpo")
            .and_then(|n| self.duration(n, &format!("{path}.rpo"), true));
        if let Some(n) = f.get("restored_with") {
            for (i, item) in Self::items(n) {
                if let Some(id) = self.component_ref(item, &format!("{path}.restored_with[{i}]")) {
                    b.restored_with.push(id);
                }
            }
        }
        Some(b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_setting_is_a_field_the_reader_accepts() {
        for f in Field::ALL {
            assert!(COMPONENT_FIELDS.contains(&f.name()), "{}", f.name());
        }
        let all = [
            LinkType::SendsTo,
            LinkType::DeliversTo,
            LinkType::Calls,
            LinkType::DeadLetter,
            LinkType::Redrive,
            LinkType::Effects,
        ];
        for f in LinkField::ALL {
            assert!(
                all.iter().any(|&t| link_fields(t).contains(&f.name())),
                "{}",
                f.name()
            );
        }
    }

    fn both(texts: Vec<(String, String)>) -> (String, String) {
        let limits = Limits::default();
        let streamed = load_texts(texts.clone(), &limits);
        let treed = match parse_texts(texts, &limits) {
            Ok((sources, trees)) => load_nodes(sources, &trees),
            Err((_, errors)) => Loaded {
                manifest: Manifest::default(),
                errors,
                defined: Default::default(),
            },
        };
        let show = |l: &Loaded| {
            format!(
                "{:?}\n{:?}\n{:?}\n{:?}\n{:?}",
                l.manifest.name,
                l.manifest.regions,
                l.manifest.intents,
                l.manifest.components,
                l.errors
            )
        };
        (show(&streamed), show(&treed))
    }

    /// Reading straight from the parser gives the same model and the same
    /// errors as reading the parsed tree (which what-if keeps).
    #[test]
    fn streaming_and_tree_reading_agree_on_every_fixture() {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures");
        let mut files = Vec::new();
        walk(Path::new(root), &mut files, &mut Vec::new(), 0);
        assert!(files.len() > 20, "{}", files.len());
        for f in files {
            let text = std::fs::read_to_string(&f).unwrap();
            let (s, t) = both(vec![(f.display().to_string(), text)]);
            assert_eq!(s, t, "{}", f.display());
        }
    }

    #[test]
    fn streaming_and_tree_reading_agree_on_odd_documents() {
        for text in [
            "",
            "# only a comment\n",
            "[1, 2]\n",
            "42\n",
            "version: 1\ncomponents: [a, b]\n",
            "version: 1\ncomponents: 7\nintents:\n",
            "version: 1\nregions: {eu: , us: {failover_to: eu}}\ncomponents:\n  a: {kind: queue}\n  [x]: {kind: queue}\n",
            "components:\n  a: {kind: queue}\n",
            "version: 1\nversion2: 1\nname: [x]\n",
        ] {
            let (s, t) = both(vec![("m.yaml".into(), text.into())]);
            assert_eq!(s, t, "{text:?}");
        }
        // Several files, the second with a syntax error: it adds nothing.
        let (s, t) = both(vec![
            (
                "a.yaml".into(),
                "version: 1\ncomponents:\n  a: {kind: queue}\n".into(),
            ),
            (
                "b.yaml".into(),
                "version: 1\ncomponents:\n  b: {kind: queue\n".into(),
            ),
        ]);
        assert!(s.contains("invalid YAML"), "{s}");
        assert!(!s.contains("id: \"b\""), "{s}");
        assert_eq!(s.matches("Component {").count(), 1, "{s}");
        let _ = t;
    }
}
