//! Anchors, aliases and merge keys for the event reader
//! ([`super::yaml_events`]), giving what serde-saphyr gives.
//!
//! serde-saphyr records the events of every anchored node and replays them
//! at each alias; every replayed event counts against its budget (events,
//! nodes, scalar bytes, depth, merge keys) as if it were written out, and
//! every event kept for an anchor counts once per anchor open around it
//! (`max_recorded_anchor_events`, `_bytes`). Through `Spanned`, every node
//! of an alias's expansion is placed at the alias (`*name`), not at the
//! anchor. A merge key (`<<: *base`, `<<: [*a, *b]`, `<<: {inline}`) adds
//! the entries of the mapping (or of each mapping in the list, the first
//! one listed winning) after the mapping's own entries, without those whose
//! key the mapping has already: its own keys win, wherever the `<<` stands.
//! Every merged node, key and value, is placed at the merged element: at
//! its alias, or at the start of an inline mapping.
//!
//! Here the anchor table keeps the finished [`Node`] of each anchor (by the
//! parser's anchor id: a redefined name gets a new id, so a later alias
//! reads the later anchor) with the cost of replaying it. An alias is
//! charged that cost *before* the node is cloned, and anything that would
//! come anywhere near a limit ([`near`]) bails, so an alias bomb stops
//! after a few copies and serde-saphyr words the error. What bails besides:
//! an alias of an anchor not yet finished (recursion) or unknown, an anchor
//! on a merge key, a merge of anything but a mapping, null or a list of
//! those (lists nested), a merged key that is not a string.

use granit_parser::ScalarStyle;

use super::yaml::{Node, Value};
use super::yaml_events::Bail;
use crate::diagnostics::Loc;

type Read<T> = Result<T, Bail>;

/// serde-saphyr's limit on replayed events (its default alias limits,
/// which `Limits` does not change).
fn max_replayed() -> usize {
    serde_saphyr::options::AliasLimits::default().max_total_replayed_events
}

/// Whether `count` comes near `limit`: past half of it. Counts here are
/// upper bounds of serde-saphyr's, so input within half of every limit is
/// within each limit.
fn near(count: usize, limit: usize) -> bool {
    count > limit / 2
}

/// What replaying an anchored node costs serde-saphyr (or, as a running
/// total, what the document has cost so far).
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Cost {
    pub events: usize,
    pub nodes: usize,
    pub scalar_bytes: usize,
    merge_keys: usize,
    /// Levels of nesting the node spans (0 for a scalar).
    height: usize,
}

impl Cost {
    /// The running totals of the event reader.
    pub(super) fn so_far(events: usize, nodes: usize, scalar_bytes: usize) -> Cost {
        Cost {
            events,
            nodes,
            scalar_bytes,
            ..Cost::default()
        }
    }
}

/// An anchored container being read.
struct Frame {
    id: usize,
    /// The depth outside the container.
    depth: usize,
    /// The running totals before its start event.
    start: Cost,
    /// The deepest level reached inside it (replays included).
    peak: usize,
}

/// The anchor table and the merges of the mappings being read.
#[derive(Default)]
pub(super) struct Anchors {
    /// Finished anchors by anchor id.
    table: Vec<Option<(Node, Cost)>>,
    open: Vec<Frame>,
    /// The anchored scalar just read, with its bytes.
    scalar: Option<(usize, usize)>,
    /// The last scalar (or alias) read was a plain, untagged `<<`.
    merge_key: bool,
    /// Merge values of the mappings being read, with their depth.
    merges: Vec<(usize, Node)>,
    /// For each merge value being read, where its aliases start in
    /// `merge_aliases`.
    merging: Vec<usize>,
    /// The places of the aliases read inside merge values.
    merge_aliases: Vec<Loc>,
    defined: usize,
    aliases: usize,
    merge_keys: usize,
    replayed: usize,
    recorded_events: usize,
    recorded_bytes: usize,
}

impl Anchors {
    /// Whether no anchored node is being read (the common manifest has
    /// none, and pays one branch per node).
    fn idle(&self) -> bool {
        self.open.is_empty() && self.scalar.is_none()
    }

    /// A scalar event (anchor 0 for none), before its node is built.
    pub(super) fn scalar(
        &mut self,
        anchor: usize,
        text: &str,
        style: ScalarStyle,
        budget: &serde_saphyr::Budget,
    ) -> Read<()> {
        self.merge_key = style == ScalarStyle::Plain && text == "<<";
        if self.merge_key {
            if anchor != 0 {
                return Err(Bail);
            }
            self.merge_keys += 1;
            if near(self.merge_keys, budget.max_merge_keys) {
                return Err(Bail);
            }
        }
        self.record(1, text.len(), budget)?;
        if anchor != 0 {
            self.define(budget)?;
            // The scalar's own copy.
            self.recorded_events += 1;
            self.recorded_bytes += text.len();
            self.check_recorded(budget)?;
            self.scalar = Some((anchor, text.len()));
        }
        Ok(())
    }

