//! The brute-force oracle of the horizon property: every path walked
//! (exponential, fine for the six components the generator makes), with
//! the message clock each path carries.

use std::collections::BTreeMap;

use super::edges::{Step, step};
use replay_audit::analysis::Model;
use replay_audit::manifest::Manifest;
use replay_audit::manifest::model::LinkType;
use replay_audit::time::Dur;

/// Longest arrival age of a copy at every component, by walking every
/// path (exponential; fine for six components): from the origin at age 0
/// and from each replay's entry at its `within`, adding each edge's delay
/// as [`step`] computes it from the manifest (only the graph's shape comes
/// from the model). Each path carries its message clock: a step out of a
/// transport ends by the message's enqueue age + the transport's retention
/// (then what comes after it), and the message keeps its enqueue age only
/// on a move into a dead-letter queue that keeps it. Inside a cycle a
/// redrive may be taken at most the sum of the cycle's `max_times` times; a cycle that a copy can go
/// round without a redrive, or with a redrive that has no `max_times`,
/// makes every age in it unbounded. A store's horizon is that of the
/// guards that claim in it. Paths go only through components that lead
/// to one of the intent's effects or to no intent's effect at all: a
/// branch that leads only to other intents' effects is theirs.
pub fn oracle(m: &Manifest, model: &Model, intent: usize) -> BTreeMap<usize, Dur> {
    walk_paths(m, model, intent, false)
}

/// [`oracle`] through every component the intent's copies reach, whatever
/// effect it leads to: what the first intent reaching a component is
/// judged by.
pub fn oracle_whole(m: &Manifest, model: &Model, intent: usize) -> BTreeMap<usize, Dur> {
    walk_paths(m, model, intent, true)
}

