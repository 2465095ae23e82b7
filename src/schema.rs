//! `schema`: the JSON Schema (draft 2020-12) of the manifest, for editors.
//!
//! Built by hand from the loader's field lists (`TOP_FIELDS`,
//! `COMPONENT_FIELDS`, ... in `manifest/load.rs`) rather than derived with
//! schemars: the manifest is read from a span-carrying YAML tree, not with
//! serde, so there is no serde model to derive from. A test checks that
//! every object here lists exactly the loader's fields, so the two cannot
//! drift apart, and another validates every fixture against it.

use serde_json::{Map, Value, json};

use crate::catalog::catalog;
use crate::manifest::load::{
    BACKUP_FIELDS, COMPONENT_FIELDS, GUARD_FIELDS, IN_PROGRESS_FIELDS, INTENT_FIELDS, KEY_FIELDS,
    REGION_FIELDS, REPLAY_FIELDS, RETRY_FIELDS, TOP_FIELDS,
};

/// The schema's `$id`: a name, not a download address (the schema is
/// printed by `replay-audit schema`, not published anywhere).
pub const ID: &str = "urn:replay-audit:manifest:1";

fn r(def: &str) -> Value {
    json!({ "$ref": format!("#/$defs/{def}") })
}

fn one_or_many(item: Value) -> Value {
    json!({ "anyOf": [item.clone(), { "type": "array", "items": item }] })
}

fn choice(values: &[&str], description: &str) -> Value {
    json!({ "type": "string", "enum": values, "description": description })
}

fn described(mut v: Value, description: &str) -> Value {
    v["description"] = json!(description);
    v
}

/// A closed object: exactly `fields`, each described in `props`.
fn object(fields: &[&str], props: Vec<(&str, Value)>, required: &[&str]) -> Value {
    let mut properties = Map::new();
    for (name, schema) in props {
        properties.insert(name.to_string(), schema);
    }
    debug_assert!(
        fields.iter().all(|f| properties.contains_key(*f)),
        "a field without a schema"
    );
    let mut o = json!({
        "type": "object",
        "properties": properties,
        "additionalProperties": false,
    });
    if !required.is_empty() {
        o["required"] = json!(required);
    }
    o
}

/// A link (`sends_to`, `calls`, ...): an id, or an object with `to`.
fn link(fields: &[&str], extra: Vec<(&str, Value)>, id_allowed: bool) -> Value {
    let mut props = vec![("to", r("id"))];
    props.extend(extra);
    let obj = object(fields, props, &["to"]);
    if id_allowed {
        json!({ "anyOf": [r("id"), obj] })
    } else {
        obj
    }
}

