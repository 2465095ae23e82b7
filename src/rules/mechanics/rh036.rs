//! RH036 result-not-stored: duplicates do not get the original result
//! (page `docs/rules/RH036.md`).

use crate::analysis::Analysis;
use crate::manifest::model::Guard;
use crate::rules::{Code, Ctx, Finding};

pub(crate) fn emit(ctx: &Ctx, out: &mut Vec<Finding>) {
    for (c, intent) in ctx.reached() {
        if let Some(g) = &ctx.m.components[c].dedup {
            guard(ctx.a, c, g, intent, out);
        }
    }
}

/// RH036: the original result is not returned to duplicates.
fn guard(a: &Analysis, c: usize, guard: &Guard, intent: &str, out: &mut Vec<Finding>) {
    let comp = &a.manifest.components[c];
    if !guard.stores_result.as_ref().is_some_and(|s| s.value) {
        out.push(
            Finding::new(
                Code::RH036,
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
