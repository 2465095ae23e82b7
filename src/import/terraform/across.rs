//! Several roots (module folders or plans) imported together, one
//! skeleton each, linked where one names a resource the other manages: a
//! literal ARN, queue URL or name in root B (`event_source_arn =
//! "arn:aws:sqs:eu-west-1:123456789012:orders"`) for a queue of root A
//! puts the link on A's queue, as an `Fn::ImportValue` links CloudFormation
//! stacks.
//!
//! After every root's components are known, the names of the resources
//! each one manages are indexed once. A root's string values are then
//! split into ARNs, URLs and names (parsed as the CloudFormation reader
//! parses them, [`arn_parts`]); each that names exactly one resource of
//! the ARN's service in another root adds that resource to the root's own
//! (marked foreign: found by its name, never by its address) and a
//! stand-in component to its output. What the root's readers write on a
//! stand-in (a `delivers_to` link, a `dead_letter`, the kind a mapping
//! gives a function) is then moved to the root that manages it. Each
//! value is looked at once, so the work stays linear in the inputs.

use std::collections::{BTreeMap, BTreeSet};

use super::{Aliased, Res, prepare, read_links, roots};
use crate::import::cloudformation::arn_parts;
use crate::import::{Node, Out, OutComp, V, Value, placeholders};

/// The service an ARN of a resource of type `ty` names.
fn service(ty: &str) -> Option<&'static str> {
    Some(match ty {
        "aws_sqs_queue" => "sqs",
        "aws_sns_topic" => "sns",
        "aws_lambda_function" => "lambda",
        "aws_dynamodb_table" => "dynamodb",
        "aws_kinesis_stream" => "kinesis",
        "aws_cloudwatch_event_rule" => "events",
        "aws_sfn_state_machine" => "states",
        "aws_scheduler_schedule" => "scheduler",
        "aws_pipes_pipe" => "pipes",
        _ => return None,
    })
}

/// Longer strings are no ARN, URL or name.
const MAX_NAME: usize = 2048;

/// Reads the roots `trees` into `outs` (one each, ids namespaced by
/// `spaces`), linking across them; returns each root's aliased components.
pub(super) fn read(
    trees: &[&Node],
    outs: &mut [Out],
    spaces: &[Option<roots::Namespace>],
) -> Vec<Aliased> {
    let mut all: Vec<Vec<Res>> = Vec::with_capacity(trees.len());
    for ((tree, out), ns) in trees.iter().zip(outs.iter_mut()).zip(spaces) {
        all.push(prepare(tree, out, ns.as_ref()));
    }
    let names = managed_names(&all);
    let mut aliased = Vec::with_capacity(trees.len());
    let mut moved: Vec<(usize, Option<String>, OutComp)> = Vec::new();
    for (i, tree) in trees.iter().enumerate() {
        let mut res = all[i].clone();
        let mut stand_ins = BTreeMap::new();
        for (k, j) in wanted(&all[i], i, &names) {
            let r = &all[k][j];
            let Some(id) = r.id.clone() else { continue };
            let Some((kind, from)) = outs[k].comp(&id).map(|c| (c.kind.clone(), c.from.clone()))
            else {
                continue;
            };
            if outs[i].has(&id) || stand_ins.contains_key(&id) {
                continue;
            }
            outs[i].add(&id, &kind, from);
            stand_ins.insert(id, (k, kind));
            res.push(Res {
                foreign: true,
                ..r.clone()
            });
        }
        aliased.push(read_links(tree, &res, &mut outs[i]));
        for c in outs[i].remove(|c| stand_ins.contains_key(&c.id)) {
            let (k, kind) = &stand_ins[&c.id];
            let kind = (c.kind != *kind).then(|| c.kind.clone());
            if kind.is_some() || !c.fields.is_empty() || !c.notes.is_empty() {
                moved.push((*k, kind, c));
            }
        }
    }
    for (k, kind, c) in moved {
        merge(&mut outs[k], kind, c);
    }
    aliased
}

