//! What the readers share: the resources declared in pass 1 with their
//! component ids, the lookup of an ARN's component, and the reading of a
//! value of an expected type (an error at its place otherwise).

use std::collections::{BTreeMap, BTreeSet};

use super::arn::{self, Arn};
use super::{Item, Node};
use crate::diagnostics::Diagnostic;
use crate::import::cloudformation::invocation::{self, Invocations};
use crate::import::{F, Out, V, Value, kebab, scalar};

/// A resource a file describes or names.
pub(crate) struct Decl {
    /// Its ARN (a Lambda ARN without qualifier), or `SERVICE:NAME` when
    /// the file gives only a name.
    pub key: String,
    pub service: &'static str,
    pub name: String,
    pub kind: &'static str,
    /// The file describes the resource itself (not a link to it): its
    /// kind wins over a kind told from a link.
    pub primary: bool,
    /// The resource type named in the component's comment.
    pub ty: &'static str,
    /// Where it was read: its ARN's node, or the description's.
    pub path: String,
    pub node: Node,
    pub arn: Option<Arn>,
}

impl Decl {
    /// A resource named by ARN `text` at `node` (`path`).
    pub fn of_arn(
        text: &str,
        node: &Node,
        path: &str,
        kind: &'static str,
        ty: &'static str,
        primary: bool,
    ) -> Option<Decl> {
        let a = arn::parse(text)?;
        let service = service(&a.service)?;
        Some(Decl {
            key: Arn::key(text),
            service,
            name: a.name.clone(),
            kind,
            primary,
            ty,
            path: path.to_string(),
            node: node.clone(),
            arn: Some(a),
        })
    }

    /// A resource known only by name (from a file name).
    pub fn named(
        service: &'static str,
        name: &str,
        kind: &'static str,
        ty: &'static str,
        path: &str,
        node: &Node,
    ) -> Decl {
        Decl {
            key: format!("{service}:{name}"),
            service,
            name: name.to_string(),
            kind,
            primary: true,
            ty,
            path: path.to_string(),
            node: Node::new(crate::import::Value::Null, node.loc),
            arn: None,
        }
    }
}

/// The services the importer declares resources of, as `'static` names.
fn service(s: &str) -> Option<&'static str> {
    const KNOWN: [&str; 9] = [
        "sqs",
        "sns",
        "lambda",
        "dynamodb",
        "events",
        "states",
        "pipes",
        "scheduler",
        "kinesis",
    ];
    KNOWN.into_iter().find(|k| *k == s)
}

/// The state of pass 2.
pub(crate) struct Ctx {
    pub out: Out,
    /// Component id by resource key.
    ids: BTreeMap<String, String>,
    /// Resource keys by (service, name).
    names: BTreeMap<(String, String), Vec<String>>,
    pub inv: Invocations,
    units: BTreeSet<String>,
    /// Queues with a RedriveAllowPolicy: (id, permission, source), read
    /// once every dead letter is known.
    pub allow: Vec<(String, String, String)>,
    /// Every component declared: (id, resource type, name), for the
    /// targets of a state machine's tasks.
    pub named: Vec<(String, String, String)>,
    /// The Config rows read, for the keys as they are written.
    rows: Vec<super::config::Row>,
}

/// The source comment of `node` at `path`, its keys as the file writes them.
fn src(out: &Out, rows: &[super::config::Row], path: &str, node: &Node) -> String {
    let written = super::config::written_path(rows, path, node.loc.file);
    out.src(written.as_deref().unwrap_or(path), node)
}

