//! RH034 blind-in-progress-expiry: an in-progress claim that expires and is
//! retried blindly (page `docs/rules/RH034.md`). Quiet when every effect of
//! the guard passes the key to a provider that deduplicates by it for longer
//! than the horizon at that provider: the retry after expiry is then safe.

use crate::analysis::{Analysis, LayerType};
use crate::manifest::model::{Guard, LinkType};
use crate::rules::{Code, Ctx, Finding};
use crate::time::Dur;

pub(crate) fn emit(ctx: &Ctx, out: &mut Vec<Finding>) {
    let mut horizon: Vec<Option<Dur>> = vec![None; ctx.m.components.len()];
    for r in &ctx.a.intents {
        for (c, h) in r.horizons.iter() {
            horizon[c] = horizon[c].max(Some(h));
        }
    }
    for (c, intent) in ctx.reached() {
        if let Some(g) = &ctx.m.components[c].dedup {
            guard(ctx.a, &horizon, c, g, intent, out);
        }
    }
}

/// RH034: an in-progress claim that expires and is retried blindly.
fn guard(
    a: &Analysis,
    horizon: &[Option<Dur>],
    c: usize,
    guard: &Guard,
    intent: &str,
    out: &mut Vec<Finding>,
) {
    let comp = &a.manifest.components[c];
    if let Some(ip) = &guard.in_progress
        && ip.expires_after.is_some()
        && ip.on_expiry.as_ref().is_none_or(|x| x.value == "retry")
        && !provider_backstops(a, horizon, c)
    {
        out.push(
            Finding::new(
                Code::RH034,
                format!(
                    "`{}` lets an in-progress claim expire and then retries without reconciling: if the first attempt's effect happened, it happens again",
                    comp.id
                ),
            )
            .intent(intent)
            .component(&comp.id)
            .at(ip.on_expiry.as_ref().map_or(ip.loc, |x| x.loc)),
        );
    }
}

/// Whether `c` has effects and each one passes the key to a provider whose
/// key window is longer than the latest age (horizon, over every intent) at
/// which a copy reaches it.
fn provider_backstops(a: &Analysis, horizon: &[Option<Dur>], c: usize) -> bool {
    let mut effects = a.model.out[c]
        .iter()
        .map(|&e| &a.model.edges[e])
        .filter(|e| e.ty == LinkType::Effects)
        .peekable();
    effects.peek().is_some()
        && effects.all(|e| {
            let Some(layer) = a.model.nodes[e.to()]
                .own_layer
                .as_deref()
                .filter(|l| l.ty == LayerType::ProviderKey)
            else {
                return false;
            };
            e.passes_key
                && horizon[e.to()].is_some_and(|h| !h.is_unbounded() && h < layer.window.value)
        })
}
