//! What a link does by the kind of its target, whichever link type reaches
//! it: an asynchronously invoked function (SNS, EventBridge, a schedule,
//! S3, a `sends_to`, a call, a failure destination) queues the event in
//! its own event queue for up to its maximum event age (F024; retried
//! within it, F023; duplicated without errors, F025), and a target the catalog
//! documents as at-least-once (Lambda's async queue F025, event-source
//! mappings F026, asynchronous Express workflows F032) gives birth to
//! duplicates on every start.

use super::edge_model::EdgeModel;
use super::edge_model::Why;
use super::effective as eff;
use super::model::{Birth, NodeModel};
use crate::catalog::Generic;
use crate::manifest::model::Field;
use crate::manifest::model::{Component, LinkType};

/// Adds what the target `cb` of edge `em` does to a copy.
pub(super) fn add_target(
    em: &mut EdgeModel,
    cb: &Component,
    na: &NodeModel,
    nb: &NodeModel,
    why: &mut Why,
) {
    if !nb.generic.is_compute() {
        return;
    }
    // Every asynchronous invocation waits in the function's own event
    // queue, whichever link brings it.
    if nb.generic == Generic::Function
        && invokes_async(em.ty, na.generic)
        && let Some(age) = eff::dur(cb, Field::MaxEventAge)
    {
        em.delay = em.delay.add(age.value);
        // The event waits in the function's queue after it left the
        // transport: the transport's retention does not end that wait.
        if let Some(hold) = em.hold.as_mut() {
            *hold = super::clock::Hold::new(hold.retention(), hold.after().add(age.value));
        }
        em.birth = Some(Birth::Redelivery);
        why.add(|| {
            format!(
                "async invocation keeps the event up to max_event_age {}{}",
                age.value,
                age.provenance()
            )
        });
    }
    if !matches!(
        em.ty,
        LinkType::SendsTo | LinkType::DeliversTo | LinkType::Calls
    ) {
        return;
    }
    let kind = eff::kind_of(cb);
    if em.birth.is_none() && kind.delivery.as_deref() == Some("at-least-once") {
        em.birth = Some(Birth::Redelivery);
        why.add(|| {
            format!(
                "{} runs each start at least once ({})",
                kind.id,
                kind.delivery_source.as_deref().unwrap_or_default()
            )
        });
    }
}

/// Whether a link of type `ty` out of a `from` component invokes a
/// function (one with a `max_event_age`) asynchronously: a send, a call,
/// a failure destination, and a push from a topic, bus, schedule or any
/// other producer do; a queue or stream is polled by an event-source
/// mapping, which invokes synchronously (F026), and a redrive or an
/// effect does not invoke.
fn invokes_async(ty: LinkType, from: Generic) -> bool {
    match ty {
        LinkType::SendsTo | LinkType::Calls | LinkType::DeadLetter => true,
        LinkType::DeliversTo => !matches!(from, Generic::Queue | Generic::Stream),
        LinkType::Redrive | LinkType::Effects => false,
    }
}
