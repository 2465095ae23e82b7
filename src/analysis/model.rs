//! What the analysis reads from the manifest, computed once per run: the
//! delay and duplicate births of every edge ([`EdgeModel`], built in
//! `edges`), and the dedup layers and regional behaviour of every
//! component ([`NodeModel`]).

use super::between::Incoming;
use super::edges::{Why, edge_model};
use crate::analysis::effective::{self as eff, Eff, Origin};
use crate::catalog::Generic;
use crate::diagnostics::Loc;
use crate::graph::{Adjacency, Components, Graph};
use crate::hash::IdMap;
use crate::manifest::model::{Claim, Component, Manifest, Mode, Region, Replication};
use crate::manifest::name::Name;
use crate::time::Dur;
use std::sync::Arc;

pub use super::clock::Hold;
pub use super::edge_model::{EdgeAssumption, EdgeModel};
pub use super::edges::transport_span;

/// Where a duplicate is born.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Birth {
    Retry,
    Redelivery,
    Redrive,
    Replay,
    Failover,
}

impl Birth {
    pub fn describe(self) -> &'static str {
        match self {
            Birth::Retry => "a retry",
            Birth::Redelivery => "an at-least-once redelivery",
            Birth::Redrive => "a dead-letter redrive",
            Birth::Replay => "a declared replay",
            Birth::Failover => "a failover copy",
        }
    }
}

/// A value the analysis had to assume (RH041).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Assumed {
    pub component: usize,
    pub field: String,
    pub value: String,
    pub loc: Loc,
}

/// A dedup layer: a guard's store, a transport window, a provider key
/// window, or a ledger's unique constraint.
#[derive(Debug, Clone)]
pub struct Layer {
    /// The component whose window applies (store, transport, provider).
    pub component: usize,
    pub window: Eff<Dur>,
    /// Stops copies whatever key they carry (a business unique constraint).
    pub any_key: bool,
    /// Stops copies that lost the key but kept the body (content dedup).
    pub content: bool,
    pub label: &'static str,
    /// What kind of layer it is (rules match on this, never on `label`).
    pub ty: LayerType,
    /// The platform fixes the window (the catalog marks the field
    /// `fixed`): no setting lengthens it, so no finding asks to.
    pub fixed: bool,
    /// A store more than one guard claims in: its first sighting of a key
    /// may come through another guard, so copies are timed from the intent.
    pub shared: bool,
    /// Which copies it can recognise by where they come from.
    pub scope: Scope,
}

/// Where a layer recognises a key: everywhere, or only for copies that
/// come the way the first one did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    Global,
    /// Per Region (a provider's regional endpoints, F044, F068; a queue's
    /// window per queue and Region, F011, F013): not a copy that crossed
    /// to another Region.
    Region,
    /// Per zone: no copy of a retry, which may reach another zone.
    Zone,
    /// A store replicated asynchronously (F038): a copy in another Region
    /// (after a failover, or at an active-active guard) may not see the
    /// claims the first Region had not replicated yet.
    Replicated,
}

/// The kinds of dedup layer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LayerType {
    GuardStore,
    TransportWindow,
    UniqueConstraint,
    ProviderKey,
    /// A workflow's execution names (F029, F033), for named starts.
    ExecutionName,
}

#[derive(Debug, Clone)]
pub struct GuardModel {
    /// Shared with the [`LayerReach`](super::LayerReach) of every intent
    /// that reaches the guard.
    pub layer: Arc<Layer>,
    pub claim: Claim,
    pub store_regions: Regions,
    pub replication: Eff<Replication>,
}

/// A list of region names, shared by the components that declare it.
pub type Regions = Arc<[Name]>;

#[derive(Debug, Clone)]
pub struct NodeModel {
    pub generic: Generic,
    /// Region names; empty when the component declares none. Shared:
    /// thousands of components name the same few regions, in the same
    /// few lists.
    pub regions: Regions,
    pub mode: Mode,
    /// Primary region index → failover region index, delay (in words:
    /// [`Model::failover_why`]).
    pub failover: Option<(usize, usize, Dur)>,
    // Layers are shared with the results of the intents that meet them.
    pub guard: Option<GuardModel>,
    /// Provider accepting our key, or a unique constraint on the component.
    pub own_layer: Option<Arc<Layer>>,
    /// Transport dedup window (send side).
    pub transport_window: Option<Arc<Layer>>,
    /// A workflow's execution-name window, for starts named by the key.
    pub name_window: Option<Arc<Layer>>,
}

impl NodeModel {
    pub fn region_count(&self) -> usize {
        self.regions.len().max(1)
    }
}

#[derive(Debug, Clone)]
pub struct Model {
    pub nodes: Vec<NodeModel>,
    pub edges: Vec<EdgeModel>,
    /// Outgoing copy edges of each node (indices into `edges`).
    pub out: Adjacency,
    /// Incoming copy edges of each node.
    pub(super) into: Incoming,
    /// The graph's strongly connected components, in topological order.
    pub components: Components,
    pub assumed: Vec<Assumed>,
}

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
        let into = Incoming::build(nodes.len(), edges.len(), |e| edges[e].to());
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

pub(super) fn assume(
    assumed: &mut Vec<Assumed>,
    component: usize,
    c: &Component,
    field: &str,
    value: &str,
) {
    assumed.push(Assumed {
        component,
        field: field.to_string(),
        value: value.to_string(),
        loc: c.kind.loc,
    });
}

/// The window of a store: its retention, else the catalog's, else assumed.
fn store_window(i: usize, c: &Component, g: Generic, assumed: &mut Vec<Assumed>) -> Eff<Dur> {
    eff::dur(c, "retention").unwrap_or_else(|| {
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
fn fixed(c: &Component, field: &str) -> bool {
    eff::kind_of(c).fields.get(field).is_some_and(|f| f.fixed)
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
                any_key: s.unique().is_some_and(|u| !u.value.is_empty()),
                content: false,
                label: "guard store",
                ty: LayerType::GuardStore,
                fixed: fixed(s, "retention"),
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
        eff::dur(c, "dedup_window")
            .filter(|w| w.value > Dur::ZERO)
            .map(|window| {
                Arc::new(Layer {
                    component: i,
                    window,
                    any_key: false,
                    content: eff::boolean(c, "content_based_dedup").is_some_and(|b| b.value),
                    label: "transport dedup window",
                    ty: LayerType::TransportWindow,
                    fixed: fixed(c, "dedup_window"),
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
    let window = eff::dur(c, "retention")?;
    Some(Arc::new(Layer {
        component: i,
        window,
        any_key: false,
        content: false,
        label: "execution name",
        ty: LayerType::ExecutionName,
        fixed: fixed(c, "retention"),
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
    if generic.is_store() && c.unique().is_some_and(|u| !u.value.is_empty()) {
        Some(Arc::new(Layer {
            component: i,
            window: store_window(i, c, generic, assumed),
            any_key: true,
            content: false,
            label: "unique constraint",
            ty: LayerType::UniqueConstraint,
            fixed: fixed(c, "retention"),
            shared: false,
            scope: Scope::Global,
        }))
    } else if eff::boolean(c, "accepts_key").is_some_and(|a| a.value) {
        let window = eff::dur(c, "key_window").unwrap_or_else(|| {
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
            fixed: fixed(c, "key_window"),
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
