//! RH033 unresolved-in-progress-ambiguity: an external effect performed
//! after a claim with nothing to resolve a crash between the effect and the
//! completion record (page `docs/rules/RH033.md`).

use crate::analysis::IntentResult;
use crate::catalog::Generic;
use crate::manifest::model::Field;
use crate::manifest::model::Manifest;
use crate::rules::{Code, Ctx, Finding};

pub(crate) fn emit(ctx: &Ctx, out: &mut Vec<Finding>) {
    let performers = performers(ctx.m);
    for r in &ctx.a.intents {
        intent(ctx, r, &performers, out);
    }
}

/// For RH033: the guarded components that perform each effect, in
/// component order, computed once rather than searched for every intent.
fn performers(m: &Manifest) -> Vec<Vec<usize>> {
    let mut performers: Vec<Vec<usize>> = vec![Vec::new(); m.components.len()];
    for (pc, performer) in m.components.iter().enumerate() {
        if performer.dedup.is_none() {
            continue;
        }
        for l in performer.effects() {
            if let Some(ec) = l.to.index()
                && performers[ec].last() != Some(&pc)
            {
                performers[ec].push(pc);
            }
        }
    }
    performers
}

/// RH033: an external effect performed after a claim, with nothing to
/// resolve a crash between the effect and the completion record.
fn intent(ctx: &Ctx, r: &IntentResult, performers: &[Vec<usize>], out: &mut Vec<Finding>) {
    let (a, m) = (ctx.a, ctx.m);
    let intent = &m.intents[r.intent];
    for e in &intent.effects {
        let Some(ec) = e.index() else {
            continue;
        };
        if a.model.nodes[ec].generic != Generic::External || !r.horizons.contains_key(ec) {
            continue;
        }
        let ext = &m.components[ec];
        for &pc in &performers[ec] {
            let performer = &m.components[pc];
            if !r.horizons.contains_key(pc) {
                continue;
            }
            let Some(link) = performer.effects().iter().find(|l| l.to.value == ext.id) else {
                continue;
            };
            let provider_dedups = ctx.values(ec).accepts_key() && link.passes_key();
            let lookup = ctx.values(ec).lookup_by_reference();
            let reconciled = ext
                .choice_name(Field::Reconciliation)
                .is_some_and(|x| x.value != "none");
            if provider_dedups || lookup || reconciled {
                continue;
            }
            out.push(
                Finding::new(
                    Code::RH033,
                    format!(
                        "`{}` claims the key, then calls `{}`; if it crashes after the effect and before recording completion, nothing tells whether the effect happened (no provider dedup by our key, no lookup by reference, no reconciliation)",
                        performer.id, ext.id
                    ),
                )
                .intent(&intent.id)
                .component(&ext.id)
                .at(ext.choice_name(Field::Reconciliation).map_or(ext.loc, |x| x.loc)),
            );
        }
    }
}
