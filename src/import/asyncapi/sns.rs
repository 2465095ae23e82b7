//! The SNS operation binding's `consumers`: each subscription becomes a
//! `delivers_to` link of the topic, its `deliveryPolicy` the link's retry
//! (only HTTP/S policies can be customised, F016), and its `redrivePolicy`
//! the topic's dead-letter queue.

use super::bindings::Queues;
use crate::import::{F, Node, Out, V, kebab};
use std::collections::BTreeMap;

/// The component a consumer `endpoint` names: an SQS queue or channel of
/// the document by name (or the last part of an ARN), else the kebab case
/// of the name.
fn endpoint_id(e: &Node, queues: &Queues, channels: &BTreeMap<String, String>) -> Option<String> {
    let name = e
        .get("name")
        .and_then(Node::text)
        .or_else(|| e.get("arn").and_then(Node::text))?;
    let short = name.rsplit(':').next().unwrap_or(&name).to_string();
    Some(
        queues
            .get(&short)
            .or_else(|| channels.get(&short))
            .cloned()
            .unwrap_or_else(|| kebab(&short)),
    )
}

/// Reads `b.sns.consumers` of an operation binding `b` (at `path`) on SNS
/// topic component `topic`.
pub(super) fn consumers(
    out: &mut Out,
    topic: &str,
    b: &Node,
    path: &str,
    queues: &Queues,
    channels: &BTreeMap<String, String>,
) {
    let shared = b.at(&["sns", "deliveryPolicy"]);
    for (i, c) in b
        .at(&["sns", "consumers"])
        .map(Node::items)
        .unwrap_or(&[])
        .iter()
        .enumerate()
    {
        let cp = format!("{path}.sns.consumers[{i}]");
        let protocol = c.get("protocol").and_then(Node::text).unwrap_or_default();
        let Some(to) = c
            .get("endpoint")
            .and_then(|e| endpoint_id(e, queues, channels))
        else {
            out.note(
                topic,
                format!(
                    "TODO: the {protocol} consumer has no endpoint name or ARN this importer can link ({})",
                    out.src(&cp, c)
                ),
            );
            continue;
        };
        let mut link = vec![F::new(
            "to",
            V::S(to),
            Some(out.src(&format!("{cp}.endpoint"), c)),
        )];
        let policy = c
            .get("deliveryPolicy")
            .map(|p| (p, format!("{cp}.deliveryPolicy")));
        let policy = policy.or_else(|| shared.map(|p| (p, format!("{path}.sns.deliveryPolicy"))));
        if let Some((p, pp)) = policy {
            if matches!(protocol.as_str(), "http" | "https") {
                if let Some(r) = retry(out, p, &pp) {
                    link.push(r);
                }
            } else {
                out.note(
                    topic,
                    format!(
                        "the {protocol} consumer's deliveryPolicy ({}) is not used: only HTTP/S delivery policies can be customised (F016)",
                        out.src(&pp, p)
                    ),
                );
            }
        }
        if matches!(protocol.as_str(), "http" | "https") {
            link.push(F::new(
                "max_record_age",
                V::S("1h".into()),
                Some(format!(
                    "{} consumer: HTTP/S total retry time is capped at 3,600 s (F016)",
                    protocol
                )),
            ));
        }
        out.push_link(topic, "delivers_to", link);
        if let Some(rp) = c.get("redrivePolicy") {
            redrive(
                out,
                topic,
                rp,
                &format!("{cp}.redrivePolicy"),
                queues,
                channels,
            );
        }
    }
}

/// The retry of an HTTP/S delivery policy `p` (at `pp`), as an upper
/// bound (F016): [`crate::import::delivery_policy`].
fn retry(out: &Out, p: &Node, pp: &str) -> Option<F> {
    use crate::import::delivery_policy::{self as dp, Policy};
    let n = p
        .get("numRetries")
        .and_then(Node::int)
        .filter(|n| *n >= 0)?;
    let max_delay = p
        .get("maxDelayTarget")
        .and_then(Node::int)
        .filter(|m| *m >= 0)
        .map(|m| (m, out.src(&format!("{pp}.maxDelayTarget"), p)));
    let shape = dp::SHAPE_FIELDS
        .iter()
        .filter_map(|k| p.get(k).and_then(Node::text).map(|v| format!("{k} {v}")))
        .collect();
    Some(dp::retry(Policy {
        retries: (n, out.src(&format!("{pp}.numRetries"), p)),
        max_delay,
        shape,
    }))
}

/// A consumer's `redrivePolicy` `rp` (at `p`): the topic's dead-letter
/// queue, where SNS puts a message once the delivery policy is exhausted.
fn redrive(
    out: &mut Out,
    topic: &str,
    rp: &Node,
    p: &str,
    queues: &Queues,
    channels: &BTreeMap<String, String>,
) {
    let Some(to) = rp
        .get("deadLetterQueue")
        .and_then(|e| endpoint_id(e, queues, channels))
    else {
        return out.note(
            topic,
            format!(
                "TODO: redrivePolicy without a dead-letter queue name or ARN ({})",
                out.src(p, rp)
            ),
        );
    };
    let had = out
        .comp(topic)
        .is_some_and(|c| c.fields.iter().any(|f| f.key == "dead_letter"));
    if had {
        out.note(
            topic,
            format!(
                "several consumers have a dead-letter queue; the last is imported ({})",
                out.src(p, rp)
            ),
        );
    }
    let c = format!(
        "{}: undeliverable messages once the delivery policy is exhausted (F016)",
        out.src(&format!("{p}.deadLetterQueue"), rp)
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
