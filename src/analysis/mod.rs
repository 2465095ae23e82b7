//! Horizons and duplicate propagation, per intent, in linear passes.
//!
//! The analysis walks the copy edges reachable from an intent's origin and
//! its declared replays once, in topological order of the strongly connected
//! components. A state is a (component, region, round) triple: `round`
//! counts redrives inside a cycle, which is unrolled up to its `max_times`.
//! Each state keeps
//! - the horizon: the latest age at which a copy can arrive, with a
//!   back-pointer for the worst path;
//! - whether the original copy still carries the key;
//! - for each key class (same key, key lost, new key, no key yet) the oldest
//!   duplicate that no dedup layer has stopped, with why layers let it by.
//!
//! Nothing enumerates paths: the work is proportional to the reachable
//! states and their edges.

pub mod effective;
pub mod long_path;
pub mod model;
pub mod retry;
#[cfg(test)]
mod retry_oracle;
mod retry_tail;

use std::collections::BTreeMap;

use crate::diagnostics::Loc;
use crate::graph::Graph;
use crate::manifest::model::{DedupId, Intent, LinkType, Manifest};
use crate::time::Dur;
pub use model::{Assumed, Birth, Layer, Model};

/// The key a copy carries, relative to the original's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Class {
    /// The same key as the original: a key-based layer recognises it.
    Same = 0,
    /// The key was dropped by a link that does not pass it.
    Lost = 1,
    /// A new key was minted for this copy (per attempt, or random re-mint).
    Fresh = 2,
    /// The key is not minted yet where this copy was born.
    Unminted = 3,
}

const CLASSES: [Class; 4] = [Class::Same, Class::Lost, Class::Fresh, Class::Unminted];

/// One step of a worst path.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    pub from: usize,
    pub to: usize,
    pub adds: Dur,
    pub why: String,
    pub assumptions: Vec<String>,
}

