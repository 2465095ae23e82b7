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

use std::collections::BTreeMap;

use super::{F, Node, Out, V, Value, dur, error_at, kebab, scalar};
use crate::diagnostics::Diagnostic;

/// Seconds of a Pub/Sub duration string (`"604800s"`, `"3.5s"`).
fn pubsub_secs(s: &str) -> Option<u64> {
    let v: f64 = s.trim().strip_suffix('s')?.parse().ok()?;
    (v >= 0.0 && v.is_finite()).then_some(v.ceil() as u64)
}

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

struct Intent {
    origin: Option<String>,
    consumer: Option<String>,
    key: Option<Vec<String>>,
    effect: Option<String>,
    src: String,
}

pub fn import(root: &Node, out: &mut Out) -> Result<(), Diagnostic> {
    let Some(version) = root.get("asyncapi").and_then(Node::text) else {
        return Err(error_at(
            root,
            "not an AsyncAPI document: `asyncapi` is missing",
            "the document starts with `asyncapi: 3.0.0` (or 2.x)",
        ));
    };
    let v3 = version.starts_with('3');
    if !v3 && !version.starts_with('2') {
        return Err(error_at(
            root.get("asyncapi").unwrap_or(root),
            format!("AsyncAPI version {version} is not supported"),
            "this importer reads AsyncAPI 2.x and 3.x",
        ));
    }
    out.notes.push("TODO: regions: AsyncAPI does not say where components run; add `regions:` where it matters.".into());
    // Channels.
    let mut channel_ids: BTreeMap<String, String> = BTreeMap::new();
    for (name, ch) in root.get("channels").map(Node::entries).unwrap_or(&[]) {
        let ch = resolve_ref(root, ch);
        let path = format!("channels.{name}");
        let b = ch.get("bindings").map(|b| resolve_ref(root, b));
        let kind = match b {
            Some(b) if b.get("sqs").is_some() => {
                let fifo =
                    b.at(&["sqs", "queue", "fifoQueue"]).and_then(Node::boolean) == Some(true);
                if fifo { "sqs-fifo" } else { "sqs-standard" }
            }
            Some(b) if b.get("sns").is_some() => "sns-standard",
            Some(b) if b.get("kafka").is_some() => "kafka-topic",
            Some(b) if b.get("googlepubsub").is_some() => "pubsub-subscription",
            _ => "queue",
        };
        let id = out.add(
            &kebab(name),
            kind,
            format!("channel, {}", out.src(&path, ch)),
        );
        channel_ids.insert(name.clone(), id.clone());
        if kind == "queue" {
            out.note(&id, "TODO: kind: no sqs/sns/kafka/googlepubsub binding; name the platform (`replay-audit catalog`)".into());
        }
        if let Some(b) = b {
            bindings(out, &id, b, &format!("{path}.bindings"));
        }
    }
    let mut intents: BTreeMap<String, Intent> = BTreeMap::new();
    // Operations: 3.x `operations`, 2.x `channels.*.publish|subscribe`.
    let mut ops: Vec<(String, String, Option<String>, Node, String)> = Vec::new(); // (op id, action, channel, node, path)
    if v3 {
        for (name, op) in root.get("operations").map(Node::entries).unwrap_or(&[]) {
            let op = resolve_ref(root, op);
            let action = op.get("action").and_then(Node::text).unwrap_or_default();
            let ch = op
                .at(&["channel", "$ref"])
                .and_then(Node::str)
                .and_then(|r| r.rsplit('/').next())
                .map(|s| s.replace("~1", "/"));
            ops.push((
                name.clone(),
                action,
                ch,
                op.clone(),
                format!("operations.{name}"),
            ));
        }
    } else {
        for (name, ch) in root.get("channels").map(Node::entries).unwrap_or(&[]) {
            for (verb, action) in [("publish", "receive"), ("subscribe", "send")] {
                // In 2.x `publish` means the application receives what others publish.
                if let Some(op) = ch.get(verb) {
                    let id = op
                        .get("operationId")
                        .and_then(Node::text)
                        .unwrap_or_else(|| format!("{name}-{verb}"));
                    ops.push((
                        id,
                        action.to_string(),
                        Some(name.clone()),
                        op.clone(),
                        format!("channels.{name}.{verb}"),
                    ));
                }
            }
        }
    }
    for (name, action, ch, op, path) in ops {
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
            _ => out.note(&id, format!("TODO: operation `{name}` has no channel this importer can resolve, or action `{action}`")),
        }
        if let Some(x) = op.get("x-replay-audit") {
            extension(
                out,
                &id,
                x,
                &format!("{path}.x-replay-audit"),
                &action,
                &mut intents,
            )?;
        }
    }
    for (iid, i) in intents {
        let mut fields = Vec::new();
        let mut notes = Vec::new();
        let origin = i.origin.clone().or(i.consumer.clone());
        match &origin {
            Some(o) => fields.push(F::new(
                "origin",
                V::S(o.clone()),
                Some(format!("the sending operation, {}", i.src)),
            )),
            None => notes.push("TODO: origin".into()),
        }
        let Some(effect) = i.effect.clone() else {
            out.notes.push(format!(
                "TODO: intent {iid} ({}) names no effect: declare it in an overlay",
                i.src
            ));
            continue;
        };
        fields.push(F::new("effect", V::S(effect), Some(i.src.clone())));
        match &i.key {
            Some(k) => fields.push(F::new(
                "key",
                V::Map(vec![F::new(
                    "fields",
                    V::List(k.iter().map(|f| scalar(f)).collect()),
                    Some(i.src.clone()),
                )]),
                None,
            )),
            None => notes.push("TODO: key: the fields that name one business decision".into()),
        }
        notes.push("TODO: fingerprint, replays, tested".into());
        if origin.is_none() {
            continue;
        }
        out.intents.push(super::OutIntent {
            id: iid,
            fields,
            notes,
        });
    }
    Ok(())
}

