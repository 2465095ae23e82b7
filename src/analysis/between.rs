//! The components an intent's run covers: those between its seeds (its
//! origin and where its declared replays enter) and its effects, that is
//! reachable from a seed over copy edges and leading to an effect. A
//! component off that way cannot change what reaches an effect (a copy
//! that leaves it never comes back, or it would lead to the effect), so
//! the run leaves it out: one topic with an intent per subscriber then
//! costs each intent its own subscriber, not all of them.
//!
//! Both sets are found by walks over the flat edge lists, in lock step,
//! one edge each at a time: the first to finish bounds the other, which
//! then walks only inside it. An intent so costs at most twice the smaller
//! of what its seeds reach and what reaches its effects, plus its region;
//! nothing here is sized by the whole graph except the marks, which are
//! allocated once per analysis and reset only where an intent set them.

use super::model::Model;
use crate::graph::Adjacency;
use crate::manifest::model::{Intent, Manifest};

/// What every intent's region is computed with, made once per analysis:
/// which components lead to some intent's effect, the edges into those
/// that lead to none, and marks indexed by component that each intent
/// puts back where it set them ([`Between::release`]).
pub(super) struct Marks {
    /// Leads over copy edges to an effect of some intent.
    leads: Vec<bool>,
    /// Each node's edges into components that lead to no intent's effect.
    dead_out: Adjacency,
    fwd: Vec<bool>,
    bwd: Vec<bool>,
    /// In the region, where `fwd` marks what the seeds reach.
    inside: Vec<bool>,
    /// A node's place in the set being grouped or the [`Between`] being
    /// built, or `NONE`.
    slot: Vec<Option<usize>>,
}

impl Marks {
    /// Node `c`'s place in the set being grouped (it must be in it).
    fn place(&self, c: usize) -> usize {
        self.slot[c].expect("a node of the set being grouped")
    }

    pub(super) fn new(m: &Manifest, model: &Model) -> Marks {
        let n = model.nodes.len();
        let mut leads = vec![false; n];
        let effects: Vec<usize> = m
            .intents
            .iter()
            .flat_map(|i| i.effects.iter().filter_map(|e| e.index()))
            .collect();
        let mut all = Walk::new(Dir::Backward, &effects, &mut leads);
        all.finish(model, |c| (model.into.of(c), &[]), |_| true, &mut leads);
        let dead: Vec<usize> = (0..model.edges.len())
            .filter(|&e| !leads[model.edges[e].to()])
            .collect();
        Marks {
            dead_out: Adjacency::grouped(&dead, n, |e| model.edges[e].from()),
            leads,
            fwd: vec![false; n],
            bwd: vec![false; n],
            inside: vec![false; n],
            slot: vec![None; n],
        }
    }

    /// Puts back the marks of `nodes`.
    fn clear(&mut self, nodes: &[usize]) {
        for &c in nodes {
            self.fwd[c] = false;
            self.bwd[c] = false;
            self.inside[c] = false;
            self.slot[c] = None;
        }
    }
}

/// The region of one intent: its components (ascending) and, for each,
/// its copy edges that stay inside, in the order of [`Model::out`].
pub(super) struct Between {
    pub(super) nodes: Vec<usize>,
    /// Each node's edges inside the region, by its place in `nodes`.
    edges: Adjacency,
}

/// Which way a walk follows the edges.
#[derive(Clone, Copy, PartialEq)]
enum Dir {
    Forward,
    Backward,
}

/// A node's edges in a walk's direction, as two lists.
type Lists<'a> = (&'a [usize], &'a [usize]);

/// A depth-first walk taken one edge at a time, so that two can go in
/// lock step. `edges` are the edges it followed: every edge of each node
/// it visited, in its direction, to a node it accepts.
struct Walk {
    dir: Dir,
    stack: Vec<usize>,
    cur: Option<(usize, usize)>,
    nodes: Vec<usize>,
    edges: Vec<usize>,
}

impl Walk {
    fn new(dir: Dir, seeds: &[usize], seen: &mut [bool]) -> Walk {
        let mut w = Walk {
            dir,
            stack: Vec::new(),
            cur: None,
            nodes: Vec::new(),
            edges: Vec::new(),
        };
        for &s in seeds {
            if !std::mem::replace(&mut seen[s], true) {
                w.nodes.push(s);
                w.stack.push(s);
            }
        }
        w
    }

