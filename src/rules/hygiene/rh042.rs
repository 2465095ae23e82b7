//! RH042 unused-dedup-store: stores that protect nothing (page
//! `docs/rules/RH042.md`).

use crate::rules::{Code, Ctx, Finding};

/// RH042: stores that protect nothing.
pub(crate) fn emit(ctx: &Ctx, out: &mut Vec<Finding>) {
    let (a, first) = (ctx.a, ctx.a.first_intent_reaching());
    let m = a.manifest;
    if m.intents.is_empty() {
        return;
    }
    let mut used: Vec<bool> = first.iter().map(Option::is_some).collect();
    for (g, node) in a.model.nodes.iter().enumerate() {
        if let (Some(gm), Some(_)) = (&node.guard, first[g]) {
            used[gm.layer.component] = true;
        }
    }
    for (c, comp) in m.components.iter().enumerate() {
        if !a.model.nodes[c].generic.is_store() || used[c] {
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
