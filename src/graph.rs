//! The dependency graph: components as nodes, links as edges.
//!
//! Node `i` is component `i` of the (sorted) manifest. Edge `e` is the
//! `e`-th link that names a component, in component order and, within a
//! component, in the order of [`Component::links`]. Each node's outgoing
//! edges are kept in two flat arrays ([`Adjacency`]).
//!
//! The graph is built from the references [`crate::manifest::validated`]
//! resolved, so no id is looked up here. The analysis walks the flat lists
//! for every state it propagates (a petgraph adjacency walk per state cost
//! a pointer chase each, and building a petgraph graph with a hash lookup
//! of every link's target took 30–36 ms at 100k components against about
//! 2 ms for the lists). The graph algorithms run on petgraph: its strongly
//! connected components ([`Components`]) order the analysis.
//!
//! A guard's `dedup` link to its store is not an edge: copies do not travel
//! along it, and the analysis reads it from the component.
//!
//! [`Component::links`]: crate::manifest::model::Component::links

use crate::manifest::model::{LinkType, Manifest};

/// One link between two components.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Edge {
    pub from: usize,
    pub to: usize,
    pub ty: LinkType,
    /// The link's position in its component's [`links`] list.
    ///
    /// [`links`]: crate::manifest::model::Component::links
    pub link: u32,
}

#[derive(Debug, Clone, Default)]
pub struct Graph {
    pub edges: Vec<Edge>,
    /// Outgoing edges of each node, by (target, link type, edge).
    pub out: Adjacency,
}

impl Graph {
    /// Builds the graph. Dangling ids were rejected by validation; a link
    /// that names none is left out.
    pub fn build(m: &Manifest) -> Graph {
        let mut edges = Vec::with_capacity(m.components.len() * 2);
        let mut start = Vec::with_capacity(m.components.len() + 1);
        for (i, c) in m.components.iter().enumerate() {
            start.push(edge_ix(edges.len()));
            for (k, l) in c.links().enumerate() {
                if let Some(j) = l.to.index() {
                    edges.push(Edge {
                        from: i,
                        to: j,
                        ty: l.ty,
                        link: u32::try_from(k).expect("fewer than 2^32 links"),
                    });
                }
            }
        }
        start.push(edge_ix(edges.len()));
        // A node's edges are contiguous already; each list is sorted so that
        // the analysis visits targets in a stable order.
        let mut order: Vec<usize> = (0..edges.len()).collect();
        for w in start.windows(2) {
            order[w[0] as usize..w[1] as usize].sort_by_key(|&e| (edges[e].to, edges[e].ty, e));
        }
        Graph {
            edges,
            out: Adjacency {
                start,
                edges: order,
            },
        }
    }

    /// The link an edge comes from.
    pub fn link<'m>(m: &'m Manifest, e: &Edge) -> &'m crate::manifest::model::Link {
        m.components[e.from]
            .links()
            .nth(e.link as usize)
            .expect("an edge's link exists")
    }
}

/// The strongly connected components of the whole graph, numbered in
/// topological order (a link never leads from a component to one with a
/// smaller number).
///
/// Computed once with petgraph's Kosaraju algorithm, whose depth-first
/// searches keep their own stack: its Tarjan recurses once per node of a
/// path, and a chain of 100k components would overflow the thread's stack.
/// An intent reaches a set closed under links, so the components it reaches
/// are whole components of this graph, in this order.
#[derive(Debug, Clone, Default)]
pub struct Components {
    /// The component of each node.
    pub of: Vec<u32>,
    /// Component `k`'s nodes are `nodes[start[k]..start[k + 1]]`, ascending.
    start: Vec<u32>,
    nodes: Vec<usize>,
}

impl Components {
    /// The nodes of component `k`, ascending.
    pub fn members(&self, k: u32) -> &[usize] {
        let k = k as usize;
        &self.nodes[self.start[k] as usize..self.start[k + 1] as usize]
    }
}

