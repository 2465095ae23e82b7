//! RH002 layer-window-shorter-than-horizon: a layer a copy outlives while
//! another layer still covers the effect (page `docs/rules/RH002.md`).

use super::path_to;
use crate::analysis::{Analysis, IntentResult, LayerReach, window_loc};
use crate::rules::{Code, Finding};
use crate::time::Dur;

/// RH002: a layer a copy outlives while another layer still covers the
/// effect.
pub(super) fn emit(
    a: &Analysis,
    r: &IntentResult,
    l: &LayerReach,
    reach: Dur,
    out: &mut Vec<Finding>,
) {
    let m = a.manifest;
    let intent = &m.intents[r.intent];
    let origin = intent.origin.index().unwrap_or(0);
    let window = l.layer.window.value;
    let lid = &m.components[l.layer.component].id;
    let mut f = Finding::new(
        Code::RH002,
        format!(
            "`{lid}` ({}) forgets the key after {}{}, but a copy can reach it {}; another layer still covers the effect, so the defence is thinner than it looks",
            l.layer.label,
            window,
            l.layer.window.provenance(),
            reach
        ),
    )
    .intent(&intent.id)
    .component(lid)
    .horizon(reach)
    .window(window)
    .at(window_loc(m, &l.layer));
    f.path = path_to(a, r, l.at, origin);
    out.push(f);
}