/// Why a layer did not stop a duplicate (the first such layer of each sort).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Bypass {
    /// (window, layer component, age when it arrived): the longest window
    /// that forgot the key before the copy came.
    pub expired: Option<(Dur, usize, Dur)>,
    /// A key-based layer saw a different key (layer component).
    pub fresh_key: Option<usize>,
    /// A key-based layer saw no key (layer component, edge that dropped it).
    pub lost_key: Option<(usize, Option<usize>)>,
    /// A guard whose store is not in the copy's region (guard, region).
    pub region: Option<(usize, String)>,
    pub layers_seen: u32,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Dup {
    pub age: Dur,
    pub birth: Birth,
    /// The link (edge index) or pseudo-step where it was born.
    pub born_at: BornAt,
    pub born_after_layer: bool,
    /// The edge that dropped the key, for `Lost` copies.
    pub lost_at: Option<usize>,
    pub bypass: Bypass,
    back: DupBack,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BornAt {
    Edge(usize),
    Failover(usize),
    Replay(usize),
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum DupBack {
    /// Born here from the original copy at `state`.
    Born { state: usize, via: Via },
    /// Carried from `state` (class `class`) along `via`.
    Carried {
        state: usize,
        class: Class,
        via: Via,
    },
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Via {
    Edge(u32),
    Failover,
    Replay(u32),
    /// Active-active: the same copy may reach any region.
    Fanout,
    Origin,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum KeyStatus {
    Carried,
    Unminted,
    Lost,
}

/// A state's index or an edge or replay index, as stored in back-pointers.
fn ix(i: usize) -> u32 {
    u32::try_from(i).expect("fewer than 2^32 states, edges and replays")
}

/// What [`IntentResult::path_to`] needs of a state once its run is over:
/// its component and the back-pointer of the worst path (`prev == NO_BACK`
/// when the original never reached it). 16 bytes instead of a whole
/// [`State`].
#[derive(Debug, Clone, Copy)]
struct Back {
    comp: u32,
    prev: u32,
    via: Via,
}

const NO_BACK: u32 = u32::MAX;

impl Back {
    fn of(st: &State) -> Back {
        let (prev, via) = match st.back {
            Some((p, via)) => (ix(p), via),
            None => (NO_BACK, Via::Origin),
        };
        Back {
            comp: ix(st.comp),
            prev,
            via,
        }
    }

    fn back(&self) -> Option<(usize, Via)> {
        (self.prev != NO_BACK).then_some((self.prev as usize, self.via))
    }
}

#[derive(Debug, Clone)]
struct State {
    comp: usize,
    region: usize,
    h: Option<Dur>,
    back: Option<(usize, Via)>,
    key: KeyStatus,
    orig_layered: bool,
    dups: [Option<Dup>; 4],
}

/// A dedup layer as seen by one intent.
#[derive(Debug, Clone)]
pub struct LayerReach {
    pub layer: Layer,
    /// The component where the layer acts (guard, transport or provider).
    pub at: usize,
    /// Oldest duplicate it could recognise that reached it.
    pub reach: Option<Dur>,
}

/// A map stored as a vector sorted by key: what the analysis keeps per
/// intent, read with a `BTreeMap`'s methods but without its nodes (an
/// intent reaches a handful of entries, and a `BTreeMap` node has room for
/// eleven).
#[derive(Clone, PartialEq)]
pub struct SortedMap<K, V> {
    entries: Vec<(K, V)>,
}

/// Iterator over a [`SortedMap`]'s entries in key order.
pub type SortedIter<'a, K, V> =
    std::iter::Map<std::slice::Iter<'a, (K, V)>, fn(&'a (K, V)) -> (&'a K, &'a V)>;

impl<K: Ord, V> SortedMap<K, V> {
    fn position(&self, k: &K) -> Option<usize> {
        self.entries.binary_search_by(|(x, _)| x.cmp(k)).ok()
    }

    pub fn get(&self, k: &K) -> Option<&V> {
        self.position(k).map(|i| &self.entries[i].1)
    }

    pub fn contains_key(&self, k: &K) -> bool {
        self.position(k).is_some()
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Entries in key order.
    pub fn iter(&self) -> SortedIter<'_, K, V> {
        self.entries.iter().map(|(k, v)| (k, v))
    }

    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &K> + ExactSizeIterator + Clone {
        self.entries.iter().map(|(k, _)| k)
    }

    pub fn values(&self) -> impl DoubleEndedIterator<Item = &V> + ExactSizeIterator + Clone {
        self.entries.iter().map(|(_, v)| v)
    }
}

impl<K, V> Default for SortedMap<K, V> {
    fn default() -> Self {
        SortedMap {
            entries: Vec::new(),
        }
    }
}

impl<K: Ord, V> From<BTreeMap<K, V>> for SortedMap<K, V> {
    fn from(m: BTreeMap<K, V>) -> Self {
        // A BTreeMap iterates in key order and knows its length, so the
        // vector is sorted and allocated once, at its size.
        SortedMap {
            entries: m.into_iter().collect(),
        }
    }
}

impl<K: Ord, V> std::ops::Index<&K> for SortedMap<K, V> {
    type Output = V;

    fn index(&self, k: &K) -> &V {
        self.get(k).expect("key in SortedMap")
    }
}

impl<'a, K: Ord, V> IntoIterator for &'a SortedMap<K, V> {
    type Item = (&'a K, &'a V);
    type IntoIter = SortedIter<'a, K, V>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<K: PartialEq, V: PartialEq> PartialEq<BTreeMap<K, V>> for SortedMap<K, V> {
    fn eq(&self, other: &BTreeMap<K, V>) -> bool {
        self.entries.len() == other.len()
            && self
                .entries
                .iter()
                .zip(other)
                .all(|((a, b), (c, d))| a == c && b == d)
    }
}

impl<K: std::fmt::Debug, V: std::fmt::Debug> std::fmt::Debug for SortedMap<K, V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map()
            .entries(self.entries.iter().map(|(k, v)| (k, v)))
            .finish()
    }
}

/// What an intent's analysis found.
#[derive(Debug, Clone)]
pub struct IntentResult {
    pub intent: usize,
    /// Horizon of every reached component (max over regions and rounds).
    pub horizons: SortedMap<usize, Dur>,
    /// Duplicates that reach each effect past every layer, by class.
    pub surviving: SortedMap<usize, Vec<(Class, Dup, Vec<Step>)>>,
    pub layers: SortedMap<(usize, usize), LayerReach>,
    /// Guards reached in a region where their store is absent: (guard, region).
    pub crossings: Vec<(usize, String)>,
    /// Redrive edge of a cycle with no `max_times`, or a cycle with no redrive.
    pub unbounded_cycle: Option<usize>,
    /// For each reached component (ascending), its worst state.
    paths: Vec<(u32, u32)>,
    /// Component and worst-path back-pointer of every state of the run: all
    /// [`IntentResult::path_to`] reads once the run is over.
    backs: Vec<Back>,
}

pub struct Analysis<'m> {
    pub manifest: &'m Manifest,
    pub model: Model,
    pub intents: Vec<IntentResult>,
    /// For each component, the first intent (in manifest order) whose
    /// analysis reached it; computed once, read by several rules.
    first_reaching: Vec<Option<usize>>,
}

/// Runs the whole analysis.
pub fn analyse(m: &Manifest) -> Analysis<'_> {
    // The model keeps what the analysis and the rules read of the graph, so
    // the graph goes once the model is built.
    let model = Model::build(m, Graph::build(m));
    let mut scratch = Scratch::new(model.nodes.len());
    let intents = m
        .intents
        .iter()
        .enumerate()
        .map(|(i, intent)| analyse_intent(m, &model, i, intent, &mut scratch))
        .collect::<Vec<_>>();
    // One pass over what the intents reached, instead of a search through
    // every intent for every component.
    let mut first_reaching = vec![None; m.components.len()];
    for (i, r) in intents.iter().enumerate() {
        for &c in r.horizons.keys() {
            if let Some(slot) = first_reaching.get_mut(c) {
                slot.get_or_insert(i);
            }
        }
    }
    Analysis {
        manifest: m,
        model,
        intents,
        first_reaching,
    }
}

impl Analysis<'_> {
    /// For each component, the index (into `intents`) of the first intent
    /// whose analysis reached it.
    pub fn first_intent_reaching(&self) -> &[Option<usize>] {
        &self.first_reaching
    }
}

/// Buffers indexed by component, allocated once per analysis and reset only
/// where an intent touched them: an intent then costs what it reaches, not
/// the size of the whole graph (which made many intents over a large graph
/// quadratic).
struct Scratch {
    seen: Vec<bool>,
    base: Vec<usize>,
    rounds: Vec<usize>,
}

impl Scratch {
    fn new(n: usize) -> Self {
        Scratch {
            seen: vec![false; n],
            base: vec![usize::MAX; n],
            rounds: vec![1; n],
        }
    }