impl Graph {
    /// The strongly connected components of the graph of `n` nodes.
    pub fn components(&self, n: usize) -> Components {
        let mut g =
            petgraph::Graph::<(), (), petgraph::Directed, u32>::with_capacity(n, self.edges.len());
        for _ in 0..n {
            g.add_node(());
        }
        g.extend_with_edges(self.edges.iter().map(|e| (ix(e.from), ix(e.to))));
        let sccs = petgraph::algo::kosaraju_scc(&g);
        // Kosaraju gives the components in reverse topological order; they
        // are kept flat (one allocation, not one per component).
        let mut c = Components {
            of: vec![0; n],
            start: Vec::with_capacity(sccs.len() + 1),
            nodes: Vec::with_capacity(n),
        };
        for (k, scc) in sccs.iter().rev().enumerate() {
            let first = c.nodes.len();
            c.start.push(ix(first));
            c.nodes.extend(scc.iter().map(|x| x.index()));
            c.nodes[first..].sort_unstable();
            for &x in &c.nodes[first..] {
                c.of[x] = ix(k);
            }
        }
        c.start.push(ix(c.nodes.len()));
        c
    }
}

fn ix(i: usize) -> u32 {
    u32::try_from(i).expect("fewer than 2^32 components")
}

fn edge_ix(i: usize) -> u32 {
    u32::try_from(i).expect("fewer than 2^32 edges")
}

/// Outgoing edge lists of every node in two flat arrays (`out[c]` is node
/// `c`'s list): the analysis walks them for every state, and a vector per
/// node cost a pointer chase, and at 100k nodes a cache miss, each time.
#[derive(Debug, Clone, Default)]
pub struct Adjacency {
    /// Node `c`'s edges are `edges[start[c]..start[c + 1]]`.
    start: Vec<u32>,
    edges: Vec<usize>,
}

impl Adjacency {
    /// `items` grouped by `key` (below `n`), each group in the order of
    /// `items`: an adjacency by any end of the edges.
    pub fn grouped(items: &[usize], n: usize, key: impl Fn(usize) -> usize) -> Adjacency {
        let mut start = vec![0u32; n + 1];
        for &e in items {
            start[key(e) + 1] += 1;
        }
        for i in 0..n {
            start[i + 1] += start[i];
        }
        let mut fill: Vec<u32> = start[..n].to_vec();
        let mut edges = vec![0; items.len()];
        for &e in items {
            let slot = &mut fill[key(e)];
            edges[*slot as usize] = e;
            *slot += 1;
        }
        Adjacency { start, edges }
    }

    /// Node `c`'s list.
    pub fn of(&self, c: usize) -> &[usize] {
        &self[c]
    }
}

impl std::ops::Index<usize> for Adjacency {
    type Output = [usize];
    fn index(&self, c: usize) -> &[usize] {
        &self.edges[self.start[c] as usize..self.start[c + 1] as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A queue delivering to a worker that calls an api, with a dead
    /// letter queue that redrives to it. Sorted: api 0, dlq 1, queue 2,
    /// worker 3; dlq ⇄ queue is a cycle.
    fn sample() -> Manifest {
        crate::manifest::from_str(
            "version: 1
components:
  queue:
    kind: sqs-standard
    delivers_to: [worker]
    dead_letter: { to: dlq }
  dlq: { kind: sqs-standard, redrive: { to: queue } }
  worker: { kind: function, calls: [api] }
  api: { kind: external }
",
        )
        .unwrap_or_else(|e| panic!("{}", e.render(false)))
    }

    #[test]
    fn edges_follow_the_links_and_each_list_is_sorted_by_target() {
        let m = sample();
        let g = Graph::build(&m);
        let e = |from, to, ty, link| Edge { from, to, ty, link };
        assert_eq!(
            g.edges,
            [
                e(1, 2, LinkType::Redrive, 0),
                e(2, 3, LinkType::DeliversTo, 0),
                e(2, 1, LinkType::DeadLetter, 1),
                e(3, 0, LinkType::Calls, 0),
            ]
        );
        assert_eq!(g.out[0], [] as [usize; 0]);
        assert_eq!(g.out[1], [0]);
        // queue → dlq (1) before queue → worker (3).
        assert_eq!(g.out[2], [2, 1]);
        assert_eq!(g.out[3], [3]);
        assert_eq!(Graph::link(&m, &g.edges[2]).ty, LinkType::DeadLetter);
    }

    #[test]
    fn components_are_whole_cycles_in_topological_order() {
        let c = Graph::build(&sample()).components(4);
        assert_eq!(c.of[1], c.of[2]);
        assert_eq!(c.members(c.of[1]), [1, 2]);
        // Every link leads to the same component or a later one.
        assert!(c.of[2] < c.of[3] && c.of[3] < c.of[0]);
        assert_eq!(c.members(c.of[3]), [3]);
        assert_eq!(c.members(c.of[0]), [0]);
    }
}
