//! RH025 key-from-transport-identity: a key built from identities the
//! transport or runtime assigns per delivery (page `docs/rules/RH025.md`).
//!
//! A field name is split into words (`messageId`, `message-id`,
//! `MESSAGE_ID` all give `message id`) and recognised by catalog (names
//! platforms assign: SQS `MessageId`, `ReceiptHandle`, Lambda
//! `aws_request_id`, ...) or by pattern (a message, delivery, receipt,
//! request, execution or invocation identity; any time bucket or
//! timestamp). A field the key declares `business_assigned` is ours.
//!
//! A request id (`request_id`, `x-request-id`, `requestId`) is left alone
//! when the sender mints the key once and keeps it: minted at the origin,
//! per intent, with `persisted_before_retry: true`. Every copy then carries
//! the id the first attempt carried. An id only a transport or runtime can
//! assign (SQS `MessageId`, Lambda `aws_request_id`, a receipt handle, an
//! offset) or a clock reading still fires.

use crate::manifest::model::{Intent, Name};
use crate::rules::{Code, Ctx, Finding};

/// Names, as words, that a transport or runtime assigns per delivery.
const CATALOG: &[&str] = &[
    "receipt handle",
    "delivery tag",
    "execution arn",
    "execution name",
    "aws request id",
    "sequence number",
    "offset",
    "attempt",
    "now",
    "approximate receive count",
    "messageid",
    "requestid",
    "deliveryid",
    "executionid",
];

/// Words naming who assigns a per-delivery identity (`<word> id`).
const ASSIGNERS: &[&str] = &[
    "message",
    "msg",
    "delivery",
    "receipt",
    "request",
    "req",
    "execution",
    "invocation",
    "attempt",
];

/// Words that make an identity the caller's own (`client_request_id`).
const OWN: &[&str] = &["client", "idempotency", "caller", "business"];

/// Words naming a clock reading or a time bucket.
const TIME: &[&str] = &[
    "timestamp",
    "ts",
    "time",
    "bucket",
    "minute",
    "minutes",
    "hour",
    "hours",
    "seconds",
    "epoch",
    "millis",
];

/// Verbs of delivery: `<verb>_at` is when this copy travelled.
const DELIVERY_VERBS: &[&str] = &[
    "received",
    "sent",
    "enqueued",
    "delivered",
    "processed",
    "published",
    "attempted",
];

pub(crate) fn emit(ctx: &Ctx, out: &mut Vec<Finding>) {
    for r in &ctx.a.intents {
        intent(&ctx.m.intents[r.intent], out);
    }
}

/// The words of a field name: split at `_`, `-`, `.`, spaces and
/// lower-to-upper case changes, lower-cased.
fn words(name: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut cur = String::new();
    let mut prev_lower = false;
    for ch in name.chars() {
        if !ch.is_alphanumeric() {
            out.extend((!cur.is_empty()).then(|| std::mem::take(&mut cur)));
            prev_lower = false;
            continue;
        }
        if ch.is_uppercase() && prev_lower {
            out.push(std::mem::take(&mut cur));
        }
        prev_lower = ch.is_lowercase() || ch.is_ascii_digit();
        cur.extend(ch.to_lowercase());
    }
    out.extend((!cur.is_empty()).then_some(cur));
    out
}

/// Words naming a request's identity, which the sender may mint itself
/// (`<word> id`).
const REQUEST: &[&str] = &["request", "req"];

/// Whether a key field names an identity assigned per delivery.
pub(crate) fn per_delivery(name: &str) -> bool {
    let w = words(name);
    let has = |set: &[&str]| w.iter().any(|x| set.contains(&x.as_str()));
    if CATALOG.contains(&w.join(" ").as_str()) {
        return true;
    }
    if has(TIME) {
        return true;
    }
    let n = w.len();
    let ends_in_id = n >= 2 && matches!(w[n - 1].as_str(), "id" | "ids" | "handle" | "tag");
    let identity = ends_in_id && ASSIGNERS.contains(&w[n - 2].as_str()) && !has(OWN);
    let travelled = n >= 2 && w[n - 1] == "at" && DELIVERY_VERBS.contains(&w[n - 2].as_str());
    identity || travelled
}

