//! RH010 region-crossing-without-shared-state: a copy reaches a guard in a
//! region its dedup store does not run in, or a Region-scoped provider key
//! or transport window behind a sender in several Regions (page
//! `docs/rules/RH010.md`).

use crate::rules::{Code, Ctx, Finding};

pub(crate) fn emit(ctx: &Ctx, out: &mut Vec<Finding>) {
    let m = ctx.m;
    let a = ctx.a;
    for r in &a.intents {
        let intent = &m.intents[r.intent];
        for (guard, region) in &r.crossings {
            let g = &m.components[*guard];
            let Some(gm) = &a.model.nodes[*guard].guard else {
                continue;
            };
            let store = &m.components[gm.layer.component];
            let loc = g.dedup.as_ref().map_or(g.loc, |d| d.store.loc);
            let mut f = Finding::new(
                Code::RH010,
                format!(
                    "a copy can reach `{}` in {region}, but its dedup store `{}` runs only in {}: the guard there cannot see the keys claimed elsewhere",
                    g.id,
                    store.id,
                    gm.store_regions.join(", ")
                ),
            )
            .intent(&intent.id)
            .component(&g.id)
            .at(loc);
            f.path = r.path_ids_to(a, *guard, intent.origin.index().unwrap_or(0));
            f.horizon = r.horizons.get(*guard).filter(|h| !h.is_unbounded());
            out.push(f);
        }
    }
    super::scopes::regions(ctx, out);
}
