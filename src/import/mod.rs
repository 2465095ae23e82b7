//! Importing real infrastructure descriptions into manifest skeletons.
//!
//! Three readers (CloudFormation/SAM templates, Terraform plan JSON,
//! AsyncAPI documents) fill one [`Out`] model, which is written as manifest
//! YAML text: every imported value carries a comment naming where it came
//! from, and everything the input cannot tell is marked `# TODO:`.
//!
//! `check` and `horizon` accept these inputs directly: [`load`] imports them
//! in memory and loads the generated text together with the overlay
//! manifests, where a component with the id of an imported one extends it
//! (see `manifest::load::load_texts_merging`).

pub mod asyncapi;
pub mod cloudformation;
pub mod terraform;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_saphyr::{Spanned, Tagged};

use crate::diagnostics::{Diagnostic, Loc, SourceMap};
use crate::manifest::{self, Limits, LoadError, Manifest};

/// The input formats `import` reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    CloudFormation,
    Terraform,
    AsyncApi,
}

impl Format {
    pub fn name(self) -> &'static str {
        match self {
            Format::CloudFormation => "CloudFormation template",
            Format::Terraform => "Terraform plan",
            Format::AsyncApi => "AsyncAPI document",
        }
    }
}

/// The result of an import: manifest text and what was left out.
#[derive(Debug, Clone)]
pub struct Imported {
    pub text: String,
    /// Resources or elements the importer does not read (also listed as
    /// comments in `text`).
    pub unsupported: Vec<String>,
}

/// Imports `text` (read from `path`) as `format`. Errors carry a source map
/// holding the input, so they render with file:line:column.
pub fn import_text(
    format: Format,
    path: &str,
    text: &str,
    params: &[(String, String)],
    limits: &Limits,
) -> Result<Imported, LoadError> {
    let mut sources = SourceMap::default();
    let file = sources.add(path.to_string(), text.to_string());
    let result = parse(text, file, limits).and_then(|root| {
        let mut out = Out::new(path, format);
        match format {
            Format::CloudFormation => cloudformation::import(&root, params, &mut out)?,
            Format::Terraform => terraform::import(&root, &mut out)?,
            Format::AsyncApi => asyncapi::import(&root, &mut out)?,
        }
        Ok(out)
    });
    match result {
        Ok(out) => Ok(Imported {
            unsupported: out.unsupported.iter().map(|(w, _)| w.clone()).collect(),
            text: out.render(),
        }),
        Err(d) => Err(LoadError {
            sources,
            diagnostics: vec![d],
        }),
    }
}

/// Reads a file for import, under the size limit, as UTF-8.
pub fn read_file(path: &Path, limits: &Limits) -> Result<String, LoadError> {
    manifest::load::read_text(path, limits).map_err(|d| LoadError {
        sources: SourceMap::default(),
        diagnostics: vec![d],
    })
}

/// Which importer reads `text`, if any: a CloudFormation template (has
/// `AWSTemplateFormatVersion`, or `Resources` with `AWS::` types), a
/// Terraform plan (`format_version` with `planned_values`), or an AsyncAPI
/// document (`asyncapi`). A replay-audit manifest (`version`) is none.
///
/// `check` asks this of every file, so a manifest must be recognised
/// without building its tree: a file that names none of the formats' top
/// keys is skipped after a text search, and otherwise only the top-level
/// keys are read, unless `Resources` needs a look at its types.
pub fn detect(text: &str, limits: &Limits) -> Option<Format> {
    const MARKERS: [&str; 5] = [
        "asyncapi",
        "planned_values",
        "terraform_version",
        "AWSTemplateFormatVersion",
        "Resources",
    ];
    if !MARKERS.iter().any(|m| text.contains(m)) {
        return None;
    }
    let options = serde_saphyr::options! {
        budget: Some(limits.budget(text.len())),
        with_snippet: false,
    };
    let keys: Option<std::collections::BTreeMap<String, de::IgnoredAny>> =
        serde_saphyr::from_str_with_options(text, options).ok();
    if let Some(keys) = keys
        && !keys.contains_key("Resources")
    {
        return classify(|k| keys.contains_key(k), false);
    }
    let root = parse(text, 0, limits).ok()?;
    let Value::Map(_) = root.value else {
        return None;
    };
    let aws_resources = matches!(
        root.get("Resources").map(|r| &r.value),
        Some(Value::Map(res)) if res.iter().any(|(_, r)| {
            r.get("Type")
                .and_then(Node::str)
                .is_some_and(|t| t.starts_with("AWS::"))
        })
    );
    classify(|k| root.get(k).is_some(), aws_resources)
}

