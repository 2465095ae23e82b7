//! RH016 replay-pointer-outlives-data: failure records that point into a
//! stream outlive its data (page `docs/rules/RH016.md`).
//!
//! A failure record travels on from the stream's dead-letter target through
//! queues and topics (`sends_to`, `delivers_to`, `dead_letter`); every hop
//! that keeps it is checked, not only the first. A configuration rule: it
//! runs on every component, reached by an intent or not, so an imported
//! template alone is checked.

use crate::catalog::Generic;
use crate::manifest::model::LinkType;
use crate::rules::context::Eff;
use crate::rules::{Code, Ctx, Finding};
use crate::time::Dur;

pub(crate) fn emit(ctx: &Ctx, out: &mut Vec<Finding>) {
    let keep = keepers(ctx);
    for (c, intent) in ctx.components() {
        component(ctx, &keep, c, intent, out);
    }
}

/// The longest-keeping hop of a failure record from a component.
type Keeper = Option<(Eff<Dur>, usize)>;

/// Whether a failure record passes through component `c` (a queue or topic).
fn carries(ctx: &Ctx, c: usize) -> bool {
    matches!(ctx.generic(c), Generic::Queue | Generic::Topic)
}

/// A component's own retention, as a keeper of failure records.
fn own(ctx: &Ctx, c: usize) -> Keeper {
    ctx.values(c).retention().map(|r| (r, c))
}

/// For each queue or topic, the hop reachable from it through queues and
/// topics (itself included) that keeps a record longest. One iterative
/// depth-first search with memo, so linear in the graph; a link back into
/// a hop still being searched adds nothing that hop does not count itself.
fn keepers(ctx: &Ctx) -> Vec<Keeper> {
    let m = ctx.m;
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
                ) && l.to.index().is_some_and(|t| carries(ctx, t))
            })
            .map(|(i, l)| (k + i + 1, l.to.index().unwrap_or(c)))
    };
    for root in (0..n).filter(|&c| carries(ctx, c)) {
        if seen[root] {
            continue;
        }
        seen[root] = true;
        best[root] = own(ctx, root);
        let mut stack = vec![(root, 0usize)];
        while let Some(&(c, k)) = stack.last() {
            match next(c, k) {
                Some((k2, t)) => {
                    stack.last_mut().expect("not empty").1 = k2;
                    if !seen[t] {
                        seen[t] = true;
                        best[t] = own(ctx, t);
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
fn component(ctx: &Ctx, keep: &[Keeper], c: usize, intent: Option<&str>, out: &mut Vec<Finding>) {
    let m = ctx.m;
    let comp = &m.components[c];
    if ctx.generic(c) == Generic::Stream
        && let Some(dl) = comp.dead_letter()
        && let Some(d) = dl.to.index()
        && let Some(data) = ctx.values(c).retention()
        && let Some((pointer, h)) = keep[d].clone().or_else(|| own(ctx, d))
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
            .on_value(holder, &pointer),
        );
    }
}
