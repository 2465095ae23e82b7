//! How a Lambda function is invoked, as the template shows it, and what
//! follows for its kind: a function polled by an event source mapping
//! (SQS, Kinesis, DynamoDB Streams) is `lambda-event-source`; one invoked
//! asynchronously (SNS, EventBridge rules and Scheduler schedules, S3
//! notifications, an invoke config) is `lambda-async`. The Terraform
//! importer decides the same way with these functions.
//!
//! `DeadLetterQueue`/`DeadLetterConfig`, `EventInvokeConfig` (maximum
//! event age, retries, destinations) and `DurableConfig` apply to
//! asynchronous invocations only (F023-F025): a mapping never uses them.
//! On a function that only a mapping invokes, the fields they gave are
//! taken off again and kept as notes, so a queue's copies do not pass an
//! asynchronous dead letter they never reach.

use std::collections::BTreeMap;

use super::{F, Out, V};

/// What the template says about how one function is invoked.
#[derive(Debug, Default, Clone, Copy)]
pub(in crate::import) struct Invoked {
    /// An event source mapping (or SAM `SQS`/`Kinesis`/`DynamoDB` event) polls for it.
    pub mapping: bool,
    /// An SNS, EventBridge, Scheduler or S3 source invokes it asynchronously.
    pub asynchronous: bool,
    /// It has an `EventInvokeConfig`.
    pub async_config: bool,
}

/// Invocations by function component id.
pub(in crate::import) type Invocations = BTreeMap<String, Invoked>;

/// Marks function `id` as polled by a mapping.
pub(in crate::import) fn mapped(inv: &mut Invocations, id: &str) {
    inv.entry(id.to_string()).or_default().mapping = true;
}

/// Marks function `id` as invoked asynchronously.
pub(in crate::import) fn asynchronous(inv: &mut Invocations, id: &str) {
    inv.entry(id.to_string()).or_default().asynchronous = true;
}

/// Marks function `id` as having asynchronous settings.
pub(in crate::import) fn async_config(inv: &mut Invocations, id: &str) {
    inv.entry(id.to_string()).or_default().async_config = true;
}

/// The fields only asynchronous settings set on a function component.
const ASYNC_FIELDS: [&str; 3] = ["dead_letter", "max_event_age", "sends_to"];

/// Sets the kind of every function from how it is invoked, and takes the
/// asynchronous-only fields off a function only a mapping invokes.
pub(in crate::import) fn resolve(out: &mut Out, mut inv: Invocations) {
    for target in async_targets(out) {
        asynchronous(&mut inv, &target);
    }
    for (fid, how) in inv {
        let Some(c) = out.comp(&fid) else { continue };
        if c.kind != "function" {
            continue;
        }
        let kind = if how.asynchronous || (how.async_config && !how.mapping) {
            "lambda-async"
        } else if how.mapping {
            "lambda-event-source"
        } else {
            continue;
        };
        c.kind = kind.to_string();
        let has_async = c
            .fields
            .iter()
            .any(|f| ASYNC_FIELDS.contains(&f.key.as_str()));
        if !(how.mapping && has_async) {
            continue;
        }
        if how.asynchronous {
            c.notes.push("TODO: this function is invoked both by an event source mapping and asynchronously; its asynchronous settings (dead_letter, max_event_age) apply to the asynchronous invocations only, but one component applies them to both: declare the two paths as two components".into());
            continue;
        }
        let (moved, kept): (Vec<_>, Vec<_>) = std::mem::take(&mut c.fields)
            .into_iter()
            .partition(|f| ASYNC_FIELDS.contains(&f.key.as_str()));
        c.fields = kept;
        for f in moved {
            let src = first_comment(&f).unwrap_or_default();
            c.notes.push(format!(
                "not wired: `{}` ({src}) applies to asynchronous invocations only (F023-F025); the event source mapping that invokes this function does not use it",
                f.key
            ));
        }
    }
}

/// The components an SNS topic or an EventBridge rule delivers to: Lambda
/// invokes those asynchronously.
fn async_targets(out: &Out) -> Vec<String> {
    let mut targets = Vec::new();
    for c in &out.comps {
        if !(c.kind.starts_with("sns-") || c.kind == "eventbridge") {
            continue;
        }
        for f in c.fields.iter().filter(|f| f.key == "delivers_to") {
            if let V::Items(items) = &f.val {
                for item in items {
                    if let Some(F { val: V::S(to), .. }) = item.iter().find(|x| x.key == "to") {
                        targets.push(to.clone());
                    }
                }
            }
        }
    }
    targets
}

/// The first source comment in a field, its own or its first value's.
fn first_comment(f: &F) -> Option<String> {
    f.comment.clone().or_else(|| match &f.val {
        V::Map(m) => m.iter().find_map(first_comment),
        V::Items(items) => items.iter().flatten().find_map(first_comment),
        _ => None,
    })
}
