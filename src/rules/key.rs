//! The key: RH020 key-minted-per-attempt, RH021 key-not-propagated,
//! RH022 key-not-bound-to-fingerprint, RH023 fingerprint-misses-effect-fields,
//! RH024 key-not-persisted-before-retry, RH025 key-from-transport-identity.

use crate::analysis::{Analysis, BornAt, Class, Dup, IntentResult, Step};
use crate::manifest::model::Intent;
use crate::rules::Finding;

/// Key field names that a transport or runtime assigns per delivery.
const TRANSPORT_IDENTITIES: &[&str] = &[
    "message_id",
    "messageid",
    "message-id",
    "delivery_id",
    "delivery_tag",
    "receipt_handle",
    "execution_id",
    "execution_arn",
    "execution_name",
    "invocation_id",
    "request_id",
    "aws_request_id",
    "sequence_number",
    "offset",
    "timestamp",
    "time_bucket",
    "received_at",
    "attempt",
    "attempt_id",
    "now",
];

pub(crate) fn check(a: &Analysis, out: &mut Vec<Finding>) {
    let m = a.manifest;
    for r in &a.intents {
        let intent = &m.intents[r.intent];
        let origin = intent.origin.index().unwrap_or(0);
        for (&effect, list) in &r.surviving {
            for (class, dup, steps) in list {
                let path = IntentResult::path_ids(m, origin, steps);
                match class {
                    Class::Fresh | Class::Unminted if dup.bypass.fresh_key.is_some() => {
                        rh020(a, intent, effect, dup, path, steps, out);
                    }
                    Class::Lost if dup.bypass.lost_key.is_some() => {
                        rh021(a, intent, effect, dup, path, steps, out);
                    }
                    _ => {}
                }
            }
        }
        rh024(a, intent, out);
        rh025(intent, out);
    }
}

/// RH020: a copy that carries a new key because the key is minted per
/// attempt or downstream of where the copy is born.
fn rh020(
    a: &Analysis,
    intent: &Intent,
    effect: usize,
    dup: &Dup,
    path: Vec<String>,
    steps: &[Step],
    out: &mut Vec<Finding>,
) {
    let m = a.manifest;
    let eid = &m.components[effect].id;
    let layer = &m.components[dup.bypass.fresh_key.unwrap_or(effect)].id;
    let born = match dup.born_at {
        BornAt::Edge(e) => {
            let em = &a.model.edges[e];
            format!(
                "`{}` → `{}`",
                m.components[em.from].id, m.components[em.to].id
            )
        }
        _ => "its way".to_string(),
    };
    let minted = intent.minted_at();
    let loc = intent
        .key
        .minted
        .as_ref()
        .map(|x| x.loc)
        .or(intent.key.loc)
        .unwrap_or(minted.loc);
    let why = if intent.key.per_attempt() {
        format!("the key is minted per attempt at `{}`", minted.value)
    } else {
        format!(
            "the generated key is minted at `{}`, downstream of where the copy is born",
            minted.value
        )
    };
    let mut f = Finding::new(
        "RH020",
        format!(
            "{} on {born} carries a new key because {why}; `{layer}` sees a new request and `{eid}` happens twice",
            dup.birth.describe()
        ),
    )
    .intent(&intent.id)
    .component(&minted.value)
    .at(loc);
    f.path = path;
    f.steps = steps.to_vec();
    out.push(f);
}

/// RH021: a link on the way that does not pass the key.
fn rh021(
    a: &Analysis,
    intent: &Intent,
    effect: usize,
    dup: &Dup,
    path: Vec<String>,
    steps: &[Step],
    out: &mut Vec<Finding>,
) {
    let m = a.manifest;
    let eid = &m.components[effect].id;
    let (layer, lost_at) = dup.bypass.lost_key.unwrap_or((effect, None));
    let edge = lost_at.or(dup.lost_at).map(|e| &a.model.edges[e]);
    let (loc, link) = match edge {
        Some(em) => (
            em.loc,
            format!(
                "`{}` → `{}` ({})",
                m.components[em.from].id,
                m.components[em.to].id,
                em.ty.field()
            ),
        ),
        None => (m.components[effect].loc, "a link".to_string()),
    };
    let mut f = Finding::new(
        "RH021",
        format!(
            "{link} does not pass the key, so `{}` cannot recognise {} and `{eid}` happens twice",
            m.components[layer].id,
            dup.birth.describe()
        ),
    )
    .intent(&intent.id)
    .component(&m.components[edge.map_or(effect, |e| e.to)].id)
    .at(loc);
    f.path = path;
    f.steps = steps.to_vec();
    out.push(f);
}

