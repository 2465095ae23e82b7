//! AsyncAPI 2.x and 3.x documents (YAML or JSON).
//!
//! Each channel becomes a transport component (its kind from its bindings:
//! `sqs`, `sns`, `kafka`, `googlepubsub`, else `queue`), each operation a
//! component (`service`) that sends to or receives from it. The
//! `x-replay-audit` extension on an operation adds what AsyncAPI cannot say
//! (see docs/import.md):
//!
//! ```yaml
//! x-replay-audit:
//!   intent: seller-payout          # the intent this operation carries
//!   key: [seller_id, settlement_id]
//!   dedup: { store: payout-keys, kind: dynamodb-table, retention: 24h, claim: conditional-write }
//!   effect: bank-rail              # or { id: bank-rail, kind: external, accepts_key: false }
//! ```
//!
//! This file reads the channels and operations; [`bindings`] reads what a
//! channel's bindings say about its transport, [`extension`] the
//! `x-replay-audit` extension and the intents it names.

mod bindings;
mod extension;
mod sns;

use std::collections::BTreeMap;

use super::{F, Node, Out, V, kebab};
use crate::diagnostics::Diagnostic;
use extension::Intent;

/// The node a `$ref` to this document points at (`n` itself when it is
/// not one).
fn resolve_ref<'a>(root: &'a Node, n: &'a Node) -> &'a Node {
    match n
        .get("$ref")
        .and_then(Node::str)
        .and_then(|r| r.strip_prefix("#/"))
    {
        Some(path) => {
            let keys: Vec<String> = path
                .split('/')
                .map(|k| k.replace("~1", "/").replace("~0", "~"))
                .collect();
            let refs: Vec<&str> = keys.iter().map(String::as_str).collect();
            root.at(&refs).unwrap_or(n)
        }
        None => n,
    }
}

/// One operation: from 3.x `operations`, or a 2.x channel's `publish` or
/// `subscribe`.
struct Op {
    name: String,
    /// `send` or `receive`, from the application's side.
    action: String,
    channel: Option<String>,
    node: Node,
    path: String,
}

/// Reads a document into `out`.
pub fn import(root: &Node, out: &mut Out) -> Result<(), Diagnostic> {
    let v3 = version(root)?;
    out.notes.push("TODO: regions: AsyncAPI does not say where components run; add `regions:` where it matters.".into());
    let (channel_ids, queues) = channels(root, out);
    let mut intents: BTreeMap<String, Intent> = BTreeMap::new();
    let ops = if v3 {
        operations_v3(root)
    } else {
        operations_v2(root)
    };
    // The units of the coverage line: every channel and every operation
    // (3.x `operations`, a 2.x channel's `publish` and `subscribe`).
    out.coverage.total = channel_ids.len() + ops.len();
    for op in ops {
        operation(out, op, (&channel_ids, &queues), &mut intents)?;
    }
    extension::write_intents(out, intents);
    Ok(())
}

/// Whether the document is AsyncAPI 3.x; an error unless it is 2.x or 3.x.
fn version(root: &Node) -> Result<bool, Diagnostic> {
    let Some(version) = root.get("asyncapi").and_then(Node::text) else {
        return Err(root.error_at(
            "not an AsyncAPI document: `asyncapi` is missing",
            "the document starts with `asyncapi: 3.0.0` (or 2.x)",
        ));
    };
    let v3 = version.starts_with('3');
    if !v3 && !version.starts_with('2') {
        return Err(root.get("asyncapi").unwrap_or(root).error_at(
            format!("AsyncAPI version {version} is not supported"),
            "this importer reads AsyncAPI 2.x and 3.x",
        ));
    }
    Ok(v3)
}

