//! RH014 dead-letter-retention-not-longer: a dead-letter queue that keeps
//! messages no longer than its source (page `docs/rules/RH014.md`). A
//! configuration rule: it runs on every component, reached by an intent
//! or not, so an imported template alone is checked.

use crate::catalog::Flag;
use crate::rules::{Code, Ctx, Finding};

pub(crate) fn emit(ctx: &Ctx, out: &mut Vec<Finding>) {
    ctx.per_component(out, component);
}

/// RH014: a standard queue's DLQ that keeps messages no longer than the source.
fn component(ctx: &Ctx, c: usize, intent: Option<&str>, out: &mut Vec<Finding>) {
    let m = ctx.m;
    let comp = &m.components[c];
    if ctx.values(c).kind.has_flag(Flag::DlqKeepsEnqueueTime)
        && let Some(dl) = comp.dead_letter()
        && let Some(d) = dl.to.index()
        && let (Some(src), Some(dst)) = (ctx.values(c).retention(), ctx.values(d).retention())
        && dst.value <= src.value
    {
        let dlq = &m.components[d];
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
            .on_value(dlq, &dst),
        );
    }
}
