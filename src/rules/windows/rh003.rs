//! RH003 unbounded-replay-horizon: a copy that can reach an effect at any
//! age (page `docs/rules/RH003.md`).

use crate::analysis::{Analysis, Dup, IntentResult, Step};
use crate::rules::{Code, Finding};

/// RH003: a copy that can reach an effect at any age.
pub(super) fn emit(
    a: &Analysis,
    r: &IntentResult,
    effect: usize,
    dup: &Dup,
    steps: &[Step],
    assumed: Vec<String>,
    out: &mut Vec<Finding>,
) {
    let m = a.manifest;
    let intent = &m.intents[r.intent];
    let origin = intent.origin.index().unwrap_or(0);
    let eid = &m.components[effect].id;
    let mut f = Finding::new(
        Code::RH003,
        format!(
            "{} can reach `{eid}` at any age: nothing bounds how late it arrives ({}), and no layer with unbounded retention covers the effect",
            dup.birth.describe(),
            unbounded_reason(a, r, steps)
        ),
    )
    .intent(&intent.id)
    .component(eid)
    .at(unbounded_loc(a, r, steps).unwrap_or(m.components[effect].loc));
    f.path = IntentResult::path_ids(m, origin, steps);
    f.steps = steps.to_vec();
    f.assumptions = assumed;
    out.push(f);
}

fn unbounded_reason(a: &Analysis, r: &IntentResult, steps: &[Step]) -> String {
    if let Some(e) = r.unbounded_cycle {
        let em = &a.model.edges[e];
        return format!(
            "the cycle through `{}` → `{}` has no `max_times`",
            a.manifest.components[em.from].id, a.manifest.components[em.to].id
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
        .filter(|&e| a.model.edges[e].to == s.to)
        .min()?;
    Some(a.model.edges[e].loc)
}