    /// A container start event at `depth` (inside it), after the running
    /// totals `at` counted it.
    pub(super) fn start(
        &mut self,
        anchor: usize,
        depth: usize,
        at: Cost,
        budget: &serde_saphyr::Budget,
    ) -> Read<()> {
        if anchor != 0 {
            self.define(budget)?;
            self.open.push(Frame {
                id: anchor,
                depth: depth - 1,
                start: Cost {
                    events: at.events - 1,
                    nodes: at.nodes - 1,
                    scalar_bytes: at.scalar_bytes,
                    merge_keys: self.merge_keys,
                    height: 0,
                },
                peak: depth,
            });
        } else if let Some(top) = self.open.last_mut() {
            top.peak = top.peak.max(depth);
        }
        self.record(1, 0, budget)
    }

    /// A container end event.
    pub(super) fn end(&mut self, budget: &serde_saphyr::Budget) -> Read<()> {
        self.record(1, 0, budget)
    }

    fn define(&mut self, budget: &serde_saphyr::Budget) -> Read<()> {
        self.defined += 1;
        if near(self.defined, budget.max_anchors) {
            return Err(Bail);
        }
        Ok(())
    }

    /// Charges `events` events of `bytes` scalar bytes to every open anchor.
    fn record(&mut self, events: usize, bytes: usize, budget: &serde_saphyr::Budget) -> Read<()> {
        let open = self.open.len();
        if open == 0 {
            return Ok(());
        }
        self.recorded_events += events.saturating_mul(open);
        self.recorded_bytes += bytes.saturating_mul(open);
        self.check_recorded(budget)
    }

    fn check_recorded(&self, budget: &serde_saphyr::Budget) -> Read<()> {
        if near(self.recorded_events, budget.max_recorded_anchor_events)
            || near(self.recorded_bytes, budget.max_recorded_anchor_bytes)
        {
            return Err(Bail);
        }
        Ok(())
    }

    /// A node finished at `depth` (outside it), with the running totals
    /// `at`: kept if it is anchored.
    pub(super) fn complete(&mut self, node: &Node, depth: usize, at: Cost) {
        if self.idle() {
            return;
        }
        if let Some((id, bytes)) = self.scalar.take() {
            let cost = Cost {
                events: 1,
                nodes: 1,
                scalar_bytes: bytes,
                ..Cost::default()
            };
            return self.keep(id, node, cost);
        }
        if !matches!(node.value, Value::Seq(_) | Value::Map(_)) {
            return;
        }
        // An open frame at this depth is this container's: nothing else
        // finishes at its depth while it is open.
        let Some(frame) = self.open.pop_if(|f| f.depth == depth) else {
            return;
        };
        if let Some(parent) = self.open.last_mut() {
            parent.peak = parent.peak.max(frame.peak);
        }
        let cost = Cost {
            events: at.events - frame.start.events,
            nodes: at.nodes - frame.start.nodes,
            scalar_bytes: at.scalar_bytes - frame.start.scalar_bytes,
            merge_keys: self.merge_keys - frame.start.merge_keys,
            height: frame.peak - depth,
        };
        self.keep(frame.id, node, cost);
    }

    fn keep(&mut self, id: usize, node: &Node, cost: Cost) {
        if self.table.len() <= id {
            self.table.resize_with(id + 1, || None);
        }
        self.table[id] = Some((node.clone(), cost));
    }

    /// The node an alias at `loc` stands for, at `depth`, with what it
    /// costs (the caller adds it to its running totals `at`). Every limit
    /// is checked before the copy is made.
    pub(super) fn alias(
        &mut self,
        id: usize,
        loc: Loc,
        depth: usize,
        at: Cost,
        budget: &serde_saphyr::Budget,
    ) -> Read<(Node, Cost)> {
        self.merge_key = false;
        let Some(Some((node, cost))) = self.table.get(id) else {
            return Err(Bail);
        };
        let cost = *cost;
        self.aliases += 1;
        self.replayed += cost.events;
        self.merge_keys += cost.merge_keys;
        if near(self.aliases, budget.max_aliases)
            || near(self.replayed, max_replayed())
            || near(self.merge_keys, budget.max_merge_keys)
            || near(at.events + cost.events, budget.max_events)
            || near(at.nodes + cost.nodes, budget.max_nodes)
            || near(
                at.scalar_bytes + cost.scalar_bytes,
                budget.max_total_scalar_bytes,
            )
            || depth + cost.height >= budget.max_depth
        {
            return Err(Bail);
        }
        let copy = relocated(node, loc);
        if !self.merging.is_empty() {
            self.merge_aliases.push(loc);
        }
        self.record(cost.events, cost.scalar_bytes, budget)?;
        if let Some(top) = self.open.last_mut() {
            top.peak = top.peak.max(depth + cost.height);
        }
        Ok((copy, cost))
    }