/// Which (root, resource) each name of a managed, read resource names,
/// with its ARN service.
type Names = BTreeMap<String, Vec<(usize, usize, Option<&'static str>)>>;

fn managed_names(all: &[Vec<Res>]) -> Names {
    let mut names = Names::new();
    for (k, res) in all.iter().enumerate() {
        for (j, r) in res.iter().enumerate() {
            let data = r.node.get("mode").and_then(Node::str) == Some("data");
            if r.id.is_none() || data {
                continue;
            }
            let own = ["name", "function_name"]
                .iter()
                .filter_map(|a| r.values.get(a).and_then(Node::text));
            let own: BTreeSet<String> = own.collect();
            for n in own {
                names.entry(n).or_default().push((k, j, service(&r.ty)));
            }
        }
    }
    names
}

/// The resources of other roots that the string values of root `i`'s
/// resources (`res`) name, each one once.
fn wanted(res: &[Res], i: usize, names: &Names) -> BTreeSet<(usize, usize)> {
    let mut texts = Vec::new();
    for r in res {
        strings(r.values, &mut texts, 0);
    }
    let mut out = BTreeSet::new();
    for t in texts.iter().flat_map(|t| tokens(t)) {
        let (svc, name, _) = arn_parts(t);
        let Some(all) = names.get(name) else { continue };
        let mut found = all
            .iter()
            .filter(|(k, _, s)| *k != i && svc.is_none_or(|x| Some(x) == *s));
        if let (Some((k, j, _)), None) = (found.next(), found.next()) {
            out.insert((*k, *j));
        }
    }
    out
}

/// Every string under `n`.
fn strings<'a>(n: &'a Node, out: &mut Vec<&'a str>, depth: usize) {
    if depth > 32 {
        return;
    }
    match &n.value {
        Value::Str(s) if s.len() <= MAX_NAME => out.push(s),
        Value::Seq(items) => items.iter().for_each(|x| strings(x, out, depth + 1)),
        Value::Map(entries) => entries.iter().for_each(|(_, x)| strings(x, out, depth + 1)),
        _ => {}
    }
}

/// The ARNs and queue URLs in a string (a policy's JSON holds some), or
/// the string itself as a name.
fn tokens(s: &str) -> Vec<&str> {
    if !(s.contains("arn:") || s.contains("https://sqs.")) {
        return vec![s];
    }
    s.split(|c: char| c.is_whitespace() || "\"',{}[]\\".contains(c))
        .filter(|t| t.starts_with("arn:") || t.starts_with("https://sqs."))
        .collect()
}

/// What another root's readers wrote on stand-in `c`, added to the
/// component of the same id in `out`: the `kind` they gave it, the links
/// it starts, the settings `out` does not set itself, its notes.
fn merge(out: &mut Out, kind: Option<String>, c: OutComp) {
    let Some(own) = out.comp(&c.id) else { return };
    if let Some(k) = kind {
        own.kind = k;
    }
    own.notes.extend(c.notes);
    for f in c.fields {
        match (f.val, own.fields.iter_mut().find(|x| x.key == f.key)) {
            (V::Items(items), Some(x)) => {
                if let V::Items(mine) = &mut x.val {
                    mine.extend(items);
                }
            }
            (val, None) => own
                .fields
                .push(crate::import::F::new(&f.key, val, f.comment)),
            _ => {}
        }
    }
}

/// Adds the placeholders each output needs for ids that no output
/// declares; an id another output declares is no placeholder.
pub(super) fn declare_missing(outs: &mut [Out]) {
    let declared: BTreeSet<String> = outs
        .iter()
        .flat_map(|o| o.comps.iter().map(|c| c.id.clone()))
        .collect();
    for out in outs.iter_mut() {
        let before: BTreeSet<String> = out.comps.iter().map(|c| c.id.clone()).collect();
        placeholders::declare_missing(out);
        out.remove(|c| !before.contains(&c.id) && declared.contains(&c.id));
    }
}
