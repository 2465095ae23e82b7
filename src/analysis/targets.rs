//! What a link does by the kind of its target, whichever link type reaches
//! it: an asynchronously invoked function queues the event in its own
//! event queue (F024; retried within it, F023), and a target the catalog
//! documents as at-least-once (Lambda's async queue F025, event-source
//! mappings F026, asynchronous Express workflows F032) gives birth to
//! duplicates on every start.

use super::edges::Why;
use super::effective as eff;
use super::model::{Birth, EdgeModel, NodeModel};
use crate::catalog::Generic;
use crate::manifest::model::{Component, LinkType};

/// Adds what the target `cb` of edge `em` does to a copy.
pub(super) fn add_target(
    em: &mut EdgeModel,
    cb: &Component,
    na: &NodeModel,
    nb: &NodeModel,
    why: &mut Why,
) {
    if !matches!(
        em.ty,
        LinkType::SendsTo | LinkType::DeliversTo | LinkType::Calls
    ) || !nb.generic.is_compute()
    {
        return;
    }
    // A topic (SNS, EventBridge) invokes a function asynchronously: the
    // event waits in the function's queue as a `sends_to` would (`add_send`).
    if em.ty == LinkType::DeliversTo
        && na.generic == Generic::Topic
        && nb.generic == Generic::Function
        && let Some(age) = eff::dur(cb, "max_event_age")
    {
        em.delay = em.delay.add(age.value);
        em.birth = Some(Birth::Redelivery);
        why.add(|| {
            format!(
                "async invocation keeps the event up to max_event_age {}{}",
                age.value,
                age.provenance()
            )
        });
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
