//! SQS queues from `aws sqs get-queue-attributes --attribute-names All`
//! (every attribute a string: `"MessageRetentionPeriod": "345600"`) or a
//! Config item's configuration (numbers): visibility timeout, retention,
//! FIFO deduplication, the dead-letter queue of the RedrivePolicy and the
//! redrive a RedriveAllowPolicy permits.

use super::ctx::{Ctx, Decl, arn_of, flag, get, int, json_object, text};
use super::{Item, Node};
use crate::diagnostics::Diagnostic;
use crate::import::{F, V, dur, scalar};

/// The attributes of the item and their path.
fn attrs<'a>(item: &'a Item) -> (&'a Node, String) {
    match item.node.get("Attributes") {
        Some(a) => (a, format!("{}.Attributes", item.base)),
        None => (item.node, item.base.clone()),
    }
}

fn fifo(a: &Node, base: &str, name: &str) -> Result<bool, Diagnostic> {
    match get(a, "FifoQueue") {
        Some(n) => flag(n, &format!("{base}.FifoQueue")),
        None => Ok(name.ends_with(".fifo")),
    }
}

pub(super) fn declare(item: &Item, decls: &mut Vec<Decl>) -> Result<(), Diagnostic> {
    let (a, base) = attrs(item);
    let found = arn_of(
        &Item {
            node: a,
            base: base.clone(),
            hint: None,
            arn: item.arn.clone(),
            shape: item.shape,
        },
        &["QueueArn"],
    );
    match found {
        Some((t, n, p)) => {
            let name = super::arn::parse(&t).map(|x| x.name).unwrap_or_default();
            let kind = if fifo(a, &base, &name)? {
                "sqs-fifo"
            } else {
                "sqs-standard"
            };
            if let Some(d) = Decl::of_arn(&t, &n, &p, kind, TY, true) {
                decls.push(d);
            }
        }
        None => {
            let Some(name) = item.hint else {
                return Err(a.error_at(
                    format!("`{base}` has no QueueArn, and the file name does not name the queue"),
                    "export with `--attribute-names All`, or name the file `sqs.<queue>.json`",
                ));
            };
            let kind = if fifo(a, &base, name)? {
                "sqs-fifo"
            } else {
                "sqs-standard"
            };
            decls.push(Decl::named("sqs", name, kind, TY, &base, a));
        }
    }
    Ok(())
}

const TY: &str = "AWS::SQS::Queue";

/// The queue's component.
fn component(cx: &Ctx, item: &Item) -> Option<String> {
    let (a, base) = attrs(item);
    let sub = Item {
        node: a,
        base,
        hint: None,
        arn: item.arn.clone(),
        shape: item.shape,
    };
    match arn_of(&sub, &["QueueArn"]) {
        Some((t, _, _)) => cx.id(&t),
        None => item.hint.and_then(|h| cx.find(h, "sqs")),
    }
}

pub(super) fn read(cx: &mut Ctx, item: &Item) -> Result<(), Diagnostic> {
    let Some(id) = component(cx, item) else {
        return Ok(());
    };
    let (a, base) = attrs(item);
    for (key, field) in [
        ("VisibilityTimeout", "visibility_timeout"),
        ("MessageRetentionPeriod", "retention"),
    ] {
        if let Some(n) = get(a, key) {
            let p = format!("{base}.{key}");
            let v = int(n, &p)?;
            let c = cx.src(&p, n);
            cx.out.set(
                &id,
                F::new(
                    field,
                    V::S(dur(v.max(0) as u64)),
                    Some(format!("{c}: {v} s")),
                ),
            );
        }
    }
    if let Some(n) = get(a, "ContentBasedDeduplication") {
        let p = format!("{base}.ContentBasedDeduplication");
        let b = flag(n, &p)?;
        let c = cx.src(&p, n);
        cx.out.set(
            &id,
            F::new("content_based_dedup", V::S(b.to_string()), Some(c)),
        );
    }
    if let Some(n) = get(a, "DeduplicationScope") {
        let p = format!("{base}.DeduplicationScope");
        let v = text(n, &p)?;
        let scope = if v == "messageGroup" {
            "message-group".to_string()
        } else {
            crate::import::kebab(&v)
        };
        let c = cx.src(&p, n);
        cx.out
            .set(&id, F::new("dedup_scope", V::S(scalar(&scope)), Some(c)));
    }
    if let Some(n) = get(a, "RedrivePolicy") {
        redrive_policy(cx, &id, n, &format!("{base}.RedrivePolicy"))?;
    }
    if let Some(n) = get(a, "RedriveAllowPolicy") {
        let p = format!("{base}.RedriveAllowPolicy");
        let rap = json_object(n, &p)?;
        let perm = match rap.get("redrivePermission") {
            Some(x) => text(x, &format!("{p}.redrivePermission"))?,
            None => "allowAll".into(),
        };
        let c = cx.src(&p, n);
        cx.allow.push((id, perm, c));
    }
    Ok(())
}