/// The format a document's top-level keys name (`has`), given whether its
/// `Resources` hold `AWS::` types.
fn classify(has: impl Fn(&str) -> bool, aws_resources: bool) -> Option<Format> {
    if has("version") && has("components") && !has("asyncapi") {
        return None;
    }
    if has("asyncapi") {
        return Some(Format::AsyncApi);
    }
    if has("planned_values") || (has("format_version") && has("terraform_version")) {
        return Some(Format::Terraform);
    }
    if has("AWSTemplateFormatVersion") || aws_resources {
        return Some(Format::CloudFormation);
    }
    None
}

/// Loads manifests for `check` and `horizon`: CloudFormation templates,
/// Terraform plans and AsyncAPI documents among `paths` are imported in
/// memory (parameters from their defaults) and merged with the manifests
/// given with them, which add intents, keys, effects and guards.
pub fn load(paths: &[PathBuf], limits: &Limits) -> Result<Manifest, LoadError> {
    let files = manifest::load::discover_inputs(paths).map_err(|diagnostics| LoadError {
        sources: SourceMap::default(),
        diagnostics,
    })?;
    let mut texts = Vec::new();
    for (f, origin) in &files {
        // A file found under a folder is never read through a link.
        let text = manifest::load::read_input(f, *origin, limits).map_err(|d| LoadError {
            sources: SourceMap::default(),
            diagnostics: vec![d],
        })?;
        let name = f.display().to_string();
        match detect(&text, limits) {
            Some(format) => {
                let imported = import_text(format, &name, &text, &[], limits)?;
                texts.push((format!("{name} (imported)"), imported.text, true));
            }
            None => texts.push((name, text, false)),
        }
    }
    manifest::load_texts_merging(texts, limits)
}

/// Parses `key=value` command-line parameters.
pub fn parse_params(items: &[String]) -> Result<Vec<(String, String)>, String> {
    items
        .iter()
        .map(|s| match s.split_once('=') {
            Some((k, v)) if !k.trim().is_empty() => Ok((k.trim().to_string(), v.to_string())),
            _ => Err(format!("`--parameter {s}` is not KEY=VALUE")),
        })
        .collect()
}

// ---------------------------------------------------------------------------
// Input tree

/// A YAML or JSON value with its place and its tag (`!Ref`, ...).
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub value: Value,
    pub tag: Option<String>,
    pub loc: Loc,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    Seq(Vec<Node>),
    Map(Vec<(String, Node)>),
}

impl Node {
    pub fn new(value: Value, loc: Loc) -> Node {
        Node {
            value,
            tag: None,
            loc,
        }
    }

