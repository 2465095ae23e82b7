//! Horizons and duplicate propagation, per intent, in linear passes.
//!
//! # How the analysis works
//!
//! [`analyse`] builds a [`Model`] of the manifest once ([`model`]: each
//! edge's delay, the duplicates it gives birth to and whether it passes the
//! key; each component's regions and dedup layers), then runs every intent
//! on it (`intent`). Nothing enumerates paths: an intent costs the states
//! it reaches and their edges.
//!
//! - **Reach.** An intent's copies start at its origin and at the
//!   components its declared replays enter. The run looks at its region
//!   (`between`): the components reachable from there over copy edges
//!   through components that lead to one of its effects or to no intent's
//!   effect (a dead-letter queue not redriven, a ledger on the way); a
//!   branch leading only to other intents' effects is theirs, so a topic
//!   with an intent per subscriber costs each intent its own subscriber.
//!   The first intent reaching each component (`first_reach`), which
//!   configuration rules name, still counts every branch.
//! - **Order.** Those components fall into whole strongly connected
//!   components of the graph, which [`crate::graph::Components`] numbers in
//!   topological order; the run visits them in that order (`cycles`), so
//!   every input of an SCC has arrived before it is walked. Inside an SCC
//!   the members go in the order of its non-redrive edges.
//! - **States.** A state is one component × round × region
//!   (`state::State`). `round` counts redrives inside a cycle: a cycle is
//!   unrolled for one round more than its redrives' `max_times` add up to,
//!   and a redrive inside leads to the next round. A cycle nothing bounds
//!   (a redrive without `max_times`, a loop without a redrive, or more than
//!   1000 rounds) is walked once and every age in it is unbounded. Regions
//!   are those the component declares, or one.
//! - **Horizon.** Each state keeps the latest age at which the original copy
//!   can arrive, with a back-pointer for the worst path (`paths`), and
//!   whether that copy still carries the key. An edge adds its delay
//!   (`propagate`); a component's horizon is the worst over its states.
//! - **Dups.** Each state also keeps, for each key [`Class`] (same key, key
//!   lost, fresh key, no key yet), the oldest duplicate ([`Dup`]) no layer
//!   has stopped. Duplicates are born on edges (retries, redeliveries,
//!   redrives), at failovers and by declared replays, and carried on like
//!   the original. Besides its age a duplicate carries its span: the time
//!   since the original passed where it was born, or its whole age where
//!   an earlier copy may have met a layer first (after a dead-letter move,
//!   a redrive or a replay, where the original's paths meet, at a store
//!   several guards share). A layer's window starts at its first sighting
//!   of the key, so the span is what the window must cover.
//! - **Layers.** Once all inputs of a component arrived, it is settled: the
//!   key is minted there if it is the minting point, copies spread to its
//!   other regions (active-active) or fail over (active-passive), and its
//!   dedup layers ([`Layer`]: a guard's store, a provider key window, a
//!   unique constraint, a transport window on the send side) stop the
//!   duplicates they recognise whose span is within their window, and note
//!   why they let the others by ([`Bypass`]). A layer with a narrow
//!   [`Scope`] (a Region, a zone, asynchronous replication) judges only the
//!   copies that came its way ([`Crossed`]) and lets the others by.
//! - **Result.** What a run keeps ([`IntentResult`]): each reached
//!   component's horizon, the copy edges it covered, the duplicates surviving at each effect with their
//!   paths, how far back each layer had to remember, the guards reached in
//!   a region their store is not in, and the first cycle nothing bounds.
//!   The rules (`crate::rules`) read these.

mod between;
mod build;
mod clock;
mod cycles;
mod edge_model;
mod edges;
pub mod effective;
mod first_reach;
mod horizons;
mod intent;
pub mod long_path;
mod mapping;
pub mod model;
mod paths;
mod propagate;
mod result;
pub mod retry;
#[cfg(test)]
mod retry_oracle;
mod sorted_map;
mod state;
mod targets;

use crate::diagnostics::Loc;
use crate::graph::Graph;
use crate::manifest::model::Manifest;
pub use clock::ClockNote;
pub use horizons::Horizons;
use intent::{Scratch, analyse_intent};
pub use model::{Assumed, Birth, Layer, LayerType, Model, Scope};
pub use paths::{PathAssumption, Step};
pub use result::{Analysis, IntentResult, LayerReach};
pub use sorted_map::{SortedIter, SortedMap};
pub use state::{BornAt, Bypass, Class, Crossed, Dup, Expired};

/// Runs the whole analysis.
pub fn analyse(m: &Manifest) -> Analysis<'_> {
    // The model keeps what the analysis and the rules read of the graph, so
    // the graph goes once the model is built.
    let model = Model::build(m, Graph::build(m));
    let mut scratch = Scratch::new(m, &model);
    let intents = m
        .intents
        .iter()
        .enumerate()
        .map(|(i, intent)| analyse_intent(m, &model, i, intent, &mut scratch))
        .collect::<Vec<_>>();
    let first_reaching = first_reach::first_reaching(m, &model);
    Analysis {
        manifest: m,
        model,
        intents,
        first_reaching,
    }
}

/// A location to fix for a layer's window: its field, else its kind line.
pub fn window_loc(m: &Manifest, layer: &Layer) -> Loc {
    layer
        .window
        .loc()
        .unwrap_or(m.components[layer.component].kind.loc)
}
