//! Nested stacks: an `AWS::CloudFormation::Stack` (`TemplateURL`) or a SAM
//! `AWS::Serverless::Application` (`Location`) whose template is a local
//! file is read into the same architecture as its parent, as
//! `aws cloudformation package` and `sam build` read it: the path relative
//! to the parent template's folder. A template the CDK synthesized names
//! its nested template in the stack resource's metadata
//! (`aws:asset:path`, beside it in `cdk.out`), and that is read instead of
//! the S3 URL its `TemplateURL` builds.
//!
//! The stack resource's `Parameters` are evaluated in the parent and become
//! the child's parameter values: a literal as it is, a `Ref`/`GetAtt` of a
//! parent resource as a reference to that resource ([`Instance::bound`]),
//! so a child's dead-letter queue may be its parent's. The child's
//! `Outputs` are what the parent's `!GetAtt Stack.Outputs.X` evaluates to
//! (see `stacks::outputs`).
//!
//! It is the template, not the user, that names the file, so it is read
//! like one the tool found: never through a symbolic link (the file or a
//! folder on the way), never outside the folder of the top template that
//! nests it (absolute paths and `..` above it are refused), text only and
//! under the size limit. Each refusal, and a remote template (`https://`,
//! `s3://`, the Serverless Application Repository), is a `TODO:` note and
//! the stack stays listed as not imported. Reading is bounded: nested
//! [`MAX_DEPTH`] deep, [`MAX_INSTANCES`] nested stacks in all, and the
//! nested files' total size within `--max-file-size`; a template that nests itself
//! (A nests B nests A) is an error at the `TemplateURL` that closes the
//! cycle.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use super::intrinsics::{self, Cf, Ev, NO_LINKS};
use super::local_file::{Refused, link_words, resolve};
use super::{Node, Value, kebab};
use crate::diagnostics::{Diagnostic, SourceMap};
use crate::manifest::Limits;

/// Stacks nested deeper than this are not read (a `TODO:`).
pub(super) const MAX_DEPTH: usize = 8;
/// At most this many nested stacks are read in one import.
pub(super) const MAX_INSTANCES: usize = 64;

/// The resource types that nest a stack.
pub(super) const STACK_TYPES: [&str; 2] =
    ["AWS::CloudFormation::Stack", "AWS::Serverless::Application"];

/// Whether a template's text may nest a stack (a cheap test before reading
/// it as one of several files).
pub(super) fn may_nest(text: &str) -> bool {
    STACK_TYPES.iter().any(|t| text.contains(t))
}

/// Every file read: the parsed templates by `Loc::file` number, their
/// names, and the source map errors render with.
#[derive(Default)]
pub(super) struct Files {
    pub roots: Vec<Node>,
    pub names: Vec<String>,
    pub sources: SourceMap,
    /// File number by identity, so a template nested twice is parsed once.
    known: HashMap<PathBuf, usize>,
    /// The size of each file, by file number.
    sizes: Vec<u64>,
    /// Bytes of nested stacks read so far: a file's size for every stack
    /// it is read as, so a template nested many times counts each time.
    bytes: u64,
}

impl Files {
    /// Adds a parsed top-level template.
    pub fn add_top(&mut self, name: &str, text: &str, limits: &Limits) -> Result<(), Diagnostic> {
        let file = self.sources.add(name.to_string(), text.to_string());
        let root = crate::import::parse(text, file, limits)?;
        check_template(&root)?;
        self.known
            .insert(identity(Path::new(name)), self.roots.len());
        self.roots.push(root);
        self.names.push(name.to_string());
        self.sizes.push(text.len() as u64);
        Ok(())
    }
}

