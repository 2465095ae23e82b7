//! RH015 visibility-shorter-than-processing: a visibility timeout shorter
//! than the consumer's processing time (page `docs/rules/RH015.md`). A
//! configuration rule: it runs on every component, reached by an intent
//! or not, so an imported template alone is checked.

use crate::catalog::Generic;
use crate::rules::{Code, Ctx, Finding, Severity};

pub(crate) fn emit(ctx: &Ctx, out: &mut Vec<Finding>) {
    ctx.per_component(out, component);
}

/// RH015: visibility timeout shorter than the consumer's processing time.
fn component(ctx: &Ctx, c: usize, intent: Option<&str>, out: &mut Vec<Finding>) {
    let m = ctx.m;
    let comp = &m.components[c];
    if !ctx.generic(c).is_transport() {
        return;
    }
    let Some(vis) = ctx.values(c).visibility_timeout() else {
        return;
    };
    for l in comp.delivers_to() {
        let Some(t) = l.to.index() else {
            continue;
        };
        let consumer = &m.components[t];
        let processing = l
            .retry
            .as_ref()
            .and_then(|r| r.timeout.as_ref())
            .map(|t| t.value)
            .or_else(|| ctx.values(t).timeout().map(|t| t.value));
        let Some(p) = processing else { continue };
        let lambda = comp.kind.value.starts_with("sqs-")
            && ctx.values(t).kind.vendor == "aws"
            && ctx.generic(t) == Generic::Function;
        // F073: Lambda refuses a mapping below one times the function
        // timeout, and AWS asks for at least six times. The message states
        // the comparison made.
        let (severity, message) = if vis.value < p {
            (
                if lambda {
                    Severity::Error
                } else {
                    Severity::Warning
                },
                format!(
                    "`{}` hides a received message for {}{}, less than the {p} `{}` may take to process it: another consumer receives it while the first still works on it",
                    comp.id,
                    vis.value,
                    vis.provenance(),
                    consumer.id,
                ),
            )
        } else if lambda && vis.value < p.times(6) {
            (
                Severity::Warning,
                format!(
                    "`{}` hides a received message for {}{}, less than 6 × the {p} timeout of `{}` ({}): AWS asks for at least six times the function timeout (F073), so a retried batch is not redelivered while the first still runs",
                    comp.id,
                    vis.value,
                    vis.provenance(),
                    consumer.id,
                    p.times(6)
                ),
            )
        } else {
            continue;
        };
        let mut f = Finding::new(Code::RH015, message)
            .maybe_intent(intent)
            .on_value(comp, &vis);
        f.severity = severity;
        out.push(f);
    }
}
