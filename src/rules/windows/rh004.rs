//! RH004 thin-retention-margin: a window above the horizon by less than
//! the policy's margin (page `docs/rules/RH004.md`).

use super::at_layer;
use crate::analysis::{IntentResult, LayerReach};
use crate::rules::{Code, Ctx, Finding};
use crate::time::Dur;

/// RH004: a layer whose window exceeds the latest copy by less than the
/// margin policy asks.
pub(super) fn emit(
    ctx: &Ctx,
    r: &IntentResult,
    l: &LayerReach,
    reach: Dur,
    out: &mut Vec<Finding>,
) {
    let policy = ctx.options.margin;
    let window = l.layer.window.value;
    if window.is_unbounded() || window >= policy.required_window(reach) || l.layer.fixed {
        return;
    }
    let lid = &ctx.m.components[l.layer.component].id;
    let message = format!(
        "`{lid}` keeps keys {} and the latest copy it must stop arrives {} after its first sighting of the key: the margin {} is below the policy's {} ({} % or {})",
        window,
        reach,
        window.saturating_sub(reach),
        policy.of(reach),
        policy.percent,
        if policy.minimum == 300 {
            "5 minutes".to_string()
        } else {
            Dur::secs(policy.minimum).to_string()
        }
    );
    out.push(at_layer(ctx.a, r, l, reach, Code::RH004, message));
}
