//! The scope of the layers beside guard stores, for RH010 and RH013: a
//! provider that recognises keys per Region or per zone (`key_scope`,
//! EC2 client tokens F044, Adyen's regional endpoints F068), and a
//! transport whose dedup window is per queue and Region (SQS FIFO, F011,
//! F013). A narrow scope is harmless until copies can arrive from a second
//! Region (the sender runs in several, so a failover path exists).

use crate::catalog::Generic;
use crate::rules::{Code, Ctx, Finding};

/// RH010: a copy sent through another Region's endpoint, or to another
/// Region's queue, meets a layer that never saw the key.
pub(super) fn regions(ctx: &Ctx, out: &mut Vec<Finding>) {
    for (c, intent) in ctx.reached() {
        let a = ctx.a;
        let comp = &ctx.m.components[c];
        let regions = &a.model.nodes[c].regions;
        if regions.len() < 2 {
            continue;
        }
        let names = regions.join(", ");
        for (t, l) in keyed_providers(ctx, c) {
            let target = &ctx.m.components[t];
            let Some(scope) = ctx.values(t).key_scope().filter(|s| s.value == "region") else {
                continue;
            };
            out.push(
                Finding::new(
                    Code::RH010,
                    format!(
                        "`{}` runs in {names} and passes the key to `{}`, which recognises a key only within one Region{}: a retry after a failover, whose first attempt may have reached it from the other Region, goes through another Region's endpoint and is a new request",
                        comp.id,
                        target.id,
                        scope.provenance()
                    ),
                )
                .intent(intent)
                .component(&target.id)
                .at(l),
            );
        }
    }
    windows(ctx, out);
}

/// RH010: a transport in several Regions whose dedup window is the only
/// layer an intent's copies pass: each Region's queue keeps its own window
/// (F011, F013), so a copy sent to the other Region after a failover is
/// delivered again. Where another layer is passed, the rules on that layer
/// judge it.
fn windows(ctx: &Ctx, out: &mut Vec<Finding>) {
    let (a, m) = (ctx.a, ctx.m);
    let mut seen = std::collections::BTreeSet::new();
    for r in &a.intents {
        let mut layers = r.layers.keys().map(|&(_, l)| l);
        let Some(only) = layers.next() else { continue };
        if layers.any(|l| l != only)
            || a.model.nodes[only].regions.len() < 2
            || !matches!(a.model.nodes[only].generic, Generic::Queue | Generic::Topic)
            || !seen.insert(only)
        {
            continue;
        }
        let comp = &m.components[only];
        let Some(window) = ctx.values(only).dedup_window() else {
            continue;
        };
        let per = ctx.values(only).dedup_scope().map_or_else(
            || "queue".to_string(),
            |s| format!("{}{}", s.value, s.provenance()),
        );
        out.push(
            Finding::new(
                Code::RH010,
                format!(
                    "`{}` runs in {}, but its {} dedup window{} holds per {per} and Region, and it is the only layer: a copy sent to it in another Region after a failover is delivered again",
                    comp.id,
                    a.model.nodes[only].regions.join(", "),
                    window.value,
                    window.provenance()
                ),
            )
            .intent(&m.intents[r.intent].id)
            .component(&comp.id)
            .at(comp.regions.first().map_or(comp.kind.loc, |r| r.loc)),
        );
    }
}

/// RH013: a provider that recognises keys per zone; a retry can reach
/// another zone's endpoint even within one Region.
pub(super) fn zones(ctx: &Ctx, out: &mut Vec<Finding>) {
    for (c, intent) in ctx.reached() {
        for (t, l) in keyed_providers(ctx, c) {
            let target = &ctx.m.components[t];
            if let Some(scope) = ctx.values(t).key_scope().filter(|s| s.value == "zone") {
                out.push(
                    Finding::new(
                        Code::RH013,
                        format!(
                            "`{}` recognises a key only within one zone{}: a retry from `{}` that reaches another zone's endpoint is a new request",
                            target.id,
                            scope.provenance(),
                            ctx.m.components[c].id
                        ),
                    )
                    .intent(intent)
                    .component(&target.id)
                    .at(l),
                );
            }
        }
    }
}

/// The external providers component `c` passes the key to, with the link's
/// location.
fn keyed_providers<'a>(
    ctx: &'a Ctx,
    c: usize,
) -> impl Iterator<Item = (usize, crate::diagnostics::Loc)> + 'a {
    let comp = &ctx.m.components[c];
    comp.effects()
        .iter()
        .chain(comp.calls())
        .filter(|l| l.passes_key())
        .filter_map(|l| Some((l.to.index()?, l.loc)))
        .filter(|&(t, _)| ctx.generic(t) == Generic::External)
}