/// The JSON Schema of the manifest format, version 1.
pub fn schema() -> Value {
    let mut kinds: Vec<&str> = catalog().kinds.iter().map(|k| k.id.as_str()).collect();
    kinds.sort_unstable();
    let duration = json!({
        "description": "humantime duration (`30s`, `5m`, `1h 30m`, `4d`, `2w`), a number of seconds, or `unbounded`",
        "anyOf": [
            { "type": "string", "minLength": 1 },
            { "type": "integer", "minimum": 0 }
        ]
    });
    let string_list = json!({
        "anyOf": [{ "type": "string" }, { "type": "array", "items": { "type": "string" } }]
    });
    let defs = json!({
        "id": {
            "type": "string",
            "pattern": "^[a-z0-9][a-z0-9._-]*$",
            "description": "an id: lower-case letters, digits, `.`, `_` and `-`; intents, components and regions share one namespace"
        },
        "duration": duration,
        "string_list": string_list,
        "retry": object(RETRY_FIELDS, vec![
            ("attempts", json!({ "type": "integer", "minimum": 1, "description": "total attempts including the first" })),
            ("timeout", described(r("duration"), "per attempt (defaults to the call's timeout)")),
            ("backoff", described(r("duration"), "first delay")),
            ("multiplier", json!({ "type": "number", "exclusiveMinimum": 0, "description": "default 2" })),
            ("max_backoff", r("duration")),
            ("max_elapsed", described(r("duration"), "optional cap on the whole sequence")),
        ], &[]),
        "region": {
            "anyOf": [
                { "type": "null" },
                object(REGION_FIELDS, vec![
                    ("failover_to", r("id")),
                    ("detection", r("duration")),
                    ("catch_up", r("duration")),
                ], &[])
            ]
        },
        "key": object(KEY_FIELDS, vec![
            ("fields", described(r("string_list"), "natural key fields, or [uuid] for a generated one")),
            ("minted_at", described(r("id"), "where the key is created (default: origin)")),
            ("minted", choice(&["per-intent", "per-attempt"], "per-intent (default), or per-attempt: a new key each try")),
            ("persisted_before_retry", json!({ "type": "boolean" })),
        ], &[]),
        "replay": object(REPLAY_FIELDS, vec![
            ("name", json!({ "type": "string" })),
            ("enters_at", r("id")),
            ("within", r("duration")),
        ], &["enters_at", "within"]),
        "intent": {
            "allOf": [
                object(INTENT_FIELDS, vec![
                    ("description", json!({ "type": "string" })),
                    ("origin", described(r("id"), "component where the decision becomes stable")),
                    ("effect", described(one_or_many(r("id")), "component(s) where the business effect happens")),
                    ("effects", described(one_or_many(r("id")), "alias of `effect`")),
                    ("key", r("key")),
                    ("fingerprint", r("string_list")),
                    ("replays", one_or_many(r("replay"))),
                    ("tested", described(r("string_list"), "failure injections the team has run")),
                ], &["origin"]),
                { "anyOf": [{ "required": ["effect"] }, { "required": ["effects"] }] }
            ]
        },
        "in_progress": object(IN_PROGRESS_FIELDS, vec![
            ("on_conflict", json!({ "type": "string", "examples": ["reject"] })),
            ("expires_after", r("duration")),
            ("on_expiry", choice(&["reconcile", "retry"], "what a copy does when an in-progress claim expires")),
        ], &[]),
        "guard": object(GUARD_FIELDS, vec![
            ("store", r("id")),
            ("claim", choice(&["conditional-write", "read-then-write", "none"], "how the key is claimed")),
            ("binds_fingerprint", json!({ "type": "boolean" })),
            ("stores_result", json!({ "type": "boolean" })),
            ("in_progress", r("in_progress")),
        ], &["store"]),
        "backup": object(BACKUP_FIELDS, vec![
            ("rpo", r("duration")),
            ("restored_with", one_or_many(r("id"))),
        ], &[]),
        "component": object(COMPONENT_FIELDS, vec![
            ("kind", json!({ "type": "string", "enum": kinds, "description": "a generic or catalog kind (`replay-audit catalog`)" })),
            ("description", json!({ "type": "string" })),
            ("regions", one_or_many(r("id"))),
            ("mode", choice(&["active-active", "active-passive"], "default active-passive when it runs in several regions")),
            ("sends_to", one_or_many(link(&["to", "retry", "dedup_id"], vec![
                ("retry", r("retry")),
                ("dedup_id", choice(&["key", "content", "none"], "what the transport deduplicates sends by")),
            ], true))),
            ("delivers_to", one_or_many(link(&["to", "retry", "max_record_age"], vec![
                ("retry", r("retry")),
                ("max_record_age", r("duration")),
            ], true))),
            ("calls", one_or_many(link(&["to", "timeout", "retry", "passes_key"], vec![
                ("timeout", r("duration")),
                ("retry", r("retry")),
                ("passes_key", json!({ "type": "boolean", "description": "default false" })),
            ], true))),
            ("dead_letter", link(&["to", "after_receives"], vec![
                ("after_receives", json!({ "type": "integer", "minimum": 1 })),
            ], true)),
            ("redrive", link(&["to", "mode", "within", "max_times"], vec![
                ("mode", choice(&["manual", "automatic"], "who moves messages back")),
                ("within", r("duration")),
                ("max_times", json!({ "type": "integer", "minimum": 0 })),
            ], true)),
            ("dedup", r("guard")),
            ("effects", one_or_many(link(&["to", "passes_key"], vec![
                ("passes_key", json!({ "type": "boolean", "description": "default false" })),
            ], true))),
            ("timeout", r("duration")),
            ("visibility_timeout", r("duration")),
            ("retention", r("duration")),
            ("max_receives", json!({ "type": "integer", "minimum": 1 })),
            ("delivery", choice(&["at-least-once", "at-most-once", "exactly-once"], "as the platform documents")),
            ("dedup_window", r("duration")),
            ("dedup_scope", json!({ "type": "string", "examples": ["queue", "message-group", "account"] })),
            ("content_based_dedup", json!({ "type": "boolean" })),
            ("message_attributes", described(r("string_list"), "attributes that carry business meaning")),
            ("max_backlog", described(r("duration"), "an operational assumption: the longest a message waits")),
            ("max_event_age", r("duration")),
            ("expiry", choice(&["application", "physical-ttl"], "who decides that a record has expired")),
            ("replication", choice(&["none", "async", "sync"], "how the store reaches other regions")),
            ("scope", json!({ "type": "string", "examples": ["global", "region", "zone", "account", "tenant", "queue", "process"] })),
            ("backup", r("backup")),
            ("unique", described(r("string_list"), "a durable business identifier")),
            ("accepts_key", json!({ "type": "boolean", "description": "the provider deduplicates by our key" })),
            ("key_window", described(r("duration"), "for how long the provider deduplicates")),
            ("lookup_by_reference", json!({ "type": "boolean" })),
            ("reconciliation", choice(
                &["none", "lookup", "transactional", "outbox", "saga", "manual", "documented-tradeoff"],
                "how an ambiguous outcome is resolved",
            )),
        ], &["kind"]),
    });
    let by_id = |def: &str| {
        json!({
            "type": ["object", "null"],
            "propertyNames": r("id"),
            "additionalProperties": r(def),
        })
    };
    let mut top = object(
        TOP_FIELDS,
        vec![
            (
                "version",
                json!({ "enum": [1, "1"], "description": "the manifest format version" }),
            ),
            (
                "name",
                json!({ "type": "string", "description": "used in reports" }),
            ),
            ("regions", by_id("region")),
            ("intents", by_id("intent")),
            ("components", by_id("component")),
        ],
        &["version"],
    );
    let o = top.as_object_mut().expect("an object");
    o.insert(
        "$schema".into(),
        json!("https://json-schema.org/draft/2020-12/schema"),
    );
    o.insert("$id".into(), json!(ID));
    o.insert("title".into(), json!("replay-audit manifest, version 1"));
    o.insert("$defs".into(), defs);
    top
}