/// One template as read: a top-level one, or a nested stack of another.
pub(super) struct Instance {
    /// Its file number (index into [`Files`]).
    pub file: usize,
    /// Its place in keys (`Queue (in LABEL)`): the file for a top-level
    /// template, the parent's label and the stack's logical id otherwise.
    pub label: String,
    /// The top-level template it belongs to (index among the tops).
    pub family: usize,
    /// The id prefix of its components (`ledger-stack.`), empty at the top.
    pub prefix: String,
    /// The construct path of its top-level CDK stack (`Payouts`), whose
    /// `aws:cdk:path` metadata gives the ids.
    pub cdk: Option<String>,
    pub params: BTreeMap<String, Node>,
    /// Parameters the parent sets to a resource: name → (key, attribute).
    pub bound: BTreeMap<String, (String, Option<String>)>,
    /// The key of the stack resource that nests it.
    pub stack: Option<String>,
    /// Its stack resources whose templates were read.
    pub nested: BTreeSet<String>,
    /// The component id of each resource that became one (pass 1).
    pub ids: BTreeMap<String, String>,
    /// The placeholder of each output of a stack not read that a link
    /// reads, by `Stack.Outputs.X` (pass 1).
    pub placeholders: BTreeMap<String, String>,
    /// The files from the top template down to it, by identity and name
    /// (cycle detection).
    chain: Vec<(PathBuf, String)>,
}

impl Instance {
    pub fn top(file: usize, name: &str, family: usize, params: BTreeMap<String, Node>) -> Self {
        Instance {
            file,
            label: name.to_string(),
            family,
            prefix: String::new(),
            cdk: None,
            params,
            bound: BTreeMap::new(),
            stack: None,
            nested: BTreeSet::new(),
            ids: BTreeMap::new(),
            placeholders: BTreeMap::new(),
            chain: vec![(identity(Path::new(name)), name.to_string())],
        }
    }

    /// The template read as a [`Cf`] with `links`.
    pub fn cf<'a>(
        &self,
        files: &'a Files,
        limits: &'a Limits,
        links: &'a intrinsics::Links,
    ) -> Cf<'a> {
        let mut cf = super::open(&files.roots[self.file], self.params.clone(), limits, links)
            .unwrap_or_else(|_| empty(&files.roots[self.file], limits, links));
        cf.label = self.label.clone();
        cf.bound = self.bound.clone();
        cf.ids = self.ids.clone();
        cf
    }
}

/// A template without resources (only for a root [`super::open`] refused,
/// which [`expand`] never keeps).
fn empty<'a>(root: &'a Node, limits: &'a Limits, links: &'a intrinsics::Links) -> Cf<'a> {
    Cf {
        root,
        params: BTreeMap::new(),
        resources: Vec::new(),
        ids: BTreeMap::new(),
        limits,
        links,
        label: String::new(),
        bound: BTreeMap::new(),
    }
}

/// A stack resource of a template: where its template is, and the values
/// its `Parameters` pass.
struct Nesting {
    lid: String,
    /// The node naming the template (for errors and notes).
    at: Node,
    /// The local file, or the `TODO:` saying why it is not read.
    file: Result<PathBuf, String>,
    passed: Vec<(String, Ev)>,
}

/// Reads the nested stacks of `tops` (and theirs), adding their files to
/// `files`; `notes` get a `TODO:` for each stack not read. The result
/// lists every template read, each after its parent.
pub(super) fn expand(
    files: &mut Files,
    tops: Vec<Instance>,
    limits: &Limits,
    notes: &mut Vec<String>,
) -> Result<Vec<Instance>, Diagnostic> {
    let mut all = tops;
    let tops = all.len();
    let mut i = 0;
    while i < all.len() {
        let found = {
            let cf = all[i].cf(files, limits, &NO_LINKS);
            nestings(&cf, &all[i], files)
        };
        for mut n in found {
            let file = match std::mem::replace(&mut n.file, Err(String::new())) {
                Ok(f) => f,
                Err(todo) => {
                    notes.push(todo);
                    continue;
                }
            };
            if all.len() - tops >= MAX_INSTANCES {
                notes.push(format!("TODO: nested stack Resources.{} of {} is not read: at most {MAX_INSTANCES} nested stacks are read", n.lid, files.names[all[i].file]));
                continue;
            }
            if let Some(child) = child(files, &all, i, n, &file, limits, notes)? {
                all[i].nested.insert(child.stack_lid.clone());
                all.push(child.instance);
            }
        }
        i += 1;
    }
    Ok(all)
}