fn walk_paths(m: &Manifest, model: &Model, intent: usize, whole: bool) -> BTreeMap<usize, Dur> {
    let n = model.nodes.len();
    let steps = steps(m, model);
    // reach[u][v]: v reachable from u (u reaches itself).
    let mut reach = vec![vec![false; n]; n];
    for (u, row) in reach.iter_mut().enumerate() {
        row[u] = true;
        for &e in &model.out[u] {
            row[model.edges[e].to()] = true;
        }
    }
    for k in 0..n {
        for i in 0..n {
            for j in 0..n {
                if reach[i][k] && reach[k][j] {
                    reach[i][j] = true;
                }
            }
        }
    }
    let same_scc = |u: usize, v: usize| reach[u][v] && reach[v][u];
    let is_redrive = |e: usize| model.edges[e].ty == LinkType::Redrive;
    let internal = |e: usize| same_scc(model.edges[e].from(), model.edges[e].to());
    // Per SCC (keyed by its smallest member): the redrive budget, or None
    // when nothing bounds it.
    let mut budget: BTreeMap<usize, Option<u64>> = BTreeMap::new();
    for c in 0..n {
        let key = (0..n).find(|&u| same_scc(u, c)).unwrap();
        if budget.contains_key(&key) {
            continue;
        }
        let members: Vec<usize> = (0..n).filter(|&u| same_scc(u, c)).collect();
        let edges: Vec<usize> = members
            .iter()
            .flat_map(|&u| model.out[u].iter().copied())
            .filter(|&e| internal(e))
            .collect();
        let mut b = Some(0u64);
        // A loop of non-redrive edges: DFS for a cycle among members.
        let non_redrive_cycle = {
            let mut r = vec![vec![false; n]; n];
            for &e in edges.iter().filter(|&&e| !is_redrive(e)) {
                r[model.edges[e].from()][model.edges[e].to()] = true;
            }
            for k in 0..n {
                for i in 0..n {
                    for j in 0..n {
                        if r[i][k] && r[k][j] {
                            r[i][j] = true;
                        }
                    }
                }
            }
            (0..n).any(|i| r[i][i])
        };
        if non_redrive_cycle {
            b = None;
        }
        for &e in edges.iter().filter(|&&e| is_redrive(e)) {
            match (b, model.edges[e].redrive_bound()) {
                (Some(t), Some(Some(k))) => b = Some(t.saturating_add(k)),
                _ => b = None,
            }
        }
        if b.is_some_and(|t| t > 1_000) {
            b = None;
        }
        budget.insert(key, b);
    }
    let scc_budget = |c: usize| budget[&(0..n).find(|&u| same_scc(u, c)).unwrap()];
    let effects_of = |i: usize| -> Vec<usize> {
        m.intents[i]
            .effects
            .iter()
            .filter_map(|e| m.component_index(&e.value))
            .collect()
    };
    let own = effects_of(intent);
    let every: Vec<usize> = (0..m.intents.len()).flat_map(effects_of).collect();
    let allowed = |c: usize| {
        whole
            || own.is_empty()
            || own.iter().any(|&x| reach[c][x])
            || !every.iter().any(|&x| reach[c][x])
    };

    let mut best: BTreeMap<usize, Dur> = BTreeMap::new();
    #[allow(clippy::too_many_arguments)]
    fn walk(
        c: usize,
        (age, enq): (Dur, Dur),
        used: u64,
        depth: usize,
        (model, steps): (&Model, &[Step]),
        best: &mut BTreeMap<usize, Dur>,
        ctx: &dyn Fn(usize, usize) -> (bool, bool),
        scc_budget: &dyn Fn(usize) -> Option<u64>,
        allowed: &dyn Fn(usize) -> bool,
    ) {
        let (age, enq) = if scc_budget(c).is_none() && model.out[c].iter().any(|&e| ctx(e, c).0) {
            (Dur::Unbounded, Dur::Unbounded)
        } else {
            (age, enq)
        };
        let e = best.entry(c).or_insert(age);
        if age > *e {
            *e = age;
        }
        if depth > 64 || (age == Dur::Unbounded && depth > 12) {
            return;
        }
        for &e in &model.out[c] {
            let em = &model.edges[e];
            if !allowed(em.to()) {
                continue;
            }
            let (inside, redrive) = ctx(e, c);
            let mut u = used;
            if !inside {
                u = 0;
            } else if redrive {
                match scc_budget(c) {
                    Some(b) if used < b => u = used + 1,
                    Some(_) => continue,
                    None => {}
                }
            }
            let s = &steps[e];
            let mut next = age.add(s.delay);
            if let Some((retention, after)) = s.hold {
                next = next.min(enq.add(retention).add(after));
            }
            let next_enq = if s.keeps_clock { enq } else { next };
            walk(
                em.to(),
                (next, next_enq),
                u,
                depth + 1,
                (model, steps),
                best,
                ctx,
                scc_budget,
                allowed,
            );
        }
    }
    let ctx = |e: usize, _c: usize| (internal(e), is_redrive(e));
    let it = &m.intents[intent];
    if let Some(o) = m.component_index(&it.origin.value).filter(|&o| allowed(o)) {
        walk(
            o,
            (Dur::ZERO, Dur::ZERO),
            0,
            0,
            (model, &steps),
            &mut best,
            &ctx,
            &scc_budget,
            &allowed,
        );
    }
    for r in &it.replays {
        if let Some(c) = m
            .component_index(&r.enters_at.value)
            .filter(|&c| allowed(c))
        {
            let at = r.within.value;
            walk(
                c,
                (at, at),
                0,
                0,
                (model, &steps),
                &mut best,
                &ctx,
                &scc_budget,
                &allowed,
            );
        }
    }
    for (g, comp) in m.components.iter().enumerate() {
        if comp.dedup.is_some()
            && let (Some(&h), Some(guard)) = (best.get(&g), &model.nodes[g].guard)
        {
            let e = best.entry(guard.layer.component).or_insert(h);
            if h > *e {
                *e = h;
            }
        }
    }
    best
}

/// Every edge's step, computed from the manifest, by edge index.
pub fn steps(m: &Manifest, model: &Model) -> Vec<Step> {
    model
        .edges
        .iter()
        .map(|em| step(m, em.from(), em.to(), em.link))
        .collect()
}
