//! Regions and scope: RH010 region-crossing-without-shared-state,
//! RH011 concurrent-first-claims, RH012 dedup-recovery-point-mismatch,
//! RH013 scope-narrower-than-replay, RH014 dead-letter-retention-not-longer,
//! RH015 visibility-shorter-than-processing, RH016
//! replay-pointer-outlives-data.

use crate::analysis::effective::{self as eff, Origin};
use crate::analysis::{Analysis, IntentResult};
use crate::manifest::model::{Delivery, Mode, Replication};
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
            f.path = r.path_ids_to(a, *guard, intent.origin.index().unwrap_or(0));
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
            let shared: Vec<&std::sync::Arc<str>> = node
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
            let regions: Vec<&str> = shared.iter().map(|s| &***s).collect();
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

/// RH012–RH016: recovery points, scope, and what transports keep.
pub(crate) fn check_scope(a: &Analysis, out: &mut Vec<Finding>) {
    let m = a.manifest;
    let first = a.first_intent_reaching();
    let reached = |c: usize| first[c].map(|i| m.intents[a.intents[i].intent].id.as_str());
    for r in &a.intents {
        rh012(a, r, out);
    }
    for c in 0..m.components.len() {
        let Some(intent) = reached(c) else { continue };
        rh013(a, c, intent, out);
        rh014(a, c, intent, out);
        rh015(a, c, intent, out);
        rh016(a, c, intent, out);
    }
}

/// RH012: the dedup store recovers to a worse point than the ledger it protects.
fn rh012(a: &Analysis, r: &IntentResult, out: &mut Vec<Finding>) {
    let m = a.manifest;
    let intent = &m.intents[r.intent];
    let ledgers: Vec<usize> = r
        .horizons
        .keys()
        .copied()
        .filter(|&c| a.model.nodes[c].generic == crate::catalog::Generic::Ledger)
        .collect();
    for &g in r.horizons.keys() {
        let Some(gm) = &a.model.nodes[g].guard else {
            continue;
        };
        let s = gm.layer.component;
        let store = &m.components[s];
        for &l in ledgers.iter().filter(|&&l| l != s) {
            let ledger = &m.components[l];
            let Some(lb) = &ledger.backup else { continue };
            let s_rpo = store.backup.as_ref().and_then(|b| b.rpo.as_ref());
            let l_rpo = lb.rpo.as_ref().map(|x| x.value);
            let together = store
                .backup
                .as_ref()
                .is_some_and(|b| b.restored_with.iter().any(|x| x.value == ledger.id))
                || lb.restored_with.iter().any(|x| x.value == store.id);
            let worse = match (s_rpo, l_rpo) {
                (None, _) => Some("has no declared recovery point".to_string()),
                (Some(sr), Some(lr)) if sr.value > lr => Some(format!(
                    "recovers to {} while `{}` recovers to {lr}",
                    sr.value, ledger.id
                )),
                _ => None,
            };
            let problem = match (worse, together) {
                (Some(w), _) => w,
                (None, false) => format!("is not restored together with `{}`", ledger.id),
                (None, true) => continue,
            };
            let loc = store.backup.as_ref().map_or(store.kind.loc, |b| b.loc);
            out.push(
                Finding::new(
                    "RH012",
                    format!(
                        "dedup store `{}` {problem}: after a restore the ledger can hold effects whose keys the store has forgotten, and their replays run again",
                        store.id
                    ),
                )
                .intent(&intent.id)
                .component(&store.id)
                .at(loc),
            );
        }
    }
}

/// RH013: scopes narrower than where copies arrive (the guard's store
/// scope, session-scoped producer dedup, region-scoped exactly-once).
fn rh013(a: &Analysis, c: usize, intent: &str, out: &mut Vec<Finding>) {
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
                    "RH013",
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
        if tk.has_flag("session_scoped_dedup")
            && l.retry
                .as_ref()
                .and_then(|r| r.attempts.as_ref())
                .is_some_and(|a| a.value > 1)
        {
            out.push(
                Finding::new(
                    "RH013",
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
    if eff::kind_of(comp).has_flag("region_scoped_exactly_once")
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
                    "RH013",
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

/// RH014: a standard queue's DLQ that keeps messages no longer than the source.
fn rh014(a: &Analysis, c: usize, intent: &str, out: &mut Vec<Finding>) {
    let m = a.manifest;
    let comp = &m.components[c];
    if eff::kind_of(comp).has_flag("dlq_keeps_enqueue_time")
        && let Some(dl) = &comp.dead_letter
        && let Some(dlq) = m.target(&dl.to)
        && let (Some(src), Some(dst)) = (eff::dur(comp, "retention"), eff::dur(dlq, "retention"))
        && dst.value <= src.value
    {
        out.push(
            Finding::new(
                "RH014",
                format!(
                    "dead-letter queue `{}` keeps messages {}{} and `{}` keeps them {}{}: the move keeps the original enqueue time, so a message can expire from the dead-letter queue before anyone redrives it",
                    dlq.id,
                    dst.value,
                    dst.provenance(),
                    comp.id,
                    src.value,
                    src.provenance()
                ),
            )
            .intent(intent)
            .component(&dlq.id)
            .at(dst.loc().unwrap_or(dlq.kind.loc)),
        );
    }
}

/// RH015: visibility timeout shorter than the consumer's processing time.
fn rh015(a: &Analysis, c: usize, intent: &str, out: &mut Vec<Finding>) {
    let m = a.manifest;
    let comp = &m.components[c];
    if !a.model.nodes[c].generic.is_transport() {
        return;
    }
    let Some(vis) = eff::dur(comp, "visibility_timeout") else {
        return;
    };
    for l in &comp.delivers_to {
        let Some(consumer) = m.target(&l.to) else {
            continue;
        };
        let processing = l
            .retry
            .as_ref()
            .and_then(|r| r.timeout.as_ref())
            .map(|t| t.value)
            .or_else(|| eff::dur(consumer, "timeout").map(|t| t.value));
        if let Some(p) = processing
            && vis.value < p
        {
            out.push(
                Finding::new(
                    "RH015",
                    format!(
                        "`{}` hides a received message for {}{} but `{}` may take {} to process it: another consumer receives it while the first still works on it",
                        comp.id,
                        vis.value,
                        vis.provenance(),
                        consumer.id,
                        p
                    ),
                )
                .intent(intent)
                .component(&comp.id)
                .at(vis.loc().unwrap_or(comp.kind.loc)),
            );
        }
    }
}

/// RH016: a failure record that only points into a stream outlives the stream's data.
fn rh016(a: &Analysis, c: usize, intent: &str, out: &mut Vec<Finding>) {
    let m = a.manifest;
    let comp = &m.components[c];
    if a.model.nodes[c].generic == crate::catalog::Generic::Stream
        && let Some(dl) = &comp.dead_letter
        && let Some(dest) = m.target(&dl.to)
        && let (Some(data), Some(pointer)) =
            (eff::dur(comp, "retention"), eff::dur(dest, "retention"))
        && pointer.value > data.value
    {
        out.push(
            Finding::new(
                "RH016",
                format!(
                    "`{}` keeps failure records for {} but they only point at records of `{}`, which are gone after {}{}: a late replay finds nothing to read",
                    dest.id,
                    pointer.value,
                    comp.id,
                    data.value,
                    data.provenance()
                ),
            )
            .intent(intent)
            .component(&dest.id)
            .at(pointer.loc().unwrap_or(dest.kind.loc)),
        );
    }
}
