//! The one serde visitor that builds [`Node`]s from serde-saphyr, in the
//! two readings the tool has: the manifest's ([`Manifest`]) and the
//! importers' ([`Import`]). The tree is built in one pass, straight from the
//! parser's events, one frame per level (like `next_element::<Spanned<_>>`),
//! so deep input needs no more stack than serde-saphyr's own.

use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_saphyr::{Spanned, Tagged};

use super::node::{Node, Value};
use crate::diagnostics::Loc;

/// How a document is read into nodes. Nodes are built with file 0 (the
/// deserializer cannot be told the file); the caller sets it afterwards.
pub trait Reading: Sized {
    /// One node, with the location serde-saphyr gives it.
    fn node<'de, D: Deserializer<'de>>(d: D) -> Result<Node, D::Error>;
    /// A mapping key as this reading keeps it.
    fn key(key: Node) -> Node;
    /// An integer above `i64::MAX`.
    fn big_int<E: de::Error>(v: u64) -> Result<Value, E>;
}

/// The manifest's reading: its parser options refuse tags (an ignored
/// `!Ref` would read its operand as the value), keys keep their type, and
/// an integer beyond `i64` is an error.
pub struct Manifest;

impl Reading for Manifest {
    fn node<'de, D: Deserializer<'de>>(d: D) -> Result<Node, D::Error> {
        let s = Spanned::<Of<Manifest>>::deserialize(d)?;
        let loc = loc_of(&s);
        Ok(Node::new(s.value.0, loc))
    }
    fn key(key: Node) -> Node {
        key
    }
    fn big_int<E: de::Error>(_: u64) -> Result<Value, E> {
        Err(E::custom("integer too large"))
    }
}

/// The importers' reading: local application tags (`!Ref`, not YAML's own
/// `!!str`) are kept on their nodes, keys are read as their scalar text
/// (templates name things by strings), and an integer beyond `i64` is read
/// as a number, as JSON tools read it.
pub struct Import;

impl Reading for Import {
    fn node<'de, D: Deserializer<'de>>(d: D) -> Result<Node, D::Error> {
        let s = Spanned::<Tagged<Of<Import>>>::deserialize(d)?;
        let loc = loc_of(&s);
        let Tagged(Of(value, _), tag) = s.value;
        let tag = tag.filter(|t| t.starts_with('!') && !t.starts_with("!!"));
        Ok(Node { value, tag, loc })
    }
    fn key(key: Node) -> Node {
        Node::string(key.text().unwrap_or_default(), key.loc)
    }
    fn big_int<E: de::Error>(v: u64) -> Result<Value, E> {
        Ok(Value::Float(v as f64))
    }
}

fn loc_of<T>(s: &Spanned<T>) -> Loc {
    Loc {
        file: 0,
        line: s.referenced.line() as u32,
        col: s.referenced.column() as u32,
    }
}

/// A whole document read as `R` reads it.
pub struct Root<R>(pub Node, pub PhantomData<R>);

impl<'de, R: Reading> Deserialize<'de> for Root<R> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        R::node(d).map(|n| Root(n, PhantomData))
    }
}

/// A value without its place, read as `R` reads it (what `Spanned` wraps).
struct Of<R>(Value, PhantomData<R>);

impl<'de, R: Reading> Deserialize<'de> for Of<R> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(ValueVisitor::<R>(PhantomData))
            .map(|v| Of(v, PhantomData))
    }
}

/// A child node, read as `R` reads it.
pub struct ChildSeed<R>(pub PhantomData<R>);

impl<'de, R: Reading> de::DeserializeSeed<'de> for ChildSeed<R> {
    type Value = Node;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Node, D::Error> {
        R::node(d)
    }
}

/// The visitor of every value: scalars as themselves, lists and mappings
/// of child nodes.
pub struct ValueVisitor<R>(pub PhantomData<R>);

impl<'de, R: Reading> Visitor<'de> for ValueVisitor<R> {
    type Value = Value;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a YAML value")
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        Of::<R>::deserialize(d).map(|o| o.0)
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Int(v))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Value, E> {
        i64::try_from(v).map_or_else(|_| R::big_int(v), |i| Ok(Value::Int(i)))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Value::Float(v))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::Str(v.to_string()))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::Str(v))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(ChildSeed::<R>(PhantomData))? {
            items.push(item);
        }
        Ok(Value::Seq(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut entries = Vec::new();
        while let Some(key) = map.next_key_seed(ChildSeed::<R>(PhantomData))? {
            let value = map.next_value_seed(ChildSeed::<R>(PhantomData))?;
            entries.push((R::key(key), value));
        }
        Ok(Value::Map(entries))
    }
}

#[cfg(test)]
mod tests {
    use super::super::yaml;
    use super::*;
    use crate::manifest::Limits;

    const BIG: &str = "a: 18446744073709551615\n";

    #[test]
    fn the_manifest_refuses_an_integer_beyond_i64() {
        let e = yaml::parse(BIG, 0, &Limits::default()).unwrap_err();
        assert_eq!(e.message, "invalid YAML: integer too large");
        assert_eq!(e.loc.map(|l| (l.line, l.col)), Some((1, 4)));
    }

    #[test]
    fn the_manifest_keeps_key_types_and_refuses_tags() {
        let n = yaml::parse("1: a\n", 0, &Limits::default()).unwrap();
        assert_eq!(n.entries()[0].0.value, Value::Int(1));
        assert_eq!(n.get("1").and_then(Node::str), Some("a"));
        let e = yaml::parse("a: !Ref b\n", 0, &Limits::default()).unwrap_err();
        assert!(e.message.starts_with("invalid YAML: "), "{}", e.message);
        assert!(e.message.contains("!Ref"), "{}", e.message);
    }
}
