//! The order of a run and how far its cycles unroll: the strongly
//! connected components an intent reaches (from [`crate::graph::Components`],
//! already in topological order), each member ordered by the SCC's
//! non-redrive edges, and the bound its redrives put on the rounds.

use std::collections::BTreeMap;

use super::between::Out;
use super::model::Model;
use crate::manifest::model::LinkType;

/// The strongly connected components of the graph that `reached` holds, in
/// topological order. `reached` is closed under copy edges, so each is a
/// whole component of the graph ([`crate::graph::Components`]).
pub(super) fn sccs<'m>(model: &'m Model, reached: &[usize]) -> Vec<&'m [usize]> {
    let c = &model.components;
    let mut ids: Vec<u32> = reached.iter().map(|&n| c.of[n]).collect();
    ids.sort_unstable();
    ids.dedup();
    ids.into_iter().map(|k| c.members(k)).collect()
}

/// Members of a cycle in breadth-first order from those copies enter.
pub(super) fn bfs_order(
    model: &Model,
    out: Out,
    comp: &[usize],
    entered: impl Fn(usize) -> bool,
) -> Vec<usize> {
    let inside = |c: usize| comp.binary_search(&c).is_ok();
    let mut seen = vec![false; comp.len()];
    let mut order = Vec::with_capacity(comp.len());
    let mut queue: std::collections::VecDeque<usize> =
        comp.iter().copied().filter(|&c| entered(c)).collect();
    for &c in &queue {
        seen[comp.binary_search(&c).expect("member")] = true;
    }
    while let Some(c) = queue.pop_front() {
        order.push(c);
        for &e in out.of(c) {
            let w = model.edges[e].to();
            if inside(w) {
                let i = comp.binary_search(&w).expect("member");
                if !std::mem::replace(&mut seen[i], true) {
                    queue.push_back(w);
                }
            }
        }
    }
    order.extend(
        comp.iter()
            .copied()
            .filter(|c| !seen[comp.binary_search(c).expect("member")]),
    );
    order
}

/// How far a strongly connected component unrolls.
pub(super) enum CycleBound {
    /// Not a cycle.
    None,
    /// A cycle through redrives with `max_times`: this many extra rounds.
    Rounds(usize),
    /// A cycle nothing bounds (the edge to blame).
    Unbounded(usize),
}

/// An SCC's members in walking order and its bound.
pub(super) struct CycleInfo {
    /// Members ordered by the non-redrive edges inside (Kahn, smallest id
    /// first); members of a loop without a redrive come last.
    pub(super) topo: Vec<usize>,
    pub(super) bound: CycleBound,
}

/// Most redrive rounds unrolled in one cycle; beyond it the horizon is
/// reported as unbounded rather than computed round by round.
const MAX_ROUNDS: u64 = 1_000;

/// Orders an SCC by its non-redrive edges and decides how far a cycle unrolls.
pub(super) fn cycle_info<'a>(
    model: &Model,
    out: impl Fn(usize) -> &'a [usize],
    comp: &[usize],
) -> CycleInfo {
    let inside = |c: usize| comp.binary_search(&c).is_ok();
    let mut indeg: BTreeMap<usize, usize> = comp.iter().map(|&c| (c, 0)).collect();
    let mut redrives = Vec::new();
    let mut has_internal = false;
    for &c in comp {
        for &e in out(c) {
            let em = &model.edges[e];
            if !inside(em.to()) {
                continue;
            }
            has_internal = true;
            if em.ty == LinkType::Redrive {
                redrives.push(e);
            } else {
                *indeg.get_mut(&em.to()).expect("inside") += 1;
            }
        }
    }
    // Kahn's algorithm over non-redrive edges, smallest id first.
    let mut ready: std::collections::BTreeSet<usize> = indeg
        .iter()
        .filter(|(_, d)| **d == 0)
        .map(|(c, _)| *c)
        .collect();
    let mut topo = Vec::with_capacity(comp.len());
    while let Some(c) = ready.pop_first() {
        topo.push(c);
        for &e in out(c) {
            let em = &model.edges[e];
            if inside(em.to()) && em.ty != LinkType::Redrive {
                let d = indeg.get_mut(&em.to()).expect("inside");
                *d -= 1;
                if *d == 0 {
                    ready.insert(em.to());
                }
            }
        }
    }
    if !has_internal {
        return CycleInfo {
            topo,
            bound: CycleBound::None,
        };
    }
    if topo.len() < comp.len() {
        // A loop without any redrive: nothing bounds it.
        let mut rest: Vec<usize> = comp.iter().copied().filter(|c| !topo.contains(c)).collect();
        let blame = rest
            .iter()
            .flat_map(|&c| out(c).iter().copied())
            .find(|&e| inside(model.edges[e].to()))
            .unwrap_or(0);
        topo.append(&mut rest);
        return CycleInfo {
            topo,
            bound: CycleBound::Unbounded(blame),
        };
    }
    let mut total = 0u64;
    for &e in &redrives {
        match model.edges[e].redrive_bound() {
            Some(Some(k)) => total = total.saturating_add(k),
            _ => {
                return CycleInfo {
                    topo,
                    bound: CycleBound::Unbounded(e),
                };
            }
        }
    }
    if total > MAX_ROUNDS {
        return CycleInfo {
            topo,
            bound: CycleBound::Unbounded(redrives[0]),
        };
    }
    CycleInfo {
        topo,
        bound: CycleBound::Rounds(total as usize),
    }
}
