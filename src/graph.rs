//! The dependency graph: components as nodes, typed links as edges.
//!
//! Node `i` is component `i` of the (sorted) manifest. Edges borrow the link
//! they come from, so the analysis can read its retry policy and location
//! without a copy of every link.

use petgraph::graph::{DiGraph, EdgeIndex, NodeIndex};
use petgraph::visit::EdgeRef;

use crate::diagnostics::Loc;
use crate::manifest::model::{Link, LinkType, Manifest};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EdgeType {
    Link(LinkType),
    /// A guard claims keys in a store (`dedup`).
    Dedup,
}

impl EdgeType {
    pub fn name(self) -> &'static str {
        match self {
            EdgeType::Link(t) => t.field(),
            EdgeType::Dedup => "dedup",
        }
    }
}

#[derive(Debug, Clone, Copy)]
pub struct Edge<'m> {
    pub ty: EdgeType,
    pub loc: Loc,
    /// The link as written (`None` for `dedup`).
    pub link: Option<&'m Link>,
}

#[derive(Debug, Clone)]
pub struct Graph<'m> {
    pub g: DiGraph<usize, Edge<'m>>,
}

impl<'m> Graph<'m> {
    /// Builds the graph from the references `check` resolved. Dangling ids
    /// were rejected by validation; any that remain are skipped.
    pub fn build(m: &'m Manifest) -> Graph<'m> {
        let mut g = DiGraph::with_capacity(m.components.len(), m.components.len() * 2);
        for i in 0..m.components.len() {
            g.add_node(i);
        }
        for (i, c) in m.components.iter().enumerate() {
            for l in c.links() {
                if let Some(j) = l.to.index() {
                    g.add_edge(
                        NodeIndex::new(i),
                        NodeIndex::new(j),
                        Edge {
                            ty: EdgeType::Link(l.ty),
                            loc: l.loc,
                            link: Some(l),
                        },
                    );
                }
            }
            if let Some(guard) = &c.dedup
                && let Some(j) = guard.store.index()
            {
                g.add_edge(
                    NodeIndex::new(i),
                    NodeIndex::new(j),
                    Edge {
                        ty: EdgeType::Dedup,
                        loc: guard.loc,
                        link: None,
                    },
                );
            }
        }
        Graph { g }
    }

    /// Outgoing edges of component `i` that carry copies of a request
    /// (every link but `dedup`), in a stable order.
    pub fn copy_edges(&self, i: usize) -> Vec<(EdgeIndex, usize)> {
        let mut out: Vec<(EdgeIndex, usize)> = self
            .g
            .edges(NodeIndex::new(i))
            .filter(|e| e.weight().ty != EdgeType::Dedup)
            .map(|e| (e.id(), e.target().index()))
            .collect();
        out.sort();
        out
    }

    pub fn edge(&self, e: EdgeIndex) -> &Edge<'m> {
        &self.g[e]
    }
}
