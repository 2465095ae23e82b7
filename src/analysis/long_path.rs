//! Worst paths of any length in bounded output: a path of more than
//! [`SHOW_ALL`] steps is shown as its first [`HEAD`] and last [`TAIL`] steps
//! with the count and the sum of the steps between, so that a ring of 5,000
//! redriven queues gives 5,000 rows of 17 lines instead of 12.5 million lines.
//!
//! [`PathIndex`] walks every state's back-pointer once (depth, sums, the
//! state after the first [`HEAD`] steps, the latest unbounded step), so each
//! row then costs O([`HEAD`] + [`TAIL`]) instead of the length of its path.

use std::collections::HashMap;

use super::paths::Paths;
use super::paths::Step;
use super::result::{Analysis, IntentResult};
use super::state::Via;
use crate::time::Dur;

/// Paths of at most this many steps are shown whole.
pub const SHOW_ALL: usize = 20;
/// Steps shown before the elided ones.
pub const HEAD: usize = 8;
/// Steps shown after the elided ones.
pub const TAIL: usize = 8;
/// Unbounded steps named by [`PathIndex::unbounded_steps`] at most.
pub const UNBOUNDED_SHOWN: usize = 8;

/// The steps left out of a long path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Elided {
    /// How many steps of the path come before the elided ones.
    pub after_step: usize,
    /// How many steps are left out.
    pub steps: usize,
    /// What the left-out steps add together.
    pub adds: Dur,
}

/// A worst path, whole (`elided` is `None`, every step in `head`) or
/// as its ends.
#[derive(Debug, Clone, Default)]
pub struct PathView {
    pub head: Vec<Step>,
    pub elided: Option<Elided>,
    pub tail: Vec<Step>,
}

impl PathView {
    /// The shown steps in order.
    pub fn steps(&self) -> impl Iterator<Item = &Step> {
        self.head.iter().chain(&self.tail)
    }
}

/// Per state of one intent's run: what a row needs to show a path of any
/// length in bounded work.
#[derive(Debug, Clone, Copy)]
struct Entry {
    /// Steps from the origin (or the entering replay) to the state.
    depth: usize,
    /// Finite milliseconds added along the path (u128: 2^64 steps of u64 fit).
    finite: u128,
    /// Unbounded steps along the path.
    unbounded: usize,
    /// The state reached after the first [`HEAD`] steps.
    anchor: Option<usize>,
    /// The latest state at or before this one whose incoming step adds an
    /// unbounded delay.
    last_unbounded: Option<usize>,
}

/// The entry of the origin (or of a state entered by a replay).
const ROOT: Entry = Entry {
    depth: 0,
    finite: 0,
    unbounded: 0,
    anchor: None,
    last_unbounded: None,
};

/// Worst-path summaries of every state of one intent's run.
pub struct PathIndex<'a> {
    r: &'a IntentResult,
    paths: Paths<'a>,
    entries: Vec<Entry>,
}

impl IntentResult {
    /// An index over this intent's worst paths (linear in its states).
    pub fn path_index<'a>(&'a self, a: &'a Analysis) -> PathIndex<'a> {
        let paths = self.paths(a);
        let entries = index(&paths);
        PathIndex {
            r: self,
            paths,
            entries,
        }
    }
}

/// The incoming step of state `s` as (previous state, via), the way
/// [`Paths::back_walk`] takes it: none at the origin, no previous state
/// after a replay.
fn incoming(p: &Paths, s: usize) -> Option<(Option<usize>, Via)> {
    let (prev, via) = p.backs[s].back()?;
    match via {
        Via::Origin => None,
        Via::Replay(_) => Some((None, via)),
        _ => Some((Some(prev), via)),
    }
}

/// What the step into `s` adds, without writing its explanation.
fn adds(p: &Paths, s: usize, via: Via) -> Dur {
    match via {
        Via::Edge(e) => p.model.edges[e as usize].delay(),
        Via::Failover => p.backs[s]
            .back()
            .and_then(|(prev, _)| p.model.nodes[p.backs[prev].comp].failover.as_ref())
            .map_or(Dur::ZERO, |f| f.2),
        Via::Replay(ri) => p.intent.replays[ri as usize].within.value,
        Via::Fanout | Via::Origin => Dur::ZERO,
    }
}

