//! The input tree the importers read: YAML (keeping `!Ref`-style tags) or
//! JSON parsed into [`Node`]s that remember their line, and the errors a
//! broken input gives, in the manifest reader's words.

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_saphyr::{Spanned, Tagged};

use crate::diagnostics::{Diagnostic, Loc};
use crate::manifest::Limits;

/// A YAML or JSON value with its place and its tag (`!Ref`, ...).
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub value: Value,
    pub tag: Option<String>,
    pub loc: Loc,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    Seq(Vec<Node>),
    Map(Vec<(String, Node)>),
}

impl Node {
    pub fn new(value: Value, loc: Loc) -> Node {
        Node {
            value,
            tag: None,
            loc,
        }
    }

    pub fn get(&self, key: &str) -> Option<&Node> {
        match &self.value {
            Value::Map(m) => m.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// Follows a path of keys.
    pub fn at(&self, keys: &[&str]) -> Option<&Node> {
        keys.iter().try_fold(self, |n, k| n.get(k))
    }

    pub fn str(&self) -> Option<&str> {
        match &self.value {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    pub fn entries(&self) -> &[(String, Node)] {
        match &self.value {
            Value::Map(m) => m,
            _ => &[],
        }
    }

    pub fn items(&self) -> &[Node] {
        match &self.value {
            Value::Seq(s) => s,
            _ => &[],
        }
    }

    /// Scalars as text.
    pub fn text(&self) -> Option<String> {
        match &self.value {
            Value::Bool(b) => Some(b.to_string()),
            Value::Int(i) => Some(i.to_string()),
            Value::Float(f) => Some(f.to_string()),
            Value::Str(s) => Some(s.clone()),
            _ => None,
        }
    }

    /// An integer, also from a string of digits (CloudFormation writes both).
    pub fn int(&self) -> Option<i64> {
        match &self.value {
            Value::Int(i) => Some(*i),
            Value::Float(f) if f.fract() == 0.0 && f.abs() < 9.0e15 => Some(*f as i64),
            Value::Str(s) => s.trim().parse().ok(),
            _ => None,
        }
    }

    pub fn float(&self) -> Option<f64> {
        match &self.value {
            Value::Int(i) => Some(*i as f64),
            Value::Float(f) => Some(*f),
            Value::Str(s) => s.trim().parse().ok(),
            _ => None,
        }
    }

    /// A boolean, also from `"true"` / `"false"`.
    pub fn boolean(&self) -> Option<bool> {
        match &self.value {
            Value::Bool(b) => Some(*b),
            Value::Str(s) if s.eq_ignore_ascii_case("true") => Some(true),
            Value::Str(s) if s.eq_ignore_ascii_case("false") => Some(false),
            _ => None,
        }
    }

    /// A short one-line rendering for comments.
    pub fn brief(&self) -> String {
        match &self.value {
            Value::Null => "null".into(),
            Value::Seq(items) => format!(
                "[{}]",
                items.iter().map(Node::brief).collect::<Vec<_>>().join(", ")
            ),
            Value::Map(m) => format!(
                "{{{}}}",
                m.iter()
                    .map(|(k, v)| format!("{k}: {}", v.brief()))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            _ => {
                let t = self.text().unwrap_or_default();
                let t: String = t.chars().take(120).collect();
                let t = t.replace('\n', " ");
                match &self.tag {
                    Some(tag) => format!("{tag} {t}"),
                    None => t,
                }
            }
        }
    }
}

/// Parses YAML (with tags) or JSON. JSON is read by serde-saphyr too, since
/// JSON is YAML flow syntax and that keeps line numbers for the source
/// comments; when saphyr refuses a text serde_json accepts, serde_json's
/// tree is used (without line numbers), and a JSON syntax error is reported
/// with serde_json's line and column.
pub fn parse(text: &str, file: u32, limits: &Limits) -> Result<Node, Diagnostic> {
    let looks_json = text.trim_start().starts_with('{') || text.trim_start().starts_with('[');
    let options = serde_saphyr::options! {
        budget: Some(limits.budget(text.len())),
        with_snippet: false,
    };
    // JSON must be JSON: YAML would accept `"b": }` as a null.
    if looks_json && let Err(je) = serde_json::from_str::<de::IgnoredAny>(text) {
        return Err(Diagnostic::at(
            Loc {
                file,
                line: je.line() as u32,
                col: je.column() as u32,
            },
            format!("invalid JSON: {}", strip_position(&je.to_string())),
        )
        .label("here")
        .help("fix the JSON syntax at this place"));
    }
    let saphyr: Result<Spanned<Tagged<Raw>>, _> =
        serde_saphyr::from_str_with_options(text, options);
    match saphyr {
        Ok(raw) => Ok(convert(raw, file)),
        Err(e) if looks_json => match serde_json::from_str::<serde_json::Value>(text) {
            Ok(v) if depth(&v) <= limits.max_depth => Ok(from_json(v, file)),
            Ok(_) => Err(Diagnostic::new(
                None,
                "invalid JSON: the document is nested too deeply",
            )),
            Err(je) => Err(Diagnostic::at(
                Loc {
                    file,
                    line: je.line() as u32,
                    col: je.column() as u32,
                },
                format!("invalid JSON: {}", strip_position(&je.to_string())),
            )
            .label("here")
            .help("fix the JSON syntax at this place")),
        }
        .map_err(|d| {
            if d.loc.is_none() {
                yaml_error(&e, file, limits, text.len())
            } else {
                d
            }
        }),
        Err(e) => Err(yaml_error(&e, file, limits, text.len())),
    }
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
                .map(|(k, x)| (k, from_json(x, file)))
                .collect(),
        ),
    };
    Node::new(value, loc)
}

/// The manifest reader's error ([`crate::manifest::yaml::yaml_error`]), so
/// an exceeded limit reads the same here, with a label at its place and a
/// help on every error.
fn yaml_error(e: &serde_saphyr::Error, file: u32, limits: &Limits, len: usize) -> Diagnostic {
    let mut d = crate::manifest::yaml::yaml_error(e, file, limits, len);
    if d.help.is_none() {
        d = d.help("fix the syntax at this place");
    }
    if d.loc.is_some() {
        d = d.label("here");
    }
    d
}

fn convert(raw: Spanned<Tagged<Raw>>, file: u32) -> Node {
    let loc = Loc {
        file,
        line: raw.referenced.line() as u32,
        col: raw.referenced.column() as u32,
    };
    let Tagged(raw, tag) = raw.value;
    let value = match raw {
        Raw::Null => Value::Null,
        Raw::Bool(b) => Value::Bool(b),
        Raw::Int(i) => Value::Int(i),
        Raw::Float(f) => Value::Float(f),
        Raw::Str(s) => Value::Str(s),
        Raw::Seq(items) => Value::Seq(items.into_iter().map(|i| convert(i, file)).collect()),
        Raw::Map(entries) => Value::Map(
            entries
                .into_iter()
                .map(|(k, v)| {
                    let key = convert(k, file).text().unwrap_or_default();
                    (key, convert(v, file))
                })
                .collect(),
        ),
    };
    // Only local application tags (`!Ref`) are kept; `!!str` and the like
    // are YAML's own.
    let tag = tag.filter(|t| t.starts_with('!') && !t.starts_with("!!"));
    Node { value, tag, loc }
}

type RawNode = Spanned<Tagged<Raw>>;

enum Raw {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    Seq(Vec<RawNode>),
    Map(Vec<(RawNode, RawNode)>),
}

impl<'de> Deserialize<'de> for Raw {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(RawVisitor)
    }
}

struct RawVisitor;

impl<'de> Visitor<'de> for RawVisitor {
    type Value = Raw;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a YAML value")
    }
    fn visit_unit<E>(self) -> Result<Raw, E> {
        Ok(Raw::Null)
    }
    fn visit_none<E>(self) -> Result<Raw, E> {
        Ok(Raw::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Raw, D::Error> {
        Raw::deserialize(d)
    }
    fn visit_bool<E>(self, v: bool) -> Result<Raw, E> {
        Ok(Raw::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Raw, E> {
        Ok(Raw::Int(v))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Raw, E> {
        Ok(i64::try_from(v).map_or(Raw::Float(v as f64), Raw::Int))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Raw, E> {
        Ok(Raw::Float(v))
    }
    fn visit_str<E>(self, v: &str) -> Result<Raw, E> {
        Ok(Raw::Str(v.to_string()))
    }
    fn visit_string<E>(self, v: String) -> Result<Raw, E> {
        Ok(Raw::Str(v))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Raw, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element::<Spanned<Tagged<Raw>>>()? {
            items.push(item);
        }
        Ok(Raw::Seq(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Raw, A::Error> {
        let mut entries = Vec::new();
        while let Some(key) = map.next_key::<Spanned<Tagged<Raw>>>()? {
            let value = map.next_value::<Spanned<Tagged<Raw>>>()?;
            entries.push((key, value));
        }
        Ok(Raw::Map(entries))
    }
}

/// An input error at a node.
pub fn error_at(node: &Node, message: impl Into<String>, help: impl Into<String>) -> Diagnostic {
    let d = if node.loc.line > 0 {
        Diagnostic::at(node.loc, message).label("here")
    } else {
        Diagnostic::new(None, message)
    };
    d.help(help)
}

#[cfg(test)]
mod tests {
    use super::*;

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
            (b.tag.as_deref(), b.str(), b.loc.line),
            (Some("!Ref"), Some("Foo"), 2)
        );
        let c = n.at(&["A", "C"]).unwrap();
        assert_eq!(
            (c.tag.as_deref(), c.items().len(), c.loc.line),
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
        assert_eq!(e.loc.map(|l| (l.line, l.col)), Some((2, 2)));
    }
}
