//! RH013 scope-narrower-than-replay: a dedup scope narrower than where
//! copies arrive (page `docs/rules/RH013.md`).

use crate::analysis::Analysis;
use crate::analysis::effective as eff;
use crate::catalog::Flag;
use crate::manifest::model::Delivery;
use crate::rules::{Code, Ctx, Finding};

pub(crate) fn emit(ctx: &Ctx, out: &mut Vec<Finding>) {
    for (c, intent) in ctx.reached() {
        component(ctx.a, c, intent, out);
    }
    super::scopes::zones(ctx, out);
}

/// RH013: scopes narrower than where copies arrive (the guard's store
/// scope, session-scoped producer dedup, region-scoped exactly-once).
fn component(a: &Analysis, c: usize, intent: &str, out: &mut Vec<Finding>) {
    let m = a.manifest;
    let comp = &m.components[c];
    let node = &a.model.nodes[c];
    if let Some(gm) = &node.guard {
        let store = &m.components[gm.layer.component];
        if let Some(scope) = eff::scope(store)
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
                .component(&store.id)
                .at(scope.loc().unwrap_or(store.kind.loc)),
            );
        }
    }
    for l in &comp.sends_to {
        let Some(t) = m.target(&l.to) else {
            continue;
        };
        let tk = eff::kind_of(t);
        if tk.has_flag(Flag::SessionScopedDedup)
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
    if eff::kind_of(comp).has_flag(Flag::RegionScopedExactlyOnce)
        && eff::delivery(comp).value == Delivery::ExactlyOnce
    {
        let consumers_regions: usize = comp
            .delivers_to
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
                .at(comp.delivery().map_or(comp.kind.loc, |d| d.loc)),
            );
        }
    }
}
