//! `schema --policy`: the JSON Schema of `replay-audit.toml` is a valid
//! draft 2020-12 schema, accepts the policy docs/ci.md shows and every rule
//! code and name, and refuses what the reader refuses (an unknown key, a
//! waiver without a reason, a severity that is not one).

use assert_cmd::Command;
use serde_json::Value;

fn schema() -> Value {
    let out = Command::cargo_bin("replay-audit")
        .unwrap()
        .args(["schema", "--policy"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    serde_json::from_slice(&out.stdout).expect("JSON")
}

/// A TOML document as a schema checker sees it (a date as a string).
fn json_of(toml_text: &str) -> Value {
    fn conv(v: &toml::Value) -> Value {
        match v {
            toml::Value::String(s) => Value::from(s.as_str()),
            toml::Value::Integer(i) => Value::from(*i),
            toml::Value::Float(f) => Value::from(*f),
            toml::Value::Boolean(b) => Value::from(*b),
            toml::Value::Datetime(d) => Value::from(d.to_string()),
            toml::Value::Array(a) => Value::Array(a.iter().map(conv).collect()),
            toml::Value::Table(t) => {
                Value::Object(t.iter().map(|(k, v)| (k.clone(), conv(v))).collect())
            }
        }
    }
    conv(&toml::from_str::<toml::Value>(toml_text).expect("TOML"))
}

fn valid(schema: &Value, toml_text: &str) -> bool {
    let v = jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .build(schema)
        .expect("a valid schema");
    v.is_valid(&json_of(toml_text))
}

#[test]
fn the_documented_policy_and_every_rule_are_accepted() {
    let s = schema();
    let doc = std::fs::read_to_string("docs/ci.md").unwrap();
    let block = doc.split("```toml\n").nth(1).expect("a TOML block");
    let block = &block[..block.find("```").unwrap()];
    assert!(valid(&s, block), "{block}");
    for r in replay_audit::rules::RULES {
        assert!(valid(&s, &format!("[severity]\n{} = \"off\"\n", r.code)));
        assert!(valid(&s, &format!("[severity]\n{} = \"info\"\n", r.name)));
    }
    assert!(valid(
        &s,
        "fail_on = \"warning\"\nrequire_expiry = true\n[margin]\npercent = 20\nminimum = \"10m\"\n[[waiver]]\ncode = \"RH001\"\nintent = \"seller-*\"\nreason = \"bank dedups\"\nexpires = 2026-06-30\nticket = \"PAY-1\"\n"
    ));
}

#[test]
fn what_the_reader_refuses_the_schema_refuses() {
    let s = schema();
    for bad in [
        "fail_om = \"error\"\n",
        "fail_on = \"fatal\"\n",
        "[severity]\nRH01 = \"off\"\n",
        "[severity]\nRH001 = \"loud\"\n",
        "[margin]\npercent = \"ten\"\n",
        "[margin]\nminimum = \"1M\"\n",
        "[[waiver]]\ncode = \"RH001\"\n",
        "[[waiver]]\ncode = \"RH001\"\nreason = \"x\"\nexpire = 2026-01-01\n",
    ] {
        assert!(!valid(&s, bad), "accepted: {bad}");
    }
}
