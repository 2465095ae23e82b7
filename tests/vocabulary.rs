//! The vocabulary table against what reads and describes the manifest: the
//! loader accepts exactly the table's fields at each place and exactly its
//! choices, the JSON Schema lists exactly the table's fields, its duration
//! pattern matches exactly what the loader reads, overlays validate, and
//! `docs/manifest.md` holds the reference generated from the table.

use replay_audit::catalog::catalog;
use replay_audit::manifest::model::LinkType;
use replay_audit::manifest::reference;
use replay_audit::manifest::vocabulary::{DefaultFrom, Field, LinkField, Obj, Type};
use replay_audit::manifest::{self, LoadError};
use replay_audit::schema::schema;
use replay_audit::time::Dur;
use serde_json::{Value, json};

/// `{ fixed..., field: value }`, without the fixed entry `field` replaces.
fn with(fixed: &[&str], field: &str, value: &str) -> String {
    let mut entries: Vec<String> = fixed
        .iter()
        .filter(|f| !f.starts_with(&format!("{field}:")))
        .map(|f| f.to_string())
        .collect();
    entries.push(format!("{field}: {value}"));
    format!("{{ {} }}", entries.join(", "))
}

/// A manifest with `field: value` written in an object `obj`, inside
/// otherwise complete surroundings.
fn placed(obj: Obj, field: &str, value: &str) -> String {
    let head = "version: 1\n";
    let comps = "components:\n  a: { kind: service }\n  b: { kind: sqs-standard }\n";
    let w = |fixed: &[&str]| with(fixed, field, value);
    let link = |name: &str, many: bool| {
        let item = w(&["to: b"]);
        let v = if many { format!("[{item}]") } else { item };
        format!(
            "{head}components:\n  a: {{ kind: service, {name}: {v} }}\n  b: {{ kind: sqs-standard }}\n"
        )
    };
    match obj {
        Obj::Manifest if field == "version" => format!("version: {value}\n"),
        Obj::Manifest => format!("{head}{field}: {value}\n"),
        Obj::Region => format!("{head}regions:\n  eu: {}\n", w(&[])),
        Obj::Intent => format!(
            "{head}{comps}intents:\n  i: {}\n",
            w(&["origin: a", "effect: a"])
        ),
        Obj::Key => format!(
            "{head}{comps}intents:\n  i: {{ origin: a, effect: a, key: {} }}\n",
            w(&[])
        ),
        Obj::Replay => format!(
            "{head}{comps}intents:\n  i: {{ origin: a, effect: a, replays: [{}] }}\n",
            w(&["enters_at: a", "within: 1h"])
        ),
        Obj::Component => format!("{head}components:\n  a: {}\n", w(&["kind: service"])),
        Obj::SendsTo => link("sends_to", true),
        Obj::DeliversTo => link("delivers_to", true),
        Obj::Calls => link("calls", true),
        Obj::DeadLetter => link("dead_letter", false),
        Obj::Redrive => link("redrive", false),
        Obj::Effects => link("effects", true),
        Obj::Retry => format!(
            "{head}components:\n  a: {{ kind: service, calls: [{{ to: b, retry: {} }}] }}\n  b: {{ kind: service }}\n",
            w(&[])
        ),
        Obj::Guard => format!(
            "{head}components:\n  a: {{ kind: service, dedup: {} }}\n  b: {{ kind: store }}\n",
            w(&["store: b"])
        ),
        Obj::InProgress => format!(
            "{head}components:\n  a: {{ kind: service, dedup: {{ store: b, in_progress: {} }} }}\n  b: {{ kind: store }}\n",
            w(&[])
        ),
        Obj::Backup => format!(
            "{head}components:\n  a: {{ kind: store, backup: {} }}\n",
            w(&[])
        ),
    }
}

fn messages(text: &str) -> Vec<String> {
    match manifest::from_str(text) {
        Ok(_) => Vec::new(),
        Err(LoadError { diagnostics, .. }) => diagnostics
            .iter()
            .map(|d| format!("{} {:?}", d.message, d.help))
            .collect(),
    }
}

fn unknown(text: &str, field: &str) -> bool {
    messages(text)
        .iter()
        .any(|m| m.starts_with(&format!("unknown field `{field}` in")))
}

