//! YAML to a span-carrying value tree, under explicit resource limits.
//!
//! serde-saphyr parses the text (pure Rust, no unsafe) into the tool's one
//! span tree ([`Node`], [`super::node`]), where every node keeps its line and
//! column, built by [`super::yaml_visitor`]. This is the one YAML reader of
//! manifests, overlays, what-if and (through `import::tree`) the importers.
//! The typed model is then read from that tree by [`super::load`], which
//! lets one run report every error of a file instead of stopping at serde's
//! first one.

use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};

pub use super::limits::Limits;
pub use super::node::{Node, Value};
use super::yaml_errors;
use super::yaml_visitor::{ChildSeed, Manifest, Root, ValueVisitor};
use crate::diagnostics::{Diagnostic, Loc};

impl Limits {
    /// Parser options for a manifest of `len` bytes.
    fn options(&self, len: usize) -> serde_saphyr::Options {
        serde_saphyr::options! {
            budget: Some(self.budget(len)),
            with_snippet: false,
            // A tag such as CloudFormation's `!Ref` would otherwise be
            // dropped silently and its operand read as the value.
            reject_unsupported_tags: true,
            // `!!binary` is read as the text written, never decoded: what a
            // reviewer sees is what is analysed (`kind: !!binary c3Fz` is
            // the unknown kind `c3Fz`, not a hidden `sqs`).
            ignore_binary_tag_for_string: true,
        }
    }
}

/// Stack for the parser thread: the deserializer recurses once per level
/// of nesting, and debug builds use large frames.
const PARSER_STACK: usize = 256 * 1024 * 1024;

thread_local! {
    /// Set on threads started by [`with_parser_stack`].
    static ON_PARSER_STACK: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `f` where the stack is large enough for the parser: here, when this
/// thread was started by this function, else on a new thread. A panic in `f`
/// is not caught: it goes on in the caller's thread as the bug it is, and
/// is reported as one (`main.rs`).
pub fn with_parser_stack<R: Send>(f: impl FnOnce() -> R + Send) -> Result<R, Diagnostic> {
    if ON_PARSER_STACK.get() {
        return Ok(f());
    }
    std::thread::scope(|scope| {
        let parser = std::thread::Builder::new()
            .stack_size(PARSER_STACK)
            .spawn_scoped(scope, || {
                ON_PARSER_STACK.set(true);
                f()
            })
            .map_err(|e| Diagnostic::new(None, format!("cannot start the parser: {e}")))?;
        Ok(parser
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
    })
}

/// Parses one YAML document of file `file` with serde-saphyr, on a stack
/// large enough for the deepest nesting the budget lets through.
pub fn parse(text: &str, file: u32, limits: &Limits) -> Result<Node, Diagnostic> {
    with_parser_stack(|| parse_here(text, file, limits))?
}

fn parse_here(text: &str, file: u32, limits: &Limits) -> Result<Node, Diagnostic> {
    let Root(mut node, _) =
        serde_saphyr::from_str_with_options::<Root<Manifest>>(text, limits.options(text.len()))
            .map_err(|e| yaml_error(&e, file, limits, text))?;
    if file != 0 {
        set_file(&mut node, file);
    }
    Ok(node)
}

/// A piece of a document, as [`stream`] hands it over in document order.
/// Each piece borrows nodes that are dropped once the callback returns.
#[derive(Debug, Clone, Copy)]
pub enum Piece<'n> {
    /// The document is not a mapping: all of it (`Null` when empty).
    Document(&'n Node),
    /// A top-level `key: value`: a field, or a section whose value is not
    /// a mapping (null, or the wrong type).
    Field(&'n Node, &'n Node),
    /// The key of a section whose entries follow as [`Piece::Entry`].
    Section(&'n Node),
    /// One `id: settings` entry of the last [`Piece::Section`].
    Entry(&'n Node, &'n Node),
}

impl Piece<'_> {
    /// The pieces of an already parsed document, the same as [`stream`]
    /// would give for its text.
    pub fn of(root: &Node, sections: &[&str], mut sink: impl FnMut(Piece)) {
        let Value::Map(entries) = &root.value else {
            return sink(Piece::Document(root));
        };
        for (k, v) in entries {
            let streamed = is_section(k, sections);
            match &v.value {
                Value::Map(items) if streamed => {
                    sink(Piece::Section(k));
                    for (ik, iv) in items {
                        sink(Piece::Entry(ik, iv));
                    }
                }
                _ => sink(Piece::Field(k, v)),
            }
        }
    }
}

fn is_section(key: &Node, sections: &[&str]) -> bool {
    matches!(&key.value, Value::Str(s) if sections.contains(&s.as_str()))
}

/// Parses one document and hands it to `sink` piece by piece: the entries
/// of the top-level `sections` one at a time, so that only one entry's tree
/// is alive at once. A large manifest is read into the typed model without
/// ever holding the tree of the whole file (ten times the text).
///
/// The document itself and the values of streamed sections carry no
/// location (serde-saphyr gives one only to values read as `Spanned`); a
/// document that is not a mapping is reported at line 1, column 1.
pub fn stream(
    text: &str,
    file: u32,
    limits: &Limits,
    sections: &[&str],
    sink: &mut (dyn FnMut(Piece) + Send),
) -> Result<(), Diagnostic> {
    with_parser_stack(|| {
        let options = limits.options(text.len());
        let seed = TopSeed {
            file,
            sections,
            sink: std::cell::RefCell::new(sink),
        };
        serde_saphyr::with_deserializer_from_str_with_options(text, options, |d| {
            de::DeserializeSeed::deserialize(Stream(&seed), d)
        })
        .map_err(|e| yaml_error(&e, file, limits, text))
    })?
}

struct TopSeed<'a, 's> {
    file: u32,
    sections: &'a [&'a str],
    /// Shared with the section seed, which borrows the top seed.
    sink: std::cell::RefCell<&'a mut (dyn FnMut(Piece) + Send + 's)>,
}

