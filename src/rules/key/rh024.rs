//! RH024 key-not-persisted-before-retry: a generated key not persisted
//! before retries begin (page `docs/rules/RH024.md`).

use crate::analysis::Analysis;
use crate::manifest::model::Intent;
use crate::rules::{Code, Ctx, Finding};

pub(crate) fn emit(ctx: &Ctx, out: &mut Vec<Finding>) {
    for r in &ctx.a.intents {
        intent(ctx.a, &ctx.m.intents[r.intent], out);
    }
}

/// RH024: a generated key that is not persisted before retries begin.
fn intent(a: &Analysis, intent: &Intent, out: &mut Vec<Finding>) {
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
                Code::RH024,
                format!(
                    "the key of `{}` is generated at `{}` but not persisted before retries begin: a retry of `{}` {} `{}` after a crash carries a new key",
                    intent.id,
                    m.components[mc].id,
                    m.components[mc].id,
                    em.ty.field(),
                    m.components[em.to()].id
                ),
            )
            .intent(&intent.id)
            .component(&m.components[mc].id)
            .at(loc),
        );
    }
}
