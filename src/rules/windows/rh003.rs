//! RH003 unbounded-replay-horizon: a copy that can reach an effect at any
//! age (page `docs/rules/RH003.md`).

use crate::analysis::{Analysis, IntentResult, Step};
use crate::rules::surviving::Surviving;
use crate::rules::{Code, Finding};

/// RH003: a copy that can reach an effect at any age.
pub(super) fn emit(copy: &Surviving, out: &mut Vec<Finding>) {
    let (a, r, steps) = (copy.a, copy.r, copy.steps);
    let m = a.manifest;
    let eid = &m.components[copy.effect].id;
    let message = format!(
        "{} can reach `{eid}` at any age: nothing bounds how late it arrives ({}), and no layer with unbounded retention covers the effect",
        copy.dup.birth.describe(),
        unbounded_reason(a, r, steps)
    );
    let mut f = copy
        .finding(Code::RH003, message)
        .component(eid)
        .at(unbounded_loc(a, r, steps).unwrap_or(m.components[copy.effect].loc));
    if let Some(e) = r.unbounded_cycle {
        show_cycle(a, e, &mut f.path);
    }
    out.push(f);
}

/// Writes the unbounded cycle into the printed path: after the cycle's
/// entry, the way round it back to the entry (`queue, dlq, queue`). The way
/// round is a breadth-first search inside the cycle's strongly connected
/// component, so linear in its size.
fn show_cycle(a: &Analysis, e: usize, path: &mut Vec<String>) {
    let m = a.manifest;
    let em = &a.model.edges[e];
    let (entry, back) = (em.to(), em.from());
    let Some(at) = path.iter().position(|id| *id == m.components[entry].id) else {
        return;
    };
    let scc = a.model.components.of[entry];
    let mut parent = std::collections::BTreeMap::from([(entry, entry)]);
    let mut queue = std::collections::VecDeque::from([entry]);
    while let Some(c) = queue.pop_front() {
        if c == back {
            break;
        }
        for &x in &a.model.out[c] {
            let t = a.model.edges[x].to();
            if a.model.components.of[t] == scc && !parent.contains_key(&t) {
                parent.insert(t, c);
                queue.push_back(t);
            }
        }
    }
    if !parent.contains_key(&back) {
        return;
    }
    let mut round = vec![entry];
    let mut c = back;
    while c != entry {
        round.push(c);
        c = parent[&c];
    }
    // `round` is the entry, then the way round backwards; the entry closes it.
    round[1..].reverse();
    let ids = round[1..]
        .iter()
        .chain(std::iter::once(&entry))
        .map(|&c| m.components[c].id.as_str().to_owned());
    path.splice(at + 1..at + 1, ids);
}

fn unbounded_reason(a: &Analysis, r: &IntentResult, steps: &[Step]) -> String {
    if let Some(e) = r.unbounded_cycle {
        let em = &a.model.edges[e];
        return format!(
            "the cycle through `{}` → `{}` has no `max_times`",
            a.manifest.components[em.from()].id,
            a.manifest.components[em.to()].id
        );
    }
    steps
        .iter()
        .find(|s| s.adds.is_unbounded())
        .map_or_else(|| "an unbounded delay".to_string(), |s| s.why.clone())
}

fn unbounded_loc(
    a: &Analysis,
    r: &IntentResult,
    steps: &[Step],
) -> Option<crate::diagnostics::Loc> {
    if let Some(e) = r.unbounded_cycle {
        return Some(a.model.edges[e].loc);
    }
    let s = steps.iter().find(|s| s.adds.is_unbounded())?;
    // The first such edge in edge order: search the source's own edges only.
    let e = a.model.out[s.from]
        .iter()
        .copied()
        .filter(|&e| a.model.edges[e].to() == s.to)
        .min()?;
    Some(a.model.edges[e].loc)
}
