//! Dedup mechanics: RH030 send-side-dedup-only, RH031
//! content-dedup-ignores-attributes, RH032 physical-ttl-defines-validity,
//! RH033 unresolved-in-progress-ambiguity, RH034 blind-in-progress-expiry,
//! RH035 non-atomic-claim, RH036 result-not-stored, RH037
//! durable-step-side-effect, RH038 at-least-once-without-dedup.

use std::collections::BTreeMap;

use crate::analysis::effective::{self as eff};
use crate::analysis::{Analysis, BornAt, IntentResult};
use crate::catalog::Generic;
use crate::manifest::model::{Claim, Expiry, Guard, Manifest};
use crate::rules::Finding;

pub(crate) fn check(a: &Analysis, out: &mut Vec<Finding>) {
    let performers = performers(a.manifest);
    for r in &a.intents {
        rh030_rh038(a, r, out);
        rh033(a, r, &performers, out);
    }
    rh035(a, out);
}

/// For RH033: the guarded components that perform each effect, in
/// component order, computed once rather than searched for every intent.
fn performers(m: &Manifest) -> Vec<Vec<usize>> {
    let mut performers: Vec<Vec<usize>> = vec![Vec::new(); m.components.len()];
    for (pc, performer) in m.components.iter().enumerate() {
        if performer.dedup.is_none() {
            continue;
        }
        for l in &performer.effects {
            if let Some(ec) = l.to.index()
                && performers[ec].last() != Some(&pc)
            {
                performers[ec].push(pc);
            }
        }
    }
    performers
}

/// RH030 send-side-dedup-only and RH038 at-least-once-without-dedup: a
/// copy no layer sees, born downstream of the only dedup (RH030) or on a
/// way with no dedup at all (RH038). One function because both read the
/// same surviving copies and differ only in where the copy is born.
fn rh030_rh038(a: &Analysis, r: &IntentResult, out: &mut Vec<Finding>) {
    let m = a.manifest;
    let intent = &m.intents[r.intent];
    let origin = intent.origin.index().unwrap_or(0);
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
                        format!(
                            "`{}` {} `{}`",
                            m.components[em.from].id,
                            em.ty.field(),
                            m.components[em.to].id
                        ),
                        em.loc,
                    )
                }
                BornAt::Failover(c) => (
                    format!("the failover of `{}`", m.components[c].id),
                    m.components[c].loc,
                ),
                BornAt::Replay(i) => (
                    format!("replay `{}`", intent.replays[i].name),
                    intent.replays[i].loc,
                ),
            };
            let code = if dup.born_after_layer {
                "RH030"
            } else {
                "RH038"
            };
            let message = if dup.born_after_layer {
                format!(
                    "the only dedup on the way to `{eid}` sits upstream of {born}, where {} is born: send-side dedup cannot stop it",
                    dup.birth.describe()
                )
            } else {
                format!(
                    "{} on {born} reaches `{eid}` with no dedup layer at all",
                    dup.birth.describe()
                )
            };
            let mut f = Finding::new(code, message)
                .intent(&intent.id)
                .component(eid)
                .at(loc);
            f.horizon = Some(dup.age);
            f.path = IntentResult::path_ids(m, origin, steps);
            f.steps = steps.clone();
            out.push(f);
        }
    }
}

/// RH033: an external effect performed after a claim, with nothing to
/// resolve a crash between the effect and the completion record.
fn rh033(a: &Analysis, r: &IntentResult, performers: &[Vec<usize>], out: &mut Vec<Finding>) {
    let m = a.manifest;
    let intent = &m.intents[r.intent];
    for e in &intent.effects {
        let Some(ec) = e.index() else {
            continue;
        };
        if a.model.nodes[ec].generic != Generic::External || !r.horizons.contains_key(&ec) {
            continue;
        }
        let ext = &m.components[ec];
        for &pc in &performers[ec] {
            let performer = &m.components[pc];
            if !r.horizons.contains_key(&pc) {
                continue;
            }
            let Some(link) = performer.effects.iter().find(|l| l.to.value == ext.id) else {
                continue;
            };
            let provider_dedups =
                eff::boolean(ext, "accepts_key").is_some_and(|x| x.value) && link.passes_key();
            let lookup = eff::boolean(ext, "lookup_by_reference").is_some_and(|x| x.value);
            let reconciled = ext.reconciliation().is_some_and(|x| x.value != "none");
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
                .at(ext.reconciliation().map_or(ext.loc, |x| x.loc)),
            );
        }
    }
}

/// RH035: claims that are not atomic.
fn rh035(a: &Analysis, out: &mut Vec<Finding>) {
    let m = a.manifest;
    let first = a.first_intent_reaching();
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
            format!(
                "`{}` {what}: two overlapping copies can both see no record and both proceed",
                comp.id
            ),
        )
        .component(&comp.id)
        .at(claim.loc);
        f.intent = first[c].map(|i| m.intents[a.intents[i].intent].id.clone());
        out.push(f);
    }
}

/// RH031, RH032, RH034, RH036, RH037: how layers remember and what they
/// return.
pub(crate) fn check_layers(a: &Analysis, out: &mut Vec<Finding>) {
    let m = a.manifest;
    let first = a.first_intent_reaching();
    let reached = |c: usize| first[c].map(|i| m.intents[a.intents[i].intent].id.as_str());
    let step_of = retried_steps(m);
    for c in 0..m.components.len() {
        let Some(intent) = reached(c) else { continue };
        rh031(a, c, intent, out);
        if let Some(guard) = &m.components[c].dedup {
            rh032(a, guard, intent, out);
            rh034(a, c, guard, intent, out);
            rh036(a, c, guard, intent, out);
        }
        rh037(a, c, step_of.get(&c), intent, out);
    }
}

