//! RH038 at-least-once-without-dedup: a copy that reaches an effect with no
//! dedup layer on its way (page `docs/rules/RH038.md`).

use super::unseen_copies;
use crate::rules::{Code, Ctx, Finding};

pub(crate) fn emit(ctx: &Ctx, out: &mut Vec<Finding>) {
    unseen_copies(ctx, |u| {
        if !u.dup.born_after_layer && u.dup.bypass.layers_seen == 0 {
            let message = format!(
                "{} on {} reaches `{}` with no dedup layer at all",
                u.dup.birth.describe(),
                u.born,
                ctx.m.components[u.effect].id
            );
            out.push(u.finding(ctx, Code::RH038, message));
        }
    });
}
