//! RH015 visibility-shorter-than-processing: a visibility timeout shorter
//! than the consumer's processing time (page `docs/rules/RH015.md`).

use crate::analysis::Analysis;
use crate::analysis::effective as eff;
use crate::rules::{Code, Ctx, Finding};

pub(crate) fn emit(ctx: &Ctx, out: &mut Vec<Finding>) {
    for (c, intent) in ctx.reached() {
        component(ctx.a, c, intent, out);
    }
}

/// RH015: visibility timeout shorter than the consumer's processing time.
fn component(a: &Analysis, c: usize, intent: &str, out: &mut Vec<Finding>) {
    let m = a.manifest;
    let comp = &m.components[c];
    if !a.model.nodes[c].generic.is_transport() {
        return;
    }
    let Some(vis) = eff::dur(comp, "visibility_timeout") else {
        return;
    };
    for l in &comp.delivers_to {
        let Some(consumer) = m.target(&l.to) else {
            continue;
        };
        let processing = l
            .retry
            .as_ref()
            .and_then(|r| r.timeout.as_ref())
            .map(|t| t.value)
            .or_else(|| eff::dur(consumer, "timeout").map(|t| t.value));
        if let Some(p) = processing
            && vis.value < p
        {
            out.push(
                Finding::new(
                    Code::RH015,
                    format!(
                        "`{}` hides a received message for {}{} but `{}` may take {} to process it: another consumer receives it while the first still works on it",
                        comp.id,
                        vis.value,
                        vis.provenance(),
                        consumer.id,
                        p
                    ),
                )
                .intent(intent)
                .component(&comp.id)
                .at(vis.loc().unwrap_or(comp.kind.loc)),
            );
        }
    }
}