/// RH024: a generated key that is not persisted before retries begin.
fn rh024(a: &Analysis, intent: &Intent, out: &mut Vec<Finding>) {
    let m = a.manifest;
    if !intent.key.is_generated()
        || intent
            .key
            .persisted_before_retry
            .as_ref()
            .is_some_and(|p| p.value)
    {
        return;
    }
    let Some(mc) = intent.minted_at().index() else {
        return;
    };
    let retried = a.model.out[mc]
        .iter()
        .map(|&e| &a.model.edges[e])
        .find(|e| e.birth.is_some());
    if let Some(em) = retried {
        let loc = intent
            .key
            .persisted_before_retry
            .as_ref()
            .map_or(intent.key.loc.unwrap_or(intent.loc), |p| p.loc);
        out.push(
            Finding::new(
                "RH024",
                format!(
                    "the key of `{}` is generated at `{}` but not persisted before retries begin: a retry of `{}` {} `{}` after a crash carries a new key",
                    intent.id,
                    m.components[mc].id,
                    m.components[mc].id,
                    em.ty.field(),
                    m.components[em.to].id
                ),
            )
            .intent(&intent.id)
            .component(&m.components[mc].id)
            .at(loc),
        );
    }
}

/// RH025: a key built from per-delivery identities.
fn rh025(intent: &Intent, out: &mut Vec<Finding>) {
    let Some(fields) = &intent.key.fields else {
        return;
    };
    let bad: Vec<&String> = fields
        .value
        .iter()
        .filter(|f| TRANSPORT_IDENTITIES.contains(&f.to_ascii_lowercase().as_str()))
        .collect();
    if !bad.is_empty() {
        let names: Vec<String> = bad.iter().map(|b| format!("`{b}`")).collect();
        out.push(
            Finding::new(
                "RH025",
                format!(
                    "the key of `{}` uses {}, which the transport or runtime assigns per delivery: a re-send or redrive gets a new one",
                    intent.id,
                    names.join(", ")
                ),
            )
            .intent(&intent.id)
            .at(fields.loc),
        );
    }
}

/// RH022 key-not-bound-to-fingerprint, RH023 fingerprint-misses-effect-fields.
pub(crate) fn check_binding(a: &Analysis, out: &mut Vec<Finding>) {
    let m = a.manifest;
    for r in &a.intents {
        let intent = &m.intents[r.intent];
        for &g in r.horizons.keys() {
            let comp = &m.components[g];
            let Some(guard) = &comp.dedup else { continue };
            let (bound, loc) = match &guard.binds_fingerprint {
                Some(b) => (b.value, b.loc),
                None => (false, guard.loc),
            };
            if !bound {
                out.push(
                    Finding::new(
                        "RH022",
                        format!(
                            "`{}` does not bind the key to a request fingerprint{}: a reuse of the key with another amount or account gets the first request's result instead of an error",
                            comp.id,
                            if guard.binds_fingerprint.is_none() { " (binds_fingerprint is not declared)" } else { "" }
                        ),
                    )
                    .intent(&intent.id)
                    .component(&comp.id)
                    .at(loc),
                );
            }
        }
        if intent.fingerprint.is_none() {
            out.push(
                Finding::new(
                    "RH023",
                    format!(
                        "`{}` declares no fingerprint: nothing says which fields a reused key must match, so a changed amount or destination goes unnoticed",
                        intent.id
                    ),
                )
                .intent(&intent.id)
                .at(intent.loc),
            );
        }
    }
}
