//! RH038 at-least-once-without-dedup: a copy that reaches an effect with no
//! dedup layer on its way, or none after where it is born, and that RH030
//! does not report as slipping past a send-side window (page
//! `docs/rules/RH038.md`).

use super::rh030::send_side_only;
use super::unseen_copies;
use crate::rules::{Code, Ctx, Finding};

pub(crate) fn emit(ctx: &Ctx, out: &mut Vec<Finding>) {
    unseen_copies(ctx, |u| {
        if u.dup.bypass.layers_seen > 0 {
            return;
        }
        let eid = &ctx.m.components[u.effect].id;
        let message = if !u.dup.born_after_layer {
            format!(
                "{} on {} reaches `{eid}` with no dedup layer at all",
                u.dup.birth.describe(),
                u.born,
            )
        } else if send_side_only(ctx, &u).is_none() {
            format!(
                "{} on {} reaches `{eid}` with no dedup layer after it: every layer on the way sits upstream of where the copy is born",
                u.dup.birth.describe(),
                u.born,
            )
        } else {
            return;
        };
        out.push(u.finding(ctx, Code::RH038, message));
    });
}
