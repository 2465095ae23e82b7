//! RH016 replay-pointer-outlives-data: failure records that point into a
//! stream outlive its data (page `docs/rules/RH016.md`).
//!
//! A failure record travels on from the stream's dead-letter target through
//! queues and topics (`sends_to`, `delivers_to`, `dead_letter`); every hop
//! that keeps it is checked, not only the first.

use crate::analysis::Analysis;
use crate::analysis::effective::{self as eff, Eff};
use crate::catalog::Generic;
use crate::manifest::model::LinkType;
use crate::rules::{Code, Ctx, Finding};
use crate::time::Dur;

pub(crate) fn emit(ctx: &Ctx, out: &mut Vec<Finding>) {
    // A configuration rule: it needs no intent, so an imported template
    // alone is checked; the finding names the first intent reaching the
    // component where there is one.
    let keep = keepers(ctx.a);
    for c in 0..ctx.m.components.len() {
        component(ctx.a, &keep, c, ctx.reached_by(c), out);
    }
}

/// The longest-keeping hop of a failure record from a component.
type Keeper = Option<(Eff<Dur>, usize)>;

/// Whether a failure record passes through component `c` (a queue or topic).
fn carries(a: &Analysis, c: usize) -> bool {
    matches!(a.model.nodes[c].generic, Generic::Queue | Generic::Topic)
}

/// For each queue or topic, the hop reachable from it through queues and
/// topics (itself included) that keeps a record longest. One iterative
/// depth-first search with memo, so linear in the graph; a link back into
/// a hop still being searched adds nothing that hop does not count itself.
fn keepers(a: &Analysis) -> Vec<Keeper> {
    let m = a.manifest;
    let n = m.components.len();
    let mut best: Vec<Keeper> = vec![None; n];
    let mut seen = vec![false; n];
    let next = |c: usize, k: usize| {
        m.components[c]
            .links()
            .skip(k)
            .enumerate()
            .find(|(_, l)| {
                matches!(
                    l.ty,
                    LinkType::SendsTo | LinkType::DeliversTo | LinkType::DeadLetter
                ) && l.to.index().is_some_and(|t| carries(a, t))
            })
            .map(|(i, l)| (k + i + 1, l.to.index().unwrap_or(c)))
    };
    for root in (0..n).filter(|&c| carries(a, c)) {
        if seen[root] {
            continue;
        }
        seen[root] = true;
        best[root] = eff::dur(&m.components[root], "retention").map(|r| (r, root));
        let mut stack = vec![(root, 0usize)];
        while let Some(&(c, k)) = stack.last() {
            match next(c, k) {
                Some((k2, t)) => {
                    stack.last_mut().expect("not empty").1 = k2;
                    if !seen[t] {
                        seen[t] = true;
                        best[t] = eff::dur(&m.components[t], "retention").map(|r| (r, t));
                        stack.push((t, 0));
                    } else {
                        best[c] = longer(best[c].clone(), best[t].clone());
                    }
                }
                None => {
                    stack.pop();
                    if let Some(&(p, _)) = stack.last() {
                        best[p] = longer(best[p].clone(), best[c].clone());
                    }
                }
            }
        }
    }
    best
}

fn longer(x: Keeper, y: Keeper) -> Keeper {
    match (x, y) {
        (Some(x), Some(y)) if y.0.value > x.0.value => Some(y),
        (Some(x), _) => Some(x),
        (None, y) => y,
    }
}

/// RH016: a failure record that only points into a stream outlives the
/// stream's data at some hop of its way.
fn component(
    a: &Analysis,
    keep: &[Keeper],
    c: usize,
    intent: Option<&str>,
    out: &mut Vec<Finding>,
) {
    let m = a.manifest;
    let comp = &m.components[c];
    if a.model.nodes[c].generic == Generic::Stream
        && let Some(dl) = &comp.dead_letter
        && let Some(d) = dl.to.index()
        && let Some(data) = eff::dur(comp, "retention")
        && let Some((pointer, h)) = keep[d]
            .clone()
            .or_else(|| eff::dur(&m.components[d], "retention").map(|r| (r, d)))
        && pointer.value > data.value
    {
        let dest = &m.components[d];
        let holder = &m.components[h];
        let keeper = if h == d {
            format!("`{}` keeps failure records", dest.id)
        } else {
            format!(
                "`{}` passes failure records on to `{}`, which keeps them",
                dest.id, holder.id
            )
        };
        out.push(
            Finding::new(
                Code::RH016,
                format!(
                    "{keeper} for {} but they only point at records of `{}`, which are gone after {}{}: a late replay finds nothing to read",
                    pointer.value,
                    comp.id,
                    data.value,
                    data.provenance()
                ),
            )
            .maybe_intent(intent)
            .component(&holder.id)
            .at(pointer.loc().unwrap_or(holder.kind.loc)),
        );
    }
}
