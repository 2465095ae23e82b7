//! RH002 layer-window-shorter-than-horizon: a layer a copy outlives while
//! another layer still covers the effect (page `docs/rules/RH002.md`).

use super::at_layer;
use crate::analysis::{Analysis, IntentResult, LayerReach};
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
    let lid = &a.manifest.components[l.layer.component].id;
    let message = format!(
        "`{lid}` ({}) forgets the key after {}{}, but a copy can reach it {} after its first sighting of the key; another layer still covers the effect, so the defence is thinner than it looks",
        l.layer.label,
        l.layer.window.value,
        l.layer.window.provenance(),
        reach
    );
    out.push(at_layer(a, r, l, reach, Code::RH002, message));
}