impl TopSeed<'_, '_> {
    fn call(&self, piece: Piece) {
        (self.sink.borrow_mut())(piece)
    }

    fn child(&self, mut node: Node) -> Node {
        if self.file != 0 {
            set_file(&mut node, self.file);
        }
        node
    }
}

/// A value read piece by piece when it is a mapping, and built whole (and
/// handed over as one piece) when it is anything else: the document, and
/// the value of a streamed section.
trait Streamed: Sized {
    const EXPECTING: &'static str;
    fn map<'de, A: MapAccess<'de>>(self, map: A) -> Result<(), A::Error>;
    fn whole(self, value: Value);
}

/// Serde's side of a [`Streamed`] value: mappings go to `map`, everything
/// else is built by the [`ValueVisitor`] and goes to `whole`.
struct Stream<S>(S);

impl<S: Streamed> Stream<S> {
    fn whole<E>(self, value: Result<Value, E>) -> Result<(), E> {
        self.0.whole(value?);
        Ok(())
    }
}

impl<'de, S: Streamed> de::DeserializeSeed<'de> for Stream<S> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de, S: Streamed> Visitor<'de> for Stream<S> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(S::EXPECTING)
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<(), A::Error> {
        self.0.map(map)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<(), A::Error> {
        self.whole(VISITOR.visit_seq(seq))
    }
    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        self.whole(VISITOR.visit_unit())
    }
    fn visit_none<E: de::Error>(self) -> Result<(), E> {
        self.whole(VISITOR.visit_none())
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<(), E> {
        self.whole(VISITOR.visit_bool(v))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<(), E> {
        self.whole(VISITOR.visit_i64(v))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<(), E> {
        self.whole(VISITOR.visit_u64(v))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<(), E> {
        self.whole(VISITOR.visit_f64(v))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<(), E> {
        self.whole(VISITOR.visit_str(v))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<(), E> {
        self.whole(VISITOR.visit_string(v))
    }
}

/// The document: at the top level, fields are read whole and sections
/// entry by entry.
impl Streamed for &TopSeed<'_, '_> {
    const EXPECTING: &'static str = "a manifest";
    fn map<'de, A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(key) = map.next_key_seed(SEED)? {
            let key = self.child(key);
            if is_section(&key, self.sections) {
                map.next_value_seed(Stream(SectionSeed {
                    top: self,
                    key: &key,
                }))?;
            } else {
                let value = self.child(map.next_value_seed(SEED)?);
                self.call(Piece::Field(&key, &value));
            }
        }
        Ok(())
    }
    fn whole(self, value: Value) {
        let loc = Loc {
            file: self.file,
            line: 1,
            col: 1,
        };
        self.call(Piece::Document(&self.child(Node::new(value, loc))));
    }
}

/// The value of a streamed section: a mapping is handed over entry by
/// entry; anything else whole, as a field placed at the section's key.
struct SectionSeed<'t, 'a, 's> {
    top: &'t TopSeed<'a, 's>,
    key: &'t Node,
}

impl Streamed for SectionSeed<'_, '_, '_> {
    const EXPECTING: &'static str = "a mapping of id to settings";
    fn map<'de, A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        self.top.call(Piece::Section(self.key));
        while let Some(k) = map.next_key_seed(SEED)? {
            let k = self.top.child(k);
            let v = self.top.child(map.next_value_seed(SEED)?);
            self.top.call(Piece::Entry(&k, &v));
        }
        Ok(())
    }
    fn whole(self, value: Value) {
        let node = self.top.child(Node::new(value, self.key.loc));
        self.top.call(Piece::Field(self.key, &node));
    }
}

