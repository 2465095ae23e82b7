//! The fast reader: manifest YAML straight from granit-parser's events.
//!
//! serde-saphyr parses with granit-parser too, then replays every event
//! through its deserializer and a serde visitor; on a large manifest that
//! layer costs more than the parse itself. This module reads the events
//! directly into the same [`Node`]s, in one pass, without recursion (an
//! explicit stack), with locations taken from the events' marks exactly as
//! serde-saphyr takes them (line, column + 1).
//!
//! It reads the YAML manifests are made of: mappings, sequences and
//! untagged scalars, typed by serde-saphyr's rules (YAML 1.1 booleans,
//! decimal integers, floats), with anchors, aliases and merge keys
//! ([`super::yaml_anchors`], which lists the few forms of those it leaves).
//! Anything else it leaves to serde-saphyr by returning [`Bail`]: a tag, a
//! duplicate or non-string key, a number written in a rarer form (radix,
//! `_`, `+`, leading zero, non-finite), several documents, a scanner error,
//! every budget the fast reader would pass, and, piece by piece
//! ([`stream`]), a merge into the top level or an anchor on the root or on
//! a section. The caller then parses the text again
//! with serde-saphyr, which reads what remains and words every error and
//! limit as before: errors, their locations and the budget counts come from
//! one place, so they cannot drift. Input that bails is read twice; both
//! passes are linear and bounded by the same budget.
//!
//! [`stream_to`] hands each section entry's value to its sink as a
//! [`Cursor`] on the events instead of a tree, for the direct reader of the
//! model (`load/direct.rs`), which reads valid entries and bails on the
//! rest.

use std::borrow::Cow;

use granit_parser::{Event, Parser, ScalarStyle, Span, StrInput};

use super::yaml::{Limits, Node, Piece, Value};
use super::yaml_anchors::{Anchors, Cost};
use crate::diagnostics::Loc;

/// The fast reader met something it leaves to serde-saphyr.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bail;

type Read<T> = Result<T, Bail>;

/// Events of one document, counted against the budget serde-saphyr would
/// enforce (without aliases, each count only grows with the text).
struct Events<'t> {
    parser: Parser<'t, StrInput<'t>>,
    file: u32,
    budget: serde_saphyr::Budget,
    events: usize,
    nodes: usize,
    scalar_bytes: usize,
    depth: usize,
    documents: usize,
    anchors: Anchors,
}

impl<'t> Events<'t> {
    fn new(text: &'t str, file: u32, limits: &Limits) -> Read<Self> {
        let budget = limits.budget(text.len());
        if text.len() > limits.max_file_bytes as usize {
            return Err(Bail);
        }
        // serde-saphyr's parser options for this budget.
        let options = granit_parser::options! {
            simple_key_max_lookahead: budget.simple_key_max_lookahead,
            flow_nesting_limit: budget.flow_nesting_limit,
            block_nesting_limit: granit_parser::Options::default()
                .block_nesting_limit
                .max(budget.max_depth.saturating_add(1)),
            emit_comments: false,
        };
        Ok(Events {
            parser: Parser::with_options(StrInput::new(text), options),
            file,
            budget,
            events: 0,
            nodes: 0,
            scalar_bytes: 0,
            depth: 0,
            documents: 0,
            anchors: Anchors::default(),
        })
    }

    fn loc(&self, span: &Span) -> Loc {
        Loc {
            file: self.file,
            line: span.start.line() as u32,
            col: span.start.col() as u32 + 1,
        }
    }

