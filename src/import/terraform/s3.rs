//! S3 event notifications (`aws_s3_bucket_notification`): the bucket is a
//! component that delivers to each queue, topic and function its `queue`,
//! `topic` and `lambda_function` blocks name, and S3 invokes such a
//! function asynchronously: what a template's `NotificationConfiguration`
//! gives for the same bucket (the CloudFormation importer's `s3.rs`).
//!
//! No S3 notification value is in the platform-facts reference, so the
//! bucket is a generic `topic` with nothing more than the configuration
//! writes (no delivery semantic, retry or retention): a TODO on the
//! component says so. A bucket that notifies nothing stays not imported.

use std::collections::{BTreeMap, BTreeSet};

use super::{Ctx, Res};
use crate::import::{F, Node, Out, V, kebab};

/// Each destination block and the attribute naming its destination.
const DESTINATIONS: [(&str, &str); 3] = [
    ("queue", "queue_arn"),
    ("topic", "topic_arn"),
    ("lambda_function", "lambda_function_arn"),
];

const NO_FACT: &str = "TODO: S3 event notifications are not in the platform-facts reference: how often S3 delivers an event and how it retries are not imported; declare `delivery` and the links' `retry` if known";

/// The managed buckets by the values a notification's `bucket` holds (the
/// bucket's name, or in a configuration the placeholder of its `id`), and
/// which of them, or which notifications without one here, become
/// components. Built once per pass: lookups stay logarithmic.
pub(super) struct Buckets {
    by_value: BTreeMap<String, usize>,
    /// Buckets a notification names, with how many do, and notifications
    /// whose bucket is not read here (each stands for its bucket).
    sources: BTreeMap<usize, usize>,
}

impl Buckets {
    pub(super) fn new(res: &[Res]) -> Buckets {
        let managed =
            |r: &Res| !r.foreign && r.node.get("mode").and_then(Node::str) != Some("data");
        let mut by_value = BTreeMap::new();
        for (i, r) in res.iter().enumerate() {
            if r.ty == "aws_s3_bucket" && managed(r) {
                for k in ["bucket", "id", "arn"] {
                    if let Some(t) = r.values.get(k).and_then(Node::text) {
                        by_value.entry(t).or_insert(i);
                    }
                }
            }
        }
        let mut b = Buckets {
            by_value,
            sources: BTreeMap::new(),
        };
        for (i, r) in res.iter().enumerate() {
            if r.ty == "aws_s3_bucket_notification" && managed(r) {
                let source = b.bucket_of(r).unwrap_or(i);
                *b.sources.entry(source).or_default() += 1;
            }
        }
        b
    }

    /// The bucket notification `r` configures, if it is read here.
    fn bucket_of(&self, r: &Res) -> Option<usize> {
        let t = r.values.get("bucket").and_then(Node::text)?;
        self.by_value.get(&t).copied()
    }

    /// Whether resource `i` is a notifying bucket or a notification
    /// standing for a bucket not read here: a component ([`component`]).
    pub(super) fn notifies(&self, i: usize) -> bool {
        self.sources.contains_key(&i)
    }
}

/// The component of resource `r` (named `name`) that [`Buckets::notifies`]
/// makes: a `topic` with the TODO that no S3 value is a platform fact.
pub(super) fn component(out: &mut Out, r: &Res, name: &str) -> String {
    let from = format!("{}, {}", r.ty, out.src(&r.address, r.node));
    let id = out.add(&kebab(name), "topic", from);
    out.note(&id, NO_FACT.into());
    id
}

/// An `aws_s3_bucket_notification`: a `delivers_to` link from the bucket
/// to each destination, cited with its events.
pub(super) fn notification(cx: &Ctx, out: &mut Out, buckets: &Buckets) {
    let bucket = buckets.bucket_of(cx.r);
    let Some(id) = bucket.map_or(&cx.r.id, |b| &cx.res[b].id).clone() else {
        return;
    };
    if bucket.is_none() {
        let at = out.src(&cx.path("bucket"), cx.v("bucket").unwrap_or(cx.r.node));
        let name = cx.v("bucket").and_then(Node::text);
        let name = name.map_or("whose name is known only after apply".into(), |n| {
            format!("`{n}`")
        });
        out.note(&id, format!("TODO: the bucket {name} ({at}) is not managed in this configuration: this component stands for it"));
    }
    if let Some(&n) = bucket
        .and_then(|b| buckets.sources.get(&b))
        .filter(|&&n| n > 1)
    {
        // The AWS provider documents one notification resource per bucket.
        out.note(&id, format!("TODO: {} is one of {n} aws_s3_bucket_notification resources of this bucket: S3 keeps one notification configuration per bucket, the last one applied, so not all of their links hold; keep one", cx.r.address));
    }
    if let Some(n) = cx.v("eventbridge").filter(|n| n.boolean() == Some(true)) {
        out.note(&id, format!("TODO: the bucket also sends its events to EventBridge's default bus ({}); the rules that match them are not linked", out.src(&cx.path("eventbridge"), n)));
    }
    let mut linked = BTreeSet::new();
    for (block, key) in DESTINATIONS {
        let items = cx.v(block).map(Node::items).unwrap_or(&[]);
        for (i, c) in items.iter().enumerate() {
            let path = cx.path(&format!("{block}[{i}].{key}"));
            let dest = c.get(key);
            let at = out.src(&path, dest.unwrap_or(c));
            // The configuration's references are kept per block kind, not
            // per block: they tell the destination only of a single block.
            let attr = if items.len() == 1 { block } else { "" };
            match cx.find(attr, dest).and_then(|j| cx.res[j].id.clone()) {
                Some(to) => {
                    deliver(out, &id, &to, &events(c), at, &mut linked);
                    if block == "lambda_function" {
                        cx.asynchronous(&to);
                    }
                }
                None => out.unresolved(
                    &id,
                    format!("TODO: delivers_to a {block} not in this configuration ({at})"),
                ),
            }
        }
    }
}

/// The `events` of a destination block, as the comment names them.
fn events(c: &Node) -> String {
    let items = c.get("events").map(Node::items).unwrap_or(&[]);
    let names: Vec<String> = items.iter().filter_map(Node::text).collect();
    if names.is_empty() {
        "?".into()
    } else {
        names.join(", ")
    }
}

/// Bucket `bid` delivers `event` to `to` (the source comment `at`): one
/// link per destination of the notification (those it has `linked`), the
/// events of a second block to it a note.
fn deliver(
    out: &mut Out,
    bid: &str,
    to: &str,
    event: &str,
    at: String,
    linked: &mut BTreeSet<String>,
) {
    if !linked.insert(to.to_string()) {
        out.note(bid, format!("also {event} to `{to}` ({at})"));
    } else {
        let link = vec![F::new(
            "to",
            V::S(to.to_string()),
            Some(format!("{at}: {event}")),
        )];
        out.push_link(bid, "delivers_to", link);
    }
}
