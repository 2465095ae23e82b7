//! Building the [`Model`] of a manifest: each component's node (its dedup
//! layers, regions and failover) here, each edge's in `edges`; and the
//! explanation of an edge's delay, by the same code.

use std::sync::Arc;

use super::edge_model::Why;
use super::edges::edge_model;
use super::effective::{self as eff, Eff, Origin};
use super::model::*;
use crate::catalog::Generic;
use crate::graph::{Adjacency, Graph};
use crate::hash::IdMap;
use crate::manifest::model::{Claim, Component, Field, Manifest, Mode, Region, Replication};
use crate::manifest::name::Name;
use crate::time::Dur;

impl Model {
    /// The model of every component and of every edge of `graph`.
    pub fn build(m: &Manifest, graph: Graph) -> Model {
        let mut assumed = Vec::new();
        let mut names = Names::default();
        let shared = shared_stores(m);
        let nodes: Vec<NodeModel> = m
            .components
            .iter()
            .enumerate()
            .map(|(i, c)| node_model(m, i, c, &mut assumed, &mut names, &shared))
            .collect();
        let edges: Vec<EdgeModel> = graph
            .edges
            .iter()
            .map(|e| edge_model(m, e, &nodes, &mut assumed, &mut Why(None)))
            .collect();
        assumed.sort();
        assumed.dedup();
        let components = graph.components(nodes.len());
        let every: Vec<usize> = (0..edges.len()).collect();
        let into = Adjacency::grouped(&every, nodes.len(), |e| edges[e].to());
        Model {
            nodes,
            edges,
            out: graph.out,
            into,
            components,
            assumed,
        }
    }

    /// How the delay of edge `e` adds up, in words, after the link type
    /// ("delivers_to: at-least-once delivery: retention 4d ...").
    pub fn explain(&self, m: &Manifest, e: usize) -> String {
        let em = &self.edges[e];
        let edge = crate::graph::Edge {
            from: em.from(),
            to: em.to(),
            ty: em.ty,
            link: em.link,
        };
        let mut why = Why(Some(Vec::new()));
        edge_model(m, &edge, &self.nodes, &mut Vec::new(), &mut why);
        let parts = why.0.unwrap_or_default();
        let text = if parts.is_empty() {
            "no delay".to_string()
        } else {
            parts.join("; ")
        };
        format!("{}: {text}", em.ty.field())
    }

    /// How component `c`'s failover delay adds up, in words ("failover
    /// eu → us: detection 5m + catch-up 1m"), when it fails over.
    pub fn failover_why(&self, m: &Manifest, c: usize) -> Option<String> {
        let node = &self.nodes[c];
        node.failover.as_ref()?;
        let r = m.region(&node.regions[0])?;
        let to = r.failover_to.as_ref()?;
        let (det, cu) = detection_catch_up(r);
        Some(format!(
            "failover {} → {}: detection {det} + catch-up {cu}",
            r.id, to.value
        ))
    }
}

/// The window of a store: its retention, else the catalog's, else assumed.
fn store_window(i: usize, c: &Component, g: Generic, assumed: &mut Vec<Assumed>) -> Eff<Dur> {
    eff::dur(c, Field::Retention).unwrap_or_else(|| {
        let v = if g == Generic::Ledger {
            Dur::Unbounded
        } else {
            Dur::ZERO
        };
        assume(assumed, i, c, "retention", &v.to_string());
        Eff {
            value: v,
            origin: Origin::Assumed,
        }
    })
}

/// One shared copy of each list of region names (the names themselves are
/// the manifest's shared [`Name`]s).
#[derive(Default)]
struct Names(IdMap<Vec<Name>, Regions>);

impl Names {
    fn list(&mut self, regions: &[crate::manifest::model::Sp<Name>]) -> Regions {
        let names: Vec<Name> = regions.iter().map(|r| r.value.clone()).collect();
        if let Some(l) = self.0.get(&names) {
            return l.clone();
        }
        let l: Regions = Arc::from(names.as_slice());
        self.0.insert(names, l.clone());
        l
    }
}

/// Whether the catalog marks `field` of `c`'s kind as a platform constant.
fn fixed(c: &Component, field: Field) -> bool {
    eff::kind_of(c)
        .fields
        .get(field.name())
        .is_some_and(|f| f.fixed)
}

/// The stores more than one guard claims in.
fn shared_stores(m: &Manifest) -> std::collections::BTreeSet<usize> {
    let mut seen = std::collections::BTreeSet::new();
    let mut shared = std::collections::BTreeSet::new();
    for si in m
        .components
        .iter()
        .filter_map(|c| c.dedup.as_ref()?.store.index())
    {
        if !seen.insert(si) {
            shared.insert(si);
        }
    }
    shared
}