/// The schema as pretty JSON, ending in a newline.
pub fn render() -> String {
    serde_json::to_string_pretty(&schema()).expect("the schema serialises") + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(v: &Value) -> Vec<String> {
        let mut k: Vec<String> = v["properties"]
            .as_object()
            .expect("properties")
            .keys()
            .cloned()
            .collect();
        k.sort();
        k
    }

    fn sorted(list: &[&str]) -> Vec<String> {
        let mut v: Vec<String> = list.iter().map(|s| s.to_string()).collect();
        v.sort();
        v
    }

    #[test]
    fn every_object_lists_exactly_the_loaders_fields() {
        let s = schema();
        let d = &s["$defs"];
        assert_eq!(keys(&s), sorted(TOP_FIELDS));
        assert_eq!(keys(&d["region"]["anyOf"][1]), sorted(REGION_FIELDS));
        assert_eq!(keys(&d["intent"]["allOf"][0]), sorted(INTENT_FIELDS));
        assert_eq!(keys(&d["key"]), sorted(KEY_FIELDS));
        assert_eq!(keys(&d["replay"]), sorted(REPLAY_FIELDS));
        assert_eq!(keys(&d["component"]), sorted(COMPONENT_FIELDS));
        assert_eq!(keys(&d["retry"]), sorted(RETRY_FIELDS));
        assert_eq!(keys(&d["guard"]), sorted(GUARD_FIELDS));
        assert_eq!(keys(&d["in_progress"]), sorted(IN_PROGRESS_FIELDS));
        assert_eq!(keys(&d["backup"]), sorted(BACKUP_FIELDS));
        for def in [
            "key",
            "replay",
            "component",
            "retry",
            "guard",
            "in_progress",
            "backup",
        ] {
            assert_eq!(d[def]["additionalProperties"], json!(false), "{def}");
        }
        let kinds = d["component"]["properties"]["kind"]["enum"]
            .as_array()
            .unwrap();
        assert!(kinds.contains(&json!("sqs-standard")) && kinds.contains(&json!("service")));
    }

    fn validator() -> jsonschema::Validator {
        jsonschema::validator_for(&schema()).expect("the schema is a valid JSON Schema")
    }

    fn yaml(text: &str) -> Value {
        serde_saphyr::from_str(text).expect("YAML")
    }

    fn errors(v: &jsonschema::Validator, instance: &Value) -> Vec<String> {
        v.iter_errors(instance)
            .map(|e| format!("{} at {}", e, e.instance_path()))
            .collect()
    }

    #[test]
    fn every_fixture_and_the_starter_validate() {
        let v = validator();
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures");
        let mut files = Vec::new();
        let mut stack = vec![std::path::PathBuf::from(dir)];
        while let Some(d) = stack.pop() {
            for entry in std::fs::read_dir(&d).expect("fixtures folder") {
                let path = entry.expect("entry").path();
                if path.is_dir() {
                    stack.push(path);
                } else if matches!(
                    path.extension().and_then(|e| e.to_str()),
                    Some("yaml" | "yml")
                ) {
                    files.push(path);
                }
            }
        }
        let mut seen = 0;
        for path in files {
            // `fixtures/invalid/` holds manifests that must be refused;
            // `fixtures/import/` holds infrastructure files and partial overlays.
            if path
                .components()
                .any(|c| c.as_os_str() == "invalid" || c.as_os_str() == "import")
            {
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("fixture");
            assert_eq!(
                errors(&v, &yaml(&text)),
                Vec::<String>::new(),
                "{}",
                path.display()
            );
            seen += 1;
        }
        let examples = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/payouts.yaml");
        let text = std::fs::read_to_string(examples).expect("example");
        assert_eq!(errors(&v, &yaml(&text)), Vec::<String>::new(), "{examples}");
        assert!(seen >= 5, "only {seen} fixtures found in {dir}");
        assert_eq!(
            errors(&v, &yaml(crate::init::STARTER)),
            Vec::<String>::new()
        );
    }

    #[test]
    fn unknown_fields_and_bad_values_are_refused() {
        let v = validator();
        let base = "version: 1\ncomponents:\n  q:\n    kind: sqs-standard\n";
        assert!(v.is_valid(&yaml(base)));
        assert!(v.is_valid(&yaml(&format!(
            "{base}    retention: 4d\n    max_receives: 3\n"
        ))));
        assert!(v.is_valid(&yaml(&format!("{base}    retention: 345600\n"))));
        for bad in [
            format!("{base}    retension: 4d\n"),
            format!("{base}    retention: true\n"),
            format!("{base}    delivery: twice\n"),
            format!("{base}    max_receives: 0\n"),
            format!("{base}    sends_to: {{ to: x, retries: 3 }}\n"),
            "version: 1\ncomponents:\n  q:\n    kind: sqs-standart\n".to_string(),
            "version: 1\ncomponents:\n  Q:\n    kind: service\n".to_string(),
            "version: 2\n".to_string(),
            "name: x\n".to_string(),
            "version: 1\nintents:\n  i:\n    origin: a\n".to_string(),
            include_str!("../fixtures/invalid/no-version.yaml").to_string(),
            include_str!("../fixtures/invalid/version-2.yaml").to_string(),
        ] {
            assert!(!v.is_valid(&yaml(&bad)), "accepted:\n{bad}");
        }
    }
}