    /// Puts back the entries of `nodes` (everything an intent touched).
    fn reset(&mut self, nodes: &[usize]) {
        for &c in nodes {
            self.seen[c] = false;
            self.base[c] = usize::MAX;
            self.rounds[c] = 1;
        }
    }
}

fn region_index(model: &Model, comp: usize, region: Option<&str>) -> usize {
    let regions = &model.nodes[comp].regions;
    match region {
        Some(r) => regions.iter().position(|x| **x == *r).unwrap_or(0),
        None => 0,
    }
}

/// Components reachable over copy edges from the seeds, ascending. Marks
/// them in `seen` (which the caller resets).
fn reachable(model: &Model, seeds: &[usize], seen: &mut [bool]) -> Vec<usize> {
    let mut out = Vec::new();
    let mut stack: Vec<usize> = seeds.to_vec();
    while let Some(n) = stack.pop() {
        if std::mem::replace(&mut seen[n], true) {
            continue;
        }
        out.push(n);
        for &e in &model.out[n] {
            stack.push(model.edges[e].to);
        }
    }
    out.sort_unstable();
    out
}

/// The strongly connected components of the graph that `reached` holds, in
/// topological order. `reached` is closed under copy edges, so each is a
/// whole component of the graph ([`crate::graph::Components`]).
fn sccs<'m>(model: &'m Model, reached: &[usize]) -> Vec<&'m [usize]> {
    let c = &model.components;
    let mut ids: Vec<u32> = reached.iter().map(|&n| c.of[n]).collect();
    ids.sort_unstable();
    ids.dedup();
    ids.into_iter().map(|k| c.members(k)).collect()
}

struct Run<'a> {
    model: &'a Model,
    intent: &'a Intent,
    minted_at: Option<usize>,
    natural_key: bool,
    per_attempt: bool,
    states: Vec<State>,
    layers: BTreeMap<(usize, usize), LayerReach>,
    crossings: Vec<(usize, String)>,
}

