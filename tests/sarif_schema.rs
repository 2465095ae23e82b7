//! The SARIF of every fixture validates against the official SARIF 2.1.0
//! schema (this is the check `.ci/run` relies on: `cargo test` runs it).
//!
//! The schema is read from `../shared/reference/` next to the repository
//! when it is there, else from the copy committed at `tests/data/`.

use std::path::{Path, PathBuf};

use replay_audit::diagnostics::{Loc, SourceMap};
use replay_audit::report::sarif;
use replay_audit::rules::Finding;
use replay_audit::{analysis, rules};
use serde_json::Value;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The official schema's `run.language` pattern, with a stray `]`.
const LANGUAGE_PATTERN: &str = "^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$";

fn shared_schema() -> PathBuf {
    root().join("../shared/reference/sarif-schema-2.1.0.json")
}

fn committed_schema() -> PathBuf {
    root().join("tests/data/sarif-schema-2.1.0.json")
}

fn schema() -> Value {
    let shared = shared_schema();
    schema_at(&if shared.is_file() {
        shared
    } else {
        committed_schema()
    })
}

fn schema_at(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut schema: Value = serde_json::from_str(&text).expect("schema is JSON");
    // jsonschema checks a schema against its meta-schema before using it,
    // and its strict (Unicode-mode) regex check refuses the stray `]` of
    // the `language` patterns. Browsers read that `]` as a literal;
    // escaping it says the same in a form every engine accepts. Nothing
    // else changes.
    let fixed = fix_language_patterns(&mut schema);
    assert_eq!(fixed, 2, "{}: the schema changed", path.display());
    schema
}

/// Escapes the stray `]` of every `language` pattern; returns how many.
fn fix_language_patterns(v: &mut Value) -> usize {
    match v {
        Value::Object(map) => {
            let mut n = 0;
            for (k, child) in map.iter_mut() {
                if k == "pattern" && child.as_str() == Some(LANGUAGE_PATTERN) {
                    *child = Value::from(LANGUAGE_PATTERN.replace("]?$", "\\]?$"));
                    n += 1;
                } else {
                    n += fix_language_patterns(child);
                }
            }
            n
        }
        Value::Array(items) => items.iter_mut().map(fix_language_patterns).sum(),
        _ => 0,
    }
}

fn validator() -> jsonschema::Validator {
    validator_for(&schema())
}

fn validator_for(schema: &Value) -> jsonschema::Validator {
    jsonschema::options()
        .should_validate_formats(true)
        .build(schema)
        .expect("the SARIF schema compiles")
}

#[test]
fn the_committed_copy_is_the_reference_schema() {
    let copy =
        std::fs::read(committed_schema()).expect("tests/data/sarif-schema-2.1.0.json is committed");
    if let Ok(shared) = std::fs::read(shared_schema()) {
        assert!(
            copy == shared,
            "tests/data/sarif-schema-2.1.0.json differs from shared/reference/"
        );
    }
    // The fallback works on its own (a clone without shared/ uses it).
    let v = validator_for(&schema_at(&committed_schema()));
    assert!(v.is_valid(&serde_json::json!({"version": "2.1.0", "runs": []})));
    assert!(!v.is_valid(&serde_json::json!({"version": "2.0.0", "runs": []})));
}

fn errors(v: &jsonschema::Validator, sarif: &Value) -> Vec<String> {
    v.iter_errors(sarif)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect()
}

/// Every `*.yaml`/`*.yml` file below `fixtures/`, each its own
/// architecture, relative to the repository, sorted.
fn fixtures() -> Vec<PathBuf> {
    fn walk(dir: &Path, rel: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let path = e.expect("entry").path();
            let rel = rel.join(path.file_name().expect("name"));
            if path.is_dir() {
                walk(&path, &rel, out);
            } else if path.extension().is_some_and(|x| x == "yaml" || x == "yml") {
                out.push(rel);
            }
        }
    }
    let mut out = Vec::new();
    walk(&root().join("fixtures"), Path::new("fixtures"), &mut out);
    out.sort();
    out
}