    pub fn get(&self, key: &str) -> Option<&Node> {
        match &self.value {
            Value::Map(m) => m.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// Follows a path of keys.
    pub fn at(&self, keys: &[&str]) -> Option<&Node> {
        keys.iter().try_fold(self, |n, k| n.get(k))
    }

    pub fn str(&self) -> Option<&str> {
        match &self.value {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    pub fn entries(&self) -> &[(String, Node)] {
        match &self.value {
            Value::Map(m) => m,
            _ => &[],
        }
    }

    pub fn items(&self) -> &[Node] {
        match &self.value {
            Value::Seq(s) => s,
            _ => &[],
        }
    }

    /// Scalars as text.
    pub fn text(&self) -> Option<String> {
        match &self.value {
            Value::Bool(b) => Some(b.to_string()),
            Value::Int(i) => Some(i.to_string()),
            Value::Float(f) => Some(f.to_string()),
            Value::Str(s) => Some(s.clone()),
            _ => None,
        }
    }

    /// An integer, also from a string of digits (CloudFormation writes both).
    pub fn int(&self) -> Option<i64> {
        match &self.value {
            Value::Int(i) => Some(*i),
            Value::Float(f) if f.fract() == 0.0 && f.abs() < 9.0e15 => Some(*f as i64),
            Value::Str(s) => s.trim().parse().ok(),
            _ => None,
        }
    }

    pub fn float(&self) -> Option<f64> {
        match &self.value {
            Value::Int(i) => Some(*i as f64),
            Value::Float(f) => Some(*f),
            Value::Str(s) => s.trim().parse().ok(),
            _ => None,
        }
    }

    /// A boolean, also from `"true"` / `"false"`.
    pub fn boolean(&self) -> Option<bool> {
        match &self.value {
            Value::Bool(b) => Some(*b),
            Value::Str(s) if s.eq_ignore_ascii_case("true") => Some(true),
            Value::Str(s) if s.eq_ignore_ascii_case("false") => Some(false),
            _ => None,
        }
    }

    /// A short one-line rendering for comments.
    pub fn brief(&self) -> String {
        match &self.value {
            Value::Null => "null".into(),
            Value::Seq(items) => format!(
                "[{}]",
                items.iter().map(Node::brief).collect::<Vec<_>>().join(", ")
            ),
            Value::Map(m) => format!(
                "{{{}}}",
                m.iter()
                    .map(|(k, v)| format!("{k}: {}", v.brief()))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            _ => {
                let t = self.text().unwrap_or_default();
                let t: String = t.chars().take(120).collect();
                let t = t.replace('\n', " ");
                match &self.tag {
                    Some(tag) => format!("{tag} {t}"),
                    None => t,
                }
            }
        }
    }
}

/// Parses YAML (with tags) or JSON. JSON is read by serde-saphyr too, since
/// JSON is YAML flow syntax and that keeps line numbers for the source
/// comments; when saphyr refuses a text serde_json accepts, serde_json's
/// tree is used (without line numbers), and a JSON syntax error is reported
/// with serde_json's line and column.
pub fn parse(text: &str, file: u32, limits: &Limits) -> Result<Node, Diagnostic> {
    let looks_json = text.trim_start().starts_with('{') || text.trim_start().starts_with('[');
    let options = serde_saphyr::options! {
        budget: Some(limits.budget(text.len())),
        with_snippet: false,
    };
    // JSON must be JSON: YAML would accept `"b": }` as a null.
    if looks_json && let Err(je) = serde_json::from_str::<de::IgnoredAny>(text) {
        return Err(Diagnostic::at(
            Loc {
                file,
                line: je.line() as u32,
                col: je.column() as u32,
            },
            format!("invalid JSON: {}", strip_position(&je.to_string())),
        )
        .label("here")
        .help("fix the JSON syntax at this place"));
    }
    let saphyr: Result<Spanned<Tagged<Raw>>, _> =
        serde_saphyr::from_str_with_options(text, options);
    match saphyr {
        Ok(raw) => Ok(convert(raw, file)),
        Err(e) if looks_json => match serde_json::from_str::<serde_json::Value>(text) {
            Ok(v) if depth(&v) <= limits.max_depth => Ok(from_json(v, file)),
            Ok(_) => Err(Diagnostic::new(
                None,
                "invalid JSON: the document is nested too deeply",
            )),
            Err(je) => Err(Diagnostic::at(
                Loc {
                    file,
                    line: je.line() as u32,
                    col: je.column() as u32,
                },
                format!("invalid JSON: {}", strip_position(&je.to_string())),
            )
            .label("here")
            .help("fix the JSON syntax at this place")),
        }
        .map_err(|d| {
            if d.loc.is_none() {
                yaml_error(&e, file, limits, text.len())
            } else {
                d
            }
        }),
        Err(e) => Err(yaml_error(&e, file, limits, text.len())),
    }
}

fn strip_position(s: &str) -> String {
    match s.rfind(" at line ") {
        Some(i) => s[..i].to_string(),
        None => s.to_string(),
    }
}

fn depth(v: &serde_json::Value) -> usize {
    match v {
        serde_json::Value::Array(a) => 1 + a.iter().map(depth).max().unwrap_or(0),
        serde_json::Value::Object(o) => 1 + o.values().map(depth).max().unwrap_or(0),
        _ => 0,
    }
}

fn from_json(v: serde_json::Value, file: u32) -> Node {
    let loc = Loc {
        file,
        line: 0,
        col: 0,
    };
    let value = match v {
        serde_json::Value::Null => Value::Null,
        serde_json::Value::Bool(b) => Value::Bool(b),
        serde_json::Value::Number(n) => n
            .as_i64()
            .map_or_else(|| Value::Float(n.as_f64().unwrap_or(0.0)), Value::Int),
        serde_json::Value::String(s) => Value::Str(s),
        serde_json::Value::Array(a) => {
            Value::Seq(a.into_iter().map(|x| from_json(x, file)).collect())
        }
        serde_json::Value::Object(o) => Value::Map(
            o.into_iter()
                .map(|(k, x)| (k, from_json(x, file)))
                .collect(),
        ),
    };
    Node::new(value, loc)
}

fn yaml_error(e: &serde_saphyr::Error, file: u32, limits: &Limits, len: usize) -> Diagnostic {
    let loc = e.location().filter(|l| l.line() > 0).map(|l| Loc {
        file,
        line: l.line() as u32,
        col: l.column() as u32,
    });
    // The manifest reader's words, so an exceeded limit reads the same here.
    let (message, help) = crate::manifest::yaml_errors::describe(e, &limits.budget(len), len);
    let help = help.unwrap_or_else(|| "fix the syntax at this place".into());
    let mut d = Diagnostic::new(loc, format!("invalid YAML: {message}")).help(help);
    if loc.is_some() {
        d = d.label("here");
    }
    d
}

fn convert(raw: Spanned<Tagged<Raw>>, file: u32) -> Node {
    let loc = Loc {
        file,
        line: raw.referenced.line() as u32,
        col: raw.referenced.column() as u32,
    };
    let Tagged(raw, tag) = raw.value;
    let value = match raw {
        Raw::Null => Value::Null,
        Raw::Bool(b) => Value::Bool(b),
        Raw::Int(i) => Value::Int(i),
        Raw::Float(f) => Value::Float(f),
        Raw::Str(s) => Value::Str(s),
        Raw::Seq(items) => Value::Seq(items.into_iter().map(|i| convert(i, file)).collect()),
        Raw::Map(entries) => Value::Map(
            entries
                .into_iter()
                .map(|(k, v)| {
                    let key = convert(k, file).text().unwrap_or_default();
                    (key, convert(v, file))
                })
                .collect(),
        ),
    };
    // Only local application tags (`!Ref`) are kept; `!!str` and the like
    // are YAML's own.
    let tag = tag.filter(|t| t.starts_with('!') && !t.starts_with("!!"));
    Node { value, tag, loc }
}

type RawNode = Spanned<Tagged<Raw>>;

enum Raw {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    Seq(Vec<RawNode>),
    Map(Vec<(RawNode, RawNode)>),
}

impl<'de> Deserialize<'de> for Raw {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(RawVisitor)
    }
}

struct RawVisitor;

impl<'de> Visitor<'de> for RawVisitor {
    type Value = Raw;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a YAML value")
    }
    fn visit_unit<E>(self) -> Result<Raw, E> {
        Ok(Raw::Null)
    }
    fn visit_none<E>(self) -> Result<Raw, E> {
        Ok(Raw::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Raw, D::Error> {
        Raw::deserialize(d)
    }
    fn visit_bool<E>(self, v: bool) -> Result<Raw, E> {
        Ok(Raw::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Raw, E> {
        Ok(Raw::Int(v))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Raw, E> {
        Ok(i64::try_from(v).map_or(Raw::Float(v as f64), Raw::Int))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Raw, E> {
        Ok(Raw::Float(v))
    }
    fn visit_str<E>(self, v: &str) -> Result<Raw, E> {
        Ok(Raw::Str(v.to_string()))
    }
    fn visit_string<E>(self, v: String) -> Result<Raw, E> {
        Ok(Raw::Str(v))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Raw, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element::<Spanned<Tagged<Raw>>>()? {
            items.push(item);
        }
        Ok(Raw::Seq(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Raw, A::Error> {
        let mut entries = Vec::new();
        while let Some(key) = map.next_key::<Spanned<Tagged<Raw>>>()? {
            let value = map.next_value::<Spanned<Tagged<Raw>>>()?;
            entries.push((key, value));
        }
        Ok(Raw::Map(entries))
    }
}

// ---------------------------------------------------------------------------
// Ids

/// The manifest id of an imported name: `PayoutQueue` → `payout-queue`,
/// `payout_requests` → `payout-requests`, `orders.created` → `orders.created`,
/// `HTTPApi2` → `http-api2`. Word boundaries are a lower-to-upper change, an
/// upper-case run followed by a capitalised word, and `_`, space, `/`, `:`;
/// other characters outside `[a-z0-9.-]` become `-`; repeated and edge `-`
/// are dropped.
pub fn kebab(name: &str) -> String {
    let chars: Vec<char> = name.chars().collect();
    let mut out = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if c.is_ascii_uppercase() {
            let prev = i.checked_sub(1).map(|j| chars[j]);
            let next = chars.get(i + 1).copied();
            let boundary = match prev {
                Some(p) if p.is_ascii_lowercase() || p.is_ascii_digit() => true,
                Some(p) if p.is_ascii_uppercase() => next.is_some_and(|n| n.is_ascii_lowercase()),
                _ => false,
            };
            if boundary {
                out.push('-');
            }
            out.push(c.to_ascii_lowercase());
        } else if c.is_ascii_lowercase() || c.is_ascii_digit() || c == '.' {
            out.push(c);
        } else {
            out.push('-');
        }
    }
    let mut clean = String::new();
    for c in out.chars() {
        if c == '-' && (clean.is_empty() || clean.ends_with('-')) {
            continue;
        }
        clean.push(c);
    }
    while clean.ends_with('-') || clean.ends_with('.') {
        clean.pop();
    }
    let clean = clean.trim_start_matches('.').to_string();
    if clean.is_empty() {
        "unnamed".to_string()
    } else {
        clean
    }
}

/// A duration in seconds as the manifest writes it (`300` → `5m`).
pub fn dur(secs: u64) -> String {
    crate::time::Dur::Secs(secs).to_string()
}

// ---------------------------------------------------------------------------
// Output model

/// Where an imported value came from, for its comment.
#[derive(Debug, Clone)]
pub struct Src(pub String);

/// A field of a generated component: key, value, comment.
#[derive(Debug, Clone)]
pub struct F {
    pub key: String,
    pub val: V,
    pub comment: Option<String>,
}

#[derive(Debug, Clone)]
pub enum V {
    /// Already valid YAML scalar text.
    S(String),
    /// A flow list of scalars.
    List(Vec<String>),
    Map(Vec<F>),
    /// A block list of mappings.
    Items(Vec<Vec<F>>),
}

impl F {
    pub fn new(key: &str, val: V, comment: Option<String>) -> F {
        F {
            key: key.to_string(),
            val,
            comment,
        }
    }

    /// `retry: { attempts: retries + 1 }`: platforms count retries after the
    /// first attempt; the manifest counts every attempt. `src` names where
    /// the number came from.
    pub fn retry_attempts(retries: i64, src: &str) -> F {
        F::new(
            "retry",
            V::Map(vec![F::new(
                "attempts",
                V::S((retries + 1).to_string()),
                Some(format!("{src}: {retries} retries + the first attempt")),
            )]),
            None,
        )
    }
}

/// A generated component.
#[derive(Debug, Clone)]
pub struct OutComp {
    pub id: String,
    pub kind: String,
    pub from: String,
    pub fields: Vec<F>,
    /// Comment lines under the component (notes, TODOs).
    pub notes: Vec<String>,
}

/// A generated intent (AsyncAPI extensions).
#[derive(Debug, Clone)]
pub struct OutIntent {
    pub id: String,
    pub fields: Vec<F>,
    pub notes: Vec<String>,
}

/// Everything an importer found, in the order found.
#[derive(Debug, Clone)]
pub struct Out {
    pub file: String,
    pub format: Format,
    pub comps: Vec<OutComp>,
    pub intents: Vec<OutIntent>,
    pub regions: Vec<(String, String)>,
    pub unsupported: Vec<(String, String)>,
    pub notes: Vec<String>,
}

impl Out {
    pub fn new(file: &str, format: Format) -> Out {
        Out {
            file: file.to_string(),
            format,
            comps: Vec::new(),
            intents: Vec::new(),
            regions: Vec::new(),
            unsupported: Vec::new(),
            notes: Vec::new(),
        }
    }

    /// `# from PATH (file:line)`.
    pub fn src(&self, path: &str, node: &Node) -> String {
        if node.loc.line > 0 {
            format!("from {path} ({}:{})", self.file, node.loc.line)
        } else {
            format!("from {path} ({})", self.file)
        }
    }

    pub fn comp(&mut self, id: &str) -> Option<&mut OutComp> {
        self.comps.iter_mut().find(|c| c.id == id)
    }

    pub fn has(&self, id: &str) -> bool {
        self.comps.iter().any(|c| c.id == id)
    }

    /// Adds a component (a second one with the same id gets a suffix).
    pub fn add(&mut self, id: &str, kind: &str, from: String) -> String {
        let mut id = id.to_string();
        let mut n = 2;
        while self.has(&id) {
            id = format!(
                "{}-{n}",
                id.trim_end_matches(|c: char| c.is_ascii_digit() || c == '-')
            );
            n += 1;
        }
        self.comps.push(OutComp {
            id: id.clone(),
            kind: kind.to_string(),
            from,
            fields: Vec::new(),
            notes: Vec::new(),
        });
        id
    }

    /// Sets a field of a component (replacing one of the same key).
    pub fn set(&mut self, id: &str, f: F) {
        if let Some(c) = self.comp(id) {
            match c.fields.iter_mut().find(|x| x.key == f.key) {
                Some(x) => *x = f,
                None => c.fields.push(f),
            }
        }
    }

    /// Appends an item to a list-of-links field (`delivers_to`, `effects`, ...).
    pub fn push_link(&mut self, id: &str, key: &str, item: Vec<F>) {
        if let Some(c) = self.comp(id) {
            match c.fields.iter_mut().find(|x| x.key == key) {
                Some(F {
                    val: V::Items(items),
                    ..
                }) => items.push(item),
                _ => c.fields.push(F::new(key, V::Items(vec![item]), None)),
            }
        }
    }

    pub fn note(&mut self, id: &str, note: String) {
        if let Some(c) = self.comp(id) {
            c.notes.push(note);
        }
    }

    pub fn unsupported(&mut self, what: String, src: String) {
        self.unsupported.push((what, src));
    }

    pub fn region(&mut self, id: &str, src: String) {
        if !self.regions.iter().any(|(r, _)| r == id) {
            self.regions.push((id.to_string(), src));
        }
    }

    /// The manifest text.
    pub fn render(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "# Generated by `replay-audit import` from {} ({}).",
            comment_text(&self.file),
            self.format.name()
        );
        s.push_str("# Every imported value names its source; review every `TODO:` before relying on the findings.\n");
        s.push_str("# The input cannot tell intents, keys, effects and dedup guards: add them here or in an\n");
        s.push_str("# overlay manifest given to `check` with the original file (same ids extend these components).\n");
        for n in &self.notes {
            let _ = writeln!(s, "# {}", comment_text(n));
        }
        if !self.unsupported.is_empty() {
            s.push_str("#\n# Not imported (unsupported):\n");
            for (what, src) in &self.unsupported {
                let _ = writeln!(s, "#   - {} ({})", comment_text(what), comment_text(src));
            }
        }
        s.push_str("version: 1\n");
        if !self.regions.is_empty() {
            s.push_str("\nregions:\n");
            for (r, src) in &self.regions {
                let _ = writeln!(
                    s,
                    "  {}: {{}}  # {}; TODO: failover_to, detection, catch_up",
                    scalar(r),
                    comment_text(src)
                );
            }
        }
        if self.intents.is_empty() {
            s.push_str(
                "\n# TODO: declare the intents (business decisions) these components carry, e.g.\n",
            );
            s.push_str("# intents:\n#   my-intent:\n#     origin: <component where the decision becomes stable>\n");
            s.push_str("#     effect: <component where the business effect happens>\n");
            s.push_str("#     key: { fields: [<natural key fields>] }\n");
        } else {
            s.push_str("\nintents:\n");
            for i in &self.intents {
                let _ = writeln!(s, "  {}:", scalar(&i.id));
                for n in &i.notes {
                    let _ = writeln!(s, "    # {}", comment_text(n));
                }
                write_fields(&mut s, &i.fields, 4);
            }
        }
        if self.comps.is_empty() {
            s.push_str("\n# TODO: nothing was imported; declare the components\ncomponents: {}\n");
            return s;
        }
        s.push_str("\ncomponents:\n");
        for c in &self.comps {
            let _ = writeln!(s, "  {}:", scalar(&c.id));
            let _ = writeln!(
                s,
                "    kind: {}  # {}",
                written(&c.kind),
                comment_text(&c.from)
            );
            write_fields(&mut s, &c.fields, 4);
            for n in &c.notes {
                let _ = writeln!(s, "    # {}", comment_text(n));
            }
        }
        s
    }
}

fn comment(c: &Option<String>) -> String {
    c.as_ref()
        .map_or_else(String::new, |c| format!("  # {}", comment_text(c)))
}

fn write_fields(s: &mut String, fields: &[F], indent: usize) {
    for f in fields {
        write_field(s, f, indent, "");
    }
}

fn write_field(s: &mut String, f: &F, indent: usize, first_prefix: &str) {
    let pad = " ".repeat(indent);
    let lead = if first_prefix.is_empty() {
        pad.clone()
    } else {
        format!("{}{first_prefix}", " ".repeat(indent - first_prefix.len()))
    };
    match &f.val {
        V::S(v) => {
            let _ = writeln!(s, "{lead}{}: {}{}", f.key, written(v), comment(&f.comment));
        }
        V::List(items) => {
            let _ = writeln!(
                s,
                "{lead}{}: [{}]{}",
                f.key,
                items
                    .iter()
                    .map(|v| written(v))
                    .collect::<Vec<_>>()
                    .join(", "),
                comment(&f.comment)
            );
        }
        V::Map(fields) => {
            let _ = writeln!(s, "{lead}{}:{}", f.key, comment(&f.comment));
            write_fields(s, fields, indent + 2);
        }
        V::Items(items) => {
            let _ = writeln!(s, "{lead}{}:{}", f.key, comment(&f.comment));
            for item in items {
                for (i, x) in item.iter().enumerate() {
                    write_field(s, x, indent + 4, if i == 0 { "- " } else { "" });
                }
            }
        }
    }
}

/// Text for a `#` comment, on one line whatever the input holds: YAML ends
/// a comment at a line break (LF, CR; NEL, U+2028 and U+2029 in YAML 1.1),
/// after which imported text would be read as a field (`max_backlog: 1s`).
/// Line breaks and other controls are shown as escapes (`\n`, `\u{85}`),
/// as in error messages.
pub fn comment_text(s: &str) -> String {
    crate::diagnostics::echo(s)
}

/// A value as the manifest writes it. The importers build values from
/// numbers, durations, kebab-case ids, keywords and [`scalar`]; text of that
/// shape stays as it is, and anything else (an imported string that was
/// not passed through [`scalar`]) is quoted here, so that no imported text
/// can end the line or start a field.
fn written(v: &str) -> std::borrow::Cow<'_, str> {
    let quoted = v.starts_with('"') && serde_json::from_str::<String>(v).is_ok();
    let built = !v.is_empty()
        && v.trim() == v
        && !v.starts_with("- ")
        && v.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, ' ' | '.' | '-' | '_' | '/' | '+'));
    if quoted || built {
        std::borrow::Cow::Borrowed(v)
    } else {
        std::borrow::Cow::Owned(scalar(v))
    }
}

/// A string as a YAML scalar (quoted where plain text would be misread).
pub fn scalar(text: &str) -> String {
    let plain = !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '/'))
        && !matches!(
            text,
            "true" | "false" | "null" | "yes" | "no" | "on" | "off" | "~"
        )
        && text.parse::<f64>().is_err();
    if plain {
        text.to_string()
    } else {
        // JSON's quoting is YAML's (`\n`, `\"`, `\u001b`); besides, the
        // characters YAML does not take raw (DEL, C1, the BOM, U+FFFE,
        // U+FFFF) or may read as a line break (NEL, U+2028, U+2029) are
        // written as `\uXXXX`, which both read back as the same text.
        let json = serde_json::to_string(text).unwrap_or_else(|_| "\"\"".into());
        let mut out = String::with_capacity(json.len());
        for c in json.chars() {
            match c {
                '\u{7f}'..='\u{9f}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{feff}'
                | '\u{fffe}'
                | '\u{ffff}' => {
                    out.push_str(&format!("\\u{:04x}", c as u32));
                }
                c => out.push(c),
            }
        }
        out
    }
}

/// An input error at a node.
pub fn error_at(node: &Node, message: impl Into<String>, help: impl Into<String>) -> Diagnostic {
    let d = if node.loc.line > 0 {
        Diagnostic::at(node.loc, message).label("here")
    } else {
        Diagnostic::new(None, message)
    };
    d.help(help)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kebab_rule() {
        assert_eq!(kebab("PayoutQueue"), "payout-queue");
        assert_eq!(kebab("payout_requests"), "payout-requests");
        assert_eq!(kebab("HTTPApi2"), "http-api2");
        assert_eq!(kebab("DLQ"), "dlq");
        assert_eq!(kebab("orders.created"), "orders.created");
        assert_eq!(kebab("user/{id}/signup"), "user-id-signup");
        assert_eq!(kebab("__"), "unnamed");
    }

    #[test]
    fn keeps_tags_and_lines() {
        let n = parse(
            "A:\n  B: !Ref Foo\n  C: !GetAtt [X, Arn]\n",
            0,
            &Limits::default(),
        )
        .unwrap();
        let b = n.at(&["A", "B"]).unwrap();
        assert_eq!(
            (b.tag.as_deref(), b.str(), b.loc.line),
            (Some("!Ref"), Some("Foo"), 2)
        );
        let c = n.at(&["A", "C"]).unwrap();
        assert_eq!(
            (c.tag.as_deref(), c.items().len(), c.loc.line),
            (Some("!GetAtt"), 2, 3)
        );
    }

    #[test]
    fn json_errors_have_line_and_column() {
        let e = parse("{\n  \"a\": 1,\n  \"b\": }\n", 0, &Limits::default()).unwrap_err();
        let l = e.loc.unwrap();
        assert_eq!((l.line, l.col), (3, 8), "{}", e.message);
        assert!(
            e.message.starts_with("invalid JSON") || e.message.starts_with("invalid YAML"),
            "{}",
            e.message
        );
    }

    #[test]
    fn yaml_errors_have_line_and_column() {
        let e = parse("a: [1, 2\nb: 3", 0, &Limits::default()).unwrap_err();
        assert_eq!(e.loc.map(|l| (l.line, l.col)), Some((2, 2)));
    }

    #[test]
    fn detects_formats() {
        let l = Limits::default();
        assert_eq!(
            detect(
                "AWSTemplateFormatVersion: '2010-09-09'\nResources: {}\n",
                &l
            ),
            Some(Format::CloudFormation)
        );
        assert_eq!(
            detect("Resources:\n  Q:\n    Type: AWS::SQS::Queue\n", &l),
            Some(Format::CloudFormation)
        );
        assert_eq!(
            detect(
                "{\"format_version\":\"1.2\",\"terraform_version\":\"1.9.0\",\"planned_values\":{}}",
                &l
            ),
            Some(Format::Terraform)
        );
        assert_eq!(detect("asyncapi: 3.0.0\n", &l), Some(Format::AsyncApi));
        assert_eq!(detect("version: 1\ncomponents: {}\n", &l), None);
        assert_eq!(detect("version: 1\n", &l), None);
    }
}