/// Every name any object has, and names no object has.
fn candidates() -> Vec<&'static str> {
    let mut all: Vec<&'static str> = Obj::ALL.iter().flat_map(|o| o.names()).copied().collect();
    all.extend(["retries", "ttl", "kinds", "x"]);
    all.sort_unstable();
    all.dedup();
    all
}

#[test]
fn the_loader_accepts_exactly_the_tables_fields_at_each_place() {
    for &obj in Obj::ALL {
        for name in candidates() {
            let text = placed(obj, name, "x");
            let declared = obj.names().contains(&name);
            assert_eq!(
                !unknown(&text, name),
                declared,
                "`{name}` in `{}`: declared {declared}\n{text}\n{:?}",
                obj.def(),
                messages(&text)
            );
        }
    }
}

#[test]
fn unknown_fields_are_listed_in_the_tables_order() {
    let text = placed(Obj::Retry, "x", "1");
    let m = messages(&text);
    let want = format!(
        "the fields of `components.a.calls[0].retry` are: {}",
        Obj::Retry.names().join(", ")
    );
    assert!(m.iter().any(|m| m.contains(&want)), "{m:?}");
}

#[test]
fn the_loader_takes_exactly_the_tables_choices() {
    let mut seen = 0;
    for &obj in Obj::ALL {
        for f in obj.fields() {
            let Type::Choice(names) = f.ty else {
                continue;
            };
            seen += 1;
            for n in names {
                let m = messages(&placed(obj, f.name, n));
                assert!(
                    !m.iter().any(|m| m.contains("is not one of")),
                    "{}.{} = {n}: {m:?}",
                    obj.def(),
                    f.name
                );
            }
            let m = messages(&placed(obj, f.name, "bogus-choice"));
            let want = format!("`bogus-choice` is not one of {}", names.join(", "));
            assert!(
                m.iter().any(|m| m.contains(&want)),
                "{}.{}: {m:?}",
                obj.def(),
                f.name
            );
        }
    }
    assert!(seen >= 10, "{seen}");
}

/// Every row has a reader: a value no row's type takes (a mapping with a
/// field no object has) written for it is refused, naming the field. A
/// row the loader lists but reads nowhere would pass silently.
#[test]
fn every_row_is_read_by_the_loader() {
    for &obj in Obj::ALL {
        for f in obj.fields() {
            let mut text = placed(obj, f.name, "{ zz_probe: [1] }");
            let mut named = f.name;
            if (obj, f.name) == (Obj::Intent, "effects") {
                // The alias is read, as `effect`, where `effect` is not written.
                text = text.replace("effect: a, ", "");
                named = "effect";
            }
            let m = messages(&text);
            assert!(
                m.iter().any(|m| m.contains(named) || m.contains("version")),
                "`{}.{}` is read by nothing: {m:?}\n{text}",
                obj.def(),
                f.name
            );
        }
    }
}

/// The settings are generated from their rows, so each names a row of its
/// object; a link setting's rows (one per link object that declares the
/// name) agree on its type, which is one a setting is read by.
#[test]
fn every_setting_is_a_row_with_a_setting_type() {
    let settable = |ty: Type| match ty {
        Type::Duration { .. } | Type::Count { .. } | Type::Bool | Type::Texts => true,
        Type::Text { .. } => true,
        Type::Choice(names) => names.len() < 256,
        _ => false,
    };
    for &f in Field::ALL {
        let row = Obj::Component.field(f.name()).expect("a component row");
        assert_eq!(row, f.def(), "{f:?}");
        assert!(settable(row.ty), "{f:?}");
    }
    for &f in LinkField::ALL {
        let rows: Vec<_> = LinkType::ALL
            .iter()
            .filter_map(|&t| Obj::link(t).field(f.name()))
            .collect();
        assert!(!rows.is_empty(), "{f:?}");
        for row in rows {
            assert_eq!(row.ty, f.def().ty, "{f:?}");
            assert!(settable(row.ty), "{f:?}");
        }
    }
    // Every component row that is no setting has a structure of its own.
    for row in Obj::Component.fields() {
        let setting = Field::ALL.iter().any(|f| f.name() == row.name);
        let structural = matches!(
            row.ty,
            Type::Kind | Type::Ids | Type::Link { .. } | Type::Object(_)
        ) || ["description", "mode"].contains(&row.name);
        assert!(setting != structural, "{}", row.name);
    }
}

