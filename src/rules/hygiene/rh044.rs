//! RH044 no-intent: a manifest that declares components but no intent, so
//! nothing was checked (page `docs/rules/RH044.md`).

use crate::rules::{Code, Ctx, Finding};

/// RH044: components and no intent. Every horizon and window rule reads
/// intents, so without one a clean result would only mean nothing was
/// looked at: say so, and say what to add.
pub(crate) fn emit(ctx: &Ctx, out: &mut Vec<Finding>) {
    let m = ctx.m;
    if !m.intents.is_empty() {
        return;
    }
    // The component declared first in the files, where the user reads.
    let Some(first) = m
        .components
        .iter()
        .min_by_key(|c| (c.loc.file, c.loc.line, c.loc.col))
    else {
        return;
    };
    let (origin, effect) = suggestion(ctx);
    out.push(
        Finding::new(
            Code::RH044,
            format!(
                "the manifest declares {} component(s) but no intent: no request, key or effect is named, so no horizon, window or key was checked; add an `intents:` entry naming the request that must take effect once, e.g. `intents: {{ charge: {{ origin: {origin}, effect: {effect}, key: {{ fields: [order_id] }} }} }}`",
                m.components.len()
            ),
        )
        .at(first.loc),
    );
}

/// An origin and an effect to show in the example: a component that
/// nothing sends to, and an external system, where the manifest has them.
fn suggestion(ctx: &Ctx) -> (String, String) {
    let m = ctx.m;
    let targets: std::collections::BTreeSet<usize> =
        ctx.a.model.edges.iter().map(|e| e.to()).collect();
    let origin = (0..m.components.len())
        .find(|c| !targets.contains(c))
        .map_or("ORIGIN".to_string(), |c| m.components[c].id.to_string());
    let effect = (0..m.components.len())
        .find(|&c| ctx.generic(c) == crate::catalog::Generic::External)
        .map_or("EFFECT".to_string(), |c| m.components[c].id.to_string());
    (origin, effect)
}
