//! An example value for every field of the reference in `docs/manifest.md`:
//! the ids and numbers of the payout example where the type alone would
//! give a meaningless one, else a value made from the field's type (its
//! first choice, a duration, a count at its minimum or above). The tests
//! below check every example against its field's type.

use crate::manifest::vocabulary::{FieldDef, Obj, Type};

/// Examples that the type cannot give: (object, field, YAML value).
const CHOSEN: &[(&str, &str, &str)] = &[
    ("manifest", "name", "payouts"),
    (
        "manifest",
        "regions",
        "{ eu-west-1: { failover_to: us-east-1 } }",
    ),
    (
        "manifest",
        "intents",
        "{ seller-payout: { origin: settlement-scheduler, effect: bank-rail } }",
    ),
    (
        "manifest",
        "components",
        "{ bank-rail: { kind: external } }",
    ),
    ("region", "failover_to", "us-east-1"),
    ("region", "detection", "5m"),
    ("region", "catch_up", "2h"),
    ("intent", "description", "pay one seller for one settlement"),
    ("intent", "origin", "settlement-scheduler"),
    ("intent", "effect", "bank-rail"),
    ("intent", "effects", "[bank-rail, ledger]"),
    (
        "intent",
        "key",
        "{ fields: [seller_id, settlement_id], persisted_before_retry: true }",
    ),
    (
        "intent",
        "fingerprint",
        "[seller_id, settlement_id, amount, currency]",
    ),
    (
        "intent",
        "replays",
        "[{ name: morning redrive, enters_at: payout-requests, within: 14h }]",
    ),
    ("intent", "tested", "[timeout-before-effect, dlq-redrive]"),
    ("key", "fields", "[seller_id, settlement_id]"),
    ("key", "minted_at", "settlement-scheduler"),
    ("replay", "name", "morning redrive"),
    ("replay", "enters_at", "payout-requests"),
    ("replay", "within", "14h"),
    ("component", "kind", "sqs-standard"),
    ("component", "description", "the payout request queue"),
    ("component", "regions", "[eu-west-1, us-east-1]"),
    ("component", "sends_to", "payout-requests"),
    ("component", "delivers_to", "payout-worker"),
    (
        "component",
        "calls",
        "{ to: bank-rail, timeout: 10s, passes_key: true }",
    ),
    (
        "component",
        "dead_letter",
        "{ to: payout-dlq, after_receives: 3 }",
    ),
    (
        "component",
        "redrive",
        "{ to: payout-requests, mode: manual, within: 14h, max_times: 1 }",
    ),
    (
        "component",
        "dedup",
        "{ store: payout-keys, claim: conditional-write }",
    ),
    (
        "component",
        "effects",
        "[{ to: bank-rail, passes_key: true }]",
    ),
    ("component", "timeout", "60s"),
    ("component", "visibility_timeout", "5m"),
    ("component", "retention", "14d"),
    ("component", "max_backlog", "30m"),
    ("component", "max_event_age", "6h"),
    ("component", "message_attributes", "[tenant_id]"),
    (
        "component",
        "backup",
        "{ rpo: 5m, restored_with: [payout-ledger] }",
    ),
    ("component", "unique", "[settlement_id]"),
    (
        "component",
        "uses",
        "[amount, currency, destination_account]",
    ),
    ("component", "key_window", "31d"),
    ("component", "dedup_window", "5m"),
    ("guard", "store", "payout-keys"),
    (
        "guard",
        "in_progress",
        "{ on_conflict: reject, expires_after: 5m, on_expiry: reconcile }",
    ),
    ("sends_to", "to", "payout-requests"),
    (
        "sends_to",
        "retry",
        "{ attempts: 3, backoff: 100ms, multiplier: 2 }",
    ),
    ("delivers_to", "retry", "{ attempts: 2 }"),
    (
        "calls",
        "retry",
        "{ attempts: 3, backoff: 1s, max_elapsed: 30s }",
    ),
    ("delivers_to", "to", "payout-worker"),
    ("calls", "to", "bank-rail"),
    ("dead_letter", "to", "payout-dlq"),
    ("redrive", "to", "payout-requests"),
    ("redrive", "within", "14h"),
    ("effects", "to", "bank-rail"),
    ("retry", "backoff", "200ms"),
    ("retry", "max_backoff", "20s"),
    ("retry", "max_elapsed", "2m"),
    ("in_progress", "expires_after", "5m"),
    ("backup", "rpo", "5m"),
    ("backup", "restored_with", "[payout-ledger]"),
    ("redrive", "max_times", "1"),
];

/// An example value of `f` in `obj`, as YAML.
pub fn example(obj: Obj, f: &FieldDef) -> String {
    if let Some((_, _, v)) = CHOSEN
        .iter()
        .find(|(o, n, _)| *o == obj.def() && *n == f.name)
    {
        return (*v).to_string();
    }
    match f.ty {
        Type::Version => "1".into(),
        Type::Text { examples } => examples.first().copied().unwrap_or("text").into(),
        Type::Texts => "[a, b]".into(),
        Type::Kind => "service".into(),
        Type::Id | Type::Ids => "payout-worker".into(),
        Type::Duration { .. } => "30s".into(),
        Type::Count { min } => min.max(3).to_string(),
        Type::Number => "2".into(),
        Type::Bool => "true".into(),
        Type::Choice(names) => names.first().copied().unwrap_or_default().into(),
        Type::Object(o) | Type::Objects(o) | Type::Entries(o) | Type::Link { obj: o, .. } => {
            format!("{{ }} (see `{}`)", o.def())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::Dur;

    /// Every example is a value its field's type accepts, and no chosen
    /// example names a field that does not exist.
    #[test]
    fn every_example_fits_its_type() {
        for (o, n, _) in CHOSEN {
            let known = Obj::ALL
                .iter()
                .any(|obj| obj.def() == *o && obj.fields().iter().any(|f| f.name == *n));
            assert!(known, "{o}.{n} is not in the vocabulary");
        }
        for &obj in Obj::ALL {
            for f in obj.fields() {
                let v = example(obj, f);
                let what = format!("{}.{} = {v}", obj.def(), f.name);
                assert!(
                    !v.contains("(see"),
                    "{what}: write a real example in CHOSEN"
                );
                let value: serde_json::Value =
                    serde_saphyr::from_str(&v).unwrap_or_else(|e| panic!("{what}: {e}"));
                match f.ty {
                    Type::Duration { zero } => {
                        let d = Dur::parse(&v).unwrap_or_else(|e| panic!("{what}: {e}"));
                        assert!(zero || d != Dur::ZERO, "{what}");
                    }
                    Type::Bool => assert!(value.is_boolean(), "{what}"),
                    Type::Count { min } => {
                        assert!(value.as_u64().is_some_and(|c| c >= min), "{what}")
                    }
                    Type::Choice(names) => assert!(names.contains(&v.as_str()), "{what}"),
                    Type::Version => assert_eq!(value, serde_json::json!(1), "{what}"),
                    Type::Texts | Type::Ids => {
                        assert!(value.is_string() || value.is_array(), "{what}")
                    }
                    Type::Link { .. } => assert!(
                        value.is_string() || value.is_object() || value.is_array(),
                        "{what}"
                    ),
                    Type::Object(_) | Type::Entries(_) => assert!(value.is_object(), "{what}"),
                    Type::Objects(_) => assert!(value.is_object() || value.is_array(), "{what}"),
                    _ => {}
                }
            }
        }
    }
}