/// The catalog documents a value only for a field whose row takes its
/// default from the catalog, on a kind the row applies to; the other
/// facts are values no manifest field sets.
#[test]
fn catalog_facts_name_rows_that_take_catalog_defaults() {
    const NOT_FIELDS: &[&str] = &[
        "http_max_event_age",
        "http_retry_span",
        "retry_attempts",
        "retry_backoff_to_cap",
    ];
    for k in &catalog().kinds {
        for name in k.fields.keys() {
            let rows: Vec<_> = Obj::ALL.iter().filter_map(|o| o.field(name)).collect();
            if rows.is_empty() {
                assert!(NOT_FIELDS.contains(&name.as_str()), "{}.{name}", k.id);
                continue;
            }
            assert!(
                rows.iter().all(|r| r.default == DefaultFrom::Catalog),
                "{}.{name}: the row takes no catalog default",
                k.id
            );
            if let Some(row) = Obj::Component.field(name) {
                assert!(
                    row.kinds.has(k.generic),
                    "{}.{name}: the row does not apply to {}",
                    k.id,
                    k.generic.name()
                );
            }
        }
    }
}

#[test]
fn link_types_name_the_tables_link_fields() {
    for ty in LinkType::ALL {
        let row = Obj::Component.field(ty.field()).expect("a component field");
        assert!(
            matches!(row.ty, Type::Link { obj, .. } if obj == Obj::link(ty)),
            "{}",
            ty.field()
        );
    }
}

fn props(v: &Value) -> Vec<String> {
    let mut k: Vec<String> = v["properties"]
        .as_object()
        .expect("properties")
        .keys()
        .cloned()
        .collect();
    k.sort();
    k
}

#[test]
fn the_schema_lists_exactly_the_tables_fields_and_choices() {
    let s = schema();
    for &obj in Obj::ALL {
        let def = if obj == Obj::Manifest {
            &s
        } else {
            &s["$defs"][obj.def()]
        };
        let mut names: Vec<String> = obj.names().iter().map(|n| n.to_string()).collect();
        names.sort();
        assert_eq!(props(def), names, "{}", obj.def());
        assert_eq!(def["additionalProperties"], json!(false), "{}", obj.def());
        for f in obj.fields() {
            if let Type::Choice(choices) = f.ty {
                assert_eq!(
                    def["properties"][f.name]["enum"],
                    json!(choices),
                    "{}.{}",
                    obj.def(),
                    f.name
                );
            }
        }
    }
    let kinds = s["$defs"]["component"]["properties"]["kind"]["enum"]
        .as_array()
        .unwrap();
    assert!(kinds.contains(&json!("sqs-standard")) && kinds.contains(&json!("service")));
}

fn validator() -> jsonschema::Validator {
    jsonschema::validator_for(&schema()).expect("the schema is a valid JSON Schema")
}

/// Whether the schema takes `retention: <s>` (as a string, as an editor
/// reading YAML 1.2 sees it).
fn schema_takes(v: &jsonschema::Validator, s: &str) -> bool {
    v.is_valid(&json!({
        "version": 1,
        "components": { "q": { "kind": "sqs-standard", "retention": s } }
    }))
}

