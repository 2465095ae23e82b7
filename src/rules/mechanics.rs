//! Dedup mechanics: RH030 send-side-dedup-only, RH033
//! unresolved-in-progress-ambiguity, RH035 non-atomic-claim,
//! RH038 at-least-once-without-dedup.

use crate::analysis::effective::{self as eff};
use crate::analysis::{Analysis, BornAt, IntentResult};
use crate::catalog::Generic;
use crate::manifest::model::Claim;
use crate::rules::Finding;

pub(crate) fn check(a: &Analysis, out: &mut Vec<Finding>) {
    let m = a.manifest;
    // For RH033: the guarded components that perform each effect, in
    // component order, computed once rather than searched for every intent.
    let mut performers: Vec<Vec<usize>> = vec![Vec::new(); m.components.len()];
    for (pc, performer) in m.components.iter().enumerate() {
        if performer.dedup.is_none() {
            continue;
        }
        for l in &performer.effects {
            if let Some(ec) = m.component_index(&l.to.value)
                && performers[ec].last() != Some(&pc)
            {
                performers[ec].push(pc);
            }
        }
    }
    for r in &a.intents {
        let intent = &m.intents[r.intent];
        let origin = m.component_index(&intent.origin.value).unwrap_or(0);
        for (&effect, list) in &r.surviving {
            let eid = &m.components[effect].id;
            for (_, dup, steps) in list {
                if dup.bypass.layers_seen > 0 || dup.age.is_unbounded() {
                    continue;
                }
                let (born, loc) = match dup.born_at {
                    BornAt::Edge(e) => {
                        let em = &a.model.edges[e];
                        (
                            format!("`{}` {} `{}`", m.components[em.from].id, em.ty.name(), m.components[em.to].id),
                            em.loc,
                        )
                    }
                    BornAt::Failover(c) => (format!("the failover of `{}`", m.components[c].id), m.components[c].loc),
                    BornAt::Replay(i) => (format!("replay `{}`", intent.replays[i].name), intent.replays[i].loc),
                };
                let code = if dup.born_after_layer { "RH030" } else { "RH038" };
                let message = if dup.born_after_layer {
                    format!(
                        "the only dedup on the way to `{eid}` sits upstream of {born}, where {} is born: send-side dedup cannot stop it",
                        dup.birth.describe()
                    )
                } else {
                    format!("{} on {born} reaches `{eid}` with no dedup layer at all", dup.birth.describe())
                };
                let mut f = Finding::new(code, message).intent(&intent.id).component(eid).at(loc);
                f.horizon = Some(dup.age);
                f.path = IntentResult::path_ids(m, origin, steps);
                f.steps = steps.clone();
                out.push(f);
            }
        }
        // RH033: an external effect performed after a claim, with nothing to
        // resolve a crash between the effect and the completion record.
        for e in &intent.effects {
            let Some(ec) = m.component_index(&e.value) else { continue };
            if a.model.nodes[ec].generic != Generic::External || !r.horizons.contains_key(&ec) {
                continue;
            }
            let ext = &m.components[ec];
            for &pc in &performers[ec] {
                let performer = &m.components[pc];
                if !r.horizons.contains_key(&pc) {
                    continue;
                }
                let Some(link) = performer.effects.iter().find(|l| l.to.value == ext.id) else { continue };
                let provider_dedups = eff::boolean(ext, "accepts_key").is_some_and(|x| x.value) && link.passes_key();
                let lookup = eff::boolean(ext, "lookup_by_reference").is_some_and(|x| x.value);
                let reconciled = ext.reconciliation.as_ref().is_some_and(|x| x.value != "none");
                if provider_dedups || lookup || reconciled {
                    continue;
                }
                out.push(
                    Finding::new(
                        "RH033",
                        format!(
                            "`{}` claims the key, then calls `{}`; if it crashes after the effect and before recording completion, nothing tells whether the effect happened (no provider dedup by our key, no lookup by reference, no reconciliation)",
                            performer.id, ext.id
                        ),
                    )
                    .intent(&intent.id)
                    .component(&ext.id)
                    .at(ext.reconciliation.as_ref().map_or(ext.loc, |x| x.loc)),
                );
            }
        }
    }
    // RH035: claims that are not atomic.
    let mut first_reaching: Option<Vec<Option<usize>>> = None;
    for (c, comp) in m.components.iter().enumerate() {
        let Some(g) = &comp.dedup else { continue };
        let Some(claim) = &g.claim else { continue };
        let what = match claim.value {
            Claim::ConditionalWrite => continue,
            Claim::ReadThenWrite => "reads, then writes the key",
            Claim::None => "does not claim the key at all",
        };
        let mut f = Finding::new(
            "RH035",
            format!("`{}` {what}: two overlapping copies can both see no record and both proceed", comp.id),
        )
        .component(&comp.id)
        .at(claim.loc);
        let first = first_reaching.get_or_insert_with(|| a.first_intent_reaching());
        f.intent = first[c].map(|i| m.intents[a.intents[i].intent].id.clone());
        out.push(f);
    }
}
