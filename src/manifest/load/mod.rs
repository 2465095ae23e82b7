//! Reading manifest files into the typed model, collecting every error.
//!
//! Each file is parsed into a span-carrying tree (`yaml.rs`) and read field
//! by field. A wrong field does not stop the reading of the others, so one
//! run reports all the errors of all the files.

use std::path::{Path, PathBuf};

use crate::diagnostics::{Diagnostic, Loc, SourceMap};
use crate::files::Origin;
use crate::manifest::model::*;
use crate::manifest::vocabulary::{self, Obj};
use crate::manifest::yaml::{self, Limits, Node, Piece, Value};

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
    Ok(load_texts(read_files(paths, limits)?, limits))
}

/// Files that could not be read: their errors (and no sources to show).
type Unread = (SourceMap, Vec<Diagnostic>);

/// The text of every file of `paths` (folders walked), by name; `Err` holds
/// the errors of the files that could not be read.
fn read_files(paths: &[PathBuf], limits: &Limits) -> Result<Vec<(String, String)>, Unread> {
    let files = discover_inputs(paths).map_err(|e| (SourceMap::default(), e))?;
    let mut texts = Vec::new();
    let mut errors = Vec::new();
    for (f, origin) in &files {
        match read_input(f, *origin, limits) {
            Ok(t) => texts.push((f.display().to_string(), t)),
            Err(d) => errors.push(d),
        }
    }
    if errors.is_empty() {
        Ok(texts)
    } else {
        Err((SourceMap::default(), errors))
    }
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
    let mut defaults = crate::import::defaults::Defaults::new();
    for (path, text, imported) in texts {
        let file = sources.add(path, text);
        match yaml::parse(&sources.files[file as usize].text, file, limits) {
            Ok(mut node) => {
                if imported {
                    let text = &sources.files[file as usize].text;
                    defaults.extend(crate::import::defaults::marked(text, &node));
                }
                // A finding on an imported value points at its template line.
                crate::import::origin::relocate(&mut sources.files[file as usize], &mut node);
                nodes.push((file, imported, node));
            }
            Err(d) => errors.push(d),
        }
    }
    for section in ["components", "regions"] {
        // Only components have imported defaults.
        let none = crate::import::defaults::Defaults::new();
        let defaults = if section == "components" {
            &defaults
        } else {
            &none
        };
        merge_section(&mut nodes, section, defaults);
    }
    let nodes = nodes.into_iter().map(|(f, _, n)| (f, n)).collect();
    (sources, nodes, errors)
}

/// Moves the entries of `section` that extend an imported entry of the same
/// id into it: overlay fields replace imported fields of the same name, and
/// an overlay `kind` drops the imported `defaults` (component id, field)
/// that yield to it ([`crate::import::defaults::yields`]).
fn merge_section(
    nodes: &mut [(u32, bool, Node)],
    section: &str,
    defaults: &crate::import::defaults::Defaults,
) {
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
                    crate::import::defaults::drop_yielding(fields, &extra, &id, defaults);
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

mod reader;
mod sections;

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