#[test]
fn the_duration_pattern_matches_what_the_loader_reads() {
    let v = validator();
    for s in [
        "30s",
        "5m",
        "1h 30m",
        "1h30m",
        "4d",
        "2w",
        "345600",
        "0",
        "+5",
        "unbounded",
        "UNBOUNDED",
        " 1h ",
        "1.5h",
        "90 min",
        "2 days",
        "1y",
        "250ms",
        "1 2h",
        "3hours 4mins",
    ] {
        assert!(Dur::parse(s).is_ok(), "the loader refuses {s:?}");
        assert!(schema_takes(&v, s), "the schema refuses {s:?}");
    }
    for s in [
        "PT1H", "forever", "-5m", "1x", "", "h", "1.h", "5 m x", "1h-2m", "1 H", "soon", "1e3",
        "1M", "2 months",
    ] {
        assert!(Dur::parse(s).is_err(), "the loader accepts {s:?}");
        assert!(!schema_takes(&v, s), "the schema accepts {s:?}");
    }
    // Every short combination of the pieces: the two agree, except where
    // the number is too large or too fine for the unit (beyond a pattern).
    let pieces = [
        "1", "30", " ", ".", "5", "h", "m", "ms", "mins", "M", "x", "-", "+", "d",
    ];
    let mut words = vec![String::new()];
    for _ in 0..4 {
        let next: Vec<String> = words
            .iter()
            .flat_map(|w| pieces.iter().map(move |p| format!("{w}{p}")))
            .collect();
        words.extend(next);
        words.dedup();
    }
    words.sort();
    words.dedup();
    for w in &words {
        let loader = Dur::parse(w);
        if matches!(&loader, Err(e) if e.contains("too large")) {
            continue;
        }
        assert_eq!(
            schema_takes(&v, w),
            loader.is_ok(),
            "{w:?}: loader {loader:?}"
        );
    }
}

#[test]
fn the_schema_takes_the_loaders_booleans() {
    let v = validator();
    let with = |b: Value| {
        json!({
            "version": 1,
            "components": { "x": { "kind": "external", "accepts_key": b } }
        })
    };
    for b in [json!(true), json!(false)] {
        assert!(v.is_valid(&with(b)));
    }
    for s in ["yes", "No", "ON", "off", "y", "N", "True", "FALSE"] {
        let text =
            format!("version: 1\ncomponents:\n  x: {{ kind: external, accepts_key: {s} }}\n");
        assert_eq!(
            messages(&text),
            Vec::<String>::new(),
            "the loader refuses {s}"
        );
        assert!(v.is_valid(&with(json!(s))), "the schema refuses {s}");
    }
    for s in ["maybe", "1", "yess"] {
        assert!(!v.is_valid(&with(json!(s))), "the schema accepts {s}");
    }
}

#[test]
fn overlays_validate_against_the_schema() {
    let v = validator();
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/import");
    let mut seen = 0;
    for entry in std::fs::read_dir(dir).expect("fixtures/import") {
        let path = entry.expect("entry").path();
        if !path.to_string_lossy().ends_with(".overlay.yaml") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("overlay");
        let instance: Value = serde_saphyr::from_str(&text).expect("YAML");
        let errors: Vec<String> = v
            .iter_errors(&instance)
            .map(|e| format!("{e} at {}", e.instance_path()))
            .collect();
        assert_eq!(errors, Vec::<String>::new(), "{}", path.display());
        seen += 1;
    }
    assert!(seen >= 5, "{seen}");
}

#[test]
fn docs_manifest_md_holds_the_generated_reference() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/manifest.md");
    let text = std::fs::read_to_string(path).expect("docs/manifest.md");
    let (Some(start), Some(end)) = (text.find(reference::BEGIN), text.find(reference::END)) else {
        panic!(
            "docs/manifest.md has no generated section ({})",
            reference::BEGIN
        );
    };
    let end = end + reference::END.len() + 1;
    let want = reference::markdown();
    if text[start..end.min(text.len())] == want {
        return;
    }
    if std::env::var_os("UPDATE_DOCS").is_some() {
        let updated = format!("{}{want}{}", &text[..start], &text[end.min(text.len())..]);
        std::fs::write(path, updated).expect("write docs/manifest.md");
        return;
    }
    panic!(
        "docs/manifest.md is out of date with src/manifest/vocabulary.rs: regenerate it with `UPDATE_DOCS=1 cargo test --test vocabulary`"
    );
}

#[test]
fn docs_manifest_md_links_only_inside_the_repository() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/manifest.md");
    let text = std::fs::read_to_string(path).expect("docs/manifest.md");
    for (i, _) in text.match_indices("](") {
        let target: String = text[i + 2..].chars().take_while(|c| *c != ')').collect();
        assert!(
            !target.contains("://") && !target.starts_with("../"),
            "docs/manifest.md links outside the repository: {target}"
        );
        if !target.starts_with('#') {
            let file = target.split('#').next().unwrap_or_default();
            let p = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/docs")).join(file);
            assert!(
                p.exists(),
                "docs/manifest.md links to a missing file: {target}"
            );
        }
    }
}