fn analyse_intent(
    m: &Manifest,
    model: &Model,
    idx: usize,
    intent: &Intent,
    scratch: &mut Scratch,
) -> IntentResult {
    let origin = intent.origin.index();
    // Where each replay enters, read once: the walk below asks for every
    // component it reaches.
    let replay_at: Vec<Option<usize>> =
        intent.replays.iter().map(|r| r.enters_at.index()).collect();
    let mut seeds: Vec<usize> = origin.into_iter().collect();
    seeds.extend(replay_at.iter().flatten());
    let reached = reachable(model, &seeds, &mut scratch.seen);
    let order = sccs(model, &reached);
    let has_key = intent.key.loc.is_some();
    let mut run = Run {
        model,
        intent,
        minted_at: if has_key {
            intent.minted_at().index()
        } else {
            None
        },
        natural_key: has_key && !intent.key.is_generated(),
        per_attempt: intent.key.per_attempt(),
        states: Vec::new(),
        layers: BTreeMap::new(),
        crossings: Vec::new(),
    };
    // State ids: base[c] + round * regions(c) + region.
    let base = &mut scratch.base;
    let rounds = &mut scratch.rounds;
    let mut unbounded_cycle = None;
    let mut scc_info = Vec::with_capacity(order.len());
    for comp in &order {
        let info = cycle_info(model, comp);
        if let CycleBound::Unbounded(e) = info.bound {
            unbounded_cycle.get_or_insert(e);
        }
        let r = match info.bound {
            CycleBound::Rounds(k) => k + 1,
            _ => 1,
        };
        for &c in *comp {
            base[c] = run.states.len();
            rounds[c] = r;
            for round in 0..r {
                let _ = round;
                for region in 0..model.nodes[c].region_count() {
                    run.states.push(State {
                        comp: c,
                        region,
                        h: None,
                        back: None,
                        key: KeyStatus::Unminted,
                        orig_layered: false,
                        dups: [None, None, None, None],
                    });
                }
            }
        }
        scc_info.push(info);
    }
    let base = &*base;
    let sid = |c: usize, round: usize, region: usize| {
        base[c] + round * model.nodes[c].region_count() + region
    };

    if let Some(o) = origin {
        let s = sid(o, 0, 0);
        run.states[s].h = Some(Dur::ZERO);
        run.states[s].back = Some((s, Via::Origin));
        run.states[s].key = if run.minted_at.is_none() && has_key {
            KeyStatus::Carried
        } else {
            KeyStatus::Unminted
        };
    }

    for (comp, info) in order.iter().zip(&scc_info) {
        let r = rounds[comp[0]];
        let unbounded = matches!(info.bound, CycleBound::Unbounded(_));
        // A cycle nothing bounds is walked once, breadth-first from where
        // copies enter it; every age in it is unbounded.
        let walk = if unbounded {
            let entered = |c: usize| {
                run.states[sid(c, 0, 0)..sid(c, 0, 0) + model.nodes[c].region_count()]
                    .iter()
                    .any(|s| s.h.is_some())
                    || replay_at.contains(&Some(c))
            };
            bfs_order(model, comp, entered)
        } else {
            info.topo.clone()
        };
        for round in 0..r {
            for &c in &walk {
                // Replays enter in the first round.
                if round == 0 {
                    for (ri, at) in replay_at.iter().enumerate() {
                        if *at == Some(c) {
                            run.enter_replay(sid(c, 0, 0), ri);
                        }
                    }
                }
                let first = sid(c, round, 0);
                let count = model.nodes[c].region_count();
                if unbounded {
                    for st in &mut run.states[first..first + count] {
                        if st.h.is_some() {
                            st.h = Some(Dur::Unbounded);
                            for d in st.dups.iter_mut().flatten() {
                                d.age = Dur::Unbounded;
                            }
                        }
                    }
                }
                run.finalize(c, first, count);
                for region in 0..count {
                    let s = first + region;
                    if run.states[s].h.is_none() {
                        continue;
                    }
                    for &e in &model.out[c] {
                        let em = &model.edges[e];
                        let w = em.to;
                        let target_round = if comp.binary_search(&w).is_ok() {
                            if em.ty == LinkType::Redrive && !unbounded {
                                if round + 1 >= r {
                                    continue;
                                }
                                round + 1
                            } else {
                                round
                            }
                        } else {
                            0
                        };
                        let region_name = model.nodes[c].regions.get(region).map(|r| &**r);
                        let wr = if model.nodes[w].regions.is_empty() {
                            0
                        } else if let Some(name) = region_name {
                            region_index(model, w, Some(name))
                        } else {
                            0
                        };
                        let t = sid(w, target_round, wr);
                        run.push(s, t, e);
                    }
                }
            }
        }
    }

    scratch.reset(&reached);

    // Summaries per component: the worst state.
    let mut horizons = BTreeMap::new();
    let mut paths = BTreeMap::new();
    for (i, st) in run.states.iter().enumerate() {
        if let Some(h) = st.h {
            let e = horizons.entry(st.comp).or_insert(h);
            if h > *e {
                *e = h;
            }
            let p = paths.entry(st.comp).or_insert(i);
            if run.states[*p].h < Some(h) {
                *p = i;
            }
        }
    }
    // Store horizons: the horizon of the guards that claim in them, guards
    // in ascending order. Only reached guards have a horizon, so the work
    // list starts with them; a store that is itself a guard joins it when
    // it gets a horizon and comes later in the order.
    let mut guards: std::collections::BTreeSet<usize> = horizons
        .keys()
        .copied()
        .filter(|&c| m.components[c].dedup.is_some())
        .collect();
    while let Some(c) = guards.pop_first() {
        if let (Some(&h), Some(g)) = (horizons.get(&c), &model.nodes[c].guard) {
            let store = g.layer.component;
            let e = horizons.entry(store).or_insert(h);
            if h > *e {
                *e = h;
            }
            if store > c && m.components[store].dedup.is_some() {
                guards.insert(store);
            }
        }
    }
    let backs: Vec<Back> = run.states.iter().map(Back::of).collect();
    let mut surviving: BTreeMap<usize, Vec<(Class, Dup, Vec<Step>)>> = BTreeMap::new();
    for eff in &intent.effects {
        let Some(ec) = eff.index() else {
            continue;
        };
        let mut worst: [Option<(usize, Dup)>; 4] = [None, None, None, None];
        for (i, st) in run.states.iter().enumerate() {
            if st.comp != ec {
                continue;
            }
            for class in CLASSES {
                if let Some(d) = &st.dups[class as usize] {
                    let slot = &mut worst[class as usize];
                    if slot.as_ref().is_none_or(|(_, w)| d.age > w.age) {
                        *slot = Some((i, d.clone()));
                    }
                }
            }
        }
        let list = surviving.entry(ec).or_default();
        for class in CLASSES {
            if let Some((s, d)) = worst[class as usize].take() {
                let path = Paths {
                    backs: &backs,
                    manifest: m,
                    model,
                    intent,
                }
                .dup_path(&run.states, s, class);
                list.push((class, d, path));
            }
        }
    }
    run.crossings.sort();
    run.crossings.dedup();
    run.crossings.shrink_to_fit();
    // The run's states (896 bytes each) go now; paths need only `backs`.
    drop(run.states);
    let paths = paths.into_iter().map(|(c, s)| (ix(c), ix(s))).collect();
    IntentResult {
        intent: idx,
        horizons: horizons.into(),
        surviving: surviving.into(),
        layers: run.layers.into(),
        crossings: run.crossings,
        unbounded_cycle,
        paths,
        backs,
    }
}

/// Members of a cycle in breadth-first order from those copies enter.
fn bfs_order(model: &Model, comp: &[usize], entered: impl Fn(usize) -> bool) -> Vec<usize> {
    let inside = |c: usize| comp.binary_search(&c).is_ok();
    let mut seen = vec![false; comp.len()];
    let mut order = Vec::with_capacity(comp.len());
    let mut queue: std::collections::VecDeque<usize> =
        comp.iter().copied().filter(|&c| entered(c)).collect();
    for &c in &queue {
        seen[comp.binary_search(&c).expect("member")] = true;
    }
    while let Some(c) = queue.pop_front() {
        order.push(c);
        for &e in &model.out[c] {
            let w = model.edges[e].to;
            if inside(w) {
                let i = comp.binary_search(&w).expect("member");
                if !std::mem::replace(&mut seen[i], true) {
                    queue.push_back(w);
                }
            }
        }
    }
    order.extend(
        comp.iter()
            .copied()
            .filter(|c| !seen[comp.binary_search(c).expect("member")]),
    );
    order
}

