//! RH030 send-side-dedup-only: a copy that a transport redelivers or
//! redrives downstream of its own send-side dedup window, where that window
//! is the nearest dedup upstream and nothing after sees the copy (page
//! `docs/rules/RH030.md`).
//!
//! Quiet for a copy born by a retry, a failover or a replay, and for one
//! whose nearest dedup upstream is a receive-side guard or a provider key:
//! no send-side window is then what the copy slips past (RH038 reports a
//! copy no layer sees; RH001 one a layer forgot).

use super::{Unseen, unseen_copies};
use crate::analysis::{Birth, BornAt, Layer};
use crate::rules::{Code, Ctx, Finding};

pub(crate) fn emit(ctx: &Ctx, out: &mut Vec<Finding>) {
    unseen_copies(ctx, |u| {
        let Some(window) = send_side_only(ctx, &u) else {
            return;
        };
        let eid = &ctx.m.components[u.effect].id;
        let tid = &ctx.m.components[window.component].id;
        let message = format!(
            "`{tid}`'s send-side window of {}{} is the only dedup on the way to `{eid}`, and it sits upstream of {}, where {} is born: it cannot stop that copy{}",
            window.window.value,
            window.window.provenance(),
            u.born,
            u.dup.birth.describe(),
            if u.dup.bypass.layers_seen == 0 {
                ""
            } else {
                ", and the layers after it let it by too"
            }
        );
        out.push(u.finding(ctx, Code::RH030, message));
    });
}

/// The send-side window that is the nearest dedup upstream of where the
/// copy is born, when it is born by a transport's redelivery or redrive.
pub(super) fn send_side_only<'a>(ctx: &Ctx<'a>, u: &Unseen) -> Option<&'a Layer> {
    if !u.dup.born_after_layer || !matches!(u.dup.birth, Birth::Redelivery | Birth::Redrive) {
        return None;
    }
    let BornAt::Edge(e) = u.dup.born_at else {
        return None;
    };
    let em = &ctx.a.model.edges[e];
    let k = u
        .steps
        .iter()
        .position(|s| s.from == em.from() && s.to == em.to())?;
    let origin = u.intent.origin.index()?;
    let upstream = std::iter::once(origin).chain(u.steps[..k].iter().map(|s| s.to));
    let mut nearest = None;
    for c in upstream {
        let node = &ctx.a.model.nodes[c];
        if let Some(w) = node.transport_window.as_deref() {
            nearest = Some(w);
        }
        if node.guard.is_some() || node.own_layer.is_some() || node.name_window.is_some() {
            nearest = None;
        }
    }
    nearest
}