    /// One step: the next edge of the node being expanded, or the next
    /// node. False once there is nothing left. `adj` gives a node's edges
    /// in this walk's direction; `accept`, the nodes it may enter.
    fn step<'a>(
        &mut self,
        model: &Model,
        adj: impl Fn(usize) -> Lists<'a>,
        accept: impl Fn(usize) -> bool,
        seen: &mut [bool],
    ) -> bool {
        let Some((n, k)) = self.cur else {
            self.cur = self.stack.pop().map(|n| (n, 0));
            return self.cur.is_some();
        };
        let (a, b) = adj(n);
        let Some(&e) = a.get(k).or_else(|| b.get(k - a.len().min(k))) else {
            self.cur = None;
            return true;
        };
        self.cur = Some((n, k + 1));
        let em = &model.edges[e];
        let w = if self.dir == Dir::Forward {
            em.to()
        } else {
            em.from()
        };
        if !accept(w) {
            return true;
        }
        self.edges.push(e);
        if !std::mem::replace(&mut seen[w], true) {
            self.nodes.push(w);
            self.stack.push(w);
        }
        true
    }

    fn finish<'a>(
        &mut self,
        model: &Model,
        adj: impl Fn(usize) -> Lists<'a>,
        accept: impl Fn(usize) -> bool,
        seen: &mut [bool],
    ) {
        while self.step(model, &adj, &accept, seen) {}
    }
}

impl Between {
    /// The region of `intent`, with `seeds` its origin and replay entries:
    /// the components reachable from a seed through components that lead
    /// to one of its effects or to no intent's effect at all (a dead-letter
    /// queue that is not redriven, a ledger written on the way). A branch
    /// that leads only to other intents' effects is theirs. An intent with
    /// an effect that names no component (or with none) covers all its
    /// seeds reach, as there is no effect to bound it.
    pub(super) fn of(
        model: &Model,
        intent: &Intent,
        seeds: &[usize],
        marks: &mut Marks,
    ) -> Between {
        let out = |c: usize| -> Lists { (&model.out[c], &[]) };
        let into = |c: usize| -> Lists { (model.into.of(c), &[]) };
        let effects: Option<Vec<usize>> = intent.effects.iter().map(|e| e.index()).collect();
        let mut fwd = Walk::new(Dir::Forward, seeds, &mut marks.fwd);
        let effects = match effects {
            Some(e) if !e.is_empty() => e,
            _ => {
                fwd.finish(model, out, |_| true, &mut marks.fwd);
                marks.clear(&fwd.nodes);
                return Between::build(model, fwd.nodes, fwd.edges, marks);
            }
        };
        let mut bwd = Walk::new(Dir::Backward, &effects, &mut marks.bwd);
        let forward_done = loop {
            if !fwd.step(model, out, |_| true, &mut marks.fwd) {
                break true;
            }
            if !bwd.step(model, into, |_| true, &mut marks.bwd) {
                break false;
            }
        };
        let region = if forward_done {
            inside_reach(model, &fwd, &bwd, &effects, seeds, marks)
        } else {
            inside_ancestors(model, &fwd, &bwd, seeds, marks)
        };
        marks.clear(&fwd.nodes);
        marks.clear(&bwd.nodes);
        marks.clear(&region.nodes);
        Between::build(model, region.nodes, region.edges, marks)
    }

    /// The region of `nodes` (no mark set on them) with its `edges`, each
    /// node's in the order of [`Model::out`].
    fn build(
        model: &Model,
        mut nodes: Vec<usize>,
        mut edges: Vec<usize>,
        marks: &mut Marks,
    ) -> Between {
        nodes.sort_unstable();
        for (i, &c) in nodes.iter().enumerate() {
            marks.slot[c] = Some(i);
        }
        edges.sort_unstable_by_key(|&e| {
            let em = &model.edges[e];
            (em.from(), em.to(), em.ty, e)
        });
        let g = Adjacency::grouped(&edges, nodes.len(), |e| marks.place(model.edges[e].from()));
        Between { nodes, edges: g }
    }

    /// The region's edges (from, edge), by source, each source's in the
    /// order of [`Model::out`].
    pub(super) fn edge_list(&self) -> Box<[(usize, usize)]> {
        let mut out = Vec::new();
        for (i, &c) in self.nodes.iter().enumerate() {
            out.extend(self.edges.of(i).iter().map(|&e| (c, e)));
        }
        out.into_boxed_slice()
    }

