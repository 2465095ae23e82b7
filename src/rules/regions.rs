//! Regions and scope: RH010 region-crossing-without-shared-state,
//! RH011 concurrent-first-claims.

use crate::analysis::Analysis;
use crate::analysis::effective::Origin;
use crate::manifest::model::{Mode, Replication};
use crate::rules::Finding;

pub(crate) fn check(a: &Analysis, out: &mut Vec<Finding>) {
    let m = a.manifest;
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
                "RH010",
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
            f.path = crate::analysis::IntentResult::path_ids(
                m,
                m.component_index(&intent.origin.value).unwrap_or(0),
                &r.path_to(a, *guard),
            );
            f.horizon = r.horizons.get(guard).copied().filter(|h| !h.is_unbounded());
            out.push(f);
        }
        for &c in r.horizons.keys() {
            let node = &a.model.nodes[c];
            let Some(gm) = &node.guard else { continue };
            if node.mode != Mode::ActiveActive
                || node.regions.len() < 2
                || gm.replication.value != Replication::Async
            {
                continue;
            }
            let shared: Vec<&String> = node
                .regions
                .iter()
                .filter(|r| gm.store_regions.is_empty() || gm.store_regions.contains(r))
                .collect();
            if shared.len() < 2 {
                continue;
            }
            let g = &m.components[c];
            let store = &m.components[gm.layer.component];
            let loc = match gm.replication.origin {
                Origin::Manifest(l) => l,
                _ => store.kind.loc,
            };
            let regions: Vec<&str> = shared.iter().map(|s| s.as_str()).collect();
            out.push(
                Finding::new(
                    "RH011",
                    format!(
                        "`{}` is active in {} and claims keys in `{}`, which replicates asynchronously{}: conditional writes are checked against the local replica, so each region can accept the first claim of the same key",
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