enum CycleBound {
    /// Not a cycle.
    None,
    /// A cycle through redrives with `max_times`: this many extra rounds.
    Rounds(usize),
    /// A cycle nothing bounds (the edge to blame).
    Unbounded(usize),
}

struct CycleInfo {
    topo: Vec<usize>,
    bound: CycleBound,
}

/// Most redrive rounds unrolled in one cycle; beyond it the horizon is
/// reported as unbounded rather than computed round by round.
const MAX_ROUNDS: u64 = 1_000;

/// Orders an SCC by its non-redrive edges and decides how far a cycle unrolls.
fn cycle_info(model: &Model, comp: &[usize]) -> CycleInfo {
    let inside = |c: usize| comp.binary_search(&c).is_ok();
    let mut indeg: BTreeMap<usize, usize> = comp.iter().map(|&c| (c, 0)).collect();
    let mut redrives = Vec::new();
    let mut has_internal = false;
    for &c in comp {
        for &e in &model.out[c] {
            let em = &model.edges[e];
            if !inside(em.to) {
                continue;
            }
            has_internal = true;
            if em.ty == LinkType::Redrive {
                redrives.push(e);
            } else {
                *indeg.get_mut(&em.to).expect("inside") += 1;
            }
        }
    }
    // Kahn's algorithm over non-redrive edges, smallest id first.
    let mut ready: std::collections::BTreeSet<usize> = indeg
        .iter()
        .filter(|(_, d)| **d == 0)
        .map(|(c, _)| *c)
        .collect();
    let mut topo = Vec::with_capacity(comp.len());
    while let Some(c) = ready.pop_first() {
        topo.push(c);
        for &e in &model.out[c] {
            let em = &model.edges[e];
            if inside(em.to) && em.ty != LinkType::Redrive {
                let d = indeg.get_mut(&em.to).expect("inside");
                *d -= 1;
                if *d == 0 {
                    ready.insert(em.to);
                }
            }
        }
    }
    if !has_internal {
        return CycleInfo {
            topo,
            bound: CycleBound::None,
        };
    }
    if topo.len() < comp.len() {
        // A loop without any redrive: nothing bounds it.
        let mut rest: Vec<usize> = comp.iter().copied().filter(|c| !topo.contains(c)).collect();
        let blame = rest
            .iter()
            .flat_map(|&c| model.out[c].iter().copied())
            .find(|&e| inside(model.edges[e].to))
            .unwrap_or(0);
        topo.append(&mut rest);
        return CycleInfo {
            topo,
            bound: CycleBound::Unbounded(blame),
        };
    }
    let mut total = 0u64;
    for &e in &redrives {
        match model.edges[e].redrive_bound {
            Some(Some(k)) => total = total.saturating_add(k),
            _ => {
                return CycleInfo {
                    topo,
                    bound: CycleBound::Unbounded(e),
                };
            }
        }
    }
    if total > MAX_ROUNDS {
        return CycleInfo {
            topo,
            bound: CycleBound::Unbounded(redrives[0]),
        };
    }
    CycleInfo {
        topo,
        bound: CycleBound::Rounds(total as usize),
    }
}

fn merge_dup(slot: &mut Option<Dup>, d: Dup) {
    if slot.as_ref().is_none_or(|cur| d.age > cur.age) {
        *slot = Some(d);
    }
}