struct Child {
    stack_lid: String,
    instance: Instance,
}

/// The instance of nesting `n` of `all[i]`, its template at `file`; none
/// (and a note) when a bound is reached or the file cannot be read.
fn child(
    files: &mut Files,
    all: &[Instance],
    i: usize,
    n: Nesting,
    file: &Path,
    limits: &Limits,
    notes: &mut Vec<String>,
) -> Result<Option<Child>, Diagnostic> {
    let parent = &all[i];
    let at = format!(
        "Resources.{} ({}:{})",
        n.lid, files.names[parent.file], n.at.loc.line
    );
    let id = identity(file);
    if let Some(d) = cycle(parent, &id, file, &n.at) {
        return Err(d);
    }
    if parent.chain.len() > MAX_DEPTH {
        notes.push(format!(
            "TODO: nested stack {at} is not read: nested stacks are read {MAX_DEPTH} deep"
        ));
        return Ok(None);
    }
    let number = match files.known.get(&id) {
        Some(k) => *k,
        None => match read(files, file, limits) {
            Ok(k) => k?,
            Err(why) => {
                notes.push(format!(
                    "TODO: nested stack {at}: its template `{}` is not read: {why}",
                    file.display()
                ));
                return Ok(None);
            }
        },
    };
    let size = files.sizes[number];
    if files.bytes.saturating_add(size) > limits.max_file_bytes {
        notes.push(format!(
            "TODO: nested stack {at} is not read: the nested stacks together hold more than --max-file-size ({} bytes; a template counts once for each stack it is read as)",
            limits.max_file_bytes
        ));
        return Ok(None);
    }
    files.bytes += size;
    let (params, bound) = passed(&files.roots[number], n.passed);
    let mut chain = parent.chain.clone();
    chain.push((id, files.names[number].clone()));
    let instance = Instance {
        file: number,
        label: format!("{}, stack {}", parent.label, n.lid),
        family: parent.family,
        prefix: format!("{}{}.", parent.prefix, kebab(&n.lid)),
        cdk: parent.cdk.clone(),
        params,
        bound,
        stack: Some(intrinsics::key(&parent.label, &n.lid)),
        nested: BTreeSet::new(),
        ids: BTreeMap::new(),
        placeholders: BTreeMap::new(),
        chain,
    };
    Ok(Some(Child {
        stack_lid: n.lid,
        instance,
    }))
}

/// The error for a stack nesting `file` (identity `id`, named at `at`)
/// within `parent`, when `file` is already on the way down to it.
fn cycle(parent: &Instance, id: &Path, file: &Path, at: &Node) -> Option<Diagnostic> {
    let start = parent.chain.iter().position(|(p, _)| p == id)?;
    let mut names: Vec<String> = parent.chain[start..]
        .iter()
        .map(|(_, name)| name.clone())
        .collect();
    names.push(file.display().to_string());
    Some(
        Diagnostic::at(
            at.loc,
            format!("nested stacks form a cycle: {}", names.join(" nests ")),
        )
        .label("this template is already being read")
        .help("a stack cannot nest itself, directly or through another stack; point TemplateURL at another template"),
    )
}

/// A nested template's parameter values and bound parameters.
type Passed = (
    BTreeMap<String, Node>,
    BTreeMap<String, (String, Option<String>)>,
);

