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
    let x = dup.bypass.expired?;
    let (window, layer) = (x.window, x.layer);
    let lid = &m.components[layer].id;
    let lay = copy.r.layer_of(layer).map(|l| l.layer.clone());
    let loc = lay
        .as_ref()
        .map_or(m.components[layer].loc, |l| window_loc(m, l));
    // The window runs from the layer's first sighting of the key: say so
    // where that is later than the intent.
    let when = if x.since == x.age {
        format!("{} after the intent", x.age)
    } else {
        format!(
            "{} after `{lid}` can first have seen the key ({} after the intent)",
            x.since, x.age
        )
    };
    let message = format!(
        "{} can reach `{eid}` {when}, but `{lid}` forgets the key after {}{}: the copy looks new and the effect happens twice",
        x.birth.describe(),
        window,
        lay.map(|l| l.window.provenance()).unwrap_or_default()
    );
    out.push(
        copy.finding(Code::RH001, message)
            .component(lid)
            .horizon(x.since)
            .window(window)
            .at(loc),
    );
    Some(layer)
}
