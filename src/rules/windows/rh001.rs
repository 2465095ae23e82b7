//! RH001 replay-outlives-dedup-window: a copy that arrives after a layer
//! has forgotten the key (page `docs/rules/RH001.md`).

use crate::analysis::{Analysis, Dup, IntentResult, Step, window_loc};
use crate::rules::{Code, Finding};

/// RH001: a copy that arrives after a layer has forgotten the key. Returns
/// the layer it flagged.
pub(super) fn emit(
    a: &Analysis,
    r: &IntentResult,
    effect: usize,
    dup: &Dup,
    steps: &[Step],
    assumed: Vec<String>,
    out: &mut Vec<Finding>,
) -> Option<usize> {
    let m = a.manifest;
    let intent = &m.intents[r.intent];
    let origin = intent.origin.index().unwrap_or(0);
    let eid = &m.components[effect].id;
    let (window, layer, age) = dup.bypass.expired?;
    let lid = &m.components[layer].id;
    let lay = r
        .layers
        .values()
        .find(|l| l.layer.component == layer)
        .map(|l| l.layer.clone());
    let loc = lay
        .as_ref()
        .map_or(m.components[layer].loc, |l| window_loc(m, l));
    let mut f = Finding::new(
        Code::RH001,
        format!(
            "{} can reach `{eid}` {} after the intent, but `{lid}` forgets the key after {}{}: the copy looks new and the effect happens twice",
            dup.birth.describe(),
            age,
            window,
            lay.map(|l| l.window.provenance()).unwrap_or_default()
        ),
    )
    .intent(&intent.id)
    .component(lid)
    .horizon(age)
    .window(window)
    .at(loc);
    f.path = IntentResult::path_ids(m, origin, steps);
    f.steps = steps.to_vec();
    f.assumptions = assumed;
    out.push(f);
    Some(layer)
}