impl Run<'_> {
    fn class_of(&self, key: KeyStatus, from: usize) -> Class {
        if self.per_attempt && Some(from) == self.minted_at {
            return Class::Fresh;
        }
        match key {
            KeyStatus::Carried => Class::Same,
            KeyStatus::Lost => Class::Lost,
            KeyStatus::Unminted => Class::Unminted,
        }
    }

    fn enter_replay(&mut self, s: usize, ri: usize) {
        let within = self.intent.replays[ri].within.value;
        let has_key = self.intent.key.loc.is_some();
        let st = &mut self.states[s];
        if st.h.is_none() {
            // Only the replay reaches this component: it resubmits the
            // request as the intent made it, key included when there is one.
            st.key = if has_key {
                KeyStatus::Carried
            } else {
                KeyStatus::Unminted
            };
        }
        if st.h.is_none_or(|h| within > h) {
            st.h = Some(within);
            st.back = Some((s, Via::Replay(ix(ri))));
        }
        let class = self.class_of(self.states[s].key, usize::MAX);
        let layered = self.states[s].orig_layered;
        let d = Dup {
            age: within,
            birth: Birth::Replay,
            born_at: BornAt::Replay(ri),
            born_after_layer: layered,
            lost_at: None,
            bypass: Bypass::default(),
            back: DupBack::Born {
                state: s,
                via: Via::Replay(ix(ri)),
            },
        };
        merge_dup(&mut self.states[s].dups[class as usize], d);
    }

    /// Everything that happens at a component once all its inputs arrived:
    /// key minting, regional fan-out and failover, then its dedup layers.
    fn finalize(&mut self, c: usize, first: usize, count: usize) {
        let node = &self.model.nodes[c];
        // Minting.
        if Some(c) == self.minted_at {
            for s in first..first + count {
                let st = &mut self.states[s];
                if st.h.is_none() {
                    continue;
                }
                st.key = KeyStatus::Carried;
                let remint = if self.natural_key && !self.per_attempt {
                    Class::Same
                } else {
                    Class::Fresh
                };
                let dups = std::mem::take(&mut st.dups);
                for (i, d) in dups.into_iter().enumerate() {
                    let Some(d) = d else { continue };
                    let class = match CLASSES[i] {
                        Class::Same if self.per_attempt => Class::Fresh,
                        Class::Same => Class::Same,
                        Class::Fresh => Class::Fresh,
                        Class::Lost | Class::Unminted => remint,
                    };
                    merge_dup(&mut st.dups[class as usize], d);
                }
            }
        }
        // Active-active: a copy may reach any region.
        if count > 1 && node.mode == crate::manifest::model::Mode::ActiveActive {
            for a in 0..count {
                for b in 0..count {
                    if a != b {
                        self.copy_state(first + a, first + b, Dur::ZERO, Via::Fanout, None);
                    }
                }
            }
        }
        // Active-passive failover from the primary region.
        if let Some((from, to, delay, _)) = node.failover.as_deref() {
            let (from, to, delay) = (*from, *to, *delay);
            self.copy_state(first + from, first + to, delay, Via::Failover, Some(c));
        }
        // Dedup layers acting here.
        for s in first..first + count {
            if self.states[s].h.is_none() {
                continue;
            }
            let region = node.regions.get(self.states[s].region).cloned();
            if let Some(g) = &node.guard {
                let visible = g.store_regions.is_empty()
                    || region.as_ref().is_none_or(|r| g.store_regions.contains(r));
                if !visible {
                    self.crossings
                        .push((c, region.as_deref().unwrap_or_default().to_string()));
                }
                if g.claim != crate::manifest::model::Claim::None {
                    let layer = g.layer.clone();
                    self.apply_layer(
                        s,
                        c,
                        &layer,
                        visible
                            .then_some(())
                            .ok_or((c, region.as_deref().unwrap_or_default().to_string())),
                    );
                }
            }
            if let Some(l) = &node.own_layer {
                let layer = l.clone();
                self.apply_layer(s, c, &layer, Ok(()));
            }
            if node.guard.is_some() || node.own_layer.is_some() {
                self.states[s].orig_layered = true;
            }
        }
    }

    /// Copies the original and its duplicates from one regional state of a
    /// component to another, `delay` later. A failover also gives birth.
    fn copy_state(
        &mut self,
        from: usize,
        to: usize,
        delay: Dur,
        via: Via,
        failover_of: Option<usize>,
    ) {
        let Some(h) = self.states[from].h else { return };
        let nh = h.add(delay);
        // Only what moves is copied: cloning the whole source state (with
        // its four duplicate slots) was the largest cost of the run.
        let (src_key, src_layered) = (self.states[from].key, self.states[from].orig_layered);
        let arriving: Vec<(Class, Dup)> = CLASSES
            .iter()
            .filter_map(|&class| {
                let d = self.states[from].dups[class as usize].as_ref()?;
                let mut d2 = d.clone();
                d2.age = d.age.add(delay);
                d2.back = DupBack::Carried {
                    state: from,
                    class,
                    via,
                };
                Some((class, d2))
            })
            .collect();
        let dst = &mut self.states[to];
        let first_copy = dst.h.is_none();
        if dst.h.is_none_or(|x| nh > x) {
            dst.h = Some(nh);
            dst.back = Some((from, via));
        }
        dst.key = if first_copy {
            src_key
        } else {
            dst.key.max(src_key)
        };
        dst.orig_layered |= src_layered;
        for (class, d2) in arriving {
            merge_dup(&mut dst.dups[class as usize], d2);
        }
        if let Some(c) = failover_of {
            let class = self.class_of(src_key, usize::MAX);
            let d = Dup {
                age: nh,
                birth: Birth::Failover,
                born_at: BornAt::Failover(c),
                born_after_layer: src_layered,
                lost_at: None,
                bypass: Bypass::default(),
                back: DupBack::Born { state: from, via },
            };
            merge_dup(&mut self.states[to].dups[class as usize], d);
        }
    }

    /// Lets a layer stop the duplicates it recognises and remembers why it
    /// let the others by. `visible` is `Err((guard, region))` when the
    /// layer's store cannot be seen from the copy's region.
    fn apply_layer(
        &mut self,
        s: usize,
        at: usize,
        layer: &Layer,
        visible: Result<(), (usize, String)>,
    ) {
        let window = layer.window.value;
        let entry = self
            .layers
            .entry((at, layer.component))
            .or_insert_with(|| LayerReach {
                layer: layer.clone(),
                at,
                reach: None,
            });
        let st = &mut self.states[s];
        for class in CLASSES {
            let Some(d) = &mut st.dups[class as usize] else {
                continue;
            };
            let recognises = match class {
                Class::Same => true,
                Class::Lost | Class::Unminted => layer.any_key || layer.content,
                Class::Fresh => layer.any_key,
            };
            d.bypass.layers_seen += 1;
            if let Err((g, r)) = &visible {
                d.bypass.region.get_or_insert((*g, r.clone()));
                continue;
            }
            if !recognises {
                match class {
                    Class::Lost => {
                        d.bypass
                            .lost_key
                            .get_or_insert((layer.component, d.lost_at));
                    }
                    _ => {
                        d.bypass.fresh_key.get_or_insert(layer.component);
                    }
                }
                continue;
            }
            if entry.reach.is_none_or(|r| d.age > r) {
                entry.reach = Some(d.age);
            }
            if d.age <= window {
                st.dups[class as usize] = None;
            } else if d.bypass.expired.is_none_or(|(w, _, _)| window > w) {
                d.bypass.expired = Some((window, layer.component, d.age));
            }
        }
    }

    /// Moves the original copy and its duplicates along edge `e`.
    fn push(&mut self, s: usize, t: usize, e: usize) {
        let em = &self.model.edges[e];
        let src = &self.states[s];
        let Some(h) = src.h else { return };
        let (src_key, src_comp, src_layered) = (src.key, src.comp, src.orig_layered);
        let nh = h.add(em.delay);
        let key_after = |k: KeyStatus| {
            if k == KeyStatus::Carried && !em.passes_key {
                KeyStatus::Lost
            } else {
                k
            }
        };
        let class_after = |c: Class| {
            if c == Class::Same && !em.passes_key {
                Class::Lost
            } else {
                c
            }
        };
        let mut arriving: Vec<(Class, Dup)> = Vec::new();
        for class in CLASSES {
            if let Some(d) = &src.dups[class as usize] {
                let nc = class_after(class);
                let mut d2 = d.clone();
                d2.age = d.age.add(em.delay);
                if nc == Class::Lost && class == Class::Same {
                    d2.lost_at = Some(e);
                }
                d2.back = DupBack::Carried {
                    state: s,
                    class,
                    via: Via::Edge(ix(e)),
                };
                arriving.push((nc, d2));
            }
        }
        if let Some(birth) = em.birth {
            let class = class_after(self.class_of(src_key, src_comp));
            arriving.push((
                class,
                Dup {
                    age: nh,
                    birth,
                    born_at: BornAt::Edge(e),
                    born_after_layer: src_layered,
                    lost_at: (class == Class::Lost && src_key == KeyStatus::Carried).then_some(e),
                    bypass: Bypass::default(),
                    back: DupBack::Born {
                        state: s,
                        via: Via::Edge(ix(e)),
                    },
                },
            ));
        }
        // A transport's dedup window acts on what is sent into it.
        let send_layer = match (
            em.ty,
            em.dedup_id,
            &self.model.nodes[em.to].transport_window,
        ) {
            (LinkType::SendsTo, Some(id), Some(l)) if id != DedupId::None => {
                let mut l = l.clone();
                l.content = id == DedupId::Content;
                Some(l)
            }
            _ => None,
        };
        let dst = &mut self.states[t];
        let first_copy = dst.h.is_none();
        if dst.h.is_none_or(|x| nh > x) {
            dst.h = Some(nh);
            dst.back = Some((s, Via::Edge(ix(e))));
        }
        dst.key = if first_copy {
            key_after(src_key)
        } else {
            dst.key.max(key_after(src_key))
        };
        dst.orig_layered |= src_layered || send_layer.is_some();
        for (class, d) in arriving {
            merge_dup(&mut dst.dups[class as usize], d);
        }
        if let Some(l) = send_layer {
            self.apply_layer(t, em.to, &l, Ok(()));
        }
    }
}

