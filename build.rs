//! Converts the platform catalog (`src/catalog/kinds.toml`) to JSON at build
//! time, one JSON text per kind and per source. The TOML stays the file
//! people edit and review; the binary parses a kind's JSON (several times
//! faster to read than TOML) the first time a manifest names that kind, so
//! a small manifest pays for the few kinds it uses, not for the catalog.

use std::fmt::Write;
use std::path::PathBuf;

fn main() {
    let src = "src/catalog/kinds.toml";
    println!("cargo::rerun-if-changed={src}");
    let text = std::fs::read_to_string(src).expect("src/catalog/kinds.toml is readable");
    let value: toml::Value = toml::from_str(&text).unwrap_or_else(|e| panic!("{src}: {e}"));
    let json = |v: &toml::Value| serde_json::to_string(v).expect("TOML values convert to JSON");
    let mut kinds: Vec<(String, String)> = Vec::new();
    for k in value
        .get("kind")
        .and_then(toml::Value::as_array)
        .into_iter()
        .flatten()
    {
        let id = k
            .get("id")
            .and_then(toml::Value::as_str)
            .unwrap_or_else(|| panic!("{src}: a kind without id"));
        kinds.push((id.to_string(), json(k)));
    }
    let mut sources: Vec<(String, String)> = value
        .get("sources")
        .and_then(toml::Value::as_table)
        .into_iter()
        .flatten()
        .map(|(id, s)| (id.clone(), json(s)))
        .collect();
    sources.sort();
    let mut by_id: Vec<usize> = (0..kinds.len()).collect();
    by_id.sort_by(|&a, &b| kinds[a].0.cmp(&kinds[b].0));

    let mut out = String::from("// Written by build.rs from src/catalog/kinds.toml.\n");
    out += "/// Each kind's id and JSON, in the order of `kinds.toml`.\n";
    out += "const KINDS: &[(&str, &str)] = &[\n";
    for (id, j) in &kinds {
        writeln!(out, "    ({id:?}, {j:?}),").unwrap();
    }
    out += "];\n/// Positions in `KINDS`, sorted by id.\nconst KINDS_BY_ID: &[usize] = &";
    writeln!(out, "{by_id:?};").unwrap();
    out += "/// Each source's fact id and JSON, sorted by id.\n";
    out += "const SOURCES: &[(&str, &str)] = &[\n";
    for (id, j) in &sources {
        writeln!(out, "    ({id:?}, {j:?}),").unwrap();
    }
    out += "];\n";
    let dir = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    std::fs::write(dir.join("catalog_parts.rs"), out).expect("OUT_DIR is writable");
}
