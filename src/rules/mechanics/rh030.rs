//! RH030 send-side-dedup-only: a copy born downstream of the only dedup on
//! its way (page `docs/rules/RH030.md`).

use super::unseen_copies;
use crate::rules::{Code, Ctx, Finding};

pub(crate) fn emit(ctx: &Ctx, out: &mut Vec<Finding>) {
    unseen_copies(ctx, |u| {
        if u.dup.born_after_layer {
            let eid = &ctx.m.components[u.effect].id;
            let message = if u.dup.bypass.layers_seen == 0 {
                format!(
                    "the only dedup on the way to `{eid}` sits upstream of {}, where {} is born: send-side dedup cannot stop it",
                    u.born,
                    u.dup.birth.describe()
                )
            } else {
                format!(
                    "the send-side dedup on the way to `{eid}` sits upstream of {}, where {} is born, so it cannot stop it, and the layers after it let it by too",
                    u.born,
                    u.dup.birth.describe()
                )
            };
            out.push(u.finding(ctx, Code::RH030, message));
        }
    });
}
