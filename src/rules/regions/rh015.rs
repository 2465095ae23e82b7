//! RH015 visibility-shorter-than-processing: a visibility timeout shorter
//! than the consumer's processing time (page `docs/rules/RH015.md`).

use crate::analysis::Analysis;
use crate::analysis::effective as eff;
use crate::catalog::Generic;
use crate::rules::{Code, Ctx, Finding, Severity};

pub(crate) fn emit(ctx: &Ctx, out: &mut Vec<Finding>) {
    // A configuration rule: it needs no intent, so an imported template
    // alone is checked; the finding names the first intent reaching the
    // component where there is one.
    for c in 0..ctx.m.components.len() {
        component(ctx.a, c, ctx.reached_by(c), out);
    }
}

/// RH015: visibility timeout shorter than the consumer's processing time.
fn component(a: &Analysis, c: usize, intent: Option<&str>, out: &mut Vec<Finding>) {
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
        let Some(p) = processing else { continue };
        let lambda = comp.kind.value.starts_with("sqs-")
            && eff::kind_of(consumer).vendor == "aws"
            && a.model.nodes[l.to.index().unwrap_or(c)].generic == Generic::Function;
        // F073: Lambda refuses a mapping below one times the function
        // timeout, and AWS asks for at least six times.
        let (severity, problem) = if vis.value < p {
            (
                if lambda {
                    Severity::Error
                } else {
                    Severity::Warning
                },
                "another consumer receives it while the first still works on it".to_string(),
            )
        } else if lambda && vis.value < p.times(6) {
            (
                Severity::Warning,
                format!(
                    "AWS asks for at least six times the function timeout ({}, F073), so a retried batch is not redelivered while the first still runs",
                    p.times(6)
                ),
            )
        } else {
            continue;
        };
        let mut f = Finding::new(
            Code::RH015,
            format!(
                "`{}` hides a received message for {}{} but `{}` may take {} to process it: {problem}",
                comp.id,
                vis.value,
                vis.provenance(),
                consumer.id,
                p
            ),
        )
        .maybe_intent(intent)
        .component(&comp.id)
        .at(vis.loc().unwrap_or(comp.kind.loc));
        f.severity = severity;
        out.push(f);
    }
}
