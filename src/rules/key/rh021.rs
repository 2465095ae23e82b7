//! RH021 key-not-propagated: a link on the way that does not pass the key
//! (page `docs/rules/RH021.md`).

use crate::analysis::{Analysis, Class, Dup, IntentResult, Step};
use crate::manifest::model::Intent;
use crate::rules::{Code, Ctx, Finding};

pub(crate) fn emit(ctx: &Ctx, out: &mut Vec<Finding>) {
    let (a, m) = (ctx.a, ctx.m);
    for r in &a.intents {
        let intent = &m.intents[r.intent];
        let origin = intent.origin.index().unwrap_or(0);
        for (&effect, list) in &r.surviving {
            for (class, dup, steps) in list {
                if *class == Class::Lost && dup.bypass.lost_key.is_some() {
                    let path = IntentResult::path_ids(m, origin, steps);
                    finding(a, intent, effect, dup, path, steps, out);
                }
            }
        }
    }
}

/// RH021: a link on the way that does not pass the key.
fn finding(
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
        Code::RH021,
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
