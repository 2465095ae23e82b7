//! For each component, the first intent (in manifest order) whose copies
//! reach it over copy edges, from its origin or a declared replay's entry,
//! whether or not the component leads to one of its effects; or whose
//! copies reach a guard that claims in it (as a run gives a store the
//! horizon of its guards). Configuration rules name this intent.
//!
//! One walk for all intents: an intent goes only where no earlier one
//! went, since everything past a component reached already was reached by
//! the same earlier intent. Linear in the graph, however many intents.

use super::cycles::{CycleBound, cycle_info};
use super::model::Model;
use crate::manifest::model::LinkType;
use crate::manifest::model::Manifest;

pub(super) fn first_reaching(m: &Manifest, model: &Model) -> Vec<Option<usize>> {
    let n = m.components.len();
    let mut first = vec![None; n];
    let mut walked = vec![false; n];
    // Guards whose chain of stores was given its intent already.
    let mut chained = vec![false; n];
    let mut stack = Vec::new();
    // Per strongly connected component, whether its cycle unrolls for no
    // extra round (asked only of those with a redrive inside).
    let mut rounds: Vec<Option<bool>> = vec![None; n];
    for (i, intent) in m.intents.iter().enumerate() {
        stack.extend(intent.origin.index());
        stack.extend(intent.replays.iter().filter_map(|r| r.enters_at.index()));
        while let Some(c) = stack.pop() {
            if std::mem::replace(&mut walked[c], true) {
                continue;
            }
            first[c].get_or_insert(i);
            stores_of(m, model, c, i, &mut first, &mut chained);
            for &e in &model.out[c] {
                if !never_taken(model, e, &mut rounds) {
                    stack.push(model.edges[e].to());
                }
            }
        }
    }
    first
}

/// Gives intent `i` to the store guard `c` claims in, and on along the
/// stores that are guards themselves and come later in component order
/// (the order in which a run hands a store its guards' horizons).
fn stores_of(
    m: &Manifest,
    model: &Model,
    mut c: usize,
    i: usize,
    first: &mut [Option<usize>],
    chained: &mut [bool],
) {
    if m.components[c].dedup.is_none() {
        return;
    }
    while let Some(g) = &model.nodes[c].guard {
        if std::mem::replace(&mut chained[c], true) {
            return;
        }
        let store = g.layer.component;
        first[store].get_or_insert(i);
        if store <= c || m.components[store].dedup.is_none() {
            return;
        }
        c = store;
    }
}

/// A redrive inside a cycle whose redrives allow no extra round
/// (`max_times: 0` on each): a run never takes it, as no round follows.
fn never_taken(model: &Model, e: usize, no_round: &mut [Option<bool>]) -> bool {
    let em = &model.edges[e];
    let of = &model.components.of;
    if em.ty != LinkType::Redrive || of[em.from()] != of[em.to()] {
        return false;
    }
    let k = of[em.from()];
    *no_round[k as usize].get_or_insert_with(|| {
        let comp = model.components.members(k);
        let info = cycle_info(model, |c| &model.out[c], comp);
        matches!(info.bound, CycleBound::Rounds(0))
    })
}
