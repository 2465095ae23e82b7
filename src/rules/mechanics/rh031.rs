//! RH031 content-dedup-ignores-attributes: content-based dedup that hashes
//! the body only (page `docs/rules/RH031.md`).

use crate::analysis::Analysis;
use crate::analysis::effective as eff;
use crate::catalog::Flag;
use crate::rules::{Code, Ctx, Finding};

pub(crate) fn emit(ctx: &Ctx, out: &mut Vec<Finding>) {
    for (c, intent) in ctx.reached() {
        component(ctx.a, c, intent, out);
    }
}

/// RH031: content-based dedup hashes the body only.
fn component(a: &Analysis, c: usize, intent: &str, out: &mut Vec<Finding>) {
    let comp = &a.manifest.components[c];
    if eff::kind_of(comp).has_flag(Flag::ContentDedupBodyOnly)
        && let Some(cbd) = eff::boolean(comp, "content_based_dedup").filter(|b| b.value)
        && let Some(attrs) = comp.message_attributes().filter(|a| !a.value.is_empty())
    {
        out.push(
            Finding::new(
                Code::RH031,
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