fn node_model(
    m: &Manifest,
    i: usize,
    c: &Component,
    assumed: &mut Vec<Assumed>,
    names: &mut Names,
    shared: &std::collections::BTreeSet<usize>,
) -> NodeModel {
    let generic = eff::generic(c);
    let regions = names.list(&c.regions);
    let mode = c.mode();
    let failover = if mode == Mode::ActivePassive && regions.len() > 1 {
        m.region(&regions[0]).and_then(|r| {
            let f = failover(r, &regions)?;
            // No platform documents these: an unwritten one is 0 s, the
            // earlier failover copy, and RH041 says so.
            for (field, given) in [
                ("detection", r.detection.is_some()),
                ("catch_up", r.catch_up.is_some()),
            ] {
                if !given {
                    assume(
                        assumed,
                        i,
                        c,
                        &format!("{field} (of region {})", r.id),
                        "0s",
                    );
                }
            }
            Some(f)
        })
    } else {
        None
    };
    let guard = c.dedup.as_ref().and_then(|g| {
        let si = g.store.index()?;
        let s = &m.components[si];
        let sg = eff::generic(s);
        Some(GuardModel {
            layer: Arc::new(Layer {
                component: si,
                window: store_window(si, s, sg, assumed),
                any_key: s.texts(Field::Unique).is_some_and(|u| !u.value.is_empty()),
                content: false,
                label: "guard store",
                ty: LayerType::GuardStore,
                fixed: fixed(s, Field::Retention),
                shared: shared.contains(&si),
                scope: if eff::replication(s).value == Replication::Async && s.regions.len() != 1 {
                    Scope::Replicated
                } else {
                    Scope::Global
                },
            }),
            claim: g
                .claim
                .as_ref()
                .map_or(Claim::ConditionalWrite, |c| c.value),
            store_regions: names.list(&s.regions),
            replication: eff::replication(s),
        })
    });
    let own_layer = own_layer(i, c, generic, assumed);
    let transport_window = if generic.is_transport() {
        eff::dur(c, Field::DedupWindow)
            .filter(|w| w.value > Dur::ZERO)
            .map(|window| {
                Arc::new(Layer {
                    component: i,
                    window,
                    any_key: false,
                    content: eff::boolean(c, Field::ContentBasedDedup).is_some_and(|b| b.value),
                    label: "transport dedup window",
                    ty: LayerType::TransportWindow,
                    fixed: fixed(c, Field::DedupWindow),
                    shared: false,
                    scope: Scope::Region,
                })
            })
    } else {
        None
    };
    NodeModel {
        generic,
        regions,
        mode,
        failover,
        guard,
        own_layer,
        transport_window,
        name_window: name_window(i, c),
    }
}

/// The execution-name window of a workflow whose kind dedups starts by
/// name: names stay taken for its retention (Step Functions Standard 90 d,
/// F033; Lambda durable 14 d after the execution closes, F031).
fn name_window(i: usize, c: &Component) -> Option<Arc<Layer>> {
    if !eff::kind_of(c).has_flag(crate::catalog::Flag::NameDedup) {
        return None;
    }
    let window = eff::dur(c, Field::Retention)?;
    Some(Arc::new(Layer {
        component: i,
        window,
        any_key: false,
        content: false,
        label: "execution name",
        ty: LayerType::ExecutionName,
        fixed: fixed(c, Field::Retention),
        shared: false,
        scope: Scope::Global,
    }))
}

/// Failover from the primary region `r` of an active-passive component
/// whose regions are `regions`: (from, to, delay).
fn failover(r: &Region, regions: &[Name]) -> Option<(usize, usize, Dur)> {
    let to = r.failover_to.as_ref()?;
    let ti = regions.iter().position(|x| **x == *to.value)?;
    let (det, cu) = detection_catch_up(r);
    Some((0, ti, det.add(cu)))
}

/// A region's failure detection and catch-up times (zero when not given).
fn detection_catch_up(r: &Region) -> (Dur, Dur) {
    let det = r.detection.as_ref().map_or(Dur::ZERO, |d| d.value);
    let cu = r.catch_up.as_ref().map_or(Dur::ZERO, |d| d.value);
    (det, cu)
}

/// Component `i`'s own layer: a unique constraint on a store, or the key
/// window of a provider that accepts our key.
fn own_layer(
    i: usize,
    c: &Component,
    generic: Generic,
    assumed: &mut Vec<Assumed>,
) -> Option<Arc<Layer>> {
    if generic.is_store() && c.texts(Field::Unique).is_some_and(|u| !u.value.is_empty()) {
        Some(Arc::new(Layer {
            component: i,
            window: store_window(i, c, generic, assumed),
            any_key: true,
            content: false,
            label: "unique constraint",
            ty: LayerType::UniqueConstraint,
            fixed: fixed(c, Field::Retention),
            shared: false,
            scope: Scope::Global,
        }))
    } else if eff::boolean(c, Field::AcceptsKey).is_some_and(|a| a.value) {
        let window = eff::dur(c, Field::KeyWindow).unwrap_or_else(|| {
            assume(assumed, i, c, "key_window", "0s");
            Eff {
                value: Dur::ZERO,
                origin: Origin::Assumed,
            }
        });
        Some(Arc::new(Layer {
            component: i,
            window,
            any_key: false,
            content: false,
            label: "provider key window",
            ty: LayerType::ProviderKey,
            fixed: fixed(c, Field::KeyWindow),
            shared: false,
            scope: match eff::key_scope(c).as_ref().map(|s| s.value.as_str()) {
                Some("region") => Scope::Region,
                Some("zone") => Scope::Zone,
                _ => Scope::Global,
            },
        }))
    } else {
        None
    }
}
