//! One intent's run: the components of its region (`between`), their
//! states laid out SCC by SCC, the walk that settles each component and pushes its
//! copies on, and the summary kept as an [`IntentResult`].

use std::collections::{BTreeMap, BTreeSet};

use super::between::{Between, Marks, Out};
use super::clock::KeptClock;
use super::cycles::{CycleBound, CycleInfo, bfs_order, cycle_info, sccs};
use super::model::EdgeModel;
use super::model::Model;
use super::paths::{Back, Paths, Step};
use super::propagate::Run;
use super::result::IntentResult;
use super::state::{CLASSES, Class, Dup, KeyStatus, State};
use crate::manifest::model::{Intent, LinkType, Manifest};
use crate::time::Dur;

/// Buffers indexed by component, allocated once per analysis and reset only
/// where an intent touched them: an intent then costs what it covers, not
/// the size of the whole graph (which made many intents over a large graph
/// quadratic).
pub(super) struct Scratch {
    marks: Marks,
    base: Vec<usize>,
    rounds: Vec<usize>,
}

impl Scratch {
    pub(super) fn new(m: &Manifest, model: &Model) -> Self {
        let n = model.nodes.len();
        Scratch {
            marks: Marks::new(m, model),
            base: vec![0; n],
            rounds: vec![1; n],
        }
    }

    /// Puts back the entries of `region` (everything an intent touched).
    fn reset(&mut self, region: &Between) {
        region.release(&mut self.marks);
        for &c in &region.nodes {
            self.base[c] = 0;
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

/// State ids: `base[c] + round * regions(c) + region`, where `base[c]` is
/// where component `c`'s states start.
#[derive(Clone, Copy)]
struct StateIds<'a> {
    base: &'a [usize],
    model: &'a Model,
}

impl StateIds<'_> {
    #[inline]
    fn of(self, c: usize, round: usize, region: usize) -> usize {
        self.base[c] + round * self.model.nodes[c].region_count() + region
    }
}

/// Runs the analysis of intent `idx`.
pub(super) fn analyse_intent(
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
    let region = Between::of(model, intent, &seeds, &mut scratch.marks);
    let order = sccs(model, &region.nodes);
    let mut run = Run::new(model, intent);
    let out = Out {
        region: &region,
        marks: &scratch.marks,
    };
    let (scc_info, unbounded_cycle) = lay_out(
        &mut run,
        out,
        &order,
        &mut scratch.base,
        &mut scratch.rounds,
    );
    let ids = StateIds {
        base: &scratch.base,
        model,
    };
    // The origin is left out where only a replay leads to an effect.
    if let Some(o) = origin.filter(|&o| region.contains(o)) {
        run.start_at(ids.of(o, 0, 0));
    }
    for (comp, info) in order.iter().zip(&scc_info) {
        let rounds = scratch.rounds[comp[0]];
        walk_scc(&mut run, ids, out, comp, info, rounds, &replay_at);
    }
    scratch.reset(&region);
    summarise(m, idx, run, unbounded_cycle, region.edge_list())
}

/// Lays out the states of each SCC of `order`, every member's rounds and
/// regions in turn, and records where they start (`scratch.base`) and how
/// many rounds they have (`scratch.rounds`). Returns each SCC's cycle info
/// and the edge to blame for the first cycle nothing bounds.
fn lay_out(
    run: &mut Run,
    out: Out,
    order: &[&[usize]],
    base: &mut [usize],
    rounds: &mut [usize],
) -> (Vec<CycleInfo>, Option<usize>) {
    let model = run.model;
    let mut unbounded_cycle = None;
    let mut scc_info = Vec::with_capacity(order.len());
    for comp in order {
        let info = cycle_info(model, |c| out.of(c), comp);
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
            for _ in 0..r {
                for region in 0..model.nodes[c].region_count() {
                    run.states.push(State {
                        comp: c,
                        region,
                        h: None,
                        enq: Dur::ZERO,
                        clock: None,
                        back: None,
                        key: KeyStatus::Unminted,
                        orig_layered: false,
                        in_edge: None,
                        converged: false,
                        dups: [None, None, None, None],
                    });
                }
            }
        }
        scc_info.push(info);
    }
    (scc_info, unbounded_cycle)
}

