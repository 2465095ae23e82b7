//! RH042 unused-dedup-store: dedup stores that protect nothing (page
//! `docs/rules/RH042.md`).
//!
//! Only stores declared as dedup stores count: a store of a dedup kind
//! ([`DEDUP_KINDS`]), one a guard names, or one with a unique constraint. A business table, or a stream's
//! source table imported from infrastructure, is not one.

/// Kinds that exist only to hold idempotency keys.
const DEDUP_KINDS: &[&str] = &["powertools-idempotency"];

use crate::analysis::LayerType;
use crate::rules::{Code, Ctx, Finding};

/// RH042: stores that protect nothing.
pub(crate) fn emit(ctx: &Ctx, out: &mut Vec<Finding>) {
    let (a, first) = (ctx.a, |c| ctx.a.first_intent_reaching(c));
    let m = a.manifest;
    if m.intents.is_empty() {
        return;
    }
    let mut used: Vec<bool> = (0..m.components.len())
        .map(|c| first(c).is_some())
        .collect();
    for (g, node) in a.model.nodes.iter().enumerate() {
        if let (Some(gm), Some(_)) = (&node.guard, first(g)) {
            used[gm.layer.component] = true;
        }
    }
    let mut named = vec![false; m.components.len()];
    for comp in &m.components {
        if let Some(s) = comp.dedup.as_ref().and_then(|g| g.store.index()) {
            named[s] = true;
        }
    }
    for (c, comp) in m.components.iter().enumerate() {
        let unique = a.model.nodes[c]
            .own_layer
            .as_ref()
            .is_some_and(|l| l.ty == LayerType::UniqueConstraint);
        let dedup_store =
            named[c] || unique || DEDUP_KINDS.contains(&ctx.values(c).kind.id.as_str());
        if !a.model.nodes[c].generic.is_store() || used[c] || !dedup_store {
            continue;
        }
        out.push(
            Finding::new(
                Code::RH042,
                format!(
                    "`{}` is declared as a {} but no guard or effect on any intent's path uses it: it protects nothing",
                    comp.id,
                    a.model.nodes[c].generic.name()
                ),
            )
            .component(&comp.id)
            .at(comp.loc),
        );
    }
}
