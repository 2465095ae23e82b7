//! RH006 redrive-after-messages-expire: a redrive promised later than the
//! dead-letter queue still holds the messages (page `docs/rules/RH006.md`).
//!
//! The analysis caps every step out of a transport at the message's
//! enqueue age plus the transport's retention (`analysis::clock`); a
//! redrive whose declared `within` the cap cuts short is recorded per
//! intent (`IntentResult::redrive_caps`), and this rule reports it.

use crate::manifest::model::LinkField;
use crate::rules::{Code, Ctx, Finding};

/// RH006: for each intent, each redrive whose `within` outlasts the
/// messages it is meant to move.
pub(crate) fn emit(ctx: &Ctx, out: &mut Vec<Finding>) {
    let (a, m) = (ctx.a, ctx.m);
    for r in &a.intents {
        let intent = &m.intents[r.intent];
        for &(e, (promised, deadline)) in &r.redrive_caps {
            let em = &a.model.edges[e];
            let dlq = &m.components[em.from()];
            let within = dlq.redrive().and_then(|l| l.dur(LinkField::Within));
            let clock = if ctx.values(em.from()).dlq_keeps_enqueue_time() {
                "it keeps each message's original enqueue time, F004"
            } else {
                "its retention counts from the move, F005"
            };
            out.push(
                Finding::new(
                    Code::RH006,
                    format!(
                        "the redrive of `{}` is promised within {}, which reaches age {promised}, but the messages expire from `{}` at age {deadline} at the latest ({clock}): a redrive that late finds them gone, and the replay it plans loses them",
                        dlq.id,
                        within.map_or(em.delay(), |w| w.value),
                        dlq.id,
                    ),
                )
                .intent(&intent.id)
                .component(&dlq.id)
                .horizon(promised)
                .window(deadline)
                .at(within.map_or(em.loc, |w| w.loc)),
            );
        }
    }
}