/// The parameter values of the nested template `root`: its defaults, then
/// the values the stack resource passes (literals as values, resources as
/// bound references; a value known only at deployment leaves none).
fn passed(root: &Node, values: Vec<(String, Ev)>) -> Passed {
    let mut params = intrinsics::values(root, &[]);
    let mut bound = BTreeMap::new();
    for (k, ev) in values {
        let Some(decl) = root.at(&["Parameters", &k]) else {
            continue;
        };
        match ev {
            Ev::Lit(v) => {
                params.insert(k, intrinsics::list_parameter(decl, v));
            }
            Ev::Res(r, a) => {
                params.remove(&k);
                bound.insert(k, (r, a));
            }
            Ev::Unknown(_) => {
                params.remove(&k);
            }
        }
    }
    (params, bound)
}

/// Reads and parses the nested template at `file`: its file number, or a
/// parse error (outer `Ok`); `Err` says why the file is not read.
fn read(
    files: &mut Files,
    file: &Path,
    limits: &Limits,
) -> Result<Result<usize, Diagnostic>, String> {
    let text = crate::files::read(file, crate::files::Origin::Found, limits.max_file_bytes)
        .map_err(|d| d.message)?;
    let name = file.display().to_string();
    let number = files.sources.add(name.clone(), text.clone());
    let root = match crate::import::parse(&text, number, limits) {
        Ok(r) => r,
        Err(d) => return Ok(Err(d)),
    };
    if let Err(d) = check_template(&root) {
        return Ok(Err(d));
    }
    files.known.insert(identity(file), files.roots.len());
    files.roots.push(root);
    files.names.push(name);
    files.sizes.push(text.len() as u64);
    Ok(Ok(files.roots.len() - 1))
}

/// A nested template must be a template: a mapping with `Resources`.
fn check_template(root: &Node) -> Result<(), Diagnostic> {
    let links = intrinsics::Links::default();
    super::open(root, BTreeMap::new(), &Limits::default(), &links).map(|_| ())
}

/// The stack resources of `cf` (the template of `inst`) and where their
/// templates are; a stack whose condition is false is left out.
fn nestings(cf: &Cf, inst: &Instance, files: &Files) -> Vec<Nesting> {
    let mut out = Vec::new();
    let name = &files.names[inst.file];
    for (lid, ty, r) in &cf.resources {
        if !STACK_TYPES.contains(&ty.as_str()) {
            continue;
        }
        if let Some(c) = r.get("Condition").and_then(Node::str)
            && cf.condition(c, 0) == Some(false)
        {
            continue;
        }
        let Some((at, rel)) = location(cf, lid, ty, r, name) else {
            continue;
        };
        let top = Path::new(&files.names[inst.chain_top_file(files)]);
        let file = rel.and_then(|rel| {
            local(Path::new(name), top, &rel).map_err(|why| {
                format!("TODO: nested stack Resources.{lid} ({name}:{}): its template `{rel}` is not read: {why}; its resources are not imported (an output of it that a link reads is a placeholder)", at.loc.line)
            })
        });
        let params = r.at(&["Properties", "Parameters"]);
        let passed = params
            .map(Node::entries)
            .unwrap_or(&[])
            .iter()
            .map(|(k, v)| (k.key().to_string(), global(cf, cf.eval(v))))
            .collect();
        out.push(Nesting {
            lid: lid.clone(),
            at,
            file,
            passed,
        });
    }
    out
}

impl Instance {
    /// The file number of the top template of this instance's family.
    fn chain_top_file(&self, files: &Files) -> usize {
        self.chain
            .first()
            .and_then(|(p, _)| files.known.get(p).copied())
            .unwrap_or(self.file)
    }
}

/// A value of template `cf` as another template sees it: a resource of
/// `cf` by its key.
pub(super) fn global(cf: &Cf, ev: Ev) -> Ev {
    match ev {
        Ev::Res(r, a) if cf.resources.iter().any(|(id, _, _)| *id == r) => {
            Ev::Res(intrinsics::key(&cf.label, &r), a)
        }
        ev => ev,
    }
}

