//! RH034 blind-in-progress-expiry: an in-progress claim that expires and is
//! retried blindly (page `docs/rules/RH034.md`). Quiet when every effect of
//! the guard passes the key to a provider that deduplicates by it for longer
//! than the horizon at that provider: the retry after expiry is then safe.
//!
//! A guard that declares no `in_progress` but keeps its records in a store
//! whose kind lets an in-progress record expire with the invocation (catalog
//! flag `in_progress_expires_with_invocation`: Powertools, F042) gets that
//! default: the next attempt finds the record expired and runs again, as
//! `on_expiry: retry` would.

use crate::analysis::{Analysis, LayerType};
use crate::catalog::Flag;
use crate::manifest::model::{Component, Guard, LinkType};
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
            guard(ctx, &horizon, c, g, intent, out);
        }
    }
}

/// The store of `guard`, when its kind lets an undeclared in-progress
/// record expire with the invocation (F042).
fn expires_with_invocation<'a>(ctx: &Ctx<'a>, guard: &Guard) -> Option<&'a Component> {
    let s = guard.store.index()?;
    ctx.values(s)
        .kind
        .has_flag(Flag::InProgressExpiresWithInvocation)
        .then(|| &ctx.m.components[s])
}

/// RH034: an in-progress claim that expires and is retried blindly.
fn guard(
    ctx: &Ctx,
    horizon: &[Option<Dur>],
    c: usize,
    guard: &Guard,
    intent: &str,
    out: &mut Vec<Finding>,
) {
    let a = ctx.a;
    let comp = &a.manifest.components[c];
    let (message, at) = match &guard.in_progress {
        Some(ip)
            if ip.expires_after.is_some()
                && ip.on_expiry.as_ref().is_none_or(|x| x.value == "retry") =>
        {
            (
                format!(
                    "`{}` lets an in-progress claim expire and then retries without reconciling: if the first attempt's effect happened, a retry or redelivery after the expiry makes it happen again",
                    comp.id
                ),
                ip.on_expiry.as_ref().map_or(ip.loc, |x| x.loc),
            )
        }
        None => {
            let Some(store) = expires_with_invocation(ctx, guard) else {
                return;
            };
            (
                format!(
                    "`{}` declares no `in_progress`, so `{}` ({}) lets an in-progress record expire with the invocation that wrote it (F042) and the next attempt runs again without reconciling: if the first attempt's effect happened, a retry or redelivery makes it happen again (declare `in_progress` with `on_expiry: reconcile`)",
                    comp.id, store.id, store.kind.value
                ),
                guard.loc,
            )
        }
        Some(_) => return,
    };
    if !provider_backstops(a, horizon, c) {
        out.push(
            Finding::new(Code::RH034, message)
                .intent(intent)
                .component(&comp.id)
                .at(at),
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