/// Walks one SCC `r` times through its members (a redrive inside leads to
/// the next round), settling each member and pushing its copies on.
fn walk_scc(
    run: &mut Run,
    ids: StateIds,
    out: Out,
    comp: &[usize],
    info: &CycleInfo,
    r: usize,
    replay_at: &[Option<usize>],
) {
    let model = run.model;
    let unbounded = matches!(info.bound, CycleBound::Unbounded(_));
    // A cycle nothing bounds is walked once, breadth-first from where
    // copies enter it; every age in it is unbounded.
    let walk = if unbounded {
        let entered = |c: usize| {
            run.states[ids.of(c, 0, 0)..ids.of(c, 0, 0) + model.nodes[c].region_count()]
                .iter()
                .any(|s| s.h.is_some())
                || replay_at.contains(&Some(c))
        };
        bfs_order(model, out, comp, entered)
    } else {
        info.topo.clone()
    };
    for round in 0..r {
        for &c in &walk {
            // Replays enter in the first round.
            if round == 0 {
                for (ri, at) in replay_at.iter().enumerate() {
                    if *at == Some(c) {
                        run.enter_replay(ids.of(c, 0, 0), ri);
                    }
                }
            }
            let first = ids.of(c, round, 0);
            let count = model.nodes[c].region_count();
            if unbounded {
                for st in &mut run.states[first..first + count] {
                    if st.h.is_some() {
                        // Messages are made anew without end: no clock
                        // bounds them either.
                        st.h = Some(Dur::Unbounded);
                        st.enq = Dur::Unbounded;
                        // A copy may have gone round already: the first
                        // sighting of any layer here can be any age ago.
                        st.converged = true;
                        for d in st.dups.iter_mut().flatten() {
                            d.age = Dur::Unbounded;
                            d.span_from_intent();
                            d.enq = Dur::Unbounded;
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
                for &e in out.of(c) {
                    let em = &model.edges[e];
                    let w = em.to();
                    let Some(target_round) = next_round(comp, em, round, r, unbounded) else {
                        continue;
                    };
                    let t = ids.of(w, target_round, target_region(model, c, region, w));
                    run.push(s, t, e);
                }
            }
        }
    }
}

/// The round a copy along `em` (out of round `round` of an SCC of `r`
/// rounds, `comp`) arrives in: the next round along a redrive inside, none
/// past the last; the same round along another edge inside; the first
/// round of a later SCC along an edge out.
#[inline]
fn next_round(
    comp: &[usize],
    em: &EdgeModel,
    round: usize,
    r: usize,
    unbounded: bool,
) -> Option<usize> {
    if comp.binary_search(&em.to()).is_err() {
        return Some(0);
    }
    if em.ty == LinkType::Redrive && !unbounded {
        (round + 1 < r).then_some(round + 1)
    } else {
        Some(round)
    }
}

/// The region of component `w` a copy from region `region` of `c` arrives
/// in: the one of the same name, else the first.
#[inline]
fn target_region(model: &Model, c: usize, region: usize, w: usize) -> usize {
    let region_name = model.nodes[c].regions.get(region).map(|r| &**r);
    if model.nodes[w].regions.is_empty() {
        0
    } else if let Some(name) = region_name {
        region_index(model, w, Some(name))
    } else {
        0
    }
}

/// What the run leaves: the horizon and worst state of every component
/// reached, the horizons of the stores reached guards claim in, and the
/// surviving duplicates at each effect with their paths.
fn summarise(
    m: &Manifest,
    idx: usize,
    mut run: Run,
    unbounded_cycle: Option<usize>,
    edges: Box<[(usize, usize)]>,
) -> IntentResult {
    let (mut horizons, paths) = worst_states(&run.states);
    store_horizons(m, run.model, &mut horizons);
    let backs: Box<[Back]> = run.states.iter().map(Back::of).collect();
    let clocks = kept_clocks(&run.states);
    let surviving = surviving(m, &run, &backs, &clocks);
    run.crossings.sort();
    run.crossings.dedup();
    // The run's states go now; paths need only `backs`.
    drop(run.states);
    let paths = paths.into_iter().collect();
    IntentResult {
        intent: idx,
        horizons: horizons.into(),
        surviving: surviving.into(),
        layers: run.layers.into(),
        crossings: run.crossings.into_boxed_slice(),
        unbounded_cycle,
        paths,
        edges,
        backs,
        clocks,
        redrive_caps: run.redrive_caps.into_iter().collect(),
    }
}

/// The clock notes of the states that have one, by state, in a slice of
/// their exact number (kept with the result, for every intent).
fn kept_clocks(states: &[State]) -> Box<[KeptClock]> {
    let n = states.iter().filter(|st| st.clock.is_some()).count();
    let mut clocks = Vec::with_capacity(n);
    clocks.extend(
        states
            .iter()
            .enumerate()
            .filter_map(|(i, st)| st.clock.as_ref().map(|c| KeptClock::new(i, c))),
    );
    clocks.into_boxed_slice()
}

/// Per reached component, its horizon (the worst over its states) and the
/// first state with that horizon.
fn worst_states(states: &[State]) -> (BTreeMap<usize, Dur>, BTreeMap<usize, usize>) {
    let mut horizons = BTreeMap::new();
    let mut paths = BTreeMap::new();
    for (i, st) in states.iter().enumerate() {
        if let Some(h) = st.h {
            let e = horizons.entry(st.comp).or_insert(h);
            if h > *e {
                *e = h;
            }
            let p = paths.entry(st.comp).or_insert(i);
            if states[*p].h < Some(h) {
                *p = i;
            }
        }
    }
    (horizons, paths)
}

/// Store horizons: the horizon of the guards that claim in them, guards
/// in ascending order. Only reached guards have a horizon, so the work
/// list starts with them; a store that is itself a guard joins it when
/// it gets a horizon and comes later in the order.
fn store_horizons(m: &Manifest, model: &Model, horizons: &mut BTreeMap<usize, Dur>) {
    let mut guards: BTreeSet<usize> = horizons
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
}

/// The oldest duplicate of each class that reaches each effect past every
/// layer, with its path.
fn surviving(
    m: &Manifest,
    run: &Run,
    backs: &[Back],
    clocks: &[KeptClock],
) -> BTreeMap<usize, Vec<(Class, Dup, Vec<Step>)>> {
    let (model, intent) = (run.model, run.intent);
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
                    backs,
                    clocks,
                    manifest: m,
                    model,
                    intent,
                }
                .dup_path(&run.states, s, class);
                list.push((class, d, path));
            }
        }
    }
    surviving
}
