//! RH011 concurrent-first-claims: an active-active guard whose store
//! replicates asynchronously, so each region can accept the first claim of
//! a key (page `docs/rules/RH011.md`).

use crate::manifest::model::{Mode, Replication};
use crate::rules::{Code, Ctx, Finding};

pub(crate) fn emit(ctx: &Ctx, out: &mut Vec<Finding>) {
    let m = ctx.m;
    let a = ctx.a;
    for r in &a.intents {
        let intent = &m.intents[r.intent];
        // Only where a copy the other Region's claim did not stop reaches
        // an effect: a later layer that sees every copy covers it.
        let missed = super::scopes::replicated_missed(a, r);
        for c in r.horizons.keys() {
            let node = &a.model.nodes[c];
            let Some(gm) = &node.guard else { continue };
            if node.mode != Mode::ActiveActive
                || node.regions.len() < 2
                || gm.replication.value != Replication::Async
                || !missed.contains(&gm.layer.component)
            {
                continue;
            }
            let shared: Vec<&crate::manifest::name::Name> = node
                .regions
                .iter()
                .filter(|r| gm.store_regions.is_empty() || gm.store_regions.contains(r))
                .collect();
            if shared.len() < 2 {
                continue;
            }
            let g = &m.components[c];
            let store = &m.components[gm.layer.component];
            let loc = gm.replication.loc().unwrap_or(store.kind.loc);
            let regions: Vec<&str> = shared.iter().map(|s| &***s).collect();
            out.push(
                Finding::new(
                    Code::RH011,
                    format!(
                        "`{}` is active in {} and claims keys in `{}`, which replicates asynchronously{}: conditional writes are checked against the local replica, so each region can accept the first claim of the same key, and no layer after the guard stops the second copy",
                        g.id,
                        regions.join(" and "),
                        store.id,
                        gm.replication.provenance()
                    ),
                )
                .intent(&intent.id)
                .component(&store.id)
                .at(loc),
            );
        }
    }
}