impl Ctx {
    /// Gives every declared resource its component (one per key; one
    /// known only by name joins the one resource of its service with that
    /// name), its Region and ARN.
    pub fn new(mut out: Out, decls: Vec<Decl>, rows: Vec<super::config::Row>) -> Ctx {
        let mut merged: Vec<Decl> = Vec::new();
        let mut at: BTreeMap<String, usize> = BTreeMap::new();
        let (with_arn, by_name): (Vec<Decl>, Vec<Decl>) =
            decls.into_iter().partition(|d| d.arn.is_some());
        for d in with_arn.into_iter().chain(by_name) {
            let same = at.get(&d.key).copied().or_else(|| {
                if d.arn.is_some() {
                    return None;
                }
                let mut m = merged
                    .iter()
                    .enumerate()
                    .filter(|(_, x)| x.service == d.service && x.name == d.name);
                match (m.next(), m.next()) {
                    (Some((i, _)), None) => Some(i),
                    _ => None,
                }
            });
            match same {
                Some(i) if d.primary && !merged[i].primary => {
                    // The resource's own description names it, not a link.
                    let m = &mut merged[i];
                    (m.kind, m.primary, m.ty) = (d.kind, true, d.ty);
                    (m.path, m.node) = (d.path, d.node);
                    if m.arn.is_none() {
                        m.arn = d.arn;
                    }
                    at.insert(d.key, i);
                }
                Some(i) => {
                    at.insert(d.key, i);
                }
                None => {
                    at.insert(d.key.clone(), merged.len());
                    merged.push(d);
                }
            }
        }
        let ids = ids(&merged);
        let mut comp_of = Vec::with_capacity(merged.len());
        let mut named = Vec::with_capacity(merged.len());
        for (d, id) in merged.iter().zip(&ids) {
            let from = format!("{}, {}", d.ty, src(&out, &rows, &d.path, &d.node));
            let id = out.add(id, d.kind, from);
            if let Some(a) = &d.arn {
                let text = &d.key;
                let c = format!(
                    "the Region of the ARN, {}",
                    src(&out, &rows, &d.path, &d.node)
                );
                if crate::manifest::load::is_valid_id(&a.region) {
                    out.region(&a.region, c.clone());
                    out.set(
                        &id,
                        F::new("regions", V::List(vec![a.region.clone()]), Some(c)),
                    );
                }
                out.set(
                    &id,
                    F::new(
                        "resource",
                        V::S(scalar(text)),
                        Some(format!("account {}", a.account)),
                    ),
                );
            }
            if !d.primary {
                out.unresolved(&id, format!("TODO: `{id}` is named by a link, but the export does not describe it: export it (`replay-audit export-aws`), or declare its kind and settings"));
            }
            named.push((id.clone(), d.ty.to_string(), d.name.clone()));
            comp_of.push(id);
        }
        let mut names: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
        for d in &merged {
            names
                .entry((d.service.to_string(), d.name.clone()))
                .or_default()
                .push(d.key.clone());
        }
        let units = merged.iter().map(|d| d.key.clone()).collect();
        Ctx {
            out,
            ids: at
                .into_iter()
                .map(|(k, i)| (k, comp_of[i].clone()))
                .collect(),
            names,
            inv: Invocations::new(),
            units,
            allow: Vec::new(),
            named,
            rows,
        }
    }

    /// Counts a resource read that is no component (a mapping, a
    /// subscription), once per key.
    pub fn unit(&mut self, key: &str) {
        self.units.insert(key.to_string());
    }

    /// The component of the resource an ARN, queue URL or name (of
    /// `service`) names, if it was declared.
    pub fn find(&self, text: &str, service: &str) -> Option<String> {
        if let Some(id) = self.ids.get(&Arn::key(text)) {
            return Some(id.clone());
        }
        let (svc, name) = match arn::parse(text).or_else(|| arn::queue_url(text)) {
            Some(a) => (a.service, a.name),
            None => (service.to_string(), text.to_string()),
        };
        match self.names.get(&(svc, name))?.as_slice() {
            [one] => self.ids.get(one).cloned(),
            _ => None,
        }
    }

    /// The component a link at `node` (`path`) leads to: a declared one,
    /// or the id of a placeholder for a resource outside the export (by
    /// its name, declared with a TODO); none, with a TODO on `on`, for a
    /// value that names no AWS resource.
    pub fn target(&mut self, on: &str, node: &Node, path: &str, what: &str) -> Option<String> {
        let text = node.text().unwrap_or_default();
        if let Some(id) = self.find(&text, "") {
            return Some(id);
        }
        match arn::parse(&text).or_else(|| arn::queue_url(&text)) {
            Some(a) => {
                let id = if crate::manifest::load::is_valid_id(&a.name) {
                    a.name
                } else {
                    kebab(&a.name)
                };
                let id = if self.out.has(&id) {
                    format!("{}.{id}", a.service)
                } else {
                    id
                };
                Some(kebab_keep(&id))
            }
            None => {
                let c = self.src(path, node);
                self.out.unresolved(on, format!("TODO: {what} `{text}` ({c}) is no AWS resource the export holds; declare it"));
                None
            }
        }
    }

    /// The component of a resource the export declared by ARN or name.
    pub fn id(&self, key: &str) -> Option<String> {
        self.ids.get(&Arn::key(key)).cloned()
    }

    pub fn src(&self, path: &str, node: &Node) -> String {
        src(&self.out, &self.rows, path, node)
    }

    /// The skeleton's model: function kinds decided, resources counted.
    pub fn finish(mut self) -> Out {
        super::sqs::redrives(&mut self);
        invocation::resolve(&mut self.out, self.inv);
        self.out.coverage.total += self.units.len();
        self.out
    }
}

/// An id as written, made valid only where it is not.
fn kebab_keep(id: &str) -> String {
    if crate::manifest::load::is_valid_id(id) {
        id.to_string()
    } else {
        kebab(id)
    }
}