fn bindings(out: &mut Out, id: &str, b: &Node, path: &str) {
    let secs = |out: &mut Out, key: &str, n: Option<&Node>, p: &str, unit_ms: bool| {
        if let Some(n) = n
            && let Some(v) = n.int()
            && v >= 0
        {
            let s = if unit_ms {
                (v as u64).div_ceil(1000)
            } else {
                v as u64
            };
            let c = out.src(p, n);
            out.set(
                id,
                F::new(
                    key,
                    V::S(dur(s)),
                    Some(if unit_ms { format!("{c} ({v} ms)") } else { c }),
                ),
            );
        }
    };
    if let Some(q) = b.at(&["sqs", "queue"]) {
        let p = format!("{path}.sqs.queue");
        secs(
            out,
            "visibility_timeout",
            q.get("visibilityTimeout"),
            &format!("{p}.visibilityTimeout"),
            false,
        );
        secs(
            out,
            "retention",
            q.get("messageRetentionPeriod"),
            &format!("{p}.messageRetentionPeriod"),
            false,
        );
        if let Some(n) = q.get("deliveryDelay").and_then(Node::int) {
            out.note(id, format!("deliveryDelay {} ({}): every message waits this long before its first delivery", dur(n.max(0) as u64), out.src(&format!("{p}.deliveryDelay"), q)));
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
            let dlq = rp
                .at(&["deadLetterQueue", "name"])
                .and_then(Node::text)
                .or_else(|| rp.at(&["deadLetterQueue", "arn"]).and_then(Node::text));
            match dlq {
                Some(name) => {
                    let to = kebab(name.rsplit(':').next().unwrap_or(&name));
                    let c = out.src(&format!("{p}.redrivePolicy.deadLetterQueue"), rp);
                    let mut f = vec![F::new(
                        "to",
                        V::S(to.clone()),
                        Some(format!("{c}; TODO: declare `{to}` if it is not a channel")),
                    )];
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
                None => out.note(
                    id,
                    format!(
                        "TODO: redrivePolicy without a dead-letter queue name ({})",
                        out.src(&p, rp)
                    ),
                ),
            }
        }
    }
    if b.get("sns").is_some() {
        out.note(id, "SNS binding: delivery retries follow the endpoint protocol (see `replay-audit catalog sns-standard`)".into());
    }
    if let Some(k) = b.get("kafka") {
        let p = format!("{path}.kafka.topicConfiguration");
        secs(
            out,
            "retention",
            k.at(&["topicConfiguration", "retention.ms"]),
            &format!("{p}.retention.ms"),
            true,
        );
    }
    if let Some(n) = b.at(&["googlepubsub", "messageRetentionDuration"])
        && let Some(secs) = n.str().and_then(pubsub_secs)
    {
        let c = out.src(&format!("{path}.googlepubsub.messageRetentionDuration"), n);
        out.set(id, F::new("retention", V::S(dur(secs)), Some(c)));
    }
}

fn extension(
    out: &mut Out,
    id: &str,
    x: &Node,
    path: &str,
    action: &str,
    intents: &mut BTreeMap<String, Intent>,
) -> Result<(), Diagnostic> {
    const FIELDS: &[&str] = &["intent", "key", "dedup", "effect"];
    for (k, _) in x.entries() {
        if !FIELDS.contains(&k.as_str()) {
            let help = match crate::diagnostics::suggest(k, FIELDS.iter().copied()) {
                Some(s) => format!("did you mean `{s}`?"),
                None => format!("the fields of x-replay-audit are: {}", FIELDS.join(", ")),
            };
            return Err(error_at(
                x,
                format!("unknown field `{k}` in `{path}`"),
                help,
            ));
        }
    }
    let src = out.src(path, x);
    let key = x
        .get("key")
        .map(|k| k.items().iter().filter_map(Node::text).collect::<Vec<_>>());
    if let Some(d) = x.get("dedup") {
        let Some(store) = d.get("store").and_then(Node::text) else {
            return Err(error_at(
                d,
                format!("`{path}.dedup` needs `store`"),
                "name the store that keeps the keys: `store: payout-keys`",
            ));
        };
        let store = kebab(&store);
        if !out.has(&store) {
            let kind = d
                .get("kind")
                .and_then(Node::text)
                .unwrap_or_else(|| "store".into());
            out.add(&store, &kind, format!("dedup store, {src}"));
            match d.get("retention").and_then(Node::text) {
                Some(r) => out.set(
                    &store,
                    F::new("retention", V::S(scalar(&r)), Some(src.clone())),
                ),
                None => out.note(
                    &store,
                    "TODO: retention: how long a completed key is honoured".into(),
                ),
            }
        }
        let mut g = vec![F::new("store", V::S(store), Some(src.clone()))];
        match d.get("claim").and_then(Node::text) {
            Some(c) => g.push(F::new("claim", V::S(scalar(&c)), Some(src.clone()))),
            None => g.push(F::new(
                "claim",
                V::S("conditional-write".into()),
                Some("TODO: confirm how the key is claimed".into()),
            )),
        }
        out.set(id, F::new("dedup", V::Map(g), None));
    }
    let effect = match x.get("effect") {
        Some(e) => {
            let (eid, kind) = match &e.value {
                Value::Map(_) => (
                    e.get("id").and_then(Node::text).unwrap_or_default(),
                    e.get("kind")
                        .and_then(Node::text)
                        .unwrap_or_else(|| "external".into()),
                ),
                _ => (e.text().unwrap_or_default(), "external".to_string()),
            };
            if eid.is_empty() {
                return Err(error_at(
                    e,
                    format!("`{path}.effect` needs an id"),
                    "write `effect: bank-rail` or `effect: {id: bank-rail, kind: external}`",
                ));
            }
            let eid = kebab(&eid);
            if !out.has(&eid) {
                out.add(&eid, &kind, format!("effect, {src}"));
                if let Some(b) = e.get("accepts_key").and_then(Node::boolean) {
                    out.set(
                        &eid,
                        F::new("accepts_key", V::S(b.to_string()), Some(src.clone())),
                    );
                } else {
                    out.note(
                        &eid,
                        "TODO: accepts_key, lookup_by_reference, reconciliation".into(),
                    );
                }
            }
            out.push_link(
                id,
                "effects",
                vec![
                    F::new("to", V::S(eid.clone()), Some(src.clone())),
                    F::new(
                        "passes_key",
                        V::S("true".into()),
                        Some("TODO: confirm the key reaches the effect".into()),
                    ),
                ],
            );
            Some(eid)
        }
        None => None,
    };
    if let Some(iid) = x.get("intent").and_then(Node::text) {
        let i = intents.entry(kebab(&iid)).or_insert(Intent {
            origin: None,
            consumer: None,
            key: None,
            effect: None,
            src: src.clone(),
        });
        if action == "send" {
            i.origin.get_or_insert(id.to_string());
        } else {
            i.consumer.get_or_insert(id.to_string());
        }
        if key.is_some() {
            i.key = key;
        }
        if effect.is_some() {
            i.effect = effect;
        }
    }
    Ok(())
}
