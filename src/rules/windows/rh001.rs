//! RH001 replay-outlives-dedup-window: a copy that arrives after a layer
//! has forgotten the key (page `docs/rules/RH001.md`).

use crate::analysis::window_loc;
use crate::rules::surviving::Surviving;
use crate::rules::{Code, Finding};

/// RH001: a copy that arrives after a layer has forgotten the key. Returns
/// the layer it flagged.
pub(super) fn emit(copy: &Surviving, out: &mut Vec<Finding>) -> Option<usize> {
    let m = copy.a.manifest;
    let dup = copy.dup;
    let eid = &m.components[copy.effect].id;
    let (window, layer, age) = dup.bypass.expired?;
    let lid = &m.components[layer].id;
    let lay = copy
        .r
        .layers
        .values()
        .find(|l| l.layer.component == layer)
        .map(|l| l.layer.clone());
    let loc = lay
        .as_ref()
        .map_or(m.components[layer].loc, |l| window_loc(m, l));
    let message = format!(
        "{} can reach `{eid}` {} after the intent, but `{lid}` forgets the key after {}{}: the copy looks new and the effect happens twice",
        dup.birth.describe(),
        age,
        window,
        lay.map(|l| l.window.provenance()).unwrap_or_default()
    );
    out.push(
        copy.finding(Code::RH001, message)
            .component(lid)
            .horizon(age)
            .window(window)
            .at(loc),
    );
    Some(layer)
}
