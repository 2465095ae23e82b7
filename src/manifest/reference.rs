//! The field reference of `docs/manifest.md`, generated from the vocabulary:
//! one table per object (field, type, choices, default, an example, doc). A test
//! regenerates it and compares it with the committed file.

use crate::manifest::examples::example;
use crate::manifest::vocabulary::{DefaultFrom, FieldDef, Need, Obj, Type};

/// The line that opens the generated part of `docs/manifest.md`.
pub const BEGIN: &str = "<!-- BEGIN GENERATED from src/manifest/vocabulary.rs: UPDATE_DOCS=1 cargo test --test vocabulary -->";
/// The line that closes it.
pub const END: &str = "<!-- END GENERATED -->";

fn code(s: &str) -> String {
    format!("`{s}`")
}

fn obj_link(obj: Obj) -> String {
    format!("[`{0}`](#{0})", obj.def())
}

fn type_text(ty: Type) -> String {
    match ty {
        Type::Version => "the number `1`".into(),
        Type::Text { .. } => "text".into(),
        Type::Texts => "text, or a list of texts".into(),
        Type::Kind => "kind".into(),
        Type::Id => "id".into(),
        Type::Ids => "id, or a list of ids".into(),
        Type::Duration { zero: true } => "duration".into(),
        Type::Duration { zero: false } => "duration, not zero".into(),
        Type::Count { min } => format!("whole number, at least {min}"),
        Type::Number => "number above 0".into(),
        Type::Bool => "boolean".into(),
        Type::Choice(_) => "choice".into(),
        Type::Object(obj) => obj_link(obj),
        Type::Objects(obj) => format!("{}, or a list of them", obj_link(obj)),
        Type::Link { obj, many: false } => format!("id, or {}", obj_link(obj)),
        Type::Link { obj, many: true } => {
            format!("id or {}, or a list of them", obj_link(obj))
        }
        Type::Entries(obj) => format!("id → {}", obj_link(obj)),
    }
}

fn choices_text(ty: Type) -> String {
    match ty {
        Type::Choice(names) => names.iter().map(|n| code(n)).collect::<Vec<_>>().join(", "),
        Type::Text { examples } if !examples.is_empty() => format!(
            "e.g. {}",
            examples
                .iter()
                .map(|n| code(n))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Type::Kind => "`replay-audit catalog` lists them".into(),
        _ => String::new(),
    }
}

fn default_text(d: DefaultFrom) -> String {
    match d {
        DefaultFrom::None => String::new(),
        DefaultFrom::Catalog => "the kind's catalog entry".into(),
        DefaultFrom::Fixed(v) => v.into(),
    }
}

fn field_text(f: &FieldDef) -> String {
    let name = code(f.name);
    match f.need {
        Need::Optional => name,
        Need::Required => format!("{name} (required)"),
        Need::RequiredUnlessExtends => {
            format!("{name} (required, except when extending an imported component)")
        }
        Need::RequiredOr(alias) => format!("{name} (required, or {})", code(alias)),
    }
}

/// The generated part of `docs/manifest.md`, between [`BEGIN`] and [`END`]
/// (both included), ending in a newline.
pub fn markdown() -> String {
    let mut s = format!("{BEGIN}\n");
    for &obj in Obj::ALL {
        s.push_str(&format!("\n### `{}`\n\n", obj.def()));
        let place = match obj {
            Obj::Manifest => "At the top level of a file".to_string(),
            _ => format!("Written at {}", code(obj.place())),
        };
        s.push_str(&format!("{place}: {}.\n\n", obj.doc()));
        s.push_str(
            "| field | type | choices | default | example | doc |\n|---|---|---|---|---|---|\n",
        );
        for f in obj.fields() {
            s.push_str(&format!(
                "| {} | {} | {} | {} | `{}: {}` | {} |\n",
                field_text(f),
                type_text(f.ty),
                choices_text(f.ty),
                default_text(f.default),
                f.name,
                example(obj, f),
                f.doc
            ));
        }
    }
    s.push_str(&format!("\n{END}\n"));
    s
}
