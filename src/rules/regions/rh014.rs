//! RH014 dead-letter-retention-not-longer: a dead-letter queue that keeps
//! messages no longer than its source (page `docs/rules/RH014.md`).

use crate::analysis::Analysis;
use crate::analysis::effective as eff;
use crate::catalog::Flag;
use crate::rules::{Code, Ctx, Finding};

pub(crate) fn emit(ctx: &Ctx, out: &mut Vec<Finding>) {
    // A configuration rule: it needs no intent, so an imported template
    // alone is checked; the finding names the first intent reaching the
    // component where there is one.
    for c in 0..ctx.m.components.len() {
        component(ctx.a, c, ctx.reached_by(c), out);
    }
}

/// RH014: a standard queue's DLQ that keeps messages no longer than the source.
fn component(a: &Analysis, c: usize, intent: Option<&str>, out: &mut Vec<Finding>) {
    let m = a.manifest;
    let comp = &m.components[c];
    if eff::kind_of(comp).has_flag(Flag::DlqKeepsEnqueueTime)
        && let Some(dl) = &comp.dead_letter
        && let Some(dlq) = m.target(&dl.to)
        && let (Some(src), Some(dst)) = (eff::dur(comp, "retention"), eff::dur(dlq, "retention"))
        && dst.value <= src.value
    {
        out.push(
            Finding::new(
                Code::RH014,
                format!(
                    "dead-letter queue `{}` keeps messages {}{} and `{}` keeps them {}{}: the move keeps the original enqueue time, so a message can expire from the dead-letter queue before anyone redrives it",
                    dlq.id,
                    dst.value,
                    dst.provenance(),
                    comp.id,
                    src.value,
                    src.provenance()
                ),
            )
            .maybe_intent(intent)
            .component(&dlq.id)
            .at(dst.loc().unwrap_or(dlq.kind.loc)),
        );
    }
}
