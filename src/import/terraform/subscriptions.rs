//! SNS subscriptions (`aws_sns_topic_subscription`) with their delivery and
//! redrive policies, and the SQS policies Terraform can declare as
//! resources of their own (`aws_sqs_queue_redrive_policy`,
//! `aws_sqs_queue_redrive_allow_policy`), read as the queue's inline
//! attributes are.
//!
//! A delivery policy gives what the AsyncAPI importer gives for the same
//! `deliveryPolicy`: only HTTP/S policies can be customised, and an HTTP/S
//! subscription retries for at most 3,600 s in all (F016).

use super::{Ctx, properties};
use crate::import::{F, Node, Out, V};

/// An `aws_sns_topic_subscription`: a `delivers_to` link from the topic to
/// the endpoint, with the retry of an HTTP/S delivery policy; the redrive
/// policy's queue is the topic's dead letter.
pub(super) fn sns_subscription(cx: &Ctx, out: &mut Out) {
    let protocol = cx.v("protocol").and_then(Node::text).unwrap_or_default();
    let http = matches!(protocol.as_str(), "http" | "https");
    let t = cx.find_id("topic_arn", cx.v("topic_arn"));
    let e = cx.find_id("endpoint", cx.v("endpoint"));
    let e = e.or_else(|| http.then(|| http_endpoint(cx, out, &protocol))?);
    let (Some(t), Some(e)) = (t, e) else {
        return cx.unsupported(out, "topic or endpoint not in this plan");
    };
    if protocol == "lambda" {
        // SNS invokes a function asynchronously.
        cx.asynchronous(&e);
    }
    let c = out.src(&cx.path("endpoint"), cx.v("endpoint").unwrap_or(cx.r.node));
    let mut link = vec![F::new("to", V::S(e), Some(c))];
    if let Some((n, policy)) = json(cx, "delivery_policy") {
        let at = out.src(&cx.path("delivery_policy"), n);
        let healthy = policy.get("healthyRetryPolicy").unwrap_or(&policy);
        match (http, retry(healthy, &at)) {
            (true, Some(r)) => link.push(r),
            (true, None) => out.note(&t, format!("TODO: the delivery policy ({at}) sets no numRetries; declare the subscription's `retry`")),
            (false, _) => out.note(&t, format!("the {protocol} subscription's delivery_policy ({at}) is not used: only HTTP/S delivery policies can be customised (F016)")),
        }
    }
    if http {
        link.push(F::new(
            "max_record_age",
            V::S("1h".into()),
            Some(format!(
                "{protocol} subscription: HTTP/S total retry time is capped at 3,600 s (F016)"
            )),
        ));
    }
    out.push_link(&t, "delivers_to", link);
    redrive_policy(cx, out, &t);
}

/// The HTTP/S endpoint of the subscription, a URL outside: an `external`
/// component named after the subscription, with a TODO for its key.
fn http_endpoint(cx: &Ctx, out: &mut Out, protocol: &str) -> Option<String> {
    let url = cx.v("endpoint")?.text().filter(|u| u.contains("://"))?;
    let name =
        cx.r.node
            .get("name")
            .and_then(Node::str)
            .unwrap_or(&cx.r.address);
    let id = crate::import::kebab(name);
    let from = format!(
        "{protocol} endpoint `{url}`, {}",
        out.src(&cx.path("endpoint"), cx.v("endpoint")?)
    );
    let id = out.add(&id, "external", from);
    out.note(
        &id,
        "TODO: accepts_key and key_window if the endpoint deduplicates by a key it is sent".into(),
    );
    Some(id)
}

/// The attribute `k` (a JSON string) and its parsed object.
fn json<'a>(cx: &Ctx<'a>, k: &str) -> Option<(&'a Node, serde_json::Value)> {
    let n = cx.v(k)?;
    let v = serde_json::from_str::<serde_json::Value>(n.str()?).ok()?;
    v.is_object().then_some((n, v))
}

/// A JSON number, or a string holding one.
fn int(p: &serde_json::Value, k: &str) -> Option<i64> {
    let v = p.get(k)?;
    v.as_i64().or_else(|| v.as_str()?.parse().ok())
}

/// The retry of an HTTP/S delivery policy `p` (read `at`), as an upper
/// bound (F016): [`crate::import::delivery_policy`].
fn retry(p: &serde_json::Value, at: &str) -> Option<F> {
    use crate::import::delivery_policy::{self as dp, Policy};
    let n = int(p, "numRetries").filter(|n| *n >= 0)?;
    let max_delay = int(p, "maxDelayTarget")
        .filter(|m| *m >= 0)
        .map(|m| (m, format!("{at} maxDelayTarget")));
    let shape = dp::SHAPE_FIELDS
        .iter()
        .filter_map(|k| {
            let v = p.get(*k)?;
            let v = v.as_str().map_or_else(|| v.to_string(), str::to_string);
            Some(format!("{k} {}", crate::import::comment_text(&v)))
        })
        .collect();
    Some(dp::retry(Policy {
        retries: (n, format!("{at} numRetries")),
        max_delay,
        shape,
    }))
}

/// The subscription's `redrive_policy`: its `deadLetterTargetArn` is the
/// topic's dead letter, where SNS puts a message once the delivery policy
/// is exhausted (F016).
fn redrive_policy(cx: &Ctx, out: &mut Out, topic: &str) {
    let Some((n, policy)) = json(cx, "redrive_policy") else {
        return;
    };
    let at = out.src(&cx.path("redrive_policy"), n);
    let arn = policy
        .get("deadLetterTargetArn")
        .and_then(|a| a.as_str())
        .map(|s| Node::string(s, n.loc));
    let Some(to) = cx.find_id("redrive_policy", arn.as_ref()) else {
        return out.unresolved(topic, format!("TODO: dead_letter: the subscription's redrive policy names a queue not in this configuration ({at})"));
    };
    if out
        .comp(topic)
        .is_some_and(|c| c.fields.iter().any(|f| f.key == "dead_letter"))
    {
        out.note(
            topic,
            format!("several subscriptions have a dead-letter queue; the last is imported ({at})"),
        );
    }
    let c = format!(
        "{at} deadLetterTargetArn: undeliverable messages once the delivery policy is exhausted (F016)"
    );
    out.set(
        topic,
        F::new(
            "dead_letter",
            V::Map(vec![F::new("to", V::S(to), Some(c))]),
            None,
        ),
    );
}

/// The queue an `aws_sqs_queue_redrive_policy` or
/// `aws_sqs_queue_redrive_allow_policy` applies to (its `queue_url`).
pub(super) fn queue_of(cx: &Ctx) -> Option<String> {
    cx.find_id("queue_url", cx.v("queue_url"))
}

/// An `aws_sqs_queue_redrive_policy`: the queue's dead letter, as its
/// inline `redrive_policy` gives it.
pub(super) fn queue_redrive_policy(cx: &Ctx, out: &mut Out) {
    match queue_of(cx) {
        Some(q) => properties::redrive_policy(cx, out, &q),
        None => cx.unsupported(out, "queue not in this plan"),
    }
}