    /// The next content event (a node's start or end, or `None` at the end
    /// of the stream), after checking it against the budget.
    fn next(&mut self) -> Read<Option<(Event<'t>, Loc)>> {
        loop {
            let Some(item) = self.parser.next() else {
                return Ok(None);
            };
            let (event, span) = item.map_err(|_| Bail)?;
            self.events += 1;
            if self.events > self.budget.max_events {
                return Err(Bail);
            }
            match &event {
                Event::StreamStart | Event::DocumentEnd => continue,
                Event::StreamEnd => return Ok(None),
                Event::DocumentStart(_, version) => {
                    self.documents += 1;
                    if self.documents > 1 || version.is_some() {
                        return Err(Bail);
                    }
                    continue;
                }
                Event::Scalar(value, style, anchor, tag) => {
                    if tag.is_some() {
                        return Err(Bail);
                    }
                    self.scalar_bytes += value.len();
                    self.node()?;
                    self.anchors.scalar(*anchor, value, *style, &self.budget)?;
                }
                Event::SequenceStart(_, anchor, tag) | Event::MappingStart(_, anchor, tag) => {
                    if tag.is_some() {
                        return Err(Bail);
                    }
                    self.node()?;
                    self.depth += 1;
                    if self.depth > self.budget.max_depth {
                        return Err(Bail);
                    }
                    self.anchors
                        .start(*anchor, self.depth, self.cost(), &self.budget)?;
                }
                Event::SequenceEnd | Event::MappingEnd => {
                    self.depth -= 1;
                    self.anchors.end(&self.budget)?;
                }
                // Charged where it is expanded (`alias`).
                Event::Alias(_) => {}
                _ => return Err(Bail),
            }
            let loc = self.loc(&span);
            return Ok(Some((event, loc)));
        }
    }

    fn cost(&self) -> Cost {
        Cost::so_far(self.events, self.nodes, self.scalar_bytes)
    }

    /// The node an alias stands for, its copy charged to the budget.
    fn alias(&mut self, id: usize, loc: Loc) -> Read<Node> {
        let (node, cost) = self
            .anchors
            .alias(id, loc, self.depth, self.cost(), &self.budget)?;
        self.events += cost.events;
        self.nodes += cost.nodes;
        self.scalar_bytes += cost.scalar_bytes;
        Ok(node)
    }

    fn node(&mut self) -> Read<()> {
        self.nodes += 1;
        if self.nodes > self.budget.max_nodes
            || self.scalar_bytes > self.budget.max_total_scalar_bytes
        {
            return Err(Bail);
        }
        Ok(())
    }

    /// The next event, which must exist (the parser ends every node it
    /// starts; a truncated stream is left to serde-saphyr).
    fn expect(&mut self) -> Read<(Event<'t>, Loc)> {
        self.next()?.ok_or(Bail)
    }

