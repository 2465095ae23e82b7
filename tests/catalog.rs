//! Every catalog kind can be used in a manifest: its defaults load, the
//! analysis reads them, and `catalog KIND` shows each number with a source.

use assert_cmd::Command;
use replay_audit::catalog::{Generic, Status, catalog};
use replay_audit::{analyse, manifest, rules};

fn manifest_for(kind: &str, generic: Generic) -> String {
    let link = if generic.is_transport() {
        "sends_to: subject\n"
    } else {
        "calls: [{ to: subject, timeout: 5s, passes_key: true, retry: { attempts: 2 } }]\n"
    };
    format!(
        "version: 1\nintents:\n  one:\n    origin: origin\n    effect: subject\n    key: {{ fields: [order_id] }}\n    fingerprint: [order_id]\ncomponents:\n  origin:\n    kind: service\n    {link}  subject:\n    kind: {kind}\n"
    )
}

#[test]
fn every_kind_loads_and_is_analysed() {
    for k in &catalog().kinds {
        let text = manifest_for(&k.id, k.generic);
        let m =
            manifest::from_str(&text).unwrap_or_else(|e| panic!("{}: {}", k.id, e.render(false)));
        let a = analyse(&m);
        let findings = rules::run(&a);
        // The subject is reached by the intent: its horizon is known.
        let subject = m.component_index("subject").unwrap();
        assert!(a.intents[0].horizons.contains_key(subject), "{}", k.id);
        // Every value the analysis assumed names a field the kind does not document.
        for f in findings.iter().filter(|f| f.rule.code == "RH041") {
            let field = f
                .message
                .split('`')
                .nth(1)
                .unwrap()
                .rsplit('.')
                .next()
                .unwrap();
            assert!(
                k.fields.get(field).is_none_or(|x| x.default.is_none()),
                "{}: assumed documented {field}",
                k.id
            );
        }
    }
}

#[test]
fn every_number_cites_a_source_with_its_status() {
    let c = catalog();
    for k in &c.kinds {
        for (field, fact) in &k.fields {
            let src = c
                .source(&fact.source)
                .unwrap_or_else(|| panic!("{}.{field}", k.id));
            assert!(src.url.starts_with("https://"), "{}.{field}", k.id);
            assert_ne!(
                src.status,
                Status::Unverified,
                "{}.{field} rests on an unverified fact",
                k.id
            );
        }
        let out = Command::cargo_bin("replay-audit")
            .unwrap()
            .args(["catalog", &k.id, "--format", "json"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", k.id);
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["kind"]["id"], k.id.as_str());
        for fact in k.fields.values() {
            assert!(
                v["sources"][&fact.source]["url"].is_string(),
                "{}: {}",
                k.id,
                fact.source
            );
        }
    }
}

#[test]
fn unverified_facts_are_shown_as_such() {
    let out = Command::cargo_bin("replay-audit")
        .unwrap()
        .args(["catalog", "rabbitmq-quorum-queue"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("F062 (UNVERIFIED)"), "{text}");
}

#[test]
fn issue_kinds_are_all_there() {
    for id in [
        "sqs-standard",
        "sqs-fifo",
        "sns-standard",
        "sns-fifo",
        "eventbridge",
        "eventbridge-bus",
        "kinesis",
        "lambda-async",
        "lambda-event-source",
        "lambda-durable",
        "step-functions-standard",
        "step-functions-express-async",
        "step-functions-express-sync",
        "dynamodb-table",
        "dynamodb-global-table",
        "dynamodb-transaction",
        "powertools-idempotency",
        "ec2-client-token",
        "pubsub-subscription",
        "cloud-tasks",
        "service-bus-queue",
        "event-grid",
        "event-hubs",
        "kafka-topic",
        "nats-jetstream",
        "rabbitmq-quorum-queue",
        "temporal-workflow",
        "stripe",
        "adyen",
        "braintree",
        "http-idempotency-key",
    ] {
        assert!(catalog().kind(id).is_some(), "{id} missing");
    }
}
