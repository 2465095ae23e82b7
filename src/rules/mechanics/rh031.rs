//! RH031 content-dedup-ignores-attributes: content-based dedup that hashes
//! the body only (page `docs/rules/RH031.md`). Quiet when every producer
//! sends an explicit deduplication id (`dedup_id: key`), which overrides
//! content hashing (F012).

use crate::analysis::Analysis;
use crate::catalog::Flag;
use crate::manifest::model::Field;
use crate::manifest::model::{DedupId, LinkType};
use crate::rules::{Code, Ctx, Finding};

pub(crate) fn emit(ctx: &Ctx, out: &mut Vec<Finding>) {
    let explicit = explicit_ids(ctx.a);
    for (c, intent) in ctx.reached() {
        if !explicit[c] {
            component(ctx, c, intent, out);
        }
    }
}

/// RH031: content-based dedup hashes the body only.
fn component(ctx: &Ctx, c: usize, intent: &str, out: &mut Vec<Finding>) {
    let comp = &ctx.m.components[c];
    if ctx.values(c).kind.has_flag(Flag::ContentDedupBodyOnly)
        && let Some(cbd) = ctx.values(c).content_based_dedup().filter(|b| b.value)
        && let Some(attrs) = comp
            .texts(Field::MessageAttributes)
            .filter(|a| !a.value.is_empty())
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

/// Per component: whether it has producers and every one of them sends an
/// explicit deduplication id, so content hashing never applies (F012). One
/// pass over the edges.
fn explicit_ids(a: &Analysis) -> Vec<bool> {
    let mut seen = vec![None; a.manifest.components.len()];
    for e in a.model.edges.iter().filter(|e| e.ty == LinkType::SendsTo) {
        let key = e.dedup_id == Some(DedupId::Key);
        let s = &mut seen[e.to()];
        *s = Some(s.unwrap_or(true) && key);
    }
    seen.into_iter().map(|s| s == Some(true)).collect()
}
