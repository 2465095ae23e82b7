//! `schema --policy`: the JSON Schema (draft 2020-12) of `replay-audit.toml`,
//! for editors that check TOML against a schema (Even Better TOML / taplo).
//!
//! Built from the same key lists the reader checks (`raw.rs`) and from the
//! rule registry, so the schema accepts exactly the keys, rule codes and
//! names `check` accepts. A TOML date (`expires = 2026-06-30`) reaches a
//! schema checker as a string, so `expires` is a `YYYY-MM-DD` string.

use serde_json::{Map, Value, json};

use super::raw::{MARGIN_KEYS, TOP_KEYS, WAIVER_KEYS};
use crate::rules::RULES;
use crate::schema::DURATION_PATTERN;

/// The schema's `$id`: a name, not a download address.
pub const ID: &str = "urn:replay-audit:policy:1";

/// Every rule code and name, which `[severity]` keys and waiver codes are.
fn rule_words() -> Vec<Value> {
    RULES
        .iter()
        .flat_map(|r| [r.code, r.name])
        .map(Value::from)
        .collect()
}

/// An object that allows only the keys of `keys`, described by `props`.
fn closed(keys: &[&str], mut props: Map<String, Value>) -> Value {
    debug_assert!(props.keys().all(|k| keys.contains(&k.as_str())));
    props.retain(|k, _| keys.contains(&k.as_str()));
    json!({ "type": "object", "properties": props, "additionalProperties": false })
}

/// The schema as a value.
pub fn value() -> Value {
    let words = rule_words();
    let margin = closed(
        MARGIN_KEYS,
        Map::from_iter([
            (
                "percent".to_string(),
                json!({ "type": "integer", "minimum": 0, "description": "the margin RH004 asks for, in % of the horizon (default 10)" }),
            ),
            (
                "minimum".to_string(),
                json!({
                    "description": "the smallest margin: a duration (`5m`) or a number of seconds (default 5m)",
                    "oneOf": [
                        { "type": "integer", "minimum": 0 },
                        { "type": "string", "pattern": DURATION_PATTERN }
                    ]
                }),
            ),
        ]),
    );
    let mut waiver = closed(
        WAIVER_KEYS,
        Map::from_iter([
            (
                "code".to_string(),
                json!({ "enum": words, "description": "the rule's exact code or name" }),
            ),
            (
                "intent".to_string(),
                json!({ "type": "string", "description": "the intent it covers (`*` matches any run of characters)" }),
            ),
            (
                "component".to_string(),
                json!({ "type": "string", "description": "the component it covers (`*` as for intent)" }),
            ),
            (
                "reason".to_string(),
                json!({ "type": "string", "pattern": "\\S", "description": "why the finding is accepted (required)" }),
            ),
            (
                "expires".to_string(),
                json!({ "type": "string", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$", "description": "the last day the waiver holds (YYYY-MM-DD)" }),
            ),
            (
                "ticket".to_string(),
                json!({ "type": "string", "description": "where the decision is tracked" }),
            ),
        ]),
    );
    waiver["required"] = json!(["code", "reason"]);
    let top = closed(
        TOP_KEYS,
        Map::from_iter([
            (
                "fail_on".to_string(),
                json!({ "enum": ["error", "warning", "info"], "description": "the lowest severity that fails the run" }),
            ),
            (
                "require_expiry".to_string(),
                json!({ "type": "boolean", "description": "a waiver without `expires` is an error rather than a warning" }),
            ),
            (
                "severity".to_string(),
                json!({
                    "type": "object",
                    "description": "a rule's severity, by code or name; `off` turns it off",
                    "propertyNames": { "enum": words },
                    "additionalProperties": { "enum": ["error", "warning", "info", "off"] }
                }),
            ),
            ("margin".to_string(), margin),
            (
                "waiver".to_string(),
                json!({ "type": "array", "items": waiver }),
            ),
        ]),
    );
    let mut out = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": ID,
        "title": "replay-audit.toml",
        "description": "The policy of replay-audit: what fails the run, rule severities, the RH004 margin and waivers (docs/ci.md)."
    });
    for (k, v) in top.as_object().expect("an object") {
        out[k] = v.clone();
    }
    out
}

/// `replay-audit schema --policy`.
pub fn render() -> String {
    serde_json::to_string_pretty(&value()).expect("serialises") + "\n"
}
