//! A drawing of thousands of components is unreadable and its layout costs
//! more than the rest of a report. Above [`BUDGET`] components, [`focus`]
//! keeps what a reader looks for — the components findings name (worst
//! severity first), the ends of the errors' worst-path links, then their
//! neighbours — up to the budget, and counts what it leaves out so that
//! the drawing can say so.

use std::collections::BTreeSet;

use super::{Edge, View};

/// Components drawn at most.
pub const BUDGET: usize = 200;

/// What [`focus`] left out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Omitted {
    pub components: usize,
    pub links: usize,
}

/// The view itself when it has at most `budget` components; otherwise the
/// part described above (components keep their order) and what is left out.
pub fn focus(v: &View, budget: usize) -> (View, Option<Omitted>) {
    if v.nodes.len() <= budget {
        return (v.clone(), None);
    }
    let keep = chosen(v, budget);
    let mut new_index: Vec<Option<usize>> = vec![None; v.nodes.len()];
    let mut nodes = Vec::with_capacity(keep.len());
    for (i, &k) in keep.iter().enumerate() {
        new_index[k] = Some(i);
        nodes.push(v.nodes[k].clone());
    }
    let edges: Vec<Edge> = v
        .edges
        .iter()
        .filter_map(|e| {
            Some(Edge {
                from: new_index[e.from]?,
                to: new_index[e.to]?,
                ..e.clone()
            })
        })
        .collect();
    let clusters = super::clusters_of(&mut nodes);
    let omitted = Omitted {
        components: v.nodes.len() - nodes.len(),
        links: v.edges.len() - edges.len(),
    };
    let view = View {
        nodes,
        edges,
        clusters,
    };
    (view, Some(omitted))
}

/// The components to draw, ascending, at most `budget` of them.
fn chosen(v: &View, budget: usize) -> BTreeSet<usize> {
    let mut keep = BTreeSet::new();
    let take = |i: usize, keep: &mut BTreeSet<usize>| {
        if keep.len() < budget {
            keep.insert(i);
        }
    };
    let mut named: Vec<usize> = (0..v.nodes.len())
        .filter(|&i| v.nodes[i].severity.is_some())
        .collect();
    // Worst severity first (Severity orders error highest), then manifest order.
    named.sort_by_key(|&i| (std::cmp::Reverse(v.nodes[i].severity), i));
    for i in named {
        take(i, &mut keep);
    }
    for e in v.edges.iter().filter(|e| e.hot) {
        take(e.from, &mut keep);
        take(e.to, &mut keep);
    }
    if keep.len() < budget {
        let core: Vec<usize> = keep.iter().copied().collect();
        let is_core = {
            let mut m = vec![false; v.nodes.len()];
            for &c in &core {
                m[c] = true;
            }
            m
        };
        for e in &v.edges {
            if is_core[e.from] {
                take(e.to, &mut keep);
            }
            if is_core[e.to] {
                take(e.from, &mut keep);
            }
        }
    }
    // Nothing stands out (no finding): the first components, so that the
    // drawing still shows the start of the architecture.
    if keep.is_empty() {
        keep.extend(0..budget.min(v.nodes.len()));
    }
    keep
}
