//! RH004 thin-retention-margin: a window above the horizon by less than
//! the policy's margin (page `docs/rules/RH004.md`).

use super::path_to;
use crate::analysis::{Analysis, IntentResult, LayerReach, window_loc};
use crate::rules::{Code, Finding, Margin};
use crate::time::Dur;

/// RH004: a layer whose window exceeds the latest copy by less than the
/// margin policy asks.
pub(super) fn emit(
    a: &Analysis,
    r: &IntentResult,
    l: &LayerReach,
    reach: Dur,
    policy: Margin,
    out: &mut Vec<Finding>,
) {
    let m = a.manifest;
    let intent = &m.intents[r.intent];
    let origin = intent.origin.index().unwrap_or(0);
    let window = l.layer.window.value;
    if window.is_unbounded()
        || window >= policy.required_window(reach)
        || platform_fixed(a, &l.layer)
    {
        return;
    }
    let lid = &m.components[l.layer.component].id;
    let mut f = Finding::new(
        Code::RH004,
        format!(
            "`{lid}` keeps keys {} and the latest copy arrives at {}: the margin {} is below the policy's {} ({} % or {})",
            window,
            reach,
            Dur::Secs(window.secs().unwrap_or(0) - reach.secs().unwrap_or(0)),
            policy.of(reach),
            policy.percent,
            if policy.minimum == 300 { "5 minutes".to_string() } else { Dur::Secs(policy.minimum).to_string() }
        ),
    )
    .intent(&intent.id)
    .component(lid)
    .horizon(reach)
    .window(window)
    .at(window_loc(m, &l.layer));
    f.path = path_to(a, r, l.at, origin);
    out.push(f);
}

/// A window the platform fixes (the SQS FIFO five minutes) cannot be raised:
/// a thin margin there is for the horizon to fix, not the window.
fn platform_fixed(a: &Analysis, layer: &crate::analysis::Layer) -> bool {
    use crate::analysis::effective::Origin;
    let Origin::Catalog { kind, .. } = &layer.window.origin else {
        return false;
    };
    let field = if layer.ty == crate::analysis::LayerType::TransportWindow {
        "dedup_window"
    } else {
        return false;
    };
    let _ = a;
    crate::catalog::catalog()
        .kind(kind)
        .and_then(|k| k.fields.get(field))
        .is_some_and(|f| f.fixed)
}
