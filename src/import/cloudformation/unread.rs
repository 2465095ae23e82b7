//! Outputs of nested stacks that are not read (a remote `TemplateURL`, an
//! application from the Serverless Application Repository, a file refused):
//! so that no link vanishes, every output of such a stack that a link
//! reads (`EventSourceArn: !GetAtt Audit.Outputs.QueueArn`) becomes a
//! placeholder component of a generic kind, with a `TODO:`, and the link
//! leads to it; an overlay with its id sets the real kind and values.
//! An output used elsewhere (a KMS key, a name in an environment
//! variable) makes none.

use std::collections::{BTreeMap, BTreeSet};

use super::intrinsics::{Cf, intrinsic};
use super::nested::STACK_TYPES;
use super::{Node, Out, Value, kebab};

/// Adds a placeholder component for every output of a nested stack of
/// `cf` that is not read (not in `nested`) that a link reads; `prefix` is
/// the template's id prefix. Returns the placeholder ids by
/// `Stack.Outputs.X`.
pub(super) fn declare(
    cf: &Cf,
    prefix: &str,
    nested: &BTreeSet<String>,
    out: &mut Out,
) -> BTreeMap<String, String> {
    let unread: BTreeSet<String> = (cf.resources.iter())
        .filter(|(lid, ty, r)| {
            STACK_TYPES.contains(&ty.as_str())
                && !nested.contains(lid)
                && (r.get("Condition").and_then(Node::str))
                    .is_none_or(|c| cf.condition(c, 0) != Some(false))
        })
        .map(|(lid, _, _)| lid.clone())
        .collect();
    let mut ids = BTreeMap::new();
    for ((lid, output), n) in referenced(cf.root, &unread) {
        let base = format!("{prefix}{}.{}", kebab(&lid), stem(&output));
        let from = out.src(&format!("Resources.{lid}.Outputs.{output}"), &n);
        let id = out.add(
            &base,
            kind(&output),
            format!("output {output} of the nested stack {lid}, which is not read; {from}"),
        );
        out.unresolved(&id, format!("TODO: a placeholder for output `{output}` of the nested stack `{lid}`, whose template is not read (see the header): declare its kind and settings here or in an overlay"));
        ids.insert(format!("{lid}.Outputs.{output}"), id);
    }
    ids
}

/// The properties (at any depth) whose value a link is read from: event
/// sources, functions, dead letters, targets, subscriptions, destinations.
const LINKED: [&str; 16] = [
    "EventSourceArn",
    "FunctionName",
    "Function",
    "deadLetterTargetArn",
    "TargetArn",
    "Arn",
    "Queue",
    "QueueArn",
    "QueueUrl",
    "Stream",
    "Topic",
    "TopicArn",
    "Endpoint",
    "Destination",
    "Source",
    "Target",
];

/// Nodes deeper than this are not searched.
const MAX_DEPTH: usize = 64;

/// The outputs of the stacks `unread` (logical ids) that a link of the
/// template `root` reads: (stack, output) → the first node reading it.
pub(super) fn referenced(
    root: &Node,
    unread: &BTreeSet<String>,
) -> BTreeMap<(String, String), Node> {
    let mut found = BTreeMap::new();
    if unread.is_empty() {
        return found;
    }
    if let Some(resources) = root.get("Resources") {
        walk(resources, "", unread, &mut found, 0);
    }
    found
}

fn walk(
    n: &Node,
    key: &str,
    unread: &BTreeSet<String>,
    found: &mut BTreeMap<(String, String), Node>,
    depth: usize,
) {
    if depth > MAX_DEPTH {
        return;
    }
    if LINKED.contains(&key) {
        for r in output_refs(n, unread) {
            found.entry(r).or_insert_with(|| n.clone());
        }
    }
    match &n.value {
        Value::Map(m) => {
            for (k, v) in m {
                // An intrinsic's argument is read for the property above it.
                let k = k.key();
                let inner = if k.starts_with("Fn::") { key } else { k };
                walk(v, inner, unread, found, depth + 1);
            }
        }
        Value::Seq(items) => items
            .iter()
            .for_each(|x| walk(x, key, unread, found, depth + 1)),
        _ => {}
    }
}

