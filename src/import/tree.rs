//! The importers' reading of their input: YAML (keeping `!Ref`-style tags)
//! or JSON parsed into the tool's one span tree ([`Node`], shared with the
//! manifest reader), and the errors a broken input gives, in the manifest
//! reader's words.

use serde::de;

use crate::diagnostics::{Diagnostic, Loc};
use crate::manifest::Limits;
use crate::manifest::node::{Node, Value};
use crate::manifest::yaml::{set_file, with_parser_stack};
use crate::manifest::yaml_visitor::{Import, Root};

/// Parses YAML (with tags) or JSON. JSON is read by serde-saphyr too, since
/// JSON is YAML flow syntax and that keeps line numbers for the source
/// comments; when saphyr refuses a text serde_json accepts, serde_json's
/// tree is used (without line numbers), and a JSON syntax error is reported
/// with serde_json's line and column.
pub fn parse(text: &str, file: u32, limits: &Limits) -> Result<Node, Diagnostic> {
    let looks_json = text.trim_start().starts_with('{') || text.trim_start().starts_with('[');
    // JSON must be JSON: YAML would accept `"b": }` as a null.
    if looks_json && let Err(je) = serde_json::from_str::<de::IgnoredAny>(text) {
        return Err(json_error(&je, file));
    }
    // serde-saphyr recurses once per level, on the parser's stack.
    let read = with_parser_stack(|| {
        let options = serde_saphyr::options! {
            budget: Some(limits.budget(text.len())),
            with_snippet: false,
        };
        serde_saphyr::from_str_with_options::<Root<Import>>(text, options)
    })?;
    match read {
        Ok(Root(mut node, _)) => {
            if file != 0 {
                set_file(&mut node, file);
            }
            Ok(node)
        }
        Err(e) if looks_json => match serde_json::from_str::<serde_json::Value>(text) {
            Ok(v) if depth(&v) <= limits.max_depth => Ok(from_json(v, file)),
            // Too deep: the parser's error words the depth limit.
            Ok(_) => Err(yaml_error(&e, file, limits, text)),
            Err(je) => Err(json_error(&je, file)),
        },
        Err(e) => Err(yaml_error(&e, file, limits, text)),
    }
}

/// A JSON syntax error at serde_json's line and column, in its words
/// without the position it appends.
fn json_error(je: &serde_json::Error, file: u32) -> Diagnostic {
    let loc = Loc {
        file,
        line: je.line() as u32,
        col: je.column() as u32,
    };
    let message = format!("invalid JSON: {}", strip_position(&je.to_string()));
    Diagnostic::at(loc, message)
        .label("here")
        .help("fix the JSON syntax at this place")
}

fn strip_position(s: &str) -> String {
    match s.rfind(" at line ") {
        Some(i) => s[..i].to_string(),
        None => s.to_string(),
    }
}

fn depth(v: &serde_json::Value) -> usize {
    match v {
        serde_json::Value::Array(a) => 1 + a.iter().map(depth).max().unwrap_or(0),
        serde_json::Value::Object(o) => 1 + o.values().map(depth).max().unwrap_or(0),
        _ => 0,
    }
}

/// A `serde_json` tree as nodes without line numbers (`loc.line` 0).
pub(crate) fn from_json(v: serde_json::Value, file: u32) -> Node {
    let loc = Loc {
        file,
        line: 0,
        col: 0,
    };
    let value = match v {
        serde_json::Value::Null => Value::Null,
        serde_json::Value::Bool(b) => Value::Bool(b),
        serde_json::Value::Number(n) => n
            .as_i64()
            .map_or_else(|| Value::Float(n.as_f64().unwrap_or(0.0)), Value::Int),
        serde_json::Value::String(s) => Value::Str(s),
        serde_json::Value::Array(a) => {
            Value::Seq(a.into_iter().map(|x| from_json(x, file)).collect())
        }
        serde_json::Value::Object(o) => Value::Map(
            o.into_iter()
                .map(|(k, x)| (Node::string(k, loc), from_json(x, file)))
                .collect(),
        ),
    };
    Node::new(value, loc)
}

/// The manifest reader's error ([`crate::manifest::yaml::yaml_error`]), so
/// an exceeded limit reads the same here, with a label at its place and a
/// help on every error.
fn yaml_error(e: &serde_saphyr::Error, file: u32, limits: &Limits, text: &str) -> Diagnostic {
    let mut d = crate::manifest::yaml::yaml_error(e, file, limits, text);
    if d.help.is_none() {
        d = d.help("fix the syntax at this place");
    }
    if d.loc.is_some() && d.label.is_empty() {
        d = d.label("here");
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manifest::node::Value;

    #[test]
    fn the_importers_read_an_integer_beyond_i64_as_a_number() {
        let n = parse("a: 18446744073709551615\n", 0, &Limits::default()).unwrap();
        assert_eq!(
            n.get("a").map(|a| &a.value),
            Some(&Value::Float(1.8446744073709552e19))
        );
    }

    #[test]
    fn the_importers_keep_local_tags_and_read_keys_as_text() {
        let text = "1: !Ref A\ntrue: !!str b\nc: !Sub [x]\n";
        let n = parse(text, 3, &Limits::default()).unwrap();
        let keys: Vec<(&Value, u32)> = n
            .entries()
            .iter()
            .map(|(k, _)| (&k.value, k.loc.line))
            .collect();
        assert_eq!(
            keys,
            [
                (&Value::Str("1".into()), 1),
                (&Value::Str("true".into()), 2),
                (&Value::Str("c".into()), 3)
            ]
        );
        let tags: Vec<Option<&str>> = n.entries().iter().map(|(_, v)| v.tag()).collect();
        assert_eq!(tags, [Some("!Ref"), None, Some("!Sub")]);
        assert!(
            n.entries()
                .iter()
                .all(|(k, v)| k.loc.file == 3 && v.loc.file == 3)
        );
    }

    #[test]
    fn keeps_tags_and_lines() {
        let n = parse(
            "A:\n  B: !Ref Foo\n  C: !GetAtt [X, Arn]\n",
            0,
            &Limits::default(),
        )
        .unwrap();
        let b = n.at(&["A", "B"]).unwrap();
        assert_eq!(
            (b.tag(), b.str(), b.loc.line),
            (Some("!Ref"), Some("Foo"), 2)
        );
        let c = n.at(&["A", "C"]).unwrap();
        assert_eq!(
            (c.tag(), c.items().len(), c.loc.line),
            (Some("!GetAtt"), 2, 3)
        );
    }

    #[test]
    fn json_errors_have_line_and_column() {
        let e = parse("{\n  \"a\": 1,\n  \"b\": }\n", 0, &Limits::default()).unwrap_err();
        let l = e.loc.unwrap();
        assert_eq!((l.line, l.col), (3, 8), "{}", e.message);
        assert!(
            e.message.starts_with("invalid JSON") || e.message.starts_with("invalid YAML"),
            "{}",
            e.message
        );
    }

    #[test]
    fn yaml_errors_have_line_and_column() {
        let e = parse("a: [1, 2\nb: 3", 0, &Limits::default()).unwrap_err();
        // The parser stops at 2:2; the place to fix is the `[` left open.
        assert_eq!(e.loc.map(|l| (l.line, l.col)), Some((1, 4)));
        assert_eq!(e.message, "invalid YAML: this `[` is never closed");
    }
}
