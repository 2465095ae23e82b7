//! The scope of each dedup layer, for RH010 and RH013: a guard whose store
//! is not in the copy's Region, a provider that recognises keys per Region
//! or per zone (`key_scope`, EC2 client tokens F044, Adyen's regional
//! endpoints F068), a transport whose dedup window is per queue and Region
//! (SQS FIFO, F011, F013), a store that replicates asynchronously (F038).
//!
//! A narrow scope is a finding only where a copy it cannot recognise gets
//! past every layer to an effect: the analysis lets such a copy by the
//! layer (`Bypass::region`, `Bypass::scope`), and a layer that sees every
//! copy (a strongly consistent guard in front, a global key behind) still
//! stops it, so the design is judged by the copies that really get through.

use std::collections::BTreeSet;

use crate::analysis::{Analysis, IntentResult, Layer, LayerType, Scope};
use crate::catalog::Generic;
use crate::rules::surviving::Surviving;
use crate::rules::{Code, Ctx, Finding};

/// What let a surviving copy by: a guard in a Region its store is not in,
/// or a layer whose scope does not reach it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Missed {
    Region(usize, String),
    Scope(usize),
}

/// Each layer that let a copy of intent `r` by for its scope, once, with
/// the component the copy came from when it reached the layer.
fn missed(a: &Analysis, r: &IntentResult) -> Vec<(Missed, Option<usize>, &'static str)> {
    // Where each layer acts: a store's layer acts at its guard.
    let at = |l: usize| r.layer_of(l).map_or(l, |x| x.at);
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for (_, copy) in Surviving::of(a, r) {
        let b = &copy.dup.bypass;
        let kinds = [
            b.region.clone().map(|(g, reg)| Missed::Region(g, reg)),
            b.scope.map(Missed::Scope),
        ];
        for m in kinds.into_iter().flatten() {
            if seen.insert(m.clone()) {
                let at = match &m {
                    Missed::Region(g, _) => *g,
                    Missed::Scope(l) => at(*l),
                };
                let from = copy.steps.iter().find(|s| s.to == at).map(|s| s.from);
                out.push((m, from, copy.dup.birth.describe()));
            }
        }
    }
    out
}

/// The layer of component `l` an intent met.
fn layer_of(r: &IntentResult, l: usize) -> Option<&Layer> {
    r.layer_of(l).map(|x| &*x.layer)
}

/// RH010: copies that reach an effect past a layer that cannot see them
/// because they come from another Region.
pub(super) fn regions(ctx: &Ctx, out: &mut Vec<Finding>) {
    let (a, m) = (ctx.a, ctx.m);
    for r in &a.intents {
        let intent = &m.intents[r.intent];
        let origin = intent.origin.index().unwrap_or(0);
        for (missed, from, how) in missed(a, r) {
            let f = match missed {
                Missed::Region(g, region) => guard_region(ctx, g, &region, how).map(|mut f| {
                    f.horizon = r.horizons.get(g).filter(|h| !h.is_unbounded());
                    f
                }),
                Missed::Scope(l) => match layer_of(r, l) {
                    Some(layer) if layer.scope == Scope::Region => {
                        region_scoped(ctx, layer, from, how)
                    }
                    // Active-active on such a store is RH011.
                    Some(layer) if layer.scope == Scope::Replicated => {
                        replicated(ctx, r, layer, how).filter(|_| !active_active(ctx, r, layer))
                    }
                    _ => None,
                },
            };
            if let Some(mut f) = f {
                f = f.intent(&intent.id);
                if f.path.is_empty() {
                    f.path = r.path_ids_to(a, from.unwrap_or(origin), origin);
                }
                out.push(f);
            }
        }
    }
}

/// RH010: a guard reached in a Region its store does not run in.
fn guard_region(ctx: &Ctx, guard: usize, region: &str, how: &str) -> Option<Finding> {
    let m = ctx.m;
    let g = &m.components[guard];
    let gm = ctx.a.model.nodes[guard].guard.as_ref()?;
    let store = &m.components[gm.layer.component];
    let loc = g.dedup.as_ref().map_or(g.loc, |d| d.store.loc);
    Some(
        Finding::new(
            Code::RH010,
            format!(
                "{how} can reach `{}` in {region}, but its dedup store `{}` runs only in {}: the guard there cannot see the keys claimed elsewhere, and no layer after it stops the copy",
                g.id,
                store.id,
                gm.store_regions.join(", ")
            ),
        )
        .component(&g.id)
        .at(loc),
    )
}

/// Where the finding about provider `t` points: the link that passes it the
/// key from `from`, else `t`'s kind.
fn link_to(ctx: &Ctx, from: Option<usize>, t: usize) -> crate::diagnostics::Loc {
    from.and_then(|c| {
        let c = &ctx.m.components[c];
        c.effects()
            .iter()
            .chain(c.calls())
            .find(|l| l.to.index() == Some(t))
            .map(|l| l.loc)
    })
    .unwrap_or(ctx.m.components[t].kind.loc)
}

