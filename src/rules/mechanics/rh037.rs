//! RH037 durable-step-side-effect: at-least-once steps that perform an
//! effect without a key (page `docs/rules/RH037.md`).

use std::collections::BTreeMap;

use crate::catalog::Flag;
use crate::catalog::Generic;
use crate::rules::{Code, Ctx, Finding};

pub(crate) fn emit(ctx: &Ctx, out: &mut Vec<Finding>) {
    let step_of = retried_steps(ctx);
    for (c, intent) in ctx.reached() {
        component(ctx, c, step_of.get(&c), intent, out);
    }
}

/// The attempts of a link retried more than once.
fn attempts(l: &crate::manifest::model::Link) -> Option<u64> {
    l.retry
        .as_ref()
        .and_then(|r| r.attempts.as_ref())
        .map(|x| x.value)
        .filter(|&n| n > 1)
}

/// For RH037, the steps: what a workflow calls with retries, mapped to the
/// workflow's id (the first such workflow in component order).
fn retried_steps<'a>(ctx: &Ctx<'a>) -> BTreeMap<usize, &'a str> {
    let mut step_of = BTreeMap::new();
    for (w, v) in ctx.m.components.iter().zip(ctx.all_values()) {
        if v.kind.generic != Generic::Workflow {
            continue;
        }
        for l in w.calls() {
            if let (Some(_), Some(t)) = (attempts(l), l.to.index()) {
                step_of.entry(t).or_insert(w.id.as_str());
            }
        }
    }
    step_of
}

/// RH037: at-least-once steps that perform an effect without a key: a
/// workflow kind whose steps run at least once, or a step a workflow calls
/// with retries (`retried_by`, the workflow's id), or any workflow's own
/// retried call to a provider.
fn component(ctx: &Ctx, c: usize, retried_by: Option<&&str>, intent: &str, out: &mut Vec<Finding>) {
    let comp = &ctx.m.components[c];
    let kind = ctx.values(c).kind;
    let how = if kind.has_flag(Flag::StepsAtLeastOnce)
        || (kind.generic == Generic::Workflow && kind.delivery.as_deref() == Some("at-least-once"))
    {
        Some(format!(
            "runs its steps at least once ({})",
            comp.kind.value
        ))
    } else {
        retried_by.map(|w| format!("is a step that `{w}` retries"))
    };
    let workflow = kind.generic == Generic::Workflow;
    for l in comp.effects().iter().chain(comp.calls()) {
        let Some(t) = l.to.index() else {
            continue;
        };
        if ctx.generic(t) != Generic::External || l.passes_key() {
            continue;
        }
        // A workflow that calls the provider itself with retries (a Task
        // state with `Retry`) repeats the effect on a retry, whatever
        // guarantee its execution has.
        let how = match (&how, workflow.then(|| attempts(l)).flatten()) {
            (Some(h), _) => h.clone(),
            (None, Some(n)) => format!("retries its own call ({n} attempts, {})", comp.kind.value),
            (None, None) => continue,
        };
        out.push(
            Finding::new(
                Code::RH037,
                format!(
                    "`{}` {how} and reaches `{}` without a key: a step re-run before its checkpoint repeats the effect",
                    comp.id, l.to.value
                ),
            )
            .intent(intent)
            .component(&comp.id)
            .at(l.loc),
        );
    }
}
