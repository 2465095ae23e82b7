//! `catalog`: the built-in kinds, their documented values and sources.

use crate::report::diagnostic::hanging;
use crate::report::table::{self, listing};

use crate::catalog::{Kind, Status, catalog};

fn status(s: Status) -> &'static str {
    match s {
        Status::Verified => "verified",
        Status::Partial => "PARTIAL",
        Status::Conflict => "CONFLICT",
        Status::Unverified => "UNVERIFIED",
    }
}

fn value(v: &Option<toml::Value>) -> String {
    match v {
        None => "-".into(),
        Some(toml::Value::String(s)) => s.clone(),
        Some(other) => other.to_string(),
    }
}

pub fn list(json: bool) -> String {
    let c = catalog();
    if json {
        return serde_json::to_string_pretty(&c.kinds).expect("serialises") + "\n";
    }
    let width = table::width();
    if width < table::NARROW {
        // Too narrow for five columns: each kind on a line, its summary
        // wrapped under it.
        let mut s = String::new();
        for k in &c.kinds {
            let delivery = k.delivery.as_deref().unwrap_or("-");
            s.push_str(&format!(
                "{} ({}, {}, {delivery})\n{}\n",
                k.id,
                k.generic.name(),
                k.vendor,
                hanging("    ", &k.summary, usize::from(width))
            ));
        }
        return s;
    }
    let mut t = listing(vec!["kind", "generic", "vendor", "delivery", "summary"]);
    for k in &c.kinds {
        t.add_row(vec![
            k.id.as_str(),
            k.generic.name(),
            k.vendor.as_str(),
            k.delivery.as_deref().unwrap_or("-"),
            k.summary.as_str(),
        ]);
    }
    format!("{t}\n")
}

pub fn show(k: &Kind, json: bool) -> String {
    let c = catalog();
    if json {
        #[derive(serde::Serialize)]
        struct Shown<'a> {
            kind: &'a Kind,
            sources: std::collections::BTreeMap<&'a str, &'a crate::catalog::Source>,
        }
        let mut sources = std::collections::BTreeMap::new();
        let ids = k
            .fields
            .values()
            .map(|f| f.source.as_str())
            .chain(k.behaviours.iter().map(|b| b.source.as_str()))
            .chain(k.window_starts.iter().map(|b| b.source.as_str()))
            .chain(k.delivery_source.as_deref());
        for id in ids {
            if let Some(s) = c.sources.get(id) {
                sources.insert(id, s);
            }
        }
        return serde_json::to_string_pretty(&Shown { kind: k, sources }).expect("serialises")
            + "\n";
    }
    let width = usize::from(table::width());
    let mut s = format!(
        "{} ({}, {})\n{}\n",
        k.id,
        k.generic.name(),
        k.vendor,
        hanging("", &k.summary, width)
    );
    if let Some(t) = &k.title {
        s = format!("{t}\n{s}");
    }
    if let Some(d) = &k.delivery {
        s.push_str(&format!(
            "delivery: {d} [{}]\n",
            k.delivery_source.as_deref().unwrap_or("-")
        ));
    }
    if !k.fields.is_empty() {
        let mut t = listing(vec!["field", "default", "min", "max", "fixed", "source"]);
        for (name, f) in &k.fields {
            t.add_row(vec![
                name.clone(),
                value(&f.default),
                value(&f.min),
                value(&f.max),
                if f.fixed { "yes".into() } else { "".into() },
                f.source.clone(),
            ]);
        }
        s.push_str(&format!("\n{t}\n"));
    }
    if let Some(w) = &k.window_starts {
        let text = format!("{} [{}]", w.text, w.source);
        s.push_str(&hanging("window counted ", &text, width));
        s.push('\n');
    }
    if !k.behaviours.is_empty() {
        s.push_str("\nbehaviours:\n");
        for b in &k.behaviours {
            s.push_str(&hanging(
                "  - ",
                &format!("{} [{}]", b.text, b.source),
                width,
            ));
            s.push('\n');
        }
    }
    let mut ids: Vec<&str> = k
        .fields
        .values()
        .map(|f| f.source.as_str())
        .chain(k.behaviours.iter().map(|b| b.source.as_str()))
        .chain(k.window_starts.iter().map(|b| b.source.as_str()))
        .chain(k.delivery_source.as_deref())
        .collect();
    ids.sort();
    ids.dedup();
    if !ids.is_empty() {
        s.push_str("\nsources:\n");
        for id in ids {
            if let Some(src) = c.sources.get(id) {
                let head = format!("  {id} ({}): ", status(src.status));
                s.push_str(&hanging(&head, &src.fact, width));
                s.push_str(&format!("\n    {}\n", src.url));
            }
        }
    }
    s
}
