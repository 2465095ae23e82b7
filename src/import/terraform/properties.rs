//! The settings of the components read from a plan: an SQS queue's
//! timeouts, deduplication, redrive and redrive-allow policies, a DynamoDB
//! table's TTL, stream and replicas.

use super::Ctx;
use super::refs::first;
use crate::import::{F, Node, Out, V, kebab, scalar};

/// An `aws_sqs_queue`'s settings and dead-letter queue.
pub(super) fn sqs_queue(cx: &Ctx, out: &mut Out, id: &str) {
    cx.set_dur(
        out,
        id,
        "visibility_timeout",
        "visibility_timeout_seconds",
        1,
    );
    cx.set_dur(out, id, "retention", "message_retention_seconds", 1);
    if let Some(n) = cx.v("content_based_deduplication")
        && let Some(b) = n.boolean()
        && cx.r.values.get("fifo_queue").and_then(Node::boolean) == Some(true)
    {
        let c = out.src(&cx.path("content_based_deduplication"), n);
        out.set(
            id,
            F::new("content_based_dedup", V::S(b.to_string()), Some(c)),
        );
    }
    if let Some(n) = cx.v("deduplication_scope")
        && let Some(s) = n.str().filter(|s| !s.is_empty())
    {
        let scope = if s == "messageGroup" {
            "message-group".to_string()
        } else {
            kebab(s)
        };
        let c = out.src(&cx.path("deduplication_scope"), n);
        out.set(id, F::new("dedup_scope", V::S(scalar(&scope)), Some(c)));
    }
    redrive_policy(cx, out, id);
}

/// The queue's `redrive_policy` (a JSON string): its dead-letter target
/// and receive count.
pub(super) fn redrive_policy(cx: &Ctx, out: &mut Out, id: &str) {
    let r = cx.r;
    let policy = cx
        .v("redrive_policy")
        .and_then(Node::str)
        .and_then(|s| serde_json::from_str::<serde_json::Value>(s).ok());
    let arn = policy
        .as_ref()
        .and_then(|p| p.get("deadLetterTargetArn"))
        .and_then(|a| a.as_str())
        .map(|s| Node::string(s, r.node.loc));
    let count = policy
        .as_ref()
        .and_then(|p| p.get("maxReceiveCount"))
        .and_then(|c| {
            c.as_i64()
                .or_else(|| c.as_str().and_then(|s| s.parse().ok()))
        });
    if policy.is_none() && cx.ix.config_refs(&r.address, "redrive_policy").is_empty() {
        return;
    }
    match cx.find_id("redrive_policy", arn.as_ref()) {
        Some(dlq) => {
            let c = out.src(
                &cx.path("redrive_policy"),
                cx.v("redrive_policy").unwrap_or(r.node),
            );
            let mut f = vec![F::new(
                "to",
                V::S(dlq),
                Some(format!("{c} deadLetterTargetArn")),
            )];
            if let Some(n) = count.filter(|n| *n >= 1) {
                f.push(F::new(
                    "after_receives",
                    V::S(n.to_string()),
                    Some(format!("{c} maxReceiveCount")),
                ));
            }
            out.set(id, F::new("dead_letter", V::Map(f), None));
            // A count the input does not know (a module variable set from
            // a data source) is said, not dropped.
            if count.is_none() {
                out.note(
                    id,
                    format!("TODO: dead_letter.after_receives: the redrive policy's maxReceiveCount is not known here ({}); set it here or in an overlay", c.trim_start_matches("from ")),
                );
            }
        }
        None => out.unresolved(
            id,
            format!(
                "TODO: dead_letter: the redrive policy's target is not in this plan ({})",
                cx.path("redrive_policy")
            ),
        ),
    }
}