/// `RedrivePolicy` (a JSON string): the dead-letter queue and after how
/// many receives a message moves there.
fn redrive_policy(cx: &mut Ctx, id: &str, n: &Node, p: &str) -> Result<(), Diagnostic> {
    let rp = json_object(n, p)?;
    let Some(t) = rp.get("deadLetterTargetArn") else {
        let c = cx.src(p, n);
        cx.out.unresolved(
            id,
            format!("TODO: RedrivePolicy without deadLetterTargetArn ({c})"),
        );
        return Ok(());
    };
    let tp = format!("{p}.deadLetterTargetArn");
    text(t, &tp)?;
    let Some(to) = cx.target(id, t, &tp, "dead_letter to") else {
        return Ok(());
    };
    let mut fields = vec![F::new("to", V::S(to), Some(cx.src(&tp, t)))];
    if let Some(m) = rp.get("maxReceiveCount") {
        let mp = format!("{p}.maxReceiveCount");
        let v = int(m, &mp)?;
        if v >= 1 {
            fields.push(F::new(
                "after_receives",
                V::S(v.to_string()),
                Some(cx.src(&mp, m)),
            ));
        }
    }
    cx.out.set(id, F::new("dead_letter", V::Map(fields), None));
    Ok(())
}

/// The redrives RedriveAllowPolicy permits, once every queue's dead letter
/// is known: the one queue whose dead letter this is may be redriven to.
pub(super) fn redrives(cx: &mut Ctx) {
    for (id, perm, c) in std::mem::take(&mut cx.allow) {
        if perm == "denyAll" {
            cx.out.note(&id, format!("RedriveAllowPolicy denyAll: no queue may use this one as its dead-letter queue ({c})"));
            continue;
        }
        let sources: Vec<String> = cx
            .out
            .comps
            .iter()
            .filter(|s| s.fields.iter().any(|f| f.key == "dead_letter" && matches!(&f.val, V::Map(m) if m.iter().any(|x| x.key == "to" && matches!(&x.val, V::S(t) if *t == id)))))
            .map(|s| s.id.clone())
            .collect();
        match sources.as_slice() {
            [src] => cx.out.set(
                &id,
                F::new(
                    "redrive",
                    V::Map(vec![
                        F::new("to", V::S(src.clone()), Some(format!("{c}: {perm} lets messages move back to their source"))),
                        F::new("mode", V::S("manual".into()), Some("TODO: manual or automatic? the export cannot tell".into())),
                    ]),
                    Some("TODO: add `within` (how late redrives happen) and `max_times`".into()),
                ),
            ),
            [] => cx.out.note(&id, format!("RedriveAllowPolicy {perm}: no exported queue uses this one as its dead-letter queue ({c})")),
            many => cx.out.note(&id, format!("TODO: redrive: RedriveAllowPolicy {perm} and several sources ({}); declare the redrive you perform ({c})", many.join(", "))),
        }
    }
}