/// Whether a per-delivery-looking field is a request id a sender can mint
/// itself (`request_id`, `x-request-id`, `requestid`), not one only a
/// transport or runtime assigns (`aws_request_id`, `message_id`).
fn sender_mintable(name: &str) -> bool {
    let w = words(name);
    let n = w.len();
    if n == 1 {
        return w[0] == "requestid";
    }
    n >= 2
        && matches!(w[n - 1].as_str(), "id" | "ids")
        && REQUEST.contains(&w[n - 2].as_str())
        && !w.iter().any(|x| x == "aws")
}

/// Whether the sender mints the key once and keeps it for every copy:
/// minted at the origin, per intent, and persisted before the first try.
fn minted_once_and_kept(intent: &Intent) -> bool {
    let k = &intent.key;
    k.persisted_before_retry.as_ref().is_some_and(|p| p.value)
        && !k.per_attempt()
        && k.minted_at
            .as_ref()
            .is_none_or(|m| m.index().is_some() && m.index() == intent.origin.index())
}

/// RH025: a key built from per-delivery identities.
fn intent(intent: &Intent, out: &mut Vec<Finding>) {
    let Some(fields) = &intent.key.fields else {
        return;
    };
    let ours = |f: &str| {
        intent
            .key
            .business_assigned
            .as_ref()
            .is_some_and(|b| b.value.iter().any(|x| x == f))
    };
    let kept = minted_once_and_kept(intent);
    let bad: Vec<&Name> = fields
        .value
        .iter()
        .filter(|f| !ours(f) && per_delivery(f))
        .filter(|f| !(kept && sender_mintable(f)))
        .collect();
    if !bad.is_empty() {
        let names: Vec<String> = bad.iter().map(|b| format!("`{b}`")).collect();
        out.push(
            Finding::new(
                Code::RH025,
                format!(
                    "the key of `{}` uses {}, which the transport or runtime assigns per delivery: a re-send or redrive gets a new one (if our own code assigns it, list it in `key.business_assigned`{})",
                    intent.id,
                    names.join(", "),
                    if bad.iter().any(|b| sender_mintable(b)) {
                        "; a request id the sender keeps for every copy is minted at the origin, with `persisted_before_retry: true`"
                    } else {
                        ""
                    }
                ),
            )
            .intent(&intent.id)
            .at(fields.loc),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::{per_delivery, sender_mintable, words};

    #[test]
    fn names_split_into_words() {
        assert_eq!(words("messageId"), ["message", "id"]);
        assert_eq!(words("MESSAGE_ID"), ["message", "id"]);
        assert_eq!(words("x-request-id"), ["x", "request", "id"]);
        assert_eq!(words("awsRequestId"), ["aws", "request", "id"]);
        assert_eq!(words("hour_bucket"), ["hour", "bucket"]);
    }

    #[test]
    fn per_delivery_identities_are_recognised() {
        for name in [
            "message_id",
            "messageId",
            "MessageId",
            "msg_id",
            "delivery_id",
            "ReceiptHandle",
            "receipt_handle",
            "aws_request_id",
            "awsRequestId",
            "x-request-id",
            "execution_id",
            "execution_arn",
            "invocation_id",
            "hour_bucket",
            "minute",
            "timestamp",
            "event_timestamp",
            "time_bucket",
            "received_at",
            "sent_at",
            "offset",
            "attempt",
            "sequence_number",
            "now",
            "messageid",
        ] {
            assert!(per_delivery(name), "{name}");
        }
    }

    #[test]
    fn only_request_ids_are_sender_mintable() {
        for name in [
            "request_id",
            "requestId",
            "x-request-id",
            "req_id",
            "requestid",
        ] {
            assert!(sender_mintable(name), "{name}");
        }
        for name in [
            "aws_request_id",
            "awsRequestId",
            "message_id",
            "MessageId",
            "receipt_handle",
            "execution_id",
            "offset",
            "hour_bucket",
        ] {
            assert!(!sender_mintable(name), "{name}");
        }
    }

    #[test]
    fn business_identities_are_not() {
        for name in [
            "order_id",
            "line_id",
            "settlement_id",
            "seller_id",
            "client_request_id",
            "idempotency_request_id",
            "created_at",
            "business_date",
            "event_id",
            "amount",
            "settlement_date",
            "message",
            "request",
        ] {
            assert!(!per_delivery(name), "{name}");
        }
    }
}
