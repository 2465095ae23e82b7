//! The one span tree every reader builds and reads: the manifest loader,
//! what-if and the shell (through [`super::yaml`]) and the importers
//! (through `import::tree`, which keeps YAML tags and reads JSON), all
//! built by serde-saphyr through [`super::yaml_visitor`], with the
//! accessors they share.

use crate::diagnostics::{Diagnostic, Loc};

/// A YAML (or JSON) value with the location of every node, and the local
/// application tag (`!Ref`, `!GetAtt`) it was written with, where the
/// reading keeps tags (the importers'; the manifest's refuses them).
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
    Map(Vec<(Node, Node)>),
}

impl Value {
    /// The name of the YAML type, for "expected ..., found ..." errors.
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Bool(_) => "a boolean",
            Value::Int(_) => "an integer",
            Value::Float(_) => "a number",
            Value::Str(_) => "a string",
            Value::Seq(_) => "a list",
            Value::Map(_) => "a mapping",
        }
    }

    /// Scalars as text (map keys, ids written as numbers).
    pub fn scalar_text(&self) -> Option<String> {
        match self {
            Value::Bool(b) => Some(b.to_string()),
            Value::Int(i) => Some(i.to_string()),
            Value::Float(f) => Some(f.to_string()),
            Value::Str(s) => Some(s.clone()),
            _ => None,
        }
    }
}

impl Node {
    /// An untagged node.
    pub fn new(value: Value, loc: Loc) -> Node {
        Node {
            value,
            tag: None,
            loc,
        }
    }

    /// A string node (a key or value the importers build).
    pub fn string(text: impl Into<String>, loc: Loc) -> Node {
        Node::new(Value::Str(text.into()), loc)
    }

    /// A mapping with string keys, each key placed at its value.
    pub fn map<K: Into<String>>(entries: impl IntoIterator<Item = (K, Node)>, loc: Loc) -> Node {
        let entries = entries
            .into_iter()
            .map(|(k, v)| (Node::string(k, v.loc), v))
            .collect();
        Node::new(Value::Map(entries), loc)
    }

    /// The tag the node was written with (`!Ref`), where it was kept.
    pub fn tag(&self) -> Option<&str> {
        self.tag.as_deref()
    }

    /// Whether this key is `key`, compared by its scalar text (`1:` is the
    /// key `"1"`).
    pub fn is_key(&self, key: &str) -> bool {
        match &self.value {
            Value::Str(s) => s == key,
            other => other.scalar_text().is_some_and(|t| t == key),
        }
    }

    /// A key of the importers' trees as text: their reading turns every key
    /// into a string of its scalar text (`""` for a key that is not a
    /// scalar), and what they build uses string keys.
    pub fn key(&self) -> &str {
        self.str().unwrap_or_default()
    }

    /// The value under `key` in a mapping.
    pub fn get(&self, key: &str) -> Option<&Node> {
        self.entries()
            .iter()
            .find(|(k, _)| k.is_key(key))
            .map(|(_, v)| v)
    }

    /// The value under `key` in a mapping, to change it.
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Node> {
        match &mut self.value {
            Value::Map(m) => m.iter_mut().find(|(k, _)| k.is_key(key)).map(|(_, v)| v),
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

    /// The entries of a mapping (none for anything else).
    pub fn entries(&self) -> &[(Node, Node)] {
        match &self.value {
            Value::Map(m) => m,
            _ => &[],
        }
    }

    /// The items of a list (none for anything else).
    pub fn items(&self) -> &[Node] {
        match &self.value {
            Value::Seq(s) => s,
            _ => &[],
        }
    }

    /// Scalars as text.
    pub fn text(&self) -> Option<String> {
        self.value.scalar_text()
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
                    .map(|(k, v)| format!("{}: {}", k.text().unwrap_or_default(), v.brief()))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            _ => {
                let t = self.text().unwrap_or_default();
                let t: String = t.chars().take(120).collect();
                let t = t.replace('\n', " ");
                match self.tag() {
                    Some(tag) => format!("{tag} {t}"),
                    None => t,
                }
            }
        }
    }

    /// An input error at this node (without a place when the node has none,
    /// as a value read from JSON without line numbers).
    pub fn error_at(&self, message: impl Into<String>, help: impl Into<String>) -> Diagnostic {
        let d = if self.loc.line > 0 {
            Diagnostic::at(self.loc, message).label("here")
        } else {
            Diagnostic::new(None, message)
        };
        d.help(help)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_compared_by_their_text() {
        let loc = Loc::default();
        let map = Node::new(
            Value::Map(vec![
                (Node::new(Value::Int(1), loc), Node::string("one", loc)),
                (Node::string("b", loc), Node::new(Value::Bool(true), loc)),
            ]),
            loc,
        );
        assert_eq!(map.get("1").and_then(Node::str), Some("one"));
        assert_eq!(map.get("b").and_then(Node::boolean), Some(true));
        assert_eq!(map.get("2"), None);
        assert_eq!(map.brief(), "{1: one, b: true}");
    }
}