/// An assumption a path rests on, as a value: many paths of an intent
/// share their assumptions, and each is written out once.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum PathAssumption {
    /// What an edge's delay rests on.
    Edge(model::EdgeAssumption),
    /// A declared replay (index into the intent's `replays`).
    Replay(u32),
}

/// Reconstructs worst paths from the back-pointers of a finished run.
struct Paths<'a> {
    backs: &'a [Back],
    manifest: &'a Manifest,
    model: &'a Model,
    intent: &'a Intent,
}

impl Paths<'_> {
    /// The worst path to state `s` as steps (origin or replay first).
    fn path_to(&self, s: usize) -> Vec<Step> {
        let mut steps: Vec<Step> = self
            .back_walk(s)
            .map(|(p, s, via)| match via {
                Via::Replay(ri) => self.replay_step(s, ri),
                _ => self.step(p, s, via),
            })
            .collect();
        steps.reverse();
        steps
    }

    /// The assumptions along the worst path to state `s`, added to `set`:
    /// what [`Paths::path_to`]'s steps would list, without building them.
    fn assumptions_to(&self, s: usize, set: &mut std::collections::BTreeSet<PathAssumption>) {
        for (_, _, via) in self.back_walk(s) {
            match via {
                Via::Replay(ri) => {
                    set.insert(PathAssumption::Replay(ri));
                }
                Via::Edge(e) => {
                    if let Some(x) = self.model.edges[e as usize].assumption {
                        set.insert(PathAssumption::Edge(x));
                    }
                }
                _ => {}
            }
        }
    }

    fn assumption_text(&self, x: PathAssumption) -> String {
        match x {
            PathAssumption::Edge(e) => e.text(self.manifest),
            PathAssumption::Replay(ri) => self.replay_assumption(ri),
        }
    }

    /// The worst path's back-pointers from state `s`, latest first: each
    /// step as (previous state, state, how it got there), ending at the
    /// origin or with the replay the copy entered by. Bounded by the number
    /// of states, so a malformed cycle of pointers cannot loop.
    fn back_walk(&self, mut s: usize) -> impl Iterator<Item = (usize, usize, Via)> + '_ {
        let mut left = self.backs.len() + 1;
        std::iter::from_fn(move || {
            let (p, via) = self.backs[s].back()?;
            if left == 0 || matches!(via, Via::Origin) {
                return None;
            }
            left -= 1;
            let step = (p, s, via);
            if matches!(via, Via::Replay(_)) {
                left = 0;
            } else {
                s = p;
            }
            Some(step)
        })
    }

    fn replay_assumption(&self, ri: u32) -> String {
        let r = &self.intent.replays[ri as usize];
        format!("replay `{}` within {}", r.name, r.within.value)
    }

    /// A declared replay entering at state `s`.
    fn replay_step(&self, s: usize, ri: u32) -> Step {
        let r = &self.intent.replays[ri as usize];
        let c = self.backs[s].comp as usize;
        Step {
            from: c,
            to: c,
            adds: r.within.value,
            why: format!(
                "replay `{}` enters within {} (declared)",
                r.name, r.within.value
            ),
            assumptions: vec![self.replay_assumption(ri)],
        }
    }

    fn step(&self, p: usize, s: usize, via: Via) -> Step {
        let (from, to) = (self.backs[p].comp as usize, self.backs[s].comp as usize);
        match via {
            Via::Edge(e) => {
                let em = &self.model.edges[e as usize];
                Step {
                    from,
                    to,
                    adds: em.delay,
                    why: self.model.explain(self.manifest, e as usize),
                    assumptions: em
                        .assumption
                        .iter()
                        .map(|x| x.text(self.manifest))
                        .collect(),
                }
            }
            Via::Failover => {
                let (_, _, d, why) = self.model.nodes[from]
                    .failover
                    .as_deref()
                    .cloned()
                    .expect("failover step");
                Step {
                    from,
                    to,
                    adds: d,
                    why,
                    assumptions: Vec::new(),
                }
            }
            Via::Fanout => Step {
                from,
                to,
                adds: Dur::ZERO,
                why: "active-active: the copy may reach another region".into(),
                assumptions: Vec::new(),
            },
            Via::Origin | Via::Replay(_) => Step {
                from,
                to,
                adds: Dur::ZERO,
                why: String::new(),
                assumptions: Vec::new(),
            },
        }
    }

    /// The path of a surviving duplicate: the original's path to where it
    /// was born, then the duplicate's own steps. `states` are the run's
    /// states, whose duplicates carry their own back-pointers.
    fn dup_path(&self, states: &[State], mut s: usize, mut class: Class) -> Vec<Step> {
        let mut tail = Vec::new();
        let mut guard = 0;
        loop {
            guard += 1;
            let Some(d) = &states[s].dups[class as usize] else {
                break;
            };
            if guard > states.len() * 4 + 4 {
                break;
            }
            match d.back {
                DupBack::Carried {
                    state,
                    class: c,
                    via,
                } => {
                    tail.push(self.step(state, s, via));
                    s = state;
                    class = c;
                }
                DupBack::Born { state, via } => {
                    if let Via::Replay(ri) = via {
                        tail.push(self.replay_step(s, ri));
                        tail.reverse();
                        return tail;
                    }
                    tail.push(self.step(state, s, via));
                    s = state;
                    break;
                }
            }
        }
        tail.reverse();
        let mut head = self.path_to(s);
        head.extend(tail);
        head
    }
}

