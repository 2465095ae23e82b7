//! `schema`: the JSON Schema (draft 2020-12) of the manifest, for editors.
//!
//! Generated from the vocabulary (`manifest/vocabulary.rs`), the table the
//! loader reads its fields from, so the schema lists exactly the fields and
//! choices `check` accepts. Written here rather than derived with schemars:
//! the manifest is read from a span-carrying YAML tree, not with serde.
//!
//! Where one file cannot tell, the schema accepts what `check` may accept:
//! `kind` is not required, because a component in an overlay extends one an
//! imported file defines and writes only what the import could not know; an
//! editor that flagged every such component would teach people to ignore
//! its marks. `check` still reports a component without a kind.

use serde_json::{Map, Value, json};

use crate::catalog::catalog;
use crate::manifest::vocabulary::{FieldDef, Need, Obj, Type};

/// The schema's `$id`: a name, not a download address (the schema is
/// printed by `replay-audit schema`, not published anywhere).
pub const ID: &str = "urn:replay-audit:manifest:1";

/// The strings the loader reads as a duration (`Dur::parse`): `unbounded`
/// in any case, a whole number of seconds, or humantime's syntax (numbers,
/// each with a unit, optionally with a fraction, spaces between or not);
/// months (`M`, `month`) are refused as ambiguous with minutes.
/// Beyond a pattern: a number too large, or a fraction finer than the unit
/// can hold, still fails `check`.
pub const DURATION_PATTERN: &str = concat!(
    r"^\s*(?:[uU][nN][bB][oO][uU][nN][dD][eE][dD]|\+?[0-9]+|",
    r"(?:[0-9][0-9\s]*(?:\.[0-9\s]*[0-9][0-9\s]*)?",
    r"(?:nanos|nsec|ns|usec|us|µs|millis|msec|ms|seconds|second|secs|sec|s",
    r"|minutes|minute|min|mins|m|hours|hour|hr|hrs|h|days|day|d",
    r"|weeks|week|wk|wks|w|years|year|yr|yrs|y)\s*)+)\s*$",
);

/// The plain scalars the YAML reader takes for booleans besides `true` and
/// `false`, in any case (YAML 1.1): an editor reading YAML 1.2 sees them as
/// strings.
pub const BOOLEAN_PATTERN: &str =
    "^(?:[yY](?:[eE][sS])?|[nN][oO]?|[oO](?:[nN]|[fF][fF])|[tT][rR][uU][eE]|[fF][aA][lL][sS][eE])$";

fn r(def: &str) -> Value {
    json!({ "$ref": format!("#/$defs/{def}") })
}

fn one_or_many(item: Value) -> Value {
    json!({ "anyOf": [item.clone(), { "type": "array", "items": item }] })
}

/// The schema of one field's value, with its doc as description.
fn value(field: &FieldDef, kinds: &[&str]) -> Value {
    let mut v = match field.ty {
        Type::Version => json!({ "enum": [1, "1"] }),
        Type::Text { examples: [] } => json!({ "type": "string" }),
        Type::Text { examples } => json!({ "type": "string", "examples": examples }),
        Type::Texts => r("string_list"),
        Type::Kind => json!({ "type": "string", "enum": kinds }),
        Type::Id => r("id"),
        Type::Ids => one_or_many(r("id")),
        Type::Duration { zero: true } => r("duration"),
        Type::Duration { zero: false } => r("positive_duration"),
        Type::Count { min } => json!({ "type": "integer", "minimum": min }),
        Type::Number => json!({ "type": "number", "exclusiveMinimum": 0 }),
        Type::Bool => r("boolean"),
        Type::Choice(names) => json!({ "type": "string", "enum": names }),
        Type::Object(obj) => r(obj.def()),
        Type::Objects(obj) => one_or_many(r(obj.def())),
        Type::Link { obj, many } => {
            let one = json!({ "anyOf": [r("id"), r(obj.def())] });
            if many { one_or_many(one) } else { one }
        }
        Type::Entries(obj) => json!({
            "type": ["object", "null"],
            "propertyNames": r("id"),
            "additionalProperties": r(obj.def()),
        }),
    };
    let doc = match field.need {
        Need::RequiredUnlessExtends => format!(
            "{}; required, except on a component that extends one an imported file defines (an overlay)",
            field.doc
        ),
        _ => field.doc.to_string(),
    };
    v["description"] = json!(doc);
    v
}