/// The component ids of `decls`: the resource's name, namespaced by
/// Region (or account and Region, or service) only where two share it.
fn ids(decls: &[Decl]) -> Vec<String> {
    let base: Vec<String> = decls.iter().map(|d| kebab_keep(&d.name)).collect();
    let mut count: BTreeMap<&str, usize> = BTreeMap::new();
    for b in &base {
        *count.entry(b).or_default() += 1;
    }
    decls
        .iter()
        .zip(&base)
        .map(|(d, b)| {
            if count[b.as_str()] < 2 {
                return b.clone();
            }
            let twins: Vec<&Decl> = decls
                .iter()
                .zip(&base)
                .filter(|(_, x)| *x == b)
                .map(|(d, _)| d)
                .collect();
            let place = |d: &Decl| {
                d.arn
                    .as_ref()
                    .map(|a| (a.account.clone(), a.region.clone()))
            };
            let regions: BTreeSet<_> = twins.iter().map(|d| place(d).map(|p| p.1)).collect();
            let places: BTreeSet<_> = twins.iter().map(|d| place(d)).collect();
            let services: BTreeSet<_> = twins.iter().map(|d| d.service).collect();
            let prefix = match place(d) {
                Some((_, r)) if regions.len() == twins.len() => r,
                Some((a, r)) if places.len() == twins.len() => format!("{a}.{r}"),
                _ if services.len() == twins.len() => d.service.to_string(),
                _ => String::new(),
            };
            if prefix.is_empty() {
                b.clone()
            } else {
                kebab_keep(&format!("{prefix}.{b}"))
            }
        })
        .collect()
}

/// The key `k` of `n`, or its lower-camel-case twin (a Config item writes
/// `tableName` where the CLI writes `TableName`).
pub(super) fn get<'a>(n: &'a Node, k: &str) -> Option<&'a Node> {
    n.get(k).or_else(|| n.get(&super::config::lower_first(k)))
}

/// `get` along a path.
pub(super) fn at<'a>(n: &'a Node, keys: &[&str]) -> Option<&'a Node> {
    keys.iter().try_fold(n, |n, k| get(n, k))
}

/// The error of a value of the wrong type.
fn wrong(n: &Node, path: &str, expected: &str) -> Diagnostic {
    n.error_at(
        format!("`{path}` must be {expected}, found {}", n.value.type_name()),
        "give the JSON the AWS CLI printed, unchanged (`--output json`)",
    )
}

/// A whole number: an integer, or a string of digits as `get-queue-attributes` prints.
pub(super) fn int(n: &Node, path: &str) -> Result<i64, Diagnostic> {
    match &n.value {
        Value::Int(_) | Value::Str(_) => n.int().ok_or_else(|| wrong(n, path, "a whole number")),
        _ => Err(wrong(n, path, "a whole number")),
    }
}

/// A boolean: `true`/`false`, or the strings the CLI prints for attributes.
pub(super) fn flag(n: &Node, path: &str) -> Result<bool, Diagnostic> {
    n.boolean().ok_or_else(|| wrong(n, path, "true or false"))
}

/// A string.
pub(super) fn text(n: &Node, path: &str) -> Result<String, Diagnostic> {
    match &n.value {
        Value::Str(s) => Ok(s.clone()),
        _ => Err(wrong(n, path, "a string")),
    }
}

/// An object the CLI prints as a JSON string (`RedrivePolicy`), or as an
/// object; its nodes carry the string's place.
pub(super) fn json_object(n: &Node, path: &str) -> Result<Node, Diagnostic> {
    match &n.value {
        Value::Map(_) => Ok(n.clone()),
        Value::Str(s) => match serde_json::from_str::<serde_json::Value>(s) {
            Ok(j @ serde_json::Value::Object(_)) => {
                let mut node = crate::import::tree::from_json(j, n.loc.file);
                relocate(&mut node, n.loc);
                Ok(node)
            }
            _ => Err(wrong(n, path, "a JSON object written as a string")),
        },
        _ => Err(wrong(n, path, "a JSON object written as a string")),
    }
}

/// Gives every node of `n` the place `loc`.
pub(super) fn relocate(n: &mut Node, loc: crate::diagnostics::Loc) {
    n.loc = loc;
    match &mut n.value {
        Value::Seq(items) => items.iter_mut().for_each(|x| relocate(x, loc)),
        Value::Map(m) => m.iter_mut().for_each(|(k, x)| {
            k.loc = loc;
            relocate(x, loc)
        }),
        _ => {}
    }
}

/// The ARN of an item's resource, its node and path: the string at
/// `keys`, else the one a Config row gives beside its configuration.
pub(super) fn arn_of(item: &Item, keys: &[&str]) -> Option<(String, Node, String)> {
    if let Some(n) = at(item.node, keys)
        && let Some(s) = n.str()
    {
        return Some((
            s.to_string(),
            n.clone(),
            format!("{}.{}", item.base, keys.join(".")),
        ));
    }
    item.arn.clone()
}
