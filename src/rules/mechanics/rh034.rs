//! RH034 blind-in-progress-expiry: an in-progress claim that expires and is
//! retried blindly (page `docs/rules/RH034.md`).

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

/// RH034: an in-progress claim that expires and is retried blindly.
fn guard(a: &Analysis, c: usize, guard: &Guard, intent: &str, out: &mut Vec<Finding>) {
    let comp = &a.manifest.components[c];
    if let Some(ip) = &guard.in_progress
        && ip.expires_after.is_some()
        && ip.on_expiry.as_ref().is_none_or(|x| x.value == "retry")
    {
        out.push(
            Finding::new(
                Code::RH034,
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