#[test]
fn sarif_of_every_fixture_is_valid() {
    let v = validator();
    let mut validated = Vec::new();
    for path in fixtures() {
        // Infrastructure files are imported on the fly, as `check` does.
        let inputs = replay_audit::engine::Inputs {
            paths: vec![root().join(&path)],
            ..Default::default()
        };
        let m = match replay_audit::engine::load(&inputs) {
            Ok(m) => m,
            // Fixtures under an `invalid/` folder are meant not to load: they have no SARIF.
            Err(_) if path.components().any(|c| c.as_os_str() == "invalid") => continue,
            // Overlays only make sense beside the template they extend.
            Err(_)
                if path.to_string_lossy().contains(".overlay.")
                    || path.file_name().is_some_and(|n| n == "overlay.yaml") =>
            {
                continue;
            }
            Err(e) => panic!("{}: {}", path.display(), e.render(false)),
        };
        let a = analysis::analyse(&m);
        let findings = rules::run(&a);
        let text = sarif::render_with(&m.sources, &findings, Some(&m), &[]);
        let value: Value = serde_json::from_str(&text).expect("SARIF is JSON");
        let errs = errors(&v, &value);
        assert!(
            errs.is_empty(),
            "{}: SARIF fails the schema:\n{}",
            path.display(),
            errs.join("\n")
        );
        assert_eq!(
            value["runs"][0]["results"].as_array().map(Vec::len),
            Some(findings.len()),
            "{}",
            path.display()
        );
        // No two results of a run share the identity GitHub tracks an
        // alert by, and it holds no line number.
        let ids: Vec<&str> = value["runs"][0]["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                r["partialFingerprints"]["primaryLocationLineHash"]
                    .as_str()
                    .unwrap()
            })
            .collect();
        let unique: std::collections::BTreeSet<&&str> = ids.iter().collect();
        assert_eq!(unique.len(), ids.len(), "{}: {ids:?}", path.display());
        validated.push(path);
    }
    assert!(
        validated.contains(&PathBuf::from("fixtures/incident-dlq-redrive.yaml")),
        "validated: {validated:?}"
    );
    assert!(validated.len() >= 2, "validated: {validated:?}");
}

#[test]
fn waived_and_awkward_findings_are_valid_too() {
    let mut map = SourceMap::default();
    map.add("dir with space/a:b%c.yaml".into(), String::new());
    let f = Finding::new("RH035", "<script>x</script> ]]> a::b 100%\nnext")
        .intent("i,1")
        .component("c:2")
        .at(Loc {
            file: 0,
            line: 3,
            col: 7,
        });
    let g = Finding::new("RH001", "no location");
    let text = sarif::render_with(
        &map,
        &[f, g],
        None,
        &[Some("accepted until the migration, ticket PAY-12"), None],
    );
    let value: Value = serde_json::from_str(&text).expect("JSON");
    let errs = errors(&validator(), &value);
    assert!(errs.is_empty(), "{}", errs.join("\n"));
    let results = &value["runs"][0]["results"];
    assert_eq!(
        results[0]["suppressions"],
        serde_json::json!([{"kind": "external", "justification": "accepted until the migration, ticket PAY-12"}])
    );
    assert_eq!(results[1]["suppressions"], serde_json::json!([]));
    assert_eq!(results[1].get("locations"), None);
}