    /// The node that `first` starts, read to its end.
    fn node_from(&mut self, first: (Event<'t>, Loc)) -> Read<Node> {
        let mut stack: Vec<Open> = Vec::new();
        let mut event = first;
        loop {
            let (ev, loc) = event;
            let done = match ev {
                Event::Scalar(text, style, ..) => Node::new(typed(text, style)?, loc),
                Event::Alias(id) => self.alias(id, loc)?,
                Event::SequenceStart(..) => {
                    stack.push(Open::Seq(loc, Vec::new()));
                    event = self.expect()?;
                    continue;
                }
                Event::MappingStart(..) => {
                    stack.push(Open::Map(loc, Keys::default(), None));
                    event = self.expect()?;
                    continue;
                }
                Event::SequenceEnd => match stack.pop() {
                    Some(Open::Seq(loc, mut items)) => {
                        items.shrink_to_fit();
                        Node::new(Value::Seq(items), loc)
                    }
                    _ => return Err(Bail),
                },
                Event::MappingEnd => match stack.pop() {
                    Some(Open::Map(loc, keys, None)) => Node::new(
                        Value::Map(self.anchors.merged(self.depth + 1, keys.into_entries())?),
                        loc,
                    ),
                    _ => return Err(Bail),
                },
                _ => return Err(Bail),
            };
            self.anchors.complete(&done, self.depth, self.cost());
            match stack.last_mut() {
                None => return Ok(done),
                Some(Open::Seq(_, items)) => items.push(done),
                Some(Open::Map(_, keys, pending)) => match pending.take() {
                    None => {
                        if !self.anchors.merge_key(&done) {
                            keys.check(&done)?;
                        }
                        *pending = Some(done);
                    }
                    // Only a merge key passes the check as `<<`.
                    Some(key) if plain_key(&key).is_err() => {
                        self.anchors.merge(self.depth, done)?
                    }
                    Some(key) => keys.entries.push((key, done)),
                },
            }
            event = self.expect()?;
        }
    }

    /// After the document's root: the stream must end (a second document
    /// is left to serde-saphyr, which refuses it in its words).
    fn finish(&mut self) -> Read<()> {
        match self.next()? {
            None => Ok(()),
            Some(_) => Err(Bail),
        }
    }
}

/// A collection being read.
enum Open {
    Seq(Loc, Vec<Node>),
    /// A mapping, with the key whose value is being read.
    Map(Loc, Keys, Option<Node>),
}

/// The entries of a mapping, with the check serde-saphyr makes on keys.
#[derive(Default)]
struct Keys {
    entries: Vec<(Node, Node)>,
    /// The keys of a large mapping, to find a duplicate without a scan
    /// per key.
    seen: Option<KeySet>,
}

/// Mappings with more entries than this are checked by hash.
const SCAN_KEYS: usize = 16;

/// The keys of a mapping read entry by entry (the top level, a section),
/// for the duplicate check: only a 64-bit hash of each key is kept, so a
/// section of 76,000 ids costs no string copy per key and a table of 8-byte
/// entries instead of 24-byte strings pointing all over the heap. Two keys
/// with the same hash bail, which is always safe: serde-saphyr then reads
/// the file and tells a duplicate from a collision.
#[derive(Default)]
struct KeySet {
    hashes: crate::hash::IdSet<u64>,
    hasher: crate::hash::IdBuild,
}

impl KeySet {
    fn check(&mut self, key: &Node) -> Read<()> {
        use std::hash::BuildHasher;
        let h = self.hasher.hash_one(plain_key(key)?);
        if self.hashes.insert(h) {
            Ok(())
        } else {
            Err(Bail)
        }
    }
}

/// A key the fast reader accepts: a string, not `<<`. Others (numbers,
/// null, containers, merge keys) are left to serde-saphyr, as duplicates
/// are.
fn plain_key(key: &Node) -> Read<&str> {
    match &key.value {
        Value::Str(k) if k != "<<" => Ok(k),
        _ => Err(Bail),
    }
}

impl Keys {
    fn check(&mut self, key: &Node) -> Read<()> {
        if let Some(seen) = &mut self.seen {
            return seen.check(key);
        }
        let k = plain_key(key)?;
        let same = |(e, _): &(Node, Node)| matches!(&e.value, Value::Str(s) if s == k);
        if self.entries.iter().any(same) {
            return Err(Bail);
        }
        if self.entries.len() >= SCAN_KEYS {
            let mut seen = KeySet::default();
            for (e, _) in &self.entries {
                seen.check(e)?;
            }
            seen.check(key)?;
            self.seen = Some(seen);
        }
        Ok(())
    }

    fn into_entries(mut self) -> Vec<(Node, Node)> {
        self.entries.shrink_to_fit();
        self.entries
    }
}

/// An untagged scalar typed as [`typed`] types it, its text still the
/// parser's (borrowed from the file where it has no escape or folding):
/// the direct reader parses most scalars right away (field names,
/// durations, choices) and copies only the text the model keeps.
#[derive(Debug, Clone, PartialEq)]
pub enum Typed<'t> {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(Cow<'t, str>),
}

impl Typed<'_> {
    pub fn into_value(self) -> Value {
        match self {
            Typed::Null => Value::Null,
            Typed::Bool(b) => Value::Bool(b),
            Typed::Int(i) => Value::Int(i),
            Typed::Float(f) => Value::Float(f),
            Typed::Str(s) => Value::Str(s.into_owned()),
        }
    }
}

/// An untagged scalar's value by serde-saphyr's rules for an untyped
/// target (`deserialize_any`): null, YAML 1.1 booleans, decimal integers,
/// finite floats, else text. Quoted and block scalars are text.
pub fn typed(text: Cow<str>, style: ScalarStyle) -> Read<Value> {
    typed_scalar(text, style).map(Typed::into_value)
}