/// Fills one [`Entry`] per state, each from its predecessor's, with an
/// explicit stack (paths may be as long as the number of states). A
/// malformed cycle of back-pointers ends where it closes.
fn index(p: &Paths) -> Vec<Entry> {
    let n = p.backs.len();
    let mut entries: Vec<Option<Entry>> = vec![None; n];
    let mut marked = vec![false; n];
    let mut stack = Vec::new();
    for start in 0..n {
        let mut s = start;
        // Down to a state already done (or the origin), marking the way.
        while !marked[s] {
            marked[s] = true;
            stack.push(s);
            match incoming(p, s) {
                Some((Some(prev), _)) => s = prev,
                _ => break,
            }
        }
        // Back up, each state from its predecessor's (the root where the
        // predecessor is still on the way: a cycle).
        while let Some(s) = stack.pop() {
            entries[s] = Some(match incoming(p, s) {
                None => ROOT,
                Some((prev, via)) => {
                    let before = prev.and_then(|q| entries[q]).unwrap_or(ROOT);
                    step_entry(before, s, adds(p, s, via))
                }
            });
        }
    }
    entries.into_iter().map(|e| e.unwrap_or(ROOT)).collect()
}

fn step_entry(before: Entry, s: usize, adds: Dur) -> Entry {
    let depth = before.depth + 1;
    Entry {
        depth,
        finite: before.finite + u128::from(adds.as_ms().unwrap_or(0)),
        unbounded: before.unbounded + usize::from(adds.is_unbounded()),
        anchor: if depth == HEAD {
            Some(s)
        } else {
            before.anchor
        },
        last_unbounded: if adds.is_unbounded() {
            Some(s)
        } else {
            before.last_unbounded
        },
    }
}

/// What the steps after `from` up to `to` add (`from` before `to` on one path).
fn between(from: Entry, to: Entry) -> Dur {
    if to.unbounded > from.unbounded {
        return Dur::Unbounded;
    }
    u64::try_from(to.finite - from.finite).map_or(Dur::Unbounded, Dur::ms)
}

impl PathIndex<'_> {
    /// The worst path to component `c`, elided past [`SHOW_ALL`] steps.
    pub fn view(&self, c: usize) -> PathView {
        let Some(s) = self.r.worst_state(c) else {
            return PathView::default();
        };
        let e = self.entries[s];
        let depth = e.depth;
        let Some(anchor) = e.anchor.filter(|_| depth > SHOW_ALL) else {
            return PathView {
                head: self.paths.path_to(s),
                ..PathView::default()
            };
        };
        let mut tail: Vec<Step> = Vec::with_capacity(TAIL);
        let mut t = s;
        for (p, to, via) in self.paths.back_walk(s).take(TAIL) {
            tail.push(match via {
                Via::Replay(ri) => self.paths.replay_step(to, ri),
                _ => self.paths.step(p, to, via),
            });
            t = p;
        }
        tail.reverse();
        PathView {
            head: self.paths.path_to(anchor),
            elided: Some(Elided {
                after_step: HEAD,
                steps: depth - HEAD - tail.len(),
                adds: between(self.entries[anchor], self.entries[t]),
            }),
            tail,
        }
    }

    /// The last [`UNBOUNDED_SHOWN`] steps with an unbounded delay on the
    /// worst path to `c`, in path order, each with its edge, and how many
    /// such steps the path has in all.
    pub fn unbounded_steps(&self, c: usize) -> (Vec<(Step, Option<usize>)>, usize) {
        let Some(s) = self.r.worst_state(c) else {
            return (Vec::new(), 0);
        };
        let total = self.entries[s].unbounded;
        let mut out = Vec::new();
        let mut x = self.entries[s].last_unbounded;
        while let Some(to) = x
            && out.len() < UNBOUNDED_SHOWN
        {
            let Some((prev, via)) = incoming(&self.paths, to) else {
                break;
            };
            let step = match (via, prev) {
                (Via::Replay(ri), _) => self.paths.replay_step(to, ri),
                (_, Some(prev)) => self.paths.step(prev, to, via),
                (_, None) => break,
            };
            let edge = match via {
                Via::Edge(e) => Some(e as usize),
                _ => None,
            };
            out.push((step, edge));
            x = prev.and_then(|q| self.entries[q].last_unbounded);
        }
        out.reverse();
        (out, total)
    }

    /// The ids along a [`PathView`]: the head's, then the tail's.
    pub fn view_ids(&self, origin: usize, v: &PathView) -> Vec<String> {
        let m = self.paths.manifest;
        let mut ids = IntentResult::path_ids(m, origin, &v.head);
        if !v.tail.is_empty() {
            ids.extend(IntentResult::path_ids(m, origin, &v.tail));
        }
        ids
    }
}

/// For each (from, to) component pair, the first edge between them with an
/// unbounded delay (what `whatif::bounds` looked for edge by edge).
pub fn first_unbounded_edges(a: &Analysis) -> HashMap<(usize, usize), usize> {
    let mut map = HashMap::new();
    for (i, e) in a.model.edges.iter().enumerate() {
        if e.delay().is_unbounded() {
            map.entry((e.from(), e.to())).or_insert(i);
        }
    }
    map
}