/// For RH037, the steps: what a workflow calls with retries, mapped to the
/// workflow's id (the first such workflow in component order).
fn retried_steps(m: &Manifest) -> BTreeMap<usize, &str> {
    let mut step_of = BTreeMap::new();
    for w in &m.components {
        if eff::kind_of(w).generic != Generic::Workflow {
            continue;
        }
        for l in &w.calls {
            let retried = l
                .retry
                .as_ref()
                .and_then(|r| r.attempts.as_ref())
                .is_some_and(|x| x.value > 1);
            if let (true, Some(t)) = (retried, l.to.index()) {
                step_of.entry(t).or_insert(w.id.as_str());
            }
        }
    }
    step_of
}

/// RH031: content-based dedup hashes the body only.
fn rh031(a: &Analysis, c: usize, intent: &str, out: &mut Vec<Finding>) {
    let comp = &a.manifest.components[c];
    if eff::kind_of(comp).has_flag("content_dedup_body_only")
        && let Some(cbd) = eff::boolean(comp, "content_based_dedup").filter(|b| b.value)
        && let Some(attrs) = comp.message_attributes().filter(|a| !a.value.is_empty())
    {
        out.push(
            Finding::new(
                "RH031",
                format!(
                    "`{}` deduplicates by a hash of the body only, but its messages carry {} in attributes: two different events with the same body are merged",
                    comp.id,
                    attrs.value.iter().map(|x| format!("`{x}`")).collect::<Vec<_>>().join(", ")
                ),
            )
            .intent(intent)
            .component(&comp.id)
            .at(cbd.loc().unwrap_or(attrs.loc)),
        );
    }
}

/// RH032: validity left to physical TTL deletion.
fn rh032(a: &Analysis, guard: &Guard, intent: &str, out: &mut Vec<Finding>) {
    if let Some(store) = a.manifest.target(&guard.store)
        && let Some(exp) = eff::expiry(store).filter(|e| e.value == Expiry::PhysicalTtl)
    {
        out.push(
            Finding::new(
                "RH032",
                format!(
                    "`{}` leaves the expiry of keys to physical TTL deletion{}: deletion runs late and expired records stay readable, so validity must be a timestamp checked in code",
                    store.id,
                    exp.provenance()
                ),
            )
            .intent(intent)
            .component(&store.id)
            .at(exp.loc().unwrap_or(store.kind.loc)),
        );
    }
}

/// RH034: an in-progress claim that expires and is retried blindly.
fn rh034(a: &Analysis, c: usize, guard: &Guard, intent: &str, out: &mut Vec<Finding>) {
    let comp = &a.manifest.components[c];
    if let Some(ip) = &guard.in_progress
        && ip.expires_after.is_some()
        && ip.on_expiry.as_ref().is_none_or(|x| x.value == "retry")
    {
        out.push(
            Finding::new(
                "RH034",
                format!(
                    "`{}` lets an in-progress claim expire and then retries without reconciling: if the first attempt's effect happened, it happens again",
                    comp.id
                ),
            )
            .intent(intent)
            .component(&comp.id)
            .at(ip.on_expiry.as_ref().map_or(ip.loc, |x| x.loc)),
        );
    }
}

/// RH036: the original result is not returned to duplicates.
fn rh036(a: &Analysis, c: usize, guard: &Guard, intent: &str, out: &mut Vec<Finding>) {
    let comp = &a.manifest.components[c];
    if !guard.stores_result.as_ref().is_some_and(|s| s.value) {
        out.push(
            Finding::new(
                "RH036",
                format!(
                    "`{}` does not store the result with the key{}: a duplicate is rejected or re-executed instead of getting the original answer",
                    comp.id,
                    if guard.stores_result.is_none() { " (stores_result is not declared)" } else { "" }
                ),
            )
            .intent(intent)
            .component(&comp.id)
            .at(guard.stores_result.as_ref().map_or(guard.loc, |s| s.loc)),
        );
    }
}

/// RH037: at-least-once steps that perform an effect without a key: a
/// workflow kind whose steps run at least once, or a step a workflow calls
/// with retries (`retried_by`, the workflow's id).
fn rh037(a: &Analysis, c: usize, retried_by: Option<&&str>, intent: &str, out: &mut Vec<Finding>) {
    let comp = &a.manifest.components[c];
    let kind = eff::kind_of(comp);
    let how = if kind.has_flag("steps_at_least_once")
        || (kind.generic == Generic::Workflow && kind.delivery.as_deref() == Some("at-least-once"))
    {
        Some(format!(
            "runs its steps at least once ({})",
            comp.kind.value
        ))
    } else {
        retried_by.map(|w| format!("is a step that `{w}` retries"))
    };
    let Some(how) = how else { return };
    for l in comp.effects.iter().chain(comp.calls.iter()) {
        let Some(t) = l.to.index() else {
            continue;
        };
        if a.model.nodes[t].generic != Generic::External || l.passes_key() {
            continue;
        }
        out.push(
            Finding::new(
                "RH037",
                format!(
                    "`{}` {how} and reaches `{}` without a key: a step re-run before its checkpoint repeats the effect",
                    comp.id, l.to.value
                ),
            )
            .intent(intent)
            .component(&comp.id)
            .at(l.loc),
        );
    }
}
