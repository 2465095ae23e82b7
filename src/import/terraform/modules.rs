//! Several Terraform module folders imported together: a folder that
//! another one calls (`module "orders" { source = "./orders" }`) is read as
//! that call's module, with the call's arguments as its variables and its
//! resources at `module.orders.…`, so that the root and the modules it calls
//! are one skeleton whose references link across them. A registry or
//! remote source is read the same way from the root's module cache
//! ([`super::cache`], looked up by the call's key `a.b`); a call that is not
//! read leaves a TODO, and the outputs of it that resources use become
//! placeholders ([`super::unread`]).
//!
//! Calls are followed at most [`MAX_DEPTH`] deep and [`MAX_INSTANCES`]
//! times in all, so a folder that calls itself, or a chain of folders each
//! calling the next twice, cannot make the import loop or grow
//! exponentially.

use std::path::{Component, Path, PathBuf};

use super::config::{self, Instance};
use super::hcl::{Block, Body};
use crate::diagnostics::Loc;
use crate::import::{Node, Value};

/// Module calls nested deeper than this are not followed.
pub(super) const MAX_DEPTH: usize = 16;
/// At most this many module instances are read for one root.
pub(super) const MAX_INSTANCES: usize = 64;

/// A module folder: its path and its parsed files (name, body, is a
/// `.tfvars` file), in precedence order.
pub(super) struct Folder {
    pub dir: PathBuf,
    pub files: Vec<(String, Body, bool)>,
    /// A root's module cache (`.terraform/modules/modules.json`): the
    /// folder of each call by key (`queue`, `queue.inner`).
    pub cache: Vec<(String, usize)>,
    /// A folder read from a module cache: never a root.
    pub cached: bool,
}

/// `dir` joined with a local module `source` (`./x`, `../x`), without
/// `.` and `..` parts; `None` for a registry or remote source.
fn local(dir: &Path, source: &str) -> Option<PathBuf> {
    if !(source.starts_with("./") || source.starts_with("../")) {
        return None;
    }
    Some(normal(&dir.join(source)))
}

/// A path with `.` dropped and `..` applied to the parts before it.
pub(super) fn normal(p: &Path) -> PathBuf {
    let mut out: Vec<Component> = Vec::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir if matches!(out.last(), Some(Component::Normal(_))) => {
                out.pop();
            }
            c => out.push(c),
        }
    }
    out.iter().collect()
}

/// The literal sources of a folder's `module` blocks.
fn sources(f: &Folder) -> impl Iterator<Item = &str> {
    f.files
        .iter()
        .filter(|x| !x.2)
        .flat_map(|x| x.1.blocks.iter())
        .filter(|b: &&Block| b.ident == "module")
        .filter_map(|b| match b.body.attr("source").map(|a| &a.expr) {
            Some(hcl::Expression::String(s)) => Some(s.as_str()),
            _ => None,
        })
}

/// The local folders the `.tf` files (name, text) of folder `dir` call,
/// as far as they parse (a syntax error is reported when they are read).
pub(super) fn local_calls(dir: &Path, files: &[(String, String)]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for (_, text) in files
        .iter()
        .filter(|f| super::is_config_file(Path::new(&f.0)))
    {
        let Ok(body) = super::hcl::parse(text, 0) else {
            continue;
        };
        let f = Folder {
            dir: dir.to_path_buf(),
            files: vec![(String::new(), body, false)],
            cache: Vec::new(),
            cached: false,
        };
        out.extend(sources(&f).filter_map(|s| local(dir, s)));
    }
    out
}

/// The folder a local `source` of folder `from` names, among `folders`.
fn called(folders: &[Folder], from: usize, source: &str) -> Option<usize> {
    let target = local(&folders[from].dir, source)?;
    folders.iter().position(|f| normal(&f.dir) == target)
}

/// The folders no other folder calls: each is the root of one import.
/// A folder only reached through a cycle of calls is a root too.
pub(super) fn roots(folders: &[Folder]) -> Vec<usize> {
    let mut is_called = vec![false; folders.len()];
    for (i, f) in folders.iter().enumerate() {
        for s in sources(f) {
            if let Some(j) = called(folders, i, s).filter(|j| *j != i) {
                is_called[j] = true;
            }
        }
    }
    let mut roots: Vec<usize> = (0..folders.len())
        .filter(|i| !is_called[*i] && !folders[*i].cached)
        .collect();
    if roots.is_empty() && !folders.is_empty() {
        roots.push(0);
    }
    roots
}

/// A module call that is not read: its address (`module.queue`), its
/// source and the place of its block.
pub(super) struct Unread {
    pub address: String,
    pub source: String,
    pub loc: Loc,
    /// Its folder is known, but the calls followed reached
    /// [`MAX_DEPTH`] or [`MAX_INSTANCES`].
    pub limited: bool,
}

/// What reading a root and the modules it calls gives.
pub(super) struct Tree {
    pub root: Node,
    pub notes: Vec<String>,
    pub region: Option<(String, String)>,
    /// The root's aliased `aws` providers: (`aws.ALIAS`, region, place).
    pub aliases: Vec<(String, String, String)>,
    /// The folders read (the root first).
    pub read: Vec<usize>,
    /// The `resource` blocks of every module instance read.
    pub blocks: usize,
}

