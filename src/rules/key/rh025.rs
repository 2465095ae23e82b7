//! RH025 key-from-transport-identity: a key built from identities the
//! transport or runtime assigns per delivery (page `docs/rules/RH025.md`).

use crate::manifest::model::Intent;
use crate::rules::{Code, Ctx, Finding};

/// Key field names that a transport or runtime assigns per delivery.
const TRANSPORT_IDENTITIES: &[&str] = &[
    "message_id",
    "messageid",
    "message-id",
    "delivery_id",
    "delivery_tag",
    "receipt_handle",
    "execution_id",
    "execution_arn",
    "execution_name",
    "invocation_id",
    "request_id",
    "aws_request_id",
    "sequence_number",
    "offset",
    "timestamp",
    "time_bucket",
    "received_at",
    "attempt",
    "attempt_id",
    "now",
];

pub(crate) fn emit(ctx: &Ctx, out: &mut Vec<Finding>) {
    for r in &ctx.a.intents {
        intent(&ctx.m.intents[r.intent], out);
    }
}

/// RH025: a key built from per-delivery identities.
fn intent(intent: &Intent, out: &mut Vec<Finding>) {
    let Some(fields) = &intent.key.fields else {
        return;
    };
    let bad: Vec<&String> = fields
        .value
        .iter()
        .filter(|f| TRANSPORT_IDENTITIES.contains(&f.to_ascii_lowercase().as_str()))
        .collect();
    if !bad.is_empty() {
        let names: Vec<String> = bad.iter().map(|b| format!("`{b}`")).collect();
        out.push(
            Finding::new(
                Code::RH025,
                format!(
                    "the key of `{}` uses {}, which the transport or runtime assigns per delivery: a re-send or redrive gets a new one",
                    intent.id,
                    names.join(", ")
                ),
            )
            .intent(&intent.id)
            .at(fields.loc),
        );
    }
}