/// The manifest's reading of a child node, and of a value read whole.
const SEED: ChildSeed<Manifest> = ChildSeed(PhantomData);
const VISITOR: ValueVisitor<Manifest> = ValueVisitor(PhantomData);

/// Nodes are built with file 0 while parsing (the deserializer cannot be
/// told the file); other files get theirs in one pass without allocation.
pub(crate) fn set_file(node: &mut Node, file: u32) {
    node.loc.file = file;
    match &mut node.value {
        Value::Seq(items) => items.iter_mut().for_each(|n| set_file(n, file)),
        Value::Map(entries) => entries.iter_mut().for_each(|(k, v)| {
            set_file(k, file);
            set_file(v, file);
        }),
        _ => {}
    }
}

/// A parser error on a text of `len` bytes, at its place, in our words
/// ([`yaml_errors::describe`]).
pub fn yaml_error(e: &serde_saphyr::Error, file: u32, limits: &Limits, text: &str) -> Diagnostic {
    let len = text.len();
    let loc = e.location().filter(|l| l.line() > 0).map(|l| Loc {
        file,
        line: l.line() as u32,
        col: l.column() as u32,
    });
    let (message, help) = yaml_errors::describe(e, &limits.budget(len), len);
    // A flow collection left open: the parser stops lines later; the
    // place to fix is the opener.
    let open = match (e, loc) {
        (serde_saphyr::Error::Budget { .. }, _) | (_, None) => None,
        (_, Some(l)) => super::yaml_flow::unclosed_before(text, l.line as usize, l.col as usize)
            .map(|(line, col, c)| (l, line, col, c)),
    };
    if let Some((l, line, col, c)) = open {
        let close = if c == '[' { ']' } else { '}' };
        let at = Loc {
            file,
            line: line as u32,
            col: col as u32,
        };
        return Diagnostic::new(Some(at), format!("invalid YAML: this `{c}` is never closed"))
            .label("opened here")
            .help(format!(
                "close it with `{close}` where the list or mapping ends (the parser stopped at line {}, column {}: {message})",
                l.line, l.col
            ));
    }
    let mut d = Diagnostic::new(loc, format!("invalid YAML: {message}"));
    if let Some(h) = help {
        d = d.help(h);
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(text: &str) -> Result<Node, Diagnostic> {
        parse(text, 0, &Limits::default())
    }

    #[test]
    fn keeps_line_and_column_of_every_node() {
        let n = p("version: 1\ncomponents:\n  q: {kind: queue}\n").unwrap();
        let Value::Map(top) = &n.value else { panic!() };
        let (k, v) = &top[1];
        assert_eq!(k.value, Value::Str("components".into()));
        assert_eq!((k.loc.line, k.loc.col), (2, 1));
        let Value::Map(comps) = &v.value else {
            panic!()
        };
        assert_eq!((comps[0].0.loc.line, comps[0].0.loc.col), (3, 3));
    }

    #[test]
    fn syntax_error_has_location() {
        let e = p("a: [1, 2\nb: 3").unwrap_err();
        // The parser stops at 2:2; the place to fix is the `[` left open.
        assert_eq!(e.loc.map(|l| (l.line, l.col)), Some((1, 4)));
        assert_eq!(e.message, "invalid YAML: this `[` is never closed");
        assert!(e.message.starts_with("invalid YAML:"), "{}", e.message);
    }

    #[test]
    fn alias_bomb_stops_early() {
        let mut bomb = String::from("a: &a [x,x,x,x,x,x,x,x,x]\n");
        for (prev, name) in ["a", "b", "c", "d", "e", "f", "g", "h"]
            .iter()
            .zip(["b", "c", "d", "e", "f", "g", "h", "i"])
        {
            bomb.push_str(&format!("{name}: &{name} [*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev}]\n"));
        }
        let e = p(&bomb).unwrap_err();
        assert!(e.message.contains("alias bomb"), "{}", e.message);
    }

    #[test]
    fn deep_nesting_is_refused() {
        let deep: String = (0..200).map(|i| format!("{}a:\n", " ".repeat(i))).collect();
        let e = p(&deep).unwrap_err();
        assert!(
            e.message.contains("nested more than 48 levels deep"),
            "{}",
            e.message
        );
        let flow = "[".repeat(200_000);
        let e = p(&flow).unwrap_err();
        assert!(
            e.message.contains("nested more than 48 levels deep"),
            "{}",
            e.message
        );
    }

    #[test]
    fn several_documents_are_refused() {
        let e = p("a: 1\n---\nb: 2\n").unwrap_err();
        assert!(
            e.message.contains("several YAML documents"),
            "{}",
            e.message
        );
    }
}