#[test]
fn the_validator_rejects_what_the_schema_forbids() {
    // Without this, a validator that accepts everything would pass the tests above.
    let v = validator();
    let m = replay_audit::engine::load(&replay_audit::engine::Inputs {
        paths: vec![root().join("fixtures/incident-dlq-redrive.yaml")],
        ..Default::default()
    })
    .expect("loads");
    let findings = rules::run(&analysis::analyse(&m));
    let mut value: Value =
        serde_json::from_str(&sarif::render(&m.sources, &findings)).expect("JSON");
    assert!(errors(&v, &value).is_empty());
    value["runs"][0]["results"][0]["level"] = Value::from("fatal");
    assert!(
        !errors(&v, &value).is_empty(),
        "level `fatal` must be refused"
    );
    value["runs"][0]["results"][0]["level"] = Value::from("error");
    value["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] =
        Value::from(0);
    assert!(
        !errors(&v, &value).is_empty(),
        "startLine 0 must be refused"
    );
    value["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] =
        Value::from(1);
    assert!(errors(&v, &value).is_empty());
    // Formats are checked: a raw space makes the URI reference invalid, which
    // is why `sarif::uri` percent-encodes it.
    value["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] =
        Value::from("dir with space/a.yaml");
    assert!(
        !errors(&v, &value).is_empty(),
        "a URI with a space must be refused"
    );
}

/// What `check` writes for an input that does not load, for every
/// manifest under `fixtures/invalid/`: a valid log, a result and a
/// notification per error, the invocation unsuccessful.
#[test]
fn input_errors_are_valid_sarif() {
    use replay_audit::report::{format, root::Root};
    let v = validator();
    let repo = Root::of(&root());
    let mut checked = 0;
    for path in fixtures() {
        if !path.components().any(|c| c.as_os_str() == "invalid") {
            continue;
        }
        let inputs = replay_audit::engine::Inputs {
            paths: vec![root().join(&path)],
            ..Default::default()
        };
        let Err(e) = replay_audit::engine::load(&inputs) else {
            continue;
        };
        let (map, diagnostics) = e.diagnostics();
        let mut out = Vec::new();
        format::of(format::CheckFormat::Sarif)
            .write_errors(&mut out, &map, &diagnostics, &repo)
            .expect("writes");
        let value: Value = serde_json::from_slice(&out).expect("JSON");
        let errs = errors(&v, &value);
        assert!(errs.is_empty(), "{}: {}", path.display(), errs.join("\n"));
        let run = &value["runs"][0];
        assert_eq!(run["invocations"][0]["executionSuccessful"], false);
        let n = diagnostics.len();
        assert_eq!(run["results"].as_array().map(Vec::len), Some(n));
        assert_eq!(
            run["invocations"][0]["toolExecutionNotifications"]
                .as_array()
                .map(Vec::len),
            Some(n)
        );
        // Paths are relative to the repository, with their base.
        for r in run["results"].as_array().expect("results") {
            if let Some(a) = r["locations"][0]["physicalLocation"].get("artifactLocation") {
                assert_eq!(
                    a["uri"],
                    path.to_string_lossy().as_ref(),
                    "{}",
                    path.display()
                );
                assert_eq!(a["uriBaseId"], "%SRCROOT%");
            }
        }
        checked += 1;
    }
    assert!(checked >= 4, "checked {checked}");
}

/// Paths relative to the root, one run per architecture (`check --each`).
#[test]
fn root_relative_runs_are_valid() {
    use replay_audit::report::root::Root;
    let repo = Root::of(&root());
    let m = replay_audit::engine::load(&replay_audit::engine::Inputs {
        paths: vec![root().join("fixtures/incident-dlq-redrive.yaml")],
        ..Default::default()
    })
    .expect("loads");
    let findings = rules::run(&analysis::analyse(&m));
    let map = repo.map(&m.sources);
    let runs = ["a", "b/c.yaml"]
        .iter()
        .map(|arch| {
            let cx = sarif::Context {
                manifest: Some(&m),
                root: Some(&repo),
                architecture: Some(arch),
                ..Default::default()
            };
            sarif::run(&map, &findings, &cx)
        })
        .collect();
    let value: Value = serde_json::from_str(&sarif::to_text(&sarif::log_of(runs))).expect("JSON");
    let errs = errors(&validator(), &value);
    assert!(errs.is_empty(), "{}", errs.join("\n"));
    assert_eq!(
        value["runs"][1]["automationDetails"]["id"],
        "replay-audit/b/c.yaml/"
    );
    let base = &value["runs"][0]["originalUriBaseIds"]["%SRCROOT%"]["uri"];
    assert!(
        base.as_str()
            .is_some_and(|u| u.starts_with("file:///") && u.ends_with('/')),
        "{base}"
    );
}

/// A finding's identity survives a line move: the same manifest with a
/// comment line added on top gives the same `primaryLocationLineHash`
/// values, and two RH041 on one component for different fields differ.
#[test]
fn identities_ignore_line_moves_and_tell_fields_apart() {
    let ids = |text: &str| -> Vec<String> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("m.yaml");
        std::fs::write(&path, text).unwrap();
        let inputs = replay_audit::engine::Inputs {
            paths: vec![path],
            ..Default::default()
        };
        let m = replay_audit::engine::load(&inputs).expect("loads");
        let findings = rules::run(&analysis::analyse(&m));
        let log: Value =
            serde_json::from_str(&sarif::render_with(&m.sources, &findings, Some(&m), &[]))
                .unwrap();
        log["runs"][0]["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                r["partialFingerprints"]["primaryLocationLineHash"]
                    .as_str()
                    .unwrap()
                    .to_string()
            })
            .collect()
    };
    // `q` gets two RH041 (retention and visibility_timeout).
    let text = "version: 1\nintents:\n  i: { origin: a, effect: b, key: { fields: [id] } }\ncomponents:\n  a: { kind: service, sends_to: q }\n  q: { kind: queue, delivery: at-least-once, max_backlog: 1h, delivers_to: w, dead_letter: { to: d, after_receives: 3 } }\n  d: { kind: queue, delivery: at-least-once }\n  w: { kind: function, effects: [b] }\n  b: { kind: external }\n";
    let before = ids(text);
    let after = ids(&format!("# moved down one line\n{text}"));
    assert_eq!(before, after);
    let rh041: Vec<&String> = before.iter().filter(|i| i.starts_with("RH041:")).collect();
    assert_eq!(
        rh041,
        ["RH041:i:q:retention", "RH041:i:q:visibility_timeout"],
        "{before:?}"
    );
}