    /// Whether a finished mapping key is a merge key (its value is then
    /// read as a merge value).
    pub(super) fn merge_key(&mut self, key: &Node) -> bool {
        let merge = self.merge_key && matches!(&key.value, Value::Str(k) if k == "<<");
        if merge {
            self.merging.push(self.merge_aliases.len());
        }
        merge
    }

    /// The value of a merge key of the mapping read at `depth`, kept for
    /// the mapping's end.
    ///
    /// serde-saphyr places a merged node that came through an alias at
    /// that alias, and any other at the merged element (an item of a list
    /// merged, else the value): a value that is an alias, or a list of
    /// aliases and inline mappings, gives the same; an inline mapping or
    /// list with an alias inside is left to serde-saphyr.
    pub(super) fn merge(&mut self, depth: usize, value: Node) -> Read<()> {
        let start = self.merging.pop().ok_or(Bail)?;
        let elements = match &value.value {
            Value::Map(_) | Value::Null => std::slice::from_ref(&value),
            Value::Seq(items) => items.as_slice(),
            _ => return Err(Bail),
        };
        // Each alias read in the value must be the value or an element
        // itself; both lists are in document order, so one pass checks it.
        let aliases = &self.merge_aliases[start..];
        let mut places = elements.iter().map(|e| e.loc);
        let placed =
            aliases == [value.loc] || aliases.iter().all(|loc| places.any(|place| place == *loc));
        if !placed {
            return Err(Bail);
        }
        if self.merging.is_empty() {
            self.merge_aliases.clear();
        }
        self.merges.push((depth, value));
        Ok(())
    }

    /// The entries of the mapping read at `depth` (inside it), with what
    /// its merge keys add.
    pub(super) fn merged(
        &mut self,
        depth: usize,
        mut entries: Vec<(Node, Node)>,
    ) -> Read<Vec<(Node, Node)>> {
        let first = self.merges.partition_point(|(d, _)| *d < depth);
        if first == self.merges.len() {
            return Ok(entries);
        }
        let mut seen = crate::hash::IdSet::default();
        for (k, _) in &entries {
            seen.insert(key_text(k)?.to_owned());
        }
        let mut added = Vec::new();
        for (_, value) in self.merges.drain(first..) {
            let elements = match value.value {
                Value::Seq(items) => items,
                _ => vec![value],
            };
            for mut element in elements {
                let loc = element.loc;
                relocate(&mut element, loc);
                let mut maps = Vec::new();
                mappings(element, &mut maps)?;
                for (k, v) in maps.into_iter().flatten() {
                    if seen.insert(key_text(&k)?.to_owned()) {
                        added.push((k, v));
                    }
                }
            }
        }
        entries.extend(added);
        Ok(entries)
    }
}

/// The mappings a merged element stands for, in order: itself, none for
/// a null, those of each item of a list (serde-saphyr reads lists in lists
/// the same way); anything else is an error.
fn mappings(element: Node, out: &mut Vec<Vec<(Node, Node)>>) -> Read<()> {
    match element.value {
        Value::Map(entries) => out.push(entries),
        Value::Null => {}
        Value::Seq(items) => {
            for item in items {
                mappings(item, out)?;
            }
        }
        _ => return Err(Bail),
    }
    Ok(())
}

fn key_text(key: &Node) -> Read<&str> {
    match &key.value {
        Value::Str(k) => Ok(k),
        _ => Err(Bail),
    }
}

/// A copy of `node` with every node in it placed at `loc`.
fn relocated(node: &Node, loc: Loc) -> Node {
    let mut copy = node.clone();
    relocate(&mut copy, loc);
    copy
}

/// Places every node of `node` at `loc`.
fn relocate(node: &mut Node, loc: Loc) {
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        n.loc = loc;
        match &mut n.value {
            Value::Seq(items) => stack.extend(items.iter_mut()),
            Value::Map(entries) => {
                for (k, v) in entries.iter_mut() {
                    stack.push(k);
                    stack.push(v);
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
#[path = "yaml_anchors_tests.rs"]
mod tests;