/// [`typed`], the text left as the parser gave it.
pub fn typed_scalar(text: Cow<str>, style: ScalarStyle) -> Read<Typed> {
    if style != ScalarStyle::Plain {
        return Ok(Typed::Str(text));
    }
    let t: &str = &text;
    if matches!(t, "" | "~" | "null" | "Null" | "NULL") {
        return Ok(Typed::Null);
    }
    if let Some(b) = yaml11_bool(t) {
        return Ok(Typed::Bool(b));
    }
    Ok(match number(t)? {
        Some(Value::Int(i)) => Typed::Int(i),
        Some(Value::Float(f)) => Typed::Float(f),
        _ => Typed::Str(text),
    })
}

/// serde-saphyr's YAML 1.1 booleans (`strict_booleans` is off).
fn yaml11_bool(t: &str) -> Option<bool> {
    let is = |w: &[&str]| w.iter().any(|x| t.eq_ignore_ascii_case(x));
    if is(&["true", "yes", "y", "on"]) {
        Some(true)
    } else if is(&["false", "no", "n", "off"]) {
        Some(false)
    } else {
        None
    }
}

/// A plain scalar read as a number, `None` for text; the rarer spellings
/// (and anything whose reading depends on serde-saphyr's finer rules) bail.
fn number(t: &str) -> Read<Option<Value>> {
    // Padding is trimmed by serde-saphyr before typing; plain scalars
    // rarely carry any.
    if t.trim_matches([' ', '\t', '\r', '\n']) != t {
        return Err(Bail);
    }
    let negative = t.starts_with('-');
    let unsigned = t.strip_prefix('-').unwrap_or(t);
    let first = unsigned.bytes().next();
    let digit_first = first.is_some_and(|b| b.is_ascii_digit());
    let radix = ["0x", "0X", "0o", "0O", "0b", "0B"]
        .iter()
        .any(|p| unsigned.starts_with(p));
    if t.starts_with('+') || radix || (digit_first && t.contains('_')) {
        return Err(Bail);
    }
    if digit_first && unsigned.bytes().all(|b| b.is_ascii_digit()) {
        // Leading zeros and values near the 64-bit range follow rules of
        // their own (floats, or "integer too large").
        if (unsigned.len() > 1 && unsigned.starts_with('0')) || unsigned.len() > 18 {
            return Err(Bail);
        }
        let v: i64 = unsigned.parse().map_err(|_| Bail)?;
        return Ok(Some(Value::Int(if negative { -v } else { v })));
    }
    if matches!(
        unsigned,
        ".nan" | ".NaN" | ".NAN" | ".inf" | ".Inf" | ".INF"
    ) {
        return Err(Bail);
    }
    match t.parse::<f64>() {
        Ok(f) if f.is_finite() => Ok(Some(Value::Float(f))),
        Ok(_) => Err(Bail),
        Err(_) => Ok(None),
    }
}

/// The whole document as one tree, as [`super::yaml::parse`] gives it.
/// An empty stream is left to serde-saphyr (which gives its null a place
/// of its own).
pub fn parse(text: &str, file: u32, limits: &Limits) -> Read<Node> {
    let mut ev = Events::new(text, file, limits)?;
    let first = ev.expect()?;
    let root = ev.node_from(first)?;
    ev.finish()?;
    Ok(root)
}

/// What [`stream_to`] hands a document's pieces to: every piece but the
/// entries of a section as [`Piece`]s, and each entry as its key and a
/// [`Cursor`] on its value, which the sink reads to its end.
pub trait Sink {
    fn piece(&mut self, piece: Piece);
    fn entry(&mut self, key: Node, value: &mut Cursor) -> Read<()>;
}

/// A [`Sink`] of pieces only: each entry's value read into a tree.
struct Pieces<'s>(&'s mut dyn FnMut(Piece));

impl Sink for Pieces<'_> {
    fn piece(&mut self, piece: Piece) {
        (self.0)(piece)
    }

    fn entry(&mut self, key: Node, value: &mut Cursor) -> Read<()> {
        let first = value.0.expect()?;
        let value = value.0.node_from(first)?;
        (self.0)(Piece::Entry(&key, &value));
        Ok(())
    }
}