/// An `aws_dynamodb_table`'s TTL and, for a global table, its replicas.
pub(super) fn dynamodb_table(cx: &Ctx, out: &mut Out, id: &str) {
    match first(cx.v("ttl")) {
        Some(t) if t.get("enabled").and_then(Node::boolean) == Some(true) => {
            let attr = t
                .get("attribute_name")
                .and_then(Node::text)
                .unwrap_or_default();
            let c = out.src(&cx.path("ttl"), t);
            out.set(
                id,
                F::new(
                    "expiry",
                    V::S("physical-ttl".into()),
                    Some(format!("{c}: items expire by TTL on `{attr}`")),
                ),
            );
            out.note(
                id,
                "TODO: retention: how long the application sets the TTL attribute after a claim"
                    .into(),
            );
        }
        _ => out.note(
            id,
            "TODO: retention and expiry (application | physical-ttl): the plan sets no TTL".into(),
        ),
    }
    if let Some(n) = cx.v("stream_enabled").filter(|n| n.boolean() == Some(true)) {
        let view = cx
            .v("stream_view_type")
            .and_then(Node::text)
            .unwrap_or_default();
        out.note(
            id,
            format!(
                "stream enabled ({view}, {}): a mapping or pipe that reads it makes the component `{id}-stream`, which this table `sends_to`",
                out.src(&cx.path("stream_enabled"), n)
            ),
        );
    }
    let replicas = cx.v("replica").map(Node::items).unwrap_or(&[]);
    if replicas.is_empty() {
        return;
    }
    let mut regions = Vec::new();
    for rep in replicas {
        if let Some(reg) = rep.get("region_name").and_then(Node::text) {
            out.region(&reg, out.src(&cx.path("replica"), rep));
            regions.push(reg);
        }
    }
    out.note(
        id,
        "TODO: add the provider's own region to `regions` (the plan lists only the replicas)"
            .into(),
    );
    let c = out.src(&cx.path("replica"), cx.v("replica").unwrap_or(cx.r.node));
    out.set(id, F::new("regions", V::List(regions), Some(c)));
    out.set(
        id,
        F::new(
            "replication",
            V::S("async".into()),
            Some("global tables replicate asynchronously by default".into()),
        ),
    );
    out.set(
        id,
        F::new(
            "mode",
            V::S("active-active".into()),
            Some("every replica accepts writes".into()),
        ),
    );
}

/// A dead-letter queue's `redrive_allow_policy` (a JSON string), read once
/// every queue's `dead_letter` is known: with one source queue, and a
/// permission other than `denyAll`, `redrive: {to: source, mode: manual}`
/// with TODOs, as for a template's `RedriveAllowPolicy`.
pub(super) fn redrive_allow(cx: &Ctx, out: &mut Out, id: &str) {
    let Some(n) = cx.v("redrive_allow_policy") else {
        return;
    };
    let Some(policy) = n
        .str()
        .and_then(|s| serde_json::from_str::<serde_json::Value>(s).ok())
    else {
        return;
    };
    let perm = policy
        .get("redrivePermission")
        .and_then(|p| p.as_str())
        .unwrap_or("allowAll")
        .to_string();
    let at = out.src(&cx.path("redrive_allow_policy"), n);
    if perm == "denyAll" {
        let note = format!(
            "redrive_allow_policy denyAll: no queue may use this one as its dead-letter queue ({at})"
        );
        return out.note(id, note);
    }
    let sources: Vec<String> = out
        .comps
        .iter()
        .filter(|c| {
            c.fields.iter().any(|f| match (&f.key[..], &f.val) {
                ("dead_letter", V::Map(x)) => x
                    .iter()
                    .any(|t| t.key == "to" && matches!(&t.val, V::S(to) if to == id)),
                _ => false,
            })
        })
        .map(|c| c.id.clone())
        .collect();
    match sources.as_slice() {
        [src] => {
            let to = F::new(
                "to",
                V::S(src.clone()),
                Some(format!("{at}: {perm} lets messages move back to their source")),
            );
            let mode = F::new(
                "mode",
                V::S("manual".into()),
                Some("TODO: manual or automatic? the configuration cannot tell".into()),
            );
            let todo = "TODO: add `within` (how late redrives happen) and `max_times`";
            out.set(id, F::new("redrive", V::Map(vec![to, mode]), Some(todo.into())));
        }
        [] => out.note(id, format!("redrive_allow_policy {perm}: no queue read here uses this one as its dead-letter queue ({at})")),
        many => out.note(id, format!("TODO: redrive: redrive_allow_policy {perm} and several sources ({}); declare the redrive you perform ({at})", many.join(", "))),
    }
}
