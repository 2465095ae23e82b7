//! RH013 scope-narrower-than-replay: a dedup scope narrower than where
//! copies arrive (page `docs/rules/RH013.md`).

use std::collections::BTreeSet;

use crate::analysis::BornAt;
use crate::catalog::Flag;
use crate::manifest::model::Delivery;
use crate::manifest::model::Field;
use crate::rules::surviving::Surviving;
use crate::rules::{Code, Ctx, Finding};

pub(crate) fn emit(ctx: &Ctx, out: &mut Vec<Finding>) {
    let surviving = surviving_births(ctx);
    for (c, intent) in ctx.reached() {
        component(ctx, c, intent, &surviving, out);
    }
    super::scopes::zones(ctx, out);
}

/// The links (from, to) on which a copy that reaches an effect past every
/// layer was born, over all intents.
fn surviving_births(ctx: &Ctx) -> BTreeSet<(usize, usize)> {
    let a = ctx.a;
    let mut out = BTreeSet::new();
    for r in &a.intents {
        for (_, copy) in Surviving::of(a, r) {
            if let BornAt::Edge(e) = copy.dup.born_at {
                let em = &a.model.edges[e];
                out.insert((em.from(), em.to()));
            }
        }
    }
    out
}

/// RH013: scopes narrower than where copies arrive (the guard's store
/// scope, session-scoped producer dedup, region-scoped exactly-once).
fn component(
    ctx: &Ctx,
    c: usize,
    intent: &str,
    surviving: &BTreeSet<(usize, usize)>,
    out: &mut Vec<Finding>,
) {
    let (a, m) = (ctx.a, ctx.m);
    let comp = &m.components[c];
    let node = &a.model.nodes[c];
    if let Some(gm) = &node.guard {
        let store = &m.components[gm.layer.component];
        if let Some(scope) = ctx.values(gm.layer.component).scope()
            && matches!(
                scope.value.as_str(),
                "process" | "instance" | "zone" | "host"
            )
        {
            out.push(
                Finding::new(
                    Code::RH013,
                    format!(
                        "`{}` keeps keys per {} in `{}`: a copy that lands on another {} (a retry, a redelivery, a restart) is not recognised",
                        comp.id, scope.value, store.id, scope.value
                    ),
                )
                .intent(intent)
                .on_value(store, &scope),
            );
        }
    }
    for l in comp.sends_to() {
        let Some(ti) = l.to.index() else {
            continue;
        };
        let t = &m.components[ti];
        // A layer after the transport (a consumer's guard) that stops the
        // re-sent records covers them.
        if ctx.values(ti).kind.has_flag(Flag::SessionScopedDedup)
            && surviving.contains(&(c, ti))
            && l.retry
                .as_ref()
                .and_then(|r| r.attempts.as_ref())
                .is_some_and(|a| a.value > 1)
        {
            out.push(
                Finding::new(
                    Code::RH013,
                    format!(
                        "`{}` retries its sends to `{}` itself; the idempotent producer only deduplicates within one producer session, so an application re-send is a new record",
                        comp.id, t.id
                    ),
                )
                .intent(intent)
                .component(&t.id)
                .at(l.loc),
            );
        }
    }
    if ctx.values(c).kind.has_flag(Flag::RegionScopedExactlyOnce)
        && ctx.values(c).delivery().value == Delivery::ExactlyOnce
    {
        let consumers_regions: usize = comp
            .delivers_to()
            .iter()
            .filter_map(|l| l.to.index())
            .map(|i| a.model.nodes[i].regions.len())
            .max()
            .unwrap_or(0)
            .max(node.regions.len());
        if consumers_regions > 1 {
            out.push(
                Finding::new(
                    Code::RH013,
                    format!(
                        "`{}` relies on exactly-once delivery, which holds within one region only, but it is consumed in several regions",
                        comp.id
                    ),
                )
                .intent(intent)
                .component(&comp.id)
                .at(comp.choice::<Delivery>(Field::Delivery).map_or(comp.kind.loc, |d| d.loc)),
            );
        }
    }
}
