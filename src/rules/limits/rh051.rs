//! RH051 delivery-policy-not-applied: a delivery policy written where the
//! platform applies a fixed one (page `docs/rules/RH051.md`): SNS retries
//! AWS-managed endpoints by its 23-day policy, and only HTTP/S
//! subscriptions take a policy of their own (F016).

use crate::rules::{Code, Ctx, Finding};

/// RH051: each subscription whose declared `retry` the analysis set aside.
pub(crate) fn emit(ctx: &Ctx, out: &mut Vec<Finding>) {
    let (a, m) = (ctx.a, ctx.m);
    for em in a.model.edges.iter().filter(|e| e.policy_not_applied) {
        // A configuration rule: the policy is set aside whether or not an
        // intent reaches the topic.
        let intent = ctx.reached_by(em.from());
        let (topic, target) = (&m.components[em.from()], &m.components[em.to()]);
        let policy = ctx
            .values(em.from())
            .max_event_age()
            .map(|d| format!(", {}{}", d.value, d.provenance()))
            .unwrap_or_default();
        let f = Finding::new(
                Code::RH051,
                format!(
                    "the `retry` on `{}`'s subscription to `{}` does not apply: SNS delivers to an AWS-managed endpoint (a queue, a function, a stream) by its fixed policy{policy}; only HTTP/S subscriptions take a delivery policy (F016), so the horizon uses the fixed one",
                    topic.id, target.id
                ),
            )
            .component(&topic.id)
            .subject(format!("to {}", target.id))
            .at(em.loc);
        out.push(match intent {
            Some(i) => f.intent(i),
            None => f,
        });
    }
}