/// The closed object of `obj`'s fields.
fn object(obj: Obj, kinds: &[&str]) -> Value {
    let mut properties = Map::new();
    let mut required = Vec::new();
    let mut either = Vec::new();
    for field in obj.fields() {
        properties.insert(field.name.to_string(), value(field, kinds));
        match field.need {
            Need::Required => required.push(field.name),
            Need::RequiredOr(alias) => either.push(json!({
                "anyOf": [{ "required": [field.name] }, { "required": [alias] }]
            })),
            Need::Optional | Need::RequiredUnlessExtends => {}
        }
    }
    let mut o = json!({
        "type": "object",
        "description": obj.doc(),
        "properties": properties,
        "additionalProperties": false,
    });
    if !required.is_empty() {
        o["required"] = json!(required);
    }
    if !either.is_empty() {
        o["allOf"] = json!(either);
    }
    if obj == Obj::Region {
        // `eu-west-1:` alone declares a region with no settings.
        o["type"] = json!(["object", "null"]);
    }
    o
}

/// The JSON Schema of the manifest format, version 1.
pub fn schema() -> Value {
    let mut kinds: Vec<&str> = catalog().kinds.iter().map(|k| k.id.as_str()).collect();
    kinds.sort_unstable();
    let duration = |minimum: u64, what: &str| {
        json!({
            "description": format!("{what}: humantime syntax (`30s`, `500ms`, `5m`, `1h 30m`, `4d`, `2w`), a whole number of seconds, or `unbounded`"),
            "anyOf": [
                { "type": "string", "pattern": DURATION_PATTERN },
                { "type": "integer", "minimum": minimum }
            ]
        })
    };
    let mut defs = Map::new();
    defs.insert("id".into(), json!({
        "type": "string",
        "pattern": "^[a-z0-9][a-z0-9._-]*$",
        "description": "an id: lower-case letters, digits, `.`, `_` and `-`; intents, components and regions share one namespace"
    }));
    defs.insert("duration".into(), duration(0, "a duration"));
    defs.insert(
        "positive_duration".into(),
        duration(1, "a duration other than zero"),
    );
    defs.insert("boolean".into(), json!({
        "description": "`true` or `false`; unquoted `yes`/`no`, `on`/`off` and `y`/`n` (in any case) are read as booleans too",
        "anyOf": [{ "type": "boolean" }, { "type": "string", "pattern": BOOLEAN_PATTERN }]
    }));
    defs.insert(
        "string_list".into(),
        json!({
            "anyOf": [{ "type": "string" }, { "type": "array", "items": { "type": "string" } }]
        }),
    );
    for &obj in &Obj::ALL[1..] {
        defs.insert(obj.def().into(), object(obj, &kinds));
    }
    let mut top = object(Obj::Manifest, &kinds);
    let o = top.as_object_mut().expect("an object");
    o.insert(
        "$schema".into(),
        json!("https://json-schema.org/draft/2020-12/schema"),
    );
    o.insert("$id".into(), json!(ID));
    o.insert("title".into(), json!("replay-audit manifest, version 1"));
    o.insert("$defs".into(), Value::Object(defs));
    top
}

/// The schema as pretty JSON, ending in a newline.
pub fn render() -> String {
    serde_json::to_string_pretty(&schema()).expect("the schema serialises") + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn every_fixture_validates() {
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
            // `fixtures/import/` and `fixtures/drift/` hold infrastructure
            // files, and overlays (which validate: `kind` is not required).
            let name = path.to_string_lossy();
            if path.components().any(|c| c.as_os_str() == "invalid")
                || ((name.contains("/import/") || name.contains("/drift/"))
                    && !name.ends_with("overlay.yaml"))
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
            format!("{base}    retention: PT1H\n"),
            format!("{base}    retention: forever\n"),
            format!("{base}    timeout: 0\n"),
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