/// The document piece by piece, as [`super::yaml::stream`] hands it over:
/// the entries of the top-level `sections` one at a time. On [`Bail`] the
/// sink may have seen some pieces of the document already; the caller
/// discards what it read of them.
pub fn stream(
    text: &str,
    file: u32,
    limits: &Limits,
    sections: &[&str],
    sink: &mut dyn FnMut(Piece),
) -> Read<()> {
    stream_to(text, file, limits, sections, &mut Pieces(sink))
}

/// [`stream`] with each section entry's value left to the sink to read
/// from the events ([`Sink::entry`]).
pub fn stream_to(
    text: &str,
    file: u32,
    limits: &Limits,
    sections: &[&str],
    sink: &mut dyn Sink,
) -> Read<()> {
    let mut ev = Events::new(text, file, limits)?;
    let first = ev.expect()?;
    if !matches!(first.0, Event::MappingStart(..)) {
        let mut doc = ev.node_from(first)?;
        ev.finish()?;
        doc.loc = Loc {
            file,
            line: 1,
            col: 1,
        };
        sink.piece(Piece::Document(&doc));
        return Ok(());
    }
    // An anchored mapping read piece by piece is never finished as one
    // node (neither is a section's below).
    if first.0.anchor_id().is_some() {
        return Err(Bail);
    }
    let mut top = KeySet::default();
    loop {
        let next = ev.expect()?;
        if matches!(next.0, Event::MappingEnd) {
            break;
        }
        let key = ev.node_from(next)?;
        top.check(&key)?;
        let value = ev.expect()?;
        let streamed = matches!(&key.value, Value::Str(s) if sections.contains(&s.as_str()));
        match value.0 {
            Event::MappingStart(_, anchor, _) if streamed => {
                if anchor != 0 {
                    return Err(Bail);
                }
                sink.piece(Piece::Section(&key));
                section(&mut ev, sink)?;
            }
            _ => {
                let mut value = ev.node_from(value)?;
                if streamed {
                    // A section that is not a mapping is placed at its key.
                    value.loc = key.loc;
                }
                sink.piece(Piece::Field(&key, &value));
            }
        }
    }
    ev.finish()
}

/// The entries of a section, each handed over and read by the sink.
fn section(ev: &mut Events, sink: &mut dyn Sink) -> Read<()> {
    let mut keys = KeySet::default();
    loop {
        let next = ev.expect()?;
        if matches!(next.0, Event::MappingEnd) {
            return Ok(());
        }
        let key = ev.node_from(next)?;
        keys.check(&key)?;
        sink.entry(key, &mut Cursor(ev))?;
    }
}

/// One event of a section entry's value, as [`Cursor::token`] gives it.
pub enum Token<'t> {
    /// An untagged, unanchored scalar: its text and style (a plain one is
    /// typed by [`typed`], others are text).
    Scalar(Cow<'t, str>, ScalarStyle, Loc),
    MapStart(Loc),
    SeqStart(Loc),
    MapEnd,
    SeqEnd,
}

/// The events of one section entry's value, under the document's budget.
pub struct Cursor<'e, 't>(&'e mut Events<'t>);

impl<'t> Cursor<'_, 't> {
    /// The next event; an anchor or an alias bails (what they stand for is
    /// the tree reader's to copy).
    pub fn token(&mut self) -> Read<Token<'t>> {
        let (event, loc) = self.0.expect()?;
        if event.anchor_id().is_some() {
            return Err(Bail);
        }
        Ok(match event {
            Event::Scalar(text, style, ..) => Token::Scalar(text, style, loc),
            Event::MappingStart(..) => Token::MapStart(loc),
            Event::SequenceStart(..) => Token::SeqStart(loc),
            Event::MappingEnd => Token::MapEnd,
            Event::SequenceEnd => Token::SeqEnd,
            _ => return Err(Bail),
        })
    }

    /// The next node, read as the tree reader reads it and dropped (an
    /// entry whose id is refused is not read further).
    pub fn skip(&mut self) -> Read<()> {
        let first = self.0.expect()?;
        self.0.node_from(first).map(drop)
    }
}

#[cfg(test)]
#[path = "yaml_events_tests.rs"]
pub(super) mod tests;