/// The node naming a stack's template and its path, or the `TODO:` saying
/// why it is not a local file; none for a resource without a location.
fn location(
    cf: &Cf,
    lid: &str,
    ty: &str,
    r: &Node,
    name: &str,
) -> Option<(Node, Result<String, String>)> {
    let todo = |n: &Node, why: String| {
        format!(
            "TODO: nested stack Resources.{lid} ({name}:{}) {why}: its resources are not imported (an output of it that a link reads is a placeholder)",
            n.loc.line
        )
    };
    // The CDK keeps the template beside the one that nests it.
    if let Some(asset) = r.at(&["Metadata", "aws:asset:path"])
        && r.at(&["Metadata", "aws:asset:property"])
            .and_then(Node::str)
            == Some("TemplateURL")
        && let Some(path) = asset.str()
    {
        return Some((asset.clone(), Ok(path.to_string())));
    }
    let key = if ty == STACK_TYPES[0] {
        "TemplateURL"
    } else {
        "Location"
    };
    let n = r.at(&["Properties", key])?;
    let text = match cf.lit(n) {
        Some(Node {
            value: Value::Str(s),
            ..
        }) => s,
        Some(v) if v.get("ApplicationId").is_some() => {
            let app = v.get("ApplicationId").map(Node::brief).unwrap_or_default();
            let why = format!("is the Serverless Application Repository's application {app}");
            return Some((n.clone(), Err(todo(n, why))));
        }
        _ => {
            let why = format!("has a {key} known only at deployment (`{}`)", n.brief());
            return Some((n.clone(), Err(todo(n, why))));
        }
    };
    if text.contains("://") || text.starts_with("s3:") {
        let why = format!("is read from `{text}`, not a local file");
        return Some((n.clone(), Err(todo(n, why))));
    }
    Some((n.clone(), Ok(text)))
}

/// The file `rel` names relative to the folder of `parent`, unless it
/// leaves the folder of `top` (the template given) or passes through a
/// symbolic link on the way from that folder.
fn local(parent: &Path, top: &Path, rel: &str) -> Result<PathBuf, String> {
    let root = top.parent().unwrap_or(Path::new(""));
    let from = parent.parent().unwrap_or(Path::new(""));
    let start = match from.strip_prefix(root) {
        Ok(r) => r.components().map(|c| c.as_os_str().to_owned()).collect(),
        Err(_) => return Err("it is not under the folder of the template given".into()),
    };
    resolve(root, start, rel).map_err(|r| match r {
        Refused::Leaves => {
            let shown = if root.as_os_str().is_empty() {
                Path::new(".")
            } else {
                root
            };
            format!(
                "it leaves the folder of {} (`{}`)",
                top.display(),
                shown.display()
            )
        }
        Refused::Absolute => {
            "an absolute path is not read (give it relative to the template)".into()
        }
        Refused::Empty => "it names no file".into(),
        Refused::Link(link) => link_words(&link),
    })
}

/// What makes two paths the same template: the resolved path where it
/// exists, else the path without `.` and `..`.
pub(super) fn identity(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| crate::files::normalise(path))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_paths_stay_in_the_folder_given() {
        let p = |parent: &str, top: &str, rel: &str| local(Path::new(parent), Path::new(top), rel);
        assert_eq!(
            p("infra/main.yaml", "infra/main.yaml", "./stacks/q.yaml"),
            Ok(PathBuf::from("infra/stacks/q.yaml"))
        );
        // A child may name a sibling folder of its own, inside the root.
        assert_eq!(
            p("infra/stacks/q.yaml", "infra/main.yaml", "../shared/d.yaml"),
            Ok(PathBuf::from("infra/shared/d.yaml"))
        );
        assert_eq!(
            p("infra/main.yaml", "infra/main.yaml", "../secret.yaml"),
            Err("it leaves the folder of infra/main.yaml (`infra`)".to_string())
        );
        assert_eq!(
            p("main.yaml", "main.yaml", "/etc/passwd"),
            Err("an absolute path is not read (give it relative to the template)".to_string())
        );
        assert_eq!(
            p("main.yaml", "main.yaml", "a/.."),
            Err("it names no file".to_string())
        );
    }
}
