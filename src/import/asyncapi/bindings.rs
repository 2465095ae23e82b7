//! Channel bindings: what an AsyncAPI channel's `sqs`, `sns`, `kafka` and
//! `googlepubsub` bindings say about its transport component. The SQS
//! binding's `deadLetterQueue` (beside `queue`, in 2.x and 3.x bindings)
//! becomes a component of its own unless it is a channel.

use std::collections::BTreeMap;

use crate::import::{F, Node, Out, V, dur, kebab, scalar};
use crate::time::Dur;

/// SQS queue names to the ids of their components.
pub(super) type Queues = BTreeMap<String, String>;

/// A Pub/Sub duration string (`"604800s"`, `"3.5s"`), milliseconds kept.
fn pubsub_dur(s: &str) -> Option<Dur> {
    let v: f64 = s.trim().strip_suffix('s')?.parse().ok()?;
    // A window past the range stays finite: the longest one, not forever.
    (v >= 0.0 && v.is_finite()).then(|| Dur::from_ms_f64(v * 1000.0).min(Dur::ms(u64::MAX)))
}

/// The kind of the transport behind bindings `b`.
pub(super) fn kind(b: Option<&Node>) -> &'static str {
    match b {
        Some(b) if b.get("sqs").is_some() => {
            let fifo = b.at(&["sqs", "queue", "fifoQueue"]).and_then(Node::boolean) == Some(true);
            if fifo { "sqs-fifo" } else { "sqs-standard" }
        }
        Some(b) if b.get("sns").is_some() => "sns-standard",
        Some(b) if b.get("kafka").is_some() => "kafka-topic",
        Some(b) if b.get("googlepubsub").is_some() => "pubsub-subscription",
        _ => "queue",
    }
}

/// Sets `key` on component `id` to the duration in `n` (seconds, or
/// milliseconds when `unit_ms`), when it is a non-negative integer.
fn secs(out: &mut Out, id: &str, key: &str, n: Option<&Node>, p: &str, unit_ms: bool) {
    if let Some(n) = n
        && let Some(v) = n.int()
        && v >= 0
    {
        // Milliseconds are kept (a window rounded up to whole seconds
        // would be longer than the source says).
        let d = if unit_ms {
            Dur::ms(v as u64)
        } else {
            Dur::secs(v as u64)
        };
        let c = out.src(p, n);
        out.set(
            id,
            F::new(
                key,
                V::S(d.to_string()),
                Some(if unit_ms { format!("{c} ({v} ms)") } else { c }),
            ),
        );
    }
}

/// Reads the bindings `b` (at `path`) of channel component `id`.
pub(super) fn bindings(out: &mut Out, id: &str, b: &Node, path: &str, queues: &Queues) {
    if let Some(q) = b.at(&["sqs", "queue"]) {
        sqs_queue(out, id, q, &format!("{path}.sqs.queue"), queues);
    }
    if b.get("sns").is_some() {
        out.note(id, "SNS binding: delivery retries follow the endpoint protocol (see `replay-audit catalog sns-standard`)".into());
    }
    if let Some(k) = b.get("kafka") {
        kafka_topic(out, id, k, &format!("{path}.kafka.topicConfiguration"));
    }
    if let Some(n) = b.at(&["googlepubsub", "messageRetentionDuration"])
        && let Some(d) = n.str().and_then(pubsub_dur)
    {
        let c = out.src(&format!("{path}.googlepubsub.messageRetentionDuration"), n);
        out.set(id, F::new("retention", V::S(d.to_string()), Some(c)));
    }
}

/// The Kafka binding `k`'s `topicConfiguration` (at `p`): `retention.ms`,
/// unless `cleanup.policy` compacts without deleting, when no age bounds
/// how long a key's latest record stays readable.
fn kafka_topic(out: &mut Out, id: &str, k: &Node, p: &str) {
    let policy = k.at(&["topicConfiguration", "cleanup.policy"]);
    let words: Vec<String> = match policy {
        Some(n) if !n.items().is_empty() => n.items().iter().filter_map(Node::text).collect(),
        Some(n) => n
            .text()
            .map(|t| t.split(',').map(|w| w.trim().to_string()).collect())
            .unwrap_or_default(),
        None => Vec::new(),
    };
    let compact = words.iter().any(|w| w == "compact");
    let delete = words.is_empty() || words.iter().any(|w| w == "delete");
    if let Some(n) = policy.filter(|_| compact) {
        let c = out.src(&format!("{p}.cleanup.policy"), n);
        let note = if delete {
            format!(
                "cleanup.policy compact and delete ({c}): old segments are deleted after retention.ms, and within it each key keeps only its latest record (UNVERIFIED: no Kafka compaction fact in the platform facts)"
            )
        } else {
            format!(
                "TODO: retention: cleanup.policy compact ({c}) keeps the latest record of every key with no age limit, so a consumer reading from the start sees it again however old; retention.ms does not bound it (UNVERIFIED: no Kafka compaction fact in the platform facts)"
            )
        };
        out.note(id, note);
    }
    if delete {
        secs(
            out,
            id,
            "retention",
            k.at(&["topicConfiguration", "retention.ms"]),
            &format!("{p}.retention.ms"),
            true,
        );
    }
}