/// The (stack, output) pairs `n` refers to itself: `!GetAtt S.Outputs.X`,
/// `Fn::GetAtt: [S, Outputs.X]`, or `${S.Outputs.X}` in a `Sub`.
fn output_refs(n: &Node, unread: &BTreeSet<String>) -> Vec<(String, String)> {
    let Some((f, arg)) = intrinsic(n) else {
        return Vec::new();
    };
    let arg = if n.tag.is_some() {
        Node {
            tag: None,
            ..arg.clone()
        }
    } else {
        arg.clone()
    };
    let pair = |s: &str, att: &str| {
        let out = att.strip_prefix("Outputs.")?;
        unread.contains(s).then(|| (s.to_string(), out.to_string()))
    };
    match f.as_str() {
        "Fn::GetAtt" => {
            let found = match &arg.value {
                Value::Str(s) => s.split_once('.').and_then(|(s, a)| pair(s, a)),
                Value::Seq(items) => match (
                    items.first().and_then(Node::str),
                    items.get(1).and_then(Node::str),
                ) {
                    (Some(s), Some(a)) => pair(s, a),
                    _ => None,
                },
                _ => None,
            };
            found.into_iter().collect()
        }
        "Fn::Sub" => {
            let text = match &arg.value {
                Value::Str(s) => s.as_str(),
                Value::Seq(items) => items.first().and_then(Node::str).unwrap_or(""),
                _ => "",
            };
            text.split("${")
                .skip(1)
                .filter_map(|part| part.split_once('}'))
                .filter_map(|(name, _)| name.split_once('.').and_then(|(s, a)| pair(s, a)))
                .collect()
        }
        _ => Vec::new(),
    }
}

/// The id part of output `name`: in kebab case, without what only says
/// how it is named (`EventQueueArn` → `event-queue`).
fn stem(name: &str) -> String {
    let k = kebab(name);
    let s = ["-arn", "-url", "-name", "-id"]
        .iter()
        .find_map(|x| k.strip_suffix(x))
        .unwrap_or(&k);
    s.to_string()
}

/// The generic kind of a placeholder for output `name`, by the words in
/// it (`QueueArn`, `DeadLetterQueueUrl` → `queue`), else `service`.
pub(super) fn kind(name: &str) -> &'static str {
    const BY_NAME: [(&str, &str); 12] = [
        ("dead-letter", "queue"),
        ("dlq", "queue"),
        ("queue", "queue"),
        ("topic", "topic"),
        ("function", "function"),
        ("lambda", "function"),
        ("stream", "stream"),
        ("table", "store"),
        ("state-machine", "workflow"),
        ("workflow", "workflow"),
        ("event-bus", "topic"),
        ("bus", "topic"),
    ];
    let words = kebab(name);
    BY_NAME
        .iter()
        .find(|(k, _)| words.contains(k))
        .map_or("service", |(_, kind)| kind)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_outputs_read_by_links_are_found() {
        let t = "Resources:\n  M:\n    Type: AWS::Lambda::EventSourceMapping\n    Properties:\n      EventSourceArn: !GetAtt Audit.Outputs.QueueArn\n      FunctionName: {\"Fn::Sub\": \"${Audit.Outputs.Worker}\"}\n  K:\n    Type: AWS::SQS::Queue\n    Properties:\n      KmsMasterKeyId: !GetAtt Audit.Outputs.KeyArn\n      RedrivePolicy:\n        deadLetterTargetArn: {\"Fn::GetAtt\": [Other, Outputs.Dlq]}\n";
        let root = crate::import::parse(t, 0, &Default::default()).unwrap();
        let unread: BTreeSet<String> = ["Audit".to_string()].into();
        let found: Vec<(String, String)> = referenced(&root, &unread).into_keys().collect();
        assert_eq!(
            found,
            vec![
                ("Audit".to_string(), "QueueArn".to_string()),
                ("Audit".to_string(), "Worker".to_string())
            ]
        );
        assert_eq!(kind("DeadLetterQueueArn"), "queue");
        assert_eq!(stem("EventQueueArn"), "event-queue");
        assert_eq!(stem("Arn"), "arn");
        assert_eq!(kind("WorkerArn"), "service");
        assert_eq!(kind("OrdersTopic"), "topic");
    }
}
