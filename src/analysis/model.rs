//! What the analysis reads from the manifest, computed once per run: the
//! delay and duplicate births of every edge ([`EdgeModel`], built in
//! `edges`), and the dedup layers and regional behaviour of every
//! component ([`NodeModel`], built in `build`).

use super::effective::Eff;
use crate::catalog::Generic;
use crate::diagnostics::Loc;
use crate::graph::{Adjacency, Components};
use crate::manifest::model::{Claim, Component, Mode, Replication};
use crate::manifest::name::Name;
use crate::time::Dur;
use std::sync::Arc;

pub use super::clock::Hold;
pub use super::edge_model::{Birth, EdgeAssumption, EdgeModel};

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
    pub(super) into: Adjacency,
    /// The graph's strongly connected components, in topological order.
    pub components: Components,
    pub assumed: Vec<Assumed>,
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