/// A transport component for every channel, and for every SQS
/// `deadLetterQueue` beside a channel's `queue` that is not a channel
/// itself; returns the channel ids by channel name, and by SQS queue name.
fn channels(root: &Node, out: &mut Out) -> (BTreeMap<String, String>, bindings::Queues) {
    let mut channel_ids: BTreeMap<String, String> = BTreeMap::new();
    // SQS queue names (`bindings.sqs.queue.name`) to component ids: a
    // redrive policy names its dead-letter queue by queue name.
    let mut queues = bindings::Queues::new();
    let mut read: Vec<(String, &Node, String)> = Vec::new();
    for (name, ch) in root.get("channels").map(Node::entries).unwrap_or(&[]) {
        let name = name.key();
        let ch = resolve_ref(root, ch);
        let path = format!("channels.{name}");
        let b = ch.get("bindings").map(|b| resolve_ref(root, b));
        let kind = bindings::kind(b);
        let id = out.add(
            &kebab(name),
            kind,
            format!("channel, {}", out.src(&path, ch)),
        );
        channel_ids.insert(name.to_string(), id.clone());
        if kind == "queue" {
            out.note(&id, "TODO: kind: no sqs/sns/kafka/googlepubsub binding; name the platform (`replay-audit catalog`)".into());
        }
        if let Some(q) = b
            .and_then(|b| b.at(&["sqs", "queue", "name"]))
            .and_then(Node::text)
        {
            queues.insert(q, id.clone());
        }
        if let Some(b) = b {
            read.push((id, b, format!("{path}.bindings")));
        }
    }
    for (_, b, path) in &read {
        bindings::declare_dead_letter_queue(out, b, path, &mut queues);
    }
    for (id, b, path) in &read {
        bindings::bindings(out, id, b, path, &queues);
    }
    (channel_ids, queues)
}

/// The operations of a 3.x document.
fn operations_v3(root: &Node) -> Vec<Op> {
    let mut ops = Vec::new();
    for (name, op) in root.get("operations").map(Node::entries).unwrap_or(&[]) {
        let name = name.key();
        let op = resolve_ref(root, op);
        let action = op.get("action").and_then(Node::text).unwrap_or_default();
        let ch = op
            .at(&["channel", "$ref"])
            .and_then(Node::str)
            .and_then(|r| r.rsplit('/').next())
            .map(|s| s.replace("~1", "/"));
        ops.push(Op {
            name: name.to_string(),
            action,
            channel: ch,
            node: op.clone(),
            path: format!("operations.{name}"),
        });
    }
    ops
}

/// The operations of a 2.x document: its channels' `publish` and
/// `subscribe`.
fn operations_v2(root: &Node) -> Vec<Op> {
    let mut ops = Vec::new();
    for (name, ch) in root.get("channels").map(Node::entries).unwrap_or(&[]) {
        let name = name.key();
        for (verb, action) in [("publish", "receive"), ("subscribe", "send")] {
            // In 2.x `publish` means the application receives what others publish.
            if let Some(op) = ch.get(verb) {
                let id = op
                    .get("operationId")
                    .and_then(Node::text)
                    .unwrap_or_else(|| format!("{name}-{verb}"));
                ops.push(Op {
                    name: id,
                    action: action.to_string(),
                    channel: Some(name.to_string()),
                    node: op.clone(),
                    path: format!("channels.{name}.{verb}"),
                });
            }
        }
    }
    ops
}

/// A `service` component for operation `op`, linked to its channel, with
/// what its extension says.
fn operation(
    out: &mut Out,
    op: Op,
    (channel_ids, queues): (&BTreeMap<String, String>, &bindings::Queues),
    intents: &mut BTreeMap<String, Intent>,
) -> Result<(), Diagnostic> {
    let Op {
        name,
        action,
        channel: ch,
        node: op,
        path,
    } = op;
    let id = out.add(
        &kebab(&name),
        "service",
        format!("operation ({action}), {}", out.src(&path, &op)),
    );
    out.note(
        &id,
        "TODO: kind: service, function, lambda-async, ... (AsyncAPI does not say)".into(),
    );
    let chan = ch.as_ref().and_then(|c| channel_ids.get(c)).cloned();
    match (&chan, action.as_str()) {
        (Some(c), "send") => {
            let src = out.src(&format!("{path}.channel"), &op);
            out.push_link(&id, "sends_to", vec![F::new("to", V::S(c.clone()), Some(src))]);
        }
        (Some(c), "receive") => {
            let src = out.src(&format!("{path}.channel"), &op);
            out.push_link(c, "delivers_to", vec![F::new("to", V::S(id.clone()), Some(src))]);
        }
        _ => out.unresolved(&id, format!("TODO: operation `{name}` has no channel this importer can resolve, or action `{action}`")),
    }
    if let (Some(c), Some(b)) = (&chan, op.get("bindings"))
        && b.get("sns").is_some()
    {
        sns::consumers(out, c, b, &format!("{path}.bindings"), queues, channel_ids);
    }
    if let Some(x) = op.get("x-replay-audit") {
        extension::extension(
            out,
            &id,
            x,
            &format!("{path}.x-replay-audit"),
            &action,
            intents,
        )?;
    }
    Ok(())
}