    /// Whether component `c` is in the region.
    pub(super) fn contains(&self, c: usize) -> bool {
        self.nodes.binary_search(&c).is_ok()
    }

    /// Puts back every mark the region set.
    pub(super) fn release(&self, marks: &mut Marks) {
        marks.clear(&self.nodes);
    }
}

/// The region when the ancestors of the effects (`bwd`, finished) are
/// known: the walk from the seeds over their edges (each ancestor's edges
/// to another, which `bwd` followed) and the edges into dead ends.
fn inside_ancestors(
    model: &Model,
    fwd: &Walk,
    bwd: &Walk,
    seeds: &[usize],
    marks: &mut Marks,
) -> Walk {
    for &c in &fwd.nodes {
        marks.fwd[c] = false;
    }
    for (i, &c) in bwd.nodes.iter().enumerate() {
        marks.slot[c] = Some(i);
    }
    let slot = &marks.slot;
    let place = |c: usize| slot[c].expect("an ancestor");
    let among = Adjacency::grouped(&bwd.edges, bwd.nodes.len(), |e| {
        place(model.edges[e].from())
    });
    let (leads, ancestor) = (&marks.leads, &marks.bwd);
    let open = |c: usize| ancestor[c] || !leads[c];
    let starts: Vec<usize> = seeds.iter().copied().filter(|&c| open(c)).collect();
    let mut walk = Walk::new(Dir::Forward, &starts, &mut marks.fwd);
    let dead = &marks.dead_out;
    let adj = |c: usize| -> Lists {
        let own: &[usize] = if ancestor[c] { among.of(place(c)) } else { &[] };
        (own, dead.of(c))
    };
    walk.finish(model, adj, |_| true, &mut marks.fwd);
    walk
}

/// The region when what the seeds reach (`fwd`, finished) is known: the
/// ancestors of the effects among it, then the walk from the seeds inside
/// it to those and to dead ends.
fn inside_reach(
    model: &Model,
    fwd: &Walk,
    bwd: &Walk,
    effects: &[usize],
    seeds: &[usize],
    marks: &mut Marks,
) -> Walk {
    for &c in &bwd.nodes {
        marks.bwd[c] = false;
    }
    for (i, &c) in fwd.nodes.iter().enumerate() {
        marks.slot[c] = Some(i);
    }
    let n = fwd.nodes.len();
    let slot = &marks.slot;
    let place = |c: usize| slot[c].expect("reached from the seeds");
    let into = Adjacency::grouped(&fwd.edges, n, |e| place(model.edges[e].to()));
    let from = Adjacency::grouped(&fwd.edges, n, |e| place(model.edges[e].from()));
    let reached = &marks.fwd;
    let ends: Vec<usize> = effects.iter().copied().filter(|&c| reached[c]).collect();
    let mut back = Walk::new(Dir::Backward, &ends, &mut marks.bwd);
    back.finish(
        model,
        |c| (into.of(place(c)), &[]),
        |_| true,
        &mut marks.bwd,
    );
    let (leads, ancestor) = (&marks.leads, &marks.bwd);
    let open = |c: usize| ancestor[c] || !leads[c];
    let starts: Vec<usize> = seeds.iter().copied().filter(|&c| open(c)).collect();
    let mut walk = Walk::new(Dir::Forward, &starts, &mut marks.inside);
    let adj = |c: usize| -> Lists { (from.of(place(c)), &[]) };
    walk.finish(model, adj, open, &mut marks.inside);
    for &c in &back.nodes {
        marks.bwd[c] = false;
    }
    walk
}

/// The copy edges of a region's nodes that stay inside it, each node's in
/// the order of [`Model::out`]: what the run walks.
#[derive(Clone, Copy)]
pub(super) struct Out<'a> {
    pub(super) region: &'a Between,
    pub(super) marks: &'a Marks,
}

impl<'a> Out<'a> {
    /// Node `c`'s edges inside the region (`c` must be in it).
    pub(super) fn of(self, c: usize) -> &'a [usize] {
        self.region.edges.of(self.marks.place(c))
    }
}

#[cfg(test)]
#[path = "between_tests.rs"]
mod tests;