/// The `sqs.queue` binding `q` (at `p`): timeouts, delay, deduplication
/// and redrive policy.
fn sqs_queue(out: &mut Out, id: &str, q: &Node, p: &str, queues: &Queues) {
    secs(
        out,
        id,
        "visibility_timeout",
        q.get("visibilityTimeout"),
        &format!("{p}.visibilityTimeout"),
        false,
    );
    secs(
        out,
        id,
        "retention",
        q.get("messageRetentionPeriod"),
        &format!("{p}.messageRetentionPeriod"),
        false,
    );
    if let Some(n) = q.get("deliveryDelay").and_then(Node::int) {
        out.note(
            id,
            format!(
                "deliveryDelay {} ({}): every message waits this long before its first delivery",
                dur(n.max(0) as u64),
                out.src(&format!("{p}.deliveryDelay"), q)
            ),
        );
    }
    if let Some(n) = q.get("contentBasedDeduplication").and_then(Node::boolean) {
        let c = out.src(&format!("{p}.contentBasedDeduplication"), q);
        out.set(
            id,
            F::new("content_based_dedup", V::S(n.to_string()), Some(c)),
        );
    }
    if let Some(s) = q.get("deduplicationScope").and_then(Node::str) {
        let scope = if s == "messageGroup" {
            "message-group".to_string()
        } else {
            kebab(s)
        };
        let c = out.src(&format!("{p}.deduplicationScope"), q);
        out.set(id, F::new("dedup_scope", V::S(scalar(&scope)), Some(c)));
    }
    if let Some(rp) = q.get("redrivePolicy") {
        redrive_policy(out, id, rp, p, queues);
    }
}

/// The queue's `redrivePolicy` `rp`: its dead-letter queue, by name or ARN,
/// and receive count.
fn redrive_policy(out: &mut Out, id: &str, rp: &Node, p: &str, queues: &Queues) {
    let dlq = rp
        .at(&["deadLetterQueue", "name"])
        .and_then(Node::text)
        .or_else(|| rp.at(&["deadLetterQueue", "arn"]).and_then(Node::text));
    let Some(name) = dlq else {
        return out.note(
            id,
            format!(
                "TODO: redrivePolicy without a dead-letter queue name ({})",
                out.src(p, rp)
            ),
        );
    };
    let short = name.rsplit(':').next().unwrap_or(&name);
    let c = out.src(&format!("{p}.redrivePolicy.deadLetterQueue"), rp);
    let to = match queues.get(short) {
        Some(to) => to.clone(),
        None => kebab(short),
    };
    let mut f = vec![F::new("to", V::S(to), Some(c))];
    if let Some(n) = rp
        .get("maxReceiveCount")
        .and_then(Node::int)
        .filter(|n| *n >= 1)
    {
        f.push(F::new(
            "after_receives",
            V::S(n.to_string()),
            Some(out.src(&format!("{p}.redrivePolicy.maxReceiveCount"), rp)),
        ));
    }
    out.set(id, F::new("dead_letter", V::Map(f), None));
}

/// The SQS binding's `deadLetterQueue` object of `b` (at `path`): a
/// component with its settings, named by its queue name, unless a channel
/// (or an earlier binding) already is that queue.
pub(super) fn declare_dead_letter_queue(out: &mut Out, b: &Node, path: &str, queues: &mut Queues) {
    let Some(d) = b.at(&["sqs", "deadLetterQueue"]) else {
        return;
    };
    let p = format!("{path}.sqs.deadLetterQueue");
    let Some(name) = d.get("name").and_then(Node::text) else {
        return out.notes.push(format!(
            "TODO: a deadLetterQueue without a name is not imported ({})",
            out.src(&p, d)
        ));
    };
    if queues.contains_key(&name) {
        return;
    }
    let fifo = d.get("fifoQueue").and_then(Node::boolean) == Some(true);
    let kind = if fifo { "sqs-fifo" } else { "sqs-standard" };
    let id = out.add(
        &kebab(&name),
        kind,
        format!("SQS dead-letter queue, {}", out.src(&p, d)),
    );
    queues.insert(name, id.clone());
    sqs_queue(out, &id, d, &p, queues);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pubsub_durations_keep_milliseconds() {
        assert_eq!(pubsub_dur("86400s"), Some(Dur::secs(86_400)));
        // Not rounded up to 4 s: a longer window than the source says.
        assert_eq!(pubsub_dur("3.5s"), Some(Dur::ms(3_500)));
        assert_eq!(pubsub_dur("3.5s").unwrap().to_string(), "3s 500ms");
        assert_eq!(pubsub_dur("1e30s"), Some(Dur::ms(u64::MAX)));
        assert_eq!(pubsub_dur("-1s"), None);
    }
}
