//! What an intent's run leaves behind ([`IntentResult`]) and the queries
//! the rules and reports ask of it: reach, worst paths, their ids and
//! assumptions.

use std::collections::BTreeSet;
use std::sync::Arc;

use super::clock::KeptClock;
use super::horizons::Horizons;
use super::model::{Layer, Model};
use super::paths::{Back, PathAssumption, Paths, Step, ids_along};
use super::sorted_map::SortedMap;
use super::state::{Class, Dup, Via};
use crate::manifest::model::Manifest;
use crate::time::Dur;

/// A dedup layer as seen by one intent.
#[derive(Debug, Clone)]
pub struct LayerReach {
    /// The model's layer (shared), or for a send into a transport its
    /// window as that send's dedup id makes it.
    pub layer: Arc<Layer>,
    /// The component where the layer acts (guard, transport or provider).
    pub at: usize,
    /// Oldest duplicate it could recognise that reached it.
    pub reach: Option<Dur>,
}

/// What an intent's analysis found.
#[derive(Debug, Clone)]
pub struct IntentResult {
    pub intent: usize,
    /// Horizon of every reached component (max over regions and rounds).
    pub horizons: Horizons,
    /// Duplicates that reach each effect past every layer, by class.
    pub surviving: SortedMap<usize, Vec<(Class, Dup, Vec<Step>)>>,
    pub layers: SortedMap<(usize, usize), LayerReach>,
    /// Guards reached in a region where their store is absent: (guard, region).
    pub crossings: Box<[(usize, String)]>,
    /// Redrive edge of a cycle with no `max_times`, or a cycle with no redrive.
    pub unbounded_cycle: Option<usize>,
    /// For each reached component (ascending), its worst state.
    pub(super) paths: Box<[(usize, usize)]>,
    /// The copy edges the run covered (from, edge), by source and then in
    /// the order of `Model::out`.
    pub(super) edges: Box<[(usize, usize)]>,
    /// Component and worst-path back-pointer of every state of the run: all
    /// [`IntentResult::path_to`] reads once the run is over.
    pub(super) backs: Box<[Back]>,
    /// The message clock of each state whose worst path's last step left a
    /// transport, by state (ascending).
    pub(super) clocks: Box<[KeptClock]>,
    /// Redrives whose declared `within` the dead-letter queue's message
    /// clock cuts short, by edge (ascending): (edge, the age the promise
    /// allows, the deadline the messages expire at).
    pub redrive_caps: Box<[(usize, (Dur, Dur))]>,
}

impl IntentResult {
    /// How many (component, region, round) states the intent's run reached:
    /// the measure of its work, for benchmarks.
    pub fn state_count(&self) -> usize {
        self.backs.len()
    }

    /// The copy edges out of component `c` that the run covered (those
    /// into its region), in the order of `Model::out`; none where `c` is
    /// not in it.
    pub fn edges_from(&self, c: usize) -> impl Iterator<Item = usize> + '_ {
        let first = self.edges.partition_point(|&(from, _)| from < c);
        self.edges[first..]
            .iter()
            .take_while(move |&&(from, _)| from == c)
            .map(|&(_, e)| e)
    }

    /// The first layer this intent met whose window is component `c`'s
    /// (a store several guards claim in is met once per guard).
    pub fn layer_of(&self, c: usize) -> Option<&LayerReach> {
        self.layers.values().find(|l| l.layer.component == c)
    }

    /// Whether a copy of the request (the original or a declared replay)
    /// reaches component `c` over copy edges. Unlike `horizons`, which also
    /// holds the stores that reached guards claim in, this is only what the
    /// walk itself arrived at.
    pub fn reaches(&self, c: usize) -> bool {
        self.worst_state(c).is_some()
    }

    /// The worst path to component `c` (for the `horizon` command).
    pub fn path_to(&self, a: &Analysis, c: usize) -> Vec<Step> {
        self.worst_state(c)
            .map_or_else(Vec::new, |s| self.paths(a).path_to(s))
    }

    /// Adds the assumptions of the worst path to component `c` to `set`
    /// (those of [`IntentResult::path_to`]'s steps, more cheaply: as values,
    /// which [`IntentResult::assumption_text`] writes out once each).
    pub fn assumptions_to(&self, a: &Analysis, c: usize, set: &mut BTreeSet<PathAssumption>) {
        if let Some(s) = self.worst_state(c) {
            self.paths(a).assumptions_to(s, set);
        }
    }

    /// An assumption of this intent's paths, as the steps word it.
    pub fn assumption_text(&self, a: &Analysis, x: PathAssumption) -> String {
        self.paths(a).assumption_text(x)
    }

    /// The state with the worst horizon of component `c`, if reached.
    pub(super) fn worst_state(&self, c: usize) -> Option<usize> {
        let i = self
            .paths
            .binary_search_by_key(&c, |&(comp, _)| comp)
            .ok()?;
        Some(self.paths[i].1)
    }

    pub(super) fn paths<'a>(&'a self, a: &'a Analysis) -> Paths<'a> {
        Paths {
            backs: &self.backs,
            clocks: &self.clocks,
            manifest: a.manifest,
            model: &a.model,
            intent: &a.manifest.intents[self.intent],
        }
    }

    /// Ids along a path: the first component, then each step's target.
    pub fn path_ids(m: &Manifest, origin: usize, steps: &[Step]) -> Vec<String> {
        ids_along(m, origin, steps.iter().map(|s| (s.from, s.to)))
    }

    /// The ids along the worst path to component `c`: what
    /// [`IntentResult::path_ids`] gives for [`IntentResult::path_to`], without
    /// writing every step's explanation.
    pub fn path_ids_to(&self, a: &Analysis, c: usize, origin: usize) -> Vec<String> {
        let mut hops = Vec::new();
        if let Some(s) = self.worst_state(c) {
            let comp = |s: usize| self.backs[s].comp;
            hops.extend(self.paths(a).back_walk(s).map(|(p, s, via)| match via {
                Via::Replay(_) => (comp(s), comp(s)),
                _ => (comp(p), comp(s)),
            }));
            hops.reverse();
        }
        ids_along(a.manifest, origin, hops.into_iter())
    }
}

/// What [`analyse`](super::analyse) leaves: the model, and each intent's result.
pub struct Analysis<'m> {
    pub manifest: &'m Manifest,
    pub model: Model,
    pub intents: Vec<IntentResult>,
    /// For each component, the first intent (in manifest order) whose
    /// analysis reached it; computed once, read by several rules.
    pub(super) first_reaching: Vec<Option<usize>>,
}

impl Analysis<'_> {
    /// The index (into `intents`) of the first intent whose analysis
    /// reached component `c`.
    pub fn first_intent_reaching(&self, c: usize) -> Option<usize> {
        self.first_reaching[c]
    }
}