/// RH010: a provider key or a transport window that holds per Region, met
/// by a copy that came through another Region.
fn region_scoped(ctx: &Ctx, layer: &Layer, from: Option<usize>, how: &str) -> Option<Finding> {
    let m = ctx.m;
    let t = layer.component;
    let target = &m.components[t];
    if layer.ty == LayerType::TransportWindow {
        let window = ctx.values(t).dedup_window()?;
        let per = ctx.values(t).dedup_scope().map_or_else(
            || "queue".to_string(),
            |s| format!("{}{}", s.value, s.provenance()),
        );
        return Some(
            Finding::new(
                Code::RH010,
                format!(
                    "`{}` runs in {}, but its {} dedup window{} holds per {per} and Region: {how} sent to it in another Region is delivered again, and no other layer stops it",
                    target.id,
                    ctx.a.model.nodes[t].regions.join(", "),
                    window.value,
                    window.provenance()
                ),
            )
            .component(&target.id)
            .at(target.regions.first().map_or(target.kind.loc, |r| r.loc)),
        );
    }
    let scope = ctx.values(t).key_scope()?;
    let sender = from.map(|c| &m.components[c]);
    let loc = link_to(ctx, from, t);
    // The sender's Regions where it declares them; a copy can also have
    // crossed further up.
    let who = match (sender, from) {
        (Some(c), Some(f)) if !ctx.a.model.nodes[f].regions.is_empty() => format!(
            "`{}` runs in {} and passes the key to `{}`, which",
            c.id,
            ctx.a.model.nodes[f].regions.join(", "),
            target.id
        ),
        (Some(c), _) => format!("`{}` passes the key to `{}`, which", c.id, target.id),
        _ => format!("`{}`", target.id),
    };
    Some(
        Finding::new(
            Code::RH010,
            format!(
                "{who} recognises a key only within one Region{}: {how} from the other Region, whose first attempt may have reached it there, goes through another Region's endpoint and is a new request, and no layer before it stops the copy",
                scope.provenance()
            ),
        )
        .component(&target.id)
        .at(loc),
    )
}

/// Whether the guard that claims in `layer`'s store runs active-active.
fn active_active(ctx: &Ctx, r: &IntentResult, layer: &Layer) -> bool {
    r.layer_of(layer.component)
        .is_some_and(|x| ctx.a.model.nodes[x.at].mode == crate::manifest::model::Mode::ActiveActive)
}

/// The stores whose asynchronous replication let a copy of intent `r` by
/// to an effect (for RH011).
pub(super) fn replicated_missed(a: &Analysis, r: &IntentResult) -> BTreeSet<usize> {
    missed(a, r)
        .into_iter()
        .filter_map(|(m, _, _)| match m {
            Missed::Scope(l) => Some(l),
            Missed::Region(..) => None,
        })
        .filter(|&l| layer_of(r, l).is_some_and(|x| x.scope == Scope::Replicated))
        .collect()
}

/// RH010: a failover copy meets a store that replicates asynchronously:
/// the claims the failed Region made last may not have reached the
/// survivor.
fn replicated(ctx: &Ctx, r: &IntentResult, layer: &Layer, how: &str) -> Option<Finding> {
    let m = ctx.m;
    let store = &m.components[layer.component];
    let guard = r.layer_of(layer.component)?.at;
    let gm = ctx.a.model.nodes[guard].guard.as_ref()?;
    let loc = gm.replication.loc().unwrap_or(store.kind.loc);
    // The catalog cites a lag only for DynamoDB global tables.
    let lag = if store.kind.value == "dynamodb-global-table" {
        " (usually under a second, with no guaranteed bound, F038)"
    } else {
        ""
    };
    Some(
        Finding::new(
            Code::RH010,
            format!(
                "{how} can reach `{}` in another Region, but `{}` replicates asynchronously{}: the claims made in the failed Region within the replication lag before it failed{lag} may not have reached the surviving one, so the copy can look new there, and no layer after the guard stops it",
                m.components[guard].id,
                store.id,
                gm.replication.provenance()
            ),
        )
        .component(&store.id)
        .at(loc),
    )
}

/// RH013: copies that reach an effect past a provider that recognises keys
/// only within one zone.
pub(super) fn zones(ctx: &Ctx, out: &mut Vec<Finding>) {
    let (a, m) = (ctx.a, ctx.m);
    for r in &a.intents {
        let intent = &m.intents[r.intent];
        for (missed, from, _) in missed(a, r) {
            let Missed::Scope(t) = missed else { continue };
            if layer_of(r, t).is_none_or(|l| l.scope != Scope::Zone)
                || ctx.generic(t) != Generic::External
            {
                continue;
            }
            let Some(scope) = ctx.values(t).key_scope() else {
                continue;
            };
            let target = &m.components[t];
            let sender = from.map(|c| &m.components[c]);
            let loc = link_to(ctx, from, t);
            out.push(
                Finding::new(
                    Code::RH013,
                    format!(
                        "`{}` recognises a key only within one zone{}: a retry from `{}` that reaches another zone's endpoint is a new request",
                        target.id,
                        scope.provenance(),
                        sender.map_or("its caller", |c| c.id.as_str())
                    ),
                )
                .intent(&intent.id)
                .component(&target.id)
                .at(loc),
            );
        }
    }
}
