//! RH023 fingerprint-misses-effect-fields: an intent whose fingerprint does
//! not cover what its effects depend on (page `docs/rules/RH023.md`).

use crate::rules::{Code, Ctx, Finding};

pub(crate) fn emit(ctx: &Ctx, out: &mut Vec<Finding>) {
    let m = ctx.m;
    for r in &ctx.a.intents {
        let intent = &m.intents[r.intent];
        if intent.fingerprint.is_none() {
            out.push(
                Finding::new(
                    Code::RH023,
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