impl IntentResult {
    /// How many (component, region, round) states the intent's run reached:
    /// the measure of its work, for benchmarks.
    pub fn state_count(&self) -> usize {
        self.backs.len()
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
    pub fn assumptions_to(
        &self,
        a: &Analysis,
        c: usize,
        set: &mut std::collections::BTreeSet<PathAssumption>,
    ) {
        if let Some(s) = self.worst_state(c) {
            self.paths(a).assumptions_to(s, set);
        }
    }

    /// An assumption of this intent's paths, as the steps word it.
    pub fn assumption_text(&self, a: &Analysis, x: PathAssumption) -> String {
        self.paths(a).assumption_text(x)
    }

    /// The state with the worst horizon of component `c`, if reached.
    fn worst_state(&self, c: usize) -> Option<usize> {
        let c = u32::try_from(c).ok()?;
        let i = self
            .paths
            .binary_search_by_key(&c, |&(comp, _)| comp)
            .ok()?;
        Some(self.paths[i].1 as usize)
    }

    fn paths<'a>(&'a self, a: &'a Analysis) -> Paths<'a> {
        Paths {
            backs: &self.backs,
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
            let comp = |s: usize| self.backs[s].comp as usize;
            hops.extend(self.paths(a).back_walk(s).map(|(p, s, via)| match via {
                Via::Replay(_) => (comp(s), comp(s)),
                _ => (comp(p), comp(s)),
            }));
            hops.reverse();
        }
        ids_along(a.manifest, origin, hops.into_iter())
    }
}

/// Ids along a path given as (from, to) hops: the first component (the
/// origin when there is no hop), then each hop's target, a hop that stays
/// in place (a replay entering, a failover) only once.
fn ids_along(
    m: &Manifest,
    origin: usize,
    hops: impl Iterator<Item = (usize, usize)>,
) -> Vec<String> {
    let mut hops = hops.peekable();
    let first = hops.peek().map_or(origin, |&(from, _)| from);
    let mut ids = vec![m.components[first].id.clone()];
    for (from, to) in hops {
        if to != from || ids.last() != Some(&m.components[to].id) {
            ids.push(m.components[to].id.clone());
        }
    }
    ids
}

/// A location to fix for a layer's window: its field, else its kind line.
pub fn window_loc(m: &Manifest, layer: &Layer) -> Loc {
    layer
        .window
        .loc()
        .unwrap_or(m.components[layer.component].kind.loc)
}