/// Reads folder `root` (variables from `params`) and every folder among
/// `folders` it calls, under the evaluation `budget` each.
pub(super) fn read(
    folders: &[Folder],
    root: usize,
    params: &[(String, String)],
    budget: usize,
) -> Tree {
    let top = Instance {
        prefix: String::new(),
        args: None,
        unknown: Vec::new(),
        providers: Default::default(),
    };
    let first = config::read(&folders[root].files, params, &top, budget);
    let mut notes = Vec::new();
    let mut children = Vec::new();
    let mut config = Vec::new();
    let mut read = vec![root];
    let region = first.region.clone();
    let aliases = first.aliases.clone();
    let mut outputs = Vec::new();
    let mut queue = std::collections::VecDeque::from([(root, String::new(), first, 0usize)]);
    let mut instances = 1;
    let mut planned_root = None;
    let mut unread = Vec::new();
    let mut blocks = 0;
    while let Some((i, prefix, r, depth)) = queue.pop_front() {
        blocks += r.blocks;
        notes.extend(r.notes);
        config.extend(r.config);
        outputs.extend(r.outputs);
        match planned_root {
            None => planned_root = Some(r.planned),
            Some(_) => children.push((prefix.trim_end_matches('.').to_string(), r.planned)),
        }
        for call in r.calls {
            let key = super::cache::key(&prefix, &call.name);
            let local = call.source.as_deref().and_then(|s| called(folders, i, s));
            let cached = folders[root].cache.iter().find(|c| c.0 == key).map(|c| c.1);
            let target = local.or(cached);
            let Some(j) = target.filter(|_| depth < MAX_DEPTH && instances < MAX_INSTANCES) else {
                // The instances of one call share its note.
                push_once(&mut notes, call.note);
                unread.push(Unread {
                    address: format!("{prefix}module.{}", call.address),
                    source: call.source.unwrap_or_default(),
                    loc: call.loc,
                    limited: target.is_some(),
                });
                continue;
            };
            if local.is_none() {
                push_once(
                    &mut notes,
                    format!(
                        "module `{key}` (source `{}`) is read from the module cache `terraform init` wrote: {}",
                        call.source.as_deref().unwrap_or("?"),
                        folders[j].dir.display()
                    ),
                );
            }
            instances += 1;
            if !read.contains(&j) {
                read.push(j);
            }
            let module = Instance {
                prefix: format!("{prefix}module.{}.", call.address),
                args: Some(call.args),
                unknown: call.unknown,
                providers: call.providers,
            };
            let child = config::read(&folders[j].files, &[], &module, budget);
            queue.push_back((j, module.prefix, child, depth + 1));
        }
    }
    let mut planned_root = planned_root.unwrap_or_default();
    planned_root.extend(super::unread::placeholders(&unread, &config));
    Tree {
        root: tree(planned_root, children, config, outputs),
        notes,
        region,
        aliases,
        read,
        blocks,
    }
}

/// Adds `note` unless the instance of another call already did.
fn push_once(notes: &mut Vec<String>, note: String) {
    if !notes.contains(&note) {
        notes.push(note);
    }
}

/// The plan-shaped tree of a root module's resources (`planned`,
/// `config`) and the modules it calls (their address and planned
/// resources; their configuration is in `config`, by full address, and
/// their outputs in `outputs`, by full name).
fn tree(
    planned: Vec<Node>,
    children: Vec<(String, Vec<Node>)>,
    config: Vec<Node>,
    outputs: Vec<(String, Node)>,
) -> Node {
    let seq = |items: Vec<Node>| Node::new(Value::Seq(items), Loc::default());
    let s = |t: String| Node::string(t, Loc::default());
    let children = children
        .into_iter()
        .map(|(address, res)| map(vec![("address", s(address)), ("resources", seq(res))]))
        .collect();
    map(vec![
        (
            "planned_values",
            map(vec![(
                "root_module",
                map(vec![
                    ("resources", seq(planned)),
                    ("child_modules", seq(children)),
                ]),
            )]),
        ),
        (
            "configuration",
            map(vec![(
                "root_module",
                map(vec![
                    ("resources", seq(config)),
                    ("outputs", Node::map(outputs, Loc::default())),
                ]),
            )]),
        ),
    ])
}

fn map(entries: Vec<(&str, Node)>) -> Node {
    Node::map(entries, Loc::default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_sources_resolve_against_the_folder() {
        let d = Path::new("infra/root");
        assert_eq!(
            local(d, "./orders"),
            Some(PathBuf::from("infra/root/orders"))
        );
        assert_eq!(
            local(d, "../modules/q"),
            Some(PathBuf::from("infra/modules/q"))
        );
        assert_eq!(local(d, "terraform-aws-modules/sqs/aws"), None);
        assert_eq!(local(Path::new(""), "./m"), Some(PathBuf::from("m")));
    }
}
